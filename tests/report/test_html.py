"""Jupyter renders reports, comparisons and holdout tables as HTML tables: the headline as a
heading, numbers right-aligned in cells of their own, every label escaped."""

from html.parser import HTMLParser

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression

from chimeraboost import compare, report
from chimeraboost._shared.format import Col, fmt, html_table


class _Page(HTMLParser):
    """Tags in order, and every cell as (tag, style, text)."""

    def __init__(self, text):
        super().__init__()
        self.tags, self.cells, self.headings, self._cell = [], [], [], None
        self._heading = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag in ("td", "th"):
            self._cell = [tag, dict(attrs).get("style", ""), ""]
        if tag == "h4":
            self._heading = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append(tuple(self._cell))
            self._cell = None
        if tag == "h4":
            self.headings.append(self._heading)
            self._heading = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[2] += data
        if self._heading is not None:
            self._heading += data


def _is_number(text):
    try:
        float(text.replace("+", ""))
    except ValueError:
        return False
    return True


def _check(text):
    page = _Page(text)
    assert "pre" not in page.tags and "table" in page.tags and "th" in page.tags
    numbers = [(style, t) for tag, style, t in page.cells if tag == "td" and _is_number(t)]
    assert numbers and all("text-align:right" in style for style, _ in numbers)
    return page


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
    page = _check(text)
    values = [t for tag, _, t in page.cells if tag == "td"]
    # 1e-9 beside -0.25: in the column's format (+0.0000), as the text table prints it.
    assert values == ["<b>a & b</b>", fmt(0.5), fmt(-0.25, signed=True), "n", "n/a",
                      "+0.0000"]
    with pytest.raises(ValueError, match="2 cells for 3 columns"):
        html_table([Col("a"), Col("b"), Col("c")], [[1, 2]])


def test_report_html_heading_is_the_headline_and_intervals_have_columns(data):
    X_tr, y_tr, X_te, y_te = data
    model = LogisticRegression().fit(X_tr, y_tr)
    base = LogisticRegression(C=0.001).fit(X_tr, y_tr)
    r = report(model, X_te, y_te, baseline=base, ci=0.95, n_boot=1000, random_state=0,
               name="<b>model</b>", baseline_name="old & tired")
    text = r._repr_html_()
    page = _check(text)
    assert page.headings[0] == r.headline()
    assert "<b>model" not in text and "&lt;b&gt;model&lt;/b&gt;" in text
    titles = [t for tag, _, t in page.cells if tag == "th"]
    assert titles[:4] == ["metric", "value", "low", "high"]
    assert {"difference", "verdict", "baseline"} <= set(titles)
    cells = [t for _, _, t in page.cells]
    i = cells.index("brier_skill")
    lo, hi = r.ci["brier_skill"]
    assert cells[i + 1:i + 4] == [fmt(r["brier_skill"]), fmt(lo), fmt(hi)]
    assert "DeLong" in text
    assert str(r).startswith(r.header())  # the text is untouched


def test_holdout_table_html_gives_each_interval_its_own_columns(data):
    X_tr, y_tr, X_te, y_te = data
    model = LogisticRegression().fit(X_tr, y_tr)
    rule = (X_te[:, 0] > 0).astype(int)
    t = compare.holdout_table({"<rule>": rule, "logreg": model}, X_te, y_te, n_boot=1000,
                              random_state=0)
    text = t._repr_html_()
    page = _check(text)
    assert page.headings == [t.header()]
    assert "<rule>" not in text and "&lt;rule&gt;" in text
    titles = [tt for tag, _, tt in page.cells if tag == "th"]
    assert len(titles) == 1 + 3 * len(t.metrics) + 5
    cells = [c for _, _, c in page.cells]
    i = cells.index("logreg")
    r, p = t.rows["logreg"], t.primary  # the primary first, then its difference
    assert cells[i + 1:i + 5] == [fmt(r[p], 3), fmt(r[f"{p}_low"], 3), fmt(r[f"{p}_high"], 3),
                                  fmt(r["difference"], signed=True)]


def test_comparison_result_html(data):
    X_tr, y_tr, _, _ = data
    result = compare.compare_cv({"<dummy>": DummyClassifier(), "logreg": LogisticRegression()},
                                X_tr, y_tr, scoring="roc_auc", cv=3, random_state=0)
    text = result._repr_html_()
    page = _check(text)
    assert page.headings == [str(result).splitlines()[0]]
    assert "<dummy>" not in text and "&lt;dummy&gt;" in text
    cells = [c for _, _, c in page.cells]
    i = cells.index("logreg")
    assert cells[i + 1] == fmt(result.mean("logreg"))
    assert np.isfinite(result.mean("logreg"))
