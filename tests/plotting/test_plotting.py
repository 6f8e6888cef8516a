"""chimeraboost.plotting and metrics.reliability_curve: the artists drawn (lines, band,
labels, legend texts carrying the metrics' own numbers), never pixels."""

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
    c = metrics.reliability_curve(y, p, [0, 1], w)
    iso = IsotonicRegression().fit(p, y, sample_weight=w)
    np.testing.assert_allclose(c.recalibrated, iso.predict(c.forecast), atol=1e-12)
    assert np.all(np.diff(c.forecast) > 0) and np.isclose(c.weight.sum(), w.sum())


def test_reliability_curve_gives_calibration_decompositions_mcb(binary):
    y, p, w = binary
    c = metrics.reliability_curve(y, p, [0, 1], w)
    r = np.interp(p, c.forecast, c.recalibrated)
    mcb = (np.sum(w * (p - y) ** 2) - np.sum(w * (r - y) ** 2)) / w.sum()
    assert mcb == pytest.approx(metrics.calibration_decomposition(y, p, [0, 1], w)["mcb"],
                                abs=1e-12)


def test_consistency_band_is_seeded_and_covers_a_calibrated_curve():
    rng = np.random.default_rng(1)
    p = np.round(rng.uniform(0, 1, 2000), 2)
    y = (rng.random(2000) < p).astype(int)  # calibrated by construction
    a = metrics.reliability_curve(y, p, [0, 1], n_boot=100, random_state=3)
    b = metrics.reliability_curve(y, p, [0, 1], n_boot=100, random_state=3)
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


def test_reliability_diagram_artists(binary):
    y, p, w = binary
    ax = plotting.reliability_diagram(y, p, sample_weight=w, n_boot=50, random_state=0)
    assert len(ax.lines) == 2  # the diagonal and the curve
    assert len(_bands(ax)) == 1
    d = metrics.calibration_decomposition(y, p, [0, 1], w)
    text = _legend(ax)[1]
    for key in ("mcb", "dsc", "unc"):
        assert f"{key.upper()} {d[key]:.3f}" in text
    assert _legend(ax)[2] == "90% consistency band (simultaneous)"
    assert ax.get_xlabel() == "forecast probability"
    np.testing.assert_allclose(ax.lines[0].get_xydata(), [[0, 0], [1, 1]])


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
    ax = plotting.reliability_diagram(y, proba, classes=[0, 1, 2], pos_label=1, n_boot=20)
    assert len(ax.lines) == 2 and len(_bands(ax)) == 1


# --------------------------------------------------------------------------- ranking curves


def test_roc_and_pr_curves_carry_the_reports_aucs(binary):
    y, p, w = binary
    rep = metrics.classification_report(y, p, [0, 1], w)
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
    table = holdout_table({"good": good, "weak": weak}, X[300:], y[300:], baseline="weak",
                          n_boot=1000, random_state=0)
    ax = plotting.forest_plot(table)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["good"]
    with pytest.raises(TypeError, match="forest_plot takes"):
        plotting.forest_plot(3.0)


# --------------------------------------------------------------------------- Report.plot


def test_report_plot_classification(fitted):
    X, y, good, _ = fitted
    r = cb.report(good, X[300:], y[300:])
    axes = r.plot(n_boot=20, random_state=0)
    assert len(axes) == 3 and len(axes[0].figure.axes) == 3
    assert [a.get_title().split(" (")[0] for a in axes] == [
        "Reliability diagram", "ROC curve", "Precision-recall curve"]
    assert len(_bands(axes[0])) == 1
    assert f"ROC-AUC {r['roc_auc']:.3f}" in _legend(axes[1])[1]


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
