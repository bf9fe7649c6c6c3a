"""``--render auto``'s rule (:func:`unclutter.route.js_shell`): which served pages are
JavaScript shells that need a browser, on hand-built pages, hostile inputs and AEB's
articles (none of which may be rendered)."""

from __future__ import annotations

import time

import pytest
from conftest import case_html, load_cases

from unclutter import route
from unclutter.route import ShellVerdict, js_shell

LOREM = ("The committee met on Tuesday to discuss the budget for the coming year, and members "
         "agreed that the library would keep its opening hours while the pool closes in winter. ")
#: A minified bundle's worth of code (about 30,000 characters).
BUNDLE = "!function(e){var t={};function n(r){if(t[r])return t[r].exports;}}([]);" * 420


def page(body: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head><title>Page</title>{head}</head><body>{body}</body></html>"


REACT_SHELL = page(f'<div id="root"></div><script>{BUNDLE}</script>')
NUXT_SHELL = page('<div id="__nuxt"><div class="spinner">Loading...</div></div>'
                  '<script>window.__NUXT__={config:{public:{}},state:{}};</script>'
                  '<script src="/_nuxt/entry.4f2a.js" type="module"></script>')
NEXT_SSR = page(f'<div id="__next"><header><a href="/">Daily Ledger</a></header><main><article>'
                f'<h1>Budget agreed</h1><p>{LOREM * 4}</p><p>{LOREM * 4}</p></article></main></div>'
                f'<script id="__NEXT_DATA__" type="application/json">'
                f'{{"props":{{"pageProps":{{"body":"{LOREM * 8}"}}}},"page":"/[slug]"}}</script>'
                f'<script src="/_next/static/chunks/main-1a2b.js" defer></script>')
STATIC_ARTICLE = page(f"<nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article><h1>Budget agreed</h1>"
                      f"<p>{LOREM * 3}</p><p>{LOREM * 3}</p></article><footer>© Daily Ledger</footer>")
NOT_FOUND = page("<h1>Page not found</h1><p>Sorry, the page you asked for does not exist.</p>")


def test_react_shell_with_an_empty_root_and_a_bundle_is_a_shell():
    v = js_shell(REACT_SHELL)
    assert isinstance(v, ShellVerdict)
    assert v.is_shell, v.reason
    assert "#root" in v.reason and v.reason.startswith("JavaScript shell")
    assert v.signals["empty_mount_point"] == 1.0
    assert v.signals["text_words"] == 0.0
    assert v.signals["script_chars"] >= len(BUNDLE)


def test_nuxt_shell_with_a_loading_placeholder_is_a_shell():
    v = js_shell(NUXT_SHELL)
    assert v.is_shell, v.reason
    assert "#__nuxt" in v.reason and "nuxt" in v.reason
    assert v.signals["framework_markers"] >= 1.0
    assert v.signals["external_scripts"] == 1.0


def test_noscript_notice_decides_a_shell():
    body = '<header>Acme Store</header><div id="container"></div><script src="/bundle.js"></script>'
    notice = "<noscript>Please enable JavaScript to view this page.</noscript>"
    v = js_shell(page(notice + body))
    assert v.is_shell, v.reason
    assert v.signals["noscript_notice"] == 1.0 and v.signals["empty_mount_point"] == 0.0
    assert "asks for JavaScript" in v.reason
    # the same page without the notice shows no sign: two words of a header, one small script
    assert not js_shell(page(body)).is_shell


def test_server_rendered_next_page_with_its_article_is_not_a_shell():
    v = js_shell(NEXT_SSR)
    assert not v.is_shell, v.reason
    assert v.signals["text_words"] >= route.SHELL_MAX_WORDS
    assert v.signals["data_script_chars"] > 0  # __NEXT_DATA__ is data, and does not matter here


def test_static_article_is_not_a_shell():
    v = js_shell(STATIC_ARTICLE)
    assert not v.is_shell
    assert v.reason.startswith("not a JavaScript shell:") and "words" in v.reason
    assert v.signals["text_words"] > 100


def test_short_static_page_is_not_a_shell():
    v = js_shell(NOT_FOUND)
    assert not v.is_shell
    assert "no sign" in v.reason
    assert 0 < v.signals["readable_words"] < route.SHELL_MAX_WORDS


def test_noscript_text_counts_as_served_text():
    # a forum that serves its posts in <noscript> (Discourse's crawler view) is read
    # without a browser; without them, the same app page is a shell
    head = '<meta name="discourse_theme_id" content="2">'
    app = '<section id="main"></section><div class="hidden" id="data-preloaded"></div>'
    posts = f"<noscript><div class='post'><p>{LOREM * 3}</p></div></noscript>"
    with_posts = js_shell(page(app + posts, head))
    assert not with_posts.is_shell, with_posts.reason
    assert with_posts.signals["noscript_words"] > route.SHELL_MAX_WORDS
    without = js_shell(page(app, head))
    assert without.is_shell and "discourse" in without.reason


def test_word_bound_is_where_the_rule_stops():
    words = route.SHELL_MAX_WORDS
    below = page(f'<header>{" ".join(["menu"] * (words - 1))}</header><div id="app"></div>')
    at = page(f'<header>{" ".join(["menu"] * words)}</header><div id="app"></div>')
    assert js_shell(below).is_shell
    assert not js_shell(at).is_shell


def test_bytes_are_decoded_like_the_pipeline():
    assert js_shell(REACT_SHELL.encode("utf-8")).is_shell
    assert not js_shell(STATIC_ARTICLE.encode("utf-16")).is_shell


@pytest.mark.parametrize("hostile", [
    "", b"", "   \n", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64, bytes(range(256)) * 64,
    "<div>" * 100_000, "<" * 50_000, "\x00" * 1000, "<a " + "x=1 " * 30_000 + ">text</a>",
])
def test_hostile_input_is_no_shell_and_never_raises(hostile):
    started = time.perf_counter()
    v = js_shell(hostile)
    assert time.perf_counter() - started < 2.0
    assert v.is_shell is False
    assert v.reason.startswith("not a JavaScript shell")


def test_deep_nesting_is_refused_before_parsing():
    v = js_shell("<div>" * 100_000 + "text")
    assert not v.is_shell and "nested" in v.reason


def test_input_over_the_size_limit_is_not_judged():
    from unclutter.core.limits import MAX_INPUT_BYTES

    v = js_shell(b"<p>" + b"a" * MAX_INPUT_BYTES)
    assert not v.is_shell and "not judged" in v.reason


def test_aeb_articles_are_never_shells():
    cases = [c for c in load_cases("aeb") if c.get("html")][:20]  # skips when the folder is missing
    assert len(cases) == 20
    shells = {c["id"]: v.reason for c in cases if (v := js_shell(case_html("aeb", c))).is_shell}
    assert shells == {}
