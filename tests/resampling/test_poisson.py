"""The Poisson bootstrap scheme: its counts are Poisson(1) (against scipy), a function of the
replicate's seed and the unit's key only (so blocks weighed apart agree with the whole), one
count per group wherever its rows sit; and it runs through the one engine
(``scheme="poisson"`` on ``bootstrap_counts``, ``bootstrap`` and the ``Resampler``)."""

import numpy as np
import pytest
from scipy import stats

from chimeraboost import metrics, resampling
from chimeraboost._shared import poisson
from chimeraboost._shared.units import check_units

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")


def _counts(n, b, seed=0, first=0):
    seeds = poisson.replicate_seeds(np.random.default_rng(seed), b)
    out = np.empty((b, n))
    return poisson.poisson_counts(seeds, poisson.mixed_keys(poisson.row_keys(first, n)), out)


def test_counts_are_poisson_one():
    counts = _counts(200_000, 5).ravel()
    values, freq = np.unique(counts, return_counts=True)
    assert values[0] == 0 and np.all(np.diff(values) == 1)
    # Chi-square against scipy's pmf, the tail from 5 on pooled into one cell.
    pmf = stats.poisson(1.0).pmf(np.arange(5))
    expected = np.append(pmf, 1 - pmf.sum()) * counts.size
    observed = np.append(freq[:5], freq[5:].sum())
    assert stats.chisquare(observed, expected).pvalue > 1e-3
    assert counts.mean() == pytest.approx(1.0, abs=0.01)
    assert counts.var() == pytest.approx(1.0, abs=0.01)


def test_counts_of_replicates_are_independent():
    counts = _counts(50_000, 4)
    corr = np.corrcoef(counts)
    assert np.max(np.abs(corr - np.eye(4))) < 0.03  # 4.5 standard errors of 1/sqrt(n)


def test_a_rows_count_depends_on_its_position_only():
    whole = _counts(10_000, 3, seed=5)
    block = _counts(2_500, 3, seed=5, first=4_000)
    np.testing.assert_array_equal(block, whole[:, 4_000:6_500])


def test_replicate_seeds_do_not_depend_on_the_chunks():
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    one = poisson.replicate_seeds(rng_a, 10)
    parts = np.concatenate([poisson.replicate_seeds(rng_b, k) for k in (3, 1, 6)])
    np.testing.assert_array_equal(one, parts)


def test_group_keys_are_stable_across_types_and_blocks():
    ints = poisson.group_keys(np.array([3, 7, 3]))
    floats = poisson.group_keys(np.array([3.0, 7.0]))
    objects = poisson.group_keys(np.array([3, 7], dtype=object))
    assert ints[0] == ints[2] == floats[0] == objects[0] and ints[1] == floats[1]
    strings = poisson.group_keys(np.array(["ann", "bob", "ann"]))
    other_block = poisson.group_keys(np.array(["bob", "cy", "ann"], dtype=object))
    assert strings[0] == strings[2] == other_block[2] and strings[1] == other_block[0]
    assert len({int(k) for k in np.concatenate([strings, other_block])}) == 3


def test_bootstrap_counts_poisson_groups_share_a_count():
    groups = np.array(["a", "b", "a", "c", "b", "a"] * 50)
    counts = np.vstack(list(resampling.bootstrap_counts(
        groups.size, 300, random_state=1, groups=groups, scheme="poisson", chunk_size=7)))
    for g in "abc":
        rows = counts[:, groups == g]
        assert np.all(rows == rows[:, :1])
    assert counts[:, 0].mean() == pytest.approx(1.0, abs=0.2)


def test_poisson_counts_do_not_depend_on_chunk_size_or_threads():
    def draw(chunk_size):
        return np.vstack(list(resampling.bootstrap_counts(
            500, 40, random_state=3, scheme="poisson", chunk_size=chunk_size)))

    np.testing.assert_array_equal(draw(3), draw(40))
    rng = np.random.default_rng(0)
    p = rng.uniform(size=500)
    y = (rng.uniform(size=500) < p).astype(int)
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    one, two = (resampling.bootstrap(ev, n_boot=200, random_state=4, scheme="poisson",
                                     metrics=["brier", "roc_auc"], n_jobs=j,
                                     chunk_size=16) for j in (1, 2))
    np.testing.assert_array_equal(one.replicates["brier"], two.replicates["brier"])


def test_poisson_replicates_are_the_evaluator_on_its_counts():
    rng = np.random.default_rng(2)
    p = rng.uniform(size=800)
    y = (rng.uniform(size=800) < p).astype(int)
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    res = resampling.bootstrap(ev, n_boot=200, random_state=6, scheme="poisson",
                               metrics=["log_loss", "roc_auc"])
    counts = next(resampling.bootstrap_counts(800, 200, random_state=6, scheme="poisson",
                                              chunk_size=200))
    direct = ev.evaluate(counts)
    np.testing.assert_allclose(res.replicates["log_loss"], direct["log_loss"], rtol=1e-12)
    np.testing.assert_allclose(res.replicates["roc_auc"], direct["roc_auc"], rtol=1e-12)


def test_a_subset_keeps_each_rows_counts():
    scheme = resampling.Resampler(200, random_state=2, scheme="poisson")
    rows = np.arange(10, 60, 3)
    whole = next(resampling.Resampler(200, random_state=2, scheme="poisson").counts(100))
    part = next(scheme.subset(rows).counts(rows.size))
    np.testing.assert_array_equal(part, whole[:, rows])


@pytest.mark.parametrize("kwargs, match", [
    ({"scheme": "bayesian"}, "scheme='bayesian' is not a bootstrap scheme"),
    ({"scheme": "poisson", "time": np.arange(40) // 4}, "breaks the blocks|break the blocks"),
])
def test_bad_scheme_is_refused_by_name(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_units(40, **kwargs)


def test_missing_groups_are_refused():
    for bad in (np.array([1.0, np.nan]), np.array(["a", None], dtype=object)):
        with pytest.raises(ValueError, match="groups has missing values"):
            poisson.group_keys(bad)
