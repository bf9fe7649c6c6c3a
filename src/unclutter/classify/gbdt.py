"""Gradient-boosted trees evaluated in numpy (no LightGBM at run time).

The model is trained with LightGBM (``train/train_gbdt.py``) and exported to a compact
``.npz`` by :func:`export_lightgbm` (``Booster.dump_model()`` flattened). Prediction for a
binary objective is ``P(content) = sigmoid(sum over trees of the reached leaf's value)``
(LightGBM's raw score; ``init_score`` folded into the first tree's leaves by LightGBM).

Layout of the arrays (all trees concatenated; node ``k`` of the ensemble):

* ``feature[k]`` (int32) the split feature, ``-1`` for a leaf;
* ``cut[k]`` (float64): go left when ``x[feature] <= cut`` (LightGBM's
  numerical ``<=`` decision; our features are never NaN, so missing-value routing is not
  needed and export refuses categorical splits);
* ``left[k]``, ``right[k]`` (int32): ensemble indices of the children;
* ``value[k]`` (float64): the leaf value;
* ``roots`` (int32): index of each tree's root.

Inference walks all (row, tree) pairs at once, one vectorised step per tree level:
``O(depth)`` numpy operations on arrays of shape ``(rows, trees)`` (leaves loop onto
themselves, so no pair needs masking).

A model may carry a second stage, ``context`` (auto-context, :mod:`.context`): a second
ensemble that reads each unit's features followed by the auto-context features of the
first stage's probabilities; stored in the same file under ``ctx_``-prefixed keys. Its
``meta["threshold"]`` is then the decision threshold of the two stages together and
``meta["first_stage_threshold"]`` that of the first alone (for ablations).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .modelmeta import ModelMeta

__all__ = ["TreeEnsemble", "export_lightgbm"]


@dataclass
class TreeEnsemble(ModelMeta):
    """A flattened ensemble; see the module docstring. ``meta`` holds the feature names,
    vocabulary, decision threshold and training facts stored with the model."""

    feature: np.ndarray
    cut: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray
    roots: np.ndarray
    meta: dict
    context: "TreeEnsemble | None" = None

    def predict_units(self, g, stages: int = 2) -> np.ndarray:
        """P(content) of each unit of a PageGraph, shape ``(len(g.units),)``: the second
        stage's when the model has one and ``stages`` is 2, else the first's."""
        from .context import context_matrix
        from .features import ELEMENT_FEATURES, unit_matrix

        X = unit_matrix(g, len(self.meta.get("vocab", [])))
        p = self.predict_proba(X)
        if self.context is None or stages < 2:
            return p
        own = np.expm1(X[:, ELEMENT_FEATURES.index("log_own_chars")])  # the "self." columns come first
        C = context_matrix(g.parent, g.end, g.units, own, p)
        return self.context.predict_proba(np.hstack([X, C]))

    def _compiled(self):
        """Arrays for :meth:`raw_score`, the nodes renumbered tree by tree in breadth-first
        order so that a node's right child directly follows its left one (the next node is
        ``first_child[node] + went_right``: one gather fewer per level); leaves are their
        own first child and compare against +inf, so every (row, tree) pair can take
        ``depth`` steps without a mask."""
        c = self.meta.get("_compiled")
        if c is None:
            leaf = (self.feature < 0).tolist()
            left, right = self.left.tolist(), self.right.tolist()
            order: list[int] = []
            for r in self.roots.tolist():
                level = [r]
                order.append(r)
                while level:
                    nxt = []
                    for k in level:
                        if not leaf[k]:
                            nxt += (left[k], right[k])
                    order += nxt
                    level = nxt
            order_a = np.asarray(order, dtype=np.intp)
            new = np.empty(order_a.size, dtype=np.intp)
            new[order_a] = np.arange(order_a.size)
            is_leaf = self.feature[order_a] < 0
            feat = np.where(is_leaf, 0, self.feature[order_a]).astype(np.intp)
            cut = np.where(is_leaf, np.inf, self.cut[order_a])
            first = np.where(is_leaf, np.arange(order_a.size), new[self.left[order_a]])
            # depth of the deepest leaf: levels of the breadth-first order
            d = [0] * order_a.size
            for k, (lf, fc) in enumerate(zip(is_leaf.tolist(), first.tolist())):  # parents first
                if not lf:
                    d[fc] = d[fc + 1] = d[k] + 1
            c = self.meta["_compiled"] = (feat, cut, first.astype(np.intp), self.value[order_a],
                                          new[self.roots], max(d, default=0))
        return c

    def raw_score(self, X: np.ndarray) -> np.ndarray:
        """Sum of leaf values per row, shape ``(rows,)``."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        rows, cols = X.shape
        if rows == 0:
            return np.zeros(0)
        feat, cut, first, value, roots, depth = self._compiled()
        flat = X.ravel()
        offset = (np.arange(rows, dtype=np.intp) * cols)[:, None]
        node = np.broadcast_to(roots, (rows, roots.size)).copy()
        take = np.take  # (faster than fancy indexing for flat gathers)
        for _ in range(depth):
            at = take(feat, node)
            at += offset
            right = take(flat, at) > take(cut, node)
            node = take(first, node)
            node += right
        return take(value, node).sum(axis=1)

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """``P(content)`` per row, shape ``(rows,)``: the logistic of :meth:`raw_score`."""
        return 1.0 / (1.0 + np.exp(-self.raw_score(X)))

    @classmethod
    def load(cls, path: str | Path) -> "TreeEnsemble":

        with np.load(path, allow_pickle=False) as z:
            stages = [cls._from_arrays(z, "")]
            if "ctx_feature" in z.files:
                stages[0].context = cls._from_arrays(z, "ctx_")
            return stages[0]

    @classmethod
    def _from_arrays(cls, z, prefix: str) -> "TreeEnsemble":
        import json

        meta = json.loads(str(z[prefix + "meta"]))
        meta.pop("_vocab_map", None)
        meta.pop("_compiled", None)
        return cls(*(z[prefix + k] for k in ("feature", "cut", "left", "right", "value", "roots")), meta)

    def _arrays(self, prefix: str) -> dict[str, np.ndarray]:
        import json

        meta = json.dumps({k: v for k, v in self.meta.items() if not k.startswith("_")})
        return {prefix + "feature": self.feature, prefix + "cut": self.cut, prefix + "left": self.left,
                prefix + "right": self.right, prefix + "value": self.value, prefix + "roots": self.roots,
                prefix + "meta": np.array(meta)}

    def save(self, path: str | Path) -> None:
        """Write the model (and its second stage, if any) to ``path`` (``.npz``)."""
        arrays = self._arrays("")
        if self.context is not None:
            arrays.update(self.context._arrays("ctx_"))
        np.savez_compressed(path, **arrays)


def export_lightgbm(booster, meta: dict) -> TreeEnsemble:
    """Flatten a trained ``lightgbm.Booster`` (binary objective) into a :class:`TreeEnsemble`."""
    dump = booster.dump_model()
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []
    roots: list[int] = []
    for tree in dump["tree_info"]:
        roots.append(len(feature))
        stack = [(tree["tree_structure"], -1, False)]
        while stack:
            nd, parent, is_right = stack.pop()
            k = len(feature)
            if parent >= 0:
                (right if is_right else left)[parent] = k
            if "leaf_value" in nd and "split_index" not in nd:
                feature.append(-1)
                threshold.append(0.0)
                left.append(k)
                right.append(k)
                value.append(float(nd["leaf_value"]))
                continue
            if nd.get("decision_type", "<=") != "<=":
                raise ValueError(f"unsupported split {nd.get('decision_type')!r}")
            feature.append(int(nd["split_feature"]))
            threshold.append(float(nd["threshold"]))
            left.append(-1)
            right.append(-1)
            value.append(0.0)
            stack.append((nd["right_child"], k, True))
            stack.append((nd["left_child"], k, False))
    return TreeEnsemble(np.asarray(feature, dtype=np.int32), np.asarray(threshold),
                        np.asarray(left, dtype=np.int32), np.asarray(right, dtype=np.int32),
                        np.asarray(value), np.asarray(roots, dtype=np.int32), meta)
