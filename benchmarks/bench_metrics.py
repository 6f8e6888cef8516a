"""Time chimeraboost's binary classification_report against the equivalent sklearn calls.

Reference (measured in the same run, on the same arrays): sklearn's log_loss,
brier_score_loss, d2_brier_score, d2_log_loss_score, roc_auc_score,
average_precision_score, and IsotonicRegression fitted and applied per class (the
calibration decomposition), called one after another. Target (issue 2): ratio <= 0.15 at
n = 1,000,000. Also checks that the values agree to 1e-12.

    python benchmarks/bench_metrics.py [--n 1000000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn import metrics as skm
from sklearn.isotonic import IsotonicRegression

from chimeraboost import metrics


def sklearn_equivalent(y, p):
    out = {
        "log_loss": skm.log_loss(y, p),
        "brier": 2 * skm.brier_score_loss(y, p),
        "brier_skill": skm.d2_brier_score(y, p),
        "log_loss_skill": skm.d2_log_loss_score(y, p),
        "roc_auc": skm.roc_auc_score(y, p),
        "pr_auc": skm.average_precision_score(y, p),
    }
    mcb = []
    for event, forecast in ((y, p), (1 - y, 1 - p)):
        recal = IsotonicRegression(out_of_bounds="clip").fit(forecast, event).predict(forecast)
        mcb.append(np.mean((forecast - event) ** 2) - np.mean((recal - event) ** 2))
    out["calibration_mcb"] = float(np.mean(mcb))
    return out


def best_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    y = (rng.random(args.n) < 0.12).astype(np.int64)
    # A realistic score: informative, with ties from 4-decimal rounding.
    p = np.round(1 / (1 + np.exp(-(rng.normal(size=args.n) + 1.5 * y - 2.3))), 4)

    t_ours, ours = best_time(lambda: metrics.classification_report(y, p, [0, 1]), args.repeats)
    t_ref, ref = best_time(lambda: sklearn_equivalent(y, p), args.repeats)
    worst = max(abs(ours[key] - ref[key]) for key in ref)
    print(f"n = {args.n:,} binary rows, best of {args.repeats} runs")
    print(f"chimeraboost classification_report : {t_ours:8.3f} s  (all {len(ours)} numbers)")
    print(f"sklearn equivalent calls           : {t_ref:8.3f} s  ({len(ref)} numbers)")
    print(f"ratio ours / sklearn               : {t_ours / t_ref:8.3f}   (target <= 0.15)")
    print(f"largest |difference| from sklearn  : {worst:.2e}   (target <= 1e-12)")


if __name__ == "__main__":
    main()
