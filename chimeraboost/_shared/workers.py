"""Which workers share out a stream of tasks, and how: forked processes, threads, or none?

- Can worker processes be forked here? :func:`parallel_backend`.
- Tasks made one after another on the calling thread (their random numbers drawn in order
  from one generator), evaluated on ``jobs`` workers, the results in task order?
  :func:`ordered_map`: the bootstrap's jackknife blocks and the calibration test's isotonic
  fits go through it.
- The forked processes themselves, for a caller that hands them its own shared buffers (the
  bootstrap's drawn rows, :mod:`chimeraboost.resampling._chunks`): :class:`Processes`.

Why the results do not depend on the number of workers: the tasks are made by the calling
thread, in the order one thread makes them, and a task's result depends on the task alone; a
worker runs the same code on the same arrays (a forked process holds a copy of the caller's),
and the results are put back in task order.

Why processes where they can be forked: the tasks here are hundreds of numpy calls on arrays
of a few thousand to a few hundred thousand numbers, each of which holds Python's global
interpreter lock while it dispatches, so two threads spend much of their time waiting for it
(``benchmarks/bench_threads.py --threads``). Forked processes share no lock; a fork costs
milliseconds and copies nothing until written. Each worker runs its BLAS on one thread
(``threadpoolctl``): the workers are the parallelism, and a BLAS pool per worker would fight
them for the same cores.
"""

from __future__ import annotations

import multiprocessing
import pickle
import sys
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import wait

from threadpoolctl import threadpool_limits

__all__ = ["AHEAD_PER_JOB", "Processes", "ordered_map", "parallel_backend"]

# Tasks made ahead of the one awaited, per worker: enough that no worker waits for the
# calling thread, few enough that memory stays a handful of tasks whatever their number.
AHEAD_PER_JOB = 2


def parallel_backend() -> str:
    """``"processes"`` where worker processes can be forked safely, ``"threads"`` elsewhere.

    Safely: on Linux, outside a daemonic process (which may not have children), and while the
    calling process runs a single thread. Forking a process that runs other threads copies
    the locks those threads hold, and a child that needs one of them waits for ever (the
    reason Python 3.12 warns on such a fork and 3.14 stopped forking by default); a notebook
    kernel, a dask client or a web server run threads, so there the workers are threads.
    """
    if not sys.platform.startswith("linux") or "fork" not in \
            multiprocessing.get_all_start_methods():
        return "threads"
    if multiprocessing.current_process().daemon or threading.active_count() > 1:
        return "threads"
    return "processes"


def ordered_map(handler, tasks, *, jobs: int, backend: str | None = None) -> list:
    """``[handler(task) for task in tasks]``, in task order, on ``jobs`` workers.

    ``tasks`` is iterated on the calling thread, lazily: at most
    ``(AHEAD_PER_JOB + 1) * jobs`` tasks wait for a worker, so a generator that draws its
    tasks' random numbers runs beside the workers and in the order one thread runs it.
    With ``jobs <= 1`` everything runs on the calling thread; otherwise on forked processes
    or threads (``backend``, by default :func:`parallel_backend`). With processes, a task
    and its result cross a pipe (pickled), and ``handler`` must not rely on changes it
    makes to its own state being seen by the caller.
    """
    if jobs <= 1:
        return [handler(task) for task in tasks]
    backend = parallel_backend() if backend is None else backend
    if backend == "processes":
        return _map_processes(handler, tasks, jobs)
    return _map_threads(handler, tasks, jobs)


def _map_processes(handler, tasks, jobs) -> list:
    results = {}
    with Processes(handler, jobs) as pool:
        for index, task in enumerate(tasks):
            while pool.pending > AHEAD_PER_JOB * jobs:
                results.update(pool.collect())
            pool.submit(index, task)
        while pool.pending:
            results.update(pool.collect())
    return [results[i] for i in range(len(results))]


def _map_threads(handler, tasks, jobs) -> list:
    out, pending = [], deque()
    # One BLAS thread while the workers run: they are the parallelism.
    with threadpool_limits(limits=1, user_api="blas"), \
            ThreadPoolExecutor(jobs, thread_name_prefix="chimeraboost-worker") as pool:
        try:
            for task in tasks:
                pending.append(pool.submit(handler, task))
                if len(pending) > AHEAD_PER_JOB * jobs:
                    out.append(pending.popleft().result())
            while pending:
                out.append(pending.popleft().result())
        except BaseException:
            for future in pending:  # an error (or ^C) stops the run without evaluating more
                future.cancel()
            raise
    return out


class Processes:
    """``jobs`` forked worker processes, each calling ``handler(task)`` on the tasks it is
    handed and sending the result back: :meth:`submit` hands a task to the least busy one,
    :meth:`collect` waits for results. A worker's error is raised by :meth:`collect` with
    its own type; a worker that dies is a ``RuntimeError`` there, never a hang. Use as a
    context manager: leaving it stops the workers (at once after an error or ^C)."""

    def __init__(self, handler, jobs: int, name: str = "chimeraboost-worker"):
        ctx = multiprocessing.get_context("fork")
        self.workers = []
        try:
            for _ in range(jobs):
                mine, theirs = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(handler, theirs), daemon=True,
                                   name=name)
                proc.start()
                theirs.close()
                self.workers.append(_Worker(proc, mine))
        except BaseException:
            self.close(now=True)
            raise

    def __enter__(self) -> Processes:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        self.close(now=kind is not None)

    @property
    def pending(self) -> int:
        """Tasks handed out whose results have not been collected."""
        return sum(len(w.pending) for w in self.workers)

    def submit(self, index: int, task) -> None:
        """Hand ``task`` (its result to be known as ``index``) to the least busy worker."""
        worker = min(self.workers, key=lambda w: len(w.pending))
        worker.conn.send((index, task))
        worker.pending.append(index)

    def collect(self) -> list:
        """Wait for at least one result: a list of ``(index, result)``."""
        busy = [w for w in self.workers if w.pending]
        ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy])
        out = []
        for w in busy:
            if w.conn not in ready and w.proc.sentinel not in ready:
                continue
            try:
                if w.conn not in ready and not w.conn.poll():
                    raise EOFError
                index, result, error = w.conn.recv()
            except (EOFError, OSError):  # the process is gone, its pipe closed
                w.proc.join(timeout=5)
                msg = (f"A worker process ended unexpectedly (exit code {w.proc.exitcode}), "
                       "perhaps out of memory; run with n_jobs=1 or fewer jobs.")
                raise RuntimeError(msg) from None
            w.pending.remove(index)
            if error is not None:
                raise error
            out.append((index, result))
        return out

    def close(self, now: bool = False) -> None:
        """Stop the workers: when idle, or at once (``now``) without finishing their tasks."""
        for w in self.workers:
            w.stop(now)


class _Worker:
    """A worker process, its pipe, and the tasks handed to it and not yet returned."""

    def __init__(self, proc, conn):
        self.proc, self.conn, self.pending = proc, conn, deque()

    def stop(self, now: bool = False) -> None:
        if self.conn.closed:
            return
        if now:
            self.proc.terminate()
        else:
            try:
                self.conn.send(None)
            except OSError:  # it is gone already
                pass
        self.proc.join()
        self.conn.close()


def _serve(handler, conn) -> None:
    """A worker process's loop: evaluate the tasks it is handed until told to stop
    (``None``) or its caller is gone."""
    with threadpool_limits(limits=1, user_api="blas"):
        while True:
            try:
                task = conn.recv()
            except EOFError:  # the caller is gone
                return
            if task is None:
                return
            index, payload = task
            try:
                conn.send((index, handler(payload), None))
            except BaseException as exc:  # noqa: BLE001 - every error goes to the caller
                conn.send((index, None, _picklable(exc)))


def _picklable(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - an exception that cannot cross the pipe as itself
        return RuntimeError(f"{type(exc).__name__}: {exc}")
