"""How rows held in dask collections reach an accumulator: blocks paired by position, one
update per block on the worker that holds it, a tree of merges, one compute.

Private to :mod:`chimeraboost.dask`. :func:`accumulate` is the one entry: it checks the
shapes of the whole inputs, pairs the blocks of ``y``, the predictions, ``sample_weight`` and
``groups`` (partition by partition for frames with the same known divisions, else cut at
common row boundaries), and hands each block, with the position of its first row among all
rows (what keys its Poisson bootstrap counts), to an update of a copy of the template.
"""

from __future__ import annotations

import copy

import numpy as np

from .. import resampling
from .._report import Report
from .._shared.units import check_n_boot
from .._shared.validation import (
    check_1d_shape,
    check_aligned,
    check_level,
    check_proba_shape,
    to_numpy,
)

# Accumulators merged per task of the reduction tree: few levels (log8 of the blocks), small
# tasks (eight accumulators of kilobytes each).
SPLIT_EVERY = 8


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


def describe(x) -> str:
    """A short name of a value for a message: a dask collection's kind, name and shape (its
    repr may be pages long), else the value's repr, cut."""
    if _is_dask(x):
        name = getattr(x, "name", None)
        named = f" {name!r}" if isinstance(name, str) and _is_dask_frame(x) else ""
        dims = _shape(x) if hasattr(type(x), "rechunk") or _is_dask_frame(x) else ("?",)
        shape = "(" + ", ".join(map(str, dims)) + ("," if len(dims) == 1 else "") + ")"
        return f"<dask {type(x).__name__}{named} of shape {shape}>"
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _in_memory(x, name: str):
    """``x`` as a numpy array when it is a dask collection (a column of targets), else as is."""
    if not _is_dask(x):
        return x
    if _is_dask_frame(x) and len(getattr(x, "columns", ())) > 1:
        msg = f"{name} must be one column of targets, got a dask DataFrame of {len(x.columns)}."
        raise ValueError(msg)
    return to_numpy(x.compute(), name)


def merge_tree(parts: list, merge, split: int = SPLIT_EVERY):
    """The one result of the delayed ``parts`` (one per block, at least one): merged
    ``split`` at a time by ``merge(first, *others)`` (so that a task holds ``split + 1`` of
    them), level by level, then computed."""
    dask = _import_dask()
    merge = dask.delayed(merge, pure=True)
    while len(parts) > 1:
        parts = [merge(*parts[i:i + split]) for i in range(0, len(parts), split)]
    return dask.compute(parts[0])[0]


def accumulate(template, inputs: dict, n_classes=None):
    """One update per block, a tree of merges, one compute: the merged accumulator.

    ``inputs`` maps ``"y"``, the prediction's name, and optionally ``"sample_weight"`` and
    ``"groups"`` to dask collections or array-likes (None: absent). When the template keeps
    bootstrap replicates keyed by rows (``n_boot`` without ``groups``), every block is told
    the position of its first row among all rows.
    """
    dask = _import_dask()
    present = {name: x for name, x in inputs.items() if x is not None}
    # Shapes of the whole inputs, checked here: a block would report its own shape.
    _check_shapes(present, n_classes)
    by_rows = getattr(template, "n_boot", 0) and "groups" not in present
    blocks, where, first = paired_blocks(present, by_rows)
    # The empty accumulator is one node of the graph, so it travels to each worker once.
    start = dask.delayed(template, pure=True)
    update = dask.delayed(_update, pure=True)
    names = tuple(blocks)
    parts = [update(start, names, at, row0, *row)
             for at, row0, row in zip(where, first, zip(*blocks.values()))]
    # Accumulators with replicates weigh megabytes: merged two at a time, so that a task
    # holds three of them, not nine.
    accumulator = merge_tree(parts, _merge, 2 if getattr(template, "n_boot", 0) else SPLIT_EVERY)
    if accumulator.n == 0:  # e.g. a frame filtered to no rows: every partition empty
        msg = "y is empty; at least one row is needed."
        raise ValueError(msg)
    return accumulator


# Suffix of the entries that carry the pandas index of a dask frame (arrays path).
_INDEX = " index"


def report_with_intervals(acc, point: dict, reps: dict, keys, level: float, units: str,
                          task: str, reference: str) -> Report:
    """The merged accumulator's report ``point``, with percentile intervals of ``keys`` from
    its replicates ``reps`` (``units``: what a replicate resampled, rows or groups)."""
    boot = resampling.BootstrapResult({key: point[key] for key in keys},
                                      {key: reps[key] for key in keys}, acc.n_boot,
                                      n_rows=acc.n, ci_method="percentile", units=units)
    ci = boot.intervals(level=level, metrics=keys)
    dropped = {key: boot.n_dropped(key) for key in keys}
    return Report(point, "predictions", task, reference, ci=ci, ci_level=level,
                  n_boot=acc.n_boot, n_dropped=dropped, ci_method="percentile")


def paired_blocks(present: dict, by_rows: bool):
    """The blocks of the inputs paired by rows: ``(blocks, where, first)`` -- a list of
    delayed blocks per input, each block's name for messages, and the position of its first
    row among all rows (None unless ``by_rows``)."""
    dask = _import_dask()
    if _same_partitions(present):
        # Frames with the same known divisions: partition i of each input holds the rows of
        # the same index range, so they pair up as they are -- no pass to count rows first.
        # The accumulator compares the pandas indexes of each partition itself.
        blocks = {name: x.to_delayed() for name, x in present.items()}
        where = [f"partition {i}" for i in range(len(next(iter(blocks.values()))))]
        first = [None] * len(where)
        if by_rows:  # the counts are keyed by row position: the partitions' rows are counted
            lengths = dask.compute(next(iter(present.values())).map_partitions(len))[0]
            first = np.concatenate([[0], np.cumsum(np.asarray(lengths))[:-1]]).tolist()
        return blocks, where, first
    arrays = _as_dask_arrays(present)
    lengths = {k: a.shape[0] for k, a in arrays.items() if not k.endswith(_INDEX)}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{k} has {n}" for k, n in lengths.items())
        msg = f"Inconsistent numbers of rows: {shown}; pass one value per row of y."
        raise ValueError(msg)
    if arrays["y"].shape[0] == 0:
        msg = "y is empty; at least one row is needed."
        raise ValueError(msg)
    arrays = _common_row_chunks(arrays)
    blocks = {name: a.to_delayed().ravel().tolist() for name, a in arrays.items()}
    bounds = np.cumsum((0,) + arrays["y"].chunks[0])
    where = [f"block {i} (rows {a} to {b - 1})"
             for i, (a, b) in enumerate(zip(bounds[:-1].tolist(), bounds[1:].tolist()))]
    first = bounds[:-1].tolist() if by_rows else [None] * len(where)
    return blocks, where, first


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


def _update(template, names, where, first_row, *blocks):
    """The accumulator of one block (a copy: the template is shared by every task).

    An error names the block (``where``): positions in its message count from the block's
    first row.
    """
    try:
        return _update_block(template, names, first_row, *blocks)
    except (ValueError, TypeError) as exc:
        msg = f"{where}: {exc}"
        try:
            located = type(exc)(msg)
        except Exception:  # noqa: BLE001 - an exception class with another signature
            located = (ValueError if isinstance(exc, ValueError) else TypeError)(msg)
        raise located from exc


def paired_inputs(names, blocks) -> dict:
    """A block's inputs by name, once their rows are known to pair up: the in-memory rule
    (inputs carrying different pandas indexes are refused) on partitions of frames."""
    inputs = dict(zip(names, blocks))
    indexes = {name[:-len(_INDEX)]: inputs.pop(name) for name in names if name.endswith(_INDEX)}
    if len(indexes) > 1:
        # Frames counted and cut into arrays: their indexes travel beside the values.
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
    check_aligned(**inputs)  # pandas partitions: their indexes, as the in-memory report
    return inputs


def check_interval_params(ci, n_boot, ci_method, groups):
    """The level of the intervals (None: none), after checking what goes with it."""
    if ci is None:
        if groups is not None:
            msg = ("groups= says what the intervals resample, but there are none (ci=None); "
                   "pass ci=0.95, or leave groups out.")
            raise ValueError(msg)
        return None
    level = check_level(ci, "ci")
    check_n_boot(n_boot)
    check_percentile(resampling.check_ci_method(ci_method), "intervals")
    return level


def check_percentile(method: str, what: str) -> None:
    """On dask only percentile intervals (or bands): the others need the jackknife."""
    if method != "percentile":
        msg = (f"ci_method={method!r} needs the jackknife (the metrics with blocks of rows "
               "left out), which accumulators merged across blocks do not hold; on dask "
               f"the {what} are percentile {what}: pass ci_method='percentile'.")
        raise ValueError(msg)


def _update_block(template, names, first_row, *blocks):
    inputs = paired_inputs(names, blocks)
    y, prediction = (inputs.pop(name) for name in list(inputs)[:2])
    extra = {"groups": inputs["groups"]} if "groups" in inputs else {}
    if first_row is not None:
        extra["first_row"] = int(first_row)
    return copy.deepcopy(template).update(y, prediction,
                                          sample_weight=inputs.get("sample_weight"), **extra)


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
