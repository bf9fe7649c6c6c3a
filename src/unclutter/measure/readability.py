"""Readability indices: reading ease in the text's language, Flesch-Kincaid Grade Level, Gunning Fog.

The public home of :func:`readability`. The formulas, their sources and the counting rules
live in :mod:`unclutter.text.readability`, below the stages: the summaries use them before
this last stage runs (the extractive backend prefers simpler sentences, and refinement
rewrites a summary until it reads easily).
"""

from __future__ import annotations

from ..text.readability import (
    FKGL_OFFSET,
    FKGL_SYLLABLES_PER_WORD,
    FKGL_WORDS_PER_SENTENCE,
    FOG_SCALE,
    FRE_BASE,
    FRE_SYLLABLES_PER_WORD,
    FRE_WORDS_PER_SENTENCE,
    READING_EASE_FORMULAS,
    Readability,
    ReadingEaseFormula,
    count_syllables,
    detect_language,
    readability,
    readability_language,
    reading_ease_formula,
    split_words,
)

__all__ = [
    "Readability",
    "readability",
    "detect_language",
    "readability_language",
    "reading_ease_formula",
    "READING_EASE_FORMULAS",
    "ReadingEaseFormula",
    "count_syllables",
    "split_words",
    "FRE_BASE",
    "FRE_WORDS_PER_SENTENCE",
    "FRE_SYLLABLES_PER_WORD",
    "FKGL_WORDS_PER_SENTENCE",
    "FKGL_SYLLABLES_PER_WORD",
    "FKGL_OFFSET",
    "FOG_SCALE",
]
