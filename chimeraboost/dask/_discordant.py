"""On how many units do two models decide differently, threshold by threshold, when their
rows sit in many blocks -- and how wide must the paired band then be?

Private to :mod:`chimeraboost.dask` (the paired bands of :func:`decision_curve`). The rule is
the in-memory one (:class:`chimeraboost._shared.discordance.Discordance`): with fewer than
:data:`~chimeraboost.resampling.MIN_DISCORDANT` units on which a model and the baseline act
differently at a threshold, the band of their difference of net benefit becomes the hull of
the bootstrap's and ``[-bound, bound]``; two models with equal outputs (the one tie rule)
differ by exactly 0. Questions answered here:

- How many rows (or distinct groups) of positive weight decide differently at each
  threshold, and is each model's output equal to the baseline's on every row?
  :class:`PairCounts`, merged by addition (rows), by keeping the few smallest keys
  (groups: only "fewer than ``MIN_DISCORDANT``" matters) and by logical and.
- The most one unit moves the difference, and the units' mean weight? Rows: the largest
  weight of each class, kept by :class:`PairCounts`; groups: each group's weight of each
  class, which needs every group's total -- :class:`GroupTotals`, a second pass made only
  when some threshold has fewer than ``MIN_DISCORDANT`` discordant groups.
"""

from __future__ import annotations

import numpy as np

from .. import resampling as _resampling
from .._shared.discordance import MIN_DISCORDANT, Discordance
from .._shared.poisson import group_keys
from .._shared.ties import same_outputs
from .._shared.validation import binary_target

TREAT_ALL = "treat all"


class PairCounts:
    """Per model, the units deciding differently from ``versus`` at each of the ``T``
    sorted thresholds.

    Parameters
    ----------
    n_models : int
    n_thresholds : int
    versus : int or "treat all"
        The baseline: a column of the scores, or treating every row.
    """

    def __init__(self, n_models: int, n_thresholds: int, versus):
        self.versus, self.t = versus, int(n_thresholds)
        # Rows: +1 at the first threshold a row decides differently at, -1 past the last;
        # the running sum is the count at each threshold.
        self._rows = np.zeros((n_models, self.t + 1), dtype=np.int64)
        # Groups: the smallest distinct keys of the discordant groups, at most MIN_DISCORDANT.
        self._keys = [[np.empty(0, np.uint64) for _ in range(self.t)] for _ in range(n_models)]
        self.same = np.full(n_models, versus != TREAT_ALL)
        self.max_weight = np.zeros(2)  # the largest weight of a negative, of a positive row
        self.present = 0  # rows of positive weight
        self.total_weight = 0.0

    def update(self, event, cols, bins, w, keys=None) -> None:
        """Add a chunk: ``bins`` each model's bin per row (as the accumulator's), ``keys``
        the rows' group keys (None: rows are the units)."""
        live = w > 0
        self.present += int(live.sum())
        self.total_weight += float(w.sum())
        for c, rows in enumerate((~event, event)):
            self.max_weight[c] = max(self.max_weight[c], float(w[rows].max(initial=0.0)))
        for m, b in enumerate(bins):
            if self.versus == TREAT_ALL:
                lo, hi = b, np.full(b.shape, self.t)  # treating all: every threshold
            else:
                other = bins[self.versus]
                self.same[m] &= m == self.versus or same_outputs(cols[m], cols[self.versus])
                lo, hi = np.minimum(b, other), np.maximum(b, other)
            moving = live & (lo < hi)
            if keys is None:
                self._rows[m] += (np.bincount(lo[moving], minlength=self.t + 1)
                                  - np.bincount(hi[moving], minlength=self.t + 1))
            else:
                self._add_keys(m, lo[moving], hi[moving], keys[moving])

    def _add_keys(self, m, lo, hi, keys) -> None:
        order = np.argsort(keys, kind="stable")
        lo, hi, keys = lo[order], hi[order], keys[order]
        for k in range(self.t):
            found = keys[(lo <= k) & (k < hi)]
            if found.size:
                first = found[np.r_[True, found[1:] != found[:-1]]][:MIN_DISCORDANT]
                self._keys[m][k] = _smallest(self._keys[m][k], first)

    def merge(self, other: PairCounts) -> None:
        self._rows += other._rows
        for mine, theirs in zip(self._keys, other._keys):
            for k in range(self.t):
                if theirs[k].size:
                    mine[k] = _smallest(mine[k], theirs[k])
        self.same &= other.same
        self.max_weight = np.maximum(self.max_weight, other.max_weight)
        self.present += other.present
        self.total_weight += other.total_weight

    def counts(self, kind: str) -> np.ndarray:
        """(n_models, T) discordant units at the sorted thresholds: exact for rows; for
        groups, exact below ``MIN_DISCORDANT`` and ``MIN_DISCORDANT`` above."""
        if kind == "groups":
            return np.array([[keys.size for keys in model] for model in self._keys],
                            dtype=np.int64).reshape(-1, self.t)
        return np.cumsum(self._rows, axis=1)[:, :self.t]


def _smallest(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.unique(np.concatenate([a, b]))[:MIN_DISCORDANT]


class GroupTotals:
    """Each group's weight of positive and of negative rows, over chunks; merged by adding
    the weights of equal groups. What the bound of a paired band counts with ``groups=``."""

    def __init__(self, pos_label=None):
        self.pos_label = pos_label
        self.keys = np.empty(0, np.uint64)
        self.weights = np.empty((0, 2))  # (groups, [negative, positive])
        self.n = 0

    def update(self, y, scores, *, sample_weight=None, groups=None) -> GroupTotals:
        if len(y) == 0:
            return self
        event = binary_target(y, self.pos_label, "y").astype(bool)
        w = np.ones(event.shape[0]) if sample_weight is None else \
            np.asarray(sample_weight, dtype=np.float64)
        keys, which = np.unique(group_keys(np.asarray(groups)), return_inverse=True)
        which = which.reshape(-1)
        sums = np.column_stack([np.bincount(which[rows], weights=w[rows], minlength=keys.size)
                                for rows in (~event, event)])
        self._add(keys, sums)
        self.n += event.shape[0]
        return self

    def _add(self, keys, sums) -> None:
        keys = np.concatenate([self.keys, keys])
        sums = np.vstack([self.weights, sums])
        self.keys, which = np.unique(keys, return_inverse=True)
        which = which.reshape(-1)
        self.weights = np.column_stack([np.bincount(which, weights=sums[:, c],
                                                    minlength=self.keys.size)
                                        for c in (0, 1)])

    def merge(self, other: GroupTotals) -> GroupTotals:
        self._add(other.keys, other.weights)
        self.n += other.n
        return self

    def bound_terms(self, odds: np.ndarray) -> tuple:
        """``(n_units, max_capacity (T,), mean_weight)`` of the groups of positive weight."""
        total = self.weights.sum(axis=1)
        present = total > 0
        n_units = int(present.sum())
        if n_units == 0:
            return 0, np.zeros(odds.shape), np.nan
        capacity = self.weights[:, 1][:, None] + self.weights[:, 0][:, None] * odds[None, :]
        return n_units, capacity.max(axis=0), float(total[present].mean())


def widen_pairs(pairs, names, baseline, thresholds, level, kind, totals, low, high) -> None:
    """Widen in place the paired bands ``low[name]``, ``high[name]`` (models ``names``, in
    the columns' order) at the thresholds (in the caller's order) where fewer than
    ``MIN_DISCORDANT`` units decide differently from ``baseline``, and warn once per model,
    as the in-memory curve does; ``totals()`` makes the second pass over the groups when they
    are the units and one is needed. A model whose outputs equal the baseline's is left
    alone (its difference is 0)."""
    order = np.argsort(np.argsort(thresholds, kind="stable"), kind="stable")
    counts = pairs.counts(kind)[:, order]
    needed = [name for j, name in enumerate(names) if name in low and not pairs.same[j]
              and np.any(counts[j] < MIN_DISCORDANT)]
    if not needed:
        return
    odds = thresholds / (1.0 - thresholds)
    if kind == "groups":
        n_units, capacity, mean = totals().bound_terms(odds)
    else:
        # A row moves the difference by at most its weight (a positive) or its weight
        # times t/(1-t) (a negative); the units of the denominator are the rows.
        n_units, mean = pairs.present, pairs.total_weight / max(pairs.present, 1)
        capacity = np.maximum(pairs.max_weight[1], pairs.max_weight[0] * odds)
    for name in needed:
        j = names.index(name)
        few = []
        for i, v in enumerate(thresholds):
            found = Discordance.from_counts(
                counts[j, i], n_units, capacity[i], mean, level, kind, float(v))
            if found is not None:
                low[name][i], high[name][i] = found.widen(low[name][i], high[name][i])
                few.append((float(v), found))
        if few:
            reason = Discordance.curve_reason(few, len(thresholds), f"{name} and {baseline}")
            _resampling.warn_narrow({f"net benefit of {name} minus {baseline}": reason},
                                    level)
