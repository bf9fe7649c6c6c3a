"""Reconstruct stage: a pruned DOM subtree in, GitHub Flavored Markdown out.

Spec: GFM 0.29-gfm, https://github.github.com/gfm/ (section numbers below refer to it).

How it works. One iterative pre-order walk over the tree (an explicit stack; exit actions
are tuples pushed below a node's children), so a 100,000-level-deep tree converts without
recursion. Inline content accumulates as *tokens* for the running paragraph: literal text
(escaped only when the paragraph is finished, when both neighbours of every run are known),
raw Markdown (code spans, images, link brackets), emphasis openers/closers and hard breaks.
Block elements finish the paragraph; finished blocks collect in *frames* (the document, a
block quote, a list item) and a frame, when it closes, prefixes its lines (``"> "``, the
list marker, or the marker's width in spaces) and becomes one block of its parent. Output is
built from lists of strings joined once.

The state machine (:class:`_Renderer`; kept in one module on purpose: every state below
reads and writes the others' fields on the hot path). Each element's tag maps to a *role*
(``_ROLE``); entering a node runs the role's entry action, which may push an *exit action*
(``_X_*``) below the node's children, run when they are done. The states and their
transitions:

* **running paragraph** (``toks``/``kinds`` non-empty): text, code spans, images and link
  brackets append inline tokens. Any block boundary (a block element's entry or exit
  ``_X_BLOCK``, a heading, ``<pre>``, ``<hr>``, a list, quote or table, a second ``<br>``)
  *flushes* it (:meth:`_Renderer._flush`): the tokens are escaped and joined into one block
  of the current frame, and the paragraph is empty again.
* **inline wrappers** (``wraps``): ``<em>``/``<strong>``/``<s>``, ``<a href>``, ``<q>`` and
  raw ``<sub>``/``<sup>`` push a wrapper on entry and pop it at ``_X_WRAP``; a wrapper's
  opening delimiter is written before its first content (``_open_wraps``), closed at each
  flush and re-opened in the next paragraph. One link and one wrapper per emphasis marker
  at a time; ``<q>``/``<sub>``/``<sup>`` up to ``MAX_INLINE_MARK_DEPTH``.
* **container frames** (``frames``, ``lists``): the document frame, plus one per open
  ``<blockquote>`` (``_X_QUOTE_END``) and per list item (``_X_ITEM_START`` ..
  ``_X_ITEM_END``, the list itself closed by ``_X_LIST_END``). A closing frame prefixes its
  blocks' lines and adds them as one block to the frame below. Past
  ``MAX_CONTAINER_DEPTH``/``MAX_CONTAINER_INDENT`` a list or quote is entered as a plain
  block instead.
* **one-line mode** (``one_line > 0``): inside a heading (``_X_HEADING`` writes the ``#``
  line) or a table cell or caption. Blocks become word breaks (``_X_SPACE``), ``<br>`` a
  space (``CELL_BREAK`` in a cell), ``<pre>`` a code span.
* **data-table grid** (``tables``, while the innermost table has no open cell): only table
  parts are honoured (rows, cells, ``thead``/``tbody``/``tfoot`` via ``_X_SECTION_END``,
  the caption via ``_X_CAPTION_END``); stray content is skipped. A cell enters one-line mode
  until ``_X_CELL_END`` stores it; ``_X_TABLE_END`` writes the pipe table (or, over the
  caps, one list item a row).
* **post breaks** (``post_break``): a forum or comment post right after a post about the
  same item asks for a ``---`` before the next block of its frame; ``_X_POST_END`` withdraws
  the request when the post wrote nothing.

At the end the last paragraph is flushed and the document frame's blocks are joined.

Choices, each with its reason:

* ``<br>`` is a backslash hard line break (:data:`~.rules.HARD_BREAK`, section 6.12): it is
  visible and survives whitespace trimming. A ``<br>`` that ends a paragraph is dropped
  (a break cannot end a block); two ``<br>`` in a row end the paragraph.
* Inline wrappers (emphasis, links) open lazily, right before their first content, and are
  closed at the end of every paragraph and re-opened in the next, so an ``<a>`` or ``<b>``
  around blocks yields one well-formed span per block and never an empty link or ``****``.
  Whitespace at a wrapper's edge is moved outside the delimiters; a pair whose delimiters
  would not be left-/right-flanking (section 6.4) is dropped rather than printed as ``*``.
* Emphasis is ``*``/``**``, strikethrough ``~~`` (section 6.5); ``strong``/``b`` inside a
  heading adds nothing and is dropped. Sub- and superscripts keep their HTML tags
  (``<sub>``/``<sup>``, raw inline HTML, section 6.10: GitHub renders them), except a
  superscript holding a link (a footnote marker).
* Headings are ATX ``#``.. ``######``. At most one ``#`` heading is written: with
  ``title`` given every ``<h1>`` becomes ``##`` (the caller writes ``# title``), otherwise
  the first ``<h1>`` stays and later ones become ``##``.
* Lists: ``-`` bullets and ``1.`` numbers (``start``, ``reversed`` and ``<li value>`` kept);
  continuation lines are indented by the item marker's width, as sections 5.2-5.3 require.
  A ``<ul>``/``<ol>`` placed directly inside a list (invalid HTML, common) belongs to the
  preceding item. Adjacent lists alternate ``-``/``*`` (``.``/``)``) so they stay separate.
* Tables: data tables become GFM pipe tables (section 4.10); layout tables become blocks
  (see :mod:`unclutter.reconstruct.tables`). Cell content is kept on one line: ``<br>``,
  paragraphs and list items inside a cell are separated by ``<br>`` (raw inline HTML,
  :data:`~.rules.CELL_BREAK`); in a heading or a table caption they become spaces. A data
  table wider than :data:`~.rules.MAX_TABLE_COLUMNS` or larger than
  :data:`~.rules.MAX_TABLE_CELLS` is written as list items, one a row.
* Code: ``<pre>`` becomes a fenced block whose content is the element's text byte for byte
  (tags inside, e.g. highlighter spans, add nothing; ``<br>`` is a newline), fenced with
  more backticks than the longest run inside; the info string comes from a
  ``language-x``/``lang-x`` class or ``data-lang``. Inline ``<code>`` is a code span.
* Links and images get absolute URLs (``urljoin`` against ``base_url``); ``javascript:``,
  ``vbscript:``, ``data:`` and ``file:`` targets are dropped (the link's text stays); each
  image URL is written once. Image URLs come from :func:`~.images.pick_image_url` (lazy
  attributes, srcset).
* Escaping is minimal and positional: see :mod:`unclutter.reconstruct.escaping`.
* Output is bounded by input (:data:`~.rules.MARKDOWN_MAX_GROWTH`): whatever can be written
  again for every line, block or cell is capped at its source. Nested block quotes and lists
  stop at :data:`~.rules.MAX_CONTAINER_DEPTH` levels and
  :data:`~.rules.MAX_CONTAINER_INDENT` characters of line prefix; nested ``<q>``/``<sub>``/
  ``<sup>`` marks at :data:`~.rules.MAX_INLINE_MARK_DEPTH`; table grids at the table caps;
  URLs, which a link repeats in every block it spans and a relative address grows by the
  base URL, at an allowance that grows with the text written and the page's own addresses
  (:data:`~.rules.URL_ALLOWANCE_CHARS`): past it a link keeps its text alone.
* Output ends with exactly one newline (``""`` when there is no content) and has no run of
  blank lines, except blank lines that are part of a ``<pre>`` block's content.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from urllib.parse import urljoin, urlsplit

from ..core.dom import TEXT, Node
from ..core.hiding import class_tokens
from ..core.invisible import strip_invisible
from ..parse.html import TEX_STYLE_RE
from ..prune.rules import TEX_FORMULA_IMAGE_CLASS_RE
from .escaping import (
    INLINE_SPECIAL_RE,
    LINE_START_CHARS,
    code_span,
    escape_heading_end,
    escape_text,
    fence_for,
    format_url,
    left_flanking,
    right_flanking,
)
from .images import pick_image_url
from .plaintext import markdown_to_text
from .rules import (
    BLOCK_TAGS,
    CAPTION_CLASSES,
    CODE_LANGUAGE_ATTRS,
    CODE_LANGUAGE_CLASS_RE,
    CODE_LANGUAGE_NOT_A_LANGUAGE,
    CODE_TAGS,
    EMPHASIS_MARKERS,
    CELL_BREAK,
    CITATION_MARKER_MAX_NODES,
    HARD_BREAK,
    HEADING_LEVELS,
    LIST_TAGS,
    MAX_COLSPAN,
    MAX_CONTAINER_DEPTH,
    MAX_CONTAINER_INDENT,
    MAX_INLINE_MARK_DEPTH,
    MAX_LIST_START,
    MAX_ROWSPAN,
    MIN_FENCE_LENGTH,
    PLAIN_TEX_RE,
    POST_BREAK_TAGS,
    POST_CLASS_SPLIT_RE,
    POST_ID_RE,
    POST_ITEM_WORDS,
    PRE_TAGS,
    RAW_INLINE_TAGS,
    SKIP_TAGS,
    TITLE_HEADING_MAX_PRECEDING_BLOCKS,
    UNSAFE_URL_SCHEMES,
    URL_ALLOWANCE_CHARS,
    URL_ALLOWANCE_PER_TEXT_CHAR,
)
from .tables import inline_rows, is_data_table, layout_grid, linear_rows, pipe_table_lines, span

__all__ = ["to_markdown", "markdown_to_text"]

# -- element roles ------------------------------------------------------------------------
(
    _INLINE,
    _SKIP,
    _BLOCK,
    _HEADING,
    _EMPH,
    _LINK,
    _IMG,
    _BR,
    _CODE,
    _PRE,
    _LIST,
    _QUOTE,
    _HR,
    _TABLE,
    _TR,
    _CELL,
    _CAPTION,
    _SECTION,
    _DT,
    _FIGCAPTION,
    _Q,
    _NOTHING,
    _MATH,
    _RAW_TAG,
) = range(24)

_ROLE: dict[str, int] = {}
for _t in BLOCK_TAGS:
    _ROLE[_t] = _BLOCK
for _t in SKIP_TAGS:
    _ROLE[_t] = _SKIP
for _t in HEADING_LEVELS:
    _ROLE[_t] = _HEADING
for _t in EMPHASIS_MARKERS:
    _ROLE[_t] = _EMPH
for _t in CODE_TAGS:
    _ROLE[_t] = _CODE
for _t in PRE_TAGS:
    _ROLE[_t] = _PRE
for _t in LIST_TAGS:
    _ROLE[_t] = _LIST
for _t in RAW_INLINE_TAGS:
    _ROLE[_t] = _RAW_TAG
_ROLE.update(
    a=_LINK,
    img=_IMG,
    br=_BR,
    wbr=_NOTHING,
    blockquote=_QUOTE,
    hr=_HR,
    table=_TABLE,
    tr=_TR,
    td=_CELL,
    th=_CELL,
    caption=_CAPTION,
    thead=_SECTION,
    tbody=_SECTION,
    tfoot=_SECTION,
    dt=_DT,
    figcaption=_FIGCAPTION,
    q=_Q,
    math=_MATH,
)
_ROLE[TEXT] = _INLINE
_TABLE_PART_ROLES = frozenset((_TR, _CELL, _CAPTION, _SECTION, _SKIP))
_SECTION_ORDER = {"thead": 0, "tbody": 1, "tfoot": 2}

# -- inline token kinds -------------------------------------------------------------------
_T = 0  # literal text, not yet escaped
_TL = 1  # literal text inside link text
_R = 2  # raw Markdown: code span, image, link bracket
_O = 3  # emphasis opener
_C = 4  # emphasis closer
_B = 5  # hard line break

# wrapper kinds
_W_EMPH = 0
_W_LINK = 1
_W_QUOTE = 2
_W_RAW = 3  # an inline element written as its own HTML tags (rules.RAW_INLINE_TAGS)
# (_W_QUOTE and _W_RAW wrappers are counted against rules.MAX_INLINE_MARK_DEPTH)
_NOT_WRITTEN = -2  # a link wrapper's open-token index when its URL is past the allowance

# -- exit actions -------------------------------------------------------------------------
(
    _X_BLOCK,
    _X_SPACE,
    _X_WRAP,
    _X_HEADING,
    _X_ITEM_START,
    _X_ITEM_END,
    _X_LIST_END,
    _X_QUOTE_END,
    _X_TABLE_END,
    _X_CELL_END,
    _X_CAPTION_END,
    _X_SECTION_END,
    _X_POST_END,
) = range(13)

_EXIT_WRAP = (_X_WRAP,)
_EXIT_BLOCK = (_X_BLOCK,)
_EXIT_SPACE = (_X_SPACE,)

# -- block kinds (for separators inside list items) ---------------------------------------
_K_PARA = 0
_K_HEADING = 1
_K_LIST_INTERRUPTS = 2  # a list that may interrupt a paragraph (section 5.2)
_K_LIST = 3
_K_OTHER = 4

_WS = re.compile(r"[ \t\n\r\f]+")
_NEEDS_ESCAPE = INLINE_SPECIAL_RE.search
_URL_TRIM = "".join(chr(i) for i in range(0x21))
_LANG_OK = re.compile(r"[A-Za-z0-9_+#.-]{1,40}")
_TITLE_WORD = re.compile(r"\w+")
_INT = re.compile(r"\s*([-+]?)0*([0-9]+)")
#: Digits read of a list number: more would be clamped to ``MAX_LIST_START`` anyway.
_INT_DIGITS = 18


def _title_key(text: str) -> str:
    """Normalised form for comparing a heading with the title: NFKC, case-folded, word
    characters only, single spaces."""
    return " ".join(_TITLE_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


def _parse_int(value: str | None) -> int | None:
    """A list number (``start``, ``value``): an integer; one of more than ``_INT_DIGITS``
    digits reads as ``10**_INT_DIGITS`` (Python refuses to convert over 4,300)."""
    if not value:
        return None
    m = _INT.match(value)
    if not m:
        return None
    digits = m.group(2)
    n = int(digits) if len(digits) <= _INT_DIGITS else 10**_INT_DIGITS
    return -n if m.group(1) == "-" else n


def _marker_width(lst: Node) -> int:
    """Width, in characters, of the widest item marker list ``lst`` may write (an upper
    bound: ``- `` for a bullet list; for an ordered one, from its ``start``, its items'
    ``value`` and their count)."""
    if lst.tag != "ol":
        return 2
    high = abs(_parse_int(lst.attrs.get("start")) or 0)
    items = 1  # (content before the first <li> may form an item)
    for c in lst.children:
        if c.tag == "li":
            items += 1
            value = _parse_int(c.attrs.get("value"))
            if value is not None and abs(value) > high:
                high = abs(value)
    return len(str(min(high + items, MAX_LIST_START))) + 2


class _Frame:
    """Blocks of a container: the document, a block quote or a list item."""

    __slots__ = ("blocks", "kinds", "prefix", "last_list")

    def __init__(self, prefix: str | None = None) -> None:
        self.blocks: list[str] = []
        self.kinds: list[int] = []
        self.prefix = prefix  # the list item marker, e.g. "- " or "10. "; None: not an item
        self.last_list = ""  # marker character of the last block when it is a list

    def text(self) -> str:
        blocks = self.blocks
        if self.prefix is None or len(blocks) == 1:
            return "\n\n".join(blocks)
        kinds = self.kinds
        parts = [blocks[0]]
        for i in range(1, len(blocks)):
            # a tight sub-list directly under the item's text (sections 5.2-5.3)
            if kinds[i] == _K_LIST_INTERRUPTS and kinds[i - 1] <= _K_HEADING:
                parts.append("\n")
            else:
                parts.append("\n\n")
            parts.append(blocks[i])
        return "".join(parts)


class _List:
    __slots__ = ("items", "ordered", "number", "step", "mark", "width")

    def __init__(self, ordered: bool, number: int, step: int, mark: str, width: int) -> None:
        self.items: list[str] = []
        self.ordered = ordered
        self.number = number
        self.step = step
        self.mark = mark
        self.width = width  # widest item marker (indentation it adds to its lines)


class _Table:
    __slots__ = ("rows", "sections", "section", "cell", "caption")

    def __init__(self) -> None:
        self.rows: list[list[tuple[str, int, int]]] = []
        self.sections: list[int] = []
        self.section = 1
        self.cell: tuple[int, int] | None = None
        self.caption = ""


def _holds_link(node: Node) -> bool:
    """Whether an ``<a href>`` lies under ``node`` (a superscript holding one is a footnote
    or citation marker, written without its tags: see ``rules.RAW_INLINE_TAGS``). Only the
    first :data:`~.rules.CITATION_MARKER_MAX_NODES` nodes are looked at (a marker is tiny;
    nested superscripts stay linear)."""
    stack = list(node.children)
    budget = CITATION_MARKER_MAX_NODES
    while stack:
        budget -= 1
        if budget < 0:
            return False
        n = stack.pop()
        if n.tag == "a" and n.attrs and n.attrs.get("href"):
            return True
        if n.children:
            stack.extend(n.children)
    return False


def _collect_text(node: Node, pre: bool) -> str:
    """Text of ``node``'s subtree for code: text nodes verbatim, ``<br>`` as a newline; in
    ``<pre>``, a block element that does not end in a newline gets one (highlighters that
    wrap each line in a ``<div>``). Skipped tags add nothing."""
    parts: list[str] = []
    last = ""
    stack: list[Node | None] = list(reversed(node.children))
    while stack:
        n = stack.pop()
        if n is None:
            if last and last != "\n":
                parts.append("\n")
                last = "\n"
            continue
        tag = n.tag
        if tag == TEXT:
            if n.text:
                parts.append(n.text)
                last = n.text[-1]
        elif tag == "br":
            parts.append("\n")
            last = "\n"
        elif tag in SKIP_TAGS:
            continue
        elif n.children:
            if pre and tag in BLOCK_TAGS:
                stack.append(None)
            stack.extend(reversed(n.children))
    return "".join(parts)


def _code_language(pre: Node) -> str:
    """Info string for a ``<pre>``: from ``data-lang``/``data-language`` or a
    ``language-x``/``lang-x``/``highlight-source-x`` class on the pre, its first code child,
    or its parent. Only ``[A-Za-z0-9_+#.-]`` is kept (an info string may not hold a backtick,
    section 4.5)."""
    candidates = [pre]
    for c in pre.children:
        if c.tag == "code":
            candidates.append(c)
            break
    if pre.parent is not None:
        candidates.append(pre.parent)
    for el in candidates:
        attrs = el.attrs
        if not attrs:
            continue
        for name in CODE_LANGUAGE_ATTRS:
            v = attrs.get(name, "").strip()
            if v and _LANG_OK.fullmatch(v) and v.lower() not in CODE_LANGUAGE_NOT_A_LANGUAGE:
                return v.lower()
        cls = attrs.get("class", "")
        if cls:
            for c in cls.split():
                m = CODE_LANGUAGE_CLASS_RE.fullmatch(c)
                if m and _LANG_OK.fullmatch(m.group(1)) and m.group(1).lower() not in CODE_LANGUAGE_NOT_A_LANGUAGE:
                    return m.group(1).lower()
    return ""


def _prefix_lines(text: str, first: str, rest: str, blank: str) -> str:
    lines = text.split("\n")
    out = [first + lines[0] if lines[0] else blank]
    for line in lines[1:]:
        out.append(rest + line if line else blank)
    return "\n".join(out)


def _caption_class(cls: str | None) -> bool:
    """Whether a ``class`` value names a caption (:data:`rules.CAPTION_CLASSES`)."""
    return bool(cls) and not CAPTION_CLASSES.isdisjoint(cls.lower().split())


class _Renderer:
    """One conversion; see the module docstring."""

    def __init__(
        self,
        base_url: str | None,
        title: str | None,
        include_links: bool,
        include_images: bool,
        include_captions: bool = True,
    ) -> None:
        self.base_url = base_url or None
        self.origin = ""  # "scheme://host[:port]" of an http(s) base URL
        if self.base_url:
            try:
                parts = urlsplit(self.base_url)
            except ValueError:  # unusable (the parse stage ignores such a <base href>)
                self.base_url = None
            else:
                if parts.scheme in ("http", "https") and parts.netloc:
                    self.origin = f"{parts.scheme}://{parts.netloc}"
        self.url_cache: dict[str, str | None] = {}
        self.include_links = include_links
        self.include_images = include_images
        self.include_captions = include_captions
        self.title_key = _title_key(title) if title else None
        self.first_heading_seen = False
        self.h1_seen = False
        self.blocks_emitted = 0
        self.frames: list[_Frame] = [_Frame()]
        self.lists: list[_List] = []
        self.tables: list[_Table] = []
        self.inline_rows: set[int] = set()  # id() of layout-table rows written as one line
        self.depth = 0  # open Markdown containers (block quotes + lists)
        self.indent = 0  # characters those containers put before a line (MAX_CONTAINER_INDENT)
        self.marks = 0  # open <q>/<sub>/<sup> wrappers written (MAX_INLINE_MARK_DEPTH)
        # URL allowance (rules.URL_ALLOWANCE_CHARS): characters of text written, of the
        # distinct href/src values met, and of URLs written so far
        self.text_chars = 0
        self.url_credit = 0
        self.url_chars = 0
        self.one_line = 0  # > 0 inside a heading or table cell: blocks become spaces
        self.cells = 0  # > 0 inside a table cell: blocks and <br> become CELL_BREAK instead
        self.heading = 0
        self.images_seen: set[str] = set()
        # posts met so far (id -> blocks_emitted when it started; POST_BREAK_TAGS), each
        # parent's child positions, and the container owing a break before its next block
        self.posts_start: dict[int, int] = {}
        self.sibling_index: dict[int, dict[int, int]] = {}
        self.post_break: _Frame | None = None
        self.post_break_owner: int | None = None  # id of the post that asked for it
        self.has_text: dict[int, bool] = {}
        # running paragraph
        self.toks: list[str] = []
        self.kinds: list[int] = []
        self.pairs: list[tuple[int, int] | None] = []
        self.pending_space = False
        self.pending_break = False
        # inline wrappers: [open, close, kind, index of the open token]
        self.wraps: list[list] = []
        self.n_open = 0  # wraps[:n_open] are open in the running paragraph
        self.links = 0  # link wrappers on the stack
        self.links_open = 0  # link wrappers open in the running paragraph
        self.emph = {"*": 0, "**": 0, "~~": 0}
        self.last_code: tuple[int, str] | None = None  # (token index, text) of a code span
        # some text of the running paragraph may need escaping (has a special character or
        # starts a line); when False, finishing the paragraph is a plain join
        self.needs_escape = False

    # -- URLs -------------------------------------------------------------------------
    def _url(self, raw: str | None) -> str | None:
        """Absolute, safe URL for an ``href``/``src`` value, or ``None`` (empty, or an
        unsafe scheme from :data:`~.rules.UNSAFE_URL_SCHEMES`). Results are cached per
        conversion: pages repeat the same links."""
        if not raw:
            return None
        cache = self.url_cache
        if raw in cache:
            return cache[raw]
        url: str | None = raw.strip(_URL_TRIM)
        if "\t" in url or "\n" in url or "\r" in url:
            url = url.replace("\t", "").replace("\n", "").replace("\r", "")
        if not url or url[:11].lower().startswith(UNSAFE_URL_SCHEMES):
            url = None
        elif self.base_url and not url.startswith(("https://", "http://")):
            origin = self.origin
            if origin and url[0] == "/" and url[1:2] != "/" and "/." not in url and "\\" not in url:
                url = origin + url  # root-relative: what urljoin returns, without its cost
            else:
                try:
                    url = urljoin(self.base_url, url)
                except ValueError:
                    url = None
                if url is not None and url[:11].lower().startswith(UNSAFE_URL_SCHEMES):
                    url = None
        cache[raw] = url
        return url

    def _url_fits(self, chars: int) -> bool:
        """Whether a URL of ``chars`` characters may be written (and count it): the URLs
        written stay within :data:`~.rules.URL_ALLOWANCE_CHARS`, plus
        :data:`~.rules.URL_ALLOWANCE_PER_TEXT_CHAR` per character of text written so far,
        plus the characters of the distinct ``href``/``src`` values met so far."""
        total = self.url_chars + chars
        if total > URL_ALLOWANCE_CHARS + URL_ALLOWANCE_PER_TEXT_CHAR * self.text_chars + self.url_credit:
            return False
        self.url_chars = total
        return True

    # -- inline tokens ----------------------------------------------------------------
    def _before_content(self) -> None:
        """Write what must precede new content: a pending hard break or space (only inside a
        paragraph), then the opening delimiters of wrappers not yet open."""
        toks = self.toks
        if toks:
            if self.pending_break:
                if self.cells:
                    toks.append(CELL_BREAK)
                    self.kinds.append(_R)
                else:
                    toks.append(HARD_BREAK)
                    self.kinds.append(_B)
            elif self.pending_space:
                toks.append(" ")
                self.kinds.append(_TL if self.links_open else _T)
        self.pending_break = self.pending_space = False
        if self.n_open < len(self.wraps):
            self._open_wraps()

    def _open_wraps(self) -> None:
        """Write the opening delimiters of the wrappers not yet open in this paragraph."""
        toks, kinds = self.toks, self.kinds
        for w in self.wraps[self.n_open :]:
            kind = w[2]
            if kind == _W_EMPH:
                kinds.append(_O)
            elif kind == _W_LINK:
                url_chars = self.url_chars + len(w[1])
                if url_chars > URL_ALLOWANCE_CHARS + self.url_credit and not self._url_fits(len(w[1])):
                    w[3] = _NOT_WRITTEN  # past the URL allowance: its text alone
                    continue
                self.url_chars = url_chars
                if toks and kinds[-1] <= _TL and toks[-1].endswith("!"):
                    self.needs_escape = True  # "!" before "[" would start an image
                kinds.append(_R)
                self.links_open += 1
            elif kind == _W_RAW:
                kinds.append(_R)
            else:
                kinds.append(_TL if self.links_open else _T)
            w[3] = len(toks)
            toks.append(w[0])
        self.n_open = len(self.wraps)

    def _close_token(self, w: list) -> None:
        kind = w[2]
        if kind == _W_LINK and w[3] == _NOT_WRITTEN:
            return
        idx = len(self.toks)
        self.toks.append(w[1])
        if kind == _W_EMPH:
            self.kinds.append(_C)
            self.pairs.append((w[3], idx))
        elif kind == _W_LINK:
            self.kinds.append(_R)
            self.links_open -= 1
        elif kind == _W_RAW:
            self.kinds.append(_R)
        else:
            self.kinds.append(_TL if self.links_open else _T)

    def _text(self, text: str) -> None:
        """Add character data, collapsing HTML whitespace (space, tab, LF, CR, FF; not NBSP)
        to single spaces; edge spaces become pending so they can move outside wrappers."""
        c = text.strip(" \t\n\r\f")
        if not c:
            if text:
                self.pending_space = True
            return
        if text[0] != c[0]:
            self.pending_space = True
        if "  " in c or "\n" in c or "\t" in c or "\r" in c or "\f" in c:
            c = _WS.sub(" ", c)
        toks = self.toks
        kinds = self.kinds
        # _before_content, inlined: this is the hottest path
        if toks:
            if self.pending_break:
                if self.cells:
                    toks.append(CELL_BREAK)
                    kinds.append(_R)
                else:
                    toks.append(HARD_BREAK)
                    kinds.append(_B)
            elif self.pending_space:
                toks.append(" ")
                kinds.append(_TL if self.links_open else _T)
        self.pending_break = False
        if self.n_open < len(self.wraps):
            self._open_wraps()
        if not self.needs_escape and (
            _NEEDS_ESCAPE(c) is not None or ((not toks or kinds[-1] == _B) and c[0] in LINE_START_CHARS)
        ):
            self.needs_escape = True
        self.text_chars += len(c)
        toks.append(c)
        kinds.append(_TL if self.links_open else _T)
        self.pending_space = text[-1] != c[-1]

    def _word_break(self) -> None:
        """A block boundary or ``<br>`` inside a one-line context: a line break
        (:data:`~.rules.CELL_BREAK`) in a table cell, a space in a heading or caption. Only
        written before further content, like a pending space."""
        if self.cells and not self.heading:
            self.pending_break = True
        else:
            self.pending_space = True

    def _raw(self, md: str) -> None:
        self._before_content()
        self.toks.append(md)
        self.kinds.append(_R)

    def _flanking(self, i: int) -> tuple[bool, bool]:
        """(left-flanking, right-flanking) of the delimiter run holding marker ``i``: the
        characters around the run, adjacent markers of the same character included."""
        toks, kinds = self.toks, self.kinds
        ch = toks[i][0]
        j = i - 1
        while j >= 0 and (not toks[j] or (kinds[j] in (_O, _C) and toks[j][0] == ch)):
            j -= 1
        prev = toks[j][-1] if j >= 0 else ""
        n = len(toks)
        k = i + 1
        while k < n and (not toks[k] or (kinds[k] in (_O, _C) and toks[k][0] == ch)):
            k += 1
        nxt = toks[k][0] if k < n else ""
        return left_flanking(prev, nxt), right_flanking(prev, nxt)

    def _merge_adjacent_spans(self) -> bool:
        """Closers directly followed by an opener of the same character form one delimiter
        run that a parser splits its own way (``*a**b*``). When the opener repeats the
        closer (``<b>x</b><b>y</b>``) both are dropped and the first span runs on to the
        second one's closer; otherwise the opener's span is written without emphasis. Whether
        anything changed (a span written without emphasis can bring two others together:
        the caller runs this again)."""
        toks, kinds, pairs = self.toks, self.kinds, self.pairs
        changed = False
        by_open = {}
        by_close = {}
        for k, p in enumerate(pairs):
            if p is not None and toks[p[0]]:  # (not merged away or dropped by a check)
                by_open[p[0]] = k
                by_close[p[1]] = k
        n = len(toks)
        for i in sorted(by_close):
            if not toks[i]:
                continue
            ch = toks[i][0]
            j = i + 1
            while j < n and not toks[j]:
                j += 1
            direct = j
            while j < n and (not toks[j] or (kinds[j] == _C and toks[j][0] == ch)):
                j += 1
            if j >= n or kinds[j] != _O or toks[j][0] != ch or j not in by_open:
                continue
            second = by_open[j]
            if j == direct and toks[j] == toks[i]:
                first = by_close[i]
                end = pairs[second][1]
                pairs[first] = (pairs[first][0], end)
                by_close[end] = first
                toks[i] = ""
            else:
                toks[pairs[second][1]] = ""
            pairs[second] = None
            toks[j] = ""
            changed = True
        return changed

    def _trim_edges(self) -> None:
        """Remove Unicode whitespace (e.g. NBSP) and hard breaks at the start and end of the
        inline content: a GFM parser trims the first and would print a final ``\\``."""
        toks, kinds = self.toks, self.kinds
        n = len(toks)
        i = 0
        while i < n:
            t = toks[i]
            if t:
                k = kinds[i]
                if k == _B:
                    toks[i] = ""
                elif k <= _TL:
                    s = t.lstrip()
                    toks[i] = s
                    if s:
                        break
                elif k != _O:
                    break
            i += 1
        i = n - 1
        while i >= 0:
            t = toks[i]
            if t:
                k = kinds[i]
                if k == _B:
                    toks[i] = ""
                elif k <= _TL:
                    s = t.rstrip()
                    toks[i] = s
                    if s:
                        break
                elif k != _C:
                    break
            i -= 1

    def _finish_inline(self, line_escapes: bool, want_plain: bool = False) -> tuple[str, str]:
        """Close open wrappers, write the running paragraph's tokens as Markdown, reset.

        Args:
            line_escapes: the content is a paragraph, whose lines may start blocks.
            want_plain: also return the unescaped text (for the title comparison).
        Returns ``(markdown, plain_text)``; ``plain_text`` is ``""`` unless requested.
        """
        toks, kinds = self.toks, self.kinds
        while self.n_open:
            self.n_open -= 1
            self._close_token(self.wraps[self.n_open])
        pairs = self.pairs
        while pairs:
            while len(pairs) > 1 and self._merge_adjacent_spans():
                pass
            # Each pair's delimiters must flank its content (section 6.4). Inside a span of
            # the same delimiter character a run that could both open and close may pair
            # with the outer span instead, so nested pairs must flank one way only.
            # A pair directly inside one of the other length (``*`` around ``**``) forms a
            # single ``***`` run with it at both ends, which CommonMark reads as emphasis
            # around strong emphasis whenever the outer pair flanks: no stricter test.
            # A dropped pair changes its neighbours' surroundings ("~~)~~" kept beside a
            # dropped "*x)*" would then touch "x"; two spans it separated now touch): merging
            # and the check run again over the pairs left until none is dropped.
            enclosing: list[tuple[int, int, str]] = []  # (opener, closer, delimiter) of open pairs
            dropped = False
            for a, b in sorted(p for p in pairs if p is not None and toks[p[0]]):
                while enclosing and enclosing[-1][1] < a:
                    enclosing.pop()
                ch = toks[a][0]
                strict = any(d[0] == ch for _, _, d in enclosing)
                if strict and enclosing[-1][:2] == (a - 1, b + 1) and len(enclosing[-1][2]) != len(toks[a]) \
                        and enclosing[-1][2][0] == ch:
                    enclosing.append((a, b, toks[a]))
                    continue
                left, right = self._flanking(a)
                if left and not (strict and right):
                    left, right = self._flanking(b)
                    if right and not (strict and left):
                        enclosing.append((a, b, toks[a]))
                        continue
                toks[a] = toks[b] = ""
                dropped = True
            if not dropped:
                break
        n = len(toks)
        if n == 0:  # an empty heading or cell
            self.pending_space = self.pending_break = False
            self.last_code = None
            self.needs_escape = False
            return "", ""
        first, last = toks[0], toks[-1]
        trim = (
            not first
            or not last
            or first[0].isspace()
            or last[-1].isspace()
            or kinds[0] >= _O
            or kinds[-1] >= _O
        )
        if trim:
            self._trim_edges()
        if not (self.needs_escape or pairs or trim or want_plain):
            # nothing to escape or check: the tokens are the Markdown
            md = "".join(toks)
            plain = ""
        elif n == 1 and kinds[0] <= _TL:  # the common one-text-run paragraph
            s = toks[0]
            md = escape_text(s, "", "", line_escapes, False) if s else ""
            plain = s
        else:
            out: list[str] = []
            plain_parts: list[str] = []
            prev = ""
            line_start = True
            # dollar signs of the whole paragraph (text and formulas): two or more, and every
            # literal one is escaped, so none pairs with another or with a formula's
            dollars = sum(t.count("$") for t, k in zip(toks, kinds) if t and (k <= _TL or k == _R)) > 1
            i = 0
            while i < n:
                k = kinds[i]
                if k <= _TL:
                    j = i + 1
                    while j < n and kinds[j] == k:
                        j += 1
                    s = toks[i] if j == i + 1 else "".join(toks[i:j])
                    if not s:  # trimmed away
                        i = j
                        continue
                    if want_plain:
                        plain_parts.append(s)
                    m = j
                    while m < n and not toks[m]:
                        m += 1
                    nxt = toks[m][0] if m < n else ""
                    e = escape_text(s, prev, nxt, line_start and line_escapes, k == _TL, dollars)
                    out.append(e)
                    prev = e[-1]
                    line_start = False
                    i = j
                else:
                    t = toks[i]
                    if t:
                        out.append(t)
                        if k == _B:
                            prev = ""
                            line_start = True
                        else:
                            prev = t[-1]
                            line_start = False
                    i += 1
            md = "".join(out)
            plain = "".join(plain_parts)
        toks.clear()
        kinds.clear()
        pairs.clear()
        self.pending_space = self.pending_break = False
        self.links_open = 0
        self.last_code = None
        self.needs_escape = False
        return md, plain

    # -- blocks -----------------------------------------------------------------------
    def _post_break(self, node: Node) -> bool:
        """Ask for a ``---`` before ``node`` when it is a post right after a post naming the
        same item word that wrote content (see ``rules.POST_BREAK_TAGS``), outside lists and
        block quotes; whether ``node`` is a post (its end then clears a break it asked for
        and did not use). The break is written with the next block of the same Markdown
        container (:meth:`_add_block`): a post that writes nothing leaves no break, a post
        starting with its own ``<hr>`` no second one."""
        if self.depth or node.parent is None:
            return False
        words = _post_words(node)
        if not words:
            return False
        parent = node.parent
        index = self.sibling_index.get(id(parent))
        if index is None:
            index = self.sibling_index[id(parent)] = {id(ch): k for k, ch in enumerate(parent.children)}
        k = index.get(id(node), 0) - 1
        siblings = parent.children
        # the previous sibling with text (whitespace, empty separators and anchors skipped;
        # each sibling's text is looked for once: linear in the page)
        while k >= 0:
            sib = siblings[k]
            if sib.tag == TEXT:
                if sib.text.strip():
                    break
            elif id(sib) in self.posts_start:
                break
            else:
                has = self.has_text.get(id(sib))
                if has is None:
                    has = self.has_text[id(sib)] = sib.has_text()
                if has:
                    break
            k -= 1
        prev = siblings[k] if k >= 0 else None
        if prev is not None and prev.tag != TEXT:
            start = self.posts_start.get(id(prev))
            if start is not None and start < self.blocks_emitted and not words.isdisjoint(_post_words(prev)):
                self.post_break = self.frames[-1]
                self.post_break_owner = id(node)
        self.posts_start[id(node)] = self.blocks_emitted
        return True

    def _add_block(self, text: str, kind: int, list_mark: str = "") -> None:
        fr = self.frames[-1]
        if self.post_break is fr:
            self.post_break = None
            self.post_break_owner = None
            if text != "---" and fr.blocks and fr.blocks[-1] != "---":
                fr.blocks.append("---")
                fr.kinds.append(_K_OTHER)
                self.blocks_emitted += 1
        fr.blocks.append(text)
        fr.kinds.append(kind)
        fr.last_list = list_mark
        self.blocks_emitted += 1

    def _flush(self) -> None:
        # with no tokens there is nothing to finish: a pending space or break is only ever
        # set after content, and is dropped at a paragraph start anyway
        toks = self.toks
        if not toks:
            return
        if len(toks) == 1 and not self.needs_escape and not self.n_open:
            # fast path for the most common paragraph: one run of plain text
            md = toks[0]
            if self.kinds[0] <= _TL and not md[0].isspace() and not md[-1].isspace():
                toks.clear()
                self.kinds.clear()
                self.pending_space = self.pending_break = False
                self.last_code = None
                self._add_block(md, _K_PARA)
                return
        md, _ = self._finish_inline(True)
        if md.strip():
            self._add_block(md, _K_PARA)

    def _heading_end(self, level: int) -> None:
        md, plain = self._finish_inline(False, True)
        self.one_line -= 1
        self.heading = 0
        if not md.strip():
            return
        if self.title_key is not None and not self.first_heading_seen:
            self.first_heading_seen = True
            if (
                self.title_key
                and self.blocks_emitted <= TITLE_HEADING_MAX_PRECEDING_BLOCKS
                and _title_key(plain) == self.title_key
            ):
                return
        self.first_heading_seen = True
        if level == 1:
            if self.title_key is not None or self.h1_seen:
                level = 2
            self.h1_seen = True
        self._add_block("#" * level + " " + escape_heading_end(md.strip()), _K_HEADING)

    def _code_block(self, node: Node) -> None:
        code = _collect_text(node, True)
        if code.endswith("\n"):
            code = code[:-1]
        if not code.strip():
            return
        self.text_chars += len(code)
        fence = fence_for(code, MIN_FENCE_LENGTH)
        self._add_block(f"{fence}{_code_language(node)}\n{code}\n{fence}", _K_OTHER)

    def _code_span(self, node: Node, pre: bool) -> None:
        text = _WS.sub(" ", _collect_text(node, pre))
        if text.startswith(" "):
            self.pending_space = True
        body = text.strip(" ")
        if body:
            self.text_chars += len(body)
            toks = self.toks
            last = self.last_code
            if (
                last is not None
                and last[0] == len(toks) - 1
                and not self.pending_space
                and not self.pending_break
                and self.n_open == len(self.wraps)
            ):
                # <code>a</code><code>b</code>: two spans back to back would run their
                # backticks together (``a``b`` is one span); write one span instead
                body = last[1] + body
                toks[-1] = code_span(body)
            else:
                self._raw(code_span(body))
            self.last_code = (len(toks) - 1, body)
            if text.endswith(" "):
                self.pending_space = True

    def _math(self, node: Node) -> None:
        """A formula (parse stage: ``<math>`` made one text node, its TeX source in
        ``data-tex``), in GitHub's math syntax: a fenced ``math`` block for
        ``display="block"`` (a word break in a heading or table cell), ``$TeX$`` inline when
        the TeX holds nothing Markdown would read (:data:`~.rules.PLAIN_TEX_RE`), else
        ``$`TeX`$`` (the TeX in a code span, which every CommonMark reader keeps as it is);
        TeX holding ``$`` as a plain code span; without TeX, the formula's text read token by
        token."""
        tex = node.attrs.get("data-tex", "") if node.attrs else ""
        if not tex:
            for c in node.children:
                if c.tag == TEXT:
                    self._text(c.text)
            return
        self.text_chars += len(tex)
        if node.attrs.get("display") == "block" and not self.one_line:
            if self.toks:
                self._flush()
            fence = fence_for(tex, MIN_FENCE_LENGTH)
            self._add_block(f"{fence}math\n{tex}\n{fence}", _K_OTHER)
            return
        if "$" in tex:
            md = code_span(tex)
        elif PLAIN_TEX_RE.fullmatch(tex):
            md = f"${tex}$"
        else:
            md = f"${code_span(tex)}$"
        if self.toks and self.toks[-1].endswith("$") and not self.pending_space:
            self.pending_space = True  # "$a$ $b$", not "$a$$b$" (a display delimiter)
        self._raw(md)

    def _image(self, node: Node) -> None:
        attrs = node.attrs or {}
        alt = attrs.get("alt", "").strip()
        tex = TEX_STYLE_RE.match(alt)
        source = tex.group(1).strip() if tex else alt if TEX_FORMULA_IMAGE_CLASS_RE.search(
            attrs.get("class", "")) else ""
        if source:
            # MediaWiki's formula image: its alt text is the formula's TeX (see _math)
            self._math(Node("math", {"data-tex": " ".join(source.split()),
                                     "display": "block" if "display" in node.attrs.get("class", "") else ""}))
            return
        if not self.include_images:
            return
        raw = pick_image_url(node)
        url = self._url(raw)
        if url is None or url in self.images_seen:
            return
        self.url_credit += len(raw)  # (written once: each image URL is written once)
        dest = format_url(url)
        if not self._url_fits(len(dest)):
            return  # past the URL allowance (rules.URL_ALLOWANCE_CHARS)
        self.images_seen.add(url)
        alt = _WS.sub(" ", strip_invisible(node.attrs.get("alt", ""))).strip(" ")
        self.text_chars += len(alt)
        alt_md = escape_text(alt, "[", "]", False, True) if alt else ""
        self._raw(f"![{alt_md}]({dest})")

    def _start_list(self, node: Node, stack: list, width: int) -> None:
        self._flush()
        ordered = node.tag == "ol"
        parent = self.frames[-1]
        attrs = node.attrs
        if ordered:
            step = -1 if "reversed" in attrs else 1
            start = _parse_int(attrs.get("start"))
            if start is None:
                start = 1
                if step < 0:
                    start = sum(1 for c in node.children if c.tag == "li")
            mark = ")" if parent.last_list == "." else "."
        else:
            step = 0
            start = 0
            mark = "*" if parent.last_list == "-" else "-"
        self.lists.append(_List(ordered, start, step, mark, width))
        self.depth += 1
        self.indent += width
        # group children into items; a list or stray content after an <li> joins that item
        groups: list[list] = []
        for c in node.children:
            tag = c.tag
            if tag == "li":
                groups.append([c])
            elif tag == TEXT:
                if c.text.strip(" \t\n\r\f"):
                    if groups:
                        groups[-1].append(c)
                    else:
                        groups.append([None, c])
            elif tag in SKIP_TAGS:
                continue
            elif groups:
                groups[-1].append(c)
            else:
                groups.append([None, c])
        stack.append((_X_LIST_END,))
        for g in reversed(groups):
            stack.append((_X_ITEM_END,))
            if len(g) > 1:
                stack.extend(reversed(g[1:]))
            li = g[0]
            if li is not None and li.children:
                stack.extend(reversed(li.children))
            stack.append((_X_ITEM_START, li))

    def _item_start(self, li: Node | None) -> None:
        self._flush()
        lst = self.lists[-1]
        if lst.ordered:
            if li is not None:
                value = _parse_int(li.attrs.get("value"))
                if value is not None:
                    lst.number = value
            number = min(max(lst.number, 0), MAX_LIST_START)
            marker = f"{number}{lst.mark} "
        else:
            marker = lst.mark + " "
        self.frames.append(_Frame(prefix=marker))

    def _item_end(self) -> None:
        self._flush()
        fr = self.frames.pop()
        lst = self.lists[-1]
        if fr.blocks:
            marker = fr.prefix or "- "
            lst.items.append(_prefix_lines(fr.text(), marker, " " * len(marker), ""))
            lst.number += lst.step

    def _list_end(self) -> None:
        self._flush()
        lst = self.lists.pop()
        self.depth -= 1
        self.indent -= lst.width
        if lst.items:
            first = lst.items[0]
            interrupts = not lst.ordered or first.startswith("1" + lst.mark)
            kind = _K_LIST_INTERRUPTS if interrupts else _K_LIST
            self._add_block("\n".join(lst.items), kind, lst.mark)

    def _quote_end(self) -> None:
        self._flush()
        fr = self.frames.pop()
        self.depth -= 1
        self.indent -= 2
        if fr.blocks:
            self._add_block(_prefix_lines(fr.text(), "> ", "> ", ">"), _K_OTHER)

    def _table_end(self) -> None:
        t = self.tables.pop()
        ordered: list[list[tuple[str, int, int]]] = []
        for want in (0, 1, 2):
            for row, sec in zip(t.rows, t.sections):
                if sec == want:
                    ordered.append(row)
        if t.caption:
            self._add_block(t.caption, _K_PARA)
        grid = layout_grid(ordered)
        if grid is None:  # over MAX_TABLE_COLUMNS or MAX_TABLE_CELLS: a row per list item
            mark = "*" if self.frames[-1].last_list == "-" else "-"
            lines = linear_rows(ordered, mark)
            if lines:
                self._add_block("\n".join(lines), _K_LIST_INTERRUPTS, mark)
        elif any(any(r) for r in grid):
            self._add_block("\n".join(pipe_table_lines(grid)), _K_OTHER)

    def _cell_end(self) -> None:
        md, _ = self._finish_inline(False)
        self.one_line -= 1
        self.cells -= 1
        t = self.tables[-1]
        colspan, rowspan = t.cell or (1, 1)
        t.cell = None
        t.rows[-1].append((md.strip().replace("|", "\\|"), colspan, rowspan))

    def _caption_end(self) -> None:
        md, _ = self._finish_inline(True)
        self.one_line -= 1
        t = self.tables[-1]
        t.cell = None
        t.caption = md.strip()

    def _push_wrap(self, open_: str, close: str, kind: int, stack: list) -> None:
        self.wraps.append([open_, close, kind, -1])
        stack.append(_EXIT_WRAP)

    def _pop_wrap(self) -> None:
        w = self.wraps.pop()
        kind = w[2]
        if kind == _W_EMPH:
            self.emph[w[0]] -= 1
        elif kind == _W_LINK:
            self.links -= 1
        else:  # _W_QUOTE, _W_RAW
            self.marks -= 1
        if self.n_open > len(self.wraps):
            self.n_open -= 1
            self._close_token(w)

    # -- the walk ---------------------------------------------------------------------
    def run(self, root: Node) -> str:
        stack: list = [root]
        pop = stack.pop
        push = stack.append
        extend = stack.extend
        role_of = _ROLE.get
        tables = self.tables
        text = self._text
        toks = self.toks
        link_close: dict[str, str | None] = {}  # href -> "](url)" or None (not a link)
        while stack:
            node = pop()
            if node.__class__ is tuple:
                code = node[0]
                if code == _X_WRAP:
                    self._pop_wrap()
                elif code == _X_BLOCK:
                    if toks:
                        self._flush()
                elif code == _X_POST_END:
                    if toks:
                        self._flush()
                    if self.posts_start.get(node[1], -1) >= self.blocks_emitted:
                        # the post wrote nothing: no break for it, and the next post looks
                        # past it for the previous one
                        del self.posts_start[node[1]]
                        if self.post_break_owner == node[1]:
                            self.post_break = None
                            self.post_break_owner = None
                elif code == _X_SPACE:
                    self._word_break()
                elif code == _X_ITEM_START:
                    self._item_start(node[1])
                elif code == _X_ITEM_END:
                    self._item_end()
                elif code == _X_LIST_END:
                    self._list_end()
                elif code == _X_HEADING:
                    self._heading_end(node[1])
                elif code == _X_QUOTE_END:
                    self._quote_end()
                elif code == _X_CELL_END:
                    self._cell_end()
                elif code == _X_TABLE_END:
                    self._table_end()
                elif code == _X_CAPTION_END:
                    self._caption_end()
                elif code == _X_SECTION_END:
                    self.tables[-1].section = node[1]
                continue
            tag = node.tag
            in_grid = False
            if tables and tables[-1].cell is None:  # between a data table's cells
                if role_of(tag, _INLINE) not in _TABLE_PART_ROLES:
                    continue  # stray content: not part of any cell
                in_grid = True
            if tag == TEXT:
                if node.text:
                    text(node.text)
                continue
            role = role_of(tag, _INLINE)
            if not self.include_captions and role != _FIGCAPTION and node.attrs and _caption_class(
                    node.attrs.get("class")):
                continue  # a caption by its class (MediaWiki's thumbcaption...), dropped like a <figcaption>
            if role == _INLINE:
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _BLOCK:  # div, p, section...: the common block
                if self.one_line:
                    self._word_break()
                    push(_EXIT_SPACE)
                else:
                    if toks:
                        self._flush()
                    if tag in POST_BREAK_TAGS and node.attrs and self._post_break(node):
                        push((_X_POST_END, id(node)))
                    else:
                        push(_EXIT_BLOCK)
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _SKIP or role == _NOTHING or (role == _FIGCAPTION and not self.include_captions):
                continue
            if role == _EMPH:
                marker = EMPHASIS_MARKERS[tag]
                if not self.emph[marker] and not (marker == "**" and self.heading):
                    self.emph[marker] += 1
                    self._push_wrap(marker, marker, _W_EMPH, stack)
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _LINK:
                if self.include_links and not self.links:
                    href = node.attrs.get("href")
                    if href:
                        close = link_close.get(href, "")
                        if close == "":
                            url = self._url(href) if href.strip() != "#" else None
                            close = f"]({format_url(url)})" if url is not None else None
                            link_close[href] = close
                            self.url_credit += len(href)  # (each distinct href once)
                        if close is not None:
                            self.links += 1
                            self.wraps.append(["[", close, _W_LINK, -1])
                            push(_EXIT_WRAP)
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _IMG:
                self._image(node)
                continue
            if role == _BR:
                if self.one_line:
                    self._word_break()
                elif self.pending_break:
                    if toks:
                        self._flush()
                elif self.toks:
                    self.pending_break = True
                continue
            if role == _CODE:
                self._code_span(node, False)
                continue
            if role == _MATH:
                self._math(node)
                continue
            if role == _RAW_TAG:
                if self.marks < MAX_INLINE_MARK_DEPTH and not (tag == "sup" and _holds_link(node)):
                    self.marks += 1
                    self._push_wrap(f"<{tag}>", f"</{tag}>", _W_RAW, stack)
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _Q:
                if self.marks < MAX_INLINE_MARK_DEPTH:
                    self.marks += 1
                    self._push_wrap('"', '"', _W_QUOTE, stack)
                if node.children:
                    extend(reversed(node.children))
                continue
            # ---- block-level roles ----
            if role == _CELL and in_grid:
                t = tables[-1]
                if not t.rows:
                    t.rows.append([])
                    t.sections.append(t.section)
                attrs = node.attrs
                t.cell = (
                    span(attrs.get("colspan", "1"), MAX_COLSPAN),
                    span(attrs.get("rowspan", "1"), MAX_ROWSPAN),
                )
                self.one_line += 1
                self.cells += 1
                push((_X_CELL_END,))
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _TR and in_grid:
                t = tables[-1]
                t.rows.append([])
                t.sections.append(t.section)
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _SECTION and in_grid:
                t = tables[-1]
                push((_X_SECTION_END, t.section))
                t.section = _SECTION_ORDER[tag]
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _CAPTION and in_grid:
                tables[-1].cell = (1, 1)
                self.one_line += 1
                push((_X_CAPTION_END,))
                if node.children:
                    extend(reversed(node.children))
                continue
            if self.one_line:
                # inside a heading or a table cell: every block is just a word break
                if role == _PRE:
                    self._code_span(node, True)
                    continue
                if role == _HR:
                    self._word_break()
                    continue
                self._word_break()
                push(_EXIT_SPACE)
                if role == _DT:
                    if not self.emph["**"] and not self.heading:
                        self.emph["**"] += 1
                        self._push_wrap("**", "**", _W_EMPH, stack)
                elif role == _FIGCAPTION and not self.emph["*"]:
                    self.emph["*"] += 1
                    self._push_wrap("*", "*", _W_EMPH, stack)
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _HEADING:
                if toks:
                    self._flush()
                self.one_line += 1
                level = HEADING_LEVELS[tag]
                self.heading = level
                push((_X_HEADING, level))
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _PRE:
                if toks:
                    self._flush()
                self._code_block(node)
                continue
            if role == _HR:
                if toks:
                    self._flush()
                blocks = self.frames[-1].blocks
                if not blocks or blocks[-1] != "---":  # (two breaks in a row: one)
                    self._add_block("---", _K_OTHER)
                continue
            if role == _LIST and self.depth < MAX_CONTAINER_DEPTH:
                width = _marker_width(node)
                if self.indent + width <= MAX_CONTAINER_INDENT:
                    self._start_list(node, stack, width)
                    continue
            elif role == _QUOTE and self.depth < MAX_CONTAINER_DEPTH and self.indent + 2 <= MAX_CONTAINER_INDENT:
                if toks:
                    self._flush()
                self.frames.append(_Frame())
                self.depth += 1
                self.indent += 2
                push((_X_QUOTE_END,))
                if node.children:
                    extend(reversed(node.children))
                continue
            if role == _TABLE:
                if is_data_table(node):
                    if toks:
                        self._flush()
                    tables.append(_Table())
                    push((_X_TABLE_END,))
                    if node.children:
                        extend(reversed(node.children))
                    continue
                self.inline_rows |= inline_rows(node)
            elif role == _CELL and not self.one_line and node.parent is not None \
                    and id(node.parent) in self.inline_rows:
                # a cell of a layout table's one-line row: its content joins the row's line
                if self.toks:
                    self.pending_space = True
                if node.children:
                    extend(reversed(node.children))
                continue
            # any other block: div, p, section, li outside a list, layout table parts...
            if toks:
                self._flush()
            if tag in POST_BREAK_TAGS and node.attrs and self._post_break(node):
                push((_X_POST_END, id(node)))  # (a layout table holding a post: vBulletin)
            else:
                push(_EXIT_BLOCK)
            if role == _DT:
                if not self.emph["**"]:
                    self.emph["**"] += 1
                    self._push_wrap("**", "**", _W_EMPH, stack)
            elif role == _FIGCAPTION and not self.emph["*"]:
                self.emph["*"] += 1
                self._push_wrap("*", "*", _W_EMPH, stack)
            if node.children:
                extend(reversed(node.children))
        if toks:
            self._flush()
        blocks = self.frames[0].blocks
        # a break separates: none before the first block or after the last
        start, end = 0, len(blocks)
        while start < end and blocks[start] == "---":
            start += 1
        while end > start and blocks[end - 1] == "---":
            end -= 1
        blocks = blocks[start:end]
        return "\n\n".join(blocks) + "\n" if blocks else ""


@lru_cache(maxsize=4096)
def _class_post_words(cls: str) -> frozenset[str]:
    """The post-item words of a class value's tokens (see :func:`_post_words`); cached:
    class values repeat across a page."""
    words = set()
    for token in class_tokens(cls):
        last = POST_CLASS_SPLIT_RE.split(token.lower())[-1] or token.lower()
        for word in POST_ITEM_WORDS:
            if last.endswith(word):
                words.add(word)
    return frozenset(words)


def _post_words(node: Node) -> frozenset[str]:
    """The post-item words an element's class tokens and id name (``rules.POST_ITEM_WORDS``,
    ``rules.POST_ID_RE``), empty for any other element."""
    attrs = node.attrs
    if not attrs:
        return frozenset()
    cls = attrs.get("class")
    words = set(_class_post_words(cls)) if cls else set()
    ident = attrs.get("id")
    if ident:
        m = POST_ID_RE.fullmatch(ident.strip())
        if m:
            words.add(m.group(1).lower())
    return frozenset(words)


def to_markdown(
    root: Node,
    base_url: str | None = None,
    *,
    title: str | None = None,
    include_links: bool = True,
    include_images: bool = True,
    include_captions: bool = True,
) -> str:
    """Write the subtree under ``root`` as GitHub Flavored Markdown.

    Args:
        root: any node of a :mod:`unclutter.core.dom` tree (usually the main-content element
            chosen by the score stage, already pruned); it is not modified.
        base_url: absolute URL that relative ``href``/``src`` values resolve against (the
            parse stage's ``page.base_url``); ``None`` leaves them as written.
        title: the page title. When given, the first heading is dropped if it equals the
            title (compared case-folded, word characters only) and is preceded by at most
            :data:`~unclutter.reconstruct.rules.TITLE_HEADING_MAX_PRECEDING_BLOCKS` blocks, and
            every ``<h1>`` is written as ``##``: the caller prepends ``# title``.
        include_links: write links as ``[text](url)``; ``False`` keeps only their text.
        include_images: write images as ``![alt](url)``; ``False`` drops them.
        include_captions: write ``<figcaption>`` text (in italics); ``False`` drops it.

    Returns:
        Markdown text ending with one newline, or ``""`` when the subtree has no content.
        See the module docstring for the choices made; no HTML tag or attribute is ever
        written but ``<sub>``/``<sup>`` (:data:`~.rules.RAW_INLINE_TAGS`) and ``<br>`` in table
        cells (:data:`~.rules.CELL_BREAK`), and literal text
        is escaped only where GFM would read it as markup.

    Never raises on any tree shape; runs in time linear in the subtree size (tables are
    scanned once more to tell data from layout). The Markdown holds at most
    :data:`~unclutter.reconstruct.rules.MARKDOWN_MAX_GROWTH` characters per character of the
    HTML the subtree was parsed from, plus
    :data:`~unclutter.reconstruct.rules.URL_ALLOWANCE_CHARS` (see the module docstring for the
    caps that keep it).
    """
    return _Renderer(base_url, title, include_links, include_images, include_captions).run(root)
