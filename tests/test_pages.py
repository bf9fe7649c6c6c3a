"""The golden pages in ``tests/pages``: small hand-built pages, each with hand-written
expectations (``spec.json``) and the output the code gave when it was last reviewed
(``expected.md``, ``expected.json``; see ``tests/pages/README.md``).

For each case: its ``with`` snippets must appear in the main text, its ``without`` snippets
nowhere in the output (Markdown, text or JSON), its ``markdown_with`` fragments verbatim
in the Markdown; and the Markdown and JSON record must equal the expected files."""

from __future__ import annotations

import importlib.util
import json

import pytest

import unclutter
from conftest import PAGES

_spec = importlib.util.spec_from_file_location("pages_regenerate", PAGES / "regenerate.py")
regenerate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regenerate)

CASES = regenerate.case_names()
CASE_URL = regenerate.CASE_URL

REGENERATE_HINT = ("if the change of output is intended, run `python tests/pages/regenerate.py {case}` "
                   "and review `git diff tests/pages` before committing")


def _page(case: str) -> bytes:
    return (PAGES / case / "source.html").read_bytes()


def _normalise(s: str) -> str:
    return " ".join(s.split())


def test_the_golden_pages_are_present():
    assert len(CASES) >= 12, f"golden pages missing under {PAGES}"


@pytest.mark.parametrize("case", CASES)
def test_page_meets_its_spec(case):
    spec = regenerate.read_spec(case)
    article = regenerate.extract_case(case)
    text = _normalise(article.text)
    everything = article.markdown + "\n" + article.text + "\n" + json.dumps(article.to_dict(), ensure_ascii=False)
    for snippet in spec.get("with", []):
        assert _normalise(snippet) in text, f"missing {snippet!r}"
    for snippet in spec.get("without", []):
        assert snippet not in everything, f"leaked {snippet!r}"
    for fragment in spec.get("markdown_with", []):
        # markdown_with assumes relative links stay as written or resolve against the page URL
        if fragment.startswith("[") and "](/" in fragment:
            fragment = fragment.replace("](/", "](https://example.org/")
        assert fragment in article.markdown, f"markdown lacks {fragment!r}"
    for fragment in spec.get("markdown_without", []):
        assert fragment not in article.markdown, f"markdown holds {fragment!r}"


@pytest.mark.parametrize("case", CASES)
def test_page_output_equals_the_expected_files(case):
    new = regenerate.outputs(case)
    for name, text in new.items():
        expected = regenerate.stored(case, name)
        assert expected is not None, f"tests/pages/{case}/{name} is missing: " + REGENERATE_HINT.format(case=case)
        assert text == expected, f"tests/pages/{case}/{name} differs: " + REGENERATE_HINT.format(case=case)


def test_structured_data_fallback_is_labelled():
    data = _page("19-body-only-in-json-ld-and-next-data")
    article = unclutter.extract(data, url=CASE_URL)
    assert article.content_source == "structured-data"
    visible = unclutter.extract(
        b"<html><body><article>" + b"<p>A visible paragraph, with commas, clauses, and enough words to count.</p>" * 5
        + b"</article></body></html>", url=CASE_URL)
    assert visible.content_source == "dom"


def test_forum_thread_keeps_posts_in_order():
    data = _page("21-forum-thread-multiple-posts")
    text = unclutter.extract(data, url=CASE_URL).text
    order = ["oak cupboard door", "front one moves", "front screw helped", "loosen the screws"]
    positions = [text.find(s) for s in order]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)
    # the Markdown marks where each of the four posts ends
    markdown = unclutter.extract(data, url=CASE_URL).markdown
    parts = markdown.split("\n---\n")
    assert len(parts) == 4 and all(s in part for s, part in zip(order, parts)), markdown


def test_lazy_image_appears_once():
    data = _page("08-lazy-images-and-captions")
    md = unclutter.extract(data, url=CASE_URL).markdown
    assert md.count("tidepool-1200.jpg") == 1
