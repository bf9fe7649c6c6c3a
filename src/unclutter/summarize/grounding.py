"""Grounding checks: facts in a summary that the source does not contain.

After any backend (extractive summaries pass by construction; the check runs anyway), each
summary sentence is scanned for:

* **numbers**: digit runs with ``,`` thousands separators and a decimal part (``1,200``,
  ``3.5``, ``40%``). Supported when the same value (separators removed, leading zeros
  dropped) occurs as a number in the source;
* **dates**: ISO ``2024-03-05``, ``March 5, 2024``, ``5 March 2024``, ``March 2024``
  (English month names and their 3-letter abbreviations). Supported when a source date agrees
  on every part the summary states (year, month, day); the digits of a recognised date are
  not checked again as numbers;
* **capitalised names**: runs of capitalised words (``New York Times``, ``NASA``) not at
  the start of a sentence, plus multi-word runs that are. Supported when every word of the
  run occurs in the source, ignoring case (``Fargo Catholic Diocese`` needs all three).
  Month and weekday names count as dates, not names.

Matching is on word boundaries and case-insensitive for names; numbers written as words
(``three``) are not checked. ``strict`` mode drops every flagged sentence
(:func:`drop_unsupported`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Unsupported", "check_grounding", "drop_unsupported", "MONTHS"]

#: English month names -> month number (3-letter abbreviations and "Sept" too).
MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"])}
MONTHS.update({m[:3]: n for m, n in list(MONTHS.items())})
MONTHS["sept"] = 9
_WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

_MONTH_ALT = "|".join(sorted(MONTHS, key=len, reverse=True))
_DATE_RES = [
    # ISO 8601 calendar date
    (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"), ("y", "m", "d")),
    # March 5, 2024 / March 5 2024 / Mar. 5th, 2024
    (re.compile(rf"\b({_MONTH_ALT})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I), ("mn", "d", "y")),
    # 5 March 2024
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_ALT})\.?,?\s+(\d{{4}})\b", re.I), ("d", "mn", "y")),
    # March 2024
    (re.compile(rf"\b({_MONTH_ALT})\.?,?\s+(\d{{4}})\b", re.I), ("mn", "y")),
    # March 5 (no year)
    (re.compile(rf"\b({_MONTH_ALT})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?![,\d])", re.I), ("mn", "d")),
]
_NUMBER_RE = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?")
_CAP_WORD = r"(?:[A-Z][\w'’\-]*[a-z][\w'’\-]*|[A-Z]{2,}\w*|[A-Z]\.)"
_NAME_RE = re.compile(rf"(?<![\w'’]){_CAP_WORD}(?:\s+(?:(?:of|de|da|van|von|the|and|&)\s+)?{_CAP_WORD})*(?![\w'’])")
_WORD_RE = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Unsupported:
    """One fact of a summary not found in the source: ``kind`` is ``"number"``, ``"date"``
    or ``"name"``; ``value`` as written in the summary; ``sentence`` the summary sentence."""

    kind: str
    value: str
    sentence: str


def _norm_number(s: str) -> str:
    s = s.replace(",", "")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s.lstrip("0") or "0"


def _dates(text: str) -> tuple[list[tuple[dict, tuple[int, int], str]], list[tuple[int, int]]]:
    found = []
    taken: list[tuple[int, int]] = []
    for rx, parts in _DATE_RES:
        for m in rx.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            d: dict[str, int] = {}
            for name, val in zip(parts, m.groups()):
                if name == "mn":
                    d["m"] = MONTHS[val.lower().rstrip(".")]
                else:
                    d[name] = int(val)
            found.append((d, m.span(), m.group(0)))
            taken.append(m.span())
    return found, taken


def _date_supported(d: dict, source_dates: list[dict]) -> bool:
    return any(all(s.get(k) == v for k, v in d.items()) for s in source_dates if set(d) <= set(s))


def check_grounding(summary_sentences: list[str], source: str) -> list[Unsupported]:
    """Numbers, dates and capitalised names of ``summary_sentences`` not in ``source``.

    Args:
        summary_sentences: the summary, one sentence per item.
        source: the text the summary was made from (plain text).

    Returns:
        One :class:`Unsupported` per unsupported fact, in order.
    """
    src_dates_full, _ = _dates(source)
    src_dates = [d for d, _, _ in src_dates_full]
    # a bare year or day in the source also supports a partial date of the summary
    src_numbers = {_norm_number(n) for n in _NUMBER_RE.findall(source)}
    src_words = {w.lower() for w in _WORD_RE.findall(source)}
    out: list[Unsupported] = []
    for sent in summary_sentences:
        dates, spans = _dates(sent)
        for d, _span, raw in dates:
            if not _date_supported(d, src_dates):
                # "March 2024" is supported by any source date in that month, or by the
                # month name and the year both occurring in the source
                parts_ok = ("m" not in d or any(k for k, v in MONTHS.items() if v == d["m"] and k in src_words)) \
                    and ("y" not in d or str(d["y"]) in src_numbers) and "d" not in d
                if not parts_ok:
                    out.append(Unsupported("date", raw, sent))
        for m in _NUMBER_RE.finditer(sent):
            if any(a <= m.start() < b for a, b in spans):
                continue
            if _norm_number(m.group(0)) not in src_numbers:
                out.append(Unsupported("number", m.group(0), sent))
        for m in _NAME_RE.finditer(sent):
            if any(a <= m.start() < b for a, b in spans):
                continue
            words = [w for w in _WORD_RE.findall(m.group(0))
                     if w.lower() not in ("of", "de", "da", "van", "von", "the", "and")]
            words = [w for w in words if w.lower() not in MONTHS and w.lower() not in _WEEKDAYS] or words
            if not words:
                continue
            initial = not sent[:m.start()].strip(" \"'“‘([")
            if initial and len(words) == 1:
                continue  # a capitalised first word is usually just a sentence start
            if initial:
                words = words[1:] if words[0].lower() in _COMMON_STARTS else words
                if not words:
                    continue
            missing = [w for w in words if w.lower() not in src_words]
            if missing:
                out.append(Unsupported("name", m.group(0), sent))
    return out


#: Capitalised sentence starts that are not names (checked only in multi-word runs).
_COMMON_STARTS = {"the", "a", "an", "this", "that", "these", "in", "on", "at", "for", "but", "and",
                  "after", "before", "when", "while", "as", "if", "it", "he", "she", "they", "we"}


def drop_unsupported(summary_sentences: list[str], unsupported: list[Unsupported]) -> list[str]:
    """``summary_sentences`` without every sentence that has an unsupported fact (strict mode)."""
    bad = {u.sentence for u in unsupported}
    return [s for s in summary_sentences if s not in bad]
