"""Which IP addresses the fetcher may connect to.

The fetcher only talks to *public unicast* addresses. :func:`classify_address` is the
single judge: it returns ``None`` for a public address and a short reason otherwise.
It works from the explicit tables below rather than ``ipaddress``'s ``is_global`` /
``is_private`` flags, whose answers changed between Python releases (in 3.11,
``::ffff:10.0.0.1`` and 6to4/NAT64 forms of private addresses are not all caught).

IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, IPv4-translated,
NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``, Teredo ``2001::/32``) are judged by the
IPv4 address(es) they embed.

:func:`host_literal` turns a URL host into an address *without* name resolution when
the host is an address already, in any of the numeric spellings the C library's
``inet_aton`` accepts (``2130706433``, ``0x7f.1``, ``0177.1``, ``127.1``), so that such a
host is judged by the address it really designates.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

__all__ = [
    "IPAddress",
    "BLOCKED_IPV4_NETWORKS",
    "BLOCKED_IPV6_NETWORKS",
    "CLOUD_METADATA_ADDRESSES",
    "GLOBAL_UNICAST_IPV6",
    "classify_address",
    "host_literal",
]

IPAddress = IPv4Address | IPv6Address

#: Instance-metadata and platform endpoints of cloud providers. Most already fall in a
#: blocked range below; they are listed so the refusal names them plainly.
#: AWS/GCP/OpenStack 169.254.169.254, AWS ECS 169.254.170.2, Azure wire server
#: 168.63.129.16 (a *public* address that is only meaningful inside Azure), Oracle
#: 192.0.0.192, Alibaba 100.100.100.200, AWS IMDS over IPv6 fd00:ec2::254.
CLOUD_METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",
        "169.254.170.2",
        "168.63.129.16",
        "192.0.0.192",
        "100.100.100.200",
        "fd00:ec2::254",
    )
)

#: IPv4 ranges that are not public unicast (IANA special-purpose registry, RFC 6890
#: and successors), with the reason given in refusals. First match wins, so the
#: broadcast address comes before the reserved block that contains it.
BLOCKED_IPV4_NETWORKS: tuple[tuple[IPv4Network, str], ...] = tuple(
    (IPv4Network(net), reason)
    for net, reason in (
        ("0.0.0.0/8", "a 'this network' address (0.0.0.0/8)"),
        ("10.0.0.0/8", "a private address (RFC 1918)"),
        ("100.64.0.0/10", "a carrier-grade NAT address (100.64.0.0/10)"),
        ("127.0.0.0/8", "a loopback address"),
        ("169.254.0.0/16", "a link-local address"),
        ("172.16.0.0/12", "a private address (RFC 1918)"),
        ("192.0.0.0/24", "an IETF protocol assignment (192.0.0.0/24)"),
        ("192.0.2.0/24", "a documentation address (TEST-NET-1)"),
        ("192.88.99.0/24", "a deprecated 6to4 relay address (192.88.99.0/24)"),
        ("192.168.0.0/16", "a private address (RFC 1918)"),
        ("198.18.0.0/15", "a benchmarking address (198.18.0.0/15)"),
        ("198.51.100.0/24", "a documentation address (TEST-NET-2)"),
        ("203.0.113.0/24", "a documentation address (TEST-NET-3)"),
        ("224.0.0.0/4", "a multicast address"),
        ("255.255.255.255/32", "the broadcast address"),
        ("240.0.0.0/4", "a reserved address (240.0.0.0/4)"),
    )
)

#: IPv6 ranges that are not public unicast, checked *after* the IPv4-embedding forms
#: (so Teredo, inside 2001::/23, is judged by its embedded addresses first).
BLOCKED_IPV6_NETWORKS: tuple[tuple[IPv6Network, str], ...] = tuple(
    (IPv6Network(net), reason)
    for net, reason in (
        ("::/128", "the unspecified address"),
        ("::1/128", "a loopback address"),
        ("64:ff9b:1::/48", "a local-use NAT64 address (64:ff9b:1::/48)"),
        ("100::/64", "a discard-only address (100::/64)"),
        ("2001::/23", "an IETF protocol assignment (2001::/23)"),
        ("2001:db8::/32", "a documentation address (2001:db8::/32)"),
        ("3fff::/20", "a documentation address (3fff::/20)"),
        ("5f00::/16", "an SRv6 segment identifier (5f00::/16)"),
        ("fc00::/7", "a unique local address (fc00::/7)"),
        ("fe80::/10", "a link-local address"),
        ("fec0::/10", "a site-local address"),
        ("ff00::/8", "a multicast address"),
    )
)

#: The only IPv6 block IANA allocates for global unicast; everything outside it that is
#: not an IPv4-embedding form is reserved.
GLOBAL_UNICAST_IPV6 = IPv6Network("2000::/3")

_MAPPED = IPv6Network("::ffff:0:0/96")  # IPv4-mapped, RFC 4291
_TRANSLATED = IPv6Network("::ffff:0:0:0/96")  # IPv4-translated, RFC 2765
_COMPATIBLE = IPv6Network("::/96")  # IPv4-compatible (deprecated), RFC 4291
_NAT64 = IPv6Network("64:ff9b::/96")  # well-known NAT64 prefix, RFC 6052
_SIXTOFOUR = IPv6Network("2002::/16")  # 6to4, RFC 3056
_TEREDO = IPv6Network("2001::/32")  # Teredo, RFC 4380

# Characters of the numeric host spellings inet_aton understands (decimal, octal, hex).
_NUMERIC_HOST = re.compile(r"[0-9a-fA-FxX.]+")


def _low32(address: IPv6Address) -> IPv4Address:
    return IPv4Address(int(address) & 0xFFFFFFFF)


def _embedded_ipv4(address: IPv6Address) -> tuple[str, list[IPv4Address]] | None:
    """Name of the IPv4-embedding form of *address* and the IPv4 address(es) it carries."""
    if address in _MAPPED:
        return "IPv4-mapped", [_low32(address)]
    if address in _TRANSLATED:
        return "IPv4-translated", [_low32(address)]
    if address in _COMPATIBLE and int(address) > 1:  # :: and ::1 are not embeddings
        return "IPv4-compatible", [_low32(address)]
    if address in _NAT64:
        return "NAT64", [_low32(address)]
    if address in _SIXTOFOUR:
        return "6to4", [IPv4Address((int(address) >> 80) & 0xFFFFFFFF)]
    if address in _TEREDO:
        server, client = address.teredo  # type: ignore[misc]  # never None inside 2001::/32
        return "Teredo", [server, client]
    return None


def _classify_ipv4(address: IPv4Address) -> str | None:
    for network, reason in BLOCKED_IPV4_NETWORKS:
        if address in network:
            return reason
    return None


def classify_address(address: IPAddress | str) -> str | None:
    """Judge one IP address.

    Args:
        address: an ``IPv4Address``/``IPv6Address`` or its text form (an IPv6 zone such
            as ``%eth0`` is ignored: the address is judged without it).

    Returns:
        ``None`` when *address* is public unicast and may be connected to; otherwise a
        short reason such as ``"a loopback address"`` or
        ``"a private address (RFC 1918), 10.0.0.1, in 6to4 form"``.

    Raises:
        ValueError: *address* is not an IP address.
    """
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if isinstance(ip, IPv6Address) and ip.scope_id:
        ip = IPv6Address(int(ip))
    if ip in CLOUD_METADATA_ADDRESSES:
        return "a cloud metadata address"
    if isinstance(ip, IPv4Address):
        return _classify_ipv4(ip)
    embedded = _embedded_ipv4(ip)
    if embedded is not None:
        form, inner = embedded
        for v4 in inner:
            if v4 in CLOUD_METADATA_ADDRESSES:
                return f"a cloud metadata address, {v4}, in {form} form"
            reason = _classify_ipv4(v4)
            if reason is not None:
                return f"{reason}, {v4}, in {form} form"
        return None
    for network, reason in BLOCKED_IPV6_NETWORKS:
        if ip in network:
            return reason
    if ip not in GLOBAL_UNICAST_IPV6:
        return "a reserved IPv6 address (outside 2000::/3)"
    return None


def host_literal(host: str) -> IPAddress | None:
    """The address a URL host designates without any name lookup, if it is an address.

    Args:
        host: the host as the URL parser produced it, without brackets (``"::1"``,
            ``"127.0.0.1"``, ``"2130706433"``, ``"0x7f.1"``, ``"example.com"``).

    Returns:
        The IPv6 address for an IPv6 literal (its zone, if any, dropped); the IPv4 address
        for every IPv4 spelling the C library's ``inet_aton`` accepts (dotted quad,
        decimal ``2130706433``, hex ``0x7f000001``, octal ``0177.0.0.1``, short ``127.1``),
        which are the spellings ``getaddrinfo`` would also treat as numeric; ``None`` for
        a name that needs resolving.
    """
    if ":" in host:
        text = host.split("%", 1)[0]  # zone id ("%25eth0" after URL encoding)
        try:
            return IPv6Address(text)
        except ValueError:
            return None
    if not _NUMERIC_HOST.fullmatch(host):
        return None
    try:
        return IPv4Address(socket.inet_aton(host))
    except OSError:
        return None
