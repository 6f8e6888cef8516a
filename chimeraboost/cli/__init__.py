"""The command line: ``chimeraboost report FILE``, ``chimeraboost table FILE``, the production
path (``shadow FILE``, ``plan``, ``readout FILE``) and ``chimeraboost demo`` (also ``python -m
chimeraboost ...``).

- ``_main``: argument parsing, the demo, printing, one line on stderr for bad input.
- ``_commands``: the library's report and holdout table on a file's columns, in memory or a
  chunk at a time.
- ``_promotion``: shadow traffic, the online test's plan and its readout, on a file's columns.
- ``_files``: reading CSV, TSV and Parquet files, whole or in chunks.
"""

from ._main import demo, main

__all__ = ["demo", "main"]
