"""Is acting on the model better than acting on everyone or on no one, threshold by threshold,
when its predictions live on a Dask cluster -- and how sure is that at every threshold?

Part of :mod:`chimeraboost.dask` (re-exported there). Questions answered here:

- The decision curve of one or several models on rows held in dask collections, with
  pointwise bands and paired bands against a named baseline? :func:`decision_curve` (a
  :class:`chimeraboost.decisions.DecisionCurve`, as the in-memory
  :func:`chimeraboost.decisions.decision_curve` gives).
- What does a block of rows add to it? :class:`CurveAccumulator`: per model, class and bin
  between the thresholds, the weight of the block's rows -- for the rows' own weights and for
  each Poisson bootstrap replicate's -- merged by addition; with a baseline, the units that
  decide differently from it (:mod:`chimeraboost.dask._discordant`).
- Which thresholds without ``thresholds=``? The in-memory default, found over the blocks
  (:mod:`chimeraboost.dask._quantiles`).

Net benefit at threshold ``t`` is ``TP/n - FP/n t/(1-t)``, a row treated when its score is
``>= t``, and treating everyone ``prevalence - (1 - prevalence) t/(1-t)`` (Vickers & Elkin
2006, doi:10.1177/0272989X06295361): sums of weights, so the accumulator's curves are the
in-memory curves to rounding.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .. import decisions as _decisions
from .. import resampling as _resampling
from .._shared.api import public
from .._shared.poisson import group_keys, mixed_keys, poisson_counts, replicate_seeds, row_keys
from .._shared.units import check_n_boot
from .._shared.validation import (
    PROBA_RANGE_TOL,
    binary_target,
    check_key_names,
    check_level,
    check_numeric_1d,
    check_random_state_int,
    check_same_length,
    check_sample_weight,
)
from ._blocks import _is_dask, _is_dask_frame, accumulate, check_percentile, describe
from ._discordant import GroupTotals, PairCounts, widen_pairs
from ._quantiles import default_thresholds

__all__ = ["CurveAccumulator", "decision_curve"]

TREAT_ALL = "treat all"
_BUILT_IN = ("treat all", "treat none")
# Elements of one (replicates, rows) count matrix: 2^22 float64 = 32 MB per piece.
_CHUNK_ELEMENTS = 1 << 22


class CurveAccumulator:
    """The treated weight of each model at each threshold, over chunks of rows, with
    Poisson bootstrap replicates.

    Parameters
    ----------
    thresholds : array of float in (0, 1), shape (T,)
    n_models : int
        Columns of the scores each update takes (one per model).
    n_boot : int, default=0
        Poisson bootstrap replicates kept beside the rows' own weights (0: none).
    random_state : None or int
        Seeds the replicates; accumulators merge only when built with the same.
    pos_label : label, default=None
        The positive class, as in :func:`chimeraboost.decisions.decision_curve`.
    baseline : None, int or "treat all", default=None
        With replicates: the column (or treating every row) the paired bands are judged
        against; the accumulator then also counts, per model and threshold, the units that
        decide differently from it, and whether each model's output equals its on every
        row (what :func:`decision_curve` widens the paired band by).

    Notes
    -----
    State: per model, weight vector (the rows' own, then each replicate) and class, the
    weight of the rows in each of the ``T + 1`` bins between the sorted thresholds
    (``searchsorted(thresholds, score, side="right")``, as the in-memory sweep bins them);
    a row is treated at every threshold below its bin. That is ``2 (T + 1) (1 + n_boot)``
    float64 per model: 3.2 MB at 99 thresholds and 2,000 replicates, whatever the rows.
    With a baseline, per model ``T + 1`` counts of discordant rows (or up to four group
    keys per threshold) besides.
    """

    def __init__(self, thresholds, n_models: int, *, n_boot: int = 0, random_state=None,
                 pos_label=None, baseline=None):
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        self._edges = np.sort(self.thresholds)
        self.n_models = int(n_models)
        self.n_boot = check_n_boot(n_boot, optional=True)
        self.random_state = random_state
        self._seeds = replicate_seeds(check_random_state_int(random_state), self.n_boot)
        self.pos_label = pos_label
        self.kind = None  # what the replicates' counts are keyed by: "rows" or "groups"
        self.n = 0
        t = self.thresholds.shape[0]
        self._bins = np.zeros((1 + self.n_boot, self.n_models, 2, t + 1))
        self.baseline = baseline
        self.pairs = None if baseline is None or not self.n_boot else \
            PairCounts(self.n_models, t, baseline)

    # -- chunks in

    def update(self, y, scores, *, sample_weight=None, groups=None, first_row=None):
        """Add a chunk: ``y`` (n,), ``scores`` (n,) or (n, n_models) probabilities of the
        positive class; ``groups`` or ``first_row`` key the replicates' counts (the
        position of the chunk's first row among all rows; default: the rows seen so far).
        Returns ``self``."""
        if len(y) == 0 and len(scores) == 0:  # an empty block: a partition filtered empty
            return self
        event = binary_target(y, self.pos_label, "y").astype(bool)
        s = np.asarray(scores)
        cols = [s] if s.ndim == 1 else [s[:, j] for j in range(s.shape[1])]
        cols = [_probability(check_numeric_1d(c, "proba"), "proba") for c in cols]
        n = check_same_length(y=event, proba=cols[0])
        w = _weights(sample_weight, n)
        t = self.thresholds.shape[0]
        # One cell per (model, class, bin): each row falls in one cell per model.
        bins = [np.searchsorted(self._edges, c, side="right") for c in cols]
        cells = np.stack([(m * 2 + event) * (t + 1) + b for m, b in enumerate(bins)], axis=1)
        size = self.n_models * 2 * (t + 1)
        self._bins[0] += np.bincount(cells.ravel(), weights=np.repeat(w, self.n_models),
                                     minlength=size).reshape(self._bins.shape[1:])
        if self.n_boot:
            keys = self._keys(n, groups, first_row)
            self._add_replicates(cells, w, keys, size)
            if self.pairs is not None:
                self.pairs.update(event, cols, bins, w, keys if groups is not None else None)
        elif groups is not None or first_row is not None:
            msg = ("groups= and first_row= key the bootstrap replicates; this accumulator "
                   "keeps none (n_boot=0).")
            raise ValueError(msg)
        self.n += n
        return self

    def _keys(self, n, groups, first_row) -> np.ndarray:
        kind = "rows" if groups is None else "groups"
        if self.kind not in (None, kind):
            msg = (f"This accumulator's replicates are keyed by {self.kind}; pass groups= "
                   "with every chunk or with none.")
            raise ValueError(msg)
        self.kind = kind
        if groups is not None:
            g = np.asarray(groups)
            if g.shape != (n,):
                msg = f"groups must hold one value per row of the chunk ({n}), got {g.shape}."
                raise ValueError(msg)
            return group_keys(g)
        return row_keys(self.n if first_row is None else int(first_row), n)

    def _add_replicates(self, cells, w, keys, size) -> None:
        """Each replicate's weight per cell: its Poisson counts times the rows' weights,
        summed by a sparse (rows, cells) indicator, a piece of replicates at a time."""
        from scipy import sparse  # noqa: PLC0415 - only replicates need it

        n, m = cells.shape
        onehot = sparse.csr_matrix(
            (np.ones(n * m), (np.repeat(np.arange(n), m), cells.ravel())), shape=(n, size)).T
        mixed = mixed_keys(keys)
        piece = max(1, min(self.n_boot, _CHUNK_ELEMENTS // max(n, 1)))
        counts = np.empty((piece, n))
        for start in range(0, self.n_boot, piece):
            stop = min(self.n_boot, start + piece)
            weights = poisson_counts(self._seeds[start:stop], mixed, counts[:stop - start])
            weights *= w
            per_cell = np.asarray(onehot @ weights.T).T
            self._bins[1 + start:1 + stop] += per_cell.reshape((-1,) + self._bins.shape[1:])

    def merge(self, other: CurveAccumulator) -> CurveAccumulator:
        """Add the rows of ``other`` (built with the same thresholds, models, replicates);
        returns ``self``."""
        same = (np.array_equal(self.thresholds, other.thresholds)
                and self.n_models == other.n_models and self.pos_label == other.pos_label
                and np.array_equal(self._seeds, other._seeds)
                and self.baseline == other.baseline)
        if not same:
            msg = ("other was built with other thresholds, models, pos_label, baseline or "
                   "replicate seeds; only accumulators built alike can be merged.")
            raise ValueError(msg)
        if other.kind is not None and self.kind not in (None, other.kind):
            msg = (f"other's replicates are keyed by {other.kind}, this accumulator's by "
                   f"{self.kind}; pass groups= to every chunk or to none.")
            raise ValueError(msg)
        self.kind = self.kind or other.kind
        self._bins += other._bins
        if self.pairs is not None:
            self.pairs.merge(other.pairs)
        self.n += other.n
        return self

    # -- curves out

    def curves(self) -> tuple:
        """``(net_benefit, treat_all, prevalence)``: (1 + n_boot, n_models, T) net benefit
        of each model, (1 + n_boot, T) that of treating every row, (1 + n_boot,) the
        weighted share of positives; row 0 the rows' own weights, then each replicate (NaN
        where a replicate holds no weight)."""
        if self.n == 0:
            msg = "No rows seen yet; call update() first."
            raise ValueError(msg)
        # Treated at the k-th smallest threshold: the rows of the bins above k.
        above = np.cumsum(self._bins[..., ::-1], axis=-1)[..., ::-1][..., 1:]
        tp, fp = above[:, :, 1], above[:, :, 0]
        pos = self._bins[:, 0, 1].sum(axis=-1)
        neg = self._bins[:, 0, 0].sum(axis=-1)
        if pos[0] + neg[0] <= 0:
            msg = "sample_weight sums to zero; at least one row needs a positive weight."
            raise ValueError(msg)
        back = np.argsort(np.argsort(self.thresholds, kind="stable"), kind="stable")
        tp, fp = tp[..., back], fp[..., back]
        odds = self.thresholds / (1.0 - self.thresholds)
        with np.errstate(invalid="ignore", divide="ignore"):
            total = (pos + neg)[:, None, None]
            nb = tp / total - fp / total * odds
            prevalence = pos / (pos + neg)
            treat_all = prevalence[:, None] - (1.0 - prevalence)[:, None] * odds
        return nb, treat_all, prevalence


def _probability(score: np.ndarray, name: str) -> np.ndarray:
    if not score.shape[0]:  # an empty block (a partition filtered to no rows)
        return score
    lo, hi = float(score.min()), float(score.max())
    if lo < -PROBA_RANGE_TOL or hi > 1 + PROBA_RANGE_TOL:
        msg = (f"{name} must hold probabilities in [0, 1] (or a 0/1 rule) to be compared with "
               f"a probability threshold; got values in [{lo:.6g}, {hi:.6g}]. Pass "
               "predict_proba(X)[:, 1], or calibrate the scores first.")
        raise ValueError(msg)
    return np.clip(score, 0.0, 1.0)


def _weights(sample_weight, n: int) -> np.ndarray:
    """The chunk's weights (ones without); a chunk whose weights are all zero is legal
    (other chunks may carry the weight)."""
    if sample_weight is None:
        return np.ones(n)
    w = check_numeric_1d(sample_weight, "sample_weight")
    if w.shape[0] == n and not np.any(w):
        return w
    return check_sample_weight(w, n)


def _check_thresholds(thresholds) -> np.ndarray | None:
    if thresholds is None:
        return None
    t = check_numeric_1d(np.atleast_1d(thresholds), "thresholds")
    bad = (t <= 0) | (t >= 1)
    if np.any(bad):
        msg = (f"thresholds must lie strictly inside (0, 1): a threshold probability t weighs "
               f"a false positive t/(1-t) times a true positive; got {t[bad][:5].tolist()}.")
        raise ValueError(msg)
    return t


@public(legacy=("thresholds",))
def decision_curve(y, proba, *, thresholds=None, baseline_name=None, pos_label=None,
                   sample_weight=None, n_boot=2000, level=0.95, random_state=None,
                   ci_method="percentile", groups=None, time=None):
    """:func:`chimeraboost.decisions.decision_curve` of rows held in dask collections: net
    benefit against the threshold probability, with Poisson bootstrap bands.

    Parameters
    ----------
    y : dask array or dask Series of shape (n,), or array-like
        True labels: bool, 0/1 or -1/1, or any two labels with ``pos_label``.
    proba : dask array or dask Series of shape (n,), or dict name -> such a column
        Probabilities of the positive class (or 0/1 rules), one per model, on the same
        rows. No model may be called ``"treat all"`` or ``"treat none"``.
    thresholds : array-like of float in (0, 1), default=None
        Threshold probabilities. None: the in-memory default, to the last bit -- 99 evenly
        spaced between the 1st and 99th percentiles of all the models' scores, kept inside
        [0.01, 0.99] -- found by two to five more passes over ``y`` and ``proba`` before the
        curve's own (see Notes); pass ``thresholds=`` to skip them.
    baseline_name : str, default=None
        The model the others are judged against (a key of ``proba``), or ``"treat all"``:
        every model's net benefit minus the baseline's, on the same replicates, with its
        pointwise band. None: no differences.
    pos_label : label, default=None
    sample_weight : dask array or dask Series of shape (n,), or array-like, default=None
    n_boot : int, default=2000
        Poisson bootstrap replicates, shared by every model and threshold; 0: no bands.
        Each costs ``2 (T + 1)`` float64 per model in every accumulator (``T`` thresholds:
        1.6 KB at 99), so 2,000 of them 3.2 MB per model; a block's update makes a
        ``(replicates, rows)`` matrix of counts 32 MB at a time.
    level : float in (0, 1), default=0.95
    random_state : None or int
        Seeds the replicates: the same int gives the same bands on any cluster and in the
        accumulator in memory.
    ci_method : {"percentile"}, default="percentile"
        How each point of a band is read off the replicates. On dask only the percentile
        band: the other methods need the jackknife, which merged accumulators do not hold.
        Input that is not a dask collection goes to the in-memory function, which takes
        every method.
    groups : dask array or dask Series of shape (n,), or array-like, default=None
        Each row's group: the rows of a group share one Poisson count per replicate
        wherever they sit, so that whole groups are resampled.
    time : None
        Blocks of time-ordered rows need the rows in time order, which blocks of a cluster
        do not see: refused on dask collections, with the fix -- pass the period (a day, a
        week) as ``groups=``, so that each period's rows are resampled together (taken by
        the in-memory function).

    Returns
    -------
    DecisionCurve
        As :func:`chimeraboost.decisions.decision_curve`: ``net_benefit``, ``low`` and
        ``high`` for every model and ``"treat all"``, ``difference``, ``diff_low``,
        ``diff_high`` against ``baseline_name``; ``ci_method`` ``"percentile"``, ``units``
        ``"rows"`` or ``"groups"``.

    Notes
    -----
    Each block adds, per model, class and bin between the thresholds, its rows' weight --
    and each replicate's: the rows' weights times an independent Poisson(1) count from a
    counter-based generator keyed by the replicate's seed and the row's position (the
    group's value) -- to a :class:`CurveAccumulator`; the accumulators merge by addition
    and the curves come from the merged counts (``TP/n - FP/n t/(1-t)``). The point curves
    equal the in-memory ones to rounding; every model is weighed by the same counts, so
    the differences are paired, as in memory.

    A paired band follows the in-memory rule (:meth:`chimeraboost.resampling.Resampler.discordance`):
    where fewer than :data:`chimeraboost.resampling.MIN_DISCORDANT` units (rows of positive
    weight, or groups) decide differently from the baseline, the band becomes the hull of
    the bootstrap's and ``[-bound, bound]`` (the Clopper-Pearson limit of the share of
    units that decide differently times the most one unit moves the net benefit), which
    holds 0, and one ``NarrowIntervalWarning`` per model names the thresholds. The
    accumulators count the discordant rows per threshold (a row decides differently
    between its two bins), or keep the four smallest keys of the discordant groups; with
    ``groups=`` the bound needs each group's weight, which one more pass sums -- made only
    when some threshold has fewer than four. Two models whose outputs are equal to
    rounding on every row (the one tie rule) are one: their difference and its band are
    exactly 0.

    The default thresholds need two order statistics for each percentile of all ``n M``
    scores (``M`` models). A probability is a non-negative float, whose 64 bits read as an
    unsigned integer sort as the values do: a first pass counts the scores by their top
    bits, which fixes the top bits of each wanted order statistic; each further pass counts
    the scores under the prefix found so far by their next 16 bits, or, once a prefix holds
    at most 65,536 scores, collects and sorts them. Each pass holds at most four histograms
    of 65,536 counts per block. Ties cost nothing (a count is a count).

    Hanley & MacGibbon (2006), doi:10.1016/j.cmpb.2006.04.006 (the Poisson bootstrap);
    Vickers & Elkin (2006), doi:10.1177/0272989X06295361 (net benefit); Clopper & Pearson
    (1934), doi:10.1093/biomet/26.4.404 (the bound).

    Examples
    --------
    >>> import dask.array as da
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=3000); y = rng.uniform(size=3000) < p
    >>> dc = decision_curve(da.from_array(y, chunks=1000), da.from_array(p, chunks=700),
    ...                     thresholds=[0.2, 0.5], n_boot=1000, random_state=0,
    ...                     baseline_name="treat all")
    >>> bool(np.all(dc.diff_low["model"] > 0))
    True
    """
    args = dict(thresholds=thresholds, baseline_name=baseline_name, pos_label=pos_label,
                sample_weight=sample_weight, n_boot=n_boot, level=level,
                random_state=random_state, ci_method=ci_method, groups=groups, time=time)
    models = dict(proba) if isinstance(proba, Mapping) else {"model": proba}
    if not any(_is_dask(x) for x in (y, *models.values(), sample_weight, groups)):
        return _decisions.decision_curve(y, proba, **args)
    t, level = _check_params(models, proba, baseline_name, level, ci_method, time, thresholds)
    names = list(models)
    versus = names.index(baseline_name) if baseline_name in names else baseline_name
    stacked = _stacked(list(models.values()))
    n_classes = len(models) if len(models) > 1 else 2
    if t is None:  # the in-memory default, from a few passes over the scores
        t = default_thresholds(y, stacked, len(models), n_classes)
    template = CurveAccumulator(t, len(models), n_boot=n_boot, random_state=random_state,
                                pos_label=pos_label, baseline=versus)
    inputs = {"y": y, "proba": stacked, "sample_weight": sample_weight,
              "groups": groups if template.n_boot else None}
    acc = accumulate(template, inputs, n_classes=n_classes)

    def totals():  # the second pass, over the groups, when a paired band may be widened
        return accumulate(GroupTotals(pos_label), inputs, n_classes=n_classes)

    return _result(acc, names, baseline_name, level, totals)


def _check_params(models, proba, baseline_name, level, ci_method, time, thresholds):
    if isinstance(proba, Mapping):
        if not models:
            msg = "proba is an empty dict; pass {model name: probabilities}."
            raise ValueError(msg)
        check_key_names(proba, "proba", "the models")
    for name in models:
        if isinstance(name, str) and name.strip().lower() in _BUILT_IN:
            msg = (f"a key of proba is {name!r}, the name of a built-in curve ('treat all' "
                   "and 'treat none'); give the model another name.")
            raise ValueError(msg)
    if baseline_name is not None and baseline_name != TREAT_ALL and baseline_name not in models:
        msg = (f"baseline_name={baseline_name!r} is not one of the models {list(models)} nor "
               "'treat all'.")
        raise ValueError(msg)
    if time is not None:
        msg = (f"time={describe(time)} asks for blocks of time-ordered rows to be resampled, "
               "which the blocks of a dask collection do not see in order; on dask pass the "
               "period as groups= instead (e.g. groups=time.dt.floor('D') or a week number: "
               "each period's rows are then resampled together), or compute the rows and "
               "call chimeraboost.decisions.decision_curve(..., time=time).")
        raise ValueError(msg)
    check_percentile(_resampling.check_ci_method(ci_method), "bands")
    return _check_thresholds(thresholds), check_level(level, "level")


def _stacked(columns: list):
    """The models' columns as one collection the blocks can be cut from: one column as it
    is; several as a dask DataFrame (Series of one frame, paired by index) or an (n, M)
    dask array."""
    if len(columns) == 1:
        return columns[0]
    if all(_is_dask_frame(c) and c.ndim == 1 for c in columns):
        import dask.dataframe as dd  # noqa: PLC0415 - present: the inputs are dask frames

        if all(c.known_divisions and c.divisions == columns[0].divisions for c in columns):
            return dd.concat([c.rename(str(i)) for i, c in enumerate(columns)], axis=1)
    import dask.array as da  # noqa: PLC0415 - present: some input is a dask collection

    arrays = []
    for c in columns:
        if _is_dask_frame(c):
            c = c.to_dask_array(lengths=True)
        elif not _is_dask(c):
            c = da.from_array(np.asarray(c), chunks=-1)
        arrays.append(c)
    lengths = {a.shape[0] for a in arrays}
    if len(lengths) > 1:
        msg = f"The models in proba have different numbers of rows: {sorted(lengths)}."
        raise ValueError(msg)
    return da.stack(arrays, axis=1)


def _result(acc: CurveAccumulator, names: list, baseline, level, totals=None):
    """The merged accumulator's curves as a DecisionCurve, with percentile bands; the paired
    bands widened where fewer than ``MIN_DISCORDANT`` units decide differently."""
    nb, treat_all, prevalence = acc.curves()
    curves = {name: nb[:, j] for j, name in enumerate(names)}
    curves[TREAT_ALL] = treat_all
    if acc.pairs is not None and baseline != TREAT_ALL:
        for j, name in enumerate(names):
            if acc.pairs.same[j]:
                # The one tie rule: outputs equal to rounding are one model, whose
                # difference is exactly 0 (as in memory, which scores the baseline's twice).
                curves[name] = curves[baseline]
    point = {name: c[0] for name, c in curves.items()}
    diff = {} if baseline is None else {name: curves[name] - curves[baseline]
                                        for name in names if name != baseline}
    low = high = None
    d_lo, d_hi = {}, {}
    if acc.n_boot:
        low, high = {}, {}
        for name, c in curves.items():
            low[name], high[name] = _band(c, level)
        for name, d in diff.items():
            d_lo[name], d_hi[name] = _band(d, level)
        if acc.pairs is not None:
            widen_pairs(acc.pairs, names, baseline, acc.thresholds, level, acc.kind or "rows",
                        totals, d_lo, d_hi)
    return _decisions.DecisionCurve(
        thresholds=acc.thresholds, net_benefit=point, low=low, high=high, baseline=baseline,
        difference={name: d[0] for name, d in diff.items()}, diff_low=d_lo, diff_high=d_hi,
        prevalence=float(prevalence[0]), level=level, n_boot=acc.n_boot,
        ci_method="percentile", units=acc.kind or "rows")


def _band(curve: np.ndarray, level: float) -> tuple:
    """Pointwise percentile band of ``curve`` (row 0 the estimate, then the replicates),
    read through :func:`chimeraboost.resampling.bootstrap_interval`; NaN where the
    estimate is undefined."""
    low, high = np.full(curve.shape[1], np.nan), np.full(curve.shape[1], np.nan)
    for j in range(curve.shape[1]):
        if np.isfinite(curve[0, j]):
            low[j], high[j] = _resampling.bootstrap_interval(
                curve[1:, j], float(curve[0, j]), level=level, method="percentile")
    return low, high
