"""Metadata stage: a parsed page in, :class:`~unclutter.core.models.Metadata` out.

Call :func:`extract_metadata` on the page *as parsed*, before pruning: JSON-LD and
``__NEXT_DATA__`` live in ``<script>`` elements, which the prune stage removes.

Precedence (the first source that yields a usable value wins). ``Metadata.sources[field]``
records the winner as ``"json-ld"``, ``"next-data"``, ``"meta[<attr>=<key>]"`` (e.g.
``"meta[property=og:title]"``, ``"meta[name=author]"``, ``"meta[itemprop=datepublished]"``),
``"title"``, ``"h1"``, ``"dom[rel=author]"`` / ``"dom[itemprop=author]"`` /
``"dom[class/id=byline]"``, ``"time[datetime]"``, ``"html[lang]"``,
``"link[rel=canonical]"`` or ``"link[rel=image_src]"``::

    title           JSON-LD headline (or name) of the main Article-like object
                    > og:title > twitter:title > dc.title / dcterms.title
                      > parsely-title > meta name=title
                    > <title>, site-name suffix/prefix removed (after pruning, one
                      under 15 or over 150 characters gives way to the page's only
                      <h1> of more than 4 words: :func:`settle_title`)
                    > first visible <h1>
                    (a source equal to a known site name is skipped when a later
                    source differs)
    byline          JSON-LD author (or creator) name(s): Person/Organization objects,
                      @id references, lists, strings; joined with ", "
                    > meta author > article:author (when not a URL)
                      > dc.creator / dcterms.creator > parsely-author > sailthru.author
                    > DOM: the first short visible [rel~=author], [itemprop~=author], or
                      class/id containing "byline", "author", "writtenby"
    date_published  JSON-LD datePublished
                    > article:published_time > og:published_time > pubdate
                      > publishdate > publish_date > date > dc.date > dc.date.issued
                      > dcterms.issued > dcterms.created > sailthru.date
                      > parsely-pub-date > <meta itemprop=datePublished> (anywhere)
                    > <time datetime> in the body (itemprop=datePublished or the
                      ``pubdate`` attribute first, else the first visible one)
                    > a publication-date key in the page's script data
                      (``"datePublished": "..."``, :func:`script_date`)
                    > (the pipeline, ``Options.search_date``) the URL and the
                      visible text, read by htmldate (:func:`search_date`), then a
                      date the visible page labels "Published"/"Posted" anywhere
                    (a time stated in UTC on the day after or before a permalink's
                    ``/yyyy/mm/dd/`` becomes that day: :func:`local_day`)
    date_modified   JSON-LD dateModified > article:modified_time > og:updated_time
                    > dc.date.modified > dcterms.modified > <meta itemprop=dateModified>
                    > <time itemprop=dateModified datetime>
    site_name       og:site_name > JSON-LD publisher name (the main object's, else
                    the first object's) > application-name (unless it repeats the
                    <title>) > JSON-LD WebSite name
    language        <html lang> > <html xml:lang> > meta http-equiv content-language
                    > og:locale > JSON-LD inLanguage
    canonical_url   <link rel=canonical> > og:url
    lead_image      og:image > og:image:url > og:image:secure_url > twitter:image
                    > twitter:image:src > JSON-LD image, then thumbnailUrl (string,
                    list, ImageObject url/contentUrl, @id reference)
                    > <link rel=image_src>
    excerpt         og:description > twitter:description > meta description
                    > dc.description / dcterms.description > JSON-LD description
    article_body    JSON-LD articleBody of the main Article-like object
                    > prose strings of ``<script id="__NEXT_DATA__">`` JSON
                    (a labelled fallback: the pipeline uses it only when the visible
                    page has no article)

The *main* JSON-LD object is the first object (in document order, across all blocks,
``@graph`` and nested values) whose ``@type`` is in :data:`~.keys.ARTICLE_TYPES`, preferring
one whose ``url``/``mainEntityOfPage``/``@id`` names this page; else the first in
:data:`~.keys.PAGE_TYPES`.

Sources of the rules: JSON-LD and the Article / WebPage type trees are schema.org
(https://schema.org/Article, https://schema.org/WebPage, JSON-LD 1.1 ``@graph``/``@id``);
og:* keys are the Open Graph protocol (https://ogp.me/); twitter:* keys are Twitter/X
Cards markup; dc.* / dcterms.* are Dublin Core (DCMI Metadata Terms, and the HTML
encoding of RFC 2731); ``<meta name>``, ``<link rel=canonical>`` (RFC 6596),
``<html lang>``, ``<time datetime>`` and ``http-equiv content-language`` are the WHATWG
HTML standard; parsely-* and sailthru.* are those vendors' documented meta tags.

Meta keys are matched case-insensitively on ``name``, ``property`` (a space-separated
list, as in RDFa) and ``http-equiv``; empty ``content`` is skipped, so the next source is
tried. Values are normalised:

* Every text field: invisible Unicode removed (:data:`INVISIBLE_CODEPOINTS`, defined in
  :mod:`unclutter.core.invisible`: tag characters U+E0000-E007F, bidi controls
  U+202A-U+202E / U+2066-U+2069 / U+200E-U+200F / U+061C, zero-width U+200B-U+200D /
  U+2060-U+2064 / U+FEFF, soft hyphen, C0/C1 controls)
  -- hidden prompt-injection text must not travel through metadata; whitespace collapsed;
  length capped by :data:`FIELD_LIMITS` (text is cut at a word boundary and ends with
  "…"; over-long URLs, dates and language tags are dropped, not cut).
* Character references left in a value after parsing (a double-escaped ``&amp;#039;``)
  are decoded once more (only complete ``&...;`` references, see
  :func:`unescape_entities`). JSON-LD and ``__NEXT_DATA__`` strings are also stripped of
  tags; a JSON-LD block may be HTML-escaped as a whole, wrapped in ``<!-- -->`` or CDATA,
  or contain raw newlines in strings.
* Dates: ISO 8601 (``datetime.isoformat``) when the value is ISO 8601, RFC 2822, an
  unambiguous ``d/m/yyyy`` / ``m/d/yyyy`` or one of :data:`~.dates.DATE_FORMATS`; otherwise the
  cleaned raw value. Parsed years outside :data:`~.dates.DATE_YEAR_RANGE` (placeholders such as
  ``0001-01-01``) reject the source.
* Bylines: a leading "By" / "Written by" (:data:`~.byline.BYLINE_PREFIX_RE`) and a trailing
  "Published ..." / "Updated ..." (:data:`BYLINE_TRAILER_RE`) are cut; URLs rejected.
* Language: a BCP 47 tag (RFC 5646) with ``_`` turned into ``-`` and the conventional
  case of RFC 5646 §2.1.1 (``en_us`` -> ``en-US``); non-tags are rejected.
* URLs: absolute ``http``/``https`` only, resolved against ``page.base_url``; a relative
  URL on a page without a base URL, ``data:``/``javascript:`` URIs and malformed URLs
  are rejected (the next source is tried).
* Title (:func:`~.title.refine_title`, for every title source, in this order): a title that
  equals a visible ``<h1>`` after dropping separator-delimited segments is cut to that
  span (compared case- and quote-insensitively); a title of at least
  :data:`~.title.TITLE_TRUNCATED_MIN_CHARS` that begins a longer visible ``<h1>`` is taken as a
  truncated copy and the h1 is used; else known site names (og:site_name,
  application-name, JSON-LD publisher/WebSite names, the host name) are removed from
  its start/end; for ``<title>`` only, an unknown site suffix (or prefix) is then
  dropped by the heuristic of :func:`~.title._strip_site_segments`. Separators
  (:data:`TITLE_SEPARATOR_RE`): ``|``, ``-``, ``–``, ``—``, ``::``, ``·``, ``»``, ``•``
  with whitespace on both sides.

Hostile input: every walk is iterative (no recursion, so deep DOMs and deeply nested
JSON are safe); JSON blocks over :data:`~.keys.MAX_JSON_LD_CHARS` / :data:`~.keys.MAX_NEXT_DATA_CHARS`
are skipped, invalid JSON is skipped, and JSON walks stop after :data:`~.keys.MAX_JSON_NODES`
values. The function never raises on page content.

Cost: the head and the body are each walked once (DOM byline candidates are only looked
for when no meta tag names an author): about a millisecond per page on one core, most of it
the body walk. Decoding a big ``__NEXT_DATA__`` payload for ``article_body`` adds 5-60 ms on
the pages that carry one (see ``extract_metadata(..., article_body=False)``).

Modules (each imports only those above it):

* :mod:`.keys`: field length limits, walk bounds, schema.org type tables, page kinds, the
  ``<meta>`` keys of each field in precedence order;
* :mod:`.normalize`: text cleaning, comparison keys, language tags, absolute URLs;
* :mod:`.scan`: the head and body walks that collect candidates; visibility tests;
* :mod:`.dates`: date normalisation and the htmldate search (:func:`search_date`);
* :mod:`.byline`: byline cleaning and DOM byline candidates (:func:`page_byline`);
* :mod:`.title`: title and site-name rules (:func:`settle_title`);
* :mod:`.jsonld`: JSON-LD and ``__NEXT_DATA__`` (:func:`structured_article_body`);
* this package: the precedence itself, :func:`extract_metadata`.
"""

from __future__ import annotations

from typing import Iterator

from ...core.dom import Node
from ...core.invisible import INVISIBLE_CODEPOINTS, strip_invisible
from ...core.models import Metadata
from ..html import ParsedPage
from .byline import BYLINE_TRAILER_RE, clean_byline, first_shown_byline, page_byline
from .dates import clean_date, local_day, normalise_date, script_date, search_date
from .jsonld import (
    json_objects,
    ld_first_str,
    ld_headline,
    ld_image,
    ld_names,
    ld_publisher_name,
    ld_types,
    ld_website_name,
    page_url_keys,
    parse_json_ld,
    structured_article_body,
    structured_body,
)
from .keys import (
    BYLINE_META_KEYS,
    CANONICAL_META_KEYS,
    DATE_MODIFIED_META_KEYS,
    DATE_PUBLISHED_META_KEYS,
    EXCERPT_META_KEYS,
    FIELD_LIMITS,
    IMAGE_META_KEYS,
    LANGUAGE_META_KEYS,
    PAGE_KINDS,
    SITE_NAME_FALLBACK_META_KEYS,
    SITE_NAME_META_KEYS,
    TITLE_META_KEYS,
)
from .normalize import absolute_url, alnum_key, link_base, clean_text, norm_key, normalise_language, unescape_entities
from .scan import Scan, in_readers_section, is_hidden, scan_body, scan_head, scan_tagged, visible_text
from .title import TITLE_SEPARATOR_RE, host_keys, refine_title, settle_title

__all__ = [
    "extract_metadata",
    "settle_title",
    "structured_article_body",
    "page_byline",
    "search_date",
    "script_date",
    "FIELD_LIMITS",
    "PAGE_KINDS",
    "INVISIBLE_CODEPOINTS",
    "BYLINE_TRAILER_RE",
    "TITLE_SEPARATOR_RE",
    "clean_text",
    "strip_invisible",
    "unescape_entities",
    "normalise_date",
    "normalise_language",
    "absolute_url",
    "link_base",
]


class _Result:
    """Accumulates fields and their sources (first ``offer`` per field wins)."""

    def __init__(self) -> None:
        self.md = Metadata()

    def has(self, name: str) -> bool:
        return getattr(self.md, name) is not None

    def offer(self, name: str, value: str | None, source: str) -> bool:
        if value is None or getattr(self.md, name) is not None:
            return False
        setattr(self.md, name, value)
        self.md.sources[name] = source
        return True


def _meta_source(scan: Scan, key: str) -> str:
    attr = scan.meta[key][1]
    bare = key.split(":", 1)[1] if attr in ("http-equiv", "itemprop") else key
    return f"meta[{attr}={bare}]"


def _meta_values(scan: Scan, keys: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """(raw content, source label) for each present key, in precedence order."""
    for key in keys:
        hit = scan.meta.get(key)
        if hit is not None:
            yield hit[0], _meta_source(scan, key)


def extract_metadata(page: ParsedPage, *, article_body: bool = True) -> Metadata:
    """Extract the page's metadata (see the package docstring for precedence and rules).

    Args:
        page: the parse stage's output, before pruning (scripts must still be there).
        article_body: fill ``article_body``. Decoding a big ``__NEXT_DATA__`` payload
            costs 5-60 ms (against well under 1 ms for everything else), so a caller
            that needs the body only when the visible page has no article can pass
            ``False`` and call :func:`structured_article_body` when it does.

    Returns:
        A :class:`~unclutter.core.models.Metadata`; fields the page does not state are
        ``None``; ``sources`` names the winning source of each filled field. Lengths are
        capped by :data:`FIELD_LIMITS`. Never raises on page content.
    """
    scan = Scan()
    head = page.head
    body = page.body
    bylines_pending = False
    if page.tagged and body is not None:
        # no walk: the parser listed the elements; DOM byline candidates, the last
        # resort, are looked for below only if no other source names the author
        scan_tagged(scan, page, head, body)
        bylines_pending = True
    else:
        if head is not None:
            scan_head(scan, head)
        # DOM byline candidates are only the last resort: skip looking for them when
        # the head already states an author.
        want_bylines = not any(
            clean_byline(raw, FIELD_LIMITS["byline"])
            for raw, _ in _meta_values(scan, BYLINE_META_KEYS)
        )
        if body is not None:
            scan_body(scan, body, want_bylines)
        elif head is None:
            scan_body(scan, page.root)

    ld = parse_json_ld(scan.json_ld, page_url_keys(scan, page))
    main = ld.main or {}
    res = _Result()
    limits = FIELD_LIMITS
    base = page.base_url

    title_text = clean_text(scan.title, 2 * limits["title"])
    og_title = clean_text(scan.meta.get("og:title", ("",))[0], 2 * limits["title"])

    # --- site name (first: the title uses it) -------------------------------------
    for raw, src in _meta_values(scan, SITE_NAME_META_KEYS):
        if res.offer("site_name", clean_text(raw, limits["site_name"]), src):
            break
    publisher_name = ld_publisher_name(ld)
    res.offer("site_name", publisher_name, "json-ld")
    # application-name is sometimes (mis)used for the page's own title: not a site name
    # when it repeats the <title> element.
    page_titles = {alnum_key(title_text)} if title_text else set()
    app_name = None
    for raw, src in _meta_values(scan, SITE_NAME_FALLBACK_META_KEYS):
        app_name = clean_text(raw, limits["site_name"])
        if app_name and alnum_key(app_name) in page_titles:
            app_name = None
        if res.offer("site_name", app_name, src):
            break
    website_name = ld_website_name(ld)
    res.offer("site_name", website_name, "json-ld")

    # --- title ------------------------------------------------------------------------
    site_keys = {
        alnum_key(s) for s in (res.md.site_name, app_name, publisher_name, website_name) if s
    }
    site_keys.update(host_keys(page.url))
    site_keys.discard("")
    h1_texts = [
        t
        for t in (visible_text(n, 2 * limits["title"]) for n in scan.h1s if not is_hidden(n))
        if t
    ]
    h1_keys = [norm_key(t) for t in h1_texts]
    candidates: list[tuple[str | None, str, bool]] = []
    if main:
        headline = ld_headline(main, [title_text, og_title], h1_keys)
        candidates.append(
            (clean_text(headline, 2 * limits["title"], strip_tags=True), "json-ld", False)
        )
    for raw, src in _meta_values(scan, TITLE_META_KEYS):
        candidates.append((clean_text(raw, 2 * limits["title"]), src, False))
    candidates.append((title_text, "title", True))
    usable = [c for c in candidates if c[0]]
    # A title that is only the site's name says nothing about the page; skip such a
    # source when a later one differs (all agreeing means the site name is wrong).
    chosen = [c for c in usable if alnum_key(c[0]) not in site_keys] or usable
    for text, src, heuristic in chosen:
        refined = refine_title(text, h1_texts, site_keys, heuristic)
        if res.offer("title", clean_text(refined, limits["title"]), src):
            break
    if h1_texts:
        res.offer("title", clean_text(h1_texts[0], limits["title"]), "h1")

    # --- byline -----------------------------------------------------------------------
    if main:
        names = ld_names(main.get("author") or main.get("creator"), ld)
        if names:
            res.offer("byline", clean_byline(", ".join(names), limits["byline"]), "json-ld")
    if not res.has("byline"):
        for raw, src in _meta_values(scan, BYLINE_META_KEYS):
            if res.offer("byline", clean_byline(raw, limits["byline"]), src):
                break
    if not res.has("byline"):
        if bylines_pending:
            found = Scan()
            scan_body(found, body, True)
            scan.bylines = found.bylines
        shown = first_shown_byline(scan.bylines)
        if shown is not None:
            res.offer("byline", *shown)

    # --- dates ------------------------------------------------------------------------
    for name, ld_key, meta_keys, itemprop in (
        ("date_published", "datePublished", DATE_PUBLISHED_META_KEYS, "datepublished"),
        ("date_modified", "dateModified", DATE_MODIFIED_META_KEYS, "datemodified"),
    ):
        if main:
            value = clean_date(ld_first_str(main.get(ld_key)), limits[name])
            res.offer(name, value, "json-ld")
        for raw, src in _meta_values(scan, meta_keys):
            if res.has(name):
                break
            res.offer(name, clean_date(raw, limits[name]), src)
        if not res.has(name):
            _date_from_times(res, scan.times, name, itemprop, limits[name])
    res.md.date_published = local_day(res.md.date_published, page.url)

    # --- language -----------------------------------------------------------------------
    html_node = page.html_node
    if html_node is not None:
        for attr in ("lang", "xml:lang"):
            lang = normalise_language(html_node.attrs.get(attr))
            if res.offer("language", lang, f"html[{attr}]"):
                break
    for raw, src in _meta_values(scan, LANGUAGE_META_KEYS):
        if res.offer("language", normalise_language(raw), src):
            break
    if main:
        lang = main.get("inLanguage")
        if isinstance(lang, dict):
            lang = lang.get("alternateName") or lang.get("name")
        res.offer("language", normalise_language(ld_first_str(lang)), "json-ld")

    # --- canonical URL ------------------------------------------------------------------
    url_limit = limits["canonical_url"]
    res.offer(
        "canonical_url",
        absolute_url(scan.links.get("canonical"), base, url_limit),
        "link[rel=canonical]",
    )
    for raw, src in _meta_values(scan, CANONICAL_META_KEYS) if not res.has("canonical_url") else ():
        if res.offer("canonical_url", absolute_url(raw, base, url_limit), src):
            break

    # --- lead image -----------------------------------------------------------------------
    img_limit = limits["lead_image"]
    for raw, src in _meta_values(scan, IMAGE_META_KEYS):
        if res.offer("lead_image", absolute_url(raw, base, img_limit), src):
            break
    if main and not res.has("lead_image"):
        for raw in ld_image(main.get("image"), ld) + ld_image(main.get("thumbnailUrl"), ld):
            if res.offer("lead_image", absolute_url(raw, base, img_limit), "json-ld"):
                break
    if not res.has("lead_image"):
        res.offer("lead_image", absolute_url(scan.links.get("image_src"), base, img_limit),
                  "link[rel=image_src]")

    # --- excerpt --------------------------------------------------------------------------
    for raw, src in _meta_values(scan, EXCERPT_META_KEYS):
        if res.offer("excerpt", clean_text(raw, limits["excerpt"]), src):
            break
    if main:
        description = ld_first_str(main.get("description"))
        res.offer("excerpt", clean_text(description, limits["excerpt"], strip_tags=True), "json-ld")

    # --- page type ----------------------------------------------------------------------------
    # a paywalled story names its subscription as the work it is part of:
    # ``"isPartOf": {"@type": ["CreativeWork", "Product"]}`` (Google Search Central,
    # "Subscription and paywalled content" structured data): a product so named (inline,
    # in a list, or by ``@id`` reference) does not make the page a product page
    part_of: set[int] = set()
    for obj in ld.objects:
        value = obj.get("isPartOf")
        stack = list(value[:64]) if isinstance(value, list) else [value]
        while stack:
            v = stack.pop()
            if isinstance(v, list):
                stack.extend(v[:64])
            elif isinstance(v, (dict, str)):
                v = ld.deref(v)
                if isinstance(v, dict):
                    part_of.update(id(o) for o in json_objects(v))
    types = {t for obj in ld.objects for t in ld_types(obj)}
    product_types = {t for obj in ld.objects if id(obj) not in part_of for t in ld_types(obj)}
    for kind, names in PAGE_KINDS:
        if not (product_types if kind == "product" else types).isdisjoint(names):
            if kind != "webpage" or not _microdata_kind(page, res):
                res.offer("page_type", kind, "json-ld")
            break
    else:
        _microdata_kind(page, res)
    og_type = scan.meta.get("og:type")
    if og_type is not None:
        word = og_type[0].strip().lower().split(".", 1)[0].split(":")[-1]
        if word.isascii() and word.isalpha() and len(word) <= FIELD_LIMITS["page_type"]:
            res.offer("page_type", word, "meta[property=og:type]")

    # --- article body (labelled fallback) ---------------------------------------------------
    if article_body:
        found = structured_body(main, scan.next_data)
        if found is not None:
            res.offer("article_body", *found)
    return res.md


def _microdata_kind(page: ParsedPage, res: _Result) -> bool:
    """Offer the page kind named by the page's microdata ``itemtype`` values
    (``ParsedPage.microdata_types``: schema.org URLs, several space-separated), looked up
    in :data:`PAGE_KINDS` order except ``webpage``; whether one was found. Consulted after
    JSON-LD's specific kinds and before its ``WebPage`` and og:type (a shop page's
    ``itemtype=".../Product"`` under og:type's default ``website``)."""
    if not page.microdata_types:
        return False
    types = set()
    for value in page.microdata_types:
        for url in value.split()[:8]:
            name = url.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
            if name:
                types.add(name)
    for kind, names in PAGE_KINDS:
        if kind != "webpage" and not types.isdisjoint(names):
            res.offer("page_type", kind, "microdata[itemtype]")
            return True
    return False


def _date_from_times(res: _Result, times: list[Node], name: str, itemprop: str, limit: int) -> None:
    """``<time datetime>`` fallback: the first visible one marked with ``itemprop`` (or,
    for the publication date, the obsolete ``pubdate`` attribute), else for the
    publication date the first visible one; none inside comments or customer reviews
    (:func:`.scan.in_readers_section`: a reader's post has its own date; a container of
    "replies" may hold a forum's first post, whose date is the page's)."""
    visible = [t for t in times if not is_hidden(t) and not in_readers_section(t, replies=False)]
    marked = [
        t
        for t in visible
        if itemprop in t.attrs.get("itemprop", "").lower().split()
        or (name == "date_published" and "pubdate" in t.attrs)
    ]
    pool = marked or (visible if name == "date_published" else [])
    for t in pool:
        raw = t.attrs.get("datetime") or t.attrs.get("content")
        if res.offer(name, clean_date(raw, limit), "time[datetime]"):
            return
