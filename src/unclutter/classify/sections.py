"""Section rules after classification: comment threads under a story, related-content boxes.

The classifiers judge one unit (block owning text) at a time, with its context
(:mod:`.context`); two kinds of whole sections they keep too often are dropped by rule
after them (``gbdt`` and ``gnn``; not CETD, which has no page type). Both rules see only
the units already kept, and return indices into ``g.units`` to drop.

* :func:`comment_units`: on a page *declared a story* (``Metadata.page_type`` in
  :data:`unclutter.core.options.AUTO_STORY_PAGE_TYPES`: article, recipe, video, event),
  the kept units inside an element whose class or id names a comment thread
  (:data:`.constants.COMMENT_CONTAINER_RE`). Readers' comments are not the article
  (the AEB and wcxb-dev ground truths leave them out), but on a forum or Q&A thread, or a
  page that declares nothing, posts are often marked up as comments (old Reddit,
  Slashdot, Lemmy): those keep them. The models learn threads from forum pages, where
  replies are the content, and kept them under articles too.
* :func:`related_section_units`: on every page, a kept unit whose whole text is a
  related-content label (:data:`unclutter.score.weights.RELATED_HEADING_RE`, the
  heuristic's own list: "You may also like", "Related stories", "Leia também"...) and the
  section it opens: the outermost element whose first unit it is (the box it titles), or,
  when it opens no element beyond itself, the units after it up to the next heading of
  the same or a higher level (any heading when the label is not a heading).

Measured on wcxb-dev (5-fold CV by site, fold models through the real pipeline,
``--extractor gbdt``): 0.8598 without the rules, 0.8609 with both; forum pages 0.799 ->
0.803, product pages 0.637 -> 0.640. ``registry.VARIANT["sections"] = False`` switches
them off (ablation).
"""

from __future__ import annotations

import numpy as np

from ..core.options import AUTO_STORY_PAGE_TYPES
from ..score.weights import RELATED_HEADING_RE
from .constants import COMMENT_CONTAINER_RE, RELATED_LABEL_MAX_CHARS
from .features import PageGraph

__all__ = ["comment_units", "related_section_units", "HEADING_LEVEL"]

#: Heading level of each heading tag (``h1`` = 1 ... ``h6`` = 6).
HEADING_LEVEL = {f"h{k}": k for k in range(1, 7)}


def comment_units(g: PageGraph, keep: np.ndarray, page_type: str | None) -> np.ndarray:
    """Indices (into ``g.units``) of kept units inside a comment thread, on a page whose
    declared type ``page_type`` is a story (see the module docstring); empty otherwise.
    ``keep``: one flag per unit."""
    if page_type not in AUTO_STORY_PAGE_TYPES:
        return np.zeros(0, dtype=np.int64)
    n = g.n
    inside = np.zeros(n, dtype=bool)
    parent = g.parent.tolist()
    nodes = g.nodes
    for i in range(1, n):  # pre-order: a parent comes before its children
        inside[i] = inside[parent[i]] or COMMENT_CONTAINER_RE.search(nodes[i].class_id) is not None
    return np.flatnonzero(inside[g.units] & keep)


def related_section_units(g: PageGraph, keep: np.ndarray) -> np.ndarray:
    """Indices (into ``g.units``) of the kept units of related-content sections: each
    kept label unit and the section it opens (see the module docstring). ``keep``: one
    flag per unit."""
    units = g.units.tolist()
    if not units:
        return np.zeros(0, dtype=np.int64)
    own = g.raw["OC"][g.units].tolist()
    tags = g.raw["tag"]
    parent = g.parent
    first_unit: dict[int, int] = {}  # element -> index of the first unit in its subtree
    for j, u in enumerate(units):
        a = u
        while a >= 0 and a not in first_unit:
            first_unit[a] = j
            a = int(parent[a])
    drop = np.zeros(len(units), dtype=bool)
    for j, u in enumerate(units):
        if not keep[j] or drop[j] or own[j] > RELATED_LABEL_MAX_CHARS:
            continue
        text = " ".join(g.nodes[u].text_content().split())
        if not text or len(text) > RELATED_LABEL_MAX_CHARS or not RELATED_HEADING_RE.search(text):
            continue
        box = u
        while parent[box] > 0 and first_unit.get(int(parent[box])) == j:
            box = int(parent[box])
        end = int(np.searchsorted(g.units, g.end[box]))
        if end - j <= 1:  # a label alone in its element: its section runs to the next heading
            level = HEADING_LEVEL.get(tags[u], 6)
            end = j + 1
            while end < len(units) and not 0 < HEADING_LEVEL.get(tags[units[end]], 0) <= level:
                end += 1
        drop[j:end] = True
    return np.flatnonzero(drop & keep)
