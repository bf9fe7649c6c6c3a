"""Inter-rater agreement and confidence intervals (:mod:`unclutter.measure.agreement`),
each checked against a value worked out by hand here, step by step, in fractions.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from unclutter.measure.agreement import cohen_kappa, fleiss_kappa, mean_ci, student_t_quantile

# --- Fleiss' kappa ---------------------------------------------------------------------------


def test_fleiss_kappa_by_hand() -> None:
    # 4 subjects, 3 raters each, 3 categories
    counts = [[3, 0, 0],
              [0, 3, 0],
              [1, 2, 0],
              [1, 1, 1]]
    # P_i = (sum_j n_ij^2 - n) / (n (n - 1)), n = 3, n (n - 1) = 6
    p_i = [Fraction(9 - 3, 6),          # 1
           Fraction(9 - 3, 6),          # 1
           Fraction(1 + 4 - 3, 6),      # 1/3
           Fraction(1 + 1 + 1 - 3, 6)]  # 0
    p_bar = sum(p_i) / 4
    assert p_bar == Fraction(7, 12)
    # column totals 5, 6, 1 of 12 ratings: p_j = 5/12, 6/12, 1/12
    p_e = Fraction(5, 12) ** 2 + Fraction(6, 12) ** 2 + Fraction(1, 12) ** 2
    assert p_e == Fraction(62, 144) == Fraction(31, 72)
    kappa = (p_bar - p_e) / (1 - p_e)  # (42/72 - 31/72) / (41/72)
    assert kappa == Fraction(11, 41)
    assert fleiss_kappa(counts) == pytest.approx(float(kappa), abs=1e-15)


def test_fleiss_kappa_worked_example_14_raters() -> None:
    """The worked example of the Wikipedia article "Fleiss' kappa" (10 subjects, 14 raters,
    5 categories): p_j = .143 .200 .279 .150 .229, P_bar = .378, P_e = .213, kappa = .210."""
    counts = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
              [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    assert fleiss_kappa(counts) == pytest.approx(0.210, abs=5e-4)


def test_fleiss_kappa_unequal_raters_by_hand() -> None:
    # subject 1: 2 ratings, subject 2: 3 ratings, subject 3: a single rating (no pairs)
    counts = [[2, 0], [1, 2], [0, 1]]
    p_1 = Fraction(4 - 2, 2 * 1)         # 1, with its own n_1 = 2
    p_2 = Fraction(1 + 4 - 3, 3 * 2)     # 1/3, with n_2 = 3
    p_bar = (p_1 + p_2) / 2              # subject 3 left out: 2/3
    # p_j over all 6 ratings (subject 3's included): 3/6 and 3/6
    p_e = Fraction(3, 6) ** 2 + Fraction(3, 6) ** 2  # 1/2
    kappa = (p_bar - p_e) / (1 - p_e)
    assert kappa == Fraction(1, 3)
    assert fleiss_kappa(counts) == pytest.approx(1 / 3, abs=1e-15)


def test_fleiss_kappa_perfect_and_undefined() -> None:
    assert fleiss_kappa([[3, 0], [0, 3]]) == 1.0
    assert fleiss_kappa([]) is None                  # no subjects
    assert fleiss_kappa([[1, 0], [0, 1]]) is None    # no subject with 2 ratings
    assert fleiss_kappa([[0, 0, 0]]) is None
    assert fleiss_kappa([[3, 0], [2, 0]]) is None    # every rating in one category: P_e = 1
    with pytest.raises(ValueError):
        fleiss_kappa([[1, 2], [3]])
    with pytest.raises(ValueError):
        fleiss_kappa([[1, -1]])
    with pytest.raises(ValueError):
        fleiss_kappa([[1.5, 1]])
    with pytest.raises(ValueError):
        fleiss_kappa([[]])


# --- Cohen's kappa ---------------------------------------------------------------------------


def test_cohen_kappa_by_hand() -> None:
    a = ["y", "y", "y", "y", "y", "y", "n", "n", "n", "n"]
    b = ["y", "y", "y", "y", "n", "n", "n", "n", "n", "y"]
    p_o = Fraction(4 + 3, 10)                         # 4 yes-yes, 3 no-no
    # a: 6 y, 4 n; b: 5 y, 5 n
    p_e = Fraction(6, 10) * Fraction(5, 10) + Fraction(4, 10) * Fraction(5, 10)
    assert p_e == Fraction(1, 2)
    kappa = (p_o - p_e) / (1 - p_e)                  # (7/10 - 1/2) / (1/2)
    assert kappa == Fraction(2, 5)
    assert cohen_kappa(a, b) == pytest.approx(0.4, abs=1e-15)


def test_cohen_kappa_edges() -> None:
    assert cohen_kappa([1, 2, 3], [1, 2, 3]) == 1.0
    assert cohen_kappa([1, 2], [2, 1]) == -1.0       # p_o = 0, p_e = 1/2
    assert cohen_kappa([], []) is None
    assert cohen_kappa([4, 4, 4], [4, 4, 4]) is None  # p_e = 1
    with pytest.raises(ValueError):
        cohen_kappa([1, 2], [1])


# --- mean and Student-t interval ----------------------------------------------------------------


@pytest.mark.parametrize(("df", "table"), [(1, 12.706), (2, 4.303), (4, 2.776), (10, 2.228), (30, 2.042),
                                           (120, 1.980)])
def test_t_quantile_matches_the_table(df: int, table: float) -> None:
    assert student_t_quantile(0.975, df) == pytest.approx(table, abs=5e-4)
    assert student_t_quantile(0.025, df) == pytest.approx(-table, abs=5e-4)


def test_t_quantile_other_levels() -> None:
    assert student_t_quantile(0.995, 4) == pytest.approx(4.604, abs=5e-4)
    assert student_t_quantile(0.95, 9) == pytest.approx(1.833, abs=5e-4)
    assert student_t_quantile(0.5, 3) == 0.0
    assert student_t_quantile(0.975, 1e7) == pytest.approx(1.95996, abs=1e-4)  # the normal's
    with pytest.raises(ValueError):
        student_t_quantile(1.0, 3)
    with pytest.raises(ValueError):
        student_t_quantile(0.9, 0)


def test_mean_ci_with_df_4() -> None:
    values = [1, 2, 3, 4, 5]
    mean, low, high = mean_ci(values)
    # mean 3; s^2 = (4 + 1 + 0 + 1 + 4) / 4 = 5/2; s / sqrt(n) = sqrt(1/2); t(0.975, 4) = 2.776
    half = 2.776 * math.sqrt(0.5)
    assert mean == 3.0
    assert low == pytest.approx(3 - half, abs=1e-3)
    assert high == pytest.approx(3 + half, abs=1e-3)


def test_mean_ci_edges() -> None:
    assert mean_ci([4.0]) == (4.0, None, None)
    assert mean_ci([2, 2, 2]) == (2.0, 2.0, 2.0)
    wide = mean_ci([1, 2, 3, 4, 5], confidence=0.99)
    assert wide[2] - wide[1] == pytest.approx(2 * 4.604 * math.sqrt(0.5), abs=1e-3)
    with pytest.raises(ValueError):
        mean_ci([])
    with pytest.raises(ValueError):
        mean_ci([1, 2], confidence=1.0)
