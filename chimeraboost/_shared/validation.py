"""The one place where inputs are checked and error messages are written.

Every public function of chimeraboost calls these helpers first, so a bad input is reported
with the name of the argument, what was wrong and what was expected -- never as a numpy
traceback from deep inside a kernel. Messages are built in a variable, then raised. The
checks of quantile forecasts, built on these, are in :mod:`chimeraboost._shared.quantile_checks`.

Accepted containers: lists, numpy arrays, pandas / polars Series and DataFrames (anything
``numpy.asarray`` understands). Labels may be strings.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator

import numpy as np

from .estimator_checks import (  # noqa: F401 - re-exported: one place to import checks from
    check_features,
    check_fitted,
    estimator_family,
    final_estimator,
    quantile_levels,
)
from ..exceptions import DegenerateMetricWarning
from ..exceptions import warn as _warn

__all__ = [
    "plain",
    "to_numpy",
    "as_1d",
    "finite_float",
    "check_numeric_1d",
    "check_sample_weight",
    "check_same_length",
    "check_classes",
    "encode_labels",
    "check_proba",
    "check_no_missing",
    "label_columns",
    "check_aligned",
    "unit_scale",
    "pow2_below",
    "binary_target",
    "check_rows",
    "estimator_family",
    "check_fitted",
    "check_features",
    "final_estimator",
    "quantile_levels",
    "check_k",
    "require_proba",
    "check_baseline_name",
    "check_random_state_int",
    "check_positive_int",
    "warn_degenerate",
    "DegenerateMetricWarning",
    "check_level",
    "check_real",
    "import_pandas",
    "check_pvalues",
    "categorical_columns",
]

# Rows of a probability matrix must sum to one within this tolerance. float32 models
# (LightGBM, torch) are off by ~1e-7; anything beyond 1e-6 is not a probability vector.
PROBA_SUM_TOL = 1e-6
# Probabilities may leave [0, 1] by rounding only.
PROBA_RANGE_TOL = 1e-9


def warn_degenerate(message: str) -> None:
    """Warn that a number is NaN because the input is degenerate, not wrong; the warning
    names the user's line (the first frame outside chimeraboost)."""
    _warn(message, DegenerateMetricWarning)


def _to_numpy(x, name: str) -> np.ndarray:
    if x is None:
        msg = f"{name} is None; expected an array-like."
        raise TypeError(msg)
    if isinstance(x, (str, bytes)) or np.isscalar(x):
        msg = f"{name} must be array-like, got a scalar of type {type(x).__name__}."
        raise TypeError(msg)
    if isinstance(x, Iterator):
        msg = (f"{name} is a {type(x).__name__} (an iterator, read once and of unknown "
               f"length); pass a list or an array.")
        raise TypeError(msg)
    if _is_sparse(x):
        msg = (f"{name} is a sparse {type(x).__name__}; sparse input is not accepted. Pass a "
               f"dense array ({name}.toarray()).")
        raise TypeError(msg)
    if isinstance(x, (set, frozenset, dict)) or type(x).__name__ in ("dict_keys", "dict_values"):
        # numpy turns a set into a 0-d object array; its order is arbitrary anyway.
        msg = (f"{name} must be an ordered array-like (list, tuple, array, Series), got a "
               f"{type(x).__name__}, whose order is arbitrary. Pass a list or array.")
        raise TypeError(msg)
    if hasattr(x, "to_numpy") and not isinstance(x, np.ndarray):
        # pandas / polars / pyarrow: go through their own converter so that categoricals
        # and nullable dtypes arrive as plain values.
        try:
            x = x.to_numpy()
        except Exception:  # noqa: BLE001 - each library fails its own way
            try:
                # pyarrow refuses a copy unless asked (ArrowInvalid with zero_copy_only).
                x = x.to_numpy(zero_copy_only=False)
            except Exception:  # noqa: BLE001
                x = np.asarray(x)
    try:
        arr = np.asarray(x)
    except Exception as exc:  # ragged lists and the like
        msg = f"{name} could not be converted to an array: {exc}"
        raise TypeError(msg) from exc
    return arr


# Public name for the other modules (the converter every check starts with).
to_numpy = _to_numpy


def plain(value):
    """A value as Python shows it: numpy scalars become Python scalars (1, 'a' -- never
    np.int64(1)) and arrays lists; anything else is returned as it is."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value.item() if isinstance(value, np.generic) else value


def _is_sparse(x) -> bool:
    module = type(x).__module__ or ""
    return module.startswith("scipy.sparse") or (
        hasattr(x, "tocsr") and hasattr(x, "toarray") and hasattr(x, "nnz")
    )


def _is_missing_value(value) -> bool:
    """None, a float NaN, pandas' NA / NaT: a label that is not there."""
    if value is None:
        return True
    if isinstance(value, (float, np.floating)):
        return value != value
    return type(value).__name__ in ("NAType", "NaTType")


def check_no_missing(arr: np.ndarray, name: str) -> np.ndarray:
    """Labels must all be present: no NaN, None or pandas NA (also inside object arrays)."""
    if arr.dtype.kind == "f":
        bad = np.isnan(arr)
    elif arr.dtype.kind == "O":
        bad = np.fromiter((_is_missing_value(v) for v in arr.ravel().tolist()), dtype=bool,
                          count=arr.size).reshape(arr.shape)
    else:
        return arr
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        msg = (f"{name} contains {int(bad.sum())} missing value(s) (NaN, None or NA; the first "
               f"at position {i}); every row needs a label. Drop those rows or fill them in.")
        raise ValueError(msg)
    return arr


def _pandas_index(x):
    """The index of a pandas Series / DataFrame, None for anything else (polars has none)."""
    index = getattr(x, "index", None)
    if index is None or not hasattr(x, "iloc") or callable(index):
        return None
    return index


def check_aligned(**inputs) -> None:
    """Inputs that carry pandas indexes must carry the same one, in the same order.

    Rows are paired by position. When two inputs both have an index and the indexes differ,
    pairing them by position would silently pair the wrong rows (pandas itself would align
    them by label), so this refuses; an input without an index (a numpy array, a list, a
    polars frame) is paired by position with the others.
    """
    indexed = {name: idx for name, x in inputs.items() if (idx := _pandas_index(x)) is not None}
    if len(indexed) < 2:
        return
    (first, ref), *rest = indexed.items()
    for name, idx in rest:
        if len(idx) != len(ref) or idx.equals(ref):
            continue  # a length mismatch gets its own message from check_same_length
        same_labels = ref.is_unique and idx.is_unique and set(ref) == set(idx)
        i = int(np.flatnonzero(np.asarray(ref) != np.asarray(idx))[0])
        how = (f"they hold the same labels in another order: pass {name}.loc[{first}.index] "
               f"(or {name}.reindex({first}.index))" if same_labels else
               f"pass .to_numpy() of both if their rows are already in the same order, or "
               f"align them first ({first}, {name} = {first}.align({name}, join='inner'))")
        a, b = plain(ref[i]), plain(idx[i])
        msg = (f"{first} and {name} carry different pandas indexes (position {i}: "
               f"{a!r} vs {b!r}); rows are paired by position, so they would be "
               f"paired wrongly. {how[0].upper()}{how[1:]}.")
        raise ValueError(msg)


def shown_shape(shape: tuple) -> str:
    """A shape as numpy prints it, rows possibly unknown (``"?"``, a dask collection's)."""
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def check_1d_shape(shape: tuple, name: str) -> None:
    """A column of values: 1-D, or (n, 1)."""
    if not (len(shape) == 1 or (len(shape) == 2 and shape[1] == 1)):
        msg = (f"{name} must be 1-dimensional, got {name}.ndim={len(shape)} with shape "
               f"{shown_shape(shape)}.")
        raise ValueError(msg)


def check_proba_shape(shape: tuple, n_classes: int, name: str = "proba", *,
                      empty: bool = True) -> None:
    """Probabilities' shape: (n, K), or for binary one column (1-D or (n, 1)); ``empty``
    also refuses zero rows. Rows may be ``"?"`` (unknown, a dask collection's)."""
    if len(shape) == 1 or (len(shape) == 2 and shape[1] == 1):
        if n_classes != 2:
            msg = (
                f"{name} is 1-dimensional, which is only allowed for binary problems "
                f"(the positive-class column); there are {n_classes} classes, so pass an "
                f"(n, {n_classes}) matrix."
            )
            raise ValueError(msg)
        return
    if len(shape) != 2:
        msg = f"{name} must be (n, K) or, for binary, 1-D; got shape {shown_shape(shape)}."
        raise ValueError(msg)
    if empty and shape[0] == 0:
        msg = f"{name} is empty; at least one row is needed."
        raise ValueError(msg)
    if shape[1] != n_classes:
        msg = f"{name} has {shape[1]} columns but there are {n_classes} classes."
        raise ValueError(msg)


def as_1d(x, name: str, *, allow_empty: bool = False) -> np.ndarray:
    """Return ``x`` as a 1-D numpy array; an (n, 1) column is accepted and flattened."""
    arr = _to_numpy(x, name)
    check_1d_shape(arr.shape, name)
    if arr.ndim == 2:
        arr = arr[:, 0]
    if arr.shape[0] == 0 and not allow_empty:
        msg = f"{name} is empty; at least one row is needed."
        raise ValueError(msg)
    return arr


def finite_float(arr: np.ndarray, name: str) -> np.ndarray:
    """C-ordered float64 copy (or view) of ``arr`` with every value finite.

    C order because a pandas DataFrame arrives column-major, and sums taken in another
    memory order would make pandas and numpy input differ in the last digit.
    """
    if arr.dtype.kind in "mMc":
        # Dates and durations would silently become integers, complex numbers would lose
        # their imaginary part.
        kind = {"m": "durations", "M": "dates", "c": "complex numbers"}[arr.dtype.kind]
        msg = f"{name} must hold real numbers, got {kind} (dtype {arr.dtype})."
        raise TypeError(msg)
    if arr.dtype.kind == "O":
        check_no_missing(arr, name)
    try:
        arr = np.ascontiguousarray(arr, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        msg = f"{name} must be numeric, got values of dtype {arr.dtype}."
        raise ValueError(msg) from exc
    if not np.all(np.isfinite(arr)):
        n_bad = int(np.sum(~np.isfinite(arr)))
        msg = f"{name} contains {n_bad} NaN or infinite value(s); expected finite numbers."
        raise ValueError(msg)
    return arr


def check_numeric_1d(x, name: str) -> np.ndarray:
    """1-D float64 array without NaN or infinity."""
    return finite_float(as_1d(x, name), name)


def check_same_length(**arrays) -> int:
    """All arrays (given by name) have the same number of rows; return it."""
    lengths = {k: len(v) for k, v in arrays.items() if v is not None}
    if len(set(lengths.values())) > 1:
        parts = ", ".join(f"{k} has {n}" for k, n in lengths.items())
        msg = f"Inconsistent numbers of rows: {parts}."
        raise ValueError(msg)
    return next(iter(lengths.values()))


def check_sample_weight(sample_weight, n: int, name: str = "sample_weight"):
    """None stays None; otherwise a finite, non-negative float64 vector of length n.

    Zero weights are legal (the row is ignored); all-zero weights are not.
    """
    if sample_weight is None:
        return None
    w = check_numeric_1d(sample_weight, name)
    if w.shape[0] != n:
        msg = f"{name} has {w.shape[0]} rows but the data have {n}."
        raise ValueError(msg)
    if np.any(w < 0):
        msg = f"{name} contains negative values (min {w.min():g}); weights must be >= 0."
        raise ValueError(msg)
    if not np.any(w > 0):
        msg = f"{name} sums to zero; at least one row needs a positive weight."
        raise ValueError(msg)
    return w


def pow2_below(x: float) -> float:
    """The power of two at or just below ``x`` (1.0 for ``x <= 0``): dividing by it is exact."""
    return float(np.ldexp(1.0, int(np.frexp(x)[1]) - 1)) if x > 0 else 1.0


def unit_scale(w):
    """``(w / c, c)`` with ``c`` the power of two nearest below ``max(w)``; None stays None.

    Skills, shares and AUCs do not depend on the scale of the weights, but their sums and
    products do: weights of 1e-170 underflow in a product of two class totals, 1e160
    overflows. Dividing by a power of two is exact, so weights of ordinary size give the
    same bits as before.
    """
    if w is None:
        return None, 1.0
    c = pow2_below(float(np.max(w)))
    if c == 0.0 or not np.isfinite(1.0 / c):  # subnormal maximum: scale in two steps
        return (w * 2.0**600) / (c * 2.0**600), c
    return w / c, c


def check_classes(classes, name: str = "classes") -> np.ndarray:
    """The list of class labels: 1-D, at least two, no duplicates, no NaN."""
    cls = as_1d(classes, name)
    if cls.shape[0] < 2:
        msg = f"{name} must list at least two class labels, got {cls.tolist()}."
        raise ValueError(msg)
    check_no_missing(cls, name)
    try:
        uniq = np.unique(cls)
    except TypeError as exc:
        msg = f"{name} mixes label types that cannot be compared: {cls.tolist()}."
        raise TypeError(msg) from exc
    if uniq.shape[0] != cls.shape[0]:
        msg = f"{name} contains duplicate labels: {cls.tolist()}."
        raise ValueError(msg)
    return cls


def encode_labels(y, classes: np.ndarray, name: str = "y") -> np.ndarray:
    """Integer codes of ``y`` in ``classes`` (``classes[code] == y``), checking membership."""
    arr = check_no_missing(as_1d(y, name), name)
    if arr.dtype.kind in "iu" and np.array_equal(classes, np.arange(classes.shape[0])):
        # Labels 0..K-1 are their own codes: two passes instead of a search.
        if arr.min() < 0 or arr.max() >= classes.shape[0]:
            unknown = np.unique(arr[(arr < 0) | (arr >= classes.shape[0])])[:5].astype(str).tolist()
            msg = f"{name} contains labels not in classes: {unknown}; classes are {classes.tolist()}."
            raise ValueError(msg)
        return arr.astype(np.intp, copy=False)
    if (arr.dtype.kind in "biuf" and classes.dtype.kind in "biuf") or (
            arr.dtype.kind in "US" and classes.dtype.kind == arr.dtype.kind):
        # Numbers, or numpy strings of one kind: numpy compares them natively (fast).
        cls_cmp, arr_cmp = classes, arr
    else:
        # Mixed or string labels: compare by value with a common object dtype.
        cls_cmp, arr_cmp = classes.astype(object), arr.astype(object)
    try:
        order = np.argsort(cls_cmp, kind="stable")
        pos = np.searchsorted(cls_cmp, arr_cmp, sorter=order)
    except TypeError as exc:
        msg = (
            f"{name} holds labels of a type that cannot be compared with {classes.tolist()} "
            f"({name} dtype {arr.dtype}, classes dtype {classes.dtype})."
        )
        raise ValueError(msg) from exc
    pos = np.clip(pos, 0, classes.shape[0] - 1)
    codes = order[pos]
    bad = cls_cmp[codes] != arr_cmp
    if np.any(bad):
        unknown = np.unique(arr[bad].astype(str))[:5].tolist()
        msg = f"{name} contains labels not in classes: {unknown}; classes are {classes.tolist()}."
        raise ValueError(msg)
    return codes.astype(np.intp, copy=False)


def label_columns(proba, classes, name: str):
    """The columns of a probability (or score) DataFrame in the order of ``classes``, or None.

    A DataFrame's column labels say which class each column is: when they are the class
    labels (in any order) the columns are matched by label; default labels 0..K-1 (or
    "0".."K-1") mean "in the order of classes"; anything else is refused rather than
    guessed.
    """
    columns = getattr(proba, "columns", None)
    if columns is None or not hasattr(proba, "shape") or len(getattr(proba, "shape", ())) != 2:
        return None
    cols = list(columns)
    labels = np.asarray(classes).tolist()
    if len(cols) != len(labels):
        return None  # the column count gets its own message
    by_label = {c: i for i, c in enumerate(cols)}
    if set(cols) == set(labels) and len(by_label) == len(cols):
        return [by_label[label] for label in labels]
    by_text = {str(c): i for i, c in enumerate(cols)}
    if set(by_text) == {str(label) for label in labels} and len(by_text) == len(cols):
        return [by_text[str(label)] for label in labels]
    defaults = (list(range(len(cols))), [str(i) for i in range(len(cols))],
                [f"column_{i}" for i in range(len(cols))])  # polars' default names
    if cols in defaults:
        return list(range(len(cols)))
    msg = (f"{name} is a DataFrame whose columns {cols} are not the class labels {labels}; "
           "columns are matched to classes by label. Name the columns after the classes, or "
           f"pass {name}.to_numpy() with the columns in the order of classes.")
    raise ValueError(msg)


def _check_one_column(proba, classes, name: str) -> None:
    """A one-column DataFrame is read as the positive class's probability, unless its label
    names the negative class: then it would be read as the opposite of what it holds."""
    columns = getattr(proba, "columns", None)
    if columns is None or len(classes) != 2:
        return
    label, negative = list(columns)[0], np.asarray(classes).tolist()[0]
    if label == negative or str(label) == str(negative):
        msg = (f"{name} is a one-column DataFrame labelled {label!r}, the negative class "
               f"{negative!r} of {np.asarray(classes).tolist()}; a single column is read as the "
               f"probability of the positive class. Pass that column (labelled "
               f"{np.asarray(classes).tolist()[1]!r}), or both columns.")
        raise ValueError(msg)


def require_proba(proba) -> None:
    """``proba`` given: None is a model that only ranks, pointed to ranking_report."""
    if proba is None:
        msg = ("proba is None; pass predicted probabilities (predict_proba output). For a "
               "model that only ranks, use ranking_report with its decision_function.")
        raise TypeError(msg)


def check_proba(proba, classes, name: str = "proba") -> np.ndarray:
    """An (n, K) float64 probability matrix; a binary 1-D column becomes (1 - p, p).

    ``classes`` is the array of class labels; a DataFrame's columns are matched to it by label.
    """
    n_classes = len(classes)
    order = label_columns(proba, classes, name)
    arr = _to_numpy(proba, name)
    if order is not None and order != list(range(len(order))):
        arr = arr[:, order]
    if arr.ndim == 2 and arr.shape[1] == 1:
        _check_one_column(proba, classes, name)
        arr = arr[:, 0]
    check_proba_shape(arr.shape, n_classes, name)
    if arr.ndim == 1:
        arr = check_numeric_1d(arr, name)
        _check_range(arr, name)
        return np.column_stack([1.0 - arr, arr])
    arr = finite_float(arr, name)
    _check_range(arr, name)
    row_sum = arr.sum(axis=1)
    off = np.abs(row_sum - 1.0)
    if np.any(off > PROBA_SUM_TOL):
        i = int(np.argmax(off))
        msg = (
            f"{name} rows must sum to 1 (within {PROBA_SUM_TOL:g}); row {i} sums to "
            f"{row_sum[i]:.6g}. Pass probabilities (predict_proba), not scores."
        )
        raise ValueError(msg)
    return arr


def _check_range(arr: np.ndarray, name: str) -> None:
    lo, hi = float(arr.min()), float(arr.max())
    if lo < -PROBA_RANGE_TOL or hi > 1 + PROBA_RANGE_TOL:
        msg = (
            f"{name} must hold probabilities in [0, 1]; got values in [{lo:.6g}, {hi:.6g}]. "
            "Pass predict_proba output, not decision_function scores."
        )
        raise ValueError(msg)


def binary_target(y, pos_label, name: str = "y") -> np.ndarray:
    """0/1 codes of a binary target, positive class by one rule for every function.

    ``pos_label`` given: rows equal to it are positive. ``pos_label=None``: ``y`` must be
    bool, 0/1 or -1/1 and the positive class is True / 1 (scikit-learn's rule for
    ``precision_score`` and ``precision_recall_curve``); other labels (strings such as
    "no"/"yes") need an explicit ``pos_label``, because which one is "positive" is a fact
    about the problem, not about the spelling.
    """
    arr = check_no_missing(as_1d(y, name), name)
    if pos_label is not None:
        # '1' against integer labels (or 1 against text) matches no row: a typo, not a fold
        # without positives.
        text_label = isinstance(pos_label, (str, np.str_))
        text_y = arr.dtype.kind in "US" or (arr.dtype.kind == "O" and all(
            isinstance(v, str) for v in arr[:100].tolist()))
        if (text_label and arr.dtype.kind in "biuf") or (not text_label and text_y):
            msg = (f"pos_label={pos_label!r} is {'text' if text_label else 'a number'} but "
                   f"{name} holds {'text' if text_y else 'numbers'} "
                   f"({np.unique(arr)[:5].tolist()}); pass a pos_label of the same kind.")
            raise TypeError(msg)
        return (arr == pos_label).astype(np.intp)
    if arr.dtype == bool:
        return arr.astype(np.intp)
    values = set(np.unique(arr).tolist()) if arr.dtype.kind in "iuf" else None
    if values is None or not (values <= {0, 1} or values <= {-1, 1}):
        try:
            shown = np.unique(arr)[:5].tolist()
        except TypeError:  # labels of mixed types cannot be sorted
            shown = list(dict.fromkeys(arr.tolist()))[:5]
        msg = (f"{name} must be bool, 0/1 or -1/1 when pos_label is None; got labels {shown}. "
               "Pass pos_label (the label of the positive class).")
        raise ValueError(msg)
    return (arr == 1).astype(np.intp)


def check_rows(X, y, sample_weight=None) -> int:
    """``X`` (any table with one row per sample) and ``y`` describe the same rows: their
    number, with pandas indexes that agree, those of ``sample_weight`` too (see
    :func:`check_aligned`)."""
    n_y = as_1d(y, "y").shape[0]
    try:
        n_x = X.shape[0] if hasattr(X, "shape") else len(X)
    except TypeError as exc:
        msg = f"X must be array-like with one row per sample, got {type(X).__name__}."
        raise TypeError(msg) from exc
    if n_x != n_y:
        msg = f"X has {n_x} rows but y has {n_y}; they must describe the same rows."
        raise ValueError(msg)
    check_aligned(X=X, y=y, sample_weight=sample_weight)
    return n_x


def check_baseline_name(baseline, models):
    """The name of the baseline among ``models`` (a mapping of names): the first when
    ``baseline`` is None, else ``baseline`` itself if it is one of them."""
    if baseline is None:
        return next(iter(models))
    if baseline not in models:
        msg = f"baseline={baseline!r} is not one of the models: {list(models)}."
        raise ValueError(msg)
    return baseline


def check_k(k, n, name: str = "k") -> float:
    """A cutoff: an integer number of rows 1..n, or a fraction in (0, 1) of the rows, which
    must come to at least one row. ``n=None`` checks the type and range only (a scorer's
    ``k`` before it meets a fold)."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Real):
        msg = f"{name} must be an int (rows) or a float in (0, 1) (fraction of rows), got {k!r}."
        raise TypeError(msg)
    if isinstance(k, numbers.Integral):
        if k < 1 or (n is not None and k > n):
            where = "below 1" if n is None else f"outside 1..{n} (the number of rows scored)"
            msg = f"{name}={k} rows is {where}."
            raise ValueError(msg)
        return float(k)
    if not 0 < k < 1:
        msg = f"{name}={k!r}: a float k is a fraction of rows and must be in (0, 1)."
        raise ValueError(msg)
    if n is None:
        return float(k)
    if k * n < 1:
        msg = (f"{name}={k!r} of {n} rows is {k * n:.3g} rows, less than one: the number would "
               "rest on no row. Pass a larger fraction or an int number of rows.")
        raise ValueError(msg)
    return float(k) * n


def import_pandas(feature: str):
    """pandas, an optional dependency, imported when a feature needs it."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        msg = f"{feature} needs pandas, an optional dependency: pip install 'chimeraboost[pandas]'."
        raise ImportError(msg) from exc
    return pd


def check_positive_int(value, name: str, minimum: int = 1) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        msg = f"{name} must be an integer >= {minimum}, got {value!r}."
        raise TypeError(msg)
    if value < minimum:
        msg = f"{name} must be >= {minimum}, got {value}."
        raise ValueError(msg)
    return int(value)


def check_random_state_int(random_state):
    """None, an int or a numpy Generator/RandomState -> numpy Generator."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool) \
            and random_state < 0:
        msg = f"random_state must be a non-negative int (a seed), got {random_state}."
        raise ValueError(msg)
    if random_state is None or (isinstance(random_state, numbers.Integral) and not isinstance(
            random_state, bool)) or isinstance(random_state, np.random.Generator):
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    msg = f"random_state must be None, an int or a numpy Generator, got {random_state!r}."
    raise TypeError(msg)


# --- intervals (used by resampling and report) ------------------------------------------------



def check_level(level, name: str = "ci", example: str = "0.95 for a 95% interval") -> float:
    """A fraction strictly inside (0, 1): a confidence level, a significance level, a
    decision threshold. ``example`` shows the expected form in the error message."""
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, numbers.Real):
        msg = f"{name} must be a float in (0, 1), e.g. {example}; got {level!r}."
        raise TypeError(msg)
    if not 0 < level < 1:
        msg = f"{name}={level!r} is outside (0, 1); pass a fraction, e.g. {example}."
        raise ValueError(msg)
    return float(level)


def check_real(value, name: str, *, strictly_positive: bool) -> float:
    """A finite real number, > 0 (a row count, possibly averaged over folds) or >= 0 (a
    region of practical equivalence, a margin)."""
    bound = "> 0" if strictly_positive else ">= 0"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        msg = f"{name} must be a number {bound}, got {value!r}."
        raise TypeError(msg)
    if not (np.isfinite(value) and (value > 0 if strictly_positive else value >= 0)):
        msg = f"{name} must be a finite number {bound}, got {value!r}."
        raise ValueError(msg)
    return float(value)


def check_pvalues(pvalues, name: str = "pvalues") -> np.ndarray:
    """A non-empty 1-D float64 vector of p-values, each in [0, 1]."""
    arr = check_numeric_1d(pvalues, name)
    bad = (arr < 0) | (arr > 1)
    if np.any(bad):
        msg = f"{name} must lie in [0, 1]; got {arr[bad][:5].tolist()}."
        raise ValueError(msg)
    return arr


def categorical_columns(X, cat_features=None, name: str = "cat_features") -> np.ndarray:
    """Boolean mask of the columns of ``X`` to treat as categorical.

    A DataFrame's columns of category, object or string dtype, plus those ``cat_features``
    names (column names), indexes (ints) or marks (a boolean mask, one entry per column).
    """
    shape = getattr(X, "shape", None)
    if shape is None or len(shape) != 2:
        msg = f"X must be a 2-D table (array or DataFrame), got {type(X).__name__}."
        raise TypeError(msg)
    n_features = int(shape[1])
    names = [str(c) for c in X.columns] if hasattr(X, "columns") and hasattr(X, "dtypes") \
        else None
    mask = np.zeros(n_features, dtype=bool)
    if names is not None:
        for j, dtype in enumerate(X.dtypes):
            mask[j] = (dtype.kind in "OSU") if isinstance(dtype, np.dtype) else (
                getattr(dtype, "name", "") in ("category", "string", "str")
                or str(dtype).startswith("string")
                # polars: String (Utf8), Categorical, Enum
                or str(dtype).startswith(("String", "Utf8", "Categorical", "Enum")))
    if cat_features is None:
        return mask
    items = np.asarray(cat_features)
    if items.dtype == bool:
        if items.shape != (n_features,):
            msg = (f"{name} as a boolean mask needs one entry per column ({n_features}), got "
                   f"shape {items.shape}.")
            raise ValueError(msg)
        return mask | items
    for item in np.atleast_1d(items).tolist():
        if isinstance(item, str):
            if names is None or item not in names:
                where = "X has no column names" if names is None else f"columns are {names}"
                msg = f"{name} names column {item!r}, which is not in X ({where})."
                raise ValueError(msg)
            mask[names.index(item)] = True
        elif isinstance(item, (bool, np.bool_)) or not isinstance(item, numbers.Integral):
            msg = (f"{name} must hold column names, indexes in 0..{n_features - 1} or a "
                   f"boolean mask, got {item!r}.")
            raise TypeError(msg)
        elif not -n_features <= item < n_features:
            msg = f"{name} index {item} is outside 0..{n_features - 1}."
            raise ValueError(msg)
        else:
            mask[item] = True
    return mask
