"""Which of several tests survive their number? Multiplicity adjustments of p-values.

When one question is asked of several challengers, slices or data sets at once, some p-values
fall below alpha by chance alone. Questions this module answers, and which function answers
each:

- Is any of the null hypotheses I reject true? Control that probability (the family-wise
  error rate): :func:`holm`, Holm's step-down procedure [H79]_.
- What share of the hypotheses I reject are true? Control its expectation (the false
  discovery rate): :func:`benjamini_hochberg` [BH95]_.

Both return a :class:`MultipleTestResult` (adjusted p-values, in the input order, and which
are rejected at ``alpha``); :func:`chimeraboost.compare.compare_cv` adjusts its challengers,
:func:`chimeraboost.compare.compare_datasets` its pairwise tests and
:func:`chimeraboost.slices.slice_report` its slices with them.

References
----------
.. [H79] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
   *Scandinavian Journal of Statistics* 6(2), 65-70.
.. [BH95] Benjamini, Y. and Hochberg, Y. (1995). Controlling the false discovery rate: a
   practical and powerful approach to multiple testing. *JRSS B* 57(1), 289-300.
   doi:10.1111/j.2517-6161.1995.tb02031.x
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._shared.api import public
from .._shared.validation import check_level, check_pvalues

__all__ = ["MultipleTestResult", "benjamini_hochberg", "holm"]



class MultipleTestResult(NamedTuple):
    """Adjusted p-values (in the input order) and which hypotheses are rejected at alpha."""

    pvalues_adjusted: np.ndarray
    reject: np.ndarray


@public(legacy=("alpha",))
def holm(pvalues, *, alpha=0.05) -> MultipleTestResult:
    """Holm's step-down adjustment: controls the family-wise error rate at ``alpha``.

    Parameters
    ----------
    pvalues : array-like of shape (m,), values in [0, 1]
    alpha : float in (0, 1), default=0.05

    Returns
    -------
    MultipleTestResult
        ``pvalues_adjusted`` and ``reject = pvalues_adjusted <= alpha``.

    Notes
    -----
    With ``p_(1) <= ... <= p_(m)`` sorted [H79]_: ``p~_(i) = max_{j <= i} min(1, (m - j + 1)
    p_(j))``. Rejecting ``p~ <= alpha`` is Holm's procedure: reject ``H_(1), H_(2), ...`` while
    ``p_(j) <= alpha / (m - j + 1)``, stop at the first failure.
    """
    p = check_pvalues(pvalues)
    alpha = check_level(alpha, "alpha", example="0.05")
    m = p.shape[0]
    order = np.argsort(p, kind="stable")
    steps = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(steps)  # step-down: never below an earlier one
    return MultipleTestResult(adjusted, adjusted <= alpha)


@public(legacy=("alpha",))
def benjamini_hochberg(pvalues, *, alpha=0.05) -> MultipleTestResult:
    """Benjamini & Hochberg's step-up adjustment: controls the false discovery rate.

    Parameters
    ----------
    pvalues : array-like of shape (m,), values in [0, 1]
    alpha : float in (0, 1), default=0.05

    Returns
    -------
    MultipleTestResult
        ``pvalues_adjusted`` and ``reject = pvalues_adjusted <= alpha``.

    Notes
    -----
    With ``p_(1) <= ... <= p_(m)`` sorted [BH95]_: ``p~_(i) = min_{j >= i} min(1, m p_(j) /
    j)``. Rejecting ``p~ <= alpha`` rejects ``H_(1..k)`` for the largest ``k`` with ``p_(k) <=
    k alpha / m``. Valid for independent or positively dependent tests.
    """
    p = check_pvalues(pvalues)
    alpha = check_level(alpha, "alpha", example="0.05")
    m = p.shape[0]
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    adjusted = np.empty(m)
    # step-up: a p-value is never adjusted above a larger one's adjustment
    adjusted[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return MultipleTestResult(adjusted, adjusted <= alpha)
