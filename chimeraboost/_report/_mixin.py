"""How does an estimator class get a ``report`` method? :class:`ReportMixin`."""

from __future__ import annotations

from .. import resampling
from ._compute import report
from ._result import Report

__all__ = ["ReportMixin"]


class ReportMixin:
    """Gives any scikit-learn estimator a ``report(X, y, ...)`` method.

    ``class MyLR(ReportMixin, LogisticRegression): pass`` -- the mixin adds a method and
    nothing else (no ``__init__``, no parameters, no state), so ``get_params``, ``clone``,
    pickling and ``sklearn.utils.estimator_checks`` behave exactly as for the base class.
    """

    def report(self, X, y, *, baseline=None, sample_weight=None, ci=None, n_boot=2000,
               random_state=None, k=None, name=None, baseline_name=None, threshold=None,
               costs=None, ci_method=resampling.DEFAULT_CI_METHOD) -> Report:
        """This fitted model's :func:`report` on ``(X, y)``; same arguments."""
        return report(self, X, y, baseline=baseline, sample_weight=sample_weight, ci=ci,
                      n_boot=n_boot, random_state=random_state, k=k, name=name,
                      baseline_name=baseline_name, threshold=threshold, costs=costs,
                      ci_method=ci_method)
