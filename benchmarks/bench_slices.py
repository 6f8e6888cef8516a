"""The report per slice: how often it cries wolf, how often it finds the weak slice, what it
costs.

Four simulations, each printing its table (times are CPU seconds of this process; the load
average of the machine is printed beside every ratio):

1. **Size.** Every slice has the same true skill: rows get one of 8 slice labels at random
   (unequal shares, 5% to 20%) and the model's probabilities are the true ones. Over
   ``--size-runs`` data sets (2,000; at least 300) of 4,000 rows, and of 1,000 rows (the
   smallest slice then has 50 rows), the share of runs in which ``slice_report`` calls *any*
   slice different from the rest, with Holm's adjustment (target: at most 6% at alpha 0.05
   at 4,000 rows) and with Benjamini-Hochberg's on the same p-values; with a 95% Wilson
   interval for each share.
2. **Power of the search.** One segment of 10% of the rows (one level of a 10-level column,
   beside two numeric columns, a boolean and a 5-level column of noise) where the outcome
   does not follow the model's feature (the model has no skill there), or follows it at a
   third of its strength elsewhere; a logistic regression fitted on separate rows, scored on
   ``--n-search`` rows (5,000). The share of runs in which ``find_weak_slices`` puts exactly
   that segment first (target: at least 80% when the model has no skill there), in which its
   held-out test then calls it worse than the rest, and in which it is among the slices
   reported. With a third of the signal the segment competes with the middle range of the
   model's own feature, where little is left to discriminate (the skill against that range's
   own base rate is low for any model): a structural weakness, found too.
3. **Speed.** 50 slices of a 1,000,000-row table (``--n-speed``): ``slice_report`` and
   ``report(..., by=column, ci=0.95)`` against one ``report(..., ci=0.95)`` on the whole
   table, the same ``--n-boot`` resamples each (target: at most 3x).
4. **Speed of the search with every value a cell.** ``find_weak_slices(bins=None)`` on 1,000
   rows of the power table against one ``report(..., ci=0.95)`` on the same rows (target: at
   most 3x).

Usage::

    python benchmarks/bench_slices.py              # the full sizes (about 20 minutes of CPU)
    python benchmarks/bench_slices.py --quick      # a few runs of each (a minute)
    python benchmarks/bench_slices.py --only size  # one of size, power, speed, search
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np
from sklearn.compose import make_column_transformer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

import chimeraboost as cb
from chimeraboost import compare
from chimeraboost.exceptions import FewResamplesWarning
from chimeraboost.slices import find_weak_slices, slice_report

SHARES = np.array([0.05, 0.08, 0.10, 0.12, 0.14, 0.15, 0.16, 0.20])


def load() -> str:
    try:
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average n/a"


def wilson(k: int, n: int, z: float = 1.959963984540054):
    """95% Wilson score interval of a share k / n."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:6.1%}  [{lo:.1%}, {hi:.1%}]"


# --------------------------------------------------------------------------- 1. size


def null_data(n: int, rng):
    """8 slices of unequal size, the same true skill in each: the model's probabilities are
    the outcome's own."""
    x = rng.normal(size=n)
    p = 1 / (1 + np.exp(-(-0.8 + 1.5 * x)))
    y = (rng.random(n) < p).astype(int)
    group = rng.choice(np.array([f"s{i}" for i in range(8)]), n, p=SHARES)
    return y, p, group


def size(runs: int, sizes, n_boot: int) -> None:
    print(f"1. Size: {runs} data sets per row count, 8 slices with the same true skill (shares "
          f"{', '.join(f'{s:.0%}' for s in SHARES)}), {n_boot:,} resamples each; Holm and "
          "Benjamini-Hochberg on the same p-values.")
    print("   rows   smallest slice  runs with any slice called different [95% CI]  "
          "slices called, of all")
    rates = {}
    for n in sizes:
        rng = np.random.default_rng(20)
        called = {"Holm": 0, "BH": 0}
        slices_called = {"Holm": 0, "BH": 0}
        t0 = time.process_time()
        for r in range(runs):
            y, p, group = null_data(n, rng)
            # calibration=False: the verdicts do not depend on the calibration tests.
            res = slice_report(y, p, group, n_boot=n_boot, random_state=r, calibration=False)
            tested = np.isfinite(res.pvalue)
            for adjust, fn in (("Holm", compare.holm), ("BH", compare.benjamini_hochberg)):
                k = int(fn(res.pvalue[tested]).reject.sum()) if tested.any() else 0
                called[adjust] += k > 0
                slices_called[adjust] += k
        for adjust in called:
            print(f"   {n:5,}  {int(SHARES[0] * n):>5} rows      {adjust:<4}  "
                  f"{share(called[adjust], runs):<38}  {slices_called[adjust]} of {8 * runs}")
        print(f"   ({time.process_time() - t0:.0f} s CPU, {load()})")
        rates[n] = called["Holm"] / runs
    n = sizes[0]
    print(f"   target ({n:,} rows): Holm at most 6% -> {'met' if rates[n] <= 0.06 else 'NOT met'} "
          f"({rates[n]:.2%})")
    print()


# --------------------------------------------------------------------------- 2. power


def planted(n: int, rng, weak_slope: float):
    """A table with one weak segment (c, 10% of the rows) among columns of every kind: the
    outcome follows x with slope 2 elsewhere and ``weak_slope`` in segment c."""
    import pandas as pd

    X = pd.DataFrame({
        "x": rng.normal(size=n),
        "z": rng.normal(size=n),
        "segment": rng.choice(list("abcdefghij"), n),
        "plan": rng.choice(["p1", "p2", "p3", "p4", "p5"], n),
        "member": rng.random(n) < 0.5,
    })
    slope = np.where(X["segment"].to_numpy() == "c", weak_slope, 2.0)
    y = (rng.random(n) < 1 / (1 + np.exp(-(slope * X["x"].to_numpy() - 0.3)))).astype(int)
    return X, y


def on_columns(columns):
    """A logistic regression on some numeric columns of a table (the model under test)."""
    return make_pipeline(make_column_transformer(("passthrough", columns)),
                         LogisticRegression())


DESIGNS = {"no signal in segment c (slope 0)": 0.0,
           "a third of the signal in segment c (slope 2/3)": 2.0 / 3.0}


def power(runs: int, n: int, n_boot: int) -> None:
    print(f"2. Power of the search: {runs} data sets of {n:,} rows per design (searched on "
          "half, judged on the other); a logistic regression on x and z fitted on 5,000 other "
          "rows; segment c is 10% of the rows; searched: all 5 columns, one or two conditions.")
    print("   design                                           c first (exactly)      "
          "c first and called worse  c among the 10 reported")
    rates = {}
    for design, slope in DESIGNS.items():
        rng = np.random.default_rng(21)
        top, called, listed = 0, 0, 0
        t0 = time.process_time()
        for r in range(runs):
            X_train, y_train = planted(5000, rng, slope)
            model = on_columns(["x", "z"]).fit(X_train, y_train)
            X, y = planted(n, rng, slope)
            found = find_weak_slices(model, X, y, n_boot=n_boot, random_state=r,
                                     calibration=False)
            first = found.labels[0] == "segment = c"
            top += first
            called += first and found.verdict[0] == "worse than the rest"
            listed += "segment = c" in found.labels
        rates[design] = top / runs
        print(f"   {design:<48} {share(top, runs):<22} {share(called, runs):<25} "
              f"{share(listed, runs)}")
        print(f"   ({time.process_time() - t0:.0f} s CPU, {load()})")
    first = next(iter(DESIGNS))
    print(f"   target (design '{first}'): first in at least 80% -> "
          f"{'met' if rates[first] >= 0.8 else 'NOT met'} ({rates[first]:.1%})")
    print()


# --------------------------------------------------------------------------- 3. speed


def speed(n: int, n_boot: int) -> None:
    import pandas as pd

    print(f"3. Speed: 50 slices of {n:,} rows against one report with intervals on the whole "
          f"table, {n_boot:,} resamples each.")
    rng = np.random.default_rng(22)
    X = pd.DataFrame({"x": rng.normal(size=n),
                      "store": np.array([f"store {i:02d}" for i in range(50)])[
                          rng.integers(0, 50, n)]})
    y = (rng.random(n) < 1 / (1 + np.exp(-(1.2 * X["x"].to_numpy() - 1.0)))).astype(int)
    model = on_columns(["x"]).fit(X, y)
    proba = model.predict_proba(X)

    def timed(fn):
        c0, w0 = time.process_time(), time.perf_counter()
        out = fn()
        return time.process_time() - c0, time.perf_counter() - w0, out

    whole = timed(lambda: cb.report(model, X, y, ci=0.95, n_boot=n_boot, random_state=0))
    sliced = timed(lambda: slice_report(y, proba, "store", X=X, n_boot=n_boot,
                                        random_state=0))
    both = timed(lambda: cb.report(model, X, y, ci=0.95, n_boot=n_boot, random_state=0,
                                   by="store"))
    assert len(sliced[2].labels) == 50 and len(both[2].slices.labels) == 50
    print(f"   report(ci=0.95), the reference:      {whole[0]:7.1f} s CPU ({whole[1]:.1f} s wall)")
    for label, t in (("slice_report, 50 slices:", sliced),
                     ("report(ci=0.95, by=store), 50:", both)):
        print(f"   {label:<37}{t[0]:7.1f} s CPU ({t[1]:.1f} s wall)  ratio {t[0] / whole[0]:.2f}x"
              f"  ({load()})")
    worst = max(sliced[0], both[0]) / whole[0]
    print(f"   target: at most 3x -> {'met' if worst <= 3 else 'NOT met'} ({worst:.2f}x)")
    print()


def search_speed(n: int, n_boot: int) -> None:
    """``find_weak_slices(bins=None)``: every distinct value of a numeric column is a cell,
    so two such columns cross into about (n / 2)^2 cells of the search half."""
    print(f"4. Speed of the search with bins=None: find_weak_slices on {n:,} rows of the power "
          f"table (segment c without signal) against one report with intervals on the same "
          f"rows, {n_boot:,} resamples each.")
    rng = np.random.default_rng(23)
    X_train, y_train = planted(5000, rng, 0.0)
    model = on_columns(["x", "z"]).fit(X_train, y_train)
    X, y = planted(n, rng, 0.0)
    t0 = time.process_time()
    cb.report(model, X, y, ci=0.95, n_boot=n_boot, random_state=0)
    whole = time.process_time() - t0
    t0 = time.process_time()
    found = find_weak_slices(model, X, y, bins=None, n_boot=n_boot, random_state=0)
    searched = time.process_time() - t0
    print(f"   report(ci=0.95), the reference:       {whole:7.2f} s CPU")
    print(f"   find_weak_slices(bins=None):          {searched:7.2f} s CPU  ratio "
          f"{searched / whole:.2f}x  ({found.search['candidates']:,} candidates, "
          f"{len(found.labels)} reported; {load()})")
    print(f"   target: at most 3x -> {'met' if searched <= 3 * whole else 'NOT met'}")
    print()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few runs of each")
    parser.add_argument("--only", choices=["size", "power", "speed", "search"])
    parser.add_argument("--runs", type=int, default=300, help="data sets per design (power)")
    parser.add_argument("--size-runs", type=int, default=2000,
                        help="data sets per row count (size)")
    parser.add_argument("--n", type=int, nargs="+", default=[4000, 1000],
                        help="rows per data set (size; the first is the target's)")
    parser.add_argument("--n-search", type=int, default=5000, help="rows per data set (power)")
    parser.add_argument("--n-speed", type=int, default=1_000_000, help="rows (speed)")
    parser.add_argument("--n-boot", type=int, default=1000, help="resamples")
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.size_runs, args.n_speed = 20, 20, 100_000
    warnings.simplefilter("ignore", FewResamplesWarning)
    print(f"chimeraboost {cb.__version__}, numpy {np.__version__}; {load()}")
    print()
    if args.only in (None, "size"):
        size(args.size_runs, args.n, args.n_boot)
    if args.only in (None, "power"):
        power(args.runs, args.n_search, args.n_boot)
    if args.only in (None, "speed"):
        speed(args.n_speed, args.n_boot)
    if args.only in (None, "search"):
        search_speed(1000, args.n_boot)


if __name__ == "__main__":
    main()
