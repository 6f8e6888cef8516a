"""shadow_report on rows that are not independent: groups= and time= through the one engine,
and McNemar's test on clustered rows."""

import inspect
import re

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2

from chimeraboost.exceptions import NarrowIntervalWarning
from chimeraboost.promotion import shadow_report
from chimeraboost.promotion._mcnemar import clustered_mcnemar


def _users(users=150, per_user=8, seed=1):
    """Shadow traffic of many requests per user: both scores, and the outcome, follow a
    user's persistent latent, so a user's decisions (and flips) move together."""
    rng = np.random.default_rng(seed)
    user = np.repeat(np.arange(users), per_user)
    u = np.repeat(rng.normal(size=users), per_user)
    shift = np.repeat(rng.normal(size=users), per_user)
    noise = rng.normal(size=user.size)
    p0 = 1 / (1 + np.exp(-(u + 0.3 * noise)))
    p1 = 1 / (1 + np.exp(-(u + 0.8 * shift + 0.3 * noise)))
    y = (rng.random(user.size) < p0).astype(float)
    region = np.repeat(rng.choice(list("abc"), users), per_user)
    return user, p0, p1, y, region


def test_groups_of_one_row_give_the_numbers_of_independent_rows():
    _, p0, p1, y, region = _users(60, 5)
    n = p0.size
    kw = dict(threshold=0.5, k=30, by=region, n_boot=1000, random_state=4,
              ci_method="percentile")
    rows = shadow_report(p0, p1, **kw)
    ones = shadow_report(p0, p1, groups=np.arange(n), **kw)
    assert ones.values == rows.values
    # The same replicates: a group of one row is drawn as the row is.
    assert ones.intervals == rows.intervals
    assert [s["pvalue"] for s in ones.slices] == [s["pvalue"] for s in rows.slices]
    assert "resampled: whole groups (300 groups)" in str(ones)
    assert "resampled" not in str(rows)


def test_groups_of_one_give_mcnemars_asymptotic_test():
    from statsmodels.stats.contingency_tables import mcnemar

    _, p0, p1, y, _ = _users(100, 4, seed=2)
    kw = dict(threshold=0.5, y=y, n_boot=1000, random_state=0)
    exact = shadow_report(p0, p1, **kw).disagreement
    clustered = shadow_report(p0, p1, groups=np.arange(p0.size), **kw).disagreement
    b, c = exact["champion_right"], exact["challenger_right"]
    assert (clustered["champion_right"], clustered["challenger_right"]) == (b, c)
    assert clustered["test"] == "clustered McNemar" and exact["test"] == "exact McNemar"
    # Every cluster one row: (c - b)^2 / (c + b), McNemar's chi-square without continuity
    # correction; the exact test is its binomial counterpart.
    table = [[0, b], [c, 0]]
    asymptotic = mcnemar(table, exact=False, correction=False).pvalue
    assert clustered["pvalue"] == pytest.approx(asymptotic, rel=1e-12)
    assert exact["pvalue"] == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-12)
    assert clustered["pvalue"] == pytest.approx(exact["pvalue"], abs=0.05)


def test_clustered_mcnemar_is_the_hand_formula():
    # Rows where only one model is right, by cluster: the challenger twice in cluster 0,
    # the champion once in 1, the challenger three times in 2, the champion twice in 3, one
    # each in 4 plus one more for the challenger. c_k - b_k = 2, -1, 3, -2, 1:
    # X^2 = (2 - 1 + 3 - 2 + 1)^2 / (4 + 1 + 9 + 4 + 1) = 9 / 19.
    clusters = np.array([0, 0, 1, 2, 2, 2, 3, 3, 4, 4, 4])
    challenger = np.array([1, 1, 0, 1, 1, 1, 0, 0, 1, 0, 1], dtype=bool)
    champion = ~challenger
    stat, p = clustered_mcnemar(champion, challenger, clusters)
    assert stat == pytest.approx(9 / 19, rel=1e-15)
    assert p == pytest.approx(chi2.sf(9 / 19, 1), rel=1e-12)


def test_clustered_mcnemar_equals_durkalski_on_clusters_of_equal_size():
    # Durkalski et al. (2003) weigh cluster k by 1 / n_k:
    # X^2 = (sum (c_k - b_k) / n_k)^2 / sum ((c_k - b_k) / n_k)^2; with equal n_k the weights
    # cancel and it is the statistic with every row counting once.
    rng = np.random.default_rng(3)
    k, m = 40, 6
    clusters = np.repeat(np.arange(k), m)
    who = rng.choice([-1, 0, 1], size=k * m, p=[0.3, 0.3, 0.4])
    champion, challenger = who == -1, who == 1
    d = (np.bincount(clusters, weights=challenger) - np.bincount(clusters, weights=champion))
    durkalski = np.sum(d / m) ** 2 / np.sum((d / m) ** 2)
    stat, _ = clustered_mcnemar(champion, challenger, clusters)
    assert stat == pytest.approx(durkalski, rel=1e-12)


def test_grouped_intervals_are_wider_when_a_users_requests_move_together():
    user, p0, p1, y, region = _users()
    kw = dict(threshold=0.5, by=region, y=y, n_boot=1000, random_state=0)
    rows = shadow_report(p0, p1, **kw)
    grouped = shadow_report(p0, p1, groups=user, **kw)
    assert grouped.values == rows.values
    for key in ("flip_rate", "kappa", "spearman", "mean_challenger"):
        w_rows = np.subtract(*rows.intervals[key][::-1])
        w_groups = np.subtract(*grouped.intervals[key][::-1])
        assert w_groups > 1.3 * w_rows, key
    # The slices' tests count users, not rows: their p-values grow.
    for s_rows, s_groups in zip(rows.slices, grouped.slices):
        assert s_groups["pvalue"] > s_rows["pvalue"]
    assert grouped.disagreement["clusters"] <= 150
    assert grouped.disagreement["pvalue"] > rows.disagreement["pvalue"]


def test_time_blocks_resample_runs_of_time_and_cluster_mcnemar_by_them():
    user, p0, p1, y, _ = _users()
    minute = np.arange(p0.size) // 10  # the requests in the order they came, 10 a minute
    r = shadow_report(p0, p1, threshold=0.5, y=y, time=minute, n_boot=1000, random_state=0)
    assert "resampled: blocks of time (120 time points" in str(r)
    assert r.disagreement["test"] == "clustered McNemar"
    assert 1 < r.disagreement["clusters"] <= 120
    rows = shadow_report(p0, p1, threshold=0.5, y=y, n_boot=1000, random_state=0)
    assert r.values == rows.values


def test_identical_models_get_no_verdict_with_groups():
    user, p0, _, y, region = _users()
    r = shadow_report(p0, p0.copy(), threshold=0.5, by=region, y=y, groups=user,
                      n_boot=1000, random_state=0)
    assert r.values["flip_rate"] == 0.0 and r.intervals["flip_rate"] == (0.0, 0.0)
    assert all(s["pvalue"] == 1.0 and s["verdict"] == "no detectable difference"
               for s in r.slices)
    assert r.disagreement["rows"] == 0 and r.disagreement["pvalue"] == 1.0


def test_few_groups_warn():
    user, p0, p1, _, _ = _users(12, 20)
    with pytest.warns(NarrowIntervalWarning, match="only 12 groups were resampled"):
        shadow_report(p0, p1, threshold=0.5, groups=user, n_boot=1000, random_state=0)


def test_the_documented_default_of_n_boot_is_the_signatures():
    default = inspect.signature(shadow_report).parameters["n_boot"].default
    assert default == 2000  # the library's default (Resampler, decision_report, the CLI)
    assert re.search(rf"n_boot : int, default={default}\b", shadow_report.__doc__)


P = [0.2, 0.6, 0.7, 0.4]


@pytest.mark.parametrize("kwargs, match", [
    ({"groups": [1, 2, 3]}, r"groups has 3 values but there are 4 rows; pass one per row"),
    ({"groups": [1.0, np.nan, 2.0, 2.0]},
     r"groups has 1 missing value\(s\) .* drop those rows or fill them"),
    ({"groups": ["u", "u", "u", "u"]}, r"groups holds one group \('u'\) for all 4 rows"),
    ({"groups": "user"}, r"groups='user' names a column, but X has no named columns"),
    ({"time": [1, 2]}, r"time has 2 values but there are 4 rows"),
    ({"time": [5, 5, 5, 5]}, r"time holds one value \(5\) for all 4 rows"),
    ({"groups": pd.Series([1, 1, 2, 2], index=[3, 2, 1, 0])},
     r"champion and groups carry different pandas indexes"),
])
def test_bad_groups_and_time(kwargs, match):
    champion = pd.Series(P) if "groups" in kwargs and isinstance(kwargs["groups"],
                                                                    pd.Series) else P
    with pytest.raises(ValueError, match=match):
        shadow_report(champion, P, threshold=0.5, n_boot=1000, random_state=0, **kwargs)


def test_without_groups_the_replicates_are_the_engines_row_bootstrap():
    # Independent rows: the flip rate on the counts of resampling.bootstrap_counts with the
    # same seed, read by the percentile method, is the report's interval.
    from chimeraboost import resampling

    _, p0, p1, _, _ = _users(50, 4, seed=7)
    r = shadow_report(p0, p1, threshold=0.5, n_boot=1000, random_state=11,
                      ci_method="percentile")
    flips = ((p0 >= 0.5) != (p1 >= 0.5)).astype(float)
    counts = np.vstack(list(resampling.bootstrap_counts(p0.size, 1000, random_state=11)))
    reps = counts @ flips / counts.sum(1)
    ci = resampling.bootstrap_interval(reps, r.values["flip_rate"], method="percentile")
    assert r.intervals["flip_rate"] == pytest.approx((ci.low, ci.high), abs=1e-15)
