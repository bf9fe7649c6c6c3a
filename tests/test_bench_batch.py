"""Tests of bench/batch.py's rival record functions (the harness itself runs in bench/)."""

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _bench_batch():
    spec = importlib.util.spec_from_file_location("bench_batch", REPO / "bench" / "batch.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_batch", module)
    spec.loader.exec_module(module)
    return module


def test_front_matter_is_read_back_into_fields_and_the_markdown_below_it():
    batch = _bench_batch()
    fields, body = batch._front_matter('---\ntitle: "Trams: a history"\nauthor: Ann Lee\ndate: 2024-05-01\n---\n# Trams\n\nText.')
    assert fields == {"title": "Trams: a history", "author": "Ann Lee", "date": "2024-05-01"}
    assert body == "# Trams\n\nText."
    # no front matter, or an unclosed one: the whole text is the Markdown
    assert batch._front_matter("# Trams\n\nText.") == ({}, "# Trams\n\nText.")
    assert batch._front_matter("---\ntitle: x\n# Trams") == ({}, "---\ntitle: x\n# Trams")


def test_trafilatura_markdown_record_fills_the_same_columns_as_unclutter():
    pytest.importorskip("trafilatura")
    batch = _bench_batch()
    from unclutter.batch.record import RECORD_FIELDS, PageInput

    story = "".join(f"<p>The council approved the tram extension, paragraph {i}, after a long debate about "
                    "costs, stops and the depot in the northern districts.</p>" for i in range(8))
    html = ("<html><head><title>Tram line extended</title><meta name='author' content='Ann Lee'>"
            "<meta property='article:published_time' content='2024-05-01T10:00:00Z'></head><body>"
            f"<article><h1>Tram line extended</h1>{story}</article></body></html>").encode()
    record = batch.trafilatura_markdown_record(PageInput(id="p1", source="p1.html", url="https://example.org/trams", data=html), None)
    assert set(record) == set(RECORD_FIELDS)
    assert record["status"] == "ok"
    assert record["title"] == "Tram line extended" and record["byline"] == "Ann Lee"
    assert record["date_published"] == "2024-05-01"
    assert "paragraph 7" in record["markdown"] and not record["markdown"].startswith("---")
