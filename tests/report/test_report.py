"""Tests of chimeraboost.report: the report on any fitted estimator equals chimeraboost.metrics
on the estimator's output; intervals and paired differences; the mixin leaves estimators
intact; bad input gets a clear error."""

import pickle

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, r2_score, roc_auc_score
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import check_estimator
from threadpoolctl import threadpool_limits

from chimeraboost import metrics, quantile_metrics, resampling
from chimeraboost._shared.format import NO_PROBA
from chimeraboost.estimators import ChimeraBoostClassifier, ChimeraBoostQuantileRegressor
from chimeraboost import Report, ReportMixin, report


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    return train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)


@pytest.fixture(scope="module")
def lr(cancer):
    X_tr, _, y_tr, _ = cancer
    return LogisticRegression(max_iter=5000).fit(X_tr, y_tr)


# What a report adds to the numbers of chimeraboost.metrics when it resamples (with ci= or a
# fitted baseline): the calibration test of metrics.calibration_test.
CALIBRATION_TEST = {"calibration_noise_floor", "calibration_excess", "calibration_pvalue",
                    "recalibration_intercept", "recalibration_slope", "recalibration_pvalue"}


def _assert_same(rep, expected):
    assert set(rep) - CALIBRATION_TEST == set(expected)
    if set(rep) & CALIBRATION_TEST:
        assert set(rep) >= CALIBRATION_TEST
        assert 0 < rep["calibration_pvalue"] <= 1 and rep["calibration_noise_floor"] > 0
    for key, value in expected.items():
        if isinstance(value, (str, int)):
            assert rep[key] == value, key
        else:
            np.testing.assert_array_equal(np.asarray(rep[key]), np.asarray(value), err_msg=key)


class ThresholdRule(ClassifierMixin, BaseEstimator):
    """A 0/1 rule: flags rows whose feature ``column`` exceeds ``threshold``; only predict."""

    def __init__(self, column=0, threshold=0.0):
        self.column = column
        self.threshold = threshold

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        X = np.asarray(X)
        return np.where(X[:, self.column] > self.threshold, self.classes_[1], self.classes_[0])


class MyLR(ReportMixin, LogisticRegression):
    pass


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize("kind", ["lr", "pipeline", "grid", "calibrated"])
def test_probabilistic_models_equal_metrics_on_predict_proba(cancer, kind):
    X_tr, X_te, y_tr, y_te = cancer
    model = {
        "lr": LogisticRegression(max_iter=5000),
        "pipeline": make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)),
        "grid": GridSearchCV(LogisticRegression(max_iter=5000), {"C": [0.1, 1.0]}, cv=3),
        "calibrated": CalibratedClassifierCV(LinearSVC(), cv=3),
    }[kind].fit(X_tr, y_tr)
    rep = report(model, X_te, y_te, baseline=y_tr)
    expected = metrics.classification_report(
        y_te, model.predict_proba(X_te), model.classes_, baseline=y_tr
    )
    _assert_same(rep, expected)
    assert rep.task == "classification" and rep.ci is None and rep.vs_baseline is None
    text = str(rep)
    assert "rows scored" in text and "judged against: class prior of baseline targets" in text
    assert f"{len(y_te)} rows scored · {int(y_te.sum())} positives" in text


def test_decision_function_model_gets_ranking_metrics(cancer):
    X_tr, X_te, y_tr, y_te = cancer
    svm = LinearSVC().fit(X_tr, y_tr)
    rep = report(svm, X_te, y_te, k=20)
    assert rep.task == "ranking"
    assert rep["roc_auc"] == pytest.approx(roc_auc_score(y_te, svm.decision_function(X_te)),
                                           abs=1e-12)
    assert rep["accuracy"] == pytest.approx(accuracy_score(y_te, svm.predict(X_te)))
    assert np.isnan(rep["log_loss"]) and np.isnan(rep["calibration_mcb"])
    _assert_same(rep, metrics.ranking_report(y_te, svm.decision_function(X_te), svm.classes_,
                                             y_pred=svm.predict(X_te), k=20))
    assert NO_PROBA in str(rep)


def test_zero_one_rule_gets_threshold_and_ranking_metrics(cancer):
    X_tr, X_te, y_tr, y_te = cancer
    rule = ThresholdRule(column=0, threshold=0.0).fit(X_tr, y_tr)
    assert not hasattr(rule, "predict_proba") and not hasattr(rule, "decision_function")
    rep = report(rule, X_te, y_te, ci=0.9, n_boot=1000, random_state=0)
    pred = rule.predict(X_te)
    assert rep.task == "rule"
    assert rep["accuracy"] == pytest.approx(accuracy_score(y_te, pred))
    assert rep["roc_auc"] == pytest.approx(roc_auc_score(y_te, pred), abs=1e-12)
    for key in ("log_loss", "log_loss_skill", "brier", "brier_skill", "calibration_mcb"):
        assert np.isnan(rep[key]), key
    text = str(rep)
    assert "n/a — the model gives no probabilities" in text
    assert "log_loss " not in text.split("bootstrap intervals")[1]  # no interval for NaN
    lo, hi = rep.ci["roc_auc"]
    assert lo <= rep["roc_auc"] <= hi


def test_regressor_report(cancer):
    X, y = load_diabetes(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
    model = Ridge(alpha=0.1).fit(X_tr, y_tr)
    rep = report(model, X_te, y_te)
    assert rep.task == "regression"
    assert rep["r2"] == pytest.approx(r2_score(y_te, model.predict(X_te)), abs=1e-12)
    _assert_same(report(model, X_te, y_te, baseline=y_tr),
                 metrics.regression_report(y_te, model.predict(X_te), baseline=y_tr))
    text = str(report(model, X_te, y_te, baseline=y_tr, ci=0.95, n_boot=1000, random_state=0))
    assert "judged against: mean of baseline targets" in text and "r2" in text


def test_a_skill_against_the_training_mean_is_not_called_r2():
    X, y = load_diabetes(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
    model = Ridge(alpha=0.1).fit(X_tr, y_tr)
    pred = model.predict(X_te)
    rep = report(model, X_te, y_te, baseline=y_tr, ci=0.95, n_boot=1000, random_state=0)
    skill = 1 - np.mean((y_te - pred) ** 2) / np.mean((y_te - y_tr.mean()) ** 2)
    assert rep["mse_skill"] == pytest.approx(skill, abs=1e-12)
    assert rep["r2"] == pytest.approx(r2_score(y_te, pred), abs=1e-12)
    assert rep["mse_skill"] != rep["r2"]  # two numbers, each under its own name
    text = str(rep)
    headline = text.splitlines()[2]
    assert headline.endswith(f"skill vs baseline mean {skill:.3f}") and "r2" not in headline
    assert f"(r2, against the mean of y: {r2_score(y_te, pred):.3f})" in text
    ci_rows = {line.split()[0]: line for line in text.split("bootstrap intervals")[1].splitlines()
               if line.startswith("  ")}
    assert "mse_skill" in ci_rows and "r2" in ci_rows
    assert repr(rep).endswith(f"mse_skill={rep['mse_skill']:.4f}>")
    # Without a baseline the skill is r2 and is shown once, under that name.
    own = report(model, X_te, y_te, ci=0.95, n_boot=1000, random_state=0)
    assert own["mse_skill"] == own["r2"]
    assert "skill (r2)" in str(own) and "  mse_skill" not in str(own)


@pytest.fixture(scope="module")
def quantile_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    y = X[:, 0] + rng.normal(scale=0.5 + 0.5 * np.abs(X[:, 1]), size=400)
    return X[:300], X[300:], y[:300], y[300:]


def test_quantile_regressor_report_and_paired_comparison(quantile_data):
    X_tr, X_te, y_tr, y_te = quantile_data
    with threadpool_limits(1):  # OpenMP threads only contend on a shared small machine
        model = ChimeraBoostQuantileRegressor(quantiles=(0.1, 0.5, 0.9), quality=1,
                                              max_iter=30, random_state=0).fit(X_tr, y_tr)
    rep = model.report(X_te, y_te, baseline=y_tr, ci=0.9, n_boot=1000, random_state=0)
    expected = quantile_metrics.quantile_report(y_te, model.predict(X_te), model.quantiles_,
                                                baseline=y_tr)
    assert rep.task == "quantile"
    _assert_same(rep, expected)
    lo, hi = rep.ci["crps_skill"]
    assert lo <= rep["crps_skill"] <= hi
    assert "Quantile forecast" in str(rep) and "empirical quantiles of baseline" in str(rep)
    with threadpool_limits(1):
        other = ChimeraBoostQuantileRegressor(quantiles=(0.1, 0.5, 0.9), quality=1,
                                              max_iter=5, random_state=1).fit(X_tr, y_tr)
    paired = report(model, X_te, y_te, baseline=other, n_boot=1000, random_state=0)
    diff, lo, hi = paired.vs_baseline["crps"]
    assert diff == pytest.approx(paired["crps"] - paired.baseline_report["crps"])
    assert lo <= diff <= hi
    with threadpool_limits(1):
        wrong = ChimeraBoostQuantileRegressor(quantiles=(0.25, 0.75), quality=1, max_iter=5,
                                              random_state=1).fit(X_tr, y_tr)
    with pytest.raises(ValueError, match="baseline predicts quantile levels"):
        report(model, X_te, y_te, baseline=wrong)


def test_multiclass_report(cancer):
    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=5000).fit(X[::2], y[::2])
    rep = report(model, X[1::2], y[1::2], ci=0.95, n_boot=1000, random_state=0)
    _assert_same(rep, metrics.classification_report(y[1::2], model.predict_proba(X[1::2]),
                                                    model.classes_))
    # iris rows 1::2 hold 25 of each class: every rate is 1/3, each shown with its label.
    assert "class rates 0 0.333, 1 0.333, 2 0.333" in str(rep) and "base_rate" not in rep.ci


def test_string_labels_and_pandas_input(cancer):
    pd = pytest.importorskip("pandas")
    X_tr, X_te, y_tr, y_te = cancer
    names = np.array(["benign", "malignant"])
    model = LogisticRegression(max_iter=5000).fit(X_tr, names[y_tr])
    rep = report(model, X_te, names[y_te], baseline=names[y_tr], ci=0.95, n_boot=1000,
                 random_state=1)
    _assert_same(rep, metrics.classification_report(names[y_te], model.predict_proba(X_te),
                                                    model.classes_, baseline=names[y_tr]))
    cols = [f"f{i}" for i in range(X_tr.shape[1])]
    model_df = LogisticRegression(max_iter=5000).fit(pd.DataFrame(X_tr, columns=cols),
                                                     pd.Series(names[y_tr]))
    rep_df = report(model_df, pd.DataFrame(X_te, columns=cols), pd.Series(names[y_te]),
                    baseline=pd.Series(names[y_tr]), ci=0.95, n_boot=1000, random_state=1,
                    sample_weight=pd.Series(np.ones(len(y_te))))
    assert rep_df["calibration_mcb"] == pytest.approx(rep["calibration_mcb"], abs=1e-12)
    for key in ("brier_skill", "log_loss_skill", "roc_auc", "calibration_excess"):
        assert rep_df[key] == pytest.approx(rep[key], abs=1e-12)
        assert rep_df.ci[key] == pytest.approx(rep.ci[key], abs=1e-12)


def test_chimeraboost_classifier_has_the_method(cancer):
    X_tr, X_te, y_tr, y_te = cancer
    with threadpool_limits(1):  # OpenMP threads only contend on a shared small machine
        model = ChimeraBoostClassifier(quality=1, max_iter=20, random_state=0).fit(X_tr, y_tr)
    rep = model.report(X_te, y_te)
    _assert_same(rep, metrics.classification_report(y_te, model.predict_proba(X_te),
                                                    model.classes_))


# --------------------------------------------------------------------------- intervals


def test_ci_is_reproducible_and_matches_resampling(cancer, lr, intervals_agree):
    _, X_te, _, y_te = cancer
    a = report(lr, X_te, y_te, ci=0.95, n_boot=1000, random_state=4)
    b = lr.report(X_te, y_te, ci=0.95, n_boot=1000, random_state=4) if hasattr(lr, "report") \
        else report(lr, X_te, y_te, ci=0.95, n_boot=1000, random_state=4)
    assert a.ci == b.ci
    ev = metrics.classification_evaluator(y_te, lr.classes_, proba=lr.predict_proba(X_te))
    # resampling.bootstrap's interval, on draws of its own (another seed)
    boot = resampling.bootstrap(ev, n_boot=2000, random_state=12345)
    intervals_agree(a.ci["roc_auc"], boot.interval("roc_auc", level=0.95))
    for key, (lo, hi) in a.ci.items():
        assert lo <= a[key] + 1e-12 and a[key] - 1e-12 <= hi, key
    wider = report(lr, X_te, y_te, ci=0.99, n_boot=1000, random_state=4)
    assert wider.ci["brier_skill"][0] <= a.ci["brier_skill"][0]
    assert "95% bootstrap intervals" in str(a)


def _independent_counts(n, B=1000, seed=2024):
    """Bootstrap counts of n rows drawn here, on their own seed: intervals on them agree
    with the report's within Monte Carlo error, whatever order the report draws in."""
    return np.random.default_rng(seed).multinomial(n, np.full(n, 1 / n), size=B)


@pytest.mark.slow
def test_paired_difference_against_fitted_baseline(cancer, lr, intervals_agree):
    X_tr, X_te, y_tr, y_te = cancer
    weak = LogisticRegression(C=1e-3, max_iter=5000).fit(X_tr[:, :3], y_tr)
    weak_pipe = make_pipeline(_Columns(3), weak)
    rep = report(lr, X_te, y_te, baseline=weak_pipe, n_boot=1000, random_state=3,
                 ci_method="percentile")
    base = metrics.classification_report(y_te, weak.predict_proba(X_te[:, :3]), [0, 1])
    _assert_same(rep.baseline_report, base)
    # Straightforward reference: resamples drawn here, metrics with sample_weight = counts.
    counts = _independent_counts(len(y_te))
    p_model, p_base = lr.predict_proba(X_te), weak.predict_proba(X_te[:, :3])
    for key in ("brier_skill", "roc_auc", "log_loss"):
        diffs = [metrics.classification_report(y_te, p_model, [0, 1], sample_weight=c)[key]
                 - metrics.classification_report(y_te, p_base, [0, 1], sample_weight=c)[key]
                 for c in counts]
        diff, lo, hi = rep.vs_baseline[key]
        assert diff == pytest.approx(rep[key] - base[key], abs=1e-14)
        intervals_agree((lo, hi), np.quantile(diffs, [0.025, 0.975]))
    assert "base_rate" not in rep.vs_baseline and "brier_ref" not in rep.vs_baseline
    text = str(rep)
    assert "vs baseline Pipeline(_Columns, LogisticRegression) on the same rows" in text
    assert "model better" in text
    # Against an estimator, both skills are measured against the scored y's prior.
    assert rep["reference"] == "prior of y"


class _Columns(BaseEstimator):
    """Keeps the first ``k`` columns (a stateless transformer)."""

    def __init__(self, k=3):
        self.k = k

    def fit(self, X, y=None):
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def transform(self, X):
        return np.asarray(X)[:, : self.k]


def test_exports(cancer, lr):
    pd = pytest.importorskip("pandas")
    _, X_te, _, y_te = cancer
    rep = report(lr, X_te, y_te, baseline=LogisticRegression(C=0.01, max_iter=5000).fit(
        X_te, y_te), ci=0.95, n_boot=1000, random_state=0)
    d = rep.to_dict()
    assert d["brier_skill"] == rep["brier_skill"] and isinstance(d["classes"], list)
    assert d["ci"]["roc_auc"] == tuple(rep.ci["roc_auc"])
    frame = rep.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert frame.loc["roc_auc", "value"] == rep["roc_auc"]
    assert frame.loc["roc_auc", "low"] == rep.ci["roc_auc"][0]
    assert frame.loc["roc_auc", "difference"] == rep.vs_baseline["roc_auc"][0]
    html = rep._repr_html_()
    assert f"</style><h4>{rep.headline()}</h4>" in html and "vs baseline" in html
    assert repr(rep).startswith("<Report classification of LogisticRegression")


def test_report_is_read_only(cancer, lr):
    _, X_te, _, y_te = cancer
    rep = report(lr, X_te, y_te)
    assert isinstance(rep, Report)
    with pytest.raises(TypeError):
        rep["brier_skill"] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        rep["classes"][0] = 5
    assert dict(rep)["roc_auc"] == rep["roc_auc"] and len(rep) == len(dict(rep))


# --------------------------------------------------------------------------- the mixin


def test_mixin_passes_estimator_checks():
    # on_skip=None: checks that need optional setups (array API) are skipped silently.
    check_estimator(MyLR(max_iter=2000), on_skip=None)


def test_mixin_keeps_params_clone_and_pickle(cancer):
    X_tr, X_te, y_tr, y_te = cancer
    model = MyLR(C=0.5, max_iter=5000)
    assert model.get_params() == LogisticRegression(C=0.5, max_iter=5000).get_params()
    assert clone(model).get_params() == model.get_params()
    assert "__init__" not in vars(ReportMixin) and not vars(MyLR()).keys() - vars(
        LogisticRegression()).keys()
    model.fit(X_tr, y_tr)
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict_proba(X_te), model.predict_proba(X_te))
    _assert_same(again.report(X_te, y_te), report(model, X_te, y_te))


# --------------------------------------------------------------------------- bad input


def test_bad_input_names_the_argument(cancer, lr):
    X_tr, X_te, y_tr, y_te = cancer
    with pytest.raises(ValueError, match="X has 171 rows but y has 170"):
        report(lr, X_te, y_te[:-1])
    with pytest.raises(NotFittedError, match="estimator"):
        report(LogisticRegression(), X_te, y_te)
    with pytest.raises(NotFittedError, match="baseline"):
        report(lr, X_te, y_te, baseline=LogisticRegression())
    with pytest.raises(TypeError, match="estimator must be a fitted"):
        report("not a model", X_te, y_te)
    for bad in (0.0, 1.0, 95, -0.5):
        with pytest.raises(ValueError, match="ci"):
            report(lr, X_te, y_te, ci=bad)
    with pytest.raises(TypeError, match="ci"):
        report(lr, X_te, y_te, ci="95%")
    for bad in (0, -3):
        with pytest.raises(ValueError, match="n_boot"):
            report(lr, X_te, y_te, n_boot=bad)
    with pytest.raises(TypeError, match="n_boot"):
        report(lr, X_te, y_te, n_boot=10.5)
    regressor = LinearRegression().fit(X_tr, y_tr)
    with pytest.raises(ValueError, match="baseline is a regressor"):
        report(lr, X_te, y_te, baseline=regressor)
    with pytest.raises(ValueError, match="baseline is a classifier"):
        report(regressor, X_te, y_te, baseline=lr)
    three = LogisticRegression(max_iter=5000).fit(X_tr, np.arange(len(y_tr)) % 3)
    with pytest.raises(ValueError, match="baseline predicts classes"):
        report(lr, X_te, y_te, baseline=three)
    with pytest.raises(ValueError, match="baseline contains labels not in classes"):
        report(lr, X_te, y_te, baseline=np.full(5, 7))
    with pytest.raises(ValueError, match="sample_weight"):
        report(lr, X_te, y_te, sample_weight=-np.ones(len(y_te)))
    with pytest.raises(ValueError, match="k"):
        report(regressor, X_te, y_te.astype(float), k=10)


def test_regressor_against_fitted_baseline_matches_loop(intervals_agree):
    X, y = load_diabetes(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
    model = Ridge(alpha=0.1).fit(X_tr, y_tr)
    incumbent = LinearRegression().fit(X_tr[:, :2], y_tr)
    pipe = make_pipeline(_Columns(2), incumbent)
    rep = report(model, X_te, y_te, baseline=pipe, ci=0.9, n_boot=1000, random_state=5,
                 ci_method="percentile")
    counts = _independent_counts(len(y_te))
    pred_m, pred_b = model.predict(X_te), incumbent.predict(X_te[:, :2])
    diffs = [metrics.regression_report(y_te, pred_m, sample_weight=c)["r2"]
             - metrics.regression_report(y_te, pred_b, sample_weight=c)["r2"] for c in counts]
    diff, lo, hi = rep.vs_baseline["r2"]
    assert diff == pytest.approx(r2_score(y_te, pred_m) - r2_score(y_te, pred_b), abs=1e-12)
    intervals_agree((lo, hi), np.quantile(diffs, [0.05, 0.95]))
    assert "mse_ref" not in rep.vs_baseline and "rmse" in rep.vs_baseline
    assert "r2" in rep.ci and "vs baseline Pipeline(_Columns, LinearRegression)" in str(rep)


def test_top_k_in_the_report(cancer, lr):
    _, X_te, _, y_te = cancer
    rep = report(lr, X_te, y_te, k=30, ci=0.95, n_boot=1000, random_state=0)
    p = lr.predict_proba(X_te)[:, 1]
    assert rep["recall_at_k"] == pytest.approx(metrics.recall_at_k(y_te, p, 30), abs=1e-12)
    assert rep["precision_at_k"] == pytest.approx(metrics.precision_at_k(y_te, p, 30), abs=1e-12)
    assert "recall_at_k" in rep.ci and "recall@k" in str(rep)


class _DuckQuantiles:
    """Not a BaseEstimator: quantile levels, a fitted attribute and an (n, 3) predict."""

    quantiles = (0.1, 0.5, 0.9)

    def fit(self, X, y):
        self.center_ = float(np.mean(y))
        return self

    def predict(self, X):
        x = np.asarray(X)[:, 0] + self.center_
        return np.column_stack([x - 1.28, x, x + 1.28])


def test_duck_typed_quantile_model():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = X[:, 0] + rng.normal(size=200)
    model = _DuckQuantiles().fit(X, y)
    rep = report(model, X, y, ci=0.95, n_boot=1000, random_state=0)
    assert rep.task == "quantile"
    _assert_same(rep, quantile_metrics.quantile_report(y, model.predict(X), model.quantiles))
    with pytest.raises(NotFittedError, match="estimator"):
        report(_DuckQuantiles(), X, y)


def test_report_progress_shows_on_a_terminal_only(monkeypatch, capsys):
    # Past its delay, a bootstrap draws a status line on a terminal; elsewhere it is silent.
    import io
    import sys

    from chimeraboost._shared import progress as _progress

    X, y = make_classification(n_samples=300, random_state=0)
    model = LogisticRegression().fit(X, y)
    report(model, X, y, ci=0.95, n_boot=1000, random_state=0)
    assert capsys.readouterr().err == ""

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    real = _progress.working
    monkeypatch.setattr("chimeraboost._report._compute.working",
                        lambda message: real(message, delay=0.05, interval=0.01))
    slow = resampling.bootstrap

    def bootstrap(*args, **kwargs):  # long enough for the line to be drawn, whatever the load
        import time
        time.sleep(0.5)
        return slow(*args, **kwargs)

    monkeypatch.setattr(resampling, "bootstrap", bootstrap)
    report(model, X, y, ci=0.95, n_boot=1000, random_state=0)
    assert "report: 1,000 resamples" in screen.getvalue()


# --------------------------------------------------------------------------- decisions


def _decision_data():
    from sklearn.naive_bayes import GaussianNB

    X, y = load_breast_cancer(return_X_y=True)
    model = LogisticRegression(max_iter=5000).fit(X[:300], y[:300])
    incumbent = GaussianNB().fit(X[:300], y[:300])
    return X[300:], y[300:], model, incumbent


def test_report_decision_section_is_decision_report_on_the_models_probabilities(
        intervals_agree):
    from chimeraboost import decisions

    X, y, model, incumbent = _decision_data()
    r = report(model, X, y, baseline=incumbent, threshold=0.3, costs={"fp": 1, "fn": 2},
                  n_boot=1000, random_state=0)
    # The report hands its resampling scheme on to the decision section: the same numbers,
    # and intervals that agree with decision_report's on draws of its own seed.
    d = decisions.decision_report(
        y, model.predict_proba(X)[:, 1], baseline_proba=incumbent.predict_proba(X)[:, 1],
        threshold=0.3, costs={"fp": 1, "fn": 2}, pos_label=1, n_boot=1000, random_state=7,
        name=r.estimator_name, baseline_name=r.baseline_report.estimator_name)
    for got, ref in ((r.decision.actions, d.actions), (r.decision.differences, d.differences)):
        assert got.keys() == ref.keys()
        for who in ref:
            for key, value in ref[who].items():
                if not key.endswith(("_low", "_high")):
                    assert got[who][key] == pytest.approx(value, abs=1e-12), (who, key)
                elif key.endswith("_low") and ref[who][key] < ref[who][key[:-4] + "_high"]:
                    stem = key[:-4]
                    intervals_agree((got[who][key], got[who][stem + "_high"]),
                                    (value, ref[who][stem + "_high"]))
    text = str(r)
    assert "Decision at threshold 0.3" in text and "treat none" in text
    assert r.to_dict()["decision"]["threshold"] == 0.3
    assert "Decision at threshold" in r._repr_html_()


@pytest.mark.parametrize("units", [None, "groups"])
def test_report_decision_section_equals_decision_report_with_the_same_random_state(units):
    """A user who reads the decision section and then calls decision_report with the same
    random_state gets the same intervals, not another draw: the section starts from the
    caller's random_state, whatever the report resampled before it."""
    from chimeraboost import decisions

    X, y, model, incumbent = _decision_data()
    extra = {} if units is None else {"groups": np.arange(y.size) // 3}
    r = report(model, X, y, baseline=incumbent, threshold=0.3, n_boot=1000, random_state=3,
               **extra)
    d = decisions.decision_report(
        y, model.predict_proba(X)[:, 1], baseline_proba=incumbent.predict_proba(X)[:, 1],
        threshold=0.3, pos_label=1, n_boot=1000, random_state=3,
        name=r.estimator_name, baseline_name=r.baseline_report.estimator_name, **extra)
    for got, ref in ((r.decision.actions, d.actions), (r.decision.differences, d.differences)):
        for who in ref:
            stems = [k[:-4] for k in ref[who] if k.endswith("_low")]
            assert stems
            for stem in stems:
                np.testing.assert_allclose(
                    [got[who][stem + "_low"], got[who][stem + "_high"]],
                    [ref[who][stem + "_low"], ref[who][stem + "_high"]], rtol=1e-12,
                    atol=1e-15, err_msg=f"{who} {stem}")


def test_report_decision_from_costs_alone_uses_the_bayes_threshold():
    X, y, model, _ = _decision_data()
    r = report(model, X, y, costs=[[0, 1], [4, 0]], n_boot=1000, random_state=0)
    assert r.decision.threshold == pytest.approx(0.2)
    assert set(r.decision.differences) == {"treat all", "treat none"}


def test_report_decision_refuses_scores_multiclass_and_regressors():
    from sklearn.datasets import load_iris
    from sklearn.svm import LinearSVC

    X, y, _, _ = _decision_data()
    svm = LinearSVC(dual="auto").fit(X, y)
    with pytest.raises(ValueError, match="decision_function scores, not probabilities"):
        report(svm, X, y, threshold=0.2)
    Xi, yi = load_iris(return_X_y=True)
    lr = LogisticRegression(max_iter=1000).fit(Xi, yi)
    with pytest.raises(ValueError, match="3 classes"):
        report(lr, Xi, yi, threshold=0.2)
    reg = Ridge().fit(X, y)
    with pytest.raises(ValueError, match="a regression model"):
        report(reg, X, y, costs={"fp": 1, "fn": 1})
    with pytest.raises(ValueError, match="strictly inside"):
        report(LogisticRegression(max_iter=5000).fit(X, y), X, y, threshold=1.2)
