"""The proper scores' definitions every layer sums with: per-row losses, no-skill references,
skills from sums.

Questions this module answers:

- What does each row contribute to the log loss and the (K-sum) Brier score, and which class
  does it predict? :func:`true_class_proba`, then :func:`row_log_loss`, :func:`row_brier`
  and :func:`row_pred` (each computed only where asked for; all three at once:
  :func:`row_losses`).
- What does the constant forecast ``q`` score on rows whose classes occur with frequencies
  ``r``? :func:`ref_log_loss`, :func:`ref_brier` (closed forms, for any number of rows of
  ``r`` at once).
- Given the weighted sums of the per-row losses and the class weights of some rows, what are
  their log loss and Brier with references and skills? :func:`proper_scores`, with the skill
  ``1 - loss / reference`` of :func:`ratio_skill`.

:mod:`chimeraboost.metrics` builds its evaluators and accumulators on these; the slices sum
the rows of a slice and of the rest of the data with them, so that every layer computes one
definition.
"""

from __future__ import annotations

import numpy as np

__all__ = ["proper_scores", "ratio_skill", "ref_brier", "ref_log_loss", "row_brier",
           "row_log_loss", "row_losses", "row_pred", "true_class_proba"]

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


def ratio_skill(loss: np.ndarray, ref: np.ndarray, undefined: np.ndarray) -> np.ndarray:
    """The skill ``1 - loss / ref``; NaN where ``undefined`` or the reference loss is not
    positive (a reference that forecasts the rows perfectly leaves nothing to improve on)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        skill = 1.0 - loss / ref
    return np.where(undefined | (ref <= 0), np.nan, skill)


def proper_scores(log_loss_sum, brier_sum, ws, r, single, base_prior) -> dict:
    """Log loss and Brier with their references and skills, for B weight vectors.

    ``log_loss_sum``, ``brier_sum``: (B,) weighted sums of the per-row losses, or None for a
    loss not asked for (its three numbers are then left out: a scorer of one skill computes
    one loss); ``ws`` their total weight; ``r`` (B, K) the class shares; ``single`` whether a
    vector holds one class; ``base_prior`` the reference prior (None: ``r`` itself, whose
    skills are then undefined on a single class). Shared by the evaluator, the accumulators
    and the slices.
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
        out["log_loss_skill"] = ratio_skill(out["log_loss"], out["log_loss_ref"],
                                            undefined | np.isinf(out["log_loss_ref"]))
    if brier_sum is not None:
        out["brier_skill"] = ratio_skill(out["brier"], out["brier_ref"], undefined)
    return out


def debiased_skill(loss, ref, ref_replicates, units) -> float:
    """A skill against the part's own class prior, ``1 - loss / ref``, with the bias of the
    plug-in reference taken out: what the slices' test compares (their printed numbers stay
    the plug-in ones).

    ``loss``: the part's mean loss (unbiased: a mean over rows); ``ref``: the loss of its own
    class prior, a function of the class shares estimated from the same rows, and so biased
    low -- for Brier ``E[r(1 - r)] = rho(1 - rho) - Var(r)``, which for ``n`` independent rows
    is Ferro & Fricker's (2012) factor ``n / (n - 1)``, and for the entropy of log loss about
    ``-sum Var(r_k) / (2 rho_k)`` (Miller 1955). On a slice of a dozen customers the
    variance of its base rate is large, and the skill reads low: the slices' test then calls
    too many small slices worse than the rest. The bootstrap's estimate of that bias is
    ``mean(ref_replicates) - ref`` (Efron & Tibshirani 1993, ch. 10; for Brier exactly minus
    the resampling variance of the shares), made unbiased for ``units`` resampled units by
    ``units / (units - 1)``, as the library's expanded intervals widen; ``ref`` minus it is
    the reference the skill is read against. Replicates without a reference (none of the
    part's rows drawn) are left out; with none left, or one unit, ``ref`` is used as it is.

    References: Ferro, C. A. T. and Fricker, T. E. (2012). A bias-corrected decomposition of
    the Brier score. *Q. J. R. Meteorol. Soc.* 138, 1954-1960. doi:10.1002/qj.1924. Miller,
    G. A. (1955). Note on the bias of information estimates. In *Information Theory in
    Psychology*, 95-100. Efron, B. and Tibshirani, R. J. (1993). *An Introduction to the
    Bootstrap*. Chapman & Hall.

    Replicates of the reference 0.01 below it on average, over 5 units: a bias of -0.0125, a
    reference of 0.2125, and the skill ``1 - 0.15 / 0.2125`` instead of ``1 - 0.15 / 0.2``:

    >>> round(debiased_skill(0.15, 0.2, np.array([0.19, 0.18, 0.2, 0.19]), 5), 4)
    0.2941
    """
    reps = np.asarray(ref_replicates, dtype=np.float64)
    reps = reps[np.isfinite(reps)]
    bias = (np.mean(reps) - ref) * units / (units - 1) if reps.size and units > 1 else 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(1.0 - loss / (ref - bias))


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
