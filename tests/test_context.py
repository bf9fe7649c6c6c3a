"""The GBDT's auto-context second stage: features computed by hand, the shipped two-stage
model (numpy inference equal to LightGBM's, file round trip), and the ablation switch."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import unclutter
from unclutter.classify import registry
from unclutter.classify.constants import CONTEXT_MISSING_P
from unclutter.classify.context import CONTEXT_FEATURES, context_matrix, subtree_ends
from unclutter.classify.features import build_graph, unit_matrix
from unclutter.classify.gbdt import TreeEnsemble
from unclutter.core.options import Ablation
from unclutter.parse.html import parse_html
from unclutter.prune.clean import prune

TESTS = Path(__file__).resolve().parent

# body(0) > div(1) > p(2), p(3); body > div(4) > p(5): the first column is judged content,
# the second noise
PARENT = np.array([-1, 0, 1, 1, 0, 4])
UNITS = np.array([2, 3, 5])
OWN = np.array([100.0, 50.0, 200.0])
P = np.array([0.9, 0.8, 0.1])


def test_subtree_ends_from_parents():
    assert subtree_ends(PARENT).tolist() == [6, 4, 3, 4, 6, 6]
    assert subtree_ends(np.array([-1])).tolist() == [1]


def test_context_features_computed_by_hand():
    C = context_matrix(PARENT, subtree_ends(PARENT), UNITS, OWN, P)
    assert C.shape == (3, len(CONTEXT_FEATURES))
    col = {name: C[:, k] for k, name in enumerate(CONTEXT_FEATURES)}
    # expected content characters (chars x p): 90, 40, 20 -> 150 on the page of 350 chars
    assert col["ctx.p"].tolist() == P.tolist()
    assert col["ctx.p_prev1"].tolist() == [CONTEXT_MISSING_P, 0.9, 0.8]
    assert col["ctx.p_next2"].tolist() == [0.1, CONTEXT_MISSING_P, CONTEXT_MISSING_P]
    assert col["ctx.p_window"] == pytest.approx([150 / 350] * 3)  # the window spans all three
    # the first ancestor: the first column's div for units 0 and 1 (130 of its 150 chars), the
    # second column's for unit 2 (20 of 200); the second ancestor is the body for all
    assert col["ctx.anc1.mean_p"] == pytest.approx([130 / 150, 130 / 150, 20 / 200])
    assert col["ctx.anc1.content_share"] == pytest.approx([130 / 150, 130 / 150, 20 / 150])
    assert col["ctx.anc1.log_chars"] == pytest.approx([math.log1p(150), math.log1p(150), math.log1p(200)])
    assert col["ctx.anc2.mean_p"] == pytest.approx([150 / 350] * 3)
    assert col["ctx.anc4.content_share"] == pytest.approx([1.0] * 3)  # past the top: the body
    assert col["ctx.page_content_share"] == pytest.approx([150 / 350] * 3)
    assert col["ctx.page_max_p"].tolist() == [0.9] * 3
    # chars x (2p - 1): 80, 30, -160 -> the first column (110) beats the body (-50)
    assert col["ctx.in_best_region"].tolist() == [1.0, 1.0, 0.0]
    assert col["ctx.best_region_share"] == pytest.approx([130 / 150] * 3)
    assert col["ctx.content_before"] == pytest.approx([0.0, 90 / 150, 130 / 150])
    assert col["ctx.content_after"] == pytest.approx([60 / 150, 20 / 150, 0.0])
    assert col["ctx.in_content_span"].tolist() == [1.0, 1.0, 0.0]
    assert col["ctx.log_span_distance"] == pytest.approx([0.0, 0.0, math.log1p(1)])


def test_context_features_of_a_page_judged_all_noise_and_of_no_units():
    C = context_matrix(PARENT, subtree_ends(PARENT), UNITS, OWN, np.array([0.1, 0.2, 0.3]))
    col = {name: C[:, k] for k, name in enumerate(CONTEXT_FEATURES)}
    assert col["ctx.in_content_span"].tolist() == [0.0, 0.0, 0.0]
    assert col["ctx.log_span_distance"] == pytest.approx([math.log1p(3)] * 3)
    assert context_matrix(PARENT, subtree_ends(PARENT), UNITS[:0], OWN[:0], P[:0]).shape == (0, len(CONTEXT_FEATURES))


def test_shipped_gbdt_has_a_second_stage_equal_to_lightgbm():
    model = registry.get_model("gbdt")
    assert isinstance(model.context, TreeEnsemble)
    assert model.context.meta["features"][-len(CONTEXT_FEATURES):] == list(CONTEXT_FEATURES)
    assert 0.0 < float(model.meta["first_stage_threshold"]) < 1.0
    z = np.load(TESTS / "test_classify_gbdt_fixture.npz")
    assert z["X2"].shape[1] == len(model.context.meta["features"])
    assert np.abs(model.context.predict_proba(z["X2"]) - z["p2"]).max() < 1e-6


def test_two_stage_model_file_round_trip(tmp_path):
    model = registry.get_model("gbdt")
    path = tmp_path / "m.npz"
    model.save(path)
    back = TreeEnsemble.load(path)
    assert back.context is not None and back.context.context is None
    assert back.meta["features"] == model.meta["features"]
    z = np.load(TESTS / "test_classify_gbdt_fixture.npz")
    assert np.array_equal(back.context.predict_proba(z["X2"]), model.context.predict_proba(z["X2"]))


PAGE = ("<html><body><nav><a href='/'>Home</a> <a href='/a'>About</a></nav><article><h1>Otters use tools</h1>"
        + "".join(f"<p>Sea otters crack shellfish open with stones, paragraph {k}, and keep the stones in "
                  "a pouch of loose skin under each foreleg.</p>" for k in range(6))
        + "</article><footer><p>Subscribe to our newsletter.</p></footer></body></html>")


def test_second_stage_reads_the_first_stages_probabilities():
    model = registry.get_model("gbdt")
    body = prune(parse_html(PAGE)).root
    g = build_graph(body, vocab=model.vocab, copy=True)
    first = model.predict_units(g, stages=1)
    both = model.predict_units(g)
    assert first.shape == both.shape == (g.units.size,)
    assert np.array_equal(first, model.predict_proba(unit_matrix(g, len(model.vocab))))
    assert not np.array_equal(first, both)


def test_ablation_switch_runs_the_first_stage_alone():
    a = unclutter.extract(PAGE, url="https://example.org/", extractor="gbdt", explain=True,
                          ablation=Ablation(context=False))
    b = unclutter.extract(PAGE, url="https://example.org/", extractor="gbdt", explain=True)
    first_thr = float(registry.get_model("gbdt").meta["first_stage_threshold"])
    assert any(f">= {first_thr:.2f}" in line for line in a.trace)
    assert "Sea otters crack shellfish" in a.text and "Sea otters crack shellfish" in b.text


@pytest.mark.parametrize("html, units", [("<html><body><img src='a.png'></body></html>", 0),
                                         ("<html><body>Just one line of text.</body></html>", 1)])
def test_two_stages_on_pages_of_no_unit_and_of_one(html, units):
    model = registry.get_model("gbdt")
    g = build_graph(prune(parse_html(html)).root, vocab=model.vocab)
    p = model.predict_units(g)
    assert g.units.size == units and p.shape == (units,)
    assert ((p >= 0) & (p <= 1)).all()


def test_content_shares_are_zero_on_a_page_without_expected_content():
    parent = np.array([-1, 0, 0, 0])
    C = context_matrix(parent, subtree_ends(parent), np.array([1, 2, 3]), np.array([10.0, 10.0, 10.0]),
                       np.zeros(3))
    col = {name: C[:, k] for k, name in enumerate(CONTEXT_FEATURES)}
    assert col["ctx.content_before"].tolist() == [0.0, 0.0, 0.0]
    assert col["ctx.content_after"].tolist() == [0.0, 0.0, 0.0]
