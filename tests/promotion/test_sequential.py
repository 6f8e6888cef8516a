"""The group-sequential bounds against published values and against simulation."""

import numpy as np
import pytest
from scipy.stats import norm

from chimeraboost.promotion import (
    crossing_probabilities,
    inflation_factor,
    lan_demets_bounds,
    obrien_fleming_bounds,
    spent_alpha,
)


def test_classical_obrien_fleming_bounds_are_the_published_ones():
    # Jennison & Turnbull (2000), table 2.3: K = 5, alpha = 0.05 two-sided, C_B = 2.040.
    published = [4.562, 3.226, 2.634, 2.281, 2.040]
    np.testing.assert_allclose(obrien_fleming_bounds(5), published, atol=1e-3)


def test_lan_demets_bounds_are_the_published_ones():
    # The O'Brien-Fleming-type spending function, five equally spaced looks (as in the R
    # packages ldbounds and gsDesign): 4.877, 3.357, 2.680, 2.290, 2.031.
    np.testing.assert_allclose(lan_demets_bounds(5), [4.877, 3.357, 2.680, 2.290, 2.031],
                               atol=2e-3)


def test_one_look_is_the_fixed_test():
    assert lan_demets_bounds([1.0])[0] == pytest.approx(norm.isf(0.025), abs=1e-8)
    assert obrien_fleming_bounds(1)[0] == pytest.approx(norm.isf(0.025), abs=1e-8)


def test_the_bounds_spend_exactly_alpha_under_no_difference():
    t = np.array([0.1, 0.35, 0.5, 0.9, 1.0])
    b = lan_demets_bounds(t, alpha=0.05)
    up, down = crossing_probabilities(b, t)
    np.testing.assert_allclose(np.cumsum(up + down), spent_alpha(t, alpha=0.05), atol=1e-7)
    assert spent_alpha(1.0, alpha=0.1) == pytest.approx(0.1, abs=1e-12)


def test_crossing_probabilities_agree_with_a_simulation():
    # Five looks at 2.0 each: the simulated chance of any crossing of a Brownian motion
    # read at the looks, against the recursive integration.
    rng = np.random.default_rng(0)
    t = np.arange(1, 6) / 5
    paths = np.cumsum(rng.normal(0, np.sqrt(0.2), (200_000, 5)), axis=1) / np.sqrt(t)
    simulated = np.mean(np.any(np.abs(paths) >= 2.0, axis=1))
    up, down = crossing_probabilities(np.full(5, 2.0), t)
    assert up.sum() + down.sum() == pytest.approx(simulated, abs=3e-3)


def test_the_inflation_factor_of_one_look_is_one_and_grows_with_looks():
    assert inflation_factor([norm.isf(0.025)], [1.0]) == pytest.approx(1.0, abs=1e-8)
    # Jennison & Turnbull (2000), table 2.4: O'Brien-Fleming, K = 5, power 0.8: R = 1.028.
    t = np.arange(1, 6) / 5
    assert inflation_factor(obrien_fleming_bounds(5), t) == pytest.approx(1.028, abs=1e-3)


@pytest.mark.parametrize("information, match", [
    ([0.5, 0.4], "increasing"), ([0.0, 1.0], "increasing"), ([], "increasing"),
])
def test_bad_information_is_refused(information, match):
    with pytest.raises(ValueError, match=match):
        lan_demets_bounds(information)


def test_thirty_daily_looks_spend_alpha_though_the_first_cannot_stop():
    t = np.arange(1, 31) / 30
    b = lan_demets_bounds(t)
    assert np.isinf(b[0])  # nothing to spend on the first day
    up, down = crossing_probabilities(b, t)
    assert up.sum() + down.sum() == pytest.approx(0.05, abs=1e-8)
