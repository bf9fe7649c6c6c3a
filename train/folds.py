"""The cross-validation's fold models, built once and cached, so that a rule or threshold
change can be scored by the CV by site in minutes (``python bench/cv.py``) without retraining.

    python -m train.folds [--jobs 2]    (after train.build_dataset; about 15 minutes on 2 cores)

For each of the 5 folds of wcxb-dev grouped by site (:func:`train.data.folds`, the folds of
every CV figure in ``train/results``), the two models ``auto`` uses are fitted without the
fold's sites, with the shipped settings: the page-level GBDT (both stages,
:func:`train.train_gbdt.two_stage_model`, setting and thresholds from
``train/results/gbdt.json``) and the refinement classifier (:mod:`train.train_refine`,
its chosen threshold from ``train/results/refine.json``). Written to
``train/cache/folds/``: ``gbdt-<k>.npz``, ``refine-<k>.npz`` and ``folds.json``
(wcxb-dev case id -> fold).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time

import numpy as np

from train.common import CACHE, REPO, SEED, TRAIN_DATASETS, build_vocab, load_cases

K = 5
FOLDS = CACHE / "folds"


def main() -> None:
    import lightgbm as lgb

    from unclutter.classify.constants import VOCAB_SIZE
    from unclutter.classify.features import unit_feature_names
    from train.data import folds, load_index
    from train.train_gbdt import BASE, context_data, export, two_stage_model
    from train.train_refine import PARAMS, _init, process

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    t_start = time.time()
    FOLDS.mkdir(parents=True, exist_ok=True)

    page_index = load_index()
    page_fold = folds(page_index, K, SEED)
    site_fold = {page_index[k]["site"]: int(page_fold[k]) for k in range(len(page_index))}
    gbdt_results = json.loads((REPO / "train" / "results" / "gbdt.json").read_text())
    chosen = dict(gbdt_results["chosen"])
    gbdt_thr = chosen.pop("threshold")
    first_thr = chosen.pop("first_stage_threshold")
    pvocab = json.loads((CACHE / "vocab.json").read_text())
    pnames = unit_feature_names(len(pvocab))
    D = context_data(page_index, pnames, chosen)
    page_of_unit = page_fold[D["page"]]
    for f in range(K):
        model = two_stage_model(D, page_of_unit != f, chosen, first_thr, gbdt_thr, pvocab, pnames,
                                bool(gbdt_results.get("recovery_shipped", True)))[0]
        model.save(FOLDS / f"gbdt-{f}.npz")
    print(f"fold page GBDTs written ({time.time() - t_start:.0f} s)", flush=True)

    cases = [c for name in TRAIN_DATASETS for c in load_cases(name)]
    vocab = build_vocab(cases, VOCAB_SIZE)
    names = unit_feature_names(len(vocab))
    with mp.Pool(args.jobs, initializer=_init, initargs=(vocab,)) as pool:
        pages = [p for p in pool.imap(process, cases, chunksize=4) if p is not None]
    X = np.concatenate([p["X"] for p in pages])
    y = np.concatenate([p["y"] for p in pages]).astype(np.int32)
    fold = np.asarray([site_fold.get(p["site"], -1) if p["dataset"] == "wcxb-dev" else -1 for p in pages],
                      dtype=np.int32)
    unit_fold = np.concatenate([np.full(p["y"].size, fold[k], dtype=np.int32) for k, p in enumerate(pages)])
    ok = y >= 0
    w = np.log1p(np.expm1(X[:, names.index("self.log_own_chars")].astype(np.float64)))
    thr = json.loads((REPO / "train" / "results" / "refine.json").read_text())["chosen_threshold"]
    for f in range(K):
        m = (unit_fold != f) & ok
        fit = lgb.LGBMClassifier(**{**BASE, **PARAMS}).fit(X[m], y[m], sample_weight=w[m])
        export(fit, vocab, names, thr, False, {}).save(FOLDS / f"refine-{f}.npz")
    print(f"fold refinement models written ({time.time() - t_start:.0f} s)", flush=True)
    wcxb = {c["id"] for c in load_cases("wcxb-dev")}
    by_id = {info["id"]: int(page_fold[k]) for k, info in enumerate(page_index)
             if info["dataset"] == "wcxb-dev" and info["id"] in wcxb}
    (FOLDS / "folds.json").write_text(json.dumps(by_id, sort_keys=True))
    print(f"{len(by_id)} wcxb-dev pages in {K} folds -> {FOLDS} ({time.time() - t_start:.0f} s)")


if __name__ == "__main__":
    main()
