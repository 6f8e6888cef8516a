"""The 120-column rule: every text surface the library prints -- report headers and tables,
slices, the decision section, holdout tables, the calibration test, skill over time, the
production path and the command line -- fits a 120-character terminal, on realistic inputs
with long model names."""

import io
import json
import os
import textwrap
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import chimeraboost as cb
from chimeraboost import compare, decisions, metrics, monitor, promotion, slices
from chimeraboost._shared.format import WIDTH
from chimeraboost.cli import main

# Many resampled reports (a few seconds of CPU in all); few resamples, warned about and kept
# few: the layout, not the numbers, is under test.
pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning"),
              pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.LowPowerWarning")]

# Names as long as a model registry's (a name, a version, when): about 40 characters.
LONG = "churn GBM v2.3.1 (retrained 2024-11)"
LONG_BASE = "logistic regression v1.9 (in production)"
N_BOOT = 200


def _too_wide(text: str) -> list[str]:
    return [f"{len(line)}: {line}" for line in str(text).splitlines() if len(line) > WIDTH]


@pytest.fixture(scope="module")
def binary():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.4, stratify=y,
                                                        random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=1.0)).fit(X_train, y_train)
    base = make_pipeline(StandardScaler(), LogisticRegression(C=0.01)).fit(X_train, y_train)
    region = np.where(X_test["mean radius"] > 14, "north-east coastal region", "south")
    return X_test, y_test, model, base, region


def _surfaces(binary):
    """(name, text) of every text surface on the breast-cancer holdout and its friends."""
    X, y, model, base, region = binary
    kw = dict(n_boot=N_BOOT, random_state=0)
    p, q = model.predict_proba(X)[:, 1], base.predict_proba(X)[:, 1]
    yield "report binary", cb.report(model, X, y, baseline=base, ci=0.95, name=LONG,
                                     baseline_name=LONG_BASE, k=20, **kw)
    yield "report by", cb.report(model, X, y, baseline=base, ci=0.95, name=LONG,
                                 baseline_name=LONG_BASE, by=region, **kw)
    yield "report threshold", cb.report(model, X, y, baseline=base, threshold=0.3,
                                        costs={"fp": 1, "fn": 3}, name=LONG,
                                        baseline_name=LONG_BASE, **kw)
    rows = np.arange(len(y))
    yield "report groups", cb.report(model, X, y, ci=0.95, groups=rows // 3, name=LONG, **kw)
    yield "report time", cb.report(model, X, y, ci=0.95, name=LONG, time=np.datetime64(
        "2024-01-01") + rows.astype("timedelta64[D]"), **kw)
    Xi, yi = load_iris(return_X_y=True)
    iris = LogisticRegression(max_iter=1000).fit(Xi[::2], yi[::2])
    iris_base = LogisticRegression(C=0.01, max_iter=1000).fit(Xi[::2], yi[::2])
    yield "report multiclass", cb.report(iris, Xi[1::2], yi[1::2], baseline=iris_base,
                                         ci=0.95, name=LONG, baseline_name=LONG_BASE, **kw)
    Xr, yr = load_diabetes(return_X_y=True)
    ridge, ridge0 = Ridge(1.0).fit(Xr[::2], yr[::2]), Ridge(100.0).fit(Xr[::2], yr[::2])
    yield "report regression", cb.report(ridge, Xr[1::2], yr[1::2], baseline=ridge0, ci=0.95,
                                         name=LONG, baseline_name=LONG_BASE, **kw)
    yield "slice_report", slices.slice_report(y, p, region, baseline=q, name=LONG,
                                              baseline_name=LONG_BASE, **kw)
    yield "find_weak_slices", slices.find_weak_slices(model, X, y, **kw)
    yield "holdout_table", compare.holdout_table({LONG_BASE: base, LONG: model}, X, y,
                                                 split="40% holdout of the breast-cancer rows",
                                                 **kw)
    yield "decision_report", decisions.decision_report(y, p, baseline_proba=q, threshold=0.3,
                                                       name=LONG, baseline_name=LONG_BASE, **kw)
    yield "calibration_test", metrics.calibration_test(y, np.c_[1 - p, p], [0, 1],
                                                       n_boot=N_BOOT, random_state=0)
    months = np.datetime64("2024-01") + (rows % 6).astype("timedelta64[M]")
    yield "skill_over_time", monitor.skill_over_time(y, p, months, baseline=q, ci=0.95, **kw)
    yield "shadow_report", promotion.shadow_report(p, q, threshold=0.3, k=20, by=region, y=y,
                                                   n_boot=N_BOOT, random_state=0)
    metric = promotion.ab_metric("conversion rate of the retention offer", "proportion",
                                 0.10, 0.12)
    plan = promotion.plan_ab_test(metric, rows_per_day=500, looks=4)
    yield "plan_ab_test", plan
    rng = np.random.default_rng(0)
    yield "read_ab_test", promotion.read_ab_test(
        plan, {metric.name: rng.binomial(1, 0.10, 3000)},
        {metric.name: rng.binomial(1, 0.12, 3000)})


def test_every_text_surface_fits_120_columns(binary):
    wide = {name: _too_wide(text) for name, text in _surfaces(binary)}
    wide = {name: lines for name, lines in wide.items() if lines}
    assert not wide, "\n".join(f"{name}:\n  " + "\n  ".join(lines)
                               for name, lines in wide.items())


def _cli(*args) -> str:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        quiet = ["-q"] if args[0] in ("report", "table") else []
        status = main([*map(str, args), *quiet])
    assert status == 0, err.getvalue()
    return out.getvalue()


def test_every_command_line_output_fits_120_columns(binary, tmp_path):
    X, y, model, base, region = binary
    path = tmp_path / "holdout_with_a_long_file_name_of_the_last_quarter.csv"
    p, q = model.predict_proba(X)[:, 1], base.predict_proba(X)[:, 1]
    day = np.arange(len(y)) % 5
    arm = np.where(np.arange(len(y)) % 2, "challenger", "champion")
    lines = ["benign,p_model_gradient_boosted_v2,p_incumbent_logistic_v1,region,day,arm"]
    lines += [f"{a},{b:.6f},{c:.6f},{d},{e},{f}" for a, b, c, d, e, f in
              zip(y, p, q, region, day, arm)]
    path.write_text("\n".join(lines) + "\n")
    cols = ["--target", "benign", "--score", "p_model_gradient_boosted_v2"]
    base_col = "p_incumbent_logistic_v1"
    plan_path = tmp_path / "plan.json"
    outputs = {
        "report": _cli("report", path, *cols, "--baseline-score", base_col, "--n-boot", 1000,
                       "--threshold", 0.3, "--by", "region"),
        "table": _cli("table", path, *cols, "--score", base_col, "--n-boot", 1000,
                      "--split", "the last quarter of 2024, every region"),
        "shadow": _cli("shadow", path, "--champion", base_col, "--challenger",
                       "p_model_gradient_boosted_v2", "--threshold", 0.3, "--by", "region",
                       "--label", "benign", "--n-boot", 1000),
        "readout": None,
        "plan": _cli("plan", "--metric", "conversion", "--kind", "proportion", "--champion",
                     0.10, "--challenger", 0.12, "--rows-per-day", 400, "--looks", 3,
                     "--out", plan_path),
    }
    outputs["readout"] = _cli("readout", path, "--plan", plan_path, "--arm", "arm", "--look",
                              "day", "--column", "conversion=benign")
    wide = {name: _too_wide(text) for name, text in outputs.items()}
    wide = {name: lines for name, lines in wide.items() if lines}
    assert not wide, "\n".join(f"{name}:\n  " + "\n  ".join(lines)
                               for name, lines in wide.items())
