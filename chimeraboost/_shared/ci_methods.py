"""Which interval methods are there, which is the default, and how does a report name each?

:data:`CI_METHODS`, :data:`DEFAULT_CI_METHOD` and :data:`CI_METHOD_LABELS`, re-exported by
:mod:`chimeraboost.resampling` (which computes the intervals). They live here, with no import,
so that the command line can offer ``--ci-method`` without loading numpy and scipy.
"""

from __future__ import annotations

__all__ = ["CI_METHODS", "CI_METHOD_LABELS", "DEFAULT_CI_METHOD"]

CI_METHODS = ("expanded_bca", "bca", "expanded_percentile", "percentile")
# How reports name each method.
CI_METHOD_LABELS = {"expanded_bca": "expanded BCa", "bca": "BCa",
                    "expanded_percentile": "expanded percentile", "percentile": "percentile"}
# The method that covers: benchmarks/coverage.py measures every method on every design.
DEFAULT_CI_METHOD = "expanded_bca"
