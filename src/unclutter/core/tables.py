"""Data tables and layout tables: what an HTML ``<table>`` is for, read from its markup.

A *data table* holds values in rows and columns (a product's specifications, a timetable, a
comparison); a *layout table* places parts of a page side by side (an old site's columns, a
link aggregator's listing, a forum post beside its author's box). The difference matters
twice: the learned extractors keep or drop a data table whole (a row cut in half is no
longer data), and the Markdown writer turns a data table into a GFM pipe table and a layout
table into blocks. WCAG 2 technique F46 and WAI-ARIA's ``presentation`` role name the same
distinction; the signs read here are those of the "Layout tables" heuristics browsers use
for accessibility (nesting, cell contents, row regularity, declared roles).

:func:`table_kind` gives ``"data"``, ``"key-value"`` (a data table of two columns, a short
name beside each value: a specification sheet) or ``"layout"``.
"""

from __future__ import annotations

from collections import Counter

from .dom import TEXT, Node

__all__ = ["table_kind", "is_data_table", "inline_rows", "annotate_tables", "kind_of", "TABLE_KIND_ATTR", "LAYOUT_CELL_TAGS", "LAYOUT_CELL_MAX_CHARS",
           "PRESENTATION_ROLES", "KEY_MAX_CHARS", "LAYOUT_CELL_MAX_BREAKS", "LAYOUT_EMPTY_CELL_SHARE",
           "LAYOUT_ROW_SHAPE_SHARE", "LAYOUT_ROW_SHAPE_MIN_ROWS", "INLINE_ROW_MAX_CHARS"]

#: A table whose cells hold any of these is a layout table: a pipe-table cell holds one line
#: of inline content only (GFM spec section 4.10).
LAYOUT_CELL_TAGS = frozenset(
    "h1 h2 h3 h4 h5 h6 pre listing xmp blockquote article section main header footer nav "
    "aside form hr figure".split()
)
#: A cell holding more characters of text than this makes a layout table (an article body
#: placed in a cell); data cells are short. Not applied to the values of a key/value table.
LAYOUT_CELL_MAX_CHARS = 600
#: A cell broken into more lines than this by ``<br>`` holds a block of text (an author box,
#: a post), not a value. Not applied to the values of a key/value table.
LAYOUT_CELL_MAX_BREAKS = 2
#: The longest name (characters) of a key/value table's first column ("Part Number",
#: "BIOS/Performance Profile"); a longer first cell is text, not a name.
KEY_MAX_CHARS = 60
#: At least this share of empty cells (no text, no image) among at least 6 makes a layout
#: table: spacer and padding cells; a data table leaves few cells empty.
LAYOUT_EMPTY_CELL_SHARE = 0.4
#: With at least :data:`LAYOUT_ROW_SHAPE_MIN_ROWS` rows holding text, when no single count of non-empty cells is shared by
#: more than this share of them, the rows are not records of one shape: a layout of
#: alternating row kinds (a title row, then a details row).
LAYOUT_ROW_SHAPE_SHARE = 0.5
#: Fewer rows than this say too little about their shapes (a header, a few values, a total).
LAYOUT_ROW_SHAPE_MIN_ROWS = 6
#: A layout table's row whose cells hold only inline content and at most this many
#: characters in all is written as one line (:func:`inline_rows`): "1. Title (site)".
INLINE_ROW_MAX_CHARS = 500
#: ``role`` values that declare a table presentational (WAI-ARIA 1.2).
PRESENTATION_ROLES = frozenset(("presentation", "none"))

#: The attribute :func:`annotate_tables` sets on each table: the kind read on the whole page,
#: before a selection cuts the table. Its name holds a space, which no parsed attribute name
#: can (HTML tokenizer, "attribute name state"): a page cannot set it.
TABLE_KIND_ATTR = " table-kind"

_CELLS = ("td", "th")
_MEDIA = frozenset("img picture svg video audio iframe embed object canvas math".split())
#: Elements that make a cell's content more than one line of inline content.
_BLOCKS = frozenset("p div ul ol dl table li dd dt center".split()) | LAYOUT_CELL_TAGS


def _cell_stats(cell: Node, inline_limit: int | None = None) -> tuple[int, int, bool, bool]:
    """(text characters, ``<br>`` count, holds media, holds a block element) of a cell.
    With ``inline_limit``, the walk stops at the first block element or ``<br>``, or past
    that many characters (the cell is then not inline: the counts are partial)."""
    chars = breaks = 0
    media = block = False
    stack = list(cell.children)
    while stack:
        node = stack.pop()
        tag = node.tag
        if tag == TEXT:
            chars += len(node.text.strip())
            if inline_limit is not None and chars > inline_limit:
                break
            continue
        if tag == "br":
            breaks += 1
        elif tag in _MEDIA:
            media = True
        elif tag in _BLOCKS:
            block = True
        if inline_limit is not None and (block or breaks):
            break
        stack.extend(node.children)
    return chars, breaks, media, block


def _rows(table: Node) -> list[Node] | None:
    """The table's own rows in order (under the table and its row groups), or ``None``
    when it holds another table or a tag of :data:`LAYOUT_CELL_TAGS` anywhere."""
    rows: list[Node] = []
    stack = [(c, False) for c in reversed(table.children)]
    while stack:
        node, in_cell = stack.pop()
        tag = node.tag
        if tag == TEXT:
            continue
        if tag == "table" or tag in LAYOUT_CELL_TAGS or (tag == "tr" and in_cell):
            return None  # (a row inside a cell: no parser builds one; a tree built by hand)
        if tag == "tr":
            rows.append(node)
        in_cell = in_cell or tag in _CELLS
        stack.extend((c, in_cell) for c in reversed(node.children))
    return rows


def table_kind(table: Node) -> str:
    """``"data"``, ``"key-value"`` or ``"layout"`` for a ``<table>`` (see the module
    docstring). Layout when: ``role`` is presentation/none; it holds another table or a tag
    of :data:`LAYOUT_CELL_TAGS`; no row has two cells; one row without ``<th>``; at least
    :data:`LAYOUT_EMPTY_CELL_SHARE` of its cells are empty; its rows have no common shape
    (:data:`LAYOUT_ROW_SHAPE_SHARE`); or, unless it is a key/value table, a cell holds more
    than :data:`LAYOUT_CELL_MAX_CHARS` characters or :data:`LAYOUT_CELL_MAX_BREAKS` line
    breaks. Key/value: at least two rows of two cells, each row two cells (or one spanning
    group title), the first at most :data:`KEY_MAX_CHARS` characters on one line. Linear in
    the table's size."""
    roles = table.attrs.get("role", "").lower().split()
    if roles and roles[0] in PRESENTATION_ROLES:  # (WAI-ARIA: the first token is the role)
        return "layout"
    rows = _rows(table)
    if rows is None:
        return "layout"
    has_th = False
    widest = 0
    cells = empty = 0
    long_cell = broken = False
    shapes: Counter[int] = Counter()
    pairs = 0
    key_value = True
    for row in rows:
        own = [c for c in row.children if c.tag in _CELLS]
        widest = max(widest, len(own))
        filled = 0
        for k, cell in enumerate(own):
            has_th = has_th or cell.tag == "th"
            chars, breaks, media, _block = _cell_stats(cell)
            cells += 1
            if chars == 0 and not media:
                empty += 1
            else:
                filled += 1
            long_cell = long_cell or chars > LAYOUT_CELL_MAX_CHARS
            broken = broken or breaks > LAYOUT_CELL_MAX_BREAKS
            if k == 0 and len(own) == 2 and (chars > KEY_MAX_CHARS or breaks or chars == 0):
                key_value = False
        if len(own) == 2:
            pairs += 1
        elif len(own) > 2:
            key_value = False
        if filled:
            shapes[filled] += 1
    if widest < 2 or (len(rows) < 2 and not has_th):
        return "layout"
    if cells >= 6 and empty >= LAYOUT_EMPTY_CELL_SHARE * cells:
        return "layout"
    if sum(shapes.values()) >= LAYOUT_ROW_SHAPE_MIN_ROWS and max(shapes.values()) <= LAYOUT_ROW_SHAPE_SHARE * sum(shapes.values()):
        return "layout"
    if key_value and pairs >= 2:
        return "key-value"
    if long_cell or broken:
        return "layout"
    return "data"


def kind_of(table: Node) -> str:
    """The kind :func:`annotate_tables` recorded on ``table``, else :func:`table_kind` now."""
    return table.attrs.get(TABLE_KIND_ATTR) or table_kind(table)


def is_data_table(table: Node) -> bool:
    """Whether ``table`` is a data table (:func:`kind_of` is not ``"layout"``)."""
    return kind_of(table) != "layout"


def annotate_tables(root: Node) -> int:
    """Record :func:`table_kind` on every ``<table>`` under ``root`` (attribute
    :data:`TABLE_KIND_ATTR`), so that later stages read the kind of the table as the page
    has it, not of what a selection left of it. Returns the number of tables."""
    n = 0
    for node in root.iter_elements():
        if node.tag == "table":
            node.attrs[TABLE_KIND_ATTR] = table_kind(node)
            n += 1
    return n


def inline_rows(table: Node) -> set[int]:
    """``id()`` of the rows of a layout table that read as one line: every cell holds inline
    content only (no block element, no ``<br>``) and the row at most
    :data:`INLINE_ROW_MAX_CHARS` characters ("1. | ▲ | Title (site)" of a listing)."""
    out: set[int] = set()
    for row in _own_rows(table):
        total = 0
        ok = True
        for cell in row.children:
            if cell.tag == TEXT:
                continue
            if cell.tag not in _CELLS:
                ok = False
                break
            chars, breaks, _media, block = _cell_stats(cell, INLINE_ROW_MAX_CHARS - total)
            total += chars
            if block or breaks or total > INLINE_ROW_MAX_CHARS:
                ok = False
                break
        if ok:
            out.add(id(row))
    return out


def _own_rows(table: Node) -> list[Node]:
    """The rows of ``table`` itself (not of the tables inside it)."""
    rows: list[Node] = []
    stack = list(reversed(table.children))
    while stack:
        node = stack.pop()
        if node.tag == "tr":
            rows.append(node)
        elif node.tag in ("tbody", "thead", "tfoot"):
            stack.extend(reversed(node.children))
    return rows
