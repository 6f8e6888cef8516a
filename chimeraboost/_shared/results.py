"""Result types every layer shares.

- :class:`ConfidenceInterval`: a two-sided interval ``(low, high)``, as scipy's result objects
  return it (``BinomTestResult.proportion_ci()``). Re-exported by ``chimeraboost.resampling``.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["ConfidenceInterval"]


class ConfidenceInterval(NamedTuple):
    """A two-sided interval ``(low, high)``."""

    low: float
    high: float
