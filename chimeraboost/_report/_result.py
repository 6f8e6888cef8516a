"""What does a report hold, and how is it read: text, HTML, plain values, a data frame, a plot?

:class:`Report` is the read-only result of :func:`~chimeraboost.report`; it presents numbers
computed elsewhere and computes none itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from .. import quantile_metrics
from ..resampling import CI_METHOD_LABELS
from .._shared.facts import ABOUT_THE_ROWS, is_loss
from .._shared.format import (
    NA,
    NO_PROBA,
    Col,
    count,
    fmt,
    fmt_p,
    header_lines,
    percent,
    rates,
    report_lines,
    table,
    wrap,
)
from .._shared.ties import negligible
from .._shared.units import when as _when
from .._shared.validation import import_pandas, plain
from ._html import report_html

__all__ = ["Report"]


class Report(Mapping):
    """Every number of one model on one set of rows, read-only, with its reference.

    A mapping from metric names to values (``r["brier_skill"]``, ``dict(r)``); the keys are
    those of :func:`metrics.classification_report` (also for ranking-only models and rules,
    with NaN where the model gives no probabilities), :func:`metrics.regression_report` or
    :func:`quantile_metrics.quantile_report`.

    Attributes
    ----------
    estimator_name : str
    task : {"classification", "ranking", "scores", "rule", "regression", "quantile"}
        What the model was judged on: probabilities, a ``decision_function`` with the
        model's own ``predict``, an array of scores (a ranking with no decision: from the
        command line or :func:`compare.holdout_table`), a 0/1 rule, predictions, quantiles.
    ci : dict or None
        Metric -> :class:`resampling.ConfidenceInterval` ``(low, high)``, bootstrap interval
        by :attr:`ci_method` at level :attr:`ci_level`, when ``ci`` was set.
    ci_method : str
        How the intervals were read off the replicates (``report``'s ``ci_method``).
    n_dropped : dict
        Metric -> replicates left out of its interval because the metric was undefined there.
    vs_baseline : dict or None
        With a fitted baseline: metric -> ``(model - baseline, low, high)``, paired bootstrap.
        Positive favours the model for scores (skills, AUC, accuracy), negative for losses.
    baseline_report : Report or None
        The fitted baseline's own report on the same rows.
    delong_vs_baseline : resampling.DeLongResult or None
        With a fitted baseline and a binary problem: DeLong's paired test of the ROC-AUC
        difference, model minus baseline (``estimate``, ``se``, ``low``, ``high``,
        ``pvalue``), an analytic second opinion next to the bootstrap.
    decision : decisions.DecisionReport or None
        With ``threshold=`` or ``costs=``: the action at the threshold against treat-all,
        treat-none and the fitted baseline, by net benefit and expected cost.
    slices : chimeraboost.slices.SliceReport or None
        With ``by=``: the report per slice, printed below the report.
    note : str or None
        What the header says about the model beside its name: for a ChimeraBoost model, the
        rung of the ladder it is (``"rung: linear, tree weight 0"``, from its ``rung_``).
    dependence : dict or None
        With ``groups=`` or ``time=``: ``units`` ("groups" or "time"), ``n_units`` (groups,
        or distinct time points), ``block_length`` (time: the mean block length, in time
        points), ``time_range`` (first and last time value, or None), ``metric`` (the
        headline metric), ``design_effect`` (its variance when whole units are resampled over
        its variance if the rows were independent, from the two jackknifes) and
        ``effective_rows`` (rows over the design effect: how many independent rows carry the
        same information). None when rows were resampled as independent.
    """

    slices = None  # report(..., by=...) sets the report per slice

    def __init__(self, values, estimator_name, task, reference_from, *, ci=None,
                 ci_level=None, n_boot=None, n_dropped=None, vs_baseline=None,
                 baseline_report=None, delong_vs_baseline=None, decision=None,
                 ci_method="percentile", dependence=None, note=None):
        self._values = {key: _frozen(v) for key, v in values.items()}
        self.estimator_name, self.task = estimator_name, task
        self._reference_from = reference_from
        self.ci, self.ci_level, self.n_boot = ci, ci_level, n_boot
        self.ci_method = ci_method
        self.n_dropped = dict(n_dropped or {})
        self.vs_baseline, self.baseline_report = vs_baseline, baseline_report
        self.delong_vs_baseline = delong_vs_baseline
        self.decision = decision
        self.dependence = dependence
        self.note = note

    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    # ---- text
    def reference(self) -> str:
        """What the model was judged against, in words."""
        v, src = self._values, self._reference_from
        if self.task == "quantile":
            return f"empirical quantiles of {src}"
        if self.task == "regression":
            return f"mean of {src} ({fmt(v['baseline_mean'])})"
        if self.task != "classification":
            return f"rates of y only ({NO_PROBA})"
        prior = np.asarray(v["reference_prior"])
        shown = fmt(prior[1], 3) if prior.size == 2 else rates(prior, v.get("classes"))
        return f"class prior of {src} ({shown})"

    def header(self) -> str:
        """Rows scored, positives and base rate, and the reference (one line; the text
        wraps it at 120 characters)."""
        return " · ".join(self._header_parts())

    def _header_parts(self) -> list[str]:
        v = self._values
        name = self.estimator_name if self.note is None else f"{self.estimator_name} ({self.note})"
        parts = [name, f"{v['n']:,} rows scored"]
        if "positives" in v and np.ndim(v.get("base_rate")) == 0:
            parts.append(f"{count(v['positives'])} positives (base rate {fmt(v['base_rate'], 3)})")
        elif "base_rate" in v:
            parts.append(f"class rates {rates(v['base_rate'], v.get('classes'))}")
        parts.append(f"judged against: {self.reference()}")
        if self.dependence is not None and self.dependence["time_span"] is not None:
            parts.insert(1, self.dependence["time_span"])
        return parts

    def _dependence_lines(self) -> list[str]:
        """What was resampled, and -- past a design effect of 1.5 -- what the dependence
        costs, in one sentence."""
        dep = self.dependence
        if dep is None:
            return []
        deff, rows = dep["design_effect"], int(self._values.get("n", 0))
        line = (f"Intervals resample {dep['resampled']}; design effect of {dep['metric']} "
                f"{fmt(deff, 2)}")
        out = [line]
        if np.isfinite(deff) and deff > DESIGN_EFFECT_NOTE:
            out += [f"  these {rows:,} rows carry the information of about "
                    f"{dep['effective_rows']:,.0f} independent ones:",
                    f"  an interval that resampled single rows would be about "
                    f"{np.sqrt(deff):.1f}x too narrow"]
        return out

    def headline(self) -> str:
        """The four-number line: the loss, the base rate (and the baseline's prior or mean when
        it is another number), the reference loss and the skill."""
        if self.task == "quantile":
            return quantile_metrics.format_report(self._values).splitlines()[1]
        return report_lines(self._values, header=False)[0]

    def __str__(self) -> str:
        if self.task == "quantile":
            text = quantile_metrics.format_report(self._values, title="Quantile forecast")
        else:
            text = "\n".join(report_lines(self._values, header=False))
        lines = [*header_lines(self._header_parts()), "", text]
        if self.dependence is not None:
            lines += ["", *self._dependence_lines()]
        if self.ci:
            lines += ["", *self._ci_lines()]
        if self.vs_baseline is not None:
            lines += ["", *self._vs_lines()]
        if self.decision is not None:
            lines += ["", *self.decision.lines()]
        if self.slices is not None:
            lines += ["", str(self.slices)]
        legend = self.legend()
        if legend:
            lines += ["", *header_lines(legend)]
        return "\n".join(lines)

    def legend(self) -> list[str]:
        """What the report's abbreviations mean, one entry each, for those it shows (the
        text prints them below the report, the HTML in its last paragraph); the documentation
        page "Reading a report" says more."""
        v, out = self._values, []
        if self.task == "classification" and not math.isnan(float(v.get("brier", np.nan))):
            out += ["Brier (sum): over the classes (2x scikit-learn's binary Brier)",
                    "MCB / DSC / UNC: miscalibration (0 = calibrated) / discrimination / "
                    "uncertainty; Brier = MCB - DSC + UNC (CORP)"]
            if "calibration_excess" in v:
                out.append("noise floor: the MCB of a calibrated forecast on these rows; "
                           "excess: the population MCB beyond it")
            if "recalibration_pvalue" in v:
                out.append("recalibration: y on logit(p) (Cox); intercept 0 and slope 1 when "
                           "calibrated, slope < 1 over-confident")
        if (self.ci or self.vs_baseline is not None) and self.ci_method == "expanded_bca":
            out.append("expanded BCa: bias-corrected bootstrap interval, widened for small "
                       "samples")
        if out:
            out[0] = "Legend: " + out[0]
            out.append("more in the docs: 'Reading a report'")
        return out

    def _repeats(self, key) -> bool:
        """``mse_skill`` against the scored rows' own mean is ``r2``: shown once, as r2."""
        return key == "mse_skill" and self._reference_from == "y"

    def _ci_lines(self) -> list[str]:
        rows, dropped = [], False
        for key, (lo, hi) in self.ci.items():
            if key in ABOUT_THE_ROWS - {"base_rate", "pr_auc_lift"} or self._repeats(key):
                continue
            if math.isnan(float(self._values[key])):
                continue
            left_out = int(self.n_dropped.get(key) or 0)
            dropped = dropped or left_out > 0
            rows.append([key, self._values[key], lo, hi, left_out])
        columns = [Col("metric", None), Col("value"), Col("low"), Col("high")]
        if dropped:  # the count column only when some resample was left out
            columns.append(Col("left out"))
        else:
            rows = [row[:4] for row in rows]
        out = [self._ci_caption(), *table(columns, rows)]
        if dropped:
            why = "y constant" if self.task == "regression" else "a class missing"
            out += wrap(f"  left out: resamples in which the metric is undefined ({why}); "
                        "the interval is taken over the others")
        if "calibration_excess" in self.ci:
            out += wrap("  calibration_excess: the population MCB, estimated as MCB minus its "
                        "simulated inflation, with the calibration test's interval (outcome "
                        "draws, not row resamples)")
        return out

    def _ci_caption(self) -> str:
        what = "the rows" if self.dependence is None else self.dependence["resampled"]
        return (f"{percent(self.ci_level)} bootstrap intervals "
                f"({CI_METHOD_LABELS[self.ci_method]}; {self.n_boot:,} resamples of {what})")

    def _vs_table(self):
        """(title, columns, rows, DeLong sentence or None) of the paired comparison, shared by
        the text and the HTML."""
        base = self.baseline_report
        level = self.ci_level or 0.95
        rows = []
        for key, (diff, lo, hi) in self.vs_baseline.items():
            if self._repeats(key):
                continue
            b = base[key] if base is not None else np.nan
            rows.append([key, self._values[key], b, diff, lo, hi, _verdict(key, lo, hi)])
        title = (f"vs baseline {base.estimator_name if base else NA} on the same rows: model "
                 f"minus baseline, paired bootstrap {percent(level)} "
                 f"({CI_METHOD_LABELS[self.ci_method]}, {self.n_boot:,} resamples)")
        columns = [Col("metric", None), Col("model"), Col("baseline"),
                   Col("difference", signed=True), Col("low", signed=True),
                   Col("high", signed=True), Col("verdict", None)]
        d, delong = self.delong_vs_baseline, None
        if d is not None:
            delong = (f"DeLong paired test of the ROC-AUC difference: {fmt(d.estimate, signed=True)} "
                      f"(se {fmt(d.se)}, {percent(level)} [{fmt(d.low, signed=True)}, "
                      f"{fmt(d.high, signed=True)}], p = {fmt_p(d.pvalue)})")
        return title, columns, rows, delong

    def _vs_lines(self) -> list[str]:
        title, columns, rows, delong = self._vs_table()
        return [*wrap(title), *table(columns, rows), *(wrap(f"  {delong}") if delong else [])]

    def __repr__(self) -> str:
        regression = "r2" if self._reference_from == "y" else "mse_skill"
        main = {"quantile": "crps_skill", "regression": regression,
                "classification": "brier_skill"}.get(self.task, "roc_auc")
        return (f"<Report {self.task} of {self.estimator_name}: n={self._values['n']}, "
                f"{main}={fmt(self._values.get(main))}>")

    def _repr_html_(self) -> str:
        """Jupyter: the text's layout as tables -- the four-number line as the heading, the
        proper scores (loss, reference, skill), the text's groups (calibration, ranking,
        threshold), each number with its interval beside it, and the paired comparison."""
        return report_html(self)

    # ---- export
    def to_dict(self) -> dict:
        """Plain Python values (arrays as lists), plus ``ci``, ``vs_baseline`` and
        ``decision`` if set."""
        out = {key: plain(v) for key, v in self._values.items()}
        if self.ci is not None:
            out["ci"] = {key: (float(lo), float(hi)) for key, (lo, hi) in self.ci.items()}
        if self.vs_baseline is not None:
            out["vs_baseline"] = {key: tuple(map(float, v)) for key, v in self.vs_baseline.items()}
        if self.decision is not None:
            out["decision"] = self.decision.to_dict()
        if self.slices is not None:
            out["slices"] = self.slices.to_dict()
        if self.dependence is not None:
            out["dependence"] = {key: (None if v is None else plain(v) if key != "time_range"
                                       else [_when(t) for t in v])
                                 for key, v in self.dependence.items()}
            out["dependence"]["design_effect"] = _nan_none(self.dependence["design_effect"])
            out["dependence"]["effective_rows"] = _nan_none(self.dependence["effective_rows"])
        return out

    def to_frame(self):
        """One row per scalar metric: ``value`` (and ``low``, ``high``; ``baseline``,
        ``difference``, ``diff_low``, ``diff_high`` when set). Needs pandas."""
        pd = import_pandas("Report.to_frame")
        rows = {}
        for key, v in self._values.items():
            if not _scalar(v) or key == "n":
                continue
            row = {"value": float(v)}
            if self.ci is not None and key in self.ci:
                row["low"], row["high"] = self.ci[key]
            if self.vs_baseline is not None and key in self.vs_baseline:
                row["baseline"] = float(self.baseline_report[key])
                row["difference"], row["diff_low"], row["diff_high"] = self.vs_baseline[key]
            rows[key] = row
        return pd.DataFrame.from_dict(rows, orient="index")

    # ---- pictures
    _scored = None  # the scored targets and predictions, kept by report() for plot()

    def plot(self, *, n_boot=1000, random_state=None):
        """One figure of the scored rows; returns the list of matplotlib Axes.

        Classification: the CORP reliability diagram with its consistency band (``n_boot``
        resamples, seeded by ``random_state``) and the histogram of the forecasts beneath it,
        and for binary problems the ROC and precision-recall curves, three squares of one
        size on one line. Regression: predicted against observed, and the residuals.
        See :mod:`chimeraboost.plotting`. Needs matplotlib
        (``pip install "chimeraboost[plot]"``).
        """
        from ..plotting import plot_report  # plotting draws reports; reports never import it

        return plot_report(self, n_boot=n_boot, random_state=random_state)


# Past this design effect the report says in words how many independent rows the rows are
# worth: below it, the intervals widen by less than a quarter.
DESIGN_EFFECT_NOTE = 1.5


def _nan_none(x):
    return None if x is None or not np.isfinite(x) else float(x)




def _verdict(key, lo, hi) -> str:
    if math.isnan(lo) or math.isnan(hi):
        return "n/a"
    # An interval of rounding noise around 0 (two identical models) is no difference.
    if lo <= 0 <= hi or (negligible(lo) and negligible(hi)):
        return "no clear difference"
    model_better = (hi < 0) if is_loss(key) else (lo > 0)
    return "model better" if model_better else "baseline better"


def _frozen(value):
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False
    return value


def _scalar(value) -> bool:
    return np.ndim(value) == 0 and isinstance(value, (float, int, np.floating, np.integer))
