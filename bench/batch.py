#!/usr/bin/env python3
"""Crawl-scale benchmark: the batch command on a WARC of real pages, beside trafilatura, Ray
and Spark, with memory over a long run and kill-and-resume checks.

    python bench/batch.py [--pages 2000] [--workers 1,2] [--rivals trafilatura,trafilatura-markdown,ray,spark]
                          [--styles cascade,inline] [--long-records 20000] [--kills 5]
                          [--out bench/results/batch.json]

What it does, in one run on this machine:

1. **Input**: 8 ``.warc.gz`` parts holding ``--pages`` HTML response records built from the pages of
   ``../shared/datasets`` (every page once, in dataset order, then again with a ``#copy-N``
   URL until the count is reached), with no charset in the HTTP header (pages declare their
   own). WARC reading alone is timed with FastWARC and warcio.
2. **Batch command** (:func:`unclutter.batch.run_batch`, JSON Lines output) at each
   ``--workers`` count: pages/s, pages/s per worker, CPU seconds, peak resident set per
   worker (``VmHWM``); scaling = pages/s at the largest count / pages/s at 1. Then again
   with each further ``--styles`` mode (default ``cascade,inline``: ``Options.styles``
   ``inline`` reads ``style`` attributes only).
3. **trafilatura in the same harness**: the same WARC reader, worker pool and JSON Lines
   writer, with ``trafilatura.extract(html, url=url, include_comments=False)`` as the
   record function (``--rivals trafilatura``); and, with ``--rivals trafilatura-markdown``,
   asked for what unclutter's record holds, Markdown and metadata (``with_metadata=True,
   output_format="markdown"``; title, author and date read back from its front matter).
4. **Ray** (local, one CPU per worker) and **Spark** (``local[N]``) on the same WARC:
   wall time from the call to the written Parquet, and their overhead over the batch
   command at the same parallelism. Start-up of the engine is timed apart.
5. **Memory over a long run**: ``--long-records`` records through one worker (the WARC
   read again as many times as needed); the worker's resident set after each 1,000.
6. **Resume**: the batch command killed (SIGKILL) ``--kills`` times at random moments,
   then run to the end; its output must equal an uninterrupted run's (the ``seconds``
   column aside).
7. **Projection**: CPU-hours and cost per million pages from the measured CPU seconds per
   page, at an assumed price per vCPU-hour (``--usd-per-vcpu-hour``, default 0.04).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("UNCLUTTER_SHARED") or REPO.parent / "shared")
sys.path.insert(0, str(REPO / "tests"))


def build_warc(folder: Path, n: int, parts: int = 8) -> int:
    from warc_build import response_record

    cases = []
    for cases_file in sorted((SHARED / "datasets").glob("*/cases.jsonl")):
        for line in cases_file.read_text(encoding="utf-8").split("\n"):
            if line.strip():
                case = json.loads(line)
                if case.get("html"):
                    cases.append((cases_file.parent / case["html"], case.get("url") or f"https://example.org/{case['id']}"))
    if not cases:
        raise SystemExit(f"no dataset pages under {SHARED / 'datasets'}")
    folder.mkdir(parents=True, exist_ok=True)
    handles = [open(folder / f"part-{k:02d}.warc.gz", "wb") for k in range(parts)]
    written = 0
    try:
        while written < n:
            for html_path, url in cases:
                if written >= n:
                    break
                raw = html_path.read_bytes()
                if html_path.suffix == ".gz":
                    raw = gzip.decompress(raw)
                copy = written // len(cases)
                record = response_record(url + (f"#copy-{copy}" if copy else ""), raw, "text/html")
                handles[written * parts // n].write(gzip.compress(record, compresslevel=1))
                written += 1
    finally:
        for handle in handles:
            handle.close()
    return written


def time_readers(folder: Path) -> dict:
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    out = {}
    t = time.perf_counter()
    n = 0
    for path in sorted(folder.glob("*.warc.gz")):
        with open(path, "rb") as handle:
            for record in ArchiveIterator(handle, record_types=WarcRecordType.response, parse_http=True):
                record.reader.read()
                n += 1
    out["fastwarc_s"] = time.perf_counter() - t
    try:
        from warcio.archiveiterator import ArchiveIterator as WarcioIterator
    except ImportError:
        out["warcio_s"] = None
    else:
        t = time.perf_counter()
        for path in sorted(folder.glob("*.warc.gz")):
            with open(path, "rb") as handle:
                for record in WarcioIterator(handle):
                    if record.rec_type == "response":
                        record.content_stream().read()
        out["warcio_s"] = time.perf_counter() - t
    out["records"] = n
    return out


def trafilatura_record(page, options):
    """The batch record of a page, with trafilatura as the extractor (same columns)."""
    import trafilatura

    from unclutter.batch.record import STATUS_OK, empty_record, error_record

    start = time.perf_counter()
    try:
        text = trafilatura.extract(page.data, url=page.url, include_comments=False)
    except Exception as exc:  # noqa: BLE001 - a rival's crash is an error row here too
        return error_record(page, "RivalError", f"{type(exc).__name__}: {exc}", time.perf_counter() - start)
    record = empty_record(page)
    record.update(status=STATUS_OK if text else "error", text=text, markdown=text,
                  error_kind=None if text else "NoContentError", seconds=time.perf_counter() - start)
    return record


def _front_matter(markdown: str) -> tuple[dict[str, str], str]:
    """The YAML front matter trafilatura writes above its Markdown with ``with_metadata``
    (``key: value`` lines between ``---`` lines; values unquoted) and the Markdown below it."""
    if not markdown.startswith("---\n"):
        return {}, markdown
    head, sep, body = markdown[4:].partition("\n---\n")
    if not sep:
        return {}, markdown
    fields = {}
    for line in head.split("\n"):
        key, colon, value = line.partition(": ")
        if colon:
            fields[key.strip()] = value.strip().strip('"')
    return fields, body


def trafilatura_markdown_record(page, options):
    """The batch record of a page with trafilatura asked for what unclutter's record holds:
    Markdown and the metadata (title, author, date; ``with_metadata=True``,
    ``output_format="markdown"``), read back from its front matter into the same columns."""
    import trafilatura

    from unclutter.batch.record import STATUS_OK, empty_record, error_record

    start = time.perf_counter()
    try:
        out = trafilatura.extract(page.data, url=page.url, include_comments=False, with_metadata=True,
                                  output_format="markdown")
    except Exception as exc:  # noqa: BLE001 - a rival's crash is an error row here too
        return error_record(page, "RivalError", f"{type(exc).__name__}: {exc}", time.perf_counter() - start)
    fields, markdown = _front_matter(out or "")
    record = empty_record(page)
    record.update(status=STATUS_OK if markdown.strip() else "error", markdown=markdown, text=markdown,
                  title=fields.get("title"), byline=fields.get("author"), date_published=fields.get("date"),
                  error_kind=None if markdown.strip() else "NoContentError", seconds=time.perf_counter() - start)
    return record


def run_batch_once(warc: Path, workers: int, record_fn=None, styles: str = "cascade") -> dict:
    from unclutter import Options
    from unclutter.batch import run_batch

    out = Path(tempfile.mkdtemp(prefix="ub-")) / "out.jsonl"
    try:
        summary = run_batch([str(warc)], str(out), workers=workers, quiet=True, record_fn=record_fn,
                            options=Options(styles=styles))
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)
    return {"workers": workers, "pages": summary.pages, "seconds": round(summary.seconds, 2),
            "pages_per_s": round(summary.pages_per_second, 2),
            "pages_per_s_per_worker": round(summary.pages_per_second / workers, 2),
            "cpu_s": round(summary.cpu_seconds, 1), "cpu_ms_per_page": round(1000 * summary.cpu_seconds / max(1, summary.pages), 1),
            "worker_peak_rss_mb": round(summary.worker_peak_rss_mb), "errors": dict(summary.errors)}


def run_ray(warc: Path, workers: int) -> dict:
    import ray

    from unclutter.scale.ray import extract_dataset

    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    t = time.perf_counter()
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, _temp_dir=temp)
    startup = time.perf_counter() - t
    out = Path(tempfile.mkdtemp(prefix="ray-out-"))
    try:
        t = time.perf_counter()
        extract_dataset([str(warc)], concurrency=workers).write_parquet(str(out))
        seconds = time.perf_counter() - t
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    return {"engine": "ray", "workers": workers, "startup_s": round(startup, 1), "seconds": round(seconds, 1)}


def run_spark(warc: Path, workers: int) -> dict:
    from pyspark.sql import SparkSession

    from unclutter.scale.spark import extract_paths

    os.environ["PYSPARK_PYTHON"] = sys.executable
    t = time.perf_counter()
    spark = (SparkSession.builder.master(f"local[{workers}]").config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1").config("spark.ui.enabled", "false").getOrCreate())
    startup = time.perf_counter() - t
    out = Path(tempfile.mkdtemp(prefix="spark-out-")) / "p"
    try:
        t = time.perf_counter()
        extract_paths(spark, [str(warc)]).write.parquet(str(out))  # one partition per WARC part
        seconds = time.perf_counter() - t
    finally:
        spark.stop()
        shutil.rmtree(out.parent, ignore_errors=True)
    return {"engine": "spark", "workers": workers, "startup_s": round(startup, 1), "seconds": round(seconds, 1)}


def long_run(warc: Path, records: int) -> dict:
    from unclutter.batch.sources import Item, SourceCounts, read_pages
    from unclutter.batch.workers import map_records

    def pages():
        i = 0
        while i < records:
            items = [Item("warc", str(p)) for p in sorted(warc.glob("*.warc.gz"))]
            for page in read_pages(items, SourceCounts()):
                if i >= records:
                    return
                yield i, page
                i += 1

    stats: dict = {}
    curve = []
    t = time.perf_counter()
    for index, _ in map_records(pages(), workers=1, stats=stats):
        if (index + 1) % 1000 == 0:
            curve.append((index + 1, round(stats.get("worker_rss_kb", 0) / 1024)))
    return {"records": records, "seconds": round(time.perf_counter() - t, 1), "rss_mb_every_1000": curve}


def resume_check(warc: Path, kills: int, seed: int = 11) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="ub-resume-"))
    base = [sys.executable, "-m", "unclutter", str(warc), "--quiet", "--shard-size", "50", "--workers", "2"]
    try:
        subprocess.run(base + ["-o", str(tmp / "full.jsonl")], check=False, timeout=3600)
        rng = random.Random(seed)
        done_kills = 0
        args = base + ["-o", str(tmp / "resumed.jsonl")]
        for _ in range(kills):
            proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(2, 9))
            if proc.poll() is not None:  # it finished first: nothing left to kill
                break
            proc.send_signal(signal.SIGKILL)
            done_kills += 1
            proc.wait()
        if not (tmp / "resumed.jsonl").exists():
            subprocess.run(args, check=False, timeout=3600)

        def rows(p: Path) -> list:
            return [{k: v for k, v in json.loads(x).items() if k != "seconds"}
                    for x in p.read_text(encoding="utf-8").split("\n") if x]

        same = rows(tmp / "full.jsonl") == rows(tmp / "resumed.jsonl")
        return {"kills": done_kills, "identical": same, "records": len(rows(tmp / "full.jsonl"))}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=2000)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--rivals", default="trafilatura,trafilatura-markdown,ray,spark")
    ap.add_argument("--long-records", type=int, default=20000)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--usd-per-vcpu-hour", type=float, default=0.04)
    ap.add_argument("--styles", default="cascade,inline",
                    help="Options.styles modes of the batch command to time (the first is the default's)")
    ap.add_argument("--warc", type=Path, default=Path(tempfile.gettempdir()) / "unclutter-bench-warc",
                    help="folder of the WARC parts (built when missing)")
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "batch.json")
    args = ap.parse_args(argv)
    workers = [int(w) for w in args.workers.split(",")]
    rivals = [r for r in args.rivals.split(",") if r]
    report: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                "platform": platform.platform()}, "pages": args.pages}
    if not any(args.warc.glob("*.warc.gz")):
        print(f"building {args.warc} ...", file=sys.stderr)
        build_warc(args.warc, args.pages)
    report["warc_readers"] = time_readers(args.warc)
    print(json.dumps(report["warc_readers"]), file=sys.stderr)
    styles = [m for m in args.styles.split(",") if m]
    report["batch"] = []
    for w in workers:
        report["batch"].append(run_batch_once(args.warc, w, styles=styles[0]))
        print(json.dumps(report["batch"][-1]), file=sys.stderr)
    for mode in styles[1:]:  # (the batch command with another Options.styles: --styles inline)
        report[f"batch_styles_{mode}"] = [run_batch_once(args.warc, w, styles=mode) for w in workers]
        print(json.dumps(report[f"batch_styles_{mode}"]), file=sys.stderr)
    one = next((r for r in report["batch"] if r["workers"] == 1), None)
    top = report["batch"][-1]
    if one:
        report["scaling"] = round(top["pages_per_s"] / one["pages_per_s"], 2)
    if "trafilatura" in rivals:
        report["trafilatura"] = [run_batch_once(args.warc, w, trafilatura_record) for w in workers]
        print(json.dumps(report["trafilatura"]), file=sys.stderr)
        report["vs_trafilatura"] = {str(u["workers"]): round(u["pages_per_s"] / t["pages_per_s"], 2)
                                    for u, t in zip(report["batch"], report["trafilatura"])}
        for mode in styles[1:]:
            report[f"vs_trafilatura_styles_{mode}"] = {
                str(u["workers"]): round(u["pages_per_s"] / t["pages_per_s"], 2)
                for u, t in zip(report[f"batch_styles_{mode}"], report["trafilatura"])}
    if "trafilatura-markdown" in rivals:
        report["trafilatura_markdown"] = [run_batch_once(args.warc, w, trafilatura_markdown_record)
                                          for w in workers]
        print(json.dumps(report["trafilatura_markdown"]), file=sys.stderr)
        for mode in styles:
            ours = report["batch"] if mode == styles[0] else report[f"batch_styles_{mode}"]
            report[f"vs_trafilatura_markdown_styles_{mode}"] = {
                str(u["workers"]): round(u["pages_per_s"] / t["pages_per_s"], 2)
                for u, t in zip(ours, report["trafilatura_markdown"])}
    for engine, fn in (("ray", run_ray), ("spark", run_spark)):
        if engine in rivals:
            try:
                result = fn(args.warc, top["workers"])
                result["overhead_vs_batch"] = round(result["seconds"] / top["seconds"], 2)
            except Exception as exc:  # noqa: BLE001 - an engine not installed or failing is reported
                result = {"engine": engine, "error": f"{type(exc).__name__}: {exc}"[:300]}
            report[engine] = result
            print(json.dumps(result), file=sys.stderr)
    if args.long_records:
        report["long_run"] = long_run(args.warc, args.long_records)
        print(json.dumps(report["long_run"]), file=sys.stderr)
    if args.kills:
        report["resume"] = resume_check(args.warc, args.kills)
        print(json.dumps(report["resume"]), file=sys.stderr)
    cpu_ms = (one or top)["cpu_ms_per_page"]
    report["projection_per_million_pages"] = {
        "cpu_hours": round(cpu_ms * 1e6 / 1000 / 3600, 1),
        "usd": round(cpu_ms * 1e6 / 1000 / 3600 * args.usd_per_vcpu_hour, 2),
        "usd_per_vcpu_hour_assumed": args.usd_per_vcpu_hour}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
