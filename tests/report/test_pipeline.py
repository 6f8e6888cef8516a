"""chimeraboost.make_pipeline / Pipeline: scikit-learn's Pipeline with ``report``."""

import pickle

import numpy as np
import pytest
from sklearn import pipeline as sk_pipeline
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV
from sklearn.preprocessing import StandardScaler

import chimeraboost as cb


def test_make_pipeline_names_steps_like_scikit_learn_and_reports():
    X, y = load_breast_cancer(return_X_y=True)
    ours = cb.make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    theirs = sk_pipeline.make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    assert [n for n, _ in ours.steps] == [n for n, _ in theirs.steps]
    assert isinstance(ours, sk_pipeline.Pipeline)
    ours.fit(X[:400], y[:400])
    theirs.fit(X[:400], y[:400])
    rep = ours.report(X[400:], y[400:], baseline=y[:400])
    # The same numbers as reporting scikit-learn's pipeline with cb.report.
    assert rep["brier_skill"] == cb.report(theirs, X[400:], y[400:], baseline=y[:400])[
        "brier_skill"]
    assert rep.estimator_name == "Pipeline(StandardScaler, LogisticRegression)"


def test_pipeline_clones_pickles_and_searches():
    X, y = load_diabetes(return_X_y=True)
    pipe = cb.make_pipeline(StandardScaler(), Ridge())
    assert type(clone(pipe)) is cb.Pipeline
    search = GridSearchCV(pipe, {"ridge__alpha": [0.1, 10.0]}, cv=3).fit(X, y)
    best = search.best_estimator_
    assert type(best) is cb.Pipeline
    again = pickle.loads(pickle.dumps(best))
    np.testing.assert_array_equal(again.predict(X), best.predict(X))
    assert best.report(X, y)["r2"] == pytest.approx(best.score(X, y), abs=1e-12)


def test_make_pipeline_passes_its_options_through():
    pipe = cb.make_pipeline(StandardScaler(), Ridge(), verbose=True)
    assert pipe.verbose is True
    with pytest.raises(TypeError):
        cb.make_pipeline(StandardScaler(), Ridge(), not_an_option=1)
