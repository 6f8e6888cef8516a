"""Columns of a CSV or Parquet file, for the command line.

Questions answered here:

- Which columns does the file hold, and are the asked ones among them? :func:`read_columns`
  (CSV, TSV and gzipped CSV with the standard library's :mod:`csv`; Parquet with pyarrow, an
  optional dependency).
- Is a column numbers, with none missing? :func:`numbers`.
- What are the labels of a target column? :func:`labels` (integers stay integers: ``1.0``
  is the label ``1``, so a 0/1 target read from a float column is still two classes).

Every failure is a ``ValueError`` (or ``ImportError`` for a missing optional dependency)
whose one-line message names the file and the column.
"""

from __future__ import annotations

import csv
import gzip
import math
import os

import numpy as np

__all__ = ["read_columns", "numbers", "labels"]

# Cells that mean "no value" in CSV files written by pandas, R, Excel and SQL exports.
_MISSING = frozenset({"", "na", "nan", "n/a", "null", "none", "nat", "#n/a"})
_PARQUET = (".parquet", ".pq", ".parq")


def read_columns(path, names) -> dict:
    """``{name: list of cells}`` for the columns ``names`` of the file at ``path``.

    CSV cells are strings; Parquet cells are Python values (None for missing). The format
    follows the file name: ``.parquet`` / ``.pq`` is Parquet, ``.tsv`` is tab-separated,
    ``.gz`` is gzipped, anything else is comma-separated CSV with a header row.
    """
    path = os.fspath(path)
    names = list(dict.fromkeys(names))  # a column asked twice is read once
    if not os.path.exists(path):
        msg = f"{path}: no such file."
        raise ValueError(msg)
    if os.path.isdir(path):
        msg = f"{path} is a directory; pass a CSV or Parquet file."
        raise ValueError(msg)
    lower = path.lower()
    if lower.endswith(_PARQUET):
        return _read_parquet(path, names)
    return _read_csv(path, names, "\t" if lower.removesuffix(".gz").endswith(".tsv") else ",")


def _missing_columns(path, names, have) -> None:
    absent = [name for name in names if name not in have]
    if absent:
        shown = ", ".join(repr(h) for h in list(have)[:12]) + (", ..." if len(have) > 12 else "")
        what = "column" if len(absent) == 1 else "columns"
        msg = (f"{path} has no {what} {', '.join(map(repr, absent))}; its columns are "
               f"{shown or 'none'}.")
        raise ValueError(msg)


def _read_csv(path, names, delimiter) -> dict:
    opener = gzip.open if path.lower().endswith(".gz") else open
    try:
        with opener(path, "rt", newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f, delimiter=delimiter)
            header = next(reader, None)
            if header is None:
                msg = f"{path} is empty; expected a header row naming the columns."
                raise ValueError(msg)
            header = [h.strip() for h in header]
            _missing_columns(path, names, header)
            where = {name: header.index(name) for name in names}
            out = {name: [] for name in names}
            for line, row in enumerate(reader, start=2):
                if not row:
                    continue  # a blank line, e.g. at the end of the file
                if len(row) != len(header):
                    msg = (f"{path}, line {line}: {len(row)} fields where the header has "
                           f"{len(header)}; is the file comma-separated CSV?")
                    raise ValueError(msg)
                for name, i in where.items():
                    out[name].append(row[i])
    except UnicodeDecodeError as exc:
        msg = f"{path} is not a UTF-8 text file ({exc.reason}); pass a CSV or Parquet file."
        raise ValueError(msg) from None
    except (gzip.BadGzipFile, csv.Error) as exc:
        msg = f"{path} cannot be read as CSV: {exc}."
        raise ValueError(msg) from None
    if not any(out.values()) or not out[names[0]]:
        msg = f"{path} has a header but no rows."
        raise ValueError(msg)
    return out


def _read_parquet(path, names) -> dict:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        msg = (f"reading {path} needs pyarrow, an optional dependency: "
               'pip install "chimeraboost[parquet]".')
        raise ImportError(msg) from None
    try:
        have = pq.read_schema(path).names
    except Exception as exc:  # noqa: BLE001 - pyarrow's errors are not all ValueErrors
        raise _not_parquet(path, exc) from None
    _missing_columns(path, names, have)
    try:
        data = pq.read_table(path, columns=names)
    except Exception as exc:  # noqa: BLE001
        raise _not_parquet(path, exc) from None
    if data.num_rows == 0:
        msg = f"{path} has no rows."
        raise ValueError(msg)
    return {name: data.column(name).to_pylist() for name in names}


def _not_parquet(path, exc) -> ValueError:
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return ValueError(f"{path} cannot be read as Parquet: {first}")


def _is_missing(cell) -> bool:
    if cell is None:
        return True
    if isinstance(cell, str):
        return cell.strip().lower() in _MISSING
    return isinstance(cell, float) and math.isnan(cell)


def _check_complete(cells, column, path) -> None:
    missing = [i for i, c in enumerate(cells) if _is_missing(c)]
    if missing:
        rows = ", ".join(str(i + 1) for i in missing[:5]) + (", ..." if len(missing) > 5 else "")
        msg = (f"{path}: column {column!r} has {len(missing)} missing value"
               f"{'s' if len(missing) > 1 else ''} (data rows {rows}); drop or fill them first.")
        raise ValueError(msg)


def numbers(cells, column, path, *, what="numbers") -> np.ndarray:
    """The cells as float64, or a ValueError naming the first cell that is not a number."""
    _check_complete(cells, column, path)
    out = np.empty(len(cells), dtype=np.float64)
    for i, cell in enumerate(cells):
        if isinstance(cell, bool):
            out[i] = float(cell)
            continue
        try:
            out[i] = float(cell.strip() if isinstance(cell, str) else cell)
        except (TypeError, ValueError):
            msg = (f"{path}: column {column!r} must hold {what}, but data row {i + 1} holds "
                   f"{cell!r}.")
            raise ValueError(msg) from None
    if not np.all(np.isfinite(out)):
        i = int(np.flatnonzero(~np.isfinite(out))[0])
        msg = f"{path}: column {column!r} holds {out[i]} in data row {i + 1}; expected finite {what}."
        raise ValueError(msg)
    return out


def labels(cells, column, path) -> np.ndarray:
    """A target column: integers when every cell is a whole number (``1.0`` is ``1``),
    floats when every cell is a number, else the cells as strings."""
    _check_complete(cells, column, path)
    try:
        values = numbers(cells, column, path)
    except ValueError:
        return np.array([c.strip() if isinstance(c, str) else str(c) for c in cells])
    if np.all(values == np.round(values)) and np.all(np.abs(values) < 2**53):
        return values.astype(np.int64)
    return values
