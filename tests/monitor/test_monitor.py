"""chimeraboost.monitor: skill per period, against the period's own or a rolling base rate."""

import re
import sys

import numpy as np
import pytest
from sklearn.metrics import r2_score

from chimeraboost import metrics, monitor
from chimeraboost.exceptions import DegenerateMetricWarning, FewResamplesWarning

pd = pytest.importorskip("pandas")

CLASSIFICATION_KEYS = ("base_rate", "log_loss", "log_loss_ref", "log_loss_skill", "brier",
                       "brier_ref", "brier_skill", "calibration_mcb")
REGRESSION_KEYS = ("mean_y", "rmse", "rmse_ref", "mse_skill", "r2", "mae", "mae_ref",
                   "mae_skill")


def _dates(rng, n, days=150):
    return np.datetime64("2024-01-01") + rng.integers(0, days, n).astype("timedelta64[D]")


def _binary(n=900, seed=0):
    rng = np.random.default_rng(seed)
    when = _dates(rng, n)
    rate = 0.3 - 0.1 * (when - when.min()).astype(int) / 150
    y = (rng.random(n) < rate).astype(int)
    p = np.clip(rate + 0.3 * (y - rate) + rng.normal(0, 0.05, n), 0.01, 0.99)
    return y, p, when, rng


def _month_rows(when):
    months = when.astype("datetime64[M]")
    return [(m, np.flatnonzero(months == m)) for m in np.unique(months)]


# --------------------------------------------------------------------------- same numbers


@pytest.mark.parametrize("weighted", [False, True])
def test_each_period_equals_classification_report_binary(weighted):
    y, p, when, rng = _binary()
    w = rng.uniform(0.2, 3.0, y.size) if weighted else None
    s = monitor.skill_over_time(y, p, when, sample_weight=w)
    months = _month_rows(when)
    assert len(s.periods) == len(months) == 5
    for i, (m, rows) in enumerate(months):
        assert s.periods[i] == pd.Timestamp(m)
        assert s.rows[i] == rows.size
        ref = metrics.classification_report(y[rows], p[rows], classes=[0, 1],
                                            sample_weight=None if w is None else w[rows])
        for key in CLASSIFICATION_KEYS:
            np.testing.assert_allclose(s.values[key][i], ref[key], rtol=1e-12, atol=1e-12,
                                       err_msg=key)


def test_each_period_equals_classification_report_multiclass_strings():
    rng = np.random.default_rng(1)
    n = 600
    when = _dates(rng, n, days=90)
    y = np.array(["ant", "bee", "cat"])[rng.integers(0, 3, n)]
    proba = rng.dirichlet([1, 2, 3], n)
    s = monitor.skill_over_time(y, proba, when)
    assert s.classes.tolist() == ["ant", "bee", "cat"]
    for i, (_, rows) in enumerate(_month_rows(when)):
        ref = metrics.classification_report(y[rows], proba[rows], classes=["ant", "bee", "cat"])
        for key in CLASSIFICATION_KEYS:
            np.testing.assert_allclose(s.values[key][i], ref[key], rtol=1e-12, atol=1e-12)
    frame = s.to_frame()
    assert {"base_rate[ant]", "base_rate[cat]", "log_loss_skill"} <= set(frame.columns)


@pytest.mark.parametrize("weighted", [False, True])
def test_each_period_equals_regression_report(weighted):
    rng = np.random.default_rng(2)
    n = 500
    when = _dates(rng, n, days=120)
    y = rng.normal(10, 3, n)
    pred = y + rng.normal(0, 1.5, n)
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    s = monitor.skill_over_time(y, pred, when, sample_weight=w)
    assert s.task == "regression"
    for i, (_, rows) in enumerate(_month_rows(when)):
        ref = metrics.regression_report(y[rows], pred[rows],
                                        sample_weight=None if w is None else w[rows])
        for key in REGRESSION_KEYS:
            np.testing.assert_allclose(s.values[key][i], ref[key], rtol=1e-12, err_msg=key)


def test_worked_example_of_the_issue():
    # Log loss 0.31 at a 12% base rate, 0.26 at 9%: the loss "improved", the skill fell.
    # Negatives get 0.1; the positives' forecast a solves pi (-ln a) + (1 - pi)(-ln 0.9) = L.
    y, p, when = [], [], []
    for month, pi, loss in (("2024-01-15", 0.12, 0.31), ("2024-02-15", 0.09, 0.26)):
        pos = int(round(pi * 100))
        a = np.exp(-(loss - (1 - pi) * -np.log(0.9)) / pi)
        y += [1] * pos + [0] * (100 - pos)
        p += [a] * pos + [0.1] * (100 - pos)
        when += [month] * 100
    s = monitor.skill_over_time(y, p, when)
    np.testing.assert_allclose(s.log_loss, [0.31, 0.26], rtol=1e-12)
    np.testing.assert_allclose(s.base_rate, [0.12, 0.09], rtol=1e-12)
    entropy = np.array([metrics.reference_log_loss(0.12), metrics.reference_log_loss(0.09)])
    np.testing.assert_allclose(s.log_loss_ref, entropy, rtol=1e-12)
    np.testing.assert_allclose(s.log_loss_skill, 1 - np.array([0.31, 0.26]) / entropy,
                               rtol=1e-12)
    # 1 - 0.31 / 0.3670 = 0.155 fell to 1 - 0.26 / 0.3025 = 0.14.
    assert s.log_loss_skill.round(2).tolist() == [0.16, 0.14]
    assert round(s.log_loss_skill[0], 3) == 0.155


# --------------------------------------------------------------------------- rolling


@pytest.mark.parametrize("window", [1, 2, None])
def test_rolling_reference_is_the_prior_of_the_preceding_window(window):
    y, p, when, rng = _binary(seed=3)
    w = rng.uniform(0.2, 3.0, y.size)
    # The first period has no history, by construction: NaN without a warning.
    s = monitor.skill_over_time(y, p, when, reference_from="rolling", window=window, sample_weight=w)
    months = _month_rows(when)
    assert np.isnan(s.log_loss_skill[0]) and np.isnan(s.brier_skill[0])
    for i in range(1, len(months)):
        lo = 0 if window is None else max(0, i - window)
        prev = np.concatenate([rows for _, rows in months[lo:i]])
        prior = metrics.class_prior(y[prev], [0, 1], sample_weight=w[prev])
        rows = months[i][1]
        rate = metrics.class_prior(y[rows], [0, 1], sample_weight=w[rows])
        ll_ref = metrics.reference_log_loss(prior, outcome_prior=rate)
        br_ref = metrics.reference_brier(prior, outcome_prior=rate)
        np.testing.assert_allclose(s.log_loss_ref[i], ll_ref, rtol=1e-12)
        np.testing.assert_allclose(s.brier_ref[i], br_ref, rtol=1e-12)
        np.testing.assert_allclose(s.log_loss_skill[i], 1 - s.log_loss[i] / ll_ref, rtol=1e-12)
        np.testing.assert_allclose(s.reference_prior[i], prior[1], rtol=1e-12)
        # The same number as the report with that prior as a fixed baseline.
        ref = metrics.classification_report(y[rows], p[rows], [0, 1], sample_weight=w[rows],
                                            baseline={0: prior[0], 1: prior[1]})
        np.testing.assert_allclose(s.brier_skill[i], ref["brier_skill"], rtol=1e-12)


def test_rolling_window_counts_calendar_periods_and_skips_empty_ones():
    # Rows in January and March only: February is empty, so March's window of one period
    # (February) holds nothing; a window of two reaches January.
    y = [0, 1, 0, 1, 1, 0, 1, 1]
    p = [0.3, 0.7, 0.4, 0.6, 0.8, 0.3, 0.7, 0.6]
    when = ["2024-01-03"] * 4 + ["2024-03-10"] * 4
    with pytest.warns(DegenerateMetricWarning, match=r"Period\(s\) 2024-03-01 have no rows"):
        s = monitor.skill_over_time(y, p, when, reference_from="rolling", window=1)
    assert [str(t.date()) for t in s.periods] == ["2024-01-01", "2024-03-01"]
    assert np.isnan(s.log_loss_skill).all()
    s = monitor.skill_over_time(y, p, when, reference_from="rolling", window=2)
    expected = metrics.reference_log_loss(0.5, outcome_prior=0.75)
    np.testing.assert_allclose(s.log_loss_ref[1], expected, rtol=1e-12)


def test_rolling_regression_equals_report_against_the_preceding_targets():
    rng = np.random.default_rng(4)
    n = 400
    when = _dates(rng, n, days=120)
    y = rng.normal(0, 1, n) + (when - when.min()).astype(int) / 60
    pred = y + rng.normal(0, 0.5, n)
    s = monitor.skill_over_time(y, pred, when, reference_from="rolling", window=2)
    months = _month_rows(when)
    assert np.isnan(s.mse_skill[0])
    for i in range(1, len(months)):
        prev = np.concatenate([rows for _, rows in months[max(0, i - 2):i]])
        rows = months[i][1]
        ref = metrics.regression_report(y[rows], pred[rows], baseline=y[prev])
        for key in ("rmse", "rmse_ref", "mse_skill", "r2", "mae", "mae_ref", "mae_skill",
                    "baseline_mean", "baseline_median"):
            np.testing.assert_allclose(s.values[key][i], ref[key], rtol=1e-10, err_msg=key)
        # The skill against the preceding months is not r2, and is not called so.
        assert s.r2[i] == pytest.approx(r2_score(y[rows], pred[rows]), abs=1e-12)
    assert "r2" not in str(s) and "skill" in str(s)


# --------------------------------------------------------------------------- intervals


@pytest.mark.slow
def test_ci_contains_the_point_estimate_and_is_reproducible():
    y, p, when, _ = _binary(seed=5)
    s = monitor.skill_over_time(y, p, when, ci=0.95, n_boot=1000, random_state=0)
    for key in ("log_loss_skill", "brier_skill"):
        iv = s.intervals[key]
        assert np.all(iv[:, 0] <= s.values[key]) and np.all(s.values[key] <= iv[:, 1])
        assert np.all(iv[:, 0] < iv[:, 1])
    again = monitor.skill_over_time(y, p, when, ci=0.95, n_boot=1000, random_state=0)
    np.testing.assert_array_equal(again.intervals["log_loss_skill"],
                                  s.intervals["log_loss_skill"])
    frame = s.to_frame()
    np.testing.assert_array_equal(frame["log_loss_skill_low"], s.intervals["log_loss_skill"][:, 0])
    cells = [re.split(r"\s{2,}", line.strip())
             for line in s.to_text(width=None).splitlines()[2:8]]
    assert cells[0] == ["period", "rows", "base rate", "log loss", "reference", "skill", "low",
                        "high", "Brier skill", "MCB", "excess", "low", "high", "p"]
    assert all(len(c) == 14 for c in cells)
    # In a terminal's 120 characters the last column goes, and the text says so.
    text = str(s)
    assert max(len(line) for line in text.splitlines()[2:8]) <= 120
    assert "Left out to fit 120 characters: p (to_text(width=None) shows every column)." in text
    # Each period's calibration test: the estimate inside its interval.
    iv = s.intervals["calibration_excess"]
    assert np.all(iv[:, 0] <= s.values["calibration_excess"])
    assert np.all(s.values["calibration_excess"] <= iv[:, 1])


def test_ci_of_rolling_regression_contains_the_point_estimate():
    rng = np.random.default_rng(6)
    n = 300
    when = _dates(rng, n, days=90)
    y = rng.normal(0, 1, n)
    pred = y + rng.normal(0, 0.6, n)
    s = monitor.skill_over_time(y, pred, when, reference_from="rolling", ci=0.9, n_boot=1000,
                                random_state=1)
    iv = s.intervals["mse_skill"]
    assert np.all(np.isnan(iv[0]))
    assert np.all(iv[1:, 0] <= s.mse_skill[1:]) and np.all(s.mse_skill[1:] <= iv[1:, 1])


def test_few_resamples_warn():
    y, p, when, _ = _binary(n=200)
    with pytest.warns(FewResamplesWarning, match="n_boot=200"):
        monitor.skill_over_time(y, p, when, ci=0.95, n_boot=200, random_state=0)


# --------------------------------------------------------------------------- degenerate


def test_single_class_period_gives_nan_skill_with_warning():
    y = [0, 1, 0, 1, 0, 0, 0, 0]
    p = [0.2, 0.8, 0.3, 0.6, 0.1, 0.2, 0.1, 0.3]
    when = ["2024-01-02"] * 4 + ["2024-02-02"] * 4
    with pytest.warns(DegenerateMetricWarning, match="2024-02-01 hold a single class"):
        s = monitor.skill_over_time(y, p, when)
    assert np.isnan(s.log_loss_skill[1]) and not np.isnan(s.log_loss_skill[0])
    assert "n/a" in str(s)


def test_constant_y_period_gives_nan_r2_with_warning():
    y = [1.0, 2.0, 3.0, 5.0, 5.0, 5.0]
    pred = [1.5, 2.0, 2.5, 4.0, 5.0, 6.0]
    when = ["2024-01-02"] * 3 + ["2024-02-02"] * 3
    with pytest.warns(DegenerateMetricWarning, match="constant y"):
        s = monitor.skill_over_time(y, pred, when)
    assert np.isnan(s.r2[1]) and s.r2[0] == pytest.approx(1 - 0.5 / 2)


def test_zero_weight_period_is_left_out():
    y = [0, 1, 0, 1, 0, 1]
    p = [0.2, 0.8, 0.3, 0.6, 0.4, 0.7]
    when = ["2024-01-02", "2024-01-03", "2024-02-02", "2024-02-03", "2024-03-01", "2024-03-02"]
    s = monitor.skill_over_time(y, p, when, sample_weight=[1, 1, 0, 0, 2, 1])
    assert [t.month for t in s.periods] == [1, 3]


# --------------------------------------------------------------------------- inputs


def test_containers_give_the_same_numbers():
    y, p, when, _ = _binary(n=300)
    base = monitor.skill_over_time(y, p, when, freq="W")
    offset = monitor.skill_over_time(y, p, when, freq=pd.offsets.Week(weekday=6))
    np.testing.assert_array_equal(offset.skill, base.skill)
    index = pd.RangeIndex(300) + 10
    variants = [
        (pd.Series(y, index=index), pd.Series(p, index=index), pd.Series(when, index=index)),
        (y.tolist(), p.tolist(), pd.DatetimeIndex(when)),
        (y, p, np.datetime_as_string(when).tolist()),
        (y, np.column_stack([1 - p, p]), when),
    ]
    for yy, pp, ww in variants:
        other = monitor.skill_over_time(yy, pp, ww, freq="W")
        assert other.periods.equals(base.periods)
        np.testing.assert_allclose(other.log_loss_skill, base.log_loss_skill, rtol=1e-12)


BAD = [
    (dict(time=["2024-01-01"] * 5), ValueError, "time has 5 rows but y has 6"),
    (dict(time=["2024-01-01"] * 5 + ["not a date"]), ValueError, "time could not be read as dates"),
    (dict(time=np.array(["2024-01-01"] * 5 + ["NaT"], dtype="datetime64[D]")), ValueError,
     r"time contains 1 missing date\(s\) \(NaT; the first at position 5\)"),
    (dict(time=np.arange(6)), TypeError, "time must hold dates or times"),
    (dict(time=None), TypeError, "time is None"),
    (dict(freq="fortnightly"), ValueError, "freq='fortnightly' is not a pandas offset alias"),
    (dict(freq=7), TypeError, "freq must be a pandas offset alias"),
    (dict(reference_from="train"), ValueError, "reference_from must be 'period'"),
    (dict(window=0), ValueError, "window must be >= 1"),
    (dict(window=1.5), TypeError, "window must be an integer"),
    (dict(ci=95), ValueError, r"ci=95 is outside \(0, 1\)"),
    (dict(proba=[0.2, 0.8, 1.3, 0.6, 0.4, 0.7]), ValueError, "proba"),
    (dict(sample_weight=[1, 1, -1, 1, 1, 1]), ValueError, "sample_weight contains negative"),
    (dict(y=pd.Series([0, 1, 0, 1, 0, 1], index=range(6)),
          time=pd.Series(["2024-01-01"] * 6, index=range(1, 7))), ValueError,
     "y and time carry different pandas indexes"),
    (dict(y=["a"] * 6), ValueError, "y holds the single label"),
]


@pytest.mark.parametrize(("change", "error", "match"), BAD)
def test_bad_input_names_the_argument(change, error, match):
    args = dict(y=[0, 1, 0, 1, 0, 1], proba=[0.2, 0.8, 0.3, 0.6, 0.4, 0.7],
                time=["2024-01-01"] * 6)
    args.update(change)
    kwargs = {k: v for k, v in args.items() if k not in ("y", "proba", "time")}
    with pytest.raises(error, match=match):
        monitor.skill_over_time(args["y"], args["proba"], args["time"], **kwargs)


# --------------------------------------------------------------------------- output


def test_text_frame_and_html():
    y, p, when, _ = _binary(n=300)
    s = monitor.skill_over_time(y, p, when)
    text = str(s)
    assert text.startswith("Skill over time (classification): 5 periods of freq 'MS', 300 rows")
    assert "judged against: each period's own class prior" in text
    assert "</style><h4>Skill over time" in s._repr_html_() and "<td" in s._repr_html_()
    assert repr(s).startswith("<SkillOverTime classification: 5 periods, log_loss_skill")
    frame = s.to_frame()
    assert frame.index.name == "period" and len(frame) == 5
    assert frame["rows"].sum() == 300
    np.testing.assert_array_equal(frame["log_loss_skill"], s.skill)


@pytest.mark.slow
def test_plot_draws_one_reading_per_panel_on_one_time_axis():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, p, when, _ = _binary(n=300)
    s = monitor.skill_over_time(y, p, when, ci=0.95, n_boot=1000, random_state=0)
    try:
        axes = s.plot()
        assert axes.shape == (3,)
        loss_ax, skill_ax, rate_ax = axes
        # No twin axes: three panels, three Axes, each with one y scale.
        assert len(loss_ax.figure.axes) == 3
        assert [line.get_label() for line in loss_ax.get_lines()] == [
            "log loss", "reference (each period's own class prior)"]
        np.testing.assert_allclose(loss_ax.get_lines()[0].get_ydata(), s.log_loss)
        np.testing.assert_allclose(loss_ax.get_lines()[1].get_ydata(), s.log_loss_ref)
        np.testing.assert_allclose(skill_ax.get_lines()[-1].get_ydata(), s.log_loss_skill)
        assert len(skill_ax.collections) == 1  # the interval band
        np.testing.assert_allclose(rate_ax.get_lines()[0].get_ydata(), s.base_rate)
        # One title size for every panel, one shared time axis labelled once, at the bottom.
        assert len({a.title.get_fontsize() for a in axes}) == 1
        assert all(a.get_title() for a in axes)
        assert loss_ax.get_shared_x_axes().joined(loss_ax, rate_ax)
        loss_ax.figure.canvas.draw()
        assert [any(t.get_visible() and t.get_text() for t in a.get_xticklabels())
                for a in axes] == [False, False, True]
        # The panels are stacked, the same width, from the top: loss, skill, base rate.
        boxes = [a.get_position() for a in axes]
        assert boxes[0].y0 > boxes[1].y0 > boxes[2].y0
        np.testing.assert_allclose([b.x0 for b in boxes], boxes[0].x0, atol=1e-9)
        np.testing.assert_allclose([b.width for b in boxes], boxes[0].width, atol=1e-9)
        _, ax = plt.subplots()
        assert s.plot(ax=ax) is ax
        assert len(ax.figure.axes) == 1
    finally:
        plt.close("all")


def test_plot_without_matplotlib_names_the_extra(monkeypatch):
    y, p, when, _ = _binary(n=100)
    s = monitor.skill_over_time(y, p, when)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "chimeraboost\[plot\]"'):
        s.plot()


def test_rolling_prior_without_a_class_that_occurs_gives_nan_log_loss_skill():
    # January holds negatives only; February's positives get probability 0 from its prior:
    # the reference log loss is infinite, the Brier reference is not.
    y = [0, 0, 0, 0, 1, 0, 1, 0]
    p = [0.2, 0.1, 0.3, 0.2, 0.7, 0.3, 0.6, 0.2]
    when = ["2024-01-02"] * 4 + ["2024-02-02"] * 4
    with pytest.warns(DegenerateMetricWarning, match="2024-02-01: the prior gives probability 0"):
        s = monitor.skill_over_time(y, p, when, reference_from="rolling", window=1)
    assert np.isinf(s.log_loss_ref[1]) and np.isnan(s.log_loss_skill[1])
    np.testing.assert_allclose(s.brier_ref[1], metrics.reference_brier(0.0, outcome_prior=0.5))
    assert not np.isnan(s.brier_skill[1])


def test_rolling_multiclass_prior_per_class():
    rng = np.random.default_rng(8)
    n = 450
    when = _dates(rng, n, days=90)
    y = np.array(["ant", "bee", "cat"])[rng.integers(0, 3, n)]
    proba = rng.dirichlet([2, 2, 2], n)
    s = monitor.skill_over_time(y, proba, when, reference_from="rolling", window=None)
    months = _month_rows(when)
    for i in range(1, len(months)):
        prev = np.concatenate([rows for _, rows in months[:i]])
        prior = metrics.class_prior(y[prev], ["ant", "bee", "cat"])
        rate = metrics.class_prior(y[months[i][1]], ["ant", "bee", "cat"])
        np.testing.assert_allclose(s.reference_prior[i], prior, rtol=1e-12)
        np.testing.assert_allclose(s.log_loss_ref[i],
                                   metrics.reference_log_loss(prior, outcome_prior=rate),
                                   rtol=1e-12)
    assert "reference_prior[bee]" in s.to_frame().columns
    assert "judged against: the class prior of all preceding periods (rolling)" in str(s)


def test_timezones_and_polars_dates_bin_alike():
    polars = pytest.importorskip("polars")
    y, p, when, _ = _binary(n=200)
    base = monitor.skill_over_time(y, p, when)
    aware = pd.Series(pd.to_datetime(when)).dt.tz_localize("Europe/Berlin")
    for other in (aware, polars.Series(pd.to_datetime(when))):
        s = monitor.skill_over_time(y, p, other)
        np.testing.assert_allclose(s.skill, base.skill, rtol=1e-12)


def test_plot_of_a_regressor_and_of_a_pair_of_axes():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(9)
    when = _dates(rng, 200, days=90)
    y = rng.normal(5, 1, 200)
    s = monitor.skill_over_time(y, y + rng.normal(0, 0.5, 200), when)
    try:
        _, pair = plt.subplots(1, 2)
        axes = s.plot(ax=pair)
        assert axes.shape == (2,) and axes[0] is pair[0] and axes[0].get_ylabel() == "RMSE"
        assert len(pair[0].figure.axes) == 2  # no twin
        np.testing.assert_allclose(axes[1].get_lines()[-1].get_ydata(), s.r2)
        _, three = plt.subplots(3, 1)
        axes = s.plot(ax=three)
        assert list(axes) == list(three)
        np.testing.assert_allclose(three[2].get_lines()[0].get_ydata(), s.mean_y)
        assert three[2].get_ylabel() == "mean of y"
        _, four = plt.subplots(1, 4)
        with pytest.raises(ValueError, match="ax must be None, one Axes, a pair of Axes"):
            s.plot(ax=four)
    finally:
        plt.close("all")


def test_ci_method_and_the_narrow_interval_warning_name_the_period():
    from chimeraboost import resampling
    from chimeraboost.exceptions import NarrowIntervalWarning

    rng = np.random.default_rng(3)
    jan, feb = np.datetime64("2024-01-10"), np.datetime64("2024-02-10")
    when = np.r_[np.full(200, jan), np.full(60, feb)]
    y = np.r_[(rng.random(200) < 0.3).astype(int), np.zeros(60, dtype=int)]
    y[[205, 230, 250]] = 1  # February: 3 events, too few for any interval
    p = np.clip(0.2 + 0.4 * (y - 0.2) + rng.normal(0, 0.05, 260), 0.01, 0.99)
    with pytest.warns(NarrowIntervalWarning, match=r"2024-02.*rarest class has 3 row"):
        s = monitor.skill_over_time(y, p, when, ci=0.95, n_boot=1000, random_state=0)
    assert s.ci_method == "expanded_bca" and "(expanded BCa; 1,000 resamples" in str(s)
    with pytest.warns(NarrowIntervalWarning):
        pct = monitor.skill_over_time(y, p, when, ci=0.95, n_boot=1000, random_state=0,
                                      ci_method="percentile")
    assert "(percentile; 1,000 resamples" in str(pct)
    # January's percentile interval is the percentile interval of January's own bootstrap.
    rows = np.flatnonzero(when == jan)
    ev = metrics.classification_evaluator(y[rows], [0, 1], proba=p[rows])
    ref = resampling.bootstrap(ev, n_boot=1000, random_state=0, metrics=["brier_skill"])
    lo, hi = ref.interval("brier_skill", method="percentile")
    assert tuple(pct.intervals["brier_skill"][0]) == pytest.approx((lo, hi), abs=1e-12)
    with pytest.raises(ValueError, match="ci_method must be one of"):
        monitor.skill_over_time(y, p, when, ci=0.95, ci_method="studentized")
