"""Topic segmentation of heading-less text: where one subject gives way to the next.

Default: TextTiling (Hearst, M. A. 1997, "TextTiling: Segmenting Text into Multi-paragraph
Subtopic Passages", *Computational Linguistics* 23(1)), block-comparison variant:

1. the text's content words (:func:`unclutter.text.vectors.terms`) are cut into
   pseudo-sentences of :data:`PSEUDOSENTENCE_WORDS` (Hearst's ``w`` = 20);
2. at each gap between pseudo-sentences, the lexical cohesion score is the cosine of the
   term-count vectors of the :data:`BLOCK_SIZE` pseudo-sentences (``k`` = 6) on either side;
3. scores are smoothed with a moving average of width :data:`SMOOTHING_WIDTH`;
4. each gap's depth score is ``(left peak - score) + (right peak - score)``, peaks found by
   climbing while scores rise;
5. gaps deeper than ``mean - sd / 2`` (Hearst's liberal cutoff) become boundaries, deepest
   first, at least :data:`MIN_SEGMENT_WORDS` content words apart, each moved to the nearest
   paragraph break (Hearst also snaps to paragraphs).

With an ``embed`` function (the ``embeddings`` extra: all-MiniLM-L6-v2), step 2 compares the
mean embeddings of the :data:`EMBED_BLOCK_PARAGRAPHS` paragraphs on either side of each
paragraph break instead; steps 3-5 are the same.

The segments' titles come from the caller (:func:`unclutter.structure.chunk.chunk` takes a
``title`` function; the summary stage supplies one).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..text.vectors import terms

__all__ = [
    "segment_topics",
    "PSEUDOSENTENCE_WORDS",
    "BLOCK_SIZE",
    "SMOOTHING_WIDTH",
    "MIN_SEGMENT_WORDS",
    "EMBED_BLOCK_PARAGRAPHS",
]

#: Hearst (1997) ``w``: content words per pseudo-sentence.
PSEUDOSENTENCE_WORDS = 20
#: Hearst (1997) ``k``: pseudo-sentences per block in block comparison.
BLOCK_SIZE = 6
#: Width of the moving average over gap scores (Hearst smooths once with a small window).
SMOOTHING_WIDTH = 3
#: No topic segment shorter than this many content words (ours; Hearst requires boundaries
#: at least 3 pseudo-sentences apart, i.e. 60 words: we ask for twice that so a section is
#: worth a summary and a title).
MIN_SEGMENT_WORDS = 120
#: Paragraphs per side compared when embeddings replace term counts.
EMBED_BLOCK_PARAGRAPHS = 2


def _smooth(x: np.ndarray) -> np.ndarray:
    if len(x) < SMOOTHING_WIDTH:
        return x
    pad = SMOOTHING_WIDTH // 2
    padded = np.pad(x, pad, mode="edge")
    return np.convolve(padded, np.ones(SMOOTHING_WIDTH) / SMOOTHING_WIDTH, mode="valid")


def _depths(scores: np.ndarray) -> np.ndarray:
    """TextTiling depth score of each gap: ``(left peak - s) + (right peak - s)``, a peak
    being where climbing from the gap (through equal or higher neighbours) stops (Hearst
    1997). Linear: the climb from gap ``g`` to the left passes gap ``g - 1`` exactly when
    ``s[g - 1] >= s[g]``, and then ends where the climb from ``g - 1`` ends (so a flat run
    of thousands of gaps, a repetitive text, costs no more than a varied one)."""
    s = scores.tolist()
    n = len(s)
    left = list(s)
    for g in range(1, n):
        if s[g - 1] >= s[g]:
            left[g] = left[g - 1]
    right = list(s)
    for g in range(n - 2, -1, -1):
        if s[g + 1] >= s[g]:
            right[g] = right[g + 1]
    return (np.asarray(left, dtype=scores.dtype) - scores) + (np.asarray(right, dtype=scores.dtype) - scores)


def _pick(depth: np.ndarray, positions: list[int], min_gap: int, total: int) -> list[int]:
    """Boundary positions (in the unit of ``positions``) chosen by depth, deepest first."""
    if len(depth) == 0:
        return []
    cutoff = float(depth.mean() - depth.std() / 2.0)
    order = sorted(range(len(depth)), key=lambda g: -depth[g])
    chosen: list[int] = []
    for g in order:
        if depth[g] <= 0 or depth[g] <= cutoff:
            break
        p = positions[g]
        if p < min_gap or total - p < min_gap or any(abs(p - c) < min_gap for c in chosen):
            continue
        chosen.append(p)
    return sorted(chosen)


def segment_topics(paragraphs: list[str], language: str | None = None,
                   embed: Callable[[list[str]], np.ndarray] | None = None) -> list[int]:
    """Indices of the paragraphs that start a topic segment (always ``[0, ...]``).

    Args:
        paragraphs: the text's paragraphs (plain text or Markdown blocks), in order.
        language: unused by the lexical method (kept for a language-aware stop list).
        embed: ``list[str] -> array (n, d)``; when given, embedding cohesion replaces
            TextTiling's term counts.

    Returns ``[0]`` (one segment) when the text is too short to compare two blocks.
    """
    if not paragraphs:
        return [0]
    para_terms = [terms(p) for p in paragraphs]
    # content-word index where each paragraph starts
    starts = []
    pos = 0
    for t in para_terms:
        starts.append(pos)
        pos += len(t)
    total = pos
    if total < 2 * MIN_SEGMENT_WORDS:
        return [0]
    if embed is not None and len(paragraphs) >= 2 * EMBED_BLOCK_PARAGRAPHS:
        vecs = np.asarray(embed(paragraphs), dtype=np.float32)
        k = EMBED_BLOCK_PARAGRAPHS
        scores, positions = [], []
        for g in range(1, len(paragraphs)):
            a = vecs[max(0, g - k):g].mean(axis=0)
            b = vecs[g:g + k].mean(axis=0)
            den = float(np.linalg.norm(a) * np.linalg.norm(b)) or 1.0
            scores.append(float(a @ b) / den)
            positions.append(starts[g])
        depth = _depths(_smooth(np.array(scores)))
        chosen = _pick(depth, positions, MIN_SEGMENT_WORDS, total)
        return [0] + [starts.index(p) for p in chosen]
    words = [w for t in para_terms for w in t]
    seqs = [words[i:i + PSEUDOSENTENCE_WORDS] for i in range(0, len(words), PSEUDOSENTENCE_WORDS)]
    if len(seqs) < 2 * BLOCK_SIZE // 2 + 1:
        return [0]
    vocab: dict[str, int] = {}
    for w in words:
        vocab.setdefault(w, len(vocab))
    counts = np.zeros((len(seqs), len(vocab)), dtype=np.float32)
    for i, s in enumerate(seqs):
        for w in s:
            counts[i, vocab[w]] += 1
    cum = np.vstack([np.zeros((1, counts.shape[1]), dtype=np.float32), np.cumsum(counts, axis=0)])
    scores, positions = [], []
    for g in range(1, len(seqs)):
        a = cum[g] - cum[max(0, g - BLOCK_SIZE)]
        b = cum[min(len(seqs), g + BLOCK_SIZE)] - cum[g]
        den = float(np.linalg.norm(a) * np.linalg.norm(b)) or 1.0
        scores.append(float(a @ b) / den)
        positions.append(g * PSEUDOSENTENCE_WORDS)
    depth = _depths(_smooth(np.array(scores)))
    chosen = _pick(depth, positions, MIN_SEGMENT_WORDS, total)
    # snap each boundary to the nearest paragraph start (not the first paragraph)
    out: list[int] = []
    for p in chosen:
        best = min(range(1, len(starts)), key=lambda i: abs(starts[i] - p), default=None)
        if best is not None and best not in out:
            out.append(best)
    return [0] + sorted(out)
