"""Collecting metadata candidates from the DOM: one walk of the ``<head>`` (``<meta>``,
``<link>``, ``<title>``, data scripts), one of the body (microdata ``<meta>``, ``<h1>``,
``<time>``, byline candidates), or the parser's list of tagged elements instead; and the
visibility tests and visible-text reader the title, byline and date rules share."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.dom import TEXT, Node
from ...core.hiding import attributes_hide
from ...core.invisible import strip_invisible
from ...core.threads import names_readers_section
from ..html import ParsedPage
from .keys import (
    ITEMPROP_META_KEYS,
    MAX_BYLINE_CANDIDATES,
    MAX_H1_CANDIDATES,
    MAX_JSON_LD_BLOCKS,
    MAX_TEXT_WALK_NODES,
    MAX_TIME_CANDIDATES,
)

#: class/id substrings that mark a byline element (matched in the lower-cased class and
#: id; "author" also covers microformats' "p-author").
BYLINE_CLASS_WORDS = ("byline", "author", "writtenby")
#: Lower-cased class/id substrings that contain "author" but mark something else
#: (login widgets: id="authorization"; "authority").
BYLINE_CLASS_FALSE_FRIENDS = ("authoriz", "authoris", "authorit")

#: Elements whose content is never visible text (WHATWG "rendering" section).
_INVISIBLE_TAGS = frozenset({"script", "style", "template", "noscript", "svg", "math", "head"})
#: Body elements the walk looks at (or does not descend into).
_BODY_SPECIAL_TAGS = frozenset({"script", "meta", "link", "h1", "time", "title"}) | _INVISIBLE_TAGS


@dataclass
class Scan:
    """Candidates collected from the page, each in document order (the first of a key wins)."""

    meta: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (content, attr)
    links: dict[str, str] = field(default_factory=dict)  # rel token -> href
    title: str | None = None
    json_ld: list[str] = field(default_factory=list)
    next_data: str | None = None
    h1s: list[Node] = field(default_factory=list)
    times: list[Node] = field(default_factory=list)
    bylines: list[tuple[Node, str]] = field(default_factory=list)  # (node, how)


def _add_meta(scan: Scan, node: Node) -> None:
    attrs = node.attrs
    content = attrs.get("content")
    if not content or not content.strip():
        return
    meta = scan.meta
    name = attrs.get("name")
    if name:
        key = name.strip().lower()
        if key and key not in meta:
            meta[key] = (content, "name")
    prop = attrs.get("property")
    if prop:
        for key in prop.lower().split():
            if key not in meta:
                meta[key] = (content, "property")
    equiv = attrs.get("http-equiv")
    if equiv:
        key = "http-equiv:" + equiv.strip().lower()
        if key not in meta:
            meta[key] = (content, "http-equiv")
    itemprop = attrs.get("itemprop")
    if itemprop:
        for token in itemprop.lower().split():
            if token in ITEMPROP_META_KEYS:
                key = "itemprop:" + token
                if key not in meta:
                    meta[key] = (content, "itemprop")


def _add_link(scan: Scan, node: Node) -> None:
    href = node.attrs.get("href")
    rel = node.attrs.get("rel")
    if not href or not rel:
        return
    for token in rel.lower().split():
        if token in ("canonical", "image_src") and token not in scan.links:
            scan.links[token] = href


def _add_script(scan: Scan, node: Node) -> None:
    attrs = node.attrs
    stype = attrs.get("type", "").split(";", 1)[0].strip().lower()  # MIME parameters
    if stype == "application/ld+json":
        if len(scan.json_ld) < MAX_JSON_LD_BLOCKS:
            scan.json_ld.append(node.text_content())
    elif attrs.get("id") == "__NEXT_DATA__" and scan.next_data is None:
        scan.next_data = node.text_content()


def scan_head(scan: Scan, head: Node) -> None:
    for node in head.iter_elements(include_self=False):
        tag = node.tag
        if tag == "meta":
            _add_meta(scan, node)
        elif tag == "link":
            _add_link(scan, node)
        elif tag == "script":
            _add_script(scan, node)
        elif tag == "title" and scan.title is None:
            scan.title = node.text_content()


def scan_tagged(scan: Scan, page: ParsedPage, head: Node | None, body: Node) -> None:
    """What :func:`scan_head` and :func:`scan_body` collect (without DOM byline
    candidates), read from the elements the parser listed (``ParsedPage.tagged``,
    ``ParsedPage.data_scripts``) instead of walking the tree: those still inside ``head``,
    or inside ``body`` and outside the elements the body walk does not enter. Lists are in
    document order, so head elements come first, as with the two walks."""
    where: dict[int, int] = {}  # id(element) -> _IN_HEAD / _IN_BODY / _ELSEWHERE

    def place(node: Node) -> int:
        path = []
        hidden = False
        a = node.parent
        verdict = _ELSEWHERE
        while a is not None:
            known = where.get(id(a))
            if known is not None:
                verdict = known
                break
            if a is head:
                verdict = _IN_HEAD
                break
            if a is body:
                verdict = _IN_BODY
                break
            if a.tag in _INVISIBLE_TAGS:
                hidden = True
            path.append(a)
            a = a.parent
        if hidden and verdict == _IN_BODY:
            verdict = _ELSEWHERE  # the body walk does not enter invisible elements
            return verdict  # not memoised: ancestors above the invisible element differ
        for p in path:
            where[id(p)] = verdict
        return verdict

    tagged = page.tagged
    for node in page.data_scripts:
        if place(node) != _ELSEWHERE:
            _add_script(scan, node)
    for node in tagged.get("meta", ()):
        if place(node) != _ELSEWHERE:
            _add_meta(scan, node)
    for node in tagged.get("link", ()):
        if place(node) != _ELSEWHERE:
            _add_link(scan, node)
    for node in tagged.get("title", ()):
        if place(node) != _ELSEWHERE:
            scan.title = node.text_content()
            break
    h1s, times = scan.h1s, scan.times
    for node in tagged.get("h1", ()):
        if len(h1s) >= MAX_H1_CANDIDATES:
            break
        if place(node) == _IN_BODY:
            h1s.append(node)
    for key in ("time", "chrome_time"):  # (times in a dropped aside or nav come last)
        for node in tagged.get(key, ()):
            if len(times) >= MAX_TIME_CANDIDATES:
                break
            if (node.attrs.get("datetime") or node.attrs.get("content")) and place(node) == _IN_BODY:
                times.append(node)


_IN_HEAD, _IN_BODY, _ELSEWHERE = 1, 2, 0


def scan_body(scan: Scan, body: Node, want_bylines: bool = True) -> None:
    """One pre-order walk of the body collecting every body-side candidate (DOM byline
    candidates only when ``want_bylines``)."""
    stack = list(reversed(body.children))
    h1s, times, bylines = scan.h1s, scan.times, scan.bylines
    want_bylines = want_bylines and len(bylines) < MAX_BYLINE_CANDIDATES
    while stack:
        node = stack.pop()
        tag = node.tag
        if tag == TEXT:
            continue
        if tag in _BODY_SPECIAL_TAGS:
            if tag == "script":
                _add_script(scan, node)
                continue
            if tag in _INVISIBLE_TAGS:
                continue
            if tag == "meta":
                _add_meta(scan, node)
            elif tag == "link":
                _add_link(scan, node)
            elif tag == "h1":
                if len(h1s) < MAX_H1_CANDIDATES:
                    h1s.append(node)
            elif tag == "time":
                if len(times) < MAX_TIME_CANDIDATES and (
                    node.attrs.get("datetime") or node.attrs.get("content")
                ):
                    times.append(node)
            elif tag == "title":
                if scan.title is None:
                    scan.title = node.text_content()
        if want_bylines:
            attrs = node.attrs
            if attrs:
                # Cheap case-tolerant pre-filter on the raw values ("uthor" matches
                # author/Author, "yline"/"yLine" byline/ByLine, "ritten" writtenby);
                # the exact test runs only on the rare hits.
                cls = attrs.get("class")
                ident = attrs.get("id")
                rel = attrs.get("rel")
                itemprop = attrs.get("itemprop")
                if (
                    (
                        cls
                        and ("uthor" in cls or "yline" in cls or "yLine" in cls or "ritten" in cls)
                    )
                    or (
                        ident
                        and (
                            "uthor" in ident
                            or "yline" in ident
                            or "yLine" in ident
                            or "ritten" in ident
                        )
                    )
                    or (rel and "uthor" in rel)
                    or (itemprop and "uthor" in itemprop)
                ):
                    how = _byline_marker(attrs)
                    if how is not None:
                        bylines.append((node, how))
                        if len(bylines) >= MAX_BYLINE_CANDIDATES:
                            want_bylines = False
        children = node.children
        if children:
            stack.extend(reversed(children))


def _byline_marker(attrs: dict[str, str]) -> str | None:
    """How an element's attributes mark it as a byline candidate (the source label), or
    ``None``: ``rel~=author``, ``itemprop~=author``, or a class/id containing one of
    :data:`BYLINE_CLASS_WORDS` (case-insensitively) other than a false friend."""
    rel = attrs.get("rel")
    if rel and "author" in rel.lower().split():
        return "dom[rel=author]"
    itemprop = attrs.get("itemprop")
    if itemprop and "author" in itemprop.lower().split():
        return "dom[itemprop=author]"
    key = f"{attrs.get('class', '')} {attrs.get('id', '')}".lower()
    for word in BYLINE_CLASS_WORDS:
        if word in key and not (word == "author" and _only_false_friends(key)):
            return "dom[class/id=byline]"
    return None


def _only_false_friends(key: str) -> bool:
    for friend in BYLINE_CLASS_FALSE_FRIENDS:
        key = key.replace(friend, "")
    return "author" not in key


def hidden_self(node: Node) -> bool:
    if node.tag in _INVISIBLE_TAGS:
        return True
    # hidden, aria-hidden, type=hidden, an inline display:none, a hiding class
    return attributes_hide(node.attrs)


def is_hidden(node: Node) -> bool:
    """True when the node or an ancestor is hidden by markup (``hidden``,
    ``aria-hidden="true"``, inline ``display:none``/``visibility:hidden``, a hiding class:
    :func:`unclutter.core.hiding.class_hides`) or sits in an element that never renders
    text."""
    if hidden_self(node):
        return True
    for anc in node.ancestors():
        if hidden_self(anc):
            return True
    return False


def visible_text(node: Node, limit: int) -> str:
    """Whitespace-collapsed visible text of ``node`` (hidden descendants skipped); stops
    reading once more than ``limit`` characters are collected or
    :data:`MAX_TEXT_WALK_NODES` nodes are visited (a candidate wrapping a huge subtree
    costs no more than a small one)."""
    parts: list[str] = []
    total = 0
    budget = MAX_TEXT_WALK_NODES
    stack = [node]
    while stack and budget > 0:
        budget -= 1
        n = stack.pop()
        if n.tag == TEXT:
            text = n.text
            if not text.isspace():
                parts.append(text)
                total += len(text.strip())
                if total > limit:
                    break
            else:
                parts.append(" ")
            continue
        if n is not node and hidden_self(n):
            continue
        if n.tag == "br":
            parts.append(" ")
        if n.children:
            stack.extend(reversed(n.children))
    return " ".join(strip_invisible("".join(parts)).split())


def in_readers_section(node: Node, replies: bool = True) -> bool:
    """Whether ``node`` or an ancestor below ``<body>`` names a comment thread or a
    container of customer reviews (:func:`unclutter.core.threads.names_readers_section`,
    ``replies`` passed on), unless that element holds an ``<h1>``: a name or a date there
    is a commenter's or a reviewer's, not the page's. (The body's own classes describe the
    page: ``comments-page`` on a thread.)"""
    n: Node | None = node
    while n is not None and n.tag not in ("body", "html"):
        if n.class_id and names_readers_section(n.class_id, replies):
            # an element so named that holds the page's <h1> wraps the story too
            # (``<article class="article-and-thread">``): its author's name is the page's
            return not _holds_h1(n)
        n = n.parent
    return False


def _holds_h1(node: Node) -> bool:
    """Whether an ``<h1>`` is below ``node`` (at most :data:`~.keys.MAX_TEXT_WALK_NODES`
    elements looked at: past them, none is assumed)."""
    seen = 0
    for n in node.iter_elements(include_self=False):
        if n.tag == "h1":
            return True
        seen += 1
        if seen >= MAX_TEXT_WALK_NODES:
            return False
    return False
