"""Tests of chimeraboost.quantile_metrics: against sklearn, closed forms, and invariants."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import norm
from sklearn.metrics import d2_pinball_score, mean_pinball_loss

from chimeraboost.exceptions import DegenerateMetricWarning
from chimeraboost.quantile_metrics import (
    crossing_rate,
    crps,
    crps_skill,
    empirical_quantiles,
    format_report,
    interval_coverage,
    pinball_loss,
    quantile_report,
)

LEVELS = np.array([0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95])


def _data(n=300, seed=0, levels=LEVELS, crossed=False):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = 2.0 * x + rng.standard_t(df=4, size=n)
    pred = 2.0 * x[:, None] + norm.ppf(levels)[None, :] * 1.2 + rng.normal(0, 0.3, (n, 1))
    if crossed:
        pred = pred + rng.normal(0, 0.5, pred.shape)
    w = rng.uniform(0.0, 3.0, size=n)
    return y, pred, w


# --- agreement with scikit-learn ------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True])
def test_pinball_per_level_equals_sklearn(weighted):
    y, pred, w = _data(crossed=True)
    w = w if weighted else None
    ours = pinball_loss(y, pred, LEVELS, sample_weight=w, average=False)
    assert ours.shape == (LEVELS.size,)
    for j, tau in enumerate(LEVELS):
        ref = mean_pinball_loss(y, pred[:, j], alpha=tau, sample_weight=w)
        assert ours[j] == pytest.approx(ref, rel=1e-12, abs=1e-12)
    assert pinball_loss(y, pred, LEVELS, sample_weight=w) == pytest.approx(
        np.mean(ours), rel=1e-12
    )
    assert crps(y, pred, LEVELS, sample_weight=w) == pinball_loss(y, pred, LEVELS, sample_weight=w)


def test_single_level_accepts_1d_pred_and_scalar_level():
    y, pred, w = _data()
    j = 3
    ref = mean_pinball_loss(y, pred[:, j], alpha=0.5, sample_weight=w)
    for q in (0.5, np.float64(0.5), np.array(0.5), [0.5], np.array([0.5])):
        assert pinball_loss(y, pred[:, j], q, sample_weight=w) == pytest.approx(ref, rel=1e-12)
        assert pinball_loss(y, pred[:, [j]], q, sample_weight=w) == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize("tau", [0.05, 0.1, 0.25, 0.5, 0.7, 0.9, 0.95])
@pytest.mark.parametrize("weights", ["none", "uniform", "integer", "with_zeros"])
@pytest.mark.parametrize("n", [10, 11, 200])
def test_single_level_skill_equals_d2_pinball_score(tau, weights, n):
    rng = np.random.default_rng(int(tau * 100) + n)
    # Integer-valued y makes ties and exact steps of the weighted CDF common, the case where
    # the "averaged inverted CDF" rule differs from plain "inverted CDF".
    y = rng.integers(0, 6, size=n).astype(float)
    pred = y + rng.normal(0, 1.0, size=n)
    w = {
        "none": None,
        "uniform": rng.uniform(0.1, 2.0, size=n),
        "integer": rng.integers(1, 4, size=n).astype(float),
        "with_zeros": rng.integers(0, 3, size=n).astype(float),
    }[weights]
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    ours = crps_skill(y, pred, tau, sample_weight=w)
    ref = d2_pinball_score(y, pred, alpha=tau, sample_weight=w)
    assert ours == pytest.approx(ref, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 9, 100])
def test_empirical_quantiles_equal_numpy_averaged_inverted_cdf(n):
    rng = np.random.default_rng(n)
    x = rng.integers(0, 4, size=n).astype(float) + rng.normal(0, 1, size=n) * (n % 2)
    levels = np.array([0.1, 0.25, 0.5, 0.75, 0.8])
    ref = np.quantile(x, levels, method="averaged_inverted_cdf")
    np.testing.assert_allclose(empirical_quantiles(x, levels), ref, rtol=0, atol=1e-12)


def test_empirical_quantiles_hand_derived_weighted():
    # Sorted x = 1, 2, 3 with weights 1, 2, 1: cumulative 1, 3, 4 of total 4.
    # tau=0.25 -> target 1 lands on a step -> (1 + 2) / 2 = 1.5;
    # tau=0.5  -> target 2 falls inside the step of x=2 -> 2;
    # tau=0.75 -> target 3 lands on a step -> (2 + 3) / 2 = 2.5.
    got = empirical_quantiles([3.0, 1.0, 2.0], [0.25, 0.5, 0.75], sample_weight=[1, 1, 2])
    np.testing.assert_allclose(got, [1.5, 2.0, 2.5])


# --- the CRPS against its closed form -------------------------------------------------------


def _normal_crps(y, mu, sigma):
    """Gneiting & Raftery (2007), eq. 5: CRPS of N(mu, sigma^2) at y."""
    z = (y - mu) / sigma
    return sigma * (z * (2 * norm.cdf(z) - 1) + 2 * norm.pdf(z) - 1 / np.sqrt(np.pi))


@pytest.mark.parametrize("n_levels, rtol", [(99, 5e-4), (999, 1e-5)])
def test_twice_crps_approaches_normal_closed_form(n_levels, rtol):
    rng = np.random.default_rng(1)
    n = 200
    mu = rng.normal(0, 2, size=n)
    sigma = rng.uniform(0.5, 2.0, size=n)
    y = mu + sigma * rng.normal(size=n) * 1.3 + 0.2  # a slightly wrong forecast
    levels = (np.arange(1, n_levels + 1) - 0.5) / n_levels
    pred = mu[:, None] + sigma[:, None] * norm.ppf(levels)[None, :]
    exact = np.mean(_normal_crps(y, mu, sigma))
    assert 2 * crps(y, pred, levels) == pytest.approx(exact, rel=rtol)


def test_crps_skill_hand_derived():
    # y = 1..4, levels 0.25 / 0.75. Model: y - 0.5 and y + 0.5 -> every row costs
    # 0.25 * 0.5 at the low level (under by 0.5) and (1 - 0.75) * 0.5 at the high one
    # -> crps = 0.125. Reference quantiles of y (averaged inverted CDF): 1.5 and 3.5;
    # pinball at 0.25 of (1, 2, 3, 4) vs 1.5: (0.75*0.5 + 0.25*0.5 + 0.25*1.5 + 0.25*2.5) / 4
    # = 1.5 / 4 = 0.375, and the same at 0.75 by symmetry -> crps_ref = 0.375, skill = 2/3.
    y = np.array([1.0, 2.0, 3.0, 4.0])
    pred = np.column_stack([y - 0.5, y + 0.5])
    rep = quantile_report(y, pred, [0.25, 0.75])
    assert rep["crps"] == pytest.approx(0.125)
    assert rep["reference_quantiles"] == [1.5, 3.5]
    assert rep["crps_ref"] == pytest.approx(0.375)
    assert rep["crps_skill"] == pytest.approx(2 / 3)
    assert crps_skill(y, pred, [0.25, 0.75]) == pytest.approx(2 / 3)


def test_baseline_targets_are_used_for_the_reference():
    y, pred, w = _data()
    y_train = np.linspace(-10, 10, 51)
    ref_q = np.quantile(y_train, LEVELS, method="averaged_inverted_cdf")
    ref = crps(y, np.tile(ref_q, (y.size, 1)), LEVELS, sample_weight=w)
    expected = 1 - crps(y, pred, LEVELS, sample_weight=w) / ref
    got = crps_skill(y, pred, LEVELS, sample_weight=w, baseline=y_train)
    assert got == pytest.approx(expected, rel=1e-12)
    rep = quantile_report(y, pred, LEVELS, sample_weight=w, baseline=y_train)
    assert rep["baseline"] == "given"
    assert rep["crps_skill"] == pytest.approx(expected, rel=1e-12)


def test_constant_y_gives_nan_skill_and_warning():
    y = np.full(5, 2.0)
    pred = np.tile([1.0, 3.0], (5, 1))
    with pytest.warns(DegenerateMetricWarning, match="reference CRPS is 0"):
        assert np.isnan(crps_skill(y, pred, [0.25, 0.75]))


# --- interval coverage and crossing ---------------------------------------------------------


def test_interval_coverage_hand_derived():
    # Interval [0, 3] at levels 0.1 / 0.9 (nominal 0.8) for y = 1, 2, 5: two of three inside;
    # interval score = width 3 + (2 / 0.2) * (5 - 3) for the miss -> (3 + 3 + 23) / 3.
    y = [1.0, 2.0, 5.0]
    pred = [[0.0, 1.0, 3.0]] * 3
    (row,) = interval_coverage(y, pred, [0.1, 0.5, 0.9])
    assert row["lower_level"] == 0.1
    assert row["upper_level"] == 0.9
    assert row["nominal"] == pytest.approx(0.8)
    assert row["coverage"] == pytest.approx(2 / 3)
    assert row["mean_width"] == pytest.approx(3.0)
    assert row["interval_score"] == pytest.approx(29 / 3)


def test_interval_score_is_scaled_pinball_pair():
    y, pred, w = _data(crossed=True)
    rows = interval_coverage(y, pred, LEVELS, sample_weight=w)
    assert [(r["lower_level"], r["upper_level"]) for r in rows] == [
        (0.05, 0.95),
        (0.1, 0.9),
        (0.25, 0.75),
    ]
    per_level = dict(zip(LEVELS, pinball_loss(y, pred, LEVELS, sample_weight=w, average=False)))
    for r in rows:
        alpha = 2 * r["lower_level"]
        expected = 2 / alpha * (per_level[r["lower_level"]] + per_level[r["upper_level"]])
        assert r["interval_score"] == pytest.approx(expected, rel=1e-10)


def test_interval_coverage_without_pairs_is_empty():
    y, pred, _ = _data(levels=np.array([0.1, 0.5, 0.8]))
    assert interval_coverage(y, pred, [0.1, 0.5, 0.8]) == []


def test_crossing_rate_hand_derived_and_weighted():
    pred = [[1.0, 2.0, 3.0], [1.0, 1.0, 3.0], [2.0, 1.0, 3.0], [0.0, 4.0, 3.0]]
    assert crossing_rate(pred) == 0.5
    assert crossing_rate(pred, sample_weight=[1, 1, 2, 0]) == 0.5
    assert crossing_rate(pred, sample_weight=[3, 0, 1, 0]) == 0.25
    assert crossing_rate(np.arange(5.0)) == 0.0


# --- report -----------------------------------------------------------------------------------


def test_report_keys_and_values():
    y, pred, w = _data(crossed=True)
    rep = quantile_report(y, pred, LEVELS, sample_weight=w)
    assert set(rep) == {
        "n", "quantiles", "pinball", "crps", "baseline", "reference_quantiles", "crps_ref",
        "crps_skill", "intervals", "crossing_rate", "mae_median",
    }  # fmt: skip
    assert rep["n"] == y.size
    assert rep["pinball"] == pytest.approx(list(pinball_loss(y, pred, LEVELS, sample_weight=w, average=False)))
    assert rep["crps"] == pytest.approx(crps(y, pred, LEVELS, sample_weight=w))
    assert rep["crps_skill"] == pytest.approx(crps_skill(y, pred, LEVELS, sample_weight=w))
    assert rep["intervals"] == interval_coverage(y, pred, LEVELS, sample_weight=w)
    assert rep["crossing_rate"] == crossing_rate(pred, sample_weight=w) > 0
    assert rep["mae_median"] == pytest.approx(2 * rep["pinball"][3], rel=1e-12)
    rep2 = quantile_report(y, pred[:, [0, 1]], LEVELS[:2])
    assert rep2["mae_median"] is None


def test_format_report_text():
    y, pred, _ = _data()
    text = format_report(quantile_report(y, pred, LEVELS), title="Holdout")
    lines = text.splitlines()
    assert lines[0] == "Holdout"
    rep = quantile_report(y, pred, LEVELS)
    assert lines[1] == (
        f"mean pinball {rep['crps']:.4f} | reference {rep['crps_ref']:.4f} (quantiles of y) | "
        f"skill {rep['crps_skill']:.3f}"
    )
    assert lines[-1].strip().startswith("CRPS skill")
    assert "0.05-0.95" in text and "MAE of the median" in text
    assert "-" not in lines[-2]  # losses are printed positive
    assert format_report(quantile_report(y, pred[:, :2], LEVELS[:2])).startswith(
        "Quantile forecast"
    )


# --- invariants -------------------------------------------------------------------------------

_finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


@st.composite
def _problem(draw):
    n = draw(st.integers(1, 25))
    k = draw(st.integers(1, 6))
    levels = np.sort(
        np.array(draw(st.lists(st.floats(0.01, 0.99), min_size=k, max_size=k, unique=True)))
    )
    levels = np.unique(np.round(levels, 3))
    k = levels.size
    y = draw(arrays(np.float64, n, elements=_finite))
    pred = draw(arrays(np.float64, (n, k), elements=_finite))
    w = draw(arrays(np.float64, n, elements=st.floats(0, 5)))
    if not np.any(w > 0):
        w[0] = 1.0
    return y, pred, levels, w


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(_problem())
def test_rearrangement_never_increases_mean_pinball(problem):
    y, pred, levels, w = problem
    before = pinball_loss(y, pred, levels, sample_weight=w)
    after = pinball_loss(y, np.sort(pred, axis=1), levels, sample_weight=w)
    assert after <= before + 1e-9 * (1 + abs(before))
    assert crossing_rate(np.sort(pred, axis=1)) == 0.0


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(_problem())
def test_ranges(problem):
    y, pred, levels, w = problem
    assert pinball_loss(y, pred, levels, sample_weight=w) >= 0
    assert 0.0 <= crossing_rate(pred, sample_weight=w) <= 1.0
    for row in interval_coverage(y, pred, levels, sample_weight=w):
        assert 0.0 <= row["coverage"] <= 1.0
        assert 0.0 < row["nominal"] < 1.0
    with warnings.catch_warnings():
        # constant y (or one row) makes the reference loss 0: NaN skill, by design
        warnings.simplefilter("ignore", DegenerateMetricWarning)
        skill = crps_skill(y, pred, levels, sample_weight=w)
    assert np.isnan(skill) or skill <= 1.0


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(_problem())
def test_zero_weights_equal_dropping_rows(problem):
    y, pred, levels, w = problem
    keep = w > 0
    pairs = [
        (pinball_loss, dict(average=False)),
        (crps, {}),
        (interval_coverage, {}),
    ]
    for fn, kw in pairs:
        full = fn(y, pred, levels, sample_weight=w, **kw)
        kept = fn(y[keep], pred[keep], levels, sample_weight=w[keep], **kw)
        if isinstance(full, list):
            for a, b in zip(full, kept, strict=True):
                assert a == pytest.approx(b, rel=1e-9, abs=1e-9)
        else:
            np.testing.assert_allclose(full, kept, rtol=1e-9, atol=1e-9)
    assert crossing_rate(pred, sample_weight=w) == pytest.approx(crossing_rate(pred[keep], sample_weight=w[keep]))
    np.testing.assert_array_equal(
        empirical_quantiles(y, levels, sample_weight=w), empirical_quantiles(y[keep], levels, sample_weight=w[keep])
    )


def test_pandas_input_equals_numpy():
    pd = pytest.importorskip("pandas")
    y, pred, w = _data(crossed=True)
    cols = [f"q{t}" for t in LEVELS]
    args_pd = (pd.Series(y), pd.DataFrame(pred, columns=cols), pd.Series(LEVELS))
    rep_np = quantile_report(y, pred, LEVELS, sample_weight=w, baseline=y[:50])
    rep_pd = quantile_report(*args_pd, sample_weight=pd.Series(w), baseline=pd.Series(y[:50]))
    assert rep_np == rep_pd
    assert crossing_rate(pd.DataFrame(pred)) == crossing_rate(pred)


# --- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "quantiles, match",
    [
        ([0.0, 0.5], r"quantiles must lie strictly inside \(0, 1\)"),
        ([0.5, 1.0], r"quantiles must lie strictly inside \(0, 1\)"),
        ([10, 90], r"fractions \(0.9\), not percentages"),
        ([0.9, 0.1], "quantiles must be strictly increasing"),
        ([0.5, 0.5], "quantiles must be strictly increasing"),
        ([0.1, np.nan], "quantiles contains 1 NaN"),
        ([], "quantiles is empty"),
        ([[0.1, 0.5], [0.6, 0.9]], "quantiles must be 1-dimensional"),
        (["a", "b"], "quantiles must be numeric"),
    ],
)
def test_bad_quantiles(quantiles, match):
    y = np.arange(4.0)
    pred = np.zeros((4, 2))
    with pytest.raises(ValueError, match=match):
        pinball_loss(y, pred, quantiles)


def test_bad_quantiles_type():
    with pytest.raises(TypeError, match="quantiles is None"):
        crps(np.arange(3.0), np.zeros((3, 1)), None)


@pytest.mark.parametrize(
    "pred, match",
    [
        (np.zeros(4), r"pred is 1-dimensional but 2 quantile levels were given"),
        (np.zeros((4, 3)), "pred has 3 columns but 2 quantile levels were given"),
        (np.zeros((4, 2, 1)), r"pred must be an \(n, K\) matrix"),
        (np.zeros((0, 2)), "pred is empty"),
        (np.zeros((5, 2)), "Inconsistent numbers of rows: y has 4, pred has 5"),
        (np.array([[0.0, np.nan]] * 4), "pred contains 4 NaN or infinite"),
        (np.array([[0.0, np.inf]] * 4), "pred contains 4 NaN or infinite"),
        (np.array([["a", "b"]] * 4), "pred must be numeric"),
    ],
)
@pytest.mark.parametrize(
    "fn", [pinball_loss, crps, crps_skill, interval_coverage, quantile_report]
)
def test_bad_pred(fn, pred, match):
    with pytest.raises(ValueError, match=match):
        fn(np.arange(4.0), pred, [0.25, 0.75])


@pytest.mark.parametrize(
    "y, match",
    [
        ([0.0, 1.0, np.nan, 3.0], "y contains 1 NaN"),
        (np.zeros((4, 2)), "y must be 1-dimensional"),
        ([], "y is empty"),
    ],
)
def test_bad_y(y, match):
    with pytest.raises(ValueError, match=match):
        quantile_report(y, np.zeros((4, 2)), [0.25, 0.75])


@pytest.mark.parametrize(
    "w, match",
    [
        ([1.0, -1.0, 1.0, 1.0], "sample_weight contains negative values"),
        ([0.0, 0.0, 0.0, 0.0], "sample_weight sums to zero"),
        ([1.0, 1.0, 1.0], "sample_weight has 3 rows but the data have 4"),
        ([1.0, np.nan, 1.0, 1.0], "sample_weight contains 1 NaN"),
    ],
)
@pytest.mark.parametrize(
    "fn", [pinball_loss, crps, crps_skill, interval_coverage, quantile_report]
)
def test_bad_sample_weight(fn, w, match):
    with pytest.raises(ValueError, match=match):
        fn(np.arange(4.0), np.zeros((4, 2)), [0.25, 0.75], sample_weight=w)


def test_bad_crossing_rate_inputs():
    with pytest.raises(ValueError, match="pred contains 1 NaN"):
        crossing_rate([[0.0, np.nan]])
    with pytest.raises(ValueError, match="pred is empty"):
        crossing_rate(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="sample_weight has 2 rows but the data have 1"):
        crossing_rate([[0.0, 1.0]], sample_weight=[1.0, 1.0])
    with pytest.raises(TypeError, match="pred is None"):
        crossing_rate(None)


def test_bad_baseline():
    y, pred = np.arange(4.0), np.zeros((4, 2))
    with pytest.raises(ValueError, match="baseline contains 1 NaN"):
        crps_skill(y, pred, [0.25, 0.75], baseline=[1.0, np.nan])
    with pytest.raises(ValueError, match="baseline is empty"):
        quantile_report(y, pred, [0.25, 0.75], baseline=[])


@pytest.mark.parametrize("baseline", [None, "train"])
def test_evaluator_batches_equal_weighted_reports(baseline):
    """The bootstrap path (a counts matrix) uses exactly quantile_report's definitions."""
    from chimeraboost.quantile_metrics import quantile_evaluator

    rng = np.random.default_rng(3)
    n = 60
    y = np.round(rng.normal(size=n), 1)  # ties in y exercise the averaged quantiles
    pred = np.sort(rng.normal(size=(n, 3)), axis=1) + 0.1
    pred[0] = pred[0, ::-1]  # one crossed row
    w = rng.random(n) + 0.2
    base = rng.normal(size=30) if baseline else None
    counts = rng.multinomial(n, np.full(n, 1 / n), size=4).astype(float)
    batch = quantile_evaluator(y, pred, [0.1, 0.5, 0.9], sample_weight=w, baseline=base).evaluate(counts, warn=False)
    for b in range(4):
        rep = quantile_report(y, pred, [0.1, 0.5, 0.9], sample_weight=counts[b] * w, baseline=base)
        for key in ("crps", "crps_ref", "crps_skill", "crossing_rate", "mae_median"):
            assert batch[key][b] == pytest.approx(rep[key], abs=1e-12), key
        assert batch["pinball"][b] == pytest.approx(rep["pinball"], abs=1e-12)
        assert batch["coverage"][b, 0] == pytest.approx(rep["intervals"][0]["coverage"], abs=1e-12)
        assert batch["reference_quantiles"][b] == pytest.approx(rep["reference_quantiles"])
