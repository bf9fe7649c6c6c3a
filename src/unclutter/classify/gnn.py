"""A GraphSAGE-style network over the DOM, evaluated in numpy (no torch at run time).

Hamilton, Ying, Leskovec, "Inductive Representation Learning on Large Graphs", NeurIPS
2017 (GraphSAGE, mean aggregator), with the neighbour average weighted by DensitySum.

Graph: the element nodes of a :class:`~unclutter.classify.features.PageGraph`; edges
parent<->child and previous<->next element sibling (both directions).

Input of node ``i`` (shape ``(d_in,)``): its element features standardised with the
training mean/std (``(E_i - mu) / sigma``, clipped to +-``GNN_INPUT_CLIP``;
:data:`~unclutter.classify.features.ELEMENT_FEATURES`),
its tag one-hot (:data:`~unclutter.classify.constants.UNIT_TAGS` + other) and its class/id
vocabulary bits (the node's and its ancestors').

Input projection ``h^0 = ReLU(W_p x + b_p)`` (keeps the layers narrow), then layer ``l``
(``L`` layers)::

    a_i     = sum_j w_j h_j^{l-1} / sum_j w_j        over neighbours j of i
    h_i^l   = ReLU( W_l [h_i^{l-1} ; a_i] + b_l )
    w_j     = log(1 + DensitySum_j) + GNN_WEIGHT_EPS  (uniform w_j = 1 when the model was
                                                       trained without DensitySum)

Head: ``P(content | i) = softmax(W_o h_i^L + b_o)[1]`` (trained with cross-entropy on the
labelled units; only units are read at inference). DensitySum: sum of the children's
composite text density (Sun et al., SIGIR 2011), see :mod:`unclutter.classify.features`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .constants import GNN_INPUT_CLIP, GNN_WEIGHT_EPS, UNIT_TAGS
from .modelmeta import ModelMeta

__all__ = ["GraphSage", "node_inputs", "neighbour_edges"]


def node_inputs(E: np.ndarray, tag: np.ndarray, mask_lo: np.ndarray, mask_hi: np.ndarray,
                mean: np.ndarray, std: np.ndarray, vocab_size: int) -> np.ndarray:
    """Input matrix, shape ``(n, len(ELEMENT_FEATURES) + len(UNIT_TAGS) + 1 + vocab_size)``.

    ``tag``: index into ``UNIT_TAGS`` (``len(UNIT_TAGS)`` = other); ``mask_lo``/``mask_hi``:
    vocabulary bits 0-63 / 64-127 as uint64."""
    n = E.shape[0]
    onehot = np.zeros((n, len(UNIT_TAGS) + 1))
    onehot[np.arange(n), tag] = 1.0
    words = np.stack([mask_lo, mask_hi], axis=1).astype(np.uint64)
    bits = np.unpackbits(words.view(np.uint8).reshape(n, 16), axis=1, bitorder="little")[:, :vocab_size]
    z = np.clip((E - mean) / std, -GNN_INPUT_CLIP, GNN_INPUT_CLIP)
    return np.hstack([z, onehot, bits.astype(np.float64)])


def neighbour_edges(parent: np.ndarray, prev: np.ndarray, ds: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(dst, src, weight)`` of the directed edges (each undirected edge both ways),
    weights normalised so that each destination's weights sum to 1; shape ``(m,)`` each.
    ``ds`` = DensitySum per node, or ``None`` for uniform weights."""
    n = parent.size
    child = np.nonzero(parent >= 0)[0]
    sib = np.nonzero(prev >= 0)[0]
    a = np.concatenate([child, parent[child], sib, prev[sib]])
    b = np.concatenate([parent[child], child, prev[sib], sib])
    dst, src = a.astype(np.int64), b.astype(np.int64)
    if ds is None:
        w = np.ones(dst.size)
    else:
        w = np.log1p(np.maximum(ds, 0.0))[src] + GNN_WEIGHT_EPS
    tot = np.bincount(dst, weights=w, minlength=n)
    w = w / np.where(tot > 0, tot, 1.0)[dst]
    return dst, src, w


def _aggregate(h: np.ndarray, dst: np.ndarray, src: np.ndarray, w: np.ndarray) -> np.ndarray:
    out = np.zeros_like(h)
    np.add.at(out, dst, h[src] * w[:, None])
    return out


@dataclass
class GraphSage(ModelMeta):
    """Weights of the network (``proj``: ``(W_p, b_p)``, ``W_p`` of shape ``(d, d_in)``;
    ``layers``: list of ``(W, b)``, ``W`` of shape ``(d, 2 * d)``; ``head``: ``(W_o, b_o)``,
    ``W_o`` of shape ``(2, d)``) and the input standardisation; ``meta``: vocabulary,
    threshold, ``densitysum`` flag, training facts."""

    proj: tuple[np.ndarray, np.ndarray]
    layers: list[tuple[np.ndarray, np.ndarray]]
    head: tuple[np.ndarray, np.ndarray]
    mean: np.ndarray
    std: np.ndarray
    meta: dict = field(default_factory=dict)

    def forward(self, x: np.ndarray, dst: np.ndarray, src: np.ndarray, w: np.ndarray) -> np.ndarray:
        """P(content) of every node, shape ``(n,)``."""
        h = np.maximum(x @ self.proj[0].T + self.proj[1], 0.0)
        for W, b in self.layers:
            a = _aggregate(h, dst, src, w)
            h = np.maximum(np.hstack([h, a]) @ W.T + b, 0.0)
        Wo, bo = self.head
        z = h @ Wo.T + bo
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e[:, 1] / e.sum(axis=1)

    def predict_units(self, g) -> np.ndarray:
        """P(content) of each of ``g.units``, shape ``(len(g.units),)``."""
        from .features import element_features

        vs = len(self.meta.get("vocab", []))
        masks = g.masks
        lo = np.fromiter((m & 0xFFFFFFFFFFFFFFFF for m in masks), dtype=np.uint64, count=g.n)
        hi = np.fromiter(((m >> 64) & 0xFFFFFFFFFFFFFFFF for m in masks), dtype=np.uint64, count=g.n)
        idx = {t: i for i, t in enumerate(UNIT_TAGS)}
        tag = np.fromiter((idx.get(t, len(UNIT_TAGS)) for t in g.raw["tag"]), dtype=np.int64, count=g.n)
        x = node_inputs(element_features(g), tag, lo, hi, self.mean, self.std, vs)
        dst, src, w = neighbour_edges(g.parent, g.prev,
                                      g.density_sum if self.meta.get("densitysum", True) else None)
        return self.forward(x, dst, src, w)[g.units]

    def save(self, path: str | Path) -> None:
        arrays = {"mean": self.mean, "std": self.std, "head_W": self.head[0], "head_b": self.head[1],
                  "proj_W": self.proj[0], "proj_b": self.proj[1]}
        for k, (W, b) in enumerate(self.layers):
            arrays[f"W{k}"] = W
            arrays[f"b{k}"] = b
        meta = {k: v for k, v in self.meta.items() if not k.startswith("_")}
        meta["n_layers"] = len(self.layers)
        np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> "GraphSage":
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            layers = [(z[f"W{k}"].astype(np.float64), z[f"b{k}"].astype(np.float64))
                      for k in range(meta["n_layers"])]
            proj = (z["proj_W"].astype(np.float64), z["proj_b"].astype(np.float64))
            return cls(proj, layers, (z["head_W"].astype(np.float64), z["head_b"].astype(np.float64)),
                       z["mean"].astype(np.float64), z["std"].astype(np.float64), meta)
