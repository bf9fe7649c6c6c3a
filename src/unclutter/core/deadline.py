"""A wall-clock deadline for Python code running on the main thread (``SIGALRM``)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["alarm_deadline"]


@contextmanager
def alarm_deadline(seconds: float | None, error: type[BaseException] = TimeoutError) -> Iterator[None]:
    """Raise ``error(f"over {seconds} s")`` in the block once ``seconds`` (wall clock) have
    passed, by ``SIGALRM`` (POSIX ``setitimer``). A no-op for ``None`` or 0, off the main
    thread and where ``setitimer`` is missing (Windows). Code running in C (a parser, a
    regex) is interrupted only when it returns to Python. The previous ``SIGALRM`` handler
    is restored on exit."""
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def fire(signum, frame):
        raise error(f"over {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
