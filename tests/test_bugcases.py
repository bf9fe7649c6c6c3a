"""The shared bug cases (../shared/bugcases): each page's `with` snippets must appear in the
main text, its `without` snippets must not appear anywhere in the output (Markdown, text or
JSON), and its `markdown_with` fragments must appear verbatim in the Markdown."""

from __future__ import annotations

import json

import pytest

import unclutter
from conftest import BUGCASES

CASES = sorted(p.stem for p in BUGCASES.glob("*.json")) if BUGCASES.exists() else []

#: The page URL the cases are extracted with (relative links resolve against it).
CASE_URL = "https://example.org/article/page.html"


def _bugcase(name: str) -> bytes:
    path = BUGCASES / name
    if not path.exists():
        pytest.skip(f"shared bug cases not found at {BUGCASES}")
    return path.read_bytes()


def _normalise(s: str) -> str:
    return " ".join(s.split())


@pytest.mark.parametrize("name", CASES)
def test_bugcase(name):
    spec = json.loads((BUGCASES / f"{name}.json").read_text(encoding="utf-8"))
    data = (BUGCASES / f"{name}.html").read_bytes()
    headers = spec.get("serve_headers") or {}
    ctype = headers.get("Content-Type", "")
    charset = ctype.split("charset=")[1].strip() if "charset=" in ctype else None
    article = unclutter.extract(data, url=CASE_URL, http_charset=charset)
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


def test_structured_data_fallback_is_labelled():
    data = _bugcase("19-body-only-in-json-ld-and-next-data.html")
    article = unclutter.extract(data, url=CASE_URL)
    assert article.content_source == "structured-data"
    visible = unclutter.extract(
        b"<html><body><article>" + b"<p>A visible paragraph, with commas, clauses, and enough words to count.</p>" * 5
        + b"</article></body></html>", url=CASE_URL)
    assert visible.content_source == "dom"


def test_forum_thread_keeps_posts_in_order():
    data = _bugcase("21-forum-thread-multiple-posts.html")
    text = unclutter.extract(data, url=CASE_URL).text
    order = ["oak cupboard door", "front one moves", "front screw helped", "loosen the screws"]
    positions = [text.find(s) for s in order]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)
    # the Markdown marks where each of the four posts ends
    markdown = unclutter.extract(data, url=CASE_URL).markdown
    parts = markdown.split("\n---\n")
    assert len(parts) == 4 and all(s in part for s, part in zip(order, parts)), markdown


def test_lazy_image_appears_once():
    data = _bugcase("08-lazy-images-and-captions.html")
    md = unclutter.extract(data, url=CASE_URL).markdown
    assert md.count("tidepool-1200.jpg") == 1
