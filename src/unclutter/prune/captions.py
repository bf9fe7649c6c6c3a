"""Repeated captions: a caption whose text an earlier caption already showed, whole or
truncated (slideshow widgets print each one several times; ``rules.CAPTION_CLASS_RE``)."""

from __future__ import annotations

import bisect

from ..core.dom import Node
from .removal_log import _visible_text
from .rules import (
    CAPTION_TRUNCATION_TAIL_RE,
    REPEATED_CAPTION_MAX_CANDIDATES,
    REPEATED_CAPTION_MAX_CHARS,
    REPEATED_CAPTION_MAX_CHECKED,
    REPEATED_CAPTION_MIN_CHARS,
)


class _Captions:
    """The caption texts seen so far on a page (:func:`_repeated_caption`): sorted, so that
    the earlier captions starting with a text are found by bisection, next to the element
    that showed each."""

    __slots__ = ("texts", "owners", "checked")

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.owners: dict[str, Node] = {}
        self.checked = 0


def _repeated_caption(node: Node, seen: _Captions, removed_by_prune) -> str | None:
    """The removal reason when caption ``node`` repeats an earlier caption, or is a
    truncated copy of one (``rules.REPEATED_CAPTION_MIN_CHARS``); else ``None``, and its
    text joins ``seen``. A caption inside an earlier one (a figcaption's text span) is part
    of it, not a copy; only visible text counts (``removed_by_prune``). At most
    ``rules.REPEATED_CAPTION_MAX_CHECKED`` captions a page are read (each read costs its
    subtree's text)."""
    if seen.checked >= REPEATED_CAPTION_MAX_CHECKED:
        return None
    seen.checked += 1
    raw = _visible_text(node, removed_by_prune, REPEATED_CAPTION_MAX_CHARS)
    if raw is None:  # longer than any caption: a region with a caption-like class
        return None
    text = " ".join(raw.split()).casefold()
    text = text[:-40] + CAPTION_TRUNCATION_TAIL_RE.sub("", text[-40:])
    if len(text) < REPEATED_CAPTION_MIN_CHARS:
        return None
    texts = seen.texts
    k = bisect.bisect_left(texts, text)
    ancestors: set[int] | None = None
    for earlier in texts[k:k + REPEATED_CAPTION_MAX_CANDIDATES]:
        if not earlier.startswith(text):
            break
        if ancestors is None:
            ancestors = {id(a) for a in node.ancestors()}
        if id(seen.owners[earlier]) not in ancestors:
            return "repeated caption" if earlier == text else "truncated copy of a caption"
    if text not in seen.owners:
        texts.insert(k, text)
        seen.owners[text] = node
    return None
