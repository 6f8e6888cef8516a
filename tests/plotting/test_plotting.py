"""chimeraboost.plotting and metrics.reliability_curve: the artists drawn (lines, band,
labels, legend texts carrying the metrics' own numbers), never pixels."""

import io
import re
import sys

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression, Ridge

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402

import chimeraboost as cb  # noqa: E402
from chimeraboost import metrics, plotting  # noqa: E402
from chimeraboost.compare import compare_cv, holdout_table  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(0)
    n = 600
    p = np.round(rng.beta(2, 3, n), 3)
    y = (rng.random(n) < p ** 1.4).astype(int)
    w = rng.uniform(0.5, 2.0, n)
    return y, p, w


def _legend(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def _bands(ax):
    return [c for c in ax.collections if isinstance(c, PolyCollection)]


# --------------------------------------------------------------------------- the curve


def test_reliability_curve_is_sklearns_isotonic_regression(binary):
    y, p, w = binary
    c = metrics.reliability_curve(y, p, [0, 1], sample_weight=w)
    iso = IsotonicRegression().fit(p, y, sample_weight=w)
    np.testing.assert_allclose(c.recalibrated, iso.predict(c.forecast), atol=1e-12)
    assert np.all(np.diff(c.forecast) > 0) and np.isclose(c.weight.sum(), w.sum())


def test_reliability_curve_gives_calibration_decompositions_mcb(binary):
    y, p, w = binary
    c = metrics.reliability_curve(y, p, [0, 1], sample_weight=w)
    r = np.interp(p, c.forecast, c.recalibrated)
    mcb = (np.sum(w * (p - y) ** 2) - np.sum(w * (r - y) ** 2)) / w.sum()
    assert mcb == pytest.approx(metrics.calibration_decomposition(y, p, [0, 1], sample_weight=w)["mcb"],
                                abs=1e-12)


def test_consistency_band_is_seeded_and_covers_a_calibrated_curve():
    rng = np.random.default_rng(1)
    p = np.round(rng.uniform(0, 1, 2000), 2)
    y = (rng.random(2000) < p).astype(int)  # calibrated by construction
    a = metrics.reliability_curve(y, p, [0, 1], n_boot=1000, random_state=3)
    b = metrics.reliability_curve(y, p, [0, 1], n_boot=1000, random_state=3)
    np.testing.assert_array_equal(a.band_low, b.band_low)
    assert np.all(a.band_low <= a.band_high)
    inside = (a.band_low - 1e-12 <= a.forecast) & (a.forecast <= a.band_high + 1e-12)
    assert inside.mean() > 0.9  # the diagonal lies in the band of its own resamples


def test_reliability_curve_multiclass_needs_pos_label():
    y = np.array(["a", "b", "c", "a"])
    proba = np.full((4, 3), 1 / 3)
    with pytest.raises(ValueError, match="pos_label is needed with 3 classes"):
        metrics.reliability_curve(y, proba, ["a", "b", "c"])
    c = metrics.reliability_curve(y, proba, ["a", "b", "c"], pos_label="a")
    assert c.label == "a" and c.recalibrated.tolist() == [0.5]


# --------------------------------------------------------------------------- reliability


def _histogram(ax):
    """The panel of forecasts beneath a diagram drawn in a figure of its own."""
    others = [a for a in ax.figure.axes if a is not ax]
    assert len(others) == 1
    return others[0]


def test_reliability_diagram_artists(binary):
    y, p, w = binary
    ax = plotting.reliability_diagram(y, p, sample_weight=w, n_boot=1000, random_state=0)
    assert len(ax.lines) == 2  # the diagonal and the curve
    assert len(_bands(ax)) == 1
    d = metrics.calibration_decomposition(y, p, [0, 1], sample_weight=w)
    text = _legend(ax)[1]
    for key in ("mcb", "dsc", "unc"):
        shown = float(re.search(rf"{key.upper()} ([0-9.]+)", text).group(1))
        assert shown == pytest.approx(d[key], rel=0.05)  # two significant digits at least
    assert _legend(ax)[2] == "90% consistency band (simultaneous)"
    assert _histogram(ax).get_xlabel() == "forecast probability"
    np.testing.assert_allclose(ax.lines[0].get_xydata(), [[0, 0], [1, 1]])


def test_legend_tells_close_small_numbers_apart():
    # Two forecasts shifted up from calibrated ones, MCB 0.00096 and 0.0012: three decimals
    # would print both as 0.001.
    rng = np.random.default_rng(5)
    p = rng.uniform(0.02, 0.98, 20000)
    y = (rng.random(20000) < p).astype(int)
    models = {"a": np.clip(p + 0.02, 0, 1), "b": np.clip(p + 0.027, 0, 1)}
    ax = plotting.reliability_diagram(y, models, n_boot=0)
    mcb = {name: metrics.calibration_decomposition(y, q, [0, 1])["mcb"]
           for name, q in models.items()}
    assert round(mcb["a"], 3) == round(mcb["b"], 3) and abs(mcb["a"] - mcb["b"]) > 1e-4
    shown = {t.split(":")[0]: float(re.search(r"MCB ([0-9.]+)", t).group(1))
             for t in _legend(ax)[1:]}
    assert shown["a"] != shown["b"]
    for name in models:
        assert shown[name] == pytest.approx(mcb[name], rel=0.05)


def test_histogram_of_the_forecasts_beneath_the_diagram(binary):
    y, p, w = binary
    ax = plotting.reliability_diagram(y, p, sample_weight=w, n_boot=0)
    hist = _histogram(ax)
    # Every row's weight is counted once, on a log scale, over the diagram's x range.
    heights = [bar.get_height() for bar in hist.patches]
    assert sum(heights) == pytest.approx(w.sum(), rel=1e-12)
    assert hist.get_yscale() == "log" and hist.get_ylabel() == "weight (log)"
    assert hist.get_ylim()[0] <= min(h for h in heights if h > 0)
    assert hist.get_ylim()[1] >= max(heights)
    ax.figure.canvas.draw()
    top, bottom = ax.get_position(), hist.get_position()
    # Beneath the diagram, exactly as wide as its (square) box, and inside the figure.
    assert bottom.y1 <= top.y0 + 1e-9
    np.testing.assert_allclose([bottom.x0, bottom.x1], [top.x0, top.x1], atol=1e-9)
    px = ax.get_window_extent()
    assert px.width == pytest.approx(px.height, abs=1.0)
    _inside_the_figure(ax.figure)
    # Several curves: one outline per model, each holding all the rows.
    ax = plotting.reliability_diagram(y, {"a": p, "b": np.clip(p * 1.3, 0, 1)})
    steps = [patch for patch in _histogram(ax).patches]
    assert len(steps) == 2
    assert _histogram(ax).get_ylabel() == "rows (log)"


def test_histogram_with_your_own_axes(binary):
    y, p, _ = binary
    _, one = plt.subplots()
    ax = plotting.reliability_diagram(y, p, ax=one, n_boot=0)
    assert ax is one and len(one.figure.axes) == 1
    inset, = one.child_axes  # inside the diagram, along its bottom edge: no room needed
    assert inset.get_position().y0 == pytest.approx(one.get_position().y0)
    assert sum(b.get_height() for b in inset.patches) == pytest.approx(len(y))
    fig, pair = plt.subplots(2, 1, height_ratios=[4, 1], layout="constrained")
    ax = plotting.reliability_diagram(y, p, ax=pair, n_boot=0)
    assert ax is pair[0] and sum(b.get_height() for b in pair[1].patches) == len(y)
    fig.canvas.draw()
    np.testing.assert_allclose(pair[1].get_position().intervalx,
                               pair[0].get_position().intervalx, atol=1e-9)
    _, alone = plt.subplots()
    plotting.reliability_diagram(y, p, ax=alone, n_boot=0, histogram=False)
    assert not alone.child_axes and alone.get_xlabel() == "forecast probability"
    with pytest.raises(ValueError, match="pair of Axes"):
        plotting.reliability_diagram(y, p, ax=[alone, alone, alone])


def _inside_the_figure(fig):
    """Nothing drawn outside the figure on its first drawing (a cut label, a cut panel)."""
    fig.savefig(io.BytesIO(), format="png")
    renderer = fig.canvas.get_renderer()
    whole = fig.bbox
    for a in fig.axes:
        box = a.get_tightbbox(renderer)
        assert box.x0 >= whole.x0 - 1 and box.y0 >= whole.y0 - 1, a
        assert box.x1 <= whole.x1 + 1 and box.y1 <= whole.y1 + 1, a


def test_reliability_diagram_several_models_and_no_band(binary):
    y, p, _ = binary
    fig, ax = plt.subplots()
    out = plotting.reliability_diagram(y, {"a": p, "b": np.clip(p * 1.3, 0, 1)}, ax=ax)
    assert out is ax and len(ax.lines) == 3 and not _bands(ax)
    assert _legend(ax)[1].startswith("a: MCB") and _legend(ax)[2].startswith("b: MCB")


def test_reliability_diagram_multiclass_one_curve_per_class():
    rng = np.random.default_rng(2)
    proba = rng.dirichlet([1, 1, 1], 300)
    y = np.array([rng.choice(3, p=row) for row in proba])
    ax = plotting.reliability_diagram(y, proba, classes=[0, 1, 2])
    per = metrics.calibration_decomposition(y, proba, [0, 1, 2])["per_class"]
    assert len(ax.lines) == 4 and not _bands(ax)
    assert f"class 2: MCB {per['mcb'][2]:.3f}" in _legend(ax)[3]
    ax = plotting.reliability_diagram(y, proba, classes=[0, 1, 2], pos_label=1, n_boot=1000)
    assert len(ax.lines) == 2 and len(_bands(ax)) == 1


# --------------------------------------------------------------------------- ranking curves


def test_roc_and_pr_curves_carry_the_reports_aucs(binary):
    y, p, w = binary
    rep = metrics.classification_report(y, p, [0, 1], sample_weight=w)
    ax = plotting.roc_curve(y, p, sample_weight=w)
    assert len(ax.lines) == 2
    assert _legend(ax) == ["no skill (AUC 0.500)", f"model: ROC-AUC {rep['roc_auc']:.3f}"]
    ax = plotting.pr_curve(y, np.column_stack([1 - p, p]), sample_weight=w)
    assert _legend(ax) == [f"no skill (base rate {rep['base_rate']:.3f})",
                           f"model: PR-AUC {rep['pr_auc']:.3f}"]
    np.testing.assert_allclose(ax.lines[0].get_ydata(), rep["base_rate"])
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("recall", "precision")


def test_ranking_curves_refuse_multiclass():
    with pytest.raises(ValueError, match="binary problems; got 3 classes"):
        plotting.roc_curve([0, 1, 2], np.full((3, 3), 1 / 3))


@pytest.mark.parametrize("draw", [plotting.roc_curve, plotting.pr_curve])
@pytest.mark.parametrize("classes", [None, [0, 1]])
def test_one_class_or_no_rows_name_y_not_classes(draw, classes):
    p = np.linspace(0.1, 0.9, 10)
    for y, match in (([1] * 10, r"y holds only class \[1\] of \[0, 1\]; the curve needs rows "
                               r"of both classes"),
                     (np.array([], dtype=int), "y is empty; at least one row is needed")):
        with pytest.raises(ValueError, match=match) as caught:
            draw(y, p[:len(y)], classes=classes)
        assert "classes must" not in str(caught.value)


def test_one_class_reliability_diagram_reads_0_1_labels_and_names_y_otherwise():
    p = np.linspace(0.1, 0.9, 10)
    # 0/1 labels say what the other class is: the diagram of ten positives is drawn, its
    # isotonic recalibration 1 everywhere (every outcome is 1).
    ax = plotting.reliability_diagram(np.ones(10, dtype=int), p, n_boot=0)
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), 1.0)
    with pytest.raises(ValueError, match=r"y holds a single label \['yes'\]; the classes are "
                                         r"read off y, so name both: classes="):
        plotting.reliability_diagram(["yes"] * 10, p)
    with pytest.raises(ValueError, match="y is empty"):
        plotting.reliability_diagram([], [])


# --------------------------------------------------------------------------- many models


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(500, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=500) > 0).astype(int)
    good = LogisticRegression().fit(X[:300], y[:300])
    weak = LogisticRegression(C=0.002).fit(X[:300], y[:300])
    return X, y, good, weak


def test_mcb_dsc_plot_points_and_isolines(fitted):
    X, y, good, weak = fitted
    reports = {"good": cb.report(good, X[300:], y[300:]), "weak": cb.report(weak, X[300:], y[300:])}
    ax = plotting.mcb_dsc_plot(reports, skills=[0.1, 0.2])
    offsets = np.vstack([c.get_offsets() for c in ax.collections])
    expected = [[r["discrimination_dsc"], r["calibration_mcb"]] for r in reports.values()]
    np.testing.assert_allclose(offsets, expected)
    u = reports["good"]["uncertainty_unc"]
    for line, s in zip(ax.lines, [0.1, 0.2]):  # MCB = DSC - skill x UNC
        x, m = line.get_xydata().T
        np.testing.assert_allclose(m, x - s * u)
    # a point on the isoline of its own Brier skill against the rows' prior
    r = reports["good"]
    assert (r["discrimination_dsc"] - r["calibration_mcb"]) / u == pytest.approx(r["brier_skill"])
    other = {"a": reports["good"], "b": cb.report(good, X[:300], y[:300])}
    with pytest.raises(ValueError, match="different UNC"):
        plotting.mcb_dsc_plot(other)


def test_forest_plot_of_report_vs_baseline(fitted):
    X, y, good, weak = fitted
    r = cb.report(good, X[300:], y[300:], baseline=weak, n_boot=1000, random_state=0)
    ax = plotting.forest_plot(r, metrics=["brier_skill", "roc_auc"], rope=0.01)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["brier_skill", "roc_auc"]
    assert len(ax.patches) == 1  # the ROPE
    np.testing.assert_allclose(ax.patches[0].get_x(), -0.01)
    assert "ROPE ±0.01" in _legend(ax)
    points, = [line for line in ax.lines if line.get_marker() == "o"]
    np.testing.assert_allclose(points.get_xdata(), [r.vs_baseline[k][0]
                                                    for k in ("brier_skill", "roc_auc")])
    # metrics= also orders the rows, top to bottom
    ax = plotting.forest_plot(r, metrics=["roc_auc", "brier_skill"])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["roc_auc", "brier_skill"]
    assert not ax.patches  # a Report has no ROPE of its own


def test_forest_plot_of_compare_cv_and_holdout_table(fitted):
    X, y, good, weak = fitted
    res = compare_cv({"good": good, "weak": weak}, X, y, scoring="roc_auc", cv=5,
                     random_state=0)
    ax = plotting.forest_plot(res)
    assert len(ax.patches) == 1 and f"ROPE ±{res.rope:g}" in _legend(ax)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(res.challengers)
    table = holdout_table({"good": good, "weak": weak}, X[300:], y[300:], baseline_name="weak",
                          n_boot=1000, random_state=0)
    ax = plotting.forest_plot(table)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["good"]
    with pytest.raises(TypeError, match="forest_plot takes"):
        plotting.forest_plot(3.0)


# --------------------------------------------------------------------------- Report.plot


def test_report_plot_classification(fitted):
    X, y, good, _ = fitted
    r = cb.report(good, X[300:], y[300:])
    axes = r.plot(n_boot=1000, random_state=0)
    assert len(axes) == 3 and len(axes[0].figure.axes) == 4  # and the histogram
    assert [a.get_title().split(" (")[0] for a in axes] == [
        "Reliability diagram", "ROC curve", "Precision-recall curve"]
    assert len(_bands(axes[0])) == 1
    assert f"ROC-AUC {r['roc_auc']:.3f}" in _legend(axes[1])[1]
    fig = axes[0].figure
    _inside_the_figure(fig)
    # The three panels are squares of one size on one line: same bottom, top and width.
    boxes = [a.get_window_extent() for a in axes]
    for box in boxes:
        assert box.y0 == pytest.approx(boxes[0].y0, abs=0.5)
        assert box.height == pytest.approx(boxes[0].height, abs=0.5)
        assert box.width == pytest.approx(box.height, abs=0.5)
    assert boxes[0].x1 < boxes[1].x0 and boxes[1].x1 < boxes[2].x0
    hist = [a for a in fig.axes if a not in axes][0]
    below = hist.get_window_extent()
    assert below.y1 <= boxes[0].y0 and below.x0 == pytest.approx(boxes[0].x0, abs=0.5)
    assert below.width == pytest.approx(boxes[0].width, abs=0.5)


def test_pr_curve_is_square_like_the_roc_curve(binary):
    y, p, _ = binary
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 5), layout="constrained")
    plotting.roc_curve(y, p, ax=left)
    plotting.pr_curve(y, p, ax=right)
    fig.canvas.draw()
    a, b = left.get_window_extent(), right.get_window_extent()
    assert (b.y0, b.height) == (pytest.approx(a.y0, abs=0.5), pytest.approx(a.height, abs=0.5))
    assert b.width == pytest.approx(b.height, abs=0.5)


def test_legends_of_a_rare_event_keep_two_significant_digits():
    rng = np.random.default_rng(6)
    y = np.zeros(5000, dtype=int)
    y[:6] = 1  # base rate 0.0012
    score = rng.random(5000) + y * 0.5
    ax = plotting.pr_curve(y, score)
    assert _legend(ax)[0] == "no skill (base rate 0.0012)"
    pr_auc = metrics.ranking_report(y, score, [0, 1])["pr_auc"]
    shown = float(re.search(r"PR-AUC ([0-9.]+)", _legend(ax)[1]).group(1))
    assert shown == pytest.approx(pr_auc, rel=0.05)


def test_report_plot_regression():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 3))
    y = X @ [1.0, 2.0, 0.0] + rng.normal(size=200)
    r = cb.report(Ridge().fit(X[:100], y[:100]), X[100:], y[100:])
    axes = r.plot()
    assert [a.get_title() for a in axes] == ["Predicted vs observed", "Residuals"]
    assert f"R² {r['r2']:.3f}" in _legend(axes[0])[1]


def test_report_without_rows_cannot_plot(fitted):
    X, y, good, weak = fitted
    base = cb.report(good, X[300:], y[300:], baseline=weak, n_boot=1000).baseline_report
    with pytest.raises(ValueError, match="keeps no predictions to draw"):
        base.plot()


def test_missing_matplotlib_names_the_extra(monkeypatch, binary):
    y, p, _ = binary
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r'pip install "chimeraboost\[plot\]"'):
        plotting.reliability_diagram(y, p)
    with pytest.raises(ImportError, match=r"Report.plot needs matplotlib"):
        plotting.plot_report(type("R", (), {"_scored": {"y": y, "pred": p}})())


# --------------------------------------------------------------------------- decisions


def _decision_data():
    rng = np.random.default_rng(0)
    p = rng.uniform(size=300)
    y = (rng.uniform(size=300) < p).astype(int)
    q = np.clip(p + rng.normal(0, 0.2, 300), 0, 1)
    return y, p, q


def test_decision_curve_draws_the_decisions_numbers():
    from chimeraboost import decisions

    y, p, q = _decision_data()
    dc = decisions.decision_curve(y, {"p": p, "q": q}, thresholds=[0.1, 0.3, 0.5], baseline_name="q",
                                  n_boot=1000, random_state=0)
    ax = plotting.decision_curve(dc)
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert set(lines) == {"treat none", "p", "q", "treat all"}
    np.testing.assert_array_equal(lines["p"].get_ydata(), dc.net_benefit["p"])
    np.testing.assert_array_equal(lines["treat all"].get_ydata(), dc.net_benefit["treat all"])
    assert len([c for c in ax.collections if isinstance(c, PolyCollection)]) == 3
    ax = plotting.decision_curve(dc, differences=True)
    diff = [line for line in ax.get_lines() if line.get_label() == "p minus q"][0]
    np.testing.assert_array_equal(diff.get_ydata(), dc.difference["p"])
    plt.close("all")
    with pytest.raises(ValueError, match="differences=True needs baseline"):
        plotting.decision_curve(y, p, differences=True, n_boot=0)


@pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")
def test_cost_curve_and_roc_pr_bands():
    from chimeraboost import decisions

    y, p, q = _decision_data()
    ax = plotting.cost_curve(y, {"p": p, "q": q})
    line = [ln for ln in ax.get_lines() if ln.get_label().startswith("p ")][0]
    np.testing.assert_array_equal(line.get_ydata(), decisions.cost_curve(y, p).cost)
    ax = plotting.roc_curve(y, {"p": p}, band=True, n_boot=200, random_state=0)
    band = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(band) == 1 and "95% bootstrap band" in band[0].get_label()
    ax = plotting.pr_curve(y, {"p": p}, band=0.8, n_boot=200, random_state=0)
    band = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(band) == 1 and "80% bootstrap band" in band[0].get_label()
    with pytest.raises(ValueError, match="band must be True, False or a level"):
        plotting.roc_curve(y, p, band=2)
    plt.close("all")


def _over_time_and_across_datasets():
    """A SkillOverTime over four months and a DatasetComparison of four models on eight sets."""
    pytest.importorskip("pandas")
    from chimeraboost import compare, monitor

    rng = np.random.default_rng(3)
    when = np.datetime64("2024-01-01") + rng.integers(0, 120, 800).astype("timedelta64[D]")
    p = rng.uniform(0.05, 0.95, 800)
    y = (rng.random(800) < p).astype(int)
    scores = rng.uniform(0.6, 0.9, (8, 4)) + np.array([0.0, 0.02, 0.05, 0.1])
    return (monitor.skill_over_time(y, p, when, freq="MS"),
            compare.compare_datasets(scores, models=["a", "b", "c", "d"]))


def test_the_plot_methods_of_monitor_and_compare_results_draw_with_plotting():
    over_time, across = _over_time_and_across_datasets()
    # The skill panel carries the result's skills; .plot() draws the same lines.
    axes = plotting.skill_over_time_plot(over_time)
    skill = [ln for ln in axes[1].get_lines() if ln.get_label() == "log_loss_skill"][0]
    np.testing.assert_allclose(skill.get_ydata(), over_time.skill)
    again = over_time.plot()
    assert [ln.get_label() for ln in again[1].get_lines()] == \
        [ln.get_label() for ln in axes[1].get_lines()]
    # The critical-difference bar is one CD long, and each name hangs from its average rank.
    ax = plotting.critical_difference_diagram(across)
    cd = across.critical_difference
    bar = [ln for ln in ax.get_lines()
           if len(ln.get_xdata()) == 2 and np.allclose(ln.get_xdata(), [1, 1 + cd])]
    assert len(bar) == 1
    hanging = [ln.get_xdata()[0] for ln in ax.get_lines() if len(ln.get_xdata()) == 3]
    np.testing.assert_allclose(sorted(hanging), sorted(across.average_ranks.values()))
    assert across.plot().get_title() == ax.get_title()


@pytest.mark.parametrize("name", ["skill_over_time_plot", "critical_difference_diagram"])
def test_the_moved_plots_name_themselves_and_the_extra_without_matplotlib(name, monkeypatch):
    over_time, across = _over_time_and_across_datasets()
    result = over_time if name == "skill_over_time_plot" else across
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=rf'{name} .*pip install "chimeraboost\[plot\]"'):
        getattr(plotting, name)(result)


# --------------------------------------------------------------------------- groups= / time=


def _clustered(seed=0, groups=40, per=25):
    """Customers with several rows whose outcomes share a customer effect (70% of the latent
    noise), the forecast calibrated given x: bands that resample rows are too narrow."""
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(groups), per)
    x = rng.normal(size=g.size)
    latent = x + np.sqrt(0.7) * rng.normal(size=groups)[g] + np.sqrt(0.3) * rng.normal(size=g.size)
    y = (latent > 0).astype(int)
    from scipy.stats import norm

    return y, norm.cdf(x), g, x


def _same_band(ax, x, low, high):
    """The band drawn on ``ax`` is fill_between(x, low, high) (its polygon, vertex by vertex)."""
    ref = plt.figure().add_subplot()
    want = ref.fill_between(x, low, high).get_paths()[0].vertices
    got = _bands(ax)
    assert len(got) == 1
    np.testing.assert_allclose(got[0].get_paths()[0].vertices, want, rtol=1e-12, atol=1e-15)


@pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")
def test_every_band_of_a_plot_resamples_the_groups_it_is_given():
    from chimeraboost import decisions

    y, p, g, _ = _clustered()
    curve = metrics.reliability_curve(y, p, [0, 1], n_boot=1000, random_state=0, groups=g)
    rows = metrics.reliability_curve(y, p, [0, 1], n_boot=1000, random_state=0)
    # Outcomes that move together by customer scatter the curve more than rows do.
    mid = (curve.forecast > 0.2) & (curve.forecast < 0.8)
    assert np.array_equal(curve.forecast, rows.forecast)
    wide, narrow = (np.median((c.band_high - c.band_low)[mid]) for c in (curve, rows))
    assert wide > 1.15 * narrow, (wide, narrow)
    ax = plotting.reliability_diagram(y, p, n_boot=1000, random_state=0, groups=g,
                                      histogram=False)
    _same_band(ax, curve.forecast, curve.band_low, curve.band_high)
    for kind, draw in (("roc", plotting.roc_curve), ("pr", plotting.pr_curve)):
        ref = decisions.curve_band(y, p, curve=kind, n_boot=200, random_state=0, groups=g)
        ax = draw(y, p, band=True, n_boot=200, random_state=0, groups=g)
        step = "post" if kind == "pr" else None
        want = plt.figure().add_subplot().fill_between(ref.x, ref.low, ref.high, step=step)
        np.testing.assert_allclose(_bands(ax)[0].get_paths()[0].vertices,
                                   want.get_paths()[0].vertices, rtol=1e-12, atol=1e-15)
    dc = decisions.decision_curve(y, {"m": p}, baseline_name="treat all", n_boot=200,
                                  random_state=0, groups=g)
    ax = plotting.decision_curve(y, {"m": p}, baseline_name="treat all", n_boot=200,
                                 random_state=0, groups=g, differences=True)
    _same_band(ax, dc.thresholds, dc.diff_low["m"], dc.diff_high["m"])


def test_report_plot_resamples_the_reports_groups():
    y, p, g, x = _clustered(seed=1)
    model = LogisticRegression().fit(x[:, None], y)
    r = cb.report(model, x[:, None], y, groups=g, n_boot=1000, random_state=0)
    axes = r.plot(n_boot=1000, random_state=0)
    proba = model.predict_proba(x[:, None])
    curve = metrics.reliability_curve(y, proba, [0, 1], n_boot=1000, random_state=0, groups=g)
    _same_band(axes[0], curve.forecast, curve.band_low, curve.band_high)
    # The same report without groups draws the rows' band, which is another one.
    plain = cb.report(model, x[:, None], y, n_boot=1000, random_state=0)
    other = plain.plot(n_boot=1000, random_state=0)[0]
    with pytest.raises(AssertionError):
        _same_band(other, curve.forecast, curve.band_low, curve.band_high)
