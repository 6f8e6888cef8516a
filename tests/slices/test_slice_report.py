"""chimeraboost.slices.slice_report: each slice's numbers against its own base rate, the
difference to the rest, the multiplicity-adjusted verdicts, and every way of naming slices."""

import re
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn import metrics as skm
from statsmodels.stats.multitest import multipletests

from chimeraboost import compare, metrics, resampling
from chimeraboost.exceptions import DegenerateMetricWarning, FewResamplesWarning
from chimeraboost.slices import slice_report

pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")

SCALARS = ("log_loss", "log_loss_ref", "log_loss_skill", "brier", "brier_ref", "brier_skill",
           "calibration_mcb", "discrimination_dsc", "uncertainty_unc", "roc_auc", "pr_auc",
           "accuracy", "balanced_accuracy", "f1_macro", "positives")
REGRESSION = ("mean_y", "mse", "rmse", "rmse_ref", "mae", "mae_ref", "r2", "mae_skill")


def _binary(n=900, seed=0):
    rng = np.random.default_rng(seed)
    region = rng.choice(["north", "south", "east", "west"], n, p=[0.3, 0.3, 0.25, 0.15])
    rate = np.where(region == "east", 0.15, 0.4)  # base rates differ by region
    y = (rng.random(n) < rate).astype(int)
    p = np.clip(rate + 0.35 * (y - rate) + rng.normal(0, 0.08, n), 0.01, 0.99)
    return y, p, region, rng


def _same(a, b, key=""):
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=key)


# --------------------------------------------------------------------------- same numbers


@pytest.mark.parametrize("weighted", [False, True])
def test_each_slice_equals_metrics_on_its_rows_binary(weighted):
    y, p, region, rng = _binary()
    w = rng.uniform(0.2, 3.0, y.size) if weighted else None
    r = slice_report(y, p, region, sample_weight=w, n_boot=200, random_state=0)
    assert r.labels == ["east", "north", "south", "west"]  # sorted levels
    prior = np.bincount(y, weights=w) / (y.size if w is None else w.sum())
    for s, label in enumerate(r.labels):
        m = region == label
        ws = None if w is None else w[m]
        assert r.n[s] == m.sum()
        ref = metrics.classification_report(y[m], p[m], [0, 1], sample_weight=ws)
        for key in SCALARS:
            _same(r.values[key][s], ref[key], key)
        # Against the reference of all rows: the slice's loss against the overall prior.
        vs = metrics.classification_report(y[m], p[m], [0, 1], sample_weight=ws,
                                           baseline=dict(enumerate(prior)))
        _same(r.values["brier_skill_vs_all"][s], vs["brier_skill"])
        _same(r.values["log_loss_skill_vs_all"][s], vs["log_loss_skill"])
        # The rest's number, from sums over all rows minus the slice's.
        rest = metrics.classification_report(y[~m], p[~m], [0, 1],
                                             sample_weight=None if w is None else w[~m])
        _same(r.rest[s], rest["brier_skill"])
        _same(r.difference[s], ref["brier_skill"] - rest["brier_skill"])
    whole = metrics.classification_report(y, p, [0, 1], sample_weight=w)
    for key in SCALARS:
        _same(r.overall["values"][key], whole[key], key)


def test_each_slice_equals_metrics_multiclass_strings_and_log_loss_metric():
    rng = np.random.default_rng(1)
    n = 900
    y = np.array(["ant", "bee", "cat"])[rng.integers(0, 3, n)]
    proba = rng.dirichlet([1, 2, 3], n)
    group = rng.choice(["a", "b", "c"], n)
    r = slice_report(y, proba, group, metric="log_loss_skill", n_boot=200, random_state=0)
    assert r.classes.tolist() == ["ant", "bee", "cat"] and r.task == "classification"
    for s, label in enumerate(r.labels):
        m = group == label
        ref = metrics.classification_report(y[m], proba[m], ["ant", "bee", "cat"])
        for key in SCALARS:
            if key != "positives":
                _same(r.values[key][s], ref[key], key)
        _same(r.values["base_rate"][s], ref["base_rate"])
        rest = metrics.classification_report(y[~m], proba[~m], ["ant", "bee", "cat"])
        _same(r.rest[s], rest["log_loss_skill"])
    assert r.values["base_rate"].shape == (3, 3)
    assert {"base_rate[ant]", "base_rate[cat]"} <= set(r.to_frame().columns)


@pytest.mark.parametrize("weighted", [False, True])
def test_each_slice_equals_metrics_regression(weighted):
    rng = np.random.default_rng(2)
    n = 800
    group = rng.choice(["a", "b", "c", "d"], n)
    y = 1e4 + rng.normal(0, 3, n) + (group == "a") * 5  # an offset, and slices' own means
    pred = y + rng.normal(0, 1.5, n)
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    r = slice_report(y, pred, group, sample_weight=w, n_boot=200, random_state=0)
    assert r.task == "regression" and r.metric == "r2"
    mean_all = np.average(y, weights=w)
    for s, label in enumerate(r.labels):
        m = group == label
        ws = None if w is None else w[m]
        ref = metrics.regression_report(y[m], pred[m], sample_weight=ws)
        for key in REGRESSION:
            _same(r.values[key][s], ref[key], key)
        # The skill against the mean of all rows: regression_report with that constant as
        # baseline, its mse_skill (its r2 stays scikit-learn's, against the slice's own mean)
        vs = metrics.regression_report(y[m], pred[m], sample_weight=ws, baseline=[mean_all])
        _same(r.values["r2_vs_all"][s], vs["mse_skill"])
        rest = metrics.regression_report(y[~m], pred[~m], sample_weight=None if w is None else w[~m])
        _same(r.rest[s], rest["r2"])
        # the same against sklearn's r2_score
        _same(r.values["r2"][s], skm.r2_score(y[m], pred[m], sample_weight=ws))


def test_numbers_equal_fairlearn_metricframe():
    from fairlearn import metrics as fairlearn_metrics  # the dev extra's reference
    y, p, region, _ = _binary(n=1200, seed=3)
    r = slice_report(y, p, region, n_boot=200, random_state=0)
    frame = fairlearn_metrics.MetricFrame(
        metrics={"log_loss": skm.log_loss, "roc_auc": skm.roc_auc_score,
                 "brier_score_loss": skm.brier_score_loss, "d2_brier": skm.d2_brier_score,
                 "d2_log_loss": lambda t, q: skm.d2_log_loss_score(t, np.column_stack(
                     [1 - q, q]))},
        y_true=y, y_pred=p, sensitive_features=region).by_group
    ours = r.to_frame()
    for label in r.labels:
        row = frame.loc[label]
        _same(ours.loc[label, "log_loss"], row["log_loss"])
        _same(ours.loc[label, "roc_auc"], row["roc_auc"])
        _same(ours.loc[label, "brier"], 2 * row["brier_score_loss"])  # the K-sum Brier
        _same(ours.loc[label, "brier_skill"], row["d2_brier"])
        _same(ours.loc[label, "log_loss_skill"], row["d2_log_loss"])
    acc = fairlearn_metrics.MetricFrame(metrics=skm.accuracy_score, y_true=y,
                                        y_pred=(p > 0.5).astype(int),
                                        sensitive_features=region).by_group
    _same(ours["accuracy"].to_numpy(), acc.loc[r.labels].to_numpy())
    yr = np.random.default_rng(4).normal(size=y.size)
    pr = yr + np.random.default_rng(5).normal(size=y.size)
    rr = slice_report(yr, pr, region, n_boot=200, random_state=0)
    by = fairlearn_metrics.MetricFrame(metrics={"r2": skm.r2_score,
                                                "mse": skm.mean_squared_error},
                                       y_true=yr, y_pred=pr, sensitive_features=region).by_group
    np.testing.assert_allclose(rr.values["r2"], by.loc[rr.labels, "r2"], rtol=1e-12)
    np.testing.assert_allclose(rr.values["mse"], by.loc[rr.labels, "mse"], rtol=1e-12)


# --------------------------------------------------------------------------- one resample


@pytest.mark.slow
def test_every_slice_and_rest_come_from_one_resample_of_the_rows(intervals_agree):
    # Each slice's interval is the percentile interval of its evaluator over resamples of
    # all rows, and the difference is taken against the rest scored on the same resample:
    # an independent bootstrap of the rows (another seed, numpy's multinomial) agrees within
    # the Monte Carlo error of the ends, whatever order slice_report draws its counts in.
    y, p, region, _ = _binary(n=600, seed=6)
    masks = {"north": region == "north", "east or west": np.isin(region, ["east", "west"])}
    r = slice_report(y, p, masks, n_boot=1000, random_state=7)
    counts = np.random.default_rng(2024).multinomial(y.size, np.full(y.size, 1 / y.size),
                                                      size=2000)
    for s, (label, m) in enumerate(masks.items()):
        ev = metrics.classification_evaluator(y[m], [0, 1], proba=p[m])
        reps = ev.evaluate(counts[:, m], warn=False)
        rest = metrics.classification_evaluator(y[~m], [0, 1], proba=p[~m])
        rest_reps = rest.evaluate(counts[:, ~m], warn=False)
        for key in ("brier_skill", "roc_auc", "log_loss_skill", "accuracy"):
            intervals_agree(r.intervals[key][s],
                            resampling.percentile_interval(reps[key], level=0.95)[0])
        diff = reps["brier_skill"] - rest_reps["brier_skill"]
        intervals_agree(r.diff_interval[s], resampling.percentile_interval(diff, level=0.95)[0])
        # the standard error: the replicates' standard deviation (times sqrt(u / (u - 1)),
        # 1.002 on these slices of hundreds of rows)
        assert r.se[s] == pytest.approx(np.std(diff, ddof=1), rel=0.15)
    # MCB is not resampled: its interval is the calibration test's, not the bootstrap's
    assert "calibration_mcb" not in r.intervals


# --------------------------------------------------------------------------- multiplicity


def _weak_slice_data(n=2000, seed=8, weak="g"):
    rng = np.random.default_rng(seed)
    group = rng.choice(list("abcdefgh"), n)
    x = rng.normal(size=n)
    y = (rng.random(n) < 1 / (1 + np.exp(-2 * x))).astype(int)
    p = 1 / (1 + np.exp(-2 * x))
    p = np.where(group == weak, 1 / (1 + np.exp(-0.3 * x - rng.normal(0, 1.5, n))), p)
    return y, p, group


@pytest.mark.parametrize("adjust, reference", [("holm", "holm"), ("bh", "fdr_bh")])
def test_adjusted_pvalues_are_those_of_statsmodels_over_the_tested_slices(adjust, reference):
    y, p, group = _weak_slice_data()
    group = np.where(np.arange(y.size) < 20, "tiny", group)  # a slice that is not tested
    # A skill against the reference of all rows is tested as printed (one against the slice's
    # own prior is tested with its reference's bias taken out: see debiased_skill's test).
    r = slice_report(y, p, group, metric="brier_skill_vs_all", adjust=adjust, n_boot=300,
                     random_state=0)
    tested = np.isfinite(r.pvalue)
    assert not tested[r.labels.index("tiny")]
    assert r.verdict[r.labels.index("tiny")] == "not tested: 20 rows, fewer than 30"
    # p: two-sided, difference / se against Student's t with the fewest of the slice's rows,
    # its rest's, and their rows of the rarer class, minus 1, degrees of freedom
    labels = np.asarray(group)
    counts = np.array([[np.sum(y[labels == lab] == k) for k in (0, 1)] for lab in r.labels])
    rest = np.array([[np.sum(y[labels != lab] == k) for k in (0, 1)] for lab in r.labels])
    df = np.minimum.reduce([r.n, y.size - r.n, counts.min(axis=1), rest.min(axis=1)])
    df = df[tested] - 1
    _same(r.pvalue[tested], 2 * stats.t.sf(np.abs(r.difference[tested] / r.se[tested]), df))
    expected = multipletests(r.pvalue[tested], alpha=0.05, method=reference)[1]
    _same(r.pvalue_adjusted[tested], expected)
    assert r.verdict[r.labels.index("g")] == "worse than the rest"
    words = {"worse than the rest", "better than the rest", "no detectable difference"}
    assert all(v in words for v, t in zip(r.verdict, tested) if t)
    for s in np.flatnonzero(tested):
        if r.pvalue_adjusted[s] > 0.05:
            assert r.verdict[s] == "no detectable difference"
        else:
            assert r.verdict[s] == ("worse than the rest" if r.difference[s] < 0
                                    else "better than the rest")


@pytest.mark.parametrize("units", [8, 12, 40])
def test_a_means_test_from_its_bootstrap_replicates_is_the_one_sample_t_test(units):
    # The bootstrap variance of a mean of u units is the plug-in one (sum of squares over u);
    # scaled by u / (u - 1), the difference over it against t on u - 1 degrees of freedom
    # is scipy's one-sample t test, which the slices' tests rest on. 200,000 resamples: the
    # replicates' standard deviation within about 0.2% of the ideal bootstrap's.
    from chimeraboost.slices import _compute

    rng = np.random.default_rng(units)
    x = rng.gamma(2.0, size=units)
    mu0 = x.mean() - 3.0 * x.std(ddof=1) / np.sqrt(units)  # t = 3: the tails Holm reads
    reps = x[rng.integers(0, units, (200_000, units))].mean(axis=1)
    _, se, p, _, _ = _compute.tests([x.mean() - mu0], [reps], [True], "holm", 0.05, [units])
    reference = stats.ttest_1samp(x, mu0)
    assert se[0] == pytest.approx(x.std(ddof=1) / np.sqrt(units), rel=0.01)
    assert p[0] == pytest.approx(reference.pvalue, rel=0.03)
    # The replicates' spread alone reads t sqrt(u / (u - 1)): its p is off by more than that.
    plain = 2 * stats.t.sf((x.mean() - mu0) / np.std(reps, ddof=1), units - 1)
    assert abs(plain / reference.pvalue - 1) > 0.06


def test_holm_is_stricter_than_the_unadjusted_tests():
    y, p, group = _weak_slice_data(n=1500, seed=9)
    r = slice_report(y, p, group, n_boot=300, random_state=0)
    tested = np.isfinite(r.pvalue)
    assert np.all(r.pvalue_adjusted[tested] >= r.pvalue[tested])
    assert compare.holm(r.pvalue[tested]).reject.sum() == \
        sum(v != "no detectable difference" for v in np.array(r.verdict)[tested])


def test_min_rows_and_min_events_say_why_a_slice_is_not_tested():
    rng = np.random.default_rng(10)
    n = 400
    group = np.array(["big"] * 300 + ["small"] * 25 + ["rare"] * 75)
    y = (rng.random(n) < 0.4).astype(int)
    y[325:] = 0
    y[325:330] = 1  # 5 positives in "rare"
    p = np.clip(0.4 + 0.3 * (y - 0.4) + rng.normal(0, 0.1, n), 0.01, 0.99)
    r = slice_report(y, p, group, n_boot=200, random_state=0)
    why = dict(zip(r.labels, r.verdict))
    assert why["small"] == "not tested: 25 rows, fewer than 30"
    assert why["rare"] == "not tested: 5 positives, fewer than 10"
    assert np.isnan(r.pvalue[r.labels.index("rare")])
    r = slice_report(y, p, group, min_rows=20, min_events=3, n_boot=200, random_state=0)
    assert not dict(zip(r.labels, r.verdict))["small"].startswith("not tested")
    assert not dict(zip(r.labels, r.verdict))["rare"].startswith("not tested")


def test_a_slice_holding_one_class_gives_nan_skills_and_one_warning_naming_it():
    rng = np.random.default_rng(11)
    group = np.repeat(["a", "b", "c"], 100)
    y = rng.integers(0, 2, 300)
    y[group == "c"] = 1
    p = np.clip(0.5 + 0.2 * (y - 0.5) + rng.normal(0, 0.1, 300), 0.01, 0.99)
    with pytest.warns(DegenerateMetricWarning, match=r"Slice 'c': y holds a single class"):
        r = slice_report(y, p, group, n_boot=200, random_state=0)
    c = r.labels.index("c")
    assert np.isnan(r.values["brier_skill"][c]) and np.isnan(r.values["roc_auc"][c])
    assert r.verdict[c] == "not tested: 0 negatives, fewer than 10"
    assert np.isfinite(r.values["brier_skill_vs_all"][c])  # the overall prior still judges it


# --------------------------------------------------------------------------- ways to slice


def _frame(n=600, seed=12):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "region": pd.Categorical(rng.choice(["west", "east", "north"], n),
                                 categories=["west", "east", "north"]),
        "age": rng.uniform(18, 90, n),
        "member": rng.random(n) < 0.5,
        "plan": pd.array(rng.choice(["basic", "pro"], n), dtype="string"),
        "visits": pd.array(rng.integers(0, 3, n), dtype="Int64"),
    })
    X.loc[rng.random(n) < 0.08, "age"] = np.nan
    X.loc[rng.random(n) < 0.05, "plan"] = pd.NA
    X.loc[rng.random(n) < 0.05, "visits"] = pd.NA
    X.loc[rng.random(n) < 0.05, "region"] = np.nan
    y = (rng.random(n) < 0.4).astype(int)
    p = np.clip(0.4 + 0.3 * (y - 0.4) + rng.normal(0, 0.1, n), 0.01, 0.99)
    return X, y, p


def test_a_numeric_column_is_cut_at_its_quantiles_with_missing_values_a_slice():
    X, y, p = _frame()
    r = slice_report(y, p, "age", X=X, n_boot=200, random_state=0)
    age = X["age"].to_numpy()
    present = ~np.isnan(age)
    edges = np.quantile(age[present], np.linspace(0, 1, 6))
    assert len(r.labels) == 6 and r.labels[-1] == "age missing"
    assert r.labels[0] == f"age in [{edges[0]:.4g}, {edges[1]:.4g})"
    assert r.labels[4].endswith(f"{edges[5]:.4g}]")  # the last range is closed
    _same(r.rows_of("age missing"), np.flatnonzero(~present))
    first = np.flatnonzero(present & (age < edges[1]))
    _same(r.rows_of(r.labels[0]), first)
    assert any(note.startswith("age: numeric, cut at its quantiles into 5 ranges")
               for note in r.notes)
    assert "age: numeric, cut at its quantiles" in str(r)
    # bins=None keeps every value: one slice per distinct age (each one row, one class:
    # NaN skills, said once per class), plus the missing ones
    few = slice(0, 60)
    with pytest.warns(DegenerateMetricWarning, match=r"Slices 'age = .* more: y holds a single"):
        every = slice_report(y[few], p[few], "age", X=X.iloc[few], bins=None, n_boot=200,
                             random_state=0)
    assert len(every.labels) == present[few].sum() + 1


@pytest.mark.parametrize("column, expected", [
    ("region", ["region = west", "region = east", "region = north", "region missing"]),
    ("member", ["member = False", "member = True"]),
    ("plan", ["plan = basic", "plan = pro", "plan missing"]),
    ("visits", ["visits = 0", "visits = 1", "visits = 2", "visits missing"]),
])
def test_category_boolean_string_and_nullable_columns(column, expected):
    X, y, p = _frame()
    r = slice_report(y, p, column, X=X, n_boot=200, random_state=0)
    assert r.labels == expected  # categories in their declared order, missing last
    col = X[column]
    for label in expected:
        rows = r.rows_of(label)
        if label.endswith("missing"):
            _same(rows, np.flatnonzero(col.isna().to_numpy()))
        else:
            value = label.split(" = ")[1]
            text = col.astype("string").to_numpy(dtype=object, na_value=None)
            _same(rows, np.flatnonzero(np.array([t == value for t in text])))


def test_the_same_slices_from_pandas_polars_numpy_labels_and_masks():
    pl = pytest.importorskip("polars")
    X, y, p = _frame()
    X = X.assign(region=X["region"].astype(object).where(X["region"].notna(), "none"))
    base = slice_report(y, p, "region", X=X, n_boot=200, random_state=0)
    labels = X["region"].astype(str).to_numpy()
    polars_X = pl.from_pandas(X[["region", "age"]])
    ways = [
        slice_report(y, p, "region", X=polars_X, n_boot=200, random_state=0),
        slice_report(pl.Series(y), pl.Series(p), pl.Series("region", labels), n_boot=200,
                     random_state=0),
        slice_report(y, p, 0, X=X[["region"]].to_numpy(), n_boot=200, random_state=0),
        slice_report(y, p, {f"region = {v}": labels == v for v in np.unique(labels)},
                     n_boot=200, random_state=0),
    ]
    for other in ways:
        assert sorted(other.labels) == sorted(base.labels) or \
            [lab.split()[-1] for lab in other.labels] == \
            [lab.split()[-1] for lab in base.labels]
        _same(np.sort(other.values["brier_skill"]), np.sort(base.values["brier_skill"]))
        _same(np.sort(other.difference), np.sort(base.difference))


def test_a_list_of_columns_is_crossed_and_a_dataframe_too():
    X, y, p = _frame()
    r = slice_report(y, p, ["member", "plan"], X=X, n_boot=200, random_state=0,
                     min_rows=1, min_events=1)
    assert r.labels[0] == "member = False & plan = basic"
    assert "member = True & plan missing" in r.labels
    assert r.by == "member x plan"
    rows = r.rows_of("member = True & plan = pro")
    want = np.flatnonzero(X["member"].to_numpy() & (X["plan"] == "pro").fillna(False).to_numpy())
    _same(rows, want)
    same = slice_report(y, p, X[["member", "plan"]], n_boot=200, random_state=0,
                        min_rows=1, min_events=1)
    assert same.labels == r.labels
    _same(same.values["brier_skill"], r.values["brier_skill"])


def test_overlapping_masks_each_against_the_rows_outside_it():
    X, y, p = _frame()
    age = X["age"].to_numpy()
    masks = {"young": age < 40, "old": age >= 60, "members": X["member"].to_numpy()}
    r = slice_report(y, p, masks, n_boot=200, random_state=0)
    assert r.labels == ["young", "old", "members"]
    for s, m in enumerate(masks.values()):
        ref = metrics.classification_report(y[~m], p[~m], [0, 1])
        _same(r.rest[s], ref["brier_skill"])


# --------------------------------------------------------------------------- bad input


def test_bad_input_is_refused_with_a_message_naming_it():
    X, y, p = _frame()
    with pytest.raises(ValueError, match=r"by names column 'regoin', which is not in X"):
        slice_report(y, p, "regoin", X=X, n_boot=200)
    with pytest.raises(ValueError, match=r"names a column, but there is no X"):
        slice_report(y, p, "region", n_boot=200)
    with pytest.raises(ValueError, match=r"by\['a'\] has 10 rows but y has 600"):
        slice_report(y, p, {"a": np.ones(10, bool)}, n_boot=200)
    with pytest.raises(TypeError, match=r"by\['a'\] must be a boolean mask"):
        slice_report(y, p, {"a": np.arange(600) % 2}, n_boot=200)
    with pytest.raises(ValueError, match=r"by\['all'\] holds every row"):
        slice_report(y, p, {"all": np.ones(600, bool)}, n_boot=200)
    with pytest.raises(ValueError, match=r"by puts every row in one slice \('x'\)"):
        slice_report(y, p, np.full(600, "x"), n_boot=200)
    with pytest.raises(ValueError, match=r"by has 599 rows|has 599 rows but y has 600"):
        slice_report(y, p, np.zeros(599), n_boot=200)
    with pytest.raises(ValueError, match=r"metric='roc_auc' is not among the metrics taken here \(a "
                                         r"slice is compared with the rest"):
        slice_report(y, p, "member", X=X, metric="roc_auc", n_boot=200)
    with pytest.raises(ValueError, match=r"adjust must be 'holm'"):
        slice_report(y, p, "member", X=X, adjust="bonferroni", n_boot=200)
    with pytest.raises(ValueError, match=r"n_boot=50 is too few"):
        slice_report(y, p, "member", X=X, n_boot=50)


def test_pandas_indexes_that_do_not_line_up_are_refused():
    X, y, p = _frame()
    ys = pd.Series(y, index=np.arange(600) + 1000)
    with pytest.raises(ValueError, match=r"carry different pandas indexes"):
        slice_report(ys, p, X["member"], n_boot=200)
    # the same index (X's own columns): accepted
    slice_report(pd.Series(y, index=X.index), p, "member", X=X, n_boot=200)


# --------------------------------------------------------------------------- output


def test_text_markdown_html_and_frame_show_the_same_cells():
    y, p, region, _ = _binary()
    region = np.where(np.arange(y.size) < 12, "<tiny>", region)
    r = slice_report(y, p, region, n_boot=200, random_state=0)
    text = str(r)
    lines = text.splitlines()
    row = next(line for line in lines if line.startswith("west "))
    cells = re.split(r"\s{2,}", row.strip())
    s = r.labels.index("west")
    assert cells[1] == str(r.n[s])
    assert cells[6] == (f"{r.values['brier_skill'][s]:.3f} "
                        f"[{r.intervals['brier_skill'][s][0]:.3f}, "
                        f"{r.intervals['brier_skill'][s][1]:.3f}]")
    assert "not tested: 12 rows, fewer than 30" in text
    # The header (wrapped at 120 characters), a blank line, then the table.
    start = lines.index("") + 1
    assert lines[start].startswith("slice") and lines[start + 1].startswith("all rows")
    assert all(len(line) <= 120 for line in lines)
    md = r.to_markdown()
    assert "| <tiny> |" in md and "| --- | ---: |" in md
    html = r._repr_html_()
    assert "&lt;tiny&gt;" in html and "<tiny>" not in html
    frame = r.to_frame()
    assert frame.index.name == "slice" and list(frame.index) == r.labels
    for column in ("n", "base_rate", "brier_skill", "brier_skill_low", "log_loss_skill",
                   "calibration_mcb", "roc_auc", "roc_auc_high", "brier_skill_vs_all",
                   "brier_skill_rest", "difference", "pvalue_adjusted", "verdict"):
        assert column in frame.columns, column
    assert frame.loc["west", "verdict"] == r.verdict[s]
    d = r.to_dict()
    assert d["slices"]["west"]["verdict"] == r.verdict[s]


def test_baseline_gives_the_paired_difference_per_slice():
    y, p, region, rng = _binary(n=1200, seed=13)
    old = np.clip(p + rng.normal(0, 0.15, y.size), 0.01, 0.99)
    r = slice_report(y, p, region, baseline=old, n_boot=300, random_state=0,
                     name="new", baseline_name="old")
    vb = r.vs_baseline
    for s, label in enumerate(r.labels):
        m = region == label
        new_skill = metrics.brier_skill(y[m], p[m], classes=[0, 1])
        old_skill = metrics.brier_skill(y[m], old[m], classes=[0, 1])
        _same(vb["baseline"][s], old_skill)
        _same(vb["difference"][s], new_skill - old_skill)
        assert vb["interval"][s][0] <= vb["difference"][s] <= vb["interval"][s][1]
    assert set(vb["verdict"]) <= {"model better", "baseline better", "no detectable difference"}
    assert "new against old in each slice" in str(r)
    assert {"vs_baseline", "vs_baseline_verdict"} <= set(r.to_frame().columns)


def test_rules_and_ranking_models_are_sliced_on_balanced_accuracy():
    """A rule's slices are compared on balanced accuracy, the headline of a 0/1 rule (the
    base rates differ by region); the rest's, from sums over rows, is sklearn's too."""
    y, p, region, _ = _binary()
    rule = (p > 0.5).astype(int)
    r = slice_report(y, rule, region, task="rule", classes=[0, 1], n_boot=200,
                     random_state=0)
    assert r.metric == "balanced_accuracy" and np.all(np.isnan(r.values["brier"]))
    for s, label in enumerate(r.labels):
        m = region == label
        _same(r.values["accuracy"][s], skm.accuracy_score(y[m], rule[m]))
        _same(r.values["balanced_accuracy"][s], skm.balanced_accuracy_score(y[m], rule[m]))
        _same(r.rest[s], skm.balanced_accuracy_score(y[~m], rule[~m]))
    r_acc = slice_report(y, rule, region, task="rule", classes=[0, 1], n_boot=200,
                         random_state=0, metric="accuracy")
    for s, label in enumerate(r.labels):
        _same(r_acc.rest[s], skm.accuracy_score(y[region != label], rule[region != label]))
    score = np.log(p / (1 - p))
    r = slice_report(y, score, region, task="ranking", classes=[0, 1], y_pred=rule,
                     n_boot=200, random_state=0)
    for s, label in enumerate(r.labels):
        m = region == label
        _same(r.values["roc_auc"][s], skm.roc_auc_score(y[m], score[m]))
    assert "ROC AUC [95%]" in str(r)


def test_plot_draws_each_slice_and_the_value_on_all_rows():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    y, p, group = _weak_slice_data(n=1000)
    r = slice_report(y, p, group, n_boot=200, random_state=0)
    ax = r.plot()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [f"{lab} (n={n:,})" for lab, n in zip(r.labels, r.n)]
    line = [ln for ln in ax.lines if ln.get_linestyle() == "--"][0]
    _same(line.get_xdata()[0], r.overall["values"]["brier_skill"])
    xs = np.concatenate([c.lines[0].get_xdata() for c in ax.containers])
    _same(np.sort(xs), np.sort(r.values["brier_skill"]))
    with pytest.raises(ValueError, match="no per-slice intervals"):
        r.plot(metric="nonsense")
    matplotlib.pyplot.close("all")


def test_plot_of_a_report_without_intervals_draws_the_numbers_alone():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    y, p, group = _weak_slice_data(n=1000)
    r = slice_report(y, p, group, ci=None)
    assert r.intervals == {}
    ax = r.plot(metric="log_loss")
    xs = np.concatenate([c.lines[0].get_xdata() for c in ax.containers])
    _same(np.sort(xs), np.sort(r.values["log_loss"]))
    for c in ax.containers:  # no error bar has a length
        for bar in c.lines[2]:
            segs = bar.get_segments()
            assert all(np.allclose(seg[0], seg[1]) for seg in segs)
    assert "no intervals" in ax.get_xlabel()
    matplotlib.pyplot.close("all")


def test_no_warning_but_the_few_resamples_one_on_clean_input():
    y, p, region, _ = _binary()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", FewResamplesWarning)
        slice_report(y, p, region, n_boot=200, random_state=0)


@pytest.mark.slow
def test_mcb_per_slice_carries_the_calibration_test_of_its_rows():
    # Each slice's calibration numbers are metrics.calibration_test's on the slice's rows:
    # an independent run (its own seed) agrees within the Monte Carlo error of 500 draws,
    # whatever order slice_report draws in; the in-sample MCB is exact.
    y, p, region, _ = _binary(n=600, seed=15)
    r = slice_report(y, p, region, n_boot=500, random_state=3)
    for s, label in enumerate(r.labels):
        m = region == label
        test = metrics.calibration_test(y[m], p[m], [0, 1], n_boot=500, random_state=99)
        _same(r.values["calibration_mcb"][s], test.statistic)
        floor = r.values["calibration_noise_floor"][s]
        assert floor == pytest.approx(test.noise_floor, rel=0.1)
        assert r.values["calibration_pvalue"][s] == pytest.approx(test.pvalue, abs=0.1)
        assert r.values["calibration_excess"][s] == pytest.approx(test.excess, abs=0.2 * floor)
        low, high = r.intervals["calibration_excess"][s]
        assert low <= r.values["calibration_excess"][s] <= high
        assert high == pytest.approx(test.confidence_interval(level=0.95)[1], rel=0.25)
    west = r.labels.index("west")
    text = str(r)
    assert f"(p {r.values['calibration_pvalue'][west]:.4f})" in text and "excess (p)" in text
    assert {"calibration_excess", "calibration_excess_low", "calibration_pvalue"} <= \
        set(r.to_frame().columns)


def test_slices_compared_with_the_rest_on_the_skill_against_all_rows():
    # metric="brier_skill_vs_all": slice and rest each against the prior of all rows.
    y, p, region, rng = _binary(seed=14)
    w = rng.uniform(0.5, 2.0, y.size)
    r = slice_report(y, p, region, sample_weight=w, metric="brier_skill_vs_all", n_boot=200,
                     random_state=0)
    prior = dict(enumerate(np.bincount(y, weights=w) / w.sum()))
    for s, label in enumerate(r.labels):
        m = region == label
        rest = metrics.classification_report(y[~m], p[~m], [0, 1], sample_weight=w[~m],
                                             baseline=prior)
        _same(r.rest[s], rest["brier_skill"])
        _same(r.difference[s], r.values["brier_skill_vs_all"][s] - rest["brier_skill"])
    assert "Brier skill vs all, slice minus rest" in str(r)


def test_an_empty_mask_is_shown_with_nan_and_one_warning():
    y, p, region, rng = _binary(n=400, seed=16)
    masks = {"nobody": np.zeros(y.size, bool), "north": region == "north"}
    with pytest.warns(DegenerateMetricWarning, match=r"Slice 'nobody': no rows"):
        r = slice_report(y, p, masks, baseline=np.clip(p + 0.05, 0, 1), n_boot=200,
                         random_state=0)
    assert r.n.tolist() == [0, (region == "north").sum()]
    assert np.isnan(r.values["brier_skill"][0]) and r.verdict[0] == "not tested: no rows"
    assert r.vs_baseline["verdict"][0] == "not tested: no rows"
    assert np.isfinite(r.vs_baseline["difference"][1])
    assert "Holm over 1 tested slice at" in str(r)
