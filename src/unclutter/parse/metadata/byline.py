"""Bylines: cleaning an author value ("By ..." and "Published ..." cut, URLs and bare dates
rejected), reading a DOM byline candidate's text (``rel=author`` links and microdata names
inside it first), and the byline a page shows in its body (:func:`page_byline`)."""

from __future__ import annotations

import re
from typing import Any

import re2

from ...core.dom import TEXT, Node
from ..html import ParsedPage
from .keys import FIELD_LIMITS, MAX_AUTHORS, MAX_BYLINE_SUBTREE_NODES, MAX_DOM_BYLINE_CHARS
from .normalize import URL_LIKE_RE, cap_text, clean_text
from .scan import Scan, hidden_self, in_readers_section, is_hidden, scan_body, visible_text

#: Leading words removed from bylines ("By Jane Doe" -> "Jane Doe", "Guide by Will Judd" ->
#: "Will Judd": up to four words before "by"); English only, as other languages'
#: equivalents ("von", "di", "par") are also surname particles.
BYLINE_PREFIX_RE = re.compile(
    r"^(?:[^\W\d_]+\s+){0,4}?by\b\s*:?\s*", re.IGNORECASE  # "By", "Written by", "View all posts by"
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


#: A label glued to the name that follows it ("ByAmy Roeder", "AuthorIsaiah Shelton": the
#: label and the name in separate elements with no space between); case-sensitive.
BYLINE_GLUED_LABEL_RE = re.compile(r"^(?:By|BY|Author|AUTHOR|Written by|Posted by)(?=\p{Lu})".replace(
    r"\p{Lu}", "[A-Z\u00c0-\u00de\u0410-\u042f]"))
#: A credit label of one word and a colon before the name, in any language ("Text: Name",
#: "Текст: Имя", "Autor: Name"; two words may be a name: "StarredSkies Posts: 116").
BYLINE_LABEL_RE = re.compile(r"^[^\W\d_]{2,20}[ \t]*:[ \t]*(?=\w)")
#: A trailer glued to a name (no space: a separate element): "Reyan PerumalPublished on ...".
#: (RE2: linear time on page text, as the other patterns run over it below.)
BYLINE_GLUED_TRAILER_RE = re2.compile(r"(?s)([a-z])(?:Published|Updated|Posted|Last)\b.*$")
#: A reading time ("3 min read", "7 minute read"), wherever it stands.
BYLINE_READING_TIME_RE = re2.compile(r"(?i)\d+\s*min(?:ute)?s?\.?\s+read\b")
#: Where a date's year and a name were glued by separate elements ("2025Julian K. Arni"): a
#: space goes in (a user name's digits are left: "golftango29", "user2019").
BYLINE_GLUED_YEAR_RE = re2.compile(r"\b(\d{4})([A-Z][a-z])")
#: An ISO 8601 date or date-time anywhere in a byline ("Nick van Mead2022-11-23T08:10+02:00").
BYLINE_ISO_DATE_RE = re2.compile(r"\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?")
#: A hexadecimal run of a content hash or an account id ("fullysecret1dbb6551f4"): names
#: and user names do not hold eight hex digits in a row mixing letters and digits
#: (:func:`_hash_like`).
BYLINE_HEX_RUN_RE = re2.compile(r"[0-9a-fA-F]{8,}")
#: More words than this in one author's part (between commas, "and", "&") is a sentence or
#: a headline ("5 Landscape Photo Recipes in ON1 Effects"), not a name with a title.
BYLINE_MAX_WORDS_PER_AUTHOR = 5
#: A word longer than this is no part of a name.
BYLINE_MAX_WORD_CHARS = 40
_AUTHOR_SPLIT_RE = re2.compile(r"(?i)\s*(?:,|;|&|\band\b|\bund\b|\bet\b|\by\b|\bi\b|\x{00b7})\s*")


def clean_byline(raw: Any, limit: int) -> str | None:
    """A byline value cleaned and capped at ``limit``; ``None`` when no name is left.

    Cut: a leading label (``BYLINE_PREFIX_RE`` "By", ``BYLINE_GLUED_LABEL_RE`` "ByAmy",
    ``BYLINE_LABEL_RE`` "Text:"), trailers (``BYLINE_TRAILER_RE`` "Published ...",
    ``BYLINE_GLUED_TRAILER_RE``, ``BYLINE_READING_TIME_RE``), and dates inside (:func:`_without_dates`: the part
    beside the date that holds a name is kept). ``None`` for a URL, a value without a
    letter, only a date, a hash (:func:`_hash_like`), or a part of more than
    ``BYLINE_MAX_WORDS_PER_AUTHOR`` words (a headline)."""
    text = clean_text(raw, 4 * limit)
    if not text or URL_LIKE_RE.match(text):
        return None
    text = BYLINE_READING_TIME_RE.sub(" ", text)
    text = BYLINE_GLUED_YEAR_RE.sub(r"\1 \2", text)
    for part in _without_dates(text):
        part = _strip_labels(part)
        part = BYLINE_GLUED_TRAILER_RE.sub(r"\1", part)
        part = BYLINE_TRAILER_RE.sub("", part).strip(" |,;:-\u2013\u2014\u00b7\u2022\u00bb")
        part = _strip_labels(part)
        if part and any(ch.isalpha() for ch in part) and not _date_only(part) and not (
                BYLINE_TRAILER_RE.sub("", " " + part).strip() == "" and " " not in part):
            text = part
            break
    else:
        return None
    if _date_only(text) or _hash_like(text):
        return None
    if any(len(part.split()) > BYLINE_MAX_WORDS_PER_AUTHOR for part in _AUTHOR_SPLIT_RE.split(text)):
        return None
    if any(len(word) > BYLINE_MAX_WORD_CHARS for word in text.split()):
        return None  # (no name has a 40-character word: a run of markup or an encoded blob)
    return cap_text(text, limit)


def _hash_like(text: str) -> bool:
    """Whether ``text`` holds a run of eight or more hex digits mixing letters and digits."""
    for m in BYLINE_HEX_RUN_RE.finditer(text):
        run = m.group()
        if any(ch.isdigit() for ch in run) and any(ch.isalpha() for ch in run):
            return True
    return False


def _strip_labels(text: str) -> str:
    text = BYLINE_PREFIX_RE.sub("", text, count=1)
    text = BYLINE_GLUED_LABEL_RE.sub("", text, count=1)
    return BYLINE_LABEL_RE.sub("", text, count=1)


def _without_dates(text: str) -> list[str]:
    """The parts of a byline between the dates it carries: ISO dates anywhere, and runs of
    date words (:data:`BYLINE_DATE_WORD_RE`) holding a number and a month or weekday name
    ("Dec. 19, 2025 · Niko Matsakis" -> ["", "Niko Matsakis"]; "Dakota Hebert July 3,
    2025" -> ["Dakota Hebert", ""]); :func:`clean_byline` keeps the first that names
    someone."""
    text = BYLINE_ISO_DATE_RE.sub(" | ", text)
    words = [(m.start(), m.end()) for m in re.finditer(r"[^\s,/|\u00b7\u2022\u00bb\u00ab\u2013\u2014-]+", text)]
    dated = [bool(BYLINE_DATE_WORD_RE.fullmatch(text[a:b])) for a, b in words]
    cuts: list[tuple[int, int]] = []
    k = 0
    while k < len(words):
        if not dated[k]:
            k += 1
            continue
        j = k
        while j < len(words) and dated[j]:
            j += 1
        run = [text[a:b] for a, b in words[k:j]]
        if any(w[0].isdigit() for w in run) and any(w[0].isalpha() and len(w.rstrip(".")) >= 3 for w in run):
            cuts.append((words[k][0], words[j - 1][1]))
        k = j
    parts = []
    pos = 0
    for a, b in cuts:
        parts.append(text[pos:a])
        pos = b
    parts.append(text[pos:])
    return parts


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
        if is_hidden(node) or in_readers_section(node):
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
