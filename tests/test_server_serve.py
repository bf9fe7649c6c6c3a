"""``unclutter serve`` as a real server on 127.0.0.1 (a subprocess on a free port): proxy
headers are trusted only from the addresses the operator lists, a connection that is slow
to send its request head is closed, and the connection cap answers 503.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("uvicorn", reason="the server extra is not installed: pip install -e '.[server]'")

import httpx  # noqa: E402

from serve_process import served  # noqa: E402

PARA = "<p>{} is a paragraph with enough words, commas, clauses and full stops to count as prose.</p>"
ARTICLE = ("<html><head><title>A story</title></head><body><article><h1>A story</h1>"
           + "".join(PARA.format(f"Part {i}") for i in range(5)) + "</article></body></html>")
HEADER_TIMEOUT = 1.0


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with served("--rate-limit", "5/minute", "--header-timeout", str(HEADER_TIMEOUT)) as base:
        yield base


def _connect(base: str) -> socket.socket:
    port = int(base.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return sock


def _closed_after(sock: socket.socket, start: float) -> float:
    """Seconds from *start* until the server closes *sock* (reads until end of stream)."""
    while sock.recv(65536):
        pass
    return time.monotonic() - start


def _read_response(sock: socket.socket) -> bytes:
    """One response with a Content-Length body, read whole."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


# --- proxy headers ------------------------------------------------------------------------


def test_forwarded_for_does_not_bypass_the_rate_limit_by_default(server) -> None:
    statuses = []
    for i in range(8):
        r = httpx.post(server + "/read", json={"html": ARTICLE}, timeout=30,
                       headers={"X-Forwarded-For": f"198.51.100.{i + 1}"})
        statuses.append(r.status_code)
    assert statuses == [200] * 5 + [429] * 3


def test_forwarded_for_is_trusted_from_the_listed_proxy_only() -> None:
    with served("--rate-limit", "2/minute", "--forwarded-allow-ips", "127.0.0.1") as base:
        def status(client_ip: str) -> int:
            return httpx.post(base + "/read", json={"html": ARTICLE}, timeout=30,
                              headers={"X-Forwarded-For": client_ip}).status_code

        # the proxy (127.0.0.1 here) says who the client is: each client has its own count
        assert [status("198.51.100.1"), status("198.51.100.1"), status("198.51.100.2")] == [200, 200, 200]
        assert status("198.51.100.1") == 429


def test_forwarded_allow_ips_must_be_addresses() -> None:
    proc = subprocess.run([sys.executable, "-m", "unclutter", "serve", "--forwarded-allow-ips", "proxy.local"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "--forwarded-allow-ips" in proc.stderr and "Traceback" not in proc.stderr


# --- slow clients ----------------------------------------------------------------------------


def test_a_partial_request_head_is_closed_after_the_header_timeout(server) -> None:
    with _connect(server) as sock:
        start = time.monotonic()
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: head incomplete
        elapsed = _closed_after(sock, start)
    assert HEADER_TIMEOUT * 0.8 < elapsed < HEADER_TIMEOUT + 3, elapsed
    assert httpx.get(server + "/healthz", timeout=5).status_code == 200  # others are served as usual


def test_a_head_sent_byte_by_byte_does_not_restart_the_timer(server) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"x" * 40 + b"\r\n\r\n"
    with _connect(server) as sock:
        start = time.monotonic()
        sent = 0
        try:
            for byte in head:
                sock.sendall(bytes([byte]))
                sent += 1
                time.sleep(0.1)  # the whole head would take 6.6 s
        except (BrokenPipeError, ConnectionResetError):
            pass
        elapsed = _closed_after(sock, start)
    assert sent < len(head) and elapsed < HEADER_TIMEOUT + 3, (sent, elapsed)


def test_the_timer_restarts_for_each_request_on_a_keep_alive_connection(server) -> None:
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with _connect(server) as sock:
        for _ in range(2):  # requests sent in time are answered on the same connection
            time.sleep(HEADER_TIMEOUT * 0.6)
            sock.sendall(request)
            assert _read_response(sock).startswith(b"HTTP/1.1 200 ")
        start = time.monotonic()
        sock.sendall(request[:20])
        elapsed = _closed_after(sock, start)
    assert HEADER_TIMEOUT * 0.8 < elapsed < HEADER_TIMEOUT + 3, elapsed


def test_connections_beyond_the_cap_get_503() -> None:
    with served("--max-connections", "3") as base:
        idle = [_connect(base) for _ in range(3)]
        try:
            time.sleep(0.3)  # (accepted by the server)
            r = httpx.get(base + "/healthz", timeout=5)
            assert r.status_code == 503
        finally:
            for sock in idle:
                sock.close()
        end = time.monotonic() + 5
        while httpx.get(base + "/healthz", timeout=5).status_code != 200:
            assert time.monotonic() < end, "the cap did not free up"
            time.sleep(0.1)
