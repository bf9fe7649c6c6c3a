"""Batch extraction: the record function, the worker pool, WARC input, sharded resumable output."""

from __future__ import annotations

import gzip
import json
import pickle
from pathlib import Path

import pytest

from unclutter import Options
from unclutter.batch import RECORD_FIELDS, PageInput, extract_many, extract_record, run_batch
from unclutter.batch.output import safe_relative_name
from unclutter.batch.sources import expand_sources
from warc_build import response_record, warc_record, write_warc

ARTICLE = ("<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav><article>"
           "<h1>{title}</h1>" + "<p>Sentence number {n} of a long paragraph about rivers and bridges. </p>" * 12
           + "</article><footer>Copyright</footer></body></html>")


def page(title: str, n: int = 1) -> bytes:
    return ARTICLE.replace("{title}", title).replace("{n}", str(n)).encode()


@pytest.fixture()
def folder(tmp_path):
    root = tmp_path / "pages"
    (root / "sub").mkdir(parents=True)
    (root / "a.html").write_bytes(page("Alpha"))
    (root / "sub" / "b.htm").write_bytes(page("Beta"))
    (root / "c.html.gz").write_bytes(gzip.compress(page("Gamma")))
    (root / "empty.html").write_bytes(b"")
    (root / "notes.txt").write_text("not a page")
    return root


def test_record_has_every_column_and_errors_become_rows():
    ok = extract_record(PageInput(id="x", source="mem", data=page("Alpha"), url="https://example.org/a"))
    assert list(ok) == list(RECORD_FIELDS)
    assert ok["status"] == "ok" and ok["title"] == "Alpha" and ok["word_count"] > 50
    assert ok["markdown"].startswith("# Alpha") and ok["token_count"] > 0 and ok["error_kind"] is None
    bad = extract_record(PageInput(id="y", source="mem", data=b"\x00\x01\x02\x03" * 100))
    assert list(bad) == list(RECORD_FIELDS)
    assert bad["status"] == "error" and bad["error_kind"] == "BinaryInputError" and bad["markdown"] is None
    assert "\n" not in bad["error_message"]
    upstream = extract_record(PageInput(id="z", source="f", error=("InputReadError", "f: permission\ndenied")))
    assert upstream["error_kind"] == "InputReadError" and upstream["error_message"] == "f: permission denied"


def test_record_function_and_options_pickle():
    restored = pickle.loads(pickle.dumps((extract_record, Options(include_links=False))))
    record = restored[0](PageInput(id="p", source="mem", data=page("Alpha")), restored[1])
    assert record["status"] == "ok"


def test_folders_expand_sorted_with_include_and_exclude(folder):
    names = [item.name for item in expand_sources([str(folder)])]
    assert [n.split("pages/")[1] for n in names] == ["a.html", "c.html.gz", "empty.html", "sub/b.htm"]
    kept = [i.rel for i in expand_sources([str(folder)], exclude=["sub/*", "empty*"])]
    assert kept == ["a.html", "c.html.gz"]


def test_extract_many_in_order_with_error_rows(folder):
    records = list(extract_many([folder], workers=2))
    assert [r["title"] for r in records] == ["Alpha", "Gamma", None, "Beta"]
    assert [r["status"] for r in records] == ["ok", "ok", "error", "ok"]
    assert records[2]["error_kind"] == "EmptyInputError"
    in_process = list(extract_many([folder], workers=0))
    strip = lambda rs: [{k: v for k, v in r.items() if k != "seconds"} for r in rs]  # noqa: E731
    assert strip(in_process) == strip(records)


def test_a_script_without_the_main_guard_gets_one_clear_error(tmp_path):
    # workers start by importing the main module: a script calling extract_many at its top
    # level runs it again in each of them; they leave quietly and the caller says why
    import subprocess
    import sys

    script = tmp_path / "noguard.py"
    script.write_text("import unclutter\n"
                      "for r in unclutter.extract_many(['<p>' + 'Some words here. ' * 20 + '</p>'], workers=2):\n"
                      "    print(r['status'])\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 1
    assert done.stderr.count('if __name__ == "__main__":') == 1 and "WorkerStartError" in done.stderr
    assert "bootstrapping phase" not in done.stderr and done.stderr.count("Traceback") == 1
    # run_batch: the workers leave before they touch the output, which the caller still holds
    script.write_text("from unclutter.batch import run_batch\n"
                      f"run_batch([{str(script)!r}], {str(tmp_path / 'out.jsonl')!r}, workers=2, quiet=True)\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 1 and done.stderr.count("Traceback") == 1, done.stderr[-2000:]
    assert "WorkerStartError" in done.stderr and "UsageError" not in done.stderr
    # and it is an UnclutterError
    from unclutter import UnclutterError
    from unclutter.errors import WorkerStartError

    assert issubclass(WorkerStartError, UnclutterError) and issubclass(WorkerStartError, RuntimeError)


def test_unordered_mode_returns_every_record(folder):
    ids = sorted(r["id"] for r in extract_many([folder], workers=2, ordered=False))
    assert ids == sorted(i.name for i in expand_sources([str(folder)]))


def test_a_page_past_its_deadline_is_an_error_row_and_the_run_goes_on(tmp_path):
    slow = tmp_path / "slow.html"
    slow.write_bytes(b"<html><body>" + b"<div><p>x y z</p><table><tr><td>a</td></tr></table></div>" * 60000
                     + b"</body></html>")
    fine = tmp_path / "z.html"
    fine.write_bytes(page("Zeta"))
    records = list(extract_many([slow, fine], workers=1, timeout=0.3))
    assert records[0]["status"] == "error" and records[0]["error_kind"] == "TimeoutError"
    assert records[1]["status"] == "ok" and records[1]["title"] == "Zeta"


def test_warc_html_responses_are_pages_others_are_skipped(tmp_path):
    archive = write_warc(tmp_path / "crawl.warc.gz", [
        warc_record("warcinfo", None, b"software: test\r\n", "application/warc-fields"),
        response_record("https://example.org/one", page("One")),
        warc_record("request", "https://example.org/two", b"GET /two HTTP/1.1\r\n\r\n",
                    "application/http; msgtype=request"),
        response_record("https://example.org/logo.png", b"\x89PNG....", "image/png"),
        response_record("https://example.org/latin", page("Caf\xe9").decode().encode("latin-1"),
                        "text/html; charset=iso-8859-1"),
        response_record("https://example.org/bad-charset", page("Odd"), "text/html; charset=x-no-such-thing"),
    ])
    records = list(extract_many([archive], workers=1))
    assert [r["url"] for r in records] == ["https://example.org/one", "https://example.org/latin",
                                           "https://example.org/bad-charset"]
    assert records[0]["title"] == "One" and records[0]["source"].endswith("crawl.warc.gz@0") is False
    assert records[1]["title"] == "Café"
    assert records[2]["status"] == "ok" and records[2]["title"] == "Odd"
    assert all(r["id"].startswith("urn:uuid:") for r in records)


def test_warc_redirects_are_skipped_and_http_errors_are_error_rows(tmp_path):
    from warc_build import http_response

    def status_record(url, status, body):
        return warc_record("response", url, http_response(body, status=status), "application/http; msgtype=response")

    archive = write_warc(tmp_path / "crawl.warc.gz", [
        status_record("https://example.org/old", "301 Moved Permanently", b"<html><body>Moved <a href=/new>here</a>"),
        status_record("https://example.org/new", "200 OK", page("New")),
        status_record("https://example.org/gone", "404 Not Found", page("Not found")),
        status_record("https://example.org/down", "503 Service Unavailable", page("Try later")),
    ])
    records = list(extract_many([archive], workers=1))
    assert [(r["url"], r["status"], r["error_kind"]) for r in records] == [
        ("https://example.org/new", "ok", None),
        ("https://example.org/gone", "error", "HTTPStatusError"),
        ("https://example.org/down", "error", "HTTPStatusError")]
    assert "HTTP 404" in records[1]["error_message"] and records[1]["markdown"] is None
    summary = run_batch([str(archive)], str(tmp_path / "out.jsonl"), workers=1, quiet=True)
    assert summary.skipped_records == 1 and summary.errors == {"HTTPStatusError": 2}


def test_truncated_and_oversized_warc_records_are_error_rows(tmp_path):
    big = response_record("https://example.org/big", b"<p>" + b"a" * (2 * 1024 * 1024) + b"</p>")
    archive = write_warc(tmp_path / "t.warc.gz", [response_record("https://example.org/one", page("One")), big,
                                                  response_record("https://example.org/last", page("Last"))])
    data = archive.read_bytes()
    archive.write_bytes(data[: len(data) - 200])  # the last record is cut short
    s = run_batch([str(archive)], str(tmp_path / "out.jsonl"), workers=1, quiet=True,
                  options=Options(max_input_bytes=1024 * 1024))
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    kinds = [r["error_kind"] for r in rows]
    assert rows[0]["status"] == "ok"
    assert "InputTooLargeError" in kinds and "TruncatedArchiveError" in kinds
    body_cut = write_warc(tmp_path / "b.warc", [response_record("https://example.org/x", page("Cut"))])
    data = body_cut.read_bytes()
    body_cut.write_bytes(data[: len(data) - 300])  # the archive ends inside the page's body
    cut = list(extract_many([body_cut], workers=0))
    assert [r["error_kind"] for r in cut] == ["TruncatedArchiveError"]
    assert s.truncated_archives == 1 and s.failed == 2


@pytest.mark.parametrize("suffix", [".warc", ".warc.gz"])
@pytest.mark.parametrize("damage", ["garbage", "huge length", "negative length", "long header"])
def test_unreadable_data_inside_a_warc_is_one_error_row_and_the_records_after_it_are_read(tmp_path, suffix, damage):
    good = [response_record(f"https://example.org/{i}", page(f"Page {i}")) for i in range(5)]
    bad = good[2]
    if damage == "garbage":
        parts = good[:2] + [b"GARBAGE\r\n" * 20] + good[2:]
    elif damage == "huge length":
        parts = good[:2] + [bad.replace(b"Content-Length: ", b"Content-Length: 1000000000000000", 1)] + good[3:]
    elif damage == "negative length":
        parts = good[:2] + [bad.replace(b"Content-Length: ", b"Content-Length: -", 1)] + good[3:]
    else:
        parts = good[:2] + [bad.replace(b"https://example.org/2", b"https://example.org/" + b"a" * 40_000, 1)] + good[3:]
    archive = write_warc(tmp_path / ("crawl" + suffix), parts)
    records = list(extract_many([archive], workers=1))
    ok = [r["title"] for r in records if r["status"] == "ok"]
    errors = [r["error_kind"] for r in records if r["status"] != "ok"]
    # every good record is read; the damage is one error row (two where the damaged record is
    # itself an HTML response row), in archive order
    expected = ["Page 0", "Page 1", "Page 2", "Page 3", "Page 4"] if damage == "garbage" else [
        "Page 0", "Page 1", "Page 3", "Page 4"]
    assert ok == expected, records
    assert 1 <= len(errors) <= 2 and set(errors) <= {"CorruptArchiveError", "InputTooLargeError",
                                                    "TruncatedArchiveError"}, errors
    assert len({r["id"] for r in records}) == len(records)
    summary = run_batch([str(archive)], str(tmp_path / "out.jsonl"), workers=1, quiet=True)
    assert summary.pages == len(records) and summary.status["ok"] == len(expected)


@pytest.mark.parametrize("name", ["out.jsonl", "out.parquet", "outdir"])
def test_batch_outputs_hold_every_record(folder, tmp_path, name):
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    out = tmp_path / name
    summary = run_batch([str(folder)], str(out), workers=2, shard_size=2, quiet=True)
    assert summary.pages == 4 and summary.status == {"ok": 3, "error": 1}
    assert summary.errors == {"EmptyInputError": 1}
    assert not out.with_name(name + ".parts").exists() and not (out / ".parts").exists()
    if name.endswith(".jsonl"):
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert [r["title"] for r in rows] == ["Alpha", "Gamma", None, "Beta"] and list(rows[0]) == list(RECORD_FIELDS)
    elif name.endswith(".parquet"):
        import pyarrow.parquet as pq

        table = pq.read_table(out)
        assert table.column_names == list(RECORD_FIELDS) and table.num_rows == 4
        assert str(table.schema.field("word_count").type) == "int64"
        assert table.column("title").to_pylist() == ["Alpha", "Gamma", None, "Beta"]
    else:
        assert (out / "a.md").read_text(encoding="utf-8").startswith("# Alpha")
        assert (out / "sub" / "b.md").exists() and (out / "c.md").exists()
        index = [json.loads(line) for line in (out / "index.jsonl").read_text().splitlines()]
        assert [r["file"] for r in index] == ["a.md", "c.md", None, "sub/b.md"]


def test_an_existing_output_is_not_overwritten_unless_asked(folder, tmp_path):
    from unclutter.errors import UsageError

    out = tmp_path / "o.jsonl"
    run_batch([str(folder)], str(out), workers=1, quiet=True)
    with pytest.raises(UsageError, match="already exists"):
        run_batch([str(folder)], str(out), workers=1, quiet=True)
    run_batch([str(folder)], str(out), workers=1, quiet=True, overwrite=True)


def test_an_output_named_like_one_file_of_another_kind_is_refused(folder, tmp_path):
    """``-o out.json`` would be a folder of Markdown files: refused with the names that
    work, before anything is written; an existing folder so named is still a folder."""
    from unclutter.errors import UsageError

    for name in ("out.json", "notes.md", "page.html"):
        with pytest.raises(UsageError, match=r"\.jsonl"):
            run_batch([str(folder)], str(tmp_path / name), workers=1, quiet=True)
        assert not (tmp_path / name).exists()
    (tmp_path / "kept.json").mkdir()
    run_batch([str(folder)], str(tmp_path / "kept.json"), workers=1, quiet=True, overwrite=True)
    assert (tmp_path / "kept.json" / "a.md").exists()


def _pages_and_full_run(tmp_path, n: int) -> tuple[Path, Path]:
    """A folder of ``n`` pages and an uninterrupted run of it in shards of 2 (``full.jsonl``)."""
    root = tmp_path / "many"
    root.mkdir()
    for i in range(n):
        (root / f"p{i}.html").write_bytes(page(f"Page {i}", i))
    full = tmp_path / "full.jsonl"
    run_batch([str(root)], str(full), workers=1, shard_size=2, quiet=True)
    return root, full


def _without_seconds(text: str) -> list[dict]:
    return [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in text.splitlines()]


def test_resume_skips_complete_shards_and_gives_the_same_output(tmp_path):
    root, full = _pages_and_full_run(tmp_path, 9)
    # An interrupted run: shards 0 and 1 written, shard 2 missing, a stray temporary file.
    out = tmp_path / "resumed.jsonl"
    first = run_batch([str(root)], str(tmp_path / "scratch.jsonl"), workers=1, shard_size=2, quiet=True)
    assert first.pages == 9
    parts = tmp_path / "resumed.jsonl.parts"
    parts.mkdir()
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    from unclutter.batch.output import ShardedOutput
    from unclutter.batch.run import run_identity

    ShardedOutput(str(out), run_identity([str(root)], (), (), Options()), shard_size=2).close()  # the manifest
    (parts / "shard-000000.jsonl").write_text("".join(lines[0:2]), encoding="utf-8")
    (parts / "shard-000001.jsonl").write_text("".join(lines[2:4]), encoding="utf-8")
    (parts / ".shard-000002.jsonl.x.tmp").write_text(lines[4][:20], encoding="utf-8")
    summary = run_batch([str(root)], str(out), workers=1, shard_size=2, quiet=True)
    assert summary.resumed == 4 and summary.pages == 5
    assert _without_seconds(out.read_text(encoding="utf-8")) == _without_seconds(full.read_text(encoding="utf-8"))
    assert not parts.exists()


def test_a_run_killed_while_removing_its_work_folder_finishes_on_a_rerun(tmp_path, monkeypatch):
    """Killed after the output was joined, at any point while its work folder was being
    removed: the re-run ends with the same output and no work folder."""
    from unclutter.batch.output import ShardedOutput
    from unclutter.errors import UsageError

    root, full = _pages_and_full_run(tmp_path, 5)
    remove = ShardedOutput._remove
    for kill_at in range(5):  # 3 shards, the lock, the manifest: killed before removal k
        out = tmp_path / f"out{kill_at}.jsonl"
        removed = []

        def killed(path, removed=removed, kill_at=kill_at):
            if len(removed) == kill_at:
                raise KeyboardInterrupt
            removed.append(path.name)
            remove(path)

        monkeypatch.setattr(ShardedOutput, "_remove", staticmethod(killed))
        with pytest.raises(KeyboardInterrupt):
            run_batch([str(root)], str(out), workers=1, shard_size=2, quiet=True)
        monkeypatch.setattr(ShardedOutput, "_remove", staticmethod(remove))
        assert out.exists() and Path(f"{out}.parts").is_dir()
        if kill_at < 4:  # the manifest stands: the re-run joins the shards left again
            run_batch([str(root)], str(out), workers=1, shard_size=2, quiet=True)
        else:  # only the lock was left: the output is complete, as after any finished run
            with pytest.raises(UsageError, match="already exists"):
                run_batch([str(root)], str(out), workers=1, shard_size=2, quiet=True)
        assert _without_seconds(out.read_text(encoding="utf-8")) == _without_seconds(full.read_text(encoding="utf-8"))
        assert not Path(f"{out}.parts").exists()


def test_a_resumed_run_reports_on_the_whole_output_and_clears_a_killed_join(tmp_path):
    """The summary of a resumed run counts the records an earlier run wrote (its failures
    decide the exit status as an uninterrupted run's would), and a temporary file left by
    a join killed midway is removed."""
    from unclutter.batch.output import ShardedOutput
    from unclutter.batch.run import run_identity

    root = tmp_path / "many"
    root.mkdir()
    (root / "p0.html").write_bytes(b"")  # an empty page: an error record
    for i in range(1, 5):
        (root / f"p{i}.html").write_bytes(page(f"Page {i}", i))
    full = tmp_path / "full.jsonl"
    whole = run_batch([str(root)], str(full), workers=1, shard_size=2, quiet=True)
    assert whole.failed == 1
    out = tmp_path / "out.jsonl"
    ShardedOutput(str(out), run_identity([str(root)], (), (), Options()), shard_size=2).close()
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    (tmp_path / "out.jsonl.parts" / "shard-000000.jsonl").write_text("".join(lines[:2]), encoding="utf-8")
    stale = tmp_path / ".out.jsonl.k3j2x9.tmp"
    stale.write_text(lines[0], encoding="utf-8")
    summary = run_batch([str(root)], str(out), workers=1, shard_size=2, quiet=True)
    assert summary.resumed == 2 and summary.pages == 3
    assert summary.failed == 1 and summary.status == whole.status and summary.errors == whole.errors
    assert not stale.exists() and len(out.read_text(encoding="utf-8").splitlines()) == 5


def test_a_damaged_shard_is_run_again_and_an_emptied_work_folder_leaves_the_output_complete(tmp_path):
    """A shard damaged after it was written is not read back: its inputs (and those after
    it) are run again. A work folder a finished run left empty (stopped while removing it)
    does not let another command replace the complete output."""
    from unclutter.batch.output import ShardedOutput
    from unclutter.batch.run import run_identity
    from unclutter.errors import UsageError

    root, full = _pages_and_full_run(tmp_path, 5)
    out = tmp_path / "out.jsonl"
    ShardedOutput(str(out), run_identity([str(root)], (), (), Options()), shard_size=2).close()
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    parts = tmp_path / "out.jsonl.parts"
    (parts / "shard-000000.jsonl").write_text("".join(lines[:2]), encoding="utf-8")
    (parts / "shard-000001.jsonl").write_text('{"x\n', encoding="utf-8")
    summary = run_batch([str(root)], str(out), workers=1, shard_size=2, quiet=True)
    assert summary.resumed == 2 and summary.pages == 3
    assert _without_seconds(out.read_text(encoding="utf-8")) == _without_seconds(full.read_text(encoding="utf-8"))
    parts.mkdir()
    (parts / "lock").write_bytes(b"")
    with pytest.raises(UsageError, match="already exists"):
        run_batch([str(root / "p0.html")], str(out), workers=1, quiet=True)
    assert not parts.exists() and len(out.read_text(encoding="utf-8").splitlines()) == 5


def test_a_partial_run_of_another_command_is_refused(folder, tmp_path):
    from unclutter.errors import UsageError

    out = tmp_path / "o.jsonl"
    (tmp_path / "o.jsonl.parts").mkdir()
    (tmp_path / "o.jsonl.parts" / "manifest.json").write_text('{"identity": "other"}')
    with pytest.raises(UsageError, match="different command"):
        run_batch([str(folder)], str(out), workers=1, quiet=True)


def test_output_names_stay_inside_the_output_folder():
    assert safe_relative_name("../../etc/passwd.html", "x") == "etc/passwd"
    assert safe_relative_name("/abs/a b.html", "x") == "abs/a_b"
    name = safe_relative_name("https://example.org/a/b?q=1", "urn:uuid:1")
    assert name.startswith("example.org/a/b-") and ".." not in name


def test_a_record_of_50_mb_is_an_error_row_without_being_read(tmp_path):
    body = b"<html><body><p>" + b"x" * (50 * 1024 * 1024) + b"</p></body></html>"
    archive = write_warc(tmp_path / "big.warc.gz", [response_record("https://example.org/huge", body),
                                                    response_record("https://example.org/one", page("One"))])
    del body
    records = list(extract_many([archive], workers=0))
    assert [r["error_kind"] for r in records] == ["InputTooLargeError", None]
    assert "over the limit" in records[0]["error_message"] and records[1]["title"] == "One"


def test_hostile_inputs_are_error_rows_and_the_run_goes_on(tmp_path):
    import os

    root = tmp_path / "in"
    root.mkdir()
    (root / "a.html").write_bytes(page("Alpha"))
    os.mkfifo(root / "b.html")  # a named pipe would block a reader forever
    (root / ".parts").mkdir()
    (root / ".parts" / "manifest.html").write_bytes(page("Hidden name"))
    listing = [str(root), "bad\x00name.html", "http://[::1/"]
    out = tmp_path / "out"
    from unclutter.batch.fetching import BatchFetcher

    summary = run_batch(listing, str(out) + "/", workers=1, quiet=True, page_format="json", fetcher=BatchFetcher())
    index = [json.loads(line) for line in (out / "index.jsonl").read_text().splitlines()]
    kinds = [r["error_kind"] for r in index]
    assert summary.pages == 5 and kinds.count(None) == 2 and "InputReadError" in kinds and "PolicyError" in kinds
    assert not (out / ".parts").exists()
    files = [r["file"] for r in index if r["file"]]
    assert all(not f.startswith(".") for f in files) and all((out / f).exists() for f in files)


def test_overwrite_replaces_only_what_the_run_writes(folder, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    (out / "index.jsonl").write_text("{}\n")
    run_batch([str(folder)], str(out) + "/", workers=1, quiet=True, overwrite=True)
    assert (out / "notes.txt").read_text() == "keep me" and (out / "a.md").exists()


def test_a_folder_of_the_users_own_files_is_not_written_into_without_overwrite(folder, tmp_path):
    from unclutter.core.errors import UsageError

    out = tmp_path / "notes"
    out.mkdir()
    (out / "a.md").write_text("MINE")
    with pytest.raises(UsageError, match="already holds files"):
        run_batch([str(folder)], str(out) + "/", workers=1, quiet=True)
    assert (out / "a.md").read_text() == "MINE" and not (out / ".parts").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    run_batch([str(folder)], str(empty) + "/", workers=1, quiet=True)  # an empty folder is fine
    assert (empty / "a.md").exists()


def test_duplicate_inputs_and_non_utf8_names_keep_every_page(tmp_path):
    import os

    root = tmp_path / "dup"
    root.mkdir()
    odd = os.fsdecode(b"bad\xff\xfename.html")
    (root / odd).write_bytes(page("Odd"))
    p = str(root / odd)
    out = tmp_path / "o"
    run_batch([p, p, p], str(out) + "/", workers=1, quiet=True)
    index = [json.loads(line) for line in (out / "index.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len({r["file"] for r in index}) == 3 and all((out / r["file"]).exists() for r in index)
    assert "\\xff" in index[0]["id"]
    pytest.importorskip("pyarrow")
    run_batch([p], str(tmp_path / "o.parquet"), workers=1, quiet=True)


def test_workers_are_recycled_without_losing_or_reordering_pages():
    from unclutter.batch.workers import map_records

    pages = [(i, PageInput(id=f"p{i}", source="mem", data=page(f"Page {i}"))) for i in range(5)]
    got = list(map_records(pages, workers=1, recycle_after=2))
    assert [i for i, _ in got] == list(range(5)) and [r["title"] for _, r in got] == [f"Page {i}" for i in range(5)]


def _hang_or_measure(page, options):
    """A record function for the pool tests: hangs on the page ``hang``, else gives the
    page's size (module-level: the workers import it)."""
    import time

    if page.id == "hang":
        time.sleep(60)
    return {"id": page.id, "size": len(page.data)}


def _crash_or_stamp(page, options):
    """A record function for the pool tests: the page ``crash`` kills its worker; the page
    ``leave`` is done, then its worker dies before the next; the others give the time
    they were extracted at (module-level: the workers import it)."""
    import os
    import threading
    import time

    if page.id == "crash":
        os._exit(3)
    if page.id == "leave":
        threading.Timer(0.2, os._exit, args=(4,)).start()
    return {"id": page.id, "at": time.monotonic()}


def test_a_worker_that_dies_costs_only_its_page_after_one_retry():
    from unclutter.batch.workers import CRASH_RETRIES, map_records

    assert CRASH_RETRIES == 1
    names = ["a", "crash", "b", "leave", "c", "d"]
    pages = [(i, PageInput(id=n, source="mem", data=b"<p>x</p>")) for i, n in enumerate(names)]
    got = list(map_records(pages, workers=1, timeout=20, record_fn=_crash_or_stamp))
    assert [i for i, _ in got] == list(range(len(names)))
    assert got[1][1]["error_kind"] == "WorkerCrashError"  # (twice: it is the page)
    # the page queued behind "leave" (its worker died idle) is extracted by a fresh worker
    assert all(r.get("id") == n for (_, r), n in zip(got, names) if n != "crash")


def test_the_reorder_buffer_is_bounded_while_a_page_hangs(monkeypatch):
    """In input order, a hung first page holds the records after it back: no more than
    REORDER_RECORDS_PER_WORKER per worker are taken meanwhile (then the parent waits)."""
    import time

    from unclutter.batch import workers

    monkeypatch.setattr(workers, "REORDER_RECORDS_PER_WORKER", 3)
    pages = [(0, PageInput(id="hang", source="mem", data=b"h"))] + [
        (i, PageInput(id=f"p{i}", source="mem", data=b"<p>x</p>")) for i in range(1, 200)]
    start = time.monotonic()
    got = list(workers.map_records(pages, workers=2, timeout=3.0, record_fn=_hang_or_stamp))
    assert [i for i, _ in got] == list(range(200)) and got[0][1]["error_kind"] == "TimeoutError"
    early = [r for _, r in got[1:] if r["at"] < start + 2.5]  # extracted while page 0 hung
    assert len(early) <= 3 * 2 + 2  # the buffer, plus a page in work and one queued


def _hang_or_stamp(page, options):
    import time

    if page.id == "hang":
        time.sleep(60)
    return {"id": page.id, "at": time.monotonic()}


def test_pages_queued_behind_a_hung_page_are_extracted_and_the_parent_never_blocks():
    """A worker holds its page and the next (PREFETCH): a page larger than any pipe buffer
    queued behind a page that hangs goes to the fresh worker, in order, none lost."""
    import time

    from unclutter.batch.workers import PREFETCH, map_records

    assert PREFETCH >= 1
    big = b"<p>" + b"x" * (8 << 20) + b"</p>"  # 8 MiB: the parent cannot write it into a busy worker's pipe at once
    pages = [(0, PageInput(id="a", source="mem", data=b"<p>a</p>")), (1, PageInput(id="hang", source="mem", data=b"h")),
             (2, PageInput(id="big", source="mem", data=big)), (3, PageInput(id="z", source="mem", data=b"zz"))]
    t = time.monotonic()
    got = list(map_records(pages, workers=1, timeout=1.0, record_fn=_hang_or_measure))
    assert time.monotonic() - t < 30  # (the hung page is cut at its deadline, not at 60 s)
    assert [i for i, _ in got] == [0, 1, 2, 3]
    assert got[1][1]["error_kind"] == "TimeoutError"
    assert got[2][1] == {"id": "big", "size": len(big)} and got[3][1] == {"id": "z", "size": 2}


def test_a_second_run_on_the_same_output_is_refused_while_the_first_writes(folder, tmp_path):
    from unclutter.batch.output import ShardedOutput
    from unclutter.batch.run import run_identity
    from unclutter.errors import UsageError

    out = tmp_path / "o.jsonl"
    first = ShardedOutput(str(out), run_identity([str(folder)], (), (), Options()))
    try:
        with pytest.raises(UsageError, match="another run"):
            run_batch([str(folder)], str(out), workers=1, quiet=True)
    finally:
        first.close()
    assert run_batch([str(folder)], str(out), workers=1, quiet=True).pages == 4


def test_records_follow_the_styles_mode(tmp_path):
    from unclutter import Options

    styled = page("Alpha").replace(b"<article>", b"<style>.x{display:none}</style><article><p class=x>Ruled out</p>")
    data = PageInput(id="s", source="mem", data=styled)
    assert "Ruled out" not in extract_record(data)["text"]
    assert "Ruled out" in extract_record(data, Options(styles="inline"))["text"]
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.html").write_bytes(styled)
    out = tmp_path / "out.jsonl"
    run_batch([str(folder)], str(out), workers=1, quiet=True, options=Options(styles="inline"))
    rows = [json.loads(line) for line in out.read_text().splitlines() if line]
    assert len(rows) == 1 and "Ruled out" in rows[0]["text"]


def test_list_files_are_read_line_by_line_and_bounded(tmp_path):
    import os

    from unclutter.batch.sources import MAX_LIST_LINE_BYTES, read_list
    from unclutter.errors import UsageError

    good = tmp_path / "good.html"
    good.write_bytes(page("Good"))
    odd = os.fsencode(str(tmp_path)) + b"/caf\xe9-latin1.html"  # a name that is not UTF-8
    with open(odd, "wb") as handle:
        handle.write(page("Odd name"))
    listing = tmp_path / "list.txt"
    listing.write_bytes(b"# pages\n\n" + os.fsencode(str(good)) + b"\r\n" + odd + b"\n" + os.fsencode(str(good)) + b"\n"
                        + b"y" * 300 + b"\n")
    names = read_list(str(listing))
    assert names[0] == str(good) and os.fsencode(names[1]) == odd and len(names) == 4
    # a name too long for the file system is an error row with a bounded message
    records = list(extract_many(names, workers=1))
    assert [r["status"] for r in records] == ["ok", "ok", "ok", "error"]
    assert records[1]["title"] == "Odd name" and "\\xe9" in records[1]["id"]
    assert records[3]["error_kind"] == "InputReadError" and len(records[3]["error_message"]) < 400
    # a binary file or a line without end is no list: one usage error, read no further
    (tmp_path / "binary.txt").write_bytes(b"pages/a.html\n\x00\x01\x02" + b"z" * 100)
    with pytest.raises(UsageError, match="NUL byte"):
        read_list(str(tmp_path / "binary.txt"))
    (tmp_path / "endless.txt").write_bytes(b"x" * (MAX_LIST_LINE_BYTES + 10))
    with pytest.raises(UsageError, match="line 1 .* over"):
        read_list(str(tmp_path / "endless.txt"))
    with pytest.raises(UsageError, match="more than 2 entries"):
        read_list(str(listing), limit=2)
    # a byte order mark before the first name is no part of it
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + os.fsencode(str(good)) + b"\n")
    assert read_list(str(tmp_path / "bom.txt")) == [str(good)]


def test_a_fetch_thread_waiting_out_a_host_delay_stops_when_the_run_stops():
    import threading
    import time

    from unclutter.batch.fetching import BatchFetcher, _Stopped

    fetcher = BatchFetcher(delay=3600.0)
    gate = fetcher.gate
    gate.enter("example.org")  # the first request: the next one may start in an hour
    gate.leave("example.org")
    outcome: list = []

    def second():
        try:
            gate.enter("example.org")
            outcome.append("entered")
        except _Stopped:
            outcome.append("stopped")

    waiter = threading.Thread(target=second)
    waiter.start()
    time.sleep(0.2)
    assert outcome == [] and waiter.is_alive()  # waiting out the delay
    fetcher._stop.set()  # what closing the fetch window does (Ctrl-C, SIGTERM)
    waiter.join(10)
    assert not waiter.is_alive() and outcome == ["stopped"]
    # the host's slot was given back: a later run's gate is not blocked by the stopped wait
    assert gate.sems["example.org"].acquire(timeout=0)
