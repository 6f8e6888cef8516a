"""chimeraboost.metrics against scikit-learn, closed forms and invariants."""

import doctest
import importlib
import math
import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.isotonic import IsotonicRegression

import chimeraboost._shared.format
import chimeraboost.metrics._regression
from chimeraboost import metrics
from chimeraboost.exceptions import DegenerateMetricWarning

TOL = 1e-12


def _binary(n=400, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * y - 1)))
    if ties:
        p = np.round(p, 1)
    return y, p, rng.random(n) * 2


def _multiclass(n=500, k=4, seed=1, labels=("ant", "bee", "cat", "dog")):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[codes]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return np.asarray(labels)[codes], proba, rng.random(n) + 0.1


def sklearn_numbers(y, proba, classes, w):
    """Every number of classification_report that scikit-learn computes, its way."""
    classes = np.asarray(classes)
    pred = classes[np.argmax(proba, axis=1)]
    onehot = (np.asarray(y)[:, None] == classes[None, :]).astype(float)
    out = {
        "log_loss": skm.log_loss(y, proba, sample_weight=w, labels=classes),
        "brier": skm.brier_score_loss(
            y, proba, sample_weight=w, labels=classes, scale_by_half=False
        ),
        "log_loss_skill": skm.d2_log_loss_score(y, proba, sample_weight=w, labels=classes),
        "brier_skill": skm.d2_brier_score(y, proba, sample_weight=w, labels=classes),
        "accuracy": skm.accuracy_score(y, pred, sample_weight=w),
        "balanced_accuracy": skm.balanced_accuracy_score(y, pred, sample_weight=w),
        "f1_macro": skm.f1_score(y, pred, average="macro", sample_weight=w),
    }
    if len(classes) == 2:
        out["roc_auc"] = skm.roc_auc_score(onehot[:, 1], proba[:, 1], sample_weight=w)
        out["pr_auc"] = skm.average_precision_score(onehot[:, 1], proba[:, 1], sample_weight=w)
    else:
        out["roc_auc"] = skm.roc_auc_score(
            y, proba, multi_class="ovr", sample_weight=w, labels=classes
        )
        out["pr_auc"] = skm.average_precision_score(onehot, proba, sample_weight=w)
    mcb = []
    ww = np.ones(len(y)) if w is None else w
    for j in range(len(classes)):
        iso = IsotonicRegression(out_of_bounds="clip").fit(proba[:, j], onehot[:, j], sample_weight=w)
        recal = iso.predict(proba[:, j])
        mcb.append(
            np.average((proba[:, j] - onehot[:, j]) ** 2, weights=ww)
            - np.average((recal - onehot[:, j]) ** 2, weights=ww)
        )
    out["calibration_mcb"] = float(np.mean(mcb))
    return out


CASES = {
    "binary": lambda: (*_binary()[:2], [0, 1], None),
    "binary-weighted": lambda: (_binary()[0], _binary()[1], [0, 1], _binary()[2]),
    "binary-ties": lambda: (*_binary(ties=True)[:2], [0, 1], None),
    "binary-ties-weighted": lambda: _binary(ties=True)[:2] + ([0, 1], _binary(ties=True)[2]),
    "multiclass-strings": lambda: (*_multiclass()[:2], ["ant", "bee", "cat", "dog"], None),
    "multiclass-weighted": lambda: (
        _multiclass()[0], _multiclass()[1], ["ant", "bee", "cat", "dog"], _multiclass()[2]
    ),
    "multiclass-ties": lambda: (
        _multiclass()[0], np.round(_multiclass()[1], 1) / np.round(_multiclass()[1], 1).sum(1, keepdims=True),
        ["ant", "bee", "cat", "dog"], None,
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_classification_report_equals_sklearn(case):
    y, proba, classes, w = CASES[case]()
    proba = np.asarray(proba)
    if proba.ndim == 1:
        proba = np.column_stack([1 - proba, proba])
    ours = metrics.classification_report(y, proba, classes, sample_weight=w)
    ref = sklearn_numbers(y, proba, classes, w)
    for key, value in ref.items():
        assert ours[key] == pytest.approx(value, abs=TOL, rel=0), key


def test_binary_positive_column_equals_two_columns():
    y, p, w = _binary(seed=3)
    one = metrics.classification_report(y, p, [0, 1], sample_weight=w)
    two = metrics.classification_report(y, np.column_stack([1 - p, p]), [0, 1], sample_weight=w)
    for key in ("log_loss", "brier", "roc_auc", "pr_auc", "calibration_mcb", "f1_macro"):
        assert one[key] == pytest.approx(two[key], abs=TOL)


def test_reference_closed_forms_and_worked_example():
    # Entropy of a Bernoulli(q): -(q ln q + (1-q) ln(1-q)).
    assert metrics.reference_log_loss(0.12) == pytest.approx(0.367, abs=5e-4)
    assert metrics.reference_log_loss(0.09) == pytest.approx(0.303, abs=5e-4)
    assert metrics.reference_log_loss(0.01) == pytest.approx(0.056, abs=5e-4)
    # A log loss of 0.31 at a 12% base rate: 1 - 0.31 / 0.3669 = 0.155.
    assert 1 - 0.31 / metrics.reference_log_loss(0.12) == pytest.approx(0.155, abs=5e-4)
    # K-sum Brier of the constant forecast q: 2 q (1 - q).
    assert metrics.reference_brier(0.12) == pytest.approx(2 * 0.12 * 0.88, abs=TOL)
    assert metrics.reference_brier([0.2, 0.3, 0.5]) == pytest.approx(1 - 0.04 - 0.09 - 0.25)


def test_reference_equals_constant_forecast_scored_by_sklearn():
    y, _, w = _binary(seed=4)
    prior = np.average(np.column_stack([1 - y, y]), axis=0, weights=w)
    const = np.tile(prior, (len(y), 1))
    report = metrics.classification_report(y, const[:, 1] * 0 + 0.5, [0, 1], sample_weight=w)
    assert report["log_loss_ref"] == pytest.approx(skm.log_loss(y, const, sample_weight=w), abs=TOL)
    assert report["brier_ref"] == pytest.approx(
        2 * skm.brier_score_loss(y, const[:, 1], sample_weight=w), abs=TOL
    )
    # A forecast of the other rows' prior, scored on these rows (outcome_prior).
    q = [0.7, 0.3]
    ref = skm.log_loss(y, np.tile(q, (len(y), 1)), sample_weight=w)
    assert metrics.reference_log_loss(q, outcome_prior=prior) == pytest.approx(ref, abs=TOL)


def test_baseline_targets_give_the_reference_of_their_prior():
    y, p, _ = _binary(seed=5)
    y_train = np.r_[np.ones(20), np.zeros(80)].astype(int)  # prior 0.2
    r = metrics.classification_report(y, p, [0, 1], baseline=y_train)
    const = np.tile([0.8, 0.2], (len(y), 1))
    assert r["log_loss_ref"] == pytest.approx(skm.log_loss(y, const), abs=TOL)
    assert r["brier_ref"] == pytest.approx(2 * skm.brier_score_loss(y, const[:, 1]), abs=TOL)
    assert r["brier_skill"] == pytest.approx(1 - r["brier"] / r["brier_ref"], abs=TOL)
    assert r["reference_prior"] == pytest.approx([0.8, 0.2])
    assert r["reference"] == "prior of baseline"


def test_class_known_to_model_missing_from_fold():
    y, proba, _ = _multiclass()
    keep = y != "dog"
    classes = ["ant", "bee", "cat", "dog"]
    with pytest.warns(DegenerateMetricWarning, match=r"no rows of class\(es\) \['dog'\]"):
        r = metrics.classification_report(y[keep], proba[keep], classes)
    # As scikit-learn's roc_auc_score(labels=classes): the macro one-vs-rest AUC over all
    # classes is undefined when one of them has no rows.
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(skm.roc_auc_score(y[keep], proba[keep], multi_class="ovr",
                                          labels=classes))
    assert np.isnan(r["roc_auc"]) and np.isnan(r["pr_auc"])
    assert r["log_loss"] == pytest.approx(skm.log_loss(y[keep], proba[keep], labels=classes), abs=TOL)
    assert r["brier_skill"] == pytest.approx(
        skm.d2_brier_score(y[keep], proba[keep], labels=classes), abs=TOL
    )
    assert r["base_rate"][3] == 0.0


def test_single_class_gives_nan_skill_and_warning():
    with pytest.warns(DegenerateMetricWarning, match="single class"):
        r = metrics.classification_report([1, 1, 1], [0.9, 0.8, 0.7], [0, 1])
    assert math.isnan(r["brier_skill"]) and math.isnan(r["log_loss_skill"])
    assert math.isnan(r["roc_auc"])
    assert r["log_loss"] == pytest.approx(-np.mean(np.log([0.9, 0.8, 0.7])))


def test_single_class_with_baseline_is_still_judged():
    with pytest.warns(DegenerateMetricWarning):
        r = metrics.classification_report([1, 1], [0.9, 0.8], [0, 1], baseline=[0, 1, 1, 0])
    assert r["brier_skill"] == pytest.approx(1 - r["brier"] / 0.5)


def test_zero_weights_equal_dropping_rows():
    y, p, w = _binary(seed=6, ties=True)
    w[::3] = 0
    full = metrics.classification_report(y, p, [0, 1], sample_weight=w)
    kept = metrics.classification_report(y[w > 0], p[w > 0], [0, 1], sample_weight=w[w > 0])
    for key in ("log_loss", "brier_skill", "roc_auc", "pr_auc", "calibration_mcb",
                "balanced_accuracy", "f1_macro"):
        assert full[key] == pytest.approx(kept[key], abs=TOL), key
    yr, pr = p * 3, p * 3 + np.sin(np.arange(len(p)))
    a = metrics.regression_report(yr, pr, sample_weight=w)
    b = metrics.regression_report(yr[w > 0], pr[w > 0], sample_weight=w[w > 0])
    for key in ("r2", "mae_skill", "rmse", "mae_ref"):
        assert a[key] == pytest.approx(b[key], abs=TOL), key


def test_pandas_input_equals_numpy():
    pd = pytest.importorskip("pandas")
    y, proba, w = _multiclass()
    classes = ["ant", "bee", "cat", "dog"]
    a = metrics.classification_report(y, proba, classes, sample_weight=w)
    b = metrics.classification_report(
        pd.Series(y, dtype="category"), pd.DataFrame(proba, columns=classes), pd.Index(classes),
        sample_weight=pd.Series(w),
    )
    for key in ("log_loss", "brier_skill", "roc_auc", "calibration_mcb", "f1_macro"):
        assert a[key] == b[key], key


def test_isotonic_pools_forecasts_closer_than_1e15_like_sklearn():
    rng = np.random.default_rng(7)
    base = np.round(rng.random(300), 2)
    p = base + rng.integers(0, 3, 300) * 2e-16  # near-ties below sklearn's resolution
    p = np.clip(p, 0, 1)
    y = (rng.random(300) < base).astype(int)
    ref = sklearn_numbers(y, np.column_stack([1 - p, p]), [0, 1], None)["calibration_mcb"]
    assert metrics.calibration_mcb(y, p, [0, 1]) == pytest.approx(ref, abs=TOL)


def test_calibration_decomposition_per_class_and_binary_symmetry():
    y, proba, w = _multiclass()
    classes = ["ant", "bee", "cat", "dog"]
    d = metrics.calibration_decomposition(y, proba, classes, sample_weight=w)
    onehot = (y[:, None] == np.asarray(classes)[None, :]).astype(float)
    brier_k = np.average((proba - onehot) ** 2, axis=0, weights=w)
    np.testing.assert_allclose(d["per_class"]["score"], brier_k, atol=TOL)
    np.testing.assert_allclose(
        d["per_class"]["mcb"] - d["per_class"]["dsc"] + d["per_class"]["unc"], brier_k, atol=TOL
    )
    rate = np.average(onehot, axis=0, weights=w)
    np.testing.assert_allclose(d["per_class"]["unc"], rate * (1 - rate), atol=TOL)
    yb, pb, _ = _binary(seed=8)
    db = metrics.calibration_decomposition(yb, pb, [0, 1])
    ref = sklearn_numbers(yb, np.column_stack([1 - pb, pb]), [0, 1], None)
    assert db["per_class"]["mcb"][0] == pytest.approx(db["per_class"]["mcb"][1])
    assert db["mcb"] == pytest.approx(ref["calibration_mcb"], abs=TOL)


def test_calibrated_by_construction_has_zero_mcb():
    # The isotonic recalibration of any forecast is its own recalibration: MCB = 0.
    y, p, w = _binary(seed=9, ties=True)
    recal = IsotonicRegression(out_of_bounds="clip").fit(p, y, sample_weight=w).predict(p)
    assert metrics.calibration_mcb(y, recal, [0, 1], sample_weight=w) == pytest.approx(0, abs=TOL)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=4),
    st.integers(min_value=2, max_value=40),
    st.integers(min_value=0, max_value=2**31 - 1),
    st.sampled_from([None, 1, 2]),
)
def test_invariants(k, n, seed, decimals):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, n)
    proba = rng.dirichlet(np.ones(k), n)
    if decimals is not None:
        proba = np.round(proba, decimals)
        proba[:, -1] = 1 - proba[:, :-1].sum(axis=1)
        proba = np.clip(proba, 0, 1)
        proba /= proba.sum(axis=1, keepdims=True)
    w = rng.random(n) + 0.01
    if len(np.unique(codes)) < 2:
        return
    # A multiclass problem with a class absent from y has no macro AUC (NaN, with a warning).
    absent = k > 2 and len(np.unique(codes)) < k
    with warnings.catch_warnings():
        if absent:
            warnings.simplefilter("ignore", DegenerateMetricWarning)
        r = metrics.classification_report(codes, proba, np.arange(k), sample_weight=w)
    assert r["brier_skill"] <= 1 + TOL and r["log_loss_skill"] <= 1 + TOL
    assert r["calibration_mcb"] >= -TOL and r["discrimination_dsc"] >= -TOL
    for key in ("accuracy", "balanced_accuracy", "f1_macro", "roc_auc", "pr_auc"):
        if absent and key in ("roc_auc", "pr_auc"):
            assert np.isnan(r[key]), key
            continue
        assert 0.0 <= r[key] <= 1.0, key  # shares: not even 1 + 1 ulp
    assert np.all((r["base_rate"] >= 0) & (r["base_rate"] <= 1))
    d = metrics.calibration_decomposition(codes, proba, np.arange(k), sample_weight=w)
    per = d["per_class"]
    np.testing.assert_allclose(per["mcb"] - per["dsc"] + per["unc"], per["score"], atol=TOL)
    assert per["score"].sum() == pytest.approx(r["brier"], abs=1e-10)


def test_batch_evaluation_equals_weighted_reports():
    """The bootstrap path (counts matrix) uses exactly the point-estimate definitions."""
    y, p, w = _binary(seed=10, ties=True)
    counts = np.random.default_rng(0).multinomial(len(y), np.ones(len(y)) / len(y), size=5)
    ev = metrics.classification_evaluator(y, [0, 1], proba=p, sample_weight=w, k=30)
    batch = ev.evaluate(counts, warn=False)
    for b in range(5):
        one = metrics.classification_report(y, p, [0, 1], sample_weight=counts[b] * w, k=30)
        for key, values in batch.items():
            assert values[b] == pytest.approx(one[key], abs=1e-10, nan_ok=True), key
    yr, pr = p * 10, p * 10 + np.cos(np.arange(len(p)))
    rev = metrics.regression_evaluator(yr, pr, sample_weight=w)
    rb = rev.evaluate(counts, warn=False)
    for b in range(5):
        one = metrics.regression_report(yr, pr, sample_weight=counts[b] * w)
        for key, values in rb.items():
            assert values[b] == pytest.approx(one[key], abs=1e-10), key


# ---------------------------------------------------------------- recall / precision at k


def test_recall_at_k_shares_ties_fractionally():
    rng = np.random.default_rng(11)
    y = (rng.random(2000) < 0.2).astype(int)
    flagged = np.zeros(2000)
    flagged[rng.choice(2000, 500, replace=False)] = 1  # a 0/1 rule flagging 500 rows
    r500 = metrics.recall_at_k(y, flagged, 500)
    assert metrics.recall_at_k(y, flagged, 400) == pytest.approx(0.8 * r500, abs=TOL)
    # recall@500 of the rule = positives flagged / positives.
    assert r500 == pytest.approx(y[flagged == 1].sum() / y.sum(), abs=TOL)
    assert metrics.precision_at_k(y, flagged, 400) == pytest.approx(
        y[flagged == 1].sum() / 500, abs=TOL
    )


def test_recall_at_k_without_ties_equals_sorting():
    y, p, _ = _binary(seed=12)
    order = np.argsort(-p)
    for k in (1, 17, 100, len(y)):
        assert metrics.recall_at_k(y, p, k) == pytest.approx(y[order[:k]].sum() / y.sum())
        assert metrics.precision_at_k(y, p, k) == pytest.approx(y[order[:k]].mean())
    assert metrics.recall_at_k(y, p, 0.25) == metrics.recall_at_k(y, p, 100)


def test_recall_at_k_equals_mean_over_random_tie_breaking():
    # Exact expectation over all orderings of a small tied group, by enumeration.
    import itertools

    y = np.array([1, 0, 1, 1, 0, 0])
    s = np.array([0.9, 0.5, 0.5, 0.5, 0.5, 0.1])
    vals = []
    tied = [1, 2, 3, 4]
    for perm in itertools.permutations(tied):
        top = [0, *perm[:2]]  # k = 3: row 0 plus two of the tied rows
        vals.append(y[top].sum() / y.sum())
    assert metrics.recall_at_k(y, s, 3) == pytest.approx(np.mean(vals), abs=TOL)
    assert metrics.recall_at_k(np.array(["a", "b", "a", "a", "b", "b"]), s, 3, pos_label="a") == (
        pytest.approx(np.mean(vals), abs=TOL)
    )


# ---------------------------------------------------------------- regression


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n", [7, 8, 200])
def test_regression_report_equals_sklearn(weighted, n):
    rng = np.random.default_rng(n)
    y = np.round(rng.normal(size=n), 1)  # ties, even and odd n
    pred = y + rng.normal(size=n)
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    if w is not None:
        w[0] = 1.0
    r = metrics.regression_report(y, pred, sample_weight=w)
    assert r["r2"] == pytest.approx(skm.r2_score(y, pred, sample_weight=w), abs=TOL)
    assert r["mae_skill"] == pytest.approx(
        skm.d2_absolute_error_score(y, pred, sample_weight=w), abs=TOL
    )
    assert r["rmse"] == pytest.approx(
        skm.root_mean_squared_error(y, pred, sample_weight=w), abs=TOL
    )
    assert r["mae"] == pytest.approx(skm.mean_absolute_error(y, pred, sample_weight=w), abs=TOL)


def test_regression_baseline_targets():
    y = np.array([1.0, 2.0, 3.0, 10.0])
    pred = np.array([1.0, 2.0, 3.0, 4.0])
    r = metrics.regression_report(y, pred, baseline=[0.0, 2.0, 4.0])  # mean 2, median 2
    assert r["mse_ref"] == pytest.approx(np.mean((y - 2.0) ** 2))
    assert r["mae_ref"] == pytest.approx(np.mean(np.abs(y - 2.0)))
    # The skill against the baseline's mean is mse_skill; r2 is scikit-learn's, against the
    # scored rows' own mean -- never the skill against the baseline under r2's name.
    assert r["mse_skill"] == pytest.approx(1 - 9.0 / np.mean((y - 2.0) ** 2))
    assert r["r2"] == pytest.approx(skm.r2_score(y, pred), abs=TOL)
    assert r["r2"] != pytest.approx(r["mse_skill"])


@pytest.mark.parametrize("weighted", [False, True])
def test_r2_is_sklearns_whatever_the_baseline(weighted):
    rng = np.random.default_rng(3)
    y, y_train = rng.normal(5, 2, 300), rng.normal(5.5, 2, 500)
    pred = y + rng.normal(0, 1, 300)
    w = rng.uniform(0.5, 2, 300) if weighted else None
    r = metrics.regression_report(y, pred, sample_weight=w, baseline=y_train)
    assert r["r2"] == pytest.approx(skm.r2_score(y, pred, sample_weight=w), abs=TOL)
    ref = np.average((y - y_train.mean()) ** 2, weights=w)
    assert r["mse_skill"] == pytest.approx(1 - r["mse"] / ref, abs=TOL)
    plain = metrics.regression_report(y, pred, sample_weight=w)
    assert plain["mse_skill"] == plain["r2"]  # without a baseline, the same number
    acc = metrics.RegressionAccumulator(baseline=y_train)
    for part in np.array_split(np.arange(300), 7):
        acc.update(y[part], pred[part], sample_weight=None if w is None else w[part])
    got = acc.report()
    assert got["r2"] == pytest.approx(r["r2"], abs=TOL)
    assert got["mse_skill"] == pytest.approx(r["mse_skill"], abs=TOL)


def test_constant_y_with_a_baseline_leaves_only_r2_undefined():
    with pytest.warns(DegenerateMetricWarning, match="y is constant: r2, against the mean of "
                                                     "y, is undefined"):
        r = metrics.regression_report([2.0, 2.0, 2.0], [1.5, 2.0, 2.5], baseline=[1.0, 3.0, 5.0])
    # Reference: the baseline's mean 3 misses each row by 1, so mse_ref = 1; mse = 1/6.
    assert math.isnan(r["r2"]) and r["mse_skill"] == pytest.approx(1 - 1 / 6)


def test_constant_y_gives_nan_skill_and_warning():
    with pytest.warns(DegenerateMetricWarning, match="constant"):
        r = metrics.regression_report([0.1, 0.1, 0.1], [0.1, 0.2, 0.0])
    assert math.isnan(r["r2"]) and math.isnan(r["mae_skill"])


# ---------------------------------------------------------------- bad input


BAD_CLASSIFICATION = [
    (dict(proba=[[0.5, 0.5], [0.2, 0.9]]), ValueError, "proba rows must sum to 1"),
    (dict(proba=[1.2, 0.1]), ValueError, r"proba must hold probabilities in \[0, 1\]"),
    (dict(proba=[np.nan, 0.1]), ValueError, "proba contains 1 NaN"),
    (dict(proba=[[0.5, 0.5, 0.0]] * 2), ValueError, "proba has 3 columns but there are 2 classes"),
    (dict(proba=[0.1, 0.2, 0.3]), ValueError, "Inconsistent numbers of rows: y has 2, proba has 3"),
    (dict(y=[0, 2]), ValueError, r"y contains labels not in classes: \['2'\]"),
    (dict(y=[[0, 1]]), ValueError, "y must be 1-dimensional"),
    (dict(y=[], proba=[]), ValueError, "y is empty"),
    (dict(y=[0, np.nan]), ValueError, "y contains 1 missing value"),
    (dict(classes=[1]), ValueError, "classes must list at least two"),
    (dict(classes=[0, 1, 1]), ValueError, "classes contains duplicate labels"),
    (dict(sample_weight=[1, -1]), ValueError, "sample_weight contains negative values"),
    (dict(sample_weight=[0, 0]), ValueError, "sample_weight sums to zero"),
    (dict(sample_weight=[1, 1, 1]), ValueError, "sample_weight has 3 rows but the data have 2"),
    (dict(sample_weight=[1, np.inf]), ValueError, "sample_weight contains 1 NaN or infinite"),
    (dict(baseline=[0, 5]), ValueError, "baseline contains labels not in classes"),
    (dict(k=5), ValueError, r"k=5 rows is outside 1..2"),
    (dict(k=1.5), ValueError, r"float k is a fraction of rows and must be in \(0, 1\)"),
    (dict(k=True), TypeError, "k must be an int"),
    (dict(proba="ab"), TypeError, "proba must be array-like"),
]


@pytest.mark.parametrize("change, error, match", BAD_CLASSIFICATION)
def test_bad_classification_input_names_the_argument(change, error, match):
    args = dict(y=[0, 1], proba=[0.2, 0.7], classes=[0, 1])
    args.update(change)
    with pytest.raises(error, match=match):
        metrics.classification_report(**args)


def test_multiclass_1d_proba_and_k_rejected():
    y, proba, _ = _multiclass(n=20)
    classes = ["ant", "bee", "cat", "dog"]
    with pytest.raises(ValueError, match="proba is 1-dimensional, which is only allowed for binary"):
        metrics.classification_report(y, proba[:, 0], classes)
    with pytest.raises(ValueError, match="k .recall@k. needs a binary problem"):
        metrics.classification_report(y, proba, classes, k=3)


@pytest.mark.parametrize(
    "change, match",
    [
        (dict(pred=[1.0, np.nan]), "pred contains 1 NaN"),
        (dict(pred=[1.0, 2.0, 3.0]), "Inconsistent numbers of rows: y has 2, pred has 3"),
        (dict(y=["a", "b"]), "y must be numeric"),
        (dict(baseline=[]), "baseline is empty"),
        (dict(sample_weight=[-1, 1]), "sample_weight contains negative values"),
    ],
)
def test_bad_regression_input_names_the_argument(change, match):
    args = dict(y=[1.0, 2.0], pred=[1.5, 2.5])
    args.update(change)
    with pytest.raises(ValueError, match=match):
        metrics.regression_report(**args)


def test_recall_at_k_bad_input():
    with pytest.raises(ValueError, match="y must be bool, 0/1 or -1/1 when pos_label is None"):
        metrics.recall_at_k(["a", "b"], [0.1, 0.2], 1)
    with pytest.raises(ValueError, match="score contains 1 NaN"):
        metrics.recall_at_k([0, 1], [0.1, np.nan], 1)
    with pytest.raises(ValueError, match="prior must hold probabilities"):
        metrics.reference_brier([0.5, 0.6])


# ---------------------------------------------------------------- text


def test_format_report_classification_leads_with_the_four_numbers():
    y, p, _ = _binary(seed=13)
    r = metrics.classification_report(y, p, [0, 1])
    first = metrics.format_report(r).splitlines()[0]
    assert first == (
        f"log loss {r['log_loss']:.4f} | base rate {r['base_rate']:.3f} | "
        f"reference {r['log_loss_ref']:.4f} | skill {r['log_loss_skill']:.3f}"
    )
    titled = metrics.format_report(r, title="LogReg").splitlines()
    assert titled[0] == "LogReg" and titled[2] == first


def test_format_report_never_prints_a_fake_number():
    r = metrics.ranking_report([0, 1, 1, 0], None, [0, 1], y_pred=[0, 1, 0, 0])
    assert math.isnan(r["log_loss"]) and r["accuracy"] == 0.75
    text = metrics.format_report(r)
    assert "n/a — the model gives no probabilities" in text
    assert "nan" not in text.lower().replace("n/a", "")
    rr = metrics.regression_report([1.0, 2.0, 4.0], [1.0, 2.5, 3.0])
    assert metrics.format_report(rr).startswith(f"RMSE {rr['rmse']:.4f} | mean of y")
    with pytest.raises(ValueError, match="not a report dict"):
        metrics.format_report({"foo": 1})


def test_ranking_report_decision_function_equals_sklearn():
    y, p, w = _binary(seed=14)
    score = np.log(p / (1 - p)) * 3.0  # any monotone transform of the probability
    r = metrics.ranking_report(y, score, [0, 1], sample_weight=w)
    assert r["roc_auc"] == pytest.approx(skm.roc_auc_score(y, p, sample_weight=w), abs=TOL)
    assert r["pr_auc"] == pytest.approx(skm.average_precision_score(y, p, sample_weight=w), abs=TOL)
    assert math.isnan(r["brier_skill"])


@pytest.mark.parametrize(
    "module",
    ["chimeraboost.metrics._proper_scores", "chimeraboost.metrics._calibration",
     "chimeraboost.metrics._ranking", "chimeraboost.metrics._regression",
     "chimeraboost._shared.format"],
)
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_polars_and_pyarrow_input_equal_numpy():
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    y, proba, w = _multiclass()
    classes = ["ant", "bee", "cat", "dog"]
    a = metrics.classification_report(y, proba, classes, sample_weight=w)
    b = metrics.classification_report(
        pl.Series(y), pl.DataFrame(proba, schema=classes), pl.Series(classes),
        sample_weight=pl.Series(w),
    )
    c = metrics.classification_report(
        pa.array(y), proba, pa.array(classes), sample_weight=pa.chunked_array([w[:100], w[100:]])
    )
    for key in ("log_loss", "brier_skill", "roc_auc", "calibration_mcb", "f1_macro"):
        assert a[key] == b[key] == c[key], key
    yr, pr = proba[:, 0] * 10, proba[:, 1] * 10
    assert metrics.regression_report(pl.Series(yr), pa.array(pr))["r2"] == (
        metrics.regression_report(yr, pr)["r2"]
    )


def test_losses_of_a_model_without_probabilities_are_nan_in_any_subset():
    # A ranking-only evaluator asked for losses alone: NaN, as in its full report, not a crash.
    ev = metrics.classification_evaluator([0, 1, 0, 1], [0, 1], score=[.1, .4, .35, .8])
    out = ev.evaluate(metrics=["log_loss", "brier_skill"])
    assert np.isnan(out["log_loss"][0]) and np.isnan(out["brier_skill"][0])
    full = metrics.ranking_report([0, 1, 0, 1], [.1, .4, .35, .8], [0, 1])
    # Both positives (.4, .8) score above both negatives (.1, .35): AUC 1.
    assert np.isnan(full["log_loss"]) and full["roc_auc"] == 1.0
