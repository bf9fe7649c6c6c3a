"""Titles for the sections that topic segmentation cuts out of a heading-less page
(:mod:`unclutter.structure.topics`): each is its section's one-sentence extractive summary.
"""

from __future__ import annotations

__all__ = ["title_from_text", "TITLE_MAX_WORDS"]

#: Longest generated section title, in words.
TITLE_MAX_WORDS = 8


def title_from_text(text: str, language: str | None = None) -> str:
    """A short title for a generated section: its one-sentence extractive summary, cut to
    :data:`TITLE_MAX_WORDS` words (an ellipsis marks a cut), trailing punctuation removed."""
    from ..reconstruct.plaintext import markdown_to_text
    from .extractive import ExtractiveSummarizer

    plain = markdown_to_text(text)
    sent = ExtractiveSummarizer().summarize(plain, max_sentences=1, language=language).text or plain
    words = sent.split()
    title = " ".join(words[:TITLE_MAX_WORDS]).rstrip(" .,;:!?-—")
    if len(words) > TITLE_MAX_WORDS:
        title += "…"
    return title or "Section"
