"""The code in the docs runs and prints what the docs show.

Every page (README.md and docs/*.md) is executed block by block, in one namespace per page and
in a fresh working directory (examples that write files write them there):

- a ```python block runs; when a ```text block follows it with nothing but blank lines
  between, what the code prints must equal that block, verbatim. A sentence between the two
  keeps an output block out of the comparison (an abbreviated one, for example).
- a ```python block written as an interactive session (``>>>`` prompts) runs as a doctest:
  each shown result must be what the line returns.
- a block preceded by ``<!-- not executed: reason -->`` is skipped; the reason is required.
  Used only for code that trains a benchmark panel, needs a file the page cannot provide, or
  needs a service the tests cannot start (a Dask scheduler on another machine).

Shell (```bash), JSON and plain output blocks are not executed here; tests/test_cli.py and
tests/test_cli_files.py run the commands they show.
"""

import contextlib
import doctest
import io
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))
LANGUAGES = {"python", "text", "bash", "json", ""}
SKIP = re.compile(r"<!--\s*not executed:\s*((?:(?!-->).)*?)\s*-->\s*$", flags=re.S)


def _blocks(text):
    """(language, body, prose before the block) for each fenced block, in order."""
    blocks, lines, prose, i = [], text.splitlines(keepends=True), [], 0
    while i < len(lines):
        opening = re.match(r"```(\w*)\s*$", lines[i])
        if not opening:
            prose.append(lines[i])
            i += 1
            continue
        body, i = [], i + 1
        while not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        blocks.append((opening.group(1), "".join(body), "".join(prose)))
        prose, i = [], i + 1
    return blocks


def _steps(text):
    """(code, expected output or None, skip reason or None) for each python block."""
    blocks = _blocks(text)
    steps = []
    for i, (lang, body, before) in enumerate(blocks):
        assert lang in LANGUAGES, f"a ```{lang} block: use python, text, bash or json"
        if lang != "python":
            continue
        skip = SKIP.search(before)
        if skip is not None:
            assert skip.group(1), "<!-- not executed: ... --> needs a reason"
        after = blocks[i + 1] if i + 1 < len(blocks) else None
        shown = after[1] if after and after[0] == "text" and not after[2].strip() else None
        steps.append((body, shown, skip and skip.group(1)))
    return steps


def _run_session(code, namespace, page):
    """A block of ``>>>`` lines, run as a doctest in the page's namespace."""
    test = doctest.DocTestParser().get_doctest(code, namespace, page, page, 0)
    runner = doctest.DocTestRunner()  # no ELLIPSIS: a session shows its whole output
    out = io.StringIO()
    runner.run(test, out=out.write, clear_globs=False)
    namespace.update(test.globs)  # the DocTest ran in a copy; later blocks see its names
    assert runner.failures == 0, f"{page}: the session differs from the page\n{out.getvalue()}"


# Pages whose code takes more than about half a second of CPU time (fits, a Dask cluster).
SLOW_PAGES = {"README.md", "docs/compare.md", "docs/decisions.md", "docs/metrics.md",
              "docs/monitor.md", "docs/plotting.md", "docs/promotion.md",
              "docs/quantile_metrics.md", "docs/report.md",
              "docs/scale.md"}


@pytest.mark.parametrize("page", [pytest.param(p, marks=pytest.mark.slow) if p in SLOW_PAGES
                                  else p for p in PAGES])
def test_page_code_prints_what_the_page_shows(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__main__"}
    try:
        for code, expected, skip in _steps((ROOT / page).read_text()):
            if skip:
                continue
            if code.lstrip().startswith(">>>"):
                _run_session(code, namespace, page)
                continue
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, page, "exec"), namespace)  # noqa: S102 - our own docs
            if expected is not None:
                assert out.getvalue() == expected, f"{page}: output differs from the page"
    finally:
        if "matplotlib.pyplot" in sys.modules:
            import matplotlib.pyplot as plt

            plt.close("all")


def test_blocks_are_read_as_the_site_renders_them():
    page = ("intro\n```python\nprint(1)\n```\n\n```text\n1\n```\n"
            "```python\nprint(2)\n```\nabbreviated:\n```text\n...\n```\n"
            "<!-- not executed: trains a panel -->\n```python\nfit()\n```\n"
            "<!-- not executed: old --> a sentence <!-- a comment -->\n```python\nrun()\n```\n")
    assert _steps(page) == [("print(1)\n", "1\n", None), ("print(2)\n", None, None),
                            ("fit()\n", None, "trains a panel"), ("run()\n", None, None)]


def test_the_four_number_line_of_the_reading_page_is_the_formatters():
    from chimeraboost import metrics

    shown = re.search(r"```text\n(log loss 0\.3100 .*?)\n```",
                      (ROOT / "docs" / "reading-a-report.md").read_text()).group(1)
    # A report whose log loss is 0.31 at a 12% base rate: the formatter's own headline.
    values = {"log_loss": 0.31, "base_rate": 0.12,
              "log_loss_ref": metrics.reference_log_loss(0.12)}
    values["log_loss_skill"] = 1 - values["log_loss"] / values["log_loss_ref"]
    line = (f"log loss {values['log_loss']:.4f} | base rate {values['base_rate']:.3f} | "
            f"reference {values['log_loss_ref']:.4f} | skill {values['log_loss_skill']:.3f}")
    assert shown == line
