"""The SIGALRM deadline shared by the rivals of `unclutter evaluate` and the engines' tasks."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from unclutter.core.deadline import alarm_deadline

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no setitimer on this platform")


class _Late(Exception):
    pass


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_the_deadline_interrupts_python_code_and_restores_the_handler():
    def mine(signum, frame):  # a handler the caller had
        raise AssertionError("the caller's handler ran")

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        with pytest.raises(TimeoutError, match=r"over 0\.05 s"):
            with alarm_deadline(0.05):
                _spin(5)
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no timer left running
        with pytest.raises(_Late):
            with alarm_deadline(0.05, _Late):
                _spin(5)
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_no_deadline_for_none_zero_or_another_thread():
    with alarm_deadline(None):
        _spin(0.01)
    with alarm_deadline(0):
        _spin(0.01)
    errors = []

    def work():
        try:
            with alarm_deadline(0.01):
                _spin(0.1)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert errors == []
    # a block that ends in time leaves nothing armed
    with alarm_deadline(5):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_engine_task_turns_a_page_past_its_deadline_into_a_timeout_row(monkeypatch):
    import unclutter.scale as scale
    from unclutter.batch.record import PageInput

    monkeypatch.setattr(scale, "extract_record", lambda page, options=None: _spin(5))
    page = PageInput(id="p1", source="slow.html", data=b"<p>x</p>")
    row = scale.bounded_record(page, timeout=0.05)
    assert row["status"] == "error" and row["error_kind"] == "TimeoutError"
    assert "ran past 0.05 s" in row["error_message"]
