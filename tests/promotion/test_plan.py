"""Sample sizes against statsmodels and R, and the plan as a pre-registration."""

import math

import numpy as np
import pytest
from scipy.stats import norm

from chimeraboost import metrics
from chimeraboost.promotion import (
    ABTestPlan,
    ab_metric,
    plan_ab_test,
    sample_size_auc,
    sample_size_means,
    sample_size_proportions,
)
from chimeraboost.promotion._metrics import row_values

statsmodels = pytest.importorskip("statsmodels")
from statsmodels.stats.power import tt_ind_solve_power, zt_ind_solve_power  # noqa: E402
from statsmodels.stats.proportion import (  # noqa: E402
    power_proportions_2indep,
    samplesize_proportions_2indep_onetail,
)


def test_proportions_as_r_power_prop_test():
    # power.prop.test(p1 = .03, p2 = .02, power = .8) in R: n = 3825.15 per group.
    assert sample_size_proportions(0.02, 0.03) == pytest.approx(3825.15, abs=0.01)


@pytest.mark.parametrize("p0, p1, ratio, alternative", [
    (0.02, 0.03, 1.0, "two-sided"), (0.10, 0.12, 2.0, "two-sided"), (0.5, 0.45, 0.5, "two-sided"),
    (0.02, 0.03, 1.5, "one-sided"),
])
def test_proportions_equal_statsmodels(p0, p1, ratio, alternative):
    alt = "two-sided" if alternative == "two-sided" else ("larger" if p1 > p0 else "smaller")
    expected = samplesize_proportions_2indep_onetail(p1 - p0, p0, 0.8, ratio=ratio, alpha=0.05,
                                                     alternative=alt)
    got = sample_size_proportions(p0, p1, ratio=ratio, alternative=alternative)
    assert got == pytest.approx(expected, rel=1e-6)
    # and at that many rows statsmodels' power is the nominal one
    power = power_proportions_2indep(p1 - p0, p0, got, ratio=ratio, alpha=0.05,
                                     alternative=alt, return_results=False)
    assert power == pytest.approx(0.8, abs=1e-4)


@pytest.mark.parametrize("d, ratio, alternative", [
    (0.2, 1.0, "two-sided"), (0.5, 2.0, "two-sided"), (0.1, 0.5, "one-sided"),
])
def test_means_equal_statsmodels_z_and_t(d, ratio, alternative):
    alt = "two-sided" if alternative == "two-sided" else "larger"
    z = zt_ind_solve_power(d, nobs1=None, alpha=0.05, power=0.8, ratio=ratio, alternative=alt)
    t = tt_ind_solve_power(d, nobs1=None, alpha=0.05, power=0.8, ratio=ratio, alternative=alt)
    assert sample_size_means(d, 1.0, ratio=ratio, alternative=alternative) == pytest.approx(
        z, rel=1e-6)
    assert sample_size_means(d, 1.0, ratio=ratio, alternative=alternative, test="t") == \
        pytest.approx(t, rel=1e-6)
    # the scale of the metric does not matter, only the difference in standard deviations
    assert sample_size_means(3 * d, 3.0, ratio=ratio, alternative=alternative) == \
        pytest.approx(z, rel=1e-6)


def test_a_margin_uses_the_closed_form():
    # Chow et al. (2017), section 3.2: n1 = (z_{a/2} + z_b)^2 (s1^2 + s0^2 / r) / (d - m)^2,
    # one-sided (the far tail of a test against a margin is not counted).
    z = norm.isf(0.025) + norm.ppf(0.8)
    expected = z**2 * (1.5**2 + 1.0 / 2.0) / (0.3 - 0.1) ** 2
    got = sample_size_means(0.3, 1.0, sd_challenger=1.5, ratio=2.0, null=0.1,
                            alternative="one-sided", alpha=0.025)
    assert got == pytest.approx(expected, rel=1e-9)
    # proportions with a non-inferiority margin: the unpooled variance on both sides
    expected = z**2 * (0.1 * 0.9 + 0.1 * 0.9) / (0.0 + 0.02) ** 2
    assert sample_size_proportions(0.1, 0.1, null=-0.02) == pytest.approx(expected, rel=1e-9)


def test_auc_sample_size_is_hanley_mcneil():
    a, prev = 0.8, 0.2
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    c1 = (q2 - a * a) / prev + (q1 - a * a) / (1 - prev)
    a0 = 0.75
    q1, q2 = a0 / (2 - a0), 2 * a0 * a0 / (1 + a0)
    c0 = (q2 - a0 * a0) / prev + (q1 - a0 * a0) / (1 - prev)
    one_tail = (norm.isf(0.025) + norm.ppf(0.8)) ** 2 * (c0 + c1) / 0.05**2
    got = sample_size_auc(0.75, 0.80, prevalence=0.2)
    # the far tail adds a hair of power, so a hair fewer rows
    assert got == pytest.approx(one_tail, rel=1e-4) and got <= one_tail


def test_per_row_losses_average_to_the_library_metrics():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    p = rng.uniform(0.01, 0.99, 300)
    brier = row_values("brier", (y, p), "arm")
    log_loss = row_values("log_loss", (y, p), "arm")
    assert brier.mean() == pytest.approx(metrics.brier_score(y, p, [0, 1]), abs=1e-12)
    assert log_loss.mean() == pytest.approx(metrics.log_loss(y, p, [0, 1]), abs=1e-12)


def test_the_plan_from_offline_rows_uses_the_unpaired_variance():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 2000)
    p0 = np.clip(0.5 + 0.2 * (y - 0.5) + rng.normal(0, 0.2, 2000), 0.01, 0.99)
    p1 = np.clip(0.5 + 0.3 * (y - 0.5) + rng.normal(0, 0.2, 2000), 0.01, 0.99)
    m = ab_metric("brier", "brier", p0, p1, y=y)
    l0, l1 = 2 * (p0 - y) ** 2, 2 * (p1 - y) ** 2
    assert m.unit_champion == pytest.approx(np.var(l0, ddof=1), rel=1e-12)
    assert m.improvement == pytest.approx(l0.mean() - l1.mean(), rel=1e-12)
    plan = plan_ab_test(m, rows_per_day=100)
    expected = zt_ind_solve_power(1.0, nobs1=None, alpha=0.05, power=0.8)  # shape check only
    assert expected > 0
    d = l1.mean() - l0.mean()
    n = sample_size_means(d, np.std(l0, ddof=1), sd_challenger=np.std(l1, ddof=1))
    assert plan.n_challenger == math.ceil(n) and plan.days == math.ceil(2 * plan.n_challenger / 100)


def test_looks_inflate_the_rows_and_the_plan_round_trips_through_json(tmp_path):
    primary = ab_metric("conversion", "proportion", 0.10, 0.12)
    guard = ab_metric("revenue", "mean", np.arange(100.0), np.arange(100.0) + 1,
                      greater_is_better=True, margin=5.0)
    one = plan_ab_test(primary, guardrails=[guard])
    five = plan_ab_test(primary, guardrails=[guard], looks=5, challenger_share=0.2,
                        rows_per_day=1000)
    assert five.n_fixed == pytest.approx(
        sample_size_proportions(0.10, 0.12, ratio=4.0), abs=1)
    assert five.n_champion == math.ceil(five.n_challenger * 4 - 1e-9)
    assert one.n_challenger == math.ceil(sample_size_proportions(0.10, 0.12))
    np.testing.assert_allclose(five.bounds, [4.877, 3.357, 2.680, 2.290, 2.031], atol=2e-3)
    path = tmp_path / "plan.json"
    five.save(path)
    again = ABTestPlan.load(path)
    assert again.to_dict() == five.to_dict()
    assert "conversion" in str(again) and max(map(len, str(again).splitlines())) <= 120


@pytest.mark.parametrize("make, error, match", [
    (lambda: ab_metric("x", "proportion", 0.1, 0.2, margin=-0.01), ValueError,
     "pass 0.01"),
    (lambda: plan_ab_test(ab_metric("x", "proportion", 0.1, 0.2),
                          guardrails=[ab_metric("g", "proportion", 0.1, 0.1)]),
     ValueError, "needs a margin > 0"),
    (lambda: plan_ab_test(ab_metric("x", "proportion", 0.1, 0.2), rows_per_day=0),
     ValueError, "rows_per_day must be > 0"),
    (lambda: ab_metric("x", "mean", [1.0, 2.0], [2.0, 3.0]), TypeError, "greater_is_better"),
    (lambda: ab_metric("x", "roc_auc", 0.7, 0.8), ValueError, "prevalence"),
    (lambda: ab_metric("x", "brier", [0.1, 0.2], [0.2, 0.3], y=[1, 0, 1]), ValueError,
     "length|rows"),
    (lambda: ab_metric("x", "roc_auc", [0.1, 0.2], [0.2, 0.3], y=[1, 1]), ValueError,
     "one class"),
    (lambda: plan_ab_test(ab_metric("x", "proportion", 0.1, 0.11, margin=0.02)), ValueError,
     "not above its margin"),
    (lambda: ab_metric("x", "ratio", 0.1, 0.2), ValueError, "kind must be one of"),
    (lambda: sample_size_proportions(0.1, 0.1), ValueError, "equals null"),
])
def test_bad_input(make, error, match):
    with pytest.raises(error, match=match):
        make()


@pytest.mark.slow
def test_a_plan_of_thirty_looks_prints_within_120_columns():
    plan = plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.12), looks=30,
                        rows_per_day=1000)
    text = str(plan)
    assert max(map(len, text.splitlines())) <= 120 and "bounds on |z|: inf" in text


def test_design_effect_multiplies_the_rows_and_is_kept_in_the_plan(tmp_path):
    metric = ab_metric("conversion", "proportion", 0.10, 0.12)
    plain = plan_ab_test(metric, looks=3)
    # 4 rows per user, a within-user correlation of 0.2: 1 + 3 * 0.2 = 1.6.
    clustered = plan_ab_test(metric, looks=3, design_effect=1.6)
    assert plain.design_effect == 1.0 and "design effect" not in str(plain)
    assert clustered.n_fixed == math.ceil(sample_size_proportions(0.10, 0.12) * 1.6 - 1e-9)
    assert clustered.n_challenger == pytest.approx(1.6 * plain.n_challenger, abs=2)
    assert "design effect 1.6" in str(clustered)
    clustered.save(tmp_path / "plan.json")
    assert ABTestPlan.load(tmp_path / "plan.json") == clustered


@pytest.mark.parametrize("value, error, match", [
    (0.8, ValueError, r"design_effect must be >= 1 .* got 0.8; pass 1.0"),
    ("2", TypeError, r"design_effect"),
])
def test_bad_design_effect(value, error, match):
    with pytest.raises(error, match=match):
        plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.12), design_effect=value)
