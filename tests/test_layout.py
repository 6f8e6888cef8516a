"""The package layout: one package per question, imports pointing down the layers.

What is checked here, so that the tree keeps showing the architecture:

- every public import path keeps its public names (the contract users code against);
- no module reaches into another package's private module, except the one private package
  every layer shares (``chimeraboost._shared``);
- imports point down the layers; the only upward imports (the ``.plot()`` methods of
  ``Report``, ``SliceReport``, ``SkillOverTime`` and ``DatasetComparison`` drawing with
  ``chimeraboost.plotting``, as scikit-learn's Display objects do) happen inside a function,
  never at import time;
- the table of packages in ``docs/index.md`` lists every top-level entry and exactly what each
  imports, read off the code;
- the installed distribution ships every module: each one imports in a fresh interpreter
  started outside the checkout (tests run from the checkout import the source tree and would
  not notice a subpackage missing from the wheel).
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import chimeraboost

PACKAGE = Path(chimeraboost.__file__).resolve().parent
ROOT = PACKAGE.parent

# The public names of each public import path: what users may write after the dot. A name
# added to a module's __all__ is added here too; a name is never removed.
PUBLIC = {
    "chimeraboost": [
        "ChimeraBoostClassifier", "ChimeraBoostQuantileRegressor", "ChimeraBoostRegressor",
        "Pipeline", "Report", "ReportMixin", "baselines", "compare", "dask", "decisions",
        "exceptions",
        "make_pipeline", "metrics", "monitor", "plotting", "promotion", "quantile_metrics",
        "report",
        "resampling", "scorers", "slices", "__version__",
    ],
    "chimeraboost.metrics": [
        "reference_log_loss", "reference_brier", "class_prior", "log_loss", "brier_score",
        "log_loss_skill", "brier_skill", "calibration_decomposition", "calibration_mcb",
        "calibration_test", "CalibrationTestResult",
        "classification_report", "ranking_report", "regression_report", "format_report",
        "recall_at_k", "precision_at_k", "reliability_curve", "ReliabilityCurve",
        "classification_evaluator", "regression_evaluator", "ClassificationEvaluator",
        "RegressionEvaluator", "ClassificationAccumulator", "RegressionAccumulator",
    ],
    "chimeraboost.quantile_metrics": [
        "pinball_loss", "crps", "crps_skill", "empirical_quantiles", "interval_coverage",
        "crossing_rate", "quantile_report", "quantile_evaluator", "QuantileEvaluator",
        "format_report",
    ],
    "chimeraboost.scorers": None,  # checked below against scikit-learn's registry instead
    "chimeraboost.resampling": [
        "BootstrapResult", "PairedBootstrapResult", "ConfidenceInterval", "DeLongResult",
        "MIN_RESAMPLES_DECISION", "MIN_RESAMPLES_INTERVAL", "bootstrap", "bootstrap_counts",
        "check_n_boot", "delong_roc_auc", "delong_roc_auc_difference", "joint_bootstrap",
        "paired_bootstrap", "percentile_interval", "roc_auc_interval", "CI_METHODS",
        "CI_METHOD_LABELS", "DEFAULT_CI_METHOD", "JACKKNIFE_BLOCKS", "MIN_EVENTS",
        "check_ci_method", "bootstrap_interval", "jackknife_weights", "jackknife_blocks",
        "acceleration", "effective_df", "narrow_interval_reason", "warn_narrow",
        "Resampler", "ADJUSTMENTS", "DifferenceTests", "difference_tests", "MIN_GROUPS", "few_groups_reason", "MIN_DISCORDANT", "design_effect", "jackknife_variance",
        "MultipleTestResult", "holm", "benjamini_hochberg",
    ],
    "chimeraboost.decisions": [
        "net_benefit", "NetBenefitResult", "expected_cost", "ExpectedCostResult", "Costs",
        "bayes_threshold", "rates_at_threshold", "RatesResult", "choose_threshold",
        "ThresholdChoice", "decision_curve", "DecisionCurve", "decision_report",
        "DecisionReport", "cost_curve", "CostCurve", "brier_curve", "BrierCurve",
        "curve_band", "CurveBand", "DecisionEvaluator",
    ],
    "chimeraboost.compare": [
        "compare_cv", "compare_cv_results", "compare_holdout", "compare_datasets",
        "holdout_table", "one_se_refit", "corrected_ttest", "bayesian_ttest", "holm",
        "benjamini_hochberg", "ChallengerResult", "ComparisonResult", "HoldoutComparison",
        "HoldoutTable", "DatasetComparison", "CorrectedTTestResult", "BayesianTTestResult",
        "MultipleTestResult", "GuardrailResult", "MIN_ROWS_DECISION", "nemenyi_q",
    ],
    "chimeraboost.promotion": [
        "ABMetric", "ABReadout", "ABTestPlan", "ShadowReport", "ab_metric",
        "crossing_probabilities", "inflation_factor", "lan_demets_bounds",
        "obrien_fleming_bounds", "plan_ab_test", "read_ab_test", "sample_size_auc",
        "sample_size_means", "sample_size_proportions", "shadow_report", "spent_alpha",
    ],
    "chimeraboost.baselines": ["ladder", "one_feature_model", "linear_model"],
    "chimeraboost.monitor": ["skill_over_time", "SkillOverTime", "LatestWindowVerdict"],
    "chimeraboost.slices": ["slice_report", "find_weak_slices", "SliceReport"],
    "chimeraboost.plotting": [
        "reliability_diagram", "roc_curve", "pr_curve", "mcb_dsc_plot", "forest_plot",
        "plot_report", "decision_curve", "cost_curve", "slice_plot", "skill_over_time_plot",
        "critical_difference_diagram",
    ],
    "chimeraboost.dask": ["classification_report", "decision_curve", "regression_report",
                          "skill_over_time", "slice_report"],
    "chimeraboost.estimators": [
        "ChimeraBoostRegressor", "ChimeraBoostClassifier", "ChimeraBoostQuantileRegressor",
    ],
    "chimeraboost.pipeline": ["Pipeline", "make_pipeline"],
    "chimeraboost.exceptions": [
        "DegenerateMetricWarning", "FewResamplesWarning", "LowPowerWarning",
        "NarrowIntervalWarning",
    ],
    "chimeraboost.cli": ["demo", "main"],
    "chimeraboost.__main__": ["demo", "main"],
}

# Top-level entries, bottom layer first. An entry imports entries of its own layer or lower.
LAYERS = [
    ["exceptions", "_shared"],
    ["metrics", "quantile_metrics"],
    # decisions sits beside resampling: its intervals and re-chosen thresholds resample
    # through it, and the report, the tables and the scorers use its numbers.
    ["scorers", "resampling", "decisions"],
    # slices sit below the report: they take arrays (and, for the weak-slice search, call an
    # estimator through _shared); report(by=...) hands its outputs down to them.
    ["slices"],
    ["_report", "pipeline", "estimators"],
    ["compare", "baselines", "monitor", "dask"],
    # the production path: shadow traffic, the online test's plan and readout (on compare's
    # multiplicity adjustments and resampling's intervals)
    ["promotion"],
    ["plotting", "cli"],
    ["__init__", "__main__"],
]
LAYER_OF = {entry: i for i, layer in enumerate(LAYERS) for entry in layer}
# The only imports that point up a layer, each inside a function (never at import time): a
# result's .plot() hands it to plotting, which draws it (scikit-learn's Display pattern).
UPWARD_INSIDE_A_FUNCTION = {
    ("_report", "plotting"): "Report.plot() hands the report to plotting, which draws it",
    ("slices", "plotting"): "SliceReport.plot() hands the result to plotting, which draws it",
    ("monitor", "plotting"): "SkillOverTime.plot() hands the result to plotting, which draws it",
    ("compare", "plotting"): "DatasetComparison.plot() hands the result to plotting, which "
                             "draws it",
}


def _modules():
    """(dotted name, path) of every module of the package, read from the source tree."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


MODULES = {dotted for dotted, _ in _modules()}


def _entry(dotted: str) -> str:
    """The top-level entry a dotted module name belongs to (``__init__`` for the package)."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(dotted: str, path: Path):
    """(imported module, names, inside a function) for every chimeraboost import of a module."""
    tree = ast.parse(path.read_text())
    is_package = path.name == "__init__.py"
    package = dotted if is_package else dotted.rpartition(".")[0]
    nested = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef,
                                                              ast.AsyncFunctionDef))
              for n in ast.walk(f)}
    for node in ast.walk(tree):
        inside = id(node) in nested
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "chimeraboost":
                    yield alias.name, [], inside
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] == "chimeraboost":
                yield module, [a.name for a in node.names], inside


def _targets(module: str, names):
    """The modules an import statement reaches: ``from pkg import sub`` reaches ``pkg.sub``."""
    targets = []
    for name in names or [None]:
        candidate = f"{module}.{name}" if name else None
        if candidate in MODULES:
            targets.append(candidate)
        elif module == "chimeraboost" and name and name != "__version__":
            # A name the top-level package re-exports: the package that defines it.
            defined_in = getattr(chimeraboost, name).__module__
            targets.append(".".join(defined_in.split(".")[:2]))
        elif module != "chimeraboost":
            targets.append(module)
    return targets


def _graph():
    """{(importing entry, imported entry): inside a function only} over every module."""
    edges = {}
    for dotted, path in _modules():
        for module, names, inside in _imports(dotted, path):
            for target in _targets(module, names):
                key = (_entry(dotted), _entry(target))
                if key[0] != key[1]:
                    edges[key] = edges.get(key, True) and inside
    return edges


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_public_import_path_keeps_its_names(name):
    module = importlib.import_module(name)
    expected = PUBLIC[name]
    if expected is None:
        return
    if name != "chimeraboost.__main__":
        assert sorted(module.__all__) == sorted(expected), name
    missing = [n for n in expected if not hasattr(module, n)]
    assert not missing, (name, missing)


def test_scorers_module_registers_its_scoring_strings_on_import():
    from sklearn.metrics import get_scorer_names

    from chimeraboost import scorers

    assert set(scorers.SCORING_NAMES) <= set(get_scorer_names())
    assert {"brier_skill", "log_loss_skill", "neg_calibration_mcb"} <= set(scorers.SCORING_NAMES)


def test_the_function_report_is_not_shadowed_by_a_module():
    # cb.report is the function; the report layer is the private package _report, so that no
    # submodule import can replace the function by a module of the same name.
    import chimeraboost._report  # noqa: F401

    assert callable(chimeraboost.report) and chimeraboost.report.__name__ == "report"


@pytest.mark.slow
def test_no_module_imports_another_packages_private_module():
    offending = []
    for dotted, path in _modules():
        own = _entry(dotted)
        for module, names, _ in _imports(dotted, path):
            for target in _targets(module, names):
                parts = target.split(".")
                private = [p for p in parts[2:] if p.startswith("_") and p != "__init__"]
                if private and parts[1] not in (own, "_shared"):
                    offending.append(f"{dotted} imports {target}")
    assert not offending, offending


@pytest.mark.slow
def test_imports_point_down_the_layers():
    entries = {_entry(d) for d, _ in _modules()}
    assert entries == set(LAYER_OF), "every top-level entry has a layer: " + str(
        sorted(entries ^ set(LAYER_OF)))
    upward = []
    for (source, target), inside_only in _graph().items():
        if LAYER_OF[target] > LAYER_OF[source]:
            allowed = (source, target) in UPWARD_INSIDE_A_FUNCTION and inside_only
            if not allowed:
                upward.append(f"{source} -> {target}")
    assert not upward, upward


def _documented_graph():
    text = (ROOT / "docs" / "index.md").read_text()
    section = text.split("## How the package is laid out", 1)[1]
    rows = {}
    for line in section.splitlines():
        match = re.match(r"\|\s*`([\w.]+)`\s*\|[^|]*\|\s*(.*?)\s*\|$", line)
        if match:
            imports = set(re.findall(r"`([\w.]+)`", match[2]))
            rows[match[1].removeprefix("chimeraboost.")] = imports
    return rows


@pytest.mark.slow
def test_the_documented_layout_is_the_code():
    documented = _documented_graph()
    entries = {_entry(d) for d, _ in _modules()} - {"__init__", "__main__"}
    assert set(documented) == entries, sorted(set(documented) ^ entries)
    actual = {entry: set() for entry in entries}
    for source, target in _graph():
        if source in actual and target not in ("__init__",):
            actual[source].add(target)
    wrong = {e: (sorted(documented[e]), sorted(actual[e])) for e in entries
             if documented[e] != actual[e]}
    assert not wrong, "docs/index.md (documented, actual): " + str(wrong)


@pytest.mark.slow
def test_the_installed_package_ships_every_module(tmp_path):
    names = [dotted for dotted, _ in _modules()]
    code = ("import importlib, sys\n"
            f"for name in {names!r}:\n"
            "    importlib.import_module(name)\n"
            "print(sys.modules['chimeraboost'].__file__)\n")
    # -I: no current directory, no PYTHON* variables, so only the installed copy is seen.
    proc = subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    proc = subprocess.run([sys.executable, "-I", "-m", "chimeraboost", "--version"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "chimeraboost" in proc.stdout, proc.stderr[-3000:]
    script = Path(sys.executable).parent / "chimeraboost"
    if script.exists():  # the console script of the install (absent when run without one)
        proc = subprocess.run([str(script), "--version"], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0 and "chimeraboost" in proc.stdout, proc.stderr[-3000:]
