"""Agreement between human raters, and a confidence interval for a mean: what a rating
study of reader views reports (:mod:`unclutter.server.ratings`). Standard library only.

* :func:`fleiss_kappa`: chance-corrected agreement of many raters on nominal categories
  (Fleiss 1971), from a subjects x categories table of counts;
* :func:`cohen_kappa`: the same for exactly two raters' paired labels (Cohen 1960);
* :func:`mean_ci`: a mean with its Student-t confidence interval (Student 1908), the t
  quantile computed exactly by :func:`student_t_quantile` (no table, no SciPy).

Kappas are computed in exact rational arithmetic (:class:`fractions.Fraction`) from the
integer counts, then returned as a float, so an undefined value (chance agreement of 1) is
recognised exactly rather than as a division by a rounding error.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction

__all__ = ["fleiss_kappa", "cohen_kappa", "mean_ci", "student_t_quantile"]


def fleiss_kappa(counts: Sequence[Sequence[int]]) -> float | None:
    """Fleiss' kappa: how much more the raters agree than chance would have them.

    Args:
        counts: one row per subject (a rated thing), one column per category; ``counts[i][j]``
            is the number of raters who put subject ``i`` in category ``j`` (non-negative
            integers; every row as long as the first, at least one column). Rows may sum
            to different totals (subjects rated by different numbers of raters).

    Returns:
        ``(P_bar - P_e) / (1 - P_e)``, where, with ``n_i`` the ratings of subject ``i``:

        * ``P_i = (sum_j n_ij^2 - n_i) / (n_i (n_i - 1))``, the share of agreeing rater
          pairs on subject ``i``, computed with that subject's own ``n_i``; subjects with
          fewer than 2 ratings have no pairs and are left out of ``P_bar``;
        * ``P_bar``: the mean of the ``P_i`` (each subject weighted equally);
        * ``p_j``: the share of all ratings in the table (those of single-rating subjects
          included) in category ``j``; ``P_e = sum_j p_j^2``, the agreement expected by chance.

        With the same number of raters for every subject this is exactly the kappa of
        Fleiss, J. L. (1971), "Measuring nominal scale agreement among many raters",
        Psychological Bulletin 76(5), 378-382 (its equations for P_i, P_bar, p_j and P_e).
        1 is perfect agreement, 0 what chance gives, below 0 worse than chance.

        ``None`` when kappa is undefined: no subject has 2 or more ratings, or every rating
        is in one category (``P_e == 1``).

    Raises:
        ValueError: a negative or non-integer count, or rows of different lengths.
    """
    rows = [list(row) for row in counts]
    if not rows:
        return None
    k = len(rows[0])
    if k == 0:
        raise ValueError("counts: every row needs at least one category")
    totals = [0] * k
    pair_shares: list[Fraction] = []
    for index, row in enumerate(rows):
        if len(row) != k:
            raise ValueError(f"counts: row {index} has {len(row)} categories, the first has {k}")
        for value in row:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"counts: row {index} holds {value!r}, not a non-negative integer")
        n_i = sum(row)
        for j, value in enumerate(row):
            totals[j] += value
        if n_i >= 2:
            pair_shares.append(Fraction(sum(v * v for v in row) - n_i, n_i * (n_i - 1)))
    if not pair_shares:
        return None
    grand = sum(totals)
    p_bar = sum(pair_shares, Fraction(0)) / len(pair_shares)
    p_e = sum((Fraction(t, grand) ** 2 for t in totals), Fraction(0))
    if p_e == 1:
        return None
    return float((p_bar - p_e) / (1 - p_e))


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two raters who labelled the same subjects.

    Args:
        a, b: the two raters' labels, ``a[i]`` and ``b[i]`` for subject ``i`` (equal
            lengths; any hashable labels, compared with ``==``).

    Returns:
        ``(p_o - p_e) / (1 - p_e)`` with ``p_o`` the share of subjects given the same label
        and ``p_e = sum_k (n_ak / N)(n_bk / N)`` the agreement expected from each rater's
        own label frequencies: Cohen, J. (1960), "A coefficient of agreement for nominal
        scales", Educational and Psychological Measurement 20(1), 37-46. ``None`` when
        undefined: no subjects, or both raters used one and the same label throughout
        (``p_e == 1``).

    Raises:
        ValueError: ``a`` and ``b`` differ in length.
    """
    if len(a) != len(b):
        raise ValueError(f"cohen_kappa: {len(a)} labels against {len(b)}")
    n = len(a)
    if n == 0:
        return None
    p_o = Fraction(sum(1 for x, y in zip(a, b) if x == y), n)
    count_a, count_b = Counter(a), Counter(b)
    p_e = sum((Fraction(count_a[label] * count_b[label], n * n) for label in count_a), Fraction(0))
    if p_e == 1:
        return None
    return float((p_o - p_e) / (1 - p_e))


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float | None, float | None]:
    """The mean of ``values`` and its two-sided Student-t confidence interval.

    The interval is ``mean +- t * s / sqrt(n)`` with ``s`` the sample standard deviation
    (``n - 1`` in the denominator) and ``t`` the ``(1 + confidence) / 2`` quantile of
    Student's t distribution with ``n - 1`` degrees of freedom (Student, 1908, "The probable
    error of a mean", Biometrika 6(1), 1-25), computed by :func:`student_t_quantile`. It
    assumes independent values from a roughly normal distribution; ratings of the same
    rater or page are not independent, so read it as a guide, not a test.

    Args:
        values: at least one number.
        confidence: the interval's coverage, strictly between 0 and 1.

    Returns:
        ``(mean, low, high)``; ``low`` and ``high`` are ``None`` for a single value (no
        spread to estimate), and equal the mean when all values are equal.

    Raises:
        ValueError: no values, or ``confidence`` outside (0, 1).
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    data = [float(v) for v in values]
    n = len(data)
    if n == 0:
        raise ValueError("mean_ci: no values")
    mean = math.fsum(data) / n
    if n == 1:
        return mean, None, None
    variance = math.fsum((v - mean) ** 2 for v in data) / (n - 1)
    half = student_t_quantile((1 + confidence) / 2, n - 1) * math.sqrt(variance / n)
    return mean, mean - half, mean + half


# Student's t distribution ----------------------------------------------------------------------


def student_t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom.

    Exact to about 1e-12, by bisection on the distribution function
    ``F(t) = 1 - I_x(df/2, 1/2) / 2`` for ``t >= 0``, ``x = df / (df + t^2)``, where ``I`` is
    the regularized incomplete beta function, evaluated by its continued fraction with the
    modified Lentz method (Press, Teukolsky, Vetterling & Flannery, Numerical Recipes in C,
    2nd ed., 1992, section 6.4, "Incomplete Beta Function, Student's Distribution").
    For example ``student_t_quantile(0.975, 4)`` is 2.7764 (the table value 2.776).

    Args:
        p: a probability strictly between 0 and 1.
        df: degrees of freedom, positive.

    Raises:
        ValueError: ``p`` or ``df`` out of range.
    """
    if not 0 < p < 1:
        raise ValueError(f"p must be strictly between 0 and 1, got {p!r}")
    if not df > 0:
        raise ValueError(f"df must be positive, got {df!r}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -student_t_quantile(1 - p, df)
    tail = 1 - p  # wanted: the upper tail probability P(T > t) = I_x(df/2, 1/2) / 2
    low, high = 0.0, 1.0
    while _t_upper_tail(high, df) > tail:  # bracket the quantile
        high *= 2
        if high > 1e300:
            return math.inf
    for _ in range(200):
        mid = (low + high) / 2
        if _t_upper_tail(mid, df) > tail:
            low = mid
        else:
            high = mid
        if high - low <= 1e-13 * max(1.0, high):
            break
    return (low + high) / 2


def _t_upper_tail(t: float, df: float) -> float:
    """P(T > t) for ``t >= 0``."""
    return 0.5 * _regularized_beta(df / (df + t * t), df / 2, 0.5)


def _regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    front = math.exp(log_front)
    # the continued fraction converges fast for x < (a + 1) / (a + b + 2); else use symmetry
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(x, a, b) / a
    return 1 - front * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c = 1.0
    d = 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h
