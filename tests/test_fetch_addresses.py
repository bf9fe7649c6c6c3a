"""Unit tests of the fetcher's URL and address verdicts (no network traffic at all).

The table runs through ``vet_url``, the same parse/check/resolve path the fetcher uses
before connecting (the connection layer calls the same ``resolve_host``). Names
resolve through a fake ``socket.getaddrinfo``.
"""

from __future__ import annotations

import ipaddress
import socket

import pytest

from unclutter.core.errors import BlockedAddressError, BlockedSchemeError, FetchError, PolicyError
from unclutter.fetch import FetchPolicy, classify_address, host_literal, vet_url
from unclutter.fetch.guard import resolve_host

try:
    from . import fetch_servers  # type: ignore[no-redef]
except ImportError:
    import fetch_servers  # type: ignore[no-redef]

PUBLIC_V4 = "93.184.215.14"
PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"

DNS = {
    "public.test": [PUBLIC_V4, PUBLIC_V6],
    "internal.test": ["10.1.2.3"],
    "mixed.test": [PUBLIC_V4, "127.0.0.1"],
    "mixed6.test": [PUBLIC_V4, "fd00::1"],
    "localhost": ["127.0.0.1", "::1"],
    "metadata.google.internal": ["169.254.169.254"],
    "127.0.0.1.nip.io": ["127.0.0.1"],
    "mapped.test": ["::ffff:192.168.0.1"],
    "example.com": [PUBLIC_V4],
}


@pytest.fixture(autouse=True)
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> fetch_servers.FakeDNS:
    dns = fetch_servers.FakeDNS(DNS)
    monkeypatch.setattr(socket, "getaddrinfo", dns)
    return dns


OK = "ok"
BLOCKED = BlockedAddressError
SCHEME = BlockedSchemeError
INVALID = PolicyError  # the URL parser refuses it outright

# (url, expected verdict, text the refusal must name)
VECTORS = [
    # numeric spellings of loopback, judged by the address they designate
    ("http://127.0.0.1/", BLOCKED, "127.0.0.1 is a loopback"),
    ("http://127.255.255.254/", BLOCKED, "loopback"),
    ("http://2130706433/", BLOCKED, "127.0.0.1 is a loopback"),
    ("http://0x7f.1/", BLOCKED, "127.0.0.1 is a loopback"),
    ("http://0x7f000001/", BLOCKED, "127.0.0.1 is a loopback"),
    ("http://0177.1/", BLOCKED, "127.0.0.1 is a loopback"),
    ("http://017700000001/", BLOCKED, "127.0.0.1 is a loopback"),
    ("http://127.1/", BLOCKED, "127.0.0.1 is a loopback"),
    ("http://0177.0.0.1/", INVALID, "0177.0.0.1"),
    ("http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", INVALID, "invalid URL"),
    ("http://0/", BLOCKED, "0.0.0.0 is a 'this network'"),
    ("http://0x7f.0x0.0x0.0x1/", BLOCKED, "127.0.0.1 is a loopback"),
    ("http://127.000.000.001/", INVALID, "127.000.000.001"),
    ("http://\u0661\u0662\u0667.\u0660.\u0660.\u0661/", INVALID, "invalid URL"),  # Arabic-Indic digits
    ("http://[::ffff:127.0.0.1%25lo]/", BLOCKED, "127.0.0.1, in IPv4-mapped form"),
    # percent-escapes in a host are not decoded by the client, nor looked up: no host name
    ("http://%31%32%37.0.0.1/", INVALID, "is not a host name"),
    ("http://exa mple.org/", INVALID, "is not a host name"),  # (the client escapes the space)
    ("http://evil.test#@127.0.0.1/", FetchError, "could not resolve evil.test"),  # the host is evil.test
    ("http://0xa000001/", BLOCKED, "10.0.0.1 is a private"),
    # IPv4 categories
    ("http://0.1.2.3/", BLOCKED, "this network"),
    ("http://10.0.0.1/", BLOCKED, "RFC 1918"),
    ("http://172.16.5.4/", BLOCKED, "RFC 1918"),
    ("http://172.31.255.255/", BLOCKED, "RFC 1918"),
    ("http://192.168.1.1/", BLOCKED, "RFC 1918"),
    ("http://169.254.169.254/latest/meta-data/", BLOCKED, "169.254.169.254 is a cloud metadata"),
    ("http://169.254.1.1/", BLOCKED, "link-local"),
    ("http://168.63.129.16/", BLOCKED, "168.63.129.16 is a cloud metadata"),
    ("http://192.0.0.192/", BLOCKED, "192.0.0.192 is a cloud metadata"),
    ("http://100.100.100.200/", BLOCKED, "cloud metadata"),
    ("http://100.64.0.1/", BLOCKED, "carrier-grade NAT"),
    ("http://100.127.255.254/", BLOCKED, "carrier-grade NAT"),
    ("http://198.18.0.1/", BLOCKED, "benchmarking"),
    ("http://198.19.255.1/", BLOCKED, "benchmarking"),
    ("http://192.0.2.1/", BLOCKED, "documentation"),
    ("http://224.0.0.1/", BLOCKED, "multicast"),
    ("http://239.255.255.250/", BLOCKED, "multicast"),
    ("http://255.255.255.255/", BLOCKED, "broadcast"),
    ("http://240.0.0.1/", BLOCKED, "reserved"),
    ("http://8.8.8.8/", OK, ""),
    ("http://1.1.1.1/", OK, ""),
    ("http://172.32.0.1/", OK, ""),  # just outside 172.16.0.0/12
    ("http://100.128.0.1/", OK, ""),  # just outside 100.64.0.0/10
    # IPv6
    ("http://[::1]/", BLOCKED, "::1 is a loopback"),
    ("http://[::]/", BLOCKED, "unspecified"),
    ("http://[fc00::1]/", BLOCKED, "unique local"),
    ("http://[fd12:3456::1]/", BLOCKED, "unique local"),
    ("http://[fd00:ec2::254]/", BLOCKED, "cloud metadata"),
    ("http://[fe80::1]/", BLOCKED, "link-local"),
    ("http://[fe80::1%25eth0]/", BLOCKED, "link-local"),
    ("http://[fec0::1]/", BLOCKED, "site-local"),
    ("http://[ff02::1]/", BLOCKED, "multicast"),
    ("http://[2001:db8::1]/", BLOCKED, "documentation"),
    ("http://[100::1]/", BLOCKED, "discard-only"),
    ("http://[4000::1]/", BLOCKED, "reserved IPv6"),
    ("http://[2606:4700:4700::1111]/", OK, ""),
    # IPv6 forms embedding an IPv4 address, judged by the embedded address
    ("http://[::ffff:127.0.0.1]/", BLOCKED, "127.0.0.1, in IPv4-mapped form"),
    ("http://[::ffff:7f00:1]/", BLOCKED, "127.0.0.1, in IPv4-mapped form"),
    ("http://[::ffff:a9fe:a9fe]/", BLOCKED, "169.254.169.254, in IPv4-mapped form"),
    ("http://[::ffff:0:a00:1]/", BLOCKED, "10.0.0.1, in IPv4-translated form"),
    ("http://[::127.0.0.1]/", BLOCKED, "127.0.0.1, in IPv4-compatible form"),
    ("http://[64:ff9b::a9fe:a9fe]/", BLOCKED, "169.254.169.254, in NAT64 form"),
    ("http://[64:ff9b::10.0.0.1]/", BLOCKED, "10.0.0.1, in NAT64 form"),
    ("http://[64:ff9b:1::1]/", BLOCKED, "local-use NAT64"),
    ("http://[2002:c0a8:101::1]/", BLOCKED, "192.168.1.1, in 6to4 form"),
    ("http://[2002:7f00:1::]/", BLOCKED, "127.0.0.1, in 6to4 form"),
    # Teredo: server 65.54.227.120, client ~(3fff:fdd2) = 192.0.2.45 (documentation)
    ("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", BLOCKED, "192.0.2.45, in Teredo form"),
    # Teredo: server 8.8.8.8, client ~(f5ff:fffe) = 10.0.0.1
    ("http://[2001:0:808:808::f5ff:fffe]/", BLOCKED, "10.0.0.1, in Teredo form"),
    ("http://[2001:0:808:808::fefe:fefe]/", OK, ""),  # server 8.8.8.8, client 1.1.1.1
    ("http://[::ffff:8.8.8.8]/", OK, ""),
    ("http://[64:ff9b::808:808]/", OK, ""),
    ("http://[2002:808:808::1]/", OK, ""),
    ("http://[2001:2::1]/", BLOCKED, "IETF protocol"),
    # schemes, credentials, ports, parser confusion
    ("file:///etc/passwd", SCHEME, "'file'"),
    ("ftp://example.com/", SCHEME, "'ftp'"),
    ("gopher://example.com/", SCHEME, "'gopher'"),
    ("javascript:alert(1)", SCHEME, "'javascript'"),
    ("data:text/html,hi", SCHEME, "'data'"),
    ("ws://example.com/", SCHEME, "'ws'"),
    ("http://user:pass@example.com/", BLOCKED, "credentials"),
    ("http://user@example.com/", BLOCKED, "credentials"),
    ("http://127.0.0.1:80\\@example.com/", BLOCKED, "credentials"),
    ("http://example.com:8080/", BLOCKED, "port 8080"),
    ("http://example.com:22/", BLOCKED, "port 22"),
    ("http://example.com:0/", BLOCKED, "port 0"),
    ("https://example.com:443/", OK, ""),
    ("http://example.com:80/", OK, ""),
    ("HTTPS://EXAMPLE.COM/", OK, ""),
    ("http:///nohost", BLOCKED, "no host"),
    # names, resolved through the fake DNS: every address counts
    ("http://public.test/", OK, ""),
    ("http://internal.test/", BLOCKED, "10.1.2.3 is a private address (RFC 1918) (internal.test resolves to it)"),
    ("http://mixed.test/", BLOCKED, "127.0.0.1 is a loopback address (mixed.test resolves to it)"),
    ("http://mixed6.test/", BLOCKED, "fd00::1 is a unique local"),
    ("http://localhost/", BLOCKED, "127.0.0.1"),
    ("http://LOCALHOST./", FetchError, "could not resolve"),  # no such name in the fake DNS
    ("http://metadata.google.internal/", BLOCKED, "169.254.169.254 is a cloud metadata"),
    ("http://127.0.0.1.nip.io/", BLOCKED, "127.0.0.1"),
    ("http://mapped.test/", BLOCKED, "192.168.0.1, in IPv4-mapped form"),
]


@pytest.mark.parametrize(("url", "expected", "named"), VECTORS, ids=[v[0] for v in VECTORS])
def test_url_verdict(url: str, expected: object, named: str) -> None:
    policy = FetchPolicy()
    if expected == OK:
        addresses = vet_url(url, policy)
        assert addresses
        assert all(classify_address(a) is None for a in addresses)
        return
    with pytest.raises(expected) as caught:  # type: ignore[call-overload]
        vet_url(url, policy)
    message = str(caught.value)
    assert named in message
    assert "\n" not in message and "Traceback" not in message


def test_table_is_large_and_balanced() -> None:
    assert len(VECTORS) >= 40
    assert sum(1 for v in VECTORS if v[1] == OK) >= 10


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0177.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("3232235777", "192.168.1.1"),
        ("0", "0.0.0.0"),
        ("::1", "::1"),
        ("fe80::1%25eth0", "fe80::1"),
        ("example.com", None),
        ("cafe.be", None),
        ("1.2.3.4.5", None),
        ("256.1", None),
        ("08.1", None),  # not octal: a name to resolve
    ],
)
def test_host_literal(host: str, address: str | None) -> None:
    result = host_literal(host)
    assert (str(result) if result is not None else None) == address


def test_classify_does_not_trust_is_global() -> None:
    # Python 3.11's is_global says True for some of these; the classifier must not.
    for text in ("2002:a00:1::1", "64:ff9b::7f00:1", "::ffff:10.0.0.1", "168.63.129.16"):
        assert classify_address(text) is not None, text
        assert classify_address(ipaddress.ip_address(text)) is not None, text


def test_classify_rejects_garbage() -> None:
    with pytest.raises(ValueError):
        classify_address("not an address")


def test_allow_addresses_is_exact() -> None:
    policy = FetchPolicy(allow_addresses=frozenset({"127.0.0.1"}))
    assert [str(a) for a in vet_url("http://127.0.0.1/", policy)] == ["127.0.0.1"]
    assert [str(a) for a in vet_url("http://2130706433/", policy)] == ["127.0.0.1"]  # same address
    for url in ("http://127.0.0.2/", "http://[::ffff:127.0.0.1]/", "http://[::1]/", "http://10.0.0.1/"):
        with pytest.raises(BlockedAddressError):
            vet_url(url, policy)
    # localhost also answers ::1, which is not allowed: every address must pass
    with pytest.raises(BlockedAddressError, match="::1"):
        vet_url("http://localhost/", policy)


def test_policy_refuses_loose_configuration() -> None:
    with pytest.raises(ValueError):
        FetchPolicy(allowed_schemes=frozenset({"http", "file"}))
    with pytest.raises(ValueError):
        FetchPolicy(allow_addresses=frozenset({"10.0.0.0/8"}))
    with pytest.raises(ValueError):
        FetchPolicy(allowed_ports=frozenset({0}))
    with pytest.raises(ValueError):
        FetchPolicy(proxy="socks5://127.0.0.1:1080")
    with pytest.raises(ValueError):
        FetchPolicy(max_bytes=0)
    with pytest.raises(ValueError):
        FetchPolicy(user_agent="bot\r\nX-Evil: 1")


def test_policy_defaults() -> None:
    policy = FetchPolicy()
    assert policy.allowed_schemes == {"http", "https"}
    assert policy.allowed_ports == {80, 443}
    assert policy.allow_addresses == frozenset()
    assert policy.max_redirects == 3
    assert policy.max_bytes == 15_000_000
    assert policy.respect_robots is False
    assert policy.proxy is None and policy.cache_dir is None


def test_resolution_is_injectable_and_checks_every_answer() -> None:
    calls = []

    def resolver(host: str, port: int, timeout: float | None) -> list:
        calls.append((host, port))
        return [fetch_servers._infos(PUBLIC_V4, port), fetch_servers._infos("192.168.7.7", port)]

    with pytest.raises(BlockedAddressError, match="192.168.7.7"):
        resolve_host("anything.test", 443, FetchPolicy(), resolver=resolver)
    assert calls == [("anything.test", 443)]


def test_numeric_hosts_are_not_looked_up(fake_dns: fetch_servers.FakeDNS) -> None:
    with pytest.raises(BlockedAddressError):
        vet_url("http://0x7f.1/", FetchPolicy())
    assert fake_dns.lookups == []


def test_slow_resolver_is_cut_by_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    release = threading.Event()

    def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
        release.wait(5)
        return []

    monkeypatch.setattr(socket, "getaddrinfo", slow)
    from unclutter.core.errors import FetchTimeoutError

    try:
        with pytest.raises(FetchTimeoutError, match="resolving slow.test"):
            resolve_host("slow.test", 80, FetchPolicy(), timeout=0.2)
    finally:
        release.set()
