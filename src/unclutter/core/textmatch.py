"""Case-insensitive matching of lower-case word lists, fast.

Python's ``re`` runs a large alternation of literals several times slower with
``re.IGNORECASE`` than without it (about 29 µs against 5 µs for the unlikely-candidate
words on a 70-character ``class`` value here): with the flag each literal is compared
character by character with case folding. The class/id word lists and boilerplate phrase
lists of the prune and score stages are all lower case, so they are compiled without the
flag and matched against a lower-cased copy of the text instead (``str.lower``, Unicode
default case mapping; the same matches as ``IGNORECASE`` for these ASCII patterns).

Most class values and text lines match none of the word lists, and ``re`` spends a few
microseconds proving it (it tries every alternative at every position). A pattern whose
alternatives each require one of a few literals (:func:`required_literals`) is first
checked with ``in`` tests, done in C: when no such literal occurs, there is no match.
"""

from __future__ import annotations

import re

__all__ = ["FoldedPattern", "folded"]


_LITERAL_RE = re.compile(r"[a-z0-9_ -]+")


def _outside_classes(pattern: str, i: int = 0):
    """``(index, character, group depth)`` of each character of ``pattern`` from ``i`` on
    that is neither escaped nor inside a character class (a ``]`` right after ``[`` or
    ``[^`` is literal), the depth being that of the groups open around it (a ``(`` is at
    the depth outside it, a ``)`` at the depth after it closes)."""
    depth = 0
    in_class = False
    n = len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "^":
                i += 1
            if pattern[i + 1:i + 2] == "]":
                i += 1
        else:
            if ch == ")":
                depth -= 1
            yield i, ch, depth
            if ch == "(":
                depth += 1
        i += 1


def _top_level_alternatives(pattern: str) -> list[str] | None:
    """``pattern`` split at its top-level ``|`` (outside groups, classes and escapes), or
    ``None`` when it has no top-level alternation."""
    parts: list[str] = []
    start = 0
    for i, ch, depth in _outside_classes(pattern):
        if ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
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


#: A prefilter of more required literals than this is not worth it: one ``in`` test per
#: literal would cost about what the regex search does (measured on class/id values).
MAX_PREFILTER_LITERALS = 16

_ZERO_WIDTH_OR_CLASS_ESCAPES = frozenset("bBdDsSwWAZzGnrtfv0123456789")


def _skip_group(pattern: str, i: int) -> int:
    """Index just past the group that opens at ``pattern[i] == "("``."""
    for j, ch, depth in _outside_classes(pattern, i):
        if ch == ")" and depth == 0:
            return j + 1
    raise ValueError("unbalanced group")


def _skip_quantifier(pattern: str, i: int) -> tuple[int, bool]:
    """``(index past the quantifier at i, whether it allows zero repetitions)``; a
    quantifier-free position gives ``(i, False)``. Lazy/possessive suffixes are skipped."""
    if i >= len(pattern):
        return i, False
    ch = pattern[i]
    if ch in "?*+":
        optional = ch != "+"
        i += 1
    elif ch == "{" and (m := re.match(r"\{(\d*)(?:,(\d*))?\}", pattern[i:])):
        optional = m.group(1) in ("", "0")
        i += m.end()
    else:
        return i, False
    if i < len(pattern) and pattern[i] in "?+":
        i += 1
    return i, optional


def _required_literals(alternative: str) -> frozenset[str] | None:
    """Literals at least one of which every match of ``alternative`` (a regex without a
    top-level ``|``) contains, or ``None`` when that cannot be told. Candidates: each run
    of literal characters that no quantifier makes optional, and each mandatory group
    whose alternatives all have required literals (their union); the candidate whose
    shortest literal is longest wins."""
    candidates: list[frozenset[str]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            candidates.append(frozenset({"".join(run)}))
            run.clear()

    i = 0
    n = len(alternative)
    while i < n:
        ch = alternative[i]
        if ch == "(":
            end = _skip_group(alternative, i)
            body = alternative[i + 1:end - 1]
            i, optional = _skip_quantifier(alternative, end)
            flush()
            if body.startswith("?"):
                if body.startswith("?:"):
                    body = body[2:]
                elif body.startswith("?P<"):
                    body = body[body.index(">") + 1:]
                elif body[1:2] in ("=", "!", "<"):
                    continue  # lookaround: zero width, no literal required
                else:
                    return None  # inline flags and other extensions: not analysed
            if optional:
                continue
            inner = required_literals(body)
            if inner is not None:
                candidates.append(inner)
            continue
        if ch == "[":
            j = i + 1
            if alternative[j:j + 1] == "^":
                j += 1
            if alternative[j:j + 1] == "]":
                j += 1
            while j < n and alternative[j] != "]":
                j += 2 if alternative[j] == "\\" else 1
            i, _ = _skip_quantifier(alternative, j + 1)
            flush()
            continue
        if ch == "\\":
            nxt = alternative[i + 1:i + 2]
            if not nxt or nxt.isalnum() or nxt in _ZERO_WIDTH_OR_CLASS_ESCAPES:
                i, _ = _skip_quantifier(alternative, i + 2)
                flush()
                continue
            literal, i = nxt, i + 2
        elif ch in ".^$":
            i, _ = _skip_quantifier(alternative, i + 1)
            flush()
            continue
        elif ch in ")|?*+{}]":
            return None  # not a well-formed alternative: no prefilter
        else:
            literal, i = ch, i + 1
        after, quantified = _skip_quantifier(alternative, i)
        if after != i:  # a quantified character: the run ends before it
            flush()
            i = after
            continue
        run.append(literal)
    flush()
    if not candidates:
        return None
    return max(candidates, key=lambda lits: min(map(len, lits)))


def required_literals(pattern: str) -> frozenset[str] | None:
    """Literals at least one of which occurs in every string ``pattern`` matches (a
    necessary condition, used as a prefilter), or ``None`` when some alternative has none
    that can be told. Literals that contain another one of the set are dropped (the
    shorter one occurring is then implied)."""
    parts = _top_level_alternatives(pattern) or [pattern]
    out: set[str] = set()
    for part in parts:
        try:
            lits = _required_literals(part)
        except (ValueError, IndexError):
            return None
        if not lits:
            return None
        out |= lits
    return frozenset(lit for lit in out if not any(o != lit and o in lit for o in out))


class FoldedPattern:
    """A compiled lower-case pattern whose ``search``/``match``/``fullmatch`` lower-case
    their argument first. Use the match for its truth value: the top-level literal
    alternatives are merged into a prefix trie (:func:`_factored`), which matches at the
    same positions but may end a match elsewhere."""

    __slots__ = ("regex", "pattern", "literals")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        if any(ch.isupper() for ch in re.sub(r"\\.", "", pattern)):
            raise ValueError(f"folded patterns must be lower case: {pattern!r}")
        self.regex = re.compile(_factored(pattern), flags & ~re.IGNORECASE)
        self.pattern = pattern
        # A prefilter: when none of these literals occurs in the lower-cased text, no match
        # can (most class values and lines match none of the word lists).
        lits = None if flags & re.VERBOSE else required_literals(pattern)
        self.literals: tuple[str, ...] | None = (
            tuple(sorted(lits)) if lits and len(lits) <= MAX_PREFILTER_LITERALS else None)

    def search(self, text: str) -> re.Match | None:
        low = text.lower()
        if self.literals is not None and not any(map(low.__contains__, self.literals)):
            return None
        return self.regex.search(low)

    def match(self, text: str) -> re.Match | None:
        low = text.lower()
        if self.literals is not None and not any(map(low.__contains__, self.literals)):
            return None
        return self.regex.match(low)

    def fullmatch(self, text: str) -> re.Match | None:
        low = text.lower()
        if self.literals is not None and not any(map(low.__contains__, self.literals)):
            return None
        return self.regex.fullmatch(low)

    def __repr__(self) -> str:
        return f"folded({self.pattern!r})"


def folded(pattern: str, flags: int = 0) -> FoldedPattern:
    """Compile lower-case ``pattern`` for case-insensitive matching (see the module
    docstring). Raises ``ValueError`` if the pattern has an upper-case letter outside an
    escape (it could never match the lower-cased text)."""
    return FoldedPattern(pattern, flags)
