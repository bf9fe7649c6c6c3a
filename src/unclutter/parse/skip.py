"""Elements left out of the tree while it is built: the filter the prune stage passes
(:class:`ElementFilter`, decided on tag and attributes), the report of what was left out
(:class:`SkippedElement`), the CSS selectors that may apply to the page, and the
page-wrapper rules that keep a dropped element holding the whole page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from selectolax.lexbor import LexborHTMLParser

from ..core.ancestry import under_marked
from ..core.dom import TEXT, Node
from ..core.selectors import escaped_name

#: Never left out of the tree by ``skip_selector`` or ``skip_elements``: a rule hiding the
#: whole page (anti-clickjacking ``body{display:none}``, FOUC guards) is lifted by the page's
#: own script and says nothing about which content is hidden.
NEVER_SKIPPED = frozenset({"html", "head", "body"})


@dataclass
class SkippedElement:
    """An element left out of the tree by ``skip_selector``: its tag, attributes, text
    (characters of the whole subtree) and the copied parent it would have had."""

    tag: str
    attrs: dict
    text: str
    parent: Node
    #: some element inside it is hidden (``ElementFilter.hides``): its ``text`` holds text no
    #: reader sees, which a removal log must not show
    hidden_inside: bool = False
    #: why the page's styles hide it (``parse_html(style_resolver=...)``), when they do
    reason: str | None = None
    #: lexbor's identity of the element (``mem_id``), when known
    mem_id: int | None = None
    #: the lexbor node, for an element left out while the tree was built (its subtree is
    #: read once the page's styles are known: ``hidden_inside``)
    lnode: object = None


@dataclass(frozen=True)
class ElementFilter:
    """Elements left out of the tree while it is copied, decided in Python from the tag and
    the attributes, which the copy reads anyway (cheaper than a CSS pass over the page).

    Attributes:
        tags: elements dropped whatever their attributes.
        check_tags: elements for which ``test`` decides...
        attribute_names: ...as for any element that has one of these attributes.
        test: ``test(tag, attrs) -> bool``, ``True`` to drop.

    ``<html>``, ``<head>`` and ``<body>`` are never dropped.
    """

    tags: frozenset[str]
    check_tags: frozenset[str]
    attribute_names: frozenset[str]
    test: Callable[[str, dict[str, str]], bool]
    #: If given, in document order: ``observe(attrs)`` for every element that is kept,
    #: ``observe_dropped(attrs, controls)`` for every element left out, with the attributes
    #: of its descendants that have ``aria-controls`` (its subtree is
    #: not walked); ``start()`` before each build of the tree (a page may be built twice).
    observe: Callable[[dict[str, str]], None] | None = None
    observe_dropped: Callable[[dict[str, str], list[dict[str, str]]], None] | None = None
    start: Callable[[], None] | None = None
    #: ``chrome(tag, attrs)``: the dropped element is page chrome by its tag or role (not
    #: hidden). With ``parse_html(spare_wrappers=...)``, such an element that could hold
    #: the page (its text passes the wrapper test's size and link density) is built and
    #: decided once the tree is complete: a wrapper stays, as a ``<div>`` without role.
    chrome: Callable[[str, dict[str, str]], bool] | None = None
    #: ``loading(tag, attrs)``: the dropped element is hidden by its own attributes in a way
    #: a page's script undoes when it has loaded (``hidden``, ``aria-hidden``, inline
    #: ``display:none``/``visibility:hidden``). With ``parse_html(spare_wrappers=...)``, such
    #: an element that could hold the page is built and decided once the tree is complete:
    #: a wrapper holding the page's main landmark stays, without those attributes
    #: (:func:`_is_loading_page`: a loading state, an age gate, a dialog's inert
    #: background).
    loading: Callable[[str, dict[str, str]], bool] | None = None
    #: ``shown(tag, attrs, lnode)``: the dropped element is hidden only from assistive
    #: technology (``aria-hidden``) while a screen-reader twin beside it says the same for
    #: them: sighted readers see it. It is kept, without ``aria-hidden`` (``lnode``: its
    #: lexbor node, whose siblings are read).
    shown: Callable[[str, dict[str, str], object], bool] | None = None
    #: ``revisit(tag, attrs, lnode)``: the dropped element is hidden only by its own inline
    #: ``visibility: hidden`` while something inside it may declare itself visible again
    #: (``visibility`` is inherited, and a descendant can undo it): it stays in the tree and
    #: ``parse_html``'s ``style_resolver`` settles it (``honour``: their lexbor ``mem_id``).
    revisit: Callable[[str, dict[str, str], object], bool] | None = None
    #: ``question(tag, attrs, lnode)``: the dropped element is a control labelled with a
    #: question and nothing else drops it (an FAQ question as a plain ``<button>``): it is
    #: built, and the prune stage keeps it with its answer or removes it.
    question: Callable[[str, dict[str, str], object], bool] | None = None
    #: The share of the page's text such a hidden element must hold, the link density it
    #: must stay below, and the share of the
    #: text of a ``<main>``/``<article>`` around it that it must fill (:func:`_is_loading_page`;
    #: the prune stage passes ``rules.LOADING_WRAPPER_SHARE``,
    #: ``rules.LOADING_WRAPPER_LINK_DENSITY`` and ``rules.LOADING_LANDMARK_FILL``;
    #: the defaults keep nothing).
    loading_share: float = 1.01
    loading_link_density: float = 0.0
    #: ``holds_panels(node)``: a deferred chrome element (``chrome``) that holds what its
    #: role cannot own (the panels of a tab widget inside the element marked as its list of
    #: tabs) stays, as a ``<div>`` without role, whatever its share of the page.
    holds_panels: Callable[[Node], bool] | None = None
    landmark_fill: float = 1.01
    #: ``hides(attrs)``: an element with these attributes is hidden; read on the descendants
    #: of a dropped element when the skipped elements are reported
    #: (``SkippedElement.hidden_inside``).
    hides: Callable[[dict[str, str]], bool] | None = None


#: Descendants of a dropped element that ``ElementFilter.hides`` is asked about.
MAY_HIDE_SELECTOR = "[hidden],[aria-hidden],[style],[class],[type]"


def spare_revisit(revisit: Callable, tag: str, attrs: dict, lnode, honour: set[int] | None) -> bool:
    """Whether ``revisit`` keeps this element for the style resolver to settle (see
    ``ElementFilter.revisit``); if so its ``mem_id`` joins ``honour``."""
    if honour is None or not revisit(tag, attrs, lnode):
        return False
    honour.add(lnode.mem_id)
    return True


def spare_shown(shown: Callable, tag: str, attrs: dict, lnode) -> bool:
    """Whether ``shown`` keeps this element (see ``ElementFilter.shown``); if so its
    ``aria-hidden`` goes, so no later stage hides it for that."""
    if shown(tag, attrs, lnode):
        del attrs["aria-hidden"]
        return True
    return False


@lru_cache(maxsize=4096)
def _selector_ok(selector: str) -> bool:
    """Whether lexbor's CSS engine accepts ``selector`` (checked on a tiny document)."""
    try:
        _PROBE.css(selector)
        return True
    except Exception:  # noqa: BLE001 - selectolax raises plain exceptions for bad selectors
        return False


_PROBE = LexborHTMLParser("<p class=a id=b>x</p>")


_SELECTOR_TOKEN_RE = re.compile(r"[.#]-?[_a-zA-Z\u0080-\U0010ffff][\w\u0080-\U0010ffff-]*")
_SELECTOR_ARGUMENT_RE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


@lru_cache(maxsize=16384)
def _required_tokens(selector: str) -> tuple[str, ...] | None:
    """The class names and ids (``.name`` / ``#id``, lower-cased) that an element of the
    document must have for ``selector`` to match anything, or ``None`` when that cannot be
    told safely (escapes, quotes). Arguments of functional pseudo-classes (``:not(.x)``)
    and attribute selectors are not required and are left out."""
    if '"' in selector or "'" in selector:
        return None
    if "\\" in selector:
        return _escaped_required_tokens(selector)
    core = selector
    while "(" in core or "[" in core:
        stripped = _SELECTOR_ARGUMENT_RE.sub(" ", core)
        if stripped == core:
            return None  # unbalanced: leave the selector alone
        core = stripped
    return tuple(t.lower() for t in _SELECTOR_TOKEN_RE.findall(core))


#: An escape (CSS Syntax 3 §4.3.7), for the skeleton of a selector with escapes.
_ESCAPE_RE = re.compile(r"\\(?:[0-9a-fA-F]{1,6}[ \t\n]?|[^\n\r\f0-9a-fA-F])")


def _escaped_required_tokens(selector: str) -> tuple[str, ...] | None:
    """:func:`_required_tokens` of a selector whose names hold escapes (Tailwind's
    ``.md\\:hidden``), names read with their escapes resolved; ``None`` when, escapes
    aside, it has brackets or parentheses (then its structure is left to lexbor)."""
    skeleton = _ESCAPE_RE.sub("x", selector)
    if "\\" in skeleton or any(c in skeleton for c in "()[]"):
        return None
    out = []
    i, n = 0, len(selector)
    while i < n:
        ch = selector[i]
        if ch in ".#":
            got = escaped_name(selector, i + 1)
            if got is None:
                return None
            name, i = got
            if name:
                out.append(ch + name.lower())
        elif ch == "\\":
            got = escaped_name(selector, i)  # (a type selector's name, escaped)
            if got is None:
                return None
            i = max(got[1], i + 1)
        else:
            i += 1
    return tuple(out)


def applicable_selectors(selectors: list[str], classes: set[str], ids: set[str]) -> list[str]:
    """The selectors that can match this document: those whose required class names and
    ids (:func:`_required_tokens`) all occur in it. Sites ship stylesheets for every page
    of the site (CNN: 494 hiding rules), and lexbor checks every selector of a list against
    every element; most rules name classes the page does not use."""
    out = []
    for sel in selectors:
        need = _required_tokens(sel)
        if need is None or all((t[1:] in classes) if t[0] == "." else (t[1:] in ids) for t in need):
            out.append(sel)
    return out


def combined_selector(tree, selectors: list[str]) -> str:
    combined = ", ".join(selectors)
    try:
        _PROBE.css(combined)
        return combined
    except Exception:  # noqa: BLE001
        return ", ".join(s for s in selectors if _selector_ok(s))


#: Elements whose text is code or data, never a page wrapper's.
_CODE_TAGS = frozenset({"script", "style", "template", "noscript", "textarea", "title"})
#: Elements whose text a browser never renders, kept in the tree (data scripts: JSON-LD,
#: ``__NEXT_DATA__``; styles): left out of the page's text size and of an element's, which
#: the page-wrapper rules compare.
UNRENDERED_TEXT_TAGS = frozenset({"script", "style"})


def _text_counts(node: Node) -> tuple[int, int]:
    """``(characters of the text nodes below node, those inside <a> elements)``, one pass:
    characters other than spaces, tabs and line breaks (a template's indentation is no
    text), those of scripts and styles (never rendered) left out."""
    chars = links = 0
    stack = [(node, False)]
    while stack:
        n, in_link = stack.pop()
        if n.tag == TEXT:
            t = n.text
            k = len(t) - t.count(" ") - t.count("\n") - t.count("\t")
            chars += k
            if in_link:
                links += k
        elif n.children and n.tag not in UNRENDERED_TEXT_TAGS:
            inside = in_link or n.tag == "a"
            stack.extend((c, inside) for c in n.children)
    return chars, links


def _is_wrapper(node: Node, page_chars: int, share: float, density: float, least: int,
                lnode=None) -> bool:
    """Whether ``node`` holds at least ``share`` of the page's ``page_chars`` characters
    (of its built text nodes) and at least ``least``, with a link density below
    ``density``. ``lnode``: its lexbor node, whose text (a superset: scripts inside
    included) rules out small elements in C first."""
    if lnode is not None and len(lnode.text(deep=True)) < least:
        return False
    chars, links = _text_counts(node)
    return chars >= least and chars >= share * page_chars and links < density * chars


def _is_main_landmark(n: Node) -> bool:
    return n.tag == "main" or "main" in n.attrs.get("role", "").lower().split()


def _holds_main_landmark(node: Node) -> bool:
    """Whether ``node`` is or holds the page's main content landmark (``<main>``,
    ``role=main``, or an ``<h1>``) and no ``<main>``/``role=main`` lies outside it (one
    around it included): a loading state hides the page's own main content; hidden text
    next to a visible ``<main>`` is planted, however long. (The rule for stylesheet-hidden
    wrappers; :func:`_is_loading_page` is stricter.)"""
    if not any(_is_main_landmark(n) or n.tag == "h1" for n in node.iter_elements(include_self=True)):
        return False
    top = node
    while top.parent is not None:
        top = top.parent
    stack = [top]
    while stack:
        n = stack.pop()
        if n is node or n.tag == TEXT:
            continue
        if _is_main_landmark(n):
            return False
        stack.extend(n.children)
    return True


def _is_loading_page(node: Node, fill: float) -> bool:
    """Whether ``node`` (hidden by its own attributes) is, holds or fills
    (:func:`_fills_landmark_around`) the page's main content landmark (``<main>``,
    ``role=main``, or an ``<h1>``) and the page shows no other: no
    ``<main>``, ``role=main``, ``<article>`` or ``<h1>`` outside it, except a landmark
    around it whose text it fills to the share ``fill``: a loading state, an age gate, a
    dialog's inert background hide the page's own main content; hidden text next to a
    visible article, title or ``<main>`` is planted, however long."""
    if not any(_is_main_landmark(n) or n.tag == "h1" for n in node.iter_elements(include_self=True)) and (
            not _fills_landmark_around(node, fill)):
        return False
    around: dict[int, Node] = {}
    top = node
    while top.parent is not None:
        top = top.parent
        around[id(top)] = top
    chars = None
    stack = [top]
    while stack:
        n = stack.pop()
        if n is node or n.tag == TEXT:
            continue
        if n.tag in ("h1", "article") or _is_main_landmark(n):
            if id(n) not in around or n.tag == "h1":
                return False
            if chars is None:
                chars = _text_counts(node)[0]
            if chars < fill * _text_counts(n)[0]:
                return False
        stack.extend(n.children)
    return True


def _fills_landmark_around(node: Node, fill: float) -> bool:
    """Whether a ``<main>``, ``role=main`` or ``<article>`` around ``node`` holds little
    else: ``node``'s text is at least the share ``fill`` of it. Such a hidden block is the
    landmark's content (a listing or a product page hidden inside ``<main>`` until an
    access-check script shows it), whether or not it holds a heading of its own."""
    chars = None
    up = node.parent
    while up is not None:
        if up.tag == "article" or _is_main_landmark(up):
            if chars is None:
                chars = _text_counts(node)[0]
            if chars and chars >= fill * _text_counts(up)[0]:
                return True
        up = up.parent
    return False


def _may_wrap(lnode, wrapper: tuple[float, float, int] | None) -> bool:
    """Cheap first look (lexbor's text, scripts inside included) at a chrome element: at
    least ``wrapper[2]`` characters, link text below ``wrapper[1]`` of them. Only elements
    passing it are built, then decided by :func:`_is_wrapper`."""
    if wrapper is None:
        return False
    text = lnode.text(deep=True)
    if len(text) < wrapper[2]:
        return False
    links = sum(len(a.text(deep=True)) for a in lnode.css("a"))
    return links < wrapper[1] * len(text)


#: The attributes by which a page hides a loading state (``ElementFilter.loading``), taken
#: off a page wrapper that is kept (``ElementFilter.loading`` has checked that the style
#: hides nothing else).
_LOADING_ATTRIBUTES = ("hidden", "aria-hidden", "style")


def deferral(tag: str, attrs: dict | None, lnode, chrome, loading,
              wrapper: tuple[float, float, int] | None) -> str | None:
    """``"chrome"`` or ``"loading"`` when an element the filter drops may wrap the page
    (``ElementFilter.chrome`` / ``ElementFilter.loading``, then :func:`_may_wrap`): it is
    built and decided by :func:`decide_wrappers`; else ``None`` (dropped now)."""
    if chrome is None and loading is None:
        return None
    a = attrs or {}
    kind = ("chrome" if chrome is not None and chrome(tag, a)
            else "loading" if loading is not None and tag not in _CODE_TAGS and loading(tag, a) else None)
    return kind if kind is not None and _may_wrap(lnode, wrapper) else None


def decide_wrappers(deferred: list, page_chars: int, wrapper: tuple[float, float, int],
                     skipped: list[SkippedElement] | None, loading_share: float = 1.01,
                     landmark_fill: float = 1.01, loading_link_density: float = 0.0,
                     holds_panels: Callable[[Node], bool] | None = None) -> None:
    """Decide the deferred elements, listed in document order as ``(node, lexbor node,
    kind)``; ``"nested"`` is chrome inside another deferred element, kept (as a ``<div>``)
    only where ``holds_panels(node)`` is true and that element stays; otherwise chrome that holds the page (:func:`_is_wrapper`) stays as
    a ``<div>`` without its role; a hidden (``"loading"``) element that holds
    ``loading_share`` of the page (its text with this one shown and the other hidden ones
    not), with a link density below ``loading_link_density``, and its main landmark (:func:`_is_loading_page` with
    ``landmark_fill``) stays
    without its hiding attributes
    (``_LOADING_ATTRIBUTES``); chrome for which ``holds_panels(node)`` is true stays as a
    ``<div>`` too (:attr:`ElementFilter.holds_panels`); the others are removed (reported
    in ``skipped``)."""
    inside: set[int] = set()  # the removed ones' elements
    own: list[SkippedElement] = []  # their own entries
    # A hidden element's share is taken of the text a reader would see with it shown: the
    # page's built text less that of the other hidden ("loading") elements (hidden menus and
    # footers beside a product hidden until its script runs).
    hidden = {id(node): _text_counts(node)[0] for node, _, kind in deferred if kind == "loading"}
    shown_chars = page_chars - sum(hidden.values())
    for node, lnode, kind in deferred:
        if kind == "nested":
            # chrome inside a deferred element (decided before it, in document order): when
            # that one went, so did this; when it stays, this stays only as a list of tabs
            # holding its panels (the page has one wrapper)
            if id(node) in inside or (holds_panels is not None and holds_panels(node)):
                if id(node) not in inside:
                    node.tag = "div"
                    node.attrs.pop("role", None)
                continue
        elif kind == "chrome":
            if _is_wrapper(node, page_chars, *wrapper, lnode=lnode) or (
                    holds_panels is not None and holds_panels(node)):
                node.tag = "div"
                node.attrs.pop("role", None)
                continue
        elif _is_wrapper(node, shown_chars + hidden[id(node)], loading_share, loading_link_density, wrapper[2],
                         lnode=lnode) and (
                _is_loading_page(node, landmark_fill)):
            for name in _LOADING_ATTRIBUTES:
                node.attrs.pop(name, None)
            continue
        if skipped is not None:
            inside.update(id(n) for n in node.iter_elements(include_self=True))
            own.append(SkippedElement(node.tag, node.attrs, lnode.text(deep=True), node.parent))
        node.remove()
    if skipped is not None and own:
        # what was left out while a removed element was built lies inside it: one entry
        # (its own) says it (one filtering pass for all of them)
        skipped[:] = [s for s in skipped if id(s.parent) not in inside] + own


def drop_matched(tree, selector: str, index: dict[int, Node], skipped: list[SkippedElement] | None,
                  page_chars: int = 0, spare_wrappers: tuple[float, float, int] | None = None) -> None:
    """Detach the copies of the elements lexbor matches with ``selector`` (outermost
    only; ``<html>``, ``<head>``, ``<body>`` never) and report them in ``skipped`` (unless
    ``None``). ``spare_wrappers = (share, link density, least)``: an element holding at
    least ``share`` of the page's ``page_chars`` characters, and at least ``least``, with a
    link density below ``link density`` stays (:func:`_is_wrapper`)."""
    drop_nodes([(lnode, None) for lnode in tree.root.css(selector)], index, skipped, page_chars, spare_wrappers)


def drop_nodes(found: list, index: dict[int, Node], skipped: list[SkippedElement] | None,
                page_chars: int = 0, spare_wrappers: tuple[float, float, int] | None = None) -> None:
    """:func:`drop_matched` for ``found``: (lexbor node, reason or ``None``) pairs."""
    pairs = []
    reasons: dict[int, str | None] = {}
    for lnode, reason in found:
        node = index.get(lnode.mem_id)
        if node is not None and node.tag not in NEVER_SKIPPED:
            pairs.append((node, lnode))
            reasons[id(node)] = reason
    matched = {id(node) for node, _ in pairs}
    covered: dict[int, bool] = {}  # element -> it or an ancestor is matched (memo: linear overall)

    outermost = [(node, lnode) for node, lnode in pairs if not under_marked(node, matched, covered, key=id)]
    for node, lnode in outermost:
        if (spare_wrappers is not None and node.tag not in _CODE_TAGS
                and _is_wrapper(node, page_chars, *spare_wrappers, lnode=lnode)
                and _holds_main_landmark(node)):
            continue
        if skipped is not None:
            skipped.append(SkippedElement(node.tag, node.attrs, lnode.text(deep=True), node.parent,
                                          reason=reasons[id(node)]))
        node.remove()


def mark_hidden_inside(skipped: list[SkippedElement], verdicts) -> None:
    """Mark the skipped elements that hold an element the page's styles hide or may hide
    (``SkippedElement.hidden_inside``: their text holds text no reader sees): an element
    the verdicts name, or one that a hiding rule (``verdicts.selectors``) or style
    attribute (``verdicts.styled``) names inside it."""
    holders: set[int] = set()
    for lnode, _reason in list(verdicts.drop.values()) + list(verdicts.mute.values()):
        a = lnode.parent
        while a is not None and a.mem_id not in holders:
            holders.add(a.mem_id)
            a = a.parent
    selectors = getattr(verdicts, "selectors", "")
    styled = getattr(verdicts, "styled", None)
    for entry in skipped:
        if entry.hidden_inside:
            continue
        if entry.mem_id is not None and entry.mem_id in holders:
            entry.hidden_inside = True
        elif entry.lnode is not None:
            try:
                named = bool(selectors) and entry.lnode.css_first(selectors) is not None
            except Exception:  # noqa: BLE001 - (the selectors were checked by lexbor already)
                named = True
            entry.hidden_inside = named or (styled is not None and any(
                styled(n.attributes.get("style") or "") for n in entry.lnode.css("[style]")))


def mute_nodes(found: list, index: dict[int, Node]) -> None:
    """Remove the text children of the copies of ``found`` (lexbor node, reason) pairs:
    elements whose own text the page's styles make invisible while a descendant shows."""
    for lnode, _reason in found:
        node = index.get(lnode.mem_id)
        if node is not None and node.tag not in NEVER_SKIPPED:
            kept = [c for c in node.children if c.tag != TEXT]
            if len(kept) != len(node.children):
                for c in node.children:
                    if c.tag == TEXT:
                        c.parent = None
                node.children = kept
