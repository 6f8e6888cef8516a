"""Is the model any good, when its predictions live on a Dask cluster?

The reports of :mod:`chimeraboost.metrics`, on dask arrays and DataFrames too large for one
machine's memory. Questions worth asking, and which function answers each:

- How good are the probabilities of a classifier, scored on a dask array or DataFrame?
  :func:`classification_report` -- the keys of
  :func:`chimeraboost.metrics.classification_report`.
- How sure is each of those numbers? :func:`classification_report` with ``ci=0.95``: a
  :class:`chimeraboost.Report` with percentile intervals from a Poisson bootstrap whose
  replicates every block adds to its own accumulator (``groups=`` resamples whole groups).
- How far off are the numbers of a regressor, and how sure is each?
  :func:`regression_report` -- the keys of :func:`chimeraboost.metrics.regression_report`;
  with ``ci=0.95`` a :class:`chimeraboost.Report` with percentile intervals, as above.
- Is acting on the model better than treating everyone or no one, threshold by threshold,
  with pointwise bands? :func:`decision_curve` -- the
  :class:`chimeraboost.decisions.DecisionCurve` of
  :func:`chimeraboost.decisions.decision_curve`, from per-threshold counts each block adds:
  its default thresholds are the in-memory ones (found by a radix selection of the scores'
  percentiles, a few passes), and a paired band is widened where fewer than
  :data:`chimeraboost.resampling.MIN_DISCORDANT` rows (or groups) decide differently, as in
  memory.
- Who is the model good for -- its numbers per region, segment, any column of labels?
  Which slices are worse than the rest of the rows? :func:`slice_report`: the report of
  :func:`chimeraboost.slices.slice_report` (each slice against its own base rate and
  against the prior of all rows, with intervals; each slice tested against the rest, whose
  sums are all rows' minus the slice's), one pair of accumulators per slice.
- Is the model getting worse, or did the base rate move? :func:`skill_over_time`: the
  per-period table of :func:`chimeraboost.monitor.skill_over_time` (the period's own
  reference, or a rolling one), with intervals of the skills; with ``baseline=`` (the
  incumbent's probabilities) the model against the incumbent per period and whether it wins
  lately.

How it is computed: each block of rows goes through one update of a
:class:`chimeraboost.metrics.ClassificationAccumulator` (or ``RegressionAccumulator``) on the
worker that holds it, the accumulators -- kilobytes, whatever the number of rows; about 100 KB
per class column and bootstrap replicate with ``ci`` -- are merged in a tree (eight at a time;
two with replicates), and only the merged one travels back: one ``compute``, on whatever
scheduler is active (a ``dask.distributed.Client`` if one was created, else dask's default).
Rows are paired by position. Dask DataFrames and Series with the same known divisions (e.g.
columns of one frame made by ``from_pandas`` or ``set_index``) pair up partition by partition
as they are; otherwise -- unknown divisions, as ``read_csv`` gives, or dask arrays -- the
blocks of ``y``, the predictions and ``sample_weight`` are cut at common row boundaries
(DataFrame partitions are counted first, which reads them once more). As in memory, inputs
that carry different pandas indexes are refused rather than paired wrongly: two dask frames
have their indexes compared block by block (a dask array carries none and is paired by
position).

What is exact and what is approximate is the accumulators': log loss, Brier, their references
and skills, accuracy, the regression losses and ``r2`` equal the in-memory report to float
rounding; ``roc_auc``, ``pr_auc`` and the calibration decomposition come from a fine grid of
scores, within the bounds their docstrings state (exact when scores take few distinct values).
Input that is not a dask collection (numpy, pandas, lists) takes the in-memory path and gives
exactly the in-memory report; dask is then not needed.

The keyed surfaces (:func:`slice_report`, :func:`skill_over_time`) read the slice or date
column alone in a first pass (to name the slices, or to place the calendar bins), then update
one accumulator per slice or period in each block; their memory per slice, the limit on the
number of slices and what they leave out are in :func:`slice_report`'s Notes.

Many fits rather than many rows -- ``cross_validate``, ``GridSearchCV``,
:func:`chimeraboost.compare.compare_cv` -- need nothing from this module: they run unchanged
under ``joblib.parallel_backend("dask")`` (the guide "Past one machine").

dask is an optional dependency: ``pip install "chimeraboost[dask]"``.
"""

from __future__ import annotations

import numpy as np

from .. import metrics as _metrics
from .._report import Report
from .._shared.api import public
from .._shared.validation import check_classes, label_columns
from ._blocks import (_in_memory, _is_dask, _is_dask_frame, accumulate, check_interval_params,
                      report_with_intervals)
from ._curves import decision_curve
from ._periods import skill_over_time
from ._regression import regression_report
from ._slices import slice_report

__all__ = ["classification_report", "decision_curve", "regression_report", "skill_over_time",
           "slice_report"]

# Keys of the report that get no interval: counts of the rows, and MCB, whose bootstrap
# percentiles sit above the population value (the in-sample isotonic fit follows noise, and
# resampled rows add more); the in-memory report takes its interval from the calibration
# test instead, which needs the rows.
_NO_INTERVAL = ("n", "positives", "calibration_mcb")


@public(legacy=("sample_weight", "baseline"))
def classification_report(y, proba, classes, *, sample_weight=None, baseline=None, ci=None,
                          n_boot=1000, random_state=None, groups=None,
                          ci_method="percentile"):
    """:func:`chimeraboost.metrics.classification_report` of rows held in dask collections,
    with bootstrap intervals when ``ci`` is set.

    Parameters
    ----------
    y : dask array or dask Series of shape (n,), or array-like
        True labels (strings allowed), each one of ``classes``.
    proba : dask array or dask DataFrame of shape (n, K), or (n,) for binary; or array-like
        Predicted probabilities. Array columns are in the order of ``classes``; a
        DataFrame's columns are matched to ``classes`` by label, as the in-memory report
        does. A 1-D input is the probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : dask array or dask Series of shape (n,), or array-like, default=None
    baseline : array-like of targets, default=None
        Where the no-skill forecast's class prior comes from: ``None`` for the scored ``y``,
        ``y_train`` for the prior the model could have known. A dask collection is computed
        first (it is one column of labels).
    ci : float, default=None
        The level of the intervals (e.g. 0.95); None: none. The intervals come from a
        Poisson bootstrap whose replicates every block adds to its accumulator (see Notes).
    n_boot : int, default=1000
        Poisson bootstrap replicates, with ``ci``. Each costs about 100 KB per class column
        in every accumulator (a binary problem at 1000: 100 MB per block's accumulator).
    random_state : None or int, default=None
        Seeds the replicates: the same int gives the same intervals, on any cluster and in
        memory.
    groups : dask array or dask Series of shape (n,), or array-like, default=None
        With ``ci``: each row's group (a customer, a patient); the rows of a group share one
        Poisson count per replicate wherever they sit, so that whole groups are resampled.
    ci_method : {"percentile"}, default="percentile"
        How the intervals are read off the replicates. Only the percentile interval: BCa and
        the expanded intervals need the jackknife, the metrics with blocks of rows left out,
        which merged accumulators do not hold.

    Returns
    -------
    dict or Report
        Without ``ci``: a dict of the keys of :func:`chimeraboost.metrics.classification_report`.
        With ``ci``: a :class:`chimeraboost.Report` of the same keys (a read-only mapping),
        whose ``ci`` holds a percentile interval for every number but ``n``, ``positives``
        and ``calibration_mcb`` (in memory its interval comes from the calibration test,
        which needs the rows), printed beside the numbers. ``roc_auc``, ``pr_auc``,
        ``pr_auc_lift`` and the calibration decomposition are the accumulator's grid
        approximations when any input is a dask collection, or when ``ci`` is set
        (:class:`chimeraboost.metrics.ClassificationAccumulator` states the bounds).

    Raises
    ------
    ValueError
        Inputs of different lengths or shapes (the message names them), dask frames with
        different pandas indexes, and anything the in-memory report refuses (labels not in
        ``classes``, rows not summing to 1, ...). An error found in one block starts with
        ``"block i (rows a to b): "`` (rows counted from 0 over the whole input), or
        ``"partition i: "`` for frames paired partition by partition; positions in the rest of
        the message count from the block's first row.

    Notes
    -----
    The intervals: a replicate weighs every row (every group, with ``groups``) by an
    independent Poisson(1) count [HM06]_, the Poisson bootstrap, instead of drawing ``n``
    rows with replacement. Its count is a function of the replicate's seed and the row's
    position among all rows (the group's value) only -- a counter-based generator
    (:mod:`chimeraboost._shared.poisson`) -- so every block weighs its own rows without
    seeing the others, each accumulator keeps ``n_boot`` columns of every sum beside its
    own, and the merged accumulator holds the replicates of all the rows. Input that is not a
    dask collection goes through the same accumulator in memory, and gives the same report
    to rounding; the same counts are :func:`chimeraboost.resampling.bootstrap`'s with
    ``scheme="poisson"`` and the same ``random_state``. With many rows the Poisson and the
    multinomial bootstrap give the same intervals (``benchmarks/coverage.py`` measures
    both).

    References
    ----------
    .. [HM06] Hanley, J. A. and MacGibbon, B. (2006). Creating non-parametric bootstrap
       samples using Poisson frequencies. *Computer Methods and Programs in Biomedicine*
       83(1), 57-62. doi:10.1016/j.cmpb.2006.04.006

    Examples
    --------
    >>> import dask.array as da
    >>> y = da.from_array(np.array([0, 0, 1, 1] * 25), chunks=30)
    >>> p = da.from_array(np.array([0.2, 0.4, 0.6, 0.9] * 25), chunks=45)
    >>> r = classification_report(y, p, classes=[0, 1])
    >>> r["n"], round(r["brier"], 4), round(r["brier_skill"], 4), r["roc_auc"]
    (100, 0.185, 0.63, 1.0)

    With intervals (a percentile interval from 1,000 Poisson replicates):

    >>> r = classification_report(y, p, classes=[0, 1], ci=0.95, random_state=0)
    >>> low, high = r.ci["brier_skill"]
    >>> bool(low < r["brier_skill"] < high)
    True
    """
    inputs = {"y": y, "proba": proba, "sample_weight": sample_weight}
    level = check_interval_params(ci, n_boot, ci_method, groups)
    on_dask = any(_is_dask(x) for x in (*inputs.values(), groups))
    if not on_dask and level is None:
        return _metrics.classification_report(y, proba, classes, sample_weight=sample_weight,
                                               baseline=baseline)
    classes = check_classes(classes)
    if _is_dask_frame(proba):
        order = label_columns(proba, classes, "proba")
        if order is not None:
            inputs["proba"] = proba[[proba.columns[i] for i in order]]
    template = _metrics.ClassificationAccumulator(
        classes, baseline=_in_memory(baseline, "baseline"),
        n_boot=0 if level is None else n_boot, random_state=random_state)
    if level is None:
        return accumulate(template, inputs, n_classes=len(classes)).report()
    inputs["groups"] = groups
    if on_dask:
        acc = accumulate(template, inputs, n_classes=len(classes))
    else:
        acc = template.update(y, proba, sample_weight=sample_weight, groups=groups)
    return _with_intervals(acc, level, "groups" if groups is not None else "rows")


def _with_intervals(acc, level: float, units: str) -> Report:
    """The merged accumulator's report, with percentile intervals from its replicates."""
    point, reps = acc.report(), acc.replicates()
    keys = [key for key, v in point.items() if key not in _NO_INTERVAL and key in reps
            and np.ndim(v) == 0]
    reference = "y" if point["reference"] == "prior of y" else "baseline targets"
    return report_with_intervals(acc, point, reps, keys, level, units, "classification",
                                 reference)
