"""The fetch policy: every limit of the fetch stage, in one place, with safe defaults.

Every number the fetcher enforces is a module constant below (the default) and a field
of :class:`FetchPolicy` (the value in force). Nothing else in the code loosens the
policy: a caller who needs to reach a private address, another port or a proxy says so
explicitly through a :class:`FetchPolicy`.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field

import httpx

__all__ = [
    "FetchPolicy",
    "DEFAULT_SCHEMES",
    "DEFAULT_PORTS",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_CONTENT_ENCODINGS",
    "DEFAULT_DEADLINE",
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_READ_TIMEOUT",
    "DEFAULT_MAX_HEADER_BYTES",
    "DEFAULT_USER_AGENT",
    "HTTP_HEADER_HARD_LIMIT",
    "ACCEPTED_CONTENT_TYPES",
    "ROBOTS_MAX_BYTES",
    "CACHE_MAX_ENTRIES",
    "SNIFF_BYTES",
    "DECODE_CHUNK_BYTES",
    "BINARY_SIGNATURES",
]

#: URL schemes that may be fetched. Only these two can be: the policy refuses others.
DEFAULT_SCHEMES: frozenset[str] = frozenset({"http", "https"})

#: TCP ports that may be connected to (the default ports of http and https).
DEFAULT_PORTS: frozenset[int] = frozenset({80, 443})

#: Redirects followed per fetch; the next one is refused (TooManyRedirectsError).
DEFAULT_MAX_REDIRECTS = 3

#: Body ceiling in bytes, applied separately to the bytes as received (after chunked
#: transfer decoding, before content decoding) and to the decoded bytes. 15 MB; a page
#: under it always fits ``unclutter.core.limits.MAX_INPUT_BYTES`` (15 MiB).
DEFAULT_MAX_BYTES = 15_000_000

#: Most Content-Encodings stacked on one response (``gzip, br`` is 2); more is refused.
DEFAULT_MAX_CONTENT_ENCODINGS = 2

#: Total deadline in seconds for one fetch: name resolution, connects, TLS, every
#: redirect hop, robots.txt and the whole body. Defeats slow-drip servers.
DEFAULT_DEADLINE = 30.0

#: Seconds allowed to open one TCP connection (the deadline may cut it shorter).
DEFAULT_CONNECT_TIMEOUT = 10.0

#: Seconds allowed between two reads (or for one write) on a connection.
DEFAULT_READ_TIMEOUT = 10.0

#: Largest response header block in bytes (status line, names, values, line breaks).
DEFAULT_MAX_HEADER_BYTES = 64 * 1024

#: The HTTP library's own limit while reading a header block (httpcore reads at most
#: 100 KiB before the headers must be complete); a larger policy value cannot raise it.
HTTP_HEADER_HARD_LIMIT = 100 * 1024

#: User-Agent sent with every request unless the policy names another.
DEFAULT_USER_AGENT = "unclutter/0.1 (+reader view)"

#: Media types accepted as a page. Anything else is refused before the body is read.
ACCEPTED_CONTENT_TYPES: frozenset[str] = frozenset({"text/html", "application/xhtml+xml"})

#: Bytes of robots.txt read (RFC 9309 asks crawlers to parse at least 500 KiB); the rest
#: is ignored.
ROBOTS_MAX_BYTES = 500 * 1024

#: Entries kept in the revalidation cache directory; the least recently used go first.
CACHE_MAX_ENTRIES = 256

#: Leading decoded bytes inspected for binary signatures before a page is accepted.
SNIFF_BYTES = 1024

#: Largest piece a decompressor may produce in one step, in bytes. Bounds the memory
#: one compressed chunk can expand to before the decoded-size ceiling is checked.
DECODE_CHUNK_BYTES = 64 * 1024

#: Leading-byte signatures of binary formats that are refused even when served as
#: text/html: (offset, signature, name). Checked on the first decoded bytes. Only
#: signatures that text cannot start with are listed; other binary formats are caught
#: by their share of control characters (see ``decoding.sniff_binary``).
BINARY_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"%PDF-", "PDF"),
    (0, b"\x89PNG\r\n\x1a\n", "PNG"),
    (0, b"GIF87a", "GIF"),
    (0, b"GIF89a", "GIF"),
    (0, b"\xff\xd8\xff", "JPEG"),
    (0, b"\x00\x00\x01\x00", "ICO"),
    (0, b"PK\x03\x04", "ZIP (or Office document)"),
    (0, b"\x1f\x8b", "gzip"),
    (0, b"\xfd7zXZ\x00", "xz"),
    (0, b"(\xb5/\xfd", "zstd"),
    (0, b"7z\xbc\xaf\x27\x1c", "7-Zip"),
    (0, b"Rar!\x1a\x07", "RAR"),
    (0, b"\x7fELF", "ELF executable"),
    (0, b"\xca\xfe\xba\xbe", "Java class or Mach-O"),
    (0, b"\x00asm", "WebAssembly"),
    (0, b"SQLite format 3\x00", "SQLite database"),
)


def _frozen(values: object, kind: type) -> frozenset:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"expected a collection of {kind.__name__}, got {values!r}")
    return frozenset(values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class FetchPolicy:
    """Limits and permissions of one fetch. The defaults are the safe public-web policy.

    Attributes:
        allowed_schemes: URL schemes that may be fetched; a subset of ``{"http", "https"}``.
        allowed_ports: TCP ports that may be connected to (default 80 and 443).
        allow_addresses: exact IP addresses (text form, no ranges) that may be reached
            although they are not public, e.g. ``frozenset({"127.0.0.1"})`` for tests or a
            crawler inside a trusted network. Empty by default. This is the only way to
            reach a non-public address.
        max_redirects: redirects followed; the next one raises ``TooManyRedirectsError``.
        max_bytes: body ceiling in bytes, on the wire and after content decoding.
        max_content_encodings: most stacked Content-Encodings accepted on one response.
        deadline: total seconds for the whole fetch, redirects and robots.txt included.
        connect_timeout: seconds to open one TCP connection.
        read_timeout: seconds allowed between two reads (and for one write).
        max_header_bytes: largest response header block in bytes (capped in practice at
            ``HTTP_HEADER_HARD_LIMIT`` by the HTTP library).
        user_agent: the User-Agent header, also the name robots.txt rules are matched on.
        respect_robots: when true, a URL that the site's robots.txt disallows for
            ``user_agent`` is refused (``RobotsDisallowedError``).
        cache_dir: directory of a small revalidation cache; when set, pages with an ETag
            or Last-Modified are stored there and later fetches send
            ``If-None-Match``/``If-Modified-Since``, reusing the stored body on 304.
        proxy: an ``http://`` or ``https://`` proxy URL to send every request through.
            Never taken from the environment. The proxy resolves names itself, so the
            fetcher checks the target's addresses before asking it but cannot pin them.
        ca_bundle: path of a PEM file of certificate authorities to trust instead of the
            default bundle (certifi). Certificate verification cannot be switched off.

    Raises:
        ValueError: on construction, for a scheme other than http/https, a port outside
            1-65535, an ``allow_addresses`` entry that is not a single IP address, a
            negative or zero limit, or a proxy URL that is not http/https.
    """

    allowed_schemes: frozenset[str] = DEFAULT_SCHEMES
    allowed_ports: frozenset[int] = DEFAULT_PORTS
    allow_addresses: frozenset[str] = field(default_factory=frozenset)
    max_redirects: int = DEFAULT_MAX_REDIRECTS
    max_bytes: int = DEFAULT_MAX_BYTES
    max_content_encodings: int = DEFAULT_MAX_CONTENT_ENCODINGS
    deadline: float = DEFAULT_DEADLINE
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    read_timeout: float = DEFAULT_READ_TIMEOUT
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES
    user_agent: str = DEFAULT_USER_AGENT
    respect_robots: bool = False
    cache_dir: str | os.PathLike[str] | None = None
    proxy: str | None = None
    ca_bundle: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        schemes = frozenset(s.lower() for s in _frozen(self.allowed_schemes, str))
        if not schemes or not schemes <= DEFAULT_SCHEMES:
            raise ValueError(f"allowed_schemes must be a non-empty subset of http/https, got {sorted(schemes)}")
        object.__setattr__(self, "allowed_schemes", schemes)

        ports = _frozen(self.allowed_ports, int)
        if not all(isinstance(p, int) and 1 <= p <= 65535 for p in ports):
            raise ValueError(f"allowed_ports must be TCP ports 1-65535, got {sorted(ports, key=str)}")
        object.__setattr__(self, "allowed_ports", ports)

        addresses = set()
        for entry in _frozen(self.allow_addresses, str):
            try:
                addresses.add(str(ipaddress.ip_address(entry)))
            except ValueError:
                raise ValueError(f"allow_addresses takes single IP addresses, not {entry!r}") from None
        object.__setattr__(self, "allow_addresses", frozenset(addresses))

        for name in ("max_bytes", "max_content_encodings", "max_header_bytes"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if self.max_redirects < 0:
            raise ValueError("max_redirects must not be negative")
        for name in ("deadline", "connect_timeout", "read_timeout"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        if not self.user_agent or any(c in self.user_agent for c in "\r\n"):
            raise ValueError("user_agent must be a non-empty single line")
        if self.proxy is not None:
            try:
                scheme = httpx.URL(self.proxy).scheme
            except httpx.InvalidURL as exc:
                raise ValueError(f"invalid proxy URL: {exc}") from None
            if scheme not in ("http", "https"):
                raise ValueError(f"proxy must be an http:// or https:// URL, got {self.proxy!r}")
