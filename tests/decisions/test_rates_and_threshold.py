"""Rates at a threshold against statsmodels' Wilson and Clopper-Pearson intervals; the threshold
chosen on the data against brute force, and its resampled interval against one resample at a
time."""

import numpy as np
import pytest

from chimeraboost import decisions, resampling
from chimeraboost.exceptions import DegenerateMetricWarning


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 4, n).round(3)
    y = (rng.random(n) < p).astype(int)
    return y, p


@pytest.mark.parametrize("method, sm_method", [("wilson", "wilson"), ("exact", "beta")])
def test_rate_intervals_equal_statsmodels(method, sm_method):
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    y, p = _data()
    r = decisions.rates_at_threshold(y, p, 0.3, method=method, level=0.9)
    treated = p >= 0.3
    tp, fp = np.sum(treated & (y == 1)), np.sum(treated & (y == 0))
    fn, tn = np.sum(~treated & (y == 1)), np.sum(~treated & (y == 0))
    for rate, (k, n) in {"sensitivity": (tp, tp + fn), "specificity": (tn, tn + fp),
                         "ppv": (tp, tp + fp), "npv": (tn, tn + fn),
                         "flagged": (tp + fp, y.shape[0])}.items():
        assert r.rates[rate] == pytest.approx(k / n, abs=1e-15)
        lo, hi = proportion.proportion_confint(k, n, alpha=0.1, method=sm_method)
        assert r.intervals[rate].low == pytest.approx(lo, abs=1e-9)
        assert r.intervals[rate].high == pytest.approx(hi, abs=1e-9)
        assert r.counts[rate] == (k, n)


def test_integer_weights_are_repeated_rows_and_real_weights_take_the_bootstrap():
    y, p = _data(100, seed=1)
    w = np.random.default_rng(2).integers(1, 4, y.shape[0])
    # Asked for, Wilson reads integer weights as frequencies: repeated rows.
    a = decisions.rates_at_threshold(y, p, 0.3, sample_weight=w, method="wilson")
    b = decisions.rates_at_threshold(np.repeat(y, w), np.repeat(p, w), 0.3)
    assert a.method == "wilson" and a.rates == b.rates and a.intervals == b.intervals
    # "auto" takes the bootstrap for unequal weights, whatever their scale.
    assert decisions.rates_at_threshold(y, p, 0.3, sample_weight=w, n_boot=1000,
                                        random_state=0).method == "bootstrap"
    real = w + 0.5
    c = decisions.rates_at_threshold(y, p, 0.3, sample_weight=real, n_boot=1000, random_state=0)
    assert c.method == "bootstrap"
    boot = resampling.bootstrap(
        decisions.DecisionEvaluator(y.astype(bool), p, [0.3], sample_weight=real,
                                    names={"sensitivity"}), n_boot=1000, random_state=0)
    assert c.intervals["sensitivity"] == boot.interval("sensitivity@0.3", level=0.95)
    with pytest.raises(ValueError, match="non-integer weights"):
        decisions.rates_at_threshold(y, p, 0.3, sample_weight=real, method="wilson")
    with pytest.raises(ValueError, match="method must be one of"):
        decisions.rates_at_threshold(y, p, 0.3, method="wald")


def test_a_rate_with_nothing_to_share_is_nan_with_a_warning():
    with pytest.warns(DegenerateMetricWarning, match="ppv"):
        r = decisions.rates_at_threshold([0, 1, 0], [0.1, 0.2, 0.3], 0.9)
    assert np.isnan(r.rates["ppv"]) and np.isnan(r.intervals["ppv"].low)
    assert r.rates["sensitivity"] == 0.0 and r.rates["flagged"] == 0.0
    frame = r.to_frame()
    assert list(frame.index) == ["sensitivity", "specificity", "ppv", "npv", "flagged"]


def _brute_choice(y, p, value, pick):
    cutoffs = [*np.unique(p), np.inf]
    values = np.array([value(p >= c) for c in cutoffs])
    return cutoffs, values, pick(values)


def test_the_chosen_threshold_is_the_brute_force_one_for_each_objective():
    y, p = _data(150, seed=3)
    n = y.shape[0]
    c = decisions.choose_threshold(y, p, cost_fp=1, cost_fn=4, n_boot=1000, random_state=0)
    cut, vals, i = _brute_choice(y, p, lambda t: np.sum(np.where(t, y == 0, 4 * (y == 1))) / n,
                                 np.argmin)
    assert c.apparent == pytest.approx(vals[i], abs=1e-14)
    assert c.threshold == cut[i]
    # Net benefit at t = 0.2 picks the cutoff of least cost at c_fp = 0.25, c_fn = 1.
    nb = decisions.choose_threshold(y, p, objective="net_benefit", at=0.2, n_boot=1000,
                                    random_state=0)
    same = decisions.choose_threshold(y, p, cost_fp=0.25, cost_fn=1, n_boot=1000,
                                      random_state=0)
    assert nb.threshold == same.threshold
    assert nb.apparent == pytest.approx(np.mean(y) - same.apparent, abs=1e-14)
    rec = decisions.choose_threshold(y, p, objective="recall", target=0.8, n_boot=1000,
                                     random_state=0)
    recalls = np.array([np.sum((p >= c) & (y == 1)) / np.sum(y) for c in cut])
    highest = max(c for c, r in zip(cut, recalls) if r >= 0.8)
    assert rec.threshold == highest and rec.apparent >= 0.8


def test_the_resampled_choice_equals_one_resample_at_a_time():
    # Replicate b re-chooses the cutoff on resample b (the least cost there), and scores it
    # on the resample, on all the rows and on the rows the resample left out.
    from chimeraboost.decisions._threshold import _FIXED, _ChoiceEvaluator

    y, p = _data(80, seed=4)
    costs = decisions.Costs(0.0, 1.0, 2.0, 0.0)
    ev = _ChoiceEvaluator(y.astype(bool), p, None, "cost", costs, None, None)
    counts = np.vstack(list(resampling.bootstrap_counts(y.shape[0], 30, random_state=5)))
    reps = ev.evaluate(counts.astype(np.int64))

    def cost(t, w):
        return np.sum(w * np.where(p >= t, y == 0, 2.0 * (y == 1))) / np.sum(w)

    for b, w in enumerate(counts):
        t = reps["threshold"][b]
        least = min(cost(c, w) for c in [*np.unique(p), np.inf])
        assert reps["apparent"][b] == pytest.approx(least, abs=1e-14) == cost(t, w)
        assert reps["original"][b] == pytest.approx(cost(t, np.ones_like(w)), abs=1e-14)
        assert reps["oob"][b] == pytest.approx(cost(t, (w == 0) * 1.0), abs=1e-14)
        assert reps[_FIXED][b] == pytest.approx(cost(ev.cutoffs[ev.chosen], w), abs=1e-14)
    c = decisions.choose_threshold(y, p, cost_fp=1, cost_fn=2, n_boot=1000, random_state=5)
    assert c.optimism > 0 and c.estimate > c.apparent
    assert c.interval.low <= c.estimate <= c.interval.high
    assert c.naive_interval.high < c.interval.high


def test_threshold_choice_reads_as_a_result():
    y, p = _data(200, seed=6)
    c = decisions.choose_threshold(y, p, cost_fp=1, cost_fn=4, n_boot=1000, random_state=0)
    text = c.summary()
    assert "removes" in text and "apparent gain" in text
    assert list(c.to_frame().index) == ["threshold", "value", "apparent (fixed threshold)"]
    assert repr(c).startswith("ThresholdChoice(objective='cost'")


@pytest.mark.parametrize("kwargs, error, match", [
    ({"objective": "auc"}, ValueError, "objective must be one of"),
    ({"objective": "net_benefit"}, TypeError, "needs at="),
    ({"objective": "net_benefit", "at": 1.0}, ValueError, "strictly inside"),
    ({"objective": "recall"}, TypeError, "needs target="),
    ({"objective": "recall", "target": 1.2}, ValueError, "target=1.2"),
    ({"objective": "recall", "target": 0.5, "cost_fp": 1, "cost_fn": 1}, ValueError,
     "costs apply to objective='cost'"),
    ({}, TypeError, "costs are needed"),
])
def test_bad_choices_are_refused_by_name(kwargs, error, match):
    with pytest.raises(error, match=match):
        decisions.choose_threshold([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.1], **kwargs)


def test_one_class_cannot_choose_a_threshold():
    with pytest.raises(ValueError, match="one class"):
        decisions.choose_threshold([1, 1, 1], [0.2, 0.7, 0.4], cost_fp=1, cost_fn=1)
