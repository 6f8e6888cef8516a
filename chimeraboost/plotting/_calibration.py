"""The calibration of probabilities, as pictures: where the forecasts are off
(:func:`reliability_diagram`), and whether a model wins by calibration or by discrimination
(:func:`mcb_dsc_plot`). Every number drawn comes from :mod:`chimeraboost.metrics`."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .. import metrics
from ._parts import (
    as_models,
    class_labels,
    diagram_axes,
    forecast_histogram,
    legend_label,
    legend_number,
    new_axes,
    pyplot,
)

__all__ = ["reliability_diagram", "mcb_dsc_plot"]


def reliability_diagram(y, proba, *, classes=None, sample_weight=None, pos_label=None, ax=None,
                        n_boot=1000, level=0.9, band="simultaneous", random_state=None,
                        histogram=True, groups=None, time=None):
    """The CORP reliability diagram: recalibrated against forecast probabilities, with the
    distribution of the forecasts beneath.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels.
    proba : array-like of shape (n, K) or (n,), or dict name -> such an array
        Predicted probabilities (``predict_proba(X)``); a dict draws several models on one
        Axes.
    classes : array-like of shape (K,), default=None
        The columns' labels (the model's ``classes_``). None: the sorted labels of ``y``.
    sample_weight : array-like of shape (n,), default=None
    pos_label : label, default=None
        The class whose forecasts are drawn. None: ``classes[1]`` for a binary problem; with
        more classes, one one-vs-rest curve per class (and no band).
    ax : matplotlib Axes or pair of Axes, default=None
        None: a new figure, the histogram of the forecasts in a panel beneath the diagram. A
        pair ``(diagram, histogram)``, e.g. from ``plt.subplots(2, 1, height_ratios=[4, 1])``:
        the histogram's panel takes the diagram's width. One Axes: the histogram is drawn
        inside it, along the bottom edge.
    n_boot : int, default=1000
        Resamples for the consistency band, drawn when one curve is shown; 0 for no band,
        else at least 200 (fewer than 1000 warn: the one rule of
        :func:`chimeraboost.resampling.check_n_boot`).
    level : float in (0, 1), default=0.9
        Level of the consistency band.
    band : {"simultaneous", "pointwise"}, default="simultaneous"
        ``"simultaneous"``: the whole curve of a calibrated forecast stays inside the band
        with probability ``level``, so a curve that leaves it anywhere is evidence of
        miscalibration. ``"pointwise"``: each point separately (a calibrated curve leaves
        such a band somewhere most of the time). The legend says which.
    random_state : None, int or numpy Generator
        Makes the band reproducible.
    histogram : bool, default=True
        Draw the histogram of the forecasts (weighted counts, log scale; one outline per
        curve when there are several): it shows where the forecasts are, so that a rare
        event whose forecasts crowd near zero is read where the rows are, and a step carried
        by a handful of rows at high forecasts is seen to be one.
    groups, time : array-like of shape (n,), default=None
        The band's resampling units, as in :func:`metrics.reliability_curve`: outcomes are
        drawn so that a group's rows (or a block of time-ordered rows) keep their dependence.

    Returns
    -------
    matplotlib Axes
        The diagram.

    Notes
    -----
    The curve is :func:`metrics.reliability_curve`: the weighted isotonic (PAV) recalibration
    that defines MCB, so the legend's MCB, DSC and UNC (from
    :func:`metrics.calibration_decomposition`, for the class drawn) are read off the same
    curve. They are printed with at least two significant digits (``0.00096``, not
    ``0.001``), as are the AUCs and the base rate of the other plots. The histogram counts the
    same pooled forecasts and weights as the curve. The band shows where the curve of a
    *calibrated* forecast would fall (outcomes resampled as ``Bernoulli(p)``). Dimitriadis,
    Gneiting & Jordan (2021), PNAS 118(8), doi:10.1073/pnas.2016191118.
    """
    models = as_models(proba)
    classes = class_labels(y, classes)
    if pos_label is not None:
        labels = [pos_label]
    elif classes.shape[0] == 2:
        labels = [classes[1]]
    else:
        labels = list(classes)
    ax, hist = diagram_axes(ax, histogram, pyplot("reliability_diagram").subplots)
    ax.plot([0, 1], [0, 1], color="0.5", lw=1, ls="--", label="calibrated")
    with_band = n_boot and len(models) * len(labels) == 1
    drawn = []  # (forecasts, weights, color) of every curve, for the histogram
    for name, p in models.items():
        dec = metrics.calibration_decomposition(y, p, classes,
                                                sample_weight=sample_weight)["per_class"]
        for label in labels:
            curve = metrics.reliability_curve(
                y, p, classes, sample_weight=sample_weight, pos_label=label,
                n_boot=n_boot if with_band else 0, level=level, band=band,
                random_state=random_state, groups=groups, time=time)
            k = int(np.flatnonzero(classes == curve.label)[0])
            text = name if len(labels) == 1 else f"{name}, class {label}"
            if len(models) == 1 and len(labels) == 1:
                text = f"{name} (class {label})"
            numbers = ", ".join(f"{key.upper()} {legend_number(dec[key][k])}"
                                for key in ("mcb", "dsc", "unc"))
            line, = ax.plot(curve.forecast, curve.recalibrated, lw=1.8,
                            label=legend_label(text, numbers))
            drawn.append((curve.forecast, curve.weight, line.get_color()))
            if curve.band_low is not None:
                ax.fill_between(curve.forecast, curve.band_low, curve.band_high,
                                color=line.get_color(), alpha=0.2, lw=0,
                                label=f"{curve.level:.0%} consistency band ({curve.band})")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("forecast probability")
    ax.set_ylabel("recalibrated probability (isotonic)")
    ax.set_title("Reliability diagram (CORP)")
    ax.legend(loc="upper left", fontsize="small")
    if hist is not None:
        forecast_histogram(ax, hist, drawn, weighted=sample_weight is not None)
    return ax


_DECOMPOSITION = ("calibration_mcb", "discrimination_dsc", "uncertainty_unc")


def mcb_dsc_plot(reports, *, skills=None, ax=None):
    """Models as points in the (DSC, MCB) plane, with lines of equal Brier skill.

    Parameters
    ----------
    reports : dict name -> Report (or any mapping with ``calibration_mcb``,
        ``discrimination_dsc``, ``uncertainty_unc``), all scored on the same rows
    skills : sequence of float, default=None
        Brier skills at which to draw the isolines. None: a few round values spanning the
        models.
    ax : matplotlib Axes, default=None

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    On the same rows ``brier / K = MCB - DSC + UNC`` with a shared UNC, so the Brier skill
    against the rows' class prior is ``(DSC - MCB) / UNC``: a line of equal skill is
    ``MCB = DSC - skill x UNC``. Lower right is better; a point moves down by calibration
    and right by discrimination. The points are the in-sample numbers, which the isotonic fit
    inflates by its noise; for a Report made with intervals (``ci=``), a hollow marker below
    each point shows the calibration test's estimate of the population MCB with its interval
    (see :func:`chimeraboost.metrics.calibration_test`).
    """
    if not isinstance(reports, Mapping) or not reports:
        msg = "reports must be a non-empty dict {model name: Report}."
        raise TypeError(msg)
    points = {}
    for name, r in reports.items():
        missing = [key for key in _DECOMPOSITION if key not in r]
        if missing:
            msg = f"reports[{name!r}] has no {', '.join(missing)}; pass classification Reports."
            raise ValueError(msg)
        points[str(name)] = tuple(float(r[key]) for key in _DECOMPOSITION)
    mcb, dsc, unc = (np.array(v) for v in zip(*points.values()))
    if np.any(np.isnan(mcb)) or np.any(np.isnan(dsc)):
        bad = [n for n, (m, d, _) in points.items() if np.isnan(m) or np.isnan(d)]
        msg = f"MCB or DSC is NaN for {', '.join(bad)} (no probabilities?); leave them out."
        raise ValueError(msg)
    if not np.allclose(unc, unc[0], rtol=1e-9, atol=1e-12):
        msg = ("the reports have different UNC (uncertainty), so they were not scored on the "
               f"same rows: {dict(zip(points, unc.round(6)))}. Score every model on one set.")
        raise ValueError(msg)
    u = float(unc[0])
    ax = new_axes(ax, "mcb_dsc_plot")
    pad_x = max(0.15 * float(np.ptp(dsc)), 0.02 * u)
    x_lo, x_hi = max(0.0, float(dsc.min()) - pad_x), float(dsc.max()) + pad_x
    y_hi = max(1.3 * float(mcb.max()), 0.02 * u)
    if skills is None:
        from matplotlib.ticker import MaxNLocator

        lo, hi = (x_lo - y_hi) / u, x_hi / u  # the skills at the window's corners
        skills = [v for v in MaxNLocator(6).tick_values(lo, hi) if lo < v < hi]
    _isolines(ax, skills, u, x_lo, x_hi, y_hi)
    shown_population = False
    for name, (m, d, _) in points.items():
        dot = ax.scatter([d], [m], s=30, zorder=3)
        ax.annotate(name, (d, m), textcoords="offset points", xytext=(4, 4), fontsize="small")
        r = reports[name] if name in reports else next(
            v for k, v in reports.items() if str(k) == name)
        excess = r.get("calibration_excess") if hasattr(r, "get") else None
        if excess is None or np.isnan(float(excess)):
            continue
        # The in-sample MCB sits above the population value by the noise of the isotonic
        # fit: the calibration test's estimate below it, with its interval when there is one.
        ci = (getattr(r, "ci", None) or {}).get("calibration_excess")
        color = dot.get_facecolor()[0]
        ax.plot([d, d], [m, max(float(excess), 0.0)], color=color, lw=0.8, ls=":", zorder=2)
        if ci is not None:
            ax.errorbar([d], [max(float(excess), 0.0)],
                        yerr=[[max(float(excess), 0.0) - ci[0]], [ci[1] - max(float(excess),
                                                                             0.0)]],
                        fmt="o", mfc="white", color=color, ms=5, capsize=3, zorder=3)
        else:
            ax.scatter([d], [max(float(excess), 0.0)], s=30, facecolors="white",
                       edgecolors=[color], zorder=3)
        shown_population = True
    if shown_population:
        ax.scatter([], [], s=30, facecolors="white", edgecolors="0.3",
                   label="population MCB (excess over noise) and interval")
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(0, y_hi)
    ax.set_xlabel("DSC (discrimination; right is better)")
    ax.set_ylabel("MCB (miscalibration; down is better)")
    ax.set_title(f"Calibration vs discrimination (UNC {legend_number(u)})")
    ax.legend(loc="upper left", fontsize="small")
    return ax


def _isolines(ax, skills, u, x_lo, x_hi, y_hi) -> None:
    """Lines MCB = DSC - skill x UNC, each labelled where it leaves the window."""
    xs = np.array([x_lo, x_hi])
    for i, s in enumerate(skills):
        ax.plot(xs, xs - s * u, color="0.7", lw=0.8, zorder=0,
                label="equal Brier skill" if i == 0 else None)
        x_top = y_hi + s * u
        if x_lo <= x_top <= x_hi:
            where, align = (x_top, y_hi), {"ha": "right", "va": "top"}
        elif 0 <= x_hi - s * u <= y_hi:
            where, align = (x_hi, x_hi - s * u), {"ha": "right", "va": "bottom"}
        else:
            continue
        ax.annotate(f"{s:g}", where, fontsize="x-small", color="0.4", **align)
