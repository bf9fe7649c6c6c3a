#!/usr/bin/env python3
"""Fit and check ``Article.confidence`` (:mod:`unclutter.measure.confidence`).

    python bench/cv.py --out bench/results/cv.json      # per-page F1 and signals, CV by site
    python bench/confidence.py [--cv bench/results/cv.json] [--write]

1. **Data**: every wcxb-dev page of the cross-validation by site (``bench/cv.py``): its
   confidence signals and whether its F1 is at least ``GOOD_F1`` (the label).
2. **Calibration check**: a logistic regression (scikit-learn, standardised signals) is
   fitted on four folds and predicts the fifth, for each fold; the out-of-fold
   probabilities give the reliability diagram (10 equal-width bins: pages, mean predicted
   probability, observed share of good pages) and the expected calibration error (ECE,
   Naeini et al. 2015: the bin-size-weighted mean gap), and the AUC.
3. ``--write``: the model fitted on every page is written to
   ``src/unclutter/measure/confidence.json`` (what ships).

The diagram is printed as a Markdown table and saved with the figures in
``bench/results/confidence.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
MODEL = REPO / "src" / "unclutter" / "measure" / "confidence.json"


def reliability(prob: np.ndarray, good: np.ndarray, bins: int = 10) -> tuple[list[dict], float]:
    """Rows of the reliability diagram and the expected calibration error."""
    edges = np.linspace(0, 1, bins + 1)
    rows = []
    ece = 0.0
    for k in range(bins):
        inside = (prob >= edges[k]) & ((prob < edges[k + 1]) if k < bins - 1 else (prob <= 1))
        n = int(inside.sum())
        if not n:
            rows.append({"bin": f"{edges[k]:.1f}-{edges[k + 1]:.1f}", "pages": 0})
            continue
        mean_p, observed = float(prob[inside].mean()), float(good[inside].mean())
        ece += n / prob.size * abs(mean_p - observed)
        rows.append({"bin": f"{edges[k]:.1f}-{edges[k + 1]:.1f}", "pages": n,
                     "predicted": mean_p, "observed": observed})
    return rows, ece


def main(argv: list[str] | None = None) -> int:
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    sys.path.insert(0, str(REPO / "src"))
    from unclutter.measure.confidence import GOOD_F1, MODEL_SIGNALS as SIGNALS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cv", type=Path, default=REPO / "bench" / "results" / "cv.json")
    ap.add_argument("--write", action="store_true", help="write the model fitted on every page")
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "confidence.json")
    args = ap.parse_args(argv)
    cv = json.loads(args.cv.read_text())
    ids = [i for i in cv["per_page"] if cv["signals"].get(i)]
    X = np.asarray([[cv["signals"][i][s] for s in SIGNALS] for i in ids], dtype=np.float64)
    good = np.asarray([cv["per_page"][i] >= GOOD_F1 for i in ids], dtype=np.float64)
    fold = np.asarray([cv["folds"][i] for i in ids])
    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale == 0] = 1.0
    Z = (X - mean) / scale
    prob = np.zeros(len(ids))
    for f in np.unique(fold):
        model = LogisticRegression(C=1.0, max_iter=1000).fit(Z[fold != f], good[fold != f])
        prob[fold == f] = model.predict_proba(Z[fold == f])[:, 1]
    rows, ece = reliability(prob, good)
    auc = float(roc_auc_score(good, prob))
    print(f"{len(ids)} wcxb-dev pages (CV by site); good (F1 >= {GOOD_F1}): {good.mean():.3f}; "
          f"out-of-fold AUC {auc:.3f}, ECE {ece:.3f}\n")
    print("| confidence | pages | mean predicted | observed share good |")
    print("|---|---:|---:|---:|")
    for r in rows:
        if r["pages"]:
            print(f"| {r['bin']} | {r['pages']} | {r['predicted']:.3f} | {r['observed']:.3f} |")
        else:
            print(f"| {r['bin']} | 0 | – | – |")
    final = LogisticRegression(C=1.0, max_iter=1000).fit(Z, good)
    fitted = {"signals": list(SIGNALS), "coef": final.coef_[0].tolist(), "intercept": float(final.intercept_[0]),
              "mean": mean.tolist(), "scale": scale.tolist(), "good_f1": GOOD_F1, "pages": len(ids),
              "fitted_on": "wcxb-dev, F1 from the cross-validation by site (bench/cv.py)"}
    print("\ncoefficients (standardised signals): " + ", ".join(
        f"{s} {c:+.2f}" for s, c in zip(SIGNALS, fitted["coef"])))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"auc": auc, "ece": ece, "reliability": rows, "model": fitted}, indent=1))
    if args.write:
        MODEL.write_text(json.dumps(fitted, indent=1) + "\n")
        print(f"wrote {MODEL.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
