"""Do the central intervals cover what they promise, and are the quantiles in order?

Re-exported by :mod:`chimeraboost.quantile_metrics`: :func:`interval_coverage` (nominal,
coverage, width and interval score of every central interval in the grid) and
:func:`crossing_rate`. Coverage and crossing rate are diagnostics: they say *why* a score is
bad, never whether a model is better.

References
----------
.. [GR07] Gneiting, T. and Raftery, A. E. (2007). Strictly proper scoring rules, prediction,
   and estimation. *Journal of the American Statistical Association* 102(477), 359-378.
   doi:10.1198/016214506000001437
.. [CFG10] Chernozhukov, V., Fernandez-Val, I. and Galichon, A. (2010). Quantile and
   probability curves without crossing. *Econometrica* 78(3), 1093-1125.
   doi:10.3982/ECTA7880
"""

from __future__ import annotations

from .._shared.api import public
from .._shared.weights import fraction, replicate_weights
from .._shared.quantile_checks import check_quantile_pred
from .._shared.validation import check_sample_weight
from ._evaluator import _crossed, quantile_evaluator


@public(legacy=("sample_weight",))
def interval_coverage(y, pred, quantiles, *, sample_weight=None):
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
    ev = quantile_evaluator(y, pred, quantiles, sample_weight=sample_weight)
    return _intervals(ev, ev.evaluate(warn=False))


@public(legacy=("sample_weight",))
def crossing_rate(pred, *, sample_weight=None):
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
