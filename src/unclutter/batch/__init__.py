"""Many pages in, one dataset out: batch extraction on one machine, and the core that the
Ray, Spark and datatrove adapters (:mod:`unclutter.scale`) share.

* :func:`extract_record` — one :class:`PageInput` to one flat record
  (:data:`RECORD_SCHEMA`); picklable, never raises for a bad page.
* :func:`extract_many` — a generator of records over paths, folders, WARC archives, URLs
  or in-memory pages, extracted in worker processes.
* :func:`run_batch` — the batch command: sharded, atomic, resumable output
  (JSON Lines, Parquet or a folder), progress bar and summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ..core.options import Options
from .record import RECORD_FIELDS, RECORD_SCHEMA, PageInput, extract_record
from .run import BatchSummary, run_batch
from .sources import SourceCounts, expand_sources, read_pages
from .workers import DEFAULT_PAGE_TIMEOUT_S, map_records, worker_count

__all__ = ["extract_many", "extract_record", "run_batch", "BatchSummary", "PageInput",
           "RECORD_FIELDS", "RECORD_SCHEMA"]


def extract_many(sources: Iterable[str | Path | PageInput], *, workers: int | None = None, ordered: bool = True,
                 timeout: float = DEFAULT_PAGE_TIMEOUT_S, memory_limit: int | None = None,
                 include: Iterable[str] = (), exclude: Iterable[str] = (), policy=None,
                 **options) -> Iterator[dict]:
    """Extract many pages; yield one record (a dict, :data:`RECORD_SCHEMA`) per page.

    Args:
        sources: paths of HTML files, folders (walked recursively, sorted), WARC archives,
            ``http(s)://`` URLs (fetched through the safe fetcher under ``policy``), or
            :class:`PageInput` values for pages already in memory.
        workers: worker processes (``None``: the CPUs this process may use; ``0``: in this
            process, without deadline).
        ordered: ``True`` yields records in input order; ``False`` as pages complete (the
            ``id`` field tells them apart).
        timeout: seconds per page before its worker is killed (the page's record has
            ``error_kind = "TimeoutError"``).
        memory_limit: address-space ceiling per worker in bytes (``MemoryLimitError`` rows).
        include, exclude: file-name patterns inside folders (``fnmatch``).
        policy: :class:`~unclutter.fetch.policy.FetchPolicy` for URLs.
        **options: :class:`~unclutter.Options` fields, as for :func:`unclutter.extract`.

    A page that fails is a record with ``status = "error"``; the generator itself raises
    only ``UsageError`` for bad options.
    """
    from .fetching import BatchFetcher

    opts = Options(**options)
    fetcher = BatchFetcher(policy)

    def pages() -> Iterator[tuple[int, PageInput]]:
        index = 0
        named: list[str] = []

        def drain() -> Iterator[tuple[int, PageInput]]:
            nonlocal index
            if named:
                for page in read_pages(expand_sources(list(named), include, exclude), SourceCounts(),
                                       max_bytes=opts.max_input_bytes, fetch=fetcher):
                    yield index, page
                    index += 1
                named.clear()

        for source in sources:
            if isinstance(source, PageInput):
                yield from drain()
                yield index, source
                index += 1
            else:
                named.append(str(source))
        yield from drain()

    for _, record in map_records(pages(), opts, workers=worker_count(workers), timeout=timeout,
                                 memory_limit=memory_limit, ordered=ordered):
        yield record
