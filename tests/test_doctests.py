"""Docstring examples: every public module has them, and pytest runs them.

pyproject.toml collects the package with ``--doctest-modules``, so README's test command runs
every example. A collection that silently finds nothing -- the package dropped from
``testpaths``, the option dropped, examples written without ``>>>`` -- would still pass
green, so this file counts the examples in the docstrings (``doctest.DocTestFinder``) and
checks that pytest, with the project's own configuration, collects each of them.
"""

import doctest
import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import chimeraboost
from chimeraboost import (
    compare,
    estimators,
    metrics,
    promotion,
    quantile_metrics,
    resampling,
    scorers,
    slices,
)
from chimeraboost.metrics import _classification

ROOT = Path(chimeraboost.__file__).resolve().parents[1]

# Docstrings holding at least one example: a floor per public module (and the function
# chimeraboost.report), to be raised as examples are added, never lowered.
PUBLIC = {
    # 13 + 1: classification_evaluator's example moved with it to _classification.
    "chimeraboost.metrics": (metrics, 13),
    "chimeraboost.metrics._classification": (_classification, 1),
    "chimeraboost.quantile_metrics": (quantile_metrics, 8),
    "chimeraboost.scorers": (scorers, 4),
    "chimeraboost.compare": (compare, 1),
    "chimeraboost.resampling": (resampling, 1),
    "chimeraboost.estimators": (estimators, 2),
    "chimeraboost.report": (chimeraboost.report, 1),
    "chimeraboost.slices": (slices, 2),
    "chimeraboost.promotion": (promotion, 10),
}


def _doctests(obj):
    """The docstrings of ``obj`` (a module: those of what it defines; a package: those of its
    modules too) that hold examples, named as pytest names them
    (``chimeraboost._report.report``)."""
    name = None if inspect.ismodule(obj) else f"{obj.__module__}.{obj.__qualname__}"
    found = [test for test in doctest.DocTestFinder().find(obj, name) if test.examples]
    if inspect.ismodule(obj) and hasattr(obj, "__path__"):
        for info in pkgutil.walk_packages(obj.__path__, obj.__name__ + "."):
            module = importlib.import_module(info.name)
            found += [test for test in doctest.DocTestFinder().find(module) if test.examples]
    return found


@pytest.mark.parametrize("name", list(PUBLIC))
def test_public_modules_have_examples(name):
    obj, minimum = PUBLIC[name]
    found = _doctests(obj)
    assert len(found) >= minimum, (name, sorted(test.name for test in found))


def _own_public_functions(module):
    for name in module.__all__:
        obj = getattr(module, name)
        # Defined in the module or, for a package, in one of its modules.
        if inspect.isfunction(obj) and (obj.__module__ == module.__name__
                                        or obj.__module__.startswith(module.__name__ + ".")):
            yield name, obj


@pytest.mark.parametrize("module", [metrics, quantile_metrics, slices, promotion],
                         ids=lambda m: m.__name__)
def test_public_functions_have_full_numpydoc(module):
    # Each public function defined in the module: Parameters, Returns and Examples sections,
    # numpydoc-style (title underlined), and at least one example that doctest finds.
    missing = {}
    for name, func in _own_public_functions(module):
        doc = inspect.getdoc(func) or ""
        lacking = [
            section for section in ("Parameters", "Returns", "Examples")
            if not re.search(rf"^{section}\n-{{{len(section)}}}$", doc, flags=re.MULTILINE)
        ]
        if not _doctests(func):
            lacking.append(">>> examples")
        if lacking:
            missing[name] = lacking
    assert not missing, missing


def test_pytest_configuration_collects_the_package_as_doctests(pytestconfig):
    assert "chimeraboost" in pytestconfig.getini("testpaths")
    assert pytestconfig.getoption("doctestmodules") is True


@pytest.mark.slow
def test_pytest_collects_every_example_and_the_counts_readme_states():
    # The project's own configuration (no --doctest-modules on this command line), in a
    # fresh interpreter, as README's test command would run it -- with README's fast subset
    # selected, so that one collection checks both of README's counts.
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-m", "not slow"],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    collected = {line.split("::", 1)[1] for line in proc.stdout.splitlines() if "::" in line}
    expected = {test.name for obj, _ in PUBLIC.values() for test in _doctests(obj)}
    assert expected <= collected, sorted(expected - collected)
    # Collecting imports every module; none may run code on import (the demo of
    # ``python -m chimeraboost`` prints its numbers): every line is a test or the summary.
    printed = [line for line in proc.stdout.splitlines()
               if line.strip() and "::" not in line and " tests collected " not in line]
    assert not printed, printed[:5]
    counts = re.search(r"(\d+)/(\d+) tests collected \((\d+) deselected\)", proc.stdout)
    assert counts, proc.stdout[-500:]
    fast, total = int(counts.group(1)), int(counts.group(2))
    readme = (ROOT / "README.md").read_text()
    claims = [int(re.search(pattern, readme, flags=re.S).group(1).replace(",", ""))
              for pattern in (r"The suite holds about ([\d,]+) tests",
                              r'-m "not slow"\n```\n\nwhich runs about ([\d,]+) tests')]
    # "About": within 10%, so that a few new tests do not make README wrong, and a stale
    # count (1,200 for 1,500) does.
    for claim, actual in zip(claims, (total, fast)):
        assert abs(claim - actual) <= 0.1 * actual, (claims, total, fast)
