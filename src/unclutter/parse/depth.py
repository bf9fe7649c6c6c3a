"""Nesting depth of an HTML text before it is parsed: a quick estimate from the tags and,
when that is over the limit, a simulation of the tree builder's stack of open elements
(WHATWG HTML, "the stack of open elements") that tells sloppy markup from truly deep
markup. The tree builder is quadratic in depth, so
:func:`unclutter.parse.guards.check_input_limits` refuses a deep page before lexbor sees it."""

from __future__ import annotations

import re

# Elements whose end tag is optional or that never have content: they do not deepen the
# tree when left unclosed (WHATWG "void elements" and "optional end tags").
_NON_NESTING = frozenset(
    "area base br col embed hr img input link meta source track wbr param keygen "
    "p li dt dd option optgroup tr td th thead tbody tfoot colgroup rb rt rtc rp "
    "html head body".split()
)
#: Void elements (HTML Living Standard §13.1.2): the parser never gives them children.
VOID_ELEMENTS = frozenset("area base br col embed hr img input link meta source track wbr".split())

# Greedy up to the tag's ">" (a lazy ``[^>]*?`` tries the rest of the pattern at every
# character: several times slower on megabyte pages); a self-closing ``/>`` is read from
# the match's last two characters.
_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^>]*>")


def _tags_end(html: str) -> int:
    """End position for :data:`_TAG_RE` scans: just past the last ``>``. A tag start with
    no ``>`` after it cannot match, and without this bound each such start would scan to
    the end of the page (``"<a" * n``: quadratic); before it, every scan stops at the next
    ``>`` and is consumed by the match."""
    return html.rfind(">") + 1


def estimate_depth(html: str) -> int:
    """Quick upper estimate of element nesting depth from a linear scan of the tags.

    Counts start tags minus end tags, ignoring void elements and elements with optional
    end tags (see ``_NON_NESTING``). An end tag counts only while an element of its name
    is open: the parser ignores a stray one (``<div></span>`` repeated nests ever deeper),
    and closing an open one pops at least that element. A ``/>`` does not close a non-void
    HTML element (the parser ignores it there), so it counts as a start tag too. Raw-text
    content (script/style) may add noise: this only decides whether
    :func:`simulated_depth` is needed.
    """
    depth = 0
    deepest = 0
    open_names: dict[str, int] = {}
    for m in _TAG_RE.finditer(html, 0, _tags_end(html)):
        name = m.group(2).lower()
        if name in _NON_NESTING:
            continue
        if m.group(1):
            if open_names.get(name):
                open_names[name] -= 1
                depth -= 1
        else:
            open_names[name] = open_names.get(name, 0) + 1
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
RAW_TEXT_ELEMENTS = frozenset("script style textarea title xmp iframe noembed noframes".split())


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
        if m.group(0).endswith("/>") and (foreign or name in ("svg", "math")):
            continue  # self-closing in foreign content
        if name in RAW_TEXT_ELEMENTS:  # a leaf: its content is text up to its end tag
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
