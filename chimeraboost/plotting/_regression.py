"""The two pictures of a regressor in ``Report.plot()``: predicted against observed, and the
residuals against the prediction. Drawing only; the R² shown is the report's."""

from __future__ import annotations

import numpy as np

from ._parts import legend_number


def predicted_vs_observed(y, pred, r2, name, *, ax):
    """Observed against predicted, with the identity line; the legend carries ``r2``."""
    y, pred = np.asarray(y, dtype=np.float64), np.asarray(pred, dtype=np.float64)
    lo, hi = float(min(y.min(), pred.min())), float(max(y.max(), pred.max()))
    ax.plot([lo, hi], [lo, hi], color="0.5", lw=1, ls="--", label="observed = predicted")
    ax.scatter(pred, y, s=8, alpha=0.5, label=f"{name}: R² {legend_number(r2)}")
    ax.set_xlabel("predicted")
    ax.set_ylabel("observed")
    ax.set_title("Predicted vs observed")
    ax.legend(loc="upper left", fontsize="small")
    return ax


def residuals(y, pred, *, ax):
    """Residuals ``observed - predicted`` against the prediction, with the zero line."""
    y, pred = np.asarray(y, dtype=np.float64), np.asarray(pred, dtype=np.float64)
    ax.axhline(0.0, color="0.5", lw=1, ls="--")
    ax.scatter(pred, y - pred, s=8, alpha=0.5)
    ax.set_xlabel("predicted")
    ax.set_ylabel("residual (observed - predicted)")
    ax.set_title("Residuals")
    return ax
