"""Two identical models get no verdict: a difference of 0, p = 1 and "no clear difference"
on every metric and every seed (the tie rule: equal to 1e-12 relative)."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import chimeraboost as cb


@pytest.fixture(scope="module")
def twins():
    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[:300], y[:300])
    return model, clone(model).fit(X[:300], y[:300]), X[300:], y[300:]


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_a_model_against_its_refitted_copy_has_no_difference(twins, seed):
    model, copy, X, y = twins
    r = cb.report(model, X, y, baseline=copy, random_state=seed, n_boot=1000)
    _, _, rows, _ = r._vs_table()
    assert rows and {row[-1] for row in rows} == {"no clear difference"}
    for key, (diff, lo, hi) in r.vs_baseline.items():
        assert abs(diff) <= 1e-12 and abs(lo) <= 1e-12 and abs(hi) <= 1e-12, key
    assert r.delong_vs_baseline.estimate == 0 and r.delong_vs_baseline.pvalue == 1.0
    # The two calibration tests drew the same outcomes: identical noise floors.
    assert r["calibration_noise_floor"] == r.baseline_report["calibration_noise_floor"]


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("primary", ["brier_skill", "calibration_mcb", "roc_auc", "log_loss"])
def test_a_holdout_table_of_twins_calls_no_winner(twins, seed, primary):
    model, copy, X, y = twins
    t = cb.compare.holdout_table({"a": model, "b": copy}, X, y, random_state=seed,
                                 n_boot=1000, primary=primary)
    row = t.rows["b"]
    assert (row["difference"], row["diff_low"], row["diff_high"]) == (0.0, 0.0, 0.0)
    assert not row["beats_baseline"] and "worse" not in row["notes"]


def test_regression_twins_have_no_difference():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = X @ [1.0, -2.0, 0.5] + rng.normal(size=300)
    model = Ridge().fit(X[:200], y[:200])
    r = cb.report(model, X[200:], y[200:], baseline=clone(model).fit(X[:200], y[:200]),
                  random_state=0, n_boot=1000)
    assert {row[-1] for row in r._vs_table()[2]} == {"no clear difference"}
