"""Is each model better than the simpler ones, on the same held-out rows? The holdout table.

Re-exported by :mod:`chimeraboost.compare` as ``holdout_table``. Questions it answers:

- How does every candidate -- the prior, the best single column, a linear model, the
  boosted model, and the business rule already in production -- score on one held-out set,
  each number with its interval? One row per model, every row on the same rows and the same
  bootstrap resamples.
- Does each beat the baseline (the first row, or the one named) on the primary metric, by
  more than a margin? The paired difference with its interval, and ``beats_baseline``.
- Is a complex model worse than a simpler row above it? The notes say so.
- What does one write in the report to management? :meth:`HoldoutTable.summary`.

Every number comes from :mod:`chimeraboost.metrics` (through the evaluators of
:func:`chimeraboost.report`) and :func:`chimeraboost.resampling.joint_bootstrap`; nothing is
recomputed here. The result object and its renderings live in ``_holdout_result``.
"""

from __future__ import annotations

import copy
import os
import traceback
import warnings
from collections.abc import Mapping

import numpy as np

from ..._shared.api import public
from ... import decisions as _decisions
from ... import metrics as _metrics
from ... import resampling
from ..._shared.facts import (
    ABOUT_THE_ROWS,
    AT_K,
    AT_THRESHOLD,
    FACTS,
    HEADLINE,
    NEEDS_PROBA,
    at_threshold,
    parse_metric,
)
from ..._shared.predictions import Recorded, lacks, read_predictions, recorded, row_numbers
from ..._report import score_estimator
from ..._shared.draws import calibration_draws
from ..._shared.validation import (
    as_1d,
    check_baseline_name,
    check_k,
    check_key_names,
    check_level,
    check_n_jobs,
    check_random_state_int,
    check_real,
    check_rows,
    check_no_missing,
    check_sample_weight,
    estimator_family,
    quantile_levels,
    to_numpy,
)
from ._holdout_decisions import decide as _decide
from ._holdout_decisions import is_decision_key as _decision_key
from ._holdout_result import HoldoutTable
from ...exceptions import FewResamplesWarning

__all__ = ["HoldoutTable", "holdout_table"]

# The number a row is judged on when primary is None, by task.
_DEFAULT_METRICS = {
    "binary": ("log_loss", "brier_skill", "roc_auc", "pr_auc"),
    "multiclass": ("log_loss", "brier_skill", "roc_auc", "accuracy"),
    "regression": ("rmse", "mae", "r2"),
    "quantile": ("crps", "crps_skill", "mae_median"),
}


# --------------------------------------------------------------------------- one row


class _Row:
    """One model's (or one array's) point report and evaluator, and what kind of output it is."""

    def __init__(self, name, point, evaluator, kind, constant, task, proba=None, score=None):
        self.name, self.point, self.evaluator = name, point, evaluator
        self.kind = kind  # "probabilities", "scores", "rule", "predictions", "quantiles"
        self.task = task  # the report's: what the output offers (_shared.predictions.OFFERS)
        self.constant = constant
        self.proba = proba  # the probabilities, for the calibration test
        self.boot = None
        self.calibration = None  # metrics.calibration_test's result, when asked for
        # Binary only: the probability of the positive class, or the 0/1 rule, that a
        # decision at a threshold acts on (None for scores that only rank).
        self.score = score


def _is_array(value) -> bool:
    return not hasattr(value, "predict")


def _constant(values) -> bool:
    arr = np.asarray(values, dtype=np.float64)
    return arr.shape[0] > 0 and bool(np.all(arr == arr[:1]))


def _estimator_row(name, est, X, y, w, k, classes) -> _Row:
    own = getattr(est, "classes_", None) if classes is not None else None
    if own is not None and len(own) > 0 and (
            len(own) != len(classes)
            or set(np.asarray(own).tolist()) != set(np.asarray(classes).tolist())):
        msg = (f"models[{name!r}] predicts classes {np.asarray(own).tolist()} but the table's "
               f"classes are {np.asarray(classes).tolist()} (from the first fitted classifier, "
               "or y); every row of one table must predict the same classes.")
        raise ValueError(msg)
    try:
        s = score_estimator(est, X, y, sample_weight=w, k=k, classes=classes,
                            arg=f"models[{name!r}]")
    except (ValueError, TypeError) as exc:
        frames = traceback.extract_tb(exc.__traceback__)
        if frames and os.sep + "chimeraboost" + os.sep in frames[-1].filename:
            raise  # our own message, which names the argument
        # The model's own complaint about X (shape, NaN it cannot take, ...), named.
        msg = f"models[{name!r}] ({type(est).__name__}) could not predict on X: {exc}"
        raise (ValueError if isinstance(exc, ValueError) else TypeError)(msg) from exc
    kind = {"classification": "probabilities", "ranking": "scores", "scores": "scores",
            "rule": "rule", "regression": "predictions", "quantile": "quantiles"}[s.task]
    out = est.values_ if isinstance(est, Recorded) else (
        est.predict_proba(X) if s.task == "classification" else est.predict(X))
    try:
        constant = _constant(np.asarray(out, dtype=np.float64).reshape(len(out), -1))
    except (TypeError, ValueError):  # string labels from predict
        constant = len(set(np.asarray(out).tolist())) == 1
    proba = s.plot_data["proba"] if s.task == "classification" else None
    score = getattr(s, "binary_score", None) if s.task in ("classification", "rule") else None
    return _Row(name, s.point, s.evaluator, kind, constant, s.task, proba, score)


def _array_row(name, values, y, w, k, classes, task) -> _Row:
    """An array a system produced, read by :func:`chimeraboost._shared.predictions.read_predictions`
    (the rule in :func:`holdout_table`'s Notes) and scored as the command line scores a column:
    as a fitted estimator replaying it."""
    arg = f"models[{name!r}]"
    read = read_predictions(values, y, classes if task == "classification" else None, arg)
    est = recorded(read, classes)
    return _estimator_row(name, est, row_numbers(len(read.values)), y, w, k, classes)


# --------------------------------------------------------------------------- arguments


def _check_models(models) -> dict:
    if not isinstance(models, Mapping):
        msg = (f"models must be a dict {{name: fitted estimator or array}}, got "
               f"{type(models).__name__}.")
        raise TypeError(msg)
    if not models:
        msg = "models is empty; pass at least one {name: fitted estimator or array}."
        raise ValueError(msg)
    check_key_names(models, "models", "the rows")
    return dict(models)


def _task(models, y) -> str:
    families = {name: estimator_family(m) for name, m in models.items() if not _is_array(m)}
    if len(set(families.values())) > 1:
        msg = (f"models mix tasks {families}; a holdout table compares classifiers with "
               "classifiers, regressors with regressors.")
        raise ValueError(msg)
    if families:
        return next(iter(families.values())).replace("regressor", "regression").replace(
            "classifier", "classification")
    # Arrays only: a float target is a quantity, anything else (labels, 0/1, bool) classes.
    return "regression" if as_1d(y, "y").dtype.kind == "f" else "classification"


def _classes(models, y):
    for m in models.values():
        own = getattr(m, "classes_", None) if not _is_array(m) else None
        if own is not None and len(own) >= 2:
            return np.asarray(own)
    labels = np.unique(as_1d(y, "y"))
    if labels.shape[0] >= 2:
        return labels
    if labels.dtype == bool or (labels.dtype.kind in "iuf" and set(labels.tolist()) <= {0, 1}):
        # One class in y, but 0/1 labels say what the other is.
        return np.array([False, True]) if labels.dtype == bool else np.array([0, 1])
    msg = (f"y holds a single label {labels.tolist()} and no fitted model names the classes; "
           "pass at least one fitted classifier, or 0/1 labels.")
    raise ValueError(msg)


def _parse_metric(name, arg, binary):
    """``"recall@400"`` -> ("recall_at_k", 400); ``"precision@5%"`` -> ("precision_at_k",
    0.05); ``"net_benefit@.20"`` -> ("net_benefit@0.2", None); a report key -> (key, None).
    Read by the one parser of metric names (:func:`chimeraboost._shared.facts.parse_metric`)."""
    parsed = parse_metric(name, arg=arg)
    if parsed.name not in AT_K.values() or parsed.at is None:
        return parsed.key, None
    if not binary:
        msg = (f"{arg}={name!r}: recall@k and precision@k need a binary problem (one "
               "positive class to find).")
        raise ValueError(msg)
    return parsed.key, parsed.at


def _metric_names(primary, metrics, kind, rows):
    """(primary key, shown metric keys -- the primary first --, labels {key: shown name}, k).

    A name must be a metric the rows report (``recall@400`` / ``precision@5%`` for the
    cutoffs); a primary some row cannot have -- it needs probabilities, a decision or a
    ranking the row's output does not give -- is refused here, before any resampling, rather
    than shown as a column of n/a differences.
    """
    binary = kind == "binary"
    if primary is None:
        primary = _default_primary(rows, kind)
    wanted = list(_DEFAULT_METRICS[kind]) if metrics is None else (
        [metrics] if isinstance(metrics, str) else list(metrics))
    if not wanted:
        msg = "metrics is empty; name at least one metric (or pass None for the defaults)."
        raise ValueError(msg)
    reported = [key for key in next(iter(rows.values())).point
                if key in FACTS and key not in ABOUT_THE_ROWS and key not in AT_THRESHOLD
                and not key.endswith("_at_k")]
    if "calibration_mcb" in reported:  # the calibration test's estimate, computed on demand
        reported.insert(reported.index("calibration_mcb") + 1, "calibration_excess")
    ks, labels, keys = {}, {}, []
    for i, name in enumerate([primary, *wanted]):
        arg = "primary" if i == 0 else "metrics"
        key, k = _parse_metric(name, arg, binary)
        if k is not None:
            ks[name] = k
            labels[key] = name.strip().replace(" ", "")
        elif _decision_key(key, arg, binary):
            labels[key] = key
        elif key in ("recall_at_k", "precision_at_k") and binary:
            what = key.split("_")[0]
            msg = (f"{arg}={name!r} needs its cutoff: write {what}@400 (the top 400 rows) or "
                   f"{what}@5% (the top 5% of the rows).")
            raise ValueError(msg)
        elif key not in reported:
            more = (", 'recall@400' / 'precision@5%', or a decision: 'net_benefit@0.2', "
                    "'sensitivity@0.3', ..., 'expected_cost' (with costs=)") if binary else ""
            msg = (f"{arg}={name!r} is not a metric of this table's rows ({kind}); use one of "
                   f"{reported}{more}.")
            raise ValueError(msg)
        if key not in keys:
            keys.append(key)
    if len(set(ks.values())) > 1:
        msg = (f"primary and metrics ask for different cutoffs {ks}; one table has one k for "
               "recall@k and precision@k.")
        raise ValueError(msg)
    _check_rows_have(keys[0], labels.get(keys[0], keys[0]), rows, reported, binary)
    return keys[0], keys, labels, next(iter(ks.values()), None)


def _default_primary(rows, kind) -> str:
    """The headline of the rows' one kind of output; for rows of several kinds, the first
    headline every row can give, by the kinds that give the most: probabilities, then
    rankings, then 0/1 rules (a rule ranks by its flag: its ROC AUC is its balanced
    accuracy). Where none fits, the rules' headline, refused by name later."""
    tasks = {r.task for r in rows.values()}
    if kind not in ("binary", "multiclass") or len(tasks) == 1:
        return HEADLINE[next(iter(tasks))] if len(tasks) == 1 else HEADLINE[kind]
    binary = kind == "binary"
    for task in ("classification", "ranking", "rule"):
        if not any(lacks(r.task, HEADLINE[task], binary=binary) for r in rows.values()):
            return HEADLINE[task]
    return HEADLINE["rule"]


_LACKED = {"probabilities": "probabilities", "decision": "a decision (a class per row)",
           "ranking": "a ranking of the rows",
           "threshold": "a probability (or a 0/1 rule) to act on at a threshold"}
_WHAT = {"rule": "a 0/1 rule", "scores": "scores that only rank the rows",
         "ranking": "a model that only ranks", "classification": "probabilities"}


def _check_rows_have(primary, shown, rows, reported, binary) -> None:
    """Refuse a primary metric that some row's kind of output cannot give."""
    lacking = {name: lacks(r.task, primary, binary=binary) for name, r in rows.items()}
    lacking = {name: need for name, need in lacking.items() if need}
    if not lacking:
        return
    need = next(iter(lacking.values()))
    named = ", ".join(f"{name!r} ({_WHAT.get(rows[name].task, rows[name].kind)})"
                      for name in lacking)
    every = [key for key in reported
             if not any(lacks(r.task, key, binary=binary) for r in rows.values())]
    msg = (f"primary={shown!r} needs {_LACKED[need]}, which row(s) {named} cannot give: "
           f"every paired difference would be n/a. Pick a metric every row has: {every}"
           f"{' or recall@N / precision@N' if binary else ''}.")
    raise ValueError(msg)


@public(renamed={"baseline": "baseline_name", "min_lift": "rope", "ci": "level"})
def holdout_table(models, X, y, *, baseline_name=None, primary=None, metrics=None, split=None,
                  level=0.95, n_boot=2000, rope=0.0, sample_weight=None,
                  random_state=None, costs=None, n_jobs=None,
                  ci_method=resampling.DEFAULT_CI_METHOD, groups=None,
                  time=None) -> HoldoutTable:
    """Score every model -- and every rule -- on the same held-out rows, side by side.

    Parameters
    ----------
    models : dict {name: fitted estimator or array}
        Rows of the table, in order (simplest first reads best: see
        :func:`chimeraboost.baselines.ladder`). A value is a fitted estimator (scored as by
        :func:`chimeraboost.report`) or an array a system already produced for the rows of
        ``X`` (see Notes), so that a business rule sits beside the models.
    X : array-like or DataFrame of shape (n, p)
        The held-out rows, as the estimators expect them (unused by array rows).
    y : array-like of shape (n,)
        True targets (labels may be strings).
    baseline_name : str, default=None
        Name of the row every other row is compared with (the baseline); None: the first
        row. Formerly ``baseline=``.
    primary : str, default=None
        The metric of the paired comparison: a report key (``"brier_skill"``, ``"roc_auc"``,
        ``"log_loss"``, ``"r2"``, ...) or ``"recall@400"`` / ``"precision@5%"`` (the top 400
        rows, the top 5% of rows; binary only), or a decision (binary, every row a
        probability or a 0/1 rule; :mod:`chimeraboost.decisions`): ``"net_benefit@0.2"``
        (treat the rows whose probability is >= 0.2), ``"sensitivity@0.3"``,
        ``"specificity@..."``, ``"ppv@..."``, ``"npv@..."``, ``"standardized_net_benefit@..."``,
        or ``"expected_cost"`` (with ``costs``, at the Bayes threshold of the costs).
        None: ``brier_skill`` when every row gives probabilities, else ``roc_auc`` (a rule or
        a score ranks, but has no Brier skill); ``r2`` for regression, ``crps_skill`` for
        quantile regressors. A metric some row cannot have (``brier_skill`` of a rule,
        ``accuracy`` of scores, a decision of scores) is refused before any resampling,
        naming the rows and the metrics every row has. The table shows the primary first,
        then its paired difference and the decision, then ``metrics``.
    metrics : list of str, default=None
        The metrics shown, each with its interval (the primary is added if missing). None:
        log loss, Brier skill, ROC AUC and PR AUC (binary; accuracy instead of PR AUC for
        multiclass); RMSE, MAE and r2 (regression).
    split : str, default=None
        What the held-out rows are (``"2024-Q4"``, ``"test"``: "2024-Q4 holdout"), for the
        header and the sentences of :meth:`HoldoutTable.summary`; a split that says so
        itself (``"30% holdout"``, ``"held-out rows"``) is used as it is.
    level : float in (0, 1), default=0.95
        Level of every interval.
    n_boot : int, default=2000
        Bootstrap resamples, shared by every row; fewer than 200 are refused (the table
        decides ``beats_baseline``), fewer than 1,000 warn.
    rope : float >= 0, default=0.0
        ``beats_baseline`` needs the lower end of the paired interval above this margin (the
        region of practical equivalence, as in :func:`compare_holdout`). Formerly
        ``min_lift=``.
    sample_weight : array-like of shape (n,), default=None
    random_state : None or int
        Seeds the resampling.
    costs : 2x2 array-like or dict, default=None
        What each outcome costs per row, ``[[c_tn, c_fp], [c_fn, c_tp]]`` or
        ``{"fp": 1, "fn": 5}`` (see :func:`chimeraboost.decisions.expected_cost`); needed by
        ``"expected_cost"``.
    n_jobs : int, default=None
        Workers for the bootstrap, its jackknife and the calibration tests' fits: None or
        1 for one, -1 for every CPU (see :func:`chimeraboost.resampling.bootstrap`); the
        table is the same whatever ``n_jobs``.
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        How every interval, the paired differences' included, is read off the resamples; see
        :func:`chimeraboost.report`. Intervals no method can make trustworthy (a handful of
        events) come with one :class:`~chimeraboost.exceptions.NarrowIntervalWarning`.

    groups, time : array-like of shape (n,) or column name of X, default=None
        Rows that are not independent (several rows per customer; time-ordered rows): every
        row of the table is resampled by whole groups, or by blocks of time (see
        :func:`chimeraboost.report`), and the header says so; ``time`` also gives the rows'
        date range in the header.
    Returns
    -------
    HoldoutTable
        ``print(table)`` (the compact layout within 120 characters;
        ``table.to_text(width=None)`` for every interval), ``table.to_markdown()``,
        ``table.to_frame()``, ``table.summary()``; ``table.rows[name]`` holds each row's
        numbers.

    Notes
    -----
    **Arrays in models.** For classification, an array is read by its values: an (n, K)
    array in [0, 1] whose rows sum to 1 (within 1e-6), or a 1-D array in [0, 1] of a binary
    problem, is probabilities (columns in the order of the first estimator's ``classes_``,
    or of the sorted labels of ``y``; 1-D: the probability of the second class); a 1-D array
    of only 0 and 1 (or bool) is a **0/1 rule**: 1 flags the second class, the flag ranks
    the rows (flagged first, ties shared, so recall@k of a rule is honest) and is its
    decision (accuracy, F1), and it has no log loss, Brier score or calibration ("n/a"); any
    other numbers are **scores** that rank the rows only: their threshold is unknown, so
    they have no accuracy or F1 either (the command line's ``report`` and ``table`` read a
    file's columns by the same rule). A DataFrame's columns are matched to the classes by
    label (``[1, 0]`` is reordered; labels that are not the classes are refused); a binary
    (n, 2) array in [0, 1] whose rows do not sum to 1 is refused rather than read as scores.
    For regression, an array is the predictions. With arrays only, ``y`` of float dtype
    means regression, anything else classification.

    **Same rows, same resamples.** Every row's evaluator goes to one
    :func:`chimeraboost.resampling.joint_bootstrap`, so replicate ``b`` of every model
    comes from the same resampled rows (and the same jackknife blocks); each metric's
    interval is read off its replicates by ``ci_method``, and the paired difference ``row -
    baseline`` of the primary metric (oriented so that positive favours the row: for a loss,
    ``baseline - row``) has the interval of the replicate differences, by the same method
    (Efron & Tibshirani 1993, ch. 13-14).
    Skills are measured against the class prior (mean) of the scored ``y``, as in
    :func:`chimeraboost.report` with ``baseline=None``; the point numbers equal that
    function's.

    **Notes column.** ``floor`` for a constant forecast (the prior, the mean); ``0/1
    rule: log loss n/a`` (or whichever shown metrics need probabilities) for rules, ``scores
    only: ...`` for scores; ``worse than <row>`` when the paired interval of the primary
    metric against an earlier row lies entirely below zero.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[:300], y[:300])
    >>> rule = (X[300:, 20] < 16).astype(int)       # "worst radius below 16": benign
    >>> t = holdout_table({"rule": rule, "logreg": model}, X[300:], y[300:],
    ...                   primary="roc_auc", random_state=0)
    >>> t.rows["logreg"]["beats_baseline"], t.rows["rule"]["notes"]
    (True, '0/1 rule: log loss, Brier skill n/a')
    """
    models = _check_models(models)
    if metrics is not None and not isinstance(metrics, (str, list, tuple)):
        msg = (f"metrics must be a metric name or a list of names (in the order shown), got a "
               f"{type(metrics).__name__}.")
        raise TypeError(msg)
    if baseline_name is not None and not isinstance(baseline_name, str):
        msg = (f"baseline_name must be the name (str) of one of the models or None, got "
               f"{baseline_name!r}.")
        raise TypeError(msg)
    if check_no_missing(to_numpy(y, "y"), "y").dtype.kind in "mMc":  # NaN: never a negative
        msg = f"y holds {to_numpy(y, 'y').dtype} values; pass class labels or a real target."
        raise TypeError(msg)
    level = check_level(level, "level")
    ci_method = resampling.check_ci_method(ci_method)
    costs = None if costs is None else _decisions.Costs.of(costs)
    n_boot = resampling.check_n_boot(n_boot)  # refused or warned once, here
    n_jobs = check_n_jobs(n_jobs)
    min_lift = check_real(rope, "rope", strictly_positive=False)
    n = check_rows(X, y, sample_weight)
    w = check_sample_weight(sample_weight, n)
    if split is not None and not (isinstance(split, str) and split.strip()):
        msg = f"split must be a non-empty string or None, got {split!r}."
        raise TypeError(msg)
    baseline = check_baseline_name(baseline_name, models)
    task = _task(models, y)
    if task == "regression" and to_numpy(y, "y").dtype.kind in "USO":
        msg = ("y holds labels (strings or objects) but the models are regressors; pass the "
               "numeric target, or classifiers for labels.")
        raise TypeError(msg)
    classes = _classes(models, y) if task == "classification" else None
    if task == "classification":
        kind = "binary" if len(classes) == 2 else "multiclass"
    else:
        quantile = [quantile_levels(m) is not None for m in models.values() if not _is_array(m)]
        kind = "quantile" if quantile and all(quantile) else "regression"
        if any(quantile) and not all(quantile) or (kind == "quantile" and any(
                _is_array(m) for m in models.values())):
            msg = ("models mix quantile regressors with point predictions; their numbers "
                   "(CRPS, r2) are not comparable. Put quantile regressors in a table of "
                   "their own.")
            raise ValueError(msg)
    # The cutoff of recall@k / precision@k goes into every evaluator; which k is checked
    # with the other names below.
    named = [(primary, "primary"), *(
        (m, "metrics") for m in ([metrics] if isinstance(metrics, str) else metrics or []))]
    cutoffs = [(m, arg, _parse_metric(m, arg, kind == "binary")[1]) for m, arg in named
               if m is not None]
    at_k = [(m, arg) for m, arg, k in cutoffs if k is not None]
    k = next((k for _, _, k in cutoffs if k is not None), None)
    if k is not None:
        check_k(k, n, name=f"{at_k[0][1]}={at_k[0][0]!r}: k")
    rows = {}
    for name, m in models.items():
        rows[name] = (_array_row(name, m, y, w, k, classes, task) if _is_array(m) else
                      _estimator_row(name, m, X, y, w, k, classes))
    primary, keys, labels, k_all = _metric_names(primary, metrics, kind, rows)
    if costs is not None and "expected_cost" not in keys:
        msg = ("costs= prices the decision of 'expected_cost' only, which neither primary nor "
               "metrics names; pass primary='expected_cost' (or add it to metrics), or drop "
               "costs.")
        raise ValueError(msg)
    primary, keys = _with_calibration_excess(primary, keys)
    rng = check_random_state_int(random_state)
    # One scheme (the rows, whole groups or time blocks) for every resampled number.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewResamplesWarning)  # said above, once
        scheme = resampling.Resampler.for_evaluator(
            next(iter(rows.values())).evaluator, n_boot=n_boot, random_state=rng,
            ci_method=ci_method, n_jobs=n_jobs, groups=groups, time=time, X=X)
    plain = [k for k in keys if at_threshold(k) is None and k != "expected_cost"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewResamplesWarning)  # said above, once
        seed = _resample(list(rows.values()), plain or ["roc_auc"], task, scheme)
        if task == "classification":
            _decide(list(rows.values()), keys, y, classes, w, costs, _on_seed(scheme, seed))
    if "calibration_excess" in keys:
        _calibration(rows.values(), y, w, classes, scheme)
    return HoldoutTable(rows, baseline=baseline, primary=primary, keys=keys, labels=labels,
                        split=split, level=level, n_boot=n_boot, min_lift=min_lift, kind=kind,
                        ci_method=ci_method, units=scheme.units)


def _on_seed(scheme, seed):
    """A fresh scheme like ``scheme`` whose generator starts at ``seed`` (a generator's state,
    copied): the same counts and jackknife blocks for every group of rows resampled
    separately."""
    return resampling.Resampler(scheme.n_boot, random_state=copy.deepcopy(seed),
                                ci_method=scheme.ci_method,
                                n_jobs=scheme.n_jobs, units=scheme.units)


def _resample(rows, keys, task, scheme):
    """One joint bootstrap for every row; rows without probabilities skip the metrics that
    need them (NaN replicates), drawn from the same seed, hence the same counts. Returns the
    seed of a classification table (the decisions are resampled on it too)."""
    n_boot = scheme.n_boot
    if task != "classification":
        boots = scheme.bootstrap([r.evaluator for r in rows])
        for row, boot in zip(rows, boots):
            row.boot = boot
        return None
    # Every group starts from the scheme's generator as it is now: the same counts for every
    # row, and the same replicates as chimeraboost.report on the same seed.
    seed = copy.deepcopy(scheme.rng)
    wanted = set(keys) | {"base_rate", "positives"}
    if "calibration_excess" in wanted:  # its paired differences resample the MCB
        wanted = (wanted - {"calibration_excess"}) | {"calibration_mcb"}
    groups = {True: [r for r in rows if r.evaluator.has_proba],
              False: [r for r in rows if not r.evaluator.has_proba]}
    for has_proba, group in groups.items():
        if not group:
            continue
        asked = wanted if has_proba else wanted - NEEDS_PROBA
        # The first group draws from the scheme itself (its generator moves on, as the
        # report's does), the others from a copy of the same starting state.
        first = all(r.boot is None for r in rows)
        boots = (scheme if first else _on_seed(scheme, seed)).bootstrap(
            [r.evaluator for r in group], metrics=sorted(asked))
        for row, boot in zip(group, boots):
            # Metrics a row cannot give are NaN everywhere; the same seed drew the same
            # counts and the same jackknife blocks for both groups.
            nan = np.full(n_boot, np.nan)
            blocks = np.full(len(next(iter(boot.jackknife.values()))), np.nan)
            row.boot = resampling.BootstrapResult(
                {k: boot.estimate.get(k, np.nan) for k in wanted},
                {k: boot.replicates.get(k, nan) for k in wanted}, n_boot,
                jackknife={k: boot.jackknife.get(k, blocks) for k in wanted},
                n_rows=boot.n_rows, events=boot.events, ci_method=scheme.ci_method,
                units=boot.units, rows=boot.rows)
    return seed


def _with_calibration_excess(primary, keys):
    """The in-sample MCB sits above the population value (the isotonic fit follows noise), so
    a table that shows ``calibration_mcb`` shows the calibration test's estimate of the
    population MCB beside it, with its interval, and compares models on that estimate."""
    keys = list(keys)
    if "calibration_mcb" in keys and "calibration_excess" not in keys:
        keys.insert(keys.index("calibration_mcb") + 1, "calibration_excess")
    if primary == "calibration_mcb":
        primary = "calibration_excess"
        keys = [primary, *(k for k in keys if k != primary)]  # the primary first
    return primary, keys


def _calibration(rows, y, w, classes, scheme) -> None:
    """Each row with probabilities: the calibration test (its interval for the population
    MCB) and replicates of the estimate for the paired differences -- the estimate moved by
    the resampled MCB's deviations from their mean, reflected, so that a difference's
    interval is read around the difference of the estimates (the resampled rows inflate
    every MCB; the spread of their differences is what is used), by the table's
    ``ci_method``. Every row's test draws the same outcomes' random numbers (one seed): two
    identical forecasts get identical tests."""
    n_boot = scheme.n_boot
    draws = calibration_draws(n_boot)
    seed = int(scheme.rng.integers(0, 2**63 - 1))
    units = scheme.unit_params()
    for row in rows:
        if row.proba is None:
            row.point["calibration_excess"] = np.nan
            row.boot.replicates["calibration_excess"] = np.full(n_boot, np.nan)
            continue
        test = _metrics.calibration_test(y, row.proba, classes, sample_weight=w, n_boot=draws,
                                         random_state=seed, n_jobs=scheme.n_jobs, **units)
        row.calibration = test
        row.point["calibration_excess"] = test.excess
        reps = np.asarray(row.boot.replicates["calibration_mcb"], dtype=float)
        centre = test.excess + np.nanmean(reps)
        row.boot.replicates["calibration_excess"] = centre - reps
        row.boot.estimate["calibration_excess"] = test.excess
        jack = row.boot.jackknife.get("calibration_mcb") if row.boot.jackknife else None
        if jack is not None:
            row.boot.jackknife["calibration_excess"] = centre - np.asarray(jack, dtype=float)


# --------------------------------------------------------------------------- the result
