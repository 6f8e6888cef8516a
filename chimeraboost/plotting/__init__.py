"""Pictures of the numbers: where a model is off, not only by how much.

Every function takes an optional matplotlib ``ax``, returns the Axes it drew on and never
calls ``show()``. Nothing here computes a metric its own way: the curves and the numbers in
the legends come from :mod:`chimeraboost.metrics` (the reliability curve is the isotonic
recalibration behind :func:`metrics.calibration_mcb`; the AUCs are the reports' ``roc_auc``
and ``pr_auc``). Needs matplotlib: ``pip install "chimeraboost[plot]"``.

Questions worth asking, and which function answers each:

- Where are the probabilities off, and is that more than chance?
  :func:`reliability_diagram` (CORP: isotonic recalibration against the diagonal, with a
  consistency band, MCB / DSC / UNC in the legend and the histogram of the forecasts
  beneath).
- How well does the model rank, against a coin? :func:`roc_curve` (the diagonal),
  :func:`pr_curve` (the base rate), each with its AUC.
- Does a model win by calibration or by discrimination? :func:`mcb_dsc_plot` (models as
  points in the (DSC, MCB) plane, with lines of equal Brier skill).
- Is acting on the model better than acting on everyone or no one, at which thresholds, and
  better than the baseline? :func:`decision_curve` (net benefit with bootstrap bands, paired
  bands against a baseline); the best cost for every ratio of costs: :func:`cost_curve`.
  Both draw results of :mod:`chimeraboost.decisions`.
- How sure is the ROC or PR curve? ``roc_curve(..., band=True)``, ``pr_curve(..., band=True)``
  (pointwise bootstrap bands, :func:`chimeraboost.decisions.curve_band`).
- Is the difference from the baseline larger than what matters? :func:`forest_plot` (paired
  differences with intervals, the region of practical equivalence shaded) for
  :attr:`Report.vs_baseline`, :func:`compare.compare_cv` and :func:`compare.holdout_table`.
- All of it for one model at once: :func:`plot_report`, also ``Report.plot()``.
- Who is the model good for? :func:`slice_plot` (each slice's skill with its interval, the
  value on all rows as a line), also ``SliceReport.plot()``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import numpy as np

from .. import metrics
from .._shared.validation import as_1d, check_classes, check_no_missing
from ._decisions import cost_curve, decision_curve, draw_band
from ._parts import beneath, diagram_axes, forecast_histogram, legend_number
from ._slices import slice_plot

__all__ = [
    "reliability_diagram",
    "roc_curve",
    "pr_curve",
    "mcb_dsc_plot",
    "forest_plot",
    "plot_report",
    "decision_curve",
    "cost_curve",
    "slice_plot",
]

_INSTALL = 'pip install "chimeraboost[plot]"'


def _pyplot(what: str):
    """matplotlib.pyplot, or one ImportError naming the extra to install."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        msg = f"{what} needs matplotlib, an optional dependency: {_INSTALL}."
        raise ImportError(msg) from exc
    return plt


def _axes(ax, what: str, figsize=(5.0, 5.0)):
    plt = _pyplot(what)
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _models(proba) -> dict:
    """One model's forecasts, or a dict name -> forecasts, as a dict."""
    if isinstance(proba, Mapping):
        if not proba:
            msg = "proba is an empty dict; pass {model name: predict_proba(X)}."
            raise ValueError(msg)
        return {str(name): p for name, p in proba.items()}
    return {"model": proba}


def _classes(y, classes):
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


def _both_classes(y, classes, what: str) -> None:
    """A ranking curve needs rows of both classes: one class is named, as ``y``'s."""
    y = as_1d(y, "y")
    if y.shape[0] == 0:
        msg = "y is empty; at least one row is needed."
        raise ValueError(msg)
    present = np.isin(classes, y)
    if not present.all():
        msg = (f"{what}: y holds only class {classes[present].tolist()} of "
               f"{classes.tolist()}; the curve needs rows of both classes (with one, its "
               "AUC is undefined).")
        raise ValueError(msg)


def _binary(classes, what: str) -> None:
    if classes.shape[0] != 2:
        msg = (f"{what} is drawn for binary problems; got {classes.shape[0]} classes. Pass the "
               "one-vs-rest problem: y == label and the probability of that label.")
        raise ValueError(msg)


def _label(name: str, numbers: str) -> str:
    """A legend entry; a long model name gets its own line so the legend stays narrow."""
    return f"{name}: {numbers}" if len(name) <= 24 else f"{name}:\n{numbers}"


def _positive_score(p) -> np.ndarray:
    """The score of classes[1]: a 1-D score as given, the second column of (n, 2)."""
    arr = np.asarray(p, dtype=np.float64)
    return arr[:, 1] if arr.ndim == 2 else arr


# --------------------------------------------------------------------------- reliability


def reliability_diagram(y, proba, *, classes=None, sample_weight=None, pos_label=None, ax=None,
                        n_boot=200, level=0.9, band="simultaneous", random_state=None,
                        histogram=True):
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
    n_boot : int, default=200
        Resamples for the consistency band, drawn when one curve is shown; 0 for no band.
        200 keeps a plot fast; use 1000 or more for a band to publish.
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
    models = _models(proba)
    classes = _classes(y, classes)
    if pos_label is not None:
        labels = [pos_label]
    elif classes.shape[0] == 2:
        labels = [classes[1]]
    else:
        labels = list(classes)
    ax, hist = diagram_axes(ax, histogram, _pyplot("reliability_diagram").subplots)
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
                random_state=random_state)
            k = int(np.flatnonzero(classes == curve.label)[0])
            text = name if len(labels) == 1 else f"{name}, class {label}"
            if len(models) == 1 and len(labels) == 1:
                text = f"{name} (class {label})"
            numbers = ", ".join(f"{key.upper()} {legend_number(dec[key][k])}"
                                for key in ("mcb", "dsc", "unc"))
            line, = ax.plot(curve.forecast, curve.recalibrated, lw=1.8,
                            label=_label(text, numbers))
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


# --------------------------------------------------------------------------- ranking curves


def _ranking(y, proba, classes, sample_weight, what):
    classes = _classes(y, classes)
    _binary(classes, what)
    _both_classes(y, classes, what)
    out = {}
    for name, p in _models(proba).items():
        score = _positive_score(p)
        numbers = metrics.ranking_report(y, score, classes, sample_weight=sample_weight)
        event = np.asarray(y) == classes[1]
        out[name] = (score, numbers, event)
    return classes, out


def roc_curve(y, proba, *, classes=None, sample_weight=None, ax=None, band=False, n_boot=200,
              random_state=None):
    """The ROC curve with the no-skill diagonal and the ROC-AUC in the legend.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n, 2) or (n,), or dict name -> such an array
        Probabilities or any score that ranks ``classes[1]`` first (``decision_function``).
    classes : array-like of shape (2,), default=None
        None: the sorted labels of ``y``.
    sample_weight : array-like of shape (n,), default=None
    ax : matplotlib Axes, default=None
    band : bool or float in (0, 1), default=False
        Shade a pointwise bootstrap band around each curve (True: 95%; a float: that level),
        from ``n_boot`` resamples of the rows seeded by ``random_state``
        (:func:`chimeraboost.decisions.curve_band`, vertical averaging).
    n_boot : int, default=200
    random_state : None, int or numpy Generator

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    The points are scikit-learn's ``roc_curve``; the AUC in the legend is
    :func:`metrics.ranking_report`'s ``roc_auc``, the number in every report.
    """
    from sklearn.metrics import roc_curve as sk_roc_curve

    classes, models = _ranking(y, proba, classes, sample_weight, "roc_curve")
    ax = _axes(ax, "roc_curve")
    ax.plot([0, 1], [0, 1], color="0.5", lw=1, ls="--", label="no skill (AUC 0.500)")
    for name, (score, numbers, event) in models.items():
        fpr, tpr, _ = sk_roc_curve(event, score, sample_weight=sample_weight)
        line, = ax.plot(fpr, tpr, lw=1.8,
                        label=_label(name, f"ROC-AUC {legend_number(numbers['roc_auc'])}"))
        draw_band(ax, line, band, "roc", event, score, sample_weight, n_boot, random_state)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate (recall)")
    ax.set_title(f"ROC curve (positive class {classes[1]})")
    ax.legend(loc="lower right", fontsize="small")
    return ax


def pr_curve(y, proba, *, classes=None, sample_weight=None, ax=None, band=False, n_boot=200,
             random_state=None):
    """The precision-recall curve with the no-skill line at the base rate, PR-AUC in the legend.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n, 2) or (n,), or dict name -> such an array
        Probabilities or any score that ranks ``classes[1]`` first.
    classes : array-like of shape (2,), default=None
        None: the sorted labels of ``y``.
    sample_weight : array-like of shape (n,), default=None
    ax : matplotlib Axes, default=None
    band : bool or float in (0, 1), default=False
        Shade a pointwise bootstrap band of precision at each recall (True: 95%; a float:
        that level), from ``n_boot`` resamples seeded by ``random_state``
        (:func:`chimeraboost.decisions.curve_band`).
    n_boot : int, default=200
    random_state : None, int or numpy Generator

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    The points are scikit-learn's ``precision_recall_curve`` drawn as steps (the area under
    the steps is the average precision); the legend's PR-AUC and the base rate are
    :func:`metrics.ranking_report`'s ``pr_auc`` and ``base_rate``.
    """
    from sklearn.metrics import precision_recall_curve

    classes, models = _ranking(y, proba, classes, sample_weight, "pr_curve")
    ax = _axes(ax, "pr_curve")
    rate = float(next(iter(models.values()))[1]["base_rate"])
    ax.plot([0, 1], [rate, rate], color="0.5", lw=1, ls="--",
            label=f"no skill (base rate {legend_number(rate)})")
    for name, (score, numbers, event) in models.items():
        precision, recall, _ = precision_recall_curve(event, score, sample_weight=sample_weight)
        line, = ax.plot(recall, precision, lw=1.8, drawstyle="steps-post",
                        label=_label(name, f"PR-AUC {legend_number(numbers['pr_auc'])}"))
        draw_band(ax, line, band, "pr", event, score, sample_weight, n_boot, random_state)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_box_aspect(1)  # square, as the ROC curve and the reliability diagram beside it
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.set_title(f"Precision-recall curve (positive class {classes[1]})")
    ax.legend(loc="lower left", fontsize="small")
    return ax


# --------------------------------------------------------------------------- many models


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
    ax = _axes(ax, "mcb_dsc_plot")
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


def _forest_rows(result, keys):
    """(rows {label: (difference, low, high)}, rope, margin, title) of any paired result."""
    if hasattr(result, "vs_baseline") and hasattr(result, "estimator_name"):
        if result.vs_baseline is None:
            msg = ("this Report has no vs_baseline: pass a fitted estimator as baseline= to "
                   "report() to get paired differences.")
            raise ValueError(msg)
        base = result.baseline_report.estimator_name if result.baseline_report else "baseline"
        vs = result.vs_baseline
        rows = dict(vs) if keys is None else {k: vs[k] for k in keys if k in vs}
        return rows, None, None, (f"{result.estimator_name} minus {base}\n(scores: right "
                                  "favours the model; losses: left)")
    if hasattr(result, "challengers") and hasattr(result, "rope"):
        rows = {n: (c.difference, c.ci.low, c.ci.high) for n, c in result.challengers.items()}
        return rows, result.rope, None, f"challenger minus {result.champion} ({result.scoring})"
    if hasattr(result, "rows") and hasattr(result, "min_lift"):
        rows = {n: (r["difference"], r["diff_low"], r["diff_high"])
                for n, r in result.rows.items() if n != result.baseline}
        return rows, None, result.min_lift, \
            f"model vs {result.baseline} ({result._primary_label}; positive favours the model)"
    if isinstance(result, Mapping):
        return {str(k): tuple(v) for k, v in result.items()}, None, None, "difference"
    msg = ("forest_plot takes a Report with vs_baseline, a compare_cv result, a holdout_table "
           f"or a dict name -> (difference, low, high); got {type(result).__name__}.")
    raise TypeError(msg)


def forest_plot(result, *, metrics=None, rope=None, ax=None):
    """Paired differences with their intervals, the region of practical equivalence shaded.

    Parameters
    ----------
    result : Report, ComparisonResult, HoldoutTable or dict
        ``Report.vs_baseline`` (one row per metric), :func:`compare.compare_cv` (one row per
        challenger, minus the champion), :func:`compare.holdout_table` (one row per model,
        the primary metric against the baseline row) or ``{label: (difference, low, high)}``.
    metrics : sequence of str, default=None
        For a Report: the metrics to show (None: all of ``vs_baseline``).
    rope : float, default=None
        Half-width of the region of practical equivalence to shade, ``[-rope, rope]``. None:
        the comparison's own ``rope`` (``compare_cv``), none otherwise. A holdout table's
        ``min_lift`` is drawn as a dotted line.
    ax : matplotlib Axes, default=None

    Returns
    -------
    matplotlib Axes
    """
    rows, own_rope, margin, title = _forest_rows(result, metrics)
    if not rows:
        msg = "nothing to draw: no differences in result (or none of metrics)."
        raise ValueError(msg)
    rope = own_rope if rope is None else rope
    ax = _axes(ax, "forest_plot", figsize=(6.5, 1.4 + 0.45 * len(rows)))
    labels = list(rows)
    ypos = np.arange(len(labels))[::-1]
    diff, low, high = (np.array(v, dtype=np.float64) for v in zip(*rows.values()))
    ax.axvline(0.0, color="0.3", lw=1)
    if rope:
        ax.axvspan(-rope, rope, color="tab:green", alpha=0.15, lw=0, label=f"ROPE ±{rope:g}")
    if margin:
        ax.axvline(margin, color="0.3", lw=1, ls=":", label=f"min_lift {margin:g}")
    err = np.vstack([diff - low, high - diff])
    ax.errorbar(diff, ypos, xerr=np.where(np.isnan(err), 0.0, err), fmt="o", color="tab:blue",
                capsize=3, label="difference and interval")
    ax.set_yticks(ypos)
    ax.set_yticklabels(labels)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.set_xlabel("paired difference")
    ax.set_title("\n".join(textwrap.fill(part, 64) for part in title.split("\n")),
                 fontsize="medium")
    ax.legend(loc="best", fontsize="small")
    return ax


# --------------------------------------------------------------------------- one report


def plot_report(report, *, n_boot=200, random_state=None):
    """One figure of a Report's rows: reliability, ROC and PR (binary), or predicted against
    observed and residuals (regression). Returns the list of Axes.

    Needs a Report made by :func:`chimeraboost.report` (or a model's ``.report``), which
    keeps the scored targets and predictions.
    """
    scored = getattr(report, "_scored", None)
    if scored is None:
        msg = ("this Report keeps no predictions to draw: plots need a Report from "
               "chimeraboost.report() or model.report() of a classifier with predict_proba "
               "or a regressor.")
        raise ValueError(msg)
    plt = _pyplot("Report.plot")
    if "proba" in scored:
        y, proba, classes, w = (scored[k] for k in ("y", "proba", "classes", "sample_weight"))
        models = {report.estimator_name: proba}
        binary = len(classes) == 2
        # Square panels of one size in one row, the forecasts' histogram in a short row
        # beneath the first: constrained layout gives the panels of a row the same margins
        # and every panel sits on the bottom of its cell, so the boxes line up.
        fig = plt.figure(figsize=(15, 6.4) if binary else (5.5, 6.6), layout="constrained")
        grid = fig.add_gridspec(2, 3 if binary else 1, height_ratios=[4, 1])
        axes = [fig.add_subplot(grid[0, j]) for j in range(3 if binary else 1)]
        for a in axes:
            a.set_box_aspect(1)
            a.set_anchor("S")
        diagram = beneath(axes[0], fig.add_subplot(grid[1, 0]))
        reliability_diagram(y, models, classes=classes, sample_weight=w, ax=diagram,
                            n_boot=n_boot, random_state=random_state)
        if binary:
            roc_curve(y, models, classes=classes, sample_weight=w, ax=axes[1])
            pr_curve(y, models, classes=classes, sample_weight=w, ax=axes[2])
        return axes
    from ._regression import predicted_vs_observed, residuals

    fig, axes = plt.subplots(1, 2, figsize=(10, 5), layout="constrained")
    predicted_vs_observed(scored["y"], scored["pred"], report["r2"], report.estimator_name,
                          ax=axes[0])
    residuals(scored["y"], scored["pred"], ax=axes[1])
    return list(axes)
