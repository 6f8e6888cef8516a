"""Placeholder: the report layer (Report, report(), ReportMixin) is being built (issue 4)."""


class ReportMixin:
    """Gives ``.report(X, y, baseline=...)`` to any scikit-learn estimator (being built)."""
