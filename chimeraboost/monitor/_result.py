"""How skill over time is shown: the :class:`SkillOverTime` result object.

Questions this module answers:

- *Which skill is the headline?* -> ``_SKILLS`` (log loss skill, or the MSE skill for a
  regressor) and
  the properties ``skill``, ``loss``, ``reference_loss``.
- *What does each period look like as a table?* -> ``str(result)`` (text), ``_repr_html_``
  (Jupyter), ``to_frame()`` (pandas); ``_label`` names a period for humans.
- *And as a picture?* -> ``plot()``, drawn by :mod:`chimeraboost.plotting` (matplotlib
  imported only then).

Nothing here computes a number: :func:`chimeraboost.monitor.skill_over_time` hands them over.
"""

from __future__ import annotations

import html

import numpy as np

from .._shared import facts as _facts
from .._shared.api import public
from .._shared.format import WIDTH, Col, fitted_table, fmt, fmt_p, percent, rates, wrap
from .._shared.html import html_block, html_paragraphs, html_table
from .._shared.validation import check_positive_int, check_real, import_pandas
from ..resampling import CI_METHOD_LABELS
from ._paired import LatestWindowVerdict, decisions

# The skills of each task, headline first: ``SkillOverTime.skill`` and the table's skill
# column read the first, the intervals cover both.
_SKILLS = {"classification": ("log_loss_skill", "brier_skill"),
           "regression": ("mse_skill", "mae_skill")}


def _label(ts) -> str:
    """A period label for humans: ``2024-01-01``, or with the time when it is not midnight."""
    return ts.strftime("%Y-%m-%d") if ts == ts.normalize() else str(ts)


def _periods_listed(labels) -> str:
    shown = [_label(t) for t in labels[:6]]
    more = len(labels) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def comparison_lines(result, verdict, width) -> list[str]:
    """The paired form in text: one line per period (the model's and the incumbent's metric,
    the difference with its interval, the period's decision), then the verdict."""
    c = result.comparison
    made = decisions(c["metric"], c["interval"], c["rope"])
    name = _facts.fact(c["metric"]).label
    titles = [Col("period", None), Col("rows"), Col("model", 4), Col("baseline", 4),
              Col("difference", 4, signed=True), Col("low", 4, signed=True),
              Col("high", 4, signed=True), Col("decision", None)]
    body = [[_label(t), int(result.rows[p]), c["model"][p], c["baseline"][p],
             c["difference"][p], *c["interval"][p], made[p][0]]
            for p, t in enumerate(result.periods)]
    rows, below, left = fitted_table(titles, body, width)
    units = "rows" if result.units == "rows" else "whole groups"
    method = CI_METHOD_LABELS[result.ci_method]
    lines = [f"Against the baseline: {name} ({c['metric']}) per period, model - baseline", "",
             *rows, *below, ""]
    if left:
        lines.append(f"Left out to fit {width} characters: {', '.join(left)}.")
    turned = " (lower is better: the interval is turned around)" if _facts.is_loss(
        c["metric"]) else ""
    notes = [f"low, high: {percent(c['level'])} interval of model - baseline ({method}; the "
             f"same {result.n_boot:,} resamples of each period's {units} score both).",
             f"decision: replace champion if low > rope ({c['rope']:g}); practically "
             f"equivalent if inside [-rope, rope]; else keep champion{turned}."]
    notes += verdict.lines()
    return lines + [piece for line in notes for piece in wrap(line, width)]


class SkillOverTime:
    """Skill per period: the result of :func:`skill_over_time`.

    Attributes
    ----------
    task : {"classification", "regression"}
    periods : pandas.DatetimeIndex
        The label of each period (pandas' bin label: the month start for ``"MS"``).
    freq, baseline, window : as passed
    classes : ndarray or None
    rows : ndarray of int
        Rows per period.
    values : dict of ndarray
        One entry per period under the keys of :func:`chimeraboost.metrics.classification_report`
        (``base_rate``, ``log_loss``, ``log_loss_ref``, ``log_loss_skill``, ``brier``,
        ``brier_ref``, ``brier_skill``, ``calibration_mcb``; with ``baseline="rolling"`` also
        ``reference_prior``) or ``regression_report`` (``mean_y``, ``baseline_mean``,
        ``baseline_median``, ``rmse``, ``rmse_ref``, ``mse_skill`` (the skill against the
        reference mean), ``r2`` (scikit-learn's, against the period's own mean: equal to
        ``mse_skill`` with ``baseline="period"``), ``mae``, ``mae_ref``, ``mae_skill``).
        Each is also an attribute (``result.log_loss_skill``).
    ci_level : float or None
    intervals : dict or None
        Skill key -> array of shape (P, 2): the low and high ends per period.
    ci_method : str
        How the intervals were read off each period's resamples.
    units : {"rows", "groups"}
        What each period's resamples drew: its rows, or (``groups=``) its whole groups.
    empty_periods : pandas.DatetimeIndex
        The calendar periods between the first and the last row without rows (or whose rows
        all weigh 0): a gap in the data, left out of the table and listed here.
    comparison : dict or None
        With ``baseline=`` (the incumbent's predictions): ``metric``, ``level``, ``rope``,
        ``last`` and per period ``model``, ``baseline`` (the incumbent's ``metric``),
        ``difference`` (``model - baseline``), ``interval`` (P, 2), ``defined`` (the
        resamples on which the difference is defined), and ``model_replicates`` /
        ``baseline_replicates`` (P, n_boot): each model's ``metric`` on the same resamples
        of the period (their difference is what the interval is read from). :meth:`verdict`
        reads them.
    """

    def __init__(self, *, task, periods, freq, baseline, window, classes, values, ci_level,
                 intervals, n_boot, ci_method="percentile", comparison=None,
                 empty_periods=None, units="rows"):
        self.comparison, self.units = comparison, units
        self.empty_periods = periods[:0] if empty_periods is None else empty_periods
        self.task, self.periods, self.freq = task, periods, freq
        self.baseline, self.window, self.classes = baseline, window, classes
        self.values, self.ci_level, self.intervals = values, ci_level, intervals
        self.ci_method = ci_method
        self.n_boot = n_boot
        self.rows = values["rows"]

    def __getattr__(self, name):
        values = self.__dict__.get("values", {})
        if name in values:
            return values[name]
        msg = f"{type(self).__name__!r} object has no attribute {name!r}"
        raise AttributeError(msg)

    @property
    def skill(self) -> np.ndarray:
        """The headline skill per period: ``log_loss_skill``, or ``mse_skill`` for a
        regressor (``1 - MSE / reference MSE``; r2 when each period's own mean is the
        reference)."""
        return self.values[_SKILLS[self.task][0]]

    @property
    def loss(self) -> np.ndarray:
        """The headline loss per period: log loss, or RMSE for a regressor."""
        return self.values["log_loss" if self.task == "classification" else "rmse"]

    @property
    def reference_loss(self) -> np.ndarray:
        """The no-skill forecast's loss per period (the skill's denominator)."""
        return self.values["log_loss_ref" if self.task == "classification" else "rmse_ref"]

    def reference(self) -> str:
        """What each period is judged against, in words."""
        what = "class prior" if self.task == "classification" else "mean (median)"
        if self.baseline == "period":
            return f"each period's own {what}"
        span = "all preceding periods" if self.window is None else (
            f"the {self.window} preceding period{'s' if self.window > 1 else ''}")
        return f"the {what} of {span} (rolling)"

    def header(self) -> str:
        return (f"Skill over time ({self.task}): {len(self.periods)} periods of freq "
                f"{self.freq!r}, {int(self.rows.sum()):,} rows · judged against: "
                f"{self.reference()}")

    def _rate_cells(self, p):
        rate = self.values["base_rate"] if self.task == "classification" else \
            self.values["mean_y"]
        return rates(rate[p], self.classes) if np.ndim(rate) == 2 else rate[p]

    def _cells(self):
        v, cls = self.values, self.task == "classification"
        multi = cls and np.ndim(v["base_rate"]) == 2
        key = _SKILLS[self.task][0]
        rate = Col("class rates", None) if multi else (
            Col("base rate", 3) if cls else Col("mean y"))
        titles = [Col("period", None), Col("rows"), rate]
        if cls:
            titles += [Col("log loss"), Col("reference"), Col("skill", 3)]
        else:
            titles += [Col("RMSE"), Col("reference"),
                       Col("skill (r2)" if self.baseline == "period" else "skill", 3)]
        if self.intervals is not None:
            titles += [Col("low", 3), Col("high", 3)]
        titles += [Col("Brier skill", 3), Col("MCB")] if cls else [Col("MAE skill", 3)]
        tested = cls and "calibration_excess" in v
        if tested:
            titles += [Col("excess", signed=True), Col("low"), Col("high"), Col("p", None)]
        body = []
        for p, ts in enumerate(self.periods):
            row = [_label(ts), int(self.rows[p]), self._rate_cells(p), self.loss[p],
                   self.reference_loss[p], v[key][p]]
            if self.intervals is not None:
                row += list(self.intervals[key][p])
            row += [v["brier_skill"][p], v["calibration_mcb"][p]] if cls else [v["mae_skill"][p]]
            if tested:
                row += [v["calibration_excess"][p], *self.intervals["calibration_excess"][p],
                        fmt_p(v["calibration_pvalue"][p])]
            body.append(row)
        return titles, body

    def __str__(self) -> str:
        return self.to_text()

    def _notes(self, width) -> list[str]:
        """The lines under the main table."""
        skill = "1 - log loss / reference" if self.task == "classification" else (
            "1 - MSE / reference MSE (r2: the reference is the period's own mean)"
            if self.baseline == "period" else "1 - MSE / reference MSE")
        lines = [f"skill: {skill}."]
        if np.isnan(self.skill).any():
            lines.append("n/a: undefined (a single class or a constant y in the period, or no "
                         "rows before it for a rolling reference).")
        if self.intervals is not None:
            lines.append(f"low, high: {percent(self.ci_level)} bootstrap interval of the skill "
                         f"({CI_METHOD_LABELS[self.ci_method]}; {self.n_boot:,} resamples of "
                         f"each period's {self.units}).")
        if "calibration_excess" in self.values:
            lines.append("excess: the period's population MCB, estimated as MCB minus its "
                         "simulated inflation, with the calibration test's interval and "
                         "p-value (H0: calibrated).")
        if len(self.empty_periods):
            lines.append(f"No rows in {_periods_listed(self.empty_periods)}: left out.")
        return [piece for line in lines for piece in wrap(line, width)]

    @public(legacy=("width",))
    def to_text(self, *, width=WIDTH) -> str:
        """One line per period, fitting ``width`` characters (120 by default): columns that
        do not fit are left out from the right, and the text says so. ``width=None``: every
        column. With ``baseline=``, the comparison per period and the verdict follow."""
        titles, body = self._cells()
        rows, _, left = fitted_table(titles, body, width, text_below=False)
        lines = [self.header(), "", *rows, ""]
        if left:
            lines.append(f"Left out to fit {width} characters: {', '.join(left)} "
                         "(to_text(width=None) shows every column).")
        lines += self._notes(width)
        if self.comparison is not None:
            lines += ["", *comparison_lines(self, self.verdict(), width)]
        return "\n".join(lines)

    @public(legacy=("rope", "last"))
    def verdict(self, *, rope=None, last=None) -> LatestWindowVerdict:
        """Does the challenger (the model) beat the incumbent (``baseline=``) in the latest
        window, and in how many of the last ``last``?

        Each period is decided by the rule of :func:`chimeraboost.compare.compare_holdout`
        on the interval ``[low, high]`` of ``model - baseline`` (turned around for a loss,
        so that positive favours the model): **replace champion** if ``low > rope``,
        **practically equivalent** if ``[low, high]`` lies inside ``[-rope, rope]``, **keep
        champion** otherwise. A model that wins on random cross-validation but not in the
        latest windows has not been shown to be better *lately*.

        Parameters
        ----------
        rope : float >= 0, default=None
            The region of practical equivalence; None: the ``rope`` of the call.
        last : int, default=None
            How many of the latest periods with rows to count wins in; None: the ``last``
            of the call.

        Returns
        -------
        LatestWindowVerdict
        """
        if self.comparison is None:
            msg = ("verdict() needs the incumbent: call skill_over_time(..., baseline=<the "
                   "incumbent's predictions on the same rows>).")
            raise ValueError(msg)
        c = self.comparison
        rope = c["rope"] if rope is None else check_real(rope, "rope", strictly_positive=False)
        last = c["last"] if last is None else check_positive_int(last, "last")
        made = decisions(c["metric"], c["interval"][-last:], rope)
        return LatestWindowVerdict(
            metric=c["metric"], rope=rope, level=c["level"], last=last,
            periods=[_label(t) for t in self.periods[-last:]],
            decisions=[d for d, _ in made], reasons=[r for _, r in made])

    def __repr__(self) -> str:
        key = _SKILLS[self.task][0]
        first, last = (fmt(self.skill[i], 3) for i in (0, -1)) if len(self.periods) else \
            ("n/a", "n/a")
        return (f"<SkillOverTime {self.task}: {len(self.periods)} periods, {key} {first} -> "
                f"{last}, baseline={self.baseline!r}>")

    def _repr_html_(self) -> str:
        """Jupyter: the header as a heading, one table row per period (numbers
        right-aligned, the interval's ends in columns of their own), the notes below."""
        parts = [f"<h4>{html.escape(self.header())}</h4>", html_table(*self._cells()),
                 html_paragraphs(self._notes(None))]
        if self.comparison is not None:
            text = comparison_lines(self, self.verdict(), None)
            parts.append(html_paragraphs([line for line in text if line]))
        return html_block(*parts)

    def to_dict(self) -> dict:
        """Every number as plain Python values (JSON-ready): ``periods`` (labels),
        ``empty_periods``, ``values`` (key -> list per period), ``intervals`` (key -> list of
        ``[low, high]``), and with ``baseline=`` the ``comparison`` (without the
        replicates) and the ``verdict``."""
        def plain(v):
            return np.asarray(v, dtype=np.float64).tolist()

        out = {"task": self.task, "freq": str(self.freq), "reference_from": self.baseline,
               "window": self.window, "units": self.units,
               "classes": None if self.classes is None else np.asarray(self.classes).tolist(),
               "periods": [_label(t) for t in self.periods],
               "empty_periods": [_label(t) for t in self.empty_periods],
               "values": {k: plain(v) for k, v in self.values.items()},
               "ci_level": self.ci_level, "ci_method": self.ci_method, "n_boot": self.n_boot,
               "intervals": None if self.intervals is None else
               {k: plain(v) for k, v in self.intervals.items()}}
        if self.comparison is not None:
            c = self.comparison
            out["comparison"] = {k: (plain(v) if isinstance(v, np.ndarray) else v)
                                 for k, v in c.items() if not k.endswith("_replicates")}
            out["comparison"]["decision"] = [d for d, _ in decisions(c["metric"], c["interval"],
                                                                     c["rope"])]
            out["verdict"] = self.verdict().to_dict()
        return out

    def to_frame(self):
        """One row per period (index ``period``): ``rows`` and every number of
        :attr:`values` (a multiclass rate gets one column per class, ``base_rate[label]``),
        and with ``ci`` the ends ``<skill>_low``, ``<skill>_high``; with ``baseline=`` also
        ``model_<metric>``, ``baseline_<metric>``, ``difference`` (model - baseline),
        ``difference_low``, ``difference_high`` and each period's ``decision``. Needs
        pandas."""
        pd = import_pandas("SkillOverTime.to_frame")
        cols = {"rows": self.rows}
        for key, v in self.values.items():
            if key == "rows":
                continue
            if np.ndim(v) == 2:
                for j, label in enumerate(self.classes):
                    cols[f"{key}[{label}]"] = v[:, j]
            else:
                cols[key] = v
        for key, iv in (self.intervals or {}).items():
            cols[f"{key}_low"], cols[f"{key}_high"] = iv[:, 0], iv[:, 1]
        if self.comparison is not None:
            c = self.comparison
            cols[f"model_{c['metric']}"] = c["model"]
            cols[f"baseline_{c['metric']}"] = c["baseline"]
            cols["difference"] = c["difference"]
            cols["difference_low"], cols["difference_high"] = c["interval"].T
            cols["decision"] = [d for d, _ in decisions(c["metric"], c["interval"], c["rope"])]
        return pd.DataFrame(cols, index=pd.Index(self.periods, name="period"))

    @public(legacy=("ax",))
    def plot(self, *, ax=None):
        """Loss with its reference, skill, and base rate: one reading per panel, stacked on
        one time axis.

        Parameters
        ----------
        ax : None, a matplotlib Axes, or a pair or three of Axes
            ``None`` makes a figure of three panels: the loss against its no-skill reference
            (the skill is their gap relative to the reference), the skill with its interval,
            and the base rate (the mean of ``y``, for a regressor) that moves the reference.
            Three Axes get these three; a pair gets the loss and the skill; a single Axes gets
            the skill alone.

        Returns
        -------
        Axes or ndarray of Axes
            The Axes drawn on, in the order above. Drawn by
            :func:`chimeraboost.plotting.skill_over_time_plot`; needs matplotlib
            (``pip install "chimeraboost[plot]"``).
        """
        from ..plotting import skill_over_time_plot

        return skill_over_time_plot(self, ax=ax)
