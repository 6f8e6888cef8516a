"""Regression metrics over chunks: :class:`RegressionAccumulator`.

Re-exported by :mod:`chimeraboost.metrics`; the classification twin, and the scaling and
merging rules both share, are in :mod:`chimeraboost.metrics._accumulators`. Questions answered here:

- What is the regression report of rows that arrive in pieces? :class:`RegressionAccumulator`
  (``update`` per chunk, ``merge`` across processes, ``report`` at the end).
- How sure is each of its numbers? ``RegressionAccumulator(n_boot=...).replicates()``: every
  number in each Poisson bootstrap replicate, kept chunk by chunk.
- How far off can its median-based numbers be? ``RegressionAccumulator.error_bounds``.
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from ._accumulators import (
    _check_mergeable,
    _chunk_weights,
    _exponent,
    _Pickled,
    _rows,
)
from .._shared.poisson import mixed_keys, poisson_counts, replicate_seeds
from .._shared.units import check_n_boot
from ._kernels import weighted_quantiles
from ._regression import finish
from ._replicates import _CHUNK_ELEMENTS, ReplicateKeys
from ._value_summary import _ValueSummary
from .._shared.validation import (
    check_aligned,
    check_numeric_1d,
    check_positive_int,
    check_random_state_int,
    check_same_length,
    pow2_below,
)

__all__ = ["RegressionAccumulator"]

_ORDER = ("n", "mean_y", "baseline_mean", "baseline_median", "mse", "mae", "mse_ref",
          "mae_ref", "rmse", "rmse_ref", "r2", "mse_skill", "mae_skill")


class RegressionAccumulator(_Pickled):
    """The regression report of many chunks of rows, without keeping the rows.

    ``update`` adds a chunk (checked as :func:`chimeraboost.metrics.regression_report`
    checks its input, with the same messages), ``merge`` adds another accumulator, ``report``
    returns the keys of ``regression_report`` on all the rows seen.

    Parameters
    ----------
    baseline : array-like of targets, default=None
        As in ``regression_report``: ``None`` judges against the weighted mean and median of
        all the ``y`` seen; targets (``y_train``) against their mean and median.
    bins : int, default=2048
        How many distinct values of ``y`` (then bins) are kept for its median (see Notes).
    n_boot : int, default=0
        Poisson bootstrap replicates kept beside the sums (0: none): the six sums are also
        kept for each replicate's weights, the rows' weights times an independent Poisson(1)
        count per row, or per group with ``groups=`` in :meth:`update`. A count depends on
        the replicate and the row's position (the group's value) only, so accumulators of
        chunks seen apart merge into the replicates of all the rows; :meth:`replicates`
        gives the numbers of :meth:`report` per replicate. Memory: 48 bytes per replicate
        with ``baseline=``; without it each replicate also weighs the values (or bins) kept
        for the median of ``y``, up to ``2 * bins`` float64 -- 32 KB at ``bins=2048``, so
        1,000 replicates take up to 32 MB.
    random_state : None, int or numpy Generator, default=None
        Where the replicates' seeds come from; accumulators merge only when their seeds
        are equal (the same int).

    Attributes
    ----------
    n : int
        Rows seen so far.

    Notes
    -----
    **Exact** (to rounding): ``n``, ``mean_y``, ``baseline_mean``, ``mse``, ``rmse``,
    ``mae``, ``mse_ref``, ``rmse_ref``, ``r2``, ``mse_skill``, and with ``baseline=`` also
    ``baseline_median``, ``mae_ref`` and ``mae_skill``. The weighted mean and the sum of
    squared deviations from it are combined across chunks with the parallel formula of Chan,
    Golub & LeVeque (1979), "Updating formulae and a pairwise algorithm for computing sample
    variances", Stanford CS report STAN-CS-79-773: for parts ``a`` and ``b`` of weights
    ``W_a``, ``W_b`` and means ``m_a``, ``m_b``, ``M2 = M2_a + M2_b + (m_b - m_a)^2 W_a W_b /
    (W_a + W_b)``. It never subtracts two large sums. The means are kept as means of ``y - K``,
    ``K`` the first ``y`` the accumulator saw (an accumulator built by merges converts the
    other's means by the difference of the two ``K``): for ``y`` within a factor 2 of ``K`` the
    difference is exact, so a large common offset never enters the rounded means the merge
    subtracts, and ``r2`` and ``mse_ref`` of ``y = 1e12 + noise`` in chunks of one row are
    exact to 1e-12. Values and weights are summed on power-of-two scales (exact), so a ``y``
    near ``1e154`` gives the same ``r2`` as the unscaled one.

    **The median with** ``baseline=None`` (``baseline_median``, ``mae_ref``,
    ``mae_skill``): the distinct values of ``y`` are kept with their weights while there are
    at most ``bins`` of them -- then these are **exact**. Beyond that, the values are kept in
    dyadic bins ``[k 2^j, (k + 1) 2^j)`` at the finest ``j`` that needs at most ``bins`` bins,
    each with its weight, smallest and largest value and the weighted sum of distances to its
    smallest value. The sum of ``|y - x|`` is then exact at every bin edge, the median lies
    in one bin, and ``mae_ref`` is bracketed by the convexity of that sum inside the bin:
    :meth:`error_bounds` gives a worst case for the rows seen; the tests assert the true
    error within it. Measured on a million rows: normal values, bound 1.5e-6 of ``mae_ref``,
    error 5e-8 of it (the same with an offset of 1e6); Student t with 2 degrees of freedom,
    4e-5 and 1e-6 (a few wild outliers widen the bins, and the bound with them). The median is
    exact too when it falls on a bin boundary or its bin holds one value; otherwise it is
    within its bin, whose width ``error_bounds`` gives.

    Pickled size: at most about 85 KB at ``bins=2048`` (82 KB measured for a million rows;
    less while few values were seen, 0.4 KB with ``baseline=``); it never grows with the
    rows.

    Examples
    --------
    >>> acc = RegressionAccumulator()
    >>> acc = acc.update([1.0, 2.0], [1.0, 2.0]).update([3.0, 4.0], [3.0, 5.0])
    >>> r = acc.report()
    >>> r["r2"], r["mae_skill"]
    (0.8, 0.75)
    """

    def __init__(self, *, baseline=None, bins: int = 2048, n_boot: int = 0,
                 random_state=None):
        self.bins = check_positive_int(bins, "bins", minimum=16)
        self.baseline = None
        if baseline is not None:
            b = np.sort(check_numeric_1d(baseline, "baseline"))
            c = pow2_below(float(np.max(np.abs(b))))
            median = weighted_quantiles(b / c, np.ones((1, b.size)), 0.5)[0, 0] * c
            self.baseline = np.array([float(np.mean(b / c)) * c, float(median)])
        self.n_boot = check_n_boot(n_boot, optional=True)
        self._seeds = replicate_seeds(check_random_state_int(random_state), self.n_boot)
        self._keys = ReplicateKeys()
        self.n = 0
        self._ew = self._ey = None  # weights in units 2**_ew, y in units 2**_ey
        # The shift the mean is kept from: the first y of positive weight seen, exactly.
        self._k = None
        # Per weight vector (the rows' own, then each replicate's): weight, mean of y - _k,
        # M2, squared and absolute errors, those of the median
        self._s = np.zeros((1 + self.n_boot, 6))
        self._values = _ValueSummary(self.bins, self.n_boot) if baseline is None else None

    @public(legacy=("sample_weight",))
    def update(self, y, pred, *, sample_weight=None, groups=None,
               first_row=None) -> RegressionAccumulator:
        """Add a chunk of rows; returns ``self``.

        Parameters
        ----------
        y, pred : array-like of shape (n,)
        sample_weight : array-like of shape (n,), default=None
        groups : array-like of shape (n,), default=None
            With ``n_boot``: each row's group; the rows of a group share one Poisson count
            per replicate, wherever they sit in the chunks. Pass it with every chunk or with
            none.
        first_row : int, default=None
            With ``n_boot`` and no ``groups``: the position of the chunk's first row among
            all rows, which keys its rows' counts (default: the rows seen so far).
        """
        if _rows(y) == 0 and _rows(pred) == 0 and (
                sample_weight is None or _rows(sample_weight) == 0):
            return self
        check_aligned(y=y, pred=pred, sample_weight=sample_weight)
        y = check_numeric_1d(y, "y")
        pred = check_numeric_1d(pred, "pred")
        n = check_same_length(y=y, pred=pred)
        keys = self._replicate_keys(n, groups, first_row)
        w, ew = _chunk_weights(sample_weight, n)
        if ew is None:  # all weights zero: rows counted, nothing summed
            self.n += n
            return self
        if w is not None and not np.all(w > 0):
            # Rows of zero weight count in no number; their values must not either (a y of
            # 1e300 would set the scale, a prediction of 1e200 give 0 * inf = NaN).
            keep = w > 0
            y, pred, w = y[keep], pred[keep], w[keep]
            keys = None if keys is None else keys[keep]
        ey = _exponent(pow2_below(float(np.max(np.abs(y)))))
        if self._ey is not None:  # the sums' scale: at most 2 for every y seen, K included
            ey = max(ey, self._ey)
        if self._k is None:
            self._k = float(y[0])
        # The chunk on the sums' scale (y / 2**ey) and its own weights' (w / 2**ew).
        ys, ps = np.ldexp(y, -ey), np.ldexp(pred, -ey)
        with np.errstate(over="ignore", invalid="ignore"):
            sums = self._chunk_sums(ys, ps, w, ey)[None, :]
        self._align(ew, ey)
        if self._values is not None:
            # The groups first: the replicates' weights of the chunk's rows go to them.
            chunk = _ValueSummary.of_rows(self.bins, y, w)
            self._values.merge(chunk, ew - self._ew, self._ey)
        if keys is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                sums = np.vstack([sums, self._replicate_sums(y, ys, ps, w, ew, ey, keys)])
        self._combine(n, sums, ew, ey)
        return self

    def _replicate_keys(self, n, groups, first_row):
        """The keys of a chunk's rows for the replicates' counts (None without replicates)."""
        if self.n_boot:
            return self._keys.keys(n, self.n, groups, first_row)
        if groups is not None or first_row is not None:
            msg = ("groups= and first_row= key the bootstrap replicates; this accumulator "
                   "keeps none (n_boot=0): pass n_boot= to RegressionAccumulator.")
            raise ValueError(msg)
        return None

    def _chunk_sums(self, ys, ps, w, ey) -> np.ndarray:
        dot = np.sum if w is None else w.__matmul__
        tot = float(ys.shape[0]) if w is None else float(np.sum(w))
        # Centred on the pinned K: y - K is exact while y is within a factor 2 of K (Sterbenz),
        # so a large common offset never enters the means that merges subtract.
        d = ys - np.ldexp(self._k, -ey)
        mean = dot(d) / tot if tot > 0 else 0.0
        err = ys - ps
        out = [tot, mean, dot(np.square(d - mean)), dot(np.square(err)), dot(np.abs(err)), 0.0]
        if self.baseline is not None:
            out[5] = dot(np.abs(ys - np.ldexp(self.baseline[1], -ey)))
        return np.array(out)

    def _replicate_sums(self, y, ys, ps, w, ew, ey, keys) -> np.ndarray:
        """(n_boot, 6): :meth:`_chunk_sums` under each replicate's Poisson counts times the
        rows' weights, a chunk of replicates at a time (bounded memory); the same weights
        go to the replicates of the values kept for the median (on the accumulator's
        weight unit, to which the sums have been aligned).

        Every sum is one product with the (b, n) weights. The squared deviations are taken
        from the chunk's own weighted mean ``m0``: a replicate's mean lies ``delta`` from it,
        and its sum of squared deviations is ``sum W (d - m0)^2 - W delta^2``, whose two
        terms differ by a factor of about ``n`` -- no digits lost to cancellation.
        """
        n, B = ys.shape[0], self.n_boot
        d = ys - np.ldexp(self._k, -ey)
        m0 = float(np.mean(d) if w is None else (w @ d) / np.sum(w))
        err = ys - ps
        ref = (np.abs(ys - np.ldexp(self.baseline[1], -ey)) if self.baseline is not None
               else np.zeros(n))
        linear = np.column_stack([d - m0, np.square(d - m0), np.square(err), np.abs(err), ref])
        mixed = mixed_keys(keys)
        out = np.empty((B, 6))
        chunk = max(1, min(B, _CHUNK_ELEMENTS // max(n, 1)))
        counts = np.empty((chunk, n))
        values = self._values
        layout = None if values is None else values.rows_layout(y, self._ey)
        for start in range(0, B, chunk):
            stop = min(B, start + chunk)
            weights = poisson_counts(self._seeds[start:stop], mixed, counts[:stop - start])
            if w is not None:
                weights *= w
            if values is not None:
                values.add_rows(layout, np.ldexp(weights, ew - self._ew), slice(start, stop))
            tot = weights.sum(axis=1)
            sums = weights @ linear
            delta = np.where(tot > 0, sums[:, 0] / np.where(tot > 0, tot, 1.0), 0.0)
            m2 = np.maximum(sums[:, 1] - tot * delta * delta, 0.0)
            mean = np.where(tot > 0, m0 + delta, 0.0)
            out[start:stop] = np.column_stack([tot, mean, m2, sums[:, 2:]])
        return out

    def _add(self, n, s, ew, ey, k=None) -> None:
        """Add sums ``s`` (one row per weight vector; weights in units ``2**ew``, y in
        ``2**ey``, the mean centred on ``k``; None: on this accumulator's shift)."""
        self._align(ew, ey, k)
        self._combine(n, s, ew, ey, k)

    def _align(self, ew, ey, k=None) -> None:
        """Bring the sums (and the values kept) to the exponents ``max(self, e)``: the
        larger of each, so nothing overflows."""
        if self._ew is None:
            self._ew, self._ey = ew, ey
            if k is not None:
                self._k = k
        new_w, new_y = max(self._ew, ew), max(self._ey, ey)
        self._s = self._scaled(self._s, self._ew - new_w, self._ey - new_y)
        if self._values is not None:
            self._values.scale(self._ew - new_w, self._ey - new_y)
        self._ew, self._ey = new_w, new_y

    def _combine(self, n, s, ew, ey, k=None) -> None:
        """Add sums ``s`` of ``n`` rows to the aligned sums (Chan's formula per row)."""
        s = self._scaled(s, ew - self._ew, ey - self._ey)
        if k is not None and k != self._k:
            # Their mean from their shift to ours; the difference of two values within a
            # factor 2 of each other is exact.
            s[:, 1] += np.ldexp(k, -self._ey) - np.ldexp(self._k, -self._ey)
        self.n += n
        self._s = _chan(self._s, s)

    @staticmethod
    def _scaled(s, dw, dy) -> np.ndarray:
        # weight: w; mean: y; M2, squared errors: w y^2; absolute errors: w y
        return np.ldexp(s, np.array([dw, dy, dw + 2 * dy, dw + 2 * dy, dw + dy, dw + dy]))

    def merge(self, other: RegressionAccumulator) -> RegressionAccumulator:
        """Add the rows of ``other`` (an accumulator with the same baseline, bins and
        replicates); returns ``self``."""
        _check_mergeable(self, other, [
            ("baseline", self.baseline, getattr(other, "baseline", None)),
            ("bins", self.bins, getattr(other, "bins", None)),
            ("n_boot", self.n_boot, getattr(other, "n_boot", None))])
        _check_same_replicates(self, other)
        if other._ew is None:  # no rows, or only rows of weight zero
            self.n += other.n
            return self
        self._add(other.n, other._s, other._ew, other._ey, other._k)
        if self._values is not None:
            theirs = other._values
            scaled = _ValueSummary(self.bins)  # other's d in units of our y exponent
            scaled.level, scaled.key, scaled.lo, scaled.hi = (
                theirs.level, theirs.key, theirs.lo, theirs.hi)
            scaled.w, scaled.d = theirs.w, np.ldexp(theirs.d, other._ey - self._ey)
            scaled.rw, scaled.rd = theirs.rw, np.ldexp(theirs.rd, other._ey - self._ey)
            self._values.merge(scaled, other._ew - self._ew, self._ey)
        return self

    def report(self) -> dict:
        """The keys of :func:`chimeraboost.metrics.regression_report` on all rows seen, with
        the same warning for a constant ``y``.

        Raises
        ------
        ValueError
            If no row was seen, or all rows seen have weight zero.
        """
        self._checked_sums()
        with np.errstate(over="ignore", invalid="ignore"):
            out = self._numbers(slice(0, 1), warn=True)
        result = {key: self.n if key == "n" else float(out[key][0]) for key in _ORDER}
        result["reference"] = "mean of y" if self.baseline is None else "mean of baseline"
        return result

    def replicates(self) -> dict:
        """Every number of :meth:`report` in each Poisson bootstrap replicate.

        Returns
        -------
        dict
            Metric -> array of shape (n_boot,): the keys of :meth:`report` but ``n``. NaN
            where a replicate leaves a number undefined (every row drawn zero times). The
            median-based numbers without ``baseline=`` come from the values (or bins) of the
            report's own, so that an interval read from them sits around its number.

        Raises
        ------
        ValueError
            If the accumulator keeps no replicates (``n_boot=0``), or saw no rows.
        """
        if not self.n_boot:
            msg = ("This accumulator keeps no bootstrap replicates; build it with n_boot= "
                   "(e.g. RegressionAccumulator(n_boot=1000, random_state=0)).")
            raise ValueError(msg)
        self._checked_sums()
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            out = self._numbers(slice(1, None), warn=False)
        return {key: np.asarray(out[key], dtype=np.float64) for key in _ORDER if key != "n"}

    def _numbers(self, rows: slice, warn: bool) -> dict:
        """Every number of the report for weight vectors ``rows`` (the rows' own: 0; the
        replicates: 1 on), as arrays with one entry per weight vector."""
        ws, mean_k, m2, sse, sae, sae_ref = self._s[rows].T
        c = 2.0 ** self._ey  # y's unit (a power of two: exact)
        k = float(np.ldexp(self._k, -self._ey))
        mean = mean_k + k
        if self.baseline is None:
            centre = mean
            off = 0.0
            summaries = ([self._values] if rows.start == 0 else
                         [self._values.row(r) for r in range(self.n_boot)])
            median = np.array([v.median()[0] if v.w.sum() > 0 else np.nan
                               for v in summaries])
            mae_ref = np.array([v.mae_bracket(self._ey)[0] if v.w.sum() > 0 else np.nan
                                for v in summaries]) / ws
        else:
            centre = np.full(ws.shape, self.baseline[0] / c)
            off = mean_k + (k - centre)  # the mean's distance to the baseline's
            median = np.full(ws.shape, self.baseline[1])
            mae_ref = sae_ref / ws
        mse_ref = m2 / ws + off * off
        out = {"mean_y": mean, "baseline_mean": centre, "baseline_median": median / c,
               "mse": sse / ws, "mae": sae / ws, "mse_ref": mse_ref, "mae_ref": mae_ref}
        # The in-memory report's rule: without a baseline, y is constant when every row of
        # positive weight holds the same y -- here when every centred y - _k is zero, so that
        # M2 (a sum of non-negative terms, Chan's merges included) is exactly zero; against
        # a baseline, when its mean is every y.
        flat_own = m2 <= 0
        flat = flat_own if self.baseline is None else mse_ref <= 0
        warned = warn and bool(flat[0] or flat_own[0])
        return finish(out, flat, c, warn=warned, own=(m2 / ws, flat_own))

    def _checked_sums(self):
        if self.n == 0:
            msg = f"{type(self).__name__}.report(): no rows seen yet; call update() first."
            raise ValueError(msg)
        if self._s[0, 0] <= 0:
            msg = "sample_weight sums to zero; at least one row needs a positive weight."
            raise ValueError(msg)
        return (float(v) for v in self._s[0])

    def error_bounds(self) -> dict:
        """Worst-case absolute errors of the approximate numbers for the rows seen.

        Returns
        -------
        dict
            ``baseline_median`` (the width of the bin holding it), ``mae_ref`` (the distance
            from the estimate to the farther end of the bracket, see Notes) and
            ``mae_skill`` (what that bound can do to ``1 - mae / mae_ref``): all 0 with
            ``baseline=`` or while the values are kept exactly.
        """
        ws, *_ = self._checked_sums()
        if self._values is None:
            return {"baseline_median": 0.0, "mae_ref": 0.0, "mae_skill": 0.0}
        c = 2.0 ** self._ey
        est, bound = self._values.mae_bracket(self._ey)
        width = self._values.median_bin_width()
        mae = self._s[0, 4] / ws
        low = (est - bound) / ws
        skill = float(mae * bound / ws / (low * est / ws)) if bound > 0 and low > 0 else (
            0.0 if bound == 0 else float("inf"))
        return {"baseline_median": width, "mae_ref": float(bound / ws * c), "mae_skill": skill}


def _chan(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two parts' (weight, mean, M2, sums...) combined, one row per weight vector: Chan,
    Golub & LeVeque (1979)."""
    out = a + b
    wa, wb = a[:, 0], b[:, 0]
    both = (wa > 0) & (wb > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = b[:, 1] - a[:, 1]
        mean = a[:, 1] + delta * (wb / out[:, 0])
        extra = delta * delta * (wa * wb / out[:, 0])
    out[:, 1] = np.where(both, mean, np.where(wb <= 0, a[:, 1], b[:, 1]))
    out[:, 2] = a[:, 2] + b[:, 2] + np.where(both, extra, 0.0)
    return out


def _check_same_replicates(acc, other) -> None:
    """``other``'s replicates were drawn with ``acc``'s seeds and keyed alike."""
    if not np.array_equal(acc._seeds, other._seeds):
        msg = ("other's replicates were drawn with other seeds than this accumulator's; "
               "build every accumulator to be merged with the same random_state (an int).")
        raise ValueError(msg)
    if acc.n_boot and other._keys.kind is not None:
        if acc._keys.kind not in (None, other._keys.kind):
            msg = (f"other's replicates are keyed by {other._keys.kind}, this accumulator's "
                   f"by {acc._keys.kind}; pass groups= to every chunk or to none.")
            raise ValueError(msg)
        acc._keys.kind = other._keys.kind
