"""The readout: the plan's metric, every look counted, one of three decisions."""

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

from chimeraboost import resampling
from chimeraboost.promotion import ab_metric, plan_ab_test, read_ab_test
from chimeraboost.promotion._metrics import arm_estimate, row_values

Z = norm.isf(0.025)


def _plan(**kw):
    return plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.12), **kw)


def _arms(plan, p0, p1, seed=0, frac=1.0):
    rng = np.random.default_rng(seed)
    n0, n1 = int(plan.n_champion * frac), int(plan.n_challenger * frac)
    return ({"conversion": (rng.random(n0) < p0).astype(float)},
            {"conversion": (rng.random(n1) < p1).astype(float)})


def test_one_look_at_the_planned_rows_gives_the_wald_interval():
    plan = _plan()
    champion, challenger = _arms(plan, 0.10, 0.12)
    r = read_ab_test(plan, champion, challenger)
    a, b = challenger["conversion"], champion["conversion"]
    se = np.sqrt(a.mean() * (1 - a.mean()) / a.size + b.mean() * (1 - b.mean()) / b.size)
    d = a.mean() - b.mean()
    assert r.primary["improvement"] == pytest.approx(d, abs=1e-15)
    assert (r.primary["low"], r.primary["high"]) == pytest.approx((d - Z * se, d + Z * se),
                                                                  abs=1e-12)
    assert r.looks == 1 and r.decision in ("promote", "keep the champion")


def test_statsmodels_wald_interval_agrees():
    from statsmodels.stats.proportion import confint_proportions_2indep

    plan = _plan()
    champion, challenger = _arms(plan, 0.10, 0.12, seed=3)
    r = read_ab_test(plan, champion, challenger)
    a, b = challenger["conversion"], champion["conversion"]
    low, high = confint_proportions_2indep(a.sum(), a.size, b.sum(), b.size, method="wald")
    assert (r.primary["low"], r.primary["high"]) == pytest.approx((low, high), abs=1e-12)


def test_the_three_decisions():
    plan = _plan(looks=5)
    assert read_ab_test(plan, *_arms(plan, 0.10, 0.20)).decision == "promote"
    assert read_ab_test(plan, *_arms(plan, 0.20, 0.10)).decision == "keep the champion"
    early = read_ab_test(plan, *_arms(plan, 0.10, 0.105, frac=0.3))
    assert early.decision == "keep testing"
    assert early.rows_needed == {"challenger": plan.n_challenger - early.rows["challenger"],
                                 "champion": plan.n_champion - early.rows["champion"]}
    # the same outcomes in both arms at the planned rows: z = 0, not shown better
    same = np.r_[np.ones(plan.n_champion // 10), np.zeros(plan.n_champion
                                                          - plan.n_champion // 10)]
    r = read_ab_test(plan, {"conversion": same}, {"conversion": same.copy()})
    assert r.decision == "keep the champion" and r.primary["improvement"] == 0.0


def test_looks_are_counted_and_stop_at_the_first_crossing():
    plan = _plan(looks=10)
    champion, challenger = _arms(plan, 0.10, 0.30)
    days0 = np.arange(plan.n_champion) * 10 // plan.n_champion
    days1 = np.arange(plan.n_challenger) * 10 // plan.n_challenger
    r = read_ab_test(plan, champion, challenger, look_champion=days0, look_challenger=days1)
    crossed = [abs(h["z"]) >= h["bound"] for h in r.history]
    assert r.looks == len(r.history) and crossed[-1] and not any(crossed[:-1])
    assert r.decision == "promote" and r.looks < 10
    # the interval at the stopping look is wider than the fixed one (the look's bound)
    assert r.history[-1]["bound"] > Z


def test_a_failing_guardrail_keeps_the_champion():
    rng = np.random.default_rng(0)
    guard = ab_metric("latency", "mean", rng.normal(100, 10, 500), rng.normal(100, 10, 500),
                      greater_is_better=False, margin=1.0)
    plan = plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.12), guardrails=[guard])
    champion, challenger = _arms(plan, 0.10, 0.20)
    champion["latency"] = rng.normal(100, 10, plan.n_champion)
    challenger["latency"] = rng.normal(110, 10, plan.n_challenger)
    r = read_ab_test(plan, champion, challenger)
    assert r.decision == "keep the champion" and "latency" in r.reason
    assert r.metrics[1]["status"] == "fails"
    assert max(map(len, str(r).splitlines())) <= 120


def test_auc_arm_is_sklearn_and_its_variance_delongs():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    s = y + rng.normal(0, 1.5, 400)
    s[:50] = np.round(s[:50])  # ties
    v = row_values("roc_auc", (y, s), "arm")
    auc, var, n = arm_estimate("roc_auc", v)
    assert auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert np.sqrt(var) == pytest.approx(resampling.delong_roc_auc(y, s).se, rel=1e-9)


def test_bad_input():
    plan = _plan()
    champion, challenger = _arms(plan, 0.10, 0.12)
    with pytest.raises(ValueError, match="not the plan's primary metric 'conversion'"):
        read_ab_test(plan, champion, challenger, primary="revenue")
    with pytest.raises(ValueError, match="primary metric 'conversion' is not in challenger"):
        read_ab_test(plan, champion, {"revenue": np.ones(10)})
    with pytest.raises(ValueError, match="look_champion has 3 rows"):
        read_ab_test(plan, champion, challenger, look_champion=[1, 2, 3])
    with pytest.raises(ValueError, match="0/1 outcomes"):
        read_ab_test(plan, {"conversion": np.full(10, 2.0)}, challenger)
    auc = plan_ab_test(ab_metric("auc", "roc_auc", 0.7, 0.75, prevalence=0.3))
    with pytest.raises(ValueError, match="one class"):
        read_ab_test(auc, {"auc": (np.ones(20), np.arange(20.0))},
                     {"auc": (np.r_[np.ones(10), np.zeros(10)], np.arange(20.0))})
    with pytest.raises(TypeError, match="ABTestPlan"):
        read_ab_test({"primary": "conversion"}, champion, challenger)
