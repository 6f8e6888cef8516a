"""What outcomes does the calibration test draw in a simulated world, and what MCB do they
give, on one worker or several?

:func:`~chimeraboost.metrics.calibration_test` simulates the outcomes of its null and of the
worlds of its interval (:mod:`._calibration_test`) and recalibrates each draw. Questions,
and which function answers each:

- The event weight per cell of each draw, rows independent and equally weighted within the
  cells of a binary forecast? :func:`binomial_events` (one binomial count per cell).
- The same, weighted rows or several classes? :func:`row_events` (one categorical draw per
  row).
- Rows that share their surprises (``groups=`` / ``time=``)? :class:`WildDraws`, the wild
  cluster bootstrap of :mod:`._wild`.
- The MCB of every draw of every world, on ``n_jobs`` workers? :func:`simulate`.

Why the MCBs are the same whatever ``n_jobs``: the outcomes are drawn on the calling thread,
world after world in the order one thread draws them, while the workers fit the draws already
made; the isotonic fits (most of the test's time after the drawing) go to the workers in
chunks of :data:`DRAWS_PER_TASK` draws, the same chunks on one worker as on several, and a
chunk's MCBs depend on its event weights alone.
"""

from __future__ import annotations

import numpy as np

from .._shared.workers import ordered_map
from . import _bernoulli, _wild

__all__ = ["DRAWS_PER_TASK", "WildDraws", "binomial_events", "row_events", "simulate"]

# Variance of a merged cell's event count from which it is drawn from the Cornish-Fisher
# expansion of the binomial (see binomial_events).
_NORMAL_MIN_VAR = 4.0
# Rows x draws generated at once on the per-row path: bounds the memory at a few tens of MB.
_CHUNK_CELLS = 1 << 22
# Draws recalibrated per task: a few MB of event weights to a worker (2,048 cells), tens of
# tasks per world, so that two workers share a world evenly.
DRAWS_PER_TASK = 100


def binomial_events(cells, q_sorted: np.ndarray, n_draws: int, rng) -> np.ndarray:
    """Event weights per cell for ``n_draws`` draws of each row's event ~ Bernoulli(q):
    one binomial count per cell (exact when ``q`` is constant in a cell, as in a pool of tied
    forecasts). A merged cell whose count has variance ``v >= _NORMAL_MIN_VAR`` draws it from
    the Cornish-Fisher expansion of the binomial, ``mean + sqrt(v) (z + g (z^2 - 1) / 6)`` with
    skewness ``g = (1 - 2p) / sqrt(v)``, rounded and clipped: numpy's exact sampler sets up
    afresh for every cell and costs up to ~0.5 us a count, this ~0.02 us; merged cells are an
    approximation already (rows of slightly different forecasts drawn as one binomial). The
    exact counts of cells of up to four rows (distinct forecasts, or a few thousand merged)
    take :func:`._bernoulli.binomial`: numpy's counts, without its set-up per cell."""
    p = np.clip(cells.cell_means(q_sorted), 0.0, 1.0)
    var = cells.rows * p * (1.0 - p)
    normal = cells.merged & (var >= _NORMAL_MIN_VAR)
    exact = ~normal
    drawn = _bernoulli.binomial(rng, cells.rows[exact], p[exact], (n_draws, int(exact.sum())))
    if not normal.any():  # every cell exact (distinct forecasts): no columns to interleave
        return drawn * cells.cell_weight
    counts = np.empty((n_draws, cells.n_cells))
    counts[:, exact] = drawn
    if normal.any():
        sd = np.sqrt(var[normal])
        skew = (1.0 - 2.0 * p[normal]) / sd
        z = rng.standard_normal((n_draws, int(normal.sum())))
        z += skew * (z * z - 1.0) / 6.0
        counts[:, normal] = np.clip(np.rint(cells.rows[normal] * p[normal] + sd * z), 0,
                                    cells.rows[normal])
    return counts * cells.cell_weight


def row_events(cells_by_class, rows_q: np.ndarray, n_draws: int, rng, per_class) -> list:
    """Event weights per cell for every class from draws of each row's class ~ Categorical(q)
    (rows in their original order; ``q`` of shape (n, K)). Returns a list of (n_draws, C_k)."""
    n, k = rows_q.shape
    cum = np.cumsum(rows_q, axis=1)[:, :-1]
    out = [np.empty((n_draws, c.n_cells)) for c in cells_by_class]
    chunk = max(1, _CHUNK_CELLS // max(1, n * max(1, k - 1)))
    for start in range(0, n_draws, chunk):
        b = min(chunk, n_draws - start)
        u = rng.random((b, n))
        drawn = (u[:, :, None] >= cum[None, :, :]).sum(axis=2)  # class index per row
        for j, c in enumerate(cells_by_class):
            hit = drawn[:, c.order] == per_class[j]
            keys = (np.arange(b)[:, None] * c.n_cells + c.cell[None, :]).ravel()
            out[j][start:start + b] = np.bincount(
                keys, weights=(hit * c.w).ravel(), minlength=b * c.n_cells).reshape(b, -1)
    return out


class WildDraws:
    """Event weights per cell of every class for the wild draws ``y* = q + v_u (o - r)`` of
    :mod:`._wild` (one sign per group or time block, shared by the classes and, through
    ``seed``, by every world): the null and the worlds of the interval when rows are not
    independent. The outcomes are real numbers: their MCB is :meth:`_Cells.mcb_real`."""

    def __init__(self, cells_by_class, classes_used, units, unit, w, resid, seed):
        self.cells, self.classes_used, self.seed = cells_by_class, classes_used, seed
        block = _wild.time_block(units, unit, resid, w)
        self.events = [_wild.WildEvents(c.cell, c.n_cells, units, unit[c.order], c.w, block)
                       for c in cells_by_class]

    def __call__(self, q_rows, resid_rows, n_boot) -> list:
        return [ev.events(q_rows[c.order, j], resid_rows[c.order, j], n_boot, self.seed)
                for c, ev, j in zip(self.cells, self.events, self.classes_used)]


def simulate(draw, worlds, cells_by_class, n_boot: int, *, real: bool, n_jobs: int = 1):
    """MCB of every class for ``n_boot`` draws in each world: ``(len(worlds), n_boot, K')``.

    ``draw(q_rows, resid_rows)`` gives the event weights of the draws in one world (a list
    of ``(n_boot, C_k)``, one per class of ``cells_by_class``), ``worlds`` the
    ``(q_rows, resid_rows)`` of each world in the order they are drawn. The draws are made
    on the calling thread, world after world; their isotonic fits, :data:`DRAWS_PER_TASK`
    draws of one class at a time, on ``n_jobs`` workers
    (:func:`chimeraboost._shared.workers.ordered_map`) -- fitting one world while the next
    is drawn. ``real``: outcomes that are not 0/1 (the wild draws).
    """
    k = len(cells_by_class)
    starts = range(0, n_boot, DRAWS_PER_TASK)

    def tasks():
        for q_rows, resid_rows in worlds:
            for j, events in enumerate(draw(q_rows, resid_rows)):
                for start in starts:
                    yield j, events[start:start + DRAWS_PER_TASK]

    def fit(task):
        j, events = task
        c = cells_by_class[j]
        return c.mcb_real(events) if real else c.mcb(events)

    n_tasks = len(worlds) * k * len(starts)
    mcbs = ordered_map(fit, tasks(), jobs=min(n_jobs, n_tasks))
    out = np.empty((len(worlds), n_boot, k))
    per = len(starts)
    for i in range(len(worlds) * k):
        out[i // k, :, i % k] = np.concatenate(mcbs[i * per:(i + 1) * per])
    return out
