"""What did the bootstrap find, and what are its intervals?

- Every metric of one model, with its intervals? :class:`BootstrapResult` (the replicates,
  the grouped jackknife, and intervals by any of the methods of ``_intervals``).
- The paired differences of two models on the same resampled rows? :class:`PairedBootstrapResult`.

These hold numbers only; the resampling that fills them is in ``_bootstrap``.
"""

from __future__ import annotations

import numpy as np

from .._shared.api import public
from ..exceptions import NarrowIntervalWarning
from ..exceptions import warn as _warn
from ._discordant import Widened, discordance, discordant_units
from ._engine import design_effect
from ._intervals import (
    DEFAULT_CI_METHOD,
    ConfidenceInterval,
    bootstrap_interval,
    check_ci_method,
    effective_df,
    narrow_interval_reason,
    percentile_interval,
)

__all__ = ["MIN_GROUPS", "BootstrapResult", "ConfidenceInterval", "PairedBootstrapResult",
           "few_groups_reason", "percentile_interval", "warn_narrow"]


class BootstrapResult:
    """Point estimates, bootstrap replicates and jackknife of every metric of one model.

    Attributes
    ----------
    estimate : dict
        Metric -> value on the rows as given (the point estimate).
    replicates : dict
        Metric -> array of shape (n_boot,).
    n_boot : int
    jackknife : dict or None
        Metric -> array of shape (n_blocks,): the metric with each block of rows left out
        (:func:`~chimeraboost.resampling.jackknife_weights`); what BCa's acceleration and the
        expanded intervals' degrees of freedom are read from.
    n_rows : int or None
        Units the jackknife blocks were made of: rows of positive weight, or with
        ``groups=`` / ``time=`` the groups or time blocks (what the expanded intervals'
        degrees of freedom count).
    events : float or None
        Classification: rows of the rarest class present (with weights, Kish's effective
        number ``(sum w)^2 / sum w^2``).
    skewness : float or None
        Regression: the sample skewness of the errors ``y - pred`` (see
        :func:`skewed_errors_reason`).
    ci_method : str
        The method :meth:`interval` uses by default; ``"percentile"`` when there is no
        jackknife.
    units : {"rows", "groups", "time"}
        What a replicate drew.
    rows : int or None
        Rows of positive weight.
    row_jackknife : dict or None
        With ``units`` other than rows: the metrics with blocks of single rows left out, for
        :meth:`design_effect`.
    terms : dict
        Metric -> a function giving what the model does with each row at a threshold (a
        ``Terms`` of :mod:`chimeraboost._shared.results`), for the numbers of a decision:
        what a paired difference counts the units that decide differently from
        (:meth:`PairedBootstrapResult.discordance`).
    unit_index : ndarray or None
        The resampled unit of each row when discordant units are counted (None: rows).
    """

    def __init__(self, estimate: dict, replicates: dict, n_boot: int, *, jackknife=None,
                 n_rows=None, events=None, ci_method=None, units="rows", rows=None,
                 row_jackknife=None, terms=None, unit_index=None, skewness=None):
        self.estimate, self.replicates, self.n_boot = estimate, replicates, n_boot
        self.jackknife, self.n_rows, self.events = jackknife, n_rows, events
        self.skewness = skewness
        self.units, self.row_jackknife = units, row_jackknife
        self.terms = {} if terms is None else dict(terms)
        self.unit_index = unit_index
        self.rows = n_rows if rows is None else rows
        if ci_method is None:
            ci_method = DEFAULT_CI_METHOD if jackknife is not None else "percentile"
        self.ci_method = check_ci_method(ci_method)

    @public(legacy=("level", "method"))
    def interval(self, metric, *, level=0.95, method=None, warn=True) -> ConfidenceInterval:
        """Interval of ``metric`` (NaN replicates ignored), by ``method`` (default
        :attr:`ci_method`); it always holds the estimate. A
        :class:`~chimeraboost.exceptions.NarrowIntervalWarning` says when it is likely too
        narrow whatever the method (``warn=False``: silently; see :meth:`narrow`)."""
        return self.intervals(level=level, method=method, metrics=[metric], warn=warn)[metric]

    @public(legacy=("level", "method"))
    def intervals(self, *, level=0.95, method=None, metrics=None, warn=True) -> dict:
        """Metric -> :class:`ConfidenceInterval` for every metric (or those of ``metrics``),
        with one :class:`~chimeraboost.exceptions.NarrowIntervalWarning` naming the
        metrics whose intervals are likely too narrow (none with ``warn=False``)."""
        method = self.ci_method if method is None else check_ci_method(method, name="method")
        keys = list(self.replicates) if metrics is None else list(metrics)
        out = {}
        for key in keys:
            reps = self._get(key)
            if method != "percentile" and self.jackknife is None:
                msg = (f"method={method!r} needs the jackknife, which this result does not "
                       "hold; use method='percentile' or resampling.bootstrap.")
                raise ValueError(msg)
            jack = None if self.jackknife is None else self.jackknife.get(key)
            estimate = self.estimate.get(key, np.nan)
            # A number added to the replicates afterwards, without a jackknife of its own (a
            # basic-bootstrap reflection, say), keeps the percentile interval.
            ci = bootstrap_interval(reps, estimate, level=level,
                                    method=method if jack is not None else "percentile",
                                    jackknife=jack, n_rows=self.n_rows, events=self.events,
                                    discordant=self.discordant_units(key))
            out[key] = self._widen(key, ci, level)
        if warn:
            warn_narrow(self.narrow(metrics=keys, level=level), level)
        return out

    def _widen(self, key, ci, level) -> ConfidenceInterval:
        """The interval as read off the replicates (a paired difference widens some)."""
        return ci

    def discordant_units(self, metric) -> int | None:
        """For a paired difference of a decision at a threshold, the units the two models
        decide differently on (what its interval is read with); None here."""
        return None

    @public(legacy=("metrics",))
    def narrow(self, *, metrics=None, level=0.95) -> dict:
        """Metric -> why its interval is likely too narrow whatever the method (or, for a
        paired difference of a decision resting on few units, why it was widened), for the
        metrics (default all) where that is so: what the
        :class:`~chimeraboost.exceptions.NarrowIntervalWarning` says."""
        out = {}
        for key in (list(self.replicates) if metrics is None else list(metrics)):
            reason = self._narrow(key, self.estimate.get(key, np.nan), level)
            if reason is not None:
                out[key] = reason
        return out

    def effective_df(self, metric) -> float:
        """Degrees of freedom of ``metric``'s interval (what the expanded methods use);
        NaN without a jackknife. See :func:`~chimeraboost.resampling.effective_df`."""
        jack = None if self.jackknife is None else self.jackknife.get(metric)
        if jack is None:
            return np.nan
        return effective_df(jack, self.n_rows or len(jack), events=self.events,
                            discordant=self.discordant_units(metric))

    def design_effect(self, metric) -> float:
        """The variance of ``metric`` when whole units (groups, time blocks) are resampled
        over its variance if the rows were independent, from the two jackknifes (NaN with
        independent rows: 1 by definition, and not computed). ``rows / design_effect`` is
        the effective number of independent rows."""
        if self.row_jackknife is None or self.jackknife is None:
            return np.nan
        return design_effect(self.jackknife.get(metric, []), self.row_jackknife.get(metric, []))

    def _narrow(self, key, estimate, level=0.95):
        if np.isnan(estimate) or np.all(np.isnan(self._get(key))):
            return None
        reason = narrow_interval_reason(self.events)
        if reason is None and self.units == "groups":
            reason = few_groups_reason(self.n_rows)
        if reason is None and key in SQUARED_ERROR_KEYS:
            reason = skewed_errors_reason(self.skewness)
        return reason

    def n_dropped(self, metric) -> int:
        """How many replicates gave NaN for ``metric`` (e.g. resamples with one class)."""
        return int(np.isnan(self._get(metric)).sum())

    def _get(self, metric):
        if metric not in self.replicates:
            msg = f"metric {metric!r} was not resampled; available: {sorted(self.replicates)}."
            raise KeyError(msg)
        return self.replicates[metric]

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(n_boot={self.n_boot}, ci_method={self.ci_method!r}, "
                f"metrics={sorted(self.replicates)})")


# Below this many groups, resampling whole groups gives intervals that miss more often than
# their level says (Cameron, Gelbach & Miller 2008): measured in
# benchmarks/coverage_dependence.py, where the boundary is printed.
MIN_GROUPS = 30


def few_groups_reason(n_groups) -> str | None:
    """Why an interval from ``n_groups`` resampled groups is likely too narrow, or None."""
    if n_groups is None or n_groups >= MIN_GROUPS:
        return None
    return (f"only {n_groups} groups were resampled: with fewer than {MIN_GROUPS} groups a "
            "bootstrap of whole groups sees too few of them to know their spread, and its "
            "intervals miss more often than their level says")


# The numbers that are means of squared errors (or ratios of them). With skewed errors the
# squares' mean rests on the few largest errors, which a sample often lacks: in
# benchmarks/coverage.py (200 rows, errors exp(Z) - E exp(Z)) the default interval of the RMSE
# covered 86-88% at a 95% level, every miss below the truth, and no method covered 91%; with
# symmetric errors, even Student-t(5) ones, it covered 94%. The sample skewness of the errors
# separates the two: at least SKEWED_ERRORS (in absolute value) in 96% of the lognormal data
# sets, in 3% of the t(5) ones.
SQUARED_ERROR_KEYS = ("mse", "rmse", "r2", "mse_skill")
SKEWED_ERRORS = 2.0


def skewed_errors_reason(skewness) -> str | None:
    """Why the interval of a mean of squared errors is likely too narrow, or None: the
    errors' sample skewness ``g1 = m3 / m2^(3/2)`` (Joanes & Gill 1998,
    doi:10.1111/1467-9884.00122) is at least :data:`SKEWED_ERRORS` in absolute value."""
    if skewness is None or not np.isfinite(skewness) or abs(skewness) < SKEWED_ERRORS:
        return None
    return (f"the errors y - pred are skewed (sample skewness {skewness:+.1f}): the mean of "
            "their squares rests on a few large errors, which samples of this size often "
            "miss, and its intervals fall short of the truth more often than their level "
            "says, whatever the method")


def warn_narrow(reasons: dict, level) -> None:
    """One :class:`NarrowIntervalWarning` per reason, naming its metrics."""
    by_reason = {}
    for key, reason in reasons.items():
        by_reason.setdefault(reason, []).append(key)
    for reason, keys in by_reason.items():
        shown = ", ".join(keys[:6]) + (f" and {len(keys) - 6} more" if len(keys) > 6 else "")
        if isinstance(reason, Widened):
            _warn(f"The {level:.0%} interval(s) of {shown} were widened: {reason}. Read it "
                  "as no clear difference.", NarrowIntervalWarning)
            continue
        _warn(f"The {level:.0%} interval(s) of {shown} are likely too narrow: {reason}. "
              "Read them as a lower bound on the uncertainty.", NarrowIntervalWarning)


class PairedBootstrapResult(BootstrapResult):
    """Paired differences ``model - baseline`` of every metric, both scored on the same
    resampled rows (and the same jackknife blocks).

    Attributes
    ----------
    model, baseline : BootstrapResult
        Each model's own estimates and replicates (same counts).
    estimate, replicates, jackknife : dict
        Metric -> difference ``model - baseline`` on the rows as given / per replicate / per
        jackknife block.
    """

    def __init__(self, model: BootstrapResult, baseline: BootstrapResult):
        self.model, self.baseline = model, baseline
        keys = [key for key in model.replicates if key in baseline.replicates]
        estimate = {key: model.estimate.get(key, np.nan) - baseline.estimate.get(key, np.nan)
                    for key in keys}
        reps = {key: model.replicates[key] - baseline.replicates[key] for key in keys}
        jack = None
        if model.jackknife is not None and baseline.jackknife is not None:
            jack = {key: model.jackknife[key] - baseline.jackknife[key] for key in keys
                    if key in model.jackknife and key in baseline.jackknife}
        row_jack = None
        if model.row_jackknife is not None and baseline.row_jackknife is not None:
            row_jack = {key: model.row_jackknife[key] - baseline.row_jackknife[key]
                        for key in keys
                        if key in model.row_jackknife and key in baseline.row_jackknife}
        skews = [v for v in (model.skewness, baseline.skewness) if v is not None]
        super().__init__(estimate, reps, model.n_boot, jackknife=jack, n_rows=model.n_rows,
                         events=model.events,
                         skewness=max(skews, key=abs) if skews else None,
                         ci_method=model.ci_method if jack is not None else None,
                         units=model.units, rows=model.rows, row_jackknife=row_jack,
                         unit_index=model.unit_index)
        self._discordant, self._units = {}, {}

    def _terms(self, metric):
        """Both models' ``Terms`` of ``metric`` (a number of a decision), or None."""
        own, other = self.model.terms.get(metric), self.baseline.terms.get(metric)
        if own is None or other is None:
            return None
        a, b = own(), other()
        return None if a is None or b is None else (a, b)

    def discordant_units(self, metric) -> int | None:
        """For a number of a decision at a threshold: how many resampled units the two
        models decide differently on (rows, groups or time blocks); None when the two
        models are one or ``metric`` is not such a number. From
        :data:`~chimeraboost.resampling.MIN_DISCORDANT` on, the expanded intervals of the
        difference are read symmetrically with at most that many minus one degrees of
        freedom (:func:`~chimeraboost.resampling.bootstrap_interval`, ``discordant=``)."""
        if metric not in self._units:
            terms = self._terms(metric)
            self._units[metric] = None if terms is None else \
                discordant_units(*terms, self.unit_index)
        return self._units[metric]

    def discordance(self, metric, *, level=0.95):
        """For a number of a decision at a threshold: how many resampled units the two
        models decide differently on, and the bound the interval is widened to when they
        are fewer than :data:`~chimeraboost.resampling.MIN_DISCORDANT`
        (:mod:`chimeraboost.resampling._discordant`); None otherwise (enough units, equal
        outputs, or not a decision)."""
        cached = (metric, float(level))
        if cached not in self._discordant:
            terms, found = self._terms(metric), None
            if terms is not None:
                unit = {"groups": "groups", "time": "time blocks"}.get(self.units, "rows")
                found = discordance(*terms, self.unit_index, level, unit)
            self._discordant[cached] = found
        return self._discordant[cached]

    def _widen(self, key, ci, level) -> ConfidenceInterval:
        found = self.discordance(key, level=level)
        return ci if found is None else ConfidenceInterval(*found.widen(*ci))

    def _narrow(self, key, estimate, level=0.95):
        found = None if np.isnan(estimate) else self.discordance(key, level=level)
        if found is not None:
            return found.reason()
        return super()._narrow(key, estimate, level)

    @public(legacy=("level", "method"))
    def difference(self, metric, *, level=0.95, method=None) -> tuple[float, float, float]:
        """``(model - baseline, low, high)`` for ``metric``."""
        lo, hi = self.interval(metric, level=level, method=method)
        return (float(self.estimate[metric]), lo, hi)
