"""unclutter on Ray Data: WARC archives and HTML files in, a Parquet dataset of records out.

::

    import ray
    from unclutter.scale.ray import extract_dataset
    ray.init()                                   # local Ray, or ray.init("ray://head:10001")
    ds = extract_dataset(["crawl/a.warc.gz", "crawl/b.warc.gz"])
    ds.write_parquet("out/")                     # columns of unclutter.batch.RECORD_SCHEMA

Each input path is one Ray task that reads its pages (:func:`unclutter.scale.pages_of`);
pages are extracted with :func:`unclutter.scale.bounded_record` in batches of
``batch_size`` by ``map_batches``. The same code runs on a laptop and on a cluster; paths
must be readable by every node (a shared file system).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..batch.record import RECORD_FIELDS
from ..batch.sources import expand_sources
from ..core.options import Options
from . import DEFAULT_TASK_PAGE_TIMEOUT_S, bounded_record, missing_extra, pages_of

__all__ = ["extract_dataset"]


def _read_path(row: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"id": p.id, "source": p.source, "url": p.url, "data": p.data, "http_charset": p.http_charset,
             "error_kind": p.error[0] if p.error else None, "error_message": p.error[1] if p.error else None}
            for p in pages_of(row["path"])]


def _text(value: Any) -> str | None:
    """A string cell of a Ray batch, or ``None`` (an all-null column arrives as NaN)."""
    return str(value) if isinstance(value, str) else None


class _Extract:
    """A ``map_batches`` callable: one per Ray worker, so models load once per worker."""

    def __init__(self, options: Options, timeout: float) -> None:
        self.options = options
        self.timeout = timeout

    def __call__(self, batch: dict[str, Any]) -> dict[str, list]:
        from ..batch.record import PageInput

        columns: dict[str, list] = {f: [] for f in RECORD_FIELDS}
        for i in range(len(batch["id"])):
            error = None
            if _text(batch["error_kind"][i]) is not None:
                error = (batch["error_kind"][i], _text(batch["error_message"][i]) or "")
            data = batch["data"][i]
            page = PageInput(id=str(batch["id"][i]), source=str(batch["source"][i]), url=_text(batch["url"][i]),
                             data=bytes(data) if isinstance(data, (bytes, bytearray, memoryview)) else None,
                             http_charset=_text(batch["http_charset"][i]), error=error)
            record = bounded_record(page, self.options, self.timeout)
            for f in RECORD_FIELDS:
                columns[f].append(record[f])
        return columns


def extract_dataset(sources: Sequence[str], *, options: Options | None = None, batch_size: int = 32,
                    concurrency: int | None = None, timeout: float = DEFAULT_TASK_PAGE_TIMEOUT_S,
                    include: Sequence[str] = (), exclude: Sequence[str] = ()):
    """A Ray Dataset of records (columns :data:`~unclutter.batch.record.RECORD_SCHEMA`).

    Args:
        sources: files, folders and WARC archives (folders are listed on the driver).
        options: extraction options of every page.
        batch_size: pages per ``map_batches`` call.
        concurrency: extraction actors (``None``: Ray decides from the CPUs).
        timeout: seconds per page (``TimeoutError`` row after).

    Raises:
        ImportError: Ray is not installed (the ``ray`` extra).
    """
    try:
        import ray.data
    except ImportError:
        raise missing_extra("ray", "ray") from None
    paths = [item.name for item in expand_sources(sources, include, exclude) if item.kind != "url"]
    opts = options or Options()
    ds = ray.data.from_items([{"path": p} for p in paths])
    # reading is light: it reserves no CPU, so the extraction actors keep every core busy
    pages = ds.flat_map(_read_path, num_cpus=0)
    actors = concurrency or max(1, int(ray.available_resources().get("CPU", 1)))
    return pages.map_batches(_Extract, fn_constructor_args=(opts, timeout), batch_size=batch_size,
                             compute=ray.data.ActorPoolStrategy(size=actors))
