"""Choose the main-content candidate and what joins it (steps 2 and 3 of
:mod:`unclutter.score.select`).

* :func:`pick_top`: the best-scoring candidate, promoted to the ancestor of a split article
  (near-equal candidates under one ancestor, the sections of a long article, the chunks of a
  body cut in pieces), then climbed while a parent scores higher;
* :func:`repeated_posts`: the posts of a thread, kept together;
* :func:`merge_siblings`: the candidate's siblings that belong to the same article
  (Readability.js ``_grabArticle``'s sibling pass), and the headings, figures, lists and
  tables bridging them.

Constants and their sources are in :mod:`unclutter.score.weights`.
"""

from __future__ import annotations

import heapq
import re
from functools import lru_cache
from operator import itemgetter

from ..core.dom import TEXT, Node
from .features import TextStats
from .heuristic import Scores
from .weights import (
    ALTERNATIVE_CANDIDATE_SHARE,
    CHUNK_MAX_LEVELS,
    FRAGMENT_TAGS,
    HEADING_TAGS,
    MIN_ALTERNATIVE_ANCESTORS,
    MIN_SECTION_CANDIDATES,
    PARENT_CLIMB_MIN_SHARE,
    POST_CLASS_RE,
    POST_MAX_LEVELS,
    POST_MAX_LINK_DENSITY,
    POST_MIN_CHARS,
    POST_MIN_SIMILAR,
    RELATED_HEADING_RE,
    SECTION_CANDIDATES,
    SECTION_CANDIDATE_SHARE,
    SECTION_CHARS_RATIO,
    SECTION_EXCLUDED_RE,
    SECTION_MAX_LINK_DENSITY,
    SECTION_MIN_CHARS,
    SIBLING_MAX_LINK_DENSITY,
    SIBLING_MIN_SCORE,
    SIBLING_PARAGRAPH_CHARS,
    SIBLING_SAME_CLASS_BONUS,
    SIBLING_SAME_CLASS_CHARS,
    SIBLING_SAME_CLASS_MAX_LINK_DENSITY,
    SIBLING_SCORE_SHARE,
    SPLIT_BODY_CHARS_RATIO,
    SPLIT_BODY_SCORE_SHARE,
    TOP_CANDIDATES,
)

__all__ = ["pick_top", "repeated_posts", "merge_siblings", "rival_share"]

_SENTENCE_END_RE = re.compile(r"[.!?:\u3002](?:\s|$)")
_BRIDGE_TAGS = HEADING_TAGS | frozenset({"figure", "ul", "ol", "dl", "table", "blockquote", "pre", "img", "picture", "hr"})


#: Candidates looked at for a rival of the chosen one (the best-scoring first).
RIVAL_CANDIDATES = 10


def rival_share(top: Node, scores: Scores) -> float:
    """Score of the best candidate outside the chosen ``top`` (neither inside it nor one of
    its ancestors) as a share of the best score, in [0, 1]: near 1, the page has another
    region that scored as well as the one taken (two articles, a story beside a long
    comment thread), a reason to trust the choice less. 0 when nothing else scored."""
    if not scores.score:
        return 0.0
    best = heapq.nlargest(RIVAL_CANDIDATES, scores.score.items(), key=itemgetter(1))
    top_score = best[0][1]
    if top_score <= 0:
        return 0.0
    around = {id(a) for a in top.ancestors()}
    for key, score in best:
        node = scores.nodes[key]
        if node is top or key in around or any(a is top for a in node.ancestors()):
            continue  # the chosen region, inside it or around it
        return min(1.0, max(0.0, score / top_score))
    return 0.0


def pick_top(body: Node, scores: Scores, stats: TextStats) -> Node:
    """The node the article is taken from: ``body`` when nothing scored, else the best
    candidate, promoted to the ancestor of a split article and climbed as the module
    docstring says."""
    if not scores.score:
        return body
    # the best candidates, best first (ties in scoring order, as a stable sort leaves them)
    best = heapq.nlargest(max(TOP_CANDIDATES, SECTION_CANDIDATES), scores.score.items(), key=itemgetter(1))
    ranked = best[:TOP_CANDIDATES]
    top = scores.nodes[ranked[0][0]]
    top_score = ranked[0][1]
    if top is body:
        return body
    # Split articles: several near-equal candidates under one ancestor -> that ancestor.
    alternatives = [scores.nodes[k] for k, s in ranked[1:] if top_score > 0 and s / top_score >= ALTERNATIVE_CANDIDATE_SHARE]
    promoted = False
    if len(alternatives) >= MIN_ALTERNATIVE_ANCESTORS:
        alt_ancestors = [set(id(a) for a in alt.ancestors()) for alt in alternatives]
        anc = top.parent
        while anc is not None and anc is not body:
            if sum(1 for s in alt_ancestors if id(anc) in s) >= MIN_ALTERNATIVE_ANCESTORS:
                top, promoted = anc, True
                break
            anc = anc.parent
    if not promoted:
        top = _sections_ancestor(top, top_score, best[1:SECTION_CANDIDATES], body, scores, stats)
        top = _chunks_ancestor(top, body, stats)
    # Climb while a parent scores better (the article is larger than this part of it).
    last = scores.get(top) or 0.0
    threshold = last * PARENT_CLIMB_MIN_SHARE
    parent = top.parent
    while parent is not None and parent is not body and parent.tag not in ("#document", "html"):
        ps = scores.get(parent)
        if ps is None:
            parent = parent.parent
            continue
        if ps < threshold:
            break
        if ps > last:
            top = parent
            break
        last = ps
        parent = parent.parent
    # A split body further up: the climb above stops at the first weak parent, but the
    # blocks of a page-builder article can sit several weak wrappers below their column.
    top_chars = stats.chars.get(id(top), 0)
    anc = top.parent
    while anc is not None and anc is not body and anc.tag not in ("#document", "html"):
        ps = scores.get(anc)
        if ps is not None and ps >= SPLIT_BODY_SCORE_SHARE * top_score and stats.chars.get(
                id(anc), 0) >= SPLIT_BODY_CHARS_RATIO * top_chars:
            top = anc
            break
        anc = anc.parent
    # A lone child adds nothing: use its parent; a list, list item or table part is a
    # fragment of the article: use its container.
    while top is not body and top.parent is not None and top.parent is not body:
        if top.tag in FRAGMENT_TAGS or len(
            [c for c in top.parent.children if c.tag != TEXT or (c.text and not c.text.isspace())]
        ) == 1:
            top = top.parent
        else:
            break
    return top


def _sections_ancestor(top: Node, top_score: float, ranked: list[tuple[int, float]], body: Node,
                       scores: Scores, stats: TextStats) -> Node:
    """``top``, or the nearest ancestor (below ``body``) it shares with the sections of a
    long article: see ``SECTION_CANDIDATES`` in :mod:`unclutter.score.weights`. ``ranked``:
    the candidates after the best one, as ``(id, score)``, best first."""
    if top_score <= 0 or len(scores.score) <= MIN_SECTION_CANDIDATES:
        return top
    line = {id(a) for a in top.ancestors()}
    line.add(id(top))
    sections = []
    for k, s in ranked:
        if s < SECTION_CANDIDATE_SHARE * top_score:
            break
        node = scores.nodes[k]
        if k in line or stats.chars.get(k, 0) < SECTION_MIN_CHARS or (
                stats.link_density(node) > SECTION_MAX_LINK_DENSITY) or _excluded_section(node.class_id):
            continue
        ancestors = {id(a) for a in node.ancestors()}
        if id(top) in ancestors:
            continue  # inside the top candidate
        sections.append((node, ancestors))
    if len(sections) < MIN_SECTION_CANDIDATES:
        return top
    anc = top.parent
    while anc is not None and anc is not body and anc.tag not in ("#document", "html"):
        inside = [(n, a) for n, a in sections if id(anc) in a]
        if len(inside) >= MIN_SECTION_CANDIDATES:
            ids = {id(n) for n, _ in inside}
            # characters of the outermost sections only (a section's wrapper may rank too)
            chars = sum(stats.chars.get(id(n), 0) for n, a in inside if not (a & ids))
            if chars >= SECTION_CHARS_RATIO * stats.chars.get(id(top), 0) and (
                    stats.link_density(anc) <= SECTION_MAX_LINK_DENSITY):
                return anc
            return top
        anc = anc.parent
    return top


def _chunks_ancestor(top: Node, body: Node, stats: TextStats) -> Node:
    """``top``, or the nearest ancestor holding the other chunks of an article body cut
    in pieces (see ``CHUNK_MAX_LEVELS`` in :mod:`unclutter.score.weights`)."""
    cls = top.attrs.get("class")
    if not cls or top is body or stats.chars.get(id(top), 0) < SECTION_MIN_CHARS:
        return top
    line: list[Node] = []  # top's ancestors below body, nearest first
    a = top.parent
    while a is not None and a is not body and len(line) < CHUNK_MAX_LEVELS:
        line.append(a)
        a = a.parent
    if not line:
        return top
    outer = line[-1]
    tag = top.tag
    chunks = [n for n in outer.iter_elements(include_self=False)
              if n is not top and n.tag == tag and n.attrs.get("class") == cls
              and stats.chars.get(id(n), 0) >= SECTION_MIN_CHARS
              and stats.link_density(n) <= SECTION_MAX_LINK_DENSITY]
    if not chunks:
        return top
    inside = {id(n) for n in top.iter_elements(include_self=False)}
    around = {id(n) for n in line}
    chunks = [n for n in chunks if id(n) not in inside and id(n) not in around]
    if not chunks:
        return top
    for anc in line:
        held = {id(n) for n in anc.iter_elements(include_self=False)}
        if all(id(n) in held for n in chunks):
            # twins: every chunk sits in the same chain of wrappers (tags and classes)
            # below the ancestor as the top candidate: one body cut in pieces, not a
            # comment, review or teaser that reuses the body's class in a box of its own
            path = _wrapper_path(top, anc)
            if any(_wrapper_path(n, anc) != path for n in chunks):
                return top
            return anc if stats.link_density(anc) <= SECTION_MAX_LINK_DENSITY else top
    return top


def _wrapper_path(node: Node, ancestor: Node) -> list[tuple[str, str]]:
    """The ``(tag, class)`` of the elements from ``node`` up to, not including,
    ``ancestor``."""
    out = []
    while node is not None and node is not ancestor:
        out.append((node.tag, node.attrs.get("class", "")))
        node = node.parent
    return out


def repeated_posts(top: Node, body: Node, stats: TextStats) -> list[Node] | None:
    """The posts of a thread holding ``top`` (see ``POST_CLASS_RE`` in
    :mod:`unclutter.score.weights`), in document order, or ``None``: the nearest of ``top``
    and its ancestors (at most ``POST_MAX_LEVELS`` up, below ``body``) whose class names a
    post and which has at least ``POST_MIN_SIMILAR`` such siblings holding prose."""
    a = top
    for _ in range(POST_MAX_LEVELS):
        p = a.parent
        if p is None or a is body or p is body:
            return None
        cls = a.attrs.get("class", "")
        if cls and _post_class(cls):
            tag = a.tag
            similar = [s for s in p.children if s is not a and s.tag == tag and _post_class(s.attrs.get("class", ""))
                       and stats.chars.get(id(s), 0) >= POST_MIN_CHARS
                       and stats.link_density(s) <= POST_MAX_LINK_DENSITY]
            if len(similar) >= POST_MIN_SIMILAR:
                keep = {id(s) for s in similar} | {id(a)}
                return [s for s in p.children if id(s) in keep]
        a = p
    return None


@lru_cache(maxsize=8192)
def _excluded_section(class_id: str) -> bool:
    return bool(class_id) and SECTION_EXCLUDED_RE.search(class_id) is not None


@lru_cache(maxsize=8192)
def _post_class(class_value: str) -> bool:
    return bool(class_value) and POST_CLASS_RE.search(class_value) is not None


def merge_siblings(top: Node, body: Node, scores: Scores, stats: TextStats) -> list[Node]:
    """``top`` and the siblings that belong to the same article, in document order
    (``[top]`` when ``top`` is ``body``)."""
    if top is body or top.parent is None:
        return [top]
    top_score = scores.get(top) or 0.0
    threshold = max(SIBLING_MIN_SCORE, top_score * SIBLING_SCORE_SHARE)
    top_class = top.attrs.get("class", "")
    siblings = [c for c in top.parent.children if c.tag != TEXT]
    keep = [False] * len(siblings)
    for i, sib in enumerate(siblings):
        if sib is top:
            keep[i] = True
            continue
        if _opens_with_related_heading(sib):
            continue  # other pages' teasers beside the story ("You may also like")
        same_class = bool(top_class) and sib.attrs.get("class", "") == top_class
        bonus = top_score * SIBLING_SAME_CLASS_BONUS if same_class else 0.0
        s = scores.get(sib)
        if s is not None and s + bonus >= threshold:
            keep[i] = True
        elif s is None and same_class and stats.chars.get(id(sib), 0) >= SIBLING_SAME_CLASS_CHARS and (
                stats.link_density(sib) < SIBLING_SAME_CLASS_MAX_LINK_DENSITY):
            keep[i] = True  # an unscored section of the same article (its paragraphs sit deeper)
        elif sib.tag == "p":
            chars = stats.chars.get(id(sib), 0)
            ld = stats.link_density(sib)
            if chars > SIBLING_PARAGRAPH_CHARS and ld < SIBLING_MAX_LINK_DENSITY:
                keep[i] = True
            elif 0 < chars <= SIBLING_PARAGRAPH_CHARS and ld == 0 and _SENTENCE_END_RE.search(
                " ".join(sib.text_content().split())
            ):
                keep[i] = True
    # Bridge: headings/figures/lists/tables between kept blocks, and a heading right
    # before the first kept block (the section title of a split article).
    kept_idx = [i for i, k in enumerate(keep) if k]
    first, last = kept_idx[0], kept_idx[-1]
    for i in range(first + 1, last):
        sib = siblings[i]
        if not keep[i] and sib.tag in _BRIDGE_TAGS and stats.link_density(sib) <= SIBLING_MAX_LINK_DENSITY:
            keep[i] = True
    j = first - 1
    while j >= 0 and siblings[j].tag in HEADING_TAGS | {"figure", "picture", "img"}:
        keep[j] = True
        j -= 1
    return [s for s, k in zip(siblings, keep) if k]



def _opens_with_related_heading(node: Node) -> bool:
    """Whether the first text of ``node`` (pre-order) lies in a heading (``<h1>``-``<h6>``)
    whose whole text is a related-content heading (``RELATED_HEADING_RE``)."""
    stack: list[tuple[Node, Node | None]] = [(node, None)]
    while stack:
        n, heading = stack.pop()
        if n.tag == TEXT:
            if n.text and not n.text.isspace():
                return heading is not None and bool(
                    RELATED_HEADING_RE.match(" ".join(heading.text_content().split())))
            continue
        if n.children:
            h = n if heading is None and n.tag in HEADING_TAGS else heading
            stack.extend((c, h) for c in reversed(n.children))
    return False

