"""Blocks a page repeats: the copies a carousel or slider script clones (the same slide two or
three times over, for its infinite loop), and sections a template prints twice. In the
selection they read as the same marketing text again and again. After the selection, a
subtree whose text and element structure equal those of an earlier subtree (not one of its
ancestors), that holds at least :data:`REPEAT_MIN_CHARS` characters and at least
:data:`REPEAT_MIN_PARTS` element children with text, is removed.

Subtrees are compared by a structural hash computed bottom-up in one pass (tags, and the
whitespace-collapsed text of text nodes; attributes left out, as a clone's ``class`` says
``cloned``), so the cost is linear in the selection.
"""

from __future__ import annotations

from ..core.dom import TEXT, Node
from ..core.models import Removal

__all__ = ["drop_repeated_blocks", "REPEAT_MIN_CHARS", "REPEAT_MIN_PARTS"]

#: The smallest block whose repetition is removed (characters of text): short repeated
#: blocks are list labels, "Reply" links, table values, which repeat by nature.
REPEAT_MIN_CHARS = 200

#: ... and a repeated block is a section of at least this many parts with text (a slide's
#: heading and text, a feature card): a paragraph said twice is the author's (a quotation
#: repeated, a placeholder text in a template's sample page) and stays.
REPEAT_MIN_PARTS = 2

_PREVIEW = 80


def drop_repeated_blocks(root: Node, removed: list[Removal] | None = None) -> int:
    """Remove the repeated blocks under ``root`` (module docstring), in place; returns how
    many were removed. ``removed`` receives a record each."""
    order: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        order.append(n)
        if n.tag != TEXT:
            stack.extend(reversed(n.children))
    digest: dict[int, int] = {}
    size: dict[int, int] = {}
    parts: dict[int, int] = {}  # element children holding text
    for n in reversed(order):  # children before parents
        if n.tag == TEXT:
            text = " ".join(n.text.split())
            digest[id(n)] = hash(("#t", text))
            size[id(n)] = len(text)
        else:
            digest[id(n)] = hash((n.tag, tuple(digest[id(c)] for c in n.children)))
            size[id(n)] = sum(size[id(c)] for c in n.children)
            parts[id(n)] = sum(1 for c in n.children if c.tag != TEXT and size[id(c)])
    seen: set[int] = set()
    count = 0
    stack = [root]
    while stack:
        n = stack.pop()
        if n.tag == TEXT:
            continue
        key = digest[id(n)]
        if n is not root and size[id(n)] >= REPEAT_MIN_CHARS and parts[id(n)] >= REPEAT_MIN_PARTS:
            if key in seen:
                if removed is not None:
                    text = " ".join(n.text_content().split())
                    removed.append(Removal("select", "a repeat of an earlier block (a carousel's clone, a "
                                           "section printed twice)", n.tag, n.class_id[:100], len(text),
                                           text[:_PREVIEW]))
                n.remove()
                count += 1
                continue
            seen.add(key)
        stack.extend(reversed(n.children))
    return count
