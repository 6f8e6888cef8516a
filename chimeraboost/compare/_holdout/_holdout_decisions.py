"""The decisions of a holdout table: which keys are numbers of a decision at a threshold
(``"net_benefit@0.2"``, ``"sensitivity@0.3"``, ``"expected_cost"``), and their values and
replicates for every row, resampled with the table's other metrics.

- Is this key a decision, and can this table have it? :func:`is_decision_key`.
- The decision numbers of every row: :func:`decide`, through
  :class:`chimeraboost.decisions.DecisionEvaluator` and the same seed as the other metrics,
  so that every interval method reads the same resamples and jackknife blocks.
"""

from __future__ import annotations

import numpy as np

from ... import decisions as _decisions
from ..._shared.facts import FACTS, at_threshold
from ..._shared.validation import as_1d

__all__ = ["is_decision_key", "decide"]


def is_decision_key(key, arg, binary) -> bool:
    """Whether ``key`` is a number of a decision (``net_benefit@0.2``, ``expected_cost``)."""
    parsed = at_threshold(key)  # key as parse_metric spells it
    if parsed is None and key != "expected_cost":
        return False
    if not binary:
        msg = f"{arg}={key!r}: a decision at a threshold needs a binary problem."
        raise ValueError(msg)
    if parsed is not None and parsed[0] == "flagged" and arg == "primary":
        msg = (f"primary={key!r}: the flagged share is neither better high nor low; show it "
               "in metrics= and compare on net_benefit@t or expected_cost.")
        raise ValueError(msg)
    if parsed is not None and FACTS[parsed[0]].about_the_rows:
        msg = f"{arg}={key!r} describes the rows (treating all of them), not a model."
        raise ValueError(msg)
    return True


def decide(rows, keys, y, classes, w, costs, scheme) -> None:
    """The decision numbers of every row (net benefit at a threshold, expected cost, rates),
    resampled on the counts of the other metrics (``scheme``: a fresh
    :class:`~chimeraboost.resampling.Resampler` on the same seed and units): points into
    ``row.point``, replicates into ``row.boot``."""
    wanted = [k for k in keys if at_threshold(k) is not None or k == "expected_cost"]
    if not wanted:
        return
    if "expected_cost" in wanted and costs is None:
        msg = ("'expected_cost' needs costs=: pass costs=[[c_tn, c_fp], [c_fn, c_tp]] or "
               "{'fp': ..., 'fn': ...} to holdout_table.")
        raise ValueError(msg)
    thresholds = sorted({at_threshold(k)[1] for k in wanted if at_threshold(k)}) or [0.5]
    names = {at_threshold(k)[0] for k in wanted if at_threshold(k)}
    event = as_1d(y, "y") == classes[1]
    t_cost = None if costs is None else _decisions.bayes_threshold(costs)
    evs = []
    for row in rows:
        if row.score is None:
            msg = (f"models[{row.name!r}] ({row.kind}) gives no probability to act on at a "
                   f"threshold; {wanted[0]!r} needs probabilities or a 0/1 rule in every row.")
            raise ValueError(msg)
        score = probability(row)
        evs.append(_decisions.DecisionEvaluator(event, score, thresholds, sample_weight=w,
                                                costs=costs, cost_threshold=t_cost,
                                                names=names))
    boots = scheme.bootstrap(evs)
    for row, ev, boot in zip(rows, evs, boots):
        point = ev.evaluate(None, warn=False)
        for k in wanted:
            row.point[k] = float(point[k][0])
            row.boot.replicates[k] = boot.replicates[k]
            # The same seed drew the same counts and jackknife blocks: the table's ci_method
            # applies to the decision numbers too.
            row.boot.estimate[k] = row.point[k]
            row.boot.jackknife[k] = boot.jackknife[k]
            # What the model does with each row: a paired difference counts the units on
            # which two rows' models decide differently (resampling._discordant).
            if k in boot.terms:
                row.boot.terms[k] = boot.terms[k]
        row.boot.unit_index = boot.unit_index


def probability(row):
    score = np.asarray(row.score, dtype=np.float64)
    if np.any((score < 0) | (score > 1)):
        msg = f"models[{row.name!r}] holds values outside [0, 1]: not probabilities."
        raise ValueError(msg)
    return score
