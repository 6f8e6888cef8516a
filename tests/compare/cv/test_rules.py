"""The decision rules of chimeraboost.compare: rule=, guardrails=, complexity=,
compare_cv_results and one_se_refit.

Each rule is checked on constructed per-fold scores whose right answer is known, with the
arithmetic in the comments; compare_cv_results is fed dicts shaped like
``cross_validate(..., return_indices=True)`` output, and real ones.
"""

import math
import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from chimeraboost import compare

# 5 folds of 100 rows: 80 training / 20 test rows, so n_test / n_train = 1/4.
SPLITS = list(KFold(5).split(np.zeros(100)))
INDICES = {"train": [tr for tr, _ in SPLITS], "test": [te for _, te in SPLITS]}
NOISE = np.array([0.001, -0.001, 0.0005, -0.0005, 0.0])


@pytest.fixture(autouse=True)
def _one_thread():
    with threadpool_limits(1):
        yield


def _results(**scores):
    """``{name: cross_validate-like dict}``; a value is test_score or a dict of test_* keys."""
    out = {}
    for name, s in scores.items():
        keys = s if isinstance(s, dict) else {"score": s}
        out[name] = {**{f"test_{k}": np.asarray(v, dtype=float) for k, v in keys.items()},
                     "indices": INDICES}
    return out


def _logreg(C=1.0):
    return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=2000))


# --------------------------------------------------------------------------- the rules


def test_challenger_better_by_less_than_the_rope_never_replaces():
    base = np.array([0.80, 0.82, 0.78, 0.81, 0.79])
    # d = 0.004 + noise: mean 0.004 < rope 0.01; s^2 = (1 + 1 + .25 + .25 + 0)e-6 / 4 = .625e-6,
    # se = sqrt((1/5 + 20/80) * .625e-6) = 0.00053: the rope edge is 11 se away.
    res = compare.compare_cv_results(_results(champ=base, chall=base + 0.004 + NOISE))
    assert res.decisions == {"chall": "practically equivalent"}
    assert res.chosen == "champ"
    assert res.reason.startswith("no challenger beats the champion champ by more than the "
                                 "rope 0.01")
    # best_mean takes the higher mean however small the difference.
    assert compare.compare_cv_results(_results(champ=base, chall=base + 0.004 + NOISE),
                                      rule="best_mean").chosen == "chall"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-0.05, 0.05), min_size=5, max_size=5),
       st.floats(0.0, 1.0), st.floats(0.001, 0.1))
def test_a_mean_difference_inside_the_rope_never_replaces(noise, where, rope):
    # The posterior is symmetric about mean(d) <= rope, so P(d > rope) <= 1/2 < threshold.
    noise = np.asarray(noise) - np.mean(noise)
    assume(np.ptp(noise) > 1e-6)  # constant differences: a point mass, tested in test_compare
    base = np.array([0.80, 0.82, 0.78, 0.81, 0.79])
    chall = base + where * rope + noise
    res = compare.compare_cv_results(_results(champ=base, chall=chall), rope=rope)
    assert res.challengers["chall"].decision != "replace champion"
    assert res.chosen == "champ"


def test_champion_challenger_promotes_the_largest_clear_difference():
    base = np.array([0.70, 0.72, 0.68, 0.71, 0.69])
    res = compare.compare_cv_results(_results(champ=base, small=base + 0.05 + NOISE,
                                              large=base + 0.10 + NOISE))
    assert res.decisions == {"small": "replace champion", "large": "replace champion"}
    assert res.chosen == "large"
    assert "large beats the champion champ by +0.1000 score" in res.reason
    assert "the largest difference of the 2 that replace it" in res.reason


@pytest.mark.parametrize("rule", ["champion_challenger", "best_mean"])
@pytest.mark.parametrize("bits", [1, -1])
def test_challengers_equal_to_rounding_are_a_tie_the_first_given_wins(rule, bits):
    # Two challengers that are one model fitted alike differ in their last bits, which favour
    # one or the other depending on the machine: either way the first given is chosen.
    base = np.array([0.70, 0.72, 0.68, 0.71, 0.69])
    same = base + 0.10 + NOISE
    res = compare.compare_cv_results(_results(champ=base, first=same,
                                              second=same * (1 + bits * 4e-16)), rule=rule)
    assert res.chosen == "first"
    # A real difference still wins whatever the order.
    res = compare.compare_cv_results(_results(champ=base, first=same, second=same + 1e-6),
                                     rule=rule)
    assert res.chosen == "second"


def test_simplest_within_noise_picks_the_simpler_of_two_models_within_noise():
    best = np.array([0.80, 0.84, 0.76, 0.82, 0.78])
    # simple - best = -0.005 + spread: mean -0.005, P(best better by > 0.01) well below 0.95.
    simple = best - 0.005 + np.array([0.02, -0.02, 0.01, -0.01, 0.0])
    results = _results(simple=simple, best=best)
    res = compare.compare_cv_results(results, rule="simplest_within_noise")
    assert res.chosen == "simple"
    assert "simple is the simplest model within noise of the best, best" in res.reason
    # The same scores, the other model declared simpler: the best is also the simplest.
    res = compare.compare_cv_results(results, rule="simplest_within_noise",
                                     complexity={"simple": 2, "best": 1})
    assert res.chosen == "best"
    # Clearly worse: 0.05 below in every fold with little spread -> not within noise.
    res = compare.compare_cv_results(_results(simple=best - 0.05 + NOISE, best=best),
                                     rule="simplest_within_noise")
    assert res.chosen == "best"
    assert "every simpler model is worse by more than the rope" in res.reason


def test_simplest_within_noise_threshold_by_hand():
    best = np.array([0.80, 0.84, 0.76, 0.82, 0.78])
    simple = best - 0.02 + np.array([0.01, -0.01, 0.005, -0.005, 0.0])
    # d = best - simple = 0.02 - spread: mean 0.02, s^2 = (1 + 1 + .25 + .25 + 0)e-4 / 4
    # = .625e-4, se = sqrt(0.45 * .625e-4) = 0.0053033; P(mu > 0.01) = t_4.sf(-0.01 / se).
    se = math.sqrt(0.45 * 0.625e-4)
    p = compare.bayesian_ttest(best - simple, 80, 20, rope=0.01).p_right
    assert p == pytest.approx(float(stats.t.sf((0.01 - 0.02) / se, 4)), rel=1e-9)
    assert 0.9 < p < 0.95  # 0.934: within noise at threshold 0.95, not at 0.9
    results = _results(simple=simple, best=best)
    assert compare.compare_cv_results(results, rule="simplest_within_noise").chosen == "simple"
    assert compare.compare_cv_results(results, rule="simplest_within_noise",
                                      min_posterior=0.9).chosen == "best"


def test_one_se_by_hand():
    best = np.array([0.80, 0.82, 0.84, 0.86, 0.88])
    # mean 0.84; deviations -.04 -.02 0 .02 .04, s^2 = (16 + 4 + 0 + 4 + 16)e-4 / 4 = 1e-3,
    # sd 0.031623, se = sd / sqrt(5) = 0.014142: the bar is 0.84 - 0.014142 = 0.825858.
    # Noise of mean 0 keeps the means and keeps differences from being constant.
    results = _results(simplest=best - 0.02 + NOISE, simple=best - 0.01 + NOISE[::-1],
                       best=best)
    res = compare.compare_cv_results(results, rule="one_se")
    # simplest 0.82 < 0.8259 <= simple 0.83: simple is the simplest within one se.
    assert res.chosen == "simple"
    assert "(0.0141 = sd / sqrt(5)) of the best, best (score 0.8400)" in res.reason
    assert compare.compare_cv_results(results, rule="one_se",
                                      complexity=["best", "simple", "simplest"]).chosen == "best"


def test_guardrail_blocks_a_promotion_and_prints_the_loss_with_its_natural_sign():
    base = np.array([0.70, 0.72, 0.68, 0.71, 0.69])
    mcb = np.array([0.010, 0.012, 0.011, 0.013, 0.009])
    results = _results(champ={"score": base, "neg_calibration_mcb": -mcb},
                       chall={"score": base + 0.1 + NOISE,
                              "neg_calibration_mcb": -(mcb + 0.02 + NOISE)})
    free = compare.compare_cv_results(results)
    assert free.chosen == "chall" and free.decisions == {"chall": "replace champion"}
    # MCB 0.02 worse (rope 0.005) with se ~0.0005: P(worse by more than the rope) ~ 1.
    res = compare.compare_cv_results(results, guardrails={"neg_calibration_mcb": 0.005})
    g = res.guardrails["chall"]["neg_calibration_mcb"]
    assert g.blocks and g.p_degrades > 0.999 and g.difference == pytest.approx(-0.02)
    assert res.decisions == {"chall": "keep champion"}
    assert res.challengers["chall"].reason.startswith(
        "guardrail: calibration_mcb worse by more than its rope 0.005")
    assert res.chosen == "champ"
    for rule in ("best_mean", "simplest_within_noise", "one_se"):
        assert compare.compare_cv_results(results, rule=rule, guardrails={
            "neg_calibration_mcb": 0.005}).chosen == "champ"
    # A wide rope lets it through.
    assert compare.compare_cv_results(results, guardrails={
        "neg_calibration_mcb": 0.05}).chosen == "chall"
    text = str(res)
    row = next(line for line in text.splitlines() if line.endswith("blocks"))
    # Natural sign: the challenger's MCB is 0.011 + 0.02 = 0.031, shown positive.
    assert re.split(r"\s{2,}", row) == ["chall", "calibration_mcb", "0.0310", "-0.0200",
                                        "0.0050", "1.0000", "blocks"]
    assert "chosen (champion_challenger): champ -- no challenger" in text


def test_a_loss_scoring_prints_with_its_natural_sign():
    ll = np.array([0.30, 0.32, 0.28, 0.31, 0.29])
    res = compare.compare_cv_results(
        _results(a={"neg_log_loss": -ll}, b={"neg_log_loss": -(ll - 0.1 + NOISE)}))
    assert res.scoring == "neg_log_loss"
    text = str(res)
    assert text.splitlines()[0].startswith("log_loss (a loss, lower is better) on the same 5")
    row = next(line for line in text.splitlines() if line.startswith("a "))
    assert re.split(r"\s{2,}", row)[1] == "0.3000"
    # Differences stay oriented: positive favours the challenger (a lower loss).
    assert res.challengers["b"].difference == pytest.approx(0.1)


# --------------------------------------------------------------------------- compare_cv


def test_compare_cv_with_rules_and_a_guardrail_on_real_models():
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[::2], y[::2]  # 285 rows: fast enough
    models = {"prior": DummyClassifier(), "strong": _logreg(1e-2), "weak": _logreg(1.0)}
    res = compare.compare_cv(models, X, y, cv=KFold(5, shuffle=True, random_state=0),
                             rule="best_mean", guardrails={"neg_log_loss": 0.05})
    assert set(res.guard_scores) == {"neg_log_loss"}
    means = {n: s.mean() for n, s in res.scores.items()}
    assert res.chosen == max(means, key=means.get)
    # The guardrail is computed on the same folds as scikit-learn's cross_validate gives.
    ref = cross_validate(_logreg(1e-2), X, y, scoring="neg_log_loss",
                         cv=KFold(5, shuffle=True, random_state=0))["test_score"]
    np.testing.assert_allclose(res.guard_scores["neg_log_loss"]["strong"], ref, rtol=1e-12)
    assert res.to_dict()["chosen"] == res.chosen
    assert "guardrails on the same folds" in str(res)


def test_compare_cv_gives_every_model_the_same_folds_by_construction():
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:200], y[:200]
    seen = []

    def record(y_true, y_pred):
        seen.append(tuple(np.flatnonzero(y_true)[:10]))
        return float(np.mean(y_true == y_pred))

    # A one-shot iterator of splits: were the folds drawn per model, the second would get none.
    splits = iter(KFold(4, shuffle=True, random_state=0).split(X))
    res = compare.compare_cv({"a": DummyClassifier(), "b": _logreg(), "c": _logreg(0.1)}, X, y,
                             cv=splits, scoring=make_scorer(record))
    assert res.n_folds == 4 and all(len(s) == 4 for s in res.scores.values())
    per_model = [seen[0:4], seen[4:8], seen[8:12]]
    assert per_model[0] == per_model[1] == per_model[2]


def test_compare_cv_results_agrees_with_compare_cv():
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[::2], y[::2]
    cv = KFold(5, shuffle=True, random_state=0)
    models = {"prior": DummyClassifier(), "logreg": _logreg()}
    direct = compare.compare_cv(models, X, y, cv=cv, rule="one_se")
    results = {n: cross_validate(m, X, y, cv=cv, scoring="brier_skill", return_indices=True)
               for n, m in models.items()}
    given = compare.compare_cv_results(results, rule="one_se")
    for name in models:
        np.testing.assert_array_equal(given.scores[name], direct.scores[name])
    assert (given.n_train, given.n_test) == (direct.n_train, direct.n_test) == (228, 57)
    assert given.decisions == direct.decisions and given.chosen == direct.chosen == "logreg"
    assert given.challengers["logreg"].pvalue == direct.challengers["logreg"].pvalue
    # A single-metric run stores test_score; naming its scoring names the printed table.
    assert given.scoring == "score"
    named = compare.compare_cv_results(results, scoring="brier_skill")
    assert named.scoring == "brier_skill" and str(named).startswith("brier_skill on the same 5")
    np.testing.assert_array_equal(named.scores["logreg"], given.scores["logreg"])


def test_compare_cv_results_refuses_different_folds():
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:100], y[:100]
    a = cross_validate(DummyClassifier(), X, y, cv=KFold(5, shuffle=True, random_state=0),
                       return_indices=True)
    b = cross_validate(DummyClassifier(), X, y, cv=KFold(5, shuffle=True, random_state=1),
                       return_indices=True)
    with pytest.raises(ValueError, match=r"fold 0 differs: results\['b'\] and results\['a'\] "
                                         "have different test rows"):
        compare.compare_cv_results({"a": a, "b": b})
    # One fold changed, the others equal: the message names that fold.
    c = {**a, "indices": {"train": list(a["indices"]["train"]),
                          "test": list(a["indices"]["test"])}}
    c["indices"]["train"][3] = c["indices"]["train"][3][1:]
    with pytest.raises(ValueError, match="fold 3 differs.*different training rows"):
        compare.compare_cv_results({"a": a, "c": c})
    d = cross_validate(DummyClassifier(), X, y, cv=KFold(4), return_indices=True)
    with pytest.raises(ValueError, match=r"results\['d'\] has 4 folds but results\['a'\] has 5"):
        compare.compare_cv_results({"a": a, "d": d})


@pytest.mark.parametrize("results, kwargs, error, match", [
    ([1, 2], {}, TypeError, "results must be a dict"),
    ({"a": {"test_score": [1.0]}}, {}, ValueError, "at least 2 models"),
    ({"a": {"test_score": [1.0, 2.0]}, "b": {"test_score": [1.0, 2.0]}}, {}, ValueError,
     r"results\['a'\] has no 'indices': call cross_validate\(\.\.\., return_indices=True\)"),
    (_results(a={"x": [1] * 5, "y": [1] * 5}, b={"x": [1] * 5, "y": [1] * 5}), {}, ValueError,
     "holds several scores.*pass scoring="),
    (_results(a=[1] * 5, b=[1] * 5), {"scoring": "roc_auc", "guardrails": {"r2": 0.1}},
     ValueError, r"has no 'test_r2'"),
    (_results(a=[1] * 5, b=[1] * 5), {"rule": "best"}, ValueError, "rule must be one of"),
    (_results(a=[1] * 5, b=[1] * 5), {"complexity": {"a": 1}}, ValueError,
     r"complexity must rank every model and only them: missing \['b'\]"),
    (_results(a=[1] * 5, b=[1] * 5), {"complexity": ["a"]}, ValueError,
     "complexity must list every model exactly once"),
    (_results(a=[1] * 5, b=[1] * 5), {"complexity": "a"}, TypeError, "complexity must be None"),
    (_results(a=[1] * 5, b=[1] * 5), {"complexity": {"a": "x", "b": 1}}, TypeError,
     r"complexity\['a'\] must be a number"),
    (_results(a=[1] * 5, b=[1] * 5), {"guardrails": ["r2"]}, TypeError,
     "guardrails must be a dict"),
    (_results(a=[1] * 5, b=[1] * 5), {"guardrails": {"r2": -1}}, ValueError,
     r"guardrails\['r2'\] must be a finite number >= 0"),
    (_results(a=[1] * 5, b=[1] * 5), {"scoring": "r2", "guardrails": {"r2": 0.1}}, ValueError,
     "guardrails repeats the primary scoring 'r2'"),
    (_results(a=[1] * 5, b=[1] * 5), {"baseline_name": "c"}, ValueError, "baseline_name='c' is not one"),
])
def test_compare_cv_results_bad_input(results, kwargs, error, match):
    with pytest.raises(error, match=match):
        compare.compare_cv_results(results, **kwargs)


def test_compare_cv_bad_rule_arguments():
    X, y = load_breast_cancer(return_X_y=True)
    models = {"a": DummyClassifier(), "b": DummyClassifier()}
    with pytest.raises(ValueError, match="rule must be one of"):
        compare.compare_cv(models, X, y, rule="simplest")
    with pytest.raises(ValueError, match="guardrails repeats the primary scoring 'brier_skill'"):
        compare.compare_cv(models, X, y, guardrails={"brier_skill": 0.01})


# --------------------------------------------------------------------------- one_se_refit


def _cv_results(split_scores, Cs, key="score"):
    s = np.asarray(split_scores, dtype=float)
    out = {f"split{j}_test_{key}": s[:, j] for j in range(s.shape[1])}
    out[f"mean_test_{key}"] = s.mean(axis=1)
    out["params"] = [{"C": C} for C in Cs]
    return out


def test_one_se_refit_by_hand():
    # Candidates C = 0.01, 0.1, 1 (smaller C: simpler). Means 0.82, 0.83, 0.84; the best
    # (C = 1) has deviations -.04 -.02 0 .02 .04: sd 0.031623 (ddof 1), se 0.014142, bar
    # 0.825858: C = 0.1 (0.83) is in, C = 0.01 (0.82) is out.
    best = np.array([0.80, 0.82, 0.84, 0.86, 0.88])
    cv_results = _cv_results([best - 0.02, best - 0.01, best], [0.01, 0.1, 1.0])
    refit = compare.one_se_refit("score", simplest=("C", "lower"))
    assert refit(cv_results) == 1
    # "higher": a larger C is simpler -- the best itself, C = 1.
    assert compare.one_se_refit("score", simplest=("C", "higher"))(cv_results) == 2
    # A key function; and ddof 0 (scikit-learn's std_test_score) would have given se 0.012649,
    # bar 0.827351: the same choice here, the rule reads the split scores itself.
    assert compare.one_se_refit("score", simplest=lambda p: p["C"])(cv_results) == 1
    assert repr(refit) == "one_se_refit('score', simplest=('C', 'lower'))"
    # Bar 0.8258579: a candidate at mean 0.8258 (C = 0.001) is out, at 0.8259 (C = 0.01) in.
    edge = _cv_results([best - 0.0142, best - 0.0141, best], [0.001, 0.01, 1.0])
    assert refit(edge) == 1


def test_one_se_refit_in_a_multi_metric_grid_search():
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[::2], y[::2]
    search = GridSearchCV(
        _logreg(), {"logisticregression__C": [0.001, 0.01, 0.1, 1.0]}, cv=3,
        scoring={"brier": "brier_skill", "auc": "roc_auc"},
        refit=compare.one_se_refit("brier", simplest=("logisticregression__C", "lower")))
    search.fit(X, y)
    r = search.cv_results_
    s = np.column_stack([r[f"split{j}_test_brier"] for j in range(3)])
    means = s.mean(axis=1)
    best = int(np.argmax(means))
    bar = means[best] - np.std(s[best], ddof=1) / math.sqrt(3)
    expected = min(np.flatnonzero(means >= bar))  # Cs ascend: the first is the simplest
    assert search.best_index_ == expected
    assert search.best_params_ == r["params"][expected]


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(scoring=1, simplest=("C", "lower")), TypeError, "scoring must be the name"),
    (dict(scoring="score", simplest="C"), TypeError, r"simplest must be \(parameter name"),
    (dict(scoring="score", simplest=("C", "smaller")), TypeError, "simplest must be"),
])
def test_one_se_refit_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        compare.one_se_refit(**kwargs)


def test_one_se_refit_bad_cv_results():
    cv_results = _cv_results([[0.8, 0.9], [0.7, 0.8]], [0.1, 1.0], key="auc")
    with pytest.raises(ValueError, match=r"no scores for scoring 'brier'; its scorers are \['auc'\]"):
        compare.one_se_refit("brier", simplest=("C", "lower"))(cv_results)
    with pytest.raises(ValueError, match="simplest names parameter 'alpha'"):
        compare.one_se_refit("auc", simplest=("alpha", "lower"))(cv_results)
    depth = _cv_results([[0.8, 0.9], [0.8, 0.9]], [3, None], key="auc")
    with pytest.raises(TypeError, match=r"candidates \[3, None\] cannot be ordered"):
        compare.one_se_refit("auc", simplest=("C", "lower"))(depth)
    # The key function the message suggests: None (no limit) is the most complex.
    assert compare.one_se_refit("auc", simplest=lambda p: p["C"] or 1000)(depth) == 0


# --------------------------------------------------------------------------- documentation


def _doc_example(heading):
    """The first python block after ``heading`` in docs/compare.md and the text block that
    follows it."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "compare.md").read_text()
    section = doc.split(heading)[1]
    code = re.search(r"```python\n(.*?)\n```", section, flags=re.S)
    shown = re.search(r"```text\n(.*?)\n```", section[code.end():], flags=re.S).group(1)
    return code.group(1), shown


@pytest.mark.parametrize("heading, setup", [
    ("### Choosing a model: `rule=`", "from sklearn.datasets import load_breast_cancer\n"
     "from sklearn.linear_model import LogisticRegression\n"
     "from sklearn.pipeline import make_pipeline\n"
     "from sklearn.preprocessing import StandardScaler\n"
     "from chimeraboost import compare\n"
     "X, y = load_breast_cancer(return_X_y=True)\n"),
    ("## Recipe 3: many data sets", "from sklearn.dummy import DummyClassifier\n"
     "from sklearn.linear_model import LogisticRegression\n"
     "from chimeraboost import compare\n"),
])
def test_docs_examples_show_real_output(heading, setup):
    import contextlib
    import io

    code, shown = _doc_example(heading)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(setup + code, {})  # noqa: S102 - the documentation's own example
    assert out.getvalue().strip() == shown.strip()


# --------------------------------------------------------------------------- hostile input


def test_compare_cv_results_malformed_indices_are_refused():
    good = _results(a=[0.8, 0.7, 0.9, 0.8, 0.75])
    for indices in (None, {"train": INDICES["train"]}):
        bad = {"a": good["a"], "b": {**good["a"], "indices": indices}}
        with pytest.raises(ValueError, match=r"results\['b'\]\['indices'\] must be"):
            compare.compare_cv_results(bad)


def test_compare_cv_results_scores_not_one_per_fold_are_refused():
    r = _results(a=[0.8, 0.7, 0.9, 0.8, 0.75], b=[0.8, 0.7, 0.9, 0.8, 0.75])
    with pytest.raises(ValueError, match=r"results\['b'\]\['test_score'\] has shape \(3,\)"):
        compare.compare_cv_results({**r, "b": {**r["b"], "test_score": np.zeros(3)}})
    with pytest.raises(TypeError, match=r"results\['b'\]\['test_score'\] must hold one number"):
        compare.compare_cv_results({**r, "b": {**r["b"], "test_score": ["x"] * 5}})


def test_compare_cv_results_names_equal_as_strings_are_refused():
    r = _results(a=[0.8, 0.7, 0.9, 0.8, 0.75])["a"]
    with pytest.raises(ValueError, match="names must be distinct as strings"):
        compare.compare_cv_results({1: r, "1": r})


def test_one_se_refit_needs_cv_results_with_two_splits():
    refit = compare.one_se_refit("score", simplest=("C", "lower"))
    with pytest.raises(TypeError, match="expected a search's cv_results_"):
        refit(None)
    with pytest.raises(TypeError, match="without 'params'"):
        refit({"split0_test_score": np.ones(2), "split1_test_score": np.ones(2)})
    with pytest.raises(ValueError, match="has 1 split"):
        refit(_cv_results([[0.5], [0.6]], [1, 2]))


def test_one_se_refit_infinite_split_scores_are_undefined_not_best():
    refit = compare.one_se_refit("score", simplest=("C", "lower"))
    # The infinite candidate would be "best" with a NaN standard error; it is left out.
    assert refit(_cv_results([[np.inf, 0.5, 0.5], [0.6, 0.7, 0.65], [0.7, 0.7, 0.71]],
                             [0.1, 1, 10])) == 2


def test_guardrail_naming_the_primary_by_its_test_key_is_refused():
    r = _results(a={"roc_auc": [0.8, 0.7, 0.9, 0.8, 0.75]}, b={"roc_auc": [0.8, 0.7, 0.9, 0.8, 0.7]})
    with pytest.raises(ValueError, match="guardrails repeats the primary scoring 'test_roc_auc'"):
        compare.compare_cv_results(r, scoring="roc_auc", guardrails={"test_roc_auc": 0.01})
