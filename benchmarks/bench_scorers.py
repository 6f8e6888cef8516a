"""Time the "brier_skill" scorer against scikit-learn's "neg_brier_score" scorer.

Both scorers are called as ``scorer(model, X, y)`` on the same fitted LogisticRegression and
the same data, interleaved in one run; each time is the median of ``--repeats`` calls. The
ratio is ours / scikit-learn's (target, issue 3: <= 1.2, aiming for 1.0). Because both calls
include the same ``predict_proba``, the script also prints the ratio of the scoring overhead
alone (call time minus the median ``predict_proba`` time). It checks on the way that
"brier_skill" equals scikit-learn's "d2_brier_score" scorer.

BLAS runs single-threaded by default (``--threads``): on a loaded machine, OpenBLAS threads
spin-waiting for a core turn a 0.03 ms dot product into 15 ms, which would time the machine,
not the code. Both scorers run under the same limit.

    python benchmarks/bench_scorers.py [--n 1000 10000 100000] [--classes 2 3] [--repeats 21]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer
from threadpoolctl import threadpool_limits

import chimeraboost  # noqa: F401  (registers the scoring strings)


def median_times(fns, repeats):
    """Median seconds of each callable, calls interleaved so that load drift hits all alike."""
    times = [[] for _ in fns]
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - t0)
    return [float(np.median(t)) for t in times]


def one_case(n, n_classes, repeats):
    X, y = make_classification(
        n_samples=n, n_features=10, n_informative=5, n_classes=n_classes, random_state=0
    )
    model = LogisticRegression(max_iter=1000).fit(X, y)
    ours, theirs = get_scorer("brier_skill"), get_scorer("neg_brier_score")
    same = abs(ours(model, X, y) - get_scorer("d2_brier_score")(model, X, y))
    if same > 1e-12:
        msg = f"brier_skill differs from d2_brier_score by {same:g} (n={n}, K={n_classes})"
        raise AssertionError(msg)
    t_ours, t_sk, t_proba = median_times(
        [lambda: ours(model, X, y), lambda: theirs(model, X, y), lambda: model.predict_proba(X)],
        repeats,
    )
    overhead_ratio = max(t_ours - t_proba, 0.0) / max(t_sk - t_proba, 1e-12)
    return t_ours, t_sk, t_proba, t_ours / t_sk, overhead_ratio


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--classes", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP threads")
    args = parser.parse_args(argv)
    with threadpool_limits(args.threads):
        run(args)


def run(args):

    print(f"{'n':>8} {'K':>2} {'brier_skill':>12} {'neg_brier':>10} {'predict_proba':>14} "
          f"{'ratio':>6} {'overhead ratio':>15}")
    ratios = []
    for n_classes in args.classes:
        for n in args.n:
            t_ours, t_sk, t_proba, ratio, over = one_case(n, n_classes, args.repeats)
            ratios.append(ratio)
            print(f"{n:>8} {n_classes:>2} {t_ours * 1e3:>10.3f}ms {t_sk * 1e3:>8.3f}ms "
                  f"{t_proba * 1e3:>12.3f}ms {ratio:>6.2f} {over:>15.2f}")
    print(f"ratio (brier_skill scorer / sklearn neg_brier_score scorer), worst case: "
          f"{max(ratios):.2f}  (target <= 1.2)")


if __name__ == "__main__":
    main()
