"""The binary kernels (one sort, two cumulative sums, PAV on outcome runs) against the
grouped kernels they replace and against scikit-learn, on ties, near-ties (closer than
1e-15), zero weights, replicates holding one class, and integer resampling counts."""

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import average_precision_score, roc_auc_score

from chimeraboost.metrics import _curves
from chimeraboost.metrics import _kernels


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
    got = _curves.BinaryCurves(score, event == 1)(W)
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
    got = _curves.BinaryCurves(score, event, pred)(W, corp=False)
    np.testing.assert_allclose(got["tp_cut"], W @ (event & (pred == 1)), rtol=1e-12)
    np.testing.assert_allclose(got["fp_cut"], W @ (~event & (pred == 1)), rtol=1e-12)


def _scores(kind, rng, n):
    event = (rng.random(n) < 0.3).astype(float)
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + event)))
    if kind == "ties":
        score = np.round(score, 1)
    return score, event


def _iso_sq_sklearn(score, event, w):
    """Weighted squared error of scikit-learn's isotonic fit (rows of weight 0 left out)."""
    keep = w > 0
    fit = IsotonicRegression(out_of_bounds="clip").fit(score[keep], event[keep],
                                                       sample_weight=w[keep])
    return np.sum(w[keep] * (fit.predict(score[keep]) - event[keep]) ** 2)


@pytest.mark.parametrize("kind", ["distinct", "ties"])
def test_integer_counts_equal_their_float_copy_and_sklearn(kind):
    # Resampling counts as int64 take the integer path (gathers and cumulative sums in integer
    # arithmetic, PAV on the points near each replicate's majorant); as float64 the point
    # path. Both against scikit-learn, with zero counts and a replicate of one class.
    rng = np.random.default_rng(5)
    n = 400
    score, event = _scores(kind, rng, n)
    counts = rng.poisson(1.0, size=(7, n))
    counts[1, event == 1] = 0  # no positives: ROC-AUC and PR-AUC undefined
    curves = _curves.BinaryCurves(score, event == 1)
    got = curves(counts)
    assert curves._hull is not None  # the integer batch took the majorant shortcut
    for b, c in enumerate(counts):
        one = _curves.BinaryCurves(score, event == 1)(c[None, :].astype(float))
        for key in ("roc_auc", "pr_auc", "pos", "neg"):
            np.testing.assert_array_equal(got[key][b], one[key][0], err_msg=key)
        np.testing.assert_allclose(got["sq_iso"][b], one["sq_iso"][0], rtol=1e-12)
        np.testing.assert_allclose(got["sq_iso"][b], _iso_sq_sklearn(score, event, c),
                                   rtol=1e-10)
        if b == 1:
            assert np.isnan(got["roc_auc"][b]) and np.isnan(got["pr_auc"][b])
            continue
        np.testing.assert_allclose(got["roc_auc"][b],
                                   roc_auc_score(event, score, sample_weight=c), rtol=1e-12)
        np.testing.assert_allclose(got["pr_auc"][b],
                                   average_precision_score(event, score, sample_weight=c),
                                   rtol=1e-12)


def test_majorant_shortcut_with_fractional_weights_equals_plain_pav():
    # Float weights (sample weights times counts): the chords are compared in floating
    # point; the fit must still be the one of PAV on every block.
    rng = np.random.default_rng(6)
    n = 600
    score, event = _scores("distinct", rng, n)
    W = rng.poisson(1.0, size=(5, n)) * rng.random(n)
    W[2, :300] = 0.0
    got = _curves.BinaryCurves(score, event == 1)(W)["sq_iso"]
    ref = [_iso_sq_sklearn(score, event, w) for w in W]
    np.testing.assert_allclose(got, ref, rtol=1e-10)


def test_workspace_reuse_and_shorter_chunks_give_the_same_numbers():
    rng = np.random.default_rng(7)
    n = 300
    score, event = _scores("ties", rng, n)
    counts = rng.poisson(1.0, size=(6, n))
    curves = _curves.BinaryCurves(score, event == 1)
    work = _kernels.Workspace()
    first = curves(counts, work=work)
    again = [curves(counts[i:i + 4], work=work) for i in (0, 4)]
    for key in ("roc_auc", "pr_auc", "sq_iso"):
        np.testing.assert_array_equal(np.concatenate([a[key] for a in again]), first[key])


@pytest.mark.parametrize("ties", [False, True])
def test_lean_roc_auc_kernel_on_integer_counts_equals_sklearn(ties):
    rng = np.random.default_rng(8)
    n = 500
    score, event = _scores("ties" if ties else "distinct", rng, n)
    counts = rng.poisson(1.0, size=(5, n))
    counts[3, event == 0] = 0  # no negatives
    got = _curves.BinaryRocAuc(score, event == 1)(counts)
    for b, c in enumerate(counts):
        if b == 3:
            assert np.isnan(got["roc_auc"][b])
            continue
        np.testing.assert_allclose(got["roc_auc"][b],
                                   roc_auc_score(event, score, sample_weight=c), rtol=1e-12)


def _sort_cases():
    rng = np.random.default_rng(7)
    n = 3000
    u = rng.random(n)
    return {
        "distinct": u,
        "ties": np.round(u, 2),
        "signed with both zeros": np.r_[rng.normal(size=n), np.zeros(5), -np.zeros(5)],
        # Values that differ only in the lowest bits, which the packed key gives to the
        # index: put in order by the exact second sort.
        "low bits": np.r_[np.tile(0.5 + np.arange(4) * 2**-50, 5), u],
        "negative low bits": np.r_[np.tile(-0.25 - np.arange(4) * 2**-52, 5), -u],
        # Too many such values: the whole array is argsorted instead.
        "mostly low bits": 0.5 + np.arange(n) * 2**-52,
    }


@pytest.mark.parametrize("case", list(_sort_cases()))
@pytest.mark.parametrize("packed_from", [2, None])
def test_sorted_order_sorts_like_argsort(case, packed_from, monkeypatch):
    # The packed-key sort (used from 2^14 values; here from 2 as well) gives a permutation
    # that sorts the values, and the sorted values, exactly as np.argsort does (ties in any
    # order; -0.0 and 0.0 tie).
    if packed_from is not None:
        monkeypatch.setattr(_kernels, "_PACKED_SORT_MIN", packed_from)
    x = _sort_cases()[case]
    order, ranked = _kernels.sorted_order(x)
    np.testing.assert_array_equal(np.sort(order), np.arange(x.shape[0]))
    np.testing.assert_array_equal(ranked, x[order])
    np.testing.assert_array_equal(ranked, np.sort(x))
    assert order.dtype == np.intp


def test_sorted_order_on_many_rows_equals_argsort():
    rng = np.random.default_rng(8)
    x = np.r_[rng.random(60_000), 0.5 + rng.integers(0, 3, 5000) * 2**-50]
    order, ranked = _kernels.sorted_order(x)
    np.testing.assert_array_equal(ranked, np.sort(x))
    np.testing.assert_array_equal(np.sort(order), np.arange(x.shape[0]))


@pytest.mark.parametrize("kind", ["distinct", "ties", "near_ties"])
def test_binary_curves_on_the_packed_sort_equal_sklearn(kind, monkeypatch):
    # The curves sorted by the packed-key sort (forced on 2,000 rows) give scikit-learn's
    # ROC-AUC, average precision and isotonic MCB; the unit-weight path (weights=None, the
    # point estimate) gives the numbers of explicit unit weights.
    monkeypatch.setattr(_kernels, "_PACKED_SORT_MIN", 2)
    rng = np.random.default_rng(9)
    n = 2000
    event = rng.random(n) < 0.3
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + event)))
    if kind == "ties":
        score = np.round(score, 2)
    elif kind == "near_ties":
        score = np.round(score, 2) + rng.integers(0, 3, n) * 2e-16
    curves = _curves.BinaryCurves(score, event)
    unit = curves(None)
    ones = curves(np.ones((1, n)))
    assert unit.keys() == ones.keys()
    for key in unit:
        np.testing.assert_allclose(unit[key], ones[key], rtol=0, atol=1e-12, err_msg=key)
    assert unit["roc_auc"][0] == pytest.approx(roc_auc_score(event, score), abs=1e-12)
    assert unit["pr_auc"][0] == pytest.approx(average_precision_score(event, score), abs=1e-12)
    recal = IsotonicRegression(out_of_bounds="clip").fit(score, event).predict(score)
    assert unit["sq_iso"][0] == pytest.approx(np.sum((recal - event) ** 2), abs=1e-9)
