"""Pick the main content: top candidate, sibling merge, conditional cleaning, retry ladder.

Input: the pruned ``<body>``. Output: :class:`Selection`, whose ``root`` is a new ``<div>``
holding the kept nodes in document order.

Steps (Readability.js ``_grabArticle``/``_prepArticle``; constants in
:mod:`unclutter.score.weights`):

1. score the page (:mod:`unclutter.score.heuristic`);
2. take the best candidate; when at least ``MIN_ALTERNATIVE_ANCESTORS`` of the
   ``TOP_CANDIDATES`` best score within ``ALTERNATIVE_CANDIDATE_SHARE`` of it and share an
   ancestor, promote that ancestor (split articles); climb while the parent scores higher
   (:func:`unclutter.score.candidates.pick_top`);
3. a thread (the top candidate, or an ancestor, is one of several sibling posts:
   ``POST_CLASS_RE``) keeps its posts; otherwise merge siblings that look like the same
   article: scored siblings above ``max(SIBLING_MIN_SCORE, SIBLING_SCORE_SHARE * top)``
   (same class gets a bonus), paragraphs that read as prose, and headings/figures/lists/
   tables lying between merged blocks (a lede before the main block, a section heading
   between two parts) (:mod:`unclutter.score.candidates`);
4. clean the result conditionally (negative class weight, link-only blocks, image/list
   heavy blocks, share widgets, bylines) (:mod:`unclutter.score.cleaning`);
5. relax and retry (this module): (strip unlikely, class weights, conditional cleaning) are
   switched off one by one (:data:`ATTEMPTS`) while the result holds fewer than
   ``min(MIN_ARTICLE_CHARS, RETRY_PAGE_SHARE * page characters)``; the longest result wins
   when no attempt passes. Every attempt is recorded in ``Selection.attempts``.

In place (``select_main_content(in_place=True)``), the first attempt edits the page tree
itself and records each edit in an :class:`~unclutter.core.dom.UndoLog`, undone before a
second attempt runs on a copy.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dom import Node, UndoLog
from ..core.models import Removal
from .candidates import merge_siblings, pick_top, repeated_posts, rival_share
from .cleaning import clean_selection
from .features import collapsed_len, compute_stats
from .heuristic import prepare, score_paragraphs
from .weights import MIN_ARTICLE_CHARS, RETRY_PAGE_SHARE

__all__ = ["Selection", "Attempt", "select_main_content", "ATTEMPTS"]


@dataclass(frozen=True)
class Attempt:
    """One rung of the relax-and-retry ladder."""

    strip_unlikely: bool
    weight_classes: bool
    clean_conditionally: bool

    def describe(self) -> str:
        on = [n for n, v in (("strip-unlikely", self.strip_unlikely),
                             ("class-weights", self.weight_classes),
                             ("clean-conditionally", self.clean_conditionally)) if v]
        return "+".join(on) or "no-filters"


#: The ladder, strictest first (Readability.js FLAG_STRIP_UNLIKELYS, FLAG_WEIGHT_CLASSES,
#: FLAG_CLEAN_CONDITIONALLY removed in that order).
ATTEMPTS = (
    Attempt(True, True, True),
    Attempt(False, True, True),
    Attempt(False, False, True),
    Attempt(False, False, False),
)


@dataclass
class Selection:
    """Output of the selection step.

    Attributes:
        root: new ``<div>`` whose children are the kept nodes (moved out of the page tree).
        top: the winning candidate node.
        chars: characters of whitespace-collapsed text in ``root``.
        attempts: one line per ladder attempt: flags, chosen candidate, characters.
        removed: what scoring and cleaning removed, for ``--explain``.
        rival_share: score of the heuristic's best candidate outside the chosen region as
            a share of the best score (:func:`~unclutter.score.candidates.rival_share`);
            0 when the heuristic did not run or nothing else scored.
    """

    root: Node
    top: Node
    chars: int
    attempts: list[str] = field(default_factory=list)
    removed: list[Removal] = field(default_factory=list)
    rival_share: float = 0.0


def _describe(node: Node) -> str:
    cid = node.class_id
    return f"<{node.tag}{' ' + repr(cid[:40]) if cid else ''}>"


def _run_attempt(body: Node, attempt: Attempt, removed: list[Removal] | None,
                 undo: UndoLog | None = None, page_chars: int | None = None) -> Selection:
    """One attempt on ``body`` (mutated; every edit recorded in ``undo`` first, if given;
    ``page_chars`` as for :func:`prepare`)."""
    paragraphs = prepare(body, attempt.strip_unlikely, removed, page_chars, undo)
    stats = compute_stats(body)
    scores = score_paragraphs(paragraphs, stats, attempt.weight_classes)
    top = pick_top(body, scores, stats)
    rival = rival_share(top, scores)
    posts = repeated_posts(top, body, stats)
    if posts is not None:
        top, kept = posts[0], posts
    else:
        kept = merge_siblings(top, body, scores, stats)
    protected = frozenset(map(id, posts)) if posts else frozenset()
    container = Node("div")
    if top is body:
        if undo is not None:
            undo.record(body)  # its children's parent links change
        for c in list(body.children):
            container.append(c)
    else:
        for c in kept:
            if undo is not None:
                undo.record(c.parent)
            c.remove()
            container.append(c)
    clean_selection(container, scores, stats, attempt, removed, top, undo, protected)
    chars = collapsed_len(container.text_content())
    return Selection(root=container, top=top, chars=chars, rival_share=rival)


def select_main_content(body: Node, *, in_place: bool = False, log: bool = True,
                        body_chars: int | None = None) -> Selection:
    """Run the ladder of :data:`ATTEMPTS` on ``body``. See the module docstring.

    With ``in_place=False`` (the default) ``body`` is not changed: each attempt works on a
    copy. With ``in_place=True`` (the pipeline, which is done with the page tree) the
    first attempt works on ``body`` itself, its edits recorded in an
    :class:`~unclutter.core.dom.UndoLog` and undone if a further attempt is needed, which
    saves copying the tree on most pages; ``body`` is left in an unspecified state and the
    selected nodes are moved out of it.

    The page's character count (for ``RETRY_PAGE_SHARE``) is only read when an attempt
    keeps fewer than ``MIN_ARTICLE_CHARS`` characters. With ``log=False`` no removal log is
    kept (``Selection.removed`` stays empty; the selection is the same). ``body_chars``:
    ``len(body.text_content())`` when the caller knows it (``PruneResult.chars``), else it
    is counted when needed.
    """
    undo = UndoLog() if in_place else None
    page_chars: int | None = None  # characters of the page's text, collapsed; read when needed
    best: Selection | None = None
    lines: list[str] = []
    for n, attempt in enumerate(ATTEMPTS):
        removed: list[Removal] | None = [] if log else None
        if n == 0 and undo is not None:
            sel = _run_attempt(body, attempt, removed, undo, body_chars)
        else:
            sel = _run_attempt(body.clone(), attempt, removed, None, body_chars)
        sel.removed = removed or []
        lines.append(f"attempt {attempt.describe()}: top {_describe(sel.top)}, {sel.chars} chars")
        if sel.chars >= MIN_ARTICLE_CHARS:
            best = sel
            break
        if undo is not None:
            # keep this result whole, then give ``body`` back its original shape
            sel = Selection(root=sel.root.clone(), top=sel.top, chars=sel.chars, removed=removed or [],
                            rival_share=sel.rival_share)
            undo.undo()
            undo = None
        if best is None or sel.chars > best.chars:
            best = sel
        if page_chars is None:
            page_chars = collapsed_len(body.text_content())
        if sel.chars >= RETRY_PAGE_SHARE * page_chars:
            best = sel
            break
    assert best is not None
    best.attempts = lines
    return best
