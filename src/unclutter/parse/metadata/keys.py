"""Field tables and limits of the metadata stage: the longest value kept per field, the
bounds on every walk of hostile input, the schema.org types that name an article or a
page, the page kinds, and the ``<meta>`` keys read for each field in precedence order."""

from __future__ import annotations

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
