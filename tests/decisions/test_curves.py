"""Decision curves, decision reports and ROC / PR bands: the points against the functions of one
threshold and scikit-learn's curves, the bands against one resample at a time."""

import numpy as np
import pytest
from sklearn.metrics import precision_recall_curve, roc_curve

from chimeraboost import decisions


def _data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 3, n).round(3)
    y = (rng.random(n) < p).astype(int)
    q = np.clip(p + rng.normal(0, 0.15, n), 0, 1).round(3)
    return y, p, q


def _independent_counts(n, B=1000, seed=2024):
    """Bootstrap counts of n rows drawn here, on their own seed: intervals on them agree
    with the code's within Monte Carlo error, whatever order the code draws in."""
    return np.random.default_rng(seed).multinomial(n, np.full(n, 1 / n), size=B)


def test_decision_curve_points_and_bands_are_net_benefit_per_resample(intervals_agree):
    y, p, q = _data()
    t = [0.1, 0.3, 0.5]
    dc = decisions.decision_curve(y, {"p": p, "q": q}, thresholds=t, baseline_name="q", n_boot=1000,
                                  random_state=3, ci_method="percentile")
    np.testing.assert_array_equal(dc.net_benefit["p"], decisions.net_benefit(y, p, t).net_benefit)
    np.testing.assert_array_equal(dc.net_benefit["treat all"],
                                  decisions.net_benefit(y, p, t).treat_all)
    counts = _independent_counts(y.shape[0])
    reps_p = np.array([decisions.net_benefit(y, p, t, sample_weight=c).net_benefit
                       for c in counts])
    reps_q = np.array([decisions.net_benefit(y, q, t, sample_weight=c).net_benefit
                       for c in counts])
    intervals_agree((dc.low["p"], dc.high["p"]), np.quantile(reps_p, [0.025, 0.975], axis=0))
    intervals_agree((dc.diff_low["p"], dc.diff_high["p"]),
                    np.quantile(reps_p - reps_q, [0.025, 0.975], axis=0))
    again = decisions.decision_curve(y, {"p": p, "q": q}, thresholds=t, baseline_name="q",
                                     n_boot=1000,
                                     random_state=3, ci_method="percentile")
    np.testing.assert_array_equal(again.diff_low["p"], dc.diff_low["p"])  # one seed, one curve
    frame = dc.to_frame()
    assert set(frame["model"]) == {"p", "q", "treat all", "treat none"}


def test_default_thresholds_span_the_scores_percentiles():
    y, p, _ = _data()
    dc = decisions.decision_curve(y, p, n_boot=0)
    lo, hi = np.quantile(p, [0.01, 0.99])
    assert dc.thresholds.shape == (99,)
    assert dc.thresholds[0] == pytest.approx(max(lo, 0.01)) and dc.thresholds[-1] == \
        pytest.approx(min(hi, 0.99))
    rule = decisions.decision_curve(y, (p > 0.4).astype(float), n_boot=0)
    assert rule.thresholds[0] == 0.01 and rule.thresholds[-1] == 0.99


def test_decision_curve_refuses_an_unknown_baseline_and_non_probabilities():
    y, p, _ = _data(50)
    with pytest.raises(ValueError, match="baseline_name='x' is not one of the models"):
        decisions.decision_curve(y, {"p": p}, thresholds=[0.2], baseline_name="x", n_boot=0)
    with pytest.raises(ValueError, match=r"proba\['s'\] must hold probabilities"):
        decisions.decision_curve(y, {"s": p * 4 - 1}, thresholds=[0.2], n_boot=0)


def test_decision_report_numbers_and_paired_differences(intervals_agree):
    y, p, q = _data(300, seed=1)
    d = decisions.decision_report(y, p, baseline_proba=q, cost_fp=1, cost_fn=3, n_boot=1000,
                                  random_state=0, name="p", baseline_name="q",
                                  ci_method="percentile")
    assert d.threshold == 0.25
    nb = decisions.net_benefit(y, p, 0.25)
    assert d.actions["p"]["net_benefit"] == pytest.approx(nb.net_benefit[0], abs=1e-15)
    assert d.actions["treat all"]["net_benefit"] == pytest.approx(nb.treat_all[0], abs=1e-15)
    c = decisions.expected_cost(y, q, cost_fp=1, cost_fn=3)
    assert d.actions["q"]["expected_cost"] == pytest.approx(c.expected_cost, abs=1e-15)
    assert d.actions["treat none"]["expected_cost"] == pytest.approx(c.treat_none, abs=1e-15)
    diff = [decisions.expected_cost(y, p, cost_fp=1, cost_fn=3, sample_weight=w).expected_cost
            - decisions.expected_cost(y, q, cost_fp=1, cost_fn=3, sample_weight=w).expected_cost
            for w in _independent_counts(y.shape[0])]
    got = d.differences["q"]
    intervals_agree((got["expected_cost_low"], got["expected_cost_high"]),
                    np.quantile(diff, [0.025, 0.975]))
    assert list(d.to_frame().index) == ["p", "q", "treat all", "treat none"]
    text = str(d)
    assert "treat all" in text and "p minus" in text and "rates of p" in text


def test_a_threshold_the_costs_cannot_act_on_is_refused():
    y, p, _ = _data(50)
    with pytest.raises(ValueError, match="imply the threshold 0"):
        decisions.decision_report(y, p, costs=[[0, 0], [1, 0]], n_boot=1000)
    with pytest.raises(TypeError, match="costs are needed"):
        decisions.decision_report(y, p, n_boot=1000)


def _highest_tpr(fpr, tpr, grid):
    """The highest TPR of the polyline through sklearn's ROC points at each FPR of grid."""
    out = []
    for f in grid:
        best = -np.inf
        for a in range(len(fpr) - 1):
            fa, fb, ta, tb = fpr[a], fpr[a + 1], tpr[a], tpr[a + 1]
            if fa <= f <= fb:
                best = max(best, max(ta, tb) if fb == fa else ta + (tb - ta) * (f - fa) /
                           (fb - fa))
        out.append(best)
    return np.array(out)


def test_curve_band_points_are_sklearns_curves():
    y, p, _ = _data(150, seed=2)
    grid = np.linspace(0, 1, 41)
    roc = decisions.curve_band(y, p, grid=grid, n_boot=0)
    fpr, tpr, _ = roc_curve(y, p)
    np.testing.assert_allclose(roc.y, _highest_tpr(fpr, tpr, grid), atol=1e-14)
    pr = decisions.curve_band(y, p, curve="pr", grid=grid, n_boot=0)
    precision, recall, _ = precision_recall_curve(y, p)
    # Precision at the highest cutoff whose recall reaches the grid value.
    expected = [precision[recall >= r][-1] for r in grid[1:]]
    np.testing.assert_allclose(pr.y[1:], expected, atol=1e-14)


def test_curve_band_is_the_percentile_of_resampled_curves(intervals_agree):
    y, p, _ = _data(100, seed=4)
    grid = np.array([0.1, 0.5])
    b = decisions.curve_band(y, p, grid=grid, n_boot=1000, random_state=1,
                             ci_method="percentile")
    reps = []
    for w in _independent_counts(y.shape[0]):
        fpr, tpr, _ = roc_curve(y, p, sample_weight=w)
        reps.append(_highest_tpr(fpr, tpr, grid))
    intervals_agree((b.low, b.high), np.quantile(reps, [0.025, 0.975], axis=0))
    with pytest.raises(ValueError, match="curve must be"):
        decisions.curve_band(y, p, curve="det")


def test_decision_report_html_escapes_the_names():
    y, p, _ = _data(100, seed=5)
    d = decisions.decision_report(y, p, threshold=0.3, n_boot=1000, random_state=0,
                                  name="<b>model</b>")
    page = d._repr_html_()
    assert "<b>model</b>" not in page and "&lt;b&gt;model&lt;/b&gt;" in page
