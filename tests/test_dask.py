"""chimeraboost on Dask: the model-selection tools under joblib's dask backend, on a real
two-process LocalCluster, give the scores of the same run in this process."""

import os

import numpy as np
import pytest

dask = pytest.importorskip("dask", reason="dask is not installed (pip install 'chimeraboost[dask]')")
distributed = pytest.importorskip(
    "distributed", reason="dask.distributed is not installed (pip install 'chimeraboost[dask]')")

import joblib  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate  # noqa: E402

import chimeraboost as cb  # noqa: E402

SCORINGS = ["brier_skill", "log_loss_skill", "neg_calibration_mcb"]


@pytest.fixture(scope="module")
def client():
    """Two worker processes, one thread each, one OpenMP/BLAS thread each (set before the
    processes start: OpenMP reads it once, at load)."""
    one = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    with dask.config.set({f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in one.items()}):
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


# --------------------------------------------------------------------------- joblib backend


@pytest.fixture(scope="module")
def breast_cancer():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


def test_workers_have_one_openmp_thread(client):
    def thread_counts():
        from threadpoolctl import threadpool_info

        return [pool["num_threads"] for pool in threadpool_info()], os.environ["OMP_NUM_THREADS"]

    for counts, env in client.run(thread_counts).values():
        assert env == "1" and all(c == 1 for c in counts)


@pytest.mark.parametrize("model", [
    LogisticRegression(),
    cb.ChimeraBoostClassifier(max_iter=10, random_state=0),
], ids=["logistic", "chimeraboost"])
def test_cross_validate_on_the_cluster_equals_local(client, breast_cancer, model):
    X, y = breast_cancer
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    local = cross_validate(model, X, y, scoring=SCORINGS, cv=cv)
    with distributed.get_task_stream(client) as stream, joblib.parallel_backend("dask"):
        remote = cross_validate(model, X, y, scoring=SCORINGS, cv=cv)
    assert {task["worker"] for task in stream.data} <= set(client.scheduler_info()["workers"])
    assert len(stream.data) > 0
    for name in SCORINGS:
        np.testing.assert_allclose(remote[f"test_{name}"], local[f"test_{name}"],
                                   rtol=0, atol=1e-12)
        assert np.all(np.isfinite(local[f"test_{name}"]))


def test_grid_search_on_the_cluster_equals_local(client, breast_cancer):
    X, y = breast_cancer
    grid = {"C": [0.01, 1.0]}
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    local = GridSearchCV(LogisticRegression(), grid, scoring="log_loss_skill", cv=cv).fit(X, y)
    with distributed.get_task_stream(client) as stream, joblib.parallel_backend("dask"):
        remote = GridSearchCV(LogisticRegression(), grid, scoring="log_loss_skill", cv=cv).fit(X, y)
    assert len(stream.data) > 0
    for i in range(3):
        np.testing.assert_allclose(remote.cv_results_[f"split{i}_test_score"],
                                   local.cv_results_[f"split{i}_test_score"], rtol=0, atol=1e-12)
    assert remote.best_params_ == local.best_params_


def test_compare_cv_on_the_cluster_equals_local(client, breast_cancer):
    X, y = breast_cancer
    models = {"weak": LogisticRegression(C=0.01), "logreg": LogisticRegression()}
    kwargs = {"cv": StratifiedKFold(4, shuffle=True, random_state=2), "verbose": 0,
              "guardrails": {"neg_calibration_mcb": 0.01}}
    local = cb.compare.compare_cv(models, X, y, **kwargs)
    # compare_cv's n_jobs=None is joblib's default: the active backend decides.
    with distributed.get_task_stream(client) as stream, joblib.parallel_backend("dask"):
        remote = cb.compare.compare_cv(models, X, y, **kwargs)
    assert len(stream.data) > 0
    for name in models:
        np.testing.assert_allclose(remote.scores[name], local.scores[name], rtol=0, atol=1e-12)
        np.testing.assert_allclose(remote.guard_scores["neg_calibration_mcb"][name],
                                   local.guard_scores["neg_calibration_mcb"][name],
                                   rtol=0, atol=1e-12)
    assert remote.decisions == local.decisions and remote.chosen == local.chosen
