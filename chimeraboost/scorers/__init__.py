"""Skill and calibration as scikit-learn scorers: is the model any good, compared with what --
fold by fold, inside cross-validation and hyper-parameter search?

Importing chimeraboost registers three scoring strings with scikit-learn, so they work wherever
scikit-learn takes ``scoring=`` (``cross_validate``, ``GridSearchCV``, ``permutation_importance``,
``learning_curve``...) and appear in ``sklearn.metrics.get_scorer_names()``.

==========================================================  ====================================
Question                                                    Scoring string / object
==========================================================  ====================================
Does the model beat the no-skill forecast (Brier)?          ``"brier_skill"`` /
                                                            :data:`brier_skill_scorer`
... judged by log loss?                                     ``"log_loss_skill"`` /
                                                            :data:`log_loss_skill_scorer`
Are its probabilities calibrated? (a loss, so negated)      ``"neg_calibration_mcb"`` /
                                                            :data:`neg_calibration_mcb_scorer`
Does it beat a *fixed* reference (training prior, a         :func:`make_skill_scorer`
published base rate)?
How many positives land in the top k rows?                  :func:`make_recall_at_k_scorer`,
                                                            :func:`make_precision_at_k_scorer`
Is acting at a threshold worth it (net benefit), and what   :func:`make_net_benefit_scorer`,
does it cost?                                               :func:`make_expected_cost_scorer`;
                                                            ``get_scorer("net_benefit@0.2")``
Any other ``chimeraboost.metrics``-style function?          :func:`make_proba_scorer`
==========================================================  ====================================

Why not ``sklearn.metrics.make_scorer``: a scikit-learn scorer hands the metric the predictions
only, so the metric must guess the class list from the labels present in the test fold; a fold
that lacks a class the model knows then misaligns the probability columns (scikit-learn's own
``neg_log_loss`` raises there). These scorers read the class list from the fitted estimator's
``classes_`` and call ``predict_proba`` themselves, so the number is right on every fold. The
numbers themselves are computed by :mod:`chimeraboost.metrics` -- one definition per number.

scikit-learn has no public registry of scoring strings. Everything that touches its internals
sits in the private module ``chimeraboost._shared.sklearn_scoring``; if a future scikit-learn moves
them, ``register()`` warns instead of crashing, the scorer objects keep working (weights still
routed), and ``tests/scorers/test_scorers.py::test_sklearn_internals_are_where_we_expect`` says what
moved.

Inside the package: the scorer object and :func:`make_proba_scorer` in ``_scorer``, the
decision scorers in ``_decision_scorers``; the skill, top-k and registered scorers here.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping

import numpy as np

from .. import metrics
from .._shared.sklearn_scoring import LazyScorer, scorer_registry, scoring_name_sets
from .._shared.facts import is_loss, parse_metric
from .._shared.validation import (
    as_1d,
    check_classes,
    check_k,
    check_numeric_1d,
    check_positive_int,
    plain,
)
from ._decision_scorers import make_expected_cost_scorer, make_net_benefit_scorer
from ._scorer import ProbaScorer, check_name as _check_name, make_proba_scorer
from ._scorer import NEEDS as _NEEDS

__all__ = [
    "SCORING_NAMES",
    "ProbaScorer",
    "brier_skill_scorer",
    "log_loss_skill_scorer",
    "neg_calibration_mcb_scorer",
    "make_proba_scorer",
    "make_skill_scorer",
    "make_recall_at_k_scorer",
    "make_precision_at_k_scorer",
    "make_net_benefit_scorer",
    "make_expected_cost_scorer",
    "get_scorer",
    "register",
]

#: The scoring strings chimeraboost registers with scikit-learn.
SCORING_NAMES = ("brier_skill", "log_loss_skill", "neg_calibration_mcb")


# ------------------------------------------------------------------------------- factories


_SKILL_METRICS = {
    "brier": (metrics.brier_skill, "brier", metrics.reference_brier),
    "log_loss": (metrics.log_loss_skill, "log_loss", metrics.reference_log_loss),
}


def make_skill_scorer(metric="brier", *, baseline=None, name=None):
    """Skill ``1 - loss / reference loss`` as a scorer, against a reference you choose.

    Parameters
    ----------
    metric : {"brier", "log_loss"}, default="brier"
        The proper score the skill is measured in.
    baseline : None, mapping or array-like, default=None
        The no-skill forecast the model is judged against:

        - ``None``: the scored fold's own (weighted) class prior -- the conservative reading;
          the same number as the ``"brier_skill"`` / ``"log_loss_skill"`` strings.
        - a mapping ``{label: probability}``: a fixed prior, e.g. a published base rate. Its
          labels must be exactly the fitted estimator's ``classes_``. A mapping rather than a
          bare vector, because a vector of probabilities would depend silently on the order of
          ``classes_`` and could be mistaken for 0/1 targets.
        - an array of targets (e.g. ``y_train``): their class prior is the reference -- what a
          forecaster who knew only the training data would say.

        With a fixed reference, a fold holding one class still gets a finite skill.
    name : str, optional
        Name shown by tools; defaults to ``"brier_skill"``, ``"brier_skill_vs_prior"`` or
        ``"brier_skill_vs_baseline"`` (resp. ``log_loss_...``).

    Returns
    -------
    ProbaScorer

    Examples
    --------
    >>> make_skill_scorer("log_loss", baseline={"no": 0.9, "yes": 0.1})
    make_skill_scorer(metric='log_loss', baseline={'no': 0.9, 'yes': 0.1})
    """
    if metric not in _SKILL_METRICS:
        msg = f"metric must be one of {sorted(_SKILL_METRICS)}, got {metric!r}."
        raise ValueError(msg)
    skill = _SKILL_METRICS[metric][0]
    if baseline is None:
        func, kwargs, suffix, shown = skill, {}, "", ""
    elif isinstance(baseline, Mapping):
        prior = _check_prior(baseline)
        func, kwargs, suffix = _skill_against_prior, {"metric": metric, "prior": prior}, "_vs_prior"
        shown = f", baseline={dict(zip(prior[0].tolist(), prior[1].tolist()))!r}"
    else:
        targets = as_1d(baseline, "baseline")
        func, kwargs, suffix = skill, {"baseline": targets}, "_vs_baseline"
        shown = f", baseline=<{targets.shape[0]} targets>"
    default_name = f"{metric}_skill{suffix}"
    name_shown = "" if name is None or name == default_name else f", name={name!r}"
    return ProbaScorer(
        func,
        sign=1,
        kwargs=kwargs,
        response_method="predict_proba",
        name=default_name if name is None else _check_name(name),
        call_repr=f"make_skill_scorer(metric={metric!r}{shown}{name_shown})",
    )


def _check_prior(baseline: Mapping):
    """A prior given as {label: probability}: labels and probabilities, checked now, so that
    a typo fails when the scorer is made rather than in the middle of a search."""
    labels = check_classes(list(baseline.keys()), "baseline labels")
    probs = check_numeric_1d(list(baseline.values()), "baseline probabilities")
    if np.any(probs < 0) or abs(probs.sum() - 1.0) > 1e-6:
        shown = {plain(k): float(v) for k, v in zip(labels.tolist(), probs.tolist())}
        msg = f"baseline probabilities must be >= 0 and sum to 1; got {shown}."
        raise ValueError(msg)
    return labels, probs


def _skill_against_prior(y, proba, classes, sample_weight=None, *, metric, prior):
    """Skill of ``proba`` against the constant forecast ``prior`` = (labels, probabilities).

    The same rule as everywhere: :mod:`chimeraboost.metrics` with ``baseline`` a mapping. A
    fold holding one class keeps a finite skill against a fixed reference; a class that the
    prior gives probability 0 and the fold holds makes the log-loss skill NaN, with a warning.
    """
    labels, probs = prior
    classes = check_classes(classes)
    if set(labels.tolist()) != set(classes.tolist()):
        missing = sorted(set(classes.tolist()) - set(labels.tolist()), key=str)
        msg = (
            f"baseline gives probabilities for {labels.tolist()} but the fitted estimator's "
            f"classes_ are {classes.tolist()} (missing {missing})."
        )
        raise ValueError(msg)
    skill = _SKILL_METRICS[metric][0]
    return skill(y, proba, classes, sample_weight=sample_weight,
                 baseline=dict(zip(labels.tolist(), probs.tolist())))


def _make_at_k_scorer(which, metric, k, pos_label, response_method, name):
    if isinstance(k, numbers.Integral) and not isinstance(k, (bool, np.bool_)):
        check_positive_int(k, "k")
    else:
        check_k(k, None)  # type and range; the rows are counted when a fold is scored
    if response_method not in _NEEDS:
        msg = f"response_method must be one of {sorted(_NEEDS)}, got {response_method!r}."
        raise ValueError(msg)
    parts = [repr(k)]
    if pos_label is not None:
        parts.append(f"pos_label={pos_label!r}")
    if response_method != "predict_proba":
        parts.append(f"response_method={response_method!r}")
    default_name = f"{which}_at_{k}"
    if name is not None and name != default_name:
        parts.append(f"name={name!r}")
    return ProbaScorer(
        metric,
        sign=1,
        kwargs={"k": k, "pos_label": pos_label},
        response_method=response_method,
        name=default_name if name is None else _check_name(name),
        call_repr=f"make_{which}_at_k_scorer({', '.join(parts)})",
        task="rank",
    )


def make_recall_at_k_scorer(k, *, pos_label=None, response_method="predict_proba", name=None):
    """Share of the positives found in the k highest-scored rows, as a scorer (binary only).

    Parameters
    ----------
    k : int or float
        An int is a number of rows; a float in (0, 1) a fraction of the scored rows (so the
        cutoff scales with the fold size).
    pos_label : label, optional
        The positive class; defaults to the fitted estimator's ``classes_[1]``.
    response_method : {"predict_proba", "decision_function"}, default="predict_proba"
        Which method ranks the rows. Ties share the cutoff fractionally
        (see :func:`chimeraboost.metrics.recall_at_k`), so saturated probabilities of 1.0 rank
        as ties where ``decision_function`` may still separate them.
    name : str, optional
        Name shown by tools; defaults to ``"recall_at_<k>"``.

    Returns
    -------
    ProbaScorer

    Examples
    --------
    >>> make_recall_at_k_scorer(0.1)
    make_recall_at_k_scorer(0.1)
    """
    return _make_at_k_scorer(
        "recall", metrics.recall_at_k, k, pos_label, response_method, name
    )


def make_precision_at_k_scorer(k, *, pos_label=None, response_method="predict_proba", name=None):
    """Share of positives among the k highest-scored rows, as a scorer (binary only).

    Parameters are those of :func:`make_recall_at_k_scorer`; the default name is
    ``"precision_at_<k>"``.

    Returns
    -------
    ProbaScorer

    Examples
    --------
    A model that gives every row the same probability ranks nothing: the top 2 of 4 tied
    rows hold, in expectation, ``2 x 2/4 = 1`` of the 2 positives, precision ``1 / 2``.

    >>> from sklearn.dummy import DummyClassifier
    >>> X, y = [[0], [1], [2], [3]], [0, 0, 1, 1]
    >>> model = DummyClassifier(strategy="prior").fit(X, y)
    >>> make_precision_at_k_scorer(2)(model, X, y)
    0.5
    """
    return _make_at_k_scorer(
        "precision", metrics.precision_at_k, k, pos_label, response_method, name
    )


def get_scorer(scoring):
    """A scorer for a scoring string: scikit-learn's (and chimeraboost's registered ones), plus
    the decision at a threshold, ``"net_benefit@0.2"``, and the top of the ranking,
    ``"recall@400"`` / ``"precision@5%"``.

    scikit-learn's registry holds fixed names; a threshold or a cutoff is a parameter, so
    ``"net_benefit@<t>"`` is resolved here (and by :func:`chimeraboost.compare.compare_cv`) to
    :func:`make_net_benefit_scorer`, ``"recall@<k>"`` to :func:`make_recall_at_k_scorer` and
    ``"precision@<k>"`` to :func:`make_precision_at_k_scorer`, the value read as every
    function that takes a metric name reads it. Anything else goes to
    ``sklearn.metrics.get_scorer``.

    Examples
    --------
    >>> get_scorer("net_benefit@0.2")
    make_net_benefit_scorer(0.2)
    """
    from sklearn.metrics import get_scorer as sk_get_scorer

    if isinstance(scoring, str) and "@" in scoring:
        parsed = parse_metric(scoring, arg="scoring", valid=("net_benefit@", "recall@",
                                                              "precision@"),
                              hint="a scoring string of scikit-learn's (without '@')")
        if parsed.name == "net_benefit":
            return make_net_benefit_scorer(parsed.at)
        make = (make_recall_at_k_scorer if parsed.name == "recall_at_k"
                else make_precision_at_k_scorer)
        return make(parsed.at)
    return sk_get_scorer(scoring)


brier_skill_scorer = make_skill_scorer("brier")
"""``"brier_skill"``: Brier skill against the fold's own prior; equals sklearn's d2_brier_score."""

log_loss_skill_scorer = make_skill_scorer("log_loss")
"""``"log_loss_skill"``: log-loss skill against the fold's own prior (d2_log_loss_score)."""

# The sign comes from the one table of metric facts: MCB is a loss, so its scorer is "neg_".
neg_calibration_mcb_scorer = make_proba_scorer(
    metrics.calibration_mcb, greater_is_better=not is_loss("calibration_mcb"))
"""``"neg_calibration_mcb"``: minus the CORP miscalibration; 0 is calibrated, greater is better."""

_REGISTERED = {
    "brier_skill": brier_skill_scorer,
    "log_loss_skill": log_loss_skill_scorer,
    "neg_calibration_mcb": neg_calibration_mcb_scorer,
}


def register() -> tuple:
    """Register chimeraboost's scoring strings with scikit-learn (idempotent).

    Adds ``"brier_skill"``, ``"log_loss_skill"`` and ``"neg_calibration_mcb"`` to
    scikit-learn's scorers, and to the sets of valid scoring strings that scikit-learn modules
    imported before this call have already built. ``import chimeraboost`` calls it. A name that
    already belongs to another scorer (e.g. one you registered yourself) is left alone, with a
    warning.

    Returns
    -------
    tuple of str
        The names that now resolve to chimeraboost's scorers.
    """
    try:
        registry = scorer_registry()
    except RuntimeError as exc:
        warnings.warn(str(exc), UserWarning, stacklevel=2)
        return ()
    served = []
    for name, scorer in _REGISTERED.items():
        current = registry.get(name)
        if current is None or isinstance(current, LazyScorer):
            # (a LazyScorer is the entry ``import chimeraboost`` put there: this scorer's)
            registry[name] = scorer
        elif getattr(current, "_chimeraboost_name", None) != name:
            msg = (
                f"scikit-learn already has a scorer named {name!r} ({current!r}); chimeraboost "
                f"leaves it in place. Pass chimeraboost.scorers.{name}_scorer to use ours."
            )
            warnings.warn(msg, UserWarning, stacklevel=2)
            continue
        served.append(name)
    for options in scoring_name_sets():
        options.update(served)
    return tuple(served)


# Importing this module (which ``import chimeraboost`` does at the scoring strings' first use)
# puts the scorers themselves under their names.
register()
