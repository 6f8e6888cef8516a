"""All the numbers about a quantile forecast, on one page.

Re-exported by :mod:`chimeraboost.quantile_metrics`: :func:`quantile_report` (a dict: pinball
loss per level, the mean pinball loss with its reference and skill, the central intervals, the
crossing rate and the MAE of the median) and :func:`format_report` (its text tables).
"""

from __future__ import annotations

from .._shared.api import public
from .._shared.format import Col, fmt, table
from ._diagnostics import _intervals
from ._evaluator import quantile_evaluator


@public(legacy=("sample_weight", "baseline"))
def quantile_report(y, pred, quantiles, *, sample_weight=None, baseline=None) -> dict:
    """Every number about a quantile forecast, with the reference it is judged against.

    Parameters
    ----------
    y, pred, quantiles, sample_weight, baseline
        As in :func:`crps_skill`.

    Returns
    -------
    dict
        With keys

        - ``"n"`` (int): number of rows scored (zero-weight rows included);
        - ``"quantiles"`` (list of float): the levels;
        - ``"pinball"`` (list of float): pinball loss per level, aligned with ``quantiles``;
        - ``"crps"`` (float): mean pinball loss over the levels (:func:`crps`; half the
          textbook CRPS on a fine even grid);
        - ``"baseline"`` (str): ``"y"`` (quantiles of the scored targets) or ``"given"``;
        - ``"reference_quantiles"`` (list of float): the constant no-skill forecast;
        - ``"crps_ref"`` (float): mean pinball loss of that constant forecast;
        - ``"crps_skill"`` (float): ``1 - crps / crps_ref`` (:func:`crps_skill`);
        - ``"intervals"`` (list of dict): :func:`interval_coverage`;
        - ``"crossing_rate"`` (float): :func:`crossing_rate`;
        - ``"mae_median"`` (float or None): weighted mean absolute error of the 0.5-level
          prediction (twice its pinball loss), None when 0.5 is not a level.

    Examples
    --------
    >>> from chimeraboost.quantile_metrics import quantile_report
    >>> rep = quantile_report([1.0, 2.0, 3.0, 4.0], [[0.5, 1.5], [1.5, 2.5], [2.5, 3.5],
    ...                       [3.5, 4.5]], [0.25, 0.75])
    >>> sorted(rep)[:4]
    ['baseline', 'crossing_rate', 'crps', 'crps_ref']
    """
    ev = quantile_evaluator(y, pred, quantiles, sample_weight=sample_weight, baseline=baseline)
    out = ev.evaluate()
    point = {key: v[0] for key, v in out.items()}
    return {
        "n": ev.n,
        "quantiles": ev.levels.tolist(),
        "pinball": point["pinball"].tolist(),
        "crps": float(point["crps"]),
        "baseline": "y" if baseline is None else "given",
        "reference_quantiles": point["reference_quantiles"].tolist(),
        "crps_ref": float(point["crps_ref"]),
        "crps_skill": float(point["crps_skill"]),
        "intervals": _intervals(ev, out),
        "crossing_rate": float(point["crossing_rate"]),
        "mae_median": None if ev.median is None else float(point["mae_median"]),
    }


@public(legacy=("title",))
def format_report(report, *, title=None) -> str:
    """Text tables of a :func:`quantile_report` dict; losses positive, skill last.

    Parameters
    ----------
    report : dict
        Output of :func:`quantile_report`.
    title : str, default=None
        First line; "Quantile forecast" when None.

    Returns
    -------
    str
        The headline (mean pinball loss, reference, skill), then tables of the pinball loss per
        level, the central intervals and a summary. Numbers as everywhere in chimeraboost:
        four decimals while they fit, significant digits otherwise, ``n/a`` for NaN; columns
        separated by at least two spaces.

    Examples
    --------
    >>> y = [1.0, 2.0, 3.0, 4.0, 10.0]
    >>> pred = [[0.5, 1.0, 2.0], [1.0, 2.0, 3.5], [2.0, 3.0, 4.0], [2.5, 4.0, 6.0], [4.0, 8.0, 9.0]]
    >>> print(format_report(quantile_report(y, pred, [0.1, 0.5, 0.9])))
    Quantile forecast
    mean pinball 0.2300 | reference 0.6667 (quantiles of y) | skill 0.655
    <BLANKLINE>
      level  pinball
      0.1     0.2000
      0.5     0.2000
      0.9     0.2900
    <BLANKLINE>
      interval  nominal  coverage   width  int. score
      0.1-0.9    0.8000    0.8000  2.9000      4.9000
    <BLANKLINE>
      summary                     value
      rows                            5
      crossing rate              0.0000
      MAE of the median          0.4000
      mean pinball (CRPS / 2)    0.2300
      reference: quantiles of y  0.6667
      CRPS skill                 0.6550
    """
    needed = ("baseline", "crps", "crps_ref", "crps_skill", "quantiles", "pinball", "n")
    if not hasattr(report, "keys") or any(key not in report for key in needed):
        got = sorted(report) if hasattr(report, "keys") else type(report).__name__
        msg = f"report must be a dict from quantile_report (keys {list(needed)}), got {got}."
        raise TypeError(msg)
    ref_from = "quantiles of y" if report["baseline"] == "y" else "quantiles of baseline"
    # The proper score first, with its reference and skill, as every chimeraboost report; all
    # numbers through the one formatter (fixed decimals, significant digits when they do not
    # fit), NaN as "n/a".
    headline = (
        f"mean pinball {fmt(report['crps'])} | reference {fmt(report['crps_ref'])} "
        f"({ref_from}) | skill {fmt(report['crps_skill'], 3)}"
    )
    lines = [title or "Quantile forecast", headline, ""]
    levels = [[f"{tau:g}", loss] for tau, loss in zip(report["quantiles"], report["pinball"])]
    lines += table([Col("level", None), Col("pinball")], levels)
    if report["intervals"]:
        lines += ["", *table(
            [Col("interval", None), Col("nominal"), Col("coverage"), Col("width"),
             Col("int. score")],
            [[f"{r['lower_level']:g}-{r['upper_level']:g}", r["nominal"], r["coverage"],
              r["mean_width"], r["interval_score"]] for r in report["intervals"]],
        )]
    summary = [["rows", int(report["n"])], ["crossing rate", report["crossing_rate"]]]
    if report.get("mae_median") is not None:
        summary.append(["MAE of the median", report["mae_median"]])
    summary += [["mean pinball (CRPS / 2)", report["crps"]],
                ["reference: " + ref_from, report["crps_ref"]],
                ["CRPS skill", report["crps_skill"]]]
    lines += ["", *table([Col("summary", None), Col("value")], summary)]
    return "\n".join(lines)
