"""Page URLs from sitemaps and feeds, for a batch run (``--sitemap URL``, ``--feed URL``).

Read: XML sitemaps and sitemap indexes (sitemaps.org protocol 0.9: ``<urlset>`` of
``<url><loc>``, ``<sitemapindex>`` of ``<sitemap><loc>``, followed breadth-first), text
sitemaps (one URL a line), either gzip-compressed; RSS 0.9x/1.0/2.0 (``<item><link>``)
and Atom (RFC 4287: ``<entry><link href>`` whose ``rel`` is absent or ``alternate``,
relative to ``xml:base`` or the document). Every document is fetched through the safe
fetcher under the batch's policy (:func:`unclutter.fetch.fetcher.fetch_document`); XML is
parsed by lxml without entities, DTDs or network access (no entity expansion attack
reaches it), in recovery mode (feeds are often not well-formed).
"""

from __future__ import annotations

import codecs
import io
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from ..core.errors import TooLargeError, UnclutterError, UnsupportedContentError

__all__ = ["Discovery", "discover_urls", "DISCOVERY_DEADLINE_S", "DISCOVERY_TYPES", "MAX_DISCOVERED_URLS",
           "MAX_DISCOVERY_DOCUMENTS"]

#: Media types a sitemap or feed may be served as.
DISCOVERY_TYPES = frozenset({
    "application/xml", "text/xml", "application/rss+xml", "application/atom+xml", "application/rdf+xml",
    "application/feed+xml", "application/x-rss+xml", "text/plain", "application/gzip", "application/x-gzip",
    "application/octet-stream", "binary/octet-stream",
})
#: Page URLs taken from all the documents of one run (the rest are counted, not kept):
#: twenty full sitemaps (the protocol's limit is 50,000 URLs a file).
MAX_DISCOVERED_URLS = 1_000_000
#: Sitemaps, indexes and feeds fetched for one run (an index may name 50,000 sitemaps).
MAX_DISCOVERY_DOCUMENTS = 1_000
#: Decompressed bytes of one gzip-compressed document (the protocol's 50 MB a file).
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
#: Seconds a whole discovery may take (documents still queued then are left out, counted).
DISCOVERY_DEADLINE_S = 600.0
#: The request's Accept header: sitemap and feed types first.
DISCOVERY_ACCEPT = {"Accept": "application/xml, text/xml;q=0.9, application/rss+xml, application/atom+xml, "
                              "text/plain;q=0.5, */*;q=0.1"}


@dataclass
class Discovery:
    """What :func:`discover_urls` found.

    Attributes:
        urls: page URLs (absolute http(s)), each once, in the order read: documents
            breadth first (those named, in order, then those their indexes name).
        documents: sitemaps, indexes and feeds read.
        failed: ``(document URL, one-line reason)`` of each document that could not be read.
        dropped: page URLs past :data:`MAX_DISCOVERED_URLS`, and documents left unread
            (past :data:`MAX_DISCOVERY_DOCUMENTS` or the deadline), not kept.
        stopped: which limit stopped the discovery early, if one did.
    """

    urls: list[str] = field(default_factory=list)
    documents: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    dropped: int = 0
    stopped: str | None = None


def _http(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _gunzip(body: bytes, limit: int) -> bytes:
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = d.decompress(body, limit + 1)
    except zlib.error:
        raise UnsupportedContentError("unsupported content: a damaged gzip stream") from None
    if len(out) > limit:
        raise TooLargeError(f"too large: over {limit:,} bytes once decompressed")
    return out


def _local(tag) -> str:
    if not isinstance(tag, str):
        return ""  # a comment or processing instruction
    return tag.rsplit("}", 1)[-1].lower()


def _namespace(tag) -> str:
    return tag[1:].split("}", 1)[0] if isinstance(tag, str) and tag.startswith("{") else ""


def _join(base: str, ref: str) -> str | None:
    """``ref`` made absolute against ``base``; ``None`` when either is not a URL Python
    can join (``http://[x/``) or the result is not http(s)."""
    try:
        url = urljoin(base, ref.strip())
    except ValueError:
        return None
    return url if _http(url) else None


class _DeadlinePassed(Exception):
    """The discovery's deadline passed while a document was being read."""


#: Elements (or lines) read between two looks at the discovery's deadline.
_DEADLINE_STRIDE = 4096


def _read(body: bytes, base: str, take: Callable[[str], None],
          expired: Callable[[], bool] | None = None) -> list[str]:
    """``take(url)`` for each page URL of one document, in order; returns its further
    sitemap URLs (see the module docstring). XML is read as a stream (lxml ``iterparse``), each element
    freed once read: memory stays near the URLs kept, not the document's tree. Every
    :data:`_DEADLINE_STRIDE` elements or lines, ``expired()`` true raises ``_DeadlinePassed``
    (the URLs taken so far stay taken)."""
    from lxml import etree

    start = body.lstrip(b" \t\r\n")
    text_start = (start[3:] if start.startswith(codecs.BOM_UTF8) else start).lstrip(b" \t\r\n")
    # (UTF-16 without a byte-order mark: "<" as 00 3C or 3C 00, XML 1.0 Appendix F)
    if not (text_start[:1] == b"<" or start[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, b"\x00<")):
        # a text sitemap: one URL a line
        text = body.decode("utf-8-sig", "replace")
        for n, line in enumerate(text.splitlines(), 1):
            if _http(line.strip()) and (u := _join(base, line)):
                take(u)
            if expired is not None and n % _DEADLINE_STRIDE == 0 and expired():
                raise _DeadlinePassed
        return []
    nested: list[str] = []
    kind = ""
    try:
        events = etree.iterparse(io.BytesIO(body), events=("start", "end"), resolve_entities=False,
                                 no_network=True, load_dtd=False, huge_tree=False, recover=True,
                                 remove_comments=True, remove_pis=True)
        for n, (event, el) in enumerate(events, 1):
            if expired is not None and n % _DEADLINE_STRIDE == 0 and expired():
                raise _DeadlinePassed
            name = _local(el.tag)
            if event == "start":
                if not kind:
                    kind = name
                    if kind not in ("urlset", "sitemapindex", "rss", "rdf", "channel", "feed"):
                        raise UnsupportedContentError(
                            f"unsupported content: <{kind[:40]}> is neither a sitemap nor a feed")
                continue
            url = None
            if kind in ("urlset", "sitemapindex"):
                parent = el.getparent()
                # (only a <url>'s or <sitemap>'s own <loc>: not <image:loc>, <video:loc>...)
                if name == "loc" and parent is not None and _local(parent.tag) in ("url", "sitemap") \
                        and _namespace(el.tag) == _namespace(parent.tag) and el.text and el.text.strip():
                    url = _join(base, el.text)
            elif kind == "feed":
                parent = el.getparent()
                if name == "link" and parent is not None and _local(parent.tag) == "entry" \
                        and (el.get("rel") or "alternate").strip().lower() == "alternate" and el.get("href"):
                    # xml:base of the entry or the feed (RFC 4287 section 2, XML Base)
                    url = _join(el.base or base, el.get("href"))
            else:
                parent = el.getparent()
                if name == "link" and parent is not None and _local(parent.tag) == "item" \
                        and el.text and el.text.strip():
                    url = _join(base, el.text)
            if url is not None:
                if kind == "sitemapindex":
                    nested.append(url)
                else:
                    take(url)
            # every element is freed once read (its ancestors stay, for the checks above):
            # memory follows the URLs kept, not the document's element count
            el.clear()
            parent = el.getparent()
            if parent is not None:
                while el.getprevious() is not None:
                    del parent[0]
    except etree.XMLSyntaxError:
        if not kind:
            raise UnsupportedContentError("unsupported content: neither a sitemap nor a feed (unreadable XML)") from None
    if not kind:
        raise UnsupportedContentError("unsupported content: neither a sitemap nor a feed (no XML element)")
    return nested


def discover_urls(urls: Iterable[str], policy=None, *, max_urls: int = MAX_DISCOVERED_URLS,
                  max_documents: int = MAX_DISCOVERY_DOCUMENTS, deadline: float = DISCOVERY_DEADLINE_S,
                  progress: Callable[[str, int], None] | None = None) -> Discovery:
    """The page URLs the sitemaps and feeds at ``urls`` list (sitemap indexes followed).

    Args:
        urls: sitemap, sitemap index or feed URLs (http/https).
        policy: the :class:`~unclutter.fetch.policy.FetchPolicy` of every fetch
            (``None``: the public-web defaults).
        max_urls: page URLs kept at most (then no further document is read);
            max_documents: documents fetched at most; deadline: seconds for the whole
            discovery (a fetch started before it ends within the policy's own per-fetch
            deadline; the reading of a document stops at it, keeping the URLs read).
        progress: ``progress(document URL, page URLs so far)`` before each document.

    Returns:
        A :class:`Discovery`. A document that cannot be fetched or read is listed in
        ``failed`` and the others are still read; nothing is raised for it.
    """
    from ..fetch.fetcher import fetch_document
    from ..fetch.policy import FetchPolicy

    policy = policy if policy is not None else FetchPolicy()
    started = time.monotonic()
    out = Discovery()
    seen_pages: set[str] = set()
    seen_docs: set[str] = set()
    queue: deque[str] = deque()

    def add_document(u: str) -> None:
        key = u.split("#", 1)[0]
        if key not in seen_docs:
            seen_docs.add(key)
            queue.append(key)

    def take(u: str) -> None:
        if u not in seen_pages:
            if len(out.urls) >= max_urls:
                out.dropped += 1
                return
            seen_pages.add(u)
            out.urls.append(u)

    def expired() -> bool:
        return time.monotonic() - started > deadline

    for u in urls:
        add_document(u)
    while queue:
        if out.documents >= max_documents or len(out.urls) >= max_urls:
            out.dropped += len(queue)
            out.stopped = "the limit of documents" if out.documents >= max_documents else "the limit of page URLs"
            break
        if out.documents and time.monotonic() - started > deadline:  # (the first is always read)
            out.dropped += len(queue)
            out.stopped = f"the {deadline:g} s deadline"
            break
        doc = queue.popleft()
        if progress is not None:
            progress(doc, len(out.urls))
        out.documents += 1
        try:
            got = fetch_document(doc, policy, accept=DISCOVERY_TYPES, headers=DISCOVERY_ACCEPT)
            body = got.body
            if body[:2] == b"\x1f\x8b":  # (a .xml.gz served as is)
                body = _gunzip(body, MAX_DOCUMENT_BYTES)
            nested = _read(body, got.url, take, expired)
        except _DeadlinePassed:
            out.dropped += len(queue)
            out.stopped = f"the {deadline:g} s deadline"
            break
        except UnclutterError as exc:
            out.failed.append((doc, str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__))
            continue
        for u in nested:
            add_document(u)
    return out
