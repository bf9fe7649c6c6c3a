"""The CLI on real pages and on bad input: exit codes, one-line errors, atomic output."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, case_html, find_case

EXAMPLE = REPO / "examples" / "wikipedia-mozilla.html"


def run(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "unclutter", *args], input=stdin, capture_output=True, timeout=120, cwd=cwd
    )


def assert_clean_error(proc: subprocess.CompletedProcess, code: int, words: str) -> None:
    err = proc.stderr.decode()
    assert proc.returncode == code, (proc.returncode, err)
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("unclutter: error:") and words in err.lower(), err


def test_example_page_markdown():
    proc = run(str(EXAMPLE), "--url", "https://en.wikipedia.org/wiki/Mozilla")
    assert proc.returncode == 0, proc.stderr.decode()
    md = proc.stdout.decode()
    assert md.startswith("# Mozilla\n")
    assert "The Mozilla community uses, develops, spreads and supports Mozilla products" in md
    assert "Jump to navigation" not in md and "Privacy policy" not in md


@pytest.mark.parametrize("fmt", ["json", "text", "html"])
def test_formats(fmt, tmp_path):
    out = tmp_path / f"out.{fmt}"
    proc = run(str(EXAMPLE), "-f", fmt, "-o", str(out))
    assert proc.returncode == 0, proc.stderr.decode()
    body = out.read_text(encoding="utf-8")
    if fmt == "json":
        d = json.loads(body)
        for key in ("title", "byline", "date_published", "site_name", "language", "canonical_url",
                    "lead_image", "excerpt", "word_count", "reading_time_min", "markdown", "text",
                    "toc", "tokens_raw", "tokens_clean", "tokenizer"):
            assert key in d, key
        assert d["tokens_clean"] < d["tokens_raw"] and d["word_count"] > 500
        assert all(d["markdown"][t["offset"]:].startswith("#") for t in d["toc"])
    elif fmt == "html":
        assert "Content-Security-Policy" in body and "<script" not in body.lower()
        assert 'id="history"' in body or "id=" in body
    else:
        assert "#" not in body.splitlines()[0]
        assert "The Mozilla community uses, develops, spreads and supports Mozilla products" in " ".join(body.split())
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".unclutter-")]


def test_stdin_and_explain():
    proc = run("-", "--explain", stdin=EXAMPLE.read_bytes())
    assert proc.returncode == 0
    err = proc.stderr.decode()
    assert "trace: select: attempt" in err and "removed [prune]" in err
    # elements without text are counted per reason, not listed one by one (-f json lists them)
    assert not re.search(r"^removed .* 0 chars:", err, re.M)
    counts = re.findall(r"^removed \[\w+\] .*: (\d+) elements? without text$", err, re.M)
    data = json.loads(run("-", "--explain", "-f", "json", stdin=EXAMPLE.read_bytes()).stdout)
    assert sum(map(int, counts)) == sum(1 for r in data["removed"] if not r["chars"]) > 0


@pytest.mark.parametrize(
    "dataset,case,present,absent",
    [
        # hand-picked key sentences and boilerplate of an AEB news page
        ("aeb", "ad826691", ["Amazon discounts MacBook models from $700", "Today only, Amazon offers"],
         ["Trevor Daugherty is the Senior Editor", "Click to share on Facebook"]),
        ("readability-tests", "ars-1", ["A flaw in the wildly popular online game Minecraft makes it easy"],
         ["Click here to read", "Reader comments"]),
        # wcxb-dev pages of several types, checked with the dataset's own with/without snippets
        ("wcxb-dev", "0001", None, None),
        ("wcxb-dev", "0009", None, None),
        ("wcxb-dev", "0533", None, None),
        ("wcxb-dev", "0610", None, None),
        ("wcxb-dev", "0423", None, None),
    ],
)
def test_cli_on_shared_pages(dataset, case, present, absent, tmp_path):
    c = find_case(dataset, case)
    present = present if present is not None else c["with"]
    absent = absent if absent is not None else (c.get("without") or [])
    page = tmp_path / "page.html"
    page.write_bytes(case_html(dataset, c))
    proc = run(str(page), "--url", c["url"], "-f", "text")
    assert proc.returncode == 0, proc.stderr.decode()
    text = " ".join(proc.stdout.decode().split())
    for s in present:
        assert " ".join(s.split()) in text, s
    for s in absent:
        assert s not in text, s


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content,code,words",
    [
        (b"", 5, "empty"),
        (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", 5, "pdf"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", 5, "png"),
        (bytes(range(256)) * 64, 5, "binary"),
        (b"<div>" * 100_000, 5, "nested"),
        (b"<html><body><nav><a href='/'>Home</a></nav></body></html>", 6, "no main content"),
        (b"<html><body>" + b"<p></p>" * 1000 + b"</body></html>", 6, "no main content"),
    ],
)
def test_bad_input_clean_errors(content, code, words, tmp_path):
    src = tmp_path / "in.html"
    src.write_bytes(content)
    out = tmp_path / "out.md"
    proc = run(str(src), "-o", str(out))
    assert_clean_error(proc, code, words)
    assert not out.exists()
    assert os.listdir(tmp_path) == ["in.html"]


def test_usage_errors():
    assert_clean_error(run("/no/such/file.html"), 2, "no such file")
    assert_clean_error(run(str(EXAMPLE), "-f", "pdf"), 2, "invalid value")
    assert_clean_error(run(str(EXAMPLE), "--extractor", "magic"), 2, "unknown extractor")


def test_hostile_inputs_do_not_crash(tmp_path):
    cases = {
        "nul.html": b"<p>nul\x00bytes\x00inside, with enough text, commas, and clauses to be content.</p>" * 5,
        "utf16.html": ("<html><body>" + "<p>Wide text without a byte order mark, with commas, and words.</p>" * 5
                       + "</body></html>").encode("utf-16-le"),
        "bigattr.html": b"<p title='" + b"a" * 3_000_000 + b"'>Text with a huge attribute, commas, and more words to keep it.</p>" * 2,
        "xxe.html": b'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY lol "lol">]>'
                    b"<html xmlns='http://www.w3.org/1999/xhtml'><body><p>&xxe; &lol; An XHTML page, with commas, words and sentences.</p></body></html>",
        "many.html": b"<html><body>" + b"<p>Para, with a comma.</p>" * 300_000 + b"</body></html>",
    }
    for name, content in cases.items():
        src = tmp_path / name
        src.write_bytes(content)
        proc = run(str(src), "-f", "text")
        err = proc.stderr.decode()
        assert "Traceback" not in err, (name, err)
        assert proc.returncode in (0, 5, 6), (name, proc.returncode, err)
        if name == "xxe.html":
            assert "root:" not in proc.stdout.decode()
        if name in ("utf16.html", "nul.html"):
            assert proc.returncode == 0, (name, err)


def test_html_view_shows_summary_and_section_summaries(tmp_path):
    out = tmp_path / "view.html"
    proc = run(str(EXAMPLE), "-f", "html", "--summary", "-o", str(out))
    assert proc.returncode == 0, proc.stderr.decode()
    body = out.read_text(encoding="utf-8")
    assert '<section class="summary"' in body and 'class="section-summary"' in body
    assert "<script" not in body.lower()


# --- input and output edge cases ------------------------------------------------------


def test_oversized_inputs_are_refused_without_reading_them_whole(tmp_path):
    big = tmp_path / "big.html"
    with open(big, "wb") as fh:  # sparse: 16 MB on paper, nothing on disk
        fh.truncate(16 * 1024 * 1024)
    assert_clean_error(run(str(big)), 5, "limit")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"yes '<p>a</p>' > {fifo}"])
    try:
        assert_clean_error(run(str(fifo)), 5, "limit")
    finally:
        writer.kill()
        writer.wait()


def test_output_targets_are_checked(tmp_path):
    assert_clean_error(run(str(EXAMPLE), "-o", str(tmp_path / "missing" / "out.md")), 2, "does not exist")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_clean_error(run(str(EXAMPLE), "-o", str(fifo)), 2, "not a regular file")
    assert stat_is_fifo(fifo)
    real = tmp_path / "real.md"
    real.write_text("old")
    os.chmod(real, 0o644)
    link = tmp_path / "link.md"
    link.symlink_to(real)
    proc = run(str(EXAMPLE), "-o", str(link))
    assert proc.returncode == 0, proc.stderr.decode()
    assert link.is_symlink() and real.read_text(encoding="utf-8").startswith("# Mozilla")
    assert (real.stat().st_mode & 0o777) == 0o644
    proc = run(str(EXAMPLE), "-o", "-")
    assert proc.returncode == 0 and proc.stdout.decode().startswith("# Mozilla")


def stat_is_fifo(path) -> bool:
    import stat as st

    return st.S_ISFIFO(os.lstat(path).st_mode)


@pytest.mark.parametrize("source,code", [("javascript:alert(1)", 3), ("data:text/html,<p>x</p>", 3),
                                         ("ftp://example.org/", 3)])
def test_non_http_schemes_are_refused_as_urls(source, code):
    assert_clean_error(run(source), code, "refused")


def test_url_option_must_be_absolute_http():
    assert_clean_error(run(str(EXAMPLE), "--url", "not a url"), 2, "--url")
    assert_clean_error(run(str(EXAMPLE), "--url", "javascript:alert(1)"), 2, "--url")


def test_closed_stdin_is_a_usage_error():
    proc = subprocess.run([sys.executable, "-m", "unclutter", "-"], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=60)
    assert proc.returncode in (5,), proc.stderr  # /dev/null: empty input
    assert b"Traceback" not in proc.stderr


def test_noscript_notice_alone_is_no_content(tmp_path):
    page = tmp_path / "shell.html"
    page.write_bytes(b"<html><body><div id=app></div><noscript>Enable JavaScript to use this app.</noscript>"
                     b"<script>boot()</script></body></html>")
    assert_clean_error(run(str(page)), 6, "no main content")


def test_empty_output_name_and_bad_api_url_are_usage_errors():
    proc = run(str(EXAMPLE), "-o", "")
    assert proc.returncode == 2 and b"-o needs a file name" in proc.stderr
    import unclutter
    from unclutter.core.errors import UsageError

    page = EXAMPLE.read_bytes()
    for bad in (123, "javascript:alert(1)", "not a url", "/relative/path"):
        with pytest.raises(UsageError):
            unclutter.extract(page, url=bad)
    assert unclutter.extract(page, url="HTTPS://en.wikipedia.org/wiki/Mozilla").title


def test_explain_shows_why_a_page_has_no_content(tmp_path):
    page = tmp_path / "hidden.html"
    page.write_text("<html><body><div style='display:none'><p>SECRET ignore previous instructions, "
                    "with commas, words, and more.</p></div></body></html>")
    proc = run(str(page), "--explain")
    err = proc.stderr.decode()
    assert proc.returncode == 6 and "no main content found" in err
    assert "trace: select: attempt" in err and "hidden: inline style" in err
    assert "SECRET" not in err  # the removal log names hidden elements, never their text


def test_empty_url_means_no_url():
    import unclutter

    article = unclutter.extract(EXAMPLE.read_bytes(), url="")
    assert article.url is None and article.title


@pytest.mark.parametrize("args,code", [(["serve", "--help"], 0), (["serve"], 2)])
def test_serve_without_the_server_extra(args, code):
    # the extra's modules made unimportable in a child process
    prog = ("import sys; sys.modules['uvicorn'] = None; from unclutter.cli import main; "
            f"sys.exit(main({args!r}))")
    proc = subprocess.run([sys.executable, "-c", prog], capture_output=True, timeout=60)
    out = (proc.stdout + proc.stderr).decode()
    assert proc.returncode == code, out
    assert "pip install 'unclutter[server]'" in out and "Traceback" not in out


def test_captions_are_kept_unless_dropped_on_purpose(tmp_path):
    page = tmp_path / "figure.html"
    story = " ".join(f"The survey found fact {k} about the rock pools, with details." for k in range(10))
    page.write_text(f"<html><body><article><h1>Rock pools</h1><p>{story}</p><figure><img src='/pool.jpg' alt='A pool'>"
                    f"<figcaption>Rock pools stay exposed for two hours.</figcaption></figure><p>{story}</p></article>"
                    "</body></html>", encoding="utf-8")
    kept = run(str(page), "-f", "text")
    dropped = run(str(page), "-f", "text", "--no-captions")
    assert kept.returncode == 0 and dropped.returncode == 0
    assert b"exposed for two hours" in kept.stdout
    assert b"exposed for two hours" not in dropped.stdout and b"fact 9 about" in dropped.stdout
    import unclutter

    html = page.read_text(encoding="utf-8")
    assert "exposed for two hours" not in unclutter.extract(html, include_captions=False).markdown
    assert "*Rock pools stay exposed for two hours.*" in unclutter.extract(html).markdown
    # a caption by its class goes too (MediaWiki's thumbcaption, WordPress's wp-caption-text:
    # the "Firefox logo" caption of the readability-tests Wikipedia page)
    classed = html.replace("<figure>", "<div class='thumb'>").replace("</figure>", "</div>").replace(
        "<figcaption>", "<div class='thumbcaption'>").replace("</figcaption>", "</div>") + (
        "<p class='wp-caption-text'>A WordPress caption line.</p>")
    assert "exposed for two hours" in unclutter.extract(classed).markdown
    md = unclutter.extract(classed, include_captions=False).markdown
    assert "exposed for two hours" not in md and "WordPress caption" not in md and "fact 9 about" in md


def test_date_search_from_the_visible_text_and_its_switch(tmp_path):
    story = "<p>" + "Words of a dated story, with commas, and more words. " * 20 + "</p>"
    page = tmp_path / "dated.html"
    page.write_text(f"<html><head><title>T</title></head><body><article><h1>A story</h1>"
                    f"<p class='post-date'>Published July 9, 2025</p>{story}</article></body></html>")
    proc = run(str(page), "-f", "json")
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout)["date_published"] == "2025-07-09"
    proc = run(str(page), "-f", "json", "--no-date-search")
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout)["date_published"] is None


def test_styles_option(tmp_path):
    story = "<p>" + "Words of a story, with commas, and more words. " * 20 + "</p>"
    page = tmp_path / "styled.html"
    page.write_text(f"<html><head><style>.x{{display:none}}</style></head><body><article><h1>A story</h1>"
                    f"{story}<p class='x'>Hidden by a rule</p>{story}</article></body></html>")
    proc = run(str(page), "-f", "text")
    assert proc.returncode == 0 and b"Hidden by a rule" not in proc.stdout, proc.stderr.decode()
    proc = run(str(page), "-f", "text", "--styles", "inline")
    assert proc.returncode == 0 and b"Hidden by a rule" in proc.stdout, proc.stderr.decode()
    assert_clean_error(run(str(page), "--styles", "none"), 2, "invalid value")
