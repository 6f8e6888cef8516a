"""Tests on paired per-fold score differences.

The statistics behind :func:`chimeraboost.compare.compare_cv`, on arrays only (no estimator is
seen here): :func:`corrected_ttest` and :func:`bayesian_ttest` are re-exported by
:mod:`chimeraboost.compare` and documented with it; ``fold_moments``, ``ttest_from_moments`` and
``posterior_from_moments`` are the kernels that :func:`chimeraboost.compare.compare_cv` calls
once it has validated the inputs itself.

References
----------
.. [NB03] Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. *Machine
   Learning* 52(3), 239-281. doi:10.1023/A:1024068626366
.. [BCDZ17] Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a change: a
   tutorial for comparing multiple classifiers through Bayesian analysis. *Journal of Machine
   Learning Research* 18(77), 1-36.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..._shared.api import public
from ..._shared.validation import (
    check_level,
    check_real,
    check_numeric_1d,
    warn_degenerate,
)
from ...resampling import ConfidenceInterval

__all__ = [
    "CorrectedTTestResult",
    "BayesianTTestResult",
    "corrected_ttest",
    "bayesian_ttest",
    "fold_moments",
    "ttest_from_moments",
    "posterior_from_moments",
]

_ALTERNATIVES = ("two-sided", "greater", "less")


# --------------------------------------------------------------------------- per-fold tests


def _check_diffs(diffs) -> np.ndarray:
    d = check_numeric_1d(diffs, "diffs")
    if d.shape[0] < 2:
        msg = (f"diffs has {d.shape[0]} value; a variance across folds needs at least 2 "
               "per-fold differences.")
        raise ValueError(msg)
    return d


def fold_moments(diffs, n_train, n_test):
    """``(J, mean, s^2, n_test / n_train)`` of checked per-fold differences; ``s^2`` is
    exactly 0 when every difference is the same."""
    d = _check_diffs(diffs)
    n_train = check_real(n_train, "n_train", strictly_positive=True)
    n_test = check_real(n_test, "n_test", strictly_positive=True)
    # np.mean of identical values can miss them by an ulp, and np.var give 1e-34 rather than 0;
    # constant differences must take the documented zero-variance path, not a t of 1e15.
    if np.ptp(d) == 0:
        return d.shape[0], float(d[0]), 0.0, n_test / n_train
    return d.shape[0], float(np.mean(d)), float(np.var(d, ddof=1)), n_test / n_train


@dataclass(frozen=True)
class CorrectedTTestResult:
    """Result of :func:`corrected_ttest`, in the manner of scipy's ``TtestResult``.

    Attributes
    ----------
    statistic, pvalue : float
    df : int
        ``J - 1``.
    mean_difference : float
        Mean of the per-fold differences.
    std_error : float
        ``sqrt((1/J + n_test/n_train) s^2)``: the corrected standard error of the mean.
    n_folds : int
    correction : float
        ``n_test / n_train``, the term added to ``1/J``.
    alternative : str
    """

    statistic: float
    pvalue: float
    df: int
    mean_difference: float
    std_error: float
    n_folds: int
    correction: float
    alternative: str

    @public(legacy=("level",))
    def confidence_interval(self, *, level=0.95) -> ConfidenceInterval:
        """Interval for the mean difference at ``level``, one-sided if ``alternative`` is.

        ``mean -+ t_{df}((1 + level) / 2) * std_error`` for two-sided; ``(mean - t_{df}(level)
        * std_error, inf)`` for "greater" and ``(-inf, mean + ...)`` for "less", as scipy does.
        """
        level = check_level(level, "level")
        m, se = self.mean_difference, self.std_error
        if self.alternative == "two-sided":
            q = stats.t.ppf(0.5 + level / 2, self.df)
            return ConfidenceInterval(float(m - q * se), float(m + q * se))
        q = stats.t.ppf(level, self.df)
        if self.alternative == "greater":
            return ConfidenceInterval(float(m - q * se), math.inf)
        return ConfidenceInterval(-math.inf, float(m + q * se))


def ttest_from_moments(J, mean, var, correction, alternative) -> CorrectedTTestResult:
    """The corrected t-test from :func:`fold_moments` (inputs already checked)."""
    se = math.sqrt((1.0 / J + correction) * var)
    df = J - 1
    if se == 0:
        # Identical differences in every fold: no spread to test against. A non-zero constant
        # is an infinite t (p 0 in its direction); a zero constant says nothing (NaN).
        t = math.nan if mean == 0 else math.copysign(math.inf, mean)
    else:
        t = mean / se
    if math.isnan(t):
        p = math.nan
    elif alternative == "two-sided":
        p = float(2 * stats.t.sf(abs(t), df))
    elif alternative == "greater":
        p = float(stats.t.sf(t, df))
    else:
        p = float(stats.t.cdf(t, df))
    return CorrectedTTestResult(t, min(p, 1.0), df, mean, se, J, correction, alternative)


@public(legacy=("alternative",))
def corrected_ttest(diffs, n_train, n_test, *, alternative="two-sided") -> CorrectedTTestResult:
    """Nadeau & Bengio's corrected resampled t-test on per-fold score differences.

    Parameters
    ----------
    diffs : array-like of shape (J,)
        Per-fold differences ``score(model A) - score(model B)``, both models trained and
        scored on the same folds of (repeated) k-fold cross-validation; J >= 2.
    n_train, n_test : float > 0
        Rows in a training fold and in a test fold (averages if the folds differ in size).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        "greater": the mean difference is positive (A better, for a score).

    Returns
    -------
    CorrectedTTestResult
        ``statistic``, ``pvalue``, ``df``, ``mean_difference``, ``std_error`` and
        ``confidence_interval(level=0.95)``.

    Notes
    -----
    With ``s^2`` the sample variance (ddof 1) of the ``J`` differences [NB03]_::

        t = mean(d) / sqrt((1/J + n_test/n_train) * s^2),    df = J - 1.

    The naive paired t-test uses ``1/J`` alone, which assumes independent folds; training sets
    that overlap make the differences correlated (correlation about ``n_test / (n_test +
    n_train)``), and ``n_test/n_train`` is the heuristic inflation for it. As ``n_test/n_train
    -> 0`` the test becomes ``scipy.stats.ttest_1samp(d, 0)``.

    If all differences are identical the variance is zero: a warning is issued, the statistic
    is ``+-inf`` (p-value 0 in that direction, 1 against it) or, for identical zeros, NaN with
    p-value NaN.

    Examples
    --------
    >>> res = corrected_ttest([0.02, 0.03, 0.01, 0.04, 0.02], n_train=80, n_test=20)
    >>> round(float(res.statistic), 3), res.df
    (3.138, 4)
    """
    if alternative not in _ALTERNATIVES:
        msg = f"alternative must be one of {_ALTERNATIVES}, got {alternative!r}."
        raise ValueError(msg)
    J, mean, var, correction = fold_moments(diffs, n_train, n_test)
    if var == 0:
        warn_degenerate(f"All {J} differences equal {mean:g}: zero variance, so the t "
                        "statistic is infinite (or NaN if the differences are all zero).")
    return ttest_from_moments(J, mean, var, correction, alternative)


@dataclass(frozen=True)
class BayesianTTestResult:
    """Result of :func:`bayesian_ttest`: the posterior of the mean difference.

    Attributes
    ----------
    p_left, p_rope, p_right : float
        Posterior probabilities that the mean difference is below ``-rope``, inside
        ``[-rope, rope]`` and above ``rope``; they sum to 1.
    mean, scale : float
        Location and scale of the Student-t posterior (scale 0: a point mass at ``mean``).
    df : int
        ``J - 1``.
    rope : float
    """

    p_left: float
    p_rope: float
    p_right: float
    mean: float
    scale: float
    df: int
    rope: float

    @property
    def posterior(self):
        """The posterior as a frozen ``scipy.stats.t`` (None if it is a point mass)."""
        return stats.t(self.df, loc=self.mean, scale=self.scale) if self.scale > 0 else None

    @public(legacy=("level",))
    def credible_interval(self, *, level=0.95) -> ConfidenceInterval:
        """Central posterior interval of the mean difference at ``level``."""
        level = check_level(level, "level")
        if self.scale == 0:
            return ConfidenceInterval(self.mean, self.mean)
        lo, hi = self.posterior.interval(level)
        return ConfidenceInterval(float(lo), float(hi))


def posterior_from_moments(J, mean, var, correction, rope) -> BayesianTTestResult:
    """The Bayesian correlated t-test from :func:`fold_moments` (inputs already checked)."""
    scale = math.sqrt((1.0 / J + correction) * var)
    if scale == 0:
        # The limit of the posterior as s -> 0: all its mass at the observed mean.
        left, right = float(mean < -rope), float(mean > rope)
        return BayesianTTestResult(left, 1.0 - left - right, right, mean, 0.0, J - 1, rope)
    post = stats.t(J - 1, loc=mean, scale=scale)
    left = float(post.cdf(-rope))
    right = float(post.sf(rope))  # sf, not 1 - cdf: exact in the far right tail
    inside = float(post.cdf(rope)) - left if rope > 0 else 0.0
    return BayesianTTestResult(left, inside, right, mean, scale, J - 1, rope)


@public(legacy=("rope",))
def bayesian_ttest(diffs, n_train, n_test, *, rope=0.01) -> BayesianTTestResult:
    """Benavoli et al.'s Bayesian correlated t-test on per-fold score differences.

    Parameters
    ----------
    diffs : array-like of shape (J,)
        Per-fold differences ``score(A) - score(B)`` on the same CV folds; J >= 2.
    n_train, n_test : float > 0
        Rows in a training fold and in a test fold.
    rope : float >= 0, default=0.01
        Half-width of the region of practical equivalence, in the units of the score:
        differences within ``[-rope, rope]`` do not matter in practice.

    Returns
    -------
    BayesianTTestResult
        ``p_left`` (B better by more than ``rope``), ``p_rope`` (practically equivalent),
        ``p_right`` (A better by more than ``rope``), and the posterior.

    Notes
    -----
    Under a correlated Gaussian model with correlation ``rho = n_test / (n_test + n_train)``
    and a non-informative prior, the posterior of the mean difference is a Student t [BCDZ17]_::

        mu | d ~ t(df = J - 1, loc = mean(d), scale = sqrt((1/J + rho/(1-rho)) * s^2)),

    and ``rho / (1 - rho) = n_test / n_train``: the scale is the standard error of
    :func:`corrected_ttest`. ``p_left = F(-rope)``, ``p_right = 1 - F(rope)``, ``p_rope =
    F(rope) - F(-rope)``. With ``rope=0``, ``p_rope`` is 0 and ``p_right`` equals the one-sided
    p-value of the corrected t-test for "less".

    Zero variance (identical differences) gives a point mass at the mean, with a warning.

    Examples
    --------
    >>> res = bayesian_ttest([0.02, 0.03, 0.01, 0.04, 0.02], 80, 20, rope=0.01)
    >>> round(res.p_right, 3), round(res.p_rope, 3)
    (0.929, 0.065)
    """
    rope = check_real(rope, "rope", strictly_positive=False)
    J, mean, var, correction = fold_moments(diffs, n_train, n_test)
    if var == 0:
        warn_degenerate(f"All {J} differences equal {mean:g}: zero variance, so the posterior "
                        "is a point mass at that value.")
    return posterior_from_moments(J, mean, var, correction, rope)
