"""chimeraboost.slices.find_weak_slices and report(..., by=...): the slices of a fitted model,
the weak ones found on one half and judged on the other."""

import io
import json

import numpy as np
import pytest
from sklearn.compose import make_column_transformer
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline

import chimeraboost as cb
from chimeraboost import metrics
from chimeraboost.slices import _search, find_weak_slices, slice_report

pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")


def _planted(n=3000, seed=0):
    """A segment of 10% of the rows where the outcome does not follow x (the model's
    probabilities there are confidently wrong), among columns of every kind."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "x": rng.normal(size=n),
        "segment": rng.choice(list("abcdefghij"), n),
        "age": rng.uniform(18, 90, n),
        "member": rng.random(n) < 0.5,
    })
    weak = (X["segment"] == "c").to_numpy()
    logit = np.where(weak, 0.0, 2.0 * X["x"].to_numpy())
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return X, y, weak


@pytest.fixture(scope="module")
def planted():
    X, y, weak = _planted()
    # The model uses column x only; the table goes in whole.
    model = make_pipeline(make_column_transformer(("passthrough", ["x"])),
                          LogisticRegression()).fit(X, y)
    return X, y, weak, model


def test_the_planted_weak_segment_is_found_first_and_judged_on_held_out_rows(planted):
    X, y, weak, model = planted
    found = find_weak_slices(model, X, y, n_boot=300, random_state=0)
    assert found.labels[0] == "segment = c"
    assert found.verdict[0] == "worse than the rest"
    held, f = found.held_out, found.search
    assert f["rows_searched"] + f["rows_held"] == y.size == f["rows_searched"] + held.size
    # Every number comes from the held-out rows: the first slice is segment c among them.
    rows = held[found.rows_of("segment = c")]
    np.testing.assert_array_equal(rows, held[weak[held]])
    proba = model.predict_proba(X)
    ref = metrics.classification_report(y[rows], proba[rows], [0, 1])
    np.testing.assert_allclose(found.values["brier_skill"][0], ref["brier_skill"], rtol=1e-12)
    rest = np.setdiff1d(held, rows)
    other = metrics.classification_report(y[rest], proba[rest], [0, 1])
    np.testing.assert_allclose(found.rest[0], other["brier_skill"], rtol=1e-12)
    # The search half saw the other rows, and its own numbers are kept beside.
    assert f["rows"][0] == weak.sum() - weak[held].sum()
    assert f["bound"][0] == f["bound"].min() and f["candidates"] > len(found.labels)
    assert "which the search did not see" in str(found)


def test_search_proposals_are_distinct_findings(planted):
    X, y, weak, model = planted
    found = find_weak_slices(model, X, y, n_boot=300, random_state=1, top=5)
    masks = [np.isin(np.arange(found.held_out.size), found.rows_of(lab))
             for lab in found.labels]
    for i in range(len(masks)):
        for j in range(i):
            both = np.sum(masks[i] & masks[j])
            assert both / min(masks[i].sum(), masks[j].sum()) < _search.SAME_FINDING
    assert found.labels[0] == "segment = c"
    assert not any(lab.startswith("segment = c &") for lab in found.labels)  # same finding


def test_delta_method_standard_error_agrees_with_the_jackknife():
    # The search's standard error of a skill from sums (delta method) against the jackknife
    # of the same skill recomputed with metrics, leaving out one row at a time.
    rng = np.random.default_rng(2)
    n = 400
    y = rng.integers(0, 3, n)
    proba = rng.dirichlet([2, 2, 2], n)
    proba[np.arange(n), y] += 0.5
    proba /= proba.sum(axis=1, keepdims=True)
    w = rng.uniform(0.5, 2.0, n)
    model = cb.slices._inputs.Output("classification", y, proba, np.array([0, 1, 2]), w)
    prior = np.array([0.2, 0.3, 0.5])  # a fixed reference, for the skills against all rows
    for metric in ("brier_skill", "log_loss_skill", "accuracy", "brier_skill_vs_all",
                   "log_loss_skill_vs_all"):
        names, F = _search._features(model, metric)
        sums = {k: F[:, j].sum(keepdims=True) for j, k in enumerate(names)}
        value, var = _search._statistic(sums, metric, 3, prior)
        fixed = {"baseline": dict(enumerate(prior))} if metric.endswith("_vs_all") else {}
        key = metric.removesuffix("_vs_all")
        full = metrics.classification_report(y, proba, [0, 1, 2], sample_weight=w,
                                             **fixed)[key]
        np.testing.assert_allclose(value[0], full, rtol=1e-12)
        loo = []
        for i in range(n):
            keep = np.arange(n) != i
            loo.append(metrics.classification_report(y[keep], proba[keep], [0, 1, 2],
                                                     sample_weight=w[keep], **fixed)[key])
        loo = np.array(loo)
        jack = (n - 1) / n * np.sum((loo - loo.mean()) ** 2)
        np.testing.assert_allclose(var[0], jack, rtol=0.02, err_msg=metric)
    yr = rng.normal(size=n) * 3 + 10
    pred = yr + rng.normal(size=n)
    reg = cb.slices._inputs.Output("regression", yr, pred, None, w)
    names, F = _search._features(reg, "r2")
    value, var = _search._statistic({k: F[:, j].sum(keepdims=True)
                                     for j, k in enumerate(names)}, "r2", 0)
    np.testing.assert_allclose(value[0], metrics.regression_report(yr, pred, sample_weight=w)["r2"],
                               rtol=1e-12)
    loo = np.array([metrics.regression_report(yr[np.arange(n) != i], pred[np.arange(n) != i],
                                              sample_weight=w[np.arange(n) != i])["r2"] for i in range(n)])
    np.testing.assert_allclose(var[0], (n - 1) / n * np.sum((loo - loo.mean()) ** 2),
                               rtol=0.02)


def test_find_weak_slices_refuses_what_it_cannot_do(planted):
    X, y, _, model = planted
    with pytest.raises(ValueError, match="max_depth must be 1 or 2"):
        find_weak_slices(model, X, y, max_depth=3, n_boot=300)
    with pytest.raises(ValueError, match="by names column 'nope'"):
        find_weak_slices(model, X, y, columns=["nope"], n_boot=300)
    # Every row predicted right with probability 1 (x scaled so far that no row's logit is
    # short of saturation), whatever the split: no slice can be weaker than the rest.
    sure = (X["x"] > 0).to_numpy().astype(int)
    assert np.allclose(model.predict_proba(X.assign(x=X["x"] * 1e5))[:, 1], sure)
    # Nothing weaker than the rest: an empty result that says so, not an error to catch.
    none = find_weak_slices(model, X.assign(x=X["x"] * 1e5), sure, columns=["member"],
                            n_boot=300)
    assert none.labels == [] and none.to_frame().shape[0] == 0
    assert "No candidate slice is weaker than the rest" in str(none)
    assert "none found" in str(none)


# --------------------------------------------------------------------------- report(by=)


def test_report_by_a_column_slices_the_models_own_output(planted):
    X, y, weak, model = planted
    r = cb.report(model, X, y, by="segment", n_boot=300, random_state=0)
    s = r.slices
    assert s.labels == [f"segment = {c}" for c in "abcdefghij"]
    direct = slice_report(y, model.predict_proba(X), "segment", X=X, n_boot=300,
                          random_state=0)
    np.testing.assert_allclose(s.values["brier_skill"], direct.values["brier_skill"],
                               rtol=1e-12)
    np.testing.assert_allclose(s.diff_interval, direct.diff_interval, rtol=1e-12)
    assert s.verdict[2] == "worse than the rest"
    text = str(r)
    assert text.index("judged against") < text.index("segment = c")
    assert "segment = c" in r._repr_html_()
    assert "slices" in r.to_dict()


def test_report_by_with_a_fitted_baseline_and_baseline_targets():
    X, y, weak = _planted(n=1500, seed=3)
    Xn = X[["x", "age"]].to_numpy()
    model = LogisticRegression().fit(Xn, y)
    old = LogisticRegression().fit(Xn[:, 1:], y)

    class Second(LogisticRegression):
        def predict_proba(self, X):
            return old.predict_proba(X[:, 1:])

    incumbent = Second()
    incumbent.classes_, incumbent.coef_, incumbent.intercept_ = old.classes_, old.coef_, \
        old.intercept_
    labels = X["segment"].to_numpy()
    r = cb.report(model, Xn, y, baseline=incumbent, by=labels, n_boot=300, random_state=0)
    vb = r.slices.vs_baseline
    for s, label in enumerate(r.slices.labels):
        m = labels == label
        new = metrics.brier_skill(y[m], model.predict_proba(Xn[m]), classes=[0, 1])
        base = metrics.brier_skill(y[m], old.predict_proba(Xn[m, 1:]), classes=[0, 1])
        np.testing.assert_allclose(vb["difference"][s], new - base, rtol=1e-10)
    # baseline targets: the slices' skills against all rows use their prior
    y_train = np.r_[np.zeros(70), np.ones(30)]
    r = cb.report(model, Xn, y, baseline=y_train, by=labels, n_boot=300, random_state=0)
    m = labels == "a"
    ref = metrics.classification_report(y[m], model.predict_proba(Xn[m]), [0, 1],
                                        baseline=y_train)
    np.testing.assert_allclose(r.slices.values["brier_skill_vs_all"][0], ref["brier_skill"],
                               rtol=1e-12)
    assert "class prior of y_train (0.300)" in str(r.slices) or \
        "baseline targets (0.300)" in str(r.slices)


def test_report_by_on_a_regressor_and_its_mixin():
    X, _, _ = _planted(n=800, seed=4)
    rng = np.random.default_rng(4)
    yr = 3 * X["x"].to_numpy() + rng.normal(size=800)
    model = LinearRegression().fit(X[["x", "age"]], yr)
    r = cb.report(model, X[["x", "age"]], yr, by="age", n_boot=300, random_state=0)
    assert r.slices.task == "regression" and len(r.slices.labels) == 5
    m = r.slices.rows_of(r.slices.labels[0])
    pred = model.predict(X[["x", "age"]])
    np.testing.assert_allclose(r.slices.values["r2"][0],
                               metrics.regression_report(yr[m], pred[m])["r2"], rtol=1e-12)
    boosted = cb.ChimeraBoostRegressor(max_iter=20, random_state=0).fit(X[["x", "age"]], yr)
    mixed = boosted.report(X[["x", "age"]], yr, by="age", n_boot=300, random_state=0)
    assert mixed.slices.labels == r.slices.labels


def test_report_by_a_missing_column_fails_before_the_bootstrap(planted):
    X, y, _, model = planted
    with pytest.raises(ValueError, match="by names column 'segmnt', which is not in X"):
        cb.report(model, X, y, by="segmnt", ci=0.95)


# --------------------------------------------------------------------------- the CLI


def test_cli_report_by_column(tmp_path):
    from chimeraboost.cli._main import main

    rng = np.random.default_rng(5)
    n = 600
    region = rng.choice(["north", "south", "west"], n)
    age = np.where(rng.random(n) < 0.05, np.nan, rng.uniform(18, 90, n))
    y = rng.integers(0, 2, n)
    p = np.clip(0.5 + 0.3 * (y - 0.5) + rng.normal(0, 0.1, n), 0.01, 0.99)
    p[region == "west"] = rng.uniform(0.05, 0.95, (region == "west").sum())
    path = tmp_path / "h.csv"
    pd.DataFrame({"y": y, "p": p, "region": region, "age": age}).to_csv(path, index=False)
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        assert main(["report", str(path), "--target", "y", "--score", "p", "--by", "region",
                     "--n-boot", "300", "-q"]) == 0
    text = out.getvalue()
    assert "p by region: 3 slices" in text and "region = west" in text
    ref = slice_report(y, p, region, classes=[0, 1], n_boot=300, random_state=0)
    west = ref.labels.index("west")
    assert f"{ref.values['brier_skill'][west]:.3f} [" in text
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["report", str(path), "--target", "y", "--score", "p", "--by", "age",
                     "--n-boot", "300", "-q", "--json"]) == 0
    got = json.loads(out.getvalue())
    assert "age missing" in got["slices"]["slices"]
    assert got["slices"]["slices"]["age missing"]["n"] == int(np.isnan(age).sum())
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["report", str(path), "--target", "y", "--score", "p", "--by", "age",
                     "--stream"]) == 2
    assert "--by resamples every row at once" in err.getvalue()


@pytest.mark.parametrize("bins", [None, 3])
def test_candidate_sums_equal_sums_over_each_candidates_rows(bins):
    # The sums behind every candidate's statistic, computed through crossed cells or straight
    # from the rows (bins=None: more crossed cells than rows), against a sum over the rows that
    # meet each candidate's conditions, one candidate at a time.
    rng = np.random.default_rng(7)
    n = 120
    X = pd.DataFrame({"x": rng.normal(size=n), "age": rng.uniform(18, 90, n).round(),
                      "plan": rng.choice(["p1", "p2", "p3"], n)})
    y = rng.integers(0, 2, n)
    proba = np.clip(rng.uniform(0.05, 0.95, n), 0, 1)
    model = cb.slices._inputs.Output("classification", y, np.column_stack([1 - proba, proba]),
                                     np.array([0, 1]), rng.uniform(0.5, 2.0, n))
    names, F = _search._features(model, "brier_skill")
    cols = _search._search_columns(X, None, bins)
    if bins is None:
        assert cols[0].n_cells * cols[1].n_cells > n  # the route from the rows is taken
    labels, parts, S = _search._candidates(cols, F, names, max_depth=2)
    assert len(labels) == len(parts) == S["w"].size
    rows = np.arange(n)
    for c, part in enumerate(parts):
        keep = _search._mask(part, rows)
        for j, name in enumerate(names):
            np.testing.assert_allclose(S[name][c], F[keep, j].sum(), rtol=1e-12, atol=1e-12)


def test_exclude_keeps_columns_out_of_the_search_as_columns_would(planted):
    X, y, weak, model = planted
    kept = find_weak_slices(model, X, y, exclude="x", n_boot=200, random_state=3,
                            calibration=False)
    listed = find_weak_slices(model, X, y, columns=["segment", "age", "member"], n_boot=200,
                              random_state=3, calibration=False)
    assert kept.labels == listed.labels and kept.labels[0] == "segment = c"
    assert not any("x " in lab or lab.startswith("x") for lab in kept.labels)
    np.testing.assert_array_equal(kept.search["bound"], listed.search["bound"])
    assert kept.search["candidates"] == listed.search["candidates"]
    # On an array, by index (negative ones counted from the end), as with columns=.
    A = X[["x", "age"]].to_numpy()
    on_array = find_weak_slices(LogisticRegression().fit(A, y), A, y, exclude=[-2],
                                max_depth=1, n_boot=200, random_state=0, calibration=False)
    only = find_weak_slices(LogisticRegression().fit(A, y), A, y, columns=[1], max_depth=1,
                            n_boot=200, random_state=0, calibration=False)
    assert on_array.search["candidates"] == only.search["candidates"] == 11  # 5 ranges, 3 + 3 cuts
    assert on_array.labels == only.labels


def test_exclude_refuses_unknown_columns_and_leaving_nothing(planted):
    X, y, _, model = planted
    with pytest.raises(ValueError, match="exclude names column 'nope', which is not in X"):
        find_weak_slices(model, X, y, exclude=["x", "nope"], n_boot=200)
    with pytest.raises(ValueError, match="once exclude= leaves out 4 column"):
        find_weak_slices(model, X, y, exclude=list(X.columns), n_boot=200)
    A = X[["x", "age"]].to_numpy()
    with pytest.raises(ValueError, match="exclude names column 2, which is not in X"):
        find_weak_slices(LogisticRegression().fit(A, y), A, y, exclude=2, n_boot=200)
