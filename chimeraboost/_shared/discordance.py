"""The rule for a paired difference of a decision resting on few units: the constant, the
bound and the reason, from counts alone.

Private and shared: :mod:`chimeraboost.resampling._discordant` counts the units from the rows
(and explains the rule in its module docstring); :mod:`chimeraboost.dask` counts them in
accumulators merged across blocks. Questions answered here:

- Below how many discordant units is a difference's interval widened? :data:`MIN_DISCORDANT`.
- How far, from ``k`` of ``n`` units, the most one unit moves the difference and the units'
  mean weight? :meth:`Discordance.from_counts` (the Clopper-Pearson limit [CP34]_ of the
  share of units that decide differently, times the largest move over the mean weight).
- What does the warning say? :meth:`Discordance.reason` (one threshold) and
  :meth:`Discordance.curve_reason` (the thresholds of a curve).

References
----------
.. [CP34] Clopper, C. J. and Pearson, E. S. (1934). The use of confidence or fiducial limits
   illustrated in the case of the binomial. *Biometrika* 26(4), 404-413.
   doi:10.1093/biomet/26.4.404
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.stats import beta

__all__ = ["MIN_DISCORDANT", "Discordance", "Widened"]

# With fewer units than this on which the two models decide differently, the default interval
# of the paired difference of net benefit at 0.2 covered 0% (none), 53% (one), 83% (two) and
# 88% (three) of the time at a 95% level; from four on 91-95%, as the rest of the table
# (benchmarks/coverage_dependence.py, section discordant). The same boundary as MIN_EVENTS.
MIN_DISCORDANT = 4


class Widened(str):
    """A reason that widened an interval (not one that leaves it too narrow)."""


class Discordance(NamedTuple):
    """``k`` of ``n_units`` units decide differently; ``bound`` the most the population
    difference can be at the interval's level."""

    k: int
    n_units: int
    unit: str
    bound: float
    threshold: float | None

    def widen(self, low, high) -> tuple[float, float]:
        """The hull of ``(low, high)`` and ``[-bound, bound]``."""
        if np.isnan(low) or np.isnan(high):
            return low, high
        return float(min(low, -self.bound)), float(max(high, self.bound))

    @classmethod
    def from_counts(cls, k, n_units, max_capacity, mean_weight, level, unit="rows",
                    threshold=None):
        """The rule from counts alone: ``k`` of ``n_units`` units (of positive weight)
        decide differently, ``max_capacity`` the most one unit can move the difference's
        numerator, ``mean_weight`` the units' mean weight in its denominator. None when
        ``k`` reaches :data:`MIN_DISCORDANT` or no unit weighs anything. What
        :func:`chimeraboost.resampling._discordant.discordance` computes from the rows, and what accumulators merged across
        blocks (which hold the counts, not the rows) compute from theirs."""
        k, n_units = int(k), int(n_units)
        if k >= MIN_DISCORDANT or n_units == 0:
            return None
        upper = 1.0 if k >= n_units else float(beta.ppf((1 + level) / 2, k + 1, n_units - k))
        return cls(k, n_units, unit, upper * float(max_capacity) / float(mean_weight),
                   threshold)

    @staticmethod
    def curve_reason(few, n_thresholds: int, who: str) -> Widened:
        """Why a band was widened at the thresholds of ``few`` (a list of ``(threshold,
        Discordance)``, of ``n_thresholds`` in all) for the paired difference ``who``: one
        threshold's :meth:`reason`, or one sentence naming them all."""
        first = few[0][1]
        if len(few) == 1:
            return first.reason(who)
        shown = ", ".join(f"{v:g}" for v, _ in few[:8]) + (" ..." if len(few) > 8 else "")
        k = min(f.k for _, f in few)
        return Widened(
            f"at {len(few)} of {n_thresholds} thresholds ({shown}) {who} decide "
            f"differently on fewer than {MIN_DISCORDANT} of {first.n_units} "
            f"{first.unit} (as few as {k}), too few for a bootstrap to read the "
            f"difference from; there the band holds every difference those "
            f"{first.unit} allow (the Clopper-Pearson limit of the share that decide "
            f"differently times the most one can move the net benefit), and 0")

    def reason(self, who: str = "the two models") -> Widened:
        """Why the interval was widened (what the warning says)."""
        at = "" if self.threshold is None else f" at threshold {self.threshold:g}"
        return Widened(
            f"{who} decide differently on {self.k} of {self.n_units} {self.unit}{at}, too "
            f"few for a bootstrap to read the difference from; the interval now holds every "
            f"difference those {self.unit} allow (up to ±{self.bound:.3g}: the Clopper-Pearson "
            f"limit of the share of {self.unit} that decide differently times the most one "
            f"can move the number), and 0")
