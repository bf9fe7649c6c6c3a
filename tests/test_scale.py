"""Ray, Spark and datatrove run the batch job: the same records as the batch command's.

Ray runs locally on 2 CPUs and Spark as ``local[2]``; both read a WARC the test builds from
the golden pages in ``tests/pages`` (and a few hand-built ones, an error row among them).
Nothing listens or connects beyond 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from unclutter.batch import run_batch
from warc_build import response_record, write_warc

PAGES = Path(__file__).parent / "pages"


def _records(tmp_path: Path) -> list[bytes]:
    out = []
    for i, source in enumerate(sorted(PAGES.glob("*/source.html"))[:12]):
        # no charset in the HTTP header: the pages declare theirs (one is Latin-1)
        out.append(response_record(f"https://example.org/golden/{source.parent.name}", source.read_bytes(),
                                   "text/html"))
    body = ("<html><head><title>Hand-built {n}</title></head><body><article><h1>Hand-built {n}</h1>"
            + "<p>A paragraph about harbours, ships and the tides of the northern sea. </p>" * 10
            + "</article></body></html>")
    for n in range(4):
        out.append(response_record(f"https://example.org/hand/{n}", body.format(n=n).encode()))
    out.append(response_record("https://example.org/binary", b"\x00\x01\x02\x03" * 64))
    out.append(response_record("https://example.org/empty", b"<html><body><nav><a href=/>x</a></nav></body></html>"))
    return out


@pytest.fixture(scope="module")
def warcs(tmp_path_factory):
    root = tmp_path_factory.mktemp("warcs")
    records = _records(root)
    half = len(records) // 2
    write_warc(root / "a.warc.gz", records[:half])
    write_warc(root / "b.warc", records[half:])
    expected_out = root / "batch.jsonl"
    run_batch([str(root / "a.warc.gz"), str(root / "b.warc")], str(expected_out), workers=1, quiet=True)
    rows = [json.loads(line) for line in expected_out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == len(records) and any(r["status"] == "error" for r in rows)
    return root, {r["id"]: _comparable(r) for r in rows}


def _comparable(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "seconds"}


def test_ray_records_equal_the_batch_commands(warcs, tmp_path):
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    from unclutter.scale.ray import extract_dataset

    root, expected = warcs
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # Ray's socket paths must stay under 108 bytes
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True,
             _temp_dir=temp)
    try:
        ds = extract_dataset([str(root / "a.warc.gz"), str(root / "b.warc")])
        out = tmp_path / "ray-parquet"
        ds.write_parquet(str(out))
        import pyarrow.parquet as pq

        rows = pq.read_table(str(out)).to_pylist()
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
    got = {r["id"]: _comparable(r) for r in rows}
    assert got == expected


def test_spark_records_equal_the_batch_commands(warcs, tmp_path):
    pytest.importorskip("pyspark", reason="the spark extra is not installed")
    if not shutil.which("java") and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime (apt-get install default-jre-headless)")
    from pyspark.sql import SparkSession

    from unclutter.scale.spark import extract_paths

    root, expected = warcs
    os.environ["PYSPARK_PYTHON"] = sys.executable  # workers run this interpreter, which has unclutter
    spark = (SparkSession.builder.master("local[2]").appName("unclutter-test")
             .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
             .getOrCreate())
    try:
        df = extract_paths(spark, [str(root / "a.warc.gz"), str(root / "b.warc")])
        out = tmp_path / "spark-parquet"
        df.write.parquet(str(out))
        import pyarrow.parquet as pq

        rows = pq.read_table(str(out)).to_pylist()
    finally:
        spark.stop()
    got = {r["id"]: _comparable(r) for r in rows}
    assert got == expected


def test_datatrove_step_runs_in_a_local_pipeline(warcs, tmp_path):
    pytest.importorskip("datatrove", reason="the datatrove extra is not installed")
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter

    from unclutter.scale.datatrove import Unclutter

    root, expected = warcs
    out = tmp_path / "dt-out"
    LocalPipelineExecutor(pipeline=[
        WarcReader(str(root), glob_pattern="*.warc*"),
        Unclutter(timeout=30),
        JsonlWriter(str(out), compression=None),
    ], tasks=1, logging_dir=str(tmp_path / "dt-logs")).run()
    docs = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]
    by_url = {r["url"]: r for r in expected.values() if r["status"] == "ok"}
    assert docs, "the step wrote no document"
    assert len(docs) == len(by_url)  # pages without main content are dropped, as datatrove's extractors do
    for doc in docs:
        url = doc["metadata"]["url"]
        assert url in by_url
        # without the page's URL (datatrove's extract() gets text only) links may resolve differently
        assert doc["text"].split("\n", 1)[0] == by_url[url]["markdown"].split("\n", 1)[0]
