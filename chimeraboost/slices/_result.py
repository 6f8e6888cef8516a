"""How the report per slice is shown: the :class:`SliceReport` result object.

Questions this module answers:

- *What does each slice look like?* -> the first table (``_numbers_table``): rows, base
  rate, loss, its reference and skill with its interval, the skill against the reference of
  all rows, MCB and ROC-AUC (a regression: mean, RMSE, r2, MAE skill).
- *Which slices differ from the rest, and from the baseline?* -> ``_rest_table`` and
  ``_baseline_table``: difference, interval, p-values before and after the adjustment for
  the number of slices, verdict.
- *In which form?* -> ``str(result)`` (text), :meth:`SliceReport.to_markdown`,
  ``_repr_html_`` (Jupyter), :meth:`SliceReport.to_frame` (pandas),
  :meth:`SliceReport.plot` (drawn by :mod:`chimeraboost.plotting`).

Nothing here computes a number: :func:`chimeraboost.slices.slice_report` hands them over.
"""

from __future__ import annotations

import html

import numpy as np

from .._shared.api import public
from .._shared.facts import fact
from .._shared.format import (
    EMPTY,
    Col,
    count,
    fmt,
    fmt_p,
    fitted_lines,
    header_lines,
    markdown_table,
    percent,
    rates,
    table,
    wrap,
)
from .._shared.html import html_block, html_paragraphs, html_table
from .._shared.validation import import_pandas, plain

# The loss and reference columns that go with each metric, and the label of each key.
_LOSS = {"brier_skill": "brier", "log_loss_skill": "log_loss", "r2": "rmse"}
_ADJUSTED = {"holm": "Holm", "bh": "BH"}


def _count(k: int, what: str) -> str:
    return f"{k} {what}{'' if k == 1 else 's'}"


def _stack(values: list) -> dict:
    """A list of per-slice dicts -> key -> (S,) arrays ((S, K) for class rates)."""
    keys = []
    for v in values:
        keys += [k for k in v if k not in keys]
    out = {}
    for key in keys:
        cells = [v.get(key) for v in values]
        shape = next((np.shape(c) for c in cells if c is not None), ())
        out[key] = np.array([np.full(shape, np.nan) if c is None else c for c in cells],
                            dtype=np.float64)
    return out


class SliceReport:
    """The numbers of a model per slice: the result of :func:`slice_report`,
    :func:`find_weak_slices` and ``report(..., by=...)``.

    Attributes
    ----------
    labels : list of str
        The slices, in order (``region = north``, ``age in [31, 45)``, ``age missing``).
    by : str
        What the rows were sliced on.
    notes : list of str
        How numeric columns were cut (their quantile edges).
    task : {"classification", "ranking", "rule", "regression"}
    classes : ndarray or None
    n : ndarray of int
        Rows per slice.
    values : dict of ndarray
        Key -> one value per slice, under the keys of
        :func:`chimeraboost.metrics.classification_report` (``base_rate``, ``positives``,
        ``log_loss``, ``log_loss_ref``, ``log_loss_skill``, ``brier``, ..., ``calibration_mcb``,
        ``roc_auc``, ``accuracy``, ...) or ``regression_report`` (``mean_y``, ``rmse``,
        ``r2``, ``mae_skill``, ...), each computed on the slice's rows against its own
        reference; plus ``log_loss_skill_vs_all``, ``brier_skill_vs_all`` (``r2_vs_all``):
        the skills against the reference of all rows. A multiclass ``base_rate`` is (S, K).
    intervals : dict of ndarray
        Key -> (S, 2) percentile bootstrap intervals at ``ci_level``.
    overall : dict
        ``values``: every number on all rows; ``intervals``: those of the sums over rows.
    metric : str
        The number compared with the rest of the data and with the baseline.
    rest, difference : ndarray
        Per slice: ``metric`` on the rows outside the slice, and slice minus rest.
    diff_interval : ndarray of shape (S, 2)
    se, pvalue, pvalue_adjusted : ndarray
        The bootstrap standard error of the difference, the two-sided p-value (NaN for a slice
        not tested) and the p-value adjusted over the tested slices (``adjust``).
    verdict : list of str
        "worse than the rest", "no detectable difference", "better than the rest", or "not
        tested: <why>".
    vs_baseline : dict or None
        With a baseline: ``baseline`` (its ``metric`` per slice), ``difference`` (model minus
        baseline), ``interval``, ``se``, ``pvalue``, ``pvalue_adjusted`` and ``verdict``
        ("model better", "baseline better", "no detectable difference", "not tested: ...").
    ci_level, n_boot, adjust, alpha, min_rows, min_events : as passed
    """

    def __init__(self, *, slicing, task, classes, metric, level, n_boot, adjust, alpha, name,
                 baseline_name, reference_text, min_rows, min_events, values, intervals,
                 overall, rest, difference, diff_interval, se, pvalue, pvalue_adjusted,
                 verdict, reasons, vs_baseline):
        self.labels, self.by, self.notes = list(slicing.labels), slicing.by, list(slicing.notes)
        self._members = slicing.members
        self.task, self.classes, self.metric = task, classes, metric
        self.ci_level, self.n_boot, self.adjust, self.alpha = level, n_boot, adjust, alpha
        # What a resample drew, in words (set by slice_report: rows, whole groups, blocks).
        self.resampled = "all rows"
        self.name, self.baseline_name, self.reference_text = name, baseline_name, reference_text
        self.min_rows, self.min_events = min_rows, min_events
        self.n = np.array([m.size for m in slicing.members])
        self.values, self.intervals, self.overall = _stack(values), intervals, overall
        self.rest, self.difference, self.diff_interval = rest, difference, diff_interval
        self.se, self.pvalue, self.pvalue_adjusted = se, pvalue, pvalue_adjusted
        self.verdict, self.reasons, self.vs_baseline = list(verdict), list(reasons), vs_baseline
        self.search = None  # find_weak_slices: what the search half said of each slice

    # ---- reading
    def rows_of(self, label) -> np.ndarray:
        """The row positions of the slice ``label`` (indices into the rows scored)."""
        return self._members[self.labels.index(label)]

    def _cls(self) -> bool:
        return self.task != "regression"

    def _skill_key(self) -> str:
        """The skill shown with its interval in the table of the slices (against the slice's
        own reference)."""
        own = self.metric.removesuffix("_vs_all")
        if own in _LOSS or self.task == "regression":
            return own if own in _LOSS else "r2"
        if self.task == "ranking":
            return "roc_auc"
        return own if own in ("accuracy", "balanced_accuracy") else "accuracy"

    def _label(self, key) -> str:
        label = fact(key.removesuffix("_vs_all")).label
        return f"{label} vs all" if key.endswith("_vs_all") else label

    # ---- text
    def header(self) -> str:
        """What was sliced and what each slice is judged against, in one line (the text
        wraps it at 120 characters)."""
        return " · ".join(self._header_parts())

    def _header_parts(self) -> list:
        if self.search is not None:
            found = (f"the {len(self.labels)} weakest found" if self.labels
                     else "none found")
            parts = [f"Weak slices of {self.name}: {found}, "
                     f"judged on {int(self.overall['values']['n']):,} held-out rows"]
        else:
            parts = [f"{self.name} by {self.by}: {len(self.labels)} slices, "
                     f"{int(self.overall['values']['n']):,} rows"]
        if self._cls():
            parts.append("each slice judged against its own class prior")
        else:
            parts.append("each slice judged against its own mean")
        if self.reference_text and self._skill_key() in _LOSS:
            parts.append(f"vs all: against {self.reference_text}")
        return parts

    def _numbers_table(self):
        """(columns, rows) of the slices' own numbers."""
        pct, v, key = _pct(self.ci_level), self.values, self._skill_key()
        cols = [Col("slice", None), Col("rows")]
        binary = self._cls() and len(self.classes) == 2
        if binary:
            cols += [Col("positives"), Col("base rate", 3)]
        elif self._cls():
            cols += [Col("class rates", None)]
        else:
            cols += [Col("mean y")]
        extra = []
        if key in _LOSS:
            loss = _LOSS[key]
            cols += [Col(self._label(loss)), Col("reference"),
                     Col(f"{self._label(key)} [{pct}]", None), Col("vs all", 3)]
            extra = [("calibration_mcb", Col("MCB"))]
            if "calibration_excess" in self.values:
                extra.append(("calibration_excess", Col("excess (p)", None)))
            extra = [*extra, ("roc_auc", Col("ROC AUC", 3))] if self._cls() else \
                [("mae_skill", Col("MAE skill", 3))]
        else:
            cols += [Col(f"{self._label(key)} [{pct}]", None)]
            other = "accuracy" if key == "roc_auc" else "roc_auc"
            extra = [(other, Col(self._label(other), 3))]
        cols += [c for _, c in extra]
        rows = [self._row(self.overall["values"], self.overall["intervals"], "all rows",
                          binary, key, extra)]
        for s, label in enumerate(self.labels):
            v = {k: x[s] for k, x in self.values.items()}
            v["n"] = self.n[s]
            ci = {k: x[s] for k, x in self.intervals.items()}
            rows.append(self._row(v, ci, label, binary, key, extra))
        return cols, rows

    def _row(self, v: dict, ci: dict, label: str, binary: bool, key: str, extra) -> list:
        """One line of the numbers table from one slice's values and intervals."""
        nan = np.nan
        row = [label, count(v["n"])]
        if binary:
            row += [count(np.round(v.get("positives", nan), 9)), v.get("base_rate", nan)]
        elif self._cls():
            rate = v.get("base_rate")
            row += [rates(rate, self.classes) if rate is not None else fmt(nan)]
        else:
            row += [v.get("mean_y", nan)]
        skill = v.get(key, nan)
        lo, hi = ci.get(key, (nan, nan))
        cell = fmt(skill) if np.isnan(skill) else f"{fmt(skill, 3)} [{fmt(lo, 3)}, {fmt(hi, 3)}]"
        if key in _LOSS:
            loss = _LOSS[key]
            ref = "rmse_ref" if loss == "rmse" else f"{loss}_ref"
            row += [v.get(loss, nan), v.get(ref, nan), cell, v.get(f"{key}_vs_all", nan)]
        else:
            row += [cell]
        cells = [v.get(k, nan) for k, _ in extra]
        for j, (key, _) in enumerate(extra):
            if key == "calibration_excess":
                # The calibration test: the population MCB's estimate and the p-value of
                # "calibrated" (the test is per slice: none on all rows here).
                p = v.get("calibration_pvalue", nan)
                cells[j] = EMPTY if "calibration_excess" not in v else (
                    fmt(cells[j]) if np.isnan(p) else
                    f"{fmt(cells[j], signed=True)} (p {fmt_p(p)})")
        return row + cells

    def _test_cols(self, first: str, second: str):
        pct = _pct(self.ci_level)
        return [Col("slice", None), Col(first, 3), Col(second, 3),
                Col(f"difference [{pct}]", None), Col("p", None),
                Col(f"p ({_ADJUSTED[self.adjust]})", None), Col("verdict", None)]

    @staticmethod
    def _diff_cell(d, lo, hi) -> str:
        if np.isnan(d):
            return fmt(d)
        return (f"{fmt(d, 3, signed=True)} [{fmt(lo, 3, signed=True)}, "
                f"{fmt(hi, 3, signed=True)}]")

    def _rest_table(self):
        label = self._label(self.metric)
        cols = self._test_cols(label, "rest")
        mine = self.values.get(self.metric, np.full(len(self.labels), np.nan))
        rows = [[lab, mine[s], self.rest[s], self._diff_cell(self.difference[s],
                                                             *self.diff_interval[s]),
                 fmt_p(self.pvalue[s]), fmt_p(self.pvalue_adjusted[s]), self.verdict[s]]
                for s, lab in enumerate(self.labels)]
        return cols, rows

    def _baseline_table(self):
        vb = self.vs_baseline
        cols = self._test_cols("model", "baseline")
        mine = self.values.get(self.metric, np.full(len(self.labels), np.nan))
        rows = [[lab, mine[s], vb["baseline"][s],
                 self._diff_cell(vb["difference"][s], *vb["interval"][s]),
                 fmt_p(vb["pvalue"][s]), fmt_p(vb["pvalue_adjusted"][s]), vb["verdict"][s]]
                for s, lab in enumerate(self.labels)]
        return cols, rows

    def _tables(self):
        """(title, columns, rows) of each table, shared by text, markdown and HTML."""
        label = self._label(self.metric)
        tested = int(np.sum(np.isfinite(self.pvalue_adjusted)))
        out = [("", *self._numbers_table()),
               (f"Each slice against the rest of the rows ({label}, slice minus rest; "
                f"{_ADJUSTED[self.adjust]} over {_count(tested, 'tested slice')} at alpha "
                f"{self.alpha:g})", *self._rest_table())]
        if self.vs_baseline is not None:
            tested_b = int(np.sum(np.isfinite(self.vs_baseline["pvalue_adjusted"])))
            out.append((f"{self.name} against {self.baseline_name} in each slice ({label}, "
                        f"model minus baseline, paired; {_ADJUSTED[self.adjust]} over "
                        f"{_count(tested_b, 'slice')})", *self._baseline_table()))
        return out

    def _footer(self) -> list:
        pct, adj = _pct(self.ci_level), _ADJUSTED[self.adjust]
        lines = list(self.notes)
        if self.ci_level is None:
            lines.append("No intervals and no tests (ci=None): nothing was resampled.")
        else:
            lines.append(f"[{pct}]: percentile bootstrap intervals, {self.n_boot:,} resamples "
                         f"of {self.resampled} (one set for every slice).")
        lines.append(f"p: two-sided, the difference over its bootstrap standard error; p "
                     f"({adj}): adjusted for the number of slices tested. Not tested: fewer "
                     f"than {self.min_rows} rows" + (f" or {self.min_events} rows of a class"
                                                      if self._cls() else "") +
                     " in the slice or in the rest.")
        if self.reference_text and self._skill_key() in _LOSS:
            lines.append(f"vs all: the skill against {self.reference_text}.")
        if "calibration_excess" in self.values:
            lines.append("excess (p): the slice's population MCB, estimated as its MCB minus "
                         "the simulated inflation, and the calibration test's p-value (H0: "
                         "calibrated); its interval is in to_frame().")
        if self.search is not None:
            f = self.search
            lines.append(f"Found among {f['candidates']:,} candidate slices (one or two "
                         f"conditions on the columns) on {f['rows_searched']:,} rows drawn at "
                         f"random, weakest first; every number above comes from the other "
                         f"{f['rows_held']:,} rows, which the search did not see.")
        return lines

    def __str__(self) -> str:
        lines = [*header_lines(self._header_parts()), ""]
        for title, cols, rows in self._tables():
            lines += (wrap(title) if title else []) + fitted_lines(cols, rows) + [""]
        return "\n".join(lines + [piece for line in self._footer() for piece in wrap(line)])

    def to_markdown(self) -> str:
        """The tables as GitHub-flavoured markdown, titles and notes as paragraphs."""
        lines = [self.header(), ""]
        for title, cols, rows in self._tables():
            lines += ([title, ""] if title else []) + markdown_table(cols, rows) + [""]
        return "\n".join(lines + [" ".join(self._footer())])

    def html_parts(self) -> list:
        """The HTML pieces of the tables (a heading, the tables, the notes), for a notebook
        block of their own or inside a report's."""
        parts = [f"<h4>{html.escape(self.header())}</h4>"]
        for title, cols, rows in self._tables():
            parts.append(html_table(cols, rows, caption=title or None))
        return [*parts, html_paragraphs(self._footer())]

    def _repr_html_(self) -> str:
        """Jupyter: the heading, the tables as the text's (numbers right-aligned), the notes."""
        return html_block(*self.html_parts())

    def __repr__(self) -> str:
        worse = sum(v == "worse than the rest" for v in self.verdict)
        better = sum(v == "better than the rest" for v in self.verdict)
        return (f"<SliceReport {self.task} of {self.name} by {self.by}: {len(self.labels)} "
                f"slices on {self.metric}, {worse} worse and {better} better than the rest>")

    # ---- export
    def to_frame(self):
        """One row per slice, indexed by its label: ``n``, every key of :attr:`values` (a
        multiclass rate as ``base_rate[label]``), ``<key>_low`` / ``<key>_high``, then
        ``<metric>_rest``, ``difference``, ``diff_low``, ``diff_high``, ``pvalue``,
        ``pvalue_adjusted``, ``verdict`` (and ``baseline``, ``vs_baseline``, ... with a
        baseline). Needs pandas."""
        pd = import_pandas("SliceReport.to_frame")
        cols = {"n": self.n}
        for key, v in self.values.items():
            if v.ndim == 2:
                for j, label in enumerate(self.classes):
                    cols[f"{key}[{plain(label)}]"] = v[:, j]
                continue
            cols[key] = v
            if key in self.intervals:
                cols[f"{key}_low"], cols[f"{key}_high"] = self.intervals[key].T
        cols[f"{self.metric}_rest"] = self.rest
        cols["difference"] = self.difference
        cols["diff_low"], cols["diff_high"] = self.diff_interval.T
        cols["pvalue"], cols["pvalue_adjusted"] = self.pvalue, self.pvalue_adjusted
        cols["verdict"] = self.verdict
        vb = self.vs_baseline
        if vb is not None:
            cols["baseline"], cols["vs_baseline"] = vb["baseline"], vb["difference"]
            cols["vs_baseline_low"], cols["vs_baseline_high"] = vb["interval"].T
            cols["vs_baseline_pvalue"] = vb["pvalue"]
            cols["vs_baseline_pvalue_adjusted"] = vb["pvalue_adjusted"]
            cols["vs_baseline_verdict"] = vb["verdict"]
        return pd.DataFrame(cols, index=pd.Index(self.labels, name="slice"))

    def to_dict(self) -> dict:
        """Plain Python values: one dict per slice (the columns of :meth:`to_frame`)."""
        out = {"by": self.by, "metric": self.metric, "ci_level": self.ci_level,
               "n_boot": self.n_boot, "adjust": self.adjust, "alpha": self.alpha,
               "notes": self.notes, "slices": {}}
        keys = [k for k, v in self.values.items() if v.ndim == 1]
        for s, label in enumerate(self.labels):
            row = {"n": int(self.n[s]), **{k: float(self.values[k][s]) for k in keys}}
            for k in keys:
                if k in self.intervals:
                    row[f"{k}_low"], row[f"{k}_high"] = map(float, self.intervals[k][s])
            row.update(difference=float(self.difference[s]),
                       diff_low=float(self.diff_interval[s, 0]),
                       diff_high=float(self.diff_interval[s, 1]),
                       pvalue=float(self.pvalue[s]),
                       pvalue_adjusted=float(self.pvalue_adjusted[s]),
                       verdict=self.verdict[s])
            if self.vs_baseline is not None:
                vb = self.vs_baseline
                row.update(vs_baseline=float(vb["difference"][s]),
                           vs_baseline_verdict=vb["verdict"][s])
            out["slices"][label] = row
        return out

    # ---- picture
    @public(legacy=("metric",))
    def plot(self, *, metric=None, ax=None):
        """A forest plot: each slice's skill with its interval, the value on all rows as a
        vertical line; verdicts mark the slices that differ from the rest. Drawn by
        :func:`chimeraboost.plotting.slice_plot`; needs matplotlib
        (``pip install "chimeraboost[plot]"``)."""
        from ..plotting import slice_plot  # plotting draws results; slices never import it

        return slice_plot(self, metric=metric, ax=ax)


def _pct(level) -> str:
    """The level in a column header; ``no CI`` without intervals (``ci=None``)."""
    return "no CI" if level is None else percent(level)
