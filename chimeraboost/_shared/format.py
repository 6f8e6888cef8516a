"""Every number chimeraboost prints goes through this module: one number style, one NaN
spelling, one table layout.

Which questions it answers:

- How is a number shown? :func:`fmt`: ``digits`` decimals, unless they would show a non-zero
  number as zero or the number reaches a million: then significant digits (``1.25e-07``,
  ``1.23457e+09``) -- a number is rounded, never cut to fit a column. NaN and None print as
  ``n/a``, integers without decimals.
- And in a column of numbers? :func:`fixed_decimals`: when some number of the column shows
  at the column's decimals, a near-zero one prints in the same format (``-0.000`` beside
  ``0.739``, not ``-7.04e-08``); :func:`table` and ``_shared.html.html_table`` apply it per
  column.
- How is a table laid out? :func:`table`: one :class:`Col` per column, headers aligned with
  their cells (numbers right, text left) and at least two spaces between columns, so every
  line splits back into the same cells however large, small or negative the numbers are.
  Within a terminal's width? :func:`fitted_table` (leaves columns out) and
  :func:`fitted_lines` (splits the table, keeping every cell), :data:`WIDTH`: 120
  characters; a header of parts, :func:`header_lines`; prose, :func:`wrap`.
- How is a result written as JSON? :func:`json_ready`: NaN as null, whole counts as ints.
- How is a table shown in a notebook? ``_shared.html.html_table``: the same cells as
  :func:`table` in an HTML ``<table>``. And in markdown? :func:`markdown_table`.
- How is a report dict shown? :func:`format_report` (re-exported as
  ``chimeraboost.metrics.format_report``): a proper score is never printed alone; its line
  carries the base rate, the reference loss that base rate implies and the skill, skill last.
  Losses are printed with their natural sign.
"""

from __future__ import annotations

from .api import public
from .ties import negligible

import math
import textwrap
from typing import NamedTuple

import numpy as np

NA = "n/a"
NO_PROBA = "n/a — the model gives no probabilities"
EMPTY = "—"  # a cell that does not apply to its row (the champion's difference to itself)
GAP = "  "


def fmt(x, digits: int = 4, *, signed: bool = False, fixed: bool = False) -> str:
    """A number for humans.

    ``digits`` decimals, unless they would show a non-zero number as zero (then three
    significant digits) or the number reaches a million (then six significant digits): a
    tiny number never prints as ``0.0000`` and a huge one never spills into the next column.
    A number that is zero within rounding (at most ``1e-12`` in size, the tie rule of
    ``_shared.ties``) is zero: ``0.0000``, not ``-2.78e-17``.
    ``fixed`` keeps ``digits`` decimals for a tiny number too (``-0.000``): for a cell of a
    column whose other numbers set the scale (:func:`fixed_decimals`). NaN and None are
    ``n/a``; integers print as integers; ``signed`` puts ``+`` before positives.

    >>> fmt(0.12345), fmt(3750.55161), fmt(-2.5, signed=True), fmt(2.5, 3, signed=True)
    ('0.1235', '3750.5516', '-2.5000', '+2.500')
    >>> fmt(1234567890.0), fmt(-0.000459971, signed=True), fmt(1.25e-07), fmt(0.0)
    ('1.23457e+09', '-0.0005', '1.25e-07', '0.0000')
    >>> fmt(float("nan")), fmt(None), fmt(np.int64(7)), fmt(float("-inf"))
    ('n/a', 'n/a', '7', '-inf')
    >>> fmt(-7.04e-08, 3), fmt(-7.04e-08, 3, fixed=True), fmt(2e-9, 3, signed=True, fixed=True)
    ('-7.04e-08', '-0.000', '+0.000')
    >>> fmt(-2.78e-17), fmt(-2.78e-17, signed=True)
    ('0.0000', '+0.0000')
    """
    if x is None:
        return NA
    sign = "+" if signed else ""
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        return f"{int(x):{sign}d}"
    x = float(x)
    if math.isnan(x):
        return NA
    if math.isinf(x):
        return f"{x:{sign}}"
    if negligible(x):
        # The rounding error of a sum of numbers near 1 (a DSC of -2.78e-17), not a number.
        x = 0.0
    if 0.0 < round(abs(x), digits) < 1e6 or x == 0.0 or (fixed and abs(x) < 1e6):
        return f"{x:{sign}.{digits}f}"
    return f"{x:{sign}.{6 if abs(x) >= 1 else 3}g}"


def fixed_decimals(values, digits: int) -> bool:
    """Whether the numbers of one column print with ``digits`` decimals throughout: True when
    some finite number among ``values`` shows at that many decimals (its scale is the
    column's), so that a near-zero neighbour is ``-0.000`` rather than ``-7.04e-08``. A
    column of nothing but tiny numbers keeps significant digits, or it would say nothing.
    Text cells (already formatted) are ignored.

    >>> fixed_decimals([0.739, -7.04e-08, float("nan")], 3), fixed_decimals([1e-7, 2e-8], 3)
    (True, False)
    """
    for v in values:
        if isinstance(v, (bool, np.bool_, str)) or v is None:
            continue
        try:
            v = abs(float(v))
        except (TypeError, ValueError):
            continue
        if math.isfinite(v) and round(v, digits) > 0:
            return True
    return False


def fmt_p(p) -> str:
    """A p-value (or a probability): four decimals, scientific below 1e-4 (``3.2e-07``);
    ``n/a`` for NaN.

    >>> fmt_p(0.03125), fmt_p(3.2e-07), fmt_p(0.0), fmt_p(float("nan"))
    ('0.0312', '3.2e-07', '0.0000', 'n/a')
    """
    if p is None or math.isnan(float(p)):
        return NA
    p = float(p)
    return f"{p:.1e}" if 0.0 < p < 1e-4 else f"{p:.4f}"


def count(x) -> str:
    """A count for prose: ``1,234`` when whole (weighted counts need not be), else :func:`fmt`."""
    if x is None or not math.isfinite(float(x)) or float(x) != round(float(x)):
        return fmt(x)
    return f"{int(round(float(x))):,}"


def percent(level: float) -> str:
    """A confidence level as a percentage: ``95%``, ``97.5%``."""
    return f"{level:.0%}" if level * 100 == round(level * 100) else f"{level:.1%}"


class Col(NamedTuple):
    """One column of a :func:`table`: its header and how its numbers are shown.

    ``digits=None`` makes a text column (left-aligned, cells printed as given); otherwise
    numbers go through :func:`fmt` with ``digits`` and ``signed`` and are right-aligned.
    A cell that is already a string is printed as it is in either kind of column.
    """

    title: str
    digits: int | None = 4
    signed: bool = False


def table(columns, rows, *, indent: int = 2) -> list[str]:
    """Lines of a text table: a header, then one line per row.

    Column widths follow the widest cell, so nothing is truncated; columns are separated by
    at least two spaces and no cell holds two spaces in a row, so ``re.split(r"\\s{2,}",
    line.strip())`` gives back the cells of every line.

    >>> print("\\n".join(table([Col("metric", None), Col("value"), Col("diff", signed=True)],
    ...                        [["mse", 1e9, -147.01111], ["r2", float("nan"), 0.5]])))
      metric  value       diff
      mse     1e+09  -147.0111
      r2        n/a    +0.5000
    """
    columns = [c if isinstance(c, Col) else Col(*c) for c in columns]
    text_rows = _text_cells(columns, rows)
    widths = [max([len(c.title), *(len(r[i]) for r in text_rows)]) for i, c in enumerate(columns)]

    def line(cells):
        parts = [t.ljust(w) if c.digits is None else t.rjust(w)
                 for t, w, c in zip(cells, widths, columns)]
        return (" " * indent + GAP.join(parts)).rstrip()

    return [line([c.title for c in columns]), *(line(r) for r in text_rows)]



#: The width a table's text fits by default: a terminal's, with room to spare.
WIDTH = 120


def fitted_table(columns, rows, width=WIDTH, *, indent: int = 0, text_below: bool = True):
    """:func:`table`'s lines no wider than ``width`` where that can be done, and what was
    moved or left out to get there: ``(lines, below, left_out)``.

    First a last column of text (a decision, notes) goes below the table, one
    ``"<first cell>: <text>"`` line per row that has some (``below``; not with
    ``text_below=False``); then columns are left out from the right, never the first two
    (``left_out`` names them, for the caller to say so). ``width=None``: the table as it is.

    >>> cols = [Col("model", None), Col("mean"), Col("p"), Col("decision", None)]
    >>> lines, below, left = fitted_table(cols, [["a", 0.5, 0.01, "keep the champion"]], 30)
    >>> lines, below, left
    (['model    mean       p', 'a      0.5000  0.0100'], ['a: keep the champion'], [])
    """
    columns = [c if isinstance(c, Col) else Col(*c) for c in columns]
    rows = [list(row) for row in rows]
    below, left_out = [], []

    def fits(lines):
        return width is None or max(map(len, lines)) <= width

    lines = table(columns, rows, indent=indent)
    if fits(lines) or len(columns) < 3:
        return lines, below, left_out
    if text_below and columns[-1].digits is None:
        below = [f"{row[0]}: {row[-1]}" for row in rows
                 if isinstance(row[-1], str) and row[-1].strip() and row[-1] != EMPTY]
        columns, rows = columns[:-1], [row[:-1] for row in rows]
        lines = table(columns, rows, indent=indent)
    while not fits(lines) and len(columns) > 2:
        left_out.insert(0, columns[-1].title)
        columns, rows = columns[:-1], [row[:-1] for row in rows]
        lines = table(columns, rows, indent=indent)
    return lines, below, left_out


def wrap(text, width=WIDTH) -> list[str]:
    """Lines of prose no wider than ``width``: the text's leading spaces start the first
    line, two more start the others; words are never cut.

    >>> wrap("  p: two-sided, the difference over its standard error", 30)
    ['  p: two-sided, the difference', '    over its standard error']
    """
    text = str(text)
    lead = text[: len(text) - len(text.lstrip(" "))]
    if width is None or len(text) <= width:
        return [text]
    return textwrap.wrap(text.strip(), width, initial_indent=lead,
                         subsequent_indent=lead + "  ", break_long_words=False,
                         break_on_hyphens=False) or [text]


def header_lines(parts, width=WIDTH) -> list[str]:
    """A header's parts joined by `` · ``, on as few lines as fit ``width`` (a part is never
    split across two lines unless it alone is too wide; the next lines start with two
    spaces).

    >>> header_lines(["model A", "228 rows scored", "judged against: the prior (0.63)"], 40)
    ['model A · 228 rows scored', '  judged against: the prior (0.63)']
    """
    lines, current = [], ""
    for part in map(str, parts):
        joined = f"{current} · {part}" if current.strip() else f"{current}{part}"
        if width is None or len(joined) <= width or not current.strip():
            current = joined
            continue
        lines.append(current)
        current = f"  {part}"
    lines.append(current)
    return [piece for line in lines for piece in wrap(line, width)]


def fitted_lines(columns, rows, width=WIDTH, *, indent: int = 0) -> list[str]:
    """:func:`table`'s lines, split into tables of the first column and as many of the next
    as fit ``width`` when the whole is wider: every cell is kept, each part is a table of its
    own (one header line, then its rows), the parts one under the other.

    >>> cols = [Col("slice", None), Col("rows"), Col("skill", 3), Col("verdict", None)]
    >>> print("\\n".join(fitted_lines(cols, [["north", 120, 0.61, "worse than the rest"]], 30)))
    slice  rows  skill
    north   120  0.610
    slice  verdict
    north  worse than the rest
    """
    columns = [c if isinstance(c, Col) else Col(*c) for c in columns]
    rows = [list(row) for row in rows]
    lines = table(columns, rows, indent=indent)
    if width is None or max(map(len, lines)) <= width or len(columns) < 3:
        return lines
    out, start = [], 1
    while start < len(columns):
        stop = start + 1  # at least one column beside the first, however wide
        while stop < len(columns):
            pick = [0, *range(start, stop + 1)]
            trial = table([columns[i] for i in pick], [[r[i] for i in pick] for r in rows],
                          indent=indent)
            if max(map(len, trial)) > width:
                break
            stop += 1
        pick = [0, *range(start, stop)]
        out += table([columns[i] for i in pick], [[r[i] for i in pick] for r in rows],
                     indent=indent)
        start = stop
    return out


def _text_cells(columns, rows) -> list:
    """The text of every cell, a column's numbers in one format (:func:`fixed_decimals`)."""
    rows = [list(row) for row in rows]
    for row in rows:
        if len(row) != len(columns):
            msg = f"table row has {len(row)} cells for {len(columns)} columns."
            raise ValueError(msg)
    fixed = [c.digits is not None and fixed_decimals([r[j] for r in rows], c.digits)
             for j, c in enumerate(columns)]
    return [[_cell_text(v, c, f) for v, c, f in zip(row, columns, fixed)] for row in rows]


def _cell_text(value, col: Col, fixed: bool = False) -> str:
    if isinstance(value, str):
        text = value
    elif col.digits is None:
        text = NA if value is None else str(value)
    else:
        text = fmt(value, col.digits, signed=col.signed, fixed=fixed)
    # Two spaces separate columns, so a cell never holds two in a row.
    text = " ".join(text.split())
    return text or EMPTY


def rates(values, classes=None) -> str:
    """Class rates for humans: ``ant 0.250, bee 0.300, cat 0.450`` (bare numbers without
    labels)."""
    values = np.asarray(values, dtype=float)
    if classes is None or len(classes) != values.shape[0]:
        return "[" + " ".join(fmt(v, 3) for v in values) + "]"
    return ", ".join(f"{label} {fmt(v, 3)}" for label, v in zip(classes, values))


def _rate(report, key="base_rate") -> str:
    rate = np.asarray(report.get(key, np.nan), dtype=float)
    if rate.ndim == 0:
        return fmt(rate, 3)
    if rate.size == 2 and key == "reference_prior":
        return fmt(rate[1], 3)  # binary: the rate of the positive class, as the base rate
    return rates(rate, report.get("classes"))


def _from_baseline(report) -> bool:
    """True when the reference comes from baseline targets rather than the scored y."""
    return str(report.get("reference", "")).endswith("of baseline")


def _header(report) -> str:
    parts = [f"n {report['n']:,}"]
    if "positives" in report and np.ndim(report.get("base_rate")) == 0:
        parts.append(f"positives {count(report['positives'])}")
    parts.append(f"judged against: {report.get('reference', NA)}")
    return " · ".join(parts)


def _format_classification(report, header: bool) -> list[str]:
    has_proba = not math.isnan(float(report.get("log_loss", np.nan)))
    note = report.get("note", NO_PROBA)
    rate = f"base rate {_rate(report)}"
    if has_proba and _from_baseline(report):
        # The base rate describes the scored rows; the reference loss comes from the
        # baseline's prior, a different number: both are named.
        rate += f" | baseline prior {_rate(report, 'reference_prior')}"
    if has_proba:
        lines = [
            f"log loss {fmt(report['log_loss'])} | {rate} | "
            f"reference {fmt(report['log_loss_ref'])} | skill {fmt(report['log_loss_skill'], 3)}",
            *([_header(report)] if header else []),
            "",
            *table(
                # The label column as wide as the labels of the lines below it.
                [Col(f"{'proper score':<14}", None), Col("loss"), Col("reference"),
                 Col("skill", 3)],
                [[label, report[key], report[key + "_ref"], report[key + "_skill"]]
                 for label, key in (("log loss", "log_loss"), ("Brier (sum)", "brier"))],
                indent=0,
            ),
            f"{'calibration':<16}MCB {fmt(report['calibration_mcb'])}   "
            f"DSC {fmt(report['discrimination_dsc'])}   UNC {fmt(report['uncertainty_unc'])}",
        ]
        if "calibration_excess" in report:
            # The in-sample MCB next to what a calibrated forecast would show on these rows,
            # the estimate of the population MCB and the calibration test.
            lines.append(
                f"{'':<16}noise floor {fmt(report['calibration_noise_floor'])}   "
                f"excess {fmt(report['calibration_excess'], signed=True)}   "
                f"calibration test p = {fmt_p(report['calibration_pvalue'])}")
        if "recalibration_slope" in report:
            # Cox's intercept and slope (0 and 1 when calibrated) and their score test:
            # more power than the MCB test against over- or under-confidence.
            lines.append(
                f"{'':<16}recalibration intercept "
                f"{fmt(report['recalibration_intercept'], 2, signed=True)}   slope "
                f"{fmt(report['recalibration_slope'], 2)}   test p = "
                f"{fmt_p(report['recalibration_pvalue'])}")
    else:
        lines = [
            f"log loss {note} | {rate}",
            *([_header(report)] if header else []),
            "",
            f"{'proper scores':<16}{note}",
            f"{'calibration':<16}{note}",
        ]
    ranking = f"{'ranking':<16}ROC AUC {fmt(report.get('roc_auc'))}   PR AUC {fmt(report.get('pr_auc'))}"
    if "pr_auc_lift" in report:
        ranking += f" (lift {fmt(report['pr_auc_lift'], 2)}x base rate)"
    lines.append(ranking)
    lines.append(
        f"{'threshold':<16}accuracy {fmt(report.get('accuracy'))}   balanced accuracy "
        f"{fmt(report.get('balanced_accuracy'))}   F1 macro {fmt(report.get('f1_macro'))}"
    )
    if "recall_at_k" in report:
        lines.append(
            f"{'top k':<16}recall@k {fmt(report['recall_at_k'])}   precision@k "
            f"{fmt(report['precision_at_k'])}"
        )
    return lines


def _format_regression(report, header: bool) -> list[str]:
    # The skill is judged against a constant: the mean (median) of y, or of the baseline
    # targets. With a baseline both means are shown, each under its own name, and the skill
    # against the baseline's mean is not called r2: r2 is scikit-learn's, against the mean of
    # y, and is shown beside it under that name.
    skill = report.get("mse_skill", report["r2"])
    if _from_baseline(report):
        means = (f"mean of y {fmt(report['mean_y'])} | baseline mean "
                 f"{fmt(report['baseline_mean'])}")
        mean, median = "baseline mean", "baseline median"
        headline = f"skill vs baseline mean {fmt(skill, 3)}"
        rmse_note = f"(r2, against the mean of y: {fmt(report['r2'], 3)})"
    else:
        means = f"mean of y {fmt(report['mean_y'])}"
        mean, median = "mean of y", "median of y"
        headline = f"skill (r2) {fmt(skill, 3)}"
        rmse_note = "(skill: r2)"
    return [
        f"RMSE {fmt(report['rmse'])} | {means} | reference {fmt(report['rmse_ref'])} | "
        f"{headline}",
        *([_header(report)] if header else []),
        "",
        *table(
            [Col("loss", None), Col("value"), Col("reference"), Col("skill", 3),
             Col("reference forecast", None)],
            [["RMSE", report["rmse"], report["rmse_ref"], skill,
              f"{mean} {fmt(report['baseline_mean'])} {rmse_note}"],
             ["MAE", report["mae"], report["mae_ref"], report["mae_skill"],
              f"{median} {fmt(report['baseline_median'])}"]],
            indent=0,
        ),
    ]


def report_lines(report, header: bool = True) -> list[str]:
    """The lines of :func:`format_report`; ``header=False`` leaves out the line with the row
    count and the reference (for callers that print their own header)."""
    if not hasattr(report, "keys"):
        msg = f"report must be a dict from classification_report or regression_report, got {type(report).__name__}."
        raise TypeError(msg)
    if "rmse" in report:
        return _format_regression(report, header)
    if "roc_auc" in report or "accuracy" in report:
        return _format_classification(report, header)
    msg = "report has neither 'rmse' nor 'roc_auc'/'accuracy': not a report dict."
    raise ValueError(msg)


@public(legacy=("title",))
def format_report(report, *, title=None) -> str:
    """Fixed-width text of a classification or regression report dict.

    Classification starts with the four-number line: log loss, base rate, reference loss,
    skill. Regression starts with RMSE, the mean of y, the reference RMSE and the skill
    against the mean (r2). When the reference comes from baseline targets, the line also
    names the number the reference is built from (``baseline prior``, ``baseline mean``),
    next to the scored rows' base rate or mean; a regression's skill is then "skill vs
    baseline mean" (``mse_skill``), and r2 -- scikit-learn's, against the mean of y -- is
    shown beside it under its own name. NaN prints as ``n/a``; a classification report without probabilities says so
    instead of a number.
    """
    lines = report_lines(report)
    if title:
        lines = [str(title), "=" * len(str(title)), *lines]
    return "\n".join(lines)


def markdown_table(columns, rows) -> list[str]:
    """Lines of a GitHub-flavoured markdown table of the cells :func:`table` prints (numbers
    right-aligned, text left; a ``|`` in a cell is escaped).

    >>> print("\\n".join(markdown_table([Col("slice", None), Col("skill", 3)],
    ...                                 [["a|b", 0.12345]])))
    | slice | skill |
    | --- | ---: |
    | a\\|b | 0.123 |
    """
    columns = [c if isinstance(c, Col) else Col(*c) for c in columns]

    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    align = ["---" if c.digits is None else "---:" for c in columns]
    return [line([c.title for c in columns]), line(align),
            *(line([_cell_text(v, c) for v, c in zip(row, columns)]) for row in rows)]


#: Keys whose numbers are counts of rows: a whole one is an int in JSON (``"positives": 143``,
#: not ``143.0``); a weighted count that is not whole stays a float.
COUNT_KEYS = frozenset({"n", "rows", "positives", "negatives", "events", "flagged", "n_boot",
                        "tp", "fp", "tn", "fn"})


def json_ready(value, key=None):
    """``value`` in JSON's types, for ``json.dumps(..., allow_nan=False)``: numpy to Python,
    tuples to lists, NaN and infinities to None, a whole count (a key of :data:`COUNT_KEYS`,
    or its ``_low`` / ``_high`` bound) to an int.

    >>> json_ready({"positives": np.float64(143.0), "weighted": {"positives": 71.5},
    ...             "skill": np.float64(0.5), "p": float("nan"), "k": (1, 2)})
    {'positives': 143, 'weighted': {'positives': 71.5}, 'skill': 0.5, 'p': None, 'k': [1, 2]}
    """
    if isinstance(value, dict):
        return {str(k): json_ready(v, str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v, key) for v in value]
    if isinstance(value, np.ndarray):
        return json_ready(value.tolist(), key)
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        stem = key.removesuffix("_low").removesuffix("_high") if key else None
        if stem in COUNT_KEYS and value == round(value):
            return int(value)
    return value
