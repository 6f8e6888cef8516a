"""Pictures of decisions: the decision curve, the cost curve, and bootstrap bands around the
ROC and PR curves. Everything drawn is computed by :mod:`chimeraboost.decisions`."""

from __future__ import annotations

import warnings

import numpy as np

from .._shared.api import public
from .. import decisions
from ..exceptions import FewResamplesWarning
from ._parts import new_axes

__all__ = ["cost_curve", "decision_curve", "draw_band"]

def _band_level(band) -> float | None:
    if band is False or band is None:
        return None
    if band is True:
        return 0.95
    if isinstance(band, (float, np.floating)) and 0 < band < 1:
        return float(band)
    msg = f"band must be True, False or a level in (0, 1), got {band!r}."
    raise ValueError(msg)


def draw_band(ax, line, band, curve, event, score, sample_weight, n_boot, random_state, *,
              groups=None, time=None):
    """Shade the pointwise bootstrap band of a ROC or PR curve, in the colour of ``line``
    (resampling ``groups`` or blocks of ``time`` when given)."""
    level = _band_level(band)
    if level is None:
        return
    b = decisions.curve_band(event, score, curve=curve, sample_weight=sample_weight,
                             n_boot=n_boot, level=level, random_state=random_state,
                             groups=groups, time=time)
    step = "post" if curve == "pr" else None
    ax.fill_between(b.x, b.low, b.high, color=line.get_color(), alpha=0.2, lw=0, step=step,
                    label=f"{level:.0%} bootstrap band ({n_boot} resamples)")


@public(renamed={"baseline": "baseline_name"})
def decision_curve(y, proba=None, *, thresholds=None, baseline_name=None, pos_label=None,
                   sample_weight=None, n_boot=200, level=0.95, random_state=None, ax=None,
                   differences=False, groups=None, time=None):
    """The decision curve: net benefit against the threshold probability, every model with
    treat-all and treat-none, bands from the bootstrap.

    Parameters
    ----------
    y : array-like of shape (n,), or a DecisionCurve
        True labels; or a :class:`chimeraboost.decisions.DecisionCurve` already computed
        (then the other data arguments are not used).
    proba : array-like of shape (n,), or dict name -> such an array
        Probabilities of the positive class (or 0/1 rules), one per model.
    thresholds : array-like of float in (0, 1), default=None
        None: 99 between the 1st and 99th percentiles of the scores.
    baseline_name : str, default=None
        The model the others are judged against: a model name or ``"treat all"``; with
        ``differences=True`` the panel shows every model minus the baseline with its paired
        band instead of the curves. Formerly ``baseline=``.
    pos_label, sample_weight
        As in :func:`chimeraboost.decisions.decision_curve`.
    n_boot : int, default=200
        Resamples for the bands (0: none); use 2000 for a figure to publish.
    level : float in (0, 1), default=0.95
    random_state : None, int or numpy Generator
    ax : matplotlib Axes, default=None
    differences : bool, default=False
    groups, time : array-like of shape (n,), default=None
        The bands' resampling units, as in :func:`chimeraboost.decisions.decision_curve`:
        whole groups, or blocks of time-ordered rows.

    Returns
    -------
    matplotlib Axes
    """
    if isinstance(y, decisions.DecisionCurve):
        dc = y
    else:
        with warnings.catch_warnings():
            # A picture's band from a few hundred resamples is the documented default.
            warnings.simplefilter("ignore", FewResamplesWarning)
            dc = decisions.decision_curve(
                y, proba, thresholds=thresholds, baseline_name=baseline_name, pos_label=pos_label,
                sample_weight=sample_weight, n_boot=n_boot, level=level,
                random_state=random_state, groups=groups, time=time)
    if differences and dc.baseline is None:
        msg = "differences=True needs baseline_name= (a model name or 'treat all')."
        raise ValueError(msg)
    ax = new_axes(ax, "decision_curve", figsize=(6.0, 4.5))
    t = dc.thresholds
    if differences:
        ax.axhline(0.0, color="0.3", lw=1, label=f"{dc.baseline} (0)")
        for name, d in dc.difference.items():
            line, = ax.plot(t, d, lw=1.8, label=f"{name} minus {dc.baseline}")
            if name in dc.diff_low:
                ax.fill_between(t, dc.diff_low[name], dc.diff_high[name], alpha=0.2, lw=0,
                                color=line.get_color())
        ax.set_ylabel("difference in net benefit (paired)")
    else:
        ax.plot(t, dc.treat_none, color="0.3", lw=1, label="treat none")
        for name, nb in dc.net_benefit.items():
            style = {"color": "0.5", "ls": "--", "lw": 1} if name == "treat all" else {"lw": 1.8}
            line, = ax.plot(t, nb, label=name, **style)
            if dc.low is not None and name in dc.low:
                ax.fill_between(t, dc.low[name], dc.high[name], alpha=0.15, lw=0,
                                color=line.get_color())
        models = [v for k, v in dc.net_benefit.items() if k != "treat all"]
        top = max(float(np.nanmax(np.concatenate(models))), dc.prevalence * 0.1)
        ax.set_ylim(-0.25 * top, 1.15 * top)
        ax.set_ylabel("net benefit")
    band = f"; shaded: {dc.level:.0%} bootstrap bands ({dc.n_boot} resamples)" \
        if dc.n_boot else ""
    ax.set_xlabel("threshold probability")
    ax.set_title(f"Decision curve (prevalence {dc.prevalence:.3f})" + band.replace("; ", "\n"),
                 fontsize="medium")
    ax.legend(loc="best", fontsize="small")
    return ax


def cost_curve(y, proba, *, pos_label=None, sample_weight=None, ax=None):
    """The cost curve (Drummond & Holte 2006): normalized expected cost of the best cutoff
    against the probability cost, for every model, with the trivial classifiers.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n,), or dict name -> such an array
        Any score that ranks the positives first.
    pos_label, sample_weight
        As in :func:`chimeraboost.decisions.cost_curve`.
    ax : matplotlib Axes, default=None

    Returns
    -------
    matplotlib Axes
    """
    models = proba if isinstance(proba, dict) else {"model": proba}
    ax = new_axes(ax, "cost_curve", figsize=(6.0, 4.5))
    first = None
    for name, p in models.items():
        c = decisions.cost_curve(y, p, pos_label=pos_label, sample_weight=sample_weight)
        first = first or c
        area = float(np.sum((c.cost[1:] + c.cost[:-1]) / 2 * np.diff(c.pc)))
        ax.plot(c.pc, c.cost, lw=1.8, label=f"{name} (area {area:.3f})")
    ax.plot(first.pc, first.trivial, color="0.5", ls="--", lw=1,
            label="treat all / treat none")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 0.55)
    ax.set_xlabel("probability cost of the positive class, PC(+)")
    ax.set_ylabel("normalized expected cost")
    ax.set_title("Cost curve (lower is better)", fontsize="medium")
    ax.legend(loc="upper right", fontsize="small")
    return ax
