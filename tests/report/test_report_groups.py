"""The report on rows that are not independent: ``groups=`` and ``time=``."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

import chimeraboost as cb


class Column(ClassifierMixin, BaseEstimator):
    """A fitted classifier whose probability of class 1 is the column ``p`` of X."""

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, X):
        p = np.asarray(X["p"], dtype=float)
        return np.c_[1 - p, p]

    def predict(self, X):
        return (self.predict_proba(X)[:, 1] >= 0.5).astype(int)


@pytest.fixture(scope="module")
def rows():
    rng = np.random.default_rng(0)
    n = 400
    y = rng.integers(0, 2, n)
    p = np.clip(0.5 + 0.35 * (y - 0.5) + rng.normal(scale=0.2, size=n), 0.02, 0.98)
    return pd.DataFrame({"p": p, "customer": np.arange(n)}), y


def test_copied_rows_resampled_by_customer_are_the_original_rows(rows):
    X, y = rows
    m = 3
    Xm = X.loc[X.index.repeat(m)].reset_index(drop=True)
    ym = np.repeat(y, m)
    model = Column().fit(X, y)
    one = cb.report(model, X, y, ci=0.95, n_boot=1000, random_state=0)
    many = cb.report(model, Xm, ym, ci=0.95, n_boot=1000, random_state=0, groups="customer")
    for key in ("brier_skill", "log_loss", "roc_auc", "pr_auc"):
        np.testing.assert_allclose(many.ci[key], one.ci[key], rtol=1e-9, err_msg=key)
    naive = cb.report(model, Xm, ym, ci=0.95, n_boot=1000, random_state=0)
    width = np.diff(naive.ci["brier_skill"])[0]
    assert width < 0.7 * np.diff(many.ci["brier_skill"])[0]
    dep = many.dependence
    assert dep["units"] == "groups" and dep["n_units"] == len(y)
    assert 2.0 < dep["design_effect"] < 4.5
    assert dep["effective_rows"] == pytest.approx(len(ym) / dep["design_effect"])
    text = str(many)
    assert "Intervals resample whole groups (400 groups)" in text
    assert "independent ones" in text and "resamples of whole groups" in text
    assert naive.dependence is None and "design effect" not in str(naive)


def test_time_gives_the_date_range_and_blocks(rows):
    X, y = rows
    dates = pd.Series(pd.date_range("2024-04-01", periods=len(y), freq="D")).sample(
        frac=1.0, random_state=1).to_numpy()
    r = cb.report(Column().fit(X, y), X, y, ci=0.9, n_boot=1000, random_state=0, time=dates)
    assert r.dependence["units"] == "time"
    first, last = pd.Timestamp(dates.min()), pd.Timestamp(dates.max())
    span = f"time {first:%Y-%m-%d}..{last:%Y-%m-%d}"
    assert span in r.header() and r.dependence["block_length"] >= 1
    assert r.to_dict()["dependence"]["time_range"] == [f"{first:%Y-%m-%d}", f"{last:%Y-%m-%d}"]


def test_a_pipeline_and_the_mixin_take_groups(rows):
    X, y = rows
    Xn = np.c_[X["p"]]
    model = cb.make_pipeline(LogisticRegression()).fit(Xn, y)
    g = np.arange(len(y)) // 4
    a = model.report(Xn, y, ci=0.95, n_boot=1000, random_state=0, groups=g)
    b = cb.report(model, Xn, y, ci=0.95, n_boot=1000, random_state=0, groups=g)
    assert a.ci["brier_skill"] == b.ci["brier_skill"] and a.dependence["n_units"] == 100


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"groups": np.arange(5)}, "groups has 5 values but there are 400 rows"),
    ({"groups": "client"}, "'client' is not a column of X"),
    ({"groups": np.zeros(400)}, "groups holds one group"),
    ({"time": np.full(400, np.nan)}, "time has 400 missing"),
])
def test_bad_units_are_refused_before_any_resampling(rows, kwargs, match):
    X, y = rows
    with pytest.raises(ValueError, match=match):
        cb.report(Column().fit(X, y), X, y, ci=0.95, **kwargs)
