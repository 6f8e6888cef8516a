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
- Did the model get worse over time, or did the base rate move? :func:`skill_over_time_plot`
  (loss against its reference, skill with its interval, base rate; one panel each), also
  ``SkillOverTime.plot()``.
- Over many data sets, which models cannot be told apart? :func:`critical_difference_diagram`
  (average ranks with the Nemenyi critical difference), also ``DatasetComparison.plot()``.

Where each picture is drawn (private modules; import from here): ``_calibration`` (reliability
diagram, the (DSC, MCB) plane), ``_ranking`` (ROC and PR curves), ``_decisions`` (decision and
cost curves, the bands of the ranking curves), ``_forest`` (paired differences),
``_report_figure`` (a Report's figure, with ``_regression`` for a regressor's panels),
``_slices``, ``_over_time``, ``_critical_difference``; ``_parts`` holds what several share
(matplotlib on demand, legends, the forecasts' histogram). The result objects' ``.plot()``
methods import this package only when called, so the packages that compute stay free of
matplotlib.
"""

from __future__ import annotations

from ._calibration import mcb_dsc_plot, reliability_diagram
from ._critical_difference import critical_difference_diagram
from ._decisions import cost_curve, decision_curve
from ._forest import forest_plot
from ._over_time import skill_over_time_plot
from ._ranking import pr_curve, roc_curve
from ._report_figure import plot_report
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
    "skill_over_time_plot",
    "critical_difference_diagram",
]
