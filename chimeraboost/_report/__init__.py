"""Is this fitted model any good, compared with what? The report on any estimator.

Questions worth asking, and what answers each:

- How good is this fitted model on these rows, against the no-skill forecast?
  ``report(model, X, y)`` (or ``model.report(X, y)`` with :class:`ReportMixin`): log loss and
  Brier with the base rate, the reference loss and the skill; calibration; ranking; threshold
  metrics -- whatever the model can be judged on.
- Against the forecast it could have made without features? ``baseline=y_train``.
- Better than the model in production, on the same rows? ``baseline=<fitted estimator>``:
  :attr:`Report.vs_baseline` holds every metric's paired difference (model minus baseline)
  with its bootstrap interval.
- How sure is each number? ``ci=0.95``: :attr:`Report.ci` holds percentile bootstrap
  intervals (see :mod:`chimeraboost.resampling`).

This is the only layer that calls ``predict_proba`` / ``decision_function`` / ``predict``; the
numbers themselves come from :mod:`chimeraboost.metrics` and
:mod:`chimeraboost.quantile_metrics`, so a report says exactly what those functions say on the
model's output.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping

import numpy as np

from .. import metrics, quantile_metrics, resampling
from .._shared.facts import ABOUT_THE_ROWS, is_loss
from .._shared.progress import working
from .._shared.format import (
    NA,
    NO_PROBA,
    Col,
    count,
    fmt,
    fmt_p,
    html_table,
    percent,
    rates,
    report_lines,
    table,
)
from .._shared.validation import (
    as_1d,
    check_features,
    check_fitted,
    check_level,
    check_positive_int,
    check_rows,
    check_sample_weight,
    estimator_family,
    import_pandas,
    plain,
    quantile_levels,
)

__all__ = ["Report", "ReportMixin", "report"]

# --------------------------------------------------------------------------- scoring a model


def _name(estimator) -> str:
    """``LogisticRegression``; ``Pipeline(StandardScaler, LogisticRegression)``;
    ``GridSearchCV(LogisticRegression)``: enough to tell two models apart in a header."""
    name = type(estimator).__name__
    if hasattr(estimator, "steps"):
        return f"{name}({', '.join(_name(step) for _, step in estimator.steps)})"
    inner = getattr(estimator, "best_estimator_", None)
    if inner is not None:
        return f"{name}({_name(inner)})"
    return name


def _check_fitted(estimator, arg: str) -> None:
    check_fitted(estimator, arg, _name(estimator))


def _task(estimator) -> str:
    """What the model is judged on, decided by what it is (:func:`estimator_family`), then
    by what it offers."""
    if estimator_family(estimator) == "classifier":
        if hasattr(estimator, "predict_proba"):
            return "classification"
        if hasattr(estimator, "decision_function"):
            return "ranking"
        return "rule"
    if quantile_levels(estimator) is not None:
        return "quantile"
    return "regression"


class _Scored:
    """One model's output on the rows, its point report and what the bootstrap needs."""

    def __init__(self, estimator, X, y, sample_weight, targets, k, arg, classes=None):
        _check_fitted(estimator, arg)
        self.name, self.task = _name(estimator), _task(estimator)
        check_features(estimator, X, arg, self.name)
        self.evaluator = None
        if self.task in ("classification", "ranking", "rule"):
            self._classify(estimator, X, y, sample_weight, targets, k, classes)
        elif self.task == "quantile":
            self._quantiles(estimator, X, y, sample_weight, targets, k)
        else:
            self._regress(estimator, X, y, sample_weight, targets, k)

    def _classify(self, est, X, y, w, targets, k, classes):
        own = getattr(est, "classes_", None)
        if self.task == "rule":
            y_pred = as_1d(est.predict(X), "predict(X)")
            if own is None:
                own = np.unique(np.concatenate([as_1d(y, "y"), y_pred]))
        own = np.asarray(own)
        self.classes = own if classes is None else classes
        cols = _column_map(own, self.classes)
        kwargs = {"sample_weight": w, "k": k}
        self.binary_score = None  # the score that ranks classes[1] first, for DeLong
        if self.task == "classification":
            proba = np.asarray(est.predict_proba(X))[:, cols]
            if len(self.classes) == 2:
                self.binary_score = proba[:, 1]
            self.point = metrics.classification_report(y, proba, self.classes, baseline=targets,
                                                       **kwargs)
            self.evaluator = metrics.classification_evaluator(
                y, self.classes, proba=proba, baseline=targets, **kwargs
            )
            self.plot_data = {"y": y, "proba": proba, "classes": self.classes,
                              "sample_weight": w}  # what Report.plot draws
            return
        if self.task == "ranking":
            score = np.asarray(est.decision_function(X), dtype=np.float64)
            if score.ndim == 2 and score.shape[1] > 1:
                score = score[:, cols]
            elif cols[0] == 1:  # binary, the comparison model's classes in reverse order
                score = -score
            y_pred = as_1d(est.predict(X), "predict(X)")
        else:
            # A 0/1 rule ranks rows by its own decision: flagged rows first, ties shared.
            score = (y_pred == self.classes[1]).astype(np.float64) if len(self.classes) == 2 \
                else None
        if score is not None and score.ndim == 1:
            self.binary_score = score
        self.point = metrics.ranking_report(y, score, self.classes, y_pred=y_pred, **kwargs)
        self.evaluator = metrics.classification_evaluator(
            y, self.classes, score=score, y_pred=y_pred, **kwargs
        )

    def _regress(self, est, X, y, w, targets, k):
        _no_k(k, "a regressor")
        pred = np.asarray(est.predict(X))
        if pred.ndim == 2 and pred.shape[1] == 1:
            pred = pred[:, 0]
        self.point = metrics.regression_report(y, pred, w, baseline=targets)
        self.evaluator = metrics.regression_evaluator(y, pred, w, baseline=targets)
        self.plot_data = {"y": y, "pred": pred, "sample_weight": w}  # what Report.plot draws

    def _quantiles(self, est, X, y, w, targets, k):
        _no_k(k, "a quantile regressor")
        self.levels = quantile_levels(est)
        pred = np.asarray(est.predict(X))
        if pred.ndim == 1 and self.levels.size == 1:
            pred = pred[:, None]
        if pred.ndim != 2 or pred.shape[1] != self.levels.size:
            msg = (
                f"{self.name} has {self.levels.size} quantile levels but predict(X) returned "
                f"shape {pred.shape}; expected (n, {self.levels.size})."
            )
            raise ValueError(msg)
        self.point = quantile_metrics.quantile_report(y, pred, self.levels, w, baseline=targets)
        self.evaluator = quantile_metrics.quantile_evaluator(y, pred, self.levels, w, targets)


def score_estimator(estimator, X, y, *, sample_weight=None, k=None, classes=None,
                    arg="estimator"):
    """What :func:`report` computes for one fitted estimator, for callers that resample
    several models on the same rows: an object with ``point`` (the report dict), ``evaluator``
    (for :mod:`chimeraboost.resampling`), ``task``, ``name`` and, for classifiers,
    ``classes`` (``classes`` given: the model's columns are put in that order)."""
    return _Scored(estimator, X, y, sample_weight, None, k, arg, classes=classes)


def _no_k(k, what: str) -> None:
    if k is not None:
        msg = f"k (recall@k) applies to binary classifiers; the model is {what}."
        raise ValueError(msg)


def _column_map(own, classes) -> np.ndarray:
    """Indices that put a model's class columns in the order of ``classes``."""
    own = np.asarray(own)
    if len(own) != len(classes) or set(own.tolist()) != set(np.asarray(classes).tolist()):
        msg = (
            f"baseline predicts classes {own.tolist()} but the model predicts "
            f"{np.asarray(classes).tolist()}; a fitted baseline must have the same classes."
        )
        raise ValueError(msg)
    where = {label: i for i, label in enumerate(own.tolist())}
    return np.array([where[label] for label in np.asarray(classes).tolist()])


def _check_same_task(model: _Scored, base_estimator) -> str:
    base_task = _task(base_estimator)
    family = {"classification": "classifier", "ranking": "classifier", "rule": "classifier",
              "regression": "regressor", "quantile": "quantile regressor"}
    if family[base_task] != family[model.task]:
        msg = (
            f"baseline is a {family[base_task]} ({_name(base_estimator)}) but the model is a "
            f"{family[model.task]} ({model.name}); a fitted baseline must solve the same task."
        )
        raise ValueError(msg)
    if base_task == "quantile":
        levels = quantile_levels(base_estimator)
        if levels.shape != model.levels.shape or not np.allclose(levels, model.levels):
            msg = (
                f"baseline predicts quantile levels {levels.tolist()} but the model "
                f"{model.levels.tolist()}; a fitted baseline must predict the same levels."
            )
            raise ValueError(msg)
    return base_task


# --------------------------------------------------------------------------- names


def distinct_names(first, second, roles=("model", "baseline")) -> tuple[str, str]:
    """Names that tell two estimators apart in a header.

    Their class names (:func:`_name`) when those differ; otherwise the same names followed by
    the parameters in which the two differ (``Pipeline(StandardScaler, LogisticRegression)
    [C=0.01]``), and when the parameters do not tell them apart either, by their ``roles``
    (``... (champion)``).
    """
    a, b = _name(first), _name(second)
    if a != b:
        return a, b
    shown = _differing_params(first, second)
    if shown is not None and shown[0] != shown[1]:
        return f"{a} [{shown[0]}]", f"{b} [{shown[1]}]"
    return f"{a} ({roles[0]})", f"{b} ({roles[1]})"


def _differing_params(first, second, limit: int = 2):
    try:
        pa, pb = first.get_params(deep=True), second.get_params(deep=True)
    except (AttributeError, TypeError):  # duck-typed models without get_params
        return None

    def nested(value):  # an estimator or a list of steps: its own parameters are listed too
        items = value if isinstance(value, (list, tuple)) else [value]
        return any(hasattr(v, "get_params") or (isinstance(v, tuple) and nested(list(v)))
                   for v in items)

    def short(value):
        text = repr(value)
        return text if len(text) <= 24 else text[:21] + "..."

    keys = [k for k in pa if k in pb and not nested(pa[k]) and not nested(pb[k])
            and short(pa[k]) != short(pb[k])]
    if not keys:
        return None
    tails = [k.rsplit("__", 1)[-1] for k in keys]
    labels = [t if tails.count(t) == 1 else k for k, t in zip(keys, tails)]
    more = ", ..." if len(keys) > limit else ""
    return tuple(", ".join(f"{lab}={short(p[k])}" for lab, k in zip(labels[:limit], keys))
                 + more for p in (pa, pb))


def _check_name(value, arg: str) -> None:
    if value is not None and not (isinstance(value, str) and value.strip()):
        got = repr(value) if isinstance(value, str) else f"{type(value).__name__} {value}"
        msg = f"{arg} must be a non-empty string or None, got {got}."
        raise TypeError(msg)


def _names(estimator, baseline, name, baseline_name) -> tuple[str, str | None]:
    """The model's and the baseline's names in the report: given ones as given, defaults
    made distinct by :func:`distinct_names`."""
    _check_name(name, "name")
    _check_name(baseline_name, "baseline_name")
    if baseline is None and baseline_name is not None:
        msg = (f"baseline_name={baseline_name!r} names the baseline, but baseline is None; "
               "pass baseline= (targets or a fitted estimator) too.")
        raise ValueError(msg)
    base_est = baseline if hasattr(baseline, "predict") else None
    if base_est is None:
        return (_name(estimator) if name is None else name), baseline_name
    default_model, default_base = distinct_names(estimator, base_est)
    model_name = default_model if name is None else name
    base_name = default_base if baseline_name is None else baseline_name
    if model_name == base_name:
        msg = (f"name and baseline_name both read {model_name!r}; give the model and the "
               "baseline different names so the comparison can tell them apart.")
        raise ValueError(msg)
    return model_name, base_name


# --------------------------------------------------------------------------- the public call


def report(estimator, X, y, *, baseline=None, sample_weight=None, ci=None, n_boot=2000,
           random_state=None, k=None, name=None, baseline_name=None) -> Report:
    """Score a fitted estimator on ``(X, y)`` against a stated reference.

    Parameters
    ----------
    estimator : fitted scikit-learn estimator
        Anything with ``predict``: a classifier, a regressor, a ``Pipeline``, a fitted
        ``GridSearchCV``, a ``CalibratedClassifierCV``, a ChimeraBoost model. What it is
        judged on follows from what it offers (see Notes).
    X : array-like or DataFrame of shape (n, p)
        Rows to score, as the estimator expects them.
    y : array-like of shape (n,)
        True targets (class labels may be strings).
    baseline : None, array-like of targets, or fitted estimator, default=None
        What the model is judged against. ``None``: the scored ``y``'s own class prior /
        mean. Targets (e.g. ``y_train``): their prior / mean, the no-skill forecast the model
        could have known. A fitted estimator (the incumbent): it is scored on the same rows,
        and every metric's paired difference ``model - baseline`` goes to
        :attr:`Report.vs_baseline` with a paired-bootstrap interval at level ``ci`` (0.95 when
        ``ci`` is None); the skills of both are then measured against the scored ``y``'s prior.
    sample_weight : array-like of shape (n,), default=None
    ci : float in (0, 1), default=None
        Confidence level of the percentile bootstrap intervals in :attr:`Report.ci`
        (0.95 = 95%). None: no intervals (except for the comparison with a fitted baseline).
    n_boot : int, default=2000
        Bootstrap replicates.
    random_state : None, int or numpy Generator
        Makes the intervals reproducible.
    k : int or float, default=None
        Binary classifiers: also recall and precision among the ``k`` highest-scored rows
        (a float in (0, 1) is a fraction of the rows).
    name, baseline_name : str, default=None
        What to call the model and the baseline in the printed report. None: the class
        name (``Pipeline(StandardScaler, LogisticRegression)``); when a fitted baseline has
        the same class name as the model, the parameters in which the two differ are added
        (``... [C=0.01]``), or ``(model)`` / ``(baseline)`` when no parameter differs.
        ``baseline_name`` also names baseline targets (``"y_train"``).

    Returns
    -------
    Report
        A read-only mapping of every number (``r["brier_skill"]``); ``print(r)`` shows them.

    Notes
    -----
    - ``predict_proba``: the full classification report (:func:`metrics.classification_report`).
    - ``decision_function`` only: ranking metrics from the scores and threshold metrics from
      ``predict`` (:func:`metrics.ranking_report`); log loss, Brier and calibration are NaN.
    - ``predict`` only (a 0/1 rule): threshold metrics, and for binary problems ranking
      metrics of the rule's decision (flagged rows first, ties shared). No probabilities: NaN
      log loss and calibration, shown as "n/a".
    - Regressors: :func:`metrics.regression_report`. Quantile regressors (a ``quantiles`` /
      ``quantiles_`` attribute and an (n, K) ``predict``): :func:`quantile_metrics.quantile_report`.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = LogisticRegression(max_iter=5000).fit(X[:400], y[:400])
    >>> r = report(model, X[400:], y[400:], baseline=y[:400])
    >>> r["roc_auc"] > 0.9
    True
    """
    level = None if ci is None else check_level(ci, "ci")
    n_boot = check_positive_int(n_boot, "n_boot")
    n = check_rows(X, y, sample_weight)
    check_sample_weight(sample_weight, n)
    base_est = baseline if hasattr(baseline, "predict") else None
    targets = None if base_est is not None else baseline
    model = _Scored(estimator, X, y, sample_weight, targets, k, "estimator")
    incumbent = None
    if base_est is not None:
        _check_fitted(base_est, "baseline")
        _check_same_task(model, base_est)
        incumbent = _Scored(base_est, X, y, sample_weight, None, k, "baseline",
                            classes=getattr(model, "classes", None))
    model_name, base_name = _names(estimator, baseline, name, baseline_name)
    ci_dict, dropped, vs = None, {}, None
    if incumbent is not None:
        # A status line on a terminal only, and only past 2 s (see _progress): silent in
        # notebooks, pipes, logs and tests.
        with working(f"report: {n_boot:,} paired resamples"):
            paired = resampling.paired_bootstrap(model.evaluator, incumbent.evaluator, n_boot,
                                                 random_state=random_state)
        vs = _differences(model.point, incumbent.point, paired, level or 0.95)
        if level is not None:
            ci_dict, dropped = _intervals(paired.model, model.point, level)
    elif level is not None:
        with working(f"report: {n_boot:,} resamples"):
            boot = resampling.bootstrap(model.evaluator, n_boot, random_state=random_state)
        ci_dict, dropped = _intervals(boot, model.point, level)
    base_report, delong = None, None
    if incumbent is not None:
        base_report = Report(incumbent.point, base_name, incumbent.task, "y")
        delong = _delong(model, incumbent, y, level or 0.95)
    out = Report(model.point, model_name, model.task,
                 "y" if targets is None else base_name or "baseline targets",
                 ci=ci_dict, ci_level=level, n_boot=n_boot, n_dropped=dropped,
                 vs_baseline=vs, baseline_report=base_report, delong_vs_baseline=delong)
    out._scored = getattr(model, "plot_data", None)
    return out


def _delong(model: _Scored, incumbent: _Scored, y, level):
    """DeLong's paired ROC-AUC test, model minus baseline, for two binary rankers."""
    scores = (getattr(model, "binary_score", None), getattr(incumbent, "binary_score", None))
    if any(s is None for s in scores) or np.isnan(model.point.get("roc_auc", np.nan)):
        return None  # not binary rankers, or one class only in y
    return resampling.delong_roc_auc_difference(
        y, scores[0], scores[1], pos_label=model.classes[1], level=level
    )


def _scalar(value) -> bool:
    return np.ndim(value) == 0 and isinstance(value, (float, int, np.floating, np.integer))


def _intervals(boot, point, level):
    ci, dropped = {}, {}
    for key, reps in boot.replicates.items():
        if key in point and _scalar(point[key]) and key not in ("n", "positives"):
            ci[key], dropped[key] = resampling.percentile_interval(reps, level)
    return ci, dropped


def _differences(model_point, base_point, paired, level) -> dict:
    out = {}
    for key, reps in paired.replicates.items():
        if key in ABOUT_THE_ROWS or not _scalar(model_point.get(key)):
            continue
        diff = float(model_point[key]) - float(base_point[key])
        if math.isnan(diff):
            continue
        lo, hi = resampling.percentile_interval(reps, level)[0]
        out[key] = (diff, lo, hi)
    return out


# --------------------------------------------------------------------------- the result


class Report(Mapping):
    """Every number of one model on one set of rows, read-only, with its reference.

    A mapping from metric names to values (``r["brier_skill"]``, ``dict(r)``); the keys are
    those of :func:`metrics.classification_report` (also for ranking-only models and rules,
    with NaN where the model gives no probabilities), :func:`metrics.regression_report` or
    :func:`quantile_metrics.quantile_report`.

    Attributes
    ----------
    estimator_name : str
    task : {"classification", "ranking", "rule", "regression", "quantile"}
    ci : dict or None
        Metric -> :class:`resampling.ConfidenceInterval` ``(low, high)``, percentile bootstrap
        at level :attr:`ci_level`, when ``ci`` was set.
    n_dropped : dict
        Metric -> replicates left out of its interval because the metric was undefined there.
    vs_baseline : dict or None
        With a fitted baseline: metric -> ``(model - baseline, low, high)``, paired bootstrap.
        Positive favours the model for scores (skills, AUC, accuracy), negative for losses.
    baseline_report : Report or None
        The fitted baseline's own report on the same rows.
    delong_vs_baseline : resampling.DeLongResult or None
        With a fitted baseline and a binary problem: DeLong's paired test of the ROC-AUC
        difference, model minus baseline (``estimate``, ``se``, ``low``, ``high``,
        ``pvalue``), an analytic second opinion next to the bootstrap.
    """

    def __init__(self, values, estimator_name, task, reference_from, *, ci=None,
                 ci_level=None, n_boot=None, n_dropped=None, vs_baseline=None,
                 baseline_report=None, delong_vs_baseline=None):
        self._values = {key: _frozen(v) for key, v in values.items()}
        self.estimator_name, self.task = estimator_name, task
        self._reference_from = reference_from
        self.ci, self.ci_level, self.n_boot = ci, ci_level, n_boot
        self.n_dropped = dict(n_dropped or {})
        self.vs_baseline, self.baseline_report = vs_baseline, baseline_report
        self.delong_vs_baseline = delong_vs_baseline

    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    # ---- text
    def reference(self) -> str:
        """What the model was judged against, in words."""
        v, src = self._values, self._reference_from
        if self.task == "quantile":
            return f"empirical quantiles of {src}"
        if self.task == "regression":
            return f"mean of {src} ({fmt(v['baseline_mean'])})"
        if self.task != "classification":
            return f"rates of y only ({NO_PROBA})"
        prior = np.asarray(v["reference_prior"])
        shown = fmt(prior[1], 3) if prior.size == 2 else rates(prior, v.get("classes"))
        return f"class prior of {src} ({shown})"

    def header(self) -> str:
        """Rows scored, positives and base rate, and the reference."""
        v = self._values
        parts = [self.estimator_name, f"{v['n']:,} rows scored"]
        if "positives" in v and np.ndim(v.get("base_rate")) == 0:
            parts.append(f"{count(v['positives'])} positives (base rate {fmt(v['base_rate'], 3)})")
        elif "base_rate" in v:
            parts.append(f"class rates {rates(v['base_rate'], v.get('classes'))}")
        parts.append(f"judged against: {self.reference()}")
        return " · ".join(parts)

    def headline(self) -> str:
        """The four-number line: the loss, the base rate (and the baseline's prior or mean when
        it is another number), the reference loss and the skill."""
        if self.task == "quantile":
            return quantile_metrics.format_report(self._values).splitlines()[1]
        return report_lines(self._values, header=False)[0]

    def __str__(self) -> str:
        if self.task == "quantile":
            text = quantile_metrics.format_report(self._values, title="Quantile forecast")
        else:
            text = "\n".join(report_lines(self._values, header=False))
        lines = [self.header(), "", text]
        if self.ci:
            lines += ["", *self._ci_lines()]
        if self.vs_baseline is not None:
            lines += ["", *self._vs_lines()]
        return "\n".join(lines)

    def _ci_lines(self) -> list[str]:
        rows, dropped = [], False
        for key, (lo, hi) in self.ci.items():
            if key in ABOUT_THE_ROWS - {"base_rate", "pr_auc_lift"}:
                continue
            if math.isnan(float(self._values[key])):
                continue
            left_out = int(self.n_dropped.get(key) or 0)
            dropped = dropped or left_out > 0
            rows.append([key, self._values[key], lo, hi, left_out])
        columns = [Col("metric", None), Col("value"), Col("low"), Col("high")]
        if dropped:  # the count column only when some resample was left out
            columns.append(Col("left out"))
        else:
            rows = [row[:4] for row in rows]
        out = [f"{percent(self.ci_level)} bootstrap intervals (percentile; {self.n_boot:,} "
               "resamples of the rows)", *table(columns, rows)]
        if dropped:
            why = "y constant" if self.task == "regression" else "a class missing"
            out.append(f"  left out: resamples in which the metric is undefined ({why}); "
                       "the interval is taken over the others")
        return out

    def _vs_table(self):
        """(title, columns, rows, DeLong sentence or None) of the paired comparison, shared by
        the text and the HTML."""
        base = self.baseline_report
        level = self.ci_level or 0.95
        rows = []
        for key, (diff, lo, hi) in self.vs_baseline.items():
            b = base[key] if base is not None else np.nan
            rows.append([key, self._values[key], b, diff, lo, hi, _verdict(key, lo, hi)])
        title = (f"vs baseline {base.estimator_name if base else NA} on the same rows: model "
                 f"minus baseline, paired bootstrap {percent(level)} ({self.n_boot:,} resamples)")
        columns = [Col("metric", None), Col("model"), Col("baseline"),
                   Col("difference", signed=True), Col("low", signed=True),
                   Col("high", signed=True), Col("verdict", None)]
        d, delong = self.delong_vs_baseline, None
        if d is not None:
            delong = (f"DeLong paired test of the ROC-AUC difference: {fmt(d.estimate, signed=True)} "
                      f"(se {fmt(d.se)}, {percent(level)} [{fmt(d.low, signed=True)}, "
                      f"{fmt(d.high, signed=True)}], p = {fmt_p(d.pvalue)})")
        return title, columns, rows, delong

    def _vs_lines(self) -> list[str]:
        title, columns, rows, delong = self._vs_table()
        return [title, *table(columns, rows), *([f"  {delong}"] if delong else [])]

    def __repr__(self) -> str:
        main = "crps_skill" if self.task == "quantile" else (
            "r2" if self.task == "regression" else
            "brier_skill" if self.task == "classification" else "roc_auc")
        return (f"<Report {self.task} of {self.estimator_name}: n={self._values['n']}, "
                f"{main}={fmt(self._values.get(main))}>")

    def _repr_html_(self) -> str:
        """Jupyter: the four-number line as a heading, the header, then tables -- every
        metric with its interval in columns of its own, and the paired comparison."""
        esc = html.escape
        parts = [f"<h4>{esc(self.headline())}</h4>", f"<p>{esc(self.header())}</p>"]
        columns = [Col("metric", None), Col("value")]
        caption = None
        if self.ci:
            columns += [Col("low"), Col("high")]
            caption = (f"{percent(self.ci_level)} bootstrap intervals (percentile; "
                       f"{self.n_boot:,} resamples of the rows)")
        rows = []
        for key, v in self._values.items():
            if not _scalar(v) or key in ("n", "positives"):
                continue
            row = [key, v]
            if self.ci:
                row += list(self.ci.get(key, (np.nan, np.nan)))
            rows.append(row)
        parts.append(html_table(columns, rows, caption=caption))
        if self.vs_baseline is not None:
            title, columns, rows, delong = self._vs_table()
            parts.append(html_table(columns, rows, caption=title))
            if delong:
                parts.append(f"<p>{esc(delong)}</p>")
        return "<div>" + "".join(parts) + "</div>"

    # ---- export
    def to_dict(self) -> dict:
        """Plain Python values (arrays as lists), plus ``ci`` and ``vs_baseline`` if set."""
        out = {key: plain(v) for key, v in self._values.items()}
        if self.ci is not None:
            out["ci"] = {key: (float(lo), float(hi)) for key, (lo, hi) in self.ci.items()}
        if self.vs_baseline is not None:
            out["vs_baseline"] = {key: tuple(map(float, v)) for key, v in self.vs_baseline.items()}
        return out

    def to_frame(self):
        """One row per scalar metric: ``value`` (and ``low``, ``high``; ``baseline``,
        ``difference``, ``diff_low``, ``diff_high`` when set). Needs pandas."""
        pd = import_pandas("Report.to_frame")
        rows = {}
        for key, v in self._values.items():
            if not _scalar(v) or key == "n":
                continue
            row = {"value": float(v)}
            if self.ci is not None and key in self.ci:
                row["low"], row["high"] = self.ci[key]
            if self.vs_baseline is not None and key in self.vs_baseline:
                row["baseline"] = float(self.baseline_report[key])
                row["difference"], row["diff_low"], row["diff_high"] = self.vs_baseline[key]
            rows[key] = row
        return pd.DataFrame.from_dict(rows, orient="index")

    # ---- pictures
    _scored = None  # the scored targets and predictions, kept by report() for plot()

    def plot(self, *, n_boot=200, random_state=None):
        """One figure of the scored rows; returns the list of matplotlib Axes.

        Classification: the CORP reliability diagram with its consistency band (``n_boot``
        resamples, seeded by ``random_state``), and for binary problems the ROC and
        precision-recall curves. Regression: predicted against observed, and the residuals.
        See :mod:`chimeraboost.plotting`. Needs matplotlib
        (``pip install "chimeraboost[plot]"``).
        """
        from ..plotting import plot_report  # plotting draws reports; reports never import it

        return plot_report(self, n_boot=n_boot, random_state=random_state)


def _verdict(key, lo, hi) -> str:
    if math.isnan(lo) or math.isnan(hi):
        return "n/a"
    if lo <= 0 <= hi:
        return "no clear difference"
    model_better = (hi < 0) if is_loss(key) else (lo > 0)
    return "model better" if model_better else "baseline better"


def _frozen(value):
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False
    return value


class ReportMixin:
    """Gives any scikit-learn estimator a ``report(X, y, ...)`` method.

    ``class MyLR(ReportMixin, LogisticRegression): pass`` -- the mixin adds a method and
    nothing else (no ``__init__``, no parameters, no state), so ``get_params``, ``clone``,
    pickling and ``sklearn.utils.estimator_checks`` behave exactly as for the base class.
    """

    def report(self, X, y, *, baseline=None, sample_weight=None, ci=None, n_boot=2000,
               random_state=None, k=None, name=None, baseline_name=None) -> Report:
        """This fitted model's :func:`report` on ``(X, y)``; same arguments."""
        return report(self, X, y, baseline=baseline, sample_weight=sample_weight, ci=ci,
                      n_boot=n_boot, random_state=random_state, k=k, name=name,
                      baseline_name=baseline_name)
