"""Plain text from the Markdown that :func:`unclutter.reconstruct.markdown.to_markdown` writes.

A line-by-line reading of the GFM block structure (https://github.github.com/gfm/, sections
4-5) restricted to what ``to_markdown`` produces: block quotes (``>``), list items whose
continuation lines are indented by the marker width, backtick code fences, ATX headings,
pipe tables, ``---`` breaks and paragraphs whose lines end in a backslash hard break. The
escaping rules of :mod:`unclutter.reconstruct.escaping` guarantee that literal text never
looks like one of these, so no full CommonMark parser is needed (markdown-it-py's parse
alone takes over ten times as long); tests check the result against markdown-it's reading.

Other Markdown (for example plain paragraphs from structured data) is read the same way:
it comes out right as long as it does not use reference links, setext headings, indented
code or HTML (other than the ``<sub>``/``<sup>``/``<br>`` tags ``to_markdown`` writes).
"""

from __future__ import annotations

import re

from .escaping import ASCII_PUNCTUATION, is_whitespace
from .rules import RAW_TAG_RE

__all__ = ["markdown_to_text", "inline_text"]

_ITEM = re.compile(r"([-*+]|[0-9]{1,9}[.)])(?: |$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"(#{1,6})(?:[ \t]+|$)")
# (the space run is tried from its first space only: from each, it is quadratic)
_ATX_CLOSE = re.compile(r"(?:^|(?<![ \t])[ \t]+)#+[ \t]*$")
_THEMATIC = re.compile(r" {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
_DELIMITER_ROW = re.compile(r"\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?$")
_INLINE_MARKUP = re.compile(r"[\\`*~\[\]!<]")
# The raw HTML tags to_markdown writes (rules.RAW_TAG_RE): <sub>/<sup> dropped, their text
# kept; a cell's <br> a space, as table cells are one line of the text too.
_LINK_SCAN = re.compile(r"[\\`\[\]]")
_BACKTICKS = re.compile(r"`+")


def _code_span_end(s: str, start: int, end: int) -> int:
    """``s[start:end]`` is a backtick run: index of the start of the closing run of the same
    length (GFM spec section 6.3), or -1."""
    size = end - start
    for m in _BACKTICKS.finditer(s, end):
        if m.end() - m.start() == size:
            return m.start()
    return -1


def _find_link_end(s: str, i: int) -> tuple[int, int]:
    """For ``s[i] == "["``: when ``[text](dest)`` starts there, return (index of the ``]``,
    index just after the ``)``); else ``(-1, -1)``. Nested brackets (an image inside link
    text) are balanced; escaped characters and code spans are skipped."""
    depth = 0
    pos = i + 1
    search = _LINK_SCAN.search
    while True:
        m = search(s, pos)
        if m is None:
            return -1, -1
        j = m.start()
        ch = s[j]
        if ch == "\\":
            pos = j + 2
        elif ch == "`":
            k = j + 1
            while k < len(s) and s[k] == "`":
                k += 1
            close = _code_span_end(s, j, k)
            pos = close + (k - j) if close != -1 else k
        elif ch == "[":
            depth += 1
            pos = j + 1
        elif depth:
            depth -= 1
            pos = j + 1
        else:
            if s.startswith("(", j + 1):
                end = s.find(")", j + 2)
                if end != -1:
                    return j, end + 1
            return -1, -1


def inline_text(s: str) -> str:
    """Text of one line of inline Markdown: escapes undone, code span contents kept, emphasis
    and strikethrough delimiters removed, links replaced by their text, images dropped,
    ``<sub>``/``<sup>`` tags dropped (their text kept), a cell's ``<br>`` a space."""
    search = _INLINE_MARKUP.search
    m = search(s)
    if m is None:
        return s
    out: list[str] = []
    skip: dict[int, int] = {}  # position of a link's "]" -> position after its ")"
    n = len(s)
    pos = 0
    while m is not None:
        i = m.start()
        if i > pos:
            out.append(s[pos:i])
        ch = s[i]
        pos = i + 1
        if ch == "\\":
            if i + 1 < n and s[i + 1] in ASCII_PUNCTUATION:
                out.append(s[i + 1])
                pos = i + 2
            else:
                out.append(ch)
        elif ch == "`":
            k = i + 1
            while k < n and s[k] == "`":
                k += 1
            close = _code_span_end(s, i, k)
            if close == -1:
                out.append(s[i:k])
                pos = k
            else:
                body = s[k:close]
                if len(body) > 1 and body[0] == " " and body[-1] == " " and body.strip(" "):
                    body = body[1:-1]
                out.append(body)
                pos = close + (k - i)
        elif ch == "]":
            if i in skip:
                pos = skip.pop(i)
            else:
                out.append(ch)
        elif ch == "!":
            end = -1
            if s.startswith("[", i + 1):
                _, end = _find_link_end(s, i + 1)
            if end != -1:
                pos = end
            else:
                out.append(ch)
        elif ch == "<":
            t = RAW_TAG_RE.match(s, i)
            if t is not None:
                pos = t.end()
                if t.end() - i == 4:  # <br>
                    out.append(" ")
            else:
                out.append(ch)
        elif ch == "[":
            close, end = _find_link_end(s, i)
            if close != -1:
                skip[close] = end
            else:
                out.append(ch)
        else:  # "*" or "~" run
            k = i + 1
            while k < n and s[k] == ch:
                k += 1
            if ch == "*":
                literal = (i == 0 or is_whitespace(s[i - 1])) and (k == n or is_whitespace(s[k]))
            else:
                literal = k - i != 2
            if literal:
                out.append(s[i:k])
            pos = k
        m = search(s, pos)
    if pos < n:
        out.append(s[pos:])
    return "".join(out)


def _table_cells(row: str) -> list[str]:
    """Split a pipe-table row on unescaped ``|`` (as markdown-it does: a pipe right after a
    backslash is part of the cell) and undo the ``\\|`` escape."""
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    cells: list[str] = []
    start = 0
    for i, ch in enumerate(row):
        if ch == "|" and (i == 0 or row[i - 1] != "\\"):
            cells.append(row[start:i])
            start = i + 1
    cells.append(row[start:])
    return [inline_text(c.strip().replace("\\|", "|")) for c in cells]


def markdown_to_text(md: str) -> str:
    """Plain text of Markdown written by :func:`~unclutter.reconstruct.markdown.to_markdown`.

    No markup survives: heading ``#``s, bullets, quote markers, fences, emphasis and
    escapes are removed; links become their text; images are dropped; code is kept byte
    for byte; ordered list items keep their number (``"2. "``); table rows become their
    cells joined by a tab, without the delimiter row. Blocks stay separated by one blank
    line, list items and table rows by a newline; a hard break is a newline.

    Returns ``""`` for Markdown without text, else text without a trailing newline.
    """
    out: list[str] = []
    containers: list[int] = []  # 0: block quote; n > 0: list item content indented n
    fence = ""
    fence_depth = 0
    para: list[str] = []  # lines of a paragraph continued by hard breaks
    para_depth = 0
    number = ""  # number of the ordered item whose first text line is still to come
    blank = True  # the last line written was blank (or nothing was written yet)

    def emit(text: str) -> None:
        nonlocal blank, number
        if not text.strip():  # e.g. a paragraph that was only an image
            if not blank:
                out.append("")
                blank = True
            return
        out.append(number + text)
        number = ""
        blank = False

    for line in md.split("\n"):
        rest = line
        matched = 0
        for width in containers:
            if width == 0:
                if not rest.startswith(">"):
                    break
                rest = rest[2:] if rest.startswith("> ") else rest[1:]
            elif rest.startswith(" " * width):
                rest = rest[width:]
            elif not rest.strip(" \t"):
                rest = ""
            else:
                break
            matched += 1
        if matched < len(containers):
            del containers[matched:]
            number = ""
            if fence and fence_depth > matched:
                fence = ""
        if para:
            if matched >= para_depth and rest.strip(" \t"):
                trailing = len(rest) - len(rest.rstrip("\\"))
                if trailing % 2:
                    para.append(rest[:-1].strip(" \t"))
                    continue
                para.append(rest.strip(" \t"))
                emit(inline_text("\n".join(para)))
                para = []
                continue
            emit(inline_text("\n".join(para)))
            para = []
        if fence:
            stripped = rest.strip(" ")
            if (
                stripped.startswith(fence)
                and stripped == fence[0] * len(stripped)
                and len(rest) - len(rest.lstrip(" ")) < 4
            ):
                fence = ""
                continue
            out.append(rest)
            blank = False
            continue
        while rest:
            if rest[0] == ">":
                containers.append(0)
                rest = rest[2:] if rest.startswith("> ") else rest[1:]
                continue
            m = _ITEM.match(rest)
            if m is None:
                break
            marker = m.group(1)
            containers.append(len(marker) + 1)
            if marker[0].isdigit():
                number += marker[:-1] + ". "
            rest = rest[m.end() :]
        if not rest.strip(" \t"):
            if not blank:
                out.append("")
                blank = True
            continue
        m = _FENCE.match(rest)
        if m is not None and "`" not in rest[m.end() :]:
            fence = m.group(1)
            fence_depth = len(containers)
            continue
        if _THEMATIC.match(rest):
            continue
        m = _ATX.match(rest)
        if m is not None:
            emit(inline_text(_ATX_CLOSE.sub("", rest[m.end() :]).strip(" \t")))
        elif rest[0] == "|":
            if not _DELIMITER_ROW.match(rest.strip()):
                emit("\t".join(_table_cells(rest)))
        else:
            trailing = len(rest) - len(rest.rstrip("\\"))
            if trailing % 2:
                para = [rest[:-1].strip(" \t")]
                para_depth = len(containers)
            else:
                emit(inline_text(rest.strip(" \t")))
    if para:
        emit(inline_text("\n".join(para)))
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)
