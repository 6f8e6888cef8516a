"""Are these the inputs of a decision: a binary target, a probability (or a 0/1 rule) per row,
thresholds strictly inside (0, 1), and costs that say something?

Every public function of :mod:`chimeraboost.decisions` calls these first, so that a bad
argument is named in the error; the questions:

- Which rows are positive, with which weights? :func:`check_target` (one class is legal: the
  numbers that need both classes come out NaN with a warning where they are computed).
- Is the score a probability, as a probability threshold needs? :func:`check_probability`.
- Are the thresholds inside (0, 1)? :func:`check_thresholds`.
- What does each decision cost? :func:`check_costs` (a matrix, or ``cost_fp`` / ``cost_fn``
  with benefits of correct decisions) and the Bayes threshold they imply,
  :func:`bayes_threshold`.
"""

from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np

from .._shared.validation import (
    PROBA_RANGE_TOL,
    binary_target,
    check_aligned,
    check_numeric_1d,
    check_sample_weight,
    check_same_length,
)

__all__ = ["BUILT_IN_ROWS", "Costs", "bayes_threshold", "bayes_value", "check_costs", "check_names",
           "check_probability", "check_target", "check_threshold", "check_thresholds", "key"]

# The rows every decision table and curve holds besides the models: a model may not take
# one of these names, or its numbers would replace (or be replaced by) the reference's.
BUILT_IN_ROWS = ("treat all", "treat none")


def key(name: str, threshold: float) -> str:
    """The report key of a number at a threshold: ``net_benefit@0.2``."""
    return f"{name}@{float(threshold)!r}"


def check_target(y, score, sample_weight, pos_label, score_name: str = "score"):
    """``(event, score, sample_weight)``: 0/1 codes of the positive class, the score as
    float64, the weights checked (None stays None)."""
    check_aligned(y=y, **{score_name: score}, sample_weight=sample_weight)
    event = binary_target(y, pos_label, "y")
    s = check_numeric_1d(score, score_name)
    check_same_length(y=event, **{score_name: s})
    w = check_sample_weight(sample_weight, event.shape[0])
    return event.astype(bool), s, w


def check_probability(score: np.ndarray, name: str = "score") -> np.ndarray:
    """A score compared with a probability threshold must be a probability (or a 0/1 rule)."""
    lo, hi = float(score.min()), float(score.max())
    if lo < -PROBA_RANGE_TOL or hi > 1 + PROBA_RANGE_TOL:
        msg = (f"{name} must hold probabilities in [0, 1] (or a 0/1 rule) to be compared with a "
               f"probability threshold; got values in [{lo:.6g}, {hi:.6g}]. Pass "
               "predict_proba(X)[:, 1], or calibrate the scores first "
               "(sklearn.calibration.CalibratedClassifierCV).")
        raise ValueError(msg)
    return np.clip(score, 0.0, 1.0)


def check_thresholds(thresholds, name: str = "thresholds") -> np.ndarray:
    """A 1-D float64 array of thresholds strictly inside (0, 1) (a scalar becomes one)."""
    if isinstance(thresholds, (bool, np.bool_)):
        msg = f"{name} must be a number or an array of numbers in (0, 1), got {thresholds!r}."
        raise TypeError(msg)
    if isinstance(thresholds, numbers.Real):
        thresholds = [thresholds]
    arr = check_numeric_1d(thresholds, name)
    bad = (arr <= 0) | (arr >= 1)
    if np.any(bad):
        msg = (f"{name} must lie strictly inside (0, 1): a threshold probability t weighs a "
               f"false positive t/(1-t) times a true positive, infinite at 1 and nothing at 0; "
               f"got {arr[bad][:5].tolist()}.")
        raise ValueError(msg)
    return arr


def check_threshold(threshold, name: str = "threshold") -> float:
    """One threshold strictly inside (0, 1): a list or array of several is refused, never
    cut to its first value."""
    if np.ndim(threshold) != 0:
        msg = (f"{name} must be one number in (0, 1), got {np.size(threshold)} values "
               f"({np.ravel(threshold)[:5].tolist()}); call once per threshold, or use "
               "net_benefit / decision_curve for several.")
        raise TypeError(msg)
    value = threshold.item() if isinstance(threshold, np.ndarray) else threshold
    return float(check_thresholds(value, name)[0])


def check_names(names) -> None:
    """Refuse a model named like a built-in row (``"treat all"``, ``"treat none"``):
    ``names`` holds ``(where the name came from, the name)`` pairs (``("name", "m")``,
    ``("a key of scores", "m")``)."""
    for arg, value in names:
        if isinstance(value, str) and value.strip().lower() in BUILT_IN_ROWS:
            msg = (f"{arg} is {value!r}, the name of a built-in row ('treat all' and 'treat "
                   "none' are the references every decision is compared with, and a model of "
                   "that name would replace or be replaced by one); give the model another "
                   "name.")
            raise ValueError(msg)


class Costs(NamedTuple):
    """What each outcome of a decision costs, per row: true negative, false positive, false
    negative, true positive (a benefit is a negative cost)."""

    tn: float
    fp: float
    fn: float
    tp: float

    @property
    def regret_fp(self) -> float:
        """What treating a negative costs more than leaving it."""
        return self.fp - self.tn

    @property
    def regret_fn(self) -> float:
        """What leaving a positive costs more than treating it."""
        return self.fn - self.tp

    def __repr__(self) -> str:
        return f"Costs(tn={self.tn:g}, fp={self.fp:g}, fn={self.fn:g}, tp={self.tp:g})"

    @classmethod
    def of(cls, costs=None, *, cost_fp=None, cost_fn=None, benefit_tp=0.0, benefit_tn=0.0):
        """Checked costs from a 2x2 matrix ``[[c_tn, c_fp], [c_fn, c_tp]]`` (or a dict with
        keys ``tn``, ``fp``, ``fn``, ``tp``), or from ``cost_fp`` / ``cost_fn`` with benefits
        of correct decisions; a clear error for negative, infinite or all-equal costs.

        >>> Costs.of({"fp": 1, "fn": 4})
        Costs(tn=0, fp=1, fn=4, tp=0)
        """
        return check_costs(costs, cost_fp, cost_fn, benefit_tp, benefit_tn)


def _nonneg(value, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        msg = f"{name} must be a number >= 0, got {value!r}."
        raise TypeError(msg)
    if not np.isfinite(value) or value < 0:
        msg = (f"{name} must be a finite number >= 0, got {value!r}; a cost is what a wrong "
               "decision loses (pass a benefit of a correct one as benefit_tp / benefit_tn).")
        raise ValueError(msg)
    return float(value)


def check_costs(costs=None, cost_fp=None, cost_fn=None, benefit_tp=0.0, benefit_tn=0.0,
                *, required: bool = True) -> Costs | None:
    """The costs of a decision, from a 2x2 matrix or from ``cost_fp`` / ``cost_fn``.

    ``costs`` is laid out as scikit-learn's confusion matrix: rows the true class (negative,
    positive), columns the decision (leave, treat): ``[[c_tn, c_fp], [c_fn, c_tp]]``, every
    entry >= 0. Or ``cost_fp`` and ``cost_fn`` (>= 0) with the benefits of correct decisions
    ``benefit_tp`` and ``benefit_tn`` (>= 0, costs of ``-benefit``). A wrong decision may not
    cost less than the right one, and the two must not cost the same on both classes (then no
    decision matters). ``required=False``: None when nothing is given.
    """
    given = costs is not None or cost_fp is not None or cost_fn is not None
    if not given:
        if benefit_tp or benefit_tn:
            msg = ("benefit_tp / benefit_tn were given without costs; pass cost_fp and cost_fn "
                   "(or costs=[[c_tn, c_fp], [c_fn, c_tp]]) too.")
            raise ValueError(msg)
        if required:
            msg = ("costs are needed: pass costs=[[c_tn, c_fp], [c_fn, c_tp]] or cost_fp= and "
                   "cost_fn= (what a false positive and a false negative cost).")
            raise TypeError(msg)
        return None
    if costs is not None:
        if cost_fp is not None or cost_fn is not None or benefit_tp or benefit_tn:
            msg = ("pass either costs (the 2x2 matrix) or cost_fp / cost_fn (with benefit_tp, "
                   "benefit_tn), not both.")
            raise TypeError(msg)
        if isinstance(costs, Costs):
            return _check_regrets(Costs(*(_finite(v, f"costs.{k}")
                                          for k, v in costs._asdict().items())), "costs")
        if isinstance(costs, dict):
            unknown = set(costs) - {"tn", "fp", "fn", "tp"}
            if unknown:
                msg = (f"costs as a dict takes the keys 'tn', 'fp', 'fn', 'tp'; got "
                       f"{sorted(map(str, unknown))}.")
                raise ValueError(msg)
            # One rule with cost_fp / cost_fn: both error costs are said, never one taken as 0.
            missing = [k for k in ("fp", "fn") if k not in costs]
            if missing:
                msg = (f"costs={costs!r} lacks {' and '.join(map(repr, missing))}; give the "
                       "cost of both errors, e.g. {'fp': 1, 'fn': 5} (a cost of 0 is said as "
                       "0), as cost_fp= and cost_fn= must both be given.")
                raise ValueError(msg)
            costs = [[costs.get("tn", 0.0), costs["fp"]], [costs["fn"], costs.get("tp", 0.0)]]
        try:
            matrix = np.asarray(costs, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            msg = f"costs must be a 2x2 matrix of numbers [[c_tn, c_fp], [c_fn, c_tp]]: {exc}"
            raise TypeError(msg) from exc
        if matrix.shape != (2, 2):
            msg = (f"costs must be a 2x2 matrix [[c_tn, c_fp], [c_fn, c_tp]] (rows: true class "
                   f"negative, positive; columns: leave, treat), got shape {matrix.shape}.")
            raise ValueError(msg)
        if not np.all(np.isfinite(matrix)) or np.any(matrix < 0):
            msg = (f"costs must hold finite numbers >= 0, got {matrix.tolist()}; a benefit of a "
                   "correct decision goes in benefit_tp / benefit_tn with cost_fp / cost_fn.")
            raise ValueError(msg)
        out = Costs(tn=matrix[0, 0], fp=matrix[0, 1], fn=matrix[1, 0], tp=matrix[1, 1])
        where = "costs"
    else:
        if cost_fp is None or cost_fn is None:
            missing = "cost_fp" if cost_fp is None else "cost_fn"
            msg = f"{missing} is missing; pass both cost_fp and cost_fn."
            raise TypeError(msg)
        fp, fn = _nonneg(cost_fp, "cost_fp"), _nonneg(cost_fn, "cost_fn")
        b_tp, b_tn = _nonneg(benefit_tp, "benefit_tp"), _nonneg(benefit_tn, "benefit_tn")
        # 0.0 - b: a benefit of 0 is a cost of 0, never -0.
        out = Costs(tn=0.0 - b_tn, fp=fp, fn=fn, tp=0.0 - b_tp)
        where = "cost_fp, cost_fn"
    return _check_regrets(out, where)


def _finite(value, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) \
            or not np.isfinite(value):
        msg = f"{name} must be a finite number, got {value!r}."
        raise ValueError(msg)
    return float(value)


def _check_regrets(out: Costs, where: str) -> Costs:
    """A wrong decision may not cost less than the right one, nor both the same."""
    if out.regret_fp < 0 or out.regret_fn < 0:
        msg = (f"{where}: a correct decision costs more than the wrong one ({out!r}); the cost "
               "of treating a negative must be >= that of leaving it, and the cost of leaving "
               "a positive >= that of treating it.")
        raise ValueError(msg)
    if out.regret_fp == 0 and out.regret_fn == 0:
        msg = (f"{where}: every decision costs the same ({out!r}), so no threshold is better "
               "than another; give a false positive or a false negative a cost.")
        raise ValueError(msg)
    return out


def bayes_value(costs: Costs) -> float:
    """``t*`` in [0, 1] of checked costs, computed without overflow (each regret scaled by
    the larger first: ``1e308`` and ``1e308`` give 0.5, not 0)."""
    a, b = costs.regret_fp, costs.regret_fn
    scale = max(a, b)
    a, b = a / scale, b / scale
    return a / (a + b)


def bayes_threshold(costs) -> float:
    """The threshold at which treating and leaving a row with calibrated probability ``t``
    cost the same: ``t* = (c_fp - c_tn) / ((c_fp - c_tn) + (c_fn - c_tp))``.

    ``costs`` is a :class:`Costs`, a 2x2 matrix ``[[c_tn, c_fp], [c_fn, c_tp]]`` or a dict
    with ``fp`` and ``fn`` (and optionally ``tn``, ``tp``), checked as in
    :func:`~chimeraboost.decisions.expected_cost`. Treating a row of probability ``p`` costs
    ``p c_tp + (1 - p) c_fp``, leaving it ``p c_fn + (1 - p) c_tn``; treating is cheaper when
    ``p >= t*``. With ``c_tn = c_tp = 0`` this is ``c_fp / (c_fp + c_fn)`` (Elkan 2001,
    doi:10.5555/1642194.1642224). Costs under which one error costs nothing imply 0 (treat
    every row) or 1 (treat none) whatever the probability: no threshold, an error.

    Examples
    --------
    >>> bayes_threshold({"fp": 1, "fn": 3})
    0.25
    """
    c = check_costs(costs)
    t = bayes_value(c)
    if not 0 < t < 1:
        msg = (f"the costs {c!r} imply the threshold {t:g}: "
               f"{'treat every row' if t == 0 else 'treat no row'} whatever the probability, "
               "so no threshold in (0, 1) follows from them; give both errors a cost "
               "(c_fp > c_tn and c_fn > c_tp), or pass threshold= yourself.")
        raise ValueError(msg)
    return float(t)
