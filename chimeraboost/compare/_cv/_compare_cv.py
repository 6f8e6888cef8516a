"""Which of these candidate models, cross-validated on the same folds, should replace the champion?

:func:`compare_cv` fits every model on the same materialised folds and
:func:`compare_cv_results` reads folds a user already scored with ``cross_validate``; both
then test each challenger against the champion (corrected t-test, Holm adjustment, Bayesian
correlated t-test), decide, and let ``rule=`` pick a model (the rules and guardrails are in
:mod:`chimeraboost.compare._cv._rules`). The result objects are in
:mod:`chimeraboost.compare._cv._cv_result`. Re-exported by :mod:`chimeraboost.compare`, whose
docstring lists the references.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.metrics import make_scorer
from sklearn.model_selection import (
    RepeatedKFold,
    RepeatedStratifiedKFold,
    check_cv,
    cross_validate,
)

from ..._shared.api import public
from . import _rules
from ._cv_result import ChallengerResult, ComparisonResult
from ...resampling import holm
from ._paired_tests import fold_moments, posterior_from_moments, ttest_from_moments
from ._rules import EQUIVALENT, KEEP, REPLACE
from ..._shared.progress import counting
from ..._shared.validation import (
    as_1d,
    check_baseline_name,
    check_level,
    check_real,
    check_rows,
    estimator_family,
    quantile_levels,
    warn_degenerate,
)
from ... import scorers
from ...metrics import regression_report
from ...quantile_metrics import crps_skill

__all__ = ["compare_cv", "compare_cv_results"]


def _decide_cv(bayes, p_holm, alpha, threshold) -> tuple[str, str]:
    significant = not math.isnan(p_holm) and p_holm < alpha
    if bayes.p_right > threshold and significant:
        return REPLACE, "challenger better"
    if bayes.p_rope > threshold:
        return EQUIVALENT, "difference within rope"
    if bayes.p_left > threshold and significant:
        return KEEP, "champion better"
    return KEEP, "no clear difference"


def _named_models(models) -> dict:
    if isinstance(models, dict):
        named = {str(k): v for k, v in models.items()}
    elif isinstance(models, (list, tuple)):
        named, seen = {}, {}
        for est in models:
            base = type(est).__name__
            seen[base] = seen.get(base, 0) + 1
            named[base if seen[base] == 1 else f"{base}_{seen[base]}"] = est
    else:
        msg = (f"models must be a dict {{name: estimator}} or a list of estimators, got "
               f"{type(models).__name__}.")
        raise TypeError(msg)
    if len(named) < 2:
        msg = (f"models must hold at least 2 estimators (a champion and a challenger), got "
               f"{len(named)}.")
        raise ValueError(msg)
    for name, est in named.items():
        if not hasattr(est, "fit"):
            msg = (f"models[{name!r}] must be a scikit-learn estimator with fit, got "
                   f"{type(est).__name__}.")
            raise TypeError(msg)
    families = {name: estimator_family(est) for name, est in named.items()}
    if len(set(families.values())) > 1:
        msg = (f"models mix tasks {families}; compare classifiers with classifiers, "
               "regressors with regressors.")
        raise ValueError(msg)
    return named


def _cv_splits(cv, X, y, groups, classifier, random_state):
    if cv is None:
        # 5 folds x 2 repeats: 10 paired differences (df 9) for 10 fits per model; the
        # corrected variance factor 1/J + 1/4 = 0.35 is within 0.1 of its limit 0.25.
        kind = RepeatedStratifiedKFold if classifier else RepeatedKFold
        cv = kind(n_splits=5, n_repeats=2, random_state=random_state)
    splitter = check_cv(cv, y, classifier=classifier)
    # Materialised once so that every model sees exactly these folds.
    return list(splitter.split(X, y, groups)), _describe_cv(splitter)


def _describe_cv(splitter) -> str:
    name = type(splitter).__name__
    if hasattr(splitter, "n_repeats"):
        k = splitter.cvargs.get("n_splits", "?") if hasattr(splitter, "cvargs") else "?"
        return f"{name}: {k} folds x {splitter.n_repeats} repeats"
    return name


@public(renamed={"baseline": "baseline_name", "threshold": "min_posterior"})
def compare_cv(models, X, y, *, scoring=None, cv=None, baseline_name=None, groups=None,
               rope=0.01, alpha=0.05, min_posterior=0.95, n_jobs=None, random_state=None,
               rule="champion_challenger", guardrails=None,
               complexity=None, verbose=1) -> ComparisonResult:
    """Cross-validate every model on the same folds and decide champion vs challengers.

    Parameters
    ----------
    models : dict {name: estimator} or list of estimators
        Unfitted scikit-learn estimators, at least two, all classifiers or all regressors. A
        list is named by class (``LogisticRegression``, ``LogisticRegression_2``, ...).
    X, y : array-like
    scoring : str or callable, default=None
        One scoring string (``"brier_skill"``, ``"roc_auc"``, ``"r2"``, ...) or scorer; greater
        must be better, as for every scikit-learn scorer. None: ``"brier_skill"`` for
        classifiers, r2 for regressors -- computed by :func:`chimeraboost.metrics.regression_report`,
        so a fold whose target is constant gets NaN (and is left out, with a warning) instead
        of scikit-learn's 1.0 or 0.0 -- and the CRPS skill for quantile regressors (models
        with ``quantiles``, e.g. ``ChimeraBoostQuantileRegressor``).
    cv : int, splitter or iterable, default=None
        None: ``RepeatedStratifiedKFold(5, 2)`` for classifiers, ``RepeatedKFold(5, 2)`` for
        regressors, seeded with ``random_state``. The splits are drawn once and shared.
    baseline_name : str, default=None
        Name of the champion (the model the others are judged against); None: the first
        model. Formerly ``baseline=``.
    groups : array-like, default=None
        Passed to the splitter (e.g. for ``GroupKFold``).
    rope : float >= 0, default=0.01
        Region of practical equivalence ``[-rope, rope]`` for the Bayesian test, in score units.
    alpha : float in (0, 1), default=0.05
        Significance level of the Holm-adjusted corrected t-test; the reported interval of each
        difference is at level ``1 - alpha``.
    min_posterior : float in (0.5, 1), default=0.95
        Posterior probability the Bayesian test must exceed for a decision. Formerly
        ``threshold=`` (a name that elsewhere means a decision threshold on scores).
    n_jobs : int, default=None
        Passed to ``sklearn.model_selection.cross_validate``.
    random_state : None or int
        Seeds the default splitter.
    rule : {"champion_challenger", "best_mean", "simplest_within_noise", "one_se"}
        How ``result.chosen`` is picked (the per-challenger decisions are always computed):
        see Notes.
    guardrails : dict {scoring name: rope}, default=None
        Extra scorings computed on the same folds (e.g. ``{"neg_calibration_mcb": 0.005}``); a
        model whose guardrail is worse than the champion's by more than its rope (Notes) is
        never promoted or chosen.
    complexity : dict {name: number} or list of names, default=None
        Which models are simpler, for ``"simplest_within_noise"`` and ``"one_se"``: lower
        numbers (or earlier names) are simpler. None: the models as listed, simplest first.
    verbose : int, default=1
        1: while the models are fitted, a progress line (``model 2/3``) on stderr when it is a
        terminal, erased at the end; nothing in pipes, files or notebooks. 0: never.

    Returns
    -------
    ComparisonResult
        ``print(result)`` shows the table; ``result.decisions`` maps challengers to decisions,
        ``result.chosen`` names the model the rule picks and ``result.reason`` says why.

    Notes
    -----
    For each challenger, ``d_j = score_j(challenger) - score_j(champion)`` on fold ``j``, with
    ``n_train``, ``n_test`` the mean fold sizes:

    - ``pvalue``: two-sided :func:`corrected_ttest` of ``d``; ``pvalue_holm``: :func:`holm`
      over all challengers (a NaN p-value -- all ``d_j`` zero -- enters as 1).
    - ``P(champion better)``, ``P(rope)``, ``P(challenger better)``: :func:`bayesian_ttest`.

    The decision rule: **replace champion** if ``P(challenger better) > min_posterior`` and
    ``pvalue_holm < alpha``; else **practically equivalent** if ``P(rope) > min_posterior``; else
    **keep champion** (reason "champion better" if ``P(champion better) > min_posterior`` and
    ``pvalue_holm < alpha``, otherwise "no clear difference"). Replacing needs both tests
    because the Bayesian test alone is not adjusted for several challengers and the t-test
    alone cannot tell "better by a margin that matters" from "better by 0.0001".

    Folds in which any model's score is NaN (e.g. a skill on a single-class fold) are left out
    of every comparison, with a warning.

    ``rule`` picks ``chosen`` (models ordered simplest first, ``b`` the best mean):
    ``"champion_challenger"``: the challenger with the largest difference among those the
    rule above replaces the champion with, else the champion (differences, and ``b``'s mean,
    equal to rounding are ties: the first given wins). ``"best_mean"``: ``b``.
    ``"simplest_within_noise"``: the simplest model ``m`` for which the Bayesian correlated
    t-test of ``score(b) - score(m)`` gives ``P(b better by more than rope) <= min_posterior``.
    ``"one_se"``: the simplest model whose mean is at least ``mean(b) - sd(b) / sqrt(J)`` (ESL
    sec. 7.10). A guardrail blocks a model when the Bayesian correlated t-test of its guardrail
    difference to the champion puts more than ``1 - min_posterior`` on "worse by more than the
    guardrail's rope"; a blocked challenger keeps the champion and is never chosen.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> models = {"prior": DummyClassifier(),
    ...           "logreg": make_pipeline(StandardScaler(), LogisticRegression())}
    >>> compare_cv(models, X, y, random_state=0).decisions
    {'logreg': 'replace champion'}
    """
    named = _named_models(models)
    rule = _rules.check_rule(rule)
    order = _rules.complexity_order(named, complexity)
    classifier = estimator_family(next(iter(named.values()))) == "classifier"
    baseline, rope, alpha, threshold = _check_settings(named, baseline_name, rope, alpha,
                                                       min_posterior)
    if scoring is None:
        quantile = _quantile_models(named)
        scoring = "brier_skill" if classifier else _crps_skill if quantile else _R2_SCORER
    elif not (isinstance(scoring, str) or callable(scoring)):
        msg = f"scoring must be one scoring string or scorer, got {type(scoring).__name__}."
        raise TypeError(msg)
    n = check_rows(X, y)
    if groups is not None and as_1d(groups, "groups").shape[0] != n:
        msg = f"groups has {as_1d(groups, 'groups').shape[0]} rows but X and y have {n}."
        raise ValueError(msg)
    if isinstance(scoring, str) and "@" in scoring:
        # A decision at a threshold ("net_benefit@0.2"): scikit-learn's registry holds fixed
        # names, so the scorer is made for the string (and named by it).
        scoring = scorers.get_scorer(scoring)
    scoring_name = scoring if isinstance(scoring, str) else {
        id(_R2_SCORER): "r2", id(_crps_skill): "crps_skill"}.get(
        id(scoring), getattr(scoring, "name", repr(scoring)))
    guard_ropes = _rules.check_guardrails(guardrails, scoring_name)
    splits, cv_text = _cv_splits(cv, X, y, groups, classifier, random_state)
    # One cross_validate per model on the materialised splits: every score of every model,
    # guardrails included, comes from the same folds.
    guards = {f"guard_{g}": scorers.get_scorer(g) if "@" in g else g for g in guard_ropes}
    runs = {name: cross_validate(est, X, y, scoring={"score": scoring, **guards}, cv=splits,
                                 n_jobs=n_jobs, error_score="raise")
            for name, est in counting(named.items(), len(named),
                                      f"compare_cv: {len(splits)} folds, model", verbose=verbose)}
    scores = {name: np.asarray(r["test_score"], dtype=np.float64) for name, r in runs.items()}
    guard_scores = {g: {name: np.asarray(r[f"test_guard_{g}"], dtype=np.float64)
                        for name, r in runs.items()} for g in guard_ropes}
    n_train = np.array([len(train) for train, _ in splits], dtype=np.float64)
    n_test = np.array([len(test) for _, test in splits], dtype=np.float64)
    return _conclude(scores, guard_scores, n_train, n_test, baseline=baseline, rule=rule,
                     order=order, guard_ropes=guard_ropes, scoring=scoring_name, cv=cv_text,
                     rope=rope, alpha=alpha, threshold=threshold)


@public(renamed={"baseline": "baseline_name", "threshold": "min_posterior"})
def compare_cv_results(results, *, scoring=None, baseline_name=None,
                       rule="champion_challenger", rope=0.01, alpha=0.05, min_posterior=0.95,
                       guardrails=None,
                       complexity=None) -> ComparisonResult:
    """:func:`compare_cv` from cross-validation results a user already has.

    Parameters
    ----------
    results : dict {name: dict}
        ``sklearn.model_selection.cross_validate(..., return_indices=True)`` output of each
        model, all on the same folds (pass one splitter with a fixed ``random_state``, or one
        list of splits, to every call). The champion first, as for :func:`compare_cv`.
    scoring : str, default=None
        Which score decides: ``"roc_auc"`` reads ``test_roc_auc`` (or ``test_score`` of a
        single-metric run). None: ``test_score``, or the only ``test_*`` key.
    baseline_name, rule, rope, alpha, min_posterior, guardrails, complexity
        As for :func:`compare_cv`; guardrails name other ``test_*`` keys of the results.

    Returns
    -------
    ComparisonResult

    Notes
    -----
    The folds are checked, not trusted: a different number of folds, or different training or
    test rows in any fold, is refused with the fold named -- a paired comparison on different
    folds compares the folds, not the models. ``n_train`` and ``n_test`` (the corrections of
    the tests) are the mean fold sizes read from the indices.
    """
    guard_ropes = _rules.check_guardrails(guardrails, scoring)
    scores, guard_scores, n_train, n_test, shown = _rules.scores_from_cv_results(
        results, scoring, guard_ropes)
    rule = _rules.check_rule(rule)
    order = _rules.complexity_order(scores, complexity)
    baseline, rope, alpha, threshold = _check_settings(scores, baseline_name, rope, alpha,
                                                       min_posterior)
    J = len(next(iter(scores.values())))
    return _conclude(scores, guard_scores, n_train, n_test, baseline=baseline, rule=rule,
                     order=order, guard_ropes=guard_ropes, scoring=shown,
                     cv=f"{J} folds of the given cross_validate results", rope=rope,
                     alpha=alpha, threshold=threshold)


def _check_settings(models, baseline, rope, alpha, threshold) -> tuple:
    """The settings compare_cv and compare_cv_results share, checked in one place: the
    champion's name (default: the first model), the rope, alpha and the threshold."""
    rope = check_real(rope, "rope", strictly_positive=False)
    alpha = check_level(alpha, "alpha", example="0.05")
    threshold = check_level(threshold, "min_posterior", example="0.95")
    if threshold <= 0.5:
        # Above one half, at most one of the three posterior probabilities can exceed it.
        msg = (f"min_posterior={threshold!r} must be above 0.5 (e.g. 0.95) for the rule to be "
               f"unique.")
        raise ValueError(msg)
    baseline = check_baseline_name(baseline, models)
    return baseline, rope, alpha, threshold


def _conclude(scores, guard_scores, n_train, n_test, *, baseline, rule, order, guard_ropes,
              scoring, cv, rope, alpha, threshold) -> ComparisonResult:
    """Tests, decisions and the rule's choice from per-fold scores on shared folds
    (``n_train``, ``n_test``: per-fold sizes)."""
    keep = _defined_folds({**scores, **{(g, n): s for g, by in guard_scores.items()
                                        for n, s in by.items()}})
    scores = {name: s[keep] for name, s in scores.items()}
    guard_scores = {g: {n: s[keep] for n, s in by.items()} for g, by in guard_scores.items()}
    n_train, n_test = float(np.mean(n_train[keep])), float(np.mean(n_test[keep]))
    challengers = _challengers(scores, baseline, n_train, n_test, rope, alpha, threshold)
    guards = _rules.guardrail_tests(guard_scores, baseline, n_train, n_test, guard_ropes,
                                    threshold)
    challengers = _rules.block_promotions(challengers, guards, REPLACE, KEEP)
    chosen, reason = _rules.choose(rule, scores, baseline, challengers, guards, order,
                                   scoring=scoring, rope=rope, alpha=alpha, threshold=threshold,
                                   n_train=n_train, n_test=n_test, replace=REPLACE)
    return ComparisonResult(scores, baseline, challengers, scoring=scoring, cv=cv,
                            n_train=n_train, n_test=n_test, rope=rope, alpha=alpha,
                            threshold=threshold, rule=rule, chosen=chosen, reason=reason,
                            guard_scores=guard_scores, guardrails=guards)


def _quantile_models(named: dict) -> bool:
    """True when every model predicts quantiles, all at the same levels; mixing quantile and
    point regressors, or different levels, is refused: their scores are not comparable."""
    levels = {name: quantile_levels(est) for name, est in named.items()}
    kinds = {name: "quantile" if lv is not None else "point" for name, lv in levels.items()}
    if len(set(kinds.values())) > 1:
        msg = (f"models mix quantile and point regressors {kinds}; their default scores (CRPS "
               "skill, r2) are not comparable. Pass scoring= explicitly to compare them.")
        raise ValueError(msg)
    grids = {name: lv.tolist() for name, lv in levels.items() if lv is not None}
    if len({tuple(g) for g in grids.values()}) > 1:
        msg = (f"quantile regressors predict different levels {grids}; a CRPS skill over "
               "different levels compares different questions. Fit them on the same levels.")
        raise ValueError(msg)
    return bool(grids)


def _r2(y, pred, sample_weight=None) -> float:
    """r2 by this library's rule (:func:`chimeraboost.metrics.regression_report`): NaN with a
    warning on a constant fold, where scikit-learn's ``r2_score`` returns 1.0 or 0.0 and a
    comparison would conclude from a number that measures nothing."""
    return regression_report(y, pred, sample_weight=sample_weight)["r2"]


_R2_SCORER = make_scorer(_r2)


def _crps_skill(estimator, X, y, sample_weight=None) -> float:
    """Scorer of quantile regressors (models with ``quantiles``): the CRPS skill of their
    (n, K) grid, :func:`chimeraboost.quantile_metrics.crps_skill`."""
    pred = estimator.predict(X)
    return crps_skill(y, pred, quantile_levels(estimator), sample_weight=sample_weight)


def _defined_folds(scores: dict) -> np.ndarray:
    ok = np.all(np.isfinite(np.vstack(list(scores.values()))), axis=0)
    if ok.sum() < 2:
        msg = (f"Only {int(ok.sum())} of {ok.size} folds have a defined score for every model; "
               "a comparison needs at least 2 (use larger folds or another scoring).")
        raise ValueError(msg)
    if not ok.all():
        warn_degenerate(f"{int((~ok).sum())} of {ok.size} folds have an undefined (NaN) score "
                        "for some model and are left out of the comparison.")
    return ok


def _challengers(scores, champion, n_train, n_test, rope, alpha, threshold) -> dict:
    tests = {}
    for name, s in scores.items():
        if name == champion:
            continue
        J, mean, var, corr = fold_moments(s - scores[champion], n_train, n_test)
        if var == 0:
            warn_degenerate(f"{name} minus {champion} is {mean:g} in every fold (zero variance): "
                            "the t-test is degenerate and the posterior a point mass.")
        tests[name] = (ttest_from_moments(J, mean, var, corr, "two-sided"),
                       posterior_from_moments(J, mean, var, corr, rope))
    raw = np.array([1.0 if math.isnan(t.pvalue) else t.pvalue for t, _ in tests.values()])
    adjusted = holm(raw, alpha=alpha).pvalues_adjusted
    out = {}
    for (name, (tt, bayes)), p_holm in zip(tests.items(), adjusted):
        decision, reason = _decide_cv(bayes, float(p_holm), alpha, threshold)
        out[name] = ChallengerResult(name, tt.mean_difference,
                                     tt.confidence_interval(level=1 - alpha), tt, tt.pvalue,
                                     float(p_holm), bayes, decision, reason)
    return out
