"""Which model to keep, from the interval of a paired difference and a margin?

The interval-and-rope rule (Kruschke 2018) that every champion-challenger verdict of the
library reads -- ``compare.compare_holdout``, ``compare.compare_cv`` and
``monitor.skill_over_time``'s latest-window verdict -- and the three words it ends in. One
place, so that "replace champion" means the same thing on every surface.

References
----------
Kruschke, J. K. (2018). Rejecting or accepting parameter values in Bayesian estimation.
*Advances in Methods and Practices in Psychological Science* 1(2), 270-280.
doi:10.1177/2515245918771304
"""

from __future__ import annotations

import math

__all__ = ["EQUIVALENT", "KEEP", "REPLACE", "decide_interval"]

REPLACE, KEEP, EQUIVALENT = "replace champion", "keep champion", "practically equivalent"


def decide_interval(lo, hi, rope) -> tuple[str, str]:
    """The decision and its reason from the interval ``[lo, hi]`` of challenger minus
    champion, oriented so that positive favours the challenger: **replace** if ``lo > rope``;
    **equivalent** if the interval lies inside ``[-rope, rope]``; otherwise **keep**.

    Examples
    --------
    >>> decide_interval(0.02, 0.05, 0.01)
    ('replace champion', 'whole interval above +rope')
    >>> decide_interval(-0.005, 0.004, 0.01)[0]
    'practically equivalent'
    """
    if math.isnan(lo) or math.isnan(hi):
        return KEEP, "difference undefined"
    if lo > rope:
        return REPLACE, "whole interval above +rope"
    if -rope <= lo and hi <= rope:
        return EQUIVALENT, "whole interval inside the rope"
    if hi < -rope:
        return KEEP, "whole interval below -rope (champion better)"
    return KEEP, "no clear difference"
