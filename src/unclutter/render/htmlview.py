"""The self-contained HTML reader view (``--format html``), rendered from our Markdown.

Safety by construction: the article HTML is produced **from the clean Markdown** (never
from the source page's HTML) by markdown-it-py in CommonMark mode with GFM tables and
``html=False`` (raw HTML in the Markdown is escaped, not passed through, but the exact
``<sub>``/``<sup>``/``<br>`` tags our Markdown writes), links are limited
to http(s)/mailto/fragment URLs and relative references, and the page carries a strict Content-Security-Policy
(no scripts at all, no frames, styles inline only, images from http(s) only). Headings get
``id`` attributes equal to the table-of-contents anchors
(:func:`unclutter.structure.toc.build_toc`).
"""

from __future__ import annotations

import html as html_lib
import re
from importlib import resources

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from ..core.models import Article
from ..reconstruct.rules import RAW_TAG_RE
from ..structure.toc import Slugger, heading_text

__all__ = ["render_article_html", "markdown_to_html", "CONTENT_SECURITY_POLICY"]

#: Sent as a <meta http-equiv> in the file (and as a header by the service): nothing but
#: our inline stylesheet and remote images may load; no script, frame, form or plugin.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

_SAFE_SCHEMES = ("http://", "https://", "mailto:", "#")
#: A URI scheme (RFC 3986 §3.1), read after dropping ASCII whitespace and controls (which
#: browsers ignore inside a scheme: "java\tscript:").
_SCHEME_RE = re.compile(r"^[a-z][a-z0-9+.-]*:")
_IGNORED_IN_URL_RE = re.compile(r"[\x00-\x20\x7f]+")


def _safe_link(url: str) -> bool:
    """Whether a link or image target may be rendered: http(s), mailto, a fragment, or a
    relative reference (no scheme: a page read without its address keeps ``/wiki/...``;
    rejected, markdown-it would print the Markdown source of the link instead)."""
    u = _IGNORED_IN_URL_RE.sub("", url).lower()
    return u.startswith(_SAFE_SCHEMES) or not _SCHEME_RE.match(u)




def _raw_sub_sup(state: StateInline, silent: bool) -> bool:
    """markdown-it inline rule, the only raw HTML rendered: an exact ``<sub>``, ``</sub>``,
    ``<sup>``, ``</sup>`` or ``<br>`` (:data:`unclutter.reconstruct.rules.RAW_TAG_RE`, what
    our Markdown writes) becomes that tag (with ``html=False`` every other ``<`` stays text; an escaped ``\\<sup>`` is
    consumed by the escape rule first and stays text)."""
    if state.src[state.pos] != "<":
        return False
    m = RAW_TAG_RE.match(state.src, state.pos)
    if m is None:
        return False
    if not silent:
        token = state.push("html_inline", "", 0)
        token.content = m.group(0)
    state.pos = m.end()
    return True


def _md() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.enable("strikethrough")
    md.inline.ruler.before("html_inline", "raw_sub_sup", _raw_sub_sup)
    md.validateLink = _safe_link  # type: ignore[method-assign]
    return md


def markdown_to_html(markdown: str, anchors: list[str] | None = None) -> str:
    """Render Markdown to an HTML fragment; headings get ``anchors`` in order (or
    GitHub-style slugs computed here when ``anchors`` is None or does not line up)."""
    md = _md()
    tokens = md.parse(markdown)
    slugger = Slugger()
    hi = 0
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            inline = tokens[i + 1]
            text = heading_text(inline.content)
            slug = slugger.slug(text)
            if anchors is not None and hi < len(anchors):
                slug = anchors[hi]
            tok.attrSet("id", slug)
            hi += 1
        elif tok.type == "inline" and tok.children:
            for child in tok.children:
                if child.type == "image":
                    child.attrSet("loading", "lazy")
                    child.attrSet("referrerpolicy", "no-referrer")
                elif child.type == "link_open":
                    child.attrSet("rel", "noopener noreferrer nofollow")
    return md.renderer.render(tokens, md.options, {})


def _css() -> str:
    return resources.files("unclutter.render").joinpath("reader.css").read_text("utf-8")


def render_article_html(article: Article) -> str:
    """A complete, self-contained HTML document for ``article`` (UTF-8, no external assets)."""
    e = html_lib.escape
    body_md = article.markdown
    # generated entries (topic shifts of a page without headings) have no heading to link to
    anchors = [t.anchor for t in article.toc if not getattr(t, "generated", False)]
    content = markdown_to_html(body_md, anchors)
    # as the service's reader page shows them: the date without its time, whole minutes
    date = article.date_published
    if date and len(date) > 10 and date[4:5] == "-" and date[10:11] in ("T", " "):
        date = date[:10]
    meta_bits = [x for x in (article.byline, article.site_name, date) if x]
    meta_bits.append(f"{max(1, round(article.reading_time_min))} min read")
    toc_html = ""
    entries = [t for t in article.toc if t.level > 1 or len(article.toc) == 1]
    if len(entries) > 1:
        items = "".join(
            (f'<li class="l{t.level}"><span class="generated">{e(t.title)}</span>' if getattr(t, "generated", False)
             else f'<li class="l{t.level}"><a href="#{e(t.anchor)}">{e(t.title)}</a>')
            + (f'<p class="section-summary">{e(t.summary)}</p>' if getattr(t, "summary", None) else "")
            + "</li>"
            for t in entries
        )
        toc_html = f'<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>{items}</ol></nav>'
    summary_html = ""
    summary = getattr(article, "summary", None)
    if summary:
        summary_html = f'<section class="summary" aria-label="Summary"><h2>Summary</h2><p>{e(summary)}</p></section>'
    source = ""
    if article.url and article.url.lower().startswith(("http://", "https://")):
        source = f'<p class="source">Source: <a href="{e(article.url)}" rel="noopener noreferrer nofollow">{e(article.url)}</a></p>'
    lang = f' lang="{e(article.language)}"' if article.language else ""
    return (
        "<!DOCTYPE html>\n"
        f"<html{lang}><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{e(article.title or 'Reader view')}</title>"
        f"<style>{_css()}</style></head><body><main class=\"reader\">"
        f'<p class="meta">{" · ".join(e(b) for b in meta_bits)}</p>'
        f"{summary_html}{toc_html}<article>{content}</article>{source}</main></body></html>\n"
    )
