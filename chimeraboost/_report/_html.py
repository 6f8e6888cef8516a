"""How a report reads in a notebook: :meth:`Report._repr_html_`, grouped as its text.

- The four-number line as the heading, the rows and the reference under it.
- The proper scores as the text's table (loss, reference, skill), each loss and skill with
  its bootstrap interval beside it when the report has intervals.
- The rest in the text's groups, one section each: calibration (MCB, DSC, UNC), ranking (ROC
  AUC, PR AUC and its lift), threshold (accuracy, balanced accuracy, F1 macro), top k; a
  regressor's RMSE and MAE; a quantile forecast's levels, intervals and summary.
- The interval's level and resamples said once, then the paired comparison with a baseline.
- Last, the legend of the abbreviations the report shows (:meth:`Report.legend`).

Nothing is computed here: the numbers are the report's, formatted by the shared formatter.
"""

from __future__ import annotations

import html
import math

import numpy as np

from .._shared.facts import ABOUT_THE_ROWS, FACTS
from .._shared.format import NA, NO_PROBA, Col, fmt
from .._shared.html import html_block, html_paragraphs, html_table

__all__ = ["report_html"]

# The text's groups of a classification report, each (label, [(row label, key), ...]).
_GROUPS = (
    ("calibration", (("MCB", "calibration_mcb"), ("DSC", "discrimination_dsc"),
                     ("UNC", "uncertainty_unc"),
                     # The calibration test, when the report made its draws.
                     ("noise floor", "calibration_noise_floor"),
                     ("excess (population MCB)", "calibration_excess"),
                     ("calibration test p", "calibration_pvalue"),
                     ("recalibration intercept", "recalibration_intercept"),
                     ("recalibration slope", "recalibration_slope"),
                     ("recalibration test p", "recalibration_pvalue"))),
    ("ranking", (("ROC AUC", "roc_auc"), ("PR AUC", "pr_auc"))),
    ("threshold", (("accuracy", "accuracy"), ("balanced accuracy", "balanced_accuracy"),
                   ("F1 macro", "f1_macro"))),
    ("top k", (("recall@k", "recall_at_k"), ("precision@k", "precision_at_k"))),
)
_PROPER = (("log loss", "log_loss"), ("Brier (sum)", "brier"))
# Printed with two decimals, as in the text.
_TWO_DIGITS = {"pr_auc_lift", "recalibration_intercept", "recalibration_slope"}


def report_html(report) -> str:
    """The HTML of a :class:`Report`: the text's layout, as tables."""
    cells = _Cells(report)
    parts = [f"<h4>{html.escape(report.headline())}</h4>",
             f"<p>{html.escape(report.header())}</p>"]
    if report.task == "quantile":
        parts += _quantile(report, cells)
    elif report.task == "regression":
        parts += _regression(report, cells)
    else:
        parts += _classification(report, cells)
    rest = cells.not_shown()
    if rest:  # an interval the layout above has no place for is still shown
        parts.append(html_table([Col("also", None), Col("value")],
                                [[FACTS[k].label if k in FACTS else k, cells(k)] for k in rest]))
    if report.ci:
        parts.append(html_paragraphs([
            f"[low, high]: {report._ci_caption()}."]))
    if report.vs_baseline is not None:
        title, columns, rows, delong = report._vs_table()
        # The difference and its interval under one title, as the intervals above.
        columns = [*columns[:3], columns[3], columns[-1]]
        rows = [[*row[:3], (row[3], row[4], row[5]), row[6]] for row in rows]
        parts.append(html_table(columns, rows, caption=title))
        if delong:
            parts.append(html_paragraphs([delong]))
    if getattr(report, "decision", None) is not None:
        parts += report.decision.html_parts()
    if getattr(report, "slices", None) is not None:  # report(..., by=...)
        parts += report.slices.html_parts()
    legend = report.legend()
    if legend:
        parts.append(html_paragraphs(["; ".join(legend) + "."]))
    return html_block(*parts)


class _Cells:
    """A number of the report, as a table cell: ``(value, low, high)`` when the text shows an
    interval for it, else the value. Remembers which intervals were placed."""

    def __init__(self, report):
        self.values, self.shown = report, set()
        ci = report.ci or {}
        # As the text's interval table: not the numbers about the rows (but the base rate and
        # the lift), not a number the model does not have.
        self.ci = {k: v for k, v in ci.items()
                   if k not in ABOUT_THE_ROWS - {"base_rate", "pr_auc_lift"}
                   and _finite(report.get(k))}

    def __call__(self, key, digits=None):
        value = self.values.get(key, np.nan)
        self.shown.add(key)
        if key not in self.ci:
            return value if digits is None else fmt(value, digits)
        low, high = self.ci[key]
        if digits is None:
            return (value, low, high)
        return (fmt(value, digits), fmt(low, digits), fmt(high, digits))

    def not_shown(self) -> list:
        return [k for k in self.ci if k not in self.shown]


def _classification(report, cells) -> list:
    v = report
    has_proba = _finite(v.get("log_loss"))
    parts = []
    if has_proba:
        parts.append(html_table(
            [Col("proper score", None), Col("loss"), Col("reference"), Col("skill", 3)],
            [[label, cells(key), v[key + "_ref"], cells(key + "_skill")]
             for label, key in _PROPER]))
    rows, sections = [], []
    if not has_proba:
        note = v.get("note", NO_PROBA)
        rows += [[note, NA], [note, NA]]
        sections += [("proper scores", 1), ("calibration", 1)]
    for group, members in _GROUPS:
        if group == "calibration" and not has_proba:
            continue
        present = [(label, key) for label, key in members if key in v]
        if group == "ranking" and "pr_auc_lift" in v:
            present.append(("lift (PR AUC / base rate)", "pr_auc_lift"))
        rows += [[label, cells(key, 2) if key in _TWO_DIGITS else cells(key)]
                 for label, key in present]
        if present:
            sections.append((group, len(present)))
    if "base_rate" in cells.ci:  # its interval: the rows' own uncertainty
        rows.append(["base rate", cells("base_rate")])
        sections.append(("rows", 1))
    parts.append(html_table([Col("", None), Col("", None), Col("value")], rows,
                            sections=sections))
    return parts


def _regression(report, cells) -> list:
    v = report
    own = not str(v.get("reference", "")).endswith("of baseline")
    mean, median = ("mean of y", "median of y") if own else ("baseline mean", "baseline median")
    # Against another mean than y's own the skill is mse_skill, not scikit-learn's r2: r2 is
    # named beside it, as in the text.
    if own:
        skill, note = cells("r2"), "(skill: r2)"
        cells.shown.add("mse_skill")  # the same number as r2
    else:
        skill = cells("mse_skill" if "mse_skill" in v else "r2")
        note = f"(r2, against the mean of y: {fmt(v['r2'], 3)})"
    rows = [["RMSE", cells("rmse"), v["rmse_ref"], skill,
             f"{mean} {fmt(v['baseline_mean'])} {note}"],
            ["MAE", cells("mae"), v["mae_ref"], cells("mae_skill"),
             f"{median} {fmt(v['baseline_median'])}"]]
    return [html_table([Col("loss", None), Col("value"), Col("reference"), Col("skill", 3),
                        Col("reference forecast", None)], rows)]


def _quantile(report, cells) -> list:
    v = report
    ref_from = "quantiles of y" if v["baseline"] == "y" else "quantiles of baseline"
    parts = [html_table([Col("level", None), Col("pinball")],
                        [[f"{tau:g}", loss] for tau, loss in zip(v["quantiles"], v["pinball"])])]
    if v["intervals"]:
        parts.append(html_table(
            [Col("interval", None), Col("nominal"), Col("coverage"), Col("width"),
             Col("int. score")],
            [[f"{r['lower_level']:g}-{r['upper_level']:g}", r["nominal"], r["coverage"],
              r["mean_width"], r["interval_score"]] for r in v["intervals"]]))
    summary = [["rows", int(v["n"])], ["crossing rate", cells("crossing_rate")]]
    if v.get("mae_median") is not None:
        summary.append(["MAE of the median", cells("mae_median")])
    summary += [["mean pinball (CRPS / 2)", cells("crps")],
                ["reference: " + ref_from, v["crps_ref"]],
                ["CRPS skill", cells("crps_skill")]]
    parts.append(html_table([Col("summary", None), Col("value")], summary))
    return parts


def _finite(x) -> bool:
    try:
        return not math.isnan(float(x))
    except (TypeError, ValueError):
        return False
