"""The one command that retrains the shipped models reproducibly (fixed seeds):

    pip install -e '.[train]' && python -m train

1. ``train.build_dataset``: features and automatic labels of wcxb-dev + readability-tests
   (AEB is never read);
2. ``train.reliability``: label agreement (raw, Cohen's kappa) on readability-tests;
3. ``train.train_gbdt``: LightGBM grid, the auto-context second stage on out-of-fold
   first-stage probabilities, 5-fold CV grouped by site, export to numpy;
4. ``train.train_gnn``: GraphSAGE-style GNN with and without DensitySum, CV, export;
5. ``train.train_refine``: the classifier refining the heuristic's selection (``auto``), CV, export.

Figures go to ``train/results/*.json`` and into ``src/unclutter/classify/models/MODEL_CARD.md``
by hand. About 30-40 minutes on 2 CPU cores.
"""

from __future__ import annotations

import subprocess
import sys

STEPS = ("train.build_dataset", "train.reliability", "train.train_gbdt", "train.train_gnn", "train.train_refine")

if __name__ == "__main__":
    for step in STEPS:
        print(f"== python -m {step}", flush=True)
        subprocess.run([sys.executable, "-m", step], check=True)
