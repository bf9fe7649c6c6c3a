"""The command line refuses a loopback URL under the default fetch policy."""

from __future__ import annotations

import subprocess
import sys

try:
    from . import fetch_servers  # type: ignore[no-redef]
except ImportError:
    import fetch_servers  # type: ignore[no-redef]


def test_cli_refuses_loopback_with_exit_code_3_and_one_line() -> None:
    with fetch_servers.LocalServer({"/": fetch_servers.page()}) as srv:
        proc = subprocess.run(
            [sys.executable, "-m", "unclutter", srv.url("/")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert srv.requests == []  # refused before any connection
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "127.0.0.1" in lines[0] and "loopback" in lines[0]
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_cli_fetches_an_allowed_local_page_end_to_end() -> None:
    article_html = (
        "<html><head><title>Local story</title></head><body><nav><a href='/'>Home</a></nav><article>"
        + "<p>A paragraph served by the local origin, with commas, clauses, and enough words.</p>" * 6
        + "</article></body></html>"
    ).encode()
    with fetch_servers.LocalServer({"/story": fetch_servers.page(article_html)}) as srv:
        port = srv.url("/").split(":")[2].split("/")[0]
        proc = subprocess.run(
            [sys.executable, "-m", "unclutter", srv.url("/story"), "-f", "json",
             "--allow-private", "127.0.0.1", "--allow-port", port],
            capture_output=True, text=True, timeout=60,
        )
    assert proc.returncode == 0, proc.stderr
    import json

    d = json.loads(proc.stdout)
    assert d["title"] == "Local story" and "served by the local origin" in d["text"]
    assert "Home" not in d["text"] and d["url"].endswith("/story")
