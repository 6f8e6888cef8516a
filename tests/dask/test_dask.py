"""chimeraboost on Dask: reports over dask collections, and the model-selection tools under
joblib's dask backend, on a real two-process LocalCluster and on the synchronous scheduler.

Every expected value is the in-memory report of the same rows (itself tested against
scikit-learn elsewhere) or the same computation run locally; the bounds are the accumulators'
(exact keys to 1e-9 relative, grid keys to 1e-3).
"""

import contextlib
import os
import subprocess
import sys

import numpy as np
import pytest

dask = pytest.importorskip(
    "dask", reason="dask is not installed (pip install 'chimeraboost[dask]')")
distributed = pytest.importorskip(
    "distributed", reason="dask.distributed is not installed (pip install 'chimeraboost[dask]')")
da = pytest.importorskip("dask.array", reason="dask.array needs numpy (pip install 'dask[array]')")

import joblib  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import log_loss as sk_log_loss  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate  # noqa: E402

import chimeraboost as cb  # noqa: E402
from chimeraboost import metrics  # noqa: E402
from chimeraboost import dask as cbd  # noqa: E402

# Keys the accumulators compute from a grid of scores (their docstrings: within 1e-3 of the
# exact report); every other number must agree to 1e-9 relative. The regression ones are
# exact when baseline= is given (the median of the given targets).
GRID_KEYS = {"roc_auc", "pr_auc", "pr_auc_lift", "calibration_mcb", "discrimination_dsc"}
REGRESSION_GRID_KEYS = {"baseline_median", "mae_ref", "mae_skill"}
SCORINGS = ["brier_skill", "log_loss_skill", "neg_calibration_mcb"]


@pytest.fixture(scope="module")
def client():
    """Two worker processes, one thread each, one OpenMP/BLAS thread each (set before the
    processes start: OpenMP reads it once, at load)."""
    one = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    with dask.config.set({f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in one.items()}):
        # Any free port for the dashboard: 8787 may be taken (another cluster on the
        # machine), and distributed warns when it is.
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=":0")
    # Not the default scheduler: each test says where it computes (the synchronous tests would
    # otherwise run beside an active client, which dask warns about).
    c = distributed.Client(cluster, set_as_default=False)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def on_cluster(client):
    """``client`` as the scheduler of dask and of joblib's dask backend, as a
    ``Client(...)`` created at the top of a script would be."""
    stack = contextlib.ExitStack()
    stack.enter_context(client.as_current())
    stack.enter_context(dask.config.set(scheduler="dask.distributed"))
    return stack


# The cluster's tests are slow: a LocalCluster of two worker processes starts and stops.
@pytest.fixture(params=["synchronous", pytest.param("cluster", marks=pytest.mark.slow)])
def scheduler(request):
    """Run the test body on dask's synchronous scheduler, or on the LocalCluster."""
    if request.param == "cluster":
        c = request.getfixturevalue("client")
        with on_cluster(c), distributed.get_task_stream(c) as stream:
            yield request.param
        # The work was done by the cluster's workers, not in this process.
        assert len(stream.data) > 0
    else:
        with dask.config.set(scheduler="synchronous"):
            yield request.param


def _assert_report_close(got, expected, grid=GRID_KEYS):
    """Same keys; grid keys within 1e-3 (relative to values above 1), the rest to 1e-9."""
    assert set(got) == set(expected)
    for key, want in expected.items():
        value = got[key]
        if isinstance(want, str):
            assert value == want, key
        elif key == "classes":
            assert np.asarray(value).tolist() == np.asarray(want).tolist()
        elif key in grid:
            np.testing.assert_allclose(value, want, rtol=1e-3, atol=1e-3, err_msg=key)
        else:
            np.testing.assert_allclose(value, want, rtol=1e-9, atol=1e-12, err_msg=key)


def _classification_data(n, n_classes, seed, labels=None):
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(n, n_classes)) * 1.5
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    codes = np.array([rng.choice(n_classes, p=p) for p in proba])
    labels = np.arange(n_classes) if labels is None else np.asarray(labels)
    return labels[codes], proba, labels, rng.uniform(0.0, 3.0, size=n)


# --------------------------------------------------------------------------- reports


@pytest.mark.parametrize("kind", ["binary", "binary_1d", "multiclass", "strings"])
@pytest.mark.parametrize("weighted", [False, True])
def test_classification_report_equals_in_memory(scheduler, kind, weighted):
    n_classes = 2 if kind.startswith("binary") else 3
    labels = ["no", "maybe", "yes"] if kind == "strings" else None
    y, proba, classes, w = _classification_data(1500, n_classes, seed=len(kind), labels=labels)
    p = proba[:, 1] if kind == "binary_1d" else proba
    w = w if weighted else None
    # Unequal chunks, different in each input: blocks are cut to common boundaries.
    dy = da.from_array(y, chunks=((100, 700, 1, 699),))
    dp = da.from_array(p, chunks=(311,) + p.shape[1:])
    dw = None if w is None else da.from_array(w, chunks=250)
    got = cbd.classification_report(dy, dp, classes, sample_weight=dw)
    _assert_report_close(got, metrics.classification_report(y, p, classes, sample_weight=w))
    if n_classes == 2:
        # Against scikit-learn directly too.
        pos = proba[:, 1]
        assert got["log_loss"] == pytest.approx(
            sk_log_loss(y, pos, sample_weight=w, labels=classes), rel=1e-9)
        assert got["roc_auc"] == pytest.approx(roc_auc_score(y, pos, sample_weight=w), abs=1e-3)


def test_classification_report_with_baseline(scheduler):
    y, proba, classes, w = _classification_data(800, 3, seed=7)
    y_train = np.repeat(classes, [500, 300, 200])
    dy = da.from_array(y, chunks=300)
    dp = da.from_array(proba, chunks=(200, 3))
    got = cbd.classification_report(dy, dp, classes, baseline=da.from_array(y_train, chunks=100))
    want = metrics.classification_report(y, proba, classes, baseline=y_train)
    _assert_report_close(got, want)
    np.testing.assert_allclose(got["reference_prior"], [0.5, 0.3, 0.2], rtol=1e-12)


@pytest.mark.parametrize("baseline", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_regression_report_equals_in_memory(scheduler, baseline, weighted):
    rng = np.random.default_rng(3)
    y = rng.gamma(2.0, 10.0, size=1200)
    pred = y + rng.normal(0.0, 5.0, size=y.size)
    w = rng.uniform(0.0, 2.0, size=y.size) if weighted else None
    y_train = rng.gamma(2.0, 11.0, size=500) if baseline else None
    got = cbd.regression_report(
        da.from_array(y, chunks=400), da.from_array(pred, chunks=((5, 1000, 195),)),
        sample_weight=None if w is None else da.from_array(w, chunks=700), baseline=y_train)
    want = metrics.regression_report(y, pred, sample_weight=w, baseline=y_train)
    _assert_report_close(got, want, grid=set() if baseline else REGRESSION_GRID_KEYS)


def test_dask_dataframe_columns_are_matched_by_label(scheduler):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed "
                             "(pip install 'dask[dataframe]')")
    y, proba, classes, w = _classification_data(900, 3, seed=11, labels=["a", "b", "c"])
    frame = pd.DataFrame({"y": y, "w": w})
    # The probability columns in another order than classes: matched by label, not position.
    scores = pd.DataFrame(proba, columns=classes)[["c", "a", "b"]]
    dframe, dscores = dd.from_pandas(frame, npartitions=4), dd.from_pandas(scores, npartitions=3)
    got = cbd.classification_report(dframe["y"], dscores, classes, sample_weight=dframe["w"])
    _assert_report_close(got, metrics.classification_report(y, proba, classes, sample_weight=w))


def test_regression_on_dask_series(scheduler):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed "
                             "(pip install 'dask[dataframe]')")
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"y": rng.normal(size=600)})
    frame["pred"] = 0.8 * frame["y"] + rng.normal(0.0, 0.3, size=600)
    d = dd.from_pandas(frame, npartitions=5)
    got = cbd.regression_report(d["y"], d["pred"])
    want = metrics.regression_report(frame["y"], frame["pred"])
    for key in ("n", "mse", "rmse", "mae", "r2", "mean_y"):
        assert got[key] == pytest.approx(want[key], rel=1e-9), key


def test_frames_with_unknown_divisions_are_counted_not_paired_by_partition():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    y = pd.Series([0, 1] * 5)
    p = pd.Series(np.linspace(0.1, 0.9, 10))
    # Two partitions each, boundaries unknown to dask: 5 + 5 rows against 3 + 7.
    dy = dd.from_pandas(y, npartitions=2).clear_divisions()
    dp = dd.concat([dd.from_pandas(p[:3], npartitions=1),
                    dd.from_pandas(p[3:], npartitions=1)]).clear_divisions()
    assert dy.npartitions == dp.npartitions and dy.divisions == dp.divisions
    with dask.config.set(scheduler="synchronous"):
        got = cbd.classification_report(dy, dp, [0, 1])
    _assert_report_close(got, metrics.classification_report(y, p, [0, 1]))


def test_separately_built_frames_of_as_many_partitions_pair_by_position():
    # 100 + 200 rows against 200 + 100, each frame built from delayed pieces (divisions
    # unknown): pairing partition i with partition i would pair the wrong rows.
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    rng = np.random.default_rng(0)
    y, p = rng.integers(0, 2, 300), rng.uniform(size=300)

    def pieces(values, cuts):
        edges = [0, *cuts, len(values)]
        return dd.from_delayed([dask.delayed(pd.Series)(values[a:b], index=range(a, b))
                                for a, b in zip(edges[:-1], edges[1:])],
                               meta=pd.Series(values[:0]))

    dy, dp = pieces(y, [100]), pieces(p, [200])
    dw = pieces(np.linspace(0.5, 2.0, 300), [50])
    assert dy.npartitions == dp.npartitions == dw.npartitions
    with dask.config.set(scheduler="synchronous"):
        got = cbd.classification_report(dy, dp, [0, 1], sample_weight=pieces(
            np.linspace(0.5, 2.0, 300), [150]))
        got_r = cbd.regression_report(dy.astype(float), dp, sample_weight=dw)
    want = metrics.classification_report(y, p, [0, 1], sample_weight=np.linspace(0.5, 2.0, 300))
    _assert_report_close(got, want)
    want_r = metrics.regression_report(y.astype(float), p, sample_weight=np.linspace(0.5, 2, 300))
    for key in ("n", "mse", "mae", "r2"):
        assert got_r[key] == pytest.approx(want_r[key], rel=1e-9), key


def test_rows_selected_by_a_mask_unknown_block_sizes():
    y, proba, classes, w = _classification_data(600, 3, seed=8)
    keep = w > 1.0
    dy, dp = da.from_array(y, chunks=100), da.from_array(proba, chunks=(100, 3))
    with dask.config.set(scheduler="synchronous"):
        got = cbd.classification_report(dy[da.from_array(keep, chunks=100)],
                                        dp[da.from_array(keep, chunks=100)], classes)
    _assert_report_close(got, metrics.classification_report(y[keep], proba[keep], classes))


def test_plain_input_takes_the_in_memory_path():
    y, proba, classes, w = _classification_data(300, 3, seed=2)
    got = cbd.classification_report(y, proba, classes, sample_weight=w)
    want = metrics.classification_report(y, proba, classes, sample_weight=w)
    # Not approximately: the in-memory report itself, grid keys included.
    for key, value in want.items():
        np.testing.assert_array_equal(got[key], value, err_msg=key)
    assert cbd.regression_report([1.0, 2.0, 4.0], [1.5, 2.0, 3.0]) == metrics.regression_report(
        [1.0, 2.0, 4.0], [1.5, 2.0, 3.0])


def test_a_dask_array_beside_numpy_inputs():
    y, proba, classes, w = _classification_data(400, 2, seed=4)
    with dask.config.set(scheduler="synchronous"):
        got = cbd.classification_report(y, da.from_array(proba, chunks=(150, 2)), classes,
                                        sample_weight=w)
    _assert_report_close(got, metrics.classification_report(y, proba, classes, sample_weight=w))


def test_one_class_and_zero_weights():
    # A single class among the rows seen: skills are NaN with a warning, as in memory.
    y = np.zeros(50, dtype=int)
    p = np.linspace(0.05, 0.5, 50)
    with dask.config.set(scheduler="synchronous"):
        with pytest.warns(cb.exceptions.DegenerateMetricWarning):
            got = cbd.classification_report(da.from_array(y, chunks=20),
                                            da.from_array(p, chunks=20), [0, 1])
    assert got["n"] == 50 and np.isnan(got["log_loss_skill"])
    # Zero-weight rows count for nothing: same as dropping them.
    y, proba, classes, w = _classification_data(300, 2, seed=9)
    w[:100] = 0.0
    with dask.config.set(scheduler="synchronous"):
        got = cbd.classification_report(da.from_array(y, chunks=70),
                                        da.from_array(proba, chunks=(70, 2)), classes,
                                        sample_weight=da.from_array(w, chunks=70))
    want = metrics.classification_report(y[100:], proba[100:], classes, sample_weight=w[100:])
    for key in ("log_loss", "brier", "brier_skill", "accuracy"):
        assert got[key] == pytest.approx(want[key], rel=1e-9), key


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"y": np.zeros(100), "proba": np.full(99, 0.5)}, ValueError, "y has 100, proba has 99"),
    ({"y": np.zeros(100), "proba": np.full(100, 0.5), "sample_weight": np.ones(98)},
     ValueError, "sample_weight has 98"),
    ({"y": np.full(100, 7), "proba": np.full(100, 0.5)}, ValueError, "not in classes"),
    ({"y": np.zeros(100), "proba": np.full(100, 1.5)}, ValueError, r"\[0, 1\]"),
    ({"y": np.zeros(0), "proba": np.zeros(0)}, ValueError, "y is empty"),
])
def test_bad_input_is_refused_by_name(kwargs, error, match):
    inputs = {k: da.from_array(v, chunks=30) for k, v in kwargs.items()}
    with dask.config.set(scheduler="synchronous"), pytest.raises(error, match=match):
        cbd.classification_report(classes=[0, 1], **inputs)


def test_a_delayed_object_is_refused_by_name():
    proba = dask.delayed(np.full)(10, 0.5)
    with pytest.raises(TypeError, match="proba is a Delayed; pass a dask array"):
        cbd.classification_report(da.zeros(10, chunks=5, dtype=int), proba, [0, 1])


def test_dataframe_columns_that_are_not_the_labels_are_refused():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    scores = dd.from_pandas(pd.DataFrame({"p": [0.2, 0.7], "q": [0.8, 0.3]}), npartitions=1)
    with pytest.raises(ValueError, match="columns .* are not the class labels"):
        cbd.classification_report(da.from_array(np.array([0, 1])), scores, [0, 1])


@pytest.mark.slow
def test_import_does_not_need_dask():
    code = ("import sys, chimeraboost as cb; cb.dask.classification_report; "
            "print('dask' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_missing_dask_names_the_extra(monkeypatch):
    class Collection:
        """Looks like a dask collection; dask itself cannot be imported."""

        def __dask_graph__(self):
            return {}

    monkeypatch.setitem(sys.modules, "dask", None)
    with pytest.raises(ImportError, match=r'pip install "chimeraboost\[dask\]"'):
        cbd.regression_report(Collection(), np.zeros(3))


# --------------------------------------------------------------------------- joblib backend


@pytest.fixture(scope="module")
def breast_cancer():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


@pytest.mark.slow
def test_workers_have_one_openmp_thread(client):
    def thread_counts():
        from threadpoolctl import threadpool_info

        return [pool["num_threads"] for pool in threadpool_info()], os.environ["OMP_NUM_THREADS"]

    for counts, env in client.run(thread_counts).values():
        assert env == "1" and all(c == 1 for c in counts)


@pytest.mark.slow
@pytest.mark.parametrize("model", [
    LogisticRegression(),
    cb.ChimeraBoostClassifier(max_iter=10, random_state=0),
], ids=["logistic", "chimeraboost"])
def test_cross_validate_on_the_cluster_equals_local(client, breast_cancer, model):
    X, y = breast_cancer
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    local = cross_validate(model, X, y, scoring=SCORINGS, cv=cv)
    with on_cluster(client), distributed.get_task_stream(client) as stream, \
            joblib.parallel_backend("dask"):
        remote = cross_validate(model, X, y, scoring=SCORINGS, cv=cv)
    assert {task["worker"] for task in stream.data} <= set(client.scheduler_info()["workers"])
    assert len(stream.data) > 0
    for name in SCORINGS:
        np.testing.assert_allclose(remote[f"test_{name}"], local[f"test_{name}"],
                                   rtol=0, atol=1e-12)
        assert np.all(np.isfinite(local[f"test_{name}"]))


@pytest.mark.slow
def test_grid_search_on_the_cluster_equals_local(client, breast_cancer):
    X, y = breast_cancer
    grid = {"C": [0.01, 1.0]}
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    local = GridSearchCV(LogisticRegression(), grid, scoring="log_loss_skill", cv=cv).fit(X, y)
    with on_cluster(client), distributed.get_task_stream(client) as stream, \
            joblib.parallel_backend("dask"):
        remote = GridSearchCV(LogisticRegression(), grid, scoring="log_loss_skill", cv=cv).fit(X, y)
    assert len(stream.data) > 0
    for i in range(3):
        np.testing.assert_allclose(remote.cv_results_[f"split{i}_test_score"],
                                   local.cv_results_[f"split{i}_test_score"], rtol=0, atol=1e-12)
    assert remote.best_params_ == local.best_params_


@pytest.mark.slow
def test_compare_cv_on_the_cluster_equals_local(client, breast_cancer):
    X, y = breast_cancer
    models = {"weak": LogisticRegression(C=0.01), "logreg": LogisticRegression()}
    kwargs = {"cv": StratifiedKFold(4, shuffle=True, random_state=2), "verbose": 0,
              "guardrails": {"neg_calibration_mcb": 0.01}}
    local = cb.compare.compare_cv(models, X, y, **kwargs)
    # compare_cv's n_jobs=None is joblib's default: the active backend decides.
    with on_cluster(client), distributed.get_task_stream(client) as stream, \
            joblib.parallel_backend("dask"):
        remote = cb.compare.compare_cv(models, X, y, **kwargs)
    assert len(stream.data) > 0
    for name in models:
        np.testing.assert_allclose(remote.scores[name], local.scores[name], rtol=0, atol=1e-12)
        np.testing.assert_allclose(remote.guard_scores["neg_calibration_mcb"][name],
                                   local.guard_scores["neg_calibration_mcb"][name],
                                   rtol=0, atol=1e-12)
    assert remote.decisions == local.decisions and remote.chosen == local.chosen


def test_an_error_in_a_block_names_the_rows_of_the_whole_input():
    y = np.zeros(120, dtype=object)
    y[1::2] = 1
    y[75] = None
    p = np.full(120, 0.5)
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"^block 2 \(rows 60 to 89\): .*position 15"):
        cbd.classification_report(da.from_array(y, chunks=30), da.from_array(p, chunks=30),
                                  [0, 1])
    # Blocks cut at the common boundaries of both inputs: 0-30-40-60-80-...
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"^block 3 \(rows 60 to 79\): .*position 15"):
        cbd.classification_report(da.from_array(y, chunks=30), da.from_array(p, chunks=40),
                                  [0, 1])


@pytest.mark.parametrize(("report", "kwargs", "match"), [
    (cbd.regression_report, {"y": np.zeros(100), "pred": np.zeros((100, 2))},
     r"pred must be 1-dimensional, got pred.ndim=2 with shape \(100, 2\)"),
    (cbd.regression_report, {"y": np.zeros((100, 3)), "pred": np.zeros(100)},
     r"y must be 1-dimensional, got y.ndim=2 with shape \(100, 3\)"),
    (cbd.regression_report, {"y": np.zeros(100), "pred": np.zeros(100),
                             "sample_weight": np.ones((100, 2))},
     r"sample_weight must be 1-dimensional, got sample_weight.ndim=2 with shape \(100, 2\)"),
    (cbd.classification_report, {"y": np.zeros(100), "proba": np.zeros((100, 2, 2))},
     r"proba must be \(n, K\) or, for binary, 1-D; got shape \(100, 2, 2\)"),
    (cbd.classification_report, {"y": np.zeros(100), "proba": np.zeros((100, 3))},
     "proba has 3 columns but there are 2 classes"),
])
def test_shapes_of_the_whole_input_are_checked_first(report, kwargs, match):
    inputs = {k: da.from_array(v, chunks=30) for k, v in kwargs.items()}
    extra = {"classes": [0, 1]} if report is cbd.classification_report else {}
    with dask.config.set(scheduler="synchronous"), pytest.raises(ValueError, match=match):
        report(**inputs, **extra)
    # The in-memory report says the same.
    with pytest.raises(ValueError, match=match):
        report(**kwargs, **extra)


def test_frame_errors_name_the_partition_and_an_empty_frame_is_refused():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    frame = pd.DataFrame({"y": [0, 1] * 30, "p": np.linspace(0.1, 0.9, 60)})
    frame.loc[45, "y"] = 7
    d = dd.from_pandas(frame, npartitions=3)
    assert d.known_divisions
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"^partition 2: .*not in classes"):
        cbd.classification_report(d["y"], d["p"], [0, 1])
    # Filtered to no rows: the divisions stay known, every partition is empty.
    empty = d[d["p"] > 2]
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"^y is empty; at least one row is needed\.$"):
        cbd.classification_report(empty["y"], empty["p"], [0, 1])
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"^y is empty; at least one row is needed\.$"):
        cbd.regression_report(empty["y"], empty["p"])


def test_frames_with_different_indexes_are_refused_as_in_memory():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    y = pd.Series([0, 1] * 10)
    p = pd.Series(np.linspace(0.1, 0.9, 20), index=range(100, 120))
    with pytest.raises(ValueError, match="y and proba carry different pandas indexes"):
        metrics.classification_report(y, p, [0, 1])
    # Other divisions: counted and cut into blocks; the indexes travel beside the values.
    dy, dp = dd.from_pandas(y, npartitions=2), dd.from_pandas(p, npartitions=3)
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"^block \d \(rows \d+ to \d+\): y and proba carry different"):
        cbd.classification_report(dy, dp, [0, 1])
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match="y and pred carry different pandas indexes"):
        cbd.regression_report(dy.astype(float), dp.clear_divisions())
    # The same known divisions, other labels in partition 0 (9.5 for 9): paired partition
    # by partition, the accumulator compares the pandas blocks.
    q = pd.Series(np.linspace(0.1, 0.9, 20), index=[*range(9), 9.5, *range(10, 20)])
    dq = dd.from_pandas(q, npartitions=1).repartition(divisions=list(dy.divisions))
    assert dq.divisions == dy.divisions
    with dask.config.set(scheduler="synchronous"), pytest.raises(
            ValueError, match=r"^partition 0: y and proba carry different pandas indexes"):
        cbd.classification_report(dy, dq, [0, 1])
    # A dask array beside a frame carries no index: paired by position, as in memory.
    with dask.config.set(scheduler="synchronous"):
        got = cbd.classification_report(dy, da.from_array(p.to_numpy(), chunks=7), [0, 1])
    _assert_report_close(got, metrics.classification_report(y, p.to_numpy(), [0, 1]))


# --------------------------------------------------------------------------- intervals


def _same_report(got, want, tol=1e-12):
    """Two reports with intervals: every number and every interval's ends to ``tol``."""
    assert set(got.ci) == set(want.ci)
    for key, value in want.items():
        if isinstance(value, str) or key == "classes":
            continue
        np.testing.assert_allclose(np.asarray(got[key], dtype=float),
                                   np.asarray(value, dtype=float), rtol=tol, atol=tol,
                                   err_msg=key)
    for key, (low, high) in want.ci.items():
        np.testing.assert_allclose(got.ci[key], (low, high), rtol=tol, atol=tol, err_msg=key)


FEW = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")


@FEW
@pytest.mark.parametrize("kind", ["binary", "multiclass"])
def test_intervals_on_dask_equal_the_accumulator_in_memory(scheduler, kind):
    k = 2 if kind == "binary" else 3
    y, proba, classes, w = _classification_data(3000, k, seed=21)
    p = proba[:, 1] if k == 2 else proba
    dy = da.from_array(y, chunks=((100, 1400, 1, 1499),))
    dp = da.from_array(p, chunks=(700,) + p.shape[1:])
    dw = da.from_array(w, chunks=900)
    got = cbd.classification_report(dy, dp, classes, sample_weight=dw, ci=0.9, n_boot=200,
                                    random_state=5)
    # Array-likes with ci go through the same accumulator in memory, in one update.
    want = cbd.classification_report(y, p, classes, sample_weight=w, ci=0.9, n_boot=200,
                                     random_state=5)
    assert isinstance(got, cb.Report) and got.ci_method == "percentile"
    _same_report(got, want)
    acc = metrics.ClassificationAccumulator(classes, n_boot=200, random_state=5)
    reps = acc.update(y, p, sample_weight=w).replicates()
    low, high = np.quantile(reps["brier_skill"], [0.05, 0.95])
    assert got.ci["brier_skill"][0] == pytest.approx(low, abs=1e-3 * abs(low))
    assert got.ci["brier_skill"][1] == pytest.approx(high, abs=1e-3 * abs(high))
    # The point numbers are the report's without intervals.
    plain = cbd.classification_report(dy, dp, classes, sample_weight=dw)
    for key in ("log_loss", "brier_skill", "roc_auc", "accuracy"):
        assert got[key] == pytest.approx(plain[key], rel=1e-12), key


@FEW
def test_intervals_on_dataframe_partitions_and_groups():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    y, proba, classes, _ = _classification_data(2000, 2, seed=22)
    customers = np.random.default_rng(3).integers(0, 150, 2000)
    frame = pd.DataFrame({"y": y, "p": proba[:, 1], "customer": customers})
    d = dd.from_pandas(frame, npartitions=5)  # same divisions: paired partition by partition
    with dask.config.set(scheduler="synchronous"):
        rows = cbd.classification_report(d["y"], d["p"], classes, ci=0.95, n_boot=200,
                                         random_state=1)
        grouped = cbd.classification_report(d["y"], d["p"], classes, ci=0.95, n_boot=200,
                                            random_state=1, groups=d["customer"])
    _same_report(rows, cbd.classification_report(y, proba[:, 1], classes, ci=0.95, n_boot=200,
                                                 random_state=1))
    # A customer's rows share one count: the whole-group bootstrap, wherever they sit.
    shuffled = np.random.default_rng(4).permutation(2000)
    _same_report(grouped, cbd.classification_report(
        y[shuffled], proba[shuffled, 1], classes, ci=0.95, n_boot=200, random_state=1,
        groups=customers[shuffled]))


@pytest.mark.parametrize("kwargs, match", [
    ({"ci": 0.95, "ci_method": "bca"}, "needs the jackknife"),
    ({"groups": np.zeros(100)}, "there are none \\(ci=None\\)"),
    ({"ci": 0.95, "n_boot": 10}, "n_boot=10 is too few"),
    ({"ci": 1.5}, "ci"),
])
def test_bad_interval_arguments_are_refused_by_name(kwargs, match):
    y = da.from_array(np.array([0, 1] * 50), chunks=30)
    p = da.from_array(np.linspace(0.1, 0.9, 100), chunks=30)
    with dask.config.set(scheduler="synchronous"), pytest.raises(ValueError, match=match):
        cbd.classification_report(y, p, [0, 1], **kwargs)
