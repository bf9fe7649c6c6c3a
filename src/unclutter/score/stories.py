"""One story per selection: the complete articles a page appends after its own.

Infinite-scroll templates load the next article under the first one, in the same
container; some pages print a second article under the first with no container at all.
Readability's sibling merging and a common parent's score then take both. After the
heuristic's selection, the *complete stories* it holds are found: ``<article>`` elements,
none inside another, each with its own ``h1`` headline (a story's template prints it; an
article's sections have lower headings) and at least
:data:`STORY_MIN_PARAGRAPHS` paragraphs of at least :data:`STORY_PARAGRAPH_CHARS`
characters outside links (a teaser card has a sentence or two). With two or more, the
page's own story is the one whose headline shares most words with the page's title (at
least :data:`STORY_TITLE_MIN_OVERLAP` of the headline's words); the complete stories after
it are removed. Without such a headline nothing is removed: one article whose sections
are marked up as ``<article>`` elements names none of them in its title. A listing of teaser cards or a page of one story is left alone.
"""

from __future__ import annotations

import re

from ..core.dom import TEXT, Node
from ..core.models import Removal
from .features import prose_paragraphs

__all__ = ["trim_appended_stories", "STORY_MIN_PARAGRAPHS", "STORY_PARAGRAPH_CHARS", "STORY_TITLE_MIN_OVERLAP"]

#: A complete story holds at least this many paragraphs of prose ...
STORY_MIN_PARAGRAPHS = 3
#: ... each of at least this many characters outside links.
STORY_PARAGRAPH_CHARS = 150
#: The headline matching the page title shares at least this share of its words with it.
STORY_TITLE_MIN_OVERLAP = 0.5

_WORD_RE = re.compile(r"\w+")
_PREVIEW = 80


def _headline(node: Node) -> str | None:
    """Text of the first ``h1`` under ``node``, if any."""
    for n in node.iter_elements():
        if n.tag == "h1":
            return " ".join(n.text_content().split())
    return None


def _stories(root: Node) -> list[tuple[Node, str]]:
    """The complete stories under ``root`` (outermost ``<article>`` elements), in order."""
    found: list[tuple[Node, str]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.tag == "article" and n is not root:
            headline = _headline(n)
            if headline and prose_paragraphs(n, STORY_PARAGRAPH_CHARS) >= STORY_MIN_PARAGRAPHS:
                found.append((n, headline))
            continue  # (an article inside an article is part of it)
        stack.extend(c for c in reversed(n.children) if c.tag != TEXT)
    return found


def _overlap(headline: str, title: str) -> float:
    words = set(_WORD_RE.findall(headline.casefold()))
    if not words:
        return 0.0
    return len(words & set(_WORD_RE.findall(title.casefold()))) / len(words)


def trim_appended_stories(root: Node, title: str | None, removed: list[Removal] | None = None) -> int:
    """Remove from the selection ``root`` the complete stories after the page's own (module
    docstring), in place; returns how many were removed. ``title``: the page's title
    (``None``: nothing is removed). ``removed`` receives a record each."""
    stories = _stories(root)
    if len(stories) < 2:
        return 0
    if not title:
        return 0
    keep = max(range(len(stories)), key=lambda k: _overlap(stories[k][1], title))
    if _overlap(stories[keep][1], title) < STORY_TITLE_MIN_OVERLAP:
        return 0
    count = 0
    for k, (node, headline) in enumerate(stories):
        if k <= keep:
            continue
        if removed is not None:
            text = " ".join(node.text_content().split())
            removed.append(Removal("select", f"another complete story ({headline[:60]!r}) after the page's own",
                                   node.tag, node.class_id[:100], len(text), text[:_PREVIEW]))
        node.remove()
        count += 1
    return count
