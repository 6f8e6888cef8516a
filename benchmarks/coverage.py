"""Do the intervals cover? The coverage of every interval method, on data of known truth.

For each data design of ``coverage_designs.py`` (logistic, probit, weighted rows, three
classes, regression with normal, Student-t(5), Student-t(3), lognormal and chi-square
errors), each size ``n`` (200, 2000) and each base rate (.5 and .05; the regressions have
none), ``--sims`` data sets are drawn, and on each the 95% intervals of every method of ``resampling.CI_METHODS`` are computed
from one ``joint_bootstrap`` of the two models of the design (``--n-boot`` replicates; the
paired differences ``A - B`` from the same replicates and jackknife blocks, as ``report(...,
baseline=model)`` and ``holdout_table`` make them). An interval covers when it holds the
population value (see ``coverage_designs.py`` for how those are computed). DeLong's interval
(``resampling.delong_roc_auc``, its paired form for the difference) is shown beside the
bootstrap for unweighted binary data.

The row ``poisson`` is the percentile interval of the Poisson bootstrap (``scheme="poisson"``:
an independent Poisson(1) count per row, what ``chimeraboost.dask`` computes block by block),
from its own replicates on the same data sets; its target is the multinomial percentile
interval's coverage within 1.5 points in every cell. The two share their data sets, so their
gap is the data sets only one of them covers, over all; the largest gap is printed with its
exact 95% interval (:func:`gap_interval`), which says whether it is more than the noise of
``--sims`` data sets.

The table gives the share of data sets whose interval covered, in percent; with 400 data
sets its Monte Carlo standard error is about 1.1 points at 95%. ``warned`` is the share of
data sets on which the default method's intervals came with a ``NarrowIntervalWarning``
(fewer than 4 events in the rarest class). A section pools small designs and gives the
default's coverage by the number of events: where that warning starts.

Two more sections measure what is not a resampling interval: the calibration test
(``metrics.calibration_test``; its designs and simulation are ``coverage_calibration.py``'s,
run here with ``--sims`` data sets per cell and ``--n-boot`` outcome draws): the coverage of
the population MCB by its interval, the test's size and power, the bias of ``excess``; and the
reliability diagram's 90% consistency band: how often the whole curve of a calibrated forecast
stays inside it, simultaneous and pointwise (``--sims / 2`` data sets per cell, at least 100;
500 draws).

Sections come from the functions of ``SECTIONS``: each takes the parsed arguments, runs its
own simulation and returns a list of :class:`Section` (a title, a table, notes and the
targets it measures). Add a function to the dict to add a group of rows; ``--sections``
chooses which run.

Usage::

    python benchmarks/coverage.py --jobs 2 --n-boot 1000  # the full run (400 data sets per
                                                          # cell; about two hours of CPU)
    python benchmarks/coverage.py --quick    # n = 200 only (the band at 500), 150 data sets
    python benchmarks/coverage.py --sections calibration band   # some sections only
    python benchmarks/coverage.py --sections intervals --designs multiclass --sizes 200 \
        --rates 0.05 --sims 1600 --n-boot 1000      # one cell, with more data sets
    python benchmarks/coverage.py --check-truth   # population values against 4e6 drawn rows
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
import zlib
from dataclasses import dataclass, field
from multiprocessing import Pool

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coverage_calibration as calibration  # noqa: E402
from coverage_designs import CLASS_KEYS, DESIGNS, REGRESSION_KEYS  # noqa: E402

from chimeraboost import metrics, resampling  # noqa: E402
from chimeraboost.exceptions import NarrowIntervalWarning  # noqa: E402

LEVEL = 0.95
TARGET = 91.0  # percent, at n = 200 with about 10 events, and for rmse with t(5) errors
METHODS = resampling.CI_METHODS
DEFAULT = resampling.DEFAULT_CI_METHOD
POISSON = "poisson"  # the Poisson bootstrap's percentile interval, a row beside the methods
POISSON_GAP = 1.5  # points: its coverage against the multinomial percentile interval's
DIFF_KEYS = {"binary": ("brier_skill", "roc_auc"), "multiclass": ("brier_skill", "roc_auc"),
             "regression": ("rmse",)}


def load() -> str:
    try:
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average n/a"


@dataclass
class Target:
    name: str
    measured: str
    met: bool | None


@dataclass
class Section:
    """A group of rows: ``columns`` names the cells, ``rows`` are (label, method, cells)."""

    title: str
    columns: list
    rows: list
    notes: list = field(default_factory=list)
    targets: list = field(default_factory=list)
    body: str | None = None  # a table of its own, shown instead of ``rows``

    def markdown(self) -> str:
        if self.body is not None:
            return "\n".join([f"### {self.title}", "", self.body, "", *self.notes])
        head = ["interval", "method", *self.columns]
        lines = [f"### {self.title}", "", "| " + " | ".join(head) + " |",
                 "|" + "---|" * len(head)]
        for label, method, cells in self.rows:
            shown = [("" if c is None else f"{c:.1f}") for c in cells]
            mark = f"**{method}**" if method == DEFAULT else method
            lines.append(f"| {label} | {mark} | " + " | ".join(shown) + " |")
        return "\n".join(lines + [""] + self.notes)


# --------------------------------------------------------------------------- one cell


def _evaluators(design, y, forecasts, weight):
    if design.kind == "regression":
        return [metrics.regression_evaluator(y, f, sample_weight=weight) for f in forecasts]
    classes = [0, 1] if design.kind == "binary" else [0, 1, 2]
    return [metrics.classification_evaluator(y, classes, proba=f, sample_weight=weight)
            for f in forecasts]


def _intervals(result, keys, method):
    """Intervals of ``keys`` by ``method``, and whether a NarrowIntervalWarning fired."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", NarrowIntervalWarning)
        ci = result.intervals(level=LEVEL, method=method, metrics=keys)
    return ci, any(issubclass(w.category, NarrowIntervalWarning) for w in caught)


def _delong(y, forecasts):
    if min(np.sum(y == 1), np.sum(y == 0)) < 2:  # no DeLong interval: counts as a miss
        return {"roc_auc": (np.nan, np.nan), "d roc_auc": (np.nan, np.nan)}
    one = resampling.delong_roc_auc(y, forecasts[0][:, 1], level=LEVEL)
    two = resampling.delong_roc_auc_difference(y, forecasts[0][:, 1], forecasts[1][:, 1],
                                               level=LEVEL)
    return {"roc_auc": (one.low, one.high), "d roc_auc": (two.low, two.high)}


def simulate_cell(task) -> dict:
    """Coverage counts of every (interval, method) in one cell: ``task`` is (design name,
    n, base rate, data sets, replicates)."""
    name, n, rate, sims, n_boot = task
    design = DESIGNS[name]
    truth = design.truth(rate)
    keys = REGRESSION_KEYS if design.kind == "regression" else CLASS_KEYS
    diffs = DIFF_KEYS[design.kind]
    target = {k: truth[0][k] for k in keys}
    target.update({f"d {k}": truth[0][k] - truth[1][k] for k in diffs})
    rng = np.random.default_rng(zlib.crc32(f"{name}|{n}|{rate}".encode()))
    covered, widths, warned, trace, discordant = {}, {}, 0, [], {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate replicates, few events: counted below
        for _ in range(sims):
            y, forecasts, weight = design.draw(rng, n, rate)
            evs = _evaluators(design, y, forecasts, weight)
            seed = int(rng.integers(2**31))
            res = resampling.joint_bootstrap(evs, n_boot=n_boot, random_state=seed, metrics=list(keys))
            paired = resampling.PairedBootstrapResult(res[0], res[1])
            found = {}
            for method in METHODS:
                ci, fired = _intervals(res[0], keys, method)
                dci, dfired = _intervals(paired, diffs, method)
                found.update({(k, method): v for k, v in ci.items()})
                found.update({(f"d {k}", method): v for k, v in dci.items()})
                warned += method == DEFAULT and (fired or dfired)
            pois = resampling.joint_bootstrap(evs, n_boot=n_boot, random_state=seed,
                                              metrics=list(keys), scheme="poisson",
                                              ci_method="percentile")
            ci, _ = _intervals(pois[0], keys, "percentile")
            dci, _ = _intervals(resampling.PairedBootstrapResult(pois[0], pois[1]), diffs,
                                "percentile")
            found.update({(k, POISSON): v for k, v in ci.items()})
            found.update({(f"d {k}", POISSON): v for k, v in dci.items()})
            if design.kind == "binary" and weight is None:
                found.update({(k, "delong"): v for k, v in _delong(y, forecasts).items()})
            for (k, method), (lo, hi) in found.items():
                covered[k, method] = covered.get((k, method), 0) + bool(lo <= target[k] <= hi)
                widths[k, method] = widths.get((k, method), 0.0) + (hi - lo)
            # The two bootstraps share their data sets: their coverages differ only by the
            # data sets on which one covers and the other does not (what the gap's
            # interval rests on).
            for k in target:
                hits = [found[k, m][0] <= target[k] <= found[k, m][1]
                        for m in (POISSON, "percentile")]
                if hits[0] != hits[1]:
                    pair = (k, "poisson only" if hits[0] else "percentile only")
                    discordant[pair] = discordant.get(pair, 0) + 1
            # The events beside whether each method covered: when to warn.
            for k in target:
                trace.append((k, res[0].events, {m: bool(found[k, m][0] <= target[k] <=
                                                          found[k, m][1]) for m in METHODS}))
    return {"task": task, "covered": covered, "widths": widths, "warned": warned,
            "trace": trace, "discordant": discordant}


# --------------------------------------------------------------------------- sections


def _cells(args, design):
    rates = [None] if design.kind == "regression" else args.rates
    return [(n, r) for n in args.sizes for r in rates]


def _column(n, rate, kind):
    if rate is None:
        return f"n={n}"
    what = "rarest class" if kind == "multiclass" else "base rate"
    shown = "1/3" if kind == "multiclass" and rate == 0.5 else f"{rate:g}"
    return f"n={n}, {what} {shown}"


def design_section(name, args, results) -> Section:
    design = DESIGNS[name]
    cells = _cells(args, design)
    columns = [_column(n, r, design.kind) for n, r in cells]
    out = {(n, r): results[(name, n, r)] for n, r in cells}
    keys = REGRESSION_KEYS if design.kind == "regression" else CLASS_KEYS
    labels = [*keys, *(f"d {k}" for k in DIFF_KEYS[design.kind])]
    rows = []
    for label in labels:
        methods = [*METHODS, POISSON]
        if design.kind == "binary" and name != "weighted" and label in ("roc_auc", "d roc_auc"):
            methods.append("delong")
        for method in methods:
            cell = [100 * out[c]["covered"].get((label, method), np.nan) / args.sims
                    for c in cells]
            shown = label.replace("d ", "Δ ")
            rows.append((shown, method, cell))
    rows.append(("warned (default)", DEFAULT, [100 * out[c]["warned"] / args.sims
                                               for c in cells]))
    ratio = []
    for c, col in zip(cells, columns):
        w = out[c]["widths"]
        r = [w[(k, DEFAULT)] / w[(k, "percentile")] for k in labels
             if w.get((k, "percentile"), 0) > 0]
        ratio.append(f"{col}: {np.median(r):.2f}")
    notes = [f"Width of the default interval over the percentile interval's, median over "
             f"the intervals: {'; '.join(ratio)}.", ""]
    sec = Section(f"{name} ({args.sims} data sets per cell, {args.n_boot} replicates)",
                  columns, rows, notes)
    sec.targets = _targets(name, design, cells, out, args) + _poisson_target(
        name, cells, out, labels, args)
    return sec


def gap_interval(poisson_only: int, percentile_only: int, sims: int, level=0.95) -> tuple:
    """Points: the paired gap between the two bootstraps' coverages (Poisson minus
    multinomial) and its exact interval.

    The intervals share their data sets, so the gap is ``(b - c) / sims`` with ``b`` the data
    sets only the Poisson interval covers and ``c`` those only the multinomial one does.
    Given ``m = b + c``, ``b`` is Binomial(m, pi) and the gap ``(2 pi - 1) m / sims``; the
    Clopper-Pearson interval of ``pi`` gives the gap's (McNemar's exact conditional test,
    read as an interval).
    """
    m = poisson_only + percentile_only
    gap = 100 * (poisson_only - percentile_only) / sims
    if m == 0:
        return gap, 0.0, 0.0
    from scipy.stats import binomtest  # noqa: PLC0415 - only this summary needs it

    ci = binomtest(poisson_only, m).proportion_ci(confidence_level=level, method="exact")
    return gap, 100 * (2 * ci.low - 1) * m / sims, 100 * (2 * ci.high - 1) * m / sims


def _poisson_target(name, cells, out, labels, args) -> list:
    """The Poisson bootstrap's percentile interval covers as the multinomial one does: within
    ``POISSON_GAP`` points in every cell and for every interval of the design; the largest
    gap is shown with its paired interval (:func:`gap_interval`), which says whether it is
    more than the Monte Carlo noise of ``--sims`` data sets."""
    gaps = [(100 * abs(out[c]["covered"].get((k, POISSON), 0)
                       - out[c]["covered"].get((k, "percentile"), 0)) / args.sims, k, c)
            for c in cells for k in labels]
    worst, key, cell = max(gaps)
    pairs = out[cell]["discordant"]
    b, c = pairs.get((key, "poisson only"), 0), pairs.get((key, "percentile only"), 0)
    gap, low, high = gap_interval(b, c, args.sims)
    measured = (f"largest gap {worst:.1f} points ({key.replace('d ', 'Δ ')}, n = {cell[0]}"
                f"{'' if cell[1] is None else f', rate {cell[1]:g}'}: Poisson minus "
                f"multinomial {gap:+.1f}, 95% CI {low:+.1f} to {high:+.1f} from {b} + {c} "
                f"data sets covered by one only); mean gap "
                f"{np.mean([g for g, _, _ in gaps]):.2f}")
    return [Target(f"Poisson percentile within {POISSON_GAP} points of the multinomial "
                   f"percentile, {name}", measured, worst <= POISSON_GAP)]


def _targets(name, design, cells, out, args) -> list:
    """The small-sample target: at n = 200 and base rate .05 every interval of the default
    method covers >= 91%; for regression, rmse with t(5) errors at n = 200; with lognormal
    errors (s = 1) at n = 200, rmse and r2 cover >= 91% or the default's intervals come with
    a NarrowIntervalWarning on >= 90% of the data sets."""
    small = (200, 0.05) if design.kind != "regression" else (200, None)
    if name == "regression lognormal(1)" and small in cells:
        got = {k: 100 * out[small]["covered"][(k, DEFAULT)] / args.sims for k in ("rmse", "r2")}
        warned = 100 * out[small]["warned"] / args.sims
        measured = f"rmse {got['rmse']:.1f}, r2 {got['r2']:.1f}; warned {warned:.1f}"
        return [Target(f"coverage >= {TARGET:.0f}% or warned >= 90%, {name}, n = 200",
                       measured, min(got.values()) >= TARGET or warned >= 90)]
    if small not in cells or (design.kind == "regression" and design.df != 5):
        return []
    labels = [*CLASS_KEYS, "d brier_skill", "d roc_auc"] if design.kind != "regression" \
        else ["rmse"]
    got = {k: 100 * out[small]["covered"][(k, DEFAULT)] / args.sims for k in labels}
    base = {k: 100 * out[small]["covered"][(k, "percentile")] / args.sims for k in labels}
    measured = "; ".join(f"{k.replace('d ', 'Δ ')} {got[k]:.1f} (percentile {base[k]:.1f})"
                         for k in labels)
    where = "n = 200, t(5) errors" if design.kind == "regression" else \
        "n = 200, base rate .05" if design.kind == "binary" else "n = 200, rarest class .05"
    return [Target(f"coverage >= {TARGET:.0f}% with {DEFAULT}, {name}, {where}", measured,
                   all(v >= TARGET for v in got.values()))]


def interval_sections(args) -> list:
    """The bootstrap intervals of every design: one section per design."""
    tasks = [(name, n, r, args.sims, args.n_boot) for name in args.designs
             for n, r in _cells(args, DESIGNS[name])]
    results, t0 = {}, time.perf_counter()
    with Pool(args.jobs) as pool:
        for out in pool.imap_unordered(simulate_cell, tasks):
            name, n, r = out["task"][:3]
            results[(name, n, r)] = out
            print(f"  done {name}, n = {n}, rate {r} ({time.perf_counter() - t0:.0f} s; "
                  f"{load()})", flush=True)
    return [design_section(name, args, results) for name in args.designs]


# Small samples beyond the targets: where intervals stop keeping their level.
EVENT_CELLS = [("logistic", 100, 0.05), ("logistic", 200, 0.02), ("probit", 100, 0.04),
               ("logistic", 60, 0.1)]


def events_section(args) -> list:
    """Coverage of every method by the number of events in the rarest class, pooled over
    small designs: where the NarrowIntervalWarning starts (fewer than
    ``resampling.MIN_EVENTS``)."""
    tasks = [(name, n, r, args.sims, args.n_boot) for name, n, r in EVENT_CELLS]
    with Pool(args.jobs) as pool:
        outs = pool.map(simulate_cell, tasks)
    trace = [t for out in outs for t in out["trace"]]
    keys = [*CLASS_KEYS, "d brier_skill", "d roc_auc"]
    events = sorted({int(round(e)) for _, e, _ in trace if e is not None and e <= 8})
    rows = []
    for k in keys:
        for method in METHODS:
            cells = []
            for e in events:
                hit = [c[method] for key, ev, c in trace if key == k and ev is not None and
                       round(ev) == e]
                cells.append(100 * np.mean(hit) if len(hit) >= 20 else None)
            rows.append((k.replace("d ", "Δ "), method, cells))
    counts = [sum(1 for key, ev, _ in trace if key == keys[0] and ev is not None and
                  round(ev) == e) for e in events]
    title = (f"by events in the rarest class ({args.sims} data sets each of "
             f"{'; '.join(f'{d} n={n} rate {r:g}' for d, n, r in EVENT_CELLS)})")
    notes = [f"Data sets per column: {', '.join(f'{e}: {c}' for e, c in zip(events, counts))}"
             f" (columns with fewer than 20 left blank). A NarrowIntervalWarning comes with "
             f"fewer than {resampling.MIN_EVENTS} events.", ""]
    return [Section(title, [f"{e} event{'s' if e != 1 else ''}" for e in events], rows, notes)]


# The calibration test (``metrics.calibration_test``): its own designs and simulation, in
# ``coverage_calibration.py``; the cells' designs named as in ``coverage_designs.py``.
_CALIBRATION_DESIGN = {"logit": "logistic", "probit": "probit", "weighted": "weighted",
                       "multiclass": "multiclass"}
BAND_SIZES, BAND_RATES, BAND_BOOT = (500, 2000), (0.5, 0.08), 500


def _calibration_cell(task) -> dict:
    index, reps, n_boot = task
    return calibration.simulate(calibration.CELLS[index], reps, n_boot, seed=index)


def _calibration_name(cell) -> str:
    return cell["link"] if cell["kind"] == "binary" else cell["kind"]


def calibration_section(args) -> list:
    """Coverage of the population MCB by the calibration test's interval, the test's size
    and power, and the bias of ``excess``: the cells of ``coverage_calibration.CELLS`` whose
    size and design were asked for (each with its own seed, as that script runs them)."""
    chosen = [i for i, c in enumerate(calibration.CELLS) if c["n"] in args.sizes and
              _CALIBRATION_DESIGN[_calibration_name(c)] in args.designs]
    if not chosen:
        return []
    with Pool(args.jobs) as pool:
        rows = pool.map(_calibration_cell, [(i, args.sims, args.n_boot) for i in chosen])
    lines = ["| design | forecast | n | base rate | truth | mean MCB | noise floor | "
             "mean excess | rejects at 5% | coverage | mean width | targets |",
             "|" + "---|" * 12]
    targets = []
    for r in rows:
        forecast = "miscalibrated" if r["miscalibrated"] else "calibrated"
        rate = "-" if np.isnan(r["base_rate"]) else f"{r['base_rate']:g}"
        met = calibration.targets(r)
        lines.append(
            f"| {_calibration_name(r)} | {forecast} | {r['n']} | {rate} | {r['truth']:.5f} | "
            f"{r['mean_mcb']:.5f} | {r['noise_floor']:.5f} | {r['mean_excess']:+.5f} | "
            f"{100 * r['reject']:.1f} | {100 * r['coverage']:.1f} | {r['width']:.5f} | "
            f"{'; '.join(met)} |")
        if met:
            targets.append(Target(
                f"calibration test, {_calibration_name(r)} {forecast}, n = {r['n']}, base "
                f"rate {rate}: " + "; ".join(m.rsplit(":", 1)[0] for m in met),
                f"coverage {100 * r['coverage']:.1f}%, rejects {100 * r['reject']:.1f}%, "
                f"mean excess {r['mean_excess']:+.5f} (truth {r['truth']:.5f})",
                all(m.endswith(": met") for m in met)))
    notes = ["`truth` is the population MCB; `mean MCB` the average in-sample CORP MCB "
             "(`calibration_mcb`), `noise floor` and `mean excess` the averages of the test's "
             "numbers; `rejects at 5%` the share of data sets with p <= 0.05 (size for a "
             "calibrated forecast, power for a miscalibrated one); `coverage` the share whose "
             "95% `confidence_interval` held the truth.", ""]
    title = (f"the calibration test ({args.sims} data sets per cell, {args.n_boot} outcome "
             f"draws)")
    return [Section(title, [], [], notes, targets, body="\n".join(lines))]


def _band_cell(task) -> float:
    n, rate, band, reps = task
    return calibration.band_coverage(n, rate, band, reps, BAND_BOOT, seed=n)


def band_section(args) -> list:
    """Whole-curve coverage of the reliability diagram's 90% consistency band, simultaneous
    and pointwise, on calibrated logistic forecasts (``coverage_calibration.band_coverage``)."""
    reps = max(100, args.sims // 2)
    cells = [(n, r) for n in args.band_sizes for r in BAND_RATES]
    tasks = [(n, r, band, reps) for n, r in cells for band in ("simultaneous", "pointwise")]
    with Pool(args.jobs) as pool:
        got = dict(zip(tasks, pool.map(_band_cell, tasks)))
    lines = ["| n | base rate | simultaneous | pointwise |", "|---|---|---|---|"]
    targets = []
    for n, r in cells:
        sim, pw = got[(n, r, "simultaneous", reps)], got[(n, r, "pointwise", reps)]
        lines.append(f"| {n} | {r:g} | {100 * sim:.1f} | {100 * pw:.1f} |")
        targets.append(Target(f"simultaneous 90% band holds the whole curve 85-95%, n = {n}, "
                              f"base rate {r:g}", f"{100 * sim:.1f}% (pointwise "
                              f"{100 * pw:.1f}%)", 0.85 <= sim <= 0.95))
    notes = ["Percent of calibrated data sets whose whole CORP reliability curve stays inside "
             "the 90% consistency band.", ""]
    title = f"the reliability diagram's band ({reps} data sets per cell, {BAND_BOOT} draws)"
    return [Section(title, [], [], notes, targets, body="\n".join(lines))]


# The Poisson interval's width against the multinomial one's: (size, data sets) per row.
WIDTH_CELLS = ((200, 200), (800, 100))


def _width_cell(task) -> dict:
    """Mean log width ratio, Poisson percentile over multinomial percentile, of every
    interval of the multiclass design at rarest class .05, on ``sims`` data sets of ``n``."""
    n, sims, n_boot = task
    design = DESIGNS["multiclass"]
    rng = np.random.default_rng(zlib.crc32(f"widths|{n}".encode()))
    logs = {k: [] for k in CLASS_KEYS}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(sims):
            y, forecasts, weight = design.draw(rng, n, 0.05)
            ev = _evaluators(design, y, forecasts, weight)[0]
            seed = int(rng.integers(2**31))
            width = {}
            for scheme in ("poisson", "multinomial"):
                res = resampling.bootstrap(ev, n_boot=n_boot, random_state=seed,
                                           metrics=list(CLASS_KEYS), scheme=scheme,
                                           ci_method="percentile")
                ci = res.intervals(level=LEVEL, method="percentile", metrics=list(CLASS_KEYS))
                width[scheme] = {k: hi - lo for k, (lo, hi) in ci.items()}
            for k in CLASS_KEYS:
                logs[k].append(np.log(width["poisson"][k] / width["multinomial"][k]))
    return {"task": task, "logs": logs}


def width_section(args) -> list:
    """Is the Poisson percentile interval wider than the multinomial one, and does the
    difference shrink as 1/n (what a Poisson replicate being a multinomial one of a random
    size predicts), or stay (a bias)? Multiclass design, rarest class .05."""
    tasks = [(n, sims, args.n_boot) for n, sims in WIDTH_CELLS]
    with Pool(args.jobs) as pool:
        outs = pool.map(_width_cell, tasks)
    lines = ["| n | data sets | " + " | ".join(CLASS_KEYS) + " |",
             "|---|---|" + "---|" * len(CLASS_KEYS)]
    for out in outs:
        n, sims, _ = out["task"]
        cells = [f"{100 * np.mean(v):+.2f} ± {100 * np.std(v) / np.sqrt(len(v)):.2f}"
                 for v in out["logs"].values()]
        lines.append(f"| {n} | {sims} | " + " | ".join(cells) + " |")
    notes = ["Mean log width ratio, Poisson percentile over multinomial percentile, in "
             f"percent (± its standard error), {args.n_boot} replicates each, the same data "
             "sets for both; multiclass, rarest class .05.", ""]
    title = "the Poisson interval's width against the multinomial one's"
    return [Section(title, [], [], notes, body="\n".join(lines))]


SECTIONS = {"intervals": interval_sections, "events": events_section,
            "calibration": calibration_section, "band": band_section,
            "widths": width_section}


# --------------------------------------------------------------------------- main


def check_truth(rows: int = 4_000_000) -> None:
    """The quadrature's population values against those of ``rows`` drawn rows."""
    for name, design in DESIGNS.items():
        if design.kind == "regression":
            continue
        for rate in (0.5, 0.05):
            y, forecasts, weight = design.draw(np.random.default_rng(1), rows, rate)
            evs = _evaluators(design, y, forecasts, weight)
            drawn = [ev.evaluate(None, warn=False, metrics=list(CLASS_KEYS)) for ev in evs]
            for model, (grid, d) in enumerate(zip(design.truth(rate), drawn)):
                gaps = ", ".join(f"{k} {grid[k]:.5f} vs {float(d[k][0]):.5f}"
                                 for k in CLASS_KEYS)
                print(f"{name} rate {rate} model {'AB'[model]}: {gaps}", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="n = 200 only (the band at 500), 150 data sets, 1000 replicates")
    parser.add_argument("--sims", type=int, default=400)
    parser.add_argument("--n-boot", type=int, default=2000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 2000])
    parser.add_argument("--rates", type=float, nargs="+", default=[0.5, 0.05],
                        help="base rates of the classification designs (rarest class for "
                             "three classes)")
    parser.add_argument("--designs", nargs="+", default=list(DESIGNS), choices=list(DESIGNS))
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--sections", nargs="+", default=list(SECTIONS), choices=list(SECTIONS),
                        help="which groups of rows to run (default: all)")
    parser.add_argument("--check-truth", action="store_true")
    args = parser.parse_args(argv)
    if args.check_truth:
        check_truth()
        return
    if args.quick:
        args.sims, args.n_boot, args.sizes = 150, 1000, [200]
    args.band_sizes = BAND_SIZES[:1] if args.quick else BAND_SIZES
    t0 = time.perf_counter()
    print(f"chimeraboost coverage: {args.sims} data sets per cell, {args.n_boot} replicates, "
          f"{LEVEL:.0%} intervals; {load()}", flush=True)
    sections = [sec for name in args.sections for sec in SECTIONS[name](args)]
    print()
    for sec in sections:
        print(sec.markdown())
    targets = [t for sec in sections for t in sec.targets]
    print("| target | measured | status |\n|---|---|---|")
    for t in targets:
        status = "met" if t.met else "**not met**"
        print(f"| {t.name} | {t.measured} | {status} |")
    print(f"\ndone in {time.perf_counter() - t0:.0f} s; {load()}")


if __name__ == "__main__":
    main()
