"""Which rows make each slice? ``by`` / ``groups`` read into labelled sets of rows.

Questions this module answers:

- *What did the caller pass?* -> :func:`resolve`: a column name of ``X``, a list of them
  (crossed, as pandas' ``groupby`` crosses them), an array of labels (a pandas or polars
  Series, a numpy array, a list), a DataFrame or 2-D array of columns (crossed), or a dict
  name -> boolean mask (slices that may overlap).
- *What are a column's levels?* -> :func:`levels`: categories in their declared order, booleans,
  strings, numbers with at most ``bins`` distinct values; missing values (NaN, None, pandas
  NA, polars null) are a level of their own, labelled ``missing``, placed last.
- *And a numeric column with more values?* -> ``_quantile_bins``: cut at its quantiles into
  at most ``bins`` ranges ``[a, b)`` (the last closed), edges printed so that the reader sees
  where the cuts are; ``-inf`` and ``inf`` fall in the end ranges.
- *Can two slices read the same?* No: ``_level_texts`` gives numbers as many digits as tell
  them apart, and shows values that still read alike (``1`` and ``"1"``) or like a reserved
  label (the text ``"missing"``, a level named ``"all rows"``) as Python writes them.

Nothing here looks at ``y`` or a model: the slices are fixed before any number is computed.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .._shared.validation import (
    _is_missing_value,
    as_1d,
    check_aligned,
    check_positive_int,
    plain,
    table_column_names,
    to_numpy,
)

MISSING = "missing"


class Slicing(NamedTuple):
    """The slices of the rows: their labels and members, and how they were made.

    ``codes`` (n,) gives each row's slice when the slices partition the rows (``-1`` never
    occurs then); it is None for masks that may overlap or leave rows out. ``notes`` are
    lines for the reader (the edges of each binned column); ``by`` names what was sliced on.
    """

    labels: list
    members: list
    codes: np.ndarray | None
    notes: list
    by: str


# --------------------------------------------------------------------------- one column


def _pandas_kind(s):
    import pandas as pd  # a pandas Series was passed, so pandas is there

    dtype = s.dtype
    missing = np.asarray(s.isna())
    if isinstance(dtype, pd.CategoricalDtype):
        return "levels", s.to_numpy(dtype=object), missing, list(dtype.categories)
    if pd.api.types.is_bool_dtype(dtype):
        return "levels", s.to_numpy(dtype=object), missing, None
    if pd.api.types.is_numeric_dtype(dtype):
        return "numeric", s.to_numpy(dtype=np.float64, na_value=np.nan), missing, None
    return "levels", s.to_numpy(dtype=object), missing, None


def _polars_kind(s):
    import polars as pl  # a polars Series was passed, so polars is there

    missing = s.is_null().to_numpy()
    if s.dtype.is_numeric():
        return "numeric", s.cast(pl.Float64).to_numpy(), missing, None
    if s.dtype == pl.Boolean:
        return "levels", s.to_numpy(), missing, None
    return "levels", s.cast(pl.String).to_numpy(), missing, None


def _column_kind(col, name: str):
    """``(kind, values, missing, declared order)`` of one column, whatever holds it."""
    module = type(col).__module__ or ""
    if module.startswith("pandas") and hasattr(col, "isna"):
        return _pandas_kind(col)
    if module.startswith("polars") and hasattr(col, "is_null"):
        return _polars_kind(col)
    arr = as_1d(col, name)
    if arr.dtype.kind == "f":
        return "numeric", arr.astype(np.float64), np.isnan(arr), None
    if arr.dtype.kind in "iu":
        if arr.size and np.abs(arr.astype(np.float64)).max() >= 2.0 ** 53:
            # Above 2**53 a float64 no longer holds every integer: 2**53 and 2**53 + 1
            # would be one slice. The integers themselves are the levels.
            return "levels", arr, np.zeros(arr.shape[0], bool), None
        return "numeric", arr.astype(np.float64), np.zeros(arr.shape[0], bool), None
    missing = np.fromiter((_is_missing_value(v) for v in arr.tolist()), dtype=bool,
                          count=arr.shape[0]) if arr.dtype.kind == "O" else \
        np.zeros(arr.shape[0], bool)
    present = arr[~missing]
    if arr.dtype.kind == "O" and present.size and all(
            isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
            for v in present.tolist()):
        values = np.full(arr.shape[0], np.nan)
        values[~missing] = present.astype(np.float64)
        return "numeric", values, missing, None
    return "levels", arr, missing, None


def _num(v: float, digits: int = 4) -> str:
    """A number as a label: ``3`` for a whole number, else ``digits`` significant digits."""
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else f"{v:.{digits}g}"


# Texts a level of its own may not take: the slice of missing values, the row of all rows.
RESERVED = (MISSING, "all rows")


def _level_texts(found: list, numeric: bool) -> list:
    """The labels of distinct levels, distinct themselves: numbers get more digits until no
    two read the same (0.123411 and 0.123412; 1e15 + 1 and 1e15 + 2); values that still read
    alike (``1`` and ``"1"``), or like a reserved label (the text ``"missing"``, a level
    named ``"all rows"``), are shown as Python writes them (``'1'``, ``'missing'``)."""
    if numeric:
        for digits in range(4, 18):
            texts = [_num(v, digits) for v in found]
            if len(set(texts)) == len(texts):
                break
        else:
            texts = [repr(float(v)) for v in found]
    else:
        texts = [str(plain(v)) for v in found]
    seen = {}
    for t in texts:
        seen[t] = seen.get(t, 0) + 1
    return [repr(plain(v)) if seen[t] > 1 or t in RESERVED else t
            for v, t in zip(found, texts)]


def _edge_texts(edges: np.ndarray) -> list:
    """Edges as text, with enough digits that no two distinct edges read the same."""
    for digits in range(4, 17):
        texts = [str(int(e)) if float(e).is_integer() and abs(e) < 1e15 else f"{e:.{digits}g}"
                 for e in edges]
        if len(set(texts)) == len(texts):
            return texts
    return [repr(float(e)) for e in edges]


def _quantile_bins(x: np.ndarray, missing: np.ndarray, bins: int):
    """``(codes, texts, edges)``: rows cut at the quantiles of the present values into at most
    ``bins`` ranges ``[a, b)``, the last ``[a, b]``; tied quantiles merge ranges."""
    present = x[~missing]
    finite = present[np.isfinite(present)]
    edges = np.unique(np.quantile(finite if finite.size else np.zeros(1),
                                  np.linspace(0.0, 1.0, bins + 1)))
    # Infinite values join the end ranges, whose edges then say so ([-inf, a), [b, inf]):
    # a quantile through an infinity is NaN.
    if np.any(present == -np.inf):
        edges = np.r_[-np.inf, edges[1:]] if edges.size > 1 else np.r_[-np.inf, edges]
    if np.any(present == np.inf):
        edges = np.r_[edges[:-1], np.inf] if edges.size > 1 else np.r_[edges, np.inf]
    texts = _edge_texts(edges)
    codes = np.searchsorted(edges[1:-1], np.where(missing, edges[0], x), side="right")
    names = [f"[{texts[i]}, {texts[i + 1]}{']' if i == len(edges) - 2 else ')'}"
             for i in range(len(edges) - 1)]
    return codes, names, edges


def _unique_levels(values: np.ndarray, declared):
    """``(codes, levels)`` of present values: declared order, else sorted (by text when the
    values cannot be compared)."""
    if declared is not None:
        where = {plain(v): i for i, v in enumerate(declared)}
        return np.array([where[plain(v)] for v in values.tolist()], dtype=np.intp), \
            list(declared)
    try:
        levels, codes = np.unique(values, return_inverse=True)
    except TypeError:  # mixed types: ordered by type, then by text
        keyed = np.array([f"{type(v).__name__}\x00{v}" for v in values.tolist()])
        _, first, codes = np.unique(keyed, return_index=True, return_inverse=True)
        levels = values[first]
    return codes.reshape(-1).astype(np.intp), list(levels)


def levels(col, name: str, bins):
    """``(codes, texts, edges)`` of one column: each row's level and the levels' labels
    (without the column name), and for a cut numeric column its edges as text (None
    otherwise). Missing values are the last level."""
    kind, values, missing, declared = _column_kind(col, name)
    codes = np.zeros(values.shape[0], dtype=np.intp)
    present = ~missing
    edges = None
    if kind == "numeric" and bins is not None and \
            np.unique(values[present]).size > bins:
        codes[present], texts, cuts = _quantile_bins(values[present],
                                                     np.zeros(int(present.sum()), bool), bins)
        edges = _edge_texts(cuts)
    elif present.any():
        codes[present], found = _unique_levels(values[present], declared)
        texts = _level_texts(found, kind == "numeric")
    else:
        texts = []
    if missing.any():
        codes[missing] = len(texts)
        texts = [*texts, MISSING]
    return codes, texts, edges


# --------------------------------------------------------------------------- several columns


def _cross(columns: list, names: list, bins, n: int):
    """Slices of the crossed columns (each present combination once), in the order of the
    first column, then the second, ...; labels ``a = x & b in [1, 2)``."""
    combined = np.zeros(n, dtype=np.int64)
    parts, notes, collapsed = [], [], []
    for col, name in zip(columns, names):
        codes, texts, edges = levels(col, "by" if name is None else f"by column {name!r}",
                                     bins)
        if codes.shape[0] != n:
            what = "by" if name is None else f"by column {name!r}"
            msg = (f"{what} has {codes.shape[0]} row{'s' if codes.shape[0] != 1 else ''} but "
                   f"y has {n}; pass one label per row"
                   f"{' (or a column name of X, as a str)' if name is None else ''}.")
            raise ValueError(msg)
        combined = combined * max(len(texts), 1) + codes
        parts.append(texts)
        if edges is not None and len(edges) == 2:
            collapsed.append("the labels" if name is None else f"column {name!r}")
        if edges is not None:
            notes.append(f"{name or 'the labels'}: numeric, cut at its quantiles into "
                         f"{len(edges) - 1} ranges; edges {', '.join(edges)}")
    present, codes = np.unique(combined, return_inverse=True)
    labels = []
    for value in present.tolist():
        pieces = []
        for texts, name in zip(reversed(parts), reversed(names)):
            value, j = divmod(value, max(len(texts), 1))
            pieces.append(piece(name, texts[j]))
        labels.append(" & ".join(reversed(pieces)))
    return codes.reshape(-1).astype(np.intp), labels, notes, collapsed


def piece(name, text: str) -> str:
    """The label of one level of a column: ``region = north``, ``age in [31, 45)``,
    ``age missing``."""
    if name is None:
        return text
    if text == MISSING:
        return f"{name} missing"
    return f"{name} in {text}" if text.startswith("[") else f"{name} = {text}"


def column_names(X):
    names = table_column_names(X)
    if names is not None:
        return names
    if isinstance(X, Mapping):
        return list(X.keys())
    return None


def column(X, key, n_cols):
    """Column ``key`` of a DataFrame, a mapping of columns or a 2-D array."""
    names = column_names(X)
    if names is not None:
        if key not in names:
            msg = (f"by names column {plain(key)!r}, which is not in X; X's columns are "
                   f"{names[:20]}.")
            raise ValueError(msg)
        return X[key]
    arr = X if isinstance(X, np.ndarray) else to_numpy(X, "X")
    if isinstance(key, numbers.Integral) and not isinstance(key, bool) and \
            -n_cols <= key < n_cols:
        return arr[:, key]
    msg = (f"by={plain(key)!r} names a column, but X has no column names (an array of {n_cols} "
           f"columns): pass a column index in 0..{n_cols - 1}, or a DataFrame.")
    raise ValueError(msg)


def _is_table(x) -> bool:
    """A DataFrame (pandas, polars) or a 2-D array: columns to cross."""
    if hasattr(x, "columns") and hasattr(x, "shape") and len(x.shape) == 2:
        return True
    return isinstance(x, np.ndarray) and x.ndim == 2 and x.shape[1] > 1


def _is_key(item) -> bool:
    return isinstance(item, (str, numbers.Integral)) and not isinstance(item, (bool, np.bool_))


# --------------------------------------------------------------------------- masks


def _masks(groups: Mapping, n: int) -> Slicing:
    if not groups:
        msg = "by is an empty dict; pass {slice name: boolean mask of the rows}."
        raise ValueError(msg)
    check_aligned(**{str(k): v for k, v in groups.items()})
    labels, members = [], []
    for name, mask in groups.items():
        arr = as_1d(mask, f"by[{name!r}]", allow_empty=True)
        if arr.dtype.kind != "b":
            msg = (f"by[{name!r}] must be a boolean mask of the rows (dtype bool), got "
                   f"dtype {arr.dtype}; pass e.g. X['region'] == 'North'.")
            raise TypeError(msg)
        if arr.shape[0] != n:
            msg = f"by[{name!r}] has {arr.shape[0]} rows but y has {n}; one entry per row."
            raise ValueError(msg)
        if arr.all():
            msg = (f"by[{name!r}] holds every row: there is no rest of the data to "
                   "compare it with. Pass masks of parts of the rows.")
            raise ValueError(msg)
        labels.append(str(name))
        members.append(np.flatnonzero(arr))
    counts = np.zeros(n, dtype=np.intp)
    for rows in members:
        counts[rows] += 1
    codes = None
    if np.all(counts == 1):  # the masks happen to partition the rows
        codes = np.empty(n, dtype=np.intp)
        for i, rows in enumerate(members):
            codes[rows] = i
    return Slicing(labels, members, codes, [], f"{len(labels)} masks")


# --------------------------------------------------------------------------- the entry point


def resolve(groups, X, n: int, bins) -> Slicing:
    """The slices ``groups`` describes over ``n`` rows (``X`` for column names)."""
    if bins is not None:
        bins = check_positive_int(bins, "bins", minimum=2)
    if isinstance(groups, Mapping):
        return _masks(groups, n)
    if groups is None:
        msg = "by is None; pass a column name, a list of them, labels or masks."
        raise TypeError(msg)
    if isinstance(groups, (list, tuple)) and len(groups) == 0:
        msg = ("by is empty; pass a column name of X, a list of them, the labels (one per "
               "row) or a dict of masks.")
        raise ValueError(msg)
    if isinstance(groups, (list, tuple)) and all(
            hasattr(g, "__len__") and not isinstance(g, str) for g in groups):
        sizes = [len(g) for g in groups]
        msg = (f"by is a list of {len(groups)} arrays ({', '.join(map(str, sizes))} rows); "
               "pass one array of labels (one per row), or the columns to cross side by "
               "side: a DataFrame, or np.column_stack(by).")
        raise ValueError(msg)
    if _is_key(groups) or (isinstance(groups, (list, tuple)) and groups and X is not None
                           and all(_is_key(g) for g in groups)
                           and len(groups) != n):
        if X is None:
            msg = (f"by={plain(groups) if _is_key(groups) else [plain(g) for g in groups]!r} "
                   "names a column, but there is no X to take it from; pass the labels "
                   "themselves (an array with one entry per row).")
            raise ValueError(msg)
        keys = [groups] if _is_key(groups) else list(groups)
        n_cols = X.shape[1] if hasattr(X, "shape") and len(X.shape) == 2 else len(keys)
        columns = [column(X, key, n_cols) for key in keys]
        check_aligned(X=X, **{f"by[{i}]": c for i, c in enumerate(columns)
                              if hasattr(c, "iloc")})
        codes, labels, notes, collapsed = _cross(columns, [str(k) for k in keys], bins, n)
        by = " x ".join(str(k) for k in keys)
    elif _is_table(groups):
        names = column_names(groups)
        cols = [groups[c] for c in names] if names is not None else \
            [to_numpy(groups, "by")[:, j] for j in range(groups.shape[1])]
        names = [str(c) for c in names] if names is not None else \
            [f"column {j}" for j in range(len(cols))]
        codes, labels, notes, collapsed = _cross(cols, names, bins, n)
        by = " x ".join(names)
    else:
        name = getattr(groups, "name", None)
        name = None if name is None or callable(name) or name == "" else str(name)
        codes, labels, notes, collapsed = _cross([groups], [name], bins, n)
        by = name or "labels"
    if len(labels) < 2:
        msg = (f"by puts every row in one slice ({labels[0]!r}); slicing needs at least two "
               "slices, so that each can be compared with the rest.")
        if collapsed:
            # Ties: a column that is mostly one value has that value at every quantile.
            msg += (f" The {bins} quantile ranges of {' and '.join(collapsed)} collapsed "
                    "into one: most rows share one value, so the quantiles tie. Cut the "
                    "values yourself (np.digitize or pandas.cut, e.g. 0 / above 0), ask for "
                    "more ranges (bins=20), or slice by the values as categories (as text).")
        raise ValueError(msg)
    order = np.argsort(codes, kind="stable")
    starts = np.searchsorted(codes[order], np.arange(len(labels) + 1))
    members = [order[a:b] for a, b in zip(starts[:-1], starts[1:])]
    return Slicing(labels, members, codes, notes, by)
