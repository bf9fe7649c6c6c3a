"""Cleaning and normalising metadata values: text (character references, tags, invisible
characters, whitespace, length caps), multi-paragraph bodies, comparison keys, language
tags (BCP 47) and absolute http(s) URLs."""

from __future__ import annotations

import html as _html
import re
from typing import Any
from urllib.parse import urljoin, urlsplit

from ...core.invisible import strip_invisible
from .keys import FIELD_LIMITS

_TAG_RE = re.compile(r"</?[A-Za-z][^<>]{0,2000}>|<![^<>]{0,2000}>")
_BLOCK_TAG_RE = re.compile(
    r"</?(?:p|div|h[1-6]|li|ul|ol|blockquote|pre|section|article|table|tr|figure|"
    r"figcaption|header|footer|dl|dt|dd|hr)\b[^<>]{0,2000}>",
    re.IGNORECASE,
)
_BR_RE = re.compile(r"<br\b[^<>]{0,2000}>", re.IGNORECASE)
_RAW_OPEN_RE = re.compile(r"<(script|style)\b", re.IGNORECASE)
_RAW_CLOSE_RE = {
    "script": re.compile(r"</script\s*>", re.IGNORECASE),
    "style": re.compile(r"</style\s*>", re.IGNORECASE),
}
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,10}|#[xX][0-9a-fA-F]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});")
_LANG_RE = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$")
#: A value that starts like a URL (a scheme, ``//`` or ``www.``): not a name or a text.
URL_LIKE_RE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|www\.)", re.IGNORECASE)
_BLOCKED_URL_SCHEMES = ("data:", "javascript:", "vbscript:", "blob:", "file:", "about:")
_NON_ALNUM_RE = re.compile(r"[\W_]+")
_PLAIN_QUOTES = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
    }
)


def unescape_entities(s: str) -> str:
    """Decode character references that end with ";" (``&amp;``, ``&#039;``,
    ``&#x1F62D;``); bare ``&copy`` or ``Q&A`` are left alone (unlike ``html.unescape``),
    so URLs and ordinary ampersands survive. Invalid code points become U+FFFD (WHATWG
    "numeric character reference end state")."""
    if "&" not in s:
        return s
    return _ENTITY_RE.sub(lambda m: _html.unescape(m.group(0)), s)


def clean_text(value: Any, limit: int, *, strip_tags: bool = False) -> str | None:
    """Single-line cleaned text, or ``None`` when nothing printable is left.

    Args:
        value: anything; only ``str`` yields text (other types give ``None``).
        limit: maximum length in characters; longer text is cut at the last space in
            its final 40% (else hard) and ends with "…" (so the result is <= ``limit``).
        strip_tags: remove HTML tags first (for JSON-LD strings).

    Decodes character references that survived parsing (double-escaped ``&amp;#039;``
    in a meta tag is a common CMS bug; see :func:`unescape_entities`), removes
    :data:`~unclutter.core.invisible.INVISIBLE_CODEPOINTS` and lone surrogates and collapses all Unicode
    whitespace to single spaces. Work is bounded: at most ``8 * limit + 4096`` input characters are read.
    """
    if not isinstance(value, str) or not value:
        return None
    s = value[: 8 * limit + 4096]
    if strip_tags:
        s = _strip_html(s, keep_breaks=False)
    elif "&" in s:
        s = unescape_entities(s)
    s = " ".join(strip_invisible(_LONE_SURROGATE_RE.sub("", s)).split())
    if not s:
        return None
    return cap_text(s, limit)


#: A UTF-16 surrogate code point on its own (JSON's ``"\ud800"`` decodes to one): not a
#: character, and no UTF-8 writer takes it.
_LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def cap_text(s: str, limit: int) -> str:
    """``s`` within ``limit`` characters: cut at the last space in its final 40% (else
    hard), ending with "…"."""
    if len(s) <= limit:
        return s
    cut = s[: max(limit - 1, 0)]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip() + "\u2026"


def _remove_raw_blocks(s: str) -> str:
    """Drop ``<script>``/``<style>`` elements with their content (linear time)."""
    if "<" not in s:
        return s
    out = []
    pos = 0
    while True:
        m = _RAW_OPEN_RE.search(s, pos)
        if m is None:
            out.append(s[pos:])
            break
        out.append(s[pos : m.start()])
        close = _RAW_CLOSE_RE[m.group(1).lower()].search(s, m.end())
        if close is None:
            break
        pos = close.end()
    return "".join(out)


def _strip_html(s: str, keep_breaks: bool) -> str:
    """Entities decoded, then tags (and script/style content) removed, so escaped markup
    (``&lt;p&gt;``) goes too; with ``keep_breaks`` block tags become blank lines and
    ``<br>`` a newline (for article bodies)."""
    s = unescape_entities(s)
    if "<" in s:
        s = _remove_raw_blocks(s)
        if keep_breaks:
            s = _BR_RE.sub("\n", s)
            s = _BLOCK_TAG_RE.sub("\n\n", s)
        s = _TAG_RE.sub(" " if not keep_breaks else "", s)
    return s


def clean_body(value: Any, limit: int) -> str | None:
    """Multi-paragraph text: tags stripped, paragraphs (blank-line separated) kept, each
    paragraph's whitespace collapsed, invisible characters removed, capped."""
    if not isinstance(value, str) or not value:
        return None
    s = _strip_html(value[: 4 * limit + 4096], keep_breaks=True)
    s = strip_invisible(s).replace("\r\n", "\n").replace("\r", "\n")
    paras = []
    for block in s.split("\n\n"):
        lines = [" ".join(line.split()) for line in block.split("\n")]
        text = "\n".join(line for line in lines if line)
        if text:
            paras.append(text)
    if not paras:
        return None
    return cap_text("\n\n".join(paras), limit)


def norm_key(s: str) -> str:
    """Casefolded, whitespace-collapsed text with typographic quotes made plain: the
    form in which titles and names are compared."""
    return " ".join(s.translate(_PLAIN_QUOTES).casefold().split())


def alnum_key(s: str) -> str:
    """Casefolded letters and digits only ("Ars Technica" -> "arstechnica")."""
    return _NON_ALNUM_RE.sub("", s.casefold())


def normalise_language(raw: Any) -> str | None:
    """A BCP 47 tag in RFC 5646 §2.1.1 case (``en_us`` -> ``en-US``), or ``None``.

    Takes the first entry of a comma/semicolon separated list (``Content-Language`` may
    list several); rejects values that are not shaped like a tag whose primary subtag
    is a 2-3 letter ISO 639 code (so "English" or "x-klingon" give ``None``).
    """
    s = clean_text(raw, 256)
    if s is None:
        return None
    s = re.split(r"[,;]", s, maxsplit=1)[0].strip().replace("_", "-")
    if not s or len(s) > FIELD_LIMITS["language"] or not _LANG_RE.match(s):
        return None
    parts = s.split("-")
    out = [parts[0].lower()]
    singleton = False
    for p in parts[1:]:
        if singleton or len(p) == 1:
            singleton = True  # extensions and private use keep lower case
            out.append(p.lower())
        elif len(p) == 2 and p.isalpha():
            out.append(p.upper())
        elif len(p) == 4 and p.isalpha():
            out.append(p.title())
        else:
            out.append(p.lower())
    return "-".join(out)


def link_base(base_url: str | None, canonical_url: str | None) -> str | None:
    """For a page read without its address: the absolute http(s) URL its relative links
    resolve against. ``base_url`` (its ``<base href>``) when that is one, else the page's
    own statement of its address, ``canonical_url`` (``<link rel=canonical>`` or
    ``og:url``, :class:`~unclutter.core.models.Metadata`), joined with a relative
    ``base_url`` (an unusable one, ``javascript:``..., is passed over as a browser passes
    it over for the document's address); else ``base_url`` unchanged (links stay as
    written)."""
    if canonical_url is None or absolute_url(base_url, None) is not None:
        return base_url
    return (absolute_url(base_url, canonical_url) if base_url else None) or canonical_url


def absolute_url(raw: Any, base: str | None, limit: int = 2048) -> str | None:
    """``raw`` resolved against ``base`` as an absolute http(s) URL, or ``None``.

    Rejects data:/javascript:/other non-web schemes, relative URLs when ``base`` is
    ``None``, malformed URLs (``urljoin``/``urlsplit`` raise ``ValueError``) and URLs
    longer than ``limit`` characters. ASCII tab/newline are removed and spaces encoded,
    as the WHATWG URL parser does.
    """
    if not isinstance(raw, str):
        return None
    s = strip_invisible(raw[: limit + 256]).strip()
    if not s or len(s) > limit:
        return None
    s = s.replace("\t", "").replace("\n", "").replace("\r", "").replace(" ", "%20")
    low = s[:16].lower()
    if low.startswith(_BLOCKED_URL_SCHEMES):
        return None
    try:
        if base:
            s = urljoin(base, s)
        parts = urlsplit(s)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return s if len(s) <= limit else None
