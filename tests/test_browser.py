"""End to end in a real headless browser: Debian's chromium, driven by Playwright,
against the service started here on 127.0.0.1 (uvicorn in a thread), reading a page from
the shared datasets served by a local origin.

The browser can reach nothing but this test's service: every request to another address is
aborted by a Playwright route, and chromium's resolver maps every other name to NOTFOUND.
Screenshots go to ``test-artifacts/`` (git-ignored). Skipped only when chromium or the
Playwright package is missing (``.ci/run`` installs chromium with apt-get).
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed: pip install -e '.[server]'")
uvicorn = pytest.importorskip("uvicorn", reason="the server extra is not installed: pip install -e '.[server]'")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the playwright package is not installed: pip install -e '.[test]'")

import unclutter  # noqa: E402
from unclutter.server import ServerConfig, accepted_options, create_app  # noqa: E402

try:
    from . import fetch_servers  # type: ignore[no-redef]
    from .conftest import REPO, case_html, find_case
except ImportError:
    import fetch_servers  # type: ignore[no-redef]
    from conftest import REPO, case_html, find_case

#: Debian's chromium (``apt-get install -y chromium``); Playwright never downloads a browser here.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--no-first-run", "--no-default-browser-check",
    "--metrics-recording-only", "--dns-prefetch-disable",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
ARTIFACTS = REPO / "test-artifacts"
DATASET, CASE = "readability-tests", "dropbox-blog"  # a long article with a dozen h2 sections


def _chromium() -> str:
    if CHROMIUM.exists():
        return str(CHROMIUM)
    found = shutil.which("chromium")
    if not found:
        pytest.skip("chromium not found at /usr/bin/chromium nor on PATH (apt-get install -y chromium)")
    return found


class ThreadedUvicorn:
    """The service under uvicorn in a thread, on a free 127.0.0.1 port; stopped on exit."""

    def __init__(self, app) -> None:
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> ThreadedUvicorn:
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < end, "uvicorn did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def test_reader_page_in_headless_chromium() -> None:
    executable = _chromium()
    case = find_case(DATASET, CASE)
    html = case_html(DATASET, case)
    ARTIFACTS.mkdir(exist_ok=True)

    with fetch_servers.LocalServer({"/post.html": fetch_servers.page(html)}) as origin, \
            ThreadedUvicorn(create_app(ServerConfig(fetch_policy=fetch_servers.local_policy(origin)))) as service:
        page_url = origin.url("/post.html")
        # What the library says about this page (the service adds no logic of its own).
        options = {"summary": True} if "summary" in accepted_options() else {}
        expected = unclutter.extract(html, url=page_url, **options)
        sections = [t for t in expected.toc if t.level > 1]
        assert expected.title and len(sections) >= 4
        target = sections[2]
        base = f"http://127.0.0.1:{service.port}"
        allowed = {f"127.0.0.1:{service.port}"}
        blocked: list[str] = []

        def only_the_service(route) -> None:
            if urlsplit(route.request.url).netloc in allowed:
                route.continue_()
            else:
                blocked.append(route.request.url)
                route.abort()

        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
            try:
                # JavaScript off: the reader page must work without it.
                context = browser.new_context(viewport={"width": 1280, "height": 800}, java_script_enabled=False)
                context.route("**/*", only_the_service)
                page = context.new_page()
                page.goto(base + "/")
                page.fill("#url", page_url)
                with page.expect_navigation():
                    page.click("button[type=submit]")
                assert page.url == base + "/view"

                # title, metadata, summary
                assert page.inner_text("h1").strip() == expected.title
                assert page.title() == expected.title
                meta = page.inner_text(".doc-head .meta")
                assert expected.byline and expected.byline in meta and "min read" in meta
                summary = getattr(expected, "summary", None)
                if summary:
                    assert " ".join(page.inner_text(".summary p").split()) == " ".join(str(summary).split())
                else:
                    assert page.locator(".summary").count() == 0
                # our stylesheets loaded under the CSP (the measure is set by reader.css)
                assert page.evaluate("getComputedStyle(document.querySelector('main.reader')).maxWidth") != "none"
                assert page.locator("script").count() == 0
                page.screenshot(path=str(ARTIFACTS / "reader-top.png"))

                # the table of contents jumps to the section
                assert page.evaluate("window.scrollY") == 0
                page.click(f'nav.toc a[href="#{target.anchor}"]')
                page.wait_for_function(f"location.hash === '#{target.anchor}'")
                page.wait_for_function("window.scrollY > 0")
                top = page.evaluate(f"document.getElementById('{target.anchor}').getBoundingClientRect().top")
                assert 0 <= top <= 40, top
                assert page.inner_text(f"[id='{target.anchor}']").strip() == target.title
                page.screenshot(path=str(ARTIFACTS / "reader-section.png"))
                context.close()

                # phone width: nothing wider than the screen, images constrained
                phone = browser.new_context(viewport={"width": 375, "height": 740}, java_script_enabled=False,
                                            is_mobile=True, device_scale_factor=2)
                phone.route("**/*", only_the_service)
                mobile = phone.new_page()
                mobile.goto(base + "/" + page_url, wait_until="load")  # Markdown for a script...
                assert mobile.inner_text("h1").strip() == expected.title  # ...the reader page for a browser
                assert mobile.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
                assert mobile.evaluate(
                    "[...document.images].every(i => i.loading === 'lazy' && getComputedStyle(i).maxWidth === '100%')")
                mobile.screenshot(path=str(ARTIFACTS / "reader-phone.png"))
                phone.close()
            finally:
                browser.close()
    assert (ARTIFACTS / "reader-section.png").stat().st_size > 10_000
