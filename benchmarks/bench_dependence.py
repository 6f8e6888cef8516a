"""What does resampling whole groups (or blocks of time) cost, against resampling rows?

The target: with ``groups=`` (10,000 groups, 100,000 rows), the report with 2,000 resamples
takes at most 1.5x the time of the same report without groups. Both reports run side by side
in this process on the same rows, alternating, ``--repeats`` times each; the median CPU
seconds (``time.process_time``) of each and their ratio are printed with the machine's load.
The grouped report does more than the plain one: whole groups are drawn (one ``bincount``
over the groups and one gather per replicate, instead of one ``add.at`` over the rows), and
the row jackknife of the design effect adds 100 evaluations to the 100 of the groups'.
``time=`` is timed the same way (one time point per 10 rows).

Usage::

    python benchmarks/bench_dependence.py                  # 100,000 rows, 10,000 groups
    python benchmarks/bench_dependence.py --n 20000 --repeats 1   # a quick look
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings

import numpy as np
from scipy.stats import norm

import chimeraboost as cb


class Fixed:
    """A fitted 'model' whose probabilities are given: the report's cost alone."""

    _estimator_type = "classifier"

    def __init__(self, p):
        self.p, self.classes_ = p, np.array([0, 1])

    def fit(self, X, y):
        return self

    def predict_proba(self, X):
        rows = np.asarray(X)[:, 0].astype(int)
        return np.c_[1 - self.p[rows], self.p[rows]]

    def predict(self, X):
        return (self.predict_proba(X)[:, 1] >= 0.5).astype(int)


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def data(n, groups, seed=0):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    x = rng.normal(size=groups)[g]
    latent = 1.2 * x - 0.8 + np.sqrt(0.5) * rng.normal(size=groups)[g] + np.sqrt(0.5) * \
        rng.normal(size=n)
    y = (latent > 0).astype(int)
    return np.arange(n)[:, None], y, norm.cdf(1.2 * x - 0.8), g


def timed(call) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--groups", type=int, default=10_000)
    ap.add_argument("--n-boot", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    X, y, p, g = data(args.n, args.groups)
    model = Fixed(p)
    t = np.arange(args.n) // 10
    calls = {
        "rows": lambda: cb.report(model, X, y, ci=0.95, n_boot=args.n_boot, random_state=0),
        "groups": lambda: cb.report(model, X, y, ci=0.95, n_boot=args.n_boot, random_state=0,
                                    groups=g),
        "time": lambda: cb.report(model, X, y, ci=0.95, n_boot=args.n_boot, random_state=0,
                                  time=t),
    }
    print(f"report(ci=0.95, n_boot={args.n_boot:,}) on {args.n:,} rows; {args.groups:,} groups; "
          f"{len(np.unique(t)):,} time points; {load()}")
    seconds = {name: [] for name in calls}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(args.repeats):
            for name, call in calls.items():
                seconds[name].append(timed(call))
    base = statistics.median(seconds["rows"])
    print("| resampled | CPU s (median) | ratio to rows | target |")
    print("| --- | ---: | ---: | --- |")
    for name in calls:
        med = statistics.median(seconds[name])
        target = "<= 1.5x" if name == "groups" else ""
        print(f"| {name} | {med:.2f} | {med / base:.2f}x | {target} |")
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
