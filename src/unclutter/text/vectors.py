"""Sentence vectors for the extractive backend and topic segmentation: TF-IDF (default) and
cosine similarity, in numpy.

Choice: our own TF-IDF on numpy rather than scikit-learn's ``TfidfVectorizer``, which
pulls scipy, joblib and threadpoolctl (a few hundred MB installed): the default install
stays light, and what we need is 30 lines.

Weighting (Salton & Buckley 1988, "Term-weighting approaches in automatic text retrieval",
*Information Processing & Management* 24(5)): sublinear term frequency ``1 + ln(tf)``,
smoothed inverse document frequency ``ln((1 + N) / (1 + df)) + 1`` with the document's own
sentences as the collection (as TextRank/PacSum do), rows L2-normalised so a dot product is
the cosine similarity.
"""

from __future__ import annotations

import math
import re

import numpy as np

__all__ = ["STOPWORDS", "terms", "tfidf_matrix", "cosine_matrix"]

#: English function words ignored as terms: articles, pronouns, auxiliaries, prepositions,
#: conjunctions and a few discourse words (a short subset in the spirit of the SMART
#: system's stop list, Salton 1971). They carry no topic.
STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each even ever few
for from further had has have having he her here hers herself him himself his how i if in
into is it its itself just like me more most much my myself no nor not now of off on once
only or other our ours ourselves out over own said same says she should so some such than
that the their theirs them themselves then there these they this those through to too under
until up upon us very was we were what when where which while who whom why will with would
you your yours yourself yourselves one two also may might must shall s t d ll m re ve
""".split())

_TERM_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")


def terms(text: str) -> list[str]:
    """Lower-cased content words of ``text`` (no stop words, no 1-character tokens; a
    plural ``-s`` is folded onto the singular, a cheap stand-in for stemming)."""
    out = []
    for w in _TERM_RE.findall(text.lower()):
        w = w.replace("’", "'")
        if w.endswith("'s"):
            w = w[:-2]
        if len(w) < 2 or w in STOPWORDS:
            continue
        if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        out.append(w)
    return out


def tfidf_matrix(docs: list[list[str]]) -> np.ndarray:
    """TF-IDF rows for tokenised documents: shape ``(len(docs), vocabulary)``, float32,
    each non-empty row of unit L2 norm (an empty document is a zero row)."""
    vocab: dict[str, int] = {}
    for d in docs:
        for w in d:
            vocab.setdefault(w, len(vocab))
    m = np.zeros((len(docs), max(1, len(vocab))), dtype=np.float32)
    for i, d in enumerate(docs):
        counts: dict[int, int] = {}
        for w in d:
            j = vocab[w]
            counts[j] = counts.get(j, 0) + 1
        for j, c in counts.items():
            m[i, j] = 1.0 + math.log(c)
    n = len(docs)
    df = (m > 0).sum(axis=0)
    idf = np.log((1.0 + n) / (1.0 + df)) + 1.0
    m *= idf.astype(np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    """Pairwise cosine similarities of the rows of ``vectors`` (shape ``(n, n)``); rows
    need not be normalised; a zero row has similarity 0 with everything."""
    v = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    v = v / norms
    return v @ v.T
