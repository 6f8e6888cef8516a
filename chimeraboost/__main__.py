"""Command line: ``python -m chimeraboost demo`` scores models on data that ships with
scikit-learn and prints what chimeraboost says about them.
"""

from __future__ import annotations

import argparse
import sys


def demo(out=sys.stdout, n_boot: int = 2000) -> None:
    """Breast-cancer data (ships with scikit-learn): ChimeraBoost judged against the base rate
    it could have known (y_train) with bootstrap intervals; then against a logistic regression
    as the incumbent (paired comparison); then cross-validated with chimeraboost's scoring
    strings; then a regressor on the diabetes data; then the ladder of simple models, the
    boosted model and a 0/1 business rule in one holdout table."""
    from sklearn.datasets import load_breast_cancer, load_diabetes
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.model_selection import cross_validate, train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from . import ChimeraBoostClassifier, ChimeraBoostRegressor, baselines, compare, report
    from ._format import Col, table

    def show(text):
        print(text, file=out)
        print(file=out)

    data = load_breast_cancer()
    X, y = data.data, data.target
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.4, stratify=y, random_state=0
    )
    model = ChimeraBoostClassifier(random_state=0).fit(X_train, y_train)
    logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    logreg.fit(X_train, y_train)

    show("1. Is ChimeraBoost any good on held-out breast_cancer rows, against the training prior?")
    show(model.report(X_test, y_test, baseline=y_train, ci=0.95, n_boot=n_boot, random_state=0))
    show("2. Champion / challenger: ChimeraBoost against a logistic regression, same rows")
    show(report(model, X_test, y_test, baseline=logreg, n_boot=n_boot, random_state=0))

    show("3. Cross-validation with chimeraboost's scoring strings (5 folds)")
    scoring = ["brier_skill", "neg_calibration_mcb", "roc_auc"]
    cv = cross_validate(model, X, y, scoring=scoring)
    folds = len(cv["test_roc_auc"])
    rows = [[name, cv[f"test_{name}"].mean(), cv[f"test_{name}"].std(ddof=1),
             *cv[f"test_{name}"]] for name in scoring]
    show("\n".join(table(
        [Col("scoring", None), Col("mean", signed=True), Col("sd"),
         *(Col(f"fold {i + 1}", 3, signed=True) for i in range(folds))], rows)))

    Xr, yr = load_diabetes(return_X_y=True)
    Xr_train, Xr_test, yr_train, yr_test = train_test_split(Xr, yr, test_size=0.4, random_state=0)
    regressor = ChimeraBoostRegressor(random_state=0).fit(Xr_train, yr_train)
    ridge = Ridge().fit(Xr_train, yr_train)
    show("4. A regressor on the diabetes data, against a ridge regression as the incumbent")
    show(report(regressor, Xr_test, yr_test, baseline=ridge, n_boot=n_boot, random_state=0))

    show("5. Better than what? The ladder, ChimeraBoost and the rule in production "
         "(worst concave points < 0.14 -> benign), same held-out breast_cancer rows")
    names = list(data.feature_names)
    models = baselines.ladder(X_train, y_train, random_state=0, feature_names=names)
    rule = (X_test[:, names.index("worst concave points")] < 0.14).astype(int)
    table_ = compare.holdout_table({"rule in production": rule, **models,
                                    "ChimeraBoost": model}, X_test, y_test, split="40%",
                                   n_boot=n_boot, random_state=0)
    show(table_)
    show(table_.summary())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="chimeraboost", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("demo", help="score models on scikit-learn's breast_cancer data")
    args = parser.parse_args(argv)
    if args.command in (None, "demo"):
        # One thread: on a machine whose cores are busy, OpenMP threads that wait for each
        # other spin, and a 3 s demo once took minutes; one thread costs little here.
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1):
            demo()
        return 0
    return 2  # pragma: no cover  (argparse rejects unknown commands first)


if __name__ == "__main__":
    sys.exit(main())
