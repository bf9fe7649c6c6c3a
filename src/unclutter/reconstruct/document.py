"""The Markdown document around the body: the title heading, and a body given as plain text.

:func:`to_markdown` writes the kept DOM subtree; the pipeline puts :func:`title_heading` above
it, or, when it falls back to the page's structured data (a JSON-LD ``articleBody``, the
prose of ``__NEXT_DATA__``), writes that text with :func:`plain_text_markdown` instead.
"""

from __future__ import annotations

import re

__all__ = ["title_heading", "plain_text_markdown"]

#: Characters that could start Markdown syntax inside a one-line heading (emphasis, code,
#: links, HTML, a closing ``#`` sequence).
_TITLE_SPECIAL_RE = re.compile(r"([\\`*_\[\]<>#])")
#: Paragraph breaks of plain text: a blank line, or a single line break (structured-data
#: bodies mark paragraphs either way).
_PARAGRAPH_BREAK_RE = re.compile(r"\n\s*\n|\n")


def title_heading(title: str) -> str:
    """``title`` as a level-1 ATX heading and the blank line after it: whitespace collapsed
    to single spaces, Markdown punctuation backslash-escaped."""
    escaped = _TITLE_SPECIAL_RE.sub(r"\\\1", " ".join(title.split()))
    return f"# {escaped}\n\n"


def plain_text_markdown(body: str) -> str:
    """The plain text ``body`` as Markdown paragraphs: each line (or blank-line-separated
    block) one paragraph, whitespace collapsed, empty ones dropped, blank lines between, a
    final newline."""
    paragraphs = [" ".join(p.split()) for p in _PARAGRAPH_BREAK_RE.split(body)]
    return "\n\n".join(p for p in paragraphs if p) + "\n"
