"""Is the model any good, when its predictions live on a Dask cluster?

The reports of :mod:`chimeraboost.metrics`, on dask arrays and DataFrames too large for one
machine's memory. Questions worth asking, and which function answers each:

- How good are the probabilities of a classifier, scored on a dask array or DataFrame?
  :func:`classification_report` -- the keys of
  :func:`chimeraboost.metrics.classification_report`.
- How far off are the numbers of a regressor? :func:`regression_report` -- the keys of
  :func:`chimeraboost.metrics.regression_report`.

How it is computed: each block of rows goes through one update of a
:class:`chimeraboost.metrics.ClassificationAccumulator` (or ``RegressionAccumulator``) on the
worker that holds it, the accumulators -- kilobytes, whatever the number of rows -- are merged
in a tree (eight at a time), and only the merged one travels back: one ``compute``, on whatever
scheduler is active (a ``dask.distributed.Client`` if one was created, else dask's default).
Rows are paired by position. Dask DataFrames and Series with the same known divisions (e.g.
columns of one frame made by ``from_pandas`` or ``set_index``) pair up partition by partition
as they are; otherwise -- unknown divisions, as ``read_csv`` gives, or dask arrays -- the
blocks of ``y``, the predictions and ``sample_weight`` are cut at common row boundaries
(DataFrame partitions are counted first, which reads them once more). As in memory, inputs
that carry different pandas indexes are refused rather than paired wrongly: two dask frames
have their indexes compared block by block (a dask array carries none and is paired by
position).

What is exact and what is approximate is the accumulators': log loss, Brier, their references
and skills, accuracy, the regression losses and ``r2`` equal the in-memory report to float
rounding; ``roc_auc``, ``pr_auc`` and the calibration decomposition come from a fine grid of
scores, within the bounds their docstrings state (exact when scores take few distinct values).
Input that is not a dask collection (numpy, pandas, lists) takes the in-memory path and gives
exactly the in-memory report; dask is then not needed.

Many fits rather than many rows -- ``cross_validate``, ``GridSearchCV``,
:func:`chimeraboost.compare.compare_cv` -- need nothing from this module: they run unchanged
under ``joblib.parallel_backend("dask")`` (the guide "Past one machine").

dask is an optional dependency: ``pip install "chimeraboost[dask]"``.
"""

from __future__ import annotations

import copy

import numpy as np

from ._shared.api import public
from . import metrics as _metrics
from ._shared.validation import (
    check_1d_shape,
    check_aligned,
    check_classes,
    check_proba_shape,
    check_same_length,
    label_columns,
    to_numpy,
)

__all__ = ["classification_report", "regression_report"]

# Accumulators merged per task of the reduction tree: few levels (log8 of the blocks), small
# tasks (eight accumulators of kilobytes each).
SPLIT_EVERY = 8


@public(legacy=("sample_weight", "baseline"))
def classification_report(y, proba, classes, *, sample_weight=None, baseline=None) -> dict:
    """:func:`chimeraboost.metrics.classification_report` of rows held in dask collections.

    Parameters
    ----------
    y : dask array or dask Series of shape (n,), or array-like
        True labels (strings allowed), each one of ``classes``.
    proba : dask array or dask DataFrame of shape (n, K), or (n,) for binary; or array-like
        Predicted probabilities. Array columns are in the order of ``classes``; a
        DataFrame's columns are matched to ``classes`` by label, as the in-memory report
        does. A 1-D input is the probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : dask array or dask Series of shape (n,), or array-like, default=None
    baseline : array-like of targets, default=None
        Where the no-skill forecast's class prior comes from: ``None`` for the scored ``y``,
        ``y_train`` for the prior the model could have known. A dask collection is computed
        first (it is one column of labels).

    Returns
    -------
    dict
        The keys of :func:`chimeraboost.metrics.classification_report`. ``roc_auc``,
        ``pr_auc``, ``pr_auc_lift`` and the calibration decomposition are the accumulator's
        grid approximations when any input is a dask collection
        (:class:`chimeraboost.metrics.ClassificationAccumulator` states the bounds).

    Raises
    ------
    ValueError
        Inputs of different lengths or shapes (the message names them), dask frames with
        different pandas indexes, and anything the in-memory report refuses (labels not in
        ``classes``, rows not summing to 1, ...). An error found in one block starts with
        ``"block i (rows a to b): "`` (rows counted from 0 over the whole input), or
        ``"partition i: "`` for frames paired partition by partition; positions in the rest of
        the message count from the block's first row.

    Examples
    --------
    >>> import dask.array as da
    >>> y = da.from_array(np.array([0, 0, 1, 1] * 25), chunks=30)
    >>> p = da.from_array(np.array([0.2, 0.4, 0.6, 0.9] * 25), chunks=45)
    >>> r = classification_report(y, p, classes=[0, 1])
    >>> r["n"], round(r["brier"], 4), round(r["brier_skill"], 4), r["roc_auc"]
    (100, 0.185, 0.63, 1.0)
    """
    inputs = {"y": y, "proba": proba, "sample_weight": sample_weight}
    if not any(_is_dask(x) for x in inputs.values()):
        return _metrics.classification_report(y, proba, classes, sample_weight=sample_weight,
                                               baseline=baseline)
    classes = check_classes(classes)
    if _is_dask_frame(proba):
        order = label_columns(proba, classes, "proba")
        if order is not None:
            inputs["proba"] = proba[[proba.columns[i] for i in order]]
    template = _metrics.ClassificationAccumulator(classes,
                                                  baseline=_in_memory(baseline, "baseline"))
    return _accumulate(template, inputs, n_classes=len(classes))


@public(legacy=("sample_weight", "baseline"))
def regression_report(y, pred, *, sample_weight=None, baseline=None) -> dict:
    """:func:`chimeraboost.metrics.regression_report` of rows held in dask collections.

    Parameters
    ----------
    y : dask array or dask Series of shape (n,), or array-like
        True values.
    pred : dask array or dask Series of shape (n,), or array-like
        Predictions.
    sample_weight : dask array or dask Series of shape (n,), or array-like, default=None
    baseline : array-like of targets, default=None
        Where the no-skill forecasts (mean and median) come from: ``None`` for the scored
        ``y``, ``y_train`` for what the model could have known. A dask collection is computed
        first (it is one column of targets).

    Returns
    -------
    dict
        The keys of :func:`chimeraboost.metrics.regression_report`. With ``baseline=None``,
        ``baseline_median``, ``mae_ref`` and ``mae_skill`` are the accumulator's grid
        approximations when any input is a dask collection
        (:class:`chimeraboost.metrics.RegressionAccumulator` states the bound); the rest is
        exact to float rounding.

    Raises
    ------
    ValueError
        Inputs of different lengths or shapes (the message names them), dask frames with
        different pandas indexes, and anything the in-memory report refuses (NaN, negative
        weights, ...). An error found in one block names it, as
        :func:`classification_report` says.

    Examples
    --------
    >>> import dask.array as da
    >>> y = da.from_array(np.arange(10.0), chunks=4)
    >>> r = regression_report(y, y + 1.0)
    >>> r["n"], r["mse"], round(r["r2"], 4)   # every error is 1; Var(y) = 8.25
    (10, 1.0, 0.8788)
    """
    inputs = {"y": y, "pred": pred, "sample_weight": sample_weight}
    if not any(_is_dask(x) for x in inputs.values()):
        return _metrics.regression_report(y, pred, sample_weight=sample_weight,
                                          baseline=baseline)
    template = _metrics.RegressionAccumulator(baseline=_in_memory(baseline, "baseline"))
    return _accumulate(template, inputs)


# --------------------------------------------------------------------------- the plumbing


def _is_dask(x) -> bool:
    """A dask collection (array, DataFrame, Series, Delayed), told without importing dask."""
    return callable(getattr(x, "__dask_graph__", None))


def _is_dask_frame(x) -> bool:
    # Looked up on the class: a Delayed answers every attribute with another Delayed.
    return _is_dask(x) and hasattr(type(x), "to_dask_array")


def _import_dask():
    try:
        import dask
        import dask.array
    except ImportError as exc:
        msg = ("chimeraboost.dask needs dask, an optional dependency: "
               'pip install "chimeraboost[dask]".')
        raise ImportError(msg) from exc
    return dask


def _in_memory(x, name: str):
    """``x`` as a numpy array when it is a dask collection (a column of targets), else as is."""
    if not _is_dask(x):
        return x
    if _is_dask_frame(x) and len(getattr(x, "columns", ())) > 1:
        msg = f"{name} must be one column of targets, got a dask DataFrame of {len(x.columns)}."
        raise ValueError(msg)
    return to_numpy(x.compute(), name)


def _accumulate(template, inputs: dict, n_classes=None) -> dict:
    """One update per block, a tree of merges, one compute; the merged accumulator's report."""
    dask = _import_dask()
    present = {name: x for name, x in inputs.items() if x is not None}
    # Shapes of the whole inputs, checked here: a block would report its own shape.
    _check_shapes(present, n_classes)
    if _same_partitions(present):
        # Frames with the same known divisions: partition i of each input holds the rows of
        # the same index range, so they pair up as they are -- no pass to count rows first.
        # The accumulator compares the pandas indexes of each partition itself.
        blocks = {name: x.to_delayed() for name, x in present.items()}
        where = [f"partition {i}" for i in range(len(next(iter(blocks.values()))))]
    else:
        arrays = _as_dask_arrays(present)
        check_same_length(**{k: a for k, a in arrays.items() if not k.endswith(_INDEX)})
        if arrays["y"].shape[0] == 0:
            msg = "y is empty; at least one row is needed."
            raise ValueError(msg)
        arrays = _common_row_chunks(arrays)
        blocks = {name: a.to_delayed().ravel().tolist() for name, a in arrays.items()}
        bounds = np.cumsum((0,) + arrays["y"].chunks[0])
        where = [f"block {i} (rows {a} to {b - 1})"
                 for i, (a, b) in enumerate(zip(bounds[:-1].tolist(), bounds[1:].tolist()))]
    # The empty accumulator is one node of the graph, so it travels to each worker once.
    start = dask.delayed(template, pure=True)
    update = dask.delayed(_update, pure=True)
    names = tuple(blocks)
    parts = [update(start, names, at, *row) for at, row in zip(where, zip(*blocks.values()))]
    merge = dask.delayed(_merge, pure=True)
    while len(parts) > 1:
        parts = [merge(*parts[i:i + SPLIT_EVERY]) for i in range(0, len(parts), SPLIT_EVERY)]
    (accumulator,) = dask.compute(parts[0])
    if accumulator.n == 0:  # e.g. a frame filtered to no rows: every partition empty
        msg = "y is empty; at least one row is needed."
        raise ValueError(msg)
    return accumulator.report()


# Suffix of the entries that carry the pandas index of a dask frame (arrays path).
_INDEX = " index"


def _shape(x) -> tuple:
    """The shape of a whole input, rows shown as ``"?"`` where dask does not know them."""
    if _is_dask_frame(x):
        return ("?",) if x.ndim == 1 else ("?", len(x.columns))
    shape = getattr(x, "shape", None)
    if shape is None or not _is_dask(x):
        shape = to_numpy(x, "input").shape
    return tuple("?" if isinstance(n, float) and np.isnan(n) else int(n) for n in shape)


def _check_shapes(inputs: dict, n_classes) -> None:
    """The in-memory report's shape checks, on the whole inputs (emptiness is checked once
    the rows are counted)."""
    for name, x in inputs.items():
        if _is_dask(x) and not _is_dask_frame(x) and not hasattr(type(x), "rechunk"):
            continue  # a Delayed: refused by name with the arrays
        if name == "proba":
            check_proba_shape(_shape(x), n_classes, name, empty=False)
        else:
            check_1d_shape(_shape(x), name)


def _same_partitions(inputs: dict) -> bool:
    """Every input a dask DataFrame or Series, all with the same known partition boundaries.

    Unknown divisions (``(None, ...)``, as ``read_csv`` and ``from_delayed`` give) say nothing
    about where the rows of each partition are: two such frames with as many partitions may
    hold 100 + 200 rows against 200 + 100, so they are counted and cut instead.
    """
    if not all(_is_dask_frame(x) for x in inputs.values()):
        return False
    first, *rest = inputs.values()
    if not first.known_divisions:
        return False
    return all(x.npartitions == first.npartitions and x.divisions == first.divisions
               for x in rest)


def _update(template, names, where, *blocks):
    """The accumulator of one block (a copy: the template is shared by every task).

    An error names the block (``where``): positions in its message count from the block's
    first row.
    """
    try:
        return _update_block(template, names, *blocks)
    except (ValueError, TypeError) as exc:
        msg = f"{where}: {exc}"
        try:
            located = type(exc)(msg)
        except Exception:  # noqa: BLE001 - an exception class with another signature
            located = (ValueError if isinstance(exc, ValueError) else TypeError)(msg)
        raise located from exc


def _update_block(template, names, *blocks):
    inputs = dict(zip(names, blocks))
    indexes = {name[:-len(_INDEX)]: inputs.pop(name) for name in names if name.endswith(_INDEX)}
    if len(indexes) > 1:
        # Frames counted and cut into arrays: their indexes travel beside the values, so the
        # in-memory rule holds -- inputs carrying different pandas indexes are refused.
        import pandas as pd  # noqa: PLC0415 - present: the inputs were pandas partitions

        check_aligned(**{name: pd.Series(np.zeros(len(idx)), index=pd.Index(idx))
                         for name, idx in indexes.items()})
    rows = {name: len(block) for name, block in inputs.items()}
    if len(set(rows.values())) > 1:
        # Only partitions of dask DataFrames can get here unequal (arrays are cut to common
        # boundaries first): frames with the same divisions whose indexes differ.
        parts = ", ".join(f"{name} has {n}" for name, n in rows.items())
        msg = (f"Inconsistent numbers of rows in one partition: {parts}. The inputs have the "
               "same divisions but different indexes, so their rows cannot be paired; pass "
               "columns of one DataFrame, or align them first.")
        raise ValueError(msg)
    y, prediction, *weight = inputs.values()
    return copy.deepcopy(template).update(y, prediction,
                                          sample_weight=weight[0] if weight else None)


def _merge(first, *others):
    """Merged accumulators, in a new object: inputs stay as they were, so a task that is run
    again (a worker lost) cannot count a block twice."""
    out = copy.deepcopy(first)
    for other in others:
        out.merge(other)
    return out


def _as_dask_arrays(inputs: dict) -> dict:
    """Every input as a dask array with known row counts; rows stay where they are."""
    import dask
    import dask.array as da

    frames = {name: x for name, x in inputs.items() if _is_dask_frame(x)}
    # The row counts of every DataFrame partition, in one pass over the data.
    lengths = dict(zip(frames, dask.compute(*(x.map_partitions(len) for x in frames.values()))))
    out = {}
    for name, x in inputs.items():
        if name in frames:
            arr = _frame_values(x, lengths[name])
            if len(frames) > 1:
                out[name + _INDEX] = _frame_values(x, lengths[name], index=True)
        elif isinstance(x, da.Array):
            arr = x
        elif _is_dask(x):
            msg = (f"{name} is a {type(x).__name__}; pass a dask array, a dask Series or "
                   "DataFrame, or an array-like.")
            raise TypeError(msg)
        else:
            arr = da.from_array(to_numpy(x, name), chunks=-1)
        if any(np.isnan(c) for c in arr.chunks[0]):
            arr = arr.compute_chunk_sizes()  # e.g. after boolean indexing
        out[name] = arr
    return out


def _frame_values(x, lengths, index: bool = False):
    """A dask Series / DataFrame (or its index) as a dask array whose blocks are its partitions.

    Each partition is converted as the in-memory report converts pandas input (strings,
    categoricals and nullable numbers arrive as their values), not by dask's own converter,
    which warns about such columns and may turn them back into strings.
    """
    import dask
    import dask.array as da

    dtypes = [x.index.dtype] if index else [x.dtype] if x.ndim == 1 else list(x.dtypes)
    numeric = all(isinstance(d, np.dtype) and d.kind in "biuf" for d in dtypes)
    dtype = np.result_type(*dtypes) if numeric else np.dtype(object)
    tail = () if index or x.ndim == 1 else (len(x.columns),)
    values = dask.delayed(_index_values if index else _values, pure=True)
    blocks = [da.from_delayed(values(part), shape=(int(n),) + tail, dtype=dtype)
              for part, n in zip(x.to_delayed(), lengths)]
    return da.concatenate(blocks, axis=0)


def _values(part):
    return to_numpy(part, "a partition")


def _index_values(part):
    return np.asarray(part.index, dtype=object if part.index.dtype.kind not in "biuf" else None)


def _common_row_chunks(arrays: dict) -> dict:
    """The arrays cut at every row boundary any of them has (no row moves between blocks
    that did not share it), columns in one block."""
    bounds = np.unique(np.concatenate([np.cumsum((0,) + a.chunks[0]) for a in arrays.values()]))
    rows = tuple(int(c) for c in np.diff(bounds)) or (0,)
    return {name: a.rechunk((rows,) + (-1,) * (a.ndim - 1)) for name, a in arrays.items()}
