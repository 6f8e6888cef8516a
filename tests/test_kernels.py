"""The binary kernel (one sort, two cumulative sums, PAV on outcome runs) against the
grouped kernels it replaces, on ties, near-ties (closer than 1e-15) and zero weights."""

import numpy as np
import pytest

from chimeraboost import _kernels


def _grouped(score, event, W):
    """Reference: group sums over distinct scores, then binary_rank_stats and CORP."""
    groups = _kernels.GroupSums(score)
    pos, tot = groups.sums(W * event), groups.sums(W)
    stats = _kernels.binary_rank_stats(pos, tot)
    corp = _kernels.corp_decomposition(groups.values, pos, tot, W @ (score - event) ** 2)
    return stats, corp


@pytest.mark.parametrize("kind", ["distinct", "ties", "near_ties", "near_ties_only"])
def test_binary_curves_equal_grouped_kernels(kind):
    rng = np.random.default_rng(3)
    n = 500
    event = (rng.random(n) < 0.3).astype(float)
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + event)))
    if kind == "ties":
        score = np.round(score, 1)
    elif kind == "near_ties":
        score = np.round(score, 1) + rng.integers(0, 3, n) * 2e-16
    elif kind == "near_ties_only":
        # Distinct forecasts, some one or two floating-point steps apart: pooled by the
        # isotonic fit (closer than 1e-15) but not tied for the ranking.
        base = np.round(score, 2)
        steps = np.arange(n) % 3
        score = np.where(steps > 0, np.nextafter(base, 1.0), base)
        score = np.where(steps > 1, np.nextafter(score, 1.0), score)
        score, keep = np.unique(score, return_index=True)
        event = event[keep]
        n = score.shape[0]
    W = rng.poisson(1.0, size=(6, n)).astype(float) * rng.random(n)
    assert kind != "near_ties_only" or np.unique(score).shape[0] == n
    W[0] = 1.0
    ref, corp = _grouped(score, event, W)
    got = _kernels.BinaryCurves(score, event == 1)(W)
    np.testing.assert_allclose(got["roc_auc"], ref["roc_auc"], rtol=1e-12)
    np.testing.assert_allclose(got["pr_auc"], ref["pr_auc"], rtol=1e-12)
    terms = _kernels.corp_terms(W @ (score - event) ** 2, got["sq_iso"], got["pos"],
                                got["pos"] + got["neg"])
    for key in ("mcb", "dsc", "unc", "score"):
        np.testing.assert_allclose(terms[key], corp[key], rtol=1e-10, atol=1e-13, err_msg=key)


def test_binary_curves_cutoff_confusion_counts():
    rng = np.random.default_rng(4)
    n = 300
    event = rng.random(n) < 0.4
    score = np.round(rng.random(n), 2)
    pred = (score > 0.5).astype(int)
    W = rng.poisson(1.0, size=(3, n)).astype(float)
    got = _kernels.BinaryCurves(score, event, pred)(W, corp=False)
    np.testing.assert_allclose(got["tp_cut"], W @ (event & (pred == 1)), rtol=1e-12)
    np.testing.assert_allclose(got["fp_cut"], W @ (~event & (pred == 1)), rtol=1e-12)
