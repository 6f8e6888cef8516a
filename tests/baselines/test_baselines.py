"""baselines.ladder: the prior, the best single column, the linear model -- each checked
against scikit-learn fitted by hand."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import log_loss, make_scorer
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

import chimeraboost as cb
from chimeraboost import baselines


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    # Eight columns keep the hand loop short; the rows are the first 300.
    return X.iloc[:300, :8], y.iloc[:300]


def test_ladder_is_exported_and_ordered_simplest_first(cancer):
    X, y = cancer
    models = cb.baselines.ladder(X, y, random_state=0)
    names = list(models)
    assert names[0] == "prior" and names[2] == "linear" and len(names) == 3
    assert names[1].startswith("one feature (") and names[1][13:-1] in X.columns


@pytest.mark.slow
def test_one_feature_is_the_hand_loop_winner(cancer):
    X, y = cancer
    models = baselines.ladder(X, y, random_state=3)
    folds = list(StratifiedKFold(5, shuffle=True, random_state=3).split(X, y))
    scorer = make_scorer(log_loss, greater_is_better=False, response_method="predict_proba",
                         labels=[0, 1])
    by_hand = []
    for col in X.columns:
        model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))
        by_hand.append(cross_val_score(model, X[[col]], y, scoring=scorer, cv=folds).mean())
    best = X.columns[int(np.argmax(by_hand))]
    assert list(models)[1] == f"one feature ({best})"
    # Its predictions are those of the same model fitted on that column alone.
    one = models[f"one feature ({best})"]
    ref = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)).fit(X[[best]], y)
    np.testing.assert_allclose(one.predict_proba(X), ref.predict_proba(X[[best]]), atol=1e-10)


def test_prior_and_linear_equal_scikit_learn(cancer):
    X, y = cancer
    models = baselines.ladder(X, y, random_state=0)
    proba = models["prior"].predict_proba(X.iloc[:5])
    np.testing.assert_allclose(proba[:, 1], y.mean(), rtol=1e-12)
    ref = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)).fit(X, y)
    np.testing.assert_allclose(models["linear"].predict_proba(X), ref.predict_proba(X),
                               atol=1e-10)


@pytest.mark.slow
def test_regression_ladder_on_arrays_names_the_column_by_index():
    X, y = load_diabetes(return_X_y=True)
    models = baselines.ladder(X[:200], y[:200], random_state=0)
    folds = list(KFold(5, shuffle=True, random_state=0).split(X[:200]))
    by_hand = [cross_val_score(make_pipeline(StandardScaler(), Ridge()), X[:200, [j]], y[:200],
                               scoring="neg_mean_squared_error", cv=folds).mean()
               for j in range(X.shape[1])]
    assert list(models) == ["prior", f"one feature (column {int(np.argmax(by_hand))})", "linear"]
    names = [f"f{j}" for j in range(X.shape[1])]
    named = baselines.ladder(X[:200], y[:200], random_state=0, feature_names=names)
    assert list(named)[1] == f"one feature (f{int(np.argmax(by_hand))})"
    with pytest.raises(ValueError, match="feature_names has 2 names but X_train has 10"):
        baselines.ladder(X[:200], y[:200], feature_names=["a", "b"])
    np.testing.assert_allclose(models["prior"].predict(X[:3]), y[:200].mean(), rtol=1e-12)
    ref = make_pipeline(StandardScaler(), Ridge()).fit(X[:200], y[:200])
    np.testing.assert_allclose(models["linear"].predict(X), ref.predict(X), rtol=1e-9)


def test_multiclass_string_labels_and_a_categorical_column():
    rng = np.random.default_rng(0)
    n = 240
    colour = rng.choice(["red", "green", "blue"], n)
    noise = rng.normal(size=n)
    # The label is the colour's fruit, with 10% of the labels shuffled: the colour is the
    # informative column, and it is text, so it must be one-hot encoded.
    fruit = np.select([colour == "red", colour == "green"], ["cherry", "lime"], "plum")
    flip = rng.random(n) < 0.1
    fruit[flip] = rng.permutation(fruit[flip])
    X = pd.DataFrame({"noise": noise, "colour": colour})
    models = baselines.ladder(X, fruit, random_state=0)
    assert list(models) == ["prior", "one feature (colour)", "linear"]
    proba = models["one feature (colour)"].predict_proba(X.iloc[:1])
    assert proba.shape == (1, 3) and list(models["linear"].classes_) == ["cherry", "lime", "plum"]
    np.testing.assert_allclose(
        models["prior"].predict_proba(X.iloc[:1])[0],
        [np.mean(fruit == c) for c in ["cherry", "lime", "plum"]], rtol=1e-12)


def test_cat_features_by_index_one_hot_encodes_an_integer_column():
    rng = np.random.default_rng(1)
    code = rng.integers(0, 4, 200)
    y = (code % 2 == 0).astype(int)  # not monotone in the code: linear in it would fail
    X = np.column_stack([rng.normal(size=200), code])
    models = baselines.ladder(X, y, cat_features=[1], random_state=0)
    assert list(models)[1] == "one feature (column 1)"
    assert models["one feature (column 1)"].score(X, y) == 1.0


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"cat_features": ["nope"]}, ValueError, "cat_features names column 'nope'"),
    ({"cat_features": [True]}, ValueError, "one entry per column"),
    ({"cv": 1}, ValueError, "cv must be >= 2"),
    ({"task": "ranking"}, ValueError, "task must be"),
])
def test_bad_arguments_name_themselves(cancer, kwargs, error, match):
    X, y = cancer
    with pytest.raises(error, match=match):
        baselines.ladder(X, y, **kwargs)


def test_bad_targets_are_refused(cancer):
    X, y = cancer
    with pytest.raises(ValueError, match="X_train has 300 rows but y_train has 299"):
        baselines.ladder(X, y.iloc[:-1])
    with pytest.raises(ValueError, match="y_train must be 1-dimensional"):
        baselines.ladder(X, np.column_stack([y, y]))


# --- hostile input, one test per class ---------------------------------------------------

def _xy(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, (X[:, 0] + rng.normal(size=n) > 0).astype(int)


def test_integer_column_names_name_the_column_that_was_used():
    X, y = _xy()
    frame = pd.DataFrame(X[:, [1, 2, 0]], columns=[1, 2, 0])  # label 0 is the signal
    models = baselines.ladder(frame, y, random_state=0)
    assert list(models)[1] == "one feature (0)"


def test_list_of_rows_is_accepted_and_non_tables_refused():
    X, y = _xy()
    assert list(baselines.ladder(X.tolist(), y, random_state=0))[1] == "one feature (column 0)"
    with pytest.raises(ValueError, match="X_train must be a 2-D table"):
        baselines.ladder(X[:, 0], y)
    with pytest.raises(TypeError, match="X_train is a sparse"):
        import scipy.sparse as sp
        baselines.ladder(sp.csr_matrix(X), y)


def test_infinite_or_non_numeric_columns_are_refused_by_name():
    X, y = _xy()
    X[3, 1] = np.inf
    with pytest.raises(ValueError, match="X_train column 1 contains infinite"):
        baselines.ladder(X, y)
    with pytest.raises(TypeError, match="X_train column 0 holds non-numeric"):
        baselines.ladder(np.c_[np.where(y == 1, "a", "b"), X[:, :1]].astype(object), y)


def test_all_missing_column_is_a_constant_not_a_crash():
    X, y = _xy()
    models = baselines.ladder(np.c_[np.full(len(y), np.nan), X], y, random_state=0)
    assert list(models)[1] == "one feature (column 1)"


def test_missing_or_wrong_kind_of_target_is_refused_by_name():
    X, y = _xy()
    for bad in (np.r_[np.nan, X[1:, 0]], pd.Series(y, dtype="Int64").where(np.arange(len(y)) > 0)):
        with pytest.raises(ValueError, match="y_train contains 1 missing"):
            baselines.ladder(X, bad)
    with pytest.raises(ValueError, match="y_train holds a single class"):
        baselines.ladder(X, np.ones(len(y), int))
    with pytest.raises(ValueError, match="y_train is 'continuous' but task='classification'"):
        baselines.ladder(X, X[:, 0], task="classification")
    with pytest.raises(ValueError, match="y_train must be numeric"):
        baselines.ladder(X, np.where(y == 1, "a", "b"), task="regression")


def test_more_folds_than_rows_of_a_class_is_refused_by_cv():
    X, y = _xy()
    with pytest.raises(ValueError, match="cv=5 folds but the rarest class of y_train has only 1"):
        baselines.ladder(X, np.r_[2, y[1:]])
    with pytest.raises(TypeError, match="cv must be an int >= 2"):
        baselines.ladder(X, y, cv=True)


def test_polars_string_columns_are_one_hot_encoded():
    pl = pytest.importorskip("polars")
    X, y = _xy()
    frame = pl.DataFrame({"a": np.where(X[:, 0] > 0, "x", "y"), "b": X[:, 1]})
    models = baselines.ladder(frame, y, random_state=0)
    assert list(models)[1] == "one feature (a)"


def test_duplicate_column_names_are_refused():
    X, y = _xy()
    with pytest.raises(ValueError, match=r"X_train has duplicate column names \['a'\]"):
        baselines.ladder(pd.DataFrame(X, columns=["a", "a", "c"]), y)


def test_unordered_feature_names_are_refused():
    X, y = _xy()
    for names in ("abc", {"a", "b", "c"}):
        with pytest.raises(TypeError, match="feature_names must be a list of column names"):
            baselines.ladder(X, y, feature_names=names)


def test_dates_and_complex_numbers_are_refused_not_cast():
    X, y = _xy()
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    frame["t"] = pd.date_range("2020-01-01", periods=len(y), freq="D")
    with pytest.raises(TypeError, match="X_train column 't' holds dates"):
        baselines.ladder(frame, y)
    with pytest.raises(TypeError, match="X_train column 0 holds complex numbers"):
        baselines.ladder(X + 1j, y)
    with pytest.raises(TypeError, match="y_train holds datetime64"):
        baselines.ladder(X, pd.date_range("2020-01-01", periods=len(y)))


def test_bad_random_state_is_refused_by_name():
    X, y = _xy()
    for seed in ("abc", -1, 1.5):
        with pytest.raises(TypeError, match="random_state must be None, an int"):
            baselines.ladder(X, y, random_state=seed)


def test_misaligned_pandas_indexes_name_x_train_and_y_train():
    X, y = _xy()
    with pytest.raises(ValueError, match="X_train and y_train carry different pandas indexes"):
        baselines.ladder(pd.DataFrame(X), pd.Series(y, index=np.arange(len(y)) + 1))


def test_ladder_counts_columns_on_a_terminal_only(monkeypatch, capsys):
    import io
    import sys

    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:120, :4], y[:120]
    cb.baselines.ladder(X, y, random_state=0)
    assert capsys.readouterr().err == ""

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for verbose, shown in ((1, True), (0, False)):
        screen = Terminal()
        monkeypatch.setattr(sys, "stderr", screen)
        cb.baselines.ladder(X, y, random_state=0, verbose=verbose)
        assert ("ladder: column 4/4" in screen.getvalue()) is shown


def _coloured(n=240, seed=0):
    """A binary label that is the colour's, 10% flipped: 'colour' informs, 'noise' does not."""
    rng = np.random.default_rng(seed)
    colour = rng.choice(["red", "blue"], n)
    y = (colour == "red").astype(int)
    flip = rng.random(n) < 0.1
    y[flip] = 1 - y[flip]
    return rng, colour, y


@pytest.mark.parametrize("dtype", ["string", "string[pyarrow]", "large_string", "category",
                                   "object"])
def test_missing_text_labels_are_a_category_of_their_own(dtype):
    pa = pytest.importorskip("pyarrow")
    rng, colour, y = _coloured()
    values = np.where(np.arange(colour.size) % 8 == 0, None, colour).tolist()
    kind = pd.ArrowDtype(pa.large_string()) if dtype == "large_string" else dtype
    X = pd.DataFrame({"noise": rng.normal(size=colour.size),
                      "colour": pd.array(values, dtype=kind) if dtype != "object"
                      else pd.Series(values, dtype=object)})
    models = baselines.ladder(X, y, random_state=0, verbose=0)
    assert list(models) == ["prior", "one feature (colour)", "linear"]
    # The missing rows are one more category: the one-hot model sees three columns (red,
    # blue, missing), equal to encoding the missing value as its own label by hand.
    one = models["one feature (colour)"]
    by_hand = pd.DataFrame({"colour": [v if v is not None else "(missing)" for v in values]})
    ref = make_pipeline(OneHotEncoder(), LogisticRegression(max_iter=5000)).fit(by_hand, y)
    np.testing.assert_allclose(one.predict_proba(X), ref.predict_proba(by_hand), atol=1e-6)


@pytest.mark.parametrize("dtype", ["Int64", "Float64", "boolean", "double[pyarrow]",
                                   "bool[pyarrow]"])
def test_nullable_and_pyarrow_numbers_are_numbers_with_missing_values(dtype):
    pytest.importorskip("pyarrow")
    rng, colour, y = _coloured()
    signal = (colour == "red") if "bool" in dtype or dtype == "boolean" else \
        (colour == "red") * 2 + rng.normal(0, 0.1, colour.size)
    values = [None if i % 10 == 0 else v for i, v in enumerate(signal.tolist())]
    X = pd.DataFrame({"signal": pd.array(values, dtype=dtype if dtype != "Int64" else "Float64")
                      if dtype != "Int64" else pd.array(
                          [None if v is None else int(v > 1) for v in values], dtype="Int64")})
    models = baselines.ladder(X, y, random_state=0, verbose=0)
    assert list(models) == ["prior", "one feature (signal)", "linear"]
    # The same numbers as float64 with NaN: the same fitted model.
    plain = pd.DataFrame({"signal": X["signal"].to_numpy(dtype=float, na_value=np.nan)})
    again = baselines.ladder(plain, y, random_state=0, verbose=0)
    np.testing.assert_allclose(models["linear"].predict_proba(X),
                               again["linear"].predict_proba(plain), atol=1e-12)


def test_a_column_mixing_text_and_numbers_is_named_with_the_fix():
    rng, colour, y = _coloured()
    mixed = pd.Series([c if i % 3 else 7 for i, c in enumerate(colour)], dtype=object)
    X = pd.DataFrame({"noise": rng.normal(size=colour.size), "code": mixed})
    with pytest.raises(TypeError, match=r"X_train column 'code' mixes text and numbers \(e\.g\. "
                                        r"'\w+' and 7\).*X_train\.astype\(\{'code': str\}\)"):
        baselines.ladder(X, y, random_state=0, verbose=0)
    fixed = baselines.ladder(X.astype({"code": str}), y, random_state=0, verbose=0)
    assert list(fixed) == ["prior", "one feature (code)", "linear"]


def test_columns_that_cannot_inform_are_not_tried_and_no_winner_is_said():
    rng = np.random.default_rng(5)
    n = 200
    y = rng.integers(0, 2, n)  # no column says anything about y
    X = pd.DataFrame({"all missing": np.full(n, np.nan), "constant": np.ones(n),
                      "one label": ["a"] * n, "noise": rng.normal(size=n)})
    models = baselines.ladder(X, y, random_state=0, verbose=0)
    assert list(models) == ["prior", "one feature (noise; no better than the prior)", "linear"]
    # Its cross-validated log loss is indeed above the prior's, on the ladder's folds.
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    scorer = make_scorer(log_loss, greater_is_better=False, response_method="predict_proba",
                         labels=[0, 1])
    one = baselines.one_feature_model(X, 3)
    assert cross_val_score(one, X, y, scoring=scorer, cv=folds).mean() <= cross_val_score(
        models["prior"], X, y, scoring=scorer, cv=folds).mean()
    # Nothing that can inform: no one-feature rung at all.
    assert list(baselines.ladder(X.iloc[:, :3], y, random_state=0, verbose=0)) == [
        "prior", "linear"]


def test_each_column_is_cross_validated_as_its_one_feature_model():
    # The ladder scores a column on its own cells; the numbers must be those of
    # one_feature_model on the whole table (which selects the column), for every kind.
    rng, colour, y = _coloured(n=150)
    X = pd.DataFrame({
        "noise": rng.normal(size=150),
        "colour": pd.array([None if i % 7 == 0 else c for i, c in enumerate(colour)],
                           dtype="string"),
        "count": pd.array([None if i % 5 == 0 else int(v) for i, v in
                           enumerate(rng.poisson(3, 150))], dtype="Int64"),
    })
    mask = np.array([False, True, False])
    _, cells = baselines._check_columns(X, mask)
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    for j in range(3):
        whole = cross_val_score(baselines.one_feature_model(X, j), X, y, cv=folds,
                                scoring="neg_log_loss")
        alone = cross_val_score(
            make_pipeline(baselines._categorical() if mask[j] else baselines._numeric(),
                          baselines._final("classification")),
            cells[j][:, None], y, cv=folds, scoring="neg_log_loss")
        np.testing.assert_allclose(alone, whole, rtol=1e-12, atol=0)


def test_columns_are_cross_validated_on_one_blas_thread(monkeypatch):
    # One-column models gain nothing from BLAS threads, and on a busy machine the threads
    # spin: the ladder's cross-validation runs on one, whatever the caller's setting.
    from threadpoolctl import threadpool_info, threadpool_limits

    seen = []

    def recording(*args, **kwargs):
        seen.extend(p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas")
        return cross_val_score(*args, **kwargs)

    monkeypatch.setattr(baselines, "cross_val_score", recording)
    rng, colour, y = _coloured(n=80)
    X = pd.DataFrame({"noise": rng.normal(size=80), "colour": colour})
    with threadpool_limits(limits=2, user_api="blas"):
        outside = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
        baselines.ladder(X, y, random_state=0, verbose=0)
    # Outside the ladder the caller's two threads (so a ladder without its own limit would
    # have shown 2); inside, one.
    assert outside and max(outside) == 2
    assert seen and set(seen) == {1}
