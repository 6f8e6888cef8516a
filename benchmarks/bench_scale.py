"""Rows per second and peak memory of the classification report on rows that do not fit in
memory: through ``metrics.ClassificationAccumulator`` (chunks generated one at a time) and
through ``chimeraboost.dask.classification_report`` on a two-process ``LocalCluster`` (blocks
generated on the workers by ``dask.array.random``).

Questions it answers:

- How many rows per second does the accumulator take, and does its peak memory stay flat
  (under 1 GB) from 1e6 to 5e7 rows?  -> the ``accumulator`` rows.
- The same on a dask cluster, counting the workers' memory?  -> the ``dask`` rows.
- Against what? The named reference, measured in the same run: the in-memory
  ``metrics.classification_report`` on all rows at once, at 1e6 and 1e7 rows (its peak
  memory grows with the rows).
- Are the streamed numbers the in-memory ones? At 1e7 rows: the largest difference on the
  exact keys (to rounding) and on the grid keys (ROC AUC, PR AUC, MCB, DSC: the
  accumulator's stated error).
- With intervals on the cluster (``--intervals``): ``classification_report(..., ci=0.95,
  n_boot=500)`` at 1e6 and 1e7 rows, every block adding 500 Poisson bootstrap replicates to
  its accumulator -- the time against the point report on the same cluster and rows, and
  each worker's peak memory (target: at most 1 GB per worker at 1e7 rows).

Each measurement runs in a fresh Python process, whose ``ru_maxrss`` (resource.getrusage)
is its peak resident memory; the dask rows add each worker's ``ru_maxrss`` (client.run).
The rows are binary: ``p ~ Beta(2, 5)`` and ``y ~ Bernoulli(p)`` (a calibrated forecast,
base rate 2/7), float64 probabilities with all-distinct values, so the grid keys are the
approximate ones. Rows per second count the report's own work (``update`` and ``report``,
or the dask graph's compute, which includes generating the blocks on the workers), not the
generation of the accumulator's chunks. The 1-minute load average is printed beside every
row: on a shared machine the rates move with it, the memory does not.

    python benchmarks/bench_scale.py            # 1e6, 1e7, 5e7 rows; about 2 minutes
    python benchmarks/bench_scale.py --quick    # 1e5 and 1e6 rows, a smoke run (~20 s)
    python benchmarks/bench_scale.py --no-dask  # without the cluster
    python benchmarks/bench_scale.py --intervals  # the dask report with 500 replicates
    python benchmarks/bench_scale.py --intervals --quick  # 1e5 and 1e6 rows, 200 replicates
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

CHUNK = 1_000_000  # rows per accumulator chunk and per dask block
EXACT = ("base_rate", "positives", "log_loss", "log_loss_ref", "log_loss_skill", "brier",
         "brier_ref", "brier_skill", "uncertainty_unc", "accuracy", "balanced_accuracy",
         "f1_macro")
GRID = ("roc_auc", "pr_auc", "pr_auc_lift", "calibration_mcb", "discrimination_dsc")
SEED = 0


def _peak_mb() -> float:
    """This process's peak resident memory (Linux reports ru_maxrss in KB, macOS in bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (2**20 if sys.platform == "darwin" else 2**10)


def _chunks(n, chunk=CHUNK):
    """(y, p) chunks of the n rows, from one seeded generator: never more than one chunk
    of rows exists at a time."""
    import numpy as np

    rng = np.random.default_rng(SEED)
    done = 0
    while done < n:
        m = min(chunk, n - done)
        p = rng.beta(2.0, 5.0, m)
        y = (rng.random(m) < p).astype(np.int8)
        yield y, p
        done += m


# --------------------------------------------------------------------------- the children


def child_accumulator(n):
    from chimeraboost.metrics import ClassificationAccumulator

    acc = ClassificationAccumulator([0, 1])
    work = 0.0
    for y, p in _chunks(n):
        t0 = time.perf_counter()
        acc.update(y, p)
        work += time.perf_counter() - t0
    t0 = time.perf_counter()
    rep = acc.report()
    work += time.perf_counter() - t0
    return {"seconds": work, "peak_mb": _peak_mb(), "report": _plain(rep)}


def child_in_memory(n):
    """The reference: every row in memory, one classification_report call. The chunks are
    also fed to an accumulator as they are generated, so the streamed numbers of the very
    same rows come out of this process too (the accumulator is a few hundred KB)."""
    import numpy as np

    from chimeraboost import metrics

    acc = metrics.ClassificationAccumulator([0, 1])
    ys, ps = [], []
    for y, p in _chunks(n):
        acc.update(y, p)
        ys.append(y)
        ps.append(p)
    y, p = np.concatenate(ys), np.concatenate(ps)
    del ys, ps
    t0 = time.perf_counter()
    rep = metrics.classification_report(y, p, [0, 1])
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "peak_mb": _peak_mb(), "report": _plain(rep),
            "streamed": _plain(acc.report())}


def child_dask(n, compare=False, n_boot=0):
    """The dask path; with ``compare``, after the peaks are read, the same rows are brought
    into this process and scored in memory, for the differences; with ``n_boot``, the report
    with 95% intervals from that many Poisson replicates."""
    import warnings

    import dask.array as da
    from dask.distributed import Client, LocalCluster

    from chimeraboost import dask as cbdask

    one = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, env=one) as cluster, Client(cluster) as client:
        t0 = time.perf_counter()
        rng = da.random.default_rng(SEED)
        p = rng.beta(2.0, 5.0, size=n, chunks=CHUNK)
        y = (rng.random(size=n, chunks=CHUNK) < p).astype("int8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # fewer than 1,000 replicates: said in the table
            rep = cbdask.classification_report(y, p, [0, 1], **(
                {"ci": 0.95, "n_boot": n_boot, "random_state": SEED} if n_boot else {}))
        seconds = time.perf_counter() - t0
        out = {"seconds": seconds, "peak_mb": _peak_mb(),
               "workers_mb": sorted(client.run(_peak_mb).values()), "report": _plain(rep)}
        if n_boot:
            out["ci"] = {k: list(rep.ci[k]) for k in ("brier_skill", "roc_auc")}
        if compare:
            from chimeraboost import metrics

            y, p = client.compute([y, p], sync=True)
            out["in_memory"] = _plain(metrics.classification_report(y, p, [0, 1]))
    return out


def _plain(rep):
    import numpy as np

    return {k: (np.asarray(v).tolist() if np.ndim(v) else v) for k, v in rep.items()
            if k in EXACT + GRID + ("n",)}


CHILDREN = {"accumulator": child_accumulator, "in-memory": child_in_memory,
            "dask": child_dask, "dask+compare": lambda n: child_dask(n, compare=True),
            "dask+ci": lambda n, b: child_dask(n, n_boot=b)}


# --------------------------------------------------------------------------- the parent


def measure(kind, n, *extra):
    """Run one measurement in a fresh process; its result and the load beside it."""
    load = os.getloadavg()[0]
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    done = subprocess.run([sys.executable, __file__, "--child", kind, str(n),
                           *(str(x) for x in extra)],
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} at {n:,} rows failed:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out.update(kind=kind, n=n, load=load)
    return out


def row(m):
    workers = m.get("workers_mb")
    shown = f"{max(workers):,.0f} (x{len(workers)})" if workers else "-"
    return (f"| {m['kind']:<11} | {m['n']:>12,} | {m['n'] / m['seconds']:>12,.0f} | "
            f"{m['peak_mb']:>10,.0f} | {shown:>13} | {m['load']:>4.2f} |")


def differences(a, b):
    exact = max(abs(a[k] - b[k]) / max(abs(a[k]), 1e-300) for k in EXACT)
    grid = max(abs(a[k] - b[k]) for k in GRID)
    worst = max(GRID, key=lambda k: abs(a[k] - b[k]))
    return exact, grid, worst


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run")
    parser.add_argument("--no-dask", action="store_true", help="skip the LocalCluster rows")
    parser.add_argument("--intervals", action="store_true",
                        help="the dask report with Poisson-bootstrap intervals only")
    parser.add_argument("--n-boot", type=int, default=None,
                        help="replicates of --intervals (default 500; 200 with --quick)")
    parser.add_argument("--child", nargs="+", metavar="ARG", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, *numbers = args.child
        print(json.dumps(CHILDREN[kind](*(int(x) for x in numbers))))
        return
    if args.intervals:
        intervals(args)
        return
    sizes = [100_000, 1_000_000] if args.quick else [1_000_000, 10_000_000, 50_000_000]
    reference = sizes[:2]
    dask = not args.no_dask
    if dask:
        try:
            import chimeraboost.dask  # noqa: F401
            import distributed  # noqa: F401
        except ImportError as exc:
            print(f"no dask rows: {exc}")
            dask = False
    print(f"bench_scale: {os.cpu_count()} cores, Python {sys.version.split()[0]}; binary rows, "
          f"chunks/blocks of {CHUNK:,}; seconds = the report's work (see the docstring)")
    print()
    print("| path        |         rows |       rows/s | peak MB    | workers' MB   | load |")
    print("|-------------|-------------:|-------------:|-----------:|--------------:|-----:|")
    results = []
    for n in sizes:
        for kind in ("accumulator", *(["dask"] if dask else []),
                     *(["in-memory"] if n in reference else [])):
            m = measure("dask+compare" if kind == "dask" and n == reference[-1] else kind, n)
            m["kind"] = kind
            results.append(m)
            print(row(m), flush=True)
    print()
    print("in-memory: metrics.classification_report on all rows at once (the reference); "
          "workers' MB: the larger of the two dask workers' peaks.")
    big = [m for m in results if m["kind"] == "in-memory" and m["n"] == reference[-1]][0]
    exact, grid, worst = differences(big["report"], big["streamed"])
    print(f"at {big['n']:,} rows, streamed (accumulator) vs in-memory: exact keys largest "
          f"relative difference {exact:.1e}; grid keys largest absolute difference "
          f"{grid:.1e} ({worst})")
    if dask:
        d = [m for m in results if m["kind"] == "dask" and m["n"] == reference[-1]][0]
        exact, grid, worst = differences(d["in_memory"], d["report"])
        print(f"at {d['n']:,} rows, dask vs in-memory on the workers' rows: exact keys largest "
              f"relative difference {exact:.1e}; grid keys largest absolute difference "
              f"{grid:.1e} ({worst})")
    flat = max(m["peak_mb"] for m in results if m["kind"] == "accumulator")
    print(f"accumulator peak memory over all sizes: {flat:,.0f} MB "
          f"({'under' if flat < 1024 else 'OVER'} 1 GB)")


def intervals(args):
    """The dask report with intervals against the point report, on the same cluster and rows."""
    sizes = [100_000, 1_000_000] if args.quick else [1_000_000, 10_000_000]
    n_boot = args.n_boot or (200 if args.quick else 500)
    print(f"bench_scale --intervals: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
          f"binary rows, blocks of {CHUNK:,}; a LocalCluster of 2 worker processes, 1 thread "
          f"each; {n_boot} Poisson replicates, 95% percentile intervals")
    print()
    print("| rows | report | seconds | x point report | workers' peak MB | client MB | "
          "load before | load after |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        point = measure("dask", n)
        point["after"] = os.getloadavg()[0]
        boot = measure("dask+ci", n, n_boot)
        boot["after"] = os.getloadavg()[0]
        for m, what in ((point, "point"), (boot, f"ci, {n_boot} replicates")):
            print(f"| {n:,} | {what} | {m['seconds']:,.1f} | "
                  f"{m['seconds'] / point['seconds']:.1f} | "
                  f"{' / '.join(f'{x:,.0f}' for x in m['workers_mb'])} | "
                  f"{m['peak_mb']:,.0f} | {m['load']:.2f} | {m['after']:.2f} |", flush=True)
        shown = "; ".join(f"{k} {boot['report'][k]:.4f} [{lo:.4f}, {hi:.4f}]"
                          for k, (lo, hi) in boot["ci"].items())
        print(f"|  | at {n:,} rows: {shown} |  |  |  |  |  |  |", flush=True)
    print()
    print("seconds: the graph's compute on the cluster, generating the blocks included; "
          "workers' peak MB: each worker's ru_maxrss (the process, Python and dask included); "
          "load: the 1-minute load average before and after the run.")


if __name__ == "__main__":
    main()
