"""CETD: content extraction via composite text density, without learning (the baseline).

Sun, Guan, Zhang, Chen, "DOM based content extraction via text density", SIGIR 2011
(CETD with the DensitySum threshold). CTD and DensitySum are defined (with the exact
formula implemented) in :mod:`unclutter.classify.features`. The extraction implemented
here, on the element tree of a :class:`~unclutter.classify.features.PageGraph`:

1. ``M(r)`` = the node of maximum DensitySum in the subtree of ``r`` (``r`` included);
2. threshold ``t = CTD(body)`` (the paper's threshold: the text density of ``<body>``);
3. from the body down (iteratively): for a node ``r`` with ``CTD(r) >= t``, mark ``M(r)``
   as content and visit ``r``'s children; a node below the threshold is not visited
   further (the paper's ``ExtractContent``);
4. a unit (a block owning text) is kept when it lies in the subtree of a marked node and
   its own CTD is at least ``CETD_UNIT_SHARE * t`` (noise inside the content region is
   still cut by the same threshold).
"""

from __future__ import annotations

import numpy as np

from .constants import CETD_UNIT_SHARE
from .features import PageGraph

__all__ = ["cetd_keep", "subtree_argmax"]


def subtree_argmax(values: np.ndarray, parent: np.ndarray) -> np.ndarray:
    """``best[i]`` = index of the largest ``values`` in ``i``'s subtree (pre-order
    indices, parents before children); one reverse pass, shape ``(n,)``."""
    n = values.size
    best = np.arange(n)
    bv = values.copy()
    par = parent.tolist()
    best_l = best.tolist()
    bv_l = bv.tolist()
    for i in range(n - 1, 0, -1):
        p = par[i]
        if bv_l[i] > bv_l[p]:
            bv_l[p] = bv_l[i]
            best_l[p] = best_l[i]
    return np.asarray(best_l, dtype=np.int64)


def cetd_keep(g: PageGraph) -> tuple[np.ndarray, float]:
    """Which of ``g.units`` CETD keeps (bool, shape ``(len(g.units),)``) and the
    threshold ``t``. See the module docstring."""
    n = g.n
    if n == 0 or g.units.size == 0:
        return np.zeros(g.units.size, dtype=bool), 0.0
    ctd = g.ctd
    best = subtree_argmax(g.density_sum, g.parent)
    t = float(ctd[0])
    children: list[list[int]] = [[] for _ in range(n)]
    for i, p in enumerate(g.parent.tolist()):
        if p >= 0:
            children[p].append(i)
    marked = []
    stack = [0]
    ctd_l = ctd.tolist()
    while stack:
        r = stack.pop()
        if ctd_l[r] >= t:
            marked.append(int(best[r]))
            stack.extend(children[r])
    cover = np.zeros(n + 1)
    for m in set(marked):
        cover[m] += 1
        cover[g.end[m]] -= 1
    inside = np.cumsum(cover)[:n] > 0
    u = g.units
    return inside[u] & (ctd[u] >= CETD_UNIT_SHARE * t), t
