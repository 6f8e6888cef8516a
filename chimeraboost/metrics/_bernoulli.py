"""Bernoulli draws at numpy's binomial's numbers, without its per-cell set-up.

Questions this module answers:

- *How are one-row cells' events drawn fast, with the numbers numpy's binomial sampler
  gives?* -> :func:`binomial`: ``rng.binomial(n, p, size)`` for a count per cell, taking a
  path of one uniform per draw where every cell holds one row (``_inversion`` where cells
  hold up to four: merged cells of a few thousand forecasts).

Why: the calibration test draws each cell's event count with ``rng.binomial`` (one count per
cell and draw). Where forecasts are distinct every cell is one row, a Bernoulli draw, and
numpy's sampler sets up its inversion afresh for every cell (the cell's ``p`` differs from its
neighbour's): about 0.1 us of set-up per draw, which made the calibration tests of 50 slices
of 2,000 rows the larger part of ``slice_report`` at 10^5 rows. With ``n = 1`` numpy's
inversion algorithm (Kachitvichyanukul & Schmeiser 1988, the path numpy takes when
``n min(p, 1 - p) <= 30``) reads one uniform ``U`` per draw and returns ``U > (1 - p')`` with
``p' = min(p, 1 - p)`` (flipped when ``p > 1/2``); the rare uniform that would be redrawn
(``U - q > p' q / q'``, a rounding case near 1) sends the whole call back to numpy, from the
same generator state. So the counts are numpy's, one for one, and the generator ends where
numpy's sampler leaves it (``tests/metrics/test_bernoulli.py`` compares both on a million
draws). The set-up's ``exp(log(q))`` is taken once per cell with the C library, as numpy's
sampler takes it.

References
----------
Kachitvichyanukul, V. and Schmeiser, B. W. (1988). Binomial random variate generation.
*Communications of the ACM* 31(2), 216-222. doi:10.1145/42372.42381
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["binomial"]


def binomial(rng: np.random.Generator, n: np.ndarray, p: np.ndarray,
             size: tuple) -> np.ndarray:
    """``rng.binomial(n, p, size=size)``: the same int64 counts from the same generator
    state, and the generator left in the same state.

    Parameters
    ----------
    rng : numpy Generator
    n, p : (C,) arrays
        Trials and event probability of each cell (the last axis of ``size``).
    size : tuple
        ``(draws, C)``.
    """
    n, p = np.asarray(n), np.asarray(p, dtype=np.float64)
    # A few rows per cell, a probability in (0, 1]: one uniform per draw. Anything else (a
    # p of 0 draws no uniform; many rows take numpy's other sampler) is numpy's own.
    if (n.ndim != 1 or p.shape != n.shape or len(size) != 2 or size[1] != n.shape[0]
            or n.dtype.kind not in "iu" or not np.all((n >= 1) & (n <= _MAX_TRIALS))
            or not np.all((p > 0.0) & (p <= 1.0))):
        return rng.binomial(n, p, size=size)
    if not np.all(n == 1):
        return _inversion(rng, n.astype(np.int64), p, size)
    state = rng.bit_generator.state
    low = p <= 0.5
    p1 = np.where(low, p, 1.0 - p)  # the inversion's p, at most 1/2
    q1 = 1.0 - p1
    # numpy's set-up, exp(n log q) with n = 1, by the same C library functions.
    qn = np.array([math.exp(math.log(q)) for q in q1.tolist()])
    px = (p1 * qn) / q1  # the chance of one event, as the inversion updates it
    u = rng.random(size)
    # numpy redraws a uniform with u - q > px: possible only in a cell where the largest
    # uniform below 1 gets there (the rounded difference grows with u). Such a draw sends
    # the call back to numpy, from the same state: its numbers, its way.
    risky = np.flatnonzero((_BELOW_ONE - qn) > px)
    if risky.size and np.any(u[:, risky] - qn[risky] > px[risky]):
        rng.bit_generator.state = state
        return rng.binomial(n, p, size=size)
    return np.greater(u, qn, out=np.empty(size, bool)).__ixor__(~low).astype(np.int64)


_BELOW_ONE = np.nextafter(1.0, 0.0)  # the largest uniform numpy draws
# Trials per cell up to which the draws are taken here: about 2x numpy's speed at 2 trials,
# 1.6x at 3, the same at 5 (measured on 2,048 cells). At most 10, where numpy's inversion
# bounds a count by the trials themselves (its bound is min(n, n p + 10 sqrt(n p q + 1))),
# so that a count past n is the one case it redraws.
_MAX_TRIALS = 4


def _inversion(rng, n, p, size) -> np.ndarray:
    """:func:`binomial` for cells of up to ``_MAX_TRIALS`` rows: numpy's inversion run on
    all draws at once. A draw's uniform ``U`` is compared with ``px_0 = q^n``; while it is
    larger, the count rises by one, ``px_k`` is taken off ``U`` and the next term
    ``px_(k+1) = ((n - k) p px_k) / ((k + 1) q)`` is compared -- the terms are a cell's,
    the same for every draw, so they are computed once, in numpy's order of operations.
    A count past ``n`` (numpy redraws the uniform) sends the call back to numpy."""
    state = rng.bit_generator.state
    low = p <= 0.5
    p1 = np.where(low, p, 1.0 - p)
    q1 = 1.0 - p1
    top = int(n.max())
    px = np.empty((top + 1, n.shape[0]))
    px[0] = [math.exp(k * math.log(q)) for k, q in zip(n.tolist(), q1.tolist())]
    for k in range(1, top + 1):
        px[k] = ((n - k + 1) * p1 * px[k - 1]) / (k * q1)
    u = rng.random(size)
    count = np.zeros(size, dtype=np.int64)
    at = np.flatnonzero(u > px[0])  # draws still counting (flat indices)
    cell = at % size[1]
    left = u.reshape(-1)[at] - px[0, cell]
    for k in range(1, top + 2):
        if at.size == 0:
            break
        if np.any(k > n[cell]):  # numpy would redraw this uniform: its numbers, its way
            rng.bit_generator.state = state
            return rng.binomial(n, p, size=size)
        count.reshape(-1)[at] = k
        go = left > px[k, cell] if k <= top else np.ones(at.shape[0], bool)
        at, cell = at[go], cell[go]
        left = left[go] - (px[k, cell] if k <= top else 0.0)
    return np.where(low, count, n - count)
