"""How are a bootstrap's replicates evaluated: chunk by chunk, in one process or several?

- :func:`evaluate_chunks` draws the chunks of the count matrix (``_draws``) in order and hands
  each to an evaluation function: on the calling thread, or with ``n_jobs > 1`` on that many
  worker processes (where the operating system can fork them safely: Linux, with no other
  thread running) or worker threads (elsewhere). The numbers are the same, bit for bit, whatever ``n_jobs``.

Why the workers give the same numbers: the random numbers are drawn by the calling thread,
one replicate after another, exactly as a single thread draws them; only counting the drawn
rows and evaluating the chunk move to a worker. The chunks have the same boundaries as on one
thread, a chunk's numbers depend on its counts alone, and a worker runs the same code on the
same arrays (a forked process holds a copy of the caller's), so each chunk's numbers are those
one thread computes, put back in chunk order.

Why processes rather than threads: a chunk's evaluation is about a thousand Python-level
calls, most of them numpy calls on row-length arrays, and each holds Python's global
interpreter lock while it dispatches; two threads then spend much of their time waiting for
the lock, or handing it over, and each thread's freed temporaries go back to the system and
are faulted in again. Measured on 100,000 rows, two threads were no faster than one
(``benchmarks/bench_threads.py --threads``). Forked processes share no lock: the caller
draws the replicates' unit indices into a shared buffer of a few chunks, each worker counts
and evaluates the chunks it is handed and sends back the chunk's numbers (a few hundred
bytes). A fork costs milliseconds and copies nothing until written (the evaluators, their
sorts and caches, built on the first chunk by the caller, are shared copy-on-write), so it
pays from a fraction of a second of work. Each worker runs its BLAS on one thread
(``threadpoolctl``): the workers are the parallelism, and a BLAS pool per worker would fight
them for the same cores. Drawing stays on the caller (the generator is sequential): about a
fifth of a replicate's time at 100,000 rows, done while the workers evaluate.
"""

from __future__ import annotations

import mmap
import multiprocessing
import pickle
import queue
import sys
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import wait

import numpy as np
from threadpoolctl import threadpool_limits

from .._shared import weights as _weights

__all__ = ["evaluate_chunks", "parallel_backend"]

# Chunks drawn ahead of the one awaited, per worker: enough that no worker waits for the
# drawing thread, few enough that memory stays a handful of chunks whatever n_boot is.
_AHEAD_PER_JOB = 2


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


def evaluate_chunks(evaluate, units, n_boot: int, *, rng, size: int, n_jobs: int) -> list:
    """``[evaluate(counts, work) for each chunk]``, in chunk order.

    ``counts`` is the ``(b, n)`` int64 count matrix of a chunk of ``b <= size`` replicates
    (a view of a buffer reused by the next chunk: ``evaluate`` must not keep it), ``work`` a
    :class:`~chimeraboost._shared.weights.Workspace` owned by the evaluating thread. With
    ``n_jobs > 1`` the chunks after the first are evaluated by that many workers
    (:func:`parallel_backend`); ``evaluate`` then returns plain data (arrays, dicts, lists).
    ``units`` (:class:`~chimeraboost._shared.units.Units`) says what a replicate draws.
    """
    n = units.n
    sizes = [min(size, n_boot - start) for start in range(0, n_boot, size)]
    # The count matrix and the evaluators' buffers are allocated once per worker and reused
    # by every chunk, so memory stays bounded by the chunk whatever n_boot is.
    buffer, work = np.empty((size, n), dtype=np.int64), _weights.Workspace()
    # The first chunk on the calling thread, whatever n_jobs: evaluators build what they
    # compute once (sorts, hulls) on first use, and the workers then only read it.
    out = [evaluate(units.fill(rng, buffer[: sizes[0]]), work)]
    jobs = min(n_jobs, len(sizes) - 1)
    if jobs <= 1:
        out += [evaluate(units.fill(rng, buffer[:b]), work) for b in sizes[1:]]
        return out
    if parallel_backend() == "processes":
        return out + _in_processes(evaluate, units, sizes[1:], rng, size, jobs)
    return out + _in_threads(evaluate, units, sizes[1:], rng, size, jobs, (buffer, work))


# --------------------------------------------------------------------------- processes


def _in_processes(evaluate, units, sizes, rng, size, jobs) -> list:
    """The chunks of ``sizes`` on ``jobs`` forked worker processes, in chunk order."""
    slots = jobs * (_AHEAD_PER_JOB + 1)
    # The unit indices of the drawn replicates travel through shared memory (an anonymous
    # shared mapping, inherited by the forked workers); the pipes carry slot numbers (and
    # the Poisson scheme's replicate seeds, all it draws).
    dtype = np.dtype(np.int32 if units.n_units < 2**31 else np.intp)
    shared = mmap.mmap(-1, max(1, slots * size * units.n_units * dtype.itemsize))
    draws = np.frombuffer(shared, dtype=dtype).reshape(slots, size, units.n_units)
    ctx = multiprocessing.get_context("fork")
    workers = []
    try:
        for _ in range(jobs):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(evaluate, units, draws, size, theirs),
                               daemon=True, name="chimeraboost-bootstrap")
            proc.start()
            theirs.close()
            workers.append(_Worker(proc, mine))
        out = _dispatch(workers, units, sizes, rng, draws)
    except BaseException:
        for w in workers:  # an error (or ^C): stop without evaluating the chunks queued
            w.stop(now=True)
        raise
    finally:
        for w in workers:
            w.stop()
    return out  # the mapping is unmapped when the last view of it goes


class _Worker:
    """A worker process, its pipe, and the chunks handed to it and not yet returned."""

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


def _dispatch(workers, units, sizes, rng, draws) -> list:
    """Draw every chunk in order into a free slot, hand it to the least busy worker, and
    collect the numbers; a worker's error is raised here, with its own type."""
    results, free = {}, list(range(draws.shape[0]))
    for index, b in enumerate(sizes):
        while not free:
            free += _collect(workers, results)
        slot = free.pop()
        drawn, small = units.draw(rng, b), None
        if getattr(units, "scheme", "multinomial") == "poisson":
            small = drawn  # a seed per replicate: through the pipe
        else:
            for row, d in zip(draws[slot], drawn):
                row[:] = d
        worker = min(workers, key=lambda w: len(w.pending))
        worker.conn.send((index, slot, b, small))
        worker.pending.append(index)
    while any(w.pending for w in workers):
        _collect(workers, results)
    return [results[i] for i in range(len(sizes))]


def _collect(workers, results) -> list:
    """Wait for at least one chunk's numbers; returns the slots they free."""
    busy = [w for w in workers if w.pending]
    ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy])
    freed = []
    for w in busy:
        if w.conn not in ready and w.proc.sentinel not in ready:
            continue
        try:
            if w.conn not in ready and not w.conn.poll():
                raise EOFError
            index, slot, res, error = w.conn.recv()
        except (EOFError, OSError):  # the process is gone, its pipe closed
            w.proc.join(timeout=5)
            msg = (f"A bootstrap worker process ended unexpectedly (exit code "
                   f"{w.proc.exitcode}), perhaps out of memory; run with n_jobs=1 or fewer "
                   "jobs.")
            raise RuntimeError(msg) from None
        w.pending.remove(index)
        if error is not None:
            raise error
        results[index] = res
        freed.append(slot)
    return freed


def _worker(evaluate, units, draws, size, conn) -> None:
    """A worker process's loop: count and evaluate the chunks it is handed until told to
    stop (``None``)."""
    buffer, work = np.empty((size, units.n), dtype=np.int64), _weights.Workspace()
    with threadpool_limits(limits=1, user_api="blas"):
        while True:
            try:
                task = conn.recv()
            except EOFError:  # the caller is gone
                return
            if task is None:
                return
            index, slot, b, small = task
            try:
                drawn = draws[slot, :b] if small is None else small
                res = evaluate(units.count(drawn, buffer[:b]), work)
                conn.send((index, slot, res, None))
            except BaseException as exc:  # noqa: BLE001 - every error goes to the caller
                conn.send((index, slot, None, _picklable(exc)))


def _picklable(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - an exception that cannot cross the pipe as itself
        return RuntimeError(f"{type(exc).__name__}: {exc}")


# --------------------------------------------------------------------------- threads


def _in_threads(evaluate, units, sizes, rng, size, jobs, first) -> list:
    """The chunks of ``sizes`` on ``jobs`` worker threads, in chunk order (where processes
    cannot be forked)."""
    n = units.n
    # One (count buffer, workspace) pair per worker; a task takes a free one for its chunk.
    free = queue.SimpleQueue()
    free.put(first)
    for _ in range(jobs - 1):
        free.put((np.empty((size, n), dtype=np.int64), _weights.Workspace()))

    def task(draws):
        buf, wk = free.get()
        try:
            return evaluate(units.count(draws, buf[: len(draws)]), wk)
        finally:
            free.put((buf, wk))

    out, pending = [], deque()
    # One BLAS thread while the workers run: they are the parallelism.
    with threadpool_limits(limits=1, user_api="blas"), \
            ThreadPoolExecutor(jobs, thread_name_prefix="chimeraboost-bootstrap") as pool:
        try:
            for b in sizes:
                pending.append(pool.submit(task, units.draw(rng, b)))
                if len(pending) > _AHEAD_PER_JOB * jobs:
                    out.append(pending.popleft().result())
            while pending:
                out.append(pending.popleft().result())
        except BaseException:
            for future in pending:  # an error (or ^C) stops the run without evaluating more
                future.cancel()
            raise
    return out
