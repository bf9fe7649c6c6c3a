"""The command line refuses a loopback URL under the default fetch policy (issue 3)."""

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
