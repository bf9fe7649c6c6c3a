"""Build small WARC files for tests and benchmarks (ISO 28500 / WARC 1.1 record layout).

Each record is ``WARC/1.1`` + named fields + a blank line + the block + two CRLFs; a
``.warc.gz`` holds one gzip member per record, as crawlers write them.
"""

from __future__ import annotations

import gzip
import uuid
from collections.abc import Iterable
from pathlib import Path


def http_response(body: bytes, content_type: str = "text/html; charset=utf-8", status: str = "200 OK") -> bytes:
    head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode("latin-1") + body


def warc_record(record_type: str, url: str | None, block: bytes, content_type: str,
                record_id: str | None = None) -> bytes:
    rid = record_id or f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, (url or '') + record_type + str(len(block)))}"
    fields = [("WARC-Type", record_type), ("WARC-Record-ID", f"<{rid}>"),
              ("WARC-Date", "2026-01-01T00:00:00Z")]
    if url:
        fields.append(("WARC-Target-URI", url))
    fields += [("Content-Type", content_type), ("Content-Length", str(len(block)))]
    head = "WARC/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields) + "\r\n"
    return head.encode("utf-8") + block + b"\r\n\r\n"


def response_record(url: str, body: bytes, content_type: str = "text/html; charset=utf-8",
                    record_id: str | None = None) -> bytes:
    return warc_record("response", url, http_response(body, content_type), "application/http; msgtype=response",
                       record_id)


def write_warc(path: Path, records: Iterable[bytes]) -> Path:
    """Write ``records`` (from :func:`warc_record`) to ``path``; gzip per record for ``.gz``."""
    with open(path, "wb") as handle:
        for record in records:
            handle.write(gzip.compress(record, compresslevel=1) if str(path).endswith(".gz") else record)
    return path
