"""Pick the main content: top candidate, sibling merge, conditional cleaning, retry ladder.

Input: the pruned ``<body>``. Output: :class:`Selection`, whose ``root`` is a new ``<div>``
holding the kept nodes in document order.

Steps (Readability.js ``_grabArticle``/``_prepArticle``; constants in
:mod:`unclutter.score.weights`):

1. score the page (:mod:`unclutter.score.heuristic`);
2. take the best candidate; when at least ``MIN_ALTERNATIVE_ANCESTORS`` of the
   ``TOP_CANDIDATES`` best score within ``ALTERNATIVE_CANDIDATE_SHARE`` of it and share an
   ancestor, promote that ancestor (split articles); climb while the parent scores higher;
3. a thread (the top candidate, or an ancestor, is one of several sibling posts:
   ``POST_CLASS_RE``) keeps its posts; otherwise merge siblings that look like the same article: scored siblings above
   ``max(SIBLING_MIN_SCORE, SIBLING_SCORE_SHARE * top)`` (same class gets a bonus),
   paragraphs that read as prose, and headings/figures/lists/tables lying between merged
   blocks (a lede before the main block, a section heading between two parts);
4. clean the result conditionally (negative class weight, link-only blocks, image/list
   heavy blocks, share widgets, bylines);
5. relax and retry: (strip unlikely, class weights, conditional cleaning) are switched off
   one by one while the result holds fewer than
   ``min(MIN_ARTICLE_CHARS, RETRY_PAGE_SHARE * page characters)``; the longest result wins
   when no attempt passes. Every attempt is recorded in ``Selection.attempts``.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter

from ..core.dom import TEXT, Node, UndoLog
from ..core.models import Removal
from .features import TextStats, collapsed_len, compute_stats
from .heuristic import (
    Scores,
    class_weight,
    embedded_posts,
    link_only_share,
    prepare,
    score_paragraphs,
)
from .weights import (
    AD_BLOCK_MAX_CHARS,
    AD_CLASS_RE,
    ALTERNATIVE_CANDIDATE_SHARE,
    BOILERPLATE_LINE_MAX_CHARS,
    BOILERPLATE_LINE_RE,
    BOILERPLATE_MAX_CHARS,
    BOILERPLATE_TEXT_RE,
    BYLINE_MAX_CHARS,
    BYLINE_RE,
    CHUNK_MAX_LEVELS,
    CAPITALS_LINK_MAX_CHARS,
    CAPITALS_LINK_MIN_LETTERS,
    CAPITALS_LINK_MIN_LINK_DENSITY,
    CAPITALS_LINK_MIN_WORDS,
    CAPITALS_LINK_TAGS,
    CLASS_WEIGHT,
    RELATED_HEADING_RE,
    RELATED_LINE_MIN_LINK_DENSITY,
    RELATED_LINE_RE,
    CLEAN_KEEP_COMMAS,
    CLEAN_MAX_LINK_DENSITY,
    CLEAN_MAX_LINK_DENSITY_POSITIVE,
    CLEAN_MIN_CHARS,
    CONDITIONAL_TAGS,
    EMBEDDED_POST_MAX_CHARS,
    EMBEDDED_POST_MAX_LINK_DENSITY,
    EMBEDDED_POST_RE,
    EMBEDDED_POST_WRAPPER_MAX_OTHER_CHARS,
    FRAGMENT_TAGS,
    IMAGE_BLOCK_MAX_CHARS,
    IMAGE_PARAGRAPH_RATIO,
    INLINE_CARD_BLOCKS,
    INLINE_CARD_MAX_ELEMENTS,
    INLINE_CARD_MIN_CHARS,
    INLINE_CARD_MIN_LINK_DENSITY,
    INLINE_CARD_MIN_LINKS,
    INLINE_CARD_TAGS,
    ITEM_TITLE_PARENTS,
    LINK_ONLY_BLOCK_SHARE,
    LINK_ONLY_LEAF_SHARE,
    LIST_ITEM_ALLOWANCE,
    LIST_TEXT_SHARE,
    MIN_ALTERNATIVE_ANCESTORS,
    MIN_ARTICLE_CHARS,
    MIN_SECTION_CANDIDATES,
    PARENT_CLIMB_MIN_SHARE,
    POST_CLASS_RE,
    POST_MAX_LEVELS,
    POST_MAX_LINK_DENSITY,
    POST_MIN_CHARS,
    POST_MIN_SIMILAR,
    RETRY_PAGE_SHARE,
    SECTION_CANDIDATE_SHARE,
    SECTION_CANDIDATES,
    SECTION_CHARS_RATIO,
    SECTION_CONTENT_TAGS,
    SECTION_EXCLUDED_RE,
    SECTION_MAX_LINK_DENSITY,
    SECTION_MIN_CHARS,
    SHARE_MAX_CHARS,
    SHARE_RE,
    SIBLING_MAX_LINK_DENSITY,
    SIBLING_MIN_SCORE,
    SIBLING_PARAGRAPH_CHARS,
    SIBLING_SAME_CLASS_BONUS,
    SIBLING_SAME_CLASS_CHARS,
    SIBLING_SAME_CLASS_MAX_LINK_DENSITY,
    SIBLING_SCORE_SHARE,
    SPLIT_BODY_CHARS_RATIO,
    SPLIT_BODY_SCORE_SHARE,
    TEASER_MAX_CHARS,
    TEASER_MAX_SHARE,
    TOP_CANDIDATES,
)

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

_SENTENCE_END_RE = re.compile(r"[.!?:\u3002](?:\s|$)")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BRIDGE_TAGS = _HEADINGS | frozenset({"figure", "ul", "ol", "dl", "table", "blockquote", "pre", "img", "picture", "hr"})


@dataclass
class Selection:
    """Output of the selection step.

    Attributes:
        root: new ``<div>`` whose children are the kept nodes (moved out of the page tree).
        top: the winning candidate node.
        chars: characters of whitespace-collapsed text in ``root``.
        attempts: one line per ladder attempt: flags, chosen candidate, characters.
        removed: what scoring and cleaning removed, for ``--explain``.
    """

    root: Node
    top: Node
    chars: int
    attempts: list[str] = field(default_factory=list)
    removed: list[Removal] = field(default_factory=list)


def _log(removed: list[Removal] | None, node: Node, stats: TextStats | None, reason: str) -> None:
    if removed is None:  # no removal log kept
        return
    text = " ".join(node.text_content().split())
    removed.append(Removal("select", reason, node.tag, node.class_id[:100], len(text), text[:80]))


def _describe(node: Node) -> str:
    cid = node.class_id
    return f"<{node.tag}{' ' + repr(cid[:40]) if cid else ''}>"


def _pick_top(body: Node, scores: Scores, stats: TextStats) -> Node:
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


def _repeated_posts(top: Node, body: Node, stats: TextStats) -> list[Node] | None:
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


def _merge_siblings(top: Node, body: Node, scores: Scores, stats: TextStats) -> list[Node]:
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
    while j >= 0 and siblings[j].tag in _HEADINGS | {"figure", "picture", "img"}:
        keep[j] = True
        j -= 1
    return [s for s, k in zip(siblings, keep) if k]


def _opening_elements(container: Node) -> set[int]:
    """``id`` of the elements holding the first non-blank text of ``container``
    (pre-order): they hold the start of the selection, so they wrap the article."""
    stack = [container]
    while stack:
        n = stack.pop()
        if n.tag == TEXT:
            if n.text and not n.text.isspace():
                out = set()
                p = n.parent
                while p is not None and p is not container:
                    out.add(id(p))
                    p = p.parent
                return out
            continue
        stack.extend(reversed(n.children))
    return set()


def _related_boxes(container: Node) -> set[int]:
    """``id`` of the elements below ``container``, headings aside, whose first text lies in
    a related-content heading inside them (:func:`_opens_with_related_heading` for all of
    them in one bottom-up pass: asking each element walks a deep chain once per level)."""
    first: dict[int, Node | None] = {}  # element -> outermost heading holding its first text
    has_text: set[int] = set()
    out: set[int] = set()
    verdicts: dict[int, bool] = {}
    for node in container.elements_bottom_up():
        k = id(node)
        found = False
        heading = None
        for c in node.children:
            if c.tag == TEXT:
                if c.text and not c.text.isspace():
                    found = True
                    break
            elif id(c) in has_text:
                found = True
                heading = first[id(c)]
                break
        if not found:
            continue
        has_text.add(k)
        if node.tag in _HEADINGS:
            heading = node
        first[k] = heading
        if heading is not None and heading is not node:
            h = id(heading)
            if h not in verdicts:
                verdicts[h] = bool(RELATED_HEADING_RE.match(" ".join(heading.text_content().split())))
            if verdicts[h]:
                out.add(k)
    return out


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
            h = n if heading is None and n.tag in _HEADINGS else heading
            stack.extend((c, h) for c in reversed(n.children))
    return False


def _is_boilerplate(node: Node, chars: int, text: str | None = None) -> bool:
    """``text``: ``node``'s whitespace-collapsed text when the caller has it."""
    if not chars:
        return False
    if text is None:
        text = " ".join(node.text_content().split())
    return _boilerplate_text(text, chars < BOILERPLATE_MAX_CHARS)


def _spaced(text: str) -> str:
    """``text`` with each whitespace run as one space, ends kept (so that two such texts
    join like the originals: see :class:`_CollapsedTexts`)."""
    core = " ".join(text.split())
    if not core:
        return " " if text else ""
    return (" " if text[0].isspace() else "") + core + (" " if text[-1].isspace() else "")


class _CollapsedTexts:
    """``" ".join(node.text_content().split())`` for the nodes of one cleaning pass,
    memoised by node: each subtree's text is built once from its children's, so asking
    for every node on a chain of nested elements is linear in the chain, not quadratic
    (``text_content`` walks the whole subtree each time). Valid while the subtrees asked
    about are not edited; the pre-order cleaning walk only removes a node after asking
    about it and its ancestors."""

    def __init__(self) -> None:
        self.memo: dict[int, str] = {}

    def __call__(self, node: Node) -> str:
        return self._spaced(node).strip(" ")

    def _spaced(self, node: Node) -> str:
        memo = self.memo
        got = memo.get(id(node))
        if got is not None:
            return got
        stack: list[tuple[Node, bool]] = [(node, False)]
        while stack:
            n, ready = stack.pop()
            if id(n) in memo:
                continue
            if not ready:
                stack.append((n, True))
                stack.extend((c, False) for c in n.children if c.tag != TEXT and id(c) not in memo)
                continue
            parts: list[str] = []
            for c in n.children:
                piece = _spaced(c.text) if c.tag == TEXT else memo[id(c)]
                if piece and parts and piece[0] == " " and parts[-1][-1] == " ":
                    piece = piece[1:]
                if piece:
                    parts.append(piece)
            memo[id(n)] = "".join(parts)
        return memo[id(node)]


@lru_cache(maxsize=8192)
def _boilerplate_text(text: str, short: bool) -> bool:
    """Whether whitespace-collapsed ``text`` is page furniture: a whole boilerplate phrase
    (only checked when ``short``) or a boilerplate line. Cached: nested elements and
    repeated blocks share their texts."""
    if short and BOILERPLATE_TEXT_RE.match(text):
        return True
    return bool(BOILERPLATE_LINE_RE.search(text))


def _in_capitals(text: str) -> bool:
    """Whether ``text`` has at least ``CAPITALS_LINK_MIN_WORDS`` words and
    ``CAPITALS_LINK_MIN_LETTERS`` upper-case letters, and no lower-case one (scripts without
    case never qualify)."""
    if len(text.split()) < CAPITALS_LINK_MIN_WORDS:
        return False
    upper = 0
    for ch in text:
        if ch.islower():
            return False
        if ch.isupper():
            upper += 1
    return upper >= CAPITALS_LINK_MIN_LETTERS


@lru_cache(maxsize=8192)
def _share_class(class_id: str) -> bool:
    return bool(SHARE_RE.search(class_id))


@lru_cache(maxsize=8192)
def _ad_class(class_id: str) -> bool:
    return bool(AD_CLASS_RE.search(class_id))


@lru_cache(maxsize=8192)
def _byline_class(class_id: str) -> bool:
    return bool(BYLINE_RE.search(class_id))


_TEASER_TAGS = frozenset({"div", "li", "article", "section", "aside"})


def _linked_heading(d: Node, stats: TextStats) -> bool:
    """A heading inside a link, or whose own text is mostly link text."""
    c = stats.chars.get(id(d), 0)
    return any(a.tag == "a" and "href" in a.attrs for a in d.ancestors()) or bool(
        c and stats.link_chars.get(id(d), 0.0) >= LINK_ONLY_LEAF_SHARE * c
    )


def _permalink_heading(heading: Node, card: Node) -> bool:
    """Whether every link of ``heading`` points at the post it heads: its fragment is the id
    of ``card`` or of an element between the heading and ``card`` (a forum post's permalink
    heading, "#17 2023-12-20" linking to ``...#p2188116``, the post's own id: FluxBB,
    phpBB), not a teaser for another page."""
    links = [a for a in heading.iter_elements() if a.tag == "a" and "href" in a.attrs]
    links += [a for a in heading.ancestors() if a.tag == "a" and "href" in a.attrs]
    fragments = set()
    for a in links:
        _, sep, fragment = a.attrs["href"].partition("#")
        if not sep or not fragment:
            return False
        fragments.add(fragment)
    if not fragments:
        return False
    ids = set()
    a = heading.parent
    while a is not None:
        if a.attrs and "id" in a.attrs:
            ids.add(a.attrs["id"])
        if a is card:
            break
        a = a.parent
    return fragments <= ids


def _teasers(container: Node, stats: TextStats, attempt: Attempt) -> set[int]:
    """Teaser cards in the content: the outermost small (under ``TEASER_MAX_CHARS``)
    ``_TEASER_TAGS`` elements holding a linked heading, unless they *are* the content (a
    listing page: they hold more than ``TEASER_MAX_SHARE`` of its text).

    Found from the headings up: one walk lists the container's linked headings, and each
    one's outermost qualifying ancestor below the container is a card (a card is never a
    link itself, so whether a heading is linked does not depend on the card)."""
    if not attempt.clean_conditionally:
        return set()
    headings: list[Node] = []
    stack = list(container.children)
    while stack:
        node = stack.pop()
        kids = node.children
        if kids:
            stack.extend(kids)
        elif node.tag == TEXT:
            continue
        if node.tag in _HEADINGS:
            headings.append(node)
    if not headings:
        return set()
    chars = stats.chars
    found: dict[int, Node] = {}
    for d in headings:
        if not _linked_heading(d, stats):
            continue
        card = None
        a = d.parent
        while a is not None and a is not container:
            if a.tag in _TEASER_TAGS and chars.get(id(a), 0) < TEASER_MAX_CHARS:
                card = a
            a = a.parent
        if card is not None and not _permalink_heading(d, card):
            found[id(card)] = card
    if not found:
        return set()
    total = sum(chars.get(id(c), 0) for c in container.children if c.tag != TEXT) or 1
    if sum(chars.get(k, 0) for k in found) > TEASER_MAX_SHARE * total:
        return set()
    return set(found)


_TABLE_CELLS = frozenset({"td", "th"})


def _embedded_post_chars(container: Node, embeds: set[int], stats: TextStats) -> dict[int, int]:
    """Characters of the embedded social posts (``weights.EMBEDDED_POST_RE``
    ``<blockquote>`` elements, outermost ones) below each element of ``container`` that
    holds one (``embeds``: :func:`embedded_posts`), by ``id``: one walk, then each post's
    characters added up its ancestor chain (linear in the page for one post; a walk per
    wrapper was quadratic on deep nesting)."""
    out: dict[int, int] = {}
    stack = [c for c in container.children if id(c) in embeds]
    while stack:
        n = stack.pop()
        if n.tag == "blockquote" and EMBEDDED_POST_RE.search(n.attrs.get("class", "")):
            c = stats.chars.get(id(n), 0)
            a: Node | None = n
            while a is not None and a is not container:
                out[id(a)] = out.get(id(a), 0) + c
                a = a.parent
            continue
        stack.extend(c for c in n.children if id(c) in embeds)
    return out


def _card_parts(node: Node, limit: int) -> tuple[int, int, set[str]] | None:
    """The ``<img>`` elements, the ``<a>`` elements and their ``href`` values in ``node``'s
    subtree, or ``None`` when it holds more than ``limit`` elements (no card)."""
    img = links = 0
    hrefs: set[str] = set()
    for k, n in enumerate(node.iter_elements()):
        if k > limit:
            return None
        if n.tag == "img":
            img += 1
        elif n.tag == "a":
            links += 1
            hrefs.add(n.attrs.get("href", ""))
    return img, links, hrefs


def _inline_card(node: Node, stats: TextStats) -> bool:
    """Whether inline element ``node`` is a hover card printed in running text
    (``weights.INLINE_CARD_TAGS``): it follows the link it hangs on (its previous element
    sibling is an ``<a href>``) and repeats that link inside, sits in a text block
    (``INLINE_CARD_BLOCKS``), has ``INLINE_CARD_MIN_CHARS`` characters or more that are
    nearly all link text, and holds an image and ``INLINE_CARD_MIN_LINKS`` links, in at
    most ``INLINE_CARD_MAX_ELEMENTS`` elements."""
    parent = node.parent
    if parent is None or stats.chars.get(id(node), 0) < INLINE_CARD_MIN_CHARS or (
            stats.link_density(node) < INLINE_CARD_MIN_LINK_DENSITY):
        return False
    parts = _card_parts(node, INLINE_CARD_MAX_ELEMENTS)
    if parts is None or not parts[0] or parts[1] < INLINE_CARD_MIN_LINKS:
        return False
    before = None
    for c in parent.children:
        if c is node:
            break
        if c.tag != TEXT:
            before = c
    href = before.attrs.get("href") if before is not None and before.tag == "a" else None
    if not href or href not in parts[2]:
        return False
    block = parent
    while block is not None and block.tag in INLINE_CARD_TAGS:
        block = block.parent
    return block is not None and block.tag in INLINE_CARD_BLOCKS


def _clean(container: Node, scores: Scores, stats: TextStats, attempt: Attempt,
           removed: list[Removal] | None, top: Node, undo: UndoLog | None = None,
           posts: frozenset[int] = frozenset()) -> None:
    teasers = _teasers(container, stats, attempt)
    embeds = embedded_posts(container)
    post_chars: dict[int, int] | None = None  # _embedded_post_chars, made when first needed
    counts = None  # _subtree_counts, made when first needed
    opening = _opening_elements(container)  # the elements holding the selection's first text
    related = _related_boxes(container) if attempt.clean_conditionally else set()
    collapsed = _CollapsedTexts()  # short texts below, each asked once per node
    stack = list(reversed(container.children))
    while stack:
        node = stack.pop()
        if node.tag == TEXT:
            continue
        if node is top or id(node) in posts:  # the winning candidate (or a thread's posts) stays
            stack.extend(reversed(node.children))
            continue
        k = id(node)
        chars = stats.chars.get(k, 0)
        if k in embeds and chars <= EMBEDDED_POST_MAX_CHARS and (
                stats.link_density(node) <= EMBEDDED_POST_MAX_LINK_DENSITY):
            if post_chars is None:
                post_chars = _embedded_post_chars(container, embeds, stats)
            if chars - post_chars.get(k, 0) <= EMBEDDED_POST_WRAPPER_MAX_OTHER_CHARS:
                continue  # a quoted social post (and its wrapper) stays whole
            # a region quoting a post: kept for the post's sake, the rest of it cleaned
            stack.extend(reversed(node.children))
            continue
        if node.tag in _TABLE_CELLS:
            # a cell never goes alone: the cells after it would move under the wrong
            # column headers (what it holds is cleaned like any content)
            stack.extend(reversed(node.children))
            continue
        cid = node.class_id
        reason = None
        if cid and chars < SHARE_MAX_CHARS and _share_class(cid):
            reason = "share widget"
        elif cid and 0 < chars < AD_BLOCK_MAX_CHARS and _ad_class(cid):
            reason = "advertisement (class)"
        elif attempt.clean_conditionally and chars < BOILERPLATE_LINE_MAX_CHARS and node.tag not in (
            "a", "span", "b", "strong", "em", "i", "tr") and not (
                node.parent is not None and node.parent.tag in _TABLE_CELLS) and _is_boilerplate(
                    node, chars, collapsed(node) if chars else None):
            # (a table row's text runs its cells together: "Photo: Reuters" + "An image
            # credit line" is no credit line; a cell's own paragraph is the cell's value:
            # a "Comment" column header)
            reason = "boilerplate phrase"
        elif attempt.clean_conditionally and 0 < chars < BOILERPLATE_LINE_MAX_CHARS and (
                stats.link_density(node) >= RELATED_LINE_MIN_LINK_DENSITY) and RELATED_LINE_RE.match(
                collapsed(node)):
            reason = "related-story line"
        elif id(node) in teasers:
            reason = "teaser card (linked heading)"
        elif attempt.clean_conditionally and node.tag in INLINE_CARD_TAGS and _inline_card(node, stats):
            reason = "hover card printed inside running text"
        elif attempt.clean_conditionally and chars and id(node) not in opening and id(node) in related:
            reason = "related-content box (opens with a related-content heading)"
        elif attempt.clean_conditionally and node.tag in CAPITALS_LINK_TAGS and 0 < chars < CAPITALS_LINK_MAX_CHARS and (
                stats.link_density(node) >= CAPITALS_LINK_MIN_LINK_DENSITY and _in_capitals(collapsed(node))):
            reason = "link written in capitals (call to action or promoted headline)"
        elif cid and chars < BYLINE_MAX_CHARS and node.tag not in ("a",) and (
            _byline_class(cid) or node.attrs.get("rel") == "author" or node.attrs.get("itemprop") == "author"
        ):
            reason = "byline"
        elif node.tag in ("h1", "h2") and attempt.weight_classes and class_weight(node) < 0:
            reason = "heading with negative class weight"
        elif attempt.clean_conditionally and node.tag in CONDITIONAL_TAGS:
            if counts is None:
                counts = _subtree_counts(container, stats)
            reason = _conditional_reason(node, scores, stats, attempt, counts[id(node)])
        if reason:
            _log(removed, node, stats, reason)
            if undo is not None:
                undo.record(node.parent)
            node.remove()
            continue
        if node.children:
            stack.extend(reversed(node.children))
    if attempt.clean_conditionally:
        for heading in _orphan_headings(container):
            _log(removed, heading, stats, "heading whose section kept nothing")
            if undo is not None:
                undo.record(heading.parent)
            heading.remove()


def _orphan_headings(container: Node) -> list[Node]:
    """Section headings after which nothing but headings of lower rank follows before the
    next heading of the same or a higher rank (or the end): the section they introduce lost
    all its content to cleaning ("See also" above a dropped link list). One pre-order walk;
    "content" is non-blank text outside section headings, or an image, table, code
    block...; a heading inside a list item, table cell or link is an item's title, i.e.
    content. Nothing goes when the container holds no content at all (a list of titles)."""
    open_sections: list[tuple[int, Node]] = []  # (rank, heading) still waiting for content
    orphans: list[Node] = []
    content = False
    stack: list[tuple[Node, bool]] = [(container, False)]
    while stack:
        node, in_item = stack.pop()
        tag = node.tag
        if tag in _HEADINGS and not in_item:
            rank = int(tag[1])
            while open_sections and open_sections[-1][0] >= rank:
                orphans.append(open_sections.pop()[1])
            open_sections.append((rank, node))
            continue  # a heading's own text is not its section's content
        if tag == TEXT:
            if node.text and not node.text.isspace():
                open_sections.clear()
                content = True
            continue
        if tag in SECTION_CONTENT_TAGS:
            open_sections.clear()
            content = True
            continue
        if node.children:
            inner = in_item or tag in ITEM_TITLE_PARENTS
            stack.extend((c, inner) for c in reversed(node.children))
    orphans.extend(h for _, h in open_sections)
    return orphans if content else []


def _subtree_counts(container: Node, stats: TextStats) -> dict[int, tuple[int, int, int, int, bool]]:
    """For each element below ``container`` (by ``id``): the ``<p>``, ``<img>`` and ``<li>``
    elements below it, the characters of those ``<li>``, and whether it is or holds a
    ``<figure>``; one bottom-up pass (walking each element's subtree in turn was quadratic
    on deeply nested lists). Exact for :func:`_clean`, which judges an element before
    anything below it is removed."""
    out: dict[int, tuple[int, int, int, int, bool]] = {}
    chars = stats.chars
    for node in container.elements_bottom_up():
        p = img = li = li_chars = 0
        fig = node.tag == "figure"
        for c in node.children:
            if c.tag == TEXT:
                continue
            cp, ci, cl, clc, cf = out[id(c)]
            t = c.tag
            p += cp + (t == "p")
            img += ci + (t == "img")
            li += cl
            li_chars += clc
            if t == "li":
                li += 1
                li_chars += chars.get(id(c), 0)
            fig = fig or cf
        out[id(node)] = (p, img, li, li_chars, fig)
    return out


def _conditional_reason(node: Node, scores: Scores, stats: TextStats, attempt: Attempt,
                        counts: tuple[int, int, int, int, bool]) -> str | None:
    """Readability's conditional cleaning of one element; ``counts``: its
    :func:`_subtree_counts` entry."""
    k = id(node)
    weight = class_weight(node) if attempt.weight_classes else 0.0
    if weight + (scores.score.get(k) or 0.0) < 0:
        return "negative class weight"
    if stats.commas.get(k, 0) >= CLEAN_KEEP_COMMAS:
        return None
    chars = stats.chars.get(k, 0)
    ld = stats.link_density(node)
    p, img, li, li_chars, has_figure = counts
    is_list = node.tag in ("ul", "ol", "dl") or (li and chars and li_chars >= LIST_TEXT_SHARE * chars)
    if img > 1 and p / img < IMAGE_PARAGRAPH_RATIO and not has_figure:
        if chars < IMAGE_BLOCK_MAX_CHARS:
            return "more images than paragraphs"
    if not is_list and li - LIST_ITEM_ALLOWANCE > p:
        return "more list items than paragraphs"
    if not is_list and chars < CLEAN_MIN_CHARS and (img == 0 or img > 2) and ld > 0:
        return "short link fragment"
    if ld > CLEAN_MAX_LINK_DENSITY:
        limit = CLEAN_MAX_LINK_DENSITY_POSITIVE if weight >= CLASS_WEIGHT or is_list else CLEAN_MAX_LINK_DENSITY
        if ld > limit and link_only_share(node, stats) > LINK_ONLY_BLOCK_SHARE:
            return f"link-only block (link density {ld:.2f})"
    return None


def _run_attempt(body: Node, attempt: Attempt, removed: list[Removal] | None,
                 undo: UndoLog | None = None, page_chars: int | None = None) -> Selection:
    """One attempt on ``body`` (mutated; every edit recorded in ``undo`` first, if given;
    ``page_chars`` as for :func:`prepare`)."""
    paragraphs = prepare(body, attempt.strip_unlikely, removed, page_chars, undo)
    stats = compute_stats(body)
    scores = score_paragraphs(paragraphs, stats, attempt.weight_classes)
    top = _pick_top(body, scores, stats)
    posts = _repeated_posts(top, body, stats)
    if posts is not None:
        top, kept = posts[0], posts
    else:
        kept = _merge_siblings(top, body, scores, stats)
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
    _clean(container, scores, stats, attempt, removed, top, undo, protected)
    chars = collapsed_len(container.text_content())
    return Selection(root=container, top=top, chars=chars)


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
            sel = Selection(root=sel.root.clone(), top=sel.top, chars=sel.chars, removed=removed or [])
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
