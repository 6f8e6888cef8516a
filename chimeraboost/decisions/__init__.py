"""Is acting on the model better than acting on everyone, on no one, or on the current rule --
at the costs we face? Decisions at a threshold.

A model is deployed as an action: flag, call, treat, block the rows whose probability is at or
above a threshold. Questions worth asking, and which function answers each:

- What is acting on the model worth, against treating everyone and no one?
  :func:`net_benefit` (Vickers & Elkin 2006) at any thresholds, with treat-all, treat-none
  and the standardized net benefit.
- What does it cost at our costs, and which threshold do the costs imply?
  :func:`expected_cost` (a cost matrix, or ``cost_fp`` / ``cost_fn`` with benefits), with the
  Bayes threshold and the cost-minimising cutoff on the data.
- How often is the action right, and how sure is that? :func:`rates_at_threshold`:
  sensitivity, specificity, PPV, NPV and the flagged share with Wilson, exact or bootstrap
  intervals.
- I chose the threshold on these rows: how uncertain is it, and what is it worth on new
  rows? :func:`choose_threshold` (the threshold re-chosen inside every resample).
- Over a range of thresholds, with bands and paired bands against a baseline?
  :func:`decision_curve`.
- The whole decision of a model against treat-all, treat-none and a baseline, with paired
  intervals? :func:`decision_report` (what ``chimeraboost.report(..., threshold=, costs=)``
  prints).
- The best cost for every ratio of costs, and the cost of using the probability as its own
  threshold? :func:`cost_curve` (Drummond & Holte 2006) and :func:`brier_curve`
  (Hernandez-Orallo et al. 2011), as arrays.
- A bootstrap band around the ROC or PR curve? :func:`curve_band`.

Conventions: a row is treated when its score is ``>= t`` (as in ``dcurves``); a 0/1 rule is a
score too (1: treat), the same decision at every threshold. Probability thresholds need
probabilities: a score outside [0, 1] is refused where a probability threshold is asked.

How it is fast: every number comes from the weight of positives and negatives treated at each
threshold; the rows are sorted into the bins between the thresholds once, and any number of
weight vectors -- the bootstrap's resampling counts of :mod:`chimeraboost.resampling` -- then
costs one gather and one cumulative sum (:class:`DecisionEvaluator`).

How sure: every resampled number (the decision report's intervals, the bands of the curves,
the re-chosen threshold's intervals, bootstrap rates) comes from one
:class:`~chimeraboost.resampling.Resampler` per call, shared by every model of the call (so
differences are paired), and is read by ``ci_method=``; bands are pointwise (each point's
interval by ``ci_method``). ``groups=`` resamples whole groups, ``time=`` blocks of time.

Where things live: ``_checks`` (inputs, costs, the Bayes threshold, names), ``_sweep`` (the
kernel and the evaluator), ``_scheme`` (the resampling scheme, the curves' replicates),
``_net_benefit``, ``_costs`` (expected cost, cost and Brier curves), ``_rates``,
``_threshold``, ``_curves`` (decision curve, ROC / PR bands), ``_decision_report``.

References
----------
.. [VE06] Vickers, A. J. and Elkin, E. B. (2006). Decision curve analysis: a novel method for
   evaluating prediction models. *Medical Decision Making* 26(6), 565-574.
   doi:10.1177/0272989X06295361
.. [DH06] Drummond, C. and Holte, R. C. (2006). Cost curves: an improved method for visualizing
   classifier performance. *Machine Learning* 65, 95-130. doi:10.1007/s10994-006-8199-5
.. [HFF11] Hernandez-Orallo, J., Flach, P. and Ferri, C. (2011). Brier curves: a new cost-based
   visualisation of classifier performance. *ICML*, 585-592.
"""

from __future__ import annotations

from ._checks import Costs, bayes_threshold
from ._net_benefit import NetBenefitResult, net_benefit
from ._costs import (
    BrierCurve,
    CostCurve,
    ExpectedCostResult,
    brier_curve,
    cost_curve,
    expected_cost,
)
from ._rates import RatesResult, rates_at_threshold
from ._threshold import ThresholdChoice, choose_threshold
from ._curves import CurveBand, DecisionCurve, curve_band, decision_curve
from ._decision_report import DecisionReport, decision_report
from ._sweep import DecisionEvaluator

__all__ = [
    "net_benefit",
    "NetBenefitResult",
    "expected_cost",
    "ExpectedCostResult",
    "Costs",
    "bayes_threshold",
    "rates_at_threshold",
    "RatesResult",
    "choose_threshold",
    "ThresholdChoice",
    "decision_curve",
    "DecisionCurve",
    "decision_report",
    "DecisionReport",
    "cost_curve",
    "CostCurve",
    "brier_curve",
    "BrierCurve",
    "curve_band",
    "CurveBand",
    "DecisionEvaluator",
]
