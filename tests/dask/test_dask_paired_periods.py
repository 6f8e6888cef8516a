"""chimeraboost.dask.skill_over_time(baseline=): the model against the incumbent per period.

The references: the in-memory accumulator (ClassificationAccumulator) fed each period's rows
of each model, every row's Poisson count keyed by its position among all rows (``groups=``
the positions: the same keys as the dask blocks use), read through
``resampling.PairedBootstrapResult`` as the percentile interval of the difference; the
in-memory ``monitor.skill_over_time(baseline=)`` for the point numbers (each model's metric
per period, exact sums), the rolling reference and the tie rule.
"""

import numpy as np
import pytest

dask = pytest.importorskip(
    "dask", reason="dask is not installed (pip install 'chimeraboost[dask]')")
da = pytest.importorskip("dask.array", reason="dask.array needs numpy (pip install 'dask[array]')")
pd = pytest.importorskip("pandas")

from chimeraboost import dask as cbd  # noqa: E402
from chimeraboost import metrics, monitor, resampling  # noqa: E402

pytestmark = [pytest.mark.usefixtures("synchronous"), pytest.mark.filterwarnings(
    "ignore::chimeraboost.exceptions.FewResamplesWarning")]
B = 200


def _data(n=1500, seed=0, days=120):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0.01, 0.99)
    q = np.clip(p + rng.normal(0, 0.15, n), 0.01, 0.99)
    t = (np.datetime64("2024-01-01") + rng.integers(0, days, n).astype("timedelta64[D]"))
    return y, p, q, t.astype("datetime64[ns]")


def _arr(x, chunks):
    x = np.asarray(x)
    return da.from_array(x, chunks=chunks if x.ndim == 1 else (chunks, -1))


def _accumulator(y, s, rows, w=None, groups=None):
    acc = metrics.ClassificationAccumulator([0, 1], n_boot=B, random_state=7)
    return acc.update(y[rows], s[rows], sample_weight=None if w is None else w[rows],
                      groups=rows if groups is None else groups[rows])


@pytest.mark.parametrize("metric, grouped", [
    (None, False),
    pytest.param("log_loss", True, marks=pytest.mark.slow),
])
def test_comparison_equals_the_accumulators_of_each_period(metric, grouped):
    y, p, q, t = _data(seed=1)
    w = np.random.default_rng(2).uniform(0.5, 2.0, y.size)
    g = np.random.default_rng(3).integers(0, 300, y.size) if grouped else None
    r = cbd.skill_over_time(_arr(y, 400), _arr(p, 500), _arr(t, 300), baseline=_arr(q, 700),
                            metric=metric, sample_weight=_arr(w, 400),
                            groups=None if g is None else _arr(g, 400), n_boot=B,
                            random_state=7, ci=0.9)
    key = metric or "brier_skill"
    # The point numbers in memory (its intervals resample each period: not compared).
    m = monitor.skill_over_time(y, p, t, baseline=q, metric=metric, sample_weight=w, n_boot=B,
                                random_state=0)
    c = r.comparison
    assert c["metric"] == key and c["level"] == 0.9
    for name in ("model", "baseline", "difference"):
        np.testing.assert_allclose(c[name], m.comparison[name], rtol=1e-12, atol=1e-12)
    period = pd.DatetimeIndex(t).to_period("M").start_time
    for j, start in enumerate(r.periods):
        rows = np.flatnonzero(period == start)
        accs = [_accumulator(y, s, rows, w, g) for s in (p, q)]
        boots = [resampling.BootstrapResult({key: a.report()[key]},
                                            {key: a.replicates()[key]}, B,
                                            ci_method="percentile") for a in accs]
        paired = resampling.PairedBootstrapResult(*boots)
        defined = B - paired.n_dropped(key)
        assert c["defined"][j] == defined
        want = paired.interval(key, level=0.9, warn=False) \
            if defined >= resampling.MIN_RESAMPLES_DECISION else (np.nan, np.nan)
        np.testing.assert_allclose(c["interval"][j], want, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(c["model_replicates"][j], boots[0].replicates[key],
                                   rtol=1e-12, atol=1e-12)
    assert r.verdict().periods == m.verdict().periods


@pytest.mark.slow
def test_rolling_reference_and_the_verdict_read_as_in_memory():
    y, p, q, t = _data(seed=4, days=150)
    r = cbd.skill_over_time(_arr(y, 400), _arr(p, 400), _arr(t, 400), baseline=q,
                            reference_from="rolling", window=2, n_boot=B, random_state=0,
                            rope=0.02, last=2)
    m = monitor.skill_over_time(y, p, t, baseline=q, reference_from="rolling", window=2,
                                n_boot=B, random_state=0, rope=0.02, last=2)
    for name in ("model", "baseline", "difference"):
        np.testing.assert_allclose(r.comparison[name], m.comparison[name], rtol=1e-12,
                                   atol=1e-12)
    # The first period has no history: no skill, no interval, as in memory.
    assert np.isnan(r.comparison["difference"][0]) and r.comparison["defined"][0] == 0
    assert r.intervals is None and r.ci_level is None  # ci=None: the table has none
    v = r.verdict()
    assert (v.rope, v.last, v.periods) == (0.02, 2, m.verdict().periods)
    assert "Against the baseline" in str(r)


def test_identical_forecasts_tie_in_every_period():
    y, p, _, t = _data(seed=5)
    twin = p * (1 + 1e-15)  # the same model to rounding
    r = cbd.skill_over_time(_arr(y, 400), _arr(p, 400), _arr(t, 400), baseline=_arr(twin, 300),
                            n_boot=B, random_state=0)
    m = monitor.skill_over_time(y, p, t, baseline=twin, n_boot=B, random_state=0)
    for result in (r, m):
        assert np.all(result.comparison["difference"] == 0)
        assert np.all(result.comparison["interval"] == 0)
        assert result.verdict().decision == "practically equivalent"


def test_a_tie_in_one_period_only():
    y, p, q, t = _data(seed=6)
    period = pd.DatetimeIndex(t).to_period("M").start_time
    first = period == period.min()
    q = np.where(first, p, q)  # the incumbent equals the model in the first month only
    r = cbd.skill_over_time(_arr(y, 400), _arr(p, 400), _arr(t, 400), baseline=_arr(q, 400),
                            n_boot=B, random_state=0)
    assert r.comparison["difference"][0] == 0 and np.all(r.comparison["interval"][0] == 0)
    assert np.all(r.comparison["difference"][1:] != 0)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"metric": "roc_auc"}, ValueError, "metric='roc_auc'"),
    ({"baseline": "rolling"}, TypeError, "baseline='rolling'.*reference_from="),
    ({"rope": -1.0}, ValueError, "rope"),
    ({"last": 0}, ValueError, "last"),
    ({"baseline": np.full(300, 1.5)}, ValueError, "baseline"),
])
def test_bad_paired_input_names_the_argument(kwargs, error, match):
    y, p, q, t = _data(n=300, seed=7)
    args = {"baseline": q, "n_boot": B, "random_state": 0, **kwargs}
    with pytest.raises(error, match=match):
        cbd.skill_over_time(_arr(y, 100), _arr(p, 100), _arr(t, 100), **args)
