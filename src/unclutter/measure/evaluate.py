"""Scoring an extracted main text against a ground truth.

Two measures, both re-implemented here from their published definitions (no code copied):

1. **AEB shingle metric** -- the metric of the Article Extraction Benchmark
   (scrapinghub/article-extraction-benchmark, ``evaluate.py`` and its README; restated in
   ``shared/datasets/aeb/README.md``, section "Metric"):

   * tokens are the matches of the regular expression ``\\w+`` (Unicode word characters;
     case is kept, punctuation and whitespace are dropped);
   * a text becomes the multiset of its 4-token *shingles* (runs of 4 consecutive tokens);
     a text with fewer than 4 tokens gives one shingle made of all its tokens, and a text
     with no token gives no shingle;
   * per page, over the two shingle multisets: TP = shared shingles (the smaller of the two
     counts of each shingle), FP = predicted shingles beyond the true count, FN = true
     shingles beyond the predicted count; the three are normalised so TP + FP + FN = 1
     (so every page weighs the same, whatever its length);
   * precision = TP / (TP + FP) and recall = TP / (TP + FN) are averaged over pages; a page
     with no predicted shingle is left out of the precision mean, a page with no true
     shingle out of the recall mean;
   * F1 is the harmonic mean of the *mean* precision and the *mean* recall (not a mean of
     per-page F1s);
   * the spread is the standard deviation (sample, ``n - 1``) of each figure over 1000
     bootstrap resamples of the pages (pages drawn with replacement), here with a fixed seed
     so that a run is reproducible. We report that standard deviation as the "±"; note that
     AEB's own script prints 1.96 times it (a 95% interval half-width), so an AEB "±" is about
     twice ours -- :attr:`Scores.f1_ci95` gives the AEB-style figure.

2. **Snippet checks** for ground truths given as ``with`` / ``without`` lists (WCXB,
   Murrough-Foley/web-content-extraction-benchmark, ``ground_truth.with`` / ``.without``;
   also the golden pages under ``tests/pages``): per page, the share of ``with`` snippets
   found in the prediction and the share of ``without`` snippets absent from it. Matching is
   substring search after normalising both sides: Unicode case folding and every run of
   whitespace collapsed to one space (our rule; stated here because a looser or stricter rule
   moves the numbers). Page rates are averaged over the pages that have such a list.

3. **Word-level F1** -- the metric of the WCXB benchmark (Foley 2026, arXiv 2605.21097; its
   ``evaluate.py``, restated here): tokens are the matches of ``\\w+`` in the *lower-cased*
   text; per page, overlap = the multiset intersection of predicted and true tokens,
   precision = overlap / predicted tokens, recall = overlap / true tokens, F1 their harmonic
   mean; a page with no true token scores 1.0 when nothing was predicted and 0.0 otherwise,
   a page with true tokens and no prediction 0.0. Precision, recall and F1 are each the
   *mean of the per-page values* (unlike AEB's F1).

Confidence intervals (:func:`bootstrap_interval`): the 2.5th and 97.5th percentiles of the
statistic over :data:`BOOTSTRAP_RESAMPLES` resamples of the pages (Efron & Tibshirani 1993,
*An Introduction to the Bootstrap*, ch. 13, the percentile interval), fixed seed.

Everything is pure standard library.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "SHINGLE_SIZE",
    "BOOTSTRAP_RESAMPLES",
    "BOOTSTRAP_SEED",
    "PageCounts",
    "Scores",
    "SnippetScores",
    "SnippetSummary",
    "tokenize",
    "shingles",
    "page_counts",
    "aggregate",
    "bootstrap_std",
    "evaluate",
    "normalize_for_snippets",
    "snippet_scores",
    "aggregate_snippets",
    "WordScores",
    "word_tokens",
    "word_scores",
    "bootstrap_interval",
]

#: Shingle length in tokens. Source: AEB ``evaluate.py`` (``ngram_n=4``).
SHINGLE_SIZE = 4
#: Bootstrap resamples behind the "±". Source: AEB ``evaluate.py`` (``n_bootstrap=1000``).
BOOTSTRAP_RESAMPLES = 1000
#: Our fixed seed, so the "±" is the same on every run (AEB leaves the seed to the caller).
BOOTSTRAP_SEED = 20200101

#: ``\w+`` on ``str`` is Unicode-aware in Python 3: letters and digits of every script, and ``_``.
#: The same rule as :func:`unclutter.text.words.tokenize`, repeated so this file loads alone.
_TOKEN_RE = re.compile(r"\w+")
_WHITESPACE_RE = re.compile(r"\s+")


# --------------------------------------------------------------------------- AEB metric


def tokenize(text: str | None) -> list[str]:
    """The AEB tokens of ``text``: every match of ``\\w+``, in order, case kept."""
    if not text:
        return []
    return _TOKEN_RE.findall(text)


def shingles(text: str | None, size: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """The multiset of ``size``-token shingles of ``text``.

    Fewer than ``size`` tokens (but at least one) give a single shingle of all the tokens;
    no tokens give an empty multiset.
    """
    tokens = tokenize(text)
    if not tokens:
        return Counter()
    if len(tokens) < size:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1))


@dataclass(frozen=True)
class PageCounts:
    """One page's TP/FP/FN over shingles, normalised so ``tp + fp + fn == 1``.

    All three are 0 when neither text has a shingle.
    """

    tp: float
    fp: float
    fn: float

    @property
    def precision(self) -> float | None:
        """TP / (TP + FP); ``None`` when nothing was predicted (left out of the mean)."""
        denominator = self.tp + self.fp
        return self.tp / denominator if denominator > 0 else None

    @property
    def recall(self) -> float | None:
        """TP / (TP + FN); ``None`` when the truth has no shingle (left out of the mean)."""
        denominator = self.tp + self.fn
        return self.tp / denominator if denominator > 0 else None


def page_counts(true_text: str | None, predicted_text: str | None) -> PageCounts:
    """Compare one page's prediction with its ground truth (AEB definition)."""
    truth = shingles(true_text)
    pred = shingles(predicted_text)
    tp = fp = fn = 0
    for shingle in truth.keys() | pred.keys():
        t, p = truth.get(shingle, 0), pred.get(shingle, 0)
        tp += min(t, p)
        fp += max(0, p - t)
        fn += max(0, t - p)
    total = tp + fp + fn
    if total == 0:
        return PageCounts(0.0, 0.0, 0.0)
    return PageCounts(tp / total, fp / total, fn / total)


@dataclass
class Scores:
    """Precision, recall and F1 over a set of pages, with bootstrap standard deviations.

    ``precision`` is ``None`` when no page had a prediction (F1 is then 0); ``recall`` and
    ``f1`` are ``None`` when no page had a ground truth. ``n_precision`` / ``n_recall`` are
    how many pages entered each mean.
    """

    precision: float | None
    recall: float | None
    f1: float | None
    n_pages: int
    n_precision: int
    n_recall: int
    precision_std: float | None = None
    recall_std: float | None = None
    f1_std: float | None = None

    @property
    def f1_ci95(self) -> float | None:
        """1.96 x the bootstrap std of F1: the "±" as AEB's ``evaluate.py`` prints it."""
        return None if self.f1_std is None else 1.96 * self.f1_std

    def as_dict(self) -> dict[str, float | int | None]:
        out = dict(self.__dict__)
        out["f1_ci95"] = self.f1_ci95
        return out


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _f1(precision: float | None, recall: float | None) -> float | None:
    if recall is None:
        return None
    if precision is None or precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def aggregate(pages: Sequence[PageCounts]) -> Scores:
    """Mean precision, mean recall and their harmonic mean (AEB definition); no ``±``."""
    precisions = [p for p in (c.precision for c in pages) if p is not None]
    recalls = [r for r in (c.recall for c in pages) if r is not None]
    precision, recall = _mean(precisions), _mean(recalls)
    return Scores(
        precision=precision,
        recall=recall,
        f1=_f1(precision, recall),
        n_pages=len(pages),
        n_precision=len(precisions),
        n_recall=len(recalls),
    )


def _sample_std(values: Sequence[float]) -> float | None:
    """Sample standard deviation (``n - 1`` in the denominator); ``None`` below 2 values."""
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def bootstrap_std(
    pages: Sequence[PageCounts],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float | None, float | None, float | None]:
    """Standard deviation of (precision, recall, F1) over ``resamples`` bootstrap resamples.

    Each resample draws ``len(pages)`` pages with replacement and recomputes the three
    figures exactly as :func:`aggregate` does. A resample where a figure is undefined is
    left out of that figure's deviation.
    """
    if not pages:
        return None, None, None
    per_page = [(c.precision, c.recall) for c in pages]
    rng = random.Random(seed)
    n = len(per_page)
    ps: list[float] = []
    rs: list[float] = []
    fs: list[float] = []
    for _ in range(resamples):
        p_sum = r_sum = 0.0
        p_n = r_n = 0
        for p, r in rng.choices(per_page, k=n):
            if p is not None:
                p_sum += p
                p_n += 1
            if r is not None:
                r_sum += r
                r_n += 1
        precision = p_sum / p_n if p_n else None
        recall = r_sum / r_n if r_n else None
        f1 = _f1(precision, recall)
        if precision is not None:
            ps.append(precision)
        if recall is not None:
            rs.append(recall)
        if f1 is not None:
            fs.append(f1)
    return _sample_std(ps), _sample_std(rs), _sample_std(fs)


def evaluate(
    pairs: Iterable[tuple[str | None, str | None]],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> Scores:
    """Score ``(true_text, predicted_text)`` pairs: AEB precision, recall, F1 and their ``±``.

    Pass ``resamples=0`` to skip the bootstrap.
    """
    pages = [page_counts(true, pred) for true, pred in pairs]
    scores = aggregate(pages)
    if resamples > 0:
        scores.precision_std, scores.recall_std, scores.f1_std = bootstrap_std(
            pages, resamples, seed
        )
    return scores


# --------------------------------------------------------------------------- snippets


def normalize_for_snippets(text: str | None) -> str:
    """Case-fold and collapse whitespace runs to one space (both sides of a snippet match)."""
    if not text:
        return ""
    return _WHITESPACE_RE.sub(" ", text.casefold()).strip()


@dataclass(frozen=True)
class SnippetScores:
    """One page's snippet checks.

    ``with_hit``: share of ``with`` snippets found (``None`` when the page has none);
    ``without_clean``: share of ``without`` snippets absent (``None`` when it has none).
    """

    with_hit: float | None
    without_clean: float | None
    with_found: int = 0
    with_total: int = 0
    without_absent: int = 0
    without_total: int = 0


def snippet_scores(
    prediction: str | None,
    with_snippets: Iterable[str] | None,
    without_snippets: Iterable[str] | None,
) -> SnippetScores:
    """Check one prediction against its ``with`` / ``without`` snippet lists.

    Snippets that normalise to the empty string are ignored (they would match anything).
    """
    haystack = normalize_for_snippets(prediction)
    wanted = [s for s in map(normalize_for_snippets, with_snippets or []) if s]
    unwanted = [s for s in map(normalize_for_snippets, without_snippets or []) if s]
    found = sum(1 for s in wanted if s in haystack)
    absent = sum(1 for s in unwanted if s not in haystack)
    return SnippetScores(
        with_hit=found / len(wanted) if wanted else None,
        without_clean=absent / len(unwanted) if unwanted else None,
        with_found=found,
        with_total=len(wanted),
        without_absent=absent,
        without_total=len(unwanted),
    )


@dataclass
class SnippetSummary:
    """Snippet rates averaged over pages (each page weighs the same)."""

    with_hit: float | None
    without_clean: float | None
    n_with: int
    n_without: int

    def as_dict(self) -> dict[str, float | int | None]:
        return dict(self.__dict__)


def aggregate_snippets(pages: Sequence[SnippetScores]) -> SnippetSummary:
    """Mean of the per-page snippet rates over the pages that have each kind of list."""
    hits = [p.with_hit for p in pages if p.with_hit is not None]
    cleans = [p.without_clean for p in pages if p.without_clean is not None]
    return SnippetSummary(
        with_hit=_mean(hits),
        without_clean=_mean(cleans),
        n_with=len(hits),
        n_without=len(cleans),
    )


# --------------------------------------------------------------------------- WCXB word-level F1


def word_tokens(text: str | None) -> list[str]:
    """The WCXB tokens of ``text``: every match of ``\\w+`` in the lower-cased text."""
    if not text:
        return []
    return _TOKEN_RE.findall(text.lower())


@dataclass(frozen=True)
class WordScores:
    """One page's word-level precision, recall and F1 (WCXB definition), each in [0, 1]."""

    precision: float
    recall: float
    f1: float


def word_scores(true_text: str | None, predicted_text: str | None) -> WordScores:
    """Compare one page's prediction with its ground truth by bags of lower-cased words."""
    truth, pred = word_tokens(true_text), word_tokens(predicted_text)
    if not truth:
        return WordScores(1.0, 1.0, 1.0) if not pred else WordScores(0.0, 0.0, 0.0)
    if not pred:
        return WordScores(0.0, 0.0, 0.0)
    overlap = sum((Counter(pred) & Counter(truth)).values())
    precision, recall = overlap / len(pred), overlap / len(truth)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return WordScores(precision, recall, f1)


def bootstrap_interval(
    items: Sequence,
    statistic,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of ``statistic(sample)`` over resamples of ``items``.

    Args:
        items: the per-page (or per-pair) values the statistic reads.
        statistic: ``Sequence -> float | None``; resamples where it is ``None`` are skipped.
        confidence: the interval's coverage (0.95: the 2.5th and 97.5th percentiles).

    Returns:
        ``(low, high)``, or ``None`` with fewer than two items or no defined resample.
    """
    if len(items) < 2:
        return None
    rng = random.Random(seed)
    n = len(items)
    values = []
    for _ in range(resamples):
        v = statistic([items[rng.randrange(n)] for _ in range(n)])
        if v is not None:
            values.append(v)
    if not values:
        return None
    values.sort()
    tail = (1.0 - confidence) / 2
    lo = values[min(len(values) - 1, int(math.floor(tail * len(values))))]
    hi = values[min(len(values) - 1, int(math.ceil((1.0 - tail) * len(values))) - 1)]
    return lo, hi
