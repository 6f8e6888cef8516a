"""The result of :func:`chimeraboost.compare.holdout_table`: the table, as text, markdown, HTML,
a data frame and one sentence per model.

Computing lives in ``_holdout_table``; this module only presents what it computed.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np

from ..._shared.api import public
from ... import resampling
from ..._shared.ties import negligible
from ..._shared.units import resampled, time_span
from ..._shared.facts import FACTS, is_loss
from ..._shared.format import wrap as wrap_prose
from ..._shared.format import (
    EMPTY,
    NA,
    WIDTH,
    Col,
    count,
    fixed_decimals,
    fmt,
    percent,
    table,
)
from ..._shared.html import html_block, html_paragraphs, html_table
from ..._shared.predictions import lacks
from ..._shared.validation import import_pandas

__all__ = ["HoldoutTable", "REFERENCE", "WIDTH", "orient"]

# A split that already says what the rows are ("30% holdout", "held-out rows") gets no
# second "holdout".
_NAMES_HELD_OUT = re.compile(r"(?i)\b(hold[- ]?out|held[- ]?out)")
# What the skills of each kind of table are measured against (as in report(baseline=None)).
REFERENCE = {
    "binary": "Skills against the class prior of the scored rows",
    "multiclass": "Skills against the class prior of the scored rows",
    "regression": "r2 and MAE skill against the mean and median of the scored rows",
    "quantile": "CRPS skill against the constant quantiles of the scored rows",
}
def where(split, *, article: bool = False) -> str:
    """What the rows are, for a header or a sentence: ``"holdout"``, ``"2024-Q4 holdout"``,
    ``"30% holdout"`` (never "30% holdout holdout"); ``article`` adds "the" unless the split
    starts with it."""
    text = "holdout" if not split else " ".join(split.split())
    if split and not _NAMES_HELD_OUT.search(text):
        text += " holdout"
    if article and not re.match(r"(?i)the\b", text):
        text = "the " + text
    return text


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
                 min_lift, kind, ci_method="percentile", units=None):
        self.baseline, self.primary, self.metrics = baseline, primary, list(keys)
        self.units = units
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
            cis = row.boot.intervals(level=level, metrics=self.metrics, warn=False)
            self._narrow.update(row.boot.narrow(metrics=self.metrics))
            for key in self.metrics:
                values[key] = float(row.point[key])
                lo, hi = cis[key] if not math.isnan(values[key]) else (np.nan, np.nan)
                if key == "calibration_excess" and row.calibration is not None:
                    lo, hi = row.calibration.confidence_interval(level=level)
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
        lo, hi = (orient(p, v) for v in paired.interval(p, level=self.level, warn=False))
        # A difference widened because few units decide differently is named per pair.
        at = "" if paired.discordance(p, level=self.level) is None else \
            f" ({row.name} minus {other.name})"
        for reason in paired.narrow(metrics=[p], level=self.level).values():
            self._narrow[f"{p} difference{at}"] = reason
        scale = float(row.point[p])
        if negligible(d, scale) and negligible(lo, scale) and negligible(hi, scale):
            return 0.0, 0.0, 0.0  # two identical rows: no difference, whatever the seed
        return d, min(lo, hi), max(lo, hi)

    def _notes(self, row, worse) -> list:
        notes = []
        if row.constant:
            notes.append("floor")
        binary = self.kind == "binary"
        missing = [FACTS[k].label for k in self.metrics
                   if lacks(row.task, k, binary=binary) and math.isnan(float(row.point[k]))]
        if missing:
            what = {"rule": "0/1 rule", "scores": "scores only"}.get(row.kind, row.kind)
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
        parts = [f"{where(self.split)}: {self.n:,} rows"]
        if self.kind == "binary":
            parts[0] += (f", {count(self.positives)} positives (base rate "
                         f"{fmt(self.base_rate, 3)})")
        span = time_span(self.units)
        if span is not None:
            parts.insert(0, span)
        what = resampled(self.units)
        parts.append(f"every row scored on the same rows and the same {self.n_boot:,} bootstrap "
                     "resamples" + ("" if what == "rows" else f" of {what}"))
        return " · ".join(parts)

    def _fixed(self, key) -> bool:
        """Whether a metric's column keeps three decimals throughout (near-zero as -0.000)."""
        return fixed_decimals([r[f"{key}{end}"] for r in self.rows.values()
                               for end in ("", "_low", "_high")], 3)

    def _with_interval(self, key, r, fixed) -> str:
        v, lo, hi = r[key], r[f"{key}_low"], r[f"{key}_high"]
        if math.isnan(v):
            return NA
        if math.isnan(lo) and math.isnan(hi):  # no interval (calibration_mcb beside the excess)
            return fmt(v, 3, fixed=fixed)
        return (f"{fmt(v, 3, fixed=fixed)} [{fmt(lo, 3, fixed=fixed)}, "
                f"{fmt(hi, 3, fixed=fixed)}]")

    def _cells(self):
        """Column titles and rows of cells of the wide layout, shared by the text (``width=None``)
        and the markdown tables: the primary metric, its paired difference against the
        baseline with the interval's ends, the decision, then the other metrics and notes."""
        pct = percent(self.level)
        p, others = self.primary, self.metrics[1:]
        titles = ["model", self._label(p), f"{self._primary_label} vs {self.baseline}",
                  f"{pct} low", "high", "beats", *(self._label(k) for k in others), "notes"]
        fixed = {key: self._fixed(key) for key in self.metrics}
        diffs = [self._difference_cells(name, r) for name, r in self.rows.items()]
        body = []
        for (name, r), d in zip(self.rows.items(), diffs):
            body.append([name, self._with_interval(p, r, fixed[p]), *d,
                         *(self._with_interval(k, r, fixed[k]) for k in others),
                         r["notes"] or ""])
        return titles, body

    def _difference_cells(self, name, r) -> list:
        if name == self.baseline:
            return [EMPTY, EMPTY, EMPTY, "baseline"]
        return [r["difference"], r["diff_low"], r["diff_high"],
                "yes" if r["beats_baseline"] else "no"]

    def _footer(self, compact: bool = False) -> list:
        pct = percent(self.level)
        sign = (f"baseline minus row ({self._primary_label} is a loss)" if is_loss(self.primary)
                else "row minus baseline")
        what = (f"vs baseline ({self.baseline}): {self._primary_label}, {sign}" if compact else
                f"{self._primary_label} vs {self.baseline}: {sign}")
        return [
            f"[low, high]: {pct} bootstrap intervals "
            f"({resampling.CI_METHOD_LABELS[self.ci_method]}). {what}, paired on the same "
            "resamples, positive favours the row;",
            f"beats: the whole {pct} interval of the difference above {self.min_lift:g}. "
            f"{REFERENCE[self.kind]}; losses with their natural sign.",
            *(["calibration_excess: the population MCB, estimated as MCB minus its simulated "
               "inflation, with the calibration test's interval (outcome draws)."]
              if "calibration_excess" in self.metrics else []),
        ]

    def _compact_lines(self, shown, interval=True) -> list:
        """The table's lines with the primary (and its interval, if ``interval``), the
        difference in one cell and the first ``shown`` other metrics as point values; notes
        go below the table."""
        p = self.primary
        others = self.metrics[1:1 + shown]
        fixed = {key: self._fixed(key) for key in self.metrics}
        diff_fixed = fixed_decimals([r[k] for r in self.rows.values()
                                     for k in ("difference", "diff_low", "diff_high")], 3)
        columns = [Col("model", None), Col(self._label(p), None), Col("vs baseline", None),
                   Col("beats", None), *(Col(self._label(k), 3) for k in others)]
        body = []
        for name, r in self.rows.items():
            if name == self.baseline:
                diff, beats = EMPTY, "baseline"
            elif math.isnan(r["difference"]):
                diff, beats = NA, "no"
            else:
                diff = (f"{fmt(r['difference'], 3, signed=True, fixed=diff_fixed)} "
                        f"[{fmt(r['diff_low'], 3, signed=True, fixed=diff_fixed)}, "
                        f"{fmt(r['diff_high'], 3, signed=True, fixed=diff_fixed)}]")
                beats = "yes" if r["beats_baseline"] else "no"
            first = self._with_interval(p, r, fixed[p]) if interval else fmt(r[p], 3,
                                                                               fixed=fixed[p])
            body.append([name, first, diff, beats, *(fmt(r[k], 3, fixed=fixed[k])
                                                     for k in others)])
        return table(columns, body, indent=0)

    @public(legacy=("width",))
    def to_text(self, *, width=WIDTH) -> str:
        """The table as text that fits ``width`` characters (a terminal's 120 by default).

        The compact layout: the primary metric with its interval, its paired difference
        against the baseline with its interval in one column, the decision, then the other
        metrics as point values; notes below the table. What does not fit is left out, and
        the text says so: the other metrics from the last, then the primary's own interval
        (the difference keeps its interval: it carries the decision). Model names are never
        cut, so a table of long names may stay wider than a small ``width``.
        ``width=None``: the wide layout, every metric with its interval and the
        difference's ends in columns of their own (also :meth:`to_markdown`)."""
        if width is None:
            titles, body = self._cells()
            columns = [Col(titles[0], None), Col(titles[1], None),
                       *(Col(t, signed=True) for t in titles[2:5]),
                       *(Col(t, None) for t in titles[5:])]
            return "\n".join([self.header(), "", *table(columns, body, indent=0), "",
                              *self._footer()])
        if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width < 40:
            msg = f"width must be a whole number of characters >= 40, or None, got {width!r}."
            raise ValueError(msg)
        others = len(self.metrics) - 1
        shown, interval = others, True
        lines = self._compact_lines(shown)
        while max(map(len, lines)) > width and (shown > 0 or interval):
            if shown > 0:
                shown -= 1
            else:
                interval = False
            lines = self._compact_lines(shown, interval)
        def wrap(text):
            return wrap_prose(text, width)

        notes = [f"{name} ({r['notes']})" for name, r in self.rows.items() if r["notes"]]
        header = self.header()
        if len(header) > width:  # one line per part, each wrapped
            header = "\n".join("\n".join(wrap(part)) for part in header.split(" · "))
        out = [header, "", *lines, ""]
        if shown < others or not interval:
            left = [self._label(k) for k in self.metrics[1 + shown:]]
            if not interval:
                left.insert(0, f"the interval of {self._primary_label}")
            out += wrap(f"Left out to fit {width} characters: {', '.join(left)} "
                        "(to_text(width=None) or to_markdown() shows every column).")
        if notes:
            out += wrap("notes: " + "; ".join(notes) + ".")
        out += wrap(" ".join(self._footer(compact=True)))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        beats = [n for n, r in self.rows.items() if r["beats_baseline"]]
        return (f"<HoldoutTable {len(self.rows)} rows on {self.n} held-out rows, primary "
                f"{self._primary_label} vs {self.baseline!r}: beating it {beats}>")

    def to_markdown(self) -> str:
        """The table as GitHub-flavoured markdown (the wide layout), header and footer as
        paragraphs."""
        titles, body = self._cells()
        align = ["---", "---:", "---:", "---:", "---:", "---", *(["---:"] * (len(titles) - 7)),
                 "---"]
        fixed = fixed_decimals([c for row in body for c in row[2:5]], 4)
        body = [[*row[:2], *(fmt(c, signed=True, fixed=fixed) if not isinstance(c, str) else c
                             for c in row[2:5]), *row[5:]] for row in body]

        def line(cells):
            return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

        return "\n".join([self.header(), "", line(titles), line(align),
                          *(line(c) for c in body), "", " ".join(self._footer())])

    def _repr_html_(self) -> str:
        """Jupyter: the header as a heading, then the table -- each number with its interval
        ``[low, high]`` below it, under the metric's one title: the primary metric first, then
        its paired difference and the decision, then the other metrics; the level is said
        once, below the table."""
        p, others = self.primary, self.metrics[1:]
        columns = [Col("model", None), Col(self._label(p), 3),
                   Col(f"{self._primary_label} vs {self.baseline}", signed=True),
                   Col("beats", None), *(Col(self._label(k), 3) for k in others),
                   Col("notes", None)]
        body = []
        for name, r in self.rows.items():
            cells = [name, (r[p], r[f"{p}_low"], r[f"{p}_high"])]
            if name == self.baseline:
                cells += [EMPTY, "baseline"]
            else:
                cells += [(r["difference"], r["diff_low"], r["diff_high"]),
                          "yes" if r["beats_baseline"] else "no"]
            cells += [(r[k], r[f"{k}_low"], r[f"{k}_high"]) for k in others]
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
        """One sentence per model other than the baseline, for a report (each on lines of at
        most 120 characters):

        "On the <split> holdout (<n> rows, <positives> positives) <model> reaches
        <primary> <value> (95% CI <lo>-<hi>) vs <value> for <baseline>; the paired
        difference is <+d> (CI <lo> to <hi>)."
        """
        pct = percent(self.level)
        rows = f"{self.n:,} rows"
        if self.kind == "binary":
            rows += f", {count(self.positives)} positives"
        p, label = self.primary, self._primary_label
        base = self.rows[self.baseline]
        at = where(self.split, article=True)
        f = fixed_decimals([r[f"{p}{end}"] for r in self.rows.values()
                            for end in ("", "_low", "_high")], 4)
        g = fixed_decimals([r[k] for r in self.rows.values()
                            for k in ("difference", "diff_low", "diff_high")], 4)
        sentences = []
        for name, r in self.rows.items():
            if name == self.baseline:
                continue
            lo, hi = fmt(r[f"{p}_low"], fixed=f), fmt(r[f"{p}_high"], fixed=f)
            span = f"{lo} to {hi}" if lo.startswith("-") or hi.startswith("-") else f"{lo}-{hi}"
            diff = "the paired difference" if not is_loss(p) else (
                "the paired difference (baseline minus model: positive favours the model)")
            sentences.append(
                f"On {at} ({rows}) {name} reaches {label} {fmt(r[p], fixed=f)} ({pct} CI "
                f"{span}) vs {fmt(base[p], fixed=f)} for {self.baseline}; {diff} is "
                f"{fmt(r['difference'], signed=True, fixed=g)} (CI "
                f"{fmt(r['diff_low'], signed=True, fixed=g)} to "
                f"{fmt(r['diff_high'], signed=True, fixed=g)}).")
        # Each sentence on lines of 120 characters at most, the next ones indented.
        return "\n".join(piece for sentence in sentences for piece in wrap_prose(sentence))
