"""A bounded worker pool for fetch+extract jobs, off the event loop.

At most ``max_jobs`` jobs run at once (threads), at most ``max_queued`` more wait; one
request beyond that is refused at once (``overloaded``, 503). A request that reaches its
deadline gives up (``deadline_exceeded``, 504): a job still waiting is cancelled, one
already running cannot be interrupted, so it keeps its worker (and its place in the bound)
until it ends; its result is dropped. The bound therefore holds for abandoned jobs too.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from .config import RETRY_AFTER_OVERLOADED
from .errors import ServiceError

__all__ = ["JobPool"]

T = TypeVar("T")


class JobPool:
    """Runs blocking callables in a bounded thread pool.

    Args:
        max_jobs: worker threads (jobs running at once), at least 1.
        max_queued: jobs that may wait for a worker, at least 0.
    """

    def __init__(self, max_jobs: int, max_queued: int) -> None:
        self.max_jobs = max_jobs
        self.capacity = max_jobs + max_queued
        self._executor = ThreadPoolExecutor(max_workers=max_jobs, thread_name_prefix="unclutter-job")
        self._lock = threading.Lock()
        self._in_flight = 0
        self._running = 0
        self.peak_running = 0  # most jobs seen running at once (for tests and the benchmark)

    @property
    def in_flight(self) -> int:
        """Jobs admitted and not finished (running or waiting), abandoned ones included."""
        return self._in_flight

    def _release(self, _future: Future) -> None:
        with self._lock:
            self._in_flight -= 1

    def _wrap(self, fn: Callable[[], T]) -> Callable[[], T]:
        def job() -> T:
            with self._lock:
                self._running += 1
                self.peak_running = max(self.peak_running, self._running)
            try:
                return fn()
            finally:
                with self._lock:
                    self._running -= 1

        return job

    async def run(self, fn: Callable[[], T], deadline: float) -> T:
        """Run ``fn()`` in a worker and return its result (or raise its exception).

        Args:
            fn: a blocking callable without arguments.
            deadline: ``time.monotonic()`` value after which the caller stops waiting.

        Raises:
            ServiceError: ``overloaded`` when ``max_jobs + max_queued`` jobs are already
                in flight; ``deadline_exceeded`` when ``deadline`` passes first.
        """
        with self._lock:
            if self._in_flight >= self.capacity:
                raise ServiceError(
                    "overloaded",
                    f"all {self.max_jobs} workers are busy and the queue is full; retry shortly",
                    headers={"Retry-After": str(RETRY_AFTER_OVERLOADED)},
                )
            self._in_flight += 1
        try:
            future = self._executor.submit(self._wrap(fn))
        except RuntimeError:  # the pool is shutting down
            with self._lock:
                self._in_flight -= 1
            raise ServiceError("overloaded", "the service is shutting down") from None
        future.add_done_callback(self._release)
        remaining = deadline - time.monotonic()
        try:
            # wrap_future: cancelling the awaiting side (deadline, client gone) cancels
            # the job too when it has not started.
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout=max(remaining, 0.0))
        except asyncio.TimeoutError:
            future.cancel()
            raise ServiceError(
                "deadline_exceeded", "the request took longer than the service's deadline"
            ) from None

    def shutdown(self) -> None:
        """Stop taking jobs; drop waiting ones; do not wait for running ones."""
        self._executor.shutdown(wait=False, cancel_futures=True)
