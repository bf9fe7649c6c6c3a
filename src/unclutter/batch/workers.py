"""A pool of worker processes that extracts pages with a deadline per page.

Each worker is a process started from a fork server that has already imported the
pipeline, so a new worker is ready in milliseconds and models load once per worker, on
first use. The parent gives each worker the page it extracts and the next one
(:data:`PREFETCH`) and watches the clock: a worker that runs past the page's deadline is
killed and the page becomes a ``TimeoutError`` row; a worker that dies (killed by the kernel
for memory, a crash in native code) makes its page a ``WorkerCrashError`` row. Either way a
fresh worker takes its place, the page queued behind goes to another worker, and the run
goes on.

A worker may also be given an address-space ceiling (``RLIMIT_AS``, bytes): a page that
needs more raises ``MemoryError`` inside the worker and becomes a ``MemoryLimitError`` row.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from multiprocessing.connection import wait
from typing import Any

from ..core.errors import WorkerStartError
from ..core.options import Options
from .record import PageInput, error_record, extract_record

#: Seconds a page may take before its worker is killed (``--timeout``).
DEFAULT_PAGE_TIMEOUT_S = 60.0
#: Seconds a new worker may take to start and answer.
WORKER_START_TIMEOUT_S = 120.0
#: Exit status of a worker that, starting up, re-ran a main module calling the batch at its
#: top level (a script without ``if __name__ == "__main__":``).
WORKER_MAIN_REENTRY_EXIT = 3
#: Pages a worker extracts before a fresh one replaces it: the bounded caches of a long-lived
#: worker (parsed styles, models' buffers) grow its memory by a few MB per 1,000 pages.
RECYCLE_AFTER_PAGES = 5000
#: Pages queued to a worker behind the one it is extracting: the next page already waits in
#: its pipe when it finishes, so reading inputs and writing records in the parent overlap
#: the extraction instead of alternating with it (at one worker the parent's share of each
#: page was idle time for the worker).
PREFETCH = 1
#: Times a page whose worker died (not timed out) is given to a fresh worker before it
#: becomes a ``WorkerCrashError`` row: a worker may die of something else than the page in
#: its pipe (killed by the system while idle, a page queued behind it).
CRASH_RETRIES = 1
#: Records held back, per worker, to give them in input order while an earlier page is
#: still in work: past it, no new page is handed out until the earlier one is done (its
#: deadline bounds the wait), so a hung page never lets memory grow with the whole input.
REORDER_RECORDS_PER_WORKER = 64
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


def _crash_message(page: PageInput, exitcode: int | None) -> str:
    if exitcode == 0:  # (it left its loop: a page it could not receive within its memory ceiling)
        return (f"the worker extracting {page.source} ended without a record: the page needs more memory "
                "than a worker may use")
    return f"the worker extracting {page.source} died (exit code {exitcode})"


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
        except MemoryError:  # a page too large to receive under the ceiling: the parent sees the worker end
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


def _send_quietly(conn: Any, message: Any) -> None:
    """``conn.send(message)``; a worker gone meanwhile (killed, crashed) is not an error here:
    the parent finds it dead and settles its pages."""
    try:
        conn.send(message)
    except (OSError, ValueError):
        pass


class _Worker:
    def __init__(self, ctx: Any, options: Options, memory_limit: int | None, record_fn: Any = None) -> None:
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, options, memory_limit, record_fn), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent
        self.tasks: deque[tuple[int, PageInput]] = deque()  # the page in work first, then those queued
        self.sender: threading.Thread | None = None
        self.ready = False
        self.done = 0
        self.started = time.monotonic()  # when the page in work began (or the worker, before it is ready)

    @property
    def task(self) -> tuple[int, PageInput] | None:
        return self.tasks[0] if self.tasks else None

    def can_take(self, recycle_after: int | None) -> bool:
        """Whether a page may be given now: the worker is ready, holds at most
        :data:`PREFETCH` pages, is not sending one still, and (``recycle_after``) is not due
        to be replaced before it could start it."""
        if not self.ready or len(self.tasks) > PREFETCH:
            return False
        if not self.tasks:
            return True
        if recycle_after and self.done + len(self.tasks) >= recycle_after:
            return False
        return self.sender is None or not self.sender.is_alive()

    def give(self, index: int, page: PageInput) -> None:
        self.tasks.append((index, page))
        if len(self.tasks) == 1:
            self.started = time.monotonic()
            # (an idle worker reads it at once; one that died meanwhile is found dead by
            # the parent's next wait, and the page settled then)
            _send_quietly(self.conn, (index, page))
        else:
            # a busy worker reads it when done: a page larger than the pipe's buffer would
            # block this process meanwhile, so a thread waits on the pipe instead (one at a
            # time: can_take waits for it, which keeps the messages whole and in order)
            self.sender = threading.Thread(target=_send_quietly, args=(self.conn, (index, page)), daemon=True)
            self.sender.start()

    def finished(self) -> None:
        """The page in work is done: the queued one (already sent) is in work from now."""
        self.tasks.popleft()
        self.done += 1
        if self.tasks:
            self.started = time.monotonic()

    def kill(self) -> None:
        try:
            self.proc.kill()
        except OSError:
            pass
        self.proc.join(5)
        if self.sender is not None:
            # its write fails at once with the reader gone; the pipe is closed only after,
            # so that the descriptor cannot be reused under it
            self.sender.join(5)
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


def leave_if_starting_worker() -> None:
    """In a worker process still starting (it re-runs the main module, which calls the
    batch at its top level: no ``if __name__ == "__main__":``), end that process quietly
    (``SystemExit``, status :data:`WORKER_MAIN_REENTRY_EXIT`); the parent, whose worker
    never became ready, raises :class:`~unclutter.core.errors.WorkerStartError` saying why
    (not one multiprocessing traceback per worker on stderr). Elsewhere, nothing. Call it
    before a batch touches anything (its output folder)."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise SystemExit(WORKER_MAIN_REENTRY_EXIT)


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
    leave_if_starting_worker()
    ctx = _context()
    pool = [_Worker(ctx, options, memory_limit, record_fn) for _ in range(workers)]
    source = iter(pages)
    retry: deque[tuple[int, PageInput]] = deque()  # pages queued to a worker that was replaced
    crashes: dict[int, int] = {}  # page index -> workers that died with it at the head
    reorder_limit = REORDER_RECORDS_PER_WORKER * workers
    exhausted = False
    buffer: dict[int, dict] = {}
    next_out: int | None = None
    try:
        while True:
            # first every idle worker gets a page, then the busy ones their next
            for depth in range(PREFETCH + 1):
                for w in pool:
                    if len(w.tasks) != depth or not w.can_take(recycle_after) or (exhausted and not retry):
                        continue
                    if ordered and len(buffer) >= reorder_limit and not retry:
                        break  # (back-pressure: the page holding the buffer back finishes first)
                    if retry:
                        index, page = retry.popleft()
                    else:
                        try:
                            index, page = next(source)
                        except StopIteration:
                            exhausted = True
                            continue
                    if next_out is None:
                        next_out = index
                    w.give(index, page)
            busy = [w for w in pool if w.tasks]
            starting = [w for w in pool if not w.ready]
            if not busy and ((exhausted and not retry) or not starting):
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
                            w.proc.join(1)
                            status = "" if w.proc.exitcode is None else f" (exit status {w.proc.exitcode})"
                            raise WorkerStartError(
                                f"a batch worker ended while starting{status}; in a script, call "
                                "extract_many/run_batch under `if __name__ == \"__main__\":` (workers import the "
                                "main module as they start)")
                    elif time.monotonic() - w.started > WORKER_START_TIMEOUT_S:
                        raise WorkerStartError(f"a batch worker did not start within {WORKER_START_TIMEOUT_S:g} s")
                    continue
                if not w.tasks:
                    continue
                index, page = w.tasks[0]
                if w.conn in ready:
                    try:
                        got_index, record, cpu, (peak_kb, rss_kb) = w.conn.recv()
                        self_cpu[0] += cpu
                        w.finished()
                        if stats is not None:
                            stats["worker_peak_rss_kb"] = max(stats.get("worker_peak_rss_kb", 0), peak_kb)
                            stats["worker_rss_kb"] = rss_kb
                        finished.append((got_index, record))
                        if recycle_after and w.done >= recycle_after and not w.tasks:
                            w.stop()
                            pool[i] = _Worker(ctx, options, memory_limit, record_fn)
                        continue
                    except (EOFError, OSError):
                        crashes[index] = crashes.get(index, 0) + 1
                        if crashes[index] <= CRASH_RETRIES:
                            w.kill()
                            retry.extend(w.tasks)  # (this page first: it heads the queue)
                            pool[i] = _Worker(ctx, options, memory_limit, record_fn)
                            continue
                        record = error_record(page, "WorkerCrashError", _crash_message(page, w.proc.exitcode))
                elif time.monotonic() - w.started >= timeout:
                    record = error_record(page, "TimeoutError",
                                          f"{page.source}: extraction ran past {timeout:g} s", timeout)
                else:
                    continue
                w.kill()
                w.tasks.popleft()
                retry.extend(w.tasks)  # (queued behind the page that failed: not started)
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
            if w.tasks:
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
