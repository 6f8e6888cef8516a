"""The slices with ``groups=`` / ``time=``: whole groups resampled, each slice its share; the
halves of find_weak_slices split by group; ties give no verdict."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pandas as pd
import pytest
from scipy.special import ndtr
from sklearn.linear_model import LogisticRegression

import chimeraboost as cb
from chimeraboost.slices import find_weak_slices, slice_report

FAST = dict(n_boot=400, calibration=False)
pytestmark = pytest.mark.filterwarnings("ignore::chimeraboost.exceptions.FewResamplesWarning")


def snapshots(G=100, m=12, rho=0.7, seed=0):
    """The snapshot design: customers with m rows, a persistent customer latent, a forecast
    calibrated given the customer's feature."""
    rng = np.random.default_rng(seed)
    x = np.repeat(rng.standard_normal(G), m)
    u = np.repeat(rng.standard_normal(G), m)
    latent = 1.2 * x - 0.8 + np.sqrt(rho) * u + np.sqrt(1 - rho) * rng.standard_normal(G * m)
    customer = np.repeat(np.arange(G), m)
    region = np.repeat(rng.integers(0, 4, G), m)
    return (latent > 0).astype(int), ndtr(1.2 * x - 0.8), customer, region


def _widths(r, key="brier_skill"):
    iv = r.intervals[key]
    return iv[:, 1] - iv[:, 0]


def test_one_row_per_group_is_the_row_bootstrap():
    y, p, _, region = snapshots(G=600, m=1, rho=0.0, seed=1)
    rows = slice_report(y, p, region, random_state=0, **FAST)
    groups = slice_report(y, p, region, groups=np.arange(y.size), random_state=1, **FAST)
    # Same numbers; intervals and standard errors within Monte Carlo error of 400 resamples.
    np.testing.assert_array_equal(rows.values["brier_skill"], groups.values["brier_skill"])
    np.testing.assert_allclose(_widths(groups), _widths(rows), rtol=0.2)
    np.testing.assert_allclose(groups.se, rows.se, rtol=0.2)


def test_a_clustered_design_widens_the_slices_intervals():
    y, p, customer, region = snapshots(rho=0.7, seed=2)
    rows = slice_report(y, p, region, random_state=0, **FAST)
    grouped = slice_report(y, p, region, groups=customer, random_state=0, **FAST)
    assert np.all(_widths(grouped) > 1.5 * _widths(rows))
    assert np.all(grouped.se > 1.5 * rows.se)
    # The tests' degrees of freedom count the slice's customers, not its rows: the same
    # difference over the same standard error is a larger p-value.
    assert np.all(grouped.pvalue >= rows.pvalue - 1e-12)


def test_groups_crossing_slices_move_together_in_every_slice():
    # Each customer has one row in slice A and an identical row in slice B: resampling whole
    # customers of all rows keeps A and B equal in every resample (a tie, p = 1); resampling
    # rows does not.
    rng = np.random.default_rng(3)
    G = 300
    y = np.tile(rng.integers(0, 2, G), 2)
    p = np.tile(np.clip(0.3 + 0.4 * y[:G] + rng.normal(0, 0.2, G), 0.02, 0.98), 2)
    by = np.repeat(["A", "B"], G)
    customer = np.tile(np.arange(G), 2)
    grouped = slice_report(y, p, by, groups=customer, random_state=0, **FAST)
    np.testing.assert_array_equal(grouped.difference, 0.0)
    np.testing.assert_array_equal(grouped.pvalue, 1.0)
    np.testing.assert_array_equal(grouped.diff_interval, 0.0)
    assert all(v == "no detectable difference" for v in grouped.verdict)
    rows = slice_report(y, p, by, random_state=0, **FAST)
    assert np.all(rows.se > 0)


def test_groups_as_a_column_of_X():
    y, p, customer, region = snapshots(G=60, m=5, seed=4)
    X = pd.DataFrame({"customer": customer, "region": region})
    a = slice_report(y, p, "region", X=X, groups="customer", random_state=0, **FAST)
    b = slice_report(y, p, region, groups=customer, random_state=0, **FAST)
    np.testing.assert_allclose(a.intervals["brier_skill"], b.intervals["brier_skill"],
                               rtol=1e-12)
    np.testing.assert_allclose(a.se, b.se, rtol=1e-12)


@pytest.mark.parametrize("bad, message", [
    (np.arange(10), r"groups has 10 values but there are 300 rows"),
    (np.r_[np.nan, np.arange(299.0)], r"groups has 1 missing value"),
    (np.zeros(300), r"groups holds one group"),
    (pd.Series(np.arange(300), index=np.arange(300) + 5), r"index"),
])
def test_bad_groups_are_refused(bad, message):
    y, p, _, region = snapshots(G=60, m=5, seed=5)
    with pytest.raises(ValueError, match=message):
        slice_report(pd.Series(y), p, region, groups=bad, **FAST)


def test_groups_without_by_says_that_by_is_required():
    y, p, customer, region = snapshots(G=60, m=5, seed=6)
    with pytest.raises(TypeError, match=r"needs the slices: pass them as by=.*groups= no "
                                        r"longer names the slices"):
        slice_report(y, p, groups=region, **FAST)
    # With by=, groups= names the resampling units.
    r = slice_report(y, p, by=region, groups=customer, random_state=0, **FAST)
    assert len(r.labels) == 4


def test_time_resamples_blocks():
    rng = np.random.default_rng(7)
    n = 1200
    a = np.zeros(n)
    for t in range(1, n):  # AR(1) of unit variance, phi 0.9
        a[t] = 0.9 * a[t - 1] + np.sqrt(1 - 0.81) * rng.standard_normal()
    x = rng.standard_normal(n)
    y = (1.2 * x - 0.8 + a > 0).astype(int)
    p = ndtr((1.2 * x - 0.8) / np.sqrt(2.0))
    by = rng.integers(0, 3, n)
    rows = slice_report(y, p, by, random_state=0, **FAST)
    timed = slice_report(y, p, by, time=np.arange(n), random_state=0, **FAST)
    assert np.all(_widths(timed) > _widths(rows))


def test_report_by_passes_groups_to_the_slices():
    y, p, customer, region = snapshots(G=80, m=6, seed=8)
    X = pd.DataFrame({"x": p, "region": region, "customer": customer})
    model = LogisticRegression().fit(X[["x"]], y)
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline

    pipe = make_pipeline(make_column_transformer(("passthrough", ["x"])), model).fit(X, y)
    r = cb.report(pipe, X, y, by="region", groups="customer", n_boot=400, random_state=0,
                  ci=0.95)
    q = pipe.predict_proba(X)[:, 1]
    want = slice_report(y, q, "region", X=X, groups="customer", n_boot=400, random_state=0,
                        classes=[0, 1])
    np.testing.assert_allclose(r.slices.intervals["brier_skill"],
                               want.intervals["brier_skill"], rtol=1e-12)
    plain = cb.report(pipe, X, y, by="region", n_boot=400, random_state=0, ci=0.95)
    assert _widths(r.slices).mean() > 1.3 * _widths(plain.slices).mean()


def test_find_weak_slices_splits_by_group():
    y, p, customer, region = snapshots(G=200, m=6, rho=0.5, seed=9)
    X = pd.DataFrame({"x": p, "region": region})
    model = LogisticRegression().fit(X, y)
    found = find_weak_slices(model, X, y, groups=customer, n_boot=400, random_state=0,
                             calibration=False, max_depth=1)
    held = np.zeros(y.size, bool)
    held[found.held_out] = True
    assert not set(customer[held]) & set(customer[~held])
    assert 0.35 < held.mean() < 0.65


def test_cli_report_by_with_groups(tmp_path):
    from chimeraboost.cli._main import main

    y, p, customer, region = snapshots(G=100, m=8, rho=0.7, seed=10)
    path = tmp_path / "snap.csv"
    pd.DataFrame({"y": y, "p": p, "region": region, "customer": customer}).to_csv(
        path, index=False)

    def run(*extra):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["report", str(path), "--target", "y", "--score", "p", "--by",
                         "region", "--n-boot", "400", "-q", "--json", *extra]) == 0
        return json.loads(out.getvalue())["slices"]["slices"]

    plain, grouped = run(), run("--groups", "customer")
    want = slice_report(y, p, region.astype(str), classes=[0, 1], groups=customer.astype(str),
                        n_boot=400, random_state=0)
    for label, row in grouped.items():
        s = want.labels.index(label.split(" = ")[-1])
        width = row["brier_skill_high"] - row["brier_skill_low"]
        assert width > plain[label]["brier_skill_high"] - plain[label]["brier_skill_low"]
        assert row["brier_skill_low"] == pytest.approx(want.intervals["brier_skill"][s, 0],
                                                       rel=1e-9)


# --------------------------------------------------------------------------- ties


@pytest.mark.parametrize("metric", ["brier_skill", "log_loss_skill", "accuracy",
                                    "balanced_accuracy"])
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("noise", [0.0, 1e-15])
def test_a_model_against_a_copy_of_itself_is_no_difference(metric, seed, noise):
    rng = np.random.default_rng(seed)
    n = 900
    y = rng.integers(0, 2, n)
    p = np.clip(0.5 + 0.3 * (y - 0.5) + rng.normal(0, 0.15, n), 0.01, 0.99)
    by = rng.choice(["a", "b", "c"], n)
    r = slice_report(y, p, by, baseline=p * (1 + noise), metric=metric, random_state=seed,
                     **FAST)
    vs = r.vs_baseline
    np.testing.assert_array_equal(vs["difference"], 0.0)
    np.testing.assert_array_equal(vs["pvalue"], 1.0)
    np.testing.assert_array_equal(vs["interval"], 0.0)
    assert all(v == "no detectable difference" for v in vs["verdict"])


# --------------------------------------------------------------------------- labels


@pytest.mark.parametrize("column, want", [
    (np.array(["missing", None, "a"] * 100, dtype=object), ["a", "'missing'", "missing"]),
    (np.array([1, "1"] * 150, dtype=object), ["1", "'1'"]),
    ([0.123411, 0.123412] * 150, ["0.123411", "0.123412"]),
    ([1e15 + 1, 1e15 + 2] * 150, ["1000000000000001", "1000000000000002"]),
    ([2**53, 2**53 + 1] * 150, [str(2**53), str(2**53 + 1)]),
    (["all rows", "b"] * 150, ["'all rows'", "b"]),
])
def test_distinct_values_make_distinct_slices_with_distinct_labels(column, want):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    p = np.clip(0.5 + 0.3 * (y - 0.5) + rng.normal(0, 0.1, 300), 0.01, 0.99)
    r = slice_report(y, p, column, **FAST, random_state=0)
    assert r.labels == want
    values = pd.Series(np.asarray(column, dtype=object)).map(repr)
    assert sorted(r.to_frame()["n"].tolist()) == sorted(values.value_counts().tolist())


def test_infinite_values_join_the_end_ranges():
    rng = np.random.default_rng(1)
    x = rng.normal(size=600)
    x[:2] = [np.inf, -np.inf]
    y = rng.integers(0, 2, 600)
    p = np.clip(0.5 + 0.3 * (y - 0.5) + rng.normal(0, 0.1, 600), 0.01, 0.99)
    r = slice_report(y, p, x, **FAST, random_state=0)
    assert r.labels[0].startswith("[-inf, ") and r.labels[-1].endswith(", inf]")
    assert not any("nan" in label for label in r.labels)
    assert r.to_frame()["n"].sum() == 600


def test_a_misaligned_mask_series_is_refused_as_a_labels_series_is():
    rng = np.random.default_rng(2)
    y = pd.Series(rng.integers(0, 2, 300))
    p = np.clip(0.5 + 0.3 * (y.to_numpy() - 0.5) + rng.normal(0, 0.1, 300), 0.01, 0.99)
    shifted = pd.Series(rng.random(300) < 0.5, index=np.arange(300) + 7)
    with pytest.raises(ValueError, match=r"different pandas indexes"):
        slice_report(y, p, {"half": shifted}, **FAST)
    with pytest.raises(ValueError, match=r"different pandas indexes"):
        slice_report(y, p, shifted.map({True: "a", False: "b"}), **FAST)


def test_cli_no_ci_with_by_resamples_nothing(tmp_path):
    from chimeraboost.cli._main import main

    y, p, customer, region = snapshots(G=60, m=5, seed=11)
    path = tmp_path / "h.csv"
    pd.DataFrame({"y": y, "p": p, "region": region}).to_csv(path, index=False)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["report", str(path), "--target", "y", "--score", "p", "--by", "region",
                     "--no-ci", "-q"]) == 0
    text = out.getvalue()
    assert "resamples of" not in text and "95%" not in text
    assert "not tested: no resamples (ci=None)" in text
    direct = slice_report(y, p, region, ci=None)
    assert direct.n_boot == 0 and direct.intervals == {}
    assert np.all(np.isnan(direct.pvalue))
