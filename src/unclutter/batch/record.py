"""One page in, one flat record out: the engine-neutral core of batch extraction.

:func:`extract_record` is a pure, picklable, module-level function: the batch command, Ray,
Spark and datatrove all call it, so a page gives the same record whichever engine runs it.
It never raises for a bad page: the page becomes a record with ``status = "error"``, its
error kind (the exception class name: ``NoContentError``, ``BinaryInputError``...) and a
one-line message.

The record's columns, in order, with their Arrow types, are :data:`RECORD_SCHEMA`; the
Parquet writer, the JSON Lines writer and the engine adapters all use it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from dataclasses import replace as _replace
from typing import Any

from ..core.errors import UnclutterError
from ..core.options import Options

#: Status of a record: the page was extracted, or it could not be (the record says why).
STATUS_OK = "ok"
STATUS_ERROR = "error"

#: The record's columns and their types: ``(name, type)`` where type is one of
#: ``"string"``, ``"int64"``, ``"float64"``. Every column may be null except ``id``,
#: ``source`` and ``status``; ``markdown``/``text`` are null on error rows.
RECORD_SCHEMA: tuple[tuple[str, str], ...] = (
    ("id", "string"),              # the input's stable id: path, URL or WARC record id
    ("source", "string"),          # where the bytes came from (path, URL, "archive.warc.gz@offset")
    ("url", "string"),             # the page's URL, when known
    ("canonical_url", "string"),   # the address the page states (<link rel=canonical>, og:url)
    ("status", "string"),          # "ok" or "error"
    ("error_kind", "string"),      # exception class name (unclutter.errors) or Timeout/WorkerCrash
    ("error_message", "string"),   # one line, no traceback
    ("title", "string"),
    ("byline", "string"),
    ("date_published", "string"),  # ISO 8601 as the page gives it
    ("date_modified", "string"),
    ("site_name", "string"),
    ("excerpt", "string"),         # the page's description, else its first paragraph
    ("lead_image", "string"),      # absolute URL
    ("language", "string"),        # BCP 47
    ("page_type", "string"),       # "article", "product", "forum"...
    ("extractor", "string"),       # the extractor that chose the main content
    ("content_source", "string"),  # "dom" or "structured-data"
    ("render", "string"),          # "rendered" (run in a browser) or "served" (its HTML as served); null: not asked
    ("confidence", "float64"),     # 0-1, calibrated (unclutter.measure.confidence)
    ("confidence_reasons", "string"),  # why it is under 0.5, "; "-separated; null when none
    ("markdown", "string"),
    ("text", "string"),
    ("word_count", "int64"),
    ("token_count", "int64"),      # tokens of markdown (cl100k_base)
    ("input_bytes", "int64"),      # size of the input as given (bytes)
    ("seconds", "float64"),        # wall time of the extraction, seconds
)
RECORD_FIELDS: tuple[str, ...] = tuple(name for name, _ in RECORD_SCHEMA)

#: Characters of an error message kept in a record (messages quote page content at most
#: briefly; a bound keeps error rows small).
MAX_ERROR_MESSAGE_CHARS = 500


@dataclass(frozen=True)
class PageInput:
    """One page to extract: its bytes (or text) and what is known about it.

    Attributes:
        id: stable identifier (a path, URL or WARC record id; an input named twice gives
            two records with one id).
        source: where the bytes came from, for people (path, URL, ``file.warc.gz@offset``).
        data: the page as bytes (decoded by the pipeline) or ``str``; ``None`` when the
            input could not be read, in which case ``error`` says why.
        url: the page's URL, when known (resolves relative links; helps routing).
        http_charset: charset from the HTTP ``Content-Type`` header (WARC, fetched URLs).
        error: ``(kind, message)`` when the input failed before extraction (unreadable
            file, fetch refused, archive record too large...).
        name: the output name of a folder output (a file's path relative to the folder
            named on the command line); ``None``: derived from ``id``.
    """

    id: str
    source: str
    data: bytes | str | None = None
    url: str | None = None
    http_charset: str | None = None
    error: tuple[str, str] | None = field(default=None)
    name: str | None = None


def empty_record(page: PageInput) -> dict[str, Any]:
    """A record with every column present and null, except id, source and url."""
    record: dict[str, Any] = dict.fromkeys(RECORD_FIELDS)
    record.update(id=page.id, source=page.source, url=page.url)
    if page.data is not None:
        record["input_bytes"] = len(page.data) if isinstance(page.data, bytes) else len(
            page.data.encode("utf-8", "surrogatepass"))
    return record


def error_record(page: PageInput, kind: str, message: str, seconds: float | None = None) -> dict[str, Any]:
    """The error row for ``page``: status ``"error"``, ``kind``, a one-line ``message``."""
    record = empty_record(page)
    line = " ".join(str(message).split())
    record.update(status=STATUS_ERROR, error_kind=kind, error_message=line[:MAX_ERROR_MESSAGE_CHARS],
                  seconds=seconds)
    return record


def extract_record(page: PageInput, options: Options | None = None) -> dict[str, Any]:
    """Extract one page into a flat record (see :data:`RECORD_SCHEMA`).

    Args:
        page: the input; ``page.error`` set means it failed upstream and becomes an error row.
        options: extraction options (``Options()`` when ``None``); ``http_charset`` is
            taken from ``page`` when the page has one; ``render=None`` means ``"auto"`` for
            a page fetched from its URL (``source == url``), ``"never"`` otherwise.

    Returns:
        A dict with exactly the keys of :data:`RECORD_FIELDS`. Never raises for a bad
        page: unclutter's own refusals (``UnclutterError``) give their class name as
        ``error_kind``; an unexpected exception gives ``InternalError`` and its class name
        in the message (a bug to report; the batch goes on). ``MemoryError`` gives
        ``MemoryLimitError``.
    """
    from ..pipeline import run_pipeline  # the composer; imported lazily so workers start fast

    if page.error is not None:
        return error_record(page, page.error[0], page.error[1])
    if page.data is None:
        return error_record(page, "EmptyInputError", "no input data")
    opts = options or Options()
    if page.http_charset and page.http_charset != opts.http_charset:
        opts = _with_charset(opts, page.http_charset)
    if opts.render is None and page.url and page.source == page.url and page.url.startswith(("http://", "https://")):
        opts = _replace(opts, render="auto")  # a fetched URL, as for unclutter.extract_url
    start = time.perf_counter()
    try:
        article = run_pipeline(page.data, page.url, opts)
    except UnclutterError as exc:
        return error_record(page, type(exc).__name__, str(exc), time.perf_counter() - start)
    except MemoryError:
        return error_record(page, "MemoryLimitError", "the page needed more memory than the worker may use",
                            time.perf_counter() - start)
    except RecursionError:
        return error_record(page, "InputTooDeepError", "the page is nested too deeply",
                            time.perf_counter() - start)
    except Exception as exc:  # noqa: BLE001 - one bad page must not stop a batch of millions
        return error_record(page, "InternalError", f"{type(exc).__name__}: {exc}", time.perf_counter() - start)
    seconds = time.perf_counter() - start
    record = empty_record(page)
    record.update(
        status=STATUS_OK,
        title=article.title,
        byline=article.byline,
        date_published=article.date_published,
        date_modified=article.date_modified,
        canonical_url=article.canonical_url,
        site_name=article.site_name,
        excerpt=article.excerpt,
        lead_image=article.lead_image,
        language=article.language,
        page_type=article.page_type,
        extractor=article.extractor,
        content_source=article.content_source,
        render=None if article.render is None else ("rendered" if article.render.get("rendered") else "served"),
        confidence=article.confidence,
        confidence_reasons="; ".join(article.confidence_reasons) or None,
        markdown=article.markdown,
        text=article.text,
        word_count=article.word_count,
        token_count=article.tokens_clean,
        seconds=round(seconds, 6),
    )
    return record


def _with_charset(options: Options, charset: str) -> Options:
    return _replace(options, http_charset=charset)
