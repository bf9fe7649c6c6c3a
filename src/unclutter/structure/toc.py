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

#: An ATX heading line: level marks, the space run after them, the rest of the line. The
#: heading's content is cut from the rest by :func:`_heading_content` (a lazy
#: ``(.+?)[ \t]*#*[ \t]*$`` rescans the line's tail after each character it takes:
#: quadratic on a long line of spaces).
_ATX_RE = re.compile(r"^(#{1,6})([ \t]+)(.*)$", re.MULTILINE)
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


def _heading_content(spaces: str, rest: str) -> str | None:
    """The content of an ATX heading, given the space run after its marks and the rest of
    its line: what ``(.+?)`` captures in ``^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$``. The rest
    less its closing sequence (trailing spaces, ``#`` marks, spaces), at least one
    character of it; on a line of marks and spaces only, the last space (``None`` when
    there is one space only: no heading)."""
    if not rest:
        return spaces[-1] if len(spaces) > 1 else None
    body = len(rest.rstrip(" \t").rstrip("#").rstrip(" \t"))
    return rest[: max(1, body)]


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
        content = _heading_content(m.group(2), m.group(3))
        if content is None:
            continue
        title = heading_text(content)
        if not title:
            continue
        out.append(TocEntry(level=len(m.group(1)), title=title, anchor=slugger.slug(title), offset=pos))
    return out
