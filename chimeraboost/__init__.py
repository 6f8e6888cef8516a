"""chimeraboost: is the model any good, compared with what?

Every loss comes with the base rate of the rows it was computed on, the loss of the no-skill
forecast, the skill against it and, on request, an uncertainty interval; when two models meet,
a paired comparison. See ``chimeraboost.metrics`` (numbers on arrays), ``chimeraboost.report``
(numbers on fitted estimators) and ``chimeraboost.scorers`` (scoring strings for
scikit-learn's model selection).
"""

from . import metrics, quantile_metrics

__version__ = "0.1.0"

__all__ = ["metrics", "quantile_metrics", "__version__"]
