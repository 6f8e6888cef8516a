"""When are two numbers the same number? The one tie rule of every verdict.

Two models whose outputs agree to the last few bits (the same model fitted twice, a linear
rung that is a logistic regression) must get "no clear difference", a difference of 0 and
p = 1 on every surface, whatever the random seed: a difference of 1e-16 left by rounding is no
evidence, and an interval of zero width around it must not exclude 0.
"""

from __future__ import annotations

import numpy as np

__all__ = ["TIE_RTOL", "negligible", "same_outputs"]

# Relative tolerance below which two numbers are equal (the tie rule of compare's rules).
TIE_RTOL = 1e-12


def negligible(value, scale=1.0) -> bool:
    """Whether ``value`` (a difference) is rounding noise next to ``scale``."""
    return bool(abs(float(value)) <= TIE_RTOL * max(1.0, abs(float(scale))))


def same_outputs(a, b) -> bool:
    """Whether two models' outputs on the same rows are equal to :data:`TIE_RTOL` relative."""
    if a is None or b is None:
        return False
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype.kind not in "biuf" or b.dtype.kind not in "biuf":
        return bool(a.shape == b.shape and np.array_equal(a, b))
    return bool(np.allclose(a, b, rtol=TIE_RTOL, atol=0.0, equal_nan=True))
