"""How good are the probabilities, against knowing only the base rate?

Re-exported by :mod:`chimeraboost.metrics`. The two proper scores of a probabilistic
classifier, each with the no-skill forecast it is judged against:

- What does the no-skill forecast score at this base rate? :func:`reference_log_loss`,
  :func:`reference_brier` (closed forms), :func:`class_prior` (the forecast itself).
- How good are the probabilities? :func:`log_loss`, :func:`brier_score`.
- Are they better than the base rate, and by how much? :func:`log_loss_skill`,
  :func:`brier_skill` (``1 - loss / reference``).

Every number comes from ``_classification`` (:func:`~chimeraboost.metrics.classification_evaluator`
and its closed forms of the references), so it is the one the reports and the bootstrap give.
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from .._shared.validation import (
    check_aligned,
    check_classes,
    check_sample_weight,
    encode_labels,
    require_proba,
    unit_scale,
)
from .._shared.scores import ref_brier, ref_log_loss
from ._classification import as_prior, classification_evaluator, prior_of


@public(legacy=("outcome_prior",))
def reference_log_loss(prior, *, outcome_prior=None) -> float:
    """Log loss of the constant forecast ``prior``.

    Parameters
    ----------
    prior : float or array of shape (K,)
        The no-skill forecast: a positive-class rate (binary) or a class-probability vector.
    outcome_prior : float or array of shape (K,), default=None
        How often each class occurs in the rows scored. ``None`` means the same as ``prior``
        (the forecast is the rows' own base rate), which gives the entropy.

    Returns
    -------
    float
        The mean log loss (natural log) the constant forecast would get on rows with these
        class frequencies; ``inf`` if a class that occurs is forecast with probability 0.

    Notes
    -----
    ``-sum_k r_k log q_k`` with ``q`` the forecast and ``r`` the outcome frequencies; for
    ``q = r`` this is the entropy ``-sum_k q_k log q_k``: 0.367 at a 12% base rate. A class
    that never occurs (``r_k = 0``) adds nothing; a class that occurs but is forecast with
    probability ``q_k = 0`` makes the reference infinite (``inf``), and every skill against
    it undefined -- it is not clipped to a large finite number that would make any model
    look perfect.

    Examples
    --------
    At a 12% base rate the entropy is ``-(0.12 ln 0.12 + 0.88 ln 0.88) = 0.2544 + 0.1125``:

    >>> round(reference_log_loss(0.12), 3)
    0.367

    A coin-flip forecast costs ``ln 2 = 0.6931`` on every row, whatever the rows hold:

    >>> round(reference_log_loss(0.5, outcome_prior=0.12), 4)
    0.6931
    """
    q, r = _prior_pair(prior, outcome_prior)
    return float(ref_log_loss(r[None], q)[0])


@public(legacy=("outcome_prior",))
def reference_brier(prior, *, outcome_prior=None) -> float:
    """Brier score (sum over classes) of the constant forecast ``prior``.

    Parameters
    ----------
    prior : float or array of shape (K,)
        The no-skill forecast: a positive-class rate (binary) or a class-probability vector.
    outcome_prior : float or array of shape (K,), default=None
        How often each class occurs in the rows scored. ``None`` means the same as ``prior``
        (the forecast is the rows' own base rate).

    Returns
    -------
    float
        The mean K-sum Brier score the constant forecast would get on rows with these class
        frequencies, in [0, 2].

    Notes
    -----
    ``sum_k (q_k^2) - 2 r.q + 1`` with forecast ``q`` and outcome frequencies ``r``; for
    ``q = r`` this is ``1 - sum_k q_k^2``, i.e. ``2 q (1 - q)`` for a binary base rate ``q``
    (twice scikit-learn's single-column ``brier_score_loss`` of the constant forecast).

    Examples
    --------
    At a 12% base rate, ``2 x 0.12 x 0.88 = 0.2112``:

    >>> round(reference_brier(0.12), 4)
    0.2112

    A 50/50 forecast scores ``0.5^2 + 0.5^2 = 0.5`` on every row, whatever the rows hold:

    >>> round(reference_brier([0.5, 0.5], outcome_prior=[0.88, 0.12]), 4)
    0.5
    """
    q, r = _prior_pair(prior, outcome_prior)
    return float(ref_brier(r[None], q)[0])


def _prior_pair(prior, outcome_prior):
    q = as_prior(prior)
    r = q if outcome_prior is None else as_prior(outcome_prior, "outcome_prior")
    if r.shape != q.shape:
        msg = (f"prior has {q.shape[0]} classes but outcome_prior has {r.shape[0]}; both "
               "must list the same classes in the same order.")
        raise ValueError(msg)
    return q, r


@public(legacy=("sample_weight",))
def class_prior(y, classes, *, sample_weight=None) -> np.ndarray:
    """Weighted frequency of each of ``classes`` in ``y``: the no-skill forecast.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, each one of ``classes``.
    classes : array-like of shape (K,)
        The class labels; the result follows their order.
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    ndarray of shape (K,)
        The share of (weighted) rows in each class; sums to 1.

    Examples
    --------
    Three "no" and one "yes"; with weights 1, 3, 1, 1 each class carries a weight of 3:

    >>> class_prior(["no", "yes", "no", "no"], classes=["no", "yes"])
    array([0.75, 0.25])
    >>> class_prior(["no", "yes", "no", "no"], classes=["no", "yes"], sample_weight=[1, 3, 1, 1])
    array([0.5, 0.5])
    """
    check_aligned(y=y, sample_weight=sample_weight)
    classes = check_classes(classes)
    codes = encode_labels(y, classes, "y")
    w = check_sample_weight(sample_weight, codes.shape[0])
    return prior_of(codes, classes.shape[0], unit_scale(w)[0])


def _one(y, proba, classes, sample_weight, baseline, key) -> float:
    require_proba(proba)
    ev = classification_evaluator(
        y, classes, proba=proba, sample_weight=sample_weight, baseline=baseline
    )
    return float(ev.evaluate(metrics=[key])[key][0])


@public(legacy=("sample_weight",))
def log_loss(y, proba, classes, *, sample_weight=None) -> float:
    """Mean negative log-likelihood (natural log); equals ``sklearn.metrics.log_loss``.

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

    Returns
    -------
    float
        ``-mean(log p_y)``, the probability given to the class that occurred, weighted;
        probabilities are clipped to ``[eps, 1 - eps]`` as in scikit-learn.

    Examples
    --------
    The probabilities given to what happened are 0.8, 0.6, 0.6 and 0.9:
    ``(0.2231 + 0.5108 + 0.5108 + 0.1054) / 4 = 0.3375``.

    >>> round(log_loss([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1]), 4)
    0.3375
    """
    return _one(y, proba, classes, sample_weight, None, "log_loss")


@public(legacy=("sample_weight",))
def brier_score(y, proba, classes, *, sample_weight=None) -> float:
    """Mean over rows of ``sum_k (p_k - 1[y = k])^2`` (binary: twice sklearn's Brier).

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

    Returns
    -------
    float
        The weighted mean K-sum Brier score, in [0, 2]; 0 is perfect.

    Examples
    --------
    Squared errors of the positive column are 0.04, 0.16, 0.16, 0.01 (mean 0.0925, which
    is scikit-learn's ``brier_score_loss``); the negative column's are the same, so the
    K-sum is ``2 x 0.0925``:

    >>> round(brier_score([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1]), 4)
    0.185
    """
    return _one(y, proba, classes, sample_weight, None, "brier")


@public(legacy=("sample_weight", "baseline"))
def log_loss_skill(y, proba, classes, *, sample_weight=None, baseline=None) -> float:
    """``1 - log_loss / reference_log_loss``: 0 = no better than the prior, 1 = perfect.

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
    baseline : None, array-like of targets, or mapping, default=None
        The no-skill forecast. ``None``: the class prior of the scored ``y`` itself
        (weighted), the conservative reading. Targets (e.g. ``y_train``): their class prior,
        what a forecaster who knew only the training data would say. ``{label:
        probability}``: a fixed prior naming every class (e.g. a published base rate).

    Returns
    -------
    float
        The log-loss skill; negative when the model is worse than the no-skill forecast,
        NaN (with a ``DegenerateMetricWarning``) when the reference loss is zero or
        infinite. With ``baseline=None`` it equals ``sklearn.metrics.d2_log_loss_score``.

    Examples
    --------
    The log loss is 0.3375 (see :func:`log_loss`); at a 50% base rate the reference is
    ``ln 2 = 0.6931``, so the skill is ``1 - 0.3375 / 0.6931 = 0.513``:

    >>> round(log_loss_skill([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1]), 3)
    0.513
    """
    return _one(y, proba, classes, sample_weight, baseline, "log_loss_skill")


@public(legacy=("sample_weight", "baseline"))
def brier_skill(y, proba, classes, *, sample_weight=None, baseline=None) -> float:
    """``1 - brier / reference_brier`` (the Brier skill score); equals ``d2_brier_score``.

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
    baseline : None, array-like of targets, or mapping, default=None
        The no-skill forecast. ``None``: the class prior of the scored ``y`` itself
        (weighted), the conservative reading. Targets (e.g. ``y_train``): their class prior,
        what a forecaster who knew only the training data would say. ``{label:
        probability}``: a fixed prior naming every class (e.g. a published base rate).

    Returns
    -------
    float
        The Brier skill; negative when the model is worse than the no-skill forecast, NaN
        (with a ``DegenerateMetricWarning``) when the reference loss is zero. With
        ``baseline=None`` it equals ``sklearn.metrics.d2_brier_score``.

    Examples
    --------
    The Brier score is 0.185 (see :func:`brier_score`); the rows' own 50% prior scores
    ``2 x 0.5 x 0.5 = 0.5``, so the skill is ``1 - 0.185 / 0.5 = 0.63``:

    >>> y, p = [0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9]
    >>> round(brier_skill(y, p, classes=[0, 1]), 4)
    0.63

    Against a training prior of 25% positives, whose Brier score on these rows is
    ``0.75^2 + 0.25^2 - 2 (0.5 x 0.75 + 0.5 x 0.25) + 1 = 0.625``, the skill is
    ``1 - 0.185 / 0.625 = 0.704``:

    >>> round(brier_skill(y, p, classes=[0, 1], baseline=[0, 0, 0, 1]), 4)
    0.704
    """
    return _one(y, proba, classes, sample_weight, baseline, "brier_skill")
