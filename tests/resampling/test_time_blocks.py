"""The time blocks' length: from every per-row series that can carry serial dependence."""

import numpy as np

from chimeraboost import metrics
from chimeraboost._shared.units import block_length, check_units
from chimeraboost.resampling._bootstrap import row_series


def _ar1(rng, n, phi):
    eps = rng.standard_normal(n)
    a = np.empty(n)
    a[0] = eps[0]
    for t in range(1, n):
        a[t] = phi * a[t - 1] + np.sqrt(1 - phi * phi) * eps[t]
    return a


def test_several_series_take_the_longest_block():
    rng = np.random.default_rng(0)
    n = 1500
    noise, persistent = rng.standard_normal(n), _ar1(rng, n, 0.9)
    units = check_units(n, time=np.arange(n), series=np.column_stack([noise, persistent]))
    assert units.block_length == max(block_length(noise), block_length(persistent))
    assert units.block_length == check_units(n, time=np.arange(n),
                                             series=persistent).block_length
    assert units.block_length > 5 * check_units(n, time=np.arange(n),
                                                series=noise).block_length


def test_outcomes_whose_dependence_outlasts_the_losses_set_the_blocks():
    # A calibrated forecast of an outcome driven by an AR(1) latent: the outcomes' serial
    # dependence outlasts the Brier losses', and the blocks must keep it.
    rng = np.random.default_rng(1)
    n = 2000
    x = rng.standard_normal(n)
    y = (1.2 * x - 0.8 + _ar1(rng, n, 0.9) > 0).astype(int)
    p = 1.0 / (1.0 + np.exp(-(1.2 * x - 0.8) * 1.7))
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    series = row_series(ev)
    assert series.shape == (n, 2)
    np.testing.assert_array_equal(series[:, 1], y)
    np.testing.assert_allclose(series[:, 0], 2 * (p - y) ** 2)
    units = check_units(n, time=np.arange(n), series=series)
    assert units.block_length == max(block_length(2 * (p - y) ** 2), block_length(y))
    assert block_length(y) > block_length(2 * (p - y) ** 2)


def test_independent_rows_keep_short_blocks():
    rng = np.random.default_rng(2)
    n = 2000
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p).astype(int)
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    # Politis & White's rule on white noise gives 1 to about 2.6 (its lag window sees
    # sampling noise); the longer of two such stays far below a dependent series' 17-35.
    assert check_units(n, time=np.arange(n), series=row_series(ev)).block_length < 4.0
