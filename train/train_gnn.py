"""Train the GraphSAGE-style GNN (PyTorch, CPU), cross-validate it, export it for numpy.

    python -m train.train_gnn           (after python -m train.build_dataset)

Architecture and inputs: :mod:`unclutter.classify.gnn` (the numpy forward pass is the
reference; the torch module below computes the same function). Loss: cross-entropy on
the labelled units, weighted by ``log1p(own characters)``; Adam. Two variants are
trained, each with 5-fold CV on wcxb-dev grouped by site (readability-tests pages in
every training fold): neighbour averages weighted by DensitySum (shipped) and uniform
(the ablation "GNN without DensitySum"). Results: ``train/results/gnn.json``; model:
``src/unclutter/classify/models/gnn.npz``; fixture for the numpy-vs-torch test.
"""

from __future__ import annotations

import datetime as dt
import json
import time

import numpy as np
import torch

from train.common import CACHE, REPO, SEED, save_results
from train.cv_eval import extract_texts, fmt, score, wcxb_cases
from train.data import folds, load_index

K = 5
HIDDEN = 64
N_LAYERS = 3
EPOCHS = 8
LR = 5e-3
WEIGHT_DECAY = 1e-5
BATCH_PAGES = 24
THRESHOLDS = np.round(np.arange(0.2, 0.8, 0.05), 2)
MODEL_PATH = REPO / "src" / "unclutter" / "classify" / "models" / "gnn.npz"
FIXTURE = REPO / "tests" / "test_classify_gnn_fixture.npz"


class Sage(torch.nn.Module):
    def __init__(self, d_in: int) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(d_in, HIDDEN)
        self.layers = torch.nn.ModuleList(torch.nn.Linear(2 * HIDDEN, HIDDEN) for _ in range(N_LAYERS))
        self.head = torch.nn.Linear(HIDDEN, 2)

    def forward(self, x: torch.Tensor, A: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.proj(x))
        for lin in self.layers:
            a = A @ h
            h = torch.relu(lin(torch.cat([h, a], dim=1)))
        return self.head(h)


def load_pages(index, mean, std, vocab_size, use_ds):
    from unclutter.classify.gnn import neighbour_edges, node_inputs

    pages = []
    for info in index:
        with np.load(CACHE / "pages" / info["file"]) as z:
            E = z["E"].astype(np.float64)
            x = node_inputs(E, z["tag"].astype(np.int64), z["mask_lo"], z["mask_hi"], mean, std, vocab_size)
            dst, src, w = neighbour_edges(z["parent"].astype(np.int64), z["prev"].astype(np.int64),
                                          z["ds"].astype(np.float64) if use_ds else None)
            units, y = z["units"].astype(np.int64), z["y"].astype(np.int64)
            own = np.expm1(E[units, 1])
        pages.append({"x": x.astype(np.float32), "dst": dst, "src": src, "w": w.astype(np.float32),
                      "units": units, "y": y, "cw": np.log1p(own).astype(np.float32)})
    return pages


def batch(pages):
    xs, ds, ss, ws, us, ys, cs = [], [], [], [], [], [], []
    off = 0
    for p in pages:
        xs.append(p["x"])
        ds.append(p["dst"] + off)
        ss.append(p["src"] + off)
        ws.append(p["w"])
        us.append(p["units"] + off)
        ys.append(p["y"])
        cs.append(p["cw"])
        off += p["x"].shape[0]
    idx = torch.from_numpy(np.stack([np.concatenate(ds), np.concatenate(ss)]))
    A = torch.sparse_coo_tensor(idx, torch.from_numpy(np.concatenate(ws)), (off, off),
                                check_invariants=False).coalesce().to_sparse_csr()
    return (torch.from_numpy(np.concatenate(xs)), A, torch.from_numpy(np.concatenate(us)),
            torch.from_numpy(np.concatenate(ys)), torch.from_numpy(np.concatenate(cs)))


def train(pages, d_in, seed):
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = Sage(d_in)
    opt = torch.optim.Adam(model.parameters(), lr=LR, weight_decay=WEIGHT_DECAY)
    for epoch in range(EPOCHS):
        order = rng.permutation(len(pages))
        for s in range(0, len(order), BATCH_PAGES):
            x, A, u, y, cw = batch([pages[i] for i in order[s:s + BATCH_PAGES]])
            ok = y >= 0
            logits = model(x, A)[u[ok]]
            loss = (torch.nn.functional.cross_entropy(logits, y[ok], reduction="none") * cw[ok]).sum() / cw[ok].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def predict(model, pages):
    out = []
    with torch.no_grad():
        for s in range(0, len(pages), BATCH_PAGES):
            x, A, u, _, _ = batch(pages[s:s + BATCH_PAGES])
            out.append(torch.softmax(model(x, A), dim=1)[u, 1].numpy())
    return np.concatenate(out) if out else np.zeros(0)


def export(model, mean, std, meta):
    from unclutter.classify.gnn import GraphSage

    layers = [(lin.weight.detach().double().numpy().copy(), lin.bias.detach().double().numpy().copy())
              for lin in model.layers]
    proj = (model.proj.weight.detach().double().numpy().copy(), model.proj.bias.detach().double().numpy().copy())
    head = (model.head.weight.detach().double().numpy().copy(), model.head.bias.detach().double().numpy().copy())
    return GraphSage(proj, layers, head, mean, std, meta)


def char_f1(p, y, c, t):
    ok = y >= 0
    p, y, c = p[ok], y[ok], c[ok]
    pred = p >= t
    yy = y == 1
    tp = (c * (pred & yy)).sum()
    fp = (c * (pred & ~yy)).sum()
    fn = (c * (~pred & yy)).sum()
    return 2 * tp / (2 * tp + fp + fn)


def main() -> None:
    torch.set_num_threads(1)  # small sparse batches: one thread is faster on a shared 2-core machine
    t_start = time.time()
    vocab = json.loads((CACHE / "vocab.json").read_text())
    index = load_index()
    fold = folds(index, K, SEED)
    # standardisation statistics over every element of the training pages
    s1 = s2 = 0.0
    cnt = 0
    for info in index:
        with np.load(CACHE / "pages" / info["file"]) as z:
            E = z["E"].astype(np.float64)
        s1 = s1 + E.sum(0)
        s2 = s2 + (E * E).sum(0)
        cnt += E.shape[0]
    mean = s1 / cnt
    std = np.sqrt(np.maximum(s2 / cnt - mean * mean, 1e-12))
    d_in = None
    cases = wcxb_cases()
    results: dict = {"hidden": HIDDEN, "layers": N_LAYERS, "epochs": EPOCHS, "lr": LR, "batch_pages": BATCH_PAGES}
    shipped = None
    for variant, use_ds in (("gnn", True), ("gnn-no-densitysum", False)):
        pages = load_pages(index, mean, std, len(vocab), use_ds)
        d_in = pages[0]["x"].shape[1]
        P = [None] * len(pages)
        fold_models = {}
        for f in range(K):
            tr = [p for p, k in zip(pages, fold) if k != f]
            te = [i for i, k in enumerate(fold) if k == f]
            m = train(tr, d_in, SEED + f)
            pr = predict(m, [pages[i] for i in te])
            o = 0
            for i in te:
                nu = pages[i]["units"].size
                P[i] = pr[o:o + nu]
                o += nu
            fold_models[f] = m
            print(f"{variant} fold {f} trained ({time.time() - t_start:.0f} s)", flush=True)
        te = [i for i, k in enumerate(fold) if k >= 0]
        p_all = np.concatenate([P[i] for i in te])
        y_all = np.concatenate([pages[i]["y"] for i in te])
        c_all = np.concatenate([np.expm1(pages[i]["cw"].astype(np.float64)) for i in te])
        f1, thr = max((char_f1(p_all, y_all, c_all, t), float(t)) for t in THRESHOLDS)
        meta = {"kind": "gnn", "vocab": vocab, "threshold": thr, "densitysum": use_ds, "recovery": False}
        texts: dict = {}
        secs = 0.0
        for f in range(K):
            ids = [index[i]["id"] for i, k in enumerate(fold) if k == f]
            t, s = extract_texts(ids, cases, "gnn", export(fold_models[f], mean, std, dict(meta)))
            texts.update(t)
            secs += s
        results[variant] = {"unit_char_f1": f1, "threshold": thr, "cv_extraction": score(texts, cases),
                            "pages_per_s": len(texts) / secs}
        print(f"CV {variant}: unit char-F1 {f1:.4f} at {thr}; extraction {fmt(results[variant]['cv_extraction'])}",
              flush=True)
        final = train(pages, d_in, SEED)
        meta.update({"trained": dt.date.today().isoformat(), "seed": SEED, "hidden": HIDDEN,
                     "layers": N_LAYERS, "epochs": EPOCHS, "torch": torch.__version__})
        model_np = export(final, mean, std, meta)
        if not use_ds:
            model_np.save(MODEL_PATH.with_name("gnn-no-densitysum.npz"))
        else:
            shipped = model_np
            # fixture: one page's inputs and torch's float64 output on them
            from unclutter.classify.gnn import neighbour_edges, node_inputs

            fm = final.double()
            with np.load(CACHE / "pages" / index[0]["file"]) as z:
                arrays = {k: z[k] for k in ("E", "tag", "mask_lo", "mask_hi", "parent", "prev", "ds")}
            x64 = node_inputs(arrays["E"].astype(np.float64), arrays["tag"].astype(np.int64), arrays["mask_lo"],
                              arrays["mask_hi"], mean, std, len(vocab))
            dst, src, w = neighbour_edges(arrays["parent"].astype(np.int64), arrays["prev"].astype(np.int64),
                                          arrays["ds"].astype(np.float64))
            A = torch.sparse_coo_tensor(torch.from_numpy(np.stack([dst, src])), torch.from_numpy(w),
                                        (x64.shape[0], x64.shape[0])).coalesce().to_sparse_csr()
            with torch.no_grad():
                pt = torch.softmax(fm(torch.from_numpy(x64), A), dim=1)[:, 1].numpy()
            np.savez_compressed(FIXTURE, p=pt, **arrays)
    MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
    shipped.save(MODEL_PATH)
    save_results("gnn", results, MODEL_PATH, t_start)


if __name__ == "__main__":
    main()
