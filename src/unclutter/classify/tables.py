"""Data tables kept or dropped whole after classification.

The classifiers judge one unit at a time; in a data table the units are cells, and a
specification sheet judged cell by cell loses its short names ("Brand", "Series") and
keeps their values, or loses rows: what is left is no longer data. After the models, each
data table of the page (:func:`unclutter.core.tables.kind_of`: ``data`` or ``key-value``,
read on the pruned page) is decided whole: kept, with its caption, header and every row,
when its kept units hold at least :data:`.constants.ATOMIC_TABLE_KEEP_SHARE` of its
characters, else dropped. Layout tables are left to the models cell by cell (their cells
are separate blocks of the page: an author box beside a post).
"""

from __future__ import annotations

import numpy as np

from ..core.tables import kind_of
from .constants import ATOMIC_TABLE_KEEP_SHARE
from .features import PageGraph

__all__ = ["atomic_tables"]


def atomic_tables(g: PageGraph, keep: np.ndarray) -> tuple[int, int]:
    """Apply the rule of the module docstring to ``keep`` (one flag per unit of ``g``, edited
    in place). Returns ``(tables kept whole, tables dropped whole)`` among the data tables
    where the models kept some units and not others. Cost: one pass over the elements."""
    tags = g.raw["tag"]
    units = g.units
    own = g.raw["OC"][units]
    kept_whole = dropped = 0
    for i in np.flatnonzero(tags == "table").tolist():
        if kind_of(g.nodes[i]) == "layout":
            continue
        lo, hi = np.searchsorted(units, [i, int(g.end[i])])
        if hi <= lo:
            continue
        part = keep[lo:hi]
        if part.all() or not part.any():
            continue
        total = float(own[lo:hi].sum())
        if total > 0 and float(own[lo:hi][part].sum()) >= ATOMIC_TABLE_KEEP_SHARE * total:
            keep[lo:hi] = True
            kept_whole += 1
        else:
            keep[lo:hi] = False
            dropped += 1
    return kept_whole, dropped
