"""Is this an array of the rows, and are its labels what they claim to be?

Questions answered here (re-exported by :mod:`chimeraboost._shared.validation`, the one place
the other modules import checks from):

- Can it be read as an array at all, and as numpy shows it? :func:`to_numpy` (refusing
  scalars, iterators, sparse matrices and unordered containers), :func:`plain`.
- Is it a column of finite numbers? :func:`as_1d`, :func:`finite_float`,
  :func:`check_numeric_1d`, :func:`check_1d_shape` (with :func:`shown_shape` for messages).
- Do the inputs describe the same rows? :func:`check_same_length`, :func:`check_aligned`
  (pandas indexes), :func:`check_rows` (``X`` and ``y``).
- Are the weights weights? :func:`check_sample_weight`; scaled without rounding by
  :func:`unit_scale` and :func:`pow2_below`.
- Are the labels all there, and which class is each? :func:`check_no_missing`,
  :func:`check_classes`, :func:`encode_labels`.
- Which columns of ``X`` are categorical? :func:`categorical_columns`.
- Classes or a regression, read off ``y`` and the shape of the predictions?
  :func:`read_classes`.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator

import numpy as np

__all__ = [
    "as_dates",
    "plain",
    "table_column_names",
    "to_numpy",
    "as_1d",
    "finite_float",
    "check_numeric_1d",
    "check_sample_weight",
    "check_same_length",
    "check_classes",
    "encode_labels",
    "check_no_missing",
    "check_aligned",
    "unit_scale",
    "pow2_below",
    "check_rows",
    "categorical_columns",
    "shown_shape",
    "check_1d_shape",
    "read_classes",
]


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


def table_column_names(X) -> list | None:
    """The column names of a table (pandas, polars, pyarrow), or None for an array. A
    pyarrow Table's ``columns`` are its column arrays; its names are ``column_names``."""
    names = getattr(X, "column_names", None)
    if names is not None and not callable(names) and type(X).__module__.startswith("pyarrow"):
        return [plain(c) for c in names]
    cols = getattr(X, "columns", None)
    if cols is None or callable(cols):
        return None
    return [plain(c) for c in cols]


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


def categorical_columns(X, cat_features=None, name: str = "cat_features") -> np.ndarray:
    """Boolean mask of the columns of ``X`` to treat as categorical.

    A DataFrame's columns of category, object or string dtype (pyarrow-backed strings too),
    plus those ``cat_features``
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
                # pandas' string dtypes, pyarrow-backed too: "string[pyarrow]",
                # "large_string[pyarrow]"
                or str(dtype).startswith(("string", "large_string"))
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


def read_classes(y, pred, classes=None, *, classification: bool = False):
    """``("classification", classes)`` or ``("regression", None)``, read off the inputs:
    ``classes`` given, 2-D predictions, or labels that are not numbers (strings, booleans)
    make a classification over the sorted labels of ``y``; numeric labels only 0 and 1 one
    over ``[0, 1]``; any other numeric ``y`` a regression -- unless ``classification`` (the
    caller knows), then the sorted labels of ``y``."""
    if classes is not None:
        return "classification", check_classes(classes)
    y_arr = check_no_missing(as_1d(y, "y"), "y")
    shape = np.shape(_to_numpy(pred, "predictions"))
    two_d = len(shape) == 2 and shape[1] > 1
    if not classification and not two_d and y_arr.dtype.kind in "iuf":
        if not set(np.unique(y_arr).tolist()) <= {0, 1}:
            return "regression", None
        return "classification", np.array([0, 1], dtype=y_arr.dtype)
    try:
        labels = np.unique(y_arr)
    except TypeError as exc:
        msg = "y mixes label types that cannot be compared; pass classes explicitly."
        raise TypeError(msg) from exc
    if labels.shape[0] < 2:
        msg = (f"y holds the single label {labels.tolist()}; pass classes (e.g. the model's "
               "classes_) to say which classes the predictions are for.")
        raise ValueError(msg)
    return "classification", labels


def as_dates(raw, pd, name: str = "time"):
    """``raw`` (a 1-D input) as a pandas ``DatetimeIndex`` at nanosecond resolution, or a
    message naming ``name``: numbers are refused (they are no dates), as is what pandas
    cannot read. One resolution whatever the input (pandas < 3 keeps datetime64[s] as
    seconds), so that the period labels of the same dates are the same index."""
    kind = getattr(getattr(raw, "dtype", None), "kind", "O")
    if kind in "biufc":
        msg = (f"{name} must hold dates or times (datetime64, pandas timestamps, or strings "
               f"such as '2024-01-31'), got numbers of dtype {raw.dtype}.")
        raise TypeError(msg)
    try:
        dti = pd.DatetimeIndex(pd.to_datetime(raw))
    except (TypeError, ValueError, OverflowError) as exc:
        msg = (f"{name} could not be read as dates: {str(exc).splitlines()[0]} Pass "
               "datetime64 values, pandas timestamps or ISO strings ('2024-01-31').")
        raise ValueError(msg) from None
    return dti.as_unit("ns") if hasattr(dti, "as_unit") else dti
