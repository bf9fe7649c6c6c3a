"""The HTTP service: every endpoint, format and error status, through FastAPI's
TestClient (httpx, in-process). Pages are fetched from a local origin on 127.0.0.1 under a
fetch policy that allows exactly that address and port.
"""

from __future__ import annotations

import re
import time

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed: pip install -e '.[server]'")

from fastapi.testclient import TestClient  # noqa: E402

import unclutter  # noqa: E402
from unclutter.server import ServerConfig, create_app  # noqa: E402
from unclutter.server import app as server_app  # noqa: E402
from unclutter.server.view import DATA_CSP, PAGE_CSP, negotiate  # noqa: E402

try:
    from . import fetch_servers  # type: ignore[no-redef]
except ImportError:
    import fetch_servers  # type: ignore[no-redef]

PARA = "<p>{} is a paragraph with enough words, commas, clauses and full stops to count as prose.</p>"
ARTICLE = (
    "<!doctype html><html lang='en'><head><title>The Local Story</title>"
    "<meta name='author' content='Ada Writer'><meta property='og:site_name' content='Local Paper'>"
    "<meta property='article:published_time' content='2024-05-06T07:08:09Z'></head><body>"
    "<nav><a href='/'>Home</a> <a href='/about'>About us</a></nav><article><h1>The Local Story</h1>"
    + "".join(PARA.format(f"Opening {i}") for i in range(4))
    + "<h2>First part</h2>" + "".join(PARA.format(f"First {i}") for i in range(4))
    + "<p>See <a href='/elsewhere'>the other page</a>. <img src='/pic.png' alt='A picture'></p>"
    + "<h2>Second part</h2>" + "".join(PARA.format(f"Second {i}") for i in range(4))
    + "</article><footer>Copyright footer text</footer></body></html>"
).encode()
NO_CONTENT = b"<!doctype html><html><body><nav><a href='/'>Home</a></nav></body></html>"
#: Worker processes per test app (the default, one per CPU, would only slow the tests down).
JOBS = 2


@pytest.fixture(scope="module")
def origin():
    routes = {
        "/article": fetch_servers.page(ARTICLE),
        "/pdf": fetch_servers.page(b"%PDF-1.4 not a page", content_type="application/pdf"),
        "/empty": fetch_servers.page(NO_CONTENT),
        "/broken": fetch_servers.page(b"<p>server error</p>", status=500),
        "/big": fetch_servers.page(b"<p>" + b"x" * 50_000 + b"</p>"),
        "/slow": fetch_servers.drip(0.05, "slow"),
    }
    with fetch_servers.LocalServer(routes) as srv:
        yield srv


@pytest.fixture(scope="module")
def client(origin):
    config = ServerConfig(fetch_policy=fetch_servers.local_policy(origin, deadline=1.0, max_bytes=20_000),
                          max_jobs=JOBS)
    with TestClient(create_app(config)) as c:
        yield c


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert "Traceback" not in response.text
    return body["error"]


# --- formats --------------------------------------------------------------------------------


def test_get_read_returns_the_article_as_json_by_default(client, origin) -> None:
    r = client.get("/read", params={"url": origin.url("/article")})
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert r.headers["content-security-policy"] == DATA_CSP
    d = r.json()
    assert d["title"] == "The Local Story" and d["byline"] == "Ada Writer" and d["site_name"] == "Local Paper"
    assert d["markdown"].startswith("# The Local Story\n") and "Copyright footer" not in d["markdown"]
    assert [t["title"] for t in d["toc"]] == ["The Local Story", "First part", "Second part"]
    assert d["url"] == origin.url("/article") and d["tokens_clean"] > 0
    assert "removed" not in d


@pytest.mark.parametrize("how", [{"headers": {"Accept": "text/markdown"}}, {"params": {"format": "markdown"}}])
def test_get_read_returns_markdown_by_accept_or_format(client, origin, how) -> None:
    params = {"url": origin.url("/article"), **how.get("params", {})}
    r = client.get("/read", params=params, headers=how.get("headers"))
    assert r.status_code == 200 and r.headers["content-type"] == "text/markdown; charset=utf-8"
    assert r.text.startswith("# The Local Story\n") and "## First part" in r.text
    assert f"[the other page]({origin.url('/elsewhere')})" in r.text


def test_text_format_and_format_overrides_accept(client, origin) -> None:
    r = client.get("/read", params={"url": origin.url("/article"), "format": "text"},
                   headers={"Accept": "application/json"})
    assert r.status_code == 200 and r.headers["content-type"] == "text/plain; charset=utf-8"
    assert "Opening 0 is a paragraph" in r.text and "#" not in r.text


@pytest.mark.parametrize("how", [{"headers": {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}},
                                 {"params": {"format": "html"}}])
def test_get_read_returns_the_reader_page_by_accept_or_format(client, origin, how) -> None:
    params = {"url": origin.url("/article"), **how.get("params", {})}
    r = client.get("/read", params=params, headers=how.get("headers"))
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
    assert r.headers["content-security-policy"] == PAGE_CSP
    assert "script-src" not in PAGE_CSP and "'unsafe-inline'" not in PAGE_CSP
    page = r.text
    assert "<script" not in page.lower()
    assert '<h1 id="the-local-story">The Local Story</h1>' in page
    assert '<span class="byline">Ada Writer</span>' in page and '<span class="site-name">Local Paper</span>' in page
    assert '<time class="date" datetime="2024-05-06">2024-05-06</time>' in page and "min read" in page
    # every contents entry links to a heading id that exists in the article body
    anchors = re.findall(r'<li class="l2"><a href="#([^"]+)">', page)
    assert anchors == ["first-part", "second-part"]
    for a in anchors:
        assert f'<h2 id="{a}">' in page
    assert re.search(r'<img src="http://127\.0\.0\.1:\d+/pic\.png" alt="A picture" loading="lazy"', page)
    assert page.count("<h1") == 1  # the Markdown's title line became the page heading


def test_post_read_with_url_and_with_given_html(client, origin) -> None:
    r = client.post("/read", json={"url": origin.url("/article")})
    assert r.status_code == 200 and r.json()["title"] == "The Local Story"
    before = len(origin.requests)
    r = client.post("/read", json={"html": ARTICLE.decode(), "url": "https://example.com/news/story"},
                    headers={"Accept": "text/markdown"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/markdown")
    assert "[the other page](https://example.com/elsewhere)" in r.text
    assert len(origin.requests) == before  # given HTML: nothing fetched
    r = client.post("/read", json={"html": ARTICLE.decode(), "format": "html"})
    assert r.status_code == 200 and "<h1 id=\"the-local-story\">" in r.text
    r = client.post("/read?format=text", json={"html": ARTICLE.decode()})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    # an option in the query string of a POST is refused, not ignored (options go in the body)
    for query in ("?extractor=nope&format=json", "?max_tokens=2000", "?summary=true"):
        r = client.post("/read" + query, json={"html": ARTICLE.decode()})
        assert r.status_code == 400, query
        assert r.json()["error"]["code"] == "bad_request" and "JSON body" in r.json()["error"]["message"]


def test_options_links_images_and_explain(client, origin) -> None:
    url = origin.url("/article")
    md = client.get("/read", params={"url": url, "format": "markdown"}).text
    assert "](http" in md and "![A picture]" in md
    md = client.get("/read", params={"url": url, "format": "markdown", "include_links": "false",
                                     "include_images": "false"}).text
    assert "](http" not in md and "![" not in md and "the other page" in md
    d = client.post("/read", json={"url": url, "explain": True}).json()
    assert d["removed"] and d["trace"]
    figure = ("<html><body><article><p>" + "A long enough paragraph of the story, with words and commas. " * 8
              + "</p><figure><img src='/a.jpg' alt='x'><figcaption>The caption line.</figcaption></figure>"
              + "</article></body></html>")
    kept = client.post("/read?format=text", json={"html": figure}).text
    dropped = client.post("/read?format=text", json={"html": figure, "include_captions": False}).text
    assert "The caption line." in kept and "The caption line." not in dropped and "of the story" in dropped


def test_unknown_extractor_is_a_usage_error(client, origin) -> None:
    r = client.get("/read", params={"url": origin.url("/article"), "extractor": "nope"})
    assert r.status_code == 400 and error_of(r)["code"] == "usage"


def test_jina_style_path_returns_markdown(client, origin) -> None:
    target = origin.url("/article?edition=3")
    r = client.get("/" + target)
    assert r.status_code == 200 and r.headers["content-type"] == "text/markdown; charset=utf-8"
    assert r.text.startswith("# The Local Story")
    assert origin.requests[-1][1] == "/article?edition=3"  # the query string belongs to the page
    r = client.get("/" + target.replace("http://", "http:/"), headers={"Accept": "application/json"})
    assert r.status_code == 200 and r.json()["title"] == "The Local Story"
    # Jina Reader's X-Return-Format header, over Accept
    r = client.get("/" + target, headers={"X-Return-Format": "text", "Accept": "application/json"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain") and not r.text.startswith("#")
    r = client.get("/" + target, headers={"X-Return-Format": "screenshot"})
    assert r.status_code == 400 and "X-Return-Format" in error_of(r)["message"]


def test_target_and_remove_selectors_in_headers_and_body(client, origin) -> None:
    target = origin.url("/article")
    # Jina Reader's X-Target-Selector / X-Remove-Selector headers
    r = client.get("/" + target, headers={"X-Target-Selector": "nav, footer", "X-Remove-Selector": "a[href='/about']"})
    assert r.status_code == 200, r.text
    assert "Home" in r.text and "Copyright footer text" in r.text and "About us" not in r.text
    assert "Opening 0" not in r.text and r.text.startswith("# The Local Story")  # (the title from <head>)
    r = client.get("/" + target, headers={"X-Target-Selector": "table.none"})
    assert r.status_code == 422 and error_of(r)["code"] == "target_not_found"
    r = client.get("/" + target, headers={"X-Target-Selector": "p:nope("})
    assert r.status_code == 400 and error_of(r)["code"] == "usage"
    # a selector's non-ASCII characters travel in the header as UTF-8
    r = client.get("/" + target, headers={"X-Target-Selector": ".日本".encode()})
    assert r.status_code == 422 and "'.日本'" in error_of(r)["message"]
    r = client.post("/read", json={"html": "<html><body><div id=root>Loading...</div></body></html>",
                                   "min_confidence": 0.5})
    assert r.status_code == 422 and error_of(r)["code"] == "low_confidence"
    r = client.post("/read?format=text", json={"html": ARTICLE.decode(), "target_selector": "h2 ~ p",
                                               "remove_selector": "img"})
    assert r.status_code == 200 and "First 0" in r.text and "Opening 0" not in r.text and "picture" not in r.text


def test_a_jina_path_without_a_scheme_is_https_and_file_names_are_not_hosts(client) -> None:
    for path in ("/favicon.ico", "/robots.txt", "/apple-touch-icon.png", "/no-dot", "/a..b/x"):
        r = client.get(path)
        assert r.status_code == 404 and error_of(r)["code"] == "not_found", path
    # a host name: read as https://example.test/page, which this service's policy refuses by
    # its port before any name is resolved (no traffic leaves the machine)
    r = client.get("/example.test/page")
    assert r.status_code == 400 and "443" in error_of(r)["message"], r.text


def test_unknown_path_and_method_are_json_errors(client) -> None:
    r = client.get("/no-such-thing")
    assert r.status_code == 404 and error_of(r)["code"] == "not_found"
    r = client.delete("/read")
    assert r.status_code == 405 and error_of(r)["code"] == "method_not_allowed"


def test_healthz(client) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200
    d = r.json()
    assert d["status"] == "ok" and d["version"] == unclutter.__version__ and d["jobs_running_max"] >= 1


def test_negotiate_accept_headers() -> None:
    assert negotiate(None, "json") == "json"
    assert negotiate("*/*", "markdown") == "markdown"
    assert negotiate("text/markdown", "json") == "markdown"
    assert negotiate("text/html;q=0.5, text/markdown;q=0.9", "json") == "markdown"
    assert negotiate("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "json") == "html"
    assert negotiate("application/json;q=0, text/plain", "json") == "text"
    assert negotiate("image/png", "json") == "json"


# --- errors -----------------------------------------------------------------------------------


def test_default_policy_refuses_private_addresses_with_400_and_no_traffic(origin) -> None:
    with TestClient(create_app(ServerConfig(max_jobs=JOBS))) as c:
        for url, code in [(origin.url("/article"), "blocked_address"), ("http://10.1.2.3/", "blocked_address"),
                          ("http://169.254.169.254/latest/meta-data/", "blocked_address"),
                          ("file:///etc/passwd", "blocked_scheme")]:
            before = len(origin.requests)
            r = c.get("/read", params={"url": url})
            assert r.status_code == 400, (url, r.text)
            assert error_of(r)["code"] == code
            assert len(origin.requests) == before
        r = c.get("/" + origin.url("/article"))
        assert r.status_code == 400 and error_of(r)["code"] == "blocked_address"


@pytest.mark.parametrize("request_kwargs", [
    {"method": "GET", "url": "/read"},                                          # url missing
    {"method": "GET", "url": "/read?url=http://x/&format=pdf"},                 # bad format
    {"method": "GET", "url": "/read?url=http://x/&colour=red"},                 # unknown option
    {"method": "POST", "url": "/read", "json": {}},                             # neither url nor html
    {"method": "POST", "url": "/read", "json": {"url": "http://x/", "bogus": 1}},
    {"method": "POST", "url": "/read", "content": b"{not json", "headers": {"Content-Type": "application/json"}},
    {"method": "POST", "url": "/read", "json": {"html": 42}},
])
def test_malformed_requests_are_400(client, request_kwargs) -> None:
    r = client.request(**request_kwargs)
    assert r.status_code == 400, r.text
    err = error_of(r)
    assert err["code"] == "bad_request" and err["message"].startswith("malformed request")


@pytest.mark.parametrize("request_kwargs,status", [
    ({"content": b"<html><body><p>raw page</p></body></html>", "headers": {"Content-Type": "text/html"}}, 415),
    ({"json": ["http://x/"]}, 400),
    ({"content": b"url=http://x/", "headers": {"Content-Type": "application/x-www-form-urlencoded"}}, 415),
])
def test_a_body_that_is_not_a_json_object_says_what_read_takes(client, request_kwargs, status) -> None:
    # a JSON body of the wrong shape is malformed (400); another media type is 415
    r = client.post("/read", **request_kwargs)
    assert r.status_code == status, r.text
    err = error_of(r)
    assert err["code"] == ("bad_request" if status == 400 else "unsupported_media_type"), err
    assert '{"html": ..., "url": ...}' in err["message"], err
    assert "Input should be" not in err["message"]  # no validation library wording


def test_status_mapping_of_fetch_and_content_errors(client, origin) -> None:
    cases = [("/pdf", 415, "unsupported_content"), ("/empty", 422, "no_content"),
             ("/broken", 502, "http_status"), ("/big", 413, "too_large")]
    for path, status, code in cases:
        r = client.get("/read", params={"url": origin.url(path)})
        assert r.status_code == status, (path, r.text)
        assert error_of(r)["code"] == code


def test_given_html_errors(client) -> None:
    r = client.post("/read", json={"html": NO_CONTENT.decode()})
    assert r.status_code == 422 and error_of(r)["code"] == "no_content"
    r = client.post("/read", json={"html": "%PDF-1.7 binary"})
    assert r.status_code == 415 and error_of(r)["code"] == "binary_input"


def test_fetch_deadline_is_504(client, origin) -> None:
    start = time.monotonic()
    r = client.get("/read", params={"url": origin.url("/slow")})
    assert r.status_code == 504 and error_of(r)["code"] == "fetch_timeout"
    assert time.monotonic() - start < 5


def test_origin_connection_failure_is_502(origin) -> None:
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    policy = fetch_servers.FetchPolicy(allow_addresses=frozenset({"127.0.0.1"}), allowed_ports=frozenset({port}))
    with TestClient(create_app(ServerConfig(fetch_policy=policy, max_jobs=JOBS))) as c:
        r = c.get("/read", params={"url": f"http://127.0.0.1:{port}/"})
    assert r.status_code == 502 and error_of(r)["code"] == "fetch_failed"


def test_body_cap_is_413_for_json_and_for_the_form() -> None:
    with TestClient(create_app(ServerConfig(max_body_bytes=2000, max_jobs=JOBS))) as c:
        r = c.post("/read", json={"html": "<p>" + "x" * 5000 + "</p>"})
        assert r.status_code == 413 and error_of(r)["code"] == "body_too_large"
        r = c.post("/view", files={"html": (None, "<p>" + "x" * 5000 + "</p>")})
        assert r.status_code == 413 and r.headers["content-type"].startswith("text/html")
        assert "body_too_large" in r.text
        chunked = iter([b'{"html": "' + b"x" * 1500, b"y" * 1500 + b'"}'])  # no Content-Length
        r = c.post("/read", content=chunked, headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and error_of(r)["code"] == "body_too_large"
        r = c.post("/read", json={"html": ARTICLE.decode()[:1500]})
        assert r.status_code == 200  # under the cap


# (unexpected errors, the bounded pool of worker processes and its deadline:
# tests/test_server_workers.py)


# --- API key and rate limit ---------------------------------------------------------------------


def test_api_key(origin) -> None:
    config = ServerConfig(fetch_policy=fetch_servers.local_policy(origin), api_key="s3cret-key", max_jobs=JOBS)
    with TestClient(create_app(config)) as c:
        url = origin.url("/article")
        r = c.get("/read", params={"url": url})
        assert r.status_code == 401 and error_of(r)["code"] == "unauthorized"
        assert c.get("/read", params={"url": url}, headers={"X-API-Key": "wrong"}).status_code == 401
        assert c.get("/read", params={"url": url}, headers={"X-API-Key": "s3cret-key"}).status_code == 200
        assert c.get("/read", params={"url": url}, headers={"Authorization": "Bearer s3cret-key"}).status_code == 200
        assert c.get("/" + url).status_code == 401
        assert c.post("/read", json={"url": url}).status_code == 401
        assert c.get("/healthz").status_code == 200 and c.get("/openapi.json").status_code == 200
        page = c.get("/")
        assert page.status_code == 200 and 'name="api_key"' in page.text
        r = c.post("/view", data={"url": url})
        assert r.status_code == 401 and "unauthorized" in r.text
        r = c.post("/view", data={"url": url, "api_key": "s3cret-key"})
        assert r.status_code == 200 and "The Local Story" in r.text
        spec = c.get("/openapi.json").json()
        assert "401" in spec["paths"]["/read"]["get"]["responses"]
        assert any(s.get("name") == "X-API-Key" for s in spec["components"]["securitySchemes"].values())


def test_no_api_key_by_default(client) -> None:
    assert 'name="api_key"' not in client.get("/").text
    assert "401" not in client.get("/openapi.json").json()["paths"]["/read"]["get"]["responses"]


def test_rate_limit_per_client(origin) -> None:
    config = ServerConfig(fetch_policy=fetch_servers.local_policy(origin), rate_limit="2/minute", max_jobs=JOBS)
    with TestClient(create_app(config)) as c:
        body = {"html": ARTICLE.decode()}
        assert [c.post("/read", json=body).status_code for _ in range(2)] == [200, 200]
        r = c.post("/read", json=body)
        assert r.status_code == 429 and error_of(r)["code"] == "rate_limited"
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert c.get("/healthz").status_code == 200  # not limited
    with pytest.raises(ValueError):
        ServerConfig(rate_limit="lots")


# --- options from other stages ----------------------------------------------------------------------


def test_summary_option_passes_through_only_when_extract_accepts_it(client) -> None:
    r = client.post("/read", json={"html": ARTICLE.decode(), "summary": True})
    if "summary" in server_app.accepted_options():
        assert r.status_code == 200
        d = r.json()
        assert d["summary"] and any(entry.get("summary") for entry in d["toc"])
        # Markdown and text carry the summary block the CLI prints (unclutter --summary)
        md = client.post("/read", json={"html": ARTICLE.decode(), "summary": True, "format": "markdown"}).text
        assert md.startswith(f"> **Summary** (extractive): {d['summary']}")
        text = client.post("/read", json={"html": ARTICLE.decode(), "summary": True, "format": "text"}).text
        assert text.startswith(f"Summary: {d['summary']}")
        plain = client.post("/read", json={"html": ARTICLE.decode(), "format": "markdown"}).text
        assert not plain.startswith(">")
    else:
        assert r.status_code == 400 and error_of(r)["code"] == "unsupported_option"
    # (that an option reaches extract unchanged: tests/test_server_workers.py)


def test_only_enabled_summary_backends_may_be_chosen(client) -> None:
    r = client.post("/read", json={"html": ARTICLE.decode(), "summary": True, "summary_backend": "openai"})
    assert r.status_code == 400 and error_of(r)["code"] == "unsupported_option"
    assert "not enabled" in error_of(r)["message"]


def test_max_tokens_gives_chunks_when_chunking_exists(client) -> None:
    r = client.post("/read", json={"html": ARTICLE.decode(), "max_tokens": 60})
    if not hasattr(unclutter, "chunk"):
        assert r.status_code == 400 and error_of(r)["code"] == "unsupported_option"
        return
    assert r.status_code == 200
    chunks = r.json()["chunks"]
    assert len(chunks) > 1 and all(c["tokens"] <= 60 for c in chunks)
    r = client.post("/read", json={"html": ARTICLE.decode(), "max_tokens": 60, "format": "markdown"})
    assert r.status_code == 400 and error_of(r)["code"] == "bad_request"
    # budgets written as the CLI's --chunks takes them; a bad one is refused before extraction
    r = client.post("/read", json={"html": ARTICLE.decode(), "max_tokens": "4k"})
    assert r.status_code == 200 and len(r.json()["chunks"]) == 1
    for bad in (0, -5, "-5", "lots"):
        r = client.post("/read", json={"html": ARTICLE.decode(), "max_tokens": bad})
        assert r.status_code == 400 and error_of(r)["code"] == "bad_request", bad


# --- reader page -----------------------------------------------------------------------------------


def test_index_page_is_a_form_without_scripts(client) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["content-security-policy"] == PAGE_CSP
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
    page = r.text
    assert '<form class="ask" method="post" action="/view"' in page
    assert 'name="url"' in page and '<textarea id="html" name="html"' in page
    assert "<script" not in page.lower() and 'name="viewport"' in page
    # every asset the page loads is served from here
    for ref in re.findall(r'(?:href|src)="([^"]+)"', page):
        assert ref.startswith("/"), ref


def test_stylesheets_ship_in_the_package(client) -> None:
    for path in ("/static/reader.css", "/static/page.css"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")
        assert "http:" not in r.text and "https:" not in r.text and "@import" not in r.text
    css = client.get("/static/reader.css").text + client.get("/static/page.css").text
    assert "prefers-color-scheme: dark" in css and "@media print" in css and "max-width: 100%" in css
    assert "@media (max-width: 30rem)" in css


def test_view_form_with_url_with_pasted_html_and_errors(client, origin) -> None:
    r = client.post("/view", data={"url": origin.url("/article")})
    assert r.status_code == 200 and r.headers["content-security-policy"] == PAGE_CSP
    assert '<h1 id="the-local-story">The Local Story</h1>' in r.text
    r = client.post("/view", files={"html": (None, ARTICLE.decode()), "url": (None, "https://example.com/n/")})
    assert r.status_code == 200 and 'href="https://example.com/elsewhere"' in r.text
    r = client.post("/view", data={"html": ARTICLE.decode(), "no_images": "true"})
    assert r.status_code == 200 and "<img" not in r.text
    r = client.post("/view", data={"url": "  "})
    assert r.status_code == 400 and "give a URL or paste" in r.text
    r = client.post("/view", data={"url": origin.url("/empty")})
    assert r.status_code == 422 and "no_content" in r.text and "no main content" in r.text
    assert f'value="{origin.url("/empty")}"' in r.text  # the form comes back filled in
    assert "<script" not in r.text.lower()


def test_reader_page_escapes_everything_but_our_markdown(client) -> None:
    hostile = (
        "<html><head><title>Title &lt;b&gt;bold&lt;/b&gt;</title></head><body><article><h1>Title</h1>"
        + PARA.format("One") * 3
        + "<p>Literal &lt;img src=x onerror=alert(1)&gt; text and "
          "<a href='javascript:alert(1)'>a js link</a>.</p><script>alert(2)</script></article></body></html>"
    )
    r = client.post("/read", json={"html": hostile, "format": "html"})
    assert r.status_code == 200
    page = r.text
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "javascript:" not in page and "alert(2)" not in page and "<script" not in page.lower()
    assert "<b>bold</b>" not in page


def test_reader_page_without_summaries_has_no_summary_section(client) -> None:
    r = client.post("/view", data={"html": ARTICLE.decode()})
    if getattr(unclutter.extract(ARTICLE), "summary", None) is None:
        assert 'class="summary"' not in r.text and "toc-summary" not in r.text


# --- OpenAPI ---------------------------------------------------------------------------------------


def test_openapi_describes_every_endpoint_and_error(client) -> None:
    r = client.get("/openapi.json")
    assert r.status_code == 200
    spec = r.json()
    paths = spec["paths"]
    assert {"/read", "/healthz", "/", "/view", "/{target}"} <= set(paths)
    assert client.get("/docs").status_code == 404  # no CDN-loaded docs page
    error_ref = "#/components/schemas/ErrorResponse"
    for path, method in [("/read", "get"), ("/read", "post"), ("/{target}", "get")]:
        responses = paths[path][method]["responses"]
        for status in ("400", "413", "415", "422", "500", "502", "503", "504"):
            assert status in responses, (path, method, status)
            assert responses[status]["content"]["application/json"]["schema"]["$ref"] == error_ref
            assert "Codes:" in responses[status]["description"]
        assert {"application/json", "text/markdown", "text/html"} <= set(responses["200"]["content"])
    assert "blocked_address" in paths["/read"]["get"]["responses"]["400"]["description"]
    assert "no_content" in paths["/read"]["get"]["responses"]["422"]["description"]
    assert "fetch_timeout" in paths["/read"]["get"]["responses"]["504"]["description"]
    body_schema = paths["/read"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body_schema["$ref"].endswith("/ReadBody")
    assert {"url", "html", "format"} <= set(spec["components"]["schemas"]["ReadBody"]["properties"])


# --- command line -------------------------------------------------------------------------------------


def test_serve_without_the_server_extra_says_how_to_install(monkeypatch, capsys) -> None:
    import sys

    from unclutter import cli

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert cli.main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install 'unclutter[server]'" in err[0]


def test_unclutter_serve_runs_uvicorn_on_loopback(origin) -> None:
    import httpx
    from serve_process import served

    with served("--allow-address", "127.0.0.1", "--allow-port", str(origin.port)) as base:
        r = httpx.get(base + "/read", params={"url": origin.url("/article")}, timeout=10)
        assert r.status_code == 200 and r.json()["title"] == "The Local Story"
        r = httpx.get(base + "/" + origin.url("/article"), timeout=10)
        assert r.status_code == 200 and r.text.startswith("# The Local Story")
        assert "server" not in r.headers  # no server banner


def test_reader_font_is_served_from_the_package_and_allowed_by_the_csp():
    from fastapi.testclient import TestClient

    from unclutter.server import create_app

    client = TestClient(create_app())
    font = client.get("/static/fonts/SourceSerifPro-Regular.ttf")
    assert font.status_code == 200 and font.headers["content-type"] == "font/ttf"
    assert font.content[:4] in (b"\x00\x01\x00\x00", b"true", b"OTTO")  # a TrueType/OpenType file
    assert client.get("/static/fonts/../../etc/passwd").status_code == 404
    assert client.get("/static/fonts/LICENSE.txt").status_code == 404
    css = client.get("/static/page.css").text
    assert "@font-face" in css and "fonts/SourceSerifPro-Regular.ttf" in css
    page = client.get("/")
    assert "font-src 'self'" in page.headers["content-security-policy"]


def test_serve_refuses_a_bad_allowed_address_with_a_usage_error():
    import subprocess
    import sys

    for args, words in ((["--allow-address", "10.0.0.0/8"], "single IP addresses"),
                        (["--allow-port", "0"], "--allow-port")):
        proc = subprocess.run([sys.executable, "-m", "unclutter", "serve", *args], capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 2, proc.stderr
        assert words in proc.stderr and "Traceback" not in proc.stderr


def test_read_searches_the_date_unless_told_not_to(client) -> None:
    story = "<p>" + "Words of a dated story, with commas, and more words. " * 20 + "</p>"
    html = f"<html><body><article><h1>A story</h1>{story}</article></body></html>"
    url = "https://example.com/2016/02/09/a-story"
    r = client.post("/read", json={"html": html, "url": url})
    assert r.status_code == 200 and r.json()["date_published"] == "2016-02-09"
    r = client.post("/read", json={"html": html, "url": url, "search_date": False})
    assert r.status_code == 200 and r.json()["date_published"] is None


def test_read_takes_the_styles_mode(client) -> None:
    story = "<p>" + "Words of a story, with commas, and more words. " * 20 + "</p>"
    html = (f"<html><head><style>.x{{display:none}}</style></head><body><article><h1>A story</h1>{story}"
            f"<p class='x'>Hidden by a rule</p>{story}</article></body></html>")
    r = client.post("/read", json={"html": html, "format": "text"})
    assert r.status_code == 200 and "Hidden by a rule" not in r.text
    r = client.post("/read", json={"html": html, "format": "text", "styles": "inline"})
    assert r.status_code == 200 and "Hidden by a rule" in r.text
    r = client.post("/read", json={"html": html, "styles": "none"})
    assert r.status_code == 400 and "styles" in r.text
