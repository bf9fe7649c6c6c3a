"""A stylesheet split into its style rules by a linear structural scan (:class:`Sheet`),
each rule parsed only when a page needs it, and the rules as :class:`StyleRule` objects."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

import re2
import tinycss2

from ..media import media_query_matches
from .declarations import _WS, PROPERTIES, _declarations, _declared_value
from .inherit import _uses_var
from .selectors import (
    _PLAIN_PRELUDE_RE,
    _PSEUDO_ELEMENT_RE,
    _escaped_keys,
    _group_key,
    _prelude_selectors,
    _pseudo_classes_known,
    _split_prelude,
)
from .triggers import (
    _COLOUR_PROPERTIES,
    _MAY_HIDE_RE,
    _is_trigger,
    _value_colour,
    _var_rule_hides,
    colour_declarations,
    custom_declarations,
)
from .values import Declaration, _display_none, _serialize, _visibility_hidden


#: Hiding rules nested deeper than this many conditional groups (``@media``, ``@supports``...)
#: are not read.
MAX_GROUP_NESTING = 8


#: Most declarations found by one regex when looking for a set of colour values.
MAX_COLOUR_VALUES = 256


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
#: A prelude opening with a markup comment delimiter (once whitespace and comments are skipped).
_CDO_CDC_START_RE = re.compile(r"<!--|-->")


def _skip_leading(prelude: str, markup: bool = True) -> str:
    """A prelude without the whitespace, comments and (``markup``) ``<!--``/``-->`` before it."""
    i, n = 0, len(prelude)
    while i < n:
        c = prelude[i]
        if c in " \t\n\r\f":
            i += 1
        elif prelude.startswith("/*", i):
            end = prelude.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif markup and prelude.startswith("<!--", i):
            i += 4
        elif markup and prelude.startswith("-->", i):
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
        imports: the stylesheet has an ``@import`` (styles this package does not see).
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
        self._re2_text: str | bytes | None = None
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
                if applies and stack and _CDO_CDC_START_RE.match(_skip_leading(css[boundary:i], markup=False)):
                    applies_here = False  # (inside a block "<!--" and "-->" are tokens of the selector: invalid)
                else:
                    applies_here = applies
                if applies_here:
                    if dirty:
                        self.dirty.add(len(self.spans))
                    self.spans.append((boundary, i + 1, end))
                boundary = pos = end + 1
            else:
                pos, _ = self._skip(tok, i)

    def prelude(self, k: int) -> str:
        """The prelude of rule ``k`` (its selectors' text), without the comments and
        ``<!--``/``-->`` before it (CSS Syntax 3 §5.4.1: markup comment delimiters around
        a stylesheet are skipped): the comment a stylesheet opens with, or one between
        rules, belongs to no selector."""
        start, block, _end = self.spans[k]
        prelude = self.css[start:block - 1]
        if "<!--" in prelude or "-->" in prelude or (
                "/*" in prelude and not _PLAIN_PRELUDE_RE.fullmatch(prelude)):
            return _skip_leading(prelude)
        return prelude

    def decls(self, k: int) -> dict[str, Declaration]:
        """The declarations of rule ``k`` that this package reads, found in its block by
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
            got = tuple(StyleRule(text, spec, k, decls, key, simple)
                        for text, spec, key, simple in _prelude_selectors(self.prelude(k))) if decls else ()
            self._parsed[k] = got
        return got

    def selector_texts(self, k: int) -> tuple[str, ...]:
        """The selectors of rule ``k`` as text, for lexbor, without parsing them when the
        prelude is plain (:data:`_PLAIN_PRELUDE_RE`); those for states the page is not in,
        and pseudo-elements, left out."""
        prelude = self.prelude(k)
        if not _PLAIN_PRELUDE_RE.fullmatch(prelude):
            return tuple(r.selector for r in self.rule(k))
        parts = [part.strip() for part in prelude.split(",")]
        if not all(parts) or not all(_pseudo_classes_known(p) for p in parts):
            return ()  # (an empty selector in a list, an unknown pseudo-class: the rule is dropped)
        return tuple(p for p in parts if p and not _PSEUDO_ELEMENT_RE.search(p))

    def triggers(self) -> tuple[set[int], dict[str, tuple]]:
        """What the page-independent part of the hiding test finds in this sheet, computed
        once: the rules holding a declaration that may hide on its own
        (:data:`_MAY_HIDE_RE`: a hiding value or a ``var()``; rules with comments or escapes
        too), and the opaque colours declared (value text -> (is a text colour, sRGB)),
        which :func:`.resolve.resolve_hidden` compares with the page's other colours."""
        if self._triggers is None:
            static = set(self.dirty)
            for m in _MAY_HIDE_RE.finditer(self.re2_text):
                k = self.rule_at(m.end() - 1)  # (a match may start with the character before)
                if k is not None:
                    static.add(k)
            colours: dict[str, tuple] = {}
            for prop, value in set(colour_declarations(self.css)):
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
        for m in regex.finditer(self.re2_text):
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
            for name, value in set(custom_declarations(self.css)):
                out.setdefault(name, set()).add(value.strip(" \t\n\r\f"))
            self._custom = out
        return self._custom

    @property
    def re2_text(self) -> str | bytes:
        """The text for RE2 searches (offsets as in :attr:`css`): an ASCII stylesheet as
        bytes, which RE2 reads as they are; given a ``str``, the wrapper encodes it to UTF-8
        on every search and converts the offsets of every match back."""
        if self._re2_text is None:
            self._re2_text = self.css.encode("ascii") if self.css.isascii() else self.css
        return self._re2_text

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
            if not plain(prelude) or "--" in prelude:
                prelude = self.prelude(k)
            parts = _split_prelude(prelude) if not plain(prelude) else (
                prelude.split(",") if "," in prelude else (prelude,))
            if parts is not None:
                keys = [_group_key(part) for part in parts]
                if False in keys:
                    continue  # an empty selector: the rule is invalid (Selectors 4 §4.1)
                if None not in keys:
                    for part, key in zip(parts, keys):
                        if key is not False:
                            got.setdefault(key, []).append((k, part.strip(" \t\n\r\f")))
                    continue
            elif "\\" in prelude and (escaped := _escaped_keys(prelude)) is not None:
                # (names with escapes: keyed from the text, parsed only when an element has the key)
                for key in dict.fromkeys(escaped):
                    got.setdefault(key, []).append((k, None))
                continue
            for key in dict.fromkeys(r.key for r in self.rule(k)):
                got.setdefault(key, []).append((k, None))
        self._keys[None] = got
        return got


#: A declaration of a property this package reads, and its value (to ``;``, ``}`` or ``!``).
_DECLARATION_RE = re.compile(
    r"(?<![\w-])(" + "|".join(sorted((re.escape(p) for p in PROPERTIES), key=len, reverse=True))
    + r"|--[\w-]+)[ \t\n\r\f]*:[ \t\n\r\f]*([^;{}!]*)(![ \t\n\r\f]*important)?", re.IGNORECASE)


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
