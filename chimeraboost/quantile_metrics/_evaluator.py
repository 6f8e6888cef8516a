"""Every number of a quantile forecast, defined once for any number of weight vectors.

Re-exported by :mod:`chimeraboost.quantile_metrics`. :func:`quantile_evaluator` validates the
data once and returns a :class:`QuantileEvaluator`, whose ``evaluate(counts)`` gives the
pinball losses, the reference and the skill, the central intervals and the crossing rate for B
weight vectors; the public functions of the package and the bootstrap in
:mod:`chimeraboost.resampling` read their numbers from it.

Also here, because the evaluator needs it: what does the no-skill forecast predict?
:func:`empirical_quantiles`, the constant forecast that
:func:`~chimeraboost.quantile_metrics.crps_skill` judges the model against.

References
----------
.. [HF96] Hyndman, R. J. and Fan, Y. (1996). Sample quantiles in statistical packages.
   *The American Statistician* 50(4), 361-365. doi:10.1080/00031305.1996.10473566
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from .._shared.weights import fraction, replicate_weights, weighted_quantiles
from .._shared.quantile_checks import check_quantile_levels, check_quantile_pred
from .._shared.validation import (
    check_aligned,
    check_numeric_1d,
    check_same_length,
    check_sample_weight,
    unit_scale,
    warn_degenerate,
)


# Two levels tau and 1 - tau form a symmetric pair if they agree to this tolerance: 1 - 0.9 is
# 0.09999999999999998 in floating point, and nobody means a 0.1/0.9 grid to be asymmetric.
_PAIR_TOL = 1e-9


def _check_inputs(y, pred, quantiles, sample_weight):
    """Validate the common (y, pred, quantiles, sample_weight) quadruple once, first."""
    check_aligned(y=y, pred=pred, sample_weight=sample_weight)
    levels = check_quantile_levels(quantiles)
    y_arr = check_numeric_1d(y, "y")
    pred_arr = check_quantile_pred(pred, levels.shape[0], levels=levels)
    n = check_same_length(y=y_arr, pred=pred_arr)
    # Pinball losses are linear in the weights; a unit scale keeps their sums in range.
    w = unit_scale(check_sample_weight(sample_weight, n))[0]
    return y_arr, pred_arr, levels, w


def _rho(diff, levels):
    """The pinball (check) function rho_tau(u), u = y - q, elementwise (broadcasting)."""
    # rho_tau(u) = tau * u for u >= 0 and (tau - 1) * u for u < 0: under-prediction of a high
    # quantile costs tau per unit, over-prediction costs 1 - tau.
    return np.where(diff >= 0, levels * diff, (levels - 1.0) * diff)


def _pinball_matrix(y, pred, levels):
    """Per-row, per-level pinball loss rho_tau(y - q) as an (n, K) matrix."""
    return _rho(y[:, None] - pred, levels)


@public(legacy=("sample_weight", "name"))
def empirical_quantiles(values, quantiles, *, sample_weight=None, name="values"):
    """Weighted empirical quantiles by the "averaged inverted CDF" rule.

    Parameters
    ----------
    values : array-like of shape (m,)
        Sample whose quantiles are wanted.
    quantiles : float or array-like of shape (K,)
        Levels, strictly increasing, inside (0, 1).
    sample_weight : array-like of shape (m,), default=None
        Non-negative weights of ``values``.
    name : str, default="baseline"
        Name of ``values`` used in error messages.

    Returns
    -------
    ndarray of shape (K,)

    Notes
    -----
    Sort the values with positive weight, ``x_(1) <= ... <= x_(m)`` with weights ``w_(i)``,
    cumulative weights ``W_i`` and total ``W``. For level tau let ``i`` be the first index with
    ``W_i >= tau * W``. If ``W_i`` equals ``tau * W`` (to machine epsilon) the quantile is the
    mean ``(x_(i) + x_(i+1)) / 2``, otherwise it is ``x_(i)``. With unit weights this is numpy's
    ``method="averaged_inverted_cdf"`` (definition 2 of [HF96]_); the 0.5 level is the usual
    median. It is the rule scikit-learn uses for the reference quantile of
    ``d2_pinball_score``, so ``crps_skill`` with one level reproduces that score.

    Examples
    --------
    >>> from chimeraboost.quantile_metrics import empirical_quantiles
    >>> empirical_quantiles([4.0, 1.0, 3.0, 2.0], [0.25, 0.5, 0.6])
    array([1.5, 2.5, 3. ])
    """
    levels = check_quantile_levels(quantiles)
    x = check_numeric_1d(values, name)
    w = check_sample_weight(sample_weight, x.shape[0],
                            name="sample_weight" if name == "values" else f"{name} sample_weight")
    # A unit scale: the rule's "reaches tau * W exactly" is tested to machine epsilon, which
    # must not depend on whether the weights are counts or 1e-17.
    w = np.ones_like(x) if w is None else unit_scale(w)[0]
    order = np.argsort(x, kind="stable")
    return weighted_quantiles(x[order], w[None, order], levels)[0]


def _symmetric_pairs(levels):
    """Index pairs (i, j) with levels[i] < 0.5 and levels[j] == 1 - levels[i]."""
    pairs = []
    for i, tau in enumerate(levels):
        if tau >= 0.5:
            break
        match = np.flatnonzero(np.abs(levels - (1.0 - tau)) <= _PAIR_TOL)
        if match.size:
            pairs.append((i, int(match[0])))
    return pairs


def _crossed(pred: np.ndarray) -> np.ndarray:
    """1.0 for rows whose quantiles decrease somewhere across the levels (ties do not)."""
    return np.any(np.diff(pred, axis=1) < 0, axis=1).astype(np.float64)


class QuantileEvaluator:
    """Validated quantile data; ``evaluate(counts)`` gives every number for B weight vectors.

    Built by :func:`quantile_evaluator`. Everything that does not depend on the row weights
    (per-row pinball losses, coverage indicators, widths, interval scores, crossings, the sort
    of ``y``) is computed once; a weight vector then costs a matrix product, plus, when the
    reference comes from the scored ``y`` itself, its weighted quantiles and their losses.
    The bootstrap in :mod:`chimeraboost.resampling` passes resampling counts here, so its
    replicates use exactly the definitions of :func:`quantile_report`.
    """

    def __init__(self, y, pred, levels, sample_weight, baseline_quantiles):
        self.y, self.levels, self.sample_weight = y, levels, sample_weight
        self.n = y.shape[0]
        self._pinball = _pinball_matrix(y, pred, levels)
        self.pairs = _symmetric_pairs(levels)
        lo = pred[:, [i for i, _ in self.pairs]]
        hi = pred[:, [j for _, j in self.pairs]]
        alpha = 2.0 * levels[[i for i, _ in self.pairs]]
        self._inside = ((lo <= y[:, None]) & (y[:, None] <= hi)).astype(np.float64)
        self._width = hi - lo
        self._interval_score = (
            (hi - lo)
            + 2.0 / alpha * np.maximum(lo - y[:, None], 0.0)
            + 2.0 / alpha * np.maximum(y[:, None] - hi, 0.0)
        )
        self._crossed = _crossed(pred)
        median = np.flatnonzero(np.abs(levels - 0.5) <= _PAIR_TOL)
        self.median = int(median[0]) if median.size else None
        # The median's MAE is the number most readers already know how to judge.
        self._abs_median = None if self.median is None else np.abs(y - pred[:, self.median])
        self._baseline_q = baseline_quantiles
        if baseline_quantiles is not None:
            self._ref_pinball = _pinball_matrix(y, np.broadcast_to(baseline_quantiles, pred.shape),
                                                levels)
        self._order = np.argsort(y, kind="stable")

    @public(legacy=("warn",))
    def evaluate(self, counts=None, *, warn: bool = True) -> dict:
        """Dict of arrays with a leading axis of B: ``pinball`` (B, K), ``crps``, ``crps_ref``,
        ``crps_skill``, ``reference_quantiles`` (B, K), ``coverage``, ``mean_width``,
        ``interval_score`` (B, pairs), ``crossing_rate`` and ``mae_median`` (B,)."""
        W = replicate_weights(self.sample_weight, counts, self.n)
        ws = W.sum(axis=1)
        out = {"pinball": W @ self._pinball / ws[:, None]}
        if self._baseline_q is None:
            ref_q = weighted_quantiles(self.y[self._order], W[:, self._order], self.levels)
            ref = np.empty_like(ref_q)
            for k, tau in enumerate(self.levels):
                ref[:, k] = np.sum(W * _rho(self.y[None, :] - ref_q[:, k : k + 1], tau), axis=1)
            ref /= ws[:, None]
        else:
            ref_q = np.broadcast_to(self._baseline_q, out["pinball"].shape)
            ref = W @ self._ref_pinball / ws[:, None]
        out["reference_quantiles"] = ref_q
        out["crps"] = out["pinball"].mean(axis=1)
        out["crps_ref"] = ref.mean(axis=1)
        flat = out["crps_ref"] <= 0
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            out["crps_skill"] = np.where(flat, np.nan, 1.0 - out["crps"] / out["crps_ref"])
        if warn and flat[0]:
            warn_degenerate(
                "The reference CRPS is 0 (the baseline quantiles fit y exactly, e.g. constant "
                "y or a single row); the skill score is undefined and returned as NaN."
            )
        out["coverage"] = fraction(W @ self._inside, ws[:, None])
        out["mean_width"] = W @ self._width / ws[:, None]
        out["interval_score"] = W @ self._interval_score / ws[:, None]
        out["crossing_rate"] = fraction(W @ self._crossed, ws)
        out["mae_median"] = (
            np.full(W.shape[0], np.nan) if self.median is None else W @ self._abs_median / ws
        )
        return out


@public(legacy=("sample_weight", "baseline"))
def quantile_evaluator(y, pred, quantiles, *, sample_weight=None,
                       baseline=None) -> QuantileEvaluator:
    """Validate once; return a :class:`QuantileEvaluator` that scores any weight vectors.

    What :func:`quantile_report` and the bootstrap use: ``evaluate(counts)`` gives every
    number for B weight vectors (bootstrap resampling counts) with one definition.

    Parameters
    ----------
    y : array-like of shape (n,)
        Observed targets.
    pred : array-like of shape (n, K)
        Predicted quantiles, one column per level.
    quantiles : array-like of shape (K,)
        Quantile levels, strictly increasing, inside (0, 1).
    sample_weight : array-like of shape (n,), default=None
        Non-negative row weights.
    baseline : array-like of shape (m,), default=None
        Where the no-skill forecast comes from, as in :func:`crps_skill`.

    Returns
    -------
    QuantileEvaluator
        ``evaluate(counts=None, warn=True)`` returns a dict of arrays with a leading axis of
        B, one entry per weight vector (``pinball``, ``crps``, ``crps_ref``, ``crps_skill``,
        coverage and widths of the central intervals, ``crossing_rate``, ``mae_median``).

    Examples
    --------
    A median forecast off by 0, 0.5, 0.5 and 0.5: pinball losses ``0.5 x |y - q|`` are 0,
    0.25, 0.25, 0.25, mean 0.1875. A resample that drew the first and the last row twice
    each scores ``(2 x 0 + 2 x 0.25) / 4 = 0.125``.

    >>> ev = quantile_evaluator([1.0, 2.0, 3.0, 4.0], [[1.0], [2.5], [2.5], [4.5]], [0.5])
    >>> ev.evaluate(counts=[[1, 1, 1, 1], [2, 0, 0, 2]])["crps"].round(4).tolist()
    [0.1875, 0.125]
    """
    y_arr, pred_arr, levels, w = _check_inputs(y, pred, quantiles, sample_weight)
    # The baseline is another sample (e.g. y_train); sample_weight belongs to the scored rows,
    # so the baseline's quantiles are unweighted. Without one, the reference quantiles are
    # those of the scored y, recomputed for every weight vector.
    base_q = None if baseline is None else empirical_quantiles(baseline, levels,
                                                                 name="baseline")
    return QuantileEvaluator(y_arr, pred_arr, levels, w, base_q)
