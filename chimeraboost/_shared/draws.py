"""How many outcome draws does the calibration test take inside a report, a table or a slice?

:func:`calibration_draws`, one rule for :func:`chimeraboost.report`,
:func:`chimeraboost.compare.holdout_table` and :func:`chimeraboost.slices.slice_report`, which
run :func:`chimeraboost.metrics.calibration_test` beside their own ``n_boot`` resamples.
"""

from __future__ import annotations

__all__ = ["CALIBRATION_DRAWS", "calibration_draws"]

# Outcome draws of the calibration test in a report: min(n_boot, this), at least its minimum.
# 1,000 resolve p-values to 0.001 and the interval's 2.5% tails; more cost time, not accuracy.
CALIBRATION_DRAWS = 1000


def calibration_draws(n_boot: int) -> int:
    """Draws of the calibration test in a report or table of ``n_boot`` resamples."""
    return min(n_boot, CALIBRATION_DRAWS)  # n_boot is at least the one rule's minimum
