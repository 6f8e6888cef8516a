"""The values of ``y`` an accumulator keeps for their weighted median: :class:`_ValueSummary`.

Private to :mod:`chimeraboost.metrics._regression_accumulator` (the median-based numbers of
:class:`~chimeraboost.metrics.RegressionAccumulator` without ``baseline=``). The questions
answered here: which values (or dyadic bins of values) are kept, with which weights, whatever
the chunking (:meth:`_ValueSummary.merge`); what is their median and the sum of absolute
deviations from it, and how far off can it be (:meth:`_ValueSummary.median`,
:meth:`_ValueSummary.mae_bracket`).
"""

from __future__ import annotations

import numpy as np

from .._shared.validation import pow2_below
from ._accumulators import _exponent

_EPS = np.finfo(np.float64).eps


class _ValueSummary:
    """Weighted values of ``y`` for their median: exact while they take at most ``cap``
    distinct values, then in dyadic bins ``[k 2^j, (k + 1) 2^j)`` at the finest level ``j``
    that needs at most ``cap`` bins.

    Per value or bin: ``lo`` and ``hi`` (smallest and largest value in it), ``w`` (weight)
    and ``d`` (weighted sum of ``y - lo``, in units of ``2 ** ey`` times the weights' unit).
    Keeping ``y - lo`` rather than ``y`` keeps distances to the median free of cancellation
    when ``y`` carries a large offset. The number of occupied bins only falls as ``j`` grows,
    and only rises as values are added, so the level -- and the result -- depends on the set
    of values seen, not on the chunking or the order of merges.

    With bootstrap replicates, ``rw`` and ``rd`` (``n_boot``, groups) hold each replicate's
    ``w`` and ``d`` on the same groups: the groups depend on the values seen only, so the
    replicates' medians come from the grid of the rows' own (:meth:`row` gives replicate
    ``r`` as a summary of its own).
    """

    def __init__(self, cap: int, n_boot: int = 0):
        self.cap = cap
        self.level = None  # None: exact values (key == lo == hi)
        self.key = self.lo = self.hi = self.w = self.d = np.empty(0)
        self.rw = self.rd = np.zeros((n_boot, 0))

    @classmethod
    def of_rows(cls, cap: int, y: np.ndarray, w) -> _ValueSummary:
        """The exact summary of one chunk (rows of positive weight; ``w`` None: ones)."""
        out = cls(cap)
        if not y.shape[0]:
            return out
        order = np.argsort(y)
        ys = y[order]
        starts = np.flatnonzero(np.r_[True, ys[1:] != ys[:-1]])
        out.key = out.lo = out.hi = ys[starts]
        out.w = (np.diff(np.r_[starts, ys.shape[0]]).astype(np.float64) if w is None
                 else np.add.reduceat(w[order], starts))
        out.d = np.zeros(starts.shape[0])
        return out

    def _keys_at(self, level: int) -> np.ndarray:
        if self.level is None:
            return np.floor(np.ldexp(self.lo, -level))
        return np.floor(np.ldexp(self.key, self.level - level))

    def _regroup(self, key, lo, hi, w, d, ey: int) -> None:
        """Set the summary to the groups of equal ``key``."""
        order = np.argsort(key, kind="stable")
        key, lo, hi, w, d = key[order], lo[order], hi[order], w[order], d[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        new_lo = np.minimum.reduceat(lo, starts)
        # d is measured from each part's own smallest value: move it to the group's.
        each = np.repeat(new_lo, np.diff(np.r_[starts, key.shape[0]]))
        d = d + w * (np.ldexp(lo, -ey) - np.ldexp(each, -ey))
        self.key, self.lo, self.hi = key[starts], new_lo, np.maximum.reduceat(hi, starts)
        self.w, self.d = np.add.reduceat(w, starts), np.add.reduceat(d, starts)

    def merge(self, other: _ValueSummary, shift_w: int, ey: int) -> None:
        """Add ``other``, its weights (and ``d``) times ``2 ** shift_w``; ``d`` of both in
        units of ``2 ** ey``. Replicates (``rw``, ``rd``) are carried to the new groups;
        ``other`` without them adds none (its rows' replicates come by :meth:`add_rows`)."""
        if not other.w.shape[0]:
            return
        parts = [(self.lo, self.rw, self.rd)]
        if other.rw.shape[0] and other.rw.shape[1]:
            parts.append((other.lo, np.ldexp(other.rw, shift_w), np.ldexp(other.rd, shift_w)))
        self._merge_own(other, shift_w, ey)
        if self.rw.shape[0]:
            rw, rd = np.zeros((self.rw.shape[0], self.lo.shape[0])), np.zeros(
                (self.rw.shape[0], self.lo.shape[0]))
            for lo, pw, pd in parts:
                if lo.shape[0]:
                    group, starts, dist = self._layout(lo, ey)
                    rw[:, group] += np.add.reduceat(pw, starts, axis=1)
                    rd[:, group] += np.add.reduceat(pd + pw * dist, starts, axis=1)
            self.rw, self.rd = rw, rd

    def _layout(self, values: np.ndarray, ey: int) -> tuple:
        """For ascending ``values`` (each in an occupied group): the group of each run of
        values, where the runs start, and each value's distance to its group's ``lo`` (units
        of ``2 ** ey``). Groups nest as the level grows, so a value finds its group by the
        key rule the groups were made with."""
        if self.level is None:
            at = np.searchsorted(self.lo, values)
        else:
            at = np.searchsorted(self.key, np.floor(np.ldexp(values, -self.level)))
        starts = np.flatnonzero(np.r_[True, at[1:] != at[:-1]])
        return at[starts], starts, np.ldexp(values, -ey) - np.ldexp(self.lo[at], -ey)

    def rows_layout(self, y: np.ndarray, ey: int) -> tuple:
        """``(order, group, starts, dist)`` of a chunk's rows, whose values are in the
        summary: what :meth:`add_rows` needs, found once per chunk."""
        order = np.argsort(y, kind="stable")
        return (order, *self._layout(y[order], ey))

    def add_rows(self, layout: tuple, weights: np.ndarray, rows: slice) -> None:
        """Add the (b, n) replicate ``weights`` of a chunk's rows (in row order, on the
        summary's weight unit) to replicates ``rows``."""
        order, group, starts, dist = layout
        sorted_w = weights[:, order]
        self.rw[rows, group] += np.add.reduceat(sorted_w, starts, axis=1)
        self.rd[rows, group] += np.add.reduceat(sorted_w * dist, starts, axis=1)

    def row(self, r: int) -> _ValueSummary:
        """Replicate ``r`` as a summary of its own (the same groups, its weights)."""
        out = object.__new__(_ValueSummary)
        out.__dict__.update(self.__dict__)
        out.w, out.d = self.rw[r], self.rd[r]
        return out

    def _merge_own(self, other: _ValueSummary, shift_w: int, ey: int) -> None:
        """:meth:`merge` for the rows' own weights: the new groups, and their ``w``, ``d``."""
        parts = [(self, self.w, self.d), (other, np.ldexp(other.w, shift_w),
                                           np.ldexp(other.d, shift_w))]
        levels = [p.level for p, _, _ in parts if p.level is not None and p.w.shape[0]]
        level = max(levels) if levels else None
        key = np.concatenate([p.lo if level is None else p._keys_at(level) for p, _, _ in parts])
        lo, hi = (np.concatenate([getattr(p, a) for p, _, _ in parts]) for a in ("lo", "hi"))
        self._regroup(key, lo, hi, np.concatenate([w for _, w, _ in parts]),
                      np.concatenate([d for _, _, d in parts]), ey)
        self.level = level
        if self.level is None and self.key.shape[0] > self.cap:
            self.level = self._finest_level()
            self._regroup(np.floor(np.ldexp(self.lo, -self.level)), self.lo, self.hi,
                          self.w, self.d, ey)
        while self.key.shape[0] > self.cap:
            self.level += 1
            self._regroup(np.floor(np.ldexp(self.key, -1)), self.lo, self.hi, self.w, self.d,
                          ey)

    def _finest_level(self) -> int:
        """The smallest ``j`` at which the distinct values occupy at most ``cap`` bins."""
        v = self.lo  # distinct and ascending

        def count(j):
            k = np.floor(np.ldexp(v, -j))
            return 1 + int(np.count_nonzero(k[1:] != k[:-1]))

        # Below `low` the keys of the largest values would overflow; at 1025 every value
        # lies in [-2^1024, 2^1024), two bins at most.
        low = max(-1074, _exponent(pow2_below(float(np.max(np.abs(v))))) - 1020)
        high = 1025
        if count(low) <= self.cap:
            return low
        while high - low > 1:  # count(low) > cap >= count(high)
            mid = (low + high) // 2
            low, high = (low, mid) if count(mid) <= self.cap else (mid, high)
        return high

    def scale(self, shift_w: int, shift_d: int) -> None:
        self.w = np.ldexp(self.w, shift_w)
        self.d = np.ldexp(self.d, shift_w + shift_d)
        self.rw = np.ldexp(self.rw, shift_w)
        self.rd = np.ldexp(self.rd, shift_w + shift_d)

    def _median_group(self) -> tuple:
        """``(i, on_step, fraction)``: the group where the cumulative weight reaches half
        (in ``weighted_quantiles``' arithmetic, so that a median on a step -- even n, unit
        weights -- is detected as it is there), whether it reaches it exactly at the group's
        end, and how far into the group's weight it does."""
        cdf = np.cumsum(self.w)
        target = 0.5 * 100.0 / 100.0 * cdf[-1]
        i = min(int(np.searchsorted(cdf, target, side="left")), cdf.shape[0] - 1)
        return i, bool(cdf[i] - target <= _EPS), (target - (cdf[i] - self.w[i])) / self.w[i]

    def median(self) -> tuple:
        """``(median, exact)``: the averaged-inverted-cdf median (as ``weighted_quantiles``),
        exact unless it falls inside a bin holding more than one value; then the point of
        the bin where the cumulative weight, spread evenly over ``[lo, hi]``, reaches half."""
        i, on_step, frac = self._median_group()
        if on_step:
            # The next group carrying weight (a replicate may draw a group zero times).
            cdf = np.cumsum(self.w)
            nxt = min(int(np.searchsorted(cdf, cdf[i], side="right")), self.w.shape[0] - 1)
            return _midpoint(self.hi[i], self.lo[nxt]), True
        if self.lo[i] == self.hi[i]:
            return float(self.lo[i]), True
        lo, hi = self.lo[i], self.hi[i]
        with np.errstate(over="ignore"):
            span = hi - lo
        if not np.isfinite(span):  # a bin across zero near the float maximum
            return float((1 - frac) * lo + frac * hi), False
        return float(lo + frac * span), False

    def median_bin_width(self) -> float:
        """How far the median can be from :meth:`median`'s value: 0 when exact."""
        m, exact = self.median()
        i = self._median_group()[0]
        return 0.0 if exact else float(self.hi[i] - self.lo[i])

    def abs_dev(self, x: float, ey: int, i=None) -> float:
        """``sum w |y - x|`` (units of ``d``) over the groups entirely below or above ``x``,
        skipping group ``i``."""
        below = self.hi <= x
        above = (self.lo >= x) & ~below
        if i is not None:
            below[i] = above[i] = False
        dist = self.w * (np.ldexp(x, -ey) - np.ldexp(self.lo, -ey))
        return float(np.sum(np.where(below, dist - self.d, 0.0))
                     + np.sum(np.where(above, self.d - dist, 0.0)))

    def mae_bracket(self, ey: int) -> tuple:
        """``(estimate, bound)`` of ``min_x sum w |y - x|`` (units of ``d``).

        Exact (bound 0) when the median is. Otherwise it lies in bin ``i = [a, c]`` holding
        weight ``W`` with mean ``mu``: the sum is known exactly at ``a`` and ``c`` (every
        value is on one side), and for ``x`` inside the bin its own part lies between
        ``W |mu - x|`` (Jensen) and the chord ``W ((c - mu)(x - a) + (mu - a)(c - x)) / (c -
        a)``. The minimum therefore lies between the lower envelope's minimum (at ``a``,
        ``mu`` or ``c``) and ``min(L(a), L(c))``. The estimate is the sum at the interpolated
        median with the bin's values spread evenly over ``[a, c]`` (clipped to the bracket);
        the bound, its distance to the farther end of the bracket.
        """
        m, exact = self.median()
        if exact:
            return self.abs_dev(m, ey), 0.0
        i = self._median_group()[0]
        a, c, w_i, d_i = self.lo[i], self.hi[i], self.w[i], self.d[i]
        width = np.ldexp(c, -ey) - np.ldexp(a, -ey)
        rest = {x: self.abs_dev(x, ey, i) for x in (a, c)}
        l_a = rest[a] + d_i  # every value of the bin is above a
        l_c = rest[c] + w_i * width - d_i  # ... and below c
        # The lower envelope at the bin's mean: the outside part is linear between a and c,
        # the bin's own part is 0 there.
        t = (d_i / w_i) / width
        low_mu = (1 - t) * rest[a] + t * rest[c]
        upper = min(l_a, l_c)
        lower = min(upper, low_mu)
        # The estimate: the sum at the interpolated median, the bin's values taken as spread
        # evenly over [a, c] (the bracket holds whatever their spread).
        u = self._median_group()[2]
        inside = w_i * width * (u * u + (1 - u) * (1 - u)) / 2.0
        estimate = min(max((1 - u) * rest[a] + u * rest[c] + inside, lower), upper)
        return estimate, max(upper - estimate, estimate - lower)


def _midpoint(a: float, b: float) -> float:
    """``(a + b) / 2`` without overflowing near the float maximum (halving first there:
    exact for values that large)."""
    with np.errstate(over="ignore"):
        m = (a + b) / 2.0
    return float(m if np.isfinite(m) else a / 2.0 + b / 2.0)
