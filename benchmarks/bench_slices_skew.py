"""Would a skewness-aware test hold the slices' size? Candidates for ``difference_tests``.

``slice_report(..., groups=customer)`` calls some slice different in 7.2% of null data sets
of the snapshot design at 100 customers (``benchmarks/bench_slices_null.py``, cell 1; target at
most 6%), and almost every false call says "worse than the rest": a skill measured on a dozen
customers is skewed. This script keeps every slice's difference to the rest, its bootstrap
replicates and its units from the same data sets and resamples as ``bench_slices_null.py``
(so the first row of each table is that script's number), adds a leave-one-unit-out
jackknife of the difference computed here from the rows' sums, and reads each candidate test
off the same numbers:

- ``t``: the test of :func:`chimeraboost.resampling.difference_tests`,
  ``2 t_nu(-|d| / se)``, ``se`` the replicates' sd times ``sqrt(u / (u - 1))``, ``nu = u - 1``.
- ``t, bias-corrected``: the same on ``2 d - mean(replicates)`` (the bootstrap's bias
  correction; the difference's skill on a few customers is biased low).
- ``percentile``: twice the share of replicates on the far side of 0 (the level of the
  percentile interval with 0 at its end).
- ``Hall, replicates' skewness``: Hall's (1992) monotone cubic ``T + k T^2 / 3 + k^2 T^3 / 27
  + k / 6`` of the studentized difference, ``k`` the replicates' skewness (Johnson's 1978
  modified t plus Hall's cubic term).
- ``Hall, jackknife skewness``: the same with ``k = 6 a``, ``a`` the jackknife's acceleration
  (the skewness of the difference's linear part).
- ``BCa, replicates' quantiles``: the p-value that inverts the expanded BCa interval
  (Efron 1987; Student's quantile as in ``ci_method="expanded_bca"``), the bootstrap
  distribution read off the replicates, its bias correction from the share below the estimate
  and its acceleration from the jackknife.
- ``BCa, smoothed``: the same, the bootstrap distribution's tail at 0 read from Hall's cubic
  in the replicates' mean, sd and skewness rather than counted (500 replicates hold a handful
  of draws beyond a tail of 0.3%); ``|skewness| <= 1``: the same, its skewness clipped.

Designs: the null cells 1 (G = 100, m = 12, rho = 0.3) and 3 (G = 400, m = 3, rho = 0.7) of
``bench_slices_null.py`` and its 20 unequal slices of independent rows; and two power designs
on cell 1's data: slice 0 given the no-skill forecast (the mean of the others: "worse"), or
every slice but 0 given it (slice 0 "better").

Usage::

    python benchmarks/bench_slices_skew.py                    # every design
    python benchmarks/bench_slices_skew.py --only null --runs 300

It reaches each slice's replicates by wrapping the one function the slices test them with
(``chimeraboost.slices._compute.difference_tests``); nothing else is changed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np
from scipy.special import ndtr, ndtri, stdtr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_slices_null as null  # noqa: E402 - the same designs, data sets and resamples
from bench_slices import load, wilson  # noqa: E402

from chimeraboost.resampling import acceleration, holm  # noqa: E402
from chimeraboost.slices import _compute  # noqa: E402

CAUGHT = []
_TESTS = _compute.difference_tests


def _keep(diff, reps, units, **kwargs):
    CAUGHT.append((np.asarray(diff, float), [np.asarray(r, float) for r in reps],
                   np.asarray(units, float), np.asarray(kwargs.get("eligible"), bool)))
    return _TESTS(diff, reps, units, **kwargs)


_compute.difference_tests = _keep


def jackknife(y, p, unit, by, S):
    """(S,) accelerations of each slice's difference skill(slice) - skill(rest), Brier skill
    against each part's own base rate, one unit left out at a time (from the rows' sums)."""
    u = np.unique(unit, return_inverse=True)[1]
    U = u.max() + 1
    cell = u * S + by
    sums = [np.bincount(cell, w, U * S).reshape(U, S) for w in (2 * (p - y) ** 2, None, y)]
    per_slice = [s.sum(0) for s in sums]
    per_unit = [s.sum(1) for s in sums]

    def skill(b, n, k):
        r = k / n
        return 1 - b / n / (2 * r * (1 - r))

    out = np.full(S, np.nan)
    with np.errstate(all="ignore"):
        for s in range(S):
            own = [t[s] - x[:, s] for t, x in zip(per_slice, sums)]
            rest = [t.sum() - t[s] - (w - x[:, s]) for t, w, x in zip(per_slice, per_unit, sums)]
            out[s] = acceleration(skill(*own) - skill(*rest))
    return out


def moments(reps):
    ok = reps[np.isfinite(reps)]
    m, s = ok.mean(), ok.std(ddof=1)
    return m, s, np.mean((ok - m) ** 3) / np.mean((ok - m) ** 2) ** 1.5


def cubic(z, g):
    """Hall's (1992) monotone cubic: P(Z <= z) ~ Phi(cubic(z, g)) for a standardized Z of
    skewness g (derivative (1 - g z / 6)^2 >= 0)."""
    return z - g / 6 * (z * z - 1) + g * g / 108 * z ** 3


def pvalue(method, d, reps, u, a):
    df = max(u - 1.0, 1.0)
    m, s, g = moments(reps)
    expand = np.sqrt((df + 1) / df)
    T = d / (s * expand)
    if method == "t":
        return 2 * stdtr(df, -abs(T))
    if method == "percentile":
        ok = reps[np.isfinite(reps)]
        below = (np.sum(ok < 0) + 0.5 * np.sum(ok == 0)) / ok.size
        return min(1.0, 2 * min(below, 1 - below))
    if method == "t, bias-corrected":
        return 2 * stdtr(df, -abs(2 * d - m) / (s * expand))
    if method.startswith("Hall"):
        k = g if "replicates" in method else 6 * a
        return 2 * stdtr(df, -abs(T + k * T * T / 3 + k * k * T ** 3 / 27 + k / 6))
    if "quantiles" in method:
        ok = reps[np.isfinite(reps)]
        B = ok.size

        def at(x):
            share = (np.sum(ok < x) + 0.5 * np.sum(ok == x)) / B
            return ndtri(np.clip(share, 0.5 / B, 1 - 0.5 / B))

        z0, q = at(d), at(0.0)
    else:
        if "clipped" in method:
            g = float(np.clip(g, -1, 1))
        z0, q = cubic((d - m) / s, g), cubic(-m / s, g)
    h = q - z0
    w = h / (1 + a * h) if 1 + a * h > 0 else np.copysign(np.inf, h)
    z = (z0 - w) if d > 0 else (w - z0)  # the interval's half-width that puts 0 at its end
    return float(min(1.0, 2 * stdtr(df, -z / expand)))


METHODS = ("t", "t, bias-corrected", "percentile", "Hall, replicates' skewness",
           "Hall, jackknife skewness",
           "BCa, replicates' quantiles", "BCa, smoothed", "BCa, smoothed, skewness clipped")


def run(design, runs, n_boot):
    """Per data set: (difference, replicates, units, eligible, acceleration) of each slice."""
    out = []
    if design == "unequal":
        rng = np.random.default_rng(29)  # bench_slices_null's
    else:
        rng = np.random.default_rng(20261206 if design.startswith("cell") else 7)
    G, m, rho, _, _ = null.CELLS[3] if design == "cell 3" else null.CELLS[1]
    for i in range(runs):
        if design == "unequal":
            y, p, by, _ = null.unequal(rng)
            unit, extra, S = np.arange(y.size), dict(min_rows=30, min_events=5), 20
        else:
            y, p, unit, by, _ = null.snapshots(G, m, rho, rng)
            extra, S = {"groups": unit}, 8
            if design.startswith("power"):
                noskill = (by == 0) if design.endswith("worse") else (by != 0)
                p = np.where(noskill, p[~noskill].mean(), p)
        CAUGHT.clear()
        null._any_called(y, p, by, n_boot, i, **extra)
        d, reps, units, eligible = CAUGHT[0]
        if d.size < S:  # a label drawn by no customer: leave the data set out
            continue
        out.append((d, reps, units, eligible, jackknife(y.astype(float), p, unit, by, S)))
    return out


def table(design, rows, power=None):
    n = len(rows)
    print(f"{design}: {n} data sets")
    for method in METHODS:
        hits = worse = better = tested = 0
        for d, reps, units, eligible, acc in rows:
            p = np.array([pvalue(method, d[s], reps[s], units[s], acc[s])
                          if eligible[s] and np.isfinite(d[s]) else np.nan
                          for s in range(d.size)])
            ok = np.isfinite(p)
            reject = np.zeros(d.size, bool)
            reject[ok] = holm(p[ok]).reject
            if power is None:
                hits += reject.any()
                small = ok & (p < 0.05 / max(ok.sum(), 1))
                worse += np.sum(small & (d < 0))
                better += np.sum(small & (d > 0))
                tested += ok.sum()
            else:
                hits += reject[0] and np.sign(d[0]) == power
        lo, hi = wilson(hits, n)
        line = f"  {method:34}{hits / n:7.2%} [{lo:5.1%}, {hi:5.1%}]"
        if power is None:
            line += f"   worse tail {worse / tested:6.3%}   better tail {better / tested:6.3%}"
        print(line, flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=None,
                        help="data sets per design (2,000 null, 500 unequal, 400 power)")
    parser.add_argument("--n-boot", type=int, default=500)
    parser.add_argument("--only", choices=("null", "power"), default=None)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    print(load())
    designs = []
    if args.only in (None, "null"):
        designs += [("cell 1", 2000, None), ("cell 3", 2000, None), ("unequal", 500, None)]
    if args.only in (None, "power"):
        designs += [("power, slice 0 worse", 400, -1), ("power, slice 0 better", 400, 1)]
    print("Null designs: share of data sets with any slice called different (Holm, alpha "
          "0.05), and the share of tested slices with p < 0.05 / slices on each side "
          "(0.3125% each if exact at 8 slices). Power designs: share calling slice 0 so.")
    for design, runs, power in designs:
        t0 = time.process_time()
        table(design, run(design, args.runs or runs, args.n_boot), power)
        print(f"  ({time.process_time() - t0:.0f} s CPU)", flush=True)
    print(load())


if __name__ == "__main__":
    main()
