#!/usr/bin/env python3
"""Cross-validation by site on wcxb-dev, through the real pipeline, with cached fold models:
the measurement every rule or threshold change of the main-content stages must pass.

    python -m train.folds                       # once: the fold models (train/cache/folds)
    python bench/cv.py [--extractor auto] [--styles cascade] [--jobs 2] [--out bench/results/cv.json]
                       [--baseline bench/results/cv-before.json] [--texts texts.json]

Each wcxb-dev page is extracted with ``unclutter.extract(html, url=url, extractor=...)``
while the page-level GBDT and the refinement classifier of the fold that did not see the
page's site stand in for the shipped ones (:func:`unclutter.classify.registry.override`).
The text is scored with the AEB shingle metric (:mod:`unclutter.measure.evaluate`): F1
over all pages, per ``meta.page_type``, and on each side of the fixed read/scored split
(:mod:`split`). Each page's F1, precision and recall, confidence signals and fold go to ``--out`` (read by
``bench/confidence.py``). With ``--baseline`` (an earlier ``--out``), each figure's change is printed
beside it, and the pages of the **read** part whose F1 moved most are listed (the scored
part's pages are never listed). ``--texts`` also writes the extracted text of each read-part page
(case id -> text). ``UNCLUTTER_FOLDS`` names another folder of fold models (the same file names), to score
models trained another way without replacing the cached ones.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
FOLDS = Path(os.environ.get("UNCLUTTER_FOLDS") or REPO / "train" / "cache" / "folds")

_STATE: dict = {}


def _init(extractor: str, styles: str = "cascade") -> None:
    from train.common import load_cases

    _STATE["cases"] = {c["id"]: c for c in load_cases("wcxb-dev")}
    _STATE["extractor"] = extractor
    _STATE["styles"] = styles


def _run(task: tuple[int, list[str]]) -> dict[str, tuple[str, dict]]:
    """(text, confidence signals) of the pages ``ids`` of fold ``f`` with that fold's models."""
    from contextlib import ExitStack

    import unclutter
    from unclutter.classify import registry
    from unclutter.classify.gbdt import TreeEnsemble
    from unclutter.core.errors import UnclutterError
    from train.common import page_bytes

    f, ids = task
    out = {}
    with ExitStack() as stack:
        stack.enter_context(registry.override("gbdt", TreeEnsemble.load(FOLDS / f"gbdt-{f}.npz")))
        stack.enter_context(registry.override("refine", TreeEnsemble.load(FOLDS / f"refine-{f}.npz")))
        for i in ids:
            c = _STATE["cases"][i]
            try:
                a = unclutter.extract(page_bytes(c), url=c.get("url"), extractor=_STATE["extractor"],
                                      styles=_STATE["styles"])
                out[i] = (a.text, a.confidence_signals)
            except UnclutterError:
                out[i] = ("", {})
    return out


def main(argv: list[str] | None = None) -> int:
    from split import split_parts
    from train.common import load_cases
    from unclutter.measure.evaluate import evaluate, page_counts

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--extractor", default="auto")
    ap.add_argument("--styles", default="cascade", choices=("cascade", "inline"), help="Options.styles")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "cv.json")
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--texts", type=Path, help="also write each read-part page's extracted text here (JSON)")
    ap.add_argument("--show", type=int, default=15, help="read-part pages listed with --baseline")
    args = ap.parse_args(argv)
    if not (FOLDS / "folds.json").exists():
        print(f"no fold models in {FOLDS}: run `python -m train.folds` first", file=sys.stderr)
        return 2
    fold_of = json.loads((FOLDS / "folds.json").read_text())
    cases = {c["id"]: c for c in load_cases("wcxb-dev") if c.get("text") is not None and c["id"] in fold_of}
    parts = split_parts("wcxb-dev", list(cases.values()))
    tasks = []
    for f in sorted(set(fold_of.values())):
        ids = [i for i in cases if fold_of[i] == f]
        tasks += [(f, ids[k:k + 25]) for k in range(0, len(ids), 25)]
    started = time.perf_counter()
    texts: dict[str, str] = {}
    signals: dict[str, dict] = {}
    with mp.get_context("forkserver").Pool(args.jobs, initializer=_init, initargs=(args.extractor, args.styles)) as pool:
        for got in pool.imap_unordered(_run, tasks):
            for i, (text, sig) in got.items():
                texts[i] = text
                signals[i] = sig
    seconds = time.perf_counter() - started

    def f1(ids: list[str]) -> float:
        return evaluate([(cases[i]["text"], texts[i]) for i in ids], resamples=0).f1

    groups: dict[str, list[str]] = defaultdict(list)
    for i, c in cases.items():
        groups["all"].append(i)
        groups[f"part:{parts[i]}"].append(i)
        groups[(c.get("meta") or {}).get("page_type") or "unknown"].append(i)
    per_page = {}
    per_page_pr = {}
    for i in cases:
        counts = page_counts(cases[i]["text"], texts[i])
        p, r = counts.precision or 0.0, counts.recall or 0.0  # (None: nothing predicted or expected)
        per_page[i] = 2 * p * r / (p + r) if p + r else 0.0
        per_page_pr[i] = (p, r)
    result = {"extractor": args.extractor, "pages": len(cases), "seconds": round(seconds, 1),
              "f1": {g: f1(ids) for g, ids in sorted(groups.items())},
              "pages_per_group": {g: len(ids) for g, ids in sorted(groups.items())},
              "per_page": per_page, "per_page_pr": per_page_pr, "signals": signals,
              "folds": {i: fold_of[i] for i in cases}}
    base = json.loads(args.baseline.read_text()) if args.baseline else None
    print(f"wcxb-dev CV by site, extractor {args.extractor}: {len(cases)} pages in {seconds:.0f} s")
    print("| group | pages | F1 |" + (" change |" if base else ""))
    print("|---|---:|---:|" + ("---:|" if base else ""))
    for g, value in result["f1"].items():
        row = f"| {g} | {result['pages_per_group'][g]} | {value:.4f} |"
        if base and g in base["f1"]:
            row += f" {value - base['f1'][g]:+.4f} |"
        print(row)
    if base:
        moved = sorted(((per_page[i] - base["per_page"].get(i, 0.0), i) for i in cases
                        if parts[i] == "read" and i in base["per_page"]), key=lambda t: t[0])
        moved = [m for m in moved if abs(m[0]) > 1e-9]
        print(f"\n{len(moved)} read-part pages changed; the largest moves:")
        shown = moved[:args.show] + [m for m in moved[-args.show:][::-1] if m not in moved[:args.show]]
        for delta, i in shown:
            print(f"  {i} {(cases[i].get('meta') or {}).get('page_type')} {delta:+.3f}")
    if args.texts:
        # (the read part only: the scored part's predictions are never opened)
        args.texts.write_text(json.dumps({i: t for i, t in texts.items() if parts[i] == "read"}))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
