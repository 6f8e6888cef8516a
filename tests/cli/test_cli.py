"""The README's two commands and the demo they run."""

import io
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split

from chimeraboost import ChimeraBoostClassifier, metrics
from chimeraboost.cli._main import demo, main

ROOT = Path(__file__).resolve().parents[2]


def _readme_commands():
    blocks = re.findall(r"```bash\n(.*?)\n```", (ROOT / "README.md").read_text(), flags=re.S)
    return blocks[0].strip(), blocks[1].strip()


def test_readme_opens_with_install_demo_and_install_test_commands():
    run_demo, run_tests = _readme_commands()
    assert "pip install" in run_demo and run_demo.endswith("-m chimeraboost demo")
    assert 'pip install -q ".[dev]"' in run_tests and "pytest" in run_tests
    # CI runs README's test command verbatim.
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert run_tests in ci_lines


@pytest.fixture(scope="module")
def demo_text():
    buf = io.StringIO()
    demo(out=buf)  # the default resamples, as README's command runs it
    return buf.getvalue()


@pytest.mark.slow
def test_demo_numbers_are_those_of_the_model(demo_text):
    text = demo_text
    # Refit the demo's model independently and score it with sklearn and metrics.
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.4, stratify=y, random_state=0
    )
    model = ChimeraBoostClassifier(random_state=0).fit(X_train, y_train)
    proba = model.predict_proba(X_test)
    r = metrics.classification_report(y_test, proba, model.classes_, baseline=y_train)
    expected = (
        f"log loss {log_loss(y_test, proba):.4f} | base rate {np.mean(y_test):.3f} | "
        f"baseline prior {np.mean(y_train):.3f} | reference {r['log_loss_ref']:.4f} | "
        f"skill {r['log_loss_skill']:.3f}"
    )
    assert expected in text
    assert "model minus baseline, paired bootstrap 95%" in text
    assert re.search(r"\n  brier_skill +\+0\.\d{4} +0\.\d{4}( +\+[01]\.\d{3}){5}\n", text)
    assert re.search(r"ChimeraBoostRegressor \(rung: (trees|blend|linear)[^)]*\) · 177 rows "
                     "scored", text)
    # Section 2 compares two different models: ChimeraBoost's trees take part on the digits
    # (its rung is not the linear one), and the comparison ends in a verdict.
    model = ChimeraBoostClassifier(random_state=0).fit(X_train, y_train)
    assert model.rung_ == "linear" and f"rung_ = {model.rung_!r}" in text
    section = text.split("\n2. ", 1)[1].split("\n3. ", 1)[0]
    assert re.search(r"ChimeraBoostClassifier \(rung: (blend|trees)", section)
    assert "model better" in section or "baseline better" in section


@pytest.mark.slow
def test_demo_tables_keep_their_columns_apart(demo_text):
    lines = demo_text.splitlines()
    headers = [i for i, line in enumerate(lines)
               if re.match(r"\s*(metric|scoring|loss|proper score)  ", line)]
    assert len(headers) >= 6
    for i in headers:
        width = len(re.split(r"\s{2,}", lines[i].strip()))
        rows = []
        for line in lines[i + 1:]:
            if not line.strip() or line.lstrip().startswith(("DeLong", "calibration")):
                break
            rows.append(re.split(r"\s{2,}", line.strip()))
        assert rows and all(len(row) == width for row in rows), (lines[i], rows)
    # The regression paired table: every number its own field, signed where it is a difference.
    mse = next(line for line in lines if line.startswith("  mse "))
    fields = mse.split()
    assert len(fields) >= 8 and all(f[0] in "+-" for f in fields[3:6]), mse


def test_cli_rejects_unknown_command(capsys):
    with pytest.raises(SystemExit):
        main(["nonsense"])
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.slow
def test_readme_sample_output_is_the_demos(demo_text):
    sample = re.search(r"among other things.*?\n```\n(.*?)\n```", (ROOT / "README.md").read_text(),
                       flags=re.S).group(1)
    # Everything above the intervals does not depend on the number of resamples.
    fixed = sample.split("\n95% bootstrap intervals")[0]
    assert fixed.count("\n") >= 8 and fixed in demo_text


@pytest.mark.slow
def test_readme_holdout_table_and_sentence_are_the_demos(demo_text):
    readme = (ROOT / "README.md").read_text()
    table = re.search(r"holdout_table`\):\n\n```\n(.*?)\n```", readme, flags=re.S).group(1)
    sentence = re.search(r"summary\(\)`\):\n\n```\n(.*?)\n```", readme, flags=re.S).group(1)
    assert table.startswith("40% holdout: 228 rows, 143 positives") and table in demo_text
    assert "0/1 rule: log loss" in table and "floor" in table and "ChimeraBoost" in table
    assert sentence.startswith("On the 40% holdout (228 rows, 143 positives) ChimeraBoost")
    assert sentence in demo_text
