"""The scores of one class column, summarised for ranking and calibration over chunks.

Private to the accumulators (:mod:`chimeraboost.metrics._accumulators`). The question answered here:
what must be kept of a chunk's scores so that ROC AUC, average precision and the CORP
decomposition of all chunks can be computed later, in memory that does not grow with the
rows? :class:`_ScoreSummary` -- the weight of the events and non-events per distinct score
while they are few, per bin of a fixed grid uniform in ``logit(p)`` beyond.
"""

from __future__ import annotations

import numpy as np

from . import _kernels

# The score grid spans logit(p) in [-20, 20] (p from 2e-9 to 1 - 2e-9); the first and last bins
# also take everything beyond. Uniform in the logit, so that a rare-event score near 0 and a
# near-separable one near 1 are resolved as finely (relatively) as scores near 1/2.
_LOGIT_SPAN = 20.0


class _ScoreSummary:
    """Weight of the non-events and of the events per score value: exact, or on the grid.

    While the scores seen take at most ``cap`` distinct values (0/1 rules, rounded scores),
    each value keeps its own sums and every ranking and calibration number is exact. Beyond
    that the sums move to ``bins`` bins uniform in ``logit(p)``, and stay there. Whether the
    cap is exceeded depends on the set of values seen, not on how they were split into chunks
    or in which order the summaries were merged, and so does the result.

    ``sums`` is a (3, m, G) array per value or bin: the weight of the non-events, of the
    events, and the events' squared weights (for the expected precision inside a bin), for
    each of ``m`` weight vectors (the rows' own weights first, then bootstrap replicates).
    The non-events' weight is kept, not the total: deriving it as total minus events cancels
    when the events outweigh it by more than ``1 / eps`` (weights 1e20 and 1), and totals are
    sums of the two, which cannot cancel.
    """

    def __init__(self, bins: int, rows: int = 1):
        self.bins, self.cap = bins, bins // 2
        self.values = np.empty(0)  # ascending distinct scores; None on the grid
        self.sums = np.zeros((3, rows, 0))

    @property
    def neg(self):
        return self.sums[0]

    @property
    def tot(self):
        return self.sums[0] + self.sums[1]

    @property
    def ev(self):
        return self.sums[1]

    def bin_of(self, s: np.ndarray) -> np.ndarray:
        """The grid bin of each score (monotone in the score)."""
        s = np.clip(s, 0.0, 1.0)  # probabilities may leave [0, 1] by 1e-9 of rounding
        with np.errstate(divide="ignore"):
            t = np.log(s / (1.0 - s))
        t += _LOGIT_SPAN
        t *= self.bins / (2 * _LOGIT_SPAN)
        np.clip(t, 0, self.bins - 1, out=t)
        return t.astype(np.intp)

    def centres(self) -> np.ndarray:
        width = 2 * _LOGIT_SPAN / self.bins
        return 1.0 / (1.0 + np.exp(_LOGIT_SPAN - (np.arange(self.bins) + 0.5) * width))

    @staticmethod
    def _sums(index, event, w, size) -> np.ndarray:
        """(3, 1, size) sums of rows grouped by ``index``."""
        out = np.empty((3, 1, size))
        out[0, 0] = np.bincount(index[~event], weights=None if w is None else w[~event],
                                minlength=size)
        index = index[event]
        w = None if w is None else w[event]
        out[1, 0] = np.bincount(index, weights=w, minlength=size)
        out[2, 0] = out[1, 0] if w is None else np.bincount(index, weights=w * w,
                                                            minlength=size)
        return out

    def _to_grid(self) -> None:
        if self.values is not None:
            self.sums = self._binned(self.values, self.sums)
            self.values = None

    def _binned(self, values, sums) -> np.ndarray:
        b = self.bin_of(values)
        flat = sums.reshape(sums.shape[0] * sums.shape[1], sums.shape[2])
        return np.stack([np.bincount(b, weights=row, minlength=self.bins) for row in flat]
                        ).astype(np.float64).reshape(sums.shape[:-1] + (self.bins,))

    def locate(self, s: np.ndarray) -> np.ndarray:
        """The index of each score among the values kept, or its grid bin (moving the sums
        to the grid when the scores take too many values)."""
        if self.values is not None:
            pos = self._locate_exact(s)
            if pos is not None:
                return pos
            self._to_grid()
        return self.bin_of(s)

    def update(self, s: np.ndarray, event: np.ndarray, w) -> np.ndarray:
        """Add rows with scores ``s``, event indicators and weights (None: ones) to the first
        weight vector; returns where the scores were put (:meth:`locate`)."""
        index = self.locate(s)
        self.sums[:, :1] += self._sums(index, event, w, self.sums.shape[-1])
        return index

    def _locate_exact(self, s):
        """Positions of the scores among the values kept (adding new ones); None if the cap
        would be exceeded (nothing changed)."""
        # A cheap look first: a continuous score shows more than `cap` values in its first
        # rows, and the searches below are then never paid.
        if np.unique(s[: 4 * self.cap]).shape[0] > self.cap:
            return None
        values = self.values
        pos = np.minimum(np.searchsorted(values, s), max(values.shape[0] - 1, 0))
        hit = values[pos] == s if values.shape[0] else np.zeros(s.shape[0], dtype=bool)
        if not hit.all():
            union = np.union1d(values, s[~hit])
            if union.shape[0] > self.cap:
                return None
            self._reindex(union)
            pos = np.searchsorted(union, s)
        return pos

    def _reindex(self, union: np.ndarray) -> None:
        sums = np.zeros(self.sums.shape[:-1] + (union.shape[0],))
        sums[..., np.searchsorted(union, self.values)] = self.sums
        self.values, self.sums = union, sums

    def merge(self, other: _ScoreSummary, shift: int) -> None:
        """Add ``other``'s sums, multiplied by ``2 ** shift``."""
        theirs = self._scaled(other.sums, shift)
        if self.values is not None and other.values is not None:
            union = np.union1d(self.values, other.values)
            if union.shape[0] <= self.cap:
                self._reindex(union)
                self.sums[..., np.searchsorted(union, other.values)] += theirs
                return
        self._to_grid()
        self.sums += theirs if other.values is None else self._binned(other.values, theirs)

    def scale(self, shift: int) -> None:
        self.sums = self._scaled(self.sums, shift)

    @staticmethod
    def _scaled(sums, shift: int) -> np.ndarray:
        """Sums times ``2 ** shift``: weights once, squared weights twice."""
        return np.ldexp(sums, np.array([shift, shift, 2 * shift])[:, None, None])

    def groups(self):
        """(values, events, totals, non-events) of the groups holding weight in the first
        weight vector (a replicate's weights are zero where the rows' own are), ascending;
        the sums (m, G)."""
        values = self.centres() if self.values is None else self.values
        keep = self.tot[0] > 0
        return values[keep], self.ev[:, keep], self.tot[:, keep], self.neg[:, keep]

    def grid_average_precision(self) -> float:
        """Average precision on the grid, the rows of a bin taken in random order (the
        expected value).

        A bin holding event weight ``p`` of total weight ``t``, below event weight ``T`` of
        total ``F``, contributes ``p`` times the mean precision along the bin. With ``m`` the
        mean weight of one of its events (a positive counts itself), the precision at a
        fraction ``u`` of the way down is ``(T + m + u (p - m)) / (F + m + u (t - m))``,
        whose mean over ``u`` in [0, 1] is ``b / d + (a - b c / d) ln(1 + d / c) / d`` with
        ``a, b, c, d = T + m, p - m, F + m, t - m``. The step-wise precision at the bin's
        bottom (what tied scores get) would err by half the change of the precision across
        every bin; this errs by its curvature. One value per weight vector (NaN where it
        holds no event).
        """
        keep = self.tot[0] > 0
        neg, pos, pos2 = (row[:, keep][:, ::-1] for row in self.sums)  # top down
        tot = neg + pos
        p_tot = pos.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            m = np.where(pos > 0, pos2 / pos, 0.0)
            a, c = np.cumsum(pos, axis=1) - pos + m, np.cumsum(tot, axis=1) - tot + m
            b = pos - m
            d = neg + b  # tot - m, without cancelling neg against pos
            ratio = d / c
            mean_prec = np.where(
                c <= 0, b / d,  # the top bin, its events' weights negligible: T = F = 0
                np.where(ratio > 1e-8, b / d + (a - b / ratio) * np.log1p(ratio) / d,
                         a / c))  # a bin of one row, or negligible against the rows above
        mean_prec = np.where(pos > 0, np.clip(mean_prec, 0.0, 1.0), 0.0)
        out = _kernels.fraction(np.sum(pos * mean_prec, axis=1), p_tot)
        return np.where(p_tot > 0, out, np.nan)

    def bounds(self) -> tuple:
        """Worst-case errors of (ROC-AUC, average precision) from pooling inside grid bins."""
        if self.values is not None:
            return 0.0, 0.0
        _, pos, tot, neg = (x if x.ndim == 1 else x[0] for x in self.groups())
        p_tot, n_tot = pos.sum(), neg.sum()
        # A positive and a negative in one bin count one half: the truth is 0 or 1.
        auc = float(np.sum(pos * neg) / (2 * p_tot * n_tot)) if p_tot * n_tot > 0 else 0.0
        if p_tot <= 0:
            return auc, 0.0
        # Per bin (top down), the pooled precision against the range the precision of any
        # positive inside it can take: [T / (F + neg_b), (T + pos_b) / (F + pos_b)] with T
        # and F the positive and total weight of the bins above.
        t = np.cumsum(pos[::-1])[::-1] - pos
        f = np.cumsum(tot[::-1])[::-1] - tot
        with np.errstate(invalid="ignore", divide="ignore"):
            pooled = (t + pos) / (f + tot)
            hi = np.where(pos > 0, (t + pos) / (f + pos), pooled)
            lo = np.where(f + neg > 0, t / (f + neg), pooled)
        dev = np.maximum(hi - pooled, pooled - lo)
        return auc, float(np.sum(pos * np.where(pos > 0, dev, 0.0)) / p_tot)

    def recalibration_gain(self) -> float:
        """How much lower, at most, the isotonic fit on the exact scores can bring the
        recalibrated squared error than the fit on the grid's bins (weight units; 0 exact).

        Let ``r*`` be the exact fit and ``rbar_b`` its weighted mean over bin ``b``'s rows:
        ``rbar`` is monotone across bins, so the grid fit does at least as well as it. In
        bin ``b`` (events ``e``, non-events ``m``, total ``t``) ``rbar_b`` loses to ``r*`` at
        most ``e m / t`` (its within-bin error, while ``r*``'s is at least ``t (e / t -
        rbar_b)^2`` by Jensen) and at most ``2 min(e, m) D_b``, with ``D_b`` the range of
        ``r*`` in the bin: with ``u = r* - rbar_b`` (weighted mean 0 in the bin) the gain is
        ``sum w u (2 o - 2 rbar_b - u) <= 2 sum w u o``, which is at most ``2 e D_b``, and
        equally ``-2 sum w u (1 - o) <= 2 m D_b``. ``r*`` is monotone in [0, 1], so the
        ``D_b`` sum to at most 1: the largest total of ``min(e m / t, 2 min(e, m) D_b)`` is
        taken bin by bin, the largest ``min(e, m)`` first (a fractional knapsack).
        """
        if self.values is not None:
            return 0.0
        _, pos, tot, neg = (x if x.ndim == 1 else x[0] for x in self.groups())
        rate = 2.0 * np.minimum(pos, neg)
        keep = rate > 0  # a bin of one class gains nothing
        cap, rate = (pos * neg / tot)[keep], rate[keep]
        order = np.argsort(-rate, kind="stable")
        cap, rate = cap[order], rate[order]
        need = np.cumsum(cap / rate)  # the range each bin's full gain uses up
        full = need <= 1.0
        gain = float(np.sum(cap[full]))
        if not full.all():
            i = int(np.argmin(full))  # the first bin only partly paid for
            left = 1.0 - (need[i - 1] if i > 0 else 0.0)
            gain += rate[i] * left
        return gain
