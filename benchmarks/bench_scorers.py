"""Time chimeraboost's scorers against scikit-learn's, side by side in one run.

Each of our scorers is called as ``scorer(model, X, y)`` on the same fitted LogisticRegression
and the same data as its scikit-learn reference, the calls interleaved; each time is the
median of ``--repeats`` calls. Pairs (ours / reference):

- ``"brier_skill"`` / ``"neg_brier_score"`` (target: ratio <= 1.0);
- ``"log_loss_skill"`` / ``"neg_log_loss"`` (target: ratio <= 1.0);
- ``"neg_calibration_mcb"`` / the same number from scikit-learn's pieces: ``predict_proba``,
  then per class one ``IsotonicRegression`` fit and the two mean squared errors (measured and
  reported; no target). Also printed against ``"neg_brier_score"``.

Two ratios per pair: of the whole scorer call, which includes the model's ``predict_proba``
(the same call on both sides, most of the time at 200,000 rows with K = 3), and of the metric
part alone, the call minus the median ``predict_proba`` time. The script checks on the way
that ``"brier_skill"`` and ``"log_loss_skill"`` equal scikit-learn's ``"d2_brier_score"`` and
``"d2_log_loss_score"`` scorers, and the MCB the isotonic computation, to 1e-12.

BLAS runs single-threaded by default (``--threads``): on a loaded machine, OpenBLAS threads
spin-waiting for a core turn a 0.03 ms dot product into 15 ms, which would time the machine,
not the code. Both sides run under the same limit. The machine's load is printed beside each
row.

    python benchmarks/bench_scorers.py [--n 10000 200000] [--classes 2 3] [--repeats 21]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer
from threadpoolctl import threadpool_limits

import chimeraboost  # noqa: F401  (registers the scoring strings)

# ours -> (reference, the scikit-learn scorer its value must equal, target ratio or None)
PAIRS = {
    "brier_skill": ("neg_brier_score", "d2_brier_score", 1.0),
    "log_loss_skill": ("neg_log_loss", "d2_log_loss_score", 1.0),
    "neg_calibration_mcb": ("isotonic (scikit-learn)", None, None),
}


def load() -> str:
    return "load " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def median_times(fns, repeats):
    """Median seconds of each callable, calls interleaved so that load drift hits all alike."""
    times = [[] for _ in fns]
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - t0)
    return [float(np.median(t)) for t in times]


def isotonic_mcb(model, X, y):
    """Minus the CORP miscalibration from scikit-learn's pieces: per class, the Brier term
    of the forecast minus that of its isotonic recalibration, averaged over classes."""
    proba = model.predict_proba(X)
    mcb = []
    for k, label in enumerate(model.classes_):
        event = (y == label).astype(np.float64)
        fit = IsotonicRegression(out_of_bounds="clip").fit(proba[:, k], event).predict(
            proba[:, k])
        mcb.append(np.mean((proba[:, k] - event) ** 2) - np.mean((fit - event) ** 2))
    return -float(np.mean(mcb))


def one_case(n, n_classes, repeats):
    X, y = make_classification(
        n_samples=n, n_features=10, n_informative=5, n_classes=n_classes, random_state=0
    )
    model = LogisticRegression(max_iter=1000).fit(X, y)
    refs = {"isotonic (scikit-learn)": isotonic_mcb}
    rows = []
    for ours, (ref, equal_to, target) in PAIRS.items():
        mine = get_scorer(ours)
        theirs = refs.get(ref) or get_scorer(ref)
        same = get_scorer(equal_to) if equal_to else theirs
        gap = abs(mine(model, X, y) - same(model, X, y))
        if gap > 1e-12:
            msg = f"{ours} differs from {equal_to or ref} by {gap:g} (n={n}, K={n_classes})"
            raise AssertionError(msg)
        extra = [get_scorer("neg_brier_score")] if ours == "neg_calibration_mcb" else []
        t_ours, t_ref, t_proba, *t_extra = median_times(
            [lambda: mine(model, X, y), lambda: theirs(model, X, y),
             lambda: model.predict_proba(X)] + [lambda s=s: s(model, X, y) for s in extra],
            repeats)
        rows.append((ours, ref, t_ours, t_ref, t_proba, target))
        if t_extra:
            rows.append((ours, "neg_brier_score", t_ours, t_extra[0], t_proba, None))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10_000, 200_000])
    parser.add_argument("--classes", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP threads")
    args = parser.parse_args(argv)
    with threadpool_limits(args.threads):
        run(args)


def run(args):
    print(f"chimeraboost bench_scorers: {load()}")
    head = (f"{'n':>7} {'K':>2} {'scorer':>19} {'reference':>23} {'ours':>9} {'ref':>9} "
            f"{'proba':>8} {'call ratio':>10} {'metric ratio':>12}  target")
    print(head)
    table = []
    for n_classes in args.classes:
        for n in args.n:
            for ours, ref, t_ours, t_ref, t_proba, target in one_case(n, n_classes,
                                                                     args.repeats):
                ratio = t_ours / t_ref
                metric = max(t_ours - t_proba, 0.0) / max(t_ref - t_proba, 1e-12)
                status = "" if target is None else (
                    f"<= {target} {'met' if ratio <= target else 'NOT MET'}")
                print(f"{n:>7} {n_classes:>2} {ours:>19} {ref:>23} {t_ours * 1e3:>7.2f}ms "
                      f"{t_ref * 1e3:>7.2f}ms {t_proba * 1e3:>6.2f}ms {ratio:>10.2f} "
                      f"{metric:>12.2f}  {status}  ({load()})", flush=True)
                table.append((n, n_classes, ours, ref, ratio, metric, status, load()))
    print("\n| n | K | scorer | reference | call ratio | metric-part ratio | target | load |")
    print("|---|---|---|---|---|---|---|---|")
    for n, k, ours, ref, ratio, metric, status, ld in table:
        print(f"| {n:,} | {k} | {ours} | {ref} | {ratio:.2f} | {metric:.2f} | "
              f"{status or 'measured'} | {ld} |")


if __name__ == "__main__":
    main()
