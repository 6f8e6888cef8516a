"""One meaning per public parameter name, and the calling convention of every public function.

What is checked here:

- the table of ``docs/parameters.md`` matches the signatures: every parameter of every public
  function (and public method, and the ``__init__`` of the classes users construct) is in the
  table with that function listed, and every function the table lists takes that name;
- the data come first and everything after them is keyword-only;
- an old spelling and an old positional call still work for one release, warn with a
  ``FutureWarning`` naming the new form, and give the same result as the new call.
"""

from __future__ import annotations

import importlib
import inspect
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from test_layout import PUBLIC

import chimeraboost as cb
from chimeraboost import compare, decisions, metrics, monitor, resampling, slices
from chimeraboost._shared.api import public

DOCS = Path(cb.__file__).resolve().parent.parent / "docs" / "parameters.md"

# Classes whose constructor users call; the other public classes are results and evaluators
# the library builds (their constructors' arguments are their fields, documented on the class).
CONSTRUCTED = {"ChimeraBoostClassifier", "ChimeraBoostRegressor", "ChimeraBoostQuantileRegressor",
               "Pipeline", "Costs", "ClassificationAccumulator", "RegressionAccumulator"}
# scikit-learn's own signatures, kept as scikit-learn has them: an estimator's methods take
# sample_weight by position, its first hyperparameter and Pipeline's steps are positional.
SKLEARN_SIGNATURES = re.compile(r"^(estimators\.)?(ChimeraBoost\w+|Pipeline)(\.\w+)?$")
# Data that may be left out: still data, so still positional (a scorer factory's metric or
# costs are what the scorer is made of, as scikit-learn's make_scorer(score_func)).
OPTIONAL_DATA = {("plotting.decision_curve", "proba"), ("cli.main", "argv"),
                 ("scorers.make_skill_scorer", "metric"),
                 ("scorers.make_expected_cost_scorer", "costs")} | {
    (f"{cls}.evaluate", "counts") for cls in (
        "metrics.ClassificationEvaluator", "metrics.RegressionEvaluator",
        "quantile_metrics.QuantileEvaluator", "decisions.DecisionEvaluator")}


def _public_callables():
    """(qualified name, function) of every public function and method, each object once."""
    seen = set()
    for module_name, names in PUBLIC.items():
        module = importlib.import_module(module_name)
        prefix = module_name.removeprefix("chimeraboost").lstrip(".")
        for name in names if names is not None else list(module.__all__):
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj) or id(obj) in seen:
                continue
            seen.add(id(obj))
            qualified = f"{prefix}.{name}" if prefix else name
            if inspect.isclass(obj):
                if issubclass(obj, BaseException):
                    continue
                if name in CONSTRUCTED:
                    yield qualified, obj.__init__
                for attr, value in vars(obj).items():
                    if not attr.startswith("_") and inspect.isfunction(value):
                        yield f"{qualified}.{attr}", value
            else:
                yield qualified, obj


def _parameters(func):
    return [p for p in inspect.signature(func).parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


SIGNATURES = {name: _parameters(func) for name, func in _public_callables()}


def _table() -> dict:
    """name -> set of functions, read off the table of docs/parameters.md."""
    text = DOCS.read_text().split("## The table", 1)[1]
    table = {}
    for line in text.splitlines():
        match = re.match(r"\|\s*`(\w+)`\s*\|(.*)\|(.*)\|\s*$", line)
        if match:
            name, meaning, functions = match.groups()
            assert meaning.strip(), f"{name} has no meaning in docs/parameters.md"
            assert name not in table, f"{name} appears twice in docs/parameters.md"
            table[name] = set(re.findall(r"`([\w.]+)`", functions))
    return table


def test_every_parameter_name_is_in_the_table_with_its_functions():
    table = _table()
    used = {}
    for qualified, params in SIGNATURES.items():
        for p in params:
            used.setdefault(p.name, set()).add(qualified)
    missing = sorted(set(used) - set(table))
    assert not missing, f"names missing from docs/parameters.md: {missing}"
    unused = sorted(set(table) - set(used))
    assert not unused, f"docs/parameters.md lists names no public function takes: {unused}"
    wrong = {name: (sorted(used[name] - table[name]), sorted(table[name] - used[name]))
             for name in used if used[name] != table[name]}
    assert not wrong, f"(unlisted, listed but not taking it) per name: {wrong}"


def test_the_table_page_is_in_the_navigation_and_linked_from_the_index():
    root = DOCS.parent.parent
    assert "parameters.md" in (root / "mkdocs.yml").read_text()
    assert "(parameters.md)" in (root / "docs" / "index.md").read_text()


# The resampling engine's own methods are its protocol with the library's callers (called by
# position inside the library); their settings become keyword-only with the engine's next change.
ENGINE = re.compile(r"^resampling\.Resampler\.")


@pytest.mark.parametrize("qualified", sorted(SIGNATURES))
def test_everything_after_the_data_is_keyword_only(qualified):
    if SKLEARN_SIGNATURES.match(qualified) or ENGINE.match(qualified):
        return
    positional = [p for p in SIGNATURES[qualified]
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    # The data are required; an optional argument is a setting, hence keyword-only.
    optional = [p.name for p in positional if p.default is not p.empty
                and (qualified, p.name) not in OPTIONAL_DATA]
    assert not optional, f"{qualified}: make {optional} keyword-only"


# The calling convention itself, on a function made for the test.
@public(legacy=("b", "c"), renamed={"old": "new"}, refused={"gone": "gone= is now spelled x="})
def _f(a, *, b=1, c=2, new=3):
    """A function with the convention."""
    return a, b, c, new


def test_the_signature_users_see_is_the_keyword_only_one():
    params = inspect.signature(_f).parameters
    assert [p.kind for p in params.values()] == [
        inspect.Parameter.POSITIONAL_OR_KEYWORD, *[inspect.Parameter.KEYWORD_ONLY] * 3]
    assert _f.__doc__ == "A function with the convention." and _f.__name__ == "_f"
    sig = inspect.signature(metrics.brier_skill).parameters
    assert sig["sample_weight"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig["classes"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD


def test_positional_use_after_the_data_warns_naming_each_argument_and_still_works():
    with pytest.warns(FutureWarning, match=r"pass b=\.\.\., c=\.\.\. as a keyword; positional "
                                           r"use will be an error in the next release"):
        assert _f(0, 5, 6) == (0, 5, 6, 3)
    with pytest.raises(TypeError, match="takes 1 positional arguments but 4 were given"):
        _f(0, 5, 6, 7)
    with pytest.raises(TypeError, match="multiple values for argument 'b'"):
        _f(0, 5, b=6)


def test_an_old_spelling_warns_naming_the_new_one_and_both_are_refused():
    with pytest.warns(FutureWarning, match=r"old= is renamed new="):
        assert _f(0, old=9) == (0, 1, 2, 9)
    with pytest.raises(TypeError, match="got both old= and new="):
        _f(0, old=9, new=9)
    with pytest.raises(TypeError, match="gone= is now spelled x="):
        _f(0, gone=1)


def _binary(n=400, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, n)
    return (rng.uniform(size=n) < p).astype(int), p, rng.uniform(0.5, 2.0, n)


def test_a_metric_called_the_old_way_gives_the_same_number():
    y, p, w = _binary()
    new = metrics.brier_skill(y, p, [0, 1], sample_weight=w, baseline=y[:100])
    with pytest.warns(FutureWarning, match=r"brier_skill\(\): pass sample_weight=\.\.\., "
                                           r"baseline=\.\.\. as a keyword"):
        old = metrics.brier_skill(y, p, [0, 1], w, y[:100])
    assert old == new
    with pytest.warns(FutureWarning, match=r"holm\(\): pass alpha=\.\.\."):
        old = compare.holm([0.01, 0.04, 0.2], 0.1)
    np.testing.assert_array_equal(old.reject, compare.holm([0.01, 0.04, 0.2], alpha=0.1).reject)


@pytest.mark.parametrize(("old", "new"), [("score", "proba")])
def test_decisions_take_probabilities_as_proba(old, new):
    y, p, _ = _binary()
    want = decisions.net_benefit(y, p, [0.2, 0.4]).net_benefit
    with pytest.warns(FutureWarning, match=f"{old}= is renamed {new}="):
        got = decisions.net_benefit(y, thresholds=[0.2, 0.4], **{old: p}).net_benefit
    np.testing.assert_array_equal(got, want)
    with pytest.warns(FutureWarning, match="score= is renamed proba="):
        got = decisions.expected_cost(y, score=p, cost_fp=1, cost_fn=4)
    assert got.expected_cost == decisions.expected_cost(y, p, cost_fp=1, cost_fn=4).expected_cost
    with pytest.warns(FutureWarning, match="baseline_score= is renamed baseline_proba="):
        got = decisions.decision_report(y, p, baseline_score=p ** 2, threshold=0.3, n_boot=1000,
                                        random_state=0)
    want = decisions.decision_report(y, p, baseline_proba=p ** 2, threshold=0.3, n_boot=1000,
                                     random_state=0)
    assert got.to_dict() == want.to_dict()


def test_decision_curve_old_spellings_and_positional_thresholds():
    y, p, _ = _binary()
    kwargs = dict(n_boot=0)
    want = decisions.decision_curve(y, {"a": p, "b": p ** 2}, thresholds=[0.2, 0.3],
                                    baseline_name="b", **kwargs)
    with pytest.warns(FutureWarning) as record:
        got = decisions.decision_curve(y, {"a": p, "b": p ** 2}, [0.2, 0.3], baseline="b",
                                       **kwargs)
    text = " ".join(str(r.message) for r in record)
    assert "baseline= is renamed baseline_name=" in text and "pass thresholds=..." in text
    np.testing.assert_array_equal(got.difference["a"], want.difference["a"])


def test_compare_old_spellings_give_the_same_decisions():
    from sklearn.model_selection import KFold

    rng = np.random.default_rng(1)
    splits = list(KFold(10).split(np.zeros(100)))
    indices = {"train": [tr for tr, _ in splits], "test": [te for _, te in splits]}
    results = {name: {"test_score": rng.normal(loc, 0.01, 10), "indices": indices}
               for name, loc in (("a", 0.80), ("b", 0.82))}
    want = compare.compare_cv_results(results, baseline_name="a", min_posterior=0.9)
    with pytest.warns(FutureWarning) as record:
        got = compare.compare_cv_results(results, baseline="a", threshold=0.9)
    text = " ".join(str(r.message) for r in record)
    assert "threshold= is renamed min_posterior=" in text and "baseline= is renamed" in text
    assert got.to_dict() == want.to_dict()
    scores = rng.uniform(size=(20, 3))
    with pytest.warns(FutureWarning, match="higher_is_better= is renamed greater_is_better="):
        got = compare.compare_datasets(scores, higher_is_better=False)
    assert got.average_ranks == compare.compare_datasets(scores,
                                                         greater_is_better=False).average_ranks
    with pytest.warns(FutureWarning, match="k= is renamed n_models="):
        assert compare.nemenyi_q(k=4) == compare.nemenyi_q(4)


def test_holdout_table_old_spellings_give_the_same_table():
    y, p, _ = _binary(300)
    models = {"a": p, "b": np.clip(p + 0.05, 0, 1)}
    kwargs = dict(n_boot=1000, random_state=0, metrics=["brier_skill"])
    X = np.zeros((300, 1))
    want = compare.holdout_table(models, X, y, baseline_name="b", rope=0.01, **kwargs)
    with pytest.warns(FutureWarning) as record:
        got = compare.holdout_table(models, X, y, baseline="b", min_lift=0.01, **kwargs)
    text = " ".join(str(r.message) for r in record)
    assert "baseline= is renamed baseline_name=" in text and "min_lift= is renamed rope=" in text
    assert got.to_dict() == want.to_dict()


def test_skill_over_time_takes_time_and_reference_from():
    y, p, _ = _binary(240)
    time = np.repeat(np.array(["2024-01-15", "2024-02-15", "2024-03-15", "2024-04-15"],
                              dtype="datetime64[D]"), 60)
    want = monitor.skill_over_time(y, p, time, reference_from="rolling", window=1)
    with pytest.warns(FutureWarning) as record:
        got = monitor.skill_over_time(y, p, when=time, baseline="rolling", window=1)
    text = " ".join(str(r.message) for r in record)
    assert "when= is renamed time=" in text and "baseline= is renamed reference_from=" in text
    np.testing.assert_array_equal(got.to_frame()["brier_skill"], want.to_frame()["brier_skill"])


def test_slice_report_takes_the_slices_as_by_and_refuses_groups():
    y, p, _ = _binary(400)
    region = np.where(np.arange(400) % 2 == 0, "north", "south")
    kwargs = dict(n_boot=1000, random_state=0, calibration=False)
    by_keyword = slices.slice_report(y, p, by=region, **kwargs)
    by_position = slices.slice_report(y, p, region, **kwargs)
    assert by_keyword.to_dict() == by_position.to_dict()
    with pytest.raises(TypeError, match=r"groups= no longer names the slices: pass the slices "
                                        r"as by=.*resampling units"):
        slices.slice_report(y, p, groups=region, **kwargs)


def test_compare_holdout_level_was_ci():
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] + rng.normal(size=300) > 0).astype(int)
    a, b = DummyClassifier().fit(X, y), LogisticRegression().fit(X, y)
    kwargs = dict(n_boot=1000, random_state=0)
    want = compare.compare_holdout(a, b, X, y, level=0.9, **kwargs)
    with pytest.warns(FutureWarning, match="ci= is renamed level="):
        got = compare.compare_holdout(a, b, X, y, ci=0.9, **kwargs)
    assert got.to_dict() == want.to_dict() and want.level == 0.9


def test_resampling_positional_n_boot_warns_and_matches():
    y, p, _ = _binary()
    ev = metrics.classification_evaluator(y, [0, 1], proba=p)
    want = resampling.bootstrap(ev, n_boot=1000, random_state=0).estimate
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FutureWarning, match=r"pass n_boot=\.\.\. as a keyword"):
            resampling.bootstrap(ev, 1000, random_state=0)
    with pytest.warns(FutureWarning):
        got = resampling.bootstrap(ev, 1000, random_state=0).estimate
    assert got.keys() == want.keys()
    assert all(np.array_equal(got[k], want[k], equal_nan=True) for k in want)
