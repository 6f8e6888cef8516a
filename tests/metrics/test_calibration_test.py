"""metrics.calibration_test: the noise floor, the excess, the p-value and the interval of the
population MCB; and the simultaneous consistency band of the reliability curve.

References here are closed forms (a forecast whose recalibration is itself has MCB 0 and
p-value 1; an anti-calibrated one is never reached by a draw, p = 1 / (n_boot + 1)) and a
direct simulation with scikit-learn's IsotonicRegression, written independently of the
library's kernels.
"""

import warnings

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression

from chimeraboost import metrics
from chimeraboost.exceptions import DegenerateMetricWarning

# Fewer than 1,000 draws keep these tests fast; the one rule warns about them.
pytestmark = pytest.mark.filterwarnings(
    "ignore::chimeraboost.exceptions.FewResamplesWarning")


def _sklearn_mcb(y, p, w=None):
    """CORP MCB of a binary forecast with scikit-learn's isotonic regression."""
    w = np.ones_like(p) if w is None else w
    r = IsotonicRegression(y_min=0, y_max=1, out_of_bounds="clip").fit(p, y, sample_weight=w)
    fitted = r.predict(p)
    return (np.dot(w, (p - y) ** 2) - np.dot(w, (fitted - y) ** 2)) / w.sum()


def _calibrated(n, seed, low=0.05, high=0.95):
    rng = np.random.default_rng(seed)
    p = rng.uniform(low, high, n)
    return (rng.random(n) < p).astype(int), p


def test_a_forecast_equal_to_its_recalibration_has_mcb_zero_and_pvalue_one():
    # 100 rows at each of 0.2, 0.5, 0.8 with exactly 20, 50, 80 events: the isotonic
    # recalibration is the forecast itself, MCB = 0, and every draw's MCB is >= 0.
    p = np.repeat([0.2, 0.5, 0.8], 100)
    y = np.concatenate([np.r_[np.ones(k), np.zeros(100 - k)] for k in (20, 50, 80)])
    res = metrics.calibration_test(y, p, [0, 1], n_boot=200, random_state=0)
    assert res.statistic == pytest.approx(0.0, abs=1e-15)
    assert res.pvalue == 1.0
    assert res.noise_floor > 0
    low, high = res.confidence_interval()
    assert low <= res.excess <= high


def test_an_anti_calibrated_forecast_gets_the_smallest_pvalue():
    # 0.9 where nothing happens and 0.1 where it does: no draw under calibration comes close.
    y = np.r_[np.zeros(200), np.ones(200)]
    p = np.r_[np.full(200, 0.9), np.full(200, 0.1)]
    res = metrics.calibration_test(y, p, [0, 1], n_boot=300, random_state=1)
    assert res.pvalue == pytest.approx(1 / 301)
    assert res.pvalue_per_class.tolist() == pytest.approx([1 / 301, 1 / 301])
    # In-sample MCB: every row is off by 0.9 (Brier 0.81); the increasing recalibration pools
    # both forecasts at the event rate 0.5 (Brier 0.25): 0.81 - 0.25 = 0.56.
    assert res.statistic == pytest.approx(0.56)
    low, high = res.confidence_interval()
    assert 0 < low <= res.excess <= high


@pytest.mark.parametrize("n", [300, 3000])  # 3000 distinct forecasts: merged cells
def test_noise_floor_equals_a_direct_simulation(n):
    y, p = _calibrated(n, seed=2)
    res = metrics.calibration_test(y, p, [0, 1], n_boot=400, random_state=3)
    rng = np.random.default_rng(4)
    direct = np.array([_sklearn_mcb((rng.random(n) < p).astype(float), p)
                       for _ in range(200)])
    se = np.hypot(direct.std() / np.sqrt(200), direct.std() / np.sqrt(400))
    assert abs(res.noise_floor - direct.mean()) < 4 * se + 0.01 * direct.mean()


@pytest.mark.parametrize("weights", [False, True])
def test_statistic_is_calibration_mcb_and_the_decomposition_still_holds(weights):
    y, p = _calibrated(500, seed=5)
    w = np.random.default_rng(6).uniform(0.1, 3, 500) if weights else None
    res = metrics.calibration_test(y, p, [0, 1], sample_weight=w, n_boot=200, random_state=0)
    assert res.statistic == metrics.calibration_mcb(y, p, [0, 1], sample_weight=w)
    assert res.statistic == pytest.approx(_sklearn_mcb(y, p, w), abs=1e-12)
    d = metrics.calibration_decomposition(y, p, [0, 1], sample_weight=w)
    report = metrics.classification_report(y, p, [0, 1], sample_weight=w)
    assert d["mcb"] - d["dsc"] + d["unc"] == pytest.approx(report["brier"] / 2, abs=1e-12)


def test_multiclass_per_class_and_average():
    rng = np.random.default_rng(7)
    proba = rng.dirichlet([2, 2, 2], 600)
    y = np.array([rng.choice(["a", "b", "c"], p=row) for row in proba])
    res = metrics.calibration_test(y, proba, ["a", "b", "c"], n_boot=200, random_state=0)
    per = metrics.calibration_decomposition(y, proba, ["a", "b", "c"])["per_class"]["mcb"]
    assert res.statistic_per_class == pytest.approx(per, abs=1e-15)
    assert res.statistic == pytest.approx(per.mean(), abs=1e-15)
    assert res.excess == pytest.approx(res.excess_per_class.mean(), abs=1e-15)
    assert res.noise_floor == pytest.approx(res.noise_floor_per_class.mean(), abs=1e-15)
    low, high = res.confidence_interval_per_class()
    assert np.all(low <= res.excess_per_class) and np.all(res.excess_per_class <= high)


def test_binary_classes_mirror_each_other():
    y, p = _calibrated(400, seed=8)
    res = metrics.calibration_test(y, np.c_[1 - p, p], [0, 1], n_boot=200, random_state=0)
    for name in ("statistic", "noise_floor", "excess", "pvalue"):
        values = getattr(res, f"{name}_per_class")
        assert values[0] == values[1] == getattr(res, name)


@pytest.mark.parametrize("design", ["calibrated", "overconfident", "small", "weighted",
                                    "ties"])
def test_interval_contains_the_estimate_at_every_level(design):
    n = 60 if design == "small" else 800
    y, p = _calibrated(n, seed=9)
    w = None
    if design == "overconfident":
        p = 1 / (1 + ((1 - p) / p) ** 1.5)
    if design == "weighted":
        w = np.random.default_rng(10).uniform(0, 2, n)
    if design == "ties":
        p = np.round(p, 1)
    res = metrics.calibration_test(y, p, [0, 1], sample_weight=w, n_boot=200, random_state=0)
    outer = res.confidence_interval(level=0.95)
    inner = res.confidence_interval(level=0.8)
    assert outer.low <= inner.low <= res.excess <= inner.high <= outer.high
    assert outer.low >= min(res.excess, 0.0)  # clipped at 0, never above the estimate


def test_same_seed_same_result_and_zero_weight_rows_count_in_nothing():
    y, p = _calibrated(300, seed=11)
    a = metrics.calibration_test(y, p, [0, 1], n_boot=200, random_state=42)
    b = metrics.calibration_test(y, p, [0, 1], n_boot=200, random_state=42)
    assert (a.statistic, a.noise_floor, a.excess, a.pvalue) == (
        b.statistic, b.noise_floor, b.excess, b.pvalue)
    # Ten extra rows of weight 0, with forecasts and outcomes that would change everything.
    y2, p2 = np.r_[y, np.ones(10)], np.r_[p, np.zeros(10)]
    w2 = np.r_[np.ones(300), np.zeros(10)]
    c = metrics.calibration_test(y2, p2, [0, 1], sample_weight=w2, n_boot=200,
                                 random_state=42)
    assert (c.statistic, c.noise_floor, c.excess, c.pvalue) == pytest.approx(
        (a.statistic, a.noise_floor, a.excess, a.pvalue), abs=1e-15)


def test_pandas_and_string_labels_equal_numpy():
    pd = pytest.importorskip("pandas")
    y, p = _calibrated(300, seed=12)
    labels = np.where(y == 1, "yes", "no")
    a = metrics.calibration_test(y, p, [0, 1], n_boot=200, random_state=0)
    b = metrics.calibration_test(pd.Series(labels), pd.Series(p), ["no", "yes"], n_boot=200,
                                 random_state=0)
    assert (a.statistic, a.excess, a.pvalue) == (b.statistic, b.excess, b.pvalue)


@pytest.mark.parametrize(("n_boot", "match"), [
    (199, "n_boot=199 is too few resamples"), (0, "n_boot must be"), (2.5, "n_boot must be"),
    (True, "n_boot must be"), ("1000", "n_boot must be")])
def test_too_few_draws_are_refused(n_boot, match):
    y, p = _calibrated(50, seed=13)
    with pytest.raises((TypeError, ValueError), match=match):
        metrics.calibration_test(y, p, [0, 1], n_boot=n_boot)


def test_probabilities_outside_unit_interval_are_refused():
    with pytest.raises(ValueError, match="proba"):
        metrics.calibration_test([0, 1, 1], [0.2, 1.3, 0.5], [0, 1])


def test_one_class_gives_nan_estimate_with_a_warning():
    p = np.linspace(0.1, 0.9, 50)
    with pytest.warns(DegenerateMetricWarning, match="single class"):
        res = metrics.calibration_test(np.zeros(50), p, [0, 1], n_boot=200, random_state=0)
    assert res.statistic == pytest.approx(_sklearn_mcb(np.zeros(50), p))
    assert np.isnan(res.excess) and all(np.isnan(res.confidence_interval()))
    assert 0 < res.pvalue <= 1  # the test under the null is still defined


# ----------------------------------------------------------------------- the band


def _inside(curve, recalibrated):
    return np.all((recalibrated >= curve.band_low - 1e-12)
                  & (recalibrated <= curve.band_high + 1e-12))


def test_simultaneous_band_holds_whole_calibrated_curves_as_often_as_its_level():
    # Independent calibrated curves on the same forecasts, recalibrated with scikit-learn:
    # a simultaneous 90% band keeps most of them whole; a pointwise band loses most of them
    # somewhere, though each of its points keeps about 90%.
    n = 400
    y, p = _calibrated(n, seed=14, low=0.02, high=0.98)
    sim = metrics.reliability_curve(y, p, [0, 1], n_boot=1000, level=0.9,
                                    band="simultaneous", random_state=0)
    point = metrics.reliability_curve(y, p, [0, 1], n_boot=1000, level=0.9, band="pointwise",
                                      random_state=0)
    assert sim.band == "simultaneous" and point.band == "pointwise"
    rng = np.random.default_rng(15)
    whole_sim = whole_point = 0
    per_point = np.zeros(sim.forecast.shape[0])
    runs = 300
    iso = IsotonicRegression(y_min=0, y_max=1)
    for _ in range(runs):
        curve = iso.fit_transform(p, (rng.random(n) < p).astype(float))
        curve = curve[np.argsort(p)]  # one value per distinct forecast (all distinct here)
        whole_sim += _inside(sim, curve)
        whole_point += _inside(point, curve)
        per_point += (curve >= point.band_low - 1e-12) & (curve <= point.band_high + 1e-12)
    assert 0.82 <= whole_sim / runs <= 0.97
    assert whole_point / runs < 0.5
    assert 0.85 <= np.mean(per_point / runs) <= 0.95


def test_band_argument_is_checked():
    y, p = _calibrated(50, seed=16)
    with pytest.raises(ValueError, match="band must be"):
        metrics.reliability_curve(y, p, [0, 1], n_boot=200, band="global")


def test_the_test_is_silent_on_ordinary_input():
    y, p = _calibrated(200, seed=17)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        metrics.calibration_test(y, p, [0, 1], random_state=0)


@pytest.mark.parametrize("power", [1.0, 1.15, 1.3, 1.6])
def test_the_interval_excludes_zero_exactly_when_the_test_rejects_in_its_tail(power):
    # Forecasts pushed away from 1/2 by more and more: wherever the p-value falls, the 95%
    # interval's low end is above 0 exactly when p < 0.025 (the tail of a two-sided 95%).
    y, p = _calibrated(600, seed=18)
    q = 1 / (1 + ((1 - p) / p) ** power)
    res = metrics.calibration_test(y, q, [0, 1], n_boot=400, random_state=1)
    low, high = res.confidence_interval(level=0.95)
    if res.excess > 0:
        assert (low > 0) == (res.pvalue < 0.025), (res.pvalue, low)
    assert low <= res.excess <= high


def _every_field(res) -> dict:
    """Every number of a calibration test: the fields, the intervals, the simulated draws."""
    out = {key: np.asarray(getattr(res, key), dtype=float) for key in (
        "statistic", "noise_floor", "excess", "pvalue", "inflation", "recalibration_slope",
        "recalibration_intercept", "recalibration_pvalue", "statistic_per_class",
        "noise_floor_per_class", "excess_per_class", "pvalue_per_class")}
    for level in (0.5, 0.95):
        out[f"ci {level}"] = np.asarray(res.confidence_interval(level=level), dtype=float)
    out["draws"] = np.asarray(res._world_draws, dtype=float)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("design", ["binary", "weighted", "multiclass", "groups", "time"])
def test_the_same_numbers_bit_for_bit_on_any_number_of_workers(design, monkeypatch):
    # The outcomes are drawn on the calling thread in one order; only the isotonic fits of
    # the draws move to the workers, in the same chunks: every number is n_jobs=1's.
    from chimeraboost._shared import workers

    rng = np.random.default_rng(4)
    n = 600
    y, p = _calibrated(n, seed=4)
    kwargs = dict(y=y, proba=p ** 1.5, classes=[0, 1])
    if design == "weighted":
        kwargs["sample_weight"] = rng.random(n) * 2
    elif design == "multiclass":
        proba = rng.dirichlet(np.ones(3), n)
        kwargs = dict(y=(rng.random(n)[:, None] > proba.cumsum(axis=1)).sum(axis=1),
                      proba=proba, classes=[0, 1, 2])
    elif design in ("groups", "time"):
        kwargs[design] = np.arange(n) // 6
    one = _every_field(metrics.calibration_test(**kwargs, n_boot=250, random_state=3))
    for n_jobs, backend in ((2, "processes"), (3, "processes"), (2, "threads")):
        monkeypatch.setattr(workers, "parallel_backend", lambda b=backend: b)
        res = _every_field(metrics.calibration_test(**kwargs, n_boot=250, random_state=3,
                                                    n_jobs=n_jobs))
        for key in one:
            np.testing.assert_array_equal(res[key], one[key], err_msg=f"{key}, {n_jobs}")


@pytest.mark.parametrize(("n_jobs", "error"), [(0, ValueError), (1.5, TypeError)])
def test_bad_n_jobs_is_refused(n_jobs, error):
    y, p = _calibrated(100, seed=1)
    with pytest.raises(error, match="n_jobs"):
        metrics.calibration_test(y, p, [0, 1], n_boot=200, n_jobs=n_jobs)
