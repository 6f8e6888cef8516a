"""Two fitted models, one held-out set: should the challenger go to production?

:func:`compare_holdout` scores both on the same rows and the same bootstrap resamples
(:func:`chimeraboost.report` with the champion as baseline) and decides on the interval of the
primary metric's paired difference and a region of practical equivalence (Kruschke 2018).
Re-exported by :mod:`chimeraboost.compare`, whose docstring lists the references.
"""

from __future__ import annotations

import html
import math

import numpy as np

from ..._shared.api import public
from ..._shared import facts as _facts
from ..._shared.facts import is_loss
from ..._shared.format import fixed_decimals, fmt, fmt_p, percent
from ..._shared.html import html_block, html_paragraphs
from ..._report import distinct_names, report
from ..._shared.rules import decide_interval
from ..._shared.validation import (
    check_fitted,
    check_level,
    check_n_jobs,
    check_optional_name,
    check_positive_int,
    check_real,
    check_rows,
    estimator_family,
)
from ... import resampling
from ...resampling import MIN_RESAMPLES_DECISION, ConfidenceInterval

__all__ = ["HoldoutComparison", "compare_holdout", "MIN_ROWS_DECISION"]


def _holdout_names(champion, challenger, champion_name, challenger_name) -> tuple[str, str]:
    """The two models' names: given ones as given, defaults told apart by their parameters
    or, failing that, by their roles."""
    check_optional_name(champion_name, "champion_name")
    check_optional_name(challenger_name, "challenger_name")
    defaults = distinct_names(champion, challenger, roles=("champion", "challenger"))
    names = (defaults[0] if champion_name is None else champion_name,
             defaults[1] if challenger_name is None else challenger_name)
    if names[0] == names[1]:
        msg = (f"champion_name and challenger_name both read {names[0]!r}; give the two models "
               "different names.")
        raise ValueError(msg)
    return names


def _decide_holdout(diff, lo, hi, rope) -> tuple[str, str]:
    return decide_interval(lo, hi, rope)


class HoldoutComparison:
    """The outcome of :func:`compare_holdout`.

    Attributes
    ----------
    report : Report
        The challenger's report with the champion as baseline (``report.vs_baseline``).
    metric : str
    difference : float
        Challenger minus champion on ``metric`` (sign flipped for a loss: positive favours
        the challenger).
    ci : ConfidenceInterval
        Paired percentile bootstrap interval of ``difference`` at ``level``.
    level, rope : float
    decision, reason : str
    delong : DeLongResult or None
        ROC-AUC difference (challenger minus champion) for binary classifiers.
    """

    def __init__(self, rep, metric, difference, ci, level, rope, decision, reason, delong):
        self.report, self.metric, self.difference, self.ci = rep, metric, difference, ci
        self.level, self.rope, self.decision, self.reason = level, rope, decision, reason
        self.delong = delong

    def _lines(self) -> list:
        rep, base = self.report, self.report.baseline_report
        pct = percent(self.level)
        # One scale for the numbers of one line: a near-zero one in the same decimals.
        f = fixed_decimals([rep[self.metric], base[self.metric]], 4)
        g = fixed_decimals([self.difference, *self.ci], 4)
        lines = [
            f"challenger {rep.estimator_name} vs champion {base.estimator_name} on the same "
            f"{rep['n']:,} held-out rows",
            f"{self.metric}: challenger {fmt(rep[self.metric], fixed=f)}, champion "
            f"{fmt(base[self.metric], fixed=f)}, difference "
            f"{fmt(self.difference, signed=True, fixed=g)} "
            f"[{pct} paired bootstrap {fmt(self.ci.low, signed=True, fixed=g)}, "
            f"{fmt(self.ci.high, signed=True, fixed=g)}], rope ±{self.rope:g}",
            f"decision: {self.decision} ({self.reason})",
        ]
        if self.delong is not None:
            d = self.delong
            lines.append(f"ROC AUC difference (DeLong): {fmt(d.estimate, signed=True)} "
                         f"(se {fmt(d.se)}, {pct} interval {fmt(d.low, signed=True)} to "
                         f"{fmt(d.high, signed=True)}, p {fmt_p(d.pvalue)})")
        return lines

    def __str__(self) -> str:
        return "\n".join([*self._lines(), "", str(self.report)])

    def _repr_html_(self) -> str:
        """Jupyter: what meets what as a heading, the difference and the decision, then the
        challenger's report with the champion as its baseline."""
        lines = self._lines()
        return html_block(f"<h4>{html.escape(lines[0])}</h4>", html_paragraphs(lines[1:]),
                          self.report._repr_html_())

    def __repr__(self) -> str:
        return (f"<HoldoutComparison {self.metric}: difference "
                f"{fmt(self.difference, signed=True)} [{fmt(self.ci.low, signed=True)}, "
                f"{fmt(self.ci.high, signed=True)}] -> {self.decision}>")

    def to_dict(self) -> dict:
        out = {"metric": self.metric, "difference": self.difference, "low": self.ci.low,
               "high": self.ci.high, "level": self.level, "rope": self.rope,
               "decision": self.decision, "reason": self.reason,
               "report": self.report.to_dict()}
        if self.delong is not None:
            out["delong"] = self.delong._asdict()
        return out


# Below this many held-out rows compare_holdout does not decide: with a handful of rows the
# bootstrap resamples the same few arrangements, and a zero-width interval on 2 rows once
# said "replace champion".
MIN_ROWS_DECISION = 20


def _check_same_classes(champion, challenger) -> None:
    own = [getattr(est, "classes_", None) for est in (champion, challenger)]
    if any(c is None for c in own):
        return
    a, b = (np.asarray(c).tolist() for c in own)
    if sorted(map(str, a)) != sorted(map(str, b)):
        msg = (f"champion predicts classes {a} but challenger {b}; both must be fitted on the "
               "same classes.")
        raise ValueError(msg)


def _check_metric(metric) -> str:
    """The report key ``metric`` names (read by the one parser of metric names); a number at
    a threshold or of the top rows is the holdout table's, not this comparison's."""
    parsed = _facts.parse_metric(metric, arg="metric")
    if parsed.at is not None:
        msg = (f"metric={metric!r}: compare_holdout decides on a number of the report; a "
               f"decision at a threshold or the top rows is compared by "
               f"compare.holdout_table({{...}}, X, y, primary={parsed.text.strip()!r}).")
        raise ValueError(msg)
    return parsed.key


def _why_no_difference(rep, metric: str, names) -> str:
    """Which model cannot give ``metric`` on these rows, and why, in one sentence."""
    available = sorted(rep.vs_baseline)
    if metric in _facts.ABOUT_THE_ROWS:
        return (f"metric={metric!r} describes the rows, not a model; compare on one of "
                f"{available}.")
    if metric not in rep:
        return (f"metric={metric!r} is not a number of a {rep.task} report; available: "
                f"{available}.")
    reasons = []
    for role, name, r in (("challenger", names[1], rep), ("champion", names[0],
                                                          rep.baseline_report)):
        value = r.get(metric)
        if value is None or (np.ndim(value) == 0 and math.isnan(float(value))):
            why = ("it gives no probabilities" if r.task in ("ranking", "scores", "rule") and
                   _facts.needs(metric) == "probabilities" else
                   "the metric is undefined on these rows")
            reasons.append(f"the {role} {name} has no {metric} ({why})")
    base_rate = rep.get("base_rate")
    if np.ndim(base_rate) == 0 and base_rate is not None and base_rate in (0.0, 1.0):
        reasons.append("y holds a single class, so skills against its base rate and ROC-AUC "
                       "are undefined")
    detail = "; ".join(reasons) if reasons else "it is undefined on these rows"
    return (f"Cannot compare on metric={metric!r}: {detail}. Numbers both models have here: "
            f"{available}.")


@public(renamed={"ci": "level"})
def compare_holdout(champion, challenger, X, y, *, sample_weight=None, metric=None,
                    n_boot=2000, random_state=None, level=0.95, rope=0.01, champion_name=None,
                    challenger_name=None, n_jobs=None,
                    ci_method=resampling.DEFAULT_CI_METHOD, groups=None,
                    time=None) -> HoldoutComparison:
    """Compare two fitted models on the same held-out rows and decide.

    Parameters
    ----------
    champion, challenger : fitted estimators of the same task
    X, y : array-like
        Held-out rows, used by neither model in training.
    sample_weight : array-like of shape (n,), default=None
    metric : str, default=None
        Report key the decision is taken on; None: ``brier_skill`` for classifiers with
        probabilities, ``r2`` for regressors (``roc_auc`` for ranking-only classifiers,
        ``balanced_accuracy`` for 0/1 rules, ``crps_skill`` for quantile regressors).
    n_boot : int, default=2000
    random_state : None or int
    level : float in (0, 1), default=0.95
        Level of the paired bootstrap interval (and of DeLong's interval), which is always
        made. Formerly ``ci=``.
    rope : float >= 0, default=0.01
        Region of practical equivalence, in units of ``metric``.
    champion_name, challenger_name : str, default=None
        What to call the two models in the printed result. None: the class name
        (``Pipeline(StandardScaler, LogisticRegression)``); when both models have the same
        class name, the parameters in which they differ are added (``... [C=1.0]`` and
        ``... [C=0.01]``), or ``(champion)`` / ``(challenger)`` when no parameter differs.
        Two given names must differ.
    n_jobs : int, default=None
        Workers for the bootstrap and its jackknife: None or 1 for one, -1 for every CPU
        (see :func:`chimeraboost.resampling.bootstrap`); the decision is the same whatever
        ``n_jobs``.
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        How the paired interval is read off the resamples; see :func:`chimeraboost.report`.
    groups, time : array-like of shape (n,) or column name of X, default=None
        Rows that are not independent (several rows per customer; time-ordered rows):
        whole groups, or blocks of time, are resampled; see :func:`chimeraboost.report`.

    Returns
    -------
    HoldoutComparison

    Notes
    -----
    :func:`chimeraboost.report` scores both models on the same bootstrap resamples of
    the rows; the interval ``[low, high]`` of ``challenger - champion`` then decides, following
    the interval-and-rope rule [K18]_: **replace champion** if ``low > rope``; **practically
    equivalent** if ``[low, high]`` lies inside ``[-rope, rope]``; otherwise **keep champion**.
    For binary classifiers DeLong's test of the ROC-AUC difference
    (:func:`chimeraboost.resampling.delong_roc_auc_difference`) is added as a second opinion
    on ranking; it does not enter the decision (and, like DeLong's method, ignores
    ``sample_weight``).
    """
    level = check_level(level, "level")
    metric = None if metric is None else _check_metric(metric)
    rope = check_real(rope, "rope", strictly_positive=False)
    n_boot = check_positive_int(n_boot, "n_boot")
    n_jobs = check_n_jobs(n_jobs)
    names = _holdout_names(champion, challenger, champion_name, challenger_name)
    for arg, est, shown in (("champion", champion, names[0]), ("challenger", challenger,
                                                               names[1])):
        check_fitted(est, arg, shown)
    kinds = {"champion": estimator_family(champion), "challenger": estimator_family(challenger)}
    if len(set(kinds.values())) > 1:
        msg = f"champion and challenger solve different tasks: {kinds}."
        raise ValueError(msg)
    _check_same_classes(champion, challenger)
    n = check_rows(X, y)
    if n < MIN_ROWS_DECISION:
        msg = (f"compare_holdout needs at least {MIN_ROWS_DECISION} held-out rows to decide, got "
               f"{n}: the bootstrap of so few rows has almost nothing to resample, and its "
               "interval would be a decision from no evidence.")
        raise ValueError(msg)
    rep = report(challenger, X, y, baseline=champion, sample_weight=sample_weight, ci=level,
                 n_boot=n_boot, random_state=random_state, name=names[1], baseline_name=names[0],
                 n_jobs=n_jobs, ci_method=ci_method, groups=groups, time=time)
    metric = _facts.HEADLINE[rep.task] if metric is None else metric
    if metric not in rep.vs_baseline:
        raise ValueError(_why_no_difference(rep, metric, names))
    defined = n_boot - rep.n_dropped.get(metric, 0)
    if defined < MIN_RESAMPLES_DECISION:
        msg = (f"Only {defined} of {n_boot} resamples define {metric} (the others hold a "
               f"single class): at least {MIN_RESAMPLES_DECISION} are needed to decide. Use more "
               "held-out rows, or a metric defined on every resample (e.g. log_loss).")
        raise ValueError(msg)
    diff, lo, hi = rep.vs_baseline[metric]
    if is_loss(metric):  # orient so that positive always favours the challenger
        diff, lo, hi = -diff, -hi, -lo
    decision, reason = _decide_holdout(diff, lo, hi, rope)
    delong = rep.delong_vs_baseline
    return HoldoutComparison(rep, metric, diff, ConfidenceInterval(lo, hi), level, rope,
                             decision, reason, delong)
