"""Do the intervals hold when rows are not independent? Coverage with ``groups=`` and ``time=``.

Designs (every row's forecast is calibrated given its features, so that the population value of
every metric is that of single rows, whatever the dependence between them):

- ``snapshot``: ``G`` customers with ``m`` rows each; ``x_i ~ N(0, 1)`` fixed per customer;
  the latent ``1.2 x_i - 0.8 + sqrt(rho) u_i + sqrt(1 - rho) e_it`` with ``u_i, e_it ~ N(0,
  1)``; ``y = 1{latent > 0}`` (base rate 0.304); model A forecasts ``Phi(1.2 x - 0.8)``,
  calibrated given ``x``; model B adds ``eta_i ~ N(0, 0.5^2)``, drawn once per customer, to
  A's logit (a model whose error persists over a customer's rows). Intervals from
  ``resampling.joint_bootstrap(..., groups=customer)``.
- ``time``: 2,000 time-ordered rows; latent ``1.2 x_t - 0.8 + a_t``, ``x_t ~ N(0, 1)``
  independent, ``a_t`` an AR(1) of unit variance (``a_t = phi a_(t-1) + sqrt(1 - phi^2)
  eps_t``), so that ``P(y = 1 | x) = Phi(1.2 x - 0.8)`` again; B's noise is drawn per row.
  Intervals with ``time=np.arange(n)``.
- ``iid``: independent rows (the snapshot design with ``m = 1``), resampled as rows (the
  default), with ``groups=np.arange(n)`` and with ``time=np.arange(n)``, on the same data sets.

Metrics: ``brier_skill``, ``log_loss_skill``, ``roc_auc``, ``pr_auc`` (from
``metrics.classification_evaluator``), the net benefit at the threshold 0.2 (from the
``decisions`` evaluator, as ``decisions.decision_curve`` resamples it), and the paired
differences ``A - B`` of all five. Population values by quadrature over ``x`` and B's noise (a
grid of 2001 x 121 points, A's on 200,001 points of ``x``; ``--check-truth`` compares them with 4,000,000 drawn rows).

Columns: the default method (``resampling.DEFAULT_CI_METHOD``) and the percentile method,
both resampling the units; and ``rows``: the default method resampling single rows as if they
were independent (what every interval of the library did before ``groups=`` / ``time=``).
``warned``: the share of data sets on which the grouped default came with a chimeraboost
warning that an interval is likely too narrow (few groups, few events); ``widened``: the share
on which the paired difference of net benefit was widened because fewer than
``resampling.MIN_DISCORDANT`` customers decide differently (its own ``NarrowIntervalWarning``).

Usage::

    python benchmarks/coverage_dependence.py --jobs 2           # 400 / 200 data sets
    python benchmarks/coverage_dependence.py --quick --jobs 2   # 100 data sets everywhere
    python benchmarks/coverage_dependence.py --sections fewgroups --sims 200
    python benchmarks/coverage_dependence.py --check-truth

Sections: ``snapshot``, ``time`` and ``iid`` (the cells above; 400 data sets each), and with
200 data sets each: ``other`` (G = 100 customers, rho = 0.7, in three designs the named cells
do not cover: unequal sizes with mean 12, an AR(1) within each customer, features that change
over a customer's rows; see :func:`draw_other`), ``fewgroups`` (600 rows in G = 5 ... 50 customers, rho = 0.7: where
resampling whole groups stops holding, with the coverage by the default interval's degrees of
freedom) and ``discordant`` (the paired difference of net benefit by the number of customers on
which the two models decide differently; G = 25 ... 400, m = 12: covered as read now, by the
replicates alone as before the discordant-units rule, and by the rule's hull at every number
of customers, what a larger ``MIN_DISCORDANT`` would give). ``--g`` keeps the snapshot cells
of some numbers of customers only. ``minimum`` re-runs the paired net benefit alone on the
snapshot cells' data sets (G = 100 and 400; the same random numbers) and prints its coverage
for each ``MIN_DISCORDANT``: how the rule's boundary was chosen; and, for each way of reading
the interval from ``MIN_DISCORDANT`` discordant customers on, its coverage and width (with
``--g 1200``: 1,200 independent rows as groups of one; ``--g 2000``: the time cells' data sets,
time blocks resampled). Chunks of every cell are
interleaved and ``--partial FILE`` rewrites the tables after each, so that a run stopped early
still has a table of every cell.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
import zlib
from multiprocessing import Pool

import numpy as np
from scipy.special import expit, logit
from scipy.stats import binomtest, norm
from scipy.stats import t as student_t

from chimeraboost import metrics, resampling
from chimeraboost.resampling import _discordant
from chimeraboost.decisions._sweep import DecisionEvaluator

LEVEL = 0.95
DEFAULT = resampling.DEFAULT_CI_METHOD
CLASS_KEYS = ("brier_skill", "log_loss_skill", "roc_auc", "pr_auc")
THRESHOLD = 0.2
NB = f"net_benefit@{THRESHOLD!r}"
KEYS = (*CLASS_KEYS, NB)
ALL = (*KEYS, *(f"Δ {k}" for k in KEYS))
NOISE_SD = 0.5
CHUNK = 25  # data sets per task handed to a process


def load() -> str:
    try:
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average n/a"


# --------------------------------------------------------------------------- data


def forecasts(x, eta):
    """Model A's calibrated forecast and model B's (A's logit plus ``eta``)."""
    p = norm.cdf(1.2 * x - 0.8)
    return p, expit(logit(p) + eta)


def draw_snapshot(rng, g, m, rho):
    x = np.repeat(rng.standard_normal(g), m)
    u = np.repeat(rng.standard_normal(g), m)
    eta = np.repeat(rng.normal(0.0, NOISE_SD, g), m)
    latent = 1.2 * x - 0.8 + np.sqrt(rho) * u + np.sqrt(1 - rho) * rng.standard_normal(g * m)
    p, q = forecasts(x, eta)
    return (latent > 0).astype(np.int64), p, q, np.repeat(np.arange(g), m)


def draw_time(rng, n, phi):
    x = rng.standard_normal(n)
    eps = rng.standard_normal(n)
    a = np.empty(n)
    a[0] = eps[0]
    s = np.sqrt(1 - phi * phi)
    for t in range(1, n):
        a[t] = phi * a[t - 1] + s * eps[t]
    p, q = forecasts(x, rng.normal(0.0, NOISE_SD, n))
    return (1.2 * x - 0.8 + a > 0).astype(np.int64), p, q, np.arange(n)


def draw_other(rng, design, g, m, rho):
    """Snapshot designs the named cells do not cover, each keeping every row's forecast
    calibrated given its own x (so that the population values are those of the named cells):

    - ``unequal``: customer sizes ``1 + NegativeBinomial`` with mean ``m`` (from 1 to about
      6 m), drawn independently of x and u;
    - ``ar``: the row noise an AR(1) over a customer's months (phi = 0.8, unit variance) on
      top of the customer effect: dependence that decays within a customer;
    - ``varying``: features that change over a customer's rows, ``x_it = (x_i + z_it) /
      sqrt(2)``, so that a customer's forecasts differ row to row.
    """
    sizes = (1 + rng.negative_binomial(2, 2 / (m + 1), g) if design == "unequal"
             else np.full(g, m))
    customer = np.repeat(np.arange(g), sizes)
    n = customer.size
    x = rng.standard_normal(g)[customer]
    if design == "varying":
        x = (x + rng.standard_normal(n)) / np.sqrt(2)
    e = rng.standard_normal(n)
    if design == "ar":
        phi, first = 0.8, np.r_[True, customer[1:] != customer[:-1]]
        for t in range(1, n):
            if not first[t]:
                e[t] = phi * e[t - 1] + np.sqrt(1 - phi * phi) * e[t]
    u = rng.standard_normal(g)[customer]
    p, q = forecasts(x, rng.normal(0.0, NOISE_SD, g)[customer])
    latent = 1.2 * x - 0.8 + np.sqrt(rho) * u + np.sqrt(1 - rho) * e
    return (latent > 0).astype(np.int64), p, q, customer


def draw(rng, cell):
    kind = cell[0]
    if kind == "other":
        return draw_other(rng, *cell[1:])
    if kind == "time":
        return draw_time(rng, cell[1], cell[2])
    if kind == "iid":
        return draw_snapshot(rng, cell[1], 1, 0.0)
    return draw_snapshot(rng, cell[1], cell[2], cell[3])


# --------------------------------------------------------------------------- population


def _evaluators(y, p, q, weight=None):
    cls = [metrics.classification_evaluator(y, [0, 1], proba=f, sample_weight=weight)
           for f in (p, q)]
    dec = [DecisionEvaluator(y, f, [THRESHOLD], sample_weight=weight, names={"net_benefit"})
           for f in (p, q)]
    return cls, dec


def _point(y, p, q, weight=None) -> list[dict]:
    cls, _ = _evaluators(y, p, q, weight)
    out = []
    for ev, f in zip(cls, (p, q)):
        got = ev.evaluate(None, warn=False, metrics=list(CLASS_KEYS))
        row = {k: float(got[k][0]) for k in CLASS_KEYS}
        w = np.ones_like(f) if weight is None else weight
        treat = f >= THRESHOLD
        total = w.sum()
        tp, fp = np.sum(w * treat * (y == 1)), np.sum(w * treat * (y == 0))
        row[NB] = float(tp / total - fp / total * THRESHOLD / (1 - THRESHOLD))
        out.append(row)
    return out


def truth() -> dict:
    """Population values of A, B and A - B: every grid point is one row per class, weighted
    by its density times ``P(y = k | x)`` (the midpoint rule). B on a grid of ``(x, eta)``;
    A, whose forecast depends on ``x`` only, on a fine grid of ``x`` alone: the PR-AUC takes
    the two classes of a grid point as one tied step, which biases it by about the grid's
    spacing (0.0009 with 2,001 points of ``x``, 1e-5 with 200,001)."""
    x = np.linspace(-8, 8, 200_001)
    dens = norm.pdf(x) / norm.pdf(x).sum()
    p = forecasts(x, 0.0)[0]
    y = np.r_[np.zeros(x.size, np.int64), np.ones(x.size, np.int64)]
    a = _point(y, np.r_[p, p], np.r_[p, p], np.r_[dens * (1 - p), dens * p])[0]
    x = np.linspace(-8, 8, 2001)
    eta = np.linspace(-6 * NOISE_SD, 6 * NOISE_SD, 121)
    gx, ge = np.meshgrid(x, eta, indexing="ij")
    dens = (norm.pdf(gx) * norm.pdf(ge, scale=NOISE_SD)).ravel()
    dens /= dens.sum()
    p, q = forecasts(gx.ravel(), ge.ravel())
    y = np.r_[np.zeros(p.size, np.int64), np.ones(p.size, np.int64)]
    b = _point(y, np.r_[p, p], np.r_[q, q], np.r_[dens * (1 - p), dens * p])[1]
    return {**a, **{f"Δ {k}": a[k] - b[k] for k in KEYS}}


def check_truth(rows: int = 4_000_000) -> None:
    """The quadrature against ``rows`` independent drawn rows."""
    grid = truth()
    y, p, q, _ = draw_snapshot(np.random.default_rng(7), rows, 1, 0.0)
    a, b = _point(y, p, q)
    drawn = {**a, **{f"Δ {k}": a[k] - b[k] for k in KEYS}}
    print(f"base rate: closed form {norm.cdf(-0.8 / np.sqrt(1 + 1.44)):.5f}, drawn "
          f"{y.mean():.5f}")
    for k in ALL:
        print(f"{k}: quadrature {grid[k]:.5f}, {rows:,} drawn rows {drawn[k]:.5f}")


# --------------------------------------------------------------------------- one data set


def _bootstrap(cls, dec, seed, n_boot, **units):
    """Results of A and B, and their paired differences, for the five metrics."""
    a, b = resampling.joint_bootstrap(cls, n_boot=n_boot, random_state=seed,
                                      metrics=list(CLASS_KEYS),
                                      **units)
    da, db = resampling.joint_bootstrap(dec, n_boot=n_boot, random_state=seed, **units)
    return ((a, CLASS_KEYS), (da, (NB,)),
            (resampling.PairedBootstrapResult(a, b), CLASS_KEYS),
            (resampling.PairedBootstrapResult(da, db), (NB,)))


def _kinds(caught) -> set:
    """Which chimeraboost warnings were caught: ``"widened"`` (a paired difference of a
    decision widened because few units decide differently) or ``"narrow"`` (any other: few
    groups, few events)."""
    return {("widened" if "were widened" in str(w.message) else "narrow") for w in caught
            if w.category.__module__.startswith("chimeraboost")}


def _intervals(parts, method) -> tuple[dict, set]:
    """``{label: (low, high)}`` of every number by ``method``, and which chimeraboost
    warnings came with them (:func:`_kinds`)."""
    out = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i, (res, keys) in enumerate(parts):
            ci = res.intervals(level=LEVEL, method=method, metrics=list(keys))
            out.update({(k if i < 2 else f"Δ {k}"): (v[0], v[1]) for k, v in ci.items()})
    return out, _kinds(caught)


def _schemes(cell, units):
    """(column name, bootstrap keyword arguments, methods) of every interval of a cell."""
    kind = cell[0]
    if kind == "iid":
        return [("rows", {}, (DEFAULT, "percentile")),
                ("groups of one", {"groups": units}, (DEFAULT, "percentile")),
                ("time", {"time": units}, (DEFAULT, "percentile"))]
    dep = {"time": units} if kind == "time" else {"groups": units}
    if kind == "fewgroups":
        return [("units", dep, (DEFAULT, "percentile"))]
    return [("units", dep, (DEFAULT, "percentile")), ("rows", {}, (DEFAULT,))]


def simulate(task) -> dict:
    """Coverage counts, widths and warnings of ``sims`` data sets of one cell."""
    cell, chunk, sims, n_boot = task
    if cell[0] == "discordant":
        return simulate_discordant(task)
    if cell[0] == "minimum":
        return simulate_minimum(task)
    target = TRUTH
    rng = np.random.default_rng(zlib.crc32(f"{cell}|{chunk}".encode()))
    covered, width, warned, widened, deff, dfs, trace = {}, {}, 0, 0, {}, {}, []
    for _ in range(sims):
        y, p, q, units = draw(rng, cell)
        cls, dec = _evaluators(y, p, q)
        seed = int(rng.integers(2**31))
        hits = {}  # (scheme, number) -> covered by the default: the iid cell's paired counts
        for col, kw, methods in _schemes(cell, units):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                parts = _bootstrap(cls, dec, seed, n_boot, **kw)
            fired = _kinds(caught)
            found = {}
            for method in methods:
                ci, more = _intervals(parts, method)
                found[method] = ci
                if col != "rows" and method == DEFAULT:
                    warned += "narrow" in (fired | more)
                    widened += "widened" in (fired | more)
                for k, (lo, hi) in ci.items():
                    covered[col, method, k] = covered.get((col, method, k), 0) + \
                        bool(lo <= target[k] <= hi)
                    if method == DEFAULT:
                        hits[col, k] = bool(lo <= target[k] <= hi)
                    width[col, method, k] = width.get((col, method, k), 0.0) + (hi - lo)
            if kw and cell[0] != "iid":
                trace += _trace(parts, found, target)
                res = parts[0][0]
                for k in ("brier_skill", "roc_auc"):
                    deff.setdefault(k, []).append(res.design_effect(k))
                    dfs.setdefault(k, []).append(res.effective_df(k))
        if cell[0] == "iid":
            trace += [(col, k, hits[col, k], hits["rows", k]) for col in ("groups of one", "time")
                      for k in ALL]
    return {"task": task, "covered": covered, "width": width, "warned": warned,
            "widened": widened, "deff": deff, "df": dfs, "trace": trace}


def _bootstrap_alone(res, method):
    """The interval of the paired difference of net benefit as the replicates alone give it
    (what every surface showed before the discordant-units rule)."""
    jack = res.jackknife[NB] if method != "percentile" else None
    return resampling.bootstrap_interval(res.replicates[NB], res.estimate[NB], level=LEVEL,
                                         method=method, jackknife=jack, n_rows=res.n_rows,
                                         events=res.events)


def _hull(res, units, lo, hi):
    """The default interval widened by the rule whatever the number of discordant units:
    what a larger ``MIN_DISCORDANT`` would give."""
    a, b = (r.terms[NB]() for r in (res.model, res.baseline))
    saved = _discordant.MIN_DISCORDANT
    _discordant.MIN_DISCORDANT = 10**9
    try:
        found = _discordant.discordance(a, b, units, LEVEL, "groups")
    finally:
        _discordant.MIN_DISCORDANT = saved
    return (lo, hi) if found is None else found.widen(lo, hi)


def simulate_discordant(task) -> dict:
    """The paired difference of net benefit only, with the number of groups on which the two
    models decide differently at the threshold (the rows it rests on): covered as read now
    (default, percentile), by the replicates alone (before the rule), and by the rule's hull
    whatever the number (what a larger ``MIN_DISCORDANT`` would give)."""
    cell, chunk, sims, n_boot = task
    rng = np.random.default_rng(zlib.crc32(f"{cell}|{chunk}".encode()))
    trace, label = [], f"Δ {NB}"
    for _ in range(sims):
        y, p, q, units = draw_snapshot(rng, cell[1], cell[2], cell[3])
        _, dec = _evaluators(y, p, q)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a, b = resampling.joint_bootstrap(dec, n_boot=n_boot,
                                              random_state=int(rng.integers(2**31)),
                                              groups=units)
            res = resampling.PairedBootstrapResult(a, b)
            hit = [res.interval(NB, level=LEVEL, method=m, warn=False)
                   for m in (DEFAULT, "percentile")]
            alone = [_bootstrap_alone(res, m) for m in (DEFAULT, "percentile")]
            hit.append(_hull(res, units, *alone[0]))
        disc = np.unique(units[(p >= THRESHOLD) != (q >= THRESHOLD)]).size
        trace.append((disc, *(bool(lo <= TRUTH[label] <= hi) for lo, hi in hit),
                      *(bool(lo <= TRUTH[label] <= hi) for lo, hi in alone)))
    return {"task": task, "covered": {}, "width": {}, "warned": 0, "widened": 0, "deff": {},
            "df": {}, "trace": trace}


def simulate_minimum(task) -> dict:
    """The snapshot cells' data sets again (the same random numbers as :func:`simulate`), the
    paired net benefit alone: the number of customers deciding differently, and whether the
    default interval covers by the replicates alone and with the rule's hull, so that the
    coverage of every ``MIN_DISCORDANT`` can be read off."""
    cell, chunk, sims, n_boot = task
    snap = _source(cell)
    rng = np.random.default_rng(zlib.crc32(f"{snap}|{chunk}".encode()))
    trace, label = [], f"Δ {NB}"
    for _ in range(sims):
        y, p, q, units = draw(rng, snap)
        _, dec = _evaluators(y, p, q)
        seed = int(rng.integers(2**31))
        scheme = {"time": units} if snap[0] == "time" else {"groups": units}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a, b = resampling.joint_bootstrap(dec, n_boot=n_boot, random_state=seed,
                                              **scheme)
            res = resampling.PairedBootstrapResult(a, b)
            alone = _bootstrap_alone(res, DEFAULT)
            hull = _hull(res, units, *alone)
            disc = res.discordant_units(NB) or 0
            read = _readings(res, disc)
        trace.append((disc, *(bool(lo <= TRUTH[label] <= hi) for lo, hi in (alone, hull)),
                      *(v for lo, hi in read for v in (bool(lo <= TRUTH[label] <= hi),
                                                       hi - lo))))
    return {"task": task, "covered": {}, "width": {}, "warned": 0, "widened": 0, "deff": {},
            "df": {}, "trace": trace}


# Ways to read the paired net benefit's interval off the same replicates and jackknife, from
# MIN_DISCORDANT discordant customers on (below it every reading gets the rule's hull): what
# the symmetric reading with nu <= k - 1 (the library's now) was chosen from.
READINGS = ("expanded_bca (before)", "expanded_bca, nu <= k - 1",
            "expanded_percentile, nu <= k - 1", "symmetric, nu from the jackknife",
            "symmetric, nu <= k - 1 (now)")


def _readings(res, k):
    """The interval of each of :data:`READINGS` (the rule's hull below ``MIN_DISCORDANT``)."""
    reps, est, jack = res.replicates[NB], res.estimate[NB], res.jackknife[NB]
    reps = reps[~np.isnan(reps)]
    cap = k if k >= resampling.MIN_DISCORDANT else None

    def read(method, events):
        return tuple(resampling.bootstrap_interval(reps, est, level=LEVEL, method=method,
                                                   jackknife=jack, n_rows=res.n_rows,
                                                   events=events))

    def symmetric(events):
        nu = resampling.effective_df(jack, res.n_rows, events=events)
        half = np.sqrt((nu + 1) / nu) * student_t.ppf(0.5 + LEVEL / 2, nu) * np.std(reps, ddof=1)
        return est - half, est + half

    out = [read(DEFAULT, None), read(DEFAULT, cap), read("expanded_percentile", cap),
           symmetric(None), symmetric(cap)]
    found = res.discordance(NB, level=LEVEL)
    if found is not None:
        out = [found.widen(*ci) for ci in out]
    return out


def readings_table(cells_, total) -> list[str]:
    """Coverage and mean width (relative to the first reading's) of every reading, per cell
    and by the number of discordant customers."""
    lines = ["| cell | reading | coverage | mean width / before | k 4-5 | k 6-7 | k 8-11 | "
             "k >= 12 |", "|---|---|---|---|---|---|---|---|"]
    for c in cells_:
        tr = np.array(total[c]["trace"], dtype=float)
        if tr.shape[1] < 3 + 2 * len(READINGS):
            continue
        base = tr[:, 4].mean()
        for i, name in enumerate(READINGS):
            cov, wid = tr[:, 3 + 2 * i], tr[:, 4 + 2 * i]
            by = []
            for lo, hi in ((4, 6), (6, 8), (8, 12), (12, np.inf)):
                m = (tr[:, 0] >= lo) & (tr[:, 0] < hi)
                by.append(f"{100 * cov[m].mean():.1f} ({int(m.sum())})" if m.sum() >= 10
                          else f"- ({int(m.sum())})")
            lines.append(f"| {_label(_source(c))} ({len(tr)}) | {name} | "
                         f"{100 * cov.mean():.1f} | {wid.mean() / base:.3f} | " +
                         " | ".join(by) + " |")
    return lines + [""]


MINIMA = (0, 4, 5, 6, 8, 10)


def _source(cell) -> tuple:
    """The cell of ``snapshot`` or ``time`` whose data sets a ``minimum`` cell re-runs."""
    return cell[1:] if cell[1] == "time" else ("snapshot", *cell[1:])


def minimum_table(cells_, total) -> list[str]:
    lines = ["| cell | " + " | ".join(f"MIN_DISCORDANT={m}" for m in MINIMA) + " |",
             "|" + "---|" * (len(MINIMA) + 1)]
    for c in cells_:
        tr = np.array(total[c]["trace"], dtype=float)
        cov = [100 * np.where(tr[:, 0] < m, tr[:, 2], tr[:, 1]).mean() for m in MINIMA]
        wid = [100 * np.mean(tr[:, 0] < m) for m in MINIMA]
        lines.append(f"| {_label(_source(c))} ({len(tr)}): coverage | " +
                     " | ".join(f"{v:.1f}" for v in cov) + " |")
        lines.append(f"| {_label(_source(c))}: widened | " +
                     " | ".join(f"{v:.1f}%" for v in wid) + " |")
    lines.append("")
    for c in cells_:  # where the replicates' interval falls short, by k
        tr = np.array(total[c]["trace"], dtype=float)
        parts = []
        for lo, hi in zip(DISCORDANT_EDGES[:-1], DISCORDANT_EDGES[1:]):
            m = (tr[:, 0] >= lo) & (tr[:, 0] < hi)
            if m.any():
                parts.append(f"{lo:g}-{hi - 1:g}: {100 * tr[m, 1].mean():.1f} ({int(m.sum())})"
                             if np.isfinite(hi) else
                             f">= {lo:g}: {100 * tr[m, 1].mean():.1f} ({int(m.sum())})")
        lines.append(f"- {_label(_source(c))}, replicates alone by k: " +
                     ", ".join(parts) + ".")
    return lines + [""]


DISCORDANT_EDGES = (0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, np.inf)


def binned_coverage(trace, by, col, edges) -> list[str]:
    """One table cell per bin ``[lo, hi)`` of ``edges`` over ``t[by]``: the coverage (%) of
    the traces' ``t[col]`` and their count, or ``-`` under 20 traces."""
    cells = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        hit = [t[col] for t in trace if lo <= t[by] < hi]
        cells.append(f"{100 * np.mean(hit):.1f} ({len(hit)})" if len(hit) >= 20
                     else f"- ({len(hit)})")
    return cells


def discordant_table(trace) -> list[str]:
    heads = [f"{lo:g}" if hi == lo + 1 else (f"{lo:g}-{hi - 1:g}" if np.isfinite(hi)
                                             else f">= {lo:g}")
             for lo, hi in zip(DISCORDANT_EDGES[:-1], DISCORDANT_EDGES[1:])]
    lines = ["| Δ net benefit @0.2 | " + " | ".join(heads) + " |",
             "|" + "---|" * (len(heads) + 1)]
    rows = ((1, DEFAULT), (2, "percentile"), (3, f"{DEFAULT}, widened at every k"),
            (4, f"{DEFAULT}, replicates alone (before)"),
            (5, "percentile, replicates alone (before)"))
    for col, label in rows:
        if any(len(t) <= col for t in trace):
            continue
        cells = binned_coverage(trace, 0, col, DISCORDANT_EDGES)
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines + [""]


def discordant_cells(cells_, total) -> list[str]:
    """Per cell: the default's coverage as read now, by the replicates alone, and with the
    rule's hull at every number of customers; the share of data sets widened now."""
    lines = ["| cell | widened now | expanded_bca now | replicates alone (before) | "
             "hull at every k |", "|---|---|---|---|---|"]
    for c in cells_:
        tr = total[c]["trace"]
        if not tr or len(tr[0]) < 6:
            continue
        few = np.mean([t[0] < resampling.MIN_DISCORDANT for t in tr])
        now, before, hull = (100 * np.mean([t[i] for t in tr]) for i in (1, 4, 3))
        lines.append(f"| {_label(c)}, ρ={c[3]:g} ({len(tr)}) | {100 * few:.1f}% | {now:.1f} | "
                     f"{before:.1f} | {hull:.1f} |")
    return lines + [""]


def _trace(parts, found, target) -> list:
    """(number, the default interval's degrees of freedom, covered by the default, covered
    by the percentile interval) of every number: where to warn."""
    out = []
    for i, (res, keys) in enumerate(parts):
        for k in keys:
            label = k if i < 2 else f"Δ {k}"
            hit = {m: bool(found[m][label][0] <= target[label] <= found[m][label][1])
                   for m in found}
            out.append((label, res.effective_df(k), hit[DEFAULT], hit.get("percentile")))
    return out


TRUTH = truth()  # computed once per process (about 5 s)


# --------------------------------------------------------------------------- sections


def cells(args) -> dict:
    """Section -> list of (cell, data sets)."""
    named, other = args.sims, args.other_sims
    out = {
        "snapshot": [(("snapshot", g, m, rho), named if (g, m) != (20, 30) else named)
                     for rho in (0.3, 0.7) for g, m in ((100, 12), (400, 3), (20, 30))
                     if args.g is None or g in args.g],
        "time": [(("time", 2000, phi), named) for phi in (0.5, 0.9)],
        "iid": [(("iid", 1200), named)],
        "other": [(("other", design, 100, 12, 0.7), other)
                  for design in ("unequal", "ar", "varying")],
        "fewgroups": [(("fewgroups", g, 600 // g, 0.7), other)
                      for g in (5, 10, 15, 20, 30, 50)],
        "discordant": [(("discordant", g, 12, rho), other) for rho in (0.3, 0.7)
                       for g in (25, 50, 100, 200, 400)],
        # G = 1200, m = 1: independent rows, resampled as groups of one (what the readings
        # do to the width where nothing is sparse).
        "minimum": [(("minimum", g, m, rho), named)
                    for g, m, rhos in ((100, 12, (0.3, 0.7)), (400, 3, (0.3, 0.7)),
                                       (1200, 1, (0.0,)))
                    for rho in rhos if args.g is None or g in args.g] +
                   # --g 2000: the time cells (2,000 rows, time blocks resampled).
                   [(("minimum", "time", 2000, phi), named) for phi in (0.5, 0.9)
                    if args.g is None or 2000 in args.g],
    }
    return {k: v for k, v in out.items() if k in args.sections}


def _merge(outs) -> dict:
    total = {}
    for out in outs:
        cell, _, sims, _ = out["task"]
        t = total.setdefault(cell, {"covered": {}, "width": {}, "warned": 0, "widened": 0,
                                    "sims": 0, "deff": {}, "df": {}, "trace": []})
        t["trace"] += out.get("trace", [])
        t["sims"] += sims
        t["warned"] += out["warned"]
        t["widened"] += out.get("widened", 0)
        for what in ("covered", "width"):
            for k, v in out[what].items():
                t[what][k] = t[what].get(k, 0) + v
        for what in ("deff", "df"):
            for k, v in out[what].items():
                t[what].setdefault(k, []).extend(v)
    return total


def _label(cell) -> str:
    kind = cell[0]
    if kind == "minimum":
        return _label(_source(cell))
    if kind == "snapshot":
        return f"ρ={cell[3]:g}, G={cell[1]}, m={cell[2]}"
    if kind == "time":
        return f"φ={cell[2]:g}, n={cell[1]}"
    if kind == "iid":
        return f"n={cell[1]}"
    if kind == "other":
        return f"{cell[1]}, ρ={cell[4]:g}, G={cell[2]}, m={cell[3]}"
    return f"G={cell[1]}, m={cell[2]}"  # few groups, discordant


def coverage_table(cells_, total, columns) -> list[str]:
    """One row per number, one column per (cell, scheme, method)."""
    head = ["number", *(f"{_label(c)} {name}" for c in cells_ for name, _ in columns)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for k in ALL:
        row = [k.replace(NB, "net benefit @0.2")]
        for c in cells_:
            t = total[c]
            for _, (col, method) in columns:
                row.append(f"{100 * t['covered'].get((col, method, k), np.nan) / t['sims']:.1f}")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def _footer(cells_, total) -> list[str]:
    out = []
    for c in cells_:
        t = total[c]
        d = {k: np.nanmean(v) for k, v in t["deff"].items()}
        f = {k: np.nanmedian(v) for k, v in t["df"].items()}
        extra = "" if not d else (
            f"; mean design effect brier_skill {d['brier_skill']:.2f}, roc_auc "
            f"{d['roc_auc']:.2f}; median df of the default brier_skill {f['brier_skill']:.0f},"
            f" roc_auc {f['roc_auc']:.0f}")
        out.append(f"- {_label(c)}: {t['sims']} data sets; warned (few groups or events) "
                   f"{100 * t['warned'] / t['sims']:.1f}%, Δ net benefit widened "
                   f"{100 * t['widened'] / t['sims']:.1f}%{extra}.")
    return out


def _width_ratio(t, col, base, method) -> str:
    r = [t["width"][(col, method, k)] / t["width"][(base, method, k)] for k in ALL]
    return f"{min(r):.3f}-{max(r):.3f}"


def report(name, cells_, total) -> list[str]:
    lines = [f"### {name}", ""]
    if name == "discordant":
        sims = ", ".join(f"{_label(c)} ρ={c[3]:g}: {total[c]['sims']}" for c in cells_)
        return lines + [f"Coverage of the paired difference of net benefit at 0.2 (groups "
                        f"resampled) by the number of customers on which the two models decide "
                        f"differently (data sets in brackets; {sims} data sets):", ""] + \
            discordant_table([t for c in cells_ for t in total[c]["trace"]]) + \
            discordant_cells(cells_, total)
    if name == "minimum":
        return lines + ["Coverage of the paired net benefit at 0.2 (default method) on the "
                        "snapshot cells' data sets, for each MIN_DISCORDANT (the rule's hull "
                        "below it, the replicates' interval from it on):", ""] + \
            minimum_table(cells_, total) + \
            ["The same data sets, by how the interval is read from MIN_DISCORDANT "
             "discordant customers on (the rule's hull below it):", ""] + \
            readings_table(cells_, total)
    if name == "iid":
        cols = [(f"{col} {m}", (col, m)) for col in ("rows", "groups of one", "time")
                for m in (DEFAULT, "percentile")]
        lines += coverage_table(cells_, total, cols) + [""]
        for c in cells_:
            t = total[c]
            gap = max(abs(t["covered"][(col, DEFAULT, k)] - t["covered"][("rows", DEFAULT, k)])
                      for col in ("groups of one", "time") for k in ALL) * 100 / t["sims"]
            lines += paired_table(t["trace"], t["sims"])
            lines.append(f"- {_label(c)}: {t['sims']} data sets; largest coverage gap to the "
                         f"rows' default {gap:.1f} points; mean width over the rows' default: "
                         f"groups of one {_width_ratio(t, 'groups of one', 'rows', DEFAULT)}, "
                         f"time {_width_ratio(t, 'time', 'rows', DEFAULT)}.")
        return lines + [""]
    cols = [(DEFAULT, ("units", DEFAULT)), ("percentile", ("units", "percentile"))]
    if name != "fewgroups":
        cols.append(("rows", ("rows", DEFAULT)))
    lines += coverage_table(cells_, total, cols) + [""] + _footer(cells_, total) + [""]
    if name == "fewgroups":
        lines += df_table([t for c in cells_ for t in total[c]["trace"]])
    return lines


def paired_table(trace, sims) -> list[str]:
    """The iid cell's coverage gaps counted on the same data sets (McNemar): ``b`` data sets
    covered by the scheme and not by the rows' default, ``c`` the reverse; the gap
    ``(b - c) / n`` with a 95% interval from the Clopper-Pearson interval of ``b / (b + c)``
    (given the ``b + c`` discordant data sets, ``b`` is binomial with probability 1/2 when
    both cover alike; exact, as the test is: Wilson's excludes 1/2 at 4 of 4, where the
    exact p is 0.125), and the exact McNemar p-value. A gap whose interval excludes 0 is
    real."""
    lines = ["Coverage of each scheme minus the rows' default, counted on the same data sets "
             "(b: covered by the scheme only, c: by the rows only):", "",
             "| number | scheme | b | c | gap (points) | 95% interval | McNemar p |",
             "|---|---|---|---|---|---|---|"]
    for col in ("groups of one", "time"):
        for k in ALL:
            pairs = [(t[2], t[3]) for t in trace if t[0] == col and t[1] == k]
            b = sum(s and not r for s, r in pairs)
            c = sum(r and not s for s, r in pairs)
            if b + c == 0:
                lo = hi = 0.0
                pvalue = 1.0
            else:
                test = binomtest(b, b + c)
                ci = test.proportion_ci(0.95, method="exact")
                lo, hi = ((b + c) * (2 * v - 1) / sims for v in (ci.low, ci.high))
                pvalue = test.pvalue
            lines.append(f"| {k.replace(NB, 'net benefit @0.2')} | {col} | {b} | {c} | "
                         f"{100 * (b - c) / sims:+.1f} | [{100 * lo:+.1f}, {100 * hi:+.1f}] | "
                         f"{pvalue:.3f} |")
    return lines + [""]


DF_EDGES = (1, 3, 5, 8, 12, 20, 40, np.inf)


def df_table(trace) -> list[str]:
    """Coverage by the default interval's degrees of freedom, pooled over the cells: the
    number the expanded interval widens by, and where it stops being enough."""
    heads = [f"{lo:g}-{hi:g}" if np.isfinite(hi) else f">= {lo:g}"
             for lo, hi in zip(DF_EDGES[:-1], DF_EDGES[1:])]
    lines = ["Coverage by the default interval's degrees of freedom (`effective_df`), pooled "
             "over the cells above:", "", "| numbers | " + " | ".join(heads) + " |",
             "|" + "---|" * (len(heads) + 1)]
    groups = {"metrics": [t for t in trace if not t[0].startswith("Δ")],
              "differences": [t for t in trace if t[0].startswith("Δ")]}
    for name, rows in groups.items():
        for col, label in ((2, DEFAULT), (3, "percentile")):
            cells = binned_coverage(rows, 1, col, DF_EDGES)
            lines.append(f"| {name}, {label} | " + " | ".join(cells) + " |")
    return lines + [""]


SECTIONS = ["snapshot", "time", "iid", "other", "fewgroups", "discordant", "minimum"]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 data sets per cell")
    parser.add_argument("--sims", type=int, default=400, help="data sets, named cells")
    parser.add_argument("--other-sims", type=int, default=200, help="data sets, few groups")
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--sections", nargs="+", default=SECTIONS, choices=SECTIONS)
    parser.add_argument("--check-truth", action="store_true")
    parser.add_argument("--g", type=int, nargs="+", default=None,
                        help="snapshot: only the cells with these numbers of customers")
    parser.add_argument("--skip-chunks", type=int, default=0,
                        help="leave out each cell's first chunks (of 25 data sets): to add "
                             "data sets to a stopped run, whose seeds they do not repeat")
    parser.add_argument("--partial", default=None,
                        help="a file the tables so far are written to after every chunk")
    args = parser.parse_args(argv)
    if args.check_truth:
        check_truth()
        return
    if args.quick:
        args.sims = args.other_sims = 100
    chosen = cells(args)
    tasks = [(cell, i, min(CHUNK, sims - i * CHUNK), args.n_boot)
             for group in chosen.values() for cell, sims in group
             for i in range(args.skip_chunks, -(-sims // CHUNK))]
    tasks.sort(key=lambda task: task[1])  # every cell's first chunks first: partial tables
    t0 = time.perf_counter()
    print(f"chimeraboost coverage under dependence: {args.n_boot} replicates, {LEVEL:.0%} "
          f"intervals; {load()}", flush=True)
    outs = []
    with Pool(args.jobs) as pool:
        for out in pool.imap_unordered(simulate, tasks):
            outs.append(out)
            print(f"  done {_label(out['task'][0])} chunk {out['task'][1]} "
                  f"({time.perf_counter() - t0:.0f} s; {load()})", flush=True)
            if args.partial:
                with open(args.partial, "w") as fh:
                    fh.write(tables(chosen, outs) + f"\n{time.perf_counter() - t0:.0f} s; "
                             f"{load()}\n")
    print(tables(chosen, outs))
    print(f"done in {time.perf_counter() - t0:.0f} s; {load()}")


def tables(chosen, outs) -> str:
    """The markdown of every section, from the chunks done so far."""
    total = _merge(outs)
    lines = ["", "population values: " + ", ".join(f"{k} {v:.4f}" for k, v in TRUTH.items()),
             ""]
    for name, group in chosen.items():
        done = [c for c, _ in group if c in total]
        if done:
            lines += report(name, done, total)
    return "\n".join(lines)


if __name__ == "__main__":
    main()
