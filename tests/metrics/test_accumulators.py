"""ClassificationAccumulator and RegressionAccumulator: chunked reports against the in-memory
reports on the concatenated rows (exact numbers to 1e-9, grid numbers within 1e-3 and within
the accumulator's own error bounds), independence of chunking and merge order, hostile input,
pickling."""

import pickle
import re
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy.special import expit

from chimeraboost import metrics
from chimeraboost.exceptions import DegenerateMetricWarning
from chimeraboost.metrics import ClassificationAccumulator, RegressionAccumulator

EXACT_CLS = ["n", "base_rate", "positives", "log_loss", "log_loss_ref", "log_loss_skill",
             "brier", "brier_ref", "brier_skill", "uncertainty_unc", "accuracy",
             "balanced_accuracy", "f1_macro", "reference_prior"]
GRID_CLS = ["roc_auc", "pr_auc", "pr_auc_lift", "calibration_mcb", "discrimination_dsc"]
EXACT_REG = ["n", "mean_y", "baseline_mean", "mse", "rmse", "mae", "r2", "mse_ref", "rmse_ref"]
MEDIAN_REG = ["baseline_median", "mae_ref", "mae_skill"]


def _splits(n, n_chunks, seed=0):
    """Index chunks of unequal sizes (some of one row) covering 0..n-1 in order."""
    rng = np.random.default_rng(seed)
    cuts = np.sort(rng.choice(np.arange(1, n), size=n_chunks - 1, replace=False))
    return np.split(np.arange(n), cuts)


def _take(x, idx):
    if x is None:
        return None
    return x.iloc[idx] if hasattr(x, "iloc") else np.asarray(x)[idx]


def _accumulate(make, y, pred, w=None, n_chunks=7, order="sequential", seed=0):
    """Accumulate the rows chunk by chunk, then combine: in sequence, or as a merge tree
    (pairs, then pairs of pairs; 'reversed' merges the parts in the opposite order)."""
    parts = [make().update(_take(y, i), _take(pred, i), sample_weight=_take(w, i))
             for i in _splits(len(y), n_chunks, seed)]
    if order == "sequential":
        acc = make()
        for i in _splits(len(y), n_chunks, seed):
            acc.update(_take(y, i), _take(pred, i), sample_weight=_take(w, i))
        return acc
    if order == "reversed":
        parts = parts[::-1]
    while len(parts) > 1:
        parts = [parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return parts[0]


def _assert_same(got, want, keys, rtol, atol=0.0):
    for key in keys:
        if key not in want:
            continue
        np.testing.assert_allclose(got[key], want[key], rtol=rtol, atol=atol, err_msg=key)


def _binary(n, seed=0, kind="uniform"):
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        p = rng.uniform(size=n)
        y = rng.uniform(size=n) < p
    elif kind == "beta":  # skewed towards 0
        p = rng.beta(0.5, 5.0, size=n)
        y = rng.uniform(size=n) < p
    elif kind == "rare":  # a 1% base rate
        p = expit(rng.normal(-6.0, 1.5, size=n))
        y = rng.uniform(size=n) < p
    else:  # near-separable: probabilities within 1e-5 of 0 and 1
        y = rng.uniform(size=n) < 0.3
        p = expit(np.where(y, 1.0, -1.0) * rng.normal(12.0, 3.0, size=n))
    return y.astype(int), p


def _multiclass(n, seed=0, labels=(0, 1, 2)):
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet([2.0, 1.0, 1.0], size=n)
    codes = (rng.uniform(size=n)[:, None] > np.cumsum(proba, axis=1)).sum(axis=1)
    return np.asarray(labels)[np.minimum(codes, 2)], proba


# --------------------------------------------------------------------------- classification


@pytest.mark.parametrize("case", ["binary", "multiclass", "strings", "weighted", "pandas",
                                  "baseline", "mapping"])
@pytest.mark.parametrize("order", ["sequential", "tree", "reversed"])
def test_classification_matches_the_in_memory_report(case, order):
    n = 30_000
    classes, w, baseline = [0, 1], None, None
    if case in ("multiclass", "strings", "mapping"):
        classes = ["a", "b", "c"] if case == "strings" else [0, 1, 2]
        y, p = _multiclass(n, labels=classes)
        if case == "mapping":
            baseline = {0: 0.5, 1: 0.3, 2: 0.2}
    else:
        y, p = _binary(n)
    rng = np.random.default_rng(1)
    if case == "weighted":
        w = rng.exponential(size=n) * (rng.uniform(size=n) > 0.2)  # 20% zero weights
    if case == "baseline":
        baseline = rng.uniform(size=500) < 0.3
    if case == "pandas":
        pd = pytest.importorskip("pandas")
        y = pd.Series(np.where(y == 1, 1, 0), index=np.arange(n) + 10)
        p = pd.DataFrame({0: 1 - p, 1: p}, index=y.index)
        w = pd.Series(rng.uniform(size=n), index=y.index)
    want = metrics.classification_report(y, p, classes, sample_weight=w, baseline=baseline)
    got = _accumulate(lambda: ClassificationAccumulator(classes, baseline=baseline), y, p, w,
                      n_chunks=11, order=order).report()
    assert list(got) == list(want)
    assert {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in want.items()}
    _assert_same(got, want, EXACT_CLS, rtol=1e-9)
    _assert_same(got, want, GRID_CLS, rtol=0, atol=1e-3)
    np.testing.assert_array_equal(got["classes"], want["classes"])
    assert got["reference"] == want["reference"]


@pytest.mark.parametrize("kind", ["uniform", "beta", "rare", "separable"])
def test_grid_numbers_are_within_1e3_and_within_the_stated_bounds(kind):
    y, p = _binary(200_000, seed=3, kind=kind)
    want = metrics.classification_report(y, p, [0, 1])
    acc = _accumulate(lambda: ClassificationAccumulator([0, 1]), y, p, n_chunks=9)
    got, bounds = acc.report(), acc.error_bounds()
    assert acc._cols[0].values is None  # on the grid: more than 2048 distinct scores
    for key in ("roc_auc", "pr_auc", "calibration_mcb", "discrimination_dsc"):
        assert abs(got[key] - want[key]) <= 1e-3, key
    # the lift is pr_auc / base rate: at a 1% base rate an absolute 1e-3 would ask pr_auc
    # for 1e-5, so the lift is held to 1e-3 relative (pr_auc's error relative to pr_auc).
    assert abs(got["pr_auc_lift"] - want["pr_auc_lift"]) <= 1e-3 * want["pr_auc_lift"]
    for key in ("roc_auc", "pr_auc", "pr_auc_lift"):
        assert abs(got[key] - want[key]) <= bounds[key] + 1e-12, key
    # The bounds are useful, not vacuous: ROC-AUC's at most 1e-3 on these distributions.
    assert bounds["roc_auc"] <= 1e-3
    # Pooling inside bins can only coarsen the isotonic fit: MCB and DSC come out lower, by
    # at most the stated bound.
    for key in ("calibration_mcb", "discrimination_dsc"):
        assert -1e-12 <= want[key] - got[key] <= bounds[key] + 1e-12, key


@pytest.mark.parametrize("scores", ["rule", "two decimals", "three decimals", "multiclass"])
def test_few_distinct_scores_give_every_number_exactly(scores):
    n = 40_000
    if scores == "multiclass":
        y, p = _multiclass(n, seed=5)
        p = np.round(p, 2)
        p[:, 2] = 1 - p[:, 0] - p[:, 1]  # rows still sum to 1; a few hundred values per column
        classes = [0, 1, 2]
    else:
        y, p = _binary(n, seed=5)
        p = {"rule": (p > 0.5) * 1.0, "two decimals": np.round(p, 2),
             "three decimals": np.round(p, 3)}[scores]
        classes = [0, 1]
    w = np.random.default_rng(2).uniform(size=n)
    want = metrics.classification_report(y, p, classes, sample_weight=w)
    acc = _accumulate(lambda: ClassificationAccumulator(classes), y, p, w, n_chunks=13,
                      order="tree")
    got = acc.report()
    _assert_same(got, want, EXACT_CLS + GRID_CLS, rtol=1e-12, atol=1e-14)
    assert all(v == 0 for v in acc.error_bounds().values())


def test_the_result_does_not_depend_on_chunks_or_merge_order():
    # 64 bins keep 32 distinct values exactly: some chunks stay exact, their union does not.
    y, p = _binary(5_000, seed=7)
    p = np.round(p, 2)
    w = np.random.default_rng(3).uniform(size=5_000)

    def make():
        return ClassificationAccumulator([0, 1], bins=64)

    # 100 values on 64 bins: the grid is too coarse for them, and says so.
    with pytest.warns(DegenerateMetricWarning, match="cannot resolve these scores"):
        reports = [_accumulate(make, y, p, w, n_chunks=k, order=o, seed=s).report()
                   for k, o, s in [(1, "sequential", 0), (40, "sequential", 1),
                                   (40, "tree", 2), (17, "reversed", 3)]]
    for r in reports[1:]:
        _assert_same(r, reports[0], EXACT_CLS + GRID_CLS, rtol=1e-12, atol=1e-15)
    # and the grid did change the numbers here (so the comparison above is not vacuous)
    want = metrics.classification_report(y, p, [0, 1], sample_weight=w)
    assert reports[0]["roc_auc"] != pytest.approx(want["roc_auc"], abs=1e-9)


@pytest.mark.parametrize("scale", [1e-170, 1e160, 5e-324])
def test_weights_of_any_scale_give_the_unweighted_numbers(scale):
    y, p = _binary(20_000, seed=8)
    want = metrics.classification_report(y, p, [0, 1])
    got = _accumulate(lambda: ClassificationAccumulator([0, 1]), y, p,
                      np.full(20_000, scale), order="tree").report()
    plain = _accumulate(lambda: ClassificationAccumulator([0, 1]), y, p).report()
    keys = [k for k in EXACT_CLS + GRID_CLS if k != "positives"]
    _assert_same(got, want, [k for k in keys if k in EXACT_CLS], rtol=1e-9)
    _assert_same(got, plain, keys, rtol=1e-9)


def test_chunks_of_very_different_weight_scales_combine():
    # One chunk in 1e-170, another in 1: the first contributes nothing visible, as in memory.
    y, p = _binary(4_000, seed=9)
    w = np.r_[np.full(2_000, 1e-170), np.ones(2_000)]
    want = metrics.classification_report(y, p, [0, 1], sample_weight=w)
    acc = ClassificationAccumulator([0, 1]).update(y[2000:], p[2000:], sample_weight=w[2000:])
    acc.merge(ClassificationAccumulator([0, 1]).update(y[:2000], p[:2000], sample_weight=w[:2000]))
    _assert_same(acc.report(), want, EXACT_CLS, rtol=1e-9)
    _assert_same(acc.report(), want, GRID_CLS, rtol=0, atol=1e-3)


BAD_CLASSIFICATION = [
    ("NaN label", [0, np.nan, 1], [0.2, 0.5, 0.7], None),
    ("label not in classes", [0, 2, 1], [0.2, 0.5, 0.7], None),
    ("rows not summing to 1", [0, 1, 1], [[0.2, 0.9], [0.5, 0.5], [0.3, 0.7]], None),
    ("outside [0, 1]", [0, 1, 1], [0.2, 1.5, 0.7], None),
    ("negative weight", [0, 1, 1], [0.2, 0.5, 0.7], [1.0, -1.0, 1.0]),
    ("weights too short", [0, 1, 1], [0.2, 0.5, 0.7], [1.0, 1.0]),
    ("mismatched lengths", [0, 1, 1], [0.2, 0.5], None),
    ("proba None", [0, 1, 1], None, None),
    ("wrong columns", [0, 1, 1], np.full((3, 3), 1 / 3), None),
]


@pytest.mark.parametrize(("what", "y", "proba", "w"), BAD_CLASSIFICATION,
                         ids=[c[0] for c in BAD_CLASSIFICATION])
def test_bad_chunks_fail_as_the_in_memory_report_fails(what, y, proba, w):
    with pytest.raises((ValueError, TypeError)) as in_memory:
        metrics.classification_report(y, proba, [0, 1], sample_weight=w)
    acc = ClassificationAccumulator([0, 1])
    with pytest.raises(in_memory.type, match=re.escape(str(in_memory.value))):
        acc.update(y, proba, sample_weight=w)
    assert acc.n == 0  # a refused chunk leaves nothing behind


def _warnings_of(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = call()
    return out, [str(w.message) for w in seen if issubclass(w.category, DegenerateMetricWarning)]


@pytest.mark.parametrize("case", ["single class", "single class with baseline",
                                  "zero prior on a present class", "absent class"])
def test_degenerate_input_gives_the_in_memory_nans_and_warnings(case):
    classes, baseline = [0, 1], None
    y, p = np.array([1, 1, 1, 1, 1, 1]), np.array([0.9, 0.8, 0.7, 0.6, 0.4, 0.95])
    if case == "single class with baseline":
        baseline = [0, 1, 1]
    elif case == "zero prior on a present class":
        y, baseline = np.array([0, 1, 0, 1, 1, 0]), [1, 1, 1]
    elif case == "absent class":
        classes = [0, 1, 2]
        y = np.array([0, 1, 0, 1, 1, 0])
        p = np.array([[0.5, 0.3, 0.2], [0.2, 0.7, 0.1]] * 3)
    want, want_warnings = _warnings_of(
        lambda: metrics.classification_report(y, p, classes, baseline=baseline))
    acc = ClassificationAccumulator(classes, baseline=baseline)
    acc.update(y[:4], p[:4]).update(y[4:], p[4:])
    got, got_warnings = _warnings_of(acc.report)
    assert want_warnings and got_warnings == want_warnings
    for key in EXACT_CLS + GRID_CLS:
        if key in want:
            np.testing.assert_allclose(got[key], want[key], rtol=1e-9, err_msg=key)


def test_merge_refuses_other_classes_baseline_or_grid():
    acc = ClassificationAccumulator([0, 1])
    others = [ClassificationAccumulator([0, 1, 2]), ClassificationAccumulator(["a", "b"]),
              ClassificationAccumulator([0, 1], baseline=[0, 1, 1]),
              ClassificationAccumulator([0, 1], bins=1024)]
    for other, what in zip(others, ["classes", "classes", "baseline", "bins"]):
        with pytest.raises(ValueError, match=f"other has {what}"):
            acc.merge(other)
    with pytest.raises(TypeError, match="other must be a ClassificationAccumulator"):
        acc.merge(RegressionAccumulator())


def test_empty_accumulator_and_empty_chunks():
    # A chunk of zero weight first must not set the scale: the weights that follow are 1e-170.
    y, p = _binary(2_000, seed=16)  # exact: fewer than 2,048 distinct scores
    tiny = ClassificationAccumulator([0, 1]).update(y[:5], p[:5], sample_weight=np.zeros(5))
    tiny.update(y[5:], p[5:], sample_weight=np.full(1_995, 1e-170))
    want = metrics.classification_report(y[5:], p[5:], [0, 1])
    _assert_same(tiny.report(), want, [k for k in EXACT_CLS + GRID_CLS if k not in (
        "n", "positives")], rtol=1e-9)
    acc = ClassificationAccumulator([0, 1])
    with pytest.raises(ValueError, match="no rows seen yet"):
        acc.report()
    assert acc.update([], []) is acc and acc.n == 0
    acc.update([0, 1], [0.3, 0.6], sample_weight=[0.0, 0.0])  # a chunk of zero weight is legal
    assert acc.n == 2
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        acc.report()
    acc.update([1, 0], [0.8, 0.1], sample_weight=[1.0, 1.0])
    want = metrics.classification_report([0, 1, 1, 0], [0.3, 0.6, 0.8, 0.1], [0, 1],
                                         sample_weight=[0, 0, 1, 1])
    _assert_same(acc.report(), want, EXACT_CLS + GRID_CLS, rtol=1e-12)
    # merging an empty accumulator (either way) changes nothing
    before = acc.report()
    acc.merge(ClassificationAccumulator([0, 1]))
    _assert_same(acc.report(), before, EXACT_CLS + GRID_CLS, rtol=0)
    fresh = ClassificationAccumulator([0, 1]).merge(acc)
    _assert_same(fresh.report(), before, EXACT_CLS + GRID_CLS, rtol=0)


@pytest.mark.parametrize("K", [2, 3])
def test_pickle_round_trip_and_size_does_not_grow_with_rows(K):
    classes = list(range(K))
    sizes = {}
    for n in (1_000, 100_000, 400_000):
        y, p = _binary(n, seed=11) if K == 2 else _multiclass(n, seed=11)
        acc = ClassificationAccumulator(classes).update(y, p)
        blob = pickle.dumps(acc)
        sizes[n] = len(blob)
        back = pickle.loads(blob)
        _assert_same(back.report(), acc.report(), EXACT_CLS + GRID_CLS, rtol=0)
        assert back.n == n
    # On the grid the size is fixed (96 KB a class column, as documented); with 1,000 rows
    # the scores are still kept exactly, in less.
    assert sizes[100_000] == sizes[400_000] <= 100_000 * (1 if K == 2 else K)
    assert sizes[1_000] <= sizes[100_000]


# --------------------------------------------------------------------------- regression


def _regression(n, seed=0, offset=0.0):
    rng = np.random.default_rng(seed)
    y = offset + rng.normal(size=n) * 3.0
    return y, y + rng.normal(size=n)


@pytest.mark.parametrize("case", ["plain", "weighted", "pandas", "baseline", "offset",
                                  "rounded"])
@pytest.mark.parametrize("order", ["sequential", "tree", "reversed"])
def test_regression_matches_the_in_memory_report(case, order):
    n = 30_000
    y, pred = _regression(n, offset=1e6 if case == "offset" else 0.0)
    rng = np.random.default_rng(4)
    w, baseline = None, None
    if case == "weighted":
        w = rng.exponential(size=n) * (rng.uniform(size=n) > 0.2)
    elif case == "baseline":
        baseline = rng.normal(size=301) + 0.5
    elif case == "rounded":
        y = np.round(y, 1)  # a few hundred distinct values: the median is exact
    elif case == "pandas":
        pd = pytest.importorskip("pandas")
        y, pred = pd.Series(y, index=np.arange(n) * 2), pd.Series(pred, index=np.arange(n) * 2)
    want = metrics.regression_report(y, pred, sample_weight=w, baseline=baseline)
    acc = _accumulate(lambda: RegressionAccumulator(baseline=baseline), y, pred, w,
                      n_chunks=11, order=order)
    got = acc.report()
    assert list(got) == list(want)
    assert {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in want.items()}
    _assert_same(got, want, EXACT_REG, rtol=1e-9)
    bounds = acc.error_bounds()
    if baseline is not None or case == "rounded":
        _assert_same(got, want, MEDIAN_REG, rtol=1e-9)
        assert bounds == {"baseline_median": 0.0, "mae_ref": 0.0, "mae_skill": 0.0}
    else:
        for key in MEDIAN_REG:
            assert abs(got[key] - want[key]) <= bounds[key] + 1e-9 * abs(want[key]), key
        assert bounds["mae_ref"] <= 1e-4 * want["mae_ref"]


def test_r2_of_a_huge_target_is_the_unscaled_one():
    y, pred = _regression(5_000, seed=12)
    want = metrics.regression_report(y, pred)
    for scale in (1e154, 1e-170):
        acc = _accumulate(RegressionAccumulator, y * scale, pred * scale, order="tree")
        got = acc.report()
        assert got["r2"] == pytest.approx(want["r2"], rel=1e-9), scale
        assert got["rmse"] == pytest.approx(want["rmse"] * scale, rel=1e-9)
        # 5,000 distinct values: the median is binned, within the stated bound
        assert abs(got["mae_skill"] - want["mae_skill"]) <= acc.error_bounds()["mae_skill"]


@pytest.mark.parametrize("scale", [1e-170, 1e160, 5e-324])
def test_regression_weights_of_any_scale_give_the_unweighted_numbers(scale):
    y, pred = _regression(20_000, seed=13)
    plain = _accumulate(RegressionAccumulator, y, pred).report()
    got = _accumulate(RegressionAccumulator, y, pred, np.full(20_000, scale),
                      order="tree").report()
    _assert_same(got, plain, EXACT_REG + MEDIAN_REG, rtol=1e-9)


def test_regression_median_does_not_depend_on_chunks_or_merge_order():
    # bins=16: the values go to dyadic bins at once; the level and the bins must come out
    # the same whatever the chunking.
    y, pred = _regression(3_000, seed=14, offset=50.0)
    w = np.random.default_rng(5).uniform(size=3_000)

    def make():
        return RegressionAccumulator(bins=16)

    accs = [_accumulate(make, y, pred, w, n_chunks=k, order=o, seed=s)
            for k, o, s in [(1, "sequential", 0), (30, "sequential", 1), (30, "tree", 2),
                            (9, "reversed", 3)]]
    for acc in accs[1:]:
        assert acc._values.level == accs[0]._values.level
        np.testing.assert_array_equal(acc._values.lo, accs[0]._values.lo)
        _assert_same(acc.report(), accs[0].report(), EXACT_REG + MEDIAN_REG, rtol=1e-12)
    want = metrics.regression_report(y, pred, sample_weight=w)
    got, bounds = accs[0].report(), accs[0].error_bounds()
    for key in MEDIAN_REG:
        assert abs(got[key] - want[key]) <= bounds[key] + 1e-12, key


BAD_REGRESSION = [
    ("NaN in y", [1.0, np.nan, 2.0], [1.0, 2.0, 3.0], None),
    ("infinite pred", [1.0, 2.0, 3.0], [1.0, np.inf, 3.0], None),
    ("mismatched lengths", [1.0, 2.0, 3.0], [1.0, 2.0], None),
    ("negative weight", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, -2.0, 1.0]),
    ("2-D y", [[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0], None),
    ("text", ["a", "b"], [1.0, 2.0], None),
]


@pytest.mark.parametrize(("what", "y", "pred", "w"), BAD_REGRESSION,
                         ids=[c[0] for c in BAD_REGRESSION])
def test_bad_regression_chunks_fail_as_the_in_memory_report_fails(what, y, pred, w):
    with pytest.raises((ValueError, TypeError)) as in_memory:
        metrics.regression_report(y, pred, sample_weight=w)
    acc = RegressionAccumulator()
    with pytest.raises(in_memory.type, match=re.escape(str(in_memory.value))):
        acc.update(y, pred, sample_weight=w)
    assert acc.n == 0


def test_constant_target_gives_nan_skills_and_the_same_warning():
    y, pred = np.full(8, 3.0), np.arange(8.0)
    want, want_warnings = _warnings_of(lambda: metrics.regression_report(y, pred))
    acc = RegressionAccumulator().update(y[:3], pred[:3]).update(y[3:], pred[3:])
    got, got_warnings = _warnings_of(acc.report)
    assert want_warnings and got_warnings == want_warnings
    assert np.isnan(got["r2"]) and np.isnan(got["mae_skill"])
    _assert_same(got, want, ["mse", "mae", "mean_y", "baseline_median"], rtol=1e-12)


def test_regression_merge_refusals_empty_and_pickle():
    acc = RegressionAccumulator()
    with pytest.raises(ValueError, match="no rows seen yet"):
        acc.report()
    with pytest.raises(ValueError, match="other has baseline"):
        acc.merge(RegressionAccumulator(baseline=[1.0, 2.0]))
    with pytest.raises(ValueError, match="other has bins"):
        acc.merge(RegressionAccumulator(bins=64))
    with pytest.raises(TypeError, match="other must be a RegressionAccumulator"):
        acc.merge(ClassificationAccumulator([0, 1]))
    assert acc.update([], []) is acc and acc.n == 0
    acc.update([5.0, 7.0], [1.0, 1.0], sample_weight=[0.0, 0.0])  # legal: weight comes later
    assert acc.n == 2
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        acc.report()
    acc.update([1.0, 2.0, 4.0], [1.5, 2.0, 3.0])
    want = metrics.regression_report([5.0, 7.0, 1.0, 2.0, 4.0], [1.0, 1.0, 1.5, 2.0, 3.0],
                                     sample_weight=[0, 0, 1, 1, 1])
    _assert_same(acc.report(), want, EXACT_REG + MEDIAN_REG, rtol=1e-12)
    sizes = {}
    for n in (1_000, 100_000, 400_000):
        y, pred = _regression(n, seed=15)
        acc = RegressionAccumulator().update(y, pred)
        blob = pickle.dumps(acc)
        sizes[n] = len(blob)
        _assert_same(pickle.loads(blob).report(), acc.report(), EXACT_REG + MEDIAN_REG, rtol=0)
    assert max(sizes.values()) <= 90_000
    assert sizes[100_000] <= 90_000 and sizes[1_000] <= sizes[400_000]


# --------------------------------------------------------------------------- fuzzing findings


def test_a_heavy_row_does_not_cancel_its_tied_negatives():
    # The row of weight 1e20 ties with a negative of weight 1: a total-minus-events count of
    # the negatives says 0 there, and ROC-AUC came out 1. By hand: P = 1e20 + 1, N = 2; the
    # 0.9 positive beats both negatives, the heavy one beats the 0.1 negative and ties the
    # other (one half): (2 + 1e20 * 1.5) / (2 P) -> 0.75.
    y, p, w = [1, 0, 0, 1], [0.5, 0.5, 0.1, 0.9], [1e20, 1, 1, 1]
    acc = ClassificationAccumulator([0, 1]).update(y, p, sample_weight=w)
    got = acc.report()
    assert got["roc_auc"] == pytest.approx(0.75, rel=1e-15)
    assert got["roc_auc"] == pytest.approx(
        metrics.classification_report(y, p, [0, 1], sample_weight=w)["roc_auc"], rel=1e-12)
    # UNC = rate (1 - rate) = (1e20 + 1) 2 / (1e20 + 3)^2; the isotonic fit keeps the three
    # values apart, its squared error is the 0.5 group's E N / T = 1e20 / (1e20 + 1), so
    # DSC = UNC - that / W = 1e-20 (both cancelled to 0 before).
    assert got["uncertainty_unc"] == pytest.approx(2e-20, rel=1e-12)
    assert got["discrimination_dsc"] == pytest.approx(1e-20, rel=1e-12)


@pytest.mark.parametrize("ratio", [1e9, 1e12, 1e15, 1e20])
@pytest.mark.parametrize("K", [2, 3])
def test_weight_ratios_up_to_1e20_keep_the_exact_mode_exact(ratio, K):
    rng = np.random.default_rng(int(np.log10(ratio)) + K)
    n = 400
    if K == 2:
        y, p = _binary(n, seed=11)
        p = np.round(p, 1)  # 11 values: many ties between heavy rows and light ones
    else:
        y, p = _multiclass(n, seed=11)
        p = np.round(p, 1)
        p[:, 2] = 1 - p[:, 0] - p[:, 1]
    # A few heavy rows, all of one class: that class's negatives are all light, and in a
    # score shared with a heavy row they must not vanish into the heavy row's rounding.
    heavy = (y == K - 1) & (rng.uniform(size=n) < 0.05)
    w = np.where(heavy, ratio, 1.0) * rng.uniform(0.5, 1.5, size=n)
    classes = list(range(K))
    want = metrics.classification_report(y, p, classes, sample_weight=w)
    acc = _accumulate(lambda: ClassificationAccumulator(classes), y, p, w, n_chunks=5,
                      order="tree")
    got = acc.report()
    assert all(v == 0 for v in acc.error_bounds().values())
    _assert_same(got, want, ["roc_auc", "pr_auc", "pr_auc_lift"], rtol=1e-9)


@pytest.mark.parametrize("K", [2, 3])
def test_wildly_weighted_scores_in_few_bins_stay_within_the_bounds(K):
    # Scores in [0.4, 0.6] fall in two of 16 bins; weights exp(20 N(0, 1)) span 1e-30..1e30.
    rng = np.random.default_rng(12)
    n = 3_000
    w = np.exp(20 * rng.normal(size=n))
    if K == 2:
        p = rng.uniform(0.4, 0.6, size=n)
        y = (rng.uniform(size=n) < p).astype(int)
    else:
        x = rng.dirichlet([1.0, 1.0, 1.0], size=n)
        p = 0.3 + 0.1 * x  # rows sum to 1, every score in [0.3, 0.4]
        y = (rng.uniform(size=n)[:, None] > np.cumsum(p, axis=1)).sum(axis=1).clip(0, 2)
    classes = list(range(K))
    want = metrics.classification_report(y, p, classes, sample_weight=w)
    acc = _accumulate(lambda: ClassificationAccumulator(classes, bins=16), y, p, w, n_chunks=7)
    with pytest.warns(DegenerateMetricWarning, match="cannot resolve these scores"):
        got = acc.report()
    bounds = acc.error_bounds()
    assert acc._cols[0].values is None
    for key in ("roc_auc", "pr_auc", "pr_auc_lift"):
        if key in bounds:
            assert abs(got[key] - want[key]) <= bounds[key] + 1e-12, key
    for key in ("calibration_mcb", "discrimination_dsc"):
        assert -1e-12 <= want[key] - got[key] <= bounds[key] + 1e-12, key


def _fixed_chunks(y, pred, size, merge_tree, w=None):
    parts = [RegressionAccumulator().update(y[i:i + size], pred[i:i + size],
                                            sample_weight=None if w is None else w[i:i + size])
             for i in range(0, len(y), size)]
    if not merge_tree:
        acc = RegressionAccumulator()
        for part in parts:
            acc.merge(part)
        return acc
    while len(parts) > 1:
        parts = [parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]
    return parts[0]


@pytest.mark.parametrize("offset", [1e6, 1e8, 1e10, 1e12])
@pytest.mark.parametrize("chunks", ["1-row", "37-row", "uneven tree", "37-row tree"])
def test_a_large_offset_in_many_chunks_keeps_r2_and_mse_ref_exact(offset, chunks):
    # Merging rounded chunk means lost digits of the spread around 1e10 (mse_ref 7e-8 off
    # with 37-row chunks, r2 3e-7 at 1e9); the means are now kept from a pinned shift.
    rng = np.random.default_rng(int(np.log10(offset)))
    n = 2_000
    y = offset + rng.normal(size=n)
    pred = y + rng.normal(size=n)
    w = rng.uniform(0.5, 2.0, size=n) if chunks == "uneven tree" else None
    if chunks == "uneven tree":
        acc = _accumulate(RegressionAccumulator, y, pred, w, n_chunks=60, order="tree")
    else:
        acc = _fixed_chunks(y, pred, 1 if chunks == "1-row" else 37, "tree" in chunks)
    # The reference is the exact rational value: in memory, the mean of y near 1e12 is
    # itself rounded (mse_ref up to 9e-9 off there).
    wf = [Fraction(v) for v in (np.ones(n) if w is None else w)]
    total = sum(wf)
    mean = sum(a * Fraction(b) for a, b in zip(wf, y)) / total
    mse_ref = sum(a * (Fraction(b) - mean) ** 2 for a, b in zip(wf, y)) / total
    mse = sum(a * (Fraction(b) - Fraction(c)) ** 2 for a, b, c in zip(wf, y, pred)) / total
    want = {"mean_y": float(mean), "mse_ref": float(mse_ref), "mse": float(mse),
            "rmse_ref": float(mse_ref) ** 0.5, "r2": float(1 - mse / mse_ref)}
    # and the in-memory report agrees where its own rounding allows
    _assert_same(metrics.regression_report(y, pred, sample_weight=w), want,
                 ["mse_ref", "mean_y"], rtol=1e-7)
    _assert_same(acc.report(), want, ["mse_ref", "r2", "rmse_ref", "mean_y", "mse"],
                 rtol=1e-9)


def test_a_target_near_the_float_maximum_has_a_finite_median():
    # (1.7e308 + 1.6e308) / 2 overflows; the median is 1.65e308, mae_ref 5e306.
    y = np.array([1.7e308, 1.6e308])
    got = RegressionAccumulator().update(y, y).report()
    assert got["baseline_median"] == pytest.approx(1.65e308, rel=1e-15)
    assert got["mae_ref"] == pytest.approx(5e306, rel=1e-12)
    want = metrics.regression_report(y, y)
    _assert_same(got, want, EXACT_REG + MEDIAN_REG, rtol=1e-12)
    # and across zero: [-1.7e308, 1.7e308] has its median at 0
    y = np.array([-1.7e308, 1.7e308])
    assert RegressionAccumulator().update(y, y).report()["baseline_median"] == 0.0


@pytest.mark.parametrize("where", ["one bin", "below 2e-9"])
def test_scores_the_grid_cannot_resolve_warn_and_keep_mcb_non_negative(where):
    # 20,000 distinct scores inside one bin of the grid: the pooled fit is constant, and
    # the forecast itself beat it (MCB came out -0.000165 against 0.0848, with no warning).
    rng = np.random.default_rng(2)
    n = 20_000
    x = rng.uniform(size=n)
    y = (rng.uniform(size=n) < x).astype(int)
    p = 0.5 + 1e-3 * x if where == "one bin" else 2e-9 * x
    want = metrics.classification_report(y, p, [0, 1])
    acc = _accumulate(lambda: ClassificationAccumulator([0, 1]), y, p, n_chunks=7)
    with pytest.warns(DegenerateMetricWarning, match=r"cannot resolve .* in-memory") as rec:
        got = acc.report()
    assert len(rec) == 1
    assert "worst-case ROC-AUC error 0.5" in str(rec[0].message)
    bounds = acc.error_bounds()
    assert got["calibration_mcb"] >= 0.0
    # The identity of the decomposition holds for the reported terms: Brier (summed over
    # the two classes, twice the positive column's) = 2 (MCB - DSC + UNC).
    assert got["brier"] == pytest.approx(
        2 * (got["calibration_mcb"] - got["discrimination_dsc"] + got["uncertainty_unc"]),
        rel=1e-12)
    assert want["brier"] == pytest.approx(
        2 * (want["calibration_mcb"] - want["discrimination_dsc"] + want["uncertainty_unc"]),
        rel=1e-12)
    for key in ("calibration_mcb", "discrimination_dsc"):
        assert 0.0 <= want[key] - got[key] <= bounds[key], key
    assert abs(got["roc_auc"] - want["roc_auc"]) <= bounds["roc_auc"]


def test_grid_mcb_bound_for_three_classes_and_no_warning_on_continuous_scores():
    y, p = _multiclass(100_000, seed=6)
    want = metrics.classification_report(y, p, [0, 1, 2])
    acc = _accumulate(lambda: ClassificationAccumulator([0, 1, 2]), y, p, n_chunks=5)
    got, bounds = acc.report(), acc.error_bounds()  # filterwarnings=error: no warning here
    for key in ("calibration_mcb", "discrimination_dsc"):
        assert -1e-12 <= want[key] - got[key] <= bounds[key] + 1e-12, key
    # a useful bound, not only an honest one
    assert bounds["calibration_mcb"] <= 1e-2


def test_exact_scores_have_zero_mcb_bounds():
    y, p = _binary(2_000, seed=4)
    acc = ClassificationAccumulator([0, 1]).update(y, np.round(p, 2))
    assert acc.error_bounds()["calibration_mcb"] == acc.error_bounds()["discrimination_dsc"] == 0


def test_a_pickle_of_another_layout_is_refused_not_merged():
    # What the sums mean changed between versions (the non-events' weight replaced the total):
    # a worker running another version must not merge its accumulator into wrong numbers.
    for acc in (ClassificationAccumulator([0, 1]).update([0, 1, 1], [0.2, 0.7, 0.9]),
                RegressionAccumulator().update([1.0, 2.0, 4.0], [1.5, 2.0, 3.0])):
        state = acc.__getstate__()
        state["_format"] = 1
        clone = object.__new__(type(acc))
        with pytest.raises(ValueError, match="pickled by another version"):
            clone.__setstate__(state)
        del state["_format"]  # a pickle from before the layout had a version
        with pytest.raises(ValueError, match="pickled by another version"):
            clone.__setstate__(state)
