"""LightGBM, XGBoost and CatBoost models in report, scorers and compare, as users meet them.

The task of a model is read from what it declares itself to be (scikit-learn tags, then
``_estimator_type``), never from an attribute alone: CatBoost's regressors carry an empty
``classes_``, which once made a regressor look like a classifier with no classes.
"""

import numpy as np
import pytest
from catboost import CatBoostClassifier, CatBoostRegressor
from lightgbm import LGBMClassifier, LGBMRegressor
from sklearn.datasets import make_classification, make_regression
from sklearn.metrics import log_loss, r2_score, roc_auc_score
from sklearn.model_selection import cross_val_score
from xgboost import XGBClassifier, XGBRegressor

import chimeraboost as cb
from chimeraboost import metrics

CLASSIFIERS = {
    "lightgbm": lambda: LGBMClassifier(n_estimators=30, n_jobs=1, verbose=-1, random_state=0),
    "xgboost": lambda: XGBClassifier(n_estimators=30, n_jobs=1, random_state=0),
    "catboost": lambda: CatBoostClassifier(iterations=30, thread_count=1, verbose=0,
                                           random_seed=0, allow_writing_files=False),
}
REGRESSORS = {
    "lightgbm": lambda: LGBMRegressor(n_estimators=30, n_jobs=1, verbose=-1, random_state=0),
    "xgboost": lambda: XGBRegressor(n_estimators=30, n_jobs=1, random_state=0),
    "catboost": lambda: CatBoostRegressor(iterations=30, thread_count=1, verbose=0,
                                          random_seed=0, allow_writing_files=False),
}


def _classification(n_classes, labels=None):
    X, y = make_classification(n_samples=400, n_features=6, n_informative=4, n_redundant=0,
                               n_classes=n_classes, n_clusters_per_class=1, random_state=0)
    if labels is not None:
        y = np.asarray(labels)[y]
    return X[:250], X[250:], y[:250], y[250:]


@pytest.mark.parametrize("lib", sorted(CLASSIFIERS))
@pytest.mark.parametrize("labels", [None, ["ant", "bee"], ["ant", "bee", "cat"]],
                         ids=["binary", "binary-strings", "multiclass-strings"])
def test_classifiers_of_other_libraries_in_report(lib, labels):
    n_classes = 2 if labels is None else len(labels)
    X_tr, X_te, y_tr, y_te = _classification(n_classes, labels)
    if lib == "xgboost" and labels is not None:
        # XGBoost's scikit-learn API needs integer labels: encode, as its users do.
        classes, y_tr_fit = np.unique(y_tr, return_inverse=True)
        model = CLASSIFIERS[lib]().fit(X_tr, y_tr_fit)
        y_te = np.searchsorted(classes, y_te)
    else:
        model = CLASSIFIERS[lib]().fit(X_tr, y_tr)
    rep = cb.report(model, X_te, y_te)
    assert rep.task == "classification"
    proba = model.predict_proba(X_te)
    assert rep["log_loss"] == pytest.approx(log_loss(y_te, proba, labels=model.classes_),
                                            rel=1e-6)
    if n_classes == 2:
        assert rep["roc_auc"] == pytest.approx(roc_auc_score(y_te == model.classes_[1],
                                                             proba[:, 1]), abs=1e-12)


@pytest.mark.parametrize("lib", sorted(REGRESSORS))
def test_regressors_of_other_libraries_in_report(lib):
    X, y = make_regression(n_samples=300, n_features=5, noise=5.0, random_state=0)
    model = REGRESSORS[lib]().fit(X[:200], y[:200])
    rep = cb.report(model, X[200:], y[200:], baseline=y[:200])
    assert rep.task == "regression"
    own = cb.report(model, X[200:], y[200:])
    assert own["r2"] == pytest.approx(r2_score(y[200:], model.predict(X[200:])), abs=1e-10)
    assert rep["baseline_mean"] == pytest.approx(np.mean(y[:200]), abs=1e-10)


@pytest.mark.parametrize("lib", sorted(CLASSIFIERS))
def test_scorers_accept_other_libraries(lib):
    X, y = make_classification(n_samples=300, n_features=6, random_state=1)
    scores = cross_val_score(CLASSIFIERS[lib](), X, y, cv=3, scoring="brier_skill")
    # Each fold's score is the library's own d2 Brier score on that fold's probabilities.
    assert np.all(np.isfinite(scores)) and np.all(scores <= 1)
    model = CLASSIFIERS[lib]().fit(X[:200], y[:200])
    scorer_value = cb.scorers.make_skill_scorer("brier")(model, X[200:], y[200:])
    assert scorer_value == pytest.approx(
        metrics.brier_skill(y[200:], model.predict_proba(X[200:]), model.classes_), abs=1e-12)


def test_compare_holdout_across_libraries():
    X_tr, X_te, y_tr, y_te = _classification(2)
    champion = CLASSIFIERS["lightgbm"]().fit(X_tr, y_tr)
    challenger = CLASSIFIERS["catboost"]().fit(X_tr, y_tr)
    res = cb.compare.compare_holdout(champion, challenger, X_te, y_te, random_state=0)
    own = metrics.brier_skill(y_te, challenger.predict_proba(X_te), [0, 1]) - \
        metrics.brier_skill(y_te, champion.predict_proba(X_te), [0, 1])
    assert res.difference == pytest.approx(own, abs=1e-12)
    assert res.ci.low <= res.difference <= res.ci.high
    X, y = make_regression(n_samples=300, n_features=5, noise=5.0, random_state=0)
    reg_a = REGRESSORS["xgboost"]().fit(X[:200], y[:200])
    reg_b = REGRESSORS["catboost"]().fit(X[:200], y[:200])
    res = cb.compare.compare_holdout(reg_a, reg_b, X[200:], y[200:], random_state=0)
    assert res.metric == "r2"
    assert res.difference == pytest.approx(
        r2_score(y[200:], reg_b.predict(X[200:])) - r2_score(y[200:], reg_a.predict(X[200:])),
        abs=1e-10)


def test_compare_cv_with_other_libraries():
    X, y = make_regression(n_samples=200, n_features=5, noise=5.0, random_state=0)
    res = cb.compare.compare_cv({"lgbm": REGRESSORS["lightgbm"](),
                                 "cat": REGRESSORS["catboost"]()}, X, y, cv=3)
    assert res.scoring == "r2" and res.n_folds == 3
    assert np.all(np.isfinite(res.scores["cat"]))
