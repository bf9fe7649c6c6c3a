"""Load benchmark of the HTTP service (not a test): requests/s, latency, errors, memory.

A local origin server (in this process) serves real pages from the shared datasets; the
service runs as ``unclutter serve`` in its own process on 127.0.0.1, allowed to fetch from
exactly that origin. Clients send a bounded number of ``GET /read?url=...`` requests at 1,
8 and 32 concurrent connections, for one or more rounds; every level reports requests/s,
p50/p99 latency, errors (any answer but 200, or a transport failure) and the service's
resident memory (VmRSS) before and after. Nothing leaves the loopback interface.

    pip install -e '.[server]'
    python bench/load.py                                  # 200 requests per level, 2 rounds
    python bench/load.py --requests 100 --levels 1,8 --rounds 1 --format markdown

Results: a Markdown table on stdout and ``bench/results/load.json`` (git-ignored).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import http.server
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent

#: Dataset whose pages the origin serves, and how many of them (the first, by id order).
DEFAULT_DATASET = "readability-tests"
DEFAULT_PAGES = 12
DEFAULT_LEVELS = (1, 8, 32)
DEFAULT_REQUESTS = 200
DEFAULT_ROUNDS = 2
#: Seconds one request may take before the client counts it as an error.
CLIENT_TIMEOUT = 60.0
#: Seconds the whole run may take; past it the run stops and says so.
RUN_LIMIT = 1800.0


def _shared(arg: str | None) -> Path:
    return Path(arg or os.environ.get("UNCLUTTER_SHARED") or REPO.parent / "shared")


def load_pages(shared: Path, dataset: str, count: int) -> list[bytes]:
    """The first ``count`` pages of ``dataset`` that unclutter extracts without error."""
    import unclutter

    pages = []
    with open(shared / "datasets" / dataset / "cases.jsonl", encoding="utf-8") as fh:
        for line in fh:
            case = json.loads(line)
            path = shared / "datasets" / dataset / case["html"]
            data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
            try:
                unclutter.extract(data)
            except unclutter.UnclutterError:
                continue
            pages.append(data)
            if len(pages) == count:
                break
    return pages


class Origin:
    """A threaded HTTP server on 127.0.0.1 serving ``pages`` at ``/p/<i>.html``."""

    def __init__(self, pages: list[bytes]) -> None:
        bodies = pages

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802
                try:
                    body = bodies[int(self.path.split("/")[-1].split(".")[0])]
                except (ValueError, IndexError):
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)

    def __enter__(self) -> Origin:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MiB (VmRSS)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, -(-int(q * 1000) * len(ordered) // 1000))
    return ordered[min(rank, len(ordered)) - 1]


async def run_level(base: str, urls: list[str], concurrency: int, requests: int, fmt: str) -> dict:
    latencies: list[float] = []
    errors: dict[str, int] = {}
    counter = iter(range(requests))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=CLIENT_TIMEOUT, limits=limits) as client:

        async def worker() -> None:
            for i in counter:
                start = time.perf_counter()
                try:
                    r = await client.get("/read", params={"url": urls[i % len(urls)], "format": fmt})
                    ok, label = r.status_code == 200, str(r.status_code)
                    if not ok:
                        try:
                            label += " " + r.json()["error"]["code"]
                        except (ValueError, KeyError, TypeError):
                            pass
                except httpx.HTTPError as exc:
                    ok, label = False, type(exc).__name__
                latencies.append(time.perf_counter() - start)
                if not ok:
                    errors[label] = errors.get(label, 0) + 1

        began = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - began
    return {
        "concurrency": concurrency,
        "requests": len(latencies),
        "seconds": round(elapsed, 2),
        "requests_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "errors": sum(errors.values()),
        "error_kinds": errors,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", help="shared folder (default $UNCLUTTER_SHARED, else <repo>/../shared)")
    ap.add_argument("--dataset", default=DEFAULT_DATASET)
    ap.add_argument("--pages", type=int, default=DEFAULT_PAGES, help="distinct pages the origin serves")
    ap.add_argument("--levels", default=",".join(map(str, DEFAULT_LEVELS)), help="concurrent clients per level")
    ap.add_argument("--requests", type=int, default=DEFAULT_REQUESTS, help="requests per level")
    ap.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS, help="times the whole set of levels runs")
    ap.add_argument("--format", default="json", choices=["json", "markdown", "text", "html"])
    ap.add_argument("--max-jobs", type=int, help="service worker threads (default: the service's)")
    ap.add_argument("--max-queued", type=int, help="service queue (default: the service's)")
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "load.json"))
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]

    pages = load_pages(_shared(args.shared), args.dataset, args.pages)
    if not pages:
        print(f"no pages found in {args.dataset}", file=sys.stderr)
        return 2
    port = free_port()
    with Origin(pages) as origin:
        cmd = [sys.executable, "-m", "unclutter", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--no-access-log", "--log-level", "warning",
               "--allow-private", "127.0.0.1", "--allow-port", str(origin.port)]
        if args.max_jobs:
            cmd += ["--max-jobs", str(args.max_jobs)]
        if args.max_queued is not None:
            cmd += ["--max-queued", str(args.max_queued)]
        service = subprocess.Popen(cmd, stderr=subprocess.PIPE)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    health = httpx.get(base + "/healthz", timeout=1)
                    if health.status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if service.poll() is not None or time.monotonic() > deadline:
                    print("the service did not start:", service.stderr.read().decode(errors="replace"), file=sys.stderr)
                    return 1
                time.sleep(0.1)
            urls = [f"http://127.0.0.1:{origin.port}/p/{i}.html" for i in range(len(pages))]
            rss_start = rss_mb(service.pid)
            warm = asyncio.run(run_level(base, urls, 1, len(urls), args.format))  # imports, caches
            rss_warm = rss_mb(service.pid)
            rows = []
            started = time.monotonic()
            for round_no in range(1, args.rounds + 1):
                for c in levels:
                    if time.monotonic() - started > RUN_LIMIT:
                        print(f"stopped: the run passed {RUN_LIMIT:.0f} s", file=sys.stderr)
                        break
                    before = rss_mb(service.pid)
                    row = asyncio.run(run_level(base, urls, c, args.requests, args.format))
                    row.update(round=round_no, rss_before_mb=round(before, 1), rss_after_mb=round(rss_mb(service.pid), 1))
                    rows.append(row)
                    print(f"round {round_no} c={c:>2}: {row['requests_per_s']:>6} req/s  p50 {row['p50_ms']:>7} ms  "
                          f"p99 {row['p99_ms']:>7} ms  errors {row['errors']}  RSS {row['rss_before_mb']} -> "
                          f"{row['rss_after_mb']} MiB", file=sys.stderr)
            rss_end = rss_mb(service.pid)
        finally:
            service.terminate()
            try:
                service.wait(10)
            except subprocess.TimeoutExpired:
                service.kill()

    result = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "dataset": args.dataset, "pages": len(pages), "page_kib_mean": round(statistics.mean(map(len, pages)) / 1024, 1),
        "format": args.format, "requests_per_level": args.requests, "rounds": args.rounds,
        "warmup": warm, "rss_mb": {"start": round(rss_start, 1), "after_warmup": round(rss_warm, 1),
                                   "end": round(rss_end, 1)},
        "levels": rows,
        "total_errors": sum(r["errors"] for r in rows) + warm["errors"],
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")

    print(f"{len(pages)} pages of {args.dataset} (mean {result['page_kib_mean']} KiB), GET /read format={args.format}, "
          f"{args.requests} requests per level\n")
    print("| round | clients | req/s | p50 ms | p99 ms | errors | RSS before → after MiB |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['round']} | {r['concurrency']} | {r['requests_per_s']} | {r['p50_ms']} | {r['p99_ms']} | "
              f"{r['errors']} | {r['rss_before_mb']} → {r['rss_after_mb']} |")
    print(f"\nRSS: {result['rss_mb']['start']} MiB at start, {result['rss_mb']['after_warmup']} after warm-up, "
          f"{result['rss_mb']['end']} at the end; errors in all: {result['total_errors']}")
    return 0 if result["total_errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
