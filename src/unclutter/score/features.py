"""Per-node text statistics computed in one bottom-up pass, shared by every scorer.

For each element node (keyed by ``id(node)``):

* ``chars``: characters of whitespace-collapsed text in the subtree;
* ``link_chars``: characters inside ``<a href>`` descendants, fragment links (``#...``)
  weighted by :data:`~unclutter.score.weights.HASH_LINK_WEIGHT`;
* ``commas``: commas (:data:`~unclutter.score.weights.COMMA_RE`) in the subtree's text;
* ``tags``: element nodes in the subtree (itself included).

Link density = ``link_chars / chars`` (Readability.js ``_getLinkDensity``); text density
= ``chars / tags`` (Sun et al., "DOM based content extraction via text density", SIGIR
2011, where TD = characters / tags of a node's subtree).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dom import TEXT, Node
from .weights import COMMA_RE, HASH_LINK_WEIGHT

__all__ = ["TextStats", "compute_stats", "collapsed_len"]


def collapsed_len(text: str) -> int:
    """Length of ``text`` with whitespace runs collapsed to one space and ends trimmed."""
    return len(" ".join(text.split()))


@dataclass
class TextStats:
    chars: dict[int, int] = field(default_factory=dict)
    link_chars: dict[int, float] = field(default_factory=dict)
    commas: dict[int, int] = field(default_factory=dict)
    tags: dict[int, int] = field(default_factory=dict)

    def link_density(self, node: Node) -> float:
        c = self.chars.get(id(node), 0)
        return self.link_chars.get(id(node), 0.0) / c if c else 0.0

    def text_density(self, node: Node) -> float:
        return self.chars.get(id(node), 0) / max(1, self.tags.get(id(node), 1))


def compute_stats(root: Node) -> TextStats:
    """One bottom-up pass over ``root``'s subtree; see the module docstring."""
    st = TextStats()
    chars, link_chars, commas, tags = st.chars, st.link_chars, st.commas, st.tags
    for node in root.elements_bottom_up():
        c = 0
        lc = 0.0
        cm = 0
        tg = 1
        for ch in node.children:
            if ch.tag == TEXT:
                t = ch.text
                n = collapsed_len(t)
                if n:
                    # a space between adjacent text pieces, as rendering would show
                    c += n + 1
                    if "," in t or "\uff0c" in t or "\u3001" in t or "\u060c" in t:
                        cm += len(COMMA_RE.findall(t))
            else:
                k = id(ch)
                c += chars[k]
                lc += link_chars[k]
                cm += commas[k]
                tg += tags[k]
        if node.tag == "a" and "href" in node.attrs:
            href = node.attrs["href"].strip()
            lc = c * (HASH_LINK_WEIGHT if href.startswith("#") else 1.0)
        k = id(node)
        chars[k] = c
        link_chars[k] = lc
        commas[k] = cm
        tags[k] = tg
    return st
