"""Train the classifier that refines the heuristic's selection (``auto``'s clean-up step).

    python -m train.train_refine [--jobs 2]    (after train.build_dataset and train.train_gbdt;
                                                about 20 minutes on 2 cores)

See :mod:`unclutter.classify.refine` for what the model does at extraction time.

1. **Units**: every training page (wcxb-dev, readability-tests; AEB is never read) goes
   through the pipeline's stages up to the heuristic's selection
   (:func:`train.common.heuristic_selection`); the selection is turned into a
   :class:`~unclutter.classify.features.PageGraph` as if it were the page, its units get
   :func:`unclutter.classify.labels.align_labels` labels against the ground-truth text.
   ``<figcaption>`` units are left unlabelled (captions are kept by rule, not by the model).
2. **Model**: LightGBM with :data:`PARAMS` (a setting of the page-level GBDT's grid,
   ``train/results/gbdt.json``), unit weight ``log1p(own characters)``.
3. **Extraction-level CV** through the real pipeline (``extractor="auto"``, fold models
   swapped in with :func:`unclutter.classify.registry.override`: the refinement model and
   the page-level GBDT, refitted here from ``train/cache`` with its chosen setting (both
   stages, :func:`train.train_gbdt.two_stage_model`), both
   trained without the fold's sites): the page-level GBDT's 5 folds of wcxb-dev grouped by site, for each decision threshold of :data:`THRESHOLDS` and each
   :data:`~unclutter.classify.constants.REFINE_MIN_KEPT_SHARE` of :data:`MIN_SHARES`, next
   to ``auto`` without refinement. The threshold with the best CV F1 ships.
4. Final model on all pages: ``src/unclutter/classify/models/refine.npz``; every figure in
   ``train/results/refine.json``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import multiprocessing as mp
import time

import numpy as np

from train.common import REPO, SEED, TRAIN_DATASETS, build_vocab, heuristic_selection, load_cases, page_bytes, \
    save_results, site

K = 5
#: The page-level GBDT's chosen setting (train/results/gbdt.json), reused: same features.
PARAMS = dict(num_leaves=31, max_depth=6, n_estimators=200, learning_rate=0.15)
THRESHOLDS = (0.2, 0.3, 0.4, 0.5)
MIN_SHARES = (0.0, 0.5)
MODEL_PATH = REPO / "src" / "unclutter" / "classify" / "models" / "refine.npz"

_VOCAB: dict[str, int] = {}


def _init(vocab: list[str]) -> None:
    _VOCAB.update({t: i for i, t in enumerate(vocab)})


def process(case: dict) -> dict | None:
    """Units of one page's heuristic selection: features and labels (``None`` without a
    ground truth or when the page cannot be read)."""
    from unclutter.classify.features import build_graph, unit_matrix
    from unclutter.classify.labels import align_labels

    if case.get("text") is None:
        return None
    try:
        root, declared = heuristic_selection(page_bytes(case), case.get("url"))
        g = build_graph(root, vocab=_VOCAB, page_type=declared, url=case.get("url"))
    except Exception:  # noqa: BLE001 - unreadable pages are skipped (the pipeline refuses them too)
        return None
    y = align_labels(g, case["text"])
    tags = g.raw["tag"][g.units]
    y[tags == "figcaption"] = -1
    return {"id": case["id"], "dataset": case["_dataset"], "site": site(case),
            "X": unit_matrix(g, len(_VOCAB)).astype(np.float32), "y": y}


def main() -> None:
    import lightgbm as lgb

    import unclutter.classify.refine as refine_mod
    from unclutter.classify.constants import VOCAB_SIZE
    from unclutter.classify.features import unit_feature_names
    from train.cv_eval import extract_texts, fmt, score, wcxb_cases
    from train.common import CACHE
    from train.data import folds, load_index
    from train.train_gbdt import BASE, context_data, export, two_stage_model

    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    t_start = time.time()
    cases = [c for name in TRAIN_DATASETS for c in load_cases(name)]
    vocab = build_vocab(cases, VOCAB_SIZE)
    names = unit_feature_names(len(vocab))
    with mp.Pool(args.jobs, initializer=_init, initargs=(vocab,)) as pool:
        pages = [p for p in pool.imap(process, cases, chunksize=4) if p is not None]
    index = [{"id": p["id"], "dataset": p["dataset"], "site": p["site"]} for p in pages]
    X = np.concatenate([p["X"] for p in pages])
    y = np.concatenate([p["y"] for p in pages]).astype(np.int32)
    page = np.concatenate([np.full(p["y"].size, k, dtype=np.int32) for k, p in enumerate(pages)])
    ok = y >= 0
    own = np.expm1(X[:, names.index("self.log_own_chars")].astype(np.float64))
    w = np.log1p(own)
    print(f"{len(pages)} pages, {y.size} units ({int(ok.sum())} labelled, content share "
          f"{float((y[ok] == 1).mean()):.3f}) in {time.time() - t_start:.0f} s", flush=True)
    results: dict = {"pages": len(pages), "units": int(y.size), "labelled": int(ok.sum()),
                     "content_share": float((y[ok] == 1).mean()), "params": PARAMS}

    def fit(mask):
        m = lgb.LGBMClassifier(**{**BASE, **PARAMS})
        m.fit(X[mask & ok], y[mask & ok], sample_weight=w[mask & ok])
        return m

    # Folds: those of the page-level GBDT (train/cache, python -m train.build_dataset), by site,
    # so that each fold's page GBDT (which ``auto`` routes products, forums and weak selections
    # to) and refinement model were both trained without the fold's sites.
    page_index = load_index()
    page_fold = folds(page_index, K, SEED)
    site_fold = {page_index[k]["site"]: int(page_fold[k]) for k in range(len(page_index))}
    fold = np.asarray([site_fold.get(info["site"], -1) if info["dataset"] == "wcxb-dev" else -1
                       for info in index], dtype=np.int32)
    pf = fold[page]
    gbdt_results = json.loads((REPO / "train" / "results" / "gbdt.json").read_text())
    chosen = dict(gbdt_results["chosen"])
    gbdt_thr = chosen.pop("threshold")
    first_thr = chosen.pop("first_stage_threshold")
    pvocab = json.loads((CACHE / "vocab.json").read_text())
    pnames = unit_feature_names(len(pvocab))
    D = context_data(page_index, pnames, chosen)
    page_of_unit = page_fold[D["page"]]
    page_models = [two_stage_model(D, page_of_unit != f, chosen, first_thr, gbdt_thr, pvocab, pnames,
                                   bool(gbdt_results.get("recovery_shipped", True)))[0] for f in range(K)]
    print(f"fold page GBDTs fitted ({time.time() - t_start:.0f} s)", flush=True)

    wcases = wcxb_cases()
    by_fold = {f: [index[k]["id"] for k in range(len(index)) if fold[k] == f] for f in range(K)}
    fold_models = [fit(pf != f) for f in range(K)]
    cv: dict = {}
    texts = {}
    for f in range(K):
        t, _ = extract_texts(by_fold[f], wcases, "auto", page_models[f], {"refine": False})
        texts.update(t)
    cv["auto-no-refine"] = score(texts, wcases)
    print("CV auto without refinement:", fmt(cv["auto-no-refine"]), flush=True)
    old_share = refine_mod.REFINE_MIN_KEPT_SHARE
    try:
        for share in MIN_SHARES:
            refine_mod.REFINE_MIN_KEPT_SHARE = share
            for thr in THRESHOLDS:
                texts = {}
                secs = 0.0
                for f in range(K):
                    m = export(fold_models[f], vocab, names, thr, False, {})
                    t, s = extract_texts(by_fold[f], wcases, "auto", m, model_name="refine",
                                         others={"gbdt": page_models[f]})
                    texts.update(t)
                    secs += s
                key = f"threshold {thr} min share {share}"
                cv[key] = {**score(texts, wcases), "pages_per_s": len(texts) / secs}
                print(f"CV auto, refinement {key}:", fmt(cv[key]), flush=True)
    finally:
        refine_mod.REFINE_MIN_KEPT_SHARE = old_share
    results["cv_extraction"] = cv
    best = max((k for k in cv if k.startswith("threshold") and k.endswith(f"min share {old_share}")),
               key=lambda k: cv[k]["all"])
    thr = float(best.split()[1])
    results["chosen_threshold"] = thr
    cv["auto"] = cv[best]  # what ships: the chosen threshold at the shipped REFINE_MIN_KEPT_SHARE
    print("CV auto (shipped):", best, fmt(cv["auto"]), flush=True)
    texts = {}
    for f in range(K):  # ablation: auto without its second opinion on byline-less pages
        m = export(fold_models[f], vocab, names, thr, False, {})
        texts.update(extract_texts(by_fold[f], wcases, "auto", m, {"second_opinion": False}, model_name="refine",
                                   others={"gbdt": page_models[f]})[0])
    cv["auto-no-second-opinion"] = score(texts, wcases)
    print("CV auto without the second opinion:", fmt(cv["auto-no-second-opinion"]), flush=True)
    final = fit(np.ones(y.size, dtype=bool))
    ens = export(final, vocab, names, thr, False,
                 {"kind": "refine", "trained": dt.date.today().isoformat(), "seed": SEED,
                  "params": {**BASE, **PARAMS}, "training_units": int(ok.sum()), "lightgbm": lgb.__version__})
    MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
    ens.save(MODEL_PATH)
    save_results("refine", results, MODEL_PATH, t_start)


if __name__ == "__main__":
    main()
