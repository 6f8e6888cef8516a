"""chimeraboost.dask.slice_report: each slice against the rest of the rows.

The references: accumulators of :mod:`chimeraboost.metrics` fed the slice's rows and,
separately, the rest's rows -- each row weighed by the Poisson count keyed by its position
among all rows (or its group), as in tests/dask/test_keyed.py -- whose Brier skills give the
difference and its replicates; unit counts written out with numpy; the t test written out
with scipy's t distribution; and the in-memory :func:`chimeraboost.slices.slice_report` for
what both compute without resampling (the rest's number, the difference, who is tested and
why not) and for the words of the verdicts.
"""

import numpy as np
import pytest
from scipy import stats

dask = pytest.importorskip(
    "dask", reason="dask is not installed (pip install 'chimeraboost[dask]')")
da = pytest.importorskip("dask.array", reason="dask.array needs numpy (pip install 'dask[array]')")
pd = pytest.importorskip("pandas")

from chimeraboost import dask as cbd  # noqa: E402
from chimeraboost import metrics, resampling, slices  # noqa: E402
from chimeraboost.exceptions import DegenerateMetricWarning  # noqa: E402

pytestmark = [pytest.mark.usefixtures("synchronous"), pytest.mark.filterwarnings(
    "ignore::chimeraboost.exceptions.FewResamplesWarning")]
B = 200
LEVEL = 0.95


def _data(n=1000, seed=0, weak="west"):
    """Four regions; in ``weak`` the probabilities are noise."""
    rng = np.random.default_rng(seed)
    by = rng.choice(["east", "north", "south", "west"], n)
    y = rng.integers(0, 2, n)
    p = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0.01, 0.99)
    if weak is not None:
        p[by == weak] = rng.uniform(0.05, 0.95, np.sum(by == weak))
    return y, p, by


def _arr(x, chunks):
    return da.from_array(np.asarray(x), chunks=chunks)


def _accumulator(y, p, rows, w, groups, seed, K=2):
    acc = metrics.ClassificationAccumulator(list(range(K)), n_boot=B, random_state=seed)
    keys = rows if groups is None else groups[rows]
    return acc.update(y[rows], p[rows], sample_weight=None if w is None else w[rows],
                      groups=keys)


def _reference(y, p, by, labels, w=None, groups=None, seed=0, K=2):
    """Per slice: the difference slice minus rest of the Brier skill, its replicates and its
    units, from accumulators fed the slice's rows and the rest's rows (for two classes no
    more units than the rows of the rarer class)."""
    diff, reps, units, tested = [], [], [], []
    for label in labels:
        inside = by == label
        parts = [np.flatnonzero(inside), np.flatnonzero(~inside)]
        accs = [_accumulator(y, p, rows, w, groups, seed, K) for rows in parts]
        point = [a.report() for a in accs]
        boot = [a.replicates() for a in accs]
        diff.append(point[0]["brier_skill"] - point[1]["brier_skill"])
        reps.append(boot[0]["brier_skill"] - boot[1]["brier_skill"])
        counts = [rows.size if groups is None else np.unique(groups[rows]).size
                  for rows in parts]
        if K == 2:
            counts += [np.bincount(y[rows], minlength=2).min() for rows in parts]
        u = min(counts)
        units.append(u)
        # What the test compares with 0: each part's skill against its reference less the
        # bootstrap's estimate of that reference's bias (the replicates' mean minus it),
        # made unbiased for u units by u / (u - 1) (one unit: no estimate, no correction;
        # replicates that drew none of a part's rows have no reference and are left out).
        factor = u / (u - 1) if u > 1 else 0.0
        skill = [1 - pt["brier"] / (pt["brier_ref"] - (np.nanmean(bt["brier_ref"])
                                                        - pt["brier_ref"]) * factor)
                 for pt, bt in zip(point, boot)]
        tested.append(skill[0] - skill[1])
    return np.array(diff), reps, np.array(units), np.array(tested)


def _close(a, b, tol=1e-12):
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), rtol=0, atol=tol)


@pytest.mark.parametrize("case", ["rows", "groups", "weights"])
def test_the_tests_are_those_of_accumulators_fed_the_slice_and_the_rest(case):
    y, p, by = _data(seed=1)
    rng = np.random.default_rng(2)
    w = rng.uniform(0.2, 3.0, y.size) if case == "weights" else None
    # string groups: counted by the keys their Poisson counts are drawn by
    groups = np.char.add("g", rng.integers(0, 300, y.size).astype(str)) \
        if case == "groups" else None
    r = cbd.slice_report(_arr(y, 400), _arr(p, 350), _arr(by, 500),
                         sample_weight=None if w is None else _arr(w, 300),
                         groups=None if groups is None else _arr(groups, 450), n_boot=B,
                         random_state=4)
    diff, reps, units, tested = _reference(y, p, by, r.labels, w, groups, seed=4)
    _close(r.difference, diff)
    _close(r.values["brier_skill"] - r.rest, diff)
    t = resampling.difference_tests(tested, reps, units, adjust="holm", alpha=0.05)
    _close(r.se, t.se)
    _close(r.pvalue, t.pvalue)
    _close(r.pvalue_adjusted, t.pvalue_adjusted)
    # percentile intervals: numpy's linear quantiles of the replicates
    _close(r.diff_interval, [np.quantile(d, [0.025, 0.975]) for d in reps])
    assert r.verdict[r.labels.index("west")] == "worse than the rest"
    assert all(v == ("worse than the rest" if d < 0 else "better than the rest")
               for v, d, q in zip(r.verdict, diff, t.pvalue_adjusted) if q <= 0.05)


def test_the_t_test_of_one_slice_is_scipys_t_distribution():
    y, p, by = _data(seed=3, weak=None)
    r = cbd.slice_report(_arr(y, 500), _arr(p, 500), _arr(by, 500), n_boot=B,
                         random_state=1)
    diff, reps, units, tested = _reference(y, p, by, r.labels, seed=1)
    s = 0
    u = units[s]
    # The replicates' standard deviation, times sqrt(u / (u - 1)) (the plug-in variance of
    # u units made Student's), and a two-sided p-value on u - 1 degrees of freedom.
    se = np.std(reps[s], ddof=1) * np.sqrt(u / (u - 1))
    _close(r.se[s], se)
    _close(r.pvalue[s], 2 * stats.t.sf(abs(tested[s]) / se, df=u - 1))


def test_blocks_change_nothing():
    y, p, by = _data(n=800, seed=5)
    groups = np.random.default_rng(0).integers(0, 200, y.size)
    out = []
    for chunks in ((800, 800, 800, 800), (97, 410, 333, 250)):
        out.append(cbd.slice_report(_arr(y, chunks[0]), _arr(p, chunks[1]),
                                    _arr(by, chunks[2]), groups=_arr(groups, chunks[3]),
                                    n_boot=B, random_state=7))
    a, b = out
    for key in ("rest", "difference", "diff_interval", "se", "pvalue", "pvalue_adjusted"):
        _close(getattr(a, key), getattr(b, key))
    assert a.verdict == b.verdict


def test_without_intervals_the_difference_and_the_reasons_are_the_in_memory_ones():
    y, p, by = _data(n=1000, seed=6)
    by[:12] = "tiny"  # 12 rows: too few to test
    by[y == 1] = np.where(by[y == 1] == "east", "pos", by[y == 1])  # positives only
    with pytest.warns(DegenerateMetricWarning, match="single class"):
        r = cbd.slice_report(_arr(y, 300), _arr(p, 300), _arr(by, 300), ci=None)
    with pytest.warns(DegenerateMetricWarning, match="single class"):
        m = slices.slice_report(y, p, by, ci=None, calibration=False)
    assert r.labels == m.labels
    _close(r.rest, m.rest)
    _close(r.difference, m.difference)
    assert r.verdict == m.verdict
    assert r.reasons == m.reasons
    assert r.verdict[r.labels.index("tiny")] == "not tested: 12 rows, fewer than 30"
    assert r.verdict[r.labels.index("east")].startswith("not tested: ")
    assert np.all(np.isnan(r.pvalue)) and np.all(np.isnan(r.diff_interval))


def test_the_settings_are_the_in_memory_defaults():
    y, p, by = _data(n=800, seed=7)
    r = cbd.slice_report(_arr(y, 400), _arr(p, 400), _arr(by, 400), n_boot=B, random_state=0)
    m = slices.slice_report(y, p, by, n_boot=B, random_state=0, calibration=False)
    for key in ("metric", "adjust", "alpha", "min_rows", "min_events"):
        assert getattr(r, key) == getattr(m, key), key
    # The west's noise is plain on 200 rows: both call it worse, with the same words.
    assert r.verdict == m.verdict
    assert "worse than the rest" in r.verdict


def test_a_slice_of_one_row_is_not_tested_and_says_why():
    y, p, by = _data(n=900, seed=8)
    by = by.astype(object)
    by[5] = "alone"
    with pytest.warns(DegenerateMetricWarning, match="'alone'.*single class"):
        r = cbd.slice_report(_arr(y, 300), _arr(p, 300), _arr(by, 300), n_boot=B,
                             random_state=0)
    with pytest.warns(DegenerateMetricWarning, match="'alone'.*single class"):
        m = slices.slice_report(y, p, by, ci=None, calibration=False)
    s = r.labels.index("alone")
    assert r.verdict[s] == m.verdict[s] == "not tested: 1 rows, fewer than 30"
    assert np.isnan(r.pvalue[s]) and np.isnan(r.pvalue_adjusted[s])
    # the other slices are adjusted among themselves
    assert int(np.sum(np.isfinite(r.pvalue_adjusted))) == 4


def test_a_slice_within_one_group_counts_one_unit_as_in_memory():
    # In memory a slice whose rows all sit in one group is tested (it has the rows) on one
    # unit: t with max(1 - 1, 1) = 1 degree of freedom; the same here.
    y, p, by = _data(n=1200, seed=9)
    groups = np.random.default_rng(1).integers(0, 150, y.size)
    groups[by == "south"] = 10_000
    r = cbd.slice_report(_arr(y, 400), _arr(p, 400), _arr(by, 400),
                         groups=_arr(groups, 400), n_boot=B, random_state=2)
    diff, reps, units, tested = _reference(y, p, by, r.labels, groups=groups, seed=2)
    s = r.labels.index("south")
    assert units[s] == 1
    _close(r.se[s], np.nanstd(reps[s], ddof=1) * np.sqrt(2.0))
    _close(r.pvalue[s], 2 * stats.t.sf(abs(tested[s]) / r.se[s], df=1))
    m = slices.slice_report(y, p, by, groups=groups, n_boot=B, random_state=2,
                            calibration=False)
    assert np.isfinite(m.pvalue[s]) and np.isfinite(r.pvalue[s])


def test_two_identical_slices_are_a_tie():
    # Twin rows in two slices, each pair one group: every replicate weighs both twins alike,
    # so the two slices are equal in every replicate -- a difference of 0, p = 1, "no
    # detectable difference", an interval of [0, 0], as in memory.
    rng = np.random.default_rng(10)
    half = 400
    y = np.tile(rng.integers(0, 2, half), 2)
    p = np.tile(rng.uniform(0.05, 0.95, half), 2)
    by = np.repeat(["first", "second"], half)
    groups = np.tile(np.arange(half), 2)
    r = cbd.slice_report(_arr(y, 300), _arr(p, 300), _arr(by, 300),
                         groups=_arr(groups, 300), n_boot=B, random_state=0)
    m = slices.slice_report(y, p, by, groups=groups, n_boot=B, random_state=0,
                            calibration=False)
    for report in (r, m):
        assert report.difference.tolist() == [0.0, 0.0]
        assert report.pvalue.tolist() == [1.0, 1.0]
        assert report.verdict == ["no detectable difference"] * 2
    assert r.diff_interval.tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_string_labels_and_a_column_of_a_dask_frame():
    dd = pytest.importorskip("dask.dataframe")
    y, p, by = _data(n=800, seed=11)
    labels = np.where(y == 1, "churn", "stay")
    frame = pd.DataFrame({"region": by, "y": labels, "p": p})
    X = dd.from_pandas(frame, npartitions=4)
    r = cbd.slice_report(X["y"], X["p"], "region", X=X, classes=["stay", "churn"],
                         n_boot=B, random_state=3)
    assert r.labels == [f"region = {b}" for b in ("east", "north", "south", "west")]
    diff, reps, units, tested = _reference(y, p, by, ["east", "north", "south", "west"], seed=3)
    _close(r.difference, diff)
    _close(r.pvalue, resampling.difference_tests(tested, reps, units).pvalue)
    assert r.verdict[3] == "worse than the rest"
    text = str(r)
    assert "Each slice against the rest of the rows (Brier skill" in text
    assert "worse than the rest" in text and "not compared" not in text
    frame_out = r.to_frame()
    _close(frame_out["difference"], diff)
    assert list(frame_out["verdict"]) == r.verdict


def test_three_classes_rest_and_reasons_are_the_in_memory_ones():
    rng = np.random.default_rng(12)
    n = 900
    y = rng.integers(0, 3, n)
    p = rng.dirichlet(np.ones(3), n)
    p[np.arange(n), y] += 1.0
    p /= p.sum(axis=1, keepdims=True)
    by = rng.choice(["a", "b", "c"], n)
    by[(by == "c") & (y != 0)] = "b"  # c: one class only, fewer than two with 10 rows
    with pytest.warns(DegenerateMetricWarning, match="'c'"):
        r = cbd.slice_report(_arr(y, 300), da.from_array(p, chunks=(250, -1)), _arr(by, 300),
                             ci=None)
    with pytest.warns(DegenerateMetricWarning, match="'c'"):
        m = slices.slice_report(y, p, by, ci=None, calibration=False)
    _close(r.rest, m.rest)
    _close(r.difference, m.difference)
    assert r.reasons == m.reasons
    assert r.verdict[2] == "not tested: fewer than two classes with 10 rows"
    # with replicates: units are the rows (no class cap beyond two classes)
    keep = by != "c"
    y, p, by = y[keep], p[keep], by[keep]
    r = cbd.slice_report(_arr(y, 300), da.from_array(p, chunks=(250, -1)), _arr(by, 300),
                         n_boot=B, random_state=5)
    diff, reps, units, tested = _reference(y, p, by, ["a", "b"], seed=5, K=3)
    # two slices, each the other's rest: both count the smaller one's rows
    assert units.tolist() == [min(np.sum(by == "a"), np.sum(by == "b"))] * 2
    _close(r.difference, diff)
    _close(r.pvalue, resampling.difference_tests(tested, reps, units).pvalue)
