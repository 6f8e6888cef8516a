"""Every resampled number of the decisions comes from one resampling scheme: intervals follow
``ci_method`` (the percentile one against numpy's quantiles of the documented replicates),
whole groups and time blocks are resampled, and the inputs that would give a silent wrong
number are refused."""

import numpy as np
import pytest

from chimeraboost import decisions, resampling


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 3, n).round(3)
    y = (rng.random(n) < p).astype(int)
    q = np.clip(p + rng.normal(0, 0.15, n), 0, 1).round(3)
    return y, p, q


def _clustered(g=40, m=10, seed=0):
    """``g`` customers with ``m`` rows each; the outcome is mostly the customer's."""
    rng = np.random.default_rng(seed)
    x = np.repeat(rng.normal(size=g), m)
    u = np.repeat(rng.normal(size=g), m)
    latent = 1.2 * x - 0.8 + np.sqrt(0.9) * u + np.sqrt(0.1) * rng.normal(size=g * m)
    y = (latent > 0).astype(int)
    from scipy.stats import norm

    p = norm.cdf((1.2 * x - 0.8) / np.sqrt(1.0))
    return y, p, np.repeat(np.arange(g), m)


def _counts(n, n_boot, seed):
    return np.vstack(list(resampling.bootstrap_counts(n, n_boot, random_state=seed)))


# ----------------------------------------------------------------- intervals follow ci_method


def test_rates_bootstrap_percentile_is_numpys_quantile_of_the_replicates():
    y, p, _ = _data()
    w = np.random.default_rng(1).uniform(0.5, 2.0, y.shape[0])
    r = decisions.rates_at_threshold(y, p, 0.3, sample_weight=w, method="bootstrap",
                                     n_boot=1000, random_state=4, ci_method="percentile")
    treated = p >= 0.3
    reps = [np.sum(c * w * (treated & (y == 1))) / np.sum(c * w * (y == 1))
            for c in _counts(y.shape[0], 1000, 4)]
    lo, hi = np.quantile(reps, [0.025, 0.975])
    assert r.intervals["sensitivity"].low == pytest.approx(lo, abs=1e-12)
    assert r.intervals["sensitivity"].high == pytest.approx(hi, abs=1e-12)


def test_choose_threshold_percentile_is_the_basic_interval_of_the_pivot():
    from chimeraboost.decisions._threshold import _FIXED, _ChoiceEvaluator

    y, p, _ = _data()
    c = decisions.choose_threshold(y, p, cost_fp=1, cost_fn=4, n_boot=1000, random_state=2,
                                   ci_method="percentile")
    ev = _ChoiceEvaluator(y.astype(bool), p, None, "cost", decisions.Costs(0, 1, 4, 0), None,
                          None)
    out = [ev.evaluate(cnt[None, :]) for cnt in _counts(y.shape[0], 1000, 2)]
    delta = np.array([0.368 * (o["original"][0] - o["apparent"][0])
                      + 0.632 * (o["oob"][0] - o["apparent"][0]) for o in out])
    lo, hi = np.quantile(delta, [0.025, 0.975])
    assert c.interval.low == pytest.approx(c.apparent + lo, abs=1e-12)
    assert c.interval.high == pytest.approx(c.apparent + hi, abs=1e-12)
    fixed = np.quantile([o[_FIXED][0] for o in out], [0.025, 0.975])
    np.testing.assert_allclose(tuple(c.naive_interval), fixed, atol=1e-12)


@pytest.mark.parametrize("method", ["bca", "expanded_bca", "expanded_percentile"])
def test_decision_intervals_are_read_by_ci_method(method):
    # The decision report's number is the resampling engine's interval of the same
    # evaluator by the same method (the jackknife of the same scheme), not a percentile.
    y, p, _ = _data()
    d = decisions.decision_report(y, p, threshold=0.3, n_boot=1000, random_state=5,
                                  ci_method=method)
    ev = decisions.DecisionEvaluator(y.astype(bool), p, [0.3],
                                     names={"net_benefit", "net_benefit_all",
                                            *decisions._rates.RATES})
    boot = resampling.bootstrap(ev, n_boot=1000, random_state=5, ci_method=method)
    lo, hi = boot.interval("net_benefit@0.3", level=0.95)
    assert (d.actions["model"]["net_benefit_low"], d.actions["model"]["net_benefit_high"]) \
        == pytest.approx((lo, hi), abs=1e-14)
    pct = decisions.decision_report(y, p, threshold=0.3, n_boot=1000, random_state=5,
                                    ci_method="percentile")
    assert pct.actions["model"]["net_benefit_low"] != d.actions["model"]["net_benefit_low"]
    dc = decisions.decision_curve(y, p, thresholds=[0.3], n_boot=1000, random_state=5,
                                  ci_method=method)
    assert (dc.low["model"][0], dc.high["model"][0]) == pytest.approx((lo, hi), abs=1e-14)
    assert dc.ci_method == method and d.ci_method == method


# ----------------------------------------------------------------- groups and time


def _widths(**kw):
    y, p, q = kw.pop("data")
    d = decisions.decision_report(y, p, baseline_proba=q, threshold=0.3, n_boot=2000,
                                  name="p", baseline_name="q", **kw)
    dc = decisions.decision_curve(y, p, thresholds=[0.2, 0.4], n_boot=1000, **kw)
    band = decisions.curve_band(y, p, grid=[0.2, 0.5], n_boot=1000, **kw)
    a = d.actions["p"]
    return d, np.array([a["net_benefit_high"] - a["net_benefit_low"],
                        d.differences["q"]["net_benefit_high"]
                        - d.differences["q"]["net_benefit_low"],
                        *(dc.high["model"] - dc.low["model"]), *(band.high - band.low)])


@pytest.mark.slow
def test_groups_of_one_row_are_rows_within_monte_carlo_error():
    y, p, q = _data(400, seed=3)
    rows, w_rows = _widths(data=(y, p, q), random_state=0)
    ones, w_ones = _widths(data=(y, p, q), random_state=1, groups=np.arange(400)[::-1])
    assert ones.actions["p"]["net_benefit"] == rows.actions["p"]["net_benefit"]
    assert ones.units == "groups" and rows.units == "rows"
    np.testing.assert_allclose(w_ones, w_rows, rtol=0.15)


@pytest.mark.slow
def test_whole_groups_widen_the_interval_of_a_clustered_design():
    y, p, g = _clustered()
    q = np.clip(p + np.random.default_rng(9).normal(0, 0.1, p.shape[0]), 0, 1)
    _, rows = _widths(data=(y, p, q), random_state=0)
    _, grouped = _widths(data=(y, p, q), random_state=0, groups=g)
    assert np.all(grouped > 1.3 * rows)
    r_rows = decisions.rates_at_threshold(y, p, 0.3, method="bootstrap", n_boot=1000,
                                          random_state=0)
    r_groups = decisions.rates_at_threshold(y, p, 0.3, n_boot=1000, random_state=0, groups=g)
    assert r_groups.method == "bootstrap"
    width = [r.intervals["flagged"].high - r.intervals["flagged"].low
             for r in (r_rows, r_groups)]
    assert width[1] > 1.5 * width[0]
    c_rows = decisions.choose_threshold(y, p, cost_fp=1, cost_fn=3, n_boot=1000,
                                        random_state=0)
    c_groups = decisions.choose_threshold(y, p, cost_fp=1, cost_fn=3, n_boot=1000,
                                          random_state=0, groups=g)
    assert c_groups.threshold == c_rows.threshold
    assert np.diff(c_groups.naive_interval)[0] > 1.3 * np.diff(c_rows.naive_interval)[0]


def test_time_blocks_are_resampled():
    y, p, _ = _data(300, seed=6)
    d = decisions.decision_report(y, p, threshold=0.3, n_boot=1000, random_state=0,
                                  time=np.arange(300) // 3)
    assert d.units == "time" and "time blocks" in str(d)
    assert d.actions["model"]["net_benefit_low"] < d.actions["model"]["net_benefit"] \
        < d.actions["model"]["net_benefit_high"]


_CALLS = {
    "decision_report": lambda y, p, **kw: decisions.decision_report(y, p, threshold=0.3,
                                                                    n_boot=1000, **kw),
    "decision_curve": lambda y, p, **kw: decisions.decision_curve(
        y, p, thresholds=[0.3], n_boot=1000, **kw),
    "curve_band": lambda y, p, **kw: decisions.curve_band(y, p, n_boot=1000, **kw),
    "choose_threshold": lambda y, p, **kw: decisions.choose_threshold(
        y, p, cost_fp=1, cost_fn=3, n_boot=1000, **kw),
    "rates_at_threshold": lambda y, p, **kw: decisions.rates_at_threshold(
        y, p, 0.3, n_boot=1000, **kw),
}


@pytest.mark.parametrize("call", list(_CALLS))
@pytest.mark.parametrize("bad, match", [
    ({"groups": np.arange(5)}, "groups has 5 values but there are 60 rows"),
    ({"groups": np.r_[np.nan, np.arange(59.0)]}, "groups has 1 missing value"),
    ({"groups": np.zeros(60)}, "groups holds one group"),
    ({"time": np.r_[np.nan, np.arange(59.0)]}, "time has 1 missing value"),
])
def test_bad_groups_and_time_are_refused_everywhere(call, bad, match):
    y, p, _ = _data(60)
    with pytest.raises(ValueError, match=match):
        _CALLS[call](y, p, **bad)


# ----------------------------------------------------------------- silent wrong numbers


@pytest.mark.parametrize("call, match", [
    (lambda y, p: decisions.decision_curve(y, {"treat all": p, "b": p}, thresholds=[0.3],
                                           n_boot=0), "a key of proba is 'treat all'"),
    (lambda y, p: decisions.decision_curve(y, {"Treat None": p}, thresholds=[0.3], n_boot=0),
     "a key of proba is 'Treat None'"),
    (lambda y, p: decisions.decision_report(y, p, threshold=0.3, name="treat none",
                                            n_boot=1000), "name is 'treat none'"),
    (lambda y, p: decisions.decision_report(y, p, baseline_proba=p, threshold=0.3,
                                            baseline_name="treat all", n_boot=1000),
     "baseline_name is 'treat all'"),
])
def test_a_model_named_like_a_built_in_row_is_refused(call, match):
    y, p, _ = _data(60)
    with pytest.raises(ValueError, match=match + ", the name of a built-in row"):
        call(y, p)


@pytest.mark.parametrize("call, arg", [
    (lambda y, p, t: decisions.rates_at_threshold(y, p, t), "threshold"),
    (lambda y, p, t: decisions.decision_report(y, p, threshold=t, n_boot=1000), "threshold"),
    (lambda y, p, t: decisions.choose_threshold(y, p, objective="net_benefit", at=t,
                                                n_boot=1000), "at"),
])
@pytest.mark.parametrize("several", [[0.2, 0.3], np.array([0.2, 0.3]), [0.2]])
def test_several_thresholds_are_refused_not_cut_to_the_first(call, arg, several):
    y, p, _ = _data(60)
    with pytest.raises(TypeError, match=f"{arg} must be one number in \\(0, 1\\)"):
        call(y, p, several)


@pytest.mark.parametrize("scale", [1e-6, 1e6, 1e12])
def test_intervals_do_not_change_with_the_scale_of_the_weights(scale):
    y, p, q = _data(200, seed=7)
    w = np.random.default_rng(3).integers(1, 4, y.shape[0])
    for method in ("auto", "bootstrap"):
        a = decisions.rates_at_threshold(y, p, 0.3, sample_weight=w, n_boot=1000,
                                         random_state=0, method=method)
        b = decisions.rates_at_threshold(y, p, 0.3, sample_weight=w * scale, n_boot=1000,
                                         random_state=0, method=method)
        for rate in a.rates:
            # Not to the last bit: a replicate equal to the estimate at one scale can round
            # a hair off it at another, and BCa's bias correction counts such ties.
            np.testing.assert_allclose(tuple(b.intervals[rate]), tuple(a.intervals[rate]),
                                       atol=2e-3)
            assert b.intervals[rate].high - b.intervals[rate].low > 0.02
    # Equal weights say nothing about how many rows there are: Wilson on the rows.
    same = decisions.rates_at_threshold(y, p, 0.3, sample_weight=np.full(200, scale))
    assert same.method == "wilson"
    assert same.intervals == decisions.rates_at_threshold(y, p, 0.3).intervals
    for method, tol in (("percentile", 1e-12), ("expanded_bca", 2e-3)):
        d = [decisions.decision_report(y, p, baseline_proba=q, threshold=0.3, sample_weight=v,
                                       n_boot=1000, random_state=0, ci_method=method)
             for v in (w, w * scale)]
        np.testing.assert_allclose(d[1].differences["baseline"]["net_benefit_low"],
                                   d[0].differences["baseline"]["net_benefit_low"], atol=tol)


@pytest.mark.parametrize("costs, expected", [
    (decisions.Costs(0, 1, 3, 0), 0.25),
    ({"fp": 1, "fn": 3}, 0.25),
    ([[0, 1], [3, 0]], 0.25),
    ({"fp": 1e308, "fn": 1e308}, 0.5),
    (decisions.Costs(0, 1e308, 3e307, 0), 1e308 / 1.3e308),
    (decisions.Costs(-1, 1, 3, -2), 2 / 7),  # benefits: regrets 2 and 5
])
def test_bayes_threshold_is_the_closed_form_of_every_form_of_costs(costs, expected):
    assert decisions.bayes_threshold(costs) == pytest.approx(expected, rel=1e-15)


def test_huge_costs_give_the_costs_of_unit_costs_scaled():
    y, p, _ = _data(100)
    huge = decisions.expected_cost(y, p, cost_fp=1e308, cost_fn=1e308)
    unit = decisions.expected_cost(y, p, cost_fp=1, cost_fn=1)
    assert huge.bayes_threshold == 0.5 and huge.threshold == 0.5
    for name in ("expected_cost", "treat_all", "treat_none", "best_cost"):
        assert getattr(huge, name) == pytest.approx(1e308 * getattr(unit, name), rel=1e-12)


@pytest.mark.parametrize("call, error, match", [
    (lambda: decisions.bayes_threshold(decisions.Costs(0, -1, 3, 0)), ValueError,
     "a correct decision costs more than the wrong one"),
    (lambda: decisions.bayes_threshold(decisions.Costs(0, 0, 0, 0)), ValueError,
     "every decision costs the same"),
    (lambda: decisions.bayes_threshold(decisions.Costs(0, np.inf, 1, 0)), ValueError,
     "costs.fp must be a finite number"),
    (lambda: decisions.bayes_threshold({"fp": 1, "fn": 0}), ValueError,
     "imply the threshold 1: treat no row"),
    (lambda: decisions.bayes_threshold({"fp": 1}), ValueError, "lacks 'fn'"),
    (lambda: decisions.expected_cost([0, 1], [0.2, 0.7], costs={"fp": 1}), ValueError,
     "lacks 'fn'"),
    (lambda: decisions.expected_cost([0, 1], [0.2, 0.7], costs={"tn": 0}), ValueError,
     "lacks 'fp' and 'fn'"),
    (lambda: decisions.expected_cost([0, 1], [0.2, 0.7], cost_fp=1), TypeError,
     "cost_fn is missing; pass both"),
    (lambda: decisions.expected_cost([0, 1], [0.2, 0.7], costs={"fp": 0, "fn": 1}),
     ValueError, "imply the threshold 0: treat every row"),
])
def test_costs_that_define_no_threshold_are_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_costs_without_a_threshold_still_cost_at_a_given_one():
    # One error free: no Bayes threshold, but a given threshold still has a cost.
    r = decisions.expected_cost([0, 1, 1], [0.2, 0.7, 0.4], costs={"fp": 0, "fn": 1},
                                threshold=0.5)
    assert r.bayes_threshold == 0.0 and r.expected_cost == pytest.approx(1 / 3)


def test_decision_curve_refuses_probabilities_as_the_baselines_name():
    y, p, q = _data(60, seed=8)
    with pytest.raises(TypeError, match="baseline_name names the model the others are judged"):
        decisions.decision_curve(y, p, thresholds=[0.2], baseline_name=q, n_boot=0)


@pytest.mark.parametrize("ci_method", resampling.CI_METHODS)
@pytest.mark.parametrize("seed", [0, 1])
def test_identical_models_differ_by_exactly_zero_with_no_verdict(ci_method, seed):
    y, p, _ = _data(150, seed=seed)
    # Equal to rounding (the library's tie rule, 1e-12 relative) is identical.
    twin = p * (1 + 1e-14) if seed else p.copy()
    d = decisions.decision_report(y, p, baseline_proba=twin, cost_fp=1, cost_fn=3,
                                  n_boot=1000, random_state=seed, ci_method=ci_method)
    for metric in ("net_benefit", "expected_cost"):
        diff = d.differences["baseline"]
        assert (diff[metric], diff[f"{metric}_low"], diff[f"{metric}_high"]) == (0, 0, 0)
        assert d.verdict("baseline", metric=metric) == "no clear difference"
    dc = decisions.decision_curve(y, {"model": p, "twin": twin}, thresholds=[0.2, 0.5],
                                  baseline_name="twin", n_boot=1000, random_state=seed,
                                  ci_method=ci_method)
    for part in (dc.difference, dc.diff_low, dc.diff_high):
        np.testing.assert_array_equal(part["model"], 0.0)


def test_a_pandas_groups_with_another_index_than_y_is_refused():
    pd = pytest.importorskip("pandas")
    y, p, _ = _data(60)
    ys = pd.Series(y, index=np.arange(60))
    groups = pd.Series(np.arange(60) // 2, index=np.arange(60)[::-1])
    with pytest.raises(ValueError, match="y and groups carry different pandas indexes"):
        decisions.decision_report(ys, p, threshold=0.3, n_boot=1000, groups=groups)
    same = pd.Series(np.arange(60) // 2, index=np.arange(60))
    assert decisions.decision_report(ys, p, threshold=0.3, n_boot=1000, random_state=0,
                                     groups=same).units == "groups"


def test_the_decision_reports_rates_are_those_of_rates_at_threshold():
    # One sensitivity, one interval: the rule of rates_at_threshold(method="auto").
    y, p, _ = _data(200, seed=9)
    w = np.random.default_rng(0).uniform(0.5, 2, 200)
    for kw in ({}, {"sample_weight": w}, {"groups": np.arange(200) // 4}):
        d = decisions.decision_report(y, p, threshold=0.3, n_boot=1000, random_state=0, **kw)
        r = decisions.rates_at_threshold(y, p, 0.3, n_boot=1000, random_state=0, **kw)
        assert d.rates_method == r.method
        for rate, (value, lo, hi) in d.rates.items():
            assert value == r.rates[rate]
            # The bootstrap's replicates are the report's own (same scheme, same seed).
            assert (lo, hi) == pytest.approx(tuple(r.intervals[rate]), abs=1e-14)
