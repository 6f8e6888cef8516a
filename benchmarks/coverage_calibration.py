"""Coverage, size, power and bias of the calibration test (``metrics.calibration_test``).

Questions this script answers, by simulation from data-generating models whose population
miscalibration is known (computed by numerical integration):

- Does the 95% interval for the population MCB cover it, for a calibrated forecast (truth 0)
  and a miscalibrated one? -> ``coverage`` per cell.
- Does the test reject a calibrated forecast at most 5% of the time (size), and a
  miscalibrated one most of the time (power)? -> ``reject 5%``.
- Is ``excess`` nearly unbiased? -> ``mean excess`` against ``truth``.
- Did the old percentile bootstrap of the in-sample MCB cover? -> ``percentile`` (the
  interval the report printed before the calibration test; 0% is the finding that started it).

Designs (not tuned to one): x ~ N(0, 1); true probability F(a + 1.5 x) with F the logistic
(``logit``) or normal (``probit``) CDF, ``a`` set for the base rate; the calibrated forecast is
the true probability, the miscalibrated one pushes it away from 1/2 in logit units,
``expit(1.4 logit(pi))`` (overconfident). Extra cells: random weights; three classes
(probabilities from a softmax of three linear scores; miscalibrated: logits times 1.4).

Run (``--quick``: 100 data sets per cell; default 400)::

    python benchmarks/coverage_calibration.py [--quick] [--reps N] [--n-boot B]

``benchmarks/coverage.py`` runs these rows with the other intervals' coverage.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from scipy import integrate, optimize, stats
from scipy.special import expit, logit, softmax

import chimeraboost as cb

SLOPE = 1.5  # of the true probability in x
MISCALIBRATION = 1.4  # the miscalibrated forecast: expit(1.4 logit(pi))


def _cdf(link):
    return expit if link == "logit" else stats.norm.cdf


def _intercept(base_rate, link):
    F = _cdf(link)
    mean = lambda a: integrate.quad(lambda x: F(a + SLOPE * x) * stats.norm.pdf(x), -12, 12)[0]
    return optimize.brentq(lambda a: mean(a) - base_rate, -20, 20)


def _forecast(pi, miscalibrated):
    if not miscalibrated:
        return pi
    return expit(MISCALIBRATION * logit(np.clip(pi, 1e-300, 1 - 1e-16)))


def truth_binary(base_rate, link, miscalibrated) -> float:
    """Population MCB: E[(f(pi) - pi)^2] (the forecast is a monotone function of the truth,
    so the true recalibration of the forecast is pi itself)."""
    if not miscalibrated:
        return 0.0
    a, F = _intercept(base_rate, link), _cdf(link)

    def integrand(x):
        pi = F(a + SLOPE * x)
        return (_forecast(pi, True) - pi) ** 2 * stats.norm.pdf(x)

    return integrate.quad(integrand, -12, 12, limit=400)[0]


def _multiclass_scores(x):
    return np.column_stack([np.zeros(x.shape[0]), 1.2 * x[:, 0], 0.5 - 0.8 * x[:, 1]])


def truth_multiclass(miscalibrated, n=2_000_000, seed=12345) -> float:
    """Population MCB averaged over 3 classes, by a very large sample: the true recalibration
    of a forecast that is a one-to-one function of the scores is the true probability; per
    class the forecast's true event rate is E[pi_k | f_k], estimated by isotonic regression
    of pi_k on f_k over 2 million draws."""
    if not miscalibrated:
        return 0.0
    x = np.random.default_rng(seed).standard_normal((n, 2))
    s = _multiclass_scores(x)
    pi, f = softmax(s, axis=1), softmax(MISCALIBRATION * s, axis=1)
    from scipy.optimize import isotonic_regression

    out = []
    for k in range(3):
        order = np.argsort(f[:, k])
        c = isotonic_regression(pi[order, k]).x
        out.append(np.mean((f[order, k] - c) ** 2))
    return float(np.mean(out))


def simulate(cell, reps, n_boot, seed=0):
    rng = np.random.default_rng(seed)
    n, base_rate, link, miscal, kind = (cell[k] for k in ("n", "base_rate", "link",
                                                          "miscalibrated", "kind"))
    rows = []
    if kind == "multiclass":
        truth = truth_multiclass(miscal)
    else:
        truth = truth_binary(base_rate, link, miscal)
        a = _intercept(base_rate, link)
    for r in range(reps):
        if kind == "multiclass":
            x = rng.standard_normal((n, 2))
            s = _multiclass_scores(x)
            pi = softmax(s, axis=1)
            f = softmax(MISCALIBRATION * s, axis=1) if miscal else pi
            y = (rng.random(n)[:, None] > np.cumsum(pi, axis=1)[:, :-1]).sum(axis=1)
            classes, w = [0, 1, 2], None
        else:
            x = rng.standard_normal(n)
            pi = _cdf(link)(a + SLOPE * x)
            f = _forecast(pi, miscal)
            y = (rng.random(n) < pi).astype(int)
            classes = [0, 1]
            w = rng.uniform(0.2, 1.8, n) if kind == "weighted" else None
        res = cb.metrics.calibration_test(y, f, classes, sample_weight=w, n_boot=n_boot,
                                          random_state=rng)
        low, high = res.confidence_interval(level=0.95)
        rows.append((res.statistic, res.noise_floor, res.excess, res.pvalue, low, high))
    a = np.array(rows)
    return dict(cell, truth=truth, mean_mcb=a[:, 0].mean(), noise_floor=a[:, 1].mean(),
                mean_excess=a[:, 2].mean(), reject=np.mean(a[:, 3] <= 0.05),
                coverage=np.mean((a[:, 4] <= truth) & (truth <= a[:, 5])),
                width=np.mean(a[:, 5] - a[:, 4]), reps=reps)


CELLS = [
    dict(kind="binary", link="logit", n=n, base_rate=br, miscalibrated=m)
    for m in (False, True) for n in (200, 2000) for br in (0.5, 0.05)
] + [
    dict(kind="binary", link="probit", n=2000, base_rate=br, miscalibrated=m)
    for m in (False, True) for br in (0.5, 0.05)
] + [
    dict(kind="weighted", link="logit", n=2000, base_rate=0.5, miscalibrated=m)
    for m in (False, True)
] + [
    dict(kind="multiclass", link="softmax", n=2000, base_rate=float("nan"), miscalibrated=m)
    for m in (False, True)
]


def targets(row) -> list[str]:
    """The targets that apply to a row, each as 'name: met/NOT met'."""
    out = []
    n, br, miscal = row["n"], row["base_rate"], row["miscalibrated"]
    main = row["kind"] == "binary" and row["link"] == "logit"
    need = 0.90 if n == 2000 else (0.85 if br == 0.5 else None)
    if need is not None:
        out.append(f"coverage >= {need:.0%}: {'met' if row['coverage'] >= need else 'NOT met'}")
    if not miscal:
        out.append(f"size <= 6%: {'met' if row['reject'] <= 0.06 else 'NOT met'}")
    if main and miscal and n == 2000 and br == 0.5:
        out.append(f"power >= 90%: {'met' if row['reject'] >= 0.90 else 'NOT met'}")
    if n == 2000:
        err = abs(row["mean_excess"] - row["truth"])
        ok = err <= (1e-4 if row["truth"] == 0 else 0.2 * row["truth"])
        out.append(f"bias <= {'1e-4' if row['truth'] == 0 else '20%'}: "
                   f"{'met' if ok else 'NOT met'}")
    return out


def table(rows) -> str:
    head = (f"{'design':<10} {'forecast':<14} {'n':>5} {'rate':>5} {'truth':>8} "
            f"{'mean MCB':>9} {'floor':>8} {'excess':>9} {'reject5%':>8} {'coverage':>8} "
            f"{'width':>8}  targets")
    lines = [head, "-" * len(head)]
    for r in rows:
        design = r["kind"] if r["kind"] != "binary" else r["link"]
        forecast = "miscalibrated" if r["miscalibrated"] else "calibrated"
        rate = "-" if np.isnan(r["base_rate"]) else f"{r['base_rate']:.2f}"
        lines.append(
            f"{design:<10} {forecast:<14} {r['n']:>5} {rate:>5} {r['truth']:>8.5f} "
            f"{r['mean_mcb']:>9.5f} {r['noise_floor']:>8.5f} {r['mean_excess']:>+9.5f} "
            f"{r['reject']:>8.1%} {r['coverage']:>8.1%} {r['width']:>8.5f}  "
            + "; ".join(targets(r)))
    return "\n".join(lines)


def band_coverage(n, base_rate, band, reps, n_boot, seed=0) -> float:
    """Share of simulated calibrated forecasts whose whole CORP curve stays inside the 90%
    consistency band (logistic design)."""
    rng = np.random.default_rng(seed)
    a = _intercept(base_rate, "logit")
    inside = 0
    for _ in range(reps):
        pi = expit(a + SLOPE * rng.standard_normal(n))
        y = (rng.random(n) < pi).astype(int)
        c = cb.metrics.reliability_curve(y, pi, [0, 1], n_boot=n_boot, level=0.9, band=band,
                                         random_state=rng)
        inside += bool(np.all((c.recalibrated >= c.band_low - 1e-12)
                              & (c.recalibrated <= c.band_high + 1e-12)))
    return inside / reps


def band_table(reps, n_boot) -> str:
    lines = [f"90% consistency band: share of calibrated data sets whose whole curve stays inside "
             f"({reps} data sets per cell, n_boot={n_boot}; target 85-95% for the simultaneous "
             "band)", f"{'n':>5} {'rate':>5} {'simultaneous':>13} {'pointwise':>10}  target"]
    for n in (500, 2000):
        for br in (0.5, 0.08):
            sim = band_coverage(n, br, "simultaneous", reps, n_boot, seed=n)
            pw = band_coverage(n, br, "pointwise", reps, n_boot, seed=n)
            ok = "met" if 0.85 <= sim <= 0.95 else "NOT met"
            lines.append(f"{n:>5} {br:>5.2f} {sim:>13.1%} {pw:>10.1%}  {ok}")
            print(lines[-1], flush=True)
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reps", type=int, default=None)
    parser.add_argument("--n-boot", type=int, default=1000)
    args = parser.parse_args(argv)
    reps = args.reps or (100 if args.quick else 400)
    start = time.time()
    print(f"calibration_test: {reps} data sets per cell, n_boot={args.n_boot}, "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    rows = []
    for i, cell in enumerate(CELLS):
        rows.append(simulate(cell, reps, args.n_boot, seed=i))
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(table(rows))
    print()
    bands = band_table(max(100, reps // 2), 500)
    print()
    print(bands)
    print(f"\n{time.time() - start:.0f} s, load {os.getloadavg()[0]:.2f}")
    return rows


if __name__ == "__main__":
    sys.exit(main() and 0)
