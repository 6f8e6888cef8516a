"""Scores for quantile forecasts: is a predicted distribution any good, compared with what?

A quantile model predicts, for each row, the values below which the target should fall with
probabilities ``quantiles`` (tau_1 < ... < tau_K). The questions worth asking, and the function
that answers each:

========================================================  =====================================
Question                                                  Function
========================================================  =====================================
How far off is each predicted quantile (proper score)?    :func:`pinball_loss` (``average=False``)
How good is the whole predicted distribution?             :func:`crps` (mean pinball loss)
Is that better than not modelling at all?                 :func:`crps_skill` (vs. the constant
                                                          forecast of empirical quantiles)
Do the central intervals cover what they promise?         :func:`interval_coverage` (nominal,
                                                          coverage, width, interval score)
Are the predicted quantiles even in the right order?      :func:`crossing_rate`
All of the above, on one page                             :func:`quantile_report`,
                                                          :func:`format_report`
========================================================  =====================================

Only the pinball loss and its averages are *proper* scores: they are minimised in expectation
by the true quantiles, so they can rank models. Coverage and crossing rate are diagnostics that
say *why* a score is bad, never whether a model is better. The skill score states the reference
the loss is judged against, as everywhere in chimeraboost.

All functions take ``y`` of shape (n,), ``pred`` of shape (n, K) with one column per level, the
levels ``quantiles`` (K,) strictly increasing inside (0, 1), and optional non-negative
``sample_weight`` (n,). Rows of weight zero are ignored exactly as if they had been dropped.

Where things live: every name is re-exported here, and ``chimeraboost.quantile_metrics`` is
the one import path; the private modules, by question:

- ``_scores``: :func:`pinball_loss`, :func:`crps`, :func:`crps_skill` (the proper scores);
- ``_diagnostics``: :func:`interval_coverage`, :func:`crossing_rate`;
- ``_report``: :func:`quantile_report`, :func:`format_report`;
- ``_evaluator``: :func:`quantile_evaluator` and :class:`QuantileEvaluator`, the one
  definition of every number above, for any number of weight vectors, and
  :func:`empirical_quantiles`, the no-skill forecast it scores the model against.

References
----------
.. [KB78] Koenker, R. and Bassett, G. (1978). Regression quantiles. *Econometrica* 46(1),
   33-50. doi:10.2307/1913643
.. [GR07] Gneiting, T. and Raftery, A. E. (2007). Strictly proper scoring rules, prediction,
   and estimation. *Journal of the American Statistical Association* 102(477), 359-378.
   doi:10.1198/016214506000001437
.. [CFG10] Chernozhukov, V., Fernandez-Val, I. and Galichon, A. (2010). Quantile and
   probability curves without crossing. *Econometrica* 78(3), 1093-1125.
   doi:10.3982/ECTA7880
.. [HF96] Hyndman, R. J. and Fan, Y. (1996). Sample quantiles in statistical packages.
   *The American Statistician* 50(4), 361-365. doi:10.1080/00031305.1996.10473566
"""

from __future__ import annotations

# In the order of the questions above: the API page lists the functions in this order.
from ._scores import pinball_loss, crps, crps_skill
from ._diagnostics import interval_coverage, crossing_rate
from ._evaluator import empirical_quantiles, quantile_evaluator, QuantileEvaluator
from ._report import quantile_report, format_report

__all__ = [
    "pinball_loss",
    "crps",
    "crps_skill",
    "interval_coverage",
    "crossing_rate",
    "empirical_quantiles",
    "quantile_report",
    "quantile_evaluator",
    "QuantileEvaluator",
    "format_report",
]
