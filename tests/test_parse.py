"""The parse step (``unclutter.parse``: ``html``, ``depth``, ``guards``, ``skip``): the tree and
base URL, the depth, attribute and element guards, React streamed segments, and which page
hiding rules are read."""

from __future__ import annotations

import pytest

from unclutter.core.errors import InputTooDeepError
from unclutter.parse.depth import estimate_depth
from unclutter.parse.html import parse_html
from unclutter.prune.clean import parse_for_pruning, prune


def test_parse_builds_tree_and_base_url():
    page = parse_html(
        '<html><head><base href="/docs/"></head><body><p class="a">x<!-- c -->y</p>'
        "<template><p>t</p></template></body></html>",
        "https://example.org/start/page.html",
    )
    assert page.base_url == "https://example.org/docs/"
    p = page.body.children[0]
    assert p.tag == "p" and p.attrs == {"class": "a"} and p.text_content() == "xy"
    assert "t" not in page.body.text_content()  # template contents are not in the tree


def test_parse_deep_trees_without_recursion():
    html = "<p>shallow</p>" + "<div>" * 1000 + "<p>deep</p>" + "</div>" * 1000 + "<p>closing</p>"
    page = parse_html(html)
    assert page.body.text_content() == "shallowdeepclosing"
    assert estimate_depth(html) >= 1000
    with pytest.raises(InputTooDeepError):
        parse_html("<div>" * 100_000)


def test_depth_guard_simulates_the_tree_builder():
    from unclutter.parse.depth import simulated_depth

    # sloppy markup that parses shallow is not refused...
    para = "<p>text, with words, commas, and <a href='/x'>an unclosed link</p>"
    assert simulated_depth(para * 10) == 2
    assert simulated_depth("<p><font color=red>old markup</p>" * 10) == 2
    assert simulated_depth("<a href=x>t" * 10) == 1  # a new <a> ends the open one
    assert simulated_depth("<ul><li>a<li>b<li>c</ul>") == 2
    assert simulated_depth("<table><tr><td>a<td>b<tr><td>c</table>") == 3
    assert simulated_depth("<svg>" + "<g/>" * 10 + "</svg>") == 1  # /> closes in foreign content
    assert simulated_depth("<script>" + "<div>" * 10 + "</script>") == 1  # raw text: no tags
    for html in (para * 6000, "<p><font color=red>old markup, words</p>" * 6000):
        assert len(parse_html(html).body.children) == 6000
    # ...while real nesting, including <div/> (the slash is ignored on HTML elements), is
    assert simulated_depth("<div/>" * 10) == 10
    assert simulated_depth("<ul><li>" * 5) == 10
    with pytest.raises(InputTooDeepError):
        parse_html("<div/>x" * 20_000)
    with pytest.raises(InputTooDeepError):
        parse_html("<b>" * 20_000)


def test_stray_end_tags_do_not_hide_nesting():
    # the parser ignores an end tag that closes nothing, so this nests 40,000 deep (and
    # lexbor's time grows with the cube of it); the guard must see that before parsing
    hostile = "<div></span>" * 40_000
    assert estimate_depth(hostile) == 40_000
    with pytest.raises(InputTooDeepError):
        parse_html(hostile)
    # an end tag that closes an open element still counts
    assert estimate_depth("<div><section></div></section>" * 3) == 2


def test_attribute_count_guard():
    from unclutter.core.errors import InputTooComplexError
    from unclutter.parse.guards import crowded_tag_attribute_count

    crowded = "<p " + " ".join(f"a{i}" for i in range(30_000)) + ">text</p>"
    assert crowded_tag_attribute_count(crowded) == 30_000
    with pytest.raises(InputTooComplexError):
        parse_html(crowded)
    # a long value, many attributes under the limit, and tag-like text in a script or a
    # comment are fine
    assert crowded_tag_attribute_count("<p title='" + "x " * 100_000 + "'>t</p>") == 0
    assert crowded_tag_attribute_count("<p " + " ".join(f"a{i}" for i in range(2000)) + ">t</p>") == 0
    assert crowded_tag_attribute_count("<script>if (a <b) {" + "x y " * 30_000 + "}</script>") == 0
    assert crowded_tag_attribute_count("<!-- <b " + "x y " * 30_000 + "-->") == 0
    assert crowded_tag_attribute_count("<p " + " ".join(f"a{i}" for i in range(30_000)), limit=40_000) == 0


def test_element_count_guard():
    from unclutter.core.errors import InputTooComplexError
    from unclutter.core.limits import MAX_ELEMENTS
    from unclutter.parse.guards import start_tag_count

    assert start_tag_count("<p>a <b>b</b> a<b 1 < 2 <!-- c --></p>") == 3
    # a 2 MB page of half a million paragraphs and more: refused before parsing, with the count
    with pytest.raises(InputTooComplexError, match=r"about 500001 elements \(limit 500000\)"):
        parse_html("<p>a" * (MAX_ELEMENTS + 1))
    # many '<' that open no element are no elements
    page = parse_html("<p>" + "1 < 2 " * (MAX_ELEMENTS + 10) + "</p>")
    assert page.body.children[0].tag == "p"


def test_parse_caps_huge_attributes():
    page = parse_html('<p title="' + "x" * 3_000_000 + '">text</p>')
    assert page.body.children[0].attrs["title"] == ""


def test_react_streamed_segments_are_moved_into_their_boundaries():
    page = ('<html><body><h1>T</h1><!--$?--><template id="B:0"></template><p>Loading...</p><!--/$-->'
            '<div hidden id="S:0"><p>Streamed paragraph of the article.</p></div>{script}</body></html>')
    revealed = parse_html(page.format(script='<script>$RC("B:0","S:0")</script>'))
    tags = [(c.tag, c.text_content()) for c in revealed.body.children if c.tag != "script"]
    assert tags == [("h1", "T"), ("p", "Streamed paragraph of the article.")]  # in place, fallback gone
    # a saved copy without the runtime script (nor comments): React numbers a boundary and
    # its segment alike, so the segment still goes to B:0 and the short fallback goes
    stripped = page.replace("<!--$?-->", "").replace("<!--/$-->", "").format(script="")
    tags = [(c.tag, c.text_content()) for c in parse_html(stripped).body.children]
    assert tags == [("h1", "T"), ("p", "Streamed paragraph of the article.")]
    # $RS fills a placeholder (here one inside a segment) with another segment
    nested = ('<html><body><template id="B:1"></template><p>Loading...</p>'
              '<div hidden id="S:1"><h2>Part</h2><template id="P:2"></template></div>'
              '<div hidden id="S:2"><p>Nested paragraph.</p></div>'
              '<script>$RS("S:2","P:2")</script><script>$RC("B:1","S:1")</script></body></html>')
    tags = [(c.tag, c.text_content()) for c in parse_html(nested).body.children if c.tag != "script"]
    assert tags == [("h2", "Part"), ("p", "Nested paragraph.")]
    # a hidden "segment" with no boundary or placeholder of its number stays hidden
    lone = parse_html('<html><body><p>Visible.</p><div hidden id="S:7"><p>Planted text.</p></div>'
                      '<template id="B:3"></template></body></html>')
    assert "Planted text" not in prune(lone).root.text_content()


def test_many_streamed_segments_are_all_moved():
    # a page of thousands of boundaries (the lookups are by id, once: linear in the page)
    n = 3000
    page = ("<html><body>" + "".join(f'<template id="B:{i:x}"></template><p>Loading...</p>' for i in range(n))
            + "".join(f'<div hidden id="S:{i:x}"><p>Segment {i}.</p></div>' for i in range(n)) + "</body></html>")
    texts = [c.text_content() for c in parse_html(page).body.children]
    assert texts == [f"Segment {i}." for i in range(n)]


def test_page_hiding_rules_only_run_when_their_classes_and_ids_occur():
    from unclutter.parse.skip import applicable_selectors as _applicable, _required_tokens
    from unclutter.prune.clean import parse_for_pruning

    assert _required_tokens(".a .b:not(.c) > p#X") == (".a", ".b", "#x")
    assert _required_tokens("div[data-x] .y:is(.z)") == (".y",)
    assert _required_tokens('.a[title="x.y"]') is None and _required_tokens("a\\:b") == ()
    assert _required_tokens(".x\\:y #I\\31 d") == (".x:y", "#i1d")  # escapes resolved
    assert _applicable([".a .b", ".a .missing", "#x", "#gone", "p", "[hidden]"], {"a", "b"}, {"x"}) == [
        ".a .b", "#x", "p", "[hidden]"]
    # end to end: a complex rule still hides; class names compare case-insensitively
    # (quirks mode, no doctype, matches classes regardless of case)
    page = parse_for_pruning(
        "<style>.Wrap .note{display:none} .absent .x{display:none}</style>"
        "<div class=wrap><p class=note>HIDDEN-NOTE</p><p class=x>Visible text here.</p></div>")
    text = page.body.text_content()
    assert "HIDDEN-NOTE" not in text and "Visible text here." in text
    assert [s.text for s in page.skipped if s.tag == "p"] == ["HIDDEN-NOTE"]


@pytest.mark.parametrize("between", ["", "<!--<noscript>-->", "<script>'<noscript>'</script>", '<p title="<noscript>">',
                                     "<svg><noscript>", "<noscript\x0b>"])
def test_the_parser_limits_hold_for_the_reading_with_scripting_on(between):
    """A ``<textarea>`` opened inside a ``<noscript>`` hides the rest of the page from a
    reading with scripting off, not from the tree builder with scripting on (the page's own
    view): the limits are checked for both readings, whatever ``<noscript`` strings precede."""
    from unclutter.core.errors import InputTooComplexError, InputTooDeepError
    from unclutter.parse.html import parse_html

    prefix = "<body><noscript><textarea></noscript>" + between
    with pytest.raises(InputTooDeepError):
        parse_html(prefix + "<div>" * 80_000)
    with pytest.raises(InputTooComplexError):
        parse_html(prefix + "<div " + " ".join(f"a{i}=1" for i in range(40_000)) + ">x</div>")
