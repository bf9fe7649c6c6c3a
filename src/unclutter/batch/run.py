"""The batch command's engine: inputs in, sharded output out, with progress and a summary.

:func:`run_batch` composes :mod:`~unclutter.batch.sources` (what to read),
:mod:`~unclutter.batch.workers` (extraction in worker processes with a deadline per
page) and :mod:`~unclutter.batch.output` (atomic shards, resumption). The CLI's batch mode
is a thin layer over it.
"""

from __future__ import annotations

import dataclasses
import resource
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import OutputError
from ..core.options import Options
from .output import DEFAULT_SHARD_SIZE, ShardedOutput, StreamOutput
from .record import STATUS_OK, PageInput
from .sources import SourceCounts, expand_sources, read_pages
from .workers import DEFAULT_PAGE_TIMEOUT_S, leave_if_starting_worker, map_records, worker_count


@dataclass
class BatchSummary:
    """What a batch run did.

    Attributes:
        pages: records written by this run (one per input page).
        resumed: inputs skipped because an earlier, interrupted run wrote them.
        status: records per status (``"ok"``, ``"error"``) in the output, those written by an
            earlier, interrupted run included (with ``errors_only``, only error records are).
        errors: error records per error kind, likewise.
        skipped_records: WARC records that are not HTML responses (not in the output).
        truncated_archives: archives that end inside a record or are unreadable past a point;
            ``corrupt_regions``: unreadable data inside archives, skipped to the next record.
        seconds: wall time of the run; ``cpu_seconds``: CPU time of this process plus the
            workers' CPU time spent on pages.
        worker_peak_rss_mb: the largest peak resident set of a worker, MiB.
    """

    pages: int = 0
    resumed: int = 0
    status: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    skipped_records: int = 0
    truncated_archives: int = 0
    corrupt_regions: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    worker_peak_rss_mb: float = 0.0

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    @property
    def failed(self) -> int:
        return self.status.get("error", 0)

    def lines(self) -> list[str]:
        """The end-of-run summary, one fact per line."""
        out = [f"{self.pages} page{'s' if self.pages != 1 else ''} in {self.seconds:.1f} s "
               f"({self.pages_per_second:.1f} pages/s, "
               f"{self.cpu_seconds:.1f} s CPU, peak {self.worker_peak_rss_mb:.0f} MiB per worker)"]
        if self.resumed:
            out.append(f"{self.resumed} pages were already done (resumed)")
        out.append("status: " + ", ".join(f"{k} {v}" for k, v in sorted(self.status.items())) if self.status
                   else "status: nothing to do")
        if self.errors:
            out.append("errors: " + ", ".join(f"{k} {v}" for k, v in self.errors.most_common()))
        if self.skipped_records:
            out.append(f"skipped WARC records (not HTML responses): {self.skipped_records}")
        if self.truncated_archives:
            out.append(f"truncated archives: {self.truncated_archives}")
        if self.corrupt_regions:
            out.append(f"unreadable archive regions skipped: {self.corrupt_regions}")
        return out


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def run_identity(sources: Sequence[str], include: Sequence[str], exclude: Sequence[str], options: Options, *,
                 errors_only: bool = False, timeout: float = DEFAULT_PAGE_TIMEOUT_S,
                 memory_limit: int | None = None, fetcher=None) -> dict:
    """What makes two batch runs "the same command" (a resumed run must match the first):
    inputs, globs, extraction options, and the settings that change records."""
    opts = {k: _canonical(v) for k, v in dataclasses.asdict(options).items()}
    return {"sources": list(sources), "include": list(include), "exclude": list(exclude),
            "options": {k: repr(v) for k, v in sorted(opts.items())}, "errors_only": errors_only,
            "page_timeout": timeout, "memory_limit": memory_limit,
            "fetch": fetcher.identity() if hasattr(fetcher, "identity") else None}


def _canonical(value):
    """``value`` with every set sorted (at any depth): a repr that is the same in every
    process (string hashing, hence set order, is randomized per process)."""
    if isinstance(value, (set, frozenset)):
        return sorted(_canonical(v) for v in value)
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return type(value)(_canonical(v) for v in value)
    return value


def _progress(total_known: int | None, quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - a dependency of the default install
        return None
    return tqdm(total=total_known, unit="page", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)


def run_batch(sources: Sequence[str], out: str, *, options: Options | None = None, workers: int | None = None,
              include: Sequence[str] = (), exclude: Sequence[str] = (), page_format: str = "markdown",
              shard_size: int = DEFAULT_SHARD_SIZE, timeout: float = DEFAULT_PAGE_TIMEOUT_S,
              memory_limit: int | None = None, fetcher=None, overwrite: bool = False,
              errors_only: bool = False, quiet: bool = False, record_fn=None) -> BatchSummary:
    """Extract every page named by ``sources`` into ``out``.

    Args:
        sources: paths, folders, WARC files and URLs (a list file is read by the caller).
        out: ``*.jsonl``, ``*.parquet`` or a folder (see :mod:`unclutter.batch.output`), or
            ``-``: JSON Lines on standard output, each record as it comes (no resume:
            :class:`~unclutter.batch.output.StreamOutput`).
        options: extraction options of every page.
        workers: processes (``None``: the CPUs this process may use).
        include, exclude: file-name patterns inside folders.
        page_format: ``"markdown"`` or ``"json"`` files in a folder output.
        shard_size: inputs per shard (the work a crash can cost).
        timeout: seconds per page before its worker is killed.
        memory_limit: address-space ceiling per worker, bytes.
        fetcher: ``callable(urls) -> Iterator[PageInput]`` for URLs (``BatchFetcher``).
        overwrite: replace an existing output.
        errors_only: write only the records that failed.
        quiet: no progress bar.
        record_fn: another record function (benchmarks run rivals in this harness).

    Returns:
        A :class:`BatchSummary`. Records that failed are in the output with their error
        kind; it is the caller's to turn ``summary.failed`` into an exit status.

    Raises:
        UsageError: see :class:`~unclutter.batch.output.ShardedOutput`.
        OutputError: the output cannot be written.
        WorkerStartError: a worker ended while starting (in a script: the call is not under
            ``if __name__ == "__main__":``).
    """
    if workers != 0:
        leave_if_starting_worker()  # (before the output folder is touched)
    options = options or Options()
    started = time.perf_counter()
    cpu0 = _cpu_seconds()
    identity = run_identity(sources, include, exclude, options, errors_only=errors_only, timeout=timeout,
                            memory_limit=memory_limit, fetcher=fetcher)
    if out == "-":
        if sys.stdout is None:  # (started with standard output closed: `>&-`)
            raise OutputError("cannot write to standard output: it is closed")
        # (one record a line as each comes: a shard of one input)
        output = StreamOutput(sys.stdout)
        shard_size = 1
    else:
        output = ShardedOutput(out, identity, page_format=page_format, shard_size=shard_size, overwrite=overwrite)
    skip = output.done_inputs
    counts = SourceCounts()
    summary = BatchSummary(resumed=0)
    items = list(expand_sources(sources, include, exclude))
    # the total (and so an ETA) is known unless an archive holds an unknown number of pages
    total = None if any(item.kind == "warc" for item in items) else max(0, len(items) - skip)
    bar = _progress(total, quiet)

    names: dict[int, str] = {}  # output names of a folder output, until their record comes

    def numbered() -> Iterator[tuple[int, PageInput]]:
        for index, page in enumerate(read_pages(items, counts,
                                                max_bytes=options.max_input_bytes, fetch=fetcher,
                                                skip=skip)):
            if page.name:
                names[skip + index] = page.name
            yield skip + index, page

    shard: list[dict] = []
    shard_no = output.done_shards
    done = output.done_counts() if skip else []
    # (records, not inputs: the earlier run's last shard may hold fewer than a shard's size)
    summary.resumed = skip if errors_only else len(done)
    for status, kind in done:  # the statuses count every record of the output: an earlier run's too
        summary.status[status] += 1
        if status != STATUS_OK:
            summary.errors[kind] += 1
    worker_cpu = [0.0]
    stats: dict[str, int] = {}
    try:
        n_workers = worker_count(workers)
        if total is not None:
            n_workers = max(1, min(n_workers, total))  # no idle workers to start
        for index, record in map_records(numbered(), options, workers=n_workers, timeout=timeout,
                                         memory_limit=memory_limit, cpu_seconds=worker_cpu, stats=stats,
                                         record_fn=record_fn):
            summary.pages += 1
            if index in names:
                record["_name"] = names.pop(index)
            summary.status[record["status"]] += 1
            if record["status"] != STATUS_OK:
                summary.errors[record["error_kind"]] += 1
            if not errors_only or record["status"] != STATUS_OK:
                shard.append(record)
            if bar is not None:
                bar.update(1)
                bar.set_postfix(errors=summary.failed, refresh=False)
            if index + 1 == (shard_no + 1) * shard_size:
                output.write_shard(shard_no, shard)
                shard, shard_no = [], shard_no + 1
        if shard or summary.pages + skip > shard_no * shard_size:
            output.write_shard(shard_no, shard)
        output.finish()
    finally:
        output.close()
        if bar is not None:
            bar.close()
    summary.skipped_records = counts["skipped_records"]
    summary.truncated_archives = counts["truncated_archives"]
    summary.corrupt_regions = counts["corrupt_regions"]
    summary.seconds = time.perf_counter() - started
    summary.cpu_seconds = _cpu_seconds() - cpu0 + worker_cpu[0]
    summary.worker_peak_rss_mb = stats.get("worker_peak_rss_kb", 0) / 1024
    return summary
