"""What is acting on the model worth, against acting on everyone and on no one? Net benefit.

:func:`net_benefit` answers it at any number of threshold probabilities, with the two
references alongside; the result is a :class:`NetBenefitResult`.
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from .._shared.format import Col, fmt, table
from .._shared.validation import import_pandas
from ._checks import check_probability, check_target, check_thresholds
from ._sweep import DecisionEvaluator

__all__ = ["NetBenefitResult", "net_benefit"]


class NetBenefitResult:
    """Net benefit of acting on a score at each threshold, with treat-all and treat-none.

    Attributes
    ----------
    thresholds : ndarray of shape (K,)
        Threshold probabilities ``t``; a row is treated when its score is ``>= t``.
    net_benefit : ndarray of shape (K,)
        ``TP/n - FP/n * t/(1 - t)`` of the model's decisions.
    treat_all : ndarray of shape (K,)
        ``prevalence - (1 - prevalence) * t/(1 - t)``: treating every row.
    treat_none : ndarray of shape (K,)
        0: treating no row.
    standardized : ndarray of shape (K,)
        ``net_benefit / prevalence``: the share of the largest possible net benefit (that of
        treating exactly the positives); NaN without positives.
    prevalence : float
        Weighted share of positive rows.
    n : int
        Rows scored.
    """

    def __init__(self, thresholds, net_benefit, treat_all, standardized, prevalence, n):
        self.thresholds = thresholds
        self.net_benefit = net_benefit
        self.treat_all = treat_all
        self.treat_none = np.zeros_like(thresholds)
        self.standardized = standardized
        self.prevalence, self.n = prevalence, n

    def to_frame(self):
        """One row per threshold: ``threshold``, ``net_benefit``, ``treat_all``,
        ``treat_none``, ``standardized``. Needs pandas."""
        pd = import_pandas("NetBenefitResult.to_frame")
        return pd.DataFrame({"threshold": self.thresholds, "net_benefit": self.net_benefit,
                             "treat_all": self.treat_all, "treat_none": self.treat_none,
                             "standardized": self.standardized})

    def __repr__(self) -> str:
        shown = ", ".join(f"{t:g}: {fmt(v)}" for t, v in
                          zip(self.thresholds[:4], self.net_benefit[:4]))
        more = ", ..." if self.thresholds.shape[0] > 4 else ""
        return (f"NetBenefitResult(n={self.n}, prevalence={fmt(self.prevalence)}, "
                f"net_benefit={{{shown}{more}}})")

    def __str__(self) -> str:
        rows = [[t, nb, all_, 0.0, std] for t, nb, all_, std in
                zip(self.thresholds, self.net_benefit, self.treat_all, self.standardized)]
        cols = [Col("threshold", None), Col("net benefit", signed=True),
                Col("treat all", signed=True), Col("treat none", signed=True),
                Col("standardized", 3, signed=True)]
        rows = [[f"{r[0]:g}", *r[1:]] for r in rows]
        return "\n".join([f"Net benefit on {self.n:,} rows (prevalence "
                          f"{fmt(self.prevalence, 3)})", *table(cols, rows)])


@public(renamed={"score": "proba"})
def net_benefit(y, proba, thresholds, *, pos_label=None, sample_weight=None):
    """Net benefit of treating the rows whose score is at or above each threshold.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels: bool, 0/1 or -1/1, or any labels with ``pos_label``.
    proba : array-like of shape (n,)
        Probability of the positive class (``predict_proba(X)[:, 1]``), or a 0/1 rule (1:
        treat); a rule's decisions are the same at every threshold, which then only sets the
        exchange rate.
    thresholds : float or array-like of float, each strictly inside (0, 1)
        Threshold probabilities ``t``: a false positive is worth ``t / (1 - t)`` true
        positives, the odds at which a clinician (or a fraud team) is indifferent between
        acting and not.
    pos_label : label, default=None
        The positive class; None: True / 1.
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    NetBenefitResult
        ``thresholds``, ``net_benefit``, ``treat_all``, ``treat_none``, ``standardized`` (arrays
        over the thresholds) and ``to_frame()``.

    Notes
    -----
    With ``W`` the total weight, ``TP`` and ``FP`` the weight of positive and negative rows
    treated (score ``>= t``, the convention of ``dcurves``):

    ``NB(t) = TP / W - FP / W * t / (1 - t)``,
    treat-all ``pi - (1 - pi) t / (1 - t)`` with ``pi`` the prevalence, treat-none 0; the
    standardized net benefit is ``NB / pi`` (Kerr et al. 2016). A model is worth using at
    ``t`` when its net benefit exceeds both references. Vickers & Elkin (2006), Decision
    curve analysis, Medical Decision Making 26(6), 565-574, doi:10.1177/0272989X06295361;
    Kerr, Brown, Zhu & Janes (2016), J. Clin. Oncol. 34(21), 2534-2540,
    doi:10.1200/JCO.2015.65.5654.

    Examples
    --------
    Four rows, two positives. At ``t = 0.25`` the rows scored 0.3, 0.6 and 0.9 are treated,
    two positives and a negative: ``2/4 - 1/4 * 1/3 = 5/12``; at ``t = 0.5`` the rows scored
    0.6 and 0.9, one of each: ``1/4 - 1/4 * 1 = 0``. Treating all at 0.25:
    ``1/2 - 1/2 * 1/3 = 1/3``.

    >>> r = net_benefit([0, 1, 0, 1], [0.1, 0.9, 0.6, 0.3], [0.25, 0.5])
    >>> r.net_benefit.tolist(), r.treat_all.tolist()
    ([0.4166666666666667, 0.0], [0.33333333333333337, 0.0])
    """
    event, s, w = check_target(y, proba, sample_weight, pos_label, "proba")
    s = check_probability(s, "proba")
    t = check_thresholds(thresholds)
    ev = DecisionEvaluator(event, s, t, sample_weight=w,
                           names={"net_benefit", "net_benefit_all", "standardized_net_benefit"})
    out = ev.evaluate(None)

    def row(name):
        return np.array([out[f"{name}@{float(v)!r}"][0] for v in t])

    return NetBenefitResult(t, row("net_benefit"), row("net_benefit_all"),
                            row("standardized_net_benefit"), float(out["base_rate"][0]),
                            int(event.shape[0]))
