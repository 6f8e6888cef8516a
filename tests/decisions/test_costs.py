"""Expected cost against closed forms (the Bayes threshold, net benefit), cost curves against
Youden's J from scikit-learn's ROC curve, Brier curves against scikit-learn's Brier score."""

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss, roc_curve

from chimeraboost import decisions
from chimeraboost.exceptions import DegenerateMetricWarning


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 4, n).round(3)
    y = (rng.random(n) < p).astype(int)
    return y, p


@pytest.mark.parametrize("fp, fn, b_tp, b_tn", [(1, 4, 0, 0), (2, 3, 1, 0), (1, 1, 0.5, 2),
                                                (0.3, 9, 0, 0)])
def test_bayes_threshold_is_the_closed_form(fp, fn, b_tp, b_tn):
    r = decisions.expected_cost(*_data(), cost_fp=fp, cost_fn=fn, benefit_tp=b_tp,
                                benefit_tn=b_tn)
    # Treat when p (-b_tp) + (1 - p) fp <= p fn + (1 - p) (-b_tn).
    assert r.bayes_threshold == pytest.approx((fp + b_tn) / (fp + b_tn + fn + b_tp), abs=1e-15)
    assert r.threshold == r.bayes_threshold


def test_the_matrix_and_the_shorthand_agree_and_the_cost_is_the_hand_sum():
    y, p = _data(200, seed=1)
    w = np.random.default_rng(2).uniform(0.2, 2, y.shape[0])
    a = decisions.expected_cost(y, p, costs=[[0, 2], [5, 1]], threshold=0.3, sample_weight=w)
    b = decisions.expected_cost(y, p, costs={"fp": 2, "fn": 5, "tp": 1}, threshold=0.3,
                                sample_weight=w)
    treated = p >= 0.3
    hand = (w * np.where(treated, np.where(y == 1, 1, 2), np.where(y == 1, 5, 0))).sum() / w.sum()
    assert a.expected_cost == pytest.approx(hand, abs=1e-14)
    assert b.expected_cost == a.expected_cost
    assert a.treat_all == pytest.approx((w * np.where(y == 1, 1, 2)).sum() / w.sum(), abs=1e-14)
    assert a.treat_none == pytest.approx((w * (y == 1) * 5).sum() / w.sum(), abs=1e-14)
    assert a.bayes_threshold == pytest.approx(2 / (2 + 4), abs=1e-15)


def test_expected_cost_at_the_odds_of_t_is_prevalence_minus_net_benefit():
    y, p = _data(150, seed=3)
    for t in (0.1, 0.25, 0.6):
        c = decisions.expected_cost(y, p, threshold=t, cost_fp=t / (1 - t), cost_fn=1)
        nb = decisions.net_benefit(y, p, t)
        assert c.expected_cost == pytest.approx(nb.prevalence - nb.net_benefit[0], abs=1e-14)


def test_the_best_cutoff_is_the_brute_force_minimum():
    y, p = _data(120, seed=4)
    r = decisions.expected_cost(y, p, cost_fp=1, cost_fn=3)
    costs = {c: np.mean(np.where(p >= c, (y == 0) * 1.0, (y == 1) * 3.0))
             for c in [*np.unique(p), np.inf]}
    best = min(costs, key=lambda c: (costs[c], c))
    assert r.best_cost == pytest.approx(costs[best], abs=1e-14)
    assert costs[r.best_threshold] == pytest.approx(costs[best], abs=1e-14)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"cost_fp": -1, "cost_fn": 2}, ValueError, "cost_fp must be a finite number >= 0"),
    ({"cost_fp": 1, "cost_fn": float("inf")}, ValueError, "cost_fn must be a finite"),
    ({"cost_fp": 0, "cost_fn": 0}, ValueError, "every decision costs the same"),
    ({"costs": [[0, 0], [0, 0]]}, ValueError, "every decision costs the same"),
    ({"costs": [[0, -1], [2, 0]]}, ValueError, "costs must hold finite numbers >= 0"),
    ({"costs": [[0, 1, 2], [2, 0, 1]]}, ValueError, "2x2 matrix"),
    ({"costs": [[3, 1], [2, 0]]}, ValueError, "correct decision costs more"),
    ({"costs": {"fp": 1, "fm": 2}}, ValueError, "keys"),
    ({"cost_fp": 1}, TypeError, "cost_fn is missing"),
    ({}, TypeError, "costs are needed"),
    ({"costs": [[0, 1], [1, 0]], "cost_fp": 1}, TypeError, "not both"),
    ({"cost_fp": 1, "cost_fn": 2, "benefit_tp": -1}, ValueError, "benefit_tp must be"),
    ({"cost_fp": "1", "cost_fn": 2}, TypeError, "cost_fp must be a number"),
    ({"cost_fp": 1, "cost_fn": 2, "threshold": 1.5}, ValueError, "threshold=1.5 is outside"),
])
def test_bad_costs_are_refused_by_name(kwargs, error, match):
    with pytest.raises(error, match=match):
        decisions.expected_cost([0, 1, 1], [0.2, 0.7, 0.4], **kwargs)


def test_expected_cost_refuses_scores_that_are_not_probabilities():
    with pytest.raises(ValueError, match="probabilities in"):
        decisions.expected_cost([0, 1], [-2.0, 3.0], cost_fp=1, cost_fn=1)


def test_cost_curve_at_half_is_one_minus_youden_over_two():
    y, p = _data(200, seed=5)
    fpr, tpr, _ = roc_curve(y, p)
    c = decisions.cost_curve(y, p, pc=[0.5])
    assert c.cost[0] == pytest.approx((1 - np.max(tpr - fpr)) / 2, abs=1e-14)


def test_cost_curve_is_the_lower_envelope_and_matches_expected_cost():
    y, p = _data(150, seed=6)
    w = np.random.default_rng(7).uniform(0.5, 2, y.shape[0])
    c = decisions.cost_curve(y, p, sample_weight=w)
    assert np.all(c.cost <= c.trivial + 1e-15) and c.cost[0] == 0 and c.cost[-1] == 0
    # At the probability cost of c_fp = 1, c_fn = 3 the curve times the normaliser is the
    # least expected cost over cutoffs.
    pi = w[y == 1].sum() / w.sum()
    norm = pi * 3 + (1 - pi) * 1
    pc = pi * 3 / norm
    at = decisions.cost_curve(y, p, pc=[pc], sample_weight=w)
    best = decisions.expected_cost(y, p, cost_fp=1, cost_fn=3, sample_weight=w).best_cost
    assert at.cost[0] * norm == pytest.approx(best, abs=1e-13)


def test_brier_curve_area_is_the_brier_score():
    y, p = _data(300, seed=8)
    w = np.random.default_rng(9).uniform(0.1, 2, y.shape[0])
    for weights in (None, w):
        b = decisions.brier_curve(y, p, sample_weight=weights)
        assert b.area == pytest.approx(brier_score_loss(y, p, sample_weight=weights), abs=1e-12)
    # with probabilities 0 and 1 among them
    p2 = np.r_[p[:-2], 0.0, 1.0]
    assert decisions.brier_curve(y, p2).area == pytest.approx(brier_score_loss(y, p2), abs=1e-12)


def test_cost_curve_of_one_class_is_nan_with_a_warning():
    with pytest.warns(DegenerateMetricWarning, match="one class"):
        c = decisions.cost_curve([1, 1, 1], [0.2, 0.4, 0.9], pc=[0.5])
    assert np.isnan(c.cost[0])
