#!/usr/bin/env python3
"""``--render auto``: how well :func:`unclutter.route.js_shell` finds the pages that need a
browser, and what it costs.

    python bench/render_auto.py [--show] [--sweep] [--repeat 3] [--out bench/results/render_auto.json]

**Positives** are the wcxb-dev pages (those with a ground-truth text) whose ground truth is
mostly absent from the served HTML: the word-level recall of the ground truth's words in
the served page's readable text is under :data:`POSITIVE_MAX_RECALL`. Words are ``\\w+``
tokens, case folded, counted as multisets (a word found twice in the ground truth must be
in the page twice). The page's readable text is its body's text without ``<script>``,
``<style>`` and ``<template>``, **with** the text of its ``<noscript>`` elements (their
markup parsed as HTML): unclutter reads that text without a browser (the pipeline's
scripting-disabled view), so a page whose content sits in ``<noscript>`` needs no
rendering. For comparison the same figures are printed for positives defined without
``<noscript>`` text (a Discourse forum's crawler view then makes its pages positives).

Reported: precision, recall and F1 of ``js_shell(html).is_shell`` (and of ``auto`` as a
whole: the rule, then its second chance, ``route.render_after_extraction``, after the served
page is extracted) against the positives on
wcxb-dev's read part, scored part and all (the fixed split of ``bench/split.py``; the
thresholds are tuned on the read part, the scored part only measured), the number of
pages ``auto`` would render on AEB (must be zero) and readability-tests (should be zero),
on wcxb-dev's pages without a ground truth that wcxb marks as single-page apps (for
information), and the time of one ``js_shell`` call per page (each page timed
``--repeat`` times, its fastest kept; mean, median, 99th percentile and maximum over all
pages of the three datasets, on the decoded text and on the served bytes, whose decoding it
includes; and, apart, the input limits it checks before parsing). ``--show`` lists the
positives (the scored part's without the rule's reasons) and the read parts' pages rendered
that are not positives; ``--sweep`` adds the read parts' figures for other values of
``SHELL_MAX_WORDS``. JSON goes to ``--out``; Markdown tables to stdout.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))

from run import load_cases  # noqa: E402
from split import READ, SCORED, split_parts  # noqa: E402

#: A page is a positive when under this share of its ground truth's words are in the
#: served HTML's readable text: "mostly absent".
POSITIVE_MAX_RECALL = 0.5
DATASETS = ("wcxb-dev", "aeb", "readability-tests")
_WORD_RE = re.compile(r"\w+")


def page_bytes(dataset_dir: Path, case: dict) -> bytes:
    raw = (dataset_dir / case["html"]).read_bytes()
    return gzip.decompress(raw) if case["html"].endswith(".gz") else raw


def readable_text(html: str, noscript: bool = True) -> str:
    """The served page's text as defined in the module docstring (``noscript=False``:
    without the ``<noscript>`` text)."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    # with scripting on, lexbor keeps a <noscript>'s content as raw text: parse it apart
    hidden = " ".join(n.text() or "" for n in tree.css("noscript")) if noscript else ""
    tree.strip_tags(["script", "style", "template", "noscript"])
    body = tree.body.text(separator=" ") if tree.body is not None else ""
    if hidden.strip():
        inner = LexborHTMLParser(hidden)
        inner.strip_tags(["script", "style", "template"])
        body += " " + (inner.body.text(separator=" ") if inner.body is not None else "")
    return body


def word_recall(truth: str, text: str) -> float:
    """Share of ``truth``'s words (multiset of case-folded ``\\w+`` tokens) in ``text``."""
    want = Counter(w.casefold() for w in _WORD_RE.findall(truth))
    have = Counter(w.casefold() for w in _WORD_RE.findall(text))
    total = sum(want.values())
    return sum(min(n, have[w]) for w, n in want.items()) / total if total else 1.0


def prf(flags: list[tuple[bool, bool]]) -> dict:
    """Counts, precision, recall and F1 of (predicted, actual) pairs (``None`` when undefined)."""
    tp = sum(p and a for p, a in flags)
    fp = sum(p and not a for p, a in flags)
    fn = sum(a and not p for p, a in flags)
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = (2 * precision * recall / (precision + recall)
          if precision is not None and recall is not None and precision + recall else None)
    return {"pages": len(flags), "positives": tp + fn, "rendered": tp + fp, "tp": tp, "fp": fp, "fn": fn,
            "precision": precision, "recall": recall, "f1": f1}


def _time_call(fn, arg, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - started)
    return best


def _limits(check):
    """``check`` (the input limits), its refusal caught: timed on its own."""
    def run(html: str) -> None:
        try:
            check(html)
        except Exception:  # noqa: BLE001 - a refused page is timed too
            pass
    return run


def sweep(route, read_pages: list[tuple[str, str, bool]]) -> list[dict]:
    """The read parts' figures for other word bounds (the character bound scaled with it)."""
    saved = route.SHELL_MAX_WORDS, route.SHELL_MAX_TEXT_CHARS
    per_word = saved[1] / saved[0]
    out = []
    try:
        for words in (5, 10, 20, 40, 60, 80, 100, 150, 200, 400):
            route.SHELL_MAX_WORDS, route.SHELL_MAX_TEXT_CHARS = words, round(words * per_word)
            flags = Counter()
            for name, html, positive in read_pages:
                shell = route.js_shell(html).is_shell
                if name == "wcxb-dev":
                    flags["tp" if shell and positive else "fp" if shell else "fn" if positive else "tn"] += 1
                elif shell:
                    flags[name] += 1
            out.append({"max_words": words, "max_text_chars": route.SHELL_MAX_TEXT_CHARS,
                        **{k: flags[k] for k in ("tp", "fp", "fn", "aeb", "readability-tests")}})
    finally:
        route.SHELL_MAX_WORDS, route.SHELL_MAX_TEXT_CHARS = saved
    return out


def _main_chars(raw: bytes, case: dict) -> int:
    """Characters of main text the pipeline gets from the served page (0: none)."""
    import unclutter
    from unclutter.core.errors import UnclutterError

    try:
        return len(unclutter.extract(raw, url=case.get("url") or None).text.strip())
    except UnclutterError:
        return 0


def _fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def main(argv: list[str] | None = None) -> int:
    from unclutter import route

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path,
                    default=Path(os.environ.get("UNCLUTTER_SHARED") or REPO.parent / "shared"))
    ap.add_argument("--repeat", type=int, default=3, help="timed calls per page (the fastest is kept)")
    ap.add_argument("--show", action="store_true",
                    help="list the positives, and the read part's pages the rule gets wrong")
    ap.add_argument("--sweep", action="store_true",
                    help="also the read parts' figures for other values of SHELL_MAX_WORDS (the margin)")
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "render_auto.json")
    args = ap.parse_args(argv)
    from unclutter.parse.guards import check_input_limits

    pages: dict[str, list[dict]] = {}
    times_text: list[float] = []
    times_bytes: list[float] = []
    times_limits: list[float] = []
    read_pages: list[tuple[str, str, bool]] = []  # (dataset, decoded page, positive or None)
    for name in DATASETS:
        folder = args.shared / "datasets" / name
        if not (folder / "cases.jsonl").exists():
            print(f"{name}: missing ({folder})", file=sys.stderr)
            continue
        cases = load_cases(folder, None)
        parts = split_parts(name, cases)
        rows = []
        for case in cases:
            raw = page_bytes(folder, case)
            html = raw.decode("utf-8", errors="replace")
            verdict = route.js_shell(html)
            times_text.append(_time_call(route.js_shell, html, args.repeat))
            times_bytes.append(_time_call(route.js_shell, raw, args.repeat))
            times_limits.append(_time_call(_limits(check_input_limits), html, args.repeat))
            row = {"id": case["id"], "part": parts[case["id"]], "url": case.get("url"),
                   "shell": verdict.is_shell, "reason": verdict.reason, "signals": verdict.signals,
                   "spa": bool((case.get("meta") or {}).get("spa"))}
            # auto's second chance: the served HTML extracted first (route.render_after_extraction)
            row["auto"] = verdict.is_shell or route.render_after_extraction(_main_chars(raw, case), verdict)
            if name == "wcxb-dev" and case.get("text"):
                row["recall"] = word_recall(case["text"], readable_text(html))
                row["recall_without_noscript"] = word_recall(case["text"], readable_text(html, noscript=False))
            rows.append(row)
            if args.sweep and row["part"] == READ and (name != "wcxb-dev" or "recall" in row):
                read_pages.append((name, html, name == "wcxb-dev" and row["recall"] < POSITIVE_MAX_RECALL))
        pages[name] = rows

    thresholds = {k: getattr(route, k) for k in (
        "SHELL_MAX_WORDS", "SHELL_MAX_TEXT_CHARS", "SHELL_MOUNT_MAX_WORDS", "SHELL_MIN_SCRIPT_CHARS")}
    result: dict = {"thresholds": thresholds, "positive_max_recall": POSITIVE_MAX_RECALL, "figures": {}}
    table = []
    wcxb = [r for r in pages.get("wcxb-dev", []) if "recall" in r]
    for part in (READ, SCORED, "all"):
        rows = [r for r in wcxb if part == "all" or r["part"] == part]
        m = prf([(r["shell"], r["recall"] < POSITIVE_MAX_RECALL) for r in rows])
        result["figures"][f"wcxb-dev/{part}"] = m
        table.append((f"wcxb-dev, {part}", m))
    for part in (READ, SCORED, "all"):
        rows = [r for r in wcxb if part == "all" or r["part"] == part]
        m = prf([(r["auto"], r["recall"] < POSITIVE_MAX_RECALL) for r in rows])
        result["figures"][f"wcxb-dev/{part}, auto with its second chance"] = m
        table.append((f"wcxb-dev, {part}, `auto` (rule + second chance)", m))
    m = prf([(r["shell"], r["recall_without_noscript"] < POSITIVE_MAX_RECALL) for r in wcxb])
    result["figures"]["wcxb-dev/all, positives without <noscript> text"] = m
    table.append(("wcxb-dev, all, positives without `<noscript>` text", m))
    spa = [r for r in pages.get("wcxb-dev", []) if "recall" not in r and r["spa"]]
    if spa:
        m = {"pages": len(spa), "rendered": sum(r["shell"] for r in spa)}
        result["figures"]["wcxb-dev/spa without ground truth"] = m
        table.append(("wcxb-dev, marked SPA, no ground truth", m))
    for name in ("aeb", "readability-tests"):
        rows = pages.get(name, [])
        for part in (READ, SCORED, "all"):
            sel = [r for r in rows if part == "all" or r["part"] == part]
            m = {"pages": len(sel), "rendered": sum(r["shell"] for r in sel),
                 "rendered_auto": sum(r["auto"] for r in sel)}
            result["figures"][f"{name}/{part}"] = m
            if part == "all":
                m = dict(m, read=result["figures"][f"{name}/{READ}"]["rendered"],
                         scored=result["figures"][f"{name}/{SCORED}"]["rendered"])
                table.append((f"{name}, all (rendered read / scored: {m['read']} / {m['scored']})", m))
                table.append((f"{name}, all, `auto` (rule + second chance)", {"pages": m["pages"],
                                                                             "rendered": m["rendered_auto"]}))

    def timing(ts: list[float]) -> dict:
        ts = sorted(ts)
        return {"pages": len(ts), "mean_ms": 1000 * statistics.fmean(ts), "median_ms": 1000 * ts[len(ts) // 2],
                "p99_ms": 1000 * ts[min(len(ts) - 1, int(0.99 * len(ts)))], "max_ms": 1000 * ts[-1]}

    result["time"] = {"text": timing(times_text), "bytes": timing(times_bytes),
                      "input_limits": timing(times_limits), "repeat": args.repeat}
    if args.sweep:
        result["sweep"] = sweep(route, read_pages)
    result["positives"] = [{k: r[k] for k in ("id", "part", "recall", "shell", "reason")}
                           for r in wcxb if r["recall"] < POSITIVE_MAX_RECALL]
    result["rendered"] = {name: [{k: r[k] for k in ("id", "part", "reason")} for r in rows if r["shell"]]
                          for name, rows in pages.items()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, sort_keys=True))

    positives = result["positives"]
    print(f"positives (wcxb-dev, ground-truth word recall in the served HTML's readable text, <noscript> "
          f"included, under {POSITIVE_MAX_RECALL}): {len(positives)} "
          f"({sum(p['part'] == READ for p in positives)} read, {sum(p['part'] == SCORED for p in positives)} scored)")
    print("thresholds: " + ", ".join(f"{k} = {v:,}" for k, v in thresholds.items()) + "\n")
    print("| pages | n | positives | rendered | TP | FP | FN | precision | recall | F1 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, m in table:
        if "tp" in m:
            print(f"| {label} | {m['pages']} | {m['positives']} | {m['rendered']} | {m['tp']} | {m['fp']} | "
                  f"{m['fn']} | {_fmt(m['precision'])} | {_fmt(m['recall'])} | {_fmt(m['f1'])} |")
        else:
            print(f"| {label} | {m['pages']} | — | {m['rendered']} | | | | | | |")
    print(f"\njs_shell per page ({result['time']['text']['pages']} pages, fastest of {args.repeat} calls):\n")
    print("| input | mean ms | median ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for key, label in (("text", "decoded text"), ("bytes", "served bytes (decoding included)"),
                       ("input_limits", "of which `check_input_limits` (decoded text)")):
        t = result["time"][key]
        print(f"| {label} | {t['mean_ms']:.2f} | {t['median_ms']:.2f} | {t['p99_ms']:.2f} | {t['max_ms']:.1f} |")
    if args.sweep:
        print("\nread parts, other values of SHELL_MAX_WORDS (SHELL_MAX_TEXT_CHARS scaled with it):\n")
        print("| SHELL_MAX_WORDS | SHELL_MAX_TEXT_CHARS | wcxb-dev TP | wcxb-dev FP | wcxb-dev FN | aeb rendered "
              "| readability-tests rendered |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for s in result["sweep"]:
            print(f"| {s['max_words']} | {s['max_text_chars']} | {s['tp']} | {s['fp']} | {s['fn']} | "
                  f"{s['aeb']} | {s['readability-tests']} |")
    if args.show:
        print("\npositives:")
        for p in sorted(positives, key=lambda p: p["recall"]):
            # the scored part's verdicts are counted, their reasons not shown
            why = p["reason"] if p["part"] == READ else ""
            print(f"  {p['id']} {p['part']} recall {p['recall']:.3f} {'rendered' if p['shell'] else 'missed  '} {why}")
        print("\nread part, rendered but not positive:")
        for r in wcxb:
            if r["part"] == READ and r["shell"] and r["recall"] >= POSITIVE_MAX_RECALL:
                print(f"  {r['id']} recall {r['recall']:.3f} {r['reason']}")
        for name in ("aeb", "readability-tests"):
            for r in pages.get(name, []):
                if r["shell"] and r["part"] == READ:
                    print(f"  {name} {r['id']} {r['reason']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
