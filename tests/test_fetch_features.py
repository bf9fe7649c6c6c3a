"""Fetch features against local servers: TLS pinning, robots.txt, revalidation cache."""

from __future__ import annotations

import os
import socket
import ssl
import time
from pathlib import Path

import pytest

from unclutter.core.errors import BlockedAddressError, FetchError, HTTPStatusError, RobotsDisallowedError
from unclutter.fetch import FetchedPage, fetch
from unclutter.fetch.cache import RevalidationCache

try:
    from . import fetch_servers  # type: ignore[no-redef]
except ImportError:
    import fetch_servers  # type: ignore[no-redef]

Handler = fetch_servers.Handler
LocalServer = fetch_servers.LocalServer
local_policy = fetch_servers.local_policy
page = fetch_servers.page
redirect = fetch_servers.redirect

HTML = b"<!doctype html><title>t</title><p>Cached or not, here I am."


@pytest.fixture(autouse=True)
def connections():
    with fetch_servers.guard_connections() as attempts:
        yield attempts


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> fetch_servers.FakeDNS:
    fake = fetch_servers.FakeDNS({})
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return fake


# -- TLS: connect to the pinned address, verify the certificate for the name ---------------


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory):
    made = fetch_servers.make_certificates(tmp_path_factory.mktemp("tls"), ["pinned.test"])
    if made is None:
        pytest.skip("openssl command not available to make test certificates")
    return made


@pytest.fixture
def tls_server(certificates):
    _ca, cert, key = certificates
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    names: list[str | None] = []
    context.sni_callback = lambda _sock, name, _ctx: names.append(name)
    with LocalServer({"/": page(HTML)}, tls=context) as srv:
        srv.sni = names  # type: ignore[attr-defined]
        yield srv


def test_tls_uses_the_pinned_address_and_verifies_the_name(tls_server, certificates, dns, connections) -> None:
    ca, _cert, _key = certificates
    dns.table["pinned.test"] = [["127.0.0.1"], ["10.0.0.1"]]  # a second lookup would rebind
    result = fetch(tls_server.url("/", host="pinned.test"), local_policy(tls_server, ca_bundle=str(ca)))
    assert result.content == HTML
    assert tls_server.sni == ["pinned.test"]  # SNI carries the name, not the address
    assert connections == [("127.0.0.1", tls_server.port)]
    assert dns.lookups == ["pinned.test"]


def test_tls_certificate_for_another_name_is_refused(tls_server, certificates, dns) -> None:
    ca, _cert, _key = certificates
    dns.table["other.test"] = ["127.0.0.1"]
    with pytest.raises(FetchError) as caught:
        fetch(tls_server.url("/", host="other.test"), local_policy(tls_server, ca_bundle=str(ca)))
    assert "certificate" in str(caught.value).lower() and "\n" not in str(caught.value)
    assert tls_server.sni == ["other.test"]
    assert tls_server.requests == []


def test_tls_address_url_is_checked_against_the_certificate(tls_server, certificates) -> None:
    ca, _cert, _key = certificates
    with pytest.raises(FetchError, match="(?i)certificate"):
        fetch(tls_server.url("/"), local_policy(tls_server, ca_bundle=str(ca)))


def test_tls_verification_cannot_be_skipped_by_default(tls_server, dns) -> None:
    dns.table["pinned.test"] = ["127.0.0.1"]
    with pytest.raises(FetchError, match="(?i)certificate"):
        fetch(tls_server.url("/", host="pinned.test"), local_policy(tls_server))  # certifi: unknown CA
    assert tls_server.requests == []


# -- robots.txt ---------------------------------------------------------------------------


def robots(text: str, status: int = 200) -> fetch_servers.Route:
    return page(text.encode(), "text/plain", status=status)


def test_robots_is_ignored_unless_asked_for() -> None:
    with LocalServer({"/robots.txt": robots("User-agent: *\nDisallow: /\n"), "/private": page(HTML)}) as srv:
        assert fetch(srv.url("/private"), local_policy(srv)).content == HTML
        assert srv.paths() == ["/private"]


def test_robots_disallow_is_respected() -> None:
    routes = {
        "/robots.txt": robots("User-agent: *\nDisallow: /private\n"),
        "/private/page": page(HTML),
        "/public": page(HTML),
    }
    with LocalServer(routes) as srv:
        policy = local_policy(srv, respect_robots=True)
        with pytest.raises(RobotsDisallowedError) as caught:
            fetch(srv.url("/private/page"), policy)
        assert srv.paths() == ["/robots.txt"]
        assert fetch(srv.url("/public"), policy).content == HTML
    message = str(caught.value)
    assert "robots.txt disallows" in message and srv.url("/private/page") in message
    assert caught.value.exit_code == 3


def test_robots_rules_match_the_user_agent() -> None:
    text = "User-agent: unclutter\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
    with LocalServer({"/robots.txt": robots(text), "/": page(HTML)}) as srv:
        with pytest.raises(RobotsDisallowedError, match="'unclutter'"):
            fetch(srv.url("/"), local_policy(srv, respect_robots=True))
        other = local_policy(srv, respect_robots=True, user_agent="OtherReader/1.0")
        assert fetch(srv.url("/"), other).content == HTML


@pytest.mark.parametrize(("status", "allowed"), [(404, True), (410, True), (403, True), (500, False), (503, False)])
def test_robots_status_handling(status: int, allowed: bool) -> None:
    with LocalServer({"/robots.txt": robots("User-agent: *\nDisallow: /\n", status=status), "/": page(HTML)}) as srv:
        policy = local_policy(srv, respect_robots=True)
        if allowed:
            assert fetch(srv.url("/"), policy).content == HTML
        else:
            with pytest.raises(RobotsDisallowedError, match=f"HTTP {status}"):
                fetch(srv.url("/"), policy)
            assert srv.paths() == ["/robots.txt"]


def test_robots_is_fetched_through_the_same_checks(connections) -> None:
    routes = {"/robots.txt": redirect("http://10.0.0.1/robots.txt"), "/": page(HTML)}
    with LocalServer(routes) as srv:
        with pytest.raises(BlockedAddressError, match="10.0.0.1"):
            fetch(srv.url("/"), local_policy(srv, respect_robots=True))
        assert srv.paths() == ["/robots.txt"]
    assert {address for address, _port in connections} == {"127.0.0.1"}


def test_robots_of_each_redirect_target_is_checked() -> None:
    with LocalServer({"/robots.txt": robots("User-agent: *\nDisallow: /article\n"), "/article": page(HTML)}) as other:
        with LocalServer({"/robots.txt": robots("", status=404), "/go": redirect(other.url("/article"))}) as srv:
            with pytest.raises(RobotsDisallowedError, match=f"127.0.0.1:{other.port}/robots.txt"):
                fetch(srv.url("/go"), local_policy(srv, other, respect_robots=True))
        assert other.paths() == ["/robots.txt"]


# -- revalidation cache ---------------------------------------------------------------------


def validating(state: dict) -> fetch_servers.Route:
    """Answers 304 when the request's validators match ``state``, else the page."""

    def route(h: Handler) -> None:
        etag, modified = state.get("etag"), state.get("modified")
        if (etag and h.headers.get("If-None-Match") == etag) or (
            modified and h.headers.get("If-Modified-Since") == modified
        ):
            h.head(304, [("ETag", etag)] if etag else [])
            return
        headers = [("ETag", etag)] if etag else []
        if modified:
            headers.append(("Last-Modified", modified))
        headers += state.get("extra", [])
        page(state["body"], "text/html; charset=utf-8", headers=headers)(h)

    return route


def test_etag_revalidation_reuses_the_stored_body(tmp_path: Path) -> None:
    state = {"etag": '"v1"', "body": HTML}
    with LocalServer({"/": validating(state)}) as srv:
        policy = local_policy(srv, cache_dir=tmp_path / "cache")
        first = fetch(srv.url("/"), policy)
        second = fetch(srv.url("/"), policy)
        assert "If-None-Match" not in srv.requests[0][2]
        assert srv.requests[1][2]["If-None-Match"] == '"v1"'
        state.update(etag='"v2"', body=HTML + b"<p>new")
        third = fetch(srv.url("/"), policy)
        fourth = fetch(srv.url("/"), policy)
    assert first.from_cache is False and second.from_cache is True
    assert second.content == first.content == HTML
    assert second.charset == "utf-8" and second.content_type == "text/html" and second.status == 200
    assert second.url == second.final_url == srv.url("/")
    assert third.from_cache is False and third.content == HTML + b"<p>new"
    assert fourth.from_cache is True and fourth.content == HTML + b"<p>new"


def test_last_modified_revalidation(tmp_path: Path) -> None:
    state = {"modified": "Wed, 21 Oct 2015 07:28:00 GMT", "body": HTML}
    with LocalServer({"/": validating(state)}) as srv:
        policy = local_policy(srv, cache_dir=tmp_path)
        fetch(srv.url("/"), policy)
        again = fetch(srv.url("/"), policy)
        assert srv.requests[1][2]["If-Modified-Since"] == state["modified"]
    assert again.from_cache and again.content == HTML


def test_no_store_and_validator_less_pages_are_not_cached(tmp_path: Path) -> None:
    routes = {
        "/secret": validating({"etag": '"s"', "body": HTML, "extra": [("Cache-Control", "private, no-store")]}),
        "/plain": page(HTML),
    }
    with LocalServer(routes) as srv:
        policy = local_policy(srv, cache_dir=tmp_path)
        for path in ("/secret", "/secret", "/plain", "/plain"):
            assert fetch(srv.url(path), policy).from_cache is False
        assert all("If-None-Match" not in headers for _m, _p, headers in srv.requests)
    assert not list(tmp_path.glob("*.json"))


def test_damaged_cache_entry_is_ignored(tmp_path: Path) -> None:
    state = {"etag": '"v1"', "body": HTML}
    with LocalServer({"/": validating(state)}) as srv:
        policy = local_policy(srv, cache_dir=tmp_path)
        fetch(srv.url("/"), policy)
        (body_file,) = tmp_path.glob("*.body")
        body_file.write_bytes(b"<p>tampered")
        again = fetch(srv.url("/"), policy)
        assert "If-None-Match" not in srv.requests[1][2]
    assert again.from_cache is False and again.content == HTML


def test_unexpected_304_is_a_status_error() -> None:
    def route(h: Handler) -> None:
        h.head(304)

    with LocalServer({"/": route}) as srv:
        with pytest.raises(HTTPStatusError, match="HTTP 304"):
            fetch(srv.url("/"), local_policy(srv))


def test_cache_keeps_a_bounded_number_of_entries(tmp_path: Path) -> None:
    cache = RevalidationCache(tmp_path, max_entries=2)
    for index in range(3):
        url = f"http://example.com/{index}"
        stored = FetchedPage(url, url, 200, {"etag": f'"{index}"'}, b"<p>%d" % index, "text/html", None)
        assert cache.store(url, stored)
        past = time.time() - 100 + index  # older entries were used longer ago
        os.utime(tmp_path / cache._paths(url)[0].name, (past, past))
    assert cache.load("http://example.com/0") is None
    kept = cache.load("http://example.com/2")
    assert kept is not None and kept.page.content == b"<p>2" and kept.validators() == {"If-None-Match": '"2"'}
    assert len(list(tmp_path.glob("*.json"))) == 2 and len(list(tmp_path.glob("*.body"))) == 2
