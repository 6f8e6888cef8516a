"""The weight vectors every layer resamples with: ``(B, n)`` replicate weights, a workspace for
their buffers, shares of a total, weighted quantiles.

Questions this module answers:

- What are the row weights of ``B`` resamples (counts times sample weights, integer counts
  kept as integers)? :func:`replicate_weights`; as float64: :func:`as_float`.
- Where do a bootstrap's row-length buffers live from one chunk of replicates to the next?
  :class:`Workspace`.
- A share that lies in [0, 1] by definition, free of rounding past its ends? :func:`fraction`.
- Weighted empirical quantiles of ``B`` weight vectors? :func:`weighted_quantiles`.

The metric engine built on these (sorting once, ranking statistics, the isotonic fit behind
MCB, the CORP decomposition) is private to ``metrics`` (``chimeraboost.metrics._kernels``);
these pieces are here because ``quantile_metrics``, ``resampling``, ``decisions`` and
``slices`` need them too, and a package reaches another's private module only through
``_shared``.
"""

from __future__ import annotations

import math

import numpy as np


def fraction(numerator, denominator):
    """``numerator / denominator`` for a share that lies in [0, 1] by definition.

    The two sums are accumulated in different orders (a BLAS product against a plain sum), so
    a share of everything can come out as 1 + 2e-16; the clip removes that rounding and
    nothing else. NaN where the denominator is 0.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.clip(numerator / denominator, 0.0, 1.0)


class Workspace:
    """Named buffers kept from one call to the next.

    A bootstrap evaluates many chunks of replicates of one shape. Allocating their
    row-length temporaries afresh for every chunk makes the C allocator hand the memory back
    to the system and fault it in again, page by page (measured: a third of the time of a
    100,000-row report). A kernel asks for a buffer by name and shape; the memory behind a
    name is kept and reused for any shape that fits in it (the last, shorter chunk; another
    model's kernel on the same rows, whose blocks differ in number), so evaluators that take
    turns on the same counts can share one workspace and its cache footprint. Without a
    workspace (``work=None``) kernels allocate as usual.
    """

    def __init__(self):
        self._buffers = {}

    def get(self, name: str, shape: tuple, dtype=np.float64) -> np.ndarray:
        """An uninitialised C-contiguous array of ``shape`` (reused memory when possible)."""
        size = math.prod(shape)
        buf = self._buffers.get((name, dtype))
        if buf is None or buf.shape[0] < size:
            buf = self._buffers[(name, dtype)] = np.empty(size, dtype)
        return buf[:size].reshape(shape)


def replicate_weights(sample_weight, counts, n: int, *, integer: bool = False,
                      work: Workspace | None = None) -> np.ndarray:
    """(B, n) row weights: resampling ``counts`` (or one vector of ones) times sample weights.

    With ``integer=True``, integer counts without sample weights stay int64: the kernels
    then cumulate them in integer arithmetic, several times faster than a floating-point
    cumulative sum (whose every addition waits for the previous one) and exact, so every
    number equals the floating-point path's. ``work`` holds the product with the sample
    weights between calls.
    """
    if counts is None:
        return (np.ones(n) if sample_weight is None else sample_weight)[None, :]
    counts = np.asarray(counts)
    if counts.ndim == 1:
        counts = counts[None, :]
    if counts.ndim != 2 or counts.shape[1] != n:
        msg = f"counts must have shape (B, {n}) (one column per row), got {counts.shape}."
        raise ValueError(msg)
    if sample_weight is None:
        if integer and counts.dtype.kind in "iub":
            return counts.astype(np.int64, copy=False)
        return counts.astype(np.float64, copy=False)
    out = None if work is None else work.get("weights", counts.shape)
    return np.multiply(counts, sample_weight, out=out)


def as_float(weights: np.ndarray, work: Workspace | None = None) -> np.ndarray:
    """``weights`` as float64 (into a workspace buffer for integer counts)."""
    if weights.dtype == np.float64:
        return weights
    out = np.empty(weights.shape) if work is None else work.get("float_weights", weights.shape)
    np.copyto(out, weights)
    return out


def weighted_quantiles(x_sorted: np.ndarray, w_sorted: np.ndarray, levels) -> np.ndarray:
    """Weighted empirical quantiles by the "averaged inverted cdf", for B weight vectors.

    ``x_sorted`` (n,) ascending values, ``w_sorted`` (B, n) their weights, ``levels`` (K,) in
    (0, 1) -> (B, K). The quantile at level tau is the first value whose cumulative weight
    reaches ``tau * W``; when it reaches it exactly (to machine epsilon), the mean of that value
    and the next one carrying weight. Hyndman & Fan (1996), definition 2; with unit weights
    numpy's ``method="averaged_inverted_cdf"``, and the median is the usual median. It is the
    rule behind scikit-learn's ``d2_pinball_score`` and ``d2_absolute_error_score``.
    """
    levels = np.atleast_1d(np.asarray(levels, dtype=np.float64))
    cdf = np.cumsum(w_sorted, axis=1)
    n = x_sorted.shape[0]
    out = np.empty((w_sorted.shape[0], levels.shape[0]))
    for b in range(w_sorted.shape[0]):
        # tau * 100 / 100 * W, in this order, reproduces scikit-learn's arithmetic bit for
        # bit, which matters exactly when the target lands on a cumulative weight.
        target = levels * 100.0 / 100.0 * cdf[b, -1]
        i = np.minimum(np.searchsorted(cdf[b], target, side="left"), n - 1)
        on_step = cdf[b, i] - target <= np.finfo(np.float64).eps
        j = np.searchsorted(cdf[b], cdf[b, i], side="right")  # next row with weight
        j = np.where(j < n, j, i)
        out[b] = np.where(on_step, (x_sorted[i] + x_sorted[j]) / 2.0, x_sorted[i])
    return out
