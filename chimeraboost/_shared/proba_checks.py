"""Are these probabilities, one column per class, and which class is positive?

Questions answered here (re-exported by :mod:`chimeraboost._shared.validation`, the one place
the other modules import checks from):

- Is it an (n, K) probability matrix -- or, for binary, the positive class's column -- with
  rows summing to one? :func:`check_proba`, :func:`check_proba_shape` (the shape alone, also of
  a dask collection), :func:`require_proba` (None is a model that only ranks).
- Which column of a DataFrame is which class? :func:`label_columns` (matched by label).
- Which rows are positive? :func:`binary_target` (one rule for every function).
"""

from __future__ import annotations

import numpy as np

from .array_checks import (
    _to_numpy,
    as_1d,
    check_no_missing,
    check_numeric_1d,
    finite_float,
    plain,
    shown_shape,
)

__all__ = [
    "PROBA_SUM_TOL",
    "PROBA_RANGE_TOL",
    "check_proba",
    "check_proba_shape",
    "label_columns",
    "require_proba",
    "binary_target",
]

# Rows of a probability matrix must sum to one within this tolerance. float32 models
# (LightGBM, torch) are off by ~1e-7; anything beyond 1e-6 is not a probability vector.
PROBA_SUM_TOL = 1e-6
# Probabilities may leave [0, 1] by rounding only.
PROBA_RANGE_TOL = 1e-9


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
    # A matrix-vector product: several times faster than sum(axis=1) over short rows, and
    # its rounding is far inside the tolerance.
    row_sum = arr @ np.ones(arr.shape[1])
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
        event = (arr == pos_label).astype(np.intp)
        if not event.any():
            try:
                found = np.unique(arr)
            except TypeError:  # labels of mixed types cannot be sorted
                found = np.array(list(dict.fromkeys(arr.tolist())), dtype=object)
            # Two labels and neither is pos_label: a misspelt label ('yes' for 'Yes'), not
            # a sample without positives (one label, legal: NaN with a warning later).
            if found.size >= 2:
                msg = (f"pos_label={pos_label!r} is not a label of {name}, which holds "
                       f"{[plain(v) for v in found[:10]]}; labels compare exactly (case "
                       "too): pass one of them.")
                raise ValueError(msg)
        return event
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

