"""chimeraboost.compare.compare_datasets: models ranked over several data sets (Demšar 2006).

References: scipy's rankdata, friedmanchisquare, wilcoxon and studentized range; the q values
of Demšar (2006), Table 5; numbers derived by hand (arithmetic in the comments).
"""

import io
import math
import re

import numpy as np
import pytest
from scipy import stats

from chimeraboost import compare
from chimeraboost.exceptions import DegenerateMetricWarning, LowPowerWarning

# 8 data sets x 3 models, no ties within a row.
S = np.array([[0.80, 0.75, 0.70], [0.85, 0.83, 0.79], [0.70, 0.72, 0.60],
              [0.90, 0.88, 0.86], [0.66, 0.61, 0.65], [0.77, 0.74, 0.70],
              [0.81, 0.80, 0.78], [0.93, 0.90, 0.91]])
NAMES = ["boost", "forest", "tree"]


def test_average_ranks_and_friedman_against_scipy_and_by_hand():
    res = compare.compare_datasets(S, models=NAMES)
    ranks = stats.rankdata(-S, axis=1)
    np.testing.assert_array_equal(res.ranks, ranks)
    np.testing.assert_allclose(list(res.average_ranks.values()), ranks.mean(axis=0), rtol=1e-15)
    # Ranks per row: boost 1 on all but rows 3 (2) -> 9/8 = 1.125; forest 2,2,1,2,3,2,2,3 ->
    # 17/8 = 2.125; tree 3,3,3,3,2,3,3,2 -> 22/8 = 2.75.
    assert res.average_ranks == {"boost": 1.125, "forest": 2.125, "tree": 2.75}
    ref = stats.friedmanchisquare(*S.T)
    assert res.friedman.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.friedman.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    # Demšar's formula without ties: 12 N / (k (k+1)) [sum R^2 - k (k+1)^2 / 4]
    # = 96 / 12 * (1.265625 + 4.515625 + 7.5625 - 12) = 8 * 1.34375 = 10.75.
    assert res.friedman.statistic == pytest.approx(10.75, rel=1e-12)
    assert res.friedman.df == 2
    # Iman-Davenport: (N - 1) chi2 / (N (k - 1) - chi2) = 7 * 10.75 / (16 - 10.75) = 14.3333
    # on (2, 14) df.
    assert res.iman_davenport.statistic == pytest.approx(7 * 10.75 / 5.25, rel=1e-12)
    assert (res.iman_davenport.df, res.iman_davenport.df2) == (2, 14)
    assert res.iman_davenport.pvalue == pytest.approx(stats.f.sf(7 * 10.75 / 5.25, 2, 14))


def test_ties_are_averaged_and_match_scipy():
    tied = np.array([[0.8, 0.8, 0.7, 0.6], [0.9, 0.8, 0.8, 0.8], [0.5, 0.6, 0.7, 0.7],
                     [0.7, 0.7, 0.7, 0.6], [0.6, 0.5, 0.4, 0.4], [0.9, 0.8, 0.7, 0.6]])
    # 6 data sets, 6 pairs: the smallest Wilcoxon p-value, 2 / 2^6, times 6 for Holm is 0.1875.
    with pytest.warns(LowPowerWarning, match=r"0\.1875 after Holm over 6 pairs"):
        res = compare.compare_datasets(tied)
    # Row 1: 0.8, 0.8 share ranks 1 and 2 -> 1.5 each.
    np.testing.assert_array_equal(res.ranks[0], [1.5, 1.5, 3, 4])
    np.testing.assert_allclose(list(res.average_ranks.values()),
                               stats.rankdata(-tied, axis=1).mean(axis=0), rtol=1e-15)
    ref = stats.friedmanchisquare(*tied.T)  # with scipy's tie correction
    assert res.friedman.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.friedman.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_losses_rank_the_lowest_first():
    higher = compare.compare_datasets(S, models=NAMES)
    lower = compare.compare_datasets(-S, models=NAMES, greater_is_better=False)
    assert lower.average_ranks == higher.average_ranks
    flipped = compare.compare_datasets(S, models=NAMES, greater_is_better=False)
    # Every row reversed: rank r becomes k + 1 - r = 4 - r.
    assert flipped.average_ranks == {m: 4 - r for m, r in higher.average_ranks.items()}


# Demšar (2006), Table 5(a) and (b): critical values of the two-tailed Nemenyi test, truncated
# or rounded to three decimals (2.3437 is printed 2.343, 1.95996 1.960).
DEMSAR_Q = {0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
            0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]}


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_nemenyi_q_against_demsar_table_5(alpha):
    for k, q in zip(range(2, 11), DEMSAR_Q[alpha]):
        assert abs(compare.nemenyi_q(k, alpha=alpha) - q) < 1e-3


def test_critical_difference_and_groups_by_hand():
    res = compare.compare_datasets(S, models=NAMES)
    # CD = q * sqrt(k (k+1) / (6 N)) = q * sqrt(12 / 48) = q / 2, q = 2.3437 -> 1.1718.
    assert res.critical_difference == pytest.approx(compare.nemenyi_q(3) / 2, rel=1e-12)
    assert res.critical_difference == pytest.approx(1.1718, abs=1e-4)
    # Ranks 1.125, 2.125, 2.75: boost-forest 1.0 < CD, forest-tree 0.625 < CD, boost-tree
    # 1.625 >= CD: two overlapping groups.
    assert res.groups == [("boost", "forest"), ("forest", "tree")]
    nemenyi = {(p.a, p.b): p.nemenyi_different for p in res.pairwise}
    assert nemenyi == {("boost", "forest"): False, ("boost", "tree"): True,
                       ("forest", "tree"): False}


def test_pairwise_wilcoxon_with_holm_against_scipy():
    res = compare.compare_datasets(S, models=NAMES)
    raw = [stats.wilcoxon(S[:, a] - S[:, b]).pvalue for a, b in ((0, 1), (0, 2), (1, 2))]
    assert [p.pvalue for p in res.pairwise] == pytest.approx(raw, rel=1e-12)
    np.testing.assert_allclose([p.pvalue_holm for p in res.pairwise],
                               compare.holm(raw).pvalues_adjusted, rtol=1e-12)
    # boost beats tree on all 8 data sets but two: exact p 2 / 2^8 ... the smallest p here;
    # after Holm (x 3) it stays below 0.05, the two others do not.
    assert [p.wilcoxon_different for p in res.pairwise] == [False, True, False]
    assert res.pairwise[1].statistic == 0.0  # boost - tree > 0 on every data set


@pytest.mark.parametrize("n_datasets, warns", [(5, True), (6, False)])
def test_low_power_warning_for_the_wilcoxon_test(n_datasets, warns):
    # Two models, no ties: the exact two-sided Wilcoxon p-value is at least 2 / 2^N:
    # 2 / 32 = 0.0625 > 0.05 for N = 5 (can never be significant), 2 / 64 = 0.031 for N = 6.
    s = np.column_stack([np.arange(n_datasets) + 1.0, np.arange(n_datasets) + 0.5])
    if warns:
        with pytest.warns(LowPowerWarning, match=r"2/2\^5 = 0\.0625"):
            res = compare.compare_datasets(s)
        assert res.pairwise[0].pvalue == pytest.approx(0.0625)
    else:
        res = compare.compare_datasets(s)
        assert res.pairwise[0].pvalue == pytest.approx(2 / 64)
        assert res.pairwise[0].wilcoxon_different
    assert res.friedman is None  # two models: no Friedman test


def test_low_power_warning_names_friedman_and_nemenyi():
    # N = 2, k = 3: the largest Friedman statistic is N (k - 1) = 4, chi2(2).sf(4) = 0.135;
    # CD = 2.343 * sqrt(12 / 12) = 2.343 > k - 1 = 2.
    with pytest.warns(LowPowerWarning, match=r"Friedman test cannot give a p-value below "
                                             r"0\.1353.*no two average ranks"):
        compare.compare_datasets([[0.9, 0.8, 0.7], [0.8, 0.7, 0.6]])


def test_identical_models_are_degenerate_not_an_error():
    s = np.column_stack([S[:, 0], S[:, 0], S[:, 1]])
    with pytest.warns(DegenerateMetricWarning, match="score the same on every data set"):
        res = compare.compare_datasets(s, models=["a", "a copy", "b"])
    assert math.isnan(res.pairwise[0].pvalue)
    assert res.pairwise[0].pvalue_holm == 1.0  # NaN enters Holm as 1
    assert res.average_ranks["a"] == res.average_ranks["a copy"]


def test_dataframe_input_names_rows_and_columns():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(S, columns=NAMES, index=[f"d{i}" for i in range(8)])
    res = compare.compare_datasets(df)
    assert res.models == NAMES and res.datasets[0] == "d0"
    assert res.average_ranks == compare.compare_datasets(S, models=NAMES).average_ranks
    frame = res.to_frame()
    assert list(frame.index) == NAMES and frame["average_rank"].tolist() == [1.125, 2.125, 2.75]
    pairs = res.to_frame(kind="pairs")
    assert pairs.shape == (3, 8) and pairs["wilcoxon_different"].tolist() == [False, True, False]
    pl = pytest.importorskip("polars")
    assert compare.compare_datasets(pl.from_pandas(df)).average_ranks == res.average_ranks


def test_str_shows_every_number_through_the_one_formatter():
    text = str(compare.compare_datasets(S, models=NAMES))
    assert "Friedman chi2 10.750 (df 2)" in text
    assert "CD 1.172 (q 2.344)" in text
    row = next(line for line in text.splitlines() if line.startswith("boost   tree"))
    assert re.split(r"\s{2,}", row.strip()) == ["boost", "tree", "-1.625", "yes", "0.0",
                                                "0.0078", "0.0234", "yes"]
    assert "not distinguishable (Nemenyi): {boost, forest}; {forest, tree}" in text


@pytest.mark.parametrize("scores, kwargs, error, match", [
    ([1, 2, 3], {}, ValueError, r"scores must be a table of shape \(datasets, models\)"),
    ([[1, 2], [3, np.nan]], {}, ValueError, "model 'model 2' on data set 'dataset 2'"),
    ([[1], [2]], {}, ValueError, "at least 2 models"),
    ([["a", "b"], ["c", "d"]], {}, TypeError, "scores must hold real numbers"),
    ([[1, 2], [3, 4]], {"models": ["a"]}, ValueError, "models has 1 names but scores has 2"),
    ([[1, 2], [3, 4]], {"models": ["a", "a"]}, ValueError, "models names must be distinct"),
    ([[1, 2], [3, 4]], {"datasets": ["x"]}, ValueError, "datasets has 1 names"),
    ([[1, 2], [3, 4]], {"alpha": 5}, ValueError, "alpha=5 is outside"),
    ([[1, 2], [3, 4]], {"greater_is_better": "yes"}, TypeError, "greater_is_better must be"),
])
def test_bad_input(scores, kwargs, error, match):
    with pytest.raises(error, match=match):
        compare.compare_datasets(scores, **kwargs)


def test_plot_draws_the_critical_difference_diagram():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from matplotlib.transforms import Bbox

    res = compare.compare_datasets(S, models=NAMES)
    ax = res.plot()
    try:
        texts = [t.get_text() for t in ax.texts]
        assert "CD = 1.17" in texts
        assert {"boost (1.12)", "forest (2.12)", "tree (2.75)"} <= set(texts)
        # One thick bar per group, spanning its average ranks.
        bars = sorted(tuple(np.round(line.get_xdata(), 3)) for line in ax.lines
                      if line.get_linewidth() == 3)
        assert bars == [(1.095, 2.155), (2.095, 2.78)]
        # The CD bar: from rank 1 to 1 + CD.
        cd_bar = [line for line in ax.lines if line.get_linewidth() == 2]
        np.testing.assert_allclose(cd_bar[0].get_xdata(), [1, 1 + res.critical_difference])
        # A title saying what is ranked on what, and the axis named.
        assert ax.get_title() == ("Critical difference diagram: 3 models on 8 data sets "
                                  "(Nemenyi, alpha 0.05)")
        assert "average rank (1 = best)" in texts
        # No empty band: what is drawn fills the Axes from top to bottom, and the names
        # (outside the rank axis) stay inside the figure.
        fig = ax.figure
        fig.savefig(io.BytesIO(), format="png")
        renderer = fig.canvas.get_renderer()
        frame = ax.get_window_extent()
        drawn = Bbox.union([a.get_window_extent(renderer) for a in [*ax.lines, *ax.texts]])
        assert drawn.height >= 0.9 * frame.height
        assert fig.bbox.contains(*drawn.p0) and fig.bbox.contains(*drawn.p1)
        assert ax.get_tightbbox(renderer).y0 >= fig.bbox.y0 - 1
    finally:
        plt.close(ax.figure)


def test_plot_names_hang_clear_of_each_other_with_many_models():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(1)
    scores = rng.normal(size=(10, 7)) + np.arange(7)  # four overlapping groups
    res = compare.compare_datasets(scores, models=[f"model_{j}" for j in range(7)])
    ax = res.plot()
    try:
        ax.figure.canvas.draw()
        renderer = ax.figure.canvas.get_renderer()
        names = [t for t in ax.texts if t.get_text().startswith("model_")]
        boxes = [t.get_window_extent(renderer) for t in names]
        assert len(boxes) == 7
        for i, a in enumerate(boxes):  # no two names overlap
            assert not any(a.overlaps(b) for b in boxes[i + 1:])
        # Every name lies below the lowest group bar.
        bars = [line for line in ax.lines if line.get_linewidth() == 3]
        lowest = min(line.get_window_extent(renderer).y0 for line in bars)
        assert len(bars) == 4 and all(b.y1 < lowest for b in boxes)
    finally:
        plt.close(ax.figure)


def test_plot_without_matplotlib_names_the_extra(monkeypatch):
    import sys

    res = compare.compare_datasets(S, models=NAMES)
    # None in sys.modules makes the import fail, as when matplotlib is not installed.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "chimeraboost\[plot\]"'):
        res.plot()


def test_unordered_or_string_names_are_refused():
    for kwargs in ({"models": "abc"}, {"models": {"a", "b", "c"}}, {"datasets": set("abcdefgh")}):
        with pytest.raises(TypeError, match="must be a list of names"):
            compare.compare_datasets(S, **kwargs)


def test_non_arrays_name_scores():
    import scipy.sparse as sp
    with pytest.raises(TypeError, match="scores is None"):
        compare.compare_datasets(None)
    with pytest.raises(TypeError, match="scores is a sparse"):
        compare.compare_datasets(sp.csr_matrix(S))


def test_pandas_missing_cells_are_missing_scores():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(S, columns=NAMES).astype("Float64")
    frame.iloc[2, 1] = pd.NA
    with pytest.raises(ValueError, match="model 'forest' on data set '2'"):
        compare.compare_datasets(frame)


def test_nemenyi_q_refuses_bad_k_and_alpha():
    with pytest.raises(ValueError, match="n_models must be >= 2"):
        compare.nemenyi_q(1)
    with pytest.raises(TypeError, match="n_models must be an integer"):
        compare.nemenyi_q(2.5)
    with pytest.raises(ValueError, match="alpha=1.5 is outside"):
        compare.nemenyi_q(3, alpha=1.5)


def test_one_data_set_is_degenerate_not_an_error():
    with pytest.warns(DegenerateMetricWarning, match="single data set"):
        res = compare.compare_datasets(S[:1], models=NAMES)
    assert res.average_ranks == {"boost": 1.0, "forest": 2.0, "tree": 3.0}
    assert math.isnan(res.friedman.statistic) and math.isnan(res.friedman.pvalue)
    assert all(math.isnan(p.pvalue) and not p.wilcoxon_different and not p.nemenyi_different
               for p in res.pairwise)
    assert "nan" in str(res).lower() or "n/a" in str(res)


def test_complex_or_date_scores_are_refused_not_cast():
    with pytest.raises(TypeError, match="scores must hold real numbers, got dtype complex128"):
        compare.compare_datasets(S + 1j)
