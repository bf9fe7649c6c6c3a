"""Word tokens as the Article Extraction Benchmark counts them.

The AEB metric (scrapinghub/article-extraction-benchmark, ``evaluate.py``) takes a text's
tokens to be the matches of ``\\w+``: Unicode word characters, case kept, punctuation and
whitespace dropped. The classifiers' training labels (:mod:`unclutter.classify.labels`) use
the same tokens, so that a unit counts as content by the rule the benchmark scores with.

:mod:`unclutter.measure.evaluate` holds its own copy of this one-line rule because it must
load as a single file (``bench/run.py`` scores with it while the package is broken).
"""

from __future__ import annotations

import re

__all__ = ["tokenize"]

#: ``\w+`` on ``str`` is Unicode-aware in Python 3: letters and digits of every script, and ``_``.
_TOKEN_RE = re.compile(r"\w+")


def tokenize(text: str | None) -> list[str]:
    """The AEB tokens of ``text``: every match of ``\\w+``, in order, case kept."""
    if not text:
        return []
    return _TOKEN_RE.findall(text)
