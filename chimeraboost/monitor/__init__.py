"""Is the model getting worse, or did the base rate move? Skill over time.

A raw loss drifts with the base rate; the skill ``1 - loss / reference`` does not. A log loss
that "improved" from 0.31 at a 12% base rate to 0.26 at 9% is a skill that *fell*, from
``1 - 0.31 / 0.367 = 0.155`` to ``1 - 0.26 / 0.3025 = 0.14``: the rows got easier, the model did
not keep up. Questions worth asking, and where the answer is:

- Did the model get worse, period by period, against knowing only that period's base rate?
  :func:`skill_over_time` with ``baseline="period"``: per period the rows, the base rate, log
  loss and Brier with their references and skills, and the miscalibration (MCB); for a
  regressor RMSE with r2 and MAE with its skill.
- Did it beat what a deployed model could have known? ``baseline="rolling"``: each period is
  judged against the (weighted) class prior -- or the mean and median -- of the ``window``
  periods before it, not against its own base rate, which nobody knew in advance.
- Is a period's change more than noise? ``ci=0.95``: a bootstrap interval of each period's
  skill, rows resampled within the period.
- What does it look like? :meth:`SkillOverTime.plot`: loss and skill side by side, each with
  the base rate (the mean of ``y``, for a regressor) on a second axis.

How it is computed: one evaluator from :mod:`chimeraboost.metrics` holds all rows, and each
period is one weight vector (the rows' sample weights inside the period, zero outside); the
``(P, n)`` matrix of them goes through the evaluator's ``evaluate`` at once, so every number is
exactly the one :func:`chimeraboost.metrics.classification_report` (or ``regression_report``)
gives on that period's rows. Periods are calendar bins of pandas (``freq`` is a pandas offset
alias: ``"MS"`` month start, ``"W"`` weeks, ``"D"`` days, ``"QS"`` quarters); pandas is an
optional dependency (``pip install "chimeraboost[pandas]"``).
"""

from __future__ import annotations

import html

import numpy as np

from .. import metrics as _metrics
from .. import resampling as _resampling
from .._shared.format import Col, fmt, html_table, percent, rates, table
from .._shared.validation import (
    as_1d,
    check_aligned,
    check_classes,
    check_level,
    check_no_missing,
    check_positive_int,
    check_proba,
    check_random_state_int,
    import_pandas,
    warn_degenerate,
)

__all__ = ["SkillOverTime", "skill_over_time"]

# Elements of one (periods, n) weight matrix handed to an evaluator: bounds memory (32 MB)
# whatever the number of periods.
_CHUNK_ELEMENTS = 4_000_000

_CLASSIFICATION_KEYS = ("log_loss", "log_loss_ref", "log_loss_skill", "brier", "brier_ref",
                        "brier_skill", "calibration_mcb")
_REGRESSION_KEYS = ("mean_y", "baseline_mean", "baseline_median", "rmse", "rmse_ref", "r2",
                    "mae", "mae_ref", "mae_skill")
_SKILLS = {"classification": ("log_loss_skill", "brier_skill"),
           "regression": ("r2", "mae_skill")}


# --------------------------------------------------------------------------- validation


def _check_baseline(baseline) -> str:
    if baseline not in ("period", "rolling"):
        msg = (f"baseline must be 'period' (each period's own base rate) or 'rolling' (the "
               f"prior of the preceding periods), got {baseline!r}.")
        raise ValueError(msg)
    return baseline


def _check_window(window):
    if window is None:
        return None
    return check_positive_int(window, "window")


def _task(y, proba, classes):
    """("classification", classes) or ("regression", None), read off the inputs."""
    if classes is not None:
        return "classification", check_classes(classes)
    y_arr = check_no_missing(as_1d(y, "y"), "y")
    shape = np.shape(proba.to_numpy() if hasattr(proba, "to_numpy") else proba)
    two_d = len(shape) == 2 and shape[1] > 1
    numeric = y_arr.dtype.kind in "iuf"
    if not two_d and numeric:
        labels = np.unique(y_arr)
        if not set(labels.tolist()) <= {0, 1}:
            return "regression", None
        return "classification", np.array([0, 1], dtype=y_arr.dtype)
    try:
        labels = np.unique(y_arr)
    except TypeError as exc:
        msg = "y mixes label types that cannot be compared; pass classes explicitly."
        raise TypeError(msg) from exc
    if labels.shape[0] < 2:
        msg = (f"y holds the single label {labels.tolist()}; pass classes (e.g. the model's "
               "classes_) to say which classes the probabilities are for.")
        raise ValueError(msg)
    return "classification", labels


def _periods(pd, when, n: int, freq):
    """Calendar bins of ``when``: (bin index per row, bin labels)."""
    if when is None:
        msg = "when is None; pass the date (or time) of every row."
        raise TypeError(msg)
    raw = when if hasattr(when, "dtype") and not isinstance(when, np.ndarray) else \
        as_1d(when, "when")
    kind = getattr(getattr(raw, "dtype", None), "kind", "O")
    if kind in "biufc":
        msg = (f"when must hold dates or times (datetime64, pandas timestamps, or strings such "
               f"as '2024-01-31'), got numbers of dtype {raw.dtype}.")
        raise TypeError(msg)
    try:
        dti = pd.DatetimeIndex(pd.to_datetime(raw))
    except (TypeError, ValueError, OverflowError) as exc:
        msg = (f"when could not be read as dates: {str(exc).splitlines()[0]} Pass datetime64 "
               "values, pandas timestamps or ISO strings ('2024-01-31').")
        raise ValueError(msg) from None
    if hasattr(dti, "as_unit"):
        # One resolution whatever the input (pandas < 3 keeps datetime64[s] as seconds), so
        # that the period labels of the same dates are the same index.
        dti = dti.as_unit("ns")
    if dti.ndim != 1 or len(dti) != n:
        msg = f"when has {len(dti)} rows but y has {n}; pass one date per row."
        raise ValueError(msg)
    missing = np.asarray(dti.isna())
    if missing.any():
        msg = (f"when contains {int(missing.sum())} missing date(s) (NaT; the first at position "
               f"{int(np.flatnonzero(missing)[0])}); every row needs a date.")
        raise ValueError(msg)
    if not (isinstance(freq, str) and freq) and not isinstance(freq, pd.offsets.BaseOffset):
        msg = (f"freq must be a pandas offset alias such as 'MS' (month start), 'W' (weeks), "
               f"'D' (days) or 'QS' (quarters), or a pandas DateOffset; got {freq!r}.")
        raise TypeError(msg)
    try:
        offset = pd.tseries.frequencies.to_offset(freq)
    except (TypeError, ValueError):
        msg = (f"freq={freq!r} is not a pandas offset alias; use e.g. 'MS' (month start), 'W' "
               "(weeks), 'D' (days) or 'QS' (quarters).")
        raise ValueError(msg) from None
    order = np.argsort(dti.asi8, kind="stable")
    # Bins partition the sorted dates into contiguous runs: each row's bin is its run.
    sizes = pd.Series(order, index=dti[order]).resample(offset).size()
    period = np.empty(n, dtype=np.intp)
    period[order] = np.repeat(np.arange(len(sizes)), sizes.to_numpy())
    return period, sizes.index


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


def _label(ts) -> str:
    """A period label for humans: ``2024-01-01``, or with the time when it is not midnight."""
    return ts.strftime("%Y-%m-%d") if ts == ts.normalize() else str(ts)


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
                        "preceding window: with baseline='rolling' there is no prior to judge "
                        "them against, so their skills are NaN.")
    if (known & bad).any():
        warn_degenerate(f"Period(s) {_list_periods(labels, known & bad)}: {why}.")


def _regression(ev, y, period, cal, n_cal, labels, baseline, window, sample_weight):
    n = ev.n
    member = lambda a, b: (period[None, :] == cal[a:b, None]).astype(np.float64)  # noqa: E731
    out = _evaluate_masks(lambda W: ev.evaluate(W, warn=False), member, len(cal), n)
    out = {key: out[key] for key in _REGRESSION_KEYS}
    if baseline == "period":
        flat = np.isnan(out["r2"])
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
        ref_ev = _metrics.regression_evaluator(y, row_pred, sample_weight)
        refs[key] = _evaluate_masks(lambda W, e=ref_ev: e.evaluate(W, warn=False), member,
                                    len(cal), n)[key]
    with np.errstate(invalid="ignore"):
        out["rmse_ref"] = np.where(known, np.sqrt(refs["mse"]), np.nan)
    out["mae_ref"] = np.where(known, refs["mae"], np.nan)
    out["baseline_mean"], out["baseline_median"] = mean, median
    out["r2"] = _ratio_skill(out["rmse"] ** 2, out["rmse_ref"] ** 2, ~known)
    out["mae_skill"] = _ratio_skill(out["mae"], out["mae_ref"], ~known)
    _warn_rolling(labels, known, known & (out["rmse_ref"] <= 0),
                  "every row equals the reference forecast: r2 is NaN")
    return out, [(m, md) if k else None for m, md, k in zip(mean, median, known)]


# --------------------------------------------------------------------------- intervals


def _period_intervals(task, data, rows_of, refs, level, n_boot, random_state) -> dict:
    """Per period, a percentile bootstrap interval of each skill, rows resampled within the
    period and the reference of a rolling baseline held fixed (it was known in advance)."""
    rng = check_random_state_int(random_state)
    keys = _SKILLS[task]
    out = {key: np.full((len(rows_of), 2), np.nan) for key in keys}
    for p, rows in enumerate(rows_of):
        if data["rolling"] and refs[p] is None:
            continue  # no preceding rows: no reference, no skill
        evaluators = _period_evaluators(task, data, rows, refs[p])
        reps = {key: [] for key in keys}
        for counts in _resampling.bootstrap_counts(rows.size, n_boot, random_state=rng):
            for key, v in _replicate_skills(task, evaluators, counts).items():
                reps[key].append(v)
        for key in keys:
            out[key][p] = _resampling.percentile_interval(np.concatenate(reps[key]), level)[0]
    return out


def _period_evaluators(task, data, rows, ref):
    w = None if data["weight"] is None else data["weight"][rows]
    if task == "classification":
        return [_metrics.classification_evaluator(
            data["codes"][rows], np.arange(data["K"]), proba=data["proba"][rows],
            sample_weight=w, baseline=ref)]
    y, pred = data["y"][rows], data["pred"][rows]
    if ref is None:
        return [_metrics.regression_evaluator(y, pred, w)]
    return [_metrics.regression_evaluator(y, p, w)
            for p in (pred, np.full(rows.size, ref[0]), np.full(rows.size, ref[1]))]


def _replicate_skills(task, evaluators, counts) -> dict:
    if task == "classification":
        res = evaluators[0].evaluate(counts, warn=False, metrics=list(_SKILLS[task]))
        return {key: res[key] for key in _SKILLS[task]}
    res = [ev.evaluate(counts, warn=False) for ev in evaluators]
    if len(res) == 1:
        return {"r2": res[0]["r2"], "mae_skill": res[0]["mae_skill"]}
    model, mean, median = res
    return {"r2": _ratio_skill(model["mse"], mean["mse"], np.zeros(counts.shape[0], bool)),
            "mae_skill": _ratio_skill(model["mae"], median["mae"],
                                      np.zeros(counts.shape[0], bool))}


# --------------------------------------------------------------------------- public


def skill_over_time(y, proba, when, *, freq="MS", baseline="period", window=3, classes=None,
                    sample_weight=None, ci=None, n_boot=2000, random_state=None):
    """One row per period: rows, base rate, loss, reference loss, skill and MCB.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed) or, for a regressor, true values.
    proba : array-like of shape (n, K), or (n,)
        Predicted probabilities, columns in the order of ``classes`` (a 1-D array is the
        probability of ``classes[1]``); for a regressor, its predictions.
    when : array-like of shape (n,)
        The date (or time) of each row: numpy ``datetime64``, a pandas Series or
        ``DatetimeIndex``, or strings pandas can read (``"2024-01-31"``).
    freq : str or pandas DateOffset, default="MS"
        A pandas offset alias: ``"MS"`` month start, ``"W"`` weeks (ending Sunday), ``"D"``
        days, ``"QS"`` quarters. Periods are pandas' calendar bins (``Series.resample``).
    baseline : {"period", "rolling"}, default="period"
        The no-skill forecast each period is judged against. ``"period"``: the period's own
        (weighted) class prior, or mean and median of ``y`` -- the skills then equal
        :func:`chimeraboost.metrics.classification_report`'s on the period's rows.
        ``"rolling"``: the weighted class prior (mean and median) of the rows in the
        ``window`` calendar periods before it -- what a deployed model could have known.
    window : int or None, default=3
        With ``baseline="rolling"``: how many preceding calendar periods make the reference
        (fewer at the start of the data: what exists is used); ``None`` uses all preceding
        periods. The first period has no history: its skills are NaN. A later period with
        no rows in its window (a gap in the data longer than ``window``) gets NaN skills and
        a ``DegenerateMetricWarning``.
    classes : array-like of shape (K,), default=None
        The class labels, e.g. the model's ``classes_``. ``None``: the sorted labels of
        ``y`` when ``proba`` is 2-D or ``y`` holds strings or booleans, ``[0, 1]`` when
        ``y`` holds only 0 and 1; any other numeric ``y`` is read as a regression.
    sample_weight : array-like of shape (n,), default=None
    ci : float in (0, 1), default=None
        Also give each period's skills a percentile bootstrap interval at this level, rows
        resampled within the period (a rolling reference is held fixed: it was known before
        the period began).
    n_boot : int, default=2000
        Resamples per period for ``ci``; below 1000 a ``FewResamplesWarning`` says the ends
        of the intervals are unstable.
    random_state : None, int or numpy Generator
        Makes the intervals reproducible.

    Returns
    -------
    SkillOverTime
        Attributes per period; ``print`` it for the table, ``to_frame()`` for pandas,
        ``plot()`` for the picture.

    Notes
    -----
    Periods without rows (or whose rows all weigh 0) are left out of the table; they still
    count as calendar periods of a rolling window. Where a skill is undefined -- one class in
    a period, a constant ``y``, a gap in the history of a rolling reference -- it is NaN and
    a ``DegenerateMetricWarning`` names the periods (the first period of a rolling baseline,
    which never has a history, is NaN without a warning).

    Examples
    --------
    Two months of six rows each; the model forecasts 0.8 for every positive and 0.2 for
    every negative, so its log loss is ``-ln 0.8 = 0.2231`` in both. January's base rate is
    1/2 (reference ``ln 2 = 0.6931``), February's 1/3 (reference 0.6365):

    >>> y = [0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1]
    >>> p = [0.8 if v else 0.2 for v in y]
    >>> when = ["2024-01-05"] * 6 + ["2024-02-05"] * 6
    >>> s = skill_over_time(y, p, when)
    >>> s.log_loss.round(4).tolist(), s.log_loss_skill.round(3).tolist()
    ([0.2231, 0.2231], [0.678, 0.649])
    """
    pd = import_pandas("skill_over_time")
    check_aligned(y=y, proba=proba, when=when, sample_weight=sample_weight)
    baseline, window = _check_baseline(baseline), _check_window(window)
    level = None if ci is None else check_level(ci, "ci")
    if level is not None:
        n_boot = _resampling.check_n_boot(n_boot)
    task, classes = _task(y, proba, classes)
    if task == "classification":
        ev = _metrics.classification_evaluator(y, classes, proba=proba,
                                               sample_weight=sample_weight)
        w = None if sample_weight is None else as_1d(sample_weight, "sample_weight").astype(float)
        data = {"codes": ev.codes, "K": ev.n_classes, "proba": check_proba(proba, classes),
                "weight": w}
    else:
        ev = _metrics.regression_evaluator(y, proba, sample_weight)
        w = None if sample_weight is None else as_1d(sample_weight, "sample_weight").astype(float)
        data = {"y": as_1d(y, "y").astype(float), "pred": as_1d(proba, "proba").astype(float),
                "weight": w}
    data["rolling"] = baseline == "rolling"
    period, all_labels = _periods(pd, when, ev.n, freq)
    weight = np.ones(ev.n) if w is None else w
    totals = np.bincount(period, weights=weight, minlength=len(all_labels))
    cal = np.flatnonzero(totals > 0)
    labels = all_labels[cal]
    if task == "classification":
        values, rate, refs = _classification(ev, period, cal, len(all_labels), labels,
                                             baseline, window)
    else:
        values, refs = _regression(ev, data["y"], period, cal, len(all_labels), labels,
                                   baseline, window, w)
    values["rows"] = np.bincount(period, minlength=len(all_labels))[cal]
    intervals = None
    if level is not None:
        order = np.argsort(period, kind="stable")
        starts = np.searchsorted(period[order], cal)
        rows_of = [order[a:a + m] for a, m in zip(starts, values["rows"])]
        intervals = _period_intervals(task, data, rows_of, refs, level, n_boot, random_state)
    return SkillOverTime(task=task, periods=labels, freq=freq, baseline=baseline,
                         window=window, classes=classes, values=values, ci_level=level,
                         intervals=intervals, n_boot=n_boot if level is not None else None)


class SkillOverTime:
    """Skill per period: the result of :func:`skill_over_time`.

    Attributes
    ----------
    task : {"classification", "regression"}
    periods : pandas.DatetimeIndex
        The label of each period (pandas' bin label: the month start for ``"MS"``).
    freq, baseline, window : as passed
    classes : ndarray or None
    rows : ndarray of int
        Rows per period.
    values : dict of ndarray
        One entry per period under the keys of :func:`chimeraboost.metrics.classification_report`
        (``base_rate``, ``log_loss``, ``log_loss_ref``, ``log_loss_skill``, ``brier``,
        ``brier_ref``, ``brier_skill``, ``calibration_mcb``; with ``baseline="rolling"`` also
        ``reference_prior``) or ``regression_report`` (``mean_y``, ``baseline_mean``,
        ``baseline_median``, ``rmse``, ``rmse_ref``, ``r2``, ``mae``, ``mae_ref``,
        ``mae_skill``). Each is also an attribute (``result.log_loss_skill``).
    ci_level : float or None
    intervals : dict or None
        Skill key -> array of shape (P, 2): the low and high ends per period.
    """

    def __init__(self, *, task, periods, freq, baseline, window, classes, values, ci_level,
                 intervals, n_boot):
        self.task, self.periods, self.freq = task, periods, freq
        self.baseline, self.window, self.classes = baseline, window, classes
        self.values, self.ci_level, self.intervals = values, ci_level, intervals
        self.n_boot = n_boot
        self.rows = values["rows"]

    def __getattr__(self, name):
        values = self.__dict__.get("values", {})
        if name in values:
            return values[name]
        msg = f"{type(self).__name__!r} object has no attribute {name!r}"
        raise AttributeError(msg)

    @property
    def skill(self) -> np.ndarray:
        """The headline skill per period: ``log_loss_skill``, or ``r2`` for a regressor."""
        return self.values[_SKILLS[self.task][0]]

    @property
    def loss(self) -> np.ndarray:
        """The headline loss per period: log loss, or RMSE for a regressor."""
        return self.values["log_loss" if self.task == "classification" else "rmse"]

    @property
    def reference_loss(self) -> np.ndarray:
        """The no-skill forecast's loss per period (the skill's denominator)."""
        return self.values["log_loss_ref" if self.task == "classification" else "rmse_ref"]

    def reference(self) -> str:
        """What each period is judged against, in words."""
        what = "class prior" if self.task == "classification" else "mean (median)"
        if self.baseline == "period":
            return f"each period's own {what}"
        span = "all preceding periods" if self.window is None else (
            f"the {self.window} preceding period{'s' if self.window > 1 else ''}")
        return f"the {what} of {span} (rolling)"

    def header(self) -> str:
        return (f"Skill over time ({self.task}): {len(self.periods)} periods of freq "
                f"{self.freq!r}, {int(self.rows.sum()):,} rows · judged against: "
                f"{self.reference()}")

    def _rate_cells(self, p):
        rate = self.values["base_rate"] if self.task == "classification" else \
            self.values["mean_y"]
        return rates(rate[p], self.classes) if np.ndim(rate) == 2 else rate[p]

    def _cells(self):
        v, cls = self.values, self.task == "classification"
        multi = cls and np.ndim(v["base_rate"]) == 2
        key = _SKILLS[self.task][0]
        rate = Col("class rates", None) if multi else (
            Col("base rate", 3) if cls else Col("mean y"))
        titles = [Col("period", None), Col("rows"), rate]
        if cls:
            titles += [Col("log loss"), Col("reference"), Col("skill", 3)]
        else:
            titles += [Col("RMSE"), Col("reference"), Col("r2", 3)]
        if self.intervals is not None:
            titles += [Col("low", 3), Col("high", 3)]
        titles += [Col("Brier skill", 3), Col("MCB")] if cls else [Col("MAE skill", 3)]
        body = []
        for p, ts in enumerate(self.periods):
            row = [_label(ts), int(self.rows[p]), self._rate_cells(p), self.loss[p],
                   self.reference_loss[p], v[key][p]]
            if self.intervals is not None:
                row += list(self.intervals[key][p])
            row += [v["brier_skill"][p], v["calibration_mcb"][p]] if cls else [v["mae_skill"][p]]
            body.append(row)
        return titles, body

    def __str__(self) -> str:
        titles, body = self._cells()
        skill = "1 - log loss / reference" if self.task == "classification" else \
            "r2 = 1 - MSE / reference MSE"
        lines = [self.header(), "", *table(titles, body, indent=0), "", f"skill: {skill}."]
        if np.isnan(self.skill).any():
            lines.append("n/a: undefined (a single class or a constant y in the period, or no "
                         "rows before it for a rolling reference).")
        if self.intervals is not None:
            lines.append(f"low, high: {percent(self.ci_level)} bootstrap interval of the skill "
                         f"(percentile; {self.n_boot:,} resamples of each period's rows).")
        return "\n".join(lines)

    def __repr__(self) -> str:
        key = _SKILLS[self.task][0]
        first, last = (fmt(self.skill[i], 3) for i in (0, -1)) if len(self.periods) else \
            ("n/a", "n/a")
        return (f"<SkillOverTime {self.task}: {len(self.periods)} periods, {key} {first} -> "
                f"{last}, baseline={self.baseline!r}>")

    def _repr_html_(self) -> str:
        """Jupyter: the header as a heading, one table row per period (numbers
        right-aligned, the interval's ends in columns of their own), the notes below."""
        notes = str(self).split("\n\n")[-1].splitlines()  # the lines under the table
        return (f"<div><h4>{html.escape(self.header())}</h4>{html_table(*self._cells())}"
                + "".join(f"<p>{html.escape(line)}</p>" for line in notes) + "</div>")

    def to_frame(self):
        """One row per period (index ``period``): ``rows`` and every number of
        :attr:`values` (a multiclass rate gets one column per class, ``base_rate[label]``),
        and with ``ci`` the ends ``<skill>_low``, ``<skill>_high``. Needs pandas."""
        pd = import_pandas("SkillOverTime.to_frame")
        cols = {"rows": self.rows}
        for key, v in self.values.items():
            if key == "rows":
                continue
            if np.ndim(v) == 2:
                for j, label in enumerate(self.classes):
                    cols[f"{key}[{label}]"] = v[:, j]
            else:
                cols[key] = v
        for key, iv in (self.intervals or {}).items():
            cols[f"{key}_low"], cols[f"{key}_high"] = iv[:, 0], iv[:, 1]
        return pd.DataFrame(cols, index=pd.Index(self.periods, name="period"))

    def plot(self, ax=None):
        """Loss (with its reference) and skill side by side, each with the base rate.

        Parameters
        ----------
        ax : None, a matplotlib Axes, or a pair of Axes
            ``None`` makes a figure with two panels; a pair draws the loss in the first and
            the skill in the second; a single Axes gets the skill alone.

        Returns
        -------
        Axes or ndarray of two Axes
            The base rate (the mean of ``y``, for a regressor) is on a second y axis of each
            panel (``ax.twinx()``), dotted grey. Needs matplotlib
            (``pip install "chimeraboost[plot]"``).
        """
        from ._plot import plot_skill_over_time

        return plot_skill_over_time(self, ax)
