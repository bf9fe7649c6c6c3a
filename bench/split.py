"""The fixed read/scored split of the development datasets.

Every dataset under ``../shared/datasets`` is a development set. Each is cut once, by a
rule that does not depend on the pages' content, into a **read** part (pages whose failures
may be looked at to find a failure family) and a **scored** part (pages only ever scored:
nobody opens their predictions). A change is kept only when it does not lose on the
scored part (and, for wcxb-dev, on the cross-validation by site of ``bench/cv.py``).

The rule: pages are grouped by site (the URL's host without a leading ``www.``; the page
id where every page has the same host, as readability-tests' ``fakehost``), and a site is
**scored** when the first 8 hex digits of ``SHA-256("<dataset>:<site>")`` make an odd
number, else **read**. Grouping by site keeps two pages of one site on the same side (a
rule fitted to a site's template cannot leak into the scored part through its sibling).

    python bench/split.py            # the parts' sizes per dataset
    python bench/split.py --list aeb # "<id> <part>" lines
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
READ, SCORED = "read", "scored"


def site_of(case: dict) -> str:
    """The site of a case: the URL's host without ``www.`` (``""`` without a URL)."""
    host = urlsplit(case.get("url") or "").hostname or ""
    return host.removeprefix("www.")


def split_parts(dataset: str, cases: list[dict]) -> dict[str, str]:
    """``{case id: "read" | "scored"}`` for the cases of ``dataset`` (see the module
    docstring for the rule)."""
    sites = {c["id"]: site_of(c) for c in cases}
    one_site = len(set(sites.values())) <= 1
    out = {}
    for case_id, site in sites.items():
        key = case_id if one_site or not site else site
        digest = hashlib.sha256(f"{dataset}:{key}".encode()).hexdigest()
        out[case_id] = SCORED if int(digest[:8], 16) % 2 else READ
    return out


def _load(shared: Path, name: str) -> list[dict]:
    text = (shared / "datasets" / name / "cases.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path,
                    default=Path(os.environ.get("UNCLUTTER_SHARED") or REPO.parent / "shared"))
    ap.add_argument("--list", metavar="DATASET", help="print each case's part")
    args = ap.parse_args(argv)
    if args.list:
        for case_id, part in split_parts(args.list, _load(args.shared, args.list)).items():
            print(case_id, part)
        return 0
    for folder in sorted((args.shared / "datasets").glob("*/cases.jsonl")):
        name = folder.parent.name
        parts = split_parts(name, _load(args.shared, name))
        n = Counter(parts.values())
        print(f"{name}: {n[READ]} read, {n[SCORED]} scored")
    return 0


if __name__ == "__main__":
    sys.exit(main())
