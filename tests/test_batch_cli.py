"""The batch command: `unclutter SOURCE... [-i LIST] -o OUT`, resumable after kill -9."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time

import pytest

import fetch_servers

BODY = ("<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav><article><h1>{title}</h1>"
        + "<p>Paragraph {n} tells of lighthouses, keepers and the long winter nights on the coast. </p>" * 15
        + "</article></body></html>")


def run(*args, input=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "unclutter", *map(str, args)], capture_output=True, text=True,
                          input=input, timeout=timeout)


def rows(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def without_time(records):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


@pytest.fixture()
def pages(tmp_path):
    root = tmp_path / "site"
    root.mkdir()
    for i in range(6):
        (root / f"p{i}.html").write_text(BODY.format(title=f"Page {i}", n=i), encoding="utf-8")
    return root


def test_a_folder_becomes_json_lines_with_a_summary(pages, tmp_path):
    out = tmp_path / "out.jsonl"
    proc = run(pages, "-o", out, "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    got = rows(out)
    assert [r["title"] for r in got] == [f"Page {i}" for i in range(6)]
    assert "6 pages in" in proc.stderr and "status: ok 6" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_failed_pages_are_error_rows_and_exit_status_8(pages, tmp_path):
    (pages / "broken.html").write_bytes(b"\x00\x01\x02\x03" * 100)
    out = tmp_path / "out.jsonl"
    proc = run(pages, "-o", out, "--workers", "1")
    assert proc.returncode == 8, proc.stderr
    assert "1 of 7 pages failed" in proc.stderr and "BinaryInputError 1" in proc.stderr
    assert len(rows(out)) == 7
    only = tmp_path / "errors.jsonl"
    proc = run(pages, "-o", only, "--errors-only", "--quiet")
    assert proc.returncode == 8 and proc.stderr.count("\n") == 1  # --quiet: only the error line
    assert [r["error_kind"] for r in rows(only)] == ["BinaryInputError"]


def test_lists_of_paths_from_a_file_and_from_stdin(pages, tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_text(f"# pages\n{pages / 'p1.html'}\n\n{pages / 'p0.html'}\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    assert run("-i", listing, "-o", out, "--quiet").returncode == 0
    assert [r["title"] for r in rows(out)] == ["Page 1", "Page 0"]
    out2 = tmp_path / "b.jsonl"
    proc = run("-i", "-", "-o", out2, "--quiet", input=f"{pages / 'p2.html'}\n")
    assert proc.returncode == 0, proc.stderr
    assert [r["title"] for r in rows(out2)] == ["Page 2"]


def test_records_stream_to_standard_output_with_dash(pages, tmp_path):
    (pages / "broken.html").write_bytes(b"\x00\x01\x02\x03" * 100)
    proc = run(pages, "-o", "-", "--workers", "2")
    assert proc.returncode == 8, proc.stderr
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    # input order (sorted names: broken.html first), one JSON object a line, the error row among them
    assert [r["title"] for r in got] == [None] + [f"Page {i}" for i in range(6)]
    assert got[0]["error_kind"] == "BinaryInputError" and "1 of 7 pages failed" in proc.stderr
    assert not list(tmp_path.glob("*.parts")) and not list(pages.glob("*.parts"))  # nothing written to disk


def test_a_reader_closing_standard_output_ends_the_run_quietly(pages, tmp_path):
    for i in range(6, 40):
        (pages / f"p{i}.html").write_text(BODY.format(title=f"Page {i}", n=i), encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "unclutter", str(pages), "-o", "-", "--workers", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    _, err = proc.communicate(timeout=120)
    assert json.loads(first)["status"] == "ok"
    assert proc.returncode == 0 and "Traceback" not in err


def test_a_closed_standard_output_is_an_output_error(pages):
    for args in ((pages / "p0.html",), (pages, "-o", "-")):
        proc = subprocess.run([sys.executable, "-m", "unclutter", *map(str, args)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, timeout=120, pass_fds=(),
                              preexec_fn=lambda: __import__("os").close(1))
        assert proc.returncode == 7 and "standard output: it is closed" in proc.stderr, proc.stderr


def test_a_folder_output_mirrors_the_input_names(pages, tmp_path):
    out = tmp_path / "md"
    assert run(pages, "-o", out, "--quiet", "-f", "json").returncode == 0
    assert sorted(p.name for p in out.glob("*.json")) == [f"p{i}.json" for i in range(6)]
    assert json.loads((out / "p3.json").read_text())["title"] == "Page 3"


def test_batch_usage_errors_are_one_line(pages, tmp_path):
    proc = run(pages)
    assert proc.returncode == 2 and "needs -o OUT" in proc.stderr
    proc = run(pages, "-o", tmp_path / "x.jsonl", "-f", "html")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    # folders without a page (an empty one, a glob matching nothing): a usage error, no output
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in ((empty,), (pages, "--include", "*.htm")):
        proc = run(*args, "-o", tmp_path / "none.jsonl")
        assert proc.returncode == 2 and "no pages found" in proc.stderr and proc.stderr.count("\n") == 1
        assert not (tmp_path / "none.jsonl").exists()
    one = pages / "p0.html"
    proc = run(one, pages / "p1.html", "-o", tmp_path / "two.jsonl")
    assert proc.returncode == 0 and "2 pages in" in proc.stderr
    proc = run(one, "-o", tmp_path / "one.jsonl", "-i", "-", input="")
    assert proc.returncode == 0 and "1 page in" in proc.stderr, proc.stderr


def test_options_for_one_page_are_refused_in_a_batch_not_ignored(pages, tmp_path):
    for flags in (("--summary",), ("--chunks", "4k"), ("--explain",), ("--summary", "--explain")):
        out = tmp_path / "x.jsonl"
        proc = run(pages, "-o", out, *flags)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, (flags, proc.stderr)
        assert all(f in proc.stderr for f in flags if f.startswith("--")) and "for one page" in proc.stderr
        assert not out.exists()
    proc = run(pages / "p1.html", "--summary", "-f", "json")  # one page: as before
    assert proc.returncode == 0 and json.loads(proc.stdout)["summary"]
    # one page's chunks into a .jsonl file is no batch: the file holds the chunks
    proc = run(pages / "p1.html", "--chunks", "200", "-o", tmp_path / "chunks.jsonl")
    assert proc.returncode == 0, proc.stderr
    lines = rows(tmp_path / "chunks.jsonl")
    assert len(lines) > 1 and all("tokens" in c and c["tokens"] <= 200 for c in lines)
    proc = run(pages, "-o", tmp_path / "y.jsonl", "--summary-sentences", "2")
    assert proc.returncode == 2 and "implying it" in proc.stderr


def test_one_page_without_o_is_unchanged(pages):
    proc = run(pages / "p1.html")
    assert proc.returncode == 0 and proc.stdout.startswith("# Page 1")


def many_pages(tmp_path, n: int):
    """A folder of ``n`` pages, and the batch command's arguments writing them to ``out``
    in shards of 3 with one worker."""
    root = tmp_path / "many"
    root.mkdir()
    for i in range(n):
        (root / f"p{i:02d}.html").write_text(BODY.format(title=f"Page {i}", n=i), encoding="utf-8")
    return root, lambda out: [sys.executable, "-m", "unclutter", str(root), "-o", str(out), "--quiet",
                              "--shard-size", "3", "--workers", "1"]


def test_killed_runs_resume_to_the_uninterrupted_output(tmp_path):
    root, command = many_pages(tmp_path, 120)
    full = tmp_path / "full.jsonl"
    assert subprocess.run(command(full), capture_output=True, timeout=300).returncode == 0
    out = tmp_path / "resumed.jsonl"
    rng = random.Random(7)
    args = command(out)
    kills = 0
    for _ in range(3):
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        parts = tmp_path / "resumed.jsonl.parts"
        shards = len(list(parts.glob("shard-*"))) if parts.exists() else 0
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline and (
                not parts.exists() or len(list(parts.glob("shard-*"))) <= shards):
            time.sleep(0.01)  # kill once this run has written a shard of its own...
        time.sleep(rng.uniform(0.0, 0.4))  # ...at a random moment after it
        if proc.poll() is not None:  # finished before the kill: nothing left to resume
            break
        proc.send_signal(signal.SIGKILL)
        kills += 1
        proc.wait(30)
    if not out.exists() or (tmp_path / "resumed.jsonl.parts").exists():
        # (killed anywhere: also after the output was joined, before the work folder went)
        final = subprocess.run(args, capture_output=True, text=True, timeout=300)
        assert final.returncode == 0, final.stderr
    assert kills >= 1
    assert without_time(rows(out)) == without_time(rows(full))
    assert not (tmp_path / "resumed.jsonl.parts").exists()


def test_sigterm_ends_a_batch_run_with_one_line_and_the_run_resumes(tmp_path):
    _, command = many_pages(tmp_path, 80)
    out = tmp_path / "out.jsonl"
    args = command(out)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    parts = tmp_path / "out.jsonl.parts"
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline and not list(parts.glob("shard-*")):
        time.sleep(0.01)
    if proc.poll() is not None:
        pytest.skip("the run ended before it could be stopped")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip() == "unclutter: error: interrupted" and "Traceback" not in err
    final = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert final.returncode == 0, final.stderr
    assert [r["title"] for r in rows(out)] == [f"Page {i}" for i in range(80)]


def test_urls_go_through_the_fetch_policy_with_retries(tmp_path):
    calls = {"flaky": 0}

    def flaky(h):
        calls["flaky"] += 1
        if calls["flaky"] == 1:
            h.head(503, [("Content-Length", "0")])
            return
        fetch_servers.page(BODY.format(title="Flaky", n=1).encode())(h)

    routes = {"/ok": fetch_servers.page(BODY.format(title="Fine", n=2).encode()), "/flaky": flaky,
              "/gone": fetch_servers.page(b"no", status=404)}
    with fetch_servers.LocalServer(routes) as srv:
        listing = tmp_path / "urls.txt"
        listing.write_text("\n".join([srv.url("/ok"), srv.url("/flaky"), srv.url("/gone")]), encoding="utf-8")
        refused = tmp_path / "refused.jsonl"
        proc = run("-i", listing, "-o", refused, "--quiet")
        assert proc.returncode == 8
        assert {r["error_kind"] for r in rows(refused)} == {"BlockedAddressError"}
        assert srv.requests == []  # the default policy never connects to loopback
        out = tmp_path / "urls.jsonl"
        proc = run("-i", listing, "-o", out, "--quiet", "--allow-address", "127.0.0.1", "--allow-port", srv.port,
                   "--delay", "0")
    assert proc.returncode == 8, proc.stderr
    got = rows(out)
    assert [r["title"] for r in got] == ["Fine", "Flaky", None]
    assert got[2]["error_kind"] == "HTTPStatusError" and calls["flaky"] == 2


def test_inputs_with_one_name_keep_both_pages_in_a_folder_output(tmp_path):
    for site in ("x", "y"):
        (tmp_path / site).mkdir()
        (tmp_path / site / "index.html").write_text(BODY.format(title=f"Site {site}", n=1), encoding="utf-8")
    out = tmp_path / "coll"
    proc = run(tmp_path / "x" / "index.html", tmp_path / "y" / "index.html", "-o", f"{out}/", "--quiet")
    assert proc.returncode == 0, proc.stderr
    index = [json.loads(line) for line in (out / "index.jsonl").read_text().splitlines()]
    files = [r["file"] for r in index]
    assert files[0] == "index.md" and files[1].startswith("index-") and len(set(files)) == 2
    assert (out / files[1]).read_text(encoding="utf-8").startswith("# Site y")


def test_a_jsonl_or_folder_output_makes_one_page_a_batch(pages, tmp_path):
    out = tmp_path / "one.jsonl"
    assert run(pages / "p1.html", "-o", out, "--quiet").returncode == 0
    assert [r["title"] for r in rows(out)] == ["Page 1"]


def test_batch_limits_out_of_range_are_usage_errors_before_any_output(pages, tmp_path):
    import os

    out = tmp_path / "out.jsonl"
    too_many = str(4 * (os.cpu_count() or 1) + 1)
    for args, says in ((["--page-timeout", "nan"], "--page-timeout"), (["--page-timeout", "inf"], "--page-timeout"),
                       (["--max-memory", "99999999999999"], "--max-memory"), (["--workers", too_many], "per core")):
        proc = run(pages, "-o", out, *args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert says in proc.stderr and "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1
        assert not out.exists() and not list(tmp_path.glob("out.jsonl*"))
    # a list that is a binary file: one line, exit 2
    binary = tmp_path / "list.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    proc = run("-i", binary, "-o", out)
    assert proc.returncode == 2 and "NUL byte" in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_one_page_is_never_written_over_its_own_input(pages):
    page = pages / "p0.html"
    before = page.read_bytes()
    for target in (str(page), str(pages / "." / "p0.html")):
        proc = run(page, "-o", target)
        assert proc.returncode == 2 and "is the input file" in proc.stderr
        assert page.read_bytes() == before
