"""The calibration test's one-row cells draw their events by ``_bernoulli.binomial``: the
counts of numpy's ``Generator.binomial`` from the same state, one for one, and the generator
left where numpy's sampler leaves it (so every draw after it is numpy's too)."""

import numpy as np
import pytest

from chimeraboost.metrics import _bernoulli


def _probabilities(rng, m):
    # Ends and the middle: p = 1/2 (numpy's branch point), 1 and values a step away, tiny p.
    edges = [0.5, np.nextafter(0.5, 1.0), np.nextafter(0.5, 0.0), 1.0,
             np.nextafter(1.0, 0.0), 1e-300, 1e-17, 0.999999]
    p = np.concatenate([rng.uniform(0.0, 1.0, m - len(edges)), edges])
    rng.shuffle(p)
    return p


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])
def test_bernoulli_cells_draw_numpys_binomial_counts(bit_generator):
    rng = np.random.default_rng(3)
    for seed in range(5):
        p = _probabilities(rng, 700)
        n = np.ones(p.shape[0], dtype=np.int64)
        ours = np.random.Generator(bit_generator(seed))
        theirs = np.random.Generator(bit_generator(seed))
        got = _bernoulli.binomial(ours, n, p, (300, p.shape[0]))
        want = theirs.binomial(n, p, size=(300, p.shape[0]))
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype
        # The generator continues exactly as after numpy's sampler.
        np.testing.assert_array_equal(ours.random(10), theirs.random(10))


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])
def test_cells_of_a_few_rows_draw_numpys_binomial_counts(bit_generator):
    # Merged cells of two to four rows (and single rows among them): numpy's inversion run
    # on all draws at once.
    rng = np.random.default_rng(4)
    for seed in range(4):
        p = _probabilities(rng, 600)
        n = rng.integers(1, 5, p.shape[0])
        ours = np.random.Generator(bit_generator(seed))
        theirs = np.random.Generator(bit_generator(seed))
        got = _bernoulli.binomial(ours, n, p, (300, p.shape[0]))
        np.testing.assert_array_equal(got, theirs.binomial(n, p, size=(300, p.shape[0])))
        np.testing.assert_array_equal(ours.random(10), theirs.random(10))


@pytest.mark.parametrize("n, p", [
    ([1, 1, 1], [0.2, 0.0, 0.7]),  # p = 0 draws no uniform: numpy's own path
    ([1, 30, 1], [0.2, 0.4, 0.7]),  # many rows in a cell: numpy's own path
    ([2, 3, 1], [0.2, 0.4, 0.7]),  # a few rows
])
def test_other_cells_are_numpys_own_draws(n, p):
    n, p = np.array(n), np.array(p)
    ours, theirs = np.random.default_rng(8), np.random.default_rng(8)
    np.testing.assert_array_equal(_bernoulli.binomial(ours, n, p, (50, 3)),
                                  theirs.binomial(n, p, size=(50, 3)))
    assert ours.random() == theirs.random()


def test_bernoulli_draws_have_the_cells_rates():
    # A property, not the stream: each cell's share of events is its p within 5 se.
    p = np.linspace(0.01, 0.99, 25)
    draws = _bernoulli.binomial(np.random.default_rng(0), np.ones(25, np.int64), p,
                                (20_000, 25))
    se = np.sqrt(p * (1 - p) / 20_000)
    assert np.all(np.abs(draws.mean(axis=0) - p) < 5 * se)
