"""Local HTTP(S) servers, a fake resolver and a connection guard for the fetch tests.

Every server listens on 127.0.0.1 only, on a port the OS picks, runs in a thread and
is stopped by its context manager. :func:`guard_connections` makes any attempt to
connect anywhere but the loopback interface fail (and records every attempt), so a
test can never send traffic elsewhere even if the code under test misbehaves.
"""

from __future__ import annotations

import contextlib
import http.server
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from unclutter.fetch import FetchPolicy

Route = Callable[["Handler"], None]

#: Longest a test server handler keeps a connection busy (drips, stalls), in seconds.
MAX_HANDLER_SECONDS = 10.0


class Handler(http.server.BaseHTTPRequestHandler):
    """Dispatches GET requests to the server's routes (path without query)."""

    protocol_version = "HTTP/1.0"  # one response per connection; bodies may end at close
    server: LocalServer.HTTPServer  # type: ignore[name-defined]

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        owner: LocalServer = self.server.owner
        path = self.path.split("?", 1)[0]
        owner.requests.append((self.command, self.path, dict(self.headers.items())))
        route = owner.routes.get(path) or owner.routes.get(self.path)
        try:
            if route is None:
                self.send_error(404)
            else:
                route(self)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            owner.disconnects.append(path)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    # helpers for routes ------------------------------------------------------------

    def head(self, status: int, headers: Iterable[tuple[str, str]] = ()) -> None:
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()

    def stream(self, chunks: Iterable[bytes], key: str) -> None:
        """Write *chunks*, counting bytes sent in ``owner.sent[key]`` as they go."""
        owner: LocalServer = self.server.owner
        owner.sent[key] = 0
        deadline = time.monotonic() + MAX_HANDLER_SECONDS
        for chunk in chunks:
            if owner.stopping.is_set() or time.monotonic() > deadline:
                return
            self.wfile.write(chunk)
            self.wfile.flush()
            owner.sent[key] += len(chunk)


class LocalServer:
    """A threaded HTTP server on 127.0.0.1 with a route table.

    Attributes:
        routes: path -> function writing the response through the handler.
        requests: (method, path, headers) of every request received.
        sent: bytes written by :meth:`Handler.stream`, per key.
        disconnects: paths whose client hung up while the server was writing.
    """

    class HTTPServer(http.server.ThreadingHTTPServer):
        daemon_threads = True
        block_on_close = False
        owner: LocalServer

        def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
            pass  # a client hanging up or refusing our certificate is expected here

    def __init__(self, routes: dict[str, Route] | None = None, tls: ssl.SSLContext | None = None) -> None:
        self.routes: dict[str, Route] = dict(routes or {})
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.sent: dict[str, int] = {}
        self.disconnects: list[str] = []
        self.stopping = threading.Event()
        self._tls = tls
        self._server: LocalServer.HTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        scheme = "https" if self._tls else "http"
        return f"{scheme}://{host}:{self.port}{path}"

    def paths(self) -> list[str]:
        return [path for _method, path, _headers in self.requests]

    def __enter__(self) -> LocalServer:
        server = LocalServer.HTTPServer(("127.0.0.1", 0), Handler)
        server.owner = self
        if self._tls is not None:
            server.socket = self._tls.wrap_socket(server.socket, server_side=True)
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


# route builders --------------------------------------------------------------------


def page(
    body: bytes = b"<!doctype html><title>t</title><p>hello",
    content_type: str | None = "text/html; charset=utf-8",
    status: int = 200,
    headers: Iterable[tuple[str, str]] = (),
    length: bool = True,
) -> Route:
    """A route answering *body* with *content_type* (no header when ``None``)."""

    def route(h: Handler) -> None:
        fields = list(headers)
        if content_type is not None:
            fields.append(("Content-Type", content_type))
        if length:
            fields.append(("Content-Length", str(len(body))))
        h.head(status, fields)
        h.wfile.write(body)

    return route


def redirect(location: str, status: int = 302, body: bytes = b"", headers: Iterable[tuple[str, str]] = ()) -> Route:
    """A route redirecting to *location* (a body, if given, is sent as is)."""

    def route(h: Handler) -> None:
        h.head(status, [("Location", location), ("Content-Length", str(len(body))), *headers])
        h.wfile.write(body)

    return route


def endless(content_type: str, key: str, chunk: bytes = b"<p>" + b"x" * 65533, total: int = 64 * 2**20) -> Route:
    """A route streaming up to *total* bytes without Content-Length (ends at close)."""

    def route(h: Handler) -> None:
        h.head(200, [("Content-Type", content_type)])
        h.stream((chunk for _ in range(total // len(chunk))), key)

    return route


def drip(interval: float, key: str, before_headers: float = 0.0) -> Route:
    """A route that waits *before_headers*, then sends one byte every *interval* s."""

    def route(h: Handler) -> None:
        time.sleep(before_headers)
        h.head(200, [("Content-Type", "text/html")])
        h.stream(_paced(b"<p>" + b"x" * 1000, interval), key)

    return route


def _paced(data: bytes, interval: float) -> Iterator[bytes]:
    for index in range(len(data)):
        if index:
            time.sleep(interval)
        yield data[index : index + 1]


# resolver and connection guard ----------------------------------------------------------

_REAL_GETADDRINFO = socket.getaddrinfo
_REAL_CONNECT = socket.socket.connect
LOOPBACK = {"127.0.0.1", "::1"}


def _infos(address: str, port: int) -> tuple:
    if ":" in address:
        return (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))
    return (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))


class FakeDNS:
    """Replacement for ``socket.getaddrinfo``: names answer from a table, never DNS.

    ``table[name]`` is a list of addresses, or a list of such lists consumed one per
    lookup (the last repeats): ``[["127.0.0.1"], ["10.0.0.1"]]`` rebinds after the first
    answer. Numeric hosts go to the real function with ``AI_NUMERICHOST`` (no lookup);
    unknown names fail like NXDOMAIN.
    """

    def __init__(self, table: dict[str, list]) -> None:
        self.table = table
        self.lookups: list[str] = []

    def __call__(self, host, port, family=0, type=0, proto=0, flags=0):  # noqa: A002
        name = host.decode() if isinstance(host, bytes) else host
        if name not in self.table:
            try:
                return _REAL_GETADDRINFO(host, port, family, type, proto, flags | socket.AI_NUMERICHOST)
            except socket.gaierror:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None
        self.lookups.append(name)
        answers = self.table[name]
        if answers and isinstance(answers[0], list):
            answers = answers[min(self.lookups.count(name), len(answers)) - 1]
        return [_infos(a, int(port or 0)) for a in answers]


@contextlib.contextmanager
def guard_connections() -> Iterator[list[tuple[str, int]]]:
    """Refuse (with ConnectionRefusedError) every connect() that is not to loopback.

    Yields the list of ``(address, port)`` of every connect() attempted, refused or not.
    """
    attempts: list[tuple[str, int]] = []

    def connect(sock: socket.socket, address):  # type: ignore[no-untyped-def]
        host, port = address[0], address[1]
        attempts.append((host, port))
        if sock.family in (socket.AF_INET, socket.AF_INET6) and host not in LOOPBACK:
            raise ConnectionRefusedError(f"test guard: connection to {host} refused")
        return _REAL_CONNECT(sock, address)

    socket.socket.connect = connect  # type: ignore[method-assign]
    try:
        yield attempts
    finally:
        socket.socket.connect = _REAL_CONNECT  # type: ignore[method-assign]


def local_policy(*servers: LocalServer, **overrides) -> FetchPolicy:
    """The test policy: exactly 127.0.0.1 allowed, on exactly these servers' ports."""
    fields = dict(allow_addresses=frozenset({"127.0.0.1"}), allowed_ports=frozenset(s.port for s in servers))
    fields.update(overrides)
    return FetchPolicy(**fields)


# TLS ----------------------------------------------------------------------------------


def make_certificates(directory: Path, names: Iterable[str]) -> tuple[Path, Path, Path] | None:
    """A throw-away CA and a leaf certificate for *names*, made with the openssl CLI.

    Returns:
        (ca.pem, leaf.pem, leaf.key), or ``None`` when openssl is not installed.
    """
    openssl = shutil.which("openssl")
    if openssl is None:
        return None
    ca_key, ca_pem = directory / "ca.key", directory / "ca.pem"
    key, csr, pem = directory / "leaf.key", directory / "leaf.csr", directory / "leaf.pem"
    ext = directory / "leaf.ext"
    ext.write_text(
        "subjectAltName=" + ",".join(f"DNS:{n}" for n in names) + "\n"
        "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
    )
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], check=True, capture_output=True, timeout=30)

    run("req", "-x509", *ec, "-keyout", str(ca_key), "-out", str(ca_pem), "-days", "2",
        "-subj", "/CN=unclutter test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("req", *ec, "-keyout", str(key), "-out", str(csr), "-subj", "/CN=" + next(iter(names)))
    run("x509", "-req", "-in", str(csr), "-CA", str(ca_pem), "-CAkey", str(ca_key), "-CAcreateserial",
        "-out", str(pem), "-days", "2", "-extfile", str(ext))
    return ca_pem, pem, key
