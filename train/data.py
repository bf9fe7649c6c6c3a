"""Load the cached pages (``train/cache``) into arrays for the trainers."""

from __future__ import annotations

import json

import numpy as np

from train.common import CACHE


def load_index() -> list[dict]:
    return [i for i in json.loads((CACHE / "index.json").read_text()) if "error" not in i]


def load_units(index: list[dict]):
    """X, y, page number per labelled unit (unlabelled units dropped)."""
    Xs, ys, ps = [], [], []
    for k, info in enumerate(index):
        with np.load(CACHE / "pages" / info["file"]) as z:
            X, y = z["X"], z["y"]
        ok = y >= 0
        Xs.append(X[ok])
        ys.append(y[ok])
        ps.append(np.full(int(ok.sum()), k, dtype=np.int32))
    X = np.concatenate(Xs)
    y = np.concatenate(ys).astype(np.int32)
    page = np.concatenate(ps)
    return X, y, page


def folds(index: list[dict], k: int, seed: int) -> np.ndarray:
    """Fold number of each page: wcxb-dev pages grouped by site into ``k`` folds
    (scikit-learn GroupKFold, shuffled with ``seed``); other pages -1 (always trained on)."""
    from sklearn.model_selection import GroupKFold

    fold = np.full(len(index), -1, dtype=np.int32)
    w = [i for i, info in enumerate(index) if info["dataset"] == "wcxb-dev"]
    groups = [index[i]["site"] for i in w]
    gkf = GroupKFold(n_splits=k, shuffle=True, random_state=seed)
    for f, (_, test) in enumerate(gkf.split(np.zeros(len(w)), groups=groups)):
        fold[np.asarray(w)[test]] = f
    return fold


def load_pages(index: list[dict]):
    """Every unit of every page (unlabelled ones too: the auto-context features of a unit
    read its neighbours): X, y (-1 unlabelled), page number per unit, and per page the
    element ``parent`` array and the ``units`` element indices."""
    Xs, ys, ps, graphs = [], [], [], []
    for k, info in enumerate(index):
        with np.load(CACHE / "pages" / info["file"]) as z:
            Xs.append(z["X"])
            ys.append(z["y"])
            graphs.append((z["parent"], z["units"]))
        ps.append(np.full(ys[-1].size, k, dtype=np.int32))
    return np.concatenate(Xs), np.concatenate(ys).astype(np.int32), np.concatenate(ps), graphs


def stacking_folds(index: list[dict], k: int, seed: int) -> np.ndarray:
    """Fold of each page for out-of-fold first-stage probabilities: :func:`folds`, with the
    pages outside wcxb-dev (always trained on there) spread over the ``k`` folds at random
    (``seed``), so that every page gets a probability from a model that did not see it."""
    fold = folds(index, k, seed)
    rest = fold < 0
    fold[rest] = np.random.default_rng(seed).integers(0, k, int(rest.sum()))
    return fold
