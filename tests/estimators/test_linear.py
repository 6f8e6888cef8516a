"""The linear rung inside ChimeraBoost: fitted as scikit-learn fits it, weighted on held-out rows,
and worth its place on a linear problem."""

import numpy as np
import pytest
from scipy.optimize import brute
from scipy.special import expit
from scipy.stats import chi2
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import log_loss, mean_squared_error
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from chimeraboost.estimators import ChimeraBoostClassifier, ChimeraBoostRegressor
from chimeraboost.estimators import _linear

ONE = dict(n_threads=1, random_state=0)


def _logistic_data(n, seed, p=6):
    """Rows whose log-odds are exactly linear in the columns: the truth is a logistic
    regression, which a booster can only approximate by steps."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    beta = np.linspace(1.5, -1.0, p)
    prob = expit(X @ beta - 0.5)
    return X, (rng.uniform(size=n) < prob).astype(int), prob


def test_linear_rung_is_sklearns_scaled_logistic_regression():
    X, y, _ = _logistic_data(800, 0)
    model = ChimeraBoostClassifier(**ONE).fit(X, y)
    assert model.tree_weight_ < 1 and model.linear_ is not None
    # Refitted on every training row: the ladder's linear rung, scikit-learn's own fit.
    reference = make_pipeline(StandardScaler(), LogisticRegression(C=1.0)).fit(X, y)
    np.testing.assert_allclose(model.linear_.decision_function(X),
                               reference.decision_function(X), rtol=1e-4, atol=1e-4)
    # predict_proba is the blend of that and the trees, then the temperature.
    trees = model.estimators_[0].decision_function(X)
    blend = (1 - model.tree_weight_) * reference.decision_function(X) + model.tree_weight_ * trees
    np.testing.assert_allclose(model.decision_function(X) * model.temperature_, blend,
                               rtol=1e-4, atol=1e-4)


def test_linear_blend_helps_on_a_linear_problem():
    X, y, _ = _logistic_data(1500, 1)
    X_new, y_new, prob_new = _logistic_data(4000, 2)
    blended = ChimeraBoostClassifier(**ONE).fit(X, y)
    trees = ChimeraBoostClassifier(linear_blend=False, **ONE).fit(X, y)
    logistic = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    loss = {name: log_loss(y_new, m.predict_proba(X_new))
            for name, m in [("blend", blended), ("trees", trees), ("logistic", logistic)]}
    # The held-out rows give the linear model most of the weight...
    assert blended.tree_weight_ < 0.5
    # ...which closes most of the trees' gap to the logistic regression (the truth's family).
    assert loss["blend"] < loss["trees"] - 0.01
    assert loss["blend"] <= 1.01 * loss["logistic"]
    # And the probabilities are nearer the true ones than the trees' are.
    err = {name: np.mean(np.abs(m.predict_proba(X_new)[:, 1] - prob_new))
           for name, m in [("blend", blended), ("trees", trees)]}
    assert err["blend"] < err["trees"]


def test_tree_weight_is_the_held_out_posterior_mode():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    z_lin = (2 * y - 1) * 0.8 + rng.normal(0, 1.5, 300)
    z_tree = (2 * y - 1) * 1.2 + rng.normal(0, 1.0, 300)
    w = _linear.fit_tree_weight(z_lin, z_tree, y, None)

    def nll(v):
        # Summed binary log loss in closed form: log(1 + exp(-z)) for y = 1, log(1 + exp(z))
        # for y = 0 (checked against sklearn's log_loss below).
        z = (1 - v[0]) * z_lin + v[0] * z_tree
        return float(np.sum(np.logaddexp(0.0, np.where(y == 1, -z, z))))

    assert nll([0.3]) == pytest.approx(len(y) * log_loss(y, expit(0.7 * z_lin + 0.3 * z_tree)))
    prior = 1 / (2 * _linear.TREE_WEIGHT_PRIOR_SD**2)
    grid = brute(lambda v: nll(v) + prior * v[0] ** 2, [(0.0, 1.0)], Ns=2001, finish=None)
    assert w == pytest.approx(grid, abs=1e-3)
    assert 0 < w < 1
    # The prior pulls towards the linear model: a smaller weight than the likelihood's alone.
    assert w < brute(nll, [(0.0, 1.0)], Ns=2001, finish=None)


def test_tree_weight_falls_back_to_linear_when_both_separate_the_held_out_rows():
    # Every held-out row right for both models, the trees more confident: the likelihood
    # alone would take the trees; the rows cannot tell, so the prior keeps the linear model.
    y = np.array([0, 1] * 15)
    z_lin, z_tree = (2 * y - 1) * 4.0, (2 * y - 1) * 6.0
    unpenalised = brute(lambda v: log_loss(y, expit((1 - v[0]) * z_lin + v[0] * z_tree)),
                        [(0.0, 1.0)], Ns=101, finish=None)
    assert unpenalised == 1.0
    # Analytically: d/dw of the summed log loss at w = 0 is -30 * 2 * sigmoid(-4) = -1.08,
    # the prior's is w / sd^2 = 16 w, so the mode lies near w = 0.07, far from the
    # likelihood's 1...
    prior = 1 / (2 * _linear.TREE_WEIGHT_PRIOR_SD**2)
    mode = brute(lambda v: len(y) * log_loss(y, expit((1 - v[0]) * z_lin + v[0] * z_tree))
                 + prior * v[0] ** 2, [(0.0, 1.0)], Ns=1001, finish=None)
    assert mode == pytest.approx(0.067, abs=0.01)
    # ...and at the mode the held-out log likelihood gains 2 * 30 * (0.0181 - 0.0167) = 0.08
    # nats over the linear model alone, far below chi-squared's 95% quantile (3.84): the rows
    # cannot show the trees help, so the weight is 0.
    gain = 2 * len(y) * (log_loss(y, expit(z_lin))
                         - log_loss(y, expit((1 - mode) * z_lin + mode * z_tree)))
    assert 0 < gain < chi2.ppf(0.95, 1)
    assert _linear.fit_tree_weight(z_lin, z_tree, y, None) == 0.0


def test_tree_weight_is_kept_when_the_trees_significantly_help():
    # The same construction with 300 held-out rows, the trees carrying extra signal: the
    # mode's likelihood ratio against the linear model passes the 5% test and is kept.
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 300)
    z_lin = (2 * y - 1) * 0.5 + rng.normal(0, 1.0, 300)
    z_tree = z_lin + (2 * y - 1) * 1.0
    w = _linear.fit_tree_weight(z_lin, z_tree, y, None)
    gain = 2 * len(y) * (log_loss(y, expit(z_lin))
                         - log_loss(y, expit((1 - w) * z_lin + w * z_tree)))
    assert w > 0.5 and gain > chi2.ppf(0.95, 1)


@pytest.mark.parametrize("better, expected", [("linear", 0.0), ("trees", 1.0)])
def test_tree_weight_takes_the_ends(better, expected):
    # One model carries all the signal, the other pure noise: all weight to the first.
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 400)
    signal, noise = 3.0 * (2 * y - 1) + rng.normal(0, 1, 400), rng.normal(0, 3, 400)
    z_lin, z_tree = (signal, noise) if better == "linear" else (noise, signal)
    assert _linear.fit_tree_weight(z_lin, z_tree, y, None) == expected


def test_regression_tree_weight_is_clipped_least_squares():
    rng = np.random.default_rng(5)
    linear, trees = rng.normal(size=200), rng.normal(size=200)
    weight = rng.uniform(0.5, 2.0, 200)
    y = 0.6 * linear + 0.4 * trees + rng.normal(0, 0.3, 200)
    # Weighted least squares of y - linear on trees - linear, no intercept (numpy's lstsq).
    sw = np.sqrt(weight)
    slope = np.linalg.lstsq((sw * (trees - linear))[:, None], sw * (y - linear),
                            rcond=None)[0][0]
    assert 0 < slope < 1
    assert _linear.fit_tree_weight_squared(linear, trees, y, weight) == pytest.approx(slope)
    assert _linear.fit_tree_weight_squared(linear, trees, 2 * linear - trees, None) == 0.0
    assert _linear.fit_tree_weight_squared(linear, trees, 3 * trees - 2 * linear, None) == 1.0


def test_regressor_blends_with_ridge_on_a_linear_problem():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(1200, 5))
    y = X @ np.array([3.0, -2.0, 1.0, 0.5, 0.0]) + rng.normal(0, 1.0, 1200)
    X_new = rng.normal(size=(3000, 5))
    y_new = X_new @ np.array([3.0, -2.0, 1.0, 0.5, 0.0]) + rng.normal(0, 1.0, 3000)
    model = ChimeraBoostRegressor(**ONE).fit(X, y)
    trees = ChimeraBoostRegressor(linear_blend=False, **ONE).fit(X, y)
    ridge = make_pipeline(StandardScaler(), Ridge(alpha=1.0)).fit(X, y)
    assert model.tree_weight_ < 0.5
    np.testing.assert_allclose(model.linear_.predict(X_new), ridge.predict(X_new), rtol=1e-6)
    w = model.tree_weight_
    # The trees: the mean of the refit and the early-stopped fit.
    trees_new = (model.estimators_[0].predict(X_new)
                 + model.first_estimators_[0].predict(X_new)) / 2
    np.testing.assert_allclose(model.predict(X_new), (1 - w) * ridge.predict(X_new)
                               + w * trees_new, rtol=1e-6)
    rmse = {name: mean_squared_error(y_new, m.predict(X_new)) ** 0.5
            for name, m in [("model", model), ("trees", trees), ("ridge", ridge)]}
    # The noise sd is 1: ridge is near it, the trees alone far above, the blend with ridge.
    assert rmse["model"] <= 1.02 * rmse["ridge"]
    assert rmse["model"] < 0.9 * rmse["trees"]


def test_no_linear_rung_without_held_out_rows():
    X, y, _ = _logistic_data(50, 7)  # 20 held out would leave 30 to learn from: no split
    model = ChimeraBoostClassifier(**ONE).fit(X, y)
    assert model.linear_ is None and model.tree_weight_ == 1.0
    off = ChimeraBoostClassifier(linear_blend=False, **ONE).fit(*_logistic_data(800, 0)[:2])
    assert off.linear_ is None and off.tree_weight_ == 1.0


def test_separable_blend_has_no_probability_0_or_1():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(600, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)  # separable by a line: the logistic fit is steep
    X_new = rng.normal(size=(2000, 4)) * 4  # far from the training rows
    model = ChimeraBoostClassifier(**ONE).fit(X, y)
    proba = model.predict_proba(X_new)
    assert np.all((proba > 0) & (proba < 1))


@pytest.mark.parametrize("Model", [ChimeraBoostClassifier, ChimeraBoostRegressor])
def test_linear_blend_must_be_a_bool(Model):
    X, y, _ = _logistic_data(200, 9)
    with pytest.raises(TypeError, match="linear_blend must be True or False"):
        Model(linear_blend="yes", **ONE).fit(X, y)



def _cv_row_losses(X, y, c):
    """Each row's log loss when predicted by scikit-learn's scaled logistic regression fitted
    on the other folds (the folds ``choose_c`` uses)."""
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    Z = StandardScaler().fit_transform(X)
    proba = cross_val_predict(LogisticRegression(C=c, max_iter=1000), Z, y,
                              cv=StratifiedKFold(5, shuffle=True, random_state=0),
                              method="predict_proba")
    return -np.log(proba[np.arange(len(y)), y])


def test_c_is_chosen_by_cross_validated_log_loss():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    rows, mask = np.arange(len(y)), np.zeros(X.shape[1], dtype=bool)
    c = _linear.choose_c(X, y, None, rows, mask)
    losses = {g: _cv_row_losses(X, y, g) for g in _linear.C_GRID}
    best = min(losses, key=lambda g: losses[g].sum())
    gain = losses[1.0] - losses[best]
    # iris is nearly separable: C = 1 shrinks its log-odds far too much, by many standard
    # errors of the paired difference, so the least cross-validated log loss wins.
    assert gain.mean() > 2 * gain.std(ddof=1) / np.sqrt(len(y))
    assert c == best and c > 1


def test_c_stays_at_one_unless_clearly_better():
    # A logistic truth with many rows: C = 1 is as good as any, so the ladder's rung stays.
    X, y, _ = _logistic_data(600, 6)
    rows, mask = np.arange(len(y)), np.zeros(X.shape[1], dtype=bool)
    losses = {g: _cv_row_losses(X, y, g) for g in _linear.C_GRID}
    best = min(losses, key=lambda g: losses[g].sum())
    gain = losses[1.0] - losses[best]
    assert gain.mean() <= 2 * gain.std(ddof=1) / np.sqrt(len(y))
    assert _linear.choose_c(X, y, None, rows, mask) == 1.0
    # And the classifier's linear rung is then exactly the ladder's C = 1.
    model = ChimeraBoostClassifier(**ONE).fit(X, y)
    assert model.linear_ is None or model.linear_[-1].C == 1.0


def _full_grid_choice(X, y):
    """scikit-learn's 5-fold cross-validated choice over every value of ``C_GRID`` on every
    row, with the rule of ``choose_c`` (C = 1 unless better by more than 2 standard errors)."""
    losses = {g: _cv_row_losses(X, y, g) for g in _linear.C_GRID}
    best = min(losses, key=lambda g: losses[g].sum())
    gain = losses[1.0] - losses[best]
    return best if gain.mean() > 2 * gain.std(ddof=1) / np.sqrt(len(y)) else 1.0


@pytest.mark.slow
@pytest.mark.parametrize("case", ["steep", "noisy"])
def test_c_on_a_subsample_agrees_with_the_full_grid(case):
    # More rows than CV_MAX_ROWS, so that choose_c cross-validates a subsample and walks the
    # grid from C = 1; the full grid on every row is the reference. Steep log-odds want a
    # large C, many weak columns a small one: within one step of the grid of the reference.
    rng = np.random.default_rng(0)
    n, p = (4000, 3) if case == "steep" else (3000, 150)
    assert n > _linear.CV_MAX_ROWS
    X = rng.normal(size=(n, p))
    beta = np.r_[12.0, 12.0, np.zeros(p - 2)] if case == "steep" else np.full(p, 0.15)
    y = (rng.uniform(size=n) < expit(X @ beta)).astype(int)
    reference = _full_grid_choice(X, y)
    assert reference != 1.0  # the case is one where C moves
    c = _linear.choose_c(X, y, None, np.arange(n), np.zeros(p, dtype=bool))
    step = abs(_linear.C_GRID.index(c) - _linear.C_GRID.index(reference))
    assert step <= 1


def test_cv_rows_keep_every_class_and_its_share():
    # 9,000 rows of one class and 30 of another: the subsample keeps CV_MAX_ROWS rows in
    # proportion, and at least k rows of the rare class so that every fold holds one.
    t = np.r_[np.zeros(9000, dtype=int), np.ones(30, dtype=int)]
    sub = _linear._cv_rows(t, 5)
    counts = np.bincount(t[sub])
    assert abs(sub.size - _linear.CV_MAX_ROWS) <= 2
    assert counts[1] >= 5
    assert abs(counts[0] / sub.size - 9000 / 9030) < 0.01
    assert np.array_equal(_linear._cv_rows(t[:1500], 5), np.arange(1500))


def test_rung_names_what_the_tree_weight_made_the_model():
    from sklearn.exceptions import NotFittedError

    from chimeraboost import report
    from chimeraboost.estimators import ChimeraBoostQuantileRegressor

    X, y, _ = _logistic_data(800, 0)
    with pytest.raises(NotFittedError):
        ChimeraBoostClassifier(**ONE).rung_
    trees = ChimeraBoostClassifier(linear_blend=False, **ONE).fit(X, y)
    assert trees.tree_weight_ == 1.0 and trees.rung_ == "trees"
    blended = ChimeraBoostClassifier(**ONE).fit(X, y)
    expected = ("trees" if blended.tree_weight_ == 1 else "linear"
                if blended.tree_weight_ == 0 else "blend")
    assert blended.rung_ == expected and (blended.linear_ is None) == (expected == "trees")
    # The linear rung alone predicts as the refitted logistic regression does.
    if blended.rung_ == "linear":
        np.testing.assert_allclose(blended.decision_function(X) * blended.temperature_,
                                   blended.linear_.decision_function(X), rtol=1e-10)
    assert ChimeraBoostQuantileRegressor(quantiles=(0.5,), **ONE).fit(X, y).rung_ == "trees"
    # The report's header says it; the repr stays scikit-learn's.
    header = str(report(blended, X, y)).splitlines()[0]
    assert header.startswith(f"ChimeraBoostClassifier (rung: {blended.rung_}")
    assert "rung" not in repr(blended)
    pipe = make_pipeline(StandardScaler(), ChimeraBoostClassifier(**ONE)).fit(X, y)
    assert report(pipe, X, y).note.startswith("rung: ")
    assert report(LogisticRegression().fit(X, y), X, y).note is None
