"""A ``style`` attribute alone, as if no stylesheet applied (the parse stage's early
drop and the removal log's reasons), and a style attribute as the cascade reads it
(:func:`_inline_for_cascade`: without the collapsed state the early drop judged)."""

from __future__ import annotations

from functools import lru_cache

from .declarations import read_style_attribute
from .inherit import _inherit, _Inherited, _resolved
from .reasons import _box_reason, _text_reason
from .values import MIN_OPACITY, ROOT_FONT_PX, Declaration, _display_none, _ident, _number, _visibility_hidden


INLINE_STYLE_REASON = "hidden: inline style"
OPACITY_ZERO_REASON = "hidden: inline style (opacity 0)"


def _box_reason_of(decls: dict[str, Declaration], inline: bool) -> str | None:
    decls = _resolved(decls, {})
    if (_display_none(decls.get("display")) or _visibility_hidden(decls.get("visibility"))
            or _ident(decls.get("content-visibility")) == "hidden"):
        return INLINE_STYLE_REASON
    reason = _box_reason("span" if inline else "div", decls, ROOT_FONT_PX, faded=lambda _d: True)
    if reason is not None:
        return f"{INLINE_STYLE_REASON} ({reason})"
    op = decls.get("opacity")
    if op is not None and len(op.value) == 1 and (n := _number(op.value[0])) is not None and n < MIN_OPACITY:
        return OPACITY_ZERO_REASON
    return None


def _text_reason_of(decls: dict[str, Declaration]) -> str | None:
    decls = _resolved(decls, {})
    state = _inherit(_Inherited(colour=(0.0, 0.0, 0.0, 1.0)), decls, {})
    if "color" not in decls and "-webkit-text-fill-color" not in decls:
        state.colour = None  # a background alone says nothing about the text's colour here
    return _text_reason(state)


@lru_cache(maxsize=8192)
def inline_box_reason(style: str, inline: bool = False) -> str | None:
    """Why a ``style`` attribute alone hides its element and all it holds (a box reason,
    judged as if no stylesheet applied), as the removal log words it: ``"hidden: inline
    style"`` for ``display: none``, ``visibility: hidden | collapse`` and
    ``content-visibility: hidden`` (a script's collapsed state), ``"hidden: inline style
    (what)"`` for the others; :data:`OPACITY_ZERO_REASON` only when nothing else hides.
    ``inline``: the element is inline-level by its tag (:data:`.reasons.INLINE_TAGS`: width,
    height and transforms do not apply unless the style changes its display). ``var()``
    references are left to :func:`.resolve.resolve_hidden`. Cached."""
    decls = read_style_attribute(style)
    return _box_reason_of(decls, inline) if decls else None


@lru_cache(maxsize=8192)
def inline_text_reason(style: str) -> str | None:
    """Why a ``style`` attribute alone makes its element's own text invisible (a text
    reason: its descendants may show theirs), read with black text and the page's
    background unknown, or ``None``."""
    decls = read_style_attribute(style)
    return _text_reason_of(decls) if decls else None


def _hides(decls: dict[str, Declaration]) -> str | None:
    reason = _box_reason_of(decls, False)
    if reason is not None and reason != OPACITY_ZERO_REASON:
        return reason
    text = _text_reason_of(decls)
    if text is not None:
        return f"{INLINE_STYLE_REASON} ({text})"
    return reason


@lru_cache(maxsize=8192)
def style_hides(style: str) -> str | None:
    """Why an inline ``style`` attribute hides its element, or ``None``: its box reason
    (:func:`inline_box_reason`, for a block box) or, failing that, its text reason
    (``"hidden: inline style (what)"``, :func:`inline_text_reason`). Cached."""
    decls = read_style_attribute(style)
    return _hides(decls) if decls else None


def style_hides_without(style: str, names: frozenset[str]) -> str | None:
    """:func:`style_hides` with the declarations of the properties ``names`` left out."""
    decls = {k: v for k, v in read_style_attribute(style).items() if k not in names}
    return _hides(decls) if decls else None


@lru_cache(maxsize=8192)
def _inline_for_cascade(style: str) -> dict[str, Declaration]:
    """A ``style`` attribute's declarations as the cascade reads them: without a collapsed
    state (``display: none``, ``visibility: hidden | collapse``, ``content-visibility:
    hidden``), which the parse stage's early drop judges with its exceptions (a disclosure
    panel, a page hidden while it loads) before the cascade runs."""
    decls = read_style_attribute(style)
    if not any(name in _COLLAPSE_PROPERTIES for name in decls):
        return decls
    return {k: v for k, v in decls.items() if not (
        (k == "display" and _display_none(v)) or (k == "visibility" and _visibility_hidden(v))
        or (k == "content-visibility" and _ident(v) == "hidden"))}


_COLLAPSE_PROPERTIES = frozenset({"display", "visibility", "content-visibility"})
