"""The uniform dataset format read by ``unclutter evaluate`` (the one of ``shared/datasets``).

A dataset is a folder holding ``cases.jsonl``: one JSON object per line, with

* ``id`` (string, unique) and ``html``: the page's file, relative to the folder (``.html``
  or gzip-compressed ``.html.gz``);
* ``url`` (optional): the page's address (resolves links; helps routing);
* ``text`` (optional): the ground-truth main text, plain, paragraphs separated by blank
  lines; ``null`` when the page has none (left out of P/R/F1);
* ``with`` / ``without`` (optional): snippets that must / must not be in the main text;
* ``title`` (optional) and ``meta`` (optional object; ``meta.page_type`` groups the scores,
  e.g. ``article``, ``product``, ``forum``).

Blank lines are skipped. A malformed line, a missing field or a missing HTML file is a
:class:`~unclutter.core.errors.UsageError` naming the line.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import UsageError
from ..core.limits import MAX_INPUT_BYTES

__all__ = ["Case", "load_dataset", "read_html", "CASES_FILE"]

#: The file naming a dataset's cases inside its folder.
CASES_FILE = "cases.jsonl"


@dataclass(frozen=True)
class Case:
    """One labelled page. ``html_path`` is absolute; ``text`` ``None`` means no ground truth."""

    id: str
    html_path: Path
    url: str | None = None
    title: str | None = None
    text: str | None = None
    with_snippets: tuple[str, ...] = ()
    without_snippets: tuple[str, ...] = ()
    meta: dict = field(default_factory=dict)

    @property
    def page_type(self) -> str | None:
        value = self.meta.get("page_type")
        return value if isinstance(value, str) and value else None


def _cases_file(path: str | Path) -> Path:
    p = Path(path)
    if p.is_dir():
        p = p / CASES_FILE
    if not p.is_file():
        raise UsageError(f"no dataset at {str(path)!r}: give a folder holding {CASES_FILE} or the file itself")
    return p


def _strings(value, what: str, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"{where}: {what!r} must be a list of strings")
    return tuple(value)


def load_dataset(path: str | Path, limit: int | None = None) -> list[Case]:
    """The cases of a dataset folder (or of its ``cases.jsonl`` file), in file order.

    Args:
        path: the folder, or the JSON Lines file (HTML paths are relative to its folder).
        limit: keep the first ``limit`` cases (``None``: all).

    Raises:
        UsageError: no such dataset, a line that is not a JSON object, a missing or
            ill-typed field, a duplicate id, or an HTML file that does not exist.
    """
    file = _cases_file(path)
    root = file.parent
    cases: list[Case] = []
    seen: set[str] = set()
    with open(file, encoding="utf-8", errors="replace") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{file.name} line {number}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"{where}: not JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise UsageError(f"{where}: not a JSON object")
            cid, html = row.get("id"), row.get("html")
            if not isinstance(cid, (str, int)) or isinstance(cid, bool) or not str(cid):
                raise UsageError(f"{where}: 'id' must be a non-empty string")
            cid = str(cid)
            if cid in seen:
                raise UsageError(f"{where}: duplicate id {cid!r}")
            if not isinstance(html, str) or not html:
                raise UsageError(f"{where}: 'html' must name the page's file")
            html_path = (root / html).resolve()
            if not html_path.is_file():
                raise UsageError(f"{where}: no such HTML file {html!r}")
            text = row.get("text")
            if text is not None and not isinstance(text, str):
                raise UsageError(f"{where}: 'text' must be a string or null")
            meta = row.get("meta") if isinstance(row.get("meta"), dict) else {}
            url, title = row.get("url"), row.get("title")
            cases.append(Case(cid, html_path, url if isinstance(url, str) and url else None,
                              title if isinstance(title, str) else None, text,
                              _strings(row.get("with"), "with", where),
                              _strings(row.get("without"), "without", where), meta))
            seen.add(cid)
            if limit is not None and len(cases) >= limit:
                break
    if not cases:
        raise UsageError(f"{file}: no cases")
    return cases


def read_html(case: Case, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The page's bytes (decompressed when the file ends in ``.gz``), at most ``limit``
    bytes. Raises ``OSError`` / ``EOFError`` for an unreadable or truncated file and
    ``ValueError`` past the limit (the caller makes it an error row)."""
    opener = gzip.open if case.html_path.suffix == ".gz" else open
    with opener(case.html_path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{case.html_path.name} is over the {limit}-byte input limit")
    return data


def iter_html(cases: list[Case]) -> Iterator[tuple[Case, bytes | None, str | None]]:
    """``(case, bytes, None)`` per case, or ``(case, None, error message)`` when unreadable."""
    for case in cases:
        try:
            yield case, read_html(case), None
        except (OSError, EOFError, ValueError) as exc:
            yield case, None, f"{type(exc).__name__}: {exc}"
