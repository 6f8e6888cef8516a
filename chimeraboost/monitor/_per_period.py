"""The numbers of each period: loss, reference, skill and their bootstrap intervals.

Questions this module answers:

- *What are a period's loss, reference loss and skill?* -> ``_classification`` /
  ``_regression``: one weight vector per period through one evaluator of
  :mod:`chimeraboost.metrics`, and with ``reference_from="rolling"`` the reference of the preceding
  ``window`` periods instead of the period's own.
- *Is a period's change more than noise?* -> ``_period_intervals``: rows (or, with
  ``groups=``, whole groups) resampled within the period -- one
  :class:`~chimeraboost.resampling.Resampler` on all rows, each period resampling its
  ``subset`` -- with :class:`_PeriodSkills` handing a period's skills to it, a rolling
  reference held fixed, the interval read by ``ci_method``.
- *Is the model better than the incumbent, period by period?* -> ``_paired`` (with
  ``baseline=``), on the same scheme.
- *All of it, for the caller* -> :func:`skill_over_time`, which checks the inputs
  (``_inputs``), computes the numbers here and hands them to :class:`SkillOverTime`
  (``_result``).
"""

from __future__ import annotations

import warnings

import numpy as np

from .._shared.api import public
from .. import metrics as _metrics
from .. import resampling as _resampling
from .._shared.units import check_units
from .._shared.validation import (
    as_1d,
    check_aligned,
    check_level,
    check_positive_int,
    check_proba,
    check_real,
    import_pandas,
    warn_degenerate,
)
from ..exceptions import FewResamplesWarning
from ._inputs import _check_baseline, _check_window, _periods, _task
from ._paired import _check_metric, _paired_periods
from ._result import _SKILLS, SkillOverTime, _label


# Elements of one (periods, n) weight matrix handed to an evaluator: bounds memory (32 MB)
# whatever the number of periods.
_CHUNK_ELEMENTS = 4_000_000

_CLASSIFICATION_KEYS = ("log_loss", "log_loss_ref", "log_loss_skill", "brier", "brier_ref",
                        "brier_skill", "calibration_mcb")
_REGRESSION_KEYS = ("mean_y", "baseline_mean", "baseline_median", "rmse", "rmse_ref",
                    "mse_skill", "r2", "mae", "mae_ref", "mae_skill")


# --------------------------------------------------------------------------- evaluation


def _evaluate_masks(evaluate, member, n_groups: int, n: int) -> dict:
    """Evaluate one weight vector per group, ``member(start, stop)`` giving their (b, n) 0/1
    matrix, in chunks that bound memory; dict of arrays with one entry per group."""
    step = max(1, _CHUNK_ELEMENTS // max(n, 1))
    parts = [evaluate(member(start, min(n_groups, start + step)))
             for start in range(0, n_groups, step)]
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def _window_bounds(cal: np.ndarray, window):
    """Each window as calendar bins ``[lo, hi)``: the ``window`` bins before each of ``cal``."""
    return (np.zeros_like(cal) if window is None else np.maximum(cal - window, 0)), cal


def _class_weights(codes, weight, period, n_cal: int, K: int) -> np.ndarray:
    flat = np.bincount(period * K + codes, weights=weight, minlength=n_cal * K)
    return flat.reshape(n_cal, K)


def _list_periods(labels, mask) -> str:
    shown = [_label(t) for t in np.asarray(labels, dtype=object)[mask][:5]]
    more = int(mask.sum()) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _ratio_skill(loss, ref, undefined):
    with np.errstate(invalid="ignore", divide="ignore"):
        skill = 1.0 - loss / ref
    return np.where(undefined | ~np.isfinite(ref) | (ref <= 0), np.nan, skill)


def _classification(ev, period, cal, n_cal, labels, baseline, window):
    n, K = ev.n, ev.n_classes
    out = _evaluate_masks(
        lambda W: ev.evaluate(W, warn=False, metrics=[*_CLASSIFICATION_KEYS, "base_rate"]),
        lambda a, b: (period[None, :] == cal[a:b, None]).astype(np.float64), len(cal), n)
    rate = out["base_rate"]
    r = rate if rate.ndim == 2 else np.column_stack([1.0 - rate, rate])
    out = {key: out[key] for key in ("base_rate", *_CLASSIFICATION_KEYS)}
    weight = np.ones(n) if ev.sample_weight is None else ev.sample_weight
    if baseline == "period":
        single = np.sum(r > 0, axis=1) < 2
        if single.any():
            warn_degenerate(f"Period(s) {_list_periods(labels, single)} hold a single class: "
                            "their skills against their own base rate are undefined (NaN).")
        return out, r, [None] * len(cal)
    cw = np.cumsum(_class_weights(ev.codes, weight, period, n_cal, K), axis=0)
    cw = np.vstack([np.zeros((1, K)), cw])
    lo, hi = _window_bounds(cal, window)
    prior_w = cw[hi] - cw[lo]
    total = prior_w.sum(axis=1)
    known = total > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(known[:, None], prior_w / total[:, None], np.nan)
    ll_ref, br_ref = np.full(len(cal), np.nan), np.full(len(cal), np.nan)
    for p in np.flatnonzero(known):
        ll_ref[p] = _metrics.reference_log_loss(q[p], outcome_prior=r[p])
        br_ref[p] = _metrics.reference_brier(q[p], outcome_prior=r[p])
    out["log_loss_ref"], out["brier_ref"] = ll_ref, br_ref
    out["log_loss_skill"] = _ratio_skill(out["log_loss"], ll_ref, ~known)
    out["brier_skill"] = _ratio_skill(out["brier"], br_ref, ~known)
    out["reference_prior"] = q if K > 2 else q[:, 1]
    _warn_rolling(labels, known, np.isinf(ll_ref), "the prior gives probability 0 to a class "
                  "that occurs (infinite reference log loss): log_loss_skill is NaN")
    priors = [dict(enumerate(q[p])) if known[p] else None for p in range(len(cal))]
    return out, r, priors


def _warn_rolling(labels, known, bad, why) -> None:
    # The first period has no history by construction (NaN, said in the table's footer); a
    # later one without rows in its window -- a gap in the data longer than the window -- is
    # a surprise worth a warning.
    gap = ~known
    gap[:1] = False
    if gap.any():
        warn_degenerate(f"Period(s) {_list_periods(labels, gap)} have no rows in the "
                        "preceding window: with reference_from='rolling' there is no prior to "
                        "judge them against, so their skills are NaN.")
    if (known & bad).any():
        warn_degenerate(f"Period(s) {_list_periods(labels, known & bad)}: {why}.")


def _regression(ev, y, period, cal, n_cal, labels, baseline, window, sample_weight):
    n = ev.n
    member = lambda a, b: (period[None, :] == cal[a:b, None]).astype(np.float64)  # noqa: E731
    out = _evaluate_masks(lambda W: ev.evaluate(W, warn=False), member, len(cal), n)
    out = {key: out[key] for key in _REGRESSION_KEYS}
    if baseline == "period":
        flat = np.isnan(out["mse_skill"])
        if flat.any():
            warn_degenerate(f"Period(s) {_list_periods(labels, flat)} have a constant y: r2 "
                            "and mae_skill against their own mean are undefined (NaN).")
        return out, [None] * len(cal)
    lo, hi = _window_bounds(cal, window)
    weight = np.ones(n) if sample_weight is None else sample_weight
    known = np.bincount(period, weights=weight, minlength=n_cal).cumsum()
    known = np.concatenate([[0.0], known])
    known = (known[hi] - known[lo]) > 0
    mean = np.full(len(cal), np.nan)
    median = np.full(len(cal), np.nan)
    idx = np.flatnonzero(known)
    if idx.size:
        win = _evaluate_masks(
            lambda W: ev.evaluate(W, warn=False),
            lambda a, b: ((period[None, :] >= lo[idx[a:b], None])
                          & (period[None, :] < hi[idx[a:b], None])).astype(np.float64),
            idx.size, n)
        mean[idx], median[idx] = win["mean_y"], win["baseline_median"]
    # The reference loss of a constant forecast is the loss of a model forecasting it: the
    # evaluator's own definitions, one forecast per period.
    refs = {}
    for name, centre, key in (("mean", mean, "mse"), ("median", median, "mae")):
        row_pred = np.nan_to_num(centre[np.searchsorted(cal, period).clip(0, len(cal) - 1)])
        ref_ev = _metrics.regression_evaluator(y, row_pred, sample_weight=sample_weight)
        refs[key] = _evaluate_masks(lambda W, e=ref_ev: e.evaluate(W, warn=False), member,
                                    len(cal), n)[key]
    with np.errstate(invalid="ignore"):
        out["rmse_ref"] = np.where(known, np.sqrt(refs["mse"]), np.nan)
    out["mae_ref"] = np.where(known, refs["mae"], np.nan)
    out["baseline_mean"], out["baseline_median"] = mean, median
    # Against the preceding periods' mean: mse_skill. r2 stays the period's own (its own
    # mean's), scikit-learn's r2_score on the period's rows.
    out["mse_skill"] = _ratio_skill(out["rmse"] ** 2, out["rmse_ref"] ** 2, ~known)
    out["mae_skill"] = _ratio_skill(out["mae"], out["mae_ref"], ~known)
    _warn_rolling(labels, known, known & (out["rmse_ref"] <= 0),
                  "every row equals the reference forecast: mse_skill is NaN")
    return out, [(m, md) if k else None for m, md, k in zip(mean, median, known)]


# --------------------------------------------------------------------------- intervals


def _period_intervals(task, data, rows_of, refs, level, scheme, labels) -> dict:
    """Per period, a bootstrap interval of each skill: the period's rows (or, with
    ``groups=``, its whole groups) resampled by the period's subset of one scheme, and the
    reference of a rolling baseline held fixed (it was known in advance)."""
    keys = _SKILLS[task]
    out = {key: np.full((len(rows_of), 2), np.nan) for key in keys}
    narrow = {}
    for p, rows in enumerate(rows_of):
        if data["rolling"] and refs[p] is None:
            continue  # no preceding rows: no reference, no skill
        skills = _PeriodSkills(task, _period_evaluators(task, data, rows, refs[p]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FewResamplesWarning)  # said once, by the caller
            boot = scheme.subset(rows).bootstrap([skills])[0]
        for key, ci in boot.intervals(level=level, warn=False).items():
            out[key][p] = ci
        narrow.update({f"{key} ({_label(labels[p])})": why
                       for key, why in boot.narrow().items()})
    _resampling.warn_narrow(narrow, level)
    return out


class _PeriodSkills:
    """One period's skills as an evaluator of weight vectors, which is what
    :func:`resampling.bootstrap` resamples (and jackknifes): with a rolling baseline the
    skills are ratios of two evaluators' losses, the reference held fixed."""

    def __init__(self, task, evaluators):
        self.task, self.evaluators = task, evaluators
        first = evaluators[0]
        self.n, self.sample_weight = first.n, first.sample_weight
        if task == "classification":  # the rarest class: what the interval rests on
            self.codes, self.n_classes = first.codes, first.n_classes

    def evaluate(self, counts=None, warn=False):
        if counts is None:
            counts = np.ones((1, self.n), dtype=np.int64)
        return _replicate_skills(self.task, self.evaluators, counts)


def _period_calibration(values, intervals, data, rows_of, level, n_boot, rng,
                        groups=None) -> None:
    """Per period, the calibration test of the period's rows: the MCB's noise floor, the
    estimate of the population MCB (``calibration_excess``) with its interval, the p-value;
    with ``groups`` the test's draws keep each group's rows together (a period with a single
    group has no test: NaN)."""
    keys = ("calibration_noise_floor", "calibration_excess", "calibration_pvalue")
    for key in keys:
        values[key] = np.full(len(rows_of), np.nan)
    intervals["calibration_excess"] = np.full((len(rows_of), 2), np.nan)
    draws = max(min(n_boot, 1000), 100)  # as a report: min(n_boot, 1000), at least 100
    for p, rows in enumerate(rows_of):
        codes = data["codes"][rows]
        g = None if groups is None else groups[rows]
        if np.unique(codes).size < 2 or (g is not None and np.unique(g).size < 2):
            continue  # a single class (said once for the period's skills), or one group
        w = None if data["weight"] is None else data["weight"][rows]
        test = _metrics.calibration_test(codes, data["proba"][rows], np.arange(data["K"]),
                                         sample_weight=w, n_boot=draws, random_state=rng,
                                         groups=g)
        for key, v in zip(keys, (test.noise_floor, test.excess, test.pvalue)):
            values[key][p] = v
        intervals["calibration_excess"][p] = test.confidence_interval(level=level)


def _period_evaluators(task, data, rows, ref):
    w = None if data["weight"] is None else data["weight"][rows]
    if task == "classification":
        return [_metrics.classification_evaluator(
            data["codes"][rows], np.arange(data["K"]), proba=data["proba"][rows],
            sample_weight=w, baseline=ref)]
    y, pred = data["y"][rows], data["pred"][rows]
    if ref is None:
        return [_metrics.regression_evaluator(y, pred, sample_weight=w)]
    return [_metrics.regression_evaluator(y, p, sample_weight=w)
            for p in (pred, np.full(rows.size, ref[0]), np.full(rows.size, ref[1]))]


def _replicate_skills(task, evaluators, counts) -> dict:
    if task == "classification":
        res = evaluators[0].evaluate(counts, warn=False, metrics=list(_SKILLS[task]))
        return {key: res[key] for key in _SKILLS[task]}
    res = [ev.evaluate(counts, warn=False) for ev in evaluators]
    if len(res) == 1:
        return {"mse_skill": res[0]["mse_skill"], "mae_skill": res[0]["mae_skill"]}
    model, mean, median = res
    return {"mse_skill": _ratio_skill(model["mse"], mean["mse"],
                                      np.zeros(counts.shape[0], bool)),
            "mae_skill": _ratio_skill(model["mae"], median["mae"],
                                      np.zeros(counts.shape[0], bool))}


# --------------------------------------------------------------------------- public


def _old_baseline(baseline, reference_from):
    """``baseline="period"`` / ``"rolling"`` is the old spelling of ``reference_from``: kept
    for one release with a FutureWarning; ``baseline`` now holds the incumbent's predictions."""
    if not isinstance(baseline, str):
        return baseline, reference_from
    if reference_from != "period":
        msg = ("skill_over_time() got both baseline= (a string) and reference_from=; "
               "baseline='period'/'rolling' is the old spelling of reference_from: pass "
               "reference_from= only (baseline= now takes the incumbent's predictions).")
        raise TypeError(msg)
    warnings.warn("skill_over_time(): baseline= is renamed reference_from=; the old spelling "
                  "will be an error in the next release (baseline= now takes the incumbent's "
                  "predictions on the same rows).", FutureWarning, stacklevel=3)
    return None, baseline


def _check_incumbent(baseline, n: int, task, classes):
    """The incumbent's predictions on the same rows, checked like ``proba``."""
    shape = np.shape(baseline)
    if not shape or shape[0] != n:
        got = "a scalar" if not shape else f"{shape[0]} rows"
        msg = (f"baseline has {got} but y has {n}; pass the incumbent's predictions on the "
               "same rows, in the same order.")
        raise ValueError(msg)
    if task == "classification":
        return check_proba(baseline, classes, "baseline")
    return as_1d(baseline, "baseline").astype(float)


def _data(task, y, proba, classes, sample_weight):
    """The evaluator on all rows, and the arrays each period's evaluators are cut from."""
    w = None if sample_weight is None else as_1d(sample_weight, "sample_weight").astype(float)
    if task == "classification":
        ev = _metrics.classification_evaluator(y, classes, proba=proba,
                                               sample_weight=sample_weight)
        return ev, {"codes": ev.codes, "K": ev.n_classes, "proba": check_proba(proba, classes),
                    "weight": w}
    ev = _metrics.regression_evaluator(y, proba, sample_weight=sample_weight)
    return ev, {"y": as_1d(y, "y").astype(float), "pred": as_1d(proba, "proba").astype(float),
                "weight": w}


def _scheme(n, groups, level, paired, n_boot, random_state, ci_method):
    """One resampling scheme on all rows (each period resamples its subset), or None when
    nothing is resampled (``groups`` is still checked)."""
    if level is None and not paired:
        if groups is not None:
            check_units(n, groups=groups)
        return None
    return _resampling.Resampler.from_params(n, n_boot=n_boot, random_state=random_state,
                                             ci_method=ci_method, groups=groups)


@public(renamed={"when": "time"})
def skill_over_time(y, proba, time, *, freq="MS", reference_from="period", window=3,
                    classes=None, sample_weight=None, baseline=None, metric=None, rope=0.01,
                    last=3, groups=None, ci=None, n_boot=2000, random_state=None,
                    ci_method=_resampling.DEFAULT_CI_METHOD):
    """One row per period: rows, base rate, loss, reference loss, skill and MCB; with
    ``baseline=``, the model against the incumbent per period and whether it wins lately.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed) or, for a regressor, true values.
    proba : array-like of shape (n, K), or (n,)
        Predicted probabilities, columns in the order of ``classes`` (a 1-D array is the
        probability of ``classes[1]``); for a regressor, its predictions.
    time : array-like of shape (n,)
        The date (or time) of each row: numpy ``datetime64``, a pandas Series or
        ``DatetimeIndex``, or strings pandas can read (``"2024-01-31"``).
    freq : str or pandas DateOffset, default="MS"
        A pandas offset alias: ``"MS"`` month start, ``"W"`` weeks (ending Sunday), ``"D"``
        days, ``"QS"`` quarters. Periods are pandas' calendar bins (``Series.resample``).
    reference_from : {"period", "rolling"}, default="period"
        Where the no-skill forecast each period is judged against comes from (formerly
        ``baseline=``, which now takes the incumbent's predictions). ``"period"``: the
        period's own (weighted) class prior, or mean and median of ``y`` -- the skills then
        equal :func:`chimeraboost.metrics.classification_report`'s on the period's rows.
        ``"rolling"``: the weighted class prior (mean and median) of the rows in the
        ``window`` calendar periods before it -- what a deployed model could have known.
    window : int or None, default=3
        With ``reference_from="rolling"``: how many preceding calendar periods make the
        reference (fewer at the start of the data: what exists is used); ``None`` uses all
        preceding periods. The first period has no history: its skills are NaN. A later
        period with no rows in its window (a gap in the data longer than ``window``) gets NaN
        skills and a ``DegenerateMetricWarning``.
    classes : array-like of shape (K,), default=None
        The class labels, e.g. the model's ``classes_``. ``None``: the sorted labels of
        ``y`` when ``proba`` is 2-D or ``y`` holds strings or booleans, ``[0, 1]`` when
        ``y`` holds only 0 and 1; any other numeric ``y`` is read as a regression.
    sample_weight : array-like of shape (n,), default=None
    baseline : array-like like ``proba``, default=None
        The incumbent's (the champion's) predictions on the same rows: the paired form.
        Per period both are scored on ``metric`` on the same resampled rows, and the
        difference ``model - baseline`` gets an interval at level ``ci`` (0.95 when ``ci``
        is None: the comparison always has its interval); :meth:`SkillOverTime.verdict`
        says whether the model wins in the latest window and in how many of the last
        ``last``.
    metric : str, default=None
        The number compared with ``baseline=``: a key of ``classification_report`` (or
        ``regression_report``) that describes the model. None: the headline number --
        ``brier_skill``, or ``r2`` for a regressor.
    rope : float >= 0, default=0.01
        With ``baseline=``: the region of practical equivalence, in units of ``metric``.
    last : int, default=3
        With ``baseline=``: how many of the latest periods the verdict counts wins in.
    groups : array-like of shape (n,), default=None
        The unit each row belongs to (a customer with several rows in a period): whole
        groups are resampled within each period, for every interval here, and the
        calibration test's draws keep each group's rows together.
    ci : float in (0, 1), default=None
        Also give each period's skills a bootstrap interval at this level, rows (or groups)
        resampled within the period (a rolling reference is held fixed: it was known before
        the period began).
    n_boot : int, default=2000
        Resamples per period; below 1000 a ``FewResamplesWarning`` says the ends of the
        intervals are unstable.
    random_state : None, int or numpy Generator
        Makes the intervals reproducible.
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        How each period's intervals are read off its resamples (see
        :func:`chimeraboost.report`). A period with a handful of events (or, with
        ``groups``, fewer than 30 groups) gets intervals that no method can make
        trustworthy: one :class:`~chimeraboost.exceptions.NarrowIntervalWarning` names them.

    Returns
    -------
    SkillOverTime
        Attributes per period; ``print`` it for the table, ``to_frame()`` for pandas,
        ``plot()`` for the picture, ``verdict()`` with ``baseline=``.

    Notes
    -----
    Periods without rows (or whose rows all weigh 0) are left out of the table and listed
    in :attr:`SkillOverTime.empty_periods` (a gap in the data is not an error); they still
    count as calendar periods of a rolling window, and are not windows of the verdict. Where
    a skill is undefined -- one class in a period, a constant ``y``, a gap in the history of
    a rolling reference -- it is NaN and a ``DegenerateMetricWarning`` names the periods
    (the first period of a rolling baseline, which never has a history, is NaN without a
    warning).

    Examples
    --------
    Two months of six rows each; the model forecasts 0.8 for every positive and 0.2 for
    every negative, so its log loss is ``-ln 0.8 = 0.2231`` in both. January's base rate is
    1/2 (reference ``ln 2 = 0.6931``), February's 1/3 (reference 0.6365):

    >>> y = [0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1]
    >>> p = [0.8 if v else 0.2 for v in y]
    >>> time = ["2024-01-05"] * 6 + ["2024-02-05"] * 6
    >>> s = skill_over_time(y, p, time)
    >>> s.log_loss.round(4).tolist(), s.log_loss_skill.round(3).tolist()
    ([0.2231, 0.2231], [0.678, 0.649])
    """
    pd = import_pandas("skill_over_time")
    baseline, reference_from = _old_baseline(baseline, reference_from)
    check_aligned(y=y, proba=proba, time=time, sample_weight=sample_weight, baseline=baseline,
                  groups=groups)
    reference_from, window = _check_baseline(reference_from), _check_window(window)
    level = None if ci is None else check_level(ci, "ci")
    ci_method = _resampling.check_ci_method(ci_method)
    paired = baseline is not None
    if paired:
        rope = check_real(rope, "rope", strictly_positive=False)
        last = check_positive_int(last, "last")
    task, classes = _task(y, proba, classes)
    ev, data = _data(task, y, proba, classes, sample_weight)
    if paired:
        data["baseline"] = _check_incumbent(baseline, ev.n, task, classes)
        metric = _check_metric(metric, task, ev, reference_from)
    data["rolling"] = reference_from == "rolling"
    period, all_labels = _periods(pd, time, ev.n, freq)
    scheme = _scheme(ev.n, groups, level, paired, n_boot, random_state, ci_method)
    weight = np.ones(ev.n) if data["weight"] is None else data["weight"]
    totals = np.bincount(period, weights=weight, minlength=len(all_labels))
    cal = np.flatnonzero(totals > 0)
    labels = all_labels[cal]
    if task == "classification":
        values, _, refs = _classification(ev, period, cal, len(all_labels), labels,
                                          reference_from, window)
    else:
        values, refs = _regression(ev, data["y"], period, cal, len(all_labels), labels,
                                   reference_from, window, data["weight"])
    values["rows"] = np.bincount(period, minlength=len(all_labels))[cal]
    order = np.argsort(period, kind="stable")
    starts = np.searchsorted(period[order], cal)
    rows_of = [order[a:a + m] for a, m in zip(starts, values["rows"])]
    intervals = None
    if level is not None:
        intervals = _period_intervals(task, data, rows_of, refs, level, scheme, labels)
        if task == "classification":
            codes = None if groups is None else scheme.units.codes
            _period_calibration(values, intervals, data, rows_of, level, scheme.n_boot,
                                scheme.rng, codes)
    comparison = None
    if paired:
        shown = [_label(t) for t in labels]
        plevel = 0.95 if level is None else level
        comparison = _paired_periods(task, data, rows_of, refs, scheme, metric, plevel, shown)
        comparison.update(metric=metric, level=plevel, rope=rope, last=last)
    return SkillOverTime(task=task, periods=labels, freq=freq, baseline=reference_from,
                         window=window, classes=classes, values=values, ci_level=level,
                         intervals=intervals, n_boot=None if scheme is None else scheme.n_boot,
                         ci_method=ci_method, comparison=comparison,
                         empty_periods=all_labels[totals <= 0],
                         units="rows" if groups is None else "groups")
