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
               costs=None, by=None, bins=5, min_rows=30, min_events=10, adjust="holm",
               n_jobs=None, ci_method=resampling.DEFAULT_CI_METHOD, groups=None,
               time=None) -> Report:
        """This fitted model's :func:`report` on ``(X, y)``; same arguments."""
        return report(self, X, y, baseline=baseline, sample_weight=sample_weight, ci=ci,
                      n_boot=n_boot, random_state=random_state, k=k, name=name,
                      baseline_name=baseline_name, threshold=threshold, costs=costs, by=by,
                      bins=bins, min_rows=min_rows, min_events=min_events, adjust=adjust,
                      n_jobs=n_jobs, ci_method=ci_method, groups=groups, time=time)
