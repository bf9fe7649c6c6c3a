"""Readability-style content scoring: paragraphs vote for their ancestors.

Input: the pruned ``<body>`` subtree. Output: per-candidate scores (:class:`Scores`).
Algorithm (Arc90 Readability, as in Mozilla's Readability.js ``_grabArticle``; constants
in :mod:`unclutter.score.weights`):

1. *Prepare* (:func:`prepare`): optionally remove unlikely candidates (class/id words,
   ``UNLIKELY_RE`` unless ``MAYBE_CANDIDATE_RE``); turn ``<div>``s without block children
   into paragraphs; wrap runs of inline content inside block containers into paragraphs;
   collect the paragraph-like nodes.
2. *Score* (:func:`score_paragraphs`): each paragraph of at least ``MIN_PARAGRAPH_CHARS``
   characters scores ``1 + commas + [chars > 50] + min(chars // 100, 3)``; the score flows
   100% to the parent, 50% to the grandparent and ``1 / (level * 3)`` further up. Every
   ancestor starts from its tag's base score plus its class/id weight (±25 each).
3. Candidates' final score is multiplied by ``1 - link density``; candidates with link
   density above ``MAX_LINK_DENSITY`` are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..core.dom import TEXT, Node, UndoLog
from ..core.models import Removal
from .features import TextStats
from .weights import (
    ANCESTOR_DIVIDER_PER_LEVEL,
    BLOCK_TAGS,
    CLASS_WEIGHT,
    COMMA_SCORE,
    EMBEDDED_POST_AD_RE,
    EMBEDDED_POST_RE,
    GRANDPARENT_SHARE,
    LEAF_BLOCKS,
    LENGTH_BONUS_CHARS,
    LENGTH_BONUS_MAX,
    LINK_ONLY_BLOCK_SHARE,
    LINK_ONLY_LEAF_SHARE,
    LONG_PARAGRAPH_BONUS,
    LONG_PARAGRAPH_CHARS,
    MAX_LINK_DENSITY,
    MAYBE_CANDIDATE_RE,
    MIN_PARAGRAPH_CHARS,
    NEGATIVE_RE,
    PARAGRAPH_BASE_SCORE,
    PARENT_SHARE,
    POSITIVE_RE,
    SCORABLE_TAGS,
    SCORE_PROPAGATION_LEVELS,
    TAG_BASE_SCORE,
    UNLIKELY_EXEMPT_TAGS,
    UNLIKELY_MAX_PAGE_SHARE,
    UNLIKELY_RE,
)

__all__ = ["Scores", "class_weight", "prepare", "score_paragraphs", "link_only_share",
           "PARAGRAPH_CONTAINERS"]

def link_only_share(node: Node, stats: TextStats) -> float:
    """Share of the leaf blocks under ``node`` whose text is at least
    ``LINK_ONLY_LEAF_SHARE`` anchor text (menus, link lists), in [0, 1]. A node without
    leaf blocks counts as one leaf."""
    leaves = 0
    link_only = 0
    chars = stats.chars
    link_chars = stats.link_chars
    for d in node.iter_elements(include_self=False):
        if d.tag in LEAF_BLOCKS:
            c = chars.get(id(d), 0)
            if c:
                leaves += 1
                if link_chars.get(id(d), 0.0) >= LINK_ONLY_LEAF_SHARE * c:
                    link_only += 1
    if leaves == 0:
        return 1.0 if stats.link_density(node) >= LINK_ONLY_LEAF_SHARE else 0.0
    return link_only / leaves

#: Containers whose loose inline content is wrapped into paragraphs.
PARAGRAPH_CONTAINERS = frozenset({"div", "section", "article", "main", "body", "center"})


@lru_cache(maxsize=16384)
def value_words(value: str) -> int:
    """Bit 1: ``value`` (one ``class`` or ``id`` value) matches ``NEGATIVE_RE``; bit 2: it
    matches ``POSITIVE_RE``. Cached (shared by :func:`value_weight` and the learned
    extractors' class features)."""
    return (1 if NEGATIVE_RE.search(value) else 0) | (2 if POSITIVE_RE.search(value) else 0)


@lru_cache(maxsize=8192)
def value_weight(value: str) -> float:
    """±``CLASS_WEIGHT`` for one ``class`` or ``id`` value matching negative / positive
    words (``NEGATIVE_RE`` / ``POSITIVE_RE``, :func:`value_words`); cached."""
    bits = value_words(value)
    w = 0.0
    if bits & 1:
        w -= CLASS_WEIGHT
    if bits & 2:
        w += CLASS_WEIGHT
    return w


def unlikely_words(value: str) -> int:
    """Bit 1: ``value`` matches ``UNLIKELY_RE``; bit 2: it matches ``MAYBE_CANDIDATE_RE``."""
    return (1 if UNLIKELY_RE.search(value) else 0) | (2 if MAYBE_CANDIDATE_RE.search(value) else 0)


#: Cached: class values repeat across a page and across pages, and so do about 40% of ids
#: (``main``, ``content``, ``footer``...; AEB: 9,395 ids, 39% seen on an earlier page).
_cached_unlikely_words = lru_cache(maxsize=16384)(unlikely_words)


@lru_cache(maxsize=8192)
def is_unlikely(class_id: str) -> bool:
    """Whether a class/id string names an unlikely candidate (``UNLIKELY_RE`` and not
    ``MAYBE_CANDIDATE_RE``)."""
    return bool(UNLIKELY_RE.search(class_id)) and not MAYBE_CANDIDATE_RE.search(class_id)


def embedded_posts(root: Node) -> set[int]:
    """ids of the embedded social posts below ``root`` (``<blockquote>`` whose class matches
    ``EMBEDDED_POST_RE``) and of their ancestors below ``root``: one walk, then each post's
    ancestor chain up to the first element already marked."""
    out: set[int] = set()
    for el in root.iter_elements(include_self=False):
        if el.tag == "blockquote" and EMBEDDED_POST_RE.search(cls := el.attrs.get("class", "")) and (
                not EMBEDDED_POST_AD_RE.search(cls)):
            node = el
            while node is not None and node is not root and id(node) not in out:
                if node.attrs and EMBEDDED_POST_AD_RE.search(node.class_id):
                    break  # an advertisement's wrapper: no exemption from here up
                out.add(id(node))
                node = node.parent
    return out


def is_unlikely_element(cls: str | None, ident: str | None) -> bool:
    """:func:`is_unlikely` of ``f"{cls} {ident}"``, read on the class and the id separately
    (each cached): no alternative of either pattern can match across the joining space."""
    bits = _cached_unlikely_words(cls) if cls else 0
    if ident:
        bits |= _cached_unlikely_words(ident)
    return bits == 1


#: Heading tags whose ``id`` may be an anchor made from their own text.
_ANCHORED_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_SLUG_TOKEN_RE = re.compile(r"[^\W_]+")


def own_id(node: Node) -> str:
    """The element's ``id`` as a name its author gave it: ``""`` for a heading whose id is
    an anchor made from its own text (``<h2 id="h-why-use-social-shopping">Why Use Social
    Shopping?</h2>``, as WordPress, Markdown renderers and wikis write them): such an id
    repeats the heading's words ("social", "share", "comment"), it does not name a widget.
    An anchor: at least two of the id's words (letters and digits, "h" prefixes aside), and
    four in five of them, are words of the heading's text (the last may be cut short)."""
    ident = node.attrs.get("id", "") if node.attrs else ""
    if not ident or node.tag not in _ANCHORED_HEADINGS:
        return ident
    tokens = [t for t in _SLUG_TOKEN_RE.findall(ident.casefold()) if len(t) > 1]
    if len(tokens) < 2:
        return ident
    words = set(_SLUG_TOKEN_RE.findall(node.text_content()[:500].casefold()))
    found = sum(t in words for t in tokens)
    if tokens[-1] not in words and any(w.startswith(tokens[-1]) for w in words):
        found += 1  # (a slug cut to a length: "what-share-of-adolescen")
    return "" if found >= 2 and found >= 0.8 * len(tokens) else ident


def scored_class_id(node: Node) -> str:
    """``Node.class_id`` with :func:`own_id` for the id: what the class/id rules read."""
    a = node.attrs
    if not a:
        return ""
    c = a.get("class", "")
    i = own_id(node)
    return f"{c} {i}" if c and i else (c or i)


def class_weight(node: Node) -> float:
    """±``CLASS_WEIGHT`` for each of ``class`` and ``id`` (:func:`own_id`) matching
    positive/negative words."""
    attrs = node.attrs
    if not attrs:
        return 0.0
    w = 0.0
    v = attrs.get("class")
    if v:
        w += value_weight(v)
    v = own_id(node) if "id" in attrs else ""
    if v:
        w += value_weight(v)
    return w


@dataclass
class Scores:
    """Candidate scores of one attempt: ``score[id(node)]`` and ``nodes[id(node)]``."""

    score: dict[int, float] = field(default_factory=dict)
    nodes: dict[int, Node] = field(default_factory=dict)

    def get(self, node: Node) -> float | None:
        return self.score.get(id(node))


def _is_phrasing(node: Node) -> bool:
    return node.tag == TEXT or node.tag not in BLOCK_TAGS


_IN_CODE, _IN_KEPT = 1, 2  # (prepare's walk flags)


def _text_lengths(root: Node) -> dict[int, int]:
    """``id(element) -> len(element.text_content())`` for ``root`` and every element below
    it, in one post-order pass."""
    sizes: dict[int, int] = {}
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            sizes[id(node)] = sum(len(c.text) if c.tag == TEXT else sizes[id(c)] for c in node.children)
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in node.children if c.tag != TEXT)
    return sizes


def prepare(body: Node, strip_unlikely: bool, removed: list[Removal] | None,
            page_chars: int | None = None, undo: UndoLog | None = None) -> list[Node]:
    """Step 1 of the module docstring. Mutates ``body``; returns the paragraph-like nodes
    in document order. ``page_chars``: characters of ``body``'s text (unnormalised), when
    the caller has it (otherwise counted when first needed: at the first unlikely
    candidate, before anything is removed). ``undo``: every edit is recorded there first.
    ``removed``: the removal log (``None``: not kept)."""
    # Remove unlikely candidates first (pre-order, so a removed subtree is not visited);
    # the same walk lists the elements that stay, parents before children.
    order: list[Node] = [body]
    keep = order.append
    embeds: set[int] | None = None  # embedded_posts(body), computed at the first unlikely candidate
    # Each entry: (node, flags): _IN_CODE below a table, code or pre (candidates there stay);
    # _IN_KEPT below an unlikely candidate kept for its size, where text lengths come from
    # one pass over the body (``sizes``), not from a read of each nested candidate's text
    # (a deep nest of such candidates would read the page once per level).
    sizes: dict[int, int] | None = None
    stack = [(c, 0) for c in reversed(body.children)]
    while stack:
        node, flags = stack.pop()
        if node.tag == TEXT:
            continue
        if strip_unlikely and (attrs := node.attrs):
            if (
                ("class" in attrs or "id" in attrs)
                and node.tag not in UNLIKELY_EXEMPT_TAGS
                and not flags & _IN_CODE
                and is_unlikely_element(attrs.get("class"), attrs.get("id"))
                and id(node) not in (embeds if embeds is not None else (embeds := embedded_posts(body)))
            ):
                if page_chars is None:
                    page_chars = len(body.text_content())
                if flags & _IN_KEPT:
                    if sizes is None:
                        sizes = _text_lengths(body)
                    size = sizes[id(node)]
                else:
                    size = len(node.text_content())
                if size <= UNLIKELY_MAX_PAGE_SHARE * page_chars:
                    if removed is not None:
                        text = " ".join(node.text_content().split())
                        removed.append(Removal("score", "unlikely candidate (class/id)", node.tag,
                                               node.class_id[:100], len(text), text[:80]))
                    if undo is not None:
                        undo.record(node.parent)
                    node.remove()
                    continue
                flags |= _IN_KEPT
        keep(node)
        if node.children:
            if node.tag in ("table", "code", "pre"):
                flags |= _IN_CODE
            stack.extend((c, flags) for c in reversed(node.children))

    # Which nodes have a block-level descendant (children before parents: the walk's
    # order reversed).
    has_block: set[int] = set()
    for node in reversed(order):
        if not node.children:
            continue
        for c in node.children:
            if c.tag != TEXT and (c.tag in BLOCK_TAGS or id(c) in has_block):
                has_block.add(id(node))
                break

    paragraphs: list[Node] = []
    stack = [body]
    while stack:
        node = stack.pop()
        tag = node.tag
        if tag == TEXT:
            continue
        if tag in PARAGRAPH_CONTAINERS:
            if id(node) not in has_block:
                if tag == "div" and node.has_text():
                    if undo is not None:
                        undo.record(node)
                    node.tag = "p"  # a div of inline content is a paragraph
                    paragraphs.append(node)
                    continue
            else:
                _wrap_inline_runs(node, undo)
        elif tag in SCORABLE_TAGS:
            paragraphs.append(node)
            if tag in ("p", "pre"):
                continue  # no scorable content inside a paragraph

        if node.children:
            stack.extend(reversed(node.children))
    # paragraphs were collected in document order except for nested ones; keep order
    return paragraphs


def _wrap_inline_runs(node: Node, undo: UndoLog | None = None) -> None:
    """Wrap maximal runs of phrasing content (text, inline elements, <br>) among block
    children into new ``<p>`` nodes, so loose text is scored and rendered as paragraphs.
    ``undo``: the edit is recorded there first."""
    children = node.children
    for c in children:  # anything to wrap: non-blank text or an inline element other than <br>?
        t = c.tag
        if t == TEXT:
            if c.text and not c.text.isspace():
                break
        elif t not in BLOCK_TAGS and t != "br":
            break
    else:
        return
    if undo is not None:
        undo.record(node)
    out: list[Node] = []
    run: list[Node] = []

    def flush() -> None:
        if not run:
            return
        if any(c.tag != "br" if c.tag != TEXT else (c.text and not c.text.isspace()) for c in run):
            p = Node("p")
            for c in run:
                p.append(c)
            # trim leading/trailing <br> inside the new paragraph
            while p.children and p.children[0].tag == "br":
                p.children.pop(0)
            while p.children and p.children[-1].tag == "br":
                p.children.pop()
            p.parent = node
            out.append(p)
        run.clear()

    for c in children:
        if _is_phrasing(c):
            run.append(c)
        else:
            flush()
            out.append(c)
    flush()
    node.children = out


def score_paragraphs(paragraphs: list[Node], stats: TextStats, weight_classes: bool) -> Scores:
    """Steps 2-3 of the module docstring."""
    scores = Scores()
    raw = scores.score
    nodes = scores.nodes
    for p in paragraphs:
        k = id(p)
        chars = stats.chars.get(k, 0)
        if chars < MIN_PARAGRAPH_CHARS:
            continue
        s = PARAGRAPH_BASE_SCORE + COMMA_SCORE * stats.commas.get(k, 0)
        if chars > LONG_PARAGRAPH_CHARS:
            s += LONG_PARAGRAPH_BONUS
        s += min(chars // LENGTH_BONUS_CHARS, LENGTH_BONUS_MAX)
        level = 0
        anc = p.parent
        while anc is not None and level < SCORE_PROPAGATION_LEVELS:
            if anc.tag in ("#document", "html"):
                break
            ak = id(anc)
            if ak not in raw:
                raw[ak] = TAG_BASE_SCORE.get(anc.tag, 0.0) + (class_weight(anc) if weight_classes else 0.0)
                nodes[ak] = anc
            if level == 0:
                share = PARENT_SHARE
            elif level == 1:
                share = GRANDPARENT_SHARE
            else:
                share = 1.0 / (level * ANCESTOR_DIVIDER_PER_LEVEL)
            raw[ak] += s * share
            anc = anc.parent
            level += 1
    # final scores: scaled by (1 - link density); link-dense candidates dropped unless
    # their links sit inside prose (see weights.LINK_ONLY_LEAF_SHARE)
    for k in list(raw):
        ld = stats.link_density(nodes[k])
        if (
            ld > MAX_LINK_DENSITY
            and nodes[k].tag != "body"
            and stats.link_only_share(nodes[k]) > LINK_ONLY_BLOCK_SHARE
        ):
            del raw[k]
            del nodes[k]
        else:
            raw[k] *= 1.0 - ld
    return scores
