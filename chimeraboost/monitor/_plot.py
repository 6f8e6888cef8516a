"""Drawing of :class:`chimeraboost.monitor.SkillOverTime` (``result.plot()``).

Kept apart from the computation so that ``chimeraboost.monitor`` holds numbers only; matplotlib
is imported when a picture is asked for.
"""

from __future__ import annotations

import numpy as np

from .._shared.format import percent

_SKILL_KEY = {"classification": "log_loss_skill", "regression": "mse_skill"}


def plot_skill_over_time(result, ax=None):
    """Loss (with its reference) and skill side by side, each with the base rate; see
    :meth:`chimeraboost.monitor.SkillOverTime.plot`."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        msg = ('SkillOverTime.plot needs matplotlib, an optional dependency: '
               'pip install "chimeraboost[plot]".')
        raise ImportError(msg) from exc
    single = ax is not None and hasattr(ax, "plot")
    if ax is None:
        _, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharex=True, layout="constrained")
    elif single:
        axes = np.array([None, ax], dtype=object)
    else:
        axes = np.asarray(ax, dtype=object).ravel()
        if axes.size != 2:
            msg = f"ax must be None, one Axes or a pair of Axes, got {axes.size} Axes."
            raise ValueError(msg)
    x = _dates(result)
    cls = result.task == "classification"
    if axes[0] is not None:
        a = axes[0]
        a.plot(x, result.loss, marker="o", label="log loss" if cls else "RMSE")
        a.plot(x, result.reference_loss, marker=".", linestyle="--", color="black",
               label="reference")
        a.set_ylabel("log loss" if cls else "RMSE")
        a.set_title("loss and its no-skill reference")
        _legend(a, _base_rate(result, a))
    a = axes[1]
    key = _SKILL_KEY[result.task]
    a.axhline(0.0, color="black", lw=0.8)
    a.plot(x, result.skill, marker="o", color="C2", label=key)
    if result.intervals is not None:
        iv = result.intervals[key]
        a.fill_between(x, iv[:, 0], iv[:, 1], color="C2", alpha=0.2,
                       label=f"{percent(result.ci_level)} interval")
    a.set_ylabel("skill")
    a.set_title(f"skill against {result.reference()}", fontsize=9)
    _legend(a, _base_rate(result, a))
    for a in axes:
        if a is not None:
            for label in a.get_xticklabels():
                label.set(rotation=30, ha="right")
    return axes[1] if single else axes


def _dates(result) -> np.ndarray:
    """The period labels as naive datetime64 (matplotlib draws them without pandas)."""
    periods = result.periods
    return np.asarray(periods.tz_localize(None) if periods.tz is not None else periods,
                      dtype="datetime64[ns]")


def _legend(ax, twin) -> None:
    handles, names = ax.get_legend_handles_labels()
    more, more_names = twin.get_legend_handles_labels()
    ax.legend(handles + more, names + more_names, loc="best", fontsize=8)


def _base_rate(result, ax):
    x = _dates(result)
    twin = ax.twinx()
    if result.task == "regression":
        twin.plot(x, result.values["mean_y"], linestyle=":", color="grey", label="mean y")
        twin.set_ylabel("mean of y", color="grey")
        return twin
    rate = result.values["base_rate"]
    if np.ndim(rate) == 1:
        twin.plot(x, rate, linestyle=":", color="grey", label="base rate")
    else:
        for j, label in enumerate(result.classes):
            twin.plot(x, rate[:, j], linestyle=":", label=f"rate {label}")
    twin.set_ylabel("base rate", color="grey")
    return twin
