"""What is a fitted model judged on, and what does it output on the rows?

This is the only place that calls ``predict_proba`` / ``decision_function`` / ``predict``:
:class:`_Scored` decides the task from what the estimator offers (:func:`_task`), puts its
class columns in a common order, and keeps the point report (from :mod:`chimeraboost.metrics`
or :mod:`chimeraboost.quantile_metrics`) with the evaluator the bootstrap resamples.
:func:`score_estimator` gives the same to callers that resample several models on one set of
rows.
"""

from __future__ import annotations

import numpy as np

from .. import metrics, quantile_metrics
from .._shared.predictions import Recorded
from .._shared.validation import (
    as_1d,
    check_features,
    check_fitted,
    estimator_family,
    quantile_levels,
)
from ._naming import _name

__all__ = ["score_estimator"]


def _check_fitted(estimator, arg: str) -> None:
    check_fitted(estimator, arg, _name(estimator))


def _task(estimator) -> str:
    """What the model is judged on, decided by what it is (:func:`estimator_family`), then
    by what it offers. Predictions a system already made (a :class:`Recorded` array) are
    judged by what :mod:`chimeraboost._shared.predictions` read them as: probabilities,
    ``"scores"`` (a ranking with no decision), a 0/1 rule, or a regression's predictions."""
    if isinstance(estimator, Recorded):
        return {"probabilities": "classification", "predictions": "regression"}.get(
            estimator.kind_, estimator.kind_)
    if estimator_family(estimator) == "classifier":
        if hasattr(estimator, "predict_proba"):
            return "classification"
        if hasattr(estimator, "decision_function"):
            return "ranking"
        return "rule"
    if quantile_levels(estimator) is not None:
        return "quantile"
    return "regression"


class _Scored:
    """One model's output on the rows, its point report and what the bootstrap needs."""

    def __init__(self, estimator, X, y, sample_weight, targets, k, arg, classes=None):
        _check_fitted(estimator, arg)
        self.name, self.task = _name(estimator), _task(estimator)
        check_features(estimator, X, arg, self.name)
        self.evaluator = None
        # What the model said of the rows, for the slices (report(by=...)): its probabilities,
        # scores or predictions (``pred``) and, for a ranking model, its labels.
        self.output = None
        if self.task in ("classification", "ranking", "scores", "rule"):
            self._classify(estimator, X, y, sample_weight, targets, k, classes)
        elif self.task == "quantile":
            self._quantiles(estimator, X, y, sample_weight, targets, k)
        else:
            self._regress(estimator, X, y, sample_weight, targets, k)

    def _classify(self, est, X, y, w, targets, k, classes):
        own = getattr(est, "classes_", None)
        if self.task == "rule":
            y_pred = as_1d(est.predict(X), "predict(X)")
            if own is None:
                own = np.unique(np.concatenate([as_1d(y, "y"), y_pred]))
        own = np.asarray(own)
        self.classes = own if classes is None else classes
        cols = _column_map(own, self.classes)
        kwargs = {"sample_weight": w, "k": k}
        self.binary_score = None  # the score that ranks classes[1] first, for DeLong
        if self.task == "classification":
            proba = np.asarray(est.predict_proba(X))[:, cols]
            if len(self.classes) == 2:
                self.binary_score = proba[:, 1]
            self.point = metrics.classification_report(y, proba, self.classes, baseline=targets,
                                                       **kwargs)
            self.evaluator = metrics.classification_evaluator(
                y, self.classes, proba=proba, baseline=targets, **kwargs
            )
            self.plot_data = {"y": y, "proba": proba, "classes": self.classes,
                              "sample_weight": w}  # what Report.plot draws
            self.output = {"pred": proba}
            return
        if self.task in ("ranking", "scores"):
            score = np.asarray(est.decision_function(X), dtype=np.float64)
            if score.ndim == 2 and score.shape[1] > 1:
                score = score[:, cols]
            elif cols[0] == 1:  # binary, the comparison model's classes in reverse order
                score = -score
            # A model's own predict is its decision; an array of scores has none.
            y_pred = as_1d(est.predict(X), "predict(X)") if self.task == "ranking" else None
        else:
            # A 0/1 rule ranks rows by its own decision: flagged rows first, ties shared.
            score = (y_pred == self.classes[1]).astype(np.float64) if len(self.classes) == 2 \
                else None
        if score is not None and score.ndim == 1:
            self.binary_score = score
        self.output = {"pred": score, "y_pred": y_pred} if self.task in ("ranking", "scores") \
            else {"pred": y_pred}
        self.point = metrics.ranking_report(y, score, self.classes, y_pred=y_pred, **kwargs)
        self.evaluator = metrics.classification_evaluator(
            y, self.classes, score=score, y_pred=y_pred, **kwargs
        )

    def _regress(self, est, X, y, w, targets, k):
        _no_k(k, "a regressor")
        pred = np.asarray(est.predict(X))
        if pred.ndim == 2 and pred.shape[1] == 1:
            pred = pred[:, 0]
        self.point = metrics.regression_report(y, pred, sample_weight=w, baseline=targets)
        self.evaluator = metrics.regression_evaluator(y, pred, sample_weight=w, baseline=targets)
        self.plot_data = {"y": y, "pred": pred, "sample_weight": w}  # what Report.plot draws
        self.output = {"pred": pred}

    def _quantiles(self, est, X, y, w, targets, k):
        _no_k(k, "a quantile regressor")
        self.levels = quantile_levels(est)
        pred = np.asarray(est.predict(X))
        if pred.ndim == 1 and self.levels.size == 1:
            pred = pred[:, None]
        if pred.ndim != 2 or pred.shape[1] != self.levels.size:
            msg = (
                f"{self.name} has {self.levels.size} quantile levels but predict(X) returned "
                f"shape {pred.shape}; expected (n, {self.levels.size})."
            )
            raise ValueError(msg)
        self.point = quantile_metrics.quantile_report(y, pred, self.levels, sample_weight=w,
                                                      baseline=targets)
        self.evaluator = quantile_metrics.quantile_evaluator(y, pred, self.levels,
                                                             sample_weight=w, baseline=targets)


def score_estimator(estimator, X, y, *, sample_weight=None, k=None, classes=None,
                    arg="estimator"):
    """What :func:`report` computes for one fitted estimator, for callers that resample
    several models on the same rows: an object with ``point`` (the report dict), ``evaluator``
    (for :mod:`chimeraboost.resampling`), ``task``, ``name`` and, for classifiers,
    ``classes`` (``classes`` given: the model's columns are put in that order)."""
    return _Scored(estimator, X, y, sample_weight, None, k, arg, classes=classes)


def _no_k(k, what: str) -> None:
    if k is not None:
        msg = f"k (recall@k) applies to binary classifiers; the model is {what}."
        raise ValueError(msg)


def _column_map(own, classes) -> np.ndarray:
    """Indices that put a model's class columns in the order of ``classes``."""
    own = np.asarray(own)
    if len(own) != len(classes) or set(own.tolist()) != set(np.asarray(classes).tolist()):
        msg = (
            f"baseline predicts classes {own.tolist()} but the model predicts "
            f"{np.asarray(classes).tolist()}; a fitted baseline must have the same classes."
        )
        raise ValueError(msg)
    where = {label: i for i, label in enumerate(own.tolist())}
    return np.array([where[label] for label in np.asarray(classes).tolist()])


def _check_same_task(model: _Scored, base_estimator) -> str:
    base_task = _task(base_estimator)
    family = {"classification": "classifier", "ranking": "classifier", "scores": "classifier",
              "rule": "classifier",
              "regression": "regressor", "quantile": "quantile regressor"}
    if family[base_task] != family[model.task]:
        msg = (
            f"baseline is a {family[base_task]} ({_name(base_estimator)}) but the model is a "
            f"{family[model.task]} ({model.name}); a fitted baseline must solve the same task."
        )
        raise ValueError(msg)
    if base_task == "quantile":
        levels = quantile_levels(base_estimator)
        if levels.shape != model.levels.shape or not np.allclose(levels, model.levels):
            msg = (
                f"baseline predicts quantile levels {levels.tolist()} but the model "
                f"{model.levels.tolist()}; a fitted baseline must predict the same levels."
            )
            raise ValueError(msg)
    return base_task
