"""How uncertain is a threshold chosen on the data, and what is it worth on new rows?

:func:`choose_threshold` picks a cutoff on the rows -- the cost-minimising one, the one of
largest net benefit, or the highest that reaches a target recall -- and says how sure that
choice is: the chosen threshold gets an interval, and the value of acting at it (cost, net
benefit or recall) gets an interval that re-chooses the threshold inside every resample, so
that the optimism of picking the best cutoff on the same rows is paid for. The result is a
:class:`ThresholdChoice`, whose :meth:`~ThresholdChoice.summary` says how much of the apparent
gain the re-choosing removes.
"""

from __future__ import annotations

import math

import numpy as np

from .. import resampling
from .._shared.api import public
from .._shared.format import Col, fmt, percent, table
from .._shared.weights import replicate_weights
from .._shared.validation import check_level, check_real, import_pandas
from ._checks import check_costs, check_target, check_threshold
from ._scheme import scheme as decision_scheme
from ._sweep import mean_cost

__all__ = ["ThresholdChoice", "choose_threshold"]

_OBJECTIVES = ("cost", "net_benefit", "recall")


# The key of the value at the chosen threshold held fixed: a warning about its interval
# names it to the reader.
_FIXED = "the value at the threshold held fixed"


class _Treated:
    """The weight of one class's rows treated at every cutoff, for ``(B, n)`` weights: the
    same numbers as :class:`~chimeraboost.decisions._sweep.Sweep`, with work that follows
    the rows rather than the cutoffs.

    A cutoff ``edges[k]`` treats the rows of bin ``> k`` (``bin = searchsorted(edges, score,
    side="right")``). The class's rows are put once in descending bin order (ascending row
    order within a bin, as ``Sweep`` sums them); a call gathers the weights in that order,
    sums each bin with more than one row (``reduceat``), cumulates, and reads the running
    sum at each cutoff from an index found once. The additions are the ones ``Sweep`` makes,
    in its order (its empty bins add zeros), so every number is its number; but no array of
    the cutoffs' length is zeroed, scattered into and reversed per call, which made the
    sweep over ``n`` cutoffs (one per distinct score) the cost of :func:`choose_threshold`.
    """

    def __init__(self, rows: np.ndarray, bins: np.ndarray, k: int):
        order = np.argsort(-bins[rows], kind="stable")
        self.rows, b = rows[order], bins[rows][order]
        starts = np.flatnonzero(np.r_[True, b[1:] != b[:-1]]) if b.shape[0] else b
        self.starts = None if starts.shape[0] == b.shape[0] else starts
        # Bins of the class treated at cutoff k, for k = 0..K (K: treat none).
        self.at = np.searchsorted(-b[starts], -np.arange(1, k + 2), side="right")

    def running(self, weights: np.ndarray) -> np.ndarray:
        """``(B, bins + 1)``: the class's weight in the top ``j`` bins, ``j = 0..bins``."""
        w = np.take(weights, self.rows, axis=1)
        if self.starts is not None and w.shape[1]:
            w = np.add.reduceat(w, self.starts, axis=1)
        out = np.zeros((w.shape[0], w.shape[1] + 1), dtype=w.dtype)
        np.cumsum(w, axis=1, out=out[:, 1:])
        return out.astype(np.float64, copy=False)


class _ChoiceEvaluator:
    """The chosen cutoff and its value for any ``(B, n)`` counts (for the bootstrap)."""

    def __init__(self, event, score, w, objective, costs, at, target):
        self.codes, self.sample_weight, self.n = event.astype(np.intp), w, event.shape[0]
        self.objective, self.costs, self.at, self.target = objective, costs, at, target
        edges = np.unique(score)
        self.cutoffs = np.append(edges, np.inf)  # the last: treat none
        bins = np.searchsorted(edges, score, side="right")
        self._classes = [_Treated(np.flatnonzero(event), bins, edges.shape[0]),
                         _Treated(np.flatnonzero(~event), bins, edges.shape[0])]
        values, flagged = self._values(None)
        self.original = values[0]
        self.chosen = int(self._choose(values, flagged)[0])

    def _treated(self, counts, at=None):
        """``(tp, fp, pos, neg)``: treated weight of each class at every cutoff (B, K + 1),
        or at the cutoffs ``at`` (B,) only, and each class's total (B,)."""
        w = replicate_weights(self.sample_weight, counts, self.n, integer=True)
        out = []
        for part in self._classes:
            run = part.running(w)
            rows = np.arange(run.shape[0])
            out.append((run[:, part.at] if at is None else run[rows, part.at[at]], run[:, -1]))
        (tp, pos), (fp, neg) = out
        return tp, fp, pos, neg

    def _value(self, tp, fp, pos, neg):
        """The objective at the cutoffs: ``tp``, ``fp`` (B, m), ``pos``, ``neg`` (B, 1)."""
        total = pos + neg
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.objective == "cost":
                return mean_cost(self.costs, tp, fp, pos - tp, neg - fp, total)
            if self.objective == "net_benefit":
                return tp / total - fp / total * (self.at / (1.0 - self.at))
            return np.where(pos > 0, tp / pos, np.nan)

    def _values(self, counts):
        tp, fp, pos, neg = self._treated(counts)
        return self._value(tp, fp, pos[:, None], neg[:, None]), tp + fp

    def _choose(self, values, flagged):
        """Index of the chosen cutoff per row of ``values``. Cutoffs between which a
        resample drew no row treat the same rows (same ``flagged`` weight): of such a run the
        middle is taken, so that a resample's choice does not lean to one end of the gap."""
        if self.objective == "recall":
            reached = np.nan_to_num(values, nan=-1.0) >= self.target
            idx = np.maximum(reached.sum(axis=1) - 1, 0)
        elif self.objective == "cost":
            idx = np.argmin(values, axis=1)
        else:
            idx = np.argmax(values, axis=1)
        # The treated weight never rises with the cutoff (weights are >= 0), so the cutoffs
        # that treat what the chosen one treats are one run: those before it treat more.
        here = flagged[np.arange(values.shape[0]), idx][:, None]
        lo = np.count_nonzero(flagged > here, axis=1)
        hi = np.count_nonzero(flagged >= here, axis=1) - 1
        return (lo + hi) // 2

    @public(legacy=("warn",))
    def evaluate(self, counts=None, *, warn=False) -> dict:
        values, flagged = self._values(counts)
        idx = self._choose(values, flagged)
        rows = np.arange(values.shape[0])
        out = {"threshold": self.cutoffs[idx], "apparent": values[rows, idx],
               "original": self.original[idx], _FIXED: values[:, self.chosen]}
        if counts is not None:
            # The rows a resample left out: the resample's choice scored on rows it never
            # saw (needed at that cutoff only).
            tp, fp, pos, neg = self._treated(np.asarray(counts) == 0, at=idx)
            out["oob"] = self._value(tp, fp, pos, neg)
        else:
            out["oob"] = out["apparent"]
        return out


class ThresholdChoice:
    """A threshold chosen on the data, with the uncertainty of the choice.

    Attributes
    ----------
    objective : {"cost", "net_benefit", "recall"}
    threshold : float
        The cutoff chosen on the rows: treat the rows scored ``>= threshold`` (``inf``:
        treat none).
    threshold_interval : ConfidenceInterval
        Percentile interval of the threshold re-chosen in every resample.
    apparent : float
        The value at the chosen threshold on the rows it was chosen on (optimistic).
    optimism : float
        How much choosing on the same rows flatters the value (Efron's .632 estimate): for a
        cost a positive number, for a benefit or a recall a negative one.
    estimate : float
        ``apparent + optimism``: the value expected on new rows.
    interval : ConfidenceInterval
        Interval of the value of the data-chosen threshold on new rows, the threshold
        re-chosen inside every resample (optimism included); conservative (see Notes).
    naive_interval : ConfidenceInterval
        The percentile interval at the threshold held fixed: too optimistic, shown for
        comparison.
    reference : float
        The better of treat-all and treat-none on the rows (cost and net benefit), or the
        target (recall).
    greater_is_better : bool
    n_boot : int
    level : float
    ci_method : str
    units : {"rows", "groups", "time"}
        What a resample drew.
    """

    def __init__(self, **values):
        self.__dict__.update(values)

    @property
    def apparent_gain(self) -> float:
        """How much better the apparent value is than the reference (cost, net benefit)."""
        d = self.apparent - self.reference
        return d if self.greater_is_better else -d

    @property
    def gain(self) -> float:
        """How much better the value expected on new rows is than the reference."""
        d = self.estimate - self.reference
        return d if self.greater_is_better else -d

    def summary(self) -> str:
        """One paragraph: the threshold, its interval, the apparent value, the value on new
        rows with the re-chosen interval, and the share of the apparent gain it removes."""
        pct = percent(self.level)
        what = {"cost": "expected cost", "net_benefit": "net benefit",
                "recall": "recall"}[self.objective]
        how = {"cost": "the cost-minimising threshold",
               "net_benefit": f"the threshold of largest net benefit at t = {self.at}",
               "recall": f"the highest threshold that reaches recall {self.target}"}
        lo, hi = self.threshold_interval
        text = (f"Choosing {how[self.objective]} on these rows gives {fmt(self.threshold, 3)} "
                f"({pct} CI {fmt(lo, 3)} to {fmt(hi, 3)} over {self.n_boot:,} resamples) and "
                f"an apparent {what} of {fmt(self.apparent)}")
        if self.objective == "recall":
            text += "."
        else:
            text += (f", a gain of {fmt(self.apparent_gain)} over the better of treat-all and "
                     f"treat-none ({fmt(self.reference)}).")
        text += (f" Re-choosing the threshold inside every resample puts its {what} on new rows "
                 f"at {fmt(self.estimate)} ({pct} CI {fmt(self.interval.low)} to "
                 f"{fmt(self.interval.high)}; the interval at the threshold held fixed, "
                 f"{fmt(self.naive_interval.low)} to {fmt(self.naive_interval.high)}, ignores "
                 "the choice)")
        if self.objective != "recall" and self.apparent_gain > 0:
            share = 1.0 - self.gain / self.apparent_gain
            text += (f": the re-choosing removes {share:.0%} of the apparent gain "
                     f"({fmt(self.apparent_gain)} -> {fmt(self.gain)}).")
        else:
            text += "."
        return text

    def to_frame(self):
        """Rows ``threshold``, ``value`` (on new rows), ``apparent``: ``estimate``, ``low``,
        ``high``. Needs pandas."""
        pd = import_pandas("ThresholdChoice.to_frame")
        return pd.DataFrame(
            {"estimate": [self.threshold, self.estimate, self.apparent],
             "low": [self.threshold_interval.low, self.interval.low, self.naive_interval.low],
             "high": [self.threshold_interval.high, self.interval.high,
                      self.naive_interval.high]},
            index=["threshold", "value", "apparent (fixed threshold)"])

    def __repr__(self) -> str:
        return (f"ThresholdChoice(objective={self.objective!r}, threshold={self.threshold:g}, "
                f"apparent={fmt(self.apparent)}, estimate={fmt(self.estimate)}, "
                f"interval=({fmt(self.interval.low)}, {fmt(self.interval.high)}))")

    def __str__(self) -> str:
        rows = [["threshold", self.threshold, *self.threshold_interval],
                ["value on new rows", self.estimate, *self.interval],
                ["apparent (threshold fixed)", self.apparent, *self.naive_interval]]
        return "\n".join([*table([Col("", None), Col("estimate"), Col("low"), Col("high")],
                                 rows), "", self.summary()])


def _order_interval(values, level):
    """Percentile interval of values that may hold ``inf`` (treat none): order statistics,
    no interpolation between them."""
    v = np.sort(values[~np.isnan(values)])
    if v.shape[0] == 0:
        return resampling.ConfidenceInterval(np.nan, np.nan)
    lo = v[int(math.floor((1 - level) / 2 * (v.shape[0] - 1)))]
    hi = v[int(math.ceil((1 + level) / 2 * (v.shape[0] - 1)))]
    return resampling.ConfidenceInterval(float(lo), float(hi))


def choose_threshold(y, score, *, objective="cost", costs=None, cost_fp=None, cost_fn=None,
                     benefit_tp=0.0, benefit_tn=0.0, at=None, target=None, pos_label=None,
                     sample_weight=None, n_boot=2000, level=0.95, random_state=None,
                     ci_method=resampling.DEFAULT_CI_METHOD, groups=None, time=None):
    """Choose a threshold on the data, and say how uncertain the choice and its value are.

    Parameters
    ----------
    y : array-like of shape (n,)
    score : array-like of shape (n,)
        Any score that ranks the positives first; the cutoffs are its distinct values.
    objective : {"cost", "net_benefit", "recall"}, default="cost"
        ``"cost"``: the cutoff of least expected cost (needs ``costs`` or ``cost_fp`` /
        ``cost_fn``, as in :func:`expected_cost`). ``"net_benefit"``: the cutoff of largest
        net benefit at the threshold probability ``at`` (the exchange rate
        ``at / (1 - at)``). ``"recall"``: the highest cutoff whose recall reaches ``target``.
    costs, cost_fp, cost_fn, benefit_tp, benefit_tn
        The costs, for ``objective="cost"``.
    at : float in (0, 1), default=None
        For ``objective="net_benefit"``.
    target : float in (0, 1], default=None
        For ``objective="recall"``.
    pos_label : label, default=None
    sample_weight : array-like of shape (n,), default=None
    n_boot : int, default=2000
        Resamples; at least 200 (see :func:`~chimeraboost.resampling.check_n_boot`).
    level : float in (0, 1), default=0.95
    random_state : None, int or numpy Generator
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        How the intervals are read off the resamples: the naive interval (a statistic's own
        replicates) by this method; the interval of the value on new rows, a basic
        interval of a pivot, takes its percentile or expanded-percentile counterpart (see
        Notes); the threshold's interval is always of order statistics.
    groups, time : array-like of shape (n,), default=None
        Resample whole groups, or blocks of time-ordered rows, as in
        :func:`decision_report`: the threshold is re-chosen on each resample of units, and
        "the rows a resample left out" are the units it left out.

    Returns
    -------
    ThresholdChoice

    Notes
    -----
    In resample ``b`` the threshold is chosen again, ``t_b``; its value on the resample,
    ``V_b(t_b)``, is optimistic exactly as the apparent value ``V(t)`` on the data is. The
    bootstrap's copy of the error of the apparent value is the resample's choice scored on
    rows minus its apparent value, taken two ways: on all the rows, ``V(t_b) - V_b(t_b)``
    (too small: the rows include those ``t_b`` was chosen on) and on the rows the resample
    left out, ``V_oob(t_b) - V_b(t_b)`` (too large: ``t_b`` was chosen on about ``0.632 n``
    distinct rows). The optimism is Efron's .632 estimate, ``0.632`` times the mean of the
    second (Efron 1983, doi:10.1080/01621459.1983.10477973; Efron & Tibshirani 1997,
    doi:10.1080/01621459.1997.10474007). The interval adds to the apparent value the
    percentiles of the .632 mixture ``0.368 (V(t_b) - V_b(t_b)) + 0.632 (V_oob(t_b) -
    V_b(t_b))`` (a basic bootstrap interval, Davison & Hinkley 1997, section 5.2,
    doi:10.1017/CBO9780511802843). The naive interval -- percentiles of ``V_b(t)`` at the
    threshold held fixed -- misses the optimism and undercovers.
    ``benchmarks/bench_decisions.py`` measures them against known population costs (n = 200
    and 500): the naive interval covers 75-81%, the first copy alone (the plain pivot) 86-93%,
    this interval 98-99% -- conservative, never short.

    How ``ci_method`` applies: the naive interval is read by it, with the jackknife of the
    same scheme. The value's interval is a basic interval of the .632 pivot, not a
    statistic's own replicates, so BCa's bias correction and acceleration (defined for the
    latter) are not applied to it: ``"bca"`` and ``"percentile"`` read its percentiles,
    ``"expanded_bca"`` and ``"expanded_percentile"`` widen them by Hesterberg's Student
    factor on the degrees of freedom of the value at the chosen threshold (its jackknife).
    The threshold's interval (a cutoff, possibly ``inf`` for "treat none") is the order
    statistics at the level's quantiles, whatever the method.

    Cost: every distinct score is a candidate cutoff, so each resample sweeps them all (and
    sums the rows it left out, to score its choice); the time grows as ``n_boot`` times the
    rows, the memory as the rows (one chunk of replicates at a time).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> p = rng.beta(2, 5, 500); y = rng.random(500) < p
    >>> c = choose_threshold(y, p, cost_fp=1, cost_fn=4, n_boot=1000, random_state=0)
    >>> 0.05 < c.threshold < 0.45, c.estimate >= c.apparent
    (True, True)
    """
    if objective not in _OBJECTIVES:
        msg = f"objective must be one of {list(_OBJECTIVES)}, got {objective!r}."
        raise ValueError(msg)
    c = check_costs(costs, cost_fp, cost_fn, benefit_tp, benefit_tn,
                    required=objective == "cost")
    if objective != "cost" and c is not None:
        msg = f"costs apply to objective='cost', not to objective={objective!r}."
        raise ValueError(msg)
    for arg, value, its in (("at", at, "net_benefit"), ("target", target, "recall")):
        if value is not None and objective != its:
            msg = (f"{arg}={value!r} applies to objective={its!r}, not to "
                   f"objective={objective!r}"
                   + (", whose threshold follows from the costs; drop at=, or pass "
                      "objective='net_benefit'." if objective == "cost" else
                      f"; drop {arg}=, or pass objective={its!r}."))
            raise ValueError(msg)
    if objective == "net_benefit":
        if at is None:
            msg = "objective='net_benefit' needs at= (the threshold probability, in (0, 1))."
            raise TypeError(msg)
        at = check_threshold(at, "at")
    if objective == "recall":
        if target is None:
            msg = "objective='recall' needs target= (the recall to reach, in (0, 1])."
            raise TypeError(msg)
        target = check_real(target, "target", strictly_positive=True)
        if target > 1:
            msg = f"target={target!r} is a recall and must lie in (0, 1]."
            raise ValueError(msg)
    level = check_level(level, "level")
    event, s, w = check_target(y, score, sample_weight, pos_label)
    if not event.any() or event.all():
        msg = ("y holds one class only: no threshold can be chosen between the classes; pass "
               "rows of both classes.")
        raise ValueError(msg)
    ev = _ChoiceEvaluator(event, s, w, objective, c, at, target)
    scheme = decision_scheme(y, event, n_boot=n_boot, random_state=random_state,
                             ci_method=ci_method, groups=groups, time=time)
    boot = scheme.bootstrap([ev])[0]
    reps = boot.replicates
    apparent = float(ev.original[ev.chosen])
    # Two bootstrap copies of the error of the apparent value: the resample's choice scored
    # on all the rows (too kind: they include the rows it was chosen on) and on the rows it
    # left out (too harsh: it was chosen on about 0.632 n distinct rows).
    in_sample = reps["original"] - reps["apparent"]
    out_of_bag = reps["oob"] - reps["apparent"]
    delta = 0.368 * in_sample + 0.632 * out_of_bag
    ok = ~np.isnan(out_of_bag)
    optimism = 0.632 * float(np.mean(out_of_bag[ok])) if ok.any() else np.nan
    pivot = "expanded_percentile" if scheme.ci_method.startswith("expanded") else "percentile"
    value_interval = scheme.interval(apparent + delta, apparent + optimism, level,
                                     jackknife=boot.jackknife[_FIXED], n_units=boot.n_rows,
                                     events=boot.events, method=pivot)
    if objective == "recall":
        reference = target
    else:
        reference = (min if objective == "cost" else max)(float(ev.original[0]),
                                                          float(ev.original[-1]))
    return ThresholdChoice(
        objective=objective, threshold=float(ev.cutoffs[ev.chosen]),
        threshold_interval=_order_interval(reps["threshold"], level), apparent=apparent,
        optimism=optimism, estimate=apparent + optimism,
        interval=value_interval, naive_interval=boot.interval(_FIXED, level=level),
        reference=reference, greater_is_better=objective != "cost", n_boot=scheme.n_boot,
        level=level, at=at, target=target, costs=c, ci_method=scheme.ci_method,
        units=scheme.kind)
