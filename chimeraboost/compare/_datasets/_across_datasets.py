"""Several models, several data sets: which models differ, and which cannot be told apart?

The statistics behind :func:`chimeraboost.compare.compare_datasets` (re-exported there), on a
table of scores only -- one row per data set, one column per model; no estimator is seen here.
Questions worth asking, and where the answer is:

- How do the models rank overall? ``average_ranks``: per data set the best model gets rank 1,
  ties share the average of their ranks (``scipy.stats.rankdata``); ranks are averaged over data
  sets. Ranks, not mean scores: a score of 0.9 on one data set and 0.6 on another are not on
  one scale, and averaging them lets one easy data set dominate [D06]_.
- Do the models differ at all? ``friedman``: the Friedman test of "all average ranks equal"
  (``scipy.stats.friedmanchisquare``), and ``iman_davenport``, its less conservative F form.
- Which pairs differ? ``critical_difference``: the Nemenyi test declares two models different
  when their average ranks differ by at least ``CD = q_alpha sqrt(k (k + 1) / (6 N))``;
  ``pairwise``: the Wilcoxon signed-rank test of every pair on its per-data-set differences,
  Holm-adjusted over the pairs (the test Benavoli et al. 2016 recommend over mean ranks, whose
  verdict on two models depends on which other models are in the table).
- Which models cannot be told apart? ``groups``: maximal runs of models, ordered by average
  rank, whose average ranks all lie within less than ``CD`` of each other -- the bars of the
  critical-difference diagram that :meth:`DatasetComparison.plot` draws.
- Can these tests say anything with this few data sets? A :class:`LowPowerWarning` when some
  test can never reach ``alpha``, whatever the scores: the exact two-sided Wilcoxon p-value of
  ``N`` pairs is at least ``2 / 2^N`` (0.0625 for 5 data sets).

References
----------
.. [D06] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
   *Journal of Machine Learning Research* 7, 1-30.
.. [BCM16] Benavoli, A., Corani, G. and Mangili, F. (2016). Should we really use post-hoc
   tests based on mean-ranks? *Journal of Machine Learning Research* 17(5), 1-10.
.. [ID80] Iman, R. L. and Davenport, J. M. (1980). Approximations of the critical region of
   the Friedman statistic. *Communications in Statistics* 9(6), 571-595.
   doi:10.1080/03610928008827904
"""

from __future__ import annotations

import html
import math
import warnings
from typing import NamedTuple

import numpy as np
from scipy import stats

from ..._shared.api import public
from ..._shared.format import Col, fmt, fmt_p, table
from ..._shared.html import html_block, html_paragraphs, html_table
from ...resampling import holm
from ..._shared.validation import (
    _is_missing_value,
    check_level,
    check_positive_int,
    import_pandas,
    warn_degenerate,
    to_numpy,
)
from ...exceptions import LowPowerWarning
from ...exceptions import warn as _warn

__all__ = ["DatasetComparison", "FriedmanResult", "PairwiseResult", "compare_datasets",
           "nemenyi_q"]


class FriedmanResult(NamedTuple):
    """A rank test of "every model has the same average rank": statistic, p-value, degrees
    of freedom (``df2`` is None for the chi-squared form)."""

    statistic: float
    pvalue: float
    df: float
    df2: float | None = None


class PairwiseResult(NamedTuple):
    """Two models across data sets. ``rank_difference`` is ``average rank(a) - average
    rank(b)`` (negative: ``a`` ranks better); ``nemenyi_different`` is ``|rank_difference| >=
    CD``; ``statistic``, ``pvalue``: ``scipy.stats.wilcoxon`` of the per-data-set score
    differences ``a - b``; ``pvalue_holm``: Holm-adjusted over all pairs;
    ``wilcoxon_different`` is ``pvalue_holm < alpha``."""

    a: str
    b: str
    rank_difference: float
    nemenyi_different: bool
    statistic: float
    pvalue: float
    pvalue_holm: float
    wilcoxon_different: bool


@public(legacy=("alpha",), renamed={"k": "n_models"})
def nemenyi_q(n_models: int, *, alpha: float = 0.05) -> float:
    """The Nemenyi test's critical value ``q_alpha`` for ``k = n_models`` models (formerly
    ``k=``, a name that elsewhere means a top-k cutoff): the upper ``alpha``
    quantile of the studentized range of ``k`` normal means with infinite degrees of
    freedom, divided by ``sqrt(2)`` [D06]_ (Table 5, to three decimals: 2.728
    for ``k = 5``, ``alpha = 0.05``).

    >>> round(nemenyi_q(5, alpha=0.05), 3)
    2.728
    """
    k = check_positive_int(n_models, "n_models", minimum=2)
    alpha = check_level(alpha, "alpha", example="0.05")
    return float(stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2))


def _score_table(scores, models, datasets):
    """``(values (N, k), model names, data-set names)`` from a DataFrame or an array."""
    if hasattr(scores, "columns") and hasattr(scores, "to_numpy"):  # pandas or polars
        names = [str(c) for c in scores.columns]
        if models is not None:
            msg = "models= names the columns of an array; a DataFrame's columns are its names."
            raise TypeError(msg)
        index = getattr(scores, "index", None)
        rows = [str(i) for i in index] if index is not None else None
        if datasets is None and rows is not None:
            datasets = rows
        values = scores.to_numpy()
        models = names
    else:
        values = to_numpy(scores, "scores")
    for arg, given in (("models", models), ("datasets", datasets)):
        if given is not None and (isinstance(given, (str, bytes, set, frozenset, dict))
                                  or not hasattr(given, "__len__")):
            msg = (f"{arg} must be a list of names, one per {'column' if arg == 'models' else 'row'}"
                   f" of scores, in order; got a {type(given).__name__}.")
            raise TypeError(msg)
    if values.dtype.kind in "USmMc":
        msg = f"scores must hold real numbers, got dtype {values.dtype}."
        raise TypeError(msg)
    if values.dtype.kind == "O":  # pandas NA / None in a cell: a missing score, said below
        values = np.array([[np.nan if _is_missing_value(v) else v for v in row]
                           for row in values.tolist()], dtype=object) if values.ndim == 2 \
            else values
    if values.ndim != 2:
        msg = (f"scores must be a table of shape (datasets, models), got {values.ndim} "
               "dimension(s). Pass one row per data set and one column per model.")
        raise ValueError(msg)
    try:
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        msg = f"scores must hold real numbers, got dtype {values.dtype}."
        raise TypeError(msg) from None
    N, k = values.shape
    models = [f"model {j + 1}" for j in range(k)] if models is None else [str(m) for m in models]
    datasets = ([f"dataset {i + 1}" for i in range(N)] if datasets is None
                else [str(d) for d in datasets])
    for arg, names, size, what in (("models", models, k, "columns"),
                                   ("datasets", datasets, N, "rows")):
        if len(names) != size:
            msg = f"{arg} has {len(names)} names but scores has {size} {what}."
            raise ValueError(msg)
        if len(set(names)) != size:
            msg = f"{arg} names must be distinct, got {names}."
            raise ValueError(msg)
    if k < 2:
        msg = f"scores must have at least 2 models (columns) to compare, got {k}."
        raise ValueError(msg)
    bad = np.argwhere(~np.isfinite(values))
    if bad.size:
        i, j = bad[0]
        msg = (f"scores has {len(bad)} missing or infinite value(s), e.g. model {models[j]!r} on "
               f"data set {datasets[i]!r}: rank tests need every model scored on every data set. "
               "Drop that data set or score the model on it.")
        raise ValueError(msg)
    return values, models, datasets


def _groups(avg: np.ndarray, cd: float) -> list[tuple[int, ...]]:
    """Maximal runs of models, in order of average rank, spanning less than ``cd``."""
    order = np.argsort(avg, kind="stable")
    out, last_end = [], -1
    for start in range(len(order)):
        end = start
        while end + 1 < len(order) and avg[order[end + 1]] - avg[order[start]] < cd:
            end += 1
        if end > last_end:  # not inside the previous run
            out.append(tuple(int(j) for j in order[start:end + 1]))
            last_end = end
    return out


def _low_power(N: int, k: int, alpha: float, cd: float) -> list[str]:
    """Which tests can never reach ``alpha`` with ``N`` data sets, whatever the scores."""
    notes = []
    # Exact two-sided Wilcoxon: the most extreme outcome (all N differences one sign) has
    # probability 2 / 2^N; Holm multiplies the smallest p-value by the number of pairs.
    m = k * (k - 1) // 2
    p_min = 2.0 / 2.0**N
    if p_min * m > alpha:
        notes.append(f"the Wilcoxon test of a pair cannot give a p-value below 2/2^{N} = "
                     f"{fmt_p(p_min)}" + (f", {fmt_p(min(1.0, p_min * m))} after Holm over "
                                          f"{m} pairs" if m > 1 else ""))
    if k >= 3:
        # The largest Friedman statistic: every data set ranks the models alike, N (k - 1).
        p_friedman = float(stats.chi2.sf(N * (k - 1), k - 1))
        if p_friedman > alpha:
            notes.append(f"the Friedman test cannot give a p-value below {fmt_p(p_friedman)}")
    if k - 1 < cd:
        notes.append(f"no two average ranks can differ by the critical difference {fmt(cd, 3)} "
                     f"(the largest possible difference is {k - 1})")
    return notes


@public(renamed={"higher_is_better": "greater_is_better"})
def compare_datasets(scores, *, greater_is_better=True, alpha=0.05, models=None,
                     datasets=None) -> DatasetComparison:
    """Compare models over several data sets by their ranks (Demšar 2006).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_datasets, n_models)
        One row per data set, one column per model: each model's score (e.g. its mean
        cross-validated score) on each data set. A pandas DataFrame names the models by its
        columns and the data sets by its index; a polars DataFrame by its columns.
    greater_is_better : bool, default=True
        False for losses (log loss, RMSE): the lowest value then ranks first.
    alpha : float in (0, 1), default=0.05
        Significance level of every test.
    models, datasets : list of str, default=None
        Names of the columns and rows of an array (default ``model 1``, ..., ``dataset 1``, ...).

    Returns
    -------
    DatasetComparison
        ``average_ranks``, ``friedman``, ``iman_davenport``, ``critical_difference``,
        ``pairwise``, ``groups``; ``print(result)`` shows them, ``result.plot()`` draws the
        critical-difference diagram.

    Notes
    -----
    With ``N`` data sets, ``k`` models and ``R_j`` the average rank of model ``j`` (rank 1 the
    best, ties averaged) [D06]_:

    - Friedman: ``chi2_F = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]`` on ``k - 1``
      df, with scipy's correction for ties; needs ``k >= 3``.
    - Iman-Davenport [ID80]_: ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)`` on ``k - 1`` and
      ``(k - 1)(N - 1)`` df.
    - Nemenyi: ``CD = q_alpha sqrt(k (k + 1) / (6 N))``, :func:`nemenyi_q`; two models differ
      when their average ranks differ by at least ``CD``.
    - Wilcoxon signed-rank test of each pair (``scipy.stats.wilcoxon``, exact for small ``N``
      without ties, zero differences dropped), Holm-adjusted over the ``k (k - 1) / 2`` pairs
      [BCM16]_. A pair whose scores are equal on every data set has no test (NaN, with a
      :class:`~chimeraboost.exceptions.DegenerateMetricWarning`) and enters Holm as 1.
    - ``groups``: maximal runs of models (by average rank) within less than ``CD``.

    One data set (``N = 1``) has ranks but no test: the Friedman and Wilcoxon results are NaN,
    with a :class:`~chimeraboost.exceptions.DegenerateMetricWarning`.

    A :class:`~chimeraboost.exceptions.LowPowerWarning` says when ``N`` is too small for a
    test ever to reach ``alpha`` (e.g. 5 data sets: the Wilcoxon p-value is at least 0.0625).

    Examples
    --------
    >>> import numpy as np
    >>> s = np.array([[0.80, 0.75, 0.70], [0.85, 0.83, 0.79], [0.70, 0.72, 0.60],
    ...               [0.90, 0.88, 0.86], [0.66, 0.61, 0.65], [0.77, 0.74, 0.70],
    ...               [0.81, 0.80, 0.78], [0.93, 0.90, 0.91]])
    >>> res = compare_datasets(s, models=["boost", "forest", "tree"])
    >>> res.average_ranks
    {'boost': 1.125, 'forest': 2.125, 'tree': 2.75}
    """
    if not isinstance(greater_is_better, (bool, np.bool_)):
        msg = f"greater_is_better must be True or False, got {greater_is_better!r}."
        raise TypeError(msg)
    alpha = check_level(alpha, "alpha", example="0.05")
    values, models, datasets = _score_table(scores, models, datasets)
    N, k = values.shape
    ranks = stats.rankdata(-values if greater_is_better else values, axis=1)
    avg = ranks.mean(axis=0)
    q = nemenyi_q(k, alpha=alpha)
    cd = q * math.sqrt(k * (k + 1) / (6.0 * N))
    if N == 1:
        # Ranks on one data set are legal; a test across data sets has no evidence.
        warn_degenerate(f"scores has a single data set ({datasets[0]!r}): the Friedman and "
                        "Wilcoxon tests across data sets are undefined (NaN); add data sets.")
        nan = math.nan
        friedman = FriedmanResult(nan, nan, k - 1) if k >= 3 else None
        iman = FriedmanResult(nan, nan, k - 1, 0) if k >= 3 else None
        pairwise = [PairwiseResult(models[a], models[b], float(avg[a] - avg[b]),
                                   bool(abs(avg[a] - avg[b]) >= cd), nan, nan, nan, False)
                    for a in range(k) for b in range(a + 1, k)]
        groups = [tuple(models[j] for j in g) for g in _groups(avg, cd)]
        return DatasetComparison(values, models, datasets, greater_is_better, alpha, ranks,
                                 friedman, iman, q, cd, pairwise, groups)
    notes = _low_power(N, k, alpha, cd)
    if notes:
        _warn(f"With {N} data sets and {k} models at alpha {alpha:g}, " + "; ".join(notes)
              + ": no finding there can be significant. Add data sets.", LowPowerWarning)
    friedman = iman = None
    if k >= 3:
        if np.all(ranks == ranks[:, :1]):
            warn_degenerate("Every model scores the same on every data set: the Friedman "
                            "statistic is undefined.")
            friedman = FriedmanResult(math.nan, math.nan, k - 1)
            iman = FriedmanResult(math.nan, math.nan, k - 1, (k - 1) * (N - 1))
        else:
            res = stats.friedmanchisquare(*values.T)
            chi2 = float(res.statistic)
            friedman = FriedmanResult(chi2, float(res.pvalue), k - 1)
            df2 = (k - 1) * (N - 1)
            denom = N * (k - 1) - chi2
            # All data sets rank the models alike: chi2 = N (k - 1), F infinite, p 0.
            f = (N - 1) * chi2 / denom if denom > 0 else math.inf
            iman = FriedmanResult(f, float(stats.f.sf(f, k - 1, df2)), k - 1, df2)
    pairwise = _pairwise(values, models, avg, cd, alpha)
    groups = [tuple(models[j] for j in g) for g in _groups(avg, cd)]
    return DatasetComparison(values, models, datasets, greater_is_better, alpha, ranks,
                             friedman, iman, q, cd, pairwise, groups)


def _pairwise(values, models, avg, cd, alpha) -> list[PairwiseResult]:
    k = values.shape[1]
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    stat, p = [], []
    for a, b in pairs:
        d = values[:, a] - values[:, b]
        if np.all(d == 0):
            warn_degenerate(f"{models[a]} and {models[b]} score the same on every data set: "
                            "their Wilcoxon test is undefined (NaN).")
            stat.append(math.nan)
            p.append(math.nan)
            continue
        with warnings.catch_warnings():
            # Older scipy announces, as a UserWarning, that it switches to the normal
            # approximation (zeros, or too few pairs); the method is scipy's either way.
            warnings.simplefilter("ignore", UserWarning)
            res = stats.wilcoxon(d)
        stat.append(float(res.statistic))
        p.append(float(res.pvalue))
    adjusted = holm([1.0 if math.isnan(x) else x for x in p], alpha=alpha).pvalues_adjusted
    out = []
    for (a, b), s, pv, ph in zip(pairs, stat, p, adjusted):
        diff = float(avg[a] - avg[b])
        out.append(PairwiseResult(models[a], models[b], diff, bool(abs(diff) >= cd), s, pv,
                                  float(ph), bool(ph < alpha)))
    return out


class DatasetComparison:
    """The outcome of :func:`compare_datasets`.

    Attributes
    ----------
    scores : ndarray of shape (n_datasets, n_models)
    models, datasets : list of str
    higher_is_better : bool
    alpha : float
    ranks : ndarray of shape (n_datasets, n_models)
        Per data set, rank 1 the best; ties share their average rank.
    average_ranks : dict
        Model -> mean rank over the data sets, in the order of ``models``.
    friedman, iman_davenport : FriedmanResult or None
        None with two models (the Friedman test needs three; see ``pairwise``).
    q_alpha, critical_difference : float
        Nemenyi's critical value and ``CD``.
    pairwise : list of PairwiseResult
        Every pair ``(a, b)`` in the order of ``models``.
    groups : list of tuple of str
        Maximal sets of models, consecutive by average rank, not distinguishable by Nemenyi.
    """

    def __init__(self, scores, models, datasets, higher_is_better, alpha, ranks, friedman,
                 iman_davenport, q_alpha, critical_difference, pairwise, groups):
        self.scores, self.models, self.datasets = scores, models, datasets
        self.higher_is_better, self.alpha, self.ranks = higher_is_better, alpha, ranks
        self.friedman, self.iman_davenport = friedman, iman_davenport
        self.q_alpha, self.critical_difference = q_alpha, critical_difference
        self.pairwise, self.groups = pairwise, groups

    @property
    def n_datasets(self) -> int:
        return self.scores.shape[0]

    @property
    def average_ranks(self) -> dict:
        return {m: float(r) for m, r in zip(self.models, self.ranks.mean(axis=0))}

    def _head(self) -> list:
        N, k = self.scores.shape
        way = "higher" if self.higher_is_better else "lower"
        lines = [f"{k} models on {N} data sets ({way} scores rank first; rank 1 = best, ties "
                 "averaged)"]
        if self.friedman is None:
            lines.append("Friedman test: needs at least 3 models; see the Wilcoxon test below")
        else:
            fr, iman = self.friedman, self.iman_davenport
            lines.append(f"Friedman chi2 {fmt(fr.statistic, 3)} (df {fr.df}), p "
                         f"{fmt_p(fr.pvalue)} · Iman-Davenport F {fmt(iman.statistic, 3)} (df "
                         f"{iman.df}, {iman.df2}), p {fmt_p(iman.pvalue)}")
        lines.append(f"Nemenyi critical difference at alpha {self.alpha:g}: CD "
                     f"{fmt(self.critical_difference, 3)} (q {fmt(self.q_alpha, 3)})")
        return lines

    def _tables(self):
        """(columns, rows) of the models, best first, and of the pairs; for text and HTML."""
        avg = self.average_ranks
        order = sorted(self.models, key=lambda m: avg[m])
        models = ([Col("model", None), Col("average rank", 3), Col("mean score")],
                  [[m, avg[m], float(np.mean(self.scores[:, self.models.index(m)]))]
                   for m in order])
        rows = [[p.a, p.b, p.rank_difference, "yes" if p.nemenyi_different else "no",
                 p.statistic, fmt_p(p.pvalue), fmt_p(p.pvalue_holm),
                 "yes" if p.wilcoxon_different else "no"] for p in self.pairwise]
        pairs = ([Col("a", None), Col("b", None), Col("rank a - b", 3, signed=True),
                  Col("Nemenyi", None), Col("Wilcoxon W", 1), Col("p"), Col("p_holm"),
                  Col("Wilcoxon", None)], rows)
        return models, pairs

    def _foot(self) -> list:
        shared = [g for g in self.groups if len(g) > 1]
        return [
            "not distinguishable (Nemenyi): "
            + ("; ".join("{" + ", ".join(g) + "}" for g in shared) if shared else
               "none -- every pair differs"),
            f"Nemenyi: yes when |rank a - b| >= CD; Wilcoxon: yes when the Holm-adjusted "
            f"signed-rank p-value (over {len(self.pairwise)} pairs) < {self.alpha:g}.",
        ]

    def __str__(self) -> str:
        models, pairs = self._tables()
        return "\n".join([*self._head(), "", *table(*models, indent=0), "",
                          *table(*pairs, indent=0), "", *self._foot()])

    def _repr_html_(self) -> str:
        """Jupyter: the setting as a heading, the tests, the models best first, the pairs and
        the groups no test tells apart."""
        head = self._head()
        models, pairs = self._tables()
        return html_block(f"<h4>{html.escape(head[0])}</h4>", html_paragraphs(head[1:]),
                          html_table(*models), html_table(*pairs),
                          html_paragraphs(self._foot()))

    def __repr__(self) -> str:
        ranks = {m: round(r, 3) for m, r in self.average_ranks.items()}
        return (f"<DatasetComparison {len(self.models)} models x {self.n_datasets} data sets: "
                f"average ranks {ranks}, CD {self.critical_difference:.3f}>")

    @public(legacy=("kind",))
    def to_frame(self, *, kind: str = "models"):
        """``kind="models"``: one row per model (``average_rank``, ``mean_score``), best first;
        ``kind="pairs"``: one row per pair (``a``, ``b``, ``rank_difference``,
        ``nemenyi_different``, ``statistic``, ``pvalue``, ``pvalue_holm``). Needs pandas."""
        pd = import_pandas("DatasetComparison.to_frame")
        if kind == "models":
            avg = self.average_ranks
            frame = pd.DataFrame({"average_rank": list(avg.values()),
                                  "mean_score": self.scores.mean(axis=0)}, index=self.models)
            return frame.sort_values("average_rank", kind="stable")
        if kind == "pairs":
            return pd.DataFrame([p._asdict() for p in self.pairwise])
        msg = f"kind must be 'models' or 'pairs', got {kind!r}."
        raise ValueError(msg)

    @public(legacy=("ax",))
    def plot(self, *, ax=None):
        """Draw the critical-difference diagram (Demšar 2006, Fig. 1) and return the Axes.

        The axis carries the average ranks (1, the best, on the left); each model's name hangs
        from its average rank; a thick bar joins each group of models not distinguishable by
        Nemenyi, and a bar of length ``CD`` sits above the axis. The title names the number
        of models and data sets and the level. Drawn by
        :func:`chimeraboost.plotting.critical_difference_diagram`; needs matplotlib
        (``pip install "chimeraboost[plot]"``).
        """
        from ...plotting import critical_difference_diagram

        return critical_difference_diagram(self, ax=ax)
