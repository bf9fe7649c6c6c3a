"""Learned main-content extraction: CETD, gradient-boosted trees, a GraphSAGE-style GNN.

Stage 5 of the pipeline when ``Options.extractor`` is not ``"heuristic"``. Input: the
pruned ``<body>`` (prepared in place by the learned models, see
:func:`classify_main_content`). Output: a :class:`~unclutter.score.select.Selection` like
the heuristic's: ``root`` is a new ``<div>`` holding the kept content in document order.

1. **features** (:mod:`.features`): one walk over the prepared tree, then
   numpy: per-element text/link/tag counts, TD, CTD, DensitySum, the heuristic's
   Readability scores and the candidate they imply, class/id vocabulary bits;
2. **classify** the *units* (blocks owning text): ``cetd`` (:mod:`.cetd`, no learning),
   ``gbdt`` (:mod:`.gbdt`: two stages, the second reading the first's probabilities
   around each unit, :mod:`.context`), ``gnn`` (:mod:`.gnn`), both evaluated in numpy;
3. **DensitySum recovery** (:mod:`.densitysum`) of dropped blocks inside a content region,
   then the **section rules** (:mod:`.sections`: comment threads under a declared story,
   related-content boxes), **data tables** are kept or dropped whole (:mod:`.tables`), and
   **orphan headings** go: a kept heading after which no kept non-heading block
   follows before the next heading of the same or a higher level (or the end) introduces
   nothing that was kept ("Customers also bought" above a dropped list);
4. **rebuild**: every element whose subtree holds a kept unit stays, with the kept units'
   own text and their inline elements (links, images, emphasis); everything else goes
   (logged in ``Selection.removed``).

``auto``, which picks the heuristic or one of these per page and refines the heuristic's
selection with :mod:`.refine`, is routed by :mod:`unclutter.route`. The switches of
experiments (``Options.ablation``: recovery, context, sections, model files) arrive as the
``ablation`` argument of :func:`classify_main_content`.
"""

from __future__ import annotations

import time

import numpy as np

from ..core.dom import TEXT, Node
from ..core.models import Removal
from ..core.options import Ablation
from ..score.features import collapsed_len
from ..score.select import Selection, select_main_content
from . import registry
from .cetd import cetd_keep
from .densitysum import recover
from .features import PageGraph, build_graph
from .sections import HEADING_LEVEL, comment_units, related_section_units, review_units
from .tables import atomic_tables

__all__ = ["classify_main_content", "LEARNED_EXTRACTORS", "predict_units"]

#: Extractors served by this package.
LEARNED_EXTRACTORS = ("cetd", "gbdt", "gnn")

_PREVIEW = 80


def predict_units(g: PageGraph, model) -> np.ndarray:
    """P(content) of each of ``g.units`` under ``model`` (a TreeEnsemble or GraphSage)."""
    return model.predict_units(g)


def orphan_headings(g: PageGraph, keep: np.ndarray) -> list[int]:
    """Indices (into ``g.units``) of kept headings that introduce no kept block (see the
    module docstring, step 3)."""
    tags = g.raw["tag"][g.units].tolist()
    level = [HEADING_LEVEL.get(t, 0) for t in tags]
    keep_l = keep.tolist()
    out = []
    for j, lv in enumerate(level):
        if not lv or not keep_l[j]:
            continue
        for k in range(j + 1, len(level)):
            if level[k] and level[k] <= lv:
                out.append(j)
                break
            if keep_l[k] and not level[k]:
                break
        else:
            out.append(j)
    return out


def _rebuild(g: PageGraph, keep: np.ndarray, removed: list[Removal] | None, reason,
             media_inside: bool = False) -> Node:
    """The tree of the kept units (``keep``, one flag per unit): every element holding a
    kept unit, with the kept units' own text and inline elements. An element holding media
    (``img``, ``picture``, ``figure``, ``video``...) and no text at all is no unit, so no
    model judged it: it stays when ``media_inside`` (the refinement of a selection: the
    article's figures between its paragraphs) or, on a whole page, when kept siblings stand
    before and after it (a figure inside the story, not a logo above it)."""
    n = g.n
    kept_el = np.zeros(n, dtype=bool)
    kept_el[g.units[keep]] = True
    has_kept = g.subtree_sum(kept_el.astype(np.float64)) > 0
    owner = g.owner
    is_block = owner == np.arange(n)
    keep_el = has_kept | (~is_block & kept_el[owner])
    is_unit = np.zeros(n)
    is_unit[g.units] = 1.0
    media_only = ((g.raw["NMEDIA"] > 0) & (g.subtree_sum(is_unit) == 0)).tolist()
    nodes = g.nodes
    index = {id(nd): i for i, nd in enumerate(nodes)}
    keep_l = keep_el.tolist()
    owner_kept = kept_el[owner].tolist()
    stack = [0]
    while stack:
        i = stack.pop()
        node = nodes[i]
        out = []
        kids = [index[id(ch)] if ch.tag != TEXT else -1 for ch in node.children]
        kept_at = [p for p, j in enumerate(kids) if j >= 0 and keep_l[j]]
        for p, ch in enumerate(node.children):
            if ch.tag == TEXT:
                if owner_kept[i]:
                    out.append(ch)
                continue
            j = kids[p]
            if keep_l[j]:
                out.append(ch)
                stack.append(j)
            elif media_only[j] and (has_kept[i] or i == 0) and (
                    media_inside or (kept_at and kept_at[0] < p < kept_at[-1])):
                out.append(ch)  # a figure of the kept content, whole
            else:
                if removed is not None:
                    text = " ".join(ch.text_content().split())
                    if text or media_only[j]:
                        removed.append(Removal("classify", reason(j) if text else "media outside the kept text",
                                               ch.tag, ch.class_id[:100], len(text), text[:_PREVIEW]))
                ch.parent = None
        node.children = out
    container = Node("div")
    body = nodes[0]
    for ch in list(body.children):
        container.append(ch)
    body.children = []
    return container


def classify_main_content(body: Node, extractor: str, log: bool = True, page_type: str | None = None,
                          url: str | None = None, story: bool = False, shop: bool = False,
                          ablation: Ablation = Ablation()) -> Selection:
    """Run extractor ``extractor`` (one of :data:`LEARNED_EXTRACTORS`) on the pruned
    ``body``; see the module docstring. ``gbdt``/``gnn`` prepare ``body`` in place
    (the pipeline is done with it); when a model keeps nothing, the heuristic runs on it.
    ``log=False``: no removal log (``Selection.removed`` stays empty). ``page_type``
    (``Metadata.page_type``) and ``url`` (the page's address) feed the page-level features
    (:func:`.features.page_features`); ``story``: drop comment threads as on a page declared
    a story whatever ``page_type`` says (:func:`.sections.comment_units`); ``shop``: drop
    customer reviews as on a page declared a product (:func:`.sections.review_units`: the
    page names an add-to-cart action, :func:`unclutter.route.select`); ``ablation``: the
    switches of experiments (``Options.ablation``; the default is what ships)."""
    t0 = time.perf_counter()
    name = extractor
    lines: list[str] = []
    removed: list[Removal] | None = [] if log else None
    if name == "cetd":
        g = build_graph(body)
        keep, t = cetd_keep(g)
        prob = None
        lines.append(f"cetd: threshold CTD {t:.1f}, kept {int(keep.sum())}/{g.units.size} blocks")

        def reason(j: int) -> str:
            return f"cetd: CTD {g.ctd[j]:.1f} below threshold {t:.1f} or outside the content region"
    else:
        model = registry.get_model(name, ablation.model_file(name))
        # prepared in place: the pipeline is done with ``body`` (the heuristic fallback
        # below reads the prepared tree)
        g = build_graph(body, vocab=model.vocab, copy=False, page_type=page_type, url=url)
        if getattr(model, "context", None) is not None and not ablation.context:
            prob = model.predict_units(g, stages=1)  # ablation: the first stage alone
            threshold = float(model.meta.get("first_stage_threshold", model.threshold))
        else:
            prob = model.predict_units(g)
            threshold = model.threshold
        keep = prob >= threshold
        lines.append(f"{name}: kept {int(keep.sum())}/{g.units.size} blocks with P(content) >= {threshold:.2f}")
        if model.recovery and ablation.recovery:
            rec = recover(g, keep, prob)
            keep[rec] = True
            lines.append(f"densitysum: recovered {rec.size} blocks inside content regions")
        if ablation.sections:
            for kind, rule in (("comment-thread", lambda: comment_units(g, keep, page_type, story)),
                               ("customer-review", lambda: review_units(g, keep, page_type, shop)),
                               ("related-content", lambda: related_section_units(g, keep))):
                drop = rule()  # each rule sees what the one before it left
                if drop.size:
                    keep[drop] = False
                    lines.append(f"{name}: dropped {drop.size} blocks of {kind} sections")
        if ablation.tables:
            whole, gone = atomic_tables(g, keep)
            if whole or gone:
                lines.append(f"{name}: {whole} data tables kept whole, {gone} dropped whole")
        orphans = orphan_headings(g, keep)
        if orphans:
            keep[orphans] = False
            lines.append(f"{name}: dropped {len(orphans)} headings that introduce nothing kept")
        unit_pos = {int(u): j for j, u in enumerate(g.units.tolist())}

        def reason(j: int) -> str:
            k = unit_pos.get(j)
            p = f"P(content) {prob[k]:.2f}" if k is not None else "no kept block inside"
            return f"{name}: {p}"
    if not keep.any():
        lines.append(f"{name}: nothing kept; using the heuristic selection")
        sel = select_main_content(body, log=log)
        sel.attempts = lines + sel.attempts
        return sel
    root = _rebuild(g, keep, removed, reason)
    chars = collapsed_len(root.text_content())
    lines.append(f"{name}: {chars} chars in {1000 * (time.perf_counter() - t0):.1f} ms")
    return Selection(root=root, top=g.nodes[0], chars=chars, attempts=lines, removed=removed or [])
