"""Regression numbers: RMSE and MAE against the constant mean and median forecasts.

Re-exported by ``chimeraboost.metrics``; this module exists to keep ``metrics`` short.
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from ._kernels import replicate_weights, weighted_quantiles
from .._shared.validation import (
    check_aligned,
    check_numeric_1d,
    check_same_length,
    check_sample_weight,
    pow2_below,
    unit_scale,
    warn_degenerate,
)

class RegressionEvaluator:
    """Validated regression data; ``evaluate(counts)`` scores any number of weight vectors."""

    def __init__(self, y, pred, sample_weight, baseline):
        # Everything is computed on the scale of y (divided by a power of two, which is
        # exact) and scaled back: squares of values near 1e154 would overflow and squares
        # near 1e-170 underflow, while r2 and the MAE skill do not depend on the scale. The
        # scale is y's alone, so that the reference losses depend on y only: one wild
        # prediction makes the model's loss infinite, never the reference's zero.
        if sample_weight is not None and not np.all(sample_weight > 0):
            # Rows of zero weight count in no number and in no resample (their weight times
            # any count is 0), but their values would: a y of 1e300 would set the scale and
            # underflow every other square, a prediction of 1e200 give 0 * inf = NaN. They
            # take the values of a row that counts.
            zero = sample_weight <= 0
            some = y[np.argmin(zero)]
            y, pred = np.where(zero, some, y), np.where(zero, some, pred)
        self._scale = pow2_below(float(np.max(np.abs(y))))
        y, pred = y / self._scale, pred / self._scale
        baseline = None if baseline is None else baseline / self._scale
        self.sample_weight = unit_scale(sample_weight)[0]
        self.y, self.pred = y, pred
        self.n = y.shape[0]
        with np.errstate(over="ignore"):  # a square beyond the float range is inf, honestly
            self._sq = (y - pred) ** 2
        self._abs = np.abs(y - pred)
        self._order = np.argsort(y, kind="stable")
        self.baseline = None
        if baseline is not None:
            b = np.sort(baseline)
            median = weighted_quantiles(b, np.ones((1, b.size)), 0.5)[0, 0]
            self.baseline = (float(np.mean(b)), float(median))

    @public(legacy=("warn",))
    def evaluate(self, counts=None, *, warn: bool = True) -> dict:
        """Dict of (B,) arrays: every regression number for each weight vector."""
        with np.errstate(over="ignore", invalid="ignore"):  # inf is the honest overflow
            return self._evaluate(counts, warn)

    def _evaluate(self, counts, warn: bool) -> dict:
        W = replicate_weights(self.sample_weight, counts, self.n)
        ws = W.sum(axis=1)
        y_sorted, w_sorted = self.y[self._order], W[:, self._order]
        # The scored rows' own mean and the MSE of forecasting it: r2's reference, whatever
        # the baseline. The corrected two-pass formula (Chan, Golub & LeVeque 1983,
        # "Algorithms for computing the sample variance", Am. Stat. 37(3)): the rounding error
        # of the mean, which is eps times the offset of y (1e-4 at y = 1e12 + noise), is the
        # mean deviation from it; removing it keeps the MSE exact to rounding of the spread,
        # not of the offset.
        mean_y = W @ self.y / ws
        dev = self.y[None, :] - mean_y[:, None]
        shift = np.sum(W * dev, axis=1) / ws
        own = np.sum(W * dev**2, axis=1) / ws - shift * shift
        mean_y = mean_y + shift
        del dev
        # A constant y: its own MSE is zero, but the rounding of its mean leaves a residue of
        # any size (63 rows of 0.7 give 1e-31, and r2 = -1e30), so constancy is decided
        # exactly: the smallest and largest y of positive weight are equal.
        flat_own = _constant(y_sorted, w_sorted)
        own = np.where(flat_own, 0.0, own)
        out = {"mean_y": mean_y, "baseline_mean": None, "baseline_median": None}
        out["mse"] = W @ self._sq / ws
        out["mae"] = W @ self._abs / ws
        if self.baseline is None:
            centre = mean_y
            # The weighted median, as in sklearn's d2_absolute_error_score.
            median = weighted_quantiles(y_sorted, w_sorted, 0.5)[:, 0]
            out["mse_ref"], flat = own, flat_own
        else:
            centre = np.full(W.shape[0], self.baseline[0])
            median = np.full(W.shape[0], self.baseline[1])
            out["mse_ref"] = np.sum(W * (self.y[None, :] - centre[:, None]) ** 2, axis=1) / ws
            flat = out["mse_ref"] <= 0  # the baseline's mean is every y, exactly
        out["baseline_mean"], out["baseline_median"] = centre, median
        out["mae_ref"] = np.sum(W * np.abs(self.y[None, :] - median[:, None]), axis=1) / ws
        warned = warn and (flat[0] or flat_own[0])
        return finish(out, flat, self._scale, warned, own=(own, flat_own))


def finish(out: dict, flat, scale: float, warn: bool, own=None) -> dict:
    """The rest of a regression report from its losses on y's scale: rmse, the skills and
    every number back in y's units (``scale``, a power of two: exact). Shared by the evaluator
    and the accumulator.

    ``mse_skill = 1 - mse / mse_ref`` and ``mae_skill`` are the skills against the reference
    forecasts (NaN where ``flat``: they forecast every y exactly); ``r2 = 1 - mse / own`` is
    scikit-learn's ``r2_score``, against the scored rows' own mean, whose MSE is ``own[0]``
    (NaN where ``own[1]``: y constant). ``own`` None: the reference is y's own mean, and
    ``r2`` equals ``mse_skill``. ``warn``: say which skills are undefined."""
    out["rmse"], out["rmse_ref"] = np.sqrt(out["mse"]), np.sqrt(out["mse_ref"])
    own_mse, flat_own = (out["mse_ref"], flat) if own is None else own
    with np.errstate(invalid="ignore", divide="ignore"):
        out["r2"] = np.where(flat_own, np.nan, 1.0 - out["mse"] / own_mse)
        out["mse_skill"] = np.where(flat, np.nan, 1.0 - out["mse"] / out["mse_ref"])
        out["mae_skill"] = np.where(
            flat | (out["mae_ref"] <= 0), np.nan, 1.0 - out["mae"] / out["mae_ref"]
        )
    if warn:
        # A baseline's mean that is every y makes y constant too: then nothing is defined.
        warn_degenerate(
            "y is constant: r2 and mae_skill against the constant forecast are undefined (NaN)."
            if np.atleast_1d(flat)[0] else
            "y is constant: r2, against the mean of y, is undefined (NaN); mse_skill and "
            "mae_skill, against the baseline's mean and median, are not.")
    for key in ("mean_y", "baseline_mean", "baseline_median", "mae", "mae_ref", "rmse",
                "rmse_ref"):
        out[key] = out[key] * scale
    out["mse"], out["mse_ref"] = out["mse"] * scale * scale, out["mse_ref"] * scale * scale
    return out


def _constant(y_sorted: np.ndarray, w_sorted: np.ndarray) -> np.ndarray:
    """(B,) bool: whether every row of positive weight holds the same ``y``, per weight
    vector (``y_sorted`` ascending, ``w_sorted`` (B, n) in the same order)."""
    drawn = w_sorted > 0
    first = np.argmax(drawn, axis=1)
    last = drawn.shape[1] - 1 - np.argmax(drawn[:, ::-1], axis=1)
    return y_sorted[first] == y_sorted[last]


@public(legacy=("sample_weight", "baseline"))
def regression_evaluator(y, pred, *, sample_weight=None, baseline=None) -> RegressionEvaluator:
    """Validate once; return an evaluator whose ``evaluate(counts)`` gives numbers.

    What every regression report and the bootstrap use: one definition of each number,
    evaluated for any number of weight vectors (bootstrap resampling counts) at once.

    Parameters
    ----------
    y, pred : array-like of shape (n,)
        Observed targets and predictions.
    sample_weight : array-like of shape (n,), default=None
    baseline : array-like of targets, default=None
        As in :func:`regression_report`: ``None`` judges against the mean and median of the
        scored ``y`` itself, targets (e.g. ``y_train``) against theirs.

    Returns
    -------
    RegressionEvaluator
        ``evaluate(counts=None, warn=True)`` returns a dict of arrays with one entry per
        weight vector, under the keys of :func:`regression_report`.

    Examples
    --------
    The data as given, and a resample that drew the first and the last row twice each.
    The squared errors are (0.25, 0, 0.25, 1): their mean is 0.375, and the resample's
    ``(2 x 0.25 + 2 x 1) / 4 = 0.625``; the mean's squared errors (2.25, 0.25, 0.25, 2.25)
    give ``r2 = 1 - 0.375 / 1.25 = 0.7``.

    >>> import numpy as np
    >>> ev = regression_evaluator([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.5, 5.0])
    >>> out = ev.evaluate(np.array([[1, 1, 1, 1], [2, 0, 0, 2]]))
    >>> out["mse"].tolist(), round(float(out["r2"][0]), 12)
    ([0.375, 0.625], 0.7)
    """
    check_aligned(y=y, pred=pred, sample_weight=sample_weight)
    y = check_numeric_1d(y, "y")
    pred = check_numeric_1d(pred, "pred")
    n = check_same_length(y=y, pred=pred)
    w = check_sample_weight(sample_weight, n)
    if baseline is not None:
        baseline = check_numeric_1d(baseline, "baseline")
    return RegressionEvaluator(y, pred, w, baseline)


@public(legacy=("sample_weight", "baseline"))
def regression_report(y, pred, *, sample_weight=None, baseline=None) -> dict:
    """RMSE and MAE with the losses of the constant forecasts they are judged against.

    Parameters
    ----------
    y, pred : array-like of shape (n,)
    sample_weight : array-like of shape (n,), default=None
    baseline : array-like of targets, default=None
        ``None``: the reference forecasts are the (weighted) mean and median of the scored
        ``y``; then ``mse_skill`` equals ``r2`` and ``mae_skill`` equals
        ``d2_absolute_error_score``, weights included. ``y_train``: the mean and median of
        those targets (unweighted), the forecast a model could have made without features.

    Returns
    -------
    dict
        ``n``, ``mean_y``, ``mse``, ``rmse``, ``mae``, ``baseline_mean``,
        ``baseline_median``, ``mse_ref``, ``rmse_ref``, ``mae_ref`` (losses of the constant
        mean / median forecasts), ``mse_skill = 1 - mse / mse_ref`` and ``mae_skill = 1 -
        mae / mae_ref`` (the skills against them), and ``r2``: always
        ``sklearn.metrics.r2_score``, the skill against the scored ``y``'s own mean (so with
        a ``baseline`` it differs from ``mse_skill``, and is never the skill against the
        baseline). A constant ``y`` gives NaN skills and a warning.

    Examples
    --------
    >>> r = regression_report([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 5.0])
    >>> r["r2"], r["mse_skill"], r["mae_skill"]
    (0.8, 0.8, 0.75)

    Against a training mean of 3.5 the reference MSE is ``(6.25 + 2.25 + 0.25 + 0.25) / 4 =
    2.25``, and the MSE of 0.25 gives ``mse_skill = 1 - 0.25 / 2.25 = 0.889``; ``r2`` stays
    the scored rows' own 0.8:

    >>> r = regression_report([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 5.0], baseline=[3.0, 4.0])
    >>> round(r["mse_skill"], 3), r["r2"]
    (0.889, 0.8)
    """
    ev = regression_evaluator(y, pred, sample_weight=sample_weight, baseline=baseline)
    out = {"n": ev.n}
    out.update({key: float(v[0]) for key, v in ev.evaluate().items()})
    out["reference"] = "mean of y" if baseline is None else "mean of baseline"
    return out
