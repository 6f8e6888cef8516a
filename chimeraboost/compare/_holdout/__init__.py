"""Which model wins on one set of held-out rows? The comparisons on held-out rows.

- Two fitted models: should the challenger go to production? :func:`compare_holdout`
  (``_compare_holdout``: the paired bootstrap of :func:`chimeraboost.report`, a decision on the
  primary metric, DeLong's paired ROC-AUC test).
- Several models, simple baselines and 0/1 rules side by side, with intervals and paired
  differences against a baseline row? :func:`holdout_table` (``_holdout_table``); the table it
  returns, :class:`HoldoutTable`, is in ``_holdout_result``, and its decisions at a threshold
  in ``_holdout_decisions``.

Private: :mod:`chimeraboost.compare` re-exports every public name.
"""

from __future__ import annotations

from ._compare_holdout import MIN_ROWS_DECISION, HoldoutComparison, compare_holdout
from ._holdout_table import HoldoutTable, holdout_table

__all__ = ["HoldoutComparison", "HoldoutTable", "MIN_ROWS_DECISION", "compare_holdout",
           "holdout_table"]
