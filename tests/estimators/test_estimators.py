"""Tests for chimeraboost.estimators: scikit-learn compatibility and the invariants we promise."""

import pickle

import numpy as np
import pytest
from scipy.optimize import brute, minimize_scalar
from scipy.stats import chi2
from scipy.special import softmax
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.metrics import log_loss
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from chimeraboost.estimators import _boosting
from chimeraboost.estimators import (
    ChimeraBoostClassifier,
    ChimeraBoostQuantileRegressor,
    ChimeraBoostRegressor,
)

# One OpenMP thread everywhere: idle threads spin on a shared machine (results do not depend
# on it; test_n_threads_does_not_change_results says so).
FAST = dict(quality=1, max_iter=20, random_state=0, n_threads=1)
ONE = dict(n_threads=1)


def _expected_failures(estimator):
    if isinstance(estimator, ChimeraBoostQuantileRegressor):
        return {
            "check_regressors_train": (
                "predict returns an (n, K) quantile grid by design, not the (n,) shape of y."
            ),
            "check_sample_weight_equivalence_on_dense_data": (
                "the engine's weighted pinball-loss leaf values (weighted percentiles) are "
                "not equivalent to repeating rows."
            ),
        }
    return {}


@parametrize_with_checks(
    [ChimeraBoostRegressor(**FAST), ChimeraBoostClassifier(**FAST),
     ChimeraBoostQuantileRegressor(**FAST)],
    expected_failed_checks=_expected_failures,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def clf_data():
    X, y = make_classification(n_samples=600, n_features=6, n_informative=4,
                               flip_y=0.1, random_state=0)
    return X, y


@pytest.fixture(scope="module")
def multi_data():
    X, y = make_classification(n_samples=600, n_features=6, n_informative=4, n_classes=3,
                               random_state=1)
    return X, np.array(["cat", "dog", "eel"])[y]


@pytest.fixture(scope="module")
def reg_data():
    return make_regression(n_samples=500, n_features=5, noise=10.0, random_state=0)


# ------------------------------------------------------------------------------------------
# Invariants


def test_quantiles_never_cross(reg_data):
    X, y = reg_data
    # Tiny trees, few rows and close levels make the separately fitted quantiles cross.
    model = ChimeraBoostQuantileRegressor(quantiles=(0.4, 0.45, 0.5, 0.55), quality=1,
                                          max_iter=30, min_samples_leaf=3,
                                          early_stopping=False, random_state=0, **ONE)
    model.fit(X[:80], y[:80])
    rng = np.random.default_rng(0)
    X_new = rng.normal(scale=3.0, size=(2000, X.shape[1]))
    raw = np.column_stack([e.predict(X_new) for e in model.estimators_[0]])
    assert np.any(np.diff(raw, axis=1) < 0), "setup should produce crossing raw quantiles"
    pred = model.predict(X_new)
    assert pred.shape == (2000, 4)
    assert np.all(np.diff(pred, axis=1) >= 0)
    np.testing.assert_allclose(pred, np.sort(raw, axis=1))


@pytest.mark.parametrize("make", [
    lambda: ChimeraBoostRegressor(n_ensembles=2, **FAST),
    lambda: ChimeraBoostClassifier(n_ensembles=2, **FAST),
    lambda: ChimeraBoostQuantileRegressor(**FAST),
])
def test_pickle_and_clone_round_trip(make, clf_data):
    X, y = clf_data
    model = make().fit(X, y)
    restored = pickle.loads(pickle.dumps(model))
    method = "predict_proba" if hasattr(model, "predict_proba") else "predict"
    np.testing.assert_array_equal(getattr(model, method)(X), getattr(restored, method)(X))
    refit = clone(model).fit(X, y)  # same random_state -> same model
    np.testing.assert_array_equal(getattr(model, method)(X), getattr(refit, method)(X))


@pytest.mark.parametrize("n_ensembles", [1, 3])
def test_last_staged_prediction_equals_predict(n_ensembles, reg_data, multi_data):
    X, y = reg_data
    reg = ChimeraBoostRegressor(n_ensembles=n_ensembles, **FAST).fit(X, y)
    stages = list(reg.staged_predict(X))
    assert len(stages) == reg.n_iter_.max()
    np.testing.assert_allclose(stages[-1], reg.predict(X))
    Xc, yc = multi_data
    clf = ChimeraBoostClassifier(n_ensembles=n_ensembles, **FAST).fit(Xc, yc)
    stages = list(clf.staged_predict_proba(Xc))
    assert len(stages) == clf.n_iter_.max()
    np.testing.assert_allclose(stages[-1], clf.predict_proba(Xc))
    assert not np.allclose(stages[0], stages[-1])


def test_string_labels_kept(multi_data):
    X, y = multi_data
    model = ChimeraBoostClassifier(**FAST).fit(X, y)
    assert model.classes_.tolist() == ["cat", "dog", "eel"]
    pred = model.predict(X)
    assert set(pred) <= {"cat", "dog", "eel"}
    assert np.mean(pred == y) > 0.7
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(model.classes_[proba.argmax(axis=1)], pred)


def _brute_force_temperature(raw, codes):
    # Posterior of log T: held-out log likelihood (summed over rows) and a normal prior.
    def objective(t):
        nll = len(codes) * log_loss(codes, _boosting.scores_to_proba(raw, t[0]),
                                    labels=np.unique(codes))
        return nll + np.log(t[0]) ** 2 / (2 * _boosting.LOG_T_PRIOR_SD**2)

    # A grid over T in [1, 10], then a polish inside the best grid cell.
    grid = brute(objective, [(1.0, 10.0)], Ns=400, finish=None)
    step = (10.0 - 1.0) / 399
    res = minimize_scalar(lambda t: objective([t]), method="bounded",
                          bounds=(max(grid - step, 1.0), grid + step), options={"xatol": 1e-8})
    return res.x


@pytest.mark.slow
@pytest.mark.parametrize("data, significant", [("clf_data", False), ("multi_data", True)])
def test_temperature_is_held_out_posterior_mode_when_it_helps(data, significant, request):
    X, y = request.getfixturevalue(data)
    # The trees alone (no linear rung), not refitted, so that the held-out scores are the
    # engine's.
    model = ChimeraBoostClassifier(quality=2, random_state=0, linear_blend=False,
                                   refit=False, **ONE).fit(X, y)
    held = model.validation_mask_
    assert 0 < held.sum() < len(y)
    raw = model.estimators_[0].decision_function(X[held])
    codes = np.searchsorted(model.classes_, y[held])
    mode = _brute_force_temperature(raw, codes)
    assert mode > 1.05  # the posterior mode departs from 1 on both tables...
    # ...but is kept only where the held-out likelihood ratio against T = 1 is significant at
    # 5% (chi-squared, one degree of freedom).
    labels = np.unique(codes)
    statistic = 2 * len(codes) * (
        log_loss(codes, _boosting.scores_to_proba(raw, 1.0), labels=labels)
        - log_loss(codes, _boosting.scores_to_proba(raw, mode), labels=labels))
    assert bool(statistic >= chi2.ppf(0.95, 1)) is significant
    if significant:
        assert model.temperature_status_ == "fitted"
        assert model.temperature_ == pytest.approx(mode, rel=1e-4)
    else:
        assert model.temperature_status_ == _boosting.TEMPERATURE_NOT_SIGNIFICANT
        assert model.temperature_ == 1.0
    # predict_proba applies exactly that temperature to the raw scores.
    raw_all = model.estimators_[0].decision_function(X)
    np.testing.assert_allclose(model.predict_proba(X),
                               _boosting.scores_to_proba(raw_all, model.temperature_))
    np.testing.assert_allclose(model.decision_function(X) * model.temperature_, raw_all)


def _exact_0_or_1(proba):
    return int(np.sum((proba == 0.0) | (proba == 1.0)))


def test_breast_cancer_temperature_does_not_collapse():
    # Regression test: the held-out split of this fit is separable, and the log-loss-optimal
    # temperature ran to its lower bound (0.02): 78% of test probabilities exactly 0 or 1 and
    # a held-out log loss of 0.986 against 0.128 unscaled.
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import train_test_split

    X, y = load_breast_cancer(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    model = ChimeraBoostClassifier(random_state=0, **ONE).fit(Xtr, ytr)
    raw = ChimeraBoostClassifier(random_state=0, temperature_scaling=False, **ONE).fit(Xtr, ytr)
    assert model.temperature_ >= 1.0
    # Early stopping fires although the held-out loss keeps falling (it used to run all 300).
    assert model.n_iter_[0] < model.params_["max_iter"]
    proba = model.predict_proba(Xte)
    assert _exact_0_or_1(proba) == 0
    assert log_loss(yte, proba) <= 1.02 * log_loss(yte, raw.predict_proba(Xte))
    assert log_loss(yte, proba) < 0.2


@pytest.mark.slow
def test_breast_cancer_no_collapsed_cv_fold():
    # Two of five folds used to collapse (log-loss skill 0.074 and -0.215 beside 0.80-0.95).
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import cross_val_score

    import chimeraboost  # noqa: F401  (registers log_loss_skill)

    X, y = load_breast_cancer(return_X_y=True)
    skill = cross_val_score(ChimeraBoostClassifier(random_state=0, **ONE), X, y,
                            scoring="log_loss_skill")
    assert skill.min() > 0.6


def test_multiclass_separable_temperature_refused():
    from sklearn.datasets import make_blobs

    X, y = make_blobs(n_samples=300, centers=3, n_features=4, random_state=0)
    model = ChimeraBoostClassifier(random_state=0, **ONE).fit(X[:200], y[:200])
    held = model.validation_mask_
    raw = model.estimators_[0].decision_function(X[:200][held])
    assert _boosting.all_correct(raw, y[:200][held])  # the setup: nothing wrong held out
    assert model.temperature_ == 1.0
    assert model.temperature_status_.startswith("refused")
    proba = model.predict_proba(X[200:])
    assert _exact_0_or_1(proba) == 0
    assert log_loss(y[200:], proba) < 0.1


@pytest.mark.parametrize("raw, codes, expected", [
    (np.array([-2.0, 1.0, 3.0]), np.array([0, 1, 1]), True),
    (np.array([-2.0, -1.0, 3.0]), np.array([0, 1, 1]), False),
    (np.array([[2.0, 1.0, 0.0], [0.0, 1.0, 0.5]]), np.array([0, 1]), True),
    (np.array([[2.0, 2.0, 0.0], [0.0, 1.0, 0.5]]), np.array([0, 1]), False),  # a tie
])
def test_all_correct_and_refusal(raw, codes, expected):
    assert _boosting.all_correct(raw, codes) is expected
    t, status = _boosting.fit_temperature(raw, codes)
    if expected:
        assert (t, status) == (1.0, _boosting.TEMPERATURE_SEPARABLE)
    else:
        # Three rows cannot show that a temperature helps.
        assert (t, status) == (1.0, _boosting.TEMPERATURE_NOT_SIGNIFICANT)


def test_temperature_never_sharpens():
    # Underconfident held-out scores (a few errors, tiny margins) would ask for T < 1.
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 2, 400)
    raw = np.where(codes == 1, 0.3, -0.3) * np.where(rng.random(400) < 0.05, -1, 1)
    assert _boosting.log_loss_at(raw, codes, None, 0.2) < _boosting.log_loss_at(
        raw, codes, None, 1.0)
    t, status = _boosting.fit_temperature(raw, codes)
    # The mode sits on the bound T = 1, which no test can prefer to T = 1.
    assert (t, status) == (1.0, _boosting.TEMPERATURE_NOT_SIGNIFICANT)


@pytest.mark.parametrize("raw", [
    np.array([-800.0, -40.0, 0.0, 40.0, 800.0]),
    np.array([[800.0, 0.0, -800.0], [0.0, 40.0, 0.0], [1.0, 2.0, 3.0]]),
])
def test_no_probability_is_exactly_0_or_1(raw):
    proba = _boosting.scores_to_proba(raw)
    assert _exact_0_or_1(proba) == 0
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.all(np.diff(proba[:, -1]) >= 0) if raw.ndim == 1 else True
    assert proba.min() >= np.exp(-_boosting.MAX_LOGIT) / 3


def test_temperature_scaling_off(clf_data):
    X, y = clf_data
    model = ChimeraBoostClassifier(temperature_scaling=False, **FAST).fit(X, y)
    assert model.temperature_ == 1.0
    assert model.temperature_status_ == "off"


def test_multiclass_proba_is_softmax_of_decision(multi_data):
    X, y = multi_data
    model = ChimeraBoostClassifier(**FAST).fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X), softmax(model.decision_function(X),
                                                               axis=1))


def test_explicit_params_override_quality(reg_data):
    X, y = reg_data
    model = ChimeraBoostRegressor(quality=1, learning_rate=0.3, max_leaf_nodes=7,
                                  random_state=0, **ONE).fit(X, y)
    preset = _boosting.QUALITY_PRESETS[1]
    assert model.params_["learning_rate"] == 0.3
    assert model.params_["max_leaf_nodes"] == 7
    assert model.params_["max_iter"] == preset["max_iter"]
    assert model.estimators_[0].learning_rate == 0.3
    assert model.estimators_[0].max_leaf_nodes == 7
    assert model.estimators_[0].max_features == preset["max_features"]
    assert ChimeraBoostRegressor(max_features=0.8, **FAST).fit(X, y).estimators_[0].max_features \
        == 0.8
    default = ChimeraBoostRegressor(quality=5, **ONE).set_params(max_iter=3, early_stopping=False)
    default.fit(X, y)
    assert default.estimators_[0].learning_rate == _boosting.QUALITY_PRESETS[5]["learning_rate"]
    assert default.n_iter_[0] == 3


@pytest.mark.parametrize("n, n_val", [(59, 0), (60, 20), (100, 20), (133, 20), (200, 30)])
def test_small_tables_hold_out_at_least_20_rows(n, n_val):
    # 15% of 100 rows is 15, too few to judge a fit: 20 are held out; below 60 rows, 20 would
    # leave fewer than 40 to learn from, and nothing is held out.
    y = np.arange(n) % 2
    train, val = _boosting.holdout_split(n, 0.15, 0, y)
    assert val.size == n_val and train.size == n - n_val
    assert np.intersect1d(train, val).size == 0
    if n_val:
        assert abs(np.mean(y[val]) - 0.5) <= 0.05  # stratified


def test_members_hold_out_disjoint_rows():
    # Five members, 15% each: while fresh rows last, no row is held out twice, so 75% of the
    # rows are scored out of bag (independent random splits would cover 1 - 0.85**5 = 56%).
    y = np.arange(400) % 3
    fresh = np.ones(400, dtype=bool)
    for seed in range(5):
        train, val = _boosting.holdout_split(400, 0.15, seed, y, fresh)
        assert fresh[val].all()
        fresh[val] = False
    assert np.count_nonzero(~fresh) == 5 * 60


@pytest.mark.parametrize("Model", [ChimeraBoostRegressor, ChimeraBoostClassifier])
def test_refit_uses_every_row_and_the_early_stopping_iterations(Model, reg_data, clf_data):
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    X, y = clf_data if Model is ChimeraBoostClassifier else reg_data
    first = Model(linear_blend=False, refit=False, **ONE, random_state=0).fit(X, y)
    refitted = Model(linear_blend=False, **ONE, random_state=0).fit(X, y)
    assert first.validation_mask_.any()
    # The refitted engine is the engine's own fit on every row, with the iterations up to the
    # best held-out loss (validation_score_[0] is before the first tree; greater is better),
    # and no held-out rows.
    best = int(np.argmax(first.estimators_[0].validation_score_))
    assert 1 <= best < first.n_iter_[0]  # the patience iterations after the best are dropped
    assert refitted.n_iter_[0] == best
    params = first.estimators_[0].get_params()
    params.update(max_iter=best, early_stopping=False)
    Engine = (HistGradientBoostingClassifier if Model is ChimeraBoostClassifier
              else HistGradientBoostingRegressor)
    reference = Engine(**params).fit(X, y)
    method = "decision_function" if Model is ChimeraBoostClassifier else "predict"
    np.testing.assert_allclose(getattr(refitted.estimators_[0], method)(X),
                               getattr(reference, method)(X))
    assert not np.allclose(getattr(first.estimators_[0], method)(X),
                           getattr(reference, method)(X))
    # The temperature was decided on the first fit's held-out rows, before the refit.
    if Model is ChimeraBoostClassifier:
        assert refitted.temperature_ == first.temperature_


def test_early_stopping_stops():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(600, 4)), rng.normal(size=600)  # nothing to learn
    stopped = ChimeraBoostRegressor(quality=1, max_iter=200, random_state=0, **ONE).fit(X, y)
    assert stopped.n_iter_[0] < 60
    assert stopped.estimators_[0].n_iter_ == stopped.n_iter_[0]
    full = ChimeraBoostRegressor(quality=1, max_iter=200, early_stopping=False,
                                 random_state=0, **ONE).fit(X, y)
    assert full.n_iter_[0] == 200
    assert not full.validation_mask_.any()


def test_early_stopping_tolerance_is_relative():
    # Classifier: 0.1% of the no-skill log loss (the prior's entropy); here 3 balanced classes.
    X = np.random.default_rng(0).normal(size=(300, 3))
    y = np.repeat([0, 1, 2], 100)
    clf = ChimeraBoostClassifier(**FAST).fit(X, y)
    assert clf.params_["tol"] == pytest.approx(_boosting.EARLY_STOPPING_REL_TOL * np.log(3))
    # Squared-error regressor: a share of the variance of y, so rescaling y rescales it.
    reg = ChimeraBoostRegressor(**FAST).fit(X, 10.0 * X[:, 0])
    assert reg.params_["tol"] == pytest.approx(
        _boosting.REGRESSION_REL_TOL * np.var(10.0 * X[:, 0]))


@pytest.mark.slow
@pytest.mark.parametrize("Model", [ChimeraBoostRegressor, ChimeraBoostClassifier])
def test_zero_weight_equals_dropping_rows(Model, clf_data):
    X, y = clf_data
    rng = np.random.default_rng(3)
    w = rng.uniform(0.5, 2.0, size=len(y))
    w[rng.random(len(y)) < 0.3] = 0.0
    keep = w > 0
    a = Model(**FAST).fit(X, y, sample_weight=w)
    b = Model(**FAST).fit(X[keep], y[keep], sample_weight=w[keep])
    method = "predict_proba" if hasattr(a, "predict_proba") else "predict"
    np.testing.assert_allclose(getattr(a, method)(X), getattr(b, method)(X))
    assert a.validation_mask_[keep].sum() == b.validation_mask_.sum()
    assert not a.validation_mask_[~keep].any()


def test_sample_weight_changes_the_fit(reg_data):
    X, y = reg_data
    w = np.where(X[:, 0] > 0, 10.0, 0.1)
    a = ChimeraBoostRegressor(**FAST).fit(X, y)
    b = ChimeraBoostRegressor(**FAST).fit(X, y, sample_weight=w)
    assert not np.allclose(a.predict(X), b.predict(X))


# ------------------------------------------------------------------------------------------
# Inputs: pandas, categoricals, missing values


def _categorical_frame(n=600, seed=0):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(seed)
    colour = rng.choice(["red", "green", "blue", "grey"], size=n)
    effect = {"red": 3.0, "green": -2.0, "blue": 0.5, "grey": 0.0}
    x = rng.normal(size=n)
    y = np.array([effect[c] for c in colour]) + 0.5 * x + rng.normal(scale=0.3, size=n)
    frame = pd.DataFrame({"x": x, "colour": pd.Categorical(colour), "noise": rng.normal(size=n)})
    return frame, y


def test_pandas_categorical_detected_and_used():
    frame, y = _categorical_frame()
    model = ChimeraBoostRegressor(**FAST).fit(frame, y)
    assert model.categorical_features_.tolist() == [False, True, False]
    assert model.feature_names_in_.tolist() == ["x", "colour", "noise"]
    assert model.estimators_[0].is_categorical_.tolist() == [False, True, False]
    probe = frame.iloc[:4].copy()
    probe["x"] = 0.0
    probe["noise"] = 0.0
    probe["colour"] = probe["colour"].cat.set_categories(["red", "green", "blue", "grey"])
    probe.loc[:, "colour"] = ["red", "green", "blue", "grey"]
    pred = model.predict(probe)
    assert pred[0] > pred[2] > pred[1]  # red > blue > green, as simulated
    # A category never seen in training goes to the missing branch instead of failing.
    unseen = probe.astype({"colour": object})
    unseen.loc[:, "colour"] = ["purple", None, "red", "green"]
    assert np.all(np.isfinite(model.predict(unseen)))


def test_cat_features_by_name_index_and_dtype_agree():
    frame, y = _categorical_frame()
    by_dtype = ChimeraBoostRegressor(**FAST).fit(frame, y).predict(frame)
    as_text = frame.astype({"colour": str})  # object/str column: detected too
    by_text = ChimeraBoostRegressor(**FAST).fit(as_text, y).predict(as_text)
    as_array = as_text.to_numpy(dtype=object)
    by_index = ChimeraBoostRegressor(**FAST).fit(as_array, y, cat_features=[1]).predict(as_array)
    by_name = ChimeraBoostRegressor(**FAST).fit(as_text, y, cat_features=["colour"])
    np.testing.assert_allclose(by_dtype, by_text)
    np.testing.assert_allclose(by_dtype, by_index)
    np.testing.assert_allclose(by_dtype, by_name.predict(as_text))


def test_categories_matched_by_value_not_pandas_code():
    frame, y = _categorical_frame()
    model = ChimeraBoostRegressor(**FAST).fit(frame, y)
    reordered = frame.copy()
    reordered["colour"] = reordered["colour"].cat.reorder_categories(
        ["grey", "blue", "green", "red"])
    assert not np.array_equal(reordered["colour"].cat.codes, frame["colour"].cat.codes)
    np.testing.assert_array_equal(model.predict(reordered), model.predict(frame))


def test_pandas_nullable_dtypes():
    pd = pytest.importorskip("pandas")
    n = 90
    frame = pd.DataFrame({
        "count": pd.array([1, None, 3] * (n // 3), dtype="Int64"),
        "label": pd.array(["x", None, "y"] * (n // 3), dtype="string"),
        "flag": [True, False, True] * (n // 3),
    })
    model = ChimeraBoostRegressor(**FAST).fit(frame, np.arange(float(n)))
    assert model.categorical_features_.tolist() == [False, True, False]
    assert np.all(np.isfinite(model.predict(frame)))


def test_numeric_column_as_categorical_by_index(reg_data):
    X, y = reg_data
    X = X.copy()
    X[:, 0] = np.round(X[:, 0])
    model = ChimeraBoostRegressor(**FAST).fit(X, y, cat_features=[0])
    assert model.categorical_features_.tolist() == [True] + [False] * 4


def test_missing_values_are_learned():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 3))
    missing = rng.random(600) < 0.3
    y = np.where(missing, 5.0, X[:, 1])
    X[missing, 0] = np.nan
    model = ChimeraBoostRegressor(**FAST).fit(X, y)
    pred = model.predict(X)
    assert np.all(np.isfinite(pred))
    assert np.mean(np.abs(pred[missing] - 5.0)) < 0.5


# ------------------------------------------------------------------------------------------
# Ensembles, losses, quantile grid


def test_n_ensembles_averages_members(reg_data, clf_data):
    X, y = reg_data
    # Trees alone, not refitted on every row: each member keeps its own subsample.
    one = ChimeraBoostRegressor(linear_blend=False, refit=False, **FAST).fit(X, y)
    three = ChimeraBoostRegressor(n_ensembles=3, linear_blend=False, refit=False,
                                  **FAST).fit(X, y)
    assert len(one.estimators_) == 1 and len(three.estimators_) == 3
    assert three.n_iter_.shape == (3,)
    members = np.array([e.predict(X) for e in three.estimators_])
    assert not np.allclose(members[0], members[1])  # different seeds and subsamples
    np.testing.assert_allclose(three.predict(X), members.mean(axis=0))
    Xc, yc = clf_data
    clf = ChimeraBoostClassifier(n_ensembles=3, linear_blend=False, refit=False,
                                 **FAST).fit(Xc, yc)
    raw = np.mean([e.decision_function(Xc) for e in clf.estimators_], axis=0)
    np.testing.assert_allclose(clf.decision_function(Xc) * clf.temperature_, raw)
    # Out-of-bag rows of three different splits cover more of the data than one split.
    assert clf.validation_mask_.sum() > ChimeraBoostClassifier(**FAST).fit(
        Xc, yc).validation_mask_.sum()


@pytest.mark.parametrize("loss", ["RMSE", "MAE", "Quantile", "Poisson", "Gamma"])
def test_losses(loss, reg_data):
    X, y = reg_data
    y = np.exp(y / 200.0) if loss in ("Poisson", "Gamma") else y
    model = ChimeraBoostRegressor(loss=loss, alpha=0.8, **FAST).fit(X, y)
    pred = model.predict(X)
    assert model.score(X, y) > 0.3
    if loss in ("Poisson", "Gamma"):
        assert np.all(pred > 0)
    if loss == "Quantile":
        assert 0.65 < np.mean(y <= pred) < 0.95


def test_quantile_regressor_grid_and_score(reg_data):
    X, y = reg_data
    model = ChimeraBoostQuantileRegressor(quantiles=[0.1, 0.5, 0.9], n_ensembles=2,
                                          **FAST).fit(X, y)
    assert model.quantiles_.tolist() == [0.1, 0.5, 0.9]
    assert model.n_iter_.shape == (2, 3)
    pred = model.predict(X)
    coverage = np.mean((y >= pred[:, 0]) & (y <= pred[:, 2]))
    assert 0.65 < coverage < 0.98
    assert 0 < model.score(X, y) < 1


def test_random_state_reproducible(clf_data):
    X, y = clf_data
    a = ChimeraBoostClassifier(n_ensembles=2, **FAST).fit(X, y).predict_proba(X)
    b = ChimeraBoostClassifier(n_ensembles=2, **FAST).fit(X, y).predict_proba(X)
    c = ChimeraBoostClassifier(n_ensembles=2, **{**FAST, "random_state": 1}).fit(X, y)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c.predict_proba(X))


# ------------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize("params, error, match", [
    (dict(quality=0), ValueError, "quality"),
    (dict(quality="high"), TypeError, "quality"),
    (dict(quality=2.5), TypeError, "quality"),
    (dict(learning_rate=-1.0), ValueError, "learning_rate"),
    (dict(max_iter=0), ValueError, "max_iter"),
    (dict(max_leaf_nodes=2.5), TypeError, "max_leaf_nodes"),
    (dict(n_ensembles=0), ValueError, "n_ensembles"),
    (dict(validation_fraction=1.5), ValueError, "validation_fraction"),
    (dict(early_stopping="yes"), TypeError, "early_stopping"),
    (dict(max_features=0.0), ValueError, "max_features"),
    (dict(max_features=1.5), ValueError, "max_features"),
    (dict(max_features="sqrt"), TypeError, "max_features"),
    (dict(n_threads=0), ValueError, "n_threads"),
    (dict(n_threads=1.5), TypeError, "n_threads"),
    (dict(n_threads="all"), TypeError, "n_threads"),
    (dict(loss="huber"), ValueError, "loss"),
    (dict(loss="Quantile", alpha=1.5), ValueError, "alpha"),
])
def test_bad_regressor_params(params, error, match, reg_data):
    X, y = reg_data
    with pytest.raises(error, match=match):
        ChimeraBoostRegressor(**params).fit(X, y)


def test_bad_inputs(reg_data, clf_data):
    X, y = reg_data
    with pytest.raises(ValueError, match="quantiles"):
        ChimeraBoostQuantileRegressor(quantiles=(0.9, 0.1)).fit(X, y)
    with pytest.raises(ValueError, match="quantiles"):
        ChimeraBoostQuantileRegressor(quantiles=(0.0, 0.5)).fit(X, y)
    with pytest.raises(ValueError, match="cat_features"):
        ChimeraBoostRegressor(**FAST).fit(X, y, cat_features=["nope"])
    with pytest.raises(ValueError, match="cat_features index 9"):
        ChimeraBoostRegressor(**FAST).fit(X, y, cat_features=[9])
    with pytest.raises(ValueError, match="sample_weight"):
        ChimeraBoostRegressor(**FAST).fit(X, y, sample_weight=-np.ones(len(y)))
    Xc, yc = clf_data
    with pytest.raises(ValueError, match="temperature_scaling|only one class"):
        ChimeraBoostClassifier(**FAST).fit(Xc, np.zeros(len(yc)))
    with pytest.raises(TypeError, match="temperature_scaling"):
        ChimeraBoostClassifier(temperature_scaling=1).fit(Xc, yc)
    text = np.array([["a", "1.0"], ["b", "2.0"]] * 20, dtype=object)
    with pytest.raises(ValueError, match="cat_features"):
        ChimeraBoostRegressor(**FAST).fit(text, np.arange(40.0), cat_features=[1])


@pytest.mark.parametrize("y, error, match", [
    (np.array([1, "a", 2, "a"] * 10, dtype=object), TypeError, "y mixes label types"),
    (np.array(["a", "b", None, "a"] * 10, dtype=object), ValueError, "y has 10 missing"),
    ("boolean", ValueError, "y has 10 missing"),
    ("string", ValueError, "y has 10 missing"),
    ("category", ValueError, "y has 10 missing"),
])
def test_bad_class_labels(y, error, match):
    if isinstance(y, str):
        pd = pytest.importorskip("pandas")
        values = {"boolean": [True, False, None, True], "string": ["a", "b", None, "a"],
                  "category": ["a", "b", None, "a"]}[y]
        y = pd.Series(values * 10, dtype=y)
    X = np.random.default_rng(0).normal(size=(40, 3))
    with pytest.raises(error, match=match):
        ChimeraBoostClassifier(**FAST).fit(X, y)


@pytest.mark.parametrize("dtype, values", [
    ("string", ["a", "b"]), ("boolean", [True, False]), ("Int64", [1, 2]),
    ("category", ["a", "b"]),
])
def test_pandas_nullable_labels_without_missing_values(dtype, values):
    pd = pytest.importorskip("pandas")
    X = np.random.default_rng(0).normal(size=(40, 3))
    y = pd.Series(values * 20, dtype=dtype)
    model = ChimeraBoostClassifier(**FAST).fit(X, y)
    assert len(model.classes_) == 2
    assert model.predict_proba(X).shape == (40, 2)


def test_string_column_in_numpy_X_names_the_column():
    X = np.array([[1.0, "a", 2.0], [2.0, "b", 1.0]] * 20, dtype=object)
    with pytest.raises(ValueError, match=r"Column 1 of X .*cat_features=\[1\]"):
        ChimeraBoostRegressor(**FAST).fit(X, np.arange(40.0))
    model = ChimeraBoostRegressor(**FAST).fit(X, np.arange(40.0), cat_features=[1])
    assert model.categorical_features_.tolist() == [False, True, False]


@pytest.mark.parametrize("quantiles, match", [
    ((0.9, 0.1), "strictly increasing"),
    ((0.0, 0.5), "strictly inside"),
    ((10, 50, 90), "fractions"),
])
def test_bad_quantiles(quantiles, match, reg_data):
    X, y = reg_data
    with pytest.raises(ValueError, match=match):
        ChimeraBoostQuantileRegressor(quantiles=quantiles, **FAST).fit(X, y)


# ------------------------------------------------------------------------------------------
# Threads


@pytest.mark.slow
@pytest.mark.parametrize("Model", [ChimeraBoostRegressor, ChimeraBoostClassifier,
                                   ChimeraBoostQuantileRegressor])
def test_n_threads_does_not_change_results(Model, multi_data):
    X, y = multi_data
    y = y if Model is ChimeraBoostClassifier else np.searchsorted(np.unique(y), y) + X[:, 0]
    kw = dict(quality=1, max_iter=30, random_state=0)
    one = Model(n_threads=1, **kw).fit(X, y)
    two = Model(n_threads=2, **kw).fit(X, y)
    method = "predict_proba" if hasattr(one, "predict_proba") else "predict"
    np.testing.assert_array_equal(getattr(one, method)(X), getattr(two, method)(X))


def test_n_threads_limits_openmp_during_fit(monkeypatch, clf_data):
    from threadpoolctl import threadpool_info

    from chimeraboost import estimators

    seen = []
    original = estimators._fit_engine

    def spy(*args):
        seen.append(openmp_threads())
        original(*args)

    def openmp_threads():
        return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "openmp"]

    monkeypatch.setattr("chimeraboost.estimators._base._fit_engine", spy)
    X, y = clf_data
    before = openmp_threads()
    # 2, not 1: the tests may run under OMP_NUM_THREADS=1, so only the limit can show 2.
    ChimeraBoostClassifier(quality=1, max_iter=5, n_threads=2).fit(X, y)
    assert seen and all(n == 2 for counts in seen for n in counts)
    assert openmp_threads() == before  # the limit ends with the call


# ------------------------------------------------------------------------------------------
# Composition


def test_pipeline_final_step(clf_data):
    X, y = clf_data
    pipe = make_pipeline(StandardScaler(), ChimeraBoostClassifier(**FAST)).fit(X, y)
    proba = pipe.predict_proba(X)
    assert proba.shape == (len(y), 2)
    assert pipe.score(X, y) > 0.7


def test_grid_search_log_loss(clf_data):
    X, y = clf_data
    search = GridSearchCV(ChimeraBoostClassifier(**FAST), {"max_leaf_nodes": [3, 15]}, cv=2,
                          scoring="neg_log_loss").fit(X, y)
    assert search.best_params_["max_leaf_nodes"] in (3, 15)


def test_grid_search_brier_skill(clf_data):
    pytest.importorskip("chimeraboost.scorers")
    import chimeraboost  # noqa: F401  (registers the scoring strings)

    X, y = clf_data
    search = GridSearchCV(ChimeraBoostClassifier(**FAST), {"quality": [1, 2]}, cv=2,
                          scoring="brier_skill").fit(X, y)
    assert np.isfinite(search.best_score_)
    assert -1 < search.best_score_ <= 1
