"""Tests of chimeraboost.resampling: counts, bootstrap against straightforward loops, DeLong
against its O(n^2) definition, and coverage of the intervals on simulated data."""

import warnings

import numpy as np
import pytest
from scipy import integrate
from scipy.special import expit
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

from chimeraboost import metrics, resampling
from chimeraboost.exceptions import DegenerateMetricWarning

# These tests check that intervals are computed right, on few resamples for speed; that few
# resamples warn (and too few for a comparison are refused) is tested on its own below.
pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")


def _binormal(n, delta, prevalence, rng):
    """Scores N(0, 1) for negatives and N(delta, 1) for positives, and the calibrated
    probability P(y = 1 | x) = sigmoid(logit(prevalence) + delta x - delta^2 / 2)."""
    y = (rng.random(n) < prevalence).astype(int)
    x = rng.normal(size=n) + delta * y
    logit = np.log(prevalence / (1 - prevalence)) + delta * x - delta**2 / 2
    return y, x, 1.0 / (1.0 + np.exp(-logit))


@pytest.fixture
def binary():
    rng = np.random.default_rng(0)
    y, x, p = _binormal(300, 1.0, 0.3, rng)
    # A second, worse model of the same rows.
    q = np.clip(p + rng.normal(scale=0.15, size=p.size), 0.01, 0.99)
    return y, p, q


# --------------------------------------------------------------------------- counts


def test_counts_are_multinomial_draws_and_reproducible():
    chunks = list(resampling.bootstrap_counts(50, 23, random_state=3, chunk_size=5))
    counts = np.vstack(chunks)
    assert [c.shape for c in chunks] == [(5, 50)] * 4 + [(3, 50)]
    assert np.all(counts.sum(axis=1) == 50)
    assert np.all(counts == np.round(counts)) and counts.min() >= 0
    again = np.vstack(list(resampling.bootstrap_counts(50, 23, random_state=3, chunk_size=7)))
    np.testing.assert_array_equal(counts, again)  # chunking does not change the draws
    other = np.vstack(list(resampling.bootstrap_counts(50, 23, random_state=4)))
    assert not np.array_equal(counts, other)


def test_counts_mean_and_variance():
    counts = np.vstack(list(resampling.bootstrap_counts(40, 4000, random_state=0)))
    # Multinomial(n, 1/n): mean 1, variance 1 - 1/n per cell.
    assert abs(counts.mean() - 1) < 1e-12
    assert abs(counts.var(axis=0).mean() - (1 - 1 / 40)) < 0.03


# --------------------------------------------------------------------------- against loops


def _reference_replicates(y, proba, seed, n_boot):
    counts = np.vstack(list(resampling.bootstrap_counts(len(y), n_boot, random_state=seed)))
    return counts, [metrics.classification_report(y, proba, [0, 1], sample_weight=c)
                    for c in counts]


def test_bootstrap_equals_metrics_with_counts_as_weights(binary):
    y, p, _ = binary
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    res = resampling.bootstrap(ev, n_boot=200, random_state=7, chunk_size=9)
    _, ref = _reference_replicates(y, p, 7, 40)
    for key in ("log_loss", "brier_skill", "log_loss_skill", "calibration_mcb", "roc_auc",
                "pr_auc", "accuracy", "f1_macro", "base_rate"):
        # The first replicates of 200 are those of 30: a replicate's draws do not depend on
        # how many follow it.
        np.testing.assert_allclose(res.replicates[key][: len(ref)], [r[key] for r in ref],
                                   rtol=1e-10, atol=1e-12, err_msg=key)
    point = metrics.classification_report(y, p, [0, 1])
    assert res.estimate["brier_skill"] == pytest.approx(point["brier_skill"], abs=1e-14)


def test_bootstrap_with_sample_weights_equals_metrics_with_counts_times_weights(binary):
    # Sample weights make the replicates' weights fractional: the floating-point path of the
    # kernels, against the point report on the same weights.
    y, p, _ = binary
    sw = np.random.default_rng(3).random(y.size) * 2
    sw[:20] = 0.0
    ev = metrics.classification_evaluator(y, [0, 1], proba=p, sample_weight=sw)
    res = resampling.bootstrap(ev, n_boot=200, random_state=5, chunk_size=40)
    counts = np.vstack(list(resampling.bootstrap_counts(len(y), 30, random_state=5)))
    ref = [metrics.classification_report(y, p, [0, 1], sample_weight=c * sw) for c in counts]
    for key in ("log_loss", "brier_skill", "calibration_mcb", "discrimination_dsc", "roc_auc",
                "pr_auc", "accuracy", "balanced_accuracy", "positives"):
        # The first replicates of 200 are those of 30: a replicate's draws do not depend on
        # how many follow it.
        np.testing.assert_allclose(res.replicates[key][: len(ref)], [r[key] for r in ref],
                                   rtol=1e-10, atol=1e-12, err_msg=key)


def test_multiclass_bootstrap_equals_metrics_with_counts_as_weights():
    # K = 3 with string labels and a rare class that some resamples miss (macro ROC-AUC
    # undefined there): integer counts through one kernel per class, against point reports.
    rng = np.random.default_rng(9)
    n = 80
    codes = np.where(np.arange(n) < 3, 2, rng.integers(0, 2, n))
    logits = rng.normal(size=(n, 3)) + 1.5 * np.eye(3)[codes]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    proba = np.round(proba, 2)  # ties
    proba /= proba.sum(axis=1, keepdims=True)
    labels = np.array(["a", "b", "c"])
    y = labels[codes]
    ev = metrics.classification_evaluator(y, labels, proba=proba)
    res = resampling.bootstrap(ev, n_boot=200, random_state=2, chunk_size=40)
    counts = np.vstack(list(resampling.bootstrap_counts(n, 25, random_state=2)))
    with warnings.catch_warnings():  # the point reports of the resamples missing "c" warn
        warnings.simplefilter("ignore", DegenerateMetricWarning)
        ref = [metrics.classification_report(y, proba, labels, sample_weight=c) for c in counts]
    assert np.isnan(res.replicates["roc_auc"]).any()  # some resample misses class "c"
    for key in ("log_loss", "brier_skill", "calibration_mcb", "discrimination_dsc", "roc_auc",
                "pr_auc", "accuracy", "f1_macro"):
        # The first replicates of 200 are those of 30: a replicate's draws do not depend on
        # how many follow it.
        np.testing.assert_allclose(res.replicates[key][: len(ref)], [r[key] for r in ref],
                                   rtol=1e-10, atol=1e-12, err_msg=key)


@pytest.mark.slow
def test_paired_difference_interval_matches_straightforward_loop(binary):
    y, p, q = binary
    ev_p = metrics.classification_evaluator(y, [0, 1], proba=p)
    ev_q = metrics.classification_evaluator(y, [0, 1], proba=q)
    res = resampling.paired_bootstrap(ev_p, ev_q, n_boot=300, random_state=11)
    counts = np.vstack(list(resampling.bootstrap_counts(len(y), 300, random_state=11)))
    for key in ("brier_skill", "log_loss", "roc_auc", "calibration_mcb", "accuracy"):
        diffs = [
            metrics.classification_report(y, p, [0, 1], sample_weight=c)[key]
            - metrics.classification_report(y, q, [0, 1], sample_weight=c)[key]
            for c in counts
        ]
        lo, hi = np.quantile(diffs, [0.025, 0.975])
        est, got_lo, got_hi = res.difference(key, level=0.95, method="percentile")
        ref_est = (metrics.classification_report(y, p, [0, 1])[key]
                   - metrics.classification_report(y, q, [0, 1])[key])
        assert est == pytest.approx(ref_est, abs=1e-12)
        assert got_lo == pytest.approx(lo, abs=1e-10), key
        assert got_hi == pytest.approx(hi, abs=1e-10), key


def test_paired_needs_same_rows(binary):
    y, p, _ = binary
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    ev_small = metrics.classification_evaluator(y[:100], [0, 1], proba=p[:100])
    with pytest.raises(ValueError, match="same rows"):
        resampling.paired_bootstrap(ev, ev_small, n_boot=200)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("prevalence", [0.1, 0.5, 0.9])
def test_lean_auc_path_equals_full_path_and_sklearn(ties, prevalence):
    rng = np.random.default_rng(1)
    y, x, _ = _binormal(400, 1.0, prevalence, rng)
    score = np.round(x) if ties else x
    ev = metrics.classification_evaluator(y, [0, 1], score=score)
    counts = np.vstack(list(resampling.bootstrap_counts(400, 25, random_state=2)))
    lean = ev.evaluate(counts, warn=False, metrics=["roc_auc"])
    full = ev.evaluate(counts, warn=False)
    np.testing.assert_allclose(lean["roc_auc"], full["roc_auc"], rtol=1e-12)
    np.testing.assert_allclose(lean["base_rate"], full["base_rate"], rtol=1e-12)
    sk = [roc_auc_score(y, score, sample_weight=c) for c in counts]
    np.testing.assert_allclose(lean["roc_auc"], sk, rtol=1e-12)


@pytest.mark.slow
def test_roc_auc_interval_bootstrap_agrees_with_loop_and_delong():
    rng = np.random.default_rng(5)
    y, x, _ = _binormal(3000, 1.0, 0.2, rng)
    auc, ci, dropped = resampling.roc_auc_interval(y, x, n_boot=1000, random_state=0,
                                                   ci_method="percentile")
    assert auc == pytest.approx(roc_auc_score(y, x), abs=1e-12) and dropped == 0
    loop_rng = np.random.default_rng(1)
    loop = []
    for _ in range(400):
        idx = loop_rng.integers(0, y.size, y.size)
        loop.append(roc_auc_score(y[idx], x[idx]))
    lo, hi = np.quantile(loop, [0.025, 0.975])
    se = resampling.delong_roc_auc(y, x).se
    # Percentile endpoints from 1,000 and 400 replicates: Monte Carlo error ~0.1-0.15 se.
    assert abs(ci.low - lo) < 0.4 * se and abs(ci.high - hi) < 0.4 * se
    d_auc, d_ci, _ = resampling.roc_auc_interval(y, x, method="delong")
    assert d_auc == pytest.approx(auc, abs=1e-12)
    assert abs(d_ci.low - ci.low) < 0.4 * se and abs(d_ci.high - ci.high) < 0.4 * se


def test_one_class_replicates_are_dropped_and_counted():
    y = np.array([1] + [0] * 9)
    score = np.linspace(0, 1, 10)
    ev = metrics.classification_evaluator(y, [0, 1], score=score)
    res = resampling.bootstrap(ev, n_boot=500, random_state=0, metrics=["roc_auc"])
    reps = res.replicates["roc_auc"]
    n_nan = int(np.isnan(reps).sum())
    # P(row 0 never drawn) = 0.9^10 = 0.35.
    assert 100 < n_nan < 250 and res.n_dropped("roc_auc") == n_nan
    ci, dropped = resampling.percentile_interval(reps, level=0.9)
    assert dropped == n_nan
    assert tuple(ci) == pytest.approx(tuple(np.quantile(reps[~np.isnan(reps)], [0.05, 0.95])))
    assert tuple(resampling.percentile_interval([np.nan, np.nan])[0]) != (0, 0)


def test_bootstrap_is_reproducible_and_chunk_invariant(binary):
    y, p, _ = binary
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    a = resampling.bootstrap(ev, n_boot=200, random_state=3, chunk_size=200)
    b = resampling.bootstrap(ev, n_boot=200, random_state=3, chunk_size=7)
    for key in a.replicates:
        np.testing.assert_allclose(a.replicates[key], b.replicates[key], rtol=1e-13,
                                   equal_nan=True)
    assert a.interval("roc_auc") == b.interval("roc_auc")


def test_regression_bootstrap_matches_report_with_counts():
    rng = np.random.default_rng(0)
    y = rng.normal(size=80)
    pred = y + rng.normal(scale=0.5, size=80)
    ev = metrics.regression_evaluator(y, pred)
    res = resampling.bootstrap(ev, n_boot=200, random_state=1)
    counts = np.vstack(list(resampling.bootstrap_counts(80, 20, random_state=1)))
    for key in ("r2", "mae_skill", "rmse"):
        ref = [metrics.regression_report(y, pred, sample_weight=c)[key] for c in counts]
        np.testing.assert_allclose(res.replicates[key][:20], ref, rtol=1e-10, err_msg=key)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"n_boot": 0}, "n_boot"), ({"n_boot": 2.5}, "n_boot"), ({"chunk_size": 0}, "chunk_size")],
)
def test_bad_arguments(binary, kwargs, match):
    y, p, _ = binary
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    args = {"n_boot": 200, **kwargs}
    with pytest.raises((ValueError, TypeError), match=match):
        resampling.bootstrap(ev, n_boot=args.pop("n_boot"), **args)


def test_bad_level_and_metric_names(binary):
    y, p, _ = binary
    with pytest.raises(ValueError, match="level"):
        resampling.roc_auc_interval(y, p, level=95)
    with pytest.raises(ValueError, match="method"):
        resampling.roc_auc_interval(y, p, method="jackknife")
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    with pytest.raises(ValueError, match="unknown names"):
        resampling.bootstrap(ev, n_boot=200, metrics=["auc"])
    with pytest.raises(KeyError, match="not resampled"):
        resampling.bootstrap(ev, n_boot=200, metrics=["roc_auc"]).interval("brier")


# --------------------------------------------------------------------------- DeLong


def _delong_reference(y, scores):
    """DeLong et al. (1988) from the definition: psi over all positive-negative pairs."""
    pos, neg = y == 1, y == 0
    m, n = pos.sum(), neg.sum()
    v10, v01 = [], []
    for s in scores:
        psi = (s[pos][:, None] > s[neg][None, :]) + 0.5 * (s[pos][:, None] == s[neg][None, :])
        v10.append(psi.mean(axis=1))  # one per positive
        v01.append(psi.mean(axis=0))  # one per negative
    v10, v01 = np.array(v10), np.array(v01)
    aucs = v10.mean(axis=1)
    s10 = np.cov(v10) * 1.0
    s01 = np.cov(v01) * 1.0
    return aucs, np.atleast_2d(s10) / m + np.atleast_2d(s01) / n


@pytest.mark.parametrize("ties", [False, True])
def test_delong_matches_quadratic_definition(ties):
    rng = np.random.default_rng(2)
    y, x, _ = _binormal(250, 0.8, 0.4, rng)
    other = x + rng.normal(scale=1.0, size=x.size)
    if ties:
        x, other = np.round(x * 2) / 2, np.round(other * 2) / 2
    aucs, cov = _delong_reference(y, [x, other])
    res = resampling.delong_roc_auc(y, x)
    assert res.estimate == pytest.approx(roc_auc_score(y, x), abs=1e-12)
    assert res.estimate == pytest.approx(aucs[0], abs=1e-12)
    assert res.se == pytest.approx(np.sqrt(cov[0, 0]), rel=1e-10)
    z = norm.ppf(0.975)
    assert res.low == pytest.approx(aucs[0] - z * res.se) and res.high == pytest.approx(
        aucs[0] + z * res.se)
    diff = resampling.delong_roc_auc_difference(y, x, other)
    assert diff.estimate == pytest.approx(aucs[0] - aucs[1], abs=1e-12)
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    assert diff.se == pytest.approx(np.sqrt(var), rel=1e-10)
    assert diff.pvalue == pytest.approx(2 * norm.sf(abs(diff.estimate) / diff.se))


def test_delong_labels_and_errors():
    y = np.array(["no", "yes", "no", "yes", "yes"])
    s = np.array([0.1, 0.8, 0.3, 0.2, 0.9])
    # String labels name no positive class by themselves: the same rule as recall_at_k.
    for func in (resampling.delong_roc_auc, resampling.roc_auc_interval,
                 lambda y, s: metrics.recall_at_k(y, s, 2)):
        with pytest.raises(ValueError, match="pos_label"):
            func(y, s)
    res = resampling.delong_roc_auc(y, s, pos_label="yes")
    assert res.estimate == pytest.approx(roc_auc_score(y == "yes", s))
    assert resampling.delong_roc_auc(y, s, pos_label="no").estimate == pytest.approx(
        1 - res.estimate)
    # -1/1 and bool labels: 1 / True is positive, as in scikit-learn's precision_score.
    pm = np.where(y == "yes", 1, -1)
    assert resampling.delong_roc_auc(pm, s).estimate == pytest.approx(res.estimate)
    assert resampling.delong_roc_auc(y == "yes", s).estimate == pytest.approx(res.estimate)
    with pytest.raises(ValueError, match="0/1"):
        resampling.delong_roc_auc([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="single class"):
        resampling.delong_roc_auc([0, 0, 0], [0.1, 0.2, 0.3], pos_label=0)
    with pytest.raises(ValueError, match="rows"):
        resampling.delong_roc_auc([0, 1, 1], [0.1, 0.2])


# --------------------------------------------------------------------------- coverage


def _true_brier_skill(delta, prevalence):
    """1 - E[p(1-p)] / (pi (1 - pi)) for the calibrated binormal probability p(x): the
    expected Brier score of a calibrated forecast is E[p(1 - p)]."""
    a = np.log(prevalence / (1 - prevalence)) - delta**2 / 2

    def var_p(x, shift):
        p = expit(a + delta * x)
        return p * (1 - p) * norm.pdf(x - shift)

    # The normal densities are below 1e-80 outside +-20.
    e_pos = integrate.quad(var_p, -20, 20, args=(delta,), limit=200)[0]
    e_neg = integrate.quad(var_p, -20, 20, args=(0.0,), limit=200)[0]
    expected = prevalence * e_pos + (1 - prevalence) * e_neg
    return 1 - expected / (prevalence * (1 - prevalence))


def test_true_brier_skill_by_monte_carlo():
    rng = np.random.default_rng(0)
    y, _, p = _binormal(1_000_000, 1.2, 0.3, rng)
    mc = 1 - np.mean((p - y) ** 2) / (y.mean() * (1 - y.mean()))
    assert mc == pytest.approx(_true_brier_skill(1.2, 0.3), abs=3e-3)


@pytest.mark.slow
def test_95_percent_intervals_cover_the_truth():
    delta, prevalence, n, reps = 1.2, 0.3, 300, 200
    true_auc = norm.cdf(delta / np.sqrt(2))
    true_bss = _true_brier_skill(delta, prevalence)
    rng = np.random.default_rng(2024)
    hits = {"roc_auc": 0, "brier_skill": 0, "delong": 0}
    for r in range(reps):
        y, _, p = _binormal(n, delta, prevalence, rng)
        ev = metrics.classification_evaluator(y, [0, 1], proba=p)
        res = resampling.bootstrap(ev, n_boot=400, random_state=r, metrics=["roc_auc", "brier_skill"])
        lo, hi = res.interval("roc_auc", level=0.95)
        hits["roc_auc"] += lo <= true_auc <= hi
        lo, hi = res.interval("brier_skill", level=0.95)
        hits["brier_skill"] += lo <= true_bss <= hi
        d = resampling.delong_roc_auc(y, p)
        hits["delong"] += d.low <= true_auc <= d.high
    coverage = {key: v / reps for key, v in hits.items()}
    for key, cov in coverage.items():
        assert 0.90 <= cov <= 0.99, coverage


@pytest.mark.parametrize("tiny", [1e-160, 1e-200, 1e-300])
def test_replicate_calibration_survives_weights_far_below_the_heaviest_row(tiny):
    # A replicate that does not draw the one heavy row holds only weights of 1e-160 and less:
    # its isotonic fit's squared error must not fall below the smallest normal number.
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
    p = np.array([.9, .8, .3, .6, .7, .2, .25, .65])
    w = np.full(8, tiny)
    w[0] = 1.0
    counts = np.array([[0, 1, 1, 2, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1]])
    ev = metrics.classification_evaluator(y, [0, 1], proba=p, sample_weight=w)
    got = ev.evaluate(counts, warn=False)
    for i, row in enumerate(counts):
        want = metrics.classification_report(y, p, [0, 1], sample_weight=row * w)
        for key in ("calibration_mcb", "discrimination_dsc", "brier"):
            assert got[key][i] == pytest.approx(want[key], rel=1e-9), key


def test_a_replicate_of_zero_weight_rows_only_has_no_numbers():
    # Rows of weight 0 can be all a replicate draws: it has no reference loss (not 0) and is
    # left out of the interval like a one-class replicate.
    ev = metrics.classification_evaluator([0, 1, 0, 1], [0, 1], proba=[.2, .7, .4, .9],
                                          sample_weight=[0, 0, 1, 1])
    out = ev.evaluate(np.array([[2, 2, 0, 0], [1, 1, 1, 1]]), warn=False)
    for key in ("log_loss_ref", "log_loss", "brier_ref", "calibration_mcb", "base_rate"):
        assert np.isnan(out[key][0]) and np.isfinite(out[key][1]), key
    want = metrics.classification_report([0, 1], [.4, .9], [0, 1])  # the rows that count
    assert out["log_loss"][1] == pytest.approx(want["log_loss"], rel=1e-12)
