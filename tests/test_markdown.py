"""Reconstruct stage: DOM subtree -> GitHub Flavored Markdown, and Markdown -> plain text.

Small hand-written pages per feature, the shared bug cases 03/08/09/11/12/17, and round
trips: the Markdown is parsed back with markdown-it-py (CommonMark + GFM tables and
strikethrough) and its token structure is compared with what the HTML had.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from unclutter.core.dom import Node, new_element, new_text
from unclutter.parse.html import parse_html
from unclutter.reconstruct.escaping import code_span, escape_text
from unclutter.reconstruct.images import largest_srcset_candidate, pick_image_url
from unclutter.reconstruct.markdown import markdown_to_text, to_markdown
from unclutter.reconstruct.rules import MAX_CONTAINER_DEPTH

REPO = Path(__file__).resolve().parent.parent
PAGES = REPO / "tests" / "pages"
URL = "https://example.org/articles/page.html"

GFM = MarkdownIt("commonmark").enable("table").enable("strikethrough")


def md_of(html: str, url: str | None = URL, **kw) -> str:
    page = parse_html(html, url)
    return to_markdown(page.body, page.base_url, **kw)


def tokens(md: str):
    return GFM.parse(md)


def token_types(md: str) -> list[str]:
    return [t.type for t in tokens(md)]


def inline_children(md: str) -> list:
    out = []
    for t in tokens(md):
        if t.type == "inline":
            out.extend(t.children or [])
    return out


def rendered_text(md: str, numbers: bool = True) -> str:
    """Words of what markdown-it reads from ``md``: text, code and link text, no images;
    with ``numbers``, ordered list items start with their number (as in our text view)."""
    parts: list[str] = []
    for t in tokens(md):
        if t.type == "inline":
            for c in t.children or []:
                if c.type in ("text", "code_inline"):
                    parts.append(c.content)
                elif c.type in ("softbreak", "hardbreak") or (c.type == "html_inline" and c.content == "<br>"):
                    parts.append(" ")  # (<br>: a table cell's line break)
        elif t.type in ("fence", "code_block"):
            parts.append(" " + t.content + " ")
        elif t.type == "list_item_open" and t.info and numbers:
            parts.append(f" {t.info}. ")  # ordered items keep their number in our text view
        else:
            parts.append(" ")
    return " ".join("".join(parts).split())


def bugcase(name: str) -> tuple[str, dict]:
    """The golden page ``tests/pages/<name>-*`` (its HTML, its spec)."""
    html_path = next(iter(sorted(PAGES.glob(f"{name}-*/source.html"))))
    spec = json.loads((html_path.parent / "spec.json").read_text(encoding="utf-8"))
    return html_path.read_text(encoding="utf-8"), spec


def lines_of(md: str) -> list[str]:
    return md.split("\n")


# --- output shape ----------------------------------------------------------------------


def test_output_ends_with_one_newline_and_no_blank_runs():
    md = md_of("<div><p>a</p>\n\n<div></div><p> </p><p>&nbsp;</p><div><div><p>b</p></div></div></div>")
    assert md == "a\n\nb\n"


def test_empty_subtree_gives_empty_string():
    assert md_of("<div>   </div>") == ""
    assert to_markdown(new_element("div")) == ""


def test_no_html_tags_or_attributes_survive():
    html = (
        '<div class="x" id="y"><p style="color:red" data-x="1">Kept <span class="s">text'
        "</span></p><script>alert(1)</script><style>p{}</style><template><p>T</p></template>"
        "<noscript><p>NS</p></noscript><svg><text>S</text></svg><math><mi>M</mi></math>"
        "<iframe src='x'></iframe><button>Btn</button><input value='v'><select><option>O"
        "</option></select><textarea>TA</textarea><p>End</p></div>"
    )
    md = md_of(html)
    # (a MathML formula is content: its text, token by token)
    assert md == "Kept text\n\nM\n\nEnd\n"
    assert "<" not in md and "=" not in md


def test_entities_decoded_and_whitespace_collapsed():
    md = md_of("<p>Fish &amp; chips\n\t  cost   &pound;5 &mdash; a&nbsp;bargain</p>")
    assert md == "Fish & chips cost £5 — a\xa0bargain\n"


# --- headings -----------------------------------------------------------------------------


def test_heading_levels_round_trip():
    html = "".join(f"<h{i}>Level {i}</h{i}><p>x</p>" for i in range(1, 7))
    md = md_of(html)
    levels = [t.tag for t in tokens(md) if t.type == "heading_open"]
    assert levels == ["h1", "h2", "h3", "h4", "h5", "h6"]
    assert "###### Level 6" in lines_of(md)


def test_only_one_h1_further_h1s_demoted():
    md = md_of("<h1>First</h1><p>a</p><h1>Second</h1><h1>Third</h1>")
    assert [t.tag for t in tokens(md) if t.type == "heading_open"] == ["h1", "h2", "h2"]


def test_title_drops_leading_equal_heading_and_demotes_h1():
    html = "<h1>The  Big   Story!</h1><p>Body text.</p><h1>Part two</h1><h2>Sub</h2>"
    md = md_of(html, title="the big story")
    assert md == "Body text.\n\n## Part two\n\n## Sub\n"


def test_title_keeps_heading_that_differs_or_comes_late():
    md = md_of("<h2>Other heading</h2><p>Body</p>", title="The title")
    assert md.startswith("## Other heading\n")
    late = md_of("<p>a</p><p>b</p><p>c</p><h2>The title</h2>", title="The title")
    assert "## The title" in late


def test_heading_content_is_one_line_and_inline_only():
    md = md_of("<h2>Line one<br>line <b>two</b> <em>now</em><div>block</div></h2>")
    assert md == "## Line one line two *now* block\n"
    assert token_types(md)[:3] == ["heading_open", "inline", "heading_close"]


def test_heading_trailing_hashes_are_kept_as_text():
    md = md_of("<h2>Learn C #</h2><h3>#</h3><h2>C#</h2>")
    heads = [t.content for t in tokens(md) if t.type == "inline"]
    assert heads == ["Learn C \\#", "\\#", "C#"]
    rendered = GFM.render(md)
    assert "<h2>Learn C #</h2>" in rendered and "<h3>#</h3>" in rendered


def test_empty_heading_dropped():
    assert md_of("<h2> <span></span> </h2><p>x</p>") == "x\n"


# --- paragraphs and line breaks -----------------------------------------------------------


def test_br_is_backslash_hard_break_and_double_br_a_paragraph():
    md = md_of("<p>one<br>two<br/>\n<br>three<br></p>")
    assert md == "one\\\ntwo\n\nthree\n"
    types = [c.type for c in inline_children(md)]
    assert types == ["text", "hardbreak", "text", "text"]


def test_bugcase_03_br_separated_lines():
    html, spec = bugcase("03")
    md = md_of(html, "https://example.org/")
    for bad in spec["without"][:2]:
        assert bad not in md
    assert "this year.\\\nSeed orders must reach" in md
    assert "plan the spring beds.\\\nWe agreed" in md
    # the double <br> is a paragraph break
    assert "end of the month.\n\nThe shed key" in md
    for s in spec["with"]:
        assert s in md
    paragraphs = [t for t in tokens(md) if t.type == "paragraph_open"]
    breaks = [c for c in inline_children(md) if c.type == "hardbreak"]
    assert len(breaks) == 4 and len(paragraphs) >= 2


def test_text_in_div_with_blocks_keeps_order():
    assert md_of("<div>loose<p>para</p>tail</div>") == "loose\n\npara\n\ntail\n"


# --- emphasis ---------------------------------------------------------------------------


def test_emphasis_strong_strikethrough():
    md = md_of("<p><strong>b</strong> <b>b2</b> <em>i</em> <i>i2</i> <del>d</del> <s>s</s></p>")
    assert md == "**b** **b2** *i* *i2* ~~d~~ ~~s~~\n"
    kinds = [c.type for c in inline_children(md) if c.type.endswith("_open")]
    assert kinds == ["strong_open", "strong_open", "em_open", "em_open", "s_open", "s_open"]


def test_emphasis_spaces_move_outside_and_empty_emphasis_vanishes():
    md = md_of("<p>Hello<b> world </b>and<i></i><em> </em>you</p>")
    assert md == "Hello **world** and you\n"


def test_nested_same_emphasis_not_doubled():
    assert md_of("<p><b>a <strong>b</strong> c</b></p>") == "**a b c**\n"


def test_emphasis_that_cannot_flank_is_dropped_not_printed():
    md = md_of("<p><strong>Note:</strong>text</p>")
    assert md == "Note:text\n"
    assert GFM.render(md) == "<p>Note:text</p>\n"


def test_emphasis_around_blocks_reopens_per_block():
    md = md_of("<b><p>one</p><p>two</p></b>")
    assert md == "**one**\n\n**two**\n"


# --- links ------------------------------------------------------------------------------


def test_links_absolute_and_unsafe_dropped():
    html = (
        '<p><a href="/abs">root</a> <a href="rel/x?y=1#z">rel</a> <a href="https://o.org/a">abs</a>'
        ' <a href="javascript:alert(1)">js</a> <a href=" JaVa\tScript:x">js2</a>'
        ' <a href="#">hash</a> <a href="#sec">frag</a> <a href="mailto:a@b.org">mail</a>'
        ' <a href="/empty"></a> <a href="/img"> <img src="/i.png" alt="I"> </a></p>'
    )
    md = md_of(html)
    assert md == (
        "[root](https://example.org/abs) [rel](https://example.org/articles/rel/x?y=1#z) "
        "[abs](https://o.org/a) js js2 hash [frag](https://example.org/articles/page.html#sec) "
        "[mail](mailto:a@b.org) [![I](https://example.org/i.png)](https://example.org/img)\n"
    )
    hrefs = [c.attrs["href"] for c in inline_children(md) if c.type == "link_open"]
    assert len(hrefs) == 6 and all(not h.lower().startswith("javascript") for h in hrefs)


def test_base_href_is_used():
    page = parse_html('<head><base href="https://cdn.example.net/sub/"></head><p><a href="x">x</a></p>', URL)
    assert to_markdown(page.body, page.base_url) == "[x](https://cdn.example.net/sub/x)\n"


def test_link_destination_with_spaces_and_parens_round_trips():
    md = md_of('<p><a href="/a b(c).html">t</a></p>')
    link = [c for c in inline_children(md) if c.type == "link_open"][0]
    assert link.attrs["href"] == "https://example.org/a%20b%28c%29.html"


def test_link_text_brackets_escaped():
    md = md_of('<p><a href="/x">see [1] ]</a></p>')
    kids = inline_children(md)
    assert [c.type for c in kids] == ["link_open", "text", "link_close"]
    assert kids[1].content == "see [1] ]"


def test_no_base_url_keeps_relative():
    page = parse_html('<p><a href="/x">x</a> <img src="i.png" alt="a"></p>')
    assert to_markdown(page.body) == "[x](/x) ![a](i.png)\n"


def test_include_links_and_images_off():
    html = '<p><a href="/x">text</a> <img src="/i.png" alt="pic"> end</p>'
    assert md_of(html, include_links=False, include_images=False) == "text end\n"


# --- images -----------------------------------------------------------------------------


def test_bugcase_08_lazy_images_and_captions():
    html, spec = bugcase("08")
    md = md_of(html, "https://example.org/")
    for frag in spec["markdown_with"]:
        assert frag in md
    assert "data:image" not in md and "data:" not in md
    assert md.count("tidepool-1200.jpg") == 1
    assert "![Shore crab under kelp](https://img.example.org/photos/crab-1600.jpg)" in md
    assert "\n\n*Rock pools on the north shore are exposed for about two hours.*\n\n" in md
    for s in spec["with"]:
        assert s in md
    images = [c for c in inline_children(md) if c.type == "image"]
    assert [i.attrs["src"] for i in images] == [
        "https://img.example.org/photos/tidepool-1200.jpg",
        "https://img.example.org/photos/crab-1600.jpg",
    ]


def test_image_sources_lazy_srcset_placeholder_pixel():
    html = (
        '<p><img src="data:image/gif;base64,R0lG" data-lazy-src="/lazy.jpg" alt="a">'
        '<img src="/blank.gif" srcset="/s-400.jpg 400w, /s-1200.jpg 1200w, /s-800.jpg 800w" alt="b">'
        '<img src="/spacer.gif" alt="c"><img src="/track.gif" width="1" height="1" alt="d">'
        '<img src="/lazy-dog.jpg" alt="e"><img data-original="/orig.png" alt="f">'
        '<picture><source data-srcset="/p1.webp 1x, /p2.webp 2x"><img src="data:," alt="g"></picture>'
        '<img src="" alt="h"></p>'
    )
    md = md_of(html)
    srcs = [c.attrs["src"] for c in inline_children(md) if c.type == "image"]
    assert srcs == [
        "https://example.org/lazy.jpg",
        "https://example.org/s-1200.jpg",
        "https://example.org/lazy-dog.jpg",
        "https://example.org/orig.png",
        "https://example.org/p2.webp",
    ]
    assert "data:" not in md


def test_srcset_parser():
    assert largest_srcset_candidate("a.jpg 1x, b.jpg 3x, c.jpg 2x") == "b.jpg"
    assert largest_srcset_candidate("a.jpg, b.jpg 2x") == "b.jpg"
    assert largest_srcset_candidate("https://x/w_800,h_600/a.jpg 800w, https://x/w_1600,h_1200/a.jpg 1600w") == (
        "https://x/w_1600,h_1200/a.jpg"
    )
    assert largest_srcset_candidate("data:image/png;base64,xx 1x") is None
    assert largest_srcset_candidate("  ,, ") is None


def test_image_emitted_once_and_noscript_ignored():
    html = (
        '<p><img src="/a.jpg" alt="A"><noscript><img src="/a.jpg" alt="A"></noscript>'
        '<img src="/a.jpg" alt="again"></p>'
    )
    assert md_of(html) == "![A](https://example.org/a.jpg)\n"


def test_figure_image_then_caption_paragraph():
    md = md_of('<figure><img src="/f.png" alt="Fig"><figcaption>The <em>caption</em></figcaption></figure>')
    assert md == "![Fig](https://example.org/f.png)\n\n*The caption*\n"
    assert token_types(md).count("paragraph_open") == 2


def test_image_alt_escaped():
    md = md_of('<p><img src="/x.png" alt="a [b] *c*"></p>')
    img = [c for c in inline_children(md) if c.type == "image"][0]
    assert "".join(c.content for c in img.children) == "a [b] *c*"
    assert img.attrs["src"] == "https://example.org/x.png"
    assert 'alt="a [b] *c*"' in GFM.render(md)


def test_pick_image_url_prefers_lazy_attribute():
    img = new_element("img", {"src": "/thumb.jpg", "data-src": "/full.jpg"})
    assert pick_image_url(img) == "/full.jpg"


# --- lists ------------------------------------------------------------------------------


def list_shape(md: str) -> list[tuple[str, int]]:
    """(list kind, nesting depth) for every list item markdown-it reads."""
    shape = []
    stack: list[str] = []
    for t in tokens(md):
        if t.type in ("bullet_list_open", "ordered_list_open"):
            stack.append("ul" if t.type == "bullet_list_open" else "ol")
        elif t.type in ("bullet_list_close", "ordered_list_close"):
            stack.pop()
        elif t.type == "list_item_open":
            shape.append((stack[-1], len(stack)))
    return shape


def html_list_shape(html: str) -> list[tuple[str, int]]:
    root = parse_html(html).body
    shape = []
    for n in root.iter_elements():
        if n.tag == "li":
            depth = sum(1 for a in n.ancestors() if a.tag in ("ul", "ol"))
            shape.append((n.parent.tag, depth))
    return shape


def test_nested_lists_round_trip_structure():
    html = (
        "<ul><li>a<ul><li>a1<ol><li>a1x</li><li>a1y<ul><li>deep</li></ul></li></ol></li>"
        "<li>a2</li></ul></li><li>b</li></ul>"
    )
    md = md_of(html)
    assert list_shape(md) == html_list_shape(html)
    assert md == (
        "- a\n  - a1\n    1. a1x\n    2. a1y\n       - deep\n  - a2\n- b\n"
    )


def test_ordered_start_reversed_value_and_marker_width():
    md = md_of('<ol start="9"><li>nine</li><li>ten<ul><li>sub</li></ul></li></ol>')
    assert md == "9. nine\n10. ten\n    - sub\n"
    opens = [t for t in tokens(md) if t.type == "ordered_list_open"]
    assert opens[0].attrs.get("start") == 9
    assert list_shape(md) == [("ol", 1), ("ol", 1), ("ul", 2)]
    assert md_of("<ol reversed><li>c</li><li>b</li><li>a</li></ol>") == "3. c\n2. b\n1. a\n"
    assert md_of('<ol><li>a</li><li value="7">g</li><li>h</li></ol>') == "1. a\n7. g\n8. h\n"


def test_bugcase_11_nested_lists():
    html, spec = bugcase("11")
    md = md_of(html, "https://example.org/")
    lines = lines_of(md)
    for frag in spec["markdown_with"]:
        assert frag in lines, frag
    start = lines.index("- Old")
    assert lines[start : start + 5] == [
        "- Old",
        "  - Small chance of one crystal shard",
        "- New",
        "  - Two crystal shards",
        "  - Medium chance of a third shard",
    ]
    # the <ul> directly inside <ul> nests under the preceding item, as in the second list
    assert list_shape(md)[:5] == [("ul", 1), ("ul", 2), ("ul", 1), ("ul", 2), ("ul", 2)]
    assert max(d for _, d in list_shape(md)) == 3


def test_list_directly_in_list_without_preceding_item():
    md = md_of("<ul><ul><li>orphan</li></ul><li>next</li></ul>")
    assert md == "- - orphan\n- next\n"
    assert list_shape(md) == [("ul", 1), ("ul", 2), ("ul", 1)]


def test_adjacent_lists_stay_separate():
    md = md_of("<ul><li>a</li></ul><ul><li>b</li></ul><ol><li>c</li></ol><ol><li>d</li></ol>")
    assert token_types(md).count("bullet_list_open") == 2
    assert token_types(md).count("ordered_list_open") == 2


def test_list_item_with_paragraphs_code_and_quote():
    html = "<ul><li><p>para one</p><p>para two</p><pre>x\n\n  y</pre><blockquote>q</blockquote></li><li>b</li></ul>"
    md = md_of(html)
    assert md == "- para one\n\n  para two\n\n  ```\n  x\n\n    y\n  ```\n\n  > q\n- b\n"
    toks = tokens(md)
    fence = [t for t in toks if t.type == "fence"][0]
    assert fence.content == "x\n\n  y\n"
    assert list_shape(md) == [("ul", 1), ("ul", 1)]


def test_empty_items_skipped():
    assert md_of("<ul><li> </li><li>x</li><li><span></span></li></ul>") == "- x\n"


def test_ordered_sublist_not_starting_at_one_gets_blank_line():
    md = md_of('<ul><li>a<ol start="3"><li>c</li></ol></li></ul>')
    assert list_shape(md) == [("ul", 1), ("ol", 2)]


# --- block quotes -----------------------------------------------------------------------


def test_nested_blockquotes_round_trip():
    md = md_of("<blockquote><p>q1</p><blockquote><p>q2</p></blockquote><p>q3</p></blockquote>")
    assert md == "> q1\n>\n> > q2\n>\n> q3\n"
    depth = 0
    deepest = 0
    for t in tokens(md):
        depth += t.nesting if t.type.startswith("blockquote") else 0
        deepest = max(deepest, depth)
    assert deepest == 2


# --- code -------------------------------------------------------------------------------


def test_pre_whitespace_byte_exact_with_highlight_spans():
    code = 'def f(x):\n\tif x:\n        return  "a  b"\n\n\n    # done \n'
    html = '<pre><code class="language-python">' + code.replace("if", '<span class="k">if</span>') + "</code></pre>"
    md = md_of(html)
    fence = [t for t in tokens(md) if t.type == "fence"][0]
    assert fence.content == code and fence.info == "python"


def test_fence_longer_than_backtick_runs_inside():
    code = "a ``` b\n````\n"
    md = md_of(f"<pre>{code}</pre>")
    assert md.startswith("`````\n")
    fence = [t for t in tokens(md) if t.type == "fence"][0]
    assert fence.content == code


def test_language_from_lang_class_and_parent():
    assert md_of('<pre class="lang-js">x</pre>').startswith("```js\n")
    # highlighter directives name no language (Discourse: lang-auto)
    for attrs in ('class="lang-auto"', 'class="language-none"', 'data-lang="nohighlight"'):
        assert md_of(f'<pre><code {attrs}>x = 1</code></pre>').startswith("```\n"), attrs
    assert md_of('<div class="highlight highlight-source-shell"><pre>ls</pre></div>').startswith("```shell\n")
    assert md_of('<pre><code class="language-c`x">x</code></pre>').startswith("```\n")


def test_bugcase_12_pre_and_code():
    html, spec = bugcase("12")
    md = md_of(html, "https://example.org/")
    lines = lines_of(md)
    for frag in spec["markdown_with"]:
        if frag.startswith("`") and not frag.startswith("```"):
            assert frag in md, frag
        else:
            assert frag in lines, frag
    assert "```python" in lines
    fences = [t for t in tokens(md) if t.type == "fence"]
    assert fences[0].content == (
        "def total_weight(items):\n    weight = 0\n\n    for item in items:\n"
        "        weight += item.mass\n    return weight\n"
    )
    assert fences[1].content == "$ ./weigh.sh --input shipment.csv\n\ttotal:   41.5 kg\n\titems:   12\n"
    assert [c.content for c in inline_children(md) if c.type == "code_inline"] == ["total_weight()"]


def test_inline_code_with_backticks():
    md = md_of("<p><code>a`b</code> <code>``x</code> <code> lead</code>.</p>")
    codes = [c.content for c in inline_children(md) if c.type == "code_inline"]
    assert codes == ["a`b", "``x", "lead"]
    assert code_span("`") == "`` ` ``"


def test_pre_with_br_and_line_divs():
    md = md_of("<pre>a<br>b</pre><pre><div>one</div><div>two</div></pre>")
    fences = [t.content for t in tokens(md) if t.type == "fence"]
    assert fences == ["a\nb\n", "one\ntwo\n"]


# --- tables -----------------------------------------------------------------------------


def table_shape(md: str) -> list[int]:
    """Cells per row of every table row markdown-it reads."""
    rows = []
    count = 0
    for t in tokens(md):
        if t.type == "tr_open":
            count = 0
        elif t.type in ("th_open", "td_open"):
            count += 1
        elif t.type == "tr_close":
            rows.append(count)
    return rows


def test_simple_table_with_thead():
    html = (
        "<table><thead><tr><th>A</th><th>B</th></tr></thead>"
        "<tbody><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></tbody></table>"
    )
    md = md_of(html)
    assert md == "| A | B |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n"
    assert table_shape(md) == [2, 2, 2]


def test_table_first_row_is_header_without_th():
    md = md_of("<table><tr><td>h1</td><td>h2</td></tr><tr><td>a</td><td>b</td></tr></table>")
    assert md == "| h1 | h2 |\n| --- | --- |\n| a | b |\n"


def test_bugcase_09_table_cells():
    html, spec = bugcase("09")
    md = md_of(html, "https://example.org/")
    for frag in spec["markdown_with"]:
        assert frag in md, frag
    assert md.count("| --- | --- | --- |") == 1
    rows = [line for line in lines_of(md) if line.startswith("|")]
    assert len(rows) == 7
    for row in rows:
        assert len(re.findall(r"(?<!\\)\|", row)) == 4, row
    assert "| Fieldmaple | 12 m | Deciduous |" in rows
    assert "| Hazel (shrub, height varies) |  | Deciduous |" in rows
    assert "Common hedgerow trees\n\n| Species |" in md
    assert table_shape(md) == [3] * 6
    for s in spec["with"]:
        assert s in md


def test_table_pipes_escaped_colspan_rowspan_and_padding():
    html = (
        "<table><tr><th>A</th><th>B</th><th>C</th></tr>"
        "<tr><td rowspan=2>r</td><td>x|y</td><td><code>a|b</code></td></tr>"
        "<tr><td colspan=2>wide</td></tr>"
        "<tr><td>short</td></tr></table>"
    )
    md = md_of(html)
    assert md == (
        "| A | B | C |\n| --- | --- | --- |\n| r | x\\|y | `a\\|b` |\n|  | wide |  |\n"
        "| short |  |  |\n"
    )
    assert table_shape(md) == [3, 3, 3, 3]
    cells = [t for t in tokens(md) if t.type == "inline"]
    assert "x|y" in [c.content.replace("\\|", "|") for c in cells]
    assert "<code>a|b</code>" in GFM.render(md)


def test_table_cell_blocks_stay_on_one_line():
    html = (
        "<table><tr><th>k</th><th>v</th></tr><tr><td>a<br>b</td>"
        "<td><p>p1</p><p>p2</p><ul><li>l1</li><li>l2</li></ul></td></tr></table>"
    )
    md = md_of(html)
    # lines, paragraphs and list items of a cell are separated by <br> (GitHub renders it),
    # which the plain text reads as a space and the reader view renders
    assert "| a<br>b | p1<br>p2<br>l1<br>l2 |" in lines_of(md)
    assert table_shape(md) == [2, 2]
    assert markdown_to_text(md).splitlines()[1] == "a b\tp1 p2 l1 l2"
    from unclutter.render.htmlview import markdown_to_html

    assert "<td>a<br>b</td>\n<td>p1<br>p2<br>l1<br>l2</td>" in markdown_to_html(md)
    # a heading keeps spaces; a cell starting or ending with a block writes no break
    assert md_of("<h2>A<br>b <p>c</p></h2>") == "## A b c\n"
    assert "| x | y |" in lines_of(md_of("<table><tr><th>k</th><th>v</th></tr><tr><td><div><p>x</p></div></td>"
                                         "<td><br>y<br></td></tr></table>"))


def test_layout_tables_become_blocks():
    single_column = "<table><tr><td><p>one</p></td></tr><tr><td>two</td></tr></table>"
    assert md_of(single_column) == "one\n\ntwo\n"
    nested = "<table><tr><td><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table></td><td>side</td></tr></table>"
    md = md_of(nested)
    assert table_shape(md) == [2, 2] and md.endswith("side\n")
    article = "<table><tr><td><h2>Story</h2><p>" + "word " * 200 + "</p></td><td>nav</td></tr></table>"
    md = md_of(article)
    assert md.startswith("## Story\n\nword word") and "|" not in md
    presentational = '<table role="presentation"><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>'
    assert "|" not in md_of(presentational)


def test_table_in_list_item_round_trips():
    md = md_of("<ul><li>t<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></li></ul>")
    assert table_shape(md) == [2, 2] and list_shape(md) == [("ul", 1)]


# --- other blocks -----------------------------------------------------------------------


def test_hr_and_definition_list():
    md = md_of("<p>a</p><hr><dl><dt>Term</dt><dd>Def</dd></dl>")
    assert md == "a\n\n---\n\n**Term**\n\nDef\n"
    assert "hr" in token_types(md)


# --- escaping ---------------------------------------------------------------------------

TRICKY_TEXTS = [
    "# not a heading",
    "#hashtag is fine",
    "> not a quote",
    "- not a list",
    "+ not a list",
    "* not a list",
    "1. not a list",
    "2) not a list",
    "2024. A year",
    "---",
    "***",
    "___",
    "===",
    "| a | b |",
    "```not code```",
    "~~~",
    "a *b* c _d_ e",
    "2 * 3 = 6",
    "snake_case_name and __dunder__",
    "[link](https://x.org) and [1] and ![img](y)",
    "[ref]: https://x.org",
    "<b>not html</b> & &amp; &#65; <!-- c -->",
    "back\\slash\\ and \\*",
    "~~not struck~~ and ~one~",
    "wow!",
    "a`b``c",
    "under_ end_ _start",
]


@pytest.mark.parametrize("text", TRICKY_TEXTS)
def test_literal_text_round_trips_as_one_paragraph(text):
    p = new_element("p")
    p.append(new_text(text))
    md = to_markdown(p)
    assert token_types(md) == ["paragraph_open", "inline", "paragraph_close"], md
    kids = inline_children(md)
    assert all(c.type == "text" for c in kids), (md, [c.type for c in kids])
    assert "".join(c.content for c in kids) == text


@pytest.mark.parametrize("text", TRICKY_TEXTS)
def test_literal_text_in_table_cell_and_link_round_trips(text):
    html = "<table><tr><th>h</th><th>h2</th></tr><tr><td>{0}</td><td><a href='/x'>{0}</a></td></tr></table>"
    page = parse_html(html.format(""), URL)
    cells = [n for n in page.body.iter_elements() if n.tag == "td"]
    cells[0].append(new_text(text))
    cells[1].children[0].append(new_text(text))
    md = to_markdown(page.body, URL)
    assert table_shape(md) == [2, 2], md
    inl = [t for t in tokens(md) if t.type == "inline"]
    assert "".join(c.content for c in inl[2].children) == text
    link_text = [c for c in inl[3].children if c.type == "text"]
    assert "".join(c.content for c in link_text) == text


def test_ordinary_punctuation_not_escaped():
    text = "Hello, world! (Really?) It costs $5.50 - or 50% off; see e.g. a_b, C# & 3 > 2 = true. Mr. #1"
    assert md_of(f"<p>{text.replace('&', '&amp;').replace('>', '&gt;')}</p>") == text + "\n"


def test_escape_text_line_start_rules():
    assert escape_text("1. a", line_start=True) == "1\\. a"
    assert escape_text("1.5 kg", line_start=True) == "1.5 kg"
    assert escape_text("-5 degrees", line_start=True) == "-5 degrees"
    assert escape_text("- x", line_start=True) == "\\- x"
    assert escape_text("#tag", line_start=True) == "#tag"
    assert escape_text("a_b", "", "") == "a_b"
    assert escape_text("end!", "", "[") == "end\\!"


def test_text_starting_a_line_after_hard_break_is_escaped():
    md = md_of("<p>first<br>- second<br># third<br>1. fourth</p>")
    assert token_types(md) == ["paragraph_open", "inline", "paragraph_close"]
    text = "".join(c.content if c.type == "text" else "\n" for c in inline_children(md))
    assert text == "first\n- second\n# third\n1. fourth"


# --- deep and large trees ---------------------------------------------------------------


def test_bugcase_17_deep_nesting():
    html, spec = bugcase("17")
    md = md_of(html, "https://example.org/")
    for s in spec["with"]:
        assert s in md
    assert "Deep paragraph" in md


def _chain(tags: list[str], depth: int, leaf: str) -> Node:
    root = new_element("div")
    node = root
    for i in range(depth):
        child = new_element(tags[i % len(tags)], {"href": "/x"} if tags[i % len(tags)] == "a" else None)
        node.append(child)
        node = child
    node.append(new_text(leaf))
    return root


@pytest.mark.parametrize(
    "tags",
    [["div"], ["blockquote"], ["ul", "li"], ["ol", "li", "p"], ["em", "strong", "a", "span"],
     ["table", "tr", "td"], ["h2", "div"], ["dl", "dt", "dd"], ["figure", "figcaption"], ["q"]],
)
def test_hundred_thousand_levels_without_recursion(tags):
    root = _chain(tags, 100_000, "bottom text")
    t0 = time.perf_counter()
    md = to_markdown(root, URL)
    assert time.perf_counter() - t0 < 5
    assert "bottom text" in md
    assert md.endswith("\n")
    # container nesting is capped, so line prefixes stay short
    assert max(len(line) for line in md.split("\n")) < 100 + 4 * MAX_CONTAINER_DEPTH + 200_000 * (tags == ["q"])


def test_container_depth_cap_keeps_markdown_parseable():
    root = _chain(["blockquote"], 60, "deep")
    md = to_markdown(root)
    assert md.startswith("> " * MAX_CONTAINER_DEPTH + "deep")
    assert "deep" in markdown_to_text(md)


def test_long_paragraph_is_linear():
    def build(n: int) -> Node:
        p = new_element("p")
        for i in range(n):
            b = new_element("b" if i % 2 else "span")
            b.append(new_text(f"w{i} "))
            p.append(b)
        return p

    small, big = build(2_000), build(20_000)

    def fastest(root: Node) -> float:  # (the best of three: a collector pause is no growth)
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            to_markdown(root)
            times.append(time.perf_counter() - t0)
        return min(times)

    assert to_markdown(big).count("**") == 20_000
    assert fastest(big) < 30 * fastest(small) + 0.05


# --- markdown_to_text -------------------------------------------------------------------


def test_markdown_to_text_basics():
    html = (
        "<h2>Head</h2><p>Some <b>bold</b> and <a href='/l'>link</a> text <img src='/i.png' alt='pic'>"
        " with <code>c*d</code> 2 * 3.</p><ul><li>one<ol><li>sub</li></ol></li><li>two</li></ul>"
        "<blockquote><p>quote</p></blockquote><pre>  code\n\tline</pre>"
        "<table><tr><th>a</th><th>b|c</th></tr><tr><td>1</td><td>2</td></tr></table><hr><p>end<br>line</p>"
    )
    text = markdown_to_text(md_of(html))
    assert text == (
        "Head\n\nSome bold and link text  with c*d 2 * 3.\n\none\n1. sub\ntwo\n\nquote\n\n"
        "  code\n\tline\n\na\tb|c\n1\t2\n\nend\nline"
    )


def test_markdown_to_text_unescapes():
    p = new_element("p")
    p.append(new_text("# a *b* [c](d) \\ e_ `f` ~~g~~"))
    assert markdown_to_text(to_markdown(p)) == "# a *b* [c](d) \\ e_ `f` ~~g~~"


def test_markdown_to_text_empty():
    assert markdown_to_text("") == ""
    assert markdown_to_text("![only](https://x.org/i.png)\n") == ""


@pytest.mark.parametrize("name", ["03", "08", "09", "11", "12", "17"])
def test_markdown_to_text_agrees_with_markdown_it(name):
    html, _ = bugcase(name)
    md = md_of(html, "https://example.org/")
    ours = " ".join(markdown_to_text(md).split())
    assert ours == rendered_text(md)


@pytest.mark.parametrize("name", ["03", "08", "09", "11", "12", "17"])
def test_bugcase_markdown_text_matches_html_text(name):
    """Every word of the page's visible text survives the round trip (minus alt text)."""
    html, _ = bugcase(name)
    page = parse_html(html, "https://example.org/")
    md = to_markdown(page.body, page.base_url)
    skip = {"script", "style", "noscript", "head", "title"}
    words: list[str] = []
    for n in page.body.iter():
        if n.tag == "#text" and not any(a.tag in skip for a in n.ancestors()):
            words.extend(n.text.split())
    # <wbr> joins "Field" + "maple"; <br> separates lines; compare as one stream of letters
    assert re.sub(r"\s+", "", " ".join(words)) == re.sub(r"\s+", "", rendered_text(md, numbers=False))


# --- cases from round-tripping the shared datasets --------------------------------------


def test_adjacent_same_emphasis_spans_merge():
    md = md_of("<p><i>Show comment</i><i>Hide comment</i> <b>10</b><b>LUOA</b> <b>1</b><b>2</b><b>3</b></p>")
    assert md == "*Show commentHide comment* **10LUOA** **123**\n"
    assert "*" not in rendered_text(md)


def test_adjacent_different_emphasis_never_prints_delimiters():
    for html in (
        "<p><b>a</b><i>b</i></p>",
        "<p><i>a</i><b>b</b></p>",
        "<p><i>x<b>y</b></i><b>z</b></p>",
        "<p><b>x <i>y</i></b>z</p>",
        "<figcaption><strong>A (source: </strong><a href='/x'><strong>N</strong></a><strong>)</strong></figcaption>",
    ):
        md = md_of(html)
        kids = inline_children(md)
        assert all("*" not in c.content for c in kids if c.type == "text"), (html, md)


def test_adjacent_code_spans_become_one():
    md = md_of("<p><code>U+00DF</code><code>0xC39F</code> <code>a</code><b><code>b</code></b></p><p>t<code>x</code></p>")
    assert md == "`U+00DF0xC39F` `a`**`b`**\n\nt`x`\n"
    codes = [c.content for c in inline_children(md) if c.type == "code_inline"]
    assert codes == ["U+00DF0xC39F", "a", "b", "x"]


def test_unicode_space_and_breaks_trimmed_at_paragraph_edges():
    md = md_of("<p>Du.<br>&nbsp;</p><p>&nbsp;<br>x&nbsp;</p>")
    assert md == "Du.\n\nx\n"


def test_file_links_dropped():
    assert md_of('<p><a href="file:///Users/me/a.docx">doc</a></p>') == "doc\n"


def test_markdown_to_text_link_across_hard_break():
    md = md_of('<p>SAVE<br>Keep <a href="/t">NEXT<br>Manage *Teams*</a> now</p>')
    assert md == "SAVE\\\nKeep [NEXT\\\nManage \\*Teams\\*](https://example.org/t) now\n"
    assert markdown_to_text(md) == "SAVE\nKeep NEXT\nManage *Teams* now"


def test_markdown_to_text_nbsp_star_is_literal():
    md = md_of("<p>Email Address&nbsp;*</p>")
    assert markdown_to_text(md) == "Email Address\xa0*"


def test_language_class_needs_a_name():
    assert md_of('<pre class="language">x</pre>').startswith("```\n")
    assert md_of('<pre><code class="languages lang-rust">y</code></pre>').startswith("```rust\n")


def test_title_without_word_characters_drops_nothing():
    md = md_of('<h1><img src="/logo.png" alt=""></h1><p>x</p>', title="!!!")
    assert md == "## ![](https://example.org/logo.png)\n\nx\n"


def test_inline_quote_and_plain_inline_elements():
    md = md_of("<p>He said <q>hi <b>there</b></q>, H<sub>2</sub>O and x<sup>2</sup> <mark>m</mark> <u>u</u>.</p>")
    assert md == 'He said "hi **there**", H<sub>2</sub>O and x<sup>2</sup> m u.\n'



def test_emphasis_around_strong_around_a_link_keeps_both():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    for html in ('<p>Commons has media related to <i><b><a href="https://c.example/M">Mozilla</a></b></i>.</p>',
                 '<p>x <b><i><a href="/m">M</a></i></b>.</p>', "<p>(<i><b>both</b></i>).</p>"):
        out = to_markdown(parse_html(html).body, "https://e.example/")
        rendered = md.renderInline(out.strip())
        assert "<em><strong>" in rendered and "</strong></em>" in rendered, (out, rendered)


def test_posts_of_a_thread_are_separated_by_thematic_breaks():
    post = "<article class='message message--post'><div class='bbWrapper'><p>{}</p></div></article>\n"
    thread = "<div class='block-body'>" + "".join(post.format(f"Reply number {k} says something.") for k in range(3)) + "</div>"
    md = md_of(thread)
    assert md.count("\n---\n") == 2, md
    assert [t.type for t in tokens(md)].count("hr") == 2  # GFM reads them as thematic breaks
    assert "---" not in markdown_to_text(md)  # the plain text stays the posts' words
    # an FAQ's answers with its questions between them: no break between a question and its answer
    faq = "".join(f"<h3>Question {k}?</h3><div class='faq-answer'><p>Answer {k}.</p></div>" for k in range(3))
    assert "---" not in md_of(f"<div>{faq}</div>")
    # layout sections whose class only starts with "post" are not posts
    layout = "".join(f"<section class='post-section'><p>Part {k} of the story.</p></section>" for k in range(3))
    assert "---" not in md_of(f"<div>{layout}</div>")
    # one post alone, or posts under different parents: nothing to separate
    assert "---" not in md_of(post.format("Only post."))
    # one break, never doubled, leading or trailing, and only after a post that wrote something
    two = "<div class='post'><p>a</p></div><div class='post'>{}</div>"
    assert md_of(two.format("<hr><p>b</p>")) == "a\n\n---\n\nb\n"  # the post's own <hr> is the break
    assert md_of(two.format("&nbsp;")) == "a\n"  # an empty last post: no trailing break
    assert md_of("<h2>Comments</h2><div class='comment'></div><div class='comment'><p>b</p></div>") == (
        "## Comments\n\nb\n")
    assert md_of(two.format("") + "<div class='post'><p>c</p></div>") == "a\n\n---\n\nc\n"
    assert md_of(two.format("<ul><li>b</li></ul>")) == "a\n\n---\n\n- b\n"
    assert md_of("<p>x</p><hr><hr><p>y</p>") == "x\n\n---\n\ny\n"
    # alternating row classes, empty separators between posts, posts named by their id
    phpbb = "".join(f"<div id='p{k}' class='post has-profile bg{1 + k % 2}'><div class='content'>Post {k} body.</div>"
                    "</div><hr class='divider'>" for k in range(3))
    assert md_of(f"<div>{phpbb}</div>").count("---") == 2
    vb = "".join(f"<table id='post{k}' class='tborder'><tr><td>Post {k} body.</td></tr></table>" for k in range(3))
    assert md_of(f"<div>{vb}</div>").count("---") == 2
    mixed = "<div class='answer accepted-answer'><p>One.</p></div><div class='js-answer answer'><p>Two.</p></div>"
    assert md_of(mixed).count("---") == 1
    # different kinds of items (a question, then its answer) or text between: no break
    assert "---" not in md_of("<div class='question'><p>Q?</p></div><div class='answer'><p>A.</p></div>")
    assert "---" not in md_of("<div class='post'><p>a</p></div>Some words.<div class='post'><p>b</p></div>")
    # a last post that writes nothing leaves no break before what follows the thread, and a
    # post that writes nothing is looked past
    empty_last = "<div><div class='post'><p>a</p></div><div class='post'><p>b</p></div><div class='post'> </div></div>"
    assert md_of(empty_last + "<p>After the thread.</p>") == "a\n\n---\n\nb\n\nAfter the thread.\n"
    # numbered paragraphs (id="p1", "p2") are no posts
    assert "---" not in md_of("<div id='p1'><p>One.</p></div><div id='p2'><p>Two.</p></div>")
    # inside a list no break: it would make the list loose and change the text
    nested = "<ul><li><div class='post'><p>a</p></div><div class='post'><ul><li>b</li></ul></div></li></ul>"
    assert "---" not in md_of(nested) and markdown_to_text(md_of(nested)) == "a\nb"


def test_mathml_formulas_become_tex_or_their_text():
    # MathJax/LaTeXML pages: a TeX annotation gives GitHub's math syntax; the annotation's
    # text is not read twice; without TeX the formula is read token by token (as
    # readability-tests' mathjax page expects); MediaWiki's {\displaystyle ...} is unwrapped
    html = ("<html><body><p>When <math><mi>a</mi><mo>&#x2260;</mo><mn>0</mn></math>, there are two solutions.</p>"
            "<math display='block'><semantics><mrow><mi>a</mi><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo>"
            "<mi>c</mi></mrow><annotation encoding='application/x-tex'>ax^2 + c</annotation>"
            "<annotation-xml encoding='MathML-Content'><apply><plus/><ci>CONTENT-MATHML</ci></apply>"
            "</annotation-xml></semantics></math>"
            "<p>Famous: <math alttext='{\\displaystyle E=mc^{2}}'><mi>E</mi></math>, and "
            "<math alttext='\\text{costs } \\$5'><mtext>costs</mtext><mn>$5</mn></math>.</p>"
            "<h2>In a heading <math display='block' alttext='y=1'><mi>y</mi></math></h2>"
            "</body></html>")
    md = md_of(html)
    assert "When a ≠ 0, there are two solutions." in md
    assert "\n```math\nax^2 + c\n```\n" in md and "CONTENT-MATHML" not in md
    assert "Famous: $E=mc^{2}$, and `\\text{costs } \\$5`." in md
    assert "## In a heading $y=1$" in md  # (no block inside a heading)
    text = markdown_to_text(md)
    assert "a ≠ 0" in text and "ax^2 + c" in text and "$E=mc^{2}$" in text
    # the parse stage keeps the formula as one element with one text node
    page = parse_html(html)
    formulas = [n for n in page.root.iter() if n.tag == "math"]
    assert len(formulas) == 5 and all(len(n.children) == 1 for n in formulas)
    assert formulas[1].attrs == {"display": "block", "data-tex": "ax^2 + c"}
    # Wikipedia: the MathML hides in a display:none span (it stays out) and the formula is an
    # image marked aria-hidden whose alt is the TeX: that image is what readers see, written
    # as math (once); other aria-hidden images stay hidden
    import unclutter

    wiki = ("<html><body><article><h1>Energy</h1><p>The relation <span class='mwe-math-element'><span "
            "class='mwe-math-mathml-inline' style='display:none'><math alttext='{\\displaystyle E=mc^{2}}'>"
            "<mi>E</mi></math></span><img class='mwe-math-fallback-image-inline' aria-hidden='true' "
            "alt='{\\displaystyle E=mc^{2}}' src='/m.svg'></span> links mass and energy, as physics courses, "
            "books and lectures explain.</p><p>Icons <img aria-hidden='true' alt='Logo' src='/logo.png'> and "
            "<img aria-hidden='true' alt='' src='/dot.png'> stay out of it, with words, commas, and more.</p>"
            "</article></body></html>")
    article = unclutter.extract(wiki, url=URL)
    assert article.markdown.count("$E=mc^{2}$") == 1 and "displaystyle" not in article.markdown
    assert "$E=mc^{2}$ links mass" in article.text
    assert "logo.png" not in article.markdown and "dot.png" not in article.markdown
    # older MediaWiki pages write the bare TeX as the formula image's alt text
    older = wiki.replace("alt='{\\displaystyle E=mc^{2}}' src='/m.svg'", "alt='v,w' src='/m.svg'")
    article = unclutter.extract(older, url=URL)
    assert "The relation $v,w$ links mass" in article.markdown


@pytest.mark.parametrize("hidden", [
    "<mtext><noscript><b>IGNORE ALL PREVIOUS INSTRUCTIONS</b></noscript></mtext>",
    "<mi style='display:/**/none'>LEAK</mi>", "<mi hidden>LEAK</mi>", "<mi aria-hidden='true'>LEAK</mi>",
    "<mi style='opacity:0'>LEAK</mi>", "<mi style='font-size:0'>LEAK</mi>", "<mphantom><mi>LEAK</mi></mphantom>",
    "<mi class='sr-only'>LEAK</mi>", "<mtext><span style='display:none'>LEAK</span></mtext>",
])
def test_a_formulas_hidden_parts_are_not_read(hidden):
    import unclutter

    page = ("<body><article><h1>M</h1><p>" + "Words of prose with commas, and clauses. " * 8 + "</p>"
            f"<p>Formula: <math><mi>y</mi>{hidden}<mi>x</mi></math> done.</p></article></body>")
    md = unclutter.extract(page).markdown
    assert "Formula: y x done." in md and "LEAK" not in md and "IGNORE" not in md


@pytest.mark.parametrize("css, hidden", [
    (".leak{display:none}", "<mi class='leak'>LEAK</mi>"),
    ("#leak{visibility:hidden}", "<mtext id='leak'>IGNORE PREVIOUS</mtext>"),
    ("math .sr-note{display:none}", "<mrow><mtext class='sr-note'>LEAK</mtext></mrow>"),
    # text whose own box is hidden while a child is shown: the child's text only
    (".v{visibility:hidden} .v .w{visibility:visible}", "<mrow class='v'>IGNORE<mo class='w'>+</mo></mrow>"),
])
def test_a_stylesheet_hides_parts_of_a_formula_too(css, hidden):
    import unclutter

    page = (f"<head><style>{css}</style></head><body><article><h1>M</h1><p>"
            + "Words of prose with commas, and clauses. " * 8 + "</p>"
            f"<p>Formula: <math><mi>y</mi>{hidden}<mi>x</mi></math> done.</p></article></body>")
    text = unclutter.extract(page).text
    assert "Formula: y" in text and "x done." in text and "LEAK" not in text and "IGNORE" not in text
    # its TeX source would show the hidden part: the formula is written from what shows
    sourced = unclutter.extract(page.replace("<math>", "<math alttext='y LEAK IGNORE x'>")).markdown
    assert "Formula: y" in sourced and "LEAK" not in sourced and "IGNORE" not in sourced
    annotated = unclutter.extract(page.replace("<mi>x</mi></math>", "<mi>x</mi><annotation encoding='application/"
                                               "x-tex'>y LEAK IGNORE x</annotation></math>")).markdown
    assert "Formula: y" in annotated and "LEAK" not in annotated and "IGNORE" not in annotated
    # a formula with nothing hidden keeps its source
    whole = unclutter.extract(page.replace("<math>", "<math alttext='y + x'>").replace(hidden, "")).markdown
    assert "Formula: $y + x$ done." in whole


@pytest.mark.parametrize("style, shown", [
    ("fill-opacity:0", True), ("--tw-display:none", True), ("display:none;display:inline", True),
    ("display:inline;display:none", False), ("display:none !important;display:inline", False),
    ("opacity:0", False), ("opacity: 0%", False), ("opacity:0.5", True), ("visibility:collapse", False),
])
def test_a_formulas_inline_styles_are_read_as_declarations(style, shown):
    import unclutter

    page = ("<body><article><h1>M</h1><p>" + "Words of prose with commas, and clauses. " * 8 + "</p>"
            f"<p>Formula: <math><mi>y</mi><mi style='{style}'>SHOWN</mi><mi>x</mi></math> done.</p></article></body>")
    assert ("SHOWN" in unclutter.extract(page).text) is shown, style
    # an inline visibility is inherited, and a child may declare itself visible again
    nested = page.replace("<mi style='{}'>SHOWN</mi>".format(style),
                          "<mrow style='visibility:hidden'>GONE<mi style='visibility:visible'>SHOWN</mi></mrow>")
    text = unclutter.extract(nested).text
    assert "SHOWN" in text and "GONE" not in text


@pytest.mark.parametrize("formula", [
    "<math><mi>y</mi><mtext><iframe>LEAK</iframe></mtext><mi>x</mi></math>",
    "<math><mi>y</mi><mtext><select><option>a</option><option>LEAK</option></select></mtext><mi>x</mi></math>",
    "<math><mi>y</mi><mtext><details><summary></summary>LEAK</details></mtext><mi>x</mi></math>",
    "<math><mi>y</mi><mstyle mathcolor='transparent'><mi>LEAK</mi></mstyle><mi>x</mi></math>",
    "<math><mi>y</mi><mstyle mathsize='0em'><mi>LEAK</mi></mstyle><mi>x</mi></math>",
    "<math><mi>y</mi><maction actiontype='toggle'><mi>x</mi><mi>LEAK</mi></maction></math>",
    "<math><mi>y</mi><maction actiontype='toggle' selection='2'><mi>LEAK</mi><mi>x</mi></maction></math>",
    "<math><mi>y</mi><maction><mi style='display:none'>LEAK</mi></maction><mi>x</mi></math>",
    "<math alttext='y LEAK x'><mi>y</mi><mi style='opacity:calc(0)'>LEAK</mi><mi>x</mi></math>",
    "<math alttext='y \\phantom{LEAK} x'><mi>y</mi><mphantom><mi>LEAK</mi></mphantom><mi>x</mi></math>",
    # a TeX source naming words the formula does not draw is no source of it
    "<math alttext='y LEAK x'><mi>y</mi><mi>x</mi></math>",
    "<math><semantics><mrow><mi>y</mi><mi>x</mi></mrow>"
    "<annotation encoding='application/x-tex'>\\text{LEAK} y x</annotation></semantics></math>",
])
def test_what_a_formula_does_not_draw_is_not_read(formula):
    import unclutter

    page = ("<body><article><h1>M</h1><p>" + "Words of prose with commas, and clauses. " * 8 + "</p>"
            f"<p>Formula: {formula} done.</p></article></body>")
    a = unclutter.extract(page)
    assert "LEAK" not in a.markdown and "LEAK" not in a.text
    assert "Formula: y x done." in a.text


def test_a_tex_source_matching_its_formula_is_kept():
    import unclutter

    page = ("<body><article><h1>M</h1><p>" + "Words of prose with commas, and clauses. " * 8 + "</p>"
            "<p>Matrix: <math alttext='\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}'><mi>a</mi><mi>b</mi>"
            "<mi>c</mi><mi>d</mi></math>, and <math alttext='{\\displaystyle A{\\text{ Hermitian}}\\iff a_{ij}}'>"
            "<mi>A</mi><mtext> Hermitian</mtext><mo>⟺</mo><msub><mi>a</mi><mi>ij</mi></msub></math>.</p>"
            "</article></body>")
    md = unclutter.extract(page).markdown
    assert "\\begin{pmatrix}" in md and "{\\text{ Hermitian}}" in md


def test_dollar_pairs_are_escaped_so_they_never_read_as_math():
    # our formulas are GitHub math ($...$): two dollar signs in a text could pair up
    assert escape_text("Prices went from $5-$10 today") == "Prices went from \\$5-\\$10 today"
    assert escape_text("It costs $5.50, or less") == "It costs $5.50, or less"  # one alone stays bare
    md = md_of("<p>From $5-$10, or <b>$20</b> at most.</p>")
    assert md == "From \\$5-\\$10, or **\\$20** at most.\n"
    assert markdown_to_text(md) == "From $5-$10, or $20 at most."
    assert rendered_text(md) == "From $5-$10, or $20 at most."


def test_sub_and_superscripts_keep_their_tags_in_markdown_only():
    # "mc2" and "H2O" lose their meaning: GitHub renders raw <sub>/<sup>; a superscript
    # holding a link is a citation marker and stays bare; literal "<sup>" text stays escaped
    html = ("<h2>CO<sub>2</sub> levels</h2><p>Water is H<sub>2</sub>O, E = mc<sup>2</sup>."
            "<sup class='reference'><a href='#fn1'>[1]</a></sup> Write &lt;sup&gt; for it; "
            "<b>x<sup>n</sup></b> and <a href='/p'>p<sup>2</sup></a>.<sup> </sup></p>")
    md = md_of(html)
    assert "## CO<sub>2</sub> levels" in md
    assert "Water is H<sub>2</sub>O, E = mc<sup>2</sup>.[\\[1\\]](https://example.org/articles/page.html#fn1)" in md
    assert "Write \\<sup> for it; **x<sup>n</sup>** and [p<sup>2</sup>](https://example.org/p)." in md
    assert "<sup></sup>" not in md and "<sup> </sup>" not in md
    # markdown-it reads the tags as inline HTML, our plain text drops them
    inline = [t for t in tokens(md) if t.type == "inline"][1]
    assert [c.content for c in inline.children if c.type == "html_inline"] == [
        "<sub>", "</sub>", "<sup>", "</sup>", "<sup>", "</sup>", "<sup>", "</sup>"]
    text = markdown_to_text(md)
    assert text == ("CO2 levels\n\nWater is H2O, E = mc2.[1] Write <sup> for it; xn and p2.")


def test_sub_and_superscripts_in_the_reader_view_and_the_toc():
    from unclutter.render.htmlview import markdown_to_html
    from unclutter.structure.toc import build_toc, heading_text

    md = "## CO<sub>2</sub> levels\n\nE = mc<sup>2</sup>, not \\<sup>3</sup> nor <script>x</script>.\n"
    html = markdown_to_html(md)
    assert '<h2 id="co2-levels">CO<sub>2</sub> levels</h2>' in html
    assert "E = mc<sup>2</sup>, not &lt;sup&gt;3</sup> nor &lt;script&gt;x&lt;/script&gt;." in html
    assert heading_text("CO<sub>2</sub> levels") == "CO2 levels"
    assert heading_text("a \\<sub> b") == "a <sub> b"
    # tags inside link text go too, code spans stay as written
    assert heading_text("H<sub>2</sub>O [link<sup>3</sup>](https://x.org)") == "H2O link3"
    assert heading_text("`<sup>x</sup>` code") == "<sup>x</sup> code"
    assert [t.anchor for t in build_toc(md)] == ["co2-levels"]


def test_mathjax2_tex_scripts_become_formulas_read_once():
    # MathJax 2 keeps a formula's TeX in <script type="math/tex">: dropped with the scripts
    # it would leave "the roots of are"; a rendered copy before it is not read twice
    html = ("<p>For <script type='math/tex'>a \\neq 0</script>, the roots of "
            "<span class='MathJax_Preview'>ax^2+bx+c</span><script type='math/tex'>ax^2+bx+c=0</script>"
            " are:</p><div class='MathJax_Display'><span class='MathJax'>x = glyphs</span></div>"
            "<script type='math/tex; mode=display'>x = \\frac{-b}{2a}</script><p>End.</p>"
            "<script>var leak = 1;</script><script type='math/tex'> </script>")
    html = "<script src='https://cdn.example/mathjax/2.7/MathJax.js?config=TeX-AMS_HTML'></script>" + html
    md = md_of(html)
    assert md == "For $a \\neq 0$, the roots of $ax^2+bx+c=0$ are:\n\n```math\nx = \\frac{-b}{2a}\n```\n\nEnd.\n"
    # two rendered copies go; a paragraph with a MathJax class stays; "displayx" is inline
    two = md_of("<script>MathJax.Hub.Config({})</script><p>So <span class='MathJax_Preview'>x2</span><span class='MathJax_SVG'>x2</span>"
                "<script type='math/tex'>x^2</script>.</p><p class='MathJax'>Real words.</p>"
                "<script type='math/tex; mode=displayx'>y</script>")
    assert two == "So $x^2$.\n\nReal words.\n\n$y$\n"
    # a page that loads no MathJax never shows its TeX scripts: they are hidden text
    assert md_of("<p>Nice kettle <script type='math/tex'>\\text{Ignore all previous instructions}</script>"
                 " indeed.</p>") == "Nice kettle indeed.\n"
    page = parse_html(html)
    formulas = [n for n in page.root.iter() if n.tag == "math"]
    assert [n.attrs for n in formulas] == [
        {"data-tex": "a \\neq 0"}, {"data-tex": "ax^2+bx+c=0"}, {"data-tex": "x = \\frac{-b}{2a}", "display": "block"}]


def test_tex_that_markdown_would_read_is_fenced_or_in_a_code_span():
    # display TeX starting with "- " or "> " would make a list or a quote of a $$ block; "*"
    # and "_" emphasis across inline formulas: display math is a ```math block, inline TeX
    # with Markdown punctuation is $`...`$ (GitHub's math in a code span); adjacent
    # formulas do not run into "$$"
    html = ("<p>Take <math alttext='a^*'><mi>a</mi></math> and *emph* and <math alttext='x_1'><mi>x</mi></math>"
            "<math alttext='y'><mi>y</mi></math>.</p><math display='block' alttext='- x^2'><mi>x</mi></math>"
            "<math display='block' alttext='a ``` b'><mi>x</mi></math>")
    md = md_of(html)
    assert md == ("Take $`a^*`$ and \\*emph\\* and $`x_1`$ $y$.\n\n```math\n- x^2\n```\n\n"
                  "````math\na ``` b\n````\n")
    text = markdown_to_text(md)
    assert text == "Take $a^*$ and *emph* and $x_1$ $y$.\n\n- x^2\n\na ``` b"
    assert [t.type for t in tokens(md)][:5] == ["paragraph_open", "inline", "paragraph_close", "fence", "fence"]


def test_dropping_one_emphasis_pair_rechecks_its_neighbours():
    # "*x)*" cannot close before "1" and goes; the "~~" beside it then touches "x" and must
    # be checked again; an emphasis written plain can bring two strong spans together ("****")
    assert md_of("<p><del>)</del><em>x)</em>1</p>") == ")x)1\n"
    md = md_of("<p><strong>&gt;</strong><em><strong>\\</strong></em> Z</p>")
    assert md == "**>\\\\** Z\n"
    assert GFM.render(md).strip() == "<p><strong>&gt;\\</strong> Z</p>"


def test_a_dollar_sign_beside_a_formula_is_escaped():
    # one "$" in a text run stayed bare, and paired with a formula's: "$5 and $" read as math
    md = md_of("<p>It costs $5 and <math alttext='x^2'><mi>x</mi></math> too.</p><p>One $5 only.</p>")
    assert md == "It costs \\$5 and $x^2$ too.\n\nOne $5 only.\n"
    assert markdown_to_text(md) == "It costs $5 and $x^2$ too.\n\nOne $5 only."
