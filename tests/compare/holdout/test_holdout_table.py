"""compare.holdout_table: every row on the same rows and resamples, numbers equal to
report's, arrays read by the documented rule, notes from the facts."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.svm import LinearSVC
from sklearn.metrics import accuracy_score, d2_brier_score, roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import chimeraboost as cb
from chimeraboost import baselines, compare, metrics
from chimeraboost.exceptions import DegenerateMetricWarning, FewResamplesWarning

B = 1000  # the fewest resamples that warn about nothing


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.4, stratify=y, random_state=0)
    models = baselines.ladder(X_tr, y_tr, random_state=0)
    models["ChimeraBoost"] = cb.ChimeraBoostClassifier(
        quality=1, max_iter=20, n_threads=1, random_state=0).fit(X_tr, y_tr)
    rule = (X_te["worst concave points"] > 0.14).to_numpy()  # flags malignant (class 0)
    rule = (~rule).astype(int)  # 1 flags class 1 (benign): the rule's "positive"
    return X_tr, X_te, y_tr, y_te, models, rule


@pytest.fixture(scope="module")
def ladder_table(cancer):
    X_tr, X_te, y_tr, y_te, models, rule = cancer
    return compare.holdout_table({"rule": rule, **models}, X_te, y_te, baseline_name="prior",
                                 split="test", n_boot=B, random_state=0)


def test_rows_equal_report_to_1e12(cancer, ladder_table):
    X_tr, X_te, y_tr, y_te, models, rule = cancer
    t = ladder_table
    assert list(t.rows) == ["rule", "prior", *list(models)[1:]]
    for name, est in models.items():
        r = cb.report(est, X_te, y_te)
        for key in t.metrics:
            assert t.rows[name][key] == pytest.approx(r[key], abs=1e-12, rel=0), (name, key)
    flag = metrics.ranking_report(y_te, rule.astype(float), [0, 1], y_pred=rule)
    assert t.rows["rule"]["roc_auc"] == pytest.approx(roc_auc_score(y_te, rule), abs=1e-12)
    assert t.rows["rule"]["pr_auc"] == pytest.approx(flag["pr_auc"], abs=1e-12)
    assert np.isnan(t.rows["rule"]["log_loss"]) and t.rows["rule"]["kind"] == "rule"


def test_prior_row_is_the_floor_with_sklearns_d2_brier(cancer, ladder_table):
    X_tr, X_te, y_tr, y_te, models, _ = cancer
    row = ladder_table.rows["prior"]
    prior = np.full(len(y_te), y_tr.mean())
    # The training prior scored against the test rows' own prior: sklearn's d2 Brier score.
    assert row["brier_skill"] == pytest.approx(d2_brier_score(y_te, prior), abs=1e-12)
    assert row["notes"].startswith("floor") and np.isnan(row["difference"])
    assert ladder_table.rows["rule"]["notes"] == "0/1 rule: log loss, Brier skill n/a"


def test_default_primary_is_roc_auc_when_a_row_has_no_probabilities(ladder_table):
    t = ladder_table
    assert t.primary == "roc_auc"
    for name, r in t.rows.items():
        if name == "prior":
            continue
        assert r["difference"] == pytest.approx(r["roc_auc"] - t.rows["prior"]["roc_auc"],
                                                abs=1e-12)
        assert r["beats_baseline"] == (r["diff_low"] > 0)
    assert t.rows["linear"]["beats_baseline"] and "worse than rule" in t.rows["prior"]["notes"]


def test_every_row_uses_the_same_resamples():
    X, y = load_breast_cancer(return_X_y=True)
    model = LogisticRegression(max_iter=5000).fit(X[:300], y[:300])
    p = model.predict_proba(X[300:])[:, 1]
    t = compare.holdout_table(
        {"model": model, "its probabilities": p, "its scores": 3 * p + 5,
         "its log-odds rule": (p > 0.5).astype(int), "the same rule": (p > 0.5)},
        X[300:], y[300:], baseline_name="its log-odds rule", primary="roc_auc", n_boot=B,
        random_state=1)
    rows = t.rows
    for key in t.metrics:
        for stat in ("", "_low", "_high"):
            assert rows["model"][key + stat] == rows["its probabilities"][key + stat]
    # Scores (another resampling group: no probabilities) rank exactly as the
    # probabilities: same ROC AUC in every resample, hence the same interval.
    assert (rows["its scores"]["roc_auc_low"], rows["its scores"]["roc_auc_high"]) == (
        rows["model"]["roc_auc_low"], rows["model"]["roc_auc_high"])
    same = rows["the same rule"]
    assert same["difference"] == same["diff_low"] == same["diff_high"] == 0.0
    assert rows["its scores"]["kind"] == "scores" and same["kind"] == "rule"


def test_worse_than_an_earlier_row_and_min_lift():
    X, y = load_breast_cancer(return_X_y=True)
    good = LogisticRegression(max_iter=5000).fit(X[:300], y[:300]).predict_proba(X[300:])
    blurred = 0.6 * good + 0.4 * 0.5  # same ranking, much worse Brier score
    t = compare.holdout_table({"good": good, "blurred": blurred}, X[300:], y[300:],
                              n_boot=B, random_state=0)
    assert t.primary == "brier_skill"
    assert t.rows["blurred"]["notes"] == "worse than good"
    assert t.rows["blurred"]["diff_high"] < 0 and not t.rows["blurred"]["beats_baseline"]
    lifted = compare.holdout_table({"blurred": blurred, "good": good}, X[300:], y[300:],
                                   n_boot=B, random_state=0, rope=0.0)
    assert lifted.rows["good"]["beats_baseline"]
    lo = lifted.rows["good"]["diff_low"]
    high_bar = compare.holdout_table({"blurred": blurred, "good": good}, X[300:], y[300:],
                                     n_boot=B, random_state=0, rope=lo + 1e-9)
    assert not high_bar.rows["good"]["beats_baseline"]


def test_recall_at_k_and_precision_at_a_percentage(cancer):
    X_tr, X_te, y_tr, y_te, models, rule = cancer
    p = models["linear"].predict_proba(X_te)[:, 1]
    t = compare.holdout_table({"rule": rule, "linear": models["linear"]}, X_te, y_te,
                              primary="recall@40", metrics=["precision@40", "roc_auc"],
                              n_boot=B, random_state=0)
    assert t.metrics == ["recall_at_k", "precision_at_k", "roc_auc"]  # the primary first
    assert t.rows["linear"]["recall_at_k"] == pytest.approx(
        metrics.recall_at_k(y_te, p, 40), abs=1e-12)
    # The rule's 0/1 flag ranks with ties shared: recall@40 of 40 random flagged rows.
    assert t.rows["rule"]["recall_at_k"] == pytest.approx(
        metrics.recall_at_k(y_te, rule, 40), abs=1e-12)
    assert "recall@40 vs rule" in t.to_text(width=None)
    pct = compare.holdout_table({"linear": models["linear"]}, X_te, y_te,
                                primary="precision@5%", n_boot=B, random_state=0)
    assert pct.rows["linear"]["precision_at_k"] == pytest.approx(
        metrics.precision_at_k(y_te, p, 0.05), abs=1e-12)


def test_text_markdown_html_and_frame(ladder_table):
    t = ladder_table
    text = str(t)
    lines = text.splitlines()
    assert lines[0].startswith("test holdout: 228 rows, 143 positives (base rate 0.627)")
    header = next(i for i, line in enumerate(lines) if line.startswith("model  "))
    width = len(re.split(r"\s{2,}", lines[header].strip()))
    body = lines[header + 1:header + 1 + len(t.rows)]
    assert all(len(re.split(r"\s{2,}", line.strip())) == width for line in body)
    # The primary metric first, then its paired difference and the decision, then the
    # other metrics (a rule has no log loss or Brier skill).
    assert re.split(r"\s{2,}", lines[header]) == ["model", "roc_auc", "vs baseline", "beats",
                                                  "log_loss", "brier_skill", "pr_auc"]
    assert re.search(r"\n  rule +0\.\d{3} \[0\.\d{3}, 0\.\d{3}\] +[+-]0\.\d{3} \[.*\] +yes +n/a +n/a ",
                     "\n  " + "\n  ".join(lines))
    md = t.to_markdown().splitlines()
    assert md[2].startswith("| model | roc_auc | roc_auc vs prior | 95% low | high | beats | "
                            "log_loss |") and md[3].startswith("| --- | ---: | ---: |")
    assert "<table>" in t._repr_html_() and "0/1 rule" in t._repr_html_()
    frame = t.to_frame()
    assert list(frame.index) == list(t.rows)
    assert {"roc_auc", "roc_auc_low", "difference", "beats_baseline", "notes"} <= set(frame)
    assert frame.loc["linear", "roc_auc"] == t.rows["linear"]["roc_auc"]


def test_summary_sentence(ladder_table):
    t = ladder_table
    # One sentence per model, each on lines of at most 120 characters (the next ones indented).
    assert all(len(line) <= 120 for line in t.summary().splitlines())
    lines = t.summary().replace("\n  ", " ").splitlines()
    assert len(lines) == len(t.rows) - 1
    r, base = t.rows["linear"], t.rows["prior"]
    expected = (
        f"On the test holdout (228 rows, 143 positives) linear reaches roc_auc "
        f"{r['roc_auc']:.4f} (95% CI {r['roc_auc_low']:.4f}-{r['roc_auc_high']:.4f}) vs "
        f"{base['roc_auc']:.4f} for prior; the paired difference is {r['difference']:+.4f} "
        f"(CI {r['diff_low']:+.4f} to {r['diff_high']:+.4f})."
    )
    assert expected in lines


def test_regression_table_has_no_positives():
    X, y = load_diabetes(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.4, random_state=0)
    ridge = Ridge().fit(X_tr, y_tr)
    models = {"mean": DummyRegressor().fit(X_tr, y_tr), "ridge": ridge,
              "ridge's numbers": ridge.predict(X_te)}
    t = compare.holdout_table(models, X_te, y_te, n_boot=B, random_state=0)
    assert t.primary == "r2" and t.metrics == ["r2", "rmse", "mae"]
    assert t.rows["ridge"]["r2"] == pytest.approx(cb.report(ridge, X_te, y_te)["r2"],
                                                  abs=1e-12)
    assert t.rows["ridge's numbers"]["r2_low"] == t.rows["ridge"]["r2_low"]
    assert t.rows["mean"]["notes"] == "floor" and t.rows["ridge"]["beats_baseline"]
    assert "positives" not in t.header() and "positives" not in t.summary()
    assert t.summary().startswith("On the holdout (177 rows) ridge reaches r2 ")


def test_multiclass_string_labels_pandas_and_weights():
    X, y = load_iris(return_X_y=True, as_frame=True)
    y = y.map({0: "setosa", 1: "versicolor", 2: "virginica"})
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    prior = DummyClassifier().fit(X_tr, y_tr)
    logreg = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
    w = np.linspace(0.5, 2.0, len(y_te))
    t = compare.holdout_table({"prior": prior, "logreg": logreg}, X_te, y_te,
                              sample_weight=w, n_boot=B, random_state=0)
    r = cb.report(logreg, X_te, y_te, sample_weight=w)
    for key in t.metrics:
        assert t.rows["logreg"][key] == pytest.approx(r[key], abs=1e-12)
    assert t.metrics == ["brier_skill", "log_loss", "roc_auc", "accuracy"]
    assert t.positives is None and "positives" not in str(t)
    with pytest.raises(ValueError, match="recall@k and precision@k need a binary problem"):
        compare.holdout_table({"logreg": logreg}, X_te, y_te, primary="recall@10")
    # Probabilities as an array: columns in the order of the first model's classes_.
    t2 = compare.holdout_table({"prior": prior, "as array": logreg.predict_proba(X_te)},
                               X_te, y_te, sample_weight=w, n_boot=B, random_state=0)
    assert t2.rows["as array"]["brier_skill"] == pytest.approx(r["brier_skill"], abs=1e-12)


def test_single_class_y_gives_nan_and_a_warning(cancer):
    X_tr, X_te, y_tr, y_te, models, _ = cancer
    ones = y_te.to_numpy() == 1
    with pytest.warns(DegenerateMetricWarning, match="single class"):
        t = compare.holdout_table({"prior": models["prior"], "linear": models["linear"]},
                                  X_te[ones], y_te[ones], n_boot=B, random_state=0)
    assert np.isnan(t.rows["linear"]["brier_skill"])
    assert np.isnan(t.rows["linear"]["difference"]) and not t.rows["linear"]["beats_baseline"]
    assert "n/a" in str(t)


def test_resample_counts_are_checked(cancer):
    X_tr, X_te, y_tr, y_te, models, rule = cancer
    two = {"prior": models["prior"], "linear": models["linear"]}
    with pytest.raises(ValueError, match="n_boot=100 is too few"):
        compare.holdout_table(two, X_te, y_te, n_boot=100)
    with pytest.warns(FewResamplesWarning) as caught:
        compare.holdout_table({"rule": rule, **two}, X_te, y_te, n_boot=500, random_state=0)
    assert len(caught) == 1  # once, although rules and models are resampled apart


@pytest.mark.parametrize(("change", "error", "match"), [
    ({"models": []}, TypeError, "models must be a dict"),
    ({"models": {}}, ValueError, "models is empty"),
    ({"baseline_name": "nope"}, ValueError, "baseline_name='nope' is not one of the models"),
    ({"primary": "accuracy_of_the_moon"}, ValueError, "primary='accuracy_of_the_moon' is not"),
    ({"primary": "base_rate"}, ValueError, "primary='base_rate' is not a metric of this "),
    ({"primary": "r2"}, ValueError, r"primary='r2' is not a metric of this table's rows \(binary\)"),
    ({"primary": "recall_at_k"}, ValueError, r"primary='recall_at_k' needs its cutoff: write "
                                             r"recall@400 \(the top 400 rows\)"),
    ({"metrics": ["recall@4", "precision@5"]}, ValueError, "one k for recall@k"),
    ({"primary": "recall@0"}, ValueError, "whole number >= 1"),
    ({"primary": "net_benefit@1.5"}, ValueError, r"primary='net_benefit@1.5': the threshold "
                                                 r"after '@' must be a number strictly inside"),
    ({"metrics": ["sensitivity@abc"]}, ValueError, r"metrics='sensitivity@abc': the threshold"),
    ({"models": {"short": np.ones(10)}}, ValueError, r"models\['short'\] is an array of shape"),
    ({"models": {"text": np.array(["a"] * 228)}}, TypeError, r"models\['text'\] holds"),
    ({"models": {"m": DummyRegressor().fit([[0.0]] * 30, range(30))}}, ValueError,
     "not fitted|features|columns"),
    ({"rope": -1.0}, ValueError, "rope"),
    ({"split": 3}, TypeError, "split must be"),
])
def test_bad_arguments_name_themselves(cancer, change, error, match):
    X_tr, X_te, y_tr, y_te, models, _ = cancer
    kwargs = {"models": {"prior": models["prior"], "linear": models["linear"]},
              "n_boot": B, "random_state": 0, **change}
    with pytest.raises(error, match=match):
        compare.holdout_table(kwargs.pop("models"), X_te, y_te, **kwargs)


def test_classifiers_and_regressors_are_not_mixed(cancer):
    X_tr, X_te, y_tr, y_te, models, _ = cancer
    reg = DummyRegressor().fit(X_tr, y_tr)
    with pytest.raises(ValueError, match="models mix tasks"):
        compare.holdout_table({"prior": models["prior"], "reg": reg}, X_te, y_te)


def test_joint_bootstrap_of_two_is_the_paired_bootstrap():
    from chimeraboost import resampling

    X, y = load_breast_cancer(return_X_y=True)
    a = LogisticRegression(max_iter=5000).fit(X[:300], y[:300]).predict_proba(X[300:])
    b = np.full_like(a, 0.5)
    ev = [metrics.classification_evaluator(y[300:], [0, 1], proba=p) for p in (a, b)]
    joint = resampling.joint_bootstrap(ev, n_boot=B, random_state=4, metrics=["brier_skill"])
    paired = resampling.paired_bootstrap(*ev, n_boot=B, random_state=4, metrics=["brier_skill"])
    np.testing.assert_array_equal(joint[0].replicates["brier_skill"] -
                                  joint[1].replicates["brier_skill"],
                                  paired.replicates["brier_skill"])
    with pytest.raises(ValueError, match="evaluators is empty"):
        resampling.joint_bootstrap([], n_boot=B)


@pytest.mark.slow
def test_docs_recipe_shows_real_output():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "compare.md").read_text()
    recipe = doc.split("## Recipe 4")[1]
    code = re.search(r"```python\n(.*?)\n```", recipe, flags=re.S).group(1)
    shown = re.search(r"```text\n(.*?)\n```", recipe, flags=re.S).group(1)
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})  # noqa: S102 - the documentation's own example
    assert out.getvalue().strip() == shown.strip()


def test_quantile_regressors_and_mixing_refused():
    X, y = load_diabetes(return_X_y=True)
    fit = {m: cb.ChimeraBoostQuantileRegressor(quality=1, max_iter=m, n_threads=1,
                                               random_state=0).fit(X[:300], y[:300])
           for m in (3, 20)}
    t = compare.holdout_table({"3 trees": fit[3], "20 trees": fit[20]}, X[300:], y[300:],
                              n_boot=B, random_state=0)
    r = cb.report(fit[20], X[300:], y[300:])
    assert t.primary == "crps_skill"
    assert t.rows["20 trees"]["crps_skill"] == pytest.approx(r["crps_skill"], abs=1e-12)
    assert "CRPS skill against the constant quantiles" in t.to_text(width=None)
    with pytest.raises(ValueError, match="models mix quantile regressors with point"):
        compare.holdout_table({"q": fit[3], "ridge": Ridge().fit(X[:300], y[:300])},
                              X[300:], y[300:], n_boot=B)


def test_arrays_only_with_string_labels_read_by_the_documented_rule():
    X, y = load_breast_cancer(return_X_y=True)
    labels = np.where(y == 1, "benign", "malignant")  # sorted: "malignant" is the second
    flags = X[:, 27] > 0.14  # bool: a rule; True flags "malignant"
    odds = 40 * (X[:, 27] - 0.14)  # not in [0, 1]: scores
    t = compare.holdout_table({"rule": flags, "scores": odds}, X, labels, n_boot=B,
                              random_state=0)
    assert [r["kind"] for r in t.rows.values()] == ["rule", "scores"]
    assert t.rows["rule"]["roc_auc"] == pytest.approx(
        roc_auc_score(labels == "malignant", flags), abs=1e-12)
    assert t.rows["scores"]["notes"] == "scores only: log loss, Brier skill n/a"
    assert t.positives == np.sum(labels == "malignant")


def test_a_series_in_models_must_share_ys_index(cancer):
    X_tr, X_te, y_tr, y_te, models, rule = cancer
    same = pd.Series(rule, index=y_te.index)
    t = compare.holdout_table({"rule": same, "linear": models["linear"]}, X_te, y_te,
                              n_boot=B, random_state=0)
    assert t.rows["rule"]["kind"] == "rule"
    shuffled = same.sample(frac=1.0, random_state=0)
    with pytest.raises(ValueError, match=r"y and models\['rule'\] carry different pandas"):
        compare.holdout_table({"rule": shuffled, "linear": models["linear"]}, X_te, y_te,
                              n_boot=B, random_state=0)


# --- hostile input, one test per class ---------------------------------------------------

_RNG = np.random.default_rng(0)
_X = _RNG.normal(size=(200, 2))
_Y = (_X[:, 0] + _RNG.normal(size=200) > 0).astype(int)
_P = 1 / (1 + np.exp(-_X[:, 0]))


def _table(models, y=_Y, **kwargs):
    return compare.holdout_table(models, _X, y, n_boot=B, random_state=0, **kwargs)


@pytest.mark.parametrize("value, error, match", [
    (None, TypeError, r"models\['p'\] is None"),
    (0.5, TypeError, r"models\['p'\] must be array-like"),
    ({0.1, 0.2}, TypeError, r"models\['p'\] must be an ordered array-like"),
    ((v for v in _P), TypeError, r"models\['p'\] is a generator"),
])
def test_non_array_values_in_models_are_refused_by_name(value, error, match):
    with pytest.raises(error, match=match):
        _table({"p": value})


def test_sparse_array_in_models_is_refused_by_name():
    import scipy.sparse as sp
    with pytest.raises(TypeError, match=r"models\['p'\] is a sparse"):
        _table({"p": sp.csr_matrix(np.c_[1 - _P, _P])})


def test_two_columns_not_summing_to_one_are_not_read_as_scores():
    with pytest.raises(ValueError, match=r"models\['p'\] has 2 columns in \[0, 1\] whose rows sum "
                                         "to 0.9..0.9, not 1"):
        _table({"p": np.c_[1 - _P, _P] * 0.9})
    with pytest.raises(ValueError, match=r"models\['p'\] has 3 columns but y has 2 classes \[0, 1\]"):
        _table({"p": np.c_[1 - _P, _P, 0 * _P]})


def test_missing_labels_are_refused_even_as_pandas_na_strings():
    y = pd.Series(np.where(_Y == 1, "b", "a"), dtype="string")
    y[3] = pd.NA
    with pytest.raises(ValueError, match="y contains 1 missing value"):
        _table({"p": _P}, y=y)


def test_regression_array_with_nan_names_its_row():
    with pytest.raises(ValueError, match=r"models\['a'\] contains 1 NaN"):
        _table({"a": np.r_[np.nan, _X[1:, 0]]}, y=_X[:, 1])


def test_unordered_metrics_and_unhashable_baseline_are_refused():
    with pytest.raises(TypeError, match="metrics must be a metric name or a list"):
        _table({"p": _P}, metrics={"roc_auc", "log_loss"})
    with pytest.raises(TypeError, match="metrics must be a metric name or a list"):
        _table({"p": _P}, metrics=(m for m in ["roc_auc"]))
    with pytest.raises(TypeError, match="baseline_name must be the name"):
        _table({"p": _P}, baseline_name=["p"])


def test_cutoff_beyond_the_rows_names_the_metric():
    with pytest.raises(ValueError, match=r"primary='recall@1000': k=1000 rows is outside 1..200"):
        _table({"p": _P}, primary="recall@1000")


def test_regressors_scored_against_string_labels_are_refused():
    with pytest.raises(TypeError, match="y holds labels .* but the models are regressors"):
        _table({"r": Ridge().fit(_X, _Y)}, y=_Y.astype(str))


def test_probability_frame_columns_are_matched_to_classes_by_label():
    proba = np.c_[1 - _P, _P]
    by_position = _table({"p": proba}).rows["p"]["log_loss"]
    swapped = pd.DataFrame(proba[:, ::-1], columns=[1, 0])
    assert _table({"p": swapped}).rows["p"]["log_loss"] == pytest.approx(by_position, abs=1e-12)
    with pytest.raises(ValueError, match=r"models\['p'\] is a DataFrame whose columns \['p0', 'p1'\]"):
        _table({"p": pd.DataFrame(proba, columns=["p0", "p1"])})


def test_a_models_own_complaint_about_X_names_the_model():
    model = LogisticRegression().fit(_X, _Y)
    with pytest.raises(ValueError, match=r"models\['m'\] \(LogisticRegression\) could not predict "
                                         "on X: Input X contains NaN"):
        compare.holdout_table({"m": model}, np.r_[[[np.nan, 0.0]], _X[1:]], _Y, n_boot=B)


def test_date_targets_are_refused():
    with pytest.raises(TypeError, match="y holds datetime64"):
        _table({"p": _P}, y=pd.date_range("2020-01-01", periods=len(_Y)).to_numpy())


def test_models_predicting_other_classes_are_named():
    binary = LogisticRegression().fit(_X, _Y)
    strings = LogisticRegression().fit(_X, np.where(_Y == 1, "b", "a"))
    with pytest.raises(ValueError, match=r"models\['s'\] predicts classes \['a', 'b'\] but the "
                                         r"table's classes are \[0, 1\]"):
        _table({"m": binary, "s": strings})


def test_ci_method_reads_every_interval_off_the_same_resamples(cancer, intervals_agree):
    from chimeraboost import resampling

    X_tr, X_te, y_tr, y_te, models, rule = cancer
    two = {"prior": models["prior"], "linear": models["linear"]}
    pct = compare.holdout_table(two, X_te, y_te, n_boot=B, random_state=0,
                                ci_method="percentile")
    bca = compare.holdout_table(two, X_te, y_te, n_boot=B, random_state=0, ci_method="bca")
    assert pct.ci_method == "percentile" and bca.ci_method == "bca"
    assert "(percentile)" in str(pct) and "(BCa)" in str(bca)
    # Each row's interval and the paired difference's are resampling.bootstrap_interval's by
    # that method, on a joint bootstrap of both rows: an independent one (another seed)
    # agrees within the Monte Carlo error of the ends, whatever order the table draws in.
    lin = metrics.classification_evaluator(y_te, [0, 1],
                                           proba=models["linear"].predict_proba(X_te))
    pri = metrics.classification_evaluator(y_te, [0, 1],
                                           proba=models["prior"].predict_proba(X_te))
    boots = resampling.joint_bootstrap([pri, lin], n_boot=4000, random_state=12345,
                                       metrics=["brier_skill", "roc_auc", "log_loss", "pr_auc"])
    for table, method in ((pct, "percentile"), (bca, "bca")):
        got = table.rows["linear"]
        intervals_agree((got["roc_auc_low"], got["roc_auc_high"]),
               boots[1].interval("roc_auc", method=method))
        d = resampling.PairedBootstrapResult(boots[1], boots[0]).difference(
            "brier_skill", method=method)
        assert got["difference"] == pytest.approx(d[0], abs=1e-12)  # the point: exact
        intervals_agree((got["diff_low"], got["diff_high"]), d[1:])
    again = compare.holdout_table(two, X_te, y_te, n_boot=B, random_state=0,
                                  ci_method="percentile")
    assert again.to_dict() == pct.to_dict()  # one seed, one table
    with pytest.raises(ValueError, match="ci_method must be one of"):
        compare.holdout_table(two, X_te, y_te, n_boot=B, ci_method="normal")


@pytest.mark.parametrize(("split", "header", "sentence"), [
    ("30% holdout", "30% holdout: 228 rows", "On the 30% holdout (228 rows"),
    ("Holdout B", "Holdout B: 228 rows", "On the Holdout B (228 rows"),
    ("the held-out rows", "the held-out rows: 228 rows", "On the held-out rows (228 rows"),
    ("2024-Q4", "2024-Q4 holdout: 228 rows", "On the 2024-Q4 holdout (228 rows"),
    (None, "holdout: 228 rows", "On the holdout (228 rows"),
])
def test_a_split_that_names_the_rows_is_not_named_twice(cancer, split, header, sentence):
    X_tr, X_te, y_tr, y_te, models, _ = cancer
    t = compare.holdout_table({"prior": models["prior"], "linear": models["linear"]}, X_te, y_te,
                              split=split, n_boot=B, random_state=0)
    texts = [str(t), t.to_text(width=None), t.to_markdown(), t._repr_html_(), t.summary()]
    assert not any(re.search(r"(?i)holdout\s+holdout", text) for text in texts)
    assert t.header().startswith(header) and t.summary().startswith(sentence)


def test_near_zero_numbers_print_in_their_columns_format(ladder_table):
    t = ladder_table
    # The prior's Brier skill on rows whose base rate differs a little from the training
    # rows': a tiny negative number, and the upper end of its interval too.
    row = t.rows["prior"]
    assert -1e-3 < row["brier_skill"] < 0 and -1e-3 < row["brier_skill_high"] <= 0
    for text in (str(t), t.to_text(width=None), t.to_markdown(), t._repr_html_(), t.summary()):
        assert not re.search(r"\de[-+]\d", text), text  # no scientific notation among decimals
    assert re.search(r"  -0\.000 \[-0\.0\d\d, -0\.000\]  ", t.to_text(width=None))
    assert "-0.000" in str(t)


def test_the_text_fits_the_width_asked_for_and_the_wide_layout_on_request(ladder_table):
    t = ladder_table
    wide = t.to_text(width=None)
    assert max(map(len, wide.splitlines())) > 120  # every interval in its own cells
    for width in (120, 100, 80):
        text = t.to_text(width=width)
        assert max(map(len, text.splitlines())) <= width, width
        # The primary metric, its difference and the decision are always shown.
        assert all(name in text for name in t.rows) and "vs baseline" in text
    assert str(t) == t.to_text(width=120) and "Left out" not in str(t)
    assert re.search(r"Left out to fit 100 characters: [a-z_, ]*pr_auc \(to_text", " ".join(
        t.to_text(width=100).split()))
    narrow = " ".join(t.to_text(width=80).split())
    assert ("Left out to fit 80 characters: the interval of roc_auc, log_loss, brier_skill, "
            "pr_auc") in narrow
    # Names are never cut: narrower than the longest name allows, the table stays as narrow
    # as it gets.
    assert "one feature (worst perimeter)" in t.to_text(width=40)
    with pytest.raises(ValueError, match="width must be a whole number of characters >= 40"):
        t.to_text(width=10)


def test_primary_a_row_cannot_have_is_refused_before_resampling(cancer):
    X_tr, X_te, y_tr, y_te, models, rule = cancer
    logit = models["linear"].decision_function(X_te)  # log-odds: scores that only rank
    arrays = {"rule": rule, "log-odds": logit}
    with pytest.raises(ValueError, match=r"primary='accuracy' needs a decision \(a class per "
                                         r"row\), which row\(s\) 'log-odds' \(scores that only "
                                         r"rank the rows\) cannot give.*'roc_auc'"):
        compare.holdout_table(arrays, X_te, y_te, primary="accuracy", n_boot=B)
    with pytest.raises(ValueError, match=r"primary='f1_macro' needs a decision"):
        compare.holdout_table(arrays, X_te, y_te, primary="f1_macro", n_boot=B)
    with pytest.raises(ValueError, match=r"primary='brier_skill' needs probabilities, which "
                                         r"row\(s\) 'rule' \(a 0/1 rule\), 'log-odds'"):
        compare.holdout_table(arrays, X_te, y_te, primary="brier_skill", n_boot=B)
    # A fitted model that only ranks still decides through its own predict.
    svc = make_pipeline(StandardScaler(), LinearSVC()).fit(X_tr, y_tr)
    t = compare.holdout_table({"rule": rule, "svc": svc}, X_te, y_te, primary="accuracy",
                              n_boot=B, random_state=0)
    assert t.rows["svc"]["accuracy"] == pytest.approx(
        accuracy_score(y_te, svc.predict(X_te)), abs=1e-12)
    # Shown (not primary), what scores lack is n/a and said so.
    t = compare.holdout_table(arrays, X_te, y_te, metrics=["accuracy", "pr_auc"], n_boot=B,
                              random_state=0)
    assert np.isnan(t.rows["log-odds"]["accuracy"])
    assert t.rows["log-odds"]["notes"] == "scores only: accuracy n/a"


# --------------------------------------------------------------------------- decisions


def test_net_benefit_primary_is_the_decisions_number_paired_on_the_same_resamples(
        intervals_agree):
    from chimeraboost import decisions, resampling

    X, y = load_breast_cancer(return_X_y=True)
    model = LogisticRegression(max_iter=5000).fit(X[:300], y[:300])
    rule = (X[300:, 20] < 16).astype(int)
    p = model.predict_proba(X[300:])[:, 1]
    t = compare.holdout_table({"rule": rule, "model": model}, X[300:], y[300:],
                              primary="net_benefit@0.2", metrics=["roc_auc", "ppv@0.2"],
                              n_boot=1000, random_state=0)
    nb = decisions.net_benefit(y[300:], p, 0.2)
    assert t.rows["model"]["net_benefit@0.2"] == pytest.approx(nb.net_benefit[0], abs=1e-15)
    assert t.rows["rule"]["net_benefit@0.2"] == pytest.approx(
        decisions.net_benefit(y[300:], rule, 0.2).net_benefit[0], abs=1e-15)
    evs = [decisions.DecisionEvaluator(y[300:] == 1, s, [0.2], names={"net_benefit"})
           for s in (rule, p)]
    # The paired difference on a joint bootstrap of the two rows, by the table's interval
    # method (expanded BCa): an independent one (another seed) agrees within the Monte Carlo
    # error of the ends.
    boots = resampling.joint_bootstrap(evs, n_boot=4000, random_state=12345)
    d = resampling.PairedBootstrapResult(boots[1], boots[0]).difference("net_benefit@0.2")
    got = t.rows["model"]
    assert got["difference"] == pytest.approx(d[0], abs=1e-14)
    intervals_agree((got["diff_low"], got["diff_high"]), d[1:])
    assert got["beats_baseline"] == (got["diff_low"] > 0)
    assert "net_benefit@0.2 vs rule" in t.to_text(width=None)


def test_expected_cost_primary_needs_costs_and_is_oriented_as_a_loss():
    X, y = load_breast_cancer(return_X_y=True)
    model = LogisticRegression(max_iter=5000).fit(X[:300], y[:300])
    rule = (X[300:, 20] < 16).astype(int)
    with pytest.raises(ValueError, match="'expected_cost' needs costs="):
        compare.holdout_table({"rule": rule, "model": model}, X[300:], y[300:],
                              primary="expected_cost", n_boot=1000)
    t = compare.holdout_table({"rule": rule, "model": model}, X[300:], y[300:],
                              primary="expected_cost", costs={"fp": 1, "fn": 5}, n_boot=1000,
                              random_state=0)
    r = t.rows["model"]
    # A loss: the difference is baseline minus row, positive favours the row.
    assert r["difference"] == pytest.approx(t.rows["rule"]["expected_cost"]
                                            - r["expected_cost"], abs=1e-15)


@pytest.mark.parametrize("primary, match", [
    ("net_benefit", "not a metric of this table's rows .* or a decision: 'net_benefit@0.2'"),
    ("net_benefit_all@0.2", "describes the rows"),
    ("net_benefit@1.5", r"the threshold after '@' must be a number strictly inside \(0, 1\)"),
])
def test_decision_primaries_that_are_not_a_models_number_are_refused(primary, match):
    X, y = load_breast_cancer(return_X_y=True)
    rule = (X[:, 20] < 16).astype(int)
    with pytest.raises(ValueError, match=match):
        compare.holdout_table({"rule": rule, "r2": 1 - rule}, X, y, primary=primary,
                              n_boot=1000)


def test_decision_primary_refuses_scores_that_only_rank():
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(ValueError, match=r"needs a probability \(or a 0/1 rule\) to act on at a "
                                         r"threshold, which row\(s\) 'a' \(scores that only"):
        compare.holdout_table({"a": X[:, 0], "b": X[:, 1]}, X, y, primary="net_benefit@0.2",
                              n_boot=1000)


def test_default_primary_is_the_headline_of_the_rows_kind():
    """Rows of one kind lead with that kind's headline (the one table of them): a table of
    0/1 rules with balanced accuracy, as compare_holdout and slice_report do; a binary rule's
    ROC AUC ((TPR + TNR) / 2, ties counted half) is that same number, so rows of several
    kinds may lead with ROC AUC and still judge a rule on it."""
    from sklearn.metrics import balanced_accuracy_score

    rng = np.random.default_rng(3)
    y = (rng.random(400) < 0.2).astype(int)
    score = y + rng.normal(0, 0.8, 400)
    rules = {"loose": (score > 0.2).astype(int), "strict": (score > 0.6).astype(int)}
    X = np.zeros((400, 1))
    t = compare.holdout_table(rules, X, y, n_boot=1000, random_state=0)
    assert t.primary == "balanced_accuracy"
    for name, flag in rules.items():
        assert t.rows[name]["balanced_accuracy"] == pytest.approx(
            balanced_accuracy_score(y, flag), abs=1e-12)
        assert roc_auc_score(y, flag) == pytest.approx(balanced_accuracy_score(y, flag),
                                                       abs=1e-12)
    p = 1 / (1 + np.exp(-2 * score))
    mixed = compare.holdout_table({"rule": rules["loose"], "model": p}, X, y, n_boot=1000,
                                  random_state=0)
    assert mixed.primary == "roc_auc"
    assert mixed.rows["rule"]["roc_auc"] == pytest.approx(
        balanced_accuracy_score(y, rules["loose"]), abs=1e-12)


@pytest.mark.parametrize("ci_method", ["percentile", "expanded_bca"])
def test_the_table_and_the_report_draw_the_same_replicates(cancer, ci_method):
    """The same rows, the same seed: the table's paired difference is the report's (and
    the row's own interval too), whatever is resampled besides; a rule without
    probabilities in the table does not move the counts."""
    X_tr, X_te, y_tr, y_te, models, rule = cancer
    base, model = models["prior"], models["ChimeraBoost"]
    rep = cb.report(model, X_te, y_te, baseline=base, ci=0.95, n_boot=B, random_state=3,
                    ci_method=ci_method)
    t = compare.holdout_table({"prior": base, "rule": rule, "ChimeraBoost": model}, X_te,
                              y_te, primary="roc_auc", n_boot=B, random_state=3,
                              ci_method=ci_method)
    row = t.rows["ChimeraBoost"]
    diff, lo, hi = rep.vs_baseline["roc_auc"]
    assert (row["difference"], row["diff_low"], row["diff_high"]) == pytest.approx(
        (diff, lo, hi), abs=1e-12)
    assert (row["roc_auc_low"], row["roc_auc_high"]) == pytest.approx(rep.ci["roc_auc"],
                                                                      abs=1e-12)
