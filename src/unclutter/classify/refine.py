"""Learned refinement of the heuristic's selection: drop the boilerplate blocks inside it.

The heuristic (:mod:`unclutter.score`) picks one region of the page, and a region picked
whole carries whatever the publisher put inside the article container: photo credits,
"Read more" and "Related" links, newsletter and app promos, tag lists, share and comment
prompts, author boxes. ``extractor="auto"`` (the default) runs, after the heuristic, a
gradient-boosted tree classifier trained on exactly that situation: its training units are
the blocks of the heuristic's *selections* of the training pages (wcxb-dev and
readability-tests; never AEB), labelled by alignment with the ground truth
(:mod:`.labels`). Features are those of the page-level learned extractors
(:func:`.features.build_graph`, :func:`.features.unit_matrix`) computed on the selection as
if it were the page, so a block's position, depth and share are relative to the article.

Input: the :class:`~unclutter.score.select.Selection`'s ``root``. Output: a new root
holding what stays (:func:`refine_selection`). A unit (block owning text) stays when its
P(content) reaches the model's threshold, with these rules on top (the model judges one
block at a time; these keep the document's structures whole):

* **captions stay**: ``<figcaption>`` text is governed by ``include_captions``, not by the
  classifier (readers expect a figure's caption; bugcase 08);
* **table rows stay whole**: a cell stays when any unit of its row (``<tr>``) stays, so a
  kept row never loses its numbers;
* **new orphan headings go**: a heading that introduced kept blocks before refinement and
  introduces none after it ("Related stories" above a dropped list) goes with them
  (:func:`unclutter.classify.orphan_headings`);
* **the selection stands when refinement would gut it**: if what stays holds less than
  :data:`~.constants.REFINE_MIN_KEPT_SHARE` of the characters of the blocks it judged
  (captions left out), the selection is returned unchanged (the classifier disagrees with
  the heuristic about the whole region, which is the selection step's call, not this step's);
* **long selections stand**: over :data:`~.constants.REFINE_MAX_CHARS` own characters
  (beyond the training selections' sizes) the step is skipped.

Cost: one feature pass and tree inference over the selection only (about a fifth of the
heuristic path's time per page on AEB; ``bench/ablation.py``).
"""

from __future__ import annotations

import numpy as np

from ..core.dom import Node
from ..core.models import Removal
from ..score.features import collapsed_len
from .constants import REFINE_MAX_CHARS, REFINE_MIN_KEPT_SHARE

__all__ = ["refine_selection", "REFINE_MODEL"]

#: Model name of the refinement classifier in :mod:`.registry` (``models/refine.npz``).
REFINE_MODEL = "refine"

_CELLS = frozenset({"td", "th"})


def _row_of(g, i: int) -> int:
    """Index of the nearest ``<tr>`` ancestor-or-self of element ``i`` (-1 when none)."""
    tags = g.raw["tag"]
    parent = g.parent
    while i >= 0:
        if tags[i] == "tr":
            return i
        if tags[i] == "table":
            return -1
        i = int(parent[i])
    return -1


def refine_selection(root: Node, model, page_type: str | None = None, url: str | None = None,
                     log: bool = True) -> tuple[Node, list[str], list[Removal]]:
    """Drop the blocks of the selection ``root`` that ``model`` (a
    :class:`~.gbdt.TreeEnsemble` trained on heuristic selections) calls boilerplate; see the
    module docstring for the rules. ``root`` is prepared in place (the caller is done with
    it). Returns ``(new root, trace lines, removals)``; when nothing is dropped, or the
    selection stands (:data:`~.constants.REFINE_MIN_KEPT_SHARE`), the new root is ``root``
    itself. ``log=False``: no removal records."""
    from . import _rebuild, orphan_headings
    from .features import build_graph

    g = build_graph(root, vocab=model.vocab, copy=False, page_type=page_type, url=url)
    n_units = int(g.units.size)
    if n_units == 0:
        return root, ["refine: no text blocks"], []
    own = g.raw["OC"][g.units]
    total = float(own.sum())
    if total > REFINE_MAX_CHARS:
        return root, [f"refine: {total:.0f} chars, over {REFINE_MAX_CHARS}: selection kept whole"], []
    prob = model.predict_units(g)
    keep = prob >= model.threshold
    tags = g.raw["tag"][g.units].tolist()
    units = g.units.tolist()
    protected = np.asarray([t == "figcaption" for t in tags], dtype=bool)
    keep[protected] = True
    rows: dict[int, list[int]] = {}
    for j, i in enumerate(units):
        if tags[j] in _CELLS or g.raw["tag"][int(g.parent[i])] in _CELLS:
            r = _row_of(g, i)
            if r >= 0:
                rows.setdefault(r, []).append(j)
    for members in rows.values():
        if keep[members].any():
            keep[members] = True
    if keep.all():
        return root, [f"refine: kept all {n_units} blocks"], []
    before = set(orphan_headings(g, np.ones(n_units, dtype=bool)))
    new_orphans = [j for j in orphan_headings(g, keep) if j not in before]
    keep[new_orphans] = False
    # the share is read on the blocks the classifier decides (protected captions left out)
    judged = ~protected
    total = float(own[judged].sum())
    kept = float(own[keep & judged].sum())
    if not keep.any() or kept < REFINE_MIN_KEPT_SHARE * total:
        return root, [f"refine: would keep {kept:.0f} of {total:.0f} chars; selection kept whole"], []
    removed: list[Removal] | None = [] if log else None
    unit_pos = {i: j for j, i in enumerate(units)}

    def reason(i: int) -> str:
        j = unit_pos.get(i)
        return f"refine: P(content) {prob[j]:.2f}" if j is not None else "refine: no kept block inside"

    new_root = _rebuild(g, keep, removed, reason, media_inside=True)
    line = (f"refine: dropped {n_units - int(keep.sum())}/{n_units} blocks with P(content) < "
            f"{model.threshold:.2f} ({collapsed_len(new_root.text_content())} chars stay)")
    return new_root, [line], removed or []
