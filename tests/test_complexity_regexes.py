"""No regex of the package takes super-linear time on page-controlled input.

Two kinds of test:

* a hang guard over every compiled pattern of the package (bench/complexity.py's
  collector and adversarial inputs): the input shapes growing fastest between 64 and 512
  characters are run once at 50,000 characters and must finish within a generous limit
  (linear patterns take milliseconds there, quadratic ones many seconds). Growth targets
  themselves live in bench/complexity.py;
* each pattern written for linear time gives the same answers as a plainer reference
  pattern (kept here) on generated inputs made of that pattern's own pieces.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from unclutter.parse import decode, depth, guards, html as html_mod, metadata  # noqa: E402
from unclutter.prune import media, rules  # noqa: E402
from unclutter.reconstruct import images, plaintext  # noqa: E402
from unclutter.structure import chunk, toc  # noqa: E402
from unclutter.summarize import llm  # noqa: E402

BENCH = Path(__file__).resolve().parent.parent / "bench" / "complexity.py"
_spec = importlib.util.spec_from_file_location("bench_complexity", BENCH)
complexity = importlib.util.module_from_spec(_spec)
sys.modules["bench_complexity"] = complexity  # (its dataclasses look their module up)
_spec.loader.exec_module(complexity)

#: Patterns the guard leaves out, and why. Each reason is checked where it can be.
KNOWN = {
    # Quadratic on a tag start with no ">" after it; every caller bounds the scan at the
    # last ">" (depth._tags_end), see test_tag_scans_are_linear_where_used.
    "unclutter.parse.depth._TAG_RE": "callers scan up to the last '>' only",
    # Quadratic searched from every character of a long name run ("--aaaa...") with no ":"
    # after it; only matched at a name start whose look-behind holds, see
    # test_declaration_scans_are_linear_where_used.
    "unclutter.prune.css.triggers._CUSTOM_AT_RE": "matched only at a checked name start",
    "unclutter.prune.css.triggers._COLOUR_AT_RE": "matched only at a checked name start",
}

#: Hang guard: seconds one operation may take on a 50,000-character input.
GUARD_LIMIT_S = 2.0


def test_no_pattern_hangs_on_adversarial_input():
    patterns = [p for p in complexity.collect_patterns() if p.name not in KNOWN]
    assert len(patterns) > 100  # the collector found the package's patterns
    bad = complexity.guard_patterns(patterns, size=50_000, limit_s=GUARD_LIMIT_S, timeout_s=30)
    assert not bad, "\n".join(f"{name}: {failures}" for name, failures in bad.items())


def test_known_exceptions_are_still_collected():
    """A KNOWN entry whose pattern is gone must leave the list."""
    names = {p.name for p in complexity.collect_patterns()}
    assert set(KNOWN) <= names


def test_declaration_scans_are_linear_where_used():
    """The two-step declaration scans on the shapes that make their patterns quadratic when
    searched: name runs without a colon, names inside rejected values, dash runs."""
    from unclutter.prune.css import triggers

    n = 100_000
    assert triggers.custom_declarations("-" * (3 * n)) == []
    assert triggers.custom_declarations("x--a:" * n) == []
    assert triggers.custom_declarations("--" + "a" * (3 * n)) == []
    assert triggers.colour_declarations("xcolor:" * n) == []
    assert triggers.colour_declarations(("color" + " " * 50) * n)[:1] == []
    assert len(triggers.colour_declarations(";color:red" * n)) == n


def test_tag_scans_are_linear_where_used():
    """``_TAG_RE`` is only used up to the last ``>``; tag starts without one cost nothing."""
    page = "<div>" * 6000 + "<a" * 200_000  # over MAX_DOM_DEPTH '<', no '>' after the "<a"s
    assert depth.estimate_depth(page) == 6000
    assert depth.simulated_depth(page) == 6000


def test_checker_flags_a_quadratic_pattern():
    """The checker itself: a classic quadratic search is flagged, a linear one is not."""
    slow = complexity.check_pattern(re.compile(r"\s+x"), {"search"}, n=2000)
    fast = complexity.check_pattern(re.compile(r"\w+"), {"findall"}, n=2000)
    assert slow.flagged and slow.ratio > 20
    assert not fast.flagged


# --- linear patterns: same answers as their reference patterns -------------------------------

def _texts(pieces, max_size=30):
    return st.lists(st.sampled_from(pieces), max_size=max_size).map("".join)


_OLD_STYLE_BULK = re.compile(r"--[\w-]+\s*:[^;]*;?|url\([^)]*\)", re.IGNORECASE)


@settings(max_examples=300, deadline=None)
@given(_texts(["--", "-", "a", "é", "_", ":", ";", " ", "\t", "url(", "URL(", "ur", "l(", "(", ")", "x", "9"]))
def test_strip_style_bulk_matches_the_regex(style):
    assert html_mod._strip_style_bulk(style) == _OLD_STYLE_BULK.sub("", style)


_OLD_MATHJAX = re.compile(
    r"""<script\b[^>]*\bsrc\s*=\s*["']?[^"'>\s]*mathjax|MathJax\.Hub\.Config|\bMathJax\s*=\s*\{""", re.IGNORECASE)


@settings(max_examples=300, deadline=None)
@given(_texts(["<script", "<SCRIPT", " ", "src", "SRC", "=", '"', "'", ">", "mathjax", "MathJax", "x", "/",
               "a", "{", ".Hub.Config", "-", "\n"]))
def test_loads_mathjax_matches_the_regex(page):
    assert html_mod.loads_mathjax(page) == (_OLD_MATHJAX.search(page) is not None)


_OLD_TEX_STYLE = re.compile(r"^\{\\(?:display|text)style\s*(.*)\}$", re.DOTALL)


@settings(max_examples=300, deadline=None)
@given(_texts(["{\\displaystyle", "{\\textstyle", " ", "\n", "}", "x", "{", "\t"]))
def test_tex_style_matches_the_regex(tex):
    old, new = _OLD_TEX_STYLE.match(tex), html_mod.TEX_STYLE_RE.match(tex)
    assert (old and old.group(1)) == (new and new.group(1))


_OLD_META_CHARSET = re.compile(rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_:.()+-]+)""", re.IGNORECASE)


@settings(max_examples=300, deadline=None)
@given(_texts(["<meta", "<META", " ", "charset", "CharSet", "=", '"', "'", ">", "utf-8", "x", "<"]), st.integers(0, 40))
def test_meta_charset_matches_the_regex(text, end):
    data = text.encode()
    end = min(end, len(data)) if end else len(data)
    old = _OLD_META_CHARSET.search(data, 0, end)
    assert decode._meta_charset(data, end) == (old.group(1) if old else None)


_OLD_BYLINE_TRAILER = re.compile(
    r"\s+(?:(?:published|updated|last updated|posted on|posted)\b"
    r"|(?:posts|threads|joined|join date|reputation|messages|reaction score|likes received)\s*:).*$",
    re.IGNORECASE | re.DOTALL)
_OLD_TITLE_SEPARATOR = re.compile(r"\s+(\||::|[-\u2013\u2014\u00b7\u00bb\u2022])\s+")


@settings(max_examples=300, deadline=None)
@given(_texts([" ", "\n", "published", "posts", ":", "x", "Updated", "|", "-", "::", "\u2013", "a"]))
def test_metadata_space_runs_match_the_regexes(text):
    assert metadata.BYLINE_TRAILER_RE.sub("", text) == _OLD_BYLINE_TRAILER.sub("", text)
    assert metadata.TITLE_SEPARATOR_RE.split(text) == _OLD_TITLE_SEPARATOR.split(text)


_OLD_MEDIA_TOKEN = re.compile(r"[ \t\n\r\f]*(>=|<=|[<>=(),:/]|[^ \t\n\r\f<>=(),:/]+)")
_OLD_MEDIA_NUMBER = re.compile(r"^([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)([a-z%]*)$")


@settings(max_examples=300, deadline=None)
@given(_texts([" ", "\t", "(", ")", ">=", "<", "=", ":", "/", "1", "0", ".", "e", "-", "+", "px", "%", "a", "\n", "E"]))
def test_media_query_tokens_match_the_regexes(text):
    assert media._TOKEN_RE.findall(text) == _OLD_MEDIA_TOKEN.findall(text)
    old, new = _OLD_MEDIA_NUMBER.match(text), media._NUMBER_RE.match(text)
    assert (old and old.groups()) == (new and new.groups())


_OLD_DESCRIPTOR = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)([wxh])\s*$")


@settings(max_examples=300, deadline=None)
@given(_texts([" ", "1", "0", ".", "e", "E", "-", "+", "w", "x", "h", "\n", "a"]))
def test_srcset_descriptor_matches_the_regex(text):
    old, new = _OLD_DESCRIPTOR.match(text), images._DESCRIPTOR.match(text)
    assert (old and old.groups()) == (new and new.groups())


_OLD_ATX_CLOSE = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_OLD_CHUNK_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_OLD_TOC_ATX = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)


@settings(max_examples=400, deadline=None)
@given(_texts(["#", "##", " ", "\t", "a", "\n", "#######", "\r", "b c"]))
def test_atx_headings_match_the_regexes(text):
    assert plaintext._ATX_CLOSE.sub("", text) == _OLD_ATX_CLOSE.sub("", text)
    old, new = _OLD_CHUNK_ATX.match(text), chunk._ATX_RE.match(text)
    assert (old and old.groups()) == (new and new.groups())
    old_toc = [(m.start(), m.group(1), m.group(2)) for m in _OLD_TOC_ATX.finditer(text)]
    new_toc = [(m.start(), m.group(1), toc._heading_content(m.group(2), m.group(3)))
               for m in toc._ATX_RE.finditer(text)]
    assert old_toc == [entry for entry in new_toc if entry[2] is not None]


_OLD_WRAPPER_TAG = re.compile(r"<\s*(/?)\s*(document|summary)\s*>", re.I)


@settings(max_examples=300, deadline=None)
@given(_texts(["<", " ", "/", "document", "SUMMARY", ">", "\n", "x"]))
def test_llm_wrapper_tags_match_the_regex(text):
    old = _OLD_WRAPPER_TAG.sub(lambda m: f"[{m.group(1)}{m.group(2)}]", text)
    assert llm.wrap_document(text, "t") == f"<t>\n{old}\n</t>"


_OLD_CAPTION_TAIL = re.compile(r"(?:\s*(?:\.{3}|\u2026))?(?:\s*(?<!\w)(?:read more|more|less))?\s*$", re.I)


@settings(max_examples=300, deadline=None)
@given(_texts([" ", "\n", "...", "\u2026", "read more", "More", "less", "x", ".", "a"]))
def test_caption_tail_matches_the_regex(text):
    assert rules.CAPTION_TRUNCATION_TAIL_RE.sub("", text) == _OLD_CAPTION_TAIL.sub("", text)


@settings(max_examples=300, deadline=None)
@given(_texts(["<a", "<div", ">", "</div>", "/", " ", "x", "<", "<br/>", "<svg>"]))
def test_tag_scan_bound_changes_no_match(page):
    bounded = [m.span() for m in depth._TAG_RE.finditer(page, 0, depth._tags_end(page))]
    assert bounded == [m.span() for m in depth._TAG_RE.finditer(page)]


# --- the linear work behind the regexes' callers -----------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.recursive(st.text(alphabet=" \n\tab\u00a0", max_size=6),
                    lambda kids: st.lists(kids, max_size=4), max_leaves=20))
def test_collapsed_texts_match_text_content(shape):
    """The memoised collapsed text of every node equals its ``text_content`` collapsed."""
    from unclutter.core.dom import TEXT, Node
    from unclutter.score.cleaning import _CollapsedTexts

    def build(item):
        if isinstance(item, str):
            return Node(TEXT, text=item)
        node = Node("div", {})
        for child in item:
            node.append(build(child))
        return node

    root = build(shape if isinstance(shape, list) else [shape])
    collapsed = _CollapsedTexts()
    for node in root.iter_elements():
        assert collapsed(node) == " ".join(node.text_content().split())


def test_page_wide_attribute_budget_refuses_many_crowded_elements():
    """Each element under the per-element limit, the page over the page-wide one: refused
    before the parser's per-element name checks (seconds each) run."""
    import unclutter
    from unclutter.core.limits import MAX_ATTRIBUTE_PAIRS, MAX_ATTRIBUTES_PER_ELEMENT

    crowded = "<i " + " ".join(f"a{i}" for i in range(MAX_ATTRIBUTES_PER_ELEMENT - 1)) + ">x</i>"
    page = "<p>" + "words " * 50 + "</p>" + crowded * 2
    assert guards.attribute_pairs(page) > MAX_ATTRIBUTE_PAIRS
    with pytest.raises(unclutter.errors.InputTooComplexError):
        unclutter.extract(page)
    # inside a script the same text opens no tag: counted for nothing
    assert guards.attribute_pairs("<script>" + crowded * 2 + "</script>") == 0


@settings(max_examples=400, deadline=None)
@given(_texts(["color", "COLOR", "background", "Background-Color", "-webkit-text-fill-color", "-", "--", "x",
               "\u212a", "\u0130", ":", ";", " ", "\n", "!", "{", "}", "red", "#fff", "_", "9"]))
def test_stylesheet_declaration_scans_match_the_regexes(css):
    from unclutter.prune.css import triggers

    assert triggers.colour_declarations(css) == triggers._COLOUR_DECLARATION_RE.findall(css)
    assert triggers.custom_declarations(css) == triggers._CUSTOM_DECLARATION_RE.findall(css)
