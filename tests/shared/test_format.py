"""One formatter for every text table: numbers, NaN, columns, and the labels next to them.

Every table chimeraboost prints is fed huge (1e9), tiny and negative values and NaN; each line
must split back into as many cells as its header, each number must round-trip to the
precision it is printed with, and NaN must print as "n/a".
"""

import inspect
import math
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from chimeraboost import ReportMixin, compare, metrics, quantile_metrics, report
from chimeraboost._shared.format import NA, Col, count, fmt, fmt_p, table
from chimeraboost._report import Report
from chimeraboost.compare import ChallengerResult, ComparisonResult, HoldoutComparison
from chimeraboost.resampling import ConfidenceInterval, DeLongResult

# Values that broke fixed-width columns: huge, tiny, negative, a regression paired table's
# "-147.0111 +1009.1439", and NaN.
AWKWARD = [1e9, -1.23456789e9, 3.2e-7, -4.6e-4, -147.0111, 1009.1439, 0.0, 0.5, math.nan]
NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$|^[+-]?inf$")


def cells(line: str) -> list[str]:
    """The cells of one table line: columns are separated by two spaces or more."""
    return re.split(r"\s{2,}", line.strip())


def precision(text: str) -> float:
    """Half a unit in the last printed digit: how far the printed number may be from the
    value."""
    mantissa, _, exponent = text.lstrip("+-").partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def assert_shows(text: str, value) -> None:
    """``text`` is ``value`` to its printed precision (or n/a for NaN / None)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        assert text == NA, (text, value)
        return
    assert NUMBER.match(text), text
    tol = precision(text) * (1 + 1e-9) + 1e-300
    assert abs(float(text) - value) <= tol, (text, value)


def table_at(lines: list[str], title: str, n_rows=None) -> tuple[list[str], list[list[str]]]:
    """The header cells and the row cells of the table whose header starts with ``title``:
    ``n_rows`` rows, or those up to the next blank or footnote line."""
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(title))
    header = cells(lines[start])
    rows = []
    for line in lines[start + 1:] if n_rows is None else lines[start + 1:start + 1 + n_rows]:
        if not line.strip() or line.strip().startswith(("DeLong", "left out:")):
            break
        rows.append(cells(line))
    assert rows and len(rows) == (n_rows or len(rows)), f"rows under {title!r}: {rows}"
    for row in rows:
        assert len(row) == len(header), (header, row)
    return header, rows


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("value", [*AWKWARD, -math.nan, 1.0 - 1e-12, 999999.99999, 1e-300, 7])
@pytest.mark.parametrize("digits", [2, 3, 4])
@pytest.mark.parametrize("signed", [False, True])
def test_fmt_round_trips_to_its_printed_precision(value, digits, signed):
    text = fmt(value, digits, signed=signed)
    assert_shows(text, value)
    assert " " not in text and len(text) <= 12
    if signed and not (isinstance(value, float) and math.isnan(value)) and value >= 0:
        assert text.startswith("+")


def test_fmt_keeps_significant_digits_at_both_ends():
    # Fixed decimals would print a tiny MSE as 0.0000 and cut digits off a huge one.
    assert fmt(3.2e-7) == "3.2e-07" and fmt(-4.6e-4) == "-0.0005" and fmt(4e-5) == "4e-05"
    assert fmt(1234567890.0) == "1.23457e+09" and fmt(3750.55161) == "3750.5516"
    assert fmt(np.int64(12)) == "12" and "np." not in fmt(np.float64(0.25))
    assert fmt(None) == fmt(math.nan) == fmt(np.float32("nan")) == NA
    assert fmt(math.inf, signed=True) == "+inf"


def test_counts_in_prose():
    # A weighted count need not be whole; a whole one prints with thousands separators.
    assert count(143.0) == "143" and count(np.int64(1234567)) == "1,234,567"
    assert count(2.5) == "2.5000" and count(math.nan) == NA


def test_p_values():
    assert fmt_p(0.0312) == "0.0312" and fmt_p(3.2e-7) == "3.2e-07" and fmt_p(math.nan) == NA
    assert fmt_p(0.0) == "0.0000" and fmt_p(1.0) == "1.0000"  # a point-mass posterior
    assert_shows(fmt_p(3.2e-7), 3.2e-7)


def test_table_separates_columns_whatever_the_values():
    columns = [Col("metric", None), Col("value"), Col("difference", signed=True),
               Col("skill", 3), Col("verdict", None)]
    rows = [[f"m{i}", v, -v, v / 7, "no clear difference"] for i, v in enumerate(AWKWARD)]
    lines = table(columns, rows)
    header, parsed = table_at(lines, "metric")
    assert header == ["metric", "value", "difference", "skill", "verdict"]
    for row, (name, v, d, s, verdict) in zip(parsed, rows):
        assert row[0] == name and row[4] == verdict
        assert_shows(row[1], v)
        assert_shows(row[2], d)
        assert_shows(row[3], s)
    # Numbers are right-aligned under their header: the last characters line up.
    ends = {len(line) - len(line.lstrip()) + line.strip().find(cell) + len(cell)
            for line, cell in zip(lines[1:], [r[1] for r in parsed])}
    assert len(ends) == 1


def test_table_rejects_ragged_rows_and_never_lets_cells_touch():
    with pytest.raises(ValueError, match="table row has 1 cells for 2 columns"):
        table([Col("a", None), Col("b")], [["x"]])
    lines = table([Col("a", None), Col("b", None)], [["two  spaces", ""]])
    assert cells(lines[1]) == ["two spaces", "—"]


# --------------------------------------------------------------------------- report dicts


def _classification_dict(**override):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    p = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.1, 200), 0.01, 0.99)
    r = dict(metrics.classification_report(y, np.column_stack([1 - p, p]), [0, 1]))
    r.update(override)
    return r


@pytest.mark.parametrize("value", AWKWARD)
def test_classification_table(value):
    r = _classification_dict(brier=value, brier_ref=-value, log_loss_skill=value)
    lines = metrics.format_report(r).splitlines()
    header, rows = table_at(lines, "proper score", n_rows=2)
    assert header == ["proper score", "loss", "reference", "skill"]
    assert rows[0][0] == "log loss" and rows[1][0] == "Brier (sum)"
    assert_shows(rows[0][1], r["log_loss"])
    assert_shows(rows[0][3], value)
    assert_shows(rows[1][1], value)
    assert_shows(rows[1][2], -value)
    assert "nan" not in "\n".join(lines).lower()


@pytest.mark.parametrize("value", AWKWARD)
def test_regression_table(value):
    r = dict(metrics.regression_report([1.0, 2.0, 4.0, 8.0], [1.5, 2.0, 3.0, 9.0]))
    r.update(rmse=value, mae_ref=-value, r2=value, mse_skill=value, baseline_median=value)
    lines = metrics.format_report(r).splitlines()
    header, rows = table_at(lines, "loss")
    assert header == ["loss", "value", "reference", "skill", "reference forecast"]
    assert_shows(rows[0][1], value)
    assert_shows(rows[0][3], value)
    assert_shows(rows[1][2], -value)
    assert_shows(rows[1][4].rpartition(" ")[2], value)


@pytest.mark.parametrize("value", AWKWARD)
def test_quantile_tables(value):
    rng = np.random.default_rng(1)
    y = rng.normal(size=300)
    pred = np.quantile(y, [0.1, 0.5, 0.9])[None, :] + rng.normal(0, 0.1, (300, 3))
    r = quantile_metrics.quantile_report(y, pred, [0.1, 0.5, 0.9])
    r["pinball"] = [value, -value, 0.25]
    r["intervals"] = [{**r["intervals"][0], "mean_width": value, "interval_score": -value}]
    r["crossing_rate"], r["crps_ref"] = value, value
    lines = quantile_metrics.format_report(r).splitlines()
    header, rows = table_at(lines, "level")
    assert header == ["level", "pinball"] and [row[0] for row in rows] == ["0.1", "0.5", "0.9"]
    for row, expected in zip(rows, r["pinball"]):
        assert_shows(row[1], expected)
    header, rows = table_at(lines, "interval")
    assert header == ["interval", "nominal", "coverage", "width", "int. score"]
    assert rows[0][0] == "0.1-0.9"
    assert_shows(rows[0][1], r["intervals"][0]["nominal"])
    assert_shows(rows[0][3], value)
    assert_shows(rows[0][4], -value)
    header, rows = table_at(lines, "summary")
    summary = dict(rows)
    assert summary["rows"] == "300"
    assert_shows(summary["crossing rate"], value)
    assert_shows(summary["reference: quantiles of y"], value)
    assert_shows(summary["CRPS skill"], r["crps_skill"])
    # One number style in the headline too: the formatter's, not %g next to fixed decimals.
    assert lines[1].startswith(f"mean pinball {fmt(r['crps'])} | reference {fmt(value)} ")


# --------------------------------------------------------------------------- Report tables


def _regression_report(value):
    values = dict(metrics.regression_report([1.0, 2.0, 4.0, 8.0], [1.5, 2.0, 3.0, 9.0]))
    values.update(mse=value, rmse=-value, r2=0.25)
    base = Report(dict(values, mse=2 * value if not math.isnan(value) else 1.0), "Ridge",
                  "regression", "y")
    ci = {"mse": ConfidenceInterval(-value, value), "r2": ConfidenceInterval(math.nan, 0.5),
          "rmse": ConfidenceInterval(value, 1e9)}
    vs = {"mse": (-147.0111, -value, 1009.1439), "r2": (value, math.nan, value)}
    return Report(values, "ChimeraBoostRegressor", "regression", "y", ci=ci, ci_level=0.95,
                  n_boot=2000, n_dropped={"r2": 3}, vs_baseline=vs, baseline_report=base)


@pytest.mark.parametrize("value", AWKWARD)
def test_report_interval_and_paired_tables(value):
    rep = _regression_report(value)
    lines = str(rep).splitlines()
    header, rows = table_at(lines, "metric  ")
    assert header == ["metric", "value", "low", "high", "left out"]
    by_key = {row[0]: row for row in rows}
    if math.isnan(value):
        assert set(by_key) == {"r2"}  # no interval is shown for a NaN value
    else:
        assert_shows(by_key["mse"][1], value)
        assert_shows(by_key["mse"][2], -value)
        assert_shows(by_key["rmse"][3], 1e9)
    assert by_key["r2"][2] == NA and by_key["r2"][4] == "3"
    assert any(line.strip().startswith("left out:") for line in lines)

    vs_at = next(i for i, line in enumerate(lines) if line.startswith("vs baseline"))
    header, rows = table_at(lines[vs_at:], "metric")
    assert header == ["metric", "model", "baseline", "difference", "low", "high", "verdict"]
    mse, r2 = rows
    assert_shows(mse[1], value)
    assert_shows(mse[2], 2 * value if not math.isnan(value) else 1.0)
    assert_shows(mse[3], -147.0111)
    assert_shows(mse[4], -value)
    assert_shows(mse[5], 1009.1439)
    assert mse[3] == "-147.0111" and mse[5] == "+1009.1439"
    assert r2[4] == NA and r2[6] == NA
    assert "nan" not in str(rep).lower().replace(NA, "")


def test_report_without_dropped_resamples_has_no_left_out_column():
    rep = _regression_report(0.5)
    rep.n_dropped = {}
    header, _ = table_at(str(rep).splitlines(), "metric  ")
    assert header == ["metric", "value", "low", "high"]


# --------------------------------------------------------------------------- compare tables


def _challenger(name, value):
    bayes = SimpleNamespace(p_left=0.0, p_rope=value, p_right=1.0)
    return ChallengerResult(name, value, ConfidenceInterval(-value, value), None, 3.2e-7,
                            math.nan, bayes, "keep champion", "no clear difference")


@pytest.mark.parametrize("value", AWKWARD)
def test_comparison_result_table(value):
    scores = {"champ": np.array([value, value, 1.0]), "chall": np.array([-value, 0.0, 1e9])}
    res = ComparisonResult(scores, "champ", {"chall": _challenger("chall", value)},
                           scoring="neg_mse", cv="KFold: 3 folds", n_train=20.0, n_test=10.0,
                           rope=0.01, alpha=0.05, threshold=0.95)
    header, rows = table_at(res.to_text(width=None).splitlines(), "model")  # every column
    assert header == ["model", "mean", "sd", "difference", "95% low", "high", "p", "p_holm",
                      "P(champ)", "P(rope)", "P(chall)", "decision"]
    champ, chall = rows
    assert champ[0] == "champ" and champ[3:11] == ["—"] * 8 and champ[-1] == "champion"
    assert_shows(champ[1], res.mean("champ"))
    assert_shows(chall[1], res.mean("chall"))
    assert_shows(chall[3], value)
    assert_shows(chall[4], -value)
    assert chall[6] == "3.2e-07" and chall[7] == NA
    assert_shows(chall[9], value)
    assert chall[-1] == "keep champion (no clear difference)"


@pytest.mark.parametrize("value", AWKWARD)
def test_holdout_comparison_text(value):
    rep = _regression_report(0.5)
    delong = DeLongResult(value, 0.01, -value, value, math.nan)
    res = HoldoutComparison(rep, "mse", value, ConfidenceInterval(-value, value), 0.95, 0.01,
                            "keep champion", "no clear difference", delong)
    text = str(res)
    first = text.splitlines()[1]
    assert f"difference {fmt(value, signed=True)} " in first
    assert f"bootstrap {fmt(-value, signed=True)}, {fmt(value, signed=True)}]" in first
    assert f"(se 0.0100, 95% interval {fmt(-value, signed=True)} to" in text and "p n/a)" in text
    assert_shows(re.search(r"difference (\S+) ", first).group(1), value)
    assert "nan" not in (text + repr(res)).lower().replace(NA, "")


# --------------------------------------------------------------------------- labels


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return train_test_split(X, y, test_size=0.4, random_state=0)


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return train_test_split(X, y, test_size=0.4, stratify=y, random_state=0)


def rep_pred(X_tr, y_tr, X_te):
    return Ridge().fit(X_tr, y_tr).predict(X_te)


def test_regression_headline_names_the_mean_the_skill_uses(diabetes):
    X_tr, X_te, y_tr, y_te = diabetes
    rep = report(Ridge().fit(X_tr, y_tr), X_te, y_te, baseline=y_tr)
    headline = str(rep).splitlines()[2]
    # The reference RMSE is that of the constant baseline mean, not of the scored y's mean.
    assert rep["rmse_ref"] == pytest.approx(np.sqrt(np.mean((y_te - y_tr.mean()) ** 2)))
    assert headline.startswith(
        f"RMSE {rep['rmse']:.4f} | mean of y {y_te.mean():.4f} | baseline mean "
        f"{y_tr.mean():.4f} | reference {rep['rmse_ref']:.4f} | skill vs baseline mean "
        f"{rep['mse_skill']:.3f}"
    )
    # The skill against the baseline's mean is not r2; r2 (against the mean of y) is named
    # beside it.
    _, rows = table_at(str(rep).splitlines(), "loss")
    assert rows[0][4] == (f"baseline mean {y_tr.mean():.4f} (r2, against the mean of y: "
                          f"{r2_score(y_te, rep_pred(X_tr, y_tr, X_te)):.3f})")
    alone = str(report(Ridge().fit(X_tr, y_tr), X_te, y_te)).splitlines()[2]
    assert f"mean of y {y_te.mean():.4f} | reference" in alone and "baseline" not in alone


def test_classification_headline_names_base_rate_and_baseline_prior(cancer):
    X_tr, X_te, y_tr, y_te = cancer
    y_prior = np.r_[y_tr, np.ones(60, dtype=int)]  # a prior visibly unlike the base rate
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
    rep = report(model, X_te, y_te, baseline=y_prior, baseline_name="y_train")
    text = str(rep)
    prior = y_prior.mean()
    ref = -np.mean(y_te * np.log(prior) + (1 - y_te) * np.log(1 - prior))
    assert rep["log_loss_ref"] == pytest.approx(ref)
    assert (f"log loss {rep['log_loss']:.4f} | base rate {y_te.mean():.3f} | baseline prior "
            f"{prior:.3f} | reference {ref:.4f} |") in text
    assert f"judged against: class prior of y_train ({prior:.3f})" in text


@pytest.mark.slow
def test_compare_holdout_tells_same_named_pipelines_apart(cancer):
    X_tr, X_te, y_tr, y_te = cancer
    strong = make_pipeline(StandardScaler(), LogisticRegression(C=1.0)).fit(X_tr, y_tr)
    weak = make_pipeline(StandardScaler(), LogisticRegression(C=0.01)).fit(X_tr, y_tr)
    res = compare.compare_holdout(strong, weak, X_te, y_te, n_boot=1000, random_state=0)
    first = str(res).splitlines()[0]
    assert first.startswith("challenger Pipeline(StandardScaler, LogisticRegression) [C=0.01] "
                            "vs champion Pipeline(StandardScaler, LogisticRegression) [C=1.0]")
    assert "vs baseline Pipeline(StandardScaler, LogisticRegression) [C=1.0]" in str(res)

    named = compare.compare_holdout(strong, weak, X_te, y_te, n_boot=1000, random_state=0,
                                    champion_name="production", challenger_name="candidate")
    assert str(named).startswith("challenger candidate vs champion production on the same")
    same = compare.compare_holdout(strong, strong, X_te, y_te, n_boot=1000, random_state=0)
    assert str(same).startswith("challenger Pipeline(StandardScaler, LogisticRegression) "
                                "(challenger) vs champion Pipeline(StandardScaler, "
                                "LogisticRegression) (champion)")
    with pytest.raises(ValueError, match="champion_name and challenger_name both read 'm'"):
        compare.compare_holdout(strong, weak, X_te, y_te, champion_name="m", challenger_name="m")
    with pytest.raises(TypeError, match=r"challenger_name must be a non-empty string or None, "
                                        r"got int64 3\.$"):
        compare.compare_holdout(strong, weak, X_te, y_te, challenger_name=np.int64(3))


def test_report_tells_a_same_named_baseline_apart(cancer):
    X_tr, X_te, y_tr, y_te = cancer
    a = DummyClassifier(strategy="prior").fit(X_tr, y_tr)
    b = DummyClassifier(strategy="prior").fit(X_tr[:50], y_tr[:50])
    text = str(report(a, X_te, y_te, baseline=b, n_boot=1000, random_state=0))
    assert text.startswith("DummyClassifier (model) · ")
    assert "vs baseline DummyClassifier (baseline) on the same rows" in text
    named = report(a, X_te, y_te, baseline=b, n_boot=1000, random_state=0, name="new",
                   baseline_name="old")
    assert str(named).startswith("new · ") and "vs baseline old on the same rows" in str(named)
    with pytest.raises(ValueError, match="name and baseline_name both read 'x'"):
        report(a, X_te, y_te, baseline=b, name="x", baseline_name="x")
    with pytest.raises(ValueError, match="baseline_name='old' names the baseline, but baseline "
                                         "is None"):
        report(a, X_te, y_te, baseline_name="old")
    with pytest.raises(TypeError, match="name must be a non-empty string or None, got ''"):
        report(a, X_te, y_te, name="")


def test_report_mixin_takes_the_same_name_keywords():
    params = inspect.signature(ReportMixin.report).parameters
    for arg in ("name", "baseline_name"):
        assert params[arg].kind is inspect.Parameter.KEYWORD_ONLY and params[arg].default is None


def test_docs_report_sample_is_what_the_code_prints(capsys):
    # docs/report.md shows the output of its first example; run it and compare, line by line.
    text = (Path(__file__).resolve().parents[2] / "docs" / "report.md").read_text()
    section = text.split("## A report with intervals, against the training prior")[1]
    code = re.search(r"```python\n(.*?)\n```", section, flags=re.S).group(1)
    shown = re.search(r"```text\n(.*?)\n```", section, flags=re.S).group(1)
    exec(compile(code, "docs/report.md", "exec"), {})
    assert capsys.readouterr().out.rstrip("\n").splitlines() == shown.splitlines()


def test_a_near_zero_number_prints_in_its_columns_format():
    # The prior's Brier skill (-7.04e-08) among skills with three decimals: -0.000, in the text
    # and in the HTML alike; a column of nothing but tiny numbers keeps significant digits.
    from chimeraboost._shared.html import html_table

    columns = [Col("model", None), Col("skill", 3), Col("tiny", 3)]
    rows = [["prior", -7.04e-08, 1.2e-07], ["model", 0.739, 3.4e-08]]
    lines = table(columns, rows)
    assert [cells(line) for line in lines[1:]] == [["prior", "-0.000", "1.2e-07"],
                                                   ["model", "0.739", "3.4e-08"]]
    html = html_table(columns, rows)
    assert ">-0.000<" in html and ">-7.04e-08<" not in html and ">1.2e-07<" in html


@pytest.mark.parametrize("tiny", [-2.78e-17, 5.5e-17, -1e-13, 1e-12])
def test_a_number_zero_within_rounding_prints_as_zero(tiny):
    # DSC = UNC - Brier + MCB can land at -2.78e-17 for DSC 0: rounding, not a number.
    assert fmt(tiny) == "0.0000" and fmt(tiny, 3, signed=True) == "+0.000"
    assert fmt(tiny * 1e6) != "0.0000"  # a small number that is not rounding keeps its digits


def test_json_counts_are_ints_and_weighted_counts_stay_floats():
    import json

    from chimeraboost._shared.format import json_ready

    out = json_ready({"positives": np.float64(143.0), "n": np.int64(228),
                      "slices": [{"positives": 24.0, "positives_low": 20.0}],
                      "weighted": {"positives": 71.25}, "base_rate": 1.0,
                      "p": np.float64("nan")})
    text = json.dumps(out, allow_nan=False)
    assert '"positives": 143,' in text and '"positives_low": 20}' in text
    assert '"positives": 71.25' in text and '"base_rate": 1.0' in text and '"p": null' in text
