#!/usr/bin/env python3
"""Write each golden page's expected output from the current code.

    python tests/pages/regenerate.py                 # every case
    python tests/pages/regenerate.py 08-lazy-images-and-captions 21-forum-thread-multiple-posts
    python tests/pages/regenerate.py --check         # exit 1 listing the cases whose output differs

A case is a folder ``tests/pages/<case>/`` holding ``source.html`` (the page, as bytes) and
``spec.json`` (hand-written expectations); this script writes ``expected.md`` (the
Markdown, exactly as :func:`unclutter.extract` returns it) and ``expected.json`` (the JSON
record, :meth:`Article.to_dict`, which leaves out ``trace`` and ``removed``: keys sorted,
two-space indent, UTF-8, one trailing newline). ``tests/test_pages.py`` compares the
current output with these files; after an intended change of output, run this script and
review ``git diff tests/pages`` before committing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PAGES = Path(__file__).resolve().parent

#: The address every case is extracted at (relative links resolve against it).
CASE_URL = "https://example.org/article/page.html"


def case_names() -> list[str]:
    """Every case folder under ``tests/pages`` (those holding a ``source.html``), sorted."""
    return sorted(p.parent.name for p in PAGES.glob("*/source.html"))


def read_spec(case: str) -> dict:
    """The case's ``spec.json``: ``with``, ``without``, ``markdown_with`` lists and notes."""
    return json.loads((PAGES / case / "spec.json").read_text(encoding="utf-8"))


def http_charset(spec: dict) -> str | None:
    """The charset of the ``Content-Type`` the spec says the page is served with, if any."""
    ctype = (spec.get("serve_headers") or {}).get("Content-Type", "")
    return ctype.split("charset=")[1].strip() if "charset=" in ctype else None


def extract_case(case: str):
    """The :class:`unclutter.Article` of one case, as the golden files record it."""
    import unclutter

    data = (PAGES / case / "source.html").read_bytes()
    spec = read_spec(case)
    return unclutter.extract(data, url=spec.get("url", CASE_URL), http_charset=http_charset(spec),
                             **spec.get("options", {}))


def record_json(article) -> str:
    """The JSON record as stored in ``expected.json``."""
    return json.dumps(article.to_dict(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def outputs(case: str) -> dict[str, str]:
    """File name -> text of the expected files the current code gives for ``case``."""
    article = extract_case(case)
    return {"expected.md": article.markdown, "expected.json": record_json(article)}


def stored(case: str, name: str) -> str | None:
    path = PAGES / case / name
    return path.read_bytes().decode("utf-8") if path.exists() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help="case folder names (default: every case)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 listing the cases whose output differs")
    args = parser.parse_args(argv)

    known = case_names()
    unknown = [c for c in args.cases if c not in known]
    if unknown:
        parser.error(f"no such case: {', '.join(unknown)} (cases: {', '.join(known)})")
    cases = args.cases or known

    differing = []
    for case in cases:
        new = outputs(case)
        changed = [name for name, text in new.items() if stored(case, name) != text]
        if not changed:
            continue
        differing.append(case)
        if args.check:
            print(f"DIFFERS {case}: {', '.join(changed)}")
            continue
        for name in changed:
            # bytes, so no newline translation on any platform
            (PAGES / case / name).write_bytes(new[name].encode("utf-8"))
        print(f"wrote {case}: {', '.join(changed)}")
    verb = "differ" if args.check else "rewritten"
    print(f"{len(cases)} cases, {len(differing)} {verb}")
    return 1 if args.check and differing else 0


if __name__ == "__main__":
    sys.exit(main())
