"""Blocks a page repeats: the copies a carousel or slider script clones (the same slide two or
three times over, for its infinite loop), sections a template prints twice, and a forum
reply's quotation of an earlier post (:func:`drop_quoted_posts`). In the
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

__all__ = ["drop_repeated_blocks", "drop_quoted_posts", "REPEAT_MIN_CHARS", "REPEAT_MIN_PARTS",
           "QUOTE_MIN_WORDS", "QUOTE_MIN_SHARE", "QUOTE_SHINGLE_WORDS"]

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


#: A ``<blockquote>`` of at least this many words...
QUOTE_MIN_WORDS = 20
#: ... of whose word shingles (:data:`QUOTE_SHINGLE_WORDS` words each) at least this share
#: were already kept before it, outside quotations, is a reply quoting an earlier post of
#: the thread (forum software prints the quoted post inside the reply, with "X said:" and
#: "Click to expand..."), or a pull quote repeating the article: the text is kept once,
#: where it was written. (Requiring an attribution line, which pull quotes lack, measured
#: lower on the CV by site and on both parts: 0.8663 against 0.8666.)
QUOTE_MIN_SHARE = 0.8
QUOTE_SHINGLE_WORDS = 5


def _shingles(words: list[str]) -> set[int]:
    k = QUOTE_SHINGLE_WORDS
    return {hash(tuple(words[j:j + k])) for j in range(len(words) - k + 1)}


def drop_quoted_posts(root: Node, removed: list[Removal] | None = None) -> int:
    """Remove, in place, each ``<blockquote>`` under ``root`` that quotes what the selection
    already holds before it (:data:`QUOTE_MIN_WORDS`, :data:`QUOTE_MIN_SHARE`); returns how
    many. Text is read once in document order (quotations' own text is not counted as
    written), so the cost is linear in the selection. ``removed`` receives a record each."""
    seen: set[int] = set()
    run: list[str] = []  # the words of the text read since the last quotation or the start
    count = 0
    stack: list[Node] = [root]
    while stack:
        n = stack.pop()
        if n.tag == TEXT:
            run.extend(n.text.lower().split())
            continue
        if n.tag == "blockquote" and n is not root:
            seen |= _shingles(run)
            del run[:]
            words = n.text_content().lower().split()
            quoted = _shingles(words)
            if len(words) >= QUOTE_MIN_WORDS and quoted and len(quoted & seen) >= QUOTE_MIN_SHARE * len(quoted):
                if removed is not None:
                    text = " ".join(words)
                    removed.append(Removal("select", "a quotation of an earlier post of the thread", n.tag,
                                           n.class_id[:100], len(text), text[:_PREVIEW]))
                n.remove()
                count += 1
            continue  # (a quotation's own words are not the thread's text)
        stack.extend(reversed(n.children))
    return count
