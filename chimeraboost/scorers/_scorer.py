"""The scorer object behind every chimeraboost scoring string: :class:`ProbaScorer` calls
the fitted estimator's ``predict_proba`` (or ``decision_function``), reads the class list from
its ``classes_`` and hands both to a metric of :mod:`chimeraboost.metrics`;
:func:`make_proba_scorer` makes one from any such metric.
"""

from __future__ import annotations

import numpy as np

from .._shared.sklearn_scoring import ScorerBase
from .._shared.validation import binary_target, warn_degenerate

__all__ = ["ProbaScorer", "make_proba_scorer", "check_name", "NEEDS"]


def _metadata_signature(y_true, y_proba, sample_weight=None, **kwargs):
    """scikit-learn's scorer base reads from this signature which metadata a scorer accepts
    (``sample_weight``) for ``set_score_request`` and routing. Only code that bypasses the
    scorer and feeds it bare predictions calls it."""
    msg = (
        "chimeraboost scorers score a fitted estimator (they need its predict_proba and "
        "classes_) and cannot be applied to bare predictions, e.g. by "
        "TunedThresholdClassifierCV, which scores thresholded labels."
    )
    raise TypeError(msg)


class ProbaScorer(ScorerBase):
    """A scikit-learn scorer for a :mod:`chimeraboost.metrics` function of probabilities.

    Called as ``scorer(estimator, X, y)`` (optionally ``sample_weight=``), it calls
    ``estimator.predict_proba(X)`` (or ``decision_function`` where asked), reads the class list
    from the fitted ``estimator.classes_`` and returns ``sign * metric(y, proba, classes, ...)``.
    Build instances with the ``make_*_scorer`` factories rather than directly.

    Attributes
    ----------
    name : str
        A short name for tables and plots (``"brier_skill"``, ``"recall_at_10"``).
    """

    def __init__(self, metric, *, sign, kwargs, response_method, name, call_repr, task="proba"):
        # The base class's response method is only read by scikit-learn's multi-metric
        # scorer, which probes it on the estimator before any scorer runs; the fallback
        # "predict" keeps that probe from raising its generic AttributeError, so that an
        # estimator without predict_proba gets our error naming the scorer instead.
        super().__init__(_metadata_signature, sign, dict(kwargs), (response_method, "predict"))
        self._method = response_method
        self._metric = metric
        self._task = task
        self.name = name
        self._call_repr = call_repr

    @property
    def _chimeraboost_name(self):
        # Marks registry entries as ours, so that re-registering is idempotent.
        return self.name

    def __repr__(self):
        return self._call_repr

    def _routing_repr(self):
        return self._call_repr

    def _score(self, method_caller, estimator, X, y_true, **kwargs):
        # ``method_caller`` is scikit-learn's cached predict call. It is bypassed on purpose: for
        # a binary model it caches a single column whose class depends on whichever scorer ran
        # first; the full (n, K) matrix plus ``classes_`` is never ambiguous.
        sample_weight = kwargs.pop("sample_weight", None)
        if kwargs:
            msg = (
                f"The scorer {self.name!r} accepts only sample_weight as metadata, got "
                f"{sorted(kwargs)}."
            )
            raise TypeError(msg)
        classes = _fitted_classes(estimator, self.name)
        if classes.shape[0] < 2:
            # A training fold that held one class: the model is certain of it whatever X is.
            # Legal in cross-validation on sorted or rare labels; its score is undefined.
            warn_degenerate(f"The estimator scored by {self.name!r} was fitted on a single "
                            f"class ({classes.tolist()}): the score is undefined (NaN).")
            return float("nan")
        response = _call_response(estimator, X, self._method, self.name)
        if self._task == "rank":
            value = _rank_metric(self, y_true, response, classes, sample_weight)
        else:
            value = self._metric(
                y_true, response, classes, sample_weight=sample_weight, **self._kwargs
            )
        return self._sign * value


def _fitted_classes(estimator, scorer_name: str) -> np.ndarray:
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        msg = (
            f"The scorer {scorer_name!r} scores classifiers: it reads the class labels from the "
            f"fitted estimator's classes_, which {type(estimator).__name__} does not have "
            "(is it a regressor, or not fitted?)."
        )
        raise TypeError(msg)
    return np.asarray(classes)


NEEDS = {
    "predict_proba": "probabilities",
    "decision_function": "ranking scores",
}


def _call_response(estimator, X, method: str, scorer_name: str):
    func = getattr(estimator, method, None)
    if func is None:
        hint = (
            " Use a classifier that has predict_proba, or wrap this one in "
            "sklearn.calibration.CalibratedClassifierCV."
            if method == "predict_proba"
            else ""
        )
        msg = (
            f"The scorer {scorer_name!r} needs {NEEDS[method]}: it calls {method}, which "
            f"{type(estimator).__name__} does not provide.{hint}"
        )
        raise TypeError(msg)
    return func(X)


def _rank_metric(scorer: ProbaScorer, y_true, response, classes, sample_weight) -> float:
    """recall/precision at k of a binary classifier: pick the positive class's score column."""
    if classes.shape[0] != 2:
        msg = (
            f"The scorer {scorer.name!r} ranks rows of a binary problem; the fitted estimator "
            f"has {classes.shape[0]} classes {classes.tolist()}."
        )
        raise ValueError(msg)
    pos_label = scorer._kwargs["pos_label"]
    if pos_label is None:
        # The rule of recall_at_k and roc_auc_interval: bool, 0/1 and -1/1 classes name their
        # positive class (True / 1); any other labels need pos_label.
        try:
            pos = int(np.flatnonzero(binary_target(classes, None, "classes_"))[0])
        except ValueError:
            msg = (f"The scorer {scorer.name!r} needs pos_label: the fitted estimator's "
                   f"classes_ {classes.tolist()} do not say which one is positive (only bool, "
                   "0/1 and -1/1 labels do).")
            raise ValueError(msg) from None
    else:
        # Python equality, label by label: numpy < 2 compares int classes with a str
        # pos_label as a whole (one False plus a FutureWarning), not elementwise.
        hits = [i for i, label in enumerate(classes.tolist()) if label == pos_label]
        if len(hits) != 1:
            msg = (
                f"pos_label={pos_label!r} of scorer {scorer.name!r} is not one of the fitted "
                f"estimator's classes_ {classes.tolist()}."
            )
            raise ValueError(msg)
        pos = int(hits[0])
    response = np.asarray(response)
    if response.ndim == 2:
        score = response[:, pos]
    else:  # binary decision_function: larger means classes_[1]
        score = response if pos == 1 else -response
    return scorer._metric(
        y_true, score, scorer._kwargs["k"], sample_weight=sample_weight, pos_label=classes[pos]
    )


def make_proba_scorer(metric, *, greater_is_better=True, name=None, **kwargs):
    """Wrap a ``chimeraboost.metrics``-style function of probabilities as a scorer.

    Parameters
    ----------
    metric : callable
        ``metric(y, proba, classes, sample_weight=None, **kwargs) -> float``, with ``proba``
        an (n, K) matrix whose columns follow ``classes``.
    greater_is_better : bool, default=True
        False for a loss: the scorer returns ``-metric(...)`` (scikit-learn's convention) and
        its default name gets a ``neg_`` prefix.
    name : str, optional
        Name shown by tools; defaults to the metric's name (``neg_`` + name for a loss).
    **kwargs
        Passed to ``metric`` on every call.

    Returns
    -------
    ProbaScorer

    Examples
    --------
    >>> from chimeraboost import metrics
    >>> make_proba_scorer(metrics.calibration_mcb, greater_is_better=False)
    make_proba_scorer(calibration_mcb, greater_is_better=False)
    """
    if not callable(metric):
        msg = f"metric must be a callable metric(y, proba, classes, ...), got {metric!r}."
        raise TypeError(msg)
    metric_name = getattr(metric, "__name__", type(metric).__name__)
    if not isinstance(greater_is_better, (bool, np.bool_)):
        msg = f"greater_is_better must be True or False, got {greater_is_better!r}."
        raise TypeError(msg)
    default_name = metric_name if greater_is_better else f"neg_{metric_name}"
    parts = [metric_name]
    if not greater_is_better:
        parts.append("greater_is_better=False")
    if name is not None and name != default_name:
        parts.append(f"name={name!r}")
    parts += [f"{k}={v!r}" for k, v in kwargs.items()]
    return ProbaScorer(
        metric,
        sign=1 if greater_is_better else -1,
        kwargs=kwargs,
        response_method="predict_proba",
        name=default_name if name is None else check_name(name),
        call_repr=f"make_proba_scorer({', '.join(parts)})",
    )


# metric -> (skill against y's own prior, report key of the loss, reference loss of a prior)
def check_name(name) -> str:
    if not isinstance(name, str) or not name:
        msg = f"name must be a non-empty string, got {name!r}."
        raise TypeError(msg)
    return name
