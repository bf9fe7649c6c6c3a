"""Conditional cleaning of the selected content (step 4 of :mod:`unclutter.score.select`).

:func:`clean_selection` walks the kept nodes once, top-down, and removes page furniture left
inside the article: share widgets, advertisements, bylines, boilerplate phrases and
related-story lines, teaser cards and hover cards, related-content boxes, links written in
capitals, and (Readability.js ``_cleanConditionally``) blocks whose class weight, image,
list-item or link counts say they are not prose. Headings whose section lost everything go
last. The winning candidate (and a thread's posts) is never removed; every removal is logged
with its reason and, on the in-place attempt, recorded in the undo log first.

Constants and their sources are in :mod:`unclutter.score.weights`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ..core.dom import TEXT, Node, UndoLog
from ..core.models import Removal
from ..core.tables import is_data_table
from .features import TextStats
from .heuristic import Scores, class_weight, embedded_posts, link_only_share, scored_class_id
from .weights import (
    AD_BLOCK_MAX_CHARS,
    AD_CLASS_RE,
    BOILERPLATE_LINE_MAX_CHARS,
    BOILERPLATE_LINE_RE,
    BOILERPLATE_MAX_CHARS,
    BOILERPLATE_TEXT_RE,
    BYLINE_LABEL_MAX_CHARS,
    BYLINE_LABEL_RE,
    BYLINE_MAX_CHARS,
    BYLINE_RE,
    CAPITALS_LINK_MAX_CHARS,
    CAPITALS_LINK_MIN_LETTERS,
    CAPITALS_LINK_MIN_LINK_DENSITY,
    CAPITALS_LINK_MIN_WORDS,
    CAPITALS_LINK_TAGS,
    CLASS_WEIGHT,
    CLEAN_KEEP_COMMAS,
    CLEAN_MAX_LINK_DENSITY,
    CLEAN_MAX_LINK_DENSITY_POSITIVE,
    CLEAN_MIN_CHARS,
    CONDITIONAL_TAGS,
    EMBEDDED_POST_MAX_CHARS,
    EMBEDDED_POST_MAX_LINK_DENSITY,
    EMBEDDED_POST_RE,
    EMBEDDED_POST_WRAPPER_MAX_OTHER_CHARS,
    HEADING_TAGS,
    IMAGE_BLOCK_MAX_CHARS,
    IMAGE_PARAGRAPH_RATIO,
    INLINE_CARD_BLOCKS,
    INLINE_CARD_MAX_ELEMENTS,
    INLINE_CARD_MIN_CHARS,
    INLINE_CARD_MIN_LINKS,
    INLINE_CARD_MIN_LINK_DENSITY,
    INLINE_CARD_TAGS,
    ITEM_TITLE_PARENTS,
    LINK_ONLY_BLOCK_SHARE,
    LINK_ONLY_LEAF_SHARE,
    LIST_BYLINES_MIN_NAMES,
    LIST_ITEM_ALLOWANCE,
    LIST_TEXT_SHARE,
    RELATED_HEADING_RE,
    RELATED_LINE_MIN_LINK_DENSITY,
    RELATED_LINE_RE,
    SECTION_CONTENT_TAGS,
    SHARE_MAX_CHARS,
    SHARE_RE,
    TEASER_MAX_CHARS,
    TEASER_MAX_SHARE,
)

if TYPE_CHECKING:
    from .select import Attempt

__all__ = ["clean_selection"]


def _log(removed: list[Removal] | None, node: Node, stats: TextStats | None, reason: str) -> None:
    if removed is None:  # no removal log kept
        return
    text = " ".join(node.text_content().split())
    removed.append(Removal("select", reason, node.tag, node.class_id[:100], len(text), text[:80]))



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
        if node.tag in HEADING_TAGS:
            heading = node
        first[k] = heading
        if heading is not None and heading is not node:
            h = id(heading)
            if h not in verdicts:
                verdicts[h] = bool(RELATED_HEADING_RE.match(" ".join(heading.text_content().split())))
            if verdicts[h]:
                out.add(k)
    return out



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


def _is_byline(node: Node, cid: str, chars: int) -> bool:
    """Whether ``node`` (``cid`` its class and id, ``chars`` its text length) is a byline:
    classed as one, ``rel="author"`` or ``itemprop="author"``, under
    :data:`BYLINE_MAX_CHARS`. Not: a quotation's author ("quote-author", a ``<cite>`` or
    ``<figcaption>``, anything inside a quotation), a data table's credit cell, or a link
    classed "author" (a post's author in a list of posts): a link is one by its ``rel``."""
    if node.tag == "a":
        return chars < BYLINE_MAX_CHARS and "author" in node.attrs.get("rel", "").lower().split() and (
            not _in_data_or_quotation(node))
    return bool(cid) and chars < BYLINE_MAX_CHARS and node.tag not in ("figcaption", "cite") and (
        _byline_class(cid) or node.attrs.get("rel") == "author" or node.attrs.get("itemprop") == "author"
    ) and "quote" not in cid.lower() and not _in_data_or_quotation(node)


def _in_data_or_quotation(node: Node) -> bool:
    """Whether ``node`` lies in a data table's cell or a quotation (within a few levels: a
    credit's markup; a layout table's cell holds the article, byline and all)."""
    n = node.parent
    for _ in range(8):
        if n is None or n.tag == "table":
            return False
        if n.tag in ("blockquote", "q"):
            return True
        if n.tag in _TABLE_CELLS:
            table = n.parent
            while table is not None and table.tag != "table":
                table = table.parent
            return table is not None and is_data_table(table)
        n = n.parent
    return False


def _credit_label_only(node: Node, stats: TextStats) -> bool:
    """Whether all that is left of ``node`` is a credit label ("By", "Por", "Written by:",
    "By and" once two co-authors went): text only, no image or other media beside it, and
    never a table cell (a cell removed alone shifts its row's columns)."""
    if node.tag in _LABEL_KEEPERS or stats.chars.get(id(node), 0) > 4 * BYLINE_LABEL_MAX_CHARS + 2 * BYLINE_MAX_CHARS:
        return False
    parts: list[str] = []
    size = 0
    stack = [node]
    while stack:  # (bounded: the text read stops past a label's length)
        n = stack.pop()
        if n.tag == TEXT:
            parts.append(n.text or "")
            size += len(n.text or "")
            if size > 4 * BYLINE_LABEL_MAX_CHARS:
                return False
            continue
        if n.tag in _CREDIT_LABEL_MEDIA:
            return False
        stack.extend(reversed(n.children))
    text = " ".join("".join(parts).split()).strip(" :-\u2013\u2014\uff1a|\u00b7\u2022")
    return 0 < len(text) <= BYLINE_LABEL_MAX_CHARS and BYLINE_LABEL_RE.fullmatch(text) is not None


# a cell removed alone shifts its row's columns; a list item or a description's term is a
# record's field ("Author:"), gone with its value it leaves the record short
_LABEL_KEEPERS = frozenset({"td", "th", "li", "dt", "dd"})
_CREDIT_LABEL_MEDIA = frozenset({"img", "picture", "video", "audio", "iframe", "svg", "canvas", "object", "embed",
                                 "table", "math"})
#: Words before a credited name that are not part of it (compared with the names of other
#: bylines: "By Jane Roe", "Posted by JANE ROE" and "Jane Roe covers the city" name one person).
_NAME_LABEL_WORDS = frozenset({"by", "posted", "written", "von", "por", "par", "door", "da", "di", "author", "authors",
                               "autor", "auteur", "text", "words", "reporting", "and", "&"})
_INLINE_PHRASING = frozenset({"a", "span", "b", "strong", "em", "i", "u", "small", "font", "cite", "time",
                              "abbr", "mark", "sup", "sub", "label"})


def _credited_name(text: str) -> str:
    """The first two words of a byline's text after its label words, case-folded: the
    name it credits, as far as telling a list's different authors apart needs."""
    words = [w for w in "".join(ch if ch.isalnum() or ch.isspace() else " " for ch in text[:200]).casefold().split()]
    while words and words[0] in _NAME_LABEL_WORDS:
        words.pop(0)
    return " ".join(words[:2])


def _lists_works(container: Node, stats: TextStats, top: Node, posts: frozenset[int]) -> bool:
    """Whether ``container`` holds bylines (outermost ones, below ``top`` and the
    ``posts``, which are never cleaned; datelines aside) crediting at least
    :data:`LIST_BYLINES_MIN_NAMES` different names in as many different blocks: the
    credits of a list's items, not the article's own byline (co-authors in one line, or
    one author named above and below the text, are one credit)."""
    names: set[str] = set()
    blocks: set[int] = set()
    stack = list(container.children)
    while stack:
        node = stack.pop()
        if node.tag == TEXT:
            continue
        cid = scored_class_id(node)
        if node is not top and id(node) not in posts and _is_byline(node, cid, stats.chars.get(id(node), 0)):
            block = node.parent
            while block is not None and block is not container and block.tag in _INLINE_PHRASING:
                block = block.parent
            name = _credited_name(node.text_content())
            if name and "dateline" not in cid.lower() and id(block) not in blocks and name not in names:
                blocks.add(id(block))
                names.add(name)
                if len(names) >= LIST_BYLINES_MIN_NAMES:
                    return True
            continue
        stack.extend(node.children)
    return False


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
        if node.tag in HEADING_TAGS:
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
    wrapper would be quadratic on deep nesting)."""
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


def clean_selection(container: Node, scores: Scores, stats: TextStats, attempt: Attempt,
                    removed: list[Removal] | None, top: Node, undo: UndoLog | None = None,
                    posts: frozenset[int] = frozenset()) -> None:
    """Remove page furniture from ``container`` (the selection) in place, as the module
    docstring says; ``top`` and the ``posts`` (by ``id``) stay. Each removal is appended to
    ``removed`` (when kept) and recorded in ``undo`` (when given) before it happens."""
    teasers = _teasers(container, stats, attempt)
    embeds = embedded_posts(container)
    post_chars: dict[int, int] | None = None  # _embedded_post_chars, made when first needed
    counts = None  # _subtree_counts, made when first needed
    opening = _opening_elements(container)  # the elements holding the selection's first text
    related = _related_boxes(container) if attempt.clean_conditionally else set()
    collapsed = _CollapsedTexts()  # short texts below, each asked once per node
    bylines = not _lists_works(container, stats, top, posts)
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
        cid = scored_class_id(node)
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
        elif bylines and _is_byline(node, cid, chars):
            reason = "byline"
        elif node.tag in ("h1", "h2") and attempt.weight_classes and class_weight(node) < 0:
            reason = "heading with negative class weight"
        elif attempt.clean_conditionally and node.tag in CONDITIONAL_TAGS:
            if counts is None:
                counts = _subtree_counts(container, stats)
            reason = _conditional_reason(node, scores, stats, attempt, counts[id(node)])
        if reason:
            _log(removed, node, stats, reason)
            parent = node.parent
            if undo is not None:
                undo.record(parent)
            node.remove()
            if reason == "byline" and parent is not None and parent is not container and parent is not top and (
                    id(parent) not in posts and _credit_label_only(parent, stats)):
                _log(removed, parent, stats, "byline label")
                if undo is not None:
                    undo.record(parent.parent)
                parent.remove()
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
        if tag in HEADING_TAGS and not in_item:
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
    ``<figure>``; one bottom-up pass (walking each element's subtree in turn would be
    quadratic on deeply nested lists). Exact for :func:`_clean`, which judges an element before
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


_LIST_TAGS = frozenset(("ul", "ol", "dl"))


def _conditional_reason(node: Node, scores: Scores, stats: TextStats, attempt: Attempt,
                        counts: tuple[int, int, int, int, bool]) -> str | None:
    """Readability's conditional cleaning of one element; ``counts``: its
    :func:`_subtree_counts` entry."""
    k = id(node)
    weight = class_weight(node) if attempt.weight_classes else 0.0
    # (a list's score starts below zero by its tag, Readability's base score: a list whose
    # items hold paragraphs, and no image (a gallery's captions), would go for that alone;
    # its class, or the tests below, decide)
    if weight + (scores.score.get(k) or 0.0) < 0 and (weight < 0 or node.tag not in _LIST_TAGS or not counts[0]
                                                     or counts[1]):
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

