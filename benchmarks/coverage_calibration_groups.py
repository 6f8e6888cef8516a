"""Does the calibration test hold when a customer's rows share their surprises?

``metrics.calibration_test(..., groups=)`` on the snapshot design: ``G`` customers with ``m``
rows each; ``x_i ~ N(0, 1)`` fixed per customer; latent ``1.2 x_i - 0.8 + sqrt(rho) u_i +
sqrt(1 - rho) e_it`` with ``u_i, e_it ~ N(0, 1)``; ``y = 1{latent > 0}``; the forecast
``Phi(1.2 x - 0.8)`` (calibrated given x) or its logit times 1.5 (overconfident). And the same
forecasts on independent rows (``G * m`` rows, each its own customer), passed with groups of
size one and without groups, to show that nothing is lost.

For each cell: ``reject`` is the share of data sets whose p-value is below 0.05 (the size for
a calibrated forecast, the power for an overconfident one); ``cover`` the share whose 95%
interval holds the population MCB (0 for the calibrated forecast; for the overconfident one
``E[(p - q)^2]``, ``q = Phi(1.2 x - 0.8)`` the true probability -- the isotonic projection of
``q`` on a forecast that is increasing in ``q`` is ``q`` itself -- on 10^7 drawn ``x``);
``floor``, ``excess`` and ``width`` are means of the noise floor, the estimate and the
interval's width. ``ceiling`` is the power of the MCB statistic itself: the share of
overconfident data sets whose MCB exceeds the 95% quantile of the calibrated data sets' MCB
in the same cell -- what a test on MCB with a perfect null could reach (the forecasts vary
between data sets, so this is an approximation). ``recal reject`` is the share of data sets
whose ``recalibration_pvalue`` (the score test of Cox's intercept 0 and slope 1, its
variance clustered by customer, F reference) is below 0.05, on the same data sets, and
``slope`` the mean of ``recalibration_slope``.

``--recalibration-only`` runs the score test alone (no MCB draws, so many more data sets are
cheap): the same data sets, the same function that fills ``recalibration_pvalue``.

Usage::

    python benchmarks/coverage_calibration_groups.py --sims 200 --n-boot 500 --jobs 2
    python benchmarks/coverage_calibration_groups.py --recalibration-only --sims 2000
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from scipy.special import expit, logit
from scipy.stats import norm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chimeraboost import metrics  # noqa: E402
from chimeraboost._shared.units import check_units  # noqa: E402
from chimeraboost.metrics._recalibration import recalibration_score_test  # noqa: E402
from chimeraboost.exceptions import FewResamplesWarning  # noqa: E402

DESIGNS = {  # name: (G, m, rho); rho None = independent rows
    "snapshots rho=0.3": (200, 10, 0.3),
    "snapshots rho=0.7": (200, 10, 0.7),
    "independent rows": (2000, 1, None),
}
# Designs the score test alone is also run on (--recalibration-only), beyond the target's:
# few customers with many rows, and customers with unequal numbers of rows (geometric, mean m).
EXTRA = {
    "20 customers x 30, rho=0.7": (20, 30, 0.7),
    "50 customers x 10, rho=0.7": (50, 10, 0.7),
    "200 customers, unequal rows, rho=0.7": (200, -10, 0.7),
}
SCALE = 1.5


def population_mcb(scale: float, n: int = 10_000_000, seed: int = 0) -> float:
    x = np.random.default_rng(seed).standard_normal(n)
    q = norm.cdf(1.2 * x - 0.8)
    return float(np.mean((expit(scale * logit(q)) - q) ** 2))


def draw(design, rng):
    g, m, rho = {**DESIGNS, **EXTRA}[design]
    if m < 0:  # unequal groups: geometric sizes with mean -m
        sizes = rng.geometric(-1.0 / m, g)
        groups = np.repeat(np.arange(g), sizes)
        x = rng.standard_normal(g)[groups]
        latent = (1.2 * x - 0.8 + np.sqrt(rho) * rng.standard_normal(g)[groups]
                  + np.sqrt(1.0 - rho) * rng.standard_normal(groups.size))
        return (latent > 0).astype(int), norm.cdf(1.2 * x - 0.8), groups
    x = rng.standard_normal(g)
    shared = 0.0 if rho is None else np.sqrt(rho) * rng.standard_normal(g)[:, None]
    own = rng.standard_normal((g, m)) * (1.0 if rho is None else np.sqrt(1.0 - rho))
    y = (1.2 * x[:, None] - 0.8 + shared + own > 0).astype(int).ravel()
    q = np.repeat(norm.cdf(1.2 * x - 0.8), m)
    return y, q, np.repeat(np.arange(g), m)


def score_only(y, p, groups):
    """``(p-value, slope)`` of the score test alone: what ``calibration_test`` fills in
    ``recalibration_pvalue`` (the slope is not fitted here: NaN)."""
    units = check_units(y.shape[0], groups=groups)
    res = recalibration_score_test(y, np.c_[1 - p, p], np.ones(y.shape[0]), [1],
                                   units, units.codes)
    return res["pvalue"], np.nan


def one(task):
    design, rep, n_boot, truth, seed, only = task
    rng = np.random.default_rng([seed, list({**DESIGNS, **EXTRA}).index(design), rep])
    y, q, groups = draw(design, rng)
    out = []
    if only:
        for forecast, p in (("calibrated", q), ("logit x 1.5", expit(SCALE * logit(q)))):
            for how in ("groups=", "rows"):
                pval, slope = score_only(y, p, groups if how == "groups=" else None)
                out.append((design, forecast, how, np.nan, np.nan, np.nan, np.nan, np.nan,
                            np.nan, pval < 0.05, slope))
        return out
    for forecast, p in (("calibrated", q), ("logit x 1.5", expit(SCALE * logit(q)))):
        for how in ("groups=", "rows"):
            if how == "rows" and forecast != "calibrated" and design != "independent rows":
                continue  # the test without groups already fails the calibrated forecast
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FewResamplesWarning)
                res = metrics.calibration_test(y, p, [0, 1], n_boot=n_boot, random_state=rep,
                                               groups=groups if how == "groups=" else None)
            low, high = res.confidence_interval(level=0.95)
            t = 0.0 if forecast == "calibrated" else truth
            out.append((design, forecast, how, res.pvalue < 0.05, low <= t <= high,
                        res.noise_floor, res.excess, high - low, res.statistic,
                        res.recalibration_pvalue < 0.05, res.recalibration_slope))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--recalibration-only", action="store_true",
                        help="the score test of Cox's recalibration alone")
    args = parser.parse_args(argv)
    truth = population_mcb(SCALE)
    designs = {**DESIGNS, **EXTRA} if args.recalibration_only else DESIGNS
    tasks = [(d, r, args.n_boot, truth, args.seed, args.recalibration_only)
             for d in designs for r in range(args.sims)]
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            rows = [row for part in pool.imap_unordered(one, tasks, chunksize=4)
                    for row in part]
    else:
        rows = [row for task in tasks for row in one(task)]
    print(f"population MCB of the logit x {SCALE} forecast: {truth:.5f}; {args.sims} data "
          f"sets per cell, {args.n_boot} outcome draws; {time.perf_counter() - start:.0f} s")
    print("| design | forecast | units | reject | cover | floor | excess | width | ceiling | "
          "recal reject | slope |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for design in designs:
        for how in ("groups=", "rows"):
            stat = {f: np.array([r[8] for r in rows if r[:3] == (design, f, how)])
                    for f in ("calibrated", "logit x 1.5")}
            ceiling = np.nan if not stat["logit x 1.5"].size or np.isnan(
                stat["calibrated"]).any() else np.mean(
                stat["logit x 1.5"] > np.quantile(stat["calibrated"], 0.95))
            for forecast in ("calibrated", "logit x 1.5"):
                cell = np.array([r[3:8] + r[9:11] for r in rows
                                 if r[:3] == (design, forecast, how)], dtype=float)
                if not cell.size:
                    continue
                units = "groups of one" if how == "groups=" and design.startswith("indep") \
                    else how
                ceil = f"{ceiling:.2f}" if forecast != "calibrated" and ceiling == ceiling \
                    else ""
                mean = cell.mean(axis=0)
                print(f"| {design} | {forecast} | {units} | {mean[0]:.3f} | {mean[1]:.3f} | "
                      f"{mean[2]:.4f} | {mean[3]:.4f} | {mean[4]:.4f} | {ceil} | "
                      f"{mean[5]:.3f} | {mean[6]:.3f} |".replace("| nan ", "|  "))


if __name__ == "__main__":
    main()
