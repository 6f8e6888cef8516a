"""Plan the online test before it starts: the pre-registration.

Questions this module answers:

- *What is measured, which way is better, and what do the offline rows say about it?* ->
  :func:`ab_metric` (:class:`ABMetric`): the metric's name and kind, the number expected in
  each arm and what one row is worth (the variance of the per-row metric), from expected
  rates or from two models' outputs on labelled offline rows.
- *How many rows per arm, how many days, which bounds at each look?* -> :func:`plan_ab_test`
  (:class:`ABTestPlan`): the primary metric with its margin (the smallest improvement worth
  promoting, the ROPE), guardrails with their non-inferiority margins, alpha, power, the
  traffic split, rows per day and the number of looks. The rows of one look come from
  :mod:`._sample_size`; several looks multiply them by the inflation factor of the
  Lan-DeMets O'Brien-Fleming-type bounds (:mod:`._sequential`); randomising users that
  bring several rows each multiplies them by the design effect (``design_effect=``).
- *How is the plan kept?* -> :meth:`ABTestPlan.save` / :meth:`ABTestPlan.load` (JSON),
  ``print(plan)`` for the text.
"""

from __future__ import annotations

import json
import math
import textwrap
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy.special import ndtr, ndtri

from .._shared.array_checks import check_aligned, check_same_length
from .._shared.format import WIDTH, Col, count, fmt, percent, table
from .._shared.param_checks import check_level, check_positive_int, check_real
from ._metrics import KINDS, SCORED, check_kind, row_values, unit_variance
from ._sample_size import _common, _z_rows, sample_size_proportions
from ._sequential import inflation_factor, lan_demets_bounds

__all__ = ["ABMetric", "ABTestPlan", "ab_metric", "plan_ab_test"]

METHOD = "group-sequential, Lan-DeMets alpha spending of O'Brien-Fleming type"


@dataclass(frozen=True)
class ABMetric:
    """One metric of an online test, as the offline evidence sees it.

    Attributes
    ----------
    name : str
        The metric's name; the readout looks the arms' values up by it.
    kind : str
        ``"proportion"``, ``"mean"``, ``"brier"``, ``"log_loss"`` or ``"roc_auc"``.
    greater_is_better : bool
    champion, challenger : float
        The number expected in each arm.
    unit_champion, unit_challenger : float
        The variance of each arm's number times its rows (what one row is worth).
    margin : float
        Primary metric: the improvement the challenger must beat (0: any improvement).
        Guardrail: how much worse the challenger may be. Always >= 0, in the metric's units.
    source : str
        Where the numbers came from.
    """

    name: str
    kind: str
    greater_is_better: bool
    champion: float
    challenger: float
    unit_champion: float
    unit_challenger: float
    margin: float = 0.0
    source: str = ""

    @property
    def improvement(self) -> float:
        """Challenger minus champion, signed so that > 0 is better."""
        d = self.challenger - self.champion
        return d if self.greater_is_better else -d


def _offline(kind, champion, challenger, y, prevalence):
    """``(champion, unit, challenger, unit, source)`` from the offline evidence."""
    if kind == "proportion" or (kind == "roc_auc" and y is None):
        if kind == "roc_auc" and prevalence is None:
            msg = ("prevalence is needed to plan a ROC-AUC from two AUCs (the share of "
                   "positive rows); or pass the models' scores with y= on labelled rows.")
            raise ValueError(msg)
        c0 = check_level(champion, "champion", example="0.03")
        c1 = check_level(challenger, "challenger", example="0.031")
        return (*unit_variance(kind, c0, prevalence), *unit_variance(kind, c1, prevalence),
                "expected values" + ("" if kind == "proportion" else ", Hanley-McNeil"))
    if kind in SCORED:
        if y is None:
            msg = f"a {kind} is planned from two models' outputs on labelled rows: pass y=."
            raise ValueError(msg)
        check_aligned(y=y, champion=champion, challenger=challenger)
        n = check_same_length(y=y, champion=champion, challenger=challenger)
        champion, challenger = (row_values(kind, (y, s), name) for s, name in
                                ((champion, "champion"), (challenger, "challenger")))
        return (*unit_variance(kind, champion, prevalence),
                *unit_variance(kind, challenger, prevalence), f"{n:,} labelled offline rows")
    check_aligned(champion=champion, challenger=challenger)
    champion, challenger = (row_values(kind, v, name) for v, name in
                            ((champion, "champion"), (challenger, "challenger")))
    return (*unit_variance(kind, champion), *unit_variance(kind, challenger),
            f"{champion.size:,} and {challenger.size:,} offline rows")


def ab_metric(name, kind, champion, challenger, *, y=None, margin=0.0, greater_is_better=None,
              prevalence=None) -> ABMetric:
    """A metric of an online test, with what the offline evidence says of it.

    Parameters
    ----------
    name : str
    kind : {"proportion", "mean", "brier", "log_loss", "roc_auc"}
    champion, challenger : float or array-like
        ``"proportion"``: the rates expected in each arm. ``"mean"``: each model's per-row
        values on offline rows (a cost, revenue, a net benefit per row). ``"brier"``,
        ``"log_loss"``: each model's probabilities on labelled offline rows (``y=``);
        ``"roc_auc"``: their scores with ``y=``, or two AUCs with ``prevalence=``.
    y : array-like of shape (n,), default=None
        The offline rows' outcomes (two classes), for the scored kinds.
    margin : float >= 0, default=0.0
        For the primary metric, the improvement the challenger must beat (the region of
        practical equivalence); for a guardrail, how much worse it may be. In the metric's
        units; the direction comes from ``greater_is_better``.
    greater_is_better : bool, default=None
        None: True for a proportion and a ROC-AUC, False for a Brier score or a log loss;
        a ``"mean"`` must say.
    prevalence : float in (0, 1), default=None
        The share of positive rows, for a ROC-AUC planned from two AUCs.

    Returns
    -------
    ABMetric

    Examples
    --------
    >>> m = ab_metric("conversion", "proportion", 0.020, 0.023)
    >>> m.improvement > 0, m.unit_champion == 0.02 * 0.98
    (True, True)
    """
    if not isinstance(name, str) or not name:
        msg = f"name must be a non-empty string (the metric's name), got {name!r}."
        raise TypeError(msg)
    kind = check_kind(kind)
    gib = KINDS[kind] if greater_is_better is None else greater_is_better
    if not isinstance(gib, (bool, np.bool_)):
        msg = (f"greater_is_better must be True or False for metric {name!r} of kind 'mean' "
               "(is more revenue better, or is it a cost?).")
        raise TypeError(msg)
    margin = _margin(margin, name)
    c0, u0, c1, u1, source = _offline(kind, champion, challenger, y, prevalence)
    return ABMetric(name, kind, bool(gib), float(c0), float(c1), float(u0), float(u1), margin,
                    source)


def _margin(margin, name) -> float:
    if not isinstance(margin, (int, float, np.floating, np.integer)) or isinstance(margin, bool):
        msg = f"margin of {name!r} must be a number >= 0, got {margin!r}."
        raise TypeError(msg)
    if not (np.isfinite(margin) and margin >= 0):
        msg = (f"margin of {name!r} must be a number >= 0 in the metric's units, got {margin!r}: "
               "it is a size (the direction comes from greater_is_better); pass "
               f"{abs(margin)!r}.")
        raise ValueError(msg)
    return float(margin)


@dataclass
class ABTestPlan:
    """The pre-registration of an online test: what is measured, how many rows, when to look.

    Attributes
    ----------
    primary : ABMetric
    guardrails : tuple of ABMetric
    alpha, power, challenger_share : float
        Two-sided error, power at the offline improvement, the challenger's share of traffic.
    rows_per_day : float or None
        Rows entering the test per day, both arms together.
    looks : int
        Planned looks (1: read once at the end).
    n_challenger, n_champion : int
        Rows needed in each arm.
    n_fixed : int
        The challenger's rows for one look (``n_challenger`` over the inflation factor).
    days : int or None
        Days to reach the rows at ``rows_per_day``.
    bounds : list of float
        The z each planned look must reach (equally spaced looks).
    guardrail_power : dict
        Each guardrail's power to show non-inferiority at the planned rows.
    method : str
    design_effect : float
        How much the rows were multiplied by for several rows per randomised unit (1: every
        row its own unit).
    """

    primary: ABMetric
    guardrails: tuple = ()
    alpha: float = 0.05
    power: float = 0.8
    challenger_share: float = 0.5
    rows_per_day: float | None = None
    looks: int = 1
    n_challenger: int = 0
    n_champion: int = 0
    n_fixed: int = 0
    days: int | None = None
    bounds: list = field(default_factory=list)
    guardrail_power: dict = field(default_factory=dict)
    method: str = METHOD
    design_effect: float = 1.0

    @property
    def metrics(self) -> dict:
        """Every metric by name, the primary first."""
        return {m.name: m for m in (self.primary, *self.guardrails)}

    def to_dict(self) -> dict:
        """Every field, as plain JSON types."""
        out = asdict(self)
        out["guardrails"] = [asdict(g) for g in self.guardrails]
        return out

    @classmethod
    def from_dict(cls, data: dict) -> ABTestPlan:
        """The plan :meth:`to_dict` wrote."""
        try:
            data = dict(data)
            data["primary"] = ABMetric(**data["primary"])
            data["guardrails"] = tuple(ABMetric(**g) for g in data.get("guardrails", ()))
            return cls(**data)
        except (KeyError, TypeError) as exc:
            msg = f"not a plan written by ABTestPlan.save / to_dict: {exc}"
            raise ValueError(msg) from None

    def save(self, path) -> None:
        """Write the plan as JSON (the pre-registration to keep with the test)."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=2)

    @classmethod
    def load(cls, path) -> ABTestPlan:
        """Read a plan written by :meth:`save`."""
        with open(path, encoding="utf-8") as f:
            return cls.from_dict(json.load(f))

    def __str__(self) -> str:
        p = self.primary
        days = ("" if self.days is None else
                f" = {self.days} days at {count(self.rows_per_day)} rows/day")
        lines = [f"A/B test plan: primary {p.name} ({p.kind}, "
                 f"{'greater' if p.greater_is_better else 'lower'} is better)",
                 f"  rows: challenger {self.n_challenger:,}, champion {self.n_champion:,} "
                 f"(challenger's share {self.challenger_share:g}){days}"
                 + ("" if self.design_effect == 1.0 else
                    f", design effect {self.design_effect:g}"),
                 f"  alpha {self.alpha:g} two-sided, power {percent(self.power)} at the offline "
                 f"improvement, {self.looks} look(s)",
                 f"  looks: {self.method}"]
        if self.looks > 1:
            lines += textwrap.wrap(" ".join(fmt(b, 2) for b in self.bounds), WIDTH,
                                   initial_indent="  bounds on |z|: ",
                                   subsequent_indent="    ")
        rows = [[m.name, "primary" if m is p else "guardrail", m.champion, m.challenger,
                 m.improvement, m.margin if m is p else -m.margin,
                 fmt(self.guardrail_power.get(m.name, self.power), 3), m.source]
                for m in (p, *self.guardrails)]
        lines += table([Col("metric", None), Col("role", None), Col("champion"),
                        Col("challenger"), Col("improvement", signed=True),
                        Col("null", signed=True), Col("power", None), Col("from", None)], rows)
        return "\n".join(lines)

    __repr__ = __str__


def _check_share(share, rows_per_day, looks):
    share = check_level(share, "challenger_share",
                        example="0.5 (half the traffic to the challenger)")
    if rows_per_day is not None:
        if isinstance(rows_per_day, bool) or not isinstance(rows_per_day, (int, float,
                                                                            np.number)):
            msg = f"rows_per_day must be a number > 0, got {rows_per_day!r}."
            raise TypeError(msg)
        if not rows_per_day > 0:
            msg = (f"rows_per_day must be > 0 (rows entering the test per day, both arms), "
                   f"got {rows_per_day!r}; pass None to leave the duration out.")
            raise ValueError(msg)
    return share, check_positive_int(looks, "looks")


def _fixed_rows(m: ABMetric, alpha, power, ratio) -> float:
    """The challenger's rows for one look on the primary metric."""
    null = m.margin if m.greater_is_better else -m.margin
    if m.kind == "proportion" and m.margin == 0:
        return sample_size_proportions(m.champion, m.challenger, alpha=alpha, power=power,
                                       ratio=ratio)
    if m.improvement <= m.margin:
        msg = (f"the offline improvement of {m.name!r} ({m.improvement:.4g}) is not above its "
               f"margin ({m.margin:g}): no test can show the challenger better by the margin. "
               "Lower the margin, or keep the champion.")
        raise ValueError(msg)
    z_a, z_b, ratio, _ = _common(alpha, power, ratio, "two-sided")
    return _z_rows(m.challenger - m.champion - null, m.unit_challenger + m.unit_champion / ratio,
                   z_a, z_b, power, True)


def _guardrail_power(g: ABMetric, n1, n0, alpha) -> float:
    """Power to show ``improvement > -margin`` at one-sided alpha / 2."""
    se = math.sqrt(g.unit_challenger / n1 + g.unit_champion / n0)
    return float(ndtr((g.improvement + g.margin) / se - ndtri(1 - alpha / 2)))


def plan_ab_test(primary, *, guardrails=(), alpha=0.05, power=0.8, challenger_share=0.5,
                 rows_per_day=None, looks=1, design_effect=1.0) -> ABTestPlan:
    """Plan a randomised online test of the challenger against the champion.

    Parameters
    ----------
    primary : ABMetric
        The metric the decision rests on (:func:`ab_metric`); its ``margin`` is the
        improvement the challenger must beat.
    guardrails : sequence of ABMetric, default=()
        Metrics that must not get worse by more than their ``margin`` (> 0).
    alpha : float in (0, 1), default=0.05
        Two-sided error over all looks.
    power : float in (0, 1), default=0.8
        Power at the offline improvement.
    challenger_share : float in (0, 1), default=0.5
        The challenger's share of the traffic (the rest goes to the champion).
    rows_per_day : float > 0, default=None
        Rows entering the test per day (both arms); gives the duration in days.
    looks : int, default=1
        Planned looks at the data, equally spaced. More than one: Lan-DeMets
        O'Brien-Fleming-type bounds, and the rows of one look times their inflation factor.
    design_effect : float >= 1, default=1.0
        When users (not rows) are randomised and each brings several rows: the variance of
        an arm's mean over its variance if the rows were independent, ``1 + (m - 1) ICC``
        for ``m`` rows per user and the intraclass correlation ``ICC`` of the metric within a
        user (Kish 1965; Donner & Klar 2000). The rows of every arm are multiplied by it,
        and the guardrails' power is read at the rows over it. Read the test out with
        ``groups_champion=`` / ``groups_challenger=`` (:func:`read_ab_test`).

    Returns
    -------
    ABTestPlan

    Examples
    --------
    >>> plan = plan_ab_test(ab_metric("conversion", "proportion", 0.02, 0.03),
    ...                     rows_per_day=1000)
    >>> plan.n_challenger, plan.days
    (3826, 8)
    """
    if not isinstance(primary, ABMetric):
        msg = f"primary must be an ABMetric (from ab_metric), got {type(primary).__name__}."
        raise TypeError(msg)
    guardrails = tuple(guardrails)
    for g in guardrails:
        if not isinstance(g, ABMetric):
            msg = f"guardrails must be ABMetric values (from ab_metric), got {g!r}."
            raise TypeError(msg)
        if g.margin <= 0:
            msg = (f"the guardrail {g.name!r} needs a margin > 0: how much worse the challenger "
                   "may be, in the metric's units; with 0 no test can show it no worse.")
            raise ValueError(msg)
    names = [m.name for m in (primary, *guardrails)]
    if len(set(names)) != len(names):
        msg = f"the metrics' names must differ, got {names}."
        raise ValueError(msg)
    alpha = check_level(alpha, "alpha", example="0.05")
    power = check_level(power, "power", example="0.8")
    share, looks = _check_share(challenger_share, rows_per_day, looks)
    deff = _check_design_effect(design_effect)
    ratio = (1 - share) / share
    n_fixed = _fixed_rows(primary, alpha, power, ratio) * deff
    bounds = [float(ndtri(1 - alpha / 2))]
    factor = 1.0
    if looks > 1:
        t = np.arange(1, looks + 1) / looks
        b = lan_demets_bounds(t, alpha=alpha)
        factor = inflation_factor(b, t, power=power)
        bounds = [float(x) for x in b]
    n1 = math.ceil(n_fixed * factor - 1e-9)
    n0 = math.ceil(n1 * ratio - 1e-9)
    days = None if rows_per_day is None else math.ceil((n1 + n0) / float(rows_per_day) - 1e-9)
    gp = {g.name: _guardrail_power(g, n1 / deff, n0 / deff, alpha) for g in guardrails}
    return ABTestPlan(primary, guardrails, alpha, power, share,
                      None if rows_per_day is None else float(rows_per_day), looks, n1, n0,
                      math.ceil(n_fixed - 1e-9), days, bounds, gp, METHOD, deff)


def _check_design_effect(design_effect) -> float:
    value = check_real(design_effect, "design_effect", strictly_positive=True)
    if value < 1:
        msg = (f"design_effect must be >= 1 (1 + (m - 1) ICC for m rows per randomised user "
               f"and a within-user correlation ICC >= 0), got {design_effect!r}; pass 1.0 "
               "when every row is its own unit.")
        raise ValueError(msg)
    return float(value)
