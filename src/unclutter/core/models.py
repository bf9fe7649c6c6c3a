"""Typed values passed between stages and returned to users.

Units: ``*_chars`` / ``offset`` are Python string indices (Unicode code points), never
bytes; ``tokens_*`` are counts of the tokenizer named in :mod:`unclutter.core.tokens`
(tiktoken ``cl100k_base``); ``reading_time_min`` is minutes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

__all__ = ["Metadata", "TocEntry", "Removal", "SummaryWarning", "Article"]


@dataclass
class Metadata:
    """Page metadata. Every field is ``None`` when the page does not state it.

    ``sources`` maps each filled field name to where it came from, e.g.
    ``{"title": "json-ld", "byline": "meta[name=author]"}``.
    """

    title: str | None = None
    byline: str | None = None
    date_published: str | None = None  # ISO 8601 as the page gives it, normalised when parseable
    date_modified: str | None = None
    site_name: str | None = None
    language: str | None = None  # BCP 47 tag, e.g. "en" or "pt-BR"
    canonical_url: str | None = None
    lead_image: str | None = None  # absolute URL
    excerpt: str | None = None
    #: what the page says it is: "article", "product", "faq", "forum", "recipe", "video",
    #: "webpage"... (schema.org type of its JSON-LD objects, else ``og:type``; see
    #: :data:`unclutter.parse.metadata.PAGE_KINDS`)
    page_type: str | None = None
    article_body: str | None = None  # JSON-LD articleBody, used only as a labelled fallback
    sources: dict[str, str] = field(default_factory=dict)


@dataclass
class TocEntry:
    """One heading of the article.

    Attributes:
        level: 1-6, the Markdown heading level.
        title: heading text (plain, no Markdown).
        anchor: GitHub-style unique slug (what ``#anchor`` links to in the HTML view).
        offset: character offset of the heading line's first ``#`` in ``Article.markdown``
            (for a generated entry: of the section's first paragraph).
        summary: one- or two-sentence summary of the section (only when summaries were
            asked for; see :mod:`unclutter.summarize`).
        summary_readability: readability of ``summary`` (``{"after": {...}, "before": ...,
            "rewrites": n, "refinement": ...}``; see ``Article.summary_readability``).
        generated: ``True`` for an entry made at a topic shift of a page without section
            headings (its title comes from its summary; no heading has its anchor).
    """

    level: int
    title: str
    anchor: str
    offset: int
    summary: str | None = None
    summary_readability: dict[str, Any] | None = None
    generated: bool = False


@dataclass
class Removal:
    """One pruning/selection decision, for ``--explain``: what went and why."""

    stage: str  # "prune" | "score" | "select"
    reason: str  # e.g. "hidden: inline display:none", "non-content tag", "link density 0.61"
    tag: str
    class_id: str
    chars: int  # characters of text removed
    preview: str  # first characters of the removed text


@dataclass
class SummaryWarning:
    """A fact in a summary that the source text does not contain (grounding check).

    Attributes:
        scope: ``"summary"`` (the page summary) or ``"toc:<anchor>"`` (a section summary).
        kind: ``"number"``, ``"date"`` or ``"name"``.
        value: the fact as written in the summary.
        sentence: the summary sentence holding it (dropped from the summary under ``strict``).
    """

    scope: str
    kind: str
    value: str
    sentence: str


@dataclass
class Article:
    """The result of :func:`unclutter.extract`.

    ``markdown`` is GitHub-flavoured Markdown that starts with ``# title`` when a title is
    known; ``text`` is the plain main text without the title line. ``toc`` offsets index
    into ``markdown``. ``content_source`` says where the main content came from: ``"dom"``
    (the visible page) or ``"structured-data"`` (JSON-LD ``articleBody`` /
    ``__NEXT_DATA__``, used only when the visible page has no article; see
    :mod:`unclutter.pipeline`).
    """

    title: str | None
    byline: str | None
    date_published: str | None
    date_modified: str | None
    site_name: str | None
    language: str | None
    canonical_url: str | None
    lead_image: str | None
    excerpt: str | None
    url: str | None
    markdown: str
    text: str
    toc: list[TocEntry]
    word_count: int
    reading_time_min: float
    tokenizer: str
    content_source: str = "dom"
    page_type: str | None = None  # Metadata.page_type: "article", "product", "forum"...
    extractor: str = "auto"
    removed: list[Removal] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    #: how far to trust the extraction, in [0, 1]: the calibrated probability that the main
    #: text's AEB F1 is at least 0.8 (:mod:`unclutter.measure.confidence`); ``None`` when
    #: not computed (a main text that does not come from the pipeline)
    confidence: float | None = None
    #: why the confidence is low (under 0.5), one short sentence each ("little text kept (120 characters)")
    confidence_reasons: list[str] = field(default_factory=list)
    #: the measurements the confidence is computed from (kept and page characters, script share...)
    confidence_signals: dict[str, float] = field(default_factory=dict)
    #: how the page was rendered in a browser, when rendering was asked for (``render=``):
    #: ``mode``, ``rendered``, ``reason``, and for a render its requests, bytes, blocked
    #: requests, caps, wait and hidden-text marks (:meth:`unclutter.fetch.browser.RenderedPage.summary`)
    render: dict[str, Any] | None = None
    #: page summary (only when asked for: ``Options.summary``); see :mod:`unclutter.summarize`
    summary: str | None = None
    #: backend that wrote ``summary`` (``"extractive"``, ``"openai"``...)
    summary_backend: str | None = None
    #: unsupported numbers/dates/names found in ``summary`` and the ToC summaries
    summary_warnings: list[SummaryWarning] = field(default_factory=list)
    #: reading ease of ``text`` by its language's formula (Flesch, Amstad, Fernández Huerta,
    #: Kandel-Moles, Flesch-Vacca), Flesch-Kincaid Grade and Gunning Fog (English), counts,
    #: ``language``, ``formula`` and ``applicable`` (false, with ``None`` figures, for a
    #: language with no formula); computed with summaries (:mod:`unclutter.measure.readability`)
    readability: dict[str, Any] | None = None
    #: readability of ``summary``: ``{"after": {...}, "before": {...} | None, "rewrites": n,
    #: "refinement": "rewrite" | "simpler-sentences" | None}``
    summary_readability: dict[str, Any] | None = None
    #: the decoded source HTML, kept so ``tokens_raw`` can be counted when first asked for
    source_html: str = field(default="", repr=False)
    _tokens: dict[str, int] = field(default_factory=dict, repr=False)
    _counter: Callable[[str], int] | None = field(default=None, repr=False)

    @property
    def tokens_raw(self) -> int:
        """Tokens of the decoded source HTML (``tokenizer``), counted on first access."""
        return self._count("raw", self.source_html)

    @property
    def tokens_clean(self) -> int:
        """Tokens of ``markdown`` (``tokenizer``), counted on first access."""
        return self._count("clean", self.markdown)

    def _count(self, key: str, text: str) -> int:
        if key not in self._tokens:
            if self._counter is None:
                from .tokens import count_tokens

                self._counter = count_tokens
            self._tokens[key] = self._counter(text)
        return self._tokens[key]

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        """JSON-ready dict of every public field plus ``tokens_raw``/``tokens_clean``;
        ``removed``/``trace`` only when ``explain`` is true."""
        d = asdict(self)
        for private in ("source_html", "_tokens", "_counter"):
            d.pop(private, None)
        d["tokens_raw"] = self.tokens_raw
        d["tokens_clean"] = self.tokens_clean
        if not explain:
            d.pop("removed")
            d.pop("trace")
        return d
