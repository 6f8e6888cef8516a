"""The formulas that the classification evaluator and the accumulators share.

Private to :mod:`chimeraboost.metrics`: the in-memory evaluator (``_classification``) and the
streaming accumulators (``_accumulators``) compute their numbers from these, so that both give
the same number the same way (the per-row losses and the proper scores from sums, which the
slices need too, are in ``chimeraboost._shared.scores``):

- Accuracy, balanced accuracy and macro F1 from confusion matrices: :func:`confusion_numbers`.
- What to warn about when the rows are degenerate: :func:`warn_cases`.
"""

from __future__ import annotations

import numpy as np

from . import _kernels
from .._shared.validation import plain, warn_degenerate

__all__ = ["confusion_numbers", "warn_cases"]


def confusion_numbers(cm, ws) -> dict:
    """Accuracy, balanced accuracy and macro F1 from (B, K, K) confusion matrices (rows: true
    class, columns: predicted) of total weight ``ws``. Shared by the evaluator and the
    accumulators."""
    tp = np.diagonal(cm, axis1=1, axis2=2)
    actual, predicted = cm.sum(axis=2), cm.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.where(actual > 0, _kernels.fraction(tp, actual), np.nan)
        # F1 = 2TP / (2TP + FP + FN); labels absent from y and from the predictions
        # are left out of the macro average, as in sklearn's f1_score.
        f1 = np.where(
            actual + predicted > 0, _kernels.fraction(2 * tp, actual + predicted), np.nan
        )
    return {
        "accuracy": _kernels.fraction(tp.sum(axis=1), ws),
        "balanced_accuracy": _mean_defined(list(recall.T)),
        "f1_macro": _mean_defined(list(f1.T)),
    }


def warn_cases(classes, base_prior, scored: bool, want, r, single, out) -> None:
    """One warning per degenerate case of the first weight vector, saying what is NaN.

    ``classes``, ``base_prior`` (None: the prior of y), whether a score ranks the rows
    (``scored``), the keys computed (``want``), the class shares ``r`` and single-class flag
    of the first weight vector, and its numbers ``out``. Shared by the evaluator and the
    accumulators, so that both say the same thing of the same rows.
    """
    undefined = ["ROC-AUC"] if want & {"roc_auc"} and scored else []
    if base_prior is None:
        undefined += [k for k in ("log_loss_skill", "brier_skill") if k in want]
    if single and undefined:
        label = plain(classes[int(np.argmax(r))])
        why = "" if base_prior is not None else (
            " (skills are measured against y's own base rate, which is then certain)")
        warn_degenerate(f"y holds a single class ({label!r}): {', '.join(undefined)} "
                        f"{'is' if len(undefined) == 1 else 'are'} undefined{why}: NaN.")
    if base_prior is not None:
        perfect = [k for k in ("log_loss", "brier")
                   if f"{k}_skill" in want and out.get(f"{k}_ref", [1.0])[0] <= 0]
        if perfect:
            warn_degenerate(
                f"The reference prior forecasts every row of y perfectly (its {perfect[0]} "
                f"is 0): {', '.join(k + '_skill' for k in perfect)} undefined (NaN).")
    absent = [plain(c) for c, rk in zip(classes, r) if rk <= 0]
    if len(classes) > 2 and absent and not single and want & {"roc_auc", "pr_auc"} and scored:
        warn_degenerate(f"y holds no rows of class(es) {absent}: the macro one-vs-rest "
                        "ROC-AUC and PR-AUC over all classes are undefined (NaN).")
    ref = out.get("log_loss_ref")
    if ref is not None and np.isinf(ref[0]) and "log_loss_skill" in want:
        zero = [plain(c) for c, q, rk in zip(classes, base_prior, r) if q == 0 and rk > 0]
        warn_degenerate(
            f"The reference prior gives class(es) {zero} probability 0, but y holds them: "
            "the no-skill forecast's log loss is infinite, so log_loss_skill is undefined "
            "(NaN). Use a baseline in which every class occurs, or the Brier skill."
        )


def _mean_defined(columns) -> np.ndarray:
    """Row-wise mean over the defined (non-NaN) entries; NaN where none is defined."""
    if len(columns) == 1:
        return np.array(columns[0], dtype=np.float64)
    a = np.stack(columns, axis=1)
    ok = ~np.isnan(a)
    cnt = ok.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(cnt > 0, np.where(ok, a, 0.0).sum(axis=1) / cnt, np.nan)
