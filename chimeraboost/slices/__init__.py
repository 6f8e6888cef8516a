"""Who is the model good for? The report per slice, each against its own base rate.

A model with skill 0.4 overall can have none at all for new customers; and when the base rate
differs by region, the regions' raw losses are not comparable -- a region with a 5% base rate
has a lower log loss than one at 30% whatever the model does. So each slice here gets what
the whole report gets: its rows and base rate, its loss, the loss of the no-skill forecast at
*its own* base rate and the skill against it, with intervals, and then the question that
matters -- does this slice differ from the rest of the data? -- answered with an allowance for
the number of slices looked at. Questions worth asking, and which function answers each:

- How good is the model in each region, age band, segment? :func:`slice_report` on arrays,
  or ``chimeraboost.report(model, X, y, by="region")`` on a fitted model: per slice rows,
  events, base rate, loss, its own reference and skill, the skill against the reference of
  all rows and ROC-AUC, each with its bootstrap interval, and MCB with the calibration test
  of the slice's rows (the population MCB's estimate, its interval and a p-value).
- Which slices are worse (or better) than the rest, once the number of slices is allowed for?
  The verdict column: slice minus rest on ``metric``, tested and adjusted over the slices
  (Holm by default, Benjamini-Hochberg with ``adjust="bh"``). Slices too small to say are
  shown but not tested, with the reason.
- The new model is better overall -- but is it worse for some segment? ``baseline=``: per
  slice the paired difference model minus baseline, with its verdict.
- Where is the model weak, without knowing where to look? :func:`find_weak_slices`: the
  conjunctions of one or two conditions on the columns whose skill is lowest, searched on
  one half of the rows and reported with numbers from the other half.
- How does it look? :meth:`SliceReport.plot`: each slice's skill with its interval, the
  value on all rows as a line (:func:`chimeraboost.plotting.slice_plot`).

How it is computed: one evaluator of :mod:`chimeraboost.metrics` per slice, on the slice's
rows, so every per-slice number is exactly what ``chimeraboost.metrics`` gives on them. The
rows are put in slice order once; one set of bootstrap resamples of all rows serves every
slice (a slice's part of the counts is a contiguous block). The rest of the data is never
evaluated row by row: its log loss, Brier, accuracy and r2 come from the sums over all rows
minus the slice's. MCB is not resampled (its in-sample value is biased upward, and an
isotonic fit per resample and slice would cost more than everything else):
:func:`chimeraboost.metrics.calibration_test` on each slice's rows gives its interval.

Where each piece lives (private modules; import from here): ``_groups`` reads ``by`` /
``groups`` into slices; ``_inputs`` validates the model's output; ``_compute`` computes the
numbers, their resamples and the tests; ``_slice_report`` holds :func:`slice_report`;
``_search`` holds :func:`find_weak_slices`; ``_result`` is the :class:`SliceReport` they
return.

References
----------
.. [H79] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
   *Scandinavian Journal of Statistics* 6(2), 65-70.
.. [BH95] Benjamini, Y. and Hochberg, Y. (1995). Controlling the false discovery rate: a
   practical and powerful approach to multiple testing. *JRSS B* 57(1), 289-300.
   doi:10.1111/j.2517-6161.1995.tb02031.x
.. [ET93] Efron, B. and Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*.
   Chapman & Hall. doi:10.1201/9780429246593
"""

from __future__ import annotations

from ._result import SliceReport
from ._slice_report import slice_report
from ._search import find_weak_slices

__all__ = ["SliceReport", "find_weak_slices", "slice_report"]
