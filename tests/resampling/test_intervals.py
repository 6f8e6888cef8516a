"""Tests of the interval methods of chimeraboost.resampling: BCa against scipy's on the same
resamples, the grouped jackknife against the plain one, closed forms of the acceleration and
of the degrees of freedom, the estimate inside every interval, and when the
NarrowIntervalWarning fires."""

import re
import warnings

import numpy as np
import pytest
from scipy import stats
from scipy.stats import norm

from chimeraboost import metrics, report, resampling
from chimeraboost.exceptions import NarrowIntervalWarning

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")


def _binary(n, rate, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    p = 1 / (1 + np.exp(-(np.log(rate / (1 - rate)) + 1.2 * x)))
    y = (rng.random(n) < p).astype(int)
    return y, p


def _counts(idx, n):
    """(B, m) resampled row indices -> (B, n) counts."""
    idx = np.atleast_2d(np.asarray(idx, dtype=np.int64))
    out = np.zeros((idx.shape[0], n), dtype=np.int64)
    np.add.at(out, (np.repeat(np.arange(idx.shape[0]), idx.shape[1]), idx.ravel()), 1)
    return out


# --------------------------------------------------------------------------- BCa vs scipy


@pytest.mark.parametrize("key", ["roc_auc", "brier_skill", "log_loss"])
def test_bca_equals_scipy_on_the_same_resamples(key):
    y, p = _binary(60, 0.3, 1)
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    n = y.size
    seen = {"boot": [], "jack": []}

    def statistic(idx, axis=-1):
        idx = np.asarray(idx)
        flat = idx.reshape(-1, idx.shape[-1])
        # scipy calls with the point (n,), the resamples (batch, n) and the leave-one-out
        # samples (batch, n - 1): record each, and evaluate our metric on its counts.
        value = ev.evaluate(_counts(flat, n), warn=False, metrics=[key])[key]
        if idx.ndim == 2 and idx.shape[-1] == n:
            seen["boot"].append(value)
        elif idx.shape[-1] == n - 1:
            seen["jack"].append(value)
        return value.reshape(idx.shape[:-1])

    res = stats.bootstrap((np.arange(n),), statistic, n_resamples=999, vectorized=True,
                          method="BCa", confidence_level=0.9,
                          random_state=np.random.default_rng(3))
    reps, jack = np.concatenate(seen["boot"]), np.concatenate(seen["jack"])
    assert reps.size == 999 and jack.size == n
    estimate = float(ev.evaluate(None, warn=False, metrics=[key])[key][0])
    ci = resampling.bootstrap_interval(reps, estimate, level=0.9, method="bca", jackknife=jack)
    assert ci.low == pytest.approx(res.confidence_interval.low, abs=1e-12)
    assert ci.high == pytest.approx(res.confidence_interval.high, abs=1e-12)


def test_bootstrap_bca_is_bca_of_its_own_replicates_and_plain_jackknife():
    # At most JACKKNIFE_BLOCKS rows: every row is its own block, the plain jackknife.
    y, p = _binary(80, 0.25, 2)
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    res = resampling.bootstrap(ev, n_boot=500, random_state=4, metrics=["roc_auc"], ci_method="bca")
    loo = np.ones((80, 80), dtype=np.int64) - np.eye(80, dtype=np.int64)
    jack = ev.evaluate(loo, warn=False, metrics=["roc_auc"])["roc_auc"]
    np.testing.assert_allclose(np.sort(res.jackknife["roc_auc"]), np.sort(jack), rtol=1e-13)
    ci = resampling.bootstrap_interval(res.replicates["roc_auc"], res.estimate["roc_auc"],
                                       method="bca", jackknife=jack)
    assert res.interval("roc_auc") == pytest.approx(tuple(ci), abs=1e-14)


# --------------------------------------------------------------------------- jackknife


def test_grouped_jackknife_with_single_row_blocks_is_the_plain_jackknife():
    w = np.array([1.0, 0.0, 2.0, 1.0, 0.5, 1.0])
    jw = resampling.jackknife_weights(6, n_blocks=100, sample_weight=w, random_state=0)
    # Five rows of positive weight, five blocks, each leaving one of them out; the row of
    # zero weight is in every estimate (it counts in none).
    assert jw.shape == (5, 6) and np.all(jw[:, 1] == 1)
    left_out = sorted(int(np.flatnonzero(row == 0)[0]) for row in jw)
    assert left_out == [0, 2, 3, 4, 5]


def test_grouped_jackknife_blocks_are_balanced_and_reproducible():
    a = resampling.jackknife_weights(103, n_blocks=10, random_state=5)
    b = resampling.jackknife_weights(103, n_blocks=10, random_state=5)
    np.testing.assert_array_equal(a, b)
    sizes = 103 - a.sum(axis=1)
    assert a.shape == (10, 103) and set(sizes.tolist()) == {10, 11} and sizes.sum() == 103
    assert np.all((1 - a).sum(axis=0) == 1)  # every row in exactly one block
    assert not np.array_equal(a, resampling.jackknife_weights(103, n_blocks=10, random_state=6))


def test_acceleration_of_the_mean_is_its_closed_form():
    # The leave-one-out means of x: u_i = mean - mean_(i) = (x_i - mean) / (n - 1), so
    # a = sum((x - mean)^3) / (6 sum((x - mean)^2)^1.5) [Efron 1987, eq. 6.7].
    x = np.array([0.3, 1.2, 0.1, 4.0, 0.7, 2.2, 0.05])
    n = x.size
    loo = (x.sum() - x) / (n - 1)
    d = x - x.mean()
    expected = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)
    assert resampling.acceleration(loo) == pytest.approx(expected, rel=1e-12)
    assert resampling.acceleration([2.0, 2.0, 2.0]) == 0.0
    assert resampling.acceleration([1.0, np.nan]) == 0.0


def test_effective_df_is_satterthwaites_for_rows_and_blocks():
    # Leave-one-out estimates of a mean: influence proportional to x - mean, so the degrees
    # of freedom are 2 n / (kurtosis - 1).
    x = np.array([-2.0, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 5.0])
    n = x.size
    d = x - x.mean()
    kurt = np.mean(d**4) / np.mean(d**2) ** 2
    loo = (x.sum() - x) / (n - 1)
    assert resampling.effective_df(loo, n) == pytest.approx(2 * n / (kurt - 1), rel=1e-12)
    # Blocks of b rows: kurtosis 3 + b (kurtosis of the blocks - 3).
    blocks = np.array([0.0, 0.1, -0.1, 0.0, 0.05, -0.05, 0.0, 1.2])
    u = blocks.mean() - blocks
    kb = np.mean(u**4) / np.mean(u**2) ** 2
    assert kb > 3  # heavier tails than a normal sample: the formula, not a bound, applies
    expected = 2 * 40 / (3 + 5 * (kb - 3) - 1)
    assert resampling.effective_df(blocks, 40) == pytest.approx(expected, rel=1e-12)
    # One row moves the estimate, the other 99 do not: the kurtosis of a two-point
    # distribution with p = 1/100, (1 - 3 p q) / (p q) = 98.0101..., and nu = 200 / 97.0101...
    pq = 0.01 * 0.99
    assert resampling.effective_df(np.r_[np.zeros(99), 1.0], 100) == pytest.approx(
        200 / ((1 - 3 * pq) / pq - 1), rel=1e-12)
    # Never above n - 1 or events - 1, never below 1.
    assert resampling.effective_df(loo, n, events=4) == 3.0
    assert resampling.effective_df(loo, n, events=1) == 1.0
    assert resampling.effective_df([1.0, 1.0, 1.0], 50) == 49.0


# --------------------------------------------------------------------------- intervals


def test_percentile_method_is_numpys_quantiles():
    reps = np.random.default_rng(0).normal(size=1001)
    ci = resampling.bootstrap_interval(reps, float(np.median(reps)), level=0.9, method="percentile")
    assert tuple(ci) == pytest.approx(tuple(np.quantile(reps, [0.05, 0.95])), abs=1e-15)


def test_expanded_methods_use_students_quantile():
    rng = np.random.default_rng(1)
    reps = rng.normal(size=4001)
    jack = rng.normal(size=30)  # leave-one-out values of 30 rows
    df = resampling.effective_df(jack, 30)
    z = np.sqrt((df + 1) / df) * stats.t.ppf(0.975, df)
    ci = resampling.bootstrap_interval(reps, float(np.median(reps)), method="expanded_percentile",
                                       jackknife=jack)
    assert tuple(ci) == pytest.approx(tuple(np.quantile(reps, norm.cdf([-z, z]))), abs=1e-15)
    # Many well-behaved rows: the expansion vanishes.
    big = np.random.default_rng(2).normal(size=5000)
    wide = resampling.bootstrap_interval(reps, 0.0, method="expanded_bca", jackknife=big)
    plain = resampling.bootstrap_interval(reps, 0.0, method="bca", jackknife=big)
    assert wide.high - wide.low == pytest.approx(plain.high - plain.low, rel=2e-3)


@pytest.mark.parametrize("method", resampling.CI_METHODS)
@pytest.mark.parametrize("reps, estimate", [
    ([0.5] * 50, 0.5),                       # every replicate equal to the estimate
    ([0.9] * 50, 1.0),                       # every replicate below it (a bound)
    (list(np.linspace(0.2, 0.4, 50)), 0.7),  # the estimate beyond every replicate
    ([0.1, np.nan, 0.3, np.nan, 0.2], 0.2),  # undefined replicates left out
    ([0.3, 0.35], 0.33),                     # two replicates
])
def test_the_estimate_is_always_inside(method, reps, estimate):
    jack = [0.2, 0.5, 0.5, 0.1]
    ci = resampling.bootstrap_interval(reps, estimate, method=method, jackknife=jack)
    assert ci.low <= estimate <= ci.high


def test_bca_on_a_bound_falls_back_to_the_percentile_interval():
    # The estimate is the largest value (ties included): BCa's z0 is not identified, and its
    # quantiles would sit on the estimate, an interval of width 0 for replicates that spread.
    reps = np.r_[np.linspace(-0.02, -0.001, 95), [0.0] * 5]
    jack = [0.0, -0.001, -0.002, 0.0]
    for bca, pct in (("bca", "percentile"), ("expanded_bca", "expanded_percentile")):
        got = resampling.bootstrap_interval(reps, 0.0, method=bca, jackknife=jack)
        want = resampling.bootstrap_interval(reps, 0.0, method=pct, jackknife=jack)
        assert tuple(got) == tuple(want)
        assert got.high - got.low > 0.015
    # One replicate above the estimate is enough for BCa's own interval.
    reps_both = np.r_[reps[:-1], 0.001]
    got = resampling.bootstrap_interval(reps_both, 0.0, method="bca", jackknife=jack)
    assert tuple(got) != tuple(resampling.bootstrap_interval(reps_both, 0.0,
                                                             method="percentile"))


@pytest.mark.parametrize("method", resampling.CI_METHODS)
def test_undefined_estimate_or_replicates_give_nan(method):
    jack = [0.1, 0.2, 0.3]
    assert np.isnan(resampling.bootstrap_interval([np.nan] * 3, 0.2, method=method,
                                                  jackknife=jack)).all()
    assert np.isnan(resampling.bootstrap_interval([0.1, 0.2], np.nan, method=method,
                                                  jackknife=jack)).all()


@pytest.mark.parametrize("method", resampling.CI_METHODS)
def test_every_reported_interval_holds_its_estimate_on_tiny_and_lopsided_data(method):
    # Five rows, two positives, and a perfectly ranking score: the ROC-AUC is 1, on its bound.
    y = np.array([0, 1, 0, 1, 0])
    p = np.array([0.1, 0.8, 0.2, 0.9, 0.3])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = metrics.classification_evaluator(y, [0, 1], proba=p)
        res = resampling.bootstrap(ev, n_boot=300, random_state=0, ci_method=method)
        cis = res.intervals()
    for key, (lo, hi) in cis.items():
        est = res.estimate[key]
        if np.isnan(est):
            continue
        assert lo <= est <= hi, key


def test_paired_intervals_use_the_paired_jackknife():
    y, p = _binary(150, 0.2, 3)
    q = np.clip(p + np.random.default_rng(0).normal(scale=0.1, size=p.size), 0.01, 0.99)
    ev_a = metrics.classification_evaluator(y, [0, 1], proba=p)
    ev_b = metrics.classification_evaluator(y, [0, 1], proba=q)
    res = resampling.paired_bootstrap(ev_a, ev_b, n_boot=400, random_state=1,
                                      metrics=["brier_skill", "roc_auc"])
    # The same blocks for both models: the difference's jackknife is the difference of
    # the two models' leave-a-block-out numbers on the same weights.
    jw = resampling.jackknife_weights(150, random_state=np.random.default_rng(0))
    assert res.model.jackknife["roc_auc"].shape == (100,)
    diff = res.model.jackknife["roc_auc"] - res.baseline.jackknife["roc_auc"]
    np.testing.assert_allclose(res.jackknife["roc_auc"], diff, rtol=1e-14)
    assert jw.shape == (100, 150)
    est, lo, hi = res.difference("roc_auc")
    assert lo <= est <= hi
    expected = resampling.bootstrap_interval(res.replicates["roc_auc"], est, jackknife=diff,
                                             n_rows=150, events=res.events)
    assert (lo, hi) == pytest.approx(tuple(expected), abs=1e-15)


def test_weighted_rows_count_their_effective_events():
    y, p = _binary(120, 0.3, 4)
    w = np.where(y == 1, np.where(np.arange(120) % 2 == 0, 4.0, 0.0), 1.0)
    ev = metrics.classification_evaluator(y, [0, 1], proba=p, sample_weight=w)
    res = resampling.bootstrap(ev, n_boot=200, random_state=0, metrics=["roc_auc"])
    pos = w[y == 1]
    pos = pos[pos > 0]
    assert res.n_rows == int(np.sum(w > 0))
    assert res.events == pytest.approx(min(pos.sum() ** 2 / np.sum(pos**2), np.sum(y == 0)))
    lo, hi = res.interval("roc_auc")
    assert lo <= res.estimate["roc_auc"] <= hi


def test_multiclass_and_regression_intervals_hold_their_estimates():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 3, 150)
    logits = rng.normal(size=(150, 3)) + 1.5 * np.eye(3)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    res = resampling.bootstrap(metrics.classification_evaluator(y, [0, 1, 2], proba=proba),
                               n_boot=300, random_state=0)
    assert res.events == float(np.bincount(y).min())
    x = rng.normal(size=150)
    reg = resampling.bootstrap(metrics.regression_evaluator(2 * x + rng.standard_t(5, 150),
                                                            2 * x), n_boot=300, random_state=0)
    assert reg.events is None
    for r in (res, reg):
        for key, (lo, hi) in r.intervals().items():
            assert lo <= r.estimate[key] <= hi or np.isnan(r.estimate[key]), key


def test_bad_ci_method_is_refused_by_name():
    ev = metrics.classification_evaluator([0, 1, 0, 1], [0, 1], proba=[0.2, 0.7, 0.4, 0.6])
    with pytest.raises(ValueError, match="ci_method must be one of"):
        resampling.bootstrap(ev, n_boot=200, ci_method="studentised")
    with pytest.raises(TypeError, match="ci_method must be one of"):
        resampling.bootstrap(ev, n_boot=200, ci_method=None)
    with pytest.raises(ValueError, match="method must be one of"):
        resampling.bootstrap(ev, n_boot=200).interval("roc_auc", method="basic")
    with pytest.raises(ValueError, match="needs the jackknife"):
        resampling.bootstrap_interval([0.1, 0.2], 0.1, method="bca")
    bare = resampling.BootstrapResult({"roc_auc": 0.5}, {"roc_auc": np.array([0.4, 0.6])}, 2)
    assert bare.ci_method == "percentile"
    with pytest.raises(ValueError, match="needs the jackknife"):
        bare.interval("roc_auc", method="bca")


# --------------------------------------------------------------------------- the warning


def test_narrow_interval_warning_names_the_events():
    # 60 rows, 3 events: no method keeps its level (benchmarks/coverage.py).
    y = np.zeros(60, dtype=int)
    y[[5, 20, 41]] = 1
    p = np.linspace(0.02, 0.3, 60)
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    with pytest.warns(NarrowIntervalWarning, match=r"rarest class has 3 row\(s\)"):
        resampling.bootstrap(ev, n_boot=300, random_state=0).intervals(metrics=["roc_auc"])
    assert "roc_auc" in resampling.bootstrap(ev, n_boot=300, random_state=0).narrow()


def test_no_warning_with_enough_events():
    y, p = _binary(300, 0.4, 7)
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NarrowIntervalWarning)
        resampling.bootstrap(ev, n_boot=300, random_state=0).intervals(
            metrics=["roc_auc", "brier_skill", "log_loss_skill", "pr_auc"])


@pytest.mark.parametrize("errors", ["lognormal", "-lognormal", "chi-square"])
def test_skewed_errors_warn_on_the_squared_errors_metrics_only(errors):
    # Skewed errors: the intervals of the mean of their squares miss more often than their
    # level says (benchmarks/coverage.py); the MAE's are not concerned.
    rng = np.random.default_rng(9)
    n = 200
    x = rng.normal(size=n)
    e = {"lognormal": np.exp(1.5 * rng.normal(size=n)),
         "-lognormal": -np.exp(1.5 * rng.normal(size=n)),
         "chi-square": rng.chisquare(0.5, size=n)}[errors]
    e = e - e.mean()
    w = rng.uniform(0.5, 2.0, n)
    ev = metrics.regression_evaluator(1 + 2 * x + e, 1 + 2 * x, sample_weight=w)
    res = resampling.bootstrap(ev, n_boot=300, random_state=0)
    # The skewness is the weighted g1 of the errors; with equal weights scipy's skew.
    d = e - np.average(e, weights=w)
    g1 = np.average(d**3, weights=w) / np.average(d**2, weights=w) ** 1.5
    np.testing.assert_allclose(res.skewness, g1, rtol=1e-9)
    plain = resampling.bootstrap(metrics.regression_evaluator(1 + 2 * x + e, 1 + 2 * x),
                                 n_boot=300, random_state=0)
    np.testing.assert_allclose(plain.skewness, stats.skew(e), rtol=1e-9)
    assert abs(g1) >= 2
    assert set(res.narrow()) == {"mse", "rmse", "r2", "mse_skill"}
    with pytest.warns(NarrowIntervalWarning, match=re.escape(
            f"errors y - pred are skewed (sample skewness {g1:+.1f})")) as caught:
        res.intervals(metrics=["rmse", "r2", "mae"])
    assert "mae" not in str(caught[0].message)
    # Paired differences carry the more skewed of the two models' errors.
    pair = resampling.paired_bootstrap(ev, metrics.regression_evaluator(
        1 + 2 * x + e, 1 + 1.5 * x, sample_weight=w), n_boot=300, random_state=0)
    assert "rmse" in pair.narrow()


def test_symmetric_errors_do_not_warn_however_heavy_their_tails():
    rng = np.random.default_rng(10)
    x = rng.normal(size=400)
    e = rng.standard_t(5, size=400)
    assert abs(stats.skew(e)) < 2
    ev = metrics.regression_evaluator(1 + 2 * x + e, 1 + 2 * x)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NarrowIntervalWarning)
        resampling.bootstrap(ev, n_boot=300, random_state=0).intervals()


def test_report_warns_once_and_prints_the_method():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(8)
    X = rng.normal(size=(80, 2))
    y = np.zeros(80, dtype=int)
    y[[3, 30, 60]] = 1
    model = LogisticRegression().fit(X, (X[:, 0] > 0).astype(int))
    with pytest.warns(NarrowIntervalWarning) as caught:
        r = report(model, X, y, ci=0.95, n_boot=300, random_state=0)
    assert len([w for w in caught if w.category is NarrowIntervalWarning]) == 1
    assert "95% bootstrap intervals (expanded BCa; 300 resamples" in str(r)
    assert r.ci_method == "expanded_bca"
    with pytest.warns(NarrowIntervalWarning):
        r = report(model, X, y, ci=0.95, n_boot=300, random_state=0, ci_method="percentile")
    assert "(percentile; 300 resamples" in str(r)
