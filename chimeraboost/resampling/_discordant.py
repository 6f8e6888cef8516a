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

import numpy as np

# The rule itself (the constant, the bound, the reason) sits in _shared, so that accumulators
# merged across blocks (chimeraboost.dask), which hold counts rather than rows, apply it too.
from .._shared.discordance import MIN_DISCORDANT, Discordance, Widened
from .._shared.results import Terms
from .._shared.ties import same_outputs

__all__ = ["MIN_DISCORDANT", "Discordance", "Terms", "Widened", "discordance", "discordant_units",
           "unit_index"]

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
