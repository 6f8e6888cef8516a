"""What did the bootstrap find, and how is an interval read off its replicates?

- The interval of one metric from its replicates? :func:`percentile_interval` (NaN replicates,
  where the metric was undefined, left out and counted) [ET93]_.
- Every metric of one model, with its intervals? :class:`BootstrapResult`.
- The paired differences of two models on the same resampled rows? :class:`PairedBootstrapResult`.

These hold numbers only; the resampling that fills them is in ``_bootstrap``.
"""

from __future__ import annotations

import numpy as np

from .._shared.results import ConfidenceInterval
from .._shared.validation import as_1d, check_level

__all__ = ["BootstrapResult", "ConfidenceInterval", "PairedBootstrapResult",
           "percentile_interval"]


def percentile_interval(replicates, level=0.95) -> tuple[ConfidenceInterval, int]:
    """Percentile interval of bootstrap replicates, ignoring NaN ones.

    Returns
    -------
    (ConfidenceInterval, int)
        The ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (numpy's default linear
        interpolation) of the defined replicates, and the number of NaN replicates left out.
        ``(nan, nan)`` when none is defined.
    """
    level = check_level(level, "level")
    reps = as_1d(replicates, "replicates")
    if reps.dtype.kind not in "biuf":
        msg = f"replicates must be a 1-D array of numbers, got dtype {reps.dtype}."
        raise TypeError(msg)
    reps = reps.astype(np.float64)
    ok = ~np.isnan(reps)
    dropped = int(reps.size - ok.sum())
    if not ok.any():
        return ConfidenceInterval(np.nan, np.nan), dropped
    lo, hi = np.quantile(reps[ok], [(1 - level) / 2, (1 + level) / 2])
    return ConfidenceInterval(float(lo), float(hi)), dropped


class BootstrapResult:
    """Point estimates and bootstrap replicates of every metric of one model.

    Attributes
    ----------
    estimate : dict
        Metric -> value on the rows as given (the point estimate).
    replicates : dict
        Metric -> array of shape (n_boot,).
    n_boot : int
    """

    def __init__(self, estimate: dict, replicates: dict, n_boot: int):
        self.estimate, self.replicates, self.n_boot = estimate, replicates, n_boot

    def interval(self, metric, level=0.95) -> ConfidenceInterval:
        """Percentile interval of ``metric`` (NaN replicates ignored)."""
        return percentile_interval(self._get(metric), level)[0]

    def intervals(self, level=0.95) -> dict:
        """Metric -> :class:`ConfidenceInterval` for every metric."""
        return {key: self.interval(key, level) for key in self.replicates}

    def n_dropped(self, metric) -> int:
        """How many replicates gave NaN for ``metric`` (e.g. resamples with one class)."""
        return int(np.isnan(self._get(metric)).sum())

    def _get(self, metric):
        if metric not in self.replicates:
            msg = f"metric {metric!r} was not resampled; available: {sorted(self.replicates)}."
            raise KeyError(msg)
        return self.replicates[metric]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(n_boot={self.n_boot}, metrics={sorted(self.replicates)})"


class PairedBootstrapResult(BootstrapResult):
    """Paired differences ``model - baseline`` of every metric, both scored on the same
    resampled rows.

    Attributes
    ----------
    model, baseline : BootstrapResult
        Each model's own estimates and replicates (same counts).
    estimate, replicates : dict
        Metric -> difference ``model - baseline`` on the rows as given / per replicate.
    """

    def __init__(self, model: BootstrapResult, baseline: BootstrapResult):
        self.model, self.baseline = model, baseline
        keys = [key for key in model.replicates if key in baseline.replicates]
        estimate = {key: model.estimate[key] - baseline.estimate[key] for key in keys}
        reps = {key: model.replicates[key] - baseline.replicates[key] for key in keys}
        super().__init__(estimate, reps, model.n_boot)

    def difference(self, metric, level=0.95) -> tuple[float, float, float]:
        """``(model - baseline, low, high)`` for ``metric``."""
        lo, hi = self.interval(metric, level)
        return (float(self.estimate[metric]), lo, hi)
