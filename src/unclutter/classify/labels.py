"""Automatic unit labels: align a page's ground-truth text with the text of its units.

Used by training (``train/``) and by the label-reliability check; not at extraction time.

Method (:func:`align_labels`), per unit of a :class:`~unclutter.classify.features.PageGraph`
(the nearest block ancestor of a text node; its *own* text, nested blocks excluded), with
tokens = ``\\w+`` matches (the AEB tokenisation, :func:`unclutter.text.words.tokenize`):

* a unit of ``k >= LABEL_SHINGLE`` tokens: ``coverage`` = share of its
  ``LABEL_SHINGLE``-token shingles that occur in the ground truth's shingle set;
  content (1) when ``coverage >= LABEL_POS_COVERAGE`` (0.6), noise (0) when
  ``coverage <= LABEL_NEG_COVERAGE`` (0.2), unlabelled (-1) in between;
* a shorter unit (1-2 tokens: headings, short list items, "Share", "Home"): content when
  its token sequence equals a whole line of the ground truth, noise when one of its tokens
  does not occur in the ground truth at all, unlabelled otherwise;
* a unit without tokens (punctuation only): unlabelled.

The thresholds leave a gap so that a unit half in the ground truth (a paragraph the
annotator cut) does not teach either class.

Second, independent method (:func:`labels_from_html`, for the reliability check): the
ground truth is an HTML document (``expected_html``); its text is split into its own
blocks the same way (parse, prune nothing, units), and a unit is content when its
whitespace-collapsed, case-folded own text occurs as a whole-word substring of the
concatenated block texts (blocks separated by a newline, so no match spans two blocks),
noise otherwise. No tokens, no shingles, no thresholds: exact character matching.
"""

from __future__ import annotations

import numpy as np

from ..text.words import tokenize
from .constants import LABEL_NEG_COVERAGE, LABEL_POS_COVERAGE, LABEL_SHINGLE, UNLABELLED
from .features import PageGraph

__all__ = ["align_labels", "labels_from_html", "block_texts"]


def _shingles(tokens: list[str], k: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + k]) for i in range(len(tokens) - k + 1)]


def align_labels(g: PageGraph, truth: str) -> np.ndarray:
    """Labels of ``g.units`` (1 content, 0 noise, -1 unlabelled) from ground-truth text;
    shape ``(len(g.units),)``, int8. See the module docstring."""
    gt_tokens = tokenize(truth)
    gt_shingles = set(_shingles(gt_tokens, LABEL_SHINGLE))
    gt_vocab = set(gt_tokens)
    gt_lines = {tuple(tokenize(line)) for line in truth.splitlines() if line.strip()}
    out = np.full(g.units.size, UNLABELLED, dtype=np.int8)
    for j, i in enumerate(g.units.tolist()):
        toks = tokenize(g.unit_text(i))
        if not toks:
            continue
        if len(toks) >= LABEL_SHINGLE:
            sh = _shingles(toks, LABEL_SHINGLE)
            cov = sum(1 for s in sh if s in gt_shingles) / len(sh)
            if cov >= LABEL_POS_COVERAGE:
                out[j] = 1
            elif cov <= LABEL_NEG_COVERAGE:
                out[j] = 0
        elif tuple(toks) in gt_lines:
            out[j] = 1
        elif any(t not in gt_vocab for t in toks):
            out[j] = 0
    return out


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def block_texts(g: PageGraph) -> list[str]:
    """Own texts of the units of ``g`` in document order (normalised)."""
    return [_norm(g.unit_text(i)) for i in g.units.tolist()]


def labels_from_html(g: PageGraph, truth_graph: PageGraph) -> np.ndarray:
    """Labels of ``g.units`` (1/0) by exact whole-word matching against the blocks of the
    ground-truth document ``truth_graph`` (module docstring, second method)."""
    hay = "\n" + "\n".join(" " + t + " " for t in block_texts(truth_graph)) + "\n"
    out = np.zeros(g.units.size, dtype=np.int8)
    for j, t in enumerate(block_texts(g)):
        if t and (" " + t + " ") in hay:
            out[j] = 1
    return out
