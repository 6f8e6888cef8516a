"""Jupyter renders reports, comparisons and holdout tables as HTML tables laid out as their
text: the headline as a heading, the text's groups as sections, numbers right-aligned in
cells of their own with their intervals beside (or below) them, every label escaped.
tests/shared/test_html_in_a_browser.py lays the same HTML out in a browser."""

import re
from html.parser import HTMLParser

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression

from chimeraboost import compare, report
from chimeraboost._shared.format import Col, fmt, report_lines
from chimeraboost._shared.html import CSS, html_table


class _Page(HTMLParser):
    """Tags in order; every cell as (tag, style, text, class); headings, row-group labels,
    the text of every table, and the whole text."""

    def __init__(self, text):
        super().__init__()
        self.tags, self.cells, self.headings, self.groups = [], [], [], []
        self.tables, self.text = [], ""
        self._cell = self._heading = self._group = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "table":
            self.tables.append("")
        if tag in ("td", "th"):
            self._cell = [tag, attrs.get("style", ""), "", attrs.get("class", "")]
            if attrs.get("scope") == "rowgroup":
                self._group = ""
        if tag == "h4":
            self._heading = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append(tuple(self._cell))
            self._cell = None
            if self._group is not None:
                self.groups.append(self._group)
                self._group = None
        if tag == "h4":
            self.headings.append(self._heading)
            self._heading = None

    def handle_data(self, data):
        if self.lasttag == "style":
            return
        self.text += data + " "
        if self.tables:
            self.tables[-1] += data + " "
        for part in ("_cell", "_heading", "_group"):
            value = getattr(self, part)
            if isinstance(value, list):
                value[2] += data
            elif value is not None:
                setattr(self, part, value + data)


def _is_number(text):
    try:
        float(text.replace("+", ""))
    except ValueError:
        return False
    return True


def _check(text):
    page = _Page(text)
    assert "pre" not in page.tags and "table" in page.tags and "th" in page.tags
    numbers = [(style, t) for tag, style, t, _ in page.cells
               if tag == "td" and _is_number(t.split("[")[0])]
    assert numbers and all("text-align:right" in style and "white-space:nowrap" in style
                           for style, _ in numbers)
    # One scoped style sheet: every rule starts with the block's class.
    assert text.startswith('<div class="cb-html"><style>') and CSS in text
    selectors = [s for rule in re.findall(r"(?:^|})([^{}]+)\{", CSS) for s in rule.split(",")]
    assert len(selectors) > 5 and all(s.startswith("div.cb-html") for s in selectors)
    return page


def _numbers(text):
    return re.findall(r"[-+]?\d+\.\d+(?:e[-+]\d+)?", text)


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=300, n_features=5, random_state=0)
    return X[:150], y[:150], X[150:], y[150:]


def test_html_table_formats_and_escapes_like_the_text_table():
    text = html_table([Col("label", None), Col("value"), Col("diff", signed=True)],
                      [["<b>a & b</b>", 0.5, -0.25], ["n", float("nan"), 1e-9]],
                      caption="<i>caption</i>")
    assert "<b>a" not in text and "&lt;b&gt;a &amp; b&lt;/b&gt;" in text
    assert "&lt;i&gt;caption&lt;/i&gt;" in text
    page = _Page(text)
    values = [t for tag, _, t, _ in page.cells if tag == "td"]
    # 1e-9 beside -0.25: in the column's format (+0.0000), as the text table prints it.
    assert values == ["<b>a & b</b>", fmt(0.5), fmt(-0.25, signed=True), "n", "n/a",
                      "+0.0000"]
    with pytest.raises(ValueError, match="2 cells for 3 columns"):
        html_table([Col("a"), Col("b"), Col("c")], [[1, 2]])


def test_html_table_intervals_beside_or_below_under_one_title():
    columns = [Col("model", None), Col("skill", 3, signed=True)]
    rows = [["a", (0.25, 0.125, 0.375)], ["b", (float("nan"),) * 3], ["c", "—"]]
    beside = _Page(html_table(columns, rows))
    assert [c[2] for c in beside.cells if c[0] == "th"] == ["model", "skill"]
    assert '<th colspan=2 style="text-align:right' in html_table(columns, rows)
    assert [c[2] for c in beside.cells if c[0] == "td"] == [
        "a", "+0.250", "[+0.125, +0.375]", "b", "n/a", "", "c", "—", ""]
    below = html_table(columns, rows, stacked=True)
    assert "colspan" not in below
    assert ('+0.250<br><span class="cb-ci">[+0.125, +0.375]</span>' in below)
    sections = html_table([Col("group", None), Col("metric", None), Col("value")],
                          [["x", 1.0], ["y", 2.0], ["z", 3.0]],
                          sections=[("first", 2), ("second", 1)])
    page = _Page(sections)
    assert page.groups == ["first", "second"] and sections.count("<tbody>") == 2
    assert 'rowspan=2' in sections


def test_report_html_is_grouped_as_its_text_with_intervals_beside_the_numbers(data):
    X_tr, y_tr, X_te, y_te = data
    model = LogisticRegression().fit(X_tr, y_tr)
    base = LogisticRegression(C=0.001).fit(X_tr, y_tr)
    r = report(model, X_te, y_te, baseline=base, ci=0.95, n_boot=1000, random_state=0,
               name="<b>model</b>", baseline_name="old & tired")
    text = r._repr_html_()
    page = _check(text)
    assert page.headings[0] == r.headline()
    assert "<b>model" not in text and "&lt;b&gt;model&lt;/b&gt;" in text
    # The text's layout: the proper-score table, then its groups in the text's order.
    lines = report_lines(dict(r), header=False)
    # (A line that starts with spaces continues its group: the calibration test's line.)
    text_groups = [line.split()[0] for line in lines[5:] if not line[:1].isspace()]
    assert text_groups == ["calibration", "ranking", "threshold"]
    assert page.groups == [*text_groups, "rows"]
    titles = [t for tag, _, t, _ in page.cells if tag == "th" and t]
    assert titles[:4] == ["proper score", "loss", "reference", "skill"]
    # Every number of the text's report lines is in the HTML, table by table.
    proper, groups = page.tables[0], page.tables[1]
    for line in lines[3:5]:
        assert set(_numbers(line)) <= set(_numbers(proper)), line
    for line in lines[5:]:
        assert set(_numbers(line)) <= set(_numbers(groups)), line
    # Each interval of the text's interval table sits in the cell beside its number.
    cells = [c[2] for c in page.cells]
    for key, label in (("brier_skill", "Brier (sum)"), ("roc_auc", "ROC AUC"),
                       ("calibration_excess", "excess (population MCB)")):
        lo, hi = r.ci[key]
        assert f"[{fmt(lo, 3 if key.endswith('skill') else 4)}, " \
               f"{fmt(hi, 3 if key.endswith('skill') else 4)}]" in cells, key
    i = cells.index("ROC AUC")
    assert cells[i + 1:i + 3] == [fmt(r["roc_auc"]), f"[{fmt(r.ci['roc_auc'][0])}, "
                                                     f"{fmt(r.ci['roc_auc'][1])}]"]
    # The level is said once; no column is titled low or high outside the comparison.
    assert page.text.count("95% bootstrap intervals") == 1
    assert {"difference", "verdict", "baseline"} <= set(titles)
    assert "DeLong" in text
    assert str(r).startswith(r.header())  # the text is untouched


def test_report_html_of_a_model_without_probabilities_and_of_a_regressor(data):
    from sklearn.svm import LinearSVC

    X_tr, y_tr, X_te, y_te = data
    r = report(LinearSVC().fit(X_tr, y_tr), X_te, y_te)
    page = _check(r._repr_html_())
    assert page.groups == ["proper scores", "calibration", "ranking", "threshold"]
    assert "the model gives no probabilities" in page.tables[0]
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = X @ [3.0, 1.0] + rng.normal(size=200)
    r = report(LinearRegression().fit(X[:100], y[:100]), X[100:], y[100:], ci=0.95,
               n_boot=1000, random_state=0)
    page = _check(r._repr_html_())
    cells = [c[2] for c in page.cells]
    i = cells.index("RMSE")
    assert cells[i + 1:i + 3] == [fmt(r["rmse"]), f"[{fmt(r.ci['rmse'][0])}, "
                                                  f"{fmt(r.ci['rmse'][1])}]"]
    # The MSE has an interval in the text and no row in its table: it is still shown.
    assert "MSE" in cells and f"[{fmt(r.ci['mse'][0])}, {fmt(r.ci['mse'][1])}]" in cells
    for line in report_lines(dict(r), header=False)[:5]:
        assert set(_numbers(line)) <= set(_numbers(page.text)), line
    assert "(skill: r2)" in page.text
    # Against the training mean the skill is not scikit-learn's r2, and is not named so.
    r = report(LinearRegression().fit(X[:100], y[:100]), X[100:], y[100:], baseline=y[:100])
    page = _check(r._repr_html_())
    # Its skill is mse_skill, headed "skill vs baseline mean"; r2 (against the mean of y) is
    # named beside it, as in the text.
    assert r.headline().endswith(f"skill vs baseline mean {fmt(r['mse_skill'], 3)}")
    assert f"(r2, against the mean of y: {fmt(r['r2'], 3)})" in page.text


def test_holdout_table_html_says_the_level_once(data):
    X_tr, y_tr, X_te, y_te = data
    model = LogisticRegression().fit(X_tr, y_tr)
    rule = (X_te[:, 0] > 0).astype(int)
    t = compare.holdout_table({"<rule>": rule, "logreg": model}, X_te, y_te, n_boot=1000,
                              random_state=0)
    text = t._repr_html_()
    page = _check(text)
    assert page.headings == [t.header()]
    assert "<rule>" not in text and "&lt;rule&gt;" in text
    titles = [tt for tag, _, tt, _ in page.cells if tag == "th"]
    # The primary metric first, then its paired difference and the decision, the others.
    others = [k for k in t.metrics if k != t.primary]
    assert titles == ["model", t.primary, f"{t.primary} vs {t.baseline}", "beats", *others,
                      "notes"]
    assert "low" not in " ".join(titles) and page.text.count("95%") == 2  # the footer's two
    cells = [c[2] for c in page.cells]
    r, p = t.rows["logreg"], t.primary
    i = cells.index("logreg")
    assert cells[i + 1] == f"{fmt(r[p], 3)}[{fmt(r[p + '_low'], 3)}, {fmt(r[p + '_high'], 3)}]"
    assert cells[i + 2] == (f"{fmt(r['difference'], signed=True)}[{fmt(r['diff_low'], signed=True)}"
                            f", {fmt(r['diff_high'], signed=True)}]")


def test_comparison_result_html(data):
    X_tr, y_tr, _, _ = data
    result = compare.compare_cv({"<dummy>": DummyClassifier(), "logreg": LogisticRegression()},
                                X_tr, y_tr, scoring="roc_auc", cv=3, random_state=0)
    text = result._repr_html_()
    page = _check(text)
    assert page.headings == [str(result).splitlines()[0]]
    assert "<dummy>" not in text and "&lt;dummy&gt;" in text
    cells = [c[2] for c in page.cells]
    i = cells.index("logreg")
    assert cells[i + 1] == fmt(result.mean("logreg"))
    c = result.challengers["logreg"]
    assert cells[i + 3] == (f"{fmt(c.difference, signed=True)}[{fmt(c.ci.low, signed=True)}, "
                            f"{fmt(c.ci.high, signed=True)}]")
    assert np.isfinite(result.mean("logreg"))


def test_dataset_comparison_and_holdout_comparison_html(data):
    X_tr, y_tr, X_te, y_te = data
    rng = np.random.default_rng(0)
    res = compare.compare_datasets(rng.normal(size=(10, 3)) + np.arange(3),
                                   models=["<a>", "b", "c"])
    text = res._repr_html_()
    page = _check(text)
    assert page.headings == [str(res).splitlines()[0]]
    assert "&lt;a&gt;" in text and "<a>" not in text
    for line in str(res).splitlines()[1:]:
        assert set(_numbers(line)) <= set(_numbers(page.text)), line
    cmp = compare.compare_holdout(LogisticRegression(C=0.001).fit(X_tr, y_tr),
                                  LogisticRegression().fit(X_tr, y_tr), X_te, y_te,
                                  n_boot=1000, random_state=0)
    page = _check(cmp._repr_html_())
    assert page.headings == [str(cmp).splitlines()[0], cmp.report.headline()]
    assert f"decision: {cmp.decision}" in page.text


def test_the_legend_explains_what_the_report_shows_in_text_and_html():
    X, y = make_classification(n_samples=300, random_state=0)
    model = LogisticRegression().fit(X[:150], y[:150])
    r = report(model, X[150:], y[150:], ci=0.95, n_boot=1000, random_state=0)
    text = str(r)
    legend = text.split("\n\n")[-1]
    assert legend.startswith("Legend: ")
    # Every abbreviation the report prints is in its legend...
    for term in ("Brier (sum)", "MCB", "DSC", "UNC", "noise floor", "excess", "expanded BCa"):
        assert term in text.split("\n\nLegend: ")[0] and term in legend, term
    assert all(len(line) <= 120 for line in text.splitlines())
    assert "Legend: Brier (sum)" in r._repr_html_()
    # ...and no more: a regression without intervals has no Brier, no MCB, no interval.
    Xr = X[:, :3]
    yr = Xr @ np.array([1.0, -2.0, 0.5])
    reg = report(LinearRegression().fit(Xr, yr), Xr, yr + 0.1)
    assert "Legend" not in str(reg) and not reg.legend()
