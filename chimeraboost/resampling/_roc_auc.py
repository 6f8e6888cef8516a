"""How precisely do these rows pin down a binary score's ROC-AUC, and the difference of two?

- Just the ROC-AUC, fast, on 100,000 rows? :func:`roc_auc_interval` (bootstrap or DeLong).
- Without resampling? :func:`delong_roc_auc` [DDC88]_, computed from midranks [SX14]_.
- Two scores on the same rows? :func:`delong_roc_auc_difference`, DeLong's paired test.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.stats import norm, rankdata

from .. import metrics as _metrics
from .._shared.validation import (
    binary_target,
    check_aligned,
    check_level,
    check_numeric_1d,
    check_same_length,
    warn_degenerate,
)
from ._bootstrap import bootstrap
from ._intervals import DEFAULT_CI_METHOD, ConfidenceInterval, check_ci_method

__all__ = ["DeLongResult", "delong_roc_auc", "delong_roc_auc_difference", "roc_auc_interval"]


class DeLongResult(NamedTuple):
    """ROC-AUC (or a difference of two) with DeLong's standard error and Wald interval."""

    estimate: float
    se: float
    low: float
    high: float
    pvalue: float


def _binary_codes(y, pos_label):
    codes = binary_target(y, pos_label)
    if pos_label is not None and not codes.any():
        msg = f"pos_label={pos_label!r} does not occur in y."
        raise ValueError(msg)
    return codes


def roc_auc_interval(
    y, score, *, pos_label=None, level=0.95, method="bootstrap", n_boot=2000,
    random_state=None, chunk_size=None, ci_method=DEFAULT_CI_METHOD, n_jobs=None,
):
    """ROC-AUC with a confidence interval: bootstrap or DeLong.

    Parameters
    ----------
    y : array-like of shape (n,)
        Binary labels: bool, 0/1 or -1/1 (positive: True / 1), or any labels with
        ``pos_label`` naming the positive one -- the same rule as
        :func:`chimeraboost.metrics.recall_at_k`.
    score : array-like of shape (n,)
        Higher means more likely positive (a probability or a decision function).
    level : float in (0, 1), default=0.95
    method : {"bootstrap", "delong"}
    n_boot, random_state, chunk_size, ci_method, n_jobs
        Bootstrap only; see :func:`bootstrap`. ``ci_method="percentile"`` is the percentile
        interval; the default, ``"expanded_bca"``, the one that covers with few events. The
        interval is the same whatever ``n_jobs``.

    Returns
    -------
    (float, ConfidenceInterval, int)
        The ROC-AUC on the rows as given, its interval, and the number of replicates dropped
        because they held one class (0 for DeLong).

    Notes
    -----
    The bootstrap resamples rows; each replicate's AUC comes from one gather and one
    cumulative sum over the replicate's counts, the rows having been sorted by score once
    (so that every gather reads memory in order). At n = 100,000 this is far faster than
    calling ``roc_auc_score`` per replicate: see ``benchmarks/bench_bootstrap.py``. The
    counts are drawn over the rows in that order, so the replicates are not those that
    :func:`bootstrap` or ``report(ci=...)`` draw with the same ``random_state`` for the rows
    as given: the two intervals are equally valid and differ by Monte Carlo error.
    """
    level = check_level(level, "level")
    ci_method = check_ci_method(ci_method)
    check_aligned(y=y, score=score)
    codes = _binary_codes(y, pos_label)
    s = check_numeric_1d(score, "score")
    check_same_length(y=codes, score=s)
    if method == "delong":
        res = delong_roc_auc(codes, s, pos_label=1, level=level)
        return res.estimate, ConfidenceInterval(res.low, res.high), 0
    if method != "bootstrap":
        msg = f"method must be 'bootstrap' or 'delong', got {method!r}."
        raise ValueError(msg)
    order = np.argsort(s, kind="stable")
    ev = _metrics.classification_evaluator(codes[order], [0, 1], score=s[order])
    res = bootstrap(ev, n_boot=n_boot, random_state=random_state, metrics=["roc_auc"],
                    chunk_size=chunk_size, ci_method=ci_method, n_jobs=n_jobs)
    return res.estimate["roc_auc"], res.interval("roc_auc", level=level), res.n_dropped("roc_auc")


def _delong_components(codes: np.ndarray, scores: np.ndarray):
    """AUCs and the structural components of DeLong for k scores (k, n) on one label vector.

    Sun & Xu's midrank form [SX14]_: with ``m`` positives and ``n0`` negatives, ``T_z`` the
    midranks in the pooled sample and ``T_x``, ``T_y`` those within the positives and within
    the negatives, ``V_x = (T_z - T_x) / n0`` on the positives and ``V_y = 1 - (T_z - T_y) /
    m`` on the negatives, and ``AUC = mean(V_x) = mean(V_y)``.
    """
    pos = codes == 1
    m, n0 = int(pos.sum()), int((~pos).sum())
    if m == 0 or n0 == 0:
        msg = "y holds a single class; the ROC-AUC and its DeLong interval need both classes."
        raise ValueError(msg)
    x, yneg = scores[:, pos], scores[:, ~pos]
    tz = rankdata(np.concatenate([x, yneg], axis=1), axis=1)
    tx, ty = rankdata(x, axis=1), rankdata(yneg, axis=1)
    v_pos = (tz[:, :m] - tx) / n0
    v_neg = 1.0 - (tz[:, m:] - ty) / m
    auc = v_pos.mean(axis=1)
    return auc, v_pos, v_neg


def _delong_cov(v_pos: np.ndarray, v_neg: np.ndarray) -> np.ndarray:
    """DeLong's covariance; NaN (with a warning) when a class has a single row, whose
    structural components have no sample variance -- taking it as 0 would make the standard
    error too small and a p-value from one positive look significant."""
    m, n0 = v_pos.shape[1], v_neg.shape[1]
    if m < 2 or n0 < 2:
        warn_degenerate(f"y holds {m} positive and {n0} negative row(s): DeLong's variance "
                        "needs at least 2 of each, so the standard error, interval and "
                        "p-value are undefined (NaN).")
        return np.full((v_pos.shape[0],) * 2, np.nan)
    return np.atleast_2d(np.cov(v_pos)) / m + np.atleast_2d(np.cov(v_neg)) / n0


def _wald(estimate, var, level, null, bounds) -> DeLongResult:
    if np.isnan(var):
        return DeLongResult(float(estimate), np.nan, np.nan, np.nan, np.nan)
    se = float(np.sqrt(max(var, 0.0)))
    z = norm.ppf(0.5 + level / 2)
    lo, hi = np.clip([estimate - z * se, estimate + z * se], *bounds)
    pvalue = float(2 * norm.sf(abs(estimate - null) / se)) if se > 0 else np.nan
    return DeLongResult(float(estimate), se, float(lo), float(hi), pvalue)


def delong_roc_auc(y, score, *, pos_label=None, level=0.95) -> DeLongResult:
    """ROC-AUC with DeLong's analytic standard error and Wald interval (no resampling).

    Parameters
    ----------
    y : array-like of shape (n,)
        Binary labels: bool, 0/1 or -1/1, or any labels with ``pos_label`` (as in
        :func:`roc_auc_interval`).
    score : array-like of shape (n,)
    level : float in (0, 1), default=0.95

    Returns
    -------
    DeLongResult
        ``estimate`` (equals ``sklearn.metrics.roc_auc_score``), ``se``, ``low``, ``high``
        (``estimate +- z se``, clipped to [0, 1]) and ``pvalue`` of AUC = 0.5.

    Notes
    -----
    DeLong, DeLong & Clarke-Pearson (1988) [DDC88]_: ``Var(AUC) = S_x / m + S_y / n0`` with
    ``S_x``, ``S_y`` the sample variances of the structural components of the positives and
    of the negatives (ties count one half). Computed from midranks in O(n log n) following
    Sun & Xu (2014) [SX14]_. Unweighted: rows count once each.

    Examples
    --------
    >>> res = delong_roc_auc([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(res.estimate, 4)
    0.8889
    """
    level = check_level(level, "level")
    codes = _binary_codes(y, pos_label)
    s = check_numeric_1d(score, "score")
    check_same_length(y=codes, score=s)
    auc, v_pos, v_neg = _delong_components(codes, s[None, :])
    var = _delong_cov(v_pos, v_neg)[0, 0]
    return _wald(auc[0], var, level, 0.5, (0.0, 1.0))


def delong_roc_auc_difference(y, score, baseline_score, *, pos_label=None, level=0.95):
    """Difference of two correlated ROC-AUCs on the same rows, ``AUC(score) -
    AUC(baseline_score)``, with DeLong's standard error.

    Returns
    -------
    DeLongResult
        ``estimate`` (the difference), ``se``, the Wald interval clipped to [-1, 1], and the
        two-sided ``pvalue`` of no difference [DDC88]_.
    """
    level = check_level(level, "level")
    codes = _binary_codes(y, pos_label)
    a = check_numeric_1d(score, "score")
    b = check_numeric_1d(baseline_score, "baseline_score")
    check_same_length(y=codes, score=a, baseline_score=b)
    auc, v_pos, v_neg = _delong_components(codes, np.vstack([a, b]))
    cov = _delong_cov(v_pos, v_neg)
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    return _wald(auc[0] - auc[1], var, level, 0.0, (-1.0, 1.0))
