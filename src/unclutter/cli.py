"""Command-line interface: parse arguments, call the library, map errors to exit codes.

Exit codes (also in README): 0 ok, 2 usage, 3 refused by the safety policy, 4 fetch
failed, 5 unreadable input, 6 no main content found, 7 output could not be written,
8 a batch run finished but some pages failed (their error rows are in the output),
1 unexpected internal error.

Several SOURCEs, a folder, a WARC archive or ``-i LIST`` make a batch run
(:mod:`unclutter.batch`): ``-o`` names a ``.jsonl`` file, a ``.parquet`` file or a folder.
Errors print one line on stderr (``unclutter: error: ...``), never a traceback. ``-o FILE``
writes atomically (temporary file in the same folder, fsync, rename): on any error no
partial file is left behind.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import stat
import sys
import tempfile
import threading

import click

from .core.errors import (
    InputTooLargeError,
    NoContentError,
    OutputError,
    UnclutterError,
    UnreadableInputError,
    UsageError,
)
from .core.limits import MAX_INPUT_BYTES

__all__ = ["main", "EXIT_CODES"]

#: Exit code table, as documented in README.md.
EXIT_CODES = {
    "ok": 0,
    "internal": 1,
    "usage": 2,
    "policy": 3,
    "fetch": 4,
    "unreadable": 5,
    "no_content": 6,
    "output": 7,
    "batch_errors": 8,
}

FORMATS = ("markdown", "text", "json", "html")


#: Chunk size for reading input whose size is not known in advance (stdin, FIFOs), bytes.
READ_CHUNK_BYTES = 1 << 20


def _read_bounded(fh, limit: int, what: str) -> bytes:
    """Read at most ``limit`` bytes; one byte more means the input is too large."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = fh.read(min(READ_CHUNK_BYTES, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise InputTooLargeError(f"unreadable input: {what} is over the {limit}-byte limit")
    return b"".join(chunks)


def _read_source(source: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a file or of stdin (``-``), never more than ``limit`` (bytes) read."""
    if source == "-":
        stdin = sys.stdin
        if stdin is None or stdin.closed:
            raise UsageError("no input: standard input is closed (give a file, a URL, or pipe a page in)")
        if stdin.isatty():
            raise UsageError("no input on standard input (pipe a page in, or give a file or URL)")
        return _read_bounded(stdin.buffer, limit, "standard input")
    if os.path.isdir(source):
        raise UsageError(f"{source!r} is a directory, not an HTML file")
    try:
        st = os.stat(source)
        if stat.S_ISREG(st.st_mode) and st.st_size > limit:
            raise InputTooLargeError(
                f"unreadable input: {source!r} is {st.st_size} bytes, over the {limit}-byte limit")
        with open(source, "rb") as fh:
            return _read_bounded(fh, limit, repr(source))
    except FileNotFoundError:
        raise UsageError(f"no such file: {source!r} (give a path, an http(s) URL, or - for stdin)") from None
    except OSError as exc:
        raise UnreadableInputError(f"cannot read {source!r}: {exc.strerror or exc}") from None


_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _is_url(source: str) -> bool:
    """A SOURCE is a URL when it has a scheme and is not an existing file; every scheme is
    handed to the fetcher, which refuses all but http/https (exit 3)."""
    if source == "-" or os.path.exists(source):
        return False
    return bool(_SCHEME_RE.match(source)) and not re.match(r"^[A-Za-z]:[\\/]", source)


def _render(article, fmt: str, explain: bool) -> str:
    if fmt == "markdown":
        return article.markdown
    if fmt == "text":
        return article.text if article.text.endswith("\n") else article.text + "\n"
    if fmt == "json":
        return json.dumps(article.to_dict(explain=explain), ensure_ascii=False, indent=2) + "\n"
    from .render.htmlview import render_article_html

    return render_article_html(article)


def _write_atomic(path: str, data: str) -> None:
    """Write ``data`` (UTF-8) to ``path`` atomically: a temporary file in the same folder,
    fsync, rename. A symbolic link is followed (its target is replaced); anything but a
    regular file (device, FIFO, folder) is refused; an existing file keeps its permission
    bits, a new one gets the umask's.

    Raises:
        UsageError: the folder does not exist or the target is not a regular file.
        OutputError: the write failed (disk full, permission denied...).
    """
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    if not os.path.isdir(directory):
        raise UsageError(f"cannot write {path!r}: folder {directory!r} does not exist")
    mode = None
    if os.path.lexists(target):
        st = os.stat(target)
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"cannot write {path!r}: it is not a regular file")
        mode = stat.S_IMODE(st.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, tmp = tempfile.mkstemp(prefix=".unclutter-", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"cannot write {path!r}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path!r}: {exc.strerror or exc}") from None
        raise


def _explained(show: bool, run, *args, **kwargs):
    """``run(*args, **kwargs)``; with ``show`` (``--explain``), a page without main
    content still gets its trace and removal log printed before the error."""
    try:
        return run(*args, **kwargs)
    except NoContentError as exc:
        if show and exc.trace is not None:
            _explain(exc)
        raise


def _explain(article) -> None:
    """The trace, then the removal log: every removed element holding text, and a count
    per reason of those holding none (icons, empty wrappers, ``<meta>``), which only
    ``-f json`` lists one by one."""
    err = sys.stderr
    for line in article.trace:
        err.write(f"trace: {line}\n")
    empty: dict[str, int] = {}
    for r in article.removed:
        if not r.chars:
            key = f"[{r.stage}] {r.reason}"
            empty[key] = empty.get(key, 0) + 1
            continue
        err.write(f"removed [{r.stage}] <{r.tag}> {r.class_id[:40]!r} {r.chars} chars: {r.reason}"
                  f"{' | ' + r.preview if r.preview else ''}\n")
    for key, n in sorted(empty.items(), key=lambda kv: -kv[1]):
        err.write(f"removed {key}: {n} element{'s' if n > 1 else ''} without text\n")


_SUMMARY_KEY = "unclutter.summary"


def _summary_options(f):
    """Click options of the summary and chunking features; their values go to the click
    context's ``meta`` (read by :func:`_summary_settings`), not to ``cli``'s arguments."""
    import functools

    @functools.wraps(f)
    def wrapper(*args, summary, summary_backend, summary_sentences, summary_words, summary_model,
                summary_embeddings, strict, chunks, **kw):
        click.get_current_context().meta[_SUMMARY_KEY] = {
            "summary": bool(summary or summary_backend or summary_sentences or summary_words or summary_model
                            or summary_embeddings or strict),
            "summary_backend": summary_backend or "extractive",
            "summary_sentences": summary_sentences or 3,
            "summary_words": summary_words,
            "summary_model": summary_model,
            "summary_embeddings": summary_embeddings,
            "strict": strict,
            "chunks": chunks,
        }
        return f(*args, **kw)

    options = [
        click.option("--summary", is_flag=True, help="Add a page summary and a summary per ToC section."),
        click.option("--summary-backend", help="extractive (default, offline), transformers, openai, anthropic, "
                     "bedrock. Implies --summary."),
        click.option("--summary-sentences", type=click.IntRange(min=1), help="Page summary length in sentences "
                     "(default 3). Implies --summary."),
        click.option("--summary-words", type=click.IntRange(min=1), help="Page summary length in words instead."),
        click.option("--summary-model", help="Model for the backend: local path or hub id (transformers), model "
                     "name (LLM backends)."),
        click.option("--summary-embeddings", is_flag=True, help="Use all-MiniLM-L6-v2 embeddings (extra "
                     "'embeddings') instead of TF-IDF."),
        click.option("--strict", is_flag=True, help="Drop summary sentences with numbers, dates or names that are "
                     "not in the page. Implies --summary."),
        click.option("--chunks", metavar="N", help="Emit the Markdown as JSON Lines chunks of at most N "
                     "cl100k_base tokens (or thousands: 4k, 8k, 16k...) instead of the normal output "
                     "(not with -f html or text)."),
    ]
    for opt in reversed(options):
        wrapper = opt(wrapper)
    return wrapper


def _summary_settings() -> dict:
    """``extract`` options from the summary flags (``{}`` when no summary was asked for)."""
    s = click.get_current_context().meta.get(_SUMMARY_KEY) or {}
    if not s.get("summary"):
        return {}
    return {k: s[k] for k in ("summary", "summary_backend", "summary_sentences", "summary_words", "summary_model",
                              "summary_embeddings", "strict")}


def _render_all(article, fmt: str, explain: bool) -> str:
    """The output: chunks as JSON Lines with ``--chunks``, else the chosen format, with the
    summary block first for Markdown/text; grounding warnings go to stderr."""
    s = click.get_current_context().meta.get(_SUMMARY_KEY) or {}
    _warn_low_confidence(article)
    if s.get("chunks"):
        from . import chunk

        if fmt in ("html", "text"):
            raise UsageError(f"--chunks writes JSON Lines of Markdown chunks: it does not combine with -f {fmt}")
        try:
            chunks = chunk(article, s["chunks"])
        except UsageError as exc:  # (name the flag the user typed, not the API's parameter)
            raise UsageError(str(exc).replace("max_tokens", "--chunks", 1)) from None
        return "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in chunks)
    text = _render(article, fmt, explain)
    if article.summary is None:
        return text
    err = sys.stderr
    for w in article.summary_warnings:
        err.write(f"unclutter: warning: {w.scope}: {w.kind} {w.value!r} is not in the page: {w.sentence}\n")
    from .render.summary import with_summary

    return with_summary(article, fmt, text)


def _warn_low_confidence(article) -> None:
    """One line on stderr when the extraction's confidence is under
    :data:`~unclutter.measure.confidence.CONFIDENCE_WARNING_THRESHOLD` (the output is written
    all the same: a warning, not an error)."""
    from .measure.confidence import CONFIDENCE_WARNING_THRESHOLD

    if article.confidence is not None and article.confidence < CONFIDENCE_WARNING_THRESHOLD:
        why = "; ".join(article.confidence_reasons) or "the page does not look like one clear main content"
        sys.stderr.write(f"unclutter: warning: low confidence {article.confidence:.2f} in the extraction: {why}\n")
    info = article.render
    if info and "error" in info:  # auto mode fell back to the served HTML
        sys.stderr.write(f"unclutter: warning: the page looks like a JavaScript shell but was not rendered: "
                         f"{info['error']}\n")
    elif info and info.get("blocked"):
        sys.stderr.write(f"unclutter: warning: rendering: {len(info['blocked'])} requests refused by the fetch "
                         f"policy (--explain lists them)\n")


def _batch_options(f):
    """Click options of batch runs; their values go to the click context's ``meta``."""
    import functools

    @functools.wraps(f)
    def wrapper(*args, input_file, sitemap, feed, workers, include, exclude, errors_only, quiet, overwrite,
                shard_size, page_timeout, max_memory, per_host, delay, retries, **kw):
        click.get_current_context().meta[_BATCH_KEY] = dict(
            input_file=input_file, discover=tuple(sitemap) + tuple(feed), workers=workers, include=include,
            exclude=exclude, errors_only=errors_only,
            quiet=quiet, overwrite=overwrite, shard_size=shard_size, page_timeout=page_timeout,
            max_memory=max_memory, per_host=per_host, delay=delay, retries=retries)
        return f(*args, **kw)

    options = [
        click.option("-i", "--input-file", multiple=True, metavar="LIST", help="Batch: read paths and URLs, one "
                     "per line, from LIST (- for standard input). Repeatable."),
        click.option("--sitemap", multiple=True, metavar="URL", help="Batch: the pages a sitemap lists (XML or "
                     "text, gzip too; a sitemap index is followed). Repeatable."),
        click.option("--feed", multiple=True, metavar="URL", help="Batch: the pages an RSS or Atom feed links "
                     "to. Repeatable."),
        click.option("--workers", type=click.IntRange(min=1, max=256), help="Batch: worker processes, at most "
                     "4 per core (default: the machine's cores)."),
        click.option("--include", multiple=True, metavar="GLOB", help="Batch: file names read inside folders "
                     "(default *.html, *.htm, *.xhtml, *.html.gz; WARC archives always). Repeatable."),
        click.option("--exclude", multiple=True, metavar="GLOB", help="Batch: skip files inside folders whose "
                     "relative path or name matches. Repeatable."),
        click.option("--errors-only", is_flag=True, help="Batch: write only the records of pages that failed."),
        click.option("--quiet", is_flag=True, help="Batch: no progress bar and no summary."),
        click.option("--overwrite", is_flag=True, help="Batch: replace an existing output (default: refuse; "
                     "an interrupted run of the same command resumes)."),
        click.option("--shard-size", type=click.IntRange(min=1), default=500, show_default=True,
                     help="Batch: pages per output shard (the work a crash can cost)."),
        click.option("--page-timeout", type=click.FloatRange(min=0.05, max=86400), default=60.0, show_default=True,
                     help="Batch: seconds a page may take; then its worker is killed and the page is an "
                     "error row."),
        click.option("--max-memory", type=click.IntRange(min=512), metavar="MB", help="Batch: address-space "
                     "(virtual memory) ceiling per worker in MiB, 512 to 1048576; a page needing more is an "
                     "error row."),
        click.option("--per-host", type=click.IntRange(min=1), default=2, show_default=True,
                     help="Batch: most requests to one host at a time."),
        click.option("--delay", type=click.FloatRange(min=0, max=3600), default=0.5, show_default=True,
                     help="Batch: seconds between two requests to the same host."),
        click.option("--retries", type=click.IntRange(min=0, max=10), default=2, show_default=True,
                     help="Batch: retries of a URL after a timeout, a connection error, HTTP 429 or 5xx."),
    ]
    for opt in reversed(options):
        wrapper = opt(wrapper)
    return wrapper


_BATCH_KEY = "unclutter.batch"
#: ``--workers`` above this many per core gain nothing (extraction is CPU work; fetching is
#: done apart) and cost a worker's memory each (about 100 MiB).
WORKERS_PER_CORE = 4
#: Largest ``--max-memory``, MiB (1 TiB; beyond it the operating system's limit overflows).
MAX_WORKER_MEMORY_MB = 1024 * 1024


def _terminate(signum, frame) -> None:
    raise KeyboardInterrupt


def _same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one existing file (links and ``./`` followed)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _is_batch(sources: tuple[str, ...], input_file: tuple[str, ...], output: str | None) -> bool:
    """Batch mode: several sources, a list, a folder or a WARC archive in, or a ``.jsonl``,
    ``.parquet`` or folder (a name ending in ``/`` or an existing folder) out."""
    from .batch.sources import is_warc

    if output and output != "-" and (output.lower().endswith((".jsonl", ".parquet", "/"))
                                     or os.path.isdir(output)):
        return True
    return len(sources) != 1 or bool(input_file) or os.path.isdir(sources[0]) or is_warc(sources[0])


def _run_batch(sources: tuple[str, ...], output: str | None, fmt: str, options: dict, policy) -> None:
    """The batch mode: every page of ``sources`` into ``output``; exit status 8 when a page failed."""
    from .batch import run_batch
    from .batch.fetching import BatchFetcher
    from .batch.sources import DEFAULT_INCLUDE, expand_sources, read_list
    from .core.options import Options

    b = click.get_current_context().meta[_BATCH_KEY]
    if not output:
        raise UsageError("a batch run (several sources, a folder, a WARC file or -i) needs -o OUT: "
                         "a .jsonl file, a .parquet file, a folder, or - for JSON Lines on standard output")
    if fmt not in ("markdown", "json"):
        raise UsageError(f"-f {fmt}: a batch run writes Markdown or JSON pages (or .jsonl/.parquet records)")
    if not math.isfinite(b["page_timeout"]):
        raise UsageError("--page-timeout must be a number of seconds (a page without a deadline could hang the run)")
    if not math.isfinite(b["delay"]):
        raise UsageError("--delay must be a number of seconds")
    if b["max_memory"] is not None and b["max_memory"] > MAX_WORKER_MEMORY_MB:
        raise UsageError(f"--max-memory {b['max_memory']}: at most {MAX_WORKER_MEMORY_MB} MiB")
    cores = os.cpu_count() or 1
    if b["workers"] is not None and b["workers"] > WORKERS_PER_CORE * cores:
        raise UsageError(f"--workers {b['workers']}: at most {WORKERS_PER_CORE * cores} on this machine "
                         f"({WORKERS_PER_CORE} per core: the workers extract pages, which is CPU work, "
                         "and each holds its own models)")
    names = list(sources)
    for listing in b["input_file"]:
        try:
            names.extend(read_list(listing))
        except OSError as exc:
            raise UsageError(f"cannot read the list {listing!r}: {exc.strerror or exc}") from None
    if b["discover"]:
        from .batch.discover import discover_urls

        bad = [u for u in b["discover"] if not _is_url(u)]
        if bad:
            raise UsageError(f"--sitemap / --feed needs an http(s) URL, got {bad[0][:200]!r}")
        def progress(doc: str, so_far: int) -> None:
            click.echo(f"\runclutter: reading {doc[:100]} ({so_far} page URLs so far)\x1b[K", err=True, nl=False)

        shown = not b["quiet"] and sys.stderr is not None and sys.stderr.isatty()
        found = discover_urls(b["discover"], policy, progress=progress if shown else None)
        if shown:
            click.echo("\r\x1b[K", err=True, nl=False)
        for doc, why in found.failed:  # (even with --quiet: a sitemap that was not read is an error)
            click.echo(f"unclutter: warning: {doc[:200]}: {why}", err=True)
        if not b["quiet"] or found.stopped:
            click.echo(f"unclutter: {len(found.urls)} page URLs from {found.documents} sitemaps and feeds"
                       + (f" ({found.dropped} more left out: stopped at {found.stopped})" if found.stopped
                          else f" ({found.dropped} more left out: over the limits)" if found.dropped else ""),
                       err=True)
        names.extend(found.urls)
        if not found.urls and not names:
            raise UsageError("no pages found: the sitemaps and feeds list no page URL"
                             + (f" ({found.failed[0][1]})" if found.failed else ""))
    if not names:
        raise UsageError("nothing to do: give SOURCEs or -i LIST")
    if next(expand_sources(names, b["include"], b["exclude"]), None) is None:
        # (only folders were named and they hold no page: a typo in a path or a glob)
        raise UsageError("no pages found: no file in the folders matches --include ("
                         + ", ".join(b["include"] or DEFAULT_INCLUDE) + ", or a WARC archive)")
    fetcher = BatchFetcher(policy, per_host=b["per_host"], delay=b["delay"], retries=b["retries"])
    # SIGTERM (a scheduler stopping the job) ends the run as Ctrl-C does: shards written so
    # far stay, the same command resumes, one line says so
    previous = signal.signal(signal.SIGTERM, _terminate) if threading.current_thread() is threading.main_thread() \
        else None
    try:
        summary = _reader_may_leave(run_batch, names, output, options=Options(**options), workers=b["workers"], include=b["include"],
                            exclude=b["exclude"], page_format=fmt, shard_size=b["shard_size"],
                            timeout=b["page_timeout"], memory_limit=(b["max_memory"] or 0) * 1024 * 1024 or None,
                            fetcher=fetcher, overwrite=b["overwrite"], errors_only=b["errors_only"],
                            quiet=b["quiet"])
    except KeyboardInterrupt:
        raise click.exceptions.Abort() from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    if not b["quiet"]:
        for line in summary.lines():
            click.echo(f"unclutter: {line}", err=True)
    if summary.failed:
        raise _BatchFailed(f"{summary.failed} of {summary.pages + summary.resumed} pages failed (error rows are in "
                           f"{'standard output' if output == '-' else output})")


class _BatchFailed(UnclutterError):
    exit_code = 8


class _ReaderGone(Exception):
    """Standard output's reader went away (``| head``): the command stops, exit status 0.
    (Not an ``OSError``: click turns a broken pipe into exit status 1.)"""


def _write_stdout(text: str) -> None:
    if sys.stdout is None:  # (started with standard output closed: `>&-`)
        raise OutputError("cannot write to standard output: it is closed")
    sys.stdout.write(text)
    sys.stdout.flush()


def _reader_may_leave(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``; a broken pipe on standard output becomes :class:`_ReaderGone`,
    with standard output pointed at ``/dev/null`` so the interpreter's last flush is silent."""
    try:
        return fn(*args, **kwargs)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        raise _ReaderGone() from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@_summary_options
@_batch_options
@click.argument("sources", nargs=-1)
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="markdown", show_default=True,
              help="Output format.")
@click.option("-o", "--output", metavar="OUT",
              help="Write to FILE (atomically) instead of stdout. Batch: a .jsonl file, a .parquet file, "
                   "a folder of one file per page (-f markdown or json), or - for JSON Lines on stdout (no resume).")
@click.option("--url", "base_url", help="The page's URL, to resolve relative links of a file or stdin (default: the "
              "canonical URL the page states, if any).")
@click.option("--extractor", default="auto", show_default=True,
              help="Main-content extractor: auto (gbdt on pages that declare a product, an FAQ or a "
                   "forum thread, on a site's front and section pages by their URL, on shop pages "
                   "(add-to-cart markup, no article declared) and where the heuristic keeps too "
                   "little of the text; the heuristic, then a learned clean-up of its selection, on "
                   "the others), heuristic (Readability-style), cetd (text density), gbdt (boosted "
                   "trees), gnn (graph network). --explain shows the route.")
@click.option("--no-links", is_flag=True, help="Keep link text only, drop link targets.")
@click.option("--no-images", is_flag=True, help="Drop images.")
@click.option("--no-captions", is_flag=True, help="Drop figure captions (as main-content benchmarks' ground "
                                                   "truths do).")
@click.option("--no-refine", is_flag=True, help="auto: skip the learned clean-up of the heuristic's selection "
                                                 "(about 1 ms a page faster, a little less precise).")
@click.option("--styles", type=click.Choice(["cascade", "inline"]), default="cascade", show_default=True,
              help="What decides hidden text: the page's stylesheets and style attributes (cascade), or "
              "style attributes alone (inline: about 1.6x the pages/s; text a stylesheet hides is kept).")
@click.option("--target-selector", "target_selector", metavar="CSS", multiple=True,
              help="The page's main content is what this CSS selector matches, in page order (no main-content "
                   "selection; scripts, controls and text the page hides are still removed). Applied after "
                   "--remove-selector, to the page as rendered when it is. Exit status 6 when nothing matches. "
                   "Repeatable (a selector list).")
@click.option("--remove-selector", "remove_selector", metavar="CSS", multiple=True,
              help="Remove the elements this CSS selector matches before anything reads the page. Repeatable.")
@click.option("--min-confidence", "min_confidence", type=click.FloatRange(0, 1), metavar="P",
              help="Fail (exit status 6; a batch: an error row, LowConfidenceError) when the extraction's "
                   "confidence is under P, 0 to 1, instead of returning a doubtful main content.")
@click.option("--no-date-search", is_flag=True, help="Take the publication date from the page's markup only "
                                                      "(no search of its URL and visible text).")
@click.option("--explain", is_flag=True, help="Print what was removed and why (stderr; JSON gets it too).")
@click.option("--user-agent", help="User-Agent header for fetching a URL.")
@click.option("--respect-robots", is_flag=True, help="Refuse URLs that the site's robots.txt disallows.")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Revalidation cache (ETag/Last-Modified) folder.")
@click.option("--timeout", "deadline", type=click.FloatRange(min=0.1, max=600), help="Total fetch deadline in seconds.")
@click.option("--proxy", help="Fetch through this http(s) proxy (environment proxies are never used).")
@click.option("--allow-address", "--allow-private", "allow_private", multiple=True, metavar="IP",
              help="Deliberately allow fetching this one non-public IP address (repeatable; a "
                   "crawler inside a trusted network). Everything else stays refused.")
@click.option("--allow-port", "allow_port", multiple=True, type=click.IntRange(1, 65535), metavar="PORT",
              help="Also allow this TCP port besides 80 and 443 (repeatable).")
@click.option("--render", "render", type=click.Choice(("never", "auto", "always")), default=None,
              help="Run the page's scripts in headless Chromium first (the render extra; every request "
                   "passes the fetch policy): auto renders only JavaScript shells. Default: auto for "
                   "URLs, never for files, stdin and WARC records.")
@click.option("--wait-for", "wait_for", metavar="SELECTOR",
              help="Rendering: take the page once an element matches this CSS selector "
                   "(default: once the network is idle).")
@click.option("--wait-seconds", "wait_seconds", type=click.FloatRange(min=0, max=600), metavar="SECONDS",
              help="Rendering: wait this long after the page has loaded instead.")
@click.option("--render-timeout", "render_deadline", type=click.FloatRange(min=0.5, max=600), metavar="SECONDS",
              help="Rendering: deadline of the whole render (default 20).")
@click.version_option(package_name="unclutter")
def cli(sources: tuple[str, ...], fmt: str, output: str | None, base_url: str | None, extractor: str,
        no_links: bool, no_images: bool, no_captions: bool, no_refine: bool, styles: str,
        target_selector: tuple[str, ...], remove_selector: tuple[str, ...], min_confidence: float | None,
        no_date_search: bool, explain: bool,
        user_agent: str | None,
        respect_robots: bool, cache_dir: str | None, deadline: float | None, proxy: str | None,
        allow_private: tuple[str, ...], allow_port: tuple[int, ...], render: str | None, wait_for: str | None,
        wait_seconds: float | None, render_deadline: float | None) -> None:
    """Print the main content of SOURCE as clean Markdown (or text, JSON, HTML).

    SOURCE is an HTML file (gzip-compressed too: page.html.gz), an http(s) URL, or -
    for standard input. The HTTP service and reader page: unclutter serve --help.
    Metrics on your own labelled pages: unclutter evaluate --help.

    Batch: several SOURCEs, a folder, a WARC archive (.warc, .warc.gz) or -i LIST, with
    -o OUT (.jsonl, .parquet or a folder): every page becomes a record; a failed page an
    error row (exit status 8). Re-running an interrupted command resumes it.
    """
    from . import pipeline

    options = dict(extractor=extractor, include_links=not no_links, include_images=not no_images,
                   include_captions=not no_captions, refine=not no_refine, search_date=not no_date_search,
                   styles=styles)
    if min_confidence is not None:
        options["min_confidence"] = min_confidence
    for name, given in (("target_selector", target_selector), ("remove_selector", remove_selector)):
        if given:
            if any(not g.strip() for g in given):
                raise UsageError(f"--{name.replace('_', '-')} needs a CSS selector")
            options[name] = ", ".join(given)
    if explain:
        options["explain"] = True  # the removal log is only kept when asked for
    options.update(_summary_settings())
    if base_url is not None and not re.match(r"^https?://[^/\s]+", base_url):
        raise UsageError(f"--url must be an absolute http(s) URL, got {base_url!r}")
    if output == "":
        raise UsageError("-o needs a file name (or - for standard output)")
    input_file = click.get_current_context().meta[_BATCH_KEY]["input_file"]
    discover = click.get_current_context().meta[_BATCH_KEY]["discover"]
    if not sources and not input_file and not discover:
        raise UsageError("missing SOURCE: give a file, a folder, a WARC archive, an http(s) URL, - for "
                         "standard input, -i LIST, --sitemap URL or --feed URL")
    input_file = input_file or discover  # (sitemaps and feeds make a batch run, as a list does)
    chunks = (click.get_current_context().meta.get(_SUMMARY_KEY) or {}).get("chunks")
    batch = _is_batch(sources, input_file, output)
    if batch and chunks and len(sources) == 1 and not input_file and output and output.lower().endswith(".jsonl") \
            and not _is_batch(sources, input_file, None):
        batch = False  # one page's chunks into a JSON Lines file: what --chunks writes
    if batch:
        asked = [flag for flag, on in (("--explain", explain), ("--summary (or an option implying it)",
                                                                "summary" in options),
                                       ("--chunks", chunks)) if on]
        if asked:
            raise UsageError(f"{', '.join(asked)} {'is' if len(asked) == 1 else 'are'} for one page: a batch run "
                             "writes one record per page (library: unclutter.extract(..., summary=True), "
                             "unclutter.chunk())")
    source = sources[0] if sources else ""
    default_render = "auto" if batch or _is_url(source) else "never"
    options.update(_render_settings(render, wait_for, wait_seconds, render_deadline, default_render))
    if batch or _is_url(source) or render in ("auto", "always"):
        from .fetch import FetchPolicy

        base = FetchPolicy()
        settings: dict = {}
        if user_agent:
            settings["user_agent"] = user_agent
        if respect_robots:
            settings["respect_robots"] = True
        if cache_dir:
            settings["cache_dir"] = cache_dir
        if deadline:
            settings["deadline"] = deadline
        if proxy:
            settings["proxy"] = proxy
        if allow_private or allow_port:  # deliberate loosening, never implied
            settings["allow_addresses"] = frozenset(allow_private)
            settings["allowed_ports"] = frozenset(base.allowed_ports) | frozenset(allow_port)
        try:
            policy = FetchPolicy(**settings) if settings else None
        except ValueError as exc:
            raise UsageError(f"bad fetch option: {str(exc)[:300]}") from None
        if batch:
            options["render_policy"] = policy
            return _run_batch(sources, output, fmt, options, policy)
    if output and output != "-" and source and source != "-" and not _is_url(source) and _same_file(source, output):
        raise UsageError(f"-o {output!r} is the input file: the page would be replaced by its extraction")
    if _is_url(source) and not batch:
        article = _explained(explain, pipeline.extract_url, source, policy=policy, **options)
    else:
        if render in ("auto", "always"):
            options["render_policy"] = policy
        data = _read_source(source)
        article = _explained(explain, pipeline.extract, data, url=base_url, **options)
    out = _render_all(article, fmt, explain)
    if explain:
        _explain(article)
    if output and output != "-":
        _write_atomic(output, out)
    else:
        try:
            _reader_may_leave(_write_stdout, out)
        except OSError as exc:
            raise OutputError(f"cannot write to standard output: {exc.strerror or exc}") from None


def _render_settings(render: str | None, wait_for: str | None, wait_seconds: float | None,
                     deadline: float | None, default: str) -> dict:
    """The render options of the command line, as keyword options of ``extract``."""
    settings: dict = {}
    if render is not None:
        settings["render"] = render
    fields = {k: v for k, v in (("wait_for", wait_for), ("wait_seconds", wait_seconds), ("deadline", deadline))
              if v is not None}
    if fields:
        if (render or default) == "never":
            raise UsageError("--wait-for, --wait-seconds and --render-timeout need --render auto or always")
        from .core.options import RenderOptions

        if wait_for is not None and wait_seconds is not None:
            raise UsageError("give --wait-for or --wait-seconds, not both")
        try:
            settings["render_options"] = RenderOptions(**fields)
        except ValueError as exc:
            raise UsageError(f"bad render option: {exc}") from None
    return settings


#: Top-level modules of the ``server`` extra, which ``unclutter serve`` needs.
SERVER_EXTRA_MODULES = frozenset({"fastapi", "starlette", "uvicorn", "jinja2", "multipart", "limits"})


def _serve(args: list[str]) -> None:
    """``unclutter serve [OPTIONS]``: the HTTP service (:mod:`unclutter.server`)."""
    try:
        import uvicorn  # noqa: F401

        from .server.serve import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in SERVER_EXTRA_MODULES:
            raise
        if "--help" in args or "-h" in args:  # asked what it is: say so, and how to get it
            click.echo("Usage: unclutter serve [OPTIONS]\n\n  Run the HTTP service and the reader "
                       "page. It needs the server extra, not installed here:\n\n"
                       "    pip install 'unclutter[server]'\n\n  then `unclutter serve --help` "
                       "lists its options.")
            return
        raise UsageError(f"unclutter serve needs the server extra ({exc.name} is missing): "
                         "pip install 'unclutter[server]'") from None
    serve.main(args=args, prog_name="unclutter serve", standalone_mode=False)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``unclutter`` command; returns (and exits with) the exit code.

    ``unclutter serve ...`` runs the HTTP service (``server`` extra), ``unclutter evaluate
    ...`` the evaluation kit (:mod:`unclutter.evaluation`); anything else is ``unclutter
    SOURCE [OPTIONS]`` (a file named ``serve`` or ``evaluate`` is read as ``./serve``...)."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        if args[:1] == ["serve"]:
            _serve(args[1:])
        elif args[:1] == ["evaluate"]:
            from .evaluation.command import evaluate

            evaluate.main(args=args[1:], prog_name="unclutter evaluate", standalone_mode=False)
        else:
            cli.main(args=argv, prog_name="unclutter", standalone_mode=False)
        code = 0
    except click.exceptions.Abort:
        click.echo("unclutter: error: interrupted", err=True)
        code = 130
    except click.ClickException as exc:  # usage errors from click itself
        click.echo(f"unclutter: error: {exc.format_message()}", err=True)
        code = EXIT_CODES["usage"]
    except UnclutterError as exc:
        click.echo(f"unclutter: error: {exc}", err=True)
        code = exc.exit_code
    except (_ReaderGone, BrokenPipeError):
        code = 0
    except RecursionError:
        click.echo("unclutter: error: unreadable input: structure too deep", err=True)
        code = EXIT_CODES["unreadable"]
    except MemoryError:
        click.echo("unclutter: error: unreadable input: out of memory", err=True)
        code = EXIT_CODES["unreadable"]
    except Exception as exc:  # noqa: BLE001 - last line of defence: one line, no traceback
        click.echo(f"unclutter: internal error: {type(exc).__name__}: {exc}", err=True)
        code = EXIT_CODES["internal"]
    if argv is None:
        sys.exit(code)
    return code
