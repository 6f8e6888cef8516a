"""Are the probabilities calibrated, and how much do they discriminate?

Re-exported by :mod:`chimeraboost.metrics`: :func:`calibration_decomposition` (the CORP
decomposition of the Brier score into miscalibration MCB, discrimination DSC and uncertainty
UNC, per class and averaged over classes) and :func:`calibration_mcb` (its MCB). *Where* the
probabilities are off is :func:`~chimeraboost.metrics.reliability_curve`, drawn from the same
isotonic recalibration.

References
----------
Dimitriadis, T., Gneiting, T. and Jordan, A. I. (2021). Stable reliability diagrams for
probabilistic classifiers. *Proceedings of the National Academy of Sciences* 118(8),
e2016191118. doi:10.1073/pnas.2016191118
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from ._kernels import replicate_weights as _weights
from .._shared.validation import require_proba
from ._classification import classification_evaluator


@public(legacy=("sample_weight",))
def calibration_decomposition(y, proba, classes, *, sample_weight=None) -> dict:
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


@public(legacy=("sample_weight",))
def calibration_mcb(y, proba, classes, *, sample_weight=None) -> float:
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
    return calibration_decomposition(y, proba, classes, sample_weight=sample_weight)["mcb"]
