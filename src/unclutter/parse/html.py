"""HTML5 parsing: text in, :class:`unclutter.core.dom.Node` tree out.

Parser: lexbor (through selectolax), an implementation of the WHATWG HTML parsing
algorithm (https://html.spec.whatwg.org/multipage/parsing.html). Chosen over html5-parser
(gumbo) because gumbo's wheels must share lxml's libxml2 build (they do not, with PyPI's
lxml wheels) and over lxml.html (libxml2), which is not HTML5-conformant and caps depth at
~256 levels; lexbor parses a 180 kB page in ~1 ms here.

Limits: input deeper than :data:`~unclutter.core.limits.MAX_DOM_DEPTH` open elements, or
with too many start tags or attributes, is refused before parsing (:mod:`.guards` and
:mod:`.depth`: the tree builder is quadratic in depth). Comments are dropped,
``<template>`` contents are not part of the tree (WHATWG keeps them in a separate
fragment), and attribute values longer than ``MAX_ATTRIBUTE_CHARS`` are emptied; an
element whose ``style`` (less its custom properties and ``url()`` values,
``_strip_style_bulk``) or ``class`` is that long is hidden (``display:none``: what it says
about its visibility cannot be read).

Beside this module: :mod:`.skip` (the elements a filter or the page's styles leave out of
the tree, and the page-wrapper rules) and :mod:`.streaming` (React streaming segments moved
into place, after which the tree is built again).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Collection
from urllib.parse import urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser

from ..core.dom import DOCUMENT, TEXT, Node
from ..core.limits import MAX_ATTRIBUTE_CHARS
from .depth import VOID_ELEMENTS
from .guards import check_input_limits
from .skip import (
    MAY_HIDE_SELECTOR,
    NEVER_SKIPPED,
    UNRENDERED_TEXT_TAGS,
    ElementFilter,
    SkippedElement,
    applicable_selectors,
    combined_selector,
    decide_wrappers,
    deferral,
    drop_matched,
    drop_nodes,
    mark_hidden_inside,
    mute_nodes,
    spare_revisit,
    spare_shown,
)
from .streaming import reveal_streamed_segments

__all__ = ["ParsedPage", "TAGGED_ELEMENTS", "parse_html"]

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
#: Elements listed in ``ParsedPage.tagged`` as the tree is built (what the metadata stage
#: looks for in the body), so that finding them needs no walk.
TAGGED_ELEMENTS = frozenset({"h1", "time", "meta", "link", "title"})
#: Dropped elements whose ``<time datetime>`` descendants are still listed (under
#: ``tagged["chrome_time"]``): blog themes put a post's date in an ``<aside>`` post-meta box.
_CHROME_WITH_TIMES = frozenset({"aside", "nav"})
#: At most this many ``<time>`` elements are listed from one dropped element.
_MAX_CHROME_TIMES = 4


def _chrome_times(lnode, tag: str, attrs, parent: Node, tagged: dict) -> None:
    """List the ``<time datetime>`` descendants of a dropped ``aside``/``nav`` (lexbor node
    ``lnode``) as detached nodes: each hangs from a stand-in for the dropped element, whose
    parent is the real ``parent``, so visibility and place checks see the real ancestors
    (the elements between the stand-in and the time are not represented)."""
    found = lnode.css("time[datetime]")
    if not found:
        return
    holder = Node(tag, dict(attrs) if attrs else None)
    holder.parent = parent
    out = tagged.setdefault("chrome_time", [])
    for n in found[:_MAX_CHROME_TIMES]:
        t = Node("time", {k: v or "" for k, v in n.attributes.items()})
        t.parent = holder
        out.append(t)


#: Elements in which whitespace is preserved (``white-space: pre``).
_PRESERVE_WHITESPACE = frozenset({"pre", "textarea", "listing", "plaintext", "xmp"})

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


#: Block elements that make a ``<noscript>`` a block of the scripting-disabled view.
_NOSCRIPT_BLOCKS = ",".join(sorted(BLOCK_ELEMENTS))


#: Deferred elements (:func:`~.skip.deferral`) that may be open around one another: a
#: list of tabs holding its panels inside another (``ElementFilter.holds_panels``). Each
#: deferral reads its element's text, so a bound keeps a deep nest of chrome linear.
_DEFER_DEPTH = 2


def _convert(lexbor_document, styles: list[str], data_scripts: list[Node],
             skipped: list | None = None, scripting: bool = True,
             skip_elements: ElementFilter | None = None,
             index: dict[int, Node] | None = None, classes: set[str] | None = None,
             ids: set[str] | None = None, tagged: dict[str, list[Node]] | None = None,
             streamed: list[str] | None = None,
             deferred: list | None = None, wrapper: tuple[float, float, int] | None = None,
             sizes: list[int] | None = None, tex_scripts: Callable[[], bool] | None = None,
             honour: set[int] | None = None, maths: list | None = None) -> Node:
    """Copy lexbor's tree into :class:`Node` objects, in document order.

    ``tex_scripts()``: whether the page loads MathJax (:func:`loads_mathjax`; asked at the
    first TeX script): then its TeX scripts are read as formulas (:func:`_tex_script_math`).

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
    ``ElementFilter.loading``, :func:`~.skip._may_wrap` with ``wrapper``) are built and listed in
    ``deferred``, with their lexbor nodes and kinds, for :func:`decide_wrappers`; elements
    ``ElementFilter.revisit`` keeps join ``honour`` (their ``mem_id``); ``sizes`` receives the characters of all
    text nodes built, as :func:`~.skip._text_counts` counts them (non-blank, scripts' and styles'
    text left out: the page's size for the wrapper test); ``maths`` receives each ``<math>``
    copy with its lexbor element, for :func:`_reread_math` once the stylesheets are read.
    """
    root = Node(DOCUMENT)
    # (child iterator, the copy its children join, inside <pre> and kin)
    stack: list[tuple[object, Node, bool]] = [(lexbor_document.iter(include_text=True), root, False)]
    push = stack.append
    ws_free = _WHITESPACE_FREE_PARENTS
    blocks = BLOCK_ELEMENTS
    observe = observe_dropped = chrome = loading = None
    open_deferred = 0  # deferred elements open on the stack (inside them only chrome is deferred)
    deferred_ids: set[int] = set()
    text_chars = 0
    if skip_elements is not None:
        if deferred is not None and wrapper is not None:
            chrome = skip_elements.chrome
            loading = skip_elements.loading
        drop_tags = skip_elements.tags
        shown = skip_elements.shown
        question = skip_elements.question
        revisit = skip_elements.revisit
        check_tags = skip_elements.check_tags
        check_names = skip_elements.attribute_names
        test = skip_elements.test
        observe = skip_elements.observe
        observe_dropped = skip_elements.observe_dropped
    else:
        drop_tags = check_tags = check_names = frozenset()
        test = shown = revisit = question = None
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
                if ptag not in UNRENDERED_TEXT_TAGS:
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
                # rendered as an ordinary container (a block one when it holds blocks): its
                # own attributes and the stylesheets' rules for it still hide it
                tag = "div" if child.css_first(_NOSCRIPT_BLOCKS) is not None else "span"
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
            if (tag == "script" and tex_scripts is not None and attrs
                    and TEX_SCRIPT_TYPE_RE.match(attrs.get("type") or "") and tex_scripts()):
                text_chars += _tex_script_math(child, attrs, parent, siblings)
                continue
            defer = None
            if (
                tag in drop_tags
                or (test is not None and (tag in check_tags or (attrs and not check_names.isdisjoint(attrs)))
                    and tag not in NEVER_SKIPPED and test(tag, attrs))
            ) and not (defer := deferral(tag, attrs, child, chrome, None if open_deferred else loading, wrapper)
                       if open_deferred < _DEFER_DEPTH else None) and not (shown is not None and attrs and "aria-hidden" in attrs and spare_shown(
                           shown, tag, attrs, child)) and not (
                    revisit is not None and attrs and "style" in attrs and spare_revisit(
                        revisit, tag, attrs, child, honour)) and not (
                    question is not None and tag == "button" and question(tag, attrs, child)):
                if observe_dropped is not None:
                    observe_dropped(attrs or {}, [  # (lexbor gives None for a valueless attribute)
                        {k: v or "" for k, v in n.attributes.items()} for n in child.css("[aria-controls]")])
                if tag == "style":
                    styles.append(child.text(deep=True))
                elif tagged is not None and tag in _CHROME_WITH_TIMES and not (
                        attrs and ("hidden" in attrs or "style" in attrs or "aria-hidden" in attrs)):
                    _chrome_times(child, tag, attrs, parent, tagged)
                if skipped is not None:
                    hides = skip_elements.hides if skip_elements is not None else None
                    skipped.append(SkippedElement(tag, attrs, child.text(deep=True), parent, hides is not None and any(
                        hides({k: v or "" for k, v in n.attributes.items()}) for n in child.css(MAY_HIDE_SELECTOR)),
                        mem_id=child.mem_id, lnode=child))
                continue
            node = Node(tag, attrs)
            node.parent = parent
            siblings.append(node)
            if defer:
                deferred.append((node, child, "nested" if open_deferred else defer))
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
                _read_math(node, child, skip_elements.hides if skip_elements is not None else None)
                if maths is not None:
                    maths.append((node, child))
                    if index is not None:
                        # (the stylesheet rules that can match are chosen by the names in use)
                        for d in child.css("[class], [id]"):
                            value = d.attributes.get("class")
                            if value:
                                classes.update(value.lower().split())
                            value = d.attributes.get("id")
                            if value:
                                ids.add(value.lower())
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


#: Elements of a ``<math>`` whose text is not read: annotations (the TeX source is read
#: apart) and elements never rendered.
_MATH_UNREAD = frozenset(("annotation", "annotation-xml", "script", "style", "noscript", "template"))
#: ... and elements whose text is not drawn, or not as text: ``<mphantom>`` (drawn
#: invisibly, MathML Core 3.3.7), HTML inside ``<mtext>`` that renders no text of its own
#: (embedded content, fallback content, a list's data, SVG's title and description), a
#: ``<select>`` (one option shows). Not read, and, holding text, a hidden part of the
#: formula (its TeX source would show it).
_MATH_UNDRAWN = frozenset(("mphantom", "iframe", "noembed", "noframes", "datalist", "canvas", "video", "audio",
                           "object", "embed", "title", "desc", "select", "textarea", "input", "img"))
#: A TeX source's commands whose argument is markup, not shown text (``\begin{pmatrix}``,
#: ``\color{red}``, ``\label{eq:1}``): left out before its words are compared with the tokens.
_TEX_MARKUP_ARG_RE = re.compile(
    r"\\(?:begin|end|color|textcolor|colorbox|label|tag|ref|eqref|href|url|hspace|vspace)"
    r"[ \t\n]{0,8}(?:\[[^\]\[{}]{0,100}\][ \t\n]{0,8})?\{[^{}]{0,200}\}")
_TEX_COMMAND_RE = re.compile(r"\\[A-Za-z]+")
_TEX_WORD_RE = re.compile(r"[^\W\d_]{3,}")
_CSS_COMMENT_RE = re.compile(r"/\*.*?(?:\*/|\Z)", re.S)


def _zero_length(value: str) -> bool:
    """Whether a MathML length (``mathsize``) is zero, in any unit (``0``, ``0em``, ``.0%``)."""
    number = value.strip(" \t\n\r\f").lower().rstrip("abcdefghijklmnopqrstuvwxyz%")
    try:
        return bool(number) and float(number) == 0
    except ValueError:
        return False


def tex_matches_tokens(tex: str, tokens: list[str]) -> bool:
    """Whether every word of three or more letters a TeX source writes (outside commands
    and their markup arguments, :data:`_TEX_MARKUP_ARG_RE`) is among the formula's drawn
    tokens (case-folded, the tokens joined): a source naming words the formula does not
    draw (``alttext="SECRET"`` beside ``<mi>x</mi>``) is text no reader sees."""
    shown = "".join(tokens).casefold()
    text = _TEX_COMMAND_RE.sub(" ", _TEX_MARKUP_ARG_RE.sub(" ", tex))
    return all(w.casefold() in shown for w in _TEX_WORD_RE.findall(text))


def _inline_hiding(style: str) -> tuple[bool, bool | None]:
    """What an element's ``style`` attribute says of its drawing: (not drawn at all:
    ``display: none`` or ``opacity: 0``; its visibility: ``True`` hidden or collapsed,
    ``False`` visible, ``None`` inherited). The last declaration of a property wins, an
    ``!important`` one over the others (CSS Cascade 4, section 6.4)."""
    decls: dict[str, tuple[str, bool]] = {}
    if "/*" in style:
        style = _CSS_COMMENT_RE.sub("", style)
    for decl in style.split(";"):
        prop, colon, value = decl.partition(":")
        if not colon:
            continue
        prop = prop.strip(" \t\n\r\f").lower()
        if prop not in ("display", "opacity", "visibility"):
            continue
        value = value.strip(" \t\n\r\f").lower()
        important = value.endswith("important") and "!" in value
        if important:
            value = value[:value.rindex("!")].rstrip(" \t\n\r\f")
        if important or not decls.get(prop, ("", False))[1]:
            decls[prop] = (value, important)
    opacity = decls.get("opacity", ("", False))[0]
    if opacity.startswith("calc(") and opacity.endswith(")"):
        opacity = opacity[5:-1].strip(" \t\n\r\f")  # (a constant: calc(0))
    try:
        transparent = float(opacity[:-1]) == 0 if opacity.endswith("%") else float(opacity) == 0
    except ValueError:
        transparent = False
    visibility = decls.get("visibility", ("", False))[0]
    shown = None if visibility not in ("hidden", "collapse", "visible") else visibility != "visible"
    return decls.get("display", ("", False))[0] == "none" or transparent, shown


def _math_tokens(lnode, hides: Callable[[dict[str, str]], bool] | None = None,
                 dropped: Collection[int] = (), muted: Collection[int] = ()) -> tuple[list[str], bool]:
    """The words of the text under the lexbor ``<math>`` element ``lnode``, in document
    order, leaving out :data:`_MATH_UNREAD` elements, ``aria-hidden="true"`` ones, those
    their ``hidden`` attribute or style attribute hides (:func:`_inline_hiding`; an inline
    ``visibility`` inherited as CSS inherits it) or ``hides(attributes)``
    (``ElementFilter.hides``) does; and, once the page's stylesheets are read
    (:func:`_reread_math`), the elements they hide (lexbor ``mem_id`` in ``dropped``) and
    the own text of those whose text alone they hide (``muted``). Also whether any part was
    left out as hidden (then a TeX source of the formula would show it)."""
    words: list[str] = []
    hidden_part = False
    stack = [lnode.iter(include_text=True)]
    invisible = [False]  # per open element: its own text is not drawn
    inherited = [False]  # per open element: the visibility its children inherit is hidden
    while stack:
        for child in stack[-1]:
            if child.tag == "-text":
                if invisible[-1]:
                    hidden_part = hidden_part or bool((child.text_content or "").strip())
                else:
                    words.extend((child.text_content or "").split())
                continue
            tag = child.tag
            if tag in _MATH_UNREAD or tag.startswith("-"):
                continue
            if (tag in _MATH_UNDRAWN or (dropped and child.mem_id in dropped)
                    or (tag == "details" and "open" not in child.attributes)):
                hidden_part = hidden_part or bool(child.text(deep=True).strip()) or tag == "img"
                continue
            attrs = child.attributes
            hidden_visibility = inherited[-1]
            if attrs:
                attrs = {k: v or "" for k, v in attrs.items()}
                if attrs.get("aria-hidden", "").strip().lower() == "true":
                    continue  # (drawn, but not read to a screen reader: no secret)
                if (attrs.get("mathcolor", "").strip().lower() == "transparent"
                        or _zero_length(attrs.get("mathsize", ""))):
                    hidden_part = True  # (MathML's own presentation attributes: drawn invisibly)
                    continue
                undrawn, visibility = _inline_hiding(attrs["style"]) if "style" in attrs else (False, None)
                judged = attrs
                if visibility:
                    # (an inline visibility is inherited, read here: a child may show again)
                    judged = dict(attrs, style=";".join(
                        d for d in attrs["style"].split(";") if d.partition(":")[0].strip().lower() != "visibility"))
                if "hidden" in attrs or undrawn or (hides is not None and hides(judged)):
                    hidden_part = True
                    continue
                if visibility is not None:
                    hidden_visibility = visibility
            if tag == "maction":
                # one child shows: the ``selection``-th (1 by default; MathML 3, 3.7.1)
                kids = [k for k in child.iter() if not k.tag.startswith("-")]
                try:
                    chosen = int((attrs or {}).get("selection", "1").strip() or 1)
                except ValueError:
                    chosen = 1
                shown_kid = kids[chosen - 1] if 1 <= chosen <= len(kids) else None
                hidden_part = hidden_part or any(k is not shown_kid and k.text(deep=True).strip() for k in kids)
                if shown_kid is None:
                    continue
                stack.append(iter((shown_kid,)))  # (the shown child is judged as any child is)
                inherited.append(hidden_visibility)
                invisible.append(hidden_visibility)
                break
            stack.append(child.iter(include_text=True))
            inherited.append(hidden_visibility)
            invisible.append(hidden_visibility or (bool(muted) and child.mem_id in muted))
            break
        else:
            stack.pop()
            inherited.pop()
            invisible.pop()
    return words, hidden_part


def _read_math(node: Node, lnode, hides: Callable[[dict[str, str]], bool] | None = None) -> None:
    """Make the ``<math>`` copy ``node`` one text node: the formula read token by token
    (MathML's ``mi``/``mn``/``mo``... text, space-separated, its annotations left out), with
    its TeX source, when the page gives one (``alttext``, a TeX ``<annotation>``), in the
    ``data-tex`` attribute for the Markdown stage; ``display`` is kept (``block`` or
    ``inline``), every other attribute dropped."""
    attrs = node.attrs or {}
    tex = " ".join((attrs.get("alttext") or "").split())
    if not tex:
        for ann in lnode.css(_TEX_ANNOTATION):
            tex = " ".join(ann.text(deep=True).split())
            if tex:
                break
    m = TEX_STYLE_RE.match(tex)
    if m:
        tex = m.group(1).strip()
    display = (attrs.get("display") or "").strip().lower()
    node.attrs = {"display": display} if display else {}
    if tex:
        node.attrs["data-tex"] = tex
    words, hidden_part = _math_tokens(lnode, hides)
    if hidden_part or (tex and not tex_matches_tokens(tex, words)):
        node.attrs.pop("data-tex", None)  # (the source would show what the page does not draw)
    _set_math_text(node, " ".join(words))


def _set_math_text(node: Node, text: str) -> None:
    node.children = []
    if text:
        t = Node(TEXT, None, text)
        t.parent = node
        node.children.append(t)


def _reread_math(maths: list, hides: Callable[[dict[str, str]], bool] | None,
                 dropped: Collection[int], muted: Collection[int]) -> None:
    """Read each ``(copy, lexbor <math>)`` of ``maths`` again without the elements the
    page's stylesheets hide (``dropped``, ``muted``: lexbor ``mem_id``s, as
    :class:`~unclutter.prune.css.resolve.StyleVerdicts` gives them): a formula is one text
    node, built before the stylesheets are read. Its TeX source (``data-tex``) is dropped
    when a part of the formula is hidden: the source would show that part."""
    for node, lnode in maths:
        words, hidden_part = _math_tokens(lnode, hides, dropped, muted)
        if hidden_part and node.attrs:
            node.attrs.pop("data-tex", None)
        _set_math_text(node, " ".join(words))


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
            scripting-disabled view: ``<noscript>`` elements are rendered (WHATWG HTML, "the
            noscript element"), each as a ``div`` (a ``span`` when it holds no block), hidden
            as any element by its attributes and the page's styles.
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
            attributes, more than ``MAX_ELEMENTS`` start tags, or too many attribute pairs
            (:func:`~.guards.check_input_limits`).
    """
    check_input_limits(html)
    # lexbor tokenizes <noscript> by the scripting flag (WHATWG "parsing HTML documents"): with
    # it on, its content is raw text, as in a browser that runs scripts; off, it is markup (an
    # unclosed <iframe> in it, a tag manager's `<iframe />`, would swallow the rest of the page)
    tree = LexborHTMLParser(utf8 if utf8 is not None else html, scripting=scripting)
    mathjax: list[bool] = []

    def tex_scripts() -> bool:
        # asked only on a page with a TeX script: searching the whole page costs about as
        # much as lexbor's parse of it
        if not mathjax:
            mathjax.append(("athjax" in html or "athJax" in html) and loads_mathjax(html))
        return mathjax[0]

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
        maths: list = []
        hides = skip_elements.hides if skip_elements is not None else None
        root = _convert(tree.root.parent, styles, data_scripts, skipped, scripting, skip_elements,
                        index, classes, ids, tagged, streamed, deferred, spare_wrappers, sizes,
                        tex_scripts, honour, maths)
        if deferred:
            decide_wrappers(deferred, sizes[0], spare_wrappers, skipped,
                             skip_elements.loading_share, skip_elements.landmark_fill,
                             skip_elements.loading_link_density, skip_elements.holds_panels)
        if selectors:
            if callable(skip_selector):
                selectors = applicable_selectors(selectors, classes, ids)
            combined = combined_selector(tree, selectors) if selectors else ""
            if combined:
                drop_matched(tree, combined, index, skipped, sizes[0], spare_wrappers)
                if maths:
                    _reread_math(maths, hides, {n.mem_id for n in tree.root.css(combined)}, ())
        if style_resolver is not None:
            verdicts = style_resolver(tree, [n.text(deep=True) for n in tree.css("style")], classes, ids, sizes[0],
                                      honour=honour)
            if skipped:
                mark_hidden_inside(skipped, verdicts)
            if verdicts.mute:
                mute_nodes(list(verdicts.mute.values()), index)
            if verdicts.drop:
                drop_nodes(list(verdicts.drop.values()), index, skipped, sizes[0], spare_wrappers)
            if maths and (verdicts.drop or verdicts.mute):
                _reread_math(maths, hides, verdicts.drop, verdicts.mute)
        return root, styles, data_scripts, skipped, tagged, streamed

    root, styles, data_scripts, skipped, tagged, streamed = build()
    # React streaming: only a page with boundaries or placeholders and hidden segments can
    # need a swap; then the tree is built again.
    if streamed and 'hidden id="S:' in html and reveal_streamed_segments(tree, html):
        root, styles, data_scripts, skipped, tagged, streamed = build()
    page = ParsedPage(root=root, base_url=url, url=url, html=html, styles=styles,
                      data_scripts=data_scripts, skipped=skipped or [], tagged=tagged,
                      style_selectors_applied=callable(skip_selector) or style_resolver is not None,
                      skip_elements=skip_elements,
                      microdata_types=_microdata_types(tree))
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


#: Elements whose own attributes may hide them (see :func:`unclutter.core.hiding.attributes_hide`).
_MAY_HIDE_SELECTOR = "[hidden], [aria-hidden], [style], [type], [class]"


def drop_attribute_hidden(tree) -> int:
    """Remove from a lexbor document (``selectolax.lexbor.LexborHTMLParser``) every element
    its own attributes hide (:func:`~unclutter.core.hiding.attributes_hide`; no
    stylesheets), outermost first; returns how many subtrees were removed. Elements inside
    a removed one are never touched (lexbor frees a removed subtree)."""
    from ..core.hiding import attributes_hide

    doomed: list = []
    ids: set[int] = set()
    for node in tree.css(_MAY_HIDE_SELECTOR):  # document order: ancestors first
        if not attributes_hide(node.attributes):
            continue
        a = node.parent
        inside = False
        while a is not None:
            if a.mem_id in ids:
                inside = True
                break
            a = a.parent
        if not inside:
            ids.add(node.mem_id)
            doomed.append(node)
    for node in doomed:
        node.decompose()
    return len(doomed)
