"""A caller's CSS selector (``Options.target_selector`` / ``remove_selector``), checked once:
its length, that lexbor's CSS engine reads it, and that its matching time stays linear."""

from __future__ import annotations

import re

from .errors import UsageError

__all__ = ["MAX_SELECTOR_CHARS", "check_selector"]

#: Characters a caller's selector may have (as ``RenderOptions.wait_for``).
MAX_SELECTOR_CHARS = 1000

_HAS_RE = re.compile(r":has\(", re.IGNORECASE)


def _has_arguments(selector: str) -> list[str] | None:
    """The argument of each ``:has(`` of ``selector`` (``None`` when one is unclosed)."""
    out = []
    for m in _HAS_RE.finditer(selector):
        depth, k = 1, m.end()
        while k < len(selector) and depth:
            if selector[k] in "([":
                depth += 1
            elif selector[k] in ")]":
                depth -= 1
            k += 1
        if depth:
            return None
        out.append(selector[m.end():k - 1])
    return out


def check_selector(value: object, name: str) -> str:
    """``value`` as a selector list lexbor reads (stripped), for the option ``name``.

    Raises:
        UsageError: not a string, blank, longer than :data:`MAX_SELECTOR_CHARS`
            characters, not a selector lexbor's CSS engine reads (Selectors Level 4; no
            pseudo-elements), or a ``:has()`` whose argument holds a combinator or another
            ``:has()``: lexbor matches those in time exponential in their number.
    """
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"{name} must be a CSS selector")
    if len(value) > MAX_SELECTOR_CHARS:
        raise UsageError(f"{name} must be a CSS selector of at most {MAX_SELECTOR_CHARS:,} characters")
    if "\x00" in value:
        raise UsageError(f"{name}: a NUL character cannot be part of a CSS selector")
    selector = value.strip()
    arguments = _has_arguments(selector)
    if arguments is None:
        raise UsageError(f"{name} is not a CSS selector: {selector[:200]!r}")
    for arg in arguments:
        inner = arg.strip().lstrip(">+~").strip()
        if _HAS_RE.search(inner) or re.search(r"[\s>+~]", re.sub(r"\[[^\]]*\]|\([^)]*\)", "", inner)):
            raise UsageError(f"{name}: a combinator inside :has() is not supported "
                             f"(write :has(a) rather than :has(ul a)): {selector[:200]!r}")
    from selectolax.lexbor import LexborHTMLParser

    try:
        LexborHTMLParser("<p></p>").css(selector)
    except Exception:  # noqa: BLE001 - selectolax raises its own error type for any unreadable selector
        raise UsageError(f"{name} is not a CSS selector lexbor reads: {selector[:200]!r}") from None
    return selector
