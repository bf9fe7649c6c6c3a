"""Input limits checked before lexbor parses a page: nesting depth (:mod:`.depth`), the
number of start tags, and start tags crowded with attributes (lexbor's per-element
attribute checks are quadratic in their count). Each check is linear in the page."""

from __future__ import annotations

import bisect
import re

from ..core.errors import InputTooComplexError, InputTooDeepError
from ..core.limits import (
    ATTRIBUTE_PAIRS_TAG_CHARS,
    LONG_TAG_CHARS,
    MAX_ATTRIBUTE_PAIRS,
    MAX_ATTRIBUTES_PER_ELEMENT,
    MAX_DOM_DEPTH,
    MAX_ELEMENTS,
)
from .depth import RAW_TEXT_ELEMENTS, estimate_depth, simulated_depth


_NOSCRIPT_RE = re.compile(r"(?i)<noscript(?=[\t\n\f\r />])")
_NOSCRIPT_END_RE = re.compile(r"(?i)</noscript(?=[\t\n\f\r />])")
#: What opens raw text or a comment (a ``<`` that opens no tag after it), as the checks read it.
_TEXT_OPENER_RE = re.compile(
    r"(?i)<(?=(?:" + "|".join(sorted(RAW_TEXT_ELEMENTS | {"plaintext"})) + r")[\t\n\f\r />]|!--)")


def _scripting_on_reading(html: str) -> str:
    """``html`` as the checks must read it for the tree builder with scripting on, where a
    ``<noscript>`` holds raw text: inside each ``<noscript>`` (to its ``</noscript`` or the
    end), the openers of raw-text elements and comments are made text, so that one opened
    there no longer hides the markup after the ``<noscript>`` from the checks. The tags
    inside stay counted (the scripting-off view builds them) and a ``<noscript`` that is
    not a tag (in a comment, a script, an attribute value) is treated as one: both only make
    the checks count more, never less. One forward pass."""
    out = []
    pos = 0
    changed = 0
    while (m := _NOSCRIPT_RE.search(html, pos)) is not None:
        close = _NOSCRIPT_END_RE.search(html, m.end())
        end = close.start() if close is not None else len(html)
        out.append(html[pos:m.end()])
        text, n = _TEXT_OPENER_RE.subn(" ", html[m.end():end])
        out.append(text)
        changed += n
        pos = end
    if not changed:
        return html  # (the same reading: nothing to check again)
    out.append(html[pos:])
    return "".join(out)


def check_input_limits(html: str) -> None:
    """Raise when ``html`` is over a parser limit (see :func:`unclutter.parse.html.parse_html`)
    as the tree builder reads it with scripting off and, when it holds a ``<noscript>``, with
    scripting on too (:func:`_scripting_on_reading`: ``<noscript>`` content is then raw text,
    and a ``<textarea>`` opened in it no longer hides the markup after it), since a page is
    parsed both ways.

    Raises:
        InputTooDeepError: nesting deeper than ``MAX_DOM_DEPTH``.
        InputTooComplexError: an element with more than ``MAX_ATTRIBUTES_PER_ELEMENT``
            attributes, more than ``MAX_ELEMENTS`` start tags, or attribute pairs (the
            squared attribute counts of the long start tags, summed) over
            ``MAX_ATTRIBUTE_PAIRS``.
    """
    _check_limits(html)
    if _NOSCRIPT_RE.search(html) and (reading := _scripting_on_reading(html)) is not html:
        _check_limits(reading)


def _check_limits(html: str) -> None:
    # Nesting can only exceed the limit when there are more start tags than the limit, and
    # a start tag is a '<' that opens neither an end tag nor a comment: skip the scans for
    # ordinary pages; the simulation runs only when the quick estimate is over.
    opens = html.count("<")
    if (opens > MAX_DOM_DEPTH and opens - html.count("</") - html.count("<!") > MAX_DOM_DEPTH
            and estimate_depth(html) > MAX_DOM_DEPTH):
        depth = simulated_depth(html, MAX_DOM_DEPTH)
        if depth > MAX_DOM_DEPTH:
            raise InputTooDeepError(
                f"unreadable input: elements nested more than {MAX_DOM_DEPTH} levels deep"
            )
    if opens > MAX_ELEMENTS:
        tags = start_tag_count(html)
        if tags > MAX_ELEMENTS:
            raise InputTooComplexError(
                f"unreadable input: about {tags} elements (limit {MAX_ELEMENTS})"
            )
    attributes = crowded_tag_attribute_count(html)
    if attributes:
        raise InputTooComplexError(
            f"unreadable input: an element with about {attributes} attributes "
            f"(limit {MAX_ATTRIBUTES_PER_ELEMENT})"
        )
    pairs = attribute_pairs(html)
    if pairs > MAX_ATTRIBUTE_PAIRS:
        raise InputTooComplexError(
            f"unreadable input: more than {MAX_ATTRIBUTE_PAIRS} attribute pairs in all "
            f"(the squared attribute counts of its elements, summed)"
        )


_START_TAG_RE = re.compile(r"<[A-Za-z]")


def start_tag_count(html: str) -> int:
    """Start tags in ``html`` (``<`` followed by a letter: an upper bound of the elements a
    parser builds, comments and script text included)."""
    return sum(1 for _ in _START_TAG_RE.finditer(html))


def crowded_tag_attribute_count(html: str, limit: int = MAX_ATTRIBUTES_PER_ELEMENT,
                                min_chars: int = LONG_TAG_CHARS) -> int:
    """The attribute count of a start tag of at least ``min_chars`` characters that holds
    more than ``limit`` attributes, or 0 when there is none.

    Such a tag spans a whole aligned block of ``min_chars // 2`` characters without a
    ``>``: the blocks are tested with ``str.find`` (each stops at the first ``>``, usually
    within a few characters). Around a block without one, the tag that holds it is the
    first ``<`` + letter after the last ``>`` before the block (HTML tokenization: text
    runs until such a tag opens), and its attributes are counted up to the next ``>``;
    a count over ``limit`` is believed only when the tag is not inside a comment or a
    raw-text element (:func:`_in_text_or_comment`).
    """
    half = max(1, min_chars // 2)
    n = len(html)
    start = 0
    while start < n:
        if html.find(">", start, start + half) != -1:
            start += half
            continue
        opened = _TAG_OPEN_RE.search(html, html.rfind(">", 0, start) + 1, start + half)
        end = html.find(">", start + half)
        end = n if end == -1 else end
        # attributes are separated by whitespace, "/" or a closing quote: an upper bound
        # counted in C comes first, the regex only for a tag that may be over the limit
        if opened is not None and sum(html.count(c, opened.end(), end) for c in _SEPARATORS) > limit:
            count = len(_ATTRIBUTE_RE.findall(html, opened.end(), end))
            if count > limit and not _in_text_or_comment(html, opened.start()):
                return count
        start = end + 1
    return 0


def attribute_pairs(html: str, limit: int = MAX_ATTRIBUTE_PAIRS,
                    min_chars: int = ATTRIBUTE_PAIRS_TAG_CHARS) -> int:
    """The sum of the squared attribute counts of the start tags of at least ``min_chars``
    characters (found as in :func:`crowded_tag_attribute_count`), left out those inside a
    comment or raw-text element; once the sum passes ``limit`` it is returned as is.

    The tags are first counted wherever they are (one pass; enough for nearly every page);
    only when that passes ``limit`` are the comments and raw-text elements located, in one
    more pass (:func:`_text_and_comment_spans`), and the tags inside them left out.
    """
    tags = _long_tag_counts(html, min_chars)
    if sum(count * count for _, count in tags) <= limit:
        return sum(count * count for _, count in tags)
    spans = _text_and_comment_spans(html)
    starts = [start for start, _ in spans]
    total = 0
    for pos, count in tags:
        k = bisect.bisect_right(starts, pos) - 1
        if k >= 0 and pos < spans[k][1]:
            continue
        total += count * count
        if total > limit:
            break
    return total


def _long_tag_counts(html: str, min_chars: int) -> list[tuple[int, int]]:
    """(position, attribute count) of the start tags of at least ``min_chars`` characters
    that hold more than one attribute (aligned blocks of ``min_chars // 2`` without a
    ``>``, as in :func:`crowded_tag_attribute_count`). Linear: the blocks are tested with
    ``str.find``, and each long tag is counted once."""
    half = max(1, min_chars // 2)
    n = len(html)
    out: list[tuple[int, int]] = []
    start = 0
    while start < n:
        if html.find(">", start, start + half) != -1:
            start += half
            continue
        opened = _TAG_OPEN_RE.search(html, html.rfind(">", 0, start) + 1, start + half)
        end = html.find(">", start + half)
        end = n if end == -1 else end
        if opened is not None and sum(html.count(c, opened.end(), end) for c in _SEPARATORS) > 1:
            count = sum(1 for _ in _ATTRIBUTE_RE.finditer(html, opened.end(), end))
            if count > 1:
                out.append((opened.start(), count))
        start = end + 1
    return out


def _text_and_comment_spans(html: str) -> list[tuple[int, int]]:
    """(start, end) of the comments and raw-text elements (``<script>``, ``<style>``...) of
    ``html`` in order, where a ``<`` opens no tag; one forward pass (an unclosed one runs
    to the end)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    n = len(html)
    while (m := _RAW_TEXT_OPENER_ANY_CASE_RE.search(html, pos)) is not None:
        if m.group() == "<!--":
            close = html.find("-->", m.end())
            end = n if close < 0 else close + 3
        else:
            close = re.compile("</" + m.group(1), re.IGNORECASE).search(html, m.end())
            end = n if close is None else close.end()
        spans.append((m.start(), end))
        pos = end
    return spans


def _in_text_or_comment(html: str, pos: int) -> bool:
    """Whether ``pos`` lies inside a comment or the content of a raw-text element
    (``<script>``, ``<style>``...), where a ``<`` does not open a tag: the last such
    opener before ``pos`` has no closer before it. Only called for the rare long runs
    without ``>``."""
    low = html[max(0, pos - _RAW_TEXT_LOOKBACK):pos].lower()
    last = None
    for last in _RAW_TEXT_OPENER_RE.finditer(low):
        pass
    if last is None:
        return False
    closer = "-->" if last.group() == "<!--" else "</" + last.group(1)
    return low.find(closer, last.end()) == -1


_RAW_TEXT_OPENER_RE = re.compile(
    "<!--|<(" + "|".join(sorted(RAW_TEXT_ELEMENTS)) + r")(?=[\s/>])")
_RAW_TEXT_OPENER_ANY_CASE_RE = re.compile(_RAW_TEXT_OPENER_RE.pattern, re.IGNORECASE)
#: How far back :func:`_in_text_or_comment` looks for the opener, in characters.
_RAW_TEXT_LOOKBACK = 4 * 1024 * 1024


_TAG_OPEN_RE = re.compile(r"<[A-Za-z][^\s/>]*")
_SEPARATORS = " \t\n\r\f/\"'"
#: One attribute (name, optional value) inside a start tag.
_ATTRIBUTE_RE = re.compile(r"[^\s\"'>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]*))?")
