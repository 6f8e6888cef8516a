"""What does acting on the model cost, at the costs we face? Expected cost, cost curves and
Brier curves.

- The cost per row of acting at a threshold, against treat-all and treat-none, and the
  threshold the costs imply? :func:`expected_cost` (an :class:`ExpectedCostResult`).
- The cost of the best threshold for every ratio of costs? :func:`cost_curve` (Drummond &
  Holte 2006).
- The cost when the probability itself is the threshold, for every ratio of costs?
  :func:`brier_curve` (Hernandez-Orallo, Flach & Ferri 2011); its area is the Brier score.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .._shared.api import public
from .._shared.format import fmt
from .._shared.validation import check_numeric_1d, import_pandas, warn_degenerate
from ._checks import (
    bayes_threshold,
    bayes_value,
    check_costs,
    check_probability,
    check_target,
)
from ._sweep import Sweep, decision_numbers, mean_cost

__all__ = ["BrierCurve", "CostCurve", "ExpectedCostResult", "brier_curve", "cost_curve",
           "expected_cost", "cutoff_costs"]


def _check_cutoff(threshold) -> float:
    if isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, (int, float,
                                                                            np.number)):
        msg = f"threshold must be a probability in [0, 1] or None, got {threshold!r}."
        raise TypeError(msg)
    if not 0 <= threshold <= 1:
        msg = (f"threshold={threshold!r} is outside [0, 1]; a row is treated when its "
               "probability is >= threshold.")
        raise ValueError(msg)
    return float(threshold)


def cutoff_costs(event, score, w, costs):
    """``(cutoffs, cost)``: the distinct scores ascending plus ``inf`` (treat none), and the
    expected cost of treating the rows scored at or above each (unit weights or ``w``)."""
    edges = np.unique(score)
    sweep = Sweep(score, event, edges)
    weights = (np.ones(score.shape[0]) if w is None else w)[None, :]
    tp, fp, pos, neg = sweep.treated(weights)
    zero = np.zeros((1, 1))
    tp, fp = np.hstack([tp, zero]), np.hstack([fp, zero])
    cutoffs = np.append(edges, np.inf)
    cost = decision_numbers(tp, fp, pos, neg, np.full(cutoffs.shape[0], 0.5), costs,
                            names={"expected_cost"})["expected_cost"][0]
    return cutoffs, cost


class ExpectedCostResult:
    """Expected cost per row of acting on a score at a threshold, with the references.

    Attributes
    ----------
    costs : Costs
        ``(tn, fp, fn, tp)``, what each outcome costs per row (a benefit is negative).
    threshold : float
        The threshold acted on: the one given, else :attr:`bayes_threshold`.
    expected_cost : float
        Weighted mean cost of treating the rows with score ``>= threshold``.
    treat_all, treat_none : float
        Expected cost of treating every row, and no row.
    bayes_threshold : float
        ``(c_fp - c_tn) / ((c_fp - c_tn) + (c_fn - c_tp))``: the best threshold for
        calibrated probabilities.
    best_threshold, best_cost : float
        The cutoff that minimises the cost on these rows (``inf``: treat none) and its cost.
        An in-sample optimum: optimistic for new rows; see
        :func:`~chimeraboost.decisions.choose_threshold` for its honest interval.
    flagged : float
        Share of the weight treated at :attr:`threshold`.
    n : int
    """

    def __init__(self, **values):
        self.__dict__.update(values)

    def to_frame(self):
        """One row per decision (``model``, ``best on these rows``, ``treat all``, ``treat
        none``): ``threshold`` and ``expected_cost``. Needs pandas."""
        pd = import_pandas("ExpectedCostResult.to_frame")
        return pd.DataFrame(
            {"threshold": [self.threshold, self.best_threshold, 0.0, np.inf],
             "expected_cost": [self.expected_cost, self.best_cost, self.treat_all,
                               self.treat_none]},
            index=["model", "best on these rows", "treat all", "treat none"])

    def __repr__(self) -> str:
        return (f"ExpectedCostResult(threshold={self.threshold:g}, "
                f"expected_cost={fmt(self.expected_cost)}, treat_all={fmt(self.treat_all)}, "
                f"treat_none={fmt(self.treat_none)}, bayes_threshold={self.bayes_threshold:g}, "
                f"best_threshold={self.best_threshold:g})")


@public(renamed={"score": "proba"})
def expected_cost(y, proba, *, threshold=None, costs=None, cost_fp=None, cost_fn=None,
                  benefit_tp=0.0, benefit_tn=0.0, pos_label=None, sample_weight=None):
    """Expected cost per row of treating the rows whose probability is at or above a threshold.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels: bool, 0/1 or -1/1, or any labels with ``pos_label``.
    proba : array-like of shape (n,)
        Probability of the positive class, or a 0/1 rule (1: treat).
    threshold : float in [0, 1], default=None
        Treat the rows with ``score >= threshold``. None: the Bayes threshold the costs imply
        (right for calibrated probabilities).
    costs : 2x2 array-like or dict, default=None
        ``[[c_tn, c_fp], [c_fn, c_tp]]`` (rows: true negative, positive; columns: leave,
        treat), entries >= 0; or ``{"fp": 1, "fn": 5}``. Or give ``cost_fp`` and ``cost_fn``.
    cost_fp, cost_fn : float >= 0, default=None
        Cost of treating a negative row, and of leaving a positive one.
    benefit_tp, benefit_tn : float >= 0, default=0
        Gain of treating a positive row, and of leaving a negative one (costs of ``-benefit``).
    pos_label : label, default=None
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    ExpectedCostResult

    Notes
    -----
    ``cost = (c_tp TP + c_fp FP + c_fn FN + c_tn TN) / W`` with the weights of the four
    outcomes and ``W`` their total. Treating a row of calibrated probability ``p`` costs
    ``p c_tp + (1 - p) c_fp`` and leaving it ``p c_fn + (1 - p) c_tn``, hence the Bayes
    threshold ``t* = (c_fp - c_tn) / ((c_fp - c_tn) + (c_fn - c_tp))`` (Elkan 2001, The
    foundations of cost-sensitive learning, IJCAI, doi:10.5555/1642194.1642224). With
    ``c_fn = 1``, ``c_fp = t / (1 - t)`` and no benefits the expected cost is the prevalence
    minus the net benefit at ``t``.

    Examples
    --------
    A missed positive costs 4 times a false alarm: ``t* = 1 / (1 + 4) = 0.2``. Rows scored
    0.1 and 0.3 are negatives, 0.25 and 0.8 positives: at 0.2 three rows are treated, one
    false alarm, cost ``1 / 4``.

    >>> r = expected_cost([0, 0, 1, 1], [0.1, 0.3, 0.25, 0.8], cost_fp=1, cost_fn=4)
    >>> r.threshold, r.expected_cost, r.treat_all, r.treat_none
    (0.2, 0.25, 0.5, 2.0)
    """
    c = check_costs(costs, cost_fp, cost_fn, benefit_tp, benefit_tn)
    event, s, w = check_target(y, proba, sample_weight, pos_label, "proba")
    s = check_probability(s, "proba")
    # Without a threshold the costs must imply one; with one, t* is reported as it is (0:
    # treat every row, 1: treat none).
    t_star = bayes_value(c) if threshold is not None else bayes_threshold(c)
    t = t_star if threshold is None else _check_cutoff(threshold)
    total = float(s.shape[0] if w is None else w.sum())
    wt = np.ones(s.shape[0]) if w is None else w
    pos = float(wt[event].sum())
    neg = total - pos if w is None else float(wt[~event].sum())
    treated = s >= t
    tp, fp = float(wt[treated & event].sum()), float(wt[treated & ~event].sum())
    cost = mean_cost(c, tp, fp, pos - tp, neg - fp, total)
    cutoffs, costs_ = cutoff_costs(event, s, w, c)
    best = int(np.argmin(costs_))
    return ExpectedCostResult(
        costs=c, threshold=t, expected_cost=cost,
        treat_all=mean_cost(c, pos, neg, 0.0, 0.0, total),
        treat_none=mean_cost(c, 0.0, 0.0, pos, neg, total),
        bayes_threshold=t_star, best_threshold=float(cutoffs[best]),
        best_cost=float(costs_[best]), flagged=(tp + fp) / total, n=int(s.shape[0]))


class CostCurve(NamedTuple):
    """The cost curve of a score (Drummond & Holte 2006), as arrays.

    Attributes
    ----------
    pc : ndarray of shape (m,)
        Probability cost of the positive class,
        ``pi c_fn / (pi c_fn + (1 - pi) c_fp)``: 0 when only false alarms cost, 1 when only
        misses do.
    cost : ndarray of shape (m,)
        Normalized expected cost of the best cutoff at ``pc``:
        ``min_t FNR(t) pc + FPR(t) (1 - pc)`` (1 is the worst any decision can do).
    threshold : ndarray of shape (m,)
        The cutoff reaching it (``inf``: treat none).
    trivial : ndarray of shape (m,)
        ``min(pc, 1 - pc)``: the better of treat-all and treat-none.
    """

    pc: np.ndarray
    cost: np.ndarray
    threshold: np.ndarray
    trivial: np.ndarray


def _roc_points(y, score, pos_label, sample_weight):
    """Distinct cutoffs (ascending, then ``inf``) with their TPR and FPR."""
    event, s, w = check_target(y, score, sample_weight, pos_label)
    cutoffs = np.append(np.unique(s), np.inf)
    tp, fp, pos, neg = Sweep(s, event, cutoffs[:-1]).treated(
        (np.ones(s.shape[0]) if w is None else w)[None, :])
    tp, fp = np.append(tp[0], 0.0), np.append(fp[0], 0.0)
    if pos[0] <= 0 or neg[0] <= 0:
        warn_degenerate("y holds one class only: the cost curve needs both (NaN).")
    with np.errstate(invalid="ignore", divide="ignore"):
        return cutoffs, tp / pos[0], fp / neg[0], s, event, w


def cost_curve(y, score, *, pc=None, pos_label=None, sample_weight=None) -> CostCurve:
    """The cost curve: the normalized expected cost of the best cutoff, for every ratio of costs.

    Parameters
    ----------
    y : array-like of shape (n,)
    score : array-like of shape (n,)
        Any score that ranks the positives first (a probability, a decision function, a 0/1
        rule); only its order matters.
    pc : array-like of float in [0, 1], default=None
        Probability costs at which to evaluate; None: 101 points from 0 to 1.
    pos_label : label, default=None
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    CostCurve

    Notes
    -----
    Each cutoff is a line ``FNR pc + FPR (1 - pc)`` in cost space; the curve is their lower
    envelope, the dual of the ROC convex hull. At ``pc = 0.5`` it is
    ``(1 - max Youden J) / 2``. Drummond & Holte (2006), Cost curves: an improved method for
    visualizing classifier performance, Machine Learning 65, 95-130,
    doi:10.1007/s10994-006-8199-5.

    Examples
    --------
    >>> c = cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], pc=[0.5])
    >>> float(c.cost[0])  # best cutoff 0.8 (FNR 1/2, FPR 0) or 0.35 (FNR 0, FPR 1/2)
    0.25
    """
    grid = np.linspace(0.0, 1.0, 101) if pc is None else check_numeric_1d(pc, "pc")
    if np.any((grid < 0) | (grid > 1)):
        msg = f"pc must lie in [0, 1], got values in [{grid.min():g}, {grid.max():g}]."
        raise ValueError(msg)
    cutoffs, tpr, fpr, *_ = _roc_points(y, score, pos_label, sample_weight)
    fnr = 1.0 - tpr
    cost = np.empty(grid.shape[0])
    best = np.empty(grid.shape[0])
    step = max(1, 2_000_000 // max(cutoffs.shape[0], 1))
    for i in range(0, grid.shape[0], step):
        x = grid[i:i + step, None]
        lines = fnr[None, :] * x + fpr[None, :] * (1.0 - x)
        j = np.argmin(lines, axis=1) if not np.isnan(fnr).any() else np.zeros(x.shape[0], int)
        cost[i:i + step] = lines[np.arange(x.shape[0]), j]
        best[i:i + step] = cutoffs[j]
    return CostCurve(grid, cost, best, np.minimum(grid, 1.0 - grid))


class BrierCurve(NamedTuple):
    """The Brier curve of probabilities (Hernandez-Orallo, Flach & Ferri 2011), as arrays.

    Attributes
    ----------
    cost_proportion : ndarray
        ``c = c_fp / (c_fp + c_fn)``, the operating condition; each distinct probability
        appears twice (the curve jumps there).
    loss : ndarray
        ``2 (c pi_0 FPR(c) + (1 - c) pi_1 FNR(c))``: the cost of treating the rows whose
        probability is ``>= c``, piecewise linear between the points.
    area : float
        Area under the curve: the Brier score (scikit-learn's single-term
        ``brier_score_loss``).
    """

    cost_proportion: np.ndarray
    loss: np.ndarray
    area: float


def brier_curve(y, proba, *, pos_label=None, sample_weight=None) -> BrierCurve:
    """The Brier curve: the cost of using each probability as its own threshold.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n,)
        Probability of the positive class.
    pos_label : label, default=None
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    BrierCurve

    Notes
    -----
    At cost proportion ``c`` the rows with probability ``>= c`` are treated; the loss, in
    units where the costs of both errors sum to 2, integrates to the Brier score over
    ``c`` uniform on [0, 1]. Hernandez-Orallo, Flach & Ferri (2011), Brier curves: a new
    cost-based visualisation of classifier performance, ICML, 585-592.

    Examples
    --------
    >>> b = brier_curve([0, 1], [0.2, 0.6])
    >>> round(b.area, 12)  # ((0.2 - 0)^2 + (0.6 - 1)^2) / 2
    0.1
    """
    cutoffs, tpr, fpr, s, event, w = _roc_points(y, proba, pos_label, sample_weight)
    check_probability(s, "proba")
    wt = np.ones(s.shape[0]) if w is None else w
    pi1 = float(wt[event].sum() / wt.sum())
    pi0 = 1.0 - pi1
    values = cutoffs[:-1]
    # Left of each distinct value p_j its own set {p >= p_j} is treated; right of it, the set
    # of the next value (index j + 1, the last one's next being "treat none").
    c = np.concatenate([[0.0], np.repeat(values, 2), [1.0]])
    j = np.concatenate([[0], np.stack([np.arange(values.shape[0]),
                                       np.arange(1, values.shape[0] + 1)], axis=1).ravel(),
                        [values.shape[0] if values[-1] < 1 else values.shape[0] - 1]])
    loss = 2.0 * (c * pi0 * fpr[j] + (1.0 - c) * pi1 * (1.0 - tpr[j]))
    trapezoid = getattr(np, "trapezoid", None) or np.trapz
    area = float(trapezoid(loss, c)) if not math.isnan(pi1) else math.nan
    return BrierCurve(c, loss, area)
