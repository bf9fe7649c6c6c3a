"""Dates: normalising a stated date to ISO 8601 (ISO 8601 / RFC 3339, RFC 2822, unambiguous
``d/m/yyyy``, a few written formats), rejecting placeholder years, and the htmldate search of
the URL and the top of the pruned page when the markup states no publication date."""

from __future__ import annotations

import bisect
import datetime as _dt
import itertools
import re
import warnings
from email.utils import parsedate_to_datetime
from typing import Any, Callable

import re2

from ...core.dom import TEXT, Node
from ..html import BLOCK_ELEMENTS
from .normalize import clean_text

#: Plausible publication years: from 1800 (digitised archives) to this year plus 1
#: (scheduled posts); parsed dates outside are placeholders ("0001-01-01", "9999-12-31")
#: and the next source is tried.
DATE_YEAR_RANGE = (1800, 1)

#: Date formats tried after ISO 8601 and RFC 2822 (``datetime.strptime``, C locale).
DATE_FORMATS = (
    "%Y/%m/%d",
    "%Y/%m/%d %H:%M",
    "%Y/%m/%d %H:%M:%S",
    "%Y.%m.%d",
    "%d.%m.%Y",
    "%B %d, %Y",
    "%b %d, %Y",
    "%B %d %Y",
    "%b %d %Y",
    "%d %B %Y",
    "%d %b %Y",
    "%B %d, %Y %I:%M %p",
    "%b %d, %Y %I:%M %p",
    "%Y%m%d",
)

_SLASH_DATE_RE = re.compile(
    r"^(\d{1,2})/(\d{1,2})/(\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$"
)
_ISO_YEAR_RE = re.compile(r"^\d{4}-")
_ISO_RE = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*"
    r"(Z|[+-]\d{2}(?::?\d{2})?)?)?$",
    re.IGNORECASE,
)


def normalise_date(raw: str) -> str:
    """ISO 8601 text for a date string when it can be parsed, else ``raw`` unchanged.

    Tried in order: ISO 8601 / RFC 3339 (``2021-11-01T10:52:50+0100``, ``...Z``,
    date only ``2024-06-25`` stays a date), RFC 2822 (``Tue, 15 Nov 1994 08:12:31 GMT``),
    then ``d/m/yyyy`` or ``m/d/yyyy`` when unambiguous, then :data:`DATE_FORMATS`.
    Output is ``datetime.isoformat()`` (milliseconds when the fraction is whole
    milliseconds; an offset only when the input has one).
    """
    s = raw.strip()
    m = _ISO_RE.match(s)
    try:
        if m:
            y, mo, d, hh, mi, ss, frac, tz = m.groups()
            if hh is None:
                return _dt.date(int(y), int(mo), int(d)).isoformat()
            micro = int((frac or "0")[:6].ljust(6, "0"))
            tzinfo = None
            if tz:
                if tz.upper() == "Z":
                    tzinfo = _dt.timezone.utc
                else:
                    digits = tz[1:].replace(":", "")
                    minutes = int(digits[:2]) * 60 + (int(digits[2:4]) if len(digits) > 2 else 0)
                    if minutes >= 24 * 60:
                        return raw
                    sign = -1 if tz[0] == "-" else 1
                    tzinfo = _dt.timezone(sign * _dt.timedelta(minutes=minutes))
            value = _dt.datetime(
                int(y), int(mo), int(d), int(hh), int(mi), int(ss or 0), micro, tzinfo
            )
            return _iso(value)
    except (ValueError, OverflowError):
        return raw
    if "," in s or " " in s:
        try:
            value = parsedate_to_datetime(s)
            if value is not None:
                return _iso(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            pass
    m = _SLASH_DATE_RE.match(s)
    if m:
        return _slash_date(m, raw)
    for fmt in DATE_FORMATS:
        try:
            value = _dt.datetime.strptime(s, fmt)
        except ValueError:
            continue
        if "%H" in fmt or "%I" in fmt:
            return _iso(value)
        return value.date().isoformat()
    return _written_date(s) or raw


def _written_date(s: str) -> str | None:
    """A date written out (``Dec 19th 2025``, ``February 24, 2006 02:01am``,
    ``2025-12-17UTC07:30:00+00:00``) read by dateutil's parser, when the text names a day,
    a month and a four-digit year (parsed twice with different defaults: a component the
    text lacks shows up as a difference) and no slash date left ambiguous above; else
    ``None``. The time is kept when the text has one."""
    if len(s) > 64 or not re.search(r"\d{4}", s) or "/" in s:
        return None
    text = _ORDINAL_RE.sub(r"\1", s.replace("UTC", " "))
    try:
        from dateutil import parser as _parser

        with warnings.catch_warnings():  # ("tzname IST identified but not understood": no stderr noise)
            warnings.simplefilter("ignore")
            one = _parser.parse(text, default=_dt.datetime(2001, 1, 1))
            two = _parser.parse(text, default=_dt.datetime(2002, 2, 2, 3, 3, 3))
    except (ValueError, OverflowError, TypeError):
        return None
    if (one.year, one.month, one.day) != (two.year, two.month, two.day):
        return None  # a year, month or day taken from the default: not a whole date
    if (one.hour, one.minute) != (two.hour, two.minute):
        return one.date().isoformat()
    try:
        return _iso(one)
    except (ValueError, OverflowError):  # an offset of 24 hours or more ("+9959")
        return None


#: An English ordinal suffix after a day number ("19th", "1st").
_ORDINAL_RE = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)


def _slash_date(m: re.Match, raw: str) -> str:
    """``a/b/yyyy [hh:mm[:ss]]``: day-first when a > 12, month-first when b > 12,
    otherwise ambiguous (05/06/2007) and ``raw`` is kept."""
    a, b, y, hh, mi, ss = m.groups()
    a_i, b_i = int(a), int(b)
    if a_i > 12 and b_i <= 12:
        day, month = a_i, b_i
    elif b_i > 12 and a_i <= 12:
        day, month = b_i, a_i
    else:
        return raw
    try:
        if hh is None:
            return _dt.date(int(y), month, day).isoformat()
        return _iso(_dt.datetime(int(y), month, day, int(hh), int(mi), int(ss or 0)))
    except ValueError:
        return raw


def _iso(value: _dt.datetime) -> str:
    spec = "milliseconds" if value.microsecond % 1000 == 0 and value.microsecond else "auto"
    return value.isoformat(timespec=spec)


def clean_date(value: Any, limit: int) -> str | None:
    """A date field value as ISO 8601 (:func:`normalise_date`); ``None`` when empty, not a
    date that can be read (a field holds ISO 8601 or nothing, so a caller can sort and
    compare it), longer than ``limit``, or outside :data:`DATE_YEAR_RANGE` (CMS
    placeholders such as ``0001-01-01``)."""
    s = clean_text(value, 10 * limit)
    if s is None:
        return None
    iso = normalise_date(s)
    if not _ISO_RE.match(iso) or not iso.isascii():
        return None
    try:  # (normalise_date hands back what it could not build: "2020-13-45", "T25:61")
        _dt.datetime.fromisoformat(iso)
    except ValueError:
        return None
    year = int(iso[:4])
    if not DATE_YEAR_RANGE[0] <= year <= _dt.date.today().year + DATE_YEAR_RANGE[1]:
        return None
    return iso if len(iso) <= limit else None


#: ``htmldate`` (Barbaresi, "htmldate: A Python package to extract publication dates from web
#: pages", JOSS 5(51), 2020) is asked for the publication date only when the page's markup
#: states none (``<meta>``, JSON-LD, microdata, ``<time>``): it reads the URL
#: (``/2016/02/09/``) and the page's visible text ("Published July 9, 2025"), given the
#: pruned tree (hidden text, scripts, ``<head>`` and the page's own header and footer are
#: gone); a date after the modification date the markup states is not taken. Fast mode (no
#: extensive search): a few ms on a page it runs on, for many more right dates than the
#: markup alone gives (measured on wcxb-dev). A tree of more elements than this is not
#: searched.
DATE_SEARCH_MAX_ELEMENTS = 100_000
#: Only the top of the pruned page is searched (where a byline's date sits): the copy
#: stops after this many characters of text. Further down, a citation's "Retrieved" date or
#: a review's release date is taken for the page's (fewer wrong dates, measured on wcxb-dev).
DATE_SEARCH_TEXT_CHARS = 1500
#: Attributes of one element copied for the date search, the first in source order. lxml
#: looks each new attribute up among the element's earlier ones (and so does htmldate's
#: reading of them): an element with thousands costs the square of the count. Real
#: elements carry a few dozen at most.
DATE_SEARCH_MAX_ATTRIBUTES = 64
_DATE_ONLY_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
#: Characters an lxml tree refuses in text and attribute values (XML 1.0 §2.2: C0 controls
#: but tab, LF and CR; lone surrogates; U+FFFE/U+FFFF).
_NOT_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _lxml_tree(root: Node):
    """An lxml HTML document holding a copy of the top of ``root``'s subtree (its first
    :data:`DATE_SEARCH_TEXT_CHARS` characters of text; one pass, no parser: no depth limit, nothing
    fetched); attributes lxml refuses are left out, and so is an element's tag it refuses
    (its content stays). ``None`` over :data:`DATE_SEARCH_MAX_ELEMENTS` elements."""
    from lxml import etree
    from lxml import html as lxml_html

    doc = lxml_html.document_fromstring("<html><head></head><body></body></html>")
    body = doc.find("body")
    count = 0
    chars = 0
    stack = [(body, iter(root.children))]
    while stack and chars < DATE_SEARCH_TEXT_CHARS:
        parent, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            continue
        tag = child.tag
        if tag == TEXT:
            # (a text node past the budget is cut there: one huge node is no top of a page)
            text = _NOT_XML_RE.sub("", child.text[:DATE_SEARCH_TEXT_CHARS - chars])
            chars += len(text)
            if len(parent):
                last = parent[-1]
                last.tail = (last.tail or "") + text
            else:
                parent.text = (parent.text or "") + text
            continue
        if tag[0] == "#":
            continue
        count += 1
        if count > DATE_SEARCH_MAX_ELEMENTS:
            return None
        try:
            el = etree.SubElement(parent, tag)
        except ValueError:  # not an XML name ("a:b:c"): its content joins the parent
            stack.append((parent, iter(child.children)))
            continue
        for k, v in itertools.islice((child.attrs or {}).items(), DATE_SEARCH_MAX_ATTRIBUTES):
            try:
                el.set(k, _NOT_XML_RE.sub("", v))
            except ValueError:  # "@click", ":class"...
                pass
        stack.append((el, iter(child.children)))
    return doc


def search_date(root: Node, url: str | None, modified: str | None = None, extensive: bool = False) -> str | None:
    """The publication date htmldate reads from the URL and the top of the tree under
    ``root`` (the pruned page: see :data:`DATE_SEARCH_TEXT_CHARS`), as ``YYYY-MM-DD``, or
    ``None``: nothing found, a tree over the size limit, or htmldate failing on it (never
    raises on page content). Dates before 1995 or after today are not taken (htmldate's
    defaults). htmldate gets a tree built here, never a string: given a string that looks
    like a URL it would download it (``htmldate.utils.load_html``), and nothing here may
    fetch. ``modified``: the modification date the markup states; a date after it (when it
    begins with an ISO date) is not taken: a page is not published after it was modified.
    ``extensive``: when htmldate finds nothing, the first date written out in the top
    :data:`DATE_SEARCH_TEXT_CHARS` characters of the visible text (:func:`_text_date`), else
    a date the visible page labels as its publication anywhere (:func:`labelled_date`): for
    a page known as a story, where such a date is most likely its own; elsewhere (a
    product, a reference page) it is a date the content is about ("Founded February 28,
    1998"). (htmldate's own extensive search reads the same but costs about 40 times more.)"""
    try:
        from htmldate import find_date

        tree = _lxml_tree(root)
        if tree is None:
            return None
        found = find_date(tree, url=url, original_date=True, extensive_search=False,
                          outputformat="%Y-%m-%d")
    except Exception:  # noqa: BLE001 - a third-party library on hostile input: no date, no failure
        return None
    if not found and extensive:
        found = _text_date(root) or labelled_date(root)
    if not found or not _DATE_ONLY_RE.fullmatch(found):
        return None
    bound = (modified or "")[:10]
    if _DATE_ONLY_RE.fullmatch(bound) and found > bound:
        return None
    return found


_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
#: A date written out in text: "March 3, 2024", "3rd March 2024", "2024-03-03" (English
#: month names, as dateutil reads them; numeric d/m/y forms are ambiguous and left out).
_TEXT_DATE_RE = re.compile(
    r"(?i)\b(?:" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r",?\s+\d{4}"
    r"|\d{4}-\d{2}-\d{2})\b")


#: A text date on a line of more words than this is part of a sentence of prose ("On
#: January 23, 1998, Netscape made two announcements..."): an event the text tells of, not a
#: dateline (a byline line with its date, "Ann Lee | Staff writer | March 3, 2024 | 4 min
#: read", is shorter). A line: the run of text and inline elements around the date between
#: block elements and ``<br>``.
DATELINE_MAX_WORDS = 25
#: ... or of more characters than this (prose in a script written without spaces).
DATELINE_MAX_CHARS = 200
#: Most nodes read to measure one line: past it, the line is taken for prose.
_DATELINE_MAX_NODES = 400
#: Elements that end a line of text: those rendered as blocks, and ``<br>``.
_LINE_BREAKS = BLOCK_ELEMENTS | {"br"}


def _text_date(root: Node) -> str | None:
    """The first date written out (:data:`_TEXT_DATE_RE`) in the first
    :data:`DATE_SEARCH_TEXT_CHARS` characters of the visible text under ``root``, as
    ``YYYY-MM-DD``, if it is a real date no later than today and reads as a dateline: not in
    a key/value table row (:func:`_in_key_value_row`) nor on a line of prose
    (:func:`_long_line`)."""
    text, node_at = _visible_window(root, DATE_SEARCH_TEXT_CHARS)
    today = _dt.date.today().isoformat()
    for m in _TEXT_DATE_RE.finditer(text):
        node = node_at(m.start())
        if _in_key_value_row(node) or _long_line(node):
            continue
        iso = clean_date(m.group().replace(" of ", " "), 64)
        if iso and iso[:10] <= today:
            return iso[:10]
    return None


def _long_line(text: Node) -> bool:
    """Whether the line of the text node ``text`` (its run of text and inline elements between
    :data:`_LINE_BREAKS` elements) holds over :data:`DATELINE_MAX_WORDS` words or
    :data:`DATELINE_MAX_CHARS` non-blank characters. Reads at most
    :data:`_DATELINE_MAX_NODES` nodes (past them: a long line)."""
    at = text
    while at.parent is not None and at.parent.tag not in _LINE_BREAKS:
        at = at.parent
    parent = at.parent
    if parent is None:
        run = [at]
    else:
        siblings = parent.children
        budget = _DATELINE_MAX_NODES  # (the siblings looked at count against the budget too)
        i = next((k for k, c in enumerate(siblings[:budget]) if c is at), None)
        if i is None:
            return True
        lo = i
        while lo > 0 and siblings[lo - 1].tag not in _LINE_BREAKS:
            lo -= 1
        hi = i + 1
        while hi < len(siblings) and siblings[hi].tag not in _LINE_BREAKS and hi - lo < budget:
            hi += 1
        run = siblings[lo:hi]
    words = chars = seen = 0
    stack = list(reversed(run))
    while stack:
        n = stack.pop()
        seen += 1
        if seen > _DATELINE_MAX_NODES:
            return True
        if n.tag == TEXT:
            parts = n.text.split(None, DATELINE_MAX_WORDS + 1)
            words += len(parts)
            chars += sum(map(len, parts[:DATELINE_MAX_WORDS + 1]))
            if words > DATELINE_MAX_WORDS or chars > DATELINE_MAX_CHARS:
                return True
        elif n.tag not in ("script", "style", "template"):
            stack.extend(reversed(n.children))
    return False


def _in_key_value_row(node: Node) -> bool:
    """Whether ``node`` lies inside a header cell, or a cell of a table row holding a header
    cell (``<tr><th>Founded</th><td>...</td></tr>``)."""
    n: Node | None = node
    while n is not None:
        if n.tag == "th":
            return True
        if n.tag == "td":
            row = n.parent
            if row is not None and any(c.tag == "th" for c in row.children):
                return True  # (a table nested in a value cell is that row's value too)
        n = n.parent
    return False


def _visible_window(root: Node, limit: int) -> tuple[str, Callable[[int], Node]]:
    """``(text, node_at)``: the visible text under ``root`` (:func:`_visible_pieces`, the
    pieces joined by a space) and a function giving the text node that holds a position of it."""
    pieces, nodes = _visible_pieces(root, limit)
    starts = list(itertools.accumulate((len(p) + 1 for p in pieces), initial=0))
    return " ".join(pieces), lambda pos: nodes[bisect.bisect_right(starts, pos) - 1]


def _visible_pieces(root: Node, limit: int) -> tuple[list[str], list[Node]]:
    """The text nodes under ``root`` (scripts, styles and templates left out) as far as they
    hold ``limit`` characters, whitespace counted as written in the markup (counting it as
    shown widened the top-of-page window on indented pages: on wcxb-dev it dated 8 more pages
    whose truth has none for 3 more right dates), the last one cut there; each with its runs
    of whitespace collapsed to one space (empty ones left out), beside the text node itself."""
    pieces: list[str] = []
    nodes: list[Node] = []
    size = 0
    stack = [root]
    while stack and size < limit:
        n = stack.pop()
        if n.tag == TEXT:
            raw = n.text[:limit - size]
            size += len(n.text)
            piece = " ".join(raw.split())
            if piece:
                pieces.append(piece)
                nodes.append(n)
        elif n.tag not in ("script", "style", "template"):
            stack.extend(reversed(n.children))
    return pieces, nodes


#: Most characters of visible text read for a labelled publication date (:func:`labelled_date`).
DATE_LABEL_SEARCH_CHARS = 200_000
#: A date the page labels as its first publication: "Published on July 18, 2025",
#: "Posted: 13 April 2023", "Published On: 15 August 2025", "Written by Ann Lee on Jul
#: 5th 2022" (a name of up to 40 characters between). The label starts with a capital, as
#: a dateline does ("his first novel was published 3 March 1999" is prose). "Updated" and
#: "Last modified" are not such labels: they date a later version (on wcxb-dev's read part
#: they would date 11 pages that state no publication date, for 3 more right ones).
#: English month names or ISO dates only (numeric d/m/y forms are ambiguous). RE2: linear
#: time on any text.
_LABELLED_DATE_RE = re2.compile(
    r"\b(?:P(?i:ublished|osted|ublish date|ublication date)|F(?i:irst published)|D(?i:ate published)"
    r"|W(?i:ritten))(?i:(?:\s+(?:on|at))?\s*[:\-\x{2013}\x{2014}]?\s*"
    r"(?:by\s+[^|\x{00b7}\x{2022}\n]{1,40}?\s+(?:on\s+)?)?("
    + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r",?\s+\d{4}"
    r"|\d{4}-\d{2}-\d{2}))\b")
#: Most labelled dates read before giving up (each costs a parse; a page of thousands of
#: impossible ones, "Posted Dec 1st 2099", is not worth reading to the end).
MAX_LABELLED_DATES = 16


def labelled_date(root: Node) -> str | None:
    """The first date the visible text under ``root`` labels as the page's publication
    (:data:`_LABELLED_DATE_RE`), anywhere in its first :data:`DATE_LABEL_SEARCH_CHARS`
    characters (a post's "Posted on" line often closes it), as ``YYYY-MM-DD``, if it is a
    real date no later than today and not in a key/value table row (:func:`_in_key_value_row`:
    a book's "Publication date" in an infobox); else ``None``."""
    text, node_at = _visible_window(root, DATE_LABEL_SEARCH_CHARS)
    today = _dt.date.today().isoformat()
    for m in itertools.islice(_LABELLED_DATE_RE.finditer(text), MAX_LABELLED_DATES):
        if _in_key_value_row(node_at(m.start(1))):
            continue
        iso = clean_date(m.group(1).replace(" of ", " "), 64)
        if iso and iso[:10] <= today:
            return iso[:10]
    return None


#: A full date in a URL's path (``/2025/12/18/``), as blogs' permalinks state it.
_URL_DAY_RE = re.compile(r"/((?:19|20)[0-9]{2})/([0-9]{1,2})/([0-9]{1,2})(?:/|$)")


def local_day(date: str | None, url: str | None) -> str | None:
    """``date`` (ISO 8601) as the publisher's calendar day when the page's URL states one
    day next to it: a permalink's ``/2025/12/18/`` is the day in the publisher's time zone,
    while a CMS states its times in UTC (``2025-12-19T02:41:41+00:00`` for an evening post
    in America). Only a time stated in UTC (``Z``, ``+00:00``) on a day next to the URL's
    is moved (to a date alone: the local time is unknown), and only where a real time zone
    (UTC-12:00 to UTC+14:00) can put that time on the URL's day, never after today;
    otherwise ``date`` is returned unchanged."""
    if not date or not url or len(date) <= 10:
        return date
    m = _URL_DAY_RE.search(url.split("?", 1)[0].split("#", 1)[0])
    if m is None:
        return date
    try:
        day = _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        stated = _dt.datetime.fromisoformat(date)
    except ValueError:
        return date
    if stated.utcoffset() != _dt.timedelta(0) or day > _dt.date.today():
        return date
    local = stated.replace(tzinfo=None)
    earliest, latest = local - _dt.timedelta(hours=12), local + _dt.timedelta(hours=14)
    if day == stated.date() or not earliest.date() <= day <= latest.date():
        return date
    return day.isoformat()


#: Keys that name a publication date in a page's script data (a framework's state JSON,
#: a JSON-LD block escaped into an attribute): schema.org's ``datePublished`` and the
#: spellings CMSs use for it. Generic keys (``date``, ``createdAt``) are left out: state
#: blobs carry them for every asset and related item.
_SCRIPT_DATE_KEYS = ("datePublished|publishDate|publishedDate|published_at|publishedAt|publicationDate|"
                     "publication_date|date_published|publish_date|firstPublishedAt|first_published_at")
_Q = r'(?:"|&quot;|\\")'
#: ``"datePublished": "2025-11-17T09:00:00-05:00"`` with plain, HTML-escaped or
#: JSON-escaped quotes; literal alternatives and bounded runs only (linear time).
_SCRIPT_DATE_RE = re.compile(
    _Q + "(?:" + _SCRIPT_DATE_KEYS + ")" + _Q + r"[ \t]{0,8}:[ \t]{0,8}" + _Q
    + r"([0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,9})?)?"
    r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?)" + _Q)
#: Characters of the page searched for such a key (the head and the top of the body).
SCRIPT_DATE_SEARCH_CHARS = 2_000_000


def script_date(html: str, limit: int = 64) -> str | None:
    """The first publication date a page's script data names (:data:`_SCRIPT_DATE_KEYS`
    with an ISO 8601 value), normalised like the markup's dates, or ``None``. Read from the
    raw HTML (scripts included), first :data:`SCRIPT_DATE_SEARCH_CHARS` characters: the
    fallback after ``<meta>``, JSON-LD and ``<time>``, before the visible-text search."""
    m = _SCRIPT_DATE_RE.search(html, 0, SCRIPT_DATE_SEARCH_CHARS)
    return clean_date(m.group(1), limit) if m else None
