"""How far off are a regressor's numbers, and how sure is each, when its predictions live on
a Dask cluster? :func:`regression_report`.

Part of :mod:`chimeraboost.dask` (re-exported there). Each block of rows updates a
:class:`chimeraboost.metrics.RegressionAccumulator` on the worker that holds it -- with
``ci``, also ``n_boot`` Poisson bootstrap replicates of its sums, keyed by the rows'
positions (or their groups) -- the accumulators merge in a tree, and the merged one gives the
report and, with ``ci``, a percentile interval per number.
"""

from __future__ import annotations

from .. import metrics as _metrics
from .._report import Report
from .._shared.api import public
from ._blocks import (_in_memory, _is_dask, accumulate, check_interval_params,
                      report_with_intervals)

__all__ = ["regression_report"]

# Keys of the report that get no interval: the row count, and the no-skill forecast's
# numbers given by baseline targets (constants, the same in every replicate).
_NO_INTERVAL = ("n",)
_FIXED_BY_BASELINE = ("baseline_mean", "baseline_median")


@public(legacy=("sample_weight", "baseline"))
def regression_report(y, pred, *, sample_weight=None, baseline=None, ci=None, n_boot=1000,
                      random_state=None, groups=None, ci_method="percentile"):
    """:func:`chimeraboost.metrics.regression_report` of rows held in dask collections, with
    bootstrap intervals when ``ci`` is set.

    Parameters
    ----------
    y : dask array or dask Series of shape (n,), or array-like
        True values.
    pred : dask array or dask Series of shape (n,), or array-like
        Predictions.
    sample_weight : dask array or dask Series of shape (n,), or array-like, default=None
    baseline : array-like of targets, default=None
        Where the no-skill forecasts (mean and median) come from: ``None`` for the scored
        ``y``, ``y_train`` for what the model could have known. A dask collection is computed
        first (it is one column of targets).
    ci : float, default=None
        The level of the intervals (e.g. 0.95); None: none. The intervals come from a
        Poisson bootstrap whose replicates every block adds to its accumulator, as in
        :func:`chimeraboost.dask.classification_report`.
    n_boot : int, default=1000
        Poisson bootstrap replicates, with ``ci``. Each costs 48 bytes in every accumulator
        (six sums) with ``baseline=``; without it up to 32 KB more (the weights of the
        values of ``y`` kept for its median: 32 MB at 1000). A block's update makes a
        ``(replicates, rows)`` matrix of counts 32 MB at a time.
    random_state : None or int, default=None
        Seeds the replicates: the same int gives the same intervals, on any cluster and in
        memory.
    groups : dask array or dask Series of shape (n,), or array-like, default=None
        With ``ci``: each row's group; the rows of a group share one Poisson count per
        replicate wherever they sit, so that whole groups are resampled.
    ci_method : {"percentile"}, default="percentile"
        How the intervals are read off the replicates; only the percentile interval (the
        others need the jackknife, which merged accumulators do not hold).

    Returns
    -------
    dict or Report
        Without ``ci``: a dict of the keys of :func:`chimeraboost.metrics.regression_report`.
        With ``baseline=None``, ``baseline_median``, ``mae_ref`` and ``mae_skill`` are the
        accumulator's grid approximations when any input is a dask collection
        (:class:`chimeraboost.metrics.RegressionAccumulator` states the bound); the rest is
        exact to float rounding. With ``ci``: a :class:`chimeraboost.Report` of the same
        keys whose ``ci`` holds a percentile interval for every number but ``n`` (and,
        with ``baseline=``, the baseline's mean and median, which no replicate changes);
        the median-based ones from the same values (or bins) as the report's own.

    Raises
    ------
    ValueError
        Inputs of different lengths or shapes (the message names them), dask frames with
        different pandas indexes, and anything the in-memory report refuses (NaN, negative
        weights, ...). An error found in one block names it, as
        :func:`chimeraboost.dask.classification_report` says.

    Notes
    -----
    A replicate weighs every row (every group) by an independent Poisson(1) count from a
    counter-based generator keyed by the replicate's seed and the row's position (the
    group's value), so that blocks weighed apart give one process's replicates (Hanley &
    MacGibbon 2006, doi:10.1016/j.cmpb.2006.04.006). Each replicate's sums -- weight, mean,
    sum of squared deviations, squared and absolute errors -- are merged across blocks by
    Chan, Golub & LeVeque's (1979) formula, as the accumulator's own. Input that is not a
    dask collection goes through the same accumulator in memory with ``ci``, and gives the
    same report to rounding.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> y = da.from_array(np.arange(10.0), chunks=4)
    >>> r = regression_report(y, y + 1.0)
    >>> r["n"], r["mse"], round(r["r2"], 4)   # every error is 1; Var(y) = 8.25
    (10, 1.0, 0.8788)

    With intervals (1,000 Poisson replicates of 2,000 rows in 4 blocks):

    >>> rng = np.random.default_rng(0)
    >>> t = rng.normal(size=2000); p = t + rng.normal(scale=0.5, size=2000)
    >>> r = regression_report(da.from_array(t, chunks=500), da.from_array(p, chunks=500),
    ...                       ci=0.95, random_state=0)
    >>> low, high = r.ci["r2"]
    >>> bool(low < r["r2"] < high)
    True
    """
    inputs = {"y": y, "pred": pred, "sample_weight": sample_weight}
    level = check_interval_params(ci, n_boot, ci_method, groups)
    on_dask = any(_is_dask(x) for x in (*inputs.values(), groups))
    if not on_dask and level is None:
        return _metrics.regression_report(y, pred, sample_weight=sample_weight,
                                          baseline=baseline)
    template = _metrics.RegressionAccumulator(
        baseline=_in_memory(baseline, "baseline"), n_boot=0 if level is None else n_boot,
        random_state=random_state)
    if level is None:
        return accumulate(template, inputs).report()
    inputs["groups"] = groups
    if on_dask:
        acc = accumulate(template, inputs)
    else:
        acc = template.update(y, pred, sample_weight=sample_weight, groups=groups)
    return _with_intervals(acc, level, "groups" if groups is not None else "rows")


def _with_intervals(acc, level: float, units: str) -> Report:
    """The merged accumulator's report, with percentile intervals from its replicates."""
    point, reps = acc.report(), acc.replicates()
    fixed = _FIXED_BY_BASELINE if acc.baseline is not None else ()
    keys = [key for key in point if key in reps and key not in _NO_INTERVAL + fixed]
    reference = "y" if point["reference"] == "mean of y" else "baseline targets"
    return report_with_intervals(acc, point, reps, keys, level, units, "regression",
                                 reference)
