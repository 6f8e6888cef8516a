"""Is the challenger better lately? The paired form of skill over time.

Questions this module answers:

- *Which number is compared?* -> ``_check_metric``: the headline number of the kind of
  prediction (:data:`chimeraboost._shared.facts.HEADLINE`: the Brier skill of probabilities,
  r2 of a regressor) unless the caller names another that describes the model.
- *Per period, the model, the incumbent and their difference with its interval?* ->
  ``_paired_periods``: both are scored on the same resampled rows (or whole groups) of the
  period, one :class:`~chimeraboost.resampling.Resampler` per period (``subset`` of one scheme
  on all rows), and the difference ``model - baseline`` is read by its ``ci_method``
  (:class:`~chimeraboost.resampling.PairedBootstrapResult`).
- *Does the challenger win in the latest window, and in how many of the last K?* ->
  :class:`LatestWindowVerdict`, made by :meth:`SkillOverTime.verdict` from ``decisions``, the
  decision rule of
  :func:`chimeraboost.compare.compare_holdout` (Kruschke 2018): replace the champion if the
  interval of the difference lies above ``rope``, practically equivalent if it lies inside
  ``[-rope, rope]``, keep the champion otherwise.

Two identical prediction arrays give a difference of exactly 0 in every period, an interval
``[0, 0]`` and "practically equivalent" (the tie rule of :mod:`chimeraboost._shared.ties`):
never a win for either.

References
----------
.. [K18] Kruschke, J. K. (2018). Rejecting or accepting parameter values in Bayesian
   estimation. *Advances in Methods and Practices in Psychological Science* 1(2), 270-280.
   doi:10.1177/2515245918771304
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import metrics as _metrics
from .. import resampling as _resampling
from .._shared import facts as _facts
from .._shared.rules import KEEP, REPLACE, decide_interval
from .._shared.paired_periods import empty_comparison, read_period
from .._shared.ties import same_outputs
from ..exceptions import FewResamplesWarning

# The words of compare's rules, so that a period reads as compare_holdout reads.


def _check_metric(metric, task, ev, reference_from) -> str:
    """The compared metric: the headline of ``task`` by default; one the evaluator gives and
    that describes the model (not the rows) otherwise."""
    if metric is None:
        return _facts.HEADLINE[task]
    point = ev.evaluate(None, warn=False)
    allowed = sorted(k for k, v in point.items() if np.ndim(v) == 1 and k in _facts.FACTS
                     and not _facts.FACTS[k].about_the_rows)
    metric = _facts.parse_metric(metric, arg="metric", valid=allowed,
                                 why=" (numbers that describe the model, compared per period)",
                                 hint=f"None for {_facts.HEADLINE[task]!r}").key
    if task == "regression" and reference_from == "rolling" and metric in ("mse_skill",
                                                                           "mae_skill"):
        msg = (f"metric={metric!r} with reference_from='rolling' is not compared per period "
               "(its rolling reference is a constant forecast, not a period's rows); pass "
               "metric='r2', 'rmse' or 'mae', or reference_from='period'.")
        raise ValueError(msg)
    return metric


def _evaluators(task, data, rows, ref):
    """The model's and the incumbent's evaluators on one period's rows (the same targets,
    weights and reference)."""
    w = None if data["weight"] is None else data["weight"][rows]
    if task == "classification":
        return [_metrics.classification_evaluator(
            data["codes"][rows], np.arange(data["K"]), proba=p[rows], sample_weight=w,
            baseline=ref) for p in (data["proba"], data["baseline"])]
    return [_metrics.regression_evaluator(data["y"][rows], p[rows], sample_weight=w)
            for p in (data["pred"], data["baseline"])]


def _paired_periods(task, data, rows_of, refs, scheme, metric, level, labels) -> dict:
    """Per period: the model's and the incumbent's ``metric``, the difference ``model -
    baseline`` and its interval, both scored on the same resampled units of the period."""
    P = len(rows_of)
    out = empty_comparison(P, scheme.n_boot)
    # A rolling reference does not exist before the first period with history: a skill
    # against it is undefined there, a loss or a ranking is not.
    needs_ref = data["rolling"] and metric.endswith("_skill")
    key = "proba" if task == "classification" else "pred"
    narrow = {}
    for p, rows in enumerate(rows_of):
        if needs_ref and refs[p] is None:
            continue
        evs = _evaluators(task, data, rows, refs[p] if data["rolling"] else None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FewResamplesWarning)
            model, base = scheme.subset(rows).bootstrap(evs, metrics=[metric])
        paired = _resampling.PairedBootstrapResult(model, base)
        out["model"][p] = model.estimate.get(metric, np.nan)
        out["baseline"][p] = base.estimate.get(metric, np.nan)
        out["model_replicates"][p] = model.replicates[metric]
        out["baseline_replicates"][p] = base.replicates[metric]
        # The tie rule: the same forecasts are the same model, whatever rounding left.
        read_period(out, p, paired, metric, n_boot=scheme.n_boot,
                    tie=same_outputs(data[key][rows], data["baseline"][rows]), level=level,
                    minimum=_resampling.MIN_RESAMPLES_DECISION, label=labels[p],
                    narrow=narrow)
    _resampling.warn_narrow(narrow, level)
    return out


def decisions(metric, intervals, rope) -> list[tuple[str, str]]:
    """Each period's decision and its reason, the interval turned around for a loss."""
    lo, hi = intervals[:, 0], intervals[:, 1]
    if _facts.is_loss(metric):
        lo, hi = -hi, -lo
    return [decide_interval(float(a), float(b), rope) for a, b in zip(lo, hi)]


class LatestWindowVerdict:
    """Whether the challenger wins in the latest window, and in how many of the last ``last``.

    Made by :meth:`SkillOverTime.verdict`, whose docstring gives the rule.

    Attributes
    ----------
    metric : str
    rope : float
    level : float
    last : int
        How many of the latest periods were asked about.
    periods : list of str
        The labels of the latest periods looked at (at most ``last``; periods without rows
        are not windows and are skipped).
    decisions : list of str
        Each of those periods' decision: ``"replace champion"``, ``"practically
        equivalent"`` or ``"keep champion"``.
    decision, reason : str
        The latest period's decision and why.
    wins : int
        Periods among ``periods`` in which the challenger wins (``"replace champion"``).
    better_lately : bool
        The challenger wins in the latest window.
    """

    def __init__(self, *, metric, rope, level, last, periods, decisions, reasons):
        self.metric, self.rope, self.level, self.last = metric, rope, level, last
        self.periods, self.decisions = list(periods), list(decisions)
        self.decision = self.decisions[-1] if self.decisions else KEEP
        self.reason = reasons[-1] if reasons else "no period with rows"
        self.wins = sum(d == REPLACE for d in self.decisions)
        self.better_lately = self.decision == REPLACE

    def lines(self) -> list[str]:
        if not self.periods:
            return ["Latest window: no period with rows."]
        k = len(self.periods)
        shown = ", ".join(self.periods)
        return [f"Latest window {self.periods[-1]}: {self.decision} ({self.reason}, "
                f"rope {self.rope:g}).",
                f"The challenger won {self.wins} of the last {k} window{'s' if k > 1 else ''}"
                f" ({shown})."]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        return (f"<LatestWindowVerdict {self.metric}: {self.decision!r} in "
                f"{self.periods[-1] if self.periods else 'n/a'}, won {self.wins} of the last "
                f"{len(self.periods)}>")

    def to_dict(self) -> dict:
        """The verdict as plain Python values (JSON-ready)."""
        return {"metric": self.metric, "rope": self.rope, "level": self.level,
                "last": self.last, "periods": self.periods, "decisions": self.decisions,
                "decision": self.decision, "reason": self.reason, "wins": self.wins,
                "better_lately": self.better_lately}
