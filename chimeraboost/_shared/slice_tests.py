"""A slice's test against the rest of the rows: which slices may be tested, what is tested,
and the words of the verdict -- one rule for :mod:`chimeraboost.slices` (rows in memory) and
:mod:`chimeraboost.dask` (accumulators merged across blocks), so that the two cannot drift
apart. Questions answered here:

- Why may ``m`` rows with these class counts not be tested? :func:`shortfall`.
- What difference does the test compare with 0? :func:`tested_difference`: for a skill
  against each part's own class prior, each part's skill with the bias of its plug-in
  reference taken out (:func:`chimeraboost._shared.scores.debiased_skill`); any other number
  as printed.
- What does each slice's verdict say? :func:`verdicts`, in the words :data:`WORSE`,
  :data:`BETTER`, :data:`SAME`.
"""

from __future__ import annotations

import numpy as np

from .facts import is_loss
from .scores import debiased_skill
from .ties import negligible

__all__ = ["BETTER", "OWN_PRIOR_SKILLS", "SAME", "WORSE", "shortfall", "tested_difference",
           "verdicts"]

WORSE, BETTER, SAME = "worse than the rest", "better than the rest", "no detectable difference"
# Skills read against each part's own class prior: their reference is estimated from the
# part's rows, and biased.
OWN_PRIOR_SKILLS = ("brier_skill", "log_loss_skill")


def shortfall(counts, m: int, min_rows: int, min_events: int, who: str):
    """Why ``m`` rows with class counts ``counts`` (None: a regression) cannot be tested,
    or None; ``who`` starts the sentence ("the rest has ")."""
    if m < min_rows:
        return f"{who}{m} rows, fewer than {min_rows}"
    if counts is None:
        return None
    if counts.shape[0] == 2 and counts.min() < min_events:
        k = int(np.argmin(counts))
        what = ("positive" if k == 1 else "negative") + ("" if counts[k] == 1 else "s")
        return f"{who}{int(counts[k])} {what}, fewer than {min_events}"
    if counts.shape[0] > 2 and np.sort(counts)[-2] < min_events:
        return f"{who}fewer than two classes with {min_events} rows"
    return None


def tested_difference(metric: str, diff: float, own, rest, units: int) -> float:
    """The slice-minus-rest difference the test compares with 0. ``own``, ``rest``: each
    part's ``(point, replicates)``, dicts of its numbers and of their bootstrap replicates
    (None when nothing was resampled). A skill of :data:`OWN_PRIOR_SKILLS` is read with each
    part's reference freed of its bias; any other metric, a difference that is undefined or
    a tie (kept a tie) is ``diff`` as printed."""
    if (metric not in OWN_PRIOR_SKILLS or own is None or rest is None
            or not np.isfinite(diff) or negligible(diff)):
        return diff
    loss, ref = metric.removesuffix("_skill"), metric.replace("_skill", "_ref")
    if ref not in own[1] or ref not in rest[1]:
        return diff
    return (debiased_skill(own[0][loss], own[0][ref], own[1][ref], units)
            - debiased_skill(rest[0][loss], rest[0][ref], rest[1][ref], units))


def verdicts(diff, reject, reasons, metric: str, words=(WORSE, BETTER)) -> list:
    """The verdict of each slice: ``words`` = (worse, better) said of the slice when its
    test rejects, by the sign of ``diff`` (``metric`` a loss or a skill), :data:`SAME` when
    it does not, and ``"not tested: "`` its reason."""
    worse, better = words
    loss = is_loss(metric.removesuffix("_vs_all"))
    out = []
    for d, rejected, reason in zip(diff, reject, reasons):
        if reason is not None:
            out.append(f"not tested: {reason}")
        elif not rejected:
            out.append(SAME)
        else:
            out.append(better if (d < 0) == loss else worse)
    return out
