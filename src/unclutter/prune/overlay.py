"""Overlay links: a card's whole-card link that names another link as its label.

A card made clickable all over carries a second link to its story, stretched over the
card by the stylesheet and labelled by the visible title link (WAI-ARIA 1.2 §6.6
``aria-labelledby``: the element's accessible name is the text of the elements it names).
Its own text repeats that title, so a reader would see every title twice. Such a link is
removed when:

* it stands alone in its parent (no text beside it: not a link inside a sentence, nor one
  link among others in a line);
* the elements its ``aria-labelledby`` names (the first element of each id, in document
  order, as a browser takes them) lie inside that parent (the card) and outside the link;
* the card is small (:data:`OVERLAY_CARD_MAX_CHARS`): a card, not the page;
* those elements read exactly its own text, and one of them is, holds or sits in a link
  to the same ``href`` that is no such overlay link itself (two links naming each other
  keep both).
"""

from __future__ import annotations

from ..core.dom import TEXT, Node, detach_children
from ..core.models import Removal
from .removal_log import _log

#: The reason written to the removal log.
OVERLAY_LINK_REASON = "overlay link repeating the title link it is labelled by"
#: Largest card (characters of text, the overlay link's included) an overlay link may span.
OVERLAY_CARD_MAX_CHARS = 3000
#: Elements of a title looked through for its link, and levels climbed from a label to
#: the card: a title link is small and close to its card's top (bounded work per link).
_TITLE_MAX_ELEMENTS = 64
_CARD_MAX_LEVELS = 16
_NOT_CARDS = frozenset({"html", "body", "main"})
_PHRASING = frozenset({"a", "span", "b", "strong", "em", "i", "u", "small", "font", "cite", "time", "abbr",
                       "mark", "sup", "sub", "label", "code", "q", "s"})


def drop_overlay_links(root: Node, removed: list[Removal] | None) -> int:
    """Remove the overlay links below ``root`` (see the module docstring), logging each in
    ``removed`` when given; returns the characters of text they held. One walk of the
    tree, a second one only when a link names a label, and bounded work per link."""
    links: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.tag == TEXT:
            continue
        if n.tag == "a" and "aria-labelledby" in n.attrs and n.attrs.get("href"):
            links.append(n)
        stack.extend(n.children)
    if not links:
        return 0
    candidates = {id(a) for a in links}
    wanted = {i for a in links for i in a.attrs["aria-labelledby"].split()}
    by_id: dict[str, Node] = {}
    stack = [root]
    while stack:  # in document order: the first element of an id is the one named
        n = stack.pop()
        if n.tag == TEXT:
            continue
        ident = n.attrs.get("id")
        if ident in wanted and ident not in by_id:
            by_id[ident] = n
        stack.extend(reversed(n.children))
    texts: dict[int, str] = {}  # a label's text, read once however many links name it
    card_chars: dict[int, int] = {}
    inline: dict[int, int] = {}
    doomed: set[int] = set()
    parents: list[Node | None] = []
    chars = 0
    for a in links:
        card = a.parent
        if card is None or card.tag in _NOT_CARDS:
            continue
        if id(card) not in inline:  # (once per card: many links share one parent)
            inline[id(card)] = _inline_texts(card)
        if inline[id(card)] != 1:  # the link's own text is the only text beside nothing
            continue
        labels = [by_id.get(i) for i in a.attrs["aria-labelledby"].split()]
        if not labels or any(lab is None or not _inside(lab, card, a) for lab in labels):
            continue
        own = " ".join(a.text_content().split())
        if not own:
            continue
        if id(card) not in card_chars:
            card_chars[id(card)] = _chars_up_to(card, OVERLAY_CARD_MAX_CHARS + 1)
        if card_chars[id(card)] > OVERLAY_CARD_MAX_CHARS:
            continue
        for lab in labels:
            if id(lab) not in texts:
                texts[id(lab)] = " ".join(lab.text_content().split())
        if " ".join(texts[id(lab)] for lab in labels) != own:
            continue
        href = a.attrs["href"]
        if not any(_title_link(lab, href, candidates) for lab in labels):
            continue
        if removed is not None:
            _log(removed, a, OVERLAY_LINK_REASON)
        doomed.add(id(a))
        parents.append(card)
        chars += len(a.text_content())
    detach_children(parents, doomed)
    return chars


def _inline_texts(parent: Node) -> int:
    """How many children of ``parent`` hold text inline: text nodes that are not blank,
    phrasing elements holding text."""
    return sum(1 for c in parent.children
               if (c.tag == TEXT and c.text and not c.text.isspace())
               or (c.tag in _PHRASING and c.text_content().strip()))


def _inside(label: Node, card: Node, link: Node) -> bool:
    """Whether ``label`` lies inside ``card`` (within :data:`_CARD_MAX_LEVELS`) and outside
    ``link`` (a link cannot hold the card it sits in: ``link`` is only met on the way up
    when it holds ``label``)."""
    n = label.parent
    for _ in range(_CARD_MAX_LEVELS):
        if n is None or n is link:
            return False
        if n is card:
            return label is not link
        n = n.parent
    return False


def _chars_up_to(node: Node, limit: int) -> int:
    """Characters of ``node``'s text, counted until they pass ``limit``."""
    total = 0
    stack = [node]
    while stack and total <= limit:
        n = stack.pop()
        if n.tag == TEXT:
            total += len(n.text or "")
        else:
            stack.extend(n.children)
    return total


def _title_link(node: Node, href: str, overlays: set[int]) -> bool:
    """Whether ``node`` is, sits in or holds (among its first elements) a link to ``href``
    that is not an overlay candidate itself."""
    def title(x: Node) -> bool:
        return x.tag == "a" and x.attrs.get("href") == href and id(x) not in overlays

    if title(node):
        return True
    up = node.parent
    for _ in range(_CARD_MAX_LEVELS):
        if up is None:
            break
        if title(up):
            return True
        up = up.parent
    seen = 0
    stack = list(node.children)
    while stack and seen < _TITLE_MAX_ELEMENTS:
        x = stack.pop()
        if x.tag == TEXT:
            continue
        seen += 1
        if title(x):
            return True
        stack.extend(x.children)
    return False
