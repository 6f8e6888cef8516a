"""How large must a weak slice be, and how weak, for ``find_weak_slices`` to rank it first?

The design (the overconfident segment of the slices issue): 6,000 rows; a feature ``x ~ N(0,
1)`` and the true probability ``expit(-0.5 + 1.5 x)`` (Brier skill 0.291 against the base rate
0.41); a column ``segment`` of 20 levels, one of which, ``w``, holds ``--rows`` rows (the
other 19 share the rest equally); a column ``z ~ N(0, 1)`` of noise. The model forecasts the
true probability everywhere but in ``w``, where its logit is multiplied by ``k``
(overconfident: ``k = 2`` brings the skill there to 0.242). Every column is searchable; the
model's own feature ``x`` is searched, or kept out with ``exclude="x"``.

Printed: for each slice size and ``k``, the population skill gap (the skill in ``w`` minus
elsewhere, from 2,000,000 drawn rows), and the share of data sets in which ``segment = w`` is
ranked first by the search (a 95% Wilson interval beside it), with ``x`` searched and with
``x`` excluded; the ranking reads the search half only (``--runs`` data sets per cell, the
same data sets for both columns). A last line repeats the issue's cell (300 rows, ``k = 2``)
with ``metric="log_loss_skill"``.

Usage::

    python benchmarks/bench_weak_slices.py             # 100 data sets per cell
    python benchmarks/bench_weak_slices.py --runs 20   # a quick look
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_slices import load, wilson  # noqa: E402 - the same load line and Wilson interval

from chimeraboost import metrics  # noqa: E402
from chimeraboost.slices import find_weak_slices  # noqa: E402

A, B, N = -0.5, 1.5, 6000


class Overconfident(ClassifierMixin, BaseEstimator):
    """The true probability, with its logit multiplied by ``k`` in segment ``w``."""

    def __init__(self, k=2.0):
        self.k = k

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, X):
        lin = A + B * X["x"].to_numpy()
        lin = np.where(X["segment"].to_numpy() == "w", self.k * lin, lin)
        p = expit(lin)
        return np.column_stack([1 - p, p])

    def predict(self, X):
        return (self.predict_proba(X)[:, 1] >= 0.5).astype(int)


def table(rng, rows: int, n: int = N):
    import pandas as pd

    other = np.resize(np.array([f"s{i:02d}" for i in range(19)]), n - rows)
    segment = rng.permutation(np.concatenate([np.full(rows, "w"), other]))
    X = pd.DataFrame({"x": rng.normal(size=n), "z": rng.normal(size=n), "segment": segment})
    y = (rng.random(n) < expit(A + B * X["x"].to_numpy())).astype(int)
    return X, y


def gap(k: float) -> tuple[float, float]:
    """Population Brier skill in ``w`` and elsewhere (each against its own base rate)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=2_000_000)
    p = expit(A + B * x)
    y = (rng.random(x.size) < p).astype(int)
    q = expit(k * (A + B * x))
    inside = metrics.brier_skill(y, np.column_stack([1 - q, q]), classes=[0, 1])
    outside = metrics.brier_skill(y, np.column_stack([1 - p, p]), classes=[0, 1])
    return inside, outside


def first(model, X, y, seed, **kwargs) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = find_weak_slices(model, X, y, n_boot=200, random_state=seed, calibration=False,
                                 top=1, **kwargs)
    return bool(found.labels) and found.labels[0] == "segment = w"


def share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:6.1%} [{lo:5.1%}, {hi:5.1%}]"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="data sets per cell")
    parser.add_argument("--rows", type=int, nargs="+", default=[300, 600, 1200])
    parser.add_argument("--k", type=float, nargs="+", default=[2.0, 3.0, 5.0])
    args = parser.parse_args(argv)
    print(f"{load()}; {args.runs} data sets of {N:,} rows per cell (search on half)")
    print(f"{'slice rows':>10}{'k':>5}{'skill in w':>12}{'elsewhere':>11}{'gap':>8}"
          f"{'w first, x searched':>26}{'w first, exclude=x':>26}{'CPU s':>8}")
    skills = {k: gap(k) for k in args.k}
    for rows in args.rows:
        for k in args.k:
            rng = np.random.default_rng(int(1000 * k) + rows)
            model = Overconfident(k).fit(None, None)
            hits = {"in": 0, "out": 0}
            t0 = time.process_time()
            for r in range(args.runs):
                X, y = table(rng, rows)
                hits["in"] += first(model, X, y, r)
                hits["out"] += first(model, X, y, r, exclude="x")
            inside, outside = skills[k]
            print(f"{rows:>10}{k:>5g}{inside:>12.3f}{outside:>11.3f}{inside - outside:>+8.3f}"
                  f"{share(hits['in'], args.runs):>26}{share(hits['out'], args.runs):>26}"
                  f"{time.process_time() - t0:>8.0f}", flush=True)
    rng = np.random.default_rng(2300)
    model = Overconfident(2.0).fit(None, None)
    hits = {"in": 0, "out": 0}
    for r in range(args.runs):
        X, y = table(rng, 300)
        hits["in"] += first(model, X, y, r, metric="log_loss_skill")
        hits["out"] += first(model, X, y, r, metric="log_loss_skill", exclude="x")
    print(f"{'300, k=2, metric=log_loss_skill':>46}{share(hits['in'], args.runs):>26}"
          f"{share(hits['out'], args.runs):>26}")
    print(load())


if __name__ == "__main__":
    main()
