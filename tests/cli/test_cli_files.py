"""`chimeraboost report FILE` and `chimeraboost table FILE`: the numbers they print are the
library's, bad input is one line on stderr with exit status 2, and help reads like help."""

import csv
import io
import json
import math
import re

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from chimeraboost import __version__, compare, metrics
from chimeraboost.cli import _files
from chimeraboost._shared.progress import counting, working
from chimeraboost.cli._main import main

N_TRAIN, N_TEST = 300, 200


@pytest.fixture(scope="module")
def holdout():
    X, y = make_classification(n_samples=N_TRAIN + N_TEST, n_features=6, flip_y=0.1,
                               random_state=0)
    model = LogisticRegression().fit(X[:N_TRAIN], y[:N_TRAIN])
    X, y = X[N_TRAIN:], y[N_TRAIN:]
    w = np.random.default_rng(1).uniform(0.5, 2.0, size=N_TEST)
    return {
        "y": y,
        "label": np.where(y == 1, "yes", "no"),
        "p_model": model.predict_proba(X)[:, 1],
        "score": model.decision_function(X),
        "rule": (X[:, 0] > 0).astype(int),
        "w": w,
        "amount": X[:, 1] * 10 + 50,  # a quantity: a regression target
        "amount_pred": X[:, 1] * 9 + 51,
    }


def _write_csv(path, columns):
    names = list(columns)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(names)
        for row in zip(*(columns[n] for n in names)):
            writer.writerow([repr(float(v)) if isinstance(v, float) else v for v in row])
    return path


@pytest.fixture(scope="module")
def csv_file(holdout, tmp_path_factory):
    cols = {k: [v.item() for v in arr] for k, arr in holdout.items()}
    return str(_write_csv(tmp_path_factory.mktemp("cli") / "holdout.csv", cols))


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys, argv):
    code, out, err = _run(capsys, [*argv, "--json"])
    assert code == 0 and err == "", err
    return json.loads(out)


def _same(got, expected):
    """JSON numbers against a metrics dict: equal to 1e-12, NaN as null."""
    checked = 0
    for key, value in expected.items():
        if np.ndim(value) or not isinstance(value, (float, int, np.floating, np.integer)):
            continue
        if math.isnan(float(value)):
            assert got[key] is None, key
        else:
            assert got[key] == pytest.approx(float(value), abs=1e-12, rel=0), key
        checked += 1
    assert checked >= 10


def test_report_json_is_classification_report(capsys, csv_file, holdout):
    got = _json(capsys, ["report", csv_file, "--target", "y", "--score", "p_model", "--no-ci"])
    p = holdout["p_model"]
    expected = metrics.classification_report(holdout["y"], np.column_stack([1 - p, p]), [0, 1])
    assert got["kind"] == "probabilities" and got["task"] == "classification"
    _same(got["metrics"], expected)


def test_report_weights_and_k_reach_the_metrics(capsys, csv_file, holdout):
    got = _json(capsys, ["report", csv_file, "--target", "y", "--score", "p_model",
                         "--weight", "w", "--k", "40", "--no-ci"])
    p = holdout["p_model"]
    expected = metrics.classification_report(holdout["y"], np.column_stack([1 - p, p]), [0, 1],
                                             sample_weight=holdout["w"], k=40)
    _same(got["metrics"], expected)
    assert got["metrics"]["recall_at_k"] == pytest.approx(expected["recall_at_k"], abs=1e-12)


def test_report_text_opens_with_the_four_numbers(capsys, csv_file, holdout):
    code, out, err = _run(capsys, ["report", csv_file, "--target", "y", "--score", "p_model",
                                   "--ci", "0.9", "--n-boot", "1000"])
    assert code == 0 and err == ""
    p = holdout["p_model"]
    r = metrics.classification_report(holdout["y"], np.column_stack([1 - p, p]), [0, 1])
    four = metrics.format_report(r).splitlines()[0]
    assert four.startswith("log loss") and four in out
    assert "p_model as probabilities" in out.splitlines()[0]
    assert "90% bootstrap intervals (expanded BCa; 1,000 resamples" in out


def test_report_against_baseline_column_is_paired(capsys, csv_file, holdout):
    got = _json(capsys, ["report", csv_file, "--target", "y", "--score", "p_model",
                         "--baseline-score", "rule", "--n-boot", "1000"])
    assert got["n_boot"] == 1000
    rule = holdout["rule"]
    base = metrics.ranking_report(holdout["y"], rule.astype(float), [0, 1], y_pred=rule)
    assert got["baseline"]["kind"] == "rule"
    _same(got["baseline"]["metrics"], base)
    p = holdout["p_model"]
    model = metrics.classification_report(holdout["y"], np.column_stack([1 - p, p]), [0, 1])
    auc = got["vs_baseline"]["roc_auc"]
    assert auc["difference"] == pytest.approx(model["roc_auc"] - base["roc_auc"], abs=1e-12)
    assert auc["low"] < auc["difference"] < auc["high"]
    assert got["delong_roc_auc"]["difference"] == pytest.approx(auc["difference"], abs=1e-12)


def test_no_ci_resamples_nothing_and_gives_point_differences(capsys, csv_file, holdout):
    argv = ["report", csv_file, "--target", "y", "--score", "p_model", "--baseline-score",
            "rule", "--no-ci"]
    got = _json(capsys, argv)
    assert got["n_boot"] is None and "ci" not in got and "delong_roc_auc" not in got
    p, rule = holdout["p_model"], holdout["rule"]
    model = metrics.classification_report(holdout["y"], np.column_stack([1 - p, p]), [0, 1])
    base = metrics.ranking_report(holdout["y"], rule.astype(float), [0, 1], y_pred=rule)
    _same(got["baseline"]["metrics"], base)
    for key in ("roc_auc", "pr_auc", "accuracy", "f1_macro"):
        assert got["vs_baseline"][key] == {"difference": pytest.approx(
            model[key] - base[key], abs=1e-12, rel=0)}
    code, out, err = _run(capsys, argv)
    assert code == 0 and err == ""
    assert "bootstrap" not in out and "paired" not in out
    assert ("vs baseline rule on the same rows: model minus baseline (no intervals: --no-ci "
            "resamples nothing)") in out


def test_report_reads_scores_and_rules_by_their_values(capsys, csv_file, holdout):
    got = _json(capsys, ["report", csv_file, "--target", "y", "--score", "score", "--no-ci"])
    s = holdout["score"]
    # Scores rank the rows and make no decision: their threshold is unknown.
    expected = metrics.ranking_report(holdout["y"], s, [0, 1])
    assert got["kind"] == "scores" and got["metrics"]["log_loss"] is None
    assert got["metrics"]["accuracy"] is None and got["metrics"]["f1_macro"] is None
    _same(got["metrics"], expected)
    got = _json(capsys, ["report", csv_file, "--target", "y", "--score", "rule", "--no-ci"])
    assert got["kind"] == "rule" and got["task"] == "rule"


def test_a_column_is_read_alike_by_report_table_and_holdout_table(capsys, csv_file, holdout):
    s = holdout["score"]  # log-odds: scores
    rep = _json(capsys, ["report", csv_file, "--target", "y", "--score", "score", "--no-ci"])
    tab = _json(capsys, ["table", csv_file, "--target", "y", "--score", "rule", "--score",
                         "score", "--n-boot", "1000"])
    mem = compare.holdout_table({"rule": holdout["rule"], "score": s}, np.zeros((N_TEST, 1)),
                                holdout["y"], metrics=["accuracy", "roc_auc"], n_boot=1000,
                                random_state=0)
    assert rep["kind"] == tab["rows"]["score"]["kind"] == mem.rows["score"]["kind"] == "scores"
    assert rep["metrics"]["accuracy"] is None and math.isnan(mem.rows["score"]["accuracy"])
    auc = metrics.ranking_report(holdout["y"], s, [0, 1])["roc_auc"]
    assert rep["metrics"]["roc_auc"] == tab["rows"]["score"]["roc_auc"] == pytest.approx(auc)
    # A primary the scores cannot have is refused before any resampling, on every path.
    for primary in ("accuracy", "f1_macro"):
        code, out, err = _run(capsys, ["table", csv_file, "--target", "y", "--score", "rule",
                                       "--score", "score", "--primary", primary])
        assert code == 2 and out == ""
        assert f"--primary '{primary}' needs a decision (a class per row), which row(s) " \
               "'score' (scores that only rank the rows) cannot give" in err


def test_report_string_labels_and_classes_choose_the_positive(capsys, csv_file, holdout):
    got = _json(capsys, ["report", csv_file, "--target", "label", "--score", "p_model",
                         "--no-ci"])
    assert got["metrics"]["classes"] == ["no", "yes"]  # sorted: "yes" is positive
    p = holdout["p_model"]
    flipped = _json(capsys, ["report", csv_file, "--target", "label", "--score", "p_model",
                             "--classes", "yes", "no", "--no-ci"])
    # The column is read as the probability of the class named second ("no" here).
    expected = metrics.classification_report(holdout["label"], np.column_stack([1 - p, p]),
                                             ["yes", "no"])
    assert flipped["metrics"]["classes"] == ["yes", "no"]
    _same(flipped["metrics"], expected)


def test_report_numeric_target_with_many_values_is_a_regression(capsys, csv_file, holdout):
    got = _json(capsys, ["report", csv_file, "--target", "amount", "--score", "amount_pred",
                         "--no-ci"])
    expected = metrics.regression_report(holdout["amount"], holdout["amount_pred"])
    assert got["task"] == "regression" and got["kind"] == "predictions"
    _same(got["metrics"], expected)


def test_report_parquet_equals_csv(capsys, csv_file, holdout, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = str(tmp_path / "holdout.parquet")
    pq.write_table(pa.table({k: v for k, v in holdout.items()}), path)
    argv = ["--target", "y", "--score", "p_model", "--baseline-score", "score", "--n-boot",
            "1000"]
    from_csv = _json(capsys, ["report", csv_file, *argv])
    from_parquet = _json(capsys, ["report", path, *argv])
    for key in ("metrics", "ci", "vs_baseline"):
        assert from_parquet[key] == from_csv[key]


def test_table_rows_are_the_holdout_tables(capsys, csv_file, holdout):
    argv = ["table", csv_file, "--target", "y", "--score", "rule", "--score", "p_model",
            "--primary", "recall@40", "--split", "Q4", "--n-boot", "1000"]
    got = _json(capsys, argv)
    expected = compare.holdout_table(
        {"rule": holdout["rule"], "p_model": holdout["p_model"]}, holdout["y"].reshape(-1, 1),
        holdout["y"], primary="recall@40", split="Q4", n_boot=1000, random_state=0)
    assert got["primary"] == "recall@40" and list(got["rows"]) == ["rule", "p_model"]
    for name, row in expected.rows.items():
        for key, value in row.items():
            if isinstance(value, float) and math.isnan(value):
                assert got["rows"][name][key] is None
            else:
                assert got["rows"][name][key] == pytest.approx(value, abs=1e-12), (name, key)
    code, out, _ = _run(capsys, argv[:-1] + ["1000"])
    assert code == 0 and str(expected) in out and expected.summary() in out
    code, out, _ = _run(capsys, [*argv, "--markdown"])
    assert code == 0 and out.strip() == expected.to_markdown()


def _bad_files(tmp_path):
    def write(name, text):
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return {
        "no file": (str(tmp_path / "nowhere.csv"), "nowhere.csv"),
        "directory": (str(tmp_path), "directory"),
        "empty": (write("empty.csv", ""), "empty"),
        "missing column": (write("cols.csv", "y,other\n0,0.5\n1,0.2\n"), "'p'"),
        "non-numeric": (write("text.csv", "y,p\n0,0.5\n1,high\n"), "'p'"),
        "missing value": (write("gap.csv", "y,p\n0,0.5\n1,\n"), "'p'"),
        "three labels": (write("three.csv", "y,p\na,0.5\nb,0.2\nc,0.1\n"), "'y'"),
        "one label": (write("one.csv", "y,p\na,0.5\na,0.2\n"), "'y'"),
        "ragged": (write("ragged.csv", "y,p\n0,0.5,3\n"), "line 2"),
        "not parquet": (write("bad.parquet", "not parquet"), "bad.parquet"),
    }


@pytest.mark.parametrize("case", [
    "no file", "directory", "empty", "missing column", "non-numeric", "missing value",
    "three labels", "one label", "ragged", "not parquet"])
@pytest.mark.parametrize("command", ["report", "table"])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, case, command):
    if case == "not parquet":
        pytest.importorskip("pyarrow")
    path, named = _bad_files(tmp_path)[case]
    code, out, err = _run(capsys, [command, path, "--target", "y", "--score", "p"])
    assert code == 2 and out == ""
    assert err.startswith("chimeraboost: error: ") and err.count("\n") == 1, err
    assert named in err and "Traceback" not in err


@pytest.mark.parametrize(("header", "named"), [
    ("y,p,p", "names more than one column 'p' (columns 2, 3)"),
    ("y,p , p", "names more than one column 'p' (columns 2, 3)"),  # equal once stripped
    ("p,y,p", "names more than one column 'p' (columns 1, 3)"),
])
@pytest.mark.parametrize("command", [["report"], ["report", "--stream"], ["table"]])
def test_a_header_naming_a_column_twice_is_refused(capsys, tmp_path, header, named, command):
    path = tmp_path / "twice.csv"
    path.write_text(header + "\n0,0.5,0.9\n1,0.2,0.1\n1,0.7,0.3\n")
    code, out, err = _run(capsys, [command[0], str(path), "--target", "y", "--score", "p",
                                   *command[1:]])
    assert code == 2 and out == "" and named in err and "Rename them" in err, err


@pytest.mark.parametrize("command", [["report"], ["report", "--stream"], ["table"]])
def test_a_blank_column_name_is_never_read(capsys, tmp_path, holdout, command):
    # pandas' to_csv writes its index under a blank name: allowed, and never asked for.
    path = tmp_path / "index.csv"
    rows = "".join(f"{i},{y},{float(p)!r}\n" for i, (y, p) in
                   enumerate(zip(holdout["y"], holdout["p_model"])))
    path.write_text(",y,p\n" + rows)
    code, out, err = _run(capsys, [command[0], str(path), "--target", "y", "--score", "p",
                                   *command[1:]])
    assert code == 0, err
    code, out, err = _run(capsys, [command[0], str(path), "--target", "y", "--score", " ",
                                   *command[1:]])
    assert code == 2 and "a column to read is named ' '" in err


def _european(holdout, path, decimal_comma=True):
    """The holdout as Excel writes it where the decimal mark is a comma: cells separated
    by ';'."""
    def cell(v):
        return repr(float(v)).replace(".", ",") if decimal_comma else repr(float(v))

    lines = ["y;p_model;w"] + [f"{y};{cell(p)};{cell(w)}" for y, p, w in
                               zip(holdout["y"], holdout["p_model"], holdout["w"])]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("stream", [[], ["--stream"]])
def test_semicolons_are_read_off_the_header_and_decimal_commas_on_request(capsys, tmp_path,
                                                                          holdout, stream):
    p, w = holdout["p_model"], holdout["w"]
    expected = metrics.classification_report(holdout["y"], np.column_stack([1 - p, p]), [0, 1],
                                             sample_weight=w)
    plain_path = _european(holdout, tmp_path / "points.csv", decimal_comma=False)
    got = _json(capsys, ["report", plain_path, "--target", "y", "--score", "p_model",
                         "--weight", "w", "--no-ci", *stream])
    _same(got["metrics"], expected)
    comma_path = _european(holdout, tmp_path / "commas.csv")
    argv = ["report", comma_path, "--target", "y", "--score", "p_model", "--weight", "w",
            "--no-ci", *stream]
    code, out, err = _run(capsys, argv)
    assert code == 2 and "A decimal comma? Pass --decimal ','" in err, err
    _same(_json(capsys, [*argv, "--decimal", ","])["metrics"], expected)
    # Told the wrong separator, the message says what the header looks like.
    code, out, err = _run(capsys, [*argv, "--delimiter", ","])
    assert code == 2 and re.search(r"has no columns? 'y'", err)
    assert "The header looks ';'-separated: pass --delimiter ';'" in err


def test_delimiter_is_read_off_the_header():
    find = _files.find_delimiter
    assert [find("f.csv", line) for line in ("y,p\n", "y;p\n", "y\tp\n", "y|p\n", "y\n")] == \
        [",", ";", "\t", "|", ","]
    assert find("f.csv", "a,b;c\n") == ","  # a tie: the comma
    assert find("f.csv", '"a;b",c;d;e\n') == ";"  # three fields by ';', two by ','
    assert find("f.tsv.gz", "y,p\n") == "\t" and find("f.csv", "y,p\n", ";") == ";"
    with pytest.raises(ValueError, match="--delimiter must be one character"):
        find("f.csv", "y,p\n", ";;")


def test_missing_pyarrow_names_the_extra(capsys, tmp_path, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    path = tmp_path / "x.parquet"
    path.write_bytes(b"PAR1")
    code, _, err = _run(capsys, ["report", str(path), "--target", "y", "--score", "p"])
    assert code == 2 and 'pip install "chimeraboost[parquet]"' in err


@pytest.mark.parametrize("command", ["report", "table", "demo"])
def test_every_command_has_a_description_and_an_example(capsys, command):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and "Example:" in out
    description = out.split("\n\n")[1]
    assert description.strip() and description.rstrip()[-1] in ".)"


def test_bare_invocation_prints_help_and_version_works(capsys):
    code, out, _ = _run(capsys, [])
    assert code == 0 and out.startswith("usage: chimeraboost") and "report" in out
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"chimeraboost {__version__}"


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_shows_on_a_terminal_only():
    tty, pipe = _Terminal(), io.StringIO()
    for stream in (tty, pipe):
        with working("bootstrapping", stream=stream, delay=0.0, interval=0.01):
            pass
        assert list(counting(range(3), 3, "fitting", stream=stream)) == [0, 1, 2]
    assert "fitting 3/3" in tty.getvalue() and tty.getvalue().endswith("\r")
    assert pipe.getvalue() == ""
    quiet = _Terminal()
    with working("x", stream=quiet, delay=0.0, verbose=False):
        pass
    assert quiet.getvalue() == ""


def test_docs_cli_page_shows_real_output(capsys, tmp_path, monkeypatch):
    import re
    import runpy
    import shlex
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    script = re.search(r"```python\n(.*?)\n```", page, flags=re.S).group(1)
    (tmp_path / "make_holdout.py").write_text(script)
    monkeypatch.chdir(tmp_path)
    runpy.run_path("make_holdout.py")
    shown = re.findall(r"```bash\n(chimeraboost [^\n]+)\n```\n\n```(text|json)\n(.*?)\n```",
                       page, flags=re.S)
    assert len(shown) == 5
    for command, lang, expected in shown:
        code, out, err = _run(capsys, shlex.split(command)[1:])
        if lang == "json":  # shortened on the page: what it shows is what the command prints
            got, doc = json.loads(out), json.loads(expected)
            assert {k: got[k] for k in doc if k != "metrics"} == {
                k: v for k, v in doc.items() if k != "metrics"}
            assert all(got["metrics"][k] == v for k, v in doc["metrics"].items())
        else:
            assert (out or err).strip() == expected.strip(), command


@pytest.mark.parametrize("verbose", [1, 0])
def test_compare_cv_shows_progress_on_a_terminal_unless_verbose_0(monkeypatch, holdout,
                                                                   verbose):
    import sys

    from sklearn.dummy import DummyClassifier

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    X = np.column_stack([holdout["score"], holdout["amount"]])
    result = compare.compare_cv({"prior": DummyClassifier(), "logreg": LogisticRegression()},
                                X, holdout["y"], scoring="roc_auc", cv=3, random_state=0,
                                verbose=verbose)
    shown = terminal.getvalue()
    assert ("compare_cv: 3 folds, model 2/2" in shown) == bool(verbose)
    assert shown == "" or shown.endswith("\r")
    assert result.champion == "prior"


# --------------------------------------------------------------------------- the chunked reader


@pytest.mark.parametrize("fmt", ["csv", "csv.gz", "tsv"])
def test_iter_columns_chunks_make_the_whole_file(holdout, tmp_path, fmt):
    """Chunks of 9 rows, concatenated, are the columns read_columns reads at once; numbers
    come as float64 arrays, text as the cells."""
    import gzip

    cols = {"label": holdout["label"].tolist(), "y": holdout["y"].tolist(),
            "p_model": [repr(float(v)) for v in holdout["p_model"]]}
    path = tmp_path / f"h.{fmt}"
    sep = "\t" if fmt == "tsv" else ","
    opener = gzip.open if fmt.endswith(".gz") else open
    with opener(path, "wt", newline="") as f:
        f.write(sep.join(cols) + "\n")
        f.writelines(sep.join(map(str, row)) + "\n" for row in zip(*cols.values()))
    names = ["label", "p_model", "y"]
    whole = _files.read_columns(str(path), names)
    starts, got = [], {n: [] for n in names}
    for start, chunk in _files.iter_columns(str(path), names, 9):
        starts.append(start)
        for n in names:
            got[n].extend(np.asarray(chunk[n]).tolist())
        assert isinstance(chunk["p_model"], np.ndarray) and chunk["p_model"].dtype == np.float64
        assert isinstance(chunk["label"], list)  # text: the cells as read
    assert starts == list(range(0, N_TEST, 9))
    assert got["label"] == whole["label"]
    np.testing.assert_array_equal(got["p_model"], holdout["p_model"])  # repr round-trips
    np.testing.assert_array_equal(got["y"], holdout["y"])


def test_iter_columns_parquet_batches(holdout, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = str(tmp_path / "h.parquet")
    pq.write_table(pa.table({"p": holdout["p_model"], "label": holdout["label"]}), path,
                   row_group_size=50)
    chunks = list(_files.iter_columns(path, ["p", "label"], 64))
    assert [s for s, _ in chunks] == [0, 64, 128, 192]
    np.testing.assert_array_equal(np.concatenate([c["p"] for _, c in chunks]),
                                  holdout["p_model"])
    assert sum((c["label"] for _, c in chunks), []) == holdout["label"].tolist()


def test_iter_columns_checks_as_read_columns(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(ValueError, match="is empty; expected a header row"):
        list(_files.iter_columns(str(empty), ["y"], 5))
    header = tmp_path / "header.csv"
    header.write_text("y,p\n")
    with pytest.raises(ValueError, match="has a header but no rows"):
        list(_files.iter_columns(str(header), ["y"], 5))
    with pytest.raises(ValueError, match="has no column 'z'; its columns are 'y', 'p'"):
        list(_files.iter_columns(str(header), ["z"], 5))
    with pytest.raises(ValueError, match="no such file"):
        list(_files.iter_columns(str(tmp_path / "nope.csv"), ["y"], 5))
    broken = tmp_path / "broken.csv.gz"
    broken.write_bytes(b"not gzip at all")
    with pytest.raises(ValueError, match="cannot be read as CSV"):
        list(_files.iter_columns(str(broken), ["y"], 5))


@pytest.mark.parametrize(("cells", "start", "match"), [
    (["0.5", "NA", "0.1"], 100, r"has 1 missing value \(data rows 102\)"),
    (["0.5", "x"], 40, "data row 42 holds 'x'"),
    (["0.5", "1e400"], 7, "holds inf in data row 9"),
])
def test_numbers_name_the_row_of_the_whole_file(cells, start, match):
    """A chunk's bad cell is named by its row in the file: start + its place + 1."""
    with pytest.raises(ValueError, match=match):
        _files.numbers(cells, "p", "f.csv", start=start)


def test_numbers_fast_path_is_pythons_float():
    """The vectorised conversion gives Python's float of every cell (round-trip repr,
    whitespace, signs, underscores), so a chunk reads as the cell-by-cell loop did."""
    rng = np.random.default_rng(2)
    values = rng.normal(size=500) * 10.0 ** rng.integers(-300, 300, 500)
    cells = [repr(float(v)) for v in values] + [" 1.5 ", "+2", "1_000", "-0.0", ".5e-3"]
    expected = [float(c) for c in cells]
    got = _files.numbers(cells, "p", "f.csv")
    assert got.tolist() == expected


def test_ci_method_option(capsys, csv_file):
    code, out, err = _run(capsys, ["report", csv_file, "--target", "y", "--score", "p_model",
                                   "--n-boot", "1000", "--ci-method", "percentile"])
    assert code == 0 and "95% bootstrap intervals (percentile; 1,000 resamples" in out
    got = _json(capsys, ["report", csv_file, "--target", "y", "--score", "p_model",
                         "--n-boot", "1000", "--ci-method", "bca"])
    assert got["ci_method"] == "bca"
    code, out, err = _run(capsys, ["table", csv_file, "--target", "y", "--score", "rule",
                                   "--score", "p_model", "--n-boot", "1000", "--ci-method",
                                   "expanded_percentile"])
    assert code == 0 and "(expanded percentile)" in out
    with pytest.raises(SystemExit):
        main(["report", csv_file, "--target", "y", "--score", "p_model", "--ci-method", "t"])
    assert "invalid choice" in capsys.readouterr().err


# --------------------------------------------------------------------------- decisions


def test_report_threshold_and_costs_give_the_decision_of_the_library(capsys, csv_file,
                                                                      holdout):
    from chimeraboost import decisions

    got = _json(capsys, ["report", csv_file, "--target", "y", "--score", "p_model",
                         "--baseline-score", "rule", "--cost-fp", "1", "--cost-fn", "3",
                         "--n-boot", "1000", "-q"])
    d = decisions.decision_report(holdout["y"], holdout["p_model"],
                                  baseline_proba=holdout["rule"], cost_fp=1, cost_fn=3,
                                  n_boot=1000, random_state=0, name="p_model",
                                  baseline_name="rule")
    assert got["decision"]["threshold"] == 0.25
    assert got["decision"]["actions"]["p_model"]["expected_cost"] == pytest.approx(
        d.actions["p_model"]["expected_cost"], abs=1e-12)
    # The CLI's report hands its resampling scheme to the decision section: its interval
    # agrees with decision_report's on draws of decision_report's own seed.
    ref = d.differences["rule"]
    got_d = got["decision"]["differences"]["rule"]
    assert got_d["net_benefit"] == pytest.approx(ref["net_benefit"], abs=1e-12)
    width = ref["net_benefit_high"] - ref["net_benefit_low"]
    assert abs(got_d["net_benefit_low"] - ref["net_benefit_low"]) <= 0.3 * width
    assert abs(got_d["net_benefit_high"] - ref["net_benefit_high"]) <= 0.3 * width
    code, out, err = _run(capsys, ["report", csv_file, "--target", "y", "--score", "p_model",
                                   "--threshold", "0.3", "--n-boot", "1000", "-q"])
    assert code == 0 and "Decision at threshold 0.3" in out


@pytest.mark.parametrize("argv, match", [
    (["--cost-fp", "1"], "--cost-fn is missing"),
    (["--cost-fp", "-1", "--cost-fn", "2"], "--cost-fp: a cost per row is a finite number >= 0"),
    (["--cost-fp", "0", "--cost-fn", "0"], "every decision costs the same"),
    (["--threshold", "0.2", "--stream"], "needs every row in memory"),
])
def test_report_decision_arguments_are_checked(capsys, csv_file, argv, match):
    try:
        code = main(["report", csv_file, "--target", "y", "--score", "p_model", "-q", *argv])
    except SystemExit as exc:  # refused by the parser
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and match in err


def test_table_expected_cost_with_costs(capsys, csv_file, holdout):
    got = _json(capsys, ["table", csv_file, "--target", "y", "--score", "rule", "--score",
                         "p_model", "--primary", "expected_cost", "--cost-fp", "1",
                         "--cost-fn", "3", "-q"])
    t = compare.holdout_table({"rule": holdout["rule"], "p_model": holdout["p_model"]},
                              np.zeros((N_TEST, 1)), holdout["y"], primary="expected_cost",
                              costs={"fp": 1, "fn": 3}, random_state=0)
    assert got["rows"]["p_model"]["expected_cost"] == pytest.approx(
        t.rows["p_model"]["expected_cost"], abs=1e-12)
    assert got["rows"]["p_model"]["diff_low"] == pytest.approx(t.rows["p_model"]["diff_low"],
                                                               abs=1e-12)
