"""The page's CSS, read as a browser reads it, for the properties that hide text.

Stylesheets (``<style>``) and ``style`` attributes are parsed by tinycss2 (CSS Syntax
Level 3: comments, ``<!--``/``-->``, escapes, strings, at-rules, ``!important``), selector
specificity comes from cssselect2 (Selectors Level 4 §17), selectors are matched by
lexbor's CSS engine (the parser's own), colours are read by ``tinycss2.color4`` (CSS Color
Level 4). On top of them, this package resolves the cascade (CSS Cascading and Inheritance
Level 4 §6: importance, then the ``style`` attribute, then specificity, then order of
appearance) and inheritance for the properties below, and tells which elements a reader
cannot see, at the reference desktop window (``rules.REFERENCE_MEDIA``: 1280 x 720 px,
16 px initial font size):

* **box** reasons hide an element and everything inside it, whatever its descendants
  declare: ``display: none``, ``content-visibility: hidden``, opacity under
  :data:`MIN_OPACITY` (``opacity``, ``filter: opacity()``), a clip to nothing
  (``clip: rect()`` of zero area on an absolutely positioned box, ``clip-path``), a
  transform or ``scale`` to under :data:`MIN_SCALE` or far off-screen, a positioned box
  moved :data:`OFF_SCREEN_PX` off the page's top or left edge (``left``, ``top``,
  ``margin-left``, ``margin-top``, ``text-indent``), a block box at most
  :data:`MAX_TINY_BOX_PX` high or wide with its overflow hidden (the "visually hidden"
  pattern);
* **text** reasons hide the text of an element and of its descendants unless one of them
  declares otherwise (inherited properties): ``visibility: hidden | collapse``, a computed
  font size under :data:`MIN_FONT_PX`, a text colour (``color``,
  ``-webkit-text-fill-color``) with alpha under :data:`MIN_OPACITY`, or equal to the
  background the text is painted on.

Each property is read only where the CSS specifications say it applies: ``width``,
``height`` and transforms not on inline boxes (CSS 2.1 §10.2, CSS Transforms 1
"transformable element"), ``left``/``top`` only on positioned boxes, ``clip`` only on
absolutely positioned ones (CSS 2.1 §11.1.2). ``var()`` references are substituted from
the custom properties in scope (CSS Custom Properties Level 1, with fallbacks, cycles
invalid). Colours are compared with the page background only where the page's styles are
all known (no linked stylesheet or ``@import``): an unknown stylesheet may paint any
background. Cascade layers are read as unlayered rules.

Bounded work: every stylesheet and style attribute is parsed once (tinycss2 is linear in
its input); the cascade is resolved only for elements that a hiding declaration matches,
their ancestors and, for text reasons, their descendants, each element once.

Modules, lowest first (each imports only those before it): :mod:`.values` (thresholds,
:class:`Declaration`, lengths, font sizes, colours, transforms, clip), :mod:`.declarations`
(declaration blocks, ``style`` attributes), :mod:`.inherit` (inherited state, ``var()``),
:mod:`.reasons` (box and text reasons of one element), :mod:`.inline` (a ``style``
attribute alone), :mod:`.triggers` (rules that may hide, judged alone), :mod:`.selectors`
(specificity, keys, :func:`tame_has`), :mod:`.sheet` (the structural scan, :class:`Sheet`),
:mod:`.cascade` (the cascade resolver), :mod:`.stylesheets` (a page's stylesheets) and
:mod:`.resolve` (:func:`resolve_hidden`).
"""

from .declarations import read_style_attribute
from .inline import (
    INLINE_STYLE_REASON,
    OPACITY_ZERO_REASON,
    inline_box_reason,
    inline_text_reason,
    style_hides,
    style_hides_without,
)
from .reasons import INLINE_TAGS
from .resolve import MAX_HIDING_SELECTORS, MAX_SELECTOR_CHECKS, StyleVerdicts, resolve_hidden
from .selectors import tame_has
from .sheet import Sheet, StyleRule, all_rules, hiding_rules, read_stylesheet
from .stylesheets import page_stylesheets
from .values import (
    MAX_TINY_BOX_PX,
    MIN_FONT_PX,
    MIN_LOGICAL_FONT_PX,
    MIN_OPACITY,
    MIN_SCALE,
    OFF_SCREEN_PX,
    Declaration,
)

__all__ = ["Declaration", "StyleRule", "Sheet", "read_stylesheet", "all_rules", "read_style_attribute", "StyleVerdicts",
           "resolve_hidden", "page_stylesheets", "inline_box_reason", "inline_text_reason", "style_hides",
           "hiding_rules", "style_hides_without", "tame_has", "MIN_OPACITY", "MIN_FONT_PX", "MIN_SCALE",
           "OFF_SCREEN_PX", "MAX_TINY_BOX_PX", "MIN_LOGICAL_FONT_PX", "MAX_SELECTOR_CHECKS",
           "MAX_HIDING_SELECTORS", "INLINE_TAGS", "INLINE_STYLE_REASON", "OPACITY_ZERO_REASON"]
