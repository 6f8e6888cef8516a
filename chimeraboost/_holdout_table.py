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
recomputed here.
"""

from __future__ import annotations

import html
import math
import os
import re
import traceback
import warnings
from collections.abc import Mapping

import numpy as np

from . import metrics as _metrics
from . import resampling
from ._facts import ABOUT_THE_ROWS, FACTS, is_loss
from ._format import EMPTY, NA, Col, count, fmt, html_table, percent, table
from ._report import score_estimator
from ._validation import (
    _to_numpy,
    as_1d,
    check_aligned,
    check_k,
    check_level,
    check_random_state_int,
    check_real,
    check_rows,
    check_no_missing,
    check_sample_weight,
    estimator_family,
    finite_float,
    import_pandas,
    label_columns,
    quantile_levels,
)
from .exceptions import FewResamplesWarning

__all__ = ["HoldoutTable", "holdout_table"]

# The number a row is judged on when primary is None, by task.
_DEFAULT_METRICS = {
    "binary": ("log_loss", "brier_skill", "roc_auc", "pr_auc"),
    "multiclass": ("log_loss", "brier_skill", "roc_auc", "accuracy"),
    "regression": ("rmse", "mae", "r2"),
    "quantile": ("crps", "crps_skill", "mae_median"),
}
_NEEDS_PROBA = frozenset({"log_loss", "log_loss_skill", "brier", "brier_skill",
                          "calibration_mcb", "discrimination_dsc"})
# What the skills of each kind of table are measured against (as in report(baseline=None)).
_REFERENCE = {
    "binary": "Skills against the class prior of the scored rows",
    "multiclass": "Skills against the class prior of the scored rows",
    "regression": "r2 and MAE skill against the mean and median of the scored rows",
    "quantile": "CRPS skill against the constant quantiles of the scored rows",
}
_AT_K = re.compile(r"^(recall|precision)@(\d+(?:\.\d+)?)(%?)$")


# --------------------------------------------------------------------------- one row


class _Row:
    """One model's (or one array's) point report and evaluator, and what kind of output it is."""

    def __init__(self, name, point, evaluator, kind, constant):
        self.name, self.point, self.evaluator = name, point, evaluator
        self.kind = kind  # "probabilities", "scores", "rule", "predictions", "quantiles"
        self.constant = constant
        self.boot = None


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
    kind = {"classification": "probabilities", "ranking": "scores", "rule": "rule",
            "regression": "predictions", "quantile": "quantiles"}[s.task]
    out = est.predict_proba(X) if s.task == "classification" else est.predict(X)
    try:
        constant = _constant(np.asarray(out, dtype=np.float64).reshape(len(out), -1))
    except (TypeError, ValueError):  # string labels from predict
        constant = len(set(np.asarray(out).tolist())) == 1
    return _Row(name, s.point, s.evaluator, kind, constant)


def _array_row(name, values, y, w, k, classes, task) -> _Row:
    """An array a system produced, read by the rule in :func:`holdout_table`'s Notes."""
    arg = f"models[{name!r}]"
    check_aligned(**{"y": y, arg: values})  # a Series with another index: paired wrongly
    arr = _to_numpy(values, arg)  # sparse, sets, iterators, None, scalars: refused by name
    n = len(as_1d(y, "y"))
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim not in (1, 2) or arr.shape[0] != n:
        msg = (f"{arg} is an array of shape {arr.shape} but y has {n} rows; pass one value "
               "(or one row of class probabilities) per held-out row.")
        raise ValueError(msg)
    if arr.dtype.kind not in "biuf":
        msg = (f"{arg} holds {arr.dtype} values; an array in models must hold numbers "
               "(probabilities, scores, 0/1 flags or predictions).")
        raise TypeError(msg)
    if task == "regression":
        if arr.ndim != 1:
            msg = f"{arg} must be 1-D predictions for a regression, got shape {arr.shape}."
            raise ValueError(msg)
        arr = finite_float(arr, arg)
        ev = _metrics.regression_evaluator(y, arr, w)
        return _Row(name, _metrics.regression_report(y, arr, w), ev, "predictions",
                    _constant(arr))
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        msg = f"{arg} contains NaN or infinite values; expected finite numbers."
        raise ValueError(msg)
    K = len(classes)
    if arr.ndim == 2 and arr.shape[1] != K:
        msg = (f"{arg} has {arr.shape[1]} columns but y has {K} classes {np.asarray(classes).tolist()}; pass "
               "one column per class, in the order of the classes.")
        raise ValueError(msg)
    if arr.ndim == 2:
        # A DataFrame's columns are matched to the classes by label, never by position.
        order = label_columns(values, classes, arg)
        if order is not None:
            arr = arr[:, order]
    in_unit = bool(np.all((arr >= 0) & (arr <= 1)))
    if arr.ndim == 1 and K == 2 and np.all((arr == 0) | (arr == 1)):
        # A 0/1 rule: its flag ranks the rows (flagged first, ties shared) and is its
        # decision; there is no probability to score.
        y_pred = np.asarray(classes)[arr.astype(np.intp)]
        point = _metrics.ranking_report(y, arr, classes, w, y_pred=y_pred, k=k)
        ev = _metrics.classification_evaluator(y, classes, score=arr, y_pred=y_pred,
                                               sample_weight=w, k=k)
        return _Row(name, point, ev, "rule", _constant(arr))
    proba = (arr.ndim == 1 and K == 2 and in_unit) or (
        arr.ndim == 2 and in_unit and np.allclose(arr.sum(axis=1), 1.0, rtol=0, atol=1e-6))
    if arr.ndim == 2 and K == 2 and in_unit and not proba:
        sums = arr.sum(axis=1)
        msg = (f"{arg} has 2 columns in [0, 1] whose rows sum to {sums.min():.6g}..{sums.max():.6g},"
               " not 1: they are not probabilities. Pass probabilities whose rows sum to 1, or "
               "the 1-D score (or probability) of the second class.")
        raise ValueError(msg)
    if proba:
        point = _metrics.classification_report(y, arr, classes, w, k=k)
        ev = _metrics.classification_evaluator(y, classes, proba=arr, sample_weight=w, k=k)
        return _Row(name, point, ev, "probabilities", _constant(arr.reshape(n, -1)))
    if arr.ndim == 1 and K != 2:
        msg = (f"{arg} is 1-D but y has {K} classes; pass (n, {K}) class probabilities or "
               "scores, columns in the order of the classes.")
        raise ValueError(msg)
    point = _metrics.ranking_report(y, arr, classes, w, k=k)
    ev = _metrics.classification_evaluator(y, classes, score=arr, sample_weight=w, k=k)
    return _Row(name, point, ev, "scores", _constant(arr.reshape(n, -1)))


# --------------------------------------------------------------------------- arguments


def _check_models(models) -> dict:
    if not isinstance(models, Mapping):
        msg = (f"models must be a dict {{name: fitted estimator or array}}, got "
               f"{type(models).__name__}.")
        raise TypeError(msg)
    if not models:
        msg = "models is empty; pass at least one {name: fitted estimator or array}."
        raise ValueError(msg)
    for name in models:
        if not (isinstance(name, str) and name.strip()):
            msg = f"models' keys name the rows and must be non-empty strings, got {name!r}."
            raise TypeError(msg)
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
    0.05); a report key -> (key, None)."""
    if not isinstance(name, str):
        msg = f"{arg} must be a metric name (str), got {type(name).__name__} {name!r}."
        raise TypeError(msg)
    match = _AT_K.match(name.strip())
    if match is None:
        return name, None
    if not binary:
        msg = (f"{arg}={name!r}: recall@k and precision@k need a binary problem (one "
               "positive class to find).")
        raise ValueError(msg)
    what, number, pct = match.groups()
    value = float(number)
    if pct:
        if not 0 < value < 100:
            msg = f"{arg}={name!r}: a percentage of the rows must be in (0, 100)."
            raise ValueError(msg)
        return f"{what}_at_k", value / 100
    if value != int(value) or value < 1:
        msg = f"{arg}={name!r}: a number of rows must be a whole number >= 1 (or use '5%')."
        raise ValueError(msg)
    return f"{what}_at_k", int(value)


def _metric_names(primary, metrics, kind, all_proba):
    """(primary key, shown metric keys, labels {key: shown name}, k)."""
    binary = kind == "binary"
    if primary is None:
        primary = {"binary": "brier_skill", "multiclass": "brier_skill", "regression": "r2",
                   "quantile": "crps_skill"}[kind]
        if kind in ("binary", "multiclass") and not all_proba:
            primary = "roc_auc"  # a rule or a score has no Brier skill, but it ranks
    wanted = list(_DEFAULT_METRICS[kind]) if metrics is None else (
        [metrics] if isinstance(metrics, str) else list(metrics))
    if not wanted:
        msg = "metrics is empty; name at least one metric (or pass None for the defaults)."
        raise ValueError(msg)
    ks, labels, keys = {}, {}, []
    # The primary is parsed first (its errors first) but shown after the chosen metrics.
    for i, name in enumerate([primary, *wanted]):
        key, k = _parse_metric(name, "primary" if i == 0 else "metrics", binary)
        if k is not None:
            ks[name] = k
            labels[key] = name.strip()
        if key not in FACTS or key in ABOUT_THE_ROWS:
            arg = "primary" if i == 0 else "metrics"
            known = sorted(k_ for k_, f in FACTS.items() if not f.about_the_rows)
            msg = (f"{arg}={name!r} is not a metric of a model; use a report key such as "
                   f"{known} or 'recall@400' / 'precision@5%'.")
            raise ValueError(msg)
        if key not in keys[1:]:
            keys.append(key)
    if len(set(ks.values())) > 1:
        msg = (f"primary and metrics ask for different cutoffs {ks}; one table has one k for "
               "recall@k and precision@k.")
        raise ValueError(msg)
    k = next(iter(ks.values()), None)
    return keys[0], keys[1:] + keys[:1] if keys[0] not in keys[1:] else keys[1:], labels, k


def _orient(key, diff):
    """A difference oriented so that positive favours the row (losses flipped)."""
    return -diff if is_loss(key) else diff


def _interval(reps, level):
    ci, _ = resampling.percentile_interval(reps, level)
    return ci


# --------------------------------------------------------------------------- the call


def holdout_table(models, X, y, *, baseline=None, primary=None, metrics=None, split=None,
                  ci=0.95, n_boot=2000, min_lift=0.0, sample_weight=None,
                  random_state=None) -> HoldoutTable:
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
    baseline : str, default=None
        Name of the row every other row is compared with; None: the first row.
    primary : str, default=None
        The metric of the paired comparison: a report key (``"brier_skill"``, ``"roc_auc"``,
        ``"log_loss"``, ``"r2"``, ...) or ``"recall@400"`` / ``"precision@5%"`` (the top 400
        rows, the top 5% of rows; binary only). None: ``brier_skill`` when every row gives
        probabilities, else ``roc_auc`` (a rule or a score ranks, but has no Brier skill);
        ``r2`` for regression, ``crps_skill`` for quantile regressors.
    metrics : list of str, default=None
        The metrics shown, each with its interval (the primary is added if missing). None:
        log loss, Brier skill, ROC AUC and PR AUC (binary; accuracy instead of PR AUC for
        multiclass); RMSE, MAE and r2 (regression).
    split : str, default=None
        What the held-out rows are (``"2024-Q4"``, ``"test"``), for the header and the
        sentences of :meth:`HoldoutTable.summary`.
    ci : float in (0, 1), default=0.95
        Level of every interval.
    n_boot : int, default=2000
        Bootstrap resamples, shared by every row; fewer than 200 are refused (the table
        decides ``beats_baseline``), fewer than 1,000 warn.
    min_lift : float >= 0, default=0.0
        ``beats_baseline`` needs the lower end of the paired interval above this margin.
    sample_weight : array-like of shape (n,), default=None
    random_state : None or int
        Seeds the resampling.

    Returns
    -------
    HoldoutTable
        ``print(table)``, ``table.to_markdown()``, ``table.to_frame()``, ``table.summary()``;
        ``table.rows[name]`` holds each row's numbers.

    Notes
    -----
    **Arrays in models.** For classification, an array is read by its values: an (n, K)
    array in [0, 1] whose rows sum to 1 (within 1e-6), or a 1-D array in [0, 1] of a binary
    problem, is probabilities (columns in the order of the first estimator's ``classes_``,
    or of the sorted labels of ``y``; 1-D: the probability of the second class); a 1-D array
    of only 0 and 1 (or bool) is a **0/1 rule**: 1 flags the second class, the flag ranks
    the rows (flagged first, ties shared, so recall@k of a rule is honest) and is its
    decision (accuracy, F1), and it has no log loss, Brier score or calibration ("n/a");
    any other numbers are **scores** that rank the rows only. A DataFrame's columns are
    matched to the classes by label (``[1, 0]`` is reordered; labels that are not the
    classes are refused); a binary (n, 2) array in [0, 1] whose rows do not sum to 1 is
    refused rather than read as scores. For regression, an array is
    the predictions. With arrays only, ``y`` of float dtype means regression, anything else
    classification.

    **Same rows, same resamples.** Every row's evaluator goes to one
    :func:`chimeraboost.resampling.joint_bootstrap`, so replicate ``b`` of every model
    comes from the same resampled rows; each metric's interval is the percentile interval
    of its replicates, and the paired difference ``row - baseline`` of the primary metric
    (oriented so that positive favours the row: for a loss, ``baseline - row``) has the
    percentile interval of the replicate differences (Efron & Tibshirani 1993, ch. 13).
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
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = LogisticRegression(max_iter=5000).fit(X[:300], y[:300])
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
    if baseline is not None and not isinstance(baseline, str):
        msg = f"baseline must be the name (str) of one of the models or None, got {baseline!r}."
        raise TypeError(msg)
    if check_no_missing(_to_numpy(y, "y"), "y").dtype.kind in "mMc":  # NaN: never a negative
        msg = f"y holds {_to_numpy(y, 'y').dtype} values; pass class labels or a real target."
        raise TypeError(msg)
    level = check_level(ci, "ci")
    n_boot = resampling.check_n_boot(n_boot, decision=True)  # refused or warned once, here
    min_lift = check_real(min_lift, "min_lift", strictly_positive=False)
    n = check_rows(X, y)
    check_aligned(X=X, y=y, sample_weight=sample_weight)
    w = check_sample_weight(sample_weight, n)
    if split is not None and not (isinstance(split, str) and split.strip()):
        msg = f"split must be a non-empty string or None, got {split!r}."
        raise TypeError(msg)
    if baseline is None:
        baseline = next(iter(models))
    elif baseline not in models:
        msg = f"baseline={baseline!r} is not one of the models: {list(models)}."
        raise ValueError(msg)
    task = _task(models, y)
    if task == "regression" and _to_numpy(y, "y").dtype.kind in "USO":
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
    at_k = [(m, arg) for m, arg in named if isinstance(m, str) and _AT_K.match(m.strip())]
    k = _parse_metric(*at_k[0], kind == "binary")[1] if at_k else None
    if k is not None:
        check_k(k, n, name=f"{at_k[0][1]}={at_k[0][0]!r}: k")
    rows = {}
    for name, m in models.items():
        rows[name] = (_array_row(name, m, y, w, k, classes, task) if _is_array(m) else
                      _estimator_row(name, m, X, y, w, k, classes))
    all_proba = all(r.kind == "probabilities" for r in rows.values())
    primary, keys, labels, k_all = _metric_names(primary, metrics, kind, all_proba)
    for name, row in rows.items():
        if primary not in row.point:
            msg = (f"models[{name!r}] ({row.kind}) has no {primary!r}; pick a primary metric "
                   "every row has.")
            raise ValueError(msg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewResamplesWarning)  # said above, once
        _resample(list(rows.values()), keys, task, n_boot, random_state)
    return HoldoutTable(rows, baseline=baseline, primary=primary, keys=keys, labels=labels,
                        split=split, level=level, n_boot=n_boot, min_lift=min_lift, kind=kind)


def _resample(rows, keys, task, n_boot, random_state) -> None:
    """One joint bootstrap for every row; rows without probabilities skip the metrics that
    need them (NaN replicates), drawn from the same seed, hence the same counts."""
    if task != "classification":
        boots = resampling.joint_bootstrap([r.evaluator for r in rows], n_boot,
                                           random_state=random_state)
        for row, boot in zip(rows, boots):
            row.boot = boot
        return
    seed = int(check_random_state_int(random_state).integers(0, 2**63 - 1))
    wanted = set(keys) | {"base_rate", "positives"}
    groups = {True: [r for r in rows if r.evaluator.has_proba],
              False: [r for r in rows if not r.evaluator.has_proba]}
    for has_proba, group in groups.items():
        if not group:
            continue
        asked = wanted if has_proba else wanted - _NEEDS_PROBA
        boots = resampling.joint_bootstrap([r.evaluator for r in group], n_boot,
                                           random_state=seed, metrics=sorted(asked))
        for row, boot in zip(group, boots):
            nan = np.full(n_boot, np.nan)
            row.boot = resampling.BootstrapResult(
                boot.estimate, {k: boot.replicates.get(k, nan) for k in wanted}, n_boot)


# --------------------------------------------------------------------------- the result


class HoldoutTable:
    """The outcome of :func:`holdout_table`: one row per model on the same held-out rows.

    Attributes
    ----------
    rows : dict
        Name -> dict with, for every shown metric ``m``, ``m`` (the point value, equal to
        :func:`chimeraboost.report`'s), ``m_low`` and ``m_high`` (its percentile interval);
        ``difference``, ``diff_low``, ``diff_high`` (the paired difference of the primary
        metric against the baseline row, positive favours the row; NaN for the baseline
        itself), ``beats_baseline`` (``diff_low > min_lift``), ``kind`` (probabilities,
        scores, rule, predictions, quantiles) and ``notes``.
    baseline, primary, split : str
    n : int
        Rows scored. ``positives`` (binary only): their weight of the positive class.
    level, min_lift : float
    n_boot : int
    """

    def __init__(self, rows, *, baseline, primary, keys, labels, split, level, n_boot,
                 min_lift, kind):
        self.baseline, self.primary, self.metrics = baseline, primary, list(keys)
        self._labels, self.split, self.level = labels, split, level
        self.n_boot, self.min_lift, self.kind = n_boot, min_lift, kind
        first = next(iter(rows.values())).point
        self.n = int(first["n"])
        self.positives = float(first["positives"]) if kind == "binary" else None
        self.base_rate = float(first["base_rate"]) if kind == "binary" else None
        self.rows = self._numbers(rows)

    def _numbers(self, rows) -> dict:
        level = self.level
        base = rows[self.baseline]
        names = list(rows)
        out = {}
        for i, (name, row) in enumerate(rows.items()):
            values = {"kind": row.kind}
            for key in self.metrics:
                values[key] = float(row.point[key])
                lo, hi = _interval(row.boot.replicates[key], level) if not math.isnan(
                    values[key]) else (np.nan, np.nan)
                values[f"{key}_low"], values[f"{key}_high"] = lo, hi
            if name == self.baseline:
                d, lo, hi = np.nan, np.nan, np.nan
            else:
                d, lo, hi = self._paired(row, base)
            values.update(difference=d, diff_low=lo, diff_high=hi,
                          beats_baseline=bool(lo > self.min_lift) if not math.isnan(lo)
                          else False)
            worse = [other for other in names[:i]
                     if self._paired(row, rows[other])[2] < 0]
            values["notes"] = "; ".join(self._notes(row, worse))
            out[name] = values
        return out

    def _paired(self, row, other):
        """Primary metric, ``row - other`` oriented (positive favours ``row``), with its
        paired percentile interval; NaN when fewer than MIN_RESAMPLES_DECISION resamples
        define it."""
        p = self.primary
        d = _orient(p, float(row.point[p]) - float(other.point[p]))
        reps = _orient(p, row.boot.replicates[p] - other.boot.replicates[p])
        if math.isnan(d) or np.sum(~np.isnan(reps)) < resampling.MIN_RESAMPLES_DECISION:
            return d, np.nan, np.nan
        lo, hi = _interval(reps, self.level)
        return d, lo, hi

    def _notes(self, row, worse) -> list:
        notes = []
        if row.constant:
            notes.append("floor")
        missing = [FACTS[k].label for k in self.metrics
                   if k in _NEEDS_PROBA and math.isnan(float(row.point[k]))]
        if row.kind in ("rule", "scores") and missing:
            what = "0/1 rule" if row.kind == "rule" else "scores only"
            notes.append(f"{what}: {', '.join(missing)} n/a")
        if worse:
            notes.append(f"worse than {', '.join(worse)}")
        return notes

    def _label(self, key) -> str:
        return self._labels.get(key, key)

    # ---- text
    @property
    def _primary_label(self) -> str:
        return self._label(self.primary)

    def header(self) -> str:
        """Where the rows come from, how many, and how they were scored."""
        where = f"{self.split} holdout" if self.split else "holdout"
        parts = [f"{where}: {self.n:,} rows"]
        if self.kind == "binary":
            parts[0] += (f", {count(self.positives)} positives (base rate "
                         f"{fmt(self.base_rate, 3)})")
        parts.append(f"every row scored on the same rows and the same {self.n_boot:,} bootstrap "
                     "resamples")
        return " · ".join(parts)

    def _cells(self):
        """Column titles and rows of cells, shared by the text, markdown and HTML tables."""
        pct = percent(self.level)
        titles = ["model", *(self._label(k) for k in self.metrics),
                  f"{self._primary_label} vs {self.baseline}", f"{pct} low", "high",
                  "beats", "notes"]
        body = []
        for name, r in self.rows.items():
            cells = [name]
            for key in self.metrics:
                v, lo, hi = r[key], r[f"{key}_low"], r[f"{key}_high"]
                cells.append(NA if math.isnan(v) else
                             f"{fmt(v, 3)} [{fmt(lo, 3)}, {fmt(hi, 3)}]")
            if name == self.baseline:
                cells += [EMPTY, EMPTY, EMPTY, "baseline"]
            else:
                cells += [fmt(r["difference"], signed=True), fmt(r["diff_low"], signed=True),
                          fmt(r["diff_high"], signed=True), "yes" if r["beats_baseline"] else
                          "no"]
            cells.append(r["notes"] or "")
            body.append(cells)
        return titles, body

    def _footer(self) -> list:
        pct = percent(self.level)
        sign = (f"baseline minus row ({self._primary_label} is a loss)" if is_loss(self.primary)
                else "row minus baseline")
        return [
            f"[low, high]: {pct} percentile bootstrap intervals. {self._primary_label} vs "
            f"{self.baseline}: {sign}, paired on the same resamples, positive favours the row;",
            f"beats: the whole {pct} interval of the difference above {self.min_lift:g}. "
            f"{_REFERENCE[self.kind]}; losses with their natural sign.",
        ]

    def __str__(self) -> str:
        titles, body = self._cells()
        columns = [Col(titles[0], None), *(Col(t) for t in titles[1:-2]),
                   Col(titles[-2], None), Col(titles[-1], None)]
        return "\n".join([self.header(), "", *table(columns, body, indent=0), "",
                          *self._footer()])

    def __repr__(self) -> str:
        beats = [n for n, r in self.rows.items() if r["beats_baseline"]]
        return (f"<HoldoutTable {len(self.rows)} rows on {self.n} held-out rows, primary "
                f"{self._primary_label} vs {self.baseline!r}: beating it {beats}>")

    def to_markdown(self) -> str:
        """The table as GitHub-flavoured markdown, header and footer as paragraphs."""
        titles, body = self._cells()
        align = ["---", *(["---:"] * (len(titles) - 3)), "---", "---"]

        def line(cells):
            return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

        return "\n".join([self.header(), "", line(titles), line(align),
                          *(line(c) for c in body), "", " ".join(self._footer())])

    def _repr_html_(self) -> str:
        """Jupyter: the header as a heading, then one table in which every interval has its
        own low and high columns."""
        pct = percent(self.level)
        columns = [Col("model", None)]
        for key in self.metrics:
            columns += [Col(self._label(key), 3), Col(f"{pct} low", 3), Col("high", 3)]
        columns += [Col(f"{self._primary_label} vs {self.baseline}", signed=True),
                    Col(f"{pct} low", signed=True), Col("high", signed=True),
                    Col("beats", None), Col("notes", None)]
        body = []
        for name, r in self.rows.items():
            cells = [name]
            for key in self.metrics:
                cells += [r[key], r[f"{key}_low"], r[f"{key}_high"]]
            if name == self.baseline:
                cells += [EMPTY, EMPTY, EMPTY, "baseline"]
            else:
                cells += [r["difference"], r["diff_low"], r["diff_high"],
                          "yes" if r["beats_baseline"] else "no"]
            body.append([*cells, r["notes"] or ""])
        return (f"<div><h4>{html.escape(self.header())}</h4>{html_table(columns, body)}"
                f"<p>{html.escape(' '.join(self._footer()))}</p></div>")

    def to_frame(self):
        """One row per model, the columns of :attr:`rows`. Needs pandas."""
        pd = import_pandas("HoldoutTable.to_frame")
        return pd.DataFrame.from_dict(self.rows, orient="index")

    def to_dict(self) -> dict:
        """Plain Python values: settings and :attr:`rows`."""
        return {"split": self.split, "n": self.n, "positives": self.positives,
                "baseline": self.baseline, "primary": self._primary_label,
                "level": self.level, "n_boot": self.n_boot, "min_lift": self.min_lift,
                "rows": {n: dict(r) for n, r in self.rows.items()}}

    def summary(self) -> str:
        """One sentence per model other than the baseline, for a report:

        "On the <split> holdout (<n> rows, <positives> positives) <model> reaches
        <primary> <value> (95% CI <lo>-<hi>) vs <value> for <baseline>; the paired
        difference is <+d> (CI <lo> to <hi>)."
        """
        pct = percent(self.level)
        where = f"the {self.split} holdout" if self.split else "the holdout"
        rows = f"{self.n:,} rows"
        if self.kind == "binary":
            rows += f", {count(self.positives)} positives"
        p, label = self.primary, self._primary_label
        base = self.rows[self.baseline]
        sentences = []
        for name, r in self.rows.items():
            if name == self.baseline:
                continue
            lo, hi = r[f"{p}_low"], r[f"{p}_high"]
            span = f"{fmt(lo)}-{fmt(hi)}" if not (lo < 0 or hi < 0) else \
                f"{fmt(lo)} to {fmt(hi)}"
            diff = "the paired difference" if not is_loss(p) else (
                "the paired difference (baseline minus model: positive favours the model)")
            sentences.append(
                f"On {where} ({rows}) {name} reaches {label} {fmt(r[p])} ({pct} CI {span}) vs "
                f"{fmt(base[p])} for {self.baseline}; {diff} is "
                f"{fmt(r['difference'], signed=True)} (CI {fmt(r['diff_low'], signed=True)} to "
                f"{fmt(r['diff_high'], signed=True)}).")
        return "\n".join(sentences)
