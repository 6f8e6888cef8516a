"""A scikit-learn Pipeline that reports on itself.

Questions this module answers:

- *How do I get ``pipe.report(X_test, y_test)`` on a pipeline whose last step is any
  classifier or regressor?* -> :func:`make_pipeline` (or :class:`Pipeline`), a drop-in for
  scikit-learn's, with :class:`~chimeraboost.ReportMixin`'s ``report``.

Reporting the whole pipeline, rather than its last step, is what keeps the preprocessing in the
numbers: a fitted final step handed the raw table is refused by ``report`` (it would score
untransformed features).
"""

from __future__ import annotations

from sklearn import pipeline as _sk_pipeline

from ._report import ReportMixin

__all__ = ["Pipeline", "make_pipeline"]


class Pipeline(ReportMixin, _sk_pipeline.Pipeline):
    """scikit-learn's ``Pipeline`` plus ``report(X, y, ...)``; everything else is unchanged.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pipe = Pipeline([("scale", StandardScaler()), ("model", LogisticRegression())])
    >>> r = pipe.fit(X[:400], y[:400]).report(X[400:], y[400:], baseline=y[:400])
    >>> r["roc_auc"] > 0.9
    True
    """


def make_pipeline(*steps, **kwargs) -> Pipeline:
    """:func:`sklearn.pipeline.make_pipeline` (same arguments, steps named the same way),
    returning a :class:`Pipeline` with ``report``.

    Examples
    --------
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.preprocessing import StandardScaler
    >>> make_pipeline(StandardScaler(), Ridge()).steps[1][0]
    'ridge'
    """
    plain = _sk_pipeline.make_pipeline(*steps, **kwargs)
    return Pipeline(**plain.get_params(deep=False))
