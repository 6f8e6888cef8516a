"""Bad or degenerate input on the slices, decisions and calibration surfaces: an error (or a
warning, for input that is legal but leaves a number undefined) that names the argument,
the value and the fix -- never the name of an internal variable or another argument."""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from chimeraboost import compare, decisions, metrics, slices
from chimeraboost.exceptions import DegenerateMetricWarning, NarrowIntervalWarning

N = 300
RNG = np.random.default_rng(11)
X1 = RNG.normal(size=N)
Y = (RNG.random(N) < 1 / (1 + np.exp(-X1))).astype(int)
P = 1 / (1 + np.exp(-X1))
Q = np.clip(P + RNG.normal(0, 0.05, N), 0.01, 0.99)
YES_NO = np.where(Y == 1, "Yes", "No")
THIRDS = np.arange(N) % 3
MOSTLY_ZERO = np.where(np.arange(N) % 10 == 0, np.arange(N) + 1.0, 0.0)


XX = np.c_[X1, RNG.normal(size=N)]
MODEL = LogisticRegression().fit(XX, Y)

ERRORS = [
    # by: one label per row, named as by (never "None")
    (lambda: slices.slice_report(Y, P, THIRDS[:-5]), ValueError,
     r"^by has 295 rows but y has 300; pass one label per row"),
    (lambda: slices.slice_report(Y, P, [THIRDS, THIRDS[:-1]]), ValueError,
     r"^by is a list of 2 arrays \(300, 299 rows\); pass one array of labels"),
    (lambda: slices.slice_report(Y, P, []), ValueError, r"^by is empty; pass a column name"),
    (lambda: slices.slice_report(Y, P, np.str_("y"), X={"a": THIRDS}), ValueError,
     r"^by names column 'y', which is not in X; X's columns are \['a'\]"),
    (lambda: slices.slice_report(Y, P, MOSTLY_ZERO), ValueError,
     r"every row in one slice .* The 5 quantile ranges of the labels collapsed into one: "
     r"most rows share one value.*more ranges \(bins=20\)"),
    # slice_report's baseline is named baseline, not proba
    (lambda: slices.slice_report(Y, P, THIRDS, baseline=Q[:-5]), ValueError,
     r"^baseline has 295 rows but y has 300"),
    (lambda: slices.slice_report(Y, P, THIRDS, baseline=3 * Q), ValueError,
     r"^baseline must hold probabilities in \[0, 1\]"),
    (lambda: slices.slice_report(Y, P, THIRDS, baseline=np.c_[Q, Q, Q]), ValueError,
     r"^baseline has 3 columns but there are 2 classes"),
    # a positive label that is not one of the two: an error naming the labels
    (lambda: decisions.rates_at_threshold(YES_NO, P, 0.3, pos_label="yes"), ValueError,
     r"pos_label='yes' is not a label of y, which holds \['No', 'Yes'\]"),
    (lambda: decisions.net_benefit(YES_NO, P, 0.3, pos_label="yes"), ValueError,
     r"pos_label='yes' is not a label of y, which holds \['No', 'Yes'\]"),
    (lambda: decisions.expected_cost(YES_NO, P, cost_fp=1, cost_fn=3, pos_label="YES"),
     ValueError, r"pos_label='YES' is not a label of y"),
    (lambda: metrics.recall_at_k(YES_NO, P, 10, pos_label="yes"), ValueError,
     r"pos_label='yes' is not a label of y"),
    # an argument of another objective is not silently ignored
    (lambda: decisions.choose_threshold(Y, P, cost_fp=1, cost_fn=3, at=0.3), ValueError,
     r"at=0.3 applies to objective='net_benefit', not to objective='cost', whose threshold "
     r"follows from the costs"),
    (lambda: decisions.choose_threshold(Y, P, objective="net_benefit", at=0.2, target=0.8),
     ValueError, r"target=0.8 applies to objective='recall'"),
    (lambda: compare.holdout_table({"p": P, "q": Q}, XX, Y, costs={"fp": 1, "fn": 3}),
     ValueError, r"costs= prices the decision of 'expected_cost' only"),
    # a weak-slice search no slice could pass says why
    (lambda: slices.find_weak_slices(MODEL, XX, np.ones(N, int)), ValueError,
     r"y holds a single class \(1\): every slice's skill"),
    (lambda: slices.find_weak_slices(MODEL, XX[:20], Y[:20]), ValueError,
     r"the search half has 10 rows, fewer than 60, but a slice and the rest of the rows "
     r"each need min_rows=30"),
]


@pytest.mark.parametrize(("call", "error", "match"), ERRORS)
def test_bad_input_is_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


def _zero_weight_slice():
    w = np.where(THIRDS == 1, 0.0, 1.0)
    r = slices.slice_report(Y, P, THIRDS, sample_weight=w, n_boot=1000)
    assert np.isnan(r.values["brier_skill"][1]) and np.isfinite(r.values["brier_skill"][0])
    assert r.verdict[1] == "not tested: every row weighs 0"


WARNINGS = [
    (lambda: metrics.calibration_test(Y, np.c_[P / 2, P / 2, 1 - P], [0, 1, 2],
                                      n_boot=1000, random_state=0),
     DegenerateMetricWarning, r"y holds no row of class \[2\] \(it holds \[0, 1\] of classes "
                              r"\[0, 1, 2\]\)"),
    (_zero_weight_slice, DegenerateMetricWarning,
     r"Slice '1': every row weighs 0 \(sample_weight\)"),
    (lambda: decisions.choose_threshold(Y, P, cost_fp=1, cost_fn=3, groups=np.arange(N) % 10,
                                        n_boot=1000, random_state=0),
     NarrowIntervalWarning, r"interval\(s\) of the value at the threshold held fixed"),
]


@pytest.mark.parametrize(("call", "category", "match"), WARNINGS)
def test_degenerate_input_warns_naming_the_cause(call, category, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NarrowIntervalWarning)  # the one checked is caught
        with pytest.warns(category, match=match):
            call()


def test_a_threshold_that_is_not_the_costs_bayes_threshold_is_said():
    """C_fp = 1, C_fn = 3: the Bayes threshold is 1 / (1 + 3) = 0.25."""
    at_half = decisions.decision_report(Y, P, threshold=0.5, costs={"fp": 1, "fn": 3},
                                        n_boot=1000, random_state=0)
    assert "note: the costs' Bayes threshold is 0.25, not 0.5" in str(at_half)
    at_bayes = decisions.decision_report(Y, P, costs={"fp": 1, "fn": 3}, n_boot=1000,
                                         random_state=0)
    assert at_bayes.threshold == 0.25 and "Bayes threshold" not in str(at_bayes)


def test_a_pyarrow_table_gives_the_column_names_of_a_dataframe():
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": X1, "b": XX[:, 1]})
    table = pa.table({"a": X1, "b": XX[:, 1]})
    got = slices.slice_report(Y, P, "a", X=table, n_boot=1000)
    expected = slices.slice_report(Y, P, "a", X=frame, n_boot=1000)
    assert got.labels == expected.labels and got.labels[0].startswith("a in [")
    with pytest.raises(ValueError, match=r"X's columns are \['a', 'b'\]"):
        slices.slice_report(Y, P, "c", X=table, n_boot=1000)
