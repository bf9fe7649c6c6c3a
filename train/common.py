"""Shared helpers of the training scripts: datasets, the pipeline's first stages, caching.

Every page goes through exactly the stages the pipeline runs before extraction (decode,
parse with the scripting-enabled early-drop selector, prune), then the heuristic's
selection (a feature) and :func:`unclutter.classify.features.build_graph`.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("UNCLUTTER_SHARED", REPO.parent / "shared"))
CACHE = REPO / "train" / "cache"
#: Datasets trained on. AEB is never read by the training scripts (it stays out-of-sample).
TRAIN_DATASETS = ("wcxb-dev", "readability-tests")
SEED = 20261129


def load_cases(name: str) -> list[dict]:
    assert name != "aeb", "AEB is never trained on"
    d = SHARED / "datasets" / name
    out = []
    for line in (d / "cases.jsonl").open(encoding="utf-8"):
        if line.strip():
            c = json.loads(line)
            c["_dir"] = str(d)
            c["_dataset"] = name
            out.append(c)
    return out


def page_bytes(case: dict) -> bytes:
    raw = (Path(case["_dir"]) / case["html"]).read_bytes()
    return gzip.decompress(raw) if case["html"].endswith(".gz") else raw


def site(case: dict) -> str:
    """The CV group of a case: wcxb's ``meta.domain``; each readability page its own."""
    meta = case.get("meta") or {}
    return meta.get("domain") or f"{case['_dataset']}:{case['id']}"


def page_type(case: dict) -> str:
    return (case.get("meta") or {}).get("page_type") or case["_dataset"]


def pruned_body(html_bytes: bytes, url: str | None):
    """Decode, parse and prune as :func:`unclutter.pipeline.run_pipeline` does; returns
    ``(pruned body, declared page type)`` (``Metadata.page_type``, read before pruning as
    the pipeline reads it)."""
    from unclutter.core.options import Options
    from unclutter.parse.metadata import extract_metadata
    from unclutter.pipeline import _to_text
    from unclutter.prune.clean import parse_for_pruning, prune

    html = _to_text(html_bytes, Options())
    page = parse_for_pruning(html, url)
    declared = extract_metadata(page, article_body=False).page_type
    return prune(page).root, declared


def heuristic_selection(html_bytes: bytes, url: str | None):
    """``(root, declared page type)``: the heuristic's selection of the page as
    :func:`unclutter.pipeline.run_pipeline` makes it before ``auto`` refines it (decode,
    parse, prune, :func:`unclutter.score.select.select_main_content`)."""
    from unclutter.core.options import Options
    from unclutter.parse.metadata import extract_metadata
    from unclutter.pipeline import _to_text
    from unclutter.prune.clean import parse_for_pruning, prune
    from unclutter.score.select import select_main_content

    html = _to_text(html_bytes, Options())
    page = parse_for_pruning(html, url)
    declared = extract_metadata(page, article_body=False).page_type
    pruned = prune(page)
    sel = select_main_content(pruned.root, in_place=True, log=False, body_chars=pruned.chars)
    return sel.root, declared


_ATTR_RE = re.compile(rb"""\s(?:class|id)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)


def build_vocab(cases: list[dict], size: int) -> list[str]:
    """The ``size`` class/id tokens present in the most pages (page frequency over the raw
    HTML of the training pages; unsupervised, ties broken alphabetically)."""
    from unclutter.classify.features import class_tokens

    df: Counter[str] = Counter()
    for c in cases:
        toks: set[str] = set()
        for m in _ATTR_RE.finditer(page_bytes(c)):
            v = (m.group(1) or m.group(2) or b"").decode("utf-8", "replace")
            toks.update(class_tokens(v))
        df.update(toks)
    return [t for t, _ in sorted(df.items(), key=lambda kv: (-kv[1], kv[0]))[:size]]


def save_results(name: str, results: dict, model_path: Path, t_start: float) -> None:
    """Record the shipped model's size and the run's minutes in ``results``, write them to
    ``train/results/<name>.json`` and print where the model went."""
    import time

    results["model_bytes"] = model_path.stat().st_size
    results["minutes"] = (time.time() - t_start) / 60
    out = REPO / "train" / "results" / f"{name}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print(f"saved {model_path} ({results['model_bytes']} bytes); {results['minutes']:.1f} min")
