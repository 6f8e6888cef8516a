"""Do more cores make the report with intervals faster? ``n_jobs=2`` against ``n_jobs=1``.

``report(model, X, y, ci=0.95, n_boot=2000, n_jobs=...)`` on ``--n`` binary rows (the data
of ``bench_report.py``), and the bootstrap inside it alone (``resampling.bootstrap`` of the
same evaluator, the part the workers share out). For each, ``--repeats`` interleaved runs
of ``n_jobs=1`` and ``n_jobs=2``; printed per run: the wall-clock seconds, the machine's
1-minute load average, and where the CPU time went -- the calling process (drawing the
replicates, the calibration test, the jackknife) and each worker (counting and evaluating
its chunks) -- with the CPU seconds over the wall-clock seconds (how many cores were busy on
average). The speed-up is the ratio of the median wall-clock times; the numbers of every run
are checked to be identical to ``n_jobs=1``'s.

On Linux the workers are forked processes (``chimeraboost.resampling`` draws the replicates
on the calling thread and hands the chunks to them); ``--threads`` measures worker threads
instead, as on other systems, for comparison.

A speed-up needs free cores: on a machine shared with other jobs the scheduler gives the
benchmark its share whatever its worker count. ``--quiet LOAD`` waits (up to ``--wait``
seconds) for the 1-minute load average to fall below ``LOAD`` before each pair of runs and
says whether it did.

Usage::

    python benchmarks/bench_threads.py                    # 100,000 rows, 2,000 resamples
    python benchmarks/bench_threads.py --quick            # 20,000 rows, 1,000 resamples
    python benchmarks/bench_threads.py --quiet 1.0 --wait 1800
    python benchmarks/bench_threads.py --profile --repeats 1   # where the time goes
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]  # bench_report, and this checkout's package

from bench_report import binary_data, load  # noqa: E402

from chimeraboost import metrics, report, resampling  # noqa: E402
from chimeraboost.resampling import _chunks  # noqa: E402

LEVEL = 0.95


class _WorkerClock:
    """CPU seconds of each worker: a forked worker appends its own at the end of its loop;
    a worker thread's are summed chunk by chunk (``time.thread_time``)."""

    def __init__(self):
        self.path = tempfile.mktemp(prefix="chimeraboost-bench-threads-")
        self.threads = {}
        self._worker, self._eval = _chunks._worker, _chunks.evaluate_chunks
        clock = self

        def worker(*args):
            try:
                self._worker(*args)
            finally:
                with open(clock.path, "a") as f:
                    f.write(f"{os.getpid()} {time.process_time()}\n")

        def evaluate_chunks(evaluate, *args, **kwargs):
            def timed(counts, work):
                t = time.thread_time()
                try:
                    return evaluate(counts, work)
                finally:
                    name = threading.current_thread().name
                    if name.startswith("chimeraboost"):
                        clock.threads[name] = clock.threads.get(name, 0.0) + \
                            time.thread_time() - t
            return self._eval(timed, *args, **kwargs)

        _chunks._worker = worker
        resampling._engine.evaluate_chunks = evaluate_chunks

    def read(self) -> list[float]:
        """CPU seconds of each worker since the last read."""
        out = sorted(self.threads.values())
        self.threads.clear()
        if os.path.exists(self.path):
            with open(self.path) as f:
                out += sorted(float(line.split()[1]) for line in f if line.strip())
            os.remove(self.path)
        return out


def wait_quiet(level, wait) -> bool:
    """Wait until the 1-minute load average is below ``level`` (at most ``wait`` s)."""
    if level is None:
        return True
    stop = time.monotonic() + wait
    while os.getloadavg()[0] >= level:
        if time.monotonic() > stop:
            return False
        time.sleep(5)
    return True


def run(fn, clock):
    """(wall, caller CPU, [worker CPU], load, result) of one call."""
    clock.read()
    load0 = os.getloadavg()[0]
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    workers = clock.read()
    if workers and _chunks.parallel_backend() == "threads":
        cpu -= sum(workers)  # the caller's own share of the process's CPU time
    return wall, cpu, workers, (load0 + os.getloadavg()[0]) / 2, out


def profile(fitted, X, y, ev, n_boot) -> None:
    """Where one worker's time goes (CPU seconds, one process): the whole report, and the
    parts that the workers share out (counting and evaluating the chunks) or that stay on
    the calling thread (drawing the replicates, the calibration test, the jackknife)."""
    from chimeraboost._shared import weights
    from chimeraboost._shared.draws import calibration_draws
    from chimeraboost._shared.units import row_units

    n = ev.n
    units, rng = row_units(n), np.random.default_rng(0)
    size = max(1, 250_000 // n)
    draws = units.draw(rng, size)
    counts, work = np.empty((size, n), dtype=np.int64), weights.Workspace()
    ev.evaluate(units.count(draws, counts), warn=False, work=work)
    chunks = n_boot // size

    def cpu(fn):
        c0 = time.process_time()
        fn()
        return time.process_time() - c0

    parts = {
        "report (n_jobs=1)": cpu(lambda: report(fitted, X, y, ci=LEVEL, n_boot=n_boot,
                                                 random_state=0)),
        "drawing the replicates (caller)": cpu(lambda: [units.draw(rng, size)
                                                        for _ in range(chunks)]),
        "counting the drawn rows (workers)": cpu(lambda: [units.count(draws, counts)
                                                          for _ in range(chunks)]),
        "evaluating the chunks (workers)": cpu(lambda: [ev.evaluate(counts, warn=False,
                                                                    work=work)
                                                        for _ in range(chunks)]),
        "calibration test (caller)": cpu(lambda: metrics.calibration_test(
            y, ev._proba, fitted.classes_, n_boot=calibration_draws(n_boot), random_state=0)),
        "jackknife, 100 blocks (caller)": cpu(lambda: [
            ev.evaluate(w, warn=False, work=work)
            for w in resampling.Resampler(n_boot).jackknife_chunks(
                resampling.jackknife_blocks(n, random_state=0))]),
    }
    whole = parts["report (n_jobs=1)"]
    print(f"where the time goes, one process, CPU seconds ({load()}):")
    for name, t in parts.items():
        print(f"  {name:36s} {t:6.2f} s  ({t / whole:4.0%} of the report)")


def same(a, b) -> bool:
    return a.keys() == b.keys() and all(
        np.allclose(np.asarray(a[k], dtype=float), np.asarray(b[k], dtype=float),
                    rtol=0, atol=1e-12, equal_nan=True) for k in a)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--n-boot", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--threads", action="store_true",
                        help="worker threads instead of forked processes")
    parser.add_argument("--quiet", type=float, default=None,
                        help="wait for the 1-minute load average to fall below this")
    parser.add_argument("--wait", type=float, default=600.0)
    parser.add_argument("--only", choices=("report", "bootstrap"), nargs="+",
                        default=("report", "bootstrap"))
    parser.add_argument("--profile", action="store_true",
                        help="first, where one worker's time goes")
    args = parser.parse_args(argv)
    if args.quick:
        args.n, args.n_boot, args.repeats = 20_000, 1000, 3
    warnings.simplefilter("ignore")
    if args.threads:
        _chunks.parallel_backend = lambda: "threads"
    clock = _WorkerClock()
    fitted, _, X, y = binary_data(args.n)
    ev = metrics.classification_evaluator(y, fitted.classes_, proba=fitted.predict_proba(X))
    jobs = {
        "report": lambda n_jobs: report(fitted, X, y, ci=LEVEL, n_boot=args.n_boot,
                                        random_state=0, n_jobs=n_jobs).ci,
        "bootstrap": lambda n_jobs: resampling.bootstrap(
            ev, n_boot=args.n_boot, random_state=0, n_jobs=n_jobs).replicates,
    }
    kind = "threads" if args.threads else _chunks.parallel_backend()
    print(f"chimeraboost bench_threads: n = {args.n:,}, n_boot = {args.n_boot:,}, workers: "
          f"{kind}, {os.cpu_count()} CPUs; {load()}", flush=True)
    if args.profile:
        profile(fitted, X, y, ev, args.n_boot)
    summary = []
    for what in args.only:
        walls, quiet = {1: [], 2: []}, []
        ref = None
        for _ in range(args.repeats):
            quiet.append(wait_quiet(args.quiet, args.wait))
            for n_jobs in (1, 2):
                wall, cpu, workers, ld, out = run(lambda: jobs[what](n_jobs), clock)
                ref = out if ref is None else ref
                if not same(out, ref):
                    msg = f"{what}(n_jobs={n_jobs}) gave other numbers than n_jobs=1"
                    raise AssertionError(msg)
                walls[n_jobs].append(wall)
                busy = (cpu + sum(workers)) / wall
                print(f"{what:9s} n_jobs={n_jobs}: {wall:6.2f} s wall; CPU s: caller {cpu:.2f}"
                      + "".join(f", worker {w:.2f}" for w in workers)
                      + f"; CPU / wall {busy:.2f}; load {ld:.2f}", flush=True)
        one, two = statistics.median(walls[1]), statistics.median(walls[2])
        note = ("" if args.quiet is None else
                f"; load below {args.quiet} before {sum(quiet)} of {len(quiet)} pairs")
        summary.append(f"{what}: n_jobs=2 vs 1, median wall clock {one:.2f} s / {two:.2f} s "
                       f"= {one / two:.2f}x (target >= 1.6 for the report); numbers "
                       f"identical{note}; {load()}")
    print()
    for line in summary:
        print(line)


if __name__ == "__main__":
    main()
