"""How sure are we of each number, and of the difference between two models on the same rows?

Questions worth asking, and which function answers each:

- How precisely do these rows pin down every metric of one model? :func:`bootstrap`
  (intervals for all metrics from one resampling).
- Which interval, and how far can it be trusted? ``ci_method=`` (:data:`CI_METHODS`; the
  default :data:`DEFAULT_CI_METHOD`, ``"expanded_bca"``, is the one that covered in
  ``benchmarks/coverage.py``), :func:`bootstrap_interval` for replicates of your own, and a
  :class:`~chimeraboost.exceptions.NarrowIntervalWarning` when no method can be trusted
  (:func:`narrow_interval_reason`: few events; also few resampled groups,
  :func:`few_groups_reason`; and for the means of squared errors, errors whose sample
  skewness is 2 or more in absolute value). The grouped jackknife behind BCa:
  :func:`jackknife_weights` (:func:`jackknife_blocks` for blocks in chunks),
  :func:`acceleration`, :func:`effective_df`.
- Is the model better than the incumbent, on the same rows? :func:`paired_bootstrap` (the
  same resampled rows score both models; intervals for the difference, model minus baseline).
- Just the ROC-AUC, fast, on 100,000 rows? :func:`roc_auc_interval` (bootstrap or DeLong).
- The ROC-AUC interval without resampling? :func:`delong_roc_auc`, and for two scores on the
  same rows :func:`delong_roc_auc_difference` (DeLong, DeLong & Clarke-Pearson 1988).
- Several tests at once: which p-values survive the multiplicity? :func:`holm` (family-wise
  error) and :func:`benjamini_hochberg` (false discovery rate), also re-exported by
  :mod:`chimeraboost.compare`. Several differences with their replicates (slices against
  the rest of the rows): :func:`difference_tests`, a t test each, adjusted over them.
- Which rows did the bootstrap draw? :func:`bootstrap_counts` (the replicates' count matrix,
  reproducible with ``random_state``).
- Replicates that blocks of rows on several machines can compute apart? ``scheme="poisson"``
  on :func:`bootstrap`, :func:`paired_bootstrap`, :func:`joint_bootstrap`,
  :func:`bootstrap_counts` and the :class:`Resampler`: an independent Poisson(1) count per
  row (or group), keyed by the replicate's seed and the row's position (the group's value),
  the counts :mod:`chimeraboost.dask` and the accumulators use.
- Rows that are not independent (several rows per customer, time-ordered rows)?
  ``groups=`` and ``time=`` on every function here: whole groups, or blocks of time, are
  resampled, and the jackknife leaves out whole units. :class:`Resampler` is the one scheme
  every surface of the library draws its replicates from; :func:`design_effect` says how
  much the dependence widens an interval.
- Two models that decide differently on only a few units at a threshold? The paired
  difference of a number of the decision (net benefit, expected cost, sensitivity,
  specificity, the flagged share) rests on those units alone: with fewer than
  :data:`MIN_DISCORDANT`, its interval is widened to hold every difference they allow, and 0
  (a :class:`~chimeraboost.exceptions.NarrowIntervalWarning` names them;
  :meth:`PairedBootstrapResult.discordance`, :meth:`Resampler.discordance`); from
  :data:`MIN_DISCORDANT` on, the expanded intervals read it symmetrically about the estimate
  with at most ``k - 1`` degrees of freedom for ``k`` such units, since the skewness of a sum
  of a few units cannot be read from them (:func:`bootstrap_interval`, ``discordant=``;
  :meth:`PairedBootstrapResult.discordant_units`, :meth:`Resampler.discordant_units`).

How the bootstrap is fast: a replicate is a vector of multinomial counts (how often each row was
drawn), and every metric is a function of the rows' weights. The counts of ``B`` replicates form
one ``(B, n)`` matrix, drawn in chunks to bound memory, and each chunk goes to an *evaluator*
from :mod:`chimeraboost.metrics`, which has sorted the scores once and computes every metric for
all replicates at once. No metric is recomputed per replicate from scratch, and no scikit-learn
function is called in a loop; the numbers are exactly those of ``chimeraboost.metrics`` with
``sample_weight = counts * sample_weight``.

Replicates in which a metric is undefined (a resample holding one class has no ROC-AUC) are
left out of its percentiles; :attr:`BootstrapResult.n_dropped` says how many were.

The default interval, ``"expanded_bca"``: Efron's bias-corrected and accelerated percentile
interval [E87]_, whose acceleration comes from a grouped jackknife (100 blocks of rows, every
row its own block on fewer rows, so that it costs about 5% of 2,000 replicates), with the
normal quantile replaced by Student's on the degrees of freedom that the jackknife says the
rows are worth (Hesterberg's expanded interval [H15]_). On 200 rows with 10 events the
percentile interval of the ROC-AUC covered 89% of the time, this one 96%
(``benchmarks/coverage.py``).

References
----------
.. [ET93] Efron, B. and Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*.
   Chapman & Hall. Chapter 13 (percentile intervals). doi:10.1201/9780429246593
.. [DDC88] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas
   under two or more correlated receiver operating characteristic curves: a nonparametric
   approach. *Biometrics* 44(3), 837-845. doi:10.2307/2531595
.. [E87] Efron, B. (1987). Better bootstrap confidence intervals. *Journal of the American
   Statistical Association* 82(397), 171-185. doi:10.1080/01621459.1987.10478410
.. [H15] Hesterberg, T. C. (2015). What teachers should know about the bootstrap. *The
   American Statistician* 69(4), 371-386. doi:10.1080/00031305.2015.1089789
.. [H79] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
   *Scandinavian Journal of Statistics* 6(2), 65-70.
.. [BH95] Benjamini, Y. and Hochberg, Y. (1995). Controlling the false discovery rate: a
   practical and powerful approach to multiple testing. *JRSS B* 57(1), 289-300.
   doi:10.1111/j.2517-6161.1995.tb02031.x
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
# How an interval is read off the replicates, and the jackknife behind BCa.
from ._intervals import (
    CI_METHOD_LABELS,
    CI_METHODS,
    DEFAULT_CI_METHOD,
    JACKKNIFE_BLOCKS,
    MIN_EVENTS,
    ConfidenceInterval,
    acceleration,
    bootstrap_interval,
    check_ci_method,
    effective_df,
    jackknife_blocks,
    jackknife_weights,
    narrow_interval_reason,
    percentile_interval,
)
# The one resampling scheme every surface draws from: rows, whole groups, or time blocks.
from ._engine import Resampler, design_effect, jackknife_variance
# How many units a paired difference of a decision rests on, and the bound when few.
from ._discordant import MIN_DISCORDANT
# What the bootstrap found: every metric's replicates, jackknife and intervals.
from ._results import (MIN_GROUPS, BootstrapResult, PairedBootstrapResult, few_groups_reason,
                       warn_narrow)
# Resampling every metric of one model, a pair, or several on the same rows.
from ._bootstrap import bootstrap, joint_bootstrap, paired_bootstrap
# Which of several p-values survive their number.
from ._multiplicity import (ADJUSTMENTS, DifferenceTests, MultipleTestResult, benjamini_hochberg,
                            difference_tests, holm)
# The ROC-AUC alone: its fast bootstrap and DeLong's analytic intervals.
from ._roc_auc import (
    DeLongResult,
    delong_roc_auc,
    delong_roc_auc_difference,
    roc_auc_interval,
)

__all__ = [
    "Resampler",
    "ADJUSTMENTS",
    "DifferenceTests",
    "difference_tests",
    "MIN_GROUPS",
    "few_groups_reason",
    "MIN_DISCORDANT",
    "design_effect",
    "jackknife_variance",
    "MIN_RESAMPLES_DECISION",
    "MIN_RESAMPLES_INTERVAL",
    "check_n_boot",
    "CI_METHODS",
    "CI_METHOD_LABELS",
    "DEFAULT_CI_METHOD",
    "JACKKNIFE_BLOCKS",
    "MIN_EVENTS",
    "check_ci_method",
    "bootstrap_interval",
    "jackknife_weights",
    "jackknife_blocks",
    "acceleration",
    "effective_df",
    "narrow_interval_reason",
    "warn_narrow",
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
    "MultipleTestResult",
    "holm",
    "benjamini_hochberg",
]
