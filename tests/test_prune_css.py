"""The page's CSS as the prune stage reads it (``unclutter.prune.css``): the structural
scan, declarations, the cascade, custom properties, and bounded work on hostile CSS."""

from __future__ import annotations

import time

import selectolax.lexbor as lexbor

import unclutter
from unclutter.prune import css
from unclutter.prune.css import selectors
from unclutter.prune.page_styles import page_style_verdicts

STORY = "".join(f"<p>Paragraph {i} of the story, with commas, clauses, and enough words to be read.</p>"
                for i in range(6))


def _verdicts(html: str):
    tree = lexbor.LexborHTMLParser(html)
    classes = {c.lower() for n in tree.css("[class]") for c in (n.attributes.get("class") or "").split()}
    ids = {(n.attributes.get("id") or "").lower() for n in tree.css("[id]")}
    return page_style_verdicts(tree, [n.text(deep=True) for n in tree.css("style")], classes, ids, 1000)


def _hidden_texts(html: str) -> set[str]:
    return {" ".join(n.text().split()) for n, _ in _verdicts(html).drop.values()}


def test_structural_scan_reads_rules_as_css_syntax_does() -> None:
    sheet = css.read_stylesheet(
        '<!-- .a{display:none} --> .b{content:"}"; color:red} .c\\}{x:1} /* .d{} */ '
        "@media print{.e{display:none}} @font-face{src:url(a{b)} .f{background:url(x{y)} .g{display:none}")
    preludes = [sheet.css[s:b - 1].strip() for s, b, _ in sheet.spans]
    assert preludes == ["<!-- .a", "--> .b", ".c\\}", ".f", ".g"]  # print-only and @font-face left out
    assert [r.selector for r in css.all_rules(sheet.css) if "display" in r.declarations] == [".a", ".g"]
    # an unclosed block or comment ends at the end of the sheet (CSS Syntax 3)
    assert len(css.read_stylesheet(".a{display:none").spans) == 1
    assert css.read_stylesheet(".a{display:none} /* .b{display:none}").spans[-1][2] == len(".a{display:none")


def test_declarations_are_read_by_tinycss2() -> None:
    decls = css.read_style_attribute("DISPLAY : /* c */ None !important; color:#0000;--X: a, b")
    assert decls["display"].important and decls["display"].text.lower() == "none"
    assert css.style_hides("display:\\6e one") == "hidden: inline style"
    assert css.style_hides("font:0/0 a") == "hidden: inline style (font size under 2px)"
    assert css.style_hides("color:#0000") == "hidden: inline style (transparent text)"
    assert css.style_hides("position:absolute;width:1px;height:1px;overflow:hidden") is not None
    assert css.style_hides("left:-9999px") is None  # a static box does not move
    assert css.style_hides("zoom:0") is None  # (Chromium reads zoom 0 as 1)


def test_the_cascade_decides_between_rules() -> None:
    page = ("<html><head><style>.tab{display:none} .tab.active{display:block} #x .tab{display:none}"
            ".keep{display:none!important} .note{display:none}</style></head><body>"
            "<div class='tab active'>SHOWN-ACTIVE</div><div class=tab>HIDDEN-TAB</div>"
            "<div id=x><div class='tab active'>HIDDEN-BY-ID</div></div>"
            "<div class=keep style='display:block'>HIDDEN-IMPORTANT</div>"
            "<div class=note style='display:block'>SHOWN-INLINE</div></body></html>")
    hidden = _hidden_texts(page)
    assert {"HIDDEN-TAB", "HIDDEN-BY-ID", "HIDDEN-IMPORTANT"} <= hidden
    assert not {"SHOWN-ACTIVE", "SHOWN-INLINE"} & hidden


def test_custom_properties_with_lists_and_several_values() -> None:
    # values holding commas, slashes and functions, declared in several sheets and a style
    page = ("<html><head><style>:root{--font: 12px/1.5 a, b; --shadow: 0 0 1px rgba(0,0,0,.5), 0 1px red}"
            ".a{--h: none} .b{--h: block}</style><style>:root{--h: flex} .t{display:var(--h)}"
            ".u{font:var(--font)} .v{color:var(--c, transparent)}</style></head><body>"
            "<div class='a'><p class=t>HIDDEN-VAR</p></div><div class='b'><p class=t>SHOWN-VAR</p></div>"
            "<p class=u>SHOWN-FONT</p><p class=v>HIDDEN-FALLBACK</p>"
            "<p style='--c:red' class=v>SHOWN-SET</p></body></html>")
    hidden = _hidden_texts(page)
    assert {"HIDDEN-VAR", "HIDDEN-FALLBACK"} <= hidden
    assert not {"SHOWN-VAR", "SHOWN-FONT", "SHOWN-SET"} & hidden
    article = unclutter.extract(page.replace("<body>", "<body><article>" + STORY).replace("</body>", "</article></body>"))
    assert "HIDDEN" not in article.markdown and "SHOWN-SET" in article.markdown


def test_inherited_properties_can_be_undone_below() -> None:
    page = ("<html><head><style>.row{font-size:0} .row .col{font-size:16px} .vh{visibility:hidden}"
            ".vh .back{visibility:visible}</style></head><body><div class=row>HIDDEN-GAP"
            "<div class=col>SHOWN-COL</div></div><div class=vh>HIDDEN-VH<p class=back>SHOWN-BACK</p></div>"
            "</body></html>")
    v = _verdicts(page)
    muted = {n.attributes.get("class") for n, _ in v.mute.values()}
    assert muted == {"row", "vh"} and not v.drop


def test_hostile_stylesheets_stay_linear() -> None:
    # an unclosed comment repeated (a naive scan is quadratic in it), long values full of
    # parentheses, and thousands of distinct long style attributes
    cases = {
        "unclosed comments": lambda n: f"<style>{'/*a ' * n}</style>",
        "nested parentheses": lambda n: f"<style>.a{{transform:{'translate(' * n}1px}}</style>",
        "translate in style": lambda n: f"<p style=\"transform:{'translate(-1px) ' * n}\">x</p>",
        "property names in one value": lambda n: f"<style>.a{{color:{'color:' * n}}}</style>",
        "distinct styles": lambda n: "".join(f"<p style=\"transform:translate({i}px) {'x' * 200}\">p</p>"
                                             for i in range(n // 50)),
    }
    for name, make in cases.items():
        seconds = []
        for n in (5_000, 40_000):
            html = f"<html><head>{make(n)}</head><body><article>{STORY}</article></body></html>"
            start = time.perf_counter()
            article = unclutter.extract(html)
            seconds.append(time.perf_counter() - start)
            assert "Paragraph 5" in article.text
        # 8x the input: a hang guard only (bench/complexity.py measures the growth)
        assert seconds[1] < max(8 * 8 * seconds[0], 4.0), (name, seconds)


def _for_selectors_made_of(pieces: list[str], examples: int, longest: int):
    """Run the decorated check on selector texts made of up to ``longest`` of ``pieces``
    (hypothesis, ``examples`` of them)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    def run(check):
        settings(max_examples=examples, deadline=None)(
            given(st.lists(st.sampled_from(pieces), min_size=1, max_size=longest))(
                lambda parts: check("".join(parts))))()
        return check

    return run


def test_keys_read_from_text_agree_with_the_parsed_selectors() -> None:
    @_for_selectors_made_of(["div", "p", "a", "*", ".x", ".y-z", "#i", ":hover", ":first-child", ":root",
                             " ", " > ", "+", "~", ".A", "#B2", "li", "  "], 400, 7)
    def check(text):
        parsed = selectors._plain_selector(text)
        fast = selectors._fast_key(text)
        if parsed is not None and fast not in (None, False):
            assert fast == parsed[2], text


def test_keys_of_escaped_names_agree_with_the_parsed_selectors() -> None:
    r"""Names with escapes (Tailwind's ``.md\:flex``) are keyed from the text; every key
    read so equals the key of the selector tinycss2 and cssselect2 parse, and a sheet's
    index holds every parsed rule under its key (a rule under another key is never found)."""
    from unclutter.prune.css.sheet import Sheet

    @_for_selectors_made_of(["div", "P", "*", ".x", ".md\\:flex", ".w-1\\/2", ".a\\.b", ".\\31 0px", "#i\\:d",
                             ".\\[x\\]", ":hover", "::before", " ", " > ", "+", "~", ",", ".\\,c", "#a#b",
                             "\\61 bc", ".x\\", "\\\n", ".é\\:é", ".s\\D800 ", ", "], 600, 8)
    def check(text):
        fast = selectors._escaped_keys(text)
        parsed = selectors._selectors(text)
        if fast is not None and parsed is not None:
            # (pseudo-element selectors are left out of the parse: their keys are extra, never wrong)
            keys = [k for k, part in zip(fast, text.split(",")) if "::" not in part]
            assert all(k in fast for _, _, k, _ in parsed), text
            if "::" not in text and "\\," not in text:
                assert keys == [k for _, _, k, _ in parsed], text
        sheet = Sheet(text + "{display:none}")
        indexed = {key for key, entries in sheet.keys().items() if entries}
        assert all(r.key in indexed for k in range(len(sheet.spans)) for r in sheet.rule(k)), text

    assert selectors._escaped_keys(".sm\\:hidden:hover, .lg\\:p-4 > .w-1\\/2") == [
        (".", "sm:hidden"), (".", "w-1/2")]
    assert selectors._escaped_keys("a[href]") is None and selectors._escaped_keys(":hover") is None


def test_markup_comment_delimiters_and_empty_selectors_read_as_a_browser_reads_them() -> None:
    """``-->`` / ``<!--`` before a top-level rule are skipped (CSS Syntax 3 §5.4.1): the rule
    after them still hides (inside a block they make the rule invalid); a selector list with an empty selector (``.b,``) is invalid and
    its rule is dropped (Selectors 4 §4.1), escaped names included."""
    import unclutter

    story = "<p>Real article paragraph with genuine content words that a reader would see on the page.</p>" * 3
    for css, hidden in ((".a{color:red} -->\n.b{display:none}", True), ("<!-- .b{display:none} -->", True),
                        (".b,{display:none}", False), (",.b{display:none}", False), (".b,,.c{display:none}", False),
                        (".b,.x\\:y,{display:none}", False), (".b,.x\\:y{display:none}", True),
                        (".b , .c{display:none}", True), ("@media screen{<!-- .b{display:none}}", False)):
        html = (f"<html><head><style>{css}</style></head><body><article><h1>T</h1>{story}"
                f"<p class='b'>MARKED paragraph text</p>{story}</article></body></html>")
        assert ("MARKED" not in unclutter.extract(html).text) is hidden, css


def test_hiding_rules_with_escaped_names_the_page_does_not_use_are_skipped() -> None:
    r"""A utility stylesheet's hiding rules with escaped names (``.md\:x12{display:none}``)
    that name classes the page lacks are left out before lexbor runs (as unescaped ones
    are), so thousands of them no longer refuse the page; one the page uses still hides."""
    import unclutter
    from unclutter.parse.skip import _required_tokens

    assert _required_tokens(".group:hover .group-hover\\:hidden") == (".group", ".group-hover:hidden")
    assert _required_tokens(".w-\\[10px\\]") == (".w-[10px]",) and _required_tokens(".a\\:b:not(.c)") is None
    rules = "".join(f".md\\:x{i}{{display:none}}" for i in range(4000)) + ".md\\:gone{display:none}"
    story = "<p>Real article paragraph with genuine content words that a reader would see on the page.</p>" * 4
    html = (f"<html><head><style>{rules}</style></head><body><article><h1>T</h1>{story}"
            f"<p class='md:gone'>MARKED paragraph</p></article></body></html>")
    text = unclutter.extract(html).text
    assert "Real article paragraph" in text and "MARKED" not in text


def test_quirks_mode_matches_classes_and_ids_without_case() -> None:
    # no doctype: quirks mode, where class and id selectors ignore case (HTML §2.3.7);
    # with a doctype they do not
    body = "<style>.Foo{display:none} #Bar{visibility:hidden}</style><p class=foo>HID-A</p><p id=bar>HID-B</p>"
    assert {"HID-A", "HID-B"} <= _hidden_texts(f"<html><head></head><body>{body}</body></html>")
    assert not {"HID-A", "HID-B"} & _hidden_texts(f"<!DOCTYPE html><html><head></head><body>{body}</body></html>")


def test_the_removal_log_shows_no_text_the_styles_hide() -> None:
    # chrome left out whole (navigation, an aside, a closed dialog) is previewed in the log,
    # but not when the page's styles hide something inside it
    page = ("<html><head><style>.h{display:none} .f{font-size:0}</style></head><body>"
            "<nav>Menu <span class=h>SECRET-A</span><p class=f>SECRET-B</p></nav>"
            "<aside><p style='opacity:0'>SECRET-D</p></aside><nav>Plain menu</nav><dialog>SECRET-C</dialog>"
            f"<article>{STORY}</article></body></html>")
    removed = unclutter.extract(page, explain=True).removed
    previews = [r.preview for r in removed]
    assert not any("SECRET" in p for p in previews)
    assert "Plain menu" in previews


def test_has_selectors_and_rule_floods_stay_bounded() -> None:
    import pytest

    from unclutter.errors import InputTooComplexError

    assert css.tame_has("div:has(div div .c)") == "div:has(.c)"
    assert css.tame_has("a:has(> b)") == "a:has(b)" and css.tame_has(".x") == ".x"
    # lexbor's :has() with descendant combinators is exponential on a deep tree: cut to a superset
    deep = "<div>" * 80 + "<p class=c>PLANTED</p>" + "</div>" * 80
    page = f"<html><head><style>div:has(div div div div div .c){{display:none}}</style></head><body>{deep}</body></html>"
    start = time.perf_counter()
    hidden = _hidden_texts(page)
    assert time.perf_counter() - start < 10  # hang guard (seconds without the cut)
    assert any("PLANTED" in t for t in hidden)
    # thousands of hiding rules that all apply: refused, not read in part
    rules = "".join(f"article .q{i} span{{opacity:0}}" for i in range(2000))
    spans = "".join(f"<p class=q{i}><span>s{i}</span></p>" for i in range(2000))
    with pytest.raises(InputTooComplexError):
        unclutter.extract(f"<html><head><style>{rules}</style></head><body><article>{STORY}{spans}</article></body></html>")


def test_a_flood_of_hiding_selectors_is_refused_before_lexbor_compiles_it(monkeypatch) -> None:
    import pytest

    from unclutter.errors import InputTooComplexError
    from unclutter.parse import html as parse_html_module
    from unclutter.prune import page_styles
    from unclutter.prune.css import MAX_HIDING_SELECTORS

    # lexbor compiles a list of :not() selectors in about quadratic time: a list over the
    # limit is counted and refused, never handed to lexbor whole
    compiled: list[int] = []
    real = page_styles.combined_selector

    def counting(tree, selectors):
        compiled.append(len(selectors))
        return real(tree, selectors)

    monkeypatch.setattr(page_styles, "combined_selector", counting)
    monkeypatch.setattr(parse_html_module, "combined_selector", counting)
    flood = ",".join(f"p:not(.x{i})" for i in range(4 * MAX_HIDING_SELECTORS))
    with pytest.raises(InputTooComplexError, match="limit"):
        unclutter.extract(f"<html><head><style>{flood}{{display:none}}</style></head><body><article>{STORY}</article></body></html>")
    assert all(n <= MAX_HIDING_SELECTORS for n in compiled), compiled
    # rules naming classes the page lacks are not counted: the page is read, the log is bounded
    absent = ",".join(f".absent{i} p:not(.x{i})" for i in range(2 * MAX_HIDING_SELECTORS))
    compiled.clear()
    article = unclutter.extract(f"<html><head><style>{absent}{{display:none}}</style></head><body><article>{STORY}</article></body></html>")
    assert article.text.strip() and all(n <= MAX_HIDING_SELECTORS for n in compiled), compiled


def test_inline_styles_mode_reads_style_attributes_alone() -> None:
    import pytest

    from unclutter.core.errors import UsageError

    def page(hidden: str) -> str:
        return f"<html><body><article><h1>T</h1>{STORY}{hidden}{STORY}</article></body></html>"

    by_rule = page("<style>.x{display:none}</style><p class=x>SECRET kept by a rule</p>")
    assert "SECRET" not in unclutter.extract(by_rule).text
    inline = unclutter.extract(by_rule, styles="inline")
    assert "SECRET" in inline.text  # stylesheets are not read
    assert any("styles inline" in line for line in inline.trace)  # (what --explain shows)
    assert not any("styles inline" in line for line in unclutter.extract(by_rule).trace)
    # style attributes are read in both modes: display, size, position, both colours
    for hidden in ('<p style="display:none">SECRET</p>', '<p style="font-size:0">SECRET</p>',
                   '<p style="position:absolute;left:-9999px">SECRET</p>',
                   '<p style="color:#fff;background:#fff">SECRET</p>'):
        for mode in ("cascade", "inline"):
            assert "SECRET" not in unclutter.extract(page(hidden), styles=mode).text, (hidden, mode)
    # white text alone: on the white canvas when the page's styles are all known (it has
    # no stylesheet); with its stylesheets unread, the background is unknown and the text stays
    white = page('<p style="color:#fff">SECRET white</p>')
    for mode in ("cascade", "inline"):
        assert "SECRET" not in unclutter.extract(white, styles=mode).text, mode
    styled = white.replace("<body>", "<body><style>.y{margin:0}</style>")
    assert "SECRET" not in unclutter.extract(styled).text
    assert "SECRET" in unclutter.extract(styled, styles="inline").text
    with pytest.raises(UsageError, match="styles must be one of cascade, inline"):
        unclutter.extract(by_rule, styles="none")
