"""One sort, every threshold: the weight of the positives and negatives treated at each
threshold, for one weight vector or ``B`` of them.

Private; the questions:

- How much positive and negative weight is treated (score >= t) at each of ``K`` thresholds,
  for ``(B, n)`` weights? :class:`Sweep` (rows are put in bins between the thresholds once;
  a call sums each bin's weight and cumulates from the top).
- Every number of a decision at a few thresholds, for the bootstrap? :class:`DecisionEvaluator`
  (``evaluate(counts)``, the interface :mod:`chimeraboost.resampling` resamples).
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from .._shared.results import Terms
from .._shared.weights import fraction, replicate_weights
from .._shared.validation import warn_degenerate
from ._checks import Costs, key

__all__ = ["DecisionEvaluator", "Sweep", "decision_numbers", "mean_cost"]

# The numbers whose paired difference is a sum over the rows on which two models act
# differently, each row's term bounded (DecisionEvaluator.paired_terms).
_PAIRED = frozenset({"net_benefit", "standardized_net_benefit", "sensitivity", "specificity",
                     "flagged"})


class Sweep:
    """Treated weight of each class at ascending thresholds ``edges``, for ``(B, n)`` weights.

    A row is treated at threshold ``t`` when its score is ``>= t``. Each row falls in the bin
    ``searchsorted(edges, score, side="right")`` (the number of thresholds at or below its
    score), so the rows treated at ``edges[k]`` are those of the bins above ``k``. The bins
    depend on the rows only: they are found once, and a call sums the weights per bin (one
    gather, one ``reduceat`` per class) and cumulates the ``K + 1`` bin sums from the top.
    """

    def __init__(self, score: np.ndarray, event: np.ndarray, edges: np.ndarray):
        self.n, self.k = score.shape[0], edges.shape[0]
        bins = np.searchsorted(edges, score, side="right")
        self._parts = []
        for rows in (np.flatnonzero(event), np.flatnonzero(~event)):
            b = bins[rows]
            order = np.argsort(b, kind="stable")
            rows, b = rows[order], b[order]
            if rows.shape[0]:
                starts = np.flatnonzero(np.r_[True, b[1:] != b[:-1]])
                self._parts.append((rows, starts, b[starts]))
            else:
                self._parts.append(None)

    def treated(self, weights: np.ndarray):
        """``(tp, fp, pos, neg)``: (B, K) treated positive and negative weight at each
        threshold, and (B,) total weight of each class (float64)."""
        out = []
        for part in self._parts:
            per_bin = np.zeros((weights.shape[0], self.k + 1), dtype=weights.dtype)
            if part is not None:
                rows, starts, which = part
                per_bin[:, which] = np.add.reduceat(np.take(weights, rows, axis=1), starts,
                                                    axis=1)
            # Cumulated from the highest bin down, as a threshold sweep goes.
            above = np.cumsum(per_bin[:, ::-1], axis=1)[:, ::-1].astype(np.float64)
            out.append(above)
        pos_above, neg_above = out
        return pos_above[:, 1:], neg_above[:, 1:], pos_above[:, 0], neg_above[:, 0]


def mean_cost(costs: Costs, tp, fp, fn, tn, total):
    """``(c_tp TP + c_fp FP + c_fn FN + c_tn TN) / W``, the costs scaled by their largest
    first, so that costs near the float64 limit (1e308) give a finite mean, never inf."""
    scale = max(abs(costs.tp), abs(costs.fp), abs(costs.fn), abs(costs.tn)) or 1.0
    c = [v / scale for v in (costs.tp, costs.fp, costs.fn, costs.tn)]
    return (c[0] * tp + c[1] * fp + c[2] * fn + c[3] * tn) / total * scale


def decision_numbers(tp, fp, pos, neg, thresholds, costs: Costs | None = None,
                     names=None) -> dict:
    """Every number of a decision from the treated weights: dict of (B, K) arrays.

    ``tp``, ``fp`` (B, K); ``pos``, ``neg`` (B,); ``thresholds`` (K,) the threshold
    probabilities that set the exchange rate of net benefit. ``names`` limits the output.
    """
    want = (lambda name: True) if names is None else (lambda name: name in names)
    total = (pos + neg)[:, None]
    prevalence = pos[:, None] / total
    odds = thresholds / (1.0 - thresholds)
    out = {}
    with np.errstate(invalid="ignore", divide="ignore"):
        if want("net_benefit") or want("standardized_net_benefit"):
            nb = tp / total - fp / total * odds
            out["net_benefit"] = nb
            out["standardized_net_benefit"] = np.where(prevalence > 0, nb / prevalence, np.nan)
        if want("net_benefit_all"):
            out["net_benefit_all"] = prevalence - (1.0 - prevalence) * odds
        fn, tn = pos[:, None] - tp, neg[:, None] - fp
        flagged = tp + fp
        if want("sensitivity"):
            out["sensitivity"] = np.where(pos[:, None] > 0, fraction(tp, pos[:, None]), np.nan)
        if want("specificity"):
            out["specificity"] = np.where(neg[:, None] > 0, fraction(tn, neg[:, None]), np.nan)
        if want("ppv"):
            out["ppv"] = np.where(flagged > 0, fraction(tp, flagged), np.nan)
        if want("npv"):
            left = fn + tn
            out["npv"] = np.where(left > 0, fraction(tn, left), np.nan)
        if want("flagged"):
            out["flagged"] = fraction(flagged, total)
        if costs is not None and want("expected_cost"):
            out["expected_cost"] = mean_cost(costs, tp, fp, fn, tn, total)
    return {k: v for k, v in out.items() if want(k)}


class DecisionEvaluator:
    """Every number of the decisions ``score >= t`` at a few thresholds, for any ``(B, n)``
    resampling counts: what :func:`chimeraboost.resampling.bootstrap` and
    :func:`~chimeraboost.resampling.joint_bootstrap` resample.

    ``evaluate(counts)`` returns a dict of ``(B,)`` arrays keyed ``name@t`` (``net_benefit@0.2``,
    ``net_benefit_all@0.2``, ``sensitivity@0.2``, ...) for every threshold; with ``costs``,
    also ``expected_cost``, ``expected_cost_all`` and ``expected_cost_none`` at the cost
    threshold; and ``base_rate``. Row weights are ``counts * sample_weight``.
    """

    def __init__(self, event, score, thresholds, *, sample_weight=None, costs=None,
                 cost_threshold=None, names=None):
        self.codes = np.asarray(event, dtype=np.intp)
        self.sample_weight = sample_weight
        self.n = self.codes.shape[0]
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        self.costs, self.cost_threshold = costs, cost_threshold
        self.names = None if names is None else set(names)
        edges = self.thresholds
        if costs is not None:
            edges = np.append(edges, cost_threshold)
        order = np.argsort(edges, kind="stable")
        self._sweep = Sweep(score, self.codes.astype(bool), edges[order])
        self._back = np.empty_like(order)  # sorted position of each threshold as given
        self._back[order] = np.arange(order.shape[0])
        self._score = score  # a reference: what paired_terms reads the actions from

    def decides(self, metric) -> bool:
        """Whether the paired difference of number ``metric`` (a key of :meth:`evaluate`) is 0
        on every row on which two models act alike, with a bound per row
        (:meth:`paired_terms`): net benefit, its standardized form, sensitivity,
        specificity, the flagged share and the expected cost. PPV and NPV are ratios whose
        denominators move with the decisions: not counted."""
        if metric == "expected_cost":
            return self.costs is not None
        name, at, t = str(metric).partition("@")
        try:
            return bool(at) and name in _PAIRED and float(t) in set(self.thresholds.tolist())
        except ValueError:
            return False

    def paired_terms(self, metric):
        """What the model does with each row for number ``metric``
        (a ``Terms`` of :mod:`chimeraboost._shared.results`: the action ``score >= t``, the
        most a row moves the number's numerator when two models act differently on it,
        its weight in the denominator), or None when ``metric`` is not such a number."""
        if not self.decides(metric):
            return None
        w = np.ones(self.n) if self.sample_weight is None else \
            np.asarray(self.sample_weight, dtype=np.float64)
        pos = self.codes == 1
        if metric == "expected_cost":
            t, c = self.cost_threshold, self.costs
            capacity = w * np.where(pos, abs(c.fn - c.tp), abs(c.fp - c.tn))
            base = w
        else:
            name, _, text = metric.partition("@")
            t = float(text)
            odds = t / (1.0 - t)
            capacity = {"net_benefit": w * np.where(pos, 1.0, odds),
                        "standardized_net_benefit": w * np.where(pos, 1.0, odds),
                        "sensitivity": w * pos, "specificity": w * ~pos,
                        "flagged": w}[name]
            base = {"standardized_net_benefit": w * pos, "sensitivity": w * pos,
                    "specificity": w * ~pos}.get(name, w)
        return Terms(self._score >= t, capacity, base, self._score, t)

    @public(legacy=("warn",))
    def evaluate(self, counts=None, *, warn: bool = True) -> dict:
        w = replicate_weights(self.sample_weight, counts, self.n, integer=True)
        tp, fp, pos, neg = self._sweep.treated(w)
        tp, fp = tp[:, self._back], fp[:, self._back]
        k = self.thresholds.shape[0]
        numbers = decision_numbers(tp[:, :k], fp[:, :k], pos, neg, self.thresholds,
                                   names=self.names)
        out = {key(name, t): values[:, j] for name, values in numbers.items()
               for j, t in enumerate(self.thresholds)}
        total = pos + neg
        out["base_rate"] = pos / total
        if self.costs is not None:
            c = self.costs
            cost = decision_numbers(tp[:, k:], fp[:, k:], pos, neg,
                                    np.array([self.cost_threshold]), c,
                                    names={"expected_cost"})["expected_cost"][:, 0]
            out["expected_cost"] = cost
            zero = np.zeros_like(pos)
            out["expected_cost_all"] = mean_cost(c, pos, neg, zero, zero, total)
            out["expected_cost_none"] = mean_cost(c, zero, zero, pos, neg, total)
        if warn and counts is None:
            _warn_one_class(pos[0], neg[0], self.names)
        return out


def _warn_one_class(pos, neg, names) -> None:
    """Rates that need a class the rows lack are NaN: say so once."""
    need_pos = {"sensitivity", "standardized_net_benefit"}
    need_neg = {"specificity"}
    asked = need_pos | need_neg if names is None else set(names)
    if pos <= 0 and asked & need_pos:
        warn_degenerate("y holds no positive row: sensitivity and the standardized net benefit "
                        "are undefined (NaN).")
    if neg <= 0 and asked & need_neg:
        warn_degenerate("y holds no negative row: specificity is undefined (NaN).")
