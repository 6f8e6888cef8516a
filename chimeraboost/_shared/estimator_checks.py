"""What an estimator is, whether it is fitted, and whether ``X`` is what it was fitted on.

Questions answered here, one function each (re-exported by ``_validation``, the one place the
other modules import checks from):

- Is it a classifier or a regressor? :func:`estimator_family` (declared type first).
- Is it fitted? :func:`check_fitted`.
- Which estimator makes the predictions of a pipeline or a search? :func:`final_estimator`.
- Which quantile levels does it predict? :func:`quantile_levels`.
- Is ``X`` the table it was fitted on? :func:`check_features` (the final-step trap).
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_features", "check_fitted", "estimator_family", "final_estimator",
           "quantile_levels"]


def check_fitted(estimator, arg: str, shown: str) -> None:
    """``estimator`` has ``predict`` and is fitted (scikit-learn's check, or for models
    without scikit-learn's tags, scikit-learn's rule: a fitted attribute ends in "_")."""
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    if not hasattr(estimator, "predict"):
        msg = (f"{arg} must be a fitted scikit-learn estimator with a predict method, got "
               f"{type(estimator).__name__}.")
        raise TypeError(msg)
    try:
        check_is_fitted(estimator)
    except NotFittedError as exc:
        msg = f"{arg} ({shown}) is not fitted: {exc}"
        raise NotFittedError(msg) from exc
    except (AttributeError, TypeError):
        if not any(k.endswith("_") and not k.startswith("__") for k in vars(estimator)):
            msg = f"{arg} ({shown}) is not fitted: it has no fitted attributes."
            raise NotFittedError(msg) from None


def estimator_family(estimator) -> str:
    """``"classifier"`` or ``"regressor"``: what the estimator says it is (scikit-learn's
    tags, then ``_estimator_type``), and only for a model that says nothing, what it offers
    (``predict_proba`` or a non-empty ``classes_`` make a classifier). An attribute alone is
    not trusted when the estimator declares its type: CatBoost's regressors carry an empty
    ``classes_``."""
    from sklearn.base import is_classifier, is_regressor

    for declared, family in ((is_classifier, "classifier"), (is_regressor, "regressor")):
        try:
            if declared(estimator):
                return family
        except (AttributeError, TypeError):  # duck-typed models without scikit-learn tags
            break
    kind = getattr(estimator, "_estimator_type", None)
    if kind in ("classifier", "regressor"):
        return kind
    try:
        classes = getattr(estimator, "classes_", None)
        has_classes = classes is not None and len(classes) > 0
    except Exception:  # noqa: BLE001 - a property that raises means "no classes"
        has_classes = False
    return "classifier" if has_classes or hasattr(estimator, "predict_proba") else "regressor"


def final_estimator(estimator):
    """The estimator that makes the predictions: through Pipelines and fitted searches."""
    for _ in range(10):
        if hasattr(estimator, "steps"):
            estimator = estimator.steps[-1][1]
        elif hasattr(estimator, "best_estimator_"):
            estimator = estimator.best_estimator_
        else:
            break
    return estimator


def quantile_levels(estimator):
    """The quantile levels a model predicts (``quantiles_``, else ``quantiles``), or None."""
    final = final_estimator(estimator)
    levels = getattr(final, "quantiles_", getattr(final, "quantiles", None))
    if levels is None:
        return None
    try:
        levels = np.atleast_1d(np.asarray(levels, dtype=np.float64))
    except (TypeError, ValueError):
        return None
    return levels if levels.ndim == 1 and levels.size > 0 else None


def _column_names(X):
    """String column names of a DataFrame (pandas or polars), as scikit-learn reads them;
    None for arrays and for frames with non-string column labels."""
    columns = getattr(X, "columns", None)
    if columns is None or isinstance(X, np.ndarray):
        return None
    names = list(columns)
    return names if names and all(isinstance(c, str) for c in names) else None


def check_features(estimator, X, arg: str, shown: str) -> None:
    """Refuse ``X`` that is not what ``estimator`` was fitted on: another number of columns,
    other column names, or names where it saw none (the last step of a pipeline handed the
    raw table, which would skip the preprocessing and print a confident wrong number)."""
    n_in = getattr(estimator, "n_features_in_", None)
    names_in = getattr(estimator, "feature_names_in_", None)
    shape = getattr(X, "shape", None)
    n_x = shape[1] if shape is not None and len(shape) == 2 else None
    names = _column_names(X)
    whole = ("If it is one step of a pipeline or a search, report the whole fitted pipeline "
             "(e.g. search.best_estimator_), which applies the preprocessing first.")
    problem = None
    if isinstance(n_in, numbers.Integral) and n_x is not None and n_x != n_in:
        problem = f"X has {n_x} columns but {arg} ({shown}) was fitted on {n_in}."
    elif names_in is not None and names is not None and list(names_in) != names:
        differ = [a for a, b in zip(names, list(names_in)) if a != b][:3]
        problem = (f"X's columns differ from those {arg} ({shown}) was fitted on (first "
                   f"differences: {differ}; fitted on {list(names_in)[:5]}...).")
    elif names_in is None and names is not None and n_in is not None:
        problem = (f"X is a table with column names ({names[:3]}...) but {arg} ({shown}) was "
                   "fitted without column names, i.e. on the output of some other step. "
                   + whole + " If X really holds what it was fitted on, pass X.to_numpy().")
        whole = ""
    elif names_in is not None and names is None and n_x is not None:
        problem = (f"{arg} ({shown}) was fitted on a table with columns "
                   f"{list(names_in)[:5]}... but X has no column names; pass a DataFrame "
                   "with those columns.")
    if problem is not None:
        msg = f"{problem} {whole}".strip()
        raise ValueError(msg)
