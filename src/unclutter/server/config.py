"""Every limit and setting of the HTTP service, in one place, with its default.

The defaults are safe for a service reachable by anyone: the public-web fetch policy
(private, loopback and reserved addresses refused), a bounded pool of worker processes
and queue, a request body cap, a per-request deadline that kills the job's worker, a
header-read timeout and a connection cap, and proxy headers ignored. The API key and the
rate limit are off.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..core.limits import MAX_INPUT_BYTES
from ..fetch import FetchPolicy

__all__ = [
    "ServerConfig",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "DEFAULT_MAX_JOBS",
    "DEFAULT_MAX_QUEUED",
    "DEFAULT_JOB_RUNNER",
    "DEFAULT_HEADER_TIMEOUT",
    "DEFAULT_MAX_CONNECTIONS",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_REQUEST_DEADLINE",
    "API_KEY_HEADER",
    "FORM_MAX_FIELDS",
    "RETRY_AFTER_OVERLOADED",
    "DEFAULT_SUMMARY_BACKENDS",
]

#: Address ``unclutter serve`` binds to unless told otherwise: this machine only.
DEFAULT_HOST = "127.0.0.1"

#: TCP port ``unclutter serve`` listens on unless told otherwise.
DEFAULT_PORT = 8000

def _usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one), else 4."""
    try:
        return len(os.sched_getaffinity(0)) or 4
    except AttributeError:  # (no affinity call on macOS and Windows)
        return os.cpu_count() or 4


#: Fetch+extract jobs that run at once: worker processes, one job each. Extraction is
#: CPU-bound, so one per usable CPU (4 where the count is unknown); each worker holds its
#: own copy of the library, about 130 MB once it has read a page.
DEFAULT_MAX_JOBS = _usable_cpus()

#: Jobs that may wait for a free worker; one more request is answered 503 at once.
DEFAULT_MAX_QUEUED = 32

#: The function each worker process calls with a job (``"module:function"``): fetch or
#: parse, extract, render (:func:`unclutter.server.worker.run_job`).
DEFAULT_JOB_RUNNER = "unclutter.server.worker:run_job"

#: Seconds a connection has to send a complete request head (request line and headers)
#: after it opens, and on a keep-alive connection after each response; then it is closed.
#: Slow-header ("slowloris") clients cannot hold connections longer than this.
DEFAULT_HEADER_TIMEOUT = 10.0

#: Connections (and requests in progress) the server holds at once (uvicorn's
#: ``limit_concurrency``); beyond it a new request is answered 503. Half the usual limit of
#: 1024 open files per process, leaving the rest for fetches, workers' pipes and logs.
DEFAULT_MAX_CONNECTIONS = 512

#: Largest request body in bytes (JSON or form). The library refuses HTML over
#: ``MAX_INPUT_BYTES`` (15 MiB); 1 MiB more leaves room for JSON escaping and the other
#: fields. A larger body is answered 413 without being read to the end.
DEFAULT_MAX_BODY_BYTES = MAX_INPUT_BYTES + 1024 * 1024

#: Seconds one request may take from the moment its handler starts: waiting for a
#: worker, the fetch (whose own deadline is cut to what is left) and extraction.
#: Past it the answer is 504.
DEFAULT_REQUEST_DEADLINE = 45.0

#: Header that carries the API key when one is configured (``Authorization: Bearer KEY``
#: is accepted too).
API_KEY_HEADER = "X-API-Key"

#: Most fields a submitted reader-page form may have (it has five).
FORM_MAX_FIELDS = 16

#: Summary backends a client may choose (``summary_backend``) unless configured otherwise:
#: the offline one only. Others run models or call paid APIs with the operator's keys, so
#: the operator enables them explicitly.
DEFAULT_SUMMARY_BACKENDS: frozenset[str] = frozenset({"extractive"})

#: Seconds a client is told to wait (``Retry-After``) when the job queue is full.
RETRY_AFTER_OVERLOADED = 1


_RUNNER_RE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


@dataclass(frozen=True)
class ServerConfig:
    """Settings of one service instance (see :func:`unclutter.server.create_app`).

    Attributes:
        fetch_policy: the :class:`~unclutter.fetch.FetchPolicy` every URL is fetched
            under. The default refuses private, loopback and reserved addresses and any
            port but 80/443; tests pass one that allows exactly ``127.0.0.1`` and their
            own port.
        max_jobs: fetch+extract jobs running at once: worker processes, one job each
            (default: the CPUs this process may use, or 4).
        max_queued: jobs waiting for a worker; beyond it requests get 503 ``overloaded``.
        max_body_bytes: request body cap in bytes; a larger body gets 413.
        request_deadline: seconds per request (queue wait, fetch, extraction, rendering);
            past it the answer is 504 ``deadline_exceeded`` and a running job's worker
            process is killed and replaced. The fetch deadline is cut to the time left.
        api_key: when set, every ``/read`` request, the Jina-style route and the reader
            form must present it (``X-API-Key`` header, ``Authorization: Bearer``, or the
            form's key field); otherwise 401. ``/``, ``/healthz``, ``/openapi.json`` and the
            stylesheets stay open. ``None`` (default): no key.
        rate_limit: per-client limit in the notation of the ``limits`` library, e.g.
            ``"60/minute"`` or ``"10/second;200/hour"``; a client (its IP address as the
            server sees it) over the limit gets 429 with ``Retry-After``. ``None``
            (default): no limit.
        summary_backends: the summary backends a request may name (builds with
            summaries); another name gets 400 ``unsupported_option``. Requests that name
            none get the library's default backend.
        allow_render: requests may ask for ``render=auto`` or ``always`` (the page run in
            headless Chromium in the worker process, every request it makes under
            ``fetch_policy``; :mod:`unclutter.fetch.browser`). Off by default: pages are
            read as served, and a request asking for rendering gets 400
            ``unsupported_option``.
        ratings_db: path of the SQLite file of blinded rating studies
            (:mod:`unclutter.server.ratings`; created when missing). When set, the routes
            ``/ratings/...`` (organizer, API key required) and ``/rate/<token>`` (raters)
            are served. ``None`` (default): no rating routes.
        job_runner: ``"module:function"`` the worker processes call with each
            :class:`~unclutter.server.worker.Job`, returning the answer's body (text).
            Default :data:`DEFAULT_JOB_RUNNER`; tests name their own (a job that hangs,
            crashes or raises) to exercise the pool.

    Raises:
        ValueError: on construction, for a non-positive limit or deadline, a
            ``rate_limit`` the ``limits`` library cannot parse, or a ``job_runner`` not
            written ``module:function``.
    """

    fetch_policy: FetchPolicy = field(default_factory=FetchPolicy)
    max_jobs: int = DEFAULT_MAX_JOBS
    max_queued: int = DEFAULT_MAX_QUEUED
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    request_deadline: float = DEFAULT_REQUEST_DEADLINE
    api_key: str | None = None
    rate_limit: str | None = None
    summary_backends: frozenset[str] = DEFAULT_SUMMARY_BACKENDS
    job_runner: str = DEFAULT_JOB_RUNNER
    allow_render: bool = False
    ratings_db: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.fetch_policy, FetchPolicy):
            raise ValueError("fetch_policy must be a FetchPolicy")
        if self.max_jobs < 1:
            raise ValueError("max_jobs must be at least 1")
        if self.max_queued < 0:
            raise ValueError("max_queued must not be negative")
        if self.max_body_bytes < 1:
            raise ValueError("max_body_bytes must be at least 1")
        if not self.request_deadline > 0:
            raise ValueError("request_deadline must be positive")
        if self.api_key is not None and not self.api_key.strip():
            raise ValueError("api_key must not be empty (use None for no key)")
        if not _RUNNER_RE.fullmatch(self.job_runner):
            raise ValueError(f"job_runner must be written module:function, got {self.job_runner!r}")
        if self.ratings_db is not None and not os.fspath(self.ratings_db).strip():
            raise ValueError("ratings_db must not be empty (use None for no rating routes)")
        object.__setattr__(self, "summary_backends", frozenset(self.summary_backends))
        if self.rate_limit is not None:
            from limits import parse_many

            try:
                parse_many(self.rate_limit)
            except ValueError:
                raise ValueError(
                    f"rate_limit {self.rate_limit!r} is not in the limits notation, e.g. '60/minute'"
                ) from None
