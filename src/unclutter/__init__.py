"""unclutter: any web page in, a clean, safe, LLM-ready reader view out.

Public surface::

    unclutter.extract(html, url=None, **options) -> Article
    unclutter.extract_url(url, policy=None, **options) -> Article
    unclutter.chunk(article, max_tokens=8000) -> list[Chunk]   (token-budget chunks)
    unclutter.Article, unclutter.TocEntry, unclutter.Options
    unclutter.errors  (the exception tree; see unclutter.core.errors)
"""

from . import errors
from .core.errors import NoContentError, UnclutterError
from .core.models import Article, TocEntry
from .core.options import Options
from .pipeline import extract, extract_url
from .structure.chunk import Chunk, chunk

__all__ = [
    "extract",
    "extract_url",
    "chunk",
    "Chunk",
    "Article",
    "TocEntry",
    "Options",
    "errors",
    "UnclutterError",
    "NoContentError",
]
__version__ = "0.1.0"
