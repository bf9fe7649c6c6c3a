#!/usr/bin/env python3
"""Check that a code change leaves every page's output byte-identical.

    python bench/identical.py snapshot OUT.json [--datasets ...] [--extractors auto,heuristic,gbdt]
    python bench/identical.py compare  OUT.json [--jobs 2]

``snapshot`` runs :func:`unclutter.extract` over every page of the shared datasets
(``../shared/datasets/*/cases.jsonl``; ``UNCLUTTER_SHARED`` names another folder), the bug-case pages (``../shared/bugcases``) and the
golden pages in ``tests/pages``, once per extractor named, and stores for each
(page, extractor) the SHA-256 of the Markdown and of the JSON record
(:meth:`Article.to_dict` with ``trace`` left out), or the error class name when extraction
refuses the page. ``compare`` recomputes the same digests with the current code and lists
every page whose output differs; it exits 1 when any does, 0 otherwise.

Meant for refactors ("move code, change nothing"): take a snapshot before, compare after.
The snapshot records the commit it was taken at. Work is spread over ``--jobs`` processes.
"""

from __future__ import annotations

import argparse
import gzip
import os
import hashlib
import json
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("UNCLUTTER_SHARED") or REPO.parent / "shared")
DEFAULT_EXTRACTORS = ("auto", "heuristic", "gbdt")


def _pages(datasets: list[str] | None) -> list[tuple[str, str, str | None]]:
    """(key, html path, url) for every page, in a stable order."""
    pages: list[tuple[str, str, str | None]] = []
    root = SHARED / "datasets"
    for cases in sorted(root.glob("*/cases.jsonl")) if root.is_dir() else []:
        name = cases.parent.name
        if datasets and name not in datasets:
            continue
        for line in cases.read_text(encoding="utf-8").split("\n"):  # not splitlines(): U+2028 is data
            if not line.strip():
                continue
            case = json.loads(line)
            if case.get("html"):
                pages.append((f"{name}/{case['id']}", str(cases.parent / case["html"]), case.get("url")))
    if not datasets:
        bug = SHARED / "bugcases"
        for path in sorted(bug.glob("*.html")) if bug.is_dir() else []:
            pages.append((f"bugcases/{path.stem}", str(path), None))
        for path in sorted((REPO / "tests" / "pages").glob("*/source.html")):
            pages.append((f"tests-pages/{path.parent.name}", str(path), None))
    return pages


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _one(job: tuple[str, str, str | None, tuple[str, ...]]) -> tuple[str, dict[str, str]]:
    key, path, url, extractors = job
    import unclutter
    from unclutter.core.errors import UnclutterError

    raw = Path(path).read_bytes()
    if path.endswith(".gz"):
        raw = gzip.decompress(raw)
    out: dict[str, str] = {}
    for extractor in extractors:
        try:
            article = unclutter.extract(raw, url=url, extractor=extractor)
        except UnclutterError as exc:
            out[extractor] = "error:" + type(exc).__name__
            continue
        record = article.to_dict()
        record.pop("trace", None)
        out[extractor] = _digest(article.markdown) + ":" + _digest(
            json.dumps(record, sort_keys=True, ensure_ascii=False, default=str))
    return key, out


def _run(pages: list[tuple[str, str, str | None]], extractors: tuple[str, ...], jobs: int) -> dict:
    work = [(k, p, u, extractors) for k, p, u in pages]
    results: dict[str, dict[str, str]] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for n, (key, out) in enumerate(pool.map(_one, work, chunksize=4), 1):
            results[key] = out
            if n % 200 == 0:
                print(f"  {n}/{len(work)} pages", file=sys.stderr)
    return results


def _commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("snapshot", "compare"))
    parser.add_argument("path", type=Path)
    parser.add_argument("--datasets", help="comma-separated dataset names (default: all, plus bug cases)")
    parser.add_argument("--extractors", default=",".join(DEFAULT_EXTRACTORS))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)

    if args.mode == "snapshot":
        datasets = args.datasets.split(",") if args.datasets else None
        extractors = tuple(args.extractors.split(","))
        pages = _pages(datasets)
        results = _run(pages, extractors, args.jobs)
        args.path.write_text(json.dumps({"commit": _commit(), "datasets": datasets, "extractors": extractors,
                                         "pages": results}, indent=0, sort_keys=True))
        print(f"{len(results)} pages x {len(extractors)} extractors -> {args.path}")
        return 0

    snap = json.loads(args.path.read_text())
    extractors = tuple(snap["extractors"])
    pages = [p for p in _pages(snap["datasets"]) if p[0] in snap["pages"]]
    missing = sorted(set(snap["pages"]) - {p[0] for p in pages})
    results = _run(pages, extractors, args.jobs)
    changed = [(key, ex) for key, out in results.items() for ex in extractors
               if out.get(ex) != snap["pages"][key].get(ex)]
    for key, ex in changed:
        print(f"CHANGED {key} [{ex}]: {snap['pages'][key].get(ex)} -> {results[key].get(ex)}")
    for key in missing:
        print(f"MISSING {key}")
    print(f"{len(results)} pages x {len(extractors)} extractors compared with snapshot of commit "
          f"{snap.get('commit')}: {len(changed)} changed, {len(missing)} missing")
    return 1 if changed or missing else 0


if __name__ == "__main__":
    sys.exit(main())
