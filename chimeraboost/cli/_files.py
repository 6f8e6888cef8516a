"""Columns of a CSV or Parquet file, for the command line.

Questions answered here:

- Which columns does the file hold, and are the asked ones among them? :func:`read_columns`
  (CSV, TSV and gzipped CSV with the standard library's :mod:`csv`; Parquet with pyarrow, an
  optional dependency). Which character separates a CSV's cells: :func:`find_delimiter` (given,
  or read off the header row: ``,``, ``;``, tab or ``|``); a decimal comma (``0,8``) is read
  when asked for (``decimal=","``) and named in the message otherwise.
- The same columns a chunk of rows at a time, so that memory does not grow with the file?
  :func:`iter_columns` (CSV lines parsed by numpy when they hold numbers and no quotes, by
  :mod:`csv` otherwise; Parquet batches with pyarrow).
- Is a column numbers, with none missing? :func:`numbers`.
- What are the labels of a target column? :func:`labels` (integers stay integers: ``1.0``
  is the label ``1``, so a 0/1 target read from a float column is still two classes).

Every failure is a ``ValueError`` (or ``ImportError`` for a missing optional dependency)
whose one-line message names the file and the column, and the data row (counted from 1 over
the whole file, also when it is read in chunks).
"""

from __future__ import annotations

import csv
import gzip
import itertools
import math
import os
import re

import numpy as np

__all__ = ["read_columns", "iter_columns", "find_delimiter", "numbers", "labels"]

# Cells that mean "no value" in CSV files written by pandas, R, Excel and SQL exports.
_MISSING = frozenset({"", "na", "nan", "n/a", "null", "none", "nat", "#n/a"})
_PARQUET = (".parquet", ".pq", ".parq")
# The separators a CSV header is tried with, the first preferred on a tie.
_DELIMITERS = (",", ";", "\t", "|")
_DECIMAL_COMMA = re.compile(r"\s*[-+]?(\d+,\d*|,\d+)([eE][-+]?\d+)?\s*")


def read_columns(path, names, *, delimiter=None, decimal=".") -> dict:
    """``{name: list of cells}`` for the columns ``names`` of the file at ``path``.

    CSV cells are strings; Parquet cells are Python values (None for missing). The format
    follows the file name: ``.parquet`` / ``.pq`` is Parquet, ``.gz`` is gzipped, anything
    else is CSV with a header row, its cells separated by ``delimiter`` (None: tab for
    ``.tsv``, else read off the header row by :func:`find_delimiter`). ``decimal=","`` reads
    ``0,8`` as 0.8.
    """
    path, names = _check_path(path, names)
    decimal = _check_decimal(decimal)
    if path.lower().endswith(_PARQUET):
        return _read_parquet(path, names)
    return _decimal_cells(_read_csv(path, names, delimiter), decimal)


def find_delimiter(path, header_line: str, given=None) -> str:
    """The character between the cells of a CSV file: ``given`` (``--delimiter``); else tab
    for ``.tsv`` files; else the one of ``,``, ``;``, tab and ``|`` that splits the header row
    into the most columns (a comma on a tie), so that a ``;``-separated export (Excel with a
    decimal comma) reads as it was written."""
    if given is not None:
        if not isinstance(given, str) or len(given) != 1 or given in '"\r\n':
            msg = (f"--delimiter must be one character (',', ';', '\\t', '|'), got "
                   f"{given!r}.")
            raise ValueError(msg)
        return given
    if path.lower().removesuffix(".gz").endswith(".tsv"):
        return "\t"
    fields = {d: len(next(csv.reader([header_line], delimiter=d), [])) for d in _DELIMITERS}
    best = max(_DELIMITERS, key=lambda d: (fields[d], -_DELIMITERS.index(d)))
    return best if fields[best] > 1 else ","


def _check_decimal(decimal) -> str:
    if decimal not in (".", ","):
        msg = f"--decimal must be '.' or ',', got {decimal!r}."
        raise ValueError(msg)
    return decimal


def _decimal_cells(out: dict, decimal: str) -> dict:
    """With ``decimal=","``, a text cell that is a number with a decimal comma becomes the
    same number with a point; other cells as they are."""
    if decimal != ",":
        return out
    for name, cells in out.items():
        if isinstance(cells, list):
            out[name] = [c.replace(",", ".") if isinstance(c, str) and _DECIMAL_COMMA.fullmatch(c)
                         else c for c in cells]
    return out


def _check_path(path, names):
    path = os.fspath(path)
    names = list(dict.fromkeys(names))  # a column asked twice is read once
    blank = [name for name in names if not str(name).strip()]
    if blank:
        msg = f"{path}: a column to read is named {blank[0]!r}; name a column of the file."
        raise ValueError(msg)
    if not os.path.exists(path):
        msg = f"{path}: no such file."
        raise ValueError(msg)
    if os.path.isdir(path):
        msg = f"{path} is a directory; pass a CSV or Parquet file."
        raise ValueError(msg)
    return path, names


def _missing_columns(path, names, have) -> None:
    _check_names(path, have)
    absent = [name for name in names if name not in have]
    if absent:
        shown = ", ".join(repr(h) for h in list(have)[:12]) + (", ..." if len(have) > 12 else "")
        what = "column" if len(absent) == 1 else "columns"
        msg = (f"{path} has no {what} {', '.join(map(repr, absent))}; its columns are "
               f"{shown or 'none'}.")
        inside = [d for d in _DELIMITERS if len(have) == 1 and d in str(list(have)[0])]
        if inside:
            msg += (f" The header looks {inside[0]!r}-separated: pass --delimiter "
                    f"'{inside[0]}'.")
        raise ValueError(msg)


def _check_names(path, have) -> None:
    """Refuse a header that names a column twice (``y,p,p``; also ``p`` and ``p `` once
    stripped): which one would be read is a guess. A blank name (pandas' index column) is
    allowed: no column can be asked for by it."""
    seen = [str(h).strip() for h in have]
    twice = sorted({h for h in seen if h and seen.count(h) > 1})
    if twice:
        where = {h: [i + 1 for i, g in enumerate(seen) if g == h] for h in twice}
        shown = "; ".join(f"{h!r} (columns {', '.join(map(str, cols))})"
                          for h, cols in where.items())
        msg = (f"{path} names more than one column {shown}; each column must be named once "
               "to be read. Rename them.")
        raise ValueError(msg)


def _header(path, header, names) -> tuple:
    """``(column names, {asked name: its position})`` of a CSV header row (None: empty file)."""
    if header is None:
        msg = f"{path} is empty; expected a header row naming the columns."
        raise ValueError(msg)
    header = [h.strip() for h in header]
    _missing_columns(path, names, header)
    return header, {name: header.index(name) for name in names}


def _read_csv(path, names, given) -> dict:
    opener = gzip.open if path.lower().endswith(".gz") else open
    try:
        with opener(path, "rt", newline="", encoding="utf-8-sig") as f:
            first = f.readline()
            sep = find_delimiter(path, first, given)
            header, where = _header(
                path, next(csv.reader([first], delimiter=sep), None) if first else None, names)
            out, _ = _cells_of_rows(csv.reader(f, delimiter=sep), path, header, where, 1, sep)
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
    pq = _pyarrow_parquet(path)
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


def iter_columns(path, names, chunk_rows, *, delimiter=None, decimal="."):
    """Yield ``(start, {name: cells})`` for consecutive chunks of at most ``chunk_rows`` rows
    of the columns ``names`` of the file at ``path``; ``start`` is the number of data rows
    before the chunk, for messages that name a row of the whole file.

    Memory holds one chunk at a time. The cells of a column are a float64 array when every
    cell of the chunk is a finite number (parsed by numpy, several times faster than the
    :mod:`csv` module on numbers), else a list as :func:`read_columns` gives them; either
    form goes to :func:`numbers` and :func:`labels`. CSV lines with a quote character are
    read by :mod:`csv` from there on, since a quoted cell may hold a delimiter or a line
    break. The checks, messages, ``delimiter`` and ``decimal`` are those of
    :func:`read_columns`.
    """
    path, names = _check_path(path, names)
    decimal = _check_decimal(decimal)
    if path.lower().endswith(_PARQUET):
        yield from _iter_parquet(path, names, chunk_rows)
        return
    try:
        for start, out in _iter_csv(path, names, delimiter, chunk_rows):
            yield start, _decimal_cells(out, decimal)
    except UnicodeDecodeError as exc:
        msg = f"{path} is not a UTF-8 text file ({exc.reason}); pass a CSV or Parquet file."
        raise ValueError(msg) from None
    except (gzip.BadGzipFile, csv.Error, EOFError) as exc:
        msg = f"{path} cannot be read as CSV: {exc}."
        raise ValueError(msg) from None


def _iter_csv(path, names, given, chunk_rows):
    opener = gzip.open if path.lower().endswith(".gz") else open
    with opener(path, "rt", newline="", encoding="utf-8-sig") as f:
        first = f.readline()
        delimiter = find_delimiter(path, first, given)
        header, where = _header(
            path, next(csv.reader([first], delimiter=delimiter), None) if first else None, names)
        line, start = 1, 0  # the header's line; data rows before the chunk
        while True:
            lines = list(itertools.islice(f, chunk_rows))
            if not lines:
                break
            if any('"' in text for text in lines):
                # Quoted cells from here on: the csv module, which also joins a quoted cell
                # that spans lines (and so chunks).
                rows = csv.reader(itertools.chain(lines, f), delimiter=delimiter)
                while True:
                    chunk = list(itertools.islice(rows, chunk_rows))
                    if not chunk:
                        break
                    out, line = _cells_of_rows(chunk, path, header, where, line, delimiter)
                    if out[names[0]]:
                        yield start, out
                        start += len(out[names[0]])
                break
            out = _fast_chunk(lines, delimiter, len(header), where)
            if out is None:
                out, line = _cells_of_rows(csv.reader(lines, delimiter=delimiter), path,
                                           header, where, line, delimiter)
            else:
                line += len(lines)
            if out[names[0]] is not None and len(out[names[0]]):
                yield start, out
                start += len(out[names[0]])
    if start == 0:
        msg = f"{path} has a header but no rows."
        raise ValueError(msg)


def _cells_of_rows(rows, path, header, where, line, delimiter):
    """``({name: cells}, last line number)`` of csv rows, with :func:`read_columns`' checks."""
    out = {name: [] for name in where}
    for row in rows:
        line += 1
        if not row:
            continue  # a blank line, e.g. at the end of the file
        if len(row) != len(header):
            msg = (f"{path}, line {line}: {len(row)} fields where the header has "
                   f"{len(header)} (cells separated by {delimiter!r}); is a cell missing, or "
                   "are the cells separated by another character (--delimiter)?")
            raise ValueError(msg)
        for name, i in where.items():
            out[name].append(row[i])
    return out, line


def _fast_chunk(lines, delimiter, width, where):
    """The chunk's columns when every line has ``width`` fields and no quotes (checked by
    the caller): numpy parses the numeric columns, a split the others. None when some line
    is blank or has another number of fields: the csv module then reads the chunk and names
    the line."""
    if any(text.count(delimiter) != width - 1 or not text.strip()
           for text in lines):
        return None
    together = _floats(lines, delimiter, tuple(where.values()))
    if together is not None:
        return {name: together[:, j] for j, name in enumerate(where)}
    out, split = {}, None
    for name, i in where.items():
        column = _floats(lines, delimiter, (i,))
        if column is None:
            if split is None:
                split = [text.rstrip("\r\n").split(delimiter) for text in lines]
            out[name] = [row[i] for row in split]
        else:
            out[name] = column[:, 0]
    return out


def _floats(lines, delimiter, usecols):
    """(n, len(usecols)) finite float64, or None when a cell is not a finite number."""
    try:
        values = np.loadtxt(lines, delimiter=delimiter, usecols=usecols, dtype=np.float64,
                            comments=None, quotechar=None, ndmin=2)
    except ValueError:
        return None
    if values.shape[0] != len(lines) or not np.all(np.isfinite(values)):
        return None
    return values


def _iter_parquet(path, names, chunk_rows):
    pq = _pyarrow_parquet(path)
    try:
        data = pq.ParquetFile(path)
        have = data.schema_arrow.names
    except Exception as exc:  # noqa: BLE001 - pyarrow's errors are not all ValueErrors
        raise _not_parquet(path, exc) from None
    _missing_columns(path, names, have)
    if data.metadata.num_rows == 0:
        msg = f"{path} has no rows."
        raise ValueError(msg)
    start = 0
    try:
        for batch in data.iter_batches(batch_size=chunk_rows, columns=names):
            if batch.num_rows:
                yield start, {name: _arrow_cells(batch.column(name)) for name in names}
                start += batch.num_rows
    except Exception as exc:  # noqa: BLE001 - a corrupt page surfaces here, in any form
        raise _not_parquet(path, exc) from None


def _arrow_cells(array):
    """A Parquet column chunk: float64 when numeric, complete and finite, else Python values."""
    import pyarrow as pa

    kind = array.type
    if array.null_count == 0 and (pa.types.is_integer(kind) or pa.types.is_floating(kind)
                                  or pa.types.is_boolean(kind)):
        values = array.to_numpy(zero_copy_only=False).astype(np.float64)
        if np.all(np.isfinite(values)):
            return values
    return array.to_pylist()


def _pyarrow_parquet(path):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        msg = (f"reading {path} needs pyarrow, an optional dependency: "
               'pip install "chimeraboost[parquet]".')
        raise ImportError(msg) from None
    return pq


def _not_parquet(path, exc) -> ValueError:
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return ValueError(f"{path} cannot be read as Parquet: {first}")


def _is_missing(cell) -> bool:
    if cell is None:
        return True
    if isinstance(cell, str):
        return cell.strip().lower() in _MISSING
    return isinstance(cell, float) and math.isnan(cell)


def _check_complete(cells, column, path, start=0) -> None:
    if isinstance(cells, np.ndarray) and cells.dtype.kind == "f":
        return  # a chunk numpy parsed: finite numbers only
    missing = [i for i, c in enumerate(cells) if _is_missing(c)]
    if missing:
        rows = ", ".join(str(start + i + 1) for i in missing[:5]) + \
            (", ..." if len(missing) > 5 else "")
        msg = (f"{path}: column {column!r} has {len(missing)} missing value"
               f"{'s' if len(missing) > 1 else ''} (data rows {rows}); drop or fill them first.")
        raise ValueError(msg)


def numbers(cells, column, path, *, what="numbers", start=0) -> np.ndarray:
    """The cells as float64, or a ValueError naming the first cell that is not a number
    (data rows counted from ``start + 1``, for a chunk of a file)."""
    fast = _finite(cells)
    if fast is not None:
        return fast
    _check_complete(cells, column, path, start)
    out = np.empty(len(cells), dtype=np.float64)
    for i, cell in enumerate(cells):
        if isinstance(cell, bool):
            out[i] = float(cell)
            continue
        try:
            out[i] = float(cell.strip() if isinstance(cell, str) else cell)
        except (TypeError, ValueError):
            msg = (f"{path}: column {column!r} must hold {what}, but data row {start + i + 1} "
                   f"holds {cell!r}.")
            if isinstance(cell, str) and _DECIMAL_COMMA.fullmatch(cell):
                msg += " A decimal comma? Pass --decimal ',' to read it as a number."
            raise ValueError(msg) from None
    if not np.all(np.isfinite(out)):
        i = int(np.flatnonzero(~np.isfinite(out))[0])
        msg = (f"{path}: column {column!r} holds {out[i]} in data row {start + i + 1}; "
               f"expected finite {what}.")
        raise ValueError(msg)
    return out


def _finite(cells):
    """The cells as float64 when every one is a finite number, else None. numpy converts a
    list with Python's own ``float`` (the same numbers as the cell-by-cell loop, faster); a
    missing cell is never a finite number, so a success needs no missing-value check."""
    if isinstance(cells, np.ndarray) and cells.dtype.kind == "f":
        values = cells
    else:
        try:
            values = np.asarray(cells, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            return None
    if values.ndim != 1 or not np.all(np.isfinite(values)):
        return None
    return values


def labels(cells, column, path, start=0) -> np.ndarray:
    """A target column: integers when every cell is a whole number (``1.0`` is ``1``),
    floats when every cell is a number, else the cells as strings (data rows counted from
    ``start + 1`` in messages, for a chunk of a file)."""
    values = _finite(cells)
    if values is None:
        _check_complete(cells, column, path, start)
        try:
            values = numbers(cells, column, path, start=start)
        except ValueError:
            return np.array([c.strip() if isinstance(c, str) else str(c) for c in cells])
    if np.all(values == np.round(values)) and np.all(np.abs(values) < 2**53):
        return values.astype(np.int64)
    return values
