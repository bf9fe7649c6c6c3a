"""URL and address checks shared by every request the fetcher makes.

A URL is parsed exactly once, by ``httpx.URL`` (the parser of the HTTP client that will
send the request), and the parsed object is what gets checked and then sent, so the
host that is judged is the host that is connected to.

:func:`resolve_host` is the only place names become addresses. The connection layer
(:mod:`unclutter.fetch.transport`) calls it when it opens a socket and connects to one
of the addresses it returned, so there is no second lookup that could answer
differently (DNS rebinding).
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Callable
from ipaddress import ip_address

import httpx

from ..core.errors import (
    BlockedAddressError,
    BlockedSchemeError,
    FetchError,
    FetchTimeoutError,
    PolicyError,
)
from .addresses import IPAddress, classify_address, host_literal
from .policy import FetchPolicy

__all__ = ["DEFAULT_PORT", "INVALID_URL_PUBLIC", "parse_url", "check_url", "url_port", "display_url",
           "resolve_host", "vet_url"]

#: Port used when a URL names none.
DEFAULT_PORT = {"http": 80, "https": 443}

#: What a remote client of the HTTP service is told for a URL that cannot be parsed or a
#: host that is not a valid host name (the full message names the reason).
INVALID_URL_PUBLIC = "refused by the fetch policy: the URL is not valid"


#: The characters of a host name once IDNA-encoded (RFC 1123 section 2.1: letters, digits,
#: hyphens, dots; underscores too, which DNS carries and some sites use); an IPv6 literal
#: (a colon in the host) is checked as an address.
_HOST_NAME_RE = re.compile(r"[A-Za-z0-9._-]+")

def display_url(url: httpx.URL) -> str:
    """*url* as text for messages, with any user name or password left out."""
    if url.userinfo:
        url = url.copy_with(username=None, password=None)
    return str(url)


def parse_url(url: str | httpx.URL) -> httpx.URL:
    """Parse *url* with the HTTP client's own parser.

    Raises:
        PolicyError: the URL cannot be parsed (bad host, bad port, invalid characters,
            a host the IDNA rules refuse such as full-width digits).
    """
    if isinstance(url, httpx.URL):
        return url
    try:
        return httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:  # (IDNA errors are ValueErrors)
        raise PolicyError(f"refused: invalid URL {str(url)[:200]!r} ({exc})", public=INVALID_URL_PUBLIC) from None


def url_port(url: httpx.URL) -> int:
    """The TCP port *url* connects to (its explicit port, else the scheme's default)."""
    return url.port if url.port is not None else DEFAULT_PORT.get(url.scheme, 0)


def check_url(url: httpx.URL, policy: FetchPolicy) -> None:
    """Check everything about *url* that needs no name resolution.

    Checks, in order: scheme, credentials, host present, the host a valid host name
    (IDNA labels included), the address when the host is one already (any numeric
    spelling, see :func:`unclutter.fetch.addresses.host_literal`), port.

    Raises:
        BlockedSchemeError: scheme not in ``policy.allowed_schemes``.
        BlockedAddressError: credentials in the URL, no host, a port not in
            ``policy.allowed_ports``, or a literal address that is not public and not in
            ``policy.allow_addresses``.
        PolicyError: a host that is not a host name, or an ``xn--`` label the IDNA rules
            (RFC 5891) refuse, such as ``xn--localhost-`` or ``xn--``.
    """
    shown = display_url(url)
    if url.scheme not in policy.allowed_schemes:
        scheme = url.scheme or "(none)"
        raise BlockedSchemeError(f"refused: scheme {scheme!r} is not allowed, only http and https ({shown[:200]})")
    if url.userinfo:
        raise BlockedAddressError(f"refused: credentials in the URL are not allowed ({shown})",
                                  public="refused by the fetch policy: credentials in the URL are not allowed")
    if not url.raw_host:
        raise BlockedAddressError(f"refused: URL has no host ({shown})",
                                  public="refused by the fetch policy: the URL has no host")
    raw_host = url.raw_host.decode("ascii")
    if not (_HOST_NAME_RE.fullmatch(raw_host) or ":" in raw_host):  # (an IPv6 literal)
        # (the parser percent-encodes what a host name cannot hold: "exa mple.org" would be
        # looked up as "exa%20mple.org")
        raise PolicyError(f"refused: invalid URL {shown[:200]!r} (the host {raw_host[:100]!r} is not a host name)",
                          public=INVALID_URL_PUBLIC)
    try:
        host = url.host  # decodes "xn--" labels, which the parser took as they came
    except ValueError as exc:  # idna.IDNAError is a UnicodeError, hence a ValueError
        raise PolicyError(f"refused: invalid URL {shown[:200]!r} (the host {raw_host[:100]!r} is not a valid "
                          f"internationalised domain name: {exc})", public=INVALID_URL_PUBLIC) from None
    literal = host_literal(raw_host)
    if literal is not None:
        _check_address(literal, host, policy)
    port = url_port(url)
    if port not in policy.allowed_ports:
        allowed = ", ".join(str(p) for p in sorted(policy.allowed_ports))
        raise BlockedAddressError(f"refused: port {port} is not allowed (allowed: {allowed}) ({shown})",
                                  public=f"refused by the fetch policy: port {port} is not allowed")


def _check_address(address: IPAddress, host: str, policy: FetchPolicy) -> None:
    if str(address) in policy.allow_addresses:
        return
    reason = classify_address(address)
    if reason is not None:
        # The public line (BlockedAddressError.public_text) is the same for a literal
        # address and for a name, whatever it resolved to: no DNS answers for clients.
        via = "" if host == str(address) else f" ({host} resolves to it)"
        raise BlockedAddressError(f"refused: {address} is {reason}{via}")


def _getaddrinfo(host: str, port: int, timeout: float | None) -> list:
    """``socket.getaddrinfo`` (looked up at call time), given at most *timeout* seconds."""
    if timeout is None:
        return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    outcome: dict[str, object] = {}

    def lookup() -> None:
        try:
            outcome["result"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except BaseException as exc:  # handed to the waiting thread
            outcome["error"] = exc

    worker = threading.Thread(target=lookup, name=f"resolve {host}", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise FetchTimeoutError(f"resolving {host} took longer than {timeout:.3g} s")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["result"]  # type: ignore[return-value]


def resolve_host(
    host: str,
    port: int,
    policy: FetchPolicy,
    *,
    timeout: float | None = None,
    resolver: Callable[[str, int, float | None], list] | None = None,
) -> list[IPAddress]:
    """Resolve *host* and check **every** address it has.

    Args:
        host: host as the URL parser produced it (``url.raw_host`` decoded), no brackets.
        port: TCP port, passed to the resolver.
        policy: decides which addresses are acceptable.
        timeout: most seconds the lookup may take; ``None`` waits as long as the system
            resolver does.
        resolver: replaces the lookup (signature of ``_getaddrinfo``: host, port,
            timeout; returns ``getaddrinfo`` tuples). By default ``socket.getaddrinfo``,
            looked up at call time so tests may monkeypatch it.

    Returns:
        The addresses in the resolver's order, without duplicates; every one of them is
        public or listed in ``policy.allow_addresses``. A numeric host is returned as
        the single address it designates, without a lookup.

    Raises:
        BlockedAddressError: any resolved address is refused (the message names it and
            the reason; its ``public_message`` names neither).
        PolicyError: *host* is not a valid host name (an empty or over-long label).
        FetchError: the name does not resolve (the public message says only that).
        FetchTimeoutError: the lookup took longer than *timeout*.
    """
    literal = host_literal(host)
    if literal is not None:
        addresses = [literal]
    else:
        lookup = resolver or _getaddrinfo
        unresolved = f"could not resolve {host}"
        try:
            infos = lookup(host, port, timeout)
        except socket.gaierror as exc:
            raise FetchError(f"{unresolved}: {exc.strerror or exc}", public=unresolved) from None
        except UnicodeError:
            raise PolicyError(f"refused: invalid host name {host!r}", public=INVALID_URL_PUBLIC) from None
        addresses = []
        for family, _type, _proto, _canon, sockaddr in infos:
            if family not in (socket.AF_INET, socket.AF_INET6):
                continue
            address = _as_address(sockaddr)
            if address not in addresses:
                addresses.append(address)
        if not addresses:
            raise FetchError(f"{unresolved}: no IPv4 or IPv6 address", public=unresolved)
    for address in addresses:
        _check_address(address, host, policy)
    return addresses


def _as_address(sockaddr: tuple) -> IPAddress:
    text = sockaddr[0]
    if len(sockaddr) >= 4 and sockaddr[3] and "%" not in text:
        text = f"{text}%{sockaddr[3]}"
    return ip_address(text)


def vet_url(url: str | httpx.URL, policy: FetchPolicy, *, timeout: float | None = None) -> list[IPAddress]:
    """The fetcher's whole verdict on one URL before connecting: parse, check, resolve.

    Returns:
        The addresses the fetcher would connect to (see :func:`resolve_host`).

    Raises:
        PolicyError: (or a subclass) the URL is refused; the message names the reason
            and the address.
        FetchError: the host does not resolve.
    """
    parsed = parse_url(url)
    check_url(parsed, policy)
    return resolve_host(parsed.raw_host.decode("ascii"), url_port(parsed), policy, timeout=timeout)
