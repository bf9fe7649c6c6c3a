"""The one place where the stages are composed.

::

    bytes/str ─1 decode─▶ str ─2 parse─▶ ParsedPage ─3 metadata─▶ Metadata
                                          │
                                          └─4 prune─▶ PruneResult ─5 select─▶ Selection
                                                                          │
      Article ◀─8 measure (tokens, words)─ TOC ◀─7 toc─ Markdown ◀─6 reconstruct─┘
         └─9 summarize (only with ``Options.summary``; unclutter.summarize)

Stage 5 is the heuristic (:mod:`unclutter.score.select`) or a learned extractor
(:mod:`unclutter.classify`: ``cetd``, ``gbdt``, ``gnn``) chosen by ``Options.extractor``; both
return the same ``Selection``. The default, ``auto``, picks per page (:func:`_select`): the
GBDT on declared products and forum threads, on a site's front, section and topic pages
(:func:`~unclutter.core.options.url_names_index`; there a byline or a declared story type
counts for nothing), on pages not known as articles where the
heuristic keeps under half of the text and on articles where it keeps under 5% of it (a
byline from a ``<meta>`` tag on a page declaring no story is the site's, not an article's:
:func:`~unclutter.core.options.auto_reads_byline`), and
on pages without a byline where the GBDT, asked for a second opinion, keeps clearly more
than the heuristic (:func:`_second_opinion`), and on pages with one where the GBDT's larger
selection holds the page's own description and the heuristic's does not
(:func:`_description_opinion`); the heuristic on every other page, its selection
then refined by a classifier trained for that (:mod:`unclutter.classify.refine`: credits,
promos, tag lines and teaser lists inside the article container go).

Each stage is a function with a typed input and output in its own module; this module only
calls them in order, records what each decided (``Article.trace``; and ``Article.removed``,
the removal log, when ``Options.explain`` asks for it: ``--explain``), and applies two
policies:

* **no main content**: when the selected content has no word characters, raise
  :class:`~unclutter.core.errors.NoContentError` (never return an empty article silently);
* **structured-data fallback**: when the visible page yields fewer than
  :data:`STRUCTURED_FALLBACK_MAX_CHARS` characters and the page's JSON-LD ``articleBody``
  (or ``__NEXT_DATA__`` prose) is longer, that text is used instead and labelled
  ``content_source = "structured-data"`` (client-rendered pages; bugcase 19). It passes the
  same invisible-Unicode stripping as page text.
"""

from __future__ import annotations

import codecs
import gc
from urllib.parse import urlsplit
import re
from collections.abc import Callable

from .core.dom import Node
from .core.errors import InputTooLargeError, NoContentError, UsageError
from .core.models import Article, Metadata
from .core.options import (
    AUTO_DESCRIPTION_FOUND_SHARE,
    AUTO_DESCRIPTION_MIN_WORD_CHARS,
    AUTO_DESCRIPTION_MIN_WORDS,
    AUTO_LEARNED_EXTRACTOR,
    AUTO_MAX_LEARNED_ELEMENTS,
    AUTO_MIN_ARTICLE_SELECTION_SHARE,
    AUTO_MIN_SELECTION_SHARE,
    AUTO_SECOND_OPINION_MIN_GAIN_CHARS,
    AUTO_SECOND_OPINION_RATIO,
    AUTO_SECOND_OPINION_STORY_RATIO,
    AUTO_STORY_PAGE_TYPES,
    Options,
    auto_extractor,
    auto_may_fall_back,
    auto_may_shop,
    auto_reads_byline,
    names_add_to_cart,
    url_names_index,
)
from .parse.decode import decode_html, gunzip_page
from .parse.html import ParsedPage, parse_html
from .parse.metadata import extract_metadata, page_byline, search_date, settle_title, structured_article_body
from .prune.clean import PruneResult, parse_for_pruning, prune, strip_invisible
from .reconstruct.markdown import markdown_to_text, to_markdown
from .score.features import collapsed_len, prose_chars
from .score.select import select_main_content
from .structure.toc import build_toc
from .structure.tokens import TOKENIZER_NAME, count_tokens

__all__ = ["extract", "extract_url", "run_pipeline", "READING_WPM", "STRUCTURED_FALLBACK_MAX_CHARS"]

#: Average silent reading rate of adults for non-fiction, words per minute (Brysbaert,
#: "How many words do we read per minute? A review and meta-analysis of reading rate",
#: Journal of Memory and Language 109, 2019: 238 wpm).
READING_WPM = 238

#: CJK characters read per minute (same meta-analysis reports ~260 characters/min for
#: Chinese); each CJK character counts as one word here and is read at this rate.
READING_CJK_CPM = 260

#: The visible page counts as "no article" below this many characters of main text.
STRUCTURED_FALLBACK_MAX_CHARS = 200

#: Without a description in the page's metadata, ``Article.excerpt`` is the first paragraph
#: of the main text holding at least this many characters (Readability.js falls back to
#: the article's first paragraph the same way; the length skips a heading, a caption or a
#: dateline), cut at :data:`EXCERPT_MAX_CHARS` on a word boundary.
EXCERPT_MIN_CHARS = 80
EXCERPT_MAX_CHARS = 1000  # the excerpt limit of the metadata stage (FIELD_LIMITS)

_NOSCRIPT_RE = re.compile(r"<noscript", re.IGNORECASE)
_ABSOLUTE_URL_RE = re.compile(r"https?://[^/\s]+", re.IGNORECASE)
_WORD_RE = re.compile(r"[^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")
_ASCII_WORD_RE = re.compile(r"\w+", re.ASCII)  # the same runs as _WORD_RE on ASCII text
_PLAIN_WORD_RE = re.compile(r"\w+")  # ...and on any text without CJK characters
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def _count_words(text: str) -> tuple[int, int]:
    """(words, CJK characters) of ``text``: runs of word characters outside the CJK
    ranges, and the CJK characters. The cheaper patterns give the same counts on text
    without CJK characters."""
    if text.isascii():
        return len(_ASCII_WORD_RE.findall(text)), 0
    if _CJK_RE.search(text) is None:
        return len(_PLAIN_WORD_RE.findall(text)), 0
    return len(_WORD_RE.findall(text)), len(_CJK_RE.findall(text))


def _to_text(data: str | bytes, options: Options) -> str:
    return _decode(data, options)[0]


def _decode(data: str | bytes, options: Options) -> tuple[str, bytes | None]:
    """Stage 1: the page as text, and as UTF-8 bytes when the input already is exactly
    that (the parser then reads them as they are instead of encoding the text again)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data)
        if len(data) > options.max_input_bytes:
            raise InputTooLargeError(
                f"unreadable input: {len(data)} bytes is over the {options.max_input_bytes}-byte limit"
            )
        data = gunzip_page(data, options.max_input_bytes)  # a saved page.html.gz
        text, encoding = decode_html(data, options.http_charset)
    elif isinstance(data, str):
        if len(data) > options.max_input_bytes:
            raise InputTooLargeError(
                f"unreadable input: {len(data)} characters is over the {options.max_input_bytes} limit"
            )
        # Run str input through the same emptiness/binary checks as bytes.
        data = data.encode("utf-8", "surrogatepass")
        text, encoding = decode_html(data, "utf-8")
    else:
        raise UsageError(f"extract() takes str or bytes, not {type(data).__name__}")
    # Exactly the text's UTF-8 form: decoded as UTF-8, nothing stripped or replaced.
    exact = (encoding == "utf-8" and not data.startswith(codecs.BOM_UTF8)
             and b"\x00" not in data and "\ufffd" not in text)
    return text, data if exact else None


def _lazy_structured_body(page: ParsedPage):
    """Keep the structured-data scripts now (before pruning detaches them from the body);
    decode them on demand. No copies: the prune and select stages change only the body,
    and a detached script element keeps its text."""
    if not page.data_scripts:
        return None
    head = page.head
    scripts = [n for n in page.data_scripts if head is None or all(a is not head for a in n.ancestors())]

    def decode() -> tuple[str, str] | None:
        holder = parse_html("<html><head></head><body></body></html>", page.url)
        if head is not None:
            holder.html_node.children[0] = head
            head.parent = holder.html_node
        for s in scripts:
            holder.body.append(s)
        return structured_article_body(holder)

    return decode


def _structured_markdown(body: str) -> str:
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n|\n", body)]
    return "\n\n".join(p for p in paragraphs if p) + "\n"


def _select(pruned: PruneResult, options: Options, meta: Metadata, url: str | None = None,
            source: str = "", reprune: Callable[[], Node] | None = None, shown_byline: bool = False):
    """Stage 5: the heuristic (:mod:`unclutter.score`) or a learned extractor
    (:mod:`unclutter.classify`, imported only when asked for); ``auto`` picks one of them
    by the page's declared type (:func:`unclutter.core.options.auto_extractor`) and URL (a
    front, section or topic page, :func:`~unclutter.core.options.url_names_index`: the learned
    extractor, or, when it declares a story type, the heuristic reading neither that type
    nor a byline as a sign of one article); on a
    page not declared a story (:func:`~unclutter.core.options.auto_may_shop`) it runs the
    learned extractor when the page ``source`` (the decoded HTML) names an add-to-cart
    action outside its stylesheets (:func:`~unclutter.core.options.names_add_to_cart`); it replaces a heuristic
    selection holding less than :data:`~unclutter.core.options.AUTO_MIN_SELECTION_SHARE`
    of the page's text on a page not known to be an article
    (:func:`~unclutter.core.options.auto_may_fall_back`), or less than
    :data:`~unclutter.core.options.AUTO_MIN_ARTICLE_SELECTION_SHARE` on the others, by the
    learned extractor's, on the pruned tree that ``reprune()`` builds again (the heuristic
    edits ``pruned.root`` in place; without ``reprune`` a copy is kept beforehand); it
    asks the learned extractor for a second opinion on a heuristic selection it keeps
    (:func:`_second_opinion` without a byline, :func:`_description_opinion` with one), and
    refines a heuristic selection it keeps (:func:`_refine`). ``shown_byline``: the page
    shows a byline in its body (:func:`~unclutter.parse.metadata.page_byline`, looked for
    when ``meta.byline`` comes from a ``<meta>`` tag that
    :func:`~unclutter.core.options.auto_reads_byline` sets aside): then the byline counts."""
    body = pruned.root
    extractor = options.extractor
    page_type = meta.page_type
    route = None
    spare = None
    floor = 0.0
    known = False
    byline = meta.byline
    story_type = page_type  # the declared type as a sign of one story
    learned_story = False
    if extractor == "auto":
        extractor = auto_extractor(page_type)
        route = f"auto: page type {page_type or 'not declared'} -> {extractor}"
        if extractor == "heuristic" and url_names_index(url):
            # a site's front, section or topic page: a listing or reference page, whose
            # byline and og:type (if any) describe the site, not one story
            byline = None
            route += "; the URL names a front, section or topic page"
            if page_type in AUTO_STORY_PAGE_TYPES:
                story_type = None
                route += " (byline and story type not read)"
            else:
                extractor = AUTO_LEARNED_EXTRACTOR
                route += f" -> {extractor}"
                learned_story = True  # (comment threads go, as on a story: a blog post at /recursion)
        if extractor != "heuristic":
            if _more_elements_than(body, AUTO_MAX_LEARNED_ELEMENTS):
                extractor = "heuristic"
                route += f" (over {AUTO_MAX_LEARNED_ELEMENTS} elements) -> heuristic"
        elif auto_may_shop(story_type) and names_add_to_cart(source):
            route += "; the page names an add-to-cart action"
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
            if reprune is None and not _more_elements_than(body, AUTO_MAX_LEARNED_ELEMENTS):
                spare = body.clone()  # the heuristic works in place
    if extractor == "heuristic":
        sel = select_main_content(body, in_place=True, log=options.explain, body_chars=pruned.chars)
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
        if extractor == "heuristic" and route is not None:
            if not byline:
                second = _second_opinion(sel, pruned.chars, spare, reprune, options, page_type, url,
                                         story=story_type in AUTO_STORY_PAGE_TYPES)
            else:
                second = _description_opinion(sel, meta.excerpt, pruned.chars, spare, reprune, options,
                                              page_type, url)
            if second is not None:
                second.attempts.insert(0, route + "; " + second.attempts.pop(0))
                return second
    if extractor != "heuristic":
        from .classify import classify_main_content

        sel = classify_main_content(body, extractor, log=options.explain, page_type=page_type, url=url,
                                    story=learned_story)
    elif route is not None:
        _refine(sel, options, page_type, url)
    if route:
        sel.attempts.insert(0, route)
    return sel


_DESCRIPTION_WORD_RE = re.compile(rf"\w{{{AUTO_DESCRIPTION_MIN_WORD_CHARS},}}")


def _description_words(text: str) -> set[str]:
    """The distinct case-folded words of ``text`` with at least
    :data:`~unclutter.core.options.AUTO_DESCRIPTION_MIN_WORD_CHARS` word characters."""
    return set(_DESCRIPTION_WORD_RE.findall(text.casefold()))


def _description_opinion(sel, description: str | None, page_chars: int, spare: Node | None,
                         reprune: Callable[[], Node] | None, options: Options, page_type: str | None,
                         url: str | None):
    """``auto``, on a page with a byline whose heuristic selection ``sel`` it keeps: the
    learned extractor's selection (:func:`_second_opinion`, at the plain ratio) when ``sel``
    holds under :data:`~unclutter.core.options.AUTO_DESCRIPTION_FOUND_SHARE` of the words of
    the page's ``description`` (``Metadata.excerpt``; :func:`_description_words`) and the
    learned selection at least that share; else ``None``. Not run without a description of
    :data:`~unclutter.core.options.AUTO_DESCRIPTION_MIN_WORDS` words."""
    if not description:
        return None
    words = _description_words(description)
    if len(words) < AUTO_DESCRIPTION_MIN_WORDS:
        return None
    held = len(words & _description_words(sel.root.text_content())) / len(words)
    if held >= AUTO_DESCRIPTION_FOUND_SHARE:
        return None
    second = _second_opinion(sel, page_chars, spare, reprune, options, page_type, url, story=False,
                             why=f"the heuristic's selection holds {held:.0%} of the description's words")
    if second is None:
        return None
    found = len(words & _description_words(second.root.text_content())) / len(words)
    if found < AUTO_DESCRIPTION_FOUND_SHARE:
        return None
    second.attempts[0] = second.attempts[0].replace(
        f" -> {AUTO_LEARNED_EXTRACTOR}", f", holding {found:.0%} of them -> {AUTO_LEARNED_EXTRACTOR}")
    return second


def _second_opinion(sel, page_chars: int, spare: Node | None, reprune: Callable[[], Node] | None,
                    options: Options, page_type: str | None, url: str | None, story: bool,
                    why: str = "no byline"):
    """``auto``, on a page without a byline (or lacking its description:
    :func:`_description_opinion`) whose heuristic selection ``sel`` it keeps: the
    selection of :data:`~unclutter.core.options.AUTO_LEARNED_EXTRACTOR` on the pruned page
    (``spare``, or ``reprune()``) when it holds at least
    :data:`~unclutter.core.options.AUTO_SECOND_OPINION_RATIO` times ``sel.chars``
    (:data:`~unclutter.core.options.AUTO_SECOND_OPINION_STORY_RATIO` when ``story``: a page
    declared a story), and
    :data:`~unclutter.core.options.AUTO_SECOND_OPINION_MIN_GAIN_CHARS` more, and the ratio
    times its text outside links (:func:`~unclutter.score.features.prose_chars`); its first
    ``attempts`` line says so (opening with ``why``); else ``None``. Not run when ``page_chars`` (the pruned
    page's characters) leaves no room for that (the learned extractor cannot keep more
    than the page), nor on a page of more than
    :data:`~unclutter.core.options.AUTO_MAX_LEARNED_ELEMENTS` elements."""
    ratio = AUTO_SECOND_OPINION_STORY_RATIO if story else AUTO_SECOND_OPINION_RATIO
    needed = max(sel.chars * ratio, sel.chars + AUTO_SECOND_OPINION_MIN_GAIN_CHARS)
    if needed > page_chars:
        return None
    from .classify import classify_main_content, registry

    if not registry.VARIANT.get("second_opinion", True):
        return None
    if spare is None:
        if reprune is None:
            return None
        spare = reprune()
    if _more_elements_than(spare, AUTO_MAX_LEARNED_ELEMENTS):
        return None
    # (read as one story: what the learned extractor keeps beyond the heuristic must not be
    # a comment thread the heuristic left out, shared/bugcases/13)
    second = classify_main_content(spare, AUTO_LEARNED_EXTRACTOR, log=options.explain, page_type=page_type,
                                   url=url, story=True)
    if second.chars < needed:
        return None
    # more text outside links too: a site map or a list of teasers beside a short story
    # is no missed content
    if prose_chars(second.root) < ratio * prose_chars(sel.root):
        return None
    line = (f"{why}; the heuristic kept {sel.chars} chars, {AUTO_LEARNED_EXTRACTOR} {second.chars}"
            f" (at least {ratio}x) -> {AUTO_LEARNED_EXTRACTOR}")
    _refine(second, options, page_type, url)  # the in-article clean-up, as on the heuristic's pages
    second.attempts.insert(0, line)
    return second


def _refine(sel, options: Options, page_type: str | None, url: str | None) -> None:
    """``auto``, after the heuristic: drop the boilerplate blocks inside its selection
    (:mod:`unclutter.classify.refine`), in place on ``sel``. Skipped for a selection of
    more than :data:`~unclutter.core.options.AUTO_MAX_LEARNED_ELEMENTS` elements (memory,
    as for the learned extractors)."""
    from .classify import registry
    from .classify.refine import REFINE_MODEL, refine_selection

    if not options.refine or not registry.VARIANT.get("refine", True) or _more_elements_than(
            sel.root, AUTO_MAX_LEARNED_ELEMENTS):
        return
    root, lines, removed = refine_selection(sel.root, registry.get_model(REFINE_MODEL), page_type, url,
                                            log=options.explain)
    if root is not sel.root:
        sel.root = root
        sel.chars = collapsed_len(root.text_content())
        sel.removed.extend(removed)
    sel.attempts.extend(lines)


def _first_paragraph(text: str) -> str | None:
    """The first paragraph (blank-line separated, spaces collapsed) of the plain main
    ``text`` with at least :data:`EXCERPT_MIN_CHARS` characters, cut to at most
    :data:`EXCERPT_MAX_CHARS` on a word boundary ("…" appended), or ``None``."""
    for block in re.split(r"\n\s*\n", text):
        # lines stay lines (a <br>-separated block must not read as one run-on sentence)
        para = "\n".join(" ".join(line.split()) for line in block.splitlines() if line.strip())
        if len(para) >= EXCERPT_MIN_CHARS:
            if len(para) > EXCERPT_MAX_CHARS:
                para = para[:EXCERPT_MAX_CHARS - 1].rsplit(" ", 1)[0] + "…"
            return para
    return None


def _repruner(html: str, url: str | None, utf8: bytes | None, scripting: bool) -> Callable[[], Node]:
    """``reprune()`` for :func:`_select`: the pruned tree of the page built again (parse and
    prune are deterministic; no removal log: the first build's is the one reported)."""
    return lambda: prune(parse_for_pruning(html, url, scripting=scripting, utf8=utf8,
                                           report_skipped=False), log=False).root


def _more_elements_than(root: Node, limit: int) -> bool:
    """Whether ``root``'s subtree holds more than ``limit`` elements (stops counting there)."""
    n = 0
    for _ in root.iter_elements():
        n += 1
        if n > limit:
            return True
    return False


def run_pipeline(data: str | bytes, url: str | None, options: Options) -> Article:
    """Run every stage; see the module docstring. Raises the errors of
    :mod:`unclutter.core.errors` (UnreadableInputError subclasses, NoContentError).

    Python's cyclic garbage collector is paused while the page is processed: a page's tree
    is thousands of container objects that all live until the page is done, and with the
    collector on, every 700 allocations (``gc.get_threshold()``) a collection walks them
    again and moves them through the generations: pausing it saves about 5% of the time
    per page on AEB, net of the one collection at the end.
    (Mercurial does the same around its manifest parser: ``util.nogc``.) The collector is
    switched back on afterwards only if it was on before, and then the youngest generation,
    which holds the page's garbage (its trees have parent links, so reference counting
    alone does not free them), is collected at once: within this call, which made it.
    """
    if not gc.isenabled():
        return _run_pipeline(data, url, options)
    gc.disable()
    try:
        return _run_pipeline(data, url, options)
    finally:
        gc.enable()
        gc.collect(0)


def _run_pipeline(data: str | bytes, url: str | None, options: Options) -> Article:
    trace: list[str] = []
    html, utf8 = _decode(data, options)
    log = options.explain  # keep the removal log (Article.removed) only when asked
    page: ParsedPage = parse_for_pruning(html, url, utf8=utf8, report_skipped=log)
    trace.append(f"parse: base URL {page.base_url!r}")
    # The structured-data body (JSON-LD / __NEXT_DATA__) is only decoded when needed below,
    # but it must be read before pruning removes the <script> elements that hold it.
    meta: Metadata = extract_metadata(page, article_body=False)
    fallback_body = None
    if options.structured_data_fallback:
        fallback_body = _lazy_structured_body(page)
    trace.append("metadata: " + (", ".join(f"{k} from {v}" for k, v in meta.sources.items())
                                 or "no field found"))
    shown_byline = False
    if options.extractor == "auto" and meta.byline and not auto_reads_byline(
            meta.page_type, meta.sources.get("byline")):
        # a <meta> author on a page declaring no story: does the page show a byline too?
        # (the metadata stage stops at the head's; read before pruning)
        shown_byline = page_byline(page) is not None

    pruned = prune(page, log=log)
    if log:
        trace.append(f"prune: removed {len(pruned.removed)} elements")
    title_source = meta.sources.get("title")
    settle_title(meta, pruned.root)  # (before the selection edits the pruned tree)
    if options.search_date and meta.date_published is None:
        # (the visible page: before the selection edits it)
        found = search_date(pruned.root, url, meta.date_modified)
        if found is not None:
            meta.date_published = found
            meta.sources["date_published"] = "htmldate (URL, visible text)"
            trace.append("metadata: date_published from htmldate (URL, visible text) after pruning")
    if log and meta.sources.get("title") != title_source:
        trace.append(f"metadata: title from {meta.sources.get('title') or 'nowhere'} after pruning")
    selection = _select(pruned, options, meta, url, html, _repruner(html, url, utf8, True), shown_byline)
    trace.extend("select: " + line for line in selection.attempts)
    if selection.chars < STRUCTURED_FALLBACK_MAX_CHARS and _NOSCRIPT_RE.search(html):
        # Scripting-disabled view: what a browser without JavaScript (like our fetcher)
        # renders, <noscript> content included. Same prune rules; kept only if better.
        page2 = parse_for_pruning(html, url, scripting=False, report_skipped=log)
        pruned2 = prune(page2, log=log)
        selection2 = _select(pruned2, options, meta, url, html, _repruner(html, url, None, False), shown_byline)
        trace.append(f"fallback: scripting-disabled view (<noscript> shown) gives {selection2.chars} chars")
        if selection2.chars > selection.chars and selection2.chars >= STRUCTURED_FALLBACK_MAX_CHARS:
            page, pruned, selection = page2, pruned2, selection2
            trace.extend("select: " + line for line in selection.attempts)

    title = meta.title
    body_md = to_markdown(
        selection.root, page.base_url, title=title,
        include_links=options.include_links, include_images=options.include_images,
        include_captions=options.include_captions,
    )
    text = markdown_to_text(body_md)
    content_source = "dom"
    visible_chars = len(text.strip())
    structured = fallback_body() if fallback_body and visible_chars < STRUCTURED_FALLBACK_MAX_CHARS else None
    if structured and len(structured[0]) > visible_chars:
        body_md = _structured_markdown(strip_invisible(structured[0]))
        text = markdown_to_text(body_md)
        content_source = "structured-data"
        trace.append(f"fallback: visible page had {visible_chars} chars; used {structured[1]} text")
    if not any(ch.isalnum() for ch in text):
        exc = NoContentError("no main content found: the page has no readable article text")
        exc.trace = trace  # what each stage decided, for --explain
        exc.removed = pruned.removed + selection.removed
        raise exc

    excerpt = meta.excerpt
    if not excerpt:
        excerpt = _first_paragraph(text)
        if excerpt:
            trace.append("metadata: excerpt from the first paragraph of the main text")
    markdown = (f"# {_escape_title(title)}\n\n" if title else "") + body_md
    toc = build_toc(markdown)
    words, cjk = _count_words(text)
    reading = words / READING_WPM + cjk / READING_CJK_CPM
    article = Article(
        title=title,
        byline=meta.byline,
        date_published=meta.date_published,
        date_modified=meta.date_modified,
        site_name=meta.site_name,
        language=meta.language,
        canonical_url=meta.canonical_url,
        lead_image=meta.lead_image,
        excerpt=excerpt,
        page_type=meta.page_type,
        url=url,
        markdown=markdown,
        text=text,
        toc=toc,
        word_count=words + cjk,
        reading_time_min=round(reading, 1),
        tokenizer=TOKENIZER_NAME,
        content_source=content_source,
        extractor=options.extractor,
        removed=pruned.removed + selection.removed,
        trace=trace,
        source_html=html,
        _counter=count_tokens,
    )
    if options.summary:
        from .summarize import summarize_article

        summarize_article(article, options)
        trace.append(f"summarize: {article.summary_backend}, {len(article.summary_warnings)} grounding warnings")
    return article


def _escape_title(title: str) -> str:
    t = " ".join(title.split())
    return re.sub(r"([\\`*_\[\]<>#])", r"\\\1", t)


def extract(html: str | bytes, url: str | None = None, **options) -> Article:
    """Extract the main content of one page.

    Args:
        html: the page as bytes (encoding sniffed: BOM, ``http_charset``, ``<meta>``,
            detection) or as already-decoded text.
        url: the page's absolute URL; relative links and images resolve against it (and
            against ``<base href>``).
        **options: fields of :class:`~unclutter.core.options.Options`
            (``extractor``, ``include_links``, ``include_images``, ``include_captions``, ``refine``,
            ``structured_data_fallback``, ``http_charset``, ``max_input_bytes``, and the
            ``summary*`` / ``strict`` options of :mod:`unclutter.summarize`).

    Returns:
        :class:`~unclutter.core.models.Article`.

    Raises:
        UsageError: an unknown option or value, or a ``url`` that is not an absolute http(s)
            URL (``None`` or ``""``: no URL).
        UnreadableInputError: empty, binary, oversized or too deeply nested input
            (subclasses say which).
        NoContentError: the page parsed but has no main content.
    """
    try:
        opts = Options(**options)
    except TypeError as exc:
        raise UsageError(f"bad option: {exc}") from None
    if url == "":
        url = None  # no URL, as often stored in datasets
    if url is not None and not (isinstance(url, str) and _ABSOLUTE_URL_RE.match(url) and _splits(url)):
        raise UsageError(f"url must be an absolute http(s) URL or None, got {url!r}"[:300])
    return run_pipeline(html, url, opts)


def _splits(url: str) -> bool:
    """Whether ``urllib`` can take ``url`` apart (a broken IPv6 host such as
    ``http://[::1`` cannot)."""
    try:
        urlsplit(url)
    except ValueError:
        return False
    return True


def extract_url(url: str, policy=None, **options) -> Article:
    """Fetch ``url`` through the SSRF-safe fetcher, then :func:`extract` it.

    Args:
        url: an absolute http(s) URL.
        policy: a :class:`unclutter.fetch.FetchPolicy` (safe defaults when ``None``).
        **options: as for :func:`extract` (``http_charset`` is taken from the response).

    Raises:
        PolicyError: the URL or an address it resolves to is refused by the policy.
        FetchError: the fetch failed (timeout, too large, not HTML, HTTP error...).
        plus everything :func:`extract` raises.
    """
    from .fetch import fetch

    page = fetch(url, policy)
    options.setdefault("http_charset", page.charset)
    return extract(page.content, url=page.final_url, **options)
