"""How good is this fitted model on these rows, against a stated reference, and how sure is it?

:func:`report` scores the model (and a fitted baseline) with ``_scoring``, resamples it with
:mod:`chimeraboost.resampling` for the intervals and the paired differences, adds DeLong's
paired ROC-AUC test, and hands the numbers to :class:`Report`.
"""

from __future__ import annotations

import copy
import math
import warnings

import numpy as np

from .. import decisions, metrics, resampling
from .._shared.draws import calibration_draws
from .._shared.facts import ABOUT_THE_ROWS, HEADLINE
from .._shared.estimator_outputs import rung_note
from ..exceptions import FewResamplesWarning
from .._shared.progress import working
from .._shared.units import resampled, time_span
from .._shared.validation import (
    check_level,
    check_n_jobs,
    check_positive_int,
    check_rows,
    check_sample_weight,
)
from ..slices import slice_report
from ._naming import _names
from ._result import Report, _scalar
from ._scoring import _check_fitted, _check_same_task, _Scored

__all__ = ["report"]

def report(estimator, X, y, *, baseline=None, sample_weight=None, ci=None, n_boot=2000,
           random_state=None, k=None, name=None, baseline_name=None, threshold=None,
           costs=None, by=None, bins=5, min_rows=30, min_events=10, adjust="holm",
           n_jobs=None, ci_method=resampling.DEFAULT_CI_METHOD, groups=None,
           time=None) -> Report:
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
        Confidence level of the bootstrap intervals in :attr:`Report.ci` (0.95 = 95%).
        None: no intervals (except for the comparison with a fitted baseline).
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
    by : column name, list of column names, array-like or dict, default=None
        Also the report per slice (:attr:`Report.slices`, printed below the report): a
        column of ``X`` (numeric columns cut into ``bins`` quantile ranges), a list of them
        (crossed), one label per row, or a dict name -> boolean mask. Each slice is judged
        against its own base rate, with intervals at level ``ci`` (0.95 when None), compared
        with the rest of the rows (and with a fitted ``baseline``) and given a verdict
        adjusted for the number of slices; see :func:`chimeraboost.slices.slice_report`.
    bins, min_rows, min_events, adjust : default=5, 30, 10, "holm"
        With ``by``: as in :func:`chimeraboost.slices.slice_report`.
    threshold : float in (0, 1), default=None
        Binary classifiers with probabilities, and 0/1 rules: add a decision section
        (:attr:`Report.decision`, a :class:`chimeraboost.decisions.DecisionReport`) -- the
        action "treat the rows whose probability is >= threshold" against treat-all,
        treat-none and a fitted baseline, by net benefit (and expected cost with ``costs``),
        every number with a bootstrap interval at level ``ci`` (0.95 when None) and every
        difference paired.
    costs : 2x2 array-like or dict, default=None
        What each outcome costs per row, ``[[c_tn, c_fp], [c_fn, c_tp]]`` or
        ``{"fp": 1, "fn": 5}`` (see :func:`chimeraboost.decisions.expected_cost`); adds the
        expected cost to the decision section. Without ``threshold`` the threshold is the
        Bayes threshold of the costs, ``(c_fp - c_tn) / ((c_fp - c_tn) + (c_fn - c_tp))``.
    n_jobs : int, default=None
        Workers for the bootstrap of the intervals (and of the paired comparison): None or
        1 for one, -1 for every CPU; forked processes on Linux (with no other
        thread running), threads otherwise (see
        :func:`chimeraboost.resampling.bootstrap`). The intervals are the same whatever
        ``n_jobs``. The jackknife behind the intervals and the calibration test's isotonic
        fits run on the same workers (their random numbers drawn on the calling thread); the
        decision section and the slices run on the calling thread.
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        How every interval, the paired differences' included, is read off the resamples
        (:func:`resampling.bootstrap_interval`). The default, the bias-corrected and
        accelerated interval widened for the rows' effective number (few events, heavy
        tails), is the one that kept its level on 200 rows with 10 events in
        ``benchmarks/coverage.py``; intervals that no method can make trustworthy (fewer
        than 4 rows in the rarest class) come with a
        :class:`~chimeraboost.exceptions.NarrowIntervalWarning`. Not read this way: the
        calibration test's interval (outcome draws) and the per-slice intervals of ``by``
        (percentile intervals, and said so).
    groups : array-like of shape (n,) or column name of X, default=None
        The unit each row belongs to when a unit has several rows (a customer's monthly
        snapshots, a patient's visits: the array passed to scikit-learn's ``GroupKFold``).
        Every interval, p-value and verdict then resamples whole groups, the jackknife behind
        BCa leaves out whole groups, and the expanded intervals' degrees of freedom count
        groups, not rows. A column name is looked up in ``X``; ``X`` still goes to the
        estimator whole. The report then says how much the dependence costs: the design
        effect of the headline metric (its variance over what it would be if the rows were
        independent) and the effective number of rows. Sample weights still weigh rows
        inside a group; the group is what is resampled.
    time : array-like of shape (n,) or column name of X, default=None
        The date (or any sortable value) of each row, for time-ordered rows such as a
        holdout made of the latest months: blocks of consecutive time points are resampled
        (a stationary bootstrap whose mean block length is chosen from the headline metric's
        per-row losses, Politis & White 2004), and the header gives the date range. With
        ``groups`` too, whole groups are resampled and ``time`` only dates the rows.

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
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[:400], y[:400])
    >>> r = report(model, X[400:], y[400:], baseline=y[:400])
    >>> r["roc_auc"] > 0.9
    True
    """
    level = None if ci is None else check_level(ci, "ci")
    n_boot = check_positive_int(n_boot, "n_boot")
    ci_method = resampling.check_ci_method(ci_method)
    n_jobs = check_n_jobs(n_jobs)
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
    # One resampling scheme for every resampled number of the report: the paired or single
    # bootstrap, the calibration tests, the decision section, the slices.
    # The decision section and the slices draw from the caller's random_state as it was at
    # this call, so that each equals its own function called with the same random_state
    # (decision_report, slice_report), whatever the report resampled before them.
    sections_seed = copy.deepcopy(random_state)
    scheme = resampling.Resampler.for_evaluator(
        model.evaluator, n_boot=n_boot, random_state=random_state, ci_method=ci_method,
        n_jobs=n_jobs, groups=groups, time=time, X=X)
    # The slices first, so that a bad by= is said before any resampling; a generator is
    # copied for them, so that the report's own resamples are those it has without by=.
    per_slice = None if by is None else _slices(
        model, incumbent, X, y, sample_weight, targets, by,
        dict(bins=bins, min_rows=min_rows, min_events=min_events, adjust=adjust,
             ci=level or 0.95, n_boot=n_boot, random_state=copy.deepcopy(sections_seed),
             groups=groups, time=time, ci_method=ci_method,
             name=model_name, baseline_name=base_name,
             reference_name=base_name or "baseline targets"))
    ci_dict, dropped, vs, tests, boot = None, {}, None, (None,), None
    if incumbent is not None:
        # A status line on a terminal only, and only past 2 s (see _progress): silent in
        # notebooks, pipes, logs and tests.
        with working(f"report: {n_boot:,} paired resamples"):
            model_boot, base_boot = scheme.bootstrap([model.evaluator, incumbent.evaluator])
            paired = resampling.PairedBootstrapResult(model_boot, base_boot)
        tests = _calibration_tests((model, incumbent), scheme)
        vs = _differences(model.point, incumbent.point, paired, level or 0.95)
        _calibration_difference(vs, tests, paired, level or 0.95)
        boot = paired.model
        if level is not None:
            ci_dict, dropped = _intervals(paired.model, model.point, level)
    elif level is not None:
        with working(f"report: {n_boot:,} resamples"):
            boot = scheme.bootstrap([model.evaluator])[0]
        tests = _calibration_tests((model,), scheme)
        ci_dict, dropped = _intervals(boot, model.point, level)
    if ci_dict is not None and tests[0] is not None:
        # MCB's percentile interval would sit above the population value (the in-sample fit
        # follows noise, and resampled rows add more): the calibration test's interval for
        # the population MCB replaces it, next to its estimate.
        ci_dict.pop("calibration_mcb", None)
        dropped.pop("calibration_mcb", None)
        ci_dict["calibration_excess"] = tests[0].confidence_interval(level=level)
    base_report, delong = None, None
    if incumbent is not None:
        base_report = Report(incumbent.point, base_name, incumbent.task, "y",
                             note=rung_note(base_est))
        delong = _delong(model, incumbent, y, level or 0.95, scheme)
    decision = None
    if threshold is not None or costs is not None:
        decision = _decision(model, incumbent, y, sample_weight, threshold, costs, model_name,
                             base_name, scheme, level or 0.95, copy.deepcopy(sections_seed))
    out = Report(model.point, model_name, model.task,
                 "y" if targets is None else base_name or "baseline targets",
                 ci=ci_dict, ci_level=level, n_boot=n_boot, n_dropped=dropped,
                 vs_baseline=vs, baseline_report=base_report, delong_vs_baseline=delong,
                 decision=decision, ci_method=ci_method,
                 dependence=_dependence(scheme, boot, model), note=rung_note(estimator))
    out._scored = getattr(model, "plot_data", None)
    out._units = scheme.unit_params()  # Report.plot's bands resample what the report did
    out.slices = per_slice
    return out


def _decision(model: _Scored, incumbent, y, w, threshold, costs, name, base_name, scheme, level,
              seed):
    """The decision section: the model's action (and the baseline's) against treat-all and
    treat-none, from :func:`chimeraboost.decisions.decision_report` on the report's resampling
    units with the caller's ``random_state`` (``seed``)."""
    for scored, arg in ((model, "estimator"), (incumbent, "baseline")):
        if scored is None:
            continue
        if scored.task not in ("classification", "rule") or len(scored.classes) != 2:
            what = ("decision_function scores, not probabilities (calibrate it first: "
                    "sklearn.calibration.CalibratedClassifierCV)" if scored.task == "ranking"
                    else "scores that only rank the rows, not probabilities"
                    if scored.task == "scores"
                    else f"a {scored.task} model" if scored.task in ("regression", "quantile")
                    else f"{len(scored.classes)} classes")
            shown = (name if arg == "estimator" else base_name) or scored.name
            msg = (f"threshold= and costs= act on the probability of the positive class of a "
                   f"binary classifier (or a 0/1 rule); the {arg} {shown} gives {what}.")
            raise ValueError(msg)
    with working(f"report: {scheme.n_boot:,} resamples of the decision"):
        return decisions.decision_report(
            y, model.binary_score,
            baseline_proba=None if incumbent is None else incumbent.binary_score,
            threshold=threshold, costs=costs, pos_label=model.classes[1], sample_weight=w,
            name=name, baseline_name=base_name or "baseline", level=level,
            **{**scheme.as_params(), "random_state": seed})


def _slices(model: _Scored, incumbent, X, y, sample_weight, targets, by, options):
    """The report per slice of ``by`` (:func:`chimeraboost.slices.slice_report`) on the
    outputs already computed."""
    if model.output is None:
        msg = (f"by= slices classifiers and regressors; {model.name} predicts quantiles. "
               "Score each slice's rows with report() instead.")
        raise ValueError(msg)
    base = {} if incumbent is None else incumbent.output
    return slice_report(y, model.output["pred"], by, X=X, task=model.task,
                        classes=getattr(model, "classes", None),
                        y_pred=model.output.get("y_pred"), sample_weight=sample_weight,
                        baseline=base.get("pred"),
                        baseline_task=None if incumbent is None else incumbent.task,
                        baseline_y_pred=base.get("y_pred"), reference=targets, **options)


def _calibration_tests(scored, scheme):
    """The calibration test of every model with probabilities (None for the others); its
    noise floor, excess and p-value join the model's numbers. Two models' tests share their
    outcome draws (common random numbers), so that two identical forecasts get identical
    tests and a difference of exactly 0."""
    draws = calibration_draws(scheme.n_boot)
    # One model: the scheme's generator itself, as before; two: one seed for both.
    seed = scheme.rng if len(scored) == 1 else int(scheme.rng.integers(0, 2**63 - 1))
    units = scheme.unit_params()
    out = []
    for s in scored:
        if s.task != "classification":
            out.append(None)
            continue
        d = s.plot_data
        with working(f"report: calibration test, {draws:,} draws"), \
                warnings.catch_warnings():
            # Fewer than 1,000 resamples were warned of once, by the report's bootstrap.
            warnings.simplefilter("ignore", FewResamplesWarning)
            test = metrics.calibration_test(d["y"], d["proba"], d["classes"],
                                            sample_weight=d["sample_weight"], n_boot=draws,
                                            random_state=seed, n_jobs=scheme.n_jobs,
                                            **units)
        s.point.update(calibration_noise_floor=test.noise_floor,
                       calibration_excess=test.excess, calibration_pvalue=test.pvalue,
                       recalibration_intercept=test.recalibration_intercept,
                       recalibration_slope=test.recalibration_slope,
                       recalibration_pvalue=test.recalibration_pvalue)
        out.append(test)
    return out


def _calibration_difference(vs, tests, paired, level):
    """Paired difference of the population MCBs, model minus baseline: the difference of the
    two estimates, with the spread of the paired bootstrap's MCB differences around their own
    mean, reflected (the resampled rows inflate both MCBs, so the raw percentiles are
    shifted; the spread is not), read by the report's ``ci_method``. Replaces the in-sample
    MCB's row."""
    vs.pop("calibration_mcb", None)
    reps = paired.replicates.get("calibration_mcb")
    if tests[0] is None or tests[1] is None or reps is None:
        return
    diff = tests[0].excess - tests[1].excess
    reps = np.asarray(reps, dtype=float)
    ok = ~np.isnan(reps)
    if math.isnan(diff) or not ok.any():
        return
    centre = reps[ok].mean()
    jack = None if paired.jackknife is None else paired.jackknife.get("calibration_mcb")
    lo, hi = resampling.bootstrap_interval(
        diff - (reps[ok] - centre), diff, level=level,
        method=paired.ci_method if jack is not None else "percentile",
        jackknife=None if jack is None else -np.asarray(jack, dtype=float),
        n_rows=paired.n_rows, events=paired.events)
    vs["calibration_excess"] = (diff, lo, hi)


def _dependence(scheme, boot, model):
    """With ``groups=`` / ``time=``: what was resampled and what the dependence costs the
    headline metric (its design effect and the rows' effective number); None otherwise."""
    if scheme.kind == "rows":
        return None
    units = scheme.units
    key = HEADLINE.get(model.task, "roc_auc")
    deff = np.nan if boot is None else boot.design_effect(key)
    rows = int(model.point.get("n", units.n))
    return {"units": units.kind, "n_units": int(units.n_units), "metric": key,
            "resampled": resampled(units), "time_span": time_span(units),
            "design_effect": float(deff),
            "effective_rows": float(rows / deff) if deff and np.isfinite(deff) else np.nan,
            "block_length": units.block_length, "time_range": units.time_range}


def _delong(model: _Scored, incumbent: _Scored, y, level, scheme):
    """DeLong's paired ROC-AUC test, model minus baseline, for two binary rankers (with
    ``groups=``, Obuchowski's clustered variance; with ``time=``, none: it has no form for
    serially dependent rows)."""
    scores = (getattr(model, "binary_score", None), getattr(incumbent, "binary_score", None))
    if any(s is None for s in scores) or np.isnan(model.point.get("roc_auc", np.nan)):
        return None  # not binary rankers, or one class only in y
    if scheme.kind == "time":
        return None
    return resampling.delong_roc_auc_difference(
        y, scores[0], scores[1], pos_label=model.classes[1], level=level,
        groups=scheme.units.codes if scheme.kind == "groups" else None)


def _intervals(boot, point, level):
    keys = [key for key in boot.replicates
            if key in point and _scalar(point[key]) and key not in ("n", "positives")]
    return boot.intervals(level=level, metrics=keys), {key: boot.n_dropped(key) for key in keys}


def _differences(model_point, base_point, paired, level) -> dict:
    diffs = {}
    for key in paired.replicates:
        if key in ABOUT_THE_ROWS or not _scalar(model_point.get(key)):
            continue
        diff = float(model_point[key]) - float(base_point[key])
        if not math.isnan(diff):
            diffs[key] = diff
    ci = paired.intervals(level=level, metrics=list(diffs))
    return {key: (diff, *ci[key]) for key, diff in diffs.items()}
