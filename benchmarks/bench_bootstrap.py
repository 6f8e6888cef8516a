"""Bootstrap interval of ROC-AUC at n = 100,000: chimeraboost against the per-replicate loop.

The reference is the loop found in most tutorials: draw ``idx`` with replacement, call
``sklearn.metrics.roc_auc_score(y[idx], p[idx])``, repeat. It is timed on ``--ref-boot``
replicates and scaled to ``--n-boot``; chimeraboost's ``resampling.roc_auc_interval`` runs all
``--n-boot`` replicates (and its jackknife; ``ci_method="percentile"``, the interval the loop
computes). Both intervals are printed: they should agree within Monte Carlo error
(the percentile endpoints of a 2,000-replicate bootstrap wobble by about 0.1 standard error
of the AUC; the loop's interval, from fewer replicates, by more).

The speed-up (target: at least 40x) is the ratio of CPU seconds of this process
(``time.process_time``), which other jobs on a shared machine disturb far less than the wall
clock; the wall-clock ratio and the load average are printed beside it.

Usage::

    python benchmarks/bench_bootstrap.py [--n 100000] [--n-boot 2000] [--ref-boot 100]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from sklearn.metrics import roc_auc_score

from chimeraboost import resampling


def make_data(n: int, seed: int = 0):
    """Binormal scores at a 20% base rate: true AUC = Phi(1 / sqrt(2)) = 0.760."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(int)
    score = rng.normal(size=n) + y
    return y, 1.0 / (1.0 + np.exp(-score))


def reference_loop(y, p, n_boot: int, seed: int):
    rng = np.random.default_rng(seed)
    n = y.shape[0]
    aucs = np.empty(n_boot)
    for b in range(n_boot):
        idx = rng.integers(0, n, n)
        aucs[b] = roc_auc_score(y[idx], p[idx])
    return aucs


def timed(fn):
    """``(result, CPU seconds, wall seconds)`` of one call."""
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - t0


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--n-boot", type=int, default=2000)
    parser.add_argument("--ref-boot", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    y, p = make_data(args.n, args.seed)

    (auc, ci, dropped), c_fast, t_fast = timed(lambda: resampling.roc_auc_interval(
        y, p, n_boot=args.n_boot, random_state=args.seed, ci_method="percentile"))
    ref, c_ref, t_ref = timed(lambda: reference_loop(y, p, args.ref_boot, args.seed + 1))
    scale = args.n_boot / args.ref_boot
    c_ref, t_ref = c_ref * scale, t_ref * scale
    ref_lo, ref_hi = np.quantile(ref, [0.025, 0.975])
    delong, _, t_delong = timed(lambda: resampling.delong_roc_auc(y, p))

    se_boot = (ci.high - ci.low) / (2 * 1.959964)
    print(f"n = {args.n:,}, n_boot = {args.n_boot:,}, ROC-AUC = {auc:.5f}")
    print(f"chimeraboost bootstrap : {c_fast:8.2f} s CPU ({t_fast:.2f} s wall)   95% "
          f"[{ci.low:.5f}, {ci.high:.5f}]   ({dropped} replicates dropped)")
    print(f"roc_auc_score loop     : {c_ref:8.2f} s CPU ({t_ref:.2f} s wall)   95% "
          f"[{ref_lo:.5f}, {ref_hi:.5f}]   (timed {args.ref_boot} replicates, scaled to "
          f"{args.n_boot:,})")
    print(f"DeLong (analytic)      : {t_delong:8.2f} s   95% [{delong.low:.5f}, {delong.high:.5f}]"
          f"   se {delong.se:.5f} vs bootstrap se {se_boot:.5f}")
    speed = c_ref / c_fast
    print(f"speed-up over the loop : {speed:.1f}x CPU (wall clock {t_ref / t_fast:.1f}x); "
          f"target >= 40x {'met' if speed >= 40 else 'NOT MET'}; load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
