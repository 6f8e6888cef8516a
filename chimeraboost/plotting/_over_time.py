"""Did the model get worse over time, or did the base rate move? :func:`skill_over_time_plot`
draws a :class:`chimeraboost.monitor.SkillOverTime` (also ``result.plot()``).

Kept apart from the computation so that ``chimeraboost.monitor`` holds numbers only; matplotlib
is imported when a picture is asked for.

One reading per panel, stacked on one time axis: the loss against its no-skill reference (the
skill is their gap relative to the reference), the skill with its interval, and the base rate
(the mean of ``y`` for a regressor) that moves the reference. No twin axes: a second y scale
over the same panel makes two unrelated lines look like one.
"""

from __future__ import annotations

import numpy as np

from .._shared.format import percent
from ._parts import pyplot

__all__ = ["skill_over_time_plot"]

_SKILL_KEY = {"classification": "log_loss_skill", "regression": "mse_skill"}
_TITLE_SIZE = 10  # one size for every panel's title


def skill_over_time_plot(result, *, ax=None):
    """Loss with its reference, skill, and base rate: one reading per panel, stacked on one
    time axis.

    Parameters
    ----------
    result : SkillOverTime
        From :func:`chimeraboost.monitor.skill_over_time`.
    ax : None, a matplotlib Axes, or a pair or three of Axes
        ``None`` makes a figure of three panels: the loss against its no-skill reference
        (the skill is their gap relative to the reference), the skill with its interval, and
        the base rate (the mean of ``y``, for a regressor) that moves the reference. Three
        Axes get these three; a pair gets the loss and the skill; a single Axes gets the
        skill alone.

    Returns
    -------
    Axes or ndarray of Axes
        The Axes drawn on, in the order above.
    """
    plt = pyplot("skill_over_time_plot (SkillOverTime.plot)")
    single = ax is not None and hasattr(ax, "plot")
    if ax is None:
        _, axes = plt.subplots(3, 1, figsize=(8.0, 7.5), sharex=True, height_ratios=[3, 3, 2],
                               layout="constrained")
    elif single:
        axes = np.array([None, ax, None], dtype=object)
    else:
        axes = np.asarray(ax, dtype=object).ravel()
        if axes.size not in (2, 3):
            msg = (f"ax must be None, one Axes, a pair of Axes (loss, skill) or three (loss, "
                   f"skill, base rate), got {axes.size} Axes.")
            raise ValueError(msg)
        axes = np.append(axes, None) if axes.size == 2 else axes
    x = _dates(result)
    if axes[0] is not None:
        _loss_panel(axes[0], x, result)
    _skill_panel(axes[1], x, result)
    if axes[2] is not None:
        _rate_panel(axes[2], x, result)
    drawn = [a for a in axes if a is not None]
    for a in drawn:
        a.grid(True, axis="y", color="0.9", lw=0.8)
        a.tick_params(axis="x", labelbottom=a is drawn[-1])
    for label in drawn[-1].get_xticklabels():
        label.set(rotation=30, ha="right")
    if single:
        return ax
    return np.array(drawn, dtype=object) if len(drawn) == 3 else np.array(drawn[:2], dtype=object)


def _loss_panel(a, x, result) -> None:
    cls = result.task == "classification"
    name = "log loss" if cls else "RMSE"
    a.plot(x, result.loss, marker="o", color="C0", label=name)
    a.plot(x, result.reference_loss, marker=".", linestyle="--", color="black",
           label=f"reference ({result.reference()})")
    a.set_ylabel(name)
    a.set_title(f"{name} against its no-skill reference (skill = 1 - {name} / reference)",
                fontsize=_TITLE_SIZE)
    a.legend(loc="best", fontsize=8)


def _skill_panel(a, x, result) -> None:
    key = _SKILL_KEY[result.task]
    a.axhline(0.0, color="black", lw=0.8)
    a.plot(x, result.skill, marker="o", color="C2", label=key)
    if result.intervals is not None:
        iv = result.intervals[key]
        a.fill_between(x, iv[:, 0], iv[:, 1], color="C2", alpha=0.2,
                       label=f"{percent(result.ci_level)} interval")
    a.set_ylabel("skill")
    a.set_title(f"skill ({key}; 0 = no better than the reference)", fontsize=_TITLE_SIZE)
    a.legend(loc="best", fontsize=8)


def _rate_panel(a, x, result) -> None:
    if result.task == "regression":
        a.plot(x, result.values["mean_y"], marker=".", color="0.35", label="mean of y")
        a.set_ylabel("mean of y")
        a.set_title("mean of y per period (what the reference is built from)",
                    fontsize=_TITLE_SIZE)
        return
    rate = result.values["base_rate"]
    if np.ndim(rate) == 1:
        a.plot(x, rate, marker=".", color="0.35", label="base rate")
    else:
        for j, label in enumerate(result.classes):
            a.plot(x, rate[:, j], marker=".", label=f"rate {label}")
        a.legend(loc="best", fontsize=8)
    a.set_ylabel("base rate")
    a.set_title("base rate per period (what the reference is built from)",
                fontsize=_TITLE_SIZE)


def _dates(result) -> np.ndarray:
    """The period labels as naive datetime64 (matplotlib draws them without pandas)."""
    periods = result.periods
    return np.asarray(periods.tz_localize(None) if periods.tz is not None else periods,
                      dtype="datetime64[ns]")
