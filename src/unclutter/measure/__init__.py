"""Measurement: how well an extraction matches a ground truth.

:mod:`unclutter.measure.evaluate` holds the scoring used by the benchmark (``bench/run.py``):
the AEB shingle metric and the with/without snippet checks. It needs nothing beyond the
standard library, so it scores any extractor's output, ours or a rival's.
"""

from unclutter.measure.evaluate import (
    PageCounts,
    Scores,
    SnippetScores,
    SnippetSummary,
    aggregate,
    aggregate_snippets,
    bootstrap_std,
    evaluate,
    normalize_for_snippets,
    page_counts,
    shingles,
    snippet_scores,
    tokenize,
)

__all__ = [
    "PageCounts",
    "Scores",
    "SnippetScores",
    "SnippetSummary",
    "aggregate",
    "aggregate_snippets",
    "bootstrap_std",
    "evaluate",
    "normalize_for_snippets",
    "page_counts",
    "shingles",
    "snippet_scores",
    "tokenize",
]
