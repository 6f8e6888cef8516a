"""Which models cannot be told apart over many data sets? :func:`critical_difference_diagram`
draws the average ranks of a :class:`chimeraboost.compare.DatasetComparison` with the
Nemenyi critical difference (also ``result.plot()``). Drawing only; every number is the
result's.

References
----------
.. [D06] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
   *Journal of Machine Learning Research* 7, 1-30.
"""

from __future__ import annotations

from ._parts import pyplot

__all__ = ["critical_difference_diagram"]


def critical_difference_diagram(result, *, ax=None):
    """The critical-difference diagram of Demšar (2006, Fig. 1).

    The axis carries the average ranks (1, the best, on the left); each model's name hangs
    from its average rank; a thick bar joins each group of models not distinguishable by
    Nemenyi, and a bar of length ``CD`` sits above the axis. The title names the number of
    models and data sets and the level.

    Parameters
    ----------
    result : DatasetComparison
        From :func:`chimeraboost.compare.compare_datasets`.
    ax : matplotlib Axes, default=None
        None: a new figure sized to the number of models.

    Returns
    -------
    matplotlib Axes
    """
    plt = pyplot("critical_difference_diagram (DatasetComparison.plot)")
    k = len(result.models)
    avg = result.average_ranks
    order = sorted(result.models, key=lambda m: avg[m])
    half = (k + 1) // 2
    groups = [g for g in result.groups if len(g) > 1]
    # In axis units (one unit a row of text), from the top: the CD bar, the axis label,
    # the rank numbers, the axis (y = 0), one thick bar per group, then a row per model
    # name hanging from its rank. The limits hug these rows.
    first = -(0.6 + 0.15 * len(groups))
    bottom, top = first - (half - 1) - 0.35, 2.2
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 0.6 + 0.3 * (top - bottom)), layout="constrained")
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(bottom, top)
    ax.axis("off")
    ax.plot([1, k], [0, 0], color="black", lw=1)
    for r in range(1, k + 1):
        ax.plot([r, r], [0, 0.15], color="black", lw=1)
        ax.text(r, 0.2, str(r), ha="center", va="bottom", fontsize=9)
    ax.text((1 + k) / 2, 0.8, "average rank (1 = best)", ha="center", va="bottom",
            fontsize=9)
    cd = result.critical_difference
    ax.plot([1, 1 + cd], [1.55, 1.55], color="black", lw=2)
    ax.text(1 + cd / 2, 1.65, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9)
    for i, m in enumerate(order):  # the better half to the left, the rest to the right
        left = i < half
        y = first - (i if left else k - 1 - i)
        x_end = 0.6 if left else k + 0.4
        ax.plot([avg[m], avg[m], x_end], [0, y, y], color="black", lw=0.8)
        # The name beyond the end of its line, clear of every other line.
        ax.text(x_end - 0.05 if left else x_end + 0.05, y, f"{m} ({avg[m]:.2f})",
                ha="right" if left else "left", va="center", fontsize=9)
    for g, group in enumerate(groups):
        lo, hi = avg[group[0]], avg[group[-1]]
        y = -0.3 - 0.15 * g
        ax.plot([lo - 0.03, hi + 0.03], [y, y], color="black", lw=3)
    ax.set_title(f"Critical difference diagram: {k} models on {result.n_datasets} data sets "
                 f"(Nemenyi, alpha {result.alpha:g})", fontsize=10)
    return ax
