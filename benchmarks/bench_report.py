"""The whole report with intervals, against the scikit-learn calls and loops it replaces.

Every ratio is measured in one run, on the same arrays, against a named reference. Times are
CPU seconds of this process (``time.process_time``; the wall-clock ratio is printed beside
it): on a shared machine the wall clock of a long loop depends on what else runs.

1. ``report(model, X, y, ci=0.95, n_boot=2000)`` on ``--n`` binary rows against the
   index-resampling loop of ``roc_auc_score`` alone (``--n-boot`` calls; timed on
   ``--ref-boot`` of them and scaled). Each interval of the report is also compared with
   the interval of a straightforward loop that draws ``idx`` with replacement and recomputes
   the point report on ``(y[idx], p[idx])`` (``--check-boot`` replicates, independent
   draws): the largest endpoint difference is printed as a share of the interval's width.
2. ``resampling.roc_auc_interval`` alone against the same ``roc_auc_score`` loop.
3. The point report on ``--n-point`` rows: binary, probabilities in the ``(n, 2)`` form
   ``predict_proba`` returns, against log_loss, brier_score_loss, d2_brier_score,
   d2_log_loss_score, roc_auc_score, average_precision_score and one IsotonicRegression per
   class; multiclass (K = 3) against the same calls with one-vs-rest ROC-AUC and average
   precision; and string labels against integer labels.
4. Peak memory of the binary point report against the scikit-learn call sequence, at
   ``--n-memory`` rows: in a fresh process each, the maximum resident set size reached during
   the calls minus the resident size just before them (the data; Linux ``/proc``).
5. A paired comparison with a fitted baseline (``report(model, X, y, baseline=incumbent,
   ci=0.95)``) against a single model's intervals. Printed beside it, per replicate: the
   time of drawing the resampling counts (shared by both models), of evaluating the model
   on them, and what the baseline adds.
6. The report with intervals of 1. on two threads (``n_jobs=2``) against one, and the
   bootstrap inside it alone (the part that threads share out; the report also runs the
   calibration test, which draws after the resamples from the same generator, on one
   thread): the ratio of wall-clock seconds (two threads spend about the same CPU seconds as
   one, in about half the time), the best of ``--repeats`` (at least 3) interleaved runs
   each, and a check that the numbers are identical. Run it when the machine is quiet: a
   busy machine has no second core to give.

7. The interval method: every metric's interval by the default ``ci_method="expanded_bca"``
   (whose acceleration and degrees of freedom come from a grouped jackknife of 100 blocks of
   rows) against the percentile intervals' resampling alone (``resampling.bootstrap`` with
   percentile intervals, minus the jackknife, timed on its own through the same evaluator).

Usage::

    python benchmarks/bench_report.py            # the full sizes (several minutes)
    python benchmarks/bench_report.py --quick    # CI-sized inputs (seconds)
    python benchmarks/bench_report.py --only threads   # one section (intervals, point,
                                                       # memory, paired, threads, method)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import warnings

import numpy as np
from sklearn import metrics as skm
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression

from chimeraboost import metrics, report, resampling

LEVEL = 0.95


def load() -> str:
    try:
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average n/a"


class Time(tuple):
    """(cpu, wall) seconds of the fastest of some repeats; ratios use the CPU time, which other
    processes on a shared machine disturb far less than the wall clock."""

    cpu = property(lambda self: self[0])
    wall = property(lambda self: self[1])

    def __mul__(self, k):
        return Time((self[0] * k, self[1] * k))

    def __truediv__(self, other):
        return self.cpu / other.cpu

    def __format__(self, spec):
        return f"{self.cpu:{spec or '.2f'}} s CPU ({self.wall:{spec or '.2f'}} s wall)"


def timed(fn, repeats=1):
    best, out = Time((np.inf, np.inf)), None
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn()
        t = Time((time.process_time() - c0, time.perf_counter() - t0))
        best = t if t.cpu < best.cpu else best
    return best, out


def binary_data(n: int, seed: int = 0):
    """A logistic model fitted on separate rows, scored on n rows (20% positives)."""
    rng = np.random.default_rng(seed)

    def draw(m):
        X = rng.normal(size=(m, 4))
        logit = X @ np.array([1.0, -0.6, 0.4, 0.0]) - 1.6
        return X, (rng.random(m) < 1 / (1 + np.exp(-logit))).astype(np.int64)

    X_tr, y_tr = draw(5000)
    X, y = draw(n)
    model = LogisticRegression().fit(X_tr, y_tr)
    # The incumbent: a heavily regularised fit of the same model.
    incumbent = LogisticRegression(C=1e-4).fit(X_tr, y_tr)
    return model, incumbent, X, y


def auc_loop(y, p, n_boot, seed):
    rng = np.random.default_rng(seed)
    n = y.shape[0]
    out = np.empty(n_boot)
    for b in range(n_boot):
        idx = rng.integers(0, n, n)
        out[b] = skm.roc_auc_score(y[idx], p[idx])
    return out


def report_loop(y, proba, n_boot, seed):
    """Point reports on index resamples: the straightforward interval of every metric."""
    rng = np.random.default_rng(seed)
    n = y.shape[0]
    reps = []
    for _ in range(n_boot):
        idx = rng.integers(0, n, n)
        reps.append(metrics.classification_report(y[idx], proba[idx], [0, 1]))
    return reps


def sklearn_binary(y, proba):
    p = proba[:, 1]
    out = [skm.log_loss(y, proba), skm.brier_score_loss(y, p), skm.d2_brier_score(y, p),
           skm.d2_log_loss_score(y, proba), skm.roc_auc_score(y, p),
           skm.average_precision_score(y, p)]
    for k in (0, 1):
        event = (y == k).astype(float)
        IsotonicRegression(out_of_bounds="clip").fit(proba[:, k], event).predict(proba[:, k])
    return out


def sklearn_multiclass(y, proba, classes):
    onehot = (y[:, None] == np.asarray(classes)[None, :]).astype(float)
    out = [skm.log_loss(y, proba, labels=classes), skm.brier_score_loss(y, proba, labels=classes),
           skm.d2_brier_score(y, proba, labels=classes),
           skm.d2_log_loss_score(y, proba, labels=classes),
           skm.roc_auc_score(y, proba, multi_class="ovr", labels=classes),
           skm.average_precision_score(onehot, proba)]
    for k in range(len(classes)):
        IsotonicRegression(out_of_bounds="clip").fit(proba[:, k], onehot[:, k]).predict(
            proba[:, k])
    return out


def multiclass_data(n, seed=0, k=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.2 * np.eye(k)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return y, np.round(proba / proba.sum(axis=1, keepdims=True), 12)


def peak_memory(what: str, n: int) -> float | None:
    """Maximum resident set size (MB) of a fresh process doing only ``what`` on n rows."""
    code = (
        "import resource, sys, numpy as np\n"
        "sys.path.insert(0, %r)\n"
        "from bench_report import sklearn_binary\n"
        "from chimeraboost import metrics\n"
        "rng = np.random.default_rng(0)\n"
        "n = %d\n"
        "y = (rng.random(n) < 0.2).astype(np.int64)\n"
        "p = 1 / (1 + np.exp(-(rng.normal(size=n) + y - 1.5)))\n"
        "proba = np.column_stack([1 - p, p]); del p\n"
        "base = int(open('/proc/self/statm').read().split()[1]) * resource.getpagesize()\n"
        "%s\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - base) / 2**20)\n"
    ) % (os.path.dirname(os.path.abspath(__file__)), n,
         "metrics.classification_report(y, proba, [0, 1])" if what == "ours"
         else "sklearn_binary(y, proba)")
    try:
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, timeout=1800)
    except (subprocess.SubprocessError, OSError):
        return None
    return float(res.stdout.strip().splitlines()[-1])


SECTIONS = ("intervals", "point", "memory", "paired", "threads", "method")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="CI-sized inputs")
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--n-boot", type=int, default=2000)
    parser.add_argument("--ref-boot", type=int, default=200)
    parser.add_argument("--check-boot", type=int, default=2000)
    parser.add_argument("--n-point", type=int, default=1_000_000)
    parser.add_argument("--n-memory", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=SECTIONS,
                        help="measure only these sections (default: all)")
    args = parser.parse_args(argv)
    if args.quick:
        args.n, args.n_boot, args.ref_boot, args.check_boot = 20_000, 1000, 50, 1000
        args.n_point, args.n_memory, args.repeats = 100_000, 1_000_000, 1
    warnings.simplefilter("ignore")
    rows = []

    def row(name, ratio, target, ok, note=""):
        rows.append((name, ratio, target, "met" if ok else "not met", note, load()))
        print(f"{name:58s} {ratio:8.3f}  target {target:8s} {'met' if ok else 'NOT MET'}"
              f"  {note}  ({load()})", flush=True)

    print(f"chimeraboost bench_report: n = {args.n:,}, n_boot = {args.n_boot:,}; {load()}")
    data = binary_data(args.n)
    t_rep = None
    if "intervals" in args.only:
        t_rep = intervals(args, data, row)
    if "point" in args.only:
        point_reports(args, data[0], row)
    if "memory" in args.only:
        memory(args, row)
    if "paired" in args.only:
        paired(args, data, row, t_rep)
    if "threads" in args.only:
        threads(args, data, row)
    if "method" in args.only:
        interval_method(args, data, row)

    print("\n| measure | ratio | target | status | note | machine load |")
    print("|---|---|---|---|---|---|")
    for name, ratio, target, status, note, ld in rows:
        print(f"| {name} | {ratio:.3f} | {target} | {status} | {note} | {ld} |")


def intervals(args, data, row):
    """1 + 2: the report with intervals and the ROC-AUC interval against the loop."""
    fitted, _, X, y = data
    proba = fitted.predict_proba(X)
    t_loop = timed(lambda: auc_loop(y, proba[:, 1], args.ref_boot, 1))[0]
    t_loop *= args.n_boot / args.ref_boot
    t_rep, rep = timed(lambda: report(fitted, X, y, ci=LEVEL, n_boot=args.n_boot,
                                      random_state=0))
    t_auc, _ = timed(lambda: resampling.roc_auc_interval(y, proba[:, 1], n_boot=args.n_boot,
                                                         random_state=0), args.repeats)
    print(f"roc_auc_score loop, {args.n_boot} calls (timed {args.ref_boot}, scaled): "
          f"{t_loop}; report with intervals {t_rep}; roc_auc_interval {t_auc}")
    # The loop's intervals are percentile intervals: compare them with the report's own.
    rep = timed(lambda: report(fitted, X, y, ci=LEVEL, n_boot=args.n_boot, random_state=0,
                               ci_method="percentile"))[1]
    reps = report_loop(y, proba, args.check_boot, 2)
    worst, worst_key = 0.0, None
    for key, ci in rep.ci.items():
        if key not in reps[0]:  # the population MCB's interval: the calibration test's
            continue
        vals = np.array([r[key] for r in reps], dtype=float)
        vals = vals[~np.isnan(vals)]
        if vals.size == 0 or not np.isfinite(ci.high - ci.low) or ci.high <= ci.low:
            continue
        lo, hi = np.quantile(vals, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
        lo, hi = min(lo, rep[key]), max(hi, rep[key])  # an interval holds its estimate
        share = max(abs(lo - ci.low), abs(hi - ci.high)) / (ci.high - ci.low)
        if share > worst:
            worst, worst_key = share, key
    row(f"1. report(ci=0.95, n_boot={args.n_boot}) vs roc_auc_score loop (speed-up)",
        t_loop / t_rep, ">= 15", t_loop / t_rep >= 15,
        f"{args.n:,} rows; wall-clock ratio {t_loop.wall / t_rep.wall:.1f}")
    row(f"1. largest interval endpoint gap / width vs {args.check_boot}-replicate loop",
        worst, "<= 0.10", worst <= 0.10, f"worst: {worst_key}")
    row("2. roc_auc_interval vs roc_auc_score loop (speed-up)", t_loop / t_auc, ">= 40",
        t_loop / t_auc >= 40, f"wall-clock ratio {t_loop.wall / t_auc.wall:.1f}")
    return t_rep


def alternating(ours, theirs, runs=5):
    """Median CPU seconds of ``ours`` and of ``theirs`` over ``runs`` alternating calls each
    (one, then the other, side by side in this process), so that a change in the machine's
    load falls on both."""
    a, b = [], []
    for _ in range(runs):
        a.append(timed(ours)[0])
        b.append(timed(theirs)[0])
    med = lambda ts: Time(np.median(np.array(ts), axis=0))  # noqa: E731
    return med(a), med(b)


def point_reports(args, fitted, row):
    """3: point reports against the scikit-learn calls (multiclass: the median of 5
    alternating runs, K = 3 and K = 10)."""
    _, _, Xp, yp = binary_data(args.n_point, seed=1)
    pp = fitted.predict_proba(Xp)
    t_ours = timed(lambda: metrics.classification_report(yp, pp, [0, 1]), args.repeats)[0]
    t_sk = timed(lambda: sklearn_binary(yp, pp), args.repeats)[0]
    row("3. binary point report / sklearn calls", t_ours / t_sk, "<= 0.10", t_ours / t_sk <= 0.10,
        f"{args.n_point:,} rows, {t_ours:.3f} vs {t_sk:.3f}")
    for k in (3, 10):
        ym, pm = multiclass_data(args.n_point, k=k)
        classes = list(range(k))
        t_ours, t_sk = alternating(lambda: metrics.classification_report(ym, pm, classes),
                                   lambda: sklearn_multiclass(ym, pm, classes))
        row(f"3. multiclass (K = {k}) point report / sklearn calls", t_ours / t_sk, "<= 0.15",
            t_ours / t_sk <= 0.15, f"median of 5 alternating runs, {t_ours:.3f} vs {t_sk:.3f}")
    ym, pm = multiclass_data(args.n_point)
    names = np.array(["alpha", "beta", "gamma"])
    ys = names[ym]
    t_ours = timed(lambda: metrics.classification_report(ym, pm, [0, 1, 2]), args.repeats)[0]
    t_str = timed(lambda: metrics.classification_report(ys, pm, names), args.repeats)[0]
    row("3. string labels / integer labels (K = 3 point report)", t_str / t_ours, "<= 1.2",
        t_str / t_ours <= 1.2, f"{t_str:.3f} vs {t_ours:.3f}")


def memory(args, row):
    """4: peak memory of the point report, each side in a fresh process."""
    mem_ours, mem_sk = peak_memory("ours", args.n_memory), peak_memory("sklearn", args.n_memory)
    if mem_ours is not None and mem_sk is not None:
        row("4. peak memory, binary point report / sklearn calls", mem_ours / mem_sk, "<= 1.0",
            mem_ours <= mem_sk, f"{args.n_memory:,} rows, {mem_ours:.0f} MB vs {mem_sk:.0f} MB")


def paired(args, data, row, t_rep=None):
    """5: the paired comparison. The counts are drawn once for both models; everything else
    is evaluated per model, so the ratio is about 1 + e / (c + e), with c the cost of drawing
    the counts and e that of evaluating one model on them (both printed per replicate)."""
    fitted, base, X, y = data
    if t_rep is None:
        t_rep = timed(lambda: report(fitted, X, y, ci=LEVEL, n_boot=args.n_boot,
                                     random_state=0))[0]
    t_pair, _ = timed(lambda: report(fitted, X, y, baseline=base, ci=LEVEL, n_boot=args.n_boot,
                                     random_state=0))
    t_counts = timed(lambda: sum(1 for _ in resampling.bootstrap_counts(
        args.n, args.n_boot, random_state=0)))[0]
    per_rep = 1e3 / args.n_boot
    print(f"report against a fitted baseline {t_pair}; per replicate: drawing the counts "
          f"{t_counts.cpu * per_rep:.3f} ms CPU, evaluating the model "
          f"{(t_rep.cpu - t_counts.cpu) * per_rep:.3f} ms, the baseline "
          f"{(t_pair.cpu - t_rep.cpu) * per_rep:.3f} ms")
    row("5. report against a fitted baseline / single model's intervals", t_pair / t_rep,
        "<= 1.3", t_pair / t_rep <= 1.3, f"wall-clock ratio {t_pair.wall / t_rep.wall:.2f}")


def threads(args, data, row):
    """6: the report with intervals on two threads against one, and the bootstrap inside it
    alone: wall-clock seconds (the CPU seconds of two threads add up), the best of
    ``--repeats`` (at least 3) interleaved runs each. The numbers must be identical."""
    fitted, _, X, y = data
    ev = metrics.classification_evaluator(y, fitted.classes_, proba=fitted.predict_proba(X))
    jobs = {
        "report": lambda n_jobs: report(fitted, X, y, ci=LEVEL, n_boot=args.n_boot,
                                        random_state=0, n_jobs=n_jobs).ci,
        "bootstrap": lambda n_jobs: resampling.bootstrap(ev, n_boot=args.n_boot, random_state=0,
                                                         n_jobs=n_jobs).replicates,
    }
    for what, run in jobs.items():
        walls, out = {1: [], 2: []}, {}
        for _ in range(max(args.repeats, 3)):
            for n_jobs in (1, 2):
                t, out[n_jobs] = timed(lambda: run(n_jobs))
                walls[n_jobs].append(t.wall)
        same = all(np.array_equal(out[1][k], out[2][k], equal_nan=True) for k in out[1])
        if not same or out[1].keys() != out[2].keys():
            msg = f"{what}(n_jobs=2) gave other numbers than {what}(n_jobs=1)"
            raise AssertionError(msg)
        one, two = min(walls[1]), min(walls[2])
        print(f"{what}, wall-clock seconds: n_jobs=1 {', '.join(f'{t:.2f}' for t in walls[1])}"
              f"; n_jobs=2 {', '.join(f'{t:.2f}' for t in walls[2])}")
        name = (f"6. report(ci=0.95, n_boot={args.n_boot})" if what == "report" else
                f"6. its bootstrap alone (resampling.bootstrap, {args.n_boot:,})")
        target = ">= 1.6" if what == "report" else "reported"
        row(f"{name} n_jobs=2 vs 1 (speed-up)", one / two, target,
            one / two >= 1.6 or what != "report", f"{args.n:,} rows; wall clock, best of "
            f"{len(walls[1])}: {one:.2f} s vs {two:.2f} s; numbers identical")



def interval_method(args, data, row):
    """7: BCa's jackknife against the percentile intervals' resampling, at the resampling
    level (the report adds the calibration test's draws, which no interval method changes)."""
    fitted, _, X, y = data
    ev = metrics.classification_evaluator(y, fitted.classes_, proba=fitted.predict_proba(X))

    def intervals(method):
        return resampling.bootstrap(ev, n_boot=args.n_boot, random_state=0).intervals(
            level=LEVEL, method=method, warn=False)

    t_bca = timed(lambda: intervals(level="expanded_bca"), args.repeats)[0]
    t_pct = timed(lambda: intervals(level="percentile"), args.repeats)[0]
    t_jack = timed(lambda: ev.evaluate(resampling.jackknife_weights(
        args.n, random_state=0), warn=False), args.repeats)[0]
    base_cpu = max(t_pct.cpu - t_jack.cpu, 1e-9)
    row("7. expanded BCa intervals / percentile intervals without the jackknife",
        t_bca.cpu / base_cpu, "<= 1.5", t_bca.cpu / base_cpu <= 1.5,
        f"every metric, {args.n_boot:,} replicates; jackknife ({resampling.JACKKNIFE_BLOCKS} "
        f"blocks) {t_jack.cpu:.2f} s CPU, percentile {t_pct.cpu:.2f} s, expanded BCa "
        f"{t_bca.cpu:.2f} s")

if __name__ == "__main__":
    main()
