"""The metric engine's numerical kernels: one sort, many numbers, for one weight vector or many
at once.

Questions this module answers (each for ``B`` weight vectors at once):

- Which rows share a score, and what do they weigh together? :class:`GroupSums` (sort once),
  :func:`dense_group_sums` (integer codes). The sort itself: :func:`sorted_order`.
- ROC-AUC and average precision from the weights per tied score? :func:`binary_rank_stats`;
  recall and precision of the top ``k`` rows? :func:`top_k_stats`.
- The weighted isotonic (PAV) recalibration of a forecast, and its squared error -- the fit
  behind every MCB (the CORP decomposition, the calibration test, the reliability curve)?
  :func:`isotonic_recalibration`, on the pools of :func:`isotonic_groups`.
- The CORP decomposition of the Brier score? :func:`corp_decomposition`, and
  :func:`corp_terms` from squared errors.

Every kernel here takes weights of shape ``(B, n)``: ``B`` weight vectors over the same ``n``
rows. The point estimate is the case ``B = 1``; a bootstrap is ``B`` vectors of resampling
counts times the sample weights. Because the expensive part (sorting the scores, grouping
ties) depends only on the rows and not on the weights, it is done once and shared by every
weight vector and every metric that needs it.

The curves of one binary score for many weight vectors (``BinaryCurves``,
``BinaryRocAuc``) are in :mod:`chimeraboost.metrics._curves`, built on the pieces here.

This module is private to ``metrics``, which builds its public numbers from it. What other
layers need of the weight plumbing -- the (B, n) replicate weights, the workspace that keeps a
bootstrap's buffers from one chunk to the next, shares clipped to [0, 1], weighted quantiles
-- lives in :mod:`chimeraboost._shared.weights` (imported here too), because a package may
reach another package's private module only through ``_shared``, and ``_shared`` imports no
package above it: the engine is in ``metrics``, the plumbing every layer shares below it.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import isotonic_regression

from .._shared.weights import (  # noqa: F401  (re-used by the modules of metrics as _kernels.*)
    Workspace,
    as_float,
    fraction,
    replicate_weights,
    weighted_quantiles,
)

# Forecasts closer than this are one forecast for the isotonic fit, as in scikit-learn's
# IsotonicRegression (np.finfo(np.float64).resolution).
ISOTONIC_TIE_EPS = 1e-15


def _einsum_rows(a, b):
    return np.einsum("ij,ij->i", a, b)


# Row-wise dot products of two (B, m) arrays: numpy >= 2.0's vecdot is a few times faster than
# einsum on them (and, like it, exact on integers).
row_dot = getattr(np, "vecdot", _einsum_rows)


# Below this many values np.argsort is as fast as packing keys (and above 2^40 the index
# leaves too few bits of the value).
_PACKED_SORT_MIN, _PACKED_SORT_MAX = 1 << 14, 1 << 40
_SIGN = np.uint64(1 << 63)
_NOT_SIGN = np.uint64((1 << 63) - 1)


def sorted_order(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(order, values[order])``: the indices that sort finite ``values`` ascending, ties
    in any order (``np.argsort``'s result up to the order within ties), and the sorted values.

    Sorting plain 64-bit integers is several times faster than an argsort, so each float64
    value and its index are packed into one integer: the float's bits mapped to an unsigned
    integer that sorts as the float does (the sign bit set for non-negative values, every
    bit flipped for negative ones; -0.0 made +0.0 first so that the two zeros tie), its
    lowest ``ceil(log2 n)`` bits replaced by the row's index. Values that differ only in
    those bits (at 10^6 rows, a relative difference below about 2e-10) come out in index
    order; the few runs of them are then sorted exactly by value. If they are not few (more
    than one value in 64), the whole array is argsorted instead.
    """
    values = np.asarray(values)
    n = values.shape[0]
    if values.dtype != np.float64 or not _PACKED_SORT_MIN <= n < _PACKED_SORT_MAX:
        order = np.argsort(values)
        return order, values[order]
    bits = np.uint64(max(1, (n - 1).bit_length()))
    key = np.add(values, 0.0).view(np.uint64)  # a new array, -0.0 made +0.0
    flip = key >> np.uint64(63)  # 1 for negative values
    flip *= _NOT_SIGN
    flip |= _SIGN
    key ^= flip
    del flip
    key >>= bits
    key <<= bits
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    order = (key & ((np.uint64(1) << bits) - np.uint64(1))).astype(np.intp)
    key >>= bits
    ranked = values[order]
    tie = key[1:] == key[:-1]  # equal in the bits kept
    del key
    bad = np.flatnonzero(tie & (ranked[1:] != ranked[:-1]))
    if bad.shape[0] == 0:
        return order, ranked
    if bad.shape[0] > n >> 6:
        order = np.argsort(values)
        return order, values[order]
    # The runs of keys equal in the bits kept that hold different values: sorted by value.
    starts = np.flatnonzero(np.r_[True, ~tie])
    runs = np.unique(np.searchsorted(starts, bad, side="right") - 1)
    lo, length = starts[runs], np.append(starts, n)[runs + 1] - starts[runs]
    at = np.repeat(lo - np.cumsum(length) + length, length) + np.arange(length.sum())
    sub = order[at]
    order[at] = sub[np.lexsort((values[sub], np.repeat(np.arange(runs.shape[0]), length)))]
    ranked[at] = values[order[at]]
    return order, ranked


class GroupSums:
    """Sort ``keys`` once; then sum any ``(B, n)`` weights over groups of equal keys.

    Groups are the distinct values of ``keys`` in ascending order: ``values[g]`` is the key of
    group ``g``, ``counts[g]`` the number of rows in it.
    """

    def __init__(self, keys: np.ndarray):
        keys = np.asarray(keys)
        self.n = keys.shape[0]
        # Rows within a group are summed, never ordered, so an unstable sort will do.
        self.order, sorted_keys = sorted_order(keys)
        is_start = np.empty(self.n, dtype=bool)
        is_start[:1] = True
        np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=is_start[1:])
        self.starts = np.flatnonzero(is_start)
        self.values = sorted_keys[self.starts]
        self.counts = np.diff(np.append(self.starts, self.n))

    def sums(self, weights: np.ndarray) -> np.ndarray:
        """(B, n) weights in row order -> (B, G) sums per group."""
        return np.add.reduceat(np.take(weights, self.order, axis=1), self.starts, axis=1)


def dense_group_sums(codes: np.ndarray, n_groups: int, weights: np.ndarray) -> np.ndarray:
    """(B, n) weights -> (B, n_groups) sums per integer code, absent codes giving 0."""
    if weights.shape[0] == 1:
        return np.bincount(codes, weights=weights[0], minlength=n_groups)[None, :]
    onehot = np.zeros((codes.shape[0], n_groups))
    onehot[np.arange(codes.shape[0]), codes] = 1.0
    return weights @ onehot


def binary_rank_stats(pos: np.ndarray, tot: np.ndarray, neg: np.ndarray | None = None) -> dict:
    """ROC-AUC and average precision from per-group positive and total weights.

    ``pos``, ``tot``: (B, G) weights of positives and of all rows in each group of tied
    scores, groups in ascending score order. A negative and a positive with tied scores count
    one half (the trapezoidal ROC curve); average precision uses scikit-learn's step-wise
    definition, ``AP = sum_t (R_t - R_{t-1}) P_t`` over distinct thresholds, descending.
    ``neg``: the negatives' weight per group, if the caller holds it; by default
    ``tot - pos``, which cancels when a group's positives outweigh its negatives by more
    than ``1 / eps`` (weights 1e20 and 1).
    """
    if neg is None:
        neg = tot - pos
    p_tot = pos.sum(axis=1)
    n_tot = neg.sum(axis=1)
    neg_below = np.cumsum(neg, axis=1) - neg
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = fraction((pos * (neg_below + 0.5 * neg)).sum(axis=1), p_tot * n_tot)
        # Cumulate from the top score down, as a threshold sweep does; subtracting a prefix
        # from the total would lose digits for the few rows at the top.
        tp = np.cumsum(pos[:, ::-1], axis=1)[:, ::-1]
        flagged = np.cumsum(tot[:, ::-1], axis=1)[:, ::-1]
        precision = np.where(flagged > 0, tp / np.where(flagged > 0, flagged, 1.0), 0.0)
        ap = fraction((pos * precision).sum(axis=1), p_tot)
    auc[(p_tot <= 0) | (n_tot <= 0)] = np.nan
    ap[p_tot <= 0] = np.nan
    return {"roc_auc": auc, "pr_auc": ap}


def top_k_stats(pos: np.ndarray, tot: np.ndarray, counts: np.ndarray, k: float) -> dict:
    """Recall and precision of flagging the ``k`` highest-scored rows.

    Ties at the cutoff are shared fractionally: if the cut falls inside a group of ``m`` tied
    rows of which ``j`` must be taken, each of them is flagged with probability ``j / m`` --
    the expected value under random tie-breaking. ``k`` counts rows (each row once, whatever
    its weight); recall and precision are weighted.
    """
    # Rows strictly above each group, scanning from the top score down.
    desc_counts = counts[::-1]
    above = np.cumsum(desc_counts) - desc_counts
    g = int(np.searchsorted(above + desc_counts, k, side="left"))
    g = min(g, desc_counts.shape[0] - 1)
    frac = (k - above[g]) / desc_counts[g]
    pos_d, tot_d = pos[:, ::-1], tot[:, ::-1]
    sel_pos = pos_d[:, :g].sum(axis=1) + frac * pos_d[:, g]
    sel_tot = tot_d[:, :g].sum(axis=1) + frac * tot_d[:, g]
    p_tot = pos.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.where(p_tot > 0, fraction(sel_pos, p_tot), np.nan)
        precision = np.where(sel_tot > 0, fraction(sel_pos, sel_tot), np.nan)
    return {"recall_at_k": recall, "precision_at_k": precision}


def isotonic_groups(values: np.ndarray) -> np.ndarray:
    """Merge ascending distinct forecasts closer than 1e-15 into one, as sklearn does.

    Returns, for each distinct value, the index of its isotonic group. scikit-learn starts a
    new group when ``x - x_first_of_group >= eps``; that rule is sequential only inside runs of
    near-ties, so the loop runs over those runs alone.
    """
    return np.cumsum(isotonic_starts(values)) - 1


def isotonic_starts(values: np.ndarray, block: int = 1 << 20) -> np.ndarray:
    """Which of the ascending distinct ``values`` open an isotonic group (bool array); see
    :func:`isotonic_groups`. The differences are taken block by block (no row-length
    temporary)."""
    is_start = np.ones(values.shape[0], dtype=bool)
    for i in range(1, values.shape[0], block):
        seg = values[i - 1: i + block]
        np.greater_equal(seg[1:] - seg[:-1], ISOTONIC_TIE_EPS, out=is_start[i: i + block])
    prev, first = -2, 0
    for i in np.flatnonzero(~is_start[1:]):
        # the pair (i, i + 1) is closer than eps; i opens a group if the run starts at i
        if i != prev + 1:
            first = i
        if values[i + 1] - values[first] >= ISOTONIC_TIE_EPS:
            is_start[i + 1] = True
            first = i + 1
        prev = i
    return is_start


def corp_decomposition(
    forecast_values: np.ndarray, events: np.ndarray, tot: np.ndarray, sq_err: np.ndarray,
    nonevents: np.ndarray | None = None,
) -> dict:
    """CORP decomposition of the Brier score of one binary event, for B weight vectors.

    Parameters
    ----------
    forecast_values : (G,) ascending distinct forecasts of the event.
    events, tot : (B, G) weight of rows where the event happened, and of all rows, per group.
    sq_err : (B,) weighted sum of squared errors ``sum w (p - o)^2`` of the forecast itself.
    nonevents : (B, G), optional
        Weight of rows where the event did not happen, if the caller holds it. Then the
        recalibrated squared error is summed as ``sum_blocks E N / (E + N)`` over the
        isotonic blocks and ``UNC`` as ``(E / W) (N / W)``: sums of non-negative terms, exact
        to rounding even when one class outweighs the other by more than ``1 / eps``, where
        ``t r^2 - 2 r e + e`` and ``rate (1 - rate)`` cancel.

    Returns
    -------
    dict of (B,) arrays: ``score`` (mean Brier term), ``mcb``, ``dsc``, ``unc``.

    Notes
    -----
    Dimitriadis, Gneiting & Jordan (2021), "Stable reliability diagrams for probabilistic
    classifiers", PNAS 118(8), doi:10.1073/pnas.2016191118: with ``r`` the isotonic (PAV)
    recalibration of the forecasts and ``rbar`` the event rate,
    ``MCB = S(p) - S(r)``, ``DSC = S(rbar) - S(r)``, ``UNC = S(rbar)``, so that
    ``S(p) = MCB - DSC + UNC``.
    """
    gid = isotonic_groups(forecast_values)
    if gid[-1] + 1 < gid.shape[0]:
        starts = np.flatnonzero(np.r_[True, np.diff(gid) > 0])
        events = np.add.reduceat(events, starts, axis=1)
        tot = np.add.reduceat(tot, starts, axis=1)
        if nonevents is not None:
            nonevents = np.add.reduceat(nonevents, starts, axis=1)
    w_tot = tot.sum(axis=1)
    sq_iso = isotonic_recalibration(events, tot, nonevents=nonevents)["sq_err"]
    if nonevents is None:
        return corp_terms(sq_err, sq_iso, events.sum(axis=1), w_tot)
    return corp_terms(sq_err, sq_iso, events.sum(axis=1), w_tot, nonevents.sum(axis=1))


def isotonic_recalibration(
    events: np.ndarray, tot: np.ndarray, *, nonevents: np.ndarray | None = None,
    increasing: bool = True, fitted: bool = False,
) -> dict:
    """The weighted isotonic (PAV) recalibration of a binary event, for B weight vectors.

    The one fit behind every MCB of the library (the CORP decomposition, the calibration
    test's draws, the reliability curve and its band): pools of tied forecasts in, the
    squared error of the recalibrated forecast (and, if asked, the forecast itself) out.

    Parameters
    ----------
    events, tot : (B, G) arrays
        Weight of the rows where the event happened, and of all rows, in each pool of tied
        forecasts (:func:`isotonic_groups`), pools in ascending forecast order (descending
        with ``increasing=False``). Integer weights are welcome. Pools of weight zero in a
        vector are left out of its fit.
    nonevents : (B, G) array, optional
        Weight of the rows where the event did not happen, if the caller holds it: the
        share ``N / T`` is then read off it rather than off ``(T - E) / T``, which cancels
        when the events outweigh the non-events by more than ``1 / eps``.
    increasing : bool, default=True
        Whether the fit rises along the pools (pools in ascending forecast order).
    fitted : bool, default=False
        Also return the recalibrated forecast at each pool.

    Returns
    -------
    dict
        ``sq_err`` (B,): the weighted squared error ``sum_rows w (r - o)^2`` of the
        recalibrated forecast ``r`` (NaN for a vector of weight zero); with ``fitted``,
        ``fitted`` (B, G): ``r`` at each pool (NaN at pools of weight zero).

    Notes
    -----
    PAV (Ayer et al. 1955; Best & Chakravarti 1990) by ``scipy.optimize.isotonic_regression``
    on the pools' event rates ``E / T`` weighted by ``T``: the weighted least-squares
    non-decreasing fit, which is scikit-learn's ``IsotonicRegression`` once forecasts within
    1e-15 are pooled. On a level set of weight ``T`` and event weight ``E`` the fit is
    ``E / T`` and the squared error over its rows ``E (T - E) / T`` -- a sum of
    non-negative terms, the share taken first so that weights near 1e-160 keep their digits.
    The MCB of the forecast is its own squared error minus this one, over the total weight
    (Dimitriadis, Gneiting & Jordan 2021; :func:`corp_terms`).
    """
    b = tot.shape[0]
    sq_err = np.full(b, np.nan)
    fit_at = np.full(tot.shape, np.nan) if fitted else None
    keep = tot > 0  # PAV needs positive weights
    every, used = keep.all(axis=1), np.flatnonzero(keep.any(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = events / tot
    # One PAV fit per vector (scipy's); the sums over its blocks, their shares and the
    # vector's sum of squares are taken for all vectors at once, on the vectors' kept pools
    # laid end to end: per vector they cost more calls than the fit itself.
    e_parts, t_parts, n_parts, starts, offset = [], [], [], [], 0
    for i in used:
        k = slice(None) if every[i] else keep[i]
        t, e = tot[i, k], events[i, k]
        fit = isotonic_regression(rate[i, k], weights=t, increasing=increasing)
        starts.append(fit.blocks[:-1] + offset)
        offset += t.shape[0]
        e_parts.append(e)
        t_parts.append(t)
        if nonevents is not None:
            n_parts.append(nonevents[i, k])
        if fitted:
            fit_at[i, k] = fit.x
    if used.size:
        blocks = np.concatenate(starts)
        ev = np.add.reduceat(np.concatenate(e_parts), blocks)
        if nonevents is None:
            t_l = np.add.reduceat(np.concatenate(t_parts), blocks)
            share = fraction(t_l - ev, t_l)
        else:
            ne = np.add.reduceat(np.concatenate(n_parts), blocks)
            share = fraction(ne, ev + ne)
        # Each vector's sum on its own, pairwise as np.sum adds (reduceat would add in
        # sequence): the numbers of one vector at a time, to the bit.
        terms, stop = ev * share, np.cumsum([s.shape[0] for s in starts])
        sq_err[used] = [np.add.reduce(terms[a:b]) for a, b in zip(np.r_[0, stop[:-1]], stop)]
    out = {"sq_err": sq_err}
    if fitted:
        out["fitted"] = fit_at
    return out


def corp_terms(sq_err, sq_iso, events, w_tot, nonevents=None) -> dict:
    """``score``, ``mcb``, ``dsc``, ``unc`` from the weighted squared errors of the forecast
    and of its isotonic recalibration, the events' weight and the total weight (all (B,));
    ``nonevents`` (the non-events' weight), if given, spares ``1 - rate`` its cancellation."""
    rate = events / w_tot
    unc = rate * (1.0 - rate) if nonevents is None else rate * (nonevents / w_tot)
    score = sq_err / w_tot
    s_iso = sq_iso / w_tot
    return {"score": score, "mcb": score - s_iso, "dsc": unc - s_iso, "unc": unc}
