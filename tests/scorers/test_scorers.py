"""chimeraboost.scorers: the scoring strings and objects inside scikit-learn's model selection.

Every value is checked against chimeraboost.metrics on the same fold (one definition per number)
and, where scikit-learn has the same number, against scikit-learn (d2_brier_score,
d2_log_loss_score).
"""

import os
import pickle
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn import config_context
from sklearn.datasets import make_classification
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.inspection import permutation_importance
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV, Ridge
from sklearn.metrics import (
    check_scoring,
    d2_brier_score,
    d2_log_loss_score,
    get_scorer,
    get_scorer_names,
    make_scorer,
)
from sklearn.model_selection import (
    GridSearchCV,
    HalvingGridSearchCV,
    KFold,
    RandomizedSearchCV,
    StratifiedKFold,
    cross_val_score,
    cross_validate,
    learning_curve,
    validation_curve,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

import chimeraboost
from chimeraboost import metrics, report, scorers
from chimeraboost._shared import sklearn_scoring as _sklearn_scoring
from chimeraboost.exceptions import DegenerateMetricWarning

NAMES = ("brier_skill", "log_loss_skill", "neg_calibration_mcb")
TOL = dict(rtol=1e-12, atol=1e-12)


@pytest.fixture(autouse=True)
def _one_thread():
    # On a loaded machine, OpenMP/BLAS threads spin-waiting for a core turn a 20 ms fit into
    # 20 s; these tests check numbers, not speed.
    with threadpool_limits(1):
        yield


def _data(n_classes=2, labels=None, n=240, seed=0):
    X, y = make_classification(
        n_samples=n, n_features=6, n_informative=4, n_redundant=0,
        n_classes=n_classes, n_clusters_per_class=1, class_sep=0.8, flip_y=0.1,
        random_state=seed,
    )
    X = StandardScaler().fit_transform(X)
    if labels is not None:
        y = np.asarray(labels)[y]
    return X, y


def _logreg(**kw):
    return LogisticRegression(max_iter=2000, **kw)


def _metric_value(name, y, proba, classes, sample_weight=None):
    """The number each registered scorer must reproduce, straight from chimeraboost.metrics."""
    if name == "brier_skill":
        return metrics.brier_skill(y, proba, classes, sample_weight=sample_weight)
    if name == "log_loss_skill":
        return metrics.log_loss_skill(y, proba, classes, sample_weight=sample_weight)
    return -metrics.calibration_mcb(y, proba, classes, sample_weight=sample_weight)


# ----------------------------------------------------------------------- registration


def test_sklearn_internals_are_where_we_expect():
    problems = _sklearn_scoring.integration_problems(scorers.SCORING_NAMES)
    assert not problems, (
        "scikit-learn's internals moved; chimeraboost.scorers must be adapted "
        "(see chimeraboost/_sklearn_scoring.py):\n- "
        + "\n- ".join(problems)
    )


def test_a_moved_registry_warns_clearly_instead_of_crashing(monkeypatch):
    from sklearn.metrics import _scorer

    monkeypatch.delattr(_scorer, "_SCORERS")
    with pytest.warns(UserWarning, match="relies on scikit-learn internals.*_SCORERS"):
        assert scorers.register() == ()
    problems = _sklearn_scoring.integration_problems(scorers.SCORING_NAMES)
    assert len(problems) == 1 and "Please report this" in problems[0]


@pytest.mark.parametrize("name", NAMES)
def test_names_are_registered_and_resolve(name):
    assert name in get_scorer_names()
    scorer = get_scorer(name)
    assert isinstance(scorer, scorers.ProbaScorer)
    assert scorer.name == name
    assert scorer is not get_scorer(name)  # a copy each time, as for sklearn's own names
    assert "calibration_mcb" not in get_scorer_names()  # only the sign-honest neg_ form


def test_module_objects_are_the_registered_scorers():
    pairs = {
        "brier_skill": scorers.brier_skill_scorer,
        "log_loss_skill": scorers.log_loss_skill_scorer,
        "neg_calibration_mcb": scorers.neg_calibration_mcb_scorer,
    }
    for name, obj in pairs.items():
        assert repr(get_scorer(name)) == repr(obj)
        assert obj.name == name


def test_register_is_idempotent():
    registry = _sklearn_scoring.scorer_registry()
    before = {name: registry[name] for name in NAMES}
    assert scorers.register() == NAMES
    assert scorers.register() == NAMES
    assert all(registry[name] is before[name] for name in NAMES)
    assert sorted(registry) == get_scorer_names()


@pytest.fixture
def restore_brier_skill():
    registry = _sklearn_scoring.scorer_registry()
    saved = registry["brier_skill"]
    yield registry
    registry["brier_skill"] = saved


def test_register_leaves_a_users_scorer_alone(restore_brier_skill):
    registry = restore_brier_skill
    users = make_scorer(d2_brier_score, response_method="predict_proba")
    registry["brier_skill"] = users
    with pytest.warns(UserWarning, match="already has a scorer named 'brier_skill'"):
        served = scorers.register()
    assert registry["brier_skill"] is users
    assert served == ("log_loss_skill", "neg_calibration_mcb")


def test_check_scoring_validates_our_names():
    # check_scoring's own parameter validation was built before chimeraboost was imported.
    X, y = _data()
    est = _logreg().fit(X, y)
    for name in NAMES:
        assert np.isfinite(check_scoring(est, scoring=name)(est, X, y))


_ENTRY_POINTS_SCRIPT = textwrap.dedent(
    """
    import warnings
    {first}
    {second}
    warnings.simplefilter("error")
    import numpy as np
    from sklearn.datasets import make_classification
    from sklearn.inspection import permutation_importance
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import check_scoring, get_scorer_names
    from sklearn.model_selection import (
        GridSearchCV, HalvingGridSearchCV, RandomizedSearchCV, cross_val_score,
        cross_validate, learning_curve, validation_curve)

    X, y = make_classification(n_samples=200, n_features=5, random_state=0)
    est = LogisticRegression(max_iter=1000)
    names = ["brier_skill", "log_loss_skill", "neg_calibration_mcb"]
    assert set(names) <= set(get_scorer_names())
    out = []
    for name in names:
        out.append(cross_validate(est, X, y, cv=3, scoring=name)["test_score"])
        out.append(cross_val_score(est, X, y, cv=3, scoring=name))
        for cls in (GridSearchCV, RandomizedSearchCV):
            kw = {{"n_iter": 2}} if cls is RandomizedSearchCV else {{}}
            out.append(cls(est, {{"C": [0.1, 1.0]}}, cv=3, scoring=name, **kw).fit(X, y).best_score_)
        out.append(HalvingGridSearchCV(est, {{"C": [0.1, 1.0]}}, cv=3, scoring=name,
                                       min_resources=60).fit(X, y).best_score_)
        out.append(permutation_importance(est.fit(X, y), X, y, scoring=name,
                                          n_repeats=2, random_state=0).importances_mean)
        out.append(learning_curve(est, X, y, cv=3, scoring=name, train_sizes=[0.5, 1.0])[2])
        out.append(validation_curve(est, X, y, param_name="C", param_range=[0.1, 1.0],
                                    cv=3, scoring=name)[1])
        out.append(check_scoring(est, scoring=name)(est.fit(X, y), X, y))
    out.append(cross_validate(est, X, y, cv=3, scoring=names)["test_brier_skill"])
    assert all(np.all(np.isfinite(v)) for v in out), out
    print("OK")
    """
)

_IMPORT_SKLEARN = (
    "import sklearn.model_selection, sklearn.inspection; "
    "from sklearn.experimental import enable_halving_search_cv"
)


@pytest.mark.slow
@pytest.mark.parametrize("order", ["sklearn_first", "chimeraboost_first"])
def test_scoring_strings_pass_validation_in_either_import_order(order):
    # Import order is per process, so each order gets a fresh interpreter.
    first, second = _IMPORT_SKLEARN, "import chimeraboost"
    if order == "chimeraboost_first":
        first, second = second, first
    _run_in_fresh_interpreter(_ENTRY_POINTS_SCRIPT.format(first=first, second=second))


def _run_in_fresh_interpreter(script):
    root = str(Path(chimeraboost.__file__).resolve().parents[1])
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0 and proc.stdout.strip().endswith("OK"), proc.stderr[-3000:]


# A scikit-learn that renamed _BaseScorer, as chimeraboost's import sees it; scikit-learn's own
# modules were imported first and keep their class, so our scorers reach them as plain
# callables -- the situation the fallback base exists for.
_FALLBACK_SCRIPT = textwrap.dedent(
    """
    import pickle
    import warnings
    warnings.simplefilter("error")
    import numpy as np
    import pytest
    import sklearn
    import sklearn.inspection, sklearn.linear_model, sklearn.model_selection
    from sklearn.metrics import _scorer

    with pytest.MonkeyPatch.context() as mp:
        mp.delattr(_scorer, "_BaseScorer")
        import chimeraboost
        from chimeraboost import scorers
        from chimeraboost._shared import sklearn_scoring as _sklearn_scoring

    assert _sklearn_scoring.ScorerBase is _sklearn_scoring.FallbackScorerBase
    assert not isinstance(scorers.brier_skill_scorer, _scorer._BaseScorer)
    problems = _sklearn_scoring.integration_problems(scorers.SCORING_NAMES)
    assert len(problems) == 1 and "fell back" in problems[0], problems

    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import check_scoring, get_scorer, get_scorer_names
    from sklearn.model_selection import GridSearchCV, KFold, cross_val_score, cross_validate

    X, y = make_classification(n_samples=150, n_features=5, random_state=0)
    w = np.random.default_rng(0).uniform(0.1, 3.0, size=y.shape[0])
    cv = KFold(3, shuffle=True, random_state=0)

    def weighted_brier_skill(y, proba, w):
        # By hand: the K-sum Brier of each row, and of the rows' own weighted class prior
        # (the no-skill forecast); skill = 1 - weighted mean / weighted mean.
        onehot = np.eye(2)[y]
        prior = np.array([w[y == 0].sum(), w[y == 1].sum()]) / w.sum()
        model = np.sum(w * ((proba - onehot) ** 2).sum(axis=1))
        reference = np.sum(w * ((prior - onehot) ** 2).sum(axis=1))
        return 1.0 - model / reference

    def by_hand(res, weights):
        return [
            weighted_brier_skill(y[test], fitted.predict_proba(X[test]), weights[test])
            for fitted, test in zip(res["estimator"], res["indices"]["test"])
        ]

    # The strings are registered and pass scikit-learn's parameter validation.
    assert set(scorers.SCORING_NAMES) <= set(get_scorer_names())
    kw = dict(cv=cv, return_estimator=True, return_indices=True)
    plain = cross_validate(LogisticRegression(), X, y, scoring="brier_skill", **kw)
    ones = np.ones_like(w)
    np.testing.assert_allclose(plain["test_score"], by_hand(plain, ones), rtol=1e-12)
    for name in scorers.SCORING_NAMES:
        assert np.all(np.isfinite(cross_val_score(LogisticRegression(), X, y, cv=cv, scoring=name)))
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=cv, scoring="log_loss_skill")
    assert np.isfinite(search.fit(X, y).best_score_)

    with sklearn.config_context(enable_metadata_routing=True):
        est = LogisticRegression().set_fit_request(sample_weight=False)
        requested = get_scorer("brier_skill").set_score_request(sample_weight=True)
        single = cross_validate(est, X, y, scoring=requested, params={"sample_weight": w}, **kw)
        auc = get_scorer("roc_auc").set_score_request(sample_weight=False)
        multi = cross_validate(est, X, y, scoring={"skill": requested, "auc": auc},
                               params={"sample_weight": w}, **kw)
        # Weights nobody asked for are an error, as for scikit-learn's own scorers: never
        # silently dropped.
        with pytest.raises(ValueError, match="sample_weight"):
            cross_validate(est, X, y, cv=cv, scoring="brier_skill", params={"sample_weight": w})
        again = pickle.loads(pickle.dumps(requested))
        assert again.get_metadata_routing().score.requests == {"sample_weight": True}
    np.testing.assert_allclose(single["test_score"], by_hand(single, w), rtol=1e-12)
    np.testing.assert_allclose(multi["test_skill"], single["test_score"], rtol=1e-12)
    assert not np.allclose(single["test_score"], plain["test_score"])  # the weights arrived

    with pytest.raises(RuntimeError, match="metadata routing"):
        get_scorer("brier_skill").set_score_request(sample_weight=True)
    # Without routing, weights are passed as a keyword, to one scorer or to several at once.
    fitted = LogisticRegression().fit(X, y)
    expected = weighted_brier_skill(y, fitted.predict_proba(X), w)
    assert abs(get_scorer("brier_skill")(fitted, X, y, sample_weight=w) - expected) < 1e-12
    both = check_scoring(fitted, scoring=["brier_skill", "roc_auc"])(fitted, X, y, sample_weight=w)
    assert abs(both["brier_skill"] - expected) < 1e-12
    print("OK")
    """
)


@pytest.mark.slow
def test_fallback_scorer_base_keeps_registration_and_weight_routing():
    # scorer_base() gives up when _BaseScorer moves; the scorers must then still be
    # registered, usable by name, and receive sample_weight through metadata routing.
    _run_in_fresh_interpreter(_FALLBACK_SCRIPT)


# ---------------------------------------------------------------------- the numbers


@pytest.mark.parametrize(
    "n_classes, labels",
    [(2, None), (3, None), (2, ["no", "yes"]), (3, ["cat", "dog", "eel"])],
)
def test_fold_values_equal_metrics_and_sklearn(n_classes, labels):
    X, y = _data(n_classes, labels)
    res = cross_validate(
        _logreg(), X, y, cv=StratifiedKFold(4, shuffle=True, random_state=1),
        scoring=list(NAMES), return_estimator=True, return_indices=True,
    )
    for i, (est, test) in enumerate(zip(res["estimator"], res["indices"]["test"])):
        proba = est.predict_proba(X[test])
        for name in NAMES:
            expected = _metric_value(name, y[test], proba, est.classes_)
            np.testing.assert_allclose(res[f"test_{name}"][i], expected, **TOL)
        np.testing.assert_allclose(
            res["test_brier_skill"][i], d2_brier_score(y[test], proba, labels=est.classes_), **TOL)
        np.testing.assert_allclose(
            res["test_log_loss_skill"][i],
            d2_log_loss_score(y[test], proba, labels=est.classes_), **TOL)
    assert np.all(res["test_neg_calibration_mcb"] <= 0)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_brier_skill_equals_sklearns_d2_scorers_on_the_same_folds(n_classes):
    # (with integer labels: sklearn's d2_brier_score scorer cannot score string binary labels)
    X, y = _data(n_classes)
    res = cross_validate(
        _logreg(), X, y, cv=5,
        scoring=["brier_skill", "d2_brier_score", "log_loss_skill", "d2_log_loss_score"],
    )
    np.testing.assert_allclose(res["test_brier_skill"], res["test_d2_brier_score"], **TOL)
    np.testing.assert_allclose(res["test_log_loss_skill"], res["test_d2_log_loss_score"], **TOL)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "entry",
    ["cross_val_score", "grid", "randomized", "halving", "permutation", "learning", "validation"],
)
def test_entry_points_accept_the_names(entry, name):
    X, y = _data(3)
    est = _logreg()
    grid = {"C": [0.1, 1.0]}
    if entry == "cross_val_score":
        out = cross_val_score(est, X, y, cv=3, scoring=name)
    elif entry == "grid":
        out = GridSearchCV(est, grid, cv=3, scoring=name).fit(X, y).cv_results_["mean_test_score"]
    elif entry == "randomized":
        search = RandomizedSearchCV(est, grid, n_iter=2, cv=3, scoring=name, random_state=0)
        out = search.fit(X, y).cv_results_["mean_test_score"]
    elif entry == "halving":
        search = HalvingGridSearchCV(est, grid, cv=3, scoring=name, min_resources=90)
        out = search.fit(X, y).cv_results_["mean_test_score"]
    elif entry == "permutation":
        fitted = est.fit(X, y)
        res = permutation_importance(fitted, X, y, scoring=name, n_repeats=2, random_state=0)
        out = res.importances
    elif entry == "learning":
        out = learning_curve(est, X, y, cv=3, scoring=name, train_sizes=[0.5, 1.0])[2]
    else:
        out = validation_curve(
            est, X, y, param_name="C", param_range=[0.1, 1.0], cv=3, scoring=name
        )[1]
    assert np.all(np.isfinite(out))


def test_list_and_dict_scoring_with_refit():
    X, y = _data(3)
    search = GridSearchCV(
        _logreg(), {"C": [0.01, 0.1, 1.0]}, cv=3,
        scoring=["brier_skill", "neg_calibration_mcb", "roc_auc_ovr"], refit="brier_skill",
    ).fit(X, y)
    res = search.cv_results_
    assert search.best_index_ == int(np.argmax(res["mean_test_brier_skill"]))
    assert search.best_score_ == res["mean_test_brier_skill"][search.best_index_]
    assert {"mean_test_neg_calibration_mcb", "mean_test_roc_auc_ovr"} <= res.keys()

    mixed = {"skill": "brier_skill", "mcb": scorers.neg_calibration_mcb_scorer, "auc": "roc_auc_ovr"}
    res2 = cross_validate(_logreg(C=0.1), X, y, cv=3, scoring=mixed)
    same_folds = [res[f"split{i}_test_brier_skill"][1] for i in range(3)]  # C=0.1 is index 1
    np.testing.assert_allclose(res2["test_skill"], same_folds, **TOL)
    assert np.all(res2["test_mcb"] <= 0)


def test_sample_weight_is_routed_and_weighted():
    X, y = _data(3)
    w = np.random.default_rng(3).uniform(0.1, 3.0, size=y.shape[0])
    cv = KFold(3, shuffle=True, random_state=0)
    with config_context(enable_metadata_routing=True):
        scoring = {name: get_scorer(name).set_score_request(sample_weight=True) for name in NAMES}
        scoring["d2"] = get_scorer("d2_brier_score").set_score_request(sample_weight=True)
        est = _logreg().set_fit_request(sample_weight=False)
        res = cross_validate(
            est, X, y, cv=cv, scoring=scoring, params={"sample_weight": w},
            return_estimator=True, return_indices=True,
        )
    unweighted = cross_validate(_logreg(), X, y, cv=cv, scoring=list(NAMES))
    for i, (fitted, test) in enumerate(zip(res["estimator"], res["indices"]["test"])):
        proba = fitted.predict_proba(X[test])
        for name in NAMES:
            expected = _metric_value(name, y[test], proba, fitted.classes_, w[test])
            np.testing.assert_allclose(res[f"test_{name}"][i], expected, **TOL)
        expected_d2 = d2_brier_score(y[test], proba, sample_weight=w[test], labels=fitted.classes_)
        np.testing.assert_allclose(res["test_brier_skill"][i], expected_d2, **TOL)
    np.testing.assert_allclose(res["test_brier_skill"], res["test_d2"], **TOL)
    # the weights really arrived: weighted and unweighted numbers differ
    assert not np.allclose(res["test_brier_skill"], unweighted["test_brier_skill"])


def test_sample_weight_without_routing_direct_call():
    X, y = _data(2)
    w = np.linspace(0.5, 2.0, y.shape[0])
    est = _logreg().fit(X, y)
    proba = est.predict_proba(X)
    for name in NAMES:
        got = get_scorer(name)(est, X, y, sample_weight=w)
        np.testing.assert_allclose(got, _metric_value(name, y, proba, est.classes_, w), **TOL)


def test_set_score_request_needs_routing_like_sklearn():
    with pytest.raises(RuntimeError, match="metadata routing"):
        get_scorer("brier_skill").set_score_request(sample_weight=True)


def test_process_workers_give_the_serial_numbers():
    X, y = _data(3)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    serial = cross_validate(_logreg(), X, y, cv=cv, scoring=list(NAMES))
    parallel = cross_validate(_logreg(), X, y, cv=cv, scoring=list(NAMES), n_jobs=2)
    for name in NAMES:
        np.testing.assert_allclose(parallel[f"test_{name}"], serial[f"test_{name}"], **TOL)


@pytest.mark.parametrize(
    "last_step", [_logreg(), GaussianNB(), KNeighborsClassifier(n_neighbors=25)],
    ids=["logreg", "naive_bayes", "knn"],
)
def test_pipeline_with_any_classifier(last_step):
    X, y = _data(3, ["a", "b", "c"])
    pipe = make_pipeline(StandardScaler(), last_step)
    res = cross_validate(pipe, X, y, cv=3, scoring=["brier_skill", "neg_calibration_mcb"],
                         return_estimator=True, return_indices=True)
    for i, (fitted, test) in enumerate(zip(res["estimator"], res["indices"]["test"])):
        proba = fitted.predict_proba(X[test])
        expected = metrics.brier_skill(y[test], proba, fitted.classes_)
        np.testing.assert_allclose(res["test_brier_skill"][i], expected, **TOL)


def test_chimeraboost_classifier():
    estimators = pytest.importorskip("chimeraboost.estimators")
    cls = estimators.ChimeraBoostClassifier
    X, y = _data(3, ["a", "b", "c"])
    model = cls(quality=1, max_iter=20, early_stopping=False, random_state=0)
    res = cross_validate(model, X, y, cv=3, scoring=[*NAMES, "d2_brier_score"],
                         return_estimator=True, return_indices=True)
    for i, (fitted, test) in enumerate(zip(res["estimator"], res["indices"]["test"])):
        proba = fitted.predict_proba(X[test])
        for name in NAMES:
            expected = _metric_value(name, y[test], proba, fitted.classes_)
            np.testing.assert_allclose(res[f"test_{name}"][i], expected, **TOL)
    np.testing.assert_allclose(res["test_brier_skill"], res["test_d2_brier_score"], **TOL)


def test_estimator_without_predict_proba_gets_a_clear_error():
    X, y = _data(2)
    with pytest.raises(TypeError, match="'brier_skill' needs probabilities.*predict_proba.*LinearSVC"):
        cross_validate(LinearSVC(), X, y, cv=3, scoring="brier_skill", error_score="raise")
    with pytest.warns(UserWarning, match=r"Scoring failed(.|\n)*needs probabilities"):
        res = cross_validate(LinearSVC(), X, y, cv=3, scoring="neg_calibration_mcb")
    assert np.all(np.isnan(res["test_score"]))
    with pytest.raises(TypeError, match="'neg_calibration_mcb' needs probabilities"):
        cross_validate(LinearSVC(), X, y, cv=3, scoring=["accuracy", "neg_calibration_mcb"],
                       error_score="raise")
    pipe = make_pipeline(StandardScaler(), LinearSVC()).fit(X, y)
    with pytest.raises(TypeError, match="'log_loss_skill' needs probabilities.*Pipeline"):
        get_scorer("log_loss_skill")(pipe, X, y)


def test_logistic_regression_cv_accepts_the_names():
    X, y = _data(3)
    for name in NAMES:
        model = LogisticRegressionCV(Cs=[0.1, 1.0], cv=3, scoring=name, max_iter=2000)
        with warnings.catch_warnings():
            # scikit-learn 1.9 announces changes of LogisticRegressionCV's defaults
            warnings.simplefilter("ignore", FutureWarning)
            model.fit(X, y)
        assert np.isfinite(model.score(X, y))


def test_regressor_gets_a_clear_error():
    X, y = _data(2)
    with pytest.raises(TypeError, match="scores classifiers.*classes_.*Ridge"):
        get_scorer("brier_skill")(Ridge().fit(X, y), X, y)


def test_asks_for_predict_proba_explicitly():
    class BothMethods(GaussianNB):
        def decision_function(self, X):
            raise AssertionError("scorers must call predict_proba")

    X, y = _data(2)
    est = BothMethods().fit(X, y)
    for name in NAMES:
        assert np.isfinite(get_scorer(name)(est, X, y))


def test_fold_with_one_class_gives_nan_not_a_crash():
    X, y = _data(2)
    zeros, ones = np.flatnonzero(y == 0), np.flatnonzero(y == 1)
    one_class_test = zeros[:40]
    mixed_test = np.r_[zeros[40:60], ones[:20]]
    cv = [
        (np.setdiff1d(np.arange(y.shape[0]), one_class_test), one_class_test),
        (np.setdiff1d(np.arange(y.shape[0]), mixed_test), mixed_test),
    ]
    with pytest.warns(DegenerateMetricWarning):
        res = cross_validate(_logreg(), X, y, cv=cv, scoring=["brier_skill", "log_loss_skill"],
                             error_score="raise")
    assert np.isnan(res["test_brier_skill"][0]) and np.isnan(res["test_log_loss_skill"][0])
    assert np.isfinite(res["test_brier_skill"][1]) and np.isfinite(res["test_log_loss_skill"][1])
    # The search reports the NaN fold the way scikit-learn always does: a warning, NaN mean.
    with pytest.warns(UserWarning) as record:
        search = GridSearchCV(_logreg(), {"C": [0.1, 1.0]}, cv=cv, scoring="brier_skill")
        search.fit(X, y)
    assert any(issubclass(r.category, DegenerateMetricWarning) for r in record)
    assert np.all(np.isnan(search.cv_results_["mean_test_score"]))


def test_fold_lacking_a_known_class_uses_the_models_classes():
    X, y = _data(3, ["a", "b", "c"])
    est = _logreg().fit(X, y)
    keep = y != "b"  # the scored rows lack class "b", which the model knows
    proba = est.predict_proba(X[keep])
    classes = est.classes_
    got = {name: get_scorer(name)(est, X[keep], y[keep]) for name in NAMES}
    for name in NAMES:
        np.testing.assert_allclose(got[name], _metric_value(name, y[keep], proba, classes), **TOL)
    np.testing.assert_allclose(
        got["brier_skill"], d2_brier_score(y[keep], proba, labels=classes), **TOL)
    np.testing.assert_allclose(
        got["log_loss_skill"], d2_log_loss_score(y[keep], proba, labels=classes), **TOL)


def test_pickle_round_trip_keeps_value_and_repr():
    X, y = _data(2, ["no", "yes"])
    est = _logreg().fit(X, y)
    made = [
        *(get_scorer(n) for n in NAMES),
        scorers.make_skill_scorer("log_loss", baseline={"no": 0.7, "yes": 0.3}),
        scorers.make_skill_scorer("brier", baseline=y[:50]),
        scorers.make_recall_at_k_scorer(0.2, pos_label="yes"),
    ]
    for scorer in made:
        clone = pickle.loads(pickle.dumps(scorer))
        assert repr(clone) == repr(scorer) and clone.name == scorer.name
        assert clone(est, X, y) == scorer(est, X, y)


# -------------------------------------------------------------------- reprs and names


def test_reprs_rebuild_the_call():
    made = [
        scorers.brier_skill_scorer,
        scorers.log_loss_skill_scorer,
        scorers.neg_calibration_mcb_scorer,
        scorers.make_skill_scorer("log_loss", baseline={"no": 0.9, "yes": 0.1}),
        scorers.make_skill_scorer("brier", name="bss"),
        scorers.make_recall_at_k_scorer(10),
        scorers.make_recall_at_k_scorer(0.05, pos_label="yes", response_method="decision_function"),
        scorers.make_precision_at_k_scorer(3, name="p@3"),
        scorers.make_proba_scorer(metrics.brier_score, greater_is_better=False),
    ]
    namespace = {**vars(scorers), "calibration_mcb": metrics.calibration_mcb,
                 "brier_score": metrics.brier_score}
    for scorer in made:
        rebuilt = eval(repr(scorer), namespace)  # noqa: S307 - our own reprs
        assert repr(rebuilt) == repr(scorer) and rebuilt.name == scorer.name
    assert repr(scorers.brier_skill_scorer) == "make_skill_scorer(metric='brier')"
    assert [s.name for s in made] == [
        "brier_skill", "log_loss_skill", "neg_calibration_mcb", "log_loss_skill_vs_prior",
        "bss", "recall_at_10", "recall_at_0.05", "p@3", "neg_brier_score",
    ]
    assert "targets" in repr(scorers.make_skill_scorer("brier", baseline=[0, 1, 1]))


# -------------------------------------------------------------- fixed-reference skill


@pytest.mark.parametrize("metric", ["brier", "log_loss"])
def test_skill_against_training_targets_equals_metrics(metric):
    X, y = _data(3, ["a", "b", "c"])
    est = _logreg().fit(X[:160], y[:160])
    scorer = scorers.make_skill_scorer(metric, baseline=y[:160])
    proba = est.predict_proba(X[160:])
    skill = metrics.brier_skill if metric == "brier" else metrics.log_loss_skill
    expected = skill(y[160:], proba, est.classes_, baseline=y[:160])
    np.testing.assert_allclose(scorer(est, X[160:], y[160:]), expected, **TOL)
    # the same reference written as a prior mapping gives the same number
    labels, counts = np.unique(y[:160], return_counts=True)
    prior = dict(zip(labels.tolist(), (counts / counts.sum()).tolist()))
    as_prior = scorers.make_skill_scorer(metric, baseline=prior)
    np.testing.assert_allclose(as_prior(est, X[160:], y[160:]), expected, rtol=1e-10)


def test_skill_against_prior_equals_loss_ratio_and_survives_one_class():
    X, y = _data(2, ["no", "yes"])
    est = _logreg().fit(X, y)
    prior = {"yes": 0.2, "no": 0.8}  # key order must not matter
    scorer = scorers.make_skill_scorer("brier", baseline=prior)
    only_no = y == "no"
    proba = est.predict_proba(X[only_no])
    reference = np.tile([0.8, 0.2], (int(only_no.sum()), 1))  # classes_ = ["no", "yes"]
    with warnings.catch_warnings():
        # metrics warns about the fold's own base rate on one-class y; the losses are defined
        warnings.simplefilter("ignore", DegenerateMetricWarning)
        expected = 1 - (metrics.brier_score(y[only_no], proba, est.classes_)
                        / metrics.brier_score(y[only_no], reference, est.classes_))
    got = scorer(est, X[only_no], y[only_no])  # one class, fixed reference: finite, no warning
    np.testing.assert_allclose(got, expected, rtol=1e-10)
    assert np.isfinite(got)


def test_zero_prior_on_a_present_class_gives_nan_skill_everywhere():
    """One rule in metrics, scorers and report: a reference prior of 0 on a class that y holds
    makes the log-loss reference infinite, so the skill is NaN with a warning (not -4.7e14)."""
    X, y = _data(2)
    est = _logreg().fit(X, y)
    scorer = scorers.make_skill_scorer("log_loss", baseline={0: 0.0, 1: 1.0})
    with pytest.warns(DegenerateMetricWarning, match=r"probability 0, but y holds them"):
        assert np.isnan(scorer(est, X, y))
    with pytest.warns(DegenerateMetricWarning, match=r"probability 0, but y holds them"):
        assert np.isnan(metrics.log_loss_skill(y, est.predict_proba(X), [0, 1],
                                               baseline=np.ones(5, dtype=int)))
    with pytest.warns(DegenerateMetricWarning, match=r"probability 0, but y holds them"):
        rep = report(est, X, y, baseline=np.ones(5, dtype=int))
    assert np.isinf(rep["log_loss_ref"]) and np.isnan(rep["log_loss_skill"])
    # The Brier reference stays finite: its skill is a number, the same in all three.
    brier = scorers.make_skill_scorer("brier", baseline={0: 0.0, 1: 1.0})
    assert brier(est, X, y) == pytest.approx(rep["brier_skill"], abs=1e-12)
    # Only rows of the certain class: the reference is perfect (loss 0), the skill NaN.
    ones = y == 1
    with pytest.warns(DegenerateMetricWarning, match="perfectly"):
        assert np.isnan(scorer(est, X[ones], y[ones]))


def test_skill_scorer_rejects_bad_arguments():
    with pytest.raises(ValueError, match="metric must be one of"):
        scorers.make_skill_scorer("mse")
    with pytest.raises(ValueError, match="baseline probabilities must be >= 0 and sum to 1"):
        scorers.make_skill_scorer("brier", baseline={"a": 0.5, "b": 0.6})
    with pytest.raises(ValueError, match=">= 0"):
        scorers.make_skill_scorer("brier", baseline={"a": 1.5, "b": -0.5})
    X, y = _data(3)
    est = _logreg().fit(X, y)
    wrong = scorers.make_skill_scorer("brier", baseline={0: 0.5, 1: 0.5})
    with pytest.raises(ValueError, match=r"baseline gives probabilities for \[0, 1\].*missing \[2\]"):
        wrong(est, X, y)
    with pytest.raises(TypeError, match="name must be a non-empty string"):
        scorers.make_skill_scorer("brier", name="")


# ------------------------------------------------------------------------- top-k scorers


def test_recall_and_precision_at_k_equal_metrics():
    X, y = _data(2, ["no", "yes"])
    est = _logreg().fit(X, y)
    proba = est.predict_proba(X)
    # String classes do not say which is positive: the scorer asks, like recall_at_k does.
    with pytest.raises(ValueError, match="needs pos_label"):
        scorers.make_recall_at_k_scorer(10)(est, X, y)
    for k in (10, 0.25):
        got = scorers.make_recall_at_k_scorer(k, pos_label="yes")(est, X, y)
        np.testing.assert_allclose(
            got, metrics.recall_at_k(y, proba[:, 1], k, pos_label="yes"), **TOL)
        got = scorers.make_precision_at_k_scorer(k, pos_label="no")(est, X, y)
        np.testing.assert_allclose(
            got, metrics.precision_at_k(y, proba[:, 0], k, pos_label="no"), **TOL)
    by_decision = scorers.make_recall_at_k_scorer(30, pos_label="yes",
                                                  response_method="decision_function")
    np.testing.assert_allclose(
        by_decision(est, X, y),
        metrics.recall_at_k(y, est.decision_function(X), 30, pos_label="yes"), **TOL)
    res = cross_validate(est, X, y, cv=3,
                         scoring={"r": scorers.make_recall_at_k_scorer(0.2, pos_label="yes")})
    assert np.all((res["test_r"] >= 0) & (res["test_r"] <= 1))


def test_at_k_scorers_reject_bad_arguments():
    for k, err in [(0, ValueError), (1.5, ValueError), (True, TypeError), ("5", TypeError)]:
        with pytest.raises(err, match="k"):
            scorers.make_recall_at_k_scorer(k)
    with pytest.raises(ValueError, match="response_method must be one of"):
        scorers.make_recall_at_k_scorer(5, response_method="predict")
    X, y = _data(3)
    est = _logreg().fit(X, y)
    with pytest.raises(ValueError, match="binary problem.*3 classes"):
        scorers.make_recall_at_k_scorer(5)(est, X, y)
    X2, y2 = _data(2)
    est2 = _logreg().fit(X2, y2)
    with pytest.raises(ValueError, match="pos_label='yes'.*not one of"):
        scorers.make_recall_at_k_scorer(5, pos_label="yes")(est2, X2, y2)


# --------------------------------------------------------------------------- decisions


def test_net_benefit_and_expected_cost_scorers_are_the_decisions_numbers():
    from chimeraboost import decisions

    X, y = make_classification(300, random_state=0)
    model = LogisticRegression().fit(X[:200], y[:200])
    p = model.predict_proba(X[200:])[:, 1]
    w = np.random.default_rng(0).uniform(0.5, 2, 100)
    nb = scorers.make_net_benefit_scorer(0.2)
    assert nb(model, X[200:], y[200:], sample_weight=w) == decisions.net_benefit(
        y[200:], p, 0.2, sample_weight=w).net_benefit[0]
    cost = scorers.make_expected_cost_scorer(cost_fp=1, cost_fn=4)
    assert cost(model, X[200:], y[200:]) == -decisions.expected_cost(
        y[200:], p, cost_fp=1, cost_fn=4).expected_cost
    # The other class as the positive one: its column and its rows.
    nb0 = scorers.make_net_benefit_scorer(0.3, pos_label=0)
    assert nb0(model, X[200:], y[200:]) == decisions.net_benefit(
        y[200:] == 0, 1 - p, 0.3).net_benefit[0]
    assert repr(scorers.get_scorer("net_benefit@0.2")) == "make_net_benefit_scorer(0.2)"
    assert scorers.get_scorer("net_benefit@0.2").name == "net_benefit@0.2"
    with pytest.raises(ValueError, match=r"threshold=1.0 is outside \(0, 1\)"):
        scorers.make_net_benefit_scorer(1.0)
    with pytest.raises(ValueError, match="after '@' must be a number"):
        scorers.get_scorer("net_benefit@high")


def test_compare_cv_takes_net_benefit_at_a_threshold():
    from sklearn.model_selection import KFold, cross_val_score

    from chimeraboost import compare

    X, y = make_classification(200, random_state=1)
    cv = KFold(4, shuffle=True, random_state=0)
    models = {"lr": LogisticRegression(), "lr_c": LogisticRegression(C=0.01)}
    r = compare.compare_cv(models, X, y, scoring="net_benefit@0.2", cv=cv)
    assert r.scoring == "net_benefit@0.2"
    expected = cross_val_score(LogisticRegression(), X, y, cv=cv,
                               scoring=scorers.make_net_benefit_scorer(0.2))
    np.testing.assert_allclose(r.scores["lr"], expected, atol=1e-15)
