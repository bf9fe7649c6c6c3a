"""The inputs of a batch: files, folders, lists of paths or URLs, WARC archives.

:func:`expand_sources` turns what the user named into a deterministic sequence of
:class:`Item` (a page file, a WARC archive or a URL), and :func:`read_pages` turns items into
:class:`~unclutter.batch.record.PageInput` values, reading files and archive records
lazily, one at a time, so a batch of millions never holds more than a few pages in memory.
The order is the order given, folders walked in sorted order: re-running the same command
sees the same inputs in the same order, which is what makes runs resumable.

WARC archives (``.warc``, ``.warc.gz``; ISO 28500, WARC 1.0/1.1) are read with FastWARC.
Unreadable data inside an archive (garbage between records, a corrupt gzip member, a header
block past FastWARC's limit, a ``Content-Length`` that lies) is one error row
(``CorruptArchiveError``), and reading goes on at the next record (the next gzip member
that decompresses to a ``WARC/1.x`` line, or such a line at a line start); an archive that
ends inside a record gives ``TruncatedArchiveError``. What no reader can tell apart: a
``Content-Length`` that lies by covering whole records after it (their text joins the
record's body), and a record written inside a page's body, found when reading resumes inside
that body after its record's length lied.
``response`` records whose HTTP ``Content-Type`` is HTML become pages; every other record
is skipped and counted, redirects (3xx) included; a 4xx or 5xx HTML response is an error
row (``HTTPStatusError``, as the fetcher reports one). FastWARC over warcio: several times faster on the same archive
(``bench/batch.py`` measures both), and a record cut short by a truncated archive is
visible (its WARC headers are incomplete) where warcio's iterator ends silently.
"""

from __future__ import annotations

import fnmatch
import os
import stat
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..core.limits import MAX_INPUT_BYTES
from .record import PageInput

#: File names read as HTML pages inside folders (matched case-insensitively).
DEFAULT_INCLUDE = ("*.html", "*.htm", "*.xhtml", "*.html.gz", "*.htm.gz")
#: File names read as WARC archives, in folders or named directly.
WARC_SUFFIXES = (".warc", ".warc.gz")
#: HTTP media types of WARC response records that are extracted.
HTML_MEDIA_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: Largest WARC record payload read, in bytes; larger records become error rows unread.
MAX_RECORD_BYTES = MAX_INPUT_BYTES


@dataclass(frozen=True)
class Item:
    """One named input: ``kind`` is ``"file"``, ``"warc"`` or ``"url"``; ``name`` the path
    or URL as the user gave it (folders expanded); ``rel`` its output name in a folder
    output: a file's path relative to the folder named, else its base name (two inputs
    with one name: the second gets a suffix, see :mod:`unclutter.batch.output`)."""

    kind: str
    name: str
    rel: str | None = None


def printable_name(name: str) -> str:
    """A file name as valid UTF-8 text: bytes that are not UTF-8 (kept by Python as lone
    surrogates) written as ``\\xNN``, so records and output names stay valid UTF-8."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _brief(name: str, limit: int = 300) -> str:
    """``name`` for an error message: at most ``limit`` characters."""
    return name if len(name) <= limit else name[:limit] + "..."


def is_url(text: str) -> bool:
    return text.startswith(("http://", "https://"))


def is_warc(name: str) -> bool:
    return name.lower().endswith(WARC_SUFFIXES)


#: Longest line of a list file (``-i``), in bytes: a path or URL is far shorter.
MAX_LIST_LINE_BYTES = 64 * 1024
#: Most entries read from list files in one run (the names are held in memory, and hashed
#: into the run's identity for resuming); larger jobs are split, or run on Ray or Spark.
MAX_LIST_ENTRIES = 5_000_000


def read_list(path: str, limit: int = MAX_LIST_ENTRIES) -> list[str]:
    """Entries of a list file (``-`` reads standard input): one path or URL per line; blank
    lines and lines starting with ``#`` are ignored. Lines are read one at a time, as bytes:
    names that are not UTF-8 are kept as the file system gives them (``os.fsdecode``).

    Raises:
        OSError: the list cannot be read.
        UsageError: a line over :data:`MAX_LIST_LINE_BYTES` bytes or holding a NUL byte (not
            a list of paths or URLs: a binary file), or more than ``limit`` entries.
    """
    from ..core.errors import UsageError

    shown = printable_name(path)[:200]
    out: list[str] = []
    if path == "-" and sys.stdin is None:
        raise UsageError("-i -: standard input is closed")
    handle = sys.stdin.buffer if path == "-" else open(path, "rb")
    try:
        number = 0
        while True:
            raw = handle.readline(MAX_LIST_LINE_BYTES + 1)
            if not raw:
                return out
            number += 1
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]  # a UTF-8 byte order mark (editors on Windows write one)
            if len(raw) > MAX_LIST_LINE_BYTES:
                raise UsageError(f"line {number} of the list {shown!r} is over {MAX_LIST_LINE_BYTES} bytes: "
                                 "not a list of paths or URLs")
            if b"\0" in raw:
                raise UsageError(f"line {number} of the list {shown!r} holds a NUL byte: not a list of paths or URLs")
            line = os.fsdecode(raw.strip())
            if not line or line.startswith("#"):
                continue
            if len(out) >= limit:
                raise UsageError(f"the list {shown!r} holds more than {limit} entries: split it into several runs")
            out.append(line)
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def _matches(name: str, patterns: Iterable[str]) -> bool:
    lower = name.lower()
    return any(fnmatch.fnmatchcase(lower, p.lower()) for p in patterns)


def expand_sources(names: Iterable[str], include: Iterable[str] = (), exclude: Iterable[str] = ()
                   ) -> Iterator[Item]:
    """Items for ``names`` (paths, folders, URLs), folders walked recursively in sorted order.

    Inside folders a file is read when its name matches ``include`` (default
    :data:`DEFAULT_INCLUDE`, plus WARC archives) and no ``exclude`` pattern matches its path
    relative to the folder (``fnmatch`` patterns: ``*`` crosses ``/``). Files and URLs
    named directly are always read. A path that does not exist (or that the file system
    cannot look up) is yielded as a ``file`` item; reading it gives an error row. A name
    given twice is read twice (two records with one ``id``).
    """
    include = tuple(include) or DEFAULT_INCLUDE
    exclude = tuple(exclude)
    for name in names:
        if is_url(name):
            yield Item("url", name)
            continue
        path = Path(name)
        try:
            folder = path.is_dir()
        except (OSError, ValueError):  # a name too long for the file system, a NUL byte
            folder = False  # (reading it gives the error row)
        if folder:
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames.sort()
                for filename in sorted(filenames):
                    full = Path(dirpath, filename)
                    rel = full.relative_to(path).as_posix()
                    if exclude and (_matches(rel, exclude) or _matches(filename, exclude)):
                        continue
                    if is_warc(filename):
                        yield Item("warc", str(full), rel)
                    elif _matches(filename, include):
                        yield Item("file", str(full), rel)
        elif is_warc(name):
            yield Item("warc", name, path.name)
        else:
            yield Item("file", name, path.name)


class SourceCounts(Counter):
    """Counts kept while reading: ``pages``, ``warc_records``, ``skipped_records`` (WARC
    records that are not HTML responses), ``truncated_archives`` and ``corrupt_regions``
    (unreadable data inside an archive, after which reading went on at the next record)."""


def read_pages(items: Iterable[Item], counts: SourceCounts | None = None, *,
               max_bytes: int = MAX_INPUT_BYTES, fetch=None, skip: int = 0) -> Iterator[PageInput]:
    """PageInputs for ``items``, in order. Never raises for a bad input: an unreadable file,
    an oversized WARC record or a failed fetch becomes a PageInput with ``error`` set.

    Args:
        items: from :func:`expand_sources`.
        counts: filled with what was read and skipped, when given.
        max_bytes: larger files and WARC records are not read (error ``InputTooLargeError``).
        fetch: ``callable(urls) -> Iterator[PageInput]`` fetching URLs in order (the batch
            runner passes the safe fetcher, :mod:`unclutter.batch.fetching`); without
            it a URL gives an error row.
        skip: leave out the first ``skip`` pages (done by an earlier run), without
            reading files or fetching URLs for them.
    """
    counts = counts if counts is not None else SourceCounts()
    pending_urls: list[str] = []

    def flush() -> Iterator[PageInput]:
        if not pending_urls:
            return
        urls = list(pending_urls)
        pending_urls.clear()
        if fetch is None:
            for url in urls:
                yield PageInput(id=url, source=url, url=url,
                                error=("UsageError", "URLs need a fetcher (use the batch command)"))
        else:
            yield from fetch(urls)

    seen = 0
    for item in items:
        if item.kind == "warc":
            yield from flush()
            for page in _warc_pages(item.name, counts, max_bytes):
                seen += 1
                if seen > skip:
                    yield page
            continue
        seen += 1
        if seen <= skip:
            continue
        if item.kind == "url":
            pending_urls.append(item.name)  # fetched together, so several hosts run at once
            continue
        yield from flush()
        counts["pages"] += 1
        yield _file_page(item.name, max_bytes, item.rel)
    yield from flush()


def _file_page(name: str, max_bytes: int, rel: str | None = None) -> PageInput:
    shown = printable_name(name)
    rel = printable_name(rel) if rel is not None else None
    try:
        st = os.stat(name)
        if not stat.S_ISREG(st.st_mode):  # a FIFO or device would block or never end
            return PageInput(id=shown, source=shown, name=rel, error=(
                "InputReadError", f"{_brief(shown)}: not a regular file"))
        if st.st_size > max_bytes:
            return PageInput(id=shown, source=shown, name=rel, error=(
                "InputTooLargeError", f"{_brief(shown)}: {st.st_size} bytes, over the limit of {max_bytes}"))
        with open(name, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        return PageInput(id=shown, source=shown, name=rel,
                         error=("InputReadError", f"{_brief(shown)}: {getattr(exc, 'strerror', None) or exc}"))
    return PageInput(id=shown, source=shown, data=data, name=rel)


def _warc_pages(name: str, counts: SourceCounts, max_bytes: int) -> Iterator[PageInput]:
    try:
        from fastwarc.warc import ArchiveIterator, WarcRecordType
    except ImportError:  # pragma: no cover - a dependency of the default install
        yield PageInput(id=name, source=name, error=("UsageError", "reading WARC needs FastWARC: pip install fastwarc"))
        return
    shown = printable_name(name)
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):
            raise OSError(f"{_brief(shown)}: not a regular file")
        handle = open(name, "rb")
    except (OSError, ValueError) as exc:
        yield PageInput(id=shown, source=shown,
                        error=("InputReadError", f"{_brief(shown)}: {getattr(exc, 'strerror', None) or exc}"))
        return
    name = shown
    with handle:
        gz = handle.read(2) == b"\x1f\x8b"
        size = os.fstat(handle.fileno()).st_size
        at = 0
        region: tuple[int, str, str] | None = None  # an unreadable stretch not yet reported
        while at is not None:
            handle.seek(at)
            last: tuple[int, PageInput | None] | None = None  # (offset, page) of the last record read
            try:
                for record in ArchiveIterator(handle, parse_http=False):
                    counts["warc_records"] += 1
                    page = _warc_page(name, record, max_bytes, WarcRecordType)
                    last = (record.stream_pos, page)
                    if page is None:
                        counts["skipped_records"] += 1
                        continue
                    counts["pages"] += 1
                    if page.error and page.error[0] == "TruncatedArchiveError":
                        counts["truncated_archives"] += 1
                    yield page
            except Exception as exc:  # noqa: BLE001 - unreadable data: an error row, then the next record
                if last is not None or region is None:  # (a failure right where reading resumed
                    # extends the region before it: one row per unreadable stretch)
                    region = (last[0] if last else at, type(exc).__name__,
                              "after the record at offset" if last else "at offset")
                resume = _next_record_start(handle, (last[0] if last else at) + 1, gz, size)
                if resume is None:
                    counts["truncated_archives"] += 1
                    yield PageInput(id=f"{name}@end", source=name, error=(
                        "TruncatedArchiveError", f"{name}: archive unreadable {region[2]} "
                        f"{region[0]} ({region[1]})"))
                    return
                at = resume
                handle.seek(at)
                if _reads_a_record(handle, ArchiveIterator):
                    counts["corrupt_regions"] += 1
                    yield PageInput(id=f"{name}@{region[0]}-{resume}", source=f"{name}@{region[0]}", error=(
                        "CorruptArchiveError", f"{name}: unreadable data {region[2]} {region[0]} "
                        f"({region[1]}); reading goes on at offset {resume}"))
                    region = None
                continue
            at = None
            # a record whose declared length runs past the archive (cut short, or over the size
            # limit and skipped) may be a length that lies: records after it are looked for
            if last is not None and last[1] is not None and last[1].error and last[1].error[0] in (
                    "TruncatedArchiveError", "InputTooLargeError"):
                at = _next_record_start(handle, last[0] + 1, gz, size)
                if at is not None and last[1].error[0] == "TruncatedArchiveError":
                    counts["truncated_archives"] -= 1  # (not the archive's end: a corrupt record)
                    counts["corrupt_regions"] += 1
            if at is None and region is not None:  # (reading resumed, and found nothing more)
                counts["truncated_archives"] += 1
                yield PageInput(id=f"{name}@end", source=name, error=(
                    "TruncatedArchiveError", f"{name}: archive unreadable {region[2]} {region[0]} ({region[1]})"))


def _reads_a_record(handle, iterator) -> bool:
    """Whether a whole WARC record's headers read from the handle's position (a place to
    resume reading after unreadable data)."""
    try:
        return next(iter(iterator(handle, parse_http=False)), None) is not None
    except Exception:  # noqa: BLE001 - more unreadable data
        return False


#: Bytes read at a time when looking for the next record after unreadable data: the first
#: read, then doubling up to the second.
_SCAN_FIRST_CHUNK = 1 << 12
_SCAN_CHUNK = 1 << 20
_GZIP_MEMBER = b"\x1f\x8b\x08"
_WARC_VERSIONS = (b"WARC/1.0\r\n", b"WARC/1.1\r\n", b"WARC/1.0\n", b"WARC/1.1\n")


def _next_record_start(handle, offset: int, gz: bool, size: int) -> int | None:
    """Offset of the first WARC record starting at or after ``offset`` (a gzip member that
    decompresses to a ``WARC/1.x`` line; ``WARC/1.x`` and CRLF anywhere, or with LF at a
    line start), or ``None``.
    One pass over the rest of the file, in reads growing to ``_SCAN_CHUNK`` bytes."""
    import zlib

    marker = _GZIP_MEMBER if gz else b"WARC/1."
    pos = offset
    step = _SCAN_FIRST_CHUNK  # (small first: the next record is usually near)
    while pos < size:
        handle.seek(pos)
        chunk = handle.read(step + 16)
        if not chunk:
            return None
        i = chunk.find(marker)
        while 0 <= i < step:
            at = pos + i
            if gz:
                handle.seek(at)
                try:
                    head = zlib.decompressobj(31).decompress(handle.read(4096), 16)
                except zlib.error:
                    head = b""
                if head.startswith(_WARC_VERSIONS[:2]):
                    return at
            elif chunk[i:i + 10] in _WARC_VERSIONS[:2]:
                return at  # "WARC/1.x" and CRLF, as writers end it: anywhere (garbage may run into it)
            elif chunk[i:i + 9] in _WARC_VERSIONS[2:]:
                before = chunk[i - 1:i] if i else _byte_before(handle, at)
                if at == 0 or before == b"\n":
                    return at
            i = chunk.find(marker, i + 1)
        pos += step
        step = min(step * 2, _SCAN_CHUNK)
    return None


def _byte_before(handle, at: int) -> bytes:
    """The byte before offset ``at`` (``at`` > 0)."""
    handle.seek(at - 1)
    return handle.read(1)


def _warc_page(name: str, record, max_bytes: int, types) -> PageInput | None:
    """The PageInput of one WARC record, or ``None`` when it is not an HTML response."""
    source = f"{name}@{record.stream_pos}"
    record_id = (record.record_id or "").strip("<>") or source
    declared = record.headers.get("Content-Length")
    if declared is None:  # FastWARC leaves the headers of a record cut short incomplete
        return PageInput(id=record_id, source=source, error=(
            "TruncatedArchiveError", f"{source}: WARC record cut short (truncated archive)"))
    if record.record_type != types.response:
        return None
    url = record.headers.get("WARC-Target-URI")
    if not record.is_http:
        return None  # a response record that is not HTTP (e.g. DNS)
    try:
        record.parse_http()
    except Exception as exc:  # noqa: BLE001 - an unreadable HTTP header block: this record only
        return PageInput(id=record_id, source=source, url=url, error=(
            "InputReadError", f"{source}: unreadable HTTP headers ({type(exc).__name__})"))
    media = (record.http_content_type or "").split(";")[0].strip().lower()
    if media not in HTML_MEDIA_TYPES:
        return None
    status = record.http_headers.status_code or 200  # (a status line FastWARC cannot read: a page)
    if status < 200 or 300 <= status < 400:
        return None  # an interim response or a redirect (its target is another record): no page
    if status >= 400:
        # an error page the server sent instead of the page, as the fetcher reports it
        return PageInput(id=record_id, source=source, url=url, error=(
            "HTTPStatusError", f"{source}: HTTP {status} response"))
    if record.content_length > max_bytes:
        return PageInput(id=record_id, source=source, url=url, error=(
            "InputTooLargeError", f"{source}: record of {record.content_length} bytes, over the limit of {max_bytes}"))
    data = record.reader.read(max_bytes + 1)
    if len(data) < record.content_length:  # the archive ends inside this record's body
        return PageInput(id=record_id, source=source, url=url, error=(
            "TruncatedArchiveError", f"{source}: WARC record cut short ({len(data)} of "
            f"{record.content_length} bytes; truncated archive)"))
    return PageInput(id=record_id, source=source, data=data, url=url, http_charset=record.http_charset or None,
                     name=url)
