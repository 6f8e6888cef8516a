"""Is the model any good, compared with what? The numbers, on arrays.

Pure functions: arrays in, floats and dicts out; no estimator is ever seen here. Every proper
score comes with the base rate of the rows it was computed on, the loss of the no-skill
forecast that base rate implies, and the skill ``1 - loss / reference``.

Questions worth asking, and which function answers each:

- How good are the probabilities, against knowing only the base rate?
  :func:`classification_report` (log loss and Brier with their references and skills),
  :func:`log_loss_skill`, :func:`brier_skill`.
- What does the no-skill forecast score at this base rate? :func:`reference_log_loss`,
  :func:`reference_brier` (closed forms), :func:`class_prior`.
- Are the probabilities calibrated, and how much do they discriminate?
  :func:`calibration_mcb`, :func:`calibration_decomposition` (CORP: MCB, DSC, UNC).
- Where are they off? :func:`reliability_curve` (the isotonic recalibration behind MCB, with
  a consistency band; :mod:`chimeraboost.plotting` draws it).
- Does the model put positives first? ``roc_auc`` and ``pr_auc`` in the reports,
  :func:`ranking_report` for models that give scores but no probabilities.
- If I can act on k cases, how many positives do I catch? :func:`recall_at_k`,
  :func:`precision_at_k` (ties at the cutoff shared fractionally).
- How far off are the numbers of a regressor, against predicting the mean?
  :func:`regression_report` (``r2`` and ``mae_skill``).
- What do I print? :func:`format_report`.
- What is the report of rows that do not fit in memory, or arrive in pieces?
  :class:`ClassificationAccumulator`, :class:`RegressionAccumulator` (``update`` per chunk,
  ``merge``, ``report``).

Every number is computed by an *evaluator* (:func:`classification_evaluator`,
:func:`regression_evaluator`) that sorts the scores once and then evaluates any number of
weight vectors; the bootstrap in ``resampling`` reuses exactly these definitions.
"""

from __future__ import annotations

import numpy as np

from .._shared import kernels as _kernels
from ._accumulators import ClassificationAccumulator
from ._regression_accumulator import RegressionAccumulator
from .._shared.format import format_report
from .._shared.kernels import replicate_weights as _weights
from ._classification import (
    ClassificationEvaluator,
    as_prior,
    classification_evaluator,
    prior_of,
    ref_brier,
    ref_log_loss,
)
from ._regression import RegressionEvaluator, regression_evaluator, regression_report
from ._reliability import ReliabilityCurve, reliability_curve
from .._shared.validation import (
    binary_target,
    check_aligned,
    check_classes,
    check_k,
    check_numeric_1d,
    check_same_length,
    check_sample_weight,
    encode_labels,
    plain,
    require_proba,
    unit_scale,
    warn_degenerate,
)

__all__ = [
    "class_prior",
    "reference_log_loss",
    "reference_brier",
    "log_loss",
    "brier_score",
    "log_loss_skill",
    "brier_skill",
    "calibration_mcb",
    "calibration_decomposition",
    "reliability_curve",
    "ReliabilityCurve",
    "recall_at_k",
    "precision_at_k",
    "classification_report",
    "ranking_report",
    "regression_report",
    "classification_evaluator",
    "regression_evaluator",
    "ClassificationEvaluator",
    "RegressionEvaluator",
    "ClassificationAccumulator",
    "RegressionAccumulator",
    "format_report",
]

# --------------------------------------------------------------------------- references


def reference_log_loss(prior, outcome_prior=None) -> float:
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


def reference_brier(prior, outcome_prior=None) -> float:
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


def _point(ev_out: dict) -> dict:
    """B = 1 evaluation -> plain floats (priors as arrays)."""
    return {
        key: (float(v[0]) if v.ndim == 1 else v[0].copy()) for key, v in ev_out.items()
    }


def classification_report(y, proba, classes, sample_weight=None, baseline=None, k=None) -> dict:
    """Every classification number of a probabilistic model, with its reference.

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
    baseline : array-like of targets, default=None
        Where the no-skill forecast's class prior comes from. ``None``: the scored ``y``
        itself (weighted); the skills then equal ``sklearn.metrics.d2_log_loss_score`` and
        ``d2_brier_score``. ``y_train``: the prior the model could have known.
    k : int or float, default=None
        Binary only: also report ``recall_at_k`` and ``precision_at_k``.

    Returns
    -------
    dict
        ``n``, ``classes``, ``base_rate`` (binary: the rate of ``classes[1]``; multiclass:
        the prior vector), ``positives`` (weight of ``classes[1]`` / the last class),
        ``reference_prior``, ``log_loss``, ``log_loss_ref``, ``log_loss_skill``, ``brier``
        (sum over classes), ``brier_ref``, ``brier_skill``, ``calibration_mcb``,
        ``discrimination_dsc``, ``uncertainty_unc`` (class averages; for each class
        ``brier_k = MCB_k - DSC_k + UNC_k``), ``accuracy``, ``balanced_accuracy``,
        ``f1_macro``, ``roc_auc``, ``pr_auc`` (binary: average precision; multiclass: macro
        one-vs-rest), and for binary ``pr_auc_lift`` (``pr_auc / base_rate``).

    Examples
    --------
    Squared errors of the positive column are .04, .16, .16, .01: the K-sum Brier is
    2 x 0.0925 = 0.185, the reference at a 50% base rate is 0.5, the skill 1 - 0.37 = 0.63.

    >>> r = classification_report([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1])
    >>> round(r["brier"], 4), round(r["brier_skill"], 4), r["roc_auc"]
    (0.185, 0.63, 1.0)
    """
    require_proba(proba)
    ev = classification_evaluator(
        y, classes, proba=proba, sample_weight=sample_weight, baseline=baseline, k=k
    )
    return _finish_classification(ev)


def ranking_report(y, score, classes, sample_weight=None, y_pred=None, k=None) -> dict:
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


def _finish_classification(ev: ClassificationEvaluator) -> dict:
    out = {"n": ev.n, "classes": ev.classes}
    out.update(_point(ev.evaluate()))
    out["reference_prior"] = (
        ev.base_prior if ev.base_prior is not None else np.atleast_1d(out["base_rate"])
    )
    if ev.n_classes == 2 and out["reference_prior"].shape[0] == 1:
        rate = out["reference_prior"][0]
        out["reference_prior"] = np.array([1 - rate, rate])
    out["reference"] = "prior of y" if ev.base_prior is None else "prior of baseline"
    return out


# --------------------------------------------------------------------------- single numbers


def class_prior(y, classes, sample_weight=None) -> np.ndarray:
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


def log_loss(y, proba, classes, sample_weight=None) -> float:
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


def brier_score(y, proba, classes, sample_weight=None) -> float:
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


def log_loss_skill(y, proba, classes, sample_weight=None, baseline=None) -> float:
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


def brier_skill(y, proba, classes, sample_weight=None, baseline=None) -> float:
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


def calibration_decomposition(y, proba, classes, sample_weight=None) -> dict:
    """CORP decomposition of the Brier score, per class and averaged over classes.

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
    dict
        ``mcb``, ``dsc``, ``unc``, ``score`` (floats: class averages, ``score = MCB - DSC +
        UNC`` is the mean per-class Brier term, i.e. ``brier / K``) and ``per_class``: a dict
        of the same four as arrays of shape (K,), in the order of ``classes``.

    Notes
    -----
    Dimitriadis, Gneiting & Jordan (2021), PNAS 118(8), doi:10.1073/pnas.2016191118. For
    each class, the forecast ``p_k`` of the event ``y = k`` is recalibrated by weighted
    isotonic regression (pool-adjacent-violators; forecasts within 1e-15 pooled as in
    scikit-learn's ``IsotonicRegression``). ``MCB = S(p) - S(recalibrated)``, ``DSC =
    S(event rate) - S(recalibrated)``, ``UNC = S(event rate)`` with ``S`` the mean squared
    error. MCB >= 0 with equality for an isotonically calibrated forecast.

    Examples
    --------
    The forecasts 0.2, 0.4, 0.6, 0.9 of the event ``y = 1`` already rank the outcomes
    0, 0, 1, 1 perfectly, so their isotonic recalibration is the outcomes themselves (score
    0). MCB is the forecasts' own mean squared error ``(0.04 + 0.16 + 0.16 + 0.01) / 4 =
    0.0925``; UNC is that of the 50% event rate, 0.25; DSC ``= 0.25 - 0 = 0.25``. The class
    ``y = 0`` is the mirror image, so the averages are the same, and ``0.0925 - 0.25 + 0.25``
    is ``brier / K = 0.185 / 2``.

    >>> d = calibration_decomposition([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1])
    >>> [round(d[key], 4) for key in ("mcb", "dsc", "unc", "score")]
    [0.0925, 0.25, 0.25, 0.0925]
    """
    require_proba(proba)
    ev = classification_evaluator(y, classes, proba=proba, sample_weight=sample_weight)
    per = {key: v[0] for key, v in ev.decomposition(_weights(ev.sample_weight, None, ev.n)).items()}
    if ev.n_classes == 2:
        per = {key: np.repeat(v, 2) for key, v in per.items()}
    out = {key: float(v.mean()) for key, v in per.items()}
    out["per_class"] = per
    return out


def calibration_mcb(y, proba, classes, sample_weight=None) -> float:
    """Miscalibration (CORP MCB) averaged over classes; 0 = calibrated.

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
        The Brier score the forecasts would save by isotonic recalibration, averaged over
        classes; >= 0. See :func:`calibration_decomposition` for the definition.

    Examples
    --------
    A forecast of 0.5 on every row of a 50% base rate is calibrated (its recalibration is
    itself) although it has no skill; the example of :func:`calibration_decomposition`
    has MCB 0.0925:

    >>> round(calibration_mcb([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5], classes=[0, 1]), 4)
    0.0
    >>> round(calibration_mcb([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1]), 4)
    0.0925
    """
    return calibration_decomposition(y, proba, classes, sample_weight)["mcb"]


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


def recall_at_k(y, score, k, sample_weight=None, pos_label=None) -> float:
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


def precision_at_k(y, score, k, sample_weight=None, pos_label=None) -> float:
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

