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

Blank lines are skipped; a UTF-8 byte-order mark is allowed. A malformed line, a missing
field, an HTML path outside the dataset's folder or not a regular file is a
:class:`~unclutter.core.errors.UsageError` naming the line. A line is at most
:data:`MAX_LINE_BYTES` bytes.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import UsageError
from ..core.limits import MAX_INPUT_BYTES

__all__ = ["Case", "load_dataset", "read_html", "read_bounded", "json_lines", "file_inside", "read_id", "table_cell", "shown", "CASES_FILE",
           "MAX_LINE_BYTES"]

#: The file naming a dataset's cases inside its folder.
CASES_FILE = "cases.jsonl"
#: Longest line of a JSON Lines input (cases, pairs, study pages), bytes: a page's ground
#: truth or an article is far below it; a longer line is an error, not a memory spike.
MAX_LINE_BYTES = 64 * 1024 * 1024
#: Longest file name shown in an error message, characters.
_SHOWN_CHARS = 120


def shown(value: object) -> str:
    """``repr`` of a value for an error message, cut to a readable length."""
    text = repr(value)
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "..."


def table_cell(text: object) -> str:
    """A Markdown table cell: no ``|`` or line break can open another column or row."""
    return " ".join(str(text).split()).replace("|", "\\|")


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _clean(value):
    """``value`` (parsed JSON) with lone surrogates (``"\\ud800"`` escapes) replaced by
    U+FFFD, so every string can be written as UTF-8."""
    if isinstance(value, str):
        return _SURROGATE_RE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    return value


def json_lines(file: Path) -> Iterator[tuple[str, dict]]:
    """``(where, object)`` for each non-blank line of a JSON Lines file; ``where`` names the
    file and line for messages.

    Raises:
        UsageError: a line over :data:`MAX_LINE_BYTES`, not JSON (or nested too deep, or a
            number too long to read), or not a JSON object.
    """
    with open(file, "rb") as fh:
        number = 0
        while True:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            where = f"{file.name} line {number}"
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                raise UsageError(f"{where}: over {MAX_LINE_BYTES} bytes")
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            line = raw.decode("utf-8", "replace")
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"{where}: not JSON ({exc.msg})") from None
            except (ValueError, RecursionError) as exc:  # a 5,000-digit number, 100k nested arrays
                raise UsageError(f"{where}: not readable JSON ({type(exc).__name__})") from None
            if not isinstance(row, dict):
                raise UsageError(f"{where}: not a JSON object")
            yield where, _clean(row)


def read_id(row: dict, default: object, where: str, seen: set[str]) -> str:
    """A line's ``id`` (``default`` when absent) as a string, added to ``seen``.

    Raises:
        UsageError: not a non-empty string or integer, or already in ``seen``.
    """
    value = row.get("id", default)
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise UsageError(f"{where}: 'id' must be a non-empty string")
    value = str(value)
    if value in seen:
        raise UsageError(f"{where}: duplicate id {shown(value)}")
    seen.add(value)
    return value


def file_inside(root: Path, name: object, where: str, what: str = "HTML file") -> Path:
    """The regular file ``name`` (a path relative to ``root``) names, inside ``root``.

    Raises:
        UsageError: ``name`` is not a non-empty string, leads outside ``root`` (``..``, an
            absolute path, a symbolic link out), does not exist, or is not a regular file.
    """
    if not isinstance(name, str) or not name:
        raise UsageError(f"{where}: 'html' must name the page's file")
    try:
        base = root.resolve()
        path = (base / name).resolve()
        inside = path == base or base in path.parents
        try:
            st = os.stat(path) if inside else None
        except FileNotFoundError:
            st = None
    except (OSError, ValueError, RuntimeError):  # NUL, a loop of links, a name too long
        raise UsageError(f"{where}: cannot use {what} {shown(name)}") from None
    if not inside:
        raise UsageError(f"{where}: {what} {shown(name)} is outside the folder {str(root)!r}")
    if st is None:
        raise UsageError(f"{where}: no such {what} {shown(name)}")
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{where}: {what} {shown(name)} is not a regular file")
    return path


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
    for where, row in json_lines(file):
        cid = read_id(row, None, where, seen)
        html_path = file_inside(root, row.get("html"), where)
        text = row.get("text")
        if text is not None and not isinstance(text, str):
            raise UsageError(f"{where}: 'text' must be a string or null")
        meta = row.get("meta") if isinstance(row.get("meta"), dict) else {}
        url, title = row.get("url"), row.get("title")
        cases.append(Case(cid, html_path, url if isinstance(url, str) and url else None,
                          title if isinstance(title, str) else None, text,
                          _strings(row.get("with"), "with", where),
                          _strings(row.get("without"), "without", where), meta))
        if limit is not None and len(cases) >= limit:
            break
    if not cases:
        raise UsageError(f"{file}: no cases")
    return cases


def read_bounded(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """A page's bytes (decompressed when the name ends in ``.gz``), at most ``limit`` bytes
    (after decompression). Raises ``OSError`` / ``EOFError`` for an unreadable or truncated
    file and ``ValueError`` past the limit (callers make it an error row)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{path.name} is over the {limit}-byte input limit")
    return data


def read_html(case: Case, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The case's page: :func:`read_bounded` on its HTML file."""
    return read_bounded(case.html_path, limit)


def iter_html(cases: list[Case]) -> Iterator[tuple[Case, bytes | None, str | None]]:
    """``(case, bytes, None)`` per case, or ``(case, None, error message)`` when unreadable."""
    for case in cases:
        try:
            yield case, read_html(case), None
        except (OSError, EOFError, ValueError) as exc:
            yield case, None, f"{type(exc).__name__}: {exc}"
