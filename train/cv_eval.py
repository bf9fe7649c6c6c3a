"""Extraction-level cross-validation: fold models through the real pipeline, AEB F1.

Each wcxb-dev page is extracted by ``unclutter.extract(..., extractor=name)`` with the
model of the fold that did not see its site swapped in
(:func:`unclutter.classify.registry.override`); the text is scored with the AEB metric
(:mod:`unclutter.measure.evaluate`) overall and per ``meta.page_type``.
"""

from __future__ import annotations

import time
from collections import defaultdict

import numpy as np

from train.common import load_cases, page_bytes


def wcxb_cases() -> dict[str, dict]:
    return {c["id"]: c for c in load_cases("wcxb-dev")}


def extract_texts(ids: list[str], cases: dict[str, dict], extractor: str, model=None,
                  variant: dict | None = None, model_name: str | None = None,
                  others: dict | None = None) -> tuple[dict[str, str], float]:
    """Texts of ``ids`` extracted with ``extractor`` and the ablation switches ``variant``
    (fields of :class:`unclutter.core.options.Ablation`), ``model`` standing in for the model
    ``model_name`` (default: the extractor's own; ``"refine"`` for auto's refinement) and
    ``others`` (model name -> model) for further ones, and the seconds spent in
    :func:`unclutter.extract`."""
    from contextlib import ExitStack

    import unclutter
    from unclutter.classify import registry
    from unclutter.core.errors import UnclutterError
    from unclutter.core.options import Ablation
    from unclutter.route import AUTO_LEARNED_EXTRACTOR

    # ``auto`` runs the heuristic or AUTO_LEARNED_EXTRACTOR: the fold model stands in for the latter
    model_name = model_name or (AUTO_LEARNED_EXTRACTOR if extractor == "auto" else extractor)
    ablation = Ablation(**(variant or {}))

    texts: dict[str, str] = {}
    t = 0.0
    stack = ExitStack()
    for name, other in (others or {}).items():
        stack.enter_context(registry.override(name, other))
    try:
        for i in ids:
            c = cases[i]
            html = page_bytes(c)
            t0 = time.perf_counter()
            try:
                if model is not None:
                    with registry.override(model_name, model):
                        texts[i] = unclutter.extract(html, url=c.get("url"), extractor=extractor,
                                                     ablation=ablation).text
                else:
                    texts[i] = unclutter.extract(html, url=c.get("url"), extractor=extractor, ablation=ablation).text
            except UnclutterError:
                texts[i] = ""
            t += time.perf_counter() - t0
    finally:
        stack.close()
    return texts, t


def score(texts: dict[str, str], cases: dict[str, dict]) -> dict:
    """AEB F1 overall and per page type (cases with a text ground truth)."""
    from unclutter.measure.evaluate import evaluate

    by_type: dict[str, list] = defaultdict(list)
    pairs = []
    for i, t in texts.items():
        c = cases[i]
        if c.get("text") is None:
            continue
        pairs.append((c["text"], t))
        by_type[(c.get("meta") or {}).get("page_type", "?")].append((c["text"], t))
    out = {"all": evaluate(pairs, resamples=0).f1, "pages": len(pairs)}
    for k, v in sorted(by_type.items()):
        out[k] = evaluate(v, resamples=0).f1
    return out


def fmt(row: dict) -> str:
    return " ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items())


__all__ = ["wcxb_cases", "extract_texts", "score", "fmt", "np"]
