"""How often does ``slice_report`` call a slice different when none is? Two null designs.

Each prints its table: the share of null data sets in which *any* slice is called different
from the rest (Holm's adjustment, alpha 0.05), with a 95% Wilson interval.

1. **Snapshots, with** ``groups=``. The snapshot design of the dependence issue: ``G``
   customers with ``m`` monthly rows; ``x_i ~ N(0, 1)`` fixed per customer; the latent
   ``1.2 x_i - 0.8 + sqrt(rho) u_i + sqrt(1 - rho) e_it`` with ``u_i, e_it ~ N(0, 1)``;
   ``y = 1{latent > 0}``; the forecast ``Phi(1.2 x - 0.8)``, calibrated given ``x``. Eight
   slices, two ways: a customer-level label (each customer in one slice: the slice holds
   whole groups) and a row-level label (drawn per row: every customer crosses slices).
   ``slice_report(..., groups=customer)``, and for contrast the default (rows resampled as
   if independent) in the last cell. Target: at most 6% with ``groups=``.
2. **Very unequal slices, independent rows.** 20 slices of 6,000 rows, sizes in a geometric
   progression from 34 rows to about 1,000, the forecast the true probability. Target: at most 6% (the upper end of
   the Wilson interval at most 7% over at least 2,000 data sets). The false calls are
   tallied by the size of the slice they fall in.

Usage::

    python benchmarks/bench_slices_null.py                 # the full counts
    python benchmarks/bench_slices_null.py --runs 100      # fewer data sets per cell
    python benchmarks/bench_slices_null.py --only unequal  # one of snapshots, unequal
    python benchmarks/bench_slices_null.py --only snapshots --cell 1 3 --runs 1000
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np
from scipy.special import ndtr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_slices import load, wilson  # noqa: E402 - the same load line and Wilson interval

from chimeraboost.exceptions import FewResamplesWarning  # noqa: E402
from chimeraboost.slices import slice_report  # noqa: E402


def share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:6.1%} [{lo:5.1%}, {hi:5.1%}]"


def snapshots(G: int, m: int, rho: float, rng):
    x = np.repeat(rng.standard_normal(G), m)
    u = np.repeat(rng.standard_normal(G), m)
    latent = 1.2 * x - 0.8 + np.sqrt(rho) * u + np.sqrt(1 - rho) * rng.standard_normal(G * m)
    customer = np.repeat(np.arange(G), m)
    by_customer = np.repeat(rng.integers(0, 8, G), m)
    by_row = rng.integers(0, 8, G * m)
    return (latent > 0).astype(int), ndtr(1.2 * x - 0.8), customer, by_customer, by_row


def _any_called(y, p, by, n_boot, seed, **kwargs) -> tuple[bool, np.ndarray, np.ndarray]:
    """Whether any slice was called different, which were, and every slice's unadjusted
    p-value (NaN where untested), difference to the rest and its standard error (3, S)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # bins=None: the labels are integers, which slice_report would otherwise cut into
        # its default 5 quantile ranges (8 customer labels became 5 slices, 20 unequal
        # slices 5 ranges of them).
        r = slice_report(y, p, by, n_boot=n_boot, random_state=seed, calibration=False,
                         bins=None, **kwargs)
    called = np.array([v in ("worse than the rest", "better than the rest")
                       for v in r.verdict])
    return bool(called.any()), called, np.c_[r.pvalue, r.difference, r.se].T


# (G, m, rho, slices per customer or per row, groups= or rows): the cells of the table.
CELLS = [(100, 12, 0.7, "customer", True), (100, 12, 0.3, "customer", True),
         (100, 12, 0.7, "row", True), (400, 3, 0.7, "customer", True),
         (100, 12, 0.7, "customer", False)]


def run_snapshots(runs: int, n_boot: int, cells=CELLS, save=None) -> None:
    """The table, and with ``save`` per cell an ``.npz`` array (data sets, 4, slices): every
    slice's unadjusted p-value, difference to the rest, standard error and number of
    customers (rows with slices per row), to check that the p-values are uniform under the
    null and the standard errors match the differences' spread."""
    print(f"1. Snapshots, 8 slices: share of null data sets with any slice called different "
          f"(Holm, alpha 0.05), {runs} data sets per cell, {n_boot} resamples; and the share "
          f"of tested slices whose own p-value is below 0.05 / 8 (0.625% if exact)", flush=True)
    print(f"{'design':28}{'slices':14}{'resampled':>12}{'any called':>26}"
          f"{'slice p < 0.05/8':>26}{'CPU':>10}", flush=True)
    saved = {}
    for G, m, rho, slices, grouped in cells:
        rng = np.random.default_rng(20261206)
        hits, t0, pvalues = 0, time.process_time(), []
        for i in range(runs):
            y, p, customer, by_c, by_r = snapshots(G, m, rho, rng)
            by = by_c if slices == "customer" else by_r
            extra = {"groups": customer} if grouped else {}
            hit, _, tested = _any_called(y, p, by, n_boot, i, **extra)
            hits += hit
            # per slice: p, difference, standard error, the slice's groups (or rows)
            owners = np.bincount(by[np.unique(customer, return_index=True)[1]], minlength=8) \
                if slices == "customer" else np.bincount(by, minlength=8)
            pvalues.append(np.r_[tested, owners[None]] if tested.shape[1] == 8
                           else np.full((4, 8), np.nan))
        pv = np.array(pvalues)[:, 0].ravel()
        pv = pv[np.isfinite(pv)]
        print(f"{f'G={G}, m={m}, rho={rho}':28}{'per ' + slices:14}"
              f"{'groups' if grouped else 'rows':>12}{share(hits, runs):>26}"
              f"{share(int(np.sum(pv < 0.05 / 8)), pv.size):>26}"
              f"{time.process_time() - t0:>8.0f} s", flush=True)
        saved[f"G{G}_m{m}_rho{rho}_{slices}_{'groups' if grouped else 'rows'}"] = \
            np.array(pvalues)
        if save:
            np.savez(save, **saved)


def unequal(rng, n=6000):
    sizes = np.round(np.geomspace(30, 900, 20) * n / np.geomspace(30, 900, 20).sum())
    sizes = np.maximum(sizes.astype(int), 30)
    sizes[-1] += n - sizes.sum()
    label = np.repeat(np.arange(20), sizes)
    p = 1 / (1 + np.exp(-rng.normal(-0.8, 1.2, n)))
    y = (rng.random(n) < p).astype(int)
    return y, p, label, sizes


def run_unequal(runs: int, n_boot: int) -> None:
    rng = np.random.default_rng(29)
    any_hits, by_size = 0, {}
    t0 = time.process_time()
    sizes = None
    for i in range(runs):
        y, p, label, sizes = unequal(rng)
        hit, called, _ = _any_called(y, p, label, n_boot, i, min_rows=30, min_events=5)
        any_hits += hit
        for s in np.flatnonzero(called):
            by_size[int(sizes[s])] = by_size.get(int(sizes[s]), 0) + 1
    print(f"2. 20 unequal slices of 6,000 rows (sizes {sizes.min()}..{sizes.max()}), "
          f"independent rows, {runs} null data sets, {n_boot} resamples "
          f"({time.process_time() - t0:.0f} s CPU)")
    print(f"   any slice called different: {share(any_hits, runs)}", flush=True)
    small = sum(v for k, v in by_size.items() if k <= 70)
    print(f"   false calls: {sum(by_size.values())}, of which in slices of 70 rows or fewer: "
          f"{small}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--cells", type=int, default=None,
                        help="the first CELLS of the snapshot table only")
    parser.add_argument("--cell", type=int, nargs="+", default=None,
                        help="these cells of the snapshot table only (0 is the first)")
    parser.add_argument("--n-boot", type=int, default=500)
    parser.add_argument("--only", choices=("snapshots", "unequal"), default=None)
    parser.add_argument("--save", default=None,
                        help="an .npz file of every slice's p-value, difference, standard "
                             "error and size (data sets x 4 x slices)")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", FewResamplesWarning)
    print(load())
    if args.only in (None, "snapshots"):
        cells = CELLS[:args.cells] if args.cell is None else [CELLS[i] for i in args.cell]
        run_snapshots(args.runs or 400, args.n_boot, cells, args.save)
    if args.only in (None, "unequal"):
        run_unequal(args.runs or 2000, args.n_boot)
    print(load())


if __name__ == "__main__":
    main()
