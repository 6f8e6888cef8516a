"""Shadow traffic: both models score the same live rows before any label arrives.

Questions this module answers, all by :func:`shadow_report` (:class:`ShadowReport`):

- *How often would the challenger decide otherwise, in each direction?* The flip rates at
  ``threshold``; *and do the two agree beyond chance?* Cohen's kappa of the decisions.
- *Do they rank the rows alike?* Spearman's rank correlation and the top-``k`` overlap.
- *Without labels, does each model still look calibrated in the large?* Each model's mean
  probability and predicted positive rate against the offline base rate.
- *Have each model's scores moved since the offline holdout?* PSI on the offline scores'
  deciles (an empty bin's share raised to ``psi_eps``) and the KS statistic.
- *Where do the decisions flip most?* With ``by=``: the flip rate per slice against the rest,
  adjusted for the number of slices (Holm or Benjamini-Hochberg, as
  :func:`chimeraboost.slices.slice_report`).
- *Once labels arrive, who is right where they disagree?* The rows whose decisions differ,
  how often each model is right there, and McNemar's test (:mod:`._mcnemar`: exact on
  independent rows, clustered with ``groups=`` or ``time=``).

Every number has a paired bootstrap interval: the same resampled rows for both models, drawn
by the one engine (:class:`chimeraboost.resampling.Resampler`, through :mod:`._resample`):
single rows, whole groups (``groups=``: shadow traffic is many requests per user, and a
user's requests are not independent) or blocks of time (``time=``). The offline base rate
and scores are held fixed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import resampling
from .._shared.array_checks import as_1d, check_aligned, check_same_length, finite_float
from .._shared.format import Col, count, fitted_table, fmt_p, percent
from .._shared.units import resampled
from .._shared.param_checks import check_level, check_real
from . import _shadow_stats as st
from ._mcnemar import disagreement
from ._resample import row_bootstrap

__all__ = ["ShadowReport", "shadow_report"]

# What each number is, in the order printed.
_LABELS = {
    "flip_up": "flips to positive (champion no, challenger yes)",
    "flip_down": "flips to negative (champion yes, challenger no)",
    "flip_rate": "decisions that differ",
    "kappa": "Cohen's kappa of the decisions",
    "spearman": "Spearman rank correlation of the scores",
    "top_k_jaccard": "top-k overlap (Jaccard)",
    "positive_rate_champion": "champion's predicted positive rate",
    "positive_rate_challenger": "challenger's predicted positive rate",
    "mean_champion": "champion's mean score",
    "mean_challenger": "challenger's mean score",
    "mean_minus_base_rate_champion": "champion's mean score minus the offline base rate",
    "mean_minus_base_rate_challenger": "challenger's mean score minus the offline base rate",
    "psi_champion": "champion's PSI against its offline scores",
    "psi_challenger": "challenger's PSI against its offline scores",
    "ks_champion": "champion's KS statistic against its offline scores",
    "ks_challenger": "challenger's KS statistic against its offline scores",
}


@dataclass
class ShadowReport:
    """Agreement and drift of two models on the same live rows.

    Attributes
    ----------
    n : int
        Live rows.
    values : dict
        Number name -> estimate (names as in ``labels``).
    intervals : dict
        Number name -> ``(low, high)`` at ``level``.
    labels : dict
        Number name -> what it is.
    slices : list of dict
        With ``by=``: per slice ``slice``, ``rows``, ``flip_rate``, ``low``, ``high``,
        ``vs_rest`` (its flip rate minus the rest's), ``pvalue_adjusted`` and ``verdict``.
    disagreement : dict or None
        With labels: ``labelled_rows``, ``rows`` (labelled rows whose decisions differ),
        ``champion_right``, ``challenger_right``, ``test`` (``"exact McNemar"``, or
        ``"clustered McNemar"`` with ``groups=`` / ``time=``), ``clusters`` (the groups or
        runs of time holding such a row; None for the exact test), ``pvalue``,
        ``verdict``.
    level, threshold, k, base_rate, psi_eps, ci_method : as given
    notes : list of str
    resampled : str
        What a replicate draws: ``"rows"``, ``"whole groups (298 groups)"`` or ``"blocks of
        time (...)"``.
    """

    n: int
    values: dict
    intervals: dict
    labels: dict
    slices: list = field(default_factory=list)
    disagreement: dict | None = None
    level: float = 0.95
    threshold: float | None = None
    k: float | None = None
    base_rate: float | None = None
    psi_eps: float = 1e-4
    ci_method: str = resampling.DEFAULT_CI_METHOD
    notes: list = field(default_factory=list)
    resampled: str = "rows"

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def __str__(self) -> str:
        head = f"Shadow traffic: {count(self.n)} live rows scored by both models"
        if self.threshold is not None:
            head += f", decisions at score >= {self.threshold:g}"
        lines = [head]
        if self.resampled != "rows":
            lines.append(f"  resampled: {self.resampled}")
        rows = [[self.labels[k], v, *self.intervals[k]] for k, v in self.values.items()]
        pct = percent(self.level)
        lines += fitted_table([Col("number", None), Col("value"), Col(f"{pct} low"),
                               Col("high")], rows)[0]
        if self.slices:
            lines += ["", "Flip rate per slice (against the rest of the rows, adjusted)"]
            rows = [[s["slice"], s["rows"], s["flip_rate"], s["low"], s["high"],
                     s["vs_rest"], fmt_p(s["pvalue_adjusted"]), s["verdict"]]
                    for s in self.slices]
            lines += fitted_table([Col("slice", None), Col("rows", 0), Col("flip rate"),
                                   Col("low"), Col("high"), Col("vs rest", signed=True),
                                   Col("p adj", None), Col("verdict", None)], rows)[0]
        if self.disagreement is not None:
            d = self.disagreement
            lines += ["", f"Where the decisions differ ({count(d['rows'])} of "
                          f"{count(d['labelled_rows'])} labelled rows): champion right "
                          f"{count(d['champion_right'])}, challenger right "
                          f"{count(d['challenger_right'])}",
                      f"  {d['test']} p = {fmt_p(d['pvalue'])}: {d['verdict']}"]
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)

    __repr__ = __str__


def _scores(x, name):
    return finite_float(as_1d(x, name).astype(np.float64), name)


def _slice_rows(by, n):
    labels = as_1d(by, "by")
    if labels.shape[0] != n:
        msg = f"by has {labels.shape[0]} rows, the scores {n}."
        raise ValueError(msg)
    text = np.array([str(v) for v in labels.tolist()])
    return [(s, text == s) for s in np.unique(text)]


def _slice_tests(slices, point, intervals, reps, scheme, adjust, alpha) -> list:
    """Each slice's flip rate against the rest's: the t test of
    :func:`chimeraboost.resampling.difference_tests` on the fewer of the slice's and the
    rest's resampled units (rows, groups, or time points over the block length), adjusted
    over the slices."""
    keys = [f"slice:{s}" for s, _ in slices]
    diff = [point[k] - point[f"rest:{s}"] for k, (s, _) in zip(keys, slices)]
    diff_reps = [reps[k] - reps[f"rest:{s}"] for k, (s, _) in zip(keys, slices)]
    units = [min(scheme.subset(rows).n_units(int(rows.sum())),
                 scheme.subset(~rows).n_units(int((~rows).sum()))) for _, rows in slices]
    t = resampling.difference_tests(diff, diff_reps, units, adjust=adjust, alpha=alpha)
    out = []
    for i, (s, rows) in enumerate(slices):
        tested = np.isfinite(t.pvalue_adjusted[i])
        verdict = ("not tested" if not tested else "flips more than the rest"
                   if t.reject[i] and t.difference[i] > 0 else "flips less than the rest"
                   if t.reject[i] else "no detectable difference")
        out.append({"slice": s, "rows": int(rows.sum()), "flip_rate": point[keys[i]],
                    "low": intervals[keys[i]][0], "high": intervals[keys[i]][1],
                    "vs_rest": float(t.difference[i]), "pvalue": float(t.pvalue[i]),
                    "pvalue_adjusted": float(t.pvalue_adjusted[i]), "verdict": verdict})
    return out


def _statistic(s0, s1, threshold, k, reference, slices):
    """The function of row weights behind every number of the report."""
    d0 = s0 >= threshold if threshold is not None else None
    d1 = s1 >= threshold if threshold is not None else None
    r0, r1 = st.Midranks(s0), st.Midranks(s1)
    order0, order1 = np.argsort(-s0, kind="stable"), np.argsort(-s1, kind="stable")
    drift = {}
    for name, s, ref in (("champion", s0, reference[0]), ("challenger", s1, reference[1])):
        if ref is not None:
            edges = st.decile_edges(ref)
            expected = np.bincount(np.searchsorted(edges, ref, side="right"),
                                   minlength=edges.size + 1) / ref.size
            drift[name] = (np.searchsorted(edges, s, side="right"), expected, st.KS(s, ref))

    def stat(W, eps=reference[3]):
        tot = W.sum(1)
        out = {}
        if d0 is not None:
            out.update(st.decision_numbers(W, d0, d1))
        out["spearman"] = st.spearman(W, r0, r1)
        if k is not None:
            out["top_k_jaccard"] = st.top_k_jaccard(W, order0, order1, k)
        out["mean_champion"], out["mean_challenger"] = W @ s0 / tot, W @ s1 / tot
        if reference[2] is not None:
            for name in ("champion", "challenger"):
                out[f"mean_minus_base_rate_{name}"] = out[f"mean_{name}"] - reference[2]
        for name, (bins, expected, ks) in drift.items():
            out[f"psi_{name}"] = st.psi(W, bins, expected, eps)
            out[f"ks_{name}"] = ks(W)
        flips = (d0 != d1) if d0 is not None else None
        for s, rows in slices:
            inside = W[:, rows].sum(1)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[f"slice:{s}"] = W[:, rows] @ flips[rows] / inside
                out[f"rest:{s}"] = W[:, ~rows] @ flips[~rows] / (tot - inside)
        return out

    return stat


def _check_k(k, n):
    if k is None:
        return None
    check_real(k, "k", strictly_positive=True)
    rows = k * n if k < 1 else k
    if k >= 1 and k != int(k) or rows > n:
        msg = (f"k must be a number of rows (1 to {n}) or a fraction of the rows in (0, 1), "
               f"got {k!r}.")
        raise ValueError(msg)
    return float(round(rows)) if k < 1 else float(k)


def _reference(reference_y, reference_champion, reference_challenger, psi_eps):
    base = None
    if reference_y is not None:
        ref_y = as_1d(reference_y, "reference_y")
        values = np.unique(ref_y)
        if values.size != 2:
            msg = (f"reference_y must hold the two classes of the offline rows, got "
                   f"{values.size} distinct value(s).")
            raise ValueError(msg)
        base = float(np.mean(ref_y == values[1]))
    refs = [None if r is None else _scores(r, name) for r, name in
            ((reference_champion, "reference_champion"),
             (reference_challenger, "reference_challenger"))]
    return (*refs, base, check_real(psi_eps, "psi_eps", strictly_positive=True))


def shadow_report(champion, challenger, *, threshold=None, k=None, by=None, y=None,
                  reference_y=None, reference_champion=None, reference_challenger=None,
                  level=0.95, n_boot=2000, random_state=None,
                  ci_method=resampling.DEFAULT_CI_METHOD, adjust="holm", alpha=0.05,
                  psi_eps=1e-4, groups=None, time=None) -> ShadowReport:
    """How the challenger's scores on live rows compare with the champion's, before labels.

    Parameters
    ----------
    champion, challenger : array-like of shape (n,)
        The two models' scores (probabilities of the positive class, or any scores) on the
        same live rows, in the same order.
    threshold : float, default=None
        A row is treated when its score is ``>= threshold``: flip rates, kappa, predicted
        positive rates and (with ``y``) who is right where they disagree.
    k : float, default=None
        Top-k overlap: a number of rows, or a fraction of them in (0, 1).
    by : array-like of shape (n,), default=None
        A slice label per row: flip rates per slice, against the rest (needs ``threshold``).
    y : array-like of shape (n,), default=None
        Labels of the live rows as they arrive (None or NaN where not yet): who is right
        where the decisions differ, on the labelled rows (needs ``threshold``).
    reference_y : array-like, default=None
        The offline holdout's labels: the base rate each mean score is set against.
    reference_champion, reference_challenger : array-like, default=None
        Each model's scores on the offline holdout: PSI and KS of its live scores.
    level : float in (0, 1), default=0.95
    n_boot : int, default=2000
        Resamples; at least 200 (see :func:`~chimeraboost.resampling.check_n_boot`).
    random_state : None, int or numpy Generator
    ci_method : str, default="expanded_bca"
        One of :data:`chimeraboost.resampling.CI_METHODS`.
    adjust : {"holm", "bh"}, default="holm"
    alpha : float in (0, 1), default=0.05
        For the slices' verdicts and McNemar's.
    psi_eps : float > 0, default=1e-4
        The share an empty bin counts as in the PSI (its logarithm is otherwise infinite).
    groups : array-like of shape (n,), default=None
        The unit of each live row when a unit has several (the user or account behind
        many requests: the array passed to scikit-learn's ``GroupKFold``): whole groups are
        resampled, the jackknife leaves out whole groups, the slices' tests count groups,
        and McNemar's test is the clustered one (:mod:`chimeraboost.promotion._mcnemar`).
        Below :data:`~chimeraboost.resampling.MIN_GROUPS` groups the intervals come with a
        :class:`~chimeraboost.exceptions.NarrowIntervalWarning`.
    time : array-like of shape (n,), default=None
        The time (or any sortable value) of each live row: blocks of consecutive time
        points are resampled (a stationary bootstrap, the block length chosen from the
        serial dependence of the scores and of the flips), and McNemar's test clusters the
        rows by runs of time points one block long. With ``groups`` too, whole groups are
        resampled.

    Returns
    -------
    ShadowReport

    Notes
    -----
    PSI: the bins are the offline scores' deciles (inner edges ``np.quantile(reference,
    [0.1, ..., 0.9])``, repeated edges merged, a score equal to an edge in the bin above);
    ``PSI = sum (a - e) ln(a / e)`` over the bins, ``a`` the live share and ``e`` the offline
    share, each raised to ``psi_eps`` when below it.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=500)
    >>> r = shadow_report(p, p, threshold=0.5, n_boot=1000, random_state=0)
    >>> r.values["flip_rate"], r.values["kappa"]
    (0.0, 1.0)
    """
    level = check_level(level, "level")
    alpha = check_level(alpha, "alpha", example="0.05")
    n_boot = resampling.check_n_boot(n_boot)
    ci_method = resampling.check_ci_method(ci_method)
    if adjust not in resampling.ADJUSTMENTS:
        msg = f"adjust must be 'holm' or 'bh', got {adjust!r}."
        raise ValueError(msg)
    check_aligned(champion=champion, challenger=challenger, by=by, y=y, groups=groups,
                  time=time)
    n = check_same_length(champion=champion, challenger=challenger,
                          **({} if by is None else {"by": by}), **({} if y is None else {"y": y}))
    s0, s1 = _scores(champion, "champion"), _scores(challenger, "challenger")
    if threshold is not None:
        threshold = float(check_real(threshold, "threshold", strictly_positive=False))
    for arg, given in (("by", by), ("y", y)):
        if given is not None and threshold is None:
            msg = f"{arg}= reads the decisions at a threshold: pass threshold= too."
            raise ValueError(msg)
    reference = _reference(reference_y, reference_champion, reference_challenger, psi_eps)
    slices = [] if by is None else _slice_rows(by, n)
    stat = _statistic(s0, s1, threshold, _check_k(k, n), reference, slices)
    scheme = _scheme(n, s0, s1, threshold, n_boot=n_boot, random_state=random_state,
                     ci_method=ci_method, groups=groups, time=time)
    point, intervals, reps = row_bootstrap(stat, n, scheme, level=level)
    notes = []
    table = (_slice_tests(slices, point, intervals, reps, scheme, adjust, alpha)
             if slices else [])
    values = {key: point[key] for key in _LABELS if key in point}
    if scheme.kind == "groups":
        reason = resampling.few_groups_reason(scheme.units.n_units)
        if reason is not None:
            resampling.warn_narrow({key: reason for key in values}, level)
    dis = None
    if y is not None:
        dis = disagreement(y, s0 >= threshold, s1 >= threshold, alpha, notes,
                           *_clusters(scheme))
    return ShadowReport(n, values, {key: intervals[key] for key in values},
                        {key: _LABELS[key] for key in values}, table, dis, level, threshold,
                        _check_k(k, n), reference[2], reference[3], ci_method, notes,
                        resampled(scheme.units))


def _scheme(n, s0, s1, threshold, *, groups, time, **params) -> resampling.Resampler:
    """The Resampler of the live rows: single rows, whole ``groups`` or blocks of ``time``,
    the blocks' length chosen from the serial dependence of both scores and of the flips."""
    series = None
    if time is not None and groups is None:
        cols = [s0, s1] + ([] if threshold is None else
                           [((s0 >= threshold) != (s1 >= threshold)).astype(np.float64)])
        series = np.column_stack(cols)
    return resampling.Resampler.from_params(n, groups=groups, time=time, series=series,
                                            **params)


def _clusters(scheme) -> tuple:
    """McNemar's clusters: None (independent rows, the exact test), each row's group, or
    its run of time points one mean block long, with what they are called."""
    if scheme.kind == "rows":
        return None, "rows"
    units = scheme.units
    if units.kind == "groups":
        return units.codes, "groups"
    run = max(1, int(round(units.block_length)))
    return units.codes // run, "runs of time"
