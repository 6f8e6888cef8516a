"""Every classification number of a probabilistic model, with its reference, in one dict.

Re-exported by :mod:`chimeraboost.metrics`: :func:`classification_report` (log loss and Brier
with their references and skills, the CORP decomposition, accuracy, F1, ROC and PR AUC). The
dict is assembled here from one evaluation of
:func:`~chimeraboost.metrics.classification_evaluator`;
:func:`~chimeraboost.metrics.ranking_report` assembles the same keys for models that give no
probabilities.
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from .._shared.validation import require_proba
from ._classification import ClassificationEvaluator, classification_evaluator


def _point(ev_out: dict) -> dict:
    """B = 1 evaluation -> plain floats (priors as arrays)."""
    return {
        key: (float(v[0]) if v.ndim == 1 else v[0].copy()) for key, v in ev_out.items()
    }


@public(legacy=("sample_weight", "baseline", "k"))
def classification_report(y, proba, classes, *, sample_weight=None, baseline=None, k=None) -> dict:
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
