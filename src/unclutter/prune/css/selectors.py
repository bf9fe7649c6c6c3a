"""Selectors: each rule's selectors with their specificity (Selectors 4 §17) and key
(what an element needs to match one), read from the text when the prelude is plain,
else parsed by tinycss2 and cssselect2; an unknown pseudo-class drops the whole rule as
in Chromium; and :func:`tame_has`, which keeps lexbor's ``:has()`` linear."""

from __future__ import annotations

import re
from functools import lru_cache

import tinycss2
from cssselect2 import parser as selector_parser

from ...core.selectors import NAME_CHARS, escaped_name, split_commas
from .values import _serialize


def _split_selectors(prelude) -> list[list] | None:
    """The selectors of a list as token groups; ``None`` when one of several is empty
    (``a, , b``, ``a,``), which makes the list invalid (Selectors 4 §4.1)."""
    groups = split_commas(prelude)
    kept = [g for g in groups if any(t.type not in ("whitespace", "comment") for t in g)]
    return None if len(kept) < len(groups) and len(groups) > 1 else kept


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
            return ()  # (an empty selector, alone or in a list: the rule is dropped)
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
    :class:`.sheet.StyleRule`; pseudo-elements left out: their text is generated), parsed by
    tinycss2 and cssselect2; ``None`` when one of them is invalid, which drops the whole
    rule (Selectors 4 §4.1). Cached: site stylesheets repeat their selectors."""
    tokens = tinycss2.parse_component_value_list(prelude, skip_comments=True)
    # (CDO/CDC tokens "<!--"/"-->" before a rule are skipped at the top level: CSS Syntax 3 §5.4.1)
    while tokens and (tokens[0].type == "whitespace" or (
            tokens[0].type == "literal" and tokens[0].value in ("<!--", "-->"))):
        tokens.pop(0)
    out = []
    groups = _split_selectors(tokens)
    if groups is None:
        return None
    for group in groups:
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


def _escaped_keys(prelude: str) -> list[tuple] | None:
    """The key (:attr:`.sheet.StyleRule.key`, as :func:`_key_and_simple` reads it from the
    parsed selector) of each selector of a prelude whose names hold escapes (Tailwind's
    ``.md\\:flex``, ``.w-1\\/2``), read by one pass over the text: type, class, id and
    pseudo-class selectors with combinators; ``None`` for anything else (quotes, comments,
    brackets, parentheses, several ids in one compound, a compound of pseudo-classes only),
    which is parsed."""
    if '"' in prelude or "'" in prelude or "/*" in prelude or "\x00" in prelude:
        return None
    keys: list[tuple] = []
    tag = cls = ident = None
    ids = 0
    empty, pseudo = True, False
    pending = False  # a combinator read: the next simple selector opens a new compound
    i, n = 0, len(prelude)
    while True:
        ch = prelude[i] if i < n else ","
        if ch in " \t\n\r\f>+~":
            pending = not empty
            i += 1
            continue
        if ch == ",":
            if empty or ids > 1:
                return None
            if ident is not None:
                keys.append(("#", ident.lower()))
            elif cls is not None:
                keys.append((".", cls.lower()))
            elif pseudo:
                return None
            elif tag is not None and tag != "*":
                keys.append(("tag", tag))
            else:
                keys.append(("*",))
            if i >= n:
                return keys
            tag = cls = ident = None
            ids = 0
            empty, pseudo, pending = True, False, False
            i += 1
            continue
        if pending:
            tag = cls = ident = None
            ids = 0
            empty, pseudo, pending = True, False, False
        if ch in ".#:":
            start = i + 1
            if ch == ":" and start < n and prelude[start] == ":":
                start += 1
            got = escaped_name(prelude, start)
            if got is None or not got[0]:
                return None
            name, i = got
            if i < n and prelude[i] in "([":
                return None
            if ch == ".":
                cls = name if cls is None else cls
            elif ch == "#":
                ids += 1
                ident = name
            else:
                pseudo = True
            empty = False
        elif ch == "*":
            if not empty:
                return None
            tag, empty = "*", False
            i += 1
        elif empty and (ch in NAME_CHARS or ch == "\\" or ord(ch) >= 0x80):
            got = escaped_name(prelude, i)
            if got is None or not got[0] or not got[0].isascii():
                return None
            name, i = got
            tag, empty = name.lower(), False
        else:
            return None


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
    :class:`.sheet.StyleRule`) read from its text (Selectors 4 §17: ids, then classes and
    pseudo-classes, then types), or ``None`` when it is not plain after all (tinycss2 and
    cssselect2 read it then)."""
    compounds = _COMBINATORS_RE.split(part.strip(" \t\n\r\f"))
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
