"""What the command line computes on a file of predictions: ``report FILE`` and ``table FILE``.

Questions answered here (:mod:`chimeraboost.__main__` parses the arguments and prints):

- Is the system that wrote this column any good? :func:`file_report` -- the column is read
  by :func:`read_kind` (probabilities, scores, a 0/1 rule or predictions) and scored by
  :func:`chimeraboost.report`, exactly as a fitted model making those predictions would be;
  ``--baseline-score`` makes the paired comparison of :func:`chimeraboost.report` with a
  fitted baseline.
- How do several systems' columns compare on the same rows? :func:`file_table` --
  :func:`chimeraboost.compare.holdout_table` with each column as an array.

Nothing is recomputed here: a column becomes a "recorded" estimator whose
``predict_proba`` / ``decision_function`` / ``predict`` return the file's values for the row
numbers it is given, so every number comes from :mod:`chimeraboost.metrics` through the
library's own report and holdout table.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

from . import _files
from .compare import holdout_table
from ._progress import working
from ._report import report

__all__ = ["file_report", "file_table", "read_kind", "to_json"]

KINDS = ("probabilities", "scores", "rule", "predictions")


# --------------------------------------------------------------------------- the target


def read_target(cells, column, path, *, classes=None, regression=False):
    """``(y, classes)``: ``classes`` None for a regression.

    The rule: ``--regression``, or a numeric target with more than two distinct values, is a
    regression; otherwise the target must hold two classes (the second of ``classes``, or of
    the sorted labels, is the positive class).
    """
    y = _files.labels(cells, column, path)
    if regression:
        if y.dtype.kind not in "iuf":
            y = _files.numbers(cells, column, path)  # names the first non-number
        return y.astype(np.float64), None
    if classes is not None:
        if len(classes) != 2 or classes[0] == classes[1]:
            msg = f"--classes takes two different labels (negative, then positive), got {classes}."
            raise ValueError(msg)
        text = np.array([str(v) for v in y.tolist()])
        unknown = sorted(set(text.tolist()) - set(classes))
        if unknown:
            msg = (f"{path}: column {column!r} holds labels {unknown[:5]} that are not in "
                   f"--classes {list(classes)}.")
            raise ValueError(msg)
        # Keep the labels' own type when they are numbers: "0", "1" stay 0 and 1.
        same = {str(v): v for v in y.tolist()}
        ordered = [same.get(c, c) for c in classes]
        return y, np.array(ordered) if y.dtype.kind in "iu" else np.array(classes)
    found = np.unique(y)
    if y.dtype.kind in "iuf" and found.size > 2:
        return y.astype(np.float64), None
    if found.size == 2:
        return y, found
    if y.dtype.kind in "iu" and set(found.tolist()) <= {0, 1}:
        return y, np.array([0, 1])  # one class present; 0/1 says what the other is
    shown = found.tolist()[:6]
    msg = (f"{path}: column {column!r} holds {found.size} label{'s' if found.size != 1 else ''} "
           f"{shown}{' ...' if found.size > 6 else ''}; a classification target needs two "
           "classes (use --classes NEG POS to name them, or --regression for a numeric target).")
    raise ValueError(msg)


# --------------------------------------------------------------------------- a column of predictions


def read_kind(values, task: str) -> str:
    """What a column of numbers is, for a classification: only 0 and 1 -- a **rule** (1 flags
    the positive class); all in [0, 1] -- **probabilities** of the positive class; anything
    else -- **scores** that rank the rows (higher means positive). For a regression, the
    column is the **predictions**."""
    if task == "regression":
        return "predictions"
    if np.all((values == 0) | (values == 1)):
        return "rule"
    if np.all((values >= 0) & (values <= 1)):
        return "probabilities"
    return "scores"


class _Recorded(BaseEstimator):
    """Predictions a system already made, replayed: ``X`` holds row numbers into them."""

    def __init__(self, values=None, classes=None):
        self.values = values
        self.classes = classes

    def _rows(self, X):
        return self.values_[np.asarray(X)[:, 0].astype(np.intp)]

    @classmethod
    def of(cls, values, classes=None):
        est = cls(values, classes)
        est.values_ = np.asarray(values, dtype=np.float64)
        if classes is not None:
            est.classes_ = np.asarray(classes)
        return est


class _RecordedProba(ClassifierMixin, _Recorded):
    def predict_proba(self, X):
        p = self._rows(X)
        return np.column_stack([1.0 - p, p])

    def predict(self, X):
        return self.classes_[(self._rows(X) >= 0.5).astype(np.intp)]


class _RecordedScore(ClassifierMixin, _Recorded):
    def decision_function(self, X):
        return self._rows(X)

    def predict(self, X):
        # As scikit-learn reads a decision function: above 0 is the positive class.
        return self.classes_[(self._rows(X) > 0).astype(np.intp)]


class _RecordedRule(ClassifierMixin, _Recorded):
    def predict(self, X):
        return self.classes_[self._rows(X).astype(np.intp)]


class _RecordedRegression(RegressorMixin, _Recorded):
    def predict(self, X):
        return self._rows(X)


_RECORDED = {"probabilities": _RecordedProba, "scores": _RecordedScore, "rule": _RecordedRule,
             "predictions": _RecordedRegression}


def recorded(values, kind, classes=None):
    """A fitted estimator whose predictions on ``row_numbers(n)`` are ``values``."""
    return _RECORDED[kind].of(values, None if kind == "predictions" else classes)


def row_numbers(n) -> np.ndarray:
    return np.arange(n, dtype=np.float64).reshape(-1, 1)


# --------------------------------------------------------------------------- the two commands


def _read(path, target, scores, weight, classes, regression):
    cols = _files.read_columns(path, [target, *scores, *([weight] if weight else [])])
    y, classes = read_target(cols[target], target, path, classes=classes, regression=regression)
    task = "regression" if classes is None else "classification"
    what = "predictions" if task == "regression" else "probabilities, scores or 0/1 flags"
    values = {s: _files.numbers(cols[s], s, path, what=what) for s in scores}
    w = None
    if weight:
        w = _files.numbers(cols[weight], weight, path, what="weights")
    return y, classes, task, values, w


def file_report(path, *, target, score, baseline_score=None, classes=None, weight=None,
                ci=0.95, n_boot=2000, k=None, regression=False, random_state=0, verbose=True):
    """``(Report, kinds)``: the report of the column ``score`` of the file at ``path``, with
    the paired comparison against ``baseline_score`` when given; ``kinds`` maps each column
    to what it was read as (:func:`read_kind`)."""
    scores = [score, *([baseline_score] if baseline_score else [])]
    if baseline_score == score:
        msg = f"--baseline-score {baseline_score!r} is the --score column itself; name another."
        raise ValueError(msg)
    y, classes, task, values, w = _read(path, target, scores, weight, classes, regression)
    kinds = {s: read_kind(values[s], task) for s in scores}
    X = row_numbers(len(y))
    model = recorded(values[score], kinds[score], classes)
    base = recorded(values[baseline_score], kinds[baseline_score], classes) \
        if baseline_score else None
    resampled = base is not None or ci is not None
    with working(f"chimeraboost: {n_boot:,} bootstrap resamples of {len(y):,} rows",
                 verbose=verbose and resampled):
        rep = report(model, X, y, baseline=base, sample_weight=w, ci=ci, n_boot=n_boot,
                     random_state=random_state, k=k, name=score, baseline_name=baseline_score)
    return rep, kinds


def file_table(path, *, target, scores, baseline=None, primary=None, split=None, weight=None,
               classes=None, regression=False, ci=0.95, n_boot=2000, random_state=0,
               verbose=True):
    """The holdout table of the columns ``scores`` of the file at ``path``, in their order."""
    if len(set(scores)) != len(scores):
        twice = sorted({s for s in scores if scores.count(s) > 1})
        msg = f"--score {twice} given more than once; each column is one row of the table."
        raise ValueError(msg)
    y, classes, task, values, w = _read(path, target, scores, weight, classes, regression)
    if classes is not None:
        # holdout_table takes the positive class from the sorted labels: code the target
        # 0/1 so that the positive class is the one named.
        y = (y == classes[1]).astype(np.int64)
    with working(f"chimeraboost: {n_boot:,} bootstrap resamples of {len(y):,} rows, "
                 f"{len(scores)} columns", verbose=verbose):
        return holdout_table(values, row_numbers(len(y)), y, baseline=baseline, primary=primary,
                             split=split, ci=ci, n_boot=n_boot, sample_weight=w,
                             random_state=random_state)


# --------------------------------------------------------------------------- JSON


def plain(value):
    """JSON-ready: numpy to Python, tuples to lists, NaN and infinities to None."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def to_json(rep, kinds, path) -> dict:
    """Every number of a :class:`Report` from :func:`file_report`, ready for ``json.dumps``."""
    out = {"file": str(path), "model": rep.estimator_name, "kind": kinds[rep.estimator_name],
           "task": rep.task, "reference": rep.reference(), "ci_level": rep.ci_level,
           "n_boot": rep.n_boot if (rep.ci or rep.vs_baseline is not None) else None,
           "metrics": {key: v for key, v in rep.to_dict().items()
                       if key not in ("ci", "vs_baseline")}}
    if rep.ci is not None:
        out["ci"] = {key: {"low": lo, "high": hi} for key, (lo, hi) in rep.ci.items()}
        if any(rep.n_dropped.values()):
            out["ci_left_out"] = dict(rep.n_dropped)
    if rep.vs_baseline is not None:
        base = rep.baseline_report
        out["baseline"] = {"model": base.estimator_name, "kind": kinds[base.estimator_name],
                           "metrics": base.to_dict()}
        out["vs_baseline"] = {key: {"difference": d, "low": lo, "high": hi}
                              for key, (d, lo, hi) in rep.vs_baseline.items()}
        d = rep.delong_vs_baseline
        if d is not None:
            out["delong_roc_auc"] = {"difference": d.estimate, "se": d.se, "low": d.low,
                                     "high": d.high, "pvalue": d.pvalue}
    return plain(out)
