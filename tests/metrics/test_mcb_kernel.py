"""The one isotonic fit behind every MCB (``isotonic_recalibration``) against scikit-learn's
``IsotonicRegression`` with sample weights, ties and near-ties; the CORP identity
``brier_k = MCB_k - DSC_k + UNC_k``; a batch of weight vectors equals one vector at a time;
and the four callers (the evaluator, the sorted curves, the calibration test's cells and the
reliability curve) agree with each other and with scikit-learn."""

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression

from chimeraboost.metrics import _kernels
from chimeraboost.metrics import _calibration_test, _curves
from chimeraboost.metrics import calibration_decomposition, reliability_curve


def _data(kind, rng, n=400):
    event = (rng.random(n) < 0.35).astype(float)
    x = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * event - 0.5)))
    if kind in ("ties", "near_ties"):
        x = np.round(x, 1)
    if kind == "near_ties":
        # Forecasts one or two floating-point steps apart: one forecast for the fit.
        x = x + rng.integers(0, 3, n) * 2e-17
    return x, event


def _pools(x):
    values, inverse = np.unique(x, return_inverse=True)
    return _kernels.isotonic_groups(values)[inverse]


def _sums(pool, W, event):
    g = int(pool.max()) + 1
    ev = np.stack([np.bincount(pool, weights=w * event, minlength=g) for w in W])
    tot = np.stack([np.bincount(pool, weights=w, minlength=g) for w in W])
    return ev, tot


def _sklearn(x, event, w):
    """scikit-learn's weighted isotonic fit at each row (rows of weight 0 left out)."""
    keep = w > 0
    fit = IsotonicRegression(out_of_bounds="clip").fit(x[keep], event[keep],
                                                       sample_weight=w[keep])
    return keep, fit.predict(x[keep])


def _weights(rng, n, b=5):
    W = rng.poisson(1.0, size=(b, n)) * rng.gamma(2.0, size=n)
    W[0] = rng.gamma(2.0, size=n)  # sample weights alone
    W[1, : n // 3] = 0.0  # whole pools of weight zero
    return W


@pytest.mark.parametrize("kind", ["distinct", "ties", "near_ties"])
def test_isotonic_recalibration_equals_sklearn(kind):
    rng = np.random.default_rng(11)
    x, event = _data(kind, rng)
    W = _weights(rng, x.shape[0])
    pool = _pools(x)
    ev, tot = _sums(pool, W, event)
    got = _kernels.isotonic_recalibration(ev, tot, fitted=True)
    for b, w in enumerate(W):
        keep, r = _sklearn(x, event, w)
        np.testing.assert_allclose(got["sq_err"][b], np.sum(w[keep] * (r - event[keep]) ** 2),
                                   rtol=1e-10)
        np.testing.assert_allclose(got["fitted"][b, pool[keep]], r, rtol=1e-10, atol=1e-12)
        assert np.isnan(got["fitted"][b, tot[b] == 0]).all()


@pytest.mark.parametrize("kind", ["distinct", "ties", "near_ties"])
def test_corp_mcb_equals_sklearn_and_the_decomposition_holds(kind):
    rng = np.random.default_rng(12)
    x, event = _data(kind, rng)
    W = _weights(rng, x.shape[0])
    groups = _kernels.GroupSums(x)
    ev, tot = groups.sums(W * event), groups.sums(W)
    got = _kernels.corp_decomposition(groups.values, ev, tot, W @ (x - event) ** 2)
    with_neg = _kernels.corp_decomposition(groups.values, ev, tot, W @ (x - event) ** 2,
                                           nonevents=groups.sums(W * (1 - event)))
    for b, w in enumerate(W):
        keep, r = _sklearn(x, event, w)
        brier = np.sum(w * (x - event) ** 2) / w.sum()
        mcb = brier - np.sum(w[keep] * (r - event[keep]) ** 2) / w.sum()
        rate = np.sum(w * event) / w.sum()
        for res in (got, with_neg):
            np.testing.assert_allclose(res["mcb"][b], mcb, rtol=1e-9, atol=1e-14)
            np.testing.assert_allclose(res["unc"][b], rate * (1 - rate), rtol=1e-12)
            np.testing.assert_allclose(res["score"][b], brier, rtol=1e-12)
            np.testing.assert_allclose(res["mcb"][b] - res["dsc"][b] + res["unc"][b], brier,
                                       rtol=1e-12)
            assert res["mcb"][b] >= -1e-15 and res["dsc"][b] >= -1e-15


def test_decomposition_identity_per_class_with_sample_weights():
    rng = np.random.default_rng(13)
    n, k = 300, 3
    proba = np.round(rng.dirichlet(np.ones(k), size=n), 1)
    proba /= proba.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(k, p=p) for p in proba])
    w = rng.gamma(2.0, size=n)
    d = calibration_decomposition(y, proba, classes=[0, 1, 2], sample_weight=w)
    pc = d["per_class"]
    for j in range(k):
        o = (y == j).astype(float)
        brier_j = np.sum(w * (proba[:, j] - o) ** 2) / w.sum()
        np.testing.assert_allclose(pc["mcb"][j] - pc["dsc"][j] + pc["unc"][j], brier_j,
                                   rtol=1e-12)
        keep, r = _sklearn(proba[:, j], o, w)
        np.testing.assert_allclose(pc["mcb"][j], brier_j - np.sum(w * (r - o) ** 2) / w.sum(),
                                   rtol=1e-9, atol=1e-14)


def test_batch_equals_loop_and_options_agree():
    rng = np.random.default_rng(14)
    x, event = _data("ties", rng)
    W = _weights(rng, x.shape[0], b=6)
    ev, tot = _sums(_pools(x), W, event)
    batch = _kernels.isotonic_recalibration(ev, tot, fitted=True)
    for b in range(W.shape[0]):
        one = _kernels.isotonic_recalibration(ev[b:b + 1], tot[b:b + 1], fitted=True)
        np.testing.assert_array_equal(batch["sq_err"][b], one["sq_err"][0])
        np.testing.assert_array_equal(batch["fitted"][b], one["fitted"][0])
    # The non-events' weight given, or the pools in descending order with a falling fit:
    # the same fit to rounding.
    neg = _kernels.isotonic_recalibration(ev, tot, nonevents=tot - ev)["sq_err"]
    down = _kernels.isotonic_recalibration(ev[:, ::-1], tot[:, ::-1], increasing=False,
                                           fitted=True)
    np.testing.assert_allclose(neg, batch["sq_err"], rtol=1e-12)
    np.testing.assert_allclose(down["sq_err"], batch["sq_err"], rtol=1e-12)
    np.testing.assert_allclose(down["fitted"][:, ::-1], batch["fitted"], rtol=1e-12)
    # Integer weights (resampling counts) give the floating-point numbers.
    counts = rng.poisson(1.0, size=(4, x.shape[0]))
    ev_i, tot_i = _sums(_pools(x), counts, event)
    ints = _kernels.isotonic_recalibration(ev_i.astype(np.int64), tot_i.astype(np.int64))
    np.testing.assert_allclose(ints["sq_err"],
                               _kernels.isotonic_recalibration(ev_i, tot_i)["sq_err"],
                               rtol=1e-12)


def test_a_vector_of_weight_zero_gives_nan():
    got = _kernels.isotonic_recalibration(np.zeros((2, 3)), np.array([[0.0] * 3, [1, 2, 1]]),
                                          fitted=True)
    assert np.isnan(got["sq_err"][0]) and np.isnan(got["fitted"][0]).all()
    assert got["sq_err"][1] == 0.0  # no events: the fit is 0 everywhere, exactly right


@pytest.mark.parametrize("kind", ["distinct", "near_ties"])
def test_the_four_callers_give_sklearns_mcb(kind):
    rng = np.random.default_rng(15)
    x, event = _data(kind, rng)
    w = rng.gamma(2.0, size=x.shape[0])
    keep, r = _sklearn(x, event, w)
    sq_p = np.sum(w * (x - event) ** 2)
    mcb = (sq_p - np.sum(w * (r - event) ** 2)) / w.sum()
    # 1. the evaluator (GroupSums and corp_decomposition): per-class MCB of the binary pair
    d = calibration_decomposition(event.astype(int), x, classes=[0, 1], sample_weight=w)
    np.testing.assert_allclose(d["per_class"]["mcb"][1], mcb, rtol=1e-9)
    # 2. the sorted curves of a bootstrap
    got = _curves.BinaryCurves(x, event == 1)(w[None, :])
    np.testing.assert_allclose((sq_p - got["sq_iso"][0]) / w.sum(), mcb, rtol=1e-9)
    # 3. the calibration test's cells (no merging at 400 rows)
    cells = _calibration_test._Cells(x, w)
    assert not cells.merged
    ev_cells = np.bincount(cells.cell, weights=cells.w * event[cells.order],
                           minlength=cells.n_cells)
    np.testing.assert_allclose(cells.mcb(ev_cells[None, :])[0], mcb, rtol=1e-9)
    # 4. the reliability curve: the squared error of its recalibrated forecast
    curve = reliability_curve(event.astype(int), x, classes=[0, 1], sample_weight=w)
    rc = np.interp(x, curve.forecast, curve.recalibrated)
    np.testing.assert_allclose(rc, r, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose((sq_p - np.sum(w * (rc - event) ** 2)) / w.sum(), mcb,
                               rtol=1e-9)


def _one_vector_at_a_time(events, tot, nonevents=None):
    """The squared error of the recalibrated forecast, one vector at a time: scipy's fit
    ``r`` at each pool and ``sum_pools E (1 - r)^2 + (T - E) r^2`` (or ``N`` for ``T - E``)."""
    from scipy.optimize import isotonic_regression

    out = np.full(tot.shape[0], np.nan)
    for b in range(tot.shape[0]):
        keep = tot[b] > 0
        if keep.any():
            e, t = events[b, keep], tot[b, keep]
            r = isotonic_regression(e / t, weights=t).x
            n = t - e if nonevents is None else nonevents[b, keep]
            out[b] = np.sum(e * (1.0 - r) ** 2 + n * r * r)
    return out


@pytest.mark.parametrize("shared_pools", [False, True])
def test_blocks_summed_for_all_vectors_at_once_equal_one_vector_at_a_time(shared_pools):
    # The kernel sums every vector's blocks in one pass over the vectors laid end to end;
    # each vector's number is the one its own fit gives (pools of weight zero left out, a
    # vector of weight zero NaN, the pools' weights shared by all vectors as the
    # calibration test passes them).
    rng = np.random.default_rng(21)
    x, event = _data("ties", rng, n=600)
    W = _weights(rng, x.shape[0], b=7)
    W[2] = 0.0
    ev, tot = _sums(_pools(x), W, event)
    if shared_pools:
        tot = np.broadcast_to(tot[0], tot.shape)
        ev = np.floor(tot * rng.random(tot.shape))
    got = _kernels.isotonic_recalibration(ev, tot)["sq_err"]
    np.testing.assert_allclose(got, _one_vector_at_a_time(ev, tot), rtol=1e-12,
                               equal_nan=True)
    neg = _kernels.isotonic_recalibration(ev, tot, nonevents=tot - ev)["sq_err"]
    np.testing.assert_allclose(neg, _one_vector_at_a_time(ev, tot, tot - ev), rtol=1e-12,
                               equal_nan=True)
