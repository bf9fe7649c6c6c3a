"""What runs inside a worker process: one job at a time, read from a pipe, answered on it.

A :class:`Job` holds everything one request needs (the HTML or URL, the extract options,
the fetch policy with its deadline already cut to the time left, the output format), all
picklable. :func:`run_job` turns it into the answer's body. :func:`worker_main` is the
process's loop; the server process (:mod:`unclutter.server.jobs`) starts, feeds, and
when a deadline passes kills it.

A worker first sends ``("ready", pid)`` once its runner is loaded. Replies on the pipe
are then ``("ok", body)``, ``("error", exc)`` for an error the server
answers as it is (an :class:`~unclutter.core.errors.UnclutterError` or
:class:`~unclutter.server.errors.ServiceError`, checked to survive pickling), or
``("internal", traceback_text)`` for anything else (logged by the server, never sent to
the client).
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import pickle
import signal
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import unclutter

from ..core.errors import UnclutterError, UnreadableInputError
from ..fetch import FetchPolicy
from .errors import ServiceError
from .view import render

__all__ = ["Job", "run_job", "extract_article", "render_article", "load_runner", "worker_main"]


@dataclass(frozen=True)
class Job:
    """One request's work, sent to a worker process (every field pickles).

    Attributes:
        html: the given page (``POST /read`` with ``html``, the reader form); ``None`` to
            fetch ``url``.
        url: the page's URL: fetched when ``html`` is ``None``, else the base of its links.
        options: keyword options for :func:`unclutter.extract`.
        policy: the fetch policy (``html`` is ``None``); its deadline is cut to the
            request's time left just before the job is sent.
        fmt: ``json``, ``markdown``, ``text`` or ``html``.
        max_tokens: token budget of the ``chunks`` added to JSON; ``None``: no chunks.
        explain: JSON gets ``removed`` and ``trace``.
        page: values for the reader-view template (``fmt == "html"``).
    """

    html: str | None
    url: str | None
    options: dict[str, Any]
    policy: FetchPolicy | None
    fmt: str
    max_tokens: int | None = None
    explain: bool = False
    page: dict[str, Any] | None = None

    def with_time_left(self, seconds: float) -> Job:
        """This job with the fetch deadline cut to *seconds* (no change without a fetch)."""
        if self.policy is None or self.policy.deadline <= seconds:
            return self
        return dataclasses.replace(self, policy=dataclasses.replace(self.policy, deadline=seconds))


def extract_article(job: Job) -> unclutter.Article:
    """Fetch (under ``job.policy``) or parse, then extract: the job's article.

    Raises:
        UnclutterError: whatever :func:`unclutter.extract` / :func:`unclutter.extract_url` raise.
    """
    if job.html is not None:
        return unclutter.extract(job.html, url=job.url or None, **job.options)
    return unclutter.extract_url(job.url, policy=job.policy, **job.options)


def render_article(job: Job, article: unclutter.Article) -> str:
    """The answer's body for *article* in the job's format (chunks added to JSON when asked)."""
    chunks = unclutter.chunk(article, max_tokens=job.max_tokens) if job.max_tokens else None
    return render(article, job.fmt, chunks=chunks, explain=job.explain, page=job.page)


def run_job(job: Job) -> str:
    """The default job runner: :func:`extract_article`, then :func:`render_article`."""
    return render_article(job, extract_article(job))


def load_runner(path: str) -> Callable[[Job], str]:
    """The function named ``"module:function"``.

    Raises:
        ValueError: *path* is not written so, or names nothing callable.
        ImportError: the module cannot be imported.
    """
    module_name, _, name = path.partition(":")
    if not module_name or not name:
        raise ValueError(f"job runner must be written module:function, got {path!r}")
    target: Any = importlib.import_module(module_name)
    for part in name.split("."):
        target = getattr(target, part, None)
    if not callable(target):
        raise ValueError(f"job runner {path!r} is not a function")
    return target


def _error_reply(exc: BaseException) -> tuple[str, Any]:
    """The reply for a job that raised *exc* (see the module's description)."""
    if isinstance(exc, RecursionError):
        exc = UnreadableInputError("unreadable input: structure too deep")
    elif isinstance(exc, MemoryError):
        exc = UnreadableInputError("unreadable input: out of memory")
    if isinstance(exc, (UnclutterError, ServiceError)):
        try:
            pickle.loads(pickle.dumps(exc))  # the server must be able to rebuild it
            return ("error", exc)
        except Exception as failure:  # noqa: BLE001 - reported as an internal error instead
            return ("internal", f"{type(exc).__name__} does not survive pickling ({failure!r}): {exc}")
    return ("internal", "".join(traceback.format_exception(exc)))


def worker_main(conn: Connection, runner_path: str) -> None:
    """A worker process's loop: receive a :class:`Job`, run it, send the reply; until the
    pipe closes (the server stopped it or exited)."""
    # The server process stops its workers; Ctrl-C in a terminal reaches the whole
    # process group, and a worker must not print a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    runner = load_runner(runner_path)
    try:
        conn.send(("ready", os.getpid()))
    except (EOFError, OSError):
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", runner(job))
        except BaseException as exc:  # noqa: BLE001 - every failure becomes a reply
            reply = _error_reply(exc)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # noqa: BLE001 - a body that does not pickle
            conn.send(("internal", f"the job's result could not be sent: {exc!r}"))
