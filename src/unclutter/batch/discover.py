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

import zlib
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from ..core.errors import TooLargeError, UnclutterError, UnsupportedContentError

__all__ = ["Discovery", "discover_urls", "DISCOVERY_TYPES", "MAX_DISCOVERED_URLS", "MAX_DISCOVERY_DOCUMENTS"]

#: Media types a sitemap or feed may be served as.
DISCOVERY_TYPES = frozenset({
    "application/xml", "text/xml", "application/rss+xml", "application/atom+xml", "application/rdf+xml",
    "application/feed+xml", "text/plain", "application/gzip", "application/x-gzip", "application/octet-stream",
})
#: Page URLs taken from all the documents of one run (the rest are counted, not kept):
#: twenty full sitemaps (the protocol's limit is 50,000 URLs a file).
MAX_DISCOVERED_URLS = 1_000_000
#: Sitemaps, indexes and feeds fetched for one run (an index may name 50,000 sitemaps).
MAX_DISCOVERY_DOCUMENTS = 1_000
#: Decompressed bytes of one gzip-compressed document (the protocol's 50 MB a file).
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024


@dataclass
class Discovery:
    """What :func:`discover_urls` found.

    Attributes:
        urls: page URLs (absolute http(s)), each once, in the order read: documents
            breadth first (those named, in order, then those their indexes name).
        documents: sitemaps, indexes and feeds read.
        failed: ``(document URL, one-line reason)`` of each document that could not be read.
        dropped: page URLs past :data:`MAX_DISCOVERED_URLS`, and documents past
            :data:`MAX_DISCOVERY_DOCUMENTS`, not kept.
    """

    urls: list[str] = field(default_factory=list)
    documents: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    dropped: int = 0


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


def _read(body: bytes, base: str) -> tuple[list[str], list[str]]:
    """(page URLs, further sitemap URLs) of one document (see the module docstring)."""
    from lxml import etree

    head = body.lstrip()[:1]
    if head != b"<":
        # a text sitemap: one URL a line
        text = body.decode("utf-8", "replace")
        return [line.strip() for line in text.splitlines() if _http(line.strip())], []
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             recover=True, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError:
        root = None
    if root is None:
        raise UnsupportedContentError("unsupported content: neither a sitemap nor a feed (unreadable XML)")
    kind = _local(root.tag)
    pages: list[str] = []
    nested: list[str] = []
    if kind in ("urlset", "sitemapindex"):
        into = nested if kind == "sitemapindex" else pages
        for el in root.iter():
            if _local(el.tag) == "loc" and el.text:
                into.append(urljoin(base, el.text.strip()))
    elif kind in ("rss", "rdf", "channel"):
        for item in root.iter():
            if _local(item.tag) != "item":
                continue
            for el in item:
                if _local(el.tag) == "link" and el.text and el.text.strip():
                    pages.append(urljoin(base, el.text.strip()))
                    break
    elif kind == "feed":
        for entry in root.iter():
            if _local(entry.tag) != "entry":
                continue
            for el in entry:
                if _local(el.tag) == "link" and el.get("rel", "alternate").strip().lower() == "alternate":
                    href = (el.get("href") or "").strip()
                    if href:
                        # xml:base of the entry or the feed (RFC 4287 section 2, XML Base)
                        xbase = el.base or base
                        pages.append(urljoin(xbase, href))
                        break
    else:
        raise UnsupportedContentError(f"unsupported content: <{kind[:40]}> is neither a sitemap nor a feed")
    return [u for u in pages if _http(u)], [u for u in nested if _http(u)]


def discover_urls(urls: Iterable[str], policy=None, *, max_urls: int = MAX_DISCOVERED_URLS,
                  max_documents: int = MAX_DISCOVERY_DOCUMENTS) -> Discovery:
    """The page URLs the sitemaps and feeds at ``urls`` list (sitemap indexes followed).

    Args:
        urls: sitemap, sitemap index or feed URLs (http/https).
        policy: the :class:`~unclutter.fetch.policy.FetchPolicy` of every fetch
            (``None``: the public-web defaults).
        max_urls: page URLs kept at most; max_documents: documents fetched at most.

    Returns:
        A :class:`Discovery`. A document that cannot be fetched or read is listed in
        ``failed`` and the others are still read; nothing is raised for it.
    """
    from ..fetch.fetcher import fetch_document
    from ..fetch.policy import FetchPolicy

    policy = policy if policy is not None else FetchPolicy()
    out = Discovery()
    seen_pages: set[str] = set()
    seen_docs: set[str] = set()
    queue: deque[str] = deque()
    for u in urls:
        if u not in seen_docs:
            seen_docs.add(u)
            queue.append(u)
    while queue:
        doc = queue.popleft()
        if out.documents >= max_documents:
            out.dropped += 1 + len(queue)
            break
        out.documents += 1
        try:
            got = fetch_document(doc, policy, accept=DISCOVERY_TYPES)
            body = got.body
            if body[:2] == b"\x1f\x8b":  # (a .xml.gz served as is)
                body = _gunzip(body, MAX_DOCUMENT_BYTES)
            pages, nested = _read(body, got.url)
        except UnclutterError as exc:
            out.failed.append((doc, str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__))
            continue
        for u in pages:
            if u in seen_pages:
                continue
            if len(out.urls) >= max_urls:
                out.dropped += 1
                continue
            seen_pages.add(u)
            out.urls.append(u)
        for u in nested:
            if u not in seen_docs:
                seen_docs.add(u)
                queue.append(u)
    return out
