"""Net benefit against its reference implementation (dcurves' ``dca``) and the hand formula;
the evaluator's batch of weight vectors against one vector at a time."""

import numpy as np
import pytest

from chimeraboost import decisions, resampling
from chimeraboost.exceptions import DegenerateMetricWarning

THRESHOLDS = np.round(np.arange(0.01, 1.0, 0.01), 2)


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 4, n).round(3)  # rounded: ties, and scores equal to a threshold
    y = (rng.random(n) < p).astype(int)
    return y, p


def _dca(y, columns, thresholds):
    pd = pytest.importorskip("pandas")
    dcurves = pytest.importorskip("dcurves")
    data = pd.DataFrame({"y": y, **columns})
    out = dcurves.dca(data=data, outcome="y", modelnames=list(columns), thresholds=thresholds)
    return {m: out[out.model == m].sort_values("threshold")["net_benefit"].to_numpy()
            for m in [*columns, "all", "none"]}


@pytest.mark.parametrize("kind", ["probabilities", "rule"])
def test_net_benefit_equals_dcurves(kind):
    y, p = _data()
    score = p if kind == "probabilities" else (p >= 0.3).astype(float)
    ref = _dca(y, {"m": score}, THRESHOLDS)
    r = decisions.net_benefit(y, score, THRESHOLDS)
    np.testing.assert_allclose(r.net_benefit, ref["m"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.treat_all, ref["all"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.treat_none, ref["none"], rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", ["probabilities", "rule"])
def test_integer_weights_equal_dcurves_on_repeated_rows(kind):
    # dcurves takes no weights; a weight of k is k copies of the row.
    y, p = _data(200, seed=1)
    score = p if kind == "probabilities" else (p >= 0.25).astype(float)
    w = np.random.default_rng(2).integers(0, 4, y.shape[0])
    ref = _dca(np.repeat(y, w), {"m": np.repeat(score, w)}, THRESHOLDS)
    r = decisions.net_benefit(y, score, THRESHOLDS, sample_weight=w)
    np.testing.assert_allclose(r.net_benefit, ref["m"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.treat_all, ref["all"], rtol=0, atol=1e-12)


def test_net_benefit_equals_the_hand_formula_with_real_weights():
    y, p = _data(250, seed=3)
    w = np.random.default_rng(4).uniform(0.1, 3.0, y.shape[0])
    t = np.array([0.05, 0.2, 0.33, 0.5, 0.9])
    r = decisions.net_benefit(y, p, t, sample_weight=w)
    W = w.sum()
    for j, tj in enumerate(t):
        treated = p >= tj
        tp, fp = w[treated & (y == 1)].sum(), w[treated & (y == 0)].sum()
        pi = w[y == 1].sum() / W
        assert r.net_benefit[j] == pytest.approx(tp / W - fp / W * tj / (1 - tj), abs=1e-14)
        assert r.treat_all[j] == pytest.approx(pi - (1 - pi) * tj / (1 - tj), abs=1e-14)
        assert r.standardized[j] == pytest.approx(r.net_benefit[j] / pi, abs=1e-13)
    assert r.prevalence == pytest.approx(w[y == 1].sum() / W, abs=1e-15)


def test_labels_pos_label_and_containers_give_the_same_numbers():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    y, p = _data(100, seed=5)
    labels = np.where(y == 1, "yes", "no")
    ref = decisions.net_benefit(y, p, [0.2, 0.4]).net_benefit
    for yy, pp in [(labels, p), (pd.Series(labels), pd.Series(p)), (pl.Series(labels),
                                                                    pl.Series(p))]:
        got = decisions.net_benefit(yy, pp, [0.2, 0.4], pos_label="yes").net_benefit
        np.testing.assert_array_equal(got, ref)
    frame = decisions.net_benefit(y, p, [0.2, 0.4]).to_frame()
    assert list(frame.columns) == ["threshold", "net_benefit", "treat_all", "treat_none",
                                   "standardized"]


def test_no_positive_row_gives_nan_standardized_with_a_warning():
    with pytest.warns(DegenerateMetricWarning, match="no positive"):
        r = decisions.net_benefit([0, 0, 0], [0.1, 0.5, 0.9], [0.3])
    # Two false positives (0.5 and 0.9 >= 0.3) among three rows, at odds 3/7.
    assert r.net_benefit[0] == pytest.approx(-2 / 3 * 0.3 / 0.7, abs=1e-15)
    assert np.isnan(r.standardized[0])


@pytest.mark.parametrize("thresholds, match", [
    (0.0, "strictly inside"), (1.0, "strictly inside"), ([0.2, 1.5], "strictly inside"),
    ([-0.1], "strictly inside"), ([np.nan], "NaN"),
])
def test_thresholds_outside_the_open_unit_interval_are_refused(thresholds, match):
    with pytest.raises(ValueError, match=match):
        decisions.net_benefit([0, 1], [0.2, 0.8], thresholds)


def test_a_score_that_is_not_a_probability_is_refused_by_name():
    with pytest.raises(ValueError, match="proba must hold probabilities"):
        decisions.net_benefit([0, 1, 1], [-1.2, 0.3, 2.5], [0.2])
    with pytest.raises(TypeError, match="thresholds must be a number"):
        decisions.net_benefit([0, 1], [0.2, 0.8], True)


def test_the_evaluator_batch_equals_one_weight_vector_at_a_time():
    y, p = _data(120, seed=6)
    w = np.random.default_rng(7).uniform(0.5, 2.0, y.shape[0])
    ev = decisions.DecisionEvaluator(y.astype(bool), p, [0.1, 0.3, 0.6], sample_weight=w,
                                     costs=decisions.Costs(0.0, 1.0, 4.0, 0.0),
                                     cost_threshold=0.2)
    counts = np.vstack(list(resampling.bootstrap_counts(y.shape[0], 7, random_state=0)))
    batch = ev.evaluate(counts.astype(np.int64), warn=False)
    for b in range(counts.shape[0]):
        r = decisions.net_benefit(y, p, [0.1, 0.3, 0.6], sample_weight=counts[b] * w)
        np.testing.assert_allclose([batch[f"net_benefit@{t!r}"][b] for t in (0.1, 0.3, 0.6)],
                                   r.net_benefit, rtol=0, atol=1e-13)
        c = decisions.expected_cost(y, p, threshold=0.2, cost_fp=1, cost_fn=4,
                                    sample_weight=counts[b] * w)
        assert batch["expected_cost"][b] == pytest.approx(c.expected_cost, abs=1e-13)
        assert batch["expected_cost_all"][b] == pytest.approx(c.treat_all, abs=1e-13)
        assert batch["expected_cost_none"][b] == pytest.approx(c.treat_none, abs=1e-13)
