"""chimeraboost.compare on held-out rows: compare_holdout.

Its interval is the paired bootstrap of chimeraboost.report on the same rows and its ROC-AUC
test DeLong's, so the tests check it against those, and against its decisions' definitions.
"""

import json

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from chimeraboost import compare, resampling
from chimeraboost import report

TOL = dict(rtol=1e-12, atol=1e-12)


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
        (dict(level=95), ValueError, r"level=95 is outside \(0, 1\)"),
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
