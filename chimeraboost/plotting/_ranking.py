"""How well a model ranks, as pictures: the ROC curve against the diagonal
(:func:`roc_curve`) and the precision-recall curve against the base rate (:func:`pr_curve`),
each with its AUC and an optional bootstrap band. The points are scikit-learn's, the AUCs
:func:`chimeraboost.metrics.ranking_report`'s."""

from __future__ import annotations

import numpy as np

from .. import metrics
from .._shared.validation import as_1d
from ._decisions import draw_band
from ._parts import as_models, class_labels, legend_label, legend_number, new_axes

__all__ = ["roc_curve", "pr_curve"]


def _both_classes(y, classes, what: str) -> None:
    """A ranking curve needs rows of both classes: one class is named, as ``y``'s."""
    y = as_1d(y, "y")
    if y.shape[0] == 0:
        msg = "y is empty; at least one row is needed."
        raise ValueError(msg)
    present = np.isin(classes, y)
    if not present.all():
        msg = (f"{what}: y holds only class {classes[present].tolist()} of "
               f"{classes.tolist()}; the curve needs rows of both classes (with one, its "
               "AUC is undefined).")
        raise ValueError(msg)


def _binary(classes, what: str) -> None:
    if classes.shape[0] != 2:
        msg = (f"{what} is drawn for binary problems; got {classes.shape[0]} classes. Pass the "
               "one-vs-rest problem: y == label and the probability of that label.")
        raise ValueError(msg)


def _positive_score(p) -> np.ndarray:
    """The score of classes[1]: a 1-D score as given, the second column of (n, 2)."""
    arr = np.asarray(p, dtype=np.float64)
    return arr[:, 1] if arr.ndim == 2 else arr


def _ranking(y, proba, classes, sample_weight, what):
    classes = class_labels(y, classes)
    _binary(classes, what)
    _both_classes(y, classes, what)
    out = {}
    for name, p in as_models(proba).items():
        score = _positive_score(p)
        numbers = metrics.ranking_report(y, score, classes, sample_weight=sample_weight)
        event = np.asarray(y) == classes[1]
        out[name] = (score, numbers, event)
    return classes, out


def roc_curve(y, proba, *, classes=None, sample_weight=None, ax=None, band=False, n_boot=1000,
              random_state=None, groups=None, time=None):
    """The ROC curve with the no-skill diagonal and the ROC-AUC in the legend.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n, 2) or (n,), or dict name -> such an array
        Probabilities or any score that ranks ``classes[1]`` first (``decision_function``).
    classes : array-like of shape (2,), default=None
        None: the sorted labels of ``y``.
    sample_weight : array-like of shape (n,), default=None
    ax : matplotlib Axes, default=None
    band : bool or float in (0, 1), default=False
        Shade a pointwise bootstrap band around each curve (True: 95%; a float: that level),
        from ``n_boot`` resamples of the rows seeded by ``random_state``
        (:func:`chimeraboost.decisions.curve_band`, vertical averaging).
    n_boot : int, default=1000
    random_state : None, int or numpy Generator
    groups : array-like of shape (n,), default=None
        Resampling units for the band: whole groups (customers with several rows) are
        resampled, as everywhere in the library (see "When rows are not independent").
    time : array-like of shape (n,), default=None
        Dates or sortable values of time-ordered rows: the band resamples blocks of
        consecutive rows (the stationary bootstrap of
        :class:`chimeraboost.resampling.Resampler`).

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    The points are scikit-learn's ``roc_curve``; the AUC in the legend is
    :func:`metrics.ranking_report`'s ``roc_auc``, the number in every report.
    """
    from sklearn.metrics import roc_curve as sk_roc_curve

    classes, models = _ranking(y, proba, classes, sample_weight, "roc_curve")
    ax = new_axes(ax, "roc_curve")
    ax.plot([0, 1], [0, 1], color="0.5", lw=1, ls="--", label="no skill (AUC 0.500)")
    for name, (score, numbers, event) in models.items():
        fpr, tpr, _ = sk_roc_curve(event, score, sample_weight=sample_weight)
        line, = ax.plot(fpr, tpr, lw=1.8,
                        label=legend_label(name, f"ROC-AUC {legend_number(numbers['roc_auc'])}"))
        draw_band(ax, line, band, "roc", event, score, sample_weight, n_boot, random_state,
                  groups=groups, time=time)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate (recall)")
    ax.set_title(f"ROC curve (positive class {classes[1]})")
    ax.legend(loc="lower right", fontsize="small")
    return ax


def pr_curve(y, proba, *, classes=None, sample_weight=None, ax=None, band=False, n_boot=1000,
             random_state=None, groups=None, time=None):
    """The precision-recall curve with the no-skill line at the base rate, PR-AUC in the legend.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n, 2) or (n,), or dict name -> such an array
        Probabilities or any score that ranks ``classes[1]`` first.
    classes : array-like of shape (2,), default=None
        None: the sorted labels of ``y``.
    sample_weight : array-like of shape (n,), default=None
    ax : matplotlib Axes, default=None
    band : bool or float in (0, 1), default=False
        Shade a pointwise bootstrap band of precision at each recall (True: 95%; a float:
        that level), from ``n_boot`` resamples seeded by ``random_state``
        (:func:`chimeraboost.decisions.curve_band`).
    n_boot : int, default=1000
    random_state : None, int or numpy Generator
    groups : array-like of shape (n,), default=None
        Resampling units for the band: whole groups (customers with several rows) are
        resampled, as everywhere in the library (see "When rows are not independent").
    time : array-like of shape (n,), default=None
        Dates or sortable values of time-ordered rows: the band resamples blocks of
        consecutive rows (the stationary bootstrap of
        :class:`chimeraboost.resampling.Resampler`).

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    The points are scikit-learn's ``precision_recall_curve`` drawn as steps (the area under
    the steps is the average precision); the legend's PR-AUC and the base rate are
    :func:`metrics.ranking_report`'s ``pr_auc`` and ``base_rate``.
    """
    from sklearn.metrics import precision_recall_curve

    classes, models = _ranking(y, proba, classes, sample_weight, "pr_curve")
    ax = new_axes(ax, "pr_curve")
    rate = float(next(iter(models.values()))[1]["base_rate"])
    ax.plot([0, 1], [rate, rate], color="0.5", lw=1, ls="--",
            label=f"no skill (base rate {legend_number(rate)})")
    for name, (score, numbers, event) in models.items():
        precision, recall, _ = precision_recall_curve(event, score, sample_weight=sample_weight)
        line, = ax.plot(recall, precision, lw=1.8, drawstyle="steps-post",
                        label=legend_label(name, f"PR-AUC {legend_number(numbers['pr_auc'])}"))
        draw_band(ax, line, band, "pr", event, score, sample_weight, n_boot, random_state,
                  groups=groups, time=time)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_box_aspect(1)  # square, as the ROC curve and the reliability diagram beside it
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.set_title(f"Precision-recall curve (positive class {classes[1]})")
    ax.legend(loc="lower left", fontsize="small")
    return ax
