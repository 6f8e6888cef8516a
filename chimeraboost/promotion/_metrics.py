"""What is measured in each arm of an online test, and how precisely a number of rows pins it.

Questions this module answers:

- *Which metrics can an A/B test be planned and read on?* -> :data:`KINDS`: a proportion (a
  0/1 outcome per row: conversion, churn), the mean of a per-row number (revenue, a cost, a
  net benefit), the mean per-row Brier score or log loss of the model's probabilities against
  the outcomes that arrive, and the ROC-AUC of its scores.
- *What is an arm's number and its standard error?* -> :func:`arm_estimate` (a mean and its
  variance; for the ROC-AUC DeLong's variance from the structural components [DDC88]_).
  With several rows per randomised unit (a user's sessions), the cluster-robust variance
  of the mean (:func:`clustered_mean_variance`, the delta method of Deng, Knoblich & Lu
  [DKL18]_) and Obuchowski's clustered DeLong variance of the ROC-AUC [O97]_.
- *What does the offline evidence say a row is worth?* -> :func:`unit_variance`: the
  variance of an arm's number times its rows (``p (1 - p)`` for a proportion, the per-row
  variance for a mean, and for the ROC-AUC ``var(V10) / prevalence + var(V01) / (1 -
  prevalence)`` from the structural components, or Hanley & McNeil's [HM82]_ from the AUC
  alone).

References
----------
.. [DDC88] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas
   under two or more correlated receiver operating characteristic curves: a nonparametric
   approach. *Biometrics* 44(3), 837-845. doi:10.2307/2531595
.. [DKL18] Deng, A., Knoblich, U. and Lu, J. (2018). Applying the delta method in metric
   analytics: a practical guide with novel ideas. *Proceedings of the 24th ACM SIGKDD
   International Conference on Knowledge Discovery & Data Mining*, 233-242.
   doi:10.1145/3219819.3219919
.. [O97] Obuchowski, N. A. (1997). Nonparametric analysis of clustered ROC curve data.
   *Biometrics* 53(2), 567-578. doi:10.2307/2533958
.. [HM82] Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area under a
   receiver operating characteristic (ROC) curve. *Radiology* 143(1), 29-36.
   doi:10.1148/radiology.143.1.7063747
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

from .. import resampling
from .._shared.array_checks import as_1d, check_aligned, check_same_length, finite_float
from .._shared.scores import row_losses

# Each kind of metric, and whether more of it is better when nobody says.
KINDS = {"proportion": True, "mean": None, "brier": False, "log_loss": False, "roc_auc": True}
# Kinds whose arm holds (labels, scores) rather than one number per row.
SCORED = ("brier", "log_loss", "roc_auc")


def check_kind(kind) -> str:
    if not isinstance(kind, str) or kind not in KINDS:
        msg = f"kind must be one of {list(KINDS)}, got {kind!r}."
        raise ValueError(msg)
    return kind


def binary_labels(y, name: str) -> np.ndarray:
    """0/1 codes of two-class labels (the second of the sorted labels is positive)."""
    arr = as_1d(y, name)
    values = np.unique(arr)
    if values.size != 2:
        msg = (f"{name} must hold two classes (the outcomes of the rows), got "
               f"{values.size} distinct value(s): {values[:5].tolist()}. An arm with one class "
               "has no ROC-AUC; wait for both outcomes, or plan on a proportion.")
        raise ValueError(msg)
    return (arr == values[1]).astype(np.int8)


def row_values(kind: str, values, name: str) -> np.ndarray | tuple:
    """The per-row numbers of an arm: one number per row, or ``(y codes, scores)`` for a
    ROC-AUC. ``values`` is a 1-D array, or a ``(y, scores)`` pair for the scored kinds."""
    if kind not in SCORED:
        if isinstance(values, tuple):
            msg = f"{name}: a {kind} takes one number per row, not a (y, score) pair."
            raise TypeError(msg)
        v = finite_float(as_1d(values, name).astype(np.float64), name)
        if kind == "proportion" and not np.all((v == 0) | (v == 1)):
            msg = f"{name} must hold 0/1 outcomes for a proportion, got {np.unique(v)[:5]}."
            raise ValueError(msg)
        return v
    if not (isinstance(values, (tuple, list)) and len(values) == 2):
        msg = (f"{name}: a {kind} needs the pair (y, score) of the arm's rows: the outcomes "
               "and the model's probabilities or scores.")
        raise TypeError(msg)
    y, s = values
    check_aligned(**{f"{name} y": y, f"{name} score": s})
    check_same_length(**{f"{name} y": y, f"{name} score": s})
    codes = binary_labels(y, f"{name} y")
    s = finite_float(as_1d(s, f"{name} score").astype(np.float64), f"{name} score")
    if kind == "roc_auc":
        return codes, s
    if np.any((s < 0) | (s > 1)):
        msg = f"{name} score must be probabilities in [0, 1] for a {kind}."
        raise ValueError(msg)
    log_loss, brier, _ = row_losses(np.column_stack([1 - s, s]), codes)
    return brier if kind == "brier" else log_loss


def structural_components(codes: np.ndarray, s: np.ndarray) -> tuple:
    """DeLong's ``V10`` (each positive: the share of negatives scored below it, ties one
    half) and ``V01`` (each negative: the share of positives scored above it)."""
    pos, neg = s[codes == 1], s[codes == 0]
    ranks = rankdata(s)
    v10 = (ranks[codes == 1] - rankdata(pos)) / neg.size
    v01 = 1.0 - (ranks[codes == 0] - rankdata(neg)) / pos.size
    return v10, v01


def clustered_mean_variance(values: np.ndarray, clusters: np.ndarray) -> tuple[float, int]:
    """``(variance of the mean of values, clusters)``: the cluster-robust (sandwich) variance
    of a mean over rows in clusters, ``G / (G - 1) sum_g (S_g - n_g mean)^2 / n^2`` with
    ``S_g`` and ``n_g`` cluster ``g``'s sum and rows, the delta method's variance of the
    ratio ``sum S_g / sum n_g`` of two cluster means [DKL18]_. NaN with one cluster. With
    every cluster of one row it is ``var(values, ddof=1) / n``.

    Examples
    --------
    >>> v, g = clustered_mean_variance(np.array([1.0, 2.0, 3.0, 6.0]), np.array([0, 0, 1, 1]))
    >>> float(v), g  # mean 3; S_g - n_g mean = -3, +3; 2/1 * 18 / 16
    (2.25, 2)
    """
    _, codes = np.unique(clusters, return_inverse=True)
    codes = codes.reshape(-1)
    g = int(codes.max()) + 1 if codes.size else 0
    if g < 2:
        return np.nan, g
    n = values.size
    resid = (np.bincount(codes, weights=values, minlength=g)
             - np.bincount(codes, minlength=g) * values.mean())
    return float(g / (g - 1.0) * (resid @ resid) / (n * n)), g


def arm_estimate(kind: str, values, clusters=None) -> tuple[float, float, int]:
    """``(number, variance of the number, rows)`` of one arm; with ``clusters`` (each row's
    randomised unit, codes or labels) the variance holds under clustering: the
    cluster-robust variance of the mean (:func:`clustered_mean_variance`; for a proportion
    times ``(n - 1) / n``, so that clusters of one row give ``p (1 - p) / n`` as without
    them), Obuchowski's clustered DeLong variance for the ROC-AUC [O97]_."""
    if kind == "roc_auc":
        codes, s = values
        if clusters is not None:
            if np.unique(clusters).size < 2:
                return float(structural_components(codes, s)[0].mean()), np.nan, codes.size
            res = resampling.delong_roc_auc(codes, s, pos_label=1, groups=clusters)
            return res.estimate, res.se ** 2, int(codes.size)
        v10, v01 = structural_components(codes, s)
        var = np.var(v10, ddof=1) / v10.size + np.var(v01, ddof=1) / v01.size
        return float(v10.mean()), float(var), int(codes.size)
    n = values.size
    mean = float(values.mean())
    if clusters is not None:
        var, _ = clustered_mean_variance(values, clusters)
        return mean, var * (n - 1) / n if kind == "proportion" else var, n
    if kind == "proportion":
        return mean, mean * (1 - mean) / n, n
    return mean, float(np.var(values, ddof=1)) / n if n > 1 else np.nan, n


def unit_variance(kind: str, values, prevalence=None) -> tuple[float, float]:
    """``(number, variance times rows)`` of an arm from offline evidence."""
    if kind == "roc_auc":
        if isinstance(values, tuple):
            codes, s = values
            v10, v01 = structural_components(codes, s)
            prev = codes.mean() if prevalence is None else prevalence
            return float(v10.mean()), float(np.var(v10, ddof=1) / prev
                                            + np.var(v01, ddof=1) / (1 - prev))
        a = float(values)
        q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
        # Hanley & McNeil's variance for many rows: (Q2 - A^2) / positives + (Q1 - A^2) /
        # negatives.
        return a, (q2 - a * a) / prevalence + (q1 - a * a) / (1 - prevalence)
    if kind == "proportion":
        p = float(values)
        return p, p * (1 - p)
    return float(values.mean()), float(np.var(values, ddof=1))
