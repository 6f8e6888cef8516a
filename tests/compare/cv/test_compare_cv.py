"""chimeraboost.compare: paired comparisons and the champion/challenger decision.

The tests of the per-fold statistics sit against references: scipy's t-tests in the limit where
the Nadeau-Bengio correction vanishes, scipy's t distribution for the Bayesian posterior,
numbers derived by hand (arithmetic in the comments), the definitional step-down / step-up
procedures for Holm and Benjamini-Hochberg and, when installed, statsmodels.
"""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import KFold, RepeatedStratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from chimeraboost import compare, resampling
from chimeraboost.compare import _compare_cv, _paired_tests
from chimeraboost.exceptions import DegenerateMetricWarning
from chimeraboost import report

TOL = dict(rtol=1e-12, atol=1e-12)
# n_test / n_train = 1e-300 adds nothing to 1/J in float64: the naive paired t-test.
NO_CORRECTION = dict(n_train=1.0, n_test=1e-300)

diff_vectors = st.lists(
    st.floats(-1, 1, allow_nan=False, allow_subnormal=False), min_size=2, max_size=30
).filter(lambda d: np.ptp(d) > 1e-3)
pvalue_vectors = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=25)


@pytest.fixture(autouse=True)
def _one_thread():
    # Numbers, not speed: keep BLAS/OpenMP to one thread on a shared machine.
    with threadpool_limits(1):
        yield


@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True)


def _logreg(C=1.0):
    return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=2000))


# --------------------------------------------------------------------------- corrected t-test


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_corrected_ttest_without_correction_is_scipys_paired_ttest(alternative):
    rng = np.random.default_rng(0)
    a, b = rng.normal(0.8, 0.05, 12), rng.normal(0.78, 0.05, 12)
    ours = compare.corrected_ttest(a - b, alternative=alternative, **NO_CORRECTION)
    for ref in (stats.ttest_1samp(a - b, 0.0, alternative=alternative),
                stats.ttest_rel(a, b, alternative=alternative)):
        np.testing.assert_allclose(ours.statistic, ref.statistic, **TOL)
        np.testing.assert_allclose(ours.pvalue, ref.pvalue, **TOL)
        assert ours.df == ref.df == 11
        np.testing.assert_allclose(ours.confidence_interval(0.9), ref.confidence_interval(0.9),
                                   **TOL)
    np.testing.assert_allclose(ours.mean_difference, np.mean(a - b), **TOL)


def test_corrected_ttest_by_hand():
    # d = [.02, .03, .01, .04, .02]: J = 5, mean 0.024; deviations -.004 .006 -.014 .016 -.004,
    # squares 16 + 36 + 196 + 256 + 16 = 520 (x 1e-6), s^2 = 520e-6 / 4 = 130e-6.
    # Correction 1/5 + 20/80 = 0.45: se = sqrt(0.45 * 130e-6) = sqrt(58.5e-6) = 0.0076485,
    # t = 0.024 / 0.0076485 = 3.1379 on 4 df. Naive: se = sqrt(130e-6 / 5) = 0.0050990, t = 4.7068.
    res = compare.corrected_ttest([0.02, 0.03, 0.01, 0.04, 0.02], n_train=80, n_test=20)
    np.testing.assert_allclose(res.std_error, math.sqrt(58.5e-6), **TOL)
    np.testing.assert_allclose(res.statistic, 0.024 / math.sqrt(58.5e-6), **TOL)
    np.testing.assert_allclose(res.statistic, 3.1378581622, rtol=1e-9)
    np.testing.assert_allclose(res.pvalue, 2 * stats.t.sf(0.024 / math.sqrt(58.5e-6), 4), **TOL)
    assert res.df == 4 and res.n_folds == 5 and res.correction == 0.25
    q = stats.t.ppf(0.975, 4)
    np.testing.assert_allclose(res.confidence_interval(),
                               (0.024 - q * math.sqrt(58.5e-6), 0.024 + q * math.sqrt(58.5e-6)),
                               **TOL)
    naive = compare.corrected_ttest([0.02, 0.03, 0.01, 0.04, 0.02], **NO_CORRECTION)
    np.testing.assert_allclose(naive.statistic, 0.024 / math.sqrt(26e-6), **TOL)
    assert "CorrectedTTestResult(statistic=3.13" in repr(res)


@settings(max_examples=60, deadline=None)
@given(diff_vectors, st.floats(1, 1e5), st.floats(1, 1e5))
def test_corrected_variance_exceeds_naive(d, n_train, n_test):
    corrected = compare.corrected_ttest(d, n_train, n_test)
    naive = compare.corrected_ttest(d, **NO_CORRECTION)
    assert corrected.std_error > naive.std_error
    assert abs(corrected.statistic) <= abs(naive.statistic)
    assert corrected.pvalue >= naive.pvalue - 1e-15
    lo, hi = corrected.confidence_interval(0.95)
    assert lo <= corrected.mean_difference <= hi
    assert (hi - lo) > np.subtract(*naive.confidence_interval(0.95)[::-1])


def test_corrected_ttest_one_sided_interval():
    res = compare.corrected_ttest([0.1, 0.2, 0.15, 0.3], 100, 25, alternative="greater")
    lo, hi = res.confidence_interval(0.9)
    assert hi == math.inf and lo < res.mean_difference
    assert compare.corrected_ttest([0.1, 0.2, 0.15, 0.3], 100, 25,
                                   alternative="less").confidence_interval().low == -math.inf


def test_corrected_ttest_zero_variance():
    # Identical non-zero differences: an infinite t, p 0 towards it; identical zeros: NaN.
    with pytest.warns(DegenerateMetricWarning, match="zero variance"):
        res = compare.corrected_ttest([0.1, 0.1, 0.1], 100, 50)
    assert res.statistic == math.inf and res.pvalue == 0.0 and res.std_error == 0.0
    assert res.confidence_interval() == (0.1, 0.1)
    with pytest.warns(DegenerateMetricWarning):
        assert compare.corrected_ttest([0.1] * 3, 100, 50, alternative="less").pvalue == 1.0
    with pytest.warns(DegenerateMetricWarning):
        res = compare.corrected_ttest([0.0, 0.0], 100, 50)
    assert math.isnan(res.statistic) and math.isnan(res.pvalue)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(diffs=[]), ValueError, "diffs is empty"),
        (dict(diffs=[0.1]), ValueError, "at least 2"),
        (dict(diffs=[0.1, np.nan]), ValueError, "diffs contains 1 NaN"),
        (dict(diffs=[[0.1, 0.2], [0.1, 0.2]]), ValueError, "diffs must be 1-dimensional"),
        (dict(n_train=0), ValueError, "n_train must be a finite number > 0"),
        (dict(n_test=-5), ValueError, "n_test must be a finite number > 0"),
        (dict(n_test="20"), TypeError, "n_test must be a number > 0"),
        (dict(alternative="bigger"), ValueError, "alternative must be one of"),
    ],
)
def test_corrected_ttest_bad_input(kwargs, error, match):
    args = dict(diffs=[0.1, 0.2, 0.3], n_train=80, n_test=20) | kwargs
    with pytest.raises(error, match=match):
        compare.corrected_ttest(**args)


# --------------------------------------------------------------------------- Bayesian t-test


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
def test_bayesian_ttest_against_scipy_t(rope):
    d = np.array([0.02, 0.03, 0.01, 0.04, 0.02, -0.01, 0.05, 0.0, 0.03, 0.02])
    n_train, n_test = 90, 10
    rho = n_test / (n_test + n_train)
    scale = math.sqrt((1 / 10 + rho / (1 - rho)) * np.var(d, ddof=1))
    res = compare.bayesian_ttest(d, n_train, n_test, rope=rope)
    np.testing.assert_allclose(res.p_left, stats.t.cdf(-rope, 9, d.mean(), scale), **TOL)
    np.testing.assert_allclose(res.p_right, 1 - stats.t.cdf(rope, 9, d.mean(), scale), **TOL)
    np.testing.assert_allclose(
        res.p_rope, stats.t.cdf(rope, 9, d.mean(), scale) - stats.t.cdf(-rope, 9, d.mean(), scale),
        **TOL)
    np.testing.assert_allclose(res.scale, scale, **TOL)
    assert res.df == 9 and res.rope == rope
    # The posterior's central interval is the corrected t-test's confidence interval.
    np.testing.assert_allclose(res.credible_interval(0.9),
                               compare.corrected_ttest(d, n_train, n_test).confidence_interval(0.9),
                               **TOL)


def test_bayesian_ttest_by_hand_matches_ttest_at_rope_zero():
    # P(mu > 0) = F_t((0.024 - 0) / 0.0076485; 4 df): the corrected t-test's one-sided p for "less".
    d = [0.02, 0.03, 0.01, 0.04, 0.02]
    res = compare.bayesian_ttest(d, 80, 20, rope=0.0)
    np.testing.assert_allclose(res.p_right, stats.t.cdf(0.024 / math.sqrt(58.5e-6), 4), **TOL)
    np.testing.assert_allclose(res.p_right,
                               compare.corrected_ttest(d, 80, 20, alternative="less").pvalue, **TOL)
    assert "BayesianTTestResult(p_left=" in repr(res)


@settings(max_examples=60, deadline=None)
@given(diff_vectors, st.floats(0, 0.5), st.floats(1, 1e4), st.floats(1, 1e4))
def test_bayesian_ttest_invariants(d, rope, n_train, n_test):
    res = compare.bayesian_ttest(d, n_train, n_test, rope=rope)
    probs = np.array([res.p_left, res.p_rope, res.p_right])
    assert np.all((probs >= 0) & (probs <= 1))
    assert abs(probs.sum() - 1) < 1e-12
    assert compare.bayesian_ttest(d, n_train, n_test, rope=0.0).p_rope == 0.0
    # Moving every difference far to the right (1e7 posterior scales; df may be 1, a Cauchy
    # whose left tail is ~1 / (pi z)) leaves almost nothing on the left or in the rope.
    shifted = compare.bayesian_ttest(np.asarray(d) + 1e7 * (res.scale + rope), n_train, n_test,
                                     rope=rope)
    assert shifted.p_right > 1 - 1e-6
    wider = compare.bayesian_ttest(d, n_train, n_test, rope=rope + 0.1)
    assert wider.p_rope >= res.p_rope


def test_bayesian_ttest_zero_variance_is_a_point_mass():
    with pytest.warns(DegenerateMetricWarning, match="point mass"):
        res = compare.bayesian_ttest([0.02, 0.02, 0.02], 80, 20, rope=0.01)
    assert (res.p_left, res.p_rope, res.p_right) == (0.0, 0.0, 1.0)
    assert res.posterior is None and res.credible_interval() == (0.02, 0.02)
    with pytest.warns(DegenerateMetricWarning):
        res = compare.bayesian_ttest([0.0, 0.0], 80, 20, rope=0.01)
    assert (res.p_left, res.p_rope, res.p_right) == (0.0, 1.0, 0.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(rope=-0.01), ValueError, "rope must be a finite number >= 0"),
        (dict(rope=np.inf), ValueError, "rope must be a finite number >= 0"),
        (dict(rope="0.01"), TypeError, "rope must be a number >= 0"),
        (dict(diffs=[0.3]), ValueError, "at least 2"),
        (dict(n_train=-1), ValueError, "n_train"),
    ],
)
def test_bayesian_ttest_bad_input(kwargs, error, match):
    args = dict(diffs=[0.1, 0.2, 0.3], n_train=80, n_test=20) | kwargs
    with pytest.raises(error, match=match):
        compare.bayesian_ttest(**args)


# --------------------------------------------------------------------------- Holm and BH


def test_holm_and_bh_by_hand():
    # Sorted: 0.005 (#3), 0.01 (#0), 0.03 (#2), 0.04 (#1); m = 4.
    # Holm: 4*.005=.02, 3*.01=.03, 2*.03=.06, 1*.04=.04 -> running max .02 .03 .06 .06.
    # BH: .005*4/1=.02, .01*4/2=.02, .03*4/3=.04, .04*4/4=.04 -> running min from the top.
    p = [0.01, 0.04, 0.03, 0.005]
    h = compare.holm(p, alpha=0.05)
    np.testing.assert_allclose(h.pvalues_adjusted, [0.03, 0.06, 0.06, 0.02], **TOL)
    np.testing.assert_array_equal(h.reject, [True, False, False, True])
    bh = compare.benjamini_hochberg(p, alpha=0.05)
    np.testing.assert_allclose(bh.pvalues_adjusted, [0.02, 0.04, 0.04, 0.02], **TOL)
    np.testing.assert_array_equal(bh.reject, [True, True, True, True])
    adjusted, reject = compare.holm([0.5])  # unpacks; one test is left alone
    assert adjusted.tolist() == [0.5] and reject.tolist() == [False]
    # Capped at 1: 3 * 0.6 = 1.8 -> 1.
    assert compare.holm([0.6, 0.7, 0.9]).pvalues_adjusted.tolist() == [1.0, 1.0, 1.0]


def _holm_step_down(p, alpha):
    # Definition: walk up the sorted p-values, reject while (m - j + 1) p_(j) <= alpha.
    order, m = np.argsort(p, kind="stable"), len(p)
    reject = np.zeros(m, bool)
    for j, i in enumerate(order, start=1):
        if (m - j + 1) * p[i] > alpha:
            break
        reject[i] = True
    return reject


def _bh_step_up(p, alpha):
    # Definition: k = largest j with m p_(j) / j <= alpha; reject the k smallest.
    order, m = np.argsort(p, kind="stable"), len(p)
    ok = [p[i] * m / j <= alpha for j, i in enumerate(order, start=1)]
    k = max((j for j, good in enumerate(ok, start=1) if good), default=0)
    reject = np.zeros(m, bool)
    reject[order[:k]] = True
    return reject


@settings(max_examples=150, deadline=None)
@given(pvalue_vectors, st.sampled_from([0.01, 0.05, 0.1, 0.2]))
def test_multiplicity_against_the_procedures_and_invariants(p, alpha):
    p = np.asarray(p)
    h, bh = compare.holm(p, alpha), compare.benjamini_hochberg(p, alpha)
    np.testing.assert_array_equal(h.reject, _holm_step_down(p, alpha))
    np.testing.assert_array_equal(bh.reject, _bh_step_up(p, alpha))
    bonferroni = np.minimum(1, len(p) * p)
    for adj in (h.pvalues_adjusted, bh.pvalues_adjusted):
        assert np.all(adj >= p - 1e-15) and np.all(adj <= 1)
        # Order preserving: a smaller p-value never gets a larger adjustment.
        order = np.argsort(p, kind="stable")
        assert np.all(np.diff(adj[order]) >= 0)
    assert np.all(bh.pvalues_adjusted <= h.pvalues_adjusted + 1e-15)
    assert np.all(h.pvalues_adjusted <= bonferroni + 1e-15)


def test_multiplicity_against_statsmodels():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(3)
    p = np.concatenate([rng.uniform(0, 0.02, 5), rng.uniform(0, 1, 15)])
    for ours, method in ((compare.holm, "holm"), (compare.benjamini_hochberg, "fdr_bh")):
        reject, adjusted, _, _ = multitest.multipletests(p, alpha=0.05, method=method)
        res = ours(p, alpha=0.05)
        np.testing.assert_allclose(res.pvalues_adjusted, adjusted, **TOL)
        np.testing.assert_array_equal(res.reject, reject)


@pytest.mark.parametrize("func", [compare.holm, compare.benjamini_hochberg])
@pytest.mark.parametrize(
    ("pvalues", "alpha", "error", "match"),
    [
        ([0.1, 1.2], 0.05, ValueError, r"pvalues must lie in \[0, 1\]; got \[1.2\]"),
        ([-0.1], 0.05, ValueError, r"pvalues must lie in \[0, 1\]"),
        ([], 0.05, ValueError, "pvalues is empty"),
        ([0.1, np.nan], 0.05, ValueError, "pvalues contains 1 NaN"),
        ([0.1], 0.0, ValueError, r"alpha=0.0 is outside \(0, 1\)"),
        ([0.1], 1.0, ValueError, r"alpha=1.0 is outside \(0, 1\)"),
        ([0.1], "0.05", TypeError, "alpha must be a float"),
    ],
)
def test_multiplicity_bad_input(func, pvalues, alpha, error, match):
    with pytest.raises(error, match=match):
        func(pvalues, alpha=alpha)


# --------------------------------------------------------------------------- compare_cv


def test_compare_cv_replaces_a_dummy_champion(cancer):
    X, y = cancer
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    res = compare.compare_cv({"prior": DummyClassifier(strategy="prior"), "logreg": _logreg()},
                             X, y, cv=cv)
    assert res.champion == "prior" and res.n_folds == 10 and res.scoring == "brier_skill"
    assert res.decisions == {"logreg": "replace champion"}
    # Same folds, same numbers as scikit-learn's cross_validate on the same splitter.
    for name, est in (("prior", DummyClassifier()), ("logreg", _logreg())):
        ref = cross_validate(est, X, y, scoring="brier_skill", cv=cv)["test_score"]
        np.testing.assert_allclose(res.scores[name], ref, **TOL)
    c = res.challengers["logreg"]
    diffs = res.scores["logreg"] - res.scores["prior"]
    n_train, n_test = 0.8 * len(y), 0.2 * len(y)  # 569 rows: folds of 455/456 and 113/114
    ref = compare.corrected_ttest(diffs, n_train, n_test)
    np.testing.assert_allclose([c.difference, c.pvalue], [diffs.mean(), ref.pvalue], rtol=1e-9)
    np.testing.assert_allclose([res.n_train, res.n_test], [n_train, n_test], **TOL)
    assert c.ci.low > 0 and c.p_challenger_better > 0.95 and c.pvalue_holm == c.pvalue
    text = str(res)
    # Each model's decision: in the table when it fits 120 characters, else below it.
    assert "replace champion" in text and "prior: champion" in text
    assert max(map(len, text.split("\n\nlow/high")[0].splitlines()[2:])) <= 120
    assert "champion" in res.to_text(width=None).splitlines()[4]
    assert "RepeatedStratifiedKFold: 5 folds x 2 repeats" in text


def test_compare_cv_keeps_a_better_champion_and_adjusts_for_challengers(cancer):
    X, y = cancer
    res = compare.compare_cv(
        [_logreg(), DummyClassifier(), _logreg(C=1e-4)], X, y, random_state=1
    )
    assert list(res.scores) == ["Pipeline", "DummyClassifier", "Pipeline_2"]
    for c in res.challengers.values():
        assert c.decision == "keep champion" and c.reason == "champion better"
        assert c.p_champion_better > 0.95
    raw = [c.pvalue for c in res.challengers.values()]
    np.testing.assert_allclose([c.pvalue_holm for c in res.challengers.values()],
                               compare.holm(raw).pvalues_adjusted, **TOL)
    frame = res.to_frame()
    assert list(frame.index) == list(res.scores)
    assert frame.loc["Pipeline", "decision"] == "champion"
    assert math.isnan(frame.loc["Pipeline", "pvalue"])
    assert set(frame.columns) >= {"mean", "sd", "difference", "low", "high", "pvalue_holm",
                                  "p_equivalent", "decision"}
    out = json.loads(json.dumps(res.to_dict()))
    assert out["champion"] == "Pipeline" and len(out["models"]["Pipeline"]["scores"]) == 10


def test_compare_cv_identical_models_are_not_declared_different(cancer):
    X, y = cancer
    # Exactly identical: every difference is 0, a degenerate but legal comparison.
    with pytest.warns(DegenerateMetricWarning, match="zero variance"):
        res = compare.compare_cv({"a": _logreg(), "b": _logreg()}, X, y, random_state=0)
    c = res.challengers["b"]
    assert c.decision == "practically equivalent" and c.p_equivalent == 1.0
    assert math.isnan(c.pvalue) and c.pvalue_holm == 1.0
    # Nearly identical models, other folds: never a replacement.
    res = compare.compare_cv({"a": _logreg(1.0), "b": _logreg(0.9)}, X, y, cv=5,
                             baseline="b")
    assert res.champion == "b" and res.n_folds == 5
    assert res.decisions["a"] in ("practically equivalent", "keep champion")


def test_compare_cv_regressors_default_to_r2():
    X, y = load_diabetes(return_X_y=True)
    res = compare.compare_cv({"mean": DummyRegressor(), "ridge": Ridge(alpha=1.0)}, X, y,
                             random_state=0)
    assert res.scoring == "r2" and "RepeatedKFold" in res.cv
    assert res.decisions == {"ridge": "replace champion"}
    assert "ridge" in repr(res)


@pytest.mark.parametrize(
    ("models", "kwargs", "error", "match"),
    [
        ({"a": DummyClassifier()}, {}, ValueError, "models must hold at least 2 estimators"),
        (DummyClassifier(), {}, TypeError, "models must be a dict"),
        ({"a": DummyClassifier(), "b": "svm"}, {}, TypeError, r"models\['b'\] must be"),
        ({"a": DummyClassifier(), "b": DummyRegressor()}, {}, ValueError, "models mix tasks"),
        (None, dict(baseline="c"), ValueError, "baseline='c' is not one of the models"),
        (None, dict(alpha=1.5), ValueError, "alpha=1.5"),
        (None, dict(rope=-1), ValueError, "rope must be"),
        (None, dict(threshold=1), ValueError, "threshold=1"),
        (None, dict(threshold=0.4), ValueError, "threshold=0.4 must be above 0.5"),
        (None, dict(scoring=["brier_skill", "roc_auc"]), TypeError, "scoring must be one"),
    ],
)
def test_compare_cv_bad_input(cancer, models, kwargs, error, match):
    X, y = cancer
    models = models if models is not None else {"a": DummyClassifier(), "b": DummyClassifier()}
    with pytest.raises(error, match=match):
        compare.compare_cv(models, X, y, **kwargs)


def test_compare_cv_rows_must_match(cancer):
    X, y = cancer
    with pytest.raises(ValueError, match="X has 569 rows but y has 568"):
        compare.compare_cv([DummyClassifier(), _logreg()], X, y[:-1])


# --------------------------------------------------------------------------- compare_holdout


@pytest.fixture(scope="module")
def fitted(cancer):
    X, y = cancer
    with threadpool_limits(1):
        models = (DummyClassifier().fit(X[:400], y[:400]), _logreg().fit(X[:400], y[:400]))
    return models, X[400:], y[400:]


@pytest.mark.slow
def test_compare_holdout_replaces_dummy(fitted):
    (dummy, logreg), X, y = fitted
    res = compare.compare_holdout(dummy, logreg, X, y, n_boot=1000, random_state=0)
    ref = report(logreg, X, y, baseline=dummy, ci=0.95, n_boot=1000, random_state=0)
    assert res.metric == "brier_skill" and res.decision == "replace champion"
    assert (res.difference, *res.ci) == ref.vs_baseline["brier_skill"]
    expected = resampling.delong_roc_auc_difference(
        y, logreg.predict_proba(X)[:, 1], dummy.predict_proba(X)[:, 1])
    assert res.delong == expected and res.delong.estimate > 0.4
    text = str(res)
    assert "decision: replace champion" in text and "DeLong" in text
    assert "replace champion" in repr(res)
    assert json.loads(json.dumps(res.to_dict()))["decision"] == "replace champion"
    # The other way round, the logistic champion stays.
    back = compare.compare_holdout(logreg, dummy, X, y, n_boot=1000, random_state=0)
    assert back.decision == "keep champion" and "champion better" in back.reason
    # ci_method reaches the report that decides.
    pct = compare.compare_holdout(dummy, logreg, X, y, n_boot=1000, random_state=0,
                                  ci_method="percentile")
    ref = report(logreg, X, y, baseline=dummy, ci=0.95, n_boot=1000, random_state=0,
                 ci_method="percentile")
    assert pct.report.ci_method == "percentile"
    assert (pct.difference, *pct.ci) == ref.vs_baseline["brier_skill"]


@pytest.mark.slow
def test_compare_holdout_identical_and_losses(fitted):
    (_, logreg), X, y = fitted
    res = compare.compare_holdout(logreg, logreg, X, y, n_boot=1000, random_state=0)
    assert res.decision == "practically equivalent" and res.difference == 0.0
    # A loss is oriented so that positive favours the challenger.
    (dummy, _), _, _ = fitted
    loss = compare.compare_holdout(dummy, logreg, X, y, metric="log_loss", n_boot=1000,
                                   random_state=0)
    ref = report(logreg, X, y, baseline=dummy, n_boot=1000, random_state=0)
    d, lo, hi = ref.vs_baseline["log_loss"]
    assert (loss.difference, *loss.ci) == (-d, -hi, -lo) and loss.difference > 0


def test_compare_holdout_regressors():
    X, y = load_diabetes(return_X_y=True)
    mean, ridge = DummyRegressor().fit(X[:300], y[:300]), Ridge(1.0).fit(X[:300], y[:300])
    res = compare.compare_holdout(mean, ridge, X[300:], y[300:], n_boot=1000, random_state=0)
    assert res.metric == "r2" and res.delong is None and res.decision == "replace champion"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(metric="rmse"), ValueError, "metric='rmse' is not a number of a classification report"),
        (dict(rope=-0.1), ValueError, "rope must be"),
        (dict(ci=95), ValueError, r"ci=95 is outside \(0, 1\)"),
        (dict(n_boot=0), ValueError, "n_boot must be >= 1"),
    ],
)
def test_compare_holdout_bad_input(fitted, kwargs, error, match):
    (dummy, logreg), X, y = fitted
    with pytest.raises(error, match=match):
        compare.compare_holdout(dummy, logreg, X, y, **kwargs)


def test_compare_holdout_mixed_tasks(fitted):
    (dummy, _), X, y = fitted
    reg = DummyRegressor().fit(X, y)
    with pytest.raises(ValueError, match="champion and challenger solve different tasks"):
        compare.compare_holdout(dummy, reg, X, y)


def test_compare_cv_leaves_out_folds_without_a_score():
    # 4 positives in 40 rows, 10 unstratified folds: most test folds hold one class, where a
    # skill is undefined (NaN); those folds drop out of every comparison, with a warning.
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), np.zeros(40, int)
    y[[0, 1, 15, 30]] = 1
    with pytest.warns(DegenerateMetricWarning) as record:
        res = compare.compare_cv([DummyClassifier(), LogisticRegression()], X, y, cv=KFold(10))
    assert res.n_folds == 3 and res.n_test == 4.0
    assert any("7 of 10 folds" in str(w.message) for w in record)
    with pytest.warns(DegenerateMetricWarning), \
            pytest.raises(ValueError, match="Only 0 of 5 folds have a defined score"):
        # Two folds of positives, three of negatives: every test fold holds one class.
        compare.compare_cv([DummyClassifier(), LogisticRegression()], X,
                           np.repeat([1, 0], [16, 24]), cv=KFold(5))


def test_docstring_examples():
    import doctest

    for module in (_compare_cv, _paired_tests):
        failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert tried >= 1 and failures == 0


def test_compare_holdout_ranking_only_models(fitted, cancer):
    # No predict_proba: the decision is taken on the ROC-AUC, DeLong still applies.
    from sklearn.svm import LinearSVC

    X, y = cancer
    (_, logreg), X_te, y_te = fitted
    weak = make_pipeline(StandardScaler(), LinearSVC(C=1e-4)).fit(X[:400], y[:400])
    svm = make_pipeline(StandardScaler(), LinearSVC()).fit(X[:400], y[:400])
    res = compare.compare_holdout(weak, svm, X_te, y_te, n_boot=1000, random_state=0)
    assert res.metric == "roc_auc" and res.delong is not None
    expected = resampling.delong_roc_auc_difference(
        y_te, svm.decision_function(X_te), weak.decision_function(X_te))
    assert res.delong == expected
    np.testing.assert_allclose(res.delong.estimate, res.difference, **TOL)


def test_compare_holdout_sample_weight(fitted):
    (dummy, logreg), X, y = fitted
    w = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    res = compare.compare_holdout(dummy, logreg, X, y, sample_weight=w, n_boot=1000,
                                  random_state=0)
    ref = report(logreg, X, y, baseline=dummy, sample_weight=w, ci=0.95, n_boot=1000,
                 random_state=0)
    assert (res.difference, *res.ci) == ref.vs_baseline["brier_skill"]
    with pytest.raises(ValueError, match="sample_weight contains negative values"):
        compare.compare_holdout(dummy, logreg, X, y, sample_weight=-w)
