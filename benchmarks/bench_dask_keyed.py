"""Time and peak memory per worker of the keyed dask surfaces: ``chimeraboost.dask.slice_report``
(50 slices) and ``skill_over_time`` (monthly periods over two years), with Poisson bootstrap
intervals, on a two-process ``LocalCluster``; beside them the regression report with
intervals and the decision curve (99 thresholds, bands and the paired band against treating
everyone; with ``thresholds=None`` also the passes that find the in-memory default
thresholds).

Questions it answers:

- Does a worker's peak memory stay bounded (target: at most 1 GB) with 50 slices and 500
  replicates, at 1e6 and 1e7 rows?  -> the ``peak MB per worker`` column.
- What does it cost against the report of all rows with the same replicates on the same
  cluster (``chimeraboost.dask.classification_report(..., ci=0.95, n_boot=500)``, the named
  reference, measured in the same run)?  -> the ``x report`` column.

The blocks (1e6 rows each) are generated on the workers by ``dask.array.random``: ``p ~
Beta(2, 5)``, ``y ~ Bernoulli(p)``, a slice label uniform on 0..49 and a day uniform over
730 days. Each measurement starts a fresh cluster, so that a worker's ``ru_maxrss``
(resource.getrusage, read with ``client.run``) is that measurement's peak. The 1-minute load
average is printed beside each row: on a shared machine the time moves with it, the memory
does not.

Run::

    python benchmarks/bench_dask_keyed.py            # 1e6 rows
    python benchmarks/bench_dask_keyed.py 10000000   # 1e7 rows
    python benchmarks/bench_dask_keyed.py 10000000 regression_report decision_curve
        # the report (the reference, always measured first) and these rows only
"""

from __future__ import annotations

import os
import resource
import sys
import time
import warnings

import numpy as np

CHUNK = 1_000_000
N_BOOT = 500


def _peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KB


def _inputs(n):
    import dask.array as da

    rs = da.random.RandomState(0)
    p = rs.beta(2, 5, size=n, chunks=CHUNK)
    y = (rs.random_sample(size=n, chunks=CHUNK) < p).astype(np.int64)
    by = rs.randint(0, 50, size=n, chunks=CHUNK)
    day = (np.datetime64("2023-01-01", "ns")
           + rs.randint(0, 730, size=n, chunks=CHUNK) * np.timedelta64(1, "D"))
    # A regression target and its prediction on the same blocks: y = 10 p + noise.
    target = 10 * p + rs.normal(0.0, 1.0, size=n, chunks=CHUNK)
    pred = 10 * p + rs.normal(0.0, 0.5, size=n, chunks=CHUNK)
    return y, p, by, day, target, pred


def measure(what: str, n: int):
    import dask
    from dask.distributed import Client, LocalCluster

    from chimeraboost import dask as cbd

    one = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    with dask.config.set({f"distributed.nanny.pre-spawn-environ.{k}": v
                          for k, v in one.items()}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                         dashboard_address=":0", memory_limit="4GB") as cluster, \
            Client(cluster) as client, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y, p, by, day, target, pred = _inputs(n)
        start = time.perf_counter()
        if what == "report":
            cbd.classification_report(y, p, [0, 1], ci=0.95, n_boot=N_BOOT, random_state=0)
        elif what == "regression_report":
            cbd.regression_report(target, pred, ci=0.95, n_boot=N_BOOT, random_state=0)
        elif what.startswith("decision_curve"):
            thresholds = None if what.endswith("default") else np.linspace(0.01, 0.99, 99)
            cbd.decision_curve(y, p, thresholds=thresholds, baseline_name="treat all",
                               n_boot=N_BOOT, random_state=0)
        elif what == "slice_report":
            cbd.slice_report(y, p, by, classes=[0, 1], n_boot=N_BOOT, random_state=0)
        else:
            cbd.skill_over_time(y, p, day, classes=[0, 1], ci=0.95, n_boot=N_BOOT,
                                random_state=0)
        seconds = time.perf_counter() - start
        peaks = client.run(_peak_mb)
    return seconds, max(peaks.values())


def main(n: int, only=()) -> None:
    print(f"{n:,} rows in blocks of {CHUNK:,}, {N_BOOT} replicates, 2 workers of 1 thread")
    print(f"uptime: {os.popen('uptime').read().strip()}")
    print(f"{'what':32} {'seconds':>8} {'x report':>9} {'peak MB per worker':>19} {'load':>5}")
    base = None
    for what, label in (("report", "classification_report (all rows)"),
                        ("slice_report", "slice_report (50 slices)"),
                        ("skill_over_time", "skill_over_time (24 months)"),
                        ("regression_report", "regression_report (ci=0.95)"),
                        ("decision_curve", "decision_curve (99 thresholds)"),
                        ("decision_curve default", "decision_curve (thresholds=None)")):
        if only and what != "report" and what not in only:
            continue
        seconds, peak = measure(what, n)
        base = base or seconds
        print(f"{label:32} {seconds:8.1f} {seconds / base:9.2f} {peak:19.0f} "
              f"{os.getloadavg()[0]:5.1f}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000, tuple(sys.argv[2:]))
