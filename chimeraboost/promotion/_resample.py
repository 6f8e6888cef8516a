"""How this package draws bootstrap replicates and reads intervals off them: through the one
resampling engine.

Question this module answers:

- *How sure is each number of a statistic of the rows?* -> :func:`row_bootstrap`: the
  statistic on the replicates of a :class:`chimeraboost.resampling.Resampler` (single rows,
  whole groups with ``groups=``, blocks of time with ``time=``; the same replicates for
  every number, so paired numbers stay paired), on its jackknife (whole units left out), and
  each interval through :meth:`~chimeraboost.resampling.Resampler.interval`, by the scheme's
  ``ci_method`` with the degrees of freedom of the resampled units.

A statistic is a function of a ``(B, n)`` matrix of row weights returning a dict of ``(B,)``
arrays: a replicate is one more weight vector, and the point estimate is the same function
at weight one on every row.
"""

from __future__ import annotations

import numpy as np

from .. import resampling


def row_bootstrap(stat, n: int, scheme: resampling.Resampler, *, level: float):
    """``(point, intervals, replicates)``: dicts name -> float, ``(low, high)``, ``(B,)``.

    ``stat(weights)`` takes a ``(B, n)`` float matrix and returns ``{name: (B,) array}``;
    ``scheme`` draws the replicates and the jackknife blocks, in that order from its
    generator.
    """
    point = {k: float(v[0]) for k, v in stat(np.ones((1, n))).items()}
    chunks = [stat(counts) for counts in scheme.counts(n)]
    reps = {k: np.concatenate([c[k] for c in chunks]) for k in point}
    jack_chunks = [stat(w) for w in scheme.jackknife_chunks(scheme.jackknife_blocks(n))]
    jack = {k: np.concatenate([c[k] for c in jack_chunks]) for k in point}
    units = scheme.n_units(n)
    intervals = {}
    for k, est in point.items():
        ci = scheme.interval(reps[k], est, level, jackknife=jack[k], n_units=units)
        intervals[k] = (float(ci.low), float(ci.high))
    return point, intervals, reps
