"""Overlay links: a card's whole-card link that names another link as its label.

A card made clickable all over carries a second link to its story, stretched over the
card by the stylesheet and labelled by the visible title link (WAI-ARIA 1.2 §6.6
``aria-labelledby``: the element's accessible name is the text of the elements it names).
Its own text repeats that title, so a reader would see every title twice. Such a link is
removed when the elements its ``aria-labelledby`` names (outside it, found in the page)
read exactly its own text and one of them is, holds or sits in a link to the same
``href``: the link says itself that it duplicates that one.
"""

from __future__ import annotations

from ..core.dom import TEXT, Node, detach_children
from ..core.models import Removal
from .removal_log import _log

#: The reason written to the removal log.
OVERLAY_LINK_REASON = "overlay link repeating the title link it is labelled by"


def drop_overlay_links(root: Node, removed: list[Removal] | None) -> int:
    """Remove the overlay links below ``root`` (see the module docstring), logging each in
    ``removed`` when given; returns the characters of text they held. One walk of the
    tree, and a second one only when a link names a label."""
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
    wanted = {i for a in links for i in a.attrs["aria-labelledby"].split()}
    by_id: dict[str, Node] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        if n.tag == TEXT:
            continue
        ident = n.attrs.get("id")
        if ident in wanted and ident not in by_id:
            by_id[ident] = n
        stack.extend(n.children)
    doomed: set[int] = set()
    parents: list[Node | None] = []
    chars = 0
    texts: dict[int, str] = {}  # a label's text, read once however many links name it
    for a in links:
        labels = [by_id.get(i) for i in a.attrs["aria-labelledby"].split()]
        if not labels or any(lab is None for lab in labels):
            continue
        own = " ".join(a.text_content().split())
        if not own or any(_related(a, lab) for lab in labels):
            continue
        for lab in labels:
            if id(lab) not in texts:
                texts[id(lab)] = " ".join(lab.text_content().split())
        if " ".join(texts[id(lab)] for lab in labels) != own:
            continue
        href = a.attrs["href"]
        if not any(_links_to(lab, href) for lab in labels):
            continue
        if removed is not None:
            _log(removed, a, OVERLAY_LINK_REASON)
        doomed.add(id(a))
        parents.append(a.parent)
        chars += len(a.text_content())
    detach_children(parents, doomed)
    return chars


def _related(a: Node, b: Node) -> bool:
    """Whether one of ``a``, ``b`` holds the other (or they are one element)."""
    return a is b or any(x is b for x in a.ancestors()) or any(x is a for x in b.ancestors())


def _links_to(node: Node, href: str) -> bool:
    """Whether ``node`` is, sits in or holds a link to ``href``."""
    if node.tag == "a" and node.attrs.get("href") == href:
        return True
    if any(x.tag == "a" and x.attrs.get("href") == href for x in node.ancestors()):
        return True
    return any(x.tag == "a" and x.attrs.get("href") == href for x in node.iter_elements(include_self=False))
