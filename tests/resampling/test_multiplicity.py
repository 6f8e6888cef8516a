"""chimeraboost.resampling's multiplicity adjustments: holm and benjamini_hochberg, and the
t tests of several differences from their replicates (difference_tests).

Against numbers derived by hand (arithmetic in the comments), the definitional step-down /
step-up procedures and, when installed, statsmodels; chimeraboost.compare re-exports the same
objects.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chimeraboost import compare, resampling

TOL = dict(rtol=1e-12, atol=1e-12)
pvalue_vectors = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=25)


def test_compare_re_exports_the_same_objects():
    assert compare.holm is resampling.holm
    assert compare.benjamini_hochberg is resampling.benjamini_hochberg
    assert compare.MultipleTestResult is resampling.MultipleTestResult


def test_holm_and_bh_by_hand():
    # Sorted: 0.005 (#3), 0.01 (#0), 0.03 (#2), 0.04 (#1); m = 4.
    # Holm: 4*.005=.02, 3*.01=.03, 2*.03=.06, 1*.04=.04 -> running max .02 .03 .06 .06.
    # BH: .005*4/1=.02, .01*4/2=.02, .03*4/3=.04, .04*4/4=.04 -> running min from the top.
    p = [0.01, 0.04, 0.03, 0.005]
    h = resampling.holm(p, alpha=0.05)
    np.testing.assert_allclose(h.pvalues_adjusted, [0.03, 0.06, 0.06, 0.02], **TOL)
    np.testing.assert_array_equal(h.reject, [True, False, False, True])
    bh = resampling.benjamini_hochberg(p, alpha=0.05)
    np.testing.assert_allclose(bh.pvalues_adjusted, [0.02, 0.04, 0.04, 0.02], **TOL)
    np.testing.assert_array_equal(bh.reject, [True, True, True, True])
    adjusted, reject = resampling.holm([0.5])  # unpacks; one test is left alone
    assert adjusted.tolist() == [0.5] and reject.tolist() == [False]
    # Capped at 1: 3 * 0.6 = 1.8 -> 1.
    assert resampling.holm([0.6, 0.7, 0.9]).pvalues_adjusted.tolist() == [1.0, 1.0, 1.0]


def _holm_step_down(p, alpha):
    # Definition: walk up the sorted p-values, reject while (m - j + 1) p_(j) <= alpha.
    order, m = np.argsort(p, kind="stable"), len(p)
    reject = np.zeros(m, bool)
    for j, i in enumerate(order, start=1):
        if (m - j + 1) * p[i] > alpha:
            break
        reject[i] = True
    return reject


def _bh_step_up(p, alpha):
    # Definition: k = largest j with m p_(j) / j <= alpha; reject the k smallest.
    order, m = np.argsort(p, kind="stable"), len(p)
    ok = [p[i] * m / j <= alpha for j, i in enumerate(order, start=1)]
    k = max((j for j, good in enumerate(ok, start=1) if good), default=0)
    reject = np.zeros(m, bool)
    reject[order[:k]] = True
    return reject


@settings(max_examples=150, deadline=None)
@given(pvalue_vectors, st.sampled_from([0.01, 0.05, 0.1, 0.2]))
def test_multiplicity_against_the_procedures_and_invariants(p, alpha):
    p = np.asarray(p)
    h, bh = resampling.holm(p, alpha=alpha), resampling.benjamini_hochberg(p, alpha=alpha)
    np.testing.assert_array_equal(h.reject, _holm_step_down(p, alpha))
    np.testing.assert_array_equal(bh.reject, _bh_step_up(p, alpha))
    bonferroni = np.minimum(1, len(p) * p)
    for adj in (h.pvalues_adjusted, bh.pvalues_adjusted):
        assert np.all(adj >= p - 1e-15) and np.all(adj <= 1)
        # Order preserving: a smaller p-value never gets a larger adjustment.
        order = np.argsort(p, kind="stable")
        assert np.all(np.diff(adj[order]) >= 0)
    assert np.all(bh.pvalues_adjusted <= h.pvalues_adjusted + 1e-15)
    assert np.all(h.pvalues_adjusted <= bonferroni + 1e-15)


def test_multiplicity_against_statsmodels():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(3)
    p = np.concatenate([rng.uniform(0, 0.02, 5), rng.uniform(0, 1, 15)])
    for ours, method in ((resampling.holm, "holm"), (resampling.benjamini_hochberg, "fdr_bh")):
        reject, adjusted, _, _ = multitest.multipletests(p, alpha=0.05, method=method)
        res = ours(p, alpha=0.05)
        np.testing.assert_allclose(res.pvalues_adjusted, adjusted, **TOL)
        np.testing.assert_array_equal(res.reject, reject)


@pytest.mark.parametrize("func", [resampling.holm, resampling.benjamini_hochberg])
@pytest.mark.parametrize(
    ("pvalues", "alpha", "error", "match"),
    [
        ([0.1, 1.2], 0.05, ValueError, r"pvalues must lie in \[0, 1\]; got \[1.2\]"),
        ([-0.1], 0.05, ValueError, r"pvalues must lie in \[0, 1\]"),
        ([], 0.05, ValueError, "pvalues is empty"),
        ([0.1, np.nan], 0.05, ValueError, "pvalues contains 1 NaN"),
        ([0.1], 0.0, ValueError, r"alpha=0.0 is outside \(0, 1\)"),
        ([0.1], 1.0, ValueError, r"alpha=1.0 is outside \(0, 1\)"),
        ([0.1], "0.05", TypeError, "alpha must be a float"),
    ],
)
def test_multiplicity_bad_input(func, pvalues, alpha, error, match):
    with pytest.raises(error, match=match):
        func(pvalues, alpha=alpha)



# --------------------------------------------------------------------------- difference_tests


def _plug_in_replicates(x, rng, n_boot=4000):
    """Bootstrap replicates of the mean of x: their spread is near the plug-in standard error."""
    idx = rng.integers(0, x.size, size=(n_boot, x.size))
    return x[idx].mean(axis=1)


def test_difference_tests_is_the_one_sample_t_test_when_the_spread_is_the_plug_in_one():
    from scipy import stats

    rng = np.random.default_rng(0)
    for u in (8, 12, 40):
        x = rng.normal(0.3, 1.0, u)
        plug_in = x.std(ddof=0) / np.sqrt(u)
        reps = x.mean() + plug_in * np.array([-1.0, 1.0]) / np.sqrt(2.0)  # sd: plug_in
        t = resampling.difference_tests([x.mean()], [reps], [u])
        np.testing.assert_allclose(t.pvalue[0], stats.ttest_1samp(x, 0.0).pvalue, **TOL)
        np.testing.assert_allclose(t.se[0], stats.sem(x), **TOL)
        # a real bootstrap of the mean: within its Monte Carlo error of scipy's p
        boot = resampling.difference_tests([x.mean()], [_plug_in_replicates(x, rng)], [u])
        assert abs(boot.se[0] / stats.sem(x) - 1) < 0.05


def test_difference_tests_adjusts_as_holm_and_bh_and_leaves_out_the_ineligible():
    rng = np.random.default_rng(1)
    est = np.array([0.5, 0.05, -0.3, 0.2])
    reps = [e + rng.normal(0, 0.1, 500) for e in est]
    for adjust, func in (("holm", resampling.holm), ("bh", resampling.benjamini_hochberg)):
        t = resampling.difference_tests(est, reps, [30] * 4, eligible=[1, 1, 1, 0],
                                        adjust=adjust, alpha=0.05)
        assert np.isnan(t.pvalue[3]) and np.isnan(t.pvalue_adjusted[3]) and not t.reject[3]
        ref = func(t.pvalue[:3], alpha=0.05)
        np.testing.assert_allclose(t.pvalue_adjusted[:3], ref.pvalues_adjusted, **TOL)
        np.testing.assert_array_equal(t.reject[:3], ref.reject)


def test_difference_tests_of_a_tie_is_zero_with_p_one_and_undefined_spread_is_untested():
    t = resampling.difference_tests([1e-17, 0.2, 0.5], [np.zeros(50), np.full(50, np.nan),
                                                        np.full(50, 0.5)], [20, 20, 20])
    assert t.difference[0] == 0.0 and t.pvalue[0] == 1.0 and not t.reject[0]
    assert np.isnan(t.pvalue[1]) and np.isnan(t.pvalue[2])  # no replicates; no spread


@pytest.mark.parametrize("kwargs, match", [
    (dict(adjust="bonferroni"), "adjust='bonferroni'"),
    (dict(alpha=1.5), "alpha"),
    (dict(replicates=[np.zeros(3)]), "2 differences"),
])
def test_difference_tests_bad_input(kwargs, match):
    args = dict(estimate=[0.1, 0.2], replicates=[np.zeros(3), np.ones(3)], units=[5, 5])
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        resampling.difference_tests(**args)
