"""What was asked of :func:`chimeraboost.monitor.skill_over_time`: the checks of its inputs.

Questions this module answers:

- *Which baseline, which window?* -> ``_check_baseline``, ``_check_window``.
- *Is it a classification or a regression, and over which classes?* -> ``_task``, read off
  ``y``, the shape of ``proba`` and ``classes``.
- *Which calendar period does each row fall in?* -> ``_periods``: pandas' bins of ``time`` at
  ``freq``, every message saying what to pass instead.
"""

from __future__ import annotations

import numpy as np

from .._shared.validation import as_1d, as_dates, check_positive_int, read_classes


def _check_baseline(baseline) -> str:
    if baseline not in ("period", "rolling"):
        msg = (f"reference_from must be 'period' (each period's own base rate) or 'rolling' "
               f"(the prior of the preceding periods), got {baseline!r}.")
        raise ValueError(msg)
    return baseline


def _check_window(window):
    if window is None:
        return None
    return check_positive_int(window, "window")


def _task(y, proba, classes):
    """("classification", classes) or ("regression", None), read off the inputs."""
    return read_classes(y, proba, classes)


def _periods(pd, when, n: int, freq):
    """Calendar bins of ``when``: (bin index per row, bin labels)."""
    if when is None:
        msg = "time is None; pass the date (or time) of every row."
        raise TypeError(msg)
    raw = when if hasattr(when, "dtype") and not isinstance(when, np.ndarray) else \
        as_1d(when, "time")
    dti = as_dates(raw, pd)
    if dti.ndim != 1 or len(dti) != n:
        msg = f"time has {len(dti)} rows but y has {n}; pass one date per row."
        raise ValueError(msg)
    missing = np.asarray(dti.isna())
    if missing.any():
        msg = (f"time contains {int(missing.sum())} missing date(s) (NaT; the first at position "
               f"{int(np.flatnonzero(missing)[0])}); every row needs a date.")
        raise ValueError(msg)
    if not (isinstance(freq, str) and freq) and not isinstance(freq, pd.offsets.BaseOffset):
        msg = (f"freq must be a pandas offset alias such as 'MS' (month start), 'W' (weeks), "
               f"'D' (days) or 'QS' (quarters), or a pandas DateOffset; got {freq!r}.")
        raise TypeError(msg)
    try:
        offset = pd.tseries.frequencies.to_offset(freq)
    except (TypeError, ValueError):
        msg = (f"freq={freq!r} is not a pandas offset alias; use e.g. 'MS' (month start), 'W' "
               "(weeks), 'D' (days) or 'QS' (quarters).")
        raise ValueError(msg) from None
    order = np.argsort(dti.asi8, kind="stable")
    # Bins partition the sorted dates into contiguous runs: each row's bin is its run.
    sizes = pd.Series(order, index=dti[order]).resample(offset).size()
    period = np.empty(n, dtype=np.intp)
    period[order] = np.repeat(np.arange(len(sizes)), sizes.to_numpy())
    return period, sizes.index
