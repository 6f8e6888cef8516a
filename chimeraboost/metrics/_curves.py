"""ROC and precision-recall curves of one binary score, for one weight vector or many.

Private: :mod:`chimeraboost.metrics._classification` builds the ranking numbers and the CORP
isotonic fit from these two classes, with the pieces of :mod:`chimeraboost.metrics._kernels`
(the buffers of a bootstrap, row-wise dot products, the near-tie rule, the isotonic fit). The questions:

- What is the ROC-AUC of one score for ``B`` weight vectors, fast? :class:`BinaryRocAuc`.
- ROC-AUC, average precision, the rows above a cutoff and the squared error of the isotonic
  recalibration, for ``B`` weight vectors? :class:`BinaryCurves`.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import isotonic_regression

from ._kernels import (
    ISOTONIC_TIE_EPS,
    Workspace,
    fraction,
    isotonic_groups,
    isotonic_recalibration,
    isotonic_starts,
    row_dot,
    sorted_order,
)

__all__ = ["BinaryCurves", "BinaryRocAuc"]


class BinaryRocAuc:
    """ROC-AUC of one binary score for any ``(B, n)`` weights, with one gather per row.

    The AUC is the Mann-Whitney statistic: each positive's weight times the weight of the
    negatives scored below it (ties counting one half), over ``P * N``; equivalently one
    minus the same sum taken over the negatives, with the positives below them. Sorting and
    locating every row of one class among the sorted rows of the other depends only on the
    rows, so it is done once here. A call gathers the weights of both classes, cumulates
    those of the smaller class (a cumulative sum is the slowest pass) and reads, for every
    row of the larger class, the cumulated weight below it. Same number as
    :func:`binary_rank_stats` (which also computes average precision) in a fraction of the
    memory passes: this is what makes a 2,000-replicate bootstrap of 100,000 rows cheap.
    """

    def __init__(self, score: np.ndarray, event: np.ndarray):
        order = sorted_order(np.ascontiguousarray(score, dtype=np.float64))[0]
        # (ties are located by value: any sort will do)
        is_pos = np.asarray(event, dtype=bool)[order]
        pos_rows, neg_rows = order[is_pos], order[~is_pos]
        # Cumulate the smaller class; "flip" means the cumulated class is the positives.
        self.flip = pos_rows.shape[0] < neg_rows.shape[0]
        self.cum_rows, self.read_rows = (pos_rows, neg_rows) if self.flip else (neg_rows, pos_rows)
        s_cum, s_read = score[self.cum_rows], score[self.read_rows]
        # Rows of the cumulated class strictly below each read row, and below or tied.
        self.below = np.searchsorted(s_cum, s_read, side="left")
        self.below_or_tied = np.searchsorted(s_cum, s_read, side="right")
        self.has_ties = bool(np.any(self.below != self.below_or_tied))

    def __call__(self, weights: np.ndarray, work: Workspace | None = None) -> dict:
        """(B, n) weights in row order -> dict of (B,) arrays: ``roc_auc`` (NaN without
        positives or negatives), ``pos`` and ``neg`` (total weight of each class).

        Integer weights (resampling counts) are cumulated in integer arithmetic: exact, and
        the same numbers as their floating-point copy gives."""
        work = Workspace() if work is None else work
        b, m = weights.shape[0], self.cum_rows.shape[0]
        dt = weights.dtype
        read = work.get("auc_read", (b, self.read_rows.shape[0]), dt)
        cum = work.get("auc_cum", (b, m + 1), dt)
        cum[:, 0] = 0
        for i in range(b):  # row by row: a 1-D gather writes into a strided output directly
            # Indices are valid by construction; mode="clip" skips numpy's bounds check.
            np.take(weights[i], self.read_rows, mode="clip", out=read[i])
            np.take(weights[i], self.cum_rows, mode="clip", out=cum[i, 1:])
            np.cumsum(cum[i, 1:], out=cum[i, 1:])
        under = work.get("auc_under", read.shape, dt)
        np.take(cum, self.below, axis=1, mode="clip", out=under)
        pairs = row_dot(read, under).astype(np.float64)
        if self.has_ties:
            np.take(cum, self.below_or_tied, axis=1, mode="clip", out=under)
            # (strictly below + below or tied) / 2: ties count one half.
            pairs = 0.5 * (pairs + row_dot(read, under))
        w_read = read.sum(axis=1).astype(np.float64)
        w_cum = cum[:, -1].astype(np.float64)
        p_tot, n_tot = (w_cum, w_read) if self.flip else (w_read, w_cum)
        with np.errstate(invalid="ignore", divide="ignore"):
            auc = fraction(pairs, p_tot * n_tot)
            if self.flip:
                # pairs counted positives below negatives: the complement of the AUC.
                auc = 1.0 - auc
        auc[(p_tot <= 0) | (n_tot <= 0)] = np.nan
        return {"roc_auc": auc, "pos": p_tot, "neg": n_tot}


def _near_ties(s_desc: np.ndarray, block: int = 1 << 20) -> bool:
    """Whether two neighbours of a descending array differ by less than the isotonic tie
    tolerance, checked block by block (no row-length temporary)."""
    for i in range(0, max(s_desc.shape[0] - 1, 0), block):
        seg = s_desc[i: i + block + 1]
        if np.any(seg[:-1] - seg[1:] < ISOTONIC_TIE_EPS):
            return True
    return False


def _block_kind(events: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per run of rows: 0 if it holds no event, 1 if only events, 2 if both (int8)."""
    some = events > 0
    kind = some.view(np.int8).copy()
    some &= events != rows  # some events, not only events
    kind += some.view(np.int8)
    return kind


class BinaryCurves:
    """Every ranking and calibration number of one binary score from one sort, for any
    ``(B, n)`` weights: ROC-AUC, average precision, the confusion counts of a cutoff, and the
    CORP decomposition's isotonic fit.

    Everything that depends only on the rows is done here, once: the sort (descending score),
    the split of the sorted rows into positives and negatives, and where each positive stands
    among the negatives. A call then gathers each class's weights in score order and cumulates
    them (one pass over the rows, two cumulative sums that together have ``n`` terms); every
    number is read off those two cumulative sums:

    - a positive row's true-positive weight at its own threshold is the positives' cumulated
      weight down to its last tie, the false-positive weight the negatives' cumulated weight
      at or above its score; ROC-AUC (ties count one half) and average precision
      (scikit-learn's step-wise definition) are dot products with the positives' weights;
    - a cutoff whose flagged rows are the highest-scored ones (``p_1 > p_0``) has its true
      and false positives at one index of each cumulative sum;
    - the isotonic recalibration works on *blocks*: maximal runs of consecutive forecasts
      whose rows are all events, or all non-events, and single forecasts holding both. The
      pool-adjacent-violators solution is constant on a run of equal outcomes (a block of the
      solution ending inside such a run would have a last point below its mean and the next
      block a first point above its own, contradicting monotonicity), so pooling the runs
      first leaves it unchanged. Neighbouring blocks that every weighting pools are then
      merged (see ``_set_bounds``): with a 20% base rate and a useful score there are about
      a seventh as many blocks as rows. The blocks are the same for every weight vector (an
      empty one drops out), and their weights are differences of the cumulative sums; for
      many weight vectors PAV runs only on the points near each one's majorant
      (``_isotonic``).

    Notes
    -----
    Pool adjacent violators: Ayer, Brunk, Ewing, Reid & Silverman (1955), Ann. Math. Statist.
    26(4), 641-647, doi:10.1214/aoms/1177728423; Best & Chakravarti (1990), Math. Program.
    47, 425-439, doi:10.1007/BF01580873 (computed by ``scipy.optimize.isotonic_regression``).
    """

    def __init__(self, score: np.ndarray, event: np.ndarray, pred=None):
        # A column of an (n, K) matrix is gathered many times below: contiguous first.
        score = np.ascontiguousarray(score, dtype=np.float64)
        n = score.shape[0]
        # Rows of one forecast are grouped by value, never by position: any sort will do.
        order, s = sorted_order(score)
        order, s = order[::-1].copy(), s[::-1].copy()  # descending, contiguous
        e = np.asarray(event, dtype=bool)[order]
        flagged = None if pred is None else np.asarray(pred)[order] == 1
        at = np.flatnonzero(e)  # positions of the positives in descending order
        self.pos_rows, self.neg_rows = order[at], order[~e]
        del order  # memory: the rows' arrays below are built one at a time
        n_pos = self.pos_rows.shape[0]
        new = np.empty(n, dtype=bool)  # first row of each distinct forecast
        new[:1] = True
        np.not_equal(s[1:], s[:-1], out=new[1:])
        ties = np.count_nonzero(new) < n
        # Positives among the first k rows; 32-bit counts where they fit halve the memory.
        small = np.int32 if n < np.iinfo(np.int32).max else np.int64
        cum_e = np.zeros(n + 1, dtype=small)
        np.cumsum(e.view(np.int8), out=cum_e[1:], dtype=small)
        self.neg_ties = self.pos_ties = False
        starts = None
        if not ties:  # every forecast is its own group
            self.neg_gt = self.neg_ge = at - np.arange(n_pos)
            self.pos_ge = None
        else:
            # Negatives scored > / >= each positive, positives scored >= it: counts before
            # the first and after the last row of its group of tied forecasts.
            starts = np.flatnonzero(new)
            gid = np.cumsum(new, dtype=small)[at] - 1
            first, last = starts[gid], np.append(starts[1:], n)[gid]
            self.neg_gt = first - cum_e[first]
            self.pos_ge = cum_e[last].astype(np.intp)
            self.neg_ge = last - self.pos_ge
            self.neg_ties = bool(np.any(self.neg_ge != self.neg_gt))
            self.pos_ties = bool(np.any(self.pos_ge != np.arange(1, n_pos + 1)))
        del new
        self._init_blocks(s, e, starts, cum_e)
        self._hull = None  # built by the first call with several weight vectors
        self.cut = None
        if flagged is not None:
            m = int(np.count_nonzero(flagged))
            # The cutoff form applies when the flagged rows are exactly the m highest-scored
            # and no tie straddles the cut.
            if flagged[:m].all() and (m in (0, n) or s[m - 1] != s[m]):
                m_pos = int(cum_e[m])
                self.cut = (m_pos, m - m_pos)

    def _init_blocks(self, s, e, starts, cum_e) -> None:
        """Blocks for the isotonic fit; ``starts`` (first row of each distinct forecast) is
        None when every row has its own forecast."""
        n = s.shape[0]
        if starts is None and _near_ties(s):
            self._init_blocks_near_ties(s, e, cum_e)
            return
        if starts is not None:
            values = s[starts]  # distinct forecasts, descending
            if np.any(values[:-1] - values[1:] < ISOTONIC_TIE_EPS):
                gid = isotonic_groups(values[::-1])[::-1]  # their isotonic groups
                keep = np.r_[True, gid[1:] != gid[:-1]]
                starts = starts[keep]  # first row of each isotonic group
            if starts.shape[0] == n:
                starts = None
        if starts is None:
            # One row per forecast: a block opens where the outcome changes.
            opens = np.empty(n, dtype=bool)
            opens[:1] = True
            np.not_equal(e[1:], e[:-1], out=opens[1:])
            b_start = np.flatnonzero(opens)
        else:
            bounds = np.append(starts, n)
            kind = _block_kind(np.diff(cum_e[bounds]), np.diff(bounds))
            opens = np.empty(starts.shape[0], dtype=bool)
            opens[:1] = True
            opens[1:] = (kind[1:] == 2) | (kind[1:] != kind[:-1])
            b_start = starts[opens]
        self._set_bounds(b_start, cum_e, n)

    def _init_blocks_near_ties(self, s, e, cum_e) -> None:
        """Blocks when no two rows share a forecast but some differ by less than 1e-15:
        row-level flags only (no per-group arrays, which would be as long as the rows)."""
        n = s.shape[0]
        iso_open = np.empty(n, dtype=bool)  # the row opens an isotonic group (descending)
        iso_open[:1] = True
        iso_open[1:] = isotonic_starts(s[::-1])[:0:-1]
        kind = e.astype(np.int8)  # 0 / 1: the group's rows are all non-events / events
        cont = np.flatnonzero(~iso_open)  # rows that continue a group: few
        if cont.shape[0]:
            runs = np.split(cont, np.flatnonzero(np.diff(cont) != 1) + 1)
            for run in runs:
                lo, hi = run[0] - 1, run[-1] + 1
                if e[lo:hi].any() and not e[lo:hi].all():
                    kind[lo:hi] = 2  # a group holding both outcomes
        opens = np.empty(n, dtype=bool)
        opens[:1] = True
        np.not_equal(kind[1:], kind[:-1], out=opens[1:])
        opens[1:] |= kind[1:] == 2
        opens &= iso_open
        self._set_bounds(np.flatnonzero(opens), cum_e, n)

    def _set_bounds(self, b_start, cum_e, n) -> None:
        # Blocks in descending score order; the isotonic fit does not increase along them.
        # Two neighbouring blocks whose event rates are sure to violate that order (or tie)
        # in every weighting are pooled by any fit, so they are pooled here, once: a block
        # of non-events (rate 0) with the next block, a block of events (rate 1) with the
        # previous one. (If the rate of a block is at most that of the next non-empty one,
        # a fit that separated them could move both towards each other and lower the
        # squared error; an empty block pools with anything.) With scores that rank well,
        # this halves the points the fit sees in every replicate.
        bounds = np.append(b_start, n)
        kind = _block_kind(np.diff(cum_e[bounds]), np.diff(bounds))
        split = (kind[:-1] != 0) & (kind[1:] != 1)
        bounds = bounds[np.r_[True, split, True]]
        # Block j holds the positives [pos_bounds[j], pos_bounds[j + 1]) of the positives in
        # descending score order, and likewise for the negatives.
        self.pos_bounds = cum_e[bounds].astype(np.intp)
        self.neg_bounds = bounds - self.pos_bounds

    def __call__(self, weights: np.ndarray, corp: bool = True,
                 work: Workspace | None = None) -> dict:
        """(B, n) weights in row order (None: every row weighs 1) -> dict of (B,) arrays:
        ``roc_auc``, ``pr_auc``,
        ``pos``, ``neg`` (class weights), ``sq_iso`` (weighted squared error of the isotonic
        recalibration, if ``corp``), ``tp_cut`` and ``fp_cut`` (if a cutoff was given).

        Integer weights (resampling counts) are gathered and cumulated in integer arithmetic
        (exact, and several times faster than floating point); every number is the one
        their floating-point copy gives. ``work`` keeps the buffers between calls.
        """
        work = Workspace() if work is None else work
        n_pos, n_neg = self.pos_rows.shape[0], self.neg_rows.shape[0]
        if weights is None:
            # Every row weighs 1 (a point estimate without sample weights): the cumulated
            # weights are the row counts, exact in integers; nothing to gather.
            b, dt = 1, np.int64
            w_pos = np.ones((1, n_pos), dtype=dt)
            cp = np.arange(n_pos + 1, dtype=dt)[None, :]
            cn = np.arange(n_neg + 1, dtype=dt)[None, :]
        else:
            b, dt = weights.shape[0], weights.dtype
            w_pos = work.get("bc_w_pos", (b, n_pos), dt)
            cp = work.get("bc_cp", (b, n_pos + 1), dt)
            cn = work.get("bc_cn", (b, n_neg + 1), dt)
            cp[:, 0] = cn[:, 0] = 0
            for i in range(b):
                # Gather into the outputs and cumulate in place: no row-length temporary.
                # Indices are valid by construction; mode="clip" skips numpy's bounds check.
                np.take(weights[i], self.pos_rows, mode="clip", out=w_pos[i])
                np.cumsum(w_pos[i], out=cp[i, 1:])
                np.take(weights[i], self.neg_rows, mode="clip", out=cn[i, 1:])
                np.cumsum(cn[i, 1:], out=cn[i, 1:])
        p_tot, n_tot = cp[:, -1].astype(np.float64), cn[:, -1].astype(np.float64)
        fp = work.get("bc_fp", (b, n_pos), dt)
        np.take(cn, self.neg_ge, axis=1, mode="clip", out=fp)
        # Pairs with the negative above the positive (ties one half): 1 - AUC.
        pairs = row_dot(w_pos, fp).astype(np.float64)
        if self.neg_ties:
            gt = work.get("bc_gt", (b, n_pos), dt)
            np.take(cn, self.neg_gt, axis=1, mode="clip", out=gt)
            pairs = 0.5 * (pairs + row_dot(w_pos, gt))
        if self.pos_ties:
            tp = work.get("bc_tp", (b, n_pos), dt)
            np.take(cp, self.pos_ge, axis=1, mode="clip", out=tp)
        else:
            tp = cp[:, 1:]
        out = {"pos": p_tot, "neg": n_tot}
        if self.cut is not None:
            out["tp_cut"] = cp[:, self.cut[0]].astype(np.float64)
            out["fp_cut"] = cn[:, self.cut[1]].astype(np.float64)
        flagged = np.add(tp, fp, out=fp)  # fp's buffer becomes the flagged weight
        if dt == np.float64:
            # The precision, 0 where nothing is flagged, in the same buffer.
            precision = np.divide(tp, flagged, out=flagged, where=flagged > 0)
            w_float = w_pos
        else:
            # Nothing flagged means no positive at or above: 0 / 1 gives the precision 0.
            np.maximum(flagged, 1, out=flagged)
            precision = np.divide(tp, flagged, out=work.get("bc_prec", (b, n_pos)))
            w_float = work.get("bc_w_float", (b, n_pos))
            np.copyto(w_float, w_pos)
        with np.errstate(invalid="ignore", divide="ignore"):
            auc = 1.0 - fraction(pairs, p_tot * n_tot)
            ap = fraction(row_dot(w_float, precision), p_tot)
        auc[(p_tot <= 0) | (n_tot <= 0)] = np.nan
        ap[p_tot <= 0] = np.nan
        out["roc_auc"], out["pr_auc"] = auc, ap
        if corp:
            out["sq_iso"] = self._isotonic(cp, cn, work)
        return out

    def _isotonic(self, cp: np.ndarray, cn: np.ndarray, work: Workspace) -> np.ndarray:
        """Weighted squared error of the isotonic recalibration, for each weight vector.

        The fit is read off the *cumulative diagram*: the points ``(T_j, E_j)``, total and
        event weight of the blocks above boundary ``j``. The non-increasing fit's level sets
        run between the vertices of the diagram's least concave majorant (its slopes are the
        recalibrated forecasts), so a point strictly below a chord between two other points
        is no vertex, and dropping it changes nothing. For many weight vectors (a
        bootstrap) the chords are taken between the vertices of the unit-weight diagram:
        each replicate keeps the few points near its own majorant (about one in eight at
        100,000 rows), and PAV runs on the increments between them. On each level set of
        weight ``T`` and event weight ``E`` the recalibrated forecast is ``E / T``, and the
        squared error over its rows is ``E (T - E) / T`` (:func:`isotonic_recalibration`,
        the kernel every MCB is computed with).
        """
        b, g = cp.shape[0], self.pos_bounds.shape[0] - 1
        E = work.get("iso_E", (b, g + 1), cp.dtype)
        T = work.get("iso_T", (b, g + 1), cp.dtype)
        np.take(cp, self.pos_bounds, axis=1, mode="clip", out=E)
        np.take(cn, self.neg_bounds, axis=1, mode="clip", out=T)
        T += E
        keep = self._hull_candidates(T, E, work) if b > 1 else None
        sq_iso = np.full(b, np.nan)
        for i in range(b):
            t_i, e_i = T[i], E[i]
            if keep is not None:
                at = np.flatnonzero(keep[i])
                t_i, e_i = t_i[at], e_i[at]
            # Points run from the highest forecast down: the fit decreases along them.
            sq_iso[i] = isotonic_recalibration(np.diff(e_i)[None], np.diff(t_i)[None],
                                               increasing=False)["sq_err"][0]
        return sq_iso

    def _hull_candidates(self, T: np.ndarray, E: np.ndarray, work: Workspace) -> np.ndarray:
        """(B, G + 1) bool: the diagram points that may be vertices of each replicate's
        majorant (not strictly below the chord between the unit-weight diagram's vertices
        on either side of them). Exact in integer arithmetic; with floating-point weights a
        point within rounding of a chord may be dropped, which moves the fit by rounding."""
        if self._hull is None:
            e0 = self.pos_bounds
            t0 = e0 + self.neg_bounds  # unit weights: the rows above each boundary
            fit = isotonic_regression(np.diff(e0) / np.diff(t0), weights=np.diff(t0),
                                      increasing=False)
            vertex = fit.blocks
            j = np.arange(t0.shape[0])
            left = vertex[np.searchsorted(vertex, j, side="right") - 1]
            right = vertex[np.minimum(np.searchsorted(vertex, j, side="left"),
                                      vertex.shape[0] - 1)]
            is_vertex = np.zeros(t0.shape[0], dtype=bool)
            is_vertex[vertex] = True
            self._hull = (left, right, is_vertex)
        left, right, is_vertex = self._hull
        a = work.get("hull_a", T.shape, T.dtype)
        c = work.get("hull_c", T.shape, T.dtype)
        d = work.get("hull_d", T.shape, T.dtype)
        f = work.get("hull_f", T.shape, T.dtype)
        np.take(E, left, axis=1, mode="clip", out=a)
        np.subtract(E, a, out=c)  # E - E_left
        np.take(E, right, axis=1, mode="clip", out=d)
        np.subtract(d, a, out=d)  # E_right - E_left
        np.take(T, left, axis=1, mode="clip", out=a)
        np.take(T, right, axis=1, mode="clip", out=f)
        np.subtract(f, a, out=f)  # T_right - T_left
        np.subtract(T, a, out=a)  # T - T_left
        # Strictly below the chord: (E - E_l) / (T - T_l) < (E_r - E_l) / (T_r - T_l),
        # cross-multiplied (all differences are non-negative).
        np.multiply(c, f, out=c)
        np.multiply(d, a, out=d)
        keep = np.greater_equal(c, d, out=work.get("hull_keep", T.shape, bool))
        keep |= is_vertex
        return keep
