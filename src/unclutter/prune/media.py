"""Media queries of a page's stylesheets, evaluated for the reference desktop viewport.

A rule inside ``@media`` hides an element only where its query matches. Responsive pages
render one variant per breakpoint and hide the others with such rules (Framer sites ship
each section three times, ``hidden-<breakpoint>`` classes; atomic-CSS sites such as
Medium hide the mobile layout on desktop and the desktop layout on phones). Counting
every ``@media`` rule as hiding removes every variant, main content included; the prune
stage therefore counts the rules whose query matches :data:`~.rules.REFERENCE_MEDIA`, a
desktop browser window, which is what a reader of the page sees and what the ground truth
of the extraction benchmarks was taken from.

Grammar: Media Queries Level 4 (W3C Candidate Recommendation, https://www.w3.org/TR/mediaqueries-4/):
a comma-separated list of queries (one match suffices); a query is ``[not|only] <type>
[and <condition>]`` or a condition; conditions combine ``(feature)`` tests with ``and``,
``or`` and ``not``; a feature is ``(name)`` (boolean context), ``(name: value)`` with the
legacy ``min-``/``max-`` prefixes, or a range ``(name < value)``, ``(value <= name < value)``.
Lengths: ``px``, ``em``/``rem`` (16 px, the initial font size: CSS Values 4), ``pt``, ``pc``,
``in``, ``cm``, ``mm``, ``q``, ``vw``/``vh``; resolutions ``dppx``/``x``, ``dpi``, ``dpcm``;
ratios ``w/h``. A query this module cannot read (an unknown feature, unit or syntax)
evaluates to ``None``: the caller keeps its hiding rules (the safe side for hidden-text
defence).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .rules import REFERENCE_MEDIA

__all__ = ["media_query_matches"]

#: CSS whitespace (CSS Syntax 3: space, tab, line feed, carriage return, form feed; not
#: U+00A0) and ASCII digits only, as browsers read queries.
#: (No leading-space part: findall skips the spaces between tokens anyway, and a space
#: run with no token after it would be rescanned from each of its spaces.)
_TOKEN_RE = re.compile(r"(>=|<=|[<>=(),:/]|[^ \t\n\r\f<>=(),:/]+)")
#: (``[0-9]+(?:\.[0-9]*)?``, not ``[0-9]+\.?[0-9]*``: one way to split a digit run, so a
#: long number followed by a stray character fails in linear time.)
_NUMBER_RE = re.compile(r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?)([a-z%]*)$")
_CSS_SPACE_RE = re.compile(r"[ \t\n\r\f]+")

#: CSS absolute length units in px (CSS Values 4, section 6.2) and the font-relative ones
#: at the initial font size of 16 px.
_LENGTH_PX = {"px": 1.0, "em": 16.0, "rem": 16.0, "pt": 96 / 72, "pc": 16.0, "in": 96.0,
              "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6, "ex": 8.0, "ch": 8.0}
#: Resolution units in dppx (CSS Values 4, section 7.4).
_RESOLUTION_DPPX = {"dppx": 1.0, "x": 1.0, "dpi": 1 / 96, "dpcm": 2.54 / 96}
_RANGE_FEATURES = frozenset({"width", "height", "device-width", "device-height", "aspect-ratio",
                             "device-aspect-ratio", "resolution", "color", "color-index",
                             "monochrome", "-webkit-device-pixel-ratio", "device-pixel-ratio"})


class _Unreadable(Exception):
    """The query uses syntax or a feature this module does not evaluate."""


def _feature_value(name: str):
    if name in ("width", "device-width"):
        return float(REFERENCE_MEDIA["width"])
    if name in ("height", "device-height"):
        return float(REFERENCE_MEDIA["height"])
    if name in ("aspect-ratio", "device-aspect-ratio"):
        return REFERENCE_MEDIA["width"] / REFERENCE_MEDIA["height"]
    if name in ("resolution", "-webkit-device-pixel-ratio", "device-pixel-ratio"):
        return float(REFERENCE_MEDIA["resolution"])
    if name in REFERENCE_MEDIA:
        return REFERENCE_MEDIA[name]
    raise _Unreadable(name)


def _number(tokens: list[str], name: str) -> float:
    """A value for a range feature: a length, resolution, ratio or plain number."""
    if not tokens:
        raise _Unreadable("missing value")
    m = _NUMBER_RE.match(tokens[0])
    if m is None:
        raise _Unreadable(tokens[0])
    value, unit = float(m.group(1)), m.group(2)
    if len(tokens) == 3 and tokens[1] == "/":  # a ratio: 16/9
        m2 = _NUMBER_RE.match(tokens[2])
        if m2 is None or m2.group(2) or unit or float(m2.group(1)) == 0:
            raise _Unreadable("ratio")
        return value / float(m2.group(1))
    if len(tokens) != 1:
        raise _Unreadable(" ".join(tokens))
    if name in ("resolution", "-webkit-device-pixel-ratio", "device-pixel-ratio"):
        if not unit and name != "resolution":
            return value
        if unit in _RESOLUTION_DPPX:
            return value * _RESOLUTION_DPPX[unit]
        raise _Unreadable(unit)
    if not unit:
        return value
    if unit in _LENGTH_PX:
        return value * _LENGTH_PX[unit]
    if unit == "vw":
        return value * REFERENCE_MEDIA["width"] / 100
    if unit == "vh":
        return value * REFERENCE_MEDIA["height"] / 100
    raise _Unreadable(unit)


def _compare(a: float, op: str, b: float) -> bool:
    eps = 1e-9
    if op == "<":
        return a < b - eps
    if op == "<=":
        return a <= b + eps
    if op == ">":
        return a > b + eps
    if op == ">=":
        return a >= b - eps
    return abs(a - b) <= eps


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}


def _feature(tokens: list[str]) -> bool:
    """One parenthesised feature test (the tokens between the parentheses)."""
    ops = [i for i, t in enumerate(tokens) if t in _FLIP]
    if ops:  # range syntax
        if len(ops) == 1:
            i = ops[0]
            left, op, right = tokens[:i], tokens[i], tokens[i + 1:]
            if len(left) == 1 and left[0] in _RANGE_FEATURES:
                name = left[0]
                return _compare(_feature_value(name), op, _number(right, name))
            if len(right) == 1 and right[0] in _RANGE_FEATURES:
                name = right[0]
                return _compare(_feature_value(name), _FLIP[op], _number(left, name))
            raise _Unreadable("range")
        if len(ops) == 2:
            i, j = ops
            name = tokens[i + 1] if j == i + 2 else ""
            if name not in _RANGE_FEATURES:
                raise _Unreadable("range")
            v = _feature_value(name)
            lo, hi = _number(tokens[:i], name), _number(tokens[j + 1:], name)
            return _compare(lo, tokens[i], v) and _compare(v, tokens[j], hi)
        raise _Unreadable("range")
    if len(tokens) == 1:  # boolean context: true unless the value is 0 / none
        value = _feature_value(tokens[0])
        return value not in (0, 0.0, "none", "no-preference")
    if len(tokens) >= 3 and tokens[1] == ":":
        name, rest = tokens[0], tokens[2:]
        prefix = ""
        for p in ("min-", "max-", "-webkit-min-", "-webkit-max-"):
            if name.startswith(p):
                prefix, name = p, (("-webkit-" if p.startswith("-webkit") else "") + name[len(p):])
                break
        if prefix:
            if name not in _RANGE_FEATURES:
                raise _Unreadable(name)
            op = ">=" if "min-" in prefix else "<="
            return _compare(_feature_value(name), op, _number(rest, name))
        if name in _RANGE_FEATURES:
            return _compare(_feature_value(name), "=", _number(rest, name))
        if len(rest) != 1:
            raise _Unreadable(" ".join(rest))
        return _feature_value(name) == rest[0]
    raise _Unreadable(" ".join(tokens))


#: Parentheses nested deeper than this make a query unreadable (no real query comes
#: close; a hostile one must not exhaust the recursion limit).
_MAX_NESTING = 16


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.t = tokens
        self.i = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise _Unreadable("unexpected end")
        self.i += 1
        return tok

    def condition(self, allow_or: bool = True) -> bool:
        """``<in-parens> [(and|or) <in-parens>]*`` or ``not <in-parens>`` (after a media
        type only ``and``: ``allow_or=False``)."""
        if self.peek() == "not":
            self.take()
            return not self.in_parens()
        result = self.in_parens()
        joiner = None
        while self.peek() in ("and", "or"):
            op = self.take()
            if op == "or" and not allow_or:
                raise _Unreadable("or after a media type")
            if joiner is not None and op != joiner:
                raise _Unreadable("mixed and/or")
            joiner = op
            rhs = self.in_parens()
            result = (result and rhs) if op == "and" else (result or rhs)
        return result

    def in_parens(self) -> bool:
        if self.take() != "(":
            raise _Unreadable("expected (")
        if self.peek() in ("(", "not"):
            self.depth += 1
            if self.depth > _MAX_NESTING:
                raise _Unreadable("nesting")
            value = self.condition()
            self.depth -= 1
            if self.take() != ")":
                raise _Unreadable("expected )")
            return value
        depth, inner = 1, []
        while True:
            tok = self.take()
            if tok == "(":
                raise _Unreadable("nested (")
            if tok == ")":
                depth -= 1
                if depth == 0:
                    break
            inner.append(tok)
        return _feature(inner)


def _query(tokens: list[str]) -> bool:
    if not tokens:
        raise _Unreadable("empty query")
    p = _Parser(tokens)
    if tokens[0] != "(" and not (tokens[0] == "not" and len(tokens) > 1 and tokens[1] == "("):
        negate = False
        if tokens[0] in ("not", "only"):
            negate = tokens[0] == "not"
            p.take()
        media_type = p.take()
        if not re.fullmatch(r"[a-z-]+", media_type):
            raise _Unreadable(media_type)
        result = media_type in ("all", REFERENCE_MEDIA["type"])
        if p.peek() == "and":
            p.take()
            result = p.condition(allow_or=False) and result
    else:
        negate = False
        result = p.condition()
    if p.peek() is not None:
        raise _Unreadable("trailing " + str(p.peek()))
    return (not result) if negate else result


@lru_cache(maxsize=4096)
def media_query_matches(prelude: str) -> bool | None:
    """Whether the media query list ``prelude`` (the text after ``@media``, any case)
    matches :data:`~.rules.REFERENCE_MEDIA`; ``None`` when it cannot be read (see the
    module docstring). An empty list matches (Media Queries 4, section 2.1)."""
    text = prelude.strip(" \t\n\r\f").lower()
    if not text:
        return True
    tokens = [t for t in _TOKEN_RE.findall(text)]
    if "".join(tokens) != _CSS_SPACE_RE.sub("", text):
        return None
    queries: list[list[str]] = [[]]
    depth = 0
    for tok in tokens:
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
        if tok == "," and depth == 0:
            queries.append([])
        else:
            queries[-1].append(tok)
    unknown = False
    for q in queries:
        try:
            if _query(q):
                return True
        except _Unreadable:
            unknown = True
    return None if unknown else False
