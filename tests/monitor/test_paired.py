"""chimeraboost.monitor, the paired form: the model against the incumbent per period, and
whether the challenger wins lately; and intervals that resample whole groups in a period."""

import json
import re

import numpy as np
import pytest
from sklearn.metrics import r2_score

from chimeraboost import metrics, monitor, resampling
from chimeraboost.exceptions import NarrowIntervalWarning

pd = pytest.importorskip("pandas")

RULE = ("replace champion", "practically equivalent", "keep champion")


def _two_models(n=1200, seed=0, months=4):
    """A champion fitted before the base rate moved, a challenger that follows it."""
    rng = np.random.default_rng(seed)
    days = 30 * months
    when = np.datetime64("2024-01-01") + rng.integers(0, days, n).astype("timedelta64[D]")
    drift = (when - np.datetime64("2024-01-01")).astype(int) / days
    x = rng.normal(size=n)
    y = (rng.random(n) < 1 / (1 + np.exp(-(-1.0 - 1.5 * drift + 1.5 * x)))).astype(int)
    champion = 1 / (1 + np.exp(-(-1.0 + 1.5 * x)))
    challenger = 1 / (1 + np.exp(-(-1.0 - 1.5 * drift + 1.5 * x)))
    return y, challenger, champion, when, rng


def _month_rows(when):
    months = when.astype("datetime64[M]")
    return [np.flatnonzero(months == m) for m in np.unique(months)]


def _rule(lo, hi, rope):
    """compare_holdout's rule, written out: the reference the verdict must follow."""
    if lo > rope:
        return "replace champion"
    if -rope <= lo and hi <= rope:
        return "practically equivalent"
    return "keep champion"


# --------------------------------------------------------------------------- same numbers


@pytest.mark.parametrize(("metric", "weighted"), [(None, False), ("brier_skill", True),
                                                  ("log_loss", False), ("roc_auc", True)])
def test_each_period_equals_classification_report_of_both_models(metric, weighted):
    y, new, old, when, rng = _two_models()
    w = rng.uniform(0.2, 3.0, y.size) if weighted else None
    s = monitor.skill_over_time(y, new, when, baseline=old, metric=metric, sample_weight=w,
                                n_boot=1000, random_state=0)
    c = s.comparison
    key = "brier_skill" if metric is None else metric  # the headline of probabilities
    assert c["metric"] == key
    for i, rows in enumerate(_month_rows(when)):
        wi = None if w is None else w[rows]
        want_new = metrics.classification_report(y[rows], new[rows], [0, 1], sample_weight=wi)
        want_old = metrics.classification_report(y[rows], old[rows], [0, 1], sample_weight=wi)
        np.testing.assert_allclose(c["model"][i], want_new[key], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(c["baseline"][i], want_old[key], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(c["difference"][i], want_new[key] - want_old[key],
                                   rtol=1e-12, atol=1e-12)


def test_regression_compares_r2_per_period():
    rng = np.random.default_rng(3)
    n = 600
    when = np.datetime64("2024-01-01") + rng.integers(0, 90, n).astype("timedelta64[D]")
    x = rng.normal(size=n)
    y = 2 * x + rng.normal(0, 1, n)
    new, old = 2 * x, 1.5 * x + 0.3
    s = monitor.skill_over_time(y, new, when, baseline=old, n_boot=1000, random_state=0)
    assert s.comparison["metric"] == "r2"
    for i, rows in enumerate(_month_rows(when)):
        want = r2_score(y[rows], new[rows]) - r2_score(y[rows], old[rows])
        np.testing.assert_allclose(s.comparison["difference"][i], want, rtol=1e-12,
                                   atol=1e-12)


def test_percentile_intervals_are_the_percentiles_of_the_paired_replicates():
    y, new, old, when, _ = _two_models(seed=1)
    s = monitor.skill_over_time(y, new, when, baseline=old, n_boot=1000, random_state=2,
                                ci_method="percentile")
    c = s.comparison
    diff = c["model_replicates"] - c["baseline_replicates"]
    for i in range(len(s.periods)):
        lo, hi = np.quantile(diff[i], [0.025, 0.975])  # ci=None: 95%
        assert lo <= c["difference"][i] <= hi  # else the interval is widened to hold it
        np.testing.assert_allclose(c["interval"][i], [lo, hi], rtol=1e-12, atol=1e-12)
    # Pairing: both models were scored on the same resamples, so the rows' shared difficulty
    # cancels and the difference spreads less than two independent sets of resamples would
    # make it -- far less in January, where the two models nearly agree.
    paired_sd = diff.std(axis=1)
    unpaired_sd = np.hypot(c["model_replicates"].std(axis=1),
                           c["baseline_replicates"].std(axis=1))
    assert np.all(paired_sd < unpaired_sd) and paired_sd[0] < 0.3 * unpaired_sd[0]


def test_one_period_equals_paired_bootstrap_on_its_rows():
    y, new, old, when, _ = _two_models(n=500, months=1)
    assert len(_month_rows(when)) == 1
    s = monitor.skill_over_time(y, new, when, baseline=old, n_boot=1000, random_state=4)
    ref = resampling.paired_bootstrap(
        metrics.classification_evaluator(y, [0, 1], proba=new),
        metrics.classification_evaluator(y, [0, 1], proba=old),
        n_boot=1000, random_state=4, metrics=["brier_skill"])
    diff, lo, hi = ref.difference("brier_skill", level=0.95)
    np.testing.assert_allclose(s.comparison["difference"][0], diff, rtol=1e-12)
    np.testing.assert_allclose(s.comparison["interval"][0], [lo, hi], rtol=1e-12)


# --------------------------------------------------------------------------- the verdict


def test_the_verdict_follows_compare_holdouts_rule_in_the_latest_windows():
    y, new, old, when, _ = _two_models(n=4000, seed=5, months=6)
    s = monitor.skill_over_time(y, new, when, baseline=old, n_boot=1000, random_state=0)
    iv = s.comparison["interval"]
    want = [_rule(lo, hi, 0.01) for lo, hi in iv]
    assert list(s.to_frame()["decision"]) == want
    for last in (1, 3, 6):
        v = s.verdict(last=last)
        assert v.periods == [t.strftime("%Y-%m-%d") for t in s.periods[-last:]]
        assert v.decisions == want[-last:]
        assert v.decision == want[-1]
        assert v.wins == sum(d == "replace champion" for d in want[-last:])
        assert v.better_lately == (want[-1] == "replace champion")
    # The challenger follows the drift: by the last months it must win; early on, when the
    # two models are nearly the same, it must not.
    assert s.verdict().better_lately and want[0] != "replace champion"
    # A rope wider than every interval's upper end: no window is won.
    wide = s.verdict(rope=float(np.nanmax(iv[:, 1])) + 0.01)
    assert wide.wins == 0 and not wide.better_lately


def test_a_loss_is_turned_around_lower_is_better():
    y, new, old, when, _ = _two_models(n=4000, seed=5, months=6)
    s = monitor.skill_over_time(y, new, when, baseline=old, metric="log_loss", rope=0.005,
                                n_boot=1000, random_state=0)
    iv = s.comparison["interval"]
    want = [_rule(-hi, -lo, 0.005) for lo, hi in iv]  # positive favours the challenger
    assert s.verdict(last=6).decisions == want
    assert s.comparison["difference"][-1] < 0 and want[-1] == "replace champion"


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_identical_models_differ_by_exactly_zero_and_never_win(rope):
    y, new, _, when, _ = _two_models(seed=7)
    s = monitor.skill_over_time(y, new, when, baseline=new.copy(), rope=rope, n_boot=1000,
                                random_state=0)
    c = s.comparison
    assert np.all(c["difference"] == 0.0) and np.all(c["interval"] == 0.0)
    np.testing.assert_array_equal(c["model"], c["baseline"])
    v = s.verdict(last=len(s.periods))
    assert v.wins == 0 and not v.better_lately
    assert set(v.decisions) == {"practically equivalent"}


def test_text_frame_and_dict():
    y, new, old, when, _ = _two_models(seed=8)
    s = monitor.skill_over_time(y, new, when, baseline=old, n_boot=1000, random_state=0)
    text = str(s)
    assert max(len(line) for line in text.splitlines()[1:]) <= 120
    assert "Against the baseline: Brier skill (brier_skill) per period" in text
    v = s.verdict()
    assert f"Latest window {v.periods[-1]}: {v.decision}" in text
    assert f"The challenger won {v.wins} of the last 3 windows" in text
    lines = text.splitlines()
    start = lines.index(next(x for x in lines if x.startswith("period      rows   model")))
    cells = [re.split(r"\s{2,}", x.strip()) for x in lines[start:start + 1 + len(s.periods)]]
    assert cells[0] == ["period", "rows", "model", "baseline", "difference", "low", "high",
                        "decision"]
    assert [c[-1] for c in cells[1:]] == list(s.to_frame()["decision"])
    frame = s.to_frame()
    np.testing.assert_array_equal(frame["difference"], s.comparison["difference"])
    np.testing.assert_array_equal(frame["difference_low"], s.comparison["interval"][:, 0])
    np.testing.assert_array_equal(frame["model_brier_skill"], s.comparison["model"])
    d = json.loads(json.dumps(s.to_dict()))
    assert d["verdict"] == v.to_dict()
    assert d["comparison"]["decision"] == list(frame["decision"])
    assert d["periods"] == [t.strftime("%Y-%m-%d") for t in s.periods]
    assert "<p>" in s._repr_html_() and "Latest window" in s._repr_html_()


# --------------------------------------------------------------------------- gaps


def test_a_gap_in_time_is_listed_and_the_verdict_counts_periods_with_rows():
    y, new, old, when, _ = _two_models(n=2000, seed=9, months=5)
    keep = when.astype("datetime64[M]") != np.datetime64("2024-03")
    y, new, old, when = y[keep], new[keep], old[keep], when[keep]
    s = monitor.skill_over_time(y, new, when, baseline=old, n_boot=1000, random_state=0)
    assert [t.strftime("%Y-%m") for t in s.empty_periods] == ["2024-03"]
    assert "2024-03-01" not in [t.strftime("%Y-%m-%d") for t in s.periods]
    assert "No rows in 2024-03-01: left out." in str(s)
    assert s.verdict().periods == ["2024-02-01", "2024-04-01", "2024-05-01"]
    assert s.to_dict()["empty_periods"] == ["2024-03-01"]


# --------------------------------------------------------------------------- groups


@pytest.mark.slow
def test_groups_resample_whole_customers_within_a_period():
    # Every customer's row repeated 4 times in its month: resampling rows treats the copies
    # as independent (an interval about half as wide: sqrt(4)); resampling whole customers
    # gives the interval of the rows without the copies.
    y, new, old, when, _ = _two_models(n=1600, seed=11, months=2)
    reps = 4
    copies = dict(y=np.repeat(y, reps), new=np.repeat(new, reps), old=np.repeat(old, reps),
                  when=np.repeat(when, reps))
    customer = np.repeat(np.arange(y.size), reps)
    kwargs = dict(ci=0.95, n_boot=2000, random_state=0, ci_method="percentile")

    def widths(s):
        return (np.diff(s.intervals["brier_skill"], axis=1).ravel(),
                np.diff(s.comparison["interval"], axis=1).ravel())

    once = widths(monitor.skill_over_time(y, new, when, baseline=old, **kwargs))
    as_rows = widths(monitor.skill_over_time(copies["y"], copies["new"], copies["when"],
                                             baseline=copies["old"], **kwargs))
    grouped = monitor.skill_over_time(copies["y"], copies["new"], copies["when"],
                                      baseline=copies["old"], groups=customer, **kwargs)
    assert grouped.units == "groups"
    for w_once, w_rows, w_groups in zip(once, as_rows, widths(grouped)):
        np.testing.assert_allclose(w_rows / w_once, 0.5, rtol=0.15)
        np.testing.assert_allclose(w_groups / w_once, 1.0, rtol=0.15)
    text = str(grouped)
    assert "resamples of each period's groups" in text
    assert np.all(np.isfinite(grouped.calibration_pvalue))


def test_few_groups_in_a_period_warn():
    y, new, old, when, _ = _two_models(n=400, seed=12, months=2)
    customer = np.arange(y.size) % 10  # ten customers, each in both months
    with pytest.warns(NarrowIntervalWarning, match="only 10 groups were resampled"):
        monitor.skill_over_time(y, new, when, baseline=old, groups=customer, n_boot=1000,
                                random_state=0)


# --------------------------------------------------------------------------- bad input


def _args():
    y, new, old, when, _ = _two_models(n=200, seed=13, months=2)
    return dict(y=y, proba=new, time=when, baseline=old, n_boot=1000, random_state=0)


BAD = [
    (dict(baseline=np.full(199, 0.5)), ValueError,
     "baseline has 199 rows but y has 200; pass the incumbent's predictions on the same rows"),
    (dict(baseline=0.5), ValueError, "baseline has a scalar but y has 200"),
    (dict(baseline=np.full(200, 1.5)), ValueError, "baseline"),
    (dict(metric="base_rate"), ValueError, r"metric='base_rate' is not among the metrics taken "
     r"here \(numbers that describe the model, compared per period\)"),
    (dict(metric="auc"), ValueError, r"metric='auc' is not among .*; use one of"),
    (dict(rope=-0.1), ValueError, "rope"),
    (dict(last=0), ValueError, "last must be >= 1"),
    (dict(groups=np.arange(199)), ValueError, "groups"),
    (dict(groups=np.r_[np.arange(199.0), np.nan]), ValueError, "groups"),
    (dict(reference_from="rolling", baseline="rolling"), TypeError,
     r"got both baseline= \(a string\) and reference_from="),
]


@pytest.mark.parametrize(("change", "error", "match"), BAD)
def test_bad_input_names_the_argument(change, error, match):
    args = _args()
    args.update(change)
    y, proba, time = args.pop("y"), args.pop("proba"), args.pop("time")
    with pytest.raises(error, match=match):
        monitor.skill_over_time(y, proba, time, **args)


def test_a_misaligned_pandas_index_is_refused():
    args = _args()
    y = pd.Series(args["y"], index=np.arange(200))
    base = pd.Series(args["baseline"], index=np.arange(200)[::-1])
    with pytest.raises(ValueError, match="y and baseline carry different pandas indexes"):
        monitor.skill_over_time(y, args["proba"], args["time"], baseline=base, n_boot=1000)


def test_verdict_without_an_incumbent_says_how_to_get_one():
    args = _args()
    s = monitor.skill_over_time(args["y"], args["proba"], args["time"])
    assert s.comparison is None and "Against the baseline" not in str(s)
    with pytest.raises(ValueError, match=r"verdict\(\) needs the incumbent: call "
                                         r"skill_over_time\(\.\.\., baseline="):
        s.verdict()


def test_the_old_baseline_string_still_means_reference_from():
    args = _args()
    want = monitor.skill_over_time(args["y"], args["proba"], args["time"],
                                   reference_from="rolling", window=1)
    with pytest.warns(FutureWarning, match="baseline= is renamed reference_from="):
        got = monitor.skill_over_time(args["y"], args["proba"], args["time"],
                                      baseline="rolling", window=1)
    assert got.comparison is None
    np.testing.assert_array_equal(got.brier_skill, want.brier_skill)
