"""Every public function that takes rows, at 10^5 and 10^6 rows: time against one report with
intervals on the same rows, and peak memory.

Questions it answers:

- Which surface costs more than three reports with intervals on the same rows, or more than
  1 GB at 10^6 rows?  -> the table, one row per surface and size.
- Against what? The named reference, measured in the same run: ``report(model, X, y,
  ci=0.95)`` (2,000 resamples) on the same rows; a surface's time is its CPU time over the
  report's.
- Does the memory of the heaviest surfaces grow faster than the rows?  -> ``--only NAME
  --sizes 1e5 1e6 1e7``: their peak at each size (``choose_threshold`` and
  ``reliability_curve`` with its band hold at most one chunk of ``(B, n)`` values).

Each measurement runs in a fresh Python process: its ``ru_maxrss`` (resource.getrusage) is
its peak resident memory, the inputs and the imports included (the ``inputs`` row: the same
process without a call, about 250 MB at 10^6 rows). Times count the call only, not making the
inputs; the ratio is of CPU seconds, which other work on a shared machine disturbs less than
the wall clock (both are printed, with the 1-minute load average when the call ended).

The rows: four normal features, a logistic outcome (20% positives), a 50-level string column
``store`` (the slices), a customer id (5 rows per customer on average: ``groups=``) and a
date over 24 months, rows in time order (``time=``, ``skill_over_time``). The model is a
logistic regression on the four features fitted on 5,000 other rows; the incumbent a heavily
regularised one. Every surface runs with its defaults (2,000 resamples where it resamples)
except where the row says otherwise.

    python benchmarks/bench_surfaces.py                  # 1e5 and 1e6 rows (about an hour)
    python benchmarks/bench_surfaces.py --quick          # 1e4 rows, 200 resamples (~2 min)
    python benchmarks/bench_surfaces.py --only choose_threshold reliability_curve \\
        --sizes 1e5 1e6 1e7 --n-boot 200               # memory growth of the heaviest
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # this checkout's chimeraboost, here and in the children

SEED = 0
BUDGET_RATIO, BUDGET_MB = 3.0, 1024


def _peak_mb() -> float:
    """This process's peak resident memory (Linux reports ru_maxrss in KB, macOS in bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (2**20 if sys.platform == "darwin" else 2**10)


def load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


# --------------------------------------------------------------------------- the rows


class Rows:
    """The inputs of every surface on ``n`` rows (see the module docstring)."""

    def __init__(self, n: int):
        import numpy as np
        import pandas as pd
        from sklearn.compose import make_column_transformer
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline

        rng = np.random.default_rng(SEED)
        features = ["x1", "x2", "x3", "x4"]
        beta = np.array([1.0, -0.6, 0.4, 0.0])

        def draw(m):
            x = rng.normal(size=(m, 4))
            frame = pd.DataFrame(x, columns=features)
            frame["store"] = stores[rng.integers(0, 50, m)]
            y = (rng.random(m) < 1 / (1 + np.exp(-(x @ beta - 1.6)))).astype(np.int64)
            return frame, y

        def fit(C):
            return make_pipeline(make_column_transformer(("passthrough", features)),
                                 LogisticRegression(C=C)).fit(*train)

        stores = np.array([f"store {i:02d}" for i in range(50)])
        train = draw(5000)
        self.X, self.y = draw(n)
        self.model, self.incumbent = fit(1.0), fit(1e-4)
        self.P = self.model.predict_proba(self.X)
        self.p, self.q = self.P[:, 1], self.incumbent.predict_proba(self.X)[:, 1]
        self.groups = rng.integers(0, max(1, n // 5), n)
        start = np.datetime64("2024-01-01")
        self.when = start + np.sort(rng.integers(0, 730, n)).astype("timedelta64[D]")


def write_file(n: int, path: str) -> None:
    """The CSV the command line reads: the outcome and both models' probabilities."""
    import numpy as np

    rows = Rows(n)
    with open(path, "w") as f:
        f.write("y,p_model,p_incumbent\n")
        np.savetxt(f, np.column_stack([rows.y, rows.p, rows.q]), fmt=["%d", "%.9f", "%.9f"],
                   delimiter=",")


# --------------------------------------------------------------------------- the surfaces


def _cli(args):
    import contextlib

    from chimeraboost.cli import main

    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        status = main([*args, "--quiet"])
    if status:
        msg = f"chimeraboost {' '.join(args)} exited with {status}"
        raise RuntimeError(msg)


def surfaces(n_boot: int):
    """name -> (what the row measures, call(rows, file)). ``n_boot`` None: the defaults."""
    import chimeraboost as cb
    from chimeraboost import compare, decisions, metrics, monitor, slices

    b = {} if n_boot is None else {"n_boot": n_boot}
    b200 = {"n_boot": 200 if n_boot is None else n_boot}
    report = dict(ci=0.95, random_state=0, **b)
    return {
        "inputs": ("the rows and the fitted models alone (no call)", lambda r, f: None),
        "report": ("cb.report(model, X, y, ci=0.95): the reference",
                   lambda r, f: cb.report(r.model, r.X, r.y, **report)),
        "report_groups": ("cb.report(..., ci=0.95, groups=customer)",
                          lambda r, f: cb.report(r.model, r.X, r.y, groups=r.groups, **report)),
        "report_time": ("cb.report(..., ci=0.95, time=date)",
                        lambda r, f: cb.report(r.model, r.X, r.y, time=r.when, **report)),
        "holdout_table": ("compare.holdout_table({model, incumbent}, X, y)",
                          lambda r, f: compare.holdout_table(
                              {"incumbent": r.incumbent, "model": r.model}, r.X, r.y,
                              random_state=0, **b)),
        "compare_holdout": ("compare.compare_holdout(incumbent, model, X, y)",
                            lambda r, f: compare.compare_holdout(r.incumbent, r.model, r.X, r.y,
                                                                 random_state=0, **b)),
        "decision_report": ("decisions.decision_report(y, p, baseline_proba=q, cost_fp=1, "
                            "cost_fn=4)",
                            lambda r, f: decisions.decision_report(
                                r.y, r.p, baseline_proba=r.q, cost_fp=1, cost_fn=4,
                                random_state=0, **b)),
        "decision_curve": ("decisions.decision_curve(y, {model, incumbent}, 99 thresholds)",
                           lambda r, f: decisions.decision_curve(
                               r.y, {"model": r.p, "incumbent": r.q},
                               baseline_name="incumbent", random_state=0, **b)),
        "choose_threshold": ("decisions.choose_threshold(y, p, cost_fp=1, cost_fn=4)",
                             lambda r, f: decisions.choose_threshold(
                                 r.y, r.p, cost_fp=1, cost_fn=4, random_state=0, **b)),
        "rates_at_threshold": ("decisions.rates_at_threshold(y, p, 0.3) (Wilson)",
                               lambda r, f: decisions.rates_at_threshold(r.y, r.p, 0.3)),
        "cost_curve": ("decisions.cost_curve(y, p)",
                       lambda r, f: decisions.cost_curve(r.y, r.p)),
        "slice_report": ("slices.slice_report(y, P, 'store', X=X), 50 slices",
                         lambda r, f: slices.slice_report(r.y, r.P, "store", X=r.X,
                                                          random_state=0, **b)),
        "find_weak_slices": ("slices.find_weak_slices(model, X, y) (default bins)",
                             lambda r, f: slices.find_weak_slices(r.model, r.X, r.y,
                                                                  random_state=0, **b)),
        "calibration_test": ("metrics.calibration_test(y, P, [0, 1])",
                             lambda r, f: metrics.calibration_test(
                                 r.y, r.P, [0, 1], random_state=0,
                                 **({} if n_boot is None else {"n_boot": n_boot}))),
        "reliability_curve": ("metrics.reliability_curve(y, P, [0, 1], n_boot=200) (band)",
                              lambda r, f: metrics.reliability_curve(
                                  r.y, r.P, [0, 1], random_state=0, **b200)),
        "skill_over_time": ("monitor.skill_over_time(y, P, date, ci=0.95), 24 months",
                            lambda r, f: monitor.skill_over_time(r.y, r.P, r.when, ci=0.95,
                                                                 random_state=0, **b)),
        "cli_report": ("chimeraboost report FILE --target y --score p_model",
                       lambda r, f: _cli(["report", f, "--target", "y", "--score", "p_model",
                                          "--seed", "0",
                                          *([] if n_boot is None else
                                            ["--n-boot", str(n_boot)])])),
        "cli_table": ("chimeraboost table FILE --score p_incumbent --score p_model",
                      lambda r, f: _cli(["table", f, "--target", "y", "--score", "p_incumbent",
                                         "--score", "p_model", "--seed", "0",
                                         *([] if n_boot is None else
                                           ["--n-boot", str(n_boot)])])),
    }


def child(name: str, n: int, path: str, n_boot) -> None:
    """One surface on n rows, in this (fresh) process: print one JSON line."""
    warnings.simplefilter("ignore")
    rows = None if name.startswith("cli_") else Rows(n)
    call = surfaces(n_boot)[name][1]
    c0, w0 = time.process_time(), time.perf_counter()
    call(rows, path)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    print(json.dumps({"cpu": cpu, "wall": wall, "peak_mb": _peak_mb(), "load": load()}))


def run(name: str, n: int, path: str, n_boot) -> dict:
    cmd = [sys.executable, os.path.abspath(__file__), "--child", name, "--n", str(n),
           "--file", path] + ([] if n_boot is None else ["--n-boot", str(n_boot)])
    got = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if got.returncode != 0:
        tail = (got.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": f"exit {got.returncode}: {tail}"}
    return json.loads(got.stdout.strip().splitlines()[-1])


def growth(peaks: dict, names: list, sizes: list) -> None:
    """Print how each surface's peak memory grows from one size to the next, beside the
    rows' growth: the peak's ratio, and that of the call's own part (the peak above the
    ``inputs`` row's, when it was measured)."""
    steps = list(zip(sizes, sizes[1:]))
    if not steps:
        return
    print("| surface | rows | rows x | peak MB | peak x | above the inputs x | "
          "no faster than the rows |")
    print("|---|---|---:|---|---:|---:|---|")
    for name in names:
        for a, b in steps:
            if (name, a) not in peaks or (name, b) not in peaks:
                continue
            pa, pb = peaks[name, a], peaks[name, b]
            own = ("-" if name == "inputs" or ("inputs", a) not in peaks
                   or ("inputs", b) not in peaks else
                   f"{(pb - peaks['inputs', b]) / max(pa - peaks['inputs', a], 1.0):.2f}")
            print(f"| {name} | {a:,} -> {b:,} | {b / a:.0f} | {pa:,.0f} -> {pb:,.0f} | "
                  f"{pb / pa:.2f} | {own} | {'yes' if pb / pa <= b / a else '**no**'} |")
    print()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="1e4 rows and 200 resamples: a smoke run")
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e5, 1e6])
    parser.add_argument("--only", nargs="+", help="these surfaces (the report is always run)")
    parser.add_argument("--n-boot", type=int, default=None,
                        help="resamples for every surface (default: each one's own)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.n, args.file, args.n_boot)
        return
    if args.quick:
        args.sizes, args.n_boot = [1e4], args.n_boot or 200
    names = list(surfaces(None))
    if args.only:
        unknown = set(args.only) - set(names)
        if unknown:
            parser.error(f"unknown surfaces {sorted(unknown)}; choose from {names}")
        names = ["report"] + [s for s in names if s in args.only and s != "report"]
    print(f"chimeraboost bench_surfaces: sizes {[f'{int(n):,}' for n in args.sizes]}, "
          f"n_boot {args.n_boot or 'each default'}; load {load():.2f} at the start")
    print()
    print("| surface | rows | CPU s | wall s | CPU / report | peak MB | load | within target |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    peaks = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes):
            path = os.path.join(tmp, f"rows_{n}.csv")
            if any(s.startswith("cli_") for s in names):
                write_file(n, path)
            ref = None
            for name in names:
                got = run(name, n, path, args.n_boot)
                if "error" in got:
                    print(f"| {name} | {n:,} | - | - | - | - | {load():.2f} | {got['error']} |",
                          flush=True)
                    continue
                peaks[name, n] = got["peak_mb"]
                if name == "report":
                    ref = got["cpu"]
                ratio = got["cpu"] / ref if ref and name != "inputs" else float("nan")
                ok = got["peak_mb"] <= BUDGET_MB and (name == "inputs" or ratio <= BUDGET_RATIO)
                print(f"| {name} | {n:,} | {got['cpu']:.1f} | {got['wall']:.1f} | "
                      f"{ratio:.2f} | {got['peak_mb']:,.0f} | {got['load']:.2f} | "
                      f"{'yes' if ok else '**no**'} |", flush=True)
    print()
    growth(peaks, names, [int(s) for s in args.sizes])
    for name in names:
        print(f"{name}: {surfaces(None)[name][0]}")
    print(f"\ntargets at 10^6 rows: CPU <= {BUDGET_RATIO:g}x the report's, peak <= "
          f"{BUDGET_MB:,} MB; load at the end {load():.2f}")


if __name__ == "__main__":
    main()
