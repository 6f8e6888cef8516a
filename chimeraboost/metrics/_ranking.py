"""Does the model put positives first, and how many does it catch in the top k?

Re-exported by :mod:`chimeraboost.metrics`. Ranking needs a score, not probabilities:

- Does the model put positives first? :func:`ranking_report`: ``roc_auc`` and ``pr_auc`` (and
  accuracy and F1 from hard labels) for models that give scores but no probabilities.
- If I can act on k cases, how many positives do I catch? :func:`recall_at_k`,
  :func:`precision_at_k` (ties at the cutoff shared fractionally).
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from . import _kernels
from ._kernels import replicate_weights as _weights
from .._shared.validation import (
    binary_target,
    check_aligned,
    check_k,
    check_numeric_1d,
    check_same_length,
    check_sample_weight,
    plain,
    unit_scale,
    warn_degenerate,
)
from ._classification import classification_evaluator
from ._report import _finish_classification


@public(legacy=("sample_weight", "y_pred", "k"))
def ranking_report(y, score, classes, *, sample_weight=None, y_pred=None, k=None) -> dict:
    """The numbers of a model that ranks but gives no probabilities.

    Log loss, Brier and calibration are NaN: without probabilities there is nothing to judge
    them on. Ranking (``roc_auc``, ``pr_auc``, recall at ``k``) needs ``score``; accuracy
    and F1 need ``y_pred``.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels, each one of ``classes``.
    score : array-like of shape (n,) or (n, K), or None
        A decision function: 1-D for binary (higher means ``classes[1]``), (n, K)
        otherwise.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None
    y_pred : array-like of shape (n,), default=None
        Hard labels, for ``accuracy``, ``balanced_accuracy`` and ``f1_macro``.
    k : int or float, default=None
        Binary only: also report ``recall_at_k`` and ``precision_at_k``.

    Returns
    -------
    dict
        The keys of :func:`classification_report`, with NaN for the numbers that need
        probabilities.

    Examples
    --------
    Of the four (positive, negative) pairs, the positive scores higher in three: 0.2 beats
    -1.0 but not 0.5, 2.0 beats both; ROC AUC is 3 / 4.

    >>> r = ranking_report([0, 0, 1, 1], [-1.0, 0.5, 0.2, 2.0], classes=[0, 1])
    >>> r["roc_auc"], bool(np.isnan(r["brier"]))
    (0.75, True)
    """
    if score is None and y_pred is None:
        msg = "ranking_report needs score or y_pred."
        raise ValueError(msg)
    ev = classification_evaluator(
        y, classes, score=score, y_pred=y_pred, sample_weight=sample_weight, k=k
    )
    return _finish_classification(ev)


def _top_k(y, score, k, sample_weight, pos_label, key) -> float:
    check_aligned(y=y, score=score, sample_weight=sample_weight)
    target = binary_target(y, pos_label).astype(np.float64)
    s = check_numeric_1d(score, "score")
    n = check_same_length(y=target, score=s)
    w = unit_scale(check_sample_weight(sample_weight, n))[0]
    k_rows = check_k(k, n)
    W = _weights(w, None, n)
    rank = _kernels.GroupSums(s)
    stats = _kernels.top_k_stats(rank.sums(W * target), rank.sums(W), rank.counts, k_rows)
    if np.isnan(stats[key][0]):
        shown = "" if pos_label is None else f" (pos_label={plain(pos_label)!r})"
        warn_degenerate(f"y has no positives{shown}: recall@k is undefined (NaN).")
    return float(stats[key][0])


@public(legacy=("sample_weight", "pos_label"))
def recall_at_k(y, score, k, *, sample_weight=None, pos_label=None) -> float:
    """Share of the positives (weighted) found among the ``k`` highest-scored rows.

    Ties at the cutoff are shared fractionally (the expected value under random
    tie-breaking), so a 0/1 rule flagging 500 rows gets recall@400 = 0.8 x recall@500.
    Works on any score.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels: bool, 0/1 or -1/1 (positive: True / 1), or any labels with
        ``pos_label``.
    score : array-like of shape (n,)
        Any score that ranks the rows, higher first (a probability, a decision function).
    k : int or float
        A number of rows, or a float in (0, 1) for that fraction of the rows.
    sample_weight : array-like of shape (n,), default=None
    pos_label : label, default=None
        The label of the positive class; needed when ``y`` holds other labels (strings
        such as "no"/"yes").

    Returns
    -------
    float
        Positive weight among the top ``k`` rows over all positive weight; NaN (with a
        ``DegenerateMetricWarning``) when ``y`` has no positives.

    Examples
    --------
    The top row (0.9) is a positive; the second place is shared by the two rows tied at
    0.5, one positive and one not, so it holds half a positive in expectation: ``1.5`` of
    the 2 positives, recall 0.75. ``k=0.5`` is half of the 4 rows, the same cutoff.

    >>> y, score = [1, 1, 0, 0], [0.9, 0.5, 0.5, 0.1]
    >>> recall_at_k(y, score, k=2), recall_at_k(y, score, k=0.5)
    (0.75, 0.75)
    >>> recall_at_k(["yes", "yes", "no", "no"], score, k=1, pos_label="yes")
    0.5
    """
    return _top_k(y, score, k, sample_weight, pos_label, "recall_at_k")


@public(legacy=("sample_weight", "pos_label"))
def precision_at_k(y, score, k, *, sample_weight=None, pos_label=None) -> float:
    """Share of positives (weighted) among the ``k`` highest-scored rows.

    Ties at the cutoff as in :func:`recall_at_k`; with weights, the expected positive
    weight over the expected weight in the top ``k``.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels: bool, 0/1 or -1/1 (positive: True / 1), or any labels with
        ``pos_label``.
    score : array-like of shape (n,)
        Any score that ranks the rows, higher first (a probability, a decision function).
    k : int or float
        A number of rows, or a float in (0, 1) for that fraction of the rows.
    sample_weight : array-like of shape (n,), default=None
    pos_label : label, default=None
        The label of the positive class; needed when ``y`` holds other labels (strings
        such as "no"/"yes").

    Returns
    -------
    float
        Positive weight among the top ``k`` rows over all weight there, in [0, 1].

    Examples
    --------
    As in :func:`recall_at_k`, the top 2 rows hold 1.5 positives in expectation:
    ``1.5 / 2 = 0.75``. The top 3 hold all 2 positives: ``2 / 3``.

    >>> y, score = [1, 1, 0, 0], [0.9, 0.5, 0.5, 0.1]
    >>> precision_at_k(y, score, k=2), round(precision_at_k(y, score, k=3), 4)
    (0.75, 0.6667)
    """
    return _top_k(y, score, k, sample_weight, pos_label, "precision_at_k")
