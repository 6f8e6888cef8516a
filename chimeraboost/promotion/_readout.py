"""Read the online test out honestly: the plan's metric, every look counted, one decision.

Questions this module answers:

- *Is the challenger better on the primary metric, by more than the margin, at this look?*
  -> :func:`read_ab_test`: the difference with its repeated confidence interval, the z
  statistic against the look's Lan-DeMets bound (the bounds of every look taken so far are
  recomputed from the rows each brought, so looking every day keeps the error at alpha).
- *Does any guardrail get worse by more than its margin?* -> the same readout: each guardrail
  as a non-inferiority test on the same interval.
- *What now?* -> :attr:`ABReadout.decision`: ``"promote"``, ``"keep the champion"`` or
  ``"keep testing"`` (with :attr:`ABReadout.rows_needed`).
- *Randomised by user, several rows per user?* -> ``groups_champion=`` /
  ``groups_challenger=``: each arm's standard error is the cluster-robust one of its mean
  (:func:`._metrics.clustered_mean_variance`, Deng, Knoblich & Lu 2018) or Obuchowski's
  clustered DeLong variance for a ROC-AUC, since a user's rows are not independent.

The interval at look ``k`` is the repeated confidence interval ``improvement +- b_k se``
(Jennison & Turnbull [JT00]_, chapter 9), with ``b_k`` the look's bound: it covers the true
difference at every look at once with probability ``1 - alpha``, whenever one stops.

References
----------
.. [DK00] Donner, A. and Klar, N. (2000). *Design and Analysis of Cluster Randomization
   Trials in Health Research*. Arnold. Section 6.2 (the adjusted chi-square test).
.. [JT00] Jennison, C. and Turnbull, B. W. (2000). *Group Sequential Methods with Applications
   to Clinical Trials*. Chapman & Hall/CRC. doi:10.1201/9780367805326
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .. import resampling
from ..exceptions import NarrowIntervalWarning
from ..exceptions import warn as _warn
from .._shared.array_checks import as_1d, check_aligned
from .._shared.format import Col, count, fitted_table
from .._shared.units import group_codes
from ._metrics import arm_estimate, row_values
from ._plan import ABMetric, ABTestPlan
from ._sequential import lan_demets_bounds

__all__ = ["ABReadout", "read_ab_test"]

PROMOTE, KEEP, TESTING = "promote", "keep the champion", "keep testing"


@dataclass
class ABReadout:
    """What the online test says at the last look.

    Attributes
    ----------
    decision : str
        ``"promote"``, ``"keep the champion"`` or ``"keep testing"``.
    reason : str
    looks : int
        Looks taken (distinct look values holding new rows), against ``planned_looks``.
    planned_looks : int
    rows : dict
        Rows per arm so far (``"challenger"``, ``"champion"``).
    rows_needed : dict or None
        With ``"keep testing"``: more rows per arm before the decision can be made.
    metrics : list of dict
        Per metric (primary first): ``name``, ``role``, ``champion``, ``challenger``,
        ``improvement`` (> 0 better), ``low``, ``high`` (the repeated confidence interval of
        the improvement), ``null`` (the improvement tested against), ``z``, ``status``
        (primary: ``"better"`` by more than the margin, ``"not better"`` by the margin, or
        ``"undecided"``; guardrail: ``"holds"``, ``"fails"`` or ``"undecided"``).
    history : list of dict
        Per look: ``information`` (rows over the planned rows), ``z`` and ``bound``.
    alpha : float
    groups : dict or None
        With ``groups_*``: the randomised units (groups) per arm at the last look.
    """

    decision: str
    reason: str
    looks: int
    planned_looks: int
    rows: dict
    rows_needed: dict | None
    metrics: list
    history: list = field(default_factory=list)
    alpha: float = 0.05
    groups: dict | None = None

    @property
    def primary(self) -> dict:
        return self.metrics[0]

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def __str__(self) -> str:
        lines = [f"A/B test readout: look {self.looks} of {self.planned_looks} planned; rows "
                 f"challenger {count(self.rows['challenger'])}, champion "
                 f"{count(self.rows['champion'])}"
                 + ("" if self.groups is None else
                    f"; groups challenger {count(self.groups['challenger'])}, champion "
                    f"{count(self.groups['champion'])}"),
                 f"  decision: {self.decision} -- {self.reason}"]
        if self.rows_needed:
            lines.append(f"  rows still needed: challenger "
                         f"{count(self.rows_needed['challenger'])}, champion "
                         f"{count(self.rows_needed['champion'])}")
        level = f"{1 - self.alpha:.0%}"
        rows = [[m["name"], m["role"], m["champion"], m["challenger"], m["improvement"],
                 m["low"], m["high"], m["null"], m["z"], m["status"]] for m in self.metrics]
        got, below, _ = fitted_table(
            [Col("metric", None), Col("role", None), Col("champion"), Col("challenger"),
             Col("improvement", signed=True), Col(f"{level} low", signed=True),
             Col("high", signed=True), Col("null", signed=True), Col("z", 2, signed=True),
             Col("status", None)], rows, indent=2)
        lines += got + [f"  {b}" for b in below]
        lines.append("  (improvement: challenger minus champion, > 0 better; the interval holds "
                     "at every look at once)")
        return "\n".join(lines)

    __repr__ = __str__


def _arm(plan: ABTestPlan, data, look, arm: str, groups=None) -> tuple:
    """Per metric the arm's per-row values, each row's look, and each row's group code
    (None without ``groups``)."""
    if not isinstance(data, dict):
        msg = (f"{arm} must be a dict metric name -> the arm's per-row values (or a (y, score) "
               f"pair), got {type(data).__name__}.")
        raise TypeError(msg)
    values, n = {}, None
    for name, m in plan.metrics.items():
        if name not in data:
            role = "primary metric" if m is plan.primary else "guardrail"
            msg = (f"the plan's {role} {name!r} is not in {arm} (it holds {sorted(data)}); "
                   "a readout answers the question the plan registered.")
            raise ValueError(msg)
        v = row_values(m.kind, data[name], f"{arm}[{name!r}]")
        rows = (v[0] if isinstance(v, tuple) else v).size
        if n is not None and rows != n:
            msg = f"{arm}: the metrics hold different numbers of rows ({n} and {rows})."
            raise ValueError(msg)
        values[name], n = v, rows
    codes = None
    if groups is not None:
        check_aligned(**{f"look_{arm}": look, f"groups_{arm}": groups})
        codes = group_codes(groups, n, f"groups_{arm}")[1]
    if look is None:
        return values, np.zeros(n), codes
    look = as_1d(look, f"look_{arm}")
    if look.shape[0] != n:
        msg = f"look_{arm} has {look.shape[0]} rows, the {arm}'s metrics {n}."
        raise ValueError(msg)
    return values, look, codes


def _take(v, rows):
    if v is None:
        return None
    return (v[0][rows], v[1][rows]) if isinstance(v, tuple) else v[rows]


def _estimate(m: ABMetric, v1, v0, null: float, g1=None, g0=None):
    """``(champion, challenger, improvement, se, se of the test against null)`` of one
    metric on the rows so far (``g1``, ``g0``: each row's group in each arm, or None)."""
    if m.kind == "roc_auc":
        for v, arm in ((v1, "challenger"), (v0, "champion")):
            if np.unique(v[0]).size < 2:
                msg = (f"the {arm}'s rows hold one class so far: {m.name!r} (a ROC-AUC) is "
                       "undefined until both outcomes have arrived in both arms.")
                raise ValueError(msg)
    c1, var1, n1 = arm_estimate(m.kind, v1, g1)
    c0, var0, n0 = arm_estimate(m.kind, v0, g0)
    d = c1 - c0
    se = math.sqrt(var1 + var0)
    se_test = se
    if m.kind == "proportion" and null == 0:
        # The two-proportion z test, whose variance under the null pools the arms: the test
        # the plan powered (sample_size_proportions takes the pooled variance under the
        # null, as R's power.prop.test). The interval keeps the unpooled one.
        pooled = (c1 * n1 + c0 * n0) / (n1 + n0)
        # With groups each arm's pooled variance is inflated by the arm's design effect,
        # its clustered variance over the binomial one (as Donner & Klar's adjusted
        # chi-square test for cluster-randomised trials [DK00]_); groups of one: 1.
        f1, f0 = (1.0, 1.0) if g1 is None else (_deff(var1, c1, n1), _deff(var0, c0, n0))
        se_test = math.sqrt(pooled * (1 - pooled) * (f1 / n1 + f0 / n0))
    return c0, c1, (d if m.greater_is_better else -d), se, se_test


def _deff(var, p, n) -> float:
    """A proportion's clustered variance over its binomial one (1 when both are 0)."""
    binomial = p * (1 - p) / n
    return var / binomial if binomial > 0 else 1.0


def _looks(look1, look0, plan):
    """The look values in order, each with the cumulative rows per arm and its information."""
    values = np.unique(np.concatenate([look1, look0]))
    planned = plan.n_challenger + plan.n_champion
    out, seen = [], -1
    for v in values:
        r1, r0 = look1 <= v, look0 <= v
        n = int(r1.sum() + r0.sum())
        if n == seen:
            continue
        out.append((r1, r0, min(n / planned, 1.0)))
        seen = n
        if n >= planned:
            break  # the planned rows are in: this look is the last
    return out


def read_ab_test(plan, champion, challenger, *, look_champion=None, look_challenger=None,
                 primary=None, groups_champion=None, groups_challenger=None) -> ABReadout:
    """Read an online test out against its plan.

    Parameters
    ----------
    plan : ABTestPlan
        The pre-registration (:func:`plan_ab_test` or :meth:`ABTestPlan.load`).
    champion, challenger : dict
        Per metric of the plan, the arm's rows: one number per row (a 0/1 outcome for a
        proportion) or a ``(y, score)`` pair for a Brier score, log loss or ROC-AUC.
    look_champion, look_challenger : array-like of shape (n,), default=None
        The look at which each row arrived (a day number, a date): each distinct value is a
        look at every row up to it. None: one look at every row.
    primary : str, default=None
        If given, must be the plan's primary metric: a readout of another is refused.
    groups_champion, groups_challenger : array-like of shape (n,), default=None
        The randomised unit of each of the arm's rows (the user, when users were randomised
        and each brings several rows), in the style of ``look_*``: one array per arm, both
        or neither. Each arm's standard error is then the cluster-robust one
        (:func:`~chimeraboost.promotion._metrics.clustered_mean_variance` for a
        proportion, a mean, a Brier score or a log loss; Obuchowski's clustered DeLong
        variance for a ROC-AUC), the arms taken as independent (each user in one arm;
        the labels are read within each arm). Below
        :data:`~chimeraboost.resampling.MIN_GROUPS` groups in an arm a
        :class:`~chimeraboost.exceptions.NarrowIntervalWarning` says the standard error is
        likely too small.

    Returns
    -------
    ABReadout

    Notes
    -----
    At look ``k`` with a fraction ``t_k`` of the planned rows in, the primary metric's
    ``z = (improvement - margin) / se`` (for a proportion against 0, the two-proportion z
    test's pooled standard error) is compared with the Lan-DeMets bound ``b_k`` of the
    looks taken so far. ``z >= b_k``: the challenger is better by more than the margin;
    then every guardrail must hold (the interval's lower end above ``-margin``) to promote.
    ``z <= -b_k``, or a guardrail whose interval lies wholly below ``-margin``: keep the
    champion. No bound crossed at the planned rows: keep the champion (not shown better).
    Otherwise: keep testing.

    With groups, a mean's variance is ``G / (G - 1) sum_g (S_g - n_g mean)^2 / n^2`` over
    the arm's ``G`` groups (Deng, Knoblich & Lu 2018, doi:10.1145/3219819.3219919): the
    standard error of the difference is statsmodels' cluster-robust one of an OLS of the
    metric on an arm indicator (``cov_type="cluster"``) without its small-sample factor,
    each arm carrying its own ``G / (G - 1)``. The pooled test of a proportion against 0
    inflates each arm's pooled variance by the arm's design effect (its clustered over its
    binomial variance; Donner & Klar 2000). Groups of one row each give the numbers
    without groups.

    Examples
    --------
    >>> import numpy as np
    >>> from chimeraboost.promotion import ab_metric, plan_ab_test
    >>> plan = plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.12))
    >>> rng = np.random.default_rng(0)
    >>> champion = {"conversion": rng.random(plan.n_champion) < 0.10}
    >>> challenger = {"conversion": rng.random(plan.n_challenger) < 0.13}
    >>> read_ab_test(plan, champion, challenger).decision
    'promote'
    """
    if not isinstance(plan, ABTestPlan):
        msg = f"plan must be an ABTestPlan (plan_ab_test or ABTestPlan.load), got {plan!r}."
        raise TypeError(msg)
    if primary is not None and primary != plan.primary.name:
        msg = (f"primary={primary!r} is not the plan's primary metric {plan.primary.name!r}: "
               "the decision rests on the metric registered before the test; another one "
               "read afterwards is a new test, to be planned.")
        raise ValueError(msg)
    if (groups_champion is None) != (groups_challenger is None):
        given = "groups_champion" if groups_challenger is None else "groups_challenger"
        other = "groups_challenger" if groups_challenger is None else "groups_champion"
        msg = (f"{given}= was given without {other}=: pass the randomised unit of each row "
               "in both arms (or neither, when every row is its own unit).")
        raise ValueError(msg)
    v1, l1, g1 = _arm(plan, challenger, look_challenger, "challenger", groups_challenger)
    v0, l0, g0 = _arm(plan, champion, look_champion, "champion", groups_champion)
    looks = _looks(l1, l0, plan)
    bounds = lan_demets_bounds([t for *_, t in looks], alpha=plan.alpha)
    p = plan.primary
    history, stop = [], None
    for k, ((r1, r0, t), b) in enumerate(zip(looks, bounds)):
        _, _, imp, _, se = _estimate(p, _take(v1[p.name], r1), _take(v0[p.name], r0),
                                     p.margin, _take(g1, r1), _take(g0, r0))
        z = (imp - p.margin) / se if se > 0 else np.nan
        history.append({"information": t, "z": z, "bound": float(b)})
        if abs(z) >= b or k == len(looks) - 1:
            stop = k
            break
    r1, r0, t = looks[stop]
    b = bounds[stop]
    rows = {"challenger": int(r1.sum()), "champion": int(r0.sum())}
    metrics = []
    for m in plan.metrics.values():
        null = m.margin if m is p else -m.margin
        c0, c1, imp, se, se_test = _estimate(m, _take(v1[m.name], r1), _take(v0[m.name], r0),
                                             null, _take(g1, r1), _take(g0, r0))
        metrics.append({"name": m.name, "role": "primary" if m is p else "guardrail",
                        "champion": c0, "challenger": c1, "improvement": imp,
                        "low": imp - b * se, "high": imp + b * se, "null": null,
                        "z": (imp - null) / se_test if se_test > 0 else np.nan, "se": se})
    decision, reason, needed = _decide(plan, metrics, b, t, rows)
    groups = None if g1 is None else {"challenger": int(np.unique(g1[r1]).size),
                                      "champion": int(np.unique(g0[r0]).size)}
    _warn_few_groups(groups)
    return ABReadout(decision, reason, stop + 1, plan.looks, rows, needed, metrics, history,
                     plan.alpha, groups)


def _warn_few_groups(groups) -> None:
    few = {arm: g for arm, g in (groups or {}).items() if g < resampling.MIN_GROUPS}
    if few:
        shown = ", ".join(f"{g} in the {arm} arm" for arm, g in few.items())
        _warn(f"Only {shown}: a cluster-robust standard error from fewer than "
              f"{resampling.MIN_GROUPS} groups is likely too small (Cameron & Miller 2015, "
              "doi:10.3368/jhr.50.2.317), and the readout's intervals too narrow. Read them "
              "as a lower bound on the uncertainty.", NarrowIntervalWarning)


def _status(m, b) -> str:
    if m["role"] == "primary":
        if m["z"] >= b:
            return "better"
        return "not better" if m["z"] <= -b else "undecided"
    if m["low"] > m["null"]:
        return "holds"
    return "fails" if m["high"] < m["null"] else "undecided"


def _decide(plan, metrics, b, t, rows):
    for m in metrics:
        m["status"] = _status(m, b)
    p, guards = metrics[0], metrics[1:]
    failed = [g["name"] for g in guards if g["status"] == "fails"]
    open_ = [g["name"] for g in guards if g["status"] == "undecided"]
    final = t >= 1.0
    if failed:
        return KEEP, f"guardrail {', '.join(failed)} worse than its margin", None
    if p["status"] == "not better":
        return KEEP, "the challenger is shown not better by the margin", None
    if p["status"] == "better" and not open_:
        why = "better on the primary metric by more than the margin, guardrails hold"
        return PROMOTE, why, None
    if final:
        what = (f"guardrail {', '.join(open_)} not shown within its margin" if
                p["status"] == "better" else "not shown better at the planned rows")
        return KEEP, what, None
    needed = {"challenger": max(plan.n_challenger - rows["challenger"], 0),
              "champion": max(plan.n_champion - rows["champion"], 0)}
    why = ("primary metric undecided" if p["status"] == "undecided" else
           f"guardrail {', '.join(open_)} undecided")
    return TESTING, why + f" at {t:.0%} of the planned rows", needed
