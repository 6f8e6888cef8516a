"""All of one report at once: :func:`plot_report` (``Report.plot()``) lays out the reliability
diagram, ROC and PR curves of a classifier, or predicted against observed and the residuals of
a regressor, from the targets and predictions the Report keeps."""

from __future__ import annotations

from ._calibration import reliability_diagram
from ._parts import beneath, pyplot
from ._ranking import pr_curve, roc_curve

__all__ = ["plot_report"]


def plot_report(report, *, n_boot=1000, random_state=None):
    """One figure of a Report's rows: reliability, ROC and PR (binary), or predicted against
    observed and residuals (regression). Returns the list of Axes.

    Needs a Report made by :func:`chimeraboost.report` (or a model's ``.report``), which
    keeps the scored targets and predictions, and the resampling units of a report made with
    ``groups=`` or ``time=``: the reliability band resamples those units too.
    """
    scored = getattr(report, "_scored", None)
    if scored is None:
        msg = ("this Report keeps no predictions to draw: plots need a Report from "
               "chimeraboost.report() or model.report() of a classifier with predict_proba "
               "or a regressor.")
        raise ValueError(msg)
    plt = pyplot("Report.plot")
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
        units = getattr(report, "_units", {})
        reliability_diagram(y, models, classes=classes, sample_weight=w, ax=diagram,
                            n_boot=n_boot, random_state=random_state, **units)
        if binary:
            roc_curve(y, models, classes=classes, sample_weight=w, ax=axes[1], **units)
            pr_curve(y, models, classes=classes, sample_weight=w, ax=axes[2], **units)
        return axes
    from ._regression import predicted_vs_observed, residuals

    fig, axes = plt.subplots(1, 2, figsize=(10, 5), layout="constrained")
    predicted_vs_observed(scored["y"], scored["pred"], report["r2"], report.estimator_name,
                          ax=axes[0])
    residuals(scored["y"], scored["pred"], ax=axes[1])
    return list(axes)
