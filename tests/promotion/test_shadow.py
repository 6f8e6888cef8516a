"""Shadow numbers against scikit-learn, scipy and hand formulas; resampled rows written out."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest, ks_2samp, spearmanr
from sklearn.metrics import cohen_kappa_score

from chimeraboost.promotion import shadow_report
from chimeraboost.promotion import _shadow_stats as st


def _data(n=600, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p0 = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0, 1)
    p1 = np.clip(p0 + rng.normal(0, 0.1, n), 0, 1)
    p1[:40] = np.round(p1[:40], 1)  # ties
    return y, p0, p1


def test_identical_scores_agree_perfectly_and_give_no_verdict():
    y, p, _ = _data()
    r = shadow_report(p, p.copy(), threshold=0.5, k=50, by=y, y=y, n_boot=1000, random_state=0)
    v = r.values
    assert v["flip_up"] == v["flip_down"] == v["flip_rate"] == 0.0
    assert v["kappa"] == 1.0 and v["spearman"] == pytest.approx(1.0, abs=1e-12)
    assert v["top_k_jaccard"] == 1.0
    assert r.intervals["flip_rate"] == (0.0, 0.0)
    # A zero difference with p = 1 in every slice, as every surface gives two identical models.
    assert all(s["verdict"] == "no detectable difference" for s in r.slices)
    assert all(s["vs_rest"] == 0.0 and s["pvalue"] == 1.0 for s in r.slices)
    assert r.disagreement["rows"] == 0 and r.disagreement["pvalue"] == 1.0
    assert "disagree" in r.disagreement["verdict"]


def test_numbers_equal_scikit_learn_and_scipy():
    y, p0, p1 = _data()
    ref0, ref1 = p0[::-1] * 0.9 + 0.05, np.sort(p1)
    r = shadow_report(p0, p1, threshold=0.5, k=60, reference_y=y, reference_champion=ref0,
                      reference_challenger=ref1, n_boot=1000, random_state=0)
    v = r.values
    d0, d1 = p0 >= 0.5, p1 >= 0.5
    assert v["flip_up"] == pytest.approx(np.mean(~d0 & d1), abs=1e-12)
    assert v["flip_down"] == pytest.approx(np.mean(d0 & ~d1), abs=1e-12)
    assert v["kappa"] == pytest.approx(cohen_kappa_score(d0, d1), abs=1e-12)
    assert v["spearman"] == pytest.approx(spearmanr(p0, p1).statistic, abs=1e-12)
    assert v["ks_champion"] == pytest.approx(ks_2samp(p0, ref0).statistic, abs=1e-12)
    assert v["ks_challenger"] == pytest.approx(ks_2samp(p1, ref1).statistic, abs=1e-12)
    assert v["mean_minus_base_rate_challenger"] == pytest.approx(p1.mean() - y.mean(),
                                                                 abs=1e-12)
    top0 = set(np.argsort(-p0, kind="stable")[:60])
    top1 = set(np.argsort(-p1, kind="stable")[:60])
    assert v["top_k_jaccard"] == pytest.approx(len(top0 & top1) / len(top0 | top1), abs=1e-12)
    for k in v:
        low, high = r.intervals[k]
        assert low <= v[k] <= high


def test_psi_is_the_hand_formula_on_the_reference_deciles():
    rng = np.random.default_rng(1)
    ref = rng.uniform(size=1000)
    live = np.r_[rng.uniform(0.0, 0.5, 300), rng.uniform(0.95, 1.0, 100)]
    r = shadow_report(live, live, reference_champion=ref, n_boot=1000, random_state=0,
                      psi_eps=1e-4)
    edges = np.quantile(ref, np.arange(1, 10) / 10)
    # Bins: (-inf, q1), [q1, q2), ..., [q9, inf); a value on an edge goes to the bin above.
    e = np.histogram(ref, np.r_[-np.inf, edges, np.inf])[0] / ref.size
    a = np.array([np.mean((live >= lo) & (live < hi))
                  for lo, hi in zip(np.r_[-np.inf, edges], np.r_[edges, np.inf])])
    e, a = np.maximum(e, 1e-4), np.maximum(a, 1e-4)  # the empty bins count as 1e-4
    assert np.any(a == 1e-4)
    assert r.values["psi_champion"] == pytest.approx(np.sum((a - e) * np.log(a / e)),
                                                     abs=1e-12)


def test_a_replicate_equals_the_numbers_on_its_rows_written_out():
    y, p0, p1 = _data(200, seed=2)
    ref = np.random.default_rng(3).uniform(size=150)
    counts = np.random.default_rng(4).multinomial(200, np.full(200, 1 / 200)).astype(float)
    rows = np.repeat(np.arange(200), counts.astype(int))
    W = counts[None, :]
    got = st.spearman(W, st.Midranks(p0), st.Midranks(p1))[0]
    assert got == pytest.approx(spearmanr(p0[rows], p1[rows]).statistic, abs=1e-12)
    assert st.KS(p0, ref)(W)[0] == pytest.approx(ks_2samp(p0[rows], ref).statistic, abs=1e-12)
    d0, d1 = p0 >= 0.5, p1 >= 0.5
    kappa = st.decision_numbers(W, d0, d1)["kappa"][0]
    assert kappa == pytest.approx(cohen_kappa_score(d0[rows], d1[rows]), abs=1e-12)


def test_mcnemar_is_the_exact_binomial_test_on_the_labelled_rows():
    from statsmodels.stats.contingency_tables import mcnemar

    y, p0, p1 = _data(800, seed=5)
    p1 = np.where(y == 1, np.minimum(p1 + 0.15, 1), p1)  # the challenger is right more often
    labels = y.astype(float)
    labels[:300] = np.nan
    r = shadow_report(p0, p1, threshold=0.5, y=labels, n_boot=1000, random_state=0)
    known = ~np.isnan(labels)
    d0, d1 = p0 >= 0.5, p1 >= 0.5
    b = np.sum(known & (d0 != d1) & (d0 == y))
    c = np.sum(known & (d0 != d1) & (d1 == y))
    dis = r.disagreement
    assert (dis["champion_right"], dis["challenger_right"], dis["labelled_rows"]) == (b, c, 500)
    assert dis["pvalue"] == pytest.approx(binomtest(b, b + c, 0.5).pvalue, abs=1e-12)
    table = [[0, b], [c, 0]]
    assert dis["pvalue"] == pytest.approx(mcnemar(table, exact=True).pvalue, abs=1e-12)
    assert "labels for 500 of 800 rows" in str(r)
    assert max(map(len, str(r).splitlines())) <= 120


def test_slices_are_adjusted_and_a_flipping_slice_is_found():
    rng = np.random.default_rng(6)
    n = 1500
    region = np.repeat(["a", "b", "c"], n // 3)
    p0 = rng.uniform(size=n)
    p1 = p0.copy()
    west = region == "c"
    p1[west] = rng.uniform(size=west.sum())  # the challenger decides anew on slice c
    r = shadow_report(p0, p1, threshold=0.5, by=region, n_boot=1000, random_state=0)
    verdict = {s["slice"]: s["verdict"] for s in r.slices}
    assert verdict["c"] == "flips more than the rest"
    flips = {s["slice"]: s["flip_rate"] for s in r.slices}
    assert flips["c"] == pytest.approx(np.mean((p0 >= 0.5)[west] != (p1 >= 0.5)[west]))


@pytest.mark.parametrize("kwargs, error, match", [
    ({"champion": [0.1, 0.2], "challenger": [0.1, 0.2, 0.3]}, ValueError, "length|rows"),
    ({"champion": pd.Series([0.1, 0.2, 0.3], index=[0, 1, 2]),
      "challenger": pd.Series([0.1, 0.2, 0.3], index=[2, 1, 0])}, ValueError, "indexes"),
    ({"champion": [0.1, 0.2], "challenger": [0.1, 0.2], "by": ["a", "b"]}, ValueError,
     "threshold"),
    ({"champion": [0.1, 0.2], "challenger": [0.1, 0.2], "k": 5}, ValueError, "k must be"),
    ({"champion": [0.1, np.nan], "challenger": [0.1, 0.2]}, ValueError, "champion"),
    ({"champion": [0.1, 0.2], "challenger": [0.1, 0.2], "threshold": 0.5,
      "y": ["a", "b", "c"][:2] + []}, ValueError, None),
])
def test_bad_input(kwargs, error, match):
    if match is None:  # two labels are fine: no error
        shadow_report(n_boot=1000, random_state=0, **kwargs)
        return
    with pytest.raises(error, match=match):
        shadow_report(n_boot=1000, random_state=0, **kwargs)
