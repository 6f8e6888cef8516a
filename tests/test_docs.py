"""The code in the docs runs and prints what the docs show.

Pages listed here are executed block by block: each ```python block runs in one namespace per
page, and what it prints must equal the ```text block that follows it, verbatim.
"""

import contextlib
import io
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
EXECUTED = ["getting-started.md", "reading-a-report.md", "monitor.md"]


def _pairs(text):
    """(code, expected output or None) for each python block, in order."""
    blocks = re.findall(r"```(python|text)\n(.*?)```", text, flags=re.S)
    pairs = []
    for i, (kind, body) in enumerate(blocks):
        if kind == "python":
            follows = blocks[i + 1] if i + 1 < len(blocks) else None
            pairs.append((body, follows[1] if follows and follows[0] == "text" else None))
    return pairs


@pytest.mark.parametrize("page", EXECUTED)
def test_page_code_prints_what_the_page_shows(page):
    pairs = _pairs((DOCS / page).read_text())
    assert pairs, f"{page} has no python block"
    namespace = {}
    for code, expected in pairs:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, page, "exec"), namespace)  # noqa: S102 - our own docs
        if expected is not None:
            assert out.getvalue() == expected, f"{page}: output differs from the page"


def test_the_four_number_line_of_the_reading_page_is_the_formatters():
    from chimeraboost import metrics

    shown = re.search(r"```text\n(log loss 0\.3100 .*?)\n```",
                      (DOCS / "reading-a-report.md").read_text()).group(1)
    # A report whose log loss is 0.31 at a 12% base rate: the formatter's own headline.
    values = {"log_loss": 0.31, "base_rate": 0.12,
              "log_loss_ref": metrics.reference_log_loss(0.12)}
    values["log_loss_skill"] = 1 - values["log_loss"] / values["log_loss_ref"]
    line = (f"log loss {values['log_loss']:.4f} | base rate {values['base_rate']:.3f} | "
            f"reference {values['log_loss_ref']:.4f} | skill {values['log_loss_skill']:.3f}")
    assert shown == line
