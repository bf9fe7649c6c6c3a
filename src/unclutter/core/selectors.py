"""A caller's CSS selector (``Options.target_selector`` / ``remove_selector``), checked once:
its length, that lexbor's CSS engine reads it, and that its matching time stays bounded.

The selector is read as CSS Syntax 3 tokens (tinycss2: strings, escapes and blocks as a
browser reads them), so that ``:h\\61s(`` is ``:has(`` and a ``)`` inside a string or an
attribute selector closes nothing. Also :func:`escaped_name`, a CSS name read with its
escapes resolved, for the stylesheet readers of the parse and prune stages.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UsageError

__all__ = ["MAX_SELECTOR_CHARS", "NAME_CHARS", "SelectorCost", "check_selector", "escaped_name", "selector_costs",
           "split_commas"]

#: Characters a caller's selector may have (as ``RenderOptions.wait_for``).
MAX_SELECTOR_CHARS = 1000

#: Pseudo-classes lexbor matches by walking an element's earlier (or later) siblings: their
#: time over a page grows with the square of the largest sibling count.
SIBLING_SCANNING = frozenset({"nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type",
                              "first-of-type", "last-of-type", "only-of-type"})

_COMBINATORS = frozenset({">", "+", "~"})
_SEPARATORS = _COMBINATORS | {","}
#: Functional pseudo-classes whose argument is a list of complex selectors.
_SELECTOR_LIST_FUNCTIONS = frozenset({"is", "where", "not", "matches", "any", "-webkit-any", "-moz-any"})


@dataclass(frozen=True)
class SelectorCost:
    """What makes one complex selector's matching time grow faster than the page, as lexbor
    matches (right to left, backtracking): ``descendants`` and ``siblings``, its
    descendant and ``~`` combinators (each tried against every ancestor, or earlier
    sibling, in turn: a failing match explores every choice); ``has``, its ``:has()``
    (each walks a subtree); ``scans``, its pseudo-classes of :data:`SIBLING_SCANNING` (each
    walks the siblings); ``scan_has``: a ``:has()`` inside one of those (the walks
    multiply); ``substring``, the needle characters of its ``*=`` attribute tests and one
    per ``~=`` (each scans an attribute value)."""

    descendants: int = 0
    siblings: int = 0
    has: int = 0
    scans: int = 0
    scan_has: bool = False
    substring: int = 0


def split_commas(tokens: list) -> list[list]:
    """CSS tokens split at their top-level commas (a selector list's items)."""
    parts: list[list] = [[]]
    for t in tokens:
        if t.type == "literal" and t.value == ",":
            parts.append([])
        else:
            parts[-1].append(t)
    return parts


def _strip(tokens: list) -> list:
    i, j = 0, len(tokens)
    while i < j and tokens[i].type in ("whitespace", "comment"):
        i += 1
    while j > i and tokens[j - 1].type in ("whitespace", "comment"):
        j -= 1
    return tokens[i:j]


def _one_compound(tokens: list, leading_combinator: bool) -> bool:
    """Whether a comma-separated part of a ``:has()`` argument is one compound selector
    (optionally after one leading combinator), with no ``:has()`` and no combinator
    inside its functions either."""
    part = _strip(tokens)
    if leading_combinator and part and part[0].type == "literal" and part[0].value in _COMBINATORS:
        part = _strip(part[1:])
    if not part:
        return False
    for t in part:
        if t.type in ("whitespace", "comment"):
            return False
        if t.type == "literal" and t.value in _COMBINATORS:
            return False
        if t.type == "function":
            if t.lower_name == "has":
                return False
            if not all(_one_compound(p, False) for p in split_commas(t.arguments)):
                return False
    return True


def _walk(tokens: list, found: dict, top: bool, in_scan: bool = False) -> None:
    """Count in ``found`` what :class:`SelectorCost` reads (``top``: the tokens are the
    complex selector's own, not a function's arguments), and note a ``:has()`` holding more
    than one compound (``found["bad_has"]``)."""
    prev = None
    for t in tokens:
        if t.type == "whitespace":
            if top and prev is not None and not (prev.type == "literal" and prev.value in _SEPARATORS):
                found["pending_space"] = True
        elif t.type == "literal" and t.value in _SEPARATORS:
            found.pop("pending_space", None)  # (the whitespace around > + ~ , is no combinator)
            if t.value == "~" and top:
                found["siblings"] = found.get("siblings", 0) + 1
        else:
            if found.pop("pending_space", False):
                found["descendants"] = found.get("descendants", 0) + 1
            if t.type == "ident" and prev is not None and prev.type == "literal" and prev.value == ":" \
                    and t.lower_value in SIBLING_SCANNING:
                found["scans"] = found.get("scans", 0) + 1
            elif t.type == "function":
                name = t.lower_name
                scan = name in SIBLING_SCANNING
                if scan:
                    found["scans"] = found.get("scans", 0) + 1
                if name == "has":
                    found["has"] = found.get("has", 0) + 1
                    if in_scan:
                        found["scan_has"] = True
                    parts = split_commas(t.arguments)
                    if not all(_one_compound(p, True) for p in parts):
                        found["bad_has"] = True
                    if any((q := _strip(p)) and q[0].type == "literal" and q[0].value == "~" for p in parts):
                        found["scans"] = found.get("scans", 0) + 1  # (:has(~ x) walks the later siblings)
                # a selector list inside :is() / :where() / :not() is matched as complex selectors
                # are, backtracking over its own combinators
                _walk(t.arguments, found, name in _SELECTOR_LIST_FUNCTIONS, in_scan or scan)
            elif t.type == "[] block":
                content = [c for c in t.content if c.type not in ("whitespace", "comment")]
                for k, c in enumerate(content):
                    if c.type == "literal" and c.value == "*=" and k + 1 < len(content):
                        found["substring"] = found.get("substring", 0) + len(str(content[k + 1].value or ""))
                    elif c.type == "literal" and c.value == "~=":
                        found["substring"] = found.get("substring", 0) + 1
        if t.type != "comment":
            prev = t
    found.pop("pending_space", None)


def selector_costs(selector: str) -> list[SelectorCost]:
    """The :class:`SelectorCost` of each complex selector of a selector list checked by
    :func:`check_selector`."""
    import tinycss2

    out = []
    for part in split_commas(tinycss2.parse_component_value_list(selector)):
        found: dict = {}
        _walk(_strip(part), found, True)
        out.append(SelectorCost(found.get("descendants", 0), found.get("siblings", 0), found.get("has", 0),
                                found.get("scans", 0), bool(found.get("scan_has")), found.get("substring", 0)))
    return out


def check_selector(value: object, name: str) -> str:
    """``value`` as a selector list lexbor reads (stripped), for the option ``name``.

    Raises:
        UsageError: not a string, blank, longer than :data:`MAX_SELECTOR_CHARS`
            characters, not a selector lexbor's CSS engine reads (Selectors Level 4; no
            pseudo-elements), or a ``:has()`` whose argument is more than one compound
            selector (after a leading combinator): lexbor matches those in time
            exponential in the number of combinators.
    """
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"{name} must be a CSS selector")
    if len(value) > MAX_SELECTOR_CHARS:
        raise UsageError(f"{name} must be a CSS selector of at most {MAX_SELECTOR_CHARS:,} characters")
    if "\x00" in value:
        raise UsageError(f"{name}: a NUL character cannot be part of a CSS selector")
    selector = value.strip()
    import tinycss2

    found: dict = {}
    _walk(tinycss2.parse_component_value_list(selector), found, True)
    if found.get("bad_has"):
        raise UsageError(f"{name}: :has() takes one compound selector per item here, after an optional > + ~ "
                         f"(write :has(a) rather than :has(ul a)): {selector[:200]!r}")
    from selectolax.lexbor import LexborHTMLParser

    try:
        LexborHTMLParser("<p></p>").css(selector)
    except Exception:  # noqa: BLE001 - selectolax raises its own error type for any unreadable selector
        raise UsageError(f"{name} is not a CSS selector lexbor reads: {selector[:200]!r}") from None
    return selector


#: ASCII characters of a CSS name (CSS Syntax 3 §4.2, name code point); non-ASCII ones all are.
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def escaped_name(text: str, i: int) -> tuple[str, int] | None:
    """The name (ident code points, CSS Syntax 3 §4.3.11) starting at ``text[i]``, its
    escapes resolved (§4.3.7: up to six hex digits and one whitespace after them, or the
    character itself), and the offset after it; ``None`` for what the text path leaves to
    the tokenizer (an escaped line break, an escape at the end, a carriage return or form
    feed ending a hex escape, a surrogate code point)."""
    out = []
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            if i + 1 >= n or text[i + 1] in "\n\r\f":
                return None
            if text[i + 1] in _HEX_DIGITS:
                j = i + 1
                while j < n and j < i + 7 and text[j] in _HEX_DIGITS:
                    j += 1
                cp = int(text[i + 1:j], 16)
                if j < n and text[j] in " \t\n":
                    j += 1
                elif j < n and text[j] in "\r\f":
                    return None
                if 0xD800 <= cp <= 0xDFFF:
                    return None  # (tinycss2 keeps a lone surrogate where §4.3.7 says U+FFFD: its reading decides)
                out.append(chr(cp) if 0 < cp <= 0x10FFFF else "\ufffd")
                i = j
            else:
                out.append(text[i + 1])
                i += 2
        elif ch in NAME_CHARS or ord(ch) >= 0x80:
            out.append(ch)
            i += 1
        else:
            break
    return "".join(out), i
