"""Is acting on the model at this threshold better than acting on everyone, on no one, or on
the baseline model -- at the costs we face? The decision section of a report.

:func:`decision_report` scores the action ``score >= threshold`` of a model (and of a
baseline model on the same rows) by net benefit and, with costs, expected cost; treat-all and
treat-none are the two references every action must beat. Every number has a bootstrap
interval, and every difference between two actions is paired (the same resampled rows). The
result is a :class:`DecisionReport`; :func:`chimeraboost.report` adds it to a report when
given ``threshold=`` or ``costs=``.
"""

from __future__ import annotations

import math

import numpy as np

from .._shared.api import public
from .. import resampling
from .._shared.format import Col, fmt, percent, table
from .._shared.html import html_block, html_paragraphs, html_table
from .._shared.validation import check_level, import_pandas
from ._checks import (
    bayes_threshold,
    check_costs,
    check_probability,
    check_target,
    check_thresholds,
    key,
)
from ._rates import RATES
from ._sweep import DecisionEvaluator

__all__ = ["DecisionReport", "decision_report"]

TREAT_ALL, TREAT_NONE = "treat all", "treat none"


class DecisionReport:
    """The action ``score >= threshold`` of a model against treat-all, treat-none and a
    baseline, by net benefit and expected cost, with paired bootstrap intervals.

    Attributes
    ----------
    threshold : float
    costs : Costs or None
    actions : dict
        Action name (the model, the baseline, ``"treat all"``, ``"treat none"``) -> dict with
        ``net_benefit``, ``net_benefit_low``, ``net_benefit_high`` and, with costs,
        ``expected_cost``, ``expected_cost_low``, ``expected_cost_high``; ``flagged``.
    differences : dict
        Other action -> dict: the model minus it, ``net_benefit`` (with ``_low``, ``_high``)
        and ``expected_cost`` (with ``_low``, ``_high``), paired on the same resamples;
        positive net benefit and negative cost favour the model.
    rates : dict
        The model's sensitivity, specificity, ppv, npv, flagged -> ``(value, low, high)``.
    model : str
        The model's name.
    level : float
    n_boot : int
    """

    def __init__(self, **values):
        self.__dict__.update(values)

    @public(legacy=("metric",))
    def verdict(self, other: str, *, metric: str = "net_benefit") -> str:
        """``"<model> better"``, ``"<other> better"`` or ``"no clear difference"``, from the
        paired interval of the model minus ``other``."""
        d = self.differences[other]
        lo, hi = d[f"{metric}_low"], d[f"{metric}_high"]
        if math.isnan(lo) or math.isnan(hi):
            return "n/a"
        if lo <= 0 <= hi:
            return "no clear difference"
        better = (lo > 0) if metric == "net_benefit" else (hi < 0)
        return f"{self.model} better" if better else f"{other} better"

    def _title(self) -> str:
        how = f"treat when the probability is >= {self.threshold:g}"
        if self.costs is not None:
            c = self.costs
            how += (f"; costs per row: false positive {c.fp:g}, false negative {c.fn:g}"
                    + (f", true positive {c.tp:g}" if c.tp else "")
                    + (f", true negative {c.tn:g}" if c.tn else ""))
        return (f"Decision at threshold {self.threshold:g} ({how}); {percent(self.level)} "
                f"bootstrap intervals, differences paired ({self.n_boot:,} resamples)")

    def _tables(self):
        cost = self.costs is not None
        cols = [Col("action", None), Col("net benefit", signed=True), Col("low", signed=True),
                Col("high", signed=True)]
        if cost:
            cols += [Col("expected cost"), Col("low"), Col("high")]
        cols.append(Col("flagged", 3))
        rows = []
        for name, a in self.actions.items():
            row = [name, a["net_benefit"], a["net_benefit_low"], a["net_benefit_high"]]
            if cost:
                row += [a["expected_cost"], a["expected_cost_low"], a["expected_cost_high"]]
            rows.append([*row, a["flagged"]])
        dcols = [Col(f"{self.model} minus", None), Col("net benefit", signed=True),
                 Col("low", signed=True), Col("high", signed=True), Col("verdict", None)]
        if cost:
            dcols += [Col("cost", signed=True), Col("low", signed=True),
                      Col("high", signed=True), Col("verdict", None)]
        drows = []
        for other, d in self.differences.items():
            row = [other, d["net_benefit"], d["net_benefit_low"], d["net_benefit_high"],
                   self.verdict(other)]
            if cost:
                row += [d["expected_cost"], d["expected_cost_low"], d["expected_cost_high"],
                        self.verdict(other, metric="expected_cost")]
            drows.append(row)
        return cols, rows, dcols, drows

    def _rates_line(self) -> str:
        parts = [f"{r} {fmt(v, 3)} [{fmt(lo, 3)}, {fmt(hi, 3)}]"
                 for r, (v, lo, hi) in self.rates.items()]
        return f"rates of {self.model}: " + ", ".join(parts)

    def lines(self) -> list:
        """The text lines (what ``str()`` prints)."""
        cols, rows, dcols, drows = self._tables()
        return [self._title(), *table(cols, rows), "", *table(dcols, drows),
                f"  {self._rates_line()}"]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def html_parts(self) -> list:
        """The HTML pieces: the decision table, the differences, the rates line (also placed
        inside a report's HTML)."""
        cols, rows, dcols, drows = self._tables()
        return [html_table(cols, rows, caption=self._title()), html_table(dcols, drows),
                html_paragraphs([self._rates_line()])]

    def _repr_html_(self) -> str:
        return html_block(*self.html_parts())

    def __repr__(self) -> str:
        d = self.differences.get(TREAT_ALL, {})
        return (f"DecisionReport(threshold={self.threshold:g}, model={self.model!r}, "
                f"net_benefit={fmt(self.actions[self.model]['net_benefit'])}, "
                f"vs_treat_all={fmt(d.get('net_benefit'), signed=True)})")

    def to_frame(self):
        """One row per action: its numbers, and the model's paired differences with it
        (``diff_*`` columns). Needs pandas."""
        pd = import_pandas("DecisionReport.to_frame")
        rows = {}
        for name, a in self.actions.items():
            row = dict(a)
            for k, v in self.differences.get(name, {}).items():
                row[f"diff_{k}"] = v
            rows[name] = row
        return pd.DataFrame.from_dict(rows, orient="index")

    def to_dict(self) -> dict:
        """Plain Python values."""
        return {"threshold": self.threshold, "model": self.model, "level": self.level,
                "n_boot": self.n_boot,
                "costs": None if self.costs is None else self.costs._asdict(),
                "actions": {k: dict(v) for k, v in self.actions.items()},
                "differences": {k: dict(v) for k, v in self.differences.items()},
                "rates": {k: list(v) for k, v in self.rates.items()}}


def resolve_threshold(threshold, costs):
    """The threshold of a decision: the one given, else the Bayes threshold of the costs
    (which must then be inside (0, 1))."""
    if threshold is not None:
        return float(check_thresholds(threshold, "threshold")[0])
    t = bayes_threshold(costs)
    if not 0 < t < 1:
        msg = (f"the costs {costs!r} imply the threshold {t:g}: "
               f"{'treat every row' if t == 0 else 'treat no row'} whatever the model says; "
               "pass threshold= or costs under which both errors cost something.")
        raise ValueError(msg)
    return t


@public(renamed={"score": "proba", "baseline_score": "baseline_proba"})
def decision_report(y, proba, *, baseline_proba=None, threshold=None, costs=None,
                    cost_fp=None, cost_fn=None, benefit_tp=0.0, benefit_tn=0.0,
                    pos_label=None, sample_weight=None, name="model", baseline_name="baseline",
                    n_boot=2000, level=0.95, random_state=None) -> DecisionReport:
    """The action ``proba >= threshold`` against treat-all, treat-none and a baseline.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n,)
        The model's probability of the positive class, or a 0/1 rule.
    baseline_proba : array-like of shape (n,), default=None
        The baseline's (the incumbent's) probabilities or 0/1 rule on the same rows.
    threshold : float in (0, 1), default=None
        The threshold probability; None: the Bayes threshold of the costs.
    costs, cost_fp, cost_fn, benefit_tp, benefit_tn
        What each outcome costs (as in :func:`expected_cost`); optional when ``threshold``
        is given (then net benefit only).
    pos_label : label, default=None
    sample_weight : array-like of shape (n,), default=None
    name, baseline_name : str
        What the model and the baseline are called in the tables.
    n_boot : int, default=2000
        Resamples; at least 200 (the differences decide).
    level : float in (0, 1), default=0.95
    random_state : None, int or numpy Generator

    Returns
    -------
    DecisionReport

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> p = rng.uniform(size=400); y = rng.uniform(size=400) < p
    >>> d = decision_report(y, p, cost_fp=1, cost_fn=3, n_boot=1000, random_state=0)
    >>> d.threshold, d.verdict("treat all"), d.verdict("treat all", metric="expected_cost")
    (0.25, 'model better', 'model better')
    """
    c = check_costs(costs, cost_fp, cost_fn, benefit_tp, benefit_tn, required=threshold is None)
    t = resolve_threshold(threshold, c)
    level = check_level(level, "level")
    n_boot = resampling.check_n_boot(n_boot)
    scores = {name: proba}
    if baseline_proba is not None:
        if baseline_name == name:
            msg = f"name and baseline_name are both {name!r}; give them different names."
            raise ValueError(msg)
        scores[baseline_name] = baseline_proba
    names = {"net_benefit", "net_benefit_all", *RATES}
    evs = {}
    for label, s in scores.items():
        arg = "proba" if label == name else "baseline_proba"
        event, arr, w = check_target(y, s, sample_weight, pos_label, arg)
        evs[label] = DecisionEvaluator(event, check_probability(arr, arg), [t], sample_weight=w,
                                       costs=c, cost_threshold=t, names=names)
    points = {label: ev.evaluate(None) for label, ev in evs.items()}
    boots = dict(zip(evs, resampling.joint_bootstrap(list(evs.values()), n_boot=n_boot,
                                                     random_state=random_state)))
    return _assemble(name, t, c, points, boots, level, n_boot)


def _assemble(name, t, c, points, boots, level, n_boot) -> DecisionReport:
    nb, nb_all = key("net_benefit", t), key("net_benefit_all", t)
    model_boot = boots[name]
    reps = {label: {"net_benefit": b.replicates[nb], "flagged": b.replicates[key("flagged", t)]}
            for label, b in boots.items()}
    n_boot_reps = model_boot.replicates[nb].shape[0]
    reps[TREAT_ALL] = {"net_benefit": model_boot.replicates[nb_all],
                       "flagged": np.ones(n_boot_reps)}
    reps[TREAT_NONE] = {"net_benefit": np.zeros(n_boot_reps), "flagged": np.zeros(n_boot_reps)}
    est = {label: {"net_benefit": float(p[nb][0]), "flagged": float(p[key("flagged", t)][0])}
           for label, p in points.items()}
    est[TREAT_ALL] = {"net_benefit": float(points[name][nb_all][0]), "flagged": 1.0}
    est[TREAT_NONE] = {"net_benefit": 0.0, "flagged": 0.0}
    if c is not None:
        for label, b in boots.items():
            reps[label]["expected_cost"] = b.replicates["expected_cost"]
            est[label]["expected_cost"] = float(points[label]["expected_cost"][0])
        for label, k in ((TREAT_ALL, "expected_cost_all"), (TREAT_NONE, "expected_cost_none")):
            reps[label]["expected_cost"] = model_boot.replicates[k]
            est[label]["expected_cost"] = float(points[name][k][0])
    metrics = ["net_benefit"] + (["expected_cost"] if c is not None else [])

    def interval(values):
        return resampling.percentile_interval(values, level=level)[0]

    actions, differences = {}, {}
    for label in est:
        row = {}
        for m in metrics:
            lo, hi = interval(reps[label][m]) if label != TREAT_NONE or m != "net_benefit" \
                else (0.0, 0.0)
            row.update({m: est[label][m], f"{m}_low": lo, f"{m}_high": hi})
        row["flagged"] = est[label]["flagged"]
        actions[label] = row
        if label == name:
            continue
        diff = {}
        for m in metrics:
            lo, hi = interval(reps[name][m] - reps[label][m])
            diff.update({m: est[name][m] - est[label][m], f"{m}_low": lo, f"{m}_high": hi})
        differences[label] = diff
    rates = {}
    for r in RATES:
        lo, hi = model_boot.interval(key(r, t), level=level)
        rates[r] = (float(points[name][key(r, t)][0]), lo, hi)
    return DecisionReport(threshold=t, costs=c, actions=actions, differences=differences,
                          rates=rates, model=name, level=level, n_boot=n_boot)
