"""Is the challenger better lately, when the rows live on a Dask cluster? The paired form of
:func:`chimeraboost.dask.skill_over_time`.

Private to :mod:`chimeraboost.dask`. The in-memory paired form
(:func:`chimeraboost.monitor.skill_over_time` with ``baseline=``) scores the model and the
incumbent on the same resampled rows of each period. Here each is one set of keyed
accumulators (:mod:`chimeraboost.dask._keyed`) with the same ``random_state``: a row's Poisson
count is keyed by its position among all rows (or its group), so that the two sets weigh
every row alike and their replicates are paired. Questions answered here:

- Which numbers can be compared on dask? :func:`check_metric`: those with replicates (sums
  over rows: log loss, Brier, their skills, accuracy, ...), the Brier skill by default;
  not the score grid's (ROC-AUC, average precision, MCB), which the replicate accumulators
  keep on a coarse grid.
- In which periods are the two forecasts one (the tie rule)? :func:`period_ties`: one pass
  over ``time``, ``proba`` and ``baseline``, each block saying per period whether the two
  agree on all its rows, merged by logical and.
- Per period, both models' number, their difference and its percentile interval?
  :func:`compare_periods`, read through :class:`chimeraboost.resampling.PairedBootstrapResult`.
"""

from __future__ import annotations

import numpy as np

from .. import resampling as _resampling
from .._shared import facts as _facts
from .._shared.paired_periods import empty_comparison, read_period
from .._shared.ties import same_outputs
from ._blocks import _import_dask, merge_tree, paired_blocks
from ._keyed import NO_INTERVAL, _block_arrays, against_prior, key_numbers

__all__ = ["check_metric", "compare_periods", "period_ties"]


def check_metric(metric, replicate_keys) -> str:
    """The compared number: the Brier skill by default; else one of ``replicate_keys`` (what
    the replicate accumulators give) that describes the model."""
    if metric is None:
        return _facts.HEADLINE["classification"]
    allowed = sorted(k for k in replicate_keys if k in _facts.FACTS and k not in NO_INTERVAL
                     and not _facts.FACTS[k].about_the_rows)
    return _facts.parse_metric(
        metric, arg="metric", valid=allowed,
        why=" (on dask: numbers that describe the model and are sums over rows, whose "
            "Poisson replicates the accumulators keep)",
        hint="None for 'brier_skill'").key


def _block_ties(keyer, names, *blocks) -> dict:
    arrays = _block_arrays(names, blocks)
    keys = keyer(arrays["time"])
    proba = np.asarray(arrays["proba"], dtype=np.float64)
    base = np.asarray(arrays["baseline"], dtype=np.float64)
    return {int(k): same_outputs(proba[keys == k], base[keys == k])
            for k in np.unique(keys).tolist() if k >= 0}


def _merge_ties(first: dict, *others) -> dict:
    out = dict(first)
    for other in others:
        for key, same in other.items():
            out[key] = out.get(key, True) and same
    return out


def period_ties(inputs: dict, keyer) -> dict:
    """Period -> whether ``proba`` and ``baseline`` agree on every row of the period
    (:func:`chimeraboost._shared.ties.same_outputs`, the one tie rule). One pass over
    ``y``, ``proba``, ``baseline`` and ``time``."""
    dask = _import_dask()
    present = {name: inputs[name] for name in ("y", "proba", "baseline", "time")}
    blocks, _, _ = paired_blocks(present, False)
    part = dask.delayed(_block_ties, pure=True)
    parts = [part(keyer, tuple(blocks), *row) for row in zip(*blocks.values())]
    return merge_tree(parts, _merge_ties) if parts else {}


def _side(entry, metric, prior, rolling, level, units, label):
    """One model's ``metric`` in one period and its replicates (against the rolling
    ``prior`` for a skill); ``(nan, None)`` where a rolling reference does not exist."""
    values, _, reps = key_numbers(entry, level, units, {}, label)
    if not values:
        return np.nan, None
    if rolling and metric.endswith("_skill"):
        if prior is None:
            return np.nan, None
        point, rows = against_prior(prior, values, reps)
        values, reps = {**values, **point}, {**reps, **rows}
    return float(values.get(metric, np.nan)), np.asarray(reps[metric], dtype=np.float64)


def compare_periods(model, base, ties, periods, priors, metric, level, units,
                    labels) -> dict:
    """The comparison of :class:`chimeraboost.monitor.SkillOverTime` (``model``, ``base``:
    the keyed entries of each; ``periods``: the kept periods' keys; ``priors``: the rolling
    prior of each key, or None for each period's own reference)."""
    P, n_boot = len(periods), model[periods[0]][1].n_boot if periods else 0
    out = empty_comparison(P, n_boot)
    narrow = {}
    for i, p in enumerate(periods):
        prior = None if priors is None else priors[p]
        sides = [_side(entries[p], metric, prior, priors is not None, level, units, labels[i])
                 for entries in (model, base)]
        if sides[0][1] is None or sides[1][1] is None:
            continue
        results = [_resampling.BootstrapResult({metric: v}, {metric: r}, n_boot,
                                               n_rows=model[p][0].n, ci_method="percentile",
                                               units=units) for v, r in sides]
        paired = _resampling.PairedBootstrapResult(*results)
        out["model"][i], out["baseline"][i] = sides[0][0], sides[1][0]
        out["model_replicates"][i], out["baseline_replicates"][i] = sides[0][1], sides[1][1]
        # The tie rule: the same forecasts are the same model, whatever rounding left.
        read_period(out, i, paired, metric, n_boot=n_boot, tie=ties.get(p, False),
                    level=level, minimum=_resampling.MIN_RESAMPLES_DECISION,
                    label=labels[i], narrow=narrow)
    _resampling.warn_narrow(narrow, level)
    return out

