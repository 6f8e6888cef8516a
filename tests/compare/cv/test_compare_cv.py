"""chimeraboost.compare on cross-validation folds: the per-fold tests and compare_cv.

The tests of the per-fold statistics sit against references: scipy's t-tests in the limit where
the Nadeau-Bengio correction vanishes, scipy's t distribution for the Bayesian posterior and
numbers derived by hand (arithmetic in the comments). Holm and Benjamini-Hochberg, which
compare_cv applies to its challengers, are tested in tests/resampling/test_multiplicity.py.
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

from chimeraboost import compare
from chimeraboost.compare._cv import _compare_cv, _paired_tests
from chimeraboost.exceptions import DegenerateMetricWarning

TOL = dict(rtol=1e-12, atol=1e-12)
# n_test / n_train = 1e-300 adds nothing to 1/J in float64: the naive paired t-test.
NO_CORRECTION = dict(n_train=1.0, n_test=1e-300)

diff_vectors = st.lists(
    st.floats(-1, 1, allow_nan=False, allow_subnormal=False), min_size=2, max_size=30
).filter(lambda d: np.ptp(d) > 1e-3)


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
        np.testing.assert_allclose(ours.confidence_interval(level=0.9),
                                   ref.confidence_interval(0.9), **TOL)
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
    lo, hi = corrected.confidence_interval(level=0.95)
    assert lo <= corrected.mean_difference <= hi
    assert (hi - lo) > np.subtract(*naive.confidence_interval(level=0.95)[::-1])


def test_corrected_ttest_one_sided_interval():
    res = compare.corrected_ttest([0.1, 0.2, 0.15, 0.3], 100, 25, alternative="greater")
    lo, hi = res.confidence_interval(level=0.9)
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
    np.testing.assert_allclose(res.credible_interval(level=0.9),
                               compare.corrected_ttest(d, n_train, n_test).confidence_interval(level=0.9),
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
                             baseline_name="b")
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
        (None, dict(baseline_name="c"), ValueError, "baseline_name='c' is not one of the models"),
        (None, dict(alpha=1.5), ValueError, "alpha=1.5"),
        (None, dict(rope=-1), ValueError, "rope must be"),
        (None, dict(min_posterior=1), ValueError, "min_posterior=1"),
        (None, dict(min_posterior=0.4), ValueError, "min_posterior=0.4 must be above 0.5"),
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
