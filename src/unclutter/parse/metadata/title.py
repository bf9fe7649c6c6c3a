"""Title and site-name rules: a title source cut to the span a visible ``<h1>`` repeats,
known site names removed from its ends, an unknown site segment dropped from ``<title>``
(:func:`refine_title`); after pruning, a poor ``<title>`` giving way to the page's only
``<h1>`` (:func:`settle_title`); site-name keys from the host name."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ...core.dom import Node
from ...core.models import Metadata
from .keys import FIELD_LIMITS
from .normalize import alnum_key, clean_text, norm_key
from .scan import visible_text

#: Title heuristics (for ``<title>`` only, see :func:`_strip_site_segments`): the part
#: kept must have at least this many words (or this many characters when the script
#: does not separate words with spaces), and a dropped site segment at most
#: ``SITE_SEGMENT_MAX_WORDS`` words.
TITLE_MIN_WORDS = 3
TITLE_MIN_CHARS_UNSPACED = 10
SITE_SEGMENT_MAX_WORDS = 5
#: A ``<title>`` (after its site name is removed) shorter or longer than these bounds, in
#: characters, gives way to the page's only visible ``<h1>`` ("FAQ", "Home", a keyword
#: list) when that heading has more than ``TITLE_SOLE_H1_MIN_WORDS`` words: the bounds
#: Readability.js uses in ``_getArticleTitle`` (Mozilla, readability, 2015-2024; a
#: result of 4 words or fewer goes back to the original title there), applied to
#: ``<title>`` only (og:title and JSON-LD are the publisher's headline for the page).
TITLE_SOLE_H1_MIN_CHARS = 15
TITLE_SOLE_H1_MAX_CHARS = 150
TITLE_SOLE_H1_MIN_WORDS = 4
#: A title source that is a prefix of a visible h1 and at least this long is taken to be
#: a truncated copy of it, and the h1 is used.
TITLE_TRUNCATED_MIN_CHARS = 40
#: At most this many separator-delimited title segments are examined.
MAX_TITLE_SEGMENTS = 12

#: Title separators: a run of whitespace, one of these, a run of whitespace.
#: (``(?<!\s)``: tried once per space run, not from each space in it: linear on long runs.)
TITLE_SEPARATOR_RE = re.compile(r"(?<!\s)\s+(\||::|[-\u2013\u2014\u00b7\u00bb\u2022])\s+")
#: Separators after which a leading segment may be a site name ("Site | Title"); dashes
#: are left out because "Topic - Subtitle" is far more common than "Site - Title".
PREFIX_SEPARATORS = frozenset({"|", "::", "\u00bb", "\u2022", "\u00b7"})


def _word_count(s: str) -> int:
    return len(s.split())


def _split_title(title: str) -> tuple[list[str], list[str]]:
    """Segments and the separators between them (``len(seps) == len(segs) - 1``)."""
    parts = TITLE_SEPARATOR_RE.split(title)
    return parts[0::2], parts[1::2]


def _join(segs: list[str], seps: list[str], i: int, j: int) -> str:
    """Segments i..j (inclusive) joined with their original separators."""
    out = [segs[i]]
    for k in range(i + 1, j + 1):
        out.append(f" {seps[k - 1]} {segs[k]}")
    return "".join(out)


def _match_h1(title: str, h1_keys: list[str]) -> str | None:
    """The longest separator-delimited span of ``title`` equal to a visible h1."""
    if not h1_keys:
        return None
    if norm_key(title) in h1_keys:
        return title
    segs, seps = _split_title(title)
    n = len(segs)
    if n < 2 or n > MAX_TITLE_SEGMENTS:
        return None
    for length in range(n - 1, 0, -1):
        for i in range(0, n - length + 1):
            span = _join(segs, seps, i, i + length - 1)
            if norm_key(span) in h1_keys:
                return span
    return None


def _strip_known_site(title: str, site_keys: set[str]) -> str:
    """Drop a trailing, then a leading, run of segments that spells a known site name
    (a site name may itself contain separators: "Urge Fitness | Gyms in PA")."""
    if not site_keys:
        return title
    segs, seps = _split_title(title)
    n = len(segs)
    if n < 2 or n > MAX_TITLE_SEGMENTS:
        return title
    i, j = 0, n - 1
    for k in range(1, n):  # longest suffix first
        if alnum_key(_join(segs, seps, k, n - 1)) in site_keys:
            j = k - 1
            break
    for k in range(j, 0, -1):  # longest prefix first, leaving one segment
        if alnum_key(_join(segs, seps, 0, k - 1)) in site_keys:
            i = k
            break
    if (i, j) == (0, n - 1):
        return title
    return _join(segs, seps, i, j)


def _long_enough(text: str) -> bool:
    words = _word_count(text)
    if words >= TITLE_MIN_WORDS:
        return True
    return words == 1 and len(text) >= TITLE_MIN_CHARS_UNSPACED and not text.isascii()


def _looks_like_site(segment: str) -> bool:
    return (
        bool(segment)
        and _word_count(segment) <= SITE_SEGMENT_MAX_WORDS
        and not segment[0].islower()
    )


def _strip_site_segments(title: str) -> str:
    """Heuristic for a ``<title>`` whose site name is unknown: drop the last segment
    ("Title | Site", "Title - Site") when it is shorter than the rest, looks like a name
    (at most SITE_SEGMENT_MAX_WORDS words, not starting lower-case) and the rest is long
    enough (:func:`_long_enough`); else drop a first segment that does the same before a
    non-dash separator ("Site | Title"). At most one segment goes."""
    segs, seps = _split_title(title)
    if len(segs) < 2:
        return title
    last = segs[-1]
    rest = _join(segs, seps, 0, len(segs) - 2)
    if _looks_like_site(last) and len(last) < len(rest) and _long_enough(rest):
        return rest
    first = segs[0]
    rest = _join(segs, seps, 1, len(segs) - 1)
    if (
        seps[0] in PREFIX_SEPARATORS
        and _looks_like_site(first)
        and len(first) < len(rest)
        and _long_enough(rest)
    ):
        return rest
    return title


def settle_title(md: Metadata, root: Node) -> None:
    """The title rules that need the pruned page, ``root`` (the prune stage's output:
    hidden elements, consent walls and chrome are gone), applied to ``md`` in place:

    * a title from ``<title>`` under :data:`TITLE_SOLE_H1_MIN_CHARS` or over
      :data:`TITLE_SOLE_H1_MAX_CHARS` characters gives way to the page's only ``<h1>``
      when that heading has more than :data:`TITLE_SOLE_H1_MIN_WORDS` words;
    * a title taken from an ``<h1>`` (the last resort of
      :func:`~unclutter.parse.metadata.extract_metadata`, read before pruning) stands only
      when an ``<h1>`` with that text survived pruning; else the first surviving ``<h1>``
      (``None`` without one).

    Only ``<h1>`` elements the reader sees can name the page: one hidden by a class
    (``sr-only``, ``d-none``) or sitting in a consent wall is not a title."""
    src = md.sources.get("title")
    if src not in ("title", "h1") or md.title is None:
        return
    if src == "title" and TITLE_SOLE_H1_MIN_CHARS <= len(md.title) <= TITLE_SOLE_H1_MAX_CHARS:
        return
    limit = FIELD_LIMITS["title"]
    texts: list[str] = []
    for el in root.iter_elements():
        if el.tag == "h1":
            text = clean_text(visible_text(el, 2 * limit), limit)
            if text:
                texts.append(text)
                if len(texts) > 1 and src == "title":
                    return  # not the page's only h1
    if src == "title":
        if len(texts) == 1 and _word_count(texts[0]) > TITLE_SOLE_H1_MIN_WORDS:
            md.title = texts[0]
            md.sources["title"] = "h1"
        return
    if md.title not in texts:
        md.title = texts[0] if texts else None
        if md.title is None:
            md.sources.pop("title", None)


def refine_title(
    text: str, h1_texts: list[str], site_keys: set[str], heuristic: bool
) -> str | None:
    """Apply the title rules of the package docstring to one title source."""
    h1_keys = [norm_key(t) for t in h1_texts]
    matched = _match_h1(text, h1_keys)
    if matched is not None:
        # a known site name stays out even when the page's <h1> repeats it ("... | WRAL")
        return _strip_known_site(matched, site_keys)
    # A headline cut short by the site ("... (Including…") that starts a visible h1.
    key = norm_key(text).rstrip(".\u2026 ")
    if len(key) >= TITLE_TRUNCATED_MIN_CHARS:
        for h1_key, h1_text in zip(h1_keys, h1_texts):
            if len(h1_key) > len(key) and h1_key.startswith(key):
                return h1_text
    stripped = _strip_known_site(text, site_keys)
    if stripped != text:
        return stripped
    if heuristic:
        return _strip_site_segments(text)
    return text


def host_keys(url: str | None) -> set[str]:
    """Site-name keys derived from the host: "www.ehow.com" -> {"ehow", "ehowcom"}."""
    if not url:
        return set()
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return set()
    labels = [x for x in host.split(".") if x]
    if labels and labels[0] == "www":
        labels = labels[1:]
    if len(labels) < 2:
        return set()
    return {alnum_key(labels[0]), alnum_key("".join(labels))}
