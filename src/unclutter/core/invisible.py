"""Characters that render as nothing, removed from every text that reaches an output.

One definition for the whole pipeline: the prune stage strips them from the page's text
nodes (and attribute values), the metadata stage from every field, the reconstruct stage
from image alt text. Hidden text must never reach a reader or an LLM, and these are how it
is smuggled inside visible text; control characters can also drive a terminal (escape
sequences that retitle a window, clear the screen or recolour text) when the Markdown is
printed.
"""

from __future__ import annotations

import re
from itertools import chain

__all__ = ["INVISIBLE_CODEPOINTS", "INVISIBLE_RE", "ASCII_CONTROLS_RE", "strip_invisible",
           "char_class"]

#: Code points removed: tag characters U+E0000-E007F (used to smuggle ASCII past readers:
#: "ASCII smuggling"), bidi embedding/override/isolate controls U+202A-202E / U+2066-2069
#: (Unicode TR#9; the "Trojan Source" attack, CVE-2021-42574) and marks U+200E, U+200F,
#: U+061C, zero-width space/joiners U+200B-200D, word joiner U+2060, invisible operators
#: U+2061-2064, BOM/ZWNBSP U+FEFF, Mongolian vowel separator U+180E, soft hyphen U+00AD,
#: and the control characters (Unicode general category Cc): C0 other than the ASCII
#: whitespace TAB, LF, FF, CR (WHATWG Infra, "ASCII whitespace"), DEL, and C1.
INVISIBLE_CODEPOINTS: frozenset[int] = frozenset(
    chain(
        range(0xE0000, 0xE0080),
        range(0x202A, 0x202F),
        range(0x2066, 0x206A),
        range(0x200B, 0x2010),
        range(0x2060, 0x2065),
        (0xFEFF, 0x061C, 0x180E, 0x00AD, 0x7F),
        (c for c in range(0x00, 0x20) if c not in (0x09, 0x0A, 0x0C, 0x0D)),
        range(0x80, 0xA0),
    )
)


def char_class(codepoints: frozenset[int] | set[int]) -> str:
    """A regex matching runs of ``codepoints`` (``[...]+``, written as ranges)."""
    cps = sorted(codepoints)
    out = []
    start = prev = cps[0]
    for cp in cps[1:] + [-1]:
        if cp == prev + 1:
            prev = cp
            continue
        first, last = re.escape(chr(start)), re.escape(chr(prev))
        out.append(first if start == prev else f"{first}-{last}")
        start = prev = cp
    return "[" + "".join(out) + "]+"


# Every one of them is non-printable (general category Cc or Cf), so ``str.isprintable``
# is a quick test for their absence (checked by the tests).

#: Runs of :data:`INVISIBLE_CODEPOINTS`.
INVISIBLE_RE = re.compile(char_class(INVISIBLE_CODEPOINTS))
#: Runs of the ASCII ones (the C0 controls and DEL above): what ASCII text can hold.
ASCII_CONTROLS_RE = re.compile(char_class({c for c in INVISIBLE_CODEPOINTS if c < 0x80}))


def _c1_as_windows_1252() -> dict[int, str | None]:
    table: dict[int, str | None] = dict.fromkeys(INVISIBLE_CODEPOINTS)
    for cp in range(0x80, 0xA0):
        try:
            table[cp] = bytes([cp]).decode("cp1252")
        except UnicodeDecodeError:
            pass  # 0x81, 0x8D, 0x8F, 0x90, 0x9D: unassigned in windows-1252, removed
    return table


#: How :func:`strip_invisible` rewrites what :data:`INVISIBLE_RE` finds: removed, except
#: the C1 controls that windows-1252 assigns a character to, which become that character.
#: C1 controls in web text are almost always windows-1252 punctuation read as Latin-1
#: ("we\x92re" for "we’re"); WHATWG HTML maps numeric character references to them the
#: same way (§13.2.5.80, "numeric character reference end state").
_REWRITE = _c1_as_windows_1252()


def strip_invisible(text: str) -> str:
    """``text`` without :data:`INVISIBLE_CODEPOINTS` (C1 controls that windows-1252
    assigns a character to are replaced by it, see ``_REWRITE``)."""
    if text.isprintable():  # no control or format character at all (the common case)
        return text
    if text.isascii():
        return ASCII_CONTROLS_RE.sub("", text)
    if INVISIBLE_RE.search(text) is None:
        return text
    return INVISIBLE_RE.sub(lambda m: m.group().translate(_REWRITE), text)
