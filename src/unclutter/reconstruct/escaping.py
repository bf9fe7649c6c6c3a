"""Escaping text for GitHub Flavored Markdown, only where a character would change structure.

Source of every rule: the GFM spec, https://github.github.com/gfm/ (0.29-gfm), and the
CommonMark 0.31 punctuation definition that markdown-it follows. A backslash before any
ASCII punctuation character makes it literal (spec section 2.4), so every escape here is a
backslash. Ordinary punctuation is left alone; a character is escaped only when, in its
position, a GFM parser could read it as markup:

========================  ===========================================================
character                  escaped when
========================  ===========================================================
``\\``                     it precedes ASCII punctuation or ends the text (section 2.4)
`````                      always: any backtick may open a code span (section 6.3)
``*``                      the run can open or close emphasis, i.e. it is left- or
                           right-flanking (section 6.4); our own ``*`` markers could
                           otherwise pair with it
``_``                      the run can close emphasis (section 6.4): without a closer
                           no ``_`` pair forms, so intraword ``snake_case`` stays bare
``~``                      a run of two or more, or a right-flanking single tilde
                           (strikethrough, section 6.5 extension)
``[`` / ``]``              inside link text or image alt; elsewhere ``]`` only before
                           ``(``, ``[`` or ``:`` (inline links, reference definitions)
``<``                      before a letter, ``/``, ``!`` or ``?`` (raw HTML, autolinks)
``&``                      it starts an entity or numeric reference (section 2.5)
``$``                      the text, or the paragraph it is in, holds two or more (a
                           formula's counting): a pair could read as GitHub math
                           (``$5-$10``), which our formulas use; one alone stays bare
``!``                      it ends the text right before a link's ``[`` (image syntax)
``|``                      inside a table cell, always (section 4.10), done by the caller
line start: ``#``          1-6 ``#`` then a space or the end (ATX heading, section 4.2)
line start: ``>``          always (block quote, section 5.1)
line start: ``-+*``        followed by a space/tab or the end (list item, section 5.2)
line start: ``1.``/``1)``  digits then ``.``/``)`` then a space or the end (ordered item)
line start: ``-=*_+``      the line is only that character and spaces (thematic break,
                           setext underline: sections 4.1 and 4.3)
line start: ``|``          always (so a paragraph line never starts a table row)
========================  ===========================================================
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "ASCII_PUNCTUATION",
    "INLINE_SPECIAL_RE",
    "LINE_START_CHARS",
    "is_punctuation",
    "is_whitespace",
    "left_flanking",
    "right_flanking",
    "escape_text",
    "escape_heading_end",
    "escape_line_start",
    "code_span",
    "fence_for",
    "format_url",
]

#: ASCII punctuation characters (GFM spec section 2.1).
ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

_ASCII_WHITESPACE = frozenset(" \t\n\r\f\v")


def is_punctuation(ch: str) -> bool:
    """True for ASCII punctuation or a Unicode P* / S* character (CommonMark 0.31 section 2.1,
    as markdown-it implements it). ``""`` (a line boundary) is not punctuation."""
    if not ch:
        return False
    if ch in ASCII_PUNCTUATION:
        return True
    if ch < "\x80":
        return False
    return unicodedata.category(ch)[0] in "PS"


def is_whitespace(ch: str) -> bool:
    """True for Unicode whitespace (Zs or tab, LF, FF, CR) and for ``""``: "the beginning and the
    end of the line count as Unicode whitespace" (GFM spec section 6.4)."""
    if not ch or ch in _ASCII_WHITESPACE:
        return True
    if ch < "\x80":
        return False
    return unicodedata.category(ch) == "Zs"


def left_flanking(prev: str, nxt: str) -> bool:
    """Whether a delimiter run between characters ``prev`` and ``nxt`` is left-flanking
    (GFM spec section 6.4). ``""`` stands for a line boundary."""
    if is_whitespace(nxt):
        return False
    return not is_punctuation(nxt) or is_whitespace(prev) or is_punctuation(prev)


def right_flanking(prev: str, nxt: str) -> bool:
    """Whether a delimiter run between ``prev`` and ``nxt`` is right-flanking (section 6.4)."""
    if is_whitespace(prev):
        return False
    return not is_punctuation(prev) or is_whitespace(nxt) or is_punctuation(nxt)


#: Characters that may need an escape anywhere in a line; text without them (the vast
#: majority) skips the slow path.
INLINE_SPECIAL_RE = re.compile(r"[\\`*_~\[\]<&$]")
_INLINE_TOKEN = re.compile(
    r"(?P<bs>\\)|(?P<tick>`+)|(?P<star>\*+)|(?P<under>_+)|(?P<tilde>~+)|(?P<br>[\[\]])"
    r"|(?P<lt><)(?=[A-Za-z/!?])|(?P<amp>&)(?=#?[A-Za-z0-9]+;)"
)
_DOLLAR = re.compile(r"(?<!\\)\$")
#: First characters of a line that may need an escape (block starts, see the table above).
LINE_START_CHARS = frozenset("#>-+*=_|0123456789")
_ATX_START = re.compile(r"#{1,6}(?=[ \t]|$)")
_ORDERED_START = re.compile(r"([0-9]{1,9})([.)])(?=[ \t]|$)")
_BREAK_LINE = re.compile(r"([-=*_+])[ \t]*(?:\1[ \t]*)*$")


def _escape_line_start(s: str) -> tuple[str, str]:
    """Split off an escaped line-start prefix: returns ``(escaped_prefix, rest)``."""
    c = s[0]
    if c == "#":
        if _ATX_START.match(s):
            return "\\#", s[1:]
        return "", s
    if c == ">" or c == "|":
        return "\\" + c, s[1:]
    if c in "-+*":
        if len(s) == 1 or s[1] in " \t":
            return "\\" + c, s[1:]
    if c in "-=*_+" and _BREAK_LINE.match(s):
        return "\\" + c, s[1:]
    if "0" <= c <= "9":
        m = _ORDERED_START.match(s)
        if m:
            return m.group(1) + "\\" + m.group(2), s[m.end() :]
    return "", s


def escape_line_start(md: str) -> str:
    """``md``, Markdown already escaped for the inside of a line, made safe to start a line:
    a backslash before a first character that would start a block there (the line-start
    rows of the table above)."""
    if not md or md[0] not in LINE_START_CHARS:
        return md
    prefix, rest = _escape_line_start(md)
    return prefix + rest if prefix else md


def escape_text(
    s: str, prev: str = "", nxt: str = "", line_start: bool = False, in_link: bool = False,
    dollars: bool = False,
) -> str:
    """Escape literal text ``s`` so GFM reads it back as the same characters.

    Args:
        s: the text, whitespace already collapsed (no newlines).
        prev: the character written just before ``s`` (``""`` at a line start).
        nxt: the character written just after ``s`` (``""`` at a line end).
        line_start: ``s`` begins a line of a paragraph, so block-start rules apply.
        in_link: ``s`` is link text or image alt text, where brackets are always escaped.
        dollars: escape every ``$`` (the paragraph around ``s`` holds other ``$``: a formula,
            or another text's dollar sign), not only when ``s`` holds two or more.

    Returns the escaped text; see the module docstring for the rules and their sources.
    """
    if not s:
        return s
    prefix = ""
    if line_start and s[0] in LINE_START_CHARS:
        prefix, s = _escape_line_start(s)
        if prefix:
            prev = prefix[-1]
            if not s:
                return prefix
    if INLINE_SPECIAL_RE.search(s) is None:
        out = s
    else:
        n = len(s)

        def repl(m: re.Match[str]) -> str:
            kind = m.lastgroup
            text = m.group(0)
            start, end = m.start(), m.end()
            before = s[start - 1] if start > 0 else prev
            after = s[end] if end < n else nxt
            if kind == "bs":
                if after == "" or after in ASCII_PUNCTUATION:
                    return "\\\\"
                return text
            if kind == "tick":
                return "\\`" * len(text)
            if kind == "star":
                if left_flanking(before, after) or right_flanking(before, after):
                    return "\\*" * len(text)
                return text
            if kind == "under":
                right = right_flanking(before, after)
                if right and (not left_flanking(before, after) or is_punctuation(after)):
                    return "\\_" * len(text)
                return text
            if kind == "tilde":
                if len(text) > 1 or right_flanking(before, after):
                    return "\\~" * len(text)
                return text
            if kind == "br":
                if in_link or (text == "]" and after in ("(", "[", ":")):
                    return "\\" + text
                return text
            # "<" before a tag-like character, "&" starting an entity reference
            return "\\" + text

        out = _INLINE_TOKEN.sub(repl, s)
    if "$" in out and (dollars or out.count("$") > 1):
        out = _DOLLAR.sub(r"\\$", out)
    if nxt == "[" and out.endswith("!") and not out.endswith("\\!"):
        out = out[:-1] + "\\!"
    return prefix + out if prefix else out


def escape_heading_end(content: str) -> str:
    """Keep a trailing run of ``#`` in heading text from being read as the optional closing
    sequence of an ATX heading (GFM spec section 4.2): ``C #`` becomes ``C \\#``."""
    if not content.endswith("#"):
        return content
    stripped = content.rstrip("#")
    if stripped and stripped[-1] not in " \t":
        return content
    if stripped.endswith("\\"):  # already escaped by the text escaper
        return content
    return stripped + "\\" + content[len(stripped) :]


_BACKTICK_RUN = re.compile(r"`+")


def code_span(text: str) -> str:
    """A code span holding ``text`` verbatim (GFM spec section 6.3).

    The delimiter is the shortest backtick run that does not occur inside ``text``; a space
    pads both ends when ``text`` starts or ends with a backtick or starts and ends with a
    space (the parser strips one space from each end). ``text`` must not be empty.
    """
    if "`" not in text:
        tick = "`"
    else:
        runs = {len(r) for r in _BACKTICK_RUN.findall(text)}
        k = 1
        while k in runs:
            k += 1
        tick = "`" * k
    padded = text[0] == " " and text[-1] == " " and text.strip(" ")
    if text[0] == "`" or text[-1] == "`" or padded:
        return f"{tick} {text} {tick}"
    return f"{tick}{text}{tick}"


def fence_for(code: str, minimum: int) -> str:
    """A backtick fence longer than any backtick run inside ``code`` and at least ``minimum``
    long, so no line of the code can close it (GFM spec section 4.5)."""
    longest = 0
    if "`" in code:
        longest = max(len(r) for r in _BACKTICK_RUN.findall(code))
    return "`" * max(minimum, longest + 1)


# Characters that cannot appear bare in an inline link destination (GFM spec section 6.6:
# no spaces or control characters, parentheses only balanced, "<" would start the other
# form, "\" would escape what follows) or that break the line-based table and block syntax.
_URL_TRANSLATION = {
    ord(" "): "%20",
    ord("("): "%28",
    ord(")"): "%29",
    ord("<"): "%3C",
    ord(">"): "%3E",
    ord("\\"): "%5C",
    ord('"'): "%22",
    ord("`"): "%60",
    **{i: f"%{i:02X}" for i in range(0x20)},
    0x7F: "%7F",
}
_URL_SPECIAL = re.compile(r"[ ()<>\\\"`\x00-\x1f\x7f]")


def format_url(url: str) -> str:
    """Percent-encode the characters of ``url`` that an inline link destination cannot hold
    bare (space, parentheses, ``<``, ``>``, ``\\``, quotes, backticks, controls)."""
    if _URL_SPECIAL.search(url) is None:
        return url
    return url.translate(_URL_TRANSLATION)
