"""Which model should the cross-validation folds choose? The comparisons on CV folds.

- Candidates trained and scored on the same folds: which replaces the incumbent?
  :func:`compare_cv` (``_compare_cv``), or :func:`compare_cv_results` from
  ``cross_validate(..., return_indices=True)`` outputs; what they return,
  :class:`ComparisonResult` and :class:`ChallengerResult`, is in ``_cv_result``.
- Per-fold differences of two models: is the mean non-zero, how probable is a difference that
  matters? :func:`corrected_ttest` and :func:`bayesian_ttest` (``_paired_tests``).
- Which model to choose, under which guardrails? ``rule=``, the guardrails and
  :func:`one_se_refit` (``_rules``, which also names the three decisions a comparison ends in).

Private: :mod:`chimeraboost.compare` re-exports every public name.
"""

from __future__ import annotations

from ._compare_cv import compare_cv, compare_cv_results
from ._cv_result import ChallengerResult, ComparisonResult
from ._paired_tests import (
    BayesianTTestResult,
    CorrectedTTestResult,
    bayesian_ttest,
    corrected_ttest,
)
from ._rules import EQUIVALENT, KEEP, REPLACE, GuardrailResult, one_se_refit

__all__ = [
    "BayesianTTestResult",
    "ChallengerResult",
    "ComparisonResult",
    "CorrectedTTestResult",
    "EQUIVALENT",
    "GuardrailResult",
    "KEEP",
    "REPLACE",
    "bayesian_ttest",
    "compare_cv",
    "compare_cv_results",
    "corrected_ttest",
    "one_se_refit",
]
