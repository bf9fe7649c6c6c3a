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


_LITERAL_RE = re.compile(r"[a-z0-9_ -]+")


def _top_level_alternatives(pattern: str) -> list[str] | None:
    """``pattern`` split at its top-level ``|`` (outside groups, classes and escapes), or
    ``None`` when it has no top-level alternation."""
    parts: list[str] = []
    depth = 0
    in_class = False
    start = 0
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts if len(parts) > 1 else None


def _trie(words: list[str]) -> str:
    """One regex matching exactly ``words`` (literals), factored by common prefixes, so
    that at each position the engine follows one branch per character instead of trying
    every word."""
    root: dict = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        ends = "" in node
        branches = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends:
            return (body if len(branches) > 1 else "(?:" + body + ")") + "?"
        return body

    return emit(root)


def _factored(pattern: str) -> str:
    """``pattern`` with its top-level literal alternatives merged into one prefix trie
    (:func:`_trie`); the other alternatives follow unchanged. Matches the same strings at
    the same start positions, so ``search`` finds a match exactly when the original does."""
    parts = _top_level_alternatives(pattern)
    if parts is None:
        return pattern
    literals = [p for p in parts if p and _LITERAL_RE.fullmatch(p)]
    if len(literals) < 2:
        return pattern
    rest = [p for p in parts if p not in literals]
    return "|".join([_trie(literals), *rest])


class FoldedPattern:
    """A compiled lower-case pattern whose ``search``/``match``/``fullmatch`` lower-case
    their argument first. Use the match for its truth value: the top-level literal
    alternatives are merged into a prefix trie (:func:`_factored`), which matches at the
    same positions but may end a match elsewhere."""

    __slots__ = ("regex", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        if any(ch.isupper() for ch in re.sub(r"\\.", "", pattern)):
            raise ValueError(f"folded patterns must be lower case: {pattern!r}")
        self.regex = re.compile(_factored(pattern), flags & ~re.IGNORECASE)
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
