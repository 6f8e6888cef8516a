"""How sure are we of each number, and of the difference between two models on the same rows?

Questions worth asking, and which function answers each:

- How precisely do these rows pin down every metric of one model? :func:`bootstrap`
  (percentile intervals for all metrics from one resampling).
- Is the model better than the incumbent, on the same rows? :func:`paired_bootstrap` (the
  same resampled rows score both models; intervals for the difference, model minus baseline).
- Just the ROC-AUC, fast, on 100,000 rows? :func:`roc_auc_interval` (bootstrap or DeLong).
- The ROC-AUC interval without resampling? :func:`delong_roc_auc`, and for two scores on the
  same rows :func:`delong_roc_auc_difference` (DeLong, DeLong & Clarke-Pearson 1988).
- Which rows did the bootstrap draw? :func:`bootstrap_counts` (the replicates' count matrix,
  reproducible with ``random_state``).

How the bootstrap is fast: a replicate is a vector of multinomial counts (how often each row was
drawn), and every metric is a function of the rows' weights. The counts of ``B`` replicates form
one ``(B, n)`` matrix, drawn in chunks to bound memory, and each chunk goes to an *evaluator*
from :mod:`chimeraboost.metrics`, which has sorted the scores once and computes every metric for
all replicates at once. No metric is recomputed per replicate from scratch, and no scikit-learn
function is called in a loop; the numbers are exactly those of ``chimeraboost.metrics`` with
``sample_weight = counts * sample_weight``.

Replicates in which a metric is undefined (a resample holding one class has no ROC-AUC) are
left out of its percentiles; :attr:`BootstrapResult.n_dropped` says how many were.

References
----------
.. [ET93] Efron, B. and Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*.
   Chapman & Hall. Chapter 13 (percentile intervals). doi:10.1201/9780429246593
.. [DDC88] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing the areas
   under two or more correlated receiver operating characteristic curves: a nonparametric
   approach. *Biometrics* 44(3), 837-845. doi:10.2307/2531595
.. [SX14] Sun, X. and Xu, W. (2014). Fast implementation of DeLong's algorithm for comparing
   the areas under correlated receiver operating characteristic curves. *IEEE Signal
   Processing Letters* 21(11), 1389-1393. doi:10.1109/LSP.2014.2337313
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.stats import norm, rankdata

from .._shared import kernels as _kernels
from .. import metrics as _metrics
from .._shared.validation import (
    as_1d,
    binary_target,
    check_aligned,
    check_level,
    check_numeric_1d,
    check_positive_int,
    check_random_state_int,
    check_same_length,
    warn_degenerate,
)
from ..exceptions import FewResamplesWarning
from ..exceptions import warn as _warn

__all__ = [
    "MIN_RESAMPLES_DECISION",
    "MIN_RESAMPLES_INTERVAL",
    "check_n_boot",
    "ConfidenceInterval",
    "BootstrapResult",
    "PairedBootstrapResult",
    "DeLongResult",
    "bootstrap_counts",
    "bootstrap",
    "paired_bootstrap",
    "joint_bootstrap",
    "percentile_interval",
    "roc_auc_interval",
    "delong_roc_auc",
    "delong_roc_auc_difference",
]

# Below this many resamples a paired comparison is refused: the 2.5% and 97.5% percentiles
# of 199 replicates are the 5th and 195th order statistics; with fewer, an interval's ends
# rest on a handful of draws and a decision on it is a coin toss. Efron & Tibshirani (1993),
# section 19.3, recommend B >= 1000 for percentile intervals, hence the warning threshold.
MIN_RESAMPLES_DECISION = 200
MIN_RESAMPLES_INTERVAL = 1000


def check_n_boot(n_boot, *, decision: bool = False, interval: bool = True) -> int:
    """Validate ``n_boot``: refuse fewer than :data:`MIN_RESAMPLES_DECISION` for a paired
    comparison or decision (``decision=True``), warn (:class:`FewResamplesWarning`) below
    :data:`MIN_RESAMPLES_INTERVAL` for an interval."""
    n_boot = check_positive_int(n_boot, "n_boot")
    if decision and n_boot < MIN_RESAMPLES_DECISION:
        msg = (f"n_boot={n_boot} is too few resamples for a paired comparison or a decision; "
               f"at least {MIN_RESAMPLES_DECISION} are needed (default 2000).")
        raise ValueError(msg)
    if interval and n_boot < MIN_RESAMPLES_INTERVAL:
        _warn(f"n_boot={n_boot}: a percentile interval from fewer than "
              f"{MIN_RESAMPLES_INTERVAL} resamples is unstable in its ends; use "
              f"n_boot >= {MIN_RESAMPLES_INTERVAL} (default 2000).", FewResamplesWarning)
    return n_boot


# Elements of one (chunk, n) count matrix. 2.5 x 10^5 int64 = 2 MB: small enough that a
# chunk and the evaluators' gathers of it stay in cache (measured: a 100,000-row report runs
# about 15% faster with 2 to 4 replicates per chunk than with 8, 25% than with 16), large
# enough that the per-chunk Python overhead is small.
_CHUNK_ELEMENTS = 250_000


class ConfidenceInterval(NamedTuple):
    """A two-sided interval ``(low, high)``."""

    low: float
    high: float


class DeLongResult(NamedTuple):
    """ROC-AUC (or a difference of two) with DeLong's standard error and Wald interval."""

    estimate: float
    se: float
    low: float
    high: float
    pvalue: float


# --------------------------------------------------------------------------- resampling


def _chunk_size(n: int, n_boot: int, chunk_size) -> int:
    if chunk_size is None:
        return max(1, min(n_boot, _CHUNK_ELEMENTS // max(n, 1)))
    return check_positive_int(chunk_size, "chunk_size")


def _fill_counts(rng: np.random.Generator, out: np.ndarray) -> np.ndarray:
    """Fill each row of ``out`` (b, n) with the counts of n draws with replacement.

    One replicate at a time, so that replicate ``i`` consumes the same random numbers
    whatever the chunk size: results depend on ``random_state`` only. The draws are added
    into the row in place (numpy's ``add.at``, faster than ``bincount`` and its copy).
    """
    n = out.shape[1]
    one = 1 if out.dtype.kind in "iu" else 1.0  # a Python scalar: numpy's fast path
    for row in out:
        row.fill(0)
        np.add.at(row, rng.integers(0, n, n), one)
    return out


def bootstrap_counts(n, n_boot, random_state=None, chunk_size=None):
    """The bootstrap's resampling counts, chunk by chunk.

    Parameters
    ----------
    n : int
        Number of rows.
    n_boot : int
        Number of replicates.
    random_state : None, int or numpy Generator
    chunk_size : int, default=None
        Replicates per chunk; None keeps a chunk near 10^6 entries. The counts do not depend
        on it.

    Yields
    ------
    ndarray of shape (chunk, n), float64
        Row ``b`` holds how often each row was drawn in replicate ``b`` (multinomial with
        ``n`` draws and equal probabilities). The same ``random_state`` gives the same counts
        as :func:`bootstrap` and :func:`paired_bootstrap` use.
    """
    # Checked now, not at the first next(): a generator function would defer every error.
    n = check_positive_int(n, "n")
    n_boot = check_positive_int(n_boot, "n_boot")
    rng = check_random_state_int(random_state)
    size = _chunk_size(n, n_boot, chunk_size)
    return (_fill_counts(rng, np.empty((min(size, n_boot - start), n)))
            for start in range(0, n_boot, size))


def _check_evaluator(evaluator, name: str):
    if not (hasattr(evaluator, "evaluate") and hasattr(evaluator, "n")):
        msg = (f"{name} must be an evaluator from chimeraboost.metrics (classification_evaluator"
               f", regression_evaluator) or quantile_metrics.quantile_evaluator, got "
               f"{type(evaluator).__name__}.")
        raise TypeError(msg)
    return evaluator


def _check_metrics(metrics):
    return [metrics] if isinstance(metrics, str) else metrics


def _check_pair(evaluator, baseline_evaluator) -> None:
    """Both evaluators must score the same rows: same kind, same targets, same weights."""
    if type(evaluator) is not type(baseline_evaluator):
        msg = (f"baseline_evaluator is a {type(baseline_evaluator).__name__} but evaluator a "
               f"{type(evaluator).__name__}; a paired comparison needs two models of one task.")
        raise TypeError(msg)
    if evaluator.n != baseline_evaluator.n:
        msg = (
            f"The baseline is scored on {baseline_evaluator.n} rows but the model on "
            f"{evaluator.n}; a paired comparison needs the same rows."
        )
        raise ValueError(msg)
    same_y = np.array_equal(getattr(evaluator, "codes", getattr(evaluator, "y", None)),
                            getattr(baseline_evaluator, "codes",
                                    getattr(baseline_evaluator, "y", None)))
    w_a, w_b = evaluator.sample_weight, baseline_evaluator.sample_weight
    same_w = (w_a is None and w_b is None) or (w_a is not None and w_b is not None and
                                               np.array_equal(w_a, w_b))
    if not (same_y and same_w):
        what = "targets" if not same_y else "sample weights"
        msg = (f"The two evaluators hold different {what}; a paired comparison scores both "
               "models on the same rows (same y, same sample_weight).")
        raise ValueError(msg)


def _replicates(evaluators, n_boot, random_state, metrics, chunk_size) -> list[dict]:
    """Evaluate every evaluator on the same counts: list of dicts of (n_boot,) arrays."""
    n = evaluators[0].n
    rng = check_random_state_int(random_state)
    size = _chunk_size(n, n_boot, chunk_size)
    # Integer counts: the classification kernels cumulate them in integer arithmetic. The
    # count matrix and the evaluators' buffers are allocated once and reused by every chunk,
    # so memory stays bounded by the chunk whatever n_boot is; the evaluators take turns on
    # one workspace, so that two models cost two evaluations but not twice the cache.
    buffer = np.empty((size, n), dtype=np.int64)
    work = _kernels.Workspace()
    parts = [[] for _ in evaluators]
    for start in range(0, n_boot, size):
        counts = _fill_counts(rng, buffer[: min(size, n_boot - start)])
        for ev, store in zip(evaluators, parts):
            store.append(_evaluate(ev, counts, metrics, work))
    return [
        {key: np.concatenate([p[key] for p in store]) for key in store[0]} for store in parts
    ]


def _evaluate(evaluator, counts, metrics, work=None) -> dict:
    if isinstance(evaluator, _metrics.ClassificationEvaluator):
        out = evaluator.evaluate(counts, warn=False, metrics=metrics, work=work)
    else:
        out = evaluator.evaluate(counts, warn=False)
    keep = None if metrics is None else set(metrics)
    # Per-class vectors (a multiclass base rate) have no single interval; leave them out.
    return {
        key: np.asarray(v, dtype=np.float64)
        for key, v in out.items()
        if np.ndim(v) == 1 and (keep is None or key in keep)
    }


def percentile_interval(replicates, level=0.95) -> tuple[ConfidenceInterval, int]:
    """Percentile interval of bootstrap replicates, ignoring NaN ones.

    Returns
    -------
    (ConfidenceInterval, int)
        The ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (numpy's default linear
        interpolation) of the defined replicates, and the number of NaN replicates left out.
        ``(nan, nan)`` when none is defined.
    """
    level = check_level(level, "level")
    reps = as_1d(replicates, "replicates")
    if reps.dtype.kind not in "biuf":
        msg = f"replicates must be a 1-D array of numbers, got dtype {reps.dtype}."
        raise TypeError(msg)
    reps = reps.astype(np.float64)
    ok = ~np.isnan(reps)
    dropped = int(reps.size - ok.sum())
    if not ok.any():
        return ConfidenceInterval(np.nan, np.nan), dropped
    lo, hi = np.quantile(reps[ok], [(1 - level) / 2, (1 + level) / 2])
    return ConfidenceInterval(float(lo), float(hi)), dropped


class BootstrapResult:
    """Point estimates and bootstrap replicates of every metric of one model.

    Attributes
    ----------
    estimate : dict
        Metric -> value on the rows as given (the point estimate).
    replicates : dict
        Metric -> array of shape (n_boot,).
    n_boot : int
    """

    def __init__(self, estimate: dict, replicates: dict, n_boot: int):
        self.estimate, self.replicates, self.n_boot = estimate, replicates, n_boot

    def interval(self, metric, level=0.95) -> ConfidenceInterval:
        """Percentile interval of ``metric`` (NaN replicates ignored)."""
        return percentile_interval(self._get(metric), level)[0]

    def intervals(self, level=0.95) -> dict:
        """Metric -> :class:`ConfidenceInterval` for every metric."""
        return {key: self.interval(key, level) for key in self.replicates}

    def n_dropped(self, metric) -> int:
        """How many replicates gave NaN for ``metric`` (e.g. resamples with one class)."""
        return int(np.isnan(self._get(metric)).sum())

    def _get(self, metric):
        if metric not in self.replicates:
            msg = f"metric {metric!r} was not resampled; available: {sorted(self.replicates)}."
            raise KeyError(msg)
        return self.replicates[metric]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(n_boot={self.n_boot}, metrics={sorted(self.replicates)})"


class PairedBootstrapResult(BootstrapResult):
    """Paired differences ``model - baseline`` of every metric, both scored on the same
    resampled rows.

    Attributes
    ----------
    model, baseline : BootstrapResult
        Each model's own estimates and replicates (same counts).
    estimate, replicates : dict
        Metric -> difference ``model - baseline`` on the rows as given / per replicate.
    """

    def __init__(self, model: BootstrapResult, baseline: BootstrapResult):
        self.model, self.baseline = model, baseline
        keys = [key for key in model.replicates if key in baseline.replicates]
        estimate = {key: model.estimate[key] - baseline.estimate[key] for key in keys}
        reps = {key: model.replicates[key] - baseline.replicates[key] for key in keys}
        super().__init__(estimate, reps, model.n_boot)

    def difference(self, metric, level=0.95) -> tuple[float, float, float]:
        """``(model - baseline, low, high)`` for ``metric``."""
        lo, hi = self.interval(metric, level)
        return (float(self.estimate[metric]), lo, hi)


def _point(evaluator, metrics) -> dict:
    out = _evaluate(evaluator, None, metrics)
    return {key: float(v[0]) for key, v in out.items()}


def bootstrap(evaluator, n_boot=2000, *, random_state=None, metrics=None, chunk_size=None):
    """Bootstrap every metric of one evaluator, all replicates from one count matrix.

    Parameters
    ----------
    evaluator : ClassificationEvaluator or RegressionEvaluator
        From :func:`chimeraboost.metrics.classification_evaluator` or
        :func:`~chimeraboost.metrics.regression_evaluator`.
    n_boot : int, default=2000
        Number of replicates; below :data:`MIN_RESAMPLES_INTERVAL` (1000) a
        :class:`~chimeraboost.exceptions.FewResamplesWarning` says the interval's ends are
        unstable.
    random_state : None, int or numpy Generator
        The same value draws the same rows (see :func:`bootstrap_counts`).
    metrics : list of str, default=None
        Only these metrics (faster; ``["roc_auc"]`` takes a lean path). None: all.
    chunk_size : int, default=None
        Replicates evaluated at once; bounds memory, does not change the result.

    Returns
    -------
    BootstrapResult
        ``result.interval("roc_auc", 0.95)`` is the percentile interval [ET93]_.

    Notes
    -----
    A replicate draws ``n`` rows with replacement; its metrics are the evaluator's numbers
    with row weights ``counts * sample_weight``, so they are the same definitions as the
    point estimate. Reference quantities that depend on the scored rows (the base rate, and
    with ``baseline=None`` the no-skill loss) are recomputed in every replicate, as they
    would be on a new sample.
    """
    _check_evaluator(evaluator, "evaluator")
    metrics = _check_metrics(metrics)
    n_boot = check_n_boot(n_boot)
    (reps,) = _replicates([evaluator], n_boot, random_state, metrics, chunk_size)
    return BootstrapResult(_point(evaluator, metrics), reps, n_boot)


def paired_bootstrap(
    evaluator, baseline_evaluator, n_boot=2000, *, random_state=None, metrics=None,
    chunk_size=None,
):
    """Bootstrap the difference ``model - baseline`` of every metric on the same rows.

    Parameters
    ----------
    evaluator, baseline_evaluator : evaluators over the same ``n`` rows, in the same order
        (same ``y`` and ``sample_weight``), e.g. the challenger's and the incumbent's.
    n_boot, random_state, metrics, chunk_size
        As in :func:`bootstrap`; one count matrix is shared by both models. Fewer than
        :data:`MIN_RESAMPLES_DECISION` (200) resamples are refused: a difference's interval
        is what decisions are taken on.

    Returns
    -------
    PairedBootstrapResult
        ``result.difference("brier_skill")`` is ``(model - baseline, low, high)``. For a
        score (higher is better) a positive difference favours the model; for a loss a
        negative one does.

    Notes
    -----
    Because both models are scored on the same resampled rows, the rows' shared difficulty
    cancels in the difference and its interval is much narrower than the two separate
    intervals suggest.
    """
    _check_evaluator(evaluator, "evaluator")
    _check_evaluator(baseline_evaluator, "baseline_evaluator")
    metrics = _check_metrics(metrics)
    n_boot = check_n_boot(n_boot, decision=True)
    _check_pair(evaluator, baseline_evaluator)
    reps = _replicates([evaluator, baseline_evaluator], n_boot, random_state, metrics, chunk_size)
    model = BootstrapResult(_point(evaluator, metrics), reps[0], n_boot)
    base = BootstrapResult(_point(baseline_evaluator, metrics), reps[1], n_boot)
    return PairedBootstrapResult(model, base)


# --------------------------------------------------------------------------- ROC-AUC


def _binary_codes(y, pos_label):
    codes = binary_target(y, pos_label)
    if pos_label is not None and not codes.any():
        msg = f"pos_label={pos_label!r} does not occur in y."
        raise ValueError(msg)
    return codes


def roc_auc_interval(
    y, score, *, pos_label=None, level=0.95, method="bootstrap", n_boot=2000,
    random_state=None, chunk_size=None,
):
    """ROC-AUC with a confidence interval: percentile bootstrap or DeLong.

    Parameters
    ----------
    y : array-like of shape (n,)
        Binary labels: bool, 0/1 or -1/1 (positive: True / 1), or any labels with
        ``pos_label`` naming the positive one -- the same rule as
        :func:`chimeraboost.metrics.recall_at_k`.
    score : array-like of shape (n,)
        Higher means more likely positive (a probability or a decision function).
    level : float in (0, 1), default=0.95
    method : {"bootstrap", "delong"}
    n_boot, random_state, chunk_size
        Bootstrap only; see :func:`bootstrap`.

    Returns
    -------
    (float, ConfidenceInterval, int)
        The ROC-AUC on the rows as given, its interval, and the number of replicates dropped
        because they held one class (0 for DeLong).

    Notes
    -----
    The bootstrap resamples rows; each replicate's AUC comes from one gather and one
    cumulative sum over the replicate's counts, the rows having been sorted by score once
    (so that every gather reads memory in order). At n = 100,000 this is far faster than
    calling ``roc_auc_score`` per replicate: see ``benchmarks/bench_bootstrap.py``. The
    counts are drawn over the rows in that order, so the replicates are not those that
    :func:`bootstrap` or ``report(ci=...)`` draw with the same ``random_state`` for the rows
    as given: the two intervals are equally valid and differ by Monte Carlo error.
    """
    level = check_level(level, "level")
    check_aligned(y=y, score=score)
    codes = _binary_codes(y, pos_label)
    s = check_numeric_1d(score, "score")
    check_same_length(y=codes, score=s)
    if method == "delong":
        res = delong_roc_auc(codes, s, pos_label=1, level=level)
        return res.estimate, ConfidenceInterval(res.low, res.high), 0
    if method != "bootstrap":
        msg = f"method must be 'bootstrap' or 'delong', got {method!r}."
        raise ValueError(msg)
    order = np.argsort(s, kind="stable")
    ev = _metrics.classification_evaluator(codes[order], [0, 1], score=s[order])
    res = bootstrap(
        ev, n_boot, random_state=random_state, metrics=["roc_auc"], chunk_size=chunk_size
    )
    ci, dropped = percentile_interval(res.replicates["roc_auc"], level)
    return res.estimate["roc_auc"], ci, dropped


def _delong_components(codes: np.ndarray, scores: np.ndarray):
    """AUCs and the structural components of DeLong for k scores (k, n) on one label vector.

    Sun & Xu's midrank form [SX14]_: with ``m`` positives and ``n0`` negatives, ``T_z`` the
    midranks in the pooled sample and ``T_x``, ``T_y`` those within the positives and within
    the negatives, ``V_x = (T_z - T_x) / n0`` on the positives and ``V_y = 1 - (T_z - T_y) /
    m`` on the negatives, and ``AUC = mean(V_x) = mean(V_y)``.
    """
    pos = codes == 1
    m, n0 = int(pos.sum()), int((~pos).sum())
    if m == 0 or n0 == 0:
        msg = "y holds a single class; the ROC-AUC and its DeLong interval need both classes."
        raise ValueError(msg)
    x, yneg = scores[:, pos], scores[:, ~pos]
    tz = rankdata(np.concatenate([x, yneg], axis=1), axis=1)
    tx, ty = rankdata(x, axis=1), rankdata(yneg, axis=1)
    v_pos = (tz[:, :m] - tx) / n0
    v_neg = 1.0 - (tz[:, m:] - ty) / m
    auc = v_pos.mean(axis=1)
    return auc, v_pos, v_neg


def _delong_cov(v_pos: np.ndarray, v_neg: np.ndarray) -> np.ndarray:
    """DeLong's covariance; NaN (with a warning) when a class has a single row, whose
    structural components have no sample variance -- taking it as 0 would make the standard
    error too small and a p-value from one positive look significant."""
    m, n0 = v_pos.shape[1], v_neg.shape[1]
    if m < 2 or n0 < 2:
        warn_degenerate(f"y holds {m} positive and {n0} negative row(s): DeLong's variance "
                        "needs at least 2 of each, so the standard error, interval and "
                        "p-value are undefined (NaN).")
        return np.full((v_pos.shape[0],) * 2, np.nan)
    return np.atleast_2d(np.cov(v_pos)) / m + np.atleast_2d(np.cov(v_neg)) / n0


def _wald(estimate, var, level, null, bounds) -> DeLongResult:
    if np.isnan(var):
        return DeLongResult(float(estimate), np.nan, np.nan, np.nan, np.nan)
    se = float(np.sqrt(max(var, 0.0)))
    z = norm.ppf(0.5 + level / 2)
    lo, hi = np.clip([estimate - z * se, estimate + z * se], *bounds)
    pvalue = float(2 * norm.sf(abs(estimate - null) / se)) if se > 0 else np.nan
    return DeLongResult(float(estimate), se, float(lo), float(hi), pvalue)


def delong_roc_auc(y, score, *, pos_label=None, level=0.95) -> DeLongResult:
    """ROC-AUC with DeLong's analytic standard error and Wald interval (no resampling).

    Parameters
    ----------
    y : array-like of shape (n,)
        Binary labels: bool, 0/1 or -1/1, or any labels with ``pos_label`` (as in
        :func:`roc_auc_interval`).
    score : array-like of shape (n,)
    level : float in (0, 1), default=0.95

    Returns
    -------
    DeLongResult
        ``estimate`` (equals ``sklearn.metrics.roc_auc_score``), ``se``, ``low``, ``high``
        (``estimate +- z se``, clipped to [0, 1]) and ``pvalue`` of AUC = 0.5.

    Notes
    -----
    DeLong, DeLong & Clarke-Pearson (1988) [DDC88]_: ``Var(AUC) = S_x / m + S_y / n0`` with
    ``S_x``, ``S_y`` the sample variances of the structural components of the positives and
    of the negatives (ties count one half). Computed from midranks in O(n log n) following
    Sun & Xu (2014) [SX14]_. Unweighted: rows count once each.

    Examples
    --------
    >>> res = delong_roc_auc([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(res.estimate, 4)
    0.8889
    """
    level = check_level(level, "level")
    codes = _binary_codes(y, pos_label)
    s = check_numeric_1d(score, "score")
    check_same_length(y=codes, score=s)
    auc, v_pos, v_neg = _delong_components(codes, s[None, :])
    var = _delong_cov(v_pos, v_neg)[0, 0]
    return _wald(auc[0], var, level, 0.5, (0.0, 1.0))


def delong_roc_auc_difference(y, score, baseline_score, *, pos_label=None, level=0.95):
    """Difference of two correlated ROC-AUCs on the same rows, ``AUC(score) -
    AUC(baseline_score)``, with DeLong's standard error.

    Returns
    -------
    DeLongResult
        ``estimate`` (the difference), ``se``, the Wald interval clipped to [-1, 1], and the
        two-sided ``pvalue`` of no difference [DDC88]_.
    """
    level = check_level(level, "level")
    codes = _binary_codes(y, pos_label)
    a = check_numeric_1d(score, "score")
    b = check_numeric_1d(baseline_score, "baseline_score")
    check_same_length(y=codes, score=a, baseline_score=b)
    auc, v_pos, v_neg = _delong_components(codes, np.vstack([a, b]))
    cov = _delong_cov(v_pos, v_neg)
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    return _wald(auc[0] - auc[1], var, level, 0.0, (-1.0, 1.0))


# --------------------------------------------------------------------------- several models


def joint_bootstrap(evaluators, n_boot=2000, *, random_state=None, metrics=None,
                    chunk_size=None) -> list:
    """Bootstrap several models on the same resampled rows: one count matrix for all.

    Parameters
    ----------
    evaluators : sequence of evaluators over the same ``n`` rows, in the same order (same
        ``y`` and ``sample_weight``), e.g. one per row of a table of models.
    n_boot, random_state, metrics, chunk_size
        As in :func:`paired_bootstrap`; fewer than :data:`MIN_RESAMPLES_DECISION` resamples
        are refused, because differences between the models are taken from the replicates.

    Returns
    -------
    list of BootstrapResult
        One per evaluator, in order. Replicate ``b`` of every result comes from the same
        resampled rows, so ``results[i].replicates[m] - results[j].replicates[m]`` are the
        paired differences of models ``i`` and ``j`` (with two evaluators, exactly those of
        :func:`paired_bootstrap` with the same ``random_state``).
    """
    evaluators = list(evaluators)
    if not evaluators:
        msg = "evaluators is empty; pass at least one evaluator."
        raise ValueError(msg)
    for i, ev in enumerate(evaluators):
        _check_evaluator(ev, f"evaluators[{i}]")
    metrics = _check_metrics(metrics)
    n_boot = check_n_boot(n_boot, decision=True)
    for ev in evaluators[1:]:
        _check_pair(ev, evaluators[0])
    reps = _replicates(evaluators, n_boot, random_state, metrics, chunk_size)
    return [BootstrapResult(_point(ev, metrics), r, n_boot) for ev, r in zip(evaluators, reps)]
