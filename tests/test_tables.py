"""Data tables and layout tables (``unclutter.core.tables``), data tables kept or dropped
whole after classification (``unclutter.classify.tables``), and layout tables written as
blocks and one-line rows (``unclutter.reconstruct.markdown``)."""

from __future__ import annotations

import numpy as np
import pytest

from unclutter.classify.constants import ATOMIC_TABLE_KEEP_SHARE
from unclutter.classify.features import build_graph
from unclutter.classify.tables import atomic_tables
from unclutter.core.tables import TABLE_KIND_ATTR, inline_rows, table_kind
from unclutter.parse.html import parse_html
from unclutter.prune.clean import prune
from unclutter.reconstruct.markdown import to_markdown


def _table(html: str):
    root = parse_html(f"<html><body>{html}</body></html>").root
    return next(n for n in root.iter_elements() if n.tag == "table")


def _rows(pairs, key="th"):
    return "".join(f"<tr><{key}>{k}</{key}><td>{v}</td></tr>" for k, v in pairs)


SPECS = [("Brand", "Tallis"), ("Series", "Brightwater"), ("Model", "BW-1700"), ("Colour", "Silver")]


@pytest.mark.parametrize("html, kind", [
    (f"<table>{_rows(SPECS)}</table>", "key-value"),
    (f"<table>{_rows(SPECS, 'td')}</table>", "key-value"),
    # a long, many-line value does not make a spec sheet a layout table
    (f"<table>{_rows(SPECS + [('Features', '<br>'.join(['A long line of marketing text.'] * 30))])}</table>",
     "key-value"),
    ("<table><tr><th>City</th><th>Population</th><th>Area</th></tr>"
     "<tr><td>Lyon</td><td>522,000</td><td>48 km²</td></tr><tr><td>Nice</td><td>342,000</td><td>72 km²</td></tr>"
     "</table>", "data"),
    ("<table role='presentation'><tr><th>a</th><td>b</td></tr><tr><th>c</th><td>d</td></tr></table>", "layout"),
    ("<table><tr><td><table><tr><td>x</td><td>y</td></tr></table></td><td>z</td></tr></table>", "layout"),
    ("<table><tr><td>only one column</td></tr><tr><td>still one</td></tr></table>", "layout"),
    # a three-column table with one cell of a whole article
    ("<table><tr><td>a</td><td>b</td><td>" + "word " * 200 + "</td></tr><tr><td>c</td><td>d</td><td>e</td></tr></table>",
     "layout"),
    # an author box (lines broken by <br>) beside a message: a forum post
    ("<table><tr><td>2 April</td><td>#2</td></tr><tr><td>ana<br>Member<br>Joined 2019<br>Posts: 3</td>"
     "<td>Try citric acid.</td></tr></table>", "layout"),
    # rows alternating between two shapes, with spacer cells: a listing laid out in a table
    ("<table>" + "".join(f"<tr><td>{k}.</td><td></td><td><a href='/s{k}'>Story {k}</a></td></tr>"
                         f"<tr><td colspan=2></td><td>{k} points by someone</td></tr><tr><td></td></tr>"
                         for k in range(1, 6)) + "</table>", "layout"),
])
def test_table_kind(html, kind):
    assert table_kind(_table(html)) == kind


def test_table_kind_is_recorded_on_the_pruned_page_and_cannot_be_set_by_the_page():
    page = parse_html(f'<html><body><table table-kind="layout">{_rows(SPECS)}</table></body></html>')
    table = next(n for n in prune(page).root.iter_elements() if n.tag == "table")
    assert table.attrs[TABLE_KIND_ATTR] == "key-value"
    assert table.attrs.get("table-kind") == "layout"  # the page's own attribute is just an attribute


def test_inline_rows_are_the_rows_of_short_inline_cells():
    table = _table("<table><tr><td>1.</td><td><a href='/a'>Title</a></td></tr>"
                   "<tr><td>ana<br>Member</td><td>text</td></tr><tr><td><p>block</p></td><td>x</td></tr></table>")
    rows = [n for n in table.iter_elements() if n.tag == "tr"]
    assert inline_rows(table) == {id(rows[0])}


def _spec_sheet_graph():
    body = ("<h1>Kettle</h1><p>" + "A kettle that boils water quickly and quietly. " * 6 + "</p>"
            f"<table>{_rows(SPECS * 3)}</table>")
    return build_graph(prune(parse_html(f"<html><body>{body}</body></html>")).root)


def _table_units(g):
    i = int(np.flatnonzero(g.raw["tag"] == "table")[0])
    return (g.units > i) & (g.units < g.end[i])


def test_a_data_table_mostly_kept_is_kept_whole():
    g = _spec_sheet_graph()
    inside = _table_units(g)
    keep = np.ones(g.units.size, dtype=bool)
    names = np.flatnonzero(inside & (g.raw["tag"][g.units] == "th"))
    keep[names] = False  # the models dropped the short names
    assert atomic_tables(g, keep) == (1, 0)
    assert keep.all()


def test_a_data_table_mostly_dropped_goes_whole():
    g = _spec_sheet_graph()
    inside = np.flatnonzero(_table_units(g))
    keep = np.ones(g.units.size, dtype=bool)
    keep[inside] = False
    keep[inside[0]] = True  # one cell of 24 left by the models
    own = g.raw["OC"][g.units][inside]
    assert own[0] < ATOMIC_TABLE_KEEP_SHARE * own.sum()
    assert atomic_tables(g, keep) == (0, 1)
    assert not keep[inside].any()
    assert keep[: inside[0]].all()  # the rest of the page is untouched


def test_a_layout_table_is_left_to_the_models():
    body = ("<table><tr><td>ana<br>Member<br>Joined 2019<br>Posts 3</td><td>" + "Message text. " * 20
            + "</td></tr><tr><td>x</td><td>y</td></tr></table>")
    g = build_graph(prune(parse_html(f"<html><body>{body}</body></html>")).root)
    keep = np.ones(g.units.size, dtype=bool)
    keep[0] = False
    assert atomic_tables(g, keep) == (0, 0)
    assert not keep[0]


def test_layout_rows_become_lines_and_layout_cells_blocks():
    page = parse_html("<html><body><table>"
                      + "".join(f"<tr><td>{k}.</td><td></td><td><a href='https://e.org/{k}'>Story {k}</a></td></tr>"
                                f"<tr><td colspan=2></td><td>{k} points</td></tr><tr><td></td></tr>"
                                for k in range(1, 5))
                      + "</table></body></html>")
    md = to_markdown(prune(page).root, None)
    assert "| --- |" not in md
    assert "1\\. [Story 1](https://e.org/1)" in md
    assert "\n\n1 points\n\n" in md


def test_role_lists_and_hand_built_rows_in_cells():
    assert table_kind(_table(f"<table role='NONE presentation'>{_rows(SPECS)}</table>")) == "layout"
    assert table_kind(_table(f"<table role='grid presentation'>{_rows(SPECS)}</table>")) == "key-value"
    from unclutter.core.dom import TEXT, Node

    table = Node("table")
    cur = table
    for _ in range(5000):  # a row inside a cell, 5000 deep: no parser builds it; linear all the same
        tr = cur.append(Node("tr"))
        tr.append(Node("td")).append(Node(TEXT, None, "k"))
        cur = tr.append(Node("td"))
    assert table_kind(table) == "layout"
