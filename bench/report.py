"""Scoring and reporting for ``bench/run.py``: each job's raw per-page results turned into
the report's figures (:func:`score_job`, :func:`page_type_breakdown`), the machine and
versions it ran on, and the Markdown tables (:func:`render_markdown`).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from rivals import VERSIONED_PACKAGES

REPO = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- scoring

_EVALUATE: Any = None


def _evaluate_module() -> Any:
    """``unclutter.measure.evaluate``; loaded from its file when the package cannot be
    imported (it is pure standard library, so scoring works while the package is broken)."""
    global _EVALUATE
    if _EVALUATE is None:
        try:
            module = importlib.import_module("unclutter.measure.evaluate")
        except Exception:  # noqa: BLE001 - any import failure: fall back to the file
            path = REPO / "src" / "unclutter" / "measure" / "evaluate.py"
            spec = importlib.util.spec_from_file_location("_unclutter_evaluate", path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module  # dataclasses look their module up
            spec.loader.exec_module(module)
        _EVALUATE = module
    return _EVALUATE


def score_job(job: dict, cases: list[dict], parts: dict[str, str] | None = None) -> dict:
    """Turn a job's raw per-page results into the figures of the report. ``parts``: each
    case's side of the fixed read/scored split (:func:`split.split_parts`); with it, the
    scores of each part are under ``"split"``."""
    ev = _evaluate_module()
    aggregate_snippets, evaluate = ev.aggregate_snippets, ev.evaluate
    page_counts, snippet_scores = ev.page_counts, ev.snippet_scores

    if job.get("unavailable"):
        return {"unavailable": job["unavailable"]}
    pages = job["pages"]
    text_pairs = []
    per_page = []
    snippets = []
    for case, page in zip(cases, pages):
        pred = page["text"] or ""
        row: dict[str, Any] = {"id": case["id"], "status": page["status"],
                               "sec": round(page["sec"], 6), "cpu": round(page["cpu"], 6),
                               "chars": len(pred)}
        if page.get("error"):
            row["error"] = page["error"]
        extra = page.get("extra") or {}
        if extra.get("refused"):
            row["refused"] = extra["refused"]
        for key in ("tokens_raw", "tokens_clean"):
            if extra.get(key) is not None:
                row[key] = extra[key]
        if case.get("text") is not None:
            text_pairs.append((case["text"], pred))
            counts = page_counts(case["text"], pred)
            row["p"], row["r"] = counts.precision, counts.recall
        if case.get("with") or case.get("without"):
            s = snippet_scores(pred, case.get("with"), case.get("without"))
            snippets.append(s)
            row["with_hit"], row["without_clean"] = s.with_hit, s.without_clean
        per_page.append(row)

    n = len(pages)
    total_sec = sum(p["sec"] for p in pages)
    total_cpu = sum(p["cpu"] for p in pages)
    statuses = [p["status"] for p in pages]
    scores = evaluate(text_pairs)
    split = {}
    if parts:
        for part in ("read", "scored"):
            pairs = [(case["text"], page["text"] or "") for case, page in zip(cases, pages)
                     if case.get("text") is not None and parts.get(case["id"]) == part]
            snips = [snippet_scores(page["text"] or "", case.get("with"), case.get("without"))
                     for case, page in zip(cases, pages)
                     if (case.get("with") or case.get("without")) and parts.get(case["id"]) == part]
            split[part] = {"pages": len(pairs), "scores": evaluate(pairs).as_dict(),
                           "snippets": aggregate_snippets(snips).as_dict()}
    result = {
        "scores": scores.as_dict(),
        "split": split,
        "snippets": aggregate_snippets(snippets).as_dict(),
        "pages": n,
        "seconds": total_sec,
        "cpu_seconds": total_cpu,
        "pages_per_s": n / total_sec if total_sec > 0 else None,
        "pages_per_cpu_s": n / total_cpu if total_cpu > 0 else None,
        "median_ms": statistics.median(p["sec"] for p in pages) * 1000 if pages else None,
        "peak_rss_mb": job["rss_peak_kb"] / 1024 if job["rss_peak_kb"] else None,
        "rss_over_pages_mb": ((job["rss_peak_kb"] - job["rss_base_kb"]) / 1024
                              if job["rss_peak_kb"] and job["rss_base_kb"] else None),
        "pages_in_memory_mb": (job["pages_bytes"] or 0) / 1e6,
        "import_s": job["import_s"],
        "crashes": statuses.count("crash"),
        "timeouts": statuses.count("timeout"),
        "refused": sum(1 for r in per_page if r.get("refused")),
        "empty": sum(1 for p in pages if not (p["text"] or "").strip()),
        "restarts": job["restarts"],
        "core": job["core"],
        "notes": job["notes"],
        "per_page": per_page,
    }
    reductions = [1 - r["tokens_clean"] / r["tokens_raw"] for r in per_page
                  if r["status"] == "ok" and not r.get("refused")
                  and r.get("tokens_raw") and r.get("tokens_clean") is not None]
    if reductions:
        result["token_reduction_median"] = statistics.median(reductions)
        result["token_reduction_pages"] = len(reductions)
    return result


def page_type_breakdown(cases: list[dict], jobs: dict[str, dict]) -> dict[str, dict]:
    """AEB F1 (and with-hit rate) per ``meta.page_type``, per extractor."""
    ev = _evaluate_module()
    aggregate_snippets, evaluate, snippet_scores = (
        ev.aggregate_snippets, ev.evaluate, ev.snippet_scores)

    types = sorted({(c.get("meta") or {}).get("page_type") for c in cases} - {None})
    out: dict[str, dict] = {}
    for page_type in types:
        idx = [i for i, c in enumerate(cases) if (c.get("meta") or {}).get("page_type") == page_type]
        row: dict[str, Any] = {"pages": len(idx), "extractors": {}}
        for name, job in jobs.items():
            if job.get("unavailable"):
                continue
            pairs = [(cases[i]["text"], job["pages"][i]["text"] or "") for i in idx
                     if cases[i].get("text") is not None]
            snips = [snippet_scores(job["pages"][i]["text"], cases[i].get("with"),
                                    cases[i].get("without"))
                     for i in idx if cases[i].get("with") or cases[i].get("without")]
            scores = evaluate(pairs, resamples=0)
            row["extractors"][name] = {"f1": scores.f1, "precision": scores.precision,
                                       "recall": scores.recall,
                                       "with_hit": aggregate_snippets(snips).with_hit}
        out[page_type] = row
    return out


# --------------------------------------------------------------------------- report


def _fmt(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.1f}%"


def machine_info() -> dict:
    cpu_model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu_model": cpu_model, "logical_cores": os.cpu_count(),
            "usable_cores": sorted(os.sched_getaffinity(0)),
            "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
            "python": platform.python_version(), "platform": platform.platform()}


def package_versions(extractors: list[str]) -> dict[str, str | None]:
    from importlib import metadata

    versions: dict[str, str | None] = {}
    for name in extractors:
        dist = VERSIONED_PACKAGES.get(name)
        if dist is None:
            continue
        try:
            versions[name] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def git_commit() -> str | None:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=REPO, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (head + ("+dirty" if dirty else "")) if head else None


def _split_f1(result: dict, part: str) -> str:
    """F1 on one part of the read/scored split (``–`` when the run has none)."""
    got = (result.get("split") or {}).get(part)
    return _fmt(got["scores"]["f1"]) if got and got.get("pages") else "–"


def render_markdown(report: dict) -> str:
    m = report["machine"]
    lines = [
        f"# unclutter benchmark, {report['date']}",
        "",
        f"Machine: {m['cpu_model']}, {m['logical_cores']} logical cores, "
        f"{m['memory_gb']} GB RAM; Python {m['python']}; each extractor in its own process "
        f"pinned to one core; per-page timeout {report['settings']['timeout_s']:g} s"
        + (f"; {report['settings']['repeat']} interleaved runs per pair, each page timed by "
           "its fastest run" if report["settings"].get("repeat", 1) > 1 else "") + ".",
        "Versions: " + ", ".join(f"{k} {v or '(not installed)'}"
                                 for k, v in report["versions"].items())
        + (f"; unclutter commit {report['commit']}" if report.get("commit") else "") + ".",
        "",
        "P/R/F1: AEB shingle metric (`unclutter.measure.evaluate`), ± = bootstrap std of F1. "
        "with-hit / w/o-clean: share of `with` snippets found / `without` snippets absent. "
        "pages/s: wall time of the extraction calls only (imports and file reading excluded); "
        "CPU: the same by process CPU time. Peak RSS: the child's peak resident set (VmHWM); "
        "+RSS: above the "
        "baseline after the (compressed) pages were loaded.",
    ]
    for name, ds in report["datasets"].items():
        n_text = ds["cases_with_text"]
        n_snip = ds["cases_with_snippets"]
        lines += ["", f"## {name}", "",
                  f"{ds['cases']} pages; {n_text} with a text ground truth, "
                  f"{n_snip} with snippets.", "",
                  "| extractor | P | R | F1 (±) | F1 read | F1 scored | with-hit | w/o-clean | pages/s "
                  "| pages/s CPU | peak RSS MB | +RSS MB | empty | crash/timeout |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for ext, r in ds["extractors"].items():
            if r.get("unavailable"):
                lines.append(f"| {ext} | unavailable: {r['unavailable'][:80]} |"
                             + " |" * 12)
                continue
            s, sn = r["scores"], r["snippets"]
            f1 = _fmt(s["f1"]) + (f" ± {s['f1_std']:.3f}" if s.get("f1_std") is not None else "")
            lines.append(
                f"| {ext} | {_fmt(s['precision'])} | {_fmt(s['recall'])} | {f1} "
                f"| {_split_f1(r, 'read')} | {_split_f1(r, 'scored')} "
                f"| {_pct(sn['with_hit'])} | {_pct(sn['without_clean'])} "
                f"| {_fmt(r['pages_per_s'], 1)} | {_fmt(r['pages_per_cpu_s'], 1)} "
                f"| {_fmt(r['peak_rss_mb'], 0)} | {_fmt(r['rss_over_pages_mb'], 0)} "
                f"| {r['empty']} | {r['crashes']}/{r['timeouts']} |")
        for ext, r in ds["extractors"].items():
            failed = [row for row in r.get("per_page", []) if row.get("error")]
            if failed:
                kinds: dict[str, int] = {}
                for row in failed:
                    kinds[row["error"][:120]] = kinds.get(row["error"][:120], 0) + 1
                top = sorted(kinds.items(), key=lambda kv: -kv[1])[:3]
                lines.append("")
                lines.append(f"{ext} failed on {len(failed)} page(s) (empty prediction, "
                             "time included): " + "; ".join(f"{n}× `{k}`" for k, n in top)
                             + ".")
        ours = ds["extractors"].get("unclutter")
        if ours and not ours.get("unavailable"):
            ratios = ds.get("unclutter_speed_ratio", {})
            cpu_ratios = ds.get("unclutter_speed_ratio_cpu", {})
            if ratios:
                lines += ["", "unclutter speed, our pages/s over theirs (wall; CPU time in "
                          "brackets): " + ", ".join(
                              f"{v:.2f}× {k} ({_fmt(cpu_ratios.get(k), 2)}×)"
                              for k, v in ratios.items()) + "."]
                failures = ours["crashes"] + ours["timeouts"]
                if failures:
                    lines[-1] += (f" Not a fair ratio: unclutter failed on {failures} page(s), "
                                  "whose (short) times are included.")
            if ours.get("refused"):
                lines.append(f"unclutter refused {ours['refused']} page(s) "
                             "(UnclutterError: empty prediction).")
            if "token_reduction_median" in ours:
                lines.append(
                    f"Median token reduction `1 - tokens_clean/tokens_raw`: "
                    f"{_pct(ours['token_reduction_median'])} "
                    f"(over {ours['token_reduction_pages']} pages).")
        if ds.get("page_types"):
            names = [e for e, r in ds["extractors"].items() if not r.get("unavailable")]
            lines += ["", f"F1 by page type ({name}, `meta.page_type`):", "",
                      "| page type | pages | " + " | ".join(names) + " |",
                      "|---|---:|" + "---:|" * len(names)]
            for page_type, row in ds["page_types"].items():
                cells = [_fmt(row["extractors"].get(e, {}).get("f1")) for e in names]
                lines.append(f"| {page_type} | {row['pages']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def render_summary(report: dict) -> str:
    """The README's compact table: F1 and pages/s of each extractor on each dataset, with
    the machine and commit on one line (the full tables stay in ``latest.md``)."""
    m = report["machine"]
    names = list(report["datasets"])
    extractors = list(dict.fromkeys(e for ds in report["datasets"].values() for e in ds["extractors"]))
    lines = [f"Benchmark of {report['date']} on {m['cpu_model']} ({m['logical_cores']} cores), one core per "
             f"extractor; unclutter commit {report.get('commit') or '?'}. F1: AEB shingle metric; pages/s: "
             "extraction calls only. Read / scored: the fixed split of `bench/split.py` (sites by a hash; "
             "the scored part's failures are never read). `python bench/report.py` prints the full tables "
             "(precision, recall, snippets, memory, F1 by page type).", "",
             "| extractor | " + " | ".join(f"{n} F1 (read / scored)" for n in names) + " | "
             + " | ".join(f"{n} pages/s" for n in names) + " |",
             "|---|" + "---:|" * (2 * len(names))]
    for ext in extractors:
        f1s, speeds = [], []
        for n in names:
            r = report["datasets"][n]["extractors"].get(ext) or {}
            f1s.append(_fmt((r.get("scores") or {}).get("f1"))
                       + (f" ({_split_f1(r, 'read')} / {_split_f1(r, 'scored')})" if r.get("split") else "")
                       if not r.get("unavailable") else "–")
            speeds.append(_fmt(r.get("pages_per_s"), 1) if not r.get("unavailable") else "–")
        lines.append(f"| {ext} | " + " | ".join(f1s) + " | " + " | ".join(speeds) + " |")
    return "\n".join(lines) + "\n"


def update_readme(report: dict, readme: Path = REPO / "README.md") -> None:
    """Replace the block between ``<!-- benchmark:begin -->`` and ``<!-- benchmark:end -->``
    of the README with :func:`render_summary`."""
    import re

    text = readme.read_text(encoding="utf-8")
    block = render_summary(report)
    new, n = re.subn(r"(?s)(<!-- benchmark:begin -->\n).*?(<!-- benchmark:end -->)",
                     lambda mt: mt[1] + block + mt[2], text)
    if n != 1:
        raise SystemExit(f"{readme}: no benchmark block (<!-- benchmark:begin --> ... <!-- benchmark:end -->)")
    readme.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    import argparse
    import json

    ap = argparse.ArgumentParser(description="Render a bench/run.py report (JSON) again.")
    ap.add_argument("report", nargs="?", type=Path, default=REPO / "bench" / "results" / "latest.json")
    ap.add_argument("--readme", action="store_true", help="update README.md's benchmark block")
    args = ap.parse_args()
    data = json.loads(args.report.read_text(encoding="utf-8"))
    if args.readme:
        update_readme(data)
    else:
        sys.stdout.write(render_markdown(data))
