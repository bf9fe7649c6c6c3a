"""Bylines: cleaning an author value ("By ..." and "Published ..." cut, URLs and bare dates
rejected), reading a DOM byline candidate's text (``rel=author`` links and microdata names
inside it first), and the byline a page shows in its body (:func:`page_byline`)."""

from __future__ import annotations

import re
from typing import Any

from ...core.dom import TEXT, Node
from ..html import ParsedPage
from .keys import FIELD_LIMITS, MAX_AUTHORS, MAX_BYLINE_SUBTREE_NODES, MAX_DOM_BYLINE_CHARS
from .normalize import URL_LIKE_RE, cap_text, clean_text
from .scan import Scan, hidden_self, is_hidden, scan_body, visible_text

#: Leading words removed from bylines ("By Jane Doe" -> "Jane Doe"); English only, as
#: other languages' equivalents ("von", "di", "par") are also surname particles.
BYLINE_PREFIX_RE = re.compile(
    r"^(?:(?:written|posted|words|story|reported|text)\s+)?by\b\s*:?\s*", re.IGNORECASE
)

#: A publication-date trailer cut from bylines ("Jane Doe Published 7:07 PM EST Nov 19"),
#: and a forum profile's statistics after a poster's name ("StarredSkies Posts: 116
#: Threads: 23 Joined: Feb 2019": MyBB, vBulletin, phpBB, XenForo profile labels).
BYLINE_TRAILER_RE = re.compile(  # (?<!\s): tried once per space run, not from each space in it
    r"(?<!\s)\s+(?:(?:published|updated|last updated|posted on|posted)\b"
    r"|(?:posts|threads|joined|join date|reputation|messages|reaction score|likes received)\s*:).*$",
    re.IGNORECASE | re.DOTALL,
)
#: A byline that is only a date or time ("Sun Dec 17, 2023 11:23 am": phpBB's
#: ``<p class="author">`` holds the post's date when the poster's name sits elsewhere)
#: names nobody: every word between separators (``BYLINE_DATE_SEPARATOR_RE``) is a number
#: or ordinal, am/pm, "at"/"on", or an English month or weekday name, and one is a number.
#: (Word by word: one pattern for the whole text would backtrack exponentially on a long
#: run of digits.)
BYLINE_DATE_SEPARATOR_RE = re.compile(r"[\s,/:|\-\u2013\u2014@\u00b7\u2022\u00bb\u00ab]+")
BYLINE_DATE_WORD_RE = re.compile(
    r"\d+(?:st|nd|rd|th)?\.?|\d+t\d+|\d+(?:\.\d+)?z|[ap]\.?m\.?|at|on|"
    r"utc|gmt|[ecmp][sd]t|cet|cest|bst|ist|jst|aest|"
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?",
    re.IGNORECASE,
)


def clean_byline(raw: Any, limit: int) -> str | None:
    """A byline value cleaned (:func:`~.normalize.clean_text`, then ``BYLINE_PREFIX_RE`` and
    ``BYLINE_TRAILER_RE`` cut) and capped at ``limit``; ``None`` for a URL, a value without
    a letter, or only a date."""
    text = clean_text(raw, 4 * limit)
    if not text or URL_LIKE_RE.match(text):
        return None
    text = BYLINE_PREFIX_RE.sub("", text, count=1)
    text = BYLINE_TRAILER_RE.sub("", text).strip(" |,;:-\u2013\u2014")
    if not text or not any(ch.isalpha() for ch in text):
        return None
    if _date_only(text):
        return None
    return cap_text(text, limit)


def _date_only(text: str) -> bool:
    """Whether a byline is only a date or time (see :data:`BYLINE_DATE_WORD_RE`)."""
    words = [w for w in BYLINE_DATE_SEPARATOR_RE.split(text) if w]
    return (bool(words) and any(w[0].isdigit() for w in words)
            and all(BYLINE_DATE_WORD_RE.fullmatch(w) for w in words))


def _byline_text(node: Node) -> str:
    """Text of a DOM byline candidate. When the candidate holds more specific author
    markup -- ``[rel~=author]`` links or ``[itemprop~=name]`` inside
    ``[itemprop~=author]`` (schema.org microdata) -- their texts are used, joined with
    ", " ("por <a rel=author>César Salza</a>" -> "César Salza"); else the candidate's
    own visible text. Reads at most MAX_BYLINE_SUBTREE_NODES descendants."""
    if node.tag == "meta":
        return node.attrs.get("content", "")
    names: list[str] = []
    stack = [(c, False) for c in reversed(node.children)]
    in_author_root = "author" in node.attrs.get("itemprop", "").lower().split()
    seen = 0
    while stack and seen < MAX_BYLINE_SUBTREE_NODES and len(names) < MAX_AUTHORS:
        n, in_author = stack.pop()
        seen += 1
        if n.tag == "meta" and (in_author or in_author_root) and "name" in n.attrs.get("itemprop", "").lower().split():
            text = clean_text(n.attrs.get("content", ""), MAX_DOM_BYLINE_CHARS + 1)  # microdata's value
            if text and text not in names:
                names.append(text)
            continue
        if n.tag == TEXT or hidden_self(n):
            continue
        attrs = n.attrs
        itemprop = attrs.get("itemprop", "").lower().split() if attrs else []
        if "author" in itemprop:
            in_author = True
        is_name = (in_author or in_author_root) and "name" in itemprop
        if is_name or (attrs and "author" in attrs.get("rel", "").lower().split()):
            text = visible_text(n, MAX_DOM_BYLINE_CHARS + 1)
            if text and text not in names:
                names.append(text)
            continue
        if n.children:
            stack.extend((c, in_author) for c in reversed(n.children))
    if names:
        return ", ".join(names)
    return visible_text(node, MAX_DOM_BYLINE_CHARS + 1)


def first_shown_byline(candidates: list[tuple[Node, str]]) -> tuple[str, str] | None:
    """The first of the DOM byline ``candidates`` (node, source label) that is not hidden
    and whose cleaned text is a byline of at most :data:`MAX_DOM_BYLINE_CHARS`
    characters: ``(byline, source label)``, or ``None``."""
    for node, how in candidates:
        if is_hidden(node):
            continue
        byline = clean_byline(_byline_text(node), FIELD_LIMITS["byline"])
        if byline and len(byline) <= MAX_DOM_BYLINE_CHARS:
            return byline, how
    return None


def page_byline(page: ParsedPage) -> tuple[str, str] | None:
    """The byline the page shows in its body (the last source of ``Metadata.byline``, which
    :func:`~unclutter.parse.metadata.extract_metadata` does not look for once the head or
    JSON-LD names an author): ``(byline, source label)`` such as ``("Jane Doe",
    "dom[class/id=byline]")``, or ``None``. One more walk of the body; call it before
    pruning. Never raises on page content."""
    if page.body is None:
        return None
    found = Scan()
    scan_body(found, page.body, True)
    return first_shown_byline(found.bylines)
