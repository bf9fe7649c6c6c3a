"""The result of a fetch."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FetchedPage"]


@dataclass
class FetchedPage:
    """A fetched HTML/XHTML page.

    Attributes:
        url: the URL that was asked for, as given.
        final_url: the URL the body came from, after redirects.
        status: HTTP status of the final response (the stored status when served from
            the revalidation cache after a 304).
        headers: response headers, names lower-cased, repeated headers joined with
            ", ".
        content: the body, content-decoded (gzip/deflate/br undone), at most
            ``FetchPolicy.max_bytes`` bytes; not yet decoded to text.
        content_type: media type from the Content-Type header, lower-cased, without
            parameters (``"text/html"`` or ``"application/xhtml+xml"``).
        charset: the ``charset`` parameter of the HTTP Content-Type header, lower-cased,
            else ``None``. BOM and ``<meta>`` are the parser's business.
        from_cache: the server answered 304 Not Modified and ``content`` is the copy
            kept in ``FetchPolicy.cache_dir``.
    """

    url: str
    final_url: str
    status: int
    headers: dict[str, str]
    content: bytes
    content_type: str
    charset: str | None
    from_cache: bool = False
