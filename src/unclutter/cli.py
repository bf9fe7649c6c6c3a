"""Command-line interface: parse arguments, call the library, map errors to exit codes.

Exit codes (also in README): 0 ok, 2 usage, 3 refused by the safety policy, 4 fetch
failed, 5 unreadable input, 6 no main content found, 1 unexpected internal error.
Errors print one line on stderr (``unclutter: error: ...``), never a traceback. ``-o FILE``
writes atomically (temporary file in the same folder, fsync, rename): on any error no
partial file is left behind.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

import click

from .core.errors import UnclutterError, UsageError

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
}

FORMATS = ("markdown", "text", "json", "html")


def _read_source(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    if os.path.isdir(source):
        raise UsageError(f"{source!r} is a directory, not an HTML file")
    try:
        with open(source, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise UsageError(f"no such file: {source!r} (give a path, an http(s) URL, or - for stdin)") from None
    except OSError as exc:
        from .core.errors import UnreadableInputError

        raise UnreadableInputError(f"cannot read {source!r}: {exc.strerror or exc}") from None


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
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".unclutter-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _explain(article) -> None:
    err = sys.stderr
    for line in article.trace:
        err.write(f"trace: {line}\n")
    for r in article.removed:
        err.write(f"removed [{r.stage}] <{r.tag}> {r.class_id[:40]!r} {r.chars} chars: {r.reason}"
                  f"{' | ' + r.preview if r.preview else ''}\n")


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
                     "cl100k_base tokens (or 8k, 16k) instead of the normal output."),
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
    if s.get("chunks"):
        from .structure.chunk import chunk

        return "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n"
                       for c in chunk(article, s["chunks"]))
    text = _render(article, fmt, explain)
    if article.summary is None:
        return text
    err = sys.stderr
    for w in article.summary_warnings:
        err.write(f"unclutter: warning: {w.scope}: {w.kind} {w.value!r} is not in the page: {w.sentence}\n")
    sections = [e for e in article.toc if e.summary]
    if fmt == "markdown":
        lines = [f"> **Summary** ({article.summary_backend}): {article.summary}"]
        if sections:
            lines.append(">")
            lines += [f"> - **{e.title}**: {e.summary}" for e in sections]
        return "\n".join(lines) + "\n\n" + text
    if fmt == "text":
        lines = [f"Summary: {article.summary}"] + [f"- {e.title}: {e.summary}" for e in sections]
        return "\n".join(lines) + "\n\n" + text
    return text


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@_summary_options
@click.argument("source")
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="markdown", show_default=True,
              help="Output format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write to FILE (atomically) instead of stdout.")
@click.option("--url", "base_url", help="The page's URL, to resolve relative links of a file or stdin.")
@click.option("--extractor", default="heuristic", show_default=True, help="Main-content extractor.")
@click.option("--no-links", is_flag=True, help="Keep link text only, drop link targets.")
@click.option("--no-images", is_flag=True, help="Drop images.")
@click.option("--explain", is_flag=True, help="Print what was removed and why (stderr; JSON gets it too).")
@click.option("--user-agent", help="User-Agent header for fetching a URL.")
@click.option("--respect-robots", is_flag=True, help="Refuse URLs that the site's robots.txt disallows.")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Revalidation cache (ETag/Last-Modified) folder.")
@click.option("--timeout", "deadline", type=click.FloatRange(min=0.1, max=600), help="Total fetch deadline in seconds.")
@click.option("--proxy", help="Fetch through this http(s) proxy (environment proxies are never used).")
@click.option("--allow-private", "allow_private", multiple=True, hidden=True,
              help="Test hook: allow exactly this IP address to be fetched.")
@click.option("--allow-port", "allow_port", multiple=True, type=int, hidden=True,
              help="Test hook: allow this port besides 80 and 443.")
@click.version_option(package_name="unclutter")
def cli(source: str, fmt: str, output: str | None, base_url: str | None, extractor: str,
        no_links: bool, no_images: bool, explain: bool, user_agent: str | None,
        respect_robots: bool, cache_dir: str | None, deadline: float | None, proxy: str | None,
        allow_private: tuple[str, ...], allow_port: tuple[int, ...]) -> None:
    """Print the main content of SOURCE as clean Markdown (or text, JSON, HTML).

    SOURCE is an HTML file, an http(s) URL, or - for standard input.
    """
    from . import pipeline

    options = dict(extractor=extractor, include_links=not no_links, include_images=not no_images)
    options.update(_summary_settings())
    if source.lower().startswith(("http://", "https://")) or "://" in source:
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
        if allow_private or allow_port:  # test hooks (hidden options)
            settings["allow_addresses"] = frozenset(allow_private)
            settings["allowed_ports"] = frozenset(base.allowed_ports) | frozenset(allow_port)
        try:
            policy = FetchPolicy(**settings) if settings else None
        except ValueError as exc:
            raise UsageError(f"bad fetch option: {exc}") from None
        article = pipeline.extract_url(source, policy=policy, **options)
    else:
        data = _read_source(source)
        article = pipeline.extract(data, url=base_url, **options)
    out = _render_all(article, fmt, explain)
    if explain:
        _explain(article)
    if output:
        _write_atomic(output, out)
    else:
        stream = sys.stdout
        stream.write(out)
        stream.flush()


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
        raise UsageError(f"unclutter serve needs the server extra ({exc.name} is missing): "
                         "pip install 'unclutter[server]'") from None
    serve.main(args=args, prog_name="unclutter serve", standalone_mode=False)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``unclutter`` command; returns (and exits with) the exit code.

    ``unclutter serve ...`` runs the HTTP service (``server`` extra); anything else is
    ``unclutter SOURCE [OPTIONS]`` (a file named ``serve`` is read as ``./serve``)."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        if args[:1] == ["serve"]:
            _serve(args[1:])
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
    except BrokenPipeError:
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
