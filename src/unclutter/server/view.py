"""Presentation: which format a client wants, and an Article in that format.

Formats and media types (:data:`MEDIA_TYPES`): ``json`` (``Article.to_dict()``, plus
``chunks`` when a token budget is asked for), ``markdown`` (``Article.markdown``), ``text``
(``Article.text``) and ``html``, the reader page. The reader page's article body is
rendered **from the Markdown** by :func:`unclutter.render.htmlview.markdown_to_html`
(markdown-it-py, raw HTML disabled, safe link schemes only), never from the source page;
every other value goes through Jinja2's autoescaping.

Summaries are shown when the Article carries them (``article.summary`` and
``entry.summary`` of TOC entries, read with ``getattr`` so this works with builds that
have no summaries).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, is_dataclass
from functools import lru_cache
from importlib import resources

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ..core.models import Article
from ..render.htmlview import markdown_to_html
from ..render.summary import with_summary

__all__ = [
    "FORMATS",
    "MEDIA_TYPES",
    "PAGE_CSP",
    "DATA_CSP",
    "negotiate",
    "render",
    "render_page",
    "reader_stylesheet",
    "article_view",
]

#: Output formats and their media types.
MEDIA_TYPES: dict[str, str] = {
    "json": "application/json",
    "markdown": "text/markdown; charset=utf-8",
    "text": "text/plain; charset=utf-8",
    "html": "text/html; charset=utf-8",
}
FORMATS = tuple(MEDIA_TYPES)

#: Accept-header media types -> format.
_ACCEPT_FORMATS: dict[str, str] = {
    "application/json": "json",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "text/plain": "text",
    "text/html": "html",
    "application/xhtml+xml": "html",
}

#: Content-Security-Policy of every HTML page: our own stylesheets and fonts, remote images
#: in the article, forms posting back here; no script, frame, plugin or base change.
PAGE_CSP = (
    "default-src 'none'; style-src 'self'; font-src 'self'; img-src https: http:; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)

#: The reader page's text face, shipped by the ``font-source-serif-pro`` package (Adobe's
#: Source Serif, SIL Open Font License 1.1) and served from ``/static/fonts/``: file name
#: -> (font-style, font-weight) for the ``@font-face`` rules in ``static/page.css``.
READER_FONT_FILES = {
    "SourceSerifPro-Regular.ttf": ("normal", 400),
    "SourceSerifPro-It.ttf": ("italic", 400),
    "SourceSerifPro-Semibold.ttf": ("normal", 600),
}

#: Content-Security-Policy of every other answer (JSON, Markdown, text, errors).
DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"

_DATE_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})")


def negotiate(accept: str | None, default: str) -> str:
    """The format named by an ``Accept`` header, or ``default``.

    The acceptable media type with the highest ``q`` wins (the first listed on a tie); a
    wildcard (``*/*``, ``text/*``), an absent header or nothing we produce gives
    ``default``. ``q=0`` excludes a type.
    """
    if not accept:
        return default
    best: tuple[float, int, str] | None = None
    for index, part in enumerate(accept.split(",")):
        media, *params = [p.strip() for p in part.split(";")]
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        media = media.lower()
        fmt = _ACCEPT_FORMATS.get(media) or (default if media in ("*/*", "text/*") else None)
        if fmt is None or q <= 0:
            continue
        if best is None or q > best[0]:
            best = (q, index, fmt)
    return best[2] if best else default


def _plain(value: object) -> object:
    if is_dataclass(value) and not isinstance(value, type):
        return value.to_dict() if hasattr(value, "to_dict") else asdict(value)
    return value


def render(article: Article, fmt: str, *, chunks: list | None = None, explain: bool = False,
           page: dict | None = None) -> str:
    """``article`` in ``fmt`` (a key of :data:`MEDIA_TYPES`).

    Args:
        chunks: chunks to add to the JSON as ``"chunks"`` (dataclasses or dicts).
        explain: JSON only: include ``removed`` and ``trace``.
        page: extra template values for the HTML page (``api_key_required``...).
    """
    if fmt == "markdown":
        return with_summary(article, fmt, article.markdown)
    if fmt == "text":
        return with_summary(article, fmt, article.text if article.text.endswith("\n") else article.text + "\n")
    if fmt == "html":
        return render_page("article.html", view=article_view(article), **(page or {}))
    data = article.to_dict(explain=explain)
    if chunks is not None:
        data["chunks"] = [_plain(c) for c in chunks]
    return json.dumps(data, ensure_ascii=False, default=str)


def _summary_text(value: object) -> str | None:
    """A summary as display text: a str as is, else its ``text`` attribute, else None."""
    if value is None:
        return None
    if isinstance(value, str):
        return value.strip() or None
    text = getattr(value, "text", None)
    return text.strip() if isinstance(text, str) and text.strip() else None


@dataclass
class TocItem:
    level: int
    title: str
    anchor: str | None  # None: a generated section (a topic shift), no heading to link to
    summary: str | None


@dataclass
class ArticleView:
    """What the reader page shows, every value plain text (escaped by the template)
    except ``body_html``, which :func:`markdown_to_html` made from our Markdown."""

    title: str | None
    title_anchor: str | None
    byline: str | None
    date_iso: str | None
    date_display: str | None
    site_name: str | None
    reading_minutes: int
    word_count: int
    summary: str | None
    toc: list[TocItem]
    body_html: Markup
    source_url: str | None
    language: str | None
    content_source: str


def article_view(article: Article) -> ArticleView:
    """The reader page's view of ``article``: the title line of the Markdown becomes the
    page heading, the rest is rendered with the TOC's anchors as heading ids."""
    markdown = article.markdown
    toc = list(article.toc)
    title_anchor = None
    if article.title and toc and toc[0].offset == 0 and toc[0].level == 1:
        first_line_end = markdown.find("\n")
        markdown = "" if first_line_end < 0 else markdown[first_line_end + 1:]
        title_anchor = toc[0].anchor
        toc = toc[1:]
    body = markdown_to_html(markdown, [t.anchor for t in toc if not getattr(t, "generated", False)])
    date = article.date_published
    m = _DATE_RE.match(date or "")
    url = article.url if article.url and article.url.lower().startswith(("http://", "https://")) else None
    return ArticleView(
        title=article.title,
        title_anchor=title_anchor,
        byline=article.byline,
        date_iso=m.group(1) if m else None,
        date_display=(m.group(1) if m else date),
        site_name=article.site_name,
        reading_minutes=max(1, round(article.reading_time_min)),
        word_count=article.word_count,
        summary=_summary_text(getattr(article, "summary", None)),
        toc=[TocItem(t.level, t.title, None if getattr(t, "generated", False) else t.anchor,
                     _summary_text(getattr(t, "summary", None))) for t in toc],
        body_html=Markup(body),
        source_url=url,
        language=article.language,
        content_source=article.content_source,
    )


@lru_cache(maxsize=1)
def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("unclutter.server", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_page(template: str, **values: object) -> str:
    """Render one of the package's templates (``index.html``, ``article.html``,
    ``error.html``) with autoescaping."""
    return _environment().get_template(template).render(**values)


@lru_cache(maxsize=1)
def reader_stylesheet() -> str:
    """The article typography shared with ``unclutter --format html``
    (``unclutter/render/reader.css``)."""
    return resources.files("unclutter.render").joinpath("reader.css").read_text("utf-8")
