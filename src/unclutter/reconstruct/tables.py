"""GFM pipe tables: telling data tables from layout tables, and laying out the grid.

A GFM table (https://github.github.com/gfm/#tables-extension-) is a header row, a delimiter
row ``| --- |`` and body rows; every row is one line, cells hold inline content only, a
literal ``|`` inside a cell is written ``\\|``. HTML tables that cannot be written that way
without losing their content (an article laid out in cells, nested tables, headings or code
in cells) or that are not tabular at all (one column, one row without headers) are *layout*
tables: :mod:`unclutter.reconstruct.markdown` writes their cells as ordinary blocks.
"""

from __future__ import annotations

from ..core.dom import TEXT, Node
from .rules import (
    LAYOUT_CELL_MAX_CHARS,
    LAYOUT_CELL_TAGS,
    MAX_COLSPAN,
    MAX_ROWSPAN,
    PRESENTATION_ROLES,
)

__all__ = ["is_data_table", "span", "Cell", "layout_grid", "pipe_table_lines"]

#: One cell as collected: (Markdown text already escaped for a cell, colspan, rowspan).
Cell = tuple[str, int, int]


def is_data_table(table: Node) -> bool:
    """Whether ``table`` should become a GFM pipe table (``False``: write it as blocks).

    Layout when: ``role`` is presentation/none; it contains another table or any tag of
    :data:`~unclutter.reconstruct.rules.LAYOUT_CELL_TAGS`; a cell holds more than
    :data:`~unclutter.reconstruct.rules.LAYOUT_CELL_MAX_CHARS` characters of text; it has
    no row with two or more cells (a single column); or it has one row and no ``<th>``.
    The walk is iterative and stops at the first layout sign.
    """
    if table.attrs.get("role", "").strip().lower() in PRESENTATION_ROLES:
        return False
    rows = 0
    widest = 0
    has_th = False
    cell_chars: list[int] = []
    # (node, index into cell_chars of the enclosing cell or -1)
    stack: list[tuple[Node, int]] = [(c, -1) for c in reversed(table.children)]
    while stack:
        node, cell = stack.pop()
        tag = node.tag
        if tag == TEXT:
            if cell >= 0:
                total = cell_chars[cell] + len(node.text)
                if total > LAYOUT_CELL_MAX_CHARS:
                    return False
                cell_chars[cell] = total
            continue
        if tag == "table" or tag in LAYOUT_CELL_TAGS:
            return False
        if tag == "tr":
            rows += 1
            width = 0
            for c in node.children:
                if c.tag == "td" or c.tag == "th":
                    width += 1
            if width > widest:
                widest = width
        elif tag == "td" or tag == "th":
            if tag == "th":
                has_th = True
            cell_chars.append(0)
            cell = len(cell_chars) - 1
        if node.children:
            stack.extend((c, cell) for c in reversed(node.children))
    if widest < 2:
        return False
    if rows < 2 and not has_th:
        return False
    return True


def span(value: str, limit: int) -> int:
    """Parse a ``colspan``/``rowspan`` value: a non-negative integer clamped to ``limit``
    (HTML "rules for parsing non-negative integers"); invalid or ``0`` gives 1."""
    value = value.strip()
    digits = 0
    while digits < len(value) and value[digits].isdigit() and value[digits].isascii():
        digits += 1
    if not digits:
        return 1
    n = int(value[:digits])
    if n < 1:
        return 1
    return n if n <= limit else limit


def layout_grid(rows: list[list[Cell]]) -> list[list[str]]:
    """Place cells on a grid: a ``colspan`` cell is followed by empty cells, a ``rowspan``
    cell leaves an empty cell in the rows below; rows are padded to equal width.

    Args:
        rows: rows in display order, each a list of cells.
    Returns:
        A rectangular list of rows of cell strings.
    """
    grid: list[list[str]] = []
    carry: dict[int, int] = {}  # column -> rows still covered by a rowspan from above
    for row in rows:
        out: list[str] = []
        col = 0
        for text, colspan, rowspan in row:
            while carry.get(col, 0) > 0:
                carry[col] -= 1
                out.append("")
                col += 1
            colspan = min(max(colspan, 1), MAX_COLSPAN)
            rowspan = min(max(rowspan, 1), MAX_ROWSPAN)
            for k in range(colspan):
                out.append(text if k == 0 else "")
                if rowspan > 1:
                    carry[col] = rowspan - 1
                col += 1
        if carry:
            last = max((c for c, left in carry.items() if left > 0), default=-1)
            while col <= last:
                if carry.get(col, 0) > 0:
                    carry[col] -= 1
                out.append("")
                col += 1
            carry = {c: left for c, left in carry.items() if left > 0}
        grid.append(out)
    width = max((len(r) for r in grid), default=0)
    for r in grid:
        if len(r) < width:
            r.extend([""] * (width - len(r)))
    return grid


def pipe_table_lines(grid: list[list[str]]) -> list[str]:
    """GFM table lines for a rectangular ``grid`` whose first row is the header: the header,
    one delimiter row ``| --- |``, then the body rows. Empty body rows are dropped."""
    if not grid or not grid[0]:
        return []
    width = len(grid[0])
    lines = ["| " + " | ".join(grid[0]) + " |", "| " + " | ".join(["---"] * width) + " |"]
    for row in grid[1:]:
        if any(row):
            lines.append("| " + " | ".join(row) + " |")
    return lines
