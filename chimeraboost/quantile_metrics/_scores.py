"""How good is a predicted distribution, and is it better than not modelling at all?

Re-exported by :mod:`chimeraboost.quantile_metrics`. The proper scores of a quantile forecast:

- How far off is each predicted quantile? :func:`pinball_loss` (``average=False``).
- How good is the whole predicted distribution? :func:`crps` (mean pinball loss).
- Is that better than not modelling at all? :func:`crps_skill` (vs. the constant forecast of
  :func:`~chimeraboost.quantile_metrics.empirical_quantiles`).

They are minimised in expectation by the true quantiles, so they can rank models. The numbers
come from :func:`~chimeraboost.quantile_metrics.quantile_evaluator`.

References
----------
.. [KB78] Koenker, R. and Bassett, G. (1978). Regression quantiles. *Econometrica* 46(1),
   33-50. doi:10.2307/1913643
.. [GR07] Gneiting, T. and Raftery, A. E. (2007). Strictly proper scoring rules, prediction,
   and estimation. *Journal of the American Statistical Association* 102(477), 359-378.
   doi:10.1198/016214506000001437
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from ._evaluator import quantile_evaluator


@public(legacy=("sample_weight", "average"))
def pinball_loss(y, pred, quantiles, *, sample_weight=None, average=True):
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
    ev = quantile_evaluator(y, pred, quantiles, sample_weight=sample_weight)
    per_level = ev.evaluate(warn=False)["pinball"][0]
    if average:
        return float(np.mean(per_level))
    return per_level


@public(legacy=("sample_weight",))
def crps(y, pred, quantiles, *, sample_weight=None):
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


@public(legacy=("sample_weight", "baseline"))
def crps_skill(y, pred, quantiles, *, sample_weight=None, baseline=None):
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
    ev = quantile_evaluator(y, pred, quantiles, sample_weight=sample_weight, baseline=baseline)
    return float(ev.evaluate()["crps_skill"][0])
