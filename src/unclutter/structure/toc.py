"""Table of contents: one entry per Markdown heading, with GitHub-style anchors.

Anchors follow GitHub's heading-id rule (as implemented by github-slugger, documented in
GitHub Docs "About READMEs": lower-case, remove punctuation except hyphens and
underscores, spaces become hyphens; a repeated slug gets ``-1``, ``-2``... appended).
Offsets are character offsets (code points) into the Markdown string of the heading line's
first ``#``.
"""

from __future__ import annotations

import re

from ..core.models import TocEntry
from ..reconstruct.plaintext import inline_text

__all__ = ["slugify", "Slugger", "build_toc"]

_ATX_RE = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_FENCE_RE = re.compile(r"^(`{3,}|~{3,})", re.MULTILINE)
# Characters GitHub drops from slugs: everything but letters, digits, marks, spaces,
# hyphens and underscores.
_DROP_RE = re.compile(r"[^\w\- ]", re.UNICODE)


def heading_text(markdown_heading: str) -> str:
    """Plain text of a Markdown heading's content, as a CommonMark reader renders it (links
    -> their text, images dropped, emphasis marks, escapes and ``<sub>``/``<sup>`` tags
    removed, code spans kept as written): :func:`unclutter.reconstruct.plaintext.inline_text`."""
    return inline_text(markdown_heading).strip()


def slugify(text: str) -> str:
    """GitHub's slug of a heading text (without the uniqueness suffix)."""
    return _DROP_RE.sub("", text.strip().lower()).replace(" ", "-")


class Slugger:
    """Makes unique slugs for one document, GitHub style (``a``, ``a-1``, ``a-2``...)."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def slug(self, text: str) -> str:
        base = slugify(text) or "section"
        slug = base
        n = self.seen.get(base, 0)
        while slug in self.seen:
            n += 1
            slug = f"{base}-{n}"
        self.seen[base] = n
        self.seen.setdefault(slug, 0)
        return slug


def build_toc(markdown: str) -> list[TocEntry]:
    """Entries for every ATX heading in ``markdown`` outside fenced code blocks."""
    fences: list[tuple[int, int]] = []
    open_at = None
    fence = ""
    for m in _FENCE_RE.finditer(markdown):
        if open_at is None:
            open_at, fence = m.start(), m.group(1)
        elif m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
            fences.append((open_at, m.end()))
            open_at = None
    if open_at is not None:
        fences.append((open_at, len(markdown)))
    slugger = Slugger()
    out: list[TocEntry] = []
    fi = 0
    for m in _ATX_RE.finditer(markdown):
        pos = m.start()
        while fi < len(fences) and fences[fi][1] <= pos:
            fi += 1
        if fi < len(fences) and fences[fi][0] <= pos < fences[fi][1]:
            continue
        title = heading_text(m.group(2))
        if not title:
            continue
        out.append(TocEntry(level=len(m.group(1)), title=title, anchor=slugger.slug(title), offset=pos))
    return out
