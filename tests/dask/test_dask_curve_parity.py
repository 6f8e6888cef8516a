"""The dask decision curve where the in-memory one had more: its default thresholds (the 1st to
99th percentiles of the scores, found by a radix selection over the blocks) equal
``decisions.decision_curve``'s to the last bit; its paired bands are widened, below
``resampling.MIN_DISCORDANT`` units deciding differently, by the in-memory rule
(``Resampler.discordance`` on the evaluators' ``paired_terms``) applied to the bands of the
same accumulator in memory; two models with equal outputs differ by exactly 0."""

import warnings

import numpy as np
import pytest

dask = pytest.importorskip(
    "dask", reason="dask is not installed (pip install 'chimeraboost[dask]')")
da = pytest.importorskip("dask.array", reason="dask.array needs numpy (pip install 'dask[array]')")

from chimeraboost import dask as cbd  # noqa: E402
from chimeraboost import decisions, resampling  # noqa: E402
from chimeraboost.dask import _quantiles  # noqa: E402
from chimeraboost.dask._curves import CurveAccumulator  # noqa: E402
from chimeraboost.exceptions import NarrowIntervalWarning  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")

B = 200
T = np.array([0.3, 0.5, 0.45, 0.52, 0.7])  # not sorted: the curve keeps the order given


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


def _scores(kind, n, rng):
    if kind == "uniform":
        return rng.uniform(size=n)
    if kind == "skewed":  # the 99th percentile far below 0.99
        return rng.beta(0.3, 3.0, size=n)
    if kind == "ties":  # most rows on one value, and -0.0 among the zeros
        p = np.round(rng.uniform(size=n), 2)
        p[: n // 2] = 0.37
        p[-5:] = -0.0
        return p
    return (rng.uniform(size=n) < 0.4).astype(float)  # a 0/1 rule: no spread


@pytest.mark.parametrize("collect", [0, 3, _quantiles.COLLECT])
@pytest.mark.parametrize("kind", ["uniform", "skewed", "ties", "rule"])
def test_default_thresholds_are_the_in_memory_ones(monkeypatch, collect, kind):
    # collect=0 finds every bit by histograms (five passes); 3 collects a few scores.
    monkeypatch.setattr(_quantiles, "COLLECT", collect)
    rng = np.random.default_rng(len(kind) + collect)
    n = 2500
    y = rng.uniform(size=n) < 0.4
    p, q = _scores(kind, n, rng), rng.uniform(size=n)
    got = cbd.decision_curve(da.from_array(y, chunks=700),
                             {"p": da.from_array(p, chunks=(1, 999, 1500)),
                              "q": da.from_array(q, chunks=600)}, n_boot=0)
    want = decisions.decision_curve(y, {"p": p, "q": q}, n_boot=0)
    np.testing.assert_array_equal(got.thresholds, want.thresholds)
    for name in ("p", "q", "treat all"):
        np.testing.assert_allclose(got.net_benefit[name], want.net_benefit[name], atol=1e-12)
    one = cbd.decision_curve(da.from_array(y, chunks=700), da.from_array(p, chunks=800),
                             n_boot=0)
    np.testing.assert_array_equal(one.thresholds,
                                  decisions.decision_curve(y, p, n_boot=0).thresholds)


def test_radix_selection_finds_every_rank():
    rng = np.random.default_rng(0)
    p = np.r_[np.round(rng.uniform(size=300), 3), 0.0, 1.0]
    acc = _quantiles.RadixProbe
    ranks = [0, 1, 150, 300, 301]

    def run(template):
        out = acc(template.probes, 1)
        for a, b in [(0, 100), (100, 101), (101, 302)]:
            out.merge(acc(template.probes, 1).update(p[a:b], p[a:b]))
        return out

    for collect in (0, 10, 1 << 16):
        _quantiles.COLLECT, old = collect, _quantiles.COLLECT
        try:
            found = _quantiles.select_ranks(run, ranks, 1)
        finally:
            _quantiles.COLLECT = old
        assert [found[r] for r in ranks] == np.sort(p)[ranks].tolist()


def _pair(n, n_discordant, seed):
    """Scores p and q equal but on ``n_discordant`` rows, moved across 0.5 and 0.52 only."""
    rng = np.random.default_rng(seed)
    y = rng.uniform(size=n) < 0.35
    p = rng.uniform(size=n)
    q = p.copy()
    rows = np.flatnonzero((p > 0.46) & (p < 0.5))[:n_discordant]
    q[rows] = 0.55
    return y, p, q, rng.uniform(0.5, 2.0, size=n)


def _expected(y, p, q, w, groups, level=0.95):
    """The in-memory rule on the bands of the same accumulator in memory: the percentile
    band of the difference's replicates, widened by ``Resampler.discordance``."""
    acc = CurveAccumulator(T, 2, n_boot=B, random_state=0).update(
        y, np.column_stack([q, p]), sample_weight=w, groups=groups)
    nb = acc.curves()[0]
    diff = nb[:, 0] - nb[:, 1]
    scheme = resampling.Resampler.from_params(y.size, n_boot=B, random_state=0,
                                              ci_method="percentile", groups=groups)
    ev_q, ev_p = (decisions.DecisionEvaluator(y, s, T, sample_weight=w) for s in (q, p))
    low, high, ks = [], [], []
    for j, t in enumerate(T):
        lo, hi = resampling.bootstrap_interval(diff[1:, j], diff[0, j], level=level,
                                               method="percentile")
        key = f"net_benefit@{float(t)!r}"
        found = scheme.discordance(ev_q.paired_terms(key), ev_p.paired_terms(key), level)
        if found is not None:
            lo, hi = found.widen(lo, hi)
        low.append(lo)
        high.append(hi)
        ks.append(None if found is None else found.k)
    return np.array(low), np.array(high), ks


@pytest.mark.parametrize("grouped", [False, True])
@pytest.mark.parametrize("n_discordant", [2, 60])
def test_paired_band_is_widened_as_in_memory(grouped, n_discordant):
    y, p, q, w = _pair(1500, n_discordant, seed=n_discordant)
    groups = np.random.default_rng(1).integers(0, 400, y.size) if grouped else None
    low, high, ks = _expected(y, p, q, w, groups)
    # At 0.3 and 0.7 no row decides differently (k = 0); at 0.5 and 0.52 the moved rows.
    assert ks[0] == ks[4] == 0 and ks[2] == 0
    assert ks[1] == ks[3] == (2 if n_discordant == 2 else None)

    def dask_of(x, chunks=400):
        return None if x is None else da.from_array(x, chunks=chunks)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = cbd.decision_curve(dask_of(y, 500), {"q": dask_of(q, 300), "p": dask_of(p)},
                                 thresholds=T, baseline_name="p", n_boot=B, random_state=0,
                                 sample_weight=dask_of(w), groups=dask_of(groups, 700))
    np.testing.assert_allclose(got.diff_low["q"], low, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.diff_high["q"], high, rtol=1e-12, atol=1e-12)
    few = np.array([k is not None for k in ks])  # widened: the band holds 0
    assert np.all(got.diff_low["q"][few] <= 0) and np.all(got.diff_high["q"][few] >= 0)
    narrow = [str(c.message) for c in caught if c.category is NarrowIntervalWarning]
    widened = sum(k is not None for k in ks)
    assert len(narrow) == 1
    assert f"at {widened} of 5 thresholds" in narrow[0]
    assert ("groups" if grouped else "rows") in narrow[0]


def test_many_discordant_rows_leave_the_band_alone():
    y, p, q, w = _pair(1500, 0, seed=3)
    q = np.clip(p + np.random.default_rng(4).normal(0, 0.1, y.size), 0, 1)
    low, high, ks = _expected(y, p, q, w, None)
    assert ks == [None] * len(T)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NarrowIntervalWarning)
        got = cbd.decision_curve(da.from_array(y, chunks=400),
                                 {"q": da.from_array(q, chunks=400),
                                  "p": da.from_array(p, chunks=400)},
                                 thresholds=T, baseline_name="p", n_boot=B, random_state=0,
                                 sample_weight=da.from_array(w, chunks=400))
    np.testing.assert_allclose(got.diff_low["q"], low, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.diff_high["q"], high, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("grouped", [False, True])
def test_identical_models_differ_by_exactly_zero(grouped):
    y, p, _, w = _pair(1200, 0, seed=5)
    twin = p * (1 + 1e-15)  # the same model to rounding (the one tie rule)
    groups = np.arange(y.size) % 97 if grouped else None
    args = {"thresholds": T, "baseline_name": "p", "n_boot": B, "random_state": 0,
            "sample_weight": w, "groups": groups}
    with warnings.catch_warnings():
        warnings.simplefilter("error", NarrowIntervalWarning)
        got = cbd.decision_curve(
            da.from_array(y, chunks=500),
            {"twin": da.from_array(twin, chunks=300), "p": da.from_array(p, chunks=400)},
            **{**args, "sample_weight": da.from_array(w, chunks=500),
               "groups": None if groups is None else da.from_array(groups, chunks=500)})
        mem = decisions.decision_curve(y, {"twin": twin, "p": p}, ci_method="percentile",
                                       **args)
    for curve in (got, mem):
        assert np.all(curve.difference["twin"] == 0)
        assert np.all(curve.diff_low["twin"] == 0) and np.all(curve.diff_high["twin"] == 0)
    np.testing.assert_array_equal(got.net_benefit["twin"], got.net_benefit["p"])


def test_time_is_refused_naming_its_value_and_the_fix():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    frame = dd.from_pandas(pd.DataFrame({"y": [0, 1] * 50, "p": np.linspace(0.1, 0.9, 100),
                                         "day": pd.date_range("2024-01-01", periods=100)}),
                           npartitions=2)
    with pytest.raises(ValueError, match=r"time=<dask Series 'day' of shape \(\?,\)> .*"
                                         r"pass the period as groups="):
        cbd.decision_curve(frame["y"], frame["p"], thresholds=T, time=frame["day"])
