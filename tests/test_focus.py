"""The caller's selectors: ``target_selector`` names the main content, ``remove_selector``
removes elements first (``unclutter.parse.focus``, the library, the CLI)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import unclutter
from unclutter.core.errors import InputTooComplexError, NoContentError, TargetNotFoundError, UsageError
from unclutter.parse.focus import focus_html

PAGE = """<!doctype html><html lang="de"><head><title>Die Seite</title>
<style>.later { display: none }</style></head><body>
<nav class="menu"><a href="/a">Start</a> <a href="/b">Kontakt</a></nav>
<div class="comments"><p>A reader's comment, with enough words, commas and clauses to be prose.</p></div>
<main><h2>Teil</h2><p>The story itself, told in a paragraph long enough to be read as prose here.</p>
<p class="later">Shown only after a script runs.</p><div class="ad">BUY NOW</div>
<table><tr><th>Key</th><th>Value</th></tr><tr class="row"><td>Brand</td><td>Acme</td></tr></table></main>
<script type="application/ld+json">{"@type": "NewsArticle", "author": {"name": "Ada Writer"}}</script>
</body></html>"""


def test_the_target_is_the_main_content_and_the_head_still_gives_metadata() -> None:
    a = unclutter.extract(PAGE, target_selector=".comments")
    assert "A reader's comment" in a.text and "The story itself" not in a.text
    assert a.title == "Die Seite" and a.language == "de"
    assert a.byline == "Ada Writer"  # JSON-LD outside the target is kept in the reduced page
    assert any(line.startswith("select: target:") for line in a.trace)


def test_a_target_the_prune_stage_would_drop_by_its_tag_or_class_is_kept() -> None:
    a = unclutter.extract(PAGE, target_selector="nav.menu")
    assert "Start" in a.text and "Kontakt" in a.text


def test_hidden_text_and_clutter_inside_the_target_are_still_removed() -> None:
    a = unclutter.extract(PAGE, target_selector="main", remove_selector=".ad")
    assert "The story itself" in a.text and "Brand" in a.text
    assert "Shown only after a script" not in a.text  # the page's stylesheet still hides it
    assert "BUY NOW" not in a.text
    assert "A reader's comment" not in a.text


def test_remove_selector_alone_keeps_the_main_content_selection() -> None:
    plain = unclutter.extract(PAGE)
    removed = unclutter.extract(PAGE, remove_selector="table, .ad")
    assert "Brand" in plain.text and "Brand" not in removed.text
    assert "The story itself" in removed.text


def test_targets_keep_their_context_rows_one_table_items_one_list() -> None:
    a = unclutter.extract("<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>31</td></tr>"
                          "<tr><td>Bob</td><td>42</td></tr></table>", target_selector="tr")
    assert "| Ann | 31 |" in a.markdown and "| Bob | 42 |" in a.markdown
    a = unclutter.extract("<ol><li>First step of it</li><li>Second step of it</li></ol>", target_selector="li")
    assert "1. First step" in a.markdown and "2. Second step" in a.markdown
    a = unclutter.extract("<pre><code>def f():\n    return 1\n</code></pre>", target_selector="code")
    assert "```" in a.markdown and "    return 1" in a.markdown


def test_the_pages_styles_still_read_the_targets_context() -> None:
    rules = ("html.js .x", "body.dark .x", ".art .x", "#m .x", "main > article > .x", ".art")
    for rule in rules:
        page = (f"<html class='js'><head><style>{rule} {{ display: none }}</style></head><body class='dark'>"
                "<main id='m'><article class='art'><p>Kept text of the story, long enough to be read.</p>"
                "<p class='x'>HIDDEN BY THE PAGE</p></article></main></body></html>")
        try:
            text = unclutter.extract(page, target_selector="article").text
        except NoContentError:
            assert rule == ".art"  # the page hides the target itself: it stays hidden
            continue
        assert "HIDDEN BY THE PAGE" not in text and "Kept text" in text, rule


def test_a_remove_selector_matching_the_root_element_removes_the_rest() -> None:
    page = "<html class='no-js' lang='en'><body><p>" + "Words of the page. " * 20 + "</p></body></html>"
    with pytest.raises(NoContentError):  # everything but the root element is gone
        unclutter.extract(page, remove_selector="*")
    for selector in ("html", ":root", ".no-js", "[lang]", ":root > head"):  # the root element is never removed
        assert "Words of the page" in unclutter.extract(page, remove_selector=selector).text


def test_nested_matches_are_taken_once_in_document_order() -> None:
    f = focus_html("<div id=a>outer <div id=b>inner</div></div><div id=c>last</div>", "div")
    assert f.targets == 2
    body = f.html.split("<body>", 1)[1]
    assert body.count("inner") == 1 and body.index("outer") < body.index("last")


def test_a_selector_matching_only_the_head_or_nothing_is_target_not_found() -> None:
    for selector, why in (("title", "<head>"), ("article", None)):
        with pytest.raises(TargetNotFoundError, match=why):
            unclutter.extract(PAGE, target_selector=selector)
    with pytest.raises(TargetNotFoundError, match="after the remove selector"):  # the removal comes first
        unclutter.extract(PAGE, target_selector=".ad", remove_selector="main")
    for selector in ("html", ":root", "body"):  # the whole page
        assert "The story itself" in unclutter.extract(PAGE, target_selector=selector).text


@pytest.mark.parametrize("selector", ["a[", "p:no-such-class", "::before", "", "   ", "x" * 1001, "div:has(ul a)",
                                      "div:has(:has(a))", 12, ":h\\61s(div span)", ':has(div:not([x=")"]) div span)',
                                      ":has(\\)x, div span)", ":has(:not(a b))"])
def test_unreadable_or_costly_selectors_are_usage_errors(selector) -> None:
    with pytest.raises(UsageError):
        unclutter.extract(PAGE, target_selector=selector)
    with pytest.raises(UsageError):
        unclutter.extract(PAGE, remove_selector=selector)


def test_has_with_one_compound_per_item_is_accepted() -> None:
    for selector in ("div:has(> p)", "div:has(p, img)", "div:has(> p, > img)", "div:has(p[title='a ) b'], p)"):
        a = unclutter.extract(PAGE.replace("<div class=\"comments\">", "<div class=\"comments\" title='a ) b'>"),
                              target_selector=selector)
        assert "A reader's comment" in a.text


@pytest.mark.parametrize("selector", ["p:nth-child(2n+1)", "p ~ p", "p:last-of-type"])
def test_a_selector_walking_siblings_on_a_page_of_many_siblings_is_refused(selector) -> None:
    wide = "<div>" + "<p>x</p>" * 20_000 + "</div>"
    with pytest.raises(InputTooComplexError, match="matching steps"):
        unclutter.extract(wide, target_selector=selector)
    assert unclutter.extract(wide, target_selector="div > p:first-child").text == "x"  # (no walk)


def test_a_descendant_selector_on_a_page_too_deep_for_it_is_refused() -> None:
    deep = "<div>" * 4000 + "<p>x</p>" * 30_000 + "</div>" * 4000
    with pytest.raises(InputTooComplexError):
        unclutter.extract(deep, remove_selector="nothing p")
    assert unclutter.extract(deep, remove_selector="nothing").text.startswith("x")


def test_cli_selectors_and_their_exit_statuses(tmp_path) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "unclutter", str(page), *args], capture_output=True,
                              text=True, timeout=120)

    ok = run("--target-selector", ".comments", "-f", "text")
    assert ok.returncode == 0 and "A reader's comment" in ok.stdout and "The story itself" not in ok.stdout
    missing = run("--target-selector", "article")
    assert missing.returncode == 6 and "no element matches the target selector" in missing.stderr
    assert "Traceback" not in missing.stderr
    bad = run("--remove-selector", "a[")
    assert bad.returncode == 2 and "remove selector" in bad.stderr and "Traceback" not in bad.stderr


def test_a_batch_applies_the_selectors_to_every_page_and_misses_are_error_rows(tmp_path) -> None:
    (tmp_path / "a.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "b.html").write_text("<html><body><p>No comments on this one, just a short page of prose.</p>"
                                     "</body></html>", encoding="utf-8")
    records = list(unclutter.extract_many([str(tmp_path)], workers=0, target_selector=".comments"))
    by_name = {r["id"].rsplit("/", 1)[-1]: r for r in records}
    assert by_name["a.html"]["status"] == "ok" and "A reader's comment" in by_name["a.html"]["text"]
    assert by_name["b.html"]["status"] == "error" and by_name["b.html"]["error_kind"] == "TargetNotFoundError"


def test_text_the_page_hides_through_siblings_or_has_stays_hidden_in_a_target() -> None:
    page = ("<html><head><style>h2 + p {display:none} .marker ~ .after {display:none} "
            "section:has(.paywall) .locked {display:none} li:nth-child(2) {display:none}</style></head><body>"
            "<h2>Head</h2><p>SIBLING-HIDDEN</p><p>A visible paragraph, long enough to be read as prose.</p>"
            "<div class='marker'></div><p class='after'>TILDE-HIDDEN</p>"
            "<section><div class='paywall'></div><p class='locked'>HAS-HIDDEN</p><p>Another visible one.</p>"
            "</section><ul><li>item one</li><li>NTH-HIDDEN</li></ul><dialog><p>DIALOG-HIDDEN</p></dialog>"
            "</body></html>")
    for options in ({"target_selector": "p, li"}, {"target_selector": "p, li, dialog"},
                    {"remove_selector": "h2, .marker, .paywall"}):
        text = unclutter.extract(page, **options).text
        assert "A visible paragraph" in text and "Another visible one" in text, options
        assert "HIDDEN" not in text, (options, text)


@pytest.mark.parametrize("page, selector", [
    ("<section>" + "<div>" * 100 + "<p>deep</p>" + "</div>" * 100 + "</section>", "main div div div div div div div p"),
    ("<h1>t</h1>" + "<p>x</p>" * 300, "h1 ~ p ~ p ~ p ~ p"),
    ("<div>" + "<p>x</p><!-- c -->" * 8000 + "</div>", "p:nth-child(2)"),
    ("<section>" + "<div>" * 100 + "<p>deep</p>" + "</div>" * 100 + "</section>", ":is(section div div div div div p)"),
    ("<section>" + "<div>" * 100 + "<p>deep</p>" + "</div>" * 100 + "</section>", "p:not(:where(a div div div div b))"),
    ("<div>" + "<p>x</p>" * 20_000 + "</div>", "p:has(~ b)"),
])
def test_selectors_that_backtrack_or_multiply_their_walks_are_refused(page, selector) -> None:
    # (each of these took lexbor from 10 s to over a minute on a page of a few kilobytes)
    with pytest.raises(InputTooComplexError, match="child \\(>\\) and \\+ combinators do not"):
        unclutter.extract(page, target_selector=selector)


def test_position_rules_do_not_hide_text_a_browser_shows_once_the_page_is_reduced() -> None:
    page = ("<html><head><style>h2 + p {display:none} li:nth-child(2) {display:none} .dark {background:#000} "
            ".dark p {color:#fff}</style></head><body><h1>Top</h1><article><h2>Sub</h2><p>HIDDEN-NEXT</p>"
            "<p>VISIBLE-NEXT is a visible paragraph with words.</p><ul><li>a</li><li>HIDDEN-LI</li>"
            "<li>VISIBLE-LI</li></ul><div class='dark'><p>WHITE-ON-DARK text in a dark box.</p></div>"
            "</article></body></html>")
    for options in ({}, {"target_selector": "article"}, {"remove_selector": "h1"}, {"target_selector": "p, li"}):
        text = unclutter.extract(page, **options).text
        assert all(w in text for w in ("VISIBLE-NEXT", "VISIBLE-LI", "WHITE-ON-DARK")), (options, text)
        assert "HIDDEN" not in text, (options, text)
