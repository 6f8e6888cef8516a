"""Better than what? The ladder of simple models every model should be judged against.

A skill against the class prior says a model beats knowing nothing. It does not say whether
the model beats the one column everybody already looks at, or a plain linear model: a
boosted model that is no better than the best single feature is no model worth deploying.
Questions worth asking, and what answers each:

- What would a forecaster who knew no feature say? The ``"prior"`` rung of :func:`ladder`
  (the class prior of the training rows, or their mean).
- How far does the single most informative column get? The ``"one feature (<column>)"``
  rung: the column whose one-feature model scores best in cross-validation on the training
  rows only (the held-out rows never choose it). Columns that cannot inform (all missing,
  or a single value) are not tried; when no column beats the prior in that
  cross-validation, the rung's name says so.
- How far does a plain linear model get on every column? The ``"linear"`` rung (scaled
  logistic or ridge regression, categoricals one-hot encoded).
- Is my model better than each of them, on the same held-out rows, with intervals?
  Put the ladder and the model in one dict and pass it to
  :func:`chimeraboost.compare.holdout_table`.

This module fits estimators with scikit-learn and nothing else; it never computes a metric
of its own (the cross-validation that picks the column uses scikit-learn's ``neg_log_loss``
and ``neg_mean_squared_error`` scorers).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import log_loss, make_scorer
from sklearn.model_selection import KFold, StratifiedKFold, check_cv, cross_val_score
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, OneHotEncoder, StandardScaler
from sklearn.utils.multiclass import type_of_target
from threadpoolctl import threadpool_limits

from ._shared.progress import counting
from ._shared.validation import (
    _is_missing_value,
    _is_sparse,
    as_1d,
    categorical_columns,
    check_no_missing,
    check_aligned,
    check_positive_int,
    finite_float,
    table_column_names,
    to_numpy,
)

__all__ = ["ladder", "one_feature_model", "linear_model"]

# The score that picks the column: proper, defined on every fold (a fold without some class
# still has a log loss), and the one a user of scikit-learn would pick.
_SELECTION_SCORING = {"classification": "neg_log_loss", "regression": "neg_mean_squared_error"}


def _task(y, task) -> str:
    if task is not None and task not in ("classification", "regression"):
        msg = f"task must be 'classification', 'regression' or None, got {task!r}."
        raise ValueError(msg)
    arr = check_no_missing(as_1d(y, "y_train"), "y_train")
    if arr.dtype.kind in "mMc":
        msg = (f"y_train holds {arr.dtype} values; pass class labels or a real-valued target.")
        raise TypeError(msg)
    if task == "regression" or (task is None and arr.dtype.kind == "f"):
        finite_float(arr, "y_train")  # strings, NaN or infinity in a quantity: refused here
        return "regression"
    if task == "classification":
        kind = type_of_target(arr)
        if kind not in ("binary", "multiclass"):
            msg = (f"y_train is {kind!r} but task='classification'; pass class labels, or "
                   "task='regression' for a quantity.")
            raise ValueError(msg)
        return task
    if arr.dtype.kind == "f":  # a float target is a quantity, even when its values are whole
        return "regression"
    kind = type_of_target(arr)
    if kind in ("binary", "multiclass"):
        return "classification"
    if kind == "continuous":
        return "regression"
    msg = (f"y_train is {kind!r}; the ladder needs class labels (binary or multiclass) or a "
           "continuous target.")
    raise ValueError(msg)


def _check_X(X):
    """``X_train`` as a DataFrame (pandas or polars) or a 2-D float array, every numeric value
    finite or missing (NaN is imputed; infinity is not a value a model can be fitted on)."""
    if _is_sparse(X):
        msg = (f"X_train is a sparse {type(X).__name__}; sparse input is not accepted. Pass a "
               "dense array (X_train.toarray()).")
        raise TypeError(msg)
    frame = hasattr(X, "columns") and hasattr(X, "dtypes")
    if not frame:
        X = to_numpy(X, "X_train")
        if X.ndim != 2:
            msg = (f"X_train must be a 2-D table (n rows, p columns), got shape {X.shape}; "
                   "pass X_train.reshape(-1, 1) for a single column.")
            raise ValueError(msg)
    if X.shape[1] == 0:
        msg = "X_train has no columns; the ladder needs at least one."
        raise ValueError(msg)
    if frame and len(set(map(str, X.columns))) != X.shape[1]:
        seen = [str(c) for c in X.columns]
        dup = sorted({c for c in seen if seen.count(c) > 1})
        msg = (f"X_train has duplicate column names {dup}; a column must be named once to be "
               "selected and reported. Rename them.")
        raise ValueError(msg)
    return X


def _column(X, j):
    col = X[:, j] if isinstance(X, np.ndarray) else (
        X.iloc[:, j] if hasattr(X, "iloc") else X[:, j])
    if hasattr(col, "dtype") and not isinstance(col.dtype, np.dtype) and hasattr(col, "iloc"):
        # pandas' nullable and pyarrow-backed dtypes: numbers with NaN for NA, else objects.
        try:
            return col.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError):
            return col.to_numpy(dtype=object)
    return np.asarray(col.to_numpy() if hasattr(col, "to_numpy") else col)


def _check_columns(X, mask):
    """Check every column: numeric columns real and finite (missing allowed), categorical
    ones of one kind of label (text, or numbers). Returns which columns can inform a
    one-feature model (a column all missing, or holding a single value, cannot) and each
    column's cells as an array (float64 with NaN for a numeric one)."""
    cols = _columns(X)
    informative = np.ones(mask.shape[0], dtype=bool)
    cells = []
    for j in range(mask.shape[0]):
        col = _column(X, j)
        if mask[j]:
            informative[j] = _check_labels(col, cols[j])
            cells.append(col.astype(object))
            continue
        if col.dtype.kind in "mMc":
            kind = {"m": "durations", "M": "dates", "c": "complex numbers"}[col.dtype.kind]
            example = " (e.g. days since a date)" if kind != "complex numbers" else ""
            msg = (f"X_train column {cols[j]!r} holds {kind} ({col.dtype}); convert it to real "
                   f"numbers{example}, or name it in cat_features.")
            raise TypeError(msg)
        try:
            values = col.astype(np.float64)
        except (TypeError, ValueError):
            msg = (f"X_train column {cols[j]!r} holds non-numeric values ({col.dtype}); name it in "
                   "cat_features to one-hot encode it.")
            raise TypeError(msg) from None
        if np.isinf(values).any():
            msg = (f"X_train column {cols[j]!r} contains infinite values; expected finite "
                   "numbers (NaN is allowed and imputed by the median).")
            raise ValueError(msg)
        informative[j] = np.unique(values[~np.isnan(values)]).shape[0] > 1
        cells.append(values)
    return informative, cells


def _check_labels(col, name) -> bool:
    """A categorical column holds text or numbers, not both (scikit-learn's encoder cannot
    order them); whether it holds more than one label (missing counts as one)."""
    values = col.tolist()
    present = [v for v in values if not _is_missing_value(v)]
    text = [v for v in present if isinstance(v, str)]
    if text and len(text) < len(present):
        other = next(v for v in present if not isinstance(v, str))
        msg = (f"X_train column {name!r} mixes text and numbers (e.g. {str(text[0])!r} and "
               f"{other}); a categorical column is one-hot encoded and needs one kind of "
               f"label. Convert it to text, X_train.astype({{{name!r}: str}}), and the held-out "
               "rows the same way.")
        raise TypeError(msg)
    return len(set(map(repr, present))) + (len(present) < len(values)) > 1


def _final(task: str):
    if task == "classification":
        # C=1 on standardised columns; enough iterations that a well-separated data set
        # converges instead of warning.
        return LogisticRegression(max_iter=5000)
    return Ridge(alpha=1.0)


def _numeric():
    # keep_empty_features: a column missing in every training row becomes a constant, not a
    # model with no input at all.
    return make_pipeline(SimpleImputer(strategy="median", keep_empty_features=True),
                         StandardScaler())


def _missing_as_nan(X):
    """The cells of categorical columns as objects, every missing value (None, NaN, pandas'
    NA) as NaN: scikit-learn's one-hot encoder takes NaN as a category of its own -- a
    missing value is missing, not an error -- but refuses pandas' NA beside text."""
    arr = np.array(X.to_numpy() if hasattr(X, "to_numpy") else X, dtype=object)
    if arr.ndim == 1:
        arr = arr[:, None]
    missing = np.fromiter((_is_missing_value(v) for v in arr.ravel().tolist()), dtype=bool,
                          count=arr.size).reshape(arr.shape)
    arr[missing] = np.nan
    return arr


def _categorical():
    return make_pipeline(FunctionTransformer(_missing_as_nan, feature_names_out="one-to-one"),
                         OneHotEncoder(handle_unknown="ignore"))


def _columns(X) -> list:
    """How a ColumnTransformer names each column: by name for DataFrames whose column names
    are all strings, by position else (scikit-learn reads an int key as a position, so an int
    column name would select another column)."""
    if hasattr(X, "columns") and hasattr(X, "dtypes") and all(
            isinstance(c, str) for c in X.columns):
        return list(X.columns)
    return list(range(X.shape[1]))


def _label(X, j: int, feature_names) -> str:
    names = table_column_names(X)  # pandas, polars, pyarrow: never a column's values
    if names is not None:
        return str(names[j])
    return f"column {j}" if feature_names is None else str(feature_names[j])


def one_feature_model(X, column: int, *, cat_features=None, task="classification"):
    """The unfitted one-feature model of ``X``'s column ``column`` (an index): that column
    alone (one-hot encoded if categorical, else imputed and scaled) into a logistic or ridge
    regression; every other column is dropped."""
    mask = categorical_columns(X, cat_features)
    key = _columns(X)[column]
    step = _categorical() if mask[column] else _numeric()
    select = ColumnTransformer([("x", step, [key])], remainder="drop")
    return Pipeline([("select", select), ("model", _final(task))])


def linear_model(X, *, cat_features=None, task="classification"):
    """The unfitted linear model on every column: numeric columns imputed (median) and
    scaled, categorical ones one-hot encoded, into ``LogisticRegression`` or ``Ridge``."""
    mask = categorical_columns(X, cat_features)
    cols = _columns(X)
    parts = []
    num = [c for c, m in zip(cols, mask) if not m]
    cat = [c for c, m in zip(cols, mask) if m]
    if num:
        parts.append(("numeric", _numeric(), num))
    if cat:
        parts.append(("categorical", _categorical(), cat))
    return Pipeline([("encode", ColumnTransformer(parts, remainder="drop")),
                     ("model", _final(task))])


def _splits(cv, X, y, task, random_state):
    if isinstance(cv, (bool, np.bool_)) or cv is None:
        msg = f"cv must be an int >= 2 or a scikit-learn splitter, got {cv!r}."
        raise TypeError(msg)
    if isinstance(cv, numbers.Integral):
        n_splits = check_positive_int(cv, "cv", minimum=2)
        smallest = (int(np.unique(y, return_counts=True)[1].min()) if task == "classification"
                    else len(y))
        if n_splits > smallest:
            what = ("the rarest class of y_train has" if task == "classification" else
                    "X_train has")
            msg = (f"cv={n_splits} folds but {what} only {smallest} row(s); every fold needs "
                   "one. Pass a smaller cv" + (", or task='regression' if y_train is a quantity "
                                               "(a count)." if task == "classification" else "."))
            raise ValueError(msg)
        kind = StratifiedKFold if task == "classification" else KFold
        cv = kind(n_splits=n_splits, shuffle=True, random_state=random_state)
    splitter = check_cv(cv, y, classifier=task == "classification")
    return list(splitter.split(X, y))


def _take(X, rows):
    return X.iloc[rows] if hasattr(X, "iloc") else X[rows]


def ladder(X_train, y_train, *, cat_features=None, cv=5, random_state=None, task=None,
           feature_names=None, verbose=1) -> dict:
    """Fit the ladder of simple models, simplest first.

    Parameters
    ----------
    X_train : array-like or DataFrame of shape (n, p)
        The training rows (never the held-out rows: the column is chosen on these).
    y_train : array-like of shape (n,)
        Class labels (binary or multiclass; strings allowed) or a continuous target.
    cat_features : list of str or int, or bool mask, default=None
        Columns to one-hot encode, besides a DataFrame's category, object and string
        columns (pandas' ``string`` and pyarrow-backed strings too). A missing value (None,
        NaN, ``pd.NA``) is a category of its own; a column mixing text and numbers is
        refused, naming the fix (``.astype(str)``). Numeric columns may be pandas' nullable
        (``Int64``, ``Float64``, ``boolean``) or pyarrow-backed; missing values are imputed
        by the median.
    cv : int or splitter, default=5
        The cross-validation that picks the one feature. An int is that many stratified
        (classification) or plain folds, shuffled with ``random_state``.
    random_state : None or int
        Seeds the shuffling of the folds.
    task : {"classification", "regression"}, default=None
        None: from ``y_train``: floats are regression; labels (strings, booleans, integers)
        classification. Pass ``"regression"`` for an integer-typed target such as a count.
    feature_names : sequence of str, default=None
        Names of the columns of an array ``X_train``, for the name of the one-feature rung
        (a DataFrame's own column names are used in any case).
    verbose : int, default=1
        On a terminal, a status line counts the columns as they are cross-validated; nothing
        is written to pipes, logs or notebooks, or with ``verbose=0``.

    Returns
    -------
    dict
        Ordered ``name -> fitted estimator``:

        - ``"prior"``: ``DummyClassifier(strategy="prior")`` (the training class prior) or
          ``DummyRegressor()`` (the training mean);
        - ``"one feature (<column>)"``: the one-feature model (:func:`one_feature_model`) of
          the column with the best mean cross-validated score on ``X_train`` -- log loss for
          classification, mean squared error for regression; the first column wins ties.
          ``<column>`` is the DataFrame's column name, or for arrays the entry of
          ``feature_names`` (``column <j>`` without them). Columns all missing or holding a
          single value are not tried (nothing to learn from); when no column is tried, the
          rung is left out. When the best column scores no better than the prior in the
          same cross-validation, the name says so: ``"one feature (<column>; no better than
          the prior)"``;
        - ``"linear"``: :func:`linear_model` on every column.

        Every estimator is fitted on all of ``X_train`` and takes ``X`` with the same columns.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    >>> models = ladder(X.iloc[:300], y.iloc[:300], random_state=0)
    >>> list(models)
    ['prior', 'one feature (worst perimeter)', 'linear']
    """
    if not (random_state is None or isinstance(random_state, np.random.RandomState) or (
            isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool)
            and 0 <= random_state < 2**32)):
        msg = (f"random_state must be None, an int in [0, 2**32) or a numpy RandomState, got "
               f"{random_state!r}.")
        raise TypeError(msg)
    X_train = _check_X(X_train)
    n, n_y = X_train.shape[0], as_1d(y_train, "y_train").shape[0]
    if n != n_y:
        msg = f"X_train has {n} rows but y_train has {n_y}; they must describe the same rows."
        raise ValueError(msg)
    check_aligned(X_train=X_train, y_train=y_train)
    task = _task(y_train, task)
    mask = categorical_columns(X_train, cat_features)
    informative, cells = _check_columns(X_train, mask)
    if feature_names is not None and (isinstance(feature_names, (str, bytes, set, frozenset, dict))
                                      or not hasattr(feature_names, "__getitem__")):
        msg = (f"feature_names must be a list of column names, in the order of X_train's "
               f"columns; got a {type(feature_names).__name__}.")
        raise TypeError(msg)
    if feature_names is not None and len(feature_names) != mask.shape[0]:
        msg = (f"feature_names has {len(feature_names)} names but X_train has "
               f"{mask.shape[0]} columns.")
        raise ValueError(msg)
    if n < 2:
        msg = f"X_train has {n} row(s); the ladder needs at least 2 to cross-validate."
        raise ValueError(msg)
    y = as_1d(y_train, "y_train")
    if task == "classification" and np.unique(y).shape[0] < 2:
        msg = (f"y_train holds a single class ({np.unique(y).tolist()}); the ladder's models "
               "need at least 2 classes to be fitted.")
        raise ValueError(msg)
    splits = _splits(cv, X_train, y, task, random_state)
    scoring = _SELECTION_SCORING[task]
    if task == "classification":
        # Every class named, so that a test fold lacking one still has a log loss.
        scoring = make_scorer(log_loss, greater_is_better=False, response_method="predict_proba",
                              labels=np.unique(y))
    # One cross-validation per column that can inform: "ladder: column j/p" on a terminal,
    # silent elsewhere.
    tried = np.flatnonzero(informative).tolist()
    columns = counting(tried, len(tried), "ladder: column", verbose=bool(verbose))
    # Each column is cross-validated on its own cells: the steps of one_feature_model
    # without the column selection, the same numbers (tested) at a third of the time. One
    # BLAS thread: for models of one column more threads only wait for each other, and on a
    # machine whose cores are busy they spin (five times slower, measured).
    prior = DummyClassifier(strategy="prior") if task == "classification" else DummyRegressor()
    with threadpool_limits(limits=1, user_api="blas"):
        scores = [
            float(np.mean(cross_val_score(
                make_pipeline(_categorical() if mask[j] else _numeric(), _final(task)),
                cells[j][:, None], y, scoring=scoring, cv=splits, error_score="raise")))
            for j in columns
        ]
        floor = float(np.mean(cross_val_score(prior, X_train, y, scoring=scoring, cv=splits)))
    rungs = {"prior": prior}
    if tried:
        best = tried[int(np.argmax(scores))]
        name = _label(X_train, best, feature_names)
        if max(scores) <= floor:
            name += "; no better than the prior"
        rungs[f"one feature ({name})"] = one_feature_model(X_train, best, cat_features=mask,
                                                           task=task)
    rungs["linear"] = linear_model(X_train, cat_features=mask, task=task)
    return {name: clone(est).fit(X_train, y) for name, est in rungs.items()}
