"""Label reliability on readability-tests: two independent labelings of the same units.

    python -m train.reliability

(a) :func:`unclutter.classify.labels.align_labels` against the case's ``text`` (token
shingles, thresholds); (b) :func:`unclutter.classify.labels.labels_from_html` against
``expected_html`` (exact whole-word matching of block texts). Reports raw agreement and
Cohen's kappa (scikit-learn) over the units that (a) labels, and the share (a) leaves
unlabelled. Caveat: the dataset's ``text`` was itself made from ``expected_html`` (see the
dataset README), so the two sources are not independent annotators, only independent
alignment methods.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from sklearn.metrics import cohen_kappa_score

from train.common import REPO, load_cases, page_bytes, pruned_body


def main() -> None:
    from unclutter.classify.features import build_graph
    from unclutter.classify.labels import align_labels, labels_from_html
    from unclutter.core.dom import Node
    from unclutter.parse.html import parse_html

    a_all, b_all = [], []
    unlabelled = total = 0
    for case in load_cases("readability-tests"):
        body, _ = pruned_body(page_bytes(case), case.get("url"))
        g = build_graph(body)
        expected = (Path(case["_dir"]) / case["expected_html"]).read_text(encoding="utf-8")
        tp = parse_html(expected, case.get("url"))
        tb = tp.body if tp.body is not None else tp.root
        tg = build_graph(tb if isinstance(tb, Node) else tp.root)
        a = align_labels(g, case["text"] or "")
        b = labels_from_html(g, tg)
        ok = a >= 0
        total += a.size
        unlabelled += int((~ok).sum())
        a_all.append(a[ok])
        b_all.append(b[ok])
    a = np.concatenate(a_all)
    b = np.concatenate(b_all)
    po = float(np.mean(a == b))
    kappa = cohen_kappa_score(a, b)
    out = {"units": total, "unlabelled_by_text": unlabelled, "compared": int(a.size),
           "content_share_text": float(a.mean()), "content_share_html": float(b.mean()),
           "raw_agreement": po, "cohen_kappa": float(kappa)}
    (REPO / "train" / "results").mkdir(exist_ok=True)
    (REPO / "train" / "results" / "reliability.json").write_text(json.dumps(out, indent=1))
    print(f"readability-tests: {total} units, {unlabelled} ({unlabelled / total:.1%}) left unlabelled by (a); "
          f"on {a.size}: content (a) {a.mean():.3f}, (b) {b.mean():.3f}; raw agreement {po:.3f}, "
          f"Cohen's kappa {kappa:.3f}")


if __name__ == "__main__":
    main()
