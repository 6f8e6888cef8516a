"""read_ab_test randomised by user, several rows per user: groups_champion= and
groups_challenger=, against statsmodels' cluster-robust OLS and the groups-of-one property."""

import numpy as np
import pytest

from chimeraboost import resampling
from chimeraboost.exceptions import NarrowIntervalWarning
from chimeraboost.promotion import ab_metric, plan_ab_test, read_ab_test
from chimeraboost.promotion._metrics import arm_estimate, clustered_mean_variance


def _arm(users, mean, rng, spread=1.0):
    """Users with 1 to 9 rows each, a user's rows sharing the user's level."""
    rows = rng.integers(1, 10, users)
    user = np.repeat(np.arange(users), rows)
    x = mean + spread * np.repeat(rng.normal(size=users), rows) + rng.normal(size=user.size)
    return x, user


def _scored(users, rng, effect=0.0):
    """(y, probability) rows of users whose outcomes share the user's latent."""
    rows = rng.integers(1, 10, users)
    user = np.repeat(np.arange(users), rows)
    u = np.repeat(rng.normal(size=users), rows)
    p = 1 / (1 + np.exp(-(u + 0.5 * rng.normal(size=user.size))))
    y = (rng.random(user.size) < np.clip(p + effect, 0, 1)).astype(int)
    return (y, p), user


def test_the_standard_error_is_statsmodels_cluster_robust_ols():
    import statsmodels.api as sm

    rng = np.random.default_rng(0)
    x1, g1 = _arm(300, 0.2, rng)
    x0, g0 = _arm(280, 0.0, rng)
    plan = plan_ab_test(ab_metric("revenue", "mean", x0, x1, greater_is_better=True))
    r = read_ab_test(plan, {"revenue": x0}, {"revenue": x1}, groups_champion=g0,
                     groups_challenger=g1)
    y = np.r_[x0, x1]
    X = sm.add_constant(np.r_[np.zeros(x0.size), np.ones(x1.size)])
    fit = sm.OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": np.r_[g0, g1 + 10**6],
                                                         "use_correction": False})
    # statsmodels without its small-sample factor is sum_g (S_g - n_g mean)^2 / n^2 per
    # arm; ours carries each arm's G / (G - 1).
    v1, v0 = clustered_mean_variance(x1, g1)[0], clustered_mean_variance(x0, g0)[0]
    assert np.sqrt(v1 * 299 / 300 + v0 * 279 / 280) == pytest.approx(fit.bse[1], rel=1e-10)
    assert r.primary["se"] == pytest.approx(np.sqrt(v1 + v0), rel=1e-12)
    assert r.primary["improvement"] == pytest.approx(fit.params[1], rel=1e-10)
    assert r.groups == {"challenger": 300, "champion": 280}
    assert "groups challenger 300, champion 280" in str(r)


def test_clustered_variance_is_the_closed_form():
    x = np.array([1.0, 2.0, 3.0, 6.0, 4.0])
    g = np.array(["a", "a", "b", "b", "c"])
    # mean 3.2; S_g - n_g mean: 3 - 6.4, 9 - 6.4, 4 - 3.2 = -3.4, 2.6, 0.8
    expected = 3 / 2 * (3.4 ** 2 + 2.6 ** 2 + 0.8 ** 2) / 25
    assert clustered_mean_variance(x, g) == (pytest.approx(expected, rel=1e-14), 3)


@pytest.mark.parametrize("kind", ["proportion", "mean", "brier", "log_loss"])
def test_groups_of_one_row_give_the_readout_without_groups(kind):
    rng = np.random.default_rng(1)
    if kind == "proportion":
        plan = plan_ab_test(ab_metric("m", "proportion", 0.10, 0.12), looks=3)
        a0 = (rng.random(plan.n_champion) < 0.10).astype(float)
        a1 = (rng.random(plan.n_challenger) < 0.12).astype(float)
    elif kind == "mean":
        plan = plan_ab_test(ab_metric("m", "mean", rng.normal(size=400),
                                      rng.normal(0.1, 1, 400), greater_is_better=True),
                            looks=3)
        a0, a1 = rng.normal(size=plan.n_champion), rng.normal(0.1, 1, plan.n_challenger)
    else:
        (y0, p0), _ = _scored(300, rng)
        (y1, p1), _ = _scored(300, rng, 0.05)
        plan = plan_ab_test(ab_metric("m", kind, p0, 0.7 * p0 + 0.3 * y0, y=y0), looks=3)
        a0, a1 = (y0, p0), (y1, p1)
    n0 = a0[0].size if isinstance(a0, tuple) else a0.size
    n1 = a1[0].size if isinstance(a1, tuple) else a1.size
    look0, look1 = np.arange(n0) * 3 // n0, np.arange(n1) * 3 // n1
    plain = read_ab_test(plan, {"m": a0}, {"m": a1}, look_champion=look0,
                         look_challenger=look1)
    ones = read_ab_test(plan, {"m": a0}, {"m": a1}, look_champion=look0,
                        look_challenger=look1, groups_champion=np.arange(n0),
                        groups_challenger=np.arange(n1))
    assert ones.decision == plain.decision and ones.looks == plain.looks
    for key in ("improvement", "low", "high", "z", "se"):
        assert ones.primary[key] == pytest.approx(plain.primary[key], rel=1e-9), key


def test_roc_auc_uses_obuchowskis_clustered_delong():
    rng = np.random.default_rng(2)
    (y0, p0), g0 = _scored(200, rng)
    (y1, p1), g1 = _scored(220, rng)
    plan = plan_ab_test(ab_metric("auc", "roc_auc", p0, p0 + 0.5 * y0, y=y0, margin=0.02))
    r = read_ab_test(plan, {"auc": (y0, p0)}, {"auc": (y1, p1)}, groups_champion=g0,
                     groups_challenger=g1)
    se0 = resampling.delong_roc_auc(y0, p0, groups=g0).se
    se1 = resampling.delong_roc_auc(y1, p1, groups=g1).se
    assert r.primary["se"] == pytest.approx(np.hypot(se0, se1), rel=1e-12)
    # Groups of one row: Obuchowski's variance is DeLong's, each class's sample variance
    # S times (m - 1) / m, and the whole times I / (I - 1) for I rows:
    # I / (I - 1) [(M - 1) / M S10 / M + (N - 1) / N S01 / N].
    _, v_rows, n = arm_estimate("roc_auc", (y0, p0))
    _, v_ones, _ = arm_estimate("roc_auc", (y0, p0), np.arange(y0.size))
    from chimeraboost.promotion._metrics import structural_components

    v10, v01 = structural_components(y0, p0)
    m, k = v10.size, v01.size
    closed = n / (n - 1) * ((m - 1) / m * np.var(v10, ddof=1) / m
                            + (k - 1) / k * np.var(v01, ddof=1) / k)
    assert v_ones == pytest.approx(closed, rel=1e-10)
    assert v_ones == pytest.approx(v_rows, rel=0.02)


def test_grouped_interval_is_wider_when_users_bring_many_rows():
    rng = np.random.default_rng(3)
    x1, g1 = _arm(400, 0.1, rng, spread=1.5)
    x0, g0 = _arm(400, 0.0, rng, spread=1.5)
    plan = plan_ab_test(ab_metric("revenue", "mean", x0, x1, greater_is_better=True))
    rows = read_ab_test(plan, {"revenue": x0}, {"revenue": x1})
    grouped = read_ab_test(plan, {"revenue": x0}, {"revenue": x1}, groups_champion=g0,
                           groups_challenger=g1)
    width = grouped.primary["high"] - grouped.primary["low"]
    assert width > 1.5 * (rows.primary["high"] - rows.primary["low"])
    assert abs(grouped.primary["z"]) < abs(rows.primary["z"])


def test_the_pooled_proportion_test_is_inflated_by_each_arms_design_effect():
    rng = np.random.default_rng(4)
    plan = plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.12))

    def arm(users, p):
        rows = rng.integers(1, 8, users)
        user = np.repeat(np.arange(users), rows)
        rate = np.clip(np.repeat(rng.beta(2, 2 * (1 - p) / p, users), rows), 0, 1)
        return (rng.random(user.size) < rate).astype(float), user

    (a0, g0), (a1, g1) = arm(1500, 0.10), arm(1500, 0.12)
    r = read_ab_test(plan, {"conversion": a0}, {"conversion": a1}, groups_champion=g0,
                     groups_challenger=g1)
    pooled = (a0.sum() + a1.sum()) / (a0.size + a1.size)
    deff = [arm_estimate("proportion", a, g)[1] / (a.mean() * (1 - a.mean()) / a.size)
            for a, g in ((a0, g0), (a1, g1))]
    se = np.sqrt(pooled * (1 - pooled) * (deff[0] / a0.size + deff[1] / a1.size))
    assert min(deff) > 1.0
    assert r.primary["z"] == pytest.approx((a1.mean() - a0.mean()) / se, rel=1e-10)


def test_identical_arms_give_no_verdict_with_groups():
    rng = np.random.default_rng(5)
    x, g = _arm(300, 0.0, rng)
    plan = plan_ab_test(ab_metric("revenue", "mean", x, x + 0.1, greater_is_better=True))
    r = read_ab_test(plan, {"revenue": x}, {"revenue": x.copy()}, groups_champion=g,
                     groups_challenger=g)
    assert r.primary["improvement"] == 0.0 and r.primary["z"] == 0.0
    assert r.primary["status"] == "undecided" and r.decision != "promote"


def test_few_groups_warn():
    rng = np.random.default_rng(6)
    x1, g1 = _arm(12, 0.1, rng)
    x0, g0 = _arm(40, 0.0, rng)
    plan = plan_ab_test(ab_metric("revenue", "mean", x0, x1, greater_is_better=True))
    with pytest.warns(NarrowIntervalWarning, match="Only 12 in the challenger arm"):
        read_ab_test(plan, {"revenue": x0}, {"revenue": x1}, groups_champion=g0,
                     groups_challenger=g1)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"groups_champion": np.arange(6)}, ValueError,
     r"groups_champion= was given without groups_challenger="),
    ({"groups_challenger": np.arange(6)}, ValueError,
     r"groups_challenger= was given without groups_champion="),
    ({"groups_champion": np.arange(5), "groups_challenger": np.arange(6)}, ValueError,
     r"groups_champion has 5 values but there are 6 rows; pass one per row"),
    ({"groups_champion": [1, 1, 2, 2, np.nan, 3], "groups_challenger": np.arange(6)},
     ValueError, r"groups_champion has 1 missing value"),
    ({"groups_champion": np.arange(6), "groups_challenger": np.zeros(6)}, ValueError,
     r"groups_challenger holds one group \(0.0\) for all 6 rows.*groups_challenger=None"),
    ({"groups_champion": np.arange(6), "groups_challenger": np.ones((6, 2))}, ValueError,
     r"groups_challenger must be one value per row \(1-D\)"),
])
def test_bad_groups(kwargs, error, match):
    plan = plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.12))
    arm = {"conversion": np.array([0, 1, 0, 0, 1, 0], dtype=float)}
    with pytest.raises(error, match=match):
        read_ab_test(plan, arm, arm, **kwargs)
