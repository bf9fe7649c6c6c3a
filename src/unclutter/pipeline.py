"""The one place where the stages are composed.

::

    bytes/str ─1 decode─▶ str ─2 parse─▶ ParsedPage ─3 metadata─▶ Metadata
                                          │
                                          └─4 prune─▶ PruneResult ─5 select─▶ Selection
                                                                          │
      Article ◀─8 measure (tokens, words)─ TOC ◀─7 toc─ Markdown ◀─6 reconstruct─┘
         └─9 summarize (only with ``Options.summary``; unclutter.summarize)

1. decode (:mod:`unclutter.parse.decode`): bytes sniffed to text, or text checked;
2. parse (:func:`unclutter.prune.clean.parse_for_pruning`): the HTML5 tree and base URL;
3. metadata (:mod:`unclutter.parse.metadata`): title, byline, dates, declared page type...;
4. prune (:mod:`unclutter.prune`): non-content and hidden elements go;
5. select (:mod:`unclutter.route`): the heuristic (:mod:`unclutter.score.select`) or a learned
   extractor (:mod:`unclutter.classify`) by ``Options.extractor``; ``auto``, the default,
   picks one per page and refines the heuristic's selection: that cascade and its
   thresholds are :mod:`unclutter.route`;
6. reconstruct (:mod:`unclutter.reconstruct`): the selection as Markdown, and plain text;
7. toc (:mod:`unclutter.structure.toc`); 8. measure: tokens (:mod:`unclutter.core.tokens`),
   words and reading time (:mod:`unclutter.measure.counts`); 9. summarize, when asked.

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
import re
from dataclasses import replace
from urllib.parse import urlsplit

from .core.errors import InputTooLargeError, LowConfidenceError, NoContentError, UsageError
from .core.models import Article, Metadata
from .core.options import Options
from .core.tokens import TOKENIZER_NAME, count_tokens
from .measure.confidence import LOW_KEPT_CHARS, SHELL_KEPT_MAX_WORDS, confidence_signals, page_confidence
from .measure.counts import count_words, reading_minutes
from .parse.decode import decode_html, gunzip_page
from .parse.focus import focus_html
from .parse.html import ParsedPage, parse_html
from .parse.metadata import (
    extract_metadata,
    link_base,
    page_byline,
    script_date,
    search_date,
    settle_title,
    structured_article_body,
)
from .prune.clean import parse_for_pruning, prune, strip_invisible, styled_hidden
from .reconstruct.document import plain_text_markdown, title_heading
from .reconstruct.markdown import markdown_to_text, to_markdown
from .route import auto_reads_byline, js_shell, repruner, select
from .structure.toc import build_toc

#: Declared page kinds on which a publication date in script data is taken
#: (:func:`~unclutter.parse.metadata.script_date`): on products, listings and service pages
#: such keys date catalogue entries, not the page (wcxb-dev: 28 undated pages dated on all
#: pages against 2 more right dates).
SCRIPT_DATE_PAGE_TYPES = frozenset({"article", "forum"})

__all__ = ["extract", "extract_url", "run_pipeline", "STRUCTURED_FALLBACK_MAX_CHARS"]

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
    if options.render in ("auto", "always"):
        return _extract_rendered(data, url, options)
    if not gc.isenabled():
        return _run_pipeline(data, url, options)
    gc.disable()
    try:
        return _run_pipeline(data, url, options)
    finally:
        gc.enable()
        gc.collect(0)


def _view_metadata(meta: Metadata, page: ParsedPage, view: ParsedPage) -> Metadata:
    """``meta`` for the scripting-disabled ``view`` of ``page``: when the view holds other
    microdata (a thread's ``DiscussionForumPosting`` items inside ``<noscript>``, as forum
    software serves its crawler view), the page type is the view's, and the byline and
    dates ``meta`` lacks are taken from the view; every other field as ``meta`` has it."""
    if view.microdata_types == page.microdata_types:
        return meta
    declared = extract_metadata(view, article_body=False)
    changes: dict = {}
    sources = dict(meta.sources)
    if declared.page_type != meta.page_type:
        changes["page_type"] = declared.page_type
        sources.pop("page_type", None)
        if declared.page_type is not None:
            sources["page_type"] = declared.sources.get("page_type", "")
    for name in _VIEW_FILLED_FIELDS:
        if getattr(meta, name) is None and getattr(declared, name) is not None:
            changes[name] = getattr(declared, name)
            sources[name] = declared.sources.get(name, "")
    return replace(meta, sources=sources, **changes) if changes else meta


#: Fields of :class:`Metadata` the scripting-disabled view fills when the page's own view
#: states none (:func:`_view_metadata`).
_VIEW_FILLED_FIELDS = ("byline", "date_published", "date_modified")


def _run_pipeline(data: str | bytes, url: str | None, options: Options) -> Article:
    trace: list[str] = []
    html, utf8 = _decode(data, options)
    source_html = html
    focus_removed: list = []
    styles = options.styles
    if options.target_selector or options.remove_selector:
        # the page's styles are judged here, on the whole page: on the reduced page a sibling
        # or position rule (h2 + p, :nth-child) would read other neighbours, so from here on
        # only style attributes count (they read no context)
        styles = "inline"
        focused = focus_html(html, options.target_selector, options.remove_selector, log=options.explain,
                             hidden=styled_hidden(html, options.styles))
        html, utf8, focus_removed = focused.html, None, focused.removals
        trace.append("focus: " + "; ".join(
            ([f"the remove selector removed {focused.removed} elements"] if options.remove_selector else [])
            + ([f"the target selector matched {focused.targets}"] if options.target_selector else [])))
    log = options.explain  # keep the removal log (Article.removed) only when asked
    page: ParsedPage = parse_for_pruning(html, url, utf8=utf8, report_skipped=log, styles=styles)
    trace.append(f"parse: base URL {page.base_url!r}")
    if options.styles == "inline":
        trace.append("parse: styles inline: style attributes decide hidden text, the stylesheets are not read")
    # The structured-data body (JSON-LD / __NEXT_DATA__) is only decoded when needed below,
    # but it must be read before pruning removes the <script> elements that hold it.
    meta: Metadata = extract_metadata(page, article_body=False)
    fallback_body = None
    if options.structured_data_fallback and not options.target_selector:
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
    if meta.date_published is None and meta.page_type in SCRIPT_DATE_PAGE_TYPES:
        found = script_date(html)
        if found is not None:
            meta.date_published = found
            meta.sources["date_published"] = "script data"
    if options.search_date and meta.date_published is None:
        # (the visible page: before the selection edits it)
        # the visible text's first written date too, on every page: on wcxb-dev it finds the
        # date of 0.022 more dated pages and gives one to 0.021 more undated ones
        found = search_date(pruned.root, url, meta.date_modified, extensive=True)
        if found is not None:
            meta.date_published = found
            meta.sources["date_published"] = "htmldate (URL, visible text)"
            trace.append("metadata: date_published from htmldate (URL, visible text) after pruning")
    if log and meta.sources.get("title") != title_source:
        trace.append(f"metadata: title from {meta.sources.get('title') or 'nowhere'} after pruning")
    selection = select(pruned, options, meta, url, html, repruner(html, url, utf8, True, styles), shown_byline)
    trace.extend("select: " + line for line in selection.attempts)
    if selection.chars < STRUCTURED_FALLBACK_MAX_CHARS and _NOSCRIPT_RE.search(html):
        # Scripting-disabled view: what a browser without JavaScript (like our fetcher)
        # renders, <noscript> content included. Same prune rules; kept only if better.
        page2 = parse_for_pruning(html, url, scripting=False, report_skipped=log, styles=styles)
        meta2 = _view_metadata(meta, page, page2)
        pruned2 = prune(page2, log=log)
        selection2 = select(pruned2, options, meta2, url, html, repruner(html, url, None, False, styles), shown_byline)
        trace.append(f"fallback: scripting-disabled view (<noscript> shown) gives {selection2.chars} chars")
        if selection2.chars > selection.chars and selection2.chars >= STRUCTURED_FALLBACK_MAX_CHARS:
            page, pruned, selection, meta = page2, pruned2, selection2, meta2
            trace.extend("select: " + line for line in selection.attempts)

    title = meta.title
    # (the address the caller gives is the page's: its canonical URL only stands in for it)
    base_url = page.base_url if url else link_base(page.base_url, meta.canonical_url)
    if base_url != page.base_url:
        trace.append(f"reconstruct: links resolve against the canonical URL {base_url!r}")
    body_md = to_markdown(
        selection.root, base_url, title=title,
        include_links=options.include_links, include_images=options.include_images,
        include_captions=options.include_captions,
    )
    text = markdown_to_text(body_md)
    content_source = "dom"
    visible_chars = len(text.strip())
    structured = fallback_body() if fallback_body and visible_chars < STRUCTURED_FALLBACK_MAX_CHARS else None
    if structured and len(structured[0]) > visible_chars:
        body_md = plain_text_markdown(strip_invisible(structured[0]))
        text = markdown_to_text(body_md)
        content_source = "structured-data"
        trace.append(f"fallback: visible page had {visible_chars} chars; used {structured[1]} text")
    if not any(ch.isalnum() for ch in text):
        exc = NoContentError("no main content found: the page has no readable article text")
        exc.trace = trace  # what each stage decided, for --explain
        exc.removed = focus_removed + pruned.removed + selection.removed
        raise exc

    excerpt = meta.excerpt
    if not excerpt:
        excerpt = _first_paragraph(text)
        if excerpt:
            trace.append("metadata: excerpt from the first paragraph of the main text")
    kept_chars = len(text.strip())
    # (asked only of a page that kept little: judging costs one more parse)
    short = kept_chars < LOW_KEPT_CHARS and len(text.split()) <= SHELL_KEPT_MAX_WORDS
    shell = short and not options.target_selector and js_shell(html).is_shell
    signals = confidence_signals(kept_chars, pruned.chars or 0, html, content_source != "dom",
                                 selection.rival_share, shell, text if kept_chars < LOW_KEPT_CHARS else "")
    confidence, reasons = page_confidence(signals)
    trace.append(f"confidence: {confidence:.2f}" + (f" ({'; '.join(reasons)})" if reasons else ""))
    if confidence < options.min_confidence:
        exc = LowConfidenceError(f"low confidence: {confidence:.2f}, under the minimum {options.min_confidence:g}"
                                 + (f" ({'; '.join(reasons)})" if reasons else ""))
        exc.trace = trace
        exc.removed = focus_removed + pruned.removed + selection.removed
        raise exc
    markdown = (title_heading(title) if title else "") + body_md
    toc = build_toc(markdown)
    words, cjk = count_words(text)
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
        reading_time_min=reading_minutes(words, cjk),
        tokenizer=TOKENIZER_NAME,
        content_source=content_source,
        extractor="target" if options.target_selector else options.extractor,
        removed=focus_removed + pruned.removed + selection.removed,
        trace=trace,
        source_html=source_html,
        _counter=count_tokens,
        confidence=confidence,
        confidence_reasons=reasons,
        confidence_signals=signals,
    )
    if options.summary:
        from .summarize import summarize_article

        summarize_article(article, options)
        trace.append(f"summarize: {article.summary_backend}, {len(article.summary_warnings)} grounding warnings")
    return article


def extract(html: str | bytes, url: str | None = None, **options) -> Article:
    """Extract the main content of one page.

    Args:
        html: the page as bytes (encoding sniffed: BOM, ``http_charset``, ``<meta>``,
            detection) or as already-decoded text.
        url: the page's absolute URL; relative links and images resolve against it (and
            against ``<base href>``).
        **options: fields of :class:`~unclutter.core.options.Options`
            (``extractor``, ``include_links``, ``include_images``, ``include_captions``, ``refine``,
            ``target_selector`` / ``remove_selector`` (CSS: the main content / elements removed
            first; :mod:`unclutter.parse.focus`),
            ``structured_data_fallback``, ``http_charset``, ``max_input_bytes``, the
            ``summary*`` / ``strict`` options of :mod:`unclutter.summarize`, ``render``
            (``"auto"`` / ``"always"``: render the page in headless Chromium first, served
            at ``url``; every request it makes passes ``render_policy``: see
            :mod:`unclutter.fetch.browser`), ``render_options``, ``render_policy``, and
            ``ablation``, the switches of experiments: :class:`~unclutter.core.options.Ablation`).

    Returns:
        :class:`~unclutter.core.models.Article` (``render`` says how it was rendered).

    Raises:
        UsageError: an unknown option or value, or a ``url`` that is not an absolute http(s)
            URL (``None`` or ``""``: no URL).
        UnreadableInputError: empty, binary, oversized or too deeply nested input
            (subclasses say which).
        NoContentError: the page parsed but has no main content (``TargetNotFoundError``:
            ``target_selector`` matches nothing).
        RenderUnavailableError, RenderError, FetchError, PolicyError: with
            ``render="always"`` only, when rendering fails (``auto`` falls back to the
            page as given and says so in ``Article.render``).
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


def _extract_rendered(data: str | bytes, url: str | None, opts: Options) -> Article:
    """Stage 0, rendering (``opts.render`` ``auto`` or ``always``), then every other stage
    on the rendered DOM, or on ``data`` as given when it is not rendered. ``auto`` renders a
    JavaScript shell (:func:`unclutter.route.js_shell`), and a page whose served HTML
    yields almost no main text although it has scripts
    (:func:`unclutter.route.render_after_extraction`)."""
    from .route import js_shell, render_after_extraction

    text, _ = _decode(data, opts)  # checked (empty, binary, size) before any browser starts
    mode = opts.render
    plain = replace(opts, render="never")
    info: dict = {"mode": mode, "rendered": False}
    if mode == "auto":
        verdict = js_shell(text)
        info["reason"] = verdict.reason
        do_render = verdict.is_shell
    else:
        verdict = None
        info["reason"] = "rendering asked for (always)"
        do_render = True
    if not do_render:
        assert verdict is not None
        try:
            article = run_pipeline(data, url, plain)
        except NoContentError as exc:
            if not render_after_extraction(0, verdict):
                exc.trace = _render_trace(info) + list(exc.trace or [])
                raise
        else:
            if not render_after_extraction(len(article.text.strip()), verdict):
                article.trace[:0] = _render_trace(info)
                article.render = info
                return article
        info["reason"] += f"; its served HTML gives almost no main text: rendered after all"
    data, url = _render_page(text, url, mode, opts, info)
    try:
        article = run_pipeline(data, url, plain)
    except NoContentError as exc:
        exc.trace = _render_trace(info) + list(exc.trace or [])
        if "error" in info:  # say why the shell was not rendered, not only that it is empty
            exc.args = (f"{exc} (the page looks like a JavaScript shell, and rendering it failed: {info['error']})",)
        raise
    article.trace[:0] = _render_trace(info)
    article.render = info
    return article


def _render_page(text: str, url: str | None, mode: str, opts: Options, info: dict) -> tuple[str, str | None]:
    """The page rendered (its serialized DOM and URL), ``info`` updated; on failure in
    ``auto`` mode the page as given (the error in ``info``)."""
    from .core.errors import FetchError, PolicyError
    from .fetch import FetchedPage
    from .fetch.browser import PLACEHOLDER_ORIGIN, render

    document = FetchedPage(url=url or PLACEHOLDER_ORIGIN, final_url=url or PLACEHOLDER_ORIGIN, status=200,
                           headers={}, content=text.encode("utf-8", "surrogatepass"), content_type="text/html",
                           charset="utf-8")
    try:
        page = render(document.url, policy=opts.render_policy, options=opts.render_options, document=document)
    except (FetchError, PolicyError) as exc:  # RenderError is a FetchError
        if mode == "always":
            raise
        info["error"] = str(exc)  # auto: the page as given is still extracted
        return text, url
    info.update(page.summary(), rendered=True)
    if url is not None and page.final_url.startswith(("http://", "https://")):
        url = page.final_url  # a script may have moved the page: its links resolve there
    return page.html, url


def _render_trace(info: dict) -> list[str]:
    """The render's lines of ``Article.trace`` (``--explain``)."""
    if not info["rendered"]:
        line = f"render ({info['mode']}): not rendered: {info['reason']}"
        return [line + (f"; rendering failed: {info['error']}" if "error" in info else "")]
    lines = [f"render ({info['mode']}): {info['reason']}; {info['requests']} requests, {info['bytes']} bytes, "
             f"{info['seconds']:.2f} s, {info['wait']}"
             + (f"; caps reached: {', '.join(info['capped'])}" if info["capped"] else "")]
    lines += [f"render: blocked {b['url']}: {b['reason']}" for b in info["blocked"]]
    marks = {k: v for k, v in info["hidden"].items() if k in ("display", "visibility", "opacity", "offscreen") and v}
    if marks:
        lines.append("render: hidden by computed style: " + ", ".join(f"{k} {v}" for k, v in marks.items()))
    return lines


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
        policy: a :class:`unclutter.fetch.FetchPolicy` (safe defaults when ``None``); a
            render's requests pass it too (it is the ``render_policy``).
        **options: as for :func:`extract` (``http_charset`` is taken from the response).
            ``render`` defaults to ``"auto"`` here: the page is rendered in headless
            Chromium when the served HTML is a JavaScript shell
            (:func:`unclutter.route.js_shell`); when the ``render`` extra is missing the
            served HTML is extracted and ``Article.render`` says why.

    Raises:
        PolicyError: the URL or an address it resolves to is refused by the policy.
        FetchError: the fetch failed (timeout, too large, not HTML, HTTP error...).
        RenderUnavailableError, RenderError: ``render="always"`` and rendering failed.
        plus everything :func:`extract` raises.
    """
    from .fetch import fetch

    if options.get("render") is None:
        options["render"] = "auto"
    options["render_policy"] = policy
    try:
        Options(**options)  # a bad option is refused before the page is fetched
    except TypeError as exc:
        raise UsageError(f"bad option: {exc}") from None
    page = fetch(url, policy)
    options.setdefault("http_charset", page.charset)
    return extract(page.content, url=page.final_url, **options)
