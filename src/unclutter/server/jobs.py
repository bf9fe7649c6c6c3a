"""Fetch+extract jobs in a pool of worker processes, each job under a hard deadline.

Processes, not threads: extraction is CPU-bound, and some of it (a regular expression
in C) holds the interpreter lock, so a hostile page in a thread stalls every request,
``/healthz`` included, and a running thread cannot be stopped. A process can be: when a
request's deadline passes, its worker is killed (SIGKILL) and replaced.

Admission: at most ``max_jobs`` jobs run at once (one per worker process),
at most ``max_queued`` more wait, and one request beyond that is refused at once
(``overloaded``, 503). A request whose deadline passes gets ``deadline_exceeded`` (504):
a job still waiting is dropped before it reaches a worker; a running one has its worker
killed. A worker that dies during a job (a crash, the kernel's out-of-memory killer)
gives that request ``internal`` (500) and is replaced.

Each running job is driven by one thread of a small thread pool: it sends the job down
the worker's pipe, waits for the reply until the deadline and kills the worker when none
comes. The event loop only awaits that thread's future, so it never blocks, and the pool
works under any event loop (uvicorn's, or TestClient's one loop per request).

Workers start with the "forkserver" method on Linux, with :mod:`unclutter` and the
worker module preloaded in the fork server, so a worker (a replacement too) is a fork of
an interpreter that has imported everything: milliseconds, not seconds. Elsewhere
"spawn" (a fresh interpreter per worker). With either, each worker imports the main
module of the program, so a script that starts the service keeps its start-up under
``if __name__ == "__main__":`` (the ``unclutter`` command does).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import queue
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from .config import DEFAULT_JOB_RUNNER, RETRY_AFTER_OVERLOADED
from .errors import ServiceError
from .worker import Job, load_runner, worker_main

__all__ = ["JobPool", "START_METHOD", "PRELOAD_MODULES", "WORKER_EXIT_SECONDS", "WORKER_START_SECONDS"]

logger = logging.getLogger("unclutter.server")

#: Modules the fork server imports once, so that each worker forked from it starts warm.
PRELOAD_MODULES = ("unclutter", "unclutter.server.worker")

#: Start method of the worker processes (see the module's description).
START_METHOD = (
    "forkserver"
    if sys.platform.startswith("linux") and "forkserver" in multiprocessing.get_all_start_methods()
    else "spawn"
)

#: Seconds to wait for a worker to exit once told to (pipe closed, or killed) before
#: giving up on it; a killed process is gone in far less.
WORKER_EXIT_SECONDS = 2.0

#: Seconds :meth:`JobPool.start` waits for a worker to load its job runner. The first
#: worker also starts the fork server, which imports unclutter: about a second.
WORKER_START_SECONDS = 60.0


def _context() -> multiprocessing.context.BaseContext:
    ctx = multiprocessing.get_context(START_METHOD)
    if START_METHOD == "forkserver":
        # (process-wide, and only read when the fork server starts: the first worker)
        ctx.set_forkserver_preload(list(PRELOAD_MODULES))
    return ctx


def _deadline_error() -> ServiceError:
    return ServiceError("deadline_exceeded", "the request took longer than the service's deadline")


class _WorkerDied(Exception):
    """The worker's pipe closed while a job was in it."""


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, ctx: multiprocessing.context.BaseContext, runner: str) -> None:
        ours, theirs = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=worker_main, args=(theirs, runner), name="unclutter-worker", daemon=True)
        try:
            self.process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()  # the worker holds its own copy; ours closing means EOF for it
        self.conn: Connection = ours
        self.ready = False  # the worker said it has loaded its runner
        self._kill_lock = threading.Lock()
        self._killed = False

    def alive(self) -> bool:
        return self.process.is_alive()

    def wait_ready(self, timeout: float) -> None:
        """Return once the worker has loaded its job runner.

        Raises:
            OSError: it exited first, or did not report within *timeout* seconds.
        """
        if not self.ready:
            try:
                if self.conn.poll(timeout) and self.conn.recv()[0] == "ready":
                    self.ready = True
            except (EOFError, OSError):
                pass
        if not self.ready:
            raise OSError(f"worker process {self.process.pid} did not start (exit code {self.process.exitcode})")

    def kill(self) -> None:
        """SIGKILL the process, once (a second signal could reach a reused process id)."""
        with self._kill_lock:
            if self._killed:
                return
            self._killed = True
        self.process.kill()

    def send(self, job: Job) -> None:
        try:
            self.conn.send(job)
        except (EOFError, OSError) as exc:
            raise _WorkerDied from exc

    def reply(self, deadline: float) -> tuple[str, Any] | None:
        """The worker's reply, or ``None`` when *deadline* (``time.monotonic()``) passes first.

        Raises:
            _WorkerDied: the pipe closed (the process died, or was killed).
        """
        try:
            while True:
                if not self.conn.poll(max(deadline - time.monotonic(), 0.0)):
                    return None
                reply = self.conn.recv()
                if reply[0] != "ready":  # (a worker started for this job says so first)
                    return reply
                self.ready = True
        except (EOFError, OSError) as exc:
            raise _WorkerDied from exc

    def stop(self) -> None:
        """Kill the process, wait for it, close the pipe."""
        self.kill()
        self.process.join(WORKER_EXIT_SECONDS)
        self.conn.close()


class _Ticket:
    """What the awaiting request and the driving thread share about one job."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.abandoned = False
        self.worker: _Worker | None = None

    def abandon(self) -> None:
        """The request stopped waiting: kill the job's worker if it has one.

        The kill is a signal (it does not block the event loop), sent under the lock so
        it cannot reach a worker the driving thread has already handed to another job."""
        with self.lock:
            self.abandoned = True
            if self.worker is not None:
                self.worker.kill()


class JobPool:
    """Runs :class:`~unclutter.server.worker.Job` s in a bounded pool of worker processes.

    Args:
        max_jobs: worker processes (jobs running at once), at least 1.
        max_queued: jobs that may wait for a worker, at least 0.
        runner: ``"module:function"`` each worker calls with a job.

    Raises:
        ValueError, ImportError: *runner* does not name an importable function (checked
            here, so a bad configuration fails at once rather than in every worker).

    Workers start with :meth:`start` (the app's lifespan), or one by one when the first
    jobs arrive; :meth:`shutdown` stops them.
    """

    def __init__(self, max_jobs: int, max_queued: int, runner: str = DEFAULT_JOB_RUNNER) -> None:
        load_runner(runner)
        self.max_jobs = max_jobs
        self.capacity = max_jobs + max_queued
        self.runner = runner
        self._ctx = _context()
        # One driving thread per worker: a driver takes a worker from `_idle` and always
        # puts one back (itself, a replacement, or None to start one later).
        self._drivers = ThreadPoolExecutor(max_workers=max_jobs, thread_name_prefix="unclutter-job")
        self._idle: queue.SimpleQueue[_Worker | None] = queue.SimpleQueue()
        for _ in range(max_jobs):
            self._idle.put(None)
        self._workers: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._in_flight = 0
        self._running = 0
        self.peak_running = 0  # most jobs seen running at once (for tests and the benchmark)

    @property
    def in_flight(self) -> int:
        """Jobs admitted and not finished (running or waiting)."""
        return self._in_flight

    @property
    def worker_pids(self) -> list[int]:
        """Process ids of the live workers."""
        with self._lock:
            return sorted(w.process.pid for w in self._workers if w.process.pid is not None)

    # -- workers -------------------------------------------------------------------------

    def _spawn(self) -> _Worker:
        """A new worker process.

        Raises:
            OSError: the process could not be started.
            ServiceError: ``overloaded``, the pool was shut down meanwhile.
        """
        worker = _Worker(self._ctx, self.runner)
        with self._lock:
            if not self._closed:
                self._workers.add(worker)
                return worker
        worker.stop()
        raise ServiceError("overloaded", "the service is shutting down")

    def _retire(self, worker: _Worker) -> None:
        worker.stop()
        with self._lock:
            self._workers.discard(worker)

    def _replacement(self) -> _Worker | None:
        """A new worker, or None (the next job starts one) when starting fails or the pool is closed."""
        if self._closed:
            return None
        try:
            return self._spawn()
        except ServiceError:
            return None
        except Exception:  # noqa: BLE001 - the next job tries again, and reports
            logger.exception("could not start a replacement worker process")
            return None

    def start(self) -> None:
        """Start every worker now and wait until each has loaded its job runner, so the
        first requests do not wait for them.

        Raises:
            OSError: a process could not be started, or did not get ready within
                ``WORKER_START_SECONDS``.
        """
        taken: list[_Worker | None] = []
        while True:  # (the slots no job holds)
            try:
                taken.append(self._idle.get_nowait())
            except queue.Empty:
                break
        try:
            for index, worker in enumerate(taken):
                if worker is None:
                    taken[index] = self._spawn()
            for worker in taken:
                if worker is not None:
                    worker.wait_ready(WORKER_START_SECONDS)
        finally:
            for worker in taken:
                self._idle.put(worker)

    def shutdown(self) -> None:
        """Stop taking jobs, drop waiting ones, kill running ones, stop every worker."""
        with self._lock:
            self._closed = True
        self._drivers.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            workers = list(self._workers)
            self._workers.clear()
        for worker in workers:
            worker.kill()  # a driver waiting on it sees its pipe close
        for worker in workers:
            worker.process.join(WORKER_EXIT_SECONDS)

    # -- jobs ----------------------------------------------------------------------------

    def _ready(self, worker: _Worker | None) -> _Worker:
        """*worker* if it is alive, else a new one (a worker may die while idle).

        Raises:
            ServiceError: ``overloaded`` once the pool is shut down; ``internal`` when no
                process can be started.
        """
        if worker is not None and worker.alive():
            return worker
        if worker is not None:
            self._retire(worker)
        try:
            return self._spawn()
        except OSError:
            logger.exception("could not start a worker process")
            raise ServiceError("internal", "internal error") from None

    def _drive(self, job: Job, deadline: float, ticket: _Ticket) -> str:
        """Run *job* on a worker (in a driving thread); see :meth:`run`."""
        taken = self._idle.get()  # never long: there are as many drivers as workers
        try:
            if self._closed:
                raise ServiceError("overloaded", "the service is shutting down")
            worker = self._ready(taken)
        except BaseException:
            self._idle.put(taken if taken is not None and taken.alive() else None)
            raise
        keep = True  # whether `worker` may take the next job
        try:
            left = deadline - time.monotonic()
            with ticket.lock:
                if ticket.abandoned or left <= 0:  # (waited in the queue until the deadline)
                    raise _deadline_error()
                ticket.worker = worker
            reply, died = None, False
            try:
                with self._lock:
                    self._running += 1
                    self.peak_running = max(self.peak_running, self._running)
                try:
                    worker.send(job.with_time_left(left))
                    reply = worker.reply(deadline)
                finally:
                    with self._lock:
                        self._running -= 1
            except _WorkerDied:
                died = True
            finally:
                with ticket.lock:  # from here on, abandoning the request kills nothing
                    ticket.worker = None
                    abandoned = ticket.abandoned  # (then its worker was killed)
            if reply is None or abandoned:
                # Dead, killed, or still busy with a job past its deadline (which may hold
                # the CPU for good): replaced either way.
                keep = False
                if self._closed:
                    raise ServiceError("overloaded", "the service is shutting down")
                if died and not abandoned:
                    worker.process.join(WORKER_EXIT_SECONDS)
                    logger.error("worker process %s died (exit code %s) while reading a page; replaced",
                                 worker.process.pid, worker.process.exitcode)
                    raise ServiceError("internal", "internal error")
                raise _deadline_error()
        finally:
            pid = worker.process.pid
            if not keep or self._closed:
                self._retire(worker)
                self._idle.put(self._replacement())
            else:
                self._idle.put(worker)
        kind, value = reply
        if kind == "ok":
            return value
        if kind == "error":
            raise value
        logger.error("internal error while reading a page (worker process %s):\n%s", pid, value)
        raise ServiceError("internal", "internal error")

    def _release(self, _future: Future) -> None:
        with self._lock:
            self._in_flight -= 1

    async def run(self, job: Job, deadline: float) -> str:
        """Run *job* in a worker process and return its body (or raise its error).

        Args:
            job: the request's work (picklable).
            deadline: ``time.monotonic()`` value after which the request gets 504.

        Raises:
            ServiceError: ``overloaded`` when ``max_jobs + max_queued`` jobs are already
                in flight (or the pool is shutting down); ``deadline_exceeded`` when
                ``deadline`` passes first (a running job's worker is killed);
                ``internal`` when the worker dies or fails unexpectedly.
            UnclutterError: the job's own error (policy, fetch, content...), as raised.
        """
        with self._lock:
            if self._in_flight >= self.capacity:
                raise ServiceError(
                    "overloaded",
                    f"all {self.max_jobs} workers are busy and the queue is full; retry shortly",
                    headers={"Retry-After": str(RETRY_AFTER_OVERLOADED)},
                )
            self._in_flight += 1
        ticket = _Ticket()
        try:
            future = self._drivers.submit(self._drive, job, deadline, ticket)
        except RuntimeError:  # the pool is shutting down
            with self._lock:
                self._in_flight -= 1
            raise ServiceError("overloaded", "the service is shutting down") from None
        future.add_done_callback(self._release)
        try:
            # wrap_future: cancelling the awaiting side cancels a job not yet started.
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout=max(deadline - time.monotonic(), 0.0))
        except asyncio.TimeoutError:
            ticket.abandon()
            raise _deadline_error() from None
        except asyncio.CancelledError:  # the client went away: free the worker too
            ticket.abandon()
            raise
