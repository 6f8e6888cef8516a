"""Metrics over chunks: accumulators updated piece by piece, merged, then reported.

Re-exported by :mod:`chimeraboost.metrics`. Questions this module answers:

- My predictions do not fit in memory, or are produced in pieces (per file, per worker, per
  day): what is the report on all the rows? :class:`ClassificationAccumulator`,
  :class:`RegressionAccumulator` (the latter in :mod:`chimeraboost.metrics._regression_accumulator`,
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

from .._shared.api import public
from .._shared.poisson import replicate_seeds
from .._shared.units import check_n_boot
from . import _kernels
from ._replicates import ReplicateKeys, add_replicates
from .._shared.scores import proper_scores, row_losses
from ..exceptions import warn as _warn
from ._classification import _EVALUATOR_KEYS, _baseline_prior
from ._formulas import _mean_defined, confusion_numbers, warn_cases
from ._score_grid import _ScoreSummary
from .._shared.validation import (
    check_aligned,
    check_classes,
    check_numeric_1d,
    check_positive_int,
    check_proba,
    check_random_state_int,
    check_same_length,
    check_sample_weight,
    encode_labels,
    require_proba,
    unit_scale,
)

__all__ = ["ClassificationAccumulator"]

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
_FORMAT = 4


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
    n_boot : int, default=0
        Poisson bootstrap replicates kept beside the sums (0: none): every sum is also kept
        for each replicate's weights, the rows' weights times an independent Poisson(1)
        count per row, or per group with ``groups=`` in :meth:`update`. A count depends on
        the replicate and the row's position (the group's value) only, so accumulators of
        chunks seen apart merge into the replicates of all the rows; :meth:`replicates`
        gives every number of :meth:`report` per replicate. Memory grows with it: about
        ``n_boot`` times 100 KB per class column on the grid.
    random_state : None, int or numpy Generator, default=None
        Where the replicates' seeds come from; accumulators merge only when their seeds
        are equal (the same int).

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

    def __init__(self, classes, *, baseline=None, bins: int = 4096, n_boot: int = 0,
                 random_state=None):
        self.classes = check_classes(classes)
        self.n_classes = self.classes.shape[0]
        self.base_prior = None if baseline is None else _baseline_prior(baseline, self.classes)
        self.bins = check_positive_int(bins, "bins", minimum=16)
        self.n_boot = check_n_boot(n_boot, optional=True)
        self._seeds = replicate_seeds(check_random_state_int(random_state), self.n_boot)
        self._keys = ReplicateKeys()
        K, m = self.n_classes, 1 + self.n_boot  # weight vectors: the rows' own, replicates
        self.n = 0
        self._exp = None  # weights are summed in units of 2 ** _exp
        self._class_w = np.zeros((m, K))
        self._cm = np.zeros((m, K * K))
        self._sq = np.zeros((m, 1 if K == 2 else K))
        self._loss = np.zeros((m, 2))  # log loss, Brier (K-sum)
        self._cols = [_ScoreSummary(self.bins, m) for _ in range(1 if K == 2 else K)]

    # -- chunks in

    @public(legacy=("sample_weight",))
    def update(self, y, proba, *, sample_weight=None, groups=None,
               first_row=None) -> ClassificationAccumulator:
        """Add a chunk of rows; returns ``self``.

        Parameters
        ----------
        y : array-like of shape (n,)
            True labels, each one of ``classes``.
        proba : array-like of shape (n, K), or (n,) for binary
            Predicted probabilities, columns in the order of ``classes``.
        sample_weight : array-like of shape (n,), default=None
        groups : array-like of shape (n,), default=None
            With ``n_boot``: each row's group (a customer, a patient); the rows of a group
            share one Poisson count per replicate, wherever they sit in the chunks. Pass it
            with every chunk or with none.
        first_row : int, default=None
            With ``n_boot`` and no ``groups``: the position of the chunk's first row among
            all rows, which keys its rows' counts (default: the rows seen so far, right for
            chunks added in order to one accumulator; chunks updated apart and merged, as on
            a cluster, pass their own offset).
        """
        require_proba(proba)
        if _rows(y) == 0 and _rows(proba) == 0 and (
                sample_weight is None or _rows(sample_weight) == 0):
            return self
        check_aligned(y=y, proba=proba, sample_weight=sample_weight)
        codes = encode_labels(y, self.classes, "y")
        p = check_proba(proba, self.classes, "proba")
        n = check_same_length(y=codes, proba=p)
        w, e = _chunk_weights(sample_weight, n)
        keys = None
        if self.n_boot:
            keys = self._keys.keys(n, self.n, groups, first_row)
        elif groups is not None or first_row is not None:
            msg = ("groups= and first_row= key the bootstrap replicates; this accumulator "
                   "keeps none (n_boot=0): pass n_boot= to ClassificationAccumulator.")
            raise ValueError(msg)
        self._add(self._chunk_sums(codes, p, w, n), e, keys)
        return self

    def _chunk_sums(self, codes, p, w, n) -> dict:
        K = self.n_classes
        ll, brier, pred = row_losses(p, codes)  # per row, as the in-memory evaluator
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
        out["rows"] = (codes, p, w, ll, brier, pred, None if keep is None else
                       np.flatnonzero(keep))
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

    def _add_sums(self, n: int, e: int, class_w, cm, sq, loss, rows=slice(None)) -> int:
        """Add the sums of ``n`` rows, in units of ``2 ** e``, to weight vectors ``rows``;
        returns their shift."""
        shift = self._align(e)
        self.n += n
        self._class_w[rows] += np.ldexp(class_w, shift)
        self._cm[rows] += np.ldexp(cm, shift)
        self._sq[rows] += np.ldexp(sq, shift)
        self._loss[rows] += np.ldexp(loss, shift)
        return shift

    def _add(self, c: dict, e: int, keys) -> None:
        shift = self._add_sums(c["n"], e, c["class_w"], c["cm"], c["sq"], c["loss"], 0)
        w = c["w"]
        if w is not None and shift:
            w = np.ldexp(w, shift)
        located = [col.update(s, event, w) for col, (s, event) in zip(self._cols, c["scores"])]
        if keys is not None:
            codes, p, w_all, ll, brier, pred, kept = c["rows"]
            if w_all is None and shift:
                w_all = np.full(codes.shape[0], 2.0 ** shift)
            elif w_all is not None and shift:
                w_all = np.ldexp(w_all, shift)
            add_replicates(self, keys, codes, p, w_all, ll, brier, pred, kept, located)

    def merge(self, other: ClassificationAccumulator) -> ClassificationAccumulator:
        """Add the rows of ``other`` (an accumulator with the same classes, baseline and
        bins); returns ``self``."""
        _check_mergeable(self, other, [
            ("classes", self.classes, getattr(other, "classes", None)),
            ("baseline prior", self.base_prior, getattr(other, "base_prior", None)),
            ("bins", self.bins, getattr(other, "bins", None)),
            ("n_boot", self.n_boot, getattr(other, "n_boot", None))])
        if not np.array_equal(self._seeds, other._seeds):
            msg = ("other's replicates were drawn with other seeds than this accumulator's; "
                   "build every accumulator to be merged with the same random_state (an int).")
            raise ValueError(msg)
        if self.n_boot and other._keys.kind is not None:
            if self._keys.kind not in (None, other._keys.kind):
                msg = (f"other's replicates are keyed by {other._keys.kind}, this "
                       f"accumulator's by {self._keys.kind}; pass groups= to every chunk "
                       "or to none.")
                raise ValueError(msg)
            self._keys.kind = other._keys.kind
        if other.n == 0:
            return self
        shift = self._add_sums(other.n, other._exp, other._class_w, other._cm, other._sq,
                               other._loss)
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
        out = self._numbers(slice(0, 1), warn=True)
        result = {"n": self.n, "classes": self.classes}
        result.update({key: float(v[0]) if v.ndim == 1 else v[0].copy() for key, v in
                       out.items()})
        prior = self.base_prior if self.base_prior is not None else np.atleast_1d(
            result["base_rate"])
        result["reference_prior"] = np.array([1 - prior[0], prior[0]]) if prior.shape[0] == 1 \
            else prior
        result["reference"] = "prior of y" if self.base_prior is None else "prior of baseline"
        return result

    def replicates(self) -> dict:
        """Every number of :meth:`report` in each Poisson bootstrap replicate.

        Returns
        -------
        dict
            Metric -> array of shape (n_boot,) (``base_rate`` of a multiclass problem: (n_boot,
            K)), the keys of :meth:`report` that are numbers. NaN where a replicate leaves a
            number undefined (no row of a class). The same grid as :meth:`report`, so that an
            interval read from them sits around its number.

        Raises
        ------
        ValueError
            If the accumulator keeps no replicates (``n_boot=0``), or saw no rows.
        """
        if not self.n_boot:
            msg = ("This accumulator keeps no bootstrap replicates; build it with n_boot= "
                   "(e.g. ClassificationAccumulator(classes, n_boot=1000, random_state=0)).")
            raise ValueError(msg)
        self._total_weight()
        with np.errstate(invalid="ignore", divide="ignore"):
            out = self._numbers(slice(1, None), warn=False)
        return {key: v.copy() for key, v in out.items()}

    def _numbers(self, rows: slice, warn: bool) -> dict:
        """Every number of the report for weight vectors ``rows`` (the rows' own: 0;
        the replicates: 1 on), as arrays with one entry per weight vector."""
        ws = self._total_weight()[rows]
        K = self.n_classes
        r = _kernels.fraction(self._class_w[rows], ws[:, None])
        single = np.sum(r > 0, axis=1) < 2
        out = {"base_rate": r[:, 1] if K == 2 else r,
               "positives": r[:, -1] * ws * 2.0 ** self._exp}
        out.update(proper_scores(self._loss[rows, 0], self._loss[rows, 1], ws, r, single,
                                 self.base_prior))
        groups = [tuple(x if x.ndim == 1 else x[rows] for x in col.groups())
                  for col in self._cols]
        corp = [_kernels.corp_decomposition(v, ev, tot, self._sq[rows, j], nonevents=neg)
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
        stats = [_kernels.binary_rank_stats(ev, tot, neg=neg) for _, ev, tot, neg in groups]
        out["roc_auc"] = _mean_defined([s["roc_auc"] for s in stats])
        for col, s in zip(self._cols, stats):
            if col.values is None:
                s["pr_auc"] = col.grid_average_precision()[rows]
        out["pr_auc"] = _mean_defined([s["pr_auc"] for s in stats])
        if K > 2:
            # A class without rows has no one-vs-rest curve: the macro average is undefined.
            absent = np.any(r <= 0, axis=1)
            out["roc_auc"] = np.where(absent, np.nan, out["roc_auc"])
            out["pr_auc"] = np.where(absent, np.nan, out["pr_auc"])
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                out["pr_auc_lift"] = out["pr_auc"] / r[:, 1]
        out.update(confusion_numbers(self._cm[rows].reshape(-1, K, K), ws))
        if warn:
            warn_cases(self.classes, self.base_prior, True, _EVALUATOR_KEYS, r[0], single[0],
                       out)
            self._warn_unresolved()
        return out

    def _total_weight(self) -> float:
        """The total weight of each weight vector (the rows' own first)."""
        if self.n == 0:
            msg = f"{type(self).__name__}.report(): no rows seen yet; call update() first."
            raise ValueError(msg)
        ws = self._class_w.sum(axis=1)
        if ws[0] <= 0:
            msg = "sample_weight sums to zero; at least one row needs a positive weight."
            raise ValueError(msg)
        return ws

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

    def sums(self) -> dict:
        """The weighted sums over rows that every exact number of :meth:`report` is read
        from, for the rows' own weights and each bootstrap replicate's.

        Sums add over rows, so two accumulators of the same classes and seeds, one holding
        rows the other also holds (a slice and all rows), give by subtraction the sums of
        the rows only the larger holds (the rest of the rows): what
        :func:`chimeraboost.dask.slice_report` compares each slice with.

        Returns
        -------
        dict
            Arrays with one entry per weight vector -- the rows' own first, then the
            ``n_boot`` replicates': ``weight`` (1 + n_boot,), ``class_weight`` (1 + n_boot,
            K), ``log_loss`` and ``brier`` (1 + n_boot,), the weighted sums of the rows' log
            loss and K-sum Brier score, and ``confusion`` (1 + n_boot, K, K), rows the true
            class, columns the predicted one. Zeros before any row is seen.

        Examples
        --------
        The sums of all four rows minus those of the first two are the last two's:

        >>> import numpy as np
        >>> every = ClassificationAccumulator([0, 1]).update([0, 1, 1, 0], [0.2, 0.6, 0.9, 0.4])
        >>> first = ClassificationAccumulator([0, 1]).update([0, 1], [0.2, 0.6])
        >>> last = ClassificationAccumulator([0, 1]).update([1, 0], [0.9, 0.4])
        >>> rest = {k: every.sums()[k] - first.sums()[k] for k in ("weight", "brier")}
        >>> bool(np.allclose(rest["brier"], last.sums()["brier"])), rest["weight"].tolist()
        (True, [2.0])
        """
        K = self.n_classes
        scale = 0 if self._exp is None else self._exp
        class_w = np.ldexp(self._class_w, scale)
        return {"weight": class_w.sum(axis=1), "class_weight": class_w,
                "log_loss": np.ldexp(self._loss[:, 0], scale),
                "brier": np.ldexp(self._loss[:, 1], scale),
                "confusion": np.ldexp(self._cm, scale).reshape(-1, K, K)}

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
        ws = float(self._total_weight()[0])
        b = np.array([col.bounds() for col in self._cols])
        out = {"roc_auc": float(b[:, 0].mean()), "pr_auc": float(b[:, 1].mean())}
        if self.n_classes == 2:
            rate = self._class_w[0, 1] / ws
            out["pr_auc_lift"] = float(out["pr_auc"] / rate) if rate > 0 else float("nan")
        # MCB and DSC come out at most this much below the exact ones, never above: what a
        # fit on the exact scores could gain over the grid's, and no more than the class
        # column's Brier term (the exact MCB's ceiling; the grid's is at least 0).
        gains = [min(col.recalibration_gain(), float(sq)) / ws
                 for col, sq in zip(self._cols, self._sq[0])]
        out["calibration_mcb"] = out["discrimination_dsc"] = float(np.mean(gains))
        return out
