#!/usr/bin/env python3
"""Metadata accuracy: title, byline, publication date and language against the ground truths
that carry them, for unclutter, trafilatura and readability-lxml in the same run.

    python bench/metadata.py [--datasets wcxb-dev,readability-tests] [--out bench/results/metadata.json]

Ground truths: wcxb-dev (``title``, ``meta.author``, ``meta.publish_date``),
readability-tests (``title``, ``meta.byline``, ``meta.publishedTime``, ``meta.lang``); AEB
carries none. A field is scored on the pages whose ground truth has it; a missing
prediction counts as wrong. Each page is also on one side of the fixed read/scored split
(:mod:`split`), and both sides are reported.

How a prediction counts as correct (the comparisons are stated so that no extractor's
formatting is favoured):

- **title**: equal after case folding, Unicode NFKC, and keeping only letters and digits
  (dashes, quotes and spacing differ between sources of one title).
- **byline**: the same set of name tokens (letters and digits, case folded) once the
  joining words ``by``, ``and``, ``&``, ``with`` are left out ("By Ann Lee and Bo Chan" =
  "Ann Lee, Bo Chan").
- **date**: the ground truth's calendar day (``YYYY-MM-DD``, its first ten characters) is
  the prediction's; the prediction must be ISO 8601 (``YYYY-MM-DD``, optionally followed
  by ``T`` and a time): a date in any other shape is wrong however it reads, and counted
  apart as **not ISO**.
- **language**: the primary language subtag (BCP 47, RFC 5646: ``en-GB`` -> ``en``) is
  the same.

Extractors: ``unclutter.extract(html, url=url)`` (``title``, ``byline``,
``date_published``, ``language``); ``trafilatura.bare_extraction(html, url=url,
with_metadata=True)`` (``title``, ``author``, ``date``, ``language``); readability-lxml
``Document(html).short_title()`` (title only).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

FIELDS = ("title", "byline", "date", "language")
_ISO_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}.*)?$")
_JOINERS = frozenset({"by", "and", "&", "with"})


def _letters(s: str) -> str:
    s = unicodedata.normalize("NFKC", s).casefold()
    return "".join(ch for ch in s if ch.isalnum())


def _name_tokens(s: str) -> frozenset[str]:
    s = unicodedata.normalize("NFKC", s).casefold()
    return frozenset(t for t in re.findall(r"[^\W_]+|&", s) if t not in _JOINERS)


def correct(field: str, truth: str, pred: str | None) -> bool:
    """Whether ``pred`` counts as the ground truth ``truth`` (module docstring)."""
    if not pred:
        return False
    if field == "title":
        return _letters(truth) == _letters(pred)
    if field == "byline":
        return _name_tokens(truth) == _name_tokens(pred)
    if field == "date":
        return bool(_ISO_DATE_RE.match(pred)) and pred[:10] == truth[:10]
    if field == "language":
        return truth.split("-")[0].split("_")[0].casefold() == pred.split("-")[0].split("_")[0].casefold()
    raise ValueError(field)


def truths(dataset: str, case: dict) -> dict[str, str]:
    """The case's ground-truth fields (those present)."""
    meta = case.get("meta") or {}
    if dataset == "wcxb-dev":
        got = {"title": case.get("title"), "byline": meta.get("author"), "date": meta.get("publish_date")}
    elif dataset == "readability-tests":
        got = {"title": case.get("title"), "byline": meta.get("byline"), "date": meta.get("publishedTime"),
               "language": meta.get("lang")}
    else:
        got = {}
    return {k: v.strip() for k, v in got.items() if isinstance(v, str) and v.strip()}


def predict(extractor: str, html: bytes, url: str | None) -> dict[str, str | None]:
    if extractor == "unclutter":
        import unclutter
        from unclutter.core.errors import UnclutterError

        try:
            a = unclutter.extract(html, url=url)
        except UnclutterError:
            return {}
        return {"title": a.title, "byline": a.byline, "date": a.date_published, "language": a.language}
    if extractor == "trafilatura":
        from trafilatura import bare_extraction

        d = bare_extraction(html, url=url, with_metadata=True)
        if d is None:
            return {}
        return {"title": d.title, "byline": d.author, "date": d.date, "language": d.language}
    if extractor == "readability-lxml":
        from readability import Document

        try:
            return {"title": Document(html).short_title()}
        except Exception:  # noqa: BLE001 - a rival's crash is a missing prediction
            return {}
    raise ValueError(extractor)


def _load(shared: Path, name: str) -> list[dict]:
    text = (shared / "datasets" / name / "cases.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line.strip()]


def _html(shared: Path, name: str, case: dict) -> bytes:
    path = shared / "datasets" / name / case["html"]
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def main(argv: list[str] | None = None) -> int:
    from split import split_parts

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path,
                    default=Path(os.environ.get("UNCLUTTER_SHARED") or REPO.parent / "shared"))
    ap.add_argument("--datasets", default="wcxb-dev,readability-tests")
    ap.add_argument("--extractors", default="unclutter,trafilatura,readability-lxml")
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "metadata.json")
    ap.add_argument("--show-wrong", metavar="FIELD", help="list unclutter's wrong predictions of the read part")
    args = ap.parse_args(argv)
    extractors = [e for e in args.extractors.split(",") if e]
    report: dict = {"datasets": {}}
    for name in args.datasets.split(","):
        cases = _load(args.shared, name)
        parts = split_parts(name, cases)
        table: dict = {}
        wrong: list[tuple] = []
        started = time.perf_counter()
        for case in cases:
            truth = truths(name, case)
            if not truth:
                continue
            html = _html(args.shared, name, case)
            for ext in extractors:
                pred = predict(ext, html, case.get("url"))
                if name == "wcxb-dev" and "date" not in truth and ext != "readability-lxml":
                    # a page whose truth states no date: a predicted one is spurious
                    cell = table.setdefault("undated", {}).setdefault(ext, {"pages": 0, "dated": 0})
                    cell["pages"] += 1
                    cell["dated"] += bool(pred.get("date"))
                for field, value in truth.items():
                    if ext == "readability-lxml" and field != "title":
                        continue
                    got = pred.get(field)
                    ok = correct(field, value, got)
                    for part in ("all", parts[case["id"]]):
                        cell = table.setdefault(field, {}).setdefault(ext, {}).setdefault(
                            part, {"pages": 0, "correct": 0, "not_iso": 0})
                        cell["pages"] += 1
                        cell["correct"] += ok
                        if field == "date" and got and not _ISO_DATE_RE.match(got):
                            cell["not_iso"] += 1
                    if (ext == "unclutter" and not ok and field == args.show_wrong
                            and parts[case["id"]] == "read"):
                        wrong.append((case["id"], value, got))
        undated = table.pop("undated", {})
        for field in table.values():
            for ext in field.values():
                for cell in ext.values():
                    cell["accuracy"] = cell["correct"] / cell["pages"] if cell["pages"] else None
        if undated:
            table["date_on_undated_pages"] = undated
        report["datasets"][name] = table
        print(f"\n## {name} ({time.perf_counter() - started:.0f} s)\n")
        print("| field | pages | " + " | ".join(f"{e} (read / scored)" for e in extractors) + " |")
        print("|---|---:|" + "---:|" * len(extractors))
        for field in FIELDS:
            if field not in table:
                continue
            cells = []
            for ext in extractors:
                c = table[field].get(ext)
                if not c:
                    cells.append("–")
                    continue
                text = f"{c['all']['accuracy']:.3f} ({c.get('read', {}).get('accuracy') or 0:.3f} / " \
                       f"{c.get('scored', {}).get('accuracy') or 0:.3f})"
                if field == "date" and c["all"]["not_iso"]:
                    text += f", {c['all']['not_iso']} not ISO"
                cells.append(text)
            pages = next(iter(table[field].values()))["all"]["pages"]
            print(f"| {field} | {pages} | " + " | ".join(cells) + " |")
        if undated:
            print("\nPages whose truth states no date, given one anyway: " + ", ".join(
                f"{e} {c['dated']} of {c['pages']}" for e, c in undated.items()) + ".")
            # every page scored: a date where the truth has one, none where it has none
            for e, c in undated.items():
                d = table["date"][e]["all"]
                c["accuracy_all_pages"] = (d["correct"] + c["pages"] - c["dated"]) / (d["pages"] + c["pages"])
            print("Date accuracy over every page (no date is right where the truth has none): " + ", ".join(
                f"{e} {c['accuracy_all_pages']:.3f}" for e, c in undated.items()) + ".")
        for case_id, value, got in wrong:
            print(f"  {case_id}: truth {value!r} predicted {got!r}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
