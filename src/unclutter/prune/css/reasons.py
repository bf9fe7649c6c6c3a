"""Why one element shows nothing (box reasons: ``display: none``, zero opacity, a clip,
a transform or position off-screen, a tiny box with overflow hidden) or why its text is
invisible (text reasons, from its inherited state: ``visibility``, a tiny font, a
transparent colour or one equal to the background), each property read only where the
specifications say it applies."""

from __future__ import annotations

from .declarations import INHERITED
from .inherit import _Inherited
from .values import (
    MAX_TINY_BOX_PX,
    MIN_FONT_PX,
    MIN_OPACITY,
    MIN_SCALE,
    OFF_SCREEN_PX,
    Declaration,
    _clip_hides,
    _clip_path_hides,
    _display_none,
    _filter_opacity,
    _ident,
    _length,
    _number,
    _transform_hides,
)


#: Elements whose default display is inline (HTML Living Standard §15.3, "Rendering": the
#: phrasing elements the user-agent stylesheet leaves ``display: inline``).
INLINE_TAGS = frozenset("""a abbr b bdi bdo br cite code data dfn em font i kbd label mark q rp
    rt ruby s samp small span strong sub sup time tt u var big strike del ins nobr wbr""".split())


#: Properties that make an element's text invisible through its inherited state.
_TEXT_PROPERTIES = frozenset({"visibility", "font-size", "font", "color", "-webkit-text-fill-color", "text-indent"})


def _needs_state(decls: dict[str, Declaration]) -> bool:
    """Whether judging an element needs its inherited state: it declares a text property,
    a ``var()`` or a font-relative length."""
    for name, d in decls.items():
        if name in _TEXT_PROPERTIES:
            return True
        for tok in d.value:
            if tok.type == "function" or (tok.type == "dimension" and tok.lower_unit in ("em", "ex", "ch")):
                return True
    return False


def _reads_state(decls: dict[str, Declaration]) -> bool:
    """Whether declarations set something the inherited state reads."""
    return any(name in _STATE_PROPERTIES or name.startswith("--") for name in decls)


#: What the inherited state of an element reads: the inherited properties and the
#: background the text is painted on.
_STATE_PROPERTIES = INHERITED | frozenset({"background", "background-color", "background-image",
                                          "background-clip", "-webkit-background-clip"})


def _text_reason(state: _Inherited) -> str | None:
    """Why text painted in ``state`` is invisible, or ``None``."""
    if state.hidden:
        return "visibility hidden"
    if state.font_px < MIN_FONT_PX:
        return "font size under 2px"
    if state.indent <= -OFF_SCREEN_PX:
        return "positioned off-screen"
    if state.clip_text or state.shadow:
        return None  # gradient text clipped to the glyphs, or a shadow: the text shows
    fill = state.fill if state.fill_set else state.colour
    if fill is not None and fill[3] < MIN_OPACITY:
        return "transparent text"
    if (fill is not None and isinstance(state.background, tuple)
            and all(abs(a - b) < 0.02 for a, b in zip(fill[:3], state.background[:3]))):
        return "text colour equals background"
    return None


def _is_inline(tag: str, decls: dict[str, Declaration]) -> bool:
    """Whether the element's box is inline (ignores width, height and transforms)."""
    display = _ident(decls.get("display"))
    position = _ident(decls.get("position"))
    if position in ("absolute", "fixed") or _ident(decls.get("float")) in ("left", "right"):
        return False
    if display is not None:
        return display in ("inline", "contents")
    return tag in INLINE_TAGS


def _sized_otherwise(decls: dict[str, Declaration], font_px: float) -> bool:
    """Whether something other than ``width``/``height`` may give a box room to show its
    content: a flex item that grows (``flex``/``flex-grow`` above 0: a flex container
    stretches it past its width), a minimum size, or padding after the content (bottom,
    right) above :data:`MAX_TINY_BOX_PX` (an overflow box clips to its padding box, and
    content overflows down and to the right)."""
    for name in ("flex-grow", "flex"):
        d = decls.get(name)
        if d is not None and d.value and d.value[0].type == "number" and d.value[0].value > 0:
            return True
        if d is not None and _ident(d) == "auto":
            return True
    sizes = []
    for name in ("min-width", "min-height", "padding-bottom", "padding-right"):
        d = decls.get(name)
        if d is not None and d.value:
            sizes.append(d.value[0])
    d = decls.get("padding")
    if d is not None and d.value:
        vals = list(d.value)
        sizes.append(vals[2] if len(vals) >= 3 else vals[0])  # bottom
        sizes.append(vals[1] if len(vals) >= 2 else vals[0])  # right
    for tok in sizes:
        v = _length(tok, font_px) if tok.type != "percentage" else tok.value
        if v is not None and v > MAX_TINY_BOX_PX:
            return True
    return False


def _box_reason(tag: str, decls: dict[str, Declaration], font_px: float, faded=None) -> str | None:
    """Why an element with these cascaded declarations (``var()`` resolved) shows nothing
    at all, or ``None``. ``faded(decls)``: whether a zero opacity is a fade-in start state
    (then not a reason)."""
    if not decls:
        return None
    if _display_none(decls.get("display")):
        return "display none"
    if _ident(decls.get("content-visibility")) == "hidden":
        return "content-visibility hidden"
    op = decls.get("opacity")
    if op is not None and len(op.value) == 1 and (n := _number(op.value[0])) is not None and n < MIN_OPACITY:
        if faded is None or not faded(decls):
            return "opacity 0"
    if "filter" in decls and (f := _filter_opacity(decls["filter"].value)) is not None and f < MIN_OPACITY:
        return "filtered to nothing"
    position = _ident(decls.get("position")) or "static"
    for name in ("clip-path", "-webkit-clip-path"):
        if name in decls and _clip_path_hides(decls[name].value):
            return "clipped to nothing"
    if position in ("absolute", "fixed") and "clip" in decls and _clip_hides(decls["clip"].value):
        return "clipped to nothing"
    inline = _is_inline(tag, decls)
    # (zoom: 0 is read as 1, "normal", by Chromium)
    if "zoom" in decls and len(decls["zoom"].value) == 1 and (z := _number(decls["zoom"].value[0])) is not None \
            and 0 < z < MIN_SCALE:
        return "scaled to nothing"
    if "scale" in decls:
        nums = [_number(t) for t in decls["scale"].value]
        if nums and all(n is not None for n in nums) and any(abs(n) < MIN_SCALE for n in nums):
            return "scaled to nothing"
    if not inline and "transform" in decls:
        reason = _transform_hides(decls["transform"].value, font_px)
        if reason:
            return reason
    if not inline and "translate" in decls:
        shifts = [_length(t, font_px) for t in decls["translate"].value]
        if any(v is not None and v <= -OFF_SCREEN_PX for v in shifts[:2]):
            return "positioned off-screen"
    if position != "static":
        for name in ("left", "top"):
            d = decls.get(name)
            if d is not None and d.value and (v := _length(d.value[0], font_px)) is not None and v <= -OFF_SCREEN_PX:
                return "positioned off-screen"
    margins = {}
    if "margin" in decls:
        vals = [_length(t, font_px) for t in decls["margin"].value]
        if vals:
            top = vals[0]
            left = vals[3] if len(vals) == 4 else vals[1] if len(vals) >= 2 else vals[0]
            margins = {"margin-top": top, "margin-left": left}
    for name in ("margin-left", "margin-top"):
        d = decls.get(name)
        if d is not None and d.value:
            margins[name] = _length(d.value[0], font_px)
    if margins.get("margin-left") is not None and margins["margin-left"] <= -OFF_SCREEN_PX:
        return "positioned off-screen"
    if not inline and margins.get("margin-top") is not None and margins["margin-top"] <= -OFF_SCREEN_PX:
        return "positioned off-screen"
    if not inline and not _sized_otherwise(decls, font_px):
        over = {_ident(decls.get(n)) for n in ("overflow", "overflow-x", "overflow-y")}
        over_x = _ident(decls.get("overflow-x")) or _ident(decls.get("overflow"))
        over_y = _ident(decls.get("overflow-y")) or _ident(decls.get("overflow"))
        clipped = {"hidden", "clip"}
        if over & clipped:
            for name, axis in (("height", over_y), ("max-height", over_y), ("width", over_x), ("max-width", over_x)):
                d = decls.get(name)
                if axis in clipped and d is not None and len(d.value) == 1 and (
                        v := _length(d.value[0], font_px)) is not None and v <= MAX_TINY_BOX_PX:
                    return "zero size, overflow hidden"
    return None
