"""What the command line computes on a file of predictions: ``report FILE`` and ``table FILE``.

Questions answered here (:mod:`chimeraboost.cli._main` parses the arguments and prints):

- Is the system that wrote this column any good? :func:`file_report` -- the column is read
  by :func:`read_kind` (probabilities, scores, a 0/1 rule or predictions) and scored by
  :func:`chimeraboost.report`, exactly as a fitted model making those predictions would be;
  ``--baseline-score`` makes the paired comparison of :func:`chimeraboost.report` with a
  fitted baseline.
- How do several systems' columns compare on the same rows? :func:`file_table` --
  :func:`chimeraboost.compare.holdout_table` with each column as an array.
- The same report of a file too large for memory? :func:`stream_report` -- the file is read
  a chunk of rows at a time (:func:`chimeraboost.cli._files.iter_columns`) into the mergeable
  accumulators of :mod:`chimeraboost.metrics`; memory holds one chunk, whatever the file's
  size. Bootstrap intervals, the paired bootstrap, DeLong's test and recall@k need every row
  at once and are not computed; ROC AUC, PR AUC and the calibration terms come from the
  accumulator's fine score grid. :func:`streams` says when a file is streamed.

Nothing is recomputed here: a column becomes a "recorded" estimator whose
``predict_proba`` / ``decision_function`` / ``predict`` return the file's values for the row
numbers it is given, so every number comes from :mod:`chimeraboost.metrics` through the
library's own report and holdout table.
"""

from __future__ import annotations

import math
import os
from typing import NamedTuple

import numpy as np

from . import _files
from ._slices import file_slices
from ..compare import holdout_table
from .._shared.facts import ABOUT_THE_ROWS, NEEDS_PROBA
from .._shared.format import Col, json_ready, table, wrap
from .._shared.predictions import Predictions, kind_of, recorded, row_numbers
from .._shared.progress import working
from .._report import Report, report
from ..resampling import DEFAULT_CI_METHOD

__all__ = ["file_report", "file_table", "read_kind", "stream_report", "streams", "to_json"]

KINDS = ("probabilities", "scores", "rule", "predictions")


# --------------------------------------------------------------------------- the target


def read_target(cells, column, path, *, classes=None, regression=False, pos_label=None):
    """``(y, classes)``: ``classes`` None for a regression.

    The rule: ``--regression``, or a numeric target with more than two distinct values, is a
    regression; otherwise the target must hold two classes (the second of ``classes``, or
    ``pos_label``, or else the second of the sorted labels, is the positive class).
    """
    y, classes = _read_target(cells, column, path, classes, regression)
    return y, positive_last(classes, pos_label, column)


def positive_last(classes, pos_label, column):
    """``classes`` with ``pos_label`` (``--pos-label``, compared as text) second."""
    if pos_label is None or classes is None:
        return classes
    text = _label_text(np.asarray(classes))
    hits = np.flatnonzero(text == str(pos_label).strip())
    if hits.size != 1:
        msg = (f"--pos-label {pos_label!r} is not a label of column {column!r}, whose "
               f"classes are {text.tolist()}; name one of them.")
        raise ValueError(msg)
    return np.asarray(classes)[[1 - hits[0], hits[0]]]


def _read_target(cells, column, path, classes, regression):
    y = _files.labels(cells, column, path)
    if regression:
        if y.dtype.kind not in "iuf":
            y = _files.numbers(cells, column, path)  # names the first non-number
        return y.astype(np.float64), None
    if classes is not None:
        given = given_classes(classes)
        if y.dtype.kind in "iuf" and given.dtype.kind in "iuf":
            unknown = sorted(set(y[~np.isin(y, given)].tolist()))
        else:  # text: both compared as the text of each label
            y, given = _label_text(y), _label_text(given)
            unknown = sorted(set(y.tolist()) - set(given.tolist()))
        if unknown:
            msg = (f"{path}: column {column!r} holds labels {unknown[:5]} that are not in "
                   f"--classes {list(classes)}.")
            raise ValueError(msg)
        return y, given
    found = np.unique(y)
    if y.dtype.kind in "iuf" and found.size > 2:
        return y.astype(np.float64), None
    if found.size == 2:
        return y, found
    if y.dtype.kind in "iu" and set(found.tolist()) <= {0, 1}:
        return y, np.array([0, 1])  # one class present; 0/1 says what the other is
    shown = found.tolist()[:6]
    msg = (f"{path}: column {column!r} holds {found.size} label{'s' if found.size != 1 else ''} "
           f"{shown}{' ...' if found.size > 6 else ''}; a classification target needs two "
           "classes (use --classes NEG POS to name them, or --regression for a numeric target).")
    raise ValueError(msg)


# --------------------------------------------------------------------------- a column of predictions


def given_classes(classes) -> np.ndarray:
    """``--classes NEG POS`` typed as the target's labels are read (:func:`_files.labels`):
    whole numbers as integers (``"1"`` and ``"1.0"`` are 1), other numbers as floats, else
    the text -- so ``--classes 0 1`` names the integer labels of a 0/1 column, whichever of
    them the column holds."""
    text = [str(c).strip() for c in classes]
    if len(text) != 2:
        msg = f"--classes takes two different labels (negative, then positive), got {classes}."
        raise ValueError(msg)
    try:
        typed = _files.labels(np.array(text, dtype=object), "--classes", "--classes")
    except ValueError:  # a label that reads as missing ("NA"): kept as text
        typed = np.array(text)
    if typed[0] == typed[1]:
        msg = f"--classes takes two different labels (negative, then positive), got {classes}."
        raise ValueError(msg)
    return typed


def read_kind(values, task: str) -> str:
    """What a column of numbers is, by the one rule of :mod:`chimeraboost._shared.predictions`
    (also :func:`chimeraboost.compare.holdout_table`'s): for a classification, only 0 and 1
    -- a **rule** (1 flags the positive class); all in [0, 1] -- **probabilities** of the
    positive class; anything else -- **scores** that rank the rows (higher means positive),
    with no decision. For a regression, the column is the **predictions**."""
    return "predictions" if task == "regression" else kind_of(values, 2)


# --------------------------------------------------------------------------- the two commands


def unit_columns(path, groups, time, dialect) -> dict:
    """``{"groups": ..., "time": ...}`` read off the columns ``--groups`` / ``--time`` name
    (either may be None): the group labels as text; the times as numbers when every cell is
    one, else as ISO dates when every cell is one, else as text (which sorts ``2024-04``
    correctly). Empty cells are missing, which the resampling refuses naming the count."""
    names = {arg: col for arg, col in (("groups", groups), ("time", time)) if col}
    if not names:
        return {}
    cols = _files.read_columns(path, list(dict.fromkeys(names.values())), **dialect)
    out = {}
    for arg, col in names.items():
        cells = [None if c is None or (isinstance(c, str) and not c.strip()) else c
                 for c in cols[col]]
        arr = np.array(cells, dtype=object)
        if arg == "time" and all(c is not None for c in cells):
            for kind in (float, "datetime64[s]"):
                try:
                    arr = np.array(cells if kind is float else [str(c) for c in cells],
                                   dtype=kind)
                    break
                except (TypeError, ValueError):
                    continue
        elif arg == "groups":
            arr = np.array([None if c is None else str(c) for c in cells], dtype=object)
        out[arg] = arr
    return out


def _read(path, target, scores, weight, classes, regression, dialect, pos_label=None):
    cols = _files.read_columns(path, [target, *scores, *([weight] if weight else [])],
                               **dialect)
    y, classes = read_target(cols[target], target, path, classes=classes, regression=regression,
                             pos_label=pos_label)
    task = "regression" if classes is None else "classification"
    what = "predictions" if task == "regression" else "probabilities, scores or 0/1 flags"
    values = {s: _files.numbers(cols[s], s, path, what=what) for s in scores}
    w = None
    if weight:
        w = _files.numbers(cols[weight], weight, path, what="weights")
    return y, classes, task, values, w


def file_report(path, *, target, score, baseline_score=None, classes=None, weight=None,
                ci=0.95, n_boot=2000, k=None, regression=False, random_state=0, verbose=True,
                delimiter=None, decimal=".", threshold=None, costs=None, by=None, bins=5,
                n_jobs=None, ci_method=DEFAULT_CI_METHOD, groups=None, time=None,
                pos_label=None):
    """``(Report, kinds)``: the report of the column ``score`` of the file at ``path``, with
    the paired comparison against ``baseline_score`` when given, and with the columns ``by``
    the report per slice (``Report.slices``, :mod:`chimeraboost.cli._slices`); ``kinds`` maps
    each column to what it was read as (:func:`read_kind`).

    ``ci=None`` (``--no-ci``) resamples nothing: with a baseline column, the two columns'
    reports on the same rows and their point differences (:func:`point_differences`), the
    baseline's report in ``baseline_report`` and ``vs_baseline`` None -- unless
    ``threshold`` or ``costs`` asks for the decision section, whose paired intervals need
    the resamples. ``delimiter`` and ``decimal``: how the CSV is written
    (:func:`chimeraboost.cli._files.read_columns`)."""
    scores = _report_columns(score, baseline_score)
    y, classes, task, values, w = _read(path, target, scores, weight, classes, regression,
                                        {"delimiter": delimiter, "decimal": decimal}, pos_label)
    kinds = {s: read_kind(values[s], task) for s in scores}
    units = unit_columns(path, groups, time, {"delimiter": delimiter, "decimal": decimal})
    X = row_numbers(len(y))
    model, base = (recorded(Predictions(kinds[s], values[s]), classes) if s else None
                   for s in (score, baseline_score))
    decided = threshold is not None or costs is not None
    if ci is None and base is not None and not decided and not units:
        rep = report(model, X, y, sample_weight=w, k=k, name=score)
        rep.baseline_report = report(base, X, y, sample_weight=w, k=k, name=baseline_score)
    else:
        with working(f"chimeraboost: {n_boot:,} bootstrap resamples of {len(y):,} rows",
                     verbose=verbose and (base is not None or ci is not None or decided)):
            rep = report(model, X, y, baseline=base, sample_weight=w, ci=ci, n_boot=n_boot,
                         random_state=random_state, k=k, name=score,
                         baseline_name=baseline_score, threshold=threshold, costs=costs,
                         n_jobs=n_jobs, ci_method=ci_method, **units)
    if by:
        with working(f"chimeraboost: slices by {', '.join(by)}, {n_boot:,} resamples",
                     verbose=verbose):
            rep.slices = file_slices(path, y, classes, values, kinds, w, by=by, score=score,
                                     baseline_score=baseline_score, bins=bins, ci=ci,
                                     n_boot=n_boot, random_state=random_state,
                                     delimiter=delimiter, decimal=decimal,
                                     ci_method=ci_method, **units)
    return rep, kinds


def point_differences(rep, base) -> dict:
    """Metric -> ``model - baseline`` of two reports on the same rows (point values, no
    interval), for every number that describes the model and is defined for both."""
    out = {}
    for key, value in rep.items():
        if key in ABOUT_THE_ROWS or np.ndim(value) or not isinstance(
                value, (float, int, np.floating, np.integer)) or key == "n":
            continue
        diff = float(value) - float(base[key])
        if not math.isnan(diff):
            out[key] = diff
    return out


def point_vs_lines(rep, base, why) -> list:
    """The table of :func:`point_differences`, titled with why it has no intervals."""
    rows = [[key, rep[key], base[key], diff]
            for key, diff in point_differences(rep, base).items()]
    return [f"vs baseline {base.estimator_name} on the same rows: model minus baseline "
            f"({why})",
            *table([Col("metric", None), Col("model"), Col("baseline"),
                    Col("difference", signed=True)], rows)]


def _report_columns(score, baseline_score) -> list:
    if baseline_score == score:
        msg = f"--baseline-score {baseline_score!r} is the --score column itself; name another."
        raise ValueError(msg)
    return [score, *([baseline_score] if baseline_score else [])]


def file_table(path, *, target, scores, baseline=None, primary=None, split=None, weight=None,
               classes=None, regression=False, ci=0.95, n_boot=2000, random_state=0,
               verbose=True, costs=None, delimiter=None, decimal=".", n_jobs=None,
               ci_method=DEFAULT_CI_METHOD, groups=None, time=None, pos_label=None):
    """The holdout table of the columns ``scores`` of the file at ``path``, in their order."""
    if len(set(scores)) != len(scores):
        twice = sorted({s for s in scores if scores.count(s) > 1})
        msg = f"--score {twice} given more than once; each column is one row of the table."
        raise ValueError(msg)
    cost_primary = isinstance(primary, str) and primary.strip() == "expected_cost"
    if cost_primary and costs is None:
        msg = ("--primary expected_cost needs the costs: add --cost-fp C (treating a negative "
               "row) and --cost-fn C (leaving a positive row).")
        raise ValueError(msg)
    if costs is not None and not cost_primary:
        msg = ("--cost-fp and --cost-fn price the decision the table compares with --primary "
               "expected_cost; add it (or drop the costs).")
        raise ValueError(msg)
    y, classes, task, values, w = _read(path, target, scores, weight, classes, regression,
                                        {"delimiter": delimiter, "decimal": decimal}, pos_label)
    units = unit_columns(path, groups, time, {"delimiter": delimiter, "decimal": decimal})
    if classes is not None:
        # holdout_table takes the positive class from the sorted labels: code the target
        # 0/1 so that the positive class is the one named.
        y = (y == classes[1]).astype(np.int64)
    with working(f"chimeraboost: {n_boot:,} bootstrap resamples of {len(y):,} rows, "
                 f"{len(scores)} columns", verbose=verbose):
        t = holdout_table(values, row_numbers(len(y)), y, baseline_name=baseline,
                          primary=primary, split=split, level=ci, n_boot=n_boot,
                          sample_weight=w, random_state=random_state, costs=costs,
                          n_jobs=n_jobs, ci_method=ci_method, **units)
    t.target_classes = classes  # the labels the 0/1 codes stand for, for the header
    return t


def positive_line(classes) -> str | None:
    """The line that says which label is the positive class (the probabilities' event), or
    None for a regression."""
    if classes is None:
        return None
    neg, pos = (str(c) for c in np.asarray(classes).tolist())
    return (f"positive class: {pos} (the columns are read as P({pos}); the other class: "
            f"{neg}; --pos-label to change)")


# --------------------------------------------------------------------------- streaming

#: Files larger than this on disk are streamed (compressed size for .gz). Reading every cell
#: of a CSV into Python keeps about 60 bytes per cell, so a file of this size already takes
#: a few GB in memory, and a bootstrap over its tens of millions of rows would take hours.
STREAM_BYTES = 256 * 2**20
#: Rows per chunk when streaming: a few tens of MB of cells, and few enough chunks that the
#: per-chunk overhead does not show.
CHUNK_ROWS = 500_000
#: The most rows per chunk --chunk-rows takes: the readers (itertools.islice, pyarrow's batch
#: size) take counts up to 2**31 - 1 on every platform, and a chunk that size is already
#: tens of GB of cells.
MAX_CHUNK_ROWS = 2**31 - 1
# Distinct labels a text target may show before the first pass stops counting them.
_MAX_LABELS = 10_000


def streams(path, *, stream=False, in_memory=False) -> bool:
    """Whether ``report`` streams the file: ``stream`` forces it, ``in_memory`` forbids it,
    otherwise a file larger than :data:`STREAM_BYTES` on disk is streamed."""
    if stream or in_memory:
        return bool(stream)
    try:
        return os.path.getsize(path) > STREAM_BYTES
    except OSError:
        return False  # the reader names the missing file


class Streamed(NamedTuple):
    """What :func:`stream_report` read: the report of the score column, the baseline
    column's report (or None), how each column was read, the chunk size, and per column the
    worst-case errors of the grid's numbers (the accumulator's ``error_bounds``: all 0 while
    the values are kept exactly)."""

    report: Report
    baseline: Report | None
    kinds: dict
    chunk_rows: int
    bounds: dict

    def differences(self) -> dict:
        """Metric -> ``model - baseline`` on the same rows (point values; no interval)."""
        return {} if self.baseline is None else point_differences(self.report, self.baseline)


def stream_report(path, *, target, score, baseline_score=None, classes=None, weight=None,
                  regression=False, chunk_rows=CHUNK_ROWS, delimiter=None,
                  decimal=".", pos_label=None) -> Streamed:
    """The report of the column ``score`` (and ``baseline_score``) of the file at ``path``,
    read ``chunk_rows`` rows at a time through the accumulators of
    :mod:`chimeraboost.metrics`, so that memory does not grow with the file.

    The columns are read as by :func:`file_report`, with two differences a single pass
    imposes. The target's classes must be known before the first chunk is scored: they come
    from ``classes`` or ``regression`` when given, else from a first, cheap pass over the
    target column alone (the same rule as :func:`read_target`). A classification score
    column must hold probabilities or a 0/1 rule (judged, as in memory, on all its values);
    scores outside [0, 1] rank the rows only and stop the report with a ValueError, since
    their ranking metrics need every row (``--in-memory``).

    The exact numbers (log loss, Brier, skills, accuracy, rmse, r2, ...) equal the in-memory
    report's; ROC AUC, PR AUC, MCB and DSC (and a regression's median-based numbers) come
    from the accumulator's score grid, within its stated error.
    """
    from ..metrics import ClassificationAccumulator, RegressionAccumulator

    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) \
            or not 1 <= chunk_rows <= MAX_CHUNK_ROWS:
        msg = (f"--chunk-rows must be a whole number of rows from 1 to {MAX_CHUNK_ROWS:,}, "
               f"got {chunk_rows!r}.")
        raise ValueError(msg)
    scores = _report_columns(score, baseline_score)
    dialect = {"delimiter": delimiter, "decimal": decimal}
    target_classes = positive_last(
        _stream_target(path, target, classes, regression, chunk_rows, dialect), pos_label,
        target)
    task = "regression" if target_classes is None else "classification"
    what = "predictions" if task == "regression" else "probabilities, scores or 0/1 flags"
    # Codes 0/1 (1 = the positive class) in the accumulator; the labels go back at the end.
    accs = {s: RegressionAccumulator() if task == "regression"
            else ClassificationAccumulator(np.array([0, 1])) for s in scores}
    flags = dict.fromkeys(scores, True)  # every value so far 0 or 1: a rule
    names = [target, *scores, *([weight] if weight else [])]
    for start, cols in _files.iter_columns(path, names, int(chunk_rows), **dialect):
        if task == "regression":
            y = _stream_numbers(cols[target], target, path, start)
        else:
            y = _codes(cols[target], target, path, start, target_classes,
                       given=classes is not None)
        w = None if not weight else _files.numbers(cols[weight], weight, path,
                                                   what="weights", start=start)
        for s in scores:
            v = _files.numbers(cols[s], s, path, what=what, start=start)
            if task == "classification":
                _check_probabilities(v, s, path, start)
                flags[s] = flags[s] and bool(np.all((v == 0) | (v == 1)))
            accs[s].update(y, v, sample_weight=w)
    kinds = {s: "predictions" if task == "regression" else "rule" if flags[s]
             else "probabilities" for s in scores}
    reps = [_streamed_report(accs[s].report(), s, kinds[s], target_classes) for s in scores]
    bounds = {s: accs[s].error_bounds() for s in scores}
    return Streamed(reps[0], reps[1] if baseline_score else None, kinds, int(chunk_rows),
                    bounds)


def _stream_numbers(cells, column, path, start):
    # As read_target with --regression: a missing cell is named before a non-number.
    y = _files.labels(cells, column, path, start)
    if y.dtype.kind not in "iuf":
        y = _files.numbers(cells, column, path, start=start)
    return y.astype(np.float64)


def _label_text(y) -> np.ndarray:
    """Labels as the text read_target compares with --classes (``str`` of each value)."""
    if y.dtype.kind in "iuU":
        return y.astype(str)
    return np.array([str(v) for v in y.tolist()])


def _stream_target(path, column, classes, regression, chunk_rows, dialect):
    """The target's classes, or None for a regression: from ``classes`` (as text) or
    ``regression`` when given, else from one pass over the target column (typed as
    :func:`read_target` types them)."""
    if regression:
        return None
    if classes is not None:
        return given_classes(classes)  # typed as read_target types them
    numbers, texts, numeric, whole = set(), set(), True, True
    for start, cols in _files.iter_columns(path, [column], chunk_rows, **dialect):
        y = _files.labels(cols[column], column, path, start)
        if y.dtype.kind in "iuf":
            whole = whole and y.dtype.kind in "iu"
            if len(numbers) < 3:  # three numbers already make a regression
                numbers.update(np.unique(y).tolist())
        else:
            numeric = False
            if len(texts) <= _MAX_LABELS:
                texts.update(np.unique(y).tolist())
    if numeric:
        found = np.array(sorted(numbers), dtype=np.int64 if whole else np.float64)
        # The in-memory rule on the distinct values: the same classes, or a regression.
        return read_target(found, column, path)[1]
    texts |= {str(int(v)) if whole else str(v) for v in numbers}
    found = np.array(sorted(texts))
    if found.size > _MAX_LABELS:
        msg = (f"{path}: column {column!r} holds more than {_MAX_LABELS:,} labels; a "
               "classification target needs two classes (use --regression for a numeric target).")
        raise ValueError(msg)
    return read_target(found, column, path)[1]


def _codes(cells, column, path, start, classes, *, given):
    """Codes: 1 for the positive class, 0 for the other."""
    y = _files.labels(cells, column, path, start)
    if classes.dtype.kind in "iuf" and y.dtype.kind in "iuf":
        # Numbers compare as numbers: a chunk of whole values of a float target reads as
        # integers, and 1 is 1.0.
        positive, negative = y == classes[1], y == classes[0]
    else:
        text, names = _label_text(y), _label_text(classes)
        positive, negative = text == names[1], text == names[0]
    unknown = ~positive & ~negative
    if unknown.any():
        shown = sorted(set(_label_text(y[unknown]).tolist()))[:5]
        named = f"--classes {classes.tolist()}" if given else f"its classes {classes.tolist()}"
        msg = (f"{path}: column {column!r} holds labels {shown} that are not in {named} "
               f"(data row {start + int(np.flatnonzero(unknown)[0]) + 1}).")
        raise ValueError(msg)
    return positive.astype(np.int64)


def _check_probabilities(values, column, path, start) -> None:
    outside = (values < 0) | (values > 1)
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        msg = (f"{path}: column {column!r} holds {values[i]} in data row {start + i + 1}: a "
               "streamed report reads probabilities or 0/1 flags; scores that only rank the "
               "rows need every row in memory (--in-memory).")
        raise ValueError(msg)


def _streamed_report(values, name, kind, classes) -> Report:
    if kind == "predictions":
        return Report(values, name, "regression", "y")
    values = dict(values, classes=classes)
    if kind == "rule":
        # Without probabilities there is nothing to judge them on (metrics.ranking_report).
        values.update(dict.fromkeys(NEEDS_PROBA & values.keys(), np.nan))
        return Report(values, name, "rule", "y")
    return Report(values, name, "classification", "y")


def streamed_note(got: Streamed) -> str:
    """The one line that says what a streamed report leaves out, and why."""
    bound = got.bounds[got.report.estimator_name]
    if got.report.task == "regression":
        grid = ("the median of y exact (few distinct values)" if not any(bound.values()) else
                f"the median of y from a fine grid: mae_ref within {bound['mae_ref']:.1e}")
    elif not any(bound.values()):
        grid = "ROC AUC, PR AUC, MCB and DSC exact (the scores take few distinct values)"
    else:
        grid = (f"ROC AUC, PR AUC, MCB and DSC from a fine score grid: ROC AUC within "
                f"{bound['roc_auc']:.1e}, PR AUC within {bound['pr_auc']:.1e} (worst case)")
    return (f"streamed, {got.chunk_rows:,} rows at a time: no bootstrap intervals, paired "
            f"intervals or DeLong test (they need every row in memory: --in-memory); {grid}")


def streamed_lines(got: Streamed, path) -> list:
    """The text of a streamed report: how the columns were read, the note, the report and,
    with a baseline column, its point differences."""
    read = ", ".join(f"{col} as {kind}" for col, kind in got.kinds.items())
    classes = None if got.report.task == "regression" else got.report.get("classes")
    extra = [] if got.baseline is None else point_vs_lines(got.report, got.baseline,
                                                           "no interval when streamed")
    return [*wrap(f"{path}: {read}"), *filter(None, [positive_line(classes)]),
            *wrap(streamed_note(got)), "", report_with(got.report, extra)]


def report_with(rep, lines) -> str:
    """The text of ``rep`` with ``lines`` (the point differences the command line adds)
    below its numbers and above its legend, which stays last."""
    text = str(rep)
    if not lines:
        return text
    body, sep, legend = text.rpartition("\n\nLegend: ")
    if not sep:
        return "\n".join([text, "", *lines])
    return "\n".join([body, "", *lines, "", "Legend: " + legend])


def streamed_json(got: Streamed, path) -> dict:
    """Every number of a streamed report, ready for ``json.dumps``: the keys of
    :func:`to_json` without intervals, plus ``streamed`` (the chunk size)."""
    out = to_json(got.report, got.kinds, path)
    out["streamed"] = {"chunk_rows": got.chunk_rows,
                       "error_bounds": got.bounds[got.report.estimator_name]}
    if got.baseline is not None:
        out["baseline"] = {"model": got.baseline.estimator_name,
                           "kind": got.kinds[got.baseline.estimator_name],
                           "metrics": got.baseline.to_dict()}
        out["vs_baseline"] = {key: {"difference": d} for key, d in got.differences().items()}
    return plain(out)


# --------------------------------------------------------------------------- JSON


def plain(value):
    """JSON-ready: :func:`chimeraboost._shared.format.json_ready`."""
    return json_ready(value)


def to_json(rep, kinds, path) -> dict:
    """Every number of a :class:`Report` from :func:`file_report`, ready for ``json.dumps``."""
    out = {"file": str(path), "model": rep.estimator_name, "kind": kinds[rep.estimator_name],
           "task": rep.task, "reference": rep.reference(), "ci_level": rep.ci_level,
           "positive_class": (None if rep.task == "regression"
                              else np.asarray(rep.get("classes")).tolist()[-1]),
           "ci_method": rep.ci_method if (rep.ci or rep.vs_baseline is not None
                                          or rep.decision is not None) else None,
           "n_boot": rep.n_boot if (rep.ci or rep.vs_baseline is not None
                                    or rep.decision is not None) else None,
           "metrics": {key: v for key, v in rep.to_dict().items()
                       if key not in ("ci", "vs_baseline", "slices")}}
    if rep.ci is not None:
        out["ci"] = {key: {"low": lo, "high": hi} for key, (lo, hi) in rep.ci.items()}
        if any(rep.n_dropped.values()):
            out["ci_left_out"] = dict(rep.n_dropped)
    base = rep.baseline_report
    if base is not None:
        out["baseline"] = {"model": base.estimator_name, "kind": kinds[base.estimator_name],
                           "metrics": base.to_dict()}
    if rep.vs_baseline is not None:
        out["vs_baseline"] = {key: {"difference": d, "low": lo, "high": hi}
                              for key, (d, lo, hi) in rep.vs_baseline.items()}
    elif base is not None:  # --no-ci: nothing resampled, the point differences only
        out["vs_baseline"] = {key: {"difference": d}
                              for key, d in point_differences(rep, base).items()}
    d = rep.delong_vs_baseline
    if d is not None:
        out["delong_roc_auc"] = {"difference": d.estimate, "se": d.se, "low": d.low,
                                 "high": d.high, "pvalue": d.pvalue}
    if rep.decision is not None:
        out["decision"] = rep.decision.to_dict()
    if rep.slices is not None:
        out["slices"] = rep.slices.to_dict()
    return plain(out)
