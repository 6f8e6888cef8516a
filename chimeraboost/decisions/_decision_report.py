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

from .. import resampling
from .._shared.api import public
from .._shared.facts import is_loss, parse_metric
from .._shared.format import Col, fmt, percent, table, wrap
from .._shared.html import html_block, html_paragraphs, html_table
from .._shared.ties import same_outputs
from .._shared.validation import check_level, import_pandas
from ._checks import (
    bayes_threshold,
    check_costs,
    check_names,
    check_probability,
    check_target,
    check_threshold,
    key,
)
from ._rates import RATES, equal_weights, wilson_rates
from ._scheme import discordant, discordant_units
from ._scheme import scheme as decision_scheme
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
        The model's sensitivity, specificity, ppv, npv, flagged -> ``(value, low, high)``:
        the intervals of :func:`rates_at_threshold` with ``method="auto"`` on the same rows
        (Wilson for independent rows of equal weight, else the bootstrap).
    rates_method : {"wilson", "bootstrap"}
    model : str
        The model's name.
    level : float
    n_boot : int
    ci_method : str
        How the intervals were read off the resamples.
    units : {"rows", "groups", "time"}
        What a resample drew.
    """

    def __init__(self, **values):
        self.__dict__.update(values)

    @public(legacy=("metric",))
    def verdict(self, other: str, *, metric: str = "net_benefit") -> str:
        """``"<model> better"``, ``"<other> better"`` or ``"no clear difference"``, from the
        paired interval of the model minus ``other``."""
        if other not in self.differences:
            msg = f"other={other!r} is not compared here; use one of {list(self.differences)}."
            raise ValueError(msg)
        d = self.differences[other]
        known = [k[:-4] for k in d if k.endswith("_low")]
        metric = parse_metric(metric, arg="metric", valid=known).key
        lo, hi = d[f"{metric}_low"], d[f"{metric}_high"]
        if math.isnan(lo) or math.isnan(hi):
            return "n/a"
        if lo <= 0 <= hi:
            return "no clear difference"
        better = (hi < 0) if is_loss(metric) else (lo > 0)
        return f"{self.model} better" if better else f"{other} better"

    def _title(self) -> str:
        how = f"treat when the probability is >= {self.threshold:g}"
        if self.costs is not None:
            c = self.costs
            how += (f"; costs per row: false positive {c.fp:g}, false negative {c.fn:g}"
                    + (f", true positive {c.tp:g}" if c.tp else "")
                    + (f", true negative {c.tn:g}" if c.tn else ""))
        method = resampling.CI_METHOD_LABELS.get(getattr(self, "ci_method", ""), "")
        units = getattr(self, "units", "rows")
        what = {"groups": " of whole groups", "time": " of time blocks"}.get(units, "")
        return (f"Decision at threshold {self.threshold:g} ({how}); {percent(self.level)} "
                f"bootstrap intervals ({method}), differences paired ({self.n_boot:,} "
                f"resamples{what})")

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
                   self._short_verdict(other)]
            if cost:
                row += [d["expected_cost"], d["expected_cost_low"], d["expected_cost_high"],
                        self._short_verdict(other, "expected_cost")]
            drows.append(row)
        return cols, rows, dcols, drows

    def _short_verdict(self, other, metric="net_benefit") -> str:
        """:meth:`verdict` in a cell; a model name over 20 characters (it heads the column
        already) is "model" there, so that the table keeps within 120 columns."""
        said = self.verdict(other, metric=metric)
        if len(self.model) > 20 and said == f"{self.model} better":
            return "model better"
        return said

    def _rates_line(self) -> str:
        parts = [f"{r} {fmt(v, 3)} [{fmt(lo, 3)}, {fmt(hi, 3)}]"
                 for r, (v, lo, hi) in self.rates.items()]
        how = {"wilson": " (Wilson intervals)"}.get(getattr(self, "rates_method", ""), "")
        return f"rates of {self.model}{how}: " + ", ".join(parts)

    def _bayes_note(self) -> list:
        """One line when the threshold is not the Bayes threshold of the costs: the net
        benefit then weighs errors otherwise than the expected cost, and the two verdicts
        may part."""
        if self.costs is None:
            return []
        try:
            t_bayes = bayes_threshold(self.costs)
        except ValueError:  # costs with no threshold of least cost
            return []
        if abs(t_bayes - self.threshold) <= 1e-9:
            return []
        return [f"note: the costs' Bayes threshold is {t_bayes:.3g}, not {self.threshold:g}: net "
                "benefit and expected cost weigh errors differently"]

    def lines(self) -> list:
        """The text lines (what ``str()`` prints)."""
        cols, rows, dcols, drows = self._tables()
        # The cost differences in a table of their own: side by side the two would pass
        # 120 columns with a model name of 40 characters.
        differences = table(dcols[:5], [r[:5] for r in drows])
        if len(dcols) > 5:
            pick = [0, 5, 6, 7, 8]
            differences += ["", *table([dcols[i] for i in pick],
                                       [[r[i] for i in pick] for r in drows])]
        notes = [piece for line in self._bayes_note() for piece in wrap(line)]
        return [*wrap(self._title()), *notes, *table(cols, rows), "", *differences,
                *wrap(f"  {self._rates_line()}")]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def html_parts(self) -> list:
        """The HTML pieces: the decision table, the differences, the rates line (also placed
        inside a report's HTML)."""
        cols, rows, dcols, drows = self._tables()
        return [html_table(cols, rows, caption=self._title()), html_table(dcols, drows),
                html_paragraphs([self._rates_line(), *self._bayes_note()])]

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
                "n_boot": self.n_boot, "ci_method": getattr(self, "ci_method", None),
                "units": getattr(self, "units", "rows"),
                "costs": None if self.costs is None else self.costs._asdict(),
                "actions": {k: dict(v) for k, v in self.actions.items()},
                "differences": {k: dict(v) for k, v in self.differences.items()},
                "rates": {k: list(v) for k, v in self.rates.items()}}


def resolve_threshold(threshold, costs):
    """The threshold of a decision: the one given (one number), else the Bayes threshold of
    the costs (which must then be inside (0, 1))."""
    if threshold is not None:
        return check_threshold(threshold, "threshold")
    return bayes_threshold(costs)


@public(renamed={"score": "proba", "baseline_score": "baseline_proba"})
def decision_report(y, proba, *, baseline_proba=None, threshold=None, costs=None,
                    cost_fp=None, cost_fn=None, benefit_tp=0.0, benefit_tn=0.0,
                    pos_label=None, sample_weight=None, name="model", baseline_name="baseline",
                    n_boot=2000, level=0.95, random_state=None,
                    ci_method=resampling.DEFAULT_CI_METHOD, groups=None,
                    time=None) -> DecisionReport:
    """The action ``proba >= threshold`` against treat-all, treat-none and a baseline.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n,)
        The model's probability of the positive class, or a 0/1 rule.
    baseline_proba : array-like of shape (n,), default=None
        The baseline's (the incumbent's) probabilities or 0/1 rule on the same rows.
    threshold : float in (0, 1), default=None
        The threshold probability (one number); None: the Bayes threshold of the costs.
    costs, cost_fp, cost_fn, benefit_tp, benefit_tn
        What each outcome costs (as in :func:`expected_cost`); optional when ``threshold``
        is given (then net benefit only).
    pos_label : label, default=None
    sample_weight : array-like of shape (n,), default=None
    name, baseline_name : str
        What the model and the baseline are called in the tables; not ``"treat all"`` nor
        ``"treat none"``, the built-in rows.
    n_boot : int, default=2000
        Resamples; at least 200 (the differences decide; see
        :func:`~chimeraboost.resampling.check_n_boot`).
    level : float in (0, 1), default=0.95
    random_state : None, int or numpy Generator
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        How every interval, the paired differences' included, is read off the resamples
        (:func:`~chimeraboost.resampling.bootstrap_interval`, with the jackknife of the same
        resampling scheme).
    groups : array-like of shape (n,), default=None
        The unit of each row when a unit has several (a customer, a patient: the array
        passed to scikit-learn's ``GroupKFold``): whole groups are resampled, and the
        jackknife leaves out whole groups.
    time : array-like of shape (n,), default=None
        The date (or any sortable value) of each row: blocks of consecutive time points are
        resampled (a stationary bootstrap, the block length chosen from the outcome's serial
        dependence). With ``groups`` too, whole groups are resampled.

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
    check_names([("name", name)] if baseline_proba is None else
                [("name", name), ("baseline_name", baseline_name)])
    scores = {name: proba}
    if baseline_proba is not None:
        if baseline_name == name:
            msg = f"name and baseline_name are both {name!r}; give them different names."
            raise ValueError(msg)
        scores[baseline_name] = baseline_proba
    names = {"net_benefit", "net_benefit_all", *RATES}
    evs, scores_checked = {}, {}
    for label, s in scores.items():
        arg = "proba" if label == name else "baseline_proba"
        event, arr, w = check_target(y, s, sample_weight, pos_label, arg)
        scores_checked[label] = check_probability(arr, arg)
        if label != name and same_outputs(scores_checked[label], scores_checked[name]):
            # The one tie rule: outputs equal to rounding are one action, so every difference
            # is exactly 0 and no verdict is given.
            scores_checked[label] = scores_checked[name]
        evs[label] = DecisionEvaluator(event, scores_checked[label], [t], sample_weight=w,
                                       costs=c, cost_threshold=t, names=names)
    scheme = decision_scheme(y, event, n_boot=n_boot, random_state=random_state,
                             ci_method=ci_method, groups=groups, time=time)
    points = {label: ev.evaluate(None) for label, ev in evs.items()}
    boots = dict(zip(evs, scheme.bootstrap(list(evs.values()))))
    wilson = None
    if scheme.kind == "rows" and equal_weights(w):
        model = evs[name]
        wilson = wilson_rates(model.codes.astype(bool), scores_checked[name] >= t, level)
    def units(other, number):  # what a paired difference's interval is read with
        return discordant_units(scheme, evs[name], evs.get(other, other == TREAT_ALL), number)

    out = _assemble(name, t, c, points, boots, level, scheme, wilson, units)
    _widen(out, evs, scheme, t, level)
    return out


def _widen(report, evs, scheme, t, level) -> None:
    """The differences that rest on fewer than ``MIN_DISCORDANT`` units on which the two
    actions differ are widened (:meth:`~chimeraboost.resampling.Resampler.discordance`),
    with one warning naming them."""
    name, reasons = report.model, {}
    for other, diff in report.differences.items():
        versus = evs.get(other, other == TREAT_ALL)
        for metric, k in (("net_benefit", key("net_benefit", t)),
                          ("expected_cost", "expected_cost")):
            if metric not in diff:
                continue
            found = discordant(scheme, evs[name], versus, k, level)
            if found is not None:
                lo, hi = found.widen(diff[f"{metric}_low"], diff[f"{metric}_high"])
                diff.update({f"{metric}_low": lo, f"{metric}_high": hi})
                reasons[f"{name} minus {other} ({metric})"] = found.reason(
                    f"{name} and {other}")
    resampling.warn_narrow(reasons, level)


def _numbers(name, t, c, points, boots):
    """Action -> metric -> ``(estimate, replicates, jackknife)``."""
    nb, nb_all = key("net_benefit", t), key("net_benefit_all", t)
    model_boot = boots[name]

    def of(boot, k):
        return boot.replicates[k], boot.jackknife[k]

    out = {label: {"net_benefit": (float(points[label][nb][0]), *of(b, nb))}
           for label, b in boots.items()}
    out[TREAT_ALL] = {"net_benefit": (float(points[name][nb_all][0]), *of(model_boot, nb_all))}
    out[TREAT_NONE] = {"net_benefit": (0.0, np.zeros(model_boot.n_boot),
                                       np.zeros(model_boot.jackknife[nb].shape[0]))}
    if c is not None:
        for label, b in boots.items():
            out[label]["expected_cost"] = (float(points[label]["expected_cost"][0]),
                                           *of(b, "expected_cost"))
        for label, k in ((TREAT_ALL, "expected_cost_all"), (TREAT_NONE, "expected_cost_none")):
            out[label]["expected_cost"] = (float(points[name][k][0]), *of(model_boot, k))
    return out


def _assemble(name, t, c, points, boots, level, scheme, wilson, units) -> DecisionReport:
    model_boot = boots[name]
    numbers = _numbers(name, t, c, points, boots)
    flagged = {label: float(p[key("flagged", t)][0]) for label, p in points.items()}
    flagged.update({TREAT_ALL: 1.0, TREAT_NONE: 0.0})
    metrics = ["net_benefit"] + (["expected_cost"] if c is not None else [])

    def interval(est, reps, jack, discordant=None):
        return scheme.interval(reps, est, level, jackknife=jack, n_units=model_boot.n_rows,
                               events=model_boot.events, discordant=discordant)

    actions, differences = {}, {}
    mine = numbers[name]
    for label, nums in numbers.items():
        row = {}
        for m in metrics:
            est, reps, jack = nums[m]
            lo, hi = interval(est, reps, jack) if label != TREAT_NONE or m != "net_benefit" \
                else (0.0, 0.0)
            row.update({m: est, f"{m}_low": lo, f"{m}_high": hi})
        row["flagged"] = flagged[label]
        actions[label] = row
        if label == name:
            continue
        diff = {}
        for m in metrics:
            est = mine[m][0] - nums[m][0]
            k = units(label, key("net_benefit", t) if m == "net_benefit" else m)
            lo, hi = interval(est, mine[m][1] - nums[m][1], mine[m][2] - nums[m][2], k)
            diff.update({m: est, f"{m}_low": lo, f"{m}_high": hi})
        differences[label] = diff
    # The rates' intervals are those of rates_at_threshold(method="auto") on the same rows:
    # Wilson for independent rows of equal weight, else the bootstrap by ci_method.
    if wilson is not None:
        rates = {r: (float(points[name][key(r, t)][0]), *wilson[r]) for r in RATES}
    else:
        rates = {r: (float(points[name][key(r, t)][0]),
                     *model_boot.interval(key(r, t), level=level)) for r in RATES}
    return DecisionReport(threshold=t, costs=c, actions=actions, differences=differences,
                          rates=rates, model=name, level=level, n_boot=scheme.n_boot,
                          ci_method=scheme.ci_method, units=scheme.kind,
                          rates_method="bootstrap" if wilson is None else "wilson")
