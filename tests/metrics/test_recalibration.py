"""The score test of Cox's recalibration in ``calibration_test`` (``recalibration_*``)."""

import warnings

import numpy as np
import pytest
from scipy.special import expit, logit
from scipy.stats import chi2, kstest, norm

from chimeraboost import metrics
from chimeraboost._shared.units import check_units
from chimeraboost.exceptions import DegenerateMetricWarning, FewResamplesWarning
from chimeraboost.metrics import _recalibration

sm = pytest.importorskip("statsmodels.api")


def _test(y, p, classes=(0, 1), **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewResamplesWarning)
        return metrics.calibration_test(y, p, list(classes), n_boot=kw.pop("n_boot", 200),
                                        random_state=kw.pop("random_state", 0), **kw)


def _score(y, p, groups=None, time=None):
    """The score test alone (what calibration_test fills in recalibration_*), binary."""
    units = None if groups is None and time is None else check_units(y.size, groups=groups,
                                                                     time=time)
    return _recalibration.recalibration_score_test(
        y, np.c_[1 - p, p], np.ones(y.size), [1], units, None if units is None else units.codes)


def _binary(n, seed, scale=1.0, low=0.02, high=0.98):
    rng = np.random.default_rng(seed)
    q = rng.uniform(low, high, n)
    y = (rng.random(n) < q).astype(int)
    return y, expit(scale * logit(q))


def _clustered(g, m, rho, seed, scale=1.0):
    """The snapshot design: a customer's feature and latent effect shared by its rows."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(g)
    latent = (1.2 * x[:, None] - 0.8 + np.sqrt(rho) * rng.standard_normal((g, 1))
              + np.sqrt(1 - rho) * rng.standard_normal((g, m)))
    q = np.repeat(norm.cdf(1.2 * x - 0.8), m)  # calibrated given x
    y = (latent > 0).astype(int).ravel()
    return y, expit(scale * logit(q)), np.repeat(np.arange(g), m)


@pytest.mark.parametrize("weighted", [False, True])
def test_rows_agree_with_the_statsmodels_glm_score_test_and_fit(weighted):
    # The binomial GLM with offset logit(p) and exog (1, logit p): Rao's score test of
    # params = 0 is the test of intercept 0, slope 1; its fit is Cox's recalibration.
    y, p = _binary(600, 1, scale=1.2)
    w = np.random.default_rng(2).integers(1, 4, y.size).astype(float) if weighted else None
    z = logit(p)
    model = sm.GLM(y, np.c_[np.ones_like(z), z], family=sm.families.Binomial(), offset=z,
                   freq_weights=w)
    stat, pval, df = model.score_test(np.zeros(2), k_constraints=2)
    res = _test(y, p, sample_weight=w)
    assert res.recalibration_statistic == pytest.approx(float(stat[0]), rel=1e-9)
    assert res.recalibration_pvalue == pytest.approx(float(pval[0]), rel=1e-9)
    assert res.recalibration_df == df == 2
    a, b_minus_1 = model.fit().params
    # The fit's vanishing ridge (1e-6 toward a = 0, b = 1) moves it by about that much.
    assert res.recalibration_intercept == pytest.approx(a, abs=1e-5)
    assert res.recalibration_slope == pytest.approx(1 + b_minus_1, abs=1e-5)


def test_multiclass_statistic_is_the_score_test_with_the_information_by_enumeration():
    # The stacked one-vs-rest scores (r_k, r_k z_k); their covariance under calibration is
    # computed here by enumerating each row's K possible outcomes.
    rng = np.random.default_rng(3)
    n, k = 300, 3
    proba = rng.dirichlet(np.ones(k) * 2, n)
    y = (rng.random(n)[:, None] > np.cumsum(proba, axis=1)).sum(axis=1)
    z = logit(proba)
    onehot = np.eye(k)
    def score(i, outcome):
        r = onehot[outcome] - proba[i]
        return np.ravel(np.c_[r, r * z[i]])
    u = sum(score(i, y[i]) for i in range(n))
    info = sum(proba[i, c] * np.outer(score(i, c), score(i, c)) for i in range(n)
               for c in range(k))
    t = u @ np.linalg.pinv(info, rcond=1e-10) @ u
    res = _test(y, proba, classes=range(k))
    assert res.recalibration_df == 2 * k - 1  # the intercepts' scores sum to zero
    assert res.recalibration_statistic == pytest.approx(t, rel=1e-8)
    assert res.recalibration_pvalue == pytest.approx(chi2.sf(t, 2 * k - 1), rel=1e-8)
    # Per class: each class's own two numbers, one-vs-rest, and its own fit.
    for j in range(k):
        block = slice(2 * j, 2 * j + 2)
        tj = u[block] @ np.linalg.inv(info[block, block]) @ u[block]
        assert res.recalibration_pvalue_per_class[j] == pytest.approx(chi2.sf(tj, 2), rel=1e-8)
        zj = z[:, j]
        fit = sm.GLM((y == j).astype(float), np.c_[np.ones(n), zj],
                     family=sm.families.Binomial()).fit()
        assert res.recalibration_intercept_per_class[j] == pytest.approx(fit.params[0],
                                                                         abs=1e-5)
        assert res.recalibration_slope_per_class[j] == pytest.approx(fit.params[1], abs=1e-5)
    assert res.recalibration_slope == pytest.approx(res.recalibration_slope_per_class.mean())


def test_binary_two_columns_equal_one_column_and_the_classes_mirror():
    y, p = _binary(400, 4, scale=0.8)
    one, two = _test(y, p), _test(y, np.c_[1 - p, p])
    assert one.recalibration_statistic == pytest.approx(two.recalibration_statistic)
    assert one.recalibration_intercept_per_class[0] == -one.recalibration_intercept_per_class[1]
    assert one.recalibration_slope_per_class[0] == one.recalibration_slope_per_class[1]
    assert one.recalibration_intercept == one.recalibration_intercept_per_class[1]
    # Swapping the labels mirrors the forecast: the same test, the intercept's sign flips.
    swapped = _test(1 - y, 1 - p)
    assert swapped.recalibration_statistic == pytest.approx(one.recalibration_statistic)
    assert swapped.recalibration_intercept == pytest.approx(-one.recalibration_intercept,
                                                            abs=1e-8)


@pytest.mark.slow
def test_rows_pvalues_are_uniform_under_calibration_and_small_when_overconfident():
    # 200 small calibrated data sets (150 rows): the chi-squared reference holds.
    pvals = np.array([_score(*_binary(150, seed))["pvalue"] for seed in range(200)])
    assert kstest(pvals, "uniform").pvalue > 0.01
    assert 0.02 <= np.mean(pvals < 0.05) <= 0.09
    assert _score(*_binary(2000, 7, scale=1.5))["pvalue"] < 1e-6


@pytest.mark.slow
def test_groups_keep_the_size_where_rows_do_not():
    # 200 data sets of 40 correlated customers: the row-wise test rejects a calibrated
    # forecast far too often, the test with groups about 5% of the time.
    rows, grouped = [], []
    for seed in range(200):
        y, p, g = _clustered(40, 8, 0.7, seed)
        grouped.append(_score(y, p, g)["pvalue"])
        rows.append(_score(y, p)["pvalue"])
    assert np.mean(np.array(rows) < 0.05) > 0.15
    assert 0.02 <= np.mean(np.array(grouped) < 0.05) <= 0.09


def test_groups_of_size_one_are_rows():
    # Nothing is shared: the rows' own variance, from the hypothesis, is all of V; only the
    # reference differs, F(2, n - 1) against chi-squared on 2.
    y, p = _binary(800, 8, scale=1.1)
    rows, ones = _test(y, p), _test(y, p, groups=np.arange(y.size))
    for name in ("statistic", "intercept", "slope"):
        assert getattr(ones, f"recalibration_{name}") == pytest.approx(
            getattr(rows, f"recalibration_{name}"), rel=1e-9), name
    assert ones.recalibration_pvalue == pytest.approx(rows.recalibration_pvalue, rel=0.01)


def test_the_shared_variance_is_the_within_group_cross_products():
    # Two rows per group: C = sum_g (s_1 s_2' + s_2 s_1'), a hand computation.
    y, p, g = _clustered(150, 2, 0.6, 17)
    p = np.clip(p, 0.5 / 301, 1 - 0.5 / 301)  # the clip, half a row from the edge
    z = logit(p)
    s = np.c_[y - p, (y - p) * z]
    cross = sum(np.outer(s[2 * i], s[2 * i + 1]) + np.outer(s[2 * i + 1], s[2 * i])
                for i in range(150))
    vals, vecs = np.linalg.eigh(cross)
    shared = (vecs * np.maximum(vals, 0)) @ vecs.T
    fisher = (np.c_[np.ones_like(z), z] * (p * (1 - p))[:, None]).T @ np.c_[np.ones_like(z), z]
    u = s.sum(axis=0)
    t = u @ np.linalg.solve(fisher + shared, u)
    assert _score(y, p, g)["statistic"] == pytest.approx(t, rel=1e-9)


def test_permuting_rows_and_relabelling_groups_change_nothing():
    y, p, g = _clustered(60, 5, 0.5, 9, scale=1.3)
    base = _test(y, p, groups=g)
    order = np.random.default_rng(0).permutation(y.size)
    for kw in ({"groups": g[order]}, {"groups": np.random.default_rng(1).permutation(60)[
            g[order]].astype(str)}):
        other = _test(y[order], p[order], **kw)
        assert other.recalibration_statistic == pytest.approx(base.recalibration_statistic,
                                                              rel=1e-9)
        assert other.recalibration_pvalue == pytest.approx(base.recalibration_pvalue,
                                                           rel=1e-9)


@pytest.mark.parametrize("grouped", [False, True])
def test_integer_weights_equal_repeated_rows(grouped):
    # Forecasts away from 0 and 1: the clip (half a row from the edge) counts rows.
    y, p, g = _clustered(50, 4, 0.5, 10, scale=0.9)
    p = np.clip(p, 0.01, 0.99)
    w = np.random.default_rng(5).integers(1, 4, y.size)
    rep = np.repeat(np.arange(y.size), w)
    kw = {"groups": g} if grouped else {}
    kw_rep = {"groups": g[rep]} if grouped else {}
    weighted = _test(y, p, sample_weight=w.astype(float), **kw)
    repeated = _test(y[rep], p[rep], **kw_rep)
    for name in ("statistic", "pvalue", "intercept", "slope"):
        assert getattr(weighted, f"recalibration_{name}") == pytest.approx(
            getattr(repeated, f"recalibration_{name}"), rel=1e-9), name


@pytest.mark.slow
def test_time_ordered_rows_with_serial_dependence():
    # Rows ordered in time whose surprises follow an AR(1) latent (phi = 0.9): rows alone
    # reject a calibrated forecast too often, time= keeps about the nominal size, and
    # independent rows with time= lose nothing.
    rng = np.random.default_rng(18)
    rows, timed, iid = [], [], []
    for _ in range(150):
        x = rng.standard_normal(600)
        a = np.zeros(600)
        e = rng.standard_normal(600) * np.sqrt(1 - 0.81)
        a[0] = rng.standard_normal()
        for t in range(1, 600):
            a[t] = 0.9 * a[t - 1] + e[t]
        p = norm.cdf((1.2 * x - 0.8) / np.sqrt(1.0))
        y = (1.2 * x - 0.8 + a > 0).astype(int)
        rows.append(_score(y, p)["pvalue"])
        timed.append(_score(y, p, time=np.arange(600))["pvalue"])
        y_iid = (rng.random(600) < p).astype(int)
        iid.append(_score(y_iid, p, time=np.arange(600))["pvalue"])
    assert np.mean(np.array(rows) < 0.05) > 0.15
    assert np.mean(np.array(timed) < 0.05) <= 0.10
    assert np.mean(np.array(iid) < 0.05) <= 0.09


@pytest.mark.parametrize("grouped", [False, True])
def test_forecasts_of_exactly_zero_and_one_count_as_half_a_row_from_the_edge(grouped):
    y, p = _binary(500, 12)
    edge = p.copy()
    edge[:20] = np.where(y[:20] == 1, 1.0, 0.0)  # right and certain
    edge[np.flatnonzero(y == 1)[-3:]] = 0.0  # certain and wrong
    eps = 0.5 / (y.size + 1)
    kw = {"groups": np.arange(y.size) // 5} if grouped else {}
    res, clipped = _test(y, edge, **kw), _test(y, np.clip(edge, eps, 1 - eps), **kw)
    assert np.isfinite(res.recalibration_statistic)
    for name in ("statistic", "pvalue", "intercept", "slope"):
        assert getattr(res, f"recalibration_{name}") == pytest.approx(
            getattr(clipped, f"recalibration_{name}"), rel=1e-9), name


def test_a_single_forecast_value_tests_the_intercept_alone():
    rng = np.random.default_rng(13)
    y = (rng.random(400) < 0.3).astype(int)
    res = _test(y, np.full(400, 0.3))
    assert res.recalibration_df == 1
    # The one-df score test of a binomial proportion: (E - n p)^2 / (n p (1 - p)).
    e = y.sum()
    assert res.recalibration_statistic == pytest.approx((e - 120) ** 2 / (400 * 0.21))


def test_one_class_leaves_the_test_defined_and_the_fit_nan():
    y = np.zeros(300, dtype=int)
    p = np.random.default_rng(14).uniform(0.01, 0.2, 300)
    with pytest.warns(DegenerateMetricWarning, match="single class"):
        res = metrics.calibration_test(y, p, [0, 1], n_boot=1000, random_state=0)
    assert np.isnan(res.recalibration_slope) and np.isnan(res.recalibration_intercept)
    assert 0.0 < res.recalibration_pvalue < 1e-3  # no events where ~30 were forecast


@pytest.mark.parametrize("kwargs, match", [
    ({"groups": np.zeros(100)}, "one group"),
    ({"groups": np.r_[np.arange(99), np.nan]}, "groups"),
    ({"sample_weight": -np.ones(100)}, "sample_weight"),
])
def test_bad_input_is_refused_before_any_test(kwargs, match):
    y, p = _binary(100, 15)
    with pytest.raises(ValueError, match=match):
        _test(y, p, **kwargs)


def test_the_repr_shows_the_recalibration():
    y, p = _binary(300, 16, scale=1.5)
    text = repr(_test(y, p))
    assert "recalibration_slope=" in text and "recalibration_pvalue=" in text
