"""Case-insensitive matching of lower-case word lists, fast.

Python's ``re`` runs a large alternation of literals several times slower with
``re.IGNORECASE`` than without it (about 29 µs against 5 µs for the unlikely-candidate
words on a 70-character ``class`` value here): with the flag each literal is compared
character by character with case folding. The class/id word lists and boilerplate phrase
lists of the prune and score stages are all lower case, so they are compiled without the
flag and matched against a lower-cased copy of the text instead (``str.lower``, Unicode
default case mapping; the same matches as ``IGNORECASE`` for these ASCII patterns).
"""

from __future__ import annotations

import re

__all__ = ["FoldedPattern", "folded"]


class FoldedPattern:
    """A compiled lower-case pattern whose ``search``/``match``/``fullmatch`` lower-case
    their argument first. Match positions refer to the lower-cased text."""

    __slots__ = ("regex", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        if any(ch.isupper() for ch in re.sub(r"\\.", "", pattern)):
            raise ValueError(f"folded patterns must be lower case: {pattern!r}")
        self.regex = re.compile(pattern, flags & ~re.IGNORECASE)
        self.pattern = pattern

    def search(self, text: str) -> re.Match | None:
        return self.regex.search(text.lower())

    def match(self, text: str) -> re.Match | None:
        return self.regex.match(text.lower())

    def fullmatch(self, text: str) -> re.Match | None:
        return self.regex.fullmatch(text.lower())

    def __repr__(self) -> str:
        return f"folded({self.pattern!r})"


def folded(pattern: str, flags: int = 0) -> FoldedPattern:
    """Compile lower-case ``pattern`` for case-insensitive matching (see the module
    docstring). Raises ``ValueError`` if the pattern has an upper-case letter outside an
    escape (it could never match the lower-cased text)."""
    return FoldedPattern(pattern, flags)
