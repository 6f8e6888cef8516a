"""Benchmark: do the decision intervals cover what they claim, and is a decision curve with
bands cheap?

Questions this script answers:

- Do the intervals of sensitivity, specificity, PPV, NPV and the flagged share at n = 200 rows
  cover the population rate at least 93% of the time (95% intervals; Wilson, exact and
  bootstrap)?  -> ``--coverage``.
- When the threshold is chosen on the data (the cost-minimising cutoff), does the interval
  that re-chooses it inside every resample cover the population cost of the chosen cutoff at
  least 90% of the time, and does the naive interval at the threshold held fixed undercover?
  -> ``--threshold``. The population is known in closed form: scores ``s ~ Beta(a, b)`` and
  ``P(y = 1 | s) = g(s)`` (calibrated, or over-confident), so every population rate and cost
  is an integral computed by scipy.
- Does a decision curve with bands (99 thresholds, 2,000 resamples, 100,000 rows) take at
  most 3 times as long as ``cb.report(..., ci=0.95)`` on the same rows?  -> ``--speed``
  (the ratio, printed beside the machine's load).

Run::

    python benchmarks/bench_decisions.py                  # all three, default sizes
    python benchmarks/bench_decisions.py --coverage --reps 2000
    python benchmarks/bench_decisions.py --threshold --reps 1000 --n 200 500
    python benchmarks/bench_decisions.py --speed --rows 100000
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from scipy import integrate, stats

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import chimeraboost as cb  # noqa: E402
from chimeraboost import decisions  # noqa: E402
from chimeraboost.exceptions import DegenerateMetricWarning, FewResamplesWarning  # noqa: E402


def load() -> str:
    try:
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "load average n/a"


# --------------------------------------------------------------------------- the population


class Population:
    """Scores ``s ~ Beta(a, b)``, ``P(y = 1 | s) = s ** gamma`` (gamma = 1: calibrated)."""

    def __init__(self, a, b, gamma=1.0):
        self.a, self.b, self.gamma = a, b, gamma
        self.dist = stats.beta(a, b)
        self.prevalence = self._integral(lambda s: s ** gamma, 0.0, 1.0)

    def _integral(self, f, lo, hi):
        if hi <= lo:
            return 0.0
        return integrate.quad(lambda s: f(s) * self.dist.pdf(s), lo, hi, limit=200)[0]

    def draw(self, rng, n):
        s = self.dist.rvs(size=n, random_state=rng)
        y = (rng.random(n) < s ** self.gamma).astype(int)
        return y, s

    def rates(self, t):
        """Population sensitivity, specificity, PPV, NPV, flagged share of ``s >= t``."""
        g = self.gamma
        tp = self._integral(lambda s: s ** g, t, 1.0)
        fp = self._integral(lambda s: 1 - s ** g, t, 1.0)
        pos, neg = self.prevalence, 1.0 - self.prevalence
        fn, tn = pos - tp, neg - fp
        return {"sensitivity": tp / pos, "specificity": tn / neg, "ppv": tp / (tp + fp),
                "npv": tn / (tn + fn), "flagged": tp + fp}

    def cost(self, t, c_fp, c_fn):
        """Population expected cost per row of treating ``s >= t``."""
        if not np.isfinite(t):
            return c_fn * self.prevalence
        g = self.gamma
        return (c_fp * self._integral(lambda s: 1 - s ** g, t, 1.0)
                + c_fn * self._integral(lambda s: s ** g, 0.0, t))


# --------------------------------------------------------------------------- rate coverage


def coverage(reps, n, seed, n_boot, boot_reps=None):
    pop = Population(2, 3)
    t = 0.4
    truth = pop.rates(t)
    rng = np.random.default_rng(seed)
    hits = {m: dict.fromkeys(truth, 0) for m in ("wilson", "exact", "bootstrap")}
    used = dict.fromkeys(hits, 0)
    for i in range(reps):
        y, s = pop.draw(rng, n)
        for method in hits:
            if method == "bootstrap" and i >= (reps // 4 if boot_reps is None else boot_reps):
                continue  # the bootstrap is slower: a quarter of the reps unless asked
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FewResamplesWarning)
                warnings.simplefilter("ignore", DegenerateMetricWarning)
                r = decisions.rates_at_threshold(y, s, t, method=method, n_boot=n_boot,
                                                 random_state=int(rng.integers(2**31)))
            used[method] += 1
            for rate, v in truth.items():
                lo, hi = r.intervals[rate]
                hits[method][rate] += bool(lo <= v <= hi)
    print(f"\nRate intervals, 95%: coverage of the population rate at threshold {t} "
          f"(s ~ Beta(2, 3), calibrated; n = {n}) -- target >= 93%")
    print(f"{'method':<10} {'reps':>5} " + " ".join(f"{r:>12}" for r in truth) + "  verdict")
    for method, h in hits.items():
        cov = [h[r] / used[method] for r in truth]
        verdict = "met" if min(cov) >= 0.93 else "NOT met"
        print(f"{method:<10} {used[method]:>5} " + " ".join(f"{c:>12.3f}" for c in cov)
              + f"  {verdict}")
    print(f"  ({load()})")


# --------------------------------------------------------------------------- threshold choice


def threshold_coverage(reps, sizes, seed, n_boot):
    c_fp, c_fn = 1.0, 4.0
    designs = {"calibrated, Beta(2, 5)": Population(2, 5),
               "over-confident, Beta(1, 3), P(y|s) = s^0.6": Population(1, 3, 0.6)}
    print(f"\nThreshold chosen on the data (least cost, c_fp = {c_fp:g}, c_fn = {c_fn:g}): "
          "coverage of the population cost of the chosen cutoff by 95% intervals "
          "-- re-chosen target >= 90%, naive shown to undercover")
    print(f"{'design':<44} {'n':>5} {'reps':>5} {'re-chosen':>10} {'naive':>7} "
          f"{'mean optimism':>14} {'true excess':>12}  verdict")
    for label, pop in designs.items():
        for n in sizes:
            rng = np.random.default_rng(seed)
            hit = naive = 0
            opt, excess = [], []
            for _ in range(reps):
                y, s = pop.draw(rng, n)
                if y.min() == y.max():
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", FewResamplesWarning)
                    ch = decisions.choose_threshold(y, s, cost_fp=c_fp, cost_fn=c_fn,
                                                    n_boot=n_boot,
                                                    random_state=int(rng.integers(2**31)))
                true = pop.cost(ch.threshold, c_fp, c_fn)
                hit += ch.interval.low <= true <= ch.interval.high
                naive += ch.naive_interval.low <= true <= ch.naive_interval.high
                opt.append(ch.optimism)
                excess.append(true - ch.apparent)
            done = len(opt)
            verdict = "met" if hit / done >= 0.90 and naive / done < hit / done else "NOT met"
            print(f"{label:<44} {n:>5} {done:>5} {hit / done:>10.3f} {naive / done:>7.3f} "
                  f"{np.mean(opt):>14.4f} {np.mean(excess):>12.4f}  {verdict}")
    print(f"  mean optimism: the bootstrap's estimate of how much the apparent cost flatters "
          f"the chosen cutoff; true excess: its population cost minus the apparent cost. "
          f"({load()})")


# --------------------------------------------------------------------------- speed


def speed(rows, n_boot):
    from sklearn.base import BaseEstimator, ClassifierMixin

    rng = np.random.default_rng(0)
    p = rng.beta(2, 5, rows)
    y = (rng.random(rows) < p).astype(int)

    class Fixed(ClassifierMixin, BaseEstimator):
        """Replays the probabilities p for row numbers X."""

        def fit(self, X, y):
            self.classes_ = np.array([0, 1])
            return self

        def predict_proba(self, X):
            q = p[X[:, 0].astype(int)]
            return np.column_stack([1 - q, q])

        def predict(self, X):
            return (p[X[:, 0].astype(int)] >= 0.5).astype(int)

    X = np.arange(rows, dtype=np.float64)[:, None]
    model = Fixed().fit(X, y)
    t0 = time.perf_counter()
    cb.report(model, X, y, ci=0.95, n_boot=n_boot, random_state=0)
    t1 = time.perf_counter()
    dc = decisions.decision_curve(y, p, n_boot=n_boot, random_state=0)
    t2 = time.perf_counter()
    ratio = (t2 - t1) / (t1 - t0)
    print(f"\nDecision curve with bands ({dc.thresholds.shape[0]} thresholds, {n_boot:,} "
          f"resamples, {rows:,} rows) against cb.report(..., ci=0.95) on the same rows")
    print(f"report {t1 - t0:.2f} s, decision curve {t2 - t1:.2f} s, ratio {ratio:.3f} "
          f"(target <= 3: {'met' if ratio <= 3 else 'NOT met'})  ({load()})")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--coverage", action="store_true")
    ap.add_argument("--threshold", action="store_true")
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--n", type=int, nargs="+", default=[200, 1000])
    ap.add_argument("--n-boot", type=int, default=1000)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bootstrap-reps", type=int, default=None,
                    help="reps of the bootstrap rate intervals (default: a quarter of --reps)")
    args = ap.parse_args(argv)
    every = not (args.coverage or args.threshold or args.speed)
    if args.coverage or every:
        coverage(args.reps, 200, args.seed, args.n_boot, args.bootstrap_reps)
    if args.threshold or every:
        threshold_coverage(args.reps, args.n, args.seed, args.n_boot)
    if args.speed or every:
        speed(args.rows, 2000)


if __name__ == "__main__":
    main()
