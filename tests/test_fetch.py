"""The fetch stage against real HTTP servers on 127.0.0.1 (started and stopped here).

Policies allow exactly 127.0.0.1 and exactly the test servers' ports. A guard makes
every connection attempt to anything but loopback fail, and records all attempts.
"""

from __future__ import annotations

import gzip
import socket
import time
import zlib

import pytest

from unclutter.core.errors import (
    BlockedAddressError,
    BlockedSchemeError,
    FetchError,
    FetchTimeoutError,
    HTTPStatusError,
    TooLargeError,
    TooManyRedirectsError,
    UnsupportedContentError,
)
from unclutter.fetch import FetchPolicy, fetch
from unclutter.fetch.decoding import BROTLI_AVAILABLE, make_decoder
from unclutter.fetch.policy import DECODE_CHUNK_BYTES

try:
    from . import fetch_servers  # type: ignore[no-redef]
except ImportError:
    import fetch_servers  # type: ignore[no-redef]

LocalServer = fetch_servers.LocalServer
drip = fetch_servers.drip
endless = fetch_servers.endless
local_policy = fetch_servers.local_policy
page = fetch_servers.page
redirect = fetch_servers.redirect

HTML = b"<!doctype html><html><head><title>Hello</title></head><body><p>Hello, world.</p></body></html>"
BOMB_BYTES = 48 * 2**20  # decoded size of the compression bombs (far over 15 MB)


@pytest.fixture(autouse=True)
def connections():
    with fetch_servers.guard_connections() as attempts:
        yield attempts


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch):
    table: dict[str, list] = {}
    fake = fetch_servers.FakeDNS(table)
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return fake


@pytest.fixture(scope="module")
def gzip_bomb() -> bytes:
    return zlib.compress(b" " * BOMB_BYTES, 9, wbits=31)


def one_line(exc: pytest.ExceptionInfo) -> str:
    message = str(exc.value)
    assert message and "\n" not in message and "Traceback" not in message
    return message


# -- normal pages -------------------------------------------------------------------------


def test_fetches_a_normal_page() -> None:
    with LocalServer({"/article": page(HTML, "text/html; charset=ISO-8859-1", headers=[("X-Test", "1")])}) as srv:
        result = fetch(srv.url("/article"), local_policy(srv))
        method, path, headers = srv.requests[0]
    assert result.status == 200
    assert result.content == HTML
    assert result.content_type == "text/html"
    assert result.charset == "iso-8859-1"
    assert result.url == result.final_url == srv.url("/article")
    assert result.headers["x-test"] == "1"
    assert result.from_cache is False
    assert (method, path) == ("GET", "/article")
    assert headers["User-Agent"] == FetchPolicy().user_agent
    assert "gzip" in headers["Accept-Encoding"]
    assert "text/html" in headers["Accept"]


def test_charset_is_none_without_header_parameter_and_xhtml_is_accepted() -> None:
    routes = {
        "/plain": page(HTML, "text/html"),
        "/xhtml": page(HTML, "application/xhtml+xml; charset=UTF-8"),
        "/quoted": page(HTML, 'text/html; charset="windows-1252"'),
    }
    with LocalServer(routes) as srv:
        policy = local_policy(srv)
        plain, xhtml, quoted = (fetch(srv.url(p), policy) for p in ("/plain", "/xhtml", "/quoted"))
    assert plain.charset is None and plain.content_type == "text/html"
    assert xhtml.charset == "utf-8" and xhtml.content_type == "application/xhtml+xml"
    assert quoted.charset == "windows-1252"


def test_user_agent_is_configurable() -> None:
    with LocalServer({"/": page(HTML)}) as srv:
        fetch(srv.url("/"), local_policy(srv, user_agent="ExampleBot/2.0"))
        assert srv.requests[0][2]["User-Agent"] == "ExampleBot/2.0"


def test_loopback_is_refused_under_the_default_policy(connections) -> None:
    with LocalServer({"/": page(HTML)}) as srv:
        with pytest.raises(BlockedAddressError) as caught:
            fetch(srv.url("/"))
        assert srv.requests == []
    assert "127.0.0.1 is a loopback address" in one_line(caught)
    assert connections == []


def test_other_loopback_addresses_stay_refused_when_127_0_0_1_is_allowed() -> None:
    with LocalServer({"/": page(HTML)}) as srv:
        for host in ("127.0.0.2", "[::ffff:127.0.0.1]", "[::1]"):
            with pytest.raises(BlockedAddressError):
                fetch(srv.url("/", host=host), local_policy(srv))
        assert srv.requests == []


@pytest.mark.parametrize("coding", ["gzip", "deflate", "raw-deflate", "br", "gzip, gzip"])
def test_content_encodings_are_decoded(coding: str) -> None:
    if coding == "br" and not BROTLI_AVAILABLE:
        pytest.skip("brotli not installed")
    body = HTML * 50
    if coding == "gzip":
        encoded = gzip.compress(body)
    elif coding == "deflate":
        encoded = zlib.compress(body)
    elif coding == "raw-deflate":
        packer = zlib.compressobj(wbits=-15)
        encoded, coding = packer.compress(body) + packer.flush(), "deflate"
    elif coding == "br":
        import brotli

        encoded = brotli.compress(body)
    else:
        encoded = gzip.compress(gzip.compress(body))
    with LocalServer({"/": page(encoded, "text/html", headers=[("Content-Encoding", coding)])}) as srv:
        assert fetch(srv.url("/"), local_policy(srv)).content == body


def test_too_many_stacked_encodings_are_refused() -> None:
    encoded = gzip.compress(gzip.compress(gzip.compress(HTML)))
    with LocalServer({"/": page(encoded, "text/html", headers=[("Content-Encoding", "gzip, gzip, gzip")])}) as srv:
        with pytest.raises(UnsupportedContentError) as caught:
            fetch(srv.url("/"), local_policy(srv))
    assert "3 stacked Content-Encodings" in one_line(caught)


def test_unknown_encoding_is_refused() -> None:
    with LocalServer({"/": page(HTML, "text/html", headers=[("Content-Encoding", "compress")])}) as srv:
        with pytest.raises(UnsupportedContentError, match="'compress'"):
            fetch(srv.url("/"), local_policy(srv))


# -- size limits ------------------------------------------------------------------------------


def test_oversized_plain_body_is_refused_and_the_connection_dropped() -> None:
    with LocalServer({"/big": endless("text/html", "big")}) as srv:
        started = time.monotonic()
        with pytest.raises(TooLargeError) as caught:
            fetch(srv.url("/big"), local_policy(srv))  # default 15 MB ceiling
        elapsed = time.monotonic() - started
        deadline = time.monotonic() + 5
        while "/big" not in srv.disconnects and time.monotonic() < deadline:
            time.sleep(0.02)
        sent = srv.sent["big"]
    assert "over 15000000 bytes" in one_line(caught)
    assert elapsed < 5
    # The server saw the client hang up long before its 64 MiB were sent.
    assert "/big" in srv.disconnects
    assert sent < 40 * 2**20


def test_announced_oversized_body_is_refused_before_reading() -> None:
    def route(h: fetch_servers.Handler) -> None:
        h.head(200, [("Content-Type", "text/html"), ("Content-Length", str(20_000_000))])
        h.wfile.write(b"<p>")
        h.wfile.flush()
        time.sleep(3)  # would hit the deadline if the fetcher waited for the body

    with LocalServer({"/": route}) as srv:
        started = time.monotonic()
        with pytest.raises(TooLargeError, match="announces 20000000 bytes"):
            fetch(srv.url("/"), local_policy(srv, deadline=2.0))
        assert time.monotonic() - started < 1.5


def test_small_ceiling_is_honoured() -> None:
    with LocalServer({"/": page(b"<p>" + b"a" * 5000, length=False)}) as srv:
        policy = local_policy(srv, max_bytes=4096)
        with pytest.raises(TooLargeError):
            fetch(srv.url("/"), policy)
        assert len(fetch(srv.url("/"), local_policy(srv, max_bytes=5003)).content) == 5003


def test_gzip_bomb_is_refused_on_decoded_size(gzip_bomb: bytes) -> None:
    headers = [("Content-Encoding", "gzip")]
    with LocalServer({"/": page(gzip_bomb, "text/html", headers=headers)}) as srv:
        with pytest.raises(TooLargeError) as caught:
            fetch(srv.url("/"), local_policy(srv))
    assert len(gzip_bomb) < 100_000  # tiny on the wire...
    assert "once decoded (gzip)" in one_line(caught)  # ...refused on what it decodes to


def test_stacked_gzip_bomb_is_refused(gzip_bomb: bytes) -> None:
    double = gzip.compress(gzip_bomb)
    with LocalServer({"/": page(double, "text/html", headers=[("Content-Encoding", "gzip, gzip")])}) as srv:
        with pytest.raises(TooLargeError, match="once decoded"):
            fetch(srv.url("/"), local_policy(srv))


@pytest.mark.skipif(not BROTLI_AVAILABLE, reason="brotli not installed")
def test_brotli_bomb_is_refused() -> None:
    import brotli

    bomb = brotli.compress(b" " * BOMB_BYTES, quality=5)
    with LocalServer({"/": page(bomb, "text/html", headers=[("Content-Encoding", "br")])}) as srv:
        with pytest.raises(TooLargeError, match="once decoded"):
            fetch(srv.url("/"), local_policy(srv))
    assert len(bomb) < 10_000


def test_decoders_yield_bounded_pieces(gzip_bomb: bytes) -> None:
    # One received chunk holding the whole bomb must not be decoded in one go.
    decoder = make_decoder(["gzip"], 2, "test")
    pieces = decoder.feed(gzip_bomb)
    first = [next(pieces) for _ in range(5)]
    assert all(0 < len(p) <= DECODE_CHUNK_BYTES for p in first)
    if BROTLI_AVAILABLE:
        import brotli

        br_pieces = make_decoder(["br"], 2, "test").feed(brotli.compress(b" " * BOMB_BYTES, quality=5))
        assert all(0 < len(next(br_pieces)) <= 2 * DECODE_CHUNK_BYTES for _ in range(5))


def test_oversized_headers_are_refused() -> None:
    big = [("X-Filler", "y" * 1000) for _ in range(5)]
    with LocalServer({"/": page(HTML, headers=big)}) as srv:
        with pytest.raises(FetchError, match="over the 2048-byte limit"):
            fetch(srv.url("/"), local_policy(srv, max_header_bytes=2048))
        assert fetch(srv.url("/"), local_policy(srv)).content == HTML  # default cap: fine


def test_huge_header_block_is_refused_by_the_client_library() -> None:
    huge = [("X-Filler", "z" * 8000) for _ in range(30)]  # 240 KB, over httpcore's 100 KiB
    with LocalServer({"/": page(HTML, headers=huge)}) as srv:
        with pytest.raises(FetchError) as caught:
            fetch(srv.url("/"), local_policy(srv))
    one_line(caught)


# -- time limits -------------------------------------------------------------------------------


def test_slow_drip_is_cut_by_the_total_deadline() -> None:
    with LocalServer({"/": drip(0.05, "drip")}) as srv:
        started = time.monotonic()
        with pytest.raises(FetchTimeoutError) as caught:
            fetch(srv.url("/"), local_policy(srv, deadline=0.8, read_timeout=5))
        elapsed = time.monotonic() - started
    assert "total deadline of 0.8 s" in one_line(caught)
    assert 0.7 < elapsed < 1.6  # each byte arrived well within the read timeout


def test_deadline_spans_redirects() -> None:
    def slow_redirect(h: fetch_servers.Handler) -> None:
        time.sleep(0.5)
        redirect("/slow-page")(h)

    def slow_page(h: fetch_servers.Handler) -> None:
        time.sleep(0.5)
        page(HTML)(h)

    routes = {"/": slow_redirect, "/slow-page": slow_page}
    with LocalServer(routes) as srv:
        assert fetch(srv.url("/"), local_policy(srv, deadline=3)).content == HTML
        with pytest.raises(FetchTimeoutError, match="total deadline"):
            fetch(srv.url("/"), local_policy(srv, deadline=0.8, read_timeout=5))


def test_read_timeout() -> None:
    with LocalServer({"/": drip(0.01, "late", before_headers=1.5)}) as srv:
        started = time.monotonic()
        with pytest.raises(FetchTimeoutError) as caught:
            fetch(srv.url("/"), local_policy(srv, read_timeout=0.3, deadline=10))
        elapsed = time.monotonic() - started
    assert "read timeout" in one_line(caught)
    assert elapsed < 1.2


# -- redirects ------------------------------------------------------------------------------


def chain(n: int) -> dict:
    routes = {f"/hop{i}": redirect(f"/hop{i + 1}") for i in range(n)}
    routes[f"/hop{n}"] = page(HTML)
    return routes


def test_three_redirects_are_followed() -> None:
    with LocalServer(chain(3)) as srv:
        result = fetch(srv.url("/hop0"), local_policy(srv))
        assert srv.paths() == ["/hop0", "/hop1", "/hop2", "/hop3"]
    assert result.final_url == srv.url("/hop3")
    assert result.url == srv.url("/hop0")
    assert result.content == HTML


def test_four_redirects_are_refused() -> None:
    with LocalServer(chain(4)) as srv:
        with pytest.raises(TooManyRedirectsError) as caught:
            fetch(srv.url("/hop0"), local_policy(srv))
        assert srv.paths() == ["/hop0", "/hop1", "/hop2", "/hop3"]  # the 4th is not followed
    assert "more than 3 redirects" in one_line(caught)


def test_redirect_limit_is_configurable() -> None:
    with LocalServer(chain(1)) as srv:
        with pytest.raises(TooManyRedirectsError):
            fetch(srv.url("/hop0"), local_policy(srv, max_redirects=0))


def test_redirect_loop_is_refused() -> None:
    with LocalServer({"/a": redirect("/b"), "/b": redirect("/a")}) as srv:
        with pytest.raises(TooManyRedirectsError):
            fetch(srv.url("/a"), local_policy(srv))
        assert len(srv.requests) == 4


@pytest.mark.parametrize(
    ("location", "error", "named"),
    [
        ("http://10.0.0.1/admin", BlockedAddressError, "10.0.0.1 is a private address"),
        ("http://169.254.169.254/latest/meta-data/", BlockedAddressError, "169.254.169.254 is a cloud metadata"),
        ("http://[::1]/", BlockedAddressError, "::1 is a loopback"),
        ("http://2130706434/", BlockedAddressError, "127.0.0.2 is a loopback"),  # decimal 127.0.0.2
        ("file:///etc/passwd", BlockedSchemeError, "'file'"),
        ("gopher://127.0.0.1:70/_payload", BlockedSchemeError, "'gopher'"),
        ("http://user:pw@127.0.0.1/", BlockedAddressError, "credentials"),
    ],
)
def test_redirect_to_refused_target(connections, location: str, error: type, named: str) -> None:
    with LocalServer({"/": redirect(location)}) as srv:
        with pytest.raises(error) as caught:
            fetch(srv.url("/"), local_policy(srv))
        assert srv.paths() == ["/"]
    message = one_line(caught)
    assert named in message and "redirect from" in message
    assert all(host == "127.0.0.1" for host, _port in connections)


def test_redirect_to_a_port_not_allowed_is_refused() -> None:
    with LocalServer({"/x": page(HTML)}) as other, LocalServer({"/": redirect(other.url("/x"))}) as srv:
        with pytest.raises(BlockedAddressError) as caught:
            fetch(srv.url("/"), local_policy(srv))  # only srv's port allowed
        assert other.requests == []
        assert fetch(srv.url("/"), local_policy(srv, other)).content == HTML
    assert f"port {other.port} is not allowed" in one_line(caught)


def test_redirect_bodies_are_never_decoded(gzip_bomb: bytes) -> None:
    routes = {
        "/bomb": redirect("/corrupt", body=gzip_bomb, headers=[("Content-Encoding", "gzip")]),
        "/corrupt": redirect("/page", status=301, body=b"not gzip at all", headers=[("Content-Encoding", "gzip")]),
        "/page": page(HTML),
    }
    with LocalServer(routes) as srv:
        started = time.monotonic()
        result = fetch(srv.url("/bomb"), local_policy(srv))
    assert result.content == HTML and result.final_url.endswith("/page")
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirect_statuses_and_relative_locations(status: int) -> None:
    with LocalServer({"/dir/start": redirect("../end?x=1", status=status), "/end": page(HTML)}) as srv:
        result = fetch(srv.url("/dir/start"), local_policy(srv))
    assert result.final_url == srv.url("/end?x=1")


def test_redirect_without_location_is_a_status_error() -> None:
    with LocalServer({"/": page(b"", status=302)}) as srv:
        with pytest.raises(HTTPStatusError, match="HTTP 302"):
            fetch(srv.url("/"), local_policy(srv))


# -- content types and statuses ---------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type", ["application/pdf", "image/png", "application/octet-stream", "text/plain", "application/json", None]
)
def test_non_html_is_refused_before_the_body_is_read(content_type: str | None) -> None:
    key = content_type or "none"

    def route(h: fetch_servers.Handler) -> None:
        h.head(200, [("Content-Type", content_type)] if content_type else [])
        h.stream((b"%PDF-1.7 " + b"\0" * 65526 for _ in range(512)), key)  # 32 MiB offered

    with LocalServer({"/doc": route}) as srv:
        with pytest.raises(UnsupportedContentError) as caught:
            fetch(srv.url("/doc"), local_policy(srv))
        deadline = time.monotonic() + 5
        while "/doc" not in srv.disconnects and time.monotonic() < deadline:
            time.sleep(0.02)
        assert "/doc" in srv.disconnects
        assert srv.sent[key] < 16 * 2**20
    message = one_line(caught)
    assert "is not HTML" in message and message.startswith("unsupported content:")  # exit 4, not a refusal (3)
    assert (repr(content_type) if content_type else "missing") in message


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" * 40, "PDF"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, "PNG"),
        (b"PK\x03\x04" + b"\x14\x00" * 600, "ZIP"),
        (bytes(range(256)) * 8, "binary data"),
        (b"\x7fELF\x02\x01\x01" + b"\0" * 100, "ELF"),  # short body: sniffed at the end
    ],
)
def test_binary_served_as_html_is_refused(body: bytes, kind: str) -> None:
    with LocalServer({"/": page(body, "text/html")}) as srv:
        with pytest.raises(UnsupportedContentError) as caught:
            fetch(srv.url("/"), local_policy(srv))
    assert f"content is {kind}" in one_line(caught)


def test_utf16_html_is_not_mistaken_for_binary() -> None:
    text = "<!doctype html><title>UTF-16</title><p>" + "déjà vu " * 200
    with LocalServer(
        {
            "/bom": page("\ufeff".encode("utf-16-le") + text.encode("utf-16-le"), "text/html"),
            "/declared": page(text.encode("utf-16-be"), "text/html; charset=UTF-16BE"),
        }
    ) as srv:
        policy = local_policy(srv)
        assert fetch(srv.url("/bom"), policy).content.startswith(b"\xff\xfe<\x00")
        assert fetch(srv.url("/declared"), policy).charset == "utf-16be"


@pytest.mark.parametrize("status", [404, 410, 500, 503])
def test_error_statuses_are_refused(status: int) -> None:
    with LocalServer({"/": page(HTML, status=status)}) as srv:
        with pytest.raises(HTTPStatusError) as caught:
            fetch(srv.url("/"), local_policy(srv))
    assert f"HTTP {status} from {srv.url('/')}" in one_line(caught)


# -- connections, DNS and rebinding ---------------------------------------------------------------


def test_connection_refused_names_the_address() -> None:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    port = holder.getsockname()[1]
    holder.close()  # nothing listens on this port now
    with pytest.raises(FetchError) as caught:
        policy = FetchPolicy(allow_addresses=frozenset({"127.0.0.1"}), allowed_ports=frozenset({port}))
        fetch(f"http://127.0.0.1:{port}/", policy)
    assert f"127.0.0.1 port {port}" in one_line(caught)
    assert "proxy" not in one_line(caught)
    # a dead proxy is named as the proxy
    with LocalServer({"/": page(HTML)}) as srv:
        with pytest.raises(FetchError) as caught:
            fetch(srv.url("/"), local_policy(srv, proxy=f"http://127.0.0.1:{port}",
                                              allowed_ports=frozenset({port, srv.port})))
    assert f"could not connect to the proxy 127.0.0.1 port {port}" in one_line(caught)


def test_unknown_name_fails_cleanly(dns) -> None:
    with pytest.raises(FetchError, match="could not resolve nowhere.test"):
        fetch("http://nowhere.test/", FetchPolicy())


def test_name_resolving_to_a_private_address_is_refused(dns, connections) -> None:
    dns.table["intranet.test"] = ["192.168.10.10"]
    with pytest.raises(BlockedAddressError) as caught:
        fetch("http://intranet.test/", FetchPolicy())
    assert "192.168.10.10 is a private address (RFC 1918) (intranet.test resolves to it)" in one_line(caught)
    assert connections == []


def test_name_with_one_private_address_among_public_ones_is_refused(dns, connections) -> None:
    dns.table["mixed.test"] = ["93.184.215.14", "10.9.8.7"]
    with pytest.raises(BlockedAddressError, match="10.9.8.7"):
        fetch("http://mixed.test/", FetchPolicy())
    assert connections == []


def test_connects_to_the_address_it_checked(dns, connections) -> None:
    # First answer allowed (127.0.0.1 under the test policy), every later answer private:
    # a second lookup at connect time would reach 10.0.0.1.
    with LocalServer({"/": page(HTML)}) as srv:
        dns.table["rebind.test"] = [["127.0.0.1"], ["10.0.0.1"]]
        result = fetch(srv.url("/", host="rebind.test"), local_policy(srv))
        assert srv.requests[0][2]["Host"] == f"rebind.test:{srv.port}"
    assert result.content == HTML
    assert dns.lookups == ["rebind.test"]
    assert connections == [("127.0.0.1", srv.port)]


def test_rebinding_public_then_private_connects_only_to_the_public_answer(dns, connections) -> None:
    dns.table["rebind.test"] = [["93.184.215.14"], ["10.0.0.1"]]
    with pytest.raises(FetchError) as caught:  # the test guard refuses the public address
        fetch("http://rebind.test/", FetchPolicy())
    assert "93.184.215.14" in one_line(caught)
    assert connections == [("93.184.215.14", 80)]
    assert dns.lookups == ["rebind.test"]


def test_rebinding_between_redirect_hops_is_caught(dns, connections) -> None:
    with LocalServer({"/": redirect("/next"), "/next": page(HTML)}) as srv:
        dns.table["rebind.test"] = [["127.0.0.1"], ["10.0.0.1"]]
        with pytest.raises(BlockedAddressError, match="10.0.0.1"):
            fetch(srv.url("/", host="rebind.test"), local_policy(srv))
        assert srv.paths() == ["/"]
    assert dns.lookups == ["rebind.test", "rebind.test"]  # each hop resolves afresh
    assert connections == [("127.0.0.1", srv.port)]


def test_environment_proxies_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    with LocalServer({}) as proxy, LocalServer({"/": page(HTML)}) as srv:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.setenv(name, proxy.url("/"))
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        assert fetch(srv.url("/"), local_policy(srv, proxy)).content == HTML
        assert proxy.requests == []
        assert srv.paths() == ["/"]


def test_explicit_proxy_is_used_and_targets_still_checked(connections) -> None:
    target_port = 8080

    def forward(h: fetch_servers.Handler) -> None:
        page(b"<p>via proxy")(h)

    with LocalServer() as proxy:
        proxy.routes[f"http://127.0.0.1:{target_port}/page"] = forward
        policy = local_policy(proxy, proxy=proxy.url("/"), allowed_ports=frozenset({target_port}))
        result = fetch(f"http://127.0.0.1:{target_port}/page", policy)
        assert proxy.requests[0][1] == f"http://127.0.0.1:{target_port}/page"
        with pytest.raises(BlockedAddressError, match="10.0.0.1"):
            fetch(f"http://10.0.0.1:{target_port}/", policy)
        assert len(proxy.requests) == 1
    assert result.content == b"<p>via proxy"
    assert {address for address, _port in connections} == {"127.0.0.1"}
