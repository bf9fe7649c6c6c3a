"""``unclutter serve`` as a real server for tests: a subprocess on 127.0.0.1, a free port."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(*options: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``unclutter serve OPTIONS`` on 127.0.0.1, a free port (``env`` added to the
    environment); yields its base URL once /healthz answers, stops it afterwards, and
    checks that it printed no traceback."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "unclutter", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--no-access-log", "--log-level", "warning", "--max-jobs", "1", *options],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, **(env or {})},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "exited"
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
    assert proc.stderr is not None and b"Traceback" not in proc.stderr.read()
