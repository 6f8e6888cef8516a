"""A scorer computes only what its number needs, and its number is the report's.

The skill scorers never sort the scores (no ranking or calibration curve is built for a
loss); their values equal :func:`chimeraboost.report`'s numbers and scikit-learn's
``d2_brier_score`` / ``d2_log_loss_score`` to 1e-12, and the calibration scorer's equals the
report's MCB.
"""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import d2_brier_score, d2_log_loss_score, get_scorer

import chimeraboost as cb
from chimeraboost import metrics
from chimeraboost.metrics import _kernels as kernels
from chimeraboost.metrics import _curves


def _fitted(n_classes, weighted):
    X, y = make_classification(n_samples=600, n_features=6, n_informative=4,
                               n_classes=n_classes, random_state=n_classes)
    model = LogisticRegression(max_iter=1000).fit(X[:300], y[:300])
    w = np.random.default_rng(0).random(300) * 2 if weighted else None
    return model, X[300:], y[300:], w


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_scorer_values_equal_the_report_and_sklearn(n_classes, weighted):
    model, X, y, w = _fitted(n_classes, weighted)
    proba, classes = model.predict_proba(X), model.classes_
    rep = cb.report(model, X, y, sample_weight=w)
    kw = {} if w is None else {"sample_weight": w}
    for name, sk in (("brier_skill", d2_brier_score), ("log_loss_skill", d2_log_loss_score)):
        value = get_scorer(name)(model, X, y, **kw)
        # The metric function is the scorer's number, bit for bit.
        assert value == getattr(metrics, name)(y, proba, classes, sample_weight=w)
        assert value == pytest.approx(rep[name], abs=1e-12, rel=0)
        assert value == pytest.approx(sk(y, proba, sample_weight=w, labels=classes), abs=1e-12,
                                      rel=0)
    mcb = get_scorer("neg_calibration_mcb")(model, X, y, **kw)
    assert -mcb == pytest.approx(rep["calibration_mcb"], abs=1e-12, rel=0)
    assert -mcb == metrics.calibration_mcb(y, proba, classes, sample_weight=w)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("name", ["brier_skill", "log_loss_skill"])
def test_skill_scorers_build_no_curve(n_classes, name, monkeypatch):
    # Sorting the scores is the expensive part of a report; a loss does not need it. Both
    # sort-based kernels refuse to be built while the scorer runs.
    model, X, y, _ = _fitted(n_classes, False)
    expected = get_scorer(name)(model, X, y)

    def refuse(*args, **kwargs):
        raise AssertionError(f"the {name} scorer built a sorted kernel")

    monkeypatch.setattr(_curves.BinaryCurves, "__init__", refuse)
    monkeypatch.setattr(_curves.BinaryRocAuc, "__init__", refuse)
    monkeypatch.setattr(kernels.GroupSums, "__init__", refuse)
    assert get_scorer(name)(model, X, y) == expected
