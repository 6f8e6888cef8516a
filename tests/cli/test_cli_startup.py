"""The command line answers --help and argument errors before it loads numpy, scipy or
scikit-learn, and the scoring strings still work when ``import chimeraboost`` loaded none of
them. (How long that takes is benchmarks/bench_cli_startup.py's; no test times it.)"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "scipy", "sklearn", "pandas")

# Runs the command line as `python -m chimeraboost ARGS` (and as the console script does, by
# importing chimeraboost.cli), then prints which heavy packages it loaded.
_PROBE = textwrap.dedent(
    """
    import runpy, sys
    args = sys.argv[2:]
    sys.argv = ["chimeraboost", *args]
    try:
        if sys.argv_mode == "module":
            runpy.run_module("chimeraboost", run_name="__main__", alter_sys=True)
        else:
            from chimeraboost.cli import main
            sys.exit(main(args))
    except SystemExit as exc:
        code = exc.code
    print("LOADED", sorted(m for m in {heavy!r} if m in sys.modules), file=sys.__stderr__)
    """
)


def _loaded(mode, args):
    code = _PROBE.format(heavy=HEAVY).replace("sys.argv_mode", repr(mode))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.run([sys.executable, "-c", code, "--", *args], capture_output=True,
                          text=True, env=env, timeout=120)
    line = [l for l in proc.stderr.splitlines() if l.startswith("LOADED")]
    assert line, proc.stderr[-2000:]
    return line[-1], proc


@pytest.mark.parametrize("mode", ["module", "script"])
@pytest.mark.parametrize("args", [
    ["--help"], ["--version"], ["report", "--help"], ["table", "--help"], ["shadow", "--help"],
    ["plan", "--help"], ["readout", "--help"], ["demo", "--help"],
    ["report"],                                         # FILE and --target missing
    ["report", "x.csv", "--target", "y", "--score", "p", "--ci", "7"],  # a bad level
    ["no-such-command"],
])
def test_help_and_argument_errors_load_no_heavy_package(mode, args):
    line, proc = _loaded(mode, args)
    assert line == "LOADED []", (args, line)
    # It did answer: the help text, the version or argparse's error.
    assert "usage: chimeraboost" in proc.stdout + proc.stderr or "chimeraboost 0" in proc.stdout


@pytest.mark.slow
def test_scoring_strings_are_chimeraboosts_scorers_before_and_after_scorers_load():
    code = textwrap.dedent(
        """
        import copy, pickle, sys
        import chimeraboost
        assert "sklearn" not in sys.modules
        import numpy as np
        from sklearn.datasets import load_breast_cancer
        from sklearn.linear_model import LogisticRegression
        from sklearn.metrics import d2_brier_score, get_scorer
        X, y = load_breast_cancer(return_X_y=True)
        model = LogisticRegression(max_iter=5000).fit(X, y)
        lazy = get_scorer("brier_skill")
        assert "chimeraboost.scorers" not in sys.modules
        value = lazy(model, X, y)
        np.testing.assert_allclose(value, d2_brier_score(y, model.predict_proba(X)), rtol=1e-12)
        # A copy is its own scorer, as scikit-learn's get_scorer promises.
        import sklearn
        sklearn.set_config(enable_metadata_routing=True)
        lazy.set_score_request(sample_weight=True)
        assert get_scorer("brier_skill").get_metadata_routing().score.requests[
            "sample_weight"] is None
        sklearn.set_config(enable_metadata_routing=False)
        assert pickle.loads(pickle.dumps(lazy))(model, X, y) == value
        from chimeraboost import scorers
        assert get_scorer("brier_skill")(model, X, y) == value
        assert type(get_scorer("brier_skill")) is scorers.ProbaScorer
        assert chimeraboost._SCORING_NAMES == scorers.SCORING_NAMES
        print("OK")
        """
    )
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("OK"), proc.stderr[-3000:]
