"""What is an array of predictions a system already made, and what can be computed from it?

Decided once, here, for every path that takes such arrays -- the arrays of
:func:`chimeraboost.compare.holdout_table`, the columns of ``chimeraboost report FILE`` and
``chimeraboost table FILE`` -- so that one column is read the same way by each of them:

- What is this array? :func:`kind_of` (the rule) and :func:`read_predictions` (the rule after
  the checks): a **0/1 rule**, **probabilities**, **scores** that only rank the rows, or,
  for a regression, **predictions**.
- Which numbers can each kind of output give? :func:`lacks`, from :data:`OFFERS` and the
  ``needs`` column of the table of metric facts: probabilities give every number; a 0/1 rule
  gives a decision (accuracy, F1), ranks the rows by its flag and acts at any threshold (its
  flag); scores rank the rows and nothing else -- their threshold is unknown (a log-odds and
  a risk score from 0 to 100 would need different cut-offs), so accuracy, F1 and a decision
  at a threshold of scores are not defined.
- How does such an array reach :func:`chimeraboost.report`? :func:`recorded`: a fitted
  estimator that replays the array for row numbers (:func:`row_numbers`) and carries its kind,
  which the report reads instead of guessing from the estimator's methods.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

from .array_checks import as_1d, check_aligned, finite_float, to_numpy
from .facts import needs
from .proba_checks import PROBA_SUM_TOL, label_columns

__all__ = ["KINDS", "OFFERS", "Predictions", "Recorded", "kind_of", "lacks",
           "read_predictions", "recorded", "row_numbers"]

KINDS = ("probabilities", "scores", "rule", "predictions")

_ALL = frozenset({"probabilities", "decision", "ranking", "threshold"})
# What each kind of classifier output offers, by the names of the report's tasks
# ("classification": a model's predict_proba; "ranking": a model's decision_function with
# its own predict) and of the array kinds above.
OFFERS = {
    "classification": _ALL,
    "probabilities": _ALL,
    "ranking": frozenset({"decision", "ranking"}),
    "rule": frozenset({"decision", "ranking", "threshold"}),
    "scores": frozenset({"ranking"}),
}


def lacks(kind: str, key: str, *, binary: bool = True) -> str | None:
    """What output of ``kind`` lacks to give ``key`` (``"probabilities"``, ``"decision"``,
    ``"ranking"``, ``"threshold"``), or None when it can give it. A multiclass 0/1 rule has no ranking (its
    decision is a label, not an order of the rows by one class)."""
    need = needs(key)
    if need is None or kind not in OFFERS:
        return None
    if kind == "rule" and need == "ranking" and not binary:
        return need
    return None if need in OFFERS[kind] else need


def kind_of(values: np.ndarray, n_classes: int) -> str:
    """The rule, on finite numbers: 1-D only 0 and 1 (binary) -- a **rule** (1 flags the
    second class); 1-D in [0, 1] (binary), or (n, K) in [0, 1] with rows summing to 1 within
    1e-6 -- **probabilities**; anything else -- **scores**."""
    in_unit = bool(np.all((values >= 0) & (values <= 1)))
    if values.ndim == 1 and n_classes == 2 and np.all((values == 0) | (values == 1)):
        return "rule"
    if values.ndim == 1 and n_classes == 2 and in_unit:
        return "probabilities"
    if values.ndim == 2 and in_unit and np.allclose(values.sum(axis=1), 1.0, rtol=0,
                                                    atol=PROBA_SUM_TOL):
        return "probabilities"
    return "scores"


class Predictions(NamedTuple):
    """An array read by :func:`read_predictions`: its ``kind`` and its ``values`` (float64;
    (n, K) columns in the order of the classes, or 1-D)."""

    kind: str
    values: np.ndarray


def read_predictions(values, y, classes, arg: str) -> Predictions:
    """``values`` checked against ``y`` and read by :func:`kind_of`; ``classes`` None reads
    them as a regression's predictions.

    Refused by name: another index than ``y``'s (a Series paired wrongly), another number of
    rows, text, NaN or infinity, another number of columns than classes, a DataFrame whose
    columns are not the class labels, a binary (n, 2) array in [0, 1] whose rows do not sum
    to 1 (neither probabilities nor one score), and a 1-D array for more than two classes.
    """
    check_aligned(**{"y": y, arg: values})
    arr = to_numpy(values, arg)  # sparse, sets, iterators, None, scalars: refused by name
    n = len(as_1d(y, "y"))
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim not in (1, 2) or arr.shape[0] != n:
        msg = (f"{arg} is an array of shape {arr.shape} but y has {n} rows; pass one value "
               "(or one row of class probabilities) per held-out row.")
        raise ValueError(msg)
    if arr.dtype.kind not in "biuf":
        msg = (f"{arg} holds {arr.dtype} values; an array of predictions must hold numbers "
               "(probabilities, scores, 0/1 flags or predictions).")
        raise TypeError(msg)
    if classes is None:
        if arr.ndim != 1:
            msg = f"{arg} must be 1-D predictions for a regression, got shape {arr.shape}."
            raise ValueError(msg)
        return Predictions("predictions", finite_float(arr, arg))
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        msg = f"{arg} contains NaN or infinite values; expected finite numbers."
        raise ValueError(msg)
    K = len(classes)
    if arr.ndim == 2 and arr.shape[1] != K:
        msg = (f"{arg} has {arr.shape[1]} columns but y has {K} classes "
               f"{np.asarray(classes).tolist()}; pass one column per class, in the order of "
               "the classes.")
        raise ValueError(msg)
    if arr.ndim == 2:
        # A DataFrame's columns are matched to the classes by label, never by position.
        order = label_columns(values, classes, arg)
        if order is not None:
            arr = arr[:, order]
    kind = kind_of(arr, K)
    if kind == "scores" and arr.ndim == 2 and K == 2 and np.all((arr >= 0) & (arr <= 1)):
        sums = arr.sum(axis=1)
        msg = (f"{arg} has 2 columns in [0, 1] whose rows sum to {sums.min():.6g}.."
               f"{sums.max():.6g}, not 1: they are not probabilities. Pass probabilities whose "
               "rows sum to 1, or the 1-D score (or probability) of the second class.")
        raise ValueError(msg)
    if arr.ndim == 1 and K != 2:
        msg = (f"{arg} is 1-D but y has {K} classes; pass (n, {K}) class probabilities or "
               "scores, columns in the order of the classes.")
        raise ValueError(msg)
    return Predictions(kind, arr)


# --------------------------------------------------------------------------- replayed


class Recorded(BaseEstimator):
    """Predictions a system already made, replayed as a fitted estimator: ``X`` holds row
    numbers into them (:func:`row_numbers`). ``kind_`` is what :func:`read_predictions`
    decided; :func:`chimeraboost.report` judges the estimator by it."""

    def __init__(self, values=None, classes=None):
        self.values = values
        self.classes = classes

    def _rows(self, X):
        return self.values_[np.asarray(X)[:, 0].astype(np.intp)]


class _Probabilities(ClassifierMixin, Recorded):
    def predict_proba(self, X):
        p = self._rows(X)
        return np.column_stack([1.0 - p, p]) if p.ndim == 1 else p

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


class _Scores(ClassifierMixin, Recorded):
    def decision_function(self, X):
        return self._rows(X)

    def predict(self, X):
        msg = ("these are scores that rank the rows: with no threshold they make no decision "
               "(accuracy and F1 are not defined for them).")
        raise TypeError(msg)


class _Rule(ClassifierMixin, Recorded):
    def predict(self, X):
        return self.classes_[self._rows(X).astype(np.intp)]


class _Predictions(RegressorMixin, Recorded):
    def predict(self, X):
        return self._rows(X)


_RECORDED = {"probabilities": _Probabilities, "scores": _Scores, "rule": _Rule,
             "predictions": _Predictions}


def recorded(predictions: Predictions, classes=None) -> Recorded:
    """A fitted estimator whose outputs on ``row_numbers(n)`` are ``predictions.values``."""
    kind, values = predictions
    est = _RECORDED[kind](values, None if kind == "predictions" else classes)
    est.values_ = np.asarray(values, dtype=np.float64)
    est.kind_ = kind
    if kind != "predictions":
        est.classes_ = np.asarray(classes)
    return est


def row_numbers(n: int) -> np.ndarray:
    """The ``X`` of a :class:`Recorded` estimator for all its ``n`` rows."""
    return np.arange(n, dtype=np.float64).reshape(-1, 1)
