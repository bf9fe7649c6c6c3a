"""The batch job on distributed engines: Ray Data, Apache Spark, datatrove.

Each adapter is a thin layer over the engine-neutral core (:mod:`unclutter.batch`): the
engine lists and reads inputs (:func:`pages_of`), calls
:func:`~unclutter.batch.record.extract_record` on each page (:func:`bounded_record`, which
adds a per-page deadline where the engine runs tasks on a main thread) and writes the
records with the same columns (:data:`~unclutter.batch.record.RECORD_SCHEMA`). So a page
gives the same record whichever engine runs it.

The engines are extras, never in the default install:
``pip install 'unclutter[ray]'``, ``'unclutter[spark]'`` (and a Java runtime),
``'unclutter[datatrove]'``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..batch.record import PageInput, error_record, extract_record
from ..batch.sources import Item, SourceCounts, read_pages
from ..core.deadline import alarm_deadline
from ..core.options import Options

__all__ = ["bounded_record", "pages_of", "missing_extra"]

#: Seconds one page may take inside an engine's task (``TimeoutError`` row after).
DEFAULT_TASK_PAGE_TIMEOUT_S = 60.0


class _PageTimeout(Exception):
    pass


def bounded_record(page: PageInput, options: Options | None = None,
                   timeout: float | None = DEFAULT_TASK_PAGE_TIMEOUT_S) -> dict:
    """:func:`~unclutter.batch.record.extract_record` with a deadline of ``timeout`` seconds."""
    try:
        with alarm_deadline(timeout, _PageTimeout):
            return extract_record(page, options)
    except _PageTimeout:
        return error_record(page, "TimeoutError", f"{page.source}: extraction ran past {timeout:g} s", timeout)


def pages_of(path: str, max_bytes: int | None = None) -> Iterator[PageInput]:
    """The pages of one input path: every HTML response of a WARC archive, or the file itself."""
    from ..batch.sources import is_warc

    kind = "warc" if is_warc(path) else "file"
    opts = Options()
    yield from read_pages([Item(kind, path, path.rsplit("/", 1)[-1])], SourceCounts(),
                          max_bytes=max_bytes or opts.max_input_bytes)


def missing_extra(extra: str, module: str) -> ImportError:
    return ImportError(f"this needs the {extra} extra ({module} is not installed): pip install 'unclutter[{extra}]'")
