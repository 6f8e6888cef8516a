"""chimeraboost: is the model any good, compared with what?

Every loss comes with the base rate of the rows it was computed on, the loss of the no-skill
forecast, the skill against it and, on request, an uncertainty interval; when two models meet,
a paired comparison on the same rows.

- ``chimeraboost.metrics`` / ``chimeraboost.quantile_metrics``: the numbers, on arrays.
- ``chimeraboost.scorers``: ``scoring="brier_skill"``, ``"log_loss_skill"``,
  ``"neg_calibration_mcb"`` in scikit-learn's model selection (registered on import).
- ``chimeraboost.report(estimator, X, y)`` / ``ReportMixin``: the numbers of a fitted
  estimator, with intervals (``chimeraboost.report`` is the function; there is no module of
  that name).
- ``chimeraboost.make_pipeline`` / ``Pipeline``: scikit-learn's, with ``pipe.report(X, y)``.
- ``chimeraboost.exceptions``: ``DegenerateMetricWarning``, ``FewResamplesWarning`` and
  ``LowPowerWarning``.
- ``chimeraboost.resampling``: bootstrap intervals and paired differences, DeLong.
- ``chimeraboost.decisions``: acting at a threshold -- net benefit against treat-all and
  treat-none, expected cost, rates with intervals, the uncertainty of a threshold chosen on
  the data, decision and cost curves.
- ``chimeraboost.baselines``: the ladder of simple models a model must beat (the prior, the
  best single column, a linear model).
- ``chimeraboost.compare``: champion against challengers on the same folds or rows (corrected
  resampled t-test, Bayesian test with a ROPE, Holm / Benjamini-Hochberg) with a decision.
- ``chimeraboost.dask``: the reports on dask arrays and DataFrames that live on a cluster
  (dask itself is imported only when one is passed: ``pip install "chimeraboost[dask]"``).
- ``chimeraboost.monitor``: ``skill_over_time`` -- loss, base rate, reference and skill per
  period, so that a drifting base rate is not mistaken for a better or worse model.
- ``chimeraboost.slices``: who is the model good for? ``slice_report`` and
  ``report(..., by=...)`` -- each slice against its own base rate, compared with the rest
  of the rows, verdicts adjusted for the number of slices; ``find_weak_slices``.
- ``chimeraboost.promotion``: from an offline win to a promotion -- shadow traffic
  (``shadow_report``), the plan of the online test (``plan_ab_test``) and its sequential
  readout (``read_ab_test``).
- ``ChimeraBoostClassifier`` / ``Regressor`` / ``QuantileRegressor``: gradient boosting on
  scikit-learn's histogram engine, temperature-scaled.
"""

import importlib

from ._shared.sklearn_scoring import serve_lazily

# The idiom type checkers read as typing.TYPE_CHECKING, without importing typing.
TYPE_CHECKING = False
if TYPE_CHECKING:  # for editors and type checkers; at run time each name loads at first use
    from . import (baselines, compare, dask, decisions, exceptions, metrics, monitor,
                   plotting, promotion, quantile_metrics, resampling, scorers, slices)
    from ._report import Report, ReportMixin, report
    from .estimators import (ChimeraBoostClassifier, ChimeraBoostQuantileRegressor,
                             ChimeraBoostRegressor)
    from .pipeline import Pipeline, make_pipeline

# ``import chimeraboost`` loads nothing heavy: each name below is imported at its first use
# (PEP 562), so that the command line answers ``--help`` before scikit-learn and scipy load.
_SUBPACKAGES = ("baselines", "compare", "dask", "decisions", "exceptions", "metrics", "monitor",
                "plotting", "promotion", "quantile_metrics", "resampling", "scorers", "slices")
_DEFINED_IN = {
    "ChimeraBoostClassifier": "estimators",
    "ChimeraBoostQuantileRegressor": "estimators",
    "ChimeraBoostRegressor": "estimators",
    "Report": "_report",
    "ReportMixin": "_report",
    "report": "_report",
    "Pipeline": "pipeline",
    "make_pipeline": "pipeline",
}
# The scoring strings chimeraboost.scorers registers (chimeraboost.scorers.SCORING_NAMES).
_SCORING_NAMES = ("brier_skill", "log_loss_skill", "neg_calibration_mcb")


def __getattr__(name):
    if name in _SUBPACKAGES:
        value = importlib.import_module(f"{__name__}.{name}")
    elif name in _DEFINED_IN:
        value = getattr(importlib.import_module(f"{__name__}.{_DEFINED_IN[name]}"), name)
    else:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *__all__})


def _registered_scorer(name):
    """The scorer behind the scoring string ``name`` (loads chimeraboost.scorers)."""
    from . import scorers

    return getattr(scorers, f"{name}_scorer")


# Makes "brier_skill", "log_loss_skill" and "neg_calibration_mcb" valid scoring strings
# everywhere scikit-learn takes one, from the moment scikit-learn is loaded; idempotent,
# never overwrites a user's scorer.
serve_lazily(_SCORING_NAMES, _registered_scorer)

__version__ = "0.1.0"

__all__ = [
    "ChimeraBoostClassifier",
    "ChimeraBoostQuantileRegressor",
    "ChimeraBoostRegressor",
    "Pipeline",
    "Report",
    "ReportMixin",
    "baselines",
    "compare",
    "dask",
    "decisions",
    "exceptions",
    "make_pipeline",
    "metrics",
    "monitor",
    "plotting",
    "promotion",
    "quantile_metrics",
    "report",
    "resampling",
    "scorers",
    "slices",
    "__version__",
]
