"""What every layer of chimeraboost shares, private to the package.

- ``validation`` (with ``array_checks``, ``proba_checks``, ``param_checks``, ``estimator_checks``
  and ``quantile_checks``): every check of an argument, imported from one place, each error
  naming the argument, what was wrong and what was expected.
- ``facts``: the one table of facts about every number (loss or score, about the rows or the
  model, its label).
- ``weights``: the ``(B, n)`` weight vectors every layer resamples with (a bootstrap replicate
  is one more weight vector), the workspace for their buffers, shares, weighted quantiles. The
  metric engine built on them (sort once, ranking statistics, the isotonic fit behind MCB, the
  CORP decomposition) is private to ``metrics``, in ``chimeraboost.metrics._kernels``.
- ``scores``: the proper scores' per-row losses, no-skill references and skills from sums,
  shared by the metrics' evaluators and the layers that sum rows their own way (slices).
- ``estimator_outputs``: the one place that calls a fitted model's ``predict_proba`` /
  ``decision_function`` / ``predict`` (for the report and the weak-slice search), its task
  and its name.
- ``ci_methods``: the names of the interval methods and the default one (no import: the
  command line reads them before it loads anything heavy).
- ``draws``: how many outcome draws the calibration test takes beside ``n_boot`` resamples.
- ``format``: numbers, tables and HTML as the reports print them.
- ``progress``: the progress line of long runs.
- ``sklearn_scoring``: the one place that touches scikit-learn's private scorer machinery.
- ``api``: how every public function takes its arguments (the data by position, the rest by
  keyword), with old spellings and positional calls kept for one release with a warning.

Modules of the public packages import from here and from each other's public names only.
"""
