"""HTML5 parsing: text in, :class:`unclutter.core.dom.Node` tree out.

Parser: lexbor (through selectolax), an implementation of the WHATWG HTML parsing
algorithm (https://html.spec.whatwg.org/multipage/parsing.html). Chosen over html5-parser
(gumbo) because gumbo's wheels must share lxml's libxml2 build (they do not, with PyPI's
lxml wheels) and over lxml.html (libxml2), which is not HTML5-conformant and caps depth at
~256 levels; lexbor parses a 180 kB page in ~1 ms here.

Limits: input deeper than :data:`~unclutter.core.limits.MAX_DOM_DEPTH` open elements is
refused before parsing (the tree builder is quadratic in depth). Comments are dropped,
``<template>`` contents are not part of the tree (WHATWG keeps them in a separate
fragment), and attribute values longer than ``MAX_ATTRIBUTE_CHARS`` are emptied; an
element whose ``style`` (less its custom properties and ``url()`` values,
``_strip_style_bulk``) or ``class`` is that long is hidden (``display:none``: what it says
about its visibility cannot be read).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable
from urllib.parse import urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser

from ..core.dom import DOCUMENT, TEXT, Node
from ..core.errors import InputTooComplexError, InputTooDeepError
from ..core.limits import (
    ATTRIBUTE_PAIRS_TAG_CHARS,
    LONG_TAG_CHARS,
    MAX_ATTRIBUTE_PAIRS,
    MAX_ATTRIBUTE_CHARS,
    MAX_ATTRIBUTES_PER_ELEMENT,
    MAX_ELEMENTS,
    MAX_DOM_DEPTH,
    MAX_STREAM_LOOKUPS,
)

__all__ = ["ElementFilter", "ParsedPage", "TAGGED_ELEMENTS", "SkippedElement", "parse_html", "estimate_depth",
           "simulated_depth", "crowded_tag_attribute_count"]

# Elements whose end tag is optional or that never have content: they do not deepen the
# tree when left unclosed (WHATWG "void elements" and "optional end tags").
_NON_NESTING = frozenset(
    "area base br col embed hr img input link meta source track wbr param keygen "
    "p li dt dd option optgroup tr td th thead tbody tfoot colgroup rb rt rtc rp "
    "html head body".split()
)
#: Elements whose content is never text for a reader: kept as empty nodes (their
#: attributes stay, for the prune log), their subtrees are not copied out of lexbor.
OPAQUE_TAGS = frozenset({"svg", "select", "datalist", "iframe", "object", "canvas", "video",
                         "audio", "noscript", "map", "frameset", "applet"})

#: Parents whose whitespace-only text never renders (CSS 2.1 §17.2.1: whitespace between
#: table parts; HTML: between list items, in <head>, <html>, <select>, <dl>).
_WHITESPACE_FREE_PARENTS = frozenset(
    "html head table thead tbody tfoot tr colgroup ul ol dl select optgroup datalist "
    "frameset picture video audio".split()
)
#: Elements rendered as blocks by default (HTML Living Standard, §15.3 "The CSS user agent
#: style sheet and presentational hints": display: block / list-item / table). Whitespace
#: right after one, or first inside one, collapses away (CSS Text 3, §4.1.1).
BLOCK_ELEMENTS = frozenset(
    """address article aside blockquote body center details dialog dd dir div dl dt
    fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li
    listing main menu nav ol p plaintext pre search section summary table tbody td tfoot
    th thead tr ul xmp caption colgroup col optgroup option""".split()
)
#: Void elements (HTML Living Standard §13.1.2): the parser never gives them children.
VOID_ELEMENTS = frozenset("area base br col embed hr img input link meta source track wbr".split())
#: Elements listed in ``ParsedPage.tagged`` as the tree is built (what the metadata stage
#: looks for in the body), so that finding them needs no walk.
TAGGED_ELEMENTS = frozenset({"h1", "time", "meta", "link", "title"})
#: Elements in which whitespace is preserved (``white-space: pre``).
_PRESERVE_WHITESPACE = frozenset({"pre", "textarea", "listing", "plaintext", "xmp"})

#: Never left out of the tree by ``skip_selector`` or ``skip_elements``: a rule hiding the
#: whole page (anti-clickjacking ``body{display:none}``, FOUC guards) is lifted by the page's
#: own script and says nothing about which content is hidden.
_NEVER_SKIPPED = frozenset({"html", "head", "body"})

_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^>]*?(/?)>")


def _tags_end(html: str) -> int:
    """End position for :data:`_TAG_RE` scans: just past the last ``>``. A tag start with
    no ``>`` after it cannot match, and without this bound each such start would scan to
    the end of the page (``"<a" * n``: quadratic); before it, every scan stops at the next
    ``>`` and is consumed by the match."""
    return html.rfind(">") + 1


#: Where :func:`_strip_style_bulk` may find a custom property (``--`` and a name
#: character) or a ``url(`` value.
_STYLE_BULK_START_RE = re.compile(r"--[\w-]|url\(", re.IGNORECASE)
_STYLE_BULK_URL_START_RE = re.compile(r"--[\w-]")
_STYLE_NAME_RUN_RE = re.compile(r"[\w-]*")
_STYLE_PROPERTY_TAIL_RE = re.compile(r"\s*:[^;]*;?")


def _strip_style_bulk(style: str) -> str:
    r"""``style`` less what makes an inline style long without saying anything about
    visibility: CSS custom property declarations (``--wt-padding: 18px;``, a newsletter
    theme's hundreds of them) and ``url(...)`` values (data URIs of background images).

    The same result as ``re.sub(r"--[\w-]+\s*:[^;]*;?|url\([^)]*\)", "", style,
    flags=re.IGNORECASE)``, in linear time: that pattern rescans a name run from each
    ``--`` inside it (``"--" * n``) and the rest of the text from each unclosed ``url(``,
    quadratic on hostile styles. Here a name run whose declaration does not follow is
    skipped whole (every ``--`` inside it meets the same end), and after one ``url(``
    without a ``)`` no later one can close.
    """
    out: list[str] = []
    copied = i = 0
    start_re = _STYLE_BULK_START_RE
    while (m := start_re.search(style, i)) is not None:
        i = m.start()
        if style[i] == "-":
            run_end = _STYLE_NAME_RUN_RE.match(style, i + 2).end()
            tail = _STYLE_PROPERTY_TAIL_RE.match(style, run_end)
            if tail is not None:
                out.append(style[copied:i])
                copied = i = tail.end()
                continue
            # a url( can only start inside the run where its "(" ends it
            if start_re is _STYLE_BULK_START_RE and run_end - 3 > i and style[run_end:run_end + 1] == "(" \
                    and style[run_end - 3:run_end].lower() == "url":
                i = run_end - 3
            else:
                i = run_end
            continue
        close = style.find(")", i + 4)
        if close < 0:
            start_re = _STYLE_BULK_URL_START_RE  # no later url( can close either
            i += 4
            continue
        out.append(style[copied:i])
        copied = i = close + 1
    if not out:
        return style
    out.append(style[copied:])
    return "".join(out)

def estimate_depth(html: str) -> int:
    """Quick upper estimate of element nesting depth from a linear scan of the tags.

    Counts start tags minus end tags, ignoring void elements and elements with optional
    end tags (see ``_NON_NESTING``). A ``/>`` does not close a non-void HTML element (the
    parser ignores it there), so it counts as a start tag too. Raw-text content
    (script/style) may add noise: this only decides whether :func:`simulated_depth` is
    needed.
    """
    depth = 0
    deepest = 0
    for m in _TAG_RE.finditer(html, 0, _tags_end(html)):
        name = m.group(2).lower()
        if name in _NON_NESTING:
            continue
        if m.group(1):
            if depth > 0:
                depth -= 1
        else:
            depth += 1
            if depth > deepest:
                deepest = depth
    return deepest


#: Start tags that close an open ``<p>`` (WHATWG HTML §13.2.6.4.7, "in body": "If the
#: stack of open elements has a p element in button scope, then close a p element").
_CLOSES_P = frozenset(
    """address article aside blockquote center details dialog dir div dl fieldset figcaption
    figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr main menu nav ol p pre listing
    search section summary table ul li dd dt plaintext xmp""".split()
)
#: Elements that bound the searches for an element "in scope" (§13.2.4.2, "has an
#: element in scope"; button scope adds ``button``).
_SCOPE_BOUNDARIES = frozenset(
    "applet caption html table td th marquee object template button svg math".split()
)
#: Start tags that close the nearest open element of the same group first, and where that
#: search stops (list item scope, table scope...), as the tree builder does.
_CELL = (frozenset({"td", "th"}), frozenset({"table"}))
_ROW = (frozenset({"tr"}), frozenset({"table", "tbody", "thead", "tfoot"}))
_SECTION = (frozenset({"tbody", "thead", "tfoot"}), frozenset({"table"}))
_IMPLIED_CLOSE = {
    "li": ((frozenset({"li"}), frozenset({"ol", "ul"})),),
    "dd": ((frozenset({"dd", "dt"}), frozenset({"dl"})),),
    "dt": ((frozenset({"dd", "dt"}), frozenset({"dl"})),),
    "td": (_CELL,),
    "th": (_CELL,),
    "tr": (_CELL, _ROW),  # a row start ends the open cell, then the open row
    "tbody": (_CELL, _ROW, _SECTION),
    "thead": (_CELL, _ROW, _SECTION),
    "tfoot": (_CELL, _ROW, _SECTION),
    # a new <a> or <nobr> ends the open one (the adoption agency algorithm)
    "a": ((frozenset({"a"}), frozenset()),),
    "nobr": ((frozenset({"nobr"}), frozenset()),),
    "option": ((frozenset({"option"}), frozenset({"select", "datalist", "optgroup"})),),
    "optgroup": ((frozenset({"option", "optgroup"}), frozenset({"select", "datalist"})),),
}
_HEADING_TAGS = frozenset("h1 h2 h3 h4 h5 h6".split())
#: Elements whose content is text, not tags (their end tag is searched for directly).
_RAW_TEXT = frozenset("script style textarea title xmp iframe noembed noframes".split())


class _OpenElements:
    """The simulated stack of open elements, with the stack positions of each open tag
    name, so that finding the nearest open element of a name (or a scope boundary) is a
    lookup rather than a walk down the stack: the simulation stays linear in the number
    of tags whatever the depth (each element is pushed and popped once)."""

    __slots__ = ("names", "where")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.where: dict[str, list[int]] = {}

    def __len__(self) -> int:
        return len(self.names)

    def push(self, name: str) -> None:
        self.where.setdefault(name, []).append(len(self.names))
        self.names.append(name)

    def top(self) -> str | None:
        return self.names[-1] if self.names else None

    def last(self, names) -> int:
        """Stack position of the nearest open element among ``names``, or -1."""
        best = -1
        for name in names:
            at = self.where.get(name)
            if at and at[-1] > best:
                best = at[-1]
        return best

    def pop_to(self, position: int) -> None:
        """Pop every element at ``position`` and above."""
        names, where = self.names, self.where
        while len(names) > position:
            where[names.pop()].pop()

    def close_nearest(self, names, stop) -> None:
        """Pop through the nearest open element among ``names``, unless a scope boundary
        or one of ``stop`` is open above it."""
        at = self.last(names)
        if at >= 0 and at > self.last(stop) and at > self.last(_SCOPE_BOUNDARIES.difference(names)):
            self.pop_to(at)


def simulated_depth(html: str, limit: int | None = None) -> int:
    """Nesting depth the tree builder would reach, from a simulation of its stack of open
    elements: end tags close up to the matching open element, the implied end tags of
    ``<p>``, ``<li>``, ``<dd>``/``<dt>``, table parts, ``<option>`` and headings, a new
    ``<a>``/``<nobr>`` ending the open one, ``/>`` closing elements only inside
    ``<svg>``/``<math>``, raw-text elements skipped whole. Only run when
    :func:`estimate_depth`, which ignores all that, is over the limit: sloppy pages (an
    unclosed ``<a>`` or ``<font>`` in each of thousands of paragraphs) are shallow once
    parsed. Linear in the number of tags; stops as soon as the depth passes ``limit``.
    """
    stack = _OpenElements()
    deepest = 0
    pos = 0
    n = len(html)
    search = _TAG_RE.search
    tags_end = _tags_end(html)
    p_only = ("p",)
    while pos < n:
        m = search(html, pos, tags_end)
        if m is None:
            break
        pos = m.end()
        name = m.group(2).lower()
        if m.group(1):  # end tag: close up to the matching open element, if any
            at = stack.last((name,))
            if at >= 0:
                stack.pop_to(at)
            continue
        if name in VOID_ELEMENTS or name in ("html", "head", "body"):
            continue
        foreign = stack.last(("svg", "math")) >= 0
        if m.group(3) and (foreign or name in ("svg", "math")):
            continue  # self-closing in foreign content
        if name in _RAW_TEXT:  # a leaf: its content is text up to its end tag
            deepest = max(deepest, len(stack) + 1)
            close = re.compile(rf"</{name}\s*>", re.IGNORECASE).search(html, pos)
            pos = close.end() if close else n
            continue
        if not foreign:
            if name in _CLOSES_P:
                stack.close_nearest(p_only, ())
            if name in _HEADING_TAGS and stack.top() in _HEADING_TAGS:
                stack.pop_to(len(stack) - 1)
            for names, stop in _IMPLIED_CLOSE.get(name, ()):
                stack.close_nearest(names, stop)
        stack.push(name)
        if len(stack) > deepest:
            deepest = len(stack)
            if limit is not None and deepest > limit:
                break
    return deepest


_START_TAG_RE = re.compile(r"<[A-Za-z]")


def start_tag_count(html: str) -> int:
    """Start tags in ``html`` (``<`` followed by a letter: an upper bound of the elements a
    parser builds, comments and script text included)."""
    return sum(1 for _ in _START_TAG_RE.finditer(html))


def crowded_tag_attribute_count(html: str, limit: int = MAX_ATTRIBUTES_PER_ELEMENT,
                                min_chars: int = LONG_TAG_CHARS) -> int:
    """The attribute count of a start tag of at least ``min_chars`` characters that holds
    more than ``limit`` attributes, or 0 when there is none.

    Such a tag spans a whole aligned block of ``min_chars // 2`` characters without a
    ``>``: the blocks are tested with ``str.find`` (each stops at the first ``>``, usually
    within a few characters). Around a block without one, the tag that holds it is the
    first ``<`` + letter after the last ``>`` before the block (HTML tokenization: text
    runs until such a tag opens), and its attributes are counted up to the next ``>``;
    a count over ``limit`` is believed only when the tag is not inside a comment or a
    raw-text element (:func:`_in_text_or_comment`).
    """
    half = max(1, min_chars // 2)
    n = len(html)
    start = 0
    while start < n:
        if html.find(">", start, start + half) != -1:
            start += half
            continue
        opened = _TAG_OPEN_RE.search(html, html.rfind(">", 0, start) + 1, start + half)
        end = html.find(">", start + half)
        end = n if end == -1 else end
        # attributes are separated by whitespace, "/" or a closing quote: an upper bound
        # counted in C comes first, the regex only for a tag that may be over the limit
        if opened is not None and sum(html.count(c, opened.end(), end) for c in _SEPARATORS) > limit:
            count = len(_ATTRIBUTE_RE.findall(html, opened.end(), end))
            if count > limit and not _in_text_or_comment(html, opened.start()):
                return count
        start = end + 1
    return 0


def attribute_pairs(html: str, limit: int = MAX_ATTRIBUTE_PAIRS,
                    min_chars: int = ATTRIBUTE_PAIRS_TAG_CHARS) -> int:
    """The sum of the squared attribute counts of the start tags of at least ``min_chars``
    characters (found as in :func:`crowded_tag_attribute_count`), left out those inside a
    comment or raw-text element; once the sum passes ``limit`` it is returned as is.

    The tags are first counted wherever they are (one pass; enough for nearly every page);
    only when that passes ``limit`` are the comments and raw-text elements located, in one
    more pass (:func:`_text_and_comment_spans`), and the tags inside them left out.
    """
    tags = _long_tag_counts(html, min_chars)
    if sum(count * count for _, count in tags) <= limit:
        return sum(count * count for _, count in tags)
    spans = _text_and_comment_spans(html)
    starts = [start for start, _ in spans]
    total = 0
    for pos, count in tags:
        k = bisect.bisect_right(starts, pos) - 1
        if k >= 0 and pos < spans[k][1]:
            continue
        total += count * count
        if total > limit:
            break
    return total


def _long_tag_counts(html: str, min_chars: int) -> list[tuple[int, int]]:
    """(position, attribute count) of the start tags of at least ``min_chars`` characters
    that hold more than one attribute (aligned blocks of ``min_chars // 2`` without a
    ``>``, as in :func:`crowded_tag_attribute_count`). Linear: the blocks are tested with
    ``str.find``, and each long tag is counted once."""
    half = max(1, min_chars // 2)
    n = len(html)
    out: list[tuple[int, int]] = []
    start = 0
    while start < n:
        if html.find(">", start, start + half) != -1:
            start += half
            continue
        opened = _TAG_OPEN_RE.search(html, html.rfind(">", 0, start) + 1, start + half)
        end = html.find(">", start + half)
        end = n if end == -1 else end
        if opened is not None and sum(html.count(c, opened.end(), end) for c in _SEPARATORS) > 1:
            count = sum(1 for _ in _ATTRIBUTE_RE.finditer(html, opened.end(), end))
            if count > 1:
                out.append((opened.start(), count))
        start = end + 1
    return out


def _text_and_comment_spans(html: str) -> list[tuple[int, int]]:
    """(start, end) of the comments and raw-text elements (``<script>``, ``<style>``...) of
    ``html`` in order, where a ``<`` opens no tag; one forward pass (an unclosed one runs
    to the end)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    n = len(html)
    while (m := _RAW_TEXT_OPENER_ANY_CASE_RE.search(html, pos)) is not None:
        if m.group() == "<!--":
            close = html.find("-->", m.end())
            end = n if close < 0 else close + 3
        else:
            close = re.compile("</" + m.group(1), re.IGNORECASE).search(html, m.end())
            end = n if close is None else close.end()
        spans.append((m.start(), end))
        pos = end
    return spans


def _in_text_or_comment(html: str, pos: int) -> bool:
    """Whether ``pos`` lies inside a comment or the content of a raw-text element
    (``<script>``, ``<style>``...), where a ``<`` does not open a tag: the last such
    opener before ``pos`` has no closer before it. Only called for the rare long runs
    without ``>``."""
    low = html[max(0, pos - _RAW_TEXT_LOOKBACK):pos].lower()
    last = None
    for last in _RAW_TEXT_OPENER_RE.finditer(low):
        pass
    if last is None:
        return False
    closer = "-->" if last.group() == "<!--" else "</" + last.group(1)
    return low.find(closer, last.end()) == -1


_RAW_TEXT_OPENER_RE = re.compile("<!--|<(" + "|".join(sorted(_RAW_TEXT)) + r")(?=[\s/>])")
_RAW_TEXT_OPENER_ANY_CASE_RE = re.compile(_RAW_TEXT_OPENER_RE.pattern, re.IGNORECASE)
#: How far back :func:`_in_text_or_comment` looks for the opener, in characters.
_RAW_TEXT_LOOKBACK = 4 * 1024 * 1024


_TAG_OPEN_RE = re.compile(r"<[A-Za-z][^\s/>]*")
_SEPARATORS = " \t\n\r\f/\"'"
#: One attribute (name, optional value) inside a start tag.
_ATTRIBUTE_RE = re.compile(r"[^\s\"'>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]*))?")


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
    #: The share of the page's text such a hidden element must hold, the link density it
    #: must stay below, and the share of the
    #: text of a ``<main>``/``<article>`` around it that it must fill (:func:`_is_loading_page`;
    #: the prune stage passes ``rules.LOADING_WRAPPER_SHARE``,
    #: ``rules.LOADING_WRAPPER_LINK_DENSITY`` and ``rules.LOADING_LANDMARK_FILL``;
    #: the defaults keep nothing).
    loading_share: float = 1.01
    loading_link_density: float = 0.0
    landmark_fill: float = 1.01
    #: ``hides(attrs)``: an element with these attributes is hidden; read on the descendants
    #: of a dropped element when the skipped elements are reported
    #: (``SkippedElement.hidden_inside``).
    hides: Callable[[dict[str, str]], bool] | None = None


#: Descendants of a dropped element that ``ElementFilter.hides`` is asked about.
_MAY_HIDE = "[hidden],[aria-hidden],[style],[class],[type]"


@dataclass
class ParsedPage:
    """Output of the parse stage.

    Attributes:
        root: the ``#document`` node.
        base_url: absolute URL relative links resolve against (``<base href>`` joined
            with the page URL), or ``None`` when neither is known.
        url: the page URL as given.
        html: the decoded source text (kept for token counting and structured data).
        styles: the text of every ``<style>`` element, in document order.
        data_scripts: the ``<script>`` elements holding structured data (JSON-LD,
            ``__NEXT_DATA__``), in document order.
        skipped: outermost elements left out by ``skip_elements`` or ``skip_selector``
            (empty when parsed with ``report_skipped=False``).
        tagged: the copied elements whose tag is in :data:`TAGGED_ELEMENTS`, by tag, in
            document order, as built (a later stage may have detached some since).
        style_selectors_applied: ``skip_selector`` was a function of the page's
            ``<style>`` texts and every selector it gave that lexbor accepts was applied.
        skip_elements: the :class:`ElementFilter` the tree was built with, if any.
        microdata_types: the ``itemtype`` values of the document's top-level microdata
            items (schema.org microdata, https://html.spec.whatwg.org/#microdata: elements
            with ``itemtype`` and no ``itemprop``; a nested item such as a review's
            ``itemReviewed`` product or an FAQ's ``mainEntity`` question describes a part
            of the page, not the page), in document order, at most
            :data:`MAX_MICRODATA_TYPES`; read by lexbor before the tree is built, hidden
            elements included (a page-level declaration, like JSON-LD).
    """

    root: Node
    base_url: str | None
    url: str | None
    html: str
    styles: list[str] = field(default_factory=list)
    data_scripts: list[Node] = field(default_factory=list)
    skipped: list[SkippedElement] = field(default_factory=list)
    tagged: dict[str, list[Node]] = field(default_factory=dict)
    style_selectors_applied: bool = False
    skip_elements: ElementFilter | None = None
    microdata_types: list[str] = field(default_factory=list)

    @property
    def html_node(self) -> Node | None:
        return _child(self.root, "html")

    @property
    def head(self) -> Node | None:
        h = _child(self.root, "html")
        return _child(h, "head") if h is not None else None

    @property
    def body(self) -> Node | None:
        h = _child(self.root, "html")
        return _child(h, "body") if h is not None else None


#: At most this many ``itemtype`` values are kept in ``ParsedPage.microdata_types``.
MAX_MICRODATA_TYPES = 64


#: A page spelling the attribute none of these ways has no microdata item (attribute names
#: are case-insensitive; a case-folded search of the whole page costs ~1 ms per 100 KB).
_MICRODATA_SPELLINGS = ("itemtype", "itemType", "ITEMTYPE", "ItemType")


def _microdata_types(tree) -> list[str]:
    """The first :data:`MAX_MICRODATA_TYPES` ``itemtype`` attribute values (each cut to
    ``MAX_ATTRIBUTE_CHARS`` characters) of a lexbor document's top-level items (no
    ``itemprop``)."""
    out: list[str] = []
    for n in tree.css("[itemtype]:not([itemprop])"):
        v = n.attributes.get("itemtype")
        if v:
            out.append(v[:MAX_ATTRIBUTE_CHARS])
            if len(out) >= MAX_MICRODATA_TYPES:
                break
    return out


def _child(node: Node, tag: str) -> Node | None:
    for c in node.children:
        if c.tag == tag:
            return c
    return None


def _convert(lexbor_document, styles: list[str], data_scripts: list[Node],
             skipped: list | None = None, scripting: bool = True,
             skip_elements: ElementFilter | None = None,
             index: dict[int, Node] | None = None, classes: set[str] | None = None,
             ids: set[str] | None = None, tagged: dict[str, list[Node]] | None = None,
             streamed: list[str] | None = None,
             deferred: list | None = None, wrapper: tuple[float, float, int] | None = None,
             sizes: list[int] | None = None, tex_scripts: bool = False,
             honour: set[int] | None = None) -> Node:
    """Copy lexbor's tree into :class:`Node` objects, in document order.

    ``tex_scripts``: the page loads MathJax (:func:`loads_mathjax`): its TeX scripts are
    read as formulas (:func:`_tex_script_math`).

    Iterative depth-first walk over a stack of lexbor child iterators, one per open
    element: children are appended to their parent's copy as they come, so no node needs a
    parent lookup, and subtrees that are not copied (skipped elements, contents of
    ``OPAQUE_TAGS``, comments, elements ``skip_elements`` leaves out: those are reported in
    ``skipped``) are never visited. Collected on the way: ``<style>`` texts (``styles``),
    structured-data scripts (``data_scripts``), elements of :data:`TAGGED_ELEMENTS`
    (``tagged``), the ids of React streaming placeholders ``<template id="B:...">``
    (``streamed``) and, when ``index`` is given, each copied element by lexbor's node
    identity (``mem_id``) and the lower-cased class names and ids present (``classes``,
    ``ids``). Chrome and hidden elements that may be page wrappers (``ElementFilter.chrome``,
    ``ElementFilter.loading``, :func:`_may_wrap` with ``wrapper``) are built and listed in
    ``deferred``, with their lexbor nodes and kinds, for :func:`_decide_wrappers`; elements
    ``ElementFilter.revisit`` keeps join ``honour`` (their ``mem_id``); ``sizes`` receives the characters of all
    text nodes built, as :func:`_text_counts` counts them (non-blank, scripts' and styles'
    text left out: the page's size for the wrapper test).
    """
    root = Node(DOCUMENT)
    # (child iterator, the copy its children join, inside <pre> and kin)
    stack: list[tuple[object, Node, bool]] = [(lexbor_document.iter(include_text=True), root, False)]
    push = stack.append
    ws_free = _WHITESPACE_FREE_PARENTS
    blocks = BLOCK_ELEMENTS
    observe = observe_dropped = chrome = loading = None
    open_deferred = 0  # deferred elements open on the stack: nested ones are not deferred
    deferred_ids: set[int] = set()
    text_chars = 0
    if skip_elements is not None:
        if deferred is not None and wrapper is not None:
            chrome = skip_elements.chrome
            loading = skip_elements.loading
        drop_tags = skip_elements.tags
        shown = skip_elements.shown
        revisit = skip_elements.revisit
        check_tags = skip_elements.check_tags
        check_names = skip_elements.attribute_names
        test = skip_elements.test
        observe = skip_elements.observe
        observe_dropped = skip_elements.observe_dropped
    else:
        drop_tags = check_tags = check_names = frozenset()
        test = shown = revisit = None
    while stack:
        children, parent, pre = stack[-1]
        siblings = parent.children
        ptag = parent.tag
        for child in children:
            tag = child.tag
            if tag == "-text":
                text = child.text_content
                if not text:
                    continue
                if not pre and text.isspace():
                    # whitespace that cannot render: drop it (fewer nodes for every stage)
                    if ptag in ws_free:
                        continue
                    if siblings:
                        if siblings[-1].tag in blocks:
                            continue
                    elif ptag in blocks:
                        continue
                if ptag not in _UNRENDERED_TEXT_TAGS:
                    text_chars += len(text) - text.count(" ") - text.count("\n") - text.count("\t")
                if siblings and siblings[-1].tag == TEXT:
                    siblings[-1].text += text  # merge adjacent text (comments removed)
                else:
                    node = Node(TEXT, None, text)
                    node.parent = parent
                    siblings.append(node)
                continue
            if not tag or tag[0] == "-":
                continue
            if tag == "template":  # its content is not part of the tree (WHATWG)
                if streamed is not None:
                    tid = child.attributes.get("id")
                    if tid and tid.startswith(("B:", "P:")):
                        streamed.append(tid)  # a React streaming boundary or placeholder
                continue
            if tag == "noscript" and not scripting:
                # unwrap: its children join the parent, in its place
                push((child.iter(include_text=True), parent, pre))
                break
            attrs = child.attributes
            if attrs:
                values = attrs.values()
                if None in values or sum(map(len, values)) > MAX_ATTRIBUTE_CHARS:
                    unreadable = False
                    for k, v in attrs.items():
                        if v is None or len(v) > MAX_ATTRIBUTE_CHARS:
                            if k == "style" and v is not None:
                                # custom properties and url() values (data URIs) say nothing
                                # about visibility: the rest is kept for the hiding checks
                                v = _strip_style_bulk(v)
                                if len(v) <= MAX_ATTRIBUTE_CHARS:
                                    attrs[k] = v
                                    continue
                            attrs[k] = ""
                            unreadable = unreadable or (v is not None and k in ("style", "class"))
                    if unreadable:
                        # a style or class too long to read may hide the element: it is
                        # hidden (padding must not smuggle "display:none" past the checks)
                        attrs["style"] = "display:none"
            if tex_scripts and tag == "script" and attrs and TEX_SCRIPT_TYPE_RE.match(attrs.get("type") or ""):
                text_chars += _tex_script_math(child, attrs, parent, siblings)
                continue
            defer = None
            if (
                tag in drop_tags
                or (test is not None and (tag in check_tags or (attrs and not check_names.isdisjoint(attrs)))
                    and tag not in _NEVER_SKIPPED and test(tag, attrs))
            ) and not (defer := _deferral(tag, attrs, child, chrome, loading, wrapper) if not open_deferred else None
                       ) and not (shown is not None and attrs and "aria-hidden" in attrs and _spare_shown(
                           shown, tag, attrs, child)) and not (
                    revisit is not None and attrs and "style" in attrs and _spare_revisit(
                        revisit, tag, attrs, child, honour)):
                if observe_dropped is not None:
                    observe_dropped(attrs or {}, [  # (lexbor gives None for a valueless attribute)
                        {k: v or "" for k, v in n.attributes.items()} for n in child.css("[aria-controls]")])
                if tag == "style":
                    styles.append(child.text(deep=True))
                if skipped is not None:
                    hides = skip_elements.hides if skip_elements is not None else None
                    skipped.append(SkippedElement(tag, attrs, child.text(deep=True), parent, hides is not None and any(
                        hides({k: v or "" for k, v in n.attributes.items()}) for n in child.css(_MAY_HIDE)),
                        mem_id=child.mem_id, lnode=child))
                continue
            node = Node(tag, attrs)
            node.parent = parent
            siblings.append(node)
            if defer:
                deferred.append((node, child, defer))
                deferred_ids.add(id(node))
            if observe is not None and attrs:
                observe(attrs)
            if index is not None:
                index[child.mem_id] = node
                if attrs:
                    value = attrs.get("class")
                    if value:
                        classes.update(value.lower().split())
                    value = attrs.get("id")
                    if value:
                        ids.add(value.lower())
            if tag in TAGGED_ELEMENTS and tagged is not None:
                tagged.setdefault(tag, []).append(node)
            if tag == "style":
                styles.append(child.text(deep=True))
            elif tag == "script" and attrs and (
                "json" in attrs.get("type", "").lower() or attrs.get("id") == "__NEXT_DATA__"
            ):
                data_scripts.append(node)
            if tag == "math":
                _read_math(node, child)
                text_chars += sum(len(c.text) for c in node.children)
                continue
            if tag not in OPAQUE_TAGS and tag not in VOID_ELEMENTS:
                push((child.iter(include_text=True), node, pre or tag in _PRESERVE_WHITESPACE))
                if defer:
                    open_deferred += 1
                break
        else:
            stack.pop()
            if open_deferred and id(parent) in deferred_ids:
                open_deferred -= 1
    if sizes is not None:
        sizes.append(text_chars)
    return root


#: React's streaming runtime calls: ``$RC("B:m", "S:n")`` (complete a Suspense boundary)
#: and ``$RS("S:n", "P:m")`` (fill a placeholder with a segment).
_STREAM_CALL_RE = re.compile(
    r"""\$R([CS])\(\s*["']([BS]):([0-9a-zA-Z_]+)["']\s*,\s*["']([SP]):([0-9a-zA-Z_]+)["']""")
#: A streamed segment's opening tag, and a boundary's or placeholder's, as React writes them.
_SEGMENT_RE = re.compile(r"""<div hidden id="S:([0-9a-zA-Z_]+)">""")
_STREAM_TEMPLATE_RE = re.compile(r"""<template id="([BP]:[0-9a-zA-Z_]+)">""")


#: TeX annotations of a MathML formula (MathML 3 §5.1: ``<semantics>`` with an
#: ``<annotation>`` in a TeX encoding), as MathJax, KaTeX, LaTeXML (arXiv) and Wikipedia write them.
_TEX_ANNOTATION = ('annotation[encoding="application/x-tex"], annotation[encoding="TeX"], '
                   'annotation[encoding="text/x-tex"], annotation[encoding="application/x-latex"]')
#: MediaWiki wraps its TeX in ``{\displaystyle ...}`` (or ``\textstyle``).
#: (The formula starts at a non-space character: ``\s*(.*)`` would let the two runs share
#: the spaces, quadratic when no ``}`` ends the text.)
TEX_STYLE_RE = re.compile(r"^\{\\(?:display|text)style\s*(\S.*|)\}$", re.DOTALL)


#: MathJax 2's formula source: ``<script type="math/tex">`` (inline) and ``<script
#: type="math/tex; mode=display">`` (MathJax 2 documentation, "MathJax's TeX input": the
#: script elements the tex2jax preprocessor writes and pages may hold directly).
TEX_SCRIPT_TYPE_RE = re.compile(r"\s*math/tex\s*(?:;|$)", re.IGNORECASE)
#: A page that loads MathJax (a script from a URL naming it) or configures it: only there
#: are TeX scripts typeset for readers. Elsewhere such a script is never shown (hidden
#: text: it is dropped like any script).
#: (:func:`loads_mathjax` reads the loader itself, a ``<script src>`` naming MathJax)
MATHJAX_CONFIG_RE = re.compile(r"MathJax\.Hub\.Config|\bMathJax\s*=\s*\{", re.IGNORECASE)
_SCRIPT_OPEN_RE = re.compile(r"<script\b", re.IGNORECASE)
#: Inside a ``<script`` start tag: a ``src=`` value start, ``mathjax``, or a character
#: that ends an unquoted value run.
_MATHJAX_SRC_SCAN_RE = re.compile(r"""(\bsrc\s*=\s*["']?)|(mathjax)|["'>\s]""", re.IGNORECASE)


def loads_mathjax(html: str) -> bool:
    r"""Whether the page loads MathJax (a script from a URL naming it) or configures it.

    The same answer as ``re.search(r'''<script\b[^>]*\bsrc\s*=\s*["']?[^"'>\s]*mathjax|'''
    r"MathJax\.Hub\.Config|\bMathJax\s*=\s*\{", html, re.IGNORECASE)``, in linear time:
    that pattern rescans the rest of a start tag from every ``<script`` inside it (and
    every ``src=`` value run from each ``src=`` in it), quadratic on ``"<script" * n``.
    Here each start tag (up to its ``>``) is read once, from its first ``<script``: a
    later ``<script`` inside the same tag can only find what the first one finds; a
    ``mathjax`` counts when a ``src=`` value run reaches it unbroken.
    """
    if MATHJAX_CONFIG_RE.search(html):
        return True
    pos = 0
    n = len(html)
    while (m := _SCRIPT_OPEN_RE.search(html, pos)) is not None:
        gt = html.find(">", m.end())
        end = gt if gt >= 0 else n
        armed = False  # inside a src= value run
        for t in _MATHJAX_SRC_SCAN_RE.finditer(html, m.end(), end):
            if t.group(1) is not None:
                armed = True
            elif t.group(2) is not None:
                if armed:
                    return True
            else:
                armed = False
        if gt < 0:
            break
        pos = gt + 1
    return False
#: The copies MathJax 2 renders right before such a script (a preview, the typeset formula
#: in HTML-CSS, SVG or CommonHTML output, a display wrapper): inline or ``<div>`` elements
#: with one of these class tokens. Dropped, as many as precede the script, so a formula is
#: read once (a ``<p class="MathJax">`` is a paragraph, not a copy).
_MATHJAX_RENDERED_CLASS_RE = re.compile(r"(?:^|\s)MathJax(?:_[A-Za-z]+)*(?:\s|$)")
_MATHJAX_RENDERED_TAGS = frozenset({"span", "div", "nobr"})


def _tex_script_math(lnode, attrs: dict, parent: Node, siblings: list[Node]) -> int:
    """Read a MathJax 2 TeX script as the ``<math>`` node :func:`_read_math` would make (its
    TeX in ``data-tex``, the TeX as its text, ``display="block"`` for ``mode=display``) and
    append it to ``siblings``, dropping a rendered MathJax copy right before it; characters
    of text added (0 for an empty script, which adds nothing)."""
    tex = " ".join(lnode.text(deep=True).split())
    if not tex:
        return 0
    while True:
        k = len(siblings) - 1
        while k >= 0 and siblings[k].tag == TEXT and not siblings[k].text.strip():
            k -= 1
        if k >= 0 and siblings[k].tag in _MATHJAX_RENDERED_TAGS and siblings[k].attrs and (
                _MATHJAX_RENDERED_CLASS_RE.search(siblings[k].attrs.get("class") or "")):
            del siblings[k:]
        else:
            break
    node = Node("math", {"data-tex": tex})
    params = [p.replace(" ", "").lower() for p in attrs.get("type", "").split(";")[1:]]
    if "mode=display" in params:
        node.attrs["display"] = "block"
    node.parent = parent
    t = Node(TEXT, None, tex)
    t.parent = node
    node.children.append(t)
    siblings.append(node)
    return len(tex)


def _spare_revisit(revisit: Callable, tag: str, attrs: dict, lnode, honour: set[int] | None) -> bool:
    """Whether ``revisit`` keeps this element for the style resolver to settle (see
    ``ElementFilter.revisit``); if so its ``mem_id`` joins ``honour``."""
    if honour is None or not revisit(tag, attrs, lnode):
        return False
    honour.add(lnode.mem_id)
    return True


def _spare_shown(shown: Callable, tag: str, attrs: dict, lnode) -> bool:
    """Whether ``shown`` keeps this element (see ``ElementFilter.shown``); if so its
    ``aria-hidden`` goes, so no later stage hides it for that."""
    if shown(tag, attrs, lnode):
        del attrs["aria-hidden"]
        return True
    return False


def _read_math(node: Node, lnode) -> None:
    """Make the ``<math>`` copy ``node`` one text node: the formula read token by token
    (MathML's ``mi``/``mn``/``mo``... text, space-separated, its annotations left out), with
    its TeX source, when the page gives one (``alttext``, a TeX ``<annotation>``), in the
    ``data-tex`` attribute for the Markdown stage; ``display`` is kept (``block`` or
    ``inline``), every other attribute dropped."""
    attrs = node.attrs or {}
    tex = " ".join((attrs.get("alttext") or "").split())
    notes = lnode.css("annotation, annotation-xml")
    if not tex:
        for ann in lnode.css(_TEX_ANNOTATION):
            tex = " ".join(ann.text(deep=True).split())
            if tex:
                break
    m = TEX_STYLE_RE.match(tex)
    if m:
        tex = m.group(1).strip()
    text = lnode.text(deep=True, separator=" ")
    for ann in notes:
        note = ann.text(deep=True, separator=" ")
        if note:
            text = text.replace(note, " ")
    text = " ".join(text.split())
    display = (attrs.get("display") or "").strip().lower()
    node.attrs = {"display": display} if display else {}
    if tex:
        node.attrs["data-tex"] = tex
    node.children = []
    if text:
        t = Node(TEXT, None, text)
        t.parent = node
        node.children.append(t)


def _stream_swaps(html: str) -> list[tuple[str, str, str]]:
    """The swaps React's runtime would make, as ``(kind, template id, segment id)`` with
    kind ``"C"`` (boundary ``B:m`` completed by segment ``S:n``, its fallback removed) or
    ``"S"`` (placeholder ``P:m`` replaced by segment ``S:n``), in the order the page makes
    them. The page's own ``$RC``/``$RS`` calls when it has any; otherwise (a saved copy
    whose scripts were stripped) each segment ``S:n`` goes to the template of the same
    number, ``P:n`` or else ``B:n``: React numbers a boundary, or a placeholder, and the
    segment that completes it alike (as in every page with calls seen in the datasets)."""
    swaps = []
    for kind, a_kind, a, _, b in _STREAM_CALL_RE.findall(html):
        if kind == "C" and a_kind == "B":
            swaps.append(("C", f"B:{a}", f"S:{b}"))
        elif kind == "S" and a_kind == "S":
            swaps.append(("S", f"P:{b}", f"S:{a}"))
    if swaps:
        return swaps
    templates = set(_STREAM_TEMPLATE_RE.findall(html))
    for n in _SEGMENT_RE.findall(html):
        if f"P:{n}" in templates:
            swaps.append(("S", f"P:{n}", f"S:{n}"))
        elif f"B:{n}" in templates:
            swaps.append(("C", f"B:{n}", f"S:{n}"))
    return swaps


#: A boundary's fallback, when the page has no ``<!--/$-->`` comment to mark its end (a
#: saved copy without comments), is taken to be the one element after the boundary if it
#: holds fewer characters than this ("Loading...", a skeleton): longer is page content.
STREAM_FALLBACK_MAX_CHARS = 200
#: A fallback spans at most this many sibling nodes (React's are a spinner or a skeleton).
STREAM_FALLBACK_MAX_NODES = 64


def _drop_fallback(boundary, forget) -> None:
    """Remove the fallback React shows in place of a Suspense boundary until it completes:
    the siblings after ``<template id="B:m">`` up to the closing ``<!--/$-->`` comment, or
    (no such comment before the next ``<template>``) see :data:`STREAM_FALLBACK_MAX_CHARS`. ``forget(node)`` is called on
    each node before it is destroyed."""
    node = boundary.next
    doomed = []
    # the closing comment is looked for among the next STREAM_FALLBACK_MAX_NODES siblings,
    # before the next boundary (a bounded scan: linear time whatever the swap order)
    while node is not None and node.tag != "template" and len(doomed) < STREAM_FALLBACK_MAX_NODES:
        if node.tag == "-comment" and "/$" in (node.comment_content or ""):
            for d in doomed:
                forget(d)
                d.decompose()
            return
        doomed.append(node)
        node = node.next
    node = boundary.next
    while node is not None and node.tag == "-text" and not (node.text_content or "").strip():
        node = node.next
    if node is not None and node.tag not in ("-text", "-comment", "template") and (
            len(node.text(deep=True).strip()) < STREAM_FALLBACK_MAX_CHARS):
        forget(node)
        node.decompose()


def _reveal_streamed_segments(tree, html: str) -> int:
    """Apply React's server-streaming swaps, as the page's own inline runtime would.

    React 18+ streaming SSR (Suspense) sends late content as ``<div hidden id="S:n">``
    segments; the runtime moves a segment into its boundary ``<template id="B:m">``
    (``$RC``: the fallback that follows the template up to the ``<!--/$-->`` comment goes)
    or into a placeholder ``<template id="P:m">`` (``$RS``). See :func:`_stream_swaps` for
    which swaps are made.
    Returns the number of segments moved.
    """
    swaps = _stream_swaps(html)
    body = tree.body
    if not swaps or body is None:
        return 0
    # One pass for the segments (React writes them as children of <body>) and for the
    # placeholders outside segments; a placeholder inside a segment is looked up when
    # needed, in the segment's moved copy (at most MAX_STREAM_LOOKUPS times: linear time).
    segments = {}
    for node in body.iter():
        if node.tag == "div" and "hidden" in node.attributes:
            sid = node.attributes.get("id") or ""
            if sid.startswith("S:"):
                segments.setdefault(sid, node)
    inside = {t.mem_id for seg in segments.values() for t in seg.css("template[id]")}
    templates = {}
    for node in tree.css("template[id]"):
        tid = node.attributes.get("id") or ""
        if tid.startswith(("B:", "P:")) and tid not in templates and node.mem_id not in inside:
            templates[tid] = node

    def forget(node) -> None:  # a destroyed subtree's placeholders must not be used
        if node.tag in ("-text", "-comment"):
            return
        for t in [node] + list(node.css("template[id]")):
            tid = t.attributes.get("id") or ""
            if tid in templates and templates[tid].mem_id == t.mem_id:
                del templates[tid]

    moved = lookups = 0
    for kind, template_id, segment_id in swaps:
        segment = segments.pop(segment_id, None)
        if segment is None:
            continue
        placeholder = templates.pop(template_id, None)
        if placeholder is None and lookups < MAX_STREAM_LOOKUPS:
            lookups += 1
            placeholder = tree.css_first(f'template[id="{template_id}"]')
        if placeholder is None:
            continue
        if kind == "C":
            _drop_fallback(placeholder, forget)
        placeholder.insert_before(segment)  # inserts a copy
        copy = placeholder.prev
        if copy is not None and copy.tag == "div":
            del copy.attrs["hidden"]
            copy.unwrap()
        segment.decompose()
        placeholder.decompose()
        moved += 1
    return moved


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
    if "\\" in selector or '"' in selector or "'" in selector:
        return None
    core = selector
    while "(" in core or "[" in core:
        stripped = _SELECTOR_ARGUMENT_RE.sub(" ", core)
        if stripped == core:
            return None  # unbalanced: leave the selector alone
        core = stripped
    return tuple(t.lower() for t in _SELECTOR_TOKEN_RE.findall(core))


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
_UNRENDERED_TEXT_TAGS = frozenset({"script", "style"})


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
        elif n.children and n.tag not in _UNRENDERED_TEXT_TAGS:
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
    """Whether ``node`` (hidden by its own attributes) is or holds the page's main content
    landmark (``<main>``, ``role=main``, or an ``<h1>``) and the page shows no other: no
    ``<main>``, ``role=main``, ``<article>`` or ``<h1>`` outside it, except a landmark
    around it whose text it fills to the share ``fill``: a loading state, an age gate, a
    dialog's inert background hide the page's own main content; hidden text next to a
    visible article, title or ``<main>`` is planted, however long."""
    if not any(_is_main_landmark(n) or n.tag == "h1" for n in node.iter_elements(include_self=True)):
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


def _deferral(tag: str, attrs: dict | None, lnode, chrome, loading,
              wrapper: tuple[float, float, int] | None) -> str | None:
    """``"chrome"`` or ``"loading"`` when an element the filter drops may wrap the page
    (``ElementFilter.chrome`` / ``ElementFilter.loading``, then :func:`_may_wrap`): it is
    built and decided by :func:`_decide_wrappers`; else ``None`` (dropped now)."""
    if chrome is None and loading is None:
        return None
    a = attrs or {}
    kind = ("chrome" if chrome is not None and chrome(tag, a)
            else "loading" if loading is not None and tag not in _CODE_TAGS and loading(tag, a) else None)
    return kind if kind is not None and _may_wrap(lnode, wrapper) else None


def _decide_wrappers(deferred: list, page_chars: int, wrapper: tuple[float, float, int],
                     skipped: list[SkippedElement] | None, loading_share: float = 1.01,
                     landmark_fill: float = 1.01, loading_link_density: float = 0.0) -> None:
    """Decide the deferred elements (disjoint: only outermost ones are deferred), listed as
    ``(node, lexbor node, kind)``: chrome that holds the page (:func:`_is_wrapper`) stays as
    a ``<div>`` without its role; a hidden (``"loading"``) element that holds
    ``loading_share`` of the page (its text with this one shown and the other hidden ones
    not), with a link density below ``loading_link_density``, and its main landmark (:func:`_is_loading_page` with
    ``landmark_fill``) stays
    without its hiding attributes
    (``_LOADING_ATTRIBUTES``); the others are removed (reported in ``skipped``)."""
    inside: set[int] = set()  # the removed ones' elements
    own: list[SkippedElement] = []  # their own entries
    # A hidden element's share is taken of the text a reader would see with it shown: the
    # page's built text less that of the other hidden ("loading") elements (hidden menus and
    # footers beside a product hidden until its script runs).
    hidden = {id(node): _text_counts(node)[0] for node, _, kind in deferred if kind == "loading"}
    shown_chars = page_chars - sum(hidden.values())
    for node, lnode, kind in deferred:
        if kind == "chrome":
            if _is_wrapper(node, page_chars, *wrapper, lnode=lnode):
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


def _drop_matched(tree, selector: str, index: dict[int, Node], skipped: list[SkippedElement] | None,
                  page_chars: int = 0, spare_wrappers: tuple[float, float, int] | None = None) -> None:
    """Detach the copies of the elements lexbor matches with ``selector`` (outermost
    only; ``<html>``, ``<head>``, ``<body>`` never) and report them in ``skipped`` (unless
    ``None``). ``spare_wrappers = (share, link density, least)``: an element holding at
    least ``share`` of the page's ``page_chars`` characters, and at least ``least``, with a
    link density below ``link density`` stays (:func:`_is_wrapper`)."""
    _drop_nodes([(lnode, None) for lnode in tree.root.css(selector)], index, skipped, page_chars, spare_wrappers)


def _drop_nodes(found: list, index: dict[int, Node], skipped: list[SkippedElement] | None,
                page_chars: int = 0, spare_wrappers: tuple[float, float, int] | None = None) -> None:
    """:func:`_drop_matched` for ``found``: (lexbor node, reason or ``None``) pairs."""
    pairs = []
    reasons: dict[int, str | None] = {}
    for lnode, reason in found:
        node = index.get(lnode.mem_id)
        if node is not None and node.tag not in _NEVER_SKIPPED:
            pairs.append((node, lnode))
            reasons[id(node)] = reason
    matched = {id(node) for node, _ in pairs}
    covered: dict[int, bool] = {}  # element -> it or an ancestor is matched (memo: linear overall)

    def under_match(node: Node) -> bool:
        path = []
        a = node.parent
        found = False
        while a is not None:
            k = id(a)
            if k in matched:
                found = True
                break
            if k in covered:
                found = covered[k]
                break
            path.append(k)
            a = a.parent
        for k in path:
            covered[k] = found
        return found

    outermost = [(node, lnode) for node, lnode in pairs if not under_match(node)]
    for node, lnode in outermost:
        if (spare_wrappers is not None and node.tag not in _CODE_TAGS
                and _is_wrapper(node, page_chars, *spare_wrappers, lnode=lnode)
                and _holds_main_landmark(node)):
            continue
        if skipped is not None:
            skipped.append(SkippedElement(node.tag, node.attrs, lnode.text(deep=True), node.parent,
                                          reason=reasons[id(node)]))
        node.remove()


def _mark_hidden_inside(skipped: list[SkippedElement], verdicts) -> None:
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


def _mute_nodes(found: list, index: dict[int, Node]) -> None:
    """Remove the text children of the copies of ``found`` (lexbor node, reason) pairs:
    elements whose own text the page's styles make invisible while a descendant shows."""
    for lnode, _reason in found:
        node = index.get(lnode.mem_id)
        if node is not None and node.tag not in _NEVER_SKIPPED:
            kept = [c for c in node.children if c.tag != TEXT]
            if len(kept) != len(node.children):
                for c in node.children:
                    if c.tag == TEXT:
                        c.parent = None
                node.children = kept


def parse_html(html: str, url: str | None = None, *,
               skip_selector: str | Callable[[list[str]], list[str]] | None = None,
               skip_elements: ElementFilter | None = None,
               scripting: bool = True, utf8: bytes | None = None,
               report_skipped: bool = True,
               spare_wrappers: tuple[float, float, int] | None = None,
               style_resolver: Callable | None = None) -> ParsedPage:
    """Parse decoded HTML into a :class:`ParsedPage`.

    Args:
        html: the document as text (decode bytes with :func:`unclutter.parse.decode.decode_html`).
        url: the page's absolute URL, used with ``<base href>`` to build ``base_url``.
        skip_selector: a CSS selector (lexbor's CSS engine) of elements removed from the
            tree with their subtrees, or a function from the page's ``<style>`` texts to a
            list of selectors (selectors lexbor rejects are left out, and so are those
            naming a class or id the document does not use); each outermost removed
            element is reported in ``ParsedPage.skipped``. The prune stage supplies the
            page's own hiding rules.
        skip_elements: an :class:`ElementFilter`: elements left out on their tag and
            attributes, also reported in ``ParsedPage.skipped`` (the prune stage's
            early-drop rules).
        scripting: ``True`` builds the page as a browser with scripting enabled sees it
            (``<noscript>`` content is not rendered, so it is left out); ``False`` builds the
            scripting-disabled view: ``<noscript>`` elements are unwrapped and their content
            takes their place (WHATWG HTML, "the noscript element").
        utf8: ``html`` encoded as UTF-8, when the caller has those bytes (lexbor parses
            UTF-8; given the bytes, it need not be encoded again). Must be exactly
            ``html.encode("utf-8")``.
        report_skipped: list what ``skip_selector`` and ``skip_elements`` left out in
            ``ParsedPage.skipped`` (with each element's text: what a removal log needs);
            ``False`` leaves the list empty and saves reading those texts.
        spare_wrappers: ``(share, link density, least)``: an element ``skip_selector``
            matches, or one ``skip_elements`` drops as chrome (``ElementFilter.chrome``), is
            kept when it holds at least ``share`` of the page's non-whitespace characters,
            and at least ``least`` of them, with a link density below ``link density``
            (the prune stage's page-wrapper rule: ``prune.rules.PAGE_WRAPPER``).
        style_resolver: ``style_resolver(tree, styles, classes, ids, page_chars)`` -> an
            object with ``drop`` and ``mute``, dicts of lexbor ``mem_id`` -> (lexbor node,
            reason): elements left out of the tree (outermost only, reported in
            ``ParsedPage.skipped`` with the reason; page wrappers spared as for
            ``skip_selector``) and elements whose own text is left out (the prune stage's
            CSS cascade, :func:`unclutter.prune.css.resolve_hidden`). ``styles``: the
            page's ``<style>`` texts; ``classes``/``ids``: those the page uses
            (lower-cased); ``page_chars``: the non-blank characters of the page's text;
            ``honour``: elements ``ElementFilter.revisit`` left for it to settle.

    Raises:
        InputTooDeepError: nesting deeper than ``MAX_DOM_DEPTH``.
        InputTooComplexError: an element with more than ``MAX_ATTRIBUTES_PER_ELEMENT``
            attributes, or more than ``MAX_ELEMENTS`` start tags.
    """
    # Nesting can only exceed the limit when there are more '<' than the limit: skip the
    # scans for ordinary pages; the simulation runs only when the quick estimate is over.
    if html.count("<") > MAX_DOM_DEPTH and estimate_depth(html) > MAX_DOM_DEPTH:
        depth = simulated_depth(html, MAX_DOM_DEPTH)
        if depth > MAX_DOM_DEPTH:
            raise InputTooDeepError(
                f"unreadable input: elements nested more than {MAX_DOM_DEPTH} levels deep"
            )
    if html.count("<") > MAX_ELEMENTS:
        tags = start_tag_count(html)
        if tags > MAX_ELEMENTS:
            raise InputTooComplexError(
                f"unreadable input: about {tags} elements (limit {MAX_ELEMENTS})"
            )
    attributes = crowded_tag_attribute_count(html)
    if attributes:
        raise InputTooComplexError(
            f"unreadable input: an element with about {attributes} attributes "
            f"(limit {MAX_ATTRIBUTES_PER_ELEMENT})"
        )
    pairs = attribute_pairs(html)
    if pairs > MAX_ATTRIBUTE_PAIRS:
        raise InputTooComplexError(
            f"unreadable input: more than {MAX_ATTRIBUTE_PAIRS} attribute pairs in all "
            f"(the squared attribute counts of its elements, summed)"
        )
    tree = LexborHTMLParser(utf8 if utf8 is not None else html)
    tex_scripts = ("athjax" in html or "athJax" in html) and loads_mathjax(html)

    def build():
        if skip_elements is not None and skip_elements.start is not None:
            skip_elements.start()
        styles: list[str] = []
        data_scripts: list[Node] = []
        skipped: list[SkippedElement] | None = [] if report_skipped else None
        selectors: list[str] = []
        if callable(skip_selector):
            selectors = list(skip_selector([n.text(deep=True) for n in tree.css("style")]))
        elif skip_selector:
            selectors = [skip_selector]
        index: dict[int, Node] | None = {} if selectors or style_resolver is not None else None
        classes: set[str] = set()
        ids: set[str] = set()
        tagged: dict[str, list[Node]] = {}
        streamed: list[str] = []
        deferred: list = []
        sizes: list[int] = []
        honour: set[int] = set()
        root = _convert(tree.root.parent, styles, data_scripts, skipped, scripting, skip_elements,
                        index, classes, ids, tagged, streamed, deferred, spare_wrappers, sizes,
                        tex_scripts, honour)
        if deferred:
            _decide_wrappers(deferred, sizes[0], spare_wrappers, skipped,
                             skip_elements.loading_share, skip_elements.landmark_fill,
                             skip_elements.loading_link_density)
        if selectors:
            if callable(skip_selector):
                selectors = applicable_selectors(selectors, classes, ids)
            combined = combined_selector(tree, selectors) if selectors else ""
            if combined:
                _drop_matched(tree, combined, index, skipped, sizes[0], spare_wrappers)
        if style_resolver is not None:
            verdicts = style_resolver(tree, [n.text(deep=True) for n in tree.css("style")], classes, ids, sizes[0],
                                      honour=honour)
            if skipped:
                _mark_hidden_inside(skipped, verdicts)
            if verdicts.mute:
                _mute_nodes(list(verdicts.mute.values()), index)
            if verdicts.drop:
                _drop_nodes(list(verdicts.drop.values()), index, skipped, sizes[0], spare_wrappers)
        return root, styles, data_scripts, skipped, tagged, streamed

    root, styles, data_scripts, skipped, tagged, streamed = build()
    # React streaming: only a page with boundaries or placeholders and hidden segments can
    # need a swap; then the tree is built again.
    if streamed and 'hidden id="S:' in html and _reveal_streamed_segments(tree, html):
        root, styles, data_scripts, skipped, tagged, streamed = build()
    page = ParsedPage(root=root, base_url=url, url=url, html=html, styles=styles,
                      data_scripts=data_scripts, skipped=skipped or [], tagged=tagged,
                      style_selectors_applied=callable(skip_selector) or style_resolver is not None,
                      skip_elements=skip_elements,
                      microdata_types=_microdata_types(tree) if any(w in html for w in _MICRODATA_SPELLINGS) else [])
    head = page.head
    if head is not None:
        for n in head.iter_elements():
            if n.tag == "base" and n.get("href").strip():
                href = n.get("href").strip()
                try:
                    base = urljoin(url, href) if url else href
                    urlsplit(base)  # a broken authority ("http://[::1") would fail later
                    page.base_url = base
                except ValueError:
                    pass  # an unusable <base href> is ignored
                break
    return page
