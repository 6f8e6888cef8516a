"""The calibration test inside the report and the holdout table: the in-sample MCB keeps its
meaning, its noise floor, the estimate of the population MCB (``calibration_excess``) and the
test's p-value come beside it, and the only MCB interval shown is the population one -- which
contains the number printed next to it."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.preprocessing import StandardScaler

from chimeraboost import compare, metrics, report

KEYS = ("calibration_noise_floor", "calibration_excess", "calibration_pvalue")


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.4, random_state=0, stratify=y)
    lr = LogisticRegression(max_iter=5000).fit(X_tr, y_tr)
    nb = GaussianNB().fit(X_tr, y_tr)  # overconfident: miscalibrated
    return X_te, y_te, lr, nb


def test_report_with_intervals_runs_the_calibration_test_of_metrics(data):
    X, y, lr, _ = data
    rep = report(lr, X, y, ci=0.95, n_boot=1000, random_state=7)
    # The same test as metrics.calibration_test on its own draws: equal within the Monte
    # Carlo error of 1,000 resamples (across seeds the noise floor moves by ~1%, the p-value
    # by ~0.02 and the upper end of the interval by ~2% on these rows), whatever order the
    # report draws its resamples in.
    test = metrics.calibration_test(y, lr.predict_proba(X), lr.classes_, n_boot=1000,
                                    random_state=12345)
    assert rep["calibration_noise_floor"] == pytest.approx(test.noise_floor, rel=0.05)
    assert rep["calibration_pvalue"] == pytest.approx(test.pvalue, abs=0.1)
    assert rep["calibration_excess"] == pytest.approx(test.excess, abs=0.1 * test.noise_floor)
    assert rep.ci["calibration_excess"][1] == pytest.approx(test.confidence_interval(level=0.95)[1],
                                                            rel=0.15)
    # The recalibration test draws nothing: the report's numbers are the function's.
    for key in ("recalibration_intercept", "recalibration_slope", "recalibration_pvalue"):
        assert rep[key] == pytest.approx(getattr(test, key), rel=1e-12), key
    assert rep["calibration_mcb"] == metrics.calibration_mcb(y, lr.predict_proba(X),
                                                             lr.classes_)
    assert "calibration_mcb" not in rep.ci  # a percentile interval would miss the population
    low, high = rep.ci["calibration_excess"]
    assert low <= rep["calibration_excess"] <= high
    text = str(rep)
    assert "noise floor" in text and "calibration test p = " in text
    assert f"slope {rep['recalibration_slope']:.2f}" in text
    assert "calibration_excess" in text and "calibration_mcb  " not in text.split("95%")[1]


def test_every_interval_of_the_report_contains_its_value(data):
    X, y, lr, nb = data
    for model in (lr, nb):
        rep = report(model, X, y, ci=0.9, n_boot=1000, random_state=0)
        for key, (low, high) in rep.ci.items():
            assert low <= rep[key] <= high, key


def test_a_point_report_makes_no_draws(data):
    X, y, lr, _ = data
    rep = report(lr, X, y)
    assert not set(KEYS) & set(rep)
    assert "noise floor" not in str(rep)


def test_paired_report_compares_the_population_estimates(data):
    X, y, lr, nb = data
    rep = report(nb, X, y, baseline=lr, n_boot=1000, random_state=3)
    assert "calibration_mcb" not in rep.vs_baseline
    diff, low, high = rep.vs_baseline["calibration_excess"]
    assert diff == rep["calibration_excess"] - rep.baseline_report["calibration_excess"]
    assert low <= diff <= high
    assert set(KEYS) <= set(rep.baseline_report)


def test_regression_report_has_no_calibration_test():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = X @ [1.0, 2.0, 0.5] + rng.normal(size=200)
    rep = report(LinearRegression().fit(X, y), X, y, ci=0.9, n_boot=1000, random_state=0)
    assert not set(KEYS) & set(rep)


def test_holdout_table_shows_the_population_mcb_beside_the_in_sample_one(data):
    X, y, lr, nb = data
    t = compare.holdout_table({"logreg": lr, "naive bayes": nb}, X, y,
                              metrics=["brier_skill", "calibration_mcb"],
                              primary="calibration_mcb", n_boot=1000, random_state=0)
    # The primary first (the population MCB), the in-sample one beside it, then the others.
    assert t.metrics == ["calibration_excess", "calibration_mcb", "brier_skill"]
    assert t.primary == "calibration_excess"
    for name, model in (("logreg", lr), ("naive bayes", nb)):
        row = t.rows[name]
        assert row["calibration_mcb"] == pytest.approx(
            metrics.calibration_mcb(y, model.predict_proba(X), model.classes_), abs=1e-12)
        assert np.isnan(row["calibration_mcb_low"]) and np.isnan(row["calibration_mcb_high"])
        assert row["calibration_excess_low"] <= row["calibration_excess"] \
            <= row["calibration_excess_high"]
    nb_row = t.rows["naive bayes"]
    # Oriented so that positive favours the row: baseline minus row for a loss.
    assert nb_row["difference"] == pytest.approx(
        t.rows["logreg"]["calibration_excess"] - nb_row["calibration_excess"], abs=1e-15)
    assert nb_row["diff_low"] <= nb_row["difference"] <= nb_row["diff_high"]
    text = str(t)
    assert "calibration test's interval" in " ".join(text.split())
    cells = [line for line in text.splitlines() if line.startswith("logreg")][0]
    # The in-sample MCB's cell holds the value alone, without brackets.
    assert f" {t.rows['logreg']['calibration_mcb']:.3f}  " in cells


def test_holdout_table_refuses_a_calibration_primary_for_a_rule(data):
    X, y, lr, _ = data
    rule = (lr.predict_proba(X)[:, 1] > 0.5).astype(int)
    with pytest.raises(ValueError, match=r"primary='calibration_mcb' needs probabilities, "
                                         r"which row\(s\) 'rule' \(a 0/1 rule\) cannot give"):
        compare.holdout_table({"rule": rule, "logreg": lr}, X, y, primary="calibration_mcb",
                              n_boot=1000, random_state=0)
