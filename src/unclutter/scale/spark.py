"""unclutter on Apache Spark (PySpark), in the cc-pyspark convention: an RDD of WARC (or HTML)
paths, ``mapPartitions`` over them, a DataFrame of records written as Parquet.

::

    from pyspark.sql import SparkSession
    from unclutter.scale.spark import extract_paths
    spark = SparkSession.builder.master("local[2]").getOrCreate()
    df = extract_paths(spark, ["crawl/a.warc.gz", "crawl/b.warc.gz"])
    df.write.parquet("out/")                     # columns of unclutter.batch.RECORD_SCHEMA

Each partition's Python worker extracts its pages with :func:`unclutter.scale.bounded_record`
(models load once per worker process). Paths must be readable by every executor.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from ..batch.record import RECORD_FIELDS, RECORD_SCHEMA
from ..batch.sources import expand_sources
from ..core.options import Options
from . import DEFAULT_TASK_PAGE_TIMEOUT_S, bounded_record, missing_extra, pages_of

__all__ = ["extract_paths", "spark_schema", "process_partition"]


def spark_schema():
    """The Spark SQL schema of :data:`~unclutter.batch.record.RECORD_SCHEMA`."""
    from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

    types = {"string": StringType(), "int64": LongType(), "float64": DoubleType()}
    return StructType([StructField(name, types[kind], nullable=name not in ("id", "source", "status"))
                       for name, kind in RECORD_SCHEMA])


def process_partition(paths: Iterable[str], options: Options | None = None,
                      timeout: float = DEFAULT_TASK_PAGE_TIMEOUT_S) -> Iterator[tuple]:
    """Records (as tuples in :data:`RECORD_FIELDS` order) of every page of ``paths``."""
    for path in paths:
        for page in pages_of(path):
            record = bounded_record(page, options, timeout)
            yield tuple(record[f] for f in RECORD_FIELDS)


def extract_paths(spark, sources: Sequence[str], *, options: Options | None = None,
                  num_partitions: int | None = None, timeout: float = DEFAULT_TASK_PAGE_TIMEOUT_S,
                  include: Sequence[str] = (), exclude: Sequence[str] = ()):
    """A DataFrame of records for the pages of ``sources`` (files, folders, WARC archives).

    Args:
        spark: a ``SparkSession``.
        sources: paths; folders are listed on the driver.
        options: extraction options of every page.
        num_partitions: partitions of the path list (default: one per path, at most the
            default parallelism).
        timeout: seconds per page (``TimeoutError`` row after).

    Raises:
        ImportError: PySpark is not installed (the ``spark`` extra).
    """
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise missing_extra("spark", "pyspark") from None
    paths = [item.name for item in expand_sources(sources, include, exclude) if item.kind != "url"]
    opts = options or Options()
    parts = num_partitions or max(1, min(len(paths), spark.sparkContext.defaultParallelism))
    rdd = spark.sparkContext.parallelize(paths, parts).mapPartitions(
        lambda it: process_partition(it, opts, timeout))
    return spark.createDataFrame(rdd, schema=spark_schema())
