"""How precisely do these rows pin down a binary score's ROC-AUC, and the difference of two?

- Just the ROC-AUC, fast, on 100,000 rows? :func:`roc_auc_interval` (bootstrap or DeLong).
- Without resampling? :func:`delong_roc_auc` [DDC88]_, computed from midranks [SX14]_.
- Two scores on the same rows? :func:`delong_roc_auc_difference`, DeLong's paired test.
- Several rows per patient or customer? ``groups=`` on each: the bootstrap resamples whole
  groups, and DeLong's variance becomes Obuchowski's clustered form [O97]_.

References
----------
.. [O97] Obuchowski, N. A. (1997). Nonparametric analysis of clustered ROC curve data.
   *Biometrics* 53(2), 567-578. doi:10.2307/2533958
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.stats import norm, rankdata

from .. import metrics as _metrics
from .._shared.ties import negligible
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
    groups=None, time=None,
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
    groups : array-like of shape (n,), default=None
        The unit of each row (a patient with several lesions, a customer with several
        rows): the bootstrap resamples whole groups, DeLong's variance is Obuchowski's
        clustered form [O97]_.
    time : array-like of shape (n,), default=None
        Bootstrap only: resample blocks of time-ordered rows (see :func:`bootstrap`).

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
        if time is not None:
            msg = ("time= needs method='bootstrap': DeLong's variance has no form for "
                   "serially dependent rows.")
            raise ValueError(msg)
        res = delong_roc_auc(codes, s, pos_label=1, level=level, groups=groups)
        return res.estimate, ConfidenceInterval(res.low, res.high), 0
    if method != "bootstrap":
        msg = f"method must be 'bootstrap' or 'delong', got {method!r}."
        raise ValueError(msg)
    order = np.argsort(s, kind="stable")
    ev = _metrics.classification_evaluator(codes[order], [0, 1], score=s[order])
    groups, time = (None if v is None else np.asarray(v)[order] for v in (groups, time))
    res = bootstrap(ev, n_boot=n_boot, random_state=random_state, metrics=["roc_auc"],
                    chunk_size=chunk_size, ci_method=ci_method, n_jobs=n_jobs,
                    groups=groups, time=time)
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


def _delong_cov(v_pos: np.ndarray, v_neg: np.ndarray, clusters=None) -> np.ndarray:
    """DeLong's covariance; NaN (with a warning) when a class has a single row, whose
    structural components have no sample variance -- taking it as 0 would make the standard
    error too small and a p-value from one positive look significant. With ``clusters``
    (the cluster codes of the positives and of the negatives), Obuchowski's clustered
    covariance [O97]_."""
    m, n0 = v_pos.shape[1], v_neg.shape[1]
    if m < 2 or n0 < 2:
        warn_degenerate(f"y holds {m} positive and {n0} negative row(s): DeLong's variance "
                        "needs at least 2 of each, so the standard error, interval and "
                        "p-value are undefined (NaN).")
        return np.full((v_pos.shape[0],) * 2, np.nan)
    if clusters is not None:
        return _obuchowski_cov(v_pos, v_neg, *clusters)
    return np.atleast_2d(np.cov(v_pos)) / m + np.atleast_2d(np.cov(v_neg)) / n0


def _obuchowski_cov(v_pos, v_neg, c_pos, c_neg) -> np.ndarray:
    """Obuchowski's (1997) covariance of k AUCs on clustered rows [O97]_: with ``I`` clusters
    holding ``m_i`` positives and ``n_i`` negatives, ``A_i`` the sum of cluster ``i``'s
    positives' components minus ``m_i AUC`` and ``B_i`` the same for its negatives,
    ``S10 = I / ((I - 1) M) sum A_i A_i'``, ``S01 = I / ((I - 1) N) sum B_i B_i'``,
    ``S11 = I / (I - 1) sum A_i B_i'`` and ``Cov = S10 / M + S01 / N + (S11 + S11') /
    (M N)``."""
    m, n0 = v_pos.shape[1], v_neg.shape[1]
    n_clusters = int(max(c_pos.max(initial=-1), c_neg.max(initial=-1))) + 1
    auc = v_pos.mean(axis=1)
    used = (np.bincount(c_pos, minlength=n_clusters) + np.bincount(c_neg, minlength=n_clusters)) > 0
    k = v_pos.shape[0]
    a = np.zeros((k, n_clusters))
    b = np.zeros((k, n_clusters))
    for j in range(k):
        a[j] = np.bincount(c_pos, weights=v_pos[j], minlength=n_clusters)
        b[j] = np.bincount(c_neg, weights=v_neg[j], minlength=n_clusters)
    a -= np.bincount(c_pos, minlength=n_clusters)[None, :] * auc[:, None]
    b -= np.bincount(c_neg, minlength=n_clusters)[None, :] * auc[:, None]
    a, b = a[:, used], b[:, used]
    size = a.shape[1]
    if size < 2:
        return np.full((k, k), np.nan)
    f = size / (size - 1.0)
    s10, s01, s11 = f * (a @ a.T) / m, f * (b @ b.T) / n0, f * (a @ b.T)
    return s10 / m + s01 / n0 + (s11 + s11.T) / (m * n0)


def _clusters(groups, codes):
    """The cluster codes of the positives and of the negatives, or None."""
    if groups is None:
        return None
    from .._shared.units import check_units

    units = check_units(codes.shape[0], groups=groups)
    pos = codes == 1
    return units.codes[pos], units.codes[~pos]


def _wald(estimate, var, level, null, bounds) -> DeLongResult:
    if np.isnan(var):
        return DeLongResult(float(estimate), np.nan, np.nan, np.nan, np.nan)
    se = float(np.sqrt(max(var, 0.0)))
    z = norm.ppf(0.5 + level / 2)
    lo, hi = np.clip([estimate - z * se, estimate + z * se], *bounds)
    if not negligible(se) and not negligible(estimate - null):
        pvalue = float(2 * norm.sf(abs(estimate - null) / se))
    else:
        # No spread, or a difference of rounding noise (two identical scores): no division
        # by a variance of zero.
        pvalue = 1.0 if negligible(estimate - null) else 0.0
    return DeLongResult(float(estimate), se, float(lo), float(hi), pvalue)


def delong_roc_auc(y, score, *, pos_label=None, level=0.95, groups=None) -> DeLongResult:
    """ROC-AUC with DeLong's analytic standard error and Wald interval (no resampling).

    Parameters
    ----------
    y : array-like of shape (n,)
        Binary labels: bool, 0/1 or -1/1, or any labels with ``pos_label`` (as in
        :func:`roc_auc_interval`).
    score : array-like of shape (n,)
    level : float in (0, 1), default=0.95
    groups : array-like of shape (n,), default=None
        The cluster of each row: Obuchowski's clustered variance [O97]_, for several rows
        per patient or customer.

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
    var = _delong_cov(v_pos, v_neg, _clusters(groups, codes))[0, 0]
    return _wald(auc[0], var, level, 0.5, (0.0, 1.0))


def delong_roc_auc_difference(y, score, baseline_score, *, pos_label=None, level=0.95,
                              groups=None):
    """Difference of two correlated ROC-AUCs on the same rows, ``AUC(score) -
    AUC(baseline_score)``, with DeLong's standard error (Obuchowski's clustered one with
    ``groups``, [O97]_). Two identical scores give a difference of 0 and p = 1.

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
    cov = _delong_cov(v_pos, v_neg, _clusters(groups, codes))
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    return _wald(auc[0] - auc[1], var, level, 0.0, (-1.0, 1.0))
