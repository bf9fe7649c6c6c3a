"""A few seconds of property-based fuzzing of the extraction path (the fallback of
fuzz/fuzz_extract.py where atheris is not installed; the long runs live there).

Hypothesis builds HTML from pieces the pipeline branches on (tags, attributes, CSS,
entities, Markdown-special characters, invisible Unicode, raw bytes) and runs each page
through the harness's own ``run_one``: every option set of ``MODES``, then ``chunk``. Any
exception other than an ``UnclutterError`` fails the test.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

import unclutter  # noqa: E402

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
_spec = importlib.util.spec_from_file_location("fuzz_extract", FUZZ / "fuzz_extract.py")
fuzz_extract = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz_extract)

#: Hang guard per page (seconds): generous, a page here is at most a few kB.
HANG_GUARD_S = 30

_TAGS = ["div", "p", "span", "a", "ul", "ol", "li", "table", "tr", "td", "th", "pre", "code",
         "blockquote", "h1", "h2", "img", "figure", "figcaption", "article", "main", "nav",
         "aside", "section", "style", "script", "noscript", "svg", "math", "template", "b", "i",
         "sup", "sub", "br", "hr", "iframe", "picture", "source", "dl", "dt", "dd", "title", "meta"]
_ATTRS = ["class", "id", "style", "href", "src", "srcset", "alt", "hidden", "colspan", "rowspan",
          "aria-hidden", "type", "content", "name", "property", "lang", "data-src", "width", "media"]
_VALUES = st.one_of(
    st.sampled_from(["display:none", "transform:translate(-9999px,0)", "visibility:hidden",
                     "https://example.com/a?b=1&c=2", "javascript:alert(1)", "a.jpg 1x, b.jpg 2x",
                     "3", "0", "65534", "-1", "sr-only hidden comments", "application/ld+json",
                     "math/tex", "og:title", "author", "(max-width:0px)", "content"]),
    st.text(max_size=30),
)
_TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["&amp;", "&#x1F600;", "&#0;", "&nbsp;", "\u200b", "\u202e", "*_`[]#|", "/*",
                     "```", "# heading", "1. item", "- item", "<!--", "]]>", "\\", "$x$",
                     '{"@type":"Article","articleBody":"body"}', "By Ann Author | Site"]),
)


@st.composite
def _fragment(draw, depth=0):
    if depth > 4 or draw(st.integers(0, 3)) == 0:
        return draw(_TEXT)
    tag = draw(st.sampled_from(_TAGS))
    attrs = "".join(f' {draw(st.sampled_from(_ATTRS))}="{draw(_VALUES)}"'
                    for _ in range(draw(st.integers(0, 3))))
    inner = "".join(draw(st.lists(_fragment(depth + 1), max_size=4)))
    closed = draw(st.booleans()) or tag in ("style", "script", "title")
    return f"<{tag}{attrs}>{inner}" + (f"</{tag}>" if closed else "")


_PAGES = st.one_of(
    st.lists(_fragment(), max_size=6).map("".join).map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.binary(max_size=300),
)


def _run(data: bytes) -> None:
    start = time.perf_counter()
    fuzz_extract.run_one(data, unclutter)
    took = time.perf_counter() - start
    assert took < HANG_GUARD_S, f"{took:.1f} s on {len(data)} bytes"


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_PAGES)
def test_generated_pages_raise_only_library_errors(data):
    _run(data)


@pytest.mark.parametrize("path", sorted(FUZZ.glob("corpus/*.html")), ids=lambda p: p.name)
def test_seed_corpus_pages_pass_the_harness(path):
    _run(path.read_bytes())


def test_harness_reports_foreign_exceptions(monkeypatch):
    """The harness must let a non-library exception out (the crash the fuzzer records)."""
    def boom(*args, **kwargs):
        raise KeyError("not an UnclutterError")

    monkeypatch.setattr(unclutter, "extract", boom)
    with pytest.raises(KeyError):
        fuzz_extract.run_one(b"<p>x</p>", unclutter)
