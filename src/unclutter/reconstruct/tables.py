"""GFM pipe tables: telling data tables from layout tables, and laying out the grid.

A GFM table (https://github.github.com/gfm/#tables-extension-) is a header row, a delimiter
row ``| --- |`` and body rows; every row is one line, cells hold inline content only, a
literal ``|`` inside a cell is written ``\\|``. HTML tables that cannot be written that way
without losing their content (an article laid out in cells, nested tables, headings or code
in cells) or that are not tabular at all (one column, one row without headers) are *layout*
tables (:func:`unclutter.core.tables.table_kind`): :mod:`unclutter.reconstruct.markdown`
writes their cells as ordinary blocks, a row of short inline cells as one line. A data
table wider than :data:`~unclutter.reconstruct.rules.MAX_TABLE_COLUMNS` or larger than
:data:`~unclutter.reconstruct.rules.MAX_TABLE_CELLS` is written as list items, a row each
(:func:`linear_rows`), so a table's Markdown never outgrows the cells the page holds.
"""

from __future__ import annotations

from ..core.tables import inline_rows, is_data_table, table_kind
from .escaping import escape_line_start
from .rules import (
    LINEAR_CELL_SEPARATOR,
    MAX_COLSPAN,
    MAX_ROWSPAN,
    MAX_TABLE_CELLS,
    MAX_TABLE_COLUMNS,
)

__all__ = ["is_data_table", "table_kind", "inline_rows", "span", "Cell", "layout_grid", "pipe_table_lines", "linear_rows"]

#: One cell as collected: (Markdown text already escaped for a cell, colspan, rowspan).
Cell = tuple[str, int, int]


def span(value: str, limit: int) -> int:
    """Parse a ``colspan``/``rowspan`` value: a non-negative integer clamped to ``limit``
    (HTML "rules for parsing non-negative integers"); invalid or ``0`` gives 1. A value with
    more digits than ``limit`` is ``limit`` without being converted (Python refuses to convert
    more than 4,300 digits, and an attribute may hold 8,192)."""
    value = value.strip()
    digits = 0
    while digits < len(value) and value[digits].isdigit() and value[digits].isascii():
        digits += 1
    number = value[:digits].lstrip("0")
    if not number:
        return 1
    if len(number) > len(str(limit)):
        return limit
    n = int(number)
    return n if n <= limit else limit


def layout_grid(rows: list[list[Cell]]) -> list[list[str]] | None:
    """Place cells on a grid: a ``colspan`` cell is followed by empty cells, a ``rowspan``
    cell leaves an empty cell in the rows below; rows are padded to equal width.

    A span reaching past column :data:`~unclutter.reconstruct.rules.MAX_TABLE_COLUMNS` (such
    as ``colspan=100`` written to mean "the whole row") is cut there, and the table then ends
    at the last column where a cell starts: the columns after it would hold empty cells only.
    A rowspan covers only rows the table has.

    Args:
        rows: rows in display order, each a list of cells.
    Returns:
        A rectangular list of rows of cell strings, or ``None`` when the table is too large
        for a pipe table: a cell would start at or past column ``MAX_TABLE_COLUMNS``, or the
        grid would hold more than :data:`~unclutter.reconstruct.rules.MAX_TABLE_CELLS`
        cells (write it with :func:`linear_rows`). Time and memory are linear in the number
        of cells plus the number of rows times ``MAX_TABLE_COLUMNS``, whatever the spans.
    """
    limit = MAX_TABLE_COLUMNS
    grid: list[list[str]] = []
    width = 0
    cut = False  # a span was cut at the limit
    last_start = 0  # the last column where a cell starts
    carry: dict[int, int] = {}  # column -> rows still covered by a rowspan from above
    for row in rows:
        out: list[str] = []
        col = 0
        for text, colspan, rowspan in row:
            while carry.get(col, 0) > 0:
                carry[col] -= 1
                out.append("")
                col += 1
            if col >= limit:
                return None
            if col > last_start:
                last_start = col
            colspan = min(max(colspan, 1), MAX_COLSPAN)
            if colspan > limit - col:
                colspan = limit - col
                cut = True
            rowspan = min(max(rowspan, 1), MAX_ROWSPAN)
            for k in range(colspan):
                out.append(text if k == 0 else "")
                if rowspan > 1:
                    carry[col] = rowspan - 1
                col += 1
        if carry:  # (only columns under the limit carry: the loop stops there)
            last = max((c for c, left in carry.items() if left > 0), default=-1)
            while col <= last:
                if carry.get(col, 0) > 0:
                    carry[col] -= 1
                out.append("")
                col += 1
            carry = {c: left for c, left in carry.items() if left > 0}
        grid.append(out)
        if len(out) > width:
            width = len(out)
        if width * len(grid) > MAX_TABLE_CELLS:
            return None
    if cut:
        width = last_start + 1
    for r in grid:
        if len(r) < width:
            r.extend([""] * (width - len(r)))
        elif len(r) > width:
            del r[width:]
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


def linear_rows(rows: list[list[Cell]], mark: str) -> list[str]:
    """A table too large for a pipe table (:func:`layout_grid` gave ``None``) as list items,
    one a row in display order (the header row first): the row's non-empty cells joined by
    :data:`~unclutter.reconstruct.rules.LINEAR_CELL_SEPARATOR`, spans ignored. Rows without
    text are dropped; ``mark`` is the bullet (``-`` or ``*``).

    Chosen over cutting the table at the limit: every cell's text stays, in reading order,
    and the output grows with the cells the page has, not with the grid their spans
    describe; a grid that wide or that large is not read as a table in any Markdown view.
    """
    lines: list[str] = []
    for row in rows:
        texts = [text for text, _, _ in row if text]
        if texts:
            lines.append(f"{mark} {escape_line_start(LINEAR_CELL_SEPARATOR.join(texts))}")
    return lines
