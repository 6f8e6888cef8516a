"""Which thresholds does :func:`chimeraboost.dask.decision_curve` sweep when none are given --
the same as in memory, without sorting the rows?

Private to :mod:`chimeraboost.dask`. The in-memory default (:mod:`chimeraboost._shared.thresholds`)
needs the 1st and 99th percentiles of all scores: two pairs of order statistics. Questions
answered here:

- Which value has rank ``r`` among the scores of all blocks? :func:`select_ranks`: a radix
  selection on the bits of the scores. A probability in [0, 1] is a non-negative float64,
  whose 64 bits read as an unsigned integer are in the order of the values; each pass counts,
  per block, the scores under the prefix found so far by their next 16 bits (a histogram,
  merged by addition), which fixes 16 more bits of each wanted value. Once a prefix holds few
  scores (:data:`COLLECT` or fewer), the next pass collects them and sorts them. Ties need no
  care: a count is a count. At most four passes after the first (62 bits, 16 at a time).
- What does a pass add per block? :class:`RadixProbe`, an accumulator merged by addition.
- The default thresholds? :func:`default_thresholds`: the percentiles interpolated from the
  selected order statistics as ``np.quantile`` does, so that they equal the in-memory ones
  to the last bit.
"""

from __future__ import annotations

import numpy as np

from .._shared.thresholds import PERCENTILES, interpolate, quantile_ranks, thresholds_between
from .._shared.validation import check_numeric_1d
from ._blocks import accumulate

# The bits below the two top ones (the sign and the exponent's top bit, 0 for every value in
# [0, 2)), 16 a pass: the shift of the prefix found after each pass.
_SHIFTS = (62, 46, 30, 14, 0)
# Scores under one prefix few enough to be collected and sorted by the next pass.
COLLECT = 1 << 16


def _bits(scores, n_models: int) -> np.ndarray:
    """The scores of a block (every model's column), clipped to [0, 1] as the curve reads
    them, as ordered 64-bit integers."""
    from ._curves import _probability  # noqa: PLC0415 - the curve's own check, one definition

    s = np.asarray(scores)
    cols = [s] if s.ndim == 1 else [s[:, j] for j in range(s.shape[1])]
    cols = [_probability(check_numeric_1d(c, "proba"), "proba") for c in cols]
    # + 0.0 turns -0.0 (whose sign bit would sort it last) into 0.0.
    return (np.concatenate(cols).astype(np.float64) + 0.0).view(np.uint64)


class RadixProbe:
    """Per probe ``(prefix, shift, collect)``: the scores whose bits above ``shift`` equal
    ``prefix`` -- counted by their next bits (a histogram), or collected."""

    def __init__(self, probes, n_models: int):
        self.probes = list(probes)
        self.n_models = n_models
        self.found = [np.empty(0, np.uint64) if collect else
                      np.zeros(1 << (shift - _next(shift)), np.int64)
                      for _, shift, collect in self.probes]
        self.n = 0

    def update(self, y, scores, *, sample_weight=None, groups=None) -> RadixProbe:
        if len(scores) == 0:
            return self
        bits = _bits(scores, self.n_models)
        for i, (prefix, shift, collect) in enumerate(self.probes):
            mine = bits[(bits >> np.uint64(shift)) == np.uint64(prefix)]
            if collect:
                self.found[i] = np.concatenate([self.found[i], mine])
            else:
                low = _next(shift)
                digit = (mine >> np.uint64(low)) & np.uint64((1 << (shift - low)) - 1)
                self.found[i] += np.bincount(digit.astype(np.intp),
                                             minlength=self.found[i].shape[0])
        self.n += len(scores)
        return self

    def merge(self, other: RadixProbe) -> RadixProbe:
        for i, (_, _, collect) in enumerate(self.probes):
            self.found[i] = np.concatenate([self.found[i], other.found[i]]) if collect else \
                self.found[i] + other.found[i]
        self.n += other.n
        return self


def _next(shift: int) -> int:
    return _SHIFTS[_SHIFTS.index(shift) + 1]


def select_ranks(run, ranks, n_models: int) -> dict:
    """The values of 0-based ``ranks`` among all scores: ``run(template)`` merges a probe
    over every block. One pass per 16 bits, until each rank's prefix holds at most
    :data:`COLLECT` scores; then one pass collects them."""
    # Each rank's state: (prefix, shift, rank among the scores under the prefix).
    state = {r: (0, _SHIFTS[0], r) for r in ranks}
    counts = {(0, _SHIFTS[0]): None}  # how many scores each prefix holds (None: unknown)
    values = {}
    while len(values) < len(state):
        probes = sorted({(p, s, counts.get((p, s)) is not None and counts[(p, s)] <= COLLECT)
                         for r, (p, s, _) in state.items() if r not in values})
        acc = run(RadixProbe(probes, n_models))
        for (prefix, shift, collect), found in zip(probes, acc.found):
            for r, (p, s, within) in list(state.items()):
                if r in values or (p, s) != (prefix, shift):
                    continue
                if collect:
                    values[r] = float(np.sort(found)[within:within + 1].view(np.float64)[0])
                    continue
                cum = np.cumsum(found)
                digit = int(np.searchsorted(cum, within, side="right"))
                low = _next(shift)
                within -= int(cum[digit - 1]) if digit else 0
                prefix_next = (prefix << (shift - low)) | digit
                state[r] = (prefix_next, low, within)
                counts[(prefix_next, low)] = int(found[digit])
                if low == 0:  # every bit found: the value itself
                    values[r] = float(np.array([prefix_next], np.uint64).view(np.float64)[0])
    return values


def default_thresholds(y, stacked, n_models: int, n_classes, n: int = 99) -> np.ndarray:
    """The in-memory default thresholds of the scores in ``stacked`` (every model's column),
    from passes over the blocks (:func:`select_ranks`)."""
    inputs = {"y": y, "proba": stacked}

    def run(template):
        return accumulate(template, inputs, n_classes=n_classes)

    # The first pass counts the scores as it starts the selection.
    first = run(RadixProbe([(0, _SHIFTS[0], False)], n_models))
    total = first.n * n_models
    wanted = [quantile_ranks(total, q) for q in PERCENTILES]
    ranks = sorted({r for below, above, _ in wanted for r in (below, above)})
    values = select_ranks(_replay(first, run), ranks, n_models)
    lo, hi = (interpolate(values[below], values[above], gamma)
              for below, above, gamma in wanted)
    return thresholds_between(lo, hi, n)


def _replay(first: RadixProbe, run):
    """``run``, except that the first probe -- already made to count the rows -- is not
    made again."""
    def again(template):
        if template.probes == first.probes:
            return first
        return run(template)

    return again
