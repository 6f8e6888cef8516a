"""Draw every figure of the docs into docs/images/: those of docs/plotting.md, the
critical-difference diagram of docs/compare.md, the skill over time of docs/monitor.md and the
slices of docs/slices.md, each from the code its page shows.

Run from the repository root:  MPLBACKEND=Agg python docs/images/make_figures.py
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

import chimeraboost as cb  # noqa: E402
from chimeraboost import plotting  # noqa: E402
from chimeraboost.compare import compare_cv  # noqa: E402

HERE = Path(__file__).resolve().parent


def save(fig, name):
    fig.savefig(HERE / name, dpi=90)
    plt.close(fig)


def main():
    X, y = make_classification(n_samples=4000, n_features=12, n_informative=5, weights=[0.8],
                               flip_y=0.05, random_state=0)
    X_train, y_train, X_test, y_test = X[:2000], y[:2000], X[2000:], y[2000:]
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
        "naive Bayes": GaussianNB(),
        "tree (depth 4)": DecisionTreeClassifier(max_depth=4, random_state=0),
        "random forest": RandomForestClassifier(n_estimators=200, min_samples_leaf=3,
                                                random_state=0, n_jobs=1),
    }
    for model in models.values():
        model.fit(X_train, y_train)

    # one model: reliability with its consistency band
    proba = models["naive Bayes"].predict_proba(X_test)
    ax = plotting.reliability_diagram(y_test, {"naive Bayes": proba}, n_boot=500,
                                      random_state=0)
    save(ax.figure, "reliability.png")

    # several models on one Axes
    probas = {name: m.predict_proba(X_test) for name, m in models.items()}
    ax = plotting.reliability_diagram(y_test, probas)
    save(ax.figure, "reliability_models.png")

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 5), layout="constrained")
    plotting.roc_curve(y_test, probas, ax=left)
    plotting.pr_curve(y_test, probas, ax=right)
    save(fig, "roc_pr.png")

    reports = {name: cb.report(m, X_test, y_test) for name, m in models.items()}
    ax = plotting.mcb_dsc_plot(reports)
    save(ax.figure, "mcb_dsc.png")

    r = cb.report(models["random forest"], X_test, y_test, baseline=models["logistic"],
                  random_state=0)
    ax = plotting.forest_plot(r, metrics=["brier_skill", "log_loss_skill", "roc_auc",
                                          "pr_auc", "calibration_mcb"], rope=0.01)
    save(ax.figure, "forest_report.png")

    res = compare_cv(models, X, y, scoring="brier_skill", cv=5, random_state=0)
    ax = plotting.forest_plot(res)
    save(ax.figure, "forest_compare_cv.png")

    axes = cb.report(models["logistic"], X_test, y_test).plot(random_state=0)
    save(axes[0].figure, "report_plot.png")

    cd_diagram()
    skill_over_time()
    slices_figure()


def cd_diagram():
    """docs/compare.md, recipe 3: four models ranked over ten data sets."""
    import pandas as pd
    from sklearn.dummy import DummyClassifier
    from sklearn.model_selection import cross_val_score

    from chimeraboost import compare

    models = {"prior": DummyClassifier(), "logreg": LogisticRegression(max_iter=1000),
              "naive_bayes": GaussianNB(),
              "tree": DecisionTreeClassifier(max_depth=4, random_state=0)}
    rows = {}
    for seed in range(10):
        X, y = make_classification(n_samples=300, n_features=10, n_informative=4,
                                   random_state=seed)
        rows[f"synthetic_{seed}"] = {name: cross_val_score(m, X, y, cv=5,
                                                           scoring="brier_skill").mean()
                                     for name, m in models.items()}
    result = compare.compare_datasets(pd.DataFrame.from_dict(rows, orient="index"))
    ax = result.plot()
    ax.figure.savefig(HERE / "cd_diagram.png", dpi=90, bbox_inches="tight")
    plt.close(ax.figure)


def skill_over_time():
    """docs/monitor.md: six months of a model whose base rate drifted, with intervals."""
    import numpy as np

    from chimeraboost import monitor

    rng = np.random.default_rng(7)
    n = 12_000
    when = np.datetime64("2024-01-01") + rng.integers(0, 182, n).astype("timedelta64[D]")
    x = rng.normal(size=n)
    drift = (when - np.datetime64("2024-01-01")).astype(int) / 182
    y = rng.random(n) < 1 / (1 + np.exp(-(-2.4 - 0.6 * drift + 1.2 * x)))
    proba = 1 / (1 + np.exp(-(-2.4 + 1.2 * x)))
    result = monitor.skill_over_time(y, proba, when, ci=0.95, random_state=0)
    axes = result.plot()
    save(axes[0].figure, "skill_over_time.png")


def slices_figure():
    """The report per slice of docs/slices.md: breast-cancer rows by mean texture."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import train_test_split

    data = load_breast_cancer(as_frame=True)
    X_train, X_test, y_train, y_test = train_test_split(
        data.data, data.target, test_size=0.5, stratify=data.target, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    model.fit(X_train, y_train)
    r = cb.report(model, X_test, y_test, by="mean texture", random_state=0)
    ax = r.slices.plot()
    save(ax.figure, "slices.png")


if __name__ == "__main__":
    main()
