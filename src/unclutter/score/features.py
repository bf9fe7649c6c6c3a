"""Per-node text statistics computed in one bottom-up pass, shared by every scorer.

For each element node (keyed by ``id(node)``):

* ``chars``: characters of whitespace-collapsed text in the subtree;
* ``link_chars``: characters inside ``<a href>`` descendants, fragment links (``#...``)
  weighted by :data:`~unclutter.score.weights.HASH_LINK_WEIGHT`;
* ``commas``: commas (:data:`~unclutter.score.weights.COMMA_CHARS`) in the subtree's text;
* ``tags``: element nodes in the subtree (itself included);
* ``leaves`` / ``link_only_leaves``: descendant leaf blocks
  (:data:`~unclutter.score.weights.LEAF_BLOCKS`) with text, and those of them whose text
  is at least :data:`~unclutter.score.weights.LINK_ONLY_LEAF_SHARE` link text.

Link density = ``link_chars / chars`` (Readability.js ``_getLinkDensity``); text density
= ``chars / tags`` (Sun et al., "DOM based content extraction via text density", SIGIR
2011, where TD = characters / tags of a node's subtree).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dom import TEXT, Node
from .weights import COMMA_CHARS, HASH_LINK_WEIGHT, LEAF_BLOCKS, LINK_ONLY_LEAF_SHARE

__all__ = ["TextStats", "compute_stats", "collapsed_len"]

_C0, _C1, _C2, _C3 = COMMA_CHARS


def collapsed_len(text: str) -> int:
    """Length of ``text`` with whitespace runs collapsed to one space and ends trimmed."""
    return len(" ".join(text.split()))


def prose_chars(root: Node) -> int:
    """Characters of the text below ``root`` outside ``<a>`` elements, each text node's
    whitespace runs collapsed (about :func:`collapsed_len` of that text): what a page holds
    besides its links."""
    total = 0
    stack = [root]
    while stack:
        n = stack.pop()
        if n.tag == TEXT:
            total += len(" ".join(n.text.split()))
        elif n.tag != "a" and n.children:
            stack.extend(n.children)
    return total


@dataclass
class TextStats:
    chars: dict[int, int] = field(default_factory=dict)
    link_chars: dict[int, float] = field(default_factory=dict)
    commas: dict[int, int] = field(default_factory=dict)
    tags: dict[int, int] = field(default_factory=dict)
    leaves: dict[int, int] = field(default_factory=dict)
    link_only_leaves: dict[int, int] = field(default_factory=dict)

    def link_only_share(self, node: Node) -> float:
        """Share of the leaf blocks under ``node`` that are link-only (menus, link lists),
        in [0, 1], as the tree was when the stats were computed. A node without leaf
        blocks counts as one leaf, link-only when its own link density is at least
        ``LINK_ONLY_LEAF_SHARE``."""
        k = id(node)
        n = self.leaves.get(k, 0)
        if n == 0:
            return 1.0 if self.link_density(node) >= LINK_ONLY_LEAF_SHARE else 0.0
        return self.link_only_leaves.get(k, 0) / n

    def link_density(self, node: Node) -> float:
        c = self.chars.get(id(node), 0)
        return self.link_chars.get(id(node), 0.0) / c if c else 0.0

    def text_density(self, node: Node) -> float:
        return self.chars.get(id(node), 0) / max(1, self.tags.get(id(node), 1))


def prose_paragraphs(root: Node, min_chars: int) -> int:
    """``<p>`` elements under ``root`` (``root`` included) holding at least ``min_chars``
    characters of text outside links (``<a href>``; stripped text nodes summed); one pass."""
    count = 0
    stack: list[tuple[Node, int, bool]] = [(root, -1, False)]  # (node, open <p> slot, inside a link)
    own: list[int] = []  # per <p>: characters outside links
    while stack:
        node, slot, in_link = stack.pop()
        if node.tag == TEXT:
            if slot >= 0 and not in_link:
                own[slot] += len(node.text.strip())
            continue
        if node.tag == "p":
            own.append(0)
            slot = len(own) - 1
        link = in_link or (node.tag == "a" and "href" in node.attrs)
        stack.extend((c, slot, link) for c in reversed(node.children))
    for chars in own:
        count += chars >= min_chars
    return count


def compute_stats(root: Node) -> TextStats:
    """One bottom-up pass over ``root``'s subtree; see the module docstring."""
    st = TextStats()
    chars, link_chars, commas, tags = st.chars, st.link_chars, st.commas, st.tags
    leaves, link_only = st.leaves, st.link_only_leaves
    for node in root.elements_bottom_up():
        c = 0
        lc = 0.0
        cm = 0
        tg = 1
        lv = 0
        lo = 0
        for ch in node.children:
            if ch.tag == TEXT:
                t = ch.text
                n = len(" ".join(t.split()))  # collapsed_len, inlined: the hottest loop
                if n:
                    # a space between adjacent text pieces, as rendering would show
                    c += n + 1
                    # COMMA_CHARS, counted in C (only "," can occur in ASCII text)
                    cm += t.count(",") if t.isascii() else (
                        t.count(_C0) + t.count(_C1) + t.count(_C2) + t.count(_C3))
            else:
                k = id(ch)
                cc = chars[k]
                c += cc
                lc += link_chars[k]
                cm += commas[k]
                tg += tags[k]
                lv += leaves[k]
                lo += link_only[k]
                if cc and ch.tag in LEAF_BLOCKS:
                    lv += 1
                    if link_chars[k] >= LINK_ONLY_LEAF_SHARE * cc:
                        lo += 1
        if node.tag == "a" and "href" in node.attrs:
            href = node.attrs["href"].strip()
            lc = c * (HASH_LINK_WEIGHT if href.startswith("#") else 1.0)
        k = id(node)
        chars[k] = c
        link_chars[k] = lc
        commas[k] = cm
        tags[k] = tg
        leaves[k] = lv
        link_only[k] = lo
    return st
