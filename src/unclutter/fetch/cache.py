"""A small on-disk cache for conditional revalidation (If-None-Match/If-Modified-Since).

One entry per URL that answered 200 with an ``ETag`` or ``Last-Modified`` header:
``<sha256 of the URL>.json`` (metadata, validators, a checksum of the body) and
``<sha256>.body``. Files are written to a temporary name and renamed, so a reader never
sees half an entry; an entry that does not check out (wrong URL, wrong size or
checksum, unreadable JSON) is ignored. At most ``CACHE_MAX_ENTRIES`` entries are kept,
the least recently used removed first. Responses marked ``Cache-Control: no-store``
are never stored, nor are ``Set-Cookie`` headers.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .page import FetchedPage
from .policy import CACHE_MAX_ENTRIES

__all__ = ["CacheEntry", "RevalidationCache"]

# Response headers never written to disk (they carry the user's session, not the page).
_NOT_STORED_HEADERS = frozenset({"set-cookie", "set-cookie2"})


@dataclass
class CacheEntry:
    """A stored page and the validators to send when asking for it again."""

    page: FetchedPage
    etag: str | None
    last_modified: str | None

    def validators(self) -> dict[str, str]:
        """Request headers that ask the server to answer 304 if nothing changed."""
        headers = {}
        if self.etag:
            headers["If-None-Match"] = self.etag
        if self.last_modified:
            headers["If-Modified-Since"] = self.last_modified
        return headers


class RevalidationCache:
    """Revalidation cache in *directory* (created, mode 0700, when first written).

    Args:
        directory: where the entries live.
        max_entries: most entries kept.
        max_bytes: bodies larger than this are neither stored nor served.

    Errors reading or writing the cache are never raised: the fetch simply goes on
    without it.
    """

    def __init__(
        self, directory: str | os.PathLike[str], max_entries: int = CACHE_MAX_ENTRIES, max_bytes: int | None = None
    ) -> None:
        self.directory = Path(directory)
        self.max_entries = max_entries
        self.max_bytes = max_bytes

    def _paths(self, url: str) -> tuple[Path, Path]:
        key = hashlib.sha256(url.encode("utf-8")).hexdigest()
        return self.directory / f"{key}.json", self.directory / f"{key}.body"

    def load(self, url: str) -> CacheEntry | None:
        """The entry stored for *url*, or ``None``."""
        meta_path, body_path = self._paths(url)
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
            if meta.get("url") != url:
                return None
            if self.max_bytes is not None and meta["size"] > self.max_bytes:
                return None
            with body_path.open("rb") as handle:
                body = handle.read(meta["size"] + 1)
            if len(body) != meta["size"] or hashlib.sha256(body).hexdigest() != meta["sha256"]:
                return None
            page = FetchedPage(
                url=url,
                final_url=url,
                status=int(meta["status"]),
                headers={str(k): str(v) for k, v in meta["headers"].items()},
                content=body,
                content_type=str(meta["content_type"]),
                charset=meta["charset"],
                from_cache=True,
            )
            return CacheEntry(page, meta.get("etag"), meta.get("last_modified"))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def touch(self, url: str) -> None:
        """Mark the entry for *url* as just used."""
        with contextlib.suppress(OSError):
            os.utime(self._paths(url)[0])

    def store(self, url: str, page: FetchedPage) -> bool:
        """Keep *page* (fetched from *url*) if it has a validator and may be stored.

        Returns:
            Whether an entry was written.
        """
        etag = page.headers.get("etag")
        last_modified = page.headers.get("last-modified")
        if not (etag or last_modified):
            return False
        if "no-store" in page.headers.get("cache-control", "").lower():
            return False
        if self.max_bytes is not None and len(page.content) > self.max_bytes:
            return False
        meta = {
            "url": url,
            "status": page.status,
            "headers": {k: v for k, v in page.headers.items() if k not in _NOT_STORED_HEADERS},
            "content_type": page.content_type,
            "charset": page.charset,
            "etag": etag,
            "last_modified": last_modified,
            "size": len(page.content),
            "sha256": hashlib.sha256(page.content).hexdigest(),
        }
        meta_path, body_path = self._paths(url)
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            self._write(body_path, page.content)
            self._write(meta_path, json.dumps(meta).encode("utf-8"))
            self._evict()
        except OSError:
            return False
        return True

    def _write(self, path: Path, data: bytes) -> None:
        handle, temp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise

    def _evict(self) -> None:
        entries = []
        for meta_path in self.directory.glob("*.json"):
            with contextlib.suppress(OSError):
                entries.append((meta_path.stat().st_mtime, meta_path))
        entries.sort()
        for _mtime, meta_path in entries[: max(0, len(entries) - self.max_entries)]:
            for path in (meta_path, meta_path.with_suffix(".body")):
                with contextlib.suppress(OSError):
                    path.unlink()
