"""From an offline win to a promotion: shadow traffic, the plan of the online test, and its
honest readout.

A challenger that beats the champion offline still has three steps to go. Questions worth
asking at each, and which function answers each:

- *Shadow traffic, no labels yet: do the two models agree on live rows, and do their scores
  look like they did offline?* :func:`shadow_report` (:class:`ShadowReport`): decision flip
  rates in each direction, Cohen's kappa, top-K overlap, rank correlation, predicted positive
  rate and mean probability against the offline base rate, each model's score shift from its
  offline scores (PSI, KS), every number with a paired bootstrap interval; flip rates per
  slice with multiplicity; once labels arrive, who is right where they disagree (McNemar's
  test: exact, or clustered with ``groups=`` / ``time=``, the rows of a user or a stretch of
  time resampled together).
- *How many rows and days does the online test need?* :func:`plan_ab_test`
  (:class:`ABTestPlan`, saved as JSON: the pre-registration), from the offline evidence of
  each metric (:func:`ab_metric`); the sample sizes alone: :func:`sample_size_proportions`,
  :func:`sample_size_means`, :func:`sample_size_auc`.
- *What does the test say, however often it was looked at?* :func:`read_ab_test`
  (:class:`ABReadout`): promote, keep the champion, or keep testing (with the rows still
  needed), on the plan's primary metric and guardrails; randomised by user, several rows
  per user: ``groups_champion=`` / ``groups_challenger=`` (cluster-robust standard errors)
  and ``plan_ab_test(design_effect=)``.
- *The bounds themselves?* :func:`lan_demets_bounds` (the sequential method used: a
  group-sequential design with Lan-DeMets O'Brien-Fleming-type alpha spending),
  :func:`obrien_fleming_bounds` (the classical bounds), :func:`crossing_probabilities`.

The first step of the path -- the challenger better on the latest time window, not only on
random cross-validation -- is the comparison over time of :mod:`chimeraboost.compare` and
:mod:`chimeraboost.monitor`; its per-window comparison, once resampling takes ``time=``, gets
a module of its own here beside the three steps below.

Where each question is answered: ``_shadow`` (shadow traffic), ``_mcnemar`` (who is right
where the decisions differ), ``_metrics`` (what an arm measures, and its variance on
clustered rows), ``_sample_size`` and ``_plan`` (the plan), ``_sequential`` (the bounds),
``_readout`` (the readout), ``_resample`` (the shadow's replicates and intervals, drawn from
the one resampling engine, :class:`chimeraboost.resampling.Resampler`).
"""

from __future__ import annotations

from ._plan import ABMetric, ABTestPlan, ab_metric, plan_ab_test
from ._readout import ABReadout, read_ab_test
from ._shadow import ShadowReport, shadow_report
from ._sample_size import sample_size_auc, sample_size_means, sample_size_proportions
from ._sequential import (
    crossing_probabilities,
    inflation_factor,
    lan_demets_bounds,
    obrien_fleming_bounds,
    spent_alpha,
)

__all__ = [
    "ABMetric", "ABReadout", "ABTestPlan", "ab_metric", "crossing_probabilities",
    "inflation_factor", "lan_demets_bounds", "obrien_fleming_bounds", "plan_ab_test",
    "read_ab_test", "sample_size_auc", "sample_size_means", "sample_size_proportions",
    "shadow_report", "ShadowReport", "spent_alpha",
]
