"""The inherited state of an element (font size, text colour and fill, visibility,
indent, the background its text is painted on, custom properties in scope) and ``var()``
substitution (CSS Custom Properties Level 1: fallbacks, cycles and chains past
:data:`MAX_VAR_DEPTH` invalid)."""

from __future__ import annotations

from dataclasses import dataclass, field

import tinycss2

from .values import (
    MIN_OPACITY,
    OFF_SCREEN_PX,
    ROOT_FONT_PX,
    Declaration,
    _background,
    _colour,
    _font_px,
    _font_size_token,
    _ident,
    _length,
)


#: Most ``var()`` substitutions followed in one value (cycles and chains beyond are invalid).
MAX_VAR_DEPTH = 16


@dataclass
class _Inherited:
    """The inherited state at an element: computed font size (px), text colour and fill
    (sRGB+alpha, ``None`` unknown), hidden visibility, text indent (px), the background
    the text is painted on (colour, ``"image"`` or ``None`` unknown), gradient-clipped text
    in scope, and the custom properties in scope."""

    font_px: float = ROOT_FONT_PX
    font_absolute: bool = False
    root_px: float = ROOT_FONT_PX
    colour: tuple | None = None
    fill: tuple | None = None
    fill_set: bool = False
    hidden: bool = False
    indent: float = 0.0
    background: tuple | str | None = None
    clip_text: bool = False
    shadow: bool = False
    custom: dict = field(default_factory=dict)


def _substitute(value: tuple, custom: dict, depth: int = 0) -> tuple | None:
    """``value`` with every ``var()`` replaced (fallback when the property is not in
    scope); ``None`` when a reference cannot be resolved (invalid at computed-value time)."""
    if depth > MAX_VAR_DEPTH:
        return None
    if not any(t.type == "function" for t in value):
        return value
    out: list = []
    for tok in value:
        if tok.type == "function" and tok.lower_name == "var":
            args = [t for t in tok.arguments if t.type != "comment"]
            while args and args[0].type == "whitespace":
                args.pop(0)
            if not args or args[0].type != "ident" or not args[0].value.startswith("--"):
                return None
            name = args[0].value
            rest = args[1:]
            while rest and rest[0].type == "whitespace":
                rest.pop(0)
            if name in custom:
                sub = custom[name]
            elif rest and rest[0].type == "literal" and rest[0].value == ",":
                sub = tuple(t for t in rest[1:] if t.type != "whitespace")
            else:
                return None
            sub = _substitute(tuple(t for t in sub if t.type not in ("whitespace", "comment")), custom, depth + 1)
            if sub is None:
                return None
            out.extend(sub)
        elif tok.type == "function" and any(t.type == "function" for t in tok.arguments) and depth < MAX_VAR_DEPTH:
            inner = _substitute(tuple(tok.arguments), custom, depth + 1)
            if inner is None:
                return None
            out.append(tinycss2.ast.FunctionBlock(tok.source_line, tok.source_column, tok.name, list(inner)))
        else:
            out.append(tok)
    return tuple(out)


def _resolved(decls: dict[str, Declaration], custom: dict) -> dict[str, Declaration]:
    """``decls`` with ``var()`` substituted (a declaration whose reference fails is dropped:
    the property takes its inherited or initial value, CSS Custom Properties §3.1)."""
    out = {}
    for name, d in decls.items():
        if name.startswith("--"):
            continue
        if any(t.type == "function" for t in d.value):
            value = _substitute(d.value, custom)
            if value is None:
                continue
            d = Declaration(name, tuple(t for t in value if t.type not in ("whitespace", "comment")), d.important)
        out[name] = d
    return out


def _inherit(parent: _Inherited, decls: dict[str, Declaration], custom: dict) -> _Inherited:
    """The inherited state of an element from its parent's and its own cascaded
    declarations (already resolved for ``var()``)."""
    state = _Inherited(parent.font_px, parent.font_absolute, parent.root_px, parent.colour, parent.fill,
                       parent.fill_set, parent.hidden, parent.indent, parent.background, parent.clip_text,
                       parent.shadow, custom)
    if not decls:
        return state
    vis = _ident(decls.get("visibility"))
    if vis in ("hidden", "collapse"):
        state.hidden = True
    elif vis == "visible":
        state.hidden = False
    size = None
    if "font-size" in decls and decls["font-size"].value:
        size = _font_px(decls["font-size"].value[0], parent.font_px, parent.font_absolute, parent.root_px)
    elif "font" in decls:
        size = _font_px(_font_size_token(decls["font"]), parent.font_px, parent.font_absolute, parent.root_px)
    if size is not None:
        state.font_px, state.font_absolute = size
    if "color" in decls:
        c = _colour(decls["color"].value)
        if c is not None or _ident(decls["color"]) not in ("inherit", "currentcolor"):
            state.colour = c
    if "-webkit-text-fill-color" in decls:
        d = decls["-webkit-text-fill-color"]
        if _ident(d) == "currentcolor":
            state.fill, state.fill_set = None, False
        else:
            state.fill, state.fill_set = _colour(d.value), True
    if "text-indent" in decls and decls["text-indent"].value:
        length = _length(decls["text-indent"].value[0], state.font_px)
        state.indent = length if length is not None else 0.0
    bg = _background(decls)
    if bg is not None:
        if isinstance(bg, tuple) and bg[3] < 1.0:
            bg = None if bg[3] < MIN_OPACITY else "image"  # see-through: what shows is unknown
            if bg is None:
                bg = state.background
        state.background = bg
    clip = decls.get("background-clip") or decls.get("-webkit-background-clip")
    if clip is not None and any(t.type == "ident" and t.lower_value == "text" for t in clip.value):
        # the glyphs show the element's background: text only when that paints something
        state.clip_text = bg == "image" or isinstance(bg, tuple) and bg[3] >= MIN_OPACITY
    if "text-shadow" in decls:
        state.shadow = _shadow_shows(decls["text-shadow"].value)
    return state


def _shadow_shows(value: tuple) -> bool:
    """Whether a ``text-shadow`` draws the text where a reader sees it: some shadow with
    a colour of alpha :data:`MIN_OPACITY` or more (a shadow without a colour takes the
    text's own, which is transparent here) and offsets under :data:`OFF_SCREEN_PX`."""
    shadow: list = []
    for tok in list(value) + [None]:
        if tok is None or tok.type == "literal" and tok.value == ",":
            colour = next((c for t in shadow if (c := _colour([t])) is not None), None)
            offsets = [v for t in shadow if (v := _length(t)) is not None][:2]
            if colour is not None and colour[3] >= MIN_OPACITY and all(abs(v) < OFF_SCREEN_PX for v in offsets):
                return True
            shadow = []
        else:
            shadow.append(tok)
    return False


def _uses_var(d: Declaration) -> bool:
    return not d.name.startswith("--") and any(t.type == "function" and _has_var(t) for t in d.value)


def _has_var(tok, depth: int = 0) -> bool:
    if tok.lower_name == "var":
        return True
    return depth < MAX_VAR_DEPTH and any(t.type == "function" and _has_var(t, depth + 1) for t in tok.arguments)


def _var_names(value: tuple, out: list[str], depth: int = 0) -> None:
    for tok in value:
        if tok.type != "function" or depth > MAX_VAR_DEPTH:
            continue
        if tok.lower_name == "var":
            args = [t for t in tok.arguments if t.type not in ("whitespace", "comment")]
            if args and args[0].type == "ident" and args[0].value.startswith("--") and args[0].value not in out:
                out.append(args[0].value)
            _var_names(tuple(args[1:]), out, depth + 1)
        else:
            _var_names(tuple(tok.arguments), out, depth + 1)
