"""Declaration blocks and ``style`` attributes read into :class:`~.values.Declaration`
objects: only the properties this package reads (:data:`PROPERTIES`), an invalid
declaration dropped as a browser drops it (CSS Syntax 3 §5.4.6), ``!important`` ones over
normal ones."""

from __future__ import annotations

from functools import lru_cache

import tinycss2
import tinycss2.color4

from .values import Declaration, _too_deep


#: Properties this package reads (the longhands and the shorthands that set them).
PROPERTIES = frozenset("""display visibility content-visibility opacity filter font-size font color
    -webkit-text-fill-color background background-color background-image background-clip
    -webkit-background-clip text-shadow clip clip-path -webkit-clip-path transform translate scale zoom position
    left top margin margin-left margin-top text-indent width height max-width max-height overflow
    overflow-x overflow-y min-width min-height padding padding-top padding-bottom padding-left padding-right
    flex flex-grow float transition transition-property animation animation-name will-change""".split())
#: The inherited ones (CSS property definitions: "Inherited: yes").
INHERITED = frozenset({"visibility", "font-size", "font", "color", "-webkit-text-fill-color",
                       "text-indent", "text-shadow"})


#: Keywords every property accepts (CSS Values 4 §7.3).
_WIDE_KEYWORDS = frozenset({"inherit", "initial", "unset", "revert", "revert-layer"})
_DISPLAY_WORDS = frozenset("""none block inline inline-block flex inline-flex grid inline-grid flow-root contents
    table table-row table-cell table-row-group table-header-group table-footer-group table-column
    table-column-group table-caption inline-table list-item run-in ruby ruby-text ruby-base ruby-text-container
    ruby-base-container flow math -webkit-box -webkit-inline-box -ms-flexbox -ms-inline-flexbox -moz-box
    -webkit-flex""".split())
_KEYWORD_VALUES = {
    "visibility": frozenset({"visible", "hidden", "collapse"}),
    "content-visibility": frozenset({"visible", "hidden", "auto"}),
    "position": frozenset({"static", "relative", "absolute", "fixed", "sticky", "-webkit-sticky"}),
    "overflow": frozenset({"visible", "hidden", "clip", "scroll", "auto", "overlay"}),
    "overflow-x": frozenset({"visible", "hidden", "clip", "scroll", "auto", "overlay"}),
    "overflow-y": frozenset({"visible", "hidden", "clip", "scroll", "auto", "overlay"}),
}


def _valid(name: str, value: tuple) -> bool:
    """Whether a declaration of a property this package reads is valid enough to win the
    cascade (CSS Syntax 3 §5.4.6: an invalid one is dropped where it is declared, and
    an earlier declaration of the property stands). Checked for the properties whose
    value decides hiding on its own: ``display``, the keyword properties, ``opacity``,
    the colours and ``font-size``; a ``var()`` is valid until it is substituted."""
    if name.startswith("--") or not value:
        return bool(value) or name.startswith("--")
    if any(t.type == "function" and t.lower_name in ("var", "env", "attr") for t in value):
        return True
    first = value[0]
    if len(value) == 1 and first.type == "ident" and first.lower_value in _WIDE_KEYWORDS:
        return True
    if name == "display":
        return all(t.type == "ident" and t.lower_value in _DISPLAY_WORDS for t in value)
    if name in _KEYWORD_VALUES:
        return len(value) == 1 and first.type == "ident" and first.lower_value in _KEYWORD_VALUES[name]
    if name == "opacity":
        return len(value) == 1 and (first.type in ("number", "percentage")
                                    or first.type == "function" and first.lower_name in _MATH_FUNCTIONS)
    if name in ("color", "-webkit-text-fill-color", "background-color"):
        if len(value) != 1:
            return False
        if first.type == "ident" and first.lower_value in ("currentcolor", "transparent"):
            return True
        try:
            return tinycss2.color4.parse_color(first) is not None
        except Exception:  # noqa: BLE001 - a colour function tinycss2 cannot read: valid for the browser
            return first.type == "function"
    if name == "font-size":
        return len(value) == 1 and (first.type in ("dimension", "percentage")
                                    or first.type == "number" and first.value == 0
                                    or first.type == "ident" or first.type == "function")
    return True


_MATH_FUNCTIONS = frozenset({"calc", "min", "max", "clamp"})


def _declarations(tokens, keep_custom: bool = True) -> dict[str, Declaration]:
    """The relevant declarations of a block's content (later ones win within a block,
    ``!important`` ones over normal ones, as in a browser), by property name."""
    out: dict[str, Declaration] = {}
    for item in tinycss2.parse_blocks_contents(tokens, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration":
            continue
        name = item.lower_name
        if name not in PROPERTIES and not (keep_custom and name.startswith("--")):
            continue
        if _too_deep(item.value):
            continue  # unreadable: a browser would not lay out such a value either
        value = tuple(t for t in item.value if t.type not in ("whitespace", "comment")) \
            if not name.startswith("--") else tuple(item.value)
        if not _valid(name, value):
            continue  # a browser drops an invalid declaration: the earlier one stands
        old = out.get(name)
        if old is not None and old.important and not item.important:
            continue
        out[name] = Declaration(name, value, item.important)
    return out


@lru_cache(maxsize=8192)
def read_style_attribute(style: str) -> dict[str, Declaration]:
    """The relevant declarations of a ``style`` attribute (CSS Style Attributes: a
    declaration list), by lower-cased property name. Cached: style values repeat."""
    return _declarations(style)


@lru_cache(maxsize=8192)
def _declared_value(prop: str, value: str) -> dict[str, Declaration]:
    """One declaration read from the structural scan's text, parsed by tinycss2."""
    return read_style_attribute(f"{prop}:{value}")


#: CSS whitespace (CSS Syntax 3 §4.2), in the regexes run over a stylesheet's text.
_WS = r"[ \t\n\r\f]*"
