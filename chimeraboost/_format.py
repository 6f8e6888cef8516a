"""Fixed-width text for report dicts (re-exported as ``chimeraboost.metrics.format_report``).

A proper score is never printed alone: its line carries the base rate, the reference loss
that base rate implies and the skill, skill last. Losses are printed with their natural sign.
"""

from __future__ import annotations

import math

import numpy as np

NO_PROBA = "n/a — the model gives no probabilities"


def fmt(x, digits: int = 4) -> str:
    """A number for humans: 'n/a' for NaN / None, fixed decimals otherwise."""
    if x is None:
        return "n/a"
    x = float(x)
    if math.isnan(x):
        return "n/a"
    return f"{x:.{digits}f}"


def cell(x, width: int = 11, signed: bool = False) -> str:
    """A right-aligned table cell that always leaves a space before the number.

    Four decimals while they fit; large numbers (an MSE of 3,750.55) switch to 6 significant
    digits rather than running into the next column.
    """
    if x is None or math.isnan(float(x)):
        return "n/a".rjust(width)
    text = f"{float(x):+.4f}" if signed else f"{float(x):.4f}"
    if len(text) >= width:
        text = f"{float(x):+.6g}" if signed else f"{float(x):.6g}"
    return text.rjust(width)


def rates(values, classes=None) -> str:
    """Class rates for humans: ``ant 0.250, bee 0.300, cat 0.450`` (bare numbers without
    labels)."""
    values = np.asarray(values, dtype=float)
    if classes is None or len(classes) != values.shape[0]:
        return "[" + " ".join(f"{v:.3f}" for v in values) + "]"
    return ", ".join(f"{label} {v:.3f}" for label, v in zip(classes, values))


def _rate(report) -> str:
    rate = np.asarray(report.get("base_rate", np.nan), dtype=float)
    if rate.ndim == 0:
        return fmt(rate, 3)
    return rates(rate, report.get("classes"))


def _header(report) -> str:
    parts = [f"n {report['n']:,}"]
    if "positives" in report and np.ndim(report.get("base_rate")) == 0:
        parts.append(f"positives {report['positives']:,.6g}")
    parts.append(f"judged against: {report.get('reference', 'n/a')}")
    return " · ".join(parts)


def _format_classification(report, header: bool) -> list[str]:
    has_proba = not math.isnan(float(report.get("log_loss", np.nan)))
    note = report.get("note", NO_PROBA)
    rate = _rate(report)
    if has_proba:
        lines = [
            f"log loss {fmt(report['log_loss'])} | base rate {rate} | "
            f"reference {fmt(report['log_loss_ref'])} | skill {fmt(report['log_loss_skill'], 3)}",
            *([_header(report)] if header else []),
            "",
            f"{'proper score':<16}{'loss':>10}{'reference':>12}{'skill':>10}",
        ]
        for label, key in (("log loss", "log_loss"), ("Brier (sum)", "brier")):
            lines.append(
                f"{label:<16}{fmt(report[key]):>10}{fmt(report[key + '_ref']):>12}"
                f"{fmt(report[key + '_skill'], 3):>10}"
            )
        lines.append(
            f"{'calibration':<16}MCB {fmt(report['calibration_mcb'])}   "
            f"DSC {fmt(report['discrimination_dsc'])}   UNC {fmt(report['uncertainty_unc'])}"
        )
    else:
        lines = [
            f"log loss {note} | base rate {rate}",
            *([_header(report)] if header else []),
            "",
            f"{'proper scores':<16}{note}",
            f"{'calibration':<16}{note}",
        ]
    ranking = f"{'ranking':<16}ROC AUC {fmt(report.get('roc_auc'))}   PR AUC {fmt(report.get('pr_auc'))}"
    if "pr_auc_lift" in report:
        ranking += f" (lift {fmt(report['pr_auc_lift'], 2)}x base rate)"
    lines.append(ranking)
    lines.append(
        f"{'threshold':<16}accuracy {fmt(report.get('accuracy'))}   balanced accuracy "
        f"{fmt(report.get('balanced_accuracy'))}   F1 macro {fmt(report.get('f1_macro'))}"
    )
    if "recall_at_k" in report:
        lines.append(
            f"{'top k':<16}recall@k {fmt(report['recall_at_k'])}   precision@k "
            f"{fmt(report['precision_at_k'])}"
        )
    return lines


def _format_regression(report, header: bool) -> list[str]:
    lines = [
        f"RMSE {fmt(report['rmse'])} | mean of y {fmt(report['mean_y'])} | "
        f"reference {fmt(report['rmse_ref'])} | skill (r2) {fmt(report['r2'], 3)}",
        *([_header(report)] if header else []),
        "",
        f"{'loss':<16}{'value':>12}{'reference':>12}{'skill':>10}",
        f"{'RMSE':<16}{fmt(report['rmse']):>12}{fmt(report['rmse_ref']):>12}"
        f"{fmt(report['r2'], 3):>10}  (r2, constant mean {fmt(report['baseline_mean'])})",
        f"{'MAE':<16}{fmt(report['mae']):>12}{fmt(report['mae_ref']):>12}"
        f"{fmt(report['mae_skill'], 3):>10}  (constant median {fmt(report['baseline_median'])})",
    ]
    return lines


def report_lines(report, header: bool = True) -> list[str]:
    """The lines of :func:`format_report`; ``header=False`` leaves out the line with the row
    count and the reference (for callers that print their own header)."""
    if not hasattr(report, "keys"):
        msg = f"report must be a dict from classification_report or regression_report, got {type(report).__name__}."
        raise TypeError(msg)
    if "rmse" in report:
        return _format_regression(report, header)
    if "roc_auc" in report or "accuracy" in report:
        return _format_classification(report, header)
    msg = "report has neither 'rmse' nor 'roc_auc'/'accuracy': not a report dict."
    raise ValueError(msg)


def format_report(report, title=None) -> str:
    """Fixed-width text of a classification or regression report dict.

    Classification starts with the four-number line: log loss, base rate, reference loss,
    skill. Regression starts with RMSE, the mean of y, the reference RMSE and r2. NaN prints
    as ``n/a``; a classification report without probabilities says so instead of a number.
    """
    lines = report_lines(report)
    if title:
        lines = [str(title), "=" * len(str(title)), *lines]
    return "\n".join(lines)
