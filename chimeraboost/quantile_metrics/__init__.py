"""Scores for quantile forecasts: is a predicted distribution any good, compared with what?

A quantile model predicts, for each row, the values below which the target should fall with
probabilities ``quantiles`` (tau_1 < ... < tau_K). The questions worth asking, and the function
that answers each:

========================================================  =====================================
Question                                                  Function
========================================================  =====================================
How far off is each predicted quantile (proper score)?    :func:`pinball_loss` (``average=False``)
How good is the whole predicted distribution?             :func:`crps` (mean pinball loss)
Is that better than not modelling at all?                 :func:`crps_skill` (vs. the constant
                                                          forecast of empirical quantiles)
Do the central intervals cover what they promise?         :func:`interval_coverage` (nominal,
                                                          coverage, width, interval score)
Are the predicted quantiles even in the right order?      :func:`crossing_rate`
All of the above, on one page                             :func:`quantile_report`,
                                                          :func:`format_report`
========================================================  =====================================

Only the pinball loss and its averages are *proper* scores: they are minimised in expectation
by the true quantiles, so they can rank models. Coverage and crossing rate are diagnostics that
say *why* a score is bad, never whether a model is better. The skill score states the reference
the loss is judged against, as everywhere in chimeraboost.

All functions take ``y`` of shape (n,), ``pred`` of shape (n, K) with one column per level, the
levels ``quantiles`` (K,) strictly increasing inside (0, 1), and optional non-negative
``sample_weight`` (n,). Rows of weight zero are ignored exactly as if they had been dropped.

References
----------
.. [KB78] Koenker, R. and Bassett, G. (1978). Regression quantiles. *Econometrica* 46(1),
   33-50. doi:10.2307/1913643
.. [GR07] Gneiting, T. and Raftery, A. E. (2007). Strictly proper scoring rules, prediction,
   and estimation. *Journal of the American Statistical Association* 102(477), 359-378.
   doi:10.1198/016214506000001437
.. [CFG10] Chernozhukov, V., Fernandez-Val, I. and Galichon, A. (2010). Quantile and
   probability curves without crossing. *Econometrica* 78(3), 1093-1125.
   doi:10.3982/ECTA7880
.. [HF96] Hyndman, R. J. and Fan, Y. (1996). Sample quantiles in statistical packages.
   *The American Statistician* 50(4), 361-365. doi:10.1080/00031305.1996.10473566
"""

from __future__ import annotations

import numpy as np

from .._shared.format import Col, fmt, table
from .._shared.kernels import fraction, replicate_weights, weighted_quantiles
from .._shared.quantile_checks import check_quantile_levels, check_quantile_pred
from .._shared.validation import (
    check_aligned,
    check_numeric_1d,
    check_same_length,
    check_sample_weight,
    unit_scale,
    warn_degenerate,
)

__all__ = [
    "pinball_loss",
    "crps",
    "crps_skill",
    "interval_coverage",
    "crossing_rate",
    "empirical_quantiles",
    "quantile_report",
    "quantile_evaluator",
    "QuantileEvaluator",
    "format_report",
]

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


def pinball_loss(y, pred, quantiles, sample_weight=None, average=True):
    """Pinball (quantile) loss of quantile predictions, per level or averaged over the levels.

    Parameters
    ----------
    y : array-like of shape (n,)
        Observed targets.
    pred : array-like of shape (n, K), or (n,) when there is a single level
        Predicted quantiles, column ``j`` at level ``quantiles[j]``.
    quantiles : float or array-like of shape (K,)
        Quantile levels, strictly increasing, inside (0, 1).
    sample_weight : array-like of shape (n,), default=None
        Non-negative row weights.
    average : bool, default=True
        Return the unweighted mean over the K levels (a float) instead of the (K,) array.

    Returns
    -------
    float or ndarray of shape (K,)
        The weighted mean over rows of ``rho_tau(y - q)``; lower is better, 0 is perfect.

    Notes
    -----
    The pinball loss of a prediction ``q`` of the tau-quantile is [KB78]_

    .. math:: \\rho_\\tau(y - q) = \\max(\\tau (y - q), (\\tau - 1)(y - q)),

    a strictly consistent scoring function for the tau-quantile: its expectation is minimised
    by the true tau-quantile of ``y``. Per level this equals
    ``sklearn.metrics.mean_pinball_loss(y, pred[:, j], alpha=quantiles[j], sample_weight=w)``.
    For tau = 0.5 it is half the absolute error.

    Examples
    --------
    >>> from chimeraboost.quantile_metrics import pinball_loss
    >>> y, pred = [1.0, 2.0], [[0.0, 2.0], [2.0, 3.0]]
    >>> pinball_loss(y, pred, [0.1, 0.9], average=False)  # (0.1*1 + 0)/2, (0.1*1 + 0.1*1)/2
    array([0.05, 0.1 ])
    >>> round(pinball_loss(y, pred, [0.1, 0.9]), 12)
    0.075
    """
    if not isinstance(average, (bool, np.bool_)):
        msg = (f"average must be True (mean over the levels) or False (one loss per level), "
               f"got {average!r}.")
        raise TypeError(msg)
    ev = quantile_evaluator(y, pred, quantiles, sample_weight)
    per_level = ev.evaluate(warn=False)["pinball"][0]
    if average:
        return float(np.mean(per_level))
    return per_level


def crps(y, pred, quantiles, sample_weight=None):
    """Mean pinball loss over the quantile grid: a quantile approximation of (half) the CRPS.

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

    Returns
    -------
    float
        ``mean_k pinball_loss at level tau_k``; lower is better.

    Notes
    -----
    **Factor 2.** The textbook continuous ranked probability score of a predictive CDF ``F``
    with quantile function ``F^{-1}`` is ([GR07]_, eq. 21 and section 4.2)

    .. math:: \\mathrm{CRPS}(F, y) = \\int (F(x) - 1\\{y \\le x\\})^2 dx
              = 2 \\int_0^1 \\rho_\\tau(y - F^{-1}(\\tau))\\, d\\tau .

    This function returns the *mean* pinball loss over the given levels, which approximates the
    integral without the factor 2. On an evenly spaced fine grid, for example
    ``tau_k = (k - 1/2) / K``, ``2 * crps(...)`` converges to the textbook CRPS. The factor is
    left out so that the number is on the same scale as the per-level pinball losses it
    averages (and as sklearn's ``mean_pinball_loss``); it cancels in :func:`crps_skill`.
    On a coarse or uneven grid the number is the mean pinball loss over *that* grid, a proper
    score for those quantiles, not an approximation of the CRPS.

    Examples
    --------
    >>> from chimeraboost.quantile_metrics import crps
    >>> round(crps([1.0, 2.0], [[0.0, 2.0], [2.0, 3.0]], [0.1, 0.9]), 12)
    0.075
    """
    return pinball_loss(y, pred, quantiles, sample_weight=sample_weight, average=True)


def empirical_quantiles(values, quantiles, sample_weight=None, name="values"):
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


def crps_skill(y, pred, quantiles, sample_weight=None, baseline=None):
    """Skill of the quantile forecast against the constant forecast of empirical quantiles.

    Parameters
    ----------
    y : array-like of shape (n,)
        Observed targets.
    pred : array-like of shape (n, K)
        Predicted quantiles, one column per level.
    quantiles : array-like of shape (K,)
        Quantile levels, strictly increasing, inside (0, 1).
    sample_weight : array-like of shape (n,), default=None
        Non-negative row weights (used for the losses and, when ``baseline`` is None, for the
        reference quantiles of ``y``).
    baseline : array-like of shape (m,), default=None
        Where the no-skill forecast comes from. None takes the (weighted) empirical quantiles of
        the scored ``y`` itself -- the conservative reading, since that reference has seen the
        test targets. Pass training targets (``y_train``) to judge against what a model without
        features could have known; their quantiles are unweighted.

    Returns
    -------
    float
        ``1 - crps(model) / crps(reference)``: 1 is perfect, 0 is no better than the constant
        quantiles, negative is worse. NaN (with a ``DegenerateMetricWarning``) when the
        reference loss is 0.

    Notes
    -----
    The reference predicts, for every row, the empirical quantiles of the baseline at the same
    levels (see :func:`empirical_quantiles` for the definition). With one level ``tau`` and
    ``baseline=None`` this is ``1 - pinball(model) / pinball(empirical tau-quantile of y)`` and
    equals ``sklearn.metrics.d2_pinball_score(y, pred, alpha=tau, sample_weight=w)`` (Koenker &
    Machado 1999, eq. 7), except that a zero reference loss gives NaN here instead of 0 or 1.
    The factor 2 between :func:`crps` and the textbook CRPS cancels in the ratio.

    Examples
    --------
    >>> from chimeraboost.quantile_metrics import crps_skill
    >>> round(crps_skill([1.0, 2.0, 3.0, 4.0], [[0.5, 1.5], [1.5, 2.5], [2.5, 3.5],
    ...                  [3.5, 4.5]], [0.25, 0.75]), 6)
    0.666667
    """
    ev = quantile_evaluator(y, pred, quantiles, sample_weight, baseline)
    return float(ev.evaluate()["crps_skill"][0])


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


def interval_coverage(y, pred, quantiles, sample_weight=None):
    """Coverage, width and interval score of every central interval in the quantile grid.

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

    Returns
    -------
    list of dict
        One dict per symmetric pair ``(tau, 1 - tau)`` with ``tau < 0.5`` found in the grid,
        widest interval first, with keys

        - ``"lower_level"``, ``"upper_level"``: the two levels (tau, 1 - tau);
        - ``"nominal"``: the promised coverage ``1 - 2 tau``;
        - ``"coverage"``: weighted fraction of rows with ``lower <= y <= upper``, in [0, 1];
        - ``"mean_width"``: weighted mean of ``upper - lower`` (negative where the two
          predicted quantiles cross; see :func:`crossing_rate`);
        - ``"interval_score"``: weighted mean interval score (lower is better).

        Empty when the grid holds no symmetric pair.

    Notes
    -----
    Coverage alone is not a score: an interval from minus to plus infinity covers everything.
    Coverage should be read next to the width, and models compared by the interval score of
    [GR07]_ (eq. 43) for the central ``(1 - alpha)`` interval ``[l, u]``, ``alpha = 2 tau``,

    .. math:: S_\\alpha(l, u; y) = (u - l) + \\frac{2}{\\alpha}(l - y)_+
              + \\frac{2}{\\alpha}(y - u)_+
              = \\frac{2}{\\alpha}\\,(\\rho_{\\alpha/2}(y - l) + \\rho_{1-\\alpha/2}(y - u)),

    which rewards narrow intervals and charges each miss in proportion to its distance.

    Examples
    --------
    >>> from chimeraboost.quantile_metrics import interval_coverage
    >>> rows = interval_coverage([1.0, 2.0, 5.0], [[0.0, 1.0, 3.0]] * 3, [0.1, 0.5, 0.9])
    >>> [(r["nominal"], round(r["coverage"], 4), r["mean_width"]) for r in rows]
    [(0.8, 0.6667, 3.0)]
    """
    ev = quantile_evaluator(y, pred, quantiles, sample_weight)
    return _intervals(ev, ev.evaluate(warn=False))


def crossing_rate(pred, sample_weight=None):
    """Fraction of rows whose predicted quantiles are not non-decreasing across the levels.

    Parameters
    ----------
    pred : array-like of shape (n, K)
        Predicted quantiles, columns in increasing order of level.
    sample_weight : array-like of shape (n,), default=None
        Non-negative row weights; the fraction is then a weighted fraction.

    Returns
    -------
    float
        In [0, 1]; 0 when every row satisfies ``q_1 <= q_2 <= ... <= q_K`` (ties are not
        crossings). A single column never crosses.

    Notes
    -----
    Crossed quantiles are not a distribution. Sorting each row ("rearrangement", [CFG10]_)
    repairs them and never increases the mean pinball loss over the grid, so a crossing rate
    above zero is a free improvement left on the table.

    Examples
    --------
    >>> from chimeraboost.quantile_metrics import crossing_rate
    >>> crossing_rate([[1.0, 2.0, 3.0], [1.0, 1.0, 3.0], [2.0, 1.0, 3.0], [0.0, 4.0, 3.0]])
    0.5
    """
    pred_arr = check_quantile_pred(pred, None)
    w = check_sample_weight(sample_weight, pred_arr.shape[0])
    W = replicate_weights(w, None, pred_arr.shape[0])
    return float(fraction(W @ _crossed(pred_arr), W.sum(axis=1))[0])


def _crossed(pred: np.ndarray) -> np.ndarray:
    """1.0 for rows whose quantiles decrease somewhere across the levels (ties do not)."""
    return np.any(np.diff(pred, axis=1) < 0, axis=1).astype(np.float64)


def quantile_report(y, pred, quantiles, sample_weight=None, baseline=None) -> dict:
    """Every number about a quantile forecast, with the reference it is judged against.

    Parameters
    ----------
    y, pred, quantiles, sample_weight, baseline
        As in :func:`crps_skill`.

    Returns
    -------
    dict
        With keys

        - ``"n"`` (int): number of rows scored (zero-weight rows included);
        - ``"quantiles"`` (list of float): the levels;
        - ``"pinball"`` (list of float): pinball loss per level, aligned with ``quantiles``;
        - ``"crps"`` (float): mean pinball loss over the levels (:func:`crps`; half the
          textbook CRPS on a fine even grid);
        - ``"baseline"`` (str): ``"y"`` (quantiles of the scored targets) or ``"given"``;
        - ``"reference_quantiles"`` (list of float): the constant no-skill forecast;
        - ``"crps_ref"`` (float): mean pinball loss of that constant forecast;
        - ``"crps_skill"`` (float): ``1 - crps / crps_ref`` (:func:`crps_skill`);
        - ``"intervals"`` (list of dict): :func:`interval_coverage`;
        - ``"crossing_rate"`` (float): :func:`crossing_rate`;
        - ``"mae_median"`` (float or None): weighted mean absolute error of the 0.5-level
          prediction (twice its pinball loss), None when 0.5 is not a level.

    Examples
    --------
    >>> from chimeraboost.quantile_metrics import quantile_report
    >>> rep = quantile_report([1.0, 2.0, 3.0, 4.0], [[0.5, 1.5], [1.5, 2.5], [2.5, 3.5],
    ...                       [3.5, 4.5]], [0.25, 0.75])
    >>> sorted(rep)[:4]
    ['baseline', 'crossing_rate', 'crps', 'crps_ref']
    """
    ev = quantile_evaluator(y, pred, quantiles, sample_weight, baseline)
    out = ev.evaluate()
    point = {key: v[0] for key, v in out.items()}
    return {
        "n": ev.n,
        "quantiles": ev.levels.tolist(),
        "pinball": point["pinball"].tolist(),
        "crps": float(point["crps"]),
        "baseline": "y" if baseline is None else "given",
        "reference_quantiles": point["reference_quantiles"].tolist(),
        "crps_ref": float(point["crps_ref"]),
        "crps_skill": float(point["crps_skill"]),
        "intervals": _intervals(ev, out),
        "crossing_rate": float(point["crossing_rate"]),
        "mae_median": None if ev.median is None else float(point["mae_median"]),
    }


def _intervals(ev, out) -> list[dict]:
    """The first evaluation's central intervals as :func:`interval_coverage` documents them."""
    return [
        {
            "lower_level": float(ev.levels[i]),
            "upper_level": float(ev.levels[j]),
            "nominal": float(1.0 - 2.0 * ev.levels[i]),
            "coverage": float(out["coverage"][0, p]),
            "mean_width": float(out["mean_width"][0, p]),
            "interval_score": float(out["interval_score"][0, p]),
        }
        for p, (i, j) in enumerate(ev.pairs)
    ]


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

    def evaluate(self, counts=None, warn: bool = True) -> dict:
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


def quantile_evaluator(y, pred, quantiles, sample_weight=None, baseline=None) -> QuantileEvaluator:
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
    base_q = None if baseline is None else empirical_quantiles(baseline, levels, None,
                                                                 name="baseline")
    return QuantileEvaluator(y_arr, pred_arr, levels, w, base_q)


def format_report(report, title=None) -> str:
    """Text tables of a :func:`quantile_report` dict; losses positive, skill last.

    Parameters
    ----------
    report : dict
        Output of :func:`quantile_report`.
    title : str, default=None
        First line; "Quantile forecast" when None.

    Returns
    -------
    str
        The headline (mean pinball loss, reference, skill), then tables of the pinball loss per
        level, the central intervals and a summary. Numbers as everywhere in chimeraboost:
        four decimals while they fit, significant digits otherwise, ``n/a`` for NaN; columns
        separated by at least two spaces.

    Examples
    --------
    >>> y = [1.0, 2.0, 3.0, 4.0, 10.0]
    >>> pred = [[0.5, 1.0, 2.0], [1.0, 2.0, 3.5], [2.0, 3.0, 4.0], [2.5, 4.0, 6.0], [4.0, 8.0, 9.0]]
    >>> print(format_report(quantile_report(y, pred, [0.1, 0.5, 0.9])))
    Quantile forecast
    mean pinball 0.2300 | reference 0.6667 (quantiles of y) | skill 0.655
    <BLANKLINE>
      level  pinball
      0.1     0.2000
      0.5     0.2000
      0.9     0.2900
    <BLANKLINE>
      interval  nominal  coverage   width  int. score
      0.1-0.9    0.8000    0.8000  2.9000      4.9000
    <BLANKLINE>
      summary                     value
      rows                            5
      crossing rate              0.0000
      MAE of the median          0.4000
      mean pinball (CRPS / 2)    0.2300
      reference: quantiles of y  0.6667
      CRPS skill                 0.6550
    """
    needed = ("baseline", "crps", "crps_ref", "crps_skill", "quantiles", "pinball", "n")
    if not hasattr(report, "keys") or any(key not in report for key in needed):
        got = sorted(report) if hasattr(report, "keys") else type(report).__name__
        msg = f"report must be a dict from quantile_report (keys {list(needed)}), got {got}."
        raise TypeError(msg)
    ref_from = "quantiles of y" if report["baseline"] == "y" else "quantiles of baseline"
    # The proper score first, with its reference and skill, as every chimeraboost report; all
    # numbers through the one formatter (fixed decimals, significant digits when they do not
    # fit), NaN as "n/a".
    headline = (
        f"mean pinball {fmt(report['crps'])} | reference {fmt(report['crps_ref'])} "
        f"({ref_from}) | skill {fmt(report['crps_skill'], 3)}"
    )
    lines = [title or "Quantile forecast", headline, ""]
    levels = [[f"{tau:g}", loss] for tau, loss in zip(report["quantiles"], report["pinball"])]
    lines += table([Col("level", None), Col("pinball")], levels)
    if report["intervals"]:
        lines += ["", *table(
            [Col("interval", None), Col("nominal"), Col("coverage"), Col("width"),
             Col("int. score")],
            [[f"{r['lower_level']:g}-{r['upper_level']:g}", r["nominal"], r["coverage"],
              r["mean_width"], r["interval_score"]] for r in report["intervals"]],
        )]
    summary = [["rows", int(report["n"])], ["crossing rate", report["crossing_rate"]]]
    if report.get("mae_median") is not None:
        summary.append(["MAE of the median", report["mae_median"]])
    summary += [["mean pinball (CRPS / 2)", report["crps"]],
                ["reference: " + ref_from, report["crps_ref"]],
                ["CRPS skill", report["crps_skill"]]]
    lines += ["", *table([Col("summary", None), Col("value")], summary)]
    return "\n".join(lines)
