"""Pieces several pictures share: matplotlib imported on demand with one message naming the
``plot`` extra, the model(s) and classes a curve is drawn for, how a number and a model's
name read in a legend, and the histogram of the forecasts beneath a reliability diagram (its
Axes, glued under the diagram, and its bars). Drawing only; every number comes from the
caller."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from .._shared.validation import as_1d, check_classes, check_no_missing

__all__ = ["INSTALL", "pyplot", "new_axes", "as_models", "class_labels", "legend_label",
           "legend_number", "diagram_axes", "beneath", "forecast_histogram"]

INSTALL = 'pip install "chimeraboost[plot]"'


def pyplot(what: str):
    """matplotlib.pyplot, or one ImportError naming the extra to install.

    ``what`` is the function or method the user called, so the message names it: matplotlib
    is optional, and every picture of the package asks for it through here.
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        msg = f"{what} needs matplotlib, an optional dependency: {INSTALL}."
        raise ImportError(msg) from exc
    return plt


def new_axes(ax, what: str, figsize=(5.0, 5.0)):
    """``ax``, or the Axes of a new figure of ``figsize`` (matplotlib imported only then)."""
    plt = pyplot(what)
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def as_models(proba) -> dict:
    """One model's forecasts, or a dict name -> forecasts, as a dict."""
    if isinstance(proba, Mapping):
        if not proba:
            msg = "proba is an empty dict; pass {model name: predict_proba(X)}."
            raise ValueError(msg)
        return {str(name): p for name, p in proba.items()}
    return {"model": proba}


def class_labels(y, classes):
    """``classes`` as given, else the sorted labels of ``y`` -- and a message about ``y``,
    not about a ``classes=`` the caller never passed, when ``y`` cannot name them: empty, or
    a single label (0/1 and bool labels still say what the other class is, as in
    :func:`chimeraboost.compare.holdout_table`)."""
    if classes is not None:
        return check_classes(classes)
    labels = np.unique(check_no_missing(as_1d(y, "y"), "y"))
    if labels.shape[0] == 0:
        msg = "y is empty; at least one row is needed."
        raise ValueError(msg)
    if labels.shape[0] == 1:
        if labels.dtype == bool:
            return np.array([False, True])
        if labels.dtype.kind in "iuf" and set(labels.tolist()) <= {0, 1}:
            return np.array([0, 1])
        msg = (f"y holds a single label {labels.tolist()}; the classes are read off y, so name "
               "both: classes=[negative, positive] (the model's classes_).")
        raise ValueError(msg)
    return check_classes(labels)


def legend_label(name: str, numbers: str) -> str:
    """A legend entry; a long model name gets its own line so the legend stays narrow."""
    return f"{name}: {numbers}" if len(name) <= 24 else f"{name}:\n{numbers}"


def legend_number(x) -> str:
    """A number for a legend: three decimals, more when three would not show two significant
    digits, so that 0.00096 and 0.0012 read differently (``0.00096``, ``0.0012``).

    >>> [legend_number(v) for v in (0.169, 0.083, 0.0012, 0.00096, 0.0, float("nan"))]
    ['0.169', '0.083', '0.0012', '0.00096', '0.000', 'n/a']
    >>> legend_number(-0.00042), legend_number(1.8734)
    ('-0.00042', '1.873')
    """
    x = float(x)
    if math.isnan(x):
        return "n/a"
    if x == 0.0 or not math.isfinite(x):
        return f"{x:.3f}"
    # Two significant digits need 1 - floor(log10|x|) decimals; never fewer than three.
    decimals = max(3, 1 - math.floor(math.log10(abs(x))))
    return f"{x:.{decimals}f}"


def diagram_axes(ax, histogram: bool, subplots):
    """The Axes of a reliability diagram and of its histogram (None when not drawn).

    ``ax=None``: a new figure, the histogram in a short panel beneath the diagram. A pair
    ``(diagram, histogram)``: as given. One Axes: the histogram inside it, along its bottom
    edge, so that a figure laid out by the caller needs no room it did not plan for.
    """
    if ax is None:
        if not histogram:
            _, ax = subplots(figsize=(5.0, 5.0), layout="constrained")
            return ax, None
        _, (ax, hist) = subplots(2, 1, figsize=(5.0, 6.2), height_ratios=[4, 1],
                                 layout="constrained")
        return beneath(ax, hist)
    if hasattr(ax, "plot"):
        if not histogram:
            return ax, None
        hist = ax.inset_axes([0.0, 0.0, 1.0, 0.16], zorder=0.5)
        hist.patch.set_alpha(0.0)
        return ax, hist
    pair = np.asarray(ax, dtype=object).ravel()
    if pair.size != 2 or not all(hasattr(a, "plot") for a in pair):
        msg = ("ax must be None, one Axes or a pair of Axes (diagram, histogram); got "
               f"{pair.size} objects.")
        raise ValueError(msg)
    if not histogram:
        pair[1].set_visible(False)
        return pair[0], None
    return beneath(pair[0], pair[1])


class _Beneath:
    """Axes locator: the panel keeps its own height and vertical place and takes the x extent
    of the Axes above it, whose box an equal aspect may have narrowed."""

    def __init__(self, above):
        self.above = above

    def __call__(self, panel, renderer):
        self.above.apply_aspect()
        top = self.above.get_position(original=False)
        own = panel.get_position(original=True)
        return type(own).from_bounds(top.x0, own.y0, top.width, own.height)


def beneath(ax, hist):
    """Glue ``hist`` under ``ax``: the same x extent (whatever the aspect of ``ax``), ``ax``
    sitting on it; returns ``(ax, hist)``."""
    ax.set_anchor("S")
    hist.set_axes_locator(_Beneath(ax))
    return ax, hist


def forecast_histogram(ax, hist, histograms, weighted: bool) -> None:
    """The distribution of the forecasts, drawn in ``hist`` below (or inside) the diagram
    ``ax``.

    ``histograms`` is a list of ``(forecasts, weights, color)``, one per curve drawn: the
    distinct forecasts and the total weight at each, as :func:`metrics.reliability_curve`
    returns them. The counts are on a log scale: with a rare event most forecasts sit near
    zero, and a linear scale would show one bar and hide the few rows at high forecasts, where
    the curve is least certain.
    """
    edges = np.linspace(0.0, 1.0, 41)
    single = len(histograms) == 1
    inside = hist in ax.child_axes
    if inside and single:  # grey under the curve, so that bars and curve are not confused
        histograms = [(f, w, "0.5") for f, w, _ in histograms]
    filled = []
    for forecasts, weights, color in histograms:
        counts, _ = np.histogram(forecasts, bins=edges, weights=weights)
        filled.append(counts[counts > 0])
        if single:  # one distribution: filled bars
            hist.bar(edges[:-1], counts, width=np.diff(edges), align="edge", color=color,
                     alpha=0.3 if inside else 0.45, lw=0)
        else:  # several: outlines, so that none hides another
            hist.stairs(counts, edges, color=color, lw=1.2)
    hist.set_yscale("log")
    filled = np.concatenate(filled)
    if filled.size:  # room above the tallest bar, and below the lowest for its edge to show
        hist.set_ylim(0.5 * min(1.0, float(filled.min())), 2.0 * float(filled.max()))
    hist.set_xlim(ax.get_xlim())
    what = "weight" if weighted else "rows"
    if inside:  # a quiet inset without its own axis
        hist.set_axis_off()
        return
    hist.set_ylabel(f"{what} (log)", fontsize="small")
    hist.tick_params(labelsize="small")
    hist.set_xlabel(ax.get_xlabel())
    ax.set_xlabel("")
    ax.tick_params(labelbottom=False)
