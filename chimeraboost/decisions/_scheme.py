"""Which resampling scheme does a decision's interval come from, and how is a band read?

Private; every resampled number of :mod:`chimeraboost.decisions` (the decision report, the
decision curve, the ROC / PR bands, the re-chosen threshold, the bootstrap rates) takes its
replicates and its jackknife from one :class:`~chimeraboost.resampling.Resampler` and reads its
interval through it, by the caller's ``ci_method``. The questions:

- The scheme of the plain parameters (``n_boot``, ``random_state``, ``ci_method``,
  ``groups``, ``time``)? :func:`scheme`.
- How many events does an interval rest on? :func:`events`.
- The replicates and the jackknife of a curve computed from row weights? :func:`curve_replicates`.
- Does a paired difference rest on too few units that decide differently? :func:`discordant`
  (:meth:`chimeraboost.resampling.Resampler.discordance` on two evaluators, or one
  against treating every row or none); on how many, whatever their number (what the
  difference's interval is read with)? :func:`discordant_units`.
"""

from __future__ import annotations

import numpy as np

from .. import resampling
from .._shared.validation import check_aligned

__all__ = ["curve_replicates", "discordant", "discordant_units", "events", "scheme"]


def scheme(y, event, *, n_boot, random_state, ci_method, groups, time,
           optional=False) -> resampling.Resampler:
    """The Resampler of a decision's rows: single rows, whole ``groups`` or blocks of
    ``time`` (arrays of one value per row; a pandas one must carry ``y``'s index). The time
    blocks' length is chosen from the outcome's serial dependence, as the report does for
    a ranking."""
    # A pandas groups / time is paired with y by position only if their indexes agree.
    check_aligned(y=y, groups=groups, time=time)
    series = None if time is None or groups is not None else np.asarray(event, dtype=float)
    return resampling.Resampler.from_params(
        event.shape[0], n_boot=n_boot, random_state=random_state, ci_method=ci_method,
        groups=groups, time=time, series=series, optional=optional)


def events(event, sample_weight, n_units=None) -> float | None:
    """Effective rows of the rarest class (Kish's ``(sum w)^2 / sum w^2``), never more than
    the resampled units; None with one class. What the expanded intervals' degrees of freedom
    are capped by."""
    w = np.ones(event.shape[0]) if sample_weight is None else np.asarray(sample_weight, float)
    out = []
    for rows in (event, ~event):
        total, square = float(w[rows].sum()), float((w[rows] ** 2).sum())
        if total <= 0:
            return None
        out.append(total * total / square)
    value = min(out)
    return value if n_units is None else min(value, float(n_units))


def curve_replicates(resampler, n, weights_to_curve, sample_weight=None):
    """``(replicates (B, m), jackknife (G, m))`` of a curve computed by
    ``weights_to_curve(counts)`` from ``(b, n)`` resampling counts (or leave-a-block-out
    weights), by the scheme's replicates and its jackknife blocks (whole units left out)."""
    reps = np.vstack([weights_to_curve(c) for c in resampler.counts(n)])
    block = resampler.jackknife_blocks(n, sample_weight)
    jack = np.vstack([weights_to_curve(w) for w in resampler.jackknife_chunks(block)])
    return reps, jack


def _terms(evaluator, other, name):
    """Both sides' ``Terms`` of number ``name``: ``evaluator``'s and ``other``'s (another
    evaluator, or ``True`` / ``False`` for treating every row / none), or None."""
    own = evaluator.paired_terms(name)
    if own is None:
        return None
    if isinstance(other, bool):
        theirs = own._replace(action=np.full(own.action.shape, other), output=None)
    else:
        theirs = other.paired_terms(name)
    return None if theirs is None else (own, theirs)


def discordant(resampler, evaluator, other, name, level):
    """:meth:`~chimeraboost.resampling.Resampler.discordance` of the paired difference of
    number ``name`` (``net_benefit@0.2``, ``expected_cost``) between ``evaluator``'s model
    and ``other``: another :class:`~chimeraboost.decisions.DecisionEvaluator` on the same
    rows, or ``True`` / ``False`` for treating every row / none (a constant action)."""
    terms = _terms(evaluator, other, name)
    return None if terms is None else resampler.discordance(*terms, level)


def discordant_units(resampler, evaluator, other, name):
    """:meth:`~chimeraboost.resampling.Resampler.discordant_units` of the same paired
    difference (as :func:`discordant`): what its interval is read with."""
    terms = _terms(evaluator, other, name)
    return None if terms is None else resampler.discordant_units(*terms)
