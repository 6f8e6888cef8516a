"""Is this fitted model any good, compared with what? The report on any estimator.

Questions worth asking, and what answers each:

- How good is this fitted model on these rows, against the no-skill forecast?
  ``report(model, X, y)`` (or ``model.report(X, y)`` with :class:`ReportMixin`): log loss and
  Brier with the base rate, the reference loss and the skill; calibration; ranking; threshold
  metrics -- whatever the model can be judged on.
- Against the forecast it could have made without features? ``baseline=y_train``.
- Better than the model in production, on the same rows? ``baseline=<fitted estimator>``:
  :attr:`Report.vs_baseline` holds every metric's paired difference (model minus baseline)
  with its bootstrap interval.
- How sure is each number? ``ci=0.95``: :attr:`Report.ci` holds bootstrap intervals, read
  off the resamples by ``ci_method`` (see :mod:`chimeraboost.resampling`).

The model's outputs come from :mod:`chimeraboost._shared.estimator_outputs`, the one place that
calls ``predict_proba`` / ``decision_function`` / ``predict``; the numbers themselves come from
:mod:`chimeraboost.metrics` and :mod:`chimeraboost.quantile_metrics`, so a report says exactly
what those functions say on the model's output.
"""

from __future__ import annotations

# What the model is judged on and what it outputs; what each model is called.
from ._naming import distinct_names
from ._scoring import score_estimator
# The public call, its result object and the mixin that puts it on an estimator.
from ._compute import report
from ._result import Report
from ._mixin import ReportMixin

__all__ = ["Report", "ReportMixin", "report"]
