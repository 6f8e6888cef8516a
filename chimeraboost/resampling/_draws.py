"""Which rows does each bootstrap replicate draw, and how many replicates are enough?

- How many resamples does a paired decision need, and an interval? :data:`MIN_RESAMPLES_DECISION`
  and :data:`MIN_RESAMPLES_INTERVAL`, enforced by :func:`check_n_boot`.
- Which rows did replicate ``b`` draw? :func:`bootstrap_counts`, the chunks of the ``(B, n)``
  count matrix that :func:`~chimeraboost.resampling.bootstrap` evaluates; a replicate's counts
  depend on ``random_state`` only, never on the chunk size.
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from .._shared.units import (  # noqa: F401 - the one rule, re-exported here
    MIN_RESAMPLES_DECISION,
    MIN_RESAMPLES_INTERVAL,
    check_n_boot,
    check_units,
)
from .._shared.validation import check_positive_int, check_random_state_int

__all__ = ["MIN_RESAMPLES_DECISION", "MIN_RESAMPLES_INTERVAL", "bootstrap_counts",
           "check_n_boot"]


# Elements of one (chunk, n) count matrix. 2.5 x 10^5 int64 = 2 MB: small enough that a
# chunk and the evaluators' gathers of it stay in cache (measured: a 100,000-row report runs
# about 15% faster with 2 to 4 replicates per chunk than with 8, 25% than with 16), large
# enough that the per-chunk Python overhead is small.
_CHUNK_ELEMENTS = 250_000


def _chunk_size(n: int, n_boot: int, chunk_size) -> int:
    if chunk_size is None:
        return max(1, min(n_boot, _CHUNK_ELEMENTS // max(n, 1)))
    return check_positive_int(chunk_size, "chunk_size")


@public(legacy=("random_state", "chunk_size"))
def bootstrap_counts(n, n_boot, *, random_state=None, chunk_size=None, groups=None,
                     time=None, scheme="multinomial"):
    """The bootstrap's resampling counts, chunk by chunk.

    Parameters
    ----------
    n : int
        Number of rows.
    n_boot : int
        Number of replicates.
    random_state : None, int or numpy Generator
    chunk_size : int, default=None
        Replicates per chunk; None keeps a chunk near 10^6 entries. The counts do not depend
        on it.
    groups : array-like of shape (n,), default=None
        Resample whole groups (the array a user passes to scikit-learn's ``GroupKFold``):
        every row of a drawn group comes along.
    time : array-like of shape (n,), default=None
        Resample blocks of time points (rows sharing a time value travel together): a
        stationary bootstrap with blocks of one time point on average; the report and the
        other surfaces choose the block length from the rows' losses.
    scheme : {"multinomial", "poisson"}, default="multinomial"
        ``"poisson"``: an independent Poisson(1) count per row (per group with ``groups``),
        a function of the replicate's seed and the row's position (the group's value) only
        -- the counts :mod:`chimeraboost.dask` and the accumulators give each block.

    Yields
    ------
    ndarray of shape (chunk, n), float64
        Row ``b`` holds how often each row was drawn in replicate ``b`` (with single rows,
        multinomial with ``n`` draws and equal probabilities; with groups, how often the
        row's group was drawn). The same ``random_state`` gives the same counts
        as :func:`bootstrap` and :func:`paired_bootstrap` use.
    """
    # Checked now, not at the first next(): a generator function would defer every error.
    n = check_positive_int(n, "n")
    n_boot = check_positive_int(n_boot, "n_boot")
    rng = check_random_state_int(random_state)
    units = check_units(n, groups=groups, time=time, scheme=scheme)
    size = _chunk_size(n, n_boot, chunk_size)
    return (units.fill(rng, np.empty((min(size, n_boot - start), n)))
            for start in range(0, n_boot, size))
