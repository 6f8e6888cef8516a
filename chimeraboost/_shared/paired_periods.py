"""The model-against-baseline comparison period by period, as
:class:`chimeraboost.monitor.SkillOverTime` holds it: one layout and one reading of each
period's paired bootstrap, shared by ``monitor.skill_over_time`` (rows in memory) and
``dask.skill_over_time`` (merged accumulators), so that the two cannot drift apart.

Questions this module answers:

- *What does the comparison hold before any period is read?* -> :func:`empty_comparison`.
- *What does one period's paired bootstrap say?* -> :func:`read_period`: the difference
  (0 for a tie: the same forecasts are the same model), its interval when enough replicates
  are defined, and the reasons it may be too narrow.
"""

from __future__ import annotations

import numpy as np

from .ties import negligible


def empty_comparison(periods: int, n_boot: int) -> dict:
    """NaN estimates, intervals and replicates for ``periods`` periods of ``n_boot``
    replicates each; no replicate defined."""
    return {"model": np.full(periods, np.nan), "baseline": np.full(periods, np.nan),
            "difference": np.full(periods, np.nan),
            "interval": np.full((periods, 2), np.nan),
            "defined": np.zeros(periods, dtype=np.intp),
            "model_replicates": np.full((periods, n_boot), np.nan),
            "baseline_replicates": np.full((periods, n_boot), np.nan)}


def read_period(out: dict, i: int, paired, metric: str, *, n_boot: int, tie: bool,
                level: float, minimum: int, label: str, narrow: dict) -> None:
    """Fill period ``i`` of ``out`` from ``paired`` (a
    :class:`chimeraboost.resampling.PairedBootstrapResult` of ``n_boot`` replicates): the
    replicates defined, the difference (exactly 0 for a ``tie``, and an interval of
    ``(0, 0)``), and with at least ``minimum`` replicates defined its interval at ``level``;
    the reasons the interval may be too narrow go to ``narrow``."""
    out["defined"][i] = n_boot - paired.n_dropped(metric)
    if tie:
        out["difference"][i], out["interval"][i] = 0.0, (0.0, 0.0)
        return
    diff = paired.estimate.get(metric, np.nan)
    out["difference"][i] = 0.0 if negligible(diff) else diff
    if out["defined"][i] >= minimum:
        out["interval"][i] = paired.interval(metric, level=level, warn=False)
    narrow.update({f"{metric} difference ({label})": why
                   for why in paired.narrow(metrics=[metric]).values()})
