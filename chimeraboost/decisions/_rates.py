"""How often is the action right, at this threshold, and how sure are we? Rates with intervals.

:func:`rates_at_threshold` gives sensitivity, specificity, PPV, NPV and the flagged share of
the decision ``score >= threshold``, each with an interval: Wilson or exact (Clopper-Pearson)
where the rows are independent draws of equal weight (each rate is a binomial proportion of a
count of rows), the library's bootstrap otherwise (unequal weights, ``groups=``, ``time=``),
read by ``ci_method``. The result is a :class:`RatesResult`.
:func:`chimeraboost.metrics.recall_at_k` stays the ranking form (the top ``k`` rows).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest

from .. import resampling
from .._shared.api import public
from .._shared.format import Col, fmt, percent, table
from .._shared.validation import check_level, import_pandas, warn_degenerate
from ._checks import check_probability, check_target, check_threshold, key
from ._scheme import scheme as decision_scheme
from ._sweep import DecisionEvaluator

__all__ = ["RATES", "RatesResult", "equal_weights", "rates_at_threshold", "wilson_rates"]

#: The rates, each with the rows it is a share of.
RATES = {
    "sensitivity": "positives",
    "specificity": "negatives",
    "ppv": "flagged rows",
    "npv": "rows left",
    "flagged": "rows",
}
_METHODS = ("auto", "wilson", "exact", "bootstrap")


class RatesResult:
    """The rates of one decision, each with its interval.

    Attributes
    ----------
    threshold : float
    rates : dict
        Rate name -> value (``sensitivity``, ``specificity``, ``ppv``, ``npv``, ``flagged``).
    intervals : dict
        Rate name -> :class:`~chimeraboost.resampling.ConfidenceInterval`.
    counts : dict
        Rate name -> ``(numerator, denominator)`` weights of rows.
    method : str
        ``"wilson"``, ``"exact"`` or ``"bootstrap"``.
    level : float
    """

    def __init__(self, threshold, rates, intervals, counts, method, level):
        self.threshold, self.rates, self.intervals = threshold, rates, intervals
        self.counts, self.method, self.level = counts, method, level

    def confidence_interval(self, rate: str):
        """The interval of one rate."""
        if rate not in self.intervals:
            msg = f"rate must be one of {list(RATES)}, got {rate!r}."
            raise KeyError(msg)
        return self.intervals[rate]

    def to_frame(self):
        """One row per rate: ``value``, ``low``, ``high``, ``numerator``, ``denominator``.
        Needs pandas."""
        pd = import_pandas("RatesResult.to_frame")
        return pd.DataFrame.from_dict(
            {r: {"value": v, "low": self.intervals[r].low, "high": self.intervals[r].high,
                 "numerator": self.counts[r][0], "denominator": self.counts[r][1]}
             for r, v in self.rates.items()}, orient="index")

    def __repr__(self) -> str:
        shown = ", ".join(f"{r}={fmt(v, 3)}" for r, v in self.rates.items())
        return f"RatesResult(threshold={self.threshold:g}, {shown}, method={self.method!r})"

    def __str__(self) -> str:
        rows = [[r, v, self.intervals[r].low, self.intervals[r].high,
                 f"{fmt(self.counts[r][0], 0)} of {fmt(self.counts[r][1], 0)} {RATES[r]}"]
                for r, v in self.rates.items()]
        return "\n".join([f"Rates of score >= {self.threshold:g} ({percent(self.level)} "
                          f"{self.method} intervals)",
                          *table([Col("rate", None), Col("value", 3), Col("low", 3),
                                  Col("high", 3), Col("of", None)], rows)])


def _integer_weights(w) -> bool:
    return w is None or bool(np.all(w == np.round(w)))


def equal_weights(w) -> bool:
    """No weights, or every row the same weight: nothing but the rows' count to go by."""
    return w is None or bool(np.all(w == w[0]))


def wilson_rates(event, treated, level) -> dict:
    """Rate -> Wilson interval from the rows' counts (independent rows of equal weight)."""
    counts = _counts(event, treated, None)
    return {r: _binomial(*counts[r], level, "wilson") for r in RATES}


def _method(method, w, dependent: bool) -> str:
    """The interval method: ``"auto"`` is Wilson for independent rows of equal weight (each
    rate a binomial share of a count of rows), the bootstrap otherwise -- scale-invariant in
    the weights, as every other interval of the library."""
    if method not in _METHODS:
        msg = f"method must be one of {list(_METHODS)}, got {method!r}."
        raise ValueError(msg)
    if method == "auto":
        return "wilson" if equal_weights(w) and not dependent else "bootstrap"
    if method in ("wilson", "exact") and dependent:
        msg = (f"method={method!r} counts independent rows, but groups= / time= say the rows "
               "are not independent; pass method='bootstrap' (or 'auto').")
        raise ValueError(msg)
    if method in ("wilson", "exact") and not _integer_weights(w):
        msg = (f"method={method!r} counts independent rows, but sample_weight holds "
               "non-integer weights; pass method='bootstrap' (or integer frequency weights).")
        raise ValueError(msg)
    return method


@public(renamed={"score": "proba"})
def rates_at_threshold(y, proba, threshold, *, pos_label=None, sample_weight=None, level=0.95,
                       method="auto", n_boot=2000, random_state=None,
                       ci_method=resampling.DEFAULT_CI_METHOD, groups=None,
                       time=None) -> RatesResult:
    """Sensitivity, specificity, PPV, NPV and the flagged share of ``score >= threshold``,
    each with an interval.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n,)
        Probability of the positive class, or a 0/1 rule.
    threshold : float in (0, 1)
        One threshold (a list of several is refused: call once per threshold).
    pos_label : label, default=None
    sample_weight : array-like of shape (n,), default=None
        Weights of the rows. With ``method="auto"``, unequal weights take the bootstrap,
        whose interval does not change when every weight is multiplied by the same number.
        ``method="wilson"`` or ``"exact"`` with integer weights reads them as frequencies (a
        weight of 3 is three independent rows).
    level : float in (0, 1), default=0.95
    method : {"auto", "wilson", "exact", "bootstrap"}, default="auto"
        ``"wilson"``: Wilson's score interval; ``"exact"``: Clopper-Pearson; ``"bootstrap"``:
        ``n_boot`` resamples of the rows (or of ``groups`` / ``time`` blocks), the interval
        read by ``ci_method``. ``"auto"``: Wilson for independent rows of equal weight, the
        bootstrap with unequal weights or with ``groups`` / ``time``.
    n_boot : int, default=2000
    random_state : None, int or numpy Generator
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        How the bootstrap intervals are read (Wilson and exact intervals are closed forms).
    groups, time : array-like of shape (n,), default=None
        Rows that are not independent: whole groups, or blocks of time-ordered rows, are
        resampled (as in :func:`decision_report`); the binomial intervals are then refused.

    Returns
    -------
    RatesResult

    Notes
    -----
    Each rate is a share of a count of independent rows (sensitivity of the positives, PPV
    of the flagged rows, ...): given that count, its numerator is binomial, so Wilson's
    interval (Wilson 1927, JASA 22(158), 209-212, doi:10.1080/01621459.1927.10502953) or the
    exact interval (Clopper & Pearson 1934, Biometrika 26(4), 404-413,
    doi:10.1093/biomet/26.4.404) applies; both are scipy's ``binomtest(...).proportion_ci``.
    A rate with no row to be a share of (no positives, nothing flagged) is NaN with a
    warning.

    Examples
    --------
    >>> r = rates_at_threshold([0, 0, 1, 1, 1], [0.1, 0.7, 0.6, 0.8, 0.2], 0.5)
    >>> r.rates["sensitivity"], r.counts["sensitivity"]
    (0.6666666666666666, (2.0, 3.0))
    """
    event, s, w = check_target(y, proba, sample_weight, pos_label, "proba")
    s = check_probability(s, "proba")
    t = check_threshold(threshold, "threshold")
    level = check_level(level, "level")
    frequencies = method in ("wilson", "exact")  # asked for: integer weights count rows
    method = _method(method, w, groups is not None or time is not None)
    ev = DecisionEvaluator(event, s, [t], sample_weight=w, names=set(RATES))
    point = ev.evaluate(None, warn=False)
    treated = s >= t
    counts = _counts(event, treated, w)
    rates = {r: float(point[key(r, t)][0]) for r in RATES}
    empty = [r for r in RATES if counts[r][1] <= 0]
    if empty:
        warn_degenerate(f"{', '.join(empty)} at threshold {t:g}: no row to be a share of "
                        "(a class missing, or nothing flagged / left); NaN.")
    if method == "bootstrap":
        scheme = decision_scheme(y, event, n_boot=n_boot, random_state=random_state,
                                 ci_method=ci_method, groups=groups, time=time)
        boot = scheme.bootstrap([ev])[0]
        intervals = {r: boot.interval(key(r, t), level=level) for r in RATES}
    else:
        # Equal weights chosen by "auto" say nothing about how many rows there are: the
        # shares are those of the rows, counted as rows.
        rows = counts if frequencies or w is None else _counts(event, treated, None)
        intervals = {r: _binomial(*rows[r], level, method) for r in RATES}
    return RatesResult(t, rates, intervals, counts, method, level)


def _counts(event, treated, w) -> dict:
    """Rate -> (numerator, denominator): the weight of the rows each rate is a share of."""
    wt = np.ones(event.shape[0]) if w is None else w
    tp, fp = wt[treated & event].sum(), wt[treated & ~event].sum()
    pos, neg = wt[event].sum(), wt[~event].sum()
    counts = {"sensitivity": (tp, pos), "specificity": (neg - fp, neg),
              "ppv": (tp, tp + fp), "npv": (neg - fp, pos - tp + neg - fp),
              "flagged": (tp + fp, pos + neg)}
    return {r: (float(a), float(b)) for r, (a, b) in counts.items()}


def _binomial(k, n, level, method):
    if n <= 0:
        return resampling.ConfidenceInterval(np.nan, np.nan)
    ci = binomtest(int(round(k)), int(round(n))).proportion_ci(level, method=method)
    return resampling.ConfidenceInterval(float(ci.low), float(ci.high))
