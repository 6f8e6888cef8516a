"""The one place this package draws bootstrap replicates and reads intervals off them.

Question this module answers:

- *How sure is each number of a statistic of the rows?* -> :func:`row_bootstrap`: the
  statistic on resampled rows (:func:`chimeraboost.resampling.bootstrap_counts`, the same
  rows for every number, so paired numbers stay paired), the grouped jackknife behind the
  interval (:func:`chimeraboost.resampling.jackknife_blocks`), and each interval through
  :func:`chimeraboost.resampling.bootstrap_interval` with the chosen ``ci_method``.

A statistic is a function of a ``(B, n)`` matrix of row weights returning a dict of ``(B,)``
arrays: a replicate is one more weight vector, and the point estimate is the same function
at weight one on every row.
"""

from __future__ import annotations

import numpy as np

from .. import resampling

# Rows of the jackknife's weight matrix evaluated at once (blocks x rows in memory).
_JACK_CHUNK = 25


def row_bootstrap(stat, n: int, *, n_boot: int, random_state, level: float, ci_method: str):
    """``(point, intervals, replicates)``: dicts name -> float, ``(low, high)``, ``(B,)``.

    ``stat(weights)`` takes a ``(B, n)`` float matrix and returns ``{name: (B,) array}``.
    """
    rng = np.random.default_rng(random_state) if not isinstance(
        random_state, np.random.Generator) else random_state
    point = {k: float(v[0]) for k, v in stat(np.ones((1, n))).items()}
    chunks = [stat(counts) for counts in resampling.bootstrap_counts(n, n_boot,
                                                                     random_state=rng)]
    reps = {k: np.concatenate([c[k] for c in chunks]) for k in point}
    block = resampling.jackknife_blocks(n, random_state=rng)
    groups = np.arange(int(block.max()) + 1)
    jack_chunks = []
    for start in range(0, groups.size, _JACK_CHUNK):
        g = groups[start:start + _JACK_CHUNK]
        jack_chunks.append(stat((block[None, :] != g[:, None]).astype(np.float64)))
    jack = {k: np.concatenate([c[k] for c in jack_chunks]) for k in point}
    intervals = {}
    for k, est in point.items():
        ci = resampling.bootstrap_interval(reps[k], est, level=level, method=ci_method,
                                           jackknife=jack[k], n_rows=n)
        intervals[k] = (float(ci.low), float(ci.high))
    return point, intervals, reps
