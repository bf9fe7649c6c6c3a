"""Elements hidden by their own attributes: the ``hidden`` attribute, ``aria-hidden``,
``type="hidden"`` and the other ``rules.HIDDEN_ATTRIBUTE_RULES``, an inline ``style``
(read by :mod:`.css`), a non-content ARIA role; and the collapsed states (``hidden``,
``aria-hidden``, inline ``display: none``) that a disclosure panel or a loading page may
be in without being hidden text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .css import INLINE_TAGS, inline_box_reason, style_hides, style_hides_without
from .rules import (
    HIDDEN_ATTRIBUTE_RULES,
    HIDDEN_UNTIL_FOUND,
    NON_CONTENT_ROLES,
    OPACITY_ZERO_REASON,
    TEX_FORMULA_ALT_RE,
    TEX_FORMULA_IMAGE_CLASS_RE,
)

if TYPE_CHECKING:
    from .disclosure import DisclosurePanels


#: What else an inline style may do to a collapsed disclosure panel: an accordion's
#: collapse animation ends at zero height with overflow hidden (react-collapsed:
#: ``display:none;height:0px;overflow:hidden``; react-collapsible: ``height:0;
#: overflow:hidden`` alone).
_PANEL_COLLAPSE_REASONS = frozenset({"hidden: inline style (zero size, overflow hidden)"})


#: Attributes that :data:`.rules.HIDDEN_ATTRIBUTE_RULES` and inline styles read.
_HIDING_ATTRIBUTE_NAMES = frozenset(name for name, _, _ in HIDDEN_ATTRIBUTE_RULES) | {"style"}


#: The ways a collapsed disclosure panel is hidden, which its control lifts.
_COLLAPSED = frozenset({"hidden: hidden attribute", 'hidden: aria-hidden="true"', "hidden: inline style"})


#: The declarations of a collapsed state (``display: none``, ``visibility: hidden``).
_COLLAPSE_PROPERTIES = frozenset({"display", "visibility", "content-visibility"})


def _attribute_rule_reasons(attrs: dict[str, str]) -> Iterator[str]:
    """The reasons (``"hidden: ..."``) of the ``HIDDEN_ATTRIBUTE_RULES`` that ``attrs``
    meet, in the rules' order: not ``hidden="until-found"`` (``rules.HIDDEN_UNTIL_FOUND``),
    not ``aria-hidden`` on MediaWiki's formula image (``rules.TEX_FORMULA_ALT_RE``,
    ``rules.TEX_FORMULA_IMAGE_CLASS_RE``: every
    sighted reader sees it)."""
    for name, value, reason in HIDDEN_ATTRIBUTE_RULES:
        if name in attrs and (value is None or attrs[name].strip().lower() == value):
            if name == "hidden" and attrs[name].strip().lower() == HIDDEN_UNTIL_FOUND:
                continue
            if name == "aria-hidden" and "src" in attrs and attrs.get("alt", "").strip() and (
                    TEX_FORMULA_ALT_RE.match(attrs["alt"]) or TEX_FORMULA_IMAGE_CLASS_RE.search(attrs.get("class", ""))):
                continue
            yield f"hidden: {reason}"


def _hidden_only_collapsed(attrs: dict[str, str], also: frozenset[str] = frozenset()) -> bool:
    """Whether every way ``attrs`` hide the element is a collapsed state (``_COLLAPSED``:
    the ``hidden`` attribute, ``aria-hidden="true"``, inline ``display:none`` /
    ``visibility:hidden``) and at least one applies: no other attribute rule, and the inline
    style hides nothing once those declarations are taken out (an off-screen position,
    zero size or opacity, same-colour text stacked on ``display:none`` still hides), but
    for the reasons in ``also``, which may also be the only way it hides (react-collapsible:
    ``height:0;overflow:hidden`` alone)."""
    found = False
    for reason in _attribute_rule_reasons(attrs):
        if reason not in _COLLAPSED:
            return False
        found = True
    style = attrs.get("style")
    if style:
        reason = _cached_style_hides(style)
        if reason is not None:
            if reason not in _COLLAPSED and reason not in also:
                return False
            found = True
        rest = style_hides_without(style, _COLLAPSE_PROPERTIES)
        if rest is not None and rest not in also:
            return False
    return found


def _cached_style_hides(style: str, tag: str | None = None) -> str | None:
    """Why a ``style`` attribute hides its element: with ``tag`` (the parse stage's early
    drop), box reasons only (:func:`.css.inline_box_reason`; text reasons wait for the
    cascade, where descendants may show their text); without, any reason
    (:func:`.css.style_hides`)."""
    if tag is not None:
        return inline_box_reason(style, tag in INLINE_TAGS)
    return style_hides(style)


def _attribute_hiding_reason(attrs: dict[str, str], panels: DisclosurePanels | None = None,
                             tag: str | None = None) -> str | None:
    """Why the element's attributes hide it (``HIDDEN_ATTRIBUTE_RULES``, inline style), or
    ``None``; with ``tag`` (the parse stage's early drop), the inline style counts for its
    box reasons only (:func:`_cached_style_hides`). A disclosure panel (see
    :class:`.disclosure.DisclosurePanels`) is not hidden by the ``hidden`` attribute,
    ``aria-hidden`` or inline ``display:none``/``visibility:hidden`` (its collapsed state),
    but still by every other rule; ``hidden="until-found"`` is not hidden by the attribute
    (``rules.HIDDEN_UNTIL_FOUND``). Zero opacity alone is left to
    :func:`.fade_in._fade_in_reason`."""
    if _HIDING_ATTRIBUTE_NAMES.isdisjoint(attrs):
        return None
    reasons = []
    for reason in _attribute_rule_reasons(attrs):
        if panels is None:  # (the usual page: the first reason is the answer)
            return reason
        reasons.append(reason)
    style = attrs.get("style")
    if style:
        reason = _cached_style_hides(style, tag)
        # opacity 0 alone: decided on the built tree (_fade_in_reason), where text is known
        if reason is not None and reason != OPACITY_ZERO_REASON:
            reasons.append(reason)
    if not reasons:
        return None
    if panels is not None and _hidden_only_collapsed(attrs, _PANEL_COLLAPSE_REASONS) and panels.claim(attrs.get("id")):
        return None
    return reasons[0]


def _role_reason(attrs: dict[str, str]) -> str | None:
    role = attrs.get("role")
    if role:
        role = role.strip().lower()
        if role in NON_CONTENT_ROLES:
            return f"non-content role {role}"
    return None
