"""Tests of the benchmark metric (unclutter.measure.evaluate) and of bench/run.py.

Expected values are worked out by hand in the comments, from the AEB definition restated in
the module docstring of :mod:`unclutter.measure.evaluate`.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from unclutter.measure.evaluate import (
    PageCounts,
    aggregate,
    aggregate_snippets,
    bootstrap_std,
    evaluate,
    normalize_for_snippets,
    page_counts,
    shingles,
    snippet_scores,
    tokenize,
)

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench" / "run.py"


# --------------------------------------------------------------------------- tokens, shingles


def test_tokens_are_unicode_word_runs_with_case_kept():
    assert tokenize("Hello, world! Ünïcode_x 42 -- it's") == [
        "Hello", "world", "Ünïcode_x", "42", "it", "s"]
    assert tokenize("日本語 テキスト、Привет") == ["日本語", "テキスト", "Привет"]
    assert tokenize("") == [] and tokenize(None) == [] and tokenize("... --- !!!") == []


def test_shingles_of_four_tokens_as_a_multiset():
    assert shingles("a b c d e") == Counter({("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1})
    # six a's: positions 0..2 each start an (a, a, a, a) shingle
    assert shingles("a a a a a a") == Counter({("a", "a", "a", "a"): 3})
    assert shingles("one, two, three, four") == Counter({("one", "two", "three", "four"): 1})


def test_short_text_gives_one_shingle_and_empty_text_none():
    assert shingles("just two") == Counter({("just", "two"): 1})
    assert shingles("single") == Counter({("single",): 1})
    assert shingles("") == Counter()
    assert shingles("  ,;  ") == Counter()


# --------------------------------------------------------------------------- one page


def test_page_counts_are_normalised_to_one():
    # true {abcd, bcde}, pred {abcd, bcdx}: TP 1, FP 1, FN 1 -> a third each
    c = page_counts("a b c d e", "a b c d x")
    assert c.tp == pytest.approx(1 / 3) and c.fp == pytest.approx(1 / 3)
    assert c.fn == pytest.approx(1 / 3)
    assert c.precision == pytest.approx(0.5) and c.recall == pytest.approx(0.5)


def test_page_counts_use_multiset_counts():
    # true: 3 x (aaaa); pred: 1 x (aaaa) -> TP 1, FP 0, FN 2 -> (1/3, 0, 2/3)
    c = page_counts("a a a a a a", "a a a a")
    assert (c.tp, c.fp, c.fn) == pytest.approx((1 / 3, 0.0, 2 / 3))
    assert c.precision == pytest.approx(1.0) and c.recall == pytest.approx(1 / 3)
    # and the other way round: pred repeats a shingle the truth has once -> FP
    c = page_counts("a a a a", "a a a a a")  # true 1 x aaaa, pred 2 x aaaa
    assert (c.tp, c.fp, c.fn) == pytest.approx((0.5, 0.5, 0.0))


def test_case_and_punctuation():
    # case is kept: "The" != "the"; punctuation and spacing are ignored
    assert page_counts("The cat sat down", "the cat sat down").tp == 0
    assert page_counts("The cat sat down.", "The  cat,\nsat -- down").precision == 1.0


def test_empty_prediction_and_empty_truth():
    nothing_predicted = page_counts("a b c d e", "")
    assert nothing_predicted.precision is None  # left out of the precision mean
    assert nothing_predicted.recall == 0.0
    nothing_true = page_counts("", "a b c d e")
    assert nothing_true.recall is None  # left out of the recall mean
    assert nothing_true.precision == 0.0
    both_empty = page_counts("", "")
    assert (both_empty.tp, both_empty.fp, both_empty.fn) == (0.0, 0.0, 0.0)
    assert both_empty.precision is None and both_empty.recall is None


def test_length_does_not_change_a_page_weight():
    short = page_counts("a b c d e", "a b c d x")
    long_true = " ".join(f"w{i}" for i in range(400))
    long_pred = " ".join(f"w{i}" for i in range(200)) + " " + " ".join(
        f"z{i}" for i in range(200))
    long = page_counts(long_true, long_pred)
    assert long.tp + long.fp + long.fn == pytest.approx(1.0)
    assert short.tp + short.fp + short.fn == pytest.approx(1.0)
    # 397 true shingles, 397 predicted, 197 shared -> P = R = 197/397
    assert long.precision == pytest.approx(197 / 397)
    assert long.recall == pytest.approx(197 / 397)


# --------------------------------------------------------------------------- many pages


def test_aggregate_means_then_harmonic_mean():
    pages = [
        page_counts("a a a a a a", "a a a a"),  # P 1,   R 1/3
        page_counts("a b c d e", "a b c d x"),  # P 1/2, R 1/2
        page_counts("a b c d e", ""),  # P -,   R 0
    ]
    s = aggregate(pages)
    assert s.n_pages == 3 and s.n_precision == 2 and s.n_recall == 3
    assert s.precision == pytest.approx(3 / 4)  # (1 + 1/2) / 2
    assert s.recall == pytest.approx(5 / 18)  # (1/3 + 1/2 + 0) / 3
    # F1 = 2 * 3/4 * 5/18 / (3/4 + 5/18) = (5/12) / (37/36) = 15/37
    assert s.f1 == pytest.approx(15 / 37)
    # which is not the mean of the per-page F1s (1/2, 1/2, 0) = 1/3
    assert s.f1 != pytest.approx(1 / 3)


def test_page_without_truth_counts_against_precision_only():
    s = aggregate([page_counts("a b c d e", "a b c d e"), page_counts("", "x y z w")])
    assert s.precision == pytest.approx(0.5)  # (1 + 0) / 2
    assert s.recall == pytest.approx(1.0)  # only the first page has a truth
    assert s.f1 == pytest.approx(2 / 3)  # 2 * 0.5 * 1 / 1.5


def test_no_prediction_at_all_is_f1_zero_and_no_truth_is_undefined():
    s = aggregate([page_counts("a b c d", ""), page_counts("e f g h", "")])
    assert s.precision is None and s.recall == 0.0 and s.f1 == 0.0
    s = aggregate([])
    assert s.precision is None and s.recall is None and s.f1 is None


def test_evaluate_with_bootstrap_is_reproducible():
    pairs = [("a b c d e f g", "a b c d e f g"), ("a b c d e", "a b c d x"),
             ("p q r s t", ""), ("one two three four five", "one two three four")]
    first, second = evaluate(pairs), evaluate(pairs)
    assert first.f1_std == second.f1_std and first.f1_std > 0
    assert first.precision_std is not None and first.recall_std is not None
    assert first.f1_ci95 == pytest.approx(1.96 * first.f1_std)
    assert evaluate(pairs, seed=1).f1_std != first.f1_std  # the seed matters
    no_bootstrap = evaluate(pairs, resamples=0)
    assert no_bootstrap.f1 == first.f1 and no_bootstrap.f1_std is None


def test_bootstrap_of_identical_pages_has_no_spread():
    pages = [PageCounts(0.5, 0.25, 0.25)] * 20
    p_std, r_std, f_std = bootstrap_std(pages, resamples=50)
    assert p_std == pytest.approx(0.0) and r_std == pytest.approx(0.0)
    assert f_std == pytest.approx(0.0)
    assert bootstrap_std([]) == (None, None, None)


def test_bootstrap_spread_matches_the_standard_error():
    # half the pages P = R = 1, half P = R = 0: the std of the mean of n draws is
    # sqrt(0.25 / n) = 0.05 for n = 100 (within bootstrap noise)
    pages = [PageCounts(1.0, 0.0, 0.0)] * 50 + [PageCounts(0.0, 0.5, 0.5)] * 50
    p_std, r_std, _ = bootstrap_std(pages, resamples=1000)
    assert p_std == pytest.approx(0.05, abs=0.006)
    assert r_std == pytest.approx(0.05, abs=0.006)


# --------------------------------------------------------------------------- snippets


def test_snippet_matching_ignores_case_and_whitespace():
    assert normalize_for_snippets("  The QUICK\n\tbrown  fox ") == "the quick brown fox"
    s = snippet_scores("The quick  brown\nfox jumps over it.",
                       ["QUICK brown fox", "lazy dog"], ["Jumps", "cookie policy", "  "])
    assert s.with_hit == 0.5 and (s.with_found, s.with_total) == (1, 2)
    # the blank "without" snippet is ignored: 1 of 2 absent
    assert s.without_clean == 0.5 and (s.without_absent, s.without_total) == (1, 2)


def test_snippet_lists_missing_or_empty_prediction():
    s = snippet_scores("anything", None, [])
    assert s.with_hit is None and s.without_clean is None
    s = snippet_scores(None, ["a"], ["b"])
    assert s.with_hit == 0.0 and s.without_clean == 1.0


def test_snippet_rates_average_over_pages_that_have_lists():
    pages = [snippet_scores("alpha beta", ["alpha"], None),  # with 1.0
             snippet_scores("alpha beta", ["alpha", "gamma"], ["beta"]),  # with 0.5, w/o 0
             snippet_scores("alpha beta", None, ["delta"])]  # w/o 1.0
    summary = aggregate_snippets(pages)
    assert summary.with_hit == pytest.approx(0.75) and summary.n_with == 2
    assert summary.without_clean == pytest.approx(0.5) and summary.n_without == 2


# --------------------------------------------------------------------------- bench/run.py


def _page(body: str) -> str:
    return (f"<!DOCTYPE html><html><head><title>t</title></head><body><nav>Menu Home</nav>"
            f"{body}<footer>Copyright notice</footer></body></html>")


@pytest.fixture()
def shared(tmp_path: Path) -> Path:
    """A tiny shared/ tree: one dataset with html (plain and gzipped, snippets, page types,
    injected faults) and one without html (must be skipped)."""
    ds = tmp_path / "shared" / "datasets" / "mini"
    (ds / "html").mkdir(parents=True)
    text = "The first paragraph has several words in it. The second one too, with more."
    (ds / "html" / "ok.html").write_text(
        _page("<p>The first paragraph has several words in it.</p>"
              "<p>The second one too, with more.</p>"), encoding="utf-8")
    (ds / "html" / "gz.html.gz").write_bytes(gzip.compress(
        _page("<p>Only half of the text is here.</p>").encode()))
    (ds / "html" / "fault.html").write_text(_page("<p>x</p>"), encoding="utf-8")
    base = {"title": None, "expected_html": None}
    cases = [
        {"id": "ok", "html": "html/ok.html", "url": "https://e.org/ok", "text": text,
         "with": ["FIRST paragraph"], "without": ["Copyright notice"],
         "meta": {"page_type": "article"}},
        {"id": "gz", "html": "html/gz.html.gz", "url": "https://e.org/gz",
         "text": "Only half of the text is here. The other half is not in the page at all.",
         "with": None, "without": None, "meta": {"page_type": "forum"}},
        {"id": "raise", "html": "html/fault.html", "url": "https://e.org/?bench-fault=raise",
         "text": text, "with": None, "without": None, "meta": {"page_type": "article"}},
        {"id": "sleep", "html": "html/fault.html", "url": "https://e.org/?bench-fault=sleep",
         "text": text, "with": None, "without": None, "meta": {"page_type": "article"}},
        {"id": "abort", "html": "html/fault.html", "url": "https://e.org/?bench-fault=abort",
         "text": text, "with": None, "without": None, "meta": {"page_type": "article"}},
        {"id": "hang", "html": "html/fault.html", "url": "https://e.org/?bench-fault=hang",
         "text": None, "with": ["x"], "without": None, "meta": {"page_type": "forum"}},
        {"id": "last", "html": "html/ok.html", "url": "https://e.org/last", "text": text,
         "with": None, "without": None, "meta": {"page_type": "forum"}},
    ]
    (ds / "cases.jsonl").write_text(
        "".join(json.dumps({**base, **c}) + "\n" for c in cases), encoding="utf-8")
    other = tmp_path / "shared" / "datasets" / "no-html"
    other.mkdir(parents=True)
    (other / "pairs.jsonl").write_text('{"id": "1", "source": "s"}\n', encoding="utf-8")
    return tmp_path / "shared"


def _run_bench(shared: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(BENCH), "--shared", str(shared), "--out", str(out), *extra],
        capture_output=True, text=True, timeout=120, cwd=str(REPO))


def test_bench_scores_and_survives_crashes_and_timeouts(shared: Path, tmp_path: Path):
    out = tmp_path / "results" / "r.json"
    proc = _run_bench(shared, out, "--extractors", "fake", "--timeout", "1", "--grace", "1")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert list(report["datasets"]) == ["mini"]  # no-html dataset skipped
    ds = report["datasets"]["mini"]
    assert ds["cases"] == 7 and ds["cases_with_text"] == 6 and ds["cases_with_snippets"] == 2
    fake = ds["extractors"]["fake"]
    status = {p["id"]: p["status"] for p in fake["per_page"]}
    assert status == {"ok": "ok", "gz": "ok", "raise": "crash", "sleep": "timeout",
                      "abort": "crash", "hang": "timeout", "last": "ok"}
    assert fake["crashes"] == 2 and fake["timeouts"] == 2 and fake["restarts"] == 2
    # per page: ok and last P = R = 1; the faults predict nothing (P left out, R = 0)
    per = {p["id"]: p for p in fake["per_page"]}
    assert per["ok"]["p"] == 1.0 and per["ok"]["r"] == 1.0
    # gz: pred "Only half of the text is here" = 7 tokens, 4 shingles, all in the truth
    # (17 tokens, 14 shingles) -> P 1, R 4/14
    assert per["gz"]["p"] == 1.0 and per["gz"]["r"] == pytest.approx(4 / 14)
    assert "p" not in per["hang"]  # null text: no P/R, only snippets
    s = fake["scores"]
    assert s["n_precision"] == 3 and s["n_recall"] == 6
    assert s["precision"] == pytest.approx(1.0)
    assert s["recall"] == pytest.approx((1 + 4 / 14 + 1) / 6)
    # snippets: ok finds its "with" and has no footer; hang found nothing
    assert fake["snippets"]["with_hit"] == pytest.approx(0.5)
    assert fake["snippets"]["without_clean"] == pytest.approx(1.0)
    assert set(ds["page_types"]) == {"article", "forum"}
    assert fake["pages_per_s"] > 0 and fake["peak_rss_mb"] > 0
    md = out.with_suffix(".md").read_text()
    assert "## mini" in md and "| fake |" in md and "F1 by page type" in md
    assert "| fake |" in proc.stdout


def test_bench_reports_an_unavailable_extractor_and_rejects_unknown_names(
        shared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "r.json"
    proc = _run_bench(shared, out, "--extractors", "nope")
    assert proc.returncode == 2 and "unknown extractor" in proc.stderr
    proc = _run_bench(shared, out, "--datasets", "no-html")
    assert proc.returncode == 2 and "unknown dataset" in proc.stderr
    proc = _run_bench(shared, out, "--extractors", "fake,unclutter", "--limit", "2")
    assert proc.returncode == 0, proc.stderr
    ds = json.loads(out.read_text())["datasets"]["mini"]
    assert ds["cases"] == 2
    assert ds["extractors"]["fake"]["crashes"] == 0
    ours = ds["extractors"]["unclutter"]
    # whatever state the package is in, the bench reports it instead of failing: either
    # unavailable (no unclutter.extract yet) or one row per page plus the speed ratio
    if "unavailable" not in ours:
        assert [p["id"] for p in ours["per_page"]] == ["ok", "gz"]
        assert "fake" in ds["unclutter_speed_ratio"]


def test_repeated_runs_keep_each_page_fastest_time_and_the_first_status():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_run", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    first = {"pages": [{"status": "ok", "sec": 0.5, "cpu": 0.4, "text": "a"},
                       {"status": "ok", "sec": 0.2, "cpu": 0.2, "text": "b"},
                       {"status": "timeout", "sec": 1.0, "cpu": 0.0, "text": ""}],
             "rss_peak_kb": 100}
    again = {"pages": [{"status": "ok", "sec": 0.3, "cpu": 0.35, "text": "a"},
                       {"status": "ok", "sec": 0.4, "cpu": 0.1, "text": "b"},
                       {"status": "crash", "sec": 0.0, "cpu": 0.0, "text": ""}],
             "rss_peak_kb": 120}
    merged = bench.merge_runs(first, again)
    assert [(p["sec"], p["cpu"]) for p in merged["pages"]] == [(0.3, 0.35), (0.2, 0.1), (1.0, 0.0)]
    assert merged["pages"][2]["status"] == "timeout"  # a different outcome is not folded in
    assert merged["rss_peak_kb"] == 120 and merged["runs"] == 2
    assert bench.merge_runs({"unavailable": "x"}, again) == {"unavailable": "x"}


def test_bench_repeat_runs_every_pair_again(shared: Path, tmp_path: Path):
    out = tmp_path / "r.json"
    proc = _run_bench(shared, out, "--extractors", "fake", "--limit", "2", "--repeat", "2")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert report["settings"]["repeat"] == 2
    assert proc.stderr.count("[mini] fake:") == 2
    assert "2 interleaved runs per pair" in out.with_suffix(".md").read_text()
