#!/usr/bin/env python3
"""Markdown structure against wcxb-dev's Markdown ground truth (``meta.main_content_markdown``):
precision and recall per element kind, for unclutter and trafilatura in the same run.

    python bench/structure.py [--limit N] [--extractors unclutter,trafilatura] [--show KIND]

Both Markdown texts are parsed by markdown-it-py (CommonMark with GFM tables) and reduced
to elements of five kinds:

- **heading**: ``(level, text)``;
- **list item**: the item's own text (nested lists apart);
- **table cell**: the text of each header or body cell;
- **code block**: the block's text, lines stripped;
- **link**: ``(anchor text, target)``, the target without a trailing ``/``.

Texts are compared after case folding and collapsing whitespace, with Markdown escapes and
emphasis gone (markdown-it's inline text). Per kind, the element multisets of a page are
intersected; precision = matched / predicted and recall = matched / expected, summed over
the pages (micro averages), on every page, the read part and the scored part of the fixed
split (:mod:`split`). trafilatura runs with ``output_format="markdown"``,
``include_comments=False``, ``include_links=True``, ``include_tables=True``. ``--show KIND``
prints, for unclutter, the read-part pages that lose most elements of that kind.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
KINDS = ("heading", "list item", "table cell", "code block", "link")


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _inline_text(token) -> str:
    return "".join(c.content for c in (token.children or []) if c.type in ("text", "code_inline", "softbreak"))


def elements(markdown: str) -> dict[str, Counter]:
    """The elements of each kind of a Markdown text (see the module docstring)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    out = {k: Counter() for k in KINDS}
    tokens = md.parse(markdown or "")
    context: list[str] = []
    for k, tok in enumerate(tokens):
        if tok.type.endswith("_open") and tok.nesting == 1:
            context.append(tok.type[:-5])
        elif tok.type.endswith("_close") and tok.nesting == -1 and context:
            context.pop()
        if tok.type in ("fence", "code_block"):
            body = "\n".join(line.strip() for line in tok.content.strip("\n").split("\n"))
            out["code block"][_norm(body)] += 1
        if tok.type != "inline":
            continue
        text = _norm(_inline_text(tok))
        parent = context[-1] if context else ""
        if parent == "heading":
            level = int(tokens[k - 1].tag[1]) if tokens[k - 1].tag[:1] == "h" else 0
            out["heading"][(level, text)] += 1
        elif parent in ("th", "td"):
            out["table cell"][text] += 1
        elif parent == "paragraph" and len(context) >= 2 and context[-2] == "list_item":
            out["list item"][text] += 1
        children = tok.children or []
        for j, child in enumerate(children):
            if child.type == "link_open":
                href = (child.attrs.get("href") or "").rstrip("/")
                anchor = []
                for c in children[j + 1:]:
                    if c.type == "link_close":
                        break
                    if c.type in ("text", "code_inline"):
                        anchor.append(c.content)
                out["link"][(_norm("".join(anchor)), href)] += 1
    for kind in KINDS:
        out[kind].pop("", None)
        out[kind].pop((0, ""), None)
    return out


def predict(extractor: str, html: bytes, url: str | None) -> str:
    if extractor == "unclutter":
        import unclutter
        from unclutter.core.errors import UnclutterError

        try:
            return unclutter.extract(html, url=url).markdown
        except UnclutterError:
            return ""
    if extractor == "trafilatura":
        import trafilatura

        return trafilatura.extract(html, url=url, output_format="markdown", include_comments=False,
                                   include_links=True, include_tables=True) or ""
    raise ValueError(extractor)


def _strip_title(markdown: str) -> str:
    """unclutter's Markdown starts with the page title as ``# title``; the ground truth has
    no such line: it is left out (a heading of the page, not of its main content)."""
    return markdown.split("\n", 1)[1] if markdown.startswith("# ") else markdown


def main(argv: list[str] | None = None) -> int:
    from split import split_parts

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path,
                    default=Path(os.environ.get("UNCLUTTER_SHARED") or REPO.parent / "shared"))
    ap.add_argument("--extractors", default="unclutter,trafilatura")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--show", choices=KINDS)
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "structure.json")
    args = ap.parse_args(argv)
    folder = args.shared / "datasets" / "wcxb-dev"
    cases = [json.loads(line) for line in (folder / "cases.jsonl").read_text(encoding="utf-8").split("\n")
             if line.strip()]
    cases = [c for c in cases if (c.get("meta") or {}).get("main_content_markdown")][:args.limit]
    parts = split_parts("wcxb-dev", cases)
    extractors = [e for e in args.extractors.split(",") if e]
    totals = {e: {p: {k: [0, 0, 0] for k in KINDS} for p in ("all", "read", "scored")} for e in extractors}
    losses: list[tuple[int, str]] = []
    for case in cases:
        raw = (folder / case["html"]).read_bytes()
        if case["html"].endswith(".gz"):
            raw = gzip.decompress(raw)
        truth = elements(case["meta"]["main_content_markdown"])
        for ext in extractors:
            pred_md = predict(ext, raw, case.get("url"))
            pred = elements(_strip_title(pred_md) if ext == "unclutter" else pred_md)
            for kind in KINDS:
                matched = sum((truth[kind] & pred[kind]).values())
                for part in ("all", parts[case["id"]]):
                    t = totals[ext][part][kind]
                    t[0] += matched
                    t[1] += sum(pred[kind].values())
                    t[2] += sum(truth[kind].values())
                if ext == "unclutter" and kind == args.show and parts[case["id"]] == "read":
                    losses.append((sum(truth[kind].values()) - matched, case["id"]))
    report = {}
    print(f"wcxb-dev Markdown structure, {len(cases)} pages (precision / recall, micro-averaged)\n")
    print("| kind | expected | " + " | ".join(f"{e} P / R (scored part)" for e in extractors) + " |")
    print("|---|---:|" + "---:|" * len(extractors))
    for kind in KINDS:
        cells = []
        for ext in extractors:
            got = {}
            for part in ("all", "read", "scored"):
                m, p, t = totals[ext][part][kind]
                got[part] = {"matched": m, "predicted": p, "expected": t,
                             "precision": m / p if p else None, "recall": m / t if t else None}
            report.setdefault(ext, {})[kind] = got

            def f(v):
                return "–" if v is None else f"{v:.3f}"
            a, s = got["all"], got["scored"]
            cells.append(f"{f(a['precision'])} / {f(a['recall'])} ({f(s['precision'])} / {f(s['recall'])})")
        print(f"| {kind} | {totals[extractors[0]]['all'][kind][2]} | " + " | ".join(cells) + " |")
    if args.show:
        print(f"\nread-part pages losing most {args.show} elements:")
        for lost, case_id in sorted(losses, reverse=True)[:15]:
            print(f"  {case_id}: {lost}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
