"""Each slice of rows held in dask collections against the rest of the rows: the test of
:func:`chimeraboost.dask.slice_report`.

Private to :mod:`chimeraboost.dask` (import it from there). It reproduces, from the keyed
accumulators of :mod:`chimeraboost.dask._keyed`, the comparison with the rest that
:func:`chimeraboost.slices.slice_report` makes on arrays -- the same metric, eligibility,
degrees of freedom, test, adjustment and words. Questions this module answers:

- What are the rest of a slice's numbers, without a second pass over the rows? ``_scores``
  of all rows' sums minus the slice's
  (:meth:`chimeraboost.metrics.ClassificationAccumulator.sums`), for the rows' own weights
  and for each Poisson replicate: accumulators are sums.
- Which slices may be tested, and why not the others? ``_eligible``: at least
  :data:`MIN_ROWS` rows, and :data:`MIN_EVENTS` rows of each class (binary) or of two
  classes (multiclass), in the slice and in the rest.
- What do a test's degrees of freedom count? ``_units``: the fewer of the slice's and the
  rest's rows -- or, with ``groups=``, distinct groups -- and for a binary problem no more
  than the rows of the rarer class.
- Which slices differ from the rest? :func:`against_rest`: the slice-minus-rest difference
  with its percentile interval, the t test of
  :func:`chimeraboost.resampling.difference_tests`, adjusted over the tested slices, and the
  verdict (the rules of :mod:`chimeraboost._shared.slice_tests`, which the in-memory
  report follows too).
"""

from __future__ import annotations

import inspect

import numpy as np

from .. import resampling as _resampling
from .. import slices as _slices
from .._shared.scores import proper_scores
from .._shared.slice_tests import shortfall, tested_difference, verdicts
from .._shared.weights import fraction

# The in-memory report's settings for the comparison (dask.slice_report takes no keyword for
# them): read off its signature, so that the two never drift apart.
_DEFAULTS = inspect.signature(_slices.slice_report).parameters
MIN_ROWS = _DEFAULTS["min_rows"].default
MIN_EVENTS = _DEFAULTS["min_events"].default
ADJUST = _DEFAULTS["adjust"].default
ALPHA = _DEFAULTS["alpha"].default
# The in-memory default with probabilities: the headline skill, a sum over rows.
METRIC = "brier_skill"


def _scores(sums: dict) -> dict:
    """:data:`METRIC`, its loss and its reference of rows known by their sums, one per
    weight vector, against their own class prior (as :func:`chimeraboost.slices.slice_report`
    computes the rest's)."""
    ws = sums["weight"]
    r = fraction(sums["class_weight"], ws[:, None])
    single = np.sum(r > 0, axis=1) < 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return proper_scores(sums["log_loss"], sums["brier"], ws, r, single, None)


def _split(scores: dict, with_reps: bool):
    """``(point, replicates)`` of a part's numbers (row 0 and the rest of each array), or
    None without replicates: what the test reads a part's reference from."""
    if not with_reps:
        return None
    return {k: v[0] for k, v in scores.items()}, {k: v[1:] for k, v in scores.items()}


def _eligible(entries: list, everything) -> list:
    """Per slice: None when it may be tested, else why not."""
    n, total = everything[0].n, everything[3]
    out = []
    for entry in entries:
        if entry is None or entry[2].sum() <= 0:
            out.append("no rows" if entry is None else "every row weighs 0")
            continue
        m, own = entry[0].n, entry[3]
        out.append(shortfall(own, m, MIN_ROWS, MIN_EVENTS, "") or
                   shortfall(total - own, n - m, MIN_ROWS, MIN_EVENTS, "the rest has "))
    return out


def _units(entries: list, everything, grouped: bool) -> list:
    """Per slice: what its test's degrees of freedom count -- the fewer of the slice's and
    its rest's rows, or distinct groups (a group with rows in several slices counts in
    each, and in the rest of each), and for a binary problem no more than the rows of the
    rarer class in either."""
    n, total = everything[0].n, everything[3]
    rest_groups = _rest_groups(entries, everything) if grouped else None
    out = []
    for s, entry in enumerate(entries):
        m = 0 if entry is None else entry[0].n
        own = np.zeros_like(total) if entry is None else entry[3]
        if grouped:
            counts = [0 if entry is None else entry[4].shape[0], rest_groups[s]]
        else:
            counts = [m, n - m]
        if total.shape[0] == 2:
            counts += [int(own.min()), int((total - own).min())]
        out.append(min(counts))
    return out


def _rest_groups(entries: list, everything) -> list:
    """Per slice: the distinct groups among the rows outside it -- all groups but those
    with rows in this slice only."""
    present = [(s, e[4]) for s, e in enumerate(entries) if e is not None]
    pairs = np.concatenate([g for _, g in present])
    slice_of = np.concatenate([np.full(g.shape[0], s) for s, g in present])
    keys, first, seen = np.unique(pairs, return_index=True, return_counts=True)
    alone = np.bincount(slice_of[first[seen == 1]], minlength=len(entries))
    return [int(everything[4].shape[0] - alone[s]) for s in range(len(entries))]


def _differences(entries: list, everything, n_boot: int, units: list) -> tuple:
    """(rest's metric, slice minus rest, its replicates, the difference tested) per slice;
    the replicates are ``n_boot`` NaN without them (``n_boot`` 1: as the in-memory report
    without intervals)."""
    with_reps = everything[1] is not None
    total = (everything[1] if with_reps else everything[0]).sums()
    rest, diff, reps, tested = [], [], [], []
    for entry, u in zip(entries, units):
        if entry is None:
            rest.append(np.nan)
            diff.append(np.nan)
            tested.append(np.nan)
            reps.append(np.full(n_boot, np.nan))
            continue
        sums = (entry[1] if with_reps else entry[0]).sums()
        own, others = _scores(sums), _scores({k: total[k] - sums[k] for k in total})
        d = own[METRIC] - others[METRIC]
        rest.append(float(others[METRIC][0]))
        diff.append(float(d[0]))
        tested.append(tested_difference(METRIC, float(d[0]), _split(own, with_reps),
                                        _split(others, with_reps), u))
        reps.append(d[1:] if with_reps else np.full(n_boot, np.nan))
    return np.array(rest), np.array(diff), reps, np.array(tested)


def against_rest(entries: list, everything, level, grouped: bool) -> dict:
    """The comparison of each slice with the rest of the rows, as
    :func:`chimeraboost.slices.slice_report` makes it: ``rest``, ``difference``,
    ``diff_interval``, ``se``, ``pvalue``, ``pvalue_adjusted``, ``verdict`` and ``reasons``
    (the keywords of :class:`chimeraboost.slices.SliceReport`).

    ``entries``: per slice its keyed entry (None for a slice without rows); ``everything``:
    all slices' merged; ``level``: the intervals' level (None: nothing resampled, nothing
    tested); ``grouped``: whether whole groups were resampled (the entries then hold their
    distinct groups)."""
    n_boot = 1 if level is None else everything[1].n_boot
    reasons = _eligible(entries, everything)
    if level is None:
        reasons = [r or "no resamples (ci=None)" for r in reasons]
    units = _units(entries, everything, grouped)
    rest, diff, reps, tested = _differences(entries, everything, n_boot, units)
    tests = _resampling.difference_tests(tested, reps, units,
                                         eligible=[r is None for r in reasons],
                                         adjust=ADJUST, alpha=ALPHA)
    reasons = [r if r is not None else (None if np.isfinite(tests.pvalue[s]) else
                                         "the difference is undefined")
               for s, r in enumerate(reasons)]
    diff = np.where(tests.difference == 0.0, 0.0, diff)  # a tie is a difference of 0
    return {"rest": rest, "difference": diff,
            "diff_interval": _intervals(reps, diff, tests.se, level), "se": tests.se,
            "pvalue": tests.pvalue, "pvalue_adjusted": tests.pvalue_adjusted,
            "verdict": verdicts(tests.difference, tests.reject, reasons, METRIC),
            "reasons": reasons}


def _intervals(reps: list, diff, se, level) -> np.ndarray:
    """(S, 2) percentile intervals of the differences; a tie (``se`` 0 with a difference
    of 0) is ``[0, 0]``, not the rounding noise of its replicates."""
    out = np.full((len(reps), 2), np.nan)
    if level is not None:
        for s, (r, d) in enumerate(zip(reps, diff)):
            out[s] = tuple(_resampling.bootstrap_interval(r, d, level=level,
                                                          method="percentile"))
    out[(se == 0) & (diff == 0)] = 0.0
    return out

