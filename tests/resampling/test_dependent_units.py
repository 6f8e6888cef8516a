"""Resampling units that are not single rows: whole groups (``groups=``) and blocks of time
(``time=``), through the one engine.

The strongest checks are exact identities that hold whatever the random numbers: a data set
whose every row is repeated ``m`` times, resampled by group, is the original data resampled by
row (same replicates, same jackknife, same interval); Obuchowski's clustered DeLong variance on
it equals DeLong's on the original rows.
"""

import numpy as np
import pandas as pd
import pytest

from chimeraboost import metrics, resampling
from chimeraboost._shared.units import Units, block_length, check_units

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    n = 300
    y = rng.integers(0, 2, n)
    p = np.clip(0.5 + 0.3 * (y - 0.5) + rng.normal(scale=0.2, size=n), 0.01, 0.99)
    q = np.clip(p + rng.normal(scale=0.1, size=n), 0.01, 0.99)
    return y, p, q


def _ev(y, p):
    return metrics.classification_evaluator(y, [0, 1], proba=np.c_[1 - p, p])


def test_groups_of_repeated_rows_resample_as_the_rows_themselves(data):
    # Each row repeated 4 times, each copy in its row's group: drawing groups is drawing
    # rows, and every metric is invariant to a common scale of the weights.
    y, p, q = data
    m = 4
    g = np.repeat(np.arange(y.size), m)
    one = resampling.paired_bootstrap(_ev(y, p), _ev(y, q), n_boot=500, random_state=3)
    many = resampling.paired_bootstrap(_ev(np.repeat(y, m), np.repeat(p, m)),
                                       _ev(np.repeat(y, m), np.repeat(q, m)), n_boot=500,
                                       random_state=3, groups=g)
    for key in ("brier_skill", "log_loss", "roc_auc", "calibration_mcb"):
        np.testing.assert_allclose(many.replicates[key], one.replicates[key], rtol=1e-9,
                                   atol=1e-12, err_msg=key)
        np.testing.assert_allclose(many.jackknife[key], one.jackknife[key], rtol=1e-9,
                                   atol=1e-12, err_msg=key)
        np.testing.assert_allclose(many.interval(key), one.interval(key), rtol=1e-9,
                                   atol=1e-12, err_msg=key)
    assert many.n_rows == y.size  # the degrees of freedom count groups, not rows
    # Without groups= the copies pass for independent rows: the interval is about half as
    # wide, and the design effect says how much (about m).
    naive = resampling.bootstrap(_ev(np.repeat(y, m), np.repeat(p, m)), n_boot=500, random_state=3)
    lo, hi = naive.interval("brier_skill")
    lo_g, hi_g = many.model.interval("brier_skill")
    assert (hi - lo) < 0.65 * (hi_g - lo_g)
    assert 3.0 < many.model.design_effect("brier_skill") < 5.5


def test_groups_of_one_row_in_row_order_are_the_row_bootstrap(data):
    y, p, _ = data
    rows = resampling.bootstrap(_ev(y, p), n_boot=300, random_state=1)
    groups = resampling.bootstrap(_ev(y, p), n_boot=300, random_state=1, groups=np.arange(y.size))
    for key in rows.replicates:
        np.testing.assert_array_equal(groups.replicates[key], rows.replicates[key])
    # Any relabelling of the groups gives the same distribution: the design effect of
    # independent rows is about 1.
    labels = np.random.default_rng(5).permutation(y.size).astype(str)
    other = resampling.bootstrap(_ev(y, p), n_boot=1000, random_state=1, groups=labels)
    assert 0.7 < other.design_effect("brier_skill") < 1.4


def test_a_replicate_draws_whole_groups():
    units = check_units(7, groups=["a", "a", "b", "c", "c", "c", "b"])
    counts = units.fill(np.random.default_rng(0), np.empty((50, 7), dtype=np.int64))
    assert units.n_units == 3
    for row in counts:
        assert row[0] == row[1] and row[2] == row[6] and row[3] == row[4] == row[5]
        # Three groups drawn per replicate.
        assert row[0] + row[2] + row[3] == 3


def test_the_jackknife_never_splits_a_group():
    g = np.repeat(np.arange(250), 3)
    units = check_units(g.size, groups=g)
    block = units.jackknife_blocks(np.random.default_rng(0))
    assert len(np.unique(block)) == resampling.JACKKNIFE_BLOCKS
    for group in range(250):
        assert len(set(block[g == group])) == 1


def test_obuchowski_on_repeated_rows_is_delong_on_the_rows(data):
    y, p, q = data
    m = 3
    g = np.repeat(np.arange(y.size), m)
    yy, pp, qq = np.repeat(y, m), np.repeat(p, m), np.repeat(q, m)
    one = resampling.delong_roc_auc_difference(y, p, q)
    clustered = resampling.delong_roc_auc_difference(yy, pp, qq, groups=g)
    assert clustered.estimate == pytest.approx(one.estimate, abs=1e-12)
    # Obuchowski's I / (I - 1) and DeLong's 1 / (m - 1) differ at O(1 / n).
    assert clustered.se == pytest.approx(one.se, rel=0.01)
    single = resampling.delong_roc_auc(yy, pp, groups=g)
    assert resampling.delong_roc_auc(yy, pp).se < 0.7 * single.se
    assert single.se == pytest.approx(resampling.delong_roc_auc(y, p).se, rel=0.01)
    # With singleton groups Obuchowski's variance is DeLong's, to O(1 / n).
    assert resampling.delong_roc_auc(y, p, groups=np.arange(y.size)).se == pytest.approx(
        resampling.delong_roc_auc(y, p).se, rel=0.01)


def test_identical_scores_get_no_difference_and_p_one(data):
    y, p, _ = data
    res = resampling.delong_roc_auc_difference(y, p, p.copy())
    assert (res.estimate, res.se, res.pvalue) == (0.0, 0.0, 1.0)
    res = resampling.delong_roc_auc_difference(y, p, p.copy(), groups=np.arange(y.size) // 3)
    assert (res.estimate, res.pvalue) == (0.0, 1.0)


def test_time_blocks_keep_serial_dependence():
    rng = np.random.default_rng(2)
    n = 2000
    noise = rng.standard_normal(n)
    ar = np.zeros(n)
    for t in range(1, n):
        ar[t] = 0.9 * ar[t - 1] + np.sqrt(1 - 0.81) * noise[t]
    # Politis-White: white noise needs no blocks, persistence longer ones.
    assert block_length(noise) < 2
    assert block_length(ar) > 10
    units = check_units(n, time=np.arange(n)[::-1], series=ar[::-1])
    assert units.kind == "time" and units.block_length == pytest.approx(block_length(ar))
    # Rows given in reverse time order: unit codes are in time order.
    np.testing.assert_array_equal(units.codes, np.arange(n)[::-1])
    counts = units.fill(rng, np.empty((20, n), dtype=np.int64))
    assert (counts.sum(axis=1) == n).all()
    # A replicate is made of runs of consecutive time points (circularly).
    drawn = units.draw(np.random.default_rng(0), 1)[0]
    steps = np.diff(drawn) % n
    assert np.mean(steps == 1) > 0.8


def test_time_points_shared_by_rows_travel_together():
    t = np.array(["2024-01", "2024-02", "2024-01", "2024-03", "2024-02", "2024-03"])
    units = check_units(6, time=t)
    assert units.n_units == 3 and units.time_range == ("2024-01", "2024-03")
    counts = units.fill(np.random.default_rng(0), np.empty((30, 6), dtype=np.int64))
    for row in counts:
        assert row[0] == row[2] and row[1] == row[4] and row[3] == row[5]


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"groups": [1, 2, 3]}, ValueError, r"groups has 3 values but there are 6 rows"),
    ({"groups": [1, 2, np.nan, 1, 2, 1]}, ValueError, r"groups has 1 missing value"),
    ({"groups": ["a"] * 6}, ValueError, r"groups holds one group .* no interval"),
    ({"time": pd.to_datetime(["2024-01-01", None, "2024-01-03", "2024-01-04",
                              "2024-01-05", "2024-01-06"])}, ValueError, r"time has 1 missing"),
    ({"time": pd.Series([1, "a", 2, "b", 3, "c"])}, TypeError, r"time holds values that cannot be compared"),
    ({"time": [5] * 6}, ValueError, r"time holds one value"),
    ({"groups": np.ones((6, 2))}, ValueError, r"one value per row \(1-D\)"),
    ({"groups": "customer"}, ValueError, r"groups='customer' names a column, but X has no"),
])
def test_bad_units_are_refused_naming_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        check_units(6, **kwargs)


def test_units_from_a_column_of_x_and_a_misaligned_index():
    X = pd.DataFrame({"customer": [1, 1, 2, 2, 3, 3], "x": range(6)})
    units = check_units(6, groups="customer", X=X)
    assert units.n_units == 3
    with pytest.raises(ValueError, match="'cust' is not a column of X"):
        check_units(6, groups="cust", X=X)
    shifted = pd.Series([1, 1, 2, 2, 3, 3], index=range(10, 16))
    with pytest.raises(ValueError, match="index"):
        check_units(6, groups=shifted, index_of=X)


def test_resampler_reads_every_interval_by_its_method(data):
    y, p, _ = data
    scheme = resampling.Resampler(1000, random_state=0, ci_method="percentile")
    boot = scheme.bootstrap([_ev(y, p)])[0]
    reps = boot.replicates["brier_skill"]
    lo, hi = scheme.interval(reps, boot.estimate["brier_skill"], 0.9)
    assert (lo, hi) == pytest.approx(tuple(np.quantile(reps, [0.05, 0.95])))
    band_lo, band_hi = scheme.band(np.c_[reps, reps], np.r_[boot.estimate["brier_skill"]] * [1, 1],
                                   0.9)
    assert band_lo == pytest.approx([lo, lo]) and band_hi == pytest.approx([hi, hi])
    assert isinstance(check_units(5), Units) and check_units(5).kind == "rows"


def test_few_groups_come_with_a_warning_naming_their_number(data):
    import warnings

    from chimeraboost.exceptions import NarrowIntervalWarning

    y, p, _ = data
    few = np.arange(y.size) % 12
    res = resampling.bootstrap(_ev(y, p), n_boot=1000, random_state=0, groups=few)
    with pytest.warns(NarrowIntervalWarning, match="only 12 groups were resampled"):
        res.interval("brier_skill")
    enough = np.arange(y.size) % resampling.MIN_GROUPS
    res = resampling.bootstrap(_ev(y, p), n_boot=1000, random_state=0, groups=enough)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res.interval("brier_skill")
