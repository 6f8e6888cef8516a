"""Which of several tests survive their number? Multiplicity adjustments of p-values.

When one question is asked of several challengers, slices or data sets at once, some p-values
fall below alpha by chance alone. Questions this module answers, and which function answers
each:

- Is any of the null hypotheses I reject true? Control that probability (the family-wise
  error rate): :func:`holm`, Holm's step-down procedure [H79]_.
- What share of the hypotheses I reject are true? Control its expectation (the false
  discovery rate): :func:`benjamini_hochberg` [BH95]_.

Both return a :class:`MultipleTestResult` (adjusted p-values, in the input order, and which
are rejected at ``alpha``); :func:`chimeraboost.compare.compare_cv` adjusts its challengers,
:func:`chimeraboost.compare.compare_datasets` its pairwise tests and
:func:`chimeraboost.slices.slice_report` its slices with them.

- Several differences, each with its bootstrap replicates (each slice against the rest of the
  rows): which are not 0? :func:`difference_tests` -- a t test per difference from the spread
  of its replicates, adjusted over them (:func:`chimeraboost.slices.slice_report` and
  :func:`chimeraboost.promotion.shadow_report`'s slices).

References
----------
.. [H79] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
   *Scandinavian Journal of Statistics* 6(2), 65-70.
.. [BH95] Benjamini, Y. and Hochberg, Y. (1995). Controlling the false discovery rate: a
   practical and powerful approach to multiple testing. *JRSS B* 57(1), 289-300.
   doi:10.1111/j.2517-6161.1995.tb02031.x
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import stdtr

from .._shared.api import public
from .._shared.ties import negligible
from .._shared.validation import check_level, check_pvalues

__all__ = ["ADJUSTMENTS", "DifferenceTests", "MultipleTestResult", "benjamini_hochberg",
           "difference_tests", "holm"]


class MultipleTestResult(NamedTuple):
    """Adjusted p-values (in the input order) and which hypotheses are rejected at alpha."""

    pvalues_adjusted: np.ndarray
    reject: np.ndarray


@public(legacy=("alpha",))
def holm(pvalues, *, alpha=0.05) -> MultipleTestResult:
    """Holm's step-down adjustment: controls the family-wise error rate at ``alpha``.

    Parameters
    ----------
    pvalues : array-like of shape (m,), values in [0, 1]
    alpha : float in (0, 1), default=0.05

    Returns
    -------
    MultipleTestResult
        ``pvalues_adjusted`` and ``reject = pvalues_adjusted <= alpha``.

    Notes
    -----
    With ``p_(1) <= ... <= p_(m)`` sorted [H79]_: ``p~_(i) = max_{j <= i} min(1, (m - j + 1)
    p_(j))``. Rejecting ``p~ <= alpha`` is Holm's procedure: reject ``H_(1), H_(2), ...`` while
    ``p_(j) <= alpha / (m - j + 1)``, stop at the first failure.
    """
    p = check_pvalues(pvalues)
    alpha = check_level(alpha, "alpha", example="0.05")
    m = p.shape[0]
    order = np.argsort(p, kind="stable")
    steps = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(steps)  # step-down: never below an earlier one
    return MultipleTestResult(adjusted, adjusted <= alpha)


@public(legacy=("alpha",))
def benjamini_hochberg(pvalues, *, alpha=0.05) -> MultipleTestResult:
    """Benjamini & Hochberg's step-up adjustment: controls the false discovery rate.

    Parameters
    ----------
    pvalues : array-like of shape (m,), values in [0, 1]
    alpha : float in (0, 1), default=0.05

    Returns
    -------
    MultipleTestResult
        ``pvalues_adjusted`` and ``reject = pvalues_adjusted <= alpha``.

    Notes
    -----
    With ``p_(1) <= ... <= p_(m)`` sorted [BH95]_: ``p~_(i) = min_{j >= i} min(1, m p_(j) /
    j)``. Rejecting ``p~ <= alpha`` rejects ``H_(1..k)`` for the largest ``k`` with ``p_(k) <=
    k alpha / m``. Valid for independent or positively dependent tests.
    """
    p = check_pvalues(pvalues)
    alpha = check_level(alpha, "alpha", example="0.05")
    m = p.shape[0]
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    adjusted = np.empty(m)
    # step-up: a p-value is never adjusted above a larger one's adjustment
    adjusted[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return MultipleTestResult(adjusted, adjusted <= alpha)


#: The adjustments by name, as ``adjust=`` takes them.
ADJUSTMENTS = {"holm": holm, "bh": benjamini_hochberg}


class DifferenceTests(NamedTuple):
    """Per difference: the difference (0 for a tie), its standard error, the two-sided p-value,
    the adjusted p-value and whether it is rejected (NaN p-values: not tested)."""

    difference: np.ndarray
    se: np.ndarray
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray
    reject: np.ndarray


def _spread(reps) -> float:
    """The standard deviation of the defined replicates (NaN with fewer than two).

    Not a robust scale (half the 16th-84th percentile range was tried on slices): wild
    replicates of a small slice inflate the standard deviation and make its test cautious,
    where a robust scale ignores the heavier tail and calls slices different too often
    (benchmarks/bench_slices.py)."""
    reps = np.asarray(reps, dtype=np.float64)
    ok = reps[~np.isnan(reps)]
    return float(np.std(ok, ddof=1)) if ok.size >= 2 else np.nan


@public(legacy=("eligible", "adjust", "alpha"))
def difference_tests(estimate, replicates, units, *, eligible=None, adjust="holm",
                     alpha=0.05) -> DifferenceTests:
    """Is each of several differences 0? A t test per difference from its bootstrap
    replicates, adjusted over the differences tested.

    Parameters
    ----------
    estimate : array-like of shape (m,)
        Each difference on the rows as given (its point estimate).
    replicates : sequence of m arrays of shape (n_boot,)
        Each difference on each resample (NaN ones are left out).
    units : array-like of shape (m,)
        The resampled units each difference rests on (rows, groups or time blocks; for a
        skill, no more than the rows of the rarer class): Student's ``nu = units - 1``.
    eligible : array-like of bool of shape (m,), default=None
        Which differences may be tested (None: all).
    adjust : {"holm", "bh"}, default="holm"
        :func:`holm` or :func:`benjamini_hochberg` over the tested differences.
    alpha : float in (0, 1), default=0.05

    Returns
    -------
    DifferenceTests
        ``se`` is the replicates' standard deviation times ``sqrt((nu + 1) / nu)``; ``p =
        2 t_nu(-|estimate| / se)``. A difference is tested when it is eligible, its p is
        defined and its ``se`` positive, or when it is a tie.

    Notes
    -----
    Why t and not the normal: the standard error is itself estimated from the units, and on a
    few of them its noise fattens the tails of ``difference / se`` -- the tails a test
    adjusted over many differences reads. For a mean, ``units - 1`` is the exact correction.

    Why the factor: the bootstrap variance of a mean over ``u`` units is the plug-in one, the
    sum of squares over ``u``, where Student's t assumes it over ``u - 1``; with the factor,
    a mean's test is the one-sample t test when the replicates' spread is the ideal
    bootstrap's. It is the widening of the expanded intervals (Hesterberg, T. C. (2015). What
    teachers should know about the bootstrap. *The American Statistician* 69(4), 371-386.
    doi:10.1080/00031305.2015.1089789). Without it, 12 units read ``difference / se`` 4% too
    large: at 0.05 / 8, 29% more false calls.

    Why symmetric, though a skill on a dozen customers is skewed (some slice is called
    different in 7.2% of null data sets at 100 customers, almost always "worse"): the
    skewness-aware tests tried on the same replicates did worse. Hall's (1992) cubic
    transform of ``difference / se`` with the replicates' skewness, the p-value that inverts
    the expanded BCa interval (Efron 1987) with its tail smoothed by the same cubic, and the
    percentile p-value called a slice different in 22-38% of those data sets: the replicates
    of a skill over a dozen resampled customers are about three times as skewed as the
    skill itself. With the jackknife's skewness instead, Hall's transform gave 8.9%; BCa read
    off 500 replicates' own quantiles, 3.2%, but its p-value seldom reaches 0.05 / 8 (a
    slice where the model has no skill was found in 1 of 400 data sets); the bias-corrected
    difference ``2 d - mean(replicates)``, 6.2% with less power to find a worse slice
    (``benchmarks/bench_slices_skew.py``; Hall, P. (1992). On the removal of skewness by
    transformation. *JRSS B* 54(1), 221-228; Johnson, N. J. (1978). Modified t tests and
    confidence intervals for asymmetrical populations. *JASA* 73(363), 536-544).

    A tie (the difference and every replicate of it rounding noise, as for a model against
    an exact copy of itself) is a difference of 0 with p = 1, never a verdict.

    Examples
    --------
    Replicates whose spread is the plug-in standard error of a mean of 12 units give
    scipy's one-sample t test:

    >>> import numpy as np
    >>> from scipy.stats import ttest_1samp
    >>> x = np.array([0.3, -0.1, 0.5, 0.2, 0.4, 0.0, 0.6, 0.1, 0.3, 0.2, -0.2, 0.5])
    >>> se = x.std(ddof=0) / np.sqrt(12)
    >>> reps = x.mean() + se * np.array([-1.0, 1.0]) / np.sqrt(2.0)  # their sd: se
    >>> t = difference_tests([x.mean()], [reps], [12])
    >>> bool(np.isclose(t.pvalue[0], ttest_1samp(x, 0).pvalue))
    True
    """
    if adjust not in ADJUSTMENTS:
        msg = f"adjust={adjust!r} is not an adjustment; use one of {sorted(ADJUSTMENTS)}."
        raise ValueError(msg)
    alpha = check_level(alpha, "alpha", example="0.05")
    diff = np.asarray(estimate, dtype=np.float64).copy().reshape(-1)
    m = diff.size
    reps = [np.asarray(r, dtype=np.float64) for r in replicates]
    if len(reps) != m:
        msg = (f"replicates has {len(reps)} arrays for {m} differences; pass one array of "
               "replicates per difference.")
        raise ValueError(msg)
    tie = np.array([bool(np.isfinite(d)) and negligible(d) and bool(np.all(
        [negligible(x) for x in r[np.isfinite(r)]])) for d, r in zip(diff, reps)], bool)
    diff[tie] = 0.0
    df = np.maximum(np.asarray(units, dtype=np.float64).reshape(-1) - 1.0, 1.0)
    se = np.array([0.0 if t else _spread(r) for r, t in zip(reps, tie)]) if m else np.zeros(0)
    se = se * np.sqrt((df + 1.0) / df)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = diff / se
    p = np.where(tie, 1.0, 2.0 * stdtr(df, -np.abs(z)))
    ok = np.ones(m, bool) if eligible is None else np.asarray(eligible, bool)
    tested = ok & np.isfinite(p) & ((se > 0) | tie)
    adjusted = np.full(m, np.nan)
    if tested.any():
        adjusted[tested] = ADJUSTMENTS[adjust](p[tested], alpha=alpha).pvalues_adjusted
    return DifferenceTests(diff, se, np.where(tested, p, np.nan), adjusted,
                           tested & (adjusted <= alpha))
