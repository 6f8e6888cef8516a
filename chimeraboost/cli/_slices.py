"""``chimeraboost report FILE --by COLUMN``: the report per slice of a file's column of
predictions.

The ``--by`` columns are read with missing cells kept (they are a slice of their own): a
column whose present cells are all numbers is numeric (cut into ``--bins`` quantile ranges
when it has more values), any other is text. The column of predictions is read as ``report``
reads it (probabilities, scores, a 0/1 rule or a regressor's predictions) and handed to
:func:`chimeraboost.slices.slice_report`.
"""

from __future__ import annotations

import numpy as np

from . import _files
from ..resampling import DEFAULT_CI_METHOD
from ..slices import slice_report

# What a column of predictions is (cli._commands.read_kind), as slice_report's task.
_TASK = {"probabilities": "classification", "scores": "ranking", "rule": "rule",
         "predictions": "regression"}


def by_column(cells) -> np.ndarray:
    """A ``--by`` column: float64 (NaN for missing cells) when every present cell is a
    number, else text with None for missing cells."""
    missing = np.array([_files._is_missing(c) for c in cells], dtype=bool)
    values = np.full(len(cells), np.nan)
    try:
        for i, cell in enumerate(cells):
            if not missing[i]:
                values[i] = float(cell.strip() if isinstance(cell, str) else cell)
        if np.all(np.isfinite(values[~missing])):
            return values
    except (TypeError, ValueError):
        pass
    return np.array([None if m else (c.strip() if isinstance(c, str) else str(c))
                     for c, m in zip(cells, missing)], dtype=object)


def _as_task(values, kind, classes):
    """(predictions, task, predicted labels) of a column read as ``kind``: scores rank the
    rows and make no decision (their threshold is unknown), as in ``report`` and ``table``,
    so they have no predicted labels."""
    task = _TASK[kind]
    if kind == "rule":
        return classes[values.astype(np.intp)], task, None
    return values, task, None


def file_slices(path, y, classes, values, kinds, weight, *, by, score, baseline_score=None,
                bins=5, ci=0.95, n_boot=2000, random_state=0, delimiter=None, decimal=".",
                groups=None, time=None, ci_method=DEFAULT_CI_METHOD):
    """The :class:`~chimeraboost.slices.SliceReport` of the column ``score`` by the columns
    ``by`` of the file at ``path`` (``y``, ``classes``, ``values`` and ``kinds`` as the report
    read them; ``delimiter`` and ``decimal`` as :func:`chimeraboost.cli._files.read_columns`
    takes them). ``groups`` / ``time``: the arrays ``--groups`` / ``--time`` name
    (:func:`chimeraboost.cli._commands.unit_columns`), so that the slices resample whole
    groups or blocks of time as the report does."""
    cols = _files.read_columns(path, list(by), delimiter=delimiter, decimal=decimal)
    X = {name: by_column(cols[name]) for name in by}
    pred, task, y_pred = _as_task(values[score], kinds[score], classes)
    base = {}
    if baseline_score:
        b_pred, b_task, b_y_pred = _as_task(values[baseline_score], kinds[baseline_score],
                                            classes)
        base = {"baseline": b_pred, "baseline_task": b_task, "baseline_y_pred": b_y_pred}
    return slice_report(y, pred, list(by), X=X, classes=classes, task=task, y_pred=y_pred,
                        sample_weight=weight, bins=bins, ci=ci, n_boot=n_boot,
                        random_state=random_state, name=score, baseline_name=baseline_score,
                        groups=groups, time=time, ci_method=ci_method, **base)
