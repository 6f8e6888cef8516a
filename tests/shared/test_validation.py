"""Hostile input: every class of bad or extreme input ends in the right number or a clear
error naming the argument -- never a plausible-looking wrong number.

One test (or a small group) per class; each class is exercised through every public path it
can reach (metrics, resampling, report, compare), not only through the example that found it.
"""

import importlib
import math
import re
import warnings

import numpy as np
import pandas as pd
import polars as pl
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_diabetes, make_classification
from sklearn.dummy import DummyRegressor
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.metrics import r2_score, roc_auc_score
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import chimeraboost as cb
from chimeraboost import compare, decisions, metrics, quantile_metrics, resampling
from chimeraboost.exceptions import (
    DegenerateMetricWarning,
    FewResamplesWarning,
    NarrowIntervalWarning,
)


@pytest.fixture(scope="module")
def fitted():
    X, y = make_classification(n_samples=300, n_features=5, random_state=0)
    a = LogisticRegression().fit(X[:200], y[:200])
    b = LogisticRegression(C=0.01).fit(X[:200], y[:200])
    return a, b, X[200:], y[200:]


# ------------------------------------------------------------ 1. too few resamples


def test_too_few_resamples_are_refused_by_one_rule_everywhere(fitted):
    # One rule for every interval, band, p-value and verdict: fewer than 200 resamples are
    # refused, fewer than 1000 warn; 0 means "none" only where resampling is optional.
    a, b, X, y = fitted
    floor = resampling.MIN_RESAMPLES_DECISION
    p = a.predict_proba(X)[:, 1]
    ev = metrics.classification_evaluator(y, [0, 1], proba=a.predict_proba(X))
    calls = {
        "compare_holdout": lambda n: compare.compare_holdout(a, b, X, y, n_boot=n),
        "report paired": lambda n: cb.report(a, X, y, baseline=b, n_boot=n),
        "report": lambda n: cb.report(a, X, y, ci=0.95, n_boot=n),
        "paired_bootstrap": lambda n: resampling.paired_bootstrap(ev, ev, n_boot=n),
        "bootstrap": lambda n: resampling.bootstrap(ev, n_boot=n),
        "roc_auc_interval": lambda n: resampling.roc_auc_interval(y, p, n_boot=n),
        "curve_band": lambda n: decisions.curve_band(y, p, n_boot=n),
    }
    for name, call in calls.items():
        for n in (1, floor - 1):
            with pytest.raises(ValueError, match=f"n_boot={n} is too few.*at least {floor}"):
                call(n)
    # From 200 on, a decision is taken, but its interval warns until 1000.
    with pytest.warns(FewResamplesWarning, match="fewer than 1000"):
        res = compare.compare_holdout(a, b, X, y, n_boot=floor, random_state=0)
    assert res.decision in (compare.REPLACE, compare.KEEP, compare.EQUIVALENT)
    with pytest.warns(FewResamplesWarning):
        resampling.roc_auc_interval(y, p, n_boot=999)
    assert decisions.curve_band(y, p, n_boot=0).low is not None  # optional: no band
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cb.report(a, X, y, ci=0.95, n_boot=resampling.MIN_RESAMPLES_INTERVAL, random_state=0)


# ------------------------------------------------------------ 2. zero-probability reference


def test_reference_with_a_zero_probability_class_gives_nan_skill_not_a_huge_number():
    # The reproducer: y = all 1, the reference prior of [1, 1, 1] is certain of 1 and
    # right on every row, so its log loss is 0: the skill is 0/0, undefined.
    with pytest.warns(DegenerateMetricWarning, match="perfectly"):
        assert math.isnan(metrics.log_loss_skill([1, 1, 1, 1], [.9] * 4, [0, 1],
                                                 baseline=[1, 1, 1]))
    # y holds class 0, which the reference gives probability 0: an infinite reference.
    with pytest.warns(DegenerateMetricWarning, match=r"class\(es\) \[0\] probability 0"):
        rep = metrics.classification_report([0, 1, 0, 1], [.2, .8, .3, .6], [0, 1],
                                            baseline=[1, 1, 1])
    assert rep["log_loss_ref"] == math.inf and math.isnan(rep["log_loss_skill"])
    # Brier's reference stays finite: (0 - 1)^2 + (1 - 0)^2 = 2 on the class-0 rows, 0 on the
    # others, mean 1; the model's K-sum Brier is (.08 + .08 + .18 + .32) / 4 = .165.
    assert rep["brier_ref"] == pytest.approx(1.0)
    assert rep["brier_skill"] == pytest.approx(1 - 0.165)
    # The closed form says the same: -(.5 log 0 + .5 log 1) = inf; 0 log 0 counts 0.
    assert metrics.reference_log_loss([0.0, 1.0], outcome_prior=[0.5, 0.5]) == math.inf
    assert metrics.reference_log_loss([0.0, 1.0], outcome_prior=[0.0, 1.0]) == 0.0
    assert metrics.reference_log_loss([.25, .75], outcome_prior=[.5, .5]) == pytest.approx(
        -(0.5 * math.log(0.25) + 0.5 * math.log(0.75)), abs=1e-15)
    # The mapping form is the same rule.
    with pytest.warns(DegenerateMetricWarning, match="probability 0"):
        assert math.isnan(metrics.log_loss_skill([0, 1], [.3, .6], [0, 1],
                                                 baseline={0: 0.0, 1: 1.0}))


def test_single_class_warning_names_only_what_is_nan():
    with pytest.warns(DegenerateMetricWarning) as record:
        rep = metrics.classification_report([1, 1, 1], [.9, .8, .6], [0, 1], baseline=[0, 1, 1])
    text = " ".join(str(r.message) for r in record)
    assert "ROC-AUC is undefined" in text and "skill" not in text
    assert np.isfinite(rep["brier_skill"]) and np.isfinite(rep["log_loss_skill"])
    with pytest.warns(DegenerateMetricWarning, match="ROC-AUC, log_loss_skill, brier_skill"):
        metrics.classification_report([1, 1, 1], [.9, .8, .6], [0, 1])


# ------------------------------------------------------------ 3. pandas indexes


def test_pandas_indexes_that_disagree_are_refused_everywhere():
    y = pd.Series([0, 0, 0, 1, 1, 1, 1, 0]).iloc[[3, 0, 6, 1, 7, 2, 5, 4]]
    p = pd.Series([.1, .2, .3, .6, .7, .8, .9, .4])
    with pytest.raises(ValueError, match=r"y and proba carry different pandas indexes.*"
                                         r"proba\.loc\[y\.index\]"):
        metrics.classification_report(y, p, [0, 1])
    # Paired by label, the reproducer's AUC is 1.0; by position (the bug) it was 0.375.
    assert metrics.classification_report(y, p.loc[y.index], [0, 1])["roc_auc"] == 1.0
    # One index only: positional pairing, as for numpy.
    assert metrics.classification_report(y, p.to_numpy(), [0, 1])["roc_auc"] == pytest.approx(
        roc_auc_score(y.to_numpy(), p.to_numpy()))
    other = pd.Series(np.linspace(0.1, 0.9, 8), index=np.arange(100, 108))
    calls = [
        lambda: metrics.regression_report(y.astype(float), other),
        lambda: metrics.recall_at_k(y, other, 2),
        lambda: metrics.classification_report(y, p.to_numpy(), [0, 1],
                                              sample_weight=other.set_axis(y.index[::-1])),
        lambda: quantile_metrics.crps(y.astype(float), other, [0.5]),
        lambda: resampling.roc_auc_interval(y, other, method="delong"),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="different pandas indexes"):
            call()


def test_report_refuses_X_and_y_with_different_indexes():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    model = LogisticRegression(max_iter=5000).fit(X[:300], y[:300])
    with pytest.raises(ValueError, match="X and y carry different pandas indexes"):
        cb.report(model, X[300:], y[300:].reset_index(drop=True))
    # Same index: fine, and equal to numpy input.
    same = cb.report(model, X[300:], y[300:])
    assert same["brier"] == cb.report(model, X[300:], y[300:].to_numpy())["brier"]


# ------------------------------------------------------------ 4. probability DataFrames


def test_probability_dataframe_columns_matched_by_class_label():
    # Columns in the order 1, 0: matched by label, the Brier is the true 0.165.
    df = pd.DataFrame({1: [.2, .8, .3, .6], 0: [.8, .2, .7, .4]})
    assert metrics.classification_report([0, 1, 0, 1], df, [0, 1])["brier"] == pytest.approx(
        0.165, abs=1e-12)
    assert metrics.brier_score([0, 1, 0, 1], df, [0, 1]) == pytest.approx(0.165, abs=1e-12)
    # String labels, pandas and polars (whose column names are strings).
    labels = ["no", "yes"]
    frame = {"yes": [.2, .8, .3, .6], "no": [.8, .2, .7, .4]}
    y = ["no", "yes", "no", "yes"]
    for df in (pd.DataFrame(frame), pl.DataFrame(frame)):
        assert metrics.brier_score(y, df, labels) == pytest.approx(0.165, abs=1e-12)
    # Integer classes, polars' string column names "1", "0": matched by their text.
    pl_int = pl.DataFrame({"1": [.2, .8, .3, .6], "0": [.8, .2, .7, .4]})
    assert metrics.brier_score([0, 1, 0, 1], pl_int, [0, 1]) == pytest.approx(0.165)
    # Default column labels 0..K-1 mean "in the order of classes".
    positional = pd.DataFrame(np.array([[.8, .2], [.2, .8], [.7, .3], [.4, .6]]))
    assert metrics.brier_score(y, positional, labels) == pytest.approx(0.165, abs=1e-12)
    with pytest.raises(ValueError, match=r"columns \['p0', 'p1'\] are not the class labels"):
        metrics.brier_score(y, pd.DataFrame({"p0": [.8] * 4, "p1": [.2] * 4}), labels)


def test_one_column_dataframe_labelled_with_the_negative_class_is_refused():
    # One column is read as the positive class's probability: a column labelled with the
    # negative class (or pandas' default label 0, which is class 0 here) would be read as the
    # opposite of what its label says, so it is refused; the positive label or any other
    # name is the positive class, as a Series is.
    y, p = [0, 1, 0, 1], [.2, .8, .3, .6]
    for df in (pd.DataFrame({0: p}), pd.DataFrame(p), pl.DataFrame({"0": p})):
        with pytest.raises(ValueError, match="labelled .*0.*, the negative class"):
            metrics.classification_report(y, df, [0, 1])
    with pytest.raises(ValueError, match="labelled 'no', the negative class"):
        metrics.brier_score(["no", "yes", "no", "yes"], pd.DataFrame({"no": p}), ["no", "yes"])
    for df in (pd.DataFrame({1: p}), pd.DataFrame({"p_model": p})):
        assert metrics.brier_score(y, df, [0, 1]) == pytest.approx(0.165, abs=1e-12)


def test_score_and_quantile_dataframes_matched_by_column_label():
    # Multiclass decision scores with columns in another order than classes.
    y = ["a", "b", "c", "a", "b", "c"]
    s = np.array([[3, 1, 0], [0, 2, 1], [1, 0, 4], [2, 1, 1], [1, 3, 0], [0, 1, 2.]])
    ref = metrics.ranking_report(y, s, ["a", "b", "c"])["roc_auc"]
    shuffled = pd.DataFrame(s[:, [2, 0, 1]], columns=["c", "a", "b"])
    assert metrics.ranking_report(y, shuffled, ["a", "b", "c"])["roc_auc"] == ref
    # Quantile predictions with columns named by level, in another order.
    rng = np.random.default_rng(0)
    yq = rng.normal(size=50)
    grid = np.column_stack([yq - 1, yq + 0.1, yq + 1])
    levels = [0.1, 0.5, 0.9]
    ref = quantile_metrics.crps(yq, grid, levels)
    frame = pd.DataFrame(grid[:, [2, 0, 1]], columns=[0.9, 0.1, 0.5])
    assert quantile_metrics.crps(yq, frame, levels) == pytest.approx(ref, abs=1e-15)
    with pytest.raises(ValueError, match="look like quantile levels but are not the levels"):
        quantile_metrics.crps(yq, pd.DataFrame(grid, columns=[0.05, 0.5, 0.95]), levels)
    # Names that are not levels are read in order.
    named = pd.DataFrame(grid, columns=["low", "mid", "high"])
    assert quantile_metrics.crps(yq, named, levels) == pytest.approx(ref, abs=1e-15)


# ------------------------------------------------------------ 5. missing labels, positive class


@pytest.mark.parametrize("y", [
    [1, np.nan, 0, 1],
    np.array([1, None, 0, 1], dtype=object),
    pd.Series([True, None, False, True], dtype="boolean"),
    pd.Series(["b", None, "a", "b"], dtype="string"),
    pd.Series(["b", None, "a", "b"], dtype="category"),
], ids=["float-nan", "object-none", "pd-boolean", "pd-string", "pd-category"])
def test_missing_labels_raise_in_every_path(y):
    score = [.9, .8, .1, .2]
    values = pd.Series(y).dropna().unique().tolist()
    pos = values[0]
    classes = sorted(values, key=str)
    calls = [
        lambda: metrics.recall_at_k(y, score, 2, pos_label=pos),
        lambda: metrics.precision_at_k(y, score, 2, pos_label=pos),
        lambda: metrics.classification_report(y, score, classes),
        lambda: metrics.class_prior(y, classes),
        lambda: resampling.roc_auc_interval(y, score, pos_label=pos, method="delong"),
        lambda: resampling.delong_roc_auc(y, score, pos_label=pos),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="y contains 1 missing value"):
            call()


def test_one_positive_class_rule_everywhere():
    y, s = np.array(["a", "b", "a", "b"]), np.array([.1, .7, .3, .9])
    for call in (lambda: metrics.recall_at_k(y, s, 2),
                 lambda: resampling.roc_auc_interval(y, s, n_boot=1000),
                 lambda: resampling.delong_roc_auc(y, s)):
        with pytest.raises(ValueError, match="pass pos_label|Pass pos_label"):
            call()
    # With pos_label named, each agrees with scikit-learn on the same positive class.
    assert resampling.delong_roc_auc(y, s, pos_label="a").estimate == pytest.approx(
        roc_auc_score(y == "a", s))
    assert metrics.recall_at_k(y, s, 2, pos_label="b") == 1.0


# ------------------------------------------------------------ 6. scale


@pytest.mark.parametrize("scale", [1e-170, 1e160, 5e-324, 3.0])
def test_uniform_weights_of_any_scale_give_the_unweighted_numbers(scale):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    p = np.clip(0.3 * y + 0.7 * rng.random(300), 0, 1)
    base = metrics.classification_report(y, p, [0, 1])
    got = metrics.classification_report(y, p, [0, 1], sample_weight=np.full(300, scale))
    for key in ("roc_auc", "pr_auc", "log_loss", "brier", "brier_skill", "log_loss_skill",
                "calibration_mcb", "accuracy", "base_rate"):
        assert got[key] == pytest.approx(base[key], abs=1e-12), key
    # positives is a weighted count: the weight of the positive rows, in the weights' units.
    assert got["positives"] == pytest.approx(scale * y.sum(), rel=1e-12)
    assert metrics.recall_at_k(y, p, 50, sample_weight=np.full(300, scale)) == pytest.approx(
        metrics.recall_at_k(y, p, 50), abs=1e-12)
    yr = rng.normal(size=300)
    pr = yr + rng.normal(size=300)
    r = metrics.regression_report(yr, pr, sample_weight=np.full(300, scale))
    assert r["r2"] == pytest.approx(r2_score(yr, pr), abs=1e-12)
    q = quantile_metrics.crps_skill(yr, np.column_stack([pr - 1, pr, pr + 1]), [.1, .5, .9],
                                    sample_weight=np.full(300, scale))
    assert q == pytest.approx(quantile_metrics.crps_skill(
        yr, np.column_stack([pr - 1, pr, pr + 1]), [.1, .5, .9]), abs=1e-12)


@pytest.mark.parametrize("scale", [1e154, 1e-170, 1.0])
def test_regression_numbers_are_scale_free(scale):
    X, y = load_diabetes(return_X_y=True)
    pred = LinearRegression().fit(X, y).predict(X)
    ref = metrics.regression_report(y, pred)
    got = metrics.regression_report(y * scale, pred * scale)
    assert got["r2"] == pytest.approx(r2_score(y, pred), abs=1e-12)
    assert got["mae_skill"] == pytest.approx(ref["mae_skill"], abs=1e-12)
    assert got["rmse"] == pytest.approx(ref["rmse"] * scale, rel=1e-12)
    assert got["mean_y"] == pytest.approx(np.mean(y) * scale, rel=1e-12)


@pytest.mark.parametrize("offset", [1e6, 1e10, 1e12, -1e12])
def test_regression_reference_is_exact_whatever_the_offset_of_y(offset):
    # The mean of y = 1e12 + noise rounds by eps * 1e12 = 2e-4, which a one-pass reference
    # loss squares into a 1e-8 relative error; exact rational arithmetic is the judge.
    from fractions import Fraction

    rng = np.random.default_rng(3)
    y = offset + rng.normal(size=500)
    w = rng.uniform(0.5, 2.0, size=500)
    fy, fw = [Fraction(v) for v in y], [Fraction(v) for v in w]
    mean = sum(a * b for a, b in zip(fw, fy)) / sum(fw)
    exact = float(sum(b * (a - mean) ** 2 for a, b in zip(fy, fw)) / sum(fw))
    for chunks in (1, 7):
        in_memory = metrics.regression_report(y, y + 1.0, sample_weight=w)
        acc = metrics.RegressionAccumulator()
        for part in np.array_split(np.arange(500), chunks):
            acc.update(y[part], y[part] + 1.0, sample_weight=w[part])
        for r in (in_memory, acc.report()):
            assert r["mse_ref"] == pytest.approx(exact, rel=1e-12)
            assert r["mean_y"] == pytest.approx(float(mean), rel=1e-15)


@pytest.mark.parametrize(("wild_y", "wild_pred"), [(1e300, 0.0), (1.0, 1e200),
                                                   (1.7e308, -1.7e308)])
def test_a_row_of_zero_weight_changes_no_regression_number(wild_y, wild_pred):
    # Its y set the scale (every other square underflowed: r2 NaN, rmse 0) or its square
    # overflowed (0 * inf = NaN); weight 0 means it counts in nothing, in memory or in chunks.
    rng = np.random.default_rng(0)
    y = rng.normal(size=300)
    pred = y + 0.5 * rng.normal(size=300)
    want = metrics.regression_report(y, pred)
    y2, p2, w2 = np.r_[y, wild_y], np.r_[pred, wild_pred], np.r_[np.ones(300), 0.0]
    acc = metrics.RegressionAccumulator().update(y2, p2, sample_weight=w2)
    for got in (metrics.regression_report(y2, p2, sample_weight=w2), acc.report()):
        assert got["n"] == 301
        for key in ("mse", "rmse", "mae", "mse_ref", "r2", "mae_skill", "mean_y"):
            assert got[key] == pytest.approx(want[key], rel=1e-12), key


def test_a_constant_resample_is_named_in_the_regression_intervals():
    X = np.arange(200.0)[:, None]
    y = np.r_[np.full(199, 3.0), 4.0]  # most resamples miss the one 4.0: y constant there
    # One error far from the others: the errors are skewed, and the intervals of the squared
    # errors' mean say so.
    with pytest.warns(NarrowIntervalWarning, match="errors y - pred are skewed"):
        text = str(cb.report(LinearRegression().fit(X, y), X, y, ci=0.95, n_boot=1000))
    assert "undefined (y constant)" in text and "a class missing" not in text


def test_a_nearly_constant_y_is_not_constant_in_memory_or_in_chunks():
    # One row one ulp above the others: not constant, so r2 is defined, in memory and in
    # chunks alike (a threshold of 16 eps^2 times the mean square had called it constant).
    y = np.ones(50)
    y[-1] = np.nextafter(1.0, 2.0)
    pred = y[::-1].copy()
    r = metrics.regression_report(y, pred)
    acc = metrics.RegressionAccumulator().update(y[:20], pred[:20]).update(y[20:], pred[20:])
    assert np.isfinite(r["r2"]) and acc.report()["r2"] == pytest.approx(r["r2"], rel=1e-6)


# ------------------------------------------------------------ 7. compare_cv's default score


@pytest.mark.parametrize(("value", "n"), [(0.7, 63), (0.1, 175), (1 / 3, 207), (3.3e-300, 45),
                                          (-2.5e12, 1000)])
def test_a_constant_y_is_told_exactly_whatever_the_rounding_of_its_mean(value, n):
    # The mean of 63 rows of 0.7 is not 0.7 in floating point; the residue made r2 = -1e30
    # with no warning. A constant y has a reference loss of exactly zero and NaN skills.
    y = np.full(n, value)
    pred = value + abs(value) * np.linspace(-1.0, 1.0, n)
    w = np.random.default_rng(0).exponential(size=n)
    for weights in (None, w):
        with pytest.warns(DegenerateMetricWarning, match="y is constant"):
            r = metrics.regression_report(y, pred, sample_weight=weights)
        assert math.isnan(r["r2"]) and math.isnan(r["mae_skill"])
        assert r["mse_ref"] == 0.0 and r["mae_ref"] == 0.0
    # Rows of zero weight do not count: the rows that count are constant.
    y2, w2 = y.copy(), np.ones(n)
    y2[0], w2[0] = 2 * value, 0.0
    with pytest.warns(DegenerateMetricWarning, match="y is constant"):
        assert math.isnan(metrics.regression_report(y2, pred, sample_weight=w2)["r2"])
    # Against a baseline's mean the reference is not zero, and the skill against it is
    # defined: check the definition directly. r2 -- against y's own mean -- stays undefined.
    a = abs(value)
    with pytest.warns(DegenerateMetricWarning, match="y is constant: r2, against the mean"):
        r = metrics.regression_report(y, pred, baseline=[value + a, value + 3 * a])
    # On y's own scale: the residuals are a * linspace(-1, 1), the reference's 2a.
    ratio = np.mean(np.linspace(-1.0, 1.0, n) ** 2) / 4.0
    assert r["mse_skill"] == pytest.approx(1 - ratio, rel=1e-9) and math.isnan(r["r2"])


def test_compare_cv_default_regression_score_is_nan_on_constant_folds():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    y = np.zeros(50)
    y[:20] = rng.normal(size=20)  # folds 3, 4, 5 of an unshuffled KFold(5) hold only zeros
    models = {"mean": DummyRegressor(), "ridge": Ridge()}
    with pytest.warns(DegenerateMetricWarning) as record:
        res = compare.compare_cv(models, X, y, cv=KFold(5))
    texts = [str(r.message) for r in record]
    assert any("y is constant" in t for t in texts)
    assert any("3 of 5 folds" in t for t in texts)
    assert res.n_folds == 2 and res.scoring == "r2"
    # The kept folds' scores are this library's r2 (= scikit-learn's off a constant target).
    fold = np.arange(10)
    pred = Ridge().fit(np.delete(X, fold, 0), np.delete(y, fold)).predict(X[fold])
    assert res.scores["ridge"][0] == pytest.approx(r2_score(y[fold], pred), abs=1e-12)
    with pytest.raises(ValueError, match="Only 0 of 10 folds"), \
            pytest.warns(DegenerateMetricWarning):
        compare.compare_cv(models, X, np.ones(50))


# ------------------------------------------------------------ 8. crashes with internal messages


@pytest.mark.parametrize("call, error, match", [
    (lambda: metrics.reference_log_loss("a"), TypeError, "prior must be a probability"),
    (lambda: metrics.classification_report([0, 1], sp.csr_matrix([[.2, .8], [.3, .7]]), [0, 1]),
     TypeError, "proba is a sparse csr_matrix; sparse input is not accepted"),
    (lambda: metrics.classification_report(sp.csr_matrix([[0, 1]]), [.2, .8], [0, 1]),
     TypeError, "y is a sparse"),
    (lambda: metrics.classification_report([0, 1], [.2, .8], [0, 1],
                                           sample_weight=sp.csr_matrix([[1.0, 1.0]])),
     TypeError, "sample_weight is a sparse"),
    (lambda: metrics.classification_report([0, 1], [.2, .8], {0, 1}), TypeError,
     "classes must be an ordered array-like.*got a set"),
    (lambda: metrics.classification_report([0, 1], [.2, .8], {0: "a", 1: "b"}), TypeError,
     "classes must be an ordered array-like.*got a dict"),
], ids=["prior-string", "sparse-proba", "sparse-y", "sparse-weight", "set-classes",
        "dict-classes"])
def test_crashes_become_clear_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_compare_holdout_says_which_model_lacks_the_metric_and_why(fitted):
    a, b, X, y = fitted
    one = y == 1
    with pytest.raises(ValueError, match="y holds a single class"), \
            pytest.warns(DegenerateMetricWarning):
        compare.compare_holdout(a, b, X[one], y[one], random_state=0)
    from sklearn.svm import LinearSVC

    svm = LinearSVC().fit(X, y)
    with pytest.raises(ValueError, match=r"champion LinearSVC has no log_loss \(it gives no "
                                         r"probabilities\)"):
        compare.compare_holdout(svm, a, X, y, metric="log_loss", random_state=0)


# ------------------------------------------------------------ 9. the final-step trap


def test_report_refuses_X_that_the_estimator_was_not_fitted_on():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    pipe = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))
    search = GridSearchCV(pipe, {"logisticregression__C": [0.1, 1.0]}, cv=3).fit(X[:400],
                                                                                y[:400])
    last = search.best_estimator_.named_steps["logisticregression"]
    with pytest.raises(ValueError, match="report the whole fitted pipeline"):
        last.report(X[400:], y[400:]) if hasattr(last, "report") else cb.report(
            last, X[400:], y[400:])
    with pytest.raises(ValueError, match="X has 5 columns but estimator"):
        cb.report(search, X[400:].iloc[:, :5], y[400:])
    renamed = X[400:].rename(columns={"mean radius": "radius"})
    with pytest.raises(ValueError, match="X's columns differ"):
        cb.report(search, renamed, y[400:])
    with pytest.raises(ValueError, match="X has no column names"):
        cb.report(search, X[400:].to_numpy(), y[400:])
    whole = cb.report(search, X[400:], y[400:])
    assert whole["brier_skill"] > 0.5


# ------------------------------------------------------------ one fact, one place


def test_degenerate_warning_is_public_filterable_and_points_at_the_caller():
    assert issubclass(DegenerateMetricWarning, UndefinedMetricWarning)
    with pytest.warns(DegenerateMetricWarning) as record:
        metrics.classification_report([1, 1], [.9, .8], [0, 1])
    assert record[0].filename == __file__
    assert "np.int64" not in str(record[0].message) and "(1)" in str(record[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # scikit-learn's filter works
        metrics.classification_report([1, 1], [.9, .8], [0, 1])


def test_chimeraboost_report_is_the_function_not_a_module():
    assert callable(cb.report) and cb.report.__name__ == "report"
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("chimeraboost.report")


@pytest.mark.slow
def test_compare_cv_default_score_of_quantile_regressors_is_crps_skill():
    X, y = load_diabetes(return_X_y=True)
    models = {"q1": cb.ChimeraBoostQuantileRegressor(quality=1, max_iter=20, random_state=0),
              "q2": cb.ChimeraBoostQuantileRegressor(quality=1, max_iter=40, random_state=0)}
    res = compare.compare_cv(models, X, y, cv=KFold(3))
    assert res.scoring == "crps_skill"
    train, test = next(KFold(3).split(X))
    fitted = models["q1"].fit(X[train], y[train])
    assert res.scores["q1"][0] == pytest.approx(
        quantile_metrics.crps_skill(y[test], fitted.predict(X[test]), fitted.quantiles_),
        abs=1e-12)


def test_scorer_of_a_model_fitted_on_one_class_is_nan_with_a_warning_at_the_callers_line():
    from sklearn.dummy import DummyClassifier
    from sklearn.metrics import get_scorer

    X = np.zeros((4, 1))
    model = DummyClassifier().fit(X, [0, 0, 0, 0])
    with pytest.warns(DegenerateMetricWarning, match="fitted on a single class") as record:
        assert math.isnan(get_scorer("brier_skill")(model, X, [0, 1, 0, 1]))
    assert record[0].filename == __file__


def test_compare_refuses_what_cannot_be_compared(fitted):
    a, b, X, y = fitted
    with pytest.raises(ValueError, match="at least 20 held-out rows"):
        compare.compare_holdout(a, b, X[:6], y[:6], random_state=0)
    from sklearn.base import clone

    unfitted = clone(a)
    with pytest.raises(Exception, match=r"champion \(.*\) is not fitted"):
        compare.compare_holdout(unfitted, b, X, y)
    Xr, yr = load_diabetes(return_X_y=True)
    q = dict(quality=1, max_iter=10, random_state=0)
    with pytest.raises(ValueError, match="predict different levels"):
        compare.compare_cv({"a": cb.ChimeraBoostQuantileRegressor(**q),
                            "b": cb.ChimeraBoostQuantileRegressor((0.2, 0.5, 0.8), **q)}, Xr, yr)
    with pytest.raises(ValueError, match="mix quantile and point regressors"):
        compare.compare_cv({"a": cb.ChimeraBoostQuantileRegressor(**q),
                            "b": cb.ChimeraBoostRegressor(**q)}, Xr, yr)
    with pytest.raises(ValueError, match="groups has 10 rows"):
        compare.compare_cv({"a": Ridge(), "b": LinearRegression()}, Xr, yr, groups=np.arange(10))


def test_delong_needs_two_rows_of_each_class():
    y = [1] + [0] * 9
    s = [.55, .1, .2, .3, .4, .5, .6, .7, .8, .9]
    with pytest.warns(DegenerateMetricWarning, match="at least 2 of each"):
        res = resampling.delong_roc_auc_difference(y, s, np.linspace(0, 1, 10))
    assert res.estimate == pytest.approx(roc_auc_score(y, s) - roc_auc_score(y, np.linspace(0, 1, 10)))
    assert math.isnan(res.pvalue) and math.isnan(res.se)


def test_regression_reference_depends_on_y_alone():
    # One wild prediction: the model's loss overflows, the reference (y's own) does not.
    r = metrics.regression_report([0., 1, 2, 3], [0., 1, 2, 1e170])
    assert r["mse_ref"] == pytest.approx(1.25) and r["r2"] == -math.inf
    r = metrics.regression_report([0., 1, 2, 3], [.5, 1, 2, 3], baseline=[0., 1, 2, 1e170])
    assert r["mse"] == pytest.approx(0.0625)


def test_regressor_score_follows_the_library_rule_on_a_constant_target():
    X, y = load_diabetes(return_X_y=True)
    model = cb.ChimeraBoostRegressor(quality=1, max_iter=20, random_state=0).fit(X, y)
    assert model.score(X, y) == pytest.approx(r2_score(y, model.predict(X)), abs=1e-12)
    with pytest.warns(DegenerateMetricWarning, match="y is constant"):
        assert math.isnan(model.score(X[:10], np.full(10, 3.0)))


@pytest.mark.parametrize("scale", [1e-8, 1e-170, 1e120])
def test_estimators_fit_the_same_model_whatever_the_scale_of_uniform_weights(scale):
    X, y = make_classification(n_samples=300, n_features=5, random_state=0)
    kw = dict(quality=1, max_iter=20, random_state=0, n_threads=1)
    plain = cb.ChimeraBoostClassifier(**kw).fit(X, y).predict_proba(X)
    scaled = cb.ChimeraBoostClassifier(**kw).fit(X, y, sample_weight=np.full(300, scale))
    np.testing.assert_allclose(scaled.predict_proba(X), plain, atol=1e-10)
    Xr, yr = load_diabetes(return_X_y=True)
    plain = cb.ChimeraBoostRegressor(**kw).fit(Xr, yr).predict(Xr)
    scaled = cb.ChimeraBoostRegressor(**kw).fit(Xr, yr, sample_weight=np.full(len(yr), scale))
    np.testing.assert_allclose(scaled.predict(Xr), plain, rtol=1e-10)


def test_estimators_refuse_X_and_y_with_different_indexes():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    with pytest.raises(ValueError, match="X and y carry different pandas indexes"):
        cb.ChimeraBoostClassifier(quality=1, max_iter=10).fit(X, y.sample(frac=1,
                                                                          random_state=0))


@pytest.mark.parametrize("key", [3, "", "   ", None])
def test_the_keys_of_a_dict_of_models_must_be_names(key):
    # One check for every dict of named models: the holdout table's rows and the decision
    # curve's models refuse a key that is not a non-blank string, each naming its argument.
    y = np.array([0, 1, 0, 1, 1, 0] * 10)
    p = np.linspace(0.1, 0.9, y.size)
    with pytest.raises(TypeError, match=r"models' keys name the rows and must be non-empty "
                                        rf"strings, got {re.escape(repr(key))}\.$"):
        compare.holdout_table({"ok": p, key: p}, None, y, n_boot=1000)
    with pytest.raises(TypeError, match=r"proba' keys name the models and must be non-empty "
                                        rf"strings, got {re.escape(repr(key))}\.$"):
        cb.decisions.decision_curve(y, {"ok": p, key: p}, thresholds=[0.5], n_boot=200)
