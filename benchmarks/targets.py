"""The summary of ``run_benchmarks.py``: each promise of the estimators, measured.

Questions this module answers from one run's records (no model is fitted here, except by
``time_threads`` and ``demo_ladder``):

1. Is the default classifier's log loss never worse than the scaled logistic regression's,
   and no worse than HistGradientBoosting's and LightGBM's on >= 80% of the tables?
2. How far is it from CatBoost's defaults (mean log-loss ratio <= 1.02), at what fit time
   (median <= 0.3x CatBoost's)?
3. Is the default regressor's RMSE no worse than min(ridge, HistGradientBoosting) on >= 80%
   of the regression tables, at a median fit time <= 2x HistGradientBoosting's?
4. Is the temperature never worse than no temperature by more than 2% (mean log loss over 4
   splits) on the near-separable tables, and is no probability exactly 0 or 1?
5. Does the panel hold >= 12 classification and >= 6 regression tables, with small, mostly
   linear, high-cardinality and multiclass ones?
6. Does the README's demo (breast cancer, 40% held out) show ChimeraBoost at or above the
   linear rung of ``cb.baselines.ladder``?
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

DEFAULT = "ChimeraBoost"
UNSCALED = "ChimeraBoost (no temperature)"
CATBOOST = "CatBoost"
LINEAR = "Linear"
HGB = "HistGradientBoosting"
MAX_RATIO = 1.02  # target 4: scaled / unscaled held-out log loss, per table
NEAR_SEPARABLE = ("breast_cancer", "biopsy", "penguins", "crabs", "iris", "wine",
                  "separable_binary", "separable_4class")


def targets(df, means, small, threads, demo, panel):
    """One dict per target; see the module docstring. ``small``: rows of
    ``bench_calibration.run``; ``demo``: :func:`demo_ladder`'s dict or None; ``panel``: the
    panel's specs with the kinds of table each stands for."""
    items = []
    for make in [lambda: _t1(means), lambda: _t2(df, means), lambda: _t3(df, means),
                 lambda: _t4(means, small), lambda: _t5(means, panel), lambda: _t6(demo),
                 lambda: _t7(threads)]:
        try:
            items.append(make())
        except (KeyError, ValueError) as exc:  # a task or model left out of this run
            items.append(dict(target=f"{len(items) + 1}.", measured=f"not measured ({exc})",
                              met=None))
    return items


def _pivot(means, task, metric):
    return means[means.task == task].pivot(index="dataset", columns="model", values=metric)


# Two losses equal to floating-point rounding are a tie, not a loss: ChimeraBoost's linear rung
# alone is the benchmark's scaled logistic regression fitted by the same solver, whose log
# loss comes out 1e-16 apart depending on the order of the sums.
TIE = 1e-9


def _worse(table, model, reference):
    return {d: table.loc[d, model] / table.loc[d, reference] for d in table.index
            if table.loc[d, model] > table.loc[d, reference] * (1 + TIE)}


def _listed(ratios):
    return ", ".join(f"{d} {r:.3f}" for d, r in sorted(ratios.items(), key=lambda kv: -kv[1]))


def _t1(means):
    ll = _pivot(means, "classification", "log_loss")
    n = len(ll)
    lin = _worse(ll, DEFAULT, LINEAR)
    parts = [f"log loss <= Linear on {n - len(lin)}/{n} tables"
             + (f" (worse, ratio to Linear: {_listed(lin)})" if lin else "")]
    met = not lin
    for ref in [HGB, "LightGBM"]:
        if ref not in ll:
            parts.append(f"{ref} not run")
            continue
        worse = _worse(ll, DEFAULT, ref)
        parts.append(f"<= {ref} on {n - len(worse)}/{n}"
                     + (f" (worse: {_listed(worse)})" if worse else ""))
        met = met and (n - len(worse)) >= 0.8 * n
    return dict(target="1. classifier log loss <= scaled logistic regression's on every table; "
                       "<= HistGradientBoosting's and LightGBM's on >= 80%",
                measured="; ".join(parts), met=bool(met))


def _fit_ratio(df, task, model, reference, column="fit_s"):
    pair = df[(df.task == task) & df.model.isin([model, reference])]
    t = pair.pivot_table(index=["dataset", "seed"], columns="model", values=column)
    return t[model] / t[reference]


def _t2(df, means):
    out = dict(target="2. mean log-loss ratio to CatBoost's defaults <= 1.02 at a median fit "
                      "time <= 0.3x CatBoost's")
    ll = _pivot(means, "classification", "log_loss")
    if CATBOOST not in ll:
        return dict(out, measured="CatBoost not installed", met=None)
    parts, met = [], None
    variants = [m for m in ll.columns if m.startswith("ChimeraBoost") and m != UNSCALED]
    for m in [DEFAULT] + sorted(v for v in variants if v != DEFAULT):
        ratio = ll[m] / ll[CATBOOST]
        wall = _fit_ratio(df, "classification", m, CATBOOST).median()
        cpu = _fit_ratio(df, "classification", m, CATBOOST, "fit_cpu_s").median()
        parts.append(f"{m}: mean ratio {ratio.mean():.3f} (median {ratio.median():.3f}, "
                     f"better on {int((ratio <= 1).sum())}/{len(ratio)}), median fit time "
                     f"{wall:.2f}x CatBoost's wall, {cpu:.2f}x CPU")
        if m == DEFAULT:
            met = bool(ratio.mean() <= 1.02 and wall <= 0.3)
            worst = ratio.sort_values(ascending=False).head(3)
            parts[-1] += f"; largest ratios: {_listed(worst.to_dict())}"
    return dict(out, measured="; ".join(parts), met=met)


def _t3(df, means):
    rmse = _pivot(means, "regression", "rmse")
    best = rmse[[LINEAR, HGB]].min(axis=1)
    ratio = rmse[DEFAULT] / best
    wins = int((ratio <= 1).sum())
    wall = _fit_ratio(df, "regression", DEFAULT, HGB)
    cpu = _fit_ratio(df, "regression", DEFAULT, HGB, "fit_cpu_s")
    by_table = wall.groupby("dataset").median()
    worse = _listed(ratio[ratio > 1].to_dict())
    n = len(rmse)
    return dict(
        target="3. regressor RMSE <= min(ridge, HistGradientBoosting) on >= 80% of tables, "
               "median fit time <= 2x HistGradientBoosting's",
        measured=f"RMSE no worse on {wins}/{n} tables (worse, ratio to the better of the two: "
                 f"{worse or 'none'}); median fit-time ratio {wall.median():.2f} wall, "
                 f"{cpu.median():.2f} CPU; largest per-table median {by_table.max():.2f} "
                 f"({by_table.idxmax()})",
        met=bool(wins >= 0.8 * n and wall.median() <= 2.0))


def _t4(means, small):
    ll = _pivot(means, "classification", "log_loss")
    ratio = ll[DEFAULT] / ll[UNSCALED]
    clf = means[(means.task == "classification") & means.model.str.startswith("ChimeraBoost")]
    exact = int(clf["exact_0_1"].fillna(0).sum()) if "exact_0_1" in clf else 0
    parts = [f"panel ({len(ratio)} tables): worst ratio {ratio.max():.3f} ({ratio.idxmax()})"]
    met = None
    if small:
        import pandas as pd

        s = pd.DataFrame(small).groupby("table", sort=False)
        sratio = s["scaled"].mean() / s["unscaled"].mean()
        exact += int(s["exact_0_1"].sum().sum())
        met = bool((sratio <= MAX_RATIO).all())
        n_seeds = int(s.size().max())
        cells = ", ".join(f"{t} {r:.3f}" for t, r in sratio.items())
        parts.append(f"near-separable tables ({len(sratio)} tables x {n_seeds} splits, mean "
                     f"scaled / unscaled log loss): {cells}; "
                     f"{int((sratio <= MAX_RATIO).sum())}/{len(sratio)} within {MAX_RATIO}")
    parts.append(f"probabilities exactly 0 or 1: {exact}")
    met = None if met is None else (met and exact == 0)
    return dict(target="4. temperature: scaled log loss <= 1.02 x unscaled (mean over 4 splits) "
                       "on every near-separable table; no probability exactly 0 or 1",
                measured="; ".join(parts), met=met)


def _t5(means, panel):
    counts = means.groupby("task")["dataset"].nunique().to_dict()
    n_clf, n_reg = counts.get("classification", 0), counts.get("regression", 0)
    kinds = {}
    for name, kind_list in panel.items():
        for kind in kind_list:
            kinds.setdefault(kind, []).append(name)
    cells = "; ".join(f"{k}: {', '.join(v)}" for k, v in kinds.items())
    needed = {"small", "mostly linear", "high-cardinality", "multiclass", "near-separable"}
    return dict(target="5. panel: >= 12 classification and >= 6 regression tables, with small, "
                       "mostly linear, high-cardinality, multiclass and near-separable ones",
                measured=f"{n_clf} classification and {n_reg} regression tables; {cells}",
                met=bool(n_clf >= 12 and n_reg >= 6 and needed <= set(kinds)))


def _t6(demo):
    out = dict(target="6. the README demo (breast cancer, 40% held out): ChimeraBoost at or "
                      "above the ladder's linear rung (the paired 95% interval of the log-loss "
                      "difference not wholly in the linear model's favour)")
    if not demo:
        return dict(out, measured="not measured", met=None)
    text = (f"log loss ChimeraBoost {demo['model_log_loss']:.4f} vs linear "
            f"{demo['linear_log_loss']:.4f} (paired difference, positive favours ChimeraBoost, "
            f"{demo['diff']:+.4f}, 95% "
            f"interval {demo['low']:+.4f} to {demo['high']:+.4f}); Brier skill "
            f"{demo['model_brier_skill']:.3f} vs {demo['linear_brier_skill']:.3f}; trees' "
            f"weight in the blend {demo['tree_weight']:.2f}")
    # At the rung: the paired interval of the log-loss difference does not lie wholly on the
    # linear model's side (a difference of 1e-5 nats on 228 rows is no difference).
    return dict(out, measured=text, met=bool(demo["high"] >= 0))


def demo_ladder() -> dict:
    """The README demo's split, ladder and model, with the paired log-loss difference of
    ChimeraBoost against the linear rung (``compare.compare_holdout``'s bootstrap)."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import train_test_split

    import chimeraboost as cb

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.4, stratify=y, random_state=0)
    model = cb.ChimeraBoostClassifier(random_state=0, n_threads=1).fit(X_tr, y_tr)
    linear = cb.baselines.ladder(X_tr, y_tr, random_state=0, verbose=0)["linear"]
    out = {}
    for key, est in [("model", model), ("linear", linear)]:
        rep = cb.metrics.classification_report(y_te, est.predict_proba(X_te), est.classes_)
        out[f"{key}_log_loss"], out[f"{key}_brier_skill"] = rep["log_loss"], rep["brier_skill"]
    # Positive favours ChimeraBoost (a loss's sign is flipped).
    res = cb.compare.compare_holdout(linear, model, X_te, y_te, metric="log_loss",
                                     random_state=0)
    out.update(diff=float(res.difference), low=float(res.ci.low), high=float(res.ci.high),
               tree_weight=float(model.tree_weight_))
    return out


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
