#!/usr/bin/env python3
"""Benchmark: unclutter and its rivals over the shared datasets, side by side, in one run.

    python bench/run.py [--datasets aeb,readability-tests,wcxb-dev] [--limit N]
                        [--extractors unclutter,trafilatura,readability-lxml,resiliparse]
                        [--out bench/results/latest.json] [--timeout 20] [--jobs 1]

What is measured, and how (see ``bench/README.md`` for the long form):

* **Accuracy**: the AEB shingle metric (precision, recall, F1 and bootstrap ``±``) against
  each case's ``text``; the share of ``with`` snippets found and of ``without`` snippets
  absent where a case has them. Both live in :mod:`unclutter.measure.evaluate`, which cites
  their definitions. Cases whose ``text`` is null are left out of P/R/F1 (they have no text
  ground truth) but still count for snippets, speed and crashes.
* **Speed**: every (extractor, dataset) pair runs in its own child process pinned to one CPU
  core (``os.sched_setaffinity``). The child first reads all the dataset's pages into memory
  (as stored: gzip-compressed where the file is ``.html.gz``, so wcxb-dev's 416 MB of HTML
  does not swamp the memory figure), imports the extractor and makes two untimed warm-up
  calls, on a tiny page and on the same page declaring a product (lazy one-off set-up, like
  imports, is excluded: a model loaded on first use included); then, for each page,
  it decompresses the page (untimed) and times only the extraction call, from HTML bytes to
  main text. Pages/s = pages / summed wall time of those calls; the CPU-time figure
  (``time.process_time``) is also kept because it is less sensitive to a busy machine.
* **Memory**: the child's peak resident set (``VmHWM``, i.e. ``ru_maxrss`` without the
  parent's pre-exec peak that Linux folds into it; see :func:`_maxrss_kb`), in MB, and the
  part of it above the baseline after the pages were loaded (import + working set of the
  extractor).
* **Failures**: a page whose call raises is a *crash*; one that runs past ``--timeout``
  seconds is a *timeout* (a ``SIGALRM`` in the child interrupts Python code; if the child
  does not answer within the timeout plus a grace period, or dies, e.g. on a segfault, the
  parent kills it, records the page and restarts a child on the next page). Either way the
  page's prediction is empty and it is counted in the crash/timeout column.

The extractors, each called with default settings:

* ``unclutter``: ``unclutter.extract(html_bytes, url=url).text``; unclutter's own errors
  (``UnclutterError``, e.g. ``NoContentError``) are an empty prediction, not a crash. The
  token counts (lazy ``Article`` properties, computed only when read) are read after the
  timer stops: a caller who wants the Markdown does not pay for them.
* ``trafilatura``: ``trafilatura.extract(html_bytes, url=url, output_format="txt",
  include_comments=False)``, otherwise default settings (``favor_recall`` and
  ``favor_precision`` off, fallbacks on). ``include_comments=False`` is how AEB's own runner
  calls it (``extractors/run_trafilatura.py``) and matches the ground truths, which exclude
  comments; it is trafilatura's stronger setting here (AEB F1 0.960 against 0.953 with its
  default ``include_comments=True``, which ``trafilatura-defaults`` runs).
* ``readability-lxml``: ``Document(html_bytes).summary()``, turned into text with lxml's
  ``text_content()`` after giving each block element a newline tail (so that words of
  adjacent paragraphs are not glued into one token); the conversion is timed too.
* ``resiliparse``: ``extract_plain_text(html, main_content=True)`` on the page decoded with
  resiliparse's own ``detect_encoding`` / ``bytes_to_str`` (timed).
* ``fake``: a stand-in for development and tests (text of ``<p>`` elements, stdlib only).

Results: a Markdown table per dataset on stdout, and JSON + Markdown under ``bench/results/``
(git-ignored). Only the standard library and ``unclutter.measure`` are needed here; the
rivals come with the ``bench`` extra. The loaders and warm-up pages live in
``bench/rivals.py``, the scoring and the Markdown report in ``bench/report.py``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gzip
import json
import os
import resource
import selectors
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

# The sibling modules below, also when this file is loaded by path (tests) rather than run.
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from split import split_parts
from report import (  # noqa: E402
    git_commit, machine_info, package_versions, page_type_breakdown, render_markdown, score_job,
)
from rivals import LOADERS, WARMUP_HTML, WARMUP_PRODUCT_HTML, _finish_extra  # noqa: E402
# re-exported, for readers of this module's names
from rivals import UNCLUTTER_VARIANTS, VERSIONED_PACKAGES, _load_unclutter  # noqa: E402,F401

REPO = Path(__file__).resolve().parents[1]

DEFAULT_EXTRACTORS = ("unclutter", "unclutter-inline-styles", "trafilatura", "readability-lxml", "resiliparse")
DEFAULT_TIMEOUT_S = 20.0
#: Extra seconds the parent waits beyond ``--timeout`` before it kills a silent child.
HARD_KILL_GRACE_S = 10.0
#: How long a child may take to read its pages and import its extractor.
STARTUP_TIMEOUT_S = 300.0
#: After this many child restarts (crashes, hard timeouts) in one job, the rest of the pages
#: are recorded as crashes rather than retried.
MAX_RESTARTS = 25


# =========================================================================== child side


class PageTimeout(BaseException):
    """Raised by the child's SIGALRM handler. A BaseException, so that an extractor's
    ``except Exception`` cannot swallow it."""


def _maxrss_kb() -> int:
    """This process's peak resident set size, in KiB.

    ``VmHWM`` from ``/proc/self/status`` where there is one (Linux): the high-water mark of
    this process's own address space. ``ru_maxrss`` is only the fallback, because on Linux
    it also keeps the peak of the address space the process had *before* ``exec`` -- for a
    child that subprocess starts with vfork, that is the parent's, which would put the
    benchmark driver's memory into every extractor's figure.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def worker_main() -> int:
    """Child process: read a job (JSON on stdin), answer one JSON line per event."""
    spec = json.loads(sys.stdin.buffer.read())
    # Our protocol goes to a private copy of stdout; whatever an extractor prints goes nowhere.
    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="ascii")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = open(os.devnull, "w")

    def emit(obj: dict) -> None:
        proto.write(json.dumps(obj, ensure_ascii=True) + "\n")

    if spec.get("core") is not None:
        os.sched_setaffinity(0, {int(spec["core"])})

    dataset_dir = Path(spec["dataset_dir"])
    pages: list[tuple[bytes, bool]] = []
    for case in spec["cases"]:
        path = dataset_dir / case["html"]
        pages.append((path.read_bytes(), path.name.endswith(".gz")))
    rss_base = _maxrss_kb()

    t0 = time.perf_counter()
    try:
        run = LOADERS[spec["extractor"]]()
    except Exception as exc:  # noqa: BLE001 - ImportError, AttributeError, a SyntaxError...
        emit({"event": "unavailable", "error": f"{type(exc).__name__}: {str(exc)[:200]}"})
        return 0
    import_s = time.perf_counter() - t0
    for warm in (WARMUP_HTML, WARMUP_PRODUCT_HTML):
        try:
            run(warm, "https://example.org/warm-up")
        except Exception:  # noqa: BLE001 - a failing warm-up is the timed loop's business
            pass
    emit({"event": "ready", "import_s": import_s, "rss_base_kb": rss_base,
          "pages_bytes": sum(len(p) for p, _ in pages)})

    def on_alarm(signum: int, frame: Any) -> None:
        raise PageTimeout()

    signal.signal(signal.SIGALRM, on_alarm)
    timeout = float(spec["timeout"])
    start = int(spec["start"])
    for offset, (case, (raw, gzipped)) in enumerate(zip(spec["cases"], pages)):
        html = gzip.decompress(raw) if gzipped else raw
        status, text, extra, error = "ok", "", None, None
        c0, t0 = time.process_time(), time.perf_counter()
        try:
            try:
                signal.setitimer(signal.ITIMER_REAL, timeout)
                text, extra = run(html, case.get("url"))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except PageTimeout:
            status = "timeout"
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure is a crash
            status, error = "crash", f"{type(exc).__name__}: {str(exc)[:300]}"
        t1, c1 = time.perf_counter(), time.process_time()
        extra = _finish_extra(extra)
        del html
        emit({"event": "page", "i": start + offset, "status": status, "sec": t1 - t0,
              "cpu": c1 - c0, "text": text if isinstance(text, str) else str(text),
              "extra": extra, "error": error})
    emit({"event": "done", "rss_peak_kb": _maxrss_kb()})
    proto.flush()
    return 0


# =========================================================================== parent side


class _LineReader:
    """Read JSON lines from a child's stdout with a deadline per line."""

    def __init__(self, stream: Any) -> None:
        self.fd = stream.fileno()
        self.buffer = b""
        self.eof = False
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.fd, selectors.EVENT_READ)

    def next(self, timeout: float) -> dict | None:
        """The next message, or ``None`` on EOF or when ``timeout`` seconds pass first."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            if self.eof:
                return None
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                return None
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                self.eof = True
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def close(self) -> None:
        self.selector.close()


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def run_job(
    extractor: str,
    dataset_dir: Path,
    cases: list[dict],
    timeout: float,
    core: int | None,
    log_path: Path | None = None,
    grace: float = HARD_KILL_GRACE_S,
) -> dict:
    """Run one extractor over one dataset's cases in child processes; collect raw results."""
    n = len(cases)
    pages: list[dict | None] = [None] * n
    job: dict[str, Any] = {"extractor": extractor, "core": core, "restarts": 0,
                           "import_s": None, "rss_base_kb": None, "rss_peak_kb": 0,
                           "pages_bytes": None, "unavailable": None, "notes": []}
    light_cases = [{"html": c["html"], "url": c.get("url")} for c in cases]
    start = 0
    log = open(log_path, "ab") if log_path else subprocess.DEVNULL
    try:
        while start < n:
            if job["restarts"] > MAX_RESTARTS:
                for i in range(start, n):
                    pages[i] = {"status": "crash", "sec": 0.0, "cpu": 0.0, "text": "",
                                "extra": None, "error": "not run: too many child restarts"}
                job["notes"].append(f"gave up after {MAX_RESTARTS} restarts")
                break
            proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--worker"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                cwd=str(REPO),
            )
            spec = {"extractor": extractor, "dataset_dir": str(dataset_dir),
                    "cases": light_cases[start:], "start": start, "timeout": timeout,
                    "core": core}
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(spec).encode())
            proc.stdin.close()
            reader = _LineReader(proc.stdout)
            try:
                hello = reader.next(STARTUP_TIMEOUT_S)
                if hello is None or hello.get("event") != "ready":
                    _kill(proc)
                    if hello is not None and hello.get("event") == "unavailable":
                        job["unavailable"] = hello["error"]
                    else:
                        job["unavailable"] = f"child failed to start (exit {proc.returncode})"
                    return job
                if job["import_s"] is None:
                    job["import_s"] = hello["import_s"]
                    job["rss_base_kb"] = hello["rss_base_kb"]
                    job["pages_bytes"] = hello["pages_bytes"]
                i = start
                waited_from = time.perf_counter()
                while i < n:
                    msg = reader.next(timeout + grace)
                    if msg is None:
                        hung = not reader.eof
                        _kill(proc)
                        status = "timeout" if hung else "crash"
                        error = ("no answer: killed by the parent" if hung
                                 else f"child died (exit {proc.returncode})")
                        elapsed = time.perf_counter() - waited_from
                        pages[i] = {"status": status, "sec": min(elapsed, timeout),
                                    "cpu": 0.0, "text": "", "extra": None, "error": error}
                        job["restarts"] += 1
                        i += 1
                        break
                    pages[msg["i"]] = msg
                    i = msg["i"] + 1
                    waited_from = time.perf_counter()
                else:
                    done = reader.next(timeout + grace)
                    if done is not None and done.get("event") == "done":
                        job["rss_peak_kb"] = max(job["rss_peak_kb"], done["rss_peak_kb"])
                start = i
            finally:
                reader.close()
                _kill(proc)
                proc.stdout.close()
    finally:
        if log_path:
            log.close()
    job["pages"] = pages
    return job


# --------------------------------------------------------------------------- datasets


def default_shared_dir() -> Path:
    env = os.environ.get("UNCLUTTER_SHARED")
    return Path(env) if env else (REPO.parent / "shared")


def discover_datasets(shared: Path) -> dict[str, Path]:
    """Every ``<shared>/datasets/*/cases.jsonl`` whose cases have ``html`` fields."""
    found: dict[str, Path] = {}
    for cases_file in sorted((shared / "datasets").glob("*/cases.jsonl")):
        with cases_file.open(encoding="utf-8") as handle:
            first = handle.readline()
        if first.strip() and json.loads(first).get("html"):
            found[cases_file.parent.name] = cases_file.parent
    return found


def load_cases(dataset_dir: Path, limit: int | None) -> list[dict]:
    cases = []
    with (dataset_dir / "cases.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            case = json.loads(line)
            if case.get("html"):
                cases.append(case)
            if limit is not None and len(cases) >= limit:
                break
    return cases


# --------------------------------------------------------------------------- main


def merge_runs(first: dict, again: dict) -> dict:
    """Fold a repeated run of one (dataset, extractor) pair into the earlier one: each
    page keeps its fastest wall time and its smallest CPU time (the minimum is the run
    least disturbed by the rest of the machine: Python's ``timeit`` reports it for the same
    reason) among the runs with the first run's status; status and text stay those of the
    first run; the peak RSS is the larger one."""
    if first.get("unavailable") or again.get("unavailable"):
        return first
    if len(first.get("pages", [])) != len(again.get("pages", [])):
        return first
    for page, other in zip(first["pages"], again["pages"]):
        if page.get("status") != other.get("status"):
            continue  # a page that failed in one run only keeps the first run's figures
        if other.get("sec") is not None and (page.get("sec") is None or other["sec"] < page["sec"]):
            page["sec"] = other["sec"]
        if other.get("cpu") is not None and (page.get("cpu") is None or other["cpu"] < page["cpu"]):
            page["cpu"] = other["cpu"]
    first["rss_peak_kb"] = max(first.get("rss_peak_kb") or 0, again.get("rss_peak_kb") or 0)
    first["runs"] = first.get("runs", 1) + 1
    return first


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", help="comma-separated dataset names (default: all with html)")
    parser.add_argument("--extractors", default=",".join(DEFAULT_EXTRACTORS),
                        help="comma-separated: " + ", ".join(LOADERS))
    parser.add_argument("--limit", type=int, help="first N cases of each dataset")
    parser.add_argument("--shared", type=Path, default=None,
                        help="the shared/ folder (default: $UNCLUTTER_SHARED or <repo>/../shared)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "latest.json",
                        help="JSON report path; the Markdown table goes next to it (.md)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S,
                        help="per-page timeout in seconds")
    parser.add_argument("--grace", type=float, default=HARD_KILL_GRACE_S,
                        help="seconds past --timeout before a silent child is killed")
    parser.add_argument("--jobs", type=int, default=1,
                        help="extractor processes run at once, each on its own core (default 1)")
    parser.add_argument("--core", type=int, default=None,
                        help="core to pin to when --jobs is 1 (default: the lowest usable)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run every (dataset, extractor) pair N times, interleaved, each "
                             "in a fresh process; a page's time is its fastest run (default 1)")
    parser.add_argument("--predictions", action="store_true",
                        help="also write every prediction to <out dir>/predictions/")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        return worker_main()
    shared = args.shared or default_shared_dir()
    available = discover_datasets(shared)
    if not available:
        print(f"no datasets with html under {shared}/datasets", file=sys.stderr)
        return 2
    wanted = args.datasets.split(",") if args.datasets else list(available)
    unknown = [d for d in wanted if d not in available]
    if unknown:
        print(f"unknown dataset(s): {', '.join(unknown)}; have: {', '.join(available)}",
              file=sys.stderr)
        return 2
    extractors = [e.strip() for e in args.extractors.split(",") if e.strip()]
    bad = [e for e in extractors if e not in LOADERS]
    if bad:
        print(f"unknown extractor(s): {', '.join(bad)}; have: {', '.join(LOADERS)}",
              file=sys.stderr)
        return 2

    usable = sorted(os.sched_getaffinity(0))
    jobs_at_once = max(1, min(args.jobs, len(usable)))
    cores = [args.core if args.core is not None else usable[0]] if jobs_at_once == 1 \
        else usable[:jobs_at_once]
    out_dir = args.out.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    log_dir = out_dir / "logs"
    log_dir.mkdir(exist_ok=True)

    cases_by_ds = {d: load_cases(available[d], args.limit) for d in wanted}
    unavailable: dict[str, str] = {}
    raw: dict[str, dict[str, dict]] = {d: {} for d in wanted}
    free_cores: list[int] = list(cores)
    lock = threading.Lock()
    started = time.perf_counter()

    def one(dataset: str, extractor: str) -> None:
        with lock:
            if extractor in unavailable:
                raw[dataset][extractor] = {"unavailable": unavailable[extractor]}
                return
            core = free_cores.pop(0)
            earlier = raw[dataset].get(extractor)
        try:
            t0 = time.perf_counter()
            job = run_job(extractor, available[dataset], cases_by_ds[dataset], args.timeout,
                          core, log_dir / f"{dataset}.{extractor}.log", args.grace)
            with lock:
                raw[dataset][extractor] = merge_runs(earlier, job) if earlier else job
                if job.get("unavailable"):
                    unavailable[extractor] = job["unavailable"]
                    print(f"[{dataset}] {extractor}: unavailable ({job['unavailable']})",
                          file=sys.stderr, flush=True)
                else:
                    took = sum(p["sec"] for p in job["pages"])
                    print(f"[{dataset}] {extractor}: {len(job['pages'])} pages, "
                          f"{len(job['pages']) / took if took else 0:.1f} pages/s "
                          f"({time.perf_counter() - t0:.1f} s with start-up, core {core})",
                          file=sys.stderr, flush=True)
        finally:
            with lock:
                free_cores.append(core)

    # With --repeat, the rounds interleave (every pair once, then again...), so that a slow
    # spell of a shared machine hits all extractors alike.
    tasks = [(d, e) for _round in range(max(1, args.repeat)) for d in wanted for e in extractors]
    if jobs_at_once == 1:
        for task in tasks:
            one(*task)
    else:
        with ThreadPoolExecutor(max_workers=jobs_at_once) as pool:
            for future in [pool.submit(one, *task) for task in tasks]:
                future.result()

    report: dict[str, Any] = {
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine_info(),
        "versions": package_versions(extractors),
        "commit": git_commit(),
        "settings": {"timeout_s": args.timeout, "grace_s": args.grace, "limit": args.limit,
                     "jobs": jobs_at_once, "repeat": max(1, args.repeat),
                     "cores": cores, "shared": str(shared),
                     "wall_s": None},
        "datasets": {},
    }
    for dataset in wanted:
        cases = cases_by_ds[dataset]
        jobs = {e: raw[dataset][e] for e in extractors}
        ds: dict[str, Any] = {
            "cases": len(cases),
            "cases_with_text": sum(1 for c in cases if c.get("text") is not None),
            "cases_with_snippets": sum(1 for c in cases if c.get("with") or c.get("without")),
            # the fixed read/scored split (bench/split.py); a limited run splits what it read
            "split_rule": "bench/split.py: sites by SHA-256 parity",
            "extractors": {e: score_job(j, cases, split_parts(dataset, cases)) for e, j in jobs.items()},
        }
        ours = ds["extractors"].get("unclutter")
        if ours and ours.get("pages_per_s"):
            # our pages/s over each rival's, measured in this run (wall time; CPU time too)
            ds["unclutter_speed_ratio"] = {
                e: ours["pages_per_s"] / r["pages_per_s"]
                for e, r in ds["extractors"].items()
                if e != "unclutter" and r.get("pages_per_s")}
            ds["unclutter_speed_ratio_cpu"] = {
                e: ours["pages_per_cpu_s"] / r["pages_per_cpu_s"]
                for e, r in ds["extractors"].items()
                if e != "unclutter" and r.get("pages_per_cpu_s") and ours.get("pages_per_cpu_s")}
        if any((c.get("meta") or {}).get("page_type") for c in cases):
            ds["page_types"] = page_type_breakdown(cases, jobs)
        report["datasets"][dataset] = ds
        if args.predictions:
            pred_dir = out_dir / "predictions" / dataset
            pred_dir.mkdir(parents=True, exist_ok=True)
            for e, job in jobs.items():
                if job.get("unavailable"):
                    continue
                with (pred_dir / f"{e}.jsonl").open("w", encoding="utf-8") as handle:
                    for case, page in zip(cases, job["pages"]):
                        handle.write(json.dumps({"id": case["id"], "status": page["status"],
                                                 "text": page["text"]}, ensure_ascii=False)
                                     + "\n")
    report["settings"]["wall_s"] = round(time.perf_counter() - started, 1)

    markdown = render_markdown(report)
    print(markdown)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    md_path = args.out.with_suffix(".md")
    md_path.write_text(markdown, encoding="utf-8")
    print(f"wrote {args.out} and {md_path} ({report['settings']['wall_s']} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
