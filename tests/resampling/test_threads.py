"""Tests of the bootstrap on several workers (``n_jobs``: forked processes on Linux, threads
elsewhere): the same numbers, bit for bit, whatever ``n_jobs`` and the kind of worker, and the same as evaluating the documented count matrix
(:func:`resampling.bootstrap_counts`) chunk by chunk; ``n_jobs`` read as scikit-learn reads it.
"""

import os
import sys
import threading

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression
from threadpoolctl import threadpool_info, threadpool_limits

import chimeraboost as cb
from chimeraboost import compare, metrics, quantile_metrics, resampling
from chimeraboost._shared.validation import check_n_jobs

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")

# Small chunks, so that a short bootstrap has many chunks to share out between threads.
CHUNK = 3
N_BOOT = 200


def _equal(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)  # NaN equals NaN here


def _evaluators():
    """Fresh evaluators (nothing built lazily yet, so the threads meet them new), one per
    kind of data: binary with ties and fractional weights, multiclass with string labels,
    regression, quantiles."""
    rng = np.random.default_rng(0)
    n = 120
    y = (rng.random(n) < 0.3).astype(int)
    p = np.round(np.clip(0.3 + 0.4 * y + rng.normal(scale=0.2, size=n), 0.01, 0.99), 1)
    w = rng.random(n) * 2
    labels = np.array(["a", "b", "c"])
    codes = rng.integers(0, 3, n)
    proba = rng.dirichlet(np.ones(3), n)
    yr = rng.normal(size=n)
    pred = yr + rng.normal(size=n)
    qpred = np.sort(yr[:, None] + rng.normal(size=(n, 3)), axis=1)
    return {
        "binary": lambda: metrics.classification_evaluator(y, [0, 1], proba=p, sample_weight=w),
        "multiclass": lambda: metrics.classification_evaluator(labels[codes], labels,
                                                               proba=proba),
        "regression": lambda: metrics.regression_evaluator(yr, pred),
        "quantile": lambda: quantile_metrics.quantile_evaluator(yr, qpred, [0.1, 0.5, 0.9]),
    }


@pytest.mark.parametrize("kind", ["binary", "multiclass", "regression", "quantile"])
def test_bootstrap_is_the_same_on_any_number_of_threads(kind):
    make = _evaluators()[kind]
    one = resampling.bootstrap(make(), n_boot=N_BOOT, random_state=3, chunk_size=CHUNK)
    for n_jobs in (2, 3, -1):
        res = resampling.bootstrap(make(), n_boot=N_BOOT, random_state=3, chunk_size=CHUNK,
                                   n_jobs=n_jobs)
        _equal(res.replicates, one.replicates)
        assert res.estimate == one.estimate


def test_threads_evaluate_the_documented_count_matrix():
    # The replicates are those of the count matrix bootstrap_counts gives for the same seed,
    # evaluated chunk by chunk in order: the rows are drawn exactly as one thread draws them.
    ev = _evaluators()["binary"]()
    res = resampling.bootstrap(ev, n_boot=N_BOOT, random_state=5, chunk_size=CHUNK, n_jobs=2)
    chunks = resampling.bootstrap_counts(ev.n, N_BOOT, random_state=5, chunk_size=CHUNK)
    outs = [ev.evaluate(c.astype(np.int64), warn=False) for c in chunks]
    for key in ("brier_skill", "log_loss", "calibration_mcb", "roc_auc", "pr_auc", "accuracy"):
        np.testing.assert_array_equal(res.replicates[key],
                                      np.concatenate([o[key] for o in outs]), err_msg=key)


def test_paired_and_joint_bootstrap_are_the_same_on_two_threads():
    make = _evaluators()["binary"]
    other = lambda: metrics.classification_evaluator(  # noqa: E731
        make().codes, [0, 1], proba=np.full(make().n, 0.3), sample_weight=make().sample_weight)
    one = resampling.paired_bootstrap(make(), other(), n_boot=200, random_state=1, chunk_size=7)
    two = resampling.paired_bootstrap(make(), other(), n_boot=200, random_state=1, chunk_size=7,
                                      n_jobs=2)
    _equal(two.replicates, one.replicates)
    joint1 = resampling.joint_bootstrap([make(), other()], n_boot=200, random_state=1, chunk_size=7)
    joint2 = resampling.joint_bootstrap([make(), other()], n_boot=200, random_state=1, chunk_size=7,
                                        n_jobs=2)
    for a, b in zip(joint1, joint2):
        _equal(a.replicates, b.replicates)


def test_roc_auc_interval_is_the_same_on_two_threads():
    rng = np.random.default_rng(2)
    y = rng.random(300) < 0.2
    score = rng.normal(size=300) + y
    one = resampling.roc_auc_interval(y, score, n_boot=300, random_state=4, chunk_size=5)
    two = resampling.roc_auc_interval(y, score, n_boot=300, random_state=4, chunk_size=5,
                                      n_jobs=2)
    assert one == two


def test_report_holdout_table_and_compare_holdout_pass_n_jobs_through():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + rng.normal(size=400) > 0).astype(int)
    model = LogisticRegression().fit(X[:200], y[:200])
    incumbent = LogisticRegression(C=1e-3).fit(X[:200], y[:200])
    Xt, yt = X[200:], y[200:]
    one = cb.report(model, Xt, yt, baseline=incumbent, ci=0.9, n_boot=300, random_state=0)
    two = cb.report(model, Xt, yt, baseline=incumbent, ci=0.9, n_boot=300, random_state=0,
                    n_jobs=2)
    assert two.ci == one.ci and two.vs_baseline == one.vs_baseline
    t1 = compare.holdout_table({"old": incumbent, "new": model}, Xt, yt, n_boot=300,
                               random_state=0)
    t2 = compare.holdout_table({"old": incumbent, "new": model}, Xt, yt, n_boot=300,
                               random_state=0, n_jobs=2)
    assert t1.to_dict() == t2.to_dict()
    reg = LinearRegression().fit(X[:200], X[:200, 0] + X[:200, 1])
    r1 = cb.report(reg, Xt, Xt[:, 0], ci=0.9, n_boot=300, random_state=0)
    r2 = cb.report(reg, Xt, Xt[:, 0], ci=0.9, n_boot=300, random_state=0, n_jobs=-1)
    assert r2.ci == r1.ci
    c1 = compare.compare_holdout(incumbent, model, Xt, yt, n_boot=300, random_state=0)
    c2 = compare.compare_holdout(incumbent, model, Xt, yt, n_boot=300, random_state=0,
                                 n_jobs=2)
    assert (c2.difference, c2.ci, c2.decision) == (c1.difference, c1.ci, c1.decision)


class _RecordingEvaluator:
    """Says which process and thread evaluated each replicate (and the BLAS threads it had);
    its ``fail_at``-th chunk raises, as a kernel might on a worker."""

    def __init__(self, fail_at=None):
        self.n, self.chunks, self.fail_at = 10, 0, fail_at

    def evaluate(self, counts, warn=False):
        if counts is None:  # the point estimate: the rows as given
            return {"x": np.array([float(self.n)]), "pid": np.zeros(1), "thread": np.zeros(1),
                    "blas": np.zeros(1)}
        self.chunks += 1  # in a forked worker, counted from the caller's count at the fork
        if self.chunks == self.fail_at:
            msg = f"kernel failed on chunk {self.fail_at}"
            raise FloatingPointError(msg)
        blas = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
        b = counts.shape[0]
        return {"x": counts.sum(axis=1).astype(float), "pid": np.full(b, float(os.getpid())),
                "thread": np.full(b, float(threading.get_ident())),
                "blas": np.full(b, float(max(blas, default=1)))}


@pytest.mark.parametrize("backend", ["processes", "threads"])
def test_the_first_chunk_runs_on_the_caller_and_the_others_on_workers(backend, monkeypatch):
    from chimeraboost.resampling import _chunks

    if backend == "processes" and not sys.platform.startswith("linux"):
        pytest.skip("worker processes are forked on Linux only")
    # The backend as asked, whatever threads earlier tests left running (a fork beside them is
    # what parallel_backend avoids for users; this test's workers take no lock).
    monkeypatch.setattr(_chunks, "parallel_backend", lambda: backend)
    ev = _RecordingEvaluator()
    with threadpool_limits(limits=2, user_api="blas"):  # the caller's BLAS may use two
        res = resampling.bootstrap(ev, n_boot=200, random_state=0, chunk_size=2, n_jobs=2)
    here = float(os.getpid()) if backend == "processes" else float(threading.get_ident())
    who = res.replicates["pid" if backend == "processes" else "thread"]
    # The first chunk builds what evaluators build on first use, on the calling thread; the
    # other 99 chunks of 2 replicates go to the two workers.
    assert np.all(who[:2] == here)
    assert here not in set(who[2:]) and len(set(who[2:])) <= 2
    # Each worker runs its BLAS on one thread: the workers are the parallelism.
    assert np.all(res.replicates["blas"][2:] == 1)
    np.testing.assert_array_equal(res.replicates["x"], np.full(200, 10.0))  # n draws each
    res = resampling.bootstrap(_RecordingEvaluator(), n_boot=200, random_state=0, chunk_size=2)
    assert set(res.replicates["pid"]) == {float(os.getpid())}
    assert set(res.replicates["thread"]) == {float(threading.get_ident())}


@pytest.mark.parametrize("backend", ["processes", "threads"])
def test_an_error_on_a_worker_reaches_the_caller(backend, monkeypatch):
    from chimeraboost.resampling import _chunks

    if backend == "threads":
        monkeypatch.setattr(_chunks, "parallel_backend", lambda: "threads")
    with pytest.raises(FloatingPointError, match="chunk 4"):
        resampling.bootstrap(_RecordingEvaluator(fail_at=4), n_boot=200, random_state=0,
                             chunk_size=2, n_jobs=2)


@pytest.mark.parametrize("kind", ["binary", "multiclass"])
def test_worker_threads_give_the_numbers_of_worker_processes(kind, monkeypatch):
    # Where processes cannot be forked the workers are threads: the same numbers.
    from chimeraboost.resampling import _chunks

    make = _evaluators()[kind]
    procs = resampling.bootstrap(make(), n_boot=N_BOOT, random_state=3, chunk_size=CHUNK,
                                 n_jobs=2)
    monkeypatch.setattr(_chunks, "parallel_backend", lambda: "threads")
    threads = resampling.bootstrap(make(), n_boot=N_BOOT, random_state=3, chunk_size=CHUNK,
                                   n_jobs=2)
    _equal(threads.replicates, procs.replicates)


@pytest.mark.parametrize(("n_jobs", "error"), [
    (0, ValueError), (1.5, TypeError), (True, TypeError), ("2", TypeError),
    (np.float64(2), TypeError),
])
def test_bad_n_jobs_is_refused_by_every_entry_point(n_jobs, error):
    ev = _evaluators()["binary"]()
    y = ev.codes
    calls = [
        lambda: resampling.bootstrap(ev, n_boot=200, n_jobs=n_jobs),
        lambda: resampling.paired_bootstrap(ev, ev, n_boot=200, n_jobs=n_jobs),
        lambda: resampling.joint_bootstrap([ev], n_boot=200, n_jobs=n_jobs),
        lambda: resampling.roc_auc_interval(y, np.arange(ev.n), n_boot=200, n_jobs=n_jobs),
        lambda: cb.report(LogisticRegression().fit(np.c_[y], y), np.c_[y], y, ci=0.9,
                          n_jobs=n_jobs),
        lambda: compare.holdout_table({"a": np.full(ev.n, 0.3)}, np.c_[y], y, n_jobs=n_jobs),
    ]
    for call in calls:
        with pytest.raises(error, match="n_jobs"):
            call()


def test_n_jobs_is_read_as_scikit_learn_reads_it(monkeypatch):
    from chimeraboost._shared import param_checks

    monkeypatch.setattr(param_checks, "_cpu_count", lambda: 8)
    # None is one thread; -1 every CPU, -2 all but one (joblib's cpus + 1 + n_jobs), never
    # fewer than one.
    assert [check_n_jobs(v) for v in (None, 1, 4, 16, -1, -2, -8, -100)] == \
        [1, 1, 4, 16, 8, 7, 1, 1]
    assert isinstance(check_n_jobs(np.int64(3)), int)


@pytest.mark.parametrize("scheme", ["groups", "time", "poisson"])
def test_groups_time_blocks_and_poisson_are_the_same_on_two_workers(scheme):
    # Whole groups and blocks of time points travel to the workers as unit indices, Poisson
    # replicates as their seeds: the replicates are those of one worker.
    make = _evaluators()["binary"]
    n = make().n
    units = {"scheme": "poisson"} if scheme == "poisson" else {scheme: np.arange(n) // 4}
    one = resampling.bootstrap(make(), n_boot=N_BOOT, random_state=2, chunk_size=CHUNK, **units)
    two = resampling.bootstrap(make(), n_boot=N_BOOT, random_state=2, chunk_size=CHUNK,
                               n_jobs=2, **units)
    _equal(two.replicates, one.replicates)


class _DyingEvaluator(_RecordingEvaluator):
    """Ends its worker process abruptly (as the kernel's out-of-memory killer would)."""

    def __init__(self, parent):
        super().__init__()
        self.parent = parent

    def evaluate(self, counts, warn=False):
        if counts is not None and os.getpid() != self.parent:
            os._exit(3)
        return super().evaluate(counts, warn)


def test_a_worker_process_that_dies_is_an_error_not_a_hang(monkeypatch):
    from chimeraboost.resampling import _chunks

    if not sys.platform.startswith("linux"):
        pytest.skip("worker processes are forked on Linux only")
    # Processes whatever threads earlier tests left running (see the test above).
    monkeypatch.setattr(_chunks, "parallel_backend", lambda: "processes")
    with pytest.raises(RuntimeError, match="ended unexpectedly"):
        resampling.bootstrap(_DyingEvaluator(os.getpid()), n_boot=200, random_state=0,
                             chunk_size=2, n_jobs=2)


def test_workers_are_threads_while_the_caller_runs_other_threads(monkeypatch):
    """A fork beside running threads copies the locks they hold: processes only when the
    caller runs one thread (and on Linux, where a process can be forked)."""
    from chimeraboost.resampling import _chunks

    monkeypatch.setattr(threading, "active_count", lambda: 1)
    alone = _chunks.parallel_backend()
    assert alone == ("processes" if sys.platform.startswith("linux") else "threads")
    monkeypatch.undo()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert _chunks.parallel_backend() == "threads"
        # and the numbers stay those of one worker
        res1 = resampling.bootstrap(_RecordingEvaluator(), n_boot=200, random_state=0,
                                    chunk_size=2)
        res2 = resampling.bootstrap(_RecordingEvaluator(), n_boot=200, random_state=0,
                                    chunk_size=2, n_jobs=2)
        np.testing.assert_array_equal(res1.replicates["x"], res2.replicates["x"])
        assert set(res2.replicates["pid"]) == {float(os.getpid())}
    finally:
        stop.set()
        other.join()


@pytest.mark.parametrize("scheme", ["rows", "groups", "time"])
def test_the_jackknife_and_its_intervals_are_the_same_on_two_workers(scheme):
    # BCa's acceleration and the expanded intervals' degrees of freedom come from the grouped
    # jackknife, whose chunks of blocks the workers evaluate (and, with groups or time, the
    # row jackknife of the design effect): n_jobs=1's numbers, bit for bit.
    make = _evaluators()["binary"]
    n = make().n
    units = {} if scheme == "rows" else {scheme: np.arange(n) // 4}
    one = resampling.bootstrap(make(), n_boot=N_BOOT, random_state=6, chunk_size=CHUNK, **units)
    two = resampling.bootstrap(make(), n_boot=N_BOOT, random_state=6, chunk_size=CHUNK,
                               n_jobs=2, **units)
    _equal(two.jackknife, one.jackknife)
    if scheme != "rows":
        _equal(two.row_jackknife, one.row_jackknife)
        assert two.design_effect("brier_skill") == one.design_effect("brier_skill")
    for method in ("expanded_bca", "bca", "expanded_percentile"):
        assert two.intervals(level=0.9, method=method, warn=False) == \
            one.intervals(level=0.9, method=method, warn=False)


@pytest.mark.parametrize("backend", ["processes", "threads"])
def test_the_jackknife_runs_on_the_workers(backend, monkeypatch):
    from chimeraboost.resampling import _chunks

    if backend == "processes" and not sys.platform.startswith("linux"):
        pytest.skip("worker processes are forked on Linux only")
    monkeypatch.setattr(_chunks, "parallel_backend", lambda: backend)
    res = resampling.bootstrap(_RecordingEvaluator(), n_boot=200, random_state=0,
                               chunk_size=2, n_jobs=2)
    here = float(os.getpid()) if backend == "processes" else float(threading.get_ident())
    who = res.jackknife["pid" if backend == "processes" else "thread"]
    assert who.shape == (10,) and here not in set(who)  # 10 rows: a block per row
    # A block left out: the weights of the nine other rows.
    np.testing.assert_array_equal(res.jackknife["x"], np.full(10, 9.0))


def test_a_report_with_groups_is_the_same_on_two_workers():
    # The intervals (their jackknife on the workers), the calibration test (its fits on the
    # workers) and the design effect: every number of n_jobs=1.
    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + rng.normal(size=400) > 0).astype(int)
    model = LogisticRegression().fit(X[:200], y[:200])
    Xt, yt, groups = X[200:], y[200:], np.arange(200) // 5
    for units in ({}, {"groups": groups}, {"time": groups}):
        one = cb.report(model, Xt, yt, ci=0.9, n_boot=300, random_state=0, **units)
        two = cb.report(model, Xt, yt, ci=0.9, n_boot=300, random_state=0, n_jobs=2, **units)
        assert two.ci == one.ci
        numbers = [k for k, v in one.items() if isinstance(v, float)]
        assert "calibration_noise_floor" in numbers and "calibration_pvalue" in numbers
        np.testing.assert_array_equal([two[k] for k in numbers], [one[k] for k in numbers])
        assert (two.dependence is None) == (one.dependence is None)
        if one.dependence is not None:
            assert two.dependence["design_effect"] == one.dependence["design_effect"]
