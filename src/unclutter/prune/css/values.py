"""CSS values as this package reads them: the thresholds under which a reader sees
nothing, one declaration (:class:`Declaration`), and the readers of its value's tokens
(tinycss2 component values): keywords, numbers, lengths (CSS Values 4, at the reference
window), font sizes (CSS Fonts 4, with Chromium's minimum logical font size), colours
(CSS Color 4 via ``tinycss2.color4``), backgrounds, transforms, ``clip``/``clip-path`` and
``filter: opacity()``. The bottom of the package: it imports nothing else from it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import tinycss2
import tinycss2.color4


#: Opacity (``opacity``, ``filter: opacity()``, a colour's alpha) under which no reader makes
#: out text (5% grey on white is a contrast ratio of 1.1:1; WCAG 2.2 asks 4.5:1).
MIN_OPACITY = 0.1
#: Computed font size in CSS px under which text is unreadable (1 px glyphs).
MIN_FONT_PX = 2.0
#: Chromium's default "minimum logical font size" (Blink ``FontSizeFunctions``): the floor
#: of a font size given relative to the parent's, unless it is zero.
MIN_LOGICAL_FONT_PX = 6.0
#: Scale factor (``transform: scale()``, ``scale``) under which a box shows nothing.
MIN_SCALE = 0.05
#: A box moved this many CSS px (or more) past the page's left or top edge is off-screen:
#: the "-9999px" of image replacement and screen-reader text; 900 px keeps full-bleed
#: tricks (``margin-left: -50vw`` = -640 px at 1280 px) visible.
OFF_SCREEN_PX = 900.0
#: A block box this small (CSS px) with its overflow hidden shows nothing readable: the
#: "visually hidden" pattern of Bootstrap's ``.visually-hidden``, WordPress'
#: ``.screen-reader-text`` (1 x 1 px, overflow hidden).
MAX_TINY_BOX_PX = 1.0


#: Initial font size (CSS Fonts 4: ``medium``, 16 px in every desktop browser).
ROOT_FONT_PX = 16.0
#: The reference window (``rules.REFERENCE_MEDIA``), for ``vw``/``vh`` units.
VIEWPORT = (1280.0, 720.0)


_FONT_KEYWORDS_PX = {"xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0,
                     "x-large": 24.0, "xx-large": 32.0, "xxx-large": 48.0}
#: Absolute length units in CSS px (CSS Values 4 §6.2).
_ABSOLUTE_UNITS = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4,
                   "q": 96 / 101.6}


#: Deepest nesting of blocks and functions read in a selector or value: deeper ones are
#: unreadable (tinycss2's serializer and cssselect2's parser recurse once per level).
MAX_TOKEN_NESTING = 32


def _too_deep(tokens, limit: int = MAX_TOKEN_NESTING) -> bool:
    """Whether blocks and functions in ``tokens`` nest deeper than ``limit`` (iterative)."""
    stack = [(iter(tokens), 0)]
    while stack:
        it, depth = stack[-1]
        for tok in it:
            inner = getattr(tok, "content", None) if tok.type in ("() block", "[] block", "{} block") else (
                tok.arguments if tok.type == "function" else None)
            if inner:
                if depth + 1 > limit:
                    return True
                stack.append((iter(inner), depth + 1))
                break
        else:
            stack.pop()
    return False


def _serialize(tokens) -> str | None:
    """tinycss2's serialization of ``tokens``, or ``None`` when they nest too deep."""
    return None if _too_deep(tokens) else tinycss2.serialize(tokens).strip()


@dataclass(frozen=True)
class Declaration:
    """One declaration: lower-cased property ``name``, ``value`` as tinycss2 component
    values (whitespace and comments dropped), ``important`` (``!important``)."""

    name: str
    value: tuple
    important: bool

    @cached_property
    def text(self) -> str:
        """The value as text (empty when it nests too deep to read)."""
        return _serialize(self.value) or ""


def _ident(decl: Declaration | None) -> str | None:
    if decl is None or len(decl.value) != 1 or decl.value[0].type != "ident":
        return None
    return decl.value[0].lower_value


def _display_none(decl: Declaration | None) -> bool:
    return _ident(decl) == "none"


def _visibility_hidden(decl: Declaration | None) -> bool:
    return _ident(decl) in ("hidden", "collapse")


def _number(tok) -> float | None:
    if tok.type == "number":
        return float(tok.value)
    if tok.type == "percentage":
        return float(tok.value) / 100
    return None


def _length(tok, font_px: float = ROOT_FONT_PX) -> float | None:
    """CSS px of a length token (``0`` alone counts), relative units at ``font_px``."""
    if tok.type == "number":
        return 0.0 if tok.value == 0 else None
    if tok.type != "dimension":
        return None
    unit = tok.lower_unit
    if unit in _ABSOLUTE_UNITS:
        return tok.value * _ABSOLUTE_UNITS[unit]
    if unit == "em":
        return tok.value * font_px
    if unit == "rem":
        return tok.value * ROOT_FONT_PX
    if unit in ("ex", "ch"):
        return tok.value * font_px / 2
    if unit in ("vw", "vh", "vmin", "vmax"):
        w, h = VIEWPORT
        base = {"vw": w, "vh": h, "vmin": min(w, h), "vmax": max(w, h)}[unit]
        return tok.value * base / 100
    return None


def _colour(tokens) -> tuple[float, float, float, float] | None:
    """sRGB and alpha of a colour value (one token), or ``None`` (unknown, ``currentcolor``)."""
    if len(tokens) != 1:
        return None
    try:
        parsed = tinycss2.color4.parse_color(tokens[0])
    except Exception:  # noqa: BLE001 - an odd colour function
        return None
    if parsed is None or isinstance(parsed, str):
        return None
    try:
        r, g, b = parsed.to("srgb").coordinates
    except Exception:  # noqa: BLE001
        return None
    return (round(r, 3), round(g, 3), round(b, 3), float(parsed.alpha))


_BACKGROUND_NON_COLOUR = frozenset("""none repeat repeat-x repeat-y no-repeat space round scroll fixed
    local top bottom left right center border-box padding-box content-box text auto cover contain""".split())


_IMAGE_FUNCTIONS = ("url", "image-set", "-webkit-image-set", "image", "element", "cross-fade", "paint")


def _background(decls: dict[str, Declaration]) -> tuple | str | None:
    """What the element paints behind its text: an sRGB+alpha colour, ``"image"`` (an image
    or gradient: any colour may show), or ``None`` (nothing declared)."""
    out = None
    for name in ("background", "background-color", "background-image"):
        d = decls.get(name)
        if d is None:
            continue
        if name == "background-image":
            if _ident(d) != "none":
                return "image"
            continue
        for tok in d.value:
            if tok.type == "url":
                return "image"
            if tok.type == "function" and ("gradient" in tok.lower_name or tok.lower_name in _IMAGE_FUNCTIONS):
                return "image"
            if tok.type == "ident" and tok.lower_value in _BACKGROUND_NON_COLOUR:
                continue
            if tok.type in ("ident", "hash", "function"):
                c = _colour([tok])
                if c is not None:
                    out = c
    return out


def _font_size_token(decl: Declaration):
    """The size token of a ``font`` shorthand (CSS Fonts 4 §2.8: the value before an
    optional ``/ line-height`` and the family list)."""
    for i, tok in enumerate(decl.value):
        if tok.type in ("dimension", "percentage") or (tok.type == "number" and tok.value == 0):
            return tok
        if tok.type == "ident" and tok.lower_value in _FONT_KEYWORDS_PX:
            return tok
        if tok.type == "literal" and tok.value == ",":
            break
    return None


def _font_px(tok, parent_px: float, parent_absolute: bool = False,
             root_px: float = ROOT_FONT_PX) -> tuple[float, bool] | None:
    """Computed font size in px of a ``font-size`` token, and whether it counts as
    absolute, from the parent's size and flag; ``None`` when the token says nothing.
    Chromium's "minimum logical font size" (its default setting, Blink
    ``FontSizeFunctions``) is applied: a size derived from a keyword or from relative units
    (``em``, ``ex``, ``ch``, ``%``, ``smaller``, ``larger``) with no absolute size
    (``px``, ``pt``, ``rem``...) up the chain, above 0 and under
    :data:`MIN_LOGICAL_FONT_PX`, is raised to it."""
    if tok is None:
        return None
    if tok.type == "ident":
        v = tok.lower_value
        if v in _FONT_KEYWORDS_PX:
            return _FONT_KEYWORDS_PX[v], False
        if v == "smaller":
            px, absolute = parent_px / 1.2, parent_absolute
        elif v == "larger":
            px, absolute = parent_px * 1.2, parent_absolute
        else:
            return None
    elif tok.type == "percentage":
        px, absolute = parent_px * tok.value / 100, parent_absolute
    elif tok.type == "dimension" and tok.lower_unit in ("em", "ex", "ch"):
        px, absolute = _length(tok, parent_px), parent_absolute
    elif tok.type == "dimension" and tok.lower_unit == "rem":
        px, absolute = tok.value * root_px, True
    else:
        px, absolute = _length(tok, parent_px), True
        if px is None:
            return None
    if not absolute and 0 < px < MIN_LOGICAL_FONT_PX:
        px = MIN_LOGICAL_FONT_PX
    return px, absolute


def _function_args(tok) -> list[list]:
    groups: list[list] = [[]]
    for t in tok.arguments:
        if t.type in ("whitespace", "comment"):
            continue
        if t.type == "literal" and t.value == ",":
            groups.append([])
        else:
            groups[-1].append(t)
    return groups


def _flat_args(tok) -> list:
    return [t for g in _function_args(tok) for t in g]


def _transform_hides(tokens, font_px: float) -> str | None:
    scale_x = scale_y = 1.0
    shift_x = shift_y = 0.0
    for tok in tokens:
        if tok.type != "function":
            continue
        name = tok.lower_name
        args = _flat_args(tok)
        nums = [_number(a) for a in args]
        lens = [_length(a, font_px) for a in args]
        if name in ("scale", "scale3d") and nums and nums[0] is not None:
            scale_x *= nums[0]
            scale_y *= nums[1] if len(nums) > 1 and nums[1] is not None else nums[0]
        elif name == "scalex" and nums and nums[0] is not None:
            scale_x *= nums[0]
        elif name == "scaley" and nums and nums[0] is not None:
            scale_y *= nums[0]
        elif name in ("translate", "translate3d") and lens:
            shift_x += lens[0] or 0.0
            if len(lens) > 1:
                shift_y += lens[1] or 0.0
        elif name == "translatex" and lens and lens[0] is not None:
            shift_x += lens[0]
        elif name == "translatey" and lens and lens[0] is not None:
            shift_y += lens[0]
        elif name in ("matrix", "matrix3d") and len(nums) >= 4 and None not in nums[:4]:
            a, b, c, d = nums[:4] if name == "matrix" else (nums[0], nums[1], nums[4], nums[5]) if len(nums) >= 6 else (1, 0, 0, 1)
            if abs(a * d - b * c) < MIN_SCALE ** 2:
                return "scaled to nothing"
            if name == "matrix" and len(nums) >= 6:
                shift_x += nums[4] or 0.0
                shift_y += nums[5] or 0.0
    if abs(scale_x) < MIN_SCALE or abs(scale_y) < MIN_SCALE:
        return "scaled to nothing"
    if shift_x <= -OFF_SCREEN_PX or shift_y <= -OFF_SCREEN_PX:
        return "positioned off-screen"
    return None


def _clip_path_hides(tokens) -> bool:
    if len(tokens) != 1 or tokens[0].type != "function":
        return False
    tok = tokens[0]
    name = tok.lower_name
    args = _flat_args(tok)
    if name == "inset":
        vals = [a for a in args if a.type in ("percentage", "dimension", "number")]
        pct = [a.value for a in vals if a.type == "percentage"]
        return bool(pct) and pct[0] >= 50
    if name in ("circle", "ellipse"):
        radii = []
        for a in args:
            if a.type == "ident" and a.lower_value == "at":
                break
            radii.append(_length(a) if a.type != "percentage" else a.value / 100 * 1000)
        return bool(radii) and all(r is not None and r <= 0 for r in radii)
    if name == "polygon":
        points = _function_args(tok)
        coords = {tuple(_serialize([t]) for t in p) for p in points if p}
        return len(coords) <= 1
    return False


def _clip_hides(tokens) -> bool:
    """``clip: rect(top, right, bottom, left)`` of zero area (CSS 2.1 §11.1.2)."""
    if len(tokens) != 1 or tokens[0].type != "function" or tokens[0].lower_name != "rect":
        return False
    vals = [_length(a) for a in _flat_args(tokens[0])]
    if len(vals) != 4 or None in vals:
        return False
    top, right, bottom, left = vals
    return bottom <= top or right <= left


def _filter_opacity(tokens) -> float | None:
    out = None
    for tok in tokens:
        if tok.type == "function" and tok.lower_name == "opacity":
            nums = [_number(a) for a in _flat_args(tok)]
            if nums and nums[0] is not None:
                out = (out if out is not None else 1.0) * nums[0]
    return out
