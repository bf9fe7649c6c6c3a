"""The stylesheets a browser applies to a page at the reference window: ``<style>``
elements and ``data:`` stylesheet links (nothing is fetched), their ``media`` evaluated
by :func:`unclutter.prune.media.media_query_matches`."""

from __future__ import annotations

from ..media import media_query_matches


#: Largest stylesheet read from a ``data:`` URL, in bytes once decoded.
MAX_DATA_STYLESHEET_BYTES = 2 * 1024 * 1024


def page_stylesheets(tree) -> tuple[list[str], bool]:
    """The page's stylesheets a browser applies at the reference window, in document
    order, and whether they are all of its styles: ``<style>`` elements with no ``type``
    or ``type="text/css"`` whose ``media`` matches (HTML §4.2.6), and
    ``<link rel=stylesheet>`` with a ``data:`` URL (decoded, RFC 2397: nothing is
    fetched); any other linked stylesheet makes the set incomplete."""
    out: list[str] = []
    complete = True
    for n in tree.css('style, link[rel~="stylesheet" i]'):
        attrs = n.attributes
        media = (attrs.get("media") or "").strip()
        if media and media_query_matches(media.lower()) is False:
            continue
        if n.tag == "style":
            kind = (attrs.get("type") or "").strip().lower()
            if kind in ("", "text/css"):
                out.append(n.text(deep=True))
            continue
        if "disabled" in attrs or "alternate" in (attrs.get("rel") or "").lower().split():
            continue
        href = (attrs.get("href") or "").strip()
        text = _data_url_text(href) if href[:5].lower() == "data:" else None
        if text is None:
            complete = False
        else:
            out.append(text)
    return out, complete


def _data_url_text(url: str) -> str | None:
    """The text of a ``data:`` URL of CSS (RFC 2397: percent-encoded or base64), or
    ``None`` when it is not one or is too large."""
    import base64
    from urllib.parse import unquote_to_bytes

    head, sep, body = url[5:].partition(",")
    if not sep:
        return None
    params = [p.strip().lower() for p in head.split(";")]
    if params[0] not in ("", "text/css"):
        return None
    if len(body) > MAX_DATA_STYLESHEET_BYTES * 3:
        return None
    try:
        data = base64.b64decode(body, validate=False) if "base64" in params[1:] else unquote_to_bytes(body)
    except ValueError:
        return None
    if len(data) > MAX_DATA_STYLESHEET_BYTES:
        return None
    return data.decode("utf-8", "replace")
