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

import re

from ..core.dom import TEXT, Node, detach_children
from ..core.models import Removal

__all__ = ["drop_repeated_blocks", "drop_quoted_posts", "REPEAT_MIN_CHARS", "REPEAT_MIN_PARTS",
           "QUOTE_MIN_WORDS", "QUOTE_MIN_SHARE", "QUOTE_SHINGLE_WORDS",
           "QUOTE_MAX_NEW_SHINGLES", "QUOTE_ATTRIBUTION_RE"]

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
    gone: list[Node] = []
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
                gone.append(n)
                continue
            seen.add(key)
        stack.extend(reversed(n.children))
    # (at the end, one pass per parent: many clones side by side stay linear)
    detach_children([m.parent for m in gone], {id(m) for m in gone})
    return len(gone)


#: A ``<blockquote>`` of at least this many words...
QUOTE_MIN_WORDS = 20
#: ... of whose word shingles (:data:`QUOTE_SHINGLE_WORDS` words each) at least this share
#: were already kept before it, outside quotations...
QUOTE_MIN_SHARE = 0.8
QUOTE_SHINGLE_WORDS = 5
#: ... with at most this many shingles not seen before (the quotation's own label, "X
#: said:" and "Click to expand...": a reply written inside the quotation keeps it)...
QUOTE_MAX_NEW_SHINGLES = 12
#: ... and an attribution (forum software's "X said:", "X wrote:", "Quote from X",
#: "Originally Posted by X") opening it or alone in the element just before it, or a page
#: declared a forum thread, is a reply quoting an earlier post: the post is kept once, where
#: it was written, and a label left alone before the quotation goes with it. Without
#: either, a repeat is the author's (a song's chorus, a pull quote) and stays.
QUOTE_ATTRIBUTION_RE = re.compile(
    r"^(?:quote\b|originally posted by\b|zitat\b|citation\b|cita\b|citazione\b|citaat\b|цитата\b|"
    r"[^\n]{1,80}?\b(?:said|wrote|writes|says|posted|a écrit|schrieb|escribió|ha scritto|schreef|написал)\b)",
    re.IGNORECASE)
#: The characters of a quotation's start (and of a label before it) read for its attribution.
QUOTE_ATTRIBUTION_CHARS = 120


def _shingles(words: list[str]) -> set[int]:
    k = QUOTE_SHINGLE_WORDS
    return {hash(tuple(words[j:j + k])) for j in range(len(words) - k + 1)}


def _attributed(text: str) -> bool:
    return QUOTE_ATTRIBUTION_RE.match(" ".join(text[:QUOTE_ATTRIBUTION_CHARS].split())) is not None


def _label(prev: Node | None) -> Node | None:
    """``prev`` (the element just before a quotation, blank text between) when its whole
    text is short and an attribution (vBulletin's "Quote: Originally Posted by X" above the
    quotation), else ``None``."""
    if prev is None or prev.tag == "blockquote":
        return None
    text = prev.text_content()
    return prev if len(text) <= QUOTE_ATTRIBUTION_CHARS and _attributed(text) else None


def _with_previous(children: list[Node], flag: bool) -> list[tuple[Node, bool, Node | None]]:
    """``children`` as ``(child, flag, the element just before it or None)``, reversed for a
    stack (non-blank text between two elements breaks the pair)."""
    out = []
    prev = None
    for c in children:
        out.append((c, flag, prev))
        if c.tag != TEXT:
            prev = c
        elif c.text.strip():
            prev = None
    out.reverse()
    return out


def drop_quoted_posts(root: Node, removed: list[Removal] | None = None, thread: bool = False) -> int:
    """Remove, in place, each ``<blockquote>`` under ``root`` that quotes an earlier post
    of the thread (:data:`QUOTE_MIN_WORDS`, :data:`QUOTE_MIN_SHARE`,
    :data:`QUOTE_MAX_NEW_SHINGLES`, :data:`QUOTE_ATTRIBUTION_RE`; ``thread``: the page
    declares a forum thread, no attribution needed); returns how many. A quotation that
    stays is looked into for the quotations it holds (a quote of a quote above a reply).
    Text is read once in document order (quotations' own text is not counted as written),
    and the removals are made at the end, one pass per parent: linear in the selection.
    ``removed`` receives a record each."""
    seen: set[int] = set()
    run: list[str] = []  # the words written since the last quotation (or the start)
    gone: list[Node] = []
    # (node, inside a quotation that stays, the element just before it)
    stack: list[tuple[Node, bool, Node | None]] = [(root, False, None)]
    while stack:
        n, quoted_text, prev = stack.pop()
        if n.tag == TEXT:
            if not quoted_text:
                run.extend(n.text.lower().split())
            continue
        if n.tag == "blockquote" and n is not root:
            if run:
                seen |= _shingles(run)
                del run[:]
            text = n.text_content()
            words = text.lower().split()
            quoted = _shingles(words)
            new = len(quoted - seen) if quoted else 0
            label = None
            if (len(words) >= QUOTE_MIN_WORDS and quoted and len(quoted) - new >= QUOTE_MIN_SHARE * len(quoted)
                    and new <= QUOTE_MAX_NEW_SHINGLES
                    and (_attributed(text) or (label := _label(prev)) is not None or thread)):
                if label is None:
                    label = _label(prev)
                for m in (label, n) if label is not None else (n,):
                    gone.append(m)
                    if removed is not None:
                        what = " ".join(m.text_content().split())
                        removed.append(Removal("select", "a quotation of an earlier post of the thread"
                                               if m is n else "the label of a quotation removed", m.tag,
                                               m.class_id[:100], len(what), what[:_PREVIEW]))
                continue
            stack.extend(_with_previous(n.children, True))
            continue
        stack.extend(_with_previous(n.children, quoted_text))
    detach_children([m.parent for m in gone], {id(m) for m in gone})
    return sum(1 for m in gone if m.tag == "blockquote")
