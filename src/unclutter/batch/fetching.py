"""Fetching the URLs of a batch through the safe fetcher, politely.

Every request goes through :func:`unclutter.fetch.fetch` under the same
:class:`~unclutter.fetch.policy.FetchPolicy` (address checks on every hop, byte and time
caps, robots.txt when the policy asks for it). On top of that, for a batch:

* at most ``per_host`` requests to one host at a time, and at least ``delay`` seconds
  between the starts of two requests to the same host;
* ``concurrency`` requests in flight in all;
* transient failures (timeouts, connection errors, HTTP 429 and 5xx) are retried up to
  ``retries`` times with exponential backoff (``backoff * 2**attempt`` seconds); a refusal by
  the policy, robots.txt, a 4xx or a non-HTML answer is final at once.

Pages come back in the order the URLs were given; a failed URL is a PageInput with ``error``.
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from urllib.parse import urlsplit

from ..core.errors import FetchError, FetchTimeoutError, HTTPStatusError, UnclutterError
from .record import PageInput

DEFAULT_CONCURRENCY = 8
DEFAULT_PER_HOST = 2
DEFAULT_DELAY_S = 0.5
DEFAULT_RETRIES = 2
DEFAULT_BACKOFF_S = 1.0

_STATUS_RE = re.compile(r"HTTP (\d{3}) ")


def is_transient(exc: UnclutterError) -> bool:
    """Worth retrying: a timeout, a connection failure, HTTP 429 or 5xx."""
    if isinstance(exc, HTTPStatusError):
        m = _STATUS_RE.search(str(exc))
        return bool(m) and (m.group(1) == "429" or m.group(1).startswith("5"))
    if isinstance(exc, FetchTimeoutError):
        return True
    return type(exc) is FetchError  # connection/TLS/protocol; its subclasses are final answers


class _Stopped(Exception):
    """The fetch window was closed (Ctrl-C, SIGTERM, the run ended) while a thread waited."""


#: Longest a waiting fetch thread goes without looking whether the run was stopped, seconds.
_STOP_POLL_S = 0.5


class _HostGate:
    """Per-host limit on requests in flight and spacing between their starts. Waits end
    early, raising :class:`_Stopped`, once ``stop`` is set: a thread waiting out a long
    ``delay`` must not hold up the end of an interrupted run."""

    def __init__(self, per_host: int, delay: float, stop: threading.Event) -> None:
        self.per_host = per_host
        self.delay = delay
        self.stop = stop
        self.lock = threading.Lock()
        self.sems: dict[str, threading.Semaphore] = {}
        self.next_start: dict[str, float] = {}

    def enter(self, host: str) -> None:
        with self.lock:
            sem = self.sems.setdefault(host, threading.Semaphore(self.per_host))
        while not sem.acquire(timeout=_STOP_POLL_S):
            if self.stop.is_set():
                raise _Stopped
        while True:
            with self.lock:
                now = time.monotonic()
                start = self.next_start.get(host, 0.0)
                if now >= start:
                    self.next_start[host] = now + self.delay
                    return
            if self.stop.wait(start - now):
                sem.release()
                raise _Stopped

    def leave(self, host: str) -> None:
        self.sems[host].release()


class BatchFetcher:
    """``fetch_pages(urls)`` for :func:`unclutter.batch.sources.read_pages`.

    Args:
        policy: the fetch policy of every request (``FetchPolicy()`` when ``None``).
        concurrency, per_host, delay, retries, backoff: see the module docstring
            (counts, seconds).
    """

    def __init__(self, policy=None, *, concurrency: int = DEFAULT_CONCURRENCY, per_host: int = DEFAULT_PER_HOST,
                 delay: float = DEFAULT_DELAY_S, retries: int = DEFAULT_RETRIES,
                 backoff: float = DEFAULT_BACKOFF_S) -> None:
        self.policy = policy
        self.concurrency = max(1, concurrency)
        self._stop = threading.Event()
        self.gate = _HostGate(max(1, per_host), max(0.0, delay), self._stop)
        self.retries = max(0, retries)
        self.backoff = max(0.0, backoff)

    def identity(self) -> str:
        """What a resumed run must share with the first: the policy and the politeness."""
        return repr((self.policy, self.concurrency, self.gate.per_host, self.gate.delay, self.retries,
                     self.backoff))

    def fetch_one(self, url: str) -> PageInput:
        from ..fetch import fetch

        try:
            host = (urlsplit(url).hostname or "").lower()
        except ValueError as exc:  # e.g. an unclosed IPv6 bracket
            return PageInput(id=url, source=url, url=url, error=("PolicyError", f"invalid URL {url[:200]!r}: {exc}"))
        attempt = 0
        while True:
            try:
                self.gate.enter(host)
            except _Stopped:
                return PageInput(id=url, source=url, url=url, error=("FetchError", "the run was stopped"))
            try:
                page = fetch(url, self.policy)
            except UnclutterError as exc:
                error = exc
            else:
                return PageInput(id=url, source=url, data=page.content, url=page.final_url or url,
                                 http_charset=page.charset)
            finally:
                self.gate.leave(host)
            if attempt >= self.retries or not is_transient(error):
                message = getattr(error, "public_message", None) or str(error)
                return PageInput(id=url, source=url, url=url, error=(type(error).__name__, message))
            if self._stop.wait(self.backoff * (2 ** attempt)):
                return PageInput(id=url, source=url, url=url, error=("FetchError", "the run was stopped"))
            attempt += 1

    def __call__(self, urls: list[str]) -> Iterator[PageInput]:
        """Fetch ``urls`` with up to ``concurrency`` at once; yield pages in the given order."""
        pool = ThreadPoolExecutor(max_workers=self.concurrency)
        self._stop.clear()
        try:
            window: deque[Future] = deque()
            for url in urls:
                window.append(pool.submit(self.fetch_one, url))
                if len(window) >= self.concurrency * 2:
                    yield window.popleft().result()
            while window:
                yield window.popleft().result()
        finally:
            # on Ctrl-C or a closed generator, queued fetches are dropped, not waited for,
            # and threads waiting out a host's delay or a backoff stop waiting
            self._stop.set()
            pool.shutdown(wait=False, cancel_futures=True)
