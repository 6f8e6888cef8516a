"""Decisions at a threshold as scorers: :func:`make_net_benefit_scorer` (net benefit at a
threshold probability, greater is better) and :func:`make_expected_cost_scorer` (expected
cost at given costs, negated), both computed by :mod:`chimeraboost.decisions`.
"""

from __future__ import annotations

import numpy as np

from .. import decisions
from .._shared.facts import is_loss
from .._shared.validation import check_level
from ._scorer import ProbaScorer, check_name

__all__ = ["make_net_benefit_scorer", "make_expected_cost_scorer"]


def _positive_column(classes, pos_label, scorer_name) -> int:
    """Column of the positive class of a binary classifier: ``pos_label``, else classes_[1]."""
    if classes.shape[0] != 2:
        msg = (f"The scorer {scorer_name!r} acts on the probability of the positive class of a "
               f"binary problem; the fitted estimator has {classes.shape[0]} classes "
               f"{classes.tolist()}.")
        raise ValueError(msg)
    if pos_label is None:
        return 1
    hits = [i for i, label in enumerate(classes.tolist()) if label == pos_label]
    if len(hits) != 1:
        msg = (f"pos_label={pos_label!r} of scorer {scorer_name!r} is not one of the fitted "
               f"estimator's classes_ {classes.tolist()}.")
        raise ValueError(msg)
    return hits[0]


def _net_benefit(y, proba, classes, sample_weight=None, *, threshold, pos_label, name):
    pos = _positive_column(np.asarray(classes), pos_label, name)
    return float(decisions.net_benefit(y, np.asarray(proba)[:, pos], threshold,
                                       pos_label=classes[pos],
                                       sample_weight=sample_weight).net_benefit[0])


def _expected_cost(y, proba, classes, sample_weight=None, *, costs, threshold, pos_label, name):
    pos = _positive_column(np.asarray(classes), pos_label, name)
    return decisions.expected_cost(y, np.asarray(proba)[:, pos], costs=[[costs.tn, costs.fp],
                                                                        [costs.fn, costs.tp]],
                                   threshold=threshold, pos_label=classes[pos],
                                   sample_weight=sample_weight).expected_cost


def make_net_benefit_scorer(threshold, *, pos_label=None, name=None):
    """Net benefit of treating the rows whose probability is >= ``threshold``, as a scorer.

    Parameters
    ----------
    threshold : float in (0, 1)
        The threshold probability (see :func:`chimeraboost.decisions.net_benefit`).
    pos_label : label, optional
        The positive class; defaults to the fitted estimator's ``classes_[1]``.
    name : str, optional
        Defaults to ``"net_benefit@<threshold>"``, the string :func:`get_scorer` and
        :func:`chimeraboost.compare.compare_cv` understand.

    Returns
    -------
    ProbaScorer

    Examples
    --------
    >>> make_net_benefit_scorer(0.2)
    make_net_benefit_scorer(0.2)
    """
    t = check_level(threshold, "threshold", "0.2 (treat the rows whose probability is >= 0.2)")
    default_name = f"net_benefit@{t!r}"
    parts = [repr(t)]
    if pos_label is not None:
        parts.append(f"pos_label={pos_label!r}")
    if name is not None and name != default_name:
        parts.append(f"name={name!r}")
    name = default_name if name is None else check_name(name)
    return ProbaScorer(_net_benefit, sign=1,
                       kwargs={"threshold": t, "pos_label": pos_label, "name": name},
                       response_method="predict_proba", name=name,
                       call_repr=f"make_net_benefit_scorer({', '.join(parts)})")


def make_expected_cost_scorer(costs=None, *, cost_fp=None, cost_fn=None, benefit_tp=0.0,
                              benefit_tn=0.0, threshold=None, pos_label=None, name=None):
    """Minus the expected cost per row of acting on the probabilities, as a scorer.

    Parameters
    ----------
    costs, cost_fp, cost_fn, benefit_tp, benefit_tn
        What each outcome costs (see :func:`chimeraboost.decisions.expected_cost`).
    threshold : float in [0, 1], default=None
        Treat the rows with probability >= threshold; None: the Bayes threshold of the costs.
    pos_label : label, optional
    name : str, optional
        Defaults to ``"neg_expected_cost"``: a loss, negated so that greater is better.

    Returns
    -------
    ProbaScorer

    Examples
    --------
    >>> make_expected_cost_scorer(cost_fp=1, cost_fn=5)
    make_expected_cost_scorer(costs=Costs(tn=0, fp=1, fn=5, tp=0))
    """
    c = decisions.Costs.of(costs, cost_fp=cost_fp, cost_fn=cost_fn, benefit_tp=benefit_tp,
                           benefit_tn=benefit_tn)
    parts = [f"costs={c!r}"]
    if threshold is not None:
        parts.append(f"threshold={threshold!r}")
    if pos_label is not None:
        parts.append(f"pos_label={pos_label!r}")
    default_name = "neg_expected_cost"
    if name is not None and name != default_name:
        parts.append(f"name={name!r}")
    name = default_name if name is None else check_name(name)
    return ProbaScorer(_expected_cost, sign=-1 if is_loss("expected_cost") else 1,
                       kwargs={"costs": c, "threshold": threshold, "pos_label": pos_label,
                               "name": name},
                       response_method="predict_proba", name=name,
                       call_repr=f"make_expected_cost_scorer({', '.join(parts)})")
