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
                    > (the pipeline, ``Options.search_date``) the URL and the
                      visible text, read by htmldate (:func:`search_date`)
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
``@graph`` and nested values) whose ``@type`` is in :data:`ARTICLE_TYPES`, preferring
one whose ``url``/``mainEntityOfPage``/``@id`` names this page; else the first in
:data:`PAGE_TYPES`.

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
  unambiguous ``d/m/yyyy`` / ``m/d/yyyy`` or one of :data:`DATE_FORMATS`; otherwise the
  cleaned raw value. Parsed years outside :data:`DATE_YEAR_RANGE` (placeholders such as
  ``0001-01-01``) reject the source.
* Bylines: a leading "By" / "Written by" (:data:`BYLINE_PREFIX_RE`) and a trailing
  "Published ..." / "Updated ..." (:data:`BYLINE_TRAILER_RE`) are cut; URLs rejected.
* Language: a BCP 47 tag (RFC 5646) with ``_`` turned into ``-`` and the conventional
  case of RFC 5646 §2.1.1 (``en_us`` -> ``en-US``); non-tags are rejected.
* URLs: absolute ``http``/``https`` only, resolved against ``page.base_url``; a relative
  URL on a page without a base URL, ``data:``/``javascript:`` URIs and malformed URLs
  are rejected (the next source is tried).
* Title (:func:`_refine_title`, for every title source, in this order): a title that
  equals a visible ``<h1>`` after dropping separator-delimited segments is cut to that
  span (compared case- and quote-insensitively); a title of at least
  :data:`TITLE_TRUNCATED_MIN_CHARS` that begins a longer visible ``<h1>`` is taken as a
  truncated copy and the h1 is used; else known site names (og:site_name,
  application-name, JSON-LD publisher/WebSite names, the host name) are removed from
  its start/end; for ``<title>`` only, an unknown site suffix (or prefix) is then
  dropped by the heuristic of :func:`_strip_site_segments`. Separators
  (:data:`TITLE_SEPARATOR_RE`): ``|``, ``-``, ``–``, ``—``, ``::``, ``·``, ``»``, ``•``
  with whitespace on both sides.

Hostile input: every walk is iterative (no recursion, so deep DOMs and deeply nested
JSON are safe); JSON blocks over :data:`MAX_JSON_LD_CHARS` / :data:`MAX_NEXT_DATA_CHARS`
are skipped, invalid JSON is skipped, and JSON walks stop after :data:`MAX_JSON_NODES`
values. The function never raises on page content.

Cost: the head and the body are each walked once (DOM byline candidates are only looked
for when no meta tag names an author). Measured on one core: median 0.3 ms per page on
readability-tests (~1,300 nodes), mean 0.9 ms on wcxb-dev (2,000-6,000 nodes), most of
it the body walk. Decoding a big ``__NEXT_DATA__`` payload for ``article_body`` adds
5-60 ms on the pages that carry one (see ``extract_metadata(..., article_body=False)``).
"""

from __future__ import annotations

import datetime as _dt
import html as _html
import itertools
import json
import re
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, Iterator
from urllib.parse import urljoin, urlsplit

from ..core.dom import TEXT, Node
from ..core.hiding import class_hides
from ..core.invisible import INVISIBLE_CODEPOINTS, strip_invisible
from ..core.models import Metadata
from .html import ParsedPage

__all__ = [
    "extract_metadata",
    "settle_title",
    "structured_article_body",
    "FIELD_LIMITS",
    "INVISIBLE_CODEPOINTS",
    "clean_text",
    "strip_invisible",
    "unescape_entities",
    "normalise_date",
    "search_date",
    "normalise_language",
    "absolute_url",
]

# =====================================================================================
# Limits and rule tables: every constant of this stage is here.
# =====================================================================================

#: Longest value kept per field, in characters (Unicode code points). Text fields are
#: cut at a word boundary; URL, date and language values over the limit are rejected.
#: 35 for language is RFC 5646 §4.4.1's minimum buffer size for a tag; 2048 for URLs is
#: the de-facto ceiling browsers and sitemaps (sitemaps.org) use.
FIELD_LIMITS: dict[str, int] = {
    "title": 300,
    "byline": 200,
    "date_published": 64,
    "date_modified": 64,
    "site_name": 120,
    "language": 35,
    "canonical_url": 2048,
    "lead_image": 2048,
    "excerpt": 1000,
    "page_type": 20,
    "article_body": 200_000,
}

#: JSON-LD blocks read per page, and the largest one decoded (characters). Real blocks
#: are a few kB; bigger ones are almost always embedded state, not metadata.
MAX_JSON_LD_BLOCKS = 16
MAX_JSON_LD_CHARS = 1_000_000
#: Largest ``__NEXT_DATA__`` payload decoded (characters). Next.js pages carry their
#: whole render state there; 4 MB covers real article pages.
MAX_NEXT_DATA_CHARS = 4_000_000
#: Values visited per decoded JSON document before a walk stops (bounds time on
#: hostile payloads such as a million-element list).
MAX_JSON_NODES = 50_000
#: Author names joined into a byline at most.
MAX_AUTHORS = 10
#: A DOM byline candidate is rejected when its visible text is longer than this: a real
#: byline is a name or two ("By Jane Doe and John Roe"), not a bio or a comment.
MAX_DOM_BYLINE_CHARS = 100
#: How many body candidates are kept per kind for later checks (first in document order).
MAX_H1_CANDIDATES = 4
MAX_TIME_CANDIDATES = 8
MAX_BYLINE_CANDIDATES = 12
#: Nodes visited when reading the visible text of one h1 or byline candidate.
MAX_TEXT_WALK_NODES = 2000
#: Descendants of one DOM byline candidate searched for more specific author markup.
MAX_BYLINE_SUBTREE_NODES = 300
#: Title heuristics (for ``<title>`` only, see :func:`_strip_site_segments`): the part
#: kept must have at least this many words (or this many characters when the script
#: does not separate words with spaces), and a dropped site segment at most
#: ``SITE_SEGMENT_MAX_WORDS`` words.
TITLE_MIN_WORDS = 3
TITLE_MIN_CHARS_UNSPACED = 10
SITE_SEGMENT_MAX_WORDS = 5
#: A ``<title>`` (after its site name is removed) shorter or longer than these bounds, in
#: characters, gives way to the page's only visible ``<h1>`` ("FAQ", "Home", a keyword
#: list) when that heading has more than ``TITLE_SOLE_H1_MIN_WORDS`` words: the bounds
#: Readability.js uses in ``_getArticleTitle`` (Mozilla, readability, 2015-2024; a
#: result of 4 words or fewer goes back to the original title there), applied to
#: ``<title>`` only (og:title and JSON-LD are the publisher's headline for the page).
TITLE_SOLE_H1_MIN_CHARS = 15
TITLE_SOLE_H1_MAX_CHARS = 150
TITLE_SOLE_H1_MIN_WORDS = 4
#: A title source that is a prefix of a visible h1 and at least this long is taken to be
#: a truncated copy of it, and the h1 is used.
TITLE_TRUNCATED_MIN_CHARS = 40
#: At most this many separator-delimited title segments are examined.
MAX_TITLE_SEGMENTS = 12
#: ``__NEXT_DATA__`` prose test (see :func:`_is_prose`): a string is article text when
#: it is at least ``PROSE_MIN_CHARS`` long, at least ``PROSE_MIN_LETTER_RATIO`` of its
#: non-space characters are letters, it ends a sentence somewhere, and no
#: whitespace-free run is longer than ``PROSE_MAX_TOKEN_CHARS`` (ids, hashes, URLs,
#: base64). The joined body must reach ``NEXT_DATA_MIN_BODY_CHARS``.
PROSE_MIN_CHARS = 120
PROSE_MIN_LETTER_RATIO = 0.6
PROSE_MAX_TOKEN_CHARS = 60
NEXT_DATA_MIN_BODY_CHARS = 300

#: schema.org types whose headline/author/dates describe the page's article: Article and
#: its subtypes (https://schema.org/Article, "More specific Types").
ARTICLE_TYPES = frozenset(
    "Article AdvertiserContentArticle AnalysisNewsArticle APIReference "
    "AskPublicNewsArticle BackgroundNewsArticle BlogPosting Certification "
    "DiscussionForumPosting LiveBlogPosting MedicalScholarlyArticle NewsArticle "
    "OpinionNewsArticle Report ReportageNewsArticle ReviewNewsArticle SatiricalArticle "
    "ScholarlyArticle SocialMediaPosting TechArticle".split()
)
#: WebPage and its subtypes (https://schema.org/WebPage): used when the page has no
#: Article-like object.
PAGE_TYPES = frozenset(
    "WebPage AboutPage CheckoutPage CollectionPage ContactPage FAQPage ItemPage "
    "MedicalWebPage ProfilePage QAPage RealEstateListing SearchResultsPage".split()
)

#: Coarse page kinds (``Metadata.page_type``) by schema.org type (https://schema.org/Thing
#: hierarchy: Product and its subtypes, DiscussionForumPosting / QAPage, CreativeWork
#: subtypes), looked up in this order among the types of all the page's JSON-LD objects:
#: the more specific kinds first (a product page often also carries an ``Article`` or a
#: ``WebPage``); without one, ``og:type`` names it (Open Graph protocol: ``article``,
#: ``product``, ``video.movie``..., first word kept).
PAGE_KINDS = (
    ("product", frozenset("Product ProductGroup ProductModel IndividualProduct SomeProducts "
                          "Vehicle Car Motorcycle".split())),
    # an FAQ page's mainEntity is a list of Question objects: it is an FAQ, not a thread
    ("faq", frozenset({"FAQPage"})),
    ("forum", frozenset("DiscussionForumPosting QAPage Question".split())),
    ("recipe", frozenset({"Recipe"})),
    ("article", ARTICLE_TYPES - {"DiscussionForumPosting"}),
    ("video", frozenset({"VideoObject"})),
    ("event", frozenset({"Event"})),
    ("webpage", PAGE_TYPES),
)

#: Meta keys per field, in precedence order (lower-case; matched against ``name``,
#: each token of ``property``, and ``http-equiv`` prefixed with "http-equiv:").
TITLE_META_KEYS = (
    "og:title",
    "twitter:title",
    "dc.title",
    "dc:title",
    "dcterms.title",
    "dcterms:title",
    "parsely-title",
    "title",
)
BYLINE_META_KEYS = (
    "author",
    "article:author",
    "dc.creator",
    "dc:creator",
    "dcterms.creator",
    "dcterms:creator",
    "parsely-author",
    "sailthru.author",
)
DATE_PUBLISHED_META_KEYS = (
    "article:published_time",
    "og:published_time",
    "pubdate",
    "publishdate",
    "publish_date",
    "date",
    "dc.date",
    "dc:date",
    "dc.date.issued",
    "dcterms.issued",
    "dcterms:issued",
    "dcterms.created",
    "dcterms:created",
    "sailthru.date",
    "parsely-pub-date",
    "itemprop:datepublished",
)
DATE_MODIFIED_META_KEYS = (
    "article:modified_time",
    "og:updated_time",
    "dc.date.modified",
    "dcterms.modified",
    "dcterms:modified",
    "itemprop:datemodified",
)
SITE_NAME_META_KEYS = ("og:site_name",)
SITE_NAME_FALLBACK_META_KEYS = ("application-name",)
LANGUAGE_META_KEYS = ("http-equiv:content-language", "og:locale")
CANONICAL_META_KEYS = ("og:url",)
IMAGE_META_KEYS = (
    "og:image",
    "og:image:url",
    "og:image:secure_url",
    "twitter:image",
    "twitter:image:src",
)
EXCERPT_META_KEYS = (
    "og:description",
    "twitter:description",
    "description",
    "dc.description",
    "dc:description",
    "dcterms.description",
    "dcterms:description",
)
#: ``itemprop`` values kept from ``<meta itemprop>`` (microdata), stored as "itemprop:<v>"
#: so they never mix with ``name``/``property`` keys of the same spelling.
ITEMPROP_META_KEYS = frozenset({"datepublished", "datemodified"})

#: class/id substrings that mark a byline element (matched in the lower-cased class and
#: id; "author" also covers microformats' "p-author").
BYLINE_CLASS_WORDS = ("byline", "author", "writtenby")
#: Lower-cased class/id substrings that contain "author" but mark something else
#: (login widgets: id="authorization"; "authority").
BYLINE_CLASS_FALSE_FRIENDS = ("authoriz", "authoris", "authorit")
#: Leading words removed from bylines ("By Jane Doe" -> "Jane Doe"); English only, as
#: other languages' equivalents ("von", "di", "par") are also surname particles.
BYLINE_PREFIX_RE = re.compile(
    r"^(?:(?:written|posted|words|story|reported|text)\s+)?by\b\s*:?\s*", re.IGNORECASE
)

#: A publication-date trailer cut from bylines ("Jane Doe Published 7:07 PM EST Nov 19"),
#: and a forum profile's statistics after a poster's name ("StarredSkies Posts: 116
#: Threads: 23 Joined: Feb 2019": MyBB, vBulletin, phpBB, XenForo profile labels).
BYLINE_TRAILER_RE = re.compile(  # (?<!\s): tried once per space run, not from each space in it
    r"(?<!\s)\s+(?:(?:published|updated|last updated|posted on|posted)\b"
    r"|(?:posts|threads|joined|join date|reputation|messages|reaction score|likes received)\s*:).*$",
    re.IGNORECASE | re.DOTALL,
)
#: A byline that is only a date or time ("Sun Dec 17, 2023 11:23 am": phpBB's
#: ``<p class="author">`` holds the post's date when the poster's name sits elsewhere)
#: names nobody: every word between separators (``BYLINE_DATE_SEPARATOR_RE``) is a number
#: or ordinal, am/pm, "at"/"on", or an English month or weekday name, and one is a number.
#: (Word by word: one pattern for the whole text would backtrack exponentially on a long
#: run of digits.)
BYLINE_DATE_SEPARATOR_RE = re.compile(r"[\s,/:|\-\u2013\u2014@\u00b7\u2022\u00bb\u00ab]+")
BYLINE_DATE_WORD_RE = re.compile(
    r"\d+(?:st|nd|rd|th)?\.?|\d+t\d+|\d+(?:\.\d+)?z|[ap]\.?m\.?|at|on|"
    r"utc|gmt|[ecmp][sd]t|cet|cest|bst|ist|jst|aest|"
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?",
    re.IGNORECASE,
)

#: Title separators: a run of whitespace, one of these, a run of whitespace.
#: (``(?<!\s)``: tried once per space run, not from each space in it: linear on long runs.)
TITLE_SEPARATOR_RE = re.compile(r"(?<!\s)\s+(\||::|[-\u2013\u2014\u00b7\u00bb\u2022])\s+")
#: Separators after which a leading segment may be a site name ("Site | Title"); dashes
#: are left out because "Topic - Subtitle" is far more common than "Site - Title".
PREFIX_SEPARATORS = frozenset({"|", "::", "\u00bb", "\u2022", "\u00b7"})

#: Plausible publication years: from 1800 (digitised archives) to this year plus 1
#: (scheduled posts); parsed dates outside are placeholders ("0001-01-01", "9999-12-31")
#: and the next source is tried.
DATE_YEAR_RANGE = (1800, 1)

#: Date formats tried after ISO 8601 and RFC 2822 (``datetime.strptime``, C locale).
DATE_FORMATS = (
    "%Y/%m/%d",
    "%Y/%m/%d %H:%M",
    "%Y/%m/%d %H:%M:%S",
    "%Y.%m.%d",
    "%d.%m.%Y",
    "%B %d, %Y",
    "%b %d, %Y",
    "%B %d %Y",
    "%b %d %Y",
    "%d %B %Y",
    "%d %b %Y",
    "%B %d, %Y %I:%M %p",
    "%b %d, %Y %I:%M %p",
    "%Y%m%d",
)

#: ``__NEXT_DATA__`` keys whose strings are page metadata or captions, not article text.
NEXT_DATA_SKIP_KEYS = frozenset(
    "description excerpt summary teaser dek subtitle subheadline caption alt credit "
    "title headline seotitle seodescription metadescription ogdescription "
    "twitterdescription socialdescription".split()
)

#: Elements whose content is never visible text (WHATWG "rendering" section).
_INVISIBLE_TAGS = frozenset({"script", "style", "template", "noscript", "svg", "math", "head"})
#: Body elements the walk looks at (or does not descend into).
_BODY_SPECIAL_TAGS = frozenset({"script", "meta", "link", "h1", "time", "title"}) | _INVISIBLE_TAGS
_HIDDEN_STYLE_RE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)", re.IGNORECASE
)
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
_SLASH_DATE_RE = re.compile(
    r"^(\d{1,2})/(\d{1,2})/(\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$"
)
_ISO_YEAR_RE = re.compile(r"^\d{4}-")
_LANG_RE = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$")
_ISO_RE = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*"
    r"(Z|[+-]\d{2}(?::?\d{2})?)?)?$",
    re.IGNORECASE,
)
_URL_LIKE_RE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|www\.)", re.IGNORECASE)
_SENTENCE_END_RE = re.compile(r"[.!?\u3002\uff01\uff1f]")
_LONG_TOKEN_RE = re.compile(r"\S{%d,}" % (PROSE_MAX_TOKEN_CHARS + 1))
_BLOCKED_URL_SCHEMES = ("data:", "javascript:", "vbscript:", "blob:", "file:", "about:")


_NON_ALNUM_RE = re.compile(r"[\W_]+")
_CONTAINERS = (dict, list)
_PLAIN_QUOTES = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
    }
)


# =====================================================================================
# Text helpers
# =====================================================================================


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
    :data:`INVISIBLE_CODEPOINTS` and collapses all Unicode whitespace to single spaces.
    Work is bounded: at most ``8 * limit + 4096`` input characters are read.
    """
    if not isinstance(value, str) or not value:
        return None
    s = value[: 8 * limit + 4096]
    if strip_tags:
        s = _strip_html(s, keep_breaks=False)
    elif "&" in s:
        s = unescape_entities(s)
    s = " ".join(strip_invisible(s).split())
    if not s:
        return None
    return _cap(s, limit)


def _cap(s: str, limit: int) -> str:
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


def _clean_body(value: Any, limit: int) -> str | None:
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
    return _cap("\n\n".join(paras), limit)


def _norm_key(s: str) -> str:
    """Casefolded, whitespace-collapsed text with typographic quotes made plain: the
    form in which titles and names are compared."""
    return " ".join(s.translate(_PLAIN_QUOTES).casefold().split())


def _alnum_key(s: str) -> str:
    """Casefolded letters and digits only ("Ars Technica" -> "arstechnica")."""
    return _NON_ALNUM_RE.sub("", s.casefold())


def _word_count(s: str) -> int:
    return len(s.split())


# =====================================================================================
# Values: dates, languages, URLs
# =====================================================================================


def normalise_date(raw: str) -> str:
    """ISO 8601 text for a date string when it can be parsed, else ``raw`` unchanged.

    Tried in order: ISO 8601 / RFC 3339 (``2021-11-01T10:52:50+0100``, ``...Z``,
    date only ``2024-06-25`` stays a date), RFC 2822 (``Tue, 15 Nov 1994 08:12:31 GMT``),
    then ``d/m/yyyy`` or ``m/d/yyyy`` when unambiguous, then :data:`DATE_FORMATS`.
    Output is ``datetime.isoformat()`` (milliseconds when the fraction is whole
    milliseconds; an offset only when the input has one).
    """
    s = raw.strip()
    m = _ISO_RE.match(s)
    try:
        if m:
            y, mo, d, hh, mi, ss, frac, tz = m.groups()
            if hh is None:
                return _dt.date(int(y), int(mo), int(d)).isoformat()
            micro = int((frac or "0")[:6].ljust(6, "0"))
            tzinfo = None
            if tz:
                if tz.upper() == "Z":
                    tzinfo = _dt.timezone.utc
                else:
                    digits = tz[1:].replace(":", "")
                    minutes = int(digits[:2]) * 60 + (int(digits[2:4]) if len(digits) > 2 else 0)
                    if minutes >= 24 * 60:
                        return raw
                    sign = -1 if tz[0] == "-" else 1
                    tzinfo = _dt.timezone(sign * _dt.timedelta(minutes=minutes))
            value = _dt.datetime(
                int(y), int(mo), int(d), int(hh), int(mi), int(ss or 0), micro, tzinfo
            )
            return _iso(value)
    except (ValueError, OverflowError):
        return raw
    if "," in s or " " in s:
        try:
            value = parsedate_to_datetime(s)
            if value is not None:
                return _iso(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            pass
    m = _SLASH_DATE_RE.match(s)
    if m:
        return _slash_date(m, raw)
    for fmt in DATE_FORMATS:
        try:
            value = _dt.datetime.strptime(s, fmt)
        except ValueError:
            continue
        if "%H" in fmt or "%I" in fmt:
            return _iso(value)
        return value.date().isoformat()
    return raw


def _slash_date(m: re.Match, raw: str) -> str:
    """``a/b/yyyy [hh:mm[:ss]]``: day-first when a > 12, month-first when b > 12,
    otherwise ambiguous (05/06/2007) and ``raw`` is kept."""
    a, b, y, hh, mi, ss = m.groups()
    a_i, b_i = int(a), int(b)
    if a_i > 12 and b_i <= 12:
        day, month = a_i, b_i
    elif b_i > 12 and a_i <= 12:
        day, month = b_i, a_i
    else:
        return raw
    try:
        if hh is None:
            return _dt.date(int(y), month, day).isoformat()
        return _iso(_dt.datetime(int(y), month, day, int(hh), int(mi), int(ss or 0)))
    except ValueError:
        return raw


def _iso(value: _dt.datetime) -> str:
    spec = "milliseconds" if value.microsecond % 1000 == 0 and value.microsecond else "auto"
    return value.isoformat(timespec=spec)


def _clean_date(value: Any, limit: int) -> str | None:
    """A date field value: normalised (:func:`normalise_date`), or the cleaned raw text
    when unparseable; ``None`` when empty, longer than ``limit``, or a parsed date
    outside :data:`DATE_YEAR_RANGE` (CMS placeholders such as ``0001-01-01``)."""
    s = clean_text(value, 10 * limit)
    if s is None:
        return None
    iso = normalise_date(s)
    if _ISO_YEAR_RE.match(iso):
        year = int(iso[:4])
        if not DATE_YEAR_RANGE[0] <= year <= _dt.date.today().year + DATE_YEAR_RANGE[1]:
            return None
    return iso if len(iso) <= limit else None


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


# =====================================================================================
# Collecting candidates from the DOM (one walk of the head, one of the body)
# =====================================================================================


@dataclass
class _Scan:
    meta: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (content, attr)
    links: dict[str, str] = field(default_factory=dict)  # rel token -> href
    title: str | None = None
    json_ld: list[str] = field(default_factory=list)
    next_data: str | None = None
    h1s: list[Node] = field(default_factory=list)
    times: list[Node] = field(default_factory=list)
    bylines: list[tuple[Node, str]] = field(default_factory=list)  # (node, how)


def _add_meta(scan: _Scan, node: Node) -> None:
    attrs = node.attrs
    content = attrs.get("content")
    if not content or not content.strip():
        return
    meta = scan.meta
    name = attrs.get("name")
    if name:
        key = name.strip().lower()
        if key and key not in meta:
            meta[key] = (content, "name")
    prop = attrs.get("property")
    if prop:
        for key in prop.lower().split():
            if key not in meta:
                meta[key] = (content, "property")
    equiv = attrs.get("http-equiv")
    if equiv:
        key = "http-equiv:" + equiv.strip().lower()
        if key not in meta:
            meta[key] = (content, "http-equiv")
    itemprop = attrs.get("itemprop")
    if itemprop:
        for token in itemprop.lower().split():
            if token in ITEMPROP_META_KEYS:
                key = "itemprop:" + token
                if key not in meta:
                    meta[key] = (content, "itemprop")


def _add_link(scan: _Scan, node: Node) -> None:
    href = node.attrs.get("href")
    rel = node.attrs.get("rel")
    if not href or not rel:
        return
    for token in rel.lower().split():
        if token in ("canonical", "image_src") and token not in scan.links:
            scan.links[token] = href


def _add_script(scan: _Scan, node: Node) -> None:
    attrs = node.attrs
    stype = attrs.get("type", "").split(";", 1)[0].strip().lower()  # MIME parameters
    if stype == "application/ld+json":
        if len(scan.json_ld) < MAX_JSON_LD_BLOCKS:
            scan.json_ld.append(node.text_content())
    elif attrs.get("id") == "__NEXT_DATA__" and scan.next_data is None:
        scan.next_data = node.text_content()


def _scan_head(scan: _Scan, head: Node) -> None:
    for node in head.iter_elements(include_self=False):
        tag = node.tag
        if tag == "meta":
            _add_meta(scan, node)
        elif tag == "link":
            _add_link(scan, node)
        elif tag == "script":
            _add_script(scan, node)
        elif tag == "title" and scan.title is None:
            scan.title = node.text_content()


def _scan_tagged(scan: _Scan, page: ParsedPage, head: Node | None, body: Node) -> None:
    """What :func:`_scan_head` and :func:`_scan_body` collect (without DOM byline
    candidates), read from the elements the parser listed (``ParsedPage.tagged``,
    ``ParsedPage.data_scripts``) instead of walking the tree: those still inside ``head``,
    or inside ``body`` and outside the elements the body walk does not enter. Lists are in
    document order, so head elements come first, as with the two walks."""
    where: dict[int, int] = {}  # id(element) -> _IN_HEAD / _IN_BODY / _ELSEWHERE

    def place(node: Node) -> int:
        path = []
        hidden = False
        a = node.parent
        verdict = _ELSEWHERE
        while a is not None:
            known = where.get(id(a))
            if known is not None:
                verdict = known
                break
            if a is head:
                verdict = _IN_HEAD
                break
            if a is body:
                verdict = _IN_BODY
                break
            if a.tag in _INVISIBLE_TAGS:
                hidden = True
            path.append(a)
            a = a.parent
        if hidden and verdict == _IN_BODY:
            verdict = _ELSEWHERE  # the body walk does not enter invisible elements
            return verdict  # not memoised: ancestors above the invisible element differ
        for p in path:
            where[id(p)] = verdict
        return verdict

    tagged = page.tagged
    for node in page.data_scripts:
        if place(node) != _ELSEWHERE:
            _add_script(scan, node)
    for node in tagged.get("meta", ()):
        if place(node) != _ELSEWHERE:
            _add_meta(scan, node)
    for node in tagged.get("link", ()):
        if place(node) != _ELSEWHERE:
            _add_link(scan, node)
    for node in tagged.get("title", ()):
        if place(node) != _ELSEWHERE:
            scan.title = node.text_content()
            break
    h1s, times = scan.h1s, scan.times
    for node in tagged.get("h1", ()):
        if len(h1s) >= MAX_H1_CANDIDATES:
            break
        if place(node) == _IN_BODY:
            h1s.append(node)
    for node in tagged.get("time", ()):
        if len(times) >= MAX_TIME_CANDIDATES:
            break
        if (node.attrs.get("datetime") or node.attrs.get("content")) and place(node) == _IN_BODY:
            times.append(node)


_IN_HEAD, _IN_BODY, _ELSEWHERE = 1, 2, 0


def _scan_body(scan: _Scan, body: Node, want_bylines: bool = True) -> None:
    """One pre-order walk of the body collecting every body-side candidate (DOM byline
    candidates only when ``want_bylines``)."""
    stack = list(reversed(body.children))
    h1s, times, bylines = scan.h1s, scan.times, scan.bylines
    want_bylines = want_bylines and len(bylines) < MAX_BYLINE_CANDIDATES
    while stack:
        node = stack.pop()
        tag = node.tag
        if tag == TEXT:
            continue
        if tag in _BODY_SPECIAL_TAGS:
            if tag == "script":
                _add_script(scan, node)
                continue
            if tag in _INVISIBLE_TAGS:
                continue
            if tag == "meta":
                _add_meta(scan, node)
            elif tag == "link":
                _add_link(scan, node)
            elif tag == "h1":
                if len(h1s) < MAX_H1_CANDIDATES:
                    h1s.append(node)
            elif tag == "time":
                if len(times) < MAX_TIME_CANDIDATES and (
                    node.attrs.get("datetime") or node.attrs.get("content")
                ):
                    times.append(node)
            elif tag == "title":
                if scan.title is None:
                    scan.title = node.text_content()
        if want_bylines:
            attrs = node.attrs
            if attrs:
                # Cheap case-tolerant pre-filter on the raw values ("uthor" matches
                # author/Author, "yline"/"yLine" byline/ByLine, "ritten" writtenby);
                # the exact test runs only on the rare hits.
                cls = attrs.get("class")
                ident = attrs.get("id")
                rel = attrs.get("rel")
                itemprop = attrs.get("itemprop")
                if (
                    (
                        cls
                        and ("uthor" in cls or "yline" in cls or "yLine" in cls or "ritten" in cls)
                    )
                    or (
                        ident
                        and (
                            "uthor" in ident
                            or "yline" in ident
                            or "yLine" in ident
                            or "ritten" in ident
                        )
                    )
                    or (rel and "uthor" in rel)
                    or (itemprop and "uthor" in itemprop)
                ):
                    how = _byline_marker(attrs)
                    if how is not None:
                        bylines.append((node, how))
                        if len(bylines) >= MAX_BYLINE_CANDIDATES:
                            want_bylines = False
        children = node.children
        if children:
            stack.extend(reversed(children))


def _byline_marker(attrs: dict[str, str]) -> str | None:
    """How an element's attributes mark it as a byline candidate (the source label), or
    ``None``: ``rel~=author``, ``itemprop~=author``, or a class/id containing one of
    :data:`BYLINE_CLASS_WORDS` (case-insensitively) other than a false friend."""
    rel = attrs.get("rel")
    if rel and "author" in rel.lower().split():
        return "dom[rel=author]"
    itemprop = attrs.get("itemprop")
    if itemprop and "author" in itemprop.lower().split():
        return "dom[itemprop=author]"
    key = f"{attrs.get('class', '')} {attrs.get('id', '')}".lower()
    for word in BYLINE_CLASS_WORDS:
        if word in key and not (word == "author" and _only_false_friends(key)):
            return "dom[class/id=byline]"
    return None


def _only_false_friends(key: str) -> bool:
    for friend in BYLINE_CLASS_FALSE_FRIENDS:
        key = key.replace(friend, "")
    return "author" not in key


def _hidden_self(node: Node) -> bool:
    if node.tag in _INVISIBLE_TAGS:
        return True
    attrs = node.attrs
    if not attrs:
        return False
    if "hidden" in attrs or attrs.get("aria-hidden", "").strip().lower() == "true":
        return True
    if attrs.get("type", "").strip().lower() == "hidden":
        return True
    style = attrs.get("style")
    if style and _HIDDEN_STYLE_RE.search(style):
        return True
    # a framework class that hides (sr-only, d-none, hide...: unclutter.core.hiding)
    return class_hides(attrs.get("class"))


def _is_hidden(node: Node) -> bool:
    """True when the node or an ancestor is hidden by markup (``hidden``,
    ``aria-hidden="true"``, inline ``display:none``/``visibility:hidden``, a hiding class:
    :func:`unclutter.core.hiding.class_hides`) or sits in an element that never renders
    text."""
    if _hidden_self(node):
        return True
    for anc in node.ancestors():
        if _hidden_self(anc):
            return True
    return False


def _visible_text(node: Node, limit: int) -> str:
    """Whitespace-collapsed visible text of ``node`` (hidden descendants skipped); stops
    reading once more than ``limit`` characters are collected or
    :data:`MAX_TEXT_WALK_NODES` nodes are visited (a candidate wrapping a huge subtree
    costs no more than a small one)."""
    parts: list[str] = []
    total = 0
    budget = MAX_TEXT_WALK_NODES
    stack = [node]
    while stack and budget > 0:
        budget -= 1
        n = stack.pop()
        if n.tag == TEXT:
            text = n.text
            if not text.isspace():
                parts.append(text)
                total += len(text.strip())
                if total > limit:
                    break
            else:
                parts.append(" ")
            continue
        if n is not node and _hidden_self(n):
            continue
        if n.tag == "br":
            parts.append(" ")
        if n.children:
            stack.extend(reversed(n.children))
    return " ".join(strip_invisible("".join(parts)).split())


# =====================================================================================
# JSON (JSON-LD and __NEXT_DATA__)
# =====================================================================================


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


def _json_objects(data: Any) -> list[dict]:
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


def _ld_types(obj: dict) -> list[str]:
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


def _ld_first_str(value: Any) -> str | None:
    """The first string of a JSON-LD value: a string, the first string of a list, or a
    value object's ``@value``."""
    if isinstance(value, list):
        value = next((v for v in value[:32] if isinstance(v, (str, dict))), None)
    if isinstance(value, dict):
        value = value.get("@value")
    return value if isinstance(value, str) else None


@dataclass
class _LD:
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


def _parse_json_ld(blocks: list[str], page_urls: set[str]) -> _LD:
    ld = _LD()
    for text in blocks:
        data = _load_json(text, MAX_JSON_LD_CHARS)
        if data is None:
            continue
        for value in _json_objects(data):
            ld.objects.append(value)
            ref = value.get("@id")
            if isinstance(ref, str) and len(value) > 1 and ref not in ld.ids:
                ld.ids[ref] = value
    best_rank, best = 9, None
    # the pages a breadcrumb trail names (its ListItems' WebPage items: "Home") are not
    # this page
    in_trail = {id(o) for obj in ld.objects if "BreadcrumbList" in _ld_types(obj)
                for o in _json_objects(obj)[1:]}
    for obj in ld.objects:
        types = _ld_types(obj)
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


def _ld_url_key(obj: dict, ld: _LD) -> set[str]:
    keys = set()
    for name in ("url", "mainEntityOfPage", "@id"):
        v = obj.get(name)
        if isinstance(v, dict):
            v = v.get("@id") or v.get("url")
        if isinstance(v, str) and v:
            keys.add(_url_key(v))
    return keys


def _ld_names(value: Any, ld: _LD) -> list[str]:
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
                name = _ld_first_str(name)
            if not isinstance(name, str) or not name.strip():
                given, family = v.get("givenName"), v.get("familyName")
                name = " ".join(x for x in (given, family) if isinstance(x, str))
        text = clean_text(name, FIELD_LIMITS["byline"], strip_tags=True)
        if not text or _URL_LIKE_RE.match(text):
            continue
        k = _norm_key(text)
        if k not in seen:
            seen.add(k)
            names.append(text)
    return names


def _ld_image(value: Any, ld: _LD) -> list[str]:
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


def _ld_headline(main: dict, others: list[str | None], h1_keys: list[str]) -> str | None:
    """``headline``, or ``name`` when both exist, differ, and only ``name`` agrees with
    the page's ``<title>``/og:title (contained in it) or an ``<h1>`` (equal to it)."""
    headline = _ld_first_str(main.get("headline"))
    name = _ld_first_str(main.get("name"))
    if not headline or not name:
        return headline or name
    keys = [_norm_key(o) for o in others if o]

    def confirmed(value: str) -> bool:
        k = _norm_key(clean_text(value, 2 * FIELD_LIMITS["title"], strip_tags=True) or "")
        return bool(k) and (k in h1_keys or any(k in o for o in keys))

    if not confirmed(headline) and confirmed(name):
        return name
    return headline


def _ld_publisher_name(ld: _LD) -> str | None:
    holders = ([ld.main] if ld.main is not None else []) + ld.objects
    for obj in holders:
        pub = ld.deref(obj.get("publisher"))
        if isinstance(pub, list):
            pub = ld.deref(pub[0]) if pub else None
        name = pub.get("name") if isinstance(pub, dict) else pub
        text = clean_text(_ld_first_str(name), FIELD_LIMITS["site_name"], strip_tags=True)
        if text:
            return text
    return None


def _ld_website_name(ld: _LD) -> str | None:
    for obj in ld.objects:
        if "WebSite" in _ld_types(obj):
            text = clean_text(
                _ld_first_str(obj.get("name")), FIELD_LIMITS["site_name"], strip_tags=True
            )
            if text:
                return text
    return None


def _is_prose(text: str) -> bool:
    """Heuristic: does this string read like article text (see PROSE_* constants)?"""
    if len(text) < PROSE_MIN_CHARS or _URL_LIKE_RE.match(text):
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
        if isinstance(key, str) and _alnum_key(key) in NEXT_DATA_SKIP_KEYS:
            continue
        body = _clean_body(value, limit)
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
    return _cap("\n\n".join(paras), limit)


# =====================================================================================
# Title
# =====================================================================================


def _split_title(title: str) -> tuple[list[str], list[str]]:
    """Segments and the separators between them (``len(seps) == len(segs) - 1``)."""
    parts = TITLE_SEPARATOR_RE.split(title)
    return parts[0::2], parts[1::2]


def _join(segs: list[str], seps: list[str], i: int, j: int) -> str:
    """Segments i..j (inclusive) joined with their original separators."""
    out = [segs[i]]
    for k in range(i + 1, j + 1):
        out.append(f" {seps[k - 1]} {segs[k]}")
    return "".join(out)


def _match_h1(title: str, h1_keys: list[str]) -> str | None:
    """The longest separator-delimited span of ``title`` equal to a visible h1."""
    if not h1_keys:
        return None
    if _norm_key(title) in h1_keys:
        return title
    segs, seps = _split_title(title)
    n = len(segs)
    if n < 2 or n > MAX_TITLE_SEGMENTS:
        return None
    for length in range(n - 1, 0, -1):
        for i in range(0, n - length + 1):
            span = _join(segs, seps, i, i + length - 1)
            if _norm_key(span) in h1_keys:
                return span
    return None


def _strip_known_site(title: str, site_keys: set[str]) -> str:
    """Drop a trailing, then a leading, run of segments that spells a known site name
    (a site name may itself contain separators: "Urge Fitness | Gyms in PA")."""
    if not site_keys:
        return title
    segs, seps = _split_title(title)
    n = len(segs)
    if n < 2 or n > MAX_TITLE_SEGMENTS:
        return title
    i, j = 0, n - 1
    for k in range(1, n):  # longest suffix first
        if _alnum_key(_join(segs, seps, k, n - 1)) in site_keys:
            j = k - 1
            break
    for k in range(j, 0, -1):  # longest prefix first, leaving one segment
        if _alnum_key(_join(segs, seps, 0, k - 1)) in site_keys:
            i = k
            break
    if (i, j) == (0, n - 1):
        return title
    return _join(segs, seps, i, j)


def _long_enough(text: str) -> bool:
    words = _word_count(text)
    if words >= TITLE_MIN_WORDS:
        return True
    return words == 1 and len(text) >= TITLE_MIN_CHARS_UNSPACED and not text.isascii()


def _looks_like_site(segment: str) -> bool:
    return (
        bool(segment)
        and _word_count(segment) <= SITE_SEGMENT_MAX_WORDS
        and not segment[0].islower()
    )


def _strip_site_segments(title: str) -> str:
    """Heuristic for a ``<title>`` whose site name is unknown: drop the last segment
    ("Title | Site", "Title - Site") when it is shorter than the rest, looks like a name
    (at most SITE_SEGMENT_MAX_WORDS words, not starting lower-case) and the rest is long
    enough (:func:`_long_enough`); else drop a first segment that does the same before a
    non-dash separator ("Site | Title"). At most one segment goes."""
    segs, seps = _split_title(title)
    if len(segs) < 2:
        return title
    last = segs[-1]
    rest = _join(segs, seps, 0, len(segs) - 2)
    if _looks_like_site(last) and len(last) < len(rest) and _long_enough(rest):
        return rest
    first = segs[0]
    rest = _join(segs, seps, 1, len(segs) - 1)
    if (
        seps[0] in PREFIX_SEPARATORS
        and _looks_like_site(first)
        and len(first) < len(rest)
        and _long_enough(rest)
    ):
        return rest
    return title


def settle_title(md: Metadata, root: Node) -> None:
    """The title rules that need the pruned page, ``root`` (the prune stage's output:
    hidden elements, consent walls and chrome are gone), applied to ``md`` in place:

    * a title from ``<title>`` under :data:`TITLE_SOLE_H1_MIN_CHARS` or over
      :data:`TITLE_SOLE_H1_MAX_CHARS` characters gives way to the page's only ``<h1>``
      when that heading has more than :data:`TITLE_SOLE_H1_MIN_WORDS` words;
    * a title taken from an ``<h1>`` (the last resort of :func:`extract_metadata`, read
      before pruning) stands only when an ``<h1>`` with that text survived pruning; else
      the first surviving ``<h1>`` (``None`` without one).

    Only ``<h1>`` elements the reader sees can name the page: one hidden by a class
    (``sr-only``, ``d-none``) or sitting in a consent wall is not a title."""
    src = md.sources.get("title")
    if src not in ("title", "h1") or md.title is None:
        return
    if src == "title" and TITLE_SOLE_H1_MIN_CHARS <= len(md.title) <= TITLE_SOLE_H1_MAX_CHARS:
        return
    limit = FIELD_LIMITS["title"]
    texts: list[str] = []
    for el in root.iter_elements():
        if el.tag == "h1":
            text = clean_text(_visible_text(el, 2 * limit), limit)
            if text:
                texts.append(text)
                if len(texts) > 1 and src == "title":
                    return  # not the page's only h1
    if src == "title":
        if len(texts) == 1 and _word_count(texts[0]) > TITLE_SOLE_H1_MIN_WORDS:
            md.title = texts[0]
            md.sources["title"] = "h1"
        return
    if md.title not in texts:
        md.title = texts[0] if texts else None
        if md.title is None:
            md.sources.pop("title", None)


def _refine_title(
    text: str, h1_texts: list[str], site_keys: set[str], heuristic: bool
) -> str | None:
    """Apply the title rules of the module docstring to one title source."""
    h1_keys = [_norm_key(t) for t in h1_texts]
    matched = _match_h1(text, h1_keys)
    if matched is not None:
        # a known site name stays out even when the page's <h1> repeats it ("... | WRAL")
        return _strip_known_site(matched, site_keys)
    # A headline cut short by the site ("... (Including…") that starts a visible h1.
    key = _norm_key(text).rstrip(".\u2026 ")
    if len(key) >= TITLE_TRUNCATED_MIN_CHARS:
        for h1_key, h1_text in zip(h1_keys, h1_texts):
            if len(h1_key) > len(key) and h1_key.startswith(key):
                return h1_text
    stripped = _strip_known_site(text, site_keys)
    if stripped != text:
        return stripped
    if heuristic:
        return _strip_site_segments(text)
    return text


# =====================================================================================
# The stage
# =====================================================================================


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


def _meta_source(scan: _Scan, key: str) -> str:
    attr = scan.meta[key][1]
    bare = key.split(":", 1)[1] if attr in ("http-equiv", "itemprop") else key
    return f"meta[{attr}={bare}]"


def _meta_values(scan: _Scan, keys: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """(raw content, source label) for each present key, in precedence order."""
    for key in keys:
        hit = scan.meta.get(key)
        if hit is not None:
            yield hit[0], _meta_source(scan, key)


#: ``htmldate`` (Barbaresi, "htmldate: A Python package to extract publication dates from web
#: pages", JOSS 5(51), 2020) is asked for the publication date only when the page's markup
#: states none (``<meta>``, JSON-LD, microdata, ``<time>``): it reads the URL
#: (``/2016/02/09/``) and the page's visible text ("Published July 9, 2025"), given the
#: pruned tree (hidden text, scripts, ``<head>`` and the page's own header and footer are
#: gone); a date after the modification date the markup states is not taken. Fast mode (no extensive search). Measured on wcxb-dev's 782 pages with a known
#: date (2026-12-02): the markup gives 582 dates (513 right); with the search of the top
#: of the page (:data:`DATE_SEARCH_TEXT_CHARS`) 693 (610 right, 83 wrong): right dates
#: 0.656 -> 0.780 of those pages (the whole raw page gave 0.809, hidden text and
#: citations included), for a few ms on a page it runs on. A tree of more elements than this is not searched.
DATE_SEARCH_MAX_ELEMENTS = 100_000
#: Only the top of the pruned page is searched (where a byline's date sits): the copy
#: stops after this many characters of text. On wcxb-dev (2026-12-02) the whole page gave
#: 106 right and 21 wrong searched dates on the dated pages and a date on 78 of the 715
#: pages without one (a citation's "Retrieved" date on a Wikipedia article, a review's or
#: a game's release date); the first 3,000 characters 99 / 17 / 41, the first 1,500
#: characters 97 / 14 / 34.
DATE_SEARCH_TEXT_CHARS = 1500
#: Attributes of one element copied for the date search, the first in source order. lxml
#: looks each new attribute up among the element's earlier ones (and so does htmldate's
#: reading of them): an element with thousands costs the square of the count. Real
#: elements carry a few dozen at most.
DATE_SEARCH_MAX_ATTRIBUTES = 64
_DATE_ONLY_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
#: Characters an lxml tree refuses in text and attribute values (XML 1.0 §2.2: C0 controls
#: but tab, LF and CR; lone surrogates; U+FFFE/U+FFFF).
_NOT_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _lxml_tree(root: Node):
    """An lxml HTML document holding a copy of the top of ``root``'s subtree (up to
    :data:`DATE_SEARCH_TEXT_CHARS` of text; one pass, no parser: no depth limit, nothing
    fetched); attributes lxml refuses are left out, and so is an element's tag it refuses
    (its content stays). ``None`` over :data:`DATE_SEARCH_MAX_ELEMENTS` elements."""
    from lxml import etree
    from lxml import html as lxml_html

    doc = lxml_html.document_fromstring("<html><head></head><body></body></html>")
    body = doc.find("body")
    count = 0
    chars = 0
    stack = [(body, iter(root.children))]
    while stack and chars < DATE_SEARCH_TEXT_CHARS:
        parent, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            continue
        tag = child.tag
        if tag == TEXT:
            text = _NOT_XML_RE.sub("", child.text)
            chars += len(text)
            if len(parent):
                last = parent[-1]
                last.tail = (last.tail or "") + text
            else:
                parent.text = (parent.text or "") + text
            continue
        if tag[0] == "#":
            continue
        count += 1
        if count > DATE_SEARCH_MAX_ELEMENTS:
            return None
        try:
            el = etree.SubElement(parent, tag)
        except ValueError:  # not an XML name ("a:b:c"): its content joins the parent
            stack.append((parent, iter(child.children)))
            continue
        for k, v in itertools.islice((child.attrs or {}).items(), DATE_SEARCH_MAX_ATTRIBUTES):
            try:
                el.set(k, _NOT_XML_RE.sub("", v))
            except ValueError:  # "@click", ":class"...
                pass
        stack.append((el, iter(child.children)))
    return doc


def search_date(root: Node, url: str | None, modified: str | None = None) -> str | None:
    """The publication date htmldate reads from the URL and the top of the tree under
    ``root`` (the pruned page: see :data:`DATE_SEARCH_TEXT_CHARS`), as ``YYYY-MM-DD``, or
    ``None``: nothing found, a tree over the size limit, or htmldate failing on it (never
    raises on page content). Dates before 1995 or after today are not taken (htmldate's
    defaults). htmldate gets a tree built here, never a string: given a string that looks
    like a URL it would download it (``htmldate.utils.load_html``), and nothing here may
    fetch. ``modified``: the modification date the markup states; a date after it (when it
    begins with an ISO date) is not taken: a page is not published after it was modified."""
    try:
        from htmldate import find_date

        tree = _lxml_tree(root)
        if tree is None:
            return None
        found = find_date(tree, url=url, original_date=True, extensive_search=False,
                          outputformat="%Y-%m-%d")
    except Exception:  # noqa: BLE001 - a third-party library on hostile input: no date, no failure
        return None
    if not found or not _DATE_ONLY_RE.fullmatch(found):
        return None
    bound = (modified or "")[:10]
    if _DATE_ONLY_RE.fullmatch(bound) and found > bound:
        return None
    return found


def _first_shown_byline(candidates: list[tuple[Node, str]]) -> tuple[str, str] | None:
    """The first of the DOM byline ``candidates`` (node, source label) that is not hidden
    and whose cleaned text is a byline of at most :data:`MAX_DOM_BYLINE_CHARS`
    characters: ``(byline, source label)``, or ``None``."""
    for node, how in candidates:
        if _is_hidden(node):
            continue
        byline = _clean_byline(_byline_text(node), FIELD_LIMITS["byline"])
        if byline and len(byline) <= MAX_DOM_BYLINE_CHARS:
            return byline, how
    return None


def page_byline(page: ParsedPage) -> tuple[str, str] | None:
    """The byline the page shows in its body (the last source of ``Metadata.byline``, which
    :func:`extract_metadata` does not look for once the head or JSON-LD names an author):
    ``(byline, source label)`` such as ``("Jane Doe", "dom[class/id=byline]")``, or
    ``None``. One more walk of the body; call it before pruning. Never raises on page
    content."""
    if page.body is None:
        return None
    found = _Scan()
    _scan_body(found, page.body, True)
    return _first_shown_byline(found.bylines)


def extract_metadata(page: ParsedPage, *, article_body: bool = True) -> Metadata:
    """Extract the page's metadata (see the module docstring for precedence and rules).

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
    scan = _Scan()
    head = page.head
    body = page.body
    bylines_pending = False
    if page.tagged and body is not None:
        # no walk: the parser listed the elements; DOM byline candidates, the last
        # resort, are looked for below only if no other source names the author
        _scan_tagged(scan, page, head, body)
        bylines_pending = True
    else:
        if head is not None:
            _scan_head(scan, head)
        # DOM byline candidates are only the last resort: skip looking for them when
        # the head already states an author.
        want_bylines = not any(
            _clean_byline(raw, FIELD_LIMITS["byline"])
            for raw, _ in _meta_values(scan, BYLINE_META_KEYS)
        )
        if body is not None:
            _scan_body(scan, body, want_bylines)
        elif head is None:
            _scan_body(scan, page.root)

    ld = _parse_json_ld(scan.json_ld, _page_urls(scan, page))
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
    publisher_name = _ld_publisher_name(ld)
    res.offer("site_name", publisher_name, "json-ld")
    # application-name is sometimes (mis)used for the page's own title: not a site name
    # when it repeats the <title> element.
    page_titles = {_alnum_key(title_text)} if title_text else set()
    app_name = None
    for raw, src in _meta_values(scan, SITE_NAME_FALLBACK_META_KEYS):
        app_name = clean_text(raw, limits["site_name"])
        if app_name and _alnum_key(app_name) in page_titles:
            app_name = None
        if res.offer("site_name", app_name, src):
            break
    website_name = _ld_website_name(ld)
    res.offer("site_name", website_name, "json-ld")

    # --- title ------------------------------------------------------------------------
    site_keys = {
        _alnum_key(s) for s in (res.md.site_name, app_name, publisher_name, website_name) if s
    }
    site_keys.update(_host_keys(page.url))
    site_keys.discard("")
    h1_texts = [
        t
        for t in (_visible_text(n, 2 * limits["title"]) for n in scan.h1s if not _is_hidden(n))
        if t
    ]
    h1_keys = [_norm_key(t) for t in h1_texts]
    candidates: list[tuple[str | None, str, bool]] = []
    if main:
        headline = _ld_headline(main, [title_text, og_title], h1_keys)
        candidates.append(
            (clean_text(headline, 2 * limits["title"], strip_tags=True), "json-ld", False)
        )
    for raw, src in _meta_values(scan, TITLE_META_KEYS):
        candidates.append((clean_text(raw, 2 * limits["title"]), src, False))
    candidates.append((title_text, "title", True))
    usable = [c for c in candidates if c[0]]
    # A title that is only the site's name says nothing about the page; skip such a
    # source when a later one differs (all agreeing means the site name is wrong).
    chosen = [c for c in usable if _alnum_key(c[0]) not in site_keys] or usable
    for text, src, heuristic in chosen:
        refined = _refine_title(text, h1_texts, site_keys, heuristic)
        if res.offer("title", clean_text(refined, limits["title"]), src):
            break
    if h1_texts:
        res.offer("title", clean_text(h1_texts[0], limits["title"]), "h1")

    # --- byline -----------------------------------------------------------------------
    if main:
        names = _ld_names(main.get("author") or main.get("creator"), ld)
        if names:
            res.offer("byline", _clean_byline(", ".join(names), limits["byline"]), "json-ld")
    if not res.has("byline"):
        for raw, src in _meta_values(scan, BYLINE_META_KEYS):
            if res.offer("byline", _clean_byline(raw, limits["byline"]), src):
                break
    if not res.has("byline"):
        if bylines_pending:
            found = _Scan()
            _scan_body(found, body, True)
            scan.bylines = found.bylines
        shown = _first_shown_byline(scan.bylines)
        if shown is not None:
            res.offer("byline", *shown)

    # --- dates ------------------------------------------------------------------------
    for name, ld_key, meta_keys, itemprop in (
        ("date_published", "datePublished", DATE_PUBLISHED_META_KEYS, "datepublished"),
        ("date_modified", "dateModified", DATE_MODIFIED_META_KEYS, "datemodified"),
    ):
        if main:
            value = _clean_date(_ld_first_str(main.get(ld_key)), limits[name])
            res.offer(name, value, "json-ld")
        for raw, src in _meta_values(scan, meta_keys):
            if res.has(name):
                break
            res.offer(name, _clean_date(raw, limits[name]), src)
        if not res.has(name):
            _date_from_times(res, scan.times, name, itemprop, limits[name])

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
        res.offer("language", normalise_language(_ld_first_str(lang)), "json-ld")

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
        for raw in _ld_image(main.get("image"), ld) + _ld_image(main.get("thumbnailUrl"), ld):
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
        description = _ld_first_str(main.get("description"))
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
                    part_of.update(id(o) for o in _json_objects(v))
    types = {t for obj in ld.objects for t in _ld_types(obj)}
    product_types = {t for obj in ld.objects if id(obj) not in part_of for t in _ld_types(obj)}
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
        found = _article_body(main, scan.next_data)
        if found is not None:
            res.offer("article_body", *found)
    return res.md


def _article_body(main: dict, next_data: str | None) -> tuple[str, str] | None:
    if main:
        text = _clean_body(_ld_first_str(main.get("articleBody")), FIELD_LIMITS["article_body"])
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
    :func:`extract_metadata` puts in ``Metadata.article_body``; call this on the page
    before pruning.
    """
    scan = _Scan()
    if page.head is not None:
        _scan_head(scan, page.head)
    if page.body is not None:
        _scan_body(scan, page.body, want_bylines=False)
    ld = _parse_json_ld(scan.json_ld, _page_urls(scan, page))
    return _article_body(ld.main or {}, scan.next_data)


def _page_urls(scan: _Scan, page: ParsedPage) -> set[str]:
    """Comparable forms of the URLs that name this page (canonical, og:url, page URL)."""
    urls = set()
    og_url = scan.meta.get("og:url", (None,))[0]
    for candidate in (scan.links.get("canonical"), og_url, page.url):
        if isinstance(candidate, str) and candidate.strip():
            urls.add(_url_key(candidate))
    return urls


def _clean_byline(raw: Any, limit: int) -> str | None:
    text = clean_text(raw, 4 * limit)
    if not text or _URL_LIKE_RE.match(text):
        return None
    text = BYLINE_PREFIX_RE.sub("", text, count=1)
    text = BYLINE_TRAILER_RE.sub("", text).strip(" |,;:-\u2013\u2014")
    if not text or not any(ch.isalpha() for ch in text):
        return None
    if _date_only(text):
        return None
    return _cap(text, limit)


def _date_only(text: str) -> bool:
    """Whether a byline is only a date or time (see :data:`BYLINE_DATE_WORD_RE`)."""
    words = [w for w in BYLINE_DATE_SEPARATOR_RE.split(text) if w]
    return (bool(words) and any(w[0].isdigit() for w in words)
            and all(BYLINE_DATE_WORD_RE.fullmatch(w) for w in words))


def _byline_text(node: Node) -> str:
    """Text of a DOM byline candidate. When the candidate holds more specific author
    markup -- ``[rel~=author]`` links or ``[itemprop~=name]`` inside
    ``[itemprop~=author]`` (schema.org microdata) -- their texts are used, joined with
    ", " ("por <a rel=author>César Salza</a>" -> "César Salza"); else the candidate's
    own visible text. Reads at most MAX_BYLINE_SUBTREE_NODES descendants."""
    if node.tag == "meta":
        return node.attrs.get("content", "")
    names: list[str] = []
    stack = [(c, False) for c in reversed(node.children)]
    in_author_root = "author" in node.attrs.get("itemprop", "").lower().split()
    seen = 0
    while stack and seen < MAX_BYLINE_SUBTREE_NODES and len(names) < MAX_AUTHORS:
        n, in_author = stack.pop()
        seen += 1
        if n.tag == "meta" and (in_author or in_author_root) and "name" in n.attrs.get("itemprop", "").lower().split():
            text = clean_text(n.attrs.get("content", ""), MAX_DOM_BYLINE_CHARS + 1)  # microdata's value
            if text and text not in names:
                names.append(text)
            continue
        if n.tag == TEXT or _hidden_self(n):
            continue
        attrs = n.attrs
        itemprop = attrs.get("itemprop", "").lower().split() if attrs else []
        if "author" in itemprop:
            in_author = True
        is_name = (in_author or in_author_root) and "name" in itemprop
        if is_name or (attrs and "author" in attrs.get("rel", "").lower().split()):
            text = _visible_text(n, MAX_DOM_BYLINE_CHARS + 1)
            if text and text not in names:
                names.append(text)
            continue
        if n.children:
            stack.extend((c, in_author) for c in reversed(n.children))
    if names:
        return ", ".join(names)
    return _visible_text(node, MAX_DOM_BYLINE_CHARS + 1)


def _date_from_times(res: _Result, times: list[Node], name: str, itemprop: str, limit: int) -> None:
    """``<time datetime>`` fallback: the first visible one marked with ``itemprop`` (or,
    for the publication date, the obsolete ``pubdate`` attribute), else for the
    publication date the first visible one."""
    visible = [t for t in times if not _is_hidden(t)]
    marked = [
        t
        for t in visible
        if itemprop in t.attrs.get("itemprop", "").lower().split()
        or (name == "date_published" and "pubdate" in t.attrs)
    ]
    pool = marked or (visible if name == "date_published" else [])
    for t in pool:
        raw = t.attrs.get("datetime") or t.attrs.get("content")
        if res.offer(name, _clean_date(raw, limit), "time[datetime]"):
            return


def _host_keys(url: str | None) -> set[str]:
    """Site-name keys derived from the host: "www.ehow.com" -> {"ehow", "ehowcom"}."""
    if not url:
        return set()
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return set()
    labels = [x for x in host.split(".") if x]
    if labels and labels[0] == "www":
        labels = labels[1:]
    if len(labels) < 2:
        return set()
    return {_alnum_key(labels[0]), _alnum_key("".join(labels))}
