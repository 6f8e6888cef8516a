"""_shared.workers: tasks made in order on the calling thread, evaluated on forked processes
or threads, the results in task order; a worker's error and a worker's death reach the
caller; the backend is threads while the caller runs other threads.
"""

import os
import sys
import threading

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from chimeraboost._shared import workers

BACKENDS = ["processes", "threads"] if sys.platform.startswith("linux") else ["threads"]


def _where(task):
    blas = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
    return task, os.getpid(), threading.get_ident(), max(blas, default=1)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_come_back_in_task_order_from_the_workers(backend, jobs):
    made = []

    def tasks():  # drawn lazily, one after another, on the calling thread
        rng = np.random.default_rng(0)
        for i in range(40):
            made.append(threading.get_ident())
            yield i, rng.random()

    out = workers.ordered_map(_where, tasks(), jobs=jobs, backend=backend)
    rng = np.random.default_rng(0)
    assert [task for task, *_ in out] == [(i, rng.random()) for i in range(40)]
    assert set(made) == {threading.get_ident()}
    where = {(pid, thread) for _, pid, thread, _ in out}
    if jobs == 1:
        assert where == {(os.getpid(), threading.get_ident())}
    else:
        assert (os.getpid(), threading.get_ident()) not in where and len(where) <= jobs
        # Each worker's BLAS runs on one thread: the workers are the parallelism.
        assert {blas for *_, blas in out} == {1}


def _fail_at_7(task):
    if task == 7:
        msg = f"failed on task {task}"
        raise FloatingPointError(msg)
    return task


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_workers_error_reaches_the_caller_with_its_type(backend):
    with pytest.raises(FloatingPointError, match="task 7"):
        workers.ordered_map(_fail_at_7, range(20), jobs=2, backend=backend)


def test_a_worker_that_dies_is_an_error_not_a_hang():
    if not sys.platform.startswith("linux"):
        pytest.skip("worker processes are forked on Linux only")
    parent = os.getpid()

    def die(task):
        if os.getpid() != parent:
            os._exit(3)
        return task

    with pytest.raises(RuntimeError, match="ended unexpectedly"):
        workers.ordered_map(die, range(20), jobs=2, backend="processes")


def test_processes_only_while_the_caller_runs_one_thread(monkeypatch):
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    alone = workers.parallel_backend()
    assert alone == ("processes" if sys.platform.startswith("linux") else "threads")
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert workers.parallel_backend() == "threads"
