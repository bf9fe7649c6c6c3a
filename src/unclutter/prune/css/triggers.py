"""Which rules and style attributes may hide anything, judged on each alone before the
cascade runs: a regex pass over a stylesheet's text finds the candidates (RE2, linear
time), :func:`_is_trigger` judges each, ``var()`` against the values the page gives its
custom properties; and the text and background colours declared, which the cascade
compares."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

import re2
import tinycss2

from .declarations import _WS, PROPERTIES, _declared_value
from .inherit import _inherit, _Inherited, _resolved, _uses_var, _var_names
from .reasons import _box_reason
from .values import (
    MAX_TINY_BOX_PX,
    MAX_TOKEN_NESTING,
    MIN_FONT_PX,
    MIN_OPACITY,
    OFF_SCREEN_PX,
    ROOT_FONT_PX,
    Declaration,
    _background,
    _clip_hides,
    _colour,
    _font_size_token,
    _length,
)


_LENGTH_TAIL = r"(?:px|em|rem|%|vw|vh|pt|ex|ch|q|mm|cm|in|pc)?"
#: Declarations that may hide on their own, found by one pass of RE2 (linear time whatever
#: the text) over a stylesheet: a superset (each rule found is then parsed and judged by
#: :func:`_is_trigger`).
_MAY_HIDE_RE = re2.compile(
    r"(?i)(?:^|[^\w-])(?:"
    r"(?:" + "|".join(sorted((re.escape(p) for p in PROPERTIES), key=len, reverse=True))
    + r")" + _WS + r":[^;{}!]*var\("
    r"|display" + _WS + ":" + _WS + "none"
    r"|(?:content-)?visibility" + _WS + ":" + _WS + "(?:hidden|collapse)"
    r"|opacity" + _WS + ":|filter" + _WS + ":[^;{}!]*opacity"
    r"|font-size" + _WS + ":" + _WS + r"(?:[0.]|1(?:\.[0-9]*)?(?:px|pt|q|mm)|[0-9](?:\.[0-9]*)?%)"
    r"|font" + _WS + ":" + _WS + r"(?:[\w-]+[ \t\n\r\f]+){0,4}(?:[0.]|1(?:\.[0-9]*)?(?:px|pt|q|mm)|[0-9](?:\.[0-9]*)?%)"
    r"|(?:color|-webkit-text-fill-color)" + _WS + ":" + _WS + r"(?:transparent|#[0-9a-f]{4}(?:[^0-9a-f]|$)"
    r"|#[0-9a-f]{8}(?:[^0-9a-f]|$)|[a-z-]+\()"
    r"|(?:-webkit-)?clip(?:-path)?" + _WS + ":"
    r"|transform" + _WS + r":[^;{}!]*(?:scale|translate|matrix)"
    r"|(?:scale|translate|zoom)" + _WS + ":"
    r"|(?:left|top|margin|margin-left|margin-top|text-indent)" + _WS + ":" + _WS + "-"
    r"|(?:max-)?(?:height|width)" + _WS + ":" + _WS + r"(?:0*\.?0*|0?\.[0-9]+|1(?:\.0*)?)" + _LENGTH_TAIL
    + _WS + r"(?:[;}!]|$)"
    r")")


#: Custom property declarations (CSS Custom Properties 1) and their values.
_CUSTOM_DECLARATION_RE = re.compile(r"(?<![\w-])(--[\w-]+)" + _WS + ":" + _WS + r"([^;{}!]*)")
#: Declarations of a text or background colour, and their values (trailing space included).
_COLOUR_DECLARATION_RE = re.compile(
    r"(?<![\w-])(-webkit-text-fill-color|color|background-color|background)" + _WS + ":" + _WS + r"([^;{}!]*)",
    re.IGNORECASE)
# The same in two steps: the property name is searched for (a pattern that opens with a
# literal, searched for as a string; for colours in the lower-cased text), its look-behind
# checked, then the declaration matched there: two to four times faster over a stylesheet
# than trying the look-behind at every character (measured on wcxb-dev's stylesheets), and
# linear (a rejected name is never followed into its value).
_CUSTOM_NAME_RE = re.compile(r"--")
_CUSTOM_AT_RE = re.compile(r"(--[\w-]+)" + _WS + ":" + _WS + r"([^;{}!]*)")
_COLOUR_NAME_RE = re.compile(r"-webkit-text-fill-color|color|background")
_COLOUR_AT_RE = re.compile(
    r"(-webkit-text-fill-color|color|background-color|background)" + _WS + ":" + _WS + r"([^;{}!]*)")
_NAME_CHAR_RE = re.compile(r"[\w-]")


def custom_declarations(css: str) -> list[tuple[str, str]]:
    """``(name, value)`` of each custom property declaration in ``css``: what
    ``_CUSTOM_DECLARATION_RE.findall(css)`` returns."""
    return _scan_declarations(_CUSTOM_NAME_RE, _CUSTOM_AT_RE, css, css)


def colour_declarations(css: str) -> list[tuple[str, str]]:
    """``(property, value)`` of each text or background colour declaration in ``css``, as
    written: what ``_COLOUR_DECLARATION_RE.findall(css)`` returns."""
    low = css.lower()
    if len(low) != len(css):  # (a few characters lower-case to two: the offsets would move)
        return _COLOUR_DECLARATION_RE.findall(css)
    return _scan_declarations(_COLOUR_NAME_RE, _COLOUR_AT_RE, low, css)


def _scan_declarations(name: re.Pattern, declaration: re.Pattern, text: str, css: str) -> list[tuple[str, str]]:
    """The two groups of each ``declaration`` match in ``text`` that starts where ``name``
    matches, not after a name character, read from ``css`` (``text`` or a same-length copy
    of it); the search goes on after each declaration, or one character after each
    rejected start, as ``findall`` with the look-behind does."""
    out: list[tuple[str, str]] = []
    find = name.search
    at = declaration.match
    name_char = _NAME_CHAR_RE.match
    pos = 0
    while (m := find(text, pos)) is not None:
        start = m.start()
        d = None if start and name_char(text, start - 1) else at(text, start)
        if d is None:
            pos = start + 1
            continue
        out.append((css[start:d.end(1)], css[d.start(2):d.end(2)]))
        pos = d.end()
    return out


@lru_cache(maxsize=4096)
def _value_tokens(text: str) -> tuple:
    """A custom property's value text as tinycss2 component values (whitespace dropped)."""
    return tuple(t for t in tinycss2.parse_component_value_list(text, skip_comments=True)
                 if t.type not in ("whitespace", "comment")) if not _too_deep_text(text) else ()


def _too_deep_text(text: str) -> bool:
    return text.count("(") > MAX_TOKEN_NESTING * 4


_VAR_VERDICTS: dict[tuple, bool] = {}


#: Words and marks in a custom property's value that may make a property hide.
_HIDING_HINTS = ("none", "hidden", "collapse", "transparent", "scale", "translate", "matrix", "inset", "circle",
                 "ellipse", "polygon", "rect(", "opacity", "-", "/", "rgba", "hsla", "var(", "calc", "min(", "max(",
                 "clamp", "initial", "unset", "revert", "inherit")
_SMALL_NUMBER_RE = re.compile(r"(?<![\w.])(?:0*\.\d+|[01](?:\.\d*)?)(?![\d.])")
_HEX_ALPHA_RE = re.compile(r"#(?:[0-9a-f]{4}|[0-9a-f]{8})\b")


@lru_cache(maxsize=16384)
def _value_may_hide_text(text: str) -> bool:
    """Whether a custom property's value (or a fallback) could make some property hide,
    by quick tests on its text (a superset: a number under 2, a hiding keyword or
    function, a sign, an alpha)."""
    t = text.lower()
    return (any(h in t for h in _HIDING_HINTS) or _SMALL_NUMBER_RE.search(t) is not None
            or _HEX_ALPHA_RE.search(t) is not None)


def _var_rule_hides(decls: dict[str, Declaration], custom: dict[str, tuple[tuple, ...]],
                    custom_text: dict[str, tuple[str, ...]]) -> bool:
    """:func:`_is_trigger` for a rule using ``var()``, against the page's custom property
    values (``custom``; ``custom_text``: the same as text): no when neither those values
    nor the fallbacks could hide anything (:func:`_value_may_hide_text`) and the rest of
    the rule does not; else memoized by the declarations' text and the values used."""
    names: list[str] = []
    for d in decls.values():
        if _uses_var(d):
            _var_names(d.value, names)
    texts = tuple((n, custom_text.get(n, ())) for n in names)
    var_texts = [d.text for d in decls.values() if _uses_var(d)]
    if not any(_value_may_hide_text(v) for _, values in texts for v in values) and not any(
            _value_may_hide_text(_fallbacks(t)) for t in var_texts):
        rest = {k: v for k, v in decls.items() if not _uses_var(v)}
        return bool(rest) and _is_trigger(rest, set(), set())
    key = (tuple(sorted((n, d.text) for n, d in decls.items() if not n.startswith("--"))), texts)
    got = _VAR_VERDICTS.get(key)
    if got is None:
        got = _is_trigger(decls, set(), set(), custom)
        if len(_VAR_VERDICTS) > 8192:
            _VAR_VERDICTS.clear()
        _VAR_VERDICTS[key] = got
    return got


def _fallbacks(text: str) -> str:
    """What follows the first comma of each ``var(`` in a value's text (its fallbacks and
    beyond; a superset, for :func:`_value_may_hide_text`), or the text itself when the value
    is more than ``var()`` references."""
    out = []
    rest = text
    while True:
        i = rest.find("var(")
        if i < 0:
            break
        out.append(rest[:i])
        rest = rest[i + 4:]
        j = rest.find(",")
        k = rest.find(")")
        if 0 <= j and (k < 0 or j < k):
            rest = rest[j + 1:]
        elif k >= 0:
            rest = rest[k + 1:]
    out.append(rest)
    return " ".join(out)


#: Most combinations of custom property values tried when judging a rule that uses ``var()``.
MAX_VAR_VARIANTS = 12


def _var_variants(decls: dict[str, Declaration], custom: dict[str, tuple[tuple, ...]]) -> list[dict]:
    """The declarations with their ``var()`` references replaced by each combination of
    the values the page declares for those custom properties anywhere (undeclared ones by
    their fallback), at most :data:`MAX_VAR_VARIANTS`: a superset of what the cascade can
    give any element."""
    names: list[str] = []
    for d in decls.values():
        if _uses_var(d):
            _var_names(d.value, names)
    # (None: the property is not in scope for some element, and the fallback applies)
    choices = [[(n, v) for v in custom.get(n, ())] + [None] for n in names[:6]]
    out = []
    for combo in itertools.islice(itertools.product(*choices), MAX_VAR_VARIANTS):
        scope = {nv[0]: nv[1] for nv in combo if nv is not None}
        out.append(_resolved(decls, scope))
    return out


def _is_trigger(decls: dict[str, Declaration], colours: set, backgrounds: set,
                custom: dict[str, tuple[tuple, ...]] | None = None) -> bool:
    """Whether a rule's (or style attribute's) declarations could hide something, judged
    on the rule alone: a hiding value, a text colour equal to a background colour declared
    somewhere (or the reverse), or a ``var()`` in a property this package reads (any, when
    ``custom`` is ``None``; else one that some value the page gives those custom properties
    makes hide, see :func:`_var_variants`)."""
    if any(_uses_var(d) for d in decls.values()):
        if custom is None:
            return True
        return any(_is_trigger(v, colours, backgrounds) for v in _var_variants(decls, custom))
    probe = _resolved(decls, {})
    if _box_reason("div", probe, ROOT_FONT_PX) or _box_reason("span", probe, ROOT_FONT_PX):
        return True
    for name in ("left", "top"):
        d = probe.get(name)
        if d is not None and d.value and (v := _length(d.value[0])) is not None and v <= -OFF_SCREEN_PX:
            return True  # (the position may come from another rule)
    for name in ("height", "width", "max-height", "max-width"):
        d = probe.get(name)
        if d is not None and len(d.value) == 1 and (v := _length(d.value[0])) is not None and v <= MAX_TINY_BOX_PX:
            return True  # (overflow may be set elsewhere)
    if "clip" in probe and _clip_hides(probe["clip"].value):
        return True
    state = _inherit(_Inherited(), probe, {})
    if state.hidden or state.indent <= -OFF_SCREEN_PX:
        return True
    if ("font-size" in probe or "font" in probe) and state.font_px < MIN_FONT_PX * 2:
        return True  # (relative sizes: judged on the element)
    for name in ("font-size", "font"):
        d = probe.get(name)
        tok = d.value[0] if name == "font-size" and d is not None and d.value else (
            _font_size_token(d) if d is not None else None)
        if tok is not None and tok.type in ("percentage", "dimension") and (
                tok.type == "percentage" or tok.lower_unit in ("em", "ex", "ch")) and tok.value * (
                0.01 if tok.type == "percentage" else 1) < MIN_FONT_PX / 4:
            return True
    for name in ("color", "-webkit-text-fill-color"):
        if name in probe:
            c = _colour(probe[name].value)
            if c is not None and (c[3] < MIN_OPACITY or c[:3] in backgrounds):
                return True
    bg = _background(probe)
    if isinstance(bg, tuple) and bg[:3] in colours:
        return True
    return False


_COLOUR_PROPERTIES = frozenset({"color", "-webkit-text-fill-color"})


@lru_cache(maxsize=16384)
def _value_colour(prop: str, value: str) -> tuple | None:
    decls = _declared_value(prop, value)
    if prop in _COLOUR_PROPERTIES:
        d = decls.get(prop)
        return _colour(d.value) if d is not None else None
    bg = _background(decls)
    return bg if isinstance(bg, tuple) else None


def _text_colour(decls: dict[str, Declaration]) -> tuple | None:
    """The opaque text colour (sRGB) declarations set, if any (``var()`` unresolved: none)."""
    for name in ("-webkit-text-fill-color", "color"):
        d = decls.get(name)
        if d is not None and (c := _colour(d.value)) is not None:
            return c[:3]
    return None


def _paint(decls: dict[str, Declaration]) -> tuple | None:
    """The opaque background colour (sRGB) declarations paint, if any."""
    bg = _background(decls)
    return bg[:3] if isinstance(bg, tuple) and bg[3] >= 1.0 else None
