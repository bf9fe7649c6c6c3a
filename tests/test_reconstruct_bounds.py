"""Reconstruct stage: the Markdown stays within a fixed multiple of the HTML it comes from.

Hostile pages (spans that claim millions of table cells, thousands of nested containers,
inline marks or links written again around every paragraph, long URLs repeated) against
the bound ``to_markdown`` documents: at most ``rules.MARKDOWN_MAX_GROWTH`` characters of
Markdown per character of HTML, plus ``rules.URL_ALLOWANCE_CHARS``. Sizes are characters.
"""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from unclutter import extract
from unclutter.parse.html import parse_html
from unclutter.reconstruct.markdown import markdown_to_text, to_markdown
from unclutter.reconstruct.rules import (
    LINEAR_CELL_SEPARATOR,
    MARKDOWN_MAX_GROWTH,
    MAX_CONTAINER_INDENT,
    MAX_INLINE_MARK_DEPTH,
    MAX_TABLE_CELLS,
    MAX_TABLE_COLUMNS,
    URL_ALLOWANCE_CHARS,
    URL_ALLOWANCE_PER_TEXT_CHAR,
)
from unclutter.reconstruct.tables import layout_grid, span

URL = "https://example.org/articles/page.html"
GFM = MarkdownIt("commonmark").enable("table").enable("strikethrough")
LEAD = "<h1>T</h1><p>" + "Some words, more words. " * 20 + "</p>"
LONG = "x" * 8000  # an attribute value near the parse stage's MAX_ATTRIBUTE_CHARS


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}</head><body><article>{LEAD}{body}</article></body></html>"


def md_of(html: str) -> str:
    parsed = parse_html(html, URL)
    return to_markdown(parsed.body, parsed.base_url)


def assert_bounded(html: str, md: str) -> None:
    assert len(md) <= MARKDOWN_MAX_GROWTH * len(html) + URL_ALLOWANCE_CHARS, (len(md), len(html))


def colspan_page(rows: int) -> str:
    return page("<table><tr>" + "<th colspan=1000>h</th>" * 1000 + "</tr>"
                + "<tr><td>a</td><td>b</td></tr>" * rows + "</table>")


# --- tables -----------------------------------------------------------------------------


@pytest.mark.parametrize("rows", [40, 2000])
def test_colspan_header_page_is_bounded_and_keeps_every_cell(rows):
    # a thousand header cells each spanning a thousand columns: a grid of a million columns
    html = colspan_page(rows)
    md = extract(html).markdown
    assert_bounded(html, md)
    assert len(md) < len(html)  # each cell written once: no padding at all
    lines = md.splitlines()
    assert lines.count("- a" + LINEAR_CELL_SEPARATOR + "b") == rows
    header = next(line for line in lines if line.startswith("- h"))
    assert header.count("h") == 1000
    assert "Some words, more words." in md


def test_table_over_the_column_cap_becomes_list_items_in_order():
    html = ("<table><tr>" + "".join(f"<th>h{i}</th>" for i in range(MAX_TABLE_COLUMNS + 1)) + "</tr>"
            "<tr><td># not a heading</td><td>x|y</td></tr><tr><td>1. not a list</td><td></td></tr>"
            "<tr><td></td></tr></table>")
    md = md_of(html)
    items = [t for t in GFM.parse(md) if t.type == "list_item_open"]
    assert len(items) == 3  # the header and two rows; the empty row is dropped
    assert "|" not in md.replace("\\|", "")  # no pipe table
    text = markdown_to_text(md)
    assert text.splitlines()[1:] == ["# not a heading" + LINEAR_CELL_SEPARATOR + "x|y", "1. not a list"]
    assert [t.type for t in GFM.parse(md)].count("heading_open") == 0
    # one column fewer is still a pipe table
    html = "<table><tr>" + "<th>h</th>" * MAX_TABLE_COLUMNS + "</tr><tr><td>a</td><td>b</td></tr></table>"
    assert md_of(html).splitlines()[1] == "| " + " | ".join(["---"] * MAX_TABLE_COLUMNS) + " |"


def test_list_of_rows_after_a_list_stays_a_separate_list():
    wide = "<table><tr>" + "<th>h</th>" * (MAX_TABLE_COLUMNS + 1) + "</tr></table>"
    md = md_of("<ul><li>one</li></ul>" + wide)
    assert md.startswith("- one\n\n* h")
    lists = [t for t in GFM.parse(md) if t.type == "bullet_list_open"]
    assert len(lists) == 2


def test_span_meant_as_whole_row_is_cut_to_the_columns_cells_start_in():
    md = md_of("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr>"
               "<tr><td colspan=100>note</td></tr></table>")
    assert md == "| A | B |\n| --- | --- |\n| 1 | 2 |\n| note |  |\n"
    md = md_of("<table><tr><th colspan=99>Title</th></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>")
    assert md == "| Title |  |  |\n| --- | --- | --- |\n| 1 | 2 | 3 |\n"


def test_ordinary_spans_render_as_before():
    html = ("<table><tr><th colspan=2>Group</th><th rowspan=3>Side</th></tr>"
            "<tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr>"
            "<tr><td colspan=3>wide</td></tr></table>")
    assert md_of(html) == (
        "| Group |  | Side |\n| --- | --- | --- |\n| a | b |  |\n| 1 | 2 |  |\n| wide |  |  |\n"
    )


@pytest.mark.parametrize(
    "rows",
    [
        # a million-column header whose cells also reach down every row
        [[("h", 1000, 65534)] * 1000] + [[("a", 1, 1), ("b", 1, 1)]] * 2000,
        # rowspans carried down thousands of rows
        [[("h", 1, 65534)] * (MAX_TABLE_COLUMNS - 1) + [("h", 1, 1)]] + [[("a", 1, 1)]] * 3000,
        # one cell spanning every column and row, then narrow rows
        [[("h", 1000, 65534), ("x", 1, 1)]] + [[("a", 1, 1), ("b", 1, 1)]] * 3000,
        # just under the cell cap
        [[("h", MAX_TABLE_COLUMNS, 1)]] + [[("a", 1, 1)]] * (MAX_TABLE_CELLS // MAX_TABLE_COLUMNS - 1),
        # spans cut at the column cap in every row
        [[("h", 1000, 1)]] + [[("a", 1000, 2)]] * 3000,
    ],
)
def test_layout_grid_stays_within_the_caps(rows):
    grid = layout_grid(rows)
    if grid is not None:
        width = len(grid[0])
        assert width <= MAX_TABLE_COLUMNS
        assert all(len(r) == width for r in grid)
        assert width * len(grid) <= MAX_TABLE_CELLS
        assert len(grid) == len(rows)


def test_layout_grid_refuses_only_what_it_cannot_lay_out():
    assert layout_grid([[("h", 1, 1)] * (MAX_TABLE_COLUMNS + 1)]) is None
    assert layout_grid([[("h", 1000, 1), ("x", 1, 1)]]) is None
    assert layout_grid([[("h", 1, 1)] * 2] * (MAX_TABLE_CELLS // 2 + 1)) is None
    assert layout_grid([[("h", 1, 1)] * 2] * (MAX_TABLE_CELLS // 2)) is not None


@pytest.mark.parametrize(
    "body",
    [
        # many tables, each under the caps and as wide as allowed
        "<table><tr><th colspan=63>h<th>h<tr><td>a</table>" * 2000,
        # the widest table padding thousands of one-cell rows
        "<table><tr><th colspan=63>h<th>h" + "<tr><td>a" * 1500 + "</table>",
        # rowspans over every row of a table as wide as allowed
        "<table><tr><th rowspan=65534 colspan=63>h<th>h" + "<tr><td>a<td>b" * 3000 + "</table>",
        # inside the deepest block quote, every cell in every inline mark and a link
        "<blockquote>" * 20 + "<b><i><s><q><q><q><a href=/x><table><tr><th colspan=63>h<th>h"
        + "<tr><td>a" * 1500 + "</table>",
    ],
)
def test_tables_under_the_caps_are_bounded(body):
    html = page(body)
    md = md_of(html)
    assert_bounded(html, md)
    assert max(line.count("|") for line in md.splitlines()) <= MAX_TABLE_COLUMNS + 1


@pytest.mark.parametrize("value", ["1" * 5000, "0" * 5000 + "2", "9" * 5000 + "px"])
def test_numbers_of_thousands_of_digits_are_read_without_error(value):
    assert span(value, 1000) == (2 if value.startswith("0") else 1000)
    html = (f"<table><tr><th colspan={value}>h</th><th rowspan={value}>x</th></tr><tr><td>a</td><td>b</td></tr></table>"
            f"<ol start={value}><li value={value}>item</li></ol><p><img src=/i.png width={value}>w</p>")
    md = md_of(html)
    assert "item" in md and "https://example.org/i.png" in md


# --- nesting ----------------------------------------------------------------------------


_PREFIX = re.compile(r"(?:>|[-*] |[0-9]{1,9}[.)] | )*")


def _line_prefix(line: str) -> int:
    """Characters of container markers and indentation before a line's content."""
    return _PREFIX.match(line).end()


@pytest.mark.parametrize(
    "body,words",
    [
        ("<blockquote>zq " * 4000, 4000),
        ("<ul><li>zq " * 2000, 2000),
        ("<ol start=999999999><li>zq " * 2000, 2000),
        ("<ol><li value=999999999>zq <blockquote>" * 1500, 1500),
        ("<ul><li>t<table><tr><th>zq<th>b<tr><td>1<td>2</table>" * 1500, 1500),
        ("<blockquote>" * 20 + "<pre>zq" + "\n" * 20000 + "zq</pre>", 2),
        ("<blockquote>" * 20 + "<p>zq" * 20000, 20000),
        ("<blockquote>" * 20 + "<hr>zq" * 20000, 20000),
        ("<blockquote>" * 20 + "<i><s><q><q><q><a href=/x>" + "<h6>zq" * 5000, 5000),
    ],
)
def test_deep_nesting_is_bounded_and_keeps_every_word(body, words):
    html = page(body)
    md = md_of(html)
    assert_bounded(html, md)
    assert max(_line_prefix(line) for line in md.splitlines()) <= MAX_CONTAINER_INDENT
    assert markdown_to_text(md).count("zq") == words


def test_nested_quotation_and_superscript_marks_are_capped():
    html = page("<blockquote>" * 20 + "<b><i><s>" + "<q><sup>" * 500 + "<a href=/x>" + "<p>a" * 5000)
    md = md_of(html)
    assert_bounded(html, md)
    paragraph = next(line for line in md.splitlines() if "a" in line and "<sup>" in line)
    assert paragraph.count("<sup>") + paragraph.count('"') // 2 == MAX_INLINE_MARK_DEPTH
    assert md_of("<p><sup>1<sup>2<sup>3</sup></sup></sup></p>") == "<sup>1<sup>2<sup>3</sup></sup></sup>\n"


# --- URLs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body,head",
    [
        # the parser clones an unclosed <a> into every later paragraph
        (f"<p><a href='/{LONG}'>x</p>" + "<p>y</p>" * 5000, ""),
        # one link around thousands of paragraphs
        (f"<a href='/{LONG}'>" + "<p>y" * 5000, ""),
        # thousands of relative links and images against a long <base href>
        ("".join(f"<a href={i}>y</a> " for i in range(5000)), f"<base href='https://example.org/{LONG}/'>"),
        ("".join(f"<img src={i}>" for i in range(5000)) + "<p>t", f"<base href='https://example.org/{LONG}/'>"),
    ],
)
def test_repeated_and_resolved_urls_stay_within_the_allowance(body, head):
    html = page(body, head)
    md = md_of(html)
    assert_bounded(html, md)
    text = len(markdown_to_text(md))
    addresses = sum(map(len, set(re.findall(r"(?:href|src)=['\"]?([^'\" >]+)", body))))
    # URLs within the allowance; brackets, spaces and line breaks under 8 a text character
    assert len(md) <= URL_ALLOWANCE_CHARS + addresses + (URL_ALLOWANCE_PER_TEXT_CHAR + 8) * text
    assert "](https://example.org/" in md  # the first links and images are still written


def test_links_past_the_allowance_keep_their_text():
    md = md_of(f"<a href='/{LONG}'>" + "<p>y" * 5000)
    paragraphs = md.rstrip("\n").split("\n\n")
    assert len(paragraphs) == 5000
    assert paragraphs[0].startswith("[y](https://example.org/xxx")
    assert paragraphs[-1] == "y"
