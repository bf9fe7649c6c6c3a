"""Auto-context features: what a first classifier said about a unit's surroundings.

The GBDT judges one unit (block owning text) at a time from its own, its parent's,
grandparent's and siblings' features. Whether the *region* around a unit was judged
content is something it cannot see: a short paragraph inside a run of kept paragraphs is
content, the same paragraph inside a run of dropped teasers is not. The auto-context
scheme (Tu and Bai, "Auto-context and its application to high-level vision tasks and 3D
brain image segmentation", IEEE TPAMI 32(10), 2010) gives a second classifier the first
one's probabilities around each unit as extra features; the second is trained on the
first's *out-of-fold* probabilities (``train/train_gbdt.py``), so that it learns how far
to trust them on pages the first never saw.

Input: the page's element tree as arrays (``parent``, ``end`` of each element's pre-order
subtree, ``units`` = element indices of the units in document order), each unit's own
characters ``own`` (whitespace-collapsed, as in :mod:`.features`) and its first-stage
P(content) ``p``. Output: :func:`context_matrix`, shape ``(len(units),
len(CONTEXT_FEATURES))``, float64. With ``m`` = a unit's characters times its P(content)
(its *expected content characters*), the columns are:

* ``p``; ``p`` of the previous and next unit and of the units two before and after
  (:data:`~.constants.CONTEXT_MISSING_P` where there is none); the character-weighted
  mean ``p`` of the unit and the units within :data:`~.constants.CONTEXT_WINDOW` on
  either side of it;
* for each of the :data:`~.constants.CONTEXT_ANCESTORS` nearest ancestors (the body
  standing in past the top, and for a unit that is the body, the body itself): the
  character-weighted mean ``p`` of the units below it, the share of the page's expected
  content characters below it, ``log1p`` of its units' characters;
* the page's expected content share (sum of ``m`` / characters) and its highest ``p``;
* the *best region*: the element maximising the sum over its units of
  ``characters * (2p - 1)`` (the subtree with the most characters judged content beyond
  those judged noise, a maximum-subarray choice over subtrees): whether the unit lies in
  it, and its share of the page's expected content characters. Known quirk, kept because
  the shipped model was trained with it (training and inference must agree): the maximum
  runs over every element, so on a page where every unit has ``p < 0.5`` an element
  holding no unit (an ``<img>``, a bare link), whose sum is 0, wins the first place, and
  then no unit lies in the best region and its share is 0;
* the share of the page's expected content characters before the unit and after it;
* whether the unit lies between the first and the last unit with ``p`` at least 0.5,
  and ``log1p`` of its distance (in units) to the nearest such unit (``log1p`` of the
  number of units when there is none).

"Before", "after" and "neighbour" follow the units' order, i.e. the document order of the
elements owning the text: a ``<div>``'s own loose text counts as coming before the
paragraphs nested in it. Preconditions (what :func:`.features.build_graph` produces; not
checked): one root, elements in pre-order, ``units`` increasing and unique, ``p`` in
``[0, 1]``.
"""

from __future__ import annotations

import numpy as np

from .constants import CONTEXT_ANCESTORS, CONTEXT_MISSING_P, CONTEXT_WINDOW

__all__ = ["CONTEXT_FEATURES", "context_matrix", "subtree_ends"]

#: Columns of :func:`context_matrix`, in order.
CONTEXT_FEATURES = (
    ("ctx.p", "ctx.p_prev1", "ctx.p_next1", "ctx.p_prev2", "ctx.p_next2", "ctx.p_window")
    + tuple(f"ctx.anc{k}.{a}" for k in range(1, CONTEXT_ANCESTORS + 1)
            for a in ("mean_p", "content_share", "log_chars"))
    + ("ctx.page_content_share", "ctx.page_max_p", "ctx.in_best_region", "ctx.best_region_share",
       "ctx.content_before", "ctx.content_after", "ctx.in_content_span", "ctx.log_span_distance")
)


def subtree_ends(parent: np.ndarray) -> np.ndarray:
    """One past the last pre-order index of each element's subtree, shape ``(n,)``, from
    the parent index of each element (``-1`` for the root; elements in pre-order)."""
    n = parent.size
    end = list(range(1, n + 1))
    par = parent.tolist()
    for i in range(n - 1, 0, -1):
        q = par[i]
        if end[i] > end[q]:
            end[q] = end[i]
    return np.asarray(end, dtype=np.intp)


def context_matrix(parent: np.ndarray, end: np.ndarray, units: np.ndarray, own: np.ndarray,
                   p: np.ndarray) -> np.ndarray:
    """The auto-context features of ``units`` (module docstring), shape ``(len(units),
    len(CONTEXT_FEATURES))``. ``parent``, ``end``: per element (pre-order, ``-1`` = no
    parent); ``units``: element indices, increasing; ``own``: each unit's own characters;
    ``p``: each unit's first-stage P(content)."""
    m = units.size
    if m == 0:
        return np.zeros((0, len(CONTEXT_FEATURES)))
    n = parent.size
    own = np.asarray(own, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    starts = np.arange(n)

    def subtree(x_units: np.ndarray) -> np.ndarray:
        per_el = np.bincount(units, weights=x_units, minlength=n)
        s = np.concatenate(([0.0], np.cumsum(per_el)))
        return s[end] - s[starts]

    mass = own * p
    K = subtree(mass)
    M = subtree(own)
    k_page = max(float(K[0]), 1e-9)
    w = CONTEXT_WINDOW
    padded = np.concatenate((np.full(2, CONTEXT_MISSING_P), p, np.full(2, CONTEXT_MISSING_P)))
    cols = [p, padded[1:m + 1], padded[3:m + 3], padded[0:m], padded[4:m + 4]]
    cm = np.concatenate(([0.0], np.cumsum(mass)))
    cc = np.concatenate(([0.0], np.cumsum(own)))
    idx = np.arange(m)
    lo = np.maximum(idx - w, 0)
    hi = np.minimum(idx + w + 1, m)
    cols.append((cm[hi] - cm[lo]) / np.maximum(cc[hi] - cc[lo], 1e-9))
    root_parent = np.where(parent < 0, 0, parent)
    a = units.copy()
    for _ in range(CONTEXT_ANCESTORS):
        a = root_parent[a]
        cols += [K[a] / np.maximum(M[a], 1e-9), K[a] / k_page, np.log1p(M[a])]
    cols += [np.full(m, K[0] / max(float(M[0]), 1e-9)), np.full(m, float(p.max()))]
    gain = subtree(own * (2.0 * p - 1.0))
    best = int(np.argmax(gain))
    cols += [((units >= best) & (units < end[best])).astype(np.float64), np.full(m, K[best] / k_page)]
    before = cm[1:] - mass
    cols += [before / k_page, np.maximum(float(K[0]) - cm[1:], 0.0) / k_page]
    kept = np.flatnonzero(p >= 0.5)
    if kept.size:
        cols.append(((idx >= kept[0]) & (idx <= kept[-1])).astype(np.float64))
        pos = np.searchsorted(kept, idx)
        left = kept[np.clip(pos - 1, 0, kept.size - 1)]
        right = kept[np.clip(pos, 0, kept.size - 1)]
        cols.append(np.log1p(np.minimum(np.abs(idx - left), np.abs(right - idx))))
    else:
        cols += [np.zeros(m), np.full(m, np.log1p(m))]
    return np.column_stack(cols)
