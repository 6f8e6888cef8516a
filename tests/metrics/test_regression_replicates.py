"""RegressionAccumulator with Poisson bootstrap replicates: chunks updated apart and merged in
any order give the replicates of one update on all the rows (to 1e-12); the replicates are the
in-memory evaluator's numbers under the engine's Poisson counts
(``resampling.bootstrap_counts(scheme="poisson")``); groups get one count wherever their rows
sit; the report is unchanged by the replicates; mismatched accumulators are refused."""

import pickle

import numpy as np
import pytest

from chimeraboost import metrics, resampling
from chimeraboost.metrics import RegressionAccumulator

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")

B = 200
SUMS = ["mean_y", "baseline_mean", "mse", "mae", "mse_ref", "rmse", "rmse_ref", "r2",
        "mse_skill"]
MEDIAN = ["baseline_median", "mae_ref", "mae_skill"]
WITH_BASELINE = SUMS + MEDIAN


def _data(n, seed=0, offset=0.0):
    rng = np.random.default_rng(seed)
    y = offset + rng.gamma(2.0, 10.0, size=n)
    pred = y + rng.normal(0.0, 5.0, size=n)
    w = rng.uniform(0.5, 2.0, size=n)
    w[::97] = 0.0  # rows of weight zero count in no number and no replicate
    return y, pred, w


def _acc(**kw):
    return RegressionAccumulator(n_boot=B, random_state=3, **kw)


def _close(got, want, keys, rtol=1e-12):
    for key in keys:
        np.testing.assert_allclose(got[key], want[key], rtol=rtol, atol=1e-14, err_msg=key)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("baseline", [False, True])
def test_chunks_merged_in_any_order_equal_one_update(weighted, baseline):
    y, pred, w = _data(6000, offset=1e6)
    w = w if weighted else None
    kw = {"baseline": y[:500] + 1.0} if baseline else {}
    keys = WITH_BASELINE  # without a baseline the median's from the values (here: bins) kept
    whole = _acc(**kw).update(y, pred, sample_weight=w).replicates()
    assert set(whole) == set(keys)
    cuts = [0, 1, 1700, 1701, 4000, 6000]
    parts = [_acc(**kw).update(y[a:b], pred[a:b], sample_weight=None if w is None else w[a:b],
                               first_row=a) for a, b in zip(cuts[:-1], cuts[1:])]
    merged = parts[3].merge(parts[0]).merge(parts[4].merge(parts[2])).merge(parts[1])
    _close(merged.replicates(), whole, keys)
    # Chunks added in order to one accumulator key their rows by the rows seen so far.
    sequential = _acc(**kw)
    for a, b in zip(cuts[:-1], cuts[1:]):
        sequential.update(y[a:b], pred[a:b], sample_weight=None if w is None else w[a:b])
    _close(sequential.replicates(), whole, keys)


@pytest.mark.parametrize("baseline", [False, True])
@pytest.mark.parametrize("decimals", [None, 0])
def test_replicates_are_the_evaluator_under_the_engines_poisson_counts(baseline, decimals):
    y, pred, w = _data(5000, seed=1)
    if decimals is not None:  # about 200 values: the median of y is kept exactly
        y = np.round(y, decimals)
    kw = {"baseline": y[:300] - 2.0} if baseline else {}
    acc = _acc(**kw)
    for a in range(0, 5000, 1300):  # in chunks: the groups change as values arrive
        acc.update(y[a:a + 1300], pred[a:a + 1300], sample_weight=w[a:a + 1300])
    got = acc.replicates()
    counts = next(resampling.bootstrap_counts(5000, B, random_state=3, scheme="poisson",
                                              chunk_size=B))
    want = metrics.regression_evaluator(y, pred, sample_weight=w, **kw).evaluate(
        counts, warn=False)
    _close(got, want, SUMS, rtol=1e-11)
    if baseline or decimals is not None:
        _close(got, want, MEDIAN, rtol=1e-11)
    else:
        # 5000 distinct values in 2048 dyadic bins: each replicate's median lies in a bin of
        # width 2**level; mae_ref within the order of the report's own bound (6e-7 of it
        # here; a replicate's median bin holds other weights, so its bracket differs).
        width = 2.0 ** acc._values.level
        np.testing.assert_allclose(got["baseline_median"], want["baseline_median"],
                                   atol=width)
        np.testing.assert_allclose(got["mae_ref"], want["mae_ref"], rtol=1e-5)
        np.testing.assert_allclose(got["mae_skill"], want["mae_skill"], rtol=1e-5)


def test_a_groups_rows_share_a_count_wherever_they_sit():
    y, pred, _ = _data(3000, seed=5)
    groups = np.random.default_rng(0).integers(0, 300, size=3000).astype(str)
    whole = _acc().update(y, pred, groups=groups).replicates()
    order = np.random.default_rng(1).permutation(3000)  # groups scattered over the chunks
    parts = [_acc().update(y[i], pred[i], groups=groups[i]) for i in np.array_split(order, 4)]
    merged = parts[0].merge(parts[1]).merge(parts[2]).merge(parts[3]).replicates()
    _close(merged, whole, WITH_BASELINE, rtol=1e-11)
    counts = next(resampling.bootstrap_counts(3000, B, random_state=3, scheme="poisson",
                                              groups=groups, chunk_size=B))
    want = metrics.regression_evaluator(y, pred).evaluate(counts, warn=False)
    _close(whole, want, SUMS, rtol=1e-11)


def test_the_report_is_unchanged_by_the_replicates():
    y, pred, w = _data(3000, seed=4)
    plain = RegressionAccumulator().update(y, pred, sample_weight=w).report()
    with_reps = _acc().update(y, pred, sample_weight=w).report()
    assert set(with_reps) == set(plain)
    for key, value in plain.items():
        if isinstance(value, str):
            assert with_reps[key] == value
        else:
            assert with_reps[key] == pytest.approx(value, rel=1e-13), key


def test_replicates_pickle_and_give_a_plausible_spread():
    y, pred, _ = _data(4000, seed=6)
    acc = _acc().update(y, pred)
    again = pickle.loads(pickle.dumps(acc))
    _close(again.replicates(), acc.replicates(), SUMS)
    multinomial = resampling.bootstrap(metrics.regression_evaluator(y, pred), n_boot=B,
                                       random_state=0, metrics=["rmse"])
    ratio = np.std(acc.replicates()["rmse"]) / np.std(multinomial.replicates["rmse"])
    assert 0.7 < ratio < 1.4  # the two bootstraps estimate one standard error


@pytest.mark.parametrize("make_other, match", [
    (lambda: RegressionAccumulator(n_boot=B, random_state=4), "other seeds"),
    (lambda: RegressionAccumulator(n_boot=300, random_state=3), "n_boot"),
    (lambda: RegressionAccumulator(), "n_boot"),
])
def test_accumulators_with_other_replicates_are_refused(make_other, match):
    y, pred, _ = _data(100)
    with pytest.raises(ValueError, match=match):
        _acc().update(y, pred).merge(make_other().update(y, pred))


def test_bad_replicate_input_is_refused_by_name():
    y, pred, _ = _data(100)
    with pytest.raises(ValueError, match="keeps no bootstrap replicates"):
        RegressionAccumulator().update(y, pred).replicates()
    with pytest.raises(ValueError, match="n_boot=0"):
        RegressionAccumulator().update(y, pred, groups=np.zeros(100))
    acc = _acc().update(y, pred, groups=np.arange(100))
    with pytest.raises(ValueError, match="keyed by groups"):
        acc.update(y, pred)
    with pytest.raises(ValueError, match="first_row must be"):
        _acc().update(y, pred, first_row=-1)
    with pytest.raises(ValueError, match="n_boot=50 is too few"):
        RegressionAccumulator(n_boot=50)
