"""Request and response schemas of the service (pydantic models), and the request options
that map onto :func:`unclutter.extract`.

The response models document the JSON answer in the OpenAPI document; the answer itself is
``Article.to_dict()`` (:mod:`unclutter.server.view`).
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

import unclutter

__all__ = [
    "EXTRACT_OPTION_FIELDS",
    "MAX_URL_CHARS",
    "ARTICLE_RESPONSE",
    "Format",
    "ReadOptions",
    "ReadQuery",
    "ReadBody",
    "TocEntryDoc",
    "ArticleDoc",
    "Health",
    "accepted_options",
]

#: Request fields passed to :func:`unclutter.extract` under the same name, when this
#: build's extract accepts them (see :func:`accepted_options`).
EXTRACT_OPTION_FIELDS = ("extractor", "include_links", "include_images", "include_captions", "refine", "search_date",
                         "styles", "target_selector", "remove_selector", "min_confidence",
                         "summary",
                         "summary_backend",
                         "summary_sentences", "summary_words", "section_summary_sentences", "strict",
                         "explain")

#: Longest URL accepted, in characters.
MAX_URL_CHARS = 8192

#: The answer formats (``format=`` or the Accept header).
Format = Literal["json", "markdown", "text", "html"]


def accepted_options() -> frozenset[str]:
    """Keyword options :func:`unclutter.extract` accepts in this build: its explicit
    keyword parameters and the fields of :class:`unclutter.Options`."""
    names = {f.name for f in dataclasses.fields(unclutter.Options)}
    for p in inspect.signature(unclutter.extract).parameters.values():
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name not in ("html", "url"):
            names.add(p.name)
    return frozenset(names)


class ReadOptions(BaseModel):
    """Options shared by ``GET /read`` (query) and ``POST /read`` (JSON)."""

    model_config = ConfigDict(extra="forbid")

    format: Format | None = Field(None, description="Output format; overrides the Accept header.")
    extractor: str | None = Field(None, description="Main-content extractor: auto (default: heuristic or gbdt per page, "
                                                  "the heuristic's selection refined), heuristic, cetd, gbdt or gnn.")
    include_links: bool = Field(True, description="Keep links as `[text](url)`; false keeps the text only.")
    include_images: bool = Field(True, description="Keep images as `![alt](url)`.")
    include_captions: bool | None = Field(None, description="Keep figure captions (default true); false drops them.")
    refine: bool | None = Field(None, description="auto: clean the heuristic's selection with the learned "
                                                  "classifier (default true); false is about 1 ms a page faster.")
    search_date: bool | None = Field(None, description="When the markup states no publication date, look for one "
                                                       "in the URL and visible text (default true).")
    styles: Literal["cascade", "inline"] | None = Field(
        None, description="What decides hidden text: the page's stylesheets and style attributes (cascade, "
                          "default) or style attributes alone (inline: about 1.6x the pages/s).")
    target_selector: str | None = Field(
        None, max_length=1000, description="CSS selector of the page's main content: the elements it matches are "
                                           "the article (clutter and hidden text still removed); 422 "
                                           "`target_not_found` when none matches.")
    remove_selector: str | None = Field(
        None, max_length=1000, description="CSS selector of elements removed before anything reads the page.")
    min_confidence: float | None = Field(
        None, ge=0, le=1, description="422 `low_confidence` when the extraction's confidence is under this.")
    explain: bool = Field(False, description="JSON only: add `removed` and `trace` (what was cut and why).")
    summary: bool | None = Field(
        None, description="Summarise the article and each section (builds with summaries; off by default).")
    summary_backend: str | None = Field(
        None, description="Summary backend; only those the service enables (default `extractive`).")
    summary_sentences: int | None = Field(None, ge=1, description="Length of the page summary, in sentences.")
    summary_words: int | None = Field(None, ge=1, description="Length of the page summary in words instead.")
    section_summary_sentences: int | None = Field(
        None, ge=1, description="Length of each section's summary, in sentences.")
    strict: bool | None = Field(
        None, description="Drop summary sentences with numbers, dates or names the page does not contain.")
    render: Literal["never", "auto", "always"] | None = Field(
        None, description="Run the page's scripts in headless Chromium first (services started with "
                          "--allow-render): auto renders only JavaScript shells. Default never.")
    wait_for: str | None = Field(None, max_length=1000, description="Rendering: take the page once an element "
                                                                     "matches this CSS selector.")
    wait_seconds: float | None = Field(None, ge=0, le=60, description="Rendering: wait this long after the page "
                                                                      "has loaded instead.")
    max_tokens: int | str | None = Field(
        None, description="JSON only: add `chunks` packed into this many tokens (builds with chunking): a "
                          "number, thousands written `4k`, or a preset (`8k`, `16k`), as the CLI's `--chunks`.")


class ReadQuery(ReadOptions):
    url: str = Field(..., min_length=1, max_length=MAX_URL_CHARS, description="The page to fetch (http/https).")


class ReadBody(ReadOptions):
    url: str | None = Field(
        None, max_length=MAX_URL_CHARS,
        description="The page to fetch; with `html`, the page's address (base for relative links).")
    html: str | None = Field(None, description="The page's HTML; when given, nothing is fetched.")

    @model_validator(mode="after")
    def _needs_source(self) -> ReadBody:
        if not self.url and self.html is None:
            raise ValueError("give `url`, or `html` (with an optional `url`)")
        return self


class TocEntryDoc(BaseModel):
    level: int
    title: str
    anchor: str
    offset: int = Field(description="Character offset of the heading in `markdown`.")
    summary: str | None = Field(None, description="Section summary (when summaries are on).")


class ArticleDoc(BaseModel):
    """The JSON answer: ``Article.to_dict()`` (documentation only; more fields may come)."""

    model_config = ConfigDict(extra="allow")

    title: str | None
    byline: str | None
    date_published: str | None
    date_modified: str | None
    site_name: str | None
    language: str | None
    canonical_url: str | None
    lead_image: str | None
    excerpt: str | None
    page_type: str | None = Field(None, description="What the page says it is (JSON-LD type, else og:type): article, product, faq, forum...")
    url: str | None
    markdown: str = Field(description="GitHub-flavoured Markdown, starting with `# title` when known.")
    text: str
    toc: list[TocEntryDoc]
    word_count: int
    reading_time_min: float
    tokenizer: str
    tokens_raw: int
    tokens_clean: int
    content_source: str
    extractor: str
    confidence: float | None = Field(None, description="How far to trust the extraction, 0-1: the calibrated "
                                     "probability that the main text's AEB F1 is at least 0.8.")
    confidence_reasons: list[str] = Field(default_factory=list, description="Why the confidence is low, if it is.")
    summary: str | None = Field(None, description="Whole-article summary (when summaries are on).")
    chunks: list[dict] | None = Field(None, description="With `max_tokens`: the token-budgeted chunks.")


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    jobs_running_max: int
    jobs_in_flight: int


#: OpenAPI ``responses`` entry of the article endpoints: the JSON model and the other media types.
ARTICLE_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {
        "model": ArticleDoc,
        "description": "The article: JSON (default), Markdown, plain text or the reader-view HTML page, "
                       "chosen by `format` or the Accept header.",
        "content": {
            "text/markdown": {"schema": {"type": "string"}},
            "text/plain": {"schema": {"type": "string"}},
            "text/html": {"schema": {"type": "string"}},
        },
    }
}

