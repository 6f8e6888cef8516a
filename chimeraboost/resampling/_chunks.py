"""How are a bootstrap's replicates, and its jackknife, evaluated: chunk by chunk, in one
process or several?

- :func:`evaluate_chunks` draws the chunks of the count matrix (``_draws``) in order and hands
  each to an evaluation function: on the calling thread, or with ``n_jobs > 1`` on that many
  worker processes (where the operating system can fork them safely: Linux, with no other
  thread running) or worker threads (elsewhere;
  :func:`~chimeraboost._shared.workers.parallel_backend`).
- :func:`evaluate_blocks` does the same for the leave-a-block-out weights of the jackknife
  behind BCa's acceleration and the expanded intervals' degrees of freedom, a chunk of blocks
  per task. The numbers are the same, bit for bit, whatever ``n_jobs``.

Why the workers give the same numbers: the random numbers are drawn by the calling thread,
one replicate after another, exactly as a single thread draws them; only counting the drawn
rows and evaluating the chunk move to a worker. The chunks have the same boundaries as on one
thread, a chunk's numbers depend on its counts alone, and a worker runs the same code on the
same arrays (a forked process holds a copy of the caller's), so each chunk's numbers are those
one thread computes, put back in chunk order. The jackknife's blocks are drawn by the calling
thread after the replicates, before its workers are forked.

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
(``threadpoolctl``). Drawing stays on the caller (the generator is sequential): from a
seventh to a quarter of a replicate's time at 100,000 rows (more on a crowded machine), done
while the workers evaluate.
"""

from __future__ import annotations

import mmap
import queue
import threading

import numpy as np

from .._shared import weights as _weights
from .._shared.workers import AHEAD_PER_JOB, Processes, ordered_map, parallel_backend
from ._intervals import _block_weights

__all__ = ["evaluate_blocks", "evaluate_chunks", "parallel_backend"]


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


def evaluate_blocks(evaluate, block: np.ndarray, size: int, *, n_jobs: int) -> list:
    """``[evaluate(weights, work) for each chunk of blocks]``, in block order: ``weights``
    the ``(b, n)`` leave-a-block-out weights of blocks ``start .. start + b - 1`` of
    ``block`` (the block of each row, -1 for none), ``b <= size``; on ``n_jobs`` workers
    as :func:`evaluate_chunks` (the blocks are drawn: nothing is drawn here)."""
    n_blocks = int(block.max()) + 1
    spans = [(start, min(n_blocks, start + size)) for start in range(0, n_blocks, size)]
    local = threading.local()  # a workspace per worker thread (or process)

    def task(span):
        work = getattr(local, "work", None)
        if work is None:
            work = local.work = _weights.Workspace()
        return evaluate(_block_weights(block, *span), work)

    jobs = min(n_jobs, len(spans))
    return ordered_map(task, spans, jobs=jobs,
                       backend=None if jobs <= 1 else parallel_backend())


# --------------------------------------------------------------------------- processes


def _in_processes(evaluate, units, sizes, rng, size, jobs) -> list:
    """The chunks of ``sizes`` on ``jobs`` forked worker processes, in chunk order."""
    slots = jobs * (AHEAD_PER_JOB + 1)
    # The unit indices of the drawn replicates travel through shared memory (an anonymous
    # shared mapping, inherited by the forked workers); the pipes carry slot numbers (and
    # the Poisson scheme's replicate seeds, all it draws).
    dtype = np.dtype(np.int32 if units.n_units < 2**31 else np.intp)
    shared = mmap.mmap(-1, max(1, slots * size * units.n_units * dtype.itemsize))
    draws = np.frombuffer(shared, dtype=dtype).reshape(slots, size, units.n_units)
    mine = {}  # the worker's count buffer and workspace, made in the worker on first use

    def task(job):
        slot, b, small = job
        if not mine:
            mine["buffer"] = np.empty((size, units.n), dtype=np.int64)
            mine["work"] = _weights.Workspace()
        drawn = draws[slot, :b] if small is None else small
        return slot, evaluate(units.count(drawn, mine["buffer"][:b]), mine["work"])

    with Processes(task, jobs, name="chimeraboost-bootstrap") as pool:
        return _dispatch(pool, units, sizes, rng, draws)
    # the mapping is unmapped when the last view of it goes


def _dispatch(pool, units, sizes, rng, draws) -> list:
    """Draw every chunk in order into a free slot, hand it to the least busy worker, and
    collect the numbers; a worker's error is raised here, with its own type."""
    results, free = {}, list(range(draws.shape[0]))

    def take(done):
        for index, (slot, res) in done:
            results[index] = res
            free.append(slot)

    for index, b in enumerate(sizes):
        while not free:
            take(pool.collect())
        slot = free.pop()
        drawn, small = units.draw(rng, b), None
        if getattr(units, "scheme", "multinomial") == "poisson":
            small = drawn  # a seed per replicate: through the pipe
        else:
            for row, d in zip(draws[slot], drawn):
                row[:] = d
        pool.submit(index, (slot, b, small))
    while pool.pending:
        take(pool.collect())
    return [results[i] for i in range(len(sizes))]


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

    # The draws are made on the calling thread, in chunk order, as the workers take them.
    return ordered_map(task, (units.draw(rng, b) for b in sizes), jobs=jobs,
                       backend="threads")
