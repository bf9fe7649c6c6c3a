"""DensitySum recovery: give back short blocks that sit inside a text-rich region.

A classifier judges each unit on its own features; a one-line bridging paragraph, a
caption or a side note inside the article can fall below the decision threshold. After
classification, a dropped unit ``u`` is kept again when all of these hold (constants in
:mod:`unclutter.classify.constants`):

* ``P(content | u) >= RECOVER_MIN_PROB`` and its own link density is at most
  ``RECOVER_MAX_LINK_DENSITY`` (menus are not recovered);
* some ancestor ``a`` of ``u``, at most ``RECOVER_MAX_LEVELS`` levels up, is a content
  region: ``share(a) = sum(CTD(c) for element children c of a holding a kept unit) /
  DensitySum(a) >= RECOVER_REGION_SHARE``, i.e. the kept content carries most of ``a``'s
  DensitySum (Sun et al., SIGIR 2011: DensitySum = sum of the children's CTD; a node
  with a high DensitySum is a text-rich region);
* ``u`` lies strictly between the first and the last kept unit of ``a`` in document
  order (a bridge, not a tail).
"""

from __future__ import annotations

import numpy as np

from .constants import (
    RECOVER_MAX_LEVELS,
    RECOVER_MAX_LINK_DENSITY,
    RECOVER_MIN_PROB,
    RECOVER_REGION_SHARE,
)
from .features import PageGraph

__all__ = ["recover"]


def recover(g: PageGraph, keep: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """Indices (into ``g.units``) of the dropped units to keep again; see the module
    docstring. ``keep``: bool, ``prob``: P(content), both of shape ``(len(g.units),)``."""
    n = g.n
    units = g.units
    if n == 0 or not keep.any():
        return np.zeros(0, dtype=np.int64)
    r = g.raw
    own_ld = r["OLC"][units] / np.maximum(r["OC"][units], 1.0)
    cand = np.nonzero(~keep & (prob >= RECOVER_MIN_PROB) & (own_ld <= RECOVER_MAX_LINK_DENSITY))[0]
    if cand.size == 0:
        return cand
    kept_el = np.zeros(n)
    kept_el[units[keep]] = 1.0
    has_kept = g.subtree_sum(kept_el) > 0
    ctd = g.ctd
    num = np.zeros(n)
    np.add.at(num, g.parent[1:], ctd[1:] * has_kept[1:])
    ds = g.density_sum
    share = np.where(ds > 0, num / np.where(ds > 0, ds, 1.0), 0.0)
    kept_sorted = np.sort(units[keep])
    lo = np.searchsorted(kept_sorted, np.arange(n))
    hi = np.searchsorted(kept_sorted, g.end) - 1
    has = hi >= lo
    first = np.where(has, kept_sorted[np.minimum(lo, kept_sorted.size - 1)], n)
    last = np.where(has, kept_sorted[np.maximum(hi, 0)], -1)
    out = []
    for j in cand.tolist():
        u = int(units[j])
        a = int(g.parent[u])
        level = 0
        while a >= 0 and level < RECOVER_MAX_LEVELS:
            if share[a] >= RECOVER_REGION_SHARE and first[a] < u < last[a]:
                out.append(j)
                break
            a = int(g.parent[a])
            level += 1
    return np.asarray(out, dtype=np.int64)
