"""When does a paired difference of a decision rest on too few units for the bootstrap?

A number of a decision at a threshold (net benefit, expected cost, sensitivity, specificity,
the flagged share) is a sum over rows of a term set by what the model does with the row. The
paired difference of two models on the same rows is then a sum over the rows on which they
act differently -- the *discordant* rows -- and is exactly 0 on every other. Resampling units
(rows, groups, time blocks) sees only the units holding a discordant row: none gives an
interval of width 0 that never covers a nonzero population difference, one covers about half
the time, two 83%, three 88%, four or more 91-95% (``benchmarks/coverage_dependence.py``,
section ``discordant``). An interval of a rate rests on its events the same way
(:data:`~chimeraboost.resampling.MIN_EVENTS`).

The rule: with fewer than :data:`MIN_DISCORDANT` discordant units (``k`` of ``G``), the
interval becomes the hull of the bootstrap's and ``[-bound, bound]``, where ``bound`` is the
most the population difference can be if no more than the Clopper-Pearson upper limit
``U(k, G)`` of the units decide differently [CP34]_: ``U(k, G) * max_g c_g / mean_g b_g``,
``c_g`` the most unit ``g`` adds to the difference's numerator when every one of its rows is
discordant and ``b_g`` its weight in the denominator (net benefit: ``c_g = sum w (y + (1 - y)
t / (1 - t))``, ``b_g = sum w``). The interval then holds 0 (the verdict: no clear
difference), and a :class:`~chimeraboost.exceptions.NarrowIntervalWarning` names ``k``, the
units and the threshold. Two models with equal outputs (the one tie rule) are left alone:
their difference is exactly 0 and has no interval to widen.

From ``MIN_DISCORDANT`` units on the bootstrap reads the difference, but not its shape: the
skewness of a sum of ``k`` unit contributions, estimated from those ``k``, errs as much as it
is and with the estimate's own error, so that the percentile and BCa quantiles lean away from
the truth (at ``k`` = 5 to 11 of 100 customers the default interval covered 85-93% at 95%,
nearly every miss on one side). The expanded intervals are then read symmetrically about the
estimate with at most ``k - 1`` degrees of freedom, the ``k`` units being the difference's
events (:func:`~chimeraboost.resampling.bootstrap_interval`, ``discordant=``, which
:func:`discordant_units` counts for).

The questions, and which function answers each:

- What does a model do with each row, and how much can a row move a difference?
  :class:`Terms` (an evaluator's ``paired_terms(key)`` gives them).
- How many units decide differently, and the bound? :func:`discordance` (below
  ``MIN_DISCORDANT``); how many, whatever their number? :func:`discordant_units`.
- The interval to show? :meth:`Discordance.widen`; why: :meth:`Discordance.reason`.

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

from .._shared.results import Terms
from .._shared.ties import same_outputs

__all__ = ["MIN_DISCORDANT", "Discordance", "Terms", "Widened", "discordance", "discordant_units",
           "unit_index"]

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
        :func:`discordance` computes from the rows, and what accumulators merged across
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


def unit_index(units) -> np.ndarray | None:
    """The unit each row belongs to when discordant units are counted: the group, the time
    block (time points in runs of the mean block length), or None (every row its own)."""
    if units is None or units.kind == "rows" or units.codes is None:
        return None
    if units.kind == "time":
        length = max(float(units.block_length or 1.0), 1.0)
        return (units.codes // length).astype(np.intp)
    return np.asarray(units.codes, dtype=np.intp)


def _count(a: Terms, b: Terms, index):
    """``(k, capacity, weight)`` per unit (rows when ``index`` is None), or None when the
    two models are one (equal outputs: the one tie rule)."""
    if a.output is not None and b.output is not None and same_outputs(a.output, b.output):
        return None
    action_a, action_b = np.asarray(a.action), np.asarray(b.action)
    capacity, base = np.asarray(a.capacity, float), np.asarray(a.base, float)
    moving = (action_a != action_b) & (capacity > 0)
    if index is None:
        return int(moving.sum()), capacity, base
    size = int(index.max(initial=-1)) + 1
    return (int(np.unique(index[moving]).size),
            np.bincount(index, weights=capacity, minlength=size),
            np.bincount(index, weights=base, minlength=size))


def discordant_units(a: Terms, b: Terms, index) -> int | None:
    """How many units (``index``: the unit of each row, None for rows) the paired
    difference of ``a`` and ``b`` rests on: those holding a row on which the two models act
    differently and which can move the number. None when the two models are one or no unit
    weighs anything. What :func:`~chimeraboost.resampling.bootstrap_interval` reads the
    expanded interval with (``discordant=``)."""
    found = _count(a, b, index)
    if found is None or not np.any(found[2] > 0):
        return None
    return found[0]


def discordance(a: Terms, b: Terms, index, level, unit="rows") -> Discordance | None:
    """How many units carry the paired difference of ``a`` and ``b`` (``index``: the unit
    of each row, None for rows), or None when they are enough (``MIN_DISCORDANT`` or more),
    the two models are one (equal outputs) or no unit weighs anything."""
    found = _count(a, b, index)
    if found is None:
        return None
    k, cap, weight = found
    present = weight > 0
    n_units = int(present.sum())
    if k >= MIN_DISCORDANT or n_units == 0:
        return None
    return Discordance.from_counts(k, n_units, cap.max(), weight[present].mean(), level, unit,
                                   a.threshold)
