"""Is the model miscalibrated, and by how much beyond these rows? The calibration test.

:func:`~chimeraboost.metrics.calibration_mcb` is the in-sample CORP miscalibration: the Brier
score the forecasts would save by their isotonic recalibration *on these rows*. The isotonic
fit follows the noise of the outcomes, so even a perfectly calibrated forecast shows MCB > 0
(about 0.0035 on 2,000 rows at a 50% base rate, 0.015 on 200). :func:`calibration_test`
separates that noise from miscalibration:

- What MCB would a calibrated forecast show on rows like these? ``noise_floor``: outcomes
  drawn from the forecasts themselves, ``o* ~ Bernoulli(p)``, recalibrated, averaged (the
  resampling of Dimitriadis, Gneiting & Jordan 2021, section 3).
- Is the forecast miscalibrated? ``pvalue``: the share of those draws whose MCB reaches the
  observed one -- a Monte Carlo test, valid at any number of rows because the draws follow
  the null hypothesis exactly (Davison & Hinkley 1997, section 4.2.5).
- How miscalibrated is it in the population? ``excess``: the MCB minus its expected
  inflation. How much the isotonic fit inflates MCB depends on the true recalibration curve
  (a flatter curve -- an overconfident forecast -- is fitted with less noise than the
  forecasts themselves), so the inflation is simulated in a world whose outcomes follow the
  forecasts' logistic recalibration ``expit(a + b logit p)`` fitted to these rows (Cox 1958);
  for a calibrated forecast that world is the null and the inflation is the noise floor.
- What if a customer's rows (``groups=``) or neighbouring times' rows (``time=``) share
  their surprises? The same questions, with outcomes drawn by the wild cluster bootstrap of
  the residuals, one sign per group or block of time (:mod:`._wild`; Cameron, Gelbach &
  Miller 2008; Shao 2010), instead of independently row by row.
- Over- or under-confident, or shifted? ``recalibration_intercept``, ``recalibration_slope``
  and ``recalibration_pvalue``: Cox's logistic recalibration and the score test of intercept 0
  and slope 1 (:mod:`._recalibration`), more powerful than the MCB test against that
  commonest miscalibration, blind to others.
- How sure is that? ``confidence_interval(level)``: an interval for the population MCB that
  inverts the test (Carpenter 1999) between the null and the recalibrated world -- its low end
  is above 0 exactly when the test rejects calibration in that tail -- with the world's basic
  bootstrap bound on top (Davison & Hinkley 1997, section 5.2); it always contains the
  estimate.

Speed: the draws need one isotonic fit each. Rows are pooled by forecast first (ties within
1e-15, as the CORP fit pools them); beyond ``_MAX_CELLS`` pools, consecutive pools are merged
into that many cells of about equal row counts for the simulated fits (the observed
``statistic`` is always the exact CORP MCB). Unweighted cells draw their events as one
binomial count per cell, so a draw costs the same at 10^4 and 10^7 rows. The draws are made
and fitted by :mod:`._calibration_draws`: the fits on ``n_jobs`` workers.

References
----------
Carpenter, J. (1999). Test inversion bootstrap confidence intervals. *JRSS B* 61(1), 159-172.
doi:10.1111/1467-9868.00169

Cox, D. R. (1958). Two further applications of a model for binary regression. *Biometrika*
45(3/4), 562-565. doi:10.2307/2333203

Cameron, A. C., Gelbach, J. B. and Miller, D. L. (2008). Bootstrap-based improvements for
inference with clustered errors. *Review of Economics and Statistics* 90(3), 414-427.
doi:10.1162/rest.90.3.414

Davison, A. C. and Hinkley, D. V. (1997). *Bootstrap Methods and their Application*.
Cambridge University Press. doi:10.1017/CBO9780511802843

Dimitriadis, T., Gneiting, T. and Jordan, A. I. (2021). Stable reliability diagrams for
probabilistic classifiers. *PNAS* 118(8), e2016191118. doi:10.1073/pnas.2016191118

Politis, D. N. and White, H. (2004). Automatic block-length selection for the dependent
bootstrap. *Econometric Reviews* 23(1), 53-70. doi:10.1081/ETC-120028836

Shao, X. (2010). The dependent wild bootstrap. *Journal of the American Statistical
Association* 105(489), 218-235. doi:10.1198/jasa.2009.tm08744
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import isotonic_regression
from scipy.special import expit

from .._shared.api import public
from . import _kernels
from ._calibration_draws import WildDraws, binomial_events, row_events, simulate
from ._recalibration import recalibration_fields, recalibration_fit
from .._shared.results import ConfidenceInterval
from .._shared.units import check_n_boot, check_units
from ._calibration import calibration_decomposition
from .._shared.validation import (
    check_aligned,
    check_classes,
    check_level,
    check_proba,
    check_n_jobs,
    check_random_state_int,
    check_same_length,
    check_sample_weight,
    encode_labels,
    plain,
    require_proba,
    warn_degenerate,
)

__all__ = ["CalibrationTestResult", "calibration_test"]

# The worlds simulated besides the null, as steps along the path from the null (t = 0) to the
# fitted recalibration (t = 1) and beyond: the interval interpolates between them.
_WORLDS = (0.5, 1.0, 2.0)
# Pools of forecasts beyond which the simulated fits run on merged cells (see module docstring).
_MAX_CELLS = 2048


@dataclass(frozen=True, repr=False)
class CalibrationTestResult:
    """Result of :func:`calibration_test` (class averages; per class in ``*_per_class``).

    Attributes
    ----------
    statistic : float
        The CORP MCB on these rows: :func:`calibration_mcb`, unchanged.
    noise_floor : float
        Mean MCB of outcomes drawn from the forecasts themselves: what a calibrated forecast
        shows on rows of this size, weighting and spread of forecasts.
    excess : float
        Estimate of the population MCB: ``statistic`` minus its simulated inflation. Nearly
        unbiased, so it can be slightly negative for a calibrated forecast.
    pvalue : float
        Monte Carlo p-value of H0 "the forecasts are calibrated": ``(1 + #{draws with MCB >=
        statistic}) / (n_boot + 1)``, using the null draws behind ``noise_floor``.
    inflation : float
        The simulated inflation subtracted from ``statistic`` (``statistic - excess``, up to
        the merging of pools into cells on large inputs).
    n_boot : int
        Draws under the null and in the recalibrated world (each).
    classes : ndarray of shape (K,)
    statistic_per_class, noise_floor_per_class, excess_per_class, pvalue_per_class : ndarray
        The same per class (one-vs-rest), in the order of ``classes``; for a binary problem
        both entries are equal (the two classes' forecasts mirror each other).
    recalibration_intercept, recalibration_slope : float
        Cox's logistic recalibration ``P(Y = 1 | p) = expit(a + b logit p)`` fitted to these
        rows (weighted maximum likelihood): ``a`` and ``b``, 0 and 1 for a calibrated
        forecast; a slope below 1 means over-confident forecasts (too close to 0 and 1),
        above 1 under-confident ones. Binary: the fit for ``classes[1]``; several classes:
        the mean over classes of their one-vs-rest fits. NaN where a class never or always
        occurs.
    recalibration_statistic : float
        The score statistic of H0 ``a = 0, b = 1`` (all classes jointly): ``U' V^+ U`` with
        ``U = sum w (y - p) (1, logit p)`` and ``V`` its variance (Notes).
    recalibration_df : int
        The rank of ``V``: 2 for a binary problem, ``2K - 1`` for ``K`` classes.
    recalibration_pvalue : float
        P-value of H0 "intercept 0 and slope 1": chi-squared on ``recalibration_df`` for
        independent rows, the wild score bootstrap with ``groups=`` / ``time=``. It has more
        power than ``pvalue`` against over- or under-confidence and a shift, none against a
        miscalibration that no intercept and slope describe.
    recalibration_intercept_per_class, recalibration_slope_per_class, \
recalibration_pvalue_per_class : ndarray
        The same per class (one-vs-rest), in the order of ``classes``; binary: the two
        intercepts are opposite, the slopes and p-values equal.
    """

    statistic: float
    noise_floor: float
    excess: float
    pvalue: float
    inflation: float
    n_boot: int
    classes: np.ndarray
    statistic_per_class: np.ndarray
    noise_floor_per_class: np.ndarray
    excess_per_class: np.ndarray
    pvalue_per_class: np.ndarray
    recalibration_intercept: float
    recalibration_slope: float
    recalibration_statistic: float
    recalibration_df: int
    recalibration_pvalue: float
    recalibration_intercept_per_class: np.ndarray
    recalibration_slope_per_class: np.ndarray
    recalibration_pvalue_per_class: np.ndarray
    # The simulated worlds behind the interval, per class: the population MCB of each world,
    # (W, K'), and its draws' MCB, (W, n_boot, K'); K' = 1 (the positive class) when binary.
    # World 0 is the null. And the observed statistic as the draws compute it, (K',).
    _world_truth: np.ndarray = field(default=None)
    _world_draws: np.ndarray = field(default=None)
    _observed: np.ndarray = field(default=None)

    @public(legacy=("level",))
    def confidence_interval(self, *, level: float = 0.95) -> ConfidenceInterval:
        """Interval for the population MCB (class average) at ``level``; see the Notes of
        :func:`calibration_test`. It always contains ``excess``, and its low end is above 0
        exactly when the test rejects calibration at ``(1 - level) / 2`` (the interval's own
        tail), unless ``excess`` itself is not above 0."""
        if self._world_draws is None:
            return ConfidenceInterval(np.nan, np.nan)
        low, high = _interval(self.excess, self._world_truth.mean(axis=1),
                              self._world_draws.mean(axis=2), float(self._observed.mean()),
                              level)
        return ConfidenceInterval(float(low), float(high))

    @public(legacy=("level",))
    def confidence_interval_per_class(self, *, level: float = 0.95) -> ConfidenceInterval:
        """The same per class: ``low`` and ``high`` are arrays of shape (K,)."""
        k = self.classes.shape[0]
        if self._world_draws is None:
            return ConfidenceInterval(np.full(k, np.nan), np.full(k, np.nan))
        # The draws hold one column per class, or the positive class's only when binary.
        excess = self.excess_per_class[1:] if k == 2 else self.excess_per_class
        bounds = [_interval(excess[j], self._world_truth[:, j], self._world_draws[:, :, j],
                            float(self._observed[j]), level)
                  for j in range(self._observed.shape[0])]
        low, high = (np.array([b[i] for b in bounds]) for i in (0, 1))
        if k == 2:
            low, high = np.repeat(low, 2), np.repeat(high, 2)
        return ConfidenceInterval(low, high)

    def __repr__(self) -> str:
        # One line per test, so that the repr keeps to 120 columns.
        pad = " " * len("CalibrationTestResult(")
        return (f"CalibrationTestResult(statistic={self.statistic:.6g}, noise_floor="
                f"{self.noise_floor:.6g}, excess={self.excess:.6g}, pvalue={self.pvalue:.4g},\n"
                f"{pad}recalibration_intercept={self.recalibration_intercept:.4g}, "
                f"recalibration_slope={self.recalibration_slope:.4g}, "
                f"recalibration_pvalue={self.recalibration_pvalue:.4g},\n"
                f"{pad}n_boot={self.n_boot})")


def _interval(estimate, truths, draws, observed, level):
    """``(low, high)`` for the population MCB by inverting the test of "population MCB = m"
    (Carpenter 1999) over the simulated worlds: world ``i`` has population MCB ``truths[i]``
    and draws ``draws[i]`` of the statistic (world 0 is the null, ``m = 0``).

    ``low`` is where the observed statistic meets the upper ``alpha`` quantile of its
    distribution, ``high`` where it meets the lower one, both quantiles interpolated linearly
    in ``m`` between neighbouring worlds and shifted with ``m`` past the last. At ``m = 0`` the
    upper quantile is the order statistic the test compares with, so ``low > 0`` exactly when
    the test rejects at ``alpha`` (fewer than ``alpha (n_boot + 1) - 1`` null draws reach the
    statistic). The interval is widened, if need be, to contain ``estimate``."""
    level = check_level(level, "level")
    alpha = (1.0 - level) / 2.0
    if np.isnan(estimate):
        return np.nan, np.nan
    order = np.argsort(truths, kind="stable")
    m = np.asarray(truths, dtype=float)[order]
    draws = np.asarray(draws)[order]
    b = draws.shape[1]
    j = int(np.ceil(alpha * (b + 1) - 1.0)) - 1  # reject iff observed > the (j+1)-th largest
    upper = np.array([np.sort(d)[::-1][j] if j >= 0 else np.inf for d in draws])
    lower = np.quantile(draws, alpha, axis=1)
    low = _crossing(m, upper, observed, first=True)
    high = _crossing(m, lower, observed, first=False)
    return min(low, estimate), max(high, estimate)


def _crossing(m, q, observed, *, first):
    """The ``m`` at which the piecewise-linear quantile curve ``(m, q)`` reaches ``observed``:
    the first crossing from below (``first``) or the last; 0 before the curve starts, and
    beyond its last point the quantile moves one for one with ``m``."""
    if observed <= q[0]:
        return 0.0
    spans = range(len(m) - 1) if first else range(len(m) - 2, -1, -1)
    for i in spans:
        lo, hi = q[i], q[i + 1]
        if lo < observed <= hi and hi > lo:
            return float(m[i] + (m[i + 1] - m[i]) * (observed - lo) / (hi - lo))
        if not first and observed > max(lo, hi) and i == len(m) - 2:
            break  # past the last world: extrapolate below
    return float(max(m[-1] + (observed - q[-1]), 0.0))


class _Cells:
    """One class's forecasts sorted, pooled (ties within 1e-15) and merged into cells."""

    def __init__(self, x: np.ndarray, w: np.ndarray):
        order = np.argsort(x, kind="stable")
        self.order = order
        xs, ws = x[order], w[order]
        values, inverse = np.unique(xs, return_inverse=True)
        pool_of_value = _kernels.isotonic_groups(values)
        pool = pool_of_value[inverse]
        n_pools = int(pool[-1]) + 1
        if n_pools > _MAX_CELLS:
            rows_before = np.cumsum(np.bincount(pool, minlength=n_pools)) - np.bincount(
                pool, minlength=n_pools)
            cell_of_pool = (rows_before * _MAX_CELLS) // xs.shape[0]
            cell_of_pool = np.cumsum(np.r_[True, np.diff(cell_of_pool) > 0]) - 1
            cell = cell_of_pool[pool]
        else:
            cell = pool
        self.merged = n_pools > _MAX_CELLS
        self.cell = cell  # cell of each sorted row (non-decreasing)
        self.n_cells = int(cell[-1]) + 1
        self.x, self.w = xs, ws
        self.rows = np.bincount(cell, minlength=self.n_cells)
        self.tot = np.bincount(cell, weights=ws, minlength=self.n_cells)
        self.w_tot = float(self.tot.sum())
        self.xbar = np.bincount(cell, weights=ws * xs, minlength=self.n_cells) / self.tot
        self.sq_forecast = float(np.dot(ws, xs * xs))
        starts = np.flatnonzero(np.r_[True, np.diff(cell) > 0])
        self.equal_weights = bool(np.all(np.minimum.reduceat(ws, starts)
                                         == np.maximum.reduceat(ws, starts)))
        self.cell_weight = np.maximum.reduceat(ws, starts)

    def cell_means(self, q_sorted: np.ndarray) -> np.ndarray:
        """Weighted mean of a per-row quantity over each cell."""
        return np.bincount(self.cell, weights=self.w * q_sorted, minlength=self.n_cells) / self.tot

    def mcb(self, events: np.ndarray) -> np.ndarray:
        """MCB of the cells' forecasts against event weights ``events`` (B, C), per row of B.

        The forecast's squared error uses each cell's mean forecast for its events (exact for
        pooled ties); the recalibrated one sums ``E N / T`` over the isotonic blocks (sums of
        non-negative terms, no cancellation): the CORP kernel's
        :func:`~chimeraboost.metrics._kernels.isotonic_recalibration`.
        """
        sq_err = self.sq_forecast + events @ (1.0 - 2.0 * self.xbar)
        sq_iso = _kernels.isotonic_recalibration(
            events, np.broadcast_to(self.tot, events.shape))["sq_err"]
        return np.maximum(sq_err - sq_iso, 0.0) / self.w_tot

    def mcb_real(self, events: np.ndarray) -> np.ndarray:
        """:meth:`mcb` for real-valued outcomes (the wild draws of :mod:`._wild`), from
        their weight per cell ``events`` (B, C).

        With outcomes ``y`` not 0/1, ``sum w y^2`` no longer equals the event weight, but it
        cancels: on an isotonic block of weight ``T`` and outcome weight ``E`` the fit is
        ``E / T``, so ``S(p) - S(r) = sum w p^2 - 2 sum w p y + sum_blocks E^2 / T``, and the
        last sum is ``sum_cells r E`` with ``r`` the fitted value of the kernel."""
        fit = _kernels.isotonic_recalibration(
            events, np.broadcast_to(self.tot, events.shape), fitted=True)["fitted"]
        sq = self.sq_forecast - 2.0 * (events @ self.xbar) + _kernels.row_dot(fit, events)
        return np.maximum(sq, 0.0) / self.w_tot

    def truth(self, q_sorted: np.ndarray) -> float:
        """Population MCB of the forecasts in a world where each row's event has probability
        ``q``: ``S(p) - S(c)`` in expectation, ``c`` the isotonic projection of ``q``."""
        qbar = self.cell_means(q_sorted)
        c = isotonic_regression(qbar, weights=self.tot, increasing=True).x[self.cell]
        d = np.dot(self.w, (self.x - q_sorted) ** 2) - np.dot(self.w, (c - q_sorted) ** 2)
        return max(float(d), 0.0) / self.w_tot


def _world(fits, t, binary) -> np.ndarray:
    """Row probabilities (n, K) of the world ``t`` of the way from the null to the fitted
    recalibration of each class: ``expit(t a + (1 + t (b - 1)) logit p)``, renormalised over
    classes."""
    q = np.column_stack([expit(t * a + (1.0 + t * (b - 1.0)) * z) for a, b, z in fits])
    if binary:
        return np.c_[1.0 - q[:, 0], q[:, 0]]
    return q / q.sum(axis=1, keepdims=True)


@public(legacy=("sample_weight",))
def calibration_test(y, proba, classes, *, sample_weight=None, n_boot=1000,
                     random_state=None, groups=None, time=None,
                     n_jobs=None) -> CalibrationTestResult:
    """Test calibration and estimate the population miscalibration behind ``calibration_mcb``.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed), each one of ``classes``.
    proba : array-like of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes``; a 1-D array is the
        probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None
    n_boot : int, default=1000
        Draws of the outcomes under the null (for ``noise_floor`` and ``pvalue``) and in the
        recalibrated world (for ``excess`` and the interval), each; at least 200, and fewer
        than 1000 warn (:func:`chimeraboost.resampling.check_n_boot`, the one rule).
    random_state : None, int or numpy Generator
    groups : array-like of shape (n,), default=None
        The customer, patient or account of each row, when a group's rows are not
        independent (the array passed to scikit-learn's ``GroupKFold``): the null and the
        worlds then keep the correlation of a group's outcomes (Notes). Groups of size one
        are independent rows.
    time : array-like of shape (n,), default=None
        Dates (or any sortable values) of time-ordered rows whose outcomes are serially
        dependent: the draws then keep that dependence (Notes). With ``groups`` too, the
        groups are the units and ``time`` only dates the rows.
    n_jobs : int, default=None
        Workers for the isotonic fits of the draws: None or 1 for one, -1 for every CPU
        (scikit-learn's reading); forked processes on Linux while the caller runs one thread,
        threads otherwise. The outcomes are drawn on the calling thread in the order one
        thread draws them, so every number is the same, bit for bit, whatever ``n_jobs``.

    Returns
    -------
    CalibrationTestResult
        ``statistic``, ``noise_floor``, ``excess``, ``pvalue``, ``confidence_interval(level)``,
        and the recalibration's ``recalibration_intercept``, ``recalibration_slope``,
        ``recalibration_pvalue``; per class in the ``*_per_class`` attributes. With one class in ``y`` (or rows of zero
        weight only for a class's event) the statistic is defined but the world cannot be
        fitted: everything else is NaN, with a ``DegenerateMetricWarning``.

    Notes
    -----
    The null draws follow the hypothesis exactly (``o* ~ Bernoulli(p)`` given the forecasts,
    categorical draws with K classes), so the test is exact up to Monte Carlo error. The
    population MCB of a forecast ``p`` is ``E[(p - c(p))^2]``-type miscalibration in the CORP
    sense, ``S(p) - S(c)`` with ``c`` the isotonic projection of ``P(Y = 1 | p)``. Its
    estimate subtracts from the observed MCB the mean inflation ``E[MCB*] - truth`` simulated
    in the world ``P(Y = 1 | p) = expit(a + b logit p)`` (per class, renormalised over
    classes), with ``a, b`` the weighted logistic recalibration of these rows (Cox 1958).
    The interval inverts the test of "population MCB = m" (Carpenter 1999): its low end is the
    ``m`` at which the observed MCB sits at the upper ``(1 - level) / 2`` quantile of its
    distribution -- the null's at ``m = 0``, the world's at the world's population MCB,
    linearly in between and shifted with ``m`` beyond -- so it is above 0 exactly when the
    test rejects at that tail; its high end is the basic bootstrap bound of the world's draws
    (Davison & Hinkley 1997, section 5.2). It always contains ``excess``. Coverage, size and
    power are measured in ``benchmarks/coverage.py``. Dimitriadis, Gneiting & Jordan (2021),
    PNAS 118(8), doi:10.1073/pnas.2016191118.

    **Rows that are not independent** (``groups=`` / ``time=``). Outcomes drawn row by row
    from the forecasts are calmer than outcomes that share a customer's surprises: the
    isotonic fit then follows the noise of ``G`` groups, not of ``n`` rows, and a calibrated
    forecast would be called miscalibrated (on 200 customers x 10 snapshots, nearly always).
    The draws are then the wild cluster bootstrap of the residuals (Cameron, Gelbach &
    Miller 2008, with the null imposed), ``y* = q + v_g (o - r)``: one Rademacher sign
    ``v_g`` per group shared by its rows and by all classes, ``q`` the world's
    probabilities, ``r = p`` under the null (its "restricted" residuals, which keep the size)
    and the fitted recalibration in the other worlds. Given the data ``E[y*] = q``, and the
    residuals of a group keep their correlation, whatever it is, without a model of it.
    The outcomes ``y*`` are real numbers; their MCB is the same isotonic fit (the Brier
    score and the pool-adjacent-violators fit need no 0/1 outcomes). Every world draws the
    same signs, so the worlds differ by their probabilities alone. With ``time=`` a sign
    belongs to a block of ``L`` consecutive time points, the blocks' start shifted at random
    in each draw (the dependent wild bootstrap with Bartlett's kernel, Shao 2010), ``L``
    the block length of Politis & White (2004) fitted to the residuals per time point. Size,
    power and coverage on clustered snapshots are measured in
    ``benchmarks/coverage_calibration_groups.py``.

    **The recalibration test** (``recalibration_*``) is Rao's score test of Cox's (1958)
    ``a = 0, b = 1`` in ``P(Y = 1 | p) = expit(a + b logit p)``, per class one-vs-rest and
    jointly: chi-squared on independent rows (the score test of a binomial GLM with offset
    ``logit p``); with ``groups=`` / ``time=`` the variance adds the covariance a unit's rows
    share and the reference is ``F(df, G - 1)`` (:mod:`._recalibration`). It draws nothing
    and does not touch ``pvalue`` or the interval.

    Examples
    --------
    Forecasts that are the true probabilities: the in-sample MCB is about the noise floor,
    the excess about 0, and the test does not reject.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(0.05, 0.95, 2000)
    >>> y = (rng.random(2000) < p).astype(int)
    >>> res = calibration_test(y, p, classes=[0, 1], random_state=0)
    >>> bool(abs(res.statistic - res.noise_floor) < 0.002), bool(res.pvalue > 0.05)
    (True, True)
    >>> low, high = res.confidence_interval(level=0.95)
    >>> bool(low <= max(res.excess, 0) <= high)
    True

    Forecasts pushed towards the extremes are miscalibrated, and the test says so:

    >>> q = 1 / (1 + ((1 - p) / p) ** 2)
    >>> res = calibration_test(y, q, classes=[0, 1], random_state=0)
    >>> bool(res.pvalue < 0.01)
    True

    Its recalibration slope is the 1/2 its doubled logits need, and the score test is sure:

    >>> round(res.recalibration_slope, 1), bool(res.recalibration_pvalue < 1e-10)
    (0.5, True)
    """
    check_aligned(y=y, proba=proba, sample_weight=sample_weight, groups=groups, time=time)
    require_proba(proba)
    n_boot = check_n_boot(n_boot)
    n_jobs = check_n_jobs(n_jobs)
    classes = check_classes(classes)
    codes = encode_labels(y, classes, "y")
    proba = check_proba(proba, classes, "proba")
    check_same_length(y=codes, proba=proba)
    units = check_units(codes.shape[0], groups=groups, time=time)
    w = check_sample_weight(sample_weight, codes.shape[0])
    w = np.ones(codes.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    rng = check_random_state_int(random_state)
    keep = w > 0  # rows of zero weight count in nothing
    codes, proba, w = codes[keep], proba[keep], w[keep]
    k = classes.shape[0]
    binary = k == 2
    classes_used = [1] if binary else list(range(k))
    cells = [_Cells(proba[:, j], w) for j in classes_used]
    events = [np.bincount(c.cell, weights=c.w * (codes[c.order] == j), minlength=c.n_cells)
              for c, j in zip(cells, classes_used)]
    # The statistic is calibration_mcb's own number, by the same code.
    exact = calibration_decomposition(codes, proba, np.arange(k),
                                      sample_weight=w)["per_class"]["mcb"][classes_used]
    observed = np.array([c.mcb(e[None, :])[0] for c, e in zip(cells, events)])
    per_row = not binary or not cells[0].equal_weights
    if units.independent_rows:
        def draw(q_rows, resid_rows):  # outcomes drawn from q, row by row
            if per_row:
                return row_events(cells, q_rows, n_boot, rng, classes_used)
            c = cells[0]  # binary, equal weights within every cell: a binomial count per cell
            return [binomial_events(c, q_rows[c.order, classes_used[0]], n_boot, rng)]
        null_resid = resid = None
    else:  # the wild cluster bootstrap (module docstring)
        onehot = (codes[:, None] == np.arange(k)).astype(np.float64)
        wild = WildDraws(cells, classes_used, units, units.codes[keep], w,
                         (onehot - proba)[:, classes_used], int(rng.integers(2**63 - 1)))

        def draw(q_rows, resid_rows):
            return wild(q_rows, resid_rows, n_boot)
        null_resid = onehot - proba

    present = [np.any(codes == j) and np.any(codes != j) for j in classes_used]
    fits = [recalibration_fit(proba[:, j], (codes == j).astype(float), w) if ok else None
            for j, ok in zip(classes_used, present)]
    # The null, then (with every class present) the worlds of the interval, drawn in this
    # order; the worlds' draws keep the residuals of the fitted recalibration: its surprises.
    worlds = [_world(fits, t, binary) for t in _WORLDS] if all(present) else []
    if worlds and not units.independent_rows:
        resid = onehot - _world(fits, 1.0, binary)
    sims = simulate(draw, [(proba, null_resid)] + [(q, resid) for q in worlds], cells, n_boot,
                    real=not units.independent_rows, n_jobs=n_jobs)
    null = sims[0]
    floor = null.mean(axis=0)
    tol = 1e-12 * np.maximum(1.0, np.abs(observed))
    pvals = (1.0 + np.sum(null >= observed - tol, axis=0)) / (n_boot + 1.0)
    p_avg = (1.0 + np.sum(null.mean(axis=1) >= observed.mean() - tol.max())) / (n_boot + 1.0)

    if worlds:
        truths = np.array([np.zeros(len(classes_used))] + [
            [c.truth(q[c.order, j]) for c, j in zip(cells, classes_used)] for q in worlds])
        draws = sims
        fitted = _WORLDS.index(1.0) + 1
        inflation = draws[fitted].mean(axis=0) - truths[fitted]
        excess = observed - inflation
    else:
        seen = np.unique(codes)
        what = (f"y has a single class ({plain(classes[seen[0]])!r})" if seen.size == 1 else
                f"y holds no row of class {[plain(c) for c in np.delete(classes, seen)]} "
                f"(it holds {[plain(c) for c in classes[seen]]} of classes "
                f"{[plain(c) for c in classes]})")
        warn_degenerate(f"calibration_test: {what}, among rows of positive weight: the noise "
                        "floor and the p-value are defined, the population MCB's estimate and "
                        "interval are NaN (they need every class in y).")
        inflation = excess = np.full(len(classes_used), np.nan)
        truths = draws = None

    def per_class(v):
        return np.repeat(v, 2) if binary else np.asarray(v, dtype=float)

    recal = recalibration_fields(fits, codes, proba, w, classes_used, units,
                                 None if units.independent_rows else units.codes[keep])

    return CalibrationTestResult(
        statistic=float(exact.mean()), noise_floor=float(floor.mean()),
        excess=float(np.mean(excess)), pvalue=float(p_avg),
        inflation=float(np.mean(inflation)), n_boot=n_boot, classes=classes,
        statistic_per_class=per_class(exact), noise_floor_per_class=per_class(floor),
        excess_per_class=per_class(excess), pvalue_per_class=per_class(pvals),
        **recal, _world_truth=truths, _world_draws=draws, _observed=observed,
    )
