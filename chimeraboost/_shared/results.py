"""Result types every layer shares.

- :class:`ConfidenceInterval`: a two-sided interval ``(low, high)``, as scipy's result objects
  return it (``BinomTestResult.proportion_ci()``). Re-exported by ``chimeraboost.resampling``.
- :class:`Terms`: what a model does with each row at a threshold, for a paired difference
  (made by the decisions' evaluator, read by ``resampling._discordant``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["ConfidenceInterval", "Terms"]


class ConfidenceInterval(NamedTuple):
    """A two-sided interval ``(low, high)``."""

    low: float
    high: float


class Terms(NamedTuple):
    """What one model does with each row at a threshold, for a paired difference.

    Attributes
    ----------
    action : ndarray of shape (n,)
        The row's action (treated or not, a label); rows where two models' actions differ
        are the discordant ones.
    capacity : ndarray of shape (n,)
        The most the row adds to the numerator of the difference when the two models act
        differently on it (0: it never does, e.g. a negative row for sensitivity).
    base : ndarray of shape (n,)
        The row's weight in the metric's denominator.
    output : ndarray or None
        The model's outputs the action comes from: equal outputs are one model.
    threshold : float or None
        For the message.
    """

    action: np.ndarray
    capacity: np.ndarray
    base: np.ndarray
    output: np.ndarray | None = None
    threshold: float | None = None
