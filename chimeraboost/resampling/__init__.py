"""How sure are we of each number, and of the difference between two models on the same rows?

Questions worth asking, and which function answers each:

- How precisely do these rows pin down every metric of one model? :func:`bootstrap`
  (percentile intervals for all metrics from one resampling).
- Is the model better than the incumbent, on the same rows? :func:`paired_bootstrap` (the
  same resampled rows score both models; intervals for the difference, model minus baseline).
- Just the ROC-AUC, fast, on 100,000 rows? :func:`roc_auc_interval` (bootstrap or DeLong).
- The ROC-AUC interval without resampling? :func:`delong_roc_auc`, and for two scores on the
  same rows :func:`delong_roc_auc_difference` (DeLong, DeLong & Clarke-Pearson 1988).
- Which rows did the bootstrap draw? :func:`bootstrap_counts` (the replicates' count matrix,
  reproducible with ``random_state``).

How the bootstrap is fast: a replicate is a vector of multinomial counts (how often each row was
drawn), and every metric is a function of the rows' weights. The counts of ``B`` replicates form
one ``(B, n)`` matrix, drawn in chunks to bound memory, and each chunk goes to an *evaluator*
from :mod:`chimeraboost.metrics`, which has sorted the scores once and computes every metric for
all replicates at once. No metric is recomputed per replicate from scratch, and no scikit-learn
function is called in a loop; the numbers are exactly those of ``chimeraboost.metrics`` with
``sample_weight = counts * sample_weight``.

Replicates in which a metric is undefined (a resample holding one class has no ROC-AUC) are
left out of its percentiles; :attr:`BootstrapResult.n_dropped` says how many were.

References
----------
.. [ET93] Efron, B. and Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*.
   Chapman & Hall. Chapter 13 (percentile intervals). doi:10.1201/9780429246593
.. [DDC88] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas
   under two or more correlated receiver operating characteristic curves: a nonparametric
   approach. *Biometrics* 44(3), 837-845. doi:10.2307/2531595
.. [SX14] Sun, X. and Xu, W. (2014). Fast implementation of DeLong's algorithm for comparing
   the areas under correlated receiver operating characteristic curves. *IEEE Signal
   Processing Letters* 21(11), 1389-1393. doi:10.1109/LSP.2014.2337313
"""

from __future__ import annotations

# Which rows each replicate draws, and how many replicates are enough.
from ._draws import (
    MIN_RESAMPLES_DECISION,
    MIN_RESAMPLES_INTERVAL,
    bootstrap_counts,
    check_n_boot,
)
# What the bootstrap found: intervals read off the replicates.
from ._results import (
    BootstrapResult,
    ConfidenceInterval,
    PairedBootstrapResult,
    percentile_interval,
)
# Resampling every metric of one model, a pair, or several on the same rows.
from ._bootstrap import bootstrap, joint_bootstrap, paired_bootstrap
# The ROC-AUC alone: its fast bootstrap and DeLong's analytic intervals.
from ._roc_auc import (
    DeLongResult,
    delong_roc_auc,
    delong_roc_auc_difference,
    roc_auc_interval,
)

__all__ = [
    "MIN_RESAMPLES_DECISION",
    "MIN_RESAMPLES_INTERVAL",
    "check_n_boot",
    "ConfidenceInterval",
    "BootstrapResult",
    "PairedBootstrapResult",
    "DeLongResult",
    "bootstrap_counts",
    "bootstrap",
    "paired_bootstrap",
    "joint_bootstrap",
    "percentile_interval",
    "roc_auc_interval",
    "delong_roc_auc",
    "delong_roc_auc_difference",
]
