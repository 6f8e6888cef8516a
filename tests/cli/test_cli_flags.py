"""Every command's bad flag values: exit status 2 and one line that names the flag the user
typed -- never the library's Python argument (``n_jobs=``, ``threshold=``, ``None``)."""

import re

import numpy as np
import pytest

from chimeraboost.cli import main
from chimeraboost.cli._flags import in_flags


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory):
    rng = np.random.default_rng(3)
    n = 240
    y = rng.integers(0, 2, n)
    p = np.clip(0.5 + 0.3 * (y - 0.5) + rng.normal(0, 0.2, n), 0.01, 0.99)
    path = tmp_path_factory.mktemp("flags") / "h.csv"
    lines = ["y,label,p,q,s,zeros"] + [
        f"{a},{'Yes' if a else 'No'},{b:.6f},{min(max(b + 0.05, 0), 1):.6f},{4 * b - 2:.6f},"
        f"{0 if i % 10 else i}" for i, (a, b) in enumerate(zip(y, p))]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _status(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as exc:  # refused while the arguments were read
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.err


REPORT = ["report", "{f}", "--target", "y", "--score", "p", "-q"]
TABLE = ["table", "{f}", "--target", "y", "--score", "p", "--score", "q", "-q"]
SHADOW = ["shadow", "{f}", "--champion", "p", "--challenger", "q"]
PLAN = ["plan", "--metric", "conversion", "--kind", "proportion", "--champion", "0.10",
        "--challenger", "0.12"]

CASES = [
    (REPORT, ["--threshold", "0"], "--threshold"),
    (REPORT, ["--threshold", "1.5"], "--threshold"),
    (REPORT, ["--n-jobs", "0"], "--n-jobs"),
    (REPORT, ["--n-boot", "0"], "--n-boot"),
    (REPORT, ["--bins", "1", "--by", "zeros"], "--bins"),
    (REPORT, ["--by", "zeros"], "--bins 20"),
    (REPORT, ["--seed", "-1"], "--seed"),
    (REPORT, ["--cost-fp", "-1", "--cost-fn", "2"], "--cost-fp"),
    (REPORT, ["--cost-fp", "0", "--cost-fn", "0"], "--cost-fp/--cost-fn"),
    (REPORT, ["--k", "0"], "--k"),
    (REPORT, ["--ci", "1.5"], "--ci"),
    (REPORT, ["--pos-label", "yes"], "--pos-label"),
    (["report", "{f}", "--target", "y", "--score", "s", "--threshold", "0.3", "-q"],
     [], "--threshold and --cost-fp/--cost-fn act on the probability"),
    (TABLE, ["--n-jobs", "0"], "--n-jobs"),
    (TABLE, ["--n-boot", "abc"], "--n-boot"),
    (TABLE, ["--primary", "net_benefit@1.5"], "--primary 'net_benefit@1.5'"),
    (TABLE, ["--primary", "brier_skil"], "--primary 'brier_skil'"),
    (TABLE, ["--primary", "expected_cost"], "--cost-fp"),
    (TABLE, ["--cost-fp", "1", "--cost-fn", "3"], "--primary expected_cost"),
    (TABLE, ["--threshold", "0.3"], "--threshold"),
    (SHADOW, ["--n-boot", "0"], "--n-boot"),
    (SHADOW, ["--ci", "2"], "--ci"),
    (SHADOW, ["--label", "y"], "--label"),
    (PLAN, ["--alpha", "0"], "--alpha"),
    (PLAN, ["--looks", "0"], "--looks"),
    (PLAN, ["--rows-per-day", "0"], "--rows-per-day"),
]


@pytest.mark.parametrize(("command", "extra", "flag"), CASES,
                         ids=[f"{c[0]} {' '.join(e)}" for c, e, _ in CASES])
def test_a_bad_flag_value_is_named_as_the_flag(capsys, csv_file, command, extra, flag):
    argv = [a.format(f=csv_file) for a in command] + extra
    code, err = _status(capsys, argv)
    assert code == 2
    assert flag in err
    # The user typed flags: no Python argument (n_jobs=, threshold=) and no None.
    assert not re.search(r"\b[a-z]+(_[a-z]+)*=(?!\d)|\bNone\b|\bn_[a-z]+\b", err), err


@pytest.mark.parametrize(("message", "command", "said"), [
    ("n_jobs=0 asks for no thread; pass None or 1", "report",
     "--n-jobs 0 asks for no thread; leave --n-jobs out or 1"),
    ("threshold= and costs= act on", "report", "--threshold and --cost-fp/--cost-fn act on"),
    ("primary='foo' is not a metric (with costs=).", "table",
     "--primary 'foo' is not a metric (with --cost-fp/--cost-fn)."),
    ("n_boot must be >= 1", "shadow", "--n-boot must be >= 1"),
    ("rows_per_day must be > 0", "plan", "--rows-per-day must be > 0"),
    ("the time of each row", "report", "the time of each row"),  # English stays English
])
def test_library_messages_are_said_in_flags(message, command, said):
    assert in_flags(message, command) == said


def test_the_header_names_the_positive_class_and_pos_label_changes_it(capsys, csv_file):
    code = main(["report", csv_file, "--target", "label", "--score", "p", "--no-ci", "-q"])
    out = capsys.readouterr().out
    assert code == 0 and "positive class: Yes (the columns are read as P(Yes)" in out
    code = main(["report", csv_file, "--target", "label", "--score", "p", "--no-ci", "-q",
                 "--pos-label", "No", "--json"])
    out = capsys.readouterr().out
    assert code == 0 and '"positive_class": "No"' in out
