"""Warnings chimeraboost emits, public so that users can filter them.

- :class:`DegenerateMetricWarning`: a number is NaN (or a comparison left rows or folds out)
  because the input is legal but degenerate -- one class in ``y``, a constant target, a
  reference loss that is zero or infinite. It subclasses scikit-learn's
  ``UndefinedMetricWarning``, so a filter written for scikit-learn's metrics catches ours too::

      import warnings
      from sklearn.exceptions import UndefinedMetricWarning
      warnings.simplefilter("ignore", UndefinedMetricWarning)

- :class:`FewResamplesWarning`: a bootstrap interval rests on fewer resamples than its
  percentiles need to be stable (see :data:`chimeraboost.resampling.MIN_RESAMPLES_INTERVAL`).
- :class:`NarrowIntervalWarning`: an interval is likely narrower than its level says whatever
  the method, because the rarest class has fewer than 4 rows
  (:data:`chimeraboost.resampling.MIN_EVENTS`): ``benchmarks/coverage.py`` measured 95%
  intervals of the ROC-AUC from 3 events covering 83% of the time, from 2 events 73%.
- :class:`LowPowerWarning`: a test can never reach its significance level with this few
  folds or data sets, whatever the numbers (an exact Wilcoxon test on 5 pairs never gives a
  two-sided p-value below 2/2^5 = 0.0625): a "not significant" from it carries no information.
"""

from __future__ import annotations

import os
import sys
import warnings

from sklearn.exceptions import UndefinedMetricWarning

__all__ = ["DegenerateMetricWarning", "FewResamplesWarning", "LowPowerWarning",
           "NarrowIntervalWarning"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
# Frames of these packages are skipped too: a scorer runs inside scikit-learn's
# cross-validation, and the line that matters is the user's call of cross_validate.
_PASS_THROUGH = tuple(f"{os.sep}{name}{os.sep}" for name in ("sklearn", "joblib"))


class DegenerateMetricWarning(UndefinedMetricWarning):
    """A metric is undefined (NaN) for legal but degenerate input, e.g. one class in ``y``."""


class FewResamplesWarning(UserWarning):
    """A bootstrap interval rests on too few resamples for its percentiles to be stable."""


class NarrowIntervalWarning(UserWarning):
    """An interval is likely too narrow for its level: too few events in the rarest class."""


class LowPowerWarning(UserWarning):
    """A test can never reach its significance level with this few folds or data sets."""


def _user_stacklevel() -> int:
    """The ``stacklevel`` that points at the first frame outside this package (and outside
    scikit-learn and joblib, which call our scorers).

    A warning raised three calls deep in a kernel should name the user's line, not ours;
    the depth differs between entry points, so it is counted rather than fixed.
    """
    level, frame = 1, sys._getframe(1)
    while frame is not None and _ours(frame.f_code.co_filename):
        frame = frame.f_back
        level += 1
    return level


def _ours(filename: str) -> bool:
    path = os.path.abspath(filename)
    return path.startswith(_PACKAGE_DIR + os.sep) or any(p in path for p in _PASS_THROUGH)


def warn(message: str, category: type[Warning] = DegenerateMetricWarning) -> None:
    """Emit ``category`` with ``message``, attributed to the caller's own line."""
    warnings.warn(message, category, stacklevel=_user_stacklevel())
