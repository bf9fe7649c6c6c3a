"""Extraction options: frozen, keyword-only, validated once."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UsageError
from .limits import MAX_INPUT_BYTES

__all__ = ["Options", "EXTRACTORS"]

#: Main-content extractors :func:`unclutter.extract` accepts.
EXTRACTORS = ("heuristic",)


@dataclass(frozen=True, kw_only=True)
class Options:
    """Options of :func:`unclutter.extract`.

    Attributes:
        extractor: which main-content extractor runs (see ``EXTRACTORS``).
        include_links: keep links as ``[text](url)``; when false only their text stays.
        include_images: keep images as ``![alt](url)``.
        structured_data_fallback: when the visible page has no article, use JSON-LD
            ``articleBody`` / ``__NEXT_DATA__`` text, labelled ``content_source =
            "structured-data"``.
        http_charset: charset from the HTTP Content-Type header, if the caller has one.
        max_input_bytes: inputs larger than this (bytes, or characters for ``str``)
            raise ``InputTooLargeError``.
    """

    extractor: str = "heuristic"
    include_links: bool = True
    include_images: bool = True
    structured_data_fallback: bool = True
    http_charset: str | None = None
    max_input_bytes: int = MAX_INPUT_BYTES

    def __post_init__(self) -> None:
        if self.extractor not in EXTRACTORS:
            raise UsageError(
                f"unknown extractor {self.extractor!r}; choose one of: {', '.join(EXTRACTORS)}"
            )
        if self.max_input_bytes <= 0:
            raise UsageError("max_input_bytes must be positive")
