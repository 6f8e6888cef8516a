"""What did the model say about the rows, and what is each slice's evaluator?

Questions this module answers:

- *Is it a classification or a regression, and over which classes?* -> :func:`task_of`, read
  off ``y``, the shape of the predictions and ``classes`` (or given as ``task=``).
- *What is one model's output on the rows, validated once?* -> :class:`Output`: the
  evaluator of all rows (from :mod:`chimeraboost.metrics`, which checks every input), the
  per-row losses the slices sum, and :meth:`Output.evaluator` -- the same evaluator on a
  slice's rows, so that a slice's numbers are exactly ``chimeraboost.metrics``' on them.
"""

from __future__ import annotations

import numpy as np

from .. import metrics
from .._shared.scores import row_losses
from .._shared.validation import as_1d, check_proba, encode_labels, read_classes, to_numpy

TASKS = ("classification", "ranking", "rule", "regression")


def task_of(y, pred, classes, task):
    """``(task, classes)``: as given, or read off the inputs -- ``classes`` given, 2-D
    predictions, or labels that are strings, booleans or only 0 and 1 make a classification
    with probabilities; any other numeric ``y`` a regression."""
    if task is not None and task not in TASKS:
        msg = f"task must be one of {list(TASKS)} or None (read off the inputs), got {task!r}."
        raise ValueError(msg)
    if task == "regression":
        return task, None
    found, classes = read_classes(y, pred, classes, classification=task is not None)
    return task or found, classes


class Output:
    """One model's output on the rows: validated by the evaluator of all rows, with the
    per-row numbers whose sums give a slice's (and the rest's) additive numbers.

    ``task`` says what ``pred`` is: probabilities (``"classification"``), scores that rank
    (``"ranking"``, with the hard labels ``y_pred``; ``"scores"``, an array of scores with
    none), hard labels (``"rule"``) or a
    regressor's predictions. ``rows`` (per-row arrays, float64, each times the row's
    weight): ``weight``; for a classification ``class_k`` indicators, ``correct`` (the
    predicted class is the true one) and ``hit_k`` (correct and of class k), and with
    probabilities ``log_loss`` and ``brier``; for a regression ``sq`` (squared error), ``yc``
    and ``yc2`` (y centred on its weighted mean, and its square). ``per_row`` holds the
    losses (and ``yc``) unweighted.
    """

    def __init__(self, task, y, pred, classes, sample_weight, y_pred=None, name="proba_or_pred"):
        self.task, self.classes = task, classes
        self.sample_weight = sample_weight
        w = np.ones(len(as_1d(y, "y"))) if sample_weight is None else sample_weight
        pred = _named(pred, name, len(w), classes if task == "classification" else None)
        if task == "regression":
            self._regression(y, pred, w, name)
        else:
            self._classification(y, pred, y_pred, w, name)
        self.n = self.whole.n

    def _regression(self, y, pred, w, name):
        self.whole = metrics.regression_evaluator(y, pred, sample_weight=self.sample_weight)
        self.y = np.asarray(as_1d(y, "y"), dtype=np.float64)
        self.pred = np.asarray(as_1d(pred, name), dtype=np.float64)
        centre = float(np.average(self.y, weights=w))
        yc = self.y - centre
        self.per_row = {"sq": (self.y - self.pred) ** 2, "yc": yc}
        self.rows = {"weight": w, "sq": w * self.per_row["sq"], "yc": w * yc,
                     "yc2": w * yc * yc}
        self.centre = centre

    def _classification(self, y, pred, y_pred, w, name):
        classes, K = self.classes, len(self.classes)
        proba = score = None
        if self.task == "classification":
            proba = pred
        elif self.task in ("ranking", "scores"):  # scores (an array of them): no labels
            score = pred
        else:
            y_pred = pred if y_pred is None else y_pred
        if self.task == "rule" and K == 2:
            # A 0/1 rule ranks rows by its own decision: flagged rows first, ties shared.
            score = (as_1d(y_pred, "y_pred") == classes[1]).astype(np.float64)
        self.whole = metrics.classification_evaluator(y, classes, proba=proba, score=score,
                                                      y_pred=y_pred,
                                                      sample_weight=self.sample_weight)
        self.codes = self.whole.codes
        self.proba = None if proba is None else check_proba(proba, classes)
        self.score = None if score is None else _array(score)
        self.y_pred = None if y_pred is None else as_1d(y_pred, "y_pred")
        self.rows, self.per_row = {"weight": w}, {}
        for k in range(K):
            self.rows[f"class_{k}"] = w * (self.codes == k)
        pred_codes = None
        if self.proba is not None:
            ll, brier, pred_codes = row_losses(self.proba, self.codes)
            self.per_row["log_loss"], self.per_row["brier"] = ll, brier
        elif self.y_pred is not None:
            pred_codes = encode_labels(self.y_pred, classes, "y_pred")
        if pred_codes is not None:
            self.per_row["correct"] = (pred_codes == self.codes).astype(np.float64)
        for key, v in self.per_row.items():
            self.rows[key] = w * v
        if "correct" in self.rows:  # per-class hits: the recalls of the balanced accuracy
            for k in range(K):
                self.rows[f"hit_{k}"] = self.rows[f"class_{k}"] * self.per_row["correct"]

    def evaluator(self, rows):
        """The evaluator of :mod:`chimeraboost.metrics` on the rows ``rows`` (indices)."""
        w = None if self.sample_weight is None else self.sample_weight[rows]
        if self.task == "regression":
            return metrics.regression_evaluator(self.y[rows], self.pred[rows], sample_weight=w)
        labels = self.classes[self.codes[rows]]
        return metrics.classification_evaluator(
            labels, self.classes, sample_weight=w,
            proba=None if self.proba is None else self.proba[rows],
            score=None if self.score is None else self.score[rows],
            y_pred=None if self.y_pred is None else self.y_pred[rows])

    def class_counts(self, rows) -> np.ndarray:
        """Unweighted rows of each class among ``rows``."""
        return np.bincount(self.codes[rows], minlength=len(self.classes))


def _named(pred, name, n, classes):
    """``pred`` checked under its own name (``baseline``, ``proba_or_pred``) before the
    evaluator's checks, which call every prediction ``proba``: probabilities as
    probabilities of ``classes`` (when given), one entry per row of ``y``."""
    arr = check_proba(pred, classes, name) if classes is not None else to_numpy(pred, name)
    if arr.shape[0] != n:
        msg = (f"{name} has {arr.shape[0]} rows but y has {n}; pass the predictions for the "
               "same rows.")
        raise ValueError(msg)
    # A binary column comes back as (1 - p, p); the evaluator takes it as given.
    return pred


def _array(x) -> np.ndarray:
    arr = np.asarray(to_numpy(x, "score"), dtype=np.float64)
    return arr[:, 0] if arr.ndim == 2 and arr.shape[1] == 1 else arr
