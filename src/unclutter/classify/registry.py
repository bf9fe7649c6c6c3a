"""The shipped model files and how they are found, loaded (once) and overridden.

Models live next to this module in ``models/`` (``gbdt.npz``, ``gnn.npz``, ``refine.npz``; see
``models/MODEL_CARD.md``). Loading needs numpy only. :func:`override` swaps a model in for
the duration of a ``with`` block: cross-validation evaluates fold models through the real
pipeline with it, and tests use it for fixtures.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

__all__ = ["MODEL_DIR", "MODEL_FILES", "get_model", "override"]

MODEL_DIR = Path(__file__).resolve().parent / "models"

#: Model file of each learned extractor.
MODEL_FILES = {"gbdt": "gbdt.npz", "gnn": "gnn.npz",
               # not an extractor: the classifier refining the heuristic's selection (:mod:`.refine`)
               "refine": "refine.npz"}

_lock = threading.Lock()
_loaded: dict[str, Any] = {}
_overrides: dict[str, Any] = {}


def _load(name: str, file: str) -> Any:
    path = MODEL_DIR / file
    if not path.exists():
        from ..core.errors import UsageError

        raise UsageError(f"extractor {name!r}: model file {path.name} is not installed")
    if name in ("gbdt", "refine"):
        from .gbdt import TreeEnsemble

        return TreeEnsemble.load(path)
    from .gnn import GraphSage

    return GraphSage.load(path)


def get_model(name: str, file: str | None = None) -> Any:
    """The model of extractor ``name`` (``"gbdt"`` or ``"gnn"``), or the refinement
    classifier (``"refine"``), loaded on first use (once per file). ``file``: another file in
    :data:`MODEL_DIR` to load instead of the shipped one (``Ablation.model_file``). Raises
    UsageError when the file is not installed."""
    if name in _overrides:
        return _overrides[name]
    file = file or MODEL_FILES[name]
    model = _loaded.get(file)
    if model is None:
        with _lock:
            model = _loaded.get(file)
            if model is None:
                model = _loaded[file] = _load(name, file)
    return model


@contextmanager
def override(name: str, model: Any) -> Iterator[None]:
    """Use ``model`` for extractor ``name`` inside the block (not thread-safe: for
    training scripts and tests)."""
    old = _overrides.get(name)
    _overrides[name] = model
    try:
        yield
    finally:
        if old is None:
            _overrides.pop(name, None)
        else:
            _overrides[name] = old
