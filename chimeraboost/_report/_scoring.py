"""What is a fitted model judged on, and what does it output on the rows?

:class:`_Scored` takes what the model says of the rows from
:func:`chimeraboost._shared.estimator_outputs.predict_outputs` (the one place that calls
``predict_proba`` / ``decision_function`` / ``predict``, its class columns in a common order)
and keeps the point report (from :mod:`chimeraboost.metrics` or
:mod:`chimeraboost.quantile_metrics`) with the evaluator the bootstrap resamples.
:func:`score_estimator` gives the same to callers that resample several models on one set of
rows; :func:`_check_same_task` whether a fitted baseline solves the model's task.
"""

from __future__ import annotations

import numpy as np

from .. import metrics, quantile_metrics
from .._shared.estimator_outputs import estimator_name as _name
from .._shared.estimator_outputs import predict_outputs, task_of
from .._shared.validation import check_fitted, quantile_levels

__all__ = ["score_estimator"]


def _check_fitted(estimator, arg: str) -> None:
    check_fitted(estimator, arg, _name(estimator))


class _Scored:
    """One model's output on the rows, its point report and what the bootstrap needs."""

    def __init__(self, estimator, X, y, sample_weight, targets, k, arg, classes=None):
        out = predict_outputs(estimator, X, y, classes=classes, arg=arg)
        self.name, self.task = out.name, out.task
        self.evaluator = None
        # What the model said of the rows, for the slices (report(by=...)): its probabilities,
        # scores or predictions (``pred``) and, for a ranking model, its labels.
        self.output = out.output
        if self.task in ("classification", "ranking", "scores", "rule"):
            self._classify(out, y, sample_weight, targets, k)
        elif self.task == "quantile":
            _no_k(k, "a quantile regressor")
            self.levels = out.levels
            self.point = quantile_metrics.quantile_report(y, out.pred, self.levels,
                                                          sample_weight=sample_weight, baseline=targets)
            self.evaluator = quantile_metrics.quantile_evaluator(y, out.pred, self.levels,
                                                                 sample_weight=sample_weight, baseline=targets)
        else:
            _no_k(k, "a regressor")
            w, pred = sample_weight, out.pred
            self.point = metrics.regression_report(y, pred, sample_weight=w, baseline=targets)
            self.evaluator = metrics.regression_evaluator(y, pred, sample_weight=w, baseline=targets)
            self.plot_data = {"y": y, "pred": pred, "sample_weight": w}  # what Report.plot draws

    def _classify(self, out, y, w, targets, k):
        self.classes = out.classes
        self.binary_score = out.binary_score  # the score that ranks classes[1] first, for DeLong
        kwargs = {"sample_weight": w, "k": k}
        if self.task == "classification":
            self.point = metrics.classification_report(y, out.proba, self.classes,
                                                       baseline=targets, **kwargs)
            self.evaluator = metrics.classification_evaluator(
                y, self.classes, proba=out.proba, baseline=targets, **kwargs
            )
            self.plot_data = {"y": y, "proba": out.proba, "classes": self.classes,
                              "sample_weight": w}  # what Report.plot draws
            return
        self.point = metrics.ranking_report(y, out.score, self.classes, y_pred=out.y_pred,
                                            **kwargs)
        self.evaluator = metrics.classification_evaluator(
            y, self.classes, score=out.score, y_pred=out.y_pred, **kwargs
        )


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


def _check_same_task(model: _Scored, base_estimator) -> str:
    base_task = task_of(base_estimator)
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
