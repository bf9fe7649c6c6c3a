"""Text a site's template leaves in the selection (``unclutter.score.template_text``):
placeholder copy and the site's footer matter go; the look-alikes an author wrote stay."""

from __future__ import annotations

import unclutter
from unclutter.core.dom import Node
from unclutter.parse.html import parse_html
from unclutter.score.template_text import drop_placeholder_blocks, trim_site_footer

PROSE = " ".join(f"Sentence {i} of the article, long enough to be read as prose by anyone." for i in range(6))
LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut "
         "labore et dolore magna aliqua.")


def _root(body: str) -> Node:
    return parse_html(f"<html><body><div id=sel>{body}</div></body></html>").body.children[0]


def test_placeholder_cards_go_and_their_headings_with_them():
    root = _root(f"<p>{PROSE}</p><p>{PROSE}</p><div class=card><h3>Ut enim ad minim</h3><p>{LOREM}</p></div>")
    assert drop_placeholder_blocks(root, "A kettle") == 2
    text = root.text_content()
    assert "Lorem" not in text and "Ut enim" not in text and "Sentence 5" in text
    assert all(c.tag != "div" for c in root.children)  # the emptied card went too


def test_unrendered_shortcodes_go_and_what_they_wrapped_stays():
    # a plugin the site lost prints its shortcodes: a sign-up form, a quote's tags around
    # the quoted text, a button around its label
    root = _root(f"<p>{PROSE}</p><p>[convertkit form=1630175]</p><p>[quote quote=312679]</p>"
                 "<p>The reader's quoted question about the sawbench stays.</p><p>[/quote]</p>"
                 "<p>[button link=\u201dhttp://example.org/submit/\u201d type=\u201dbig\u201d]"
                 " Send us YOUR kit review[/button]</p>")
    assert drop_placeholder_blocks(root, "A sawbench") == 4
    text = root.text_content()
    assert "[" not in text and "Send us" not in text
    assert "quoted question about the sawbench stays" in text and "Sentence 5" in text


def test_shortcode_look_alikes_stay():
    blocks = ("<p>[sic]</p><p>[1]</p><p>[citation needed]</p><p>[edit]</p>"
              "<p>Write <code>[gallery ids=1,2,3]</code> in a post to show a gallery.</p>"
              "<pre>[caption id=\"a1\"]Text[/caption]</pre>"
              "<p>Indexes run from [0] to [n-1] in this notation, the author wrote.</p>")
    root = _root(f"<p>{PROSE}</p>{blocks}")
    before = root.text_content()
    assert drop_placeholder_blocks(root, "Shortcodes") == 0
    assert root.text_content() == before and before.count("[") == 9
    # bracketed text that is not a CMS's markup: statistics, log lines, notation, editors'
    # marks (capitalised or short names), a forum quote with its text, headings, captions,
    # quotations and table cells
    blocks = ("<p>[Control n=40]</p><ul><li>[Treatment n=42]</li></ul><p>[INFO user=alice status=ok]</p>"
              "<p>[x i=0]</p><p>[/Editor] [/Note]</p><p>[quote name=Bob]Hello there[/quote]</p>"
              "<h2>[update time=\u201c10:00\u201d]</h2><figure><figcaption>[photo credit=\u201cReuters\u201d]"
              "</figcaption></figure><blockquote><p>[error code=500 path=/login]</p></blockquote>"
              "<table><tr><th>Tag</th><th>Does</th></tr><tr><td>[gallery ids=\"1,2,3\"]</td><td>A gallery</td></tr>"
              "</table>")
    root = _root(f"<p>{PROSE}</p>{blocks}")
    before = root.text_content()
    assert drop_placeholder_blocks(root, "Notes") == 0 and root.text_content() == before
    # a page about shortcodes shows them as examples
    root = _root(f"<p>{PROSE} Paste the shortcode below.</p><p>[contact-form-7 id=\"1234\" title=\"Contact\"]</p>")
    assert drop_placeholder_blocks(root, "Contact forms") == 0


def test_shortcode_tags_are_read_in_linear_time():
    # an unclosed tag of many typographic-quoted attributes: a backtracking engine tries
    # every way of spreading the quotes over the attributes (2^n); RE2 reads it once
    tag = "[gallery " + " ".join(["ids=\u201cx\u201d"] * 40)
    root = _root(f"<p>{PROSE}</p><p>{tag[:290]}</p>")
    assert drop_placeholder_blocks(root, "A gallery") == 0


def test_placeholder_look_alikes_stay():
    # a page about the passage
    root = _root(f"<p>{PROSE}</p><blockquote>{LOREM}</blockquote>")
    assert drop_placeholder_blocks(root, "Lorem ipsum - Wikipedia") == 0
    # Latin an author quotes: common Latin words, not the passage's markers
    latin = "Gallia est omnis divisa in partes tres, quarum unam incolunt Belgae, aliam Aquitani, tertiam qui ipsorum"
    root = _root(f"<p>{PROSE}</p><p>{latin}</p>")
    assert drop_placeholder_blocks(root, "Caesar") == 0
    # a theme's demo page: the placeholder copy is the page
    root = _root(f"<p>{LOREM}</p><p>{LOREM} {LOREM}</p><p>Short intro.</p>")
    assert drop_placeholder_blocks(root, "Demo") == 0


def test_the_site_footer_run_at_the_end_goes():
    body = (f"<p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p>"
            "<h4>Join our newsletter</h4><p>Ten per cent off your first order.</p>"
            "<p>© 2026 Homely Ltd. All rights reserved.</p>")
    root = _root(body)
    assert trim_site_footer(root, None, "Kettle - Homely") == 3
    assert "newsletter" not in root.text_content() and "Sentence 5" in root.text_content()
    # an "About <site>" heading, the site named by the title
    root = _root(f"<p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p><h4>About Homely</h4><p>Simple things since 2009.</p>")
    assert trim_site_footer(root, None, "Kettle - Homely") == 2


def test_footer_look_alikes_stay():
    # an article about newsletters, its closing section of ordinary paragraphs
    closing = "".join(f"<p>{PROSE[:220]}</p>" for _ in range(3))
    root = _root(f"<p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p><h2>What I'd tell newsletter writers</h2>{closing}")
    assert trim_site_footer(root, None, "My inbox") == 0
    # "About this item" on a product page is the product's
    root = _root(f"<p>{PROSE}</p><p>{PROSE}</p><h3>About this item</h3><p>Steel body.</p><p>Rinsable filter.</p>")
    assert trim_site_footer(root, None, "Kettle - Homely") == 0
    # a copyright line that is most of a short selection
    root = _root("<p>A short caption.</p><p>© 2026 Homely Ltd. All rights reserved.</p>")
    assert trim_site_footer(root, None, None) == 0


def test_extract_logs_what_went():
    html = (f"<html><head><title>Kettle - Homely</title></head><body><article><h1>Kettle</h1><p>{PROSE}</p>"
            f"<p>{PROSE}</p><p>{PROSE}</p><p>{LOREM}</p><p>{PROSE}</p>"
            "<p>© 2026 Homely Ltd. All rights reserved.</p></article></body></html>")
    article = unclutter.extract(html, explain=True)
    assert "Lorem" not in article.markdown and "All rights reserved" not in article.markdown
    reasons = {r.reason for r in article.removed}
    assert "placeholder text (Lorem ipsum)" in reasons
    assert any(line.startswith("select: template text:") for line in article.trace)
