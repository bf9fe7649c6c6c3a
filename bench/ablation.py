#!/usr/bin/env python3
"""Ablation of the learned extractors, in one benchmark run, next to trafilatura.

    python bench/ablation.py [--datasets aeb,wcxb-dev] [--limit N] [--jobs 1]

Runs ``bench/run.py`` (same harness: one pinned child process per extractor and dataset,
AEB shingle metric, pages/s, peak RSS) with the extractors of :data:`VARIANTS` (each an
extractor and switches of ``Options.ablation``: ``bench/run.py``'s ``UNCLUTTER_VARIANTS``), then prints
and writes (``bench/results/ablation.md``) one table: F1 per dataset, per wcxb-dev page
type, pages/s and peak RSS per variant; and, from ``train/results/*.json``, the
cross-validated wcxb-dev F1 of the learned variants.

Read the columns with care: the shipped models were trained on wcxb-dev and
readability-tests, so their scores on those datasets are **in-sample** (marked ``*``);
AEB is never trained on and is the out-of-sample column; the honest wcxb-dev figure of a
learned variant is its cross-validated one (grouped by site), in the last columns.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: (row label, bench/run.py extractor name, learned?)
VARIANTS = (
    ("heuristic", "unclutter-heuristic", False),
    ("CETD", "unclutter-cetd", False),
    ("GBDT", "unclutter-gbdt", True),
    ("GBDT without DensitySum recovery", "unclutter-gbdt-no-densitysum", True),
    ("GBDT, first stage alone (no auto-context)", "unclutter-gbdt-first-stage", True),
    ("GBDT without the section rules (comment threads, related boxes)", "unclutter-gbdt-no-sections", True),
    ("GNN", "unclutter-gnn", True),
    ("GNN without DensitySum weights", "unclutter-gnn-no-densitysum", True),
    ("auto without refinement (GBDT on declared products/forums, weak heuristic selections and byline-less pages"
     " where it keeps 1.1x the heuristic's text, else heuristic)", "unclutter-auto-no-refine", True),
    ("auto without the second opinion (byline-less pages stay with the heuristic)",
     "unclutter-auto-no-second-opinion", True),
    ("auto (the same, the heuristic's selections refined by the learned clean-up)", "unclutter-auto", True),
    ("default (`unclutter`)", "unclutter", None),
    ("trafilatura 2.3.1", "trafilatura", False),
)

#: Cross-validation figures of each learned variant: (results file, key path).
CV_SOURCES = {
    "unclutter-gbdt": ("gbdt.json", ("cv_extraction", "gbdt")),
    "unclutter-gbdt-no-densitysum": ("gbdt.json", ("cv_extraction", "gbdt-no-densitysum")),
    "unclutter-gbdt-first-stage": ("gbdt.json", ("cv_extraction", "gbdt-first-stage")),
    "unclutter-gbdt-no-sections": ("gbdt.json", ("cv_extraction", "gbdt-no-sections")),
    "unclutter-auto-no-refine": ("refine.json", ("cv_extraction", "auto-no-refine")),
    "unclutter-auto": ("refine.json", ("cv_extraction", "auto")),
    "unclutter-auto-no-second-opinion": ("refine.json", ("cv_extraction", "auto-no-second-opinion")),
    "unclutter-gnn": ("gnn.json", ("gnn", "cv_extraction")),
    "unclutter-gnn-no-densitysum": ("gnn.json", ("gnn-no-densitysum", "cv_extraction")),
}

PAGE_TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")


def _cv(name: str) -> dict | None:
    src = CV_SOURCES.get(name)
    if not src:
        return None
    path = REPO / "train" / "results" / src[0]
    if not path.exists():
        return None
    node = json.loads(path.read_text())
    for k in src[1]:
        node = node.get(k, {})
    return node or None


def _f(v) -> str:
    return "–" if v is None else f"{v:.3f}"


def render(report: dict, default: str) -> str:
    """The Markdown table of ``report`` (bench/run.py's JSON); ``default``: the default
    extractor's name (``Options().extractor``): its row gets that extractor's CV columns."""
    datasets = list(report["datasets"])
    head = ["variant"] + [f"{d} F1" for d in datasets]
    wcxb = report["datasets"].get("wcxb-dev")
    if wcxb:
        head += [f"wcxb {t}" for t in PAGE_TYPES]
    head += ["pages/s (" + datasets[0] + ")", "peak RSS MB", "CV wcxb F1", "CV forum", "CV product"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, name, learned in VARIANTS:
        cv_name = name
        if learned is None:
            learned = default != "heuristic"
            cv_name = f"unclutter-{default}"
        row = [label]
        for d in datasets:
            r = report["datasets"][d]["extractors"].get(name, {})
            star = "*" if learned and d != "aeb" else ""
            row.append(_f((r.get("scores") or {}).get("f1")) + star)
        if wcxb:
            types = wcxb.get("page_types", {})
            for t in PAGE_TYPES:
                v = types.get(t, {}).get("extractors", {}).get(name, {}).get("f1")
                row.append(_f(v) + ("*" if learned else ""))
        first = report["datasets"][datasets[0]]["extractors"].get(name, {})
        pps = first.get("pages_per_s")
        row.append("–" if pps is None else f"{pps:.1f}")
        rss = first.get("peak_rss_mb")
        row.append("–" if rss is None else f"{rss:.0f}")
        cv = _cv(cv_name) or {}
        row += [_f(cv.get("all")), _f(cv.get("forum")), _f(cv.get("product"))]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    lines.append("`*` in-sample: the shipped model was trained on this dataset (wcxb-dev, "
                 "readability-tests); use the CV columns (5-fold, grouped by site) for wcxb-dev.")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="aeb,wcxb-dev")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "ablation.json"))
    ap.add_argument("--render-only", action="store_true",
                    help="re-render the table from the existing --out JSON, without a run")
    args = ap.parse_args()
    cmd = [sys.executable, str(REPO / "bench" / "run.py"), "--datasets", args.datasets,
           "--extractors", ",".join(name for _, name, _ in VARIANTS), "--out", args.out,
           "--jobs", str(args.jobs)]
    if args.limit:
        cmd += ["--limit", str(args.limit)]
    if not args.render_only:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    report = json.loads(Path(args.out).read_text())
    from unclutter.core.options import Options

    table = render(report, Options().extractor)
    Path(args.out).with_suffix(".md").write_text(table, encoding="utf-8")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
