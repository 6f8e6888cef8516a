"""metrics.calibration_test and reliability_curve with groups= / time=: the wild cluster
bootstrap null.

References here are invariances and the test without groups: m identical rows of a group are
one row of weight m (exactly, same signs); groups of size one are independent rows (the
noise floor and p-value of the row-wise test, up to Monte Carlo error and the residuals'
sampling noise); a calibrated forecast whose groups share their outcomes is rejected by the
row-wise test and not by the grouped one.
"""

import warnings

import numpy as np
import pytest

from chimeraboost import metrics
from chimeraboost.exceptions import FewResamplesWarning

# Tests that compare two calls of one seed run on 200 draws, the fewest allowed; the one rule
# warns about them.
pytestmark = pytest.mark.filterwarnings(
    "ignore::chimeraboost.exceptions.FewResamplesWarning")


def _calibrated(n, seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, n)
    return (rng.random(n) < p).astype(int), p


def _copies(g, m, seed):
    """``g`` groups of ``m`` identical rows (one forecast, one outcome each), calibrated at
    the group level: (expanded y, p, groups) and (collapsed y, p)."""
    y, p = _calibrated(g, seed)
    return (np.repeat(y, m), np.repeat(p, m), np.repeat(np.arange(g), m)), (y, p)


def test_identical_rows_of_a_group_are_one_row_of_its_weight():
    # The wild draws give a group one sign: its m identical rows move as one row of weight
    # m, so the test on the expanded rows is the test on the collapsed rows, number for number.
    (ye, pe, g), (y, p) = _copies(150, 8, seed=0)
    a = metrics.calibration_test(ye, pe, [0, 1], groups=g, n_boot=200, random_state=3)
    b = metrics.calibration_test(y, p, [0, 1], sample_weight=np.full(150, 8.0),
                                 groups=np.arange(150), n_boot=200, random_state=3)
    for name in ("statistic", "noise_floor", "excess", "pvalue"):
        assert getattr(a, name) == pytest.approx(getattr(b, name), rel=1e-9, abs=1e-15)
    assert a.confidence_interval() == pytest.approx(b.confidence_interval(), abs=1e-12)


@pytest.mark.slow
def test_copied_rows_give_the_pvalue_of_the_groups_not_of_the_rows():
    # A calibrated forecast of 150 groups, each copied to 8 identical rows. The row-wise null
    # believes in 1,200 independent outcomes and rejects; the grouped test agrees with the
    # row-wise test of the 150 groups themselves.
    (ye, pe, g), (y, p) = _copies(150, 8, seed=1)
    rows = metrics.calibration_test(ye, pe, [0, 1], random_state=0)
    grouped = metrics.calibration_test(ye, pe, [0, 1], groups=g, random_state=0)
    collapsed = metrics.calibration_test(y, p, [0, 1], sample_weight=np.full(150, 8.0),
                                         random_state=0)
    assert rows.pvalue < 0.01
    assert grouped.pvalue > 0.05 and collapsed.pvalue > 0.05
    assert abs(grouped.pvalue - collapsed.pvalue) < 0.2
    assert grouped.noise_floor == pytest.approx(collapsed.noise_floor, rel=0.15)
    assert grouped.noise_floor > 2 * rows.noise_floor


@pytest.mark.slow
def test_groups_of_size_one_agree_with_independent_rows():
    # Same data, no dependence: the wild null (signs per row, the observed residuals) and
    # the row-wise null (outcomes drawn from the forecasts) estimate the same noise floor and
    # p-value, up to Monte Carlo error and the residuals' own sampling noise (~1/sqrt(n)).
    y, p = _calibrated(2000, seed=4)
    rows = metrics.calibration_test(y, p, [0, 1], random_state=1)
    ones = metrics.calibration_test(y, p, [0, 1], groups=np.arange(2000), random_state=1)
    assert ones.statistic == rows.statistic
    assert ones.noise_floor == pytest.approx(rows.noise_floor, rel=0.1)
    assert abs(ones.pvalue - rows.pvalue) < 0.2
    assert ones.excess == pytest.approx(rows.excess, abs=0.2 * rows.noise_floor)


def test_same_seed_shares_the_draws_across_forecasts():
    # Common random numbers: two forecasts of the same rows with one seed get the same signs,
    # so a tiny change of the forecast moves the noise floor far less than a new seed does.
    (ye, pe, g), _ = _copies(120, 5, seed=5)
    nudged = np.clip(pe + 1e-4 * np.sin(np.arange(pe.size)), 0, 1)
    a = metrics.calibration_test(ye, pe, [0, 1], groups=g, n_boot=200, random_state=7)
    b = metrics.calibration_test(ye, nudged, [0, 1], groups=g, n_boot=200, random_state=7)
    c = metrics.calibration_test(ye, pe, [0, 1], groups=g, n_boot=200, random_state=8)
    again = metrics.calibration_test(ye, pe, [0, 1], groups=g, n_boot=200, random_state=7)
    assert (again.noise_floor, again.pvalue, again.excess) == (
        a.noise_floor, a.pvalue, a.excess)
    assert abs(a.noise_floor - b.noise_floor) < 0.2 * abs(a.noise_floor - c.noise_floor)


def test_grouped_interval_contains_the_estimate_and_classes_are_averaged():
    rng = np.random.default_rng(6)
    g = np.repeat(np.arange(80), 6)
    proba = np.repeat(rng.dirichlet([2, 2, 2], 80), 6, axis=0)
    y = np.array([rng.choice(["a", "b", "c"], p=row) for row in proba])
    res = metrics.calibration_test(y, proba, ["a", "b", "c"], groups=g, n_boot=200,
                                   random_state=0)
    per = metrics.calibration_decomposition(y, proba, ["a", "b", "c"])["per_class"]["mcb"]
    assert res.statistic_per_class == pytest.approx(per, abs=1e-15)
    assert res.noise_floor == pytest.approx(res.noise_floor_per_class.mean(), abs=1e-15)
    low, high = res.confidence_interval_per_class()
    assert np.all(low <= res.excess_per_class) and np.all(res.excess_per_class <= high)
    assert 0 < res.pvalue <= 1


def test_time_blocks_run_and_time_with_groups_resamples_groups():
    y, p = _calibrated(600, seed=9)
    t = np.arange(600) // 3  # 200 time points of 3 rows
    res = metrics.calibration_test(y, p, [0, 1], time=t, n_boot=200, random_state=0)
    low, high = res.confidence_interval()
    assert low <= res.excess <= high and 0 < res.pvalue <= 1
    g = np.arange(600) % 50
    both = metrics.calibration_test(y, p, [0, 1], groups=g, time=t, n_boot=200,
                                    random_state=0)
    alone = metrics.calibration_test(y, p, [0, 1], groups=g, n_boot=200, random_state=0)
    assert (both.noise_floor, both.pvalue) == (alone.noise_floor, alone.pvalue)


def test_without_groups_nothing_changes():
    y, p = _calibrated(300, seed=10)
    a = metrics.calibration_test(y, p, [0, 1], n_boot=200, random_state=2)
    b = metrics.calibration_test(y, p, [0, 1], groups=None, time=None, n_boot=200,
                                 random_state=2)
    assert (a.noise_floor, a.excess, a.pvalue) == (b.noise_floor, b.excess, b.pvalue)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"groups": np.arange(10)}, "groups has 10 values but there are 60 rows"),
    ({"groups": np.r_[np.zeros(59), np.nan]}, "groups has 1 missing value"),
    ({"groups": np.zeros(60)}, "groups holds one group"),
    ({"time": np.ones(60)}, "time holds one value"),
    ({"groups": "customer"}, "names a column, but X has no named columns"),
])
def test_bad_groups_are_refused(kwargs, match):
    y, p = _calibrated(60, seed=11)
    with pytest.raises(ValueError, match=match):
        metrics.calibration_test(y, p, [0, 1], **kwargs)
    with pytest.raises(ValueError, match=match):
        metrics.reliability_curve(y, p, [0, 1], n_boot=1000, **kwargs)


def test_misaligned_pandas_groups_are_refused():
    pd = pytest.importorskip("pandas")
    y, p = _calibrated(60, seed=12)
    groups = pd.Series(np.arange(60) // 3, index=np.arange(60)[::-1])
    with pytest.raises(ValueError, match="different pandas indexes"):
        metrics.calibration_test(pd.Series(y), p, [0, 1], groups=groups)


# ----------------------------------------------------------------------- the band


def test_band_of_copied_rows_is_the_band_of_the_groups():
    (ye, pe, g), (y, p) = _copies(150, 8, seed=13)
    a = metrics.reliability_curve(ye, pe, [0, 1], n_boot=1000, groups=g, random_state=4)
    b = metrics.reliability_curve(y, p, [0, 1], sample_weight=np.full(150, 8.0),
                                  n_boot=1000, groups=np.arange(150), random_state=4)
    rows = metrics.reliability_curve(ye, pe, [0, 1], n_boot=1000, random_state=4)
    np.testing.assert_allclose(a.band_low, b.band_low, atol=1e-12)
    np.testing.assert_allclose(a.band_high, b.band_high, atol=1e-12)
    # The row-wise band believes in 1,200 independent outcomes: narrower.
    assert np.mean(a.band_high - a.band_low) > 1.5 * np.mean(rows.band_high - rows.band_low)


def test_band_with_groups_of_one_is_about_the_band_of_rows():
    y, p = _calibrated(1000, seed=14)
    rows = metrics.reliability_curve(y, p, [0, 1], n_boot=1000, random_state=0)
    ones = metrics.reliability_curve(y, p, [0, 1], n_boot=1000, groups=np.arange(1000),
                                     random_state=0)
    width = np.mean(rows.band_high - rows.band_low)
    assert np.mean(ones.band_high - ones.band_low) == pytest.approx(width, rel=0.15)


@pytest.mark.parametrize("n_boot", [1, 150])
def test_too_few_band_draws_are_refused(n_boot):
    y, p = _calibrated(50, seed=15)
    with pytest.raises(ValueError, match=f"n_boot={n_boot} is too few resamples"):
        metrics.reliability_curve(y, p, [0, 1], n_boot=n_boot)


def test_few_band_draws_warn_and_none_draw_no_band():
    y, p = _calibrated(50, seed=16)
    with pytest.warns(FewResamplesWarning, match="n_boot=200"):
        metrics.reliability_curve(y, p, [0, 1], n_boot=200, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        curve = metrics.reliability_curve(y, p, [0, 1], n_boot=0, groups=np.arange(50) // 5)
    assert curve.band_low is None and curve.band is None
