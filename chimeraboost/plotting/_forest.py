"""Is a paired difference larger than what matters? :func:`forest_plot` draws the differences
with their intervals for :attr:`Report.vs_baseline`, :func:`chimeraboost.compare.compare_cv`
and :func:`chimeraboost.compare.holdout_table`, the region of practical equivalence shaded.
Drawing only; every number is the result's."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import numpy as np

from ._parts import new_axes

__all__ = ["forest_plot"]


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
    ax = new_axes(ax, "forest_plot", figsize=(6.5, 1.4 + 0.45 * len(rows)))
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
