"""The result of :func:`chimeraboost.compare.holdout_table`: the table, as text, markdown, HTML,
a data frame and one sentence per model.

Computing lives in ``_holdout_table``; this module only presents what it computed.
"""

from __future__ import annotations

import html
import math

import numpy as np

from .. import resampling
from .._shared.facts import FACTS, is_loss
from .._shared.format import EMPTY, NA, Col, count, fmt, percent, table
from .._shared.html import html_block, html_paragraphs, html_table
from .._shared.validation import import_pandas

__all__ = ["HoldoutTable", "NEEDS_PROBA", "REFERENCE", "orient"]

NEEDS_PROBA = frozenset({"log_loss", "log_loss_skill", "brier", "brier_skill",
                          "calibration_mcb", "calibration_excess", "discrimination_dsc"})
# What the skills of each kind of table are measured against (as in report(baseline=None)).
REFERENCE = {
    "binary": "Skills against the class prior of the scored rows",
    "multiclass": "Skills against the class prior of the scored rows",
    "regression": "r2 and MAE skill against the mean and median of the scored rows",
    "quantile": "CRPS skill against the constant quantiles of the scored rows",
}
def orient(key, diff):
    """A difference oriented so that positive favours the row (losses flipped)."""
    return -diff if is_loss(key) else diff


# --------------------------------------------------------------------------- the call


class HoldoutTable:
    """The outcome of :func:`holdout_table`: one row per model on the same held-out rows.

    Attributes
    ----------
    rows : dict
        Name -> dict with, for every shown metric ``m``, ``m`` (the point value, equal to
        :func:`chimeraboost.report`'s), ``m_low`` and ``m_high`` (its percentile interval);
        ``difference``, ``diff_low``, ``diff_high`` (the paired difference of the primary
        metric against the baseline row, positive favours the row; NaN for the baseline
        itself), ``beats_baseline`` (``diff_low > min_lift``), ``kind`` (probabilities,
        scores, rule, predictions, quantiles) and ``notes``.
    baseline, primary, split : str
    n : int
        Rows scored. ``positives`` (binary only): their weight of the positive class.
    level, min_lift : float
    n_boot : int
    ci_method : str
        How the intervals were read off the resamples.
    """

    def __init__(self, rows, *, baseline, primary, keys, labels, split, level, n_boot,
                 min_lift, kind, ci_method="percentile"):
        self.baseline, self.primary, self.metrics = baseline, primary, list(keys)
        self._labels, self.split, self.level = labels, split, level
        self.n_boot, self.min_lift, self.kind = n_boot, min_lift, kind
        self.ci_method = ci_method
        self._narrow = {}
        first = next(iter(rows.values())).point
        self.n = int(first["n"])
        self.positives = float(first["positives"]) if kind == "binary" else None
        self.base_rate = float(first["base_rate"]) if kind == "binary" else None
        self.rows = self._numbers(rows)
        # One warning for the whole table: which intervals, and why.
        resampling.warn_narrow(self._narrow, level)

    def _numbers(self, rows) -> dict:
        level = self.level
        base = rows[self.baseline]
        names = list(rows)
        out = {}
        for i, (name, row) in enumerate(rows.items()):
            values = {"kind": row.kind}
            cis = row.boot.intervals(level, metrics=self.metrics, warn=False)
            self._narrow.update(row.boot.narrow(self.metrics))
            for key in self.metrics:
                values[key] = float(row.point[key])
                lo, hi = cis[key] if not math.isnan(values[key]) else (np.nan, np.nan)
                if key == "calibration_excess" and row.calibration is not None:
                    lo, hi = row.calibration.confidence_interval(level)
                elif key == "calibration_mcb" and "calibration_excess" in self.metrics:
                    # The resampled in-sample MCB covers no population value; the interval
                    # is calibration_excess's.
                    lo = hi = np.nan
                values[f"{key}_low"], values[f"{key}_high"] = lo, hi
            if name == self.baseline:
                d, lo, hi = np.nan, np.nan, np.nan
            else:
                d, lo, hi = self._paired(row, base)
            values.update(difference=d, diff_low=lo, diff_high=hi,
                          beats_baseline=bool(lo > self.min_lift) if not math.isnan(lo)
                          else False)
            worse = [other for other in names[:i]
                     if self._paired(row, rows[other])[2] < 0]
            values["notes"] = "; ".join(self._notes(row, worse))
            out[name] = values
        return out

    def _paired(self, row, other):
        """Primary metric, ``row - other`` oriented (positive favours ``row``), with its
        paired interval; NaN when fewer than MIN_RESAMPLES_DECISION resamples define it."""
        p = self.primary
        d = orient(p, float(row.point[p]) - float(other.point[p]))
        paired = resampling.PairedBootstrapResult(row.boot, other.boot)
        paired.estimate[p] = float(row.point[p]) - float(other.point[p])  # the points shown
        if math.isnan(d) or paired.n_boot - paired.n_dropped(p) < \
                resampling.MIN_RESAMPLES_DECISION:
            return d, np.nan, np.nan
        lo, hi = (orient(p, v) for v in paired.interval(p, self.level, warn=False))
        self._narrow.update({f"{p} difference": r for r in paired.narrow([p]).values()})
        return d, min(lo, hi), max(lo, hi)

    def _notes(self, row, worse) -> list:
        notes = []
        if row.constant:
            notes.append("floor")
        missing = [FACTS[k].label for k in self.metrics
                   if k in NEEDS_PROBA and math.isnan(float(row.point[k]))]
        if row.kind in ("rule", "scores") and missing:
            what = "0/1 rule" if row.kind == "rule" else "scores only"
            notes.append(f"{what}: {', '.join(missing)} n/a")
        if worse:
            notes.append(f"worse than {', '.join(worse)}")
        return notes

    def _label(self, key) -> str:
        return self._labels.get(key, key)

    # ---- text
    @property
    def _primary_label(self) -> str:
        return self._label(self.primary)

    def header(self) -> str:
        """Where the rows come from, how many, and how they were scored."""
        where = f"{self.split} holdout" if self.split else "holdout"
        parts = [f"{where}: {self.n:,} rows"]
        if self.kind == "binary":
            parts[0] += (f", {count(self.positives)} positives (base rate "
                         f"{fmt(self.base_rate, 3)})")
        parts.append(f"every row scored on the same rows and the same {self.n_boot:,} bootstrap "
                     "resamples")
        return " · ".join(parts)

    def _cells(self):
        """Column titles and rows of cells, shared by the text, markdown and HTML tables."""
        pct = percent(self.level)
        titles = ["model", *(self._label(k) for k in self.metrics),
                  f"{self._primary_label} vs {self.baseline}", f"{pct} low", "high",
                  "beats", "notes"]
        body = []
        for name, r in self.rows.items():
            cells = [name]
            for key in self.metrics:
                v, lo, hi = r[key], r[f"{key}_low"], r[f"{key}_high"]
                cells.append(NA if math.isnan(v) else fmt(v, 3) if math.isnan(lo) and math.isnan(
                    hi) else f"{fmt(v, 3)} [{fmt(lo, 3)}, {fmt(hi, 3)}]")
            if name == self.baseline:
                cells += [EMPTY, EMPTY, EMPTY, "baseline"]
            else:
                cells += [fmt(r["difference"], signed=True), fmt(r["diff_low"], signed=True),
                          fmt(r["diff_high"], signed=True), "yes" if r["beats_baseline"] else
                          "no"]
            cells.append(r["notes"] or "")
            body.append(cells)
        return titles, body

    def _footer(self) -> list:
        pct = percent(self.level)
        sign = (f"baseline minus row ({self._primary_label} is a loss)" if is_loss(self.primary)
                else "row minus baseline")
        return [
            f"[low, high]: {pct} bootstrap intervals "
            f"({resampling.CI_METHOD_LABELS[self.ci_method]}). {self._primary_label} vs "
            f"{self.baseline}: {sign}, paired on the same resamples, positive favours the row;",
            f"beats: the whole {pct} interval of the difference above {self.min_lift:g}. "
            f"{REFERENCE[self.kind]}; losses with their natural sign.",
            *(["calibration_excess: the population MCB, estimated as MCB minus its simulated "
               "inflation, with the calibration test's interval (outcome draws)."]
              if "calibration_excess" in self.metrics else []),
        ]

    def __str__(self) -> str:
        titles, body = self._cells()
        columns = [Col(titles[0], None), *(Col(t) for t in titles[1:-2]),
                   Col(titles[-2], None), Col(titles[-1], None)]
        return "\n".join([self.header(), "", *table(columns, body, indent=0), "",
                          *self._footer()])

    def __repr__(self) -> str:
        beats = [n for n, r in self.rows.items() if r["beats_baseline"]]
        return (f"<HoldoutTable {len(self.rows)} rows on {self.n} held-out rows, primary "
                f"{self._primary_label} vs {self.baseline!r}: beating it {beats}>")

    def to_markdown(self) -> str:
        """The table as GitHub-flavoured markdown, header and footer as paragraphs."""
        titles, body = self._cells()
        align = ["---", *(["---:"] * (len(titles) - 3)), "---", "---"]

        def line(cells):
            return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

        return "\n".join([self.header(), "", line(titles), line(align),
                          *(line(c) for c in body), "", " ".join(self._footer())])

    def _repr_html_(self) -> str:
        """Jupyter: the header as a heading, then the table -- each number with its interval
        ``[low, high]`` below it, under the metric's one title; the level is said once, below
        the table."""
        columns = [Col("model", None), *(Col(self._label(k), 3) for k in self.metrics),
                   Col(f"{self._primary_label} vs {self.baseline}", signed=True),
                   Col("beats", None), Col("notes", None)]
        body = []
        for name, r in self.rows.items():
            cells = [name, *((r[k], r[f"{k}_low"], r[f"{k}_high"]) for k in self.metrics)]
            if name == self.baseline:
                cells += [EMPTY, "baseline"]
            else:
                cells += [(r["difference"], r["diff_low"], r["diff_high"]),
                          "yes" if r["beats_baseline"] else "no"]
            body.append([*cells, r["notes"] or ""])
        return html_block(f"<h4>{html.escape(self.header())}</h4>",
                          html_table(columns, body, stacked=True),
                          html_paragraphs(self._footer()))

    def to_frame(self):
        """One row per model, the columns of :attr:`rows`. Needs pandas."""
        pd = import_pandas("HoldoutTable.to_frame")
        return pd.DataFrame.from_dict(self.rows, orient="index")

    def to_dict(self) -> dict:
        """Plain Python values: settings and :attr:`rows`."""
        return {"split": self.split, "n": self.n, "positives": self.positives,
                "baseline": self.baseline, "primary": self._primary_label,
                "level": self.level, "n_boot": self.n_boot, "min_lift": self.min_lift,
                "ci_method": self.ci_method,
                "rows": {n: dict(r) for n, r in self.rows.items()}}

    def summary(self) -> str:
        """One sentence per model other than the baseline, for a report:

        "On the <split> holdout (<n> rows, <positives> positives) <model> reaches
        <primary> <value> (95% CI <lo>-<hi>) vs <value> for <baseline>; the paired
        difference is <+d> (CI <lo> to <hi>)."
        """
        pct = percent(self.level)
        where = f"the {self.split} holdout" if self.split else "the holdout"
        rows = f"{self.n:,} rows"
        if self.kind == "binary":
            rows += f", {count(self.positives)} positives"
        p, label = self.primary, self._primary_label
        base = self.rows[self.baseline]
        sentences = []
        for name, r in self.rows.items():
            if name == self.baseline:
                continue
            lo, hi = r[f"{p}_low"], r[f"{p}_high"]
            span = f"{fmt(lo)}-{fmt(hi)}" if not (lo < 0 or hi < 0) else \
                f"{fmt(lo)} to {fmt(hi)}"
            diff = "the paired difference" if not is_loss(p) else (
                "the paired difference (baseline minus model: positive favours the model)")
            sentences.append(
                f"On {where} ({rows}) {name} reaches {label} {fmt(r[p])} ({pct} CI {span}) vs "
                f"{fmt(base[p])} for {self.baseline}; {diff} is "
                f"{fmt(r['difference'], signed=True)} (CI {fmt(r['diff_low'], signed=True)} to "
                f"{fmt(r['diff_high'], signed=True)}).")
        return "\n".join(sentences)
