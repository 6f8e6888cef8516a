"""What does a fitted model say of the rows? The one place that calls its predict methods.

Questions this module answers, and which function answers each:

- What is the model called in a header? :func:`estimator_name`.
- What is the model judged on -- probabilities, a ranking, a 0/1 rule, a regression's
  predictions, quantiles? :func:`task_of`, from what the estimator is, then what it offers.
- What does it output on these rows, its class columns in a given order?
  :func:`predict_outputs` calls ``predict_proba`` / ``decision_function`` / ``predict`` and
  returns an :class:`Outputs`; the report (:func:`chimeraboost.report`) computes its numbers
  from it, and the weak-slice search (:func:`chimeraboost.slices.find_weak_slices`) slices it.
"""

from __future__ import annotations

import numpy as np

from .array_checks import as_1d
from .estimator_checks import check_features, check_fitted, estimator_family, quantile_levels
from .predictions import Recorded

__all__ = ["Outputs", "column_map", "estimator_name", "predict_outputs", "rung_note",
           "task_of"]


def estimator_name(estimator) -> str:
    """``LogisticRegression``; ``Pipeline(StandardScaler, LogisticRegression)``;
    ``GridSearchCV(LogisticRegression)``: enough to tell two models apart in a header."""
    name = type(estimator).__name__
    if hasattr(estimator, "steps"):
        return f"{name}({', '.join(estimator_name(step) for _, step in estimator.steps)})"
    inner = getattr(estimator, "best_estimator_", None)
    if inner is not None:
        return f"{name}({estimator_name(inner)})"
    return name


def rung_note(estimator) -> str | None:
    """Which rung of the ladder a fitted ChimeraBoost model is (its ``rung_``, on the model
    itself, the last step of a pipeline or a search's best estimator), in words for a
    report's header; None for any other model.

    >>> from types import SimpleNamespace
    >>> rung_note(SimpleNamespace(rung_="blend", tree_weight_=0.625))
    'rung: blend, tree weight 0.62'
    >>> rung_note(SimpleNamespace(rung_="linear", tree_weight_=0.0)), rung_note(object())
    ('rung: linear, tree weight 0', None)
    """
    while True:
        if hasattr(estimator, "steps"):
            estimator = estimator.steps[-1][1]
        elif getattr(estimator, "best_estimator_", None) is not None:
            estimator = estimator.best_estimator_
        else:
            break
    try:
        rung = estimator.rung_
    except AttributeError:  # not a ChimeraBoost model, or not fitted
        return None
    if not isinstance(rung, str):
        return None
    weight = getattr(estimator, "tree_weight_", None)
    if rung == "blend" and weight is not None:
        return f"rung: blend, tree weight {weight:.2f}"
    return "rung: linear, tree weight 0" if rung == "linear" else f"rung: {rung}"


def task_of(estimator) -> str:
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


class Outputs:
    """One fitted model's output on the rows.

    ``name`` and ``task`` (:func:`task_of`); for a classifier, ``classes`` (the column order)
    and ``proba`` (``predict_proba``), ``score`` (what ranks the rows: ``decision_function``,
    or a binary 0/1 rule's flag) and ``y_pred`` (``predict``, where the model decides);
    ``binary_score``, the score that ranks ``classes[1]`` first (for DeLong); for a regressor,
    ``pred``; for a quantile regressor, ``pred`` of shape ``(n, len(levels))`` and ``levels``.
    ``output`` is what the slices take -- ``{"pred": ..., "y_pred": ...}`` -- and ``None``
    for quantiles, which the slices do not cover.
    """

    def __init__(self, name: str, task: str):
        self.name, self.task = name, task
        self.classes = self.levels = self.binary_score = None
        self.proba = self.score = self.y_pred = self.pred = None
        self.output = None


def predict_outputs(estimator, X, y, *, classes=None, arg: str = "estimator") -> Outputs:
    """Call the predict methods of a fitted ``estimator`` on ``X``: an :class:`Outputs`.

    ``classes`` given, a classifier's columns are put in that order (an error names ``arg``
    when the model's classes differ); ``y`` is only read for the classes a 0/1 rule without
    ``classes_`` decides between.
    """
    name = estimator_name(estimator)
    check_fitted(estimator, arg, name)
    out = Outputs(name, task_of(estimator))
    check_features(estimator, X, arg, name)
    if out.task in ("classification", "ranking", "scores", "rule"):
        _classify(out, estimator, X, y, classes)
    elif out.task == "quantile":
        _quantiles(out, estimator, X)
    else:
        pred = np.asarray(estimator.predict(X))
        out.pred = pred[:, 0] if pred.ndim == 2 and pred.shape[1] == 1 else pred
        out.output = {"pred": out.pred}
    return out


def _classify(out: Outputs, est, X, y, classes) -> None:
    own = getattr(est, "classes_", None)
    if out.task == "rule":
        out.y_pred = as_1d(est.predict(X), "predict(X)")
        if own is None:
            own = np.unique(np.concatenate([as_1d(y, "y"), out.y_pred]))
    own = np.asarray(own)
    out.classes = own if classes is None else classes
    cols = column_map(own, out.classes)
    if out.task == "classification":
        out.proba = np.asarray(est.predict_proba(X))[:, cols]
        if len(out.classes) == 2:
            out.binary_score = out.proba[:, 1]
        out.output = {"pred": out.proba}
        return
    if out.task in ("ranking", "scores"):
        score = np.asarray(est.decision_function(X), dtype=np.float64)
        if score.ndim == 2 and score.shape[1] > 1:
            score = score[:, cols]
        elif cols[0] == 1:  # binary, the comparison model's classes in reverse order
            score = -score
        # A model's own predict is its decision; an array of scores has none.
        out.y_pred = as_1d(est.predict(X), "predict(X)") if out.task == "ranking" else None
        out.output = {"pred": score, "y_pred": out.y_pred}
    else:
        # A 0/1 rule ranks rows by its own decision: flagged rows first, ties shared.
        score = (out.y_pred == out.classes[1]).astype(np.float64) if len(out.classes) == 2 \
            else None
        out.output = {"pred": out.y_pred}
    out.score = score
    if score is not None and score.ndim == 1:
        out.binary_score = score


def _quantiles(out: Outputs, est, X) -> None:
    out.levels = quantile_levels(est)
    pred = np.asarray(est.predict(X))
    if pred.ndim == 1 and out.levels.size == 1:
        pred = pred[:, None]
    if pred.ndim != 2 or pred.shape[1] != out.levels.size:
        msg = (
            f"{out.name} has {out.levels.size} quantile levels but predict(X) returned "
            f"shape {pred.shape}; expected (n, {out.levels.size})."
        )
        raise ValueError(msg)
    out.pred = pred


def column_map(own, classes) -> np.ndarray:
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
