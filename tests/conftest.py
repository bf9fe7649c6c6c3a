"""Shared test fixtures: the golden pages in ``tests/pages`` (always present) and the big
labelled datasets outside the repository (``../shared/datasets``, or ``$UNCLUTTER_SHARED``;
tests that need them skip when absent)."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("UNCLUTTER_SHARED", REPO.parent / "shared"))
DATASETS = SHARED / "datasets"
#: Hand-built golden pages, one folder per case (see tests/pages/README.md).
PAGES = REPO / "tests" / "pages"


def load_cases(dataset: str) -> list[dict]:
    path = DATASETS / dataset / "cases.jsonl"
    if not path.exists():
        pytest.skip(f"shared dataset {dataset!r} not found at {path}")
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def case_html(dataset: str, case: dict) -> bytes:
    p = DATASETS / dataset / case["html"]
    data = p.read_bytes()
    return gzip.decompress(data) if p.suffix == ".gz" else data


def find_case(dataset: str, prefix: str) -> dict:
    for c in load_cases(dataset):
        if c["id"].startswith(prefix) or c.get("url") == prefix:
            return c
    raise KeyError(prefix)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.exists():
        pytest.skip(f"shared folder not found at {SHARED}")
    return SHARED
