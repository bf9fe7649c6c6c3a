"""Section rules after classification: comment threads under a story, customer reviews
under a product, related-content boxes.

The classifiers judge one unit (block owning text) at a time, with its context
(:mod:`.context`); two kinds of whole sections they keep too often are dropped by rule
after them (``gbdt`` and ``gnn``; not CETD, which has no page type), one rule after the
other, each seeing only the units still kept. Both return indices into ``g.units``.

* :func:`comment_units`: on a page *declared a story* (``Metadata.page_type`` in
  :data:`unclutter.core.pagetypes.STORY_PAGE_TYPES`: article, recipe, video, event),
  the kept units inside an element with a class or id token naming a comment thread
  (:data:`unclutter.core.threads.COMMENT_CONTAINER_RE`, state tokens such as ``comments-open`` or
  ``has-comments`` left out: :data:`unclutter.core.threads.COMMENT_STATE_RE`), unless that element
  holds the first kept unit of the page (it wraps the story, whatever its class says).
  Readers' comments are not the article (the AEB and wcxb-dev ground truths leave them
  out), but on a forum or Q&A thread, or a page that declares nothing, posts are often
  marked up as comments (old Reddit, Slashdot, Lemmy): those keep them. The models learn
  threads from forum pages, where replies are the content, and keep them under articles
  too.
* :func:`review_units`: on a page *declared a product* (``Metadata.page_type``
  ``"product"``) or one ``auto`` sends to the learned extractor for its add-to-cart
  action, the kept units inside an element with a class or id token naming a
  container of customer reviews (:data:`unclutter.core.threads.REVIEW_CONTAINER_RE`: ``reviews``,
  ``product-reviews``, ``okeReviews``; a publisher's "Editorial Reviews" left out), unless
  that element holds the first kept unit and at least
  :data:`.constants.REVIEW_WRAPPER_MIN_SHARE` of the kept text (a box of review
  highlights above the description holds the first unit, not the product) or is an
  ``<article>`` or ``<main>`` (a review site's post). Reviews are a product page's comment thread:
  the wcxb-dev ground truths of product pages mostly leave them out, and the models keep
  them as they keep forum replies.
* :func:`related_section_units`: on every page, a kept *heading* (``h1``-``h6``) whose
  whole text is a related-content label (:data:`unclutter.score.weights.RELATED_HEADING_RE`,
  the heuristic's own list, which it also reads on headings only: "You may also like",
  "Related stories", "Leia também"...) and its section: the kept units after it up to the
  next heading of the same or a higher level, within the outermost element the heading
  opens (the box it titles; its parent when it opens nothing larger than itself), when
  the section holds less than :data:`.constants.RELATED_SECTION_MAX_SHARE` of the
  characters kept on the page (teasers are beside the main content, never most of it: a
  "Related" heading opening the story's own container drops nothing).

Measured on wcxb-dev (5-fold CV by site, fold models through the real pipeline,
``--extractor gbdt``) and on AEB (read for the diagnosis; never trained on): see
``MODEL_CARD.md``. ``Options.ablation`` (``Ablation(sections=False)``) switches them off.
Cost: one pass over the elements for the comment rule (declared stories only), and a
text read of each short heading for the other.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..core.pagetypes import STORY_PAGE_TYPES
from ..core.threads import names_comment_thread, names_review_section
from ..score.weights import RELATED_HEADING_RE
from .constants import (
    RELATED_LABEL_MAX_CHARS,
    REVIEW_WRAPPER_MIN_SHARE,
    RELATED_SECTION_MAX_SHARE,
)
from .features import PageGraph

__all__ = ["comment_units", "review_units", "related_section_units", "names_comment_thread",
           "names_review_section", "HEADING_LEVEL"]

#: Heading level of each heading tag (``h1`` = 1 ... ``h6`` = 6).
HEADING_LEVEL = {f"h{k}": k for k in range(1, 7)}

_EMPTY = np.zeros(0, dtype=np.int64)


def comment_units(g: PageGraph, keep: np.ndarray, page_type: str | None, story: bool = False) -> np.ndarray:
    """Indices (into ``g.units``) of kept units inside a comment thread, on a page whose
    declared type ``page_type`` is a story, or that the caller treats as one (``story``:
    ``auto``'s second opinion on a page the heuristic read as one article, see
    :data:`unclutter.route.AUTO_SECOND_OPINION_RATIO`); empty otherwise (see the
    module docstring). ``keep``: one flag per unit."""
    if (page_type not in STORY_PAGE_TYPES and not story) or not keep.any():
        return _EMPTY
    return _units_inside(g, keep, names_comment_thread)


def review_units(g: PageGraph, keep: np.ndarray, page_type: str | None, shop: bool = False) -> np.ndarray:
    """Indices (into ``g.units``) of kept units inside a customer-reviews section, on a
    page declared a product (``page_type`` ``"product"``) or that the caller reads as a
    shop's (``shop``: ``auto`` found an add-to-cart action on a page declaring no story);
    empty otherwise (see the module docstring). ``keep``: one flag per unit."""
    if (page_type != "product" and not shop) or not keep.any():
        return _EMPTY
    # (an <article> or <main> so named is a review site's post, whatever its class says)
    return _units_inside(g, keep, names_review_section, spare=("article", "main"),
                         wrap_share=REVIEW_WRAPPER_MIN_SHARE)


def _units_inside(g: PageGraph, keep: np.ndarray, names: Callable[[str], bool],
                  spare: tuple[str, ...] = (), wrap_share: float = 0.0) -> np.ndarray:
    """Indices (into ``g.units``) of kept units inside an element whose class/id string
    ``names`` accepts, unless that element holds the first kept unit and at least
    ``wrap_share`` of the kept characters (it wraps the main content, whatever its class
    says) or its tag is in ``spare``. ``keep`` has at least one flag set."""
    first = int(g.units[int(np.argmax(keep))])  # the element of the first kept unit
    end = g.end.tolist()
    inside = np.zeros(g.n, dtype=bool)
    parent = g.parent.tolist()
    nodes = g.nodes
    kept_before = None  # kept characters of the units before each unit (a prefix sum)
    for i in range(1, g.n):  # pre-order: a parent comes before its children
        if inside[parent[i]]:
            inside[i] = True
            continue
        if nodes[i].tag in spare or not names(nodes[i].class_id):
            continue
        if i <= first < end[i]:
            if not wrap_share:
                continue
            if kept_before is None:
                kept_before = np.concatenate(([0.0], np.cumsum(g.raw["OC"][g.units] * keep)))
            a, b = np.searchsorted(g.units, (i, end[i]))
            if kept_before[b] - kept_before[a] >= wrap_share * kept_before[-1]:
                continue
        inside[i] = True
    return np.flatnonzero(inside[g.units] & keep)


def related_section_units(g: PageGraph, keep: np.ndarray) -> np.ndarray:
    """Indices (into ``g.units``) of the kept units of related-content sections: each
    kept label heading and its section (see the module docstring). ``keep``: one flag per
    unit."""
    units = g.units.tolist()
    tags = g.raw["tag"]
    chars = g.raw["C"]
    level_of = [HEADING_LEVEL.get(tags[u], 0) for u in units]
    labels = [j for j, u in enumerate(units) if level_of[j] and keep[j] and chars[u] <= RELATED_LABEL_MAX_CHARS
              and RELATED_HEADING_RE.search(" ".join(g.nodes[u].text_content().split()))]
    if not labels:
        return _EMPTY
    parent = g.parent
    first_unit: dict[int, int] = {}  # element -> index of the first unit in its subtree
    for j, u in enumerate(units):
        a = u
        while a >= 0 and a not in first_unit:
            first_unit[a] = j
            a = int(parent[a])
    own = g.raw["OC"][g.units]
    kept_chars = float(own[keep].sum())
    drop = np.zeros(len(units), dtype=bool)
    for j in labels:
        if drop[j]:
            continue
        u = units[j]
        box = u
        while parent[box] > 0 and first_unit.get(int(parent[box])) == j:
            box = int(parent[box])
        if box == u:
            box = int(parent[u])
        stop = int(np.searchsorted(g.units, g.end[box]))
        end = j + 1
        while end < stop and not 0 < level_of[end] <= level_of[j]:
            end += 1
        section = float(own[j:end][keep[j:end]].sum())
        if section < RELATED_SECTION_MAX_SHARE * kept_chars:
            drop[j:end] = True
    return np.flatnonzero(drop & keep)
