"""The service's worker processes: jobs run in a bounded pool of processes, a job past its
request's deadline has its worker killed (504) and replaced, errors raised in a worker
come back with their own status, a worker that dies gives 500.

The apps here run :func:`control` in their workers instead of the real job runner (the
``job_runner`` setting): when the given HTML is a command (``sleep:2``, ``spin``,
``crash``, ``raise:KIND``...), the worker does that; any other page is read as usual.
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed: pip install -e '.[server]'")

from fastapi.testclient import TestClient  # noqa: E402

from unclutter.core.errors import BlockedAddressError, NoContentError, UnclutterError  # noqa: E402
from unclutter.server import ServerConfig, create_app  # noqa: E402
from unclutter.server import app as server_app  # noqa: E402
from unclutter.server.errors import ServiceError  # noqa: E402
from unclutter.server.worker import Job, extract_article, render_article, run_job  # noqa: E402

PARA = "<p>{} is a paragraph with enough words, commas, clauses and full stops to count as prose.</p>"
ARTICLE = (
    "<!doctype html><html lang='en'><head><title>The Local Story</title></head><body><article>"
    "<h1>The Local Story</h1>" + "".join(PARA.format(f"Opening {i}") for i in range(4))
    + "<h2>First part</h2>" + "".join(PARA.format(f"First {i}") for i in range(4))
    + "</article></body></html>"
)


# --- what the workers run -------------------------------------------------------------------


class UnpicklableError(UnclutterError):
    """An error whose constructor takes two arguments: it cannot be rebuilt from its args."""

    http_status, code = 400, "unpicklable"

    def __init__(self, message: str, extra: int) -> None:
        super().__init__(message)
        self.extra = extra


ERRORS = {
    "policy": lambda: BlockedAddressError("refused: 10.0.0.1 is a private address (RFC 1918) "
                                          "(internal.example resolves to it)"),
    "service": lambda: ServiceError("unsupported_option", "the test's option is not offered"),
    "nocontent": lambda: NoContentError("no main content found"),
    "memory": lambda: MemoryError(),
    "recursion": lambda: RecursionError(),
    "runtime": lambda: RuntimeError("secret internal detail"),
    "unpicklable": lambda: UnpicklableError("an error that cannot travel", 2),
}


def control(job: Job) -> str:
    """Job runner for these tests (see the module's description)."""
    command, _, arg = (job.html or "").partition(":")
    if command == "sleep":
        time.sleep(float(arg))
        return "slept"
    if command == "spin":  # catastrophic backtracking: CPU-bound in C, holding the GIL
        re.match(r"(a+)+$", "a" * 64 + "!")
        return "done"
    if command == "crash":  # as the kernel's out-of-memory killer would
        os.kill(os.getpid(), signal.SIGKILL)
    if command == "raise":
        raise ERRORS[arg]()
    if command == "pid":
        return str(os.getpid())
    if command == "echo":
        return json.dumps(job.options, sort_keys=True)
    if command == "gate":  # wait until DIR/release exists; DIR/running-PID while waiting
        folder = Path(arg)
        marker = folder / f"running-{os.getpid()}"
        (folder / f"call-{os.getpid()}-{time.monotonic_ns()}").touch()
        marker.touch()
        try:
            end = time.monotonic() + 10
            while not (folder / "release").exists() and time.monotonic() < end:
                time.sleep(0.01)
        finally:
            marker.unlink()
        return "released"
    if command == "summaries":  # the page after the colon, with summaries added
        article = extract_article(replace(job, html=arg))
        article.summary = "The whole story, in brief <em>safely</em>."
        article.toc[1].summary = "What the first part says."
        return render_article(job, article)
    return run_job(job)


RUNNER = f"{control.__module__}:control"


def app_with(**settings):
    return create_app(ServerConfig(job_runner=RUNNER, **settings))


@pytest.fixture(scope="module")
def app():
    return app_with(max_jobs=2, max_queued=4, request_deadline=3.0)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as c:
        yield c


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert "Traceback" not in response.text
    return body["error"]


def _post_in_thread(c, results, body):
    t = threading.Thread(target=lambda: results.append(c.post("/read", json=body)))
    t.start()
    return t


def _wait_for(predicate, timeout=10.0):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.01)


# --- processes ------------------------------------------------------------------------------


def test_jobs_run_in_worker_processes_and_pages_are_read_there(client, app) -> None:
    pids = {int(client.post("/read?format=text", json={"html": "pid:"}).text) for _ in range(6)}
    assert os.getpid() not in pids and pids <= set(app.state.pool.worker_pids)
    assert len(app.state.pool.worker_pids) == 2
    r = client.post("/read", json={"html": ARTICLE, "url": "https://example.com/story"})
    assert r.status_code == 200 and r.json()["title"] == "The Local Story"


def test_a_job_past_the_deadline_is_killed_and_its_worker_replaced() -> None:
    app = app_with(max_jobs=1, max_queued=2, request_deadline=1.0)
    with TestClient(app) as c:
        before = int(c.post("/read?format=text", json={"html": "pid:"}).text)
        results: list = []
        start = time.monotonic()
        spinning = _post_in_thread(c, results, {"html": "spin:"})
        _wait_for(lambda: app.state.pool.peak_running == 1 and app.state.pool.in_flight == 1)
        health = c.get("/healthz")  # answers while the only worker holds its CPU
        assert health.status_code == 200 and health.json()["jobs_in_flight"] == 1
        assert not results  # (the job was still running)
        spinning.join(10)
        elapsed = time.monotonic() - start
        assert results[0].status_code == 504 and error_of(results[0])["code"] == "deadline_exceeded"
        assert 0.9 < elapsed < 2.5, elapsed
        after = c.post("/read?format=text", json={"html": "pid:"})
        assert after.status_code == 200 and int(after.text) != before  # a new process
        assert app.state.pool.worker_pids == [int(after.text)]
        assert app.state.pool.in_flight == 0


def test_a_client_that_goes_away_frees_its_worker_too() -> None:
    app = app_with(max_jobs=1, max_queued=0, request_deadline=30.0)
    pool = app.state.pool
    with TestClient(app) as c:
        before = pool.worker_pids
        job = Job(html="sleep:30", url=None, options={}, policy=None, fmt="text")

        async def abandoned() -> None:
            import asyncio

            task = asyncio.ensure_future(pool.run(job, time.monotonic() + 30))
            while pool.peak_running == 0:
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

        c.portal.call(abandoned)
        _wait_for(lambda: pool.in_flight == 0, timeout=5)
        assert pool.worker_pids != before  # killed, not left sleeping for 30 s
        assert c.post("/read?format=text", json={"html": "pid:"}).status_code == 200


def test_a_worker_that_dies_gives_500_and_is_replaced(client, app) -> None:
    r = client.post("/read", json={"html": "crash:"})
    assert r.status_code == 500 and error_of(r) == {"code": "internal", "message": "internal error"}
    _wait_for(lambda: len(app.state.pool.worker_pids) == 2)
    for _ in range(3):
        r = client.post("/read", json={"html": ARTICLE})
        assert r.status_code == 200 and r.json()["title"] == "The Local Story"


@pytest.mark.parametrize("kind,status,code", [
    ("policy", 400, "blocked_address"),
    ("service", 400, "unsupported_option"),
    ("nocontent", 422, "no_content"),
    ("memory", 422, "unreadable_input"),
    ("recursion", 422, "unreadable_input"),
    ("runtime", 500, "internal"),
    ("unpicklable", 500, "internal"),
])
def test_errors_raised_in_a_worker_keep_their_status(client, kind, status, code) -> None:
    r = client.post("/read", json={"html": f"raise:{kind}"})
    assert r.status_code == status, r.text
    err = error_of(r)
    assert err["code"] == code
    assert "secret" not in r.text and "10.0.0.1" not in r.text and "internal.example" not in r.text
    if kind == "policy":
        assert err["message"] == BlockedAddressError.public_text
    if status == 500:
        assert err["message"] == "internal error"
    # the worker survives its job's error
    assert client.post("/read?format=text", json={"html": "pid:"}).status_code == 200


def test_every_library_and_service_error_survives_pickling() -> None:
    import pickle

    from unclutter.core import errors

    def subclasses(cls):
        yield cls
        for sub in cls.__subclasses__():
            yield from subclasses(sub)

    for cls in set(subclasses(errors.UnclutterError)) - {UnpicklableError}:
        exc = cls("refused: 10.0.0.1 is private", public="refused by the fetch policy")
        copy = pickle.loads(pickle.dumps(exc))
        assert type(copy) is cls and copy.message == exc.message and copy.public_message == exc.public_message
    exc = ServiceError("overloaded", "busy", headers={"Retry-After": "1"})
    copy = pickle.loads(pickle.dumps(exc))
    assert (copy.code, copy.status, copy.message, copy.headers) == ("overloaded", 503, "busy", {"Retry-After": "1"})


# --- bounded work ---------------------------------------------------------------------------


def test_jobs_run_in_a_bounded_pool_off_the_event_loop(tmp_path) -> None:
    app = app_with(max_jobs=2, max_queued=10)
    results: list = []
    running = lambda: len(list(tmp_path.glob("running-*")))  # noqa: E731
    with TestClient(app) as c:
        threads = [_post_in_thread(c, results, {"html": f"gate:{tmp_path}"}) for _ in range(6)]
        _wait_for(lambda: running() == 2 and app.state.pool.in_flight == 6)
        time.sleep(0.2)
        assert running() == 2  # the others wait in the queue
        h = c.get("/healthz")  # the event loop still answers while every worker is busy
        assert h.status_code == 200 and h.json()["jobs_in_flight"] == 6
        (tmp_path / "release").touch()
        for t in threads:
            t.join(10)
    assert [r.status_code for r in results] == [200] * 6
    assert app.state.pool.peak_running == 2 and len(list(tmp_path.glob("call-*"))) == 6


def test_full_queue_is_503_and_queue_wait_past_the_deadline_is_504(tmp_path) -> None:
    app = app_with(max_jobs=1, max_queued=1, request_deadline=0.5)
    results: list = []
    with TestClient(app) as c:
        first = _post_in_thread(c, results, {"html": f"gate:{tmp_path}"})
        _wait_for(lambda: list(tmp_path.glob("running-*")))
        second = _post_in_thread(c, results, {"html": f"gate:{tmp_path}"})
        _wait_for(lambda: app.state.pool.in_flight == 2)
        r = c.post("/read", json={"html": ARTICLE})  # one worker busy, queue full
        assert r.status_code == 503 and error_of(r)["code"] == "overloaded"
        assert r.headers["retry-after"] == "1"
        second.join(5)  # waited in the queue past its deadline
        first.join(5)  # the running job passed it too: its worker was killed
        assert [x.status_code for x in results] == [504, 504]
        assert {error_of(x)["code"] for x in results} == {"deadline_exceeded"}
        _wait_for(lambda: app.state.pool.in_flight == 0 and len(app.state.pool.worker_pids) == 1)
    assert len(list(tmp_path.glob("call-*"))) == 1  # the queued job was dropped, never run


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_shutdown_stops_every_worker() -> None:
    app = app_with(max_jobs=2)
    with TestClient(app) as c:
        assert c.post("/read?format=text", json={"html": "pid:"}).status_code == 200
        pids = app.state.pool.worker_pids
        assert len(pids) == 2 and not any(_gone(p) for p in pids)
    assert app.state.pool.worker_pids == []
    _wait_for(lambda: all(_gone(p) for p in pids), timeout=5)


def test_a_bad_job_runner_is_refused_at_once() -> None:
    with pytest.raises(ValueError):
        ServerConfig(job_runner="no colon here")
    with pytest.raises(ImportError):
        create_app(ServerConfig(job_runner="no_such_module_here:run"))


# --- options reach the worker ---------------------------------------------------------------


def test_options_reach_extract_only_when_it_accepts_them(client, monkeypatch) -> None:
    monkeypatch.setattr(server_app, "accepted_options", lambda: frozenset({"extractor", "include_links",
                                                                           "include_images", "summary"}))
    r = client.post("/read?format=text", json={"html": "echo:", "summary": True, "include_images": False})
    assert r.status_code == 200
    assert json.loads(r.text) == {"summary": True, "include_links": True, "include_images": False}
    r = client.post("/read", json={"html": "echo:", "summary_words": 20})
    assert r.status_code == 400 and error_of(r)["code"] == "unsupported_option"
    r = client.post("/read", json={"html": "echo:", "summary_words": 20, "summary": False})
    assert r.status_code == 400  # a value given for an option extract does not take


def test_reader_page_shows_summaries_when_the_article_has_them(client) -> None:
    r = client.post("/view", data={"html": "summaries:" + ARTICLE})
    assert r.status_code == 200
    page = r.text
    assert '<section class="summary"' in page
    assert "The whole story, in brief &lt;em&gt;safely&lt;/em&gt;." in page
    assert ('<a href="#first-part">First part</a><p class="toc-summary">What the first part says.</p>') in page
    assert page.index('class="summary"') < page.index('class="toc"') < page.index('class="body"')
