"""unclutter: any web page in, a clean, safe, LLM-ready reader view out.

Public surface::

    unclutter.extract(html, url=None, **options) -> Article
    unclutter.extract_url(url, policy=None, **options) -> Article
    unclutter.chunk(article, max_tokens=8000) -> list[Chunk]   (token-budget chunks)
    unclutter.extract_many(sources, workers=None, ...) -> Iterator[dict]   (batch records)
    unclutter.Article, unclutter.TocEntry, unclutter.Options
    unclutter.RenderOptions  (render="auto"/"always": deadline, caps, wait)
    unclutter.errors  (the exception tree; see unclutter.core.errors)
"""

from . import errors
from .core.errors import NoContentError, UnclutterError
from .core.models import Article, TocEntry
from .core.options import Options, RenderOptions
from .pipeline import extract, extract_url
from .structure.chunk import DEFAULT_MAX_TOKENS, Chunk
from .structure.chunk import chunk as _chunk_markdown

__all__ = [
    "extract",
    "extract_url",
    "chunk",
    "extract_many",
    "Chunk",
    "Article",
    "TocEntry",
    "Options",
    "RenderOptions",
    "errors",
    "UnclutterError",
    "NoContentError",
]
__version__ = "0.1.0"


def extract_many(sources, **kwargs):
    """Many pages in, one record (a flat dict) per page out, extracted in worker processes:
    :func:`unclutter.batch.extract_many` (arguments, order, errors as there)."""
    from .batch import extract_many as _extract_many

    return _extract_many(sources, **kwargs)


def chunk(article, max_tokens: int | str = DEFAULT_MAX_TOKENS, *, language: str | None = None,
          topics: bool = True, embed=None) -> list[Chunk]:
    """Token-budget chunks of an article's Markdown: :func:`unclutter.structure.chunk.chunk`
    (arguments, return value and errors as there), with the sections cut at topic shifts
    titled by their one-sentence extractive summary
    (:func:`unclutter.summarize.titles.title_from_text`)."""
    from .summarize.titles import title_from_text

    return _chunk_markdown(article, max_tokens, language=language, topics=topics, embed=embed,
                           title=title_from_text)
