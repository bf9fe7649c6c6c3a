"""Rendering in headless Chromium (Debian's chromium through Playwright) under the fetch policy.

Every page is served by a local origin on 127.0.0.1, allowed explicitly by the test's fetch
policy (exactly that address and that server's port). The pages' scripts try to reach
other addresses; the tests check those requests are refused and reported, and that no
other local server receives anything. Skipped only when Playwright or chromium is missing
(``.ci/run`` installs chromium with apt-get).
"""

from __future__ import annotations

import json
import threading
import time

import pytest

pytest.importorskip("playwright.async_api", reason="the render extra is not installed: pip install -e '.[render]'")

import unclutter  # noqa: E402
from unclutter.core.errors import (  # noqa: E402
    FetchTimeoutError,
    NoContentError,
    PolicyError,
    RenderError,
    RenderUnavailableError,
    TooLargeError,
    UsageError,
)
from unclutter.core.options import RenderOptions  # noqa: E402
from unclutter.fetch import browser  # noqa: E402

try:
    from . import fetch_servers as fs  # type: ignore[no-redef]
except ImportError:
    import fetch_servers as fs  # type: ignore[no-redef]

if browser.chromium_executable() is None:
    pytest.skip("chromium not found (apt-get install -y chromium)", allow_module_level=True)

ARTICLE = ("<h1>Harbour lights</h1>"
           + "".join(f"<p>Paragraph {i} of the story the script builds: the harbour lights came on one by one, "
                     f"and the boats turned home before the storm reached the outer wall of the bay.</p>"
                     for i in range(6)))
SHELL = (b"<!doctype html><html><head><title>Harbour lights</title><link rel=stylesheet href=/site.css></head>"
         b"<body><div id=root></div><script src=/app.js></script></body></html>")
JS = "application/javascript"


def _js(text: str) -> fs.Route:
    return fs.page(text.encode(), JS)


def _build(extra: str = "") -> str:
    return f"document.getElementById('root').innerHTML = {json.dumps('<article>' + ARTICLE + '</article>')};\n{extra}"


@pytest.fixture(scope="module")
def renderer():
    r = browser.Renderer()
    yield r
    r.close()


def _routes(app: str, css: bytes = b"body{margin:0}", **more) -> dict:
    routes = {"/": fs.page(SHELL), "/app.js": _js(app), "/site.css": fs.page(css, "text/css")}
    routes.update(more)
    return routes


def test_article_built_by_a_script_is_extracted(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    with fs.LocalServer(_routes(_build())) as server:
        policy = fs.local_policy(server)
        with pytest.raises(NoContentError):
            unclutter.extract_url(server.url("/"), policy=policy, render="never")
        article = unclutter.extract_url(server.url("/"), policy=policy, render="always")
    assert "the harbour lights came on one by one" in article.text
    assert article.render["rendered"] is True and article.render["wait"] == "network idle"
    assert article.render["requests"] >= 3  # document, script, stylesheet


def test_article_loaded_by_xhr_through_a_redirect(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    app = ("fetch('/api/story').then(r => r.json()).then(d => {"
           "document.getElementById('root').innerHTML = '<article>' + d.html + '</article>'; });")
    routes = _routes(app, **{"/api/story": fs.redirect("/api/story.json"),
                             "/api/story.json": fs.page(json.dumps({"html": ARTICLE}).encode(), "application/json")})
    with fs.LocalServer(routes) as server:
        article = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always")
        assert "/api/story.json" in server.paths()
    assert "boats turned home before the storm" in article.text


def test_private_and_metadata_addresses_are_refused_and_reported(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    with fs.LocalServer({"/secret": fs.page(b"LEAKED-SECRET", "text/plain")}) as other:
        targets = ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[::1]/",
                   "http://127.0.0.2/", other.url("/secret"), "file:///etc/passwd"]
        app = _build("".join(
            f"fetch({json.dumps(t)}).then(r => r.text()).then(t => document.body.insertAdjacentText('beforeend', t))"
            f".catch(() => {{}});\n" for t in targets)
            + "try { new WebSocket('ws://127.0.0.1:1/'); } catch (e) {}\n"
              "const f = document.createElement('iframe'); f.src = 'http://169.254.169.254/'; "
              "document.body.appendChild(f);\n")
        with fs.LocalServer(_routes(app)) as server, fs.guard_connections() as attempts:
            article = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always",
                                            explain=True)
        assert other.requests == []  # another port of the same address: refused before any connection
    assert {port for _host, port in attempts} <= {server.port}
    blocked = {b["url"]: b["reason"] for b in article.render["blocked"]}
    assert "cloud metadata" in blocked["http://169.254.169.254/latest/meta-data/"]
    assert "private" in blocked["http://10.0.0.1/"]
    assert "http://[::1]/" in blocked and "http://127.0.0.2/" in blocked
    assert other.url("/secret") in blocked and "port" in blocked[other.url("/secret")]
    assert "ws://127.0.0.1:1/" in blocked
    assert "LEAKED-SECRET" not in article.markdown
    assert any(line.startswith("render: blocked http://169.254.169.254/") for line in article.trace)


def test_a_page_that_never_stops_loading_is_taken_at_the_deadline(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    app = _build("setInterval(() => fetch('/poll?' + Date.now()).catch(() => {}), 100);")
    with fs.LocalServer(_routes(app, **{"/poll": fs.page(b"{}", "application/json")})) as server:
        start = time.monotonic()
        article = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always",
                                        render_options=RenderOptions(deadline=3))
        elapsed = time.monotonic() - start
    assert elapsed < 3 + browser.HANG_GRACE_SECONDS
    assert article.render["wait"].startswith("network never idle")
    assert "harbour lights came on" in article.text


def test_a_document_that_never_finishes_is_a_timeout(renderer):
    with fs.LocalServer({"/": fs.drip(0.2, "drip")}) as server:
        start = time.monotonic()
        with pytest.raises(FetchTimeoutError):
            renderer.render(server.url("/"), policy=fs.local_policy(server), options=RenderOptions(deadline=2))
    assert time.monotonic() - start < 2 + browser.HANG_GRACE_SECONDS


def test_a_page_downloading_50_mb_hits_the_byte_cap(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    app = _build("fetch('/big').then(r => r.text()).then(t => document.title = 'got ' + t.length).catch(() => {});")
    routes = _routes(app, **{"/big": fs.endless("application/octet-stream", "big", total=50 * 2**20)})
    with fs.LocalServer(routes) as server:
        cap = 5_000_000
        article = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always",
                                        render_options=RenderOptions(max_bytes=cap))
        sent = server.sent.get("big", 0)
    assert article.render["capped"] == ["bytes"]
    assert article.render["bytes"] <= cap
    assert sent < 50 * 2**20  # the download was cut, not read to the end
    assert "harbour lights came on" in article.text


def test_the_document_alone_over_the_byte_cap_is_too_large(renderer):
    with fs.LocalServer({"/": fs.page(b"<p>" + b"x" * 200_000)}) as server:
        with pytest.raises(TooLargeError):
            renderer.render(server.url("/"), policy=fs.local_policy(server), options=RenderOptions(max_bytes=100_000))


def test_request_cap(renderer):
    app = _build("for (let i = 0; i < 30; i++) fetch('/n?' + i).catch(() => {});")
    with fs.LocalServer(_routes(app, **{"/n": fs.page(b"1", "text/plain")})) as server:
        page = renderer.render(server.url("/"), policy=fs.local_policy(server), options=RenderOptions(max_requests=8))
    assert page.requests == 8 and page.capped == ["requests"]


def test_text_a_script_hides_after_load_is_not_extracted(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    app = _build(
        "document.querySelector('article').insertAdjacentHTML('beforeend', "
        "'<p id=a>Injected instruction one for the summarizer, hidden by inline style later.</p>"
        "<p id=b>Injected instruction two for the summarizer, hidden by a stylesheet class later.</p>"
        "<p id=c>Injected instruction three, moved off-screen later.</p>');\n"
        "window.addEventListener('load', () => setTimeout(() => {"
        " document.getElementById('a').style.display = 'none';"
        " document.getElementById('b').className = 'gone';"
        " document.getElementById('c').className = 'away'; }, 50));")
    css = b".gone{visibility:hidden}.away{position:absolute;left:-5000px;top:0}"
    with fs.LocalServer(_routes(app, css)) as server:
        article = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always")
    assert "Injected instruction" not in article.markdown
    assert "harbour lights came on" in article.text
    assert article.render["hidden"]["visibility"] >= 1 and article.render["hidden"]["offscreen"] >= 1


def test_text_parked_right_of_a_clipped_page_is_not_extracted(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    app = _build(
        "document.querySelector('article').insertAdjacentHTML('beforeend', "
        "'<p class=right>Injected instruction parked right of the page for the summarizer.</p>"
        "<p class=near>A positioned note inside the page that a reader sees.</p>');")
    css = (b"html,body{overflow-x:hidden}.right{position:absolute;left:12000px;top:0}"
           b".near{position:absolute;left:40px;top:0}")
    with fs.LocalServer(_routes(app, css)) as server:
        clipped = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always")
    assert "Injected instruction parked" not in clipped.markdown
    assert "A positioned note inside the page" in clipped.text
    assert clipped.render["hidden"]["offscreen"] >= 1
    # a page that scrolls sideways: the box can be reached, so it stays
    with fs.LocalServer(_routes(app, css.replace(b"html,body{overflow-x:hidden}", b""))) as server:
        scrolling = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always")
    assert "Injected instruction parked" in scrolling.text


def test_images_fonts_and_media_are_not_loaded(renderer):
    body = (b"<!doctype html><title>t</title><p>Some text to read here.</p><img src=/pic.png>"
            b"<video src=/v.mp4></video>")
    with fs.LocalServer({"/": fs.page(body), "/pic.png": fs.page(b"\x89PNG", "image/png")}) as server:
        page = renderer.render(server.url("/"), policy=fs.local_policy(server))
        assert "/pic.png" not in server.paths()
    assert page.skipped.get("image") == 1


def test_a_crashed_browser_fails_one_page_then_a_new_one_starts(renderer):
    app = _build("setInterval(() => fetch('/poll?' + Date.now()).catch(() => {}), 100);")
    with fs.LocalServer(_routes(app, **{"/poll": fs.page(b"{}", "application/json")})) as server:
        policy = fs.local_policy(server)
        renderer.render(server.url("/"), policy=policy, options=RenderOptions(deadline=2))  # browser running
        pids = renderer.browser_pids()
        assert pids
        launches = renderer.launches
        killer = threading.Timer(1.0, renderer._kill_processes)
        killer.start()
        with pytest.raises(RenderError):
            renderer.render(server.url("/"), policy=policy, options=RenderOptions(deadline=6))
        killer.join()
        page = renderer.render(server.url("/"), policy=policy, options=RenderOptions(deadline=3))
    assert renderer.launches == launches + 1
    assert "harbour lights" in page.html


def test_page_given_without_url_renders_its_inline_scripts_only(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    html = ("<!doctype html><title>Local</title><div id=root></div><script src=/x.js></script><script>"
            + _build() + "</script>")
    article = unclutter.extract(html, render="always")
    assert "harbour lights came on" in article.text
    assert any("without a URL" in b["reason"] for b in article.render["blocked"])


def test_missing_browser_is_a_clear_error_and_auto_falls_back(monkeypatch):
    missing = browser.Renderer(executable="/nonexistent/chromium")
    with pytest.raises(RenderUnavailableError, match=r"pip install 'unclutter\[render\]'"):
        missing.render("http://127.0.0.1:9/", policy=fs.FetchPolicy(allow_addresses=frozenset({"127.0.0.1"}),
                                                                    allowed_ports=frozenset({9})))
    monkeypatch.setattr(browser, "default_renderer", lambda: missing)
    html = "<!doctype html><title>t</title><article>" + ARTICLE + "</article>"
    with pytest.raises(RenderUnavailableError):
        unclutter.extract(html, render="always")
    article = unclutter.extract(html.replace("<article>", "<div id=root></div><article>"), render="auto")
    assert "harbour lights came on" in article.text  # auto: a static page is read as served
    missing.close()


def test_render_options_are_checked():
    for bad in ({"deadline": 0}, {"max_bytes": 0}, {"wait_for": " "}, {"wait_for": "a", "wait_seconds": 1}):
        with pytest.raises(ValueError):
            RenderOptions(**bad)
    with pytest.raises(UsageError):
        unclutter.extract("<p>x</p>", render="sometimes")


def _cli(*args: str) -> "subprocess.CompletedProcess[str]":
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "unclutter", *args], capture_output=True, text=True, timeout=120)


def test_cli_renders_a_shell_in_auto_mode_and_explains_the_decision():
    static = ("<!doctype html><title>Static</title><article>" + ARTICLE + "</article>").encode()
    with fs.LocalServer(_routes(_build(), **{"/static": fs.page(static)})) as server:
        allow = ["--allow-address", "127.0.0.1", "--allow-port", str(server.port)]
        shell = _cli(server.url("/"), "-f", "json", "--explain", *allow)
        plain = _cli(server.url("/static"), "--explain", *allow)
        never = _cli(server.url("/"), "--render", "never", *allow)
        assert "/app.js" in server.paths()
    assert shell.returncode == 0, shell.stderr
    d = json.loads(shell.stdout)
    assert d["render"]["mode"] == "auto" and d["render"]["rendered"] is True
    assert "JavaScript shell" in d["render"]["reason"] and "harbour lights came on" in d["text"]
    assert plain.returncode == 0, plain.stderr
    assert "render (auto): not rendered" in plain.stderr  # --explain shows the decision
    assert never.returncode == 6 and "Traceback" not in never.stderr  # the shell alone has no content


def test_cli_wait_options_need_rendering():
    proc = _cli("page.html", "--wait-for", "#root")
    assert proc.returncode == 2 and "--render" in proc.stderr


def test_service_renders_only_when_the_operator_allows_it():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from unclutter.server import ServerConfig, create_app

    with fs.LocalServer(_routes(_build())) as server:
        policy = fs.local_policy(server)
        with TestClient(create_app(ServerConfig(fetch_policy=policy, max_jobs=1))) as client:
            refused = client.get("/read", params={"url": server.url("/"), "render": "always", "format": "json"})
            served = client.get("/read", params={"url": server.url("/"), "format": "json"})
        config = ServerConfig(fetch_policy=policy, max_jobs=1, allow_render=True)
        with TestClient(create_app(config)) as client:
            rendered = client.get("/read", params={"url": server.url("/"), "render": "auto", "format": "json",
                                                   "wait_for": "article p"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "unsupported_option"
    assert served.status_code == 422  # never by default: the shell has no content
    assert rendered.status_code == 200, rendered.text
    body = rendered.json()
    assert body["render"]["rendered"] is True and body["render"]["wait"] == "selector found"
    assert "harbour lights came on" in body["text"]


def test_reader_page_offers_rendering_only_when_allowed():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from unclutter.server import ServerConfig, create_app

    with fs.LocalServer(_routes(_build())) as server:
        policy = fs.local_policy(server)
        with TestClient(create_app(ServerConfig(fetch_policy=policy, max_jobs=1))) as client:
            plain_form = client.get("/").text
        with TestClient(create_app(ServerConfig(fetch_policy=policy, max_jobs=1, allow_render=True))) as client:
            form = client.get("/").text
            page = client.post("/view", data={"url": server.url("/"), "render": "true"})
            unrendered = client.post("/view", data={"url": server.url("/")})
    assert 'name="render"' not in plain_form and 'name="render"' in form
    assert page.status_code == 200 and "harbour lights came on" in page.text
    assert unrendered.status_code == 422  # the box unticked: the served shell


def test_jina_route_renders_with_the_headers_jina_reader_uses():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from unclutter.server import ServerConfig, create_app

    with fs.LocalServer(_routes(_build())) as server:
        policy = fs.local_policy(server)
        path = "/" + server.url("/")
        with TestClient(create_app(ServerConfig(fetch_policy=policy, max_jobs=1))) as client:
            refused = client.get(path, headers={"X-Render": "always"})
        with TestClient(create_app(ServerConfig(fetch_policy=policy, max_jobs=1, allow_render=True))) as client:
            rendered = client.get(path, headers={"X-Render": "Always", "X-Wait-For-Selector": "article p"})
            plain = client.get(path)
            bad = client.get(path, headers={"X-Render": "sometimes"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "unsupported_option"
    assert rendered.status_code == 200, rendered.text
    assert "harbour lights came on" in rendered.text and rendered.headers["content-type"].startswith("text/markdown")
    assert plain.status_code == 422  # no header: the served shell, as before
    assert bad.status_code == 400 and "X-Render" in bad.json()["error"]["message"]


def test_names_are_resolved_through_the_policy_and_a_rebinding_answer_is_refused(renderer, monkeypatch):
    import socket

    dns = fs.FakeDNS({"news.example": ["127.0.0.1"], "rebind.example": [["127.0.0.1"], ["10.0.0.7"]]})
    monkeypatch.setattr(socket, "getaddrinfo", dns)
    with fs.LocalServer({"/": fs.page(b"ok", "text/plain"), "/story.json": fs.page(
            json.dumps({"html": ARTICLE}).encode(), "application/json")}) as api:
        port = api.port
        app = (f"fetch('http://news.example:{port}/story.json').then(r => r.json()).then(d => "
               "document.getElementById('root').innerHTML = '<article>' + d.html + '</article>');\n"
               f"fetch('http://rebind.example:{port}/').catch(() => {{}});\n"
               f"setTimeout(() => fetch('http://rebind.example:{port}/?second').catch(() => {{}}), 50);")
        with fs.LocalServer(_routes(app)) as server:
            policy = fs.local_policy(server, api)
            page = renderer.render(server.url("/"), policy=policy)
    assert "harbour lights came on" in page.html  # a name resolved by the fetcher, to an allowed address
    reasons = [reason for url, reason in page.blocked if "rebind.example" in url]
    assert len(reasons) == 1 and "10.0.0.7" in reasons[0]  # the second answer is private: refused
    assert dns.lookups.count("rebind.example") == 2


def _batch_record(tmp_path, server) -> dict:
    """The record of a batch run over the server's front page (a URL list of one)."""
    listing = tmp_path / "urls.txt"
    listing.write_text(server.url("/") + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    proc = _cli("-i", str(listing), "-o", str(out), "--quiet", "--workers", "1", "--allow-address",
                "127.0.0.1", "--allow-port", str(server.port))
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text(encoding="utf-8").splitlines()[0])


def test_batch_renders_fetched_urls(tmp_path):
    with fs.LocalServer(_routes(_build())) as server:
        record = _batch_record(tmp_path, server)
    assert record["status"] == "ok" and "harbour lights came on" in record["text"]
    assert record["render"] == "rendered"


def test_batch_records_say_when_the_served_html_was_used(tmp_path):
    body = (b"<title>t</title><article><h1>Plain</h1>" + b"<p>A served page with enough words of text to "
            b"stand as an article, no script at all, so auto keeps its HTML.</p>" * 5 + b"</article>")
    with fs.LocalServer({"/": fs.page(body)}) as server:
        assert _batch_record(tmp_path, server)["render"] == "served"
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "p.html").write_bytes(body)
    files = tmp_path / "files.jsonl"
    proc = _cli(str(folder), "-o", str(files), "--quiet", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(files.read_text(encoding="utf-8").splitlines()[0])["render"] is None  # files: never


def test_a_bad_wait_selector_is_a_usage_error(renderer):
    with fs.LocalServer({"/": fs.page(b"<title>t</title><p>Some words of text.</p>")}) as server:
        with pytest.raises(UsageError, match="not a valid selector"):
            renderer.render(server.url("/"), policy=fs.local_policy(server), options=RenderOptions(wait_for="div[["))


# --- hostile pages ------------------------------------------------------------------------


def test_a_flood_of_requests_ends_at_the_caps_quietly_and_the_next_render_works(renderer):
    app = _build("setInterval(() => { for (let i = 0; i < 50; i++) fetch('/n?' + Math.random()).catch(() => 0); }, 1);")
    with fs.LocalServer(_routes(app, **{"/n": fs.page(b"1", "text/plain")})) as server:
        policy = fs.local_policy(server)
        start = time.monotonic()
        try:
            page = renderer.render(server.url("/"), policy=policy, options=RenderOptions(deadline=4))
        except FetchTimeoutError:  # a flood may keep the snapshot from being taken in time
            page = None
        assert time.monotonic() - start < 4 + browser.HANG_GRACE_SECONDS  # ended by the deadline, not the guard
        if page is not None:
            assert page.capped == ["requests"] and "harbour lights came on" in page.html
            assert "scripts were stopped" in page.wait
    with fs.LocalServer(_routes(_build())) as calm_server:
        calm = renderer.render(calm_server.url("/"), policy=fs.local_policy(calm_server),
                               options=RenderOptions(deadline=4, wait_for="article p"))
    assert calm.wait == "selector found"


def test_the_cli_prints_no_traceback_on_a_flood(tmp_path):
    app = _build("setInterval(() => { for (let i = 0; i < 50; i++) fetch('/n?' + Math.random()).catch(() => 0); }, 1);")
    with fs.LocalServer(_routes(app, **{"/n": fs.page(b"1", "text/plain")})) as server:
        start = time.monotonic()
        proc = _cli(server.url("/"), "--render", "always", "--render-timeout", "4", "--allow-address", "127.0.0.1",
                    "--allow-port", str(server.port))
        elapsed = time.monotonic() - start
    # the page, or (when the flood keeps the snapshot from being taken in time) one line
    assert proc.returncode in (0, 4), proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) <= 2, proc.stderr[:2000]
    assert proc.returncode == 4 or "harbour lights came on" in proc.stdout
    assert elapsed < 4 + browser.HANG_GRACE_SECONDS + 10  # (interpreter and browser start)


def test_a_refused_navigation_keeps_the_page_shown(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    with fs.LocalServer({"/x": fs.page(b"<p>other</p>")}) as other:
        for move in (f"setTimeout(() => location = {json.dumps(other.url('/x'))}, 100);",
                     f"document.head.insertAdjacentHTML('beforeend', "
                     f"'<meta http-equiv=refresh content=\"0;url={other.url('/x')}\">');"):
            with fs.LocalServer(_routes(_build(move))) as server:
                article = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always")
            assert "harbour lights came on" in article.text, move
            assert any(b["url"].startswith(other.url("/x")) for b in article.render["blocked"]), move
        assert other.requests == []


def test_a_script_navigation_moves_the_base_of_relative_links(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    second = ("<!doctype html><title>Moved</title><article>" + ARTICLE
              + "<p>See <a href='notes.html'>the notes</a> for the rest of the tide tables.</p></article>").encode()
    routes = {"/dir1/start": fs.page(b"<!doctype html><title>x</title><script>location = '/dir2/other';</script>"),
              "/dir2/other": fs.page(second)}
    with fs.LocalServer(routes) as server:
        article = unclutter.extract_url(server.url("/dir1/start"), policy=fs.local_policy(server), render="always")
    assert f"]({server.url('/dir2/notes.html')})" in article.markdown


def test_a_page_cannot_undo_or_fool_the_hidden_text_marks(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    secret = "<p class=gone>Secret instruction planted for the summarizer, hidden by the stylesheet.</p>"
    tricks = (
        "new MutationObserver(ms => { for (const m of ms) { const e = m.target; if (e.hasAttribute && "
        "e.hasAttribute('data-unclutter-hidden')) { e.removeAttribute('data-unclutter-hidden'); "
        "e.removeAttribute('style'); } } }).observe(document.documentElement, {attributes: true, subtree: true});",
        "const real = window.getComputedStyle; window.getComputedStyle = (e, p) => "
        "new Proxy(real(e, p), {get: (t, k) => k === 'display' ? 'block' : t[k]});",
        "Object.defineProperty(Element.prototype, 'children', {get() { return []; }});",
        "window.getComputedStyle = () => { throw new Error('no'); };",
    )
    for trick in tricks:
        app = _build(f"document.querySelector('article').insertAdjacentHTML('beforeend', {json.dumps(secret)});\n"
                     + trick)
        with fs.LocalServer(_routes(app, b".gone{display:none}")) as server:
            article = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always")
        assert "Secret instruction" not in article.markdown, trick
        assert "harbour lights came on" in article.text, trick


def test_a_slow_parser_blocking_script_does_not_lose_the_page(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    body = ("<!doctype html><title>Slow</title><article>" + ARTICLE + "</article><script src=/drip.js></script>").encode()
    with fs.LocalServer({"/": fs.page(body), "/drip.js": fs.drip(0.1, "drip")}) as server:
        article = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="always",
                                        render_options=RenderOptions(deadline=3))
    assert "harbour lights came on" in article.text
    assert article.render["wait"].startswith("deadline reached while the page was loading")


def test_a_page_over_the_memory_cap_kills_the_browser_not_the_machine(renderer):
    app = ("const keep = []; let n = 0; const grow = () => { if (n++ < 48) { const a = new Uint8Array(64 << 20); "
           "for (let i = 0; i < a.length; i += 4096) a[i] = 1; keep.push(a); setTimeout(grow, 20); } }; grow();")
    with fs.LocalServer(_routes(app)) as server:
        policy = fs.local_policy(server)
        start = time.monotonic()
        with pytest.raises(RenderError, match="memory"):
            renderer.render(server.url("/"), policy=policy,
                            options=RenderOptions(deadline=15, wait_seconds=10, max_memory=900 * 2**20))
        assert time.monotonic() - start < 15
        page = renderer.render(server.url("/"), policy=policy, options=RenderOptions(deadline=3))
    assert page.html  # a new browser after the kill


def test_only_http_pages_are_rendered(renderer):
    for url in ("chrome://version/", "data:text/html,<p>x</p>", "file:///etc/passwd", "about:blank"):
        with pytest.raises(PolicyError):
            renderer.render(url)


def test_auto_renders_a_page_whose_served_html_gives_almost_no_text(renderer, monkeypatch):
    monkeypatch.setattr(browser, "default_renderer", lambda: renderer)
    chrome = ("<header><a href=/>News Site</a><nav>" + " ".join(f"<a href=/s{i}>Section number {i}</a>"
                                                                 for i in range(12)) + "</nav></header>")
    page = (f"<!doctype html><title>News</title><body>{chrome}<main id=app><p>Loading…</p></main>"
            "<footer><p>About this site: news from the harbour town, every day of the week, by our staff.</p>"
            "</footer><script src=/app.js></script></body>").encode()
    app = "document.getElementById('app').innerHTML = " + json.dumps("<article>" + ARTICLE + "</article>") + ";"
    with fs.LocalServer({"/": fs.page(page), "/app.js": _js(app)}) as server:
        article = unclutter.extract_url(server.url("/"), policy=fs.local_policy(server), render="auto")
    assert article.render["rendered"] is True and "rendered after all" in article.render["reason"]
    assert "harbour lights came on" in article.text


def test_a_shell_that_cannot_be_rendered_says_why_it_is_empty(monkeypatch):
    missing = browser.Renderer(executable="/nonexistent/chromium")
    monkeypatch.setattr(browser, "default_renderer", lambda: missing)
    with pytest.raises(NoContentError, match="rendering it failed: .*pip install"):
        unclutter.extract(SHELL.decode(), url="https://example.org/app", render="auto")
    missing.close()


def test_cli_both_waits_is_a_usage_error():
    proc = _cli("https://example.org/", "--wait-for", "main", "--wait-seconds", "2")
    assert proc.returncode == 2 and "--wait-for or --wait-seconds" in proc.stderr
