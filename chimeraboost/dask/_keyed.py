"""Reports per key -- per slice, per period -- of rows held in dask collections.

Private to :mod:`chimeraboost.dask`; :func:`chimeraboost.dask.slice_report` and
:func:`chimeraboost.dask.skill_over_time` are built on it. Questions this module answers:

- How do the rows of one slice (one period), spread over many blocks, reach one
  accumulator? :func:`keyed_accumulate`: every block updates one pair of accumulators per key
  it holds (and sums each class's weight), the entries of equal keys merge in a tree, one
  ``compute``.
- What does a key cost in memory, and when is it too much? :func:`footprint` and
  :func:`check_footprint` (:data:`LIMIT_MB` per set of keyed accumulators).
- Which distinct values does a column hold (the slices, the classes of ``y``)?
  :func:`distinct_values` -- one pass over that one column.
- What are a key's numbers and intervals? :func:`key_numbers` and :func:`intervals_of`;
  against a fixed prior (the prior of all rows, of the preceding periods):
  :func:`against_prior`.

Each key keeps two accumulators of :mod:`chimeraboost.metrics`: one without replicates for
the point numbers (``ClassificationAccumulator`` with its default score grid, so that they
are exactly what that accumulator gives on the key's rows), and, with intervals, one whose
Poisson bootstrap replicates are kept beside a score grid of :data:`LIGHT_BINS` bins. The
replicates of every sum over rows -- log loss, Brier, their references and skills,
accuracy, the class rates -- do not depend on the grid, so they equal those of an
accumulator with the full grid fed the same rows; the grid's numbers (ROC-AUC, average
precision, the CORP terms) get no interval, and the replicates cost about half a kilobyte
per class column instead of about 100 KB.
"""

from __future__ import annotations

import copy
import re
import warnings

import numpy as np

from .. import metrics as _metrics
from .. import resampling as _resampling
from .._shared.array_checks import _is_missing_value
from .._shared.poisson import group_keys
from .._shared.validation import (
    DegenerateMetricWarning,
    encode_labels,
    to_numpy,
    warn_degenerate,
)
from ._blocks import (
    merge_tree,
    paired_blocks,
    paired_inputs,
    _check_shapes,
    _import_dask,
    _is_dask_frame,
)

# Memory of one set of keyed accumulators (one block's, or a merge's output). A merge task
# holds three such sets (two in, one out), so that a worker's peak stays under 1 GB.
LIMIT_MB = 256
# The score grid of the replicate accumulators: its smallest size. Their sums over rows do
# not depend on it, and the grid's own numbers get no interval.
LIGHT_BINS = 16
# The score grid of the point accumulators (ClassificationAccumulator's default).
POINT_BINS = 4096
# Keys that get no interval: counts of the rows, and the grid's numbers (the replicates keep
# a coarse grid only; MCB's percentiles also sit above the population value).
NO_INTERVAL = ("n", "positives", "roc_auc", "pr_auc", "pr_auc_lift", "calibration_mcb",
               "discrimination_dsc")
# Keyed accumulators merged per task of the reduction tree (a set weighs up to LIMIT_MB).
SPLIT = 2


# --------------------------------------------------------------------------- memory


def footprint(n_classes: int, n_boot: int) -> float:
    """Bytes of one key's accumulators (an upper bound): the point accumulator's score grid
    (3 sums of 4096 bins per class column) and, with ``n_boot``, per replicate every sum
    over rows and the coarse grid (about ``8 (K^2 + K + 2 + 49 C)`` bytes, ``C`` class
    columns: 456 bytes for a binary problem, 1.3 KB for three classes)."""
    K = n_classes
    cols = 1 if K == 2 else K
    point = 8 * (3 * POINT_BINS * cols + K * K + K + cols + 2)
    if not n_boot:
        return float(point)
    per_replicate = 8 * (K * K + K + cols + 2 + 3 * LIGHT_BINS * cols)
    return float(point + (1 + n_boot) * per_replicate)


def check_footprint(n_keys: int, n_classes: int, n_boot: int, what: str, noun: str,
                    fix: str) -> None:
    """Refuse keys whose accumulators would not fit :data:`LIMIT_MB`, naming the limit,
    what each key costs and what to change (``fix``)."""
    each = footprint(n_classes, n_boot)
    total = n_keys * each
    if total <= LIMIT_MB * 2 ** 20:
        return
    fit = int(LIMIT_MB * 2 ** 20 // each)
    msg = (f"{what} makes {n_keys:,} {noun}; their accumulators would need {total / 2 ** 20:,.0f} "
           f"MB on a worker ({each / 1024:,.1f} KB each with {n_classes} classes and "
           f"n_boot={n_boot}), over the limit of {LIMIT_MB} MB per set of accumulators (a "
           f"merge holds three), which keeps a worker under 1 GB. At most {fit:,} fit: {fix}")
    raise ValueError(msg)


# --------------------------------------------------------------------------- one column


def _column_blocks(x, name: str):
    """The blocks of one dask column (array, Series, or a DataFrame's column) as delayed."""
    dask = _import_dask()
    if _is_dask_frame(x):
        return x.to_delayed(), dask
    if hasattr(type(x), "rechunk"):
        return x.to_delayed().ravel().tolist(), dask
    msg = f"{name} is a {type(x).__name__}; pass a dask array, a dask Series, or an array-like."
    raise TypeError(msg)


def _distinct_block(block, name: str):
    """(distinct present values, whether a value is missing) of one block."""
    values = to_numpy(block, name)
    if values.ndim != 1:
        msg = f"{name} must be one column (one value per row), got shape {values.shape}."
        raise ValueError(msg)
    missing = missing_mask(values)
    present = values[~missing]
    try:
        uniq = np.unique(present)
    except TypeError:  # mixed types: kept as Python values
        uniq = np.array(list(dict.fromkeys(present.tolist())), dtype=object)
    return uniq, bool(missing.any())


def missing_mask(values: np.ndarray) -> np.ndarray:
    """Rows whose value is missing (NaN, None, pandas NA / NaT)."""
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind == "M":
        return np.isnat(values)
    if values.dtype.kind == "O":
        return np.fromiter((_is_missing_value(v) for v in values.tolist()), dtype=bool,
                           count=values.shape[0])
    return np.zeros(values.shape[0], dtype=bool)


def distinct_values(x, name: str):
    """``(values, missing)``: the distinct present values of a dask column, sorted (by type,
    then text, when they cannot be compared), and whether any value is missing. One pass
    over that column only."""
    blocks, dask = _column_blocks(x, name)
    part = dask.delayed(_distinct_block, pure=True)
    found = dask.compute(*[part(b, name) for b in blocks])
    missing = any(m for _, m in found)
    values = [v for u, _ in found for v in u.tolist()]
    try:
        return np.unique(np.array(values)) if values else np.array([]), missing
    except TypeError:
        keyed = sorted(dict.fromkeys(values), key=lambda v: (type(v).__name__, str(v)))
        return np.array(keyed, dtype=object), missing


# --------------------------------------------------------------------------- the blocks


def keyed_accumulate(templates, inputs: dict, keyer, n_classes: int, key: str,
                     proba_name: str = "proba", distinct_groups: bool = False) -> dict:
    """Key -> ``(point, replicates, class weights, class rows, groups)`` of the rows of
    each key, merged over all blocks: two accumulators (``replicates`` None without
    intervals), the total ``sample_weight`` of each class (``(K,)``, exact sums), the rows
    of each class (``(K,)`` ints) and, with ``distinct_groups`` and ``groups``, the sorted
    distinct keys of the key's groups (:func:`chimeraboost._shared.poisson.group_keys`, the
    keys its replicates' counts are drawn by; else None).

    ``templates``: the empty ``(point, replicates or None)`` pair; ``inputs``: ``"y"``,
    ``"proba"``, the column the keys are read from (named ``key``: ``"by"``, ``"time"``)
    and optionally ``"sample_weight"`` and ``"groups"``; ``keyer``: a picklable function of
    a block of the key column giving each row's key (an int; -1 for a row of no key).
    ``proba_name``: what the caller calls the probabilities, in error messages.

    The distinct groups are found per block (``np.unique`` of each key's group keys) and
    united in the merges: 8 bytes per distinct (key, group) pair in each merge, whatever the
    number of rows.
    """
    dask = _import_dask()
    present = {name: x for name, x in inputs.items() if x is not None}
    try:
        _check_shapes(present, n_classes)
    except ValueError as exc:
        raise ValueError(_renamed(str(exc), proba_name)) from exc
    by_rows = templates[1] is not None and "groups" not in present
    blocks, where, first = paired_blocks(present, by_rows)
    start = dask.delayed(templates, pure=True)
    update = dask.delayed(_update, pure=True)
    names_of = (key, proba_name, bool(distinct_groups))
    names = tuple(blocks)
    parts = [update(start, keyer, names_of, names, at, row0, *row)
             for at, row0, row in zip(where, first, zip(*blocks.values()))]
    return merge_tree(parts, _merge, SPLIT)


def _renamed(text: str, proba_name: str) -> str:
    """A message of the accumulators, naming the probabilities as the caller does."""
    return text if proba_name == "proba" else re.sub(r"\bproba\b", proba_name, text)


def _update(templates, keyer, names_of, names, where, first_row, *blocks):
    """One block's accumulators per key; an error names the block (``where``) and the
    arguments as the caller does (``names_of``: the key column's name, the probabilities',
    and whether the distinct groups are kept)."""
    key, proba_name, distinct = names_of
    try:
        return _update_block(templates, keyer, key, names, first_row, distinct, *blocks)
    except (ValueError, TypeError) as exc:
        msg = f"{where}: {_renamed(str(exc), proba_name)}"
        raise (ValueError if isinstance(exc, ValueError) else TypeError)(msg) from exc


def _block_arrays(names, blocks) -> dict:
    """The block's inputs as numpy arrays, after the in-memory checks of their pairing."""
    return {name: to_numpy(block, name) for name, block in paired_inputs(names, blocks).items()}


def _update_block(templates, keyer, key_name, names, first_row, distinct, *blocks):
    arrays = _block_arrays(names, blocks)
    keys = keyer(arrays.pop(key_name))
    y, proba = arrays["y"], arrays["proba"]
    w, groups = arrays.get("sample_weight"), arrays.get("groups")
    point_t, reps_t = templates
    # The whole block is checked first, so that a message's positions count from the
    # block's first row, not from the first row of a key.
    copy.deepcopy(point_t).update(y, proba, sample_weight=w)
    codes = encode_labels(y, point_t.classes, "y")
    weight = np.ones(codes.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    K = point_t.classes.shape[0]
    if groups is not None:
        # Each group's key, once per block: the accumulators key its Poisson counts by it
        # (a key passed as the group is its own key), and the distinct groups are counted
        # by it.
        groups = group_keys(groups)
    out = {}
    order = np.argsort(keys, kind="stable")
    found, starts = np.unique(keys[order], return_index=True)
    for key, rows in zip(found.tolist(), np.split(order, starts[1:])):
        if key < 0:
            continue
        w_k = None if w is None else w[rows]
        point = copy.deepcopy(point_t).update(y[rows], proba[rows], sample_weight=w_k)
        reps = None
        if reps_t is not None:
            # A row's Poisson count is keyed by its position among all rows (as groups of
            # one row: the same keys), or by its group.
            units = groups[rows] if groups is not None else rows.astype(np.int64) + first_row
            reps = copy.deepcopy(reps_t).update(y[rows], proba[rows], sample_weight=w_k,
                                                groups=units)
        kept = None
        if distinct and groups is not None:
            kept = np.unique(groups[rows])
        out[key] = (point, reps, np.bincount(codes[rows], weights=weight[rows], minlength=K),
                    np.bincount(codes[rows], minlength=K), kept)
    return out


def _merge(first: dict, *others) -> dict:
    """Merged keyed accumulators, in new objects (a task run again counts nothing twice)."""
    out = copy.deepcopy(first)
    for other in others:
        for key, entry in other.items():
            out[key] = _add(out[key], entry) if key in out else copy.deepcopy(entry)
    return out


def _add(mine: tuple, theirs: tuple) -> tuple:
    """``theirs`` added to ``mine`` (changed in place); returns ``mine``."""
    point, reps, class_w, class_n, groups = mine
    point.merge(theirs[0])
    if reps is not None:
        reps.merge(theirs[1])
    if groups is not None:
        groups = np.union1d(groups, theirs[4])
    return point, reps, class_w + theirs[2], class_n + theirs[3], groups


def merged(entries) -> tuple:
    """One entry of all those given (e.g. of all slices: all rows)."""
    entries = list(entries)
    out = copy.deepcopy(entries[0])
    for entry in entries[1:]:
        out = _add(out, entry)
    return out


# --------------------------------------------------------------------------- numbers


def key_numbers(pair, level, units: str, caught: dict, label) -> tuple:
    """``(values, intervals, replicates)`` of one key: every number of the point
    accumulator's report and, with ``level``, a percentile interval of each sum over rows
    and the replicates they were read from. A key whose rows all weigh 0 gets ``({}, {},
    None)``; degenerate-input warnings are kept in ``caught`` (message -> labels) to be said
    once (:func:`say`)."""
    point, reps = pair[:2]
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", DegenerateMetricWarning)
            values = point.report()
    except ValueError:  # every row of the key weighs 0: its numbers do not exist
        caught.setdefault("every row weighs 0 (sample_weight): every number is NaN.",
                          []).append(label)
        return {}, {}, None
    for w in seen:
        if issubclass(w.category, DegenerateMetricWarning):
            caught.setdefault(str(w.message), []).append(label)
        else:  # pragma: no cover - anything else is not ours to hide
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if level is None or reps is None:
        return values, {}, None
    with np.errstate(invalid="ignore", divide="ignore"):
        replicates = reps.replicates()
    keys = [k for k, v in values.items() if k not in NO_INTERVAL and k in replicates
            and np.ndim(v) == 0]
    return values, intervals_of(values, replicates, keys, reps.n_boot, point.n, level,
                                units), replicates


def intervals_of(values: dict, replicates: dict, keys, n_boot: int, n_rows: int, level,
                 units: str) -> dict:
    """Key -> (low, high) percentile intervals of ``replicates`` around ``values``."""
    boot = _resampling.BootstrapResult({k: values[k] for k in keys},
                                       {k: replicates[k] for k in keys}, n_boot,
                                       n_rows=n_rows, ci_method="percentile", units=units)
    with warnings.catch_warnings():
        # A key's replicates left undefined (a replicate without a class) are counted by
        # BootstrapResult; the warnings of few rows are said once per key set by callers.
        warnings.simplefilter("ignore")
        return {k: tuple(v) for k, v in boot.intervals(level=level, metrics=keys,
                                                       warn=False).items()}


def say(caught: dict, what: str) -> None:
    """One DegenerateMetricWarning per message, naming the keys (``what``: "Slice",
    "Period") it came from."""
    for message, labels in caught.items():
        shown = ", ".join(repr(label) for label in labels[:6])
        more = f" and {len(labels) - 6} more" if len(labels) > 6 else ""
        warn_degenerate(f"{what}{'s' if len(labels) > 1 else ''} {shown}{more}: {message}")


def against_prior(prior, values: dict, replicates: dict | None) -> tuple:
    """Skills of rows against the constant forecast ``prior`` (held fixed in the
    replicates), from their log loss, Brier score and class rates: ``(point, reps)``, each
    with ``log_loss_ref``, ``brier_ref``, ``log_loss_skill``, ``brier_skill`` (``reps``:
    arrays over the replicates, None without them). The references are
    :func:`chimeraboost.metrics.reference_log_loss` and ``reference_brier`` of ``prior`` on
    rows with the rates seen."""
    def numbers(ll, br, rate):
        rate = np.asarray(rate, dtype=np.float64)
        if not np.all(np.isfinite(rate)):
            return np.nan, np.nan, np.nan, np.nan
        r = np.array([1.0 - rate, rate]) if rate.ndim == 0 else rate
        ll_ref = _metrics.reference_log_loss(prior, outcome_prior=r)
        br_ref = _metrics.reference_brier(prior, outcome_prior=r)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (ll_ref, br_ref, 1.0 - ll / ll_ref if np.isfinite(ll_ref) and ll_ref > 0
                    else np.nan, 1.0 - br / br_ref if br_ref > 0 else np.nan)

    keys = ("log_loss_ref", "brier_ref", "log_loss_skill", "brier_skill")
    point = dict(zip(keys, (float(v) for v in numbers(values["log_loss"], values["brier"],
                                                      values["base_rate"]))))
    if replicates is None:
        return point, None
    rows = np.array([numbers(a, b, c) for a, b, c in zip(
        replicates["log_loss"], replicates["brier"], replicates["base_rate"])],
        dtype=np.float64).reshape(-1, 4)
    return point, {key: rows[:, j] for j, key in enumerate(keys)}
