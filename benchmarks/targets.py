"""The summary of ``run_benchmarks.py``: each promise of the estimators, measured.

Questions this module answers from one run's records (no model is fitted here, except by
``time_threads``):

1. Is the temperature never worse than no temperature, and is no probability exactly 0 or 1?
2. Does early stopping fire on separable data?
3. Is the default regressor's RMSE no worse than HistGradientBoosting's, at what fit time?
4. Does the default classifier beat LightGBM on log loss and HistGradientBoosting on MCB?
5. How far is it from CatBoost's defaults, at what fit time; which preset closes the gap?
6. One temperature, or one scale and bias per class, for many classes?
7. What do idle OpenMP threads cost on a busy machine?

``targets(...)`` returns one dict per question: ``target``, ``measured`` (a sentence with the
numbers), ``met`` (True / False / None when not measured).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

DEFAULT = "ChimeraBoost"
UNSCALED = "ChimeraBoost (no temperature)"
CATBOOST = "CatBoost"
MAX_RATIO = 1.02  # target 1: scaled / unscaled held-out log loss, per table


def targets(df, means, small, threads, before, multiclass):
    """One dict per target; see the module docstring. ``small``: rows of
    ``bench_calibration.run``; ``before``: records of an earlier version or None."""
    items = []
    for make in [lambda: _t1(means, small), lambda: _t2(df, small), lambda: _t3(df, means),
                 lambda: _t4(means), lambda: _t5(df, means, before), lambda: _t6(multiclass),
                 lambda: _t7(threads)]:
        try:
            items.append(make())
        except (KeyError, ValueError) as exc:  # a task or model left out of this run
            items.append(dict(target=f"{len(items) + 1}.", measured=f"not measured ({exc})",
                              met=None))
    return items


def _pivot(means, task, metric):
    return means[means.task == task].pivot(index="dataset", columns="model", values=metric)


def _t1(means, small):
    ll = _pivot(means, "classification", "log_loss")
    ratio = ll[DEFAULT] / ll[UNSCALED]
    clf = means[(means.task == "classification") & means.model.str.startswith("ChimeraBoost")]
    exact = int(clf["exact_0_1"].fillna(0).sum()) if "exact_0_1" in clf else None
    parts = [f"panel ({len(ratio)} tables): worst ratio {ratio.max():.3f} ({ratio.idxmax()}), "
             f"{int((ratio <= MAX_RATIO).sum())}/{len(ratio)} within {MAX_RATIO}"]
    met = bool((ratio <= MAX_RATIO).all()) and exact == 0
    if small:
        import pandas as pd

        s = pd.DataFrame(small).groupby("table", sort=False)
        sratio = s["scaled"].mean() / s["unscaled"].mean()
        exact += int(s["exact_0_1"].sum().sum())
        met = met and bool((sratio <= MAX_RATIO).all()) and exact == 0
        n_seeds = int(s.size().max())
        parts.append(f"small nearly separable tables ({len(sratio)} tables x {n_seeds} seeds): "
                     f"worst ratio {sratio.max():.3f} ({sratio.idxmax()}), "
                     f"{int((sratio <= MAX_RATIO).sum())}/{len(sratio)} within {MAX_RATIO}")
    parts.append(f"probabilities exactly 0 or 1: {exact}")
    return dict(target="1. scaled log loss <= 1.02 x unscaled per table; no probability 0 or 1",
                measured="; ".join(parts), met=met)


def _t2(df, small):
    clf = df[(df.task == "classification") & (df.model == DEFAULT)]
    fired = int((clf.n_iter < clf.max_iter).sum())
    text = f"panel: early stopping fired in {fired}/{len(clf)} default fits"
    met = None
    if small:
        rows = [r for r in small if r.get("held_out", 1)]
        fired_s = sum(r["n_iter"] < 300 for r in rows)
        text += f"; small tables: {fired_s}/{len(rows)} fits with a held-out split"
        case = [r for r in small if r["table"] == "breast_cancer" and r["seed"] == 0]
        if case:
            c = case[0]
            text += (f"; the breast-cancer case of the issue: {c['n_iter']} of 300 iterations, "
                     f"T = {c['temperature']:.2f} ({c['status']}), held-out log loss "
                     f"{c['scaled']:.3f} scaled vs {c['unscaled']:.3f} unscaled")
            met = bool(c["n_iter"] < 300)
    text += ("; split: 15% held out, stratified by class, every class keeps a training row, "
             "no split below 20 held-out rows")
    return dict(target="2. early stopping fires on separable data; stratified split",
                measured=text, met=met)


def _fit_ratio(df, task, model, reference, column="fit_s"):
    pair = df[(df.task == task) & df.model.isin([model, reference])]
    t = pair.pivot_table(index=["dataset", "seed"], columns="model", values=column)
    return t[model] / t[reference]


def _t3(df, means):
    rmse = _pivot(means, "regression", "rmse")
    wins = int((rmse[DEFAULT] <= rmse["HistGradientBoosting"]).sum())
    wall = _fit_ratio(df, "regression", DEFAULT, "HistGradientBoosting")
    cpu = _fit_ratio(df, "regression", DEFAULT, "HistGradientBoosting", "fit_cpu_s")
    by_table = wall.groupby("dataset").median()
    worse = ", ".join(f"{d} {rmse.loc[d, DEFAULT] / rmse.loc[d, 'HistGradientBoosting']:.3f}"
                      for d in rmse.index
                      if rmse.loc[d, DEFAULT] > rmse.loc[d, "HistGradientBoosting"])
    need = int(np.ceil(2 * len(rmse) / 3))
    return dict(
        target="3. regressor RMSE <= HistGradientBoosting's on >= 2/3 of tables, median fit "
               "time <= 1.5x",
        measured=f"RMSE no worse on {wins}/{len(rmse)} tables (worse: {worse or 'none'}); "
                 f"median fit-time ratio {wall.median():.2f} wall, {cpu.median():.2f} CPU; "
                 f"largest per-table median {by_table.max():.2f} ({by_table.idxmax()})",
        met=bool(wins >= need and wall.median() <= 1.5))


def _t4(means):
    ll = _pivot(means, "classification", "log_loss")
    mcb = _pivot(means, "classification", "calibration_mcb")
    out = dict(target="4. log loss better than LightGBM and MCB better than "
                      "HistGradientBoosting on >= 80% of classification tables")
    if "LightGBM" not in ll:
        return dict(out, measured="LightGBM not installed", met=None)
    ll_wins = int((ll[DEFAULT] < ll["LightGBM"]).sum())
    mcb_wins = int((mcb[DEFAULT] < mcb["HistGradientBoosting"]).sum())
    lost = [d for d in ll.index if ll.loc[d, DEFAULT] >= ll.loc[d, "LightGBM"]]
    lost_mcb = [d for d in mcb.index if mcb.loc[d, DEFAULT] >= mcb.loc[d, "HistGradientBoosting"]]
    n = len(ll)
    return dict(out, measured=f"log loss better than LightGBM on {ll_wins}/{n} (not on: "
                f"{', '.join(lost) or 'none'}); MCB better than HistGradientBoosting on "
                f"{mcb_wins}/{n} (not on: {', '.join(lost_mcb) or 'none'})",
                met=bool(ll_wins >= 0.8 * n and mcb_wins >= 0.8 * n))


def _gap(ll, model):
    """Mean over tables of the relative log-loss excess over CatBoost (negative: better)."""
    return float(np.mean(ll[model] / ll[CATBOOST] - 1))


def _t5(df, means, before):
    out = dict(target="5. close >= half of the log-loss gap to CatBoost's defaults at <= 1/5 "
                      "of its fit time; which preset matches it")
    ll = _pivot(means, "classification", "log_loss")
    if CATBOOST not in ll:
        return dict(out, measured="CatBoost not installed", met=None)
    beats = [d for d in ll.index if ll.loc[d, CATBOOST] < ll.loc[d, DEFAULT]]
    parts = [f"CatBoost's log loss beats the default on {len(beats)}/{len(ll)} tables"]
    variants = [m for m in ll.columns if m.startswith("ChimeraBoost") and m != UNSCALED]
    for m in variants:
        ratio = _fit_ratio(df, "classification", m, CATBOOST)
        parts.append(f"{m}: mean log-loss excess over CatBoost {100 * _gap(ll, m):+.1f}%, "
                     f"better on {int((ll[m] <= ll[CATBOOST]).sum())}/{len(ll)}, median fit "
                     f"time {ratio.median():.2f}x CatBoost's")
    gaps = {m: _gap(ll, m) for m in variants}
    matching = [m for m, g in gaps.items() if g <= 0]
    closest = min(gaps, key=gaps.get)
    parts.append(f"matches CatBoost outright: {', '.join(matching)}" if matching else
                 f"no variant matches CatBoost outright (closest: {closest}, "
                 f"{100 * gaps[closest]:+.1f}%)")
    met = None
    if before is not None:
        old = before[(before.task == "classification") & (before.model == DEFAULT)]
        old = old.groupby("dataset")["log_loss"].mean()
        common = ll.index.intersection(old.index)
        gap_old = float(np.mean(old[common] / ll.loc[common, CATBOOST] - 1))
        gap_new = float(np.mean(ll.loc[common, DEFAULT] / ll.loc[common, CATBOOST] - 1))
        closed = 1 - gap_new / gap_old if gap_old > 0 else float("nan")
        ratio = _fit_ratio(df, "classification", DEFAULT, CATBOOST).median()
        parts.append(f"the previous default's excess was {100 * gap_old:+.1f}%, so "
                     f"{100 * closed:.0f}% of the gap is closed")
        met = bool(closed >= 0.5 and ratio <= 0.2)
    return dict(out, measured="; ".join(parts), met=met)


def _t6(multiclass):
    """Rule: a variant replaces the one temperature only if it wins on most tables."""
    out = dict(target="6. multiclass: one temperature vs vector / per-class scaling")
    if not multiclass:
        return dict(out, measured="not run (bench_calibration.py --strategies)", met=None)
    import pandas as pd

    df = pd.DataFrame(multiclass)
    variants = [c for c in ["vector", "vector_soften", "scale_per_class_soften"] if c in df]
    means = df.groupby("table", sort=False)[["scaled", *variants]].mean()
    n = len(means)
    cells = "; ".join(f"{t}: " + ", ".join(f"{c} {means.loc[t, c]:.4f}" for c in means)
                      for t in means.index)
    verdicts, winners = [], []
    for v in variants:
        ratio = means[v] / means["scaled"]
        wins = int((ratio < 1).sum())
        verdicts.append(f"{v} beats it on {wins}/{n} (mean ratio {ratio.mean():.3f})")
        if wins > n / 2:
            winners.append(v)
    verdict = (f"{', '.join(winners)} wins on most tables" if winners else
               "no variant wins on most tables, so one temperature is kept (it also never "
               "changes the predicted class)")
    return dict(out, measured=f"held-out log loss, 30% test splits, mean over seeds "
                f"(bench_calibration.py --strategies) against one temperature ('scaled'): "
                f"{'; '.join(verdicts)}; {verdict}. Per table: {cells}",
                met=not winners)


def _t7(threads):
    out = dict(target="7. n_threads limits OpenMP threads; demo, CLI and tests fast on a "
                      "busy machine")
    if not threads:
        return dict(out, measured="not measured", met=None)
    parts = []
    for prefix, when in [("", f"as found (load average {threads['load']:.2f} on "
                              f"{threads['cores']} cores)"),
                         ("busy_", f"with all {threads['cores']} cores kept busy")]:
        if prefix + "one" not in threads:
            continue
        n_fits = 1 if prefix else 5
        text = (f"{when}: {n_fits} fit(s) + predict_proba on breast_cancer take "
                f"{threads[prefix + 'one']:.2f}s with n_threads=1, "
                f"{threads[prefix + 'all']:.2f}s with all cores")
        if prefix + "demo_one" in threads:
            text += (f"; `python -m chimeraboost demo` {threads[prefix + 'demo_one']:.1f}s "
                     f"with OMP_NUM_THREADS=1, {threads[prefix + 'demo_all']:.1f}s without")
        parts.append(text)
    return dict(out, measured="; ".join(parts) + "; the tests use n_threads=1", met=None)


BUSY_LOOP = "import time\nend = time.time() + 120\nwhile time.time() < end: pass\n"


def time_threads(demo: bool, log=print) -> dict:
    """Wall time of the default classifier with one thread against all cores: as the machine
    is, then with every core made busy by a spinning process of our own (killed afterwards).

    All cores are asked for explicitly (``n_threads=os.cpu_count()``), so that an
    ``OMP_NUM_THREADS=1`` in the environment does not turn the comparison into 1 against 1.
    """
    out = dict(cores=os.cpu_count(), load=os.getloadavg()[0])
    out.update(_fits_and_demo(demo, "", 5))
    hogs = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP])
            for _ in range(os.cpu_count() or 1)]
    try:
        # One fit only: with every core busy, all-core fits crawl (the point being made).
        out.update(_fits_and_demo(demo, "busy_", 1))
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    log(f"threads: {out}")
    return out


def _fits_and_demo(demo: bool, prefix: str, n_fits: int) -> dict:
    from sklearn.datasets import load_breast_cancer

    from chimeraboost.estimators import ChimeraBoostClassifier

    X, y = load_breast_cancer(return_X_y=True)
    out = {}
    for key, n in [("one", 1), ("all", os.cpu_count())]:
        t0 = time.perf_counter()
        for seed in range(n_fits):
            model = ChimeraBoostClassifier(random_state=seed, n_threads=n).fit(X, y)
            model.predict_proba(X)
        out[prefix + key] = time.perf_counter() - t0
    if demo:
        for key, env in [("demo_one", {"OMP_NUM_THREADS": "1"}), ("demo_all", {})]:
            clean = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "chimeraboost", "demo"], check=True,
                           env={**clean, **env}, stdout=subprocess.DEVNULL)
            out[prefix + key] = time.perf_counter() - t0
    return out


def load_json_rows(path: Path, key: str):
    if not path.exists():
        return None
    return json.loads(path.read_text())[key]


def markdown(items) -> list[str]:
    mark = {True: "met", False: "**not met**", None: "reported"}
    lines = ["## Targets", "", "| target | measured | status |", "|---|---|---|"]
    for it in items:
        lines.append(f"| {it['target']} | {it['measured']} | {mark[it['met']]} |")
    return lines + [""]
