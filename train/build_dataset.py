"""Step 1 of training: features and automatic labels of every training page, cached.

    python -m train.build_dataset [--jobs 2]

Writes ``train/cache/vocab.json`` (the class/id vocabulary, :func:`train.common.build_vocab`)
and one ``train/cache/pages/<dataset>__<id>.npz`` per page:

* ``X`` (units x features, float32): :func:`unclutter.classify.features.unit_matrix`;
* ``y`` (units, int8): :func:`unclutter.classify.labels.align_labels` against ``text``;
* ``E``, ``tag``, ``mask_lo``/``mask_hi``, ``parent``, ``prev``, ``units``, ``ds``: the
  element graph for the GNN (element features, tag index, vocabulary bits, edges,
  DensitySum).

plus ``train/cache/index.json`` (id, dataset, site, page type, units per page).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time

import numpy as np

from train.common import CACHE, TRAIN_DATASETS, build_vocab, load_cases, page_bytes, page_type, pruned_body, site

_VOCAB: dict[str, int] = {}


def _init(vocab: list[str]) -> None:
    _VOCAB.update({t: i for i, t in enumerate(vocab)})


def element_tags(g) -> np.ndarray:
    from unclutter.classify.constants import UNIT_TAGS

    idx = {t: i for i, t in enumerate(UNIT_TAGS)}
    return np.asarray([idx.get(t, len(UNIT_TAGS)) for t in g.raw["tag"]], dtype=np.int16)


def process(case: dict) -> dict | None:
    from unclutter.classify.features import build_graph, element_features, unit_matrix
    from unclutter.classify.labels import align_labels

    out = CACHE / "pages" / f"{case['_dataset']}__{case['id']}.npz"
    info = {"id": case["id"], "dataset": case["_dataset"], "site": site(case),
            "page_type": page_type(case), "file": out.name}
    if case.get("text") is None:
        return None
    try:
        body, declared = pruned_body(page_bytes(case), case.get("url"))
        g = build_graph(body, vocab=_VOCAB, page_type=declared, url=case.get("url"))
    except Exception as exc:  # noqa: BLE001 - unreadable pages are skipped, and counted
        info["error"] = f"{type(exc).__name__}: {exc}"[:200]
        return info
    X = unit_matrix(g, len(_VOCAB)).astype(np.float32)
    y = align_labels(g, case["text"])
    masks = g.masks
    lo = np.asarray([m & 0xFFFFFFFFFFFFFFFF for m in masks], dtype=np.uint64)
    hi = np.asarray([(m >> 64) & 0xFFFFFFFFFFFFFFFF for m in masks], dtype=np.uint64)
    np.savez_compressed(out, X=X, y=y, E=element_features(g).astype(np.float32), tag=element_tags(g),
                        mask_lo=lo, mask_hi=hi, parent=g.parent.astype(np.int32),
                        prev=g.prev.astype(np.int32), units=g.units.astype(np.int32),
                        ds=g.density_sum.astype(np.float32))
    info.update(units=int(g.units.size), elements=g.n, pos=int((y == 1).sum()), neg=int((y == 0).sum()))
    return info


def main() -> None:
    from unclutter.classify.constants import VOCAB_SIZE

    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    (CACHE / "pages").mkdir(parents=True, exist_ok=True)
    cases = [c for name in TRAIN_DATASETS for c in load_cases(name)]
    vocab = build_vocab(cases, VOCAB_SIZE)
    (CACHE / "vocab.json").write_text(json.dumps(vocab))
    t0 = time.time()
    with mp.Pool(args.jobs, initializer=_init, initargs=(vocab,)) as pool:
        infos = [i for i in pool.imap(process, cases, chunksize=4) if i is not None]
    (CACHE / "index.json").write_text(json.dumps(infos))
    (CACHE / "gbdt_grid.json").unlink(missing_ok=True)  # grid scores of the old pages are stale
    ok = [i for i in infos if "error" not in i]
    print(f"{len(ok)} pages ({len(infos) - len(ok)} unreadable) in {time.time() - t0:.0f} s; "
          f"units {sum(i['units'] for i in ok)}, content {sum(i['pos'] for i in ok)}, "
          f"noise {sum(i['neg'] for i in ok)}")


if __name__ == "__main__":
    main()
