"""Several models scored on several data sets: how do they rank, and which differ?

:func:`compare_datasets` (``_across_datasets``: average ranks, Friedman, Nemenyi's critical
difference, Holm-adjusted Wilcoxon tests; Demšar 2006), with :func:`nemenyi_q`.

Private: :mod:`chimeraboost.compare` re-exports every public name.
"""

from __future__ import annotations

from ._across_datasets import DatasetComparison, compare_datasets, nemenyi_q

__all__ = ["DatasetComparison", "compare_datasets", "nemenyi_q"]
