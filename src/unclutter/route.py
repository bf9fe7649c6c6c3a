"""Stage 5, and the choice of its extractor per page (``Options.extractor="auto"``).

:func:`select` runs the extractor ``Options.extractor`` names on the pruned page: the
heuristic (:mod:`unclutter.score.select`) or a learned one (:mod:`unclutter.classify`,
imported only when one runs); both return a :class:`~unclutter.score.select.Selection`.
``auto``, the default, picks per page; the cascade, in order:

1. **declared type** (:func:`auto_extractor`): products, forum threads and FAQ pages
   (:data:`AUTO_LEARNED_PAGE_TYPES`) go to :data:`AUTO_LEARNED_EXTRACTOR`, every other
   page to the heuristic;
2. **URL** (:func:`url_names_index`): a site's front, section or topic page is weak
   evidence of a listing: the heuristic runs, and its selection goes to the learned
   extractor unless it reads as one article (:func:`reads_as_one_article`: paragraphs of
   prose, headings that are not links); a page at such a URL declaring a story
   (:data:`~unclutter.core.pagetypes.STORY_PAGE_TYPES`) stays with the heuristic, reading
   neither that type nor a byline as a sign of one article;
3. **shop markup** (:func:`names_add_to_cart`): a heuristic page not declared a story
   (:func:`auto_may_shop`) that names an add-to-cart action goes to the learned extractor;
4. **share kept**: the heuristic runs; its selection is replaced by the learned
   extractor's when it holds under :data:`AUTO_MIN_SELECTION_SHARE` of the page's text on
   a page not known as an article (:func:`auto_may_fall_back`; a site-wide ``<meta>``
   byline does not make one: :func:`auto_reads_byline`), or under
   :data:`AUTO_MIN_ARTICLE_SELECTION_SHARE` of its text outside links on the others;
   and, on a page not declared a story, by the learned extractor's when the heuristic's
   holds under :data:`AUTO_LOW_SHARE` of the page's text in an element its class weights
   call boilerplate, and the learned one :data:`AUTO_LOW_SHARE_RATIO` times as much, text
   in links counted (a listing of linked teasers, where the heuristic takes the footer);
5. **second opinion**: on a page without a byline the learned extractor runs beside the
   heuristic and wins when it keeps clearly more (:func:`second_opinion`); on a page with
   one, only when the heuristic's selection lacks the page's description and the learned
   one holds it (:func:`description_opinion`);
6. **refine** (:func:`refine`): the selection kept from the heuristic (or a second
   opinion) is cleaned by the classifier trained for that (:mod:`unclutter.classify.refine`),
   after the complete stories appended to the page's own are removed
   (:mod:`unclutter.score.stories`; with ``--extractor heuristic`` too).

A page of more than :data:`AUTO_MAX_LEARNED_ELEMENTS` elements stays with the heuristic at
every step. Each decision is a line of ``Selection.attempts`` (the trace, ``--explain``).
The thresholds below were calibrated as a set on wcxb-dev (5-fold cross-validation by site,
fold models through this code), AEB and readability-tests checked beside it; the current
figures are in ``classify/models/MODEL_CARD.md``.
``Options.ablation`` switches the second opinion and the refinement off for experiments.

The last section holds the other routing decision, made before a page is extracted:
whether ``--render auto`` renders it in a browser (:func:`js_shell`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from .core.dom import TEXT, Node, new_element
from .core.errors import UnclutterError
from .core.limits import MAX_INPUT_BYTES
from .core.models import Metadata
from .core.options import Options
from .core.pagetypes import STORY_PAGE_TYPES
from .parse.decode import decode_html
from .parse.guards import check_input_limits
from .prune.clean import PruneResult, parse_for_pruning, prune
from .score.features import collapsed_len, prose_chars, prose_paragraphs
from .score.heuristic import class_weight
from .score.select import Selection, select_main_content
from .score.repeats import drop_quoted_posts, drop_repeated_blocks
from .score.template_text import (
    drop_contents_lists,
    drop_control_labels,
    drop_edit_stamps,
    drop_placeholder_blocks,
    trim_site_footer,
)
from .score.stories import trim_appended_stories

__all__ = [
    "AUTO_LEARNED_PAGE_TYPES", "AUTO_LEARNED_EXTRACTOR", "AUTO_MIN_SELECTION_SHARE",
    "AUTO_MIN_ARTICLE_SELECTION_SHARE", "AUTO_SECOND_OPINION_RATIO", "AUTO_SECOND_OPINION_MIN_GAIN_CHARS",
    "AUTO_SECOND_OPINION_STORY_RATIO", "AUTO_LOW_SHARE", "AUTO_LOW_SHARE_RATIO", "AUTO_DESCRIPTION_FOUND_SHARE",
    "AUTO_DESCRIPTION_MIN_WORD_CHARS",
    "AUTO_DESCRIPTION_MIN_WORDS", "AUTO_MAX_LEARNED_ELEMENTS", "AUTO_SHOP_MARKUP_RE",
    "AUTO_SITEWIDE_BYLINE_SOURCE", "AUTO_ARTICLE_MIN_PARAGRAPHS", "AUTO_ARTICLE_PARAGRAPH_CHARS",
    "AUTO_LISTING_LINKED_HEADINGS_SHARE", "reads_as_one_article", "auto_extractor", "url_names_index", "names_add_to_cart",
    "auto_may_shop", "auto_may_fall_back", "auto_reads_byline", "select", "second_opinion",
    "description_opinion", "refine", "repruner",
    "SHELL_MAX_WORDS", "SHELL_MAX_TEXT_CHARS", "SHELL_MOUNT_MAX_WORDS", "SHELL_MIN_SCRIPT_CHARS",
    "SHELL_MOUNT_SELECTOR", "SHELL_FRAMEWORK_MARKERS",
    "SHELL_NOSCRIPT_NOTICE_RE", "ShellVerdict", "js_shell", "AUTO_RENDER_RETRY_CHARS", "render_after_extraction",
]

# --- thresholds ----------------------------------------------------------------------------

#: Declared types (``Metadata.page_type``) where the heuristic's one-article assumption
#: fails: a product's title, price and reviews sit in separate regions, a thread is many posts.
AUTO_LEARNED_PAGE_TYPES = frozenset({"product", "forum", "faq"})
#: The learned extractor ``auto`` runs: the best of them by cross-validation on wcxb-dev.
AUTO_LEARNED_EXTRACTOR = "gbdt"
#: Under this share of the page's text kept, the heuristic "missed most of the page" (a shop's
#: or listing's one dense block taken for the article); shares from 0.4 to 0.8 tie by CV.
AUTO_MIN_SELECTION_SHARE = 0.5
#: The same on a page known as an article (a declared story, a byline): a caption or teaser
#: taken for the story of a list or table page. The smallest share that gains on wcxb-dev:
#: larger ones lose on AEB's news pages.
AUTO_MIN_ARTICLE_SELECTION_SHARE = 0.05
#: A second opinion wins with at least this many times the heuristic's characters, and its
#: text outside links (a site map beside a short story is no missed content): "found more".
AUTO_SECOND_OPINION_RATIO = 1.1
#: ... and at least this many characters more: a few hundred more are as likely boilerplate
#: (a "Subscribe" box, a thread in ``<details>``: ``tests/pages/21-forum-thread-multiple-posts``, ``13-...``) as content.
AUTO_SECOND_OPINION_MIN_GAIN_CHARS = 500
#: The ratio on a page declared a story: one article, so the learned extractor must find as
#: much again (smaller ratios took author boxes, appeals and "Editors' picks" beside it).
AUTO_SECOND_OPINION_STORY_RATIO = 2.0
#: With or without a byline, on a page declaring no story: the heuristic's selection holds
#: under this share of the pruned page's (collapsed) characters, its top candidate is an
#: element its class weights call boilerplate (a negative
#: :func:`~unclutter.score.heuristic.class_weight`: it won only once the weights were off),
#: and the learned extractor's selection holds at least :data:`AUTO_LOW_SHARE_RATIO` times
#: as many characters (and :data:`AUTO_SECOND_OPINION_MIN_GAIN_CHARS` more), text in
#: links counted: the heuristic took the site's footer on a page whose content is all
#: linked teasers (it scores text in links near zero), where the prose test of the
#: second opinion cannot tell.
AUTO_LOW_SHARE = 0.2
AUTO_LOW_SHARE_RATIO = 2.0
#: On a byline page: the heuristic's selection holds under this share of the description's
#: words and the learned one at least this share ("in one selection and not the other").
AUTO_DESCRIPTION_FOUND_SHARE = 0.7
#: Description words counted have at least this many word characters (shorter ones match anywhere).
AUTO_DESCRIPTION_MIN_WORD_CHARS = 4
#: A description of fewer such distinct words says too little to be looked for.
AUTO_DESCRIPTION_MIN_WORDS = 6
#: Past this many elements (after pruning) a page stays with the heuristic: the learned path
#: holds about five times its memory per element; the largest training page has 8,879.
AUTO_MAX_LEARNED_ELEMENTS = 30_000
#: Markup naming an add-to-cart action (``addToCart``, "Add to Bag", ``add_to_basket``), not
#: followed by a lower-case letter ("add to Cartesian"): a shop's product or category page.
AUTO_SHOP_MARKUP_RE = re.compile(r"(?i:add[-_ ]?to[-_ ]?(?:cart|bag|basket))(?![a-z])")
#: ``Metadata.sources["byline"]`` of a ``<meta>`` byline: set once for a whole site, on a page
#: declaring no story it names the company or web agency, not an article's author.
AUTO_SITEWIDE_BYLINE_SOURCE = "meta["

#: A page at a section-like URL (:func:`url_names_index`) stays with the heuristic when its
#: selection holds at least this many paragraphs of prose (:func:`reads_as_one_article`): a
#: reference or topic page (``/wiki/Mozilla``) is one article; a listing's teasers are short.
AUTO_ARTICLE_MIN_PARAGRAPHS = 5
#: ... each of at least this many characters outside links (a teaser is a sentence or two).
AUTO_ARTICLE_PARAGRAPH_CHARS = 150
#: ... and under this share of its headings links to other pages (a listing's teaser titles).
AUTO_LISTING_LINKED_HEADINGS_SHARE = 0.5

# --- predicates ----------------------------------------------------------------------------

_SECTION_HEADINGS = frozenset(("h2", "h3", "h4", "h5", "h6"))

#: A ``<style>`` element of a page source (its end: the first ``</style>``, as HTML
#: parsers end its raw text; an unclosed one runs to the end of the source).
_STYLE_ELEMENT_RE = re.compile(r"<style[\s>].*?(?:</style\s*>|\Z)", re.IGNORECASE | re.DOTALL)
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
_DESCRIPTION_WORD_RE = re.compile(rf"\w{{{AUTO_DESCRIPTION_MIN_WORD_CHARS},}}")


def auto_extractor(page_type: str | None) -> str:
    """The extractor ``auto`` runs on a page declaring ``page_type``:
    :data:`AUTO_LEARNED_EXTRACTOR` for :data:`AUTO_LEARNED_PAGE_TYPES`, else
    ``"heuristic"`` (articles, pages declaring nothing or another type)."""
    return AUTO_LEARNED_EXTRACTOR if page_type in AUTO_LEARNED_PAGE_TYPES else "heuristic"


def url_names_index(url: str | None) -> bool:
    """Whether the absolute ``url`` names a site's front page, a section front or a topic
    page (``/docs/concepts/pods/``, ``/wiki/Portage``) rather than one dated or slugged
    story: no query (``?p=123``, ``?t=42`` name an item), and a path (RFC 3986 section 3.3)
    (percent-decoded) that is empty, ``/``, an index document, or ends in a plain-word
    segment (:data:`_PLAIN_WORD_SEGMENT_RE`; a rendering suffix such as ``/amp/`` set aside,
    :data:`_RENDERING_SEGMENTS`) with no all-digit segment before it (``/2024/05/kettle``
    is a story: its date says so). ``False`` for ``None`` or an unparsable URL.

    Such a page is a listing or a reference page (a blog's or a shop's front page, a news
    section, a service overview, a manual's topic), where the heuristic's one-story
    assumption fails or gains nothing. A blog platform's template declares ``og:type``
    article and the site's author on the front page too (github.blog, stackoverflow.blog),
    so a declared story type and a byline count for nothing there. The cost: an article at
    a plain-word URL (``/budget``) declaring no story type is read as a listing."""
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


def names_add_to_cart(source: str) -> bool:
    """Whether the page ``source`` (decoded HTML) names an add-to-cart action
    (:data:`AUTO_SHOP_MARKUP_RE`) outside its ``<style>`` elements: a theme's stylesheet
    styles a shop plugin's buttons (``.add_to_cart_button:hover``) on every page of a site,
    its articles included. The ``<style>`` elements are only looked for when a match is
    found (the search costs about 1 ms on a 1 MB page)."""
    styles: list[tuple[int, int]] | None = None
    for m in AUTO_SHOP_MARKUP_RE.finditer(source):
        if styles is None:
            styles = [s.span() for s in _STYLE_ELEMENT_RE.finditer(source)]
        k = bisect.bisect_right(styles, (m.start(), len(source) + 1)) - 1
        if k < 0 or styles[k][1] <= m.start():
            return True
    return False


def auto_may_shop(page_type: str | None) -> bool:
    """Whether ``auto`` looks for :data:`AUTO_SHOP_MARKUP_RE` on this page: the heuristic's
    page, not declared a story."""
    return auto_extractor(page_type) == "heuristic" and page_type not in STORY_PAGE_TYPES


def auto_reads_byline(page_type: str | None, byline_source: str | None) -> bool:
    """Whether ``auto`` reads a page's byline, found by ``byline_source`` (the
    ``Metadata.sources`` label, ``None`` when there is none), as a sign of one article: yes
    on a page declaring a kind of :data:`~unclutter.core.pagetypes.STORY_PAGE_TYPES`;
    elsewhere, unless it comes from a ``<meta>`` tag (:data:`AUTO_SITEWIDE_BYLINE_SOURCE`;
    the pipeline then asks whether the page shows a byline of its own,
    :func:`unclutter.parse.metadata.page_byline`)."""
    if byline_source is None:
        return False
    return page_type in STORY_PAGE_TYPES or not byline_source.startswith(AUTO_SITEWIDE_BYLINE_SOURCE)


def auto_may_fall_back(page_type: str | None, byline: str | None) -> bool:
    """Whether ``auto`` checks the heuristic's selection share on this page at
    :data:`AUTO_MIN_SELECTION_SHARE`: the heuristic's page, not declared a story, with no
    byline (a publication date alone makes no article: a product's release date)."""
    return auto_may_shop(page_type) and not byline


def reads_as_one_article(root: Node) -> tuple[bool, int, int, int]:
    """Whether a selection ``root`` reads as one article rather than a listing: at least
    :data:`AUTO_ARTICLE_MIN_PARAGRAPHS` paragraphs (``<p>``) of at least
    :data:`AUTO_ARTICLE_PARAGRAPH_CHARS` characters outside links
    (:func:`~unclutter.score.features.prose_paragraphs`), and under
    :data:`AUTO_LISTING_LINKED_HEADINGS_SHARE` of its headings (``h2``-``h6``) links (a
    listing's teasers are titled by links to their stories; an article's sections are not).
    Returns ``(verdict, paragraphs, linked headings, headings)``."""
    paragraphs = prose_paragraphs(root, AUTO_ARTICLE_PARAGRAPH_CHARS)
    linked = headings = 0
    for node in root.iter_elements():
        if node.tag in _SECTION_HEADINGS:
            chars = len(node.text_content().strip())
            if not chars:
                continue
            headings += 1
            link_chars = sum(len(a.text_content().strip()) for a in node.iter_elements()
                             if a.tag == "a" and "href" in a.attrs)
            linked += link_chars * 2 >= chars
    article = (paragraphs >= AUTO_ARTICLE_MIN_PARAGRAPHS
               and linked < AUTO_LISTING_LINKED_HEADINGS_SHARE * max(headings, 1))
    return article, paragraphs, linked, headings


def _more_elements_than(root: Node, limit: int) -> bool:
    """Whether ``root``'s subtree holds more than ``limit`` elements (stops counting there)."""
    # (children lists walked in any order: only the count matters)
    n = 0 if root.tag == TEXT else 1
    stack = [root.children]
    pop = stack.pop
    push = stack.append
    while stack:
        for c in pop():
            if c.tag != TEXT:
                n += 1
                if c.children:
                    push(c.children)
        if n > limit:
            return True
    return False


def _description_words(text: str) -> set[str]:
    """The distinct case-folded words of ``text`` with at least
    :data:`AUTO_DESCRIPTION_MIN_WORD_CHARS` word characters."""
    return set(_DESCRIPTION_WORD_RE.findall(text.casefold()))


# --- the cascade ---------------------------------------------------------------------------


def repruner(html: str, url: str | None, utf8: bytes | None, scripting: bool,
             styles: str = "cascade") -> Callable[[], Node]:
    """``reprune()`` for :func:`select`: the pruned tree of the page built again (parse and
    prune are deterministic; no removal log: the first build's is the one reported);
    ``styles`` as ``Options.styles``."""
    return lambda: prune(parse_for_pruning(html, url, scripting=scripting, utf8=utf8,
                                           report_skipped=False, styles=styles), log=False).root


def _targeted(body: Node) -> Selection:
    """The whole pruned ``body`` as the selection: the page was reduced to the caller's
    ``target_selector`` (:mod:`unclutter.parse.focus`)."""
    root = new_element("div")
    for child in list(body.children):
        child.parent = None
        root.append(child)
    body.children = []
    chars = collapsed_len(root.text_content())
    return Selection(root=root, top=root, chars=chars,
                     attempts=[f"target: the caller's target selector names the main content ({chars} chars); "
                               "no main-content selection"])


def select(pruned: PruneResult, options: Options, meta: Metadata, url: str | None = None,
           source: str = "", reprune: Callable[[], Node] | None = None, shown_byline: bool = False
           ) -> Selection:
    """Stage 5: the main content of the pruned page ``pruned`` by ``options.extractor``; with
    ``auto``, the cascade of the module docstring. ``meta``: the page's metadata (declared
    type, byline and its source, description); ``url``: its address; ``source``: the
    decoded HTML (searched for shop markup); ``reprune()``: the pruned tree built again,
    for the learned extractor after the heuristic, which edits ``pruned.root`` in place
    (``auto`` keeps a copy of the pruned tree beforehand, so this runs only where none
    was kept); ``shown_byline``: the page shows a byline in
    its body (looked for when ``meta.byline`` comes from a ``<meta>`` tag that
    :func:`auto_reads_byline` sets aside): then the byline counts. The first line of
    ``attempts`` states the route taken."""
    body = pruned.root
    if options.target_selector:
        return _targeted(body)
    extractor = options.extractor
    page_type = meta.page_type
    route = None
    spare = None
    rival = 0.0
    floor = 0.0
    known = False
    byline = meta.byline
    story_type = page_type  # the declared type as a sign of one story
    learned_story = False
    shop = False  # a shop's page by its add-to-cart action (customer reviews go, as on a product)
    url_index = False
    if extractor == "auto":
        extractor = auto_extractor(page_type)
        route = f"auto: page type {page_type or 'not declared'} -> {extractor}"
        if extractor == "heuristic" and url_names_index(url):
            # a site's front, section or topic page: a listing or reference page, whose
            # byline and og:type (if any) describe the site, not one story
            byline = None
            route += "; the URL names a front, section or topic page"
            if page_type in STORY_PAGE_TYPES:
                story_type = None
                route += " (byline and story type not read)"
            else:
                # weak evidence: the page decides, after the heuristic (reads_as_one_article)
                url_index = True
        if extractor != "heuristic":
            if _more_elements_than(body, AUTO_MAX_LEARNED_ELEMENTS):
                extractor = "heuristic"
                route += f" (over {AUTO_MAX_LEARNED_ELEMENTS} elements) -> heuristic"
        elif auto_may_shop(story_type) and names_add_to_cart(source):
            route += "; the page names an add-to-cart action"
            shop = True
            if _more_elements_than(body, AUTO_MAX_LEARNED_ELEMENTS):
                route += f" (over {AUTO_MAX_LEARNED_ELEMENTS} elements) -> heuristic"
            else:
                extractor = AUTO_LEARNED_EXTRACTOR
                route += f" -> {extractor}"
        else:
            if byline and not shown_byline and not auto_reads_byline(story_type, meta.sources.get("byline")):
                byline = None
                route += "; its byline comes from a meta tag (the site's, on a page declaring no story)"
            known = not auto_may_fall_back(story_type, byline)
            floor = AUTO_MIN_ARTICLE_SELECTION_SHARE if known else AUTO_MIN_SELECTION_SHARE
            if not _more_elements_than(body, AUTO_MAX_LEARNED_ELEMENTS):
                # the heuristic works in place, and the learned extractor may run after it
                # (a section-like URL, a small selection, a second opinion): a copy costs
                # about 1 ms, parsing and pruning again about 40 (wcxb-dev: 4% less time
                # per page than parsing again where needed, the same output)
                spare = body.clone()
    if extractor == "heuristic":
        sel = select_main_content(body, in_place=True, log=options.explain, body_chars=pruned.chars)
        rival = sel.rival_share  # (kept for the confidence whichever extractor decides)
        if url_index:
            article, paragraphs, linked, headings = reads_as_one_article(sel.root)
            if article:
                route += (f"; the heuristic's selection reads as one article ({paragraphs} paragraphs of prose, "
                          f"{linked} of {headings} headings links) -> heuristic")
            else:
                if spare is None and reprune is not None:
                    spare = reprune()
                if spare is not None and not _more_elements_than(spare, AUTO_MAX_LEARNED_ELEMENTS):
                    route += (f"; the heuristic's selection does not read as one article ({paragraphs} paragraphs "
                              f"of prose, {linked} of {headings} headings links) -> {AUTO_LEARNED_EXTRACTOR}")
                    extractor, body = AUTO_LEARNED_EXTRACTOR, spare
                    learned_story = True  # (comment threads go, as on a story: a blog post at /recursion)
                    floor = 0.0
        # (pruned.chars counts whitespace too: at least the collapsed count, so a selection
        # above the floor of it is above the floor of the page)
        if floor and sel.chars < floor * pruned.chars:
            if spare is None and reprune is not None:
                spare = reprune()
                if _more_elements_than(spare, AUTO_MAX_LEARNED_ELEMENTS):
                    spare = None
                    reprune = None  # (too large for the learned extractor: no second try)
                    route += f"; the heuristic kept little (over {AUTO_MAX_LEARNED_ELEMENTS} elements: it stays)"
            # an article's share is of the page's text outside links: a page of teasers or a
            # site map beside a short story is no sign that the heuristic missed the story
            page_chars = 0 if spare is None else prose_chars(spare) if known else collapsed_len(spare.text_content())
            if sel.chars < floor * page_chars:
                what = "a page known as an article" if known else "no article metadata"
                text = "text outside links" if known else "chars"
                route += (f"; {what} and the heuristic kept {sel.chars} of {page_chars} {text}"
                          f" -> {AUTO_LEARNED_EXTRACTOR}")
                extractor, body = AUTO_LEARNED_EXTRACTOR, spare
        if (extractor == "heuristic" and route is not None and story_type not in STORY_PAGE_TYPES
                and sel.chars < AUTO_LOW_SHARE * pruned.chars and class_weight(sel.top) < 0):
            if spare is None and reprune is not None:
                spare = reprune()
            # (pruned.chars counts whitespace as written: the share is of the collapsed text)
            if spare is not None and sel.chars < AUTO_LOW_SHARE * collapsed_len(spare.text_content()):
                second = second_opinion(sel, pruned.chars, spare, reprune, options, page_type, url, story=False,
                                        why=f"the heuristic kept under {AUTO_LOW_SHARE:.0%} of the page, "
                                            f"in an element its class weights call boilerplate",
                                        ratio=AUTO_LOW_SHARE_RATIO, prose=False)
                if second is not None:
                    second.attempts.insert(0, route + "; " + second.attempts.pop(0))
                    second.rival_share = rival
                    return second
                spare = None  # (the learned extractor consumed it: the next opinion builds its own)
        if extractor == "heuristic" and route is not None:
            if not byline:
                second = second_opinion(sel, pruned.chars, spare, reprune, options, page_type, url,
                                        story=story_type in STORY_PAGE_TYPES)
            else:
                second = description_opinion(sel, meta.excerpt, pruned.chars, spare, reprune, options,
                                             page_type, url)
            if second is not None:
                second.attempts.insert(0, route + "; " + second.attempts.pop(0))
                second.rival_share = rival
                return second
    if extractor != "heuristic":
        from .classify import classify_main_content

        sel = classify_main_content(body, extractor, log=options.explain, page_type=page_type, url=url,
                                    story=learned_story, shop=shop, ablation=options.ablation)
        sel.rival_share = rival
    else:
        trimmed = trim_appended_stories(sel.root, meta.title, sel.removed if options.explain else None)
        if trimmed:
            sel.chars = collapsed_len(sel.root.text_content())
            sel.attempts.append(f"stories: {trimmed} complete stories after the page's own removed ({sel.chars} chars stay)")
        if route is not None:
            refine(sel, options, page_type, url)
    log = sel.removed if options.explain else None
    repeats = drop_repeated_blocks(sel.root, log)
    quotes = drop_quoted_posts(sel.root, log, thread=page_type == "forum")
    if repeats or quotes:
        sel.chars = collapsed_len(sel.root.text_content())
        sel.attempts.append(f"repeats: {repeats} repeated blocks, {quotes} quotations of earlier posts removed "
                            f"({sel.chars} chars stay)")
    placeholders = (drop_placeholder_blocks(sel.root, meta.title, log) + drop_edit_stamps(sel.root, log)
                    + drop_control_labels(sel.root, log) + drop_contents_lists(sel.root, log))
    footer = trim_site_footer(sel.root, meta.site_name, _document_title(source), log)
    if placeholders or footer:
        sel.chars = collapsed_len(sel.root.text_content())
        sel.attempts.append(f"template text: {placeholders} placeholder blocks, edit stamps, controls' labels or contents lists, {footer} site-footer blocks removed "
                            f"({sel.chars} chars stay)")
    if route:
        sel.attempts.insert(0, route)
    return sel


#: A document's ``<title>`` in its first characters (bounded: the pattern cannot run past them).
_TITLE_RE = re.compile(r"<title[^>]{0,200}>([^<]{1,300})</title", re.IGNORECASE)


def _document_title(source: str | None) -> str | None:
    """The ``<title>`` text of the source as written (the site's name still in it)."""
    if not source:
        return None
    m = _TITLE_RE.search(source, 0, 200_000)
    return " ".join(m.group(1).split()) if m else None


def second_opinion(sel: Selection, page_chars: int, spare: Node | None, reprune: Callable[[], Node] | None,
                   options: Options, page_type: str | None, url: str | None, story: bool,
                   why: str = "no byline", ratio: float | None = None, prose: bool = True) -> Selection | None:
    """``auto``, on a page without a byline (or lacking its description:
    :func:`description_opinion`) whose heuristic selection ``sel`` it keeps: the
    selection of :data:`AUTO_LEARNED_EXTRACTOR` on the pruned page (``spare``, or
    ``reprune()``) when it holds at least :data:`AUTO_SECOND_OPINION_RATIO` times
    ``sel.chars`` (:data:`AUTO_SECOND_OPINION_STORY_RATIO` when ``story``: a page declared
    a story; ``ratio`` when given), and :data:`AUTO_SECOND_OPINION_MIN_GAIN_CHARS` more, and
    (with ``prose``) the ratio times its text outside links
    (:func:`~unclutter.score.features.prose_chars`), refined as the
    heuristic's would be (:func:`refine`); its first ``attempts`` line says so (opening
    with ``why``); else ``None``. Not run when ``page_chars`` (the pruned page's characters)
    leaves no room for that (the learned extractor cannot keep more than the page), on a
    page of more than :data:`AUTO_MAX_LEARNED_ELEMENTS` elements, nor when
    ``options.ablation.second_opinion`` is off."""
    if ratio is None:
        ratio = AUTO_SECOND_OPINION_STORY_RATIO if story else AUTO_SECOND_OPINION_RATIO
    needed = max(sel.chars * ratio, sel.chars + AUTO_SECOND_OPINION_MIN_GAIN_CHARS)
    if needed > page_chars:
        return None
    if not options.ablation.second_opinion:
        return None
    from .classify import classify_main_content

    if spare is None:
        if reprune is None:
            return None
        spare = reprune()
    if _more_elements_than(spare, AUTO_MAX_LEARNED_ELEMENTS):
        return None
    # (read as one story: what the learned extractor keeps beyond the heuristic must not be
    # a comment thread the heuristic left out, tests/pages/13-comments-in-details-elements)
    second = classify_main_content(spare, AUTO_LEARNED_EXTRACTOR, log=options.explain, page_type=page_type,
                                   url=url, story=True, ablation=options.ablation)
    if second.chars < needed:
        return None
    # more text outside links too: a site map or a list of teasers beside a short story
    # is no missed content
    if prose and prose_chars(second.root) < ratio * prose_chars(sel.root):
        return None
    line = (f"{why}; the heuristic kept {sel.chars} chars, {AUTO_LEARNED_EXTRACTOR} {second.chars}"
            f" (at least {ratio}x) -> {AUTO_LEARNED_EXTRACTOR}")
    refine(second, options, page_type, url)  # the in-article clean-up, as on the heuristic's pages
    second.attempts.insert(0, line)
    return second


def description_opinion(sel: Selection, description: str | None, page_chars: int, spare: Node | None,
                        reprune: Callable[[], Node] | None, options: Options, page_type: str | None,
                        url: str | None) -> Selection | None:
    """``auto``, on a page with a byline whose heuristic selection ``sel`` it keeps: the
    learned extractor's selection (:func:`second_opinion`, at the plain ratio) when ``sel``
    holds under :data:`AUTO_DESCRIPTION_FOUND_SHARE` of the words of the page's
    ``description`` (``Metadata.excerpt``: ``og:description``, ``<meta name="description">``,
    JSON-LD ``description``; :func:`_description_words`) and the learned selection at least
    that share: the heuristic took a side block (credits, a spec box) and missed the story
    the description summarises. Else ``None``; not run without a description of
    :data:`AUTO_DESCRIPTION_MIN_WORDS` words."""
    if not description:
        return None
    words = _description_words(description)
    if len(words) < AUTO_DESCRIPTION_MIN_WORDS:
        return None
    held = len(words & _description_words(sel.root.text_content())) / len(words)
    if held >= AUTO_DESCRIPTION_FOUND_SHARE:
        return None
    second = second_opinion(sel, page_chars, spare, reprune, options, page_type, url, story=False,
                            why=f"the heuristic's selection holds {held:.0%} of the description's words")
    if second is None:
        return None
    found = len(words & _description_words(second.root.text_content())) / len(words)
    if found < AUTO_DESCRIPTION_FOUND_SHARE:
        return None
    second.attempts[0] = second.attempts[0].replace(
        f" -> {AUTO_LEARNED_EXTRACTOR}", f", holding {found:.0%} of them -> {AUTO_LEARNED_EXTRACTOR}")
    return second


def refine(sel: Selection, options: Options, page_type: str | None, url: str | None) -> None:
    """``auto``, after the heuristic: drop the boilerplate blocks inside its selection
    (:mod:`unclutter.classify.refine`), in place on ``sel``. Skipped when
    ``options.refine`` or ``options.ablation.refine`` is off, and for a selection of more
    than :data:`AUTO_MAX_LEARNED_ELEMENTS` elements (memory, as for the learned extractors)."""
    if not options.refine or not options.ablation.refine or _more_elements_than(
            sel.root, AUTO_MAX_LEARNED_ELEMENTS):
        return
    from .classify import registry
    from .classify.refine import REFINE_MODEL, refine_selection

    model = registry.get_model(REFINE_MODEL, options.ablation.model_file(REFINE_MODEL))
    root, lines, removed = refine_selection(sel.root, model, page_type, url, log=options.explain)
    if root is not sel.root:
        sel.root = root
        sel.chars = collapsed_len(root.text_content())
        sel.removed.extend(removed)
    sel.attempts.extend(lines)


# --- rendering: is the served HTML a JavaScript shell? ---------------------------------------
#
# ``--render auto`` renders a page in a browser only when :func:`js_shell` says so. The rule:
# a page is a shell when the text unclutter can read from the served HTML (the body's words,
# plus those of its ``<noscript>`` elements, which the pipeline's scripting-disabled view
# reads) is short, *and* the page shows a sign that scripts build its content: an empty mount
# point, a framework's marker, a ``<noscript>`` asking for JavaScript, much script, or no
# text at all beside a script. Short text alone is a short page (a 404, a stub), not a
# shell; a framework's marker beside served text is a server-rendered page, not a shell.
# The thresholds were set on wcxb-dev's read part with ``bench/render_auto.py`` (AEB and
# readability-tests must stay at zero pages rendered); its figures are in ``bench/README.md``.

#: At or over this many words of readable text (whitespace-separated tokens of the body's
#: text plus the ``<noscript>`` text), a page is not a shell: its content is in the served
#: HTML. Between the shells measured (0 to 9 words: a splash, "Loading...", a "please
#: enable JavaScript" notice) and the shortest page with a framework's marker whose text is
#: all served (72 words, a Next.js page), both on wcxb-dev's read part.
SHELL_MAX_WORDS = 40
#: ... and at or over this many non-whitespace characters of it: text in a script without
#: spaces between words (Chinese, Japanese, Thai) has few "words" but many characters;
#: English runs about 5 characters a word, so there the word bound decides.
SHELL_MAX_TEXT_CHARS = 250
#: A mount point is "empty" with at most this many words of text: a placeholder such as
#: "Loading..." or "Please wait" may stand in it until the app starts.
SHELL_MOUNT_MAX_WORDS = 3
#: Mount points looked at, in document order (a page has one; a hostile one nests thousands).
SHELL_MOUNTS_LOOKED_AT = 8
#: "Much script" is at least this many characters inside ``<script>`` elements (code and
#: JSON data together) on a page of little text: an app's code or its page data, where an
#: analytics or consent snippet is one to five thousand.
SHELL_MIN_SCRIPT_CHARS = 20_000

#: Ids (and one element name) of the elements single-page-app frameworks render into:
#: create-react-app and Vite (``root``, ``app``), Next.js (``__next``), Nuxt (``__nuxt``),
#: Gatsby (``___gatsby``), SvelteKit's former template (``svelte``), Angular (``<app-root>``).
SHELL_MOUNT_SELECTOR = ", ".join(
    [f"#{i}" for i in ("root", "app", "__next", "__nuxt", "___gatsby", "svelte", "react-root",
                       "app-root", "ember-app", "main-app", "vue-app", "spa-root")] + ["app-root"])
#: Markers of a JavaScript framework in the source (literal, case-sensitive substrings), by
#: name: with little readable text they say the content is built in the browser; with much
#: text (a server-rendered Next.js or Nuxt page) they say nothing, and are not looked for.
SHELL_FRAMEWORK_MARKERS: dict[str, tuple[str, ...]] = {
    "react": ("data-reactroot", "data-reactid"),
    "next.js": ("__NEXT_DATA__", "/_next/static/"),
    "nuxt": ("__NUXT__", "__NUXT_DATA__", "/_nuxt/"),
    "vue": ("data-server-rendered", "data-v-app"),
    "angular": ("ng-version=", "<app-root"),
    "gatsby": ("___gatsby",),
    "sveltekit": ("data-sveltekit", "__sveltekit"),
    "ember": ("ember-application", "/config/environment"),
    # Discourse serves its posts in <noscript> (read: no shell); a page without them is
    # its Ember app's splash screen and an empty ``#data-preloaded``
    "discourse": ('name="discourse', 'id="data-preloaded"'),
}
#: A ``<noscript>`` text saying that the page needs JavaScript ("Please enable JavaScript",
#: "You need to enable JavaScript to run this app", "JavaScript is required").
SHELL_NOSCRIPT_NOTICE_RE = re.compile(
    r"(?i)\b(?:enable|turn on|activate|allow|requires?|need|needs)\b[^.!?]{0,40}\bjavascript\b"
    r"|\bjavascript\b[^.!?]{0,40}\b(?:required|needed|enabled?|disabled|turned off|must be)\b")
#: ``type`` values of ``<script>`` elements that hold data, not code (their characters still
#: count as script beside the text: a page's article in ``__NEXT_DATA__`` is not shown).
_DATA_SCRIPT_TYPES = ("json", "template", "text/x-")
_UNSEEN_ELEMENTS = ["script", "style", "template", "noscript"]


@dataclass(frozen=True)
class ShellVerdict:
    """:func:`js_shell`'s answer: ``is_shell`` (render the page), a one-line ``reason``
    for ``--explain``, and the ``signals`` measured (see :func:`js_shell` for their units)."""

    is_shell: bool
    reason: str
    signals: dict[str, float] = field(default_factory=dict)


def _noscript_words(markup: str) -> list[str]:
    """The words ``<noscript>`` markup shows a browser without scripts (its style, script
    and template text left out)."""
    if not markup.strip():
        return []
    tree = LexborHTMLParser(markup)
    tree.strip_tags(_UNSEEN_ELEMENTS)
    return tree.text(separator=" ").split()


def js_shell(html: str | bytes) -> ShellVerdict:
    """Whether the served page ``html`` (decoded text, or bytes decoded as the pipeline
    decodes them) is a JavaScript shell: a page whose content scripts build in the browser,
    so that ``--render auto`` must render it. See the section comment above for the rule.

    ``signals`` (units in the names; "chars" are characters of the decoded source, words
    whitespace-separated tokens):

    * ``source_chars``: the decoded page;
    * ``text_words``, ``text_chars`` (non-whitespace): the body's text, without
      ``<script>``, ``<style>``, ``<template>`` and ``<noscript>``;
    * ``noscript_words``: the text of the ``<noscript>`` elements (their markup parsed);
    * ``readable_words``, ``readable_chars``: the two together, what the thresholds read;
    * ``script_chars``: inline code in ``<script>`` elements; ``data_script_chars``: JSON
      and other data in them (``type`` naming JSON or a template); ``external_scripts``:
      ``<script src>`` elements (a count: their size is unknown without fetching them);
    * ``script_text_ratio``: script characters (code and data) per readable character
      (per body text character when the ``<noscript>`` text is not measured);
    * ``empty_mount_point``, ``noscript_notice``: 0 or 1; ``framework_markers``: how many
      of :data:`SHELL_FRAMEWORK_MARKERS`' frameworks were found.

    ``noscript_words``, ``readable_*``, ``empty_mount_point``, ``noscript_notice`` and
    ``framework_markers`` are measured only when the body's own text is under
    :data:`SHELL_MAX_WORDS` and :data:`SHELL_MAX_TEXT_CHARS` (otherwise they cannot change
    the answer). Linear in the page: the input limits of
    :func:`unclutter.parse.guards.check_input_limits`, then one lexbor parse (and one of
    the ``<noscript>`` text when it is measured). Never raises: an input that cannot be
    judged (empty, binary, over :data:`~unclutter.core.limits.MAX_INPUT_BYTES` bytes, or
    characters for a decoded text, or over the parser's limits) is no shell, and the
    reason says why.
    """
    try:
        return _js_shell(html)
    except Exception as exc:  # noqa: BLE001 - a routing guess must never stop a fetch
        return ShellVerdict(False, f"not a JavaScript shell: not judged ({type(exc).__name__}: {exc})", {})


def _js_shell(html: str | bytes) -> ShellVerdict:
    if len(html) > MAX_INPUT_BYTES:
        return ShellVerdict(False, f"not a JavaScript shell: not judged (over {MAX_INPUT_BYTES:,} bytes)",
                            {"source_chars": float(len(html))})
    if isinstance(html, (bytes, bytearray)):
        try:
            source, _ = decode_html(bytes(html))
        except UnclutterError as exc:
            return ShellVerdict(False, f"not a JavaScript shell: not judged ({exc})", {})
    else:
        source = html
    signals: dict[str, float] = {"source_chars": float(len(source))}
    if not source.strip():
        return ShellVerdict(False, "not a JavaScript shell: not judged (the document is empty)", signals)
    try:
        # lexbor's tree builder is superlinear in nesting depth: refuse what the pipeline refuses
        check_input_limits(source)
    except UnclutterError as exc:
        return ShellVerdict(False, f"not a JavaScript shell: not judged ({exc})", signals)

    tree = LexborHTMLParser(source, scripting=True)
    code = data = external = 0
    for script in tree.css("script"):
        attrs = script.attributes
        if attrs.get("src") is not None:
            external += 1
        size = len(script.text(deep=True) or "")
        kind = (attrs.get("type") or "").lower()
        if any(t in kind for t in _DATA_SCRIPT_TYPES):
            data += size
        else:
            code += size
    # lexbor parses with scripting on: a <noscript>'s content is raw text, its markup unparsed
    noscript_markup = " ".join(n.text(deep=True) or "" for n in tree.css("noscript"))
    tree.strip_tags(_UNSEEN_ELEMENTS)
    body = tree.body
    words = (body.text(deep=True, separator=" ") if body is not None else "").split()
    text_chars = sum(map(len, words))
    signals.update(text_words=float(len(words)), text_chars=float(text_chars), script_chars=float(code),
                   data_script_chars=float(data), external_scripts=float(external))
    if len(words) >= SHELL_MAX_WORDS or text_chars >= SHELL_MAX_TEXT_CHARS:
        signals["script_text_ratio"] = (code + data) / max(text_chars, 1)
        return ShellVerdict(False, f"not a JavaScript shell: {_words_phrase(len(words), text_chars)}", signals)

    noscript = _noscript_words(noscript_markup)
    readable_words = len(words) + len(noscript)
    readable_chars = text_chars + sum(map(len, noscript))
    ratio = (code + data) / max(readable_chars, 1)
    # the first few only: each text() walks the mount's subtree (nested mounts: quadratic)
    mounts = [n for n in tree.css(SHELL_MOUNT_SELECTOR)[:SHELL_MOUNTS_LOOKED_AT]
              if len((n.text(deep=True, separator=" ") or "").split()) <= SHELL_MOUNT_MAX_WORDS]
    notice = SHELL_NOSCRIPT_NOTICE_RE.search(" ".join(noscript)) is not None
    frameworks = [name for name, needles in SHELL_FRAMEWORK_MARKERS.items() if any(s in source for s in needles)]
    signals.update(noscript_words=float(len(noscript)), readable_words=float(readable_words),
                   readable_chars=float(readable_chars), script_text_ratio=ratio,
                   empty_mount_point=float(bool(mounts)), noscript_notice=float(notice),
                   framework_markers=float(len(frameworks)))
    text = _words_phrase(readable_words, readable_chars)
    if readable_words >= SHELL_MAX_WORDS or readable_chars >= SHELL_MAX_TEXT_CHARS:
        return ShellVerdict(False, f"not a JavaScript shell: {text} (with <noscript>)", signals)
    signs = []
    if mounts:
        signs.append(f"empty mount point {_mount_name(mounts[0])}")
    if frameworks:
        signs.append(f"{', '.join(frameworks)} markup")
    if notice:
        signs.append("<noscript> asks for JavaScript")
    if code + data >= SHELL_MIN_SCRIPT_CHARS:
        signs.append(f"{code + data:,} characters of script")
    elif readable_words == 0 and (code or data or external):
        signs.append("a blank page with scripts")
    if not signs:
        return ShellVerdict(False, f"not a JavaScript shell: {text}, but no sign that scripts build it", signals)
    return ShellVerdict(True, f"JavaScript shell: {', '.join(signs)}, {text}", signals)


def _words_phrase(words: int, chars: int) -> str:
    return f"{words:,} word{'' if words == 1 else 's'} ({chars:,} character{'' if chars == 1 else 's'}) of text"


def _mount_name(node: LexborNode) -> str:
    ident = node.attributes.get("id")
    return f"#{ident}" if ident else f"<{node.tag}>"


#: ``auto`` renders a page that is no shell by :func:`js_shell` after all when its served
#: HTML yields fewer characters of main text than this (the pipeline's own "no article"
#: bound, ``pipeline.STRUCTURED_FALLBACK_MAX_CHARS``) and it has scripts: server-rendered
#: site chrome around an app's "Loading..." placeholder.
AUTO_RENDER_RETRY_CHARS = 200


def render_after_extraction(main_chars: int, verdict: ShellVerdict) -> bool:
    """Whether ``auto`` renders a page that :func:`js_shell` let through (``verdict``) once
    its served HTML gave ``main_chars`` characters of main text: under
    :data:`AUTO_RENDER_RETRY_CHARS`, on a page with any script."""
    if verdict.is_shell or main_chars >= AUTO_RENDER_RETRY_CHARS:
        return False
    sig = verdict.signals
    return bool(sig.get("script_chars") or sig.get("data_script_chars") or sig.get("external_scripts"))
