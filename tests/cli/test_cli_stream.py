"""`chimeraboost report FILE` streamed: a file read a chunk at a time through the accumulators
prints the numbers of the in-memory report (exact keys to 1e-9, grid keys within the
accumulator's bounds), names a bad cell of a later chunk by its row as the in-memory read does,
and says in one line what it leaves out."""

import csv
import gzip
import json
import math
import os
import re
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
from sklearn.metrics import log_loss as sk_log_loss

from chimeraboost import metrics
from chimeraboost.cli import _commands as _cli
from chimeraboost.exceptions import DegenerateMetricWarning
from chimeraboost.cli._main import main

N = 200
CHUNK = "7"  # rows per chunk: 29 chunks of 200 rows, the last one short

EXACT = ("n", "base_rate", "positives", "log_loss", "log_loss_ref", "log_loss_skill", "brier",
         "brier_ref", "brier_skill", "uncertainty_unc", "accuracy", "balanced_accuracy",
         "f1_macro", "reference_prior",
         "mean_y", "baseline_mean", "mse", "rmse", "mae", "r2", "mse_ref", "rmse_ref")
GRID = ("roc_auc", "pr_auc", "pr_auc_lift", "calibration_mcb", "discrimination_dsc",
        "baseline_median", "mae_ref", "mae_skill")


@pytest.fixture(scope="module")
def columns():
    rng = np.random.default_rng(7)
    p = rng.uniform(size=N)
    y = (rng.uniform(size=N) < p).astype(int)
    return {
        "y": y,
        "label": np.where(y == 1, "churned", "stayed"),
        "p": p,
        "q": np.clip(p + rng.normal(0, 0.2, N), 0, 1),  # a worse model, for --baseline-score
        "rule": (p > 0.6).astype(int),
        "w": rng.uniform(0.5, 2.0, N),
        "amount": 50 + 10 * p + rng.normal(0, 2, N),  # a quantity: a regression target
        "amount_pred": 50 + 10 * p,
    }


def _cell(v):
    return repr(float(v)) if isinstance(v, (float, np.floating)) else str(v)


def _write(path, columns, delimiter=","):
    names = list(columns)
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wt", newline="") as f:
        writer = csv.writer(f, delimiter=delimiter)
        writer.writerow(names)
        for row in zip(*(columns[n] for n in names)):
            writer.writerow([_cell(v) for v in row])
    return str(path)


def _write_parquet(path, columns):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({k: list(v.tolist()) for k, v in columns.items()}), path,
                   row_group_size=50)
    return str(path)


@pytest.fixture(scope="module")
def files(columns, tmp_path_factory):
    d = tmp_path_factory.mktemp("stream")
    return {"csv": _write(d / "h.csv", columns), "gz": _write(d / "h.csv.gz", columns),
            "tsv": _write(d / "h.tsv", columns, "\t")}


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _both(capsys, path, args):
    """(in-memory JSON, streamed JSON) of the same report."""
    code, out, err = _run(capsys, ["report", path, *args, "--no-ci", "--in-memory", "--json"])
    assert code == 0, err
    code, streamed, err = _run(capsys, ["report", path, *args, "--chunk-rows", CHUNK, "--json"])
    assert code == 0 and err == "", err
    return json.loads(out), json.loads(streamed)


def _close(got, expected, keys, rel):
    checked = 0
    for key in keys:
        if key not in expected:
            continue
        a, b = np.asarray(expected[key], dtype=float), np.asarray(got[key], dtype=float)
        assert a.shape == b.shape, key
        if expected[key] is None:
            assert got[key] is None, key
        else:
            np.testing.assert_allclose(b, a, rtol=rel, atol=1e-12, err_msg=key)
        checked += 1
    return checked


def _same(memory, streamed, *, grid_rel=1e-9):
    """Exact keys to 1e-9; grid keys to ``grid_rel`` (exact when the scores take few values:
    every test file here has fewer distinct scores than the grid keeps exactly)."""
    a, b = memory["metrics"], streamed["metrics"]
    # In memory, a paired report also runs the calibration test, which needs outcome draws
    # on the rows: a streamed report has none (as it has no intervals).
    calibration_test = {"calibration_noise_floor", "calibration_excess", "calibration_pvalue",
                        "recalibration_intercept", "recalibration_slope", "recalibration_pvalue"}
    assert set(a) - calibration_test == set(b)
    assert _close(b, a, EXACT, 1e-9) >= 8
    assert _close(b, a, GRID, grid_rel) >= 3
    assert a.get("classes") == b.get("classes")
    assert memory["kind"] == streamed["kind"] and memory["task"] == streamed["task"]


@pytest.mark.parametrize("fmt", ["csv", "gz", "tsv"])
@pytest.mark.parametrize("args", [
    ["--target", "y", "--score", "p"],
    ["--target", "label", "--score", "p", "--weight", "w"],
    ["--target", "y", "--score", "rule"],
    ["--target", "label", "--score", "rule", "--weight", "w"],
    ["--target", "amount", "--score", "amount_pred"],
    ["--target", "amount", "--score", "amount_pred", "--weight", "w"],
    ["--target", "label", "--score", "p", "--classes", "churned", "stayed"],
    ["--target", "y", "--score", "p", "--regression"],
], ids=["binary", "labels-weights", "rule", "rule-weights", "regression",
        "regression-weights", "classes-reversed", "0/1-as-quantity"])
def test_streamed_equals_in_memory(capsys, files, fmt, args):
    memory, streamed = _both(capsys, files[fmt], args)
    _same(memory, streamed)
    assert streamed["streamed"]["chunk_rows"] == 7
    assert not any(streamed["streamed"]["error_bounds"].values())  # few values: exact
    assert "ci" not in streamed and streamed["n_boot"] is None


def test_streamed_parquet_equals_in_memory(capsys, columns, tmp_path):
    path = _write_parquet(tmp_path / "h.parquet", columns)
    for args in (["--target", "label", "--score", "p", "--weight", "w"],
                 ["--target", "y", "--score", "rule"],
                 ["--target", "amount", "--score", "amount_pred"]):
        memory, streamed = _both(capsys, path, args)
        _same(memory, streamed)


def test_streamed_baseline_differences(capsys, files):
    memory, streamed = _both(capsys, files["csv"],
                             ["--target", "y", "--score", "p", "--baseline-score", "q"])
    _same(memory, streamed)
    base, vs = memory["baseline"]["metrics"], streamed["vs_baseline"]
    assert _close(streamed["baseline"]["metrics"], base, EXACT + GRID, 1e-9) >= 10
    for key, value in vs.items():  # model minus baseline, from the in-memory reports
        expected = memory["metrics"][key] - base[key]
        assert value["difference"] == pytest.approx(expected, rel=1e-9, abs=1e-12), key
    # --no-ci resamples nothing in memory either: the same point differences, the same
    # metrics (no calibration test, which needs outcome draws).
    assert set(vs) == set(memory["vs_baseline"])
    assert all(set(v) == {"difference"} for v in memory["vs_baseline"].values())
    assert "delong_roc_auc" not in streamed


def test_grid_keys_within_the_stated_error(capsys, tmp_path):
    """Scores with more distinct values than the grid keeps exactly: the grid keys within
    1e-3 of the in-memory numbers, the exact keys still to 1e-9."""
    rng = np.random.default_rng(3)
    n = 6000
    p = rng.beta(2, 5, n)
    y = (rng.uniform(size=n) < p).astype(int)
    path = _write(tmp_path / "many.csv", {"y": y, "p": p, "w": rng.uniform(0.5, 2, n)})
    code, out, err = _run(capsys, ["report", path, "--target", "y", "--score", "p", "--weight",
                                   "w", "--no-ci", "--in-memory", "--json"])
    code2, streamed, err2 = _run(capsys, ["report", path, "--target", "y", "--score", "p",
                                          "--weight", "w", "--chunk-rows", "997", "--json"])
    assert code == code2 == 0, err + err2
    memory, streamed = json.loads(out), json.loads(streamed)
    assert _close(streamed["metrics"], memory["metrics"], EXACT, 1e-9) >= 10
    bounds = streamed["streamed"]["error_bounds"]
    assert bounds["roc_auc"] > 0 and bounds["pr_auc"] > 0  # the grid, not exact values
    for key in ("roc_auc", "pr_auc", "pr_auc_lift"):  # within the stated worst case
        assert abs(streamed["metrics"][key] - memory["metrics"][key]) <= bounds[key], key
    for key in ("roc_auc", "pr_auc", "calibration_mcb", "discrimination_dsc"):
        assert abs(streamed["metrics"][key] - memory["metrics"][key]) < 1e-3, key


def test_regression_median_within_the_stated_error(capsys, tmp_path):
    """More distinct targets than the accumulator keeps: the median-based numbers within
    the error bounds the streamed JSON states, the rest to 1e-9."""
    rng = np.random.default_rng(4)
    y = 100 + 15 * rng.standard_t(3, 8000)
    path = _write(tmp_path / "reg.csv", {"y": y, "pred": y + rng.normal(0, 5, y.size)})
    memory, streamed = _both(capsys, path, ["--target", "y", "--score", "pred"])
    bounds = streamed["streamed"]["error_bounds"]
    assert bounds["mae_ref"] > 0
    assert _close(streamed["metrics"], memory["metrics"], EXACT, 1e-9) >= 8
    for key in ("baseline_median", "mae_ref", "mae_skill"):
        assert abs(streamed["metrics"][key] - memory["metrics"][key]) <= bounds[key], key


def test_text_output_says_what_streaming_leaves_out(capsys, files):
    code, out, err = _run(capsys, ["report", files["csv"], "--target", "y", "--score", "p",
                                   "--baseline-score", "q", "--stream"])
    assert code == 0, err
    # Lines wrap at 120 characters, the next ones indented: join them back to read them.
    assert all(len(line) <= 120 for line in out.splitlines())
    lines = out.replace("\n  ", " ").splitlines()
    assert lines[0] == f"{files['csv']}: p as probabilities, q as probabilities"
    assert lines[1].startswith("positive class: 1 (the columns are read as P(1)")
    assert lines[2] == ("streamed, 500,000 rows at a time: no bootstrap intervals, paired "
                        "intervals or DeLong test (they need every row in memory: --in-memory); "
                        "ROC AUC, PR AUC, MCB and DSC exact (the scores take few distinct "
                        "values)")
    assert "bootstrap intervals (percentile" not in out  # no interval table
    assert "vs baseline q on the same rows: model minus baseline (no interval" in out


def test_first_chunk_with_one_class(capsys, columns, tmp_path):
    """The first chunk holds one class only: the first pass over the target finds both."""
    order = np.argsort(columns["y"], kind="stable")  # every 0 first
    cols = {k: v[order] for k, v in columns.items()}
    path = _write(tmp_path / "sorted.csv", cols)
    memory, streamed = _both(capsys, path, ["--target", "label", "--score", "p"])
    _same(memory, streamed)
    assert streamed["metrics"]["classes"] == ["churned", "stayed"]


def test_later_values_decide_kind_and_task(capsys, tmp_path):
    """A third target value, or a non-0/1 score, in the last chunk only: a regression, and
    probabilities rather than a rule, as in memory."""
    y = [0, 1] * 10 + [2]
    score = [0, 1] * 10 + [0.5]
    path = _write(tmp_path / "late.csv", {"y": y, "s": score, "t": [0, 1] * 10 + [1]})
    memory, streamed = _both(capsys, path, ["--target", "y", "--score", "s"])
    assert streamed["task"] == "regression"
    _same(memory, streamed)
    memory, streamed = _both(capsys, path, ["--target", "t", "--score", "s"])
    assert streamed["kind"] == "probabilities"
    _same(memory, streamed)


def test_quoted_cells_across_chunks(capsys, tmp_path):
    """Quoted labels holding the delimiter and a line break: read by the csv module, a
    record that spans chunk boundaries joined, the numbers those of the in-memory read."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 40)
    labels = np.where(y == 1, "yes, churned", "no\nstayed")
    path = _write(tmp_path / "quoted.csv", {"label": labels, "p": rng.uniform(size=40)})
    memory, streamed = _both(capsys, path, ["--target", "label", "--score", "p"])
    _same(memory, streamed)
    assert streamed["metrics"]["classes"] == ["no\nstayed", "yes, churned"]


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_blank_lines_skipped_as_in_memory(capsys, tmp_path, end):
    """Blank lines (in a chunk and at the end) are no rows, with Unix or Windows line ends."""
    path = tmp_path / "blank.csv"
    rows = [f"{i % 2},{(i % 10) / 10}" for i in range(30)]
    rows.insert(12, "")
    path.write_bytes(("y,p" + end + end.join(rows) + end + end).encode())
    memory, streamed = _both(capsys, str(path), ["--target", "y", "--score", "p"])
    _same(memory, streamed)
    assert streamed["metrics"]["n"] == 30


# --------------------------------------------------------------------------- bad input


def _error(capsys, argv):
    code, out, err = _run(capsys, argv)
    assert code == 2 and out == "", out
    assert err.startswith("chimeraboost: error: ") and err.count("\n") == 1, err
    return err


def _late_bad(tmp_path, column, value, row=150):
    """The test file with one cell of ``column`` replaced in data row ``row`` (a later chunk)."""
    path = tmp_path / "bad.csv"
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["y", "p", "w"])
        for i in range(1, 201):
            cells = {"y": i % 2, "p": (i % 10) / 10, "w": 1.0}
            if i == row:
                cells[column] = value
            writer.writerow([cells["y"], cells["p"], cells["w"]])
    return str(path)


@pytest.mark.parametrize(("column", "value", "match"), [
    ("p", "NA", "column 'p' has 1 missing value (data rows 150)"),
    ("p", "high", "column 'p' must hold probabilities, scores or 0/1 flags, but data row 150 "
                  "holds 'high'"),
    ("p", "inf", "column 'p' holds inf in data row 150"),
    ("y", "", "column 'y' has 1 missing value (data rows 150)"),
    ("w", "heavy", "column 'w' must hold weights, but data row 150 holds 'heavy'"),
])
def test_bad_cell_in_a_later_chunk(capsys, tmp_path, column, value, match):
    path = _late_bad(tmp_path, column, value)
    args = ["report", path, "--target", "y", "--score", "p", "--weight", "w"]
    in_memory = _error(capsys, [*args, "--in-memory", "--no-ci"])
    streamed = _error(capsys, [*args, "--chunk-rows", CHUNK])
    assert match in streamed
    assert streamed == in_memory  # the same line, whichever way the file was read


def test_bad_cell_with_classes_given(capsys, tmp_path):
    """--classes skips the first pass: the chunk's own check names the row."""
    path = _late_bad(tmp_path, "p", "NA", row=190)
    err = _error(capsys, ["report", path, "--target", "y", "--score", "p", "--classes", "0",
                          "1", "--chunk-rows", CHUNK])
    assert "column 'p' has 1 missing value (data rows 190)" in err


def test_wrong_field_count_on_a_later_line(capsys, tmp_path):
    path = tmp_path / "fields.csv"
    lines = ["y,p"] + [f"{i % 2},0.{i % 10}" for i in range(100)]
    lines[80] = "1,0.5,extra"
    path.write_text("\n".join(lines) + "\n")
    args = ["report", str(path), "--target", "y", "--score", "p"]
    streamed = _error(capsys, [*args, "--chunk-rows", CHUNK])
    assert "line 81: 3 fields where the header has 2" in streamed
    assert streamed == _error(capsys, [*args, "--in-memory", "--no-ci"])


def test_label_outside_classes_in_a_later_chunk(capsys, tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("y,p\n" + "".join(f"{'ab'[i % 2]},0.5\n" for i in range(60)) + "c,0.5\n")
    err = _error(capsys, ["report", str(path), "--target", "y", "--score", "p", "--classes",
                          "a", "b", "--chunk-rows", CHUNK])
    assert "column 'y' holds labels ['c'] that are not in --classes ['a', 'b'] (data row 61)" \
        in err


def test_three_labels_refused_as_in_memory(capsys, tmp_path):
    """The command line reads one score column, so a target of three classes is refused --
    streamed with the in-memory message, after the first pass over the target."""
    path = _write(tmp_path / "three.csv", {"y": ["a", "b", "c"] * 10, "p": [0.5] * 30})
    args = ["report", path, "--target", "y", "--score", "p"]
    streamed = _error(capsys, [*args, "--chunk-rows", CHUNK])
    assert "holds 3 labels ['a', 'b', 'c']; a classification target needs two classes" \
        in streamed
    assert streamed == _error(capsys, [*args, "--in-memory", "--no-ci"])


@pytest.mark.parametrize(("extra", "match"), [
    (["--k", "10"], r"--k \(recall@k\) ranks every row at once; a streamed report cannot"),
    (["--in-memory"], "--chunk-rows reads the file in chunks; it cannot go with --in-memory"),
])
def test_options_a_stream_cannot_honour(capsys, files, extra, match):
    err = _error(capsys, ["report", files["csv"], "--target", "y", "--score", "p",
                          "--chunk-rows", "50", *extra])
    assert re.search(match, err), err


def test_scores_outside_probabilities_refused(capsys, tmp_path):
    path = _write(tmp_path / "scores.csv", {"y": [0, 1] * 20, "s": [-1.5, 2.0] * 20})
    err = _error(capsys, ["report", path, "--target", "y", "--score", "s", "--stream"])
    assert "column 's' holds -1.5 in data row 1: a streamed report reads probabilities or " \
           "0/1 flags" in err and "--in-memory" in err


@pytest.mark.parametrize("value", ["0", "-3", "x", "2147483648", "9223372036854775808"])
@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_chunk_rows_must_be_a_positive_count(capsys, files, columns, tmp_path, value, kind):
    path = files["csv"] if kind == "csv" else _write_parquet(tmp_path / "h.parquet", columns)
    with pytest.raises(SystemExit) as exc:
        main(["report", path, "--target", "y", "--score", "p", "--chunk-rows", value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    # Refused while parsing, by name and with the stated maximum; the file is not blamed.
    assert "--chunk-rows" in err and "Parquet" not in err and "islice" not in err
    if value.isdigit() and int(value) > 0:
        assert "from 1 to 2,147,483,647 rows" in err


def test_chunk_rows_up_to_the_stated_maximum_is_taken(capsys, files):
    # One chunk of the whole file: the exact numbers of the in-memory report.
    memory, streamed = (json.loads(_run(capsys, ["report", files["csv"], "--target", "y",
                                                 "--score", "p", *how, "--json"])[1])
                        for how in (["--in-memory", "--no-ci"], ["--chunk-rows", "2147483647"]))
    assert streamed["streamed"]["chunk_rows"] == 2**31 - 1
    _same(memory, streamed)
    with pytest.raises(ValueError, match="--chunk-rows must be a whole number of rows from 1"):
        _cli.stream_report(files["csv"], target="y", score="p", chunk_rows=2**31)


def test_stream_and_in_memory_exclusive(capsys, files):
    with pytest.raises(SystemExit):
        main(["report", files["csv"], "--target", "y", "--score", "p", "--stream",
              "--in-memory"])
    assert "not allowed with argument" in capsys.readouterr().err


# --------------------------------------------------------------------------- when to stream


def test_large_files_stream_by_size(capsys, files, monkeypatch):
    size = os.path.getsize(files["csv"])
    monkeypatch.setattr(_cli, "STREAM_BYTES", size - 1)
    assert _cli.streams(files["csv"])
    assert not _cli.streams(files["csv"], in_memory=True)
    code, out, _ = _run(capsys, ["report", files["csv"], "--target", "y", "--score", "p"])
    assert code == 0 and out.splitlines()[2].startswith("streamed, 500,000 rows at a time")
    monkeypatch.setattr(_cli, "STREAM_BYTES", size)
    assert not _cli.streams(files["csv"])
    assert _cli.streams(files["csv"], stream=True)


def test_needs_proba_keys_are_ranking_reports_nans():
    """A rule's probability-only numbers are NaN, exactly the keys ranking_report leaves NaN."""
    y = np.array([0, 1, 1, 0, 1])
    r = metrics.ranking_report(y, np.array([0.0, 1, 1, 1, 0]), [0, 1],
                               y_pred=np.array([0, 1, 1, 1, 0]))
    nan = {k for k, v in r.items() if np.ndim(v) == 0 and isinstance(v, float)
           and math.isnan(v)}
    assert nan == _cli.NEEDS_PROBA & r.keys()


def test_parquet_missing_value_in_a_later_batch(capsys, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    p = [0.5] * 100
    p[70] = None
    path = str(tmp_path / "gap.parquet")
    pq.write_table(pa.table({"y": [0, 1] * 50, "p": p}), path, row_group_size=20)
    args = ["report", path, "--target", "y", "--score", "p"]
    streamed = _error(capsys, [*args, "--chunk-rows", CHUNK])
    assert "column 'p' has 1 missing value (data rows 71)" in streamed
    assert streamed == _error(capsys, [*args, "--in-memory", "--no-ci"])


# --------------------------------------------------------------------------- memory


# The peak resident memory of this process image (VmHWM): unlike ru_maxrss, it does not
# start at the size of the pytest process the child was forked from.
MEMORY_SCRIPT = textwrap.dedent("""
    import sys
    from chimeraboost.cli._main import main

    def peak_kb():
        with open("/proc/self/status") as f:
            return int(next(t for t in f if t.startswith("VmHWM")).split()[1])

    import sklearn, scipy.stats  # what a report imports, before the first reading
    before = peak_kb()
    code = main(sys.argv[1:])
    print("GROWTH", code, peak_kb() - before, file=sys.stderr)
""")


def _growth_kb(argv):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, *argv], capture_output=True,
                          text=True, env=env, check=False)
    line = [t for t in done.stderr.splitlines() if t.startswith("GROWTH")][-1]
    _, code, kb = line.split()
    assert code == "0", done.stderr
    return int(kb)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads VmHWM (Linux)")
def test_streamed_memory_does_not_grow_with_the_file(tmp_path):
    """The peak memory a report adds to the process (peak after minus before the call,
    imports already done): streamed in chunks of 20,000 rows it stays a fraction of what
    the in-memory read of the same 400,000 rows adds (every cell a Python string)."""
    rng = np.random.default_rng(0)
    n = 400_000
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p).astype(np.int8)
    path = tmp_path / "big.csv"
    with open(path, "w") as f:
        f.write("y,p\n")
        np.savetxt(f, np.column_stack([y, p]), fmt=["%d", "%.17g"], delimiter=",")
    args = ["report", str(path), "--target", "y", "--score", "p", "--json"]
    streamed = _growth_kb([*args, "--chunk-rows", "20000"])
    in_memory = _growth_kb([*args, "--in-memory", "--no-ci"])
    assert in_memory > 25_000  # the in-memory read holds the file: about 50 MB measured
    assert streamed < in_memory / 3


@pytest.mark.parametrize(("target", "classes", "want"), [
    ([1] * 40, ["0", "1"], [0, 1]),             # one class present, the other named
    ([0] * 40, ["0", "1"], [0, 1]),
    ([1.0, 0.0] * 20, ["0", "1.0"], [0, 1]),    # "1.0" is the label 1, as in the file
    ([0.5, 1.5] * 20, ["1.5", "0.5"], [1.5, 0.5]),
    ([0] * 40, ["0", "one"], ["0", "one"]),     # text: compared as text
])
def test_classes_are_typed_as_the_target_in_both_paths(capsys, tmp_path, target, classes,
                                                        want):
    p = np.linspace(0.05, 0.95, 40)
    path = _write(tmp_path / "one.csv", {"y": np.array(target), "p": p})
    args = ["--target", "y", "--score", "p", "--classes", *classes]
    got = {}
    for how in (["--in-memory", "--no-ci"], ["--stream"]):
        with warnings.catch_warnings():
            # One class in y: skills are NaN with a warning, the subject of other tests.
            warnings.simplefilter("ignore", DegenerateMetricWarning)
            code, out, err = _run(capsys, ["report", path, *args, *how, "--json"])
        assert code == 0, err
        got[how[0]] = json.loads(out)["metrics"]
    assert got["--in-memory"]["classes"] == got["--stream"]["classes"] == want
    # Against scikit-learn: the log loss of the rows, the positive class second in --classes.
    positive = [str(v) == str(want[1]) for v in target] if isinstance(want[1], str) else \
        [v == want[1] for v in target]
    expected = sk_log_loss(np.array(positive, dtype=int), p, labels=[0, 1])
    for report in got.values():
        assert report["log_loss"] == pytest.approx(expected, rel=1e-9)
        assert report["n"] == 40
