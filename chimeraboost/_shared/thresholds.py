"""Which thresholds does a decision curve sweep when none are given?

One rule for every layer (:func:`chimeraboost.decisions.decision_curve` on arrays,
:func:`chimeraboost.dask.decision_curve` on blocks): ``n`` thresholds evenly spaced between
the 1st and 99th percentiles of all the models' scores pooled (numpy's default, linear
interpolation between order statistics: Hyndman & Fan 1996, definition 7,
doi:10.1080/00031305.1996.10473566), kept inside [0.01, 0.99]. The questions:

- Which order statistics does a percentile of ``n`` values need, and with what weight?
  :func:`quantile_ranks`.
- The percentile from those two order statistics, to the last bit as ``np.quantile``?
  :func:`interpolate`.
- The thresholds from the two percentiles? :func:`thresholds_between`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PERCENTILES", "interpolate", "quantile_ranks", "thresholds_between"]

PERCENTILES = (0.01, 0.99)


def quantile_ranks(n: int, q: float) -> tuple[int, int, float]:
    """``(below, above, gamma)``: the 0-based ranks of the order statistics the ``q``
    quantile of ``n`` values lies between, and its weight on the upper one (as numpy's
    ``method="linear"`` computes them)."""
    virtual = (n - 1) * np.float64(q)
    below = int(np.floor(virtual))
    above = min(below + 1, n - 1)
    return max(below, 0), above, float(virtual - np.floor(virtual))


def interpolate(a: float, b: float, gamma: float) -> float:
    """``a + (b - a) gamma``, computed from the nearer end as numpy does, so that the result
    is ``np.quantile``'s to the last bit."""
    a, b = np.float64(a), np.float64(b)
    diff = b - a
    return float(b - diff * (1.0 - gamma) if gamma >= 0.5 else a + diff * gamma)


def thresholds_between(lo: float, hi: float, n: int = 99) -> np.ndarray:
    """``n`` thresholds from the 1st percentile ``lo`` to the 99th ``hi``, kept inside
    [0.01, 0.99]; 0.01 to 0.99 when the scores do not spread (0/1 rules)."""
    lo, hi = max(float(lo), 0.01), min(float(hi), 0.99)
    if not hi > lo:
        lo, hi = 0.01, 0.99
    return np.linspace(lo, hi, n)
