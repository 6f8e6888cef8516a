"""The evaluator computes only what is asked: ``evaluate(metrics=[...])`` returns the group of
numbers a key belongs to (log loss, Brier, the CORP terms, ranking, thresholds) and nothing
else, does not sort the scores for a loss, and gives the very numbers of the full evaluation
(bit for bit: one definition per number, whichever path asks for it).
"""

import numpy as np
import pytest

from chimeraboost import metrics
from chimeraboost.metrics import _kernels as kernels
from chimeraboost.metrics import _classification, _curves

ROWS = {"base_rate", "positives"}
GROUPS = {
    "log_loss": {"log_loss", "log_loss_ref", "log_loss_skill"},
    "brier": {"brier", "brier_ref", "brier_skill"},
    "corp": {"calibration_mcb", "discrimination_dsc", "uncertainty_unc"},
}
GROUP_OF = {key: name for name, keys in GROUPS.items() for key in keys}


def _designs():
    rng = np.random.default_rng(4)
    n = 200
    yb = (rng.random(n) < 0.25).astype(int)
    pb = np.round(np.clip(0.25 + 0.3 * yb + rng.normal(scale=0.2, size=n), 0.0, 1.0), 2)
    y3 = np.array(["x", "y", "z"])[rng.integers(0, 3, n)]
    p3 = rng.dirichlet(np.ones(3), n)
    w = rng.random(n) * 3
    return {
        "binary": (yb, [0, 1], {"proba": pb}),
        "binary weighted vs prior": (yb, [0, 1], {"proba": pb, "sample_weight": w,
                                                   "baseline": {0: 0.8, 1: 0.2}}),
        "multiclass": (y3, ["x", "y", "z"], {"proba": p3}),
        "multiclass weighted vs targets": (y3, ["x", "y", "z"], {
            "proba": p3, "sample_weight": w, "baseline": y3[:50]}),
    }


@pytest.mark.parametrize("design", list(_designs()))
@pytest.mark.parametrize("key", sorted(GROUP_OF))
def test_one_key_gives_its_group_only_and_the_full_paths_numbers(design, key):
    y, classes, kw = _designs()[design]
    counts = np.random.default_rng(0).integers(0, 3, (3, len(y)))
    full = metrics.classification_evaluator(y, classes, **kw).evaluate(counts, warn=False)
    ev = metrics.classification_evaluator(y, classes, **kw)
    got = ev.evaluate(counts, warn=False, metrics=[key])
    assert set(got) == GROUPS[GROUP_OF[key]] | ROWS
    for name, value in got.items():
        if "sample_weight" in kw and GROUP_OF[key] != "corp":
            # Fractional weights: without the sort, each class's weight is a dot product,
            # with it a cumulative sum in score order; the two roundings differ in the last
            # bit. Everything else is the same arithmetic.
            np.testing.assert_allclose(value, full[name], rtol=1e-13, atol=1e-13, err_msg=name)
        else:
            np.testing.assert_array_equal(value, full[name], err_msg=name)  # bit for bit


@pytest.mark.parametrize("design", list(_designs()))
@pytest.mark.parametrize("key", sorted(GROUPS["log_loss"] | GROUPS["brier"]))
def test_a_loss_never_sorts_the_scores(design, key, monkeypatch):
    # The sort-based kernels: BinaryCurves (the report's path) and GroupSums (the
    # decomposition's). A loss and its skill need neither.
    y, classes, kw = _designs()[design]
    argsort = np.argsort

    def refuse(*args, **kwargs):
        raise AssertionError("sorted the scores for a loss")

    def argsort_labels_only(a, *args, **kwargs):  # the K class labels may be sorted
        if np.size(a) >= len(y):
            refuse()
        return argsort(a, *args, **kwargs)

    monkeypatch.setattr(_curves.BinaryCurves, "__init__", refuse)
    monkeypatch.setattr(kernels.GroupSums, "__init__", refuse)
    monkeypatch.setattr(np, "argsort", argsort_labels_only)
    ev = metrics.classification_evaluator(y, classes, **kw)
    assert np.isfinite(ev.evaluate(metrics=[key])[key][0])


def test_brier_alone_computes_no_log_loss_and_no_predicted_class(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("computed a per-row number the Brier skill does not need")

    monkeypatch.setattr(_classification, "row_log_loss", refuse)
    monkeypatch.setattr(_classification, "row_pred", refuse)
    y, classes, kw = _designs()["multiclass"]
    ev = metrics.classification_evaluator(y, classes, **kw)
    assert set(ev.evaluate(metrics=["brier_skill"])) == GROUPS["brier"] | ROWS


def test_without_probabilities_a_requested_loss_is_nan_as_in_the_full_report():
    y, _, kw = _designs()["binary"]
    ev = metrics.classification_evaluator(y, [0, 1], score=kw["proba"])
    full = metrics.classification_evaluator(y, [0, 1], score=kw["proba"]).evaluate()
    for key in ("brier_skill", "log_loss", "calibration_mcb"):
        got = ev.evaluate(metrics=[key])
        assert set(got) == GROUPS[GROUP_OF[key]] | ROWS
        assert all(np.isnan(got[k][0]) and np.isnan(full[k][0]) for k in GROUPS[GROUP_OF[key]])


def test_asking_twice_and_in_any_order_gives_the_same_numbers():
    # The per-row losses are computed on first use and kept: a second request, or the full
    # evaluation after a partial one, reads the same arrays.
    y, classes, kw = _designs()["binary weighted vs prior"]
    fresh = metrics.classification_evaluator(y, classes, **kw).evaluate()
    ev = metrics.classification_evaluator(y, classes, **kw)
    first = ev.evaluate(metrics=["log_loss_skill"])
    ev.evaluate(metrics=["calibration_mcb"])
    again = ev.evaluate()
    for key, value in fresh.items():
        np.testing.assert_array_equal(again[key], value, err_msg=key)
    np.testing.assert_array_equal(first["log_loss_skill"], fresh["log_loss_skill"])
