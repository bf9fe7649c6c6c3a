"""The page's CSS, read as a browser reads it, for the properties that hide text.

Stylesheets (``<style>``) and ``style`` attributes are parsed by tinycss2 (CSS Syntax
Level 3: comments, ``<!--``/``-->``, escapes, strings, at-rules, ``!important``), selector
specificity comes from cssselect2 (Selectors Level 4 §17), selectors are matched by
lexbor's CSS engine (the parser's own), colours are read by ``tinycss2.color4`` (CSS Color
Level 4). On top of them, this module resolves the cascade (CSS Cascading and Inheritance
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
"""

from __future__ import annotations

from collections.abc import Iterable
import bisect
import itertools
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import re2
import tinycss2
import tinycss2.color4
from cssselect2 import parser as selector_parser

from ..core.errors import InputTooComplexError
from .media import media_query_matches

__all__ = ["Declaration", "StyleRule", "Sheet", "read_stylesheet", "all_rules", "read_style_attribute", "StyleVerdicts",
           "resolve_hidden", "page_stylesheets", "inline_box_reason", "inline_text_reason", "style_hides",
           "hiding_rules", "style_hides_without", "MIN_OPACITY", "MIN_FONT_PX", "MIN_SCALE", "OFF_SCREEN_PX",
           "MAX_TINY_BOX_PX", "MIN_LOGICAL_FONT_PX", "INLINE_TAGS", "INLINE_STYLE_REASON", "OPACITY_ZERO_REASON"]

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
#: Hiding rules nested deeper than this many conditional groups (``@media``, ``@supports``...)
#: are not read.
MAX_GROUP_NESTING = 8
#: Most selectors lexbor runs over the document for the cascade of one page: past it,
#: the elements left are judged by the hiding rule that named them alone (the rule that
#: matched them hides them, whatever overrides it), text colours are not compared.
MAX_SELECTOR_CHECKS = 1000
#: Most hiding selectors (rules that may hide, naming only classes and ids the page uses)
#: read for one page; the shared datasets' largest page has about 600. A page over it is
#: refused (``InputTooComplexError``): matching costs elements x selectors, and reading only
#: some of them could let hidden text through.
MAX_HIDING_SELECTORS = 1500
#: Most distinct colours compared as text against background (each costs a pass over the
#: document); a page declaring more is compared on those most rules declare.
MAX_CONFLICT_COLOURS = 64
#: Most declarations found by one regex when looking for a set of colour values.
MAX_COLOUR_VALUES = 256
#: Most ``var()`` substitutions followed in one value (cycles and chains beyond are invalid).
MAX_VAR_DEPTH = 16
#: Initial font size (CSS Fonts 4: ``medium``, 16 px in every desktop browser).
ROOT_FONT_PX = 16.0
#: The reference window (``rules.REFERENCE_MEDIA``), for ``vw``/``vh`` units.
VIEWPORT = (1280.0, 720.0)

INLINE_STYLE_REASON = "hidden: inline style"
OPACITY_ZERO_REASON = "hidden: inline style (opacity 0)"

#: Elements whose default display is inline (HTML Living Standard §15.3, "Rendering": the
#: phrasing elements the user-agent stylesheet leaves ``display: inline``).
INLINE_TAGS = frozenset("""a abbr b bdi bdo br cite code data dfn em font i kbd label mark q rp
    rt ruby s samp small span strong sub sup time tt u var big strike del ins nobr wbr""".split())

#: Properties this module reads (the longhands and the shorthands that set them).
PROPERTIES = frozenset("""display visibility content-visibility opacity filter font-size font color
    -webkit-text-fill-color background background-color background-image background-clip
    -webkit-background-clip text-shadow clip clip-path -webkit-clip-path transform translate scale zoom position
    left top margin margin-left margin-top text-indent width height max-width max-height overflow
    overflow-x overflow-y min-width min-height padding padding-top padding-bottom padding-left padding-right
    flex flex-grow float transition transition-property animation animation-name will-change""".split())
#: The inherited ones (CSS property definitions: "Inherited: yes").
INHERITED = frozenset({"visibility", "font-size", "font", "color", "-webkit-text-fill-color",
                       "text-indent", "text-shadow"})

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


# --- declarations -----------------------------------------------------------------------


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
    """Whether a declaration of a property this module reads is valid enough to win the
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


# --- stylesheets ------------------------------------------------------------------------


@dataclass(frozen=True)
class StyleRule:
    """One complex selector of a style rule with the rule's relevant declarations.

    ``selector``: its text (serialized by tinycss2, for lexbor); ``specificity``: (ids,
    classes, types); ``order``: position in its stylesheet; ``key``: what an element
    needs to match it, read from its rightmost compound (``("#", id)``, ``(".", class)``,
    ``("tag", name)`` or ``("*",)``); ``simple``: the compound's tag, classes and id when
    it is the whole selector and has nothing else (matched without lexbor)."""

    selector: str
    specificity: tuple[int, int, int]
    order: int
    declarations: dict[str, Declaration] = field(hash=False, compare=False)
    key: tuple = ("*",)
    simple: tuple | None = None


def _split_selectors(prelude) -> list[list]:
    groups: list[list] = [[]]
    for tok in prelude:
        if tok.type == "literal" and tok.value == ",":
            groups.append([])
        else:
            groups[-1].append(tok)
    return [g for g in groups if any(t.type not in ("whitespace", "comment") for t in g)]


def _rightmost(tree):
    while hasattr(tree, "right"):
        tree = tree.right
    return tree


def _key_and_simple(tree) -> tuple[tuple, tuple | None]:
    compound = _rightmost(tree)
    parts = getattr(compound, "simple_selectors", ())
    tag = ident = None
    classes: list[str] = []
    other = compound is not tree
    for s in parts:
        kind = type(s).__name__
        if kind == "LocalNameSelector":
            tag = s.lower_local_name
        elif kind == "IDSelector":
            ident = s.ident
        elif kind == "ClassSelector":
            classes.append(s.class_name)
        elif kind == "NamespaceSelector":
            continue
        else:
            other = True
    key: tuple = ("#", ident.lower()) if ident else (".", classes[0].lower()) if classes else (
        ("tag", tag) if tag else ("*",))
    simple = None if other or not parts else (tag, frozenset(classes), ident)
    return key, simple


#: Pseudo-classes Chromium knows (Selectors 4, HTML §4.16.3 and its own): a selector with
#: another one is invalid, and an invalid selector drops its whole rule. ``-webkit-``
#: prefixed ones are accepted; other vendors' prefixes are not.
KNOWN_PSEUDO_CLASSES = frozenset("""hover active focus focus-visible focus-within visited link any-link target
    target-within scope root empty first-child last-child only-child first-of-type last-of-type only-of-type
    nth-child nth-last-child nth-of-type nth-last-of-type not is where has lang dir checked disabled enabled
    required optional valid invalid in-range out-of-range read-only read-write placeholder-shown default
    indeterminate autofill user-valid user-invalid fullscreen modal open closed popover-open defined playing
    paused picture-in-picture host host-context state blank local-link current past future xr-overlay
    before after first-line first-letter""".split())
_PSEUDO_CLASS_RE = re.compile(r"(?<![:\\]):(-?[A-Za-z][\w-]*)")


def _pseudo_classes_known(selector: str) -> bool:
    """Whether every pseudo-class of a selector's text is one Chromium knows
    (:data:`KNOWN_PSEUDO_CLASSES`, ``-webkit-`` prefixed ones), outside quoted values."""
    if ":" not in selector:
        return True
    text = re.sub(r"\"[^\"]*\"|'[^']*'", "", selector) if ('"' in selector or "'" in selector) else selector
    for name in _PSEUDO_CLASS_RE.findall(text):
        name = name.lower()
        if name not in KNOWN_PSEUDO_CLASSES and not name.startswith("-webkit-"):
            return False
    return True


def _prelude_selectors(prelude: str) -> tuple[tuple, ...]:
    """:func:`_selectors`, read from the text for each plain selector
    (:func:`_plain_selector`); the others are parsed one by one (cached by text), their
    key read from the text as :meth:`Sheet.keys` reads it (:func:`_group_key`), when
    commas can only separate selectors (:func:`_split_prelude`), else the whole prelude
    at once."""
    parts = _split_prelude(prelude)
    if parts is None:
        return _selectors(prelude) or ()
    out: list[tuple] = []
    plain = _PLAIN_PRELUDE_RE.fullmatch
    for part in parts:
        part = part.strip(" \t\n\r\f")
        if not part:
            continue
        if not _pseudo_classes_known(part):
            return ()  # an unknown pseudo-class drops the whole rule (Selectors 4 §4.1)
        got = _plain_selector(part) if plain(part) else None
        if got is not None:
            if not _PSEUDO_ELEMENT_RE.search(part):
                out.append(got)
            continue
        key = _group_key(part)
        parsed = _selectors(part)
        if parsed is None:
            return ()  # one invalid selector drops the whole rule (Selectors 4 §4.1)
        for text, spec, parsed_key, simple in parsed:
            out.append((text, spec, key if isinstance(key, tuple) else parsed_key, simple))
    return tuple(out)


@lru_cache(maxsize=16384)
def _selectors(prelude: str) -> tuple[tuple, ...] | None:
    """``(text, specificity, key, simple)`` of each selector of a rule's prelude (see
    :class:`StyleRule`; pseudo-elements left out: their text is generated), parsed by
    tinycss2 and cssselect2; ``None`` when one of them is invalid, which drops the whole
    rule (Selectors 4 §4.1). Cached: site stylesheets repeat their selectors."""
    tokens = tinycss2.parse_component_value_list(prelude, skip_comments=True)
    # (CDO/CDC tokens "<!--"/"-->" before a rule are skipped at the top level: CSS Syntax 3 §5.4.1)
    while tokens and (tokens[0].type == "whitespace" or (
            tokens[0].type == "literal" and tokens[0].value in ("<!--", "-->"))):
        tokens.pop(0)
    out = []
    for group in _split_selectors(tokens):
        text = _serialize(group)
        if not text:
            continue
        if not _pseudo_classes_known(text):
            return None
        try:
            parsed = list(selector_parser.parse(group))
        except Exception:  # noqa: BLE001 - cssselect2 raises several types on bad selectors
            return None
        if len(parsed) != 1 or parsed[0].pseudo_element is not None:
            continue  # ::before text is generated, never the element's own
        key, simple = _key_and_simple(parsed[0].parsed_tree)
        out.append((text, parsed[0].specificity, key, simple))
    return tuple(out)


def _rules_of_text(prelude: str, block: str, order: int) -> tuple[StyleRule, ...]:
    """The :class:`StyleRule` objects of one qualified rule (its prelude and its block's
    content as text), parsed by tinycss2 and cssselect2."""
    decls = _declarations(block)
    if not decls:
        return ()
    return tuple(StyleRule(text, spec, order, decls, key, simple)
                 for text, spec, key, simple in _selectors(prelude) or ())


#: Where the structural scan of a stylesheet stops: comments, strings, escapes, unquoted
#: ``url()`` tokens (which may hold braces), braces, and (outside blocks) semicolons.
_TOP_RE = re.compile(r"/\*|[\"'{};\\]|[uU][rR][lL]\(")
_BLOCK_RE = re.compile(r"/\*|[\"'{}\\]|[uU][rR][lL]\(")
_STRING_RES = {'"': re.compile(r'"(?:[^"\\\n\r\f]|\\[\s\S])*"?'),
               "'": re.compile(r"'(?:[^'\\\n\r\f]|\\[\s\S])*'?")}
#: An unquoted url token (CSS Syntax 3 §4.3.6): up to ``)``; a quote or ``(`` makes it bad.
_URL_RE = re.compile(r"[uU][rR][lL]\([ \t\n\r\f]*(?:[^\"'()\\ \t\n\r\f]|\\[\s\S])*[ \t\n\r\f]*\)?")
_GROUP_RULES = frozenset({"media", "supports", "layer", "container", "document", "scope"})
_AT_NAME_RE = re.compile(r"@(-?[A-Za-z_][\w-]*)")


def _skip_leading(prelude: str) -> str:
    """A prelude without the whitespace, comments and ``<!--``/``-->`` before it."""
    i, n = 0, len(prelude)
    while i < n:
        c = prelude[i]
        if c in " \t\n\r\f":
            i += 1
        elif prelude.startswith("/*", i):
            end = prelude.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif prelude.startswith("<!--", i):
            i += 4
        elif prelude.startswith("-->", i):
            i += 3
        else:
            break
    return prelude[i:]


@lru_cache(maxsize=4096)
def _media_applies(query: str) -> bool:
    """Whether an ``@media`` prelude (the text after ``@media``) matches the reference
    window; a query too deep or odd to read counts as matching (its rules keep hiding)."""
    text = _serialize(tinycss2.parse_component_value_list(query, skip_comments=True))
    return text is None or media_query_matches(text.lower()) is not False


class Sheet:
    """A stylesheet split into its style rules by a linear structural scan (comments,
    strings, escapes, ``url()``, blocks, as CSS Syntax 3 tokenizes them), each rule parsed
    by tinycss2 only when it is needed: a stylesheet ships rules for every page of a site,
    and a page uses a few of them. Rules inside ``@media`` groups whose query does not match
    the reference window (:func:`.media.media_query_matches`), inside at-rules other than
    the conditional groups (``@font-face``, ``@keyframes``...) and nested deeper than
    :data:`MAX_GROUP_NESTING` are left out. Parentheses and brackets do not count as
    blocks in the scan (CSS Syntax lets a ``(`` block hold a ``}``): a stylesheet built that
    way is read as having more rules than a browser reads, never fewer.

    Attributes:
        css: the stylesheet's text.
        spans: ``(prelude start, block start, block end)`` character offsets of each rule
            (the block's content is ``css[block start:block end]``).
        imports: the stylesheet has an ``@import`` (styles this module does not see).
    """

    def __init__(self, css: str) -> None:
        self.css = css
        self.spans: list[tuple[int, int, int]] = []
        self.imports = False
        self.dirty: set[int] = set()  # rules whose block holds a comment or an escape
        self._parsed: dict[int, tuple[StyleRule, ...]] = {}
        self._declared: list[tuple[int, str, str]] | None = None
        self._by_rule: dict[int, list] = {}
        self._triggers: tuple | None = None
        self._decls: dict[int, dict[str, Declaration]] = {}
        self._custom: dict[str, set[str]] | None = None
        self._hides_alone: dict[int, tuple] = {}
        self._props: dict[int, frozenset[str]] = {}
        self._keys: dict[str | None, dict[tuple, list[tuple[int, str | None]]]] = {}
        self._scan()
        self.starts = [b for _, b, _ in self.spans]

    def _block_end(self, start: int) -> tuple[int, bool]:
        """Offset of the ``}`` closing the block whose content starts at ``start`` (the
        end of the text when unclosed), and whether a comment or escape is inside."""
        css = self.css
        depth = 1
        pos = start
        dirty = False
        search = _BLOCK_RE.search
        while True:
            m = search(css, pos)
            if m is None:
                return len(css), dirty
            tok = m.group()
            i = m.start()
            if tok == "{":
                depth += 1
                pos = i + 1
            elif tok == "}":
                depth -= 1
                if depth == 0:
                    return i, dirty
                pos = i + 1
            else:
                pos, d = self._skip(tok, i)
                dirty = dirty or d

    def _skip(self, tok: str, i: int) -> tuple[int, bool]:
        """Past a comment, string, escape or url token starting at ``i``; whether it was a
        comment or escape (text the structural scan cannot read as it is)."""
        css = self.css
        if tok == "/*":
            j = css.find("*/", i + 2)
            return (len(css) if j < 0 else j + 2), True
        if tok == "\\":
            return i + 2, True
        if tok in ("\"", "'"):
            return _STRING_RES[tok].match(css, i).end(), False
        m = _URL_RE.match(css, i)  # url( ... ) unquoted, or url( "..." ): a function
        end = m.end()
        if end < len(css) and css[end - 1] != ")" and css[end] in "\"'(":
            return i + 4, False  # a quoted url() is a function: its string is scanned next
        return end, False

    def _scan(self) -> None:
        css = self.css
        pos = boundary = 0
        stack: list[bool] = []  # open conditional groups: whether the enclosing ones apply
        applies = True
        search = _TOP_RE.search
        while True:
            m = search(css, pos)
            if m is None:
                return
            tok = m.group()
            i = m.start()
            if tok == ";":
                if _skip_leading(css[boundary:i])[:7].lower() == "@import":
                    self.imports = True
                boundary = pos = i + 1
            elif tok == "}":
                if stack:
                    applies = stack.pop()
                boundary = pos = i + 1
            elif tok == "{":
                head = _skip_leading(css[boundary:i])
                if head.startswith("@"):
                    am = _AT_NAME_RE.match(head)
                    name = am.group(1).lower() if am else ""
                    if name in _GROUP_RULES and len(stack) < MAX_GROUP_NESTING:
                        ok = applies and (name != "media" or _media_applies(head[am.end():]))
                        stack.append(applies)
                        applies = ok
                        boundary = pos = i + 1
                        continue
                    end, _ = self._block_end(i + 1)
                    boundary = pos = end + 1
                    continue
                end, dirty = self._block_end(i + 1)
                if applies:
                    if dirty:
                        self.dirty.add(len(self.spans))
                    self.spans.append((boundary, i + 1, end))
                boundary = pos = end + 1
            else:
                pos, _ = self._skip(tok, i)

    def decls(self, k: int) -> dict[str, Declaration]:
        """The declarations of rule ``k`` that this module reads, found in its block by
        :data:`_DECLARATION_RE` (each value parsed by tinycss2, cached by text), or by
        tinycss2 over the whole block when it holds comments or escapes. Memoized."""
        got = self._decls.get(k)
        if got is None:
            _start, block, end = self.spans[k]
            if k in self.dirty:
                got = _declarations(self.css[block:end])
            else:
                got = {}
                for m in _DECLARATION_RE.finditer(self.css[block:end]):
                    prop = m.group(1).lower()
                    d = _declared_value(prop, m.group(2)).get(prop)
                    if d is None:
                        continue  # (invalid: dropped, as a browser drops it)
                    important = m.group(3) is not None
                    old = got.get(prop)
                    if old is not None and old.important and not important:
                        continue
                    got[prop] = Declaration(prop, d.value, important) if important else d
            self._decls[k] = got
        return got

    def rule(self, k: int) -> tuple[StyleRule, ...]:
        """The parsed :class:`StyleRule` objects of rule ``k`` (one per selector that can
        match an element as loaded; ``order`` = ``k``): its selectors parsed by tinycss2 and
        cssselect2 (cached by text), its declarations from :meth:`decls`. Memoized."""
        got = self._parsed.get(k)
        if got is None:
            decls = self.decls(k)
            start, block, _end = self.spans[k]
            got = tuple(StyleRule(text, spec, k, decls, key, simple)
                        for text, spec, key, simple in _prelude_selectors(self.css[start:block - 1])) if decls else ()
            self._parsed[k] = got
        return got

    def selector_texts(self, k: int) -> tuple[str, ...]:
        """The selectors of rule ``k`` as text, for lexbor, without parsing them when the
        prelude is plain (:data:`_PLAIN_PRELUDE_RE`); those for states the page is not in,
        and pseudo-elements, left out."""
        start, block, _end = self.spans[k]
        prelude = self.css[start:block - 1]
        if not _PLAIN_PRELUDE_RE.fullmatch(prelude):
            return tuple(r.selector for r in self.rule(k))
        parts = [part.strip() for part in prelude.split(",")]
        if not all(_pseudo_classes_known(p) for p in parts if p):
            return ()
        return tuple(p for p in parts if p and not _PSEUDO_ELEMENT_RE.search(p))

    def triggers(self) -> tuple[set[int], dict[str, tuple]]:
        """What the page-independent part of the hiding test finds in this sheet, computed
        once: the rules holding a declaration that may hide on its own
        (:data:`_MAY_HIDE_RE`: a hiding value or a ``var()``; rules with comments or escapes
        too), and the opaque colours declared (value text -> (is a text colour, sRGB)),
        which :func:`resolve_hidden` compares with the page's other colours."""
        if self._triggers is None:
            static = set(self.dirty)
            for m in _MAY_HIDE_RE.finditer(self.css):
                k = self.rule_at(m.end() - 1)  # (a match may start with the character before)
                if k is not None:
                    static.add(k)
            colours: dict[str, tuple] = {}
            for prop, value in set(_COLOUR_DECLARATION_RE.findall(self.css)):
                prop = prop.lower()
                value = value.rstrip(" \t\n\r\f")
                c = _value_colour(prop, value)
                if c is not None:
                    colours[f"{prop}:{value}"] = (prop in _COLOUR_PROPERTIES, c[:3])
            self._triggers = (static, colours)
        return self._triggers

    def colour_rules(self, wanted: list[tuple[str, str]]) -> set[int]:
        """The rules declaring one of the ``(property, value text)`` pairs ``wanted`` (the
        first :data:`MAX_COLOUR_VALUES` of them)."""
        if not wanted:
            return set()
        wanted = wanted[:MAX_COLOUR_VALUES]
        regex = re2.compile(r"(?i)(?:^|[^\w-])(?:" + "|".join(
            re.escape(prop) + _WS + ":" + _WS + re.escape(value) + _WS + r"(?:[;{}!]|$)"
            for prop, value in wanted) + ")")
        out = set()
        for m in regex.finditer(self.css):
            k = self.rule_at(m.end() - 1)
            if k is not None:
                out.add(k)
        return out

    def hides_alone(self, k: int, custom: dict | None = None, custom_text: dict | None = None) -> tuple[str, ...]:
        """The selectors (text) of rule ``k`` when its declarations may hide on their own
        (:func:`_is_trigger` with no colours to compare; ``var()`` judged by the page's
        custom property values ``custom``), else ``()``. Memoized unless ``var()`` is used."""
        got = self._hides_alone.get(k)
        if got is None:
            decls = self.decls(k)
            if decls and custom is not None and any(_uses_var(d) for d in decls.values()):
                return self.selector_texts(k) if _var_rule_hides(decls, custom, custom_text or {}) else ()
            got = self.selector_texts(k) if decls and _is_trigger(decls, set(), set()) else ()
            self._hides_alone[k] = got
        return got

    def custom_values(self) -> dict[str, set[str]]:
        """Every value text the sheet declares for each custom property (memoized)."""
        if self._custom is None:
            out: dict[str, set[str]] = {}
            for name, value in set(_CUSTOM_DECLARATION_RE.findall(self.css)):
                out.setdefault(name, set()).add(value.strip(" \t\n\r\f"))
            self._custom = out
        return self._custom

    def rule_at(self, offset: int) -> int | None:
        """The rule whose block holds character ``offset``, or ``None``."""
        k = bisect.bisect_right(self.starts, offset) - 1
        if k >= 0 and self.spans[k][1] <= offset <= self.spans[k][2]:
            return k
        return None

    def keys(self, prop: str | None = None) -> dict[tuple, list[tuple[int, str | None]]]:
        """``(rule number, selector text or None)`` by the key of each selector
        (:attr:`StyleRule.key`), rule numbers ascending; the key is read from the
        prelude's text when it is plain (the selector's text given, so that a rule naming
        classes the page lacks is never parsed), else from the rule parsed by tinycss2
        (text ``None``). With ``prop``, only the rules that may declare that property
        (found by a regex pass; rules with comments or escapes too). Memoized."""
        got = self._keys.get(prop)
        if got is not None:
            return got
        if prop is not None:
            found = set(self.dirty)
            pattern = re.compile(r"(?<![\w-])" + re.escape(prop) + _WS + ":", re.IGNORECASE)
            rule_at = self.rule_at
            for m in pattern.finditer(self.css):
                k = rule_at(m.start())
                if k is not None:
                    found.add(k)
            got = {}
            for key, entries in self.keys().items():
                kept = [e for e in entries if e[0] in found]
                if kept:
                    got[key] = kept
            self._keys[prop] = got
            return got
        got = {}
        css = self.css
        plain = _PLAIN_PRELUDE_RE.fullmatch
        for k, (start, block, _end) in enumerate(self.spans):
            prelude = css[start:block - 1]
            parts = _split_prelude(prelude) if not plain(prelude) else (
                prelude.split(",") if "," in prelude else (prelude,))
            if parts is not None:
                keys = [_group_key(part) for part in parts]
                if None not in keys:
                    for part, key in zip(parts, keys):
                        if key is not False:
                            got.setdefault(key, []).append((k, part.strip(" \t\n\r\f")))
                    continue
            for key in dict.fromkeys(r.key for r in self.rule(k)):
                got.setdefault(key, []).append((k, None))
        self._keys[None] = got
        return got


_GROUP_RE = re.compile(r"\([^()\[\]]*\)|\[[^()\[\]]*\]")
#: Deepest brackets and parentheses removed from a selector's text for its key.
MAX_GROUP_STRIPS = 4


def _strip_groups(text: str, placeholder: str = "") -> str | None:
    """``text`` with its bracketed and parenthesized parts (attribute selectors,
    arguments of pseudo-classes) replaced by ``placeholder``, or ``None`` when they nest
    deeper than :data:`MAX_GROUP_STRIPS` or do not balance."""
    for _ in range(MAX_GROUP_STRIPS):
        if "(" not in text and "[" not in text:
            return None if ")" in text or "]" in text else text
        text = _GROUP_RE.sub(placeholder, text)
    return None


def _split_prelude(prelude: str) -> list[str] | None:
    """A prelude's selectors as text when commas can only separate selectors there (none
    inside brackets or parentheses) and nothing needs the tokenizer (quotes outside
    brackets, escapes, comments); else ``None``."""
    if "\\" in prelude or "/*" in prelude:
        return None
    stripped = _strip_groups(prelude)
    if stripped is None or '"' in stripped or "'" in stripped or stripped.count(",") != prelude.count(","):
        return None
    return prelude.split(",")


def _group_key(part: str) -> tuple | None | bool:
    """:func:`_fast_key` of a selector's text with its brackets and parentheses removed."""
    if "(" in part or "[" in part:
        # (a group becomes an argument-less pseudo-class: "[x]" alone is a compound, "a[x]" keeps "a")
        stripped = _strip_groups(part, ":g")
        if stripped is None:
            return None
        return _fast_key(stripped)
    return _fast_key(part)


def _fast_key(part: str) -> tuple | None | bool:
    """The key (:attr:`StyleRule.key`) of one plain selector's text by string operations
    (as :func:`_plain_selector` reads it), ``False`` for an empty part, ``None`` when
    the text is odd (then it is parsed)."""
    part = part.strip(" \t\n\r\f")
    if not part:
        return False
    cut = max(part.rfind(" "), part.rfind(">"), part.rfind("+"), part.rfind("~"),
              part.rfind("\t"), part.rfind("\n"), part.rfind("\r"), part.rfind("\f"))
    last = part[cut + 1:]
    if not last:
        return None
    hash_at = last.find("#")
    if hash_at >= 0:
        ident = last[hash_at + 1:]
        for stop in ".:#":
            i = ident.find(stop)
            if i >= 0:
                ident = ident[:i]
        return ("#", ident.lower()) if ident else None
    dot = last.find(".")
    if dot >= 0:
        cls = last[dot + 1:]
        for stop in ".:#":
            i = cls.find(stop)
            if i >= 0:
                cls = cls[:i]
        return (".", cls.lower()) if cls else None
    tag, _, pseudo = last.partition(":")
    if tag in ("", "*"):
        return ("tag", "html") if pseudo and any(p.lower() == "root" for p in pseudo.split(":")) else ("*",)
    if not (tag[0].isascii() and tag[0].isalpha()):
        return None
    return ("tag", tag.lower())


_PSEUDO_ELEMENT_RE = re.compile(r"::|:(?:before|after|first-line|first-letter)\b", re.IGNORECASE)
#: A prelude of plain selectors: type, class and id selectors, ``*``, combinators, commas
#: and pseudo-classes without arguments (anything else is parsed by tinycss2).
_PLAIN_PRELUDE_RE = re.compile(r"[\sA-Za-z0-9_\-.#*>+~,:\u00a0-\uffff]*")
#: One compound of a plain selector: an optional type (or ``*``), then classes, ids and
#: argument-less pseudo-classes.
_PLAIN_COMPOUND_RE = re.compile(r"(\*|[A-Za-z][\w-]*)?((?:[.#][\w\-\u00a0-\uffff]+|:[\w-]+)*)")
_PLAIN_PIECE_RE = re.compile(r"([.#:])([\w\-\u00a0-\uffff]+)")
_COMBINATORS_RE = re.compile(r"[ \t\n\r\f]*[>+~][ \t\n\r\f]*|[ \t\n\r\f]+")


@lru_cache(maxsize=16384)
def _plain_selector(part: str) -> tuple | None:
    """``(text, specificity, key, simple)`` of one selector of a plain prelude (see
    :class:`StyleRule`) read from its text (Selectors 4 §17: ids, then classes and
    pseudo-classes, then types), or ``None`` when it is not plain after all (tinycss2 and
    cssselect2 read it then)."""
    compounds = _COMBINATORS_RE.split(part.strip())
    ids = classes = types = 0
    tag = ident = None
    cls: list[str] = []
    pseudo = False
    for i, compound in enumerate(compounds):
        m = _PLAIN_COMPOUND_RE.fullmatch(compound)
        if m is None or not compound:
            return None
        last = i == len(compounds) - 1
        if m.group(1) and m.group(1) != "*":
            types += 1
            if last:
                tag = m.group(1).lower()
        for kind, name in _PLAIN_PIECE_RE.findall(m.group(2) or ""):
            if kind == "#":
                ids += 1
                if last and ident is None:
                    ident = name
            else:
                classes += 1
                if kind == "." and last:
                    cls.append(name)
                elif kind == ":" and last:
                    pseudo = True
                    if name.lower() in ("root",):
                        tag = tag or "html"
    key: tuple = ("#", ident.lower()) if ident else (".", cls[0].lower()) if cls else ("tag", tag) if tag else ("*",)
    simple = (tag, frozenset(cls), ident) if len(compounds) == 1 and not pseudo else None
    return (part.strip(), (ids, classes, types), key, simple)


def _plain_key(part: str) -> tuple:
    """The key (:attr:`StyleRule.key`) of one plain selector's text."""
    got = _plain_selector(part)
    return got[2] if got is not None else ("*",)


#: A declaration of a property this module reads, and its value (to ``;``, ``}`` or ``!``).
_DECLARATION_RE = re.compile(
    r"(?<![\w-])(" + "|".join(sorted((re.escape(p) for p in PROPERTIES), key=len, reverse=True))
    + r"|--[\w-]+)[ \t\n\r\f]*:[ \t\n\r\f]*([^;{}!]*)(![ \t\n\r\f]*important)?", re.IGNORECASE)


_WS = r"[ \t\n\r\f]*"
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


@lru_cache(maxsize=16)
def read_stylesheet(css: str) -> Sheet:
    """The :class:`Sheet` of a stylesheet's text. Cached (pages of a site share them)."""
    return Sheet(css)


def all_rules(css: str) -> tuple[StyleRule, ...]:
    """Every :class:`StyleRule` of a stylesheet (parses all of it: for tests and tools)."""
    sheet = read_stylesheet(css)
    return tuple(r for k in range(len(sheet.spans)) for r in sheet.rule(k))


def hiding_rules(css: str) -> tuple[str, ...]:
    """Selector texts of the rules of ``css`` that declare ``display: none`` or
    ``visibility: hidden | collapse`` (no cascade: what each rule says on its own)."""
    return tuple(r.selector for r in all_rules(css)
                 if _display_none(r.declarations.get("display")) or _visibility_hidden(r.declarations.get("visibility")))


# --- values -----------------------------------------------------------------------------


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


# --- one element's style ----------------------------------------------------------------


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


# --- inline styles alone (the parse stage's early drop) ----------------------------------


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
    ``inline``: the element is inline-level by its tag (:data:`INLINE_TAGS`: width,
    height and transforms do not apply unless the style changes its display). ``var()``
    references are left to :func:`resolve_hidden`. Cached."""
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


# --- the resolver -----------------------------------------------------------------------


@dataclass
class StyleVerdicts:
    """What the page's styles hide: ``drop`` (lexbor ``mem_id`` -> (lexbor node, reason)):
    elements shown not at all; ``mute`` (``mem_id`` -> (lexbor node, reason)): elements
    whose own text is invisible while some descendant shows its own."""

    drop: dict[int, tuple[object, str]] = field(default_factory=dict)
    mute: dict[int, tuple[object, str]] = field(default_factory=dict)
    #: the page's hiding rules as one selector list lexbor accepts (those naming classes
    #: the page lacks included), and a test of ``style`` attributes that may hide: what a
    #: removal log checks before showing text of an element it left out
    selectors: str = ""
    styled: object = None


def _attrs(lnode) -> dict[str, str]:
    return {k: v or "" for k, v in lnode.attributes.items()}


class _Resolver:
    """The cascade over a lexbor tree for the properties of this module, element by
    element on demand, each element once (memoized by ``mem_id``). ``sheets``: the page's
    :class:`Sheet` objects in document order."""

    def __init__(self, tree, sheets: list[Sheet], self_contained: bool, usable=None) -> None:
        self.tree = tree
        self.matched: dict[str, set[int]] = {}  # selector -> mem_id of the elements it matches
        self.sheets = sheets
        self.usable = usable  # usable(selector) -> False: it cannot match this document
        self.usable_memo: dict[str, bool] = {}
        self.key_rules: dict[tuple, list[tuple[int, StyleRule]]] = {}
        self.checks = 0  # selectors run by lexbor over the document (bounded: MAX_SELECTOR_CHECKS)
        self.offsets = []
        offset = 0
        for sheet in sheets:
            self.offsets.append(offset)
            offset += len(sheet.spans) + 1
        self.self_contained = self_contained
        self.honour: set[int] = set()
        self.reveals = any(_VISIBLE_AGAIN_RE.search(sheet.css) for sheet in sheets) or any(
            _VISIBLE_AGAIN_RE.search(n.attributes.get("style") or "") for n in tree.css('[style*="visib" i]'))
        self.cascaded: dict[int, dict[str, Declaration]] = {}
        self.cascaded_state: dict[int, dict[str, Declaration]] = {}
        self.inherited: dict[int, _Inherited] = {}
        root = _Inherited()
        if self_contained:  # the initial colours: black text on the white canvas (CSS Color 4 §4.1)
            root.colour = (0.0, 0.0, 0.0, 1.0)
            root.background = (1.0, 1.0, 1.0, 1.0)
        self.root_state = root

    def _keyed(self, key: tuple, state: bool, prop: str | None = None) -> list[tuple[int, StyleRule]]:
        """(global order, rule) of the rules of every sheet whose selector has ``key`` and
        can match this document (``usable``); with ``state``, only those that may declare
        what the inherited state reads; with ``prop``, only those declaring it.
        Memoized per page."""
        memo_key = (key, state, prop)
        got = self.key_rules.get(memo_key)
        if got is not None:
            return got
        got = []
        usable = self.usable
        for sheet, offset in zip(self.sheets, self.offsets):
            seen: set[int] = set()
            for k, part in sheet.keys(prop).get(key, ()):
                if k in seen:
                    continue
                if part is not None and usable is not None and not self._usable(part):
                    continue  # names a class or id the page lacks: never parsed
                seen.add(k)
                decls = sheet.decls(k)
                if state and not _reads_state(decls) or prop is not None and prop not in decls:
                    continue
                for r in sheet.rule(k):
                    if r.key != key:
                        continue
                    if usable is not None and r.simple is None and not self._usable(r.selector):
                        continue
                    got.append((offset + k, r))
        self.key_rules[memo_key] = got
        return got

    def _usable(self, selector: str) -> bool:
        ok = self.usable_memo.get(selector)
        if ok is None:
            ok = self.usable_memo[selector] = self.usable(selector)
        return ok

    def _matching(self, lnode, attrs: dict[str, str], state: bool,
                  prop: str | None = None) -> list[tuple[int, StyleRule]]:
        """(global order, rule) of every rule matching the element; with ``state``, of the
        rules that may declare what the inherited state reads; with ``prop``, of those
        declaring that property (:meth:`Sheet.keys`)."""
        tag = lnode.tag
        ident = attrs.get("id")
        classes = attrs.get("class", "").split()
        # keys compare without case (a document in quirks mode matches classes and ids
        # so); whether a rule applies is then decided exactly
        wanted = [("*",), ("tag", tag)]
        if ident:
            wanted.append(("#", ident.lower()))
        if classes:
            wanted += [(".", c) for c in dict.fromkeys(c.lower() for c in classes)]
        out = []
        class_set = None
        seen: set[int] = set()
        for key in wanted:
            for order, r in self._keyed(key, state, prop):
                if id(r) in seen:
                    continue
                seen.add(id(r))
                simple = r.simple
                if simple is not None:
                    t, cls, i = simple
                    if class_set is None:
                        class_set = set(classes)
                    if (not t or t == tag) and (not i or i == ident) and (not cls or cls <= class_set):
                        out.append((order, r))
                        continue
                    if t and t != tag:
                        continue  # (a type selector's case never matters in HTML)
                if not self._exact(lnode, r.selector):
                    continue
                out.append((order, r))
        return out

    def _exact(self, lnode, selector: str) -> bool:
        """Whether lexbor matches ``selector`` on this element (one pass over the document
        per selector: its per-node test reports matches anywhere in the node's subtree)."""
        found = self.matched.get(selector)
        if found is None:
            self.checks += 1
            try:
                found = {n.mem_id for n in self.tree.css(tame_has(selector))}
            except Exception:  # noqa: BLE001 - a selector lexbor cannot read matches nothing
                found = set()
            self.matched[selector] = found
        return lnode.mem_id in found

    def declared(self, lnode, full: bool = False) -> dict[str, Declaration]:
        """The cascaded declarations of an element (custom properties included, ``var()``
        not yet substituted): of every property this module reads when ``full``, else of
        those the inherited state needs (:data:`_STATE_PROPERTIES`)."""
        key = lnode.mem_id
        got = self.cascaded.get(key)
        if got is not None:
            return got
        if not full:
            got = self.cascaded_state.get(key)
            if got is not None:
                return got
        attrs = _attrs(lnode)
        ranked: dict[str, tuple[tuple, Declaration]] = {}
        for order, r in self._matching(lnode, attrs, not full):
            for name, d in r.declarations.items():
                rank = (d.important, 0, r.specificity, order)
                old = ranked.get(name)
                if old is None or rank > old[0]:
                    ranked[name] = (rank, d)
        style = attrs.get("style")
        if style:
            inline_decls = read_style_attribute(style) if key in self.honour else _inline_for_cascade(style)
            for name, d in inline_decls.items():
                rank = (d.important, 1, (0, 0, 0), 0)
                old = ranked.get(name)
                if old is None or rank > old[0]:
                    ranked[name] = (rank, d)
        got = {name: d for name, (_, d) in ranked.items()}
        (self.cascaded if full else self.cascaded_state)[key] = got
        return got

    def declared_one(self, lnode, prop: str) -> Declaration | None:
        """The cascaded declaration of one property of an element (``var()`` not
        substituted), reading only the rules that declare it."""
        got = self.cascaded.get(lnode.mem_id)
        if got is not None:
            return got.get(prop)
        attrs = _attrs(lnode)
        best: tuple | None = None
        for order, r in self._matching(lnode, attrs, False, prop):
            d = r.declarations[prop]
            rank = (d.important, 0, r.specificity, order)
            if best is None or rank > best[0]:
                best = (rank, d)
        style = attrs.get("style")
        if style:
            d = (read_style_attribute(style) if lnode.mem_id in self.honour else _inline_for_cascade(style)).get(prop)
            if d is not None:
                rank = (d.important, 1, (0, 0, 0), 0)
                if best is None or rank > best[0]:
                    best = (rank, d)
        return best[1] if best is not None else None

    def state(self, lnode) -> _Inherited:
        """The inherited state at an element (ancestors resolved first, iteratively)."""
        chain = []
        n = lnode
        while n is not None and n.tag and n.tag[0] != "-" and n.mem_id not in self.inherited:
            chain.append(n)
            n = n.parent
        parent = self.inherited.get(n.mem_id, self.root_state) if n is not None else self.root_state
        for el in reversed(chain):
            decls = self.declared(el)
            custom = parent.custom
            own = {k: v for k, v in decls.items() if k.startswith("--")}
            if own:
                custom = dict(custom)
                for k, v in own.items():
                    value = tuple(t for t in v.value if t.type not in ("whitespace", "comment"))
                    if any(t.type == "function" for t in value):
                        value = _substitute(value, parent.custom)
                    if value is None:
                        custom.pop(k, None)
                    else:
                        custom[k] = value
            st = _inherit(parent, _resolved(decls, custom), custom)
            if el.tag == "html":
                st.root_px = st.font_px  # (rem: the root element's font size)
            if el.tag in ("html", "body") and not self.reveals:
                # the whole page hidden until a script or web font has loaded is a loading
                # state (the flash-of-unstyled-content guard), not hidden text; not when the
                # page's styles show parts of it again (then the rest is hidden on purpose)
                st.hidden = parent.hidden
                if st.background is None:
                    st.background = parent.background
            self.inherited[el.mem_id] = st
            parent = st
        return parent

    def resolved(self, lnode) -> dict[str, Declaration]:
        """The element's cascaded declarations with ``var()`` substituted."""
        return _resolved(self.declared(lnode, full=True), self.state(lnode).custom)


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
    somewhere (or the reverse), or a ``var()`` in a property this module reads (any, when
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
_BACKGROUND_PROPERTIES = frozenset({"background", "background-color"})


@lru_cache(maxsize=8192)
def _declared_value(prop: str, value: str) -> dict[str, Declaration]:
    """One declaration read from the structural scan's text, parsed by tinycss2."""
    return read_style_attribute(f"{prop}:{value}")


@lru_cache(maxsize=16384)
def _value_colour(prop: str, value: str) -> tuple | None:
    decls = _declared_value(prop, value)
    if prop in _COLOUR_PROPERTIES:
        d = decls.get(prop)
        return _colour(d.value) if d is not None else None
    bg = _background(decls)
    return bg if isinstance(bg, tuple) else None


@lru_cache(maxsize=16384)
def _value_may_hide_alone(prop: str, value: str) -> bool:
    if prop.startswith("--"):
        return False
    if "var(" in value.lower():
        return True
    return _is_trigger(_declared_value(prop, value), set(), set())


def _value_may_hide(prop: str, value: str, colours: set, backgrounds: set) -> bool:
    """Whether one declaration (property, value text) may hide something (see
    :func:`_is_trigger`): the rule holding it is then parsed."""
    if _value_may_hide_alone(prop, value):
        return True
    if prop in _COLOUR_PROPERTIES:
        c = _value_colour(prop, value)
        return c is not None and c[:3] in backgrounds
    if prop in _BACKGROUND_PROPERTIES:
        c = _value_colour(prop, value)
        return c is not None and c[:3] in colours
    return False


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


def _colour_conflicts(tree, inks: dict, painters: dict, inline: list, lexbor_matches,
                      self_contained: bool) -> list:
    """The elements whose text may be painted in its background's colour: those a rule or
    style attribute gives a text colour or a background, where some text colour declared
    on it or an ancestor equals some background declared on it or an ancestor (with the
    initial black text on the white canvas when the page's styles are all known). A
    superset of the elements :func:`_text_reason` finds so (each rule counts whatever
    overrides it); the cascade then decides. One lexbor pass per colour."""
    ink_of: dict[int, set] = {}
    paint_of: dict[int, set] = {}
    nodes: dict[int, object] = {}
    # (one lexbor pass per colour: the colours declared by the most rules first, at most
    # MAX_CONFLICT_COLOURS of each kind)
    inks = dict(sorted(inks.items(), key=lambda kv: -len(kv[1]))[:MAX_CONFLICT_COLOURS])
    painters = dict(sorted(painters.items(), key=lambda kv: -len(kv[1]))[:MAX_CONFLICT_COLOURS])
    for colour, selectors in inks.items():
        for n in lexbor_matches(selectors):
            ink_of.setdefault(n.mem_id, set()).add(colour)
            nodes[n.mem_id] = n
    for colour, selectors in painters.items():
        for n in lexbor_matches(selectors):
            paint_of.setdefault(n.mem_id, set()).add(colour)
            nodes[n.mem_id] = n
    for n, s in inline:
        decls = read_style_attribute(s)
        if (c := _text_colour(decls)) is not None:
            ink_of.setdefault(n.mem_id, set()).add(c)
            nodes[n.mem_id] = n
        if (c := _paint(decls)) is not None:
            paint_of.setdefault(n.mem_id, set()).add(c)
            nodes[n.mem_id] = n
    base = (frozenset({(0.0, 0.0, 0.0)}), frozenset({(1.0, 1.0, 1.0)})) if self_contained else (frozenset(), frozenset())
    memo: dict[int, tuple[frozenset, frozenset]] = {}

    def scope(n) -> tuple[frozenset, frozenset]:
        chain = []
        while n is not None and n.mem_id not in memo:
            chain.append(n)
            n = n.parent
        got = memo[n.mem_id] if n is not None else base
        for el in reversed(chain):
            k = el.mem_id
            if k in ink_of or k in paint_of:
                got = (got[0] | ink_of.get(k, frozenset()), got[1] | paint_of.get(k, frozenset()))
            memo[k] = got
        return got

    return [n for n in nodes.values() if not scope(n)[0].isdisjoint(scope(n)[1])]


def _collect_colours(sheets: list[Sheet], styles: Iterable[str], self_contained: bool) -> tuple[set, set]:
    """The text colours and background colours (sRGB) the page declares anywhere (with the
    initial black on white when its styles are all known)."""
    colours: set = set()
    backgrounds: set = set()
    if self_contained:
        colours.add((0.0, 0.0, 0.0))
        backgrounds.add((1.0, 1.0, 1.0))
    for sheet in sheets:
        for is_text, c in sheet.triggers()[1].values():
            (colours if is_text else backgrounds).add(c)
    for style in styles:
        decls = read_style_attribute(style)
        for name in _COLOUR_PROPERTIES:
            if name in decls and (c := _colour(decls[name].value)) is not None:
                colours.add(c[:3])
        bg = _background(decls)
        if isinstance(bg, tuple):
            backgrounds.add(bg[:3])
    return colours, backgrounds


_MEDIA_TAGS = frozenset({"img", "picture", "video", "svg", "canvas", "iframe", "object", "embed", "audio"})


def _walk_text(res: _Resolver, top, reason: str, verdicts: StyleVerdicts, walked: set[int]) -> None:
    """Settle the subtree of ``top``, whose own text is invisible for ``reason`` (a text
    reason): descendants that declare their way back to visible text keep it. ``top`` is
    dropped when nothing in it shows (images show unless ``visibility`` hides them);
    otherwise the outermost descendants showing nothing are dropped and the elements with
    invisible text of their own are muted. Every element walked joins ``walked``."""
    order: list = []
    stack = [top]
    while stack:
        n = stack.pop()
        order.append(n)
        walked.add(n.mem_id)
        child = n.last_child
        while child is not None:
            if child.tag and child.tag[0] != "-":
                stack.append(child)
            child = child.prev
    shows: dict[int, bool] = {}
    muted: list = []
    for n in reversed(order):  # children before parents
        st = res.state(n)
        own_hidden = _text_reason(st) is not None
        visible = n.tag in _MEDIA_TAGS and not st.hidden
        has_text = False
        child = n.child
        while child is not None:
            tag = child.tag
            if tag == "-text":
                if not has_text and (child.text_content or "").strip():
                    has_text = True
            elif tag and tag[0] != "-" and shows.get(child.mem_id, False):
                visible = True
            child = child.next
        if has_text and not own_hidden:
            visible = True
        shows[n.mem_id] = visible
        if own_hidden and has_text and visible:
            muted.append(n)
    if not shows[top.mem_id]:
        verdicts.drop[top.mem_id] = (top, reason)
        return
    for n in order:
        if n is not top and not shows[n.mem_id] and shows.get(n.parent.mem_id, False):
            verdicts.drop[n.mem_id] = (n, reason)
    for n in muted:
        verdicts.mute[n.mem_id] = (n, reason)


#: Largest stylesheet read from a ``data:`` URL, in bytes once decoded.
MAX_DATA_STYLESHEET_BYTES = 2 * 1024 * 1024


def page_stylesheets(tree) -> tuple[list[str], bool]:
    """The page's stylesheets a browser applies at the reference window, in document
    order, and whether they are all of its styles: ``<style>`` elements with no ``type``
    or ``type="text/css"`` whose ``media`` matches (HTML §4.2.6), and
    ``<link rel=stylesheet>`` with a ``data:`` URL (decoded, RFC 2397: nothing is
    fetched); any other linked stylesheet makes the set incomplete."""
    out: list[str] = []
    complete = True
    for n in tree.css('style, link[rel~="stylesheet" i]'):
        attrs = n.attributes
        media = (attrs.get("media") or "").strip()
        if media and media_query_matches(media.lower()) is False:
            continue
        if n.tag == "style":
            kind = (attrs.get("type") or "").strip().lower()
            if kind in ("", "text/css"):
                out.append(n.text(deep=True))
            continue
        if "disabled" in attrs or "alternate" in (attrs.get("rel") or "").lower().split():
            continue
        href = (attrs.get("href") or "").strip()
        text = _data_url_text(href) if href[:5].lower() == "data:" else None
        if text is None:
            complete = False
        else:
            out.append(text)
    return out, complete


def _data_url_text(url: str) -> str | None:
    """The text of a ``data:`` URL of CSS (RFC 2397: percent-encoded or base64), or
    ``None`` when it is not one or is too large."""
    import base64
    from urllib.parse import unquote_to_bytes

    head, sep, body = url[5:].partition(",")
    if not sep:
        return None
    params = [p.strip().lower() for p in head.split(";")]
    if params[0] not in ("", "text/css"):
        return None
    if len(body) > MAX_DATA_STYLESHEET_BYTES * 3:
        return None
    try:
        data = base64.b64decode(body, validate=False) if "base64" in params[1:] else unquote_to_bytes(body)
    except ValueError:
        return None
    if len(data) > MAX_DATA_STYLESHEET_BYTES:
        return None
    return data.decode("utf-8", "replace")


def resolve_hidden(tree, styles: list[str] | None, *, classes: set[str] | None = None, ids: set[str] | None = None,
                   applicable=None, combine=None, faded=None, keep=None,
                   honour: set[int] | None = None) -> StyleVerdicts:
    """What the page's CSS hides (see the module docstring), as :class:`StyleVerdicts`.

    Args:
        tree: the lexbor document (``selectolax.lexbor.LexborHTMLParser``).
        styles: the page's stylesheets in document order, or ``None`` to read them from
            the tree (:func:`page_stylesheets`).
        classes, ids: the (lower-cased) class names and ids the page uses; with
            ``applicable(selectors, classes, ids)``, rules that cannot match are skipped
            before lexbor runs them.
        combine: ``combine(tree, selectors) -> str``: one selector list lexbor accepts.
        faded: ``faded(lnode, decls) -> bool``: a zero opacity on this element is a
            fade-in start state, not hiding.
        honour: lexbor ``mem_id`` of elements whose own inline ``visibility: hidden`` the
            cascade reads (elsewhere an inline collapsed state was judged while the tree
            was built, see :func:`_inline_for_cascade`).
        keep: ``keep(lnode, reason) -> bool``: elements kept although ``reason`` hides them
            (``reason`` ``None``: never judged at all: ``<html>``, ``<body>``...).

    Cost: one lexbor pass over the page for the hiding rules, then the cascade for the
    elements those rules or their ``style`` attributes name (and their ancestors and, for
    inherited properties, descendants), each element once.
    """
    verdicts = StyleVerdicts()
    if styles is None:
        styles, complete = page_stylesheets(tree)
    else:
        complete = tree.css_first('link[rel~="stylesheet" i]') is None
    sheets = [read_stylesheet(css) for css in styles if css and not css.isspace()]
    sheets = [sheet for sheet in sheets if sheet.spans]
    inline = [(n, n.attributes.get("style") or "") for n in tree.css("[style]")]
    inline = [(n, s) for n, s in inline if s and not s.isspace()]
    if not sheets and not inline:
        return verdicts
    self_contained = complete and not any(sheet.imports for sheet in sheets)
    colours, backgrounds = _collect_colours(sheets, [s for _, s in inline], self_contained)
    triggers: list[tuple[str, dict]] = []  # (selector, declarations) that may hide on their own
    painters: dict[tuple, list[str]] = {}  # background colour -> selectors declaring it
    inks: dict[tuple, list[str]] = {}  # text colour -> selectors declaring it
    custom: dict[str, tuple[tuple, ...]] = {}
    gathered: dict[str, set[str]] = {}
    for sheet in sheets:
        for name, values in sheet.custom_values().items():
            gathered.setdefault(name, set()).update(values)
    for _n, s in inline:
        for name, d in read_style_attribute(s).items():
            if name.startswith("--"):
                gathered.setdefault(name, set()).add(d.text)
    custom_text: dict[str, tuple[str, ...]] = {}
    for name, values in gathered.items():
        custom_text[name] = tuple(sorted(values)[:MAX_VAR_VARIANTS])
        custom[name] = tuple(_value_tokens(v) for v in custom_text[name])
    for sheet in sheets:
        static, declared_colours = sheet.triggers()
        for k in sorted(static):
            for selector in sheet.hides_alone(k, custom, custom_text):
                triggers.append((selector, sheet.decls(k)))
        if colours & backgrounds:
            wanted = [tuple(text.split(":", 1)) for text, (is_text, c) in declared_colours.items()
                      if c in (backgrounds if is_text else colours)]
            for k in sorted(sheet.colour_rules(wanted)):
                if k in static and sheet.hides_alone(k):
                    continue  # (a candidate already)
                for r in sheet.rule(k):
                    for colour, by in ((_text_colour(r.declarations), inks), (_paint(r.declarations), painters)):
                        if colour is not None:
                            by.setdefault(colour, []).append(r.selector)

    def lexbor_matches(selectors: list[str]) -> list:
        selectors = list(dict.fromkeys(selectors))
        if applicable is not None and classes is not None and ids is not None:
            selectors = applicable(selectors, classes, ids)
        if len(selectors) > MAX_HIDING_SELECTORS:
            # lexbor's work is elements x selectors: refused rather than read in part
            raise InputTooComplexError(
                f"unreadable input: {len(selectors)} CSS rules that may hide text apply to the page "
                f"(limit {MAX_HIDING_SELECTORS})")
        selectors = [tame_has(sel) for sel in selectors]
        combined = combine(tree, selectors) if combine is not None else ", ".join(selectors)
        return tree.css(combined) if combined else []

    verdicts.styled = _style_may_hide
    if triggers:
        everything = list(dict.fromkeys(tame_has(sel) for sel, _ in triggers))
        verdicts.selectors = combine(tree, everything) if combine is not None else ", ".join(everything)
    candidates: dict[int, object] = {}
    if triggers:
        for n in lexbor_matches([sel for sel, _ in triggers]):
            candidates[n.mem_id] = n
    inline_triggers: dict[str, bool] = {}  # (style texts repeat down a page)
    for n, s in inline:
        if honour and n.mem_id in honour:
            candidates[n.mem_id] = n
            continue
        hit = inline_triggers.get(s)
        if hit is None:
            hit = inline_triggers[s] = _is_trigger(_inline_for_cascade(s), set(), set(), custom)
        if hit:
            candidates[n.mem_id] = n
    contextual: set[int] = set()  # candidates whose text colour may equal their background
    if colours & backgrounds:
        for n in _colour_conflicts(tree, inks, painters, inline, lexbor_matches, self_contained):
            candidates.setdefault(n.mem_id, n)
            contextual.add(n.mem_id)
    if not candidates:
        return verdicts
    usable = None
    if applicable is not None and classes is not None and ids is not None:
        usable = lambda sel: bool(applicable([sel], classes, ids))  # noqa: E731
    res = _Resolver(tree, sheets, self_contained, usable)
    res.honour = honour or set()
    depth: dict[int, int] = {}
    ordered = sorted(candidates.values(), key=lambda n: _depth(n, depth))  # ancestors first
    walked: set[int] = set()
    covered: dict[int, bool] = {}  # element -> it or an ancestor is dropped
    alone: dict[int, str | None] | None = None
    for n in ordered:
        if keep is not None and keep(n, None):
            # never dropped nor muted (<html>, <body>), but text it makes invisible for
            # its descendants (a tiny root font size) is settled below it
            if n.mem_id not in walked and not _under(n, verdicts.drop, covered) and \
                    (text := _text_reason(res.state(n))) is not None:
                walked.add(n.mem_id)
                child = n.child
                while child is not None:
                    if child.tag and child.tag[0] != "-" and child.mem_id not in walked:
                        _walk_text(res, child, text, verdicts, walked)
                    child = child.next
            continue
        if _under(n, verdicts.drop, covered):
            continue
        if res.checks > MAX_SELECTOR_CHECKS:  # out of budget: the naming rules alone decide
            if alone is None:
                alone = _hidden_alone(tree, triggers, inline, combine)
            reason = alone.get(n.mem_id)
            if reason is not None:
                verdicts.drop[n.mem_id] = (n, reason)
            continue
        if n.mem_id not in contextual:
            # most candidates are named by a display:none rule: settled by that property's
            # cascade alone when it wins (no var(): nothing else can show the element)
            display = res.declared_one(n, "display")
            if display is not None and _display_none(display):
                if keep is None or not keep(n, "display none"):
                    verdicts.drop[n.mem_id] = (n, "display none")
                continue
        own = res.declared(n, full=True)
        if n.mem_id in contextual or _needs_state(own):
            st = res.state(n)
            decls = _resolved(own, st.custom)
        else:  # nothing inherited matters: no var(), no relative length, no text property
            st = None
            decls = own
        reason = _box_reason(n.tag, decls, st.font_px if st is not None else ROOT_FONT_PX,
                             faded=(lambda d, n=n: faded(n, d)) if faded is not None else None)
        if reason is not None:
            if keep is None or not keep(n, reason):
                verdicts.drop[n.mem_id] = (n, reason)
            continue
        if n.mem_id in walked or st is None:
            continue  # its text was settled by an ancestor's walk (or nothing hides it)
        text = _text_reason(st)
        if text is not None and (keep is None or not keep(n, text)):
            _walk_text(res, n, text, verdicts, walked)
    return verdicts


def _hidden_alone(tree, triggers: list[tuple[str, dict]], inline: list, combine) -> dict[int, str | None]:
    """The elements that a hiding rule or style attribute hides on its own (no cascade,
    no inheritance), with the reason: the fallback past :data:`MAX_SELECTOR_CHECKS`."""
    out: dict[int, str | None] = {}
    by_reason: dict[str, list[str]] = {}
    for sel, decls in triggers:
        reason = _box_reason("div", _resolved(decls, {}), ROOT_FONT_PX) or _text_reason(
            _inherit(_Inherited(), _resolved(decls, {}), {}))
        if reason is not None:
            by_reason.setdefault(reason, []).append(sel)
    for reason, selectors in by_reason.items():  # one pass over the document per reason
        selectors = [tame_has(sel) for sel in dict.fromkeys(selectors)]
        selector = combine(tree, selectors) if combine is not None else ", ".join(selectors)
        if selector:
            for n in tree.css(selector):
                out.setdefault(n.mem_id, reason)
    for n, s in inline:
        reason = style_hides(s)
        if reason is not None:
            out.setdefault(n.mem_id, reason)
    return out


#: A declaration that shows an element again below a hidden ancestor.
_VISIBLE_AGAIN_RE = re.compile(r"visibility" + _WS + ":" + _WS + "visible", re.IGNORECASE)


def tame_has(selector: str) -> str:
    """``selector`` with the argument of each ``:has()`` cut to its last compound
    (``div:has(ul li a)`` -> ``div:has(a)``): lexbor's ``:has()`` with combinators inside
    takes time exponential in their number on a deep tree, its last compound alone is
    linear. The cut matches a superset (an element with a descendant matching the whole
    argument has one matching its last compound)."""
    low = selector.lower()
    if ":has(" not in low:
        return selector
    out: list[str] = []
    i = 0
    while True:
        j = low.find(":has(", i)
        if j < 0:
            out.append(selector[i:])
            return "".join(out)
        start = j + 5
        depth, k = 1, start
        while k < len(selector) and depth:
            c = selector[k]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            k += 1
        if depth:
            return selector  # unbalanced: lexbor refuses it anyway
        arg = selector[start:k - 1]
        out.append(selector[i:start])
        out.append(_last_compound(arg) or arg)
        out.append(")")
        i = k


def _last_compound(arg: str) -> str:
    """The last compound of a relative selector's text (outside brackets and parentheses)."""
    depth = 0
    cut = -1
    for idx, c in enumerate(arg):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and c in " \t\n\r\f>+~,":
            cut = idx
    if "," in arg:
        return ""  # a list: left whole
    last = arg[cut + 1:].strip()
    return tame_has(last) if last else ""


def _style_may_hide(style: str) -> bool:
    """Whether a ``style`` attribute may hide its element (a hiding value or a ``var()``)."""
    return bool(style) and (style_hides(style) is not None or "var(" in style.lower())


def _depth(n, memo: dict[int, int]) -> int:
    """Depth of a lexbor node (memoized, iterative)."""
    chain = []
    while n is not None and n.mem_id not in memo:
        chain.append(n)
        n = n.parent
    d = memo[n.mem_id] if n is not None else -1
    for el in reversed(chain):
        d += 1
        memo[el.mem_id] = d
    return d


def _under(n, dropped: dict, covered: dict[int, bool]) -> bool:
    """Whether an ancestor of ``n`` is in ``dropped`` (memoized in ``covered``: linear
    over all calls, ancestors being judged before their descendants)."""
    path = []
    a = n.parent
    found = False
    while a is not None:
        k = a.mem_id
        if k in dropped:
            found = True
            break
        if k in covered:
            found = covered[k]
            break
        path.append(k)
        a = a.parent
    for k in path:
        covered[k] = found
    return found
