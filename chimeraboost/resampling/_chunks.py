"""How are a bootstrap's replicates evaluated: chunk by chunk, on one thread or several?

- :func:`evaluate_chunks` draws the chunks of the count matrix (``_draws``) in order and hands
  each to an evaluation function, on the calling thread or on ``n_jobs`` worker threads. The
  numbers are the same, bit for bit, whatever ``n_jobs``.

Why threads give the same numbers: the random numbers are drawn on the calling thread, one
replicate after another, exactly as a single thread draws them; only counting the drawn rows
and evaluating the chunk move to a worker. The chunks have the same boundaries as on one
thread, and a chunk's numbers depend on its counts alone, so each chunk's numbers are those one
thread computes, put back in chunk order.

Why threads are faster: numpy releases the GIL in the row-length operations that take a
replicate's time (the counting, gathers in score order, cumulative sums, products). Drawing
the random numbers stays on one thread; it is about a fifth of a replicate's time at 100,000
rows (counting the drawn rows, which the workers do, another eighth), so with two free cores
two workers could approach twice the speed of one, and more than two gain less. Measured on a
shared machine with no core free, they were not faster (docs/benchmarks.md, target 6).
"""

from __future__ import annotations

import queue
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._shared import weights as _weights

__all__ = ["evaluate_chunks"]

# Chunks drawn ahead of the one awaited, per worker: enough that no worker waits for the
# drawing thread, few enough that memory stays a handful of chunks whatever n_boot is.
_AHEAD_PER_JOB = 2


def evaluate_chunks(evaluate, units, n_boot: int, *, rng, size: int, n_jobs: int) -> list:
    """``[evaluate(counts, work) for each chunk]``, in chunk order.

    ``counts`` is the ``(b, n)`` int64 count matrix of a chunk of ``b <= size`` replicates
    (a view of a buffer reused by the next chunk: ``evaluate`` must not keep it), ``work`` a
    :class:`~chimeraboost._shared.weights.Workspace` owned by the evaluating thread. With
    ``n_jobs > 1`` the chunks after the first are evaluated on that many threads.
    ``units`` (:class:`~chimeraboost._shared.units.Units`) says what a replicate draws.
    """
    n = units.n
    sizes = [min(size, n_boot - start) for start in range(0, n_boot, size)]
    # The count matrix and the evaluators' buffers are allocated once per thread and reused
    # by every chunk, so memory stays bounded by the chunk whatever n_boot is.
    buffer, work = np.empty((size, n), dtype=np.int64), _weights.Workspace()
    # The first chunk on the calling thread, whatever n_jobs: evaluators build what they
    # compute once (sorts, hulls) on first use, and the workers then only read it.
    out = [evaluate(units.fill(rng, buffer[: sizes[0]]), work)]
    jobs = min(n_jobs, len(sizes) - 1)
    if jobs <= 1:
        out += [evaluate(units.fill(rng, buffer[:b]), work) for b in sizes[1:]]
        return out
    # One (count buffer, workspace) pair per worker; a task takes a free one for its chunk.
    free = queue.SimpleQueue()
    free.put((buffer, work))
    for _ in range(jobs - 1):
        free.put((np.empty((size, n), dtype=np.int64), _weights.Workspace()))

    def task(draws):
        buf, wk = free.get()
        try:
            return evaluate(units.count(draws, buf[: len(draws)]), wk)
        finally:
            free.put((buf, wk))

    pending = deque()
    with ThreadPoolExecutor(jobs, thread_name_prefix="chimeraboost-bootstrap") as pool:
        try:
            for b in sizes[1:]:
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
