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
from chimeraboost._shared import workers  # noqa: E402
from chimeraboost.metrics import _calibration_draws, _calibration_test  # noqa: E402
from chimeraboost.resampling import _chunks  # noqa: E402

LEVEL = 0.95


class _WorkerClock:
    """CPU seconds of the worker processes and of the caller beside them.

    A report forks a pool of workers for its bootstrap, one for its jackknife and one for
    its calibration test's isotonic fits (``chimeraboost._shared.workers.Processes``). Each
    forked worker appends its CPU seconds at the end of its loop; the caller's CPU seconds
    are read when each pool starts and stops. Worker threads (``--threads``) share the
    process's clock: their CPU time is counted as the caller's."""

    def __init__(self):
        self.path = tempfile.mktemp(prefix="chimeraboost-bench-threads-")
        self.sessions = []  # (worker pids, caller CPU seconds while the pool ran)
        serve, init, close = workers._serve, workers.Processes.__init__, workers.Processes.close
        clock = self

        def timed_serve(*args):
            try:
                serve(*args)
            finally:
                with open(clock.path, "a") as f:
                    f.write(f"{os.getpid()} {time.process_time()}\n")

        def timed_init(pool, *args, **kwargs):
            pool._bench_cpu = time.process_time()
            init(pool, *args, **kwargs)

        def timed_close(pool, now=False):
            close(pool, now)
            if hasattr(pool, "_bench_cpu"):
                clock.sessions.append(({w.proc.pid for w in pool.workers},
                                       time.process_time() - pool._bench_cpu))
                del pool._bench_cpu

        workers._serve = timed_serve
        workers.Processes.__init__, workers.Processes.close = timed_init, timed_close

    def read(self, caller_cpu: float) -> tuple[list[float], float]:
        """CPU seconds of each worker process since the last read, and the wall-clock
        seconds the run would take on two free cores by its CPU times: the caller's CPU
        seconds outside the pools, plus for each pool the larger of the caller's CPU
        seconds beside it and half of the caller's and its workers' together (three
        processes on two cores)."""
        spent = {}
        if os.path.exists(self.path):
            with open(self.path) as f:
                for line in f:
                    if line.strip():
                        pid, cpu = line.split()
                        spent[int(pid)] = float(cpu)
            os.remove(self.path)
        free = caller_cpu
        for pids, caller in self.sessions:
            mine = sum(spent.get(pid, 0.0) for pid in pids)
            free += max(caller, (caller + mine) / 2) - caller
        self.sessions.clear()
        return list(spent.values()), free


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
    """(wall, caller CPU, [worker CPU], wall on two free cores by the CPU times, load,
    result) of one call."""
    clock.read(0.0)
    load0 = os.getloadavg()[0]
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    spent, free = clock.read(cpu)
    return wall, cpu, spent, free, (load0 + os.getloadavg()[0]) / 2, out


def profile(fitted, X, y, ev, n_boot) -> None:
    """Where one worker's time goes (CPU seconds, one process): the whole report, and the
    parts that the workers share out (counting and evaluating the chunks, the jackknife, the
    calibration test's isotonic fits) or that stay on the calling thread (drawing the
    replicates and the calibration test's outcomes)."""
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
        "jackknife, 100 blocks (workers)": cpu(lambda: [
            ev.evaluate(w, warn=False, work=work)
            for w in resampling.Resampler(n_boot).jackknife_chunks(
                resampling.jackknife_blocks(n, random_state=0))]),
    }
    # The calibration test: its outcome draws (the calling thread) and the rest, most of it
    # the isotonic fits of the draws (the workers).
    drawing = [0.0]
    binomial = _calibration_draws.binomial_events

    def timed_binomial(*args):
        c0 = time.process_time()
        try:
            return binomial(*args)
        finally:
            drawing[0] += time.process_time() - c0

    _calibration_draws.binomial_events = timed_binomial
    _calibration_test.binomial_events = timed_binomial
    try:
        whole_test = cpu(lambda: metrics.calibration_test(
            y, ev._proba, fitted.classes_, n_boot=calibration_draws(n_boot), random_state=0))
    finally:
        _calibration_draws.binomial_events = _calibration_test.binomial_events = binomial
    parts["calibration test: drawing the outcomes (caller)"] = drawing[0]
    parts["calibration test: the rest, mostly fits (workers)"] = whole_test - drawing[0]
    whole = parts["report (n_jobs=1)"]
    print(f"where the time goes, one process, CPU seconds ({load()}):")
    for name, t in parts.items():
        print(f"  {name:50s} {t:6.2f} s  ({t / whole:4.0%} of the report)")


def same(a, b) -> bool:
    """Bit for bit (NaN equal to NaN)."""
    return a.keys() == b.keys() and all(
        np.array_equal(np.asarray(a[k], dtype=float), np.asarray(b[k], dtype=float),
                       equal_nan=True) for k in a)


def numbers(r) -> dict:
    """A report's intervals and every number beside them (the calibration test's included)."""
    out = {f"ci {key}": value for key, value in r.ci.items()}
    out.update({key: value for key, value in r.items()
                if isinstance(value, (int, float, np.number))})
    return out


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
        _chunks.parallel_backend = workers.parallel_backend = lambda: "threads"
    clock = _WorkerClock()
    fitted, _, X, y = binary_data(args.n)
    ev = metrics.classification_evaluator(y, fitted.classes_, proba=fitted.predict_proba(X))
    jobs = {
        "report": lambda n_jobs: numbers(report(fitted, X, y, ci=LEVEL, n_boot=args.n_boot,
                                                random_state=0, n_jobs=n_jobs)),
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
        walls, free, quiet, loads = {1: [], 2: []}, {1: [], 2: []}, [], []
        ref = None
        for _ in range(args.repeats):
            quiet.append(wait_quiet(args.quiet, args.wait))
            for n_jobs in (1, 2):
                wall, cpu, spent, alone, ld, out = run(lambda: jobs[what](n_jobs), clock)
                ref = out if ref is None else ref
                if not same(out, ref):
                    msg = f"{what}(n_jobs={n_jobs}) gave other numbers than n_jobs=1"
                    raise AssertionError(msg)
                walls[n_jobs].append(wall)
                free[n_jobs].append(alone)
                loads.append(ld)
                busy = (cpu + sum(spent)) / wall
                print(f"{what:9s} n_jobs={n_jobs}: {wall:6.2f} s wall, load {ld:5.2f}; CPU s: "
                      f"caller {cpu:.2f}, {len(spent)} worker processes {sum(spent):.2f}; "
                      f"CPU / wall {busy:.2f}; on two free cores {alone:.2f} s", flush=True)
            print(f"{what:9s} this pair: {walls[1][-1] / walls[2][-1]:.2f}x wall clock, "
                  f"{free[1][-1] / free[2][-1]:.2f}x by CPU times, load "
                  f"{statistics.mean(loads[-2:]):.2f}", flush=True)
        one, two = statistics.median(walls[1]), statistics.median(walls[2])
        best = max(a / b for a, b in zip(walls[1], walls[2]))
        cpu_ratio = statistics.median(free[1]) / statistics.median(free[2])
        note = ("" if args.quiet is None else
                f"; load below {args.quiet} before {sum(quiet)} of {len(quiet)} pairs")
        summary.append(f"{what}: n_jobs=2 vs 1, median wall clock {one:.2f} s / {two:.2f} s "
                       f"= {one / two:.2f}x (best pair {best:.2f}x), load {min(loads):.2f}-"
                       f"{max(loads):.2f}; by CPU times on two free cores {cpu_ratio:.2f}x "
                       f"(target >= 1.6 for the report); numbers identical{note}; {load()}")
    print()
    for line in summary:
        print(line)


if __name__ == "__main__":
    main()
