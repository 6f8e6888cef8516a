"""The report per slice on arrays: :func:`slice_report`.

Questions this module answers:

- *Which slices may be tested, and why not the others?* -> ``_eligible``: at least
  ``min_rows`` rows, and for a classification ``min_events`` rows of each class (binary) or
  of two classes (multiclass), in the slice and in the rest of the data.
- *All of it, for the caller* -> :func:`slice_report`, which reads the slices
  (``_groups``), validates the model's output (``_inputs``), computes the numbers, their
  intervals and the tests (``_compute``) and hands them to :class:`SliceReport`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import numpy as np

from .._shared.api import public
from .. import resampling
from ..resampling import DEFAULT_CI_METHOD
from .._shared.draws import calibration_draws
from .._shared.facts import parse_metric
from .._shared.slice_tests import shortfall, verdicts
from .._shared.units import resampled
from .._shared.validation import (
    as_1d,
    check_aligned,
    check_level,
    check_positive_int,
    check_sample_weight,
    encode_labels,
    plain,
)
from . import _compute
from ._groups import resolve
from ._inputs import Output, task_of
from ._result import SliceReport

__all__ = ["slice_report"]


def _check_metric(metric, task: str, has_proba: bool) -> str:
    if metric is None:
        return _compute.DEFAULT_METRIC[task] if has_proba or task != "classification" \
            else _compute.DEFAULT_METRIC["rule"]
    allowed = _compute.DIFF_KEYS[task] if has_proba or task != "classification" \
        else _compute.DIFF_KEYS["rule"]
    allowed = (*allowed, *(f"{k}_vs_all" for k in _compute.VS_ALL.get(task, ())
                           if k in allowed))
    # Sums over rows: the rest's value comes from the sums of all rows minus the slice's;
    # ROC-AUC and MCB do not, nor does a number at a threshold here.
    return parse_metric(metric, arg="metric", valid=allowed,
                        why=(" (a slice is compared with the rest on a number that sums over "
                             "rows: the rest's sums are all rows' minus the slice's; ROC-AUC, "
                             "MCB and numbers at a threshold do not)")).key


def _check_adjust(adjust) -> str:
    if adjust not in _compute.ADJUST:
        msg = (f"adjust must be 'holm' (family-wise error) or 'bh' (Benjamini-Hochberg, false "
               f"discovery rate), got {adjust!r}.")
        raise ValueError(msg)
    return adjust


def _check_halves(model, search, held, min_rows: int, min_events: int) -> None:
    """Refuse a weak-slice search that no slice could pass, naming the cause: a single class
    (no skill to be weaker in), or halves too small for a slice and the rest to each reach
    ``min_rows`` rows (and ``min_events`` of each class)."""
    if model.task != "regression":
        seen = np.flatnonzero(model.class_counts(np.arange(model.n)))
        if seen.size < 2:
            msg = (f"y holds a single class ({plain(model.classes[seen[0]])!r}): every slice's skill "
                   "against its own base rate is undefined, so no slice can be found weaker; "
                   "pass rows of both classes.")
            raise ValueError(msg)
    for half, rows in (("search", search), ("held-out", held)):
        counts = model.class_counts(rows) if model.task != "regression" else None
        short = shortfall(counts, rows.size, 2 * min_rows, 2 * min_events, "")
        if short:
            msg = (f"find_weak_slices splits the {model.n} rows into a search half and a "
                   f"held-out half; the {half} half has {short}, but a slice and the rest of "
                   f"the rows each need min_rows={min_rows} rows and min_events={min_events} "
                   "of each class, so no slice could be tested. Pass more rows, or lower "
                   "min_rows / min_events.")
            raise ValueError(msg)


def _eligible(model, layout, min_rows: int, min_events: int) -> tuple[list, list]:
    """Per slice: None when it may be tested, else why not (for the reader) -- against the
    rest (the slice and the rest must both qualify), and against a baseline (the slice)."""
    n = layout.n
    total = model.class_counts(np.arange(n)) if model.task != "regression" else None
    vs_rest, vs_base = [], []
    for rows in layout.rows:
        if rows.size == 0 or not np.any(model.rows["weight"][rows] > 0):
            why = "no rows" if rows.size == 0 else "every row weighs 0"
            vs_rest.append(why)
            vs_base.append(why)
            continue
        own = model.class_counts(rows) if total is not None else None
        alone = shortfall(own, rows.size, min_rows, min_events, "")
        rest = shortfall(None if own is None else total - own, n - rows.size,
                          min_rows, min_events, "the rest has ")
        vs_rest.append(alone or rest)
        vs_base.append(alone)
    return vs_rest, vs_base


def _reference(model, reference, refs_name):
    """The reference of all rows: ``{"prior": ...}`` or ``{"centre": ...}`` (on the scale of
    y centred at its weighted mean), and how it is named."""
    if model.task == "regression":
        if reference is None:
            return {"centre": 0.0}, f"the mean of all rows ({model.centre:.4g})"
        mean = float(np.mean(as_1d(reference, "reference").astype(np.float64)))
        return {"centre": mean - model.centre}, f"the mean of {refs_name} ({mean:.4g})"
    if model.proba is None:
        return {}, None
    K = len(model.classes)
    if reference is None:
        w = model.rows["weight"]
        prior = np.bincount(model.codes, weights=w, minlength=K) / w.sum()
        src = "all rows"
    else:
        prior = np.bincount(encode_labels(reference, model.classes, "reference"),
                            minlength=K) / len(as_1d(reference, "reference"))
        src = refs_name
    shown = f"{prior[1]:.3f}" if K == 2 else ", ".join(f"{c} {q:.3f}" for c, q in
                                                      zip(model.classes.tolist(), prior))
    return {"prior": prior}, f"the class prior of {src} ({shown})"


# slice_report's slices were called ``groups``; the name now means the resampling units (as in
# scikit-learn's GroupKFold). A keyword call with groups= and no by= is an old call: refused,
# naming both, rather than read the new way.
_BY_REQUIRED = ("slice_report() needs the slices: pass them as by= (or as the third "
                "positional argument). groups= no longer names the slices: it names the "
                "resampling units (whole groups resampled together, as in scikit-learn's "
                "GroupKFold), and is given together with by=.")


def _needs_by(func):
    """Refuse a call without the slices with :data:`_BY_REQUIRED` (naming ``by=`` and what
    ``groups=`` means now), not Python's bare "missing argument"."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if len(args) < 3 and "by" not in kwargs:
            raise TypeError(_BY_REQUIRED)
        return func(*args, **kwargs)

    return wrapper


@public()
@_needs_by
def slice_report(y, proba_or_pred, by, *, X=None, classes=None, task=None, y_pred=None,
                 sample_weight=None, metric=None, bins=5, min_rows=30, min_events=10,
                 adjust="holm", alpha=0.05, ci=0.95, n_boot=2000, random_state=None,
                 baseline=None, baseline_task=None, baseline_y_pred=None, reference=None,
                 name=None, baseline_name=None, reference_name="reference",
                 calibration=True, groups=None, time=None,
                 ci_method=DEFAULT_CI_METHOD) -> SliceReport:
    """Who is the model good for? Its numbers per slice, each against the slice's own base
    rate, with intervals, the difference to the rest of the data and a verdict that allows
    for the number of slices.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed) or, for a regressor, true values.
    proba_or_pred : array-like of shape (n, K) or (n,)
        Predicted probabilities, columns in the order of ``classes`` (a 1-D array is the
        probability of ``classes[1]``); a regressor's predictions; with ``task="ranking"``
        scores that rank the rows, with ``task="rule"`` predicted labels.
    by : column name, list of column names, array-like, DataFrame or dict
        The slices (formerly ``groups``, a name that now means the resampling units, below;
        required): a column of ``X``
        (name, or index for an array), a list of columns (crossed: one slice per combination
        present, as pandas' ``groupby``), one label per row (a Series, array or list), a
        DataFrame of columns (crossed), or a dict name -> boolean mask of the rows (slices
        that may overlap; the rest of a slice is every row outside its mask). Numeric columns
        and labels with more than ``bins`` distinct values are cut at their quantiles; missing
        values (NaN, None, NA, null) are a slice of their own, labelled ``missing``.
    X : DataFrame, mapping of columns or 2-D array, default=None
        Where the column names of ``by`` are looked up.
    classes : array-like of shape (K,), default=None
        The class labels (e.g. the model's ``classes_``). None: read off ``y`` (as in
        :func:`chimeraboost.monitor.skill_over_time`): numeric ``y`` other than 0/1 with 1-D
        predictions is a regression.
    task : {"classification", "ranking", "rule", "regression"}, default=None
        What ``proba_or_pred`` is; None reads it off the inputs (probabilities or a
        regression).
    y_pred : array-like of shape (n,), default=None
        With ``task="ranking"``: the predicted labels, for the accuracy.
    sample_weight : array-like of shape (n,), default=None
    metric : str, default=None
        The number each slice is compared with the rest (and the baseline) on; it must be a
        sum over rows: ``"brier_skill"`` (the default with probabilities), ``"log_loss_skill"``,
        ``"balanced_accuracy"`` (the default without), ``"accuracy"``, or ``"r2"`` for a
        regression.
    bins : int or None, default=5
        Quantile bins of a numeric column; None keeps every value as a slice.
    min_rows, min_events : int, default=30 and 10
        Slices (or rests) with fewer rows, or fewer rows of a class (binary: positives or
        negatives; multiclass: fewer than two classes with that many rows), are shown but
        not tested; the verdict says why.
    adjust : {"holm", "bh"}, default="holm"
        The adjustment over the tested slices: Holm's (the chance that any slice is called
        different when none is stays below ``alpha``) or Benjamini-Hochberg's (the expected
        share of wrong calls among the slices called different stays below ``alpha``).
    alpha : float in (0, 1), default=0.05
    ci : float in (0, 1) or None, default=0.95
        Level of the percentile bootstrap intervals. None: no intervals and nothing
        resampled -- the slices' numbers and their differences to the rest, untested.
    n_boot : int, default=2000
        Resamples, one set for all slices (the one rule of
        :func:`~chimeraboost.resampling.check_n_boot`).
    random_state : None, int or numpy Generator
    baseline : array-like, default=None
        The output of an incumbent model on the same rows (as ``proba_or_pred``, of kind
        ``baseline_task``, default ``task``): adds, per slice, the paired difference model
        minus baseline on ``metric`` with its interval and verdict.
    baseline_task, baseline_y_pred : default=None
        As ``task`` and ``y_pred``, for the baseline.
    reference : array-like of targets, default=None
        Where the reference of all rows comes from, for each slice's skill against it
        (``*_vs_all``): None takes the (weighted) class prior or mean of ``y``; ``y_train``
        the prior or mean of those targets.
    name, baseline_name, reference_name : str, default=None, None, "reference"
        What to call the model, the baseline and ``reference`` in the printed report.
    calibration : bool, default=True
        Also the calibration test of each slice's MCB (:func:`chimeraboost.metrics.calibration_test`
        on the slice's rows, ``min(n_boot, 1000)`` draws): its noise floor, the population
        MCB's estimate (``calibration_excess``) with its interval, and the p-value. False
        leaves them out (a test per slice costs about as much as the slices' resamples).
    groups : array-like of shape (n,) or column name of X, default=None
        The resampling units, as in scikit-learn's ``GroupKFold`` (a customer, a patient, an
        account): every resample draws whole groups of *all* rows, and each slice takes its
        rows' share. A group may cross slices (a customer in several regions); its rows then
        move together in every slice, as they do in the data. The tests' degrees of freedom
        count the slice's groups, and each slice's calibration test resamples its groups.
    time : array-like of shape (n,) or column name of X, default=None
        The date (or any sortable value) of each row: blocks of consecutive time points are
        resampled (a stationary bootstrap; see :mod:`chimeraboost._shared.units`). With
        ``groups`` too, whole groups are resampled.
    ci_method : str, default="expanded_bca"
        How intervals are read off the replicates (``resampling.CI_METHODS``), checked and
        carried by the one resampling scheme; every interval here is read through it, but
        without a jackknife per slice, so the slices' intervals are percentile intervals
        whatever ``ci_method`` (see Notes).

    Returns
    -------
    SliceReport
        ``print`` it for the tables; ``to_frame()`` for pandas; ``plot()`` for the forest
        plot of the slices' skills.

    Notes
    -----
    Each slice's numbers are those of :mod:`chimeraboost.metrics` on its rows: its own base
    rate, the loss of the no-skill forecast at that rate, and the skill ``1 - loss /
    reference``; ``*_vs_all`` are the skills against the reference of all rows (the slice's
    loss against the loss the overall base rate would have on its rows).

    The difference to the rest (slice minus the rows outside it) is taken in every bootstrap
    resample of the rows -- one resample for all slices -- and tested against zero with its
    bootstrap standard error (the standard deviation of the replicates), against Student's t
    with the slice's rows (or its rest's, the fewer; with ``groups=``, its groups; for a
    binary classification no more than its rows of the rarer class) minus one degrees of
    freedom -- the standard error is estimated from that much evidence too; the two-sided p-values of the tested
    slices are adjusted
    with ``adjust`` and a slice is called "worse than the rest" or "better than the rest"
    when its adjusted p-value is at most ``alpha``. The interval printed beside it is the
    unadjusted percentile interval: a slice whose interval excludes zero may still show no
    detectable difference once the number of slices is allowed for.

    The reference of all rows is held fixed in the resamples (the slices' own references
    are recomputed in each).

    Why percentile intervals: BCa and its expanded form need each number's jackknife, a
    leave-out pass per slice and per number on top of the resamples shared by all slices --
    as costly again as the resamples themselves on many small slices. The verdicts do not
    read these intervals (they test the difference against its standard error), so the
    slices' intervals stay percentile intervals, read through the same
    :class:`~chimeraboost.resampling.Resampler` as every other interval.

    Examples
    --------
    Four regions of 200 rows; the model forecasts well everywhere but in the west, where its
    probabilities are noise. The west is worse than the rest; each other region is better
    than *its* rest, which holds the west:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> region = np.repeat(["north", "south", "east", "west"], 200)
    >>> y = rng.integers(0, 2, 800)
    >>> p = np.where(y == 1, 0.8, 0.2)
    >>> p[region == "west"] = rng.uniform(0.1, 0.9, 200)
    >>> r = slice_report(y, p, region, n_boot=1000, random_state=0)
    >>> for label, skill, verdict in zip(r.labels, r.values["brier_skill"], r.verdict):
    ...     print(f"{label:6}{skill:7.3f}  {verdict}")
    east    0.840  better than the rest
    north   0.838  better than the rest
    south   0.838  better than the rest
    west   -0.176  worse than the rest
    """
    level = None if ci is None else check_level(ci, "ci")
    alpha = check_level(alpha, "alpha", example="0.05")
    n_boot = resampling.check_n_boot(n_boot, optional=level is None)
    min_rows = check_positive_int(min_rows, "min_rows")
    min_events = check_positive_int(min_events, "min_events")
    adjust = _check_adjust(adjust)
    # A dict's masks are checked one by one: a misaligned mask Series is refused as a
    # misaligned labels Series is.
    masks = ({f"by[{k!r}]": v for k, v in by.items()} if isinstance(by, Mapping)
             else {"by": by})
    check_aligned(y=y, proba_or_pred=proba_or_pred, **masks, sample_weight=sample_weight,
                  X=X, baseline=baseline, **{k: v for k, v in (("groups", groups),
                                                               ("time", time))
                                             if v is not None and not isinstance(v, str)})
    n = len(as_1d(y, "y"))
    w = check_sample_weight(sample_weight, n)
    task, classes = task_of(y, proba_or_pred, classes, task)
    model = Output(task, y, proba_or_pred, classes, w, y_pred)
    base = None
    if baseline is not None:
        base = Output(baseline_task or task, y, baseline, classes, w, baseline_y_pred,
                      name="baseline")
    metric = _check_metric(metric, task, getattr(model, "proba", None) is not None)
    slicing = resolve(by, X, n, bins)
    layout = _compute.Layout(slicing, n)
    refs, reference_text = _reference(model, reference, reference_name)
    # One scheme (one generator) for the resamples, then the calibration tests' draws:
    # reproducible from one seed, and the two never share random numbers.
    scheme = resampling.Resampler.for_evaluator(
        model.whole, n_boot=n_boot, random_state=random_state, ci_method=ci_method,
        groups=groups, time=time, X=X, optional=level is None,
        chunk_size=_compute.chunk_size(n))
    evaluators, values = _compute.points(model, layout, slicing.labels)
    data = _assemble(model, base, layout, evaluators, values, refs, metric, level, scheme,
                     adjust, alpha, *_eligible(model, layout, min_rows, min_events),
                     calibration=calibration)
    out = SliceReport(slicing=slicing, task=task, classes=classes, metric=metric,
                      level=level, n_boot=0 if level is None else n_boot, adjust=adjust,
                      alpha=alpha, name=name or "model",
                      baseline_name=baseline_name or "baseline",
                      reference_text=reference_text, min_rows=min_rows,
                      min_events=min_events, **data)
    out.resampled = "all rows" if scheme.kind == "rows" else resampled(scheme.units)
    return out


def _interval(scheme, reps, estimate, level) -> tuple:
    """One interval, read through the scheme (percentile: no jackknife per slice)."""
    if reps is None or level is None:
        return (np.nan, np.nan)
    return tuple(scheme.interval(reps, estimate, level, jackknife=None))


def _intervals(scheme, reps: list, values: list, keys, level) -> dict:
    """Key -> (S, 2) intervals of each slice's replicates (the keys resampled)."""
    out = {}
    for key in [k for k in keys if any(k in r for r in reps)]:
        out[key] = np.array([_interval(scheme, r.get(key), v.get(key, np.nan), level)
                             for r, v in zip(reps, values)]).reshape(-1, 2)
    return out


def _units(scheme, layout, rows_of_slice, rest: bool, model=None) -> list:
    """Per slice: what its test's degrees of freedom count -- the resampled units (rows,
    groups, or time points over the block length), the fewer of the slice's and its rest's
    when ``rest`` -- and, for a binary classification, no more than the rows of the rarer
    class (the events), which carry a skill's information: a slice of 34 rows with 10
    positives estimates its standard error from about 10 pieces of evidence, not 34."""
    units = scheme.units
    binary = model is not None and model.task != "regression" and len(model.classes) == 2
    total = model.class_counts(np.arange(layout.n)) if binary else None
    out = []
    for r in rows_of_slice:
        inside = np.zeros(layout.n, bool)
        inside[r] = True
        parts = [inside, ~inside] if rest else [inside]
        counts = []
        for part in parts:
            m = int(part.sum())
            if units is None or units.independent_rows or m == 0:
                counts.append(m)
            else:
                counts.append(scheme.subset(part).n_units(m))
        if binary:
            own = model.class_counts(r)
            counts.append(int(own.min()))
            if rest:
                counts.append(int((total - own).min()))
        out.append(min(counts))
    return out


def _assemble(model, base, layout, evaluators, values, refs, metric, level, scheme,
              adjust, alpha, reasons, reasons_base, *, calibration=True) -> dict:
    S = len(layout.takes)
    n_boot = scheme.n_boot
    vs_all = _compute.vs_all_points(model, layout, refs) if refs else [{}] * (S + 1)
    for v, extra in zip(values, vs_all):
        v.update(extra)
    if level is None:  # ci=None: nothing resampled, nothing tested
        n_boot = 1
        reps = {"slice": [{} for _ in range(S)], "rest": [{}] * S, "base": [{}] * S,
                "vs_all": [{}] * S, "all": {}}
        untested = "no resamples (ci=None)"
        reasons, reasons_base = ([r or untested for r in rs] for rs in (reasons, reasons_base))
        calibration = False
    else:
        reps = _compute.bootstrap(model, base, layout, evaluators, values, refs, scheme)
    for own, extra in zip(reps["slice"], reps["vs_all"]):
        own.update(extra)
    keys = sorted({k for v in values for k, x in v.items() if np.ndim(x) == 0})
    _, rest_points = _compute.sum_points(model, layout, refs)
    diff = np.array([values[s].get(metric, np.nan) - rest_points[s].get(metric, np.nan)
                     for s in range(S)])
    nan = np.full(n_boot, np.nan)
    diff_reps = [r.get(metric, nan) - q.get(metric, nan)
                 for r, q in zip(reps["slice"], reps["rest"])]
    eligible = [r is None for r in reasons]
    units = _units(scheme, layout, layout.rows, True, model)
    tested, se, p, adjusted, reject = _compute.tests(
        _compute.tested_differences(metric, diff, values, rest_points, reps, units),
        diff_reps, eligible, adjust, alpha, units)
    diff = np.where(tested == 0.0, 0.0, diff)  # a tie is a difference of 0
    reasons = [r if r is not None else (None if np.isfinite(p[s]) else
                                         "the difference is undefined")
               for s, r in enumerate(reasons)]
    intervals = _intervals(scheme, reps["slice"], values, keys, level)
    # MCB: the calibration test of each slice, after the resamples, from the same generator.
    tests, interval = _compute.calibration_tests(
        model, layout, level, calibration_draws(n_boot), scheme.rng, scheme.units) \
        if calibration else ({}, None)
    for key, v in tests.items():
        for s, value in enumerate(v):
            values[s][key] = float(value)
    if interval is not None:
        intervals["calibration_excess"] = interval
    data = {
        "values": values, "intervals": intervals,
        "overall": _overall(model, reps["all"], scheme, level, vs_all[-1]),
        "rest": np.array([q.get(metric, np.nan) for q in rest_points]),
        "difference": diff,
        "diff_interval": _diff_intervals(scheme, diff_reps, diff, se, level),
        "se": se, "pvalue": p, "pvalue_adjusted": adjusted,
        "verdict": verdicts(tested, reject, reasons, metric),
        "reasons": reasons, "vs_baseline": None,
    }
    if base is not None:
        data["vs_baseline"] = _vs_baseline(base, layout, values, reps, refs, metric, level,
                                           scheme, reasons_base, adjust, alpha)
    return data


def _diff_intervals(scheme, diff_reps, diff, se, level) -> np.ndarray:
    """(S, 2) intervals of the differences; a tie (``se`` 0 with a difference of 0) is
    ``[0, 0]``, not the rounding noise of its replicates."""
    out = np.array([_interval(scheme, d, x, level) for d, x in zip(diff_reps, diff)])
    out = out.reshape(len(diff), 2)
    out[(np.asarray(se) == 0) & (np.asarray(diff) == 0)] = 0.0
    return out


def _overall(model, reps_all, scheme, level, vs_all) -> dict:
    """All rows: the point numbers of the model's evaluator, and intervals of the additive
    ones from the same resamples as the slices'."""
    point = {key: (float(v[0]) if np.ndim(v) == 1 else np.asarray(v[0]))
             for key, v in model.whole.evaluate().items()}
    point["n"] = model.n
    point.update(vs_all)
    intervals = {key: _interval(scheme, r, point.get(key, np.nan), level)
                 for key, r in reps_all.items() if key != "base_rate"}
    return {"values": point, "intervals": intervals}


def _vs_baseline(base, layout, values, reps, refs, metric, level, scheme, reasons, adjust,
                 alpha):
    """Per slice: the baseline's ``metric``, model minus baseline with its interval, the
    test adjusted over the slices and the verdict."""
    base_points, _ = _compute.sum_points(base, layout, refs)
    b = np.array([bp.get(metric, np.nan) for bp in base_points])
    m = np.array([v.get(metric, np.nan) for v in values])
    nan = np.full(scheme.n_boot, np.nan)
    diff_reps = [r.get(metric, nan) - q.get(metric, nan)
                 for r, q in zip(reps["slice"], reps["base"])]
    diff, se, p, adjusted, reject = _compute.tests(
        m - b, diff_reps, [r is None for r in reasons], adjust, alpha,
        _units(scheme, layout, layout.rows, False, base))
    reasons = [r if r is not None else (None if np.isfinite(p[s]) else
                                         "the difference is undefined")
               for s, r in enumerate(reasons)]
    return {"baseline": b, "difference": diff,
            "interval": _diff_intervals(scheme, diff_reps, diff, se, level),
            "se": se, "pvalue": p, "pvalue_adjusted": adjusted,
            "verdict": verdicts(diff, reject, reasons, metric,
                                ("baseline better", "model better"))}
