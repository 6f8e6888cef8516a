"""ClassificationAccumulator with Poisson bootstrap replicates: chunks updated apart and
merged in any order give the replicates of one update on all the rows (to 1e-12); the
replicates are the in-memory evaluator's numbers under the engine's Poisson counts
(``resampling.bootstrap_counts(scheme="poisson")``): exactly for the sums, and for every
number when the scores take few values (the grid then keeps them exactly); groups get one
count wherever their rows sit; mismatched accumulators are refused."""

import pickle

import numpy as np
import pytest

from chimeraboost import metrics, resampling
from chimeraboost.metrics import ClassificationAccumulator

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")

B = 200
SUMS = ["base_rate", "log_loss", "log_loss_ref", "log_loss_skill", "brier", "brier_ref",
        "brier_skill", "uncertainty_unc", "accuracy", "balanced_accuracy", "f1_macro"]
RANKS = ["roc_auc", "pr_auc", "calibration_mcb", "discrimination_dsc"]


def _data(n, seed=0, k=2, decimals=None):
    rng = np.random.default_rng(seed)
    if k == 2:
        p = rng.uniform(size=n)
        y = (rng.uniform(size=n) < p).astype(int)
        proba = p if decimals is None else np.round(p, decimals)
    else:
        logits = rng.normal(size=(n, k))
        proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        y = (rng.uniform(size=n)[:, None] > np.cumsum(proba, axis=1)).sum(axis=1)
    return y, proba, rng.uniform(0.5, 2.0, size=n)


def _acc(k=2, **kw):
    return ClassificationAccumulator(list(range(k)), n_boot=B, random_state=3, **kw)


def _close(got, want, keys, rtol=1e-12):
    for key in keys:
        np.testing.assert_allclose(got[key], want[key], rtol=rtol, atol=1e-14, err_msg=key)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_chunks_merged_in_any_order_equal_one_update(k, weighted):
    y, p, w = _data(6000, seed=k, k=k)
    w = w if weighted else None
    whole = _acc(k).update(y, p, sample_weight=w).replicates()
    cuts = [0, 1, 1700, 1701, 4000, 6000]
    parts = [_acc(k).update(y[a:b], p[a:b], sample_weight=None if w is None else w[a:b],
                            first_row=a) for a, b in zip(cuts[:-1], cuts[1:])]
    merged = parts[3].merge(parts[0]).merge(parts[4].merge(parts[2])).merge(parts[1])
    got = merged.replicates()
    assert set(got) == set(whole)
    _close(got, whole, [key for key in whole if key != "positives"])
    np.testing.assert_allclose(got["positives"], whole["positives"], rtol=1e-12)
    # Chunks added in order to one accumulator key their rows by the rows seen so far.
    sequential = _acc(k)
    for a, b in zip(cuts[:-1], cuts[1:]):
        sequential.update(y[a:b], p[a:b], sample_weight=None if w is None else w[a:b])
    _close(sequential.replicates(), whole, SUMS + RANKS)


@pytest.mark.parametrize("decimals", [None, 2])
def test_replicates_are_the_evaluator_under_the_engines_poisson_counts(decimals):
    y, p, w = _data(5000, seed=1, decimals=decimals)
    got = _acc().update(y, p, sample_weight=w).replicates()
    counts = next(resampling.bootstrap_counts(5000, B, random_state=3, scheme="poisson",
                                              chunk_size=B))
    want = metrics.classification_evaluator(y, [0, 1], proba=p,
                                            sample_weight=w).evaluate(counts)
    _close(got, want, SUMS, rtol=1e-11)
    if decimals is not None:  # 101 values: the accumulator keeps every one exactly
        _close(got, want, RANKS, rtol=1e-11)
    else:  # the grid: within its bound's order
        np.testing.assert_allclose(got["roc_auc"], want["roc_auc"], atol=2e-4)


def test_the_report_is_unchanged_by_the_replicates():
    y, p, w = _data(3000, seed=4)
    plain = ClassificationAccumulator([0, 1]).update(y, p, sample_weight=w).report()
    with_reps = _acc().update(y, p, sample_weight=w).report()
    for key, value in plain.items():
        if isinstance(value, str):
            assert with_reps[key] == value
        else:
            np.testing.assert_allclose(np.asarray(with_reps[key]), np.asarray(value),
                                       rtol=1e-13, err_msg=key)


def test_a_groups_rows_share_a_count_wherever_they_sit():
    y, p, _ = _data(3000, seed=5)
    groups = np.random.default_rng(0).integers(0, 300, size=3000).astype(str)
    whole = _acc().update(y, p, groups=groups).replicates()
    order = np.random.default_rng(1).permutation(3000)  # groups scattered over the chunks
    parts = [_acc().update(y[i], p[i], groups=groups[i]) for i in np.array_split(order, 4)]
    merged = parts[0].merge(parts[1]).merge(parts[2]).merge(parts[3]).replicates()
    _close(merged, whole, SUMS, rtol=1e-11)
    counts = next(resampling.bootstrap_counts(3000, B, random_state=3, scheme="poisson",
                                              groups=groups, chunk_size=B))
    want = metrics.classification_evaluator(y, [0, 1], proba=p).evaluate(counts)
    _close(whole, want, SUMS, rtol=1e-11)


def test_replicates_pickle_and_give_a_plausible_spread():
    y, p, _ = _data(4000, seed=6)
    acc = _acc().update(y, p)
    again = pickle.loads(pickle.dumps(acc))
    _close(again.replicates(), acc.replicates(), SUMS)
    reps = acc.replicates()["brier"]
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    multinomial = resampling.bootstrap(ev, n_boot=B, random_state=0, metrics=["brier"])
    ratio = np.std(reps) / np.std(multinomial.replicates["brier"])
    assert 0.7 < ratio < 1.4  # the two bootstraps estimate one standard error


@pytest.mark.parametrize("make_other, match", [
    (lambda: ClassificationAccumulator([0, 1], n_boot=B, random_state=4), "other seeds"),
    (lambda: ClassificationAccumulator([0, 1], n_boot=300, random_state=3), "n_boot"),
    (lambda: ClassificationAccumulator([0, 1]), "n_boot"),
])
def test_accumulators_with_other_replicates_are_refused(make_other, match):
    y, p, _ = _data(100)
    with pytest.raises(ValueError, match=match):
        _acc().update(y, p).merge(make_other().update(y, p))


def test_bad_replicate_input_is_refused_by_name():
    y, p, _ = _data(100)
    with pytest.raises(ValueError, match="keeps no bootstrap replicates"):
        ClassificationAccumulator([0, 1]).update(y, p).replicates()
    with pytest.raises(ValueError, match="n_boot=0"):
        ClassificationAccumulator([0, 1]).update(y, p, groups=np.zeros(100))
    acc = _acc().update(y, p, groups=np.arange(100))
    with pytest.raises(ValueError, match="keyed by groups"):
        acc.update(y, p)
    with pytest.raises(ValueError, match="first_row must be"):
        _acc().update(y, p, first_row=-1)
    with pytest.raises(ValueError, match="one value per row"):
        _acc().update(y, p, groups=np.arange(99))
    with pytest.raises(ValueError, match="n_boot=50 is too few"):
        ClassificationAccumulator([0, 1], n_boot=50)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("scale", [1.0, 1e-170])
def test_sums_of_all_rows_minus_a_part_are_the_sums_of_the_other_rows(k, scale):
    # Sums add over rows: all rows' minus the first 300's are those of an accumulator fed
    # the last 500 only (each row keyed by its position among all rows), in every replicate;
    # weights of any scale give them in the weights' own units.
    y, proba, w = _data(800, seed=4, k=k)
    w = w * scale
    every = _acc(k).update(y, proba, sample_weight=w).sums()
    first = _acc(k).update(y[:300], proba[:300], sample_weight=w[:300]).sums()
    last = _acc(k).update(y[300:], proba[300:], sample_weight=w[300:], first_row=300).sums()
    for key in ("weight", "class_weight", "log_loss", "brier", "confusion"):
        assert every[key].shape[0] == B + 1
        np.testing.assert_allclose((every[key] - first[key]) / scale, last[key] / scale,
                                   rtol=1e-12, atol=1e-9, err_msg=key)
    # the rows' own weights: the weighted sums written out
    np.testing.assert_allclose(last["weight"][0], w[300:].sum(), rtol=1e-12)
    np.testing.assert_allclose(last["class_weight"][0],
                               np.bincount(y[300:], weights=w[300:], minlength=k), rtol=1e-12)
    p_true = (proba if k > 2 else np.column_stack([1 - proba, proba]))[np.arange(800), y]
    np.testing.assert_allclose(last["log_loss"][0], w[300:] @ -np.log(p_true[300:]),
                               rtol=1e-12)
