"""Summary benchmark: every available backend against Lead-3, in the same run.

::

    pip install -e '.[bench]'                 # rouge-score (ROUGE-1.5.5 re-implementation)
    python bench/summaries.py                 # 100 CNN/DailyMail pairs, extractive vs Lead-3
    python bench/summaries.py --embeddings    # + extractive with all-MiniLM-L6-v2 and the
                                              #   BERTScore-style score (needs [embeddings])
    python bench/summaries.py --transformers PATH   # + a local seq2seq summarizer
    python bench/summaries.py --tune          # grid search on pairs 1-50 only

Metrics (per system, mean over pairs; ``all`` and the held-out half ``51-100``):

* ROUGE-1/2/Lsum F1 x 100 (``rouge_score``, Porter stemming; Lsum on newline-split
  sentences, the convention papers report: each summary sentence on its own line);
* BERTScore-style F1 x 100 (when ``--embeddings``): greedy cosine matching of last-layer
  WordPiece embeddings of all-MiniLM-L6-v2 (Zhang et al. 2020, "BERTScore"), no idf
  weighting, no baseline rescaling, so its scale is not comparable to published BERTScore;
* readability of the summaries: Flesch Reading Ease, Flesch-Kincaid Grade, Gunning Fog
  (:mod:`unclutter.measure.readability`);
* words per summary, and milliseconds per summary.

Systems: ``lead-3`` (the first three sentences the splitter finds, the usual baseline),
``lead-3-clean`` (the first three sentences that pass the extractive backend's candidate
filter: shows how much of the gain is the filter), ``extractive`` (the default backend),
``extractive+prefer-simple`` (with the readability preference), and the optional ones.
Also reported: the time to summarize a 2,000-word article on one core.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from unclutter.measure.readability import readability  # noqa: E402
from unclutter.summarize.extractive import ExtractiveSummarizer, is_candidate  # noqa: E402
from unclutter.text.sentences import split_sentences  # noqa: E402


def default_data() -> Path:
    shared = Path(os.environ.get("UNCLUTTER_SHARED", REPO.parent / "shared"))
    return shared / "datasets" / "summ-cnndm-sample" / "pairs.jsonl"


def load_pairs(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def lead3(article: str) -> list[str]:
    return [s.text for s in split_sentences(article)][:3]


def lead3_clean(article: str) -> list[str]:
    return [s.text for s in split_sentences(article) if is_candidate(s.text)][:3]


def rouge(pairs_out: list[tuple[list[str], str]]) -> list[dict]:
    """ROUGE-1/2/Lsum F1 x 100 per pair (:func:`unclutter.measure.summaries.rouge`)."""
    from unclutter.measure.summaries import rouge as rouge_one

    keys = ("rouge1", "rouge2", "rougeLsum")
    return [{k: v for k, v in rouge_one(sents, ref).items() if k in keys} for sents, ref in pairs_out]


def bertscore_style(pairs_out: list[tuple[list[str], str]]) -> list[float]:
    """BERTScore-style F1 x 100 per pair (:func:`unclutter.measure.summaries.bertscore_style`)."""
    from unclutter.measure.summaries import bertscore_style as score

    return score([(" ".join(sents), ref) for sents, ref in pairs_out])


def evaluate(name: str, fn, pairs: list[dict], semantic: bool) -> dict:
    outs, times = [], []
    for p in pairs:
        t = time.perf_counter()
        sents = fn(p["article"])
        times.append(time.perf_counter() - t)
        outs.append((sents, p["reference"]))
    rs = rouge(outs)
    per = []
    for (sents, _), r in zip(outs, rs):
        rd = readability(" ".join(sents), sents)
        per.append({**r, "fre": rd.flesch_reading_ease, "fkgl": rd.flesch_kincaid_grade,
                    "fog": rd.gunning_fog, "words": rd.words})
    if semantic:
        for row, b in zip(per, bertscore_style(outs)):
            row["bertscore_style"] = b
    return {"system": name, "per_pair": per, "ms_per_summary": 1000 * statistics.mean(times)}


def summarize_rows(result: dict, idx: range | None = None) -> dict:
    rows = result["per_pair"] if idx is None else [result["per_pair"][i] for i in idx if i < len(result["per_pair"])]
    keys = [k for k in rows[0] if isinstance(rows[0][k], (int, float))]
    return {k: statistics.mean(r[k] for r in rows) for k in keys}


def table(results: list[dict], idx: range | None, label: str, semantic: bool) -> str:
    head = ["system", "R-1", "R-2", "R-Lsum"] + (["BERTScore-style"] if semantic else []) + [
        "FRE", "FKGL", "Fog", "words", "ms/summary"]
    lines = [f"**{label}**", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        m = summarize_rows(r, idx)
        cells = [r["system"], f"{m['rouge1']:.2f}", f"{m['rouge2']:.2f}", f"{m['rougeLsum']:.2f}"]
        if semantic:
            cells.append(f"{m.get('bertscore_style', float('nan')):.2f}")
        cells += [f"{m['fre']:.1f}", f"{m['fkgl']:.1f}", f"{m['fog']:.1f}", f"{m['words']:.1f}",
                  f"{r['ms_per_summary']:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def timing_2000_words(pairs: list[dict]) -> dict:
    """Seconds to summarize a 2,000-word article (concatenated pairs), pinned to one core:
    the first call (imports, CMU dictionary) and the median of 7 calls after it."""
    words: list[str] = []
    for p in pairs:
        words.extend(p["article"].split())
        if len(words) >= 2000:
            break
    text = " ".join(words[:2000])
    try:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    except (AttributeError, OSError):
        pass
    from unclutter.summarize import summarize_text

    t = time.perf_counter()
    summarize_text(text)  # first call: imports, CMU dictionary
    cold = time.perf_counter() - t
    runs = []
    for _ in range(7):
        t = time.perf_counter()
        summarize_text(text)
        runs.append(time.perf_counter() - t)
    return {"words": 2000, "median_s": statistics.median(runs), "max_s": max(runs), "first_call_s": cold,
            "what": "unclutter.summarize.summarize_text: extractive summary + grounding + readability"}


def tune(pairs: list[dict]) -> None:
    train = pairs[:50]
    grid = {
        "position_weight": [0.5, 1.0, 2.0, 4.0],
        "pacsum_beta": [0.0, 0.3, 0.6],
        "lambda_backward": [-1.0, -0.3, 0.0],
        "mmr_lambda": [0.6, 0.7, 0.85, 1.0],
    }
    best = []
    for values in itertools.product(*grid.values()):
        cfg = dict(zip(grid, values))
        s = ExtractiveSummarizer(**cfg)
        r = rouge([(s.summarize(p["article"], max_sentences=3).sentences, p["reference"]) for p in train])
        best.append((statistics.mean(x["rouge1"] for x in r), cfg))
    best.sort(key=lambda x: -x[0])
    lead = rouge([(lead3(p["article"]), p["reference"]) for p in train])
    print(f"lead-3 on 1-50: R-1 {statistics.mean(x['rouge1'] for x in lead):.2f}")
    for score, cfg in best[:10]:
        print(f"R-1 {score:.2f}  {cfg}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--embeddings", action="store_true", help="add MiniLM systems and the semantic score")
    ap.add_argument("--transformers", metavar="MODEL", help="local path (or hub id) of a seq2seq summarizer")
    ap.add_argument("--tune", action="store_true")
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "summaries.json")
    args = ap.parse_args(argv)
    if not args.data.exists():
        print(f"no data at {args.data}", file=sys.stderr)
        return 2
    pairs = load_pairs(args.data)
    if args.limit:
        pairs = pairs[: args.limit]
    if args.tune:
        tune(pairs)
        return 0
    systems = [
        ("lead-3", lead3),
        ("lead-3-clean", lead3_clean),
        ("extractive", lambda a: ExtractiveSummarizer().summarize(a, max_sentences=3).sentences),
        ("extractive+prefer-simple",
         lambda a: ExtractiveSummarizer(prefer_simple=True).summarize(a, max_sentences=3).sentences),
    ]
    semantic = False
    if args.embeddings:
        from unclutter.summarize.embeddings import MODEL_NAME, embeddings_available, minilm_embedder

        if embeddings_available():
            emb = ExtractiveSummarizer(embed=minilm_embedder())
            systems.append(("extractive+embeddings", lambda a: emb.summarize(a, max_sentences=3).sentences))
            semantic = True
            print(f"semantic score model: {MODEL_NAME}")
        else:
            print("embeddings extra not installed: skipping MiniLM systems", file=sys.stderr)
    if args.transformers:
        from unclutter.summarize import get_summarizer

        tr = get_summarizer("transformers", model=args.transformers)
        systems.append((f"transformers:{Path(args.transformers).name}",
                        lambda a: tr.summarize(a, max_sentences=3).sentences))
    results = [evaluate(name, fn, pairs, semantic) for name, fn in systems]
    timing = timing_2000_words(pairs)
    report = [table(results, None, f"all {len(pairs)} pairs", semantic)]
    if len(pairs) > 50:
        report.append(table(results, range(50, len(pairs)), "held-out pairs 51-100 (not used for tuning)",
                            semantic))
    report.append(f"2,000-word article on one core: median {timing['median_s'] * 1000:.0f} ms, "
                  f"max {timing['max_s'] * 1000:.0f} ms, first call (imports, dictionary) "
                  f"{timing['first_call_s'] * 1000:.0f} ms ({timing['what']})")
    text = "\n\n".join(report)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"results": results, "timing": timing, "pairs": len(pairs)}, indent=1))
    args.out.with_suffix(".md").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
