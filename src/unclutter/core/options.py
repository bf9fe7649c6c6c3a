"""Extraction options: frozen, keyword-only, validated once."""

from __future__ import annotations

import bisect
import re
from urllib.parse import unquote, urlsplit
from dataclasses import dataclass, fields

from .errors import UsageError
from .limits import MAX_INPUT_BYTES

__all__ = ["Options", "EXTRACTORS"]

#: Main-content extractors :func:`unclutter.extract` accepts: the Readability-style
#: heuristic (:mod:`unclutter.score`), those of :mod:`unclutter.classify` (CETD text
#: density, gradient-boosted trees, a graph neural network), and ``auto`` (the default),
#: which picks the heuristic or :data:`AUTO_LEARNED_EXTRACTOR` per page (see below) and
#: refines the heuristic's selection with a classifier trained for it
#: (:mod:`unclutter.classify.refine`).
EXTRACTORS = ("heuristic", "cetd", "gbdt", "gnn", "auto")

#: ``extractor="auto"`` (the default) runs :data:`AUTO_LEARNED_EXTRACTOR` on pages whose
#: declared type (``Metadata.page_type``: JSON-LD, microdata ``itemtype``, og:type) is one
#: of these, and the heuristic on every other page. Product and forum pages are where the
#: heuristic's one-article assumption fails (a product's title, price, description and
#: reviews sit in separate regions; a thread is many posts): on wcxb-dev, cross-validated,
#: the GBDT scores 0.64 on product pages and 0.80 on forum pages against the heuristic's
#: 0.53 and 0.70, while on AEB's news articles the heuristic is the stronger extractor
#: (0.958 against 0.940). The publisher's declaration decides, so news pages (which declare
#: articles, or nothing) stay with the heuristic.
#: FAQ pages (schema.org FAQPage, ``faq``) too: those listing Question objects were
#: declared forums until 2026-12-02 and are better served by the GBDT (wcxb-dev ``auto``,
#: in-sample: sending them to the heuristic lowered it from 0.8719 to 0.8702); an FAQPage
#: without Question objects, in microdata or og:type, now goes the same way (wcxb-dev
#: ``auto`` with fold GBDTs unchanged at 0.8537 with the other changes of that day).
AUTO_LEARNED_PAGE_TYPES = frozenset({"product", "forum", "faq"})
#: The learned extractor ``auto`` runs on those pages (the best by cross-validation).
AUTO_LEARNED_EXTRACTOR = "gbdt"


#: Declared kinds of one-story pages, which ``auto`` always gives to the heuristic.
AUTO_STORY_PAGE_TYPES = frozenset({"article", "recipe", "video", "event"})
#: A page that declares no kind of :data:`AUTO_STORY_PAGE_TYPES` (nothing, a generic
#: ``WebPage``, og:type ``website``...) and has no byline in its metadata is not known to be
#: an article: when the heuristic's selection holds less than this share of the pruned
#: page's text (both whitespace-collapsed characters), ``auto`` runs
#: :data:`AUTO_LEARNED_EXTRACTOR` instead (a shop, listing or service page whose one dense
#: block the heuristic took for the article). Chosen on wcxb-dev (shares 0.4-0.8 score
#: within 0.003 of each other; fewer than half is the plain reading of "the heuristic
#: missed most of the page"). A publication date alone does not make a page an article
#: (a ``WebPage``'s ``datePublished``, a product's release date): counting it, as before
#: 2026-12-02, kept 0.003 of wcxb-dev's cross-validated F1 away and changed nothing on AEB
#: or readability-tests; a byline does (ignoring it loses 0.008 on AEB).
AUTO_MIN_SELECTION_SHARE = 0.5
#: On the heuristic's other pages (declared stories, pages with a byline) ``auto`` runs
#: :data:`AUTO_LEARNED_EXTRACTOR` instead when the heuristic's selection holds less than
#: this share of the pruned page's text: it took a caption or a teaser for the article of
#: a page whose content is lists or tables (a Wikipedia list, a board-game round-up, a
#: manual page typed ``article``). Measured on wcxb-dev (5-fold CV with fold GBDTs,
#: 2026-12-02): 0.05 +0.0007 (6 pages change), 0.1 +0.0016, 0.15 +0.0016, 0.2 +0.0024;
#: readability-tests unchanged up to 0.2; on AEB (out-of-sample news, read for this
#: choice) 0.05 changes nothing, 0.1 loses 0.001, 0.15 0.0065, 0.2 0.011: the GBDT's
#: gains on wcxb-dev's articles do not carry over to news pages, so the smallest value
#: that gains was taken.
AUTO_MIN_ARTICLE_SELECTION_SHARE = 0.05

#: On a page without a byline in its metadata that ``auto`` gives to the heuristic (any
#: declared type but :data:`AUTO_LEARNED_PAGE_TYPES`), when the heuristic's selection is
#: kept, :data:`AUTO_LEARNED_EXTRACTOR` runs too (a second opinion) and its selection
#: replaces the heuristic's when it holds at least this many times the heuristic's
#: characters (whitespace-collapsed, both before ``auto``'s refinement), and this many
#: times its characters outside links (a site map or teaser list beside a short story is
#: no missed content; on wcxb-dev this leaves out 17 of the 97 pages the character ratio
#: alone takes, a loss of 0.0002 F1): the heuristic's
#: one-container assumption missed part of the content (a service page's sections, a
#: listing's items, an article split over page-builder sections). It only runs when the
#: heuristic's selection is under ``1 / ratio`` of the pruned page's characters (the
#: learned extractor cannot keep more than the page), about one page in five of wcxb-dev.
#: A byline marks the page as an article written by someone, where the learned extractor's
#: larger selections are teasers, comments and related stories (AEB: all 13 of its pages
#: where the GBDT kept 1.25 times the heuristic's text or more have a byline, and it
#: scores below the heuristic on 12 of them). Measured with fold models (wcxb-dev 5-fold
#: CV by site, 2026-12-03): ``auto`` 0.8524 -> 1.0: 0.8574, 1.05: 0.8574, 1.1: 0.8570,
#: 1.25: 0.8557 (listing 0.647 -> 0.669, service 0.785 -> 0.801, documentation 0.903 ->
#: 0.912); readability-tests 0.9709 at 1.05 and up (0.9707 at 1.0); AEB (out-of-sample,
#: read for this choice) 0.9682 -> 0.9674 / 0.9677 / 0.9679 / 0.9682. 1.1 is the plain
#: reading of "the learned extractor found more" and within 0.0004 of the best CV value.
AUTO_SECOND_OPINION_RATIO = 1.1
#: ... and at least this many characters more: a few hundred more characters are as
#: likely boilerplate as missed content (a toy page of one story beside a "Subscribe" box:
#: the GBDT keeps both; a forum thread's profile panels and signatures, an LWN comment
#: thread in ``<details>``: ``shared/bugcases/21`` and ``13``). On wcxb-dev the pages
#: chosen at 1.1 with a gain under 500 characters went up on 11 and down on 10, and both
#: AEB pages chosen went down; CV 0.8572 with a 200-character minimum, 0.8568 with this one
#: (and the camelCase comment classes of the same commit), AEB 0.9679 -> 0.9682.
AUTO_SECOND_OPINION_MIN_GAIN_CHARS = 500
#: :data:`AUTO_SECOND_OPINION_RATIO` on a page declared a story
#: (:data:`AUTO_STORY_PAGE_TYPES`) without a byline: one article, so the learned extractor
#: must find as much again as the heuristic kept. On wcxb-dev the declared stories the
#: GBDT would take at ratios from 1.1 to 2 were a coin flip (24 pages, summed page-F1 change
#: +0.32, -0.44 of it between 1.25 and 1.5), those at 2 and more its gain (12 pages, +5.1:
#: articles split over page-builder sections, list articles); an adversarial review found
#: the smaller ratios taking an author box, a donation appeal, a comment thread in plain
#: markup or an "Editors' picks" list under a story declared an article (1.4-1.8 times the
#: story). CV 0.8569 at 1.1, 0.8565 at 2 (2026-12-03, fold models); AEB and
#: readability-tests unchanged.
AUTO_SECOND_OPINION_STORY_RATIO = 2.0
#: On a page *with* a byline the second opinion runs only when the heuristic's selection
#: lacks the page's own description (``og:description``, ``<meta name="description">``,
#: JSON-LD ``description``: ``Metadata.excerpt``): it holds under this share of the
#: description's distinct words of :data:`AUTO_DESCRIPTION_MIN_WORD_CHARS` letters or more
#: (case-folded), and the learned extractor's selection, at least
#: :data:`AUTO_SECOND_OPINION_RATIO` times as long, holds at least this share: the
#: heuristic took a side block (credits, a spec box, one section of a page-builder layout)
#: and missed the story the description summarises, which the learned extractor found.
#: Descriptions of fewer than :data:`AUTO_DESCRIPTION_MIN_WORDS` such words are not used.
#: Measured with fold models (wcxb-dev 5-fold CV by site, 2026-12-03, after
#: :func:`url_names_index`): 0.8586 -> 0.8595 (18 pages change, 14 for the better),
#: readability-tests 0.9709 -> 0.9730, AEB unchanged (0.9682). Shares tried (heuristic
#: under / learned at least): 0.5/0.8 0.8590, 0.6/0.6 0.8594, 0.7/0.6 0.8599, 0.7/0.7
#: 0.8595 with AEB unchanged, 0.9/0.5 0.8601 but AEB 0.9646 (four news pages whose
#: descriptions paraphrase the story lose to teasers and comments); the story ratio
#: (:data:`AUTO_SECOND_OPINION_STORY_RATIO`) on declared stories 0.8597 at 0.7/0.6. One
#: share for both sides is the plain reading of "the description is in one selection and
#: not in the other".
AUTO_DESCRIPTION_FOUND_SHARE = 0.7
AUTO_DESCRIPTION_MIN_WORD_CHARS = 4
AUTO_DESCRIPTION_MIN_WORDS = 6

#: Markup naming an add-to-cart action (``add-to-cart``, ``addToCart``, "Add to Bag",
#: ``add_to_basket``...: button labels, class names, shop scripts), matched
#: case-insensitively in the page source and not followed by a lower-case letter ("add to
#: Cartesian", "add to basketball" do not count; ``addToCartButton`` does): a shop's product
#: or category page. On a page
#: declaring no kind of :data:`AUTO_STORY_PAGE_TYPES` it sends ``auto`` to :data:`AUTO_LEARNED_EXTRACTOR` as a declared product would. Measured on
#: wcxb-dev: present on 101 of its 118 product pages and 60 of 116 collection pages but
#: also on 58 of 790 articles (ad and shop-widget scripts; those declare themselves
#: articles), AEB 6 of 181 pages, readability-tests 1 of 65; routing by it raised wcxb-dev's
#: cross-validated ``auto`` F1 by 0.003 (products the most, 0.617 -> 0.632) and changed
#: nothing on AEB or readability-tests. Searched only on pages that need it (about 1 ms on
#: a 1 MB page).
AUTO_SHOP_MARKUP_RE = re.compile(r"(?i:add[-_ ]?to[-_ ]?(?:cart|bag|basket))(?![a-z])")
#: A ``<style>`` element of a page source (its end: the first ``</style>``, as HTML
#: parsers end its raw text; an unclosed one runs to the end of the source).
_STYLE_ELEMENT_RE = re.compile(r"<style[\s>].*?(?:</style\s*>|\Z)", re.IGNORECASE | re.DOTALL)


def names_add_to_cart(source: str) -> bool:
    """Whether the page ``source`` (decoded HTML) names an add-to-cart action
    (:data:`AUTO_SHOP_MARKUP_RE`) outside its ``<style>`` elements: a theme's stylesheet
    styles a shop plugin's buttons (``.add_to_cart_button:hover``) on every page of a site,
    its articles included (AEB: a Brazilian quotes blog on a WooCommerce-ready WordPress
    theme). The ``<style>`` elements are only looked for when a match is found."""
    styles: list[tuple[int, int]] | None = None
    for m in AUTO_SHOP_MARKUP_RE.finditer(source):
        if styles is None:
            styles = [s.span() for s in _STYLE_ELEMENT_RE.finditer(source)]
        k = bisect.bisect_right(styles, (m.start(), len(source) + 1)) - 1
        if k < 0 or styles[k][1] <= m.start():
            return True
    return False

#: The last segment of a URL path that names an index (a site's front page): an index
#: document (``index.html``, ``default.aspx``, ``home.php``).
_INDEX_DOCUMENT_RE = re.compile(r"(?i)(?:index|default|home)\.(?:s?html?|php\d?|aspx?|jsp|cfm)")
#: A path segment that is a plain word: letters only (no digit, hyphen, underscore, dot,
#: ``+`` or other punctuation; read after percent-decoding), as in ``/news``, ``/blog/``,
#: ``/category/science/``; a story's URL ends in a slug or an id
#: (``/2019/11/doobie-brothers-to-reunite``, ``/news/473849-3-morales``, ``story.html``,
#: ``/article/Why+Rust+Wins``).
_PLAIN_WORD_SEGMENT_RE = re.compile(r"[^\W\d_]+")
#: Last path segments naming another rendering of the page before them, not a section:
#: ``/my-first-post/amp/`` (the WordPress AMP plugin), ``.../print``; they are set aside.
_RENDERING_SEGMENTS = frozenset({"amp", "print", "printable", "embed", "preview"})


def url_names_index(url: str | None) -> bool:
    """Whether the absolute ``url`` names a site's front page, a section front or a topic
    page (``/docs/concepts/pods/``, ``/wiki/Portage``) rather than one dated or slugged
    story: no query (``?p=123``, ``?t=42`` name an item), and a path (RFC 3986 section 3.3)
    (percent-decoded) that is empty, ``/``, an index document, or ends in a plain-word
    segment (:data:`_PLAIN_WORD_SEGMENT_RE`; a rendering suffix such as ``/amp/`` set aside,
    :data:`_RENDERING_SEGMENTS`) with no all-digit segment before it (``/2024/05/kettle``
    is a story: its date says so). ``False`` for ``None`` or an
    unparsable URL.

    Such a page is a listing or a reference page (a blog's or a shop's front page, a news
    section, a service overview, a manual's topic), where the heuristic's one-story
    assumption fails or gains nothing: ``auto`` gives it to
    :data:`AUTO_LEARNED_EXTRACTOR` unless it declares a story type
    (:data:`AUTO_STORY_PAGE_TYPES`; a Wikipedia article at ``/wiki/Python`` declares one);
    then the heuristic runs, but neither that type nor a byline counts as a sign of one
    article (a blog platform's template declares ``og:type`` article and the site's author
    on the front page too: github.blog, stackoverflow.blog), so the page gets the checks of
    a page not known to be an article (:data:`AUTO_MIN_SELECTION_SHARE`,
    :data:`AUTO_SECOND_OPINION_RATIO`). In wcxb-dev 44 of 101 listing pages, 75 of 168
    service pages and 42 of 91 documentation pages have such a URL, against 26 of 790
    articles; none of the 246 story URLs of AEB and readability-tests does.

    Measured with fold models (wcxb-dev 5-fold CV by site, 2026-12-03; AEB and
    readability-tests unchanged by any variant): ``auto`` 0.8564 -> 0.8586 (listing 0.667
    -> 0.690, service 0.799 -> 0.806, documentation 0.913 -> 0.915, article 0.9471 ->
    0.9467). Variants: the byline and story type set aside but the heuristic kept, 0.8578
    (the byline only: 0.8576, and on front pages alone, empty path: 0.8573; any all-digit segment
    or a dot anywhere in the path counting as a story's: 0.8574); the learned extractor on
    declared stories too, 0.8586 (articles 0.9468, documentation 0.917, listing 0.689: a tie,
    and the choice above keeps single-word Wikipedia titles with the heuristic); the
    learned extractor on front pages alone (empty path), section fronts as above with the
    heuristic, 0.8580. The cost: an article at a plain-word URL (``/budget``) declaring no
    story type is read as a listing."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.query:
        return False
    segments = [s for s in unquote(parts.path).split("/") if s not in ("", ".")]
    if not segments:
        return True
    if _INDEX_DOCUMENT_RE.fullmatch(segments[-1]):
        segments.pop()
    elif len(segments) > 1 and segments[-1].casefold() in _RENDERING_SEGMENTS:
        segments.pop()
    return not segments or (_PLAIN_WORD_SEGMENT_RE.fullmatch(segments[-1]) is not None
                            and not any(s.isdigit() for s in segments))


#: ``auto`` keeps a page with more elements than this (after pruning) on the heuristic: the
#: learned path holds about five times the heuristic's memory per element (per-element
#: feature rows and arrays), so a 14 MB page of 700,000 tiny elements would take about 8 GB
#: there against 1.3 GB. The largest of the 1,541 training pages has 8,879 elements, the
#: 99th percentile 3,528: no real page of the kind the model was trained on comes near.
AUTO_MAX_LEARNED_ELEMENTS = 30_000


def auto_may_shop(page_type: str | None) -> bool:
    """Whether ``auto`` looks for :data:`AUTO_SHOP_MARKUP_RE` on this page: the heuristic's
    page, not declared a story."""
    return auto_extractor(page_type) == "heuristic" and page_type not in AUTO_STORY_PAGE_TYPES


#: Where a byline found in a ``<meta>`` tag comes from (``Metadata.sources["byline"]``
#: opens with this): on a page that declares no kind of :data:`AUTO_STORY_PAGE_TYPES`,
#: ``auto`` does not read such a byline as a sign of one article
#: (:func:`auto_reads_byline`). A site sets ``<meta name="author">`` once for all its pages,
#: and on a service, listing or shop page it names the company or the web agency; a
#: story's byline comes with a declared story type, in its JSON-LD ``author``, or on the
#: page itself (the pipeline looks for one on the page, ``parse.metadata.page_byline``,
#: when the metadata's byline is such a ``<meta>`` one). Measured on
#: wcxb-dev (5-fold CV with fold GBDTs, 2026-12-03): 0.8595 -> 0.8601 (6 pages change:
#: listing +0.97, service +0.31, collection -0.16, article -0.02 page-F1 summed; 0.8601 in
#: ``train/train_refine.py`` too); AEB and readability-tests unchanged (0 pages). Not
#: reading DOM bylines either on those pages gains 0.0003 more on wcxb-dev but loses
#: 0.0008 on AEB and 0.002 on readability-tests; not reading any byline there gains 0.0013
#: on wcxb-dev and loses 0.005 on AEB.
AUTO_SITEWIDE_BYLINE_SOURCE = "meta["


def auto_reads_byline(page_type: str | None, byline_source: str | None) -> bool:
    """Whether ``auto`` reads a page's byline, found by ``byline_source`` (the
    ``Metadata.sources`` label, ``None`` when there is none), as a sign of one article: yes
    on a page declaring a kind of :data:`AUTO_STORY_PAGE_TYPES`; elsewhere, unless it
    comes from a ``<meta>`` tag (:data:`AUTO_SITEWIDE_BYLINE_SOURCE`; the pipeline then
    asks whether the page shows a byline of its own)."""
    if byline_source is None:
        return False
    return page_type in AUTO_STORY_PAGE_TYPES or not byline_source.startswith(AUTO_SITEWIDE_BYLINE_SOURCE)


def auto_may_fall_back(page_type: str | None, byline: str | None) -> bool:
    """Whether ``auto`` checks the heuristic's selection share on this page (see
    :data:`AUTO_MIN_SELECTION_SHARE`): the heuristic's page, not declared a story, with
    no byline."""
    return auto_may_shop(page_type) and not byline


def auto_extractor(page_type: str | None) -> str:
    """The extractor ``auto`` runs on a page declaring ``page_type``:
    :data:`AUTO_LEARNED_EXTRACTOR` for :data:`AUTO_LEARNED_PAGE_TYPES`, else
    ``"heuristic"`` (articles, pages declaring nothing or another type)."""
    return AUTO_LEARNED_EXTRACTOR if page_type in AUTO_LEARNED_PAGE_TYPES else "heuristic"


@dataclass(frozen=True, kw_only=True)
class Options:
    """Options of :func:`unclutter.extract`.

    Attributes:
        extractor: which main-content extractor runs (see ``EXTRACTORS``).
        include_links: keep links as ``[text](url)``; when false only their text stays.
        include_images: keep images as ``![alt](url)``.
        include_captions: keep figure captions (``<figcaption>``, in italics). On by
            default: readers expect a figure's caption with it (Readability.js keeps them;
            losing them is a reported bug of readers, ``shared/bugcases/08``). The ground
            truths of the main-content benchmarks leave them out (AEB: 4 of 115 captions
            longer than 30 characters on its pages are in the ground truth; wcxb-dev
            articles: 53 of 765): with ``False`` AEB F1 is 0.973 instead of 0.969 (28 of the
            29 changed pages better), readability-tests 0.960 instead of 0.966, wcxb-dev
            (in-sample) 0.868 instead of 0.867 (measured 2026-12-02).
        refine: with ``extractor="auto"``, clean the heuristic's selection with the
            classifier trained for it (:mod:`unclutter.classify.refine`: photo credits,
            promos, tag lines, teaser lists inside the article container go). On by default:
            AEB F1 0.967 against 0.965 without (``bench/README.md``, 2026-12-02);
            ``False`` saves its cost, about 1 ms (a fifth of the heuristic path's time) per
            page. No effect with the other extractors.
        structured_data_fallback: when the visible page has no article, use JSON-LD
            ``articleBody`` / ``__NEXT_DATA__`` text, labelled ``content_source =
            "structured-data"``.
        search_date: when the page's markup states no publication date, look for one in
            its URL and visible text (:func:`unclutter.parse.metadata.search_date`,
            htmldate; about 4 ms on such a page); ``False`` leaves ``date_published`` empty.
        http_charset: charset from the HTTP Content-Type header, if the caller has one.
        max_input_bytes: inputs larger than this (bytes, or characters for ``str``)
            raise ``InputTooLargeError``.
        summary: also summarize the page and each ToC section (off by default: plain
            extraction stays fast). See :mod:`unclutter.summarize`.
        summary_backend: ``"extractive"`` (offline default), ``"transformers"``,
            ``"openai"``, ``"anthropic"`` or ``"bedrock"``.
        summary_sentences: length of the page summary, in sentences.
        summary_words: length of the page summary in words instead (``None``: use
            sentences).
        section_summary_sentences: length of each ToC section's summary, in sentences.
        summary_model: model for the backend: a local path or hub id (``transformers``), a
            model name/id (LLM backends; else their documented default).
        summary_embeddings: extractive backend and topic segmentation use all-MiniLM-L6-v2
            embeddings (the ``embeddings`` extra) instead of TF-IDF.
        strict: drop summary sentences with numbers, dates or names not in the page.
        readability_threshold: Flesch Reading Ease below which summaries are refined.
        max_rewrites: most simplification rewrites asked of an abstractive backend.
        explain: keep the removal log (``Article.removed``): every element the prune and
            select stages removed, why, and a preview of its text (``--explain``). Off by
            default: building it costs about 5% of the time per page, for a log most
            callers never read.
    """

    extractor: str = "auto"
    include_links: bool = True
    include_images: bool = True
    include_captions: bool = True
    refine: bool = True
    structured_data_fallback: bool = True
    search_date: bool = True
    http_charset: str | None = None
    max_input_bytes: int = MAX_INPUT_BYTES
    summary: bool = False
    summary_backend: str = "extractive"
    summary_sentences: int = 3
    summary_words: int | None = None
    section_summary_sentences: int = 1
    summary_model: str | None = None
    summary_embeddings: bool = False
    strict: bool = False
    readability_threshold: float = 60.0
    max_rewrites: int = 2
    explain: bool = False

    def __post_init__(self) -> None:
        if self.summary_sentences < 1 or self.section_summary_sentences < 1:
            raise UsageError("summary lengths must be at least one sentence")
        if self.summary_words is not None and self.summary_words < 1:
            raise UsageError("summary_words must be positive")
        if self.max_rewrites < 0:
            raise UsageError("max_rewrites must be 0 or more")
        if self.extractor not in EXTRACTORS:
            raise UsageError(
                f"unknown extractor {self.extractor!r}; choose one of: {', '.join(EXTRACTORS)}"
            )
        if self.max_input_bytes <= 0:
            raise UsageError("max_input_bytes must be positive")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise UsageError(f"{f.name} must be True or False, not {value!r}")
