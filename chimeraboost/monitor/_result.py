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

from .._shared.api import public
from .._shared.format import WIDTH, Col, fitted_table, fmt, fmt_p, percent, rates
from .._shared.html import html_block, html_paragraphs, html_table
from .._shared.validation import import_pandas
from ..resampling import CI_METHOD_LABELS

# The skills of each task, headline first: ``SkillOverTime.skill`` and the table's skill
# column read the first, the intervals cover both.
_SKILLS = {"classification": ("log_loss_skill", "brier_skill"),
           "regression": ("mse_skill", "mae_skill")}


def _label(ts) -> str:
    """A period label for humans: ``2024-01-01``, or with the time when it is not midnight."""
    return ts.strftime("%Y-%m-%d") if ts == ts.normalize() else str(ts)


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
    """

    def __init__(self, *, task, periods, freq, baseline, window, classes, values, ci_level,
                 intervals, n_boot, ci_method="percentile"):
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

    @public(legacy=("width",))
    def to_text(self, *, width=WIDTH) -> str:
        """One line per period, fitting ``width`` characters (120 by default): columns that
        do not fit are left out from the right, and the text says so. ``width=None``: every
        column."""
        titles, body = self._cells()
        skill = "1 - log loss / reference" if self.task == "classification" else (
            "1 - MSE / reference MSE (r2: the reference is the period's own mean)"
            if self.baseline == "period" else "1 - MSE / reference MSE")
        rows, _, left = fitted_table(titles, body, width, text_below=False)
        lines = [self.header(), "", *rows, ""]
        if left:
            lines.append(f"Left out to fit {width} characters: {', '.join(left)} "
                         "(to_text(width=None) shows every column).")
        lines.append(f"skill: {skill}.")
        if np.isnan(self.skill).any():
            lines.append("n/a: undefined (a single class or a constant y in the period, or no "
                         "rows before it for a rolling reference).")
        if self.intervals is not None:
            lines.append(f"low, high: {percent(self.ci_level)} bootstrap interval of the skill "
                         f"({CI_METHOD_LABELS[self.ci_method]}; {self.n_boot:,} resamples of "
                         "each period's rows).")
        if "calibration_excess" in self.values:
            lines.append("excess: the period's population MCB, estimated as MCB minus its "
                         "simulated inflation, with the calibration test's interval and "
                         "p-value (H0: calibrated).")
        return "\n".join(lines)

    def __repr__(self) -> str:
        key = _SKILLS[self.task][0]
        first, last = (fmt(self.skill[i], 3) for i in (0, -1)) if len(self.periods) else \
            ("n/a", "n/a")
        return (f"<SkillOverTime {self.task}: {len(self.periods)} periods, {key} {first} -> "
                f"{last}, baseline={self.baseline!r}>")

    def _repr_html_(self) -> str:
        """Jupyter: the header as a heading, one table row per period (numbers
        right-aligned, the interval's ends in columns of their own), the notes below."""
        notes = self.to_text(width=None).split("\n\n")[-1].splitlines()  # under the table
        return html_block(f"<h4>{html.escape(self.header())}</h4>", html_table(*self._cells()),
                          html_paragraphs(notes))

    def to_frame(self):
        """One row per period (index ``period``): ``rows`` and every number of
        :attr:`values` (a multiclass rate gets one column per class, ``base_rate[label]``),
        and with ``ci`` the ends ``<skill>_low``, ``<skill>_high``. Needs pandas."""
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
