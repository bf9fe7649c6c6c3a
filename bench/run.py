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
rivals come with the ``bench`` extra.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gzip
import importlib
import importlib.util
import json
import os
import platform
import resource
import selectors
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

DEFAULT_EXTRACTORS = ("unclutter", "trafilatura", "readability-lxml", "resiliparse")
DEFAULT_TIMEOUT_S = 20.0
#: Extra seconds the parent waits beyond ``--timeout`` before it kills a silent child.
HARD_KILL_GRACE_S = 10.0
#: How long a child may take to read its pages and import its extractor.
STARTUP_TIMEOUT_S = 300.0
#: After this many child restarts (crashes, hard timeouts) in one job, the rest of the pages
#: are recorded as crashes rather than retried.
MAX_RESTARTS = 25
#: Distribution names whose versions go into the report.
VERSIONED_PACKAGES = {
    "unclutter": "unclutter",
    **{f"unclutter-{v}": "unclutter" for v in ("heuristic", "cetd", "gbdt", "gnn", "auto",
                                               "gbdt-no-densitysum", "gnn-no-densitysum",
                                               "auto-no-refine", "gbdt-first-stage", "gbdt-no-sections",
                                               "auto-no-second-opinion")},
    "trafilatura": "trafilatura",
    "trafilatura-defaults": "trafilatura",
    "readability-lxml": "readability-lxml",
    "resiliparse": "resiliparse",
}
#: The untimed warm-up page each extractor sees once before the timed loop.
WARMUP_HTML = (
    b"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Warm-up page</title></head>"
    b"<body><nav><a href='/'>Home</a> <a href='/about'>About</a></nav><article><h1>Warm-up"
    b"</h1><p>This short paragraph exists only so that each extractor can finish any lazy, "
    b"one-off set-up before the timed loop starts, in the same way imports are excluded.</p>"
    b"<p>A second paragraph, with a few commas, some words, and a full stop at the end.</p>"
    b"</article><footer>Footer text</footer></body></html>"
)
#: The same page declaring a product: an extractor that routes pages by their declared
#: type (unclutter's default ``auto`` sends products to its learned model, whose file is
#: loaded on first use) finishes that set-up too. Every extractor sees both pages.
WARMUP_PRODUCT_HTML = WARMUP_HTML.replace(
    b"</head>", b"<script type='application/ld+json'>{\"@type\": \"Product\"}</script></head>", 1)


# =========================================================================== child side


def _finish_extra(extra: dict | None) -> dict | None:
    """Outside the timed section: replace a returned Article by its token counts."""
    if extra and "_article" in extra:
        article = extra.pop("_article")
        extra["tokens_raw"] = getattr(article, "tokens_raw", None)
        extra["tokens_clean"] = getattr(article, "tokens_clean", None)
    return extra


class PageTimeout(BaseException):
    """Raised by the child's SIGALRM handler. A BaseException, so that an extractor's
    ``except Exception`` cannot swallow it."""


def _load_unclutter(extractor: str | None = None, variant: dict | None = None
                    ) -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    import unclutter
    from unclutter.core.errors import UnclutterError

    extract = unclutter.extract  # AttributeError while the package has no extract(): "unavailable"
    options = {"extractor": extractor} if extractor else {}
    if variant:  # ablation switches of the learned extractors (bench/ablation.py)
        from unclutter.classify import registry

        registry.VARIANT.update(variant)

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        try:
            article = extract(html, url=url, **options)
        except UnclutterError as exc:
            return "", {"refused": type(exc).__name__}
        # Token counts are computed lazily by Article; they are read after the timed
        # call (see _finish_extra), since "parse to Markdown" is what pages/s measures.
        return article.text or "", {"_article": article}

    return run


def _load_trafilatura(include_comments: bool = False) -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    import trafilatura

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        text = trafilatura.extract(html, url=url, output_format="txt",
                                   include_comments=include_comments)
        return text or "", None

    return run


def _load_trafilatura_defaults() -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    return _load_trafilatura(include_comments=True)  # trafilatura's own default


#: Elements after which readability-lxml's summary gets a newline before ``text_content()``.
_READABILITY_BLOCKS = frozenset(
    "p div li ul ol h1 h2 h3 h4 h5 h6 br tr td th table blockquote pre section article "
    "header footer figure figcaption dd dt dl hr".split()
)


def _load_readability() -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    import lxml.html
    from readability import Document

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        summary = Document(html).summary()
        root = lxml.html.fromstring(summary)
        for element in root.iter():
            if isinstance(element.tag, str) and element.tag in _READABILITY_BLOCKS:
                element.tail = "\n" + (element.tail or "")
        return root.text_content(), None

    return run


def _load_resiliparse() -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        text = bytes_to_str(html, detect_encoding(html))
        return extract_plain_text(text, main_content=True), None

    return run


def _load_fake() -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    """Text of every ``<p>``, with the stdlib parser. For tests, a page URL containing
    ``bench-fault=raise|sleep|hang|abort`` makes it raise, sleep (soft timeout), hang with
    SIGALRM blocked (hard timeout) or abort the process (crash)."""
    from html.parser import HTMLParser

    class _Paragraphs(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.depth = 0
            self.parts: list[str] = []

        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag == "p":
                self.depth += 1

        def handle_endtag(self, tag: str) -> None:
            if tag == "p" and self.depth:
                self.depth -= 1
                self.parts.append("\n\n")

        def handle_data(self, data: str) -> None:
            if self.depth:
                self.parts.append(data)

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        fault = (url or "").partition("bench-fault=")[2]
        if fault.startswith("raise"):
            raise RuntimeError("injected fault")
        if fault.startswith("sleep"):
            time.sleep(3600)
        if fault.startswith("hang"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(3600)
        if fault.startswith("abort"):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file
            os.abort()
        parser = _Paragraphs()
        parser.feed(html.decode("utf-8", "replace"))
        parser.close()
        text = "".join(parser.parts).strip()
        return text, {"tokens_raw": len(html) // 4, "tokens_clean": len(text) // 4}

    return run


#: unclutter with a chosen ``--extractor`` (``unclutter-gbdt``...), and the ablation variants
#: of the learned extractors (DensitySum switched off, the GBDT's auto-context stage off, the
#: section rules after classification off, ``auto``'s refinement or second opinion off).
UNCLUTTER_VARIANTS: dict[str, tuple[str, dict | None]] = {
    **{f"unclutter-{name}": (name, None) for name in ("heuristic", "cetd", "gbdt", "gnn", "auto")},
    "unclutter-gbdt-no-densitysum": ("gbdt", {"recovery": False}),
    "unclutter-gbdt-first-stage": ("gbdt", {"context": False}),
    "unclutter-gbdt-no-sections": ("gbdt", {"sections": False}),
    "unclutter-gnn-no-densitysum": ("gnn", {"files": {"gnn": "gnn-no-densitysum.npz"}}),
    "unclutter-auto-no-refine": ("auto", {"refine": False}),
    "unclutter-auto-no-second-opinion": ("auto", {"second_opinion": False}),
}

LOADERS: dict[str, Callable[[], Callable[[bytes, str | None], tuple[str, dict | None]]]] = {
    "unclutter": _load_unclutter,
    **{k: (lambda e=e, v=v: _load_unclutter(e, v)) for k, (e, v) in UNCLUTTER_VARIANTS.items()},
    "trafilatura": _load_trafilatura,
    "trafilatura-defaults": _load_trafilatura_defaults,
    "readability-lxml": _load_readability,
    "resiliparse": _load_resiliparse,
    "fake": _load_fake,
}


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



def score_job(job: dict, cases: list[dict]) -> dict:
    """Turn a job's raw per-page results into the figures of the report."""
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
    result = {
        "scores": scores.as_dict(),
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
                  "| extractor | P | R | F1 (±) | with-hit | w/o-clean | pages/s | pages/s CPU "
                  "| peak RSS MB | +RSS MB | empty | crash/timeout |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for ext, r in ds["extractors"].items():
            if r.get("unavailable"):
                lines.append(f"| {ext} | unavailable: {r['unavailable'][:80]} |"
                             + " |" * 10)
                continue
            s, sn = r["scores"], r["snippets"]
            f1 = _fmt(s["f1"]) + (f" ± {s['f1_std']:.3f}" if s.get("f1_std") is not None else "")
            lines.append(
                f"| {ext} | {_fmt(s['precision'])} | {_fmt(s['recall'])} | {f1} "
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
            "extractors": {e: score_job(j, cases) for e, j in jobs.items()},
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
