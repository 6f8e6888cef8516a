"""Intervals past one machine for the regression report and the decision curve: on dask
collections each equals the same accumulator computed in memory (one update, the same Poisson
counts) to 1e-12, whatever the chunking; the point numbers equal the in-memory functions
(``metrics.regression_report``, ``decisions.decision_curve``, themselves tested against
scikit-learn and the closed form elsewhere); the replicates equal the in-memory evaluators
under the engine's Poisson counts (``resampling.bootstrap_counts(scheme="poisson")``)."""

import numpy as np
import pytest

dask = pytest.importorskip(
    "dask", reason="dask is not installed (pip install 'chimeraboost[dask]')")
da = pytest.importorskip("dask.array", reason="dask.array needs numpy (pip install 'dask[array]')")

import chimeraboost as cb  # noqa: E402
from chimeraboost import dask as cbd  # noqa: E402
from chimeraboost import decisions, metrics, resampling  # noqa: E402
from chimeraboost.dask._curves import CurveAccumulator  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")

B = 200
T = [0.1, 0.3, 0.2, 0.5, 0.8]  # not sorted: the curve keeps the order given


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


def _regression(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    y = 1e4 + rng.gamma(2.0, 10.0, size=n)
    pred = y + rng.normal(0.0, 5.0, size=n)
    w = rng.uniform(0.0, 2.0, size=n)
    w[:40] = 0.0
    return y, pred, w


def _binary(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    q = np.clip(p + rng.normal(0.0, 0.2, size=n), 0.0, 1.0)
    y = rng.uniform(size=n) < p
    return y, p, q, rng.uniform(0.0, 2.0, size=n)


def _same_report(got, want, tol=1e-12):
    assert set(got.ci) == set(want.ci)
    for key, value in want.items():
        if not isinstance(value, str):
            np.testing.assert_allclose(got[key], value, rtol=tol, atol=tol, err_msg=key)
    for key, (low, high) in want.ci.items():
        np.testing.assert_allclose(got.ci[key], (low, high), rtol=tol, atol=tol, err_msg=key)


def _same_curve(got, want, tol=1e-12):
    np.testing.assert_array_equal(got.thresholds, want.thresholds)
    for field in ("net_benefit", "low", "high", "difference", "diff_low", "diff_high"):
        a, b = getattr(got, field), getattr(want, field)
        assert (a is None) == (b is None), field
        if a is not None:
            assert set(a) == set(b), field
            for name in b:
                np.testing.assert_allclose(a[name], b[name], rtol=tol, atol=tol,
                                           err_msg=f"{field}[{name}]")
    assert got.prevalence == pytest.approx(want.prevalence, rel=tol)


# --------------------------------------------------------------------------- regression


@pytest.mark.slow
@pytest.mark.parametrize("baseline", [False, True])
def test_regression_intervals_on_dask_equal_the_accumulator_in_memory(baseline):
    y, pred, w = _regression()
    kw = {"baseline": y[:400] + 3.0} if baseline else {}
    args = {"ci": 0.9, "n_boot": B, "random_state": 5, **kw}
    got = cbd.regression_report(da.from_array(y, chunks=((100, 1400, 1, 1499),)),
                                da.from_array(pred, chunks=700),
                                sample_weight=da.from_array(w, chunks=900), **args)
    # Array-likes with ci go through the same accumulator in memory, in one update.
    want = cbd.regression_report(y, pred, sample_weight=w, **args)
    assert isinstance(got, cb.Report) and got.task == "regression"
    _same_report(got, want)
    # Another chunking: the same replicates, the same intervals.
    again = cbd.regression_report(da.from_array(y, chunks=333), da.from_array(pred, chunks=333),
                                  sample_weight=da.from_array(w, chunks=333), **args)
    _same_report(again, want)
    # The intervals are the percentiles of the evaluator's replicates under the same counts.
    counts = next(resampling.bootstrap_counts(y.size, B, random_state=5, scheme="poisson",
                                              chunk_size=B))
    reps = metrics.regression_evaluator(y, pred, sample_weight=w, **kw).evaluate(
        counts, warn=False)
    for key in ("rmse", "r2", "mae"):
        low, high = np.quantile(reps[key], [0.05, 0.95])
        np.testing.assert_allclose(got.ci[key], (low, high), rtol=1e-9, err_msg=key)
    assert "mae_skill" in got.ci and ("baseline_median" in got.ci) != baseline
    # The point numbers are the in-memory report's.
    point = metrics.regression_report(y, pred, sample_weight=w, **kw)
    for key in ("mse", "r2", "mse_skill", "rmse"):
        assert got[key] == pytest.approx(point[key], rel=1e-12), key


def test_regression_without_ci_is_the_point_dict():
    y, pred, w = _regression(500)
    got = cbd.regression_report(da.from_array(y, chunks=120), da.from_array(pred, chunks=77))
    assert isinstance(got, dict) and not isinstance(got, cb.Report)
    assert got["r2"] == pytest.approx(metrics.regression_report(y, pred)["r2"], rel=1e-12)
    # Non-dask input without ci: exactly the in-memory report.
    assert cbd.regression_report(y, pred) == metrics.regression_report(y, pred)


@pytest.mark.slow
def test_regression_intervals_on_a_dataframe_with_groups():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    y, pred, _ = _regression(2000, seed=2)
    customers = np.random.default_rng(3).integers(0, 150, 2000)
    d = dd.from_pandas(pd.DataFrame({"y": y, "p": pred, "c": customers}), npartitions=5)
    rows = cbd.regression_report(d["y"], d["p"], ci=0.95, n_boot=B, random_state=1)
    _same_report(rows, cbd.regression_report(y, pred, ci=0.95, n_boot=B, random_state=1))
    grouped = cbd.regression_report(d["y"], d["p"], ci=0.95, n_boot=B, random_state=1,
                                    groups=d["c"])
    shuffled = np.random.default_rng(4).permutation(2000)
    _same_report(grouped, cbd.regression_report(y[shuffled], pred[shuffled], ci=0.95,
                                                n_boot=B, random_state=1,
                                                groups=customers[shuffled]))
    # Whole customers resampled: wider intervals than rows (their rows are alike here
    # only by chance, so just not narrower by much).
    assert grouped.ci["rmse"][1] - grouped.ci["rmse"][0] > 0


# --------------------------------------------------------------------------- decision curve


@pytest.mark.parametrize("weighted", [False, True])
def test_decision_curve_on_dask_equals_in_memory(weighted):
    y, p, q, w = _binary()
    w = w if weighted else None
    dw = None if w is None else da.from_array(w, chunks=1000)
    got = cbd.decision_curve(da.from_array(y, chunks=((100, 1400, 1, 1499),)),
                             {"a": da.from_array(p, chunks=900),
                              "b": da.from_array(q, chunks=400)},
                             thresholds=T, sample_weight=dw, n_boot=B, random_state=1,
                             baseline_name="b")
    assert isinstance(got, decisions.DecisionCurve) and got.ci_method == "percentile"
    # The point curves: the in-memory decision curve's, and the closed form.
    mem = decisions.decision_curve(y, {"a": p, "b": q}, thresholds=T, sample_weight=w,
                                   n_boot=0, baseline_name="b")
    for name in ("a", "b", "treat all"):
        np.testing.assert_allclose(got.net_benefit[name], mem.net_benefit[name], atol=1e-12)
    np.testing.assert_allclose(got.difference["a"], mem.difference["a"], atol=1e-12)
    ww = np.ones(y.size) if w is None else w
    t = np.asarray(T)
    treated = p[:, None] >= t
    closed = ((ww * y) @ treated - (ww * ~y) @ treated * t / (1 - t)) / ww.sum()
    np.testing.assert_allclose(got.net_benefit["a"], closed, atol=1e-12)
    # The bands: those of the same accumulator in memory, whatever the chunking.
    acc = CurveAccumulator(t, 2, n_boot=B, random_state=1).update(
        y, np.column_stack([p, q]), sample_weight=w)
    nb, treat_all, _ = acc.curves()
    for name, reps in (("a", nb[1:, 0]), ("b", nb[1:, 1]), ("treat all", treat_all[1:])):
        low, high = np.quantile(reps, [0.025, 0.975], axis=0)
        np.testing.assert_allclose(got.low[name], np.minimum(low, got.net_benefit[name]),
                                   atol=1e-12)
        np.testing.assert_allclose(got.high[name], np.maximum(high, got.net_benefit[name]),
                                   atol=1e-12)
    again = cbd.decision_curve(da.from_array(y, chunks=250), {"a": da.from_array(p, chunks=250),
                               "b": da.from_array(q, chunks=250)}, thresholds=T,
                               sample_weight=dw, n_boot=B, random_state=1, baseline_name="b")
    _same_curve(again, got)


def test_decision_curve_replicates_are_the_evaluator_under_poisson_counts():
    y, p, _, w = _binary(4000, seed=3)
    t = np.asarray(T)
    parts = [CurveAccumulator(t, 1, n_boot=B, random_state=2).update(
        y[a:b], p[a:b], sample_weight=w[a:b], first_row=a)
        for a, b in [(0, 1), (1, 1500), (1500, 4000)]]
    merged = parts[2].merge(parts[0]).merge(parts[1])
    nb, treat_all, prevalence = merged.curves()
    whole = CurveAccumulator(t, 1, n_boot=B, random_state=2).update(y, p, sample_weight=w)
    np.testing.assert_allclose(nb, whole.curves()[0], atol=1e-12)
    counts = next(resampling.bootstrap_counts(4000, B, random_state=2, scheme="poisson",
                                              chunk_size=B))
    ev = decisions.DecisionEvaluator(y, p, t, sample_weight=w,
                                     names={"net_benefit", "net_benefit_all"})
    out = ev.evaluate(counts, warn=False)
    want = np.column_stack([out[f"net_benefit@{v!r}"] for v in T])
    np.testing.assert_allclose(nb[1:, 0], want, atol=1e-12)
    want_all = np.column_stack([out[f"net_benefit_all@{v!r}"] for v in T])
    np.testing.assert_allclose(treat_all[1:], want_all, atol=1e-12)
    np.testing.assert_allclose(prevalence[0], np.sum(w * y) / np.sum(w), rtol=1e-12)


def test_decision_curve_with_string_labels_one_class_blocks_and_zero_weights():
    y, p, _, w = _binary(1200, seed=4)
    order = np.argsort(y, kind="stable")  # the first blocks hold negatives only
    y, p, w = y[order], p[order], w[order]
    w[:300] = 0.0  # a block whose weights are all zero
    labels = np.where(y, "sick", "well")
    got = cbd.decision_curve(da.from_array(labels, chunks=300), da.from_array(p, chunks=300),
                             thresholds=T, pos_label="sick",
                             sample_weight=da.from_array(w, chunks=300), n_boot=B,
                             random_state=0, baseline_name="treat all")
    mem = decisions.decision_curve(labels, p, thresholds=T, pos_label="sick", sample_weight=w,
                                   n_boot=0, baseline_name="treat all")
    for name in ("model", "treat all"):
        np.testing.assert_allclose(got.net_benefit[name], mem.net_benefit[name], atol=1e-12)
    np.testing.assert_allclose(got.difference["model"], mem.difference["model"], atol=1e-12)
    assert np.all(got.diff_low["model"] <= got.difference["model"])
    assert np.all(got.difference["model"] <= got.diff_high["model"])


def test_decision_curve_on_a_dataframe_equals_the_array_and_groups_are_whole():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    y, p, q, _ = _binary(2000, seed=5)
    customers = np.random.default_rng(6).integers(0, 120, 2000)
    d = dd.from_pandas(pd.DataFrame({"y": y, "p": p, "q": q, "c": customers}), npartitions=4)
    args = {"thresholds": T, "n_boot": B, "random_state": 3, "baseline_name": "q"}
    frame = cbd.decision_curve(d["y"], {"p": d["p"], "q": d["q"]}, **args)
    array = cbd.decision_curve(da.from_array(y, chunks=600),
                               {"p": da.from_array(p, chunks=700),
                                "q": da.from_array(q, chunks=500)}, **args)
    _same_curve(frame, array)
    grouped = cbd.decision_curve(d["y"], {"p": d["p"], "q": d["q"]}, groups=d["c"], **args)
    assert grouped.units == "groups"
    shuffled = np.random.default_rng(7).permutation(2000)
    acc = CurveAccumulator(np.asarray(T), 2, n_boot=B, random_state=3).update(
        y[shuffled], np.column_stack([p, q])[shuffled], groups=customers[shuffled])
    nb = acc.curves()[0]
    low = np.quantile(nb[1:, 0], 0.025, axis=0)
    np.testing.assert_allclose(grouped.low["p"], np.minimum(low, grouped.net_benefit["p"]),
                               atol=1e-12)


def test_decision_curve_with_empty_partitions_and_an_empty_frame():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe is not installed")
    y, p, _, _ = _binary(1000, seed=9)
    d = dd.from_pandas(pd.DataFrame({"y": y, "p": p}), npartitions=4)
    kept = d[d["p"] > 0.3]
    kept = kept.map_partitions(lambda part: part.iloc[:0] if len(part) and part.index[0] < 250
                               else part)
    got = cbd.decision_curve(kept["y"], kept["p"], thresholds=T, n_boot=0)
    rows = (p > 0.3) & (np.arange(1000) >= 250)  # the first partition emptied
    want = decisions.decision_curve(y[rows], p[rows], thresholds=T, n_boot=0)
    np.testing.assert_allclose(got.net_benefit["model"], want.net_benefit["model"], atol=1e-12)
    none = d[d["p"] > 2.0]
    with pytest.raises(ValueError, match="y is empty"):
        cbd.decision_curve(none["y"], none["p"], thresholds=T, n_boot=0)


def test_decision_curve_of_numpy_input_is_the_in_memory_function():
    y, p, _, w = _binary(600, seed=8)
    args = {"thresholds": T, "sample_weight": w, "n_boot": B, "random_state": 0}
    got = cbd.decision_curve(y, p, **args)
    want = decisions.decision_curve(y, p, ci_method="percentile", **args)
    _same_curve(got, want, tol=0)
    assert got.units == "rows" and got.n_boot == B


@pytest.mark.parametrize("kwargs, error, match", [
    ({"ci_method": "bca"}, ValueError, "needs the jackknife"),
    ({"time": np.arange(100)}, ValueError,
     r"time=array\(\[ ?0, +1, .*pass the period as groups="),
    ({"baseline_name": "incumbent"}, ValueError, "not one of the models"),
    ({"proba": {"treat all": None}}, ValueError, "built-in curve"),
    ({"proba": {}}, ValueError, "empty dict"),
    ({"thresholds": [0.0, 0.5]}, ValueError, "strictly inside"),
    ({"level": 1.5}, ValueError, "level"),
    ({"n_boot": 10}, ValueError, "n_boot=10 is too few"),
])
def test_bad_decision_curve_input_is_refused_by_name(kwargs, error, match):
    y = da.from_array(np.array([0, 1] * 50), chunks=30)
    p = da.from_array(np.linspace(0.1, 0.9, 100), chunks=30)
    if isinstance(kwargs.get("proba"), dict) and kwargs["proba"]:
        kwargs = {"proba": {k: p for k in kwargs["proba"]}}
    proba = kwargs.pop("proba", p)
    with pytest.raises(error, match=match):
        cbd.decision_curve(y, proba, **kwargs)


def test_scores_outside_zero_one_name_the_block():
    y = da.from_array(np.array([0, 1] * 50), chunks=30)
    p = da.from_array(np.r_[np.linspace(0.1, 0.9, 99), 1.5], chunks=30)
    with pytest.raises(ValueError, match=r"block 3 \(rows 90 to 99\): proba must hold "):
        cbd.decision_curve(y, p, thresholds=T, n_boot=0)


@pytest.mark.parametrize("kwargs, match", [
    ({"ci": 0.95, "ci_method": "bca"}, "needs the jackknife"),
    ({"groups": np.zeros(100)}, "there are none \\(ci=None\\)"),
    ({"ci": 0.95, "n_boot": 10}, "n_boot=10 is too few"),
])
def test_bad_regression_interval_arguments_are_refused_by_name(kwargs, match):
    y = da.from_array(np.linspace(0.0, 1.0, 100), chunks=30)
    with pytest.raises(ValueError, match=match):
        cbd.regression_report(y, y + 0.1, **kwargs)
