"""Structured data: JSON-LD blocks (the main Article-like or WebPage object, ``@id``
references, author names, images, headline, publisher and WebSite names) and Next.js
``__NEXT_DATA__`` (its prose strings), and the article body they give
(:func:`structured_article_body`)."""

from __future__ import annotations

import html as _html
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..html import ParsedPage
from .keys import (
    ARTICLE_TYPES,
    FIELD_LIMITS,
    MAX_AUTHORS,
    MAX_JSON_LD_CHARS,
    MAX_JSON_NODES,
    MAX_NEXT_DATA_CHARS,
    PAGE_TYPES,
)
from .normalize import URL_LIKE_RE, alnum_key, cap_text, clean_body, clean_text, norm_key
from .scan import Scan, scan_body, scan_head

#: ``__NEXT_DATA__`` prose test (see :func:`_is_prose`): a string is article text when
#: it is at least ``PROSE_MIN_CHARS`` long, at least ``PROSE_MIN_LETTER_RATIO`` of its
#: non-space characters are letters, it ends a sentence somewhere, and no
#: whitespace-free run is longer than ``PROSE_MAX_TOKEN_CHARS`` (ids, hashes, URLs,
#: base64). The joined body must reach ``NEXT_DATA_MIN_BODY_CHARS``.
PROSE_MIN_CHARS = 120
PROSE_MIN_LETTER_RATIO = 0.6
PROSE_MAX_TOKEN_CHARS = 60
NEXT_DATA_MIN_BODY_CHARS = 300

#: ``__NEXT_DATA__`` keys whose strings are page metadata or captions, not article text.
NEXT_DATA_SKIP_KEYS = frozenset(
    "description excerpt summary teaser dek subtitle subheadline caption alt credit "
    "title headline seotitle seodescription metadescription ogdescription "
    "twitterdescription socialdescription".split()
)

_SENTENCE_END_RE = re.compile(r"[.!?\u3002\uff01\uff1f]")
_LONG_TOKEN_RE = re.compile(r"\S{%d,}" % (PROSE_MAX_TOKEN_CHARS + 1))
_CONTAINERS = (dict, list)


def _load_json(text: str, limit: int) -> Any:
    """Decoded JSON, or ``None`` when too long or invalid. Tolerates HTML comment and
    CDATA wrappers, raw control characters in strings, and an HTML-escaped payload."""
    if not text or len(text) > limit:
        return None
    s = text.strip()
    for opener in ("<!--", "//<![CDATA[", "<![CDATA["):
        if s.startswith(opener):
            s = s[len(opener) :]
    for closer in ("-->", "//]]>", "]]>"):
        if s.endswith(closer):
            s = s[: -len(closer)]
    s = s.strip().rstrip(";")
    if not s:
        return None
    for attempt in range(2):
        try:
            return json.loads(s, strict=False)
        except (ValueError, RecursionError, TypeError):
            if attempt == 0 and "&" in s and ("&quot;" in s or "&#" in s):
                s = _html.unescape(s)
                continue
            return None
    return None


def json_objects(data: Any) -> list[dict]:
    """Every JSON object (dict) of a decoded document, in document order (a parent
    before its children). Iterative; visits at most MAX_JSON_NODES values."""
    out: list[dict] = []
    stack: list[Any] = [data]
    budget = MAX_JSON_NODES
    while stack and budget > 0:
        value = stack.pop()
        budget -= 1
        kind = type(value)
        if kind is dict:
            out.append(value)
            stack.extend([v for v in reversed(value.values()) if type(v) in _CONTAINERS])
        elif kind is list:
            stack.extend([v for v in reversed(value) if type(v) in _CONTAINERS])
    return out


def _long_strings(data: Any, min_chars: int) -> list[tuple[Any, str]]:
    """(key, value) for every string value of at least ``min_chars`` characters, in
    document order (list items carry their list's key). Iterative; visits at most
    MAX_JSON_NODES values."""
    out: list[tuple[Any, str]] = []
    stack: list[tuple[Any, Any]] = [(None, data)]
    budget = MAX_JSON_NODES
    while stack and budget > 0:
        key, value = stack.pop()
        budget -= 1
        kind = type(value)
        if kind is str:
            if len(value) >= min_chars:
                out.append((key, value))
        elif kind is dict:
            stack.extend(reversed(value.items()))
        elif kind is list:
            stack.extend([(key, item) for item in reversed(value)])
    return out


def ld_types(obj: dict) -> list[str]:
    """``@type`` as a list of bare names ("http://schema.org/NewsArticle" ->
    "NewsArticle"; "schema:BlogPosting" -> "BlogPosting")."""
    t = obj.get("@type")
    if isinstance(t, str):
        raw = [t]
    elif isinstance(t, list):
        raw = [x for x in t[:16] if isinstance(x, str)]
    else:
        return []
    out = []
    for x in raw:
        x = x.strip()
        for sep in ("/", "#", ":"):
            if sep in x:
                x = x.rsplit(sep, 1)[1]
        out.append(x)
    return out


def ld_first_str(value: Any) -> str | None:
    """The first string of a JSON-LD value: a string, the first string of a list, or a
    value object's ``@value``."""
    if isinstance(value, list):
        value = next((v for v in value[:32] if isinstance(v, (str, dict))), None)
    if isinstance(value, dict):
        value = value.get("@value")
    return value if isinstance(value, str) else None


@dataclass
class JsonLd:
    objects: list[dict] = field(default_factory=list)
    ids: dict[str, dict] = field(default_factory=dict)
    main: dict | None = None

    def deref(self, value: Any) -> Any:
        """Follow an ``{"@id": ...}`` reference to the node defined in the page."""
        if isinstance(value, dict):
            ref = value.get("@id")
            if isinstance(ref, str) and ref in self.ids and len(value) <= 2:
                return self.ids[ref]
        elif isinstance(value, str) and value in self.ids:
            return self.ids[value]
        return value


def parse_json_ld(blocks: list[str], page_urls: set[str]) -> JsonLd:
    ld = JsonLd()
    for text in blocks:
        data = _load_json(text, MAX_JSON_LD_CHARS)
        if data is None:
            continue
        for value in json_objects(data):
            ld.objects.append(value)
            ref = value.get("@id")
            if isinstance(ref, str) and len(value) > 1 and ref not in ld.ids:
                ld.ids[ref] = value
    best_rank, best = 9, None
    # the pages a breadcrumb trail names (its ListItems' WebPage items: "Home") are not
    # this page
    in_trail = {id(o) for obj in ld.objects if "BreadcrumbList" in ld_types(obj)
                for o in json_objects(obj)[1:]}
    for obj in ld.objects:
        types = ld_types(obj)
        if not types or id(obj) in in_trail:
            continue
        if any(t in ARTICLE_TYPES for t in types):
            rank = 0
        elif any(t in PAGE_TYPES for t in types):
            rank = 2
        else:
            continue
        if rank == 0 and page_urls and _ld_url_key(obj, ld) & page_urls:
            rank = -1  # the Article that names this page's URL beats other Articles
        if rank < best_rank:
            best_rank, best = rank, obj
    ld.main = best
    return ld


def _url_key(url: str) -> str:
    """Comparable form of a URL: no scheme, no fragment, no trailing slash, lower case."""
    u = url.strip().split("#", 1)[0].lower()
    if "://" in u:
        u = u.split("://", 1)[1]
    return u.rstrip("/")


def _ld_url_key(obj: dict, ld: JsonLd) -> set[str]:
    keys = set()
    for name in ("url", "mainEntityOfPage", "@id"):
        v = obj.get(name)
        if isinstance(v, dict):
            v = v.get("@id") or v.get("url")
        if isinstance(v, str) and v:
            keys.add(_url_key(v))
    return keys


def ld_names(value: Any, ld: JsonLd) -> list[str]:
    """Names from a JSON-LD author/creator value: strings, Person/Organization objects
    (``name``, else ``givenName familyName``), ``@id`` references and lists of these."""
    names: list[str] = []
    seen: set[str] = set()
    stack = [value]
    steps = 0
    while stack and len(names) < MAX_AUTHORS and steps < 4 * MAX_AUTHORS:
        steps += 1
        v = ld.deref(stack.pop())
        if isinstance(v, list):
            stack.extend(reversed(v[: 4 * MAX_AUTHORS]))
            continue
        name: Any = None
        if isinstance(v, str):
            name = v
        elif isinstance(v, dict):
            name = v.get("name")
            if isinstance(name, (list, dict)):
                name = ld_first_str(name)
            if not isinstance(name, str) or not name.strip():
                given, family = v.get("givenName"), v.get("familyName")
                name = " ".join(x for x in (given, family) if isinstance(x, str))
        text = clean_text(name, FIELD_LIMITS["byline"], strip_tags=True)
        if not text or URL_LIKE_RE.match(text):
            continue
        k = norm_key(text)
        if k not in seen:
            seen.add(k)
            names.append(text)
    return names


def ld_image(value: Any, ld: JsonLd) -> list[str]:
    """Image URLs (unresolved) from a JSON-LD image value: strings, lists, ImageObject
    ``url``/``contentUrl``, ``@id`` references."""
    out: list[str] = []
    stack = [value]
    steps = 0
    while stack and steps < 32:
        steps += 1
        v = stack.pop()
        if isinstance(v, dict):
            v = ld.deref(v)
        if isinstance(v, list):
            stack.extend(reversed(v[:16]))
        elif isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for k in ("url", "contentUrl"):
                if k in v:
                    stack.append(v[k])
                    break
    return out


def ld_headline(main: dict, others: list[str | None], h1_keys: list[str]) -> str | None:
    """``headline``, or ``name`` when both exist, differ, and only ``name`` agrees with
    the page's ``<title>``/og:title (contained in it) or an ``<h1>`` (equal to it)."""
    headline = ld_first_str(main.get("headline"))
    name = ld_first_str(main.get("name"))
    if not headline or not name:
        return headline or name
    keys = [norm_key(o) for o in others if o]

    def confirmed(value: str) -> bool:
        k = norm_key(clean_text(value, 2 * FIELD_LIMITS["title"], strip_tags=True) or "")
        return bool(k) and (k in h1_keys or any(k in o for o in keys))

    if not confirmed(headline) and confirmed(name):
        return name
    return headline


def ld_publisher_name(ld: JsonLd) -> str | None:
    holders = ([ld.main] if ld.main is not None else []) + ld.objects
    for obj in holders:
        pub = ld.deref(obj.get("publisher"))
        if isinstance(pub, list):
            pub = ld.deref(pub[0]) if pub else None
        name = pub.get("name") if isinstance(pub, dict) else pub
        text = clean_text(ld_first_str(name), FIELD_LIMITS["site_name"], strip_tags=True)
        if text:
            return text
    return None


def ld_website_name(ld: JsonLd) -> str | None:
    for obj in ld.objects:
        if "WebSite" in ld_types(obj):
            text = clean_text(
                ld_first_str(obj.get("name")), FIELD_LIMITS["site_name"], strip_tags=True
            )
            if text:
                return text
    return None


def _is_prose(text: str) -> bool:
    """Heuristic: does this string read like article text (see PROSE_* constants)?"""
    if len(text) < PROSE_MIN_CHARS or URL_LIKE_RE.match(text):
        return False
    if not _SENTENCE_END_RE.search(text) or _LONG_TOKEN_RE.search(text):
        return False
    compact = "".join(text.split())
    letters = sum(map(str.isalpha, compact))
    return letters >= PROSE_MIN_LETTER_RATIO * len(compact)


def _next_data_body(text: str | None) -> str | None:
    """Article text from a Next.js ``__NEXT_DATA__`` payload: the prose-like string
    values (never keys; ids, URLs, code and short labels fail :func:`_is_prose`), in
    document order, duplicates dropped, joined as paragraphs."""
    if not text:
        return None
    data = _load_json(text, MAX_NEXT_DATA_CHARS)
    if data is None:
        return None
    limit = FIELD_LIMITS["article_body"]
    paras: list[str] = []
    seen: set[str] = set()
    total = 0
    for key, value in _long_strings(data, PROSE_MIN_CHARS):
        if isinstance(key, str) and alnum_key(key) in NEXT_DATA_SKIP_KEYS:
            continue
        body = clean_body(value, limit)
        if not body:
            continue
        for para in body.split("\n\n"):
            if para in seen or not _is_prose(para):
                continue
            seen.add(para)
            paras.append(para)
            total += len(para) + 2
        if total > limit:
            break
    if total < NEXT_DATA_MIN_BODY_CHARS:
        return None
    return cap_text("\n\n".join(paras), limit)


def structured_body(main: dict, next_data: str | None) -> tuple[str, str] | None:
    if main:
        text = clean_body(ld_first_str(main.get("articleBody")), FIELD_LIMITS["article_body"])
        if text:
            return text, "json-ld"
    text = _next_data_body(next_data)
    return (text, "next-data") if text else None


def structured_article_body(page: ParsedPage) -> tuple[str, str] | None:
    """The page's article text from structured data, or ``None``.

    Returns ``(text, source)``: the JSON-LD ``articleBody`` of the main Article-like
    object (source ``"json-ld"``), else the prose strings of ``__NEXT_DATA__``
    (``"next-data"``). Paragraphs are separated by a blank line; tags are stripped and
    the length capped at ``FIELD_LIMITS["article_body"]``. The same value
    :func:`~unclutter.parse.metadata.extract_metadata` puts in ``Metadata.article_body``;
    call this on the page before pruning.
    """
    scan = Scan()
    if page.head is not None:
        scan_head(scan, page.head)
    if page.body is not None:
        scan_body(scan, page.body, want_bylines=False)
    ld = parse_json_ld(scan.json_ld, page_url_keys(scan, page))
    return structured_body(ld.main or {}, scan.next_data)


def page_url_keys(scan: Scan, page: ParsedPage) -> set[str]:
    """Comparable forms of the URLs that name this page (canonical, og:url, page URL)."""
    urls = set()
    og_url = scan.meta.get("og:url", (None,))[0]
    for candidate in (scan.links.get("canonical"), og_url, page.url):
        if isinstance(candidate, str) and candidate.strip():
            urls.add(_url_key(candidate))
    return urls
