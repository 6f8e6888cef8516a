"""Metric names, ``name@value`` included, are read by one parser
(:func:`chimeraboost._shared.facts.parse_metric`) on every surface that takes one: a
spelling accepted anywhere is accepted everywhere and gives the number of the canonical
spelling; an unknown name or a value out of range gets a message listing what is taken."""

import numpy as np
import pytest

from chimeraboost import compare, decisions, monitor, scorers, slices
from chimeraboost._shared.facts import parse_metric
from chimeraboost.cli import main

N = 300
RNG = np.random.default_rng(7)
Y = (RNG.random(N) < 0.4).astype(int)
P = np.clip(0.4 + 0.35 * (Y - 0.4) + RNG.normal(0, 0.2, N), 0.01, 0.99)
Q = np.clip(P + RNG.normal(0, 0.1, N), 0.01, 0.99)
X = np.zeros((N, 1))

# The same threshold written five ways, and the rows' own numbers at it (decisions is the
# reference every surface must agree with).
SPELLINGS = ["net_benefit@0.2", "net_benefit@0.20", "net_benefit@.2", "net_benefit@2e-1",
             " net_benefit@0.200 "]
NET_BENEFIT = decisions.net_benefit(Y, Q, 0.2).net_benefit[0]


def _table_primary(m):
    return compare.holdout_table({"p": P, "q": Q}, X, Y, primary=m, n_boot=1000,
                                 random_state=0)


def _table_metrics(m):
    return compare.holdout_table({"p": P, "q": Q}, X, Y, primary="roc_auc", metrics=[m],
                                 n_boot=1000, random_state=0)


@pytest.mark.slow
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_gives_the_canonical_number(spelling, capsys, tmp_path):
    """holdout_table's primary and metrics, the scorer and the CLI's --primary: one number
    for every spelling of net_benefit@0.2, equal to decisions.net_benefit's."""
    key = parse_metric(spelling).key
    assert key == "net_benefit@0.2"
    for make in (_table_primary, _table_metrics):
        t = make(spelling)
        assert t.rows["q"][key] == pytest.approx(NET_BENEFIT, abs=1e-12)
    model = type("Fixed", (), {"classes_": np.array([0, 1]),
                               "predict_proba": lambda self, X: np.c_[1 - Q, Q],
                               "fit": lambda self, X, y: self})()
    assert scorers.get_scorer(spelling)(model, X, Y) == pytest.approx(NET_BENEFIT, abs=1e-12)
    path = tmp_path / "h.csv"
    path.write_text("y,p,q\n" + "\n".join(f"{a},{b:.17g},{c:.17g}" for a, b, c in zip(Y, P, Q)))
    code = main(["table", str(path), "--target", "y", "--score", "p", "--score", "q",
                 "--primary", spelling.strip(), "--n-boot", "1000", "-q"])
    out = capsys.readouterr().out
    assert code == 0 and f"{NET_BENEFIT:.3f}" in out


@pytest.mark.parametrize(("text", "name", "at", "key"), [
    ("sensitivity@0.30", "sensitivity", 0.3, "sensitivity@0.3"),
    ("ppv@3e-1", "ppv", 0.3, "ppv@0.3"),
    ("net_benefit@.25", "net_benefit", 0.25, "net_benefit@0.25"),
    ("recall@400", "recall_at_k", 400, "recall_at_k"),
    ("precision@5%", "precision_at_k", 0.05, "precision_at_k"),
    ("brier_skill", "brier_skill", None, "brier_skill"),
])
def test_parse_metric_reads_the_value(text, name, at, key):
    got = parse_metric(text)
    assert (got.name, got.key) == (name, key)
    assert got.at == pytest.approx(at) if at is not None else got.at is None


def _slice(m):
    return slices.slice_report(Y, P, np.arange(N) % 3, metric=m, n_boot=1000)


def _monitor(m):
    time = np.datetime64("2024-01-01") + np.arange(N) // 50
    return monitor.skill_over_time(Y, P, time, baseline=Q, metric=m, n_boot=1000)


class _Fitted:
    """A fitted classifier whose probabilities are given."""

    _estimator_type = "classifier"

    def __init__(self, p):
        self.p, self.classes_ = p, np.array([0, 1])

    def fit(self, X, y):
        return self

    def predict_proba(self, X):
        return np.c_[1 - self.p, self.p]

    def predict(self, X):
        return (self.p >= 0.5).astype(int)


def _compare_holdout(m):
    return compare.compare_holdout(_Fitted(P), _Fitted(Q), X, Y, metric=m, n_boot=1000)


def _decision_verdict(m):
    rep = decisions.decision_report(Y, P, baseline_proba=Q, threshold=0.3, n_boot=1000,
                                    random_state=0)
    return rep.verdict("baseline", metric=m)


# Every surface that takes a metric name; the second field: whether it takes name@threshold.
SURFACES = {
    "holdout_table(primary=)": (_table_primary, True),
    "holdout_table(metrics=)": (_table_metrics, True),
    "get_scorer": (scorers.get_scorer, True),
    "slice_report(metric=)": (_slice, False),
    "skill_over_time(metric=)": (_monitor, False),
    "compare_holdout(metric=)": (_compare_holdout, False),
    "DecisionReport.verdict(metric=)": (_decision_verdict, False),
}


@pytest.mark.parametrize("surface", SURFACES)
@pytest.mark.parametrize(("text", "match"), [
    ("net_benefit@1.5", r"threshold after '@' must be a number strictly inside \(0, 1\), "
                        r"got '1.5'"),
    ("net_benefit@0", r"strictly inside \(0, 1\), got '0'"),
    ("sensitivity@x", r"strictly inside \(0, 1\), got 'x'"),
    ("recall@0", r"a number of rows must be a whole number >= 1, got '0'"),
    ("brier@2", r"'brier' takes no value after '@'"),
])
def test_a_value_out_of_range_is_named_with_its_range(surface, text, match):
    call, _ = SURFACES[surface]
    with pytest.raises(ValueError, match=match):
        call(text)


@pytest.mark.parametrize("surface", SURFACES)
def test_an_unknown_name_lists_the_names_taken(surface):
    call, at_threshold = SURFACES[surface]
    with pytest.raises(ValueError) as err:
        call("brier_skil")
    text = str(err.value)
    if surface != "get_scorer":  # scikit-learn's names are scikit-learn's to list
        assert "'brier_skil'" in text and ("one of [" in text or "use one of" in text
                                           or "available" in text)
    if at_threshold and surface != "get_scorer":
        assert "net_benefit@0.2" in text
    if surface == "get_scorer":
        with pytest.raises(ValueError, match=r"name@threshold .* \['net_benefit'\]"):
            call("sensitivity@0.3")
    with pytest.raises(TypeError, match="must be a metric name"):
        call(3) if surface != "get_scorer" else parse_metric(3, arg="scoring")
