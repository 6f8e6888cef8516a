"""The picture of a report per slice: :func:`slice_plot`, a forest plot of each slice's
skill with its interval and the value on all rows as a line. Drawing only; every number is
the :class:`chimeraboost.slices.SliceReport`'s."""

from __future__ import annotations

import textwrap

import numpy as np

from .._shared.api import public
from .._shared.facts import fact, parse_metric
from .._shared.format import percent
from ._parts import new_axes

# Marker colours by verdict: the slices that differ from the rest stand out.
_COLOURS = {"worse than the rest": "tab:red", "better than the rest": "tab:green",
            "no detectable difference": "tab:blue"}


@public(legacy=("metric",))
def slice_plot(result, *, metric=None, ax=None):
    """Each slice's ``metric`` with its bootstrap interval, the value on all rows as a
    vertical line.

    Parameters
    ----------
    result : SliceReport
        From :func:`chimeraboost.slices.slice_report`, :func:`~chimeraboost.slices.find_weak_slices`
        or ``report(..., by=...).slices``.
    metric : str, default=None
        A key of ``result.values`` with intervals (``"brier_skill"``, ``"roc_auc"``,
        ``"r2"``, ...). None: the metric the slices were compared with the rest on.
    ax : matplotlib Axes, default=None

    Returns
    -------
    matplotlib Axes
        Slices top to bottom in the report's order, labelled with their rows; red markers
        for slices worse than the rest, green for better, blue for no detectable
        difference, hollow grey for slices not tested. A result made with ``ci=None``
        draws the numbers without intervals (any key of ``result.values``).
    """
    # Without intervals (ci=None) every number is drawn as a point; with them, only the
    # numbers that have intervals, so that no marker looks surer than it is.
    banded = bool(result.intervals)
    known = sorted(k for k in result.values if k in result.intervals or not banded)
    key = result.metric if metric is None else parse_metric(
        metric, arg="metric", valid=known, why=" (it has no per-slice intervals in this "
        "result)" if banded else " (a number of every slice)").key
    labels = [f"{lab} (n={int(n):,})" for lab, n in zip(result.labels, result.n)]
    # Wide enough for the longest label beside a plot of 4.5 inches.
    width = 4.5 + 0.075 * max(len(lab) for lab in labels)
    ax = new_axes(ax, "slice_plot", figsize=(width, 1.4 + 0.4 * len(labels)))
    ypos = np.arange(len(labels))[::-1]
    value = np.asarray(result.values[key], dtype=np.float64)
    low, high = (np.asarray(result.intervals[key], dtype=np.float64).T if banded
                 else (value, value))
    overall = result.overall["values"].get(key)
    if overall is not None and np.isfinite(overall):
        ax.axvline(float(overall), color="0.3", lw=1, ls="--", label=f"all rows {overall:.3f}")
    err = np.vstack([value - low, high - value])
    err = np.where(np.isfinite(err), np.maximum(err, 0.0), 0.0)
    for verdict, colour in (*_COLOURS.items(), (None, "0.6")):
        if verdict is None:
            pick = np.array([v not in _COLOURS for v in result.verdict])
            style = {"mfc": "white", "label": "not tested"}
        else:
            pick = np.array([v == verdict for v in result.verdict])
            style = {"label": verdict}
        if pick.any():
            ax.errorbar(value[pick], ypos[pick], xerr=err[:, pick], fmt="o", color=colour,
                        capsize=3, **style)
    ax.set_yticks(ypos)
    ax.set_yticklabels(labels)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    shown = f", {percent(result.ci_level)} intervals" if banded else " (no intervals: ci=None)"
    ax.set_xlabel(f"{fact(key.removesuffix('_vs_all')).label} per slice{shown}")
    ax.set_title(textwrap.fill(f"{result.name} by {result.by}", 60), fontsize="medium")
    ax.legend(loc="best", fontsize="small")
    return ax
