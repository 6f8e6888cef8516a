"""Memory is bounded by chunks, and the chunks never change a number.

The surfaces whose work grows as ``resamples x rows`` (the re-chosen threshold, the reliability
curve's band, the decision curve, the slices) hold one chunk of their ``(B, n)`` work at a
time. Each test forces chunks of one replicate (or a few forecasts) on a small case and
compares every number with the default chunks, and where a plain computation exists, with it.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.isotonic import IsotonicRegression

from chimeraboost import decisions, metrics, resampling, slices
from chimeraboost.decisions import _threshold
from chimeraboost.metrics import _reliability
from chimeraboost.resampling import _bootstrap, _draws
from chimeraboost.slices import _compute as _slice_compute


def _binary(n, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 5, n)
    y = (rng.random(n) < p).astype(int)
    return y, (np.round(p, 2) if ties else p)


# ----------------------------------------------------------------- the engine keeps no views


def test_replicates_own_their_memory_never_a_view_of_a_chunks_table():
    class ColumnOfTable:
        n = 50
        sample_weight = None

        def evaluate(self, counts, warn=False):
            counts = np.ones((1, self.n)) if counts is None else counts
            table = np.cumsum(counts, axis=1)  # a (b, n) table per chunk
            return {"last": table[:, -1]}  # a view: would keep the table alive

    out = _bootstrap._evaluate(ColumnOfTable(), np.ones((3, 50)), None)
    assert out["last"].base is None and out["last"].flags.owndata
    assert_array_equal(out["last"], np.full(3, 50.0))


# ----------------------------------------------------------------- the re-chosen threshold


CHOICES = [dict(cost_fp=1, cost_fn=4), dict(objective="net_benefit", at=0.2),
           dict(objective="recall", target=0.8)]


def _choice_numbers(c):
    return np.r_[c.threshold, list(c.threshold_interval), c.apparent, c.optimism, c.estimate,
                 list(c.interval), list(c.naive_interval)]


@pytest.mark.slow
@pytest.mark.parametrize("kwargs", CHOICES)
@pytest.mark.parametrize("ties", [False, True])
def test_choose_threshold_is_the_same_in_chunks_of_one_replicate(kwargs, ties, monkeypatch):
    y, p = _binary(300, seed=1, ties=ties)
    w = np.random.default_rng(2).exponential(size=300)
    whole = [_choice_numbers(decisions.choose_threshold(y, p, n_boot=1000, random_state=3,
                                                        sample_weight=sw, **kwargs))
             for sw in (None, w)]
    monkeypatch.setattr(_draws, "_CHUNK_ELEMENTS", 1)
    chunked = [_choice_numbers(decisions.choose_threshold(y, p, n_boot=1000, random_state=3,
                                                          sample_weight=sw, **kwargs))
               for sw in (None, w)]
    for a, b in zip(whole, chunked):
        assert_allclose(b, a, rtol=0, atol=1e-12)


def _naive_choice(event, score, weights, cost_fp, cost_fn):
    """Every cutoff by a loop over the distinct scores: the cost of treating ``score >= c``,
    the first least cost, then the middle of the cutoffs that treat the same weight."""
    cutoffs = np.append(np.unique(score), np.inf)
    cost = np.empty(cutoffs.shape[0])
    flagged = np.empty(cutoffs.shape[0])
    for k, c in enumerate(cutoffs):
        treated = score >= c
        fp = weights[treated & ~event].sum()
        fn = weights[~treated & event].sum()
        cost[k] = (cost_fp * fp + cost_fn * fn) / weights.sum()
        flagged[k] = weights[treated].sum()
    k = int(np.argmin(cost))
    same = np.flatnonzero(flagged == flagged[k])
    return cutoffs, cost, (same.min() + same.max()) // 2


def test_choice_evaluator_equals_a_loop_over_the_cutoffs():
    """Integer costs and counts keep every sum exact, so the loop's choices are the kernel's."""
    y, p = _binary(120, seed=4, ties=True)
    event = y.astype(bool)
    costs = decisions._checks.check_costs(None, 1, 4, 0.0, 0.0, required=True)
    ev = _threshold._ChoiceEvaluator(event, p, None, "cost", costs, None, None)
    counts = np.vstack(list(resampling.bootstrap_counts(120, 40, random_state=5)))
    got = ev.evaluate(counts)
    for b in range(counts.shape[0]):
        cutoffs, cost, k = _naive_choice(event, p, counts[b], 1, 4)
        assert got["threshold"][b] == cutoffs[k]
        assert got["apparent"][b] == pytest.approx(cost[k], abs=1e-12)
        oob = (counts[b] == 0).astype(float)
        _, oob_cost, _ = _naive_choice(event, p, oob, 1, 4)
        assert got["oob"][b] == pytest.approx(oob_cost[k], abs=1e-12)
    _, whole, chosen = _naive_choice(event, p, np.ones(120), 1, 4)
    assert ev.chosen == chosen
    assert_allclose(got[_threshold._FIXED], [_naive_choice(event, p, c, 1, 4)[1][chosen]
                                   for c in counts], rtol=0, atol=1e-12)


# ----------------------------------------------------------------- the reliability band


@pytest.mark.slow
@pytest.mark.parametrize("band", ["simultaneous", "pointwise"])
@pytest.mark.parametrize("dependent", [False, True])
def test_reliability_band_is_the_same_read_a_few_forecasts_at_a_time(band, dependent,
                                                                     monkeypatch):
    y, p = _binary(400, seed=6)
    groups = np.arange(400) // 4 if dependent else None

    def curve():
        return metrics.reliability_curve(y, p, [0, 1], n_boot=1000, band=band, random_state=7,
                                         groups=groups)

    whole = curve()
    monkeypatch.setattr(_reliability, "_CHUNK_CELLS", 37)  # 1 draw, a few forecasts a block
    chunked = curve()
    assert_allclose(chunked.band_low, whole.band_low, rtol=0, atol=1e-12)
    assert_allclose(chunked.band_high, whole.band_high, rtol=0, atol=1e-12)


@pytest.mark.slow
def test_reliability_band_equals_the_whole_table_of_recalibrated_draws():
    """The reference: every draw's curve by scikit-learn's IsotonicRegression, held as one
    (B, G) table, and the directional quantile envelope read off it."""
    n, n_boot, level = 300, 1000, 0.9
    y, p = _binary(n, seed=8, ties=True)
    got = metrics.reliability_curve(y, p, [0, 1], n_boot=n_boot, level=level, random_state=9)
    forecast, pool = np.unique(p, return_inverse=True)
    tot = np.bincount(pool, minlength=forecast.shape[0]).astype(float)
    draws = np.random.default_rng(9).random((n_boot, n)) < p  # the same stream, all at once
    table = np.empty((n_boot, forecast.shape[0]))
    for b in range(n_boot):
        rate = np.bincount(pool, weights=draws[b], minlength=forecast.shape[0]) / tot
        table[b] = IsotonicRegression().fit(forecast, rate, sample_weight=tot).predict(forecast)
    fit, held = table[0::2], table[1::2]
    center = fit.mean(axis=0)
    q_lo, q_hi = np.quantile(fit, [0.025, 0.975], axis=0)
    up, down = np.maximum(q_hi - center, 1e-12), np.maximum(center - q_lo, 1e-12)
    u = np.quantile(np.maximum((held - center) / up, (center - held) / down).max(axis=1), level,
                    method="higher")
    assert_allclose(got.forecast, forecast)
    assert_allclose(got.band_low, np.clip(center - u * down, 0, 1), rtol=0, atol=1e-12)
    assert_allclose(got.band_high, np.clip(center + u * up, 0, 1), rtol=0, atol=1e-12)


# ----------------------------------------------------------------- curves and slices


@pytest.mark.slow
def test_decision_curve_and_slices_are_the_same_in_chunks_of_one_replicate(monkeypatch):
    y, p = _binary(400, seed=10)
    q = np.clip(p + np.random.default_rng(11).normal(0, 0.1, 400), 0.01, 0.99)
    store = np.arange(400) % 5

    def numbers():
        dc = decisions.decision_curve(y, {"model": p, "incumbent": q},
                                      thresholds=[0.1, 0.2, 0.3, 0.4], baseline_name="incumbent",
                                      n_boot=1000, random_state=12)
        sr = slices.slice_report(y, np.column_stack([1 - p, p]), store, classes=[0, 1],
                                 n_boot=1000, random_state=13, calibration=False)
        return dc.to_frame().select_dtypes("number").to_numpy(), \
            sr.to_frame().select_dtypes("number").to_numpy()

    whole = numbers()
    monkeypatch.setattr(_draws, "_CHUNK_ELEMENTS", 1)
    monkeypatch.setattr(_slice_compute, "_CHUNK_ELEMENTS", 1)  # the slices' own chunks
    monkeypatch.setattr(_slice_compute, "_SLICE_BLOCK", 1)  # a slice evaluated per chunk
    for a, b in zip(whole, numbers()):
        assert_allclose(b, a, rtol=0, atol=1e-12, equal_nan=True)
