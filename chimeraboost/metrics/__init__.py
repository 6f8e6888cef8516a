"""Is the model any good, compared with what? The numbers, on arrays.

Pure functions: arrays in, floats and dicts out; no estimator is ever seen here. Every proper
score comes with the base rate of the rows it was computed on, the loss of the no-skill
forecast that base rate implies, and the skill ``1 - loss / reference``.

Questions worth asking, and which function answers each:

- How good are the probabilities, against knowing only the base rate?
  :func:`classification_report` (log loss and Brier with their references and skills),
  :func:`log_loss_skill`, :func:`brier_skill`.
- What does the no-skill forecast score at this base rate? :func:`reference_log_loss`,
  :func:`reference_brier` (closed forms), :func:`class_prior`.
- Are the probabilities calibrated, and how much do they discriminate?
  :func:`calibration_mcb`, :func:`calibration_decomposition` (CORP: MCB, DSC, UNC).
- Is the MCB more than the noise of these rows, and how large is the miscalibration beyond
  them? :func:`calibration_test` (noise floor, excess, p-value, an interval for the
  population MCB).
- Over- or under-confident? :func:`calibration_test` too: Cox's recalibration intercept and
  slope and their score test (``recalibration_*``).
- Where are they off? :func:`reliability_curve` (the isotonic recalibration behind MCB, with
  a consistency band; :mod:`chimeraboost.plotting` draws it).
- Does the model put positives first? ``roc_auc`` and ``pr_auc`` in the reports,
  :func:`ranking_report` for models that give scores but no probabilities.
- If I can act on k cases, how many positives do I catch? :func:`recall_at_k`,
  :func:`precision_at_k` (ties at the cutoff shared fractionally).
- How far off are the numbers of a regressor, against predicting the mean?
  :func:`regression_report` (``r2`` and ``mae_skill``).
- What do I print? :func:`format_report`.
- What is the report of rows that do not fit in memory, or arrive in pieces?
  :class:`ClassificationAccumulator`, :class:`RegressionAccumulator` (``update`` per chunk,
  ``merge``, ``report``).

Every number is computed by an *evaluator* (:func:`classification_evaluator`,
:func:`regression_evaluator`) that sorts the scores once and then evaluates any number of
weight vectors; the bootstrap in ``resampling`` reuses exactly these definitions.

Where things live: every name is re-exported here, and ``chimeraboost.metrics`` is the one
import path; the private modules, by question:

- ``_proper_scores``: log loss and Brier score, their no-skill references and skills
  (:func:`reference_log_loss`, :func:`reference_brier`, :func:`class_prior`,
  :func:`log_loss`, :func:`brier_score`, :func:`log_loss_skill`, :func:`brier_skill`).
- ``_calibration``: :func:`calibration_decomposition`, :func:`calibration_mcb`;
  ``_calibration_test``: :func:`calibration_test`, :class:`CalibrationTestResult`
  (Cox's recalibration and its score test in ``_recalibration``);
  ``_reliability``: :func:`reliability_curve`, :class:`ReliabilityCurve`.
- ``_ranking``: :func:`ranking_report`, :func:`recall_at_k`, :func:`precision_at_k`.
- ``_report``: :func:`classification_report`.
- ``_classification``: :func:`classification_evaluator`, :class:`ClassificationEvaluator`,
  the one definition of every classification number (ROC, PR and the isotonic recalibration
  in ``_curves``), on the engine of ``_kernels`` (one sort per score for many weight vectors;
  ``isotonic_recalibration``, the one isotonic fit behind every MCB).
- ``_regression``: :func:`regression_report`, :func:`regression_evaluator`,
  :class:`RegressionEvaluator`.
- ``_accumulators`` (with ``_score_grid``) and ``_regression_accumulator`` (with
  ``_value_summary``, the values of ``y`` kept for their median):
  :class:`ClassificationAccumulator`, :class:`RegressionAccumulator`; ``_replicates`` adds
  their Poisson bootstrap replicates.
- :func:`format_report` is the shared formatter of ``chimeraboost._shared.format``.
"""

from __future__ import annotations

# In the order of the questions above: the API page lists the functions in this order.
from ._proper_scores import (
    class_prior,
    reference_log_loss,
    reference_brier,
    log_loss,
    brier_score,
    log_loss_skill,
    brier_skill,
)
from ._calibration import calibration_mcb, calibration_decomposition
from ._calibration_test import calibration_test, CalibrationTestResult
from ._reliability import reliability_curve, ReliabilityCurve
from ._ranking import recall_at_k, precision_at_k, ranking_report
from ._report import classification_report
from ._regression import regression_report, regression_evaluator, RegressionEvaluator
from ._classification import classification_evaluator, ClassificationEvaluator
from ._accumulators import ClassificationAccumulator
from ._regression_accumulator import RegressionAccumulator
from .._shared.format import format_report

__all__ = [
    "class_prior",
    "reference_log_loss",
    "reference_brier",
    "log_loss",
    "brier_score",
    "log_loss_skill",
    "brier_skill",
    "calibration_mcb",
    "calibration_decomposition",
    "calibration_test",
    "CalibrationTestResult",
    "reliability_curve",
    "ReliabilityCurve",
    "recall_at_k",
    "precision_at_k",
    "classification_report",
    "ranking_report",
    "regression_report",
    "classification_evaluator",
    "regression_evaluator",
    "ClassificationEvaluator",
    "RegressionEvaluator",
    "ClassificationAccumulator",
    "RegressionAccumulator",
    "format_report",
]
