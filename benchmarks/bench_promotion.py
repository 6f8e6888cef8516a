"""The production path: does the planned test have its power, does the readout's interval
cover, does looking every day keep the error at alpha, do the shadow intervals cover?

Four simulations, each printing a markdown table (with 95% Wilson intervals of each share):

1. **Power at the planned rows.** For a proportion (0.10 against 0.12), a Brier score
   difference and a ROC-AUC difference, :func:`plan_ab_test` plans the rows from the offline
   evidence (200,000 labelled offline rows for the two scored metrics, so that the planned
   effect is the true one), then ``--runs`` (1,000) A/B tests of that many rows per arm are
   read out with :func:`read_ab_test`: the share that promotes (target: the nominal 80%
   within 3 points) and the share whose interval covers the true difference (target: at
   least 93.5%).
2. **Peeking.** No difference (conversion 0.10 in both arms); the plan of 0.10 against 0.12
   with ``K`` looks, the rows arriving evenly over the looks (30 looks: a month of daily
   looks). Over ``--peek-runs`` (2,000) tests: the share in which the fixed test (|z| >= 1.96)
   looked at every look calls a winner, beside Armitage, McPherson & Rowe's (1969) published
   rates, and the share in which the sequential readout does (target at 30 looks: at most 6%).
3. **Shadow intervals.** Two models whose decisions differ on about 10% of 500 live rows:
   the share of ``--shadow-runs`` (1,000) :func:`shadow_report` calls whose flip-rate
   interval covers the true flip rate (target: at least 93%).
4. **Users with many rows** (``--only groups``). Shadow traffic of 100 users sending 8
   requests each, a user's requests scored alike: the share of ``--groups-runs`` (200)
   :func:`shadow_report` calls whose flip-rate interval covers the true flip rate, resampling
   requests and resampling users (``groups=``); and ``--groups-runs`` x 5 readouts of a mean
   (no difference between the arms, 300 users per arm with 1 to 9 rows each, a user's rows
   sharing the user's level), read once: the share whose interval covers 0 with and without
   ``groups_champion=`` / ``groups_challenger=``.

Usage::

    python benchmarks/bench_promotion.py           # the full sizes (a few minutes of CPU)
    python benchmarks/bench_promotion.py --quick   # a few runs of each
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from scipy.special import expit
from scipy.stats import norm

from chimeraboost.promotion import (
    ab_metric,
    lan_demets_bounds,
    plan_ab_test,
    read_ab_test,
    shadow_report,
)

# Armitage, McPherson & Rowe (1969): the chance that a fixed two-sided 5% test looked at K
# equally spaced times calls a difference when there is none.
# How much of x each model misses (standard deviation of the noise it sees x through).
CHAMPION, CHALLENGER = 1.0, 0.8
AMR = {1: 0.05, 2: 0.083, 5: 0.142, 10: 0.193, 30: 0.280}


def wilson(k, n, z=1.959964):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{p:.1%} [{centre - half:.1%}, {centre + half:.1%}]"


# --------------------------------------------------------------------------- the world


def _scored_rows(rng, n, noise):
    """Rows of a world where the outcome follows ``x``; a model sees ``x`` through ``noise``
    (its forecast is shrunk towards the mean by what the noise hides)."""
    x = rng.normal(size=n)
    y = (rng.random(n) < expit(-1.0 + 1.5 * x)).astype(int)
    seen = x + noise * rng.normal(size=n)
    return y, expit(-1.0 + 1.5 * seen / (1.0 + noise**2))


def _cells(rng):
    """(name, plan, draw) per cell: draw(rng, n1, n0) -> (champion, challenger, truth)."""
    cells = []
    plan = plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.12))

    def draw(rng, n1, n0):
        return ({"conversion": (rng.random(n0) < 0.10).astype(float)},
                {"conversion": (rng.random(n1) < 0.12).astype(float)}, 0.02)

    cells.append(("proportion 0.10 vs 0.12", plan, draw))
    for kind in ("brier", "roc_auc"):
        # the same rows seen through each model's noise (as an offline holdout)
        y, p0 = _scored_rows(np.random.default_rng(1), 200_000, CHAMPION)
        _, p1 = _scored_rows(np.random.default_rng(1), 200_000, CHALLENGER)
        m = ab_metric(kind, kind, p0, p1, y=y)
        plan = plan_ab_test(m)
        big0 = _scored_rows(np.random.default_rng(2), 2_000_000, CHAMPION)
        big1 = _scored_rows(np.random.default_rng(2), 2_000_000, CHALLENGER)
        truth = ab_metric(kind, kind, big0[1], big1[1], y=big0[0]).improvement

        def draw(rng, n1, n0, kind=kind, truth=truth):
            return ({kind: _scored_rows(rng, n0, CHAMPION)},
                    {kind: _scored_rows(rng, n1, CHALLENGER)}, truth)

        cells.append((f"{kind} difference", plan, draw))
    return cells


def power_and_coverage(runs, seed=0):
    rng = np.random.default_rng(seed)
    print(f"\n### Power and coverage at the planned rows ({runs:,} tests per cell)\n")
    print("| metric | rows per arm | promoted (target 80% +- 3) | interval covers the truth "
          "(target >= 93.5%) | CPU s |")
    print("| --- | ---: | --- | --- | ---: |")
    for name, plan, draw in _cells(rng):
        start = time.process_time()
        promoted = covered = 0
        for _ in range(runs):
            champion, challenger, truth = draw(rng, plan.n_challenger, plan.n_champion)
            r = read_ab_test(plan, champion, challenger)
            promoted += r.decision == "promote"
            covered += r.primary["low"] <= truth <= r.primary["high"]
        print(f"| {name} | {plan.n_challenger:,} | {wilson(promoted, runs)} | "
              f"{wilson(covered, runs)} | {time.process_time() - start:.1f} |")


def peeking(runs, seed=0):
    print(f"\n### Peeking: no difference, K equally spaced looks ({runs:,} tests per row)\n")
    print("| looks | fixed test looked at every look | published (AMR 1969) | sequential "
          "readout (target at 30 looks: <= 6%) | CPU s |")
    print("| ---: | --- | ---: | --- | ---: |")
    for k in (1, 2, 5, 10, 30):
        # each row its own stream (seed + K), so that a row does not depend on the rows above
        rng = np.random.default_rng(seed + k)
        start = time.process_time()
        plan = plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.12), looks=k)
        n1, n0 = plan.n_challenger, plan.n_champion
        look1, look0 = np.arange(n1) * k // n1, np.arange(n0) * k // n0
        fixed = sequential = 0
        for _ in range(runs):
            a = (rng.random(n1) < 0.10).astype(float)
            b = (rng.random(n0) < 0.10).astype(float)
            r = read_ab_test(plan, {"conversion": b}, {"conversion": a},
                             look_champion=look0, look_challenger=look1)
            last = r.history[-1]
            sequential += abs(last["z"]) >= last["bound"]  # a winner called, either way
            fixed += _peeked(a, b, look1, look0, k)
        print(f"| {k} | {wilson(fixed, runs)} | {AMR[k]:.3f} | {wilson(sequential, runs)} | "
              f"{time.process_time() - start:.1f} |")


def _peeked(a, b, look1, look0, k) -> bool:
    """Whether |z| >= 1.96 at any of the k looks (unpooled z of two proportions)."""
    c1 = np.bincount(look1, weights=a, minlength=k).cumsum()
    c0 = np.bincount(look0, weights=b, minlength=k).cumsum()
    n1 = np.bincount(look1, minlength=k).cumsum()
    n0 = np.bincount(look0, minlength=k).cumsum()
    p1, p0 = c1 / n1, c0 / n0
    se = np.sqrt(p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (p1 - p0) / se
    return bool(np.any(np.abs(z) >= norm.isf(0.025)))


def shadow_coverage(runs, seed=0):
    rng = np.random.default_rng(seed)
    n = 500
    print(f"\n### Shadow: the flip rate's interval ({runs:,} reports of {n} live rows, "
          "1,000 resamples each)\n")
    # Champion and challenger scores correlated at 0.9: decisions at 0.5 differ on a share
    # computed on 2,000,000 rows below.
    def draw(m):
        z0 = rng.normal(size=m)
        z1 = 0.9 * z0 + np.sqrt(1 - 0.81) * rng.normal(size=m)
        return expit(z0), expit(z1)

    big0, big1 = draw(2_000_000)
    truth = float(np.mean((big0 >= 0.5) != (big1 >= 0.5)))
    start = time.process_time()
    covered = 0
    for i in range(runs):
        s0, s1 = draw(n)
        r = shadow_report(s0, s1, threshold=0.5, n_boot=1000, random_state=i)
        low, high = r.intervals["flip_rate"]
        covered += low <= truth <= high
    print("| true flip rate | interval covers it (target >= 93%) | CPU s |")
    print("| ---: | --- | ---: |")
    print(f"| {truth:.4f} | {wilson(covered, runs)} | {time.process_time() - start:.1f} |")


def _user_scores(rng, users, per_user):
    """Both models' scores of ``per_user`` requests from each user: a user's requests share
    the user's latent and how the challenger reads that user differently."""
    u = np.repeat(rng.normal(size=users), per_user)
    v = np.repeat(rng.normal(size=users), per_user)
    z0 = u + 0.3 * rng.normal(size=u.size)
    z1 = 0.9 * z0 + 0.45 * v + 0.1 * rng.normal(size=u.size)
    return expit(z0), expit(z1)


def groups_coverage(runs, seed=0):
    rng = np.random.default_rng(seed)
    users, per_user = 100, 8
    big0, big1 = _user_scores(rng, 250_000, per_user)
    truth = float(np.mean((big0 >= 0.5) != (big1 >= 0.5)))
    user = np.repeat(np.arange(users), per_user)
    print(f"\n### Users with many rows: the shadow flip rate ({runs:,} reports of {users} "
          f"users x {per_user} requests, 1,000 resamples each; true flip rate "
          f"{truth:.4f})\n")
    print("| resampled | interval covers it (target >= 93%) | mean width | CPU s |")
    print("| --- | --- | ---: | ---: |")
    data = [_user_scores(rng, users, per_user) for _ in range(runs)]
    for name, groups in (("requests", None), ("users (groups=)", user)):
        start, covered, width = time.process_time(), 0, 0.0
        for i, (s0, s1) in enumerate(data):
            r = shadow_report(s0, s1, threshold=0.5, n_boot=1000, random_state=i,
                              groups=groups)
            low, high = r.intervals["flip_rate"]
            covered += low <= truth <= high
            width += (high - low) / runs
        print(f"| {name} | {wilson(covered, runs)} | {width:.4f} | "
              f"{time.process_time() - start:.1f} |")
    readouts = 5 * runs
    print(f"\n### Users with many rows: the readout of a mean ({readouts:,} tests, 300 users "
          "per arm with 1 to 9 rows each, no difference, one look)\n")
    print("| standard error | interval covers 0 (target >= 93.5%) | mean width |")
    print("| --- | --- | ---: |")
    plan = plan_ab_test(ab_metric("revenue", "mean", rng.normal(size=500),
                                  rng.normal(0.2, 1, 500), greater_is_better=True))

    def arm():
        rows = rng.integers(1, 10, 300)
        g = np.repeat(np.arange(300), rows)
        return np.repeat(rng.normal(size=300), rows) + rng.normal(size=g.size), g

    tests = [(arm(), arm()) for _ in range(readouts)]
    for name, grouped in (("per row", False), ("per user (groups_*=)", True)):
        covered, width = 0, 0.0
        for (x0, g0), (x1, g1) in tests:
            kw = {"groups_champion": g0, "groups_challenger": g1} if grouped else {}
            m = read_ab_test(plan, {"revenue": x0}, {"revenue": x1}, **kw).primary
            covered += m["low"] <= 0.0 <= m["high"]
            width += (m["high"] - m["low"]) / readouts
        print(f"| {name} | {wilson(covered, readouts)} | {width:.3f} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--peek-runs", type=int, default=2000)
    parser.add_argument("--shadow-runs", type=int, default=1000)
    parser.add_argument("--groups-runs", type=int, default=200)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", choices=("power", "peeking", "shadow", "groups"))
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.peek_runs, args.shadow_runs, args.groups_runs = 100, 200, 50, 20
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    bounds = ", ".join(f"{b:.2f}" for b in lan_demets_bounds(5))
    print(f"Lan-DeMets bounds for 5 looks: {bounds}")
    if args.only in (None, "power"):
        power_and_coverage(args.runs)
    if args.only in (None, "peeking"):
        peeking(args.peek_runs)
    if args.only in (None, "shadow"):
        shadow_coverage(args.shadow_runs)
    if args.only in (None, "groups"):
        groups_coverage(args.groups_runs)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
