"""A paired difference of a decision that rests on fewer than MIN_DISCORDANT units on which the
two models decide differently: its interval is the hull of the bootstrap's and the bound that
the Clopper-Pearson limit of the share of such units allows, with a NarrowIntervalWarning.
From MIN_DISCORDANT units on, the expanded intervals are read symmetrically about the estimate
with at most k - 1 degrees of freedom (k such units), on every surface, silently; the plain
methods and identical models are left as they were."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.stats import binomtest
from scipy.stats import t as student_t
from sklearn.base import BaseEstimator, ClassifierMixin

from chimeraboost import compare, decisions, report, resampling
from chimeraboost.exceptions import NarrowIntervalWarning

T = 0.2
NB = f"net_benefit@{T!r}"
N = 400


def _data(k, seed=0):
    """400 rows; model B's probabilities are A's moved by a little (never across 0.2), and
    across 0.2 on ``k`` rows: the two decide differently on exactly ``k`` rows."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.01, 0.99, N)
    y = (rng.uniform(size=N) < p).astype(int)
    q = np.clip(p * (1 + 0.01 * rng.uniform(size=N)), 0, 0.99)
    q[(p < T) & (q >= T)] = p[(p < T) & (q >= T)]
    flip = rng.choice(np.flatnonzero(p > 0.3), size=k, replace=False)
    q[flip] = 0.1
    assert np.sum((p >= T) != (q >= T)) == k
    return y, p, q


def _paired(y, p, q, seed=1, **units):
    evs = [decisions.DecisionEvaluator(y, s, [T], names={"net_benefit"}) for s in (p, q)]
    a, b = resampling.joint_bootstrap(evs, n_boot=1000, random_state=seed, **units)
    return resampling.PairedBootstrapResult(a, b)


def _alone(res, key=NB, level=0.95, method=None):
    """The interval the replicates alone give (what every surface showed before the rules)."""
    return resampling.bootstrap_interval(
        res.replicates[key], res.estimate[key], level=level,
        method=res.ci_method if method is None else method,
        jackknife=res.jackknife[key], n_rows=res.n_rows, events=res.events)


def _clopper_pearson_high(k, n, level=0.95):
    return binomtest(k, n).proportion_ci(confidence_level=level, method="exact").high


def _holds(low, high, bound):
    """``[low, high]`` holds ``[-bound, bound]`` (to scipy's and our beta quantiles'
    rounding)."""
    return low <= -bound * (1 - 1e-9) and high >= bound * (1 - 1e-9)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_few_discordant_rows_widen_to_the_clopper_pearson_bound(k):
    y, p, q = _data(k)
    res = _paired(y, p, q)
    # Net benefit at 0.2: a row moves the difference by at most max(1, 0.2/0.8) = 1 over the
    # mean row weight 1, so the bound is the Clopper-Pearson limit of k of 400 rows.
    bound = _clopper_pearson_high(k, N)
    lo, hi = _alone(res)
    with pytest.warns(NarrowIntervalWarning,
                      match=rf"decide differently on {k} of {N} rows at threshold 0\.2"):
        got = res.interval(NB)
    assert got == pytest.approx((min(lo, -bound), max(hi, bound)), rel=1e-9, abs=1e-15)
    assert got[0] <= 0 <= got[1] and got[0] <= res.estimate[NB] <= got[1]
    assert res.discordance(NB).k == k


def _symmetric(res, key=NB, level=0.95):
    """The closed form: ``estimate +- sqrt((nu + 1) / nu) t_nu(0.975) sd(replicates)`` with
    ``nu`` the jackknife's degrees of freedom, never above ``k - 1``."""
    k = res.discordant_units(key)
    nu = resampling.effective_df(res.jackknife[key], res.n_rows, events=res.events)
    nu = max(min(nu, k - 1.0), 1.0)
    half = np.sqrt((nu + 1) / nu) * student_t.ppf((1 + level) / 2, nu) * \
        np.std(res.replicates[key], ddof=1)
    return res.estimate[key] - half, res.estimate[key] + half


def test_enough_discordant_rows_read_the_expanded_interval_symmetrically():
    k = resampling.MIN_DISCORDANT + 20
    y, p, q = _data(k)
    res = _paired(y, p, q)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning of any kind
        got = res.interval(NB)
    assert res.discordant_units(NB) == k and res.discordance(NB) is None
    assert got == pytest.approx(_symmetric(res), rel=1e-12)
    assert res.effective_df(NB) <= k - 1


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_the_plain_methods_are_left_as_the_replicates_give_them(method):
    y, p, q = _data(resampling.MIN_DISCORDANT + 20)
    res = _paired(y, p, q)
    assert tuple(res.interval(NB, method=method)) == tuple(_alone(res, method=method))


def _one_sided(k, seed=0):
    """400 rows; B refuses ``k`` rows A treats, every one a negative: each moves A - B by
    -0.25 / 400, so the sample says the difference is negative and its replicates lean low
    (a count of those rows is skewed to the right), though rows like them may be positive."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.01, 0.99, N)
    y = (rng.uniform(size=N) < p).astype(int)
    q = p.copy()
    q[rng.choice(np.flatnonzero((p > 0.3) & (y == 0)), size=k, replace=False)] = 0.1
    return y, p, q


def test_a_one_sided_sparse_difference_widens_toward_the_side_the_sample_lacks():
    k = 6
    y, p, q = _one_sided(k)
    res = _paired(y, p, q)
    assert res.estimate[NB] == pytest.approx(-k * 0.25 / N, rel=1e-12)
    old_lo, old_hi = _alone(res, method="expanded_bca")
    lo, hi = res.interval(NB)
    est = res.estimate[NB]
    # Before: the interval followed the replicates' lean, longer below than above.
    assert est - old_lo > old_hi - est
    # Now: as far above as below, so the upper end rises toward 0 and past it.
    assert hi - est == pytest.approx(est - lo, rel=1e-12)
    assert hi > old_hi and hi > 0
    assert (lo, hi) == pytest.approx(_symmetric(res), rel=1e-12)
    # Six units: at most five degrees of freedom.
    assert res.effective_df(NB) <= k - 1


def test_effective_df_is_capped_by_the_discordant_units_from_the_minimum_on():
    rng = np.random.default_rng(0)
    jack = rng.standard_normal(200)
    free = resampling.effective_df(jack, 200)
    assert free > 50
    assert resampling.effective_df(jack, 200, discordant=9) == 8.0
    # Below MIN_DISCORDANT the interval is widened by its own rule, not read with fewer df.
    assert resampling.effective_df(jack, 200, discordant=resampling.MIN_DISCORDANT - 1) == free
    assert resampling.effective_df(jack, 200, events=5, discordant=9) == 4.0


def test_every_surface_reads_a_sparse_difference_the_same_way():
    y, p, q = _data(10)
    res = _paired(y, p, q, seed=0)
    want = _symmetric(res)
    assert res.interval(NB) == pytest.approx(want, rel=1e-12)
    d = decisions.decision_report(y, p, baseline_proba=q, threshold=T, n_boot=1000,
                                  random_state=0).differences["baseline"]
    c = decisions.decision_curve(y, {"a": p, "b": q}, thresholds=[T], baseline_name="b",
                                 n_boot=1000, random_state=0)
    t = compare.holdout_table({"a": q, "b": p}, np.zeros((N, 1)), y, primary=NB,
                              n_boot=1000, random_state=0).rows["b"]
    for got in ((d["net_benefit_low"], d["net_benefit_high"]),
                (c.diff_low["a"][0], c.diff_high["a"][0]), (t["diff_low"], t["diff_high"])):
        assert got == pytest.approx(want, rel=1e-12)


def test_identical_models_keep_a_zero_difference_and_say_nothing():
    y, p, _ = _data(0)
    res = _paired(y, p, p.copy())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tuple(res.interval(NB)) == (0.0, 0.0)
    assert res.estimate[NB] == 0.0


def test_units_are_groups_when_groups_are_resampled():
    # 40 groups of 10 rows; B decides differently on every row of groups 3 and 17 only.
    rng = np.random.default_rng(4)
    g = np.repeat(np.arange(40), 10)
    p = np.repeat(rng.uniform(0.3, 0.9, 40), 10)
    y = (rng.uniform(size=400) < p).astype(int)
    q = p * 0.99
    q[np.isin(g, [3, 17])] = 0.1
    res = _paired(y, p, q, groups=g)
    # The most a group moves the net benefit: its positives + 0.25 x its negatives, over the
    # mean group weight (10 rows).
    cap = np.bincount(g, weights=np.where(y == 1, 1.0, T / (1 - T))).max() / 10
    bound = _clopper_pearson_high(2, 40) * cap
    lo, hi = _alone(res)
    with pytest.warns(NarrowIntervalWarning, match=r"on 2 of 40 groups at threshold 0\.2"):
        got = res.interval(NB)
    assert got == pytest.approx((min(lo, -bound), max(hi, bound)), rel=1e-9, abs=1e-15)


def test_rates_count_only_the_rows_of_their_class():
    # Sensitivity moves only with positive rows: B treats two positives and one negative
    # differently, so the difference rests on 2 of the positives.
    y, p, q = _data(0, seed=3)
    pos, neg = np.flatnonzero((y == 1) & (p > 0.3)), np.flatnonzero((y == 0) & (p > 0.3))
    q[pos[:2]] = 0.1
    q[neg[:1]] = 0.1
    evs = [decisions.DecisionEvaluator(y, s, [T], names={"sensitivity", "specificity"})
           for s in (p, q)]
    a, b = resampling.joint_bootstrap(evs, n_boot=1000, random_state=0)
    res = resampling.PairedBootstrapResult(a, b)
    sens, spec = res.discordance(f"sensitivity@{T!r}"), res.discordance(f"specificity@{T!r}")
    assert (sens.k, sens.n_units) == (2, int(y.sum()))
    assert (spec.k, spec.n_units) == (1, int(N - y.sum()))
    assert sens.bound == pytest.approx(_clopper_pearson_high(2, int(y.sum())), rel=1e-12)


# --------------------------------------------------------------------------- surfaces


def test_decision_report_widens_the_difference_and_its_verdict_is_no_clear_difference():
    y, p, q = _data(2)
    with pytest.warns(NarrowIntervalWarning,
                      match=r"model and baseline decide differently on 2 of 400 rows") as got:
        d = decisions.decision_report(y, p, baseline_proba=q, threshold=T, cost_fp=1,
                                      cost_fn=3, n_boot=1000, random_state=0)
    # Against treat all and treat none the model decides differently on many rows: as before.
    assert not any("treat" in str(w.message) for w in got)
    diff = d.differences["baseline"]
    cp = _clopper_pearson_high(2, N)
    # Net benefit: a row moves it by at most 1; expected cost by |c_fn - c_tp| = 3.
    assert _holds(diff["net_benefit_low"], diff["net_benefit_high"], cp)
    assert _holds(diff["expected_cost_low"], diff["expected_cost_high"], 3 * cp)
    assert d.verdict("baseline") == "no clear difference"
    assert d.verdict("baseline", metric="expected_cost") == "no clear difference"


def test_decision_report_identical_models_are_silent():
    y, p, _ = _data(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = decisions.decision_report(y, p, baseline_proba=p.copy(), threshold=T,
                                      n_boot=1000, random_state=0)
    diff = d.differences["baseline"]
    assert (diff["net_benefit"], diff["net_benefit_low"], diff["net_benefit_high"]) == \
        (0.0, 0.0, 0.0)
    assert d.verdict("baseline") == "no clear difference"


def test_decision_curve_identical_models_keep_a_zero_band_and_say_nothing():
    y, p, _ = _data(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = decisions.decision_curve(y, {"a": p, "b": p.copy()}, thresholds=[T, 0.5],
                                     baseline_name="b", n_boot=1000, random_state=0)
    assert c.difference["a"].tolist() == [0.0, 0.0]
    assert c.diff_low["a"].tolist() == [0.0, 0.0] and c.diff_high["a"].tolist() == [0.0, 0.0]


def test_decision_curve_widens_the_band_at_the_thresholds_with_few_discordant_rows():
    y, p, q = _data(1)
    q = np.where(p > 0.45, q * 0.8, q)  # many rows cross 0.5, none cross 0.2
    with pytest.warns(NarrowIntervalWarning, match=r"decide differently on 1 of 400 rows at "
                                                   r"threshold 0\.2"):
        c = decisions.decision_curve(y, {"a": p, "b": q}, thresholds=[T, 0.5],
                                     baseline_name="b", n_boot=1000, random_state=0)
    cp = _clopper_pearson_high(1, N)
    assert _holds(c.diff_low["a"][0], c.diff_high["a"][0], cp)
    evs = [decisions.DecisionEvaluator(y, s, [T, 0.5], names={"net_benefit"}) for s in (p, q)]
    a, b = resampling.joint_bootstrap(evs, n_boot=1000, random_state=0)
    half = resampling.PairedBootstrapResult(a, b)
    assert half.discordance("net_benefit@0.5") is None
    assert half.discordant_units("net_benefit@0.5") >= resampling.MIN_DISCORDANT
    assert (c.diff_low["a"][1], c.diff_high["a"][1]) == pytest.approx(
        tuple(half.interval("net_benefit@0.5")), abs=1e-15)


def test_holdout_table_widens_the_primary_difference_and_names_the_pair():
    y, p, q = _data(3)
    X = np.zeros((N, 1))
    with pytest.warns(NarrowIntervalWarning, match=r"net_benefit@0\.2 difference \(b minus a\)"
                                                   r".*decide differently on 3 of 400 rows"):
        t = compare.holdout_table({"a": p, "b": q}, X, y, primary=NB, n_boot=1000,
                                  random_state=0)
    cp = _clopper_pearson_high(3, N)
    row = t.rows["b"]
    assert _holds(row["diff_low"], row["diff_high"], cp)
    assert not row["beats_baseline"]


def test_holdout_table_identical_models_are_silent():
    y, p, _ = _data(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = compare.holdout_table({"a": p, "b": p.copy()}, np.zeros((N, 1)), y, primary=NB,
                                  n_boot=1000, random_state=0)
    assert (t.rows["b"]["difference"], t.rows["b"]["diff_low"], t.rows["b"]["diff_high"]) == \
        (0.0, 0.0, 0.0)


class _Fixed(ClassifierMixin, BaseEstimator):
    """Probabilities given in advance, looked up by the row index in ``X[:, 0]``."""

    def __init__(self, proba=None):
        self.proba = proba

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, X):
        p = np.asarray(self.proba)[np.asarray(X)[:, 0].astype(int)]
        return np.column_stack([1 - p, p])

    def predict(self, X):
        return (self.predict_proba(X)[:, 1] >= 0.5).astype(int)


def test_report_decision_section_widens_the_difference():
    y, p, q = _data(1)
    X = np.arange(N, dtype=float)[:, None]
    model, incumbent = _Fixed(p).fit(X, y), _Fixed(q).fit(X, y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = report(model, X, y, baseline=incumbent, threshold=T, n_boot=1000, random_state=0,
                   name="a", baseline_name="b")
    said = [str(w.message) for w in caught if issubclass(w.category, NarrowIntervalWarning)]
    assert any("a and b decide differently on 1 of 400 rows" in s for s in said), said
    diff = r.decision.differences["b"]
    cp = _clopper_pearson_high(1, N)
    assert _holds(diff["net_benefit_low"], diff["net_benefit_high"], cp)
    assert r.decision.verdict("b") == "no clear difference"



def test_units_are_time_blocks_with_time():
    # Two adjacent discordant rows: with time= they fall in at most two blocks of the
    # stationary bootstrap's mean length, and the units counted are those blocks.
    y, p, q = _data(0, seed=5)
    rows = np.flatnonzero(p > 0.3)[:2]
    q[rows] = 0.1
    res = _paired(y, p, q, time=np.arange(N))
    found = res.discordance(NB)
    assert found.unit == "time blocks" and 1 <= found.k <= 2 and found.n_units < N
    with pytest.warns(NarrowIntervalWarning, match=rf"on {found.k} of {found.n_units} time "
                                                   r"blocks at threshold 0\.2"):
        lo, hi = res.interval(NB)
    assert lo <= 0 <= hi
