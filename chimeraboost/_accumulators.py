"""Metrics over chunks: accumulators updated piece by piece, merged, then reported.

Re-exported by :mod:`chimeraboost.metrics`. Questions this module answers:

- My predictions do not fit in memory, or are produced in pieces (per file, per worker, per
  day): what is the report on all the rows? :class:`ClassificationAccumulator`,
  :class:`RegressionAccumulator` (the latter in :mod:`chimeraboost._regression_accumulator`,
  with the scaling and merging rules of this module) (``update`` per chunk, ``merge`` across
  processes, ``report`` at the end: the keys of ``classification_report`` /
  ``regression_report``).
- Which of those numbers are exact, and how far off can the others be?
  ``error_bounds()`` of either accumulator.

An accumulator keeps sums, never rows: its size does not grow with the number of rows (about
100 KB per class column, under 90 KB for regression, pickled), so it travels between
processes.
"""

from __future__ import annotations

import numpy as np

from . import _kernels
from .exceptions import warn as _warn
from ._classification import (
    _EVALUATOR_KEYS,
    ClassificationEvaluator,
    _baseline_prior,
    _mean_defined,
    _skill,
    ref_brier,
    ref_log_loss,
)
from ._validation import (
    check_aligned,
    check_classes,
    check_numeric_1d,
    check_positive_int,
    check_proba,
    check_same_length,
    check_sample_weight,
    encode_labels,
    unit_scale,
)

__all__ = ["ClassificationAccumulator"]

_EPS = np.finfo(np.float64).eps
# The score grid spans logit(p) in [-20, 20] (p from 2e-9 to 1 - 2e-9); the first and last bins
# also take everything beyond. Uniform in the logit, so that a rare-event score near 0 and a
# near-separable one near 1 are resolved as finely (relatively) as scores near 1/2.
_LOGIT_SPAN = 20.0
# report() warns that the grid cannot resolve the scores beyond a worst-case ROC-AUC error of
# 1e-2 (continuous scores on 4096 bins stay near 1e-3 and below). The weight in one bin is no
# sign: a tree model's leaf value or a clipped probability puts many rows on one score, which
# the grid keeps exactly.
_UNRESOLVED_AUC = 1e-2


def _exponent(c: float) -> int:
    """``e`` with ``c == 2.0 ** e``, for a power of two ``c`` (subnormals included)."""
    return int(np.frexp(c)[1]) - 1


def _rows(x) -> int:
    try:
        return len(x)
    except TypeError:
        return -1  # a scalar or the like: the validation names it


def _chunk_weights(sample_weight, n: int):
    """``(w / 2**e, e)`` for a chunk, ``(None, 0)`` without weights.

    A chunk whose weights are all zero is legal (other chunks may carry the weight) and has
    no scale (``e`` None: it must not set the accumulator's); every other check is
    ``check_sample_weight``'s, with its messages.
    """
    if sample_weight is None:
        return None, 0
    w = check_numeric_1d(sample_weight, "sample_weight")
    if w.shape[0] == n and not np.any(w):
        return w, None
    w = check_sample_weight(w, n)
    w, c = unit_scale(w)
    return w, _exponent(c)


def _check_mergeable(self, other, what: list) -> None:
    """``other`` is an accumulator of the same kind, built with the same ``(name, mine,
    theirs)`` settings."""
    if not isinstance(other, type(self)):
        msg = f"other must be a {type(self).__name__}, got {type(other).__name__}."
        raise TypeError(msg)
    for name, mine, theirs in what:
        if not (mine is None and theirs is None) and (
                mine is None or theirs is None or not _equal(mine, theirs)):
            msg = (f"other has {name} {_shown(theirs)}, this accumulator {_shown(mine)}; only "
                   f"accumulators built with the same {name} can be merged.")
            raise ValueError(msg)


def _equal(a, b) -> bool:
    # As Python lists: numpy 1.x warns when asked to compare string labels with numbers.
    return np.shape(a) == np.shape(b) and np.asarray(a).tolist() == np.asarray(b).tolist()


# The layout of an accumulator's state; raised whenever what the sums mean changes, so that an
# accumulator pickled by another version (a worker running an older release) is refused
# rather than merged into wrong numbers.
_FORMAT = 2


class _Pickled:
    """Pickling with the layout's version: another version's state is refused on load."""

    def __getstate__(self):
        return {**self.__dict__, "_format": _FORMAT}

    def __setstate__(self, state):
        if state.get("_format") != _FORMAT:
            msg = (f"This {type(self).__name__} was pickled by another version of chimeraboost, "
                   "whose sums mean other things; accumulators travel only between processes "
                   "running the same version: install it on every worker and rebuild it.")
            raise ValueError(msg)
        self.__dict__.update({k: v for k, v in state.items() if k != "_format"})


def _shown(value):
    return value.tolist() if isinstance(value, np.ndarray) else value


# --------------------------------------------------------------------------- scores


class _ScoreSummary:
    """Weight of the non-events and of the events per score value: exact, or on the grid.

    While the scores seen take at most ``cap`` distinct values (0/1 rules, rounded scores),
    each value keeps its own sums and every ranking and calibration number is exact. Beyond
    that the sums move to ``bins`` bins uniform in ``logit(p)``, and stay there. Whether the
    cap is exceeded depends on the set of values seen, not on how they were split into chunks
    or in which order the summaries were merged, and so does the result.

    ``sums`` is a (3, G) array per value or bin: the weight of the non-events, of the
    events, and the events' squared weights (for the expected precision inside a bin). The
    non-events' weight is kept, not the total: deriving it as total minus events cancels when
    the events outweigh it by more than ``1 / eps`` (weights 1e20 and 1), and totals are
    sums of the two, which cannot cancel.
    """

    def __init__(self, bins: int):
        self.bins, self.cap = bins, bins // 2
        self.values = np.empty(0)  # ascending distinct scores; None on the grid
        self.sums = np.zeros((3, 0))

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
        """(3, size) sums of rows grouped by ``index``."""
        out = np.empty((3, size))
        out[0] = np.bincount(index[~event], weights=None if w is None else w[~event],
                             minlength=size)
        index = index[event]
        w = None if w is None else w[event]
        out[1] = np.bincount(index, weights=w, minlength=size)
        out[2] = out[1] if w is None else np.bincount(index, weights=w * w, minlength=size)
        return out

    def _to_grid(self) -> None:
        if self.values is not None:
            self.sums = self._binned(self.values, self.sums)
            self.values = None

    def _binned(self, values, sums) -> np.ndarray:
        b = self.bin_of(values)
        return np.stack([np.bincount(b, weights=row, minlength=self.bins) for row in sums]
                        ).astype(np.float64)

    def update(self, s: np.ndarray, event: np.ndarray, w) -> None:
        """Add rows with scores ``s``, event indicators and weights (None: ones)."""
        if self.values is not None and not self._update_exact(s, event, w):
            self._to_grid()
        if self.values is None:
            self.sums += self._sums(self.bin_of(s), event, w, self.bins)

    def _update_exact(self, s, event, w) -> bool:
        """Add the rows to the exact sums; False (nothing added) if the cap would be exceeded."""
        # A cheap look first: a continuous score shows more than `cap` values in its first
        # rows, and the searches below are then never paid.
        if np.unique(s[: 4 * self.cap]).shape[0] > self.cap:
            return False
        values = self.values
        pos = np.minimum(np.searchsorted(values, s), max(values.shape[0] - 1, 0))
        hit = values[pos] == s if values.shape[0] else np.zeros(s.shape[0], dtype=bool)
        if not hit.all():
            union = np.union1d(values, s[~hit])
            if union.shape[0] > self.cap:
                return False
            self._reindex(union)
            pos = np.searchsorted(union, s)
        self.sums += self._sums(pos, event, w, self.values.shape[0])
        return True

    def _reindex(self, union: np.ndarray) -> None:
        sums = np.zeros((3, union.shape[0]))
        sums[:, np.searchsorted(union, self.values)] = self.sums
        self.values, self.sums = union, sums

    def merge(self, other: _ScoreSummary, shift: int) -> None:
        """Add ``other``'s sums, multiplied by ``2 ** shift``."""
        theirs = np.ldexp(other.sums, np.array([shift, shift, 2 * shift])[:, None])
        if self.values is not None and other.values is not None:
            union = np.union1d(self.values, other.values)
            if union.shape[0] <= self.cap:
                self._reindex(union)
                self.sums[:, np.searchsorted(union, other.values)] += theirs
                return
        self._to_grid()
        self.sums += theirs if other.values is None else self._binned(other.values, theirs)

    def scale(self, shift: int) -> None:
        self.sums = np.ldexp(self.sums, np.array([shift, shift, 2 * shift])[:, None])

    def groups(self):
        """(values, events, totals, non-events) of the non-empty groups, ascending."""
        values = self.centres() if self.values is None else self.values
        keep = self.tot > 0
        return values[keep], self.ev[keep], self.tot[keep], self.neg[keep]

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
        every bin; this errs by its curvature.
        """
        keep = self.tot > 0
        neg, pos, pos2 = (row[keep][::-1] for row in self.sums)  # top down
        tot = neg + pos
        p_tot = pos.sum()
        if p_tot <= 0:
            return float("nan")
        with np.errstate(invalid="ignore", divide="ignore"):
            m = np.where(pos > 0, pos2 / pos, 0.0)
            a, c = np.cumsum(pos) - pos + m, np.cumsum(tot) - tot + m
            b = pos - m
            d = neg + b  # tot - m, without cancelling neg against pos
            ratio = d / c
            mean_prec = np.where(
                c <= 0, b / d,  # the top bin, its events' weights negligible: T = F = 0
                np.where(ratio > 1e-8, b / d + (a - b / ratio) * np.log1p(ratio) / d,
                         a / c))  # a bin of one row, or negligible against the rows above
        mean_prec = np.where(pos > 0, np.clip(mean_prec, 0.0, 1.0), 0.0)
        return float(_kernels.fraction(np.sum(pos * mean_prec), p_tot))

    def bounds(self) -> tuple:
        """Worst-case errors of (ROC-AUC, average precision) from pooling inside grid bins."""
        if self.values is not None:
            return 0.0, 0.0
        _, pos, tot, neg = self.groups()
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
        _, pos, tot, neg = self.groups()
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


# --------------------------------------------------------------------------- classification


class ClassificationAccumulator(_Pickled):
    """The classification report of many chunks of rows, without keeping the rows.

    ``update`` adds a chunk (checked as :func:`chimeraboost.metrics.classification_report`
    checks its input, with the same messages), ``merge`` adds another accumulator (from
    another process), ``report`` returns the keys of ``classification_report`` on all the
    rows seen.

    Parameters
    ----------
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    baseline : None, array-like of targets, or mapping, default=None
        The no-skill forecast, as in ``classification_report``: ``None`` for the class prior
        of all the rows seen, targets (``y_train``) for theirs, ``{label: probability}``.
    bins : int, default=4096
        Size of the score grid per class column (see Notes); the scores are kept exactly
        while they take at most ``bins // 2`` distinct values.

    Attributes
    ----------
    n : int
        Rows seen so far.

    Notes
    -----
    **Exact** (to rounding, 1e-9 relative or better): ``n``, ``base_rate``, ``positives``,
    ``log_loss`` (``_ref``, ``_skill``), ``brier`` (``_ref``, ``_skill``), ``uncertainty_unc``,
    ``accuracy``, ``balanced_accuracy``, ``f1_macro``, ``reference_prior``: they are sums over
    rows.

    **Approximate**: ``roc_auc``, ``pr_auc``, ``pr_auc_lift``, ``calibration_mcb``,
    ``discrimination_dsc`` need the rows in score order. Each class column keeps the weight of
    all rows and of the class's rows per score value while there are at most ``bins // 2``
    distinct values -- then these numbers are **exact** (0/1 rules, scores rounded to 3
    decimals). Beyond that it keeps them per bin of a fixed grid: ``bins`` bins uniform in
    ``logit(p)`` over [-20, 20] (width 0.0098: a relative step of about 1% in ``p`` near 0
    and in ``1 - p`` near 1), the end bins open. Rows in one bin count as tied for ROC-AUC
    (each positive-negative pair in a bin one half: the error is at most the weight of such
    pairs over ``2 P N``); for average precision they are taken in random order (the expected
    precision along the bin, see ``_ScoreSummary.grid_average_precision``); the isotonic fit
    of the CORP decomposition is constant inside a bin (the Brier score of the forecast itself
    stays exact, so MCB and DSC err only by what the pooling changes in the fit, and both can
    only come out lower; MCB is reported as at least 0, as the exact one is, and DSC so that
    ``MCB - DSC + UNC`` stays the class's Brier term). :meth:`error_bounds` gives the
    worst-case error of ``roc_auc``, ``pr_auc``, ``pr_auc_lift``, ``calibration_mcb`` and
    ``discrimination_dsc`` for the rows seen: that is the guarantee. Measured against the
    in-memory report on 200,000 and 1,000,000 rows, four seeds each, with uniform, beta(0.5,
    5), rare-event (1% base rate) and near-separable scores: ``roc_auc`` within 2e-5,
    ``pr_auc`` within 3e-5, ``pr_auc_lift`` within 2e-4 of itself, MCB and DSC within 5e-5 (a
    three-class problem: the same). Fewer rows put more weight on each bin's ties: at 20,000
    rows with a 1% base rate the lift was off by up to 1.6e-2 of itself (four seeds), within
    the bound. When the scores sit in a few bins (all within 1e-3 of each other, or all below
    2e-9), the grid cannot resolve them and :meth:`report` warns
    (``DegenerateMetricWarning``, with the worst-case ROC-AUC error) when the ROC-AUC bound
    exceeds 1e-2.

    The grid does not depend on the data, so the result depends on which rows were seen, not
    on how they were split into chunks or in which order accumulators were merged (beyond
    the rounding of sums). Weights are summed on a power-of-two scale per chunk, brought to
    a common exponent on merge (exact), so that weights of 1e-170, 1e160 or 5e-324 give the
    unweighted numbers. A chunk whose weights are all zero is accepted (the check that some
    weight is positive is made by :meth:`report`). Pickled size at ``bins=4096``: 99 KB for
    a binary problem, 296 KB for three classes (about 98 KB a class column), less while the
    scores are kept exactly; it never grows with the rows.

    Examples
    --------
    Two chunks, then the report of all four rows (as ``classification_report`` would give):

    >>> acc = ClassificationAccumulator(classes=[0, 1])
    >>> acc = acc.update([0, 1], [0.2, 0.6]).update([1, 0], [0.9, 0.4])
    >>> r = acc.report()
    >>> acc.n, round(r["brier"], 4), r["roc_auc"]
    (4, 0.185, 1.0)
    """

    def __init__(self, classes, *, baseline=None, bins: int = 4096):
        self.classes = check_classes(classes)
        self.n_classes = self.classes.shape[0]
        self.base_prior = None if baseline is None else _baseline_prior(baseline, self.classes)
        self.bins = check_positive_int(bins, "bins", minimum=16)
        K = self.n_classes
        self.n = 0
        self._exp = None  # weights are summed in units of 2 ** _exp
        self._class_w = np.zeros(K)
        self._cm = np.zeros(K * K)
        self._sq = np.zeros(1 if K == 2 else K)
        self._loss = np.zeros(2)  # log loss, Brier (K-sum)
        self._cols = [_ScoreSummary(self.bins) for _ in range(1 if K == 2 else K)]

    # -- chunks in

    def update(self, y, proba, sample_weight=None) -> ClassificationAccumulator:
        """Add a chunk of rows; returns ``self``.

        Parameters
        ----------
        y : array-like of shape (n,)
            True labels, each one of ``classes``.
        proba : array-like of shape (n, K), or (n,) for binary
            Predicted probabilities, columns in the order of ``classes``.
        sample_weight : array-like of shape (n,), default=None
        """
        from .metrics import _require_proba  # noqa: PLC0415 - metrics imports this module

        _require_proba(proba)
        if _rows(y) == 0 and _rows(proba) == 0 and (
                sample_weight is None or _rows(sample_weight) == 0):
            return self
        check_aligned(y=y, proba=proba, sample_weight=sample_weight)
        codes = encode_labels(y, self.classes, "y")
        p = check_proba(proba, self.classes, "proba")
        n = check_same_length(y=codes, proba=p)
        w, e = _chunk_weights(sample_weight, n)
        self._add(self._chunk_sums(codes, p, w, n), e)
        return self

    def _chunk_sums(self, codes, p, w, n) -> dict:
        K = self.n_classes
        p_true = np.take_along_axis(p, codes[:, None], axis=1)[:, 0]
        # Per row, as the in-memory evaluator: K-sum Brier and clipped log loss.
        brier = np.square(p[:, 0])
        for j in range(1, K):
            brier += np.square(p[:, j])
        brier -= 2.0 * p_true
        brier += 1.0
        ll = -np.log(np.clip(p_true, _EPS, 1 - _EPS))
        pred = (p[:, 1] > p[:, 0]).astype(np.intp) if K == 2 else np.argmax(p, axis=1)
        dot = (lambda v: float(np.sum(v))) if w is None else (lambda v: float(w @ v))
        out = {
            "n": n,
            "class_w": np.bincount(codes, weights=w, minlength=K).astype(np.float64),
            "cm": np.bincount(codes * K + pred, weights=w, minlength=K * K).astype(np.float64),
            "loss": np.array([dot(ll), dot(brier)]),
        }
        keep = None if w is None or np.all(w > 0) else w > 0  # zero weights: rows dropped
        cols = [1] if K == 2 else range(K)
        sq, scores = [], []
        for j in cols:
            s, event = p[:, j], codes == j
            sq.append(dot(np.square(s - event)))
            if keep is not None:
                s, event = s[keep], event[keep]
            scores.append((s, event))
        out["sq"] = np.array(sq)
        out["scores"] = scores
        out["w"] = w if keep is None else w[keep]
        return out

    def _align(self, e: int) -> int:
        """Bring the sums to the exponent ``max(self, e)``; returns the shift for ``e``'s
        (0 for sums without a scale, ``e`` None, which are zero)."""
        if e is None:
            return 0
        if self._exp is None:
            self._exp = e
        if e > self._exp:
            shift = self._exp - e
            self._class_w, self._cm, self._sq, self._loss = (
                np.ldexp(a, shift) for a in (self._class_w, self._cm, self._sq, self._loss))
            for col in self._cols:
                col.scale(shift)
            self._exp = e
        return e - self._exp

    def _add(self, c: dict, e: int) -> None:
        shift = self._align(e)
        self.n += c["n"]
        self._class_w += np.ldexp(c["class_w"], shift)
        self._cm += np.ldexp(c["cm"], shift)
        self._sq += np.ldexp(c["sq"], shift)
        self._loss += np.ldexp(c["loss"], shift)
        w = c["w"]
        if w is not None and shift:
            w = np.ldexp(w, shift)
        for col, (s, event) in zip(self._cols, c["scores"]):
            col.update(s, event, w)

    def merge(self, other: ClassificationAccumulator) -> ClassificationAccumulator:
        """Add the rows of ``other`` (an accumulator with the same classes, baseline and
        bins); returns ``self``."""
        _check_mergeable(self, other, [
            ("classes", self.classes, getattr(other, "classes", None)),
            ("baseline prior", self.base_prior, getattr(other, "base_prior", None)),
            ("bins", self.bins, getattr(other, "bins", None))])
        if other.n == 0:
            return self
        shift = self._align(other._exp)
        self.n += other.n
        self._class_w += np.ldexp(other._class_w, shift)
        self._cm += np.ldexp(other._cm, shift)
        self._sq += np.ldexp(other._sq, shift)
        self._loss += np.ldexp(other._loss, shift)
        for col, theirs in zip(self._cols, other._cols):
            col.merge(theirs, shift)
        return self

    # -- numbers out

    def report(self) -> dict:
        """The keys of :func:`chimeraboost.metrics.classification_report` on all rows seen,
        with the same warnings for degenerate input.

        Raises
        ------
        ValueError
            If no row was seen, or all rows seen have weight zero.
        """
        ws = self._total_weight()
        K = self.n_classes
        r = _kernels.fraction(self._class_w, ws)[None, :]
        single = np.sum(r > 0, axis=1) < 2
        one = np.ones(1)
        out = {"base_rate": r[:, 1] if K == 2 else r,
               "positives": r[:, -1] * ws * 2.0 ** self._exp}
        q = r if self.base_prior is None else self.base_prior
        undefined = single if self.base_prior is None else np.zeros_like(single)
        out["log_loss"] = self._loss[0] / ws * one
        out["log_loss_ref"] = ref_log_loss(r, q)
        out["brier"] = self._loss[1] / ws * one
        out["brier_ref"] = ref_brier(r, q)
        out["log_loss_skill"] = _skill(out["log_loss"], out["log_loss_ref"],
                                       undefined | np.isinf(out["log_loss_ref"]))
        out["brier_skill"] = _skill(out["brier"], out["brier_ref"], undefined)
        groups = [col.groups() for col in self._cols]
        corp = [_kernels.corp_decomposition(v, ev[None], tot[None], self._sq[j:j + 1],
                                            nonevents=neg[None])
                for j, (v, ev, tot, neg) in enumerate(groups)]
        for col, c in zip(self._cols, corp):
            if col.values is None:
                # The exact MCB is >= 0 and pooling in bins can only lower it: a negative
                # grid value says the bins are too coarse. DSC keeps the identity
                # score = MCB - DSC + UNC per class.
                c["mcb"] = np.maximum(c["mcb"], 0.0)
                c["dsc"] = c["unc"] - c["score"] + c["mcb"]
        out["calibration_mcb"] = np.mean([c["mcb"] for c in corp], axis=0)
        out["discrimination_dsc"] = np.mean([c["dsc"] for c in corp], axis=0)
        out["uncertainty_unc"] = np.mean([c["unc"] for c in corp], axis=0)
        stats = [_kernels.binary_rank_stats(ev[None], tot[None], neg=neg[None])
                 for _, ev, tot, neg in groups]
        out["roc_auc"] = _mean_defined([s["roc_auc"] for s in stats])
        for col, s in zip(self._cols, stats):
            if col.values is None:
                s["pr_auc"] = np.array([col.grid_average_precision()])
        out["pr_auc"] = _mean_defined([s["pr_auc"] for s in stats])
        if K > 2:
            # A class without rows has no one-vs-rest curve: the macro average is undefined.
            absent = np.any(r <= 0, axis=1)
            out["roc_auc"] = np.where(absent, np.nan, out["roc_auc"])
            out["pr_auc"] = np.where(absent, np.nan, out["pr_auc"])
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                out["pr_auc_lift"] = out["pr_auc"] / r[:, 1]
        out.update(self._thresholds(ws))
        ClassificationEvaluator._warn(self._warner(), _EVALUATOR_KEYS, r[0], single[0], out)
        self._warn_unresolved()
        result = {"n": self.n, "classes": self.classes}
        result.update({key: float(v[0]) if v.ndim == 1 else v[0].copy() for key, v in
                       out.items()})
        prior = self.base_prior if self.base_prior is not None else np.atleast_1d(
            result["base_rate"])
        result["reference_prior"] = np.array([1 - prior[0], prior[0]]) if prior.shape[0] == 1 \
            else prior
        result["reference"] = "prior of y" if self.base_prior is None else "prior of baseline"
        return result

    def _total_weight(self) -> float:
        if self.n == 0:
            msg = f"{type(self).__name__}.report(): no rows seen yet; call update() first."
            raise ValueError(msg)
        ws = float(self._total())
        if ws <= 0:
            msg = "sample_weight sums to zero; at least one row needs a positive weight."
            raise ValueError(msg)
        return ws

    def _total(self):
        return self._class_w.sum()

    def _thresholds(self, ws) -> dict:
        K = self.n_classes
        cm = self._cm.reshape(1, K, K)  # [true class, predicted class]
        tp = np.diagonal(cm, axis1=1, axis2=2)
        actual, predicted = cm.sum(axis=2), cm.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            recall = np.where(actual > 0, _kernels.fraction(tp, actual), np.nan)
            # F1 = 2TP / (2TP + FP + FN), labels absent from y and predictions left out.
            f1 = np.where(actual + predicted > 0,
                          _kernels.fraction(2 * tp, actual + predicted), np.nan)
        return {"accuracy": _kernels.fraction(tp.sum(axis=1), ws),
                "balanced_accuracy": _mean_defined(list(recall.T)),
                "f1_macro": _mean_defined(list(f1.T))}

    def _warn_unresolved(self) -> None:
        """One warning when the score grid cannot resolve the scores seen."""
        grid = [col for col in self._cols if col.values is None]
        if not grid:
            return
        auc = float(np.mean([col.bounds()[0] for col in self._cols]))
        if auc > _UNRESOLVED_AUC:
            _warn(f"ranking and calibration numbers (roc_auc, pr_auc, calibration_mcb, "
                  f"discrimination_dsc) come from a score grid of {self.bins} bins that "
                  f"cannot resolve these scores (worst-case ROC-AUC error {auc:.3g}, see "
                  f"error_bounds()). Use the in-memory classification_report, or round or "
                  f"rescale the scores (at most {self.bins // 2} distinct values are kept "
                  f"exactly).")

    def _warner(self):
        """What the in-memory evaluator's warnings read: one message per degenerate case."""

        class _Facts:
            _score = True  # probabilities are always given
            base_prior, classes, n_classes = self.base_prior, self.classes, self.n_classes

        return _Facts()

    def error_bounds(self) -> dict:
        """Worst-case absolute errors of the approximate numbers for the rows seen.

        Returns
        -------
        dict
            ``roc_auc``, ``pr_auc`` (and ``pr_auc_lift`` for binary), ``calibration_mcb``,
            ``discrimination_dsc``: 0 while the scores are kept exactly. ROC-AUC: the weight
            of positive-negative pairs sharing a grid bin over ``2 P N``; average precision:
            per bin, its positives' weight times how far the pooled precision can be from
            any precision inside the bin, over ``P``; MCB and DSC (one bound for both: the
            grid values are at most this much *below* the exact ones, never above): how much
            an isotonic fit on the exact scores could lower the recalibrated Brier score
            below the fit on the bins (``_ScoreSummary.recalibration_gain``), capped by the
            class's Brier term; multiclass: the mean over classes.
        """
        ws = self._total_weight()
        b = np.array([col.bounds() for col in self._cols])
        out = {"roc_auc": float(b[:, 0].mean()), "pr_auc": float(b[:, 1].mean())}
        if self.n_classes == 2:
            rate = self._class_w[1] / ws
            out["pr_auc_lift"] = float(out["pr_auc"] / rate) if rate > 0 else float("nan")
        # MCB and DSC come out at most this much below the exact ones, never above: what a
        # fit on the exact scores could gain over the grid's, and no more than the class
        # column's Brier term (the exact MCB's ceiling; the grid's is at least 0).
        gains = [min(col.recalibration_gain(), float(sq)) / ws
                 for col, sq in zip(self._cols, self._sq)]
        out["calibration_mcb"] = out["discrimination_dsc"] = float(np.mean(gains))
        return out
