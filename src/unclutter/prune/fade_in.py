"""Zero opacity: hidden text, or the start state of a fade-in that a script or transition
lifts (``rules.OPACITY_ZERO_REASON``: the element animates, carries an animation
library's hook, or holds a large share of the page's text)."""

from __future__ import annotations

from ..core.dom import Node
from .attributes import _cached_style_hides
from .css import read_style_attribute
from .rules import FADE_IN_HOOK_ATTRIBUTES, FADE_IN_MIN_SHARE, OPACITY_ZERO_REASON


#: Declarations that animate an element: with one of them, ``opacity: 0`` is the start of a
#: fade-in a script or transition lifts (``rules.OPACITY_ZERO_REASON``).
ANIMATION_PROPERTIES = ("transform", "transition", "transition-property", "translate", "will-change",
                        "animation", "animation-name")


def _animated(decls) -> bool:
    """Whether declarations (property -> :class:`.css.Declaration`) animate the element."""
    return any(name in decls and decls[name].text.lower() != "none" for name in ANIMATION_PROPERTIES)


def _fade_in_reason(node: Node, style: str, counts) -> str | None:
    """``OPACITY_ZERO_REASON`` when ``node``'s inline ``style`` hides it by ``opacity: 0``
    and it is not a fade-in start state (see ``rules.OPACITY_ZERO_REASON``), else ``None``.
    ``counts()``: non-whitespace characters below each element (``id(node)`` -> count;
    the root's is the page's), made once per page."""
    if _cached_style_hides(style) != OPACITY_ZERO_REASON:
        return None
    if _animated(read_style_attribute(style)) or not FADE_IN_HOOK_ATTRIBUTES.isdisjoint(node.attrs):
        return None
    chars = counts()
    if chars.get(id(node), 0) >= FADE_IN_MIN_SHARE * chars["page"]:
        return None
    return OPACITY_ZERO_REASON
