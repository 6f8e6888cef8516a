"""chimeraboost.dask.slice_report and skill_over_time: the reports per key (slice, period)
of rows held in dask collections.

The references: the in-memory accumulator (ClassificationAccumulator) fed each key's rows --
the same class that the point numbers come from, itself tested against scikit-learn -- with
each row's Poisson count keyed by its position among all rows (``groups=`` the positions:
the same keys as ``first_row``), and the in-memory slice_report / skill_over_time for what
both compute the same way (labels, periods, rows, exact sums).
"""

import warnings

import numpy as np
import pytest

dask = pytest.importorskip(
    "dask", reason="dask is not installed (pip install 'chimeraboost[dask]')")
da = pytest.importorskip("dask.array", reason="dask.array needs numpy (pip install 'dask[array]')")
pd = pytest.importorskip("pandas")

from chimeraboost import dask as cbd  # noqa: E402
from chimeraboost import metrics, monitor, slices  # noqa: E402
from chimeraboost.dask import _keyed  # noqa: E402
from chimeraboost.exceptions import DegenerateMetricWarning  # noqa: E402
from chimeraboost.resampling import BootstrapResult  # noqa: E402

# n_boot below 1000 warns that interval ends are unstable; these tests compare replicates,
# not interval ends, and keep the CPU small.
pytestmark = [pytest.mark.usefixtures("synchronous"), pytest.mark.filterwarnings(
    "ignore::chimeraboost.exceptions.FewResamplesWarning")]
B = 200
SUM_KEYS = ("base_rate", "log_loss", "log_loss_ref", "log_loss_skill", "brier", "brier_ref",
            "brier_skill", "uncertainty_unc", "accuracy", "balanced_accuracy", "f1_macro")


def _data(n=1200, seed=0, K=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    if K == 2:
        p = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0.01, 0.99)
    else:
        p = rng.dirichlet(np.ones(K), n)
        p[np.arange(n), y] += 1.0
        p /= p.sum(axis=1, keepdims=True)
    by = rng.choice(["north", "south", "west"], n)
    return y, p, by


def _arr(x, chunks):
    return da.from_array(np.asarray(x), chunks=chunks if np.ndim(x) == 1 else (chunks, -1))


def _in_memory(y, p, rows, classes, w=None, n_boot=0, seed=None, groups=None):
    acc = metrics.ClassificationAccumulator(classes, n_boot=n_boot, random_state=seed)
    extra = {} if not n_boot else {"groups": rows if groups is None else groups[rows]}
    return acc.update(y[rows], p[rows], sample_weight=None if w is None else w[rows], **extra)


def _close(a, b, tol=1e-12):
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), rtol=0, atol=tol)


# --------------------------------------------------------------------------- slice_report


def test_slice_points_and_intervals_equal_the_in_memory_accumulator_per_slice():
    y, p, by = _data()
    r = cbd.slice_report(_arr(y, 350), _arr(p, 400), _arr(by, 500), n_boot=B, random_state=3)
    assert r.labels == ["north", "south", "west"]
    for s, label in enumerate(r.labels):
        rows = np.flatnonzero(by == label)
        point = _in_memory(y, p, rows, [0, 1]).report()
        assert r.n[s] == rows.size
        for key, v in point.items():
            if np.ndim(v) == 0 and not isinstance(v, str):
                _close(r.values[key][s], v)
        # The intervals are read from the replicates of an accumulator fed the slice's rows,
        # each weighed by the Poisson count of its position among all rows.
        acc = _in_memory(y, p, rows, [0, 1], n_boot=B, seed=3)
        reps = acc.replicates()
        boot = BootstrapResult({k: point[k] for k in SUM_KEYS}, {k: reps[k] for k in SUM_KEYS},
                               B, n_rows=rows.size, ci_method="percentile")
        for key, (lo, hi) in boot.intervals(level=0.95, warn=False).items():
            _close(r.intervals[key][s], (lo, hi))
    assert "roc_auc" not in r.intervals and "calibration_mcb" not in r.intervals


def test_slice_replicate_columns_equal_an_accumulator_fed_the_slice_rows():
    y, p, by = _data(n=900, K=3)
    classes = [0, 1, 2]
    templates = (metrics.ClassificationAccumulator(classes),
                 metrics.ClassificationAccumulator(classes, bins=_keyed.LIGHT_BINS, n_boot=B,
                                                   random_state=7))
    keyer = cbd._slices._SliceKeyer(np.array(["north", "south", "west"]), False)
    entries = _keyed.keyed_accumulate(
        templates, {"y": _arr(y, 250), "proba": _arr(p, 300), "by": _arr(by, 200)}, keyer, 3,
        "by")
    for s, label in enumerate(["north", "south", "west"]):
        rows = np.flatnonzero(by == label)
        mine = entries[s][1].replicates()
        theirs = _in_memory(y, p, rows, classes, n_boot=B, seed=7).replicates()
        for key in SUM_KEYS:
            _close(mine[key], theirs[key])
        _close(entries[s][2], np.bincount(y[rows], minlength=3))


def test_positions_as_groups_are_the_row_keys():
    # The keyed accumulators weigh a row by its position passed as its group: the same count
    # as an accumulator fed all rows in order (keyed by row position).
    y, p, _ = _data(n=500)
    rows = np.arange(500)
    by_groups = _in_memory(y, p, rows, [0, 1], n_boot=B, seed=1).replicates()
    by_rows = metrics.ClassificationAccumulator([0, 1], n_boot=B, random_state=1).update(
        y, p).replicates()
    for key in SUM_KEYS:
        _close(by_groups[key], by_rows[key])


def test_slice_report_is_independent_of_the_blocks():
    y, p, by = _data(n=1000, seed=2)
    a = cbd.slice_report(_arr(y, 1000), _arr(p, 1000), _arr(by, 1000), n_boot=B,
                         random_state=5)
    b = cbd.slice_report(_arr(y, 137), _arr(p, 290), _arr(by, 410), n_boot=B, random_state=5)
    assert a.labels == b.labels
    for key, v in a.values.items():
        _close(b.values[key], v)
    for key, v in a.intervals.items():
        _close(b.intervals[key], v)
    for key, v in a.overall["intervals"].items():
        _close(b.overall["intervals"][key], v)


def test_slice_report_groups_key_the_counts_by_group():
    y, p, by = _data(n=800, seed=4)
    groups = np.random.default_rng(0).integers(0, 120, 800)
    r = cbd.slice_report(_arr(y, 300), _arr(p, 300), _arr(by, 300), groups=_arr(groups, 250),
                         n_boot=B, random_state=2)
    rows = np.flatnonzero(by == "south")
    acc = _in_memory(y, p, rows, [0, 1], n_boot=B, seed=2, groups=groups)
    reps, point = acc.replicates(), acc.report()
    boot = BootstrapResult({"brier_skill": point["brier_skill"]},
                           {"brier_skill": reps["brier_skill"]}, B, ci_method="percentile")
    _close(r.intervals["brier_skill"][1], boot.intervals(level=0.95, warn=False)["brier_skill"])
    assert r.resampled.startswith("whole groups")


def test_slice_labels_and_numbers_match_the_in_memory_slice_report():
    y, p, _ = _data(n=600, seed=5)
    age = np.random.default_rng(1).choice([20.0, 35.0, np.nan], 600)
    r = cbd.slice_report(_arr(y, 200), _arr(p, 200), _arr(age, 200), ci=None)
    m = slices.slice_report(y, p, age, ci=None, calibration=False)
    assert r.labels == m.labels == ["20", "35", "missing"]
    for key in ("brier_skill", "log_loss_skill", "brier_skill_vs_all", "log_loss_skill_vs_all",
                "accuracy", "base_rate"):
        _close(r.values[key], m.values[key])
    _close(r.n, m.n)


def test_dask_frames_a_column_of_x_and_proba_columns_by_label():
    dd = pytest.importorskip("dask.dataframe")
    y, p, by = _data(n=600, seed=6)
    labels = np.where(y == 1, "yes", "no")
    frame = pd.DataFrame({"region": by, "y": labels, "no": 1 - p, "yes": p})
    X = dd.from_pandas(frame, npartitions=3)
    r = cbd.slice_report(X["y"], X[["yes", "no"]], "region", X=X, classes=["no", "yes"],
                         ci=None)
    assert r.labels == ["region = north", "region = south", "region = west"]
    m = slices.slice_report(labels, p, by, classes=["no", "yes"], ci=None, calibration=False)
    _close(r.values["brier_skill"], m.values["brier_skill"])
    assert str(r).startswith("model by region: 3 slices")


def test_a_slice_in_one_block_only_and_a_slice_of_one_class():
    y, p, by = _data(n=900, seed=7)
    order = np.argsort(by, kind="stable")  # each slice in few blocks
    y, p, by = y[order], p[order], by[order]
    y[by == "west"] = 1  # one class
    with pytest.warns(DegenerateMetricWarning, match="'west'"):
        r = cbd.slice_report(_arr(y, 100), _arr(p, 100), _arr(by, 100), n_boot=B,
                             random_state=0)
    west = r.labels.index("west")
    assert np.isnan(r.values["brier_skill"][west])
    assert r.values["base_rate"][west] == 1.0
    rows = np.flatnonzero(by == "north")
    _close(r.values["brier_skill"][0], _in_memory(y, p, rows, [0, 1]).report()["brier_skill"])


def test_weights_of_zero():
    y, p, by = _data(n=900, seed=8)
    w = np.random.default_rng(2).uniform(0, 2, 900)
    w[::7] = 0.0
    w[by == "west"] = 0.0  # a slice of weight zero: NaN numbers, said once
    with pytest.warns(DegenerateMetricWarning, match="'west'.*weighs 0"):
        r = cbd.slice_report(_arr(y, 300), _arr(p, 300), _arr(by, 300),
                             sample_weight=_arr(w, 200), n_boot=B, random_state=0)
    assert np.isnan(r.values["brier_skill"][2]) and r.n[2] == np.sum(by == "west")
    rows = np.flatnonzero(by == "south")
    acc = _in_memory(y, p, rows, [0, 1], w=w, n_boot=B, seed=0)
    _close(r.values["log_loss_skill"][1], acc.report()["log_loss_skill"])
    _close(r.values["positives"][1], np.sum(w[rows] * y[rows]))


def test_a_first_chunk_of_zero_weights_adds_nothing_to_the_replicates():
    # A key's first rows in a block may all weigh 0: the accumulator keeps no score of them,
    # and its replicates are those of the rows in one chunk with those zero weights.
    y, p, _ = _data(n=300, seed=3)
    w = np.r_[np.zeros(40), np.ones(260)]
    acc = metrics.ClassificationAccumulator([0, 1], n_boot=B, random_state=0)
    acc.update(y[:40], p[:40], sample_weight=w[:40]).update(y[40:], p[40:],
                                                            sample_weight=w[40:])
    whole = metrics.ClassificationAccumulator([0, 1], n_boot=B, random_state=0).update(
        y, p, sample_weight=w)
    mine, theirs = acc.replicates(), whole.replicates()
    for key in SUM_KEYS:
        _close(mine[key], theirs[key])


def test_string_labels_of_y_and_by():
    y, p, by = _data(n=600, seed=9)
    labels = np.where(y == 1, "churn", "stay")
    r = cbd.slice_report(_arr(labels, 200), _arr(p, 200), _arr(by, 250),
                         classes=["stay", "churn"], ci=None)
    rows = np.flatnonzero(by == "west")
    ref = _in_memory(labels, p, rows, ["stay", "churn"]).report()
    _close(r.values["brier_skill"][2], ref["brier_skill"])
    # classes read off y in one pass: sorted labels, as in memory
    r2 = cbd.slice_report(_arr(labels, 200), _arr(np.column_stack([p, 1 - p]), 200),
                          _arr(by, 250), ci=None)
    _close(r2.values["brier_skill"], r.values["brier_skill"])


def test_non_dask_input_is_the_in_memory_slice_report():
    y, p, by = _data(n=400, seed=10)
    r = cbd.slice_report(y, p, by, ci=None)
    m = slices.slice_report(y, p, by, ci=None)
    assert type(r) is slices.SliceReport
    _close(r.values["brier_skill"], m.values["brier_skill"])
    assert r.verdict == m.verdict


@pytest.mark.parametrize("kwargs, error, match", [
    ({"by": {"a": np.ones(300, bool)}}, ValueError, "dict of masks"),
    ({"by": "region"}, ValueError, "X is not a dask DataFrame"),
    ({"by": ["a", "b"]}, ValueError, "list of column names"),
    ({"ci_method": "bca"}, ValueError, "ci_method='bca'.*percentile"),
    ({"ci": None, "groups": np.zeros(300)}, ValueError, "groups= says what the intervals"),
    ({"by": np.array(["a"] * 300)}, ValueError, "one slice"),
    ({"proba_or_pred": np.full(300, 1.5)}, ValueError,
     r"block \d \(rows \d+ to \d+\): proba_or_pred must hold probabilities"),
    ({"proba_or_pred": np.full((300, 3), 1 / 3)}, ValueError,
     "proba_or_pred has 3 columns but there are 2 classes"),
])
def test_bad_input_names_the_argument(kwargs, error, match):
    y, p, by = _data(n=300, seed=11)
    args = {"y": _arr(y, 100), "proba_or_pred": p, "by": _arr(by, 100), "n_boot": B}
    args.update(kwargs)
    with pytest.raises(error, match=match):
        cbd.slice_report(args.pop("y"), args.pop("proba_or_pred"), args.pop("by"), **args)


def test_too_many_slices_are_refused_naming_the_limit():
    n = 3000
    rng = np.random.default_rng(0)
    y, p = rng.integers(0, 2, n), rng.uniform(0.1, 0.9, n)
    fit = int(_keyed.LIMIT_MB * 2 ** 20 // _keyed.footprint(2, 1000))
    by = np.arange(n) % (fit + 1)
    with pytest.raises(ValueError, match=f"limit of {_keyed.LIMIT_MB} MB.*At most {fit:,}"):
        cbd.slice_report(_arr(y, 1000), _arr(p, 1000), _arr(by, 1000), n_boot=1000)


def test_the_footprint_is_what_an_accumulator_weighs():
    # The bound of the docstrings: the arrays of a key's two accumulators, on the grid.
    y, p, _ = _data(n=3000, K=3)
    point = metrics.ClassificationAccumulator([0, 1, 2]).update(y, p)
    reps = metrics.ClassificationAccumulator([0, 1, 2], bins=_keyed.LIGHT_BINS, n_boot=B,
                                             random_state=0).update(y, p)
    arrays = [point._class_w, point._cm, point._sq, point._loss,
              *[c.sums for c in point._cols], reps._class_w, reps._cm, reps._sq, reps._loss,
              *[c.sums for c in reps._cols]]
    assert sum(a.nbytes for a in arrays) == _keyed.footprint(3, B)
    assert _keyed.footprint(2, 1) - _keyed.footprint(2, 0) == 2 * 456  # bytes per replicate


# --------------------------------------------------------------------------- skill_over_time


def _times(n, seed=0, days=200):
    rng = np.random.default_rng(seed)
    start = np.datetime64("2024-01-03")
    return (start + rng.integers(0, days, n).astype("timedelta64[D]")).astype("datetime64[ns]")


@pytest.mark.parametrize("reference_from", ["period", "rolling"])
@pytest.mark.parametrize("freq", ["MS", "W"])
def test_periods_equal_the_in_memory_skill_over_time(reference_from, freq):
    y, p, _ = _data(n=1500, seed=12)
    t = _times(1500)
    r = cbd.skill_over_time(_arr(y, 400), _arr(p, 500), _arr(t, 600), freq=freq,
                            reference_from=reference_from)
    m = monitor.skill_over_time(y, p, t, freq=freq, reference_from=reference_from)
    assert list(r.periods) == list(m.periods)
    _close(r.rows, m.rows)
    for key in ("base_rate", "log_loss", "log_loss_ref", "log_loss_skill", "brier",
                "brier_ref", "brier_skill"):
        _close(r.values[key], m.values[key])


def test_three_string_classes_read_off_y_rolling():
    y, p, _ = _data(n=1200, seed=20, K=3)
    labels = np.array(["a", "b", "c"])[y]
    t = _times(1200, days=100)
    r = cbd.skill_over_time(_arr(labels, 400), _arr(p, 400), _arr(t, 500),
                            reference_from="rolling", window=None)
    m = monitor.skill_over_time(labels, p, t, reference_from="rolling", window=None)
    assert list(r.classes) == ["a", "b", "c"]
    for key in ("base_rate", "reference_prior", "log_loss_skill", "brier_skill"):
        _close(r.values[key], m.values[key])


def test_period_intervals_come_from_the_accumulator_of_the_period_rows():
    y, p, _ = _data(n=1200, seed=13)
    t = _times(1200, days=90)
    r = cbd.skill_over_time(_arr(y, 300), _arr(p, 300), _arr(t, 300), ci=0.9, n_boot=B,
                            random_state=4)
    period = pd.DatetimeIndex(t).to_period("M").start_time
    for j, start in enumerate(r.periods):
        rows = np.flatnonzero(period == start)
        acc = _in_memory(y, p, rows, [0, 1], n_boot=B, seed=4)
        point, reps = acc.report(), acc.replicates()
        _close(r.values["calibration_mcb"][j], _in_memory(y, p, rows, [0, 1]).report()[
            "calibration_mcb"])
        boot = BootstrapResult({k: point[k] for k in ("log_loss_skill", "brier_skill")},
                               {k: reps[k] for k in ("log_loss_skill", "brier_skill")}, B,
                               ci_method="percentile")
        for key, ci in boot.intervals(level=0.9, warn=False).items():
            _close(r.intervals[key][j], ci)


def test_skill_over_time_is_independent_of_the_blocks_and_reads_date_strings():
    dd = pytest.importorskip("dask.dataframe")
    y, p, _ = _data(n=900, seed=14)
    t = _times(900, days=120)
    frame = pd.DataFrame({"y": y, "p": p, "t": pd.Series(t).dt.strftime("%Y-%m-%d")})
    X = dd.from_pandas(frame, npartitions=4)
    a = cbd.skill_over_time(X["y"], X["p"], X["t"], ci=0.95, n_boot=B, random_state=1,
                            reference_from="rolling", window=2)
    b = cbd.skill_over_time(_arr(y, 900), _arr(p, 900), _arr(t, 900), ci=0.95, n_boot=B,
                            random_state=1, reference_from="rolling", window=2)
    assert list(a.periods) == list(b.periods)
    for key in ("log_loss_skill", "brier_skill", "reference_prior", "calibration_mcb"):
        _close(a.values[key], b.values[key])
    for key in ("log_loss_skill", "brier_skill"):
        _close(a.intervals[key], b.intervals[key])
    assert np.all(np.isnan(a.intervals["log_loss_skill"][0]))  # no history: no skill


def test_a_gap_longer_than_the_window_warns_as_in_memory():
    y, p, _ = _data(n=600, seed=19)
    t = _times(600, days=60)
    t[300:] += np.timedelta64(150, "D")  # March to June hold no rows
    with pytest.warns(DegenerateMetricWarning, match="no rows in the preceding window"):
        r = cbd.skill_over_time(_arr(y, 200), _arr(p, 200), _arr(t, 200),
                                reference_from="rolling", window=2)
    with pytest.warns(DegenerateMetricWarning, match="no rows in the preceding window"):
        m = monitor.skill_over_time(y, p, t, reference_from="rolling", window=2)
    assert list(r.periods) == list(m.periods)
    _close(r.values["log_loss_skill"], m.values["log_loss_skill"])


def test_a_period_of_weight_zero_is_empty_as_in_memory():
    y, p, _ = _data(n=900, seed=15)
    t = _times(900, days=90)
    w = np.ones(900)
    w[pd.DatetimeIndex(t).month == 2] = 0.0
    r = cbd.skill_over_time(_arr(y, 300), _arr(p, 300), _arr(t, 300),
                            sample_weight=_arr(w, 300))
    m = monitor.skill_over_time(y, p, t, sample_weight=w)
    assert list(r.periods) == list(m.periods) and list(r.empty_periods) == list(
        m.empty_periods)
    _close(r.values["brier_skill"], m.values["brier_skill"])


@pytest.mark.parametrize("kwargs, error, match", [
    ({"time": np.arange(300.0)}, TypeError, "time must hold dates"),
    ({"freq": "fortnight"}, ValueError, "freq='fortnight'"),
    ({"reference_from": "yesterday"}, ValueError, "reference_from must be"),
    ({"ci": 0.95, "ci_method": "bca"}, ValueError, "ci_method='bca'"),
    ({"freq": "h", "ci": 0.95, "n_boot": 1000}, ValueError, "freq='h'.*limit of"),
])
def test_skill_over_time_bad_input_names_the_argument(kwargs, error, match):
    y, p, _ = _data(n=300, seed=16)
    args = {"y": _arr(y, 100), "proba": p, "time": _arr(_times(300, days=3000), 100)}
    args.update(kwargs)
    if not hasattr(args["time"], "dask"):
        args["time"] = _arr(args["time"], 100)
    with pytest.raises(error, match=match):
        cbd.skill_over_time(args.pop("y"), args.pop("proba"), args.pop("time"), **args)


def test_skill_over_time_non_dask_input_is_the_in_memory_one():
    y, p, _ = _data(n=300, seed=17)
    t = _times(300)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = cbd.skill_over_time(y, p, t)
    _close(r.brier_skill, monitor.skill_over_time(y, p, t).brier_skill)


@pytest.mark.slow
def test_on_a_local_cluster_of_two_processes():
    distributed = pytest.importorskip("distributed")
    y, p, by = _data(n=3000, seed=18)
    t = _times(3000, days=60)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        assert client.scheduler_info()["workers"]
        r = cbd.slice_report(_arr(y, 700), _arr(p, 700), _arr(by, 700), n_boot=B,
                             random_state=0)
        s = cbd.skill_over_time(_arr(y, 700), _arr(p, 700), _arr(t, 700), ci=0.95,
                                n_boot=B, random_state=0)
    with dask.config.set(scheduler="synchronous"):
        r0 = cbd.slice_report(_arr(y, 3000), _arr(p, 3000), _arr(by, 3000), n_boot=B,
                              random_state=0)
        s0 = cbd.skill_over_time(_arr(y, 3000), _arr(p, 3000), _arr(t, 3000), ci=0.95,
                                 n_boot=B, random_state=0)
    for key in r0.intervals:
        _close(r.intervals[key], r0.intervals[key])
    _close(s.intervals["brier_skill"], s0.intervals["brier_skill"])
