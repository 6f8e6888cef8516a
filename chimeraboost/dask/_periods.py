"""Skill over time of rows held in dask collections: :func:`skill_over_time`.

Private to :mod:`chimeraboost.dask` (import it from there). Questions this module answers:

- Which calendar period does each row fall in, block by block? :class:`_PeriodKeyer`:
  pandas' bins at ``freq`` (as :func:`chimeraboost.monitor.skill_over_time` makes them),
  anchored at the first date of all rows, which a first pass over ``time`` finds
  (``_date_range``).
- What are each period's loss, reference and skill, with intervals? :func:`skill_over_time`:
  one pair of accumulators per period (:mod:`chimeraboost.dask._keyed`), the reference of
  the period itself or of the ``window`` periods before it.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np

from .. import metrics as _metrics
from .. import monitor as _monitor
from .._shared.api import public
from .._shared.validation import (
    as_dates,
    check_positive_int,
    check_real,
    import_pandas,
    label_columns,
    to_numpy,
    warn_degenerate,
)
from ._blocks import _is_dask, _is_dask_frame, check_interval_params
from ._keyed import (
    LIGHT_BINS,
    against_prior,
    check_footprint,
    intervals_of,
    key_numbers,
    keyed_accumulate,
    say,
)
from ._paired_periods import check_metric, compare_periods, period_ties
from ._slices import _classes_of

__all__ = ["skill_over_time"]

_KEYS = ("base_rate", "log_loss", "log_loss_ref", "log_loss_skill", "brier", "brier_ref",
         "brier_skill", "calibration_mcb")
_SKILLS = ("log_loss_skill", "brier_skill")


def _dates(block, pd):
    """A block of ``time`` as a DatetimeIndex (ns), checked as the in-memory function
    checks it."""
    dti = as_dates(np.asarray(block), pd)
    missing = np.asarray(dti.isna())
    if missing.any():
        msg = (f"time contains {int(missing.sum())} missing date(s) (NaT; the first at position "
               f"{int(np.flatnonzero(missing)[0])} of its block); every row needs a date: drop those "
               "rows or fill their dates first.")
        raise ValueError(msg)
    return dti


def _block_range(block):
    pd = import_pandas("chimeraboost.dask.skill_over_time")
    dti = _dates(block, pd)
    return (dti.min(), dti.max()) if len(dti) else None


def _date_range(time):
    """(first, last) date of all rows: one pass over ``time``."""
    from ._keyed import _column_blocks

    blocks, dask = _column_blocks(time, "time")
    part = dask.delayed(_block_range, pure=True)
    found = [r for r in dask.compute(*[part(b) for b in blocks]) if r is not None]
    if not found:
        msg = "y is empty; at least one row is needed."
        raise ValueError(msg)
    return min(a for a, _ in found), max(b for _, b in found)


def _offset(pd, freq):
    if not (isinstance(freq, str) and freq) and not isinstance(freq, pd.offsets.BaseOffset):
        msg = (f"freq must be a pandas offset alias such as 'MS' (month start), 'W' (weeks), "
               f"'D' (days) or 'QS' (quarters), or a pandas DateOffset; got {freq!r}.")
        raise TypeError(msg)
    try:
        return pd.tseries.frequencies.to_offset(freq)
    except (TypeError, ValueError):
        msg = (f"freq={freq!r} is not a pandas offset alias; use e.g. 'MS' (month start), 'W' "
               "(weeks), 'D' (days) or 'QS' (quarters).")
        raise ValueError(msg) from None


class _PeriodKeyer:
    """Each row's calendar period: its index among pandas' bins of all rows at ``freq``.

    pandas places the bins from the first date it is given; the first and last dates of all
    rows are binned with every block, so that a block's bins are those of all rows."""

    def __init__(self, first, last, offset):
        self.first, self.last, self.offset = first, last, offset

    def bins(self, dti):
        pd = import_pandas("chimeraboost.dask.skill_over_time")
        dates = dti.append(pd.DatetimeIndex([self.first, self.last]).as_unit("ns")
                           if hasattr(dti, "as_unit") else
                           pd.DatetimeIndex([self.first, self.last]))
        order = np.argsort(dates.asi8, kind="stable")
        sizes = pd.Series(order, index=dates[order]).resample(self.offset).size()
        period = np.empty(len(dates), dtype=np.intp)
        period[order] = np.repeat(np.arange(len(sizes)), sizes.to_numpy())
        return period[:len(dti)], sizes.index

    def __call__(self, block) -> np.ndarray:
        pd = import_pandas("chimeraboost.dask.skill_over_time")
        return self.bins(_dates(block, pd))[0]


@public()
def skill_over_time(y, proba, time, *, freq="MS", reference_from="period", window=3,
                    classes=None, sample_weight=None, baseline=None, metric=None, rope=0.01,
                    last=3, groups=None, ci=None, n_boot=1000, random_state=None,
                    ci_method="percentile"):
    """:func:`chimeraboost.monitor.skill_over_time` of rows held in dask collections: one
    row per calendar period -- rows, base rate, log loss and Brier with their references and
    skills, MCB -- with Poisson bootstrap intervals of the skills when ``ci`` is set.

    Parameters
    ----------
    y : dask array or dask Series of shape (n,), or array-like
        True labels (strings allowed).
    proba : dask array or dask DataFrame of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes`` (a DataFrame's matched
        by label).
    time : dask array or dask Series of shape (n,), or array-like
        The date (or time) of each row: ``datetime64`` or strings pandas can read.
    freq : str or pandas DateOffset, default="MS"
        A pandas offset alias (``"MS"``, ``"W"``, ``"D"``, ``"QS"``): the periods are
        pandas' calendar bins, as in memory.
    reference_from : {"period", "rolling"}, default="period"
        ``"period"``: each period against its own (weighted) class prior; ``"rolling"``:
        against the class prior of the ``window`` calendar periods before it (held fixed in
        the replicates: it was known before the period began).
    window : int or None, default=3
        With ``reference_from="rolling"``: how many preceding periods; None: all of them.
    classes : array-like of shape (K,), default=None
        The class labels; None: read off ``y`` in one pass (0/1 labels with 1-D
        probabilities are ``[0, 1]``).
    sample_weight : dask array or dask Series of shape (n,), or array-like, default=None
    baseline : dask array or dask DataFrame like ``proba``, default=None
        The incumbent's probabilities on the same rows: the paired form, as in memory. Per
        period both are scored on ``metric``, with the same Poisson counts (the same
        ``random_state`` keys both), and the difference ``model - baseline`` gets a
        percentile interval at level ``ci`` (0.95 when ``ci`` is None);
        :meth:`~chimeraboost.monitor.SkillOverTime.verdict` says whether the model wins in
        the latest window. It costs a second pass of the keyed accumulators and one pass
        that finds the periods in which the two forecasts are equal (the tie rule: a
        difference of exactly 0 and the interval [0, 0] there).
    metric : str, default=None
        The number compared with ``baseline=``: on dask one whose replicates the
        accumulators keep (a sum over rows that describes the model: ``brier_skill``,
        ``log_loss_skill``, ``brier``, ``log_loss``, ``accuracy``, ...; not ROC-AUC, average
        precision or MCB). None: ``brier_skill``.
    rope : float >= 0, default=0.01
        With ``baseline=``: the region of practical equivalence, in units of ``metric``.
    last : int, default=3
        With ``baseline=``: how many of the latest periods the verdict counts wins in.
    groups : dask array or dask Series of shape (n,), or array-like, default=None
        With ``ci`` or ``baseline``: each row's group; a group's rows share one Poisson
        count per replicate.
    ci : float, default=None
        The level of each period's skill intervals; None: none.
    n_boot : int, default=1000
        Poisson bootstrap replicates; each costs a period about 0.45 KB with two classes
        (see :func:`slice_report`'s Notes for the formula and the memory limit).
    random_state : None or int, default=None
        Seeds the replicates: the same int gives the same intervals on any cluster.
    ci_method : {"percentile"}, default="percentile"
        Only the percentile interval: the others need the jackknife, which merged
        accumulators do not hold.

    Returns
    -------
    SkillOverTime
        As in memory when any input is a dask collection, with these differences: the
        numbers come from one :class:`chimeraboost.metrics.ClassificationAccumulator` per
        period (``calibration_mcb`` on its score grid, the rest exact); the intervals
        (``log_loss_skill``, ``brier_skill``, and the paired difference with
        ``baseline=``) are percentile intervals of a Poisson bootstrap keyed by each row's
        position among all rows (or its group), not of a resample within the period; the
        ``metric`` compared with ``baseline=`` is one of the sums over rows; there is no
        calibration test per period (it fits an isotonic regression to each period's rows
        and resamples them, which merged accumulators do not hold). A regression is not
        taken. Input that is not a dask collection gets the in-memory
        :func:`chimeraboost.monitor.skill_over_time`.

    Raises
    ------
    ValueError
        What the in-memory function refuses (dates that cannot be read, missing dates,
        labels not in ``classes``, ...; an error in one block names it), and more periods
        than fit the memory limit of :func:`slice_report` (a finer ``freq`` than the data
        needs), naming it.

    Notes
    -----
    A first pass over ``time`` alone finds its first and last dates, which place pandas'
    bins; every block then bins its rows with those two dates, so that each row gets the
    period the in-memory function gives it.

    Examples
    --------
    >>> import dask.array as da
    >>> y = np.array([0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1])
    >>> p = np.where(y == 1, 0.8, 0.2)
    >>> time = np.array(["2024-01-05"] * 6 + ["2024-02-05"] * 6, dtype="datetime64[ns]")
    >>> s = skill_over_time(da.from_array(y, chunks=5), da.from_array(p, chunks=5),
    ...                     da.from_array(time, chunks=5))
    >>> s.log_loss.round(4).tolist(), s.log_loss_skill.round(3).tolist()
    ([0.2231, 0.2231], [0.678, 0.649])
    """
    inputs = {"y": y, "proba": proba, "sample_weight": sample_weight, "groups": groups}
    if not any(_is_dask(x) for x in (*inputs.values(), time, baseline)):
        return _monitor.skill_over_time(
            y, proba, time, freq=freq, reference_from=reference_from, window=window,
            classes=classes, sample_weight=sample_weight, baseline=baseline, metric=metric,
            rope=rope, last=last, groups=groups, ci=ci, n_boot=n_boot,
            random_state=random_state, ci_method=ci_method)
    pd = import_pandas("chimeraboost.dask.skill_over_time")
    if isinstance(baseline, str):
        msg = (f"baseline={baseline!r}: baseline= takes the incumbent's probabilities on the "
               "same rows; the reference each period is judged against is reference_from= "
               "('period' or 'rolling').")
        raise TypeError(msg)
    if reference_from not in ("period", "rolling"):
        msg = (f"reference_from must be 'period' (each period's own base rate) or 'rolling' "
               f"(the prior of the preceding periods), got {reference_from!r}.")
        raise ValueError(msg)
    window = None if window is None else check_positive_int(window, "window")
    paired = baseline is not None
    if paired:
        rope = check_real(rope, "rope", strictly_positive=False)
        last = check_positive_int(last, "last")
    # The comparison always has its interval: at ci, or 0.95 without.
    plevel = check_interval_params(0.95 if ci is None and paired else ci, n_boot, ci_method,
                                   groups)
    level = None if ci is None else plevel
    offset = _offset(pd, freq)
    if not _is_dask(time):
        import dask.array as da

        time = da.from_array(np.asarray(time), chunks=-1)
    classes = _classes_of(y, proba, classes, "skill_over_time")
    keyer = _PeriodKeyer(*_date_range(time), offset)
    all_labels = keyer.bins(pd.DatetimeIndex([]))[1]
    check_footprint(len(all_labels), len(classes), 0 if plevel is None else n_boot,
                    f"time at freq={freq!r}", "calendar periods",
                    "pass a coarser freq=, fewer replicates (n_boot=), or ci=None.")
    inputs["proba"] = _in_class_order(proba, classes, "proba")
    point = _metrics.ClassificationAccumulator(classes)
    reps = None if plevel is None else _metrics.ClassificationAccumulator(
        classes, bins=LIGHT_BINS, n_boot=n_boot, random_state=random_state)
    if paired:
        metric = check_metric(metric, _replicate_keys(reps, classes))
    entries = keyed_accumulate((point, reps), {**inputs, "time": time}, keyer, len(classes),
                               "time")
    units = "rows" if groups is None else "groups"
    values, intervals, kept = _table(entries, all_labels, classes, level, units,
                                     reference_from, window)
    comparison = None
    if paired:
        comparison = _compare(entries, (point, reps), {**inputs, "time": time}, baseline,
                              keyer, classes, all_labels, kept, reference_from, window, metric,
                              plevel, units)
        comparison.update(metric=metric, level=plevel, rope=rope, last=last)
    return _monitor.SkillOverTime(
        task="classification", periods=all_labels[kept], freq=freq, baseline=reference_from,
        window=window, classes=classes, values=values, ci_level=level, intervals=intervals,
        n_boot=None if plevel is None else n_boot, ci_method="percentile",
        comparison=comparison, empty_periods=all_labels[~kept], units=units)


def _in_class_order(proba, classes, name):
    """A dask DataFrame of probabilities with its columns in the order of ``classes``."""
    if _is_dask_frame(proba):
        order = label_columns(proba, classes, name)
        if order is not None:
            return proba[[proba.columns[i] for i in order]]
    return proba


def _replicate_keys(reps, classes) -> list:
    """The numbers the replicate accumulator gives replicates of (fed one row per class)."""
    K = len(classes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probe = copy.deepcopy(reps).update(np.asarray(classes), np.full((K, K), 1.0 / K))
        return list(probe.replicates())


def _compare(entries, templates, inputs, baseline, keyer, classes, all_labels, kept,
             reference_from, window, metric, level, units) -> dict:
    """The paired form: the incumbent's keyed accumulators (the same templates, so the same
    Poisson counts), the periods in which the two forecasts are one, and the comparison."""
    if not _is_dask(baseline):
        import dask.array as da  # noqa: PLC0415 - present: another input is a dask collection

        baseline = da.from_array(to_numpy(baseline, "baseline"), chunks=-1)
    baseline = _in_class_order(baseline, classes, "baseline")
    # The same (empty) templates: the same replicate seeds, so the same Poisson counts.
    base = keyed_accumulate(templates, {**inputs, "proba": baseline}, keyer, len(classes),
                            "time", proba_name="baseline")
    ties = period_ties({**inputs, "baseline": baseline}, keyer)
    periods = np.flatnonzero(kept).tolist()
    priors = _rolling_priors(entries, len(all_labels), window, len(classes)) \
        if reference_from == "rolling" else None
    labels = [all_labels[p].strftime("%Y-%m-%d") for p in periods]
    return compare_periods(entries, base, ties, periods, priors, metric, level, units, labels)


def _rolling_priors(entries, n_periods: int, window, K: int) -> list:
    """The class prior of the ``window`` calendar periods before each (None where they hold
    no weight)."""
    cw = np.zeros((n_periods, K))
    for p, entry in entries.items():
        cw[p] = entry[2]
    cum = np.vstack([np.zeros((1, K)), np.cumsum(cw, axis=0)])
    out = []
    for p in range(n_periods):
        lo = 0 if window is None else max(p - window, 0)
        total = cum[p] - cum[lo]
        out.append(total / total.sum() if total.sum() > 0 else None)
    return out


def _table(entries, all_labels, classes, level, units, reference_from, window):
    """(values, intervals, kept) of the periods holding weight."""
    K = len(classes)
    kept = np.array([p in entries and entries[p][2].sum() > 0 for p in range(len(all_labels))],
                    dtype=bool)
    priors = _rolling_priors(entries, len(all_labels), window, K) \
        if reference_from == "rolling" else None
    rows, caught = [], {}
    for p in np.flatnonzero(kept):
        label = all_labels[p].strftime("%Y-%m-%d")
        values, ci, reps = key_numbers(entries[p], level, units, caught, label)
        if priors is not None:
            values, ci = _rolling(values, ci, reps, priors[p], level, units, entries[p])
        rows.append((entries[p][0].n, values, ci))
    say(caught, "Period")
    if priors is not None:
        _warn_gaps([all_labels[p] for p in np.flatnonzero(kept)[1:] if priors[p] is None])
    out = {key: np.array([v.get(key, np.nan) for _, v, _ in rows], dtype=np.float64)
           for key in _KEYS}
    if priors is not None:
        out["reference_prior"] = np.array(
            [np.full(K, np.nan) if priors[p] is None else priors[p]
             for p in np.flatnonzero(kept)]).reshape(-1, K)
        if K == 2:
            out["reference_prior"] = out["reference_prior"][:, 1]
    out["rows"] = np.array([n for n, _, _ in rows], dtype=np.int64)
    intervals = None
    if level is not None:
        nan2 = (np.nan, np.nan)
        intervals = {key: np.array([c.get(key, nan2) for _, _, c in rows],
                                   dtype=np.float64).reshape(-1, 2) for key in _SKILLS}
    return out, intervals, kept


def _warn_gaps(labels) -> None:
    # As in memory: the first period has no history by construction (NaN, said in the
    # table's footer); a later one without rows in its window is worth a warning.
    if labels:
        shown = ", ".join(t.strftime("%Y-%m-%d") for t in labels[:5])
        more = f" and {len(labels) - 5} more" if len(labels) > 5 else ""
        warn_degenerate(f"Period(s) {shown}{more} have no rows in the preceding window: with "
                        "reference_from='rolling' there is no prior to judge them against, "
                        "so their skills are NaN.")


def _rolling(values, ci, reps, prior, level, units, entry):
    """A period's references and skills against the prior of the periods before it."""
    if prior is None:  # no history: no reference, no skill
        values.update({k: np.nan for k in ("log_loss_ref", "brier_ref", *_SKILLS)})
        return values, {}
    point, rows = against_prior(prior, values, reps)
    values.update(point)
    if rows is not None:
        ci = intervals_of(values, rows, list(_SKILLS), entry[1].n_boot, entry[0].n, level,
                          units)
    return values, ci
