"""What outcomes would a calibrated forecast show when rows are not independent?

The calibration test (:func:`~chimeraboost.metrics.calibration_test`) and the consistency band
of the reliability curve (:func:`~chimeraboost.metrics.reliability_curve`) compare the
isotonic recalibration of the forecasts with that of outcomes drawn under calibration. With
independent rows those are drawn from the forecasts themselves, ``o* ~ Bernoulli(p)``. When
the rows of a customer (``groups=``) or of neighbouring times (``time=``) share their
surprises, independent draws are too calm: the noise of the isotonic fit is that of ``G``
groups, not of ``n`` rows, and a calibrated forecast would be called miscalibrated. This
module holds the one mechanism both use then, the wild cluster bootstrap of the forecast's
residuals (Cameron, Gelbach & Miller 2008; with the null imposed, their "WCR"):

    ``y* = q + v_u (o - p)``, one Rademacher sign ``v_u`` (+1 or -1 with probability 1/2)
    per unit ``u``,

with ``o`` the observed outcome (one-hot over classes), ``p`` the forecast and ``q`` the
event probabilities of the world simulated (``q = p`` under the null). Given the data,
``E[y*] = q`` and ``Cov(y*)`` is the residuals' own outer product within each unit and 0
across units: the within-group correlation of the surprises, whatever it is, is kept without
being modelled. The outcomes ``y*`` are real numbers, not 0/1; the isotonic fit and the Brier
score need no more (:meth:`_Cells.mcb_real
<chimeraboost.metrics._calibration_test._Cells.mcb_real>`).

Questions, and which function answers each:

- The signs of ``b`` draws, one per unit? :func:`unit_signs`; for time-ordered units the
  sign of a time point is that of its block of consecutive points, blocks starting at a
  random offset in each draw, so that the signs of two points ``k`` apart agree with
  correlation ``max(0, 1 - k / L)`` -- the dependent wild bootstrap with Bartlett's kernel
  (Shao 2010), ``L`` the block length of :func:`chimeraboost._shared.units.block_length`
  fitted to the residuals.
- The event weight per cell of the isotonic fit, for every draw? :class:`WildEvents`.

References
----------
Cameron, A. C., Gelbach, J. B. and Miller, D. L. (2008). Bootstrap-based improvements for
inference with clustered errors. *Review of Economics and Statistics* 90(3), 414-427.
doi:10.1162/rest.90.3.414

Shao, X. (2010). The dependent wild bootstrap. *Journal of the American Statistical
Association* 105(489), 218-235. doi:10.1198/jasa.2009.tm08744
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from .._shared.units import Units, block_length

# Draws x units (or cells) held at once: bounds the memory of a chunk at a few tens of MB.
_CHUNK_CELLS = 1 << 22


def time_block(units: Units, codes: np.ndarray, resid: np.ndarray, w: np.ndarray) -> int:
    """The block length ``L`` (in time points) of the signs: Politis & White's block length
    of the residuals averaged per time point, the largest over the columns of ``resid``
    (n, K'); 1 for groups."""
    if units.kind != "time":
        return 1
    rows = np.bincount(codes, weights=w, minlength=units.n_units)
    seen = rows > 0
    lengths = [block_length(np.bincount(codes, weights=w * r, minlength=units.n_units)[seen]
                            / rows[seen]) for r in np.atleast_2d(resid.T)]
    return max(1, int(round(max(lengths))))


def unit_signs(units: Units, b: int, rng: np.random.Generator, block: int = 1) -> np.ndarray:
    """``(b, n_units)`` Rademacher signs; with ``block > 1`` (time) one sign per block of
    ``block`` consecutive units, the blocks' start shifted by a random offset per draw."""
    if block <= 1:
        return rng.integers(0, 2, (b, units.n_units)).astype(np.float64) * 2.0 - 1.0
    offset = rng.integers(0, block, b)
    n_blocks = units.n_units // block + 2
    signs = rng.integers(0, 2, (b, n_blocks)).astype(np.float64) * 2.0 - 1.0
    which = (np.arange(units.n_units)[None, :] + offset[:, None]) // block
    return np.take_along_axis(signs, which, axis=1)


class WildEvents:
    """The event weight per cell of wild draws ``y* = q + v_u (o - p)``: the weighted sum of
    ``y*`` over each cell's rows, ``sum w q + sum_u v_u sum_{rows of u} w (o - p)``.

    Parameters
    ----------
    cell : ndarray of shape (n,), int
        The cell of each row (cells of the isotonic fit: pools of tied forecasts).
    n_cells : int
    units : Units
        What a sign is drawn for (groups or time points).
    unit : ndarray of shape (n,), int
        The unit of each row (``units.codes`` of the rows kept).
    w : ndarray of shape (n,)
        Sample weights.
    block : int, default=1
        Time: the signs' block length (:func:`time_block`).
    """

    def __init__(self, cell, n_cells, units, unit, w, block=1):
        self.cell, self.n_cells, self.w = cell, int(n_cells), w
        self.units, self.unit, self.block = units, unit, int(block)

    def events(self, q: np.ndarray, resid: np.ndarray, b: int, seed: int) -> np.ndarray:
        """``(b, n_cells)`` event weights of ``b`` draws, event probabilities ``q`` and
        residuals ``resid`` (both (n,)); the signs come from a generator seeded with
        ``seed``, so that every world simulated with one seed shares its signs (common
        random numbers: the worlds differ by ``q`` alone)."""
        out = np.empty((b, self.n_cells))
        start = 0
        for chunk in self.chunks(q, resid, b, seed):
            out[start:start + chunk.shape[0]] = chunk
            start += chunk.shape[0]
        return out

    def chunks(self, q: np.ndarray, resid: np.ndarray, b: int, seed: int):
        """The rows of :meth:`events`, a chunk of draws at a time (the same numbers): for a
        caller that reduces each chunk and need not hold all ``b`` draws."""
        rng = np.random.default_rng(seed)
        base = np.bincount(self.cell, weights=self.w * q, minlength=self.n_cells)
        # (cell, unit) sums of the weighted residuals: at most n entries, kept sparse.
        spread = sparse.csr_matrix((self.w * resid, (self.cell, self.unit)),
                                   shape=(self.n_cells, self.units.n_units))
        chunk = max(1, _CHUNK_CELLS // max(self.units.n_units, self.n_cells))
        for start in range(0, b, chunk):
            size = min(chunk, b - start)
            signs = unit_signs(self.units, size, rng, self.block)
            yield base + (spread @ signs.T).T
