"""Is the challenger better than the champion? Paired comparisons with a decision rule.

When two models meet, a user gets a paired comparison -- both models scored on the same rows or
the same folds -- and a decision, never two bare scores. Questions worth asking, and which
function answers each:

- Which of these candidate models, trained and scored on the same cross-validation folds, should
  replace the incumbent? :func:`compare_cv` (per-fold differences, corrected t-test, Bayesian
  correlated t-test, Holm adjustment over the challengers, a champion/challenger decision).
- Two fitted models, one held-out set: should the challenger go to production?
  :func:`compare_holdout` (the paired bootstrap of :func:`chimeraboost.report`, a decision
  on the primary metric, DeLong's paired ROC-AUC test for binary classifiers).
- The prior, the best single column, a linear model, my model and the business rule, on one
  held-out set: which beats which, with intervals? :func:`holdout_table` (every row on the
  same rows and the same bootstrap resamples; a paired difference against a baseline row).
- I already have per-fold score differences: is the mean difference non-zero?
  :func:`corrected_ttest` (Nadeau & Bengio). How probable is it that one model is better by a
  margin that matters, or that the two are practically equivalent? :func:`bayesian_ttest`
  (Benavoli et al.'s correlated t-test with a region of practical equivalence, the *rope*).
- Which model to choose: the champion unless a challenger is clearly better, the best mean,
  the simplest model within noise of the best, or the one-standard-error rule? ``rule=`` of
  :func:`compare_cv`, with ``guardrails=`` that must not degrade; :func:`compare_cv_results`
  does the same from ``cross_validate(..., return_indices=True)`` outputs, and
  :func:`one_se_refit` brings the one-standard-error rule to ``GridSearchCV(refit=...)``.
- Several challengers at once: which p-values survive the multiplicity? :func:`holm` (family-wise
  error) and :func:`benjamini_hochberg` (false discovery rate).
- Several models scored on several data sets: how do they rank, which differ, which cannot be
  told apart? :func:`compare_datasets` (average ranks, Friedman, Nemenyi's critical difference,
  Holm-adjusted Wilcoxon tests, the critical-difference diagram; Demšar 2006).

Why the corrections: the training sets of k-fold CV overlap, so per-fold differences are
positively correlated and the naive t-test's variance ``s^2 / J`` is far too small -- it declares
differences that are not there. Nadeau & Bengio inflate it to ``(1/J + n_test/n_train) s^2``;
Benavoli et al. use the same inflation for the scale of a Student-t posterior.

Where each question is answered (private subpackages, one per question; everything public is
re-exported here): ``_cv`` the comparisons on cross-validation folds (:func:`compare_cv`,
:func:`compare_cv_results`, their results, the per-fold tests, the ``rule=`` choices, the
guardrails and :func:`one_se_refit`); ``_holdout`` the comparisons on held-out rows
(:func:`compare_holdout`, :func:`holdout_table` and its table); ``_datasets``
:func:`compare_datasets`. The multiplicity adjustments :func:`holm` and
:func:`benjamini_hochberg` live in :mod:`chimeraboost.resampling` (the slices use them too) and
are re-exported here as the same objects.

References
----------
.. [NB03] Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. *Machine
   Learning* 52(3), 239-281. doi:10.1023/A:1024068626366
.. [BCDZ17] Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a change: a
   tutorial for comparing multiple classifiers through Bayesian analysis. *Journal of Machine
   Learning Research* 18(77), 1-36.
.. [H79] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
   *Scandinavian Journal of Statistics* 6(2), 65-70.
.. [BH95] Benjamini, Y. and Hochberg, Y. (1995). Controlling the false discovery rate: a
   practical and powerful approach to multiple testing. *JRSS B* 57(1), 289-300.
   doi:10.1111/j.2517-6161.1995.tb02031.x
.. [K18] Kruschke, J. K. (2018). Rejecting or accepting parameter values in Bayesian
   estimation. *Advances in Methods and Practices in Psychological Science* 1(2), 270-280.
   doi:10.1177/2515245918771304
"""

from __future__ import annotations

from ._cv import (
    EQUIVALENT,
    KEEP,
    REPLACE,
    BayesianTTestResult,
    ChallengerResult,
    ComparisonResult,
    CorrectedTTestResult,
    GuardrailResult,
    bayesian_ttest,
    compare_cv,
    compare_cv_results,
    corrected_ttest,
    one_se_refit,
)
from ._datasets import DatasetComparison, compare_datasets, nemenyi_q
from ._holdout import (
    MIN_ROWS_DECISION,
    HoldoutComparison,
    HoldoutTable,
    compare_holdout,
    holdout_table,
)
# The multiplicity adjustments live in resampling (the slices use them too); the same objects.
from ..resampling import MultipleTestResult, benjamini_hochberg, holm

__all__ = [
    "CorrectedTTestResult",
    "BayesianTTestResult",
    "MultipleTestResult",
    "ChallengerResult",
    "ComparisonResult",
    "HoldoutComparison",
    "corrected_ttest",
    "bayesian_ttest",
    "holm",
    "benjamini_hochberg",
    "compare_cv",
    "compare_holdout",
    "MIN_ROWS_DECISION",
    "DatasetComparison",
    "compare_datasets",
    "nemenyi_q",
    "GuardrailResult",
    "compare_cv_results",
    "one_se_refit",
    "HoldoutTable",
    "holdout_table",
]
