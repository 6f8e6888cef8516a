"""Command line: ``python -m chimeraboost demo`` scores models on data that ships with
scikit-learn and prints what chimeraboost says about them.
"""

from __future__ import annotations

import argparse
import sys


def demo(out=sys.stdout) -> None:
    """Breast-cancer data: a logistic regression judged against the base rate it could have
    known (y_train), with intervals, then ChimeraBoost against it as the incumbent."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from . import metrics

    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.4, stratify=y, random_state=0
    )
    logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    logreg.fit(X_train, y_train)
    proba = logreg.predict_proba(X_test)
    r = metrics.classification_report(y_test, proba, logreg.classes_, baseline=y_train)
    print(metrics.format_report(r, title="LogisticRegression on breast_cancer (test rows)"), file=out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="chimeraboost", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("demo", help="score models on scikit-learn's breast_cancer data")
    args = parser.parse_args(argv)
    if args.command in (None, "demo"):
        demo()
        return 0
    return 2  # pragma: no cover  (argparse rejects unknown commands first)


if __name__ == "__main__":
    sys.exit(main())
