"""A pool of worker processes that extracts pages with a deadline per page.

Each worker is a process started from a fork server that has already imported the
pipeline, so a new worker is ready in milliseconds and models load once per worker, on
first use. The parent gives each worker one page at a time and watches the clock: a worker
that runs past the page's deadline is killed and the page becomes a ``TimeoutError`` row; a
worker that dies (killed by the kernel for memory, a crash in native code) makes its page a
``WorkerCrashError`` row. Either way a fresh worker takes its place and the run goes on.

A worker may also be given an address-space ceiling (``RLIMIT_AS``, bytes): a page that
needs more raises ``MemoryError`` inside the worker and becomes a ``MemoryLimitError`` row.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Iterable, Iterator
from multiprocessing.connection import wait
from typing import Any

from ..core.options import Options
from .record import PageInput, error_record, extract_record

#: Seconds a page may take before its worker is killed (``--timeout``).
DEFAULT_PAGE_TIMEOUT_S = 60.0
#: Seconds a new worker may take to start and answer.
WORKER_START_TIMEOUT_S = 120.0
#: Pages a worker extracts before a fresh one replaces it: the bounded caches of a long-lived
#: worker (parsed styles, models' buffers) grow its memory by a few MB per 1,000 pages.
RECYCLE_AFTER_PAGES = 5000
#: Fork server's preloaded modules: the pipeline and what every page needs.
PRELOAD = ["unclutter.batch.record", "unclutter.pipeline"]


#: A page declaring a product: extracting it once loads what later pages may need (the
#: learned models), so that this one-off cost is not charged to a page's deadline.
WARMUP_PAGE = (b"<html><head><title>Warm-up</title><script type='application/ld+json'>"
               b'{"@type": "Product", "name": "Warm-up"}</script></head><body><article><h1>Warm-up</h1>'
               + b"<p>A paragraph of text that is long enough to be read as content.</p>" * 4
               + b"</article></body></html>")


def _rss_kb() -> tuple[int, int]:
    """(peak, current) resident set size of this process, KiB (``/proc``; zeros elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            fields = dict(line.split(":", 1) for line in handle if line.startswith(("VmHWM", "VmRSS")))
        return int(fields["VmHWM"].split()[0]), int(fields["VmRSS"].split()[0])
    except (OSError, KeyError, ValueError):
        return 0, 0


def _worker_main(conn: Any, options: Options, memory_limit: int | None, record_fn: Any = None) -> None:
    # Ctrl-C is the parent's to handle: it stops feeding pages and closes the output.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    record_fn = record_fn or extract_record
    record_fn(PageInput(id="warm-up", source="warm-up", data=WARMUP_PAGE), options)
    if memory_limit:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    try:
        conn.send("ready")
    except (OSError, ValueError):
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, page = message
        cpu = time.process_time()
        record = record_fn(page, options)
        try:
            conn.send((index, record, time.process_time() - cpu, _rss_kb()))
        except (OSError, ValueError):
            return


class _Worker:
    def __init__(self, ctx: Any, options: Options, memory_limit: int | None, record_fn: Any = None) -> None:
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, options, memory_limit, record_fn), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent
        self.task: tuple[int, PageInput] | None = None
        self.ready = False
        self.done = 0
        self.started = time.monotonic()

    def give(self, index: int, page: PageInput) -> None:
        self.task = (index, page)
        self.started = time.monotonic()
        self.conn.send((index, page))

    def kill(self) -> None:
        try:
            self.proc.kill()
        except OSError:
            pass
        self.proc.join(5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(5)
        if self.proc.is_alive():
            self.kill()
        else:
            self.conn.close()


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


def map_records(pages: Iterable[tuple[int, PageInput]], options: Options | None = None, *, workers: int = 1,
                timeout: float = DEFAULT_PAGE_TIMEOUT_S, memory_limit: int | None = None,
                ordered: bool = True, cpu_seconds: list[float] | None = None,
                record_fn: Any = None, stats: dict[str, int] | None = None,
                recycle_after: int | None = RECYCLE_AFTER_PAGES) -> Iterator[tuple[int, dict]]:
    """Extract ``pages`` in ``workers`` processes; yield ``(index, record)`` pairs.

    Args:
        pages: ``(index, PageInput)`` pairs; indexes increase by one from the first.
        options: extraction options for every page.
        workers: number of processes (at least 1). ``0`` extracts in this process, with no
            deadline and no memory ceiling (for debugging and for engines that bring their
            own workers).
        timeout: seconds per page before the page's worker is killed (``TimeoutError`` row).
        memory_limit: address-space ceiling per worker in bytes, or ``None``.
        ordered: yield in input order (a small reorder buffer holds pages that finished
            early); ``False`` yields as pages complete.
        cpu_seconds: a one-item list that the workers' CPU time (seconds) is added to.
        stats: filled with ``worker_peak_rss_kb`` (the largest peak resident set of any
            worker, KiB) and ``worker_rss_kb`` (the resident set of the last worker that
            answered).
        recycle_after: pages after which a worker is replaced by a fresh one (``None``:
            never), which keeps a long run's memory flat.
        record_fn: ``fn(page, options) -> record`` instead of
            :func:`~unclutter.batch.record.extract_record` (a picklable module-level
            function; the benchmark runs other extractors in the same harness with it).

    Every page gives exactly one record. Closing the generator stops the workers.
    """
    options = options or Options()
    self_cpu = cpu_seconds if cpu_seconds is not None else [0.0]
    if workers <= 0:
        for index, page in pages:
            cpu = time.process_time()
            record = (record_fn or extract_record)(page, options)
            self_cpu[0] += time.process_time() - cpu
            yield index, record
        return
    ctx = _context()
    pool = [_Worker(ctx, options, memory_limit, record_fn) for _ in range(workers)]
    source = iter(pages)
    exhausted = False
    buffer: dict[int, dict] = {}
    next_out: int | None = None
    try:
        while True:
            for w in pool:
                if w.ready and w.task is None and not exhausted:
                    try:
                        index, page = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    if next_out is None:
                        next_out = index
                    w.give(index, page)
            busy = [w for w in pool if w.task is not None]
            starting = [w for w in pool if not w.ready]
            if not busy and (exhausted or not starting):
                break
            now = time.monotonic()
            deadlines = [w.started + timeout for w in busy] + [w.started + WORKER_START_TIMEOUT_S for w in starting]
            ready = wait([w.conn for w in busy + starting], timeout=max(0.0, min(deadlines) - now))
            finished: list[tuple[int, dict]] = []
            for i, w in enumerate(pool):
                if not w.ready:
                    if w.conn in ready:
                        try:
                            w.ready = w.conn.recv() == "ready"
                        except (EOFError, OSError):
                            w.ready = False
                        if not w.ready:
                            raise RuntimeError(
                                f"a batch worker failed to start (exit code {w.proc.exitcode}); in a script, "
                                "call extract_many/run_batch under `if __name__ == \"__main__\":` (workers "
                                "import the main module)")
                    elif time.monotonic() - w.started > WORKER_START_TIMEOUT_S:
                        raise RuntimeError(f"a batch worker did not start within {WORKER_START_TIMEOUT_S:g} s")
                    continue
                if w.task is None:
                    continue
                index, page = w.task
                if w.conn in ready:
                    try:
                        got_index, record, cpu, (peak_kb, rss_kb) = w.conn.recv()
                        self_cpu[0] += cpu
                        w.done += 1
                        if stats is not None:
                            stats["worker_peak_rss_kb"] = max(stats.get("worker_peak_rss_kb", 0), peak_kb)
                            stats["worker_rss_kb"] = rss_kb
                        w.task = None
                        finished.append((got_index, record))
                        if recycle_after and w.done >= recycle_after:
                            w.stop()
                            pool[i] = _Worker(ctx, options, memory_limit, record_fn)
                        continue
                    except (EOFError, OSError):
                        record = error_record(page, "WorkerCrashError",
                                              f"the worker extracting {page.source} died (exit code {w.proc.exitcode})")
                elif time.monotonic() - w.started >= timeout:
                    record = error_record(page, "TimeoutError",
                                          f"{page.source}: extraction ran past {timeout:g} s", timeout)
                else:
                    continue
                w.kill()
                pool[i] = _Worker(ctx, options, memory_limit, record_fn)
                finished.append((index, record))
            for index, record in finished:
                if not ordered:
                    yield index, record
                else:
                    buffer[index] = record
            if ordered:
                while next_out is not None and next_out in buffer:
                    yield next_out, buffer.pop(next_out)
                    next_out += 1
    finally:
        for w in pool:
            if w.task is not None:
                w.kill()
            else:
                w.stop()


def worker_count(requested: int | None) -> int:
    """``requested``, or the CPUs this process may run on when ``None``."""
    if requested is not None:
        return requested
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
