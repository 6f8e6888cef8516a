"""The formulas that the classification evaluator and the accumulators share.

Private to :mod:`chimeraboost.metrics`: the in-memory evaluator (``_classification``) and the
streaming accumulators (``_accumulators``) compute their numbers from these, so that both give
the same number the same way:

- What does each row contribute? :func:`true_class_proba`, then :func:`row_log_loss`,
  :func:`row_brier` and :func:`row_pred` (all three at once: :func:`row_losses`).
- Log loss and Brier with their no-skill references and skills, from weighted sums:
  :func:`proper_scores` (:func:`ref_log_loss`, :func:`ref_brier` for a reference forecast).
- Accuracy, balanced accuracy and macro F1 from confusion matrices: :func:`confusion_numbers`.
- What to warn about when the rows are degenerate: :func:`warn_cases`.
"""

from __future__ import annotations

import numpy as np

from .._shared import kernels as _kernels
from .._shared.validation import plain, warn_degenerate

__all__ = ["confusion_numbers", "proper_scores", "ref_brier", "ref_log_loss", "row_brier",
           "row_log_loss", "row_losses", "row_pred", "true_class_proba", "warn_cases"]

_EPS = np.finfo(np.float64).eps


def ref_log_loss(r: np.ndarray, q: np.ndarray) -> np.ndarray:
    """(B, K) outcome frequencies, (K,) or (B, K) forecast -> (B,) log loss; ``inf`` where a
    class that occurs is forecast with probability 0 (0 log 0 counts as 0)."""
    q = np.broadcast_to(q, r.shape)
    with np.errstate(divide="ignore"):
        terms = np.where(r > 0, -r * np.log(np.where(r > 0, q, 1.0)), 0.0)
    return np.sum(terms, axis=-1)


def ref_brier(r: np.ndarray, q: np.ndarray) -> np.ndarray:
    return 1.0 - 2.0 * np.sum(r * q, axis=-1) + np.sum(q * q, axis=-1)


def _skill(loss: np.ndarray, ref: np.ndarray, undefined: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        skill = 1.0 - loss / ref
    return np.where(undefined | (ref <= 0), np.nan, skill)


def proper_scores(log_loss_sum, brier_sum, ws, r, single, base_prior) -> dict:
    """Log loss and Brier with their references and skills, for B weight vectors.

    ``log_loss_sum``, ``brier_sum``: (B,) weighted sums of the per-row losses, or None for a
    loss not asked for (its three numbers are then left out); ``ws`` their total weight;
    ``r`` (B, K) the class shares; ``single`` whether a vector holds one class;
    ``base_prior`` the reference prior (None: ``r`` itself, whose skills are then undefined on
    a single class). Shared by the evaluator and the accumulators.
    """
    q = r if base_prior is None else base_prior
    undefined = single if base_prior is None else np.zeros_like(single)
    out = {}
    if log_loss_sum is not None:
        out["log_loss"] = log_loss_sum / ws
        out["log_loss_ref"] = ref_log_loss(r, q)
    if brier_sum is not None:
        out["brier"] = brier_sum / ws
        out["brier_ref"] = ref_brier(r, q)
    if log_loss_sum is not None:
        out["log_loss_skill"] = _skill(out["log_loss"], out["log_loss_ref"],
                                       undefined | np.isinf(out["log_loss_ref"]))
    if brier_sum is not None:
        out["brier_skill"] = _skill(out["brier"], out["brier_ref"], undefined)
    return out


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


def true_class_proba(proba: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The probability each row gives the class that occurred: a new (n,) array."""
    n, K = proba.shape
    if not proba.flags.c_contiguous:  # (a DataFrame's columns): no copy of the matrix
        return np.take_along_axis(proba, codes[:, None], axis=1)[:, 0]
    # One gather from the flat matrix: a fifth of take_along_axis's time at K = 3.
    at = np.arange(n, dtype=np.intp)
    at *= K
    at += codes
    return np.ravel(proba).take(at)


def row_brier(proba: np.ndarray, p_true: np.ndarray) -> np.ndarray:
    """K-sum Brier of each row, ``sum_k p_k^2 - 2 p_true + 1``, given ``p_true``
    (:func:`true_class_proba`, left unchanged)."""
    # In place, with one row-length temporary: at 10^7 rows every copy is 80 MB. Column by
    # column (einsum over a short inner axis is slower).
    brier, tmp = np.square(proba[:, 0]), np.empty_like(p_true)
    for j in range(1, proba.shape[1]):
        brier += np.square(proba[:, j], out=tmp)
    brier -= np.multiply(p_true, 2.0, out=tmp)
    brier += 1.0
    return brier


def row_log_loss(p_true: np.ndarray) -> np.ndarray:
    """Log loss of each row, ``-log p_true`` with ``p`` clipped to ``[eps, 1 - eps]``,
    computed in place in ``p_true``'s memory (which it returns)."""
    np.clip(p_true, _EPS, 1 - _EPS, out=p_true)
    return np.negative(np.log(p_true, out=p_true), out=p_true)


def row_pred(proba: np.ndarray) -> np.ndarray:
    """Predicted class of each row: the first of the largest probabilities, as
    ``np.argmax``."""
    if proba.shape[1] == 2:
        return (proba[:, 1] > proba[:, 0]).astype(np.int8)
    return np.argmax(proba, 1)


def row_losses(proba: np.ndarray, codes: np.ndarray) -> tuple:
    """``(log loss, K-sum Brier, predicted class)`` of each row of an (n, K) probability
    matrix against the class codes: the per-row numbers every report sums."""
    p_true = true_class_proba(proba, codes)
    brier = row_brier(proba, p_true)  # before the log loss, which overwrites p_true
    return row_log_loss(p_true), brier, row_pred(proba)


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
