"""How is every metric of a model resampled: one model, a pair, or several on the same rows?

- One model: :func:`bootstrap`. Two on the same resampled rows (model minus baseline):
  :func:`paired_bootstrap`. Any number on the same resampled rows: :func:`joint_bootstrap`.

Each chunk of the count matrix (``_draws``) goes to the evaluators of
:mod:`chimeraboost.metrics` and :mod:`chimeraboost.quantile_metrics`, which compute every
metric for all replicates of the chunk at once, on one thread or ``n_jobs`` workers
(``_chunks``); the numbers land in the result objects of ``_results``. The grouped jackknife
that BCa and the expanded intervals need goes through the same evaluators
(:func:`_jackknife`), on the same blocks for every model and the same workers.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from .._shared.api import public
from .. import metrics as _metrics
from ._discordant import unit_index
from ._engine import Resampler
from ._intervals import DEFAULT_CI_METHOD
from ._results import BootstrapResult, PairedBootstrapResult

__all__ = ["bootstrap", "joint_bootstrap", "paired_bootstrap", "results", "row_series"]


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


def _replicates(evaluators, scheme, metrics) -> list[dict]:
    """Every evaluator on the same counts: list of dicts of (n_boot,) arrays."""

    def evaluate(counts, work):
        # Integer counts: the classification kernels cumulate them in integer arithmetic.
        # The evaluators take turns on one workspace, so that two models cost two
        # evaluations but not twice the cache.
        return [_evaluate(ev, counts, metrics, work) for ev in evaluators]

    chunks = scheme.evaluate(evaluate, evaluators[0].n)
    return [
        {key: np.concatenate([c[i][key] for c in chunks]) for key in chunks[0][i]}
        for i in range(len(evaluators))
    ]


def _evaluate(evaluator, counts, metrics, work=None) -> dict:
    if isinstance(evaluator, _metrics.ClassificationEvaluator):
        out = evaluator.evaluate(counts, warn=False, metrics=metrics, work=work)
    else:
        out = evaluator.evaluate(counts, warn=False)
    keep = None if metrics is None else set(metrics)
    # Per-class vectors (a multiclass base rate) have no single interval; leave them out.
    # A copy, never a view: a column of an evaluator's (b, K) table would keep the whole
    # table of every chunk alive until the chunks are joined (a (B, n) array in all when K
    # is the number of rows, as in the threshold sweep).
    return {
        key: np.array(v, dtype=np.float64)
        for key, v in out.items()
        if np.ndim(v) == 1 and (keep is None or key in keep)
    }


def _jackknife(evaluators, scheme, metrics, *, rows=False) -> list[dict]:
    """Every evaluator on the same leave-a-block-out weights: list of dicts of (G,) arrays.

    The blocks are drawn from the scheme's generator after the replicates' counts, so that
    the replicates are those of the same ``random_state`` whatever the interval method; their
    weights are made chunk by chunk, as the counts are, so that memory stays bounded, and the
    chunks are evaluated on the scheme's ``n_jobs`` workers. The blocks are the scheme's
    units (groups, time blocks), or single rows with ``rows=True``."""
    first = evaluators[0]
    # An evaluator without sample_weight (a duck-typed one) weighs its rows equally.
    block = scheme.jackknife_blocks(first.n, getattr(first, "sample_weight", None), rows=rows)

    def evaluate(weights, work):  # the evaluators take turns on one workspace
        return [_evaluate(ev, weights, metrics, work) for ev in evaluators]

    chunks = scheme.evaluate_blocks(evaluate, block)
    return [{key: np.concatenate([c[i][key] for c in chunks]) for key in chunks[0][i]}
            for i in range(len(evaluators))]


def _rows(evaluator, units=None) -> tuple[int, float | None]:
    """Rows of positive weight, and for classification the (effective) rows of the rarest
    class present (None with one class): how many rows an interval rests on. With units that
    are not rows (groups, time points), the events are counted in units: Kish's effective
    number of the units' weights of the class, so that a group's copies count once."""
    w = getattr(evaluator, "sample_weight", None)
    w = np.ones(evaluator.n) if w is None else np.asarray(w, dtype=np.float64)
    n_rows = int(np.sum(w > 0))
    codes = getattr(evaluator, "codes", None)
    if codes is None:
        return n_rows, None
    codes = np.asarray(codes, dtype=np.intp)
    k = getattr(evaluator, "n_classes", None) or int(codes.max(initial=0)) + 1
    total = np.bincount(codes, weights=w, minlength=k)
    if units is not None and units.codes is not None:
        per_unit = np.zeros((units.n_units, k))
        np.add.at(per_unit, (units.codes, codes), w)
        square = np.sum(per_unit * per_unit, axis=0)
    else:
        square = np.bincount(codes, weights=w * w, minlength=k)
    present = total > 0
    if present.sum() < 2:
        # One class only: the skills and rankings are undefined (said elsewhere), and the
        # losses are means of rows like a regression's, with no events to count.
        return n_rows, None
    return n_rows, float(np.min(total[present] ** 2 / square[present]))


def row_series(evaluator) -> np.ndarray | None:
    """Per-row series whose serial dependence sets the time blocks' length: the loss (Brier
    of probabilities, squared error) and the outcome, as columns (the outcome alone for a
    ranking). Both, because a metric's influence can follow either: the net benefit's and
    the PR-AUC's follow the outcome, whose serial dependence outlasts the losses' (an AR(1)
    latent with phi = 0.9 under a calibrated forecast: Politis & White's block length 34
    from the outcomes, 17 from the Brier losses; ``benchmarks/coverage_dependence.py``)."""
    proba = getattr(evaluator, "_proba", None)
    codes = getattr(evaluator, "codes", None)
    if proba is not None and codes is not None:
        p = np.asarray(proba, dtype=np.float64)
        codes = np.asarray(codes, dtype=np.intp)
        loss = np.sum(p * p, axis=1) - 2.0 * p[np.arange(p.shape[0]), codes] + 1.0
        return np.column_stack([loss, codes.astype(np.float64)])
    if codes is not None:
        return np.asarray(codes, dtype=np.float64)
    y, pred = getattr(evaluator, "y", None), getattr(evaluator, "pred", None)
    if y is not None and pred is not None and np.ndim(pred) == 1:
        y = np.asarray(y, dtype=np.float64)
        return np.column_stack([(y - np.asarray(pred, dtype=np.float64)) ** 2, y])
    return None


def results(evaluators, scheme, metrics=None) -> list:
    """Replicates and jackknife of every evaluator on the same rows, as BootstrapResults, by
    one :class:`~chimeraboost.resampling.Resampler`. With dependent units (groups, time) the
    row jackknife is computed too, for the design effect."""
    reps = _replicates(evaluators, scheme, metrics)
    jacks = _jackknife(evaluators, scheme, metrics)
    row_jacks = [None] * len(evaluators)
    if scheme.kind != "rows":
        row_jacks = _jackknife(evaluators, scheme, metrics, rows=True)
    first = evaluators[0]
    n_rows, events = _rows(first, None if scheme.kind == "rows" else scheme.units_of(first.n))
    w = getattr(first, "sample_weight", None)
    n_units = scheme.n_units(first.n, w)
    index = unit_index(None if scheme.kind == "rows" else scheme.units_of(first.n))
    return [BootstrapResult(_point(ev, metrics), r, scheme.n_boot, jackknife=j,
                            n_rows=n_units, events=events, ci_method=scheme.ci_method,
                            row_jackknife=rj, units=scheme.kind, rows=n_rows,
                            skewness=error_skewness(ev),
                            terms=_terms(ev, r), unit_index=index)
            for ev, r, j, rj in zip(evaluators, reps, jacks, row_jacks)]


def error_skewness(evaluator) -> float | None:
    """A regression evaluator's errors ``y - pred``: their weighted sample skewness
    ``m3 / m2^(3/2)`` over the rows of positive weight (None for any other evaluator, or
    errors that do not vary): what says whether the intervals of its squared errors' mean
    can be trusted (``_results.skewed_errors_reason``)."""
    if getattr(evaluator, "codes", None) is not None or not hasattr(evaluator, "_sq"):
        return None
    y, pred = getattr(evaluator, "y", None), getattr(evaluator, "pred", None)
    if y is None or pred is None or np.ndim(pred) != 1:
        return None
    w = getattr(evaluator, "sample_weight", None)
    w = np.ones(evaluator.n) if w is None else np.asarray(w, dtype=np.float64)
    e = np.asarray(y, dtype=np.float64) - np.asarray(pred, dtype=np.float64)
    keep = (w > 0) & np.isfinite(e)
    if keep.sum() < 3:
        return None
    w, e = w[keep], e[keep]
    d = e - np.average(e, weights=w)
    m2 = np.average(d * d, weights=w)
    if not m2 > 0:
        return None
    return float(np.average(d ** 3, weights=w) / m2 ** 1.5)


def _terms(evaluator, keys) -> dict:
    """Metric -> a function giving what the model does with each row, for the numbers of a
    decision (an evaluator's ``paired_terms``): computed only when a paired difference is
    read, so that a curve's hundred thresholds cost nothing until then."""
    paired = getattr(evaluator, "paired_terms", None)
    if paired is None:
        return {}
    return {key: partial(paired, key) for key in keys if evaluator.decides(key)}


def _scheme(evaluator, n_boot, random_state, chunk_size, ci_method, n_jobs, groups, time,
            scheme="multinomial"):
    """The Resampler of the public functions' plain parameters."""
    return Resampler.for_evaluator(evaluator, n_boot=n_boot, random_state=random_state,
                                   ci_method=ci_method, n_jobs=n_jobs, groups=groups,
                                   time=time, chunk_size=chunk_size, scheme=scheme)


def _point(evaluator, metrics) -> dict:
    out = _evaluate(evaluator, None, metrics)
    return {key: float(v[0]) for key, v in out.items()}


@public(legacy=("n_boot",))
def bootstrap(evaluator, *, n_boot=2000, random_state=None, metrics=None, chunk_size=None,
              ci_method=DEFAULT_CI_METHOD, n_jobs=None, groups=None, time=None,
              scheme="multinomial"):
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
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        The interval method of :meth:`BootstrapResult.interval` (each can also be asked
        for there). The default covers on small samples; see
        :func:`~chimeraboost.resampling.bootstrap_interval`.
    n_jobs : int, default=None
        Workers evaluating the chunks of replicates and of the jackknife's blocks: None or 1
        for one, -1 for every CPU, -2 for all but one (scikit-learn's reading). On Linux
        they are forked processes (while the calling process runs one thread), elsewhere
        threads (numpy's calls hold Python's interpreter lock while they dispatch, so
        threads overlap less). The result is the same, bit for bit, whatever ``n_jobs``:
        the rows and the jackknife's blocks are drawn on the calling thread in the order one
        thread draws them, and only counting and evaluating them is shared out. Workers are
        faster only when cores are free; drawing the rows (a seventh to a quarter of a
        replicate's time at 100,000 rows) stays on one thread, so more workers gain less.
    groups : array-like of shape (n,), default=None
        Resample whole groups (the array passed to scikit-learn's ``GroupKFold``: a
        customer, a patient): every row of a drawn group comes along, and the jackknife
        leaves out whole groups. Use it when a unit has several rows: resampling single rows
        then gives intervals far too narrow.
    time : array-like of shape (n,), default=None
        Resample blocks of time-ordered rows (a stationary bootstrap whose mean block length
        is chosen from the rows' losses, Politis & White 2004); rows sharing a time value
        travel together. With ``groups`` too, whole groups are resampled.
    scheme : {"multinomial", "poisson"}, default="multinomial"
        How a replicate weighs the rows (or groups): ``n`` drawn with replacement (Efron's
        bootstrap), or an independent Poisson(1) count each, from a counter-based generator
        keyed by the replicate's seed and the row's position (the group's value with
        ``groups``): the replicates that :mod:`chimeraboost.dask` computes block by block,
        here on the rows in memory. Not with ``time`` alone.

    Returns
    -------
    BootstrapResult
        ``result.interval("roc_auc", level=0.95)`` is the interval by ``ci_method``;
        ``method="percentile"`` gives the percentile interval [ET93]_.

    Notes
    -----
    A replicate draws ``n`` rows with replacement; its metrics are the evaluator's numbers
    with row weights ``counts * sample_weight``, so they are the same definitions as the
    point estimate. Reference quantities that depend on the scored rows (the base rate, and
    with ``baseline=None`` the no-skill loss) are recomputed in every replicate, as they
    would be on a new sample.

    Besides the replicates, the metrics are computed with each of
    :data:`~chimeraboost.resampling.JACKKNIFE_BLOCKS` blocks of rows left out (every row its
    own block on fewer rows): the grouped jackknife that BCa's acceleration and the expanded
    intervals' degrees of freedom come from, at about 5% of the cost of 2,000 replicates.
    """
    _check_evaluator(evaluator, "evaluator")
    metrics = _check_metrics(metrics)
    resampler = _scheme(evaluator, n_boot, random_state, chunk_size, ci_method, n_jobs, groups,
                        time, scheme)
    return results([evaluator], resampler, metrics)[0]


@public(legacy=("n_boot",))
def paired_bootstrap(
    evaluator, baseline_evaluator, *, n_boot=2000, random_state=None, metrics=None,
    chunk_size=None, ci_method=DEFAULT_CI_METHOD, n_jobs=None, groups=None, time=None,
    scheme="multinomial",
):
    """Bootstrap the difference ``model - baseline`` of every metric on the same rows.

    Parameters
    ----------
    evaluator, baseline_evaluator : evaluators over the same ``n`` rows, in the same order
        (same ``y`` and ``sample_weight``), e.g. the challenger's and the incumbent's.
    n_boot, random_state, metrics, chunk_size, ci_method, n_jobs, groups, time, scheme
        As in :func:`bootstrap`; one count matrix, and one set of jackknife blocks, is shared
        by both models.

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
    _check_pair(evaluator, baseline_evaluator)
    resampler = _scheme(evaluator, n_boot, random_state, chunk_size, ci_method, n_jobs, groups,
                        time, scheme)
    model, base = results([evaluator, baseline_evaluator], resampler, metrics)
    return PairedBootstrapResult(model, base)


# --------------------------------------------------------------------------- several models


@public(legacy=("n_boot",))
def joint_bootstrap(evaluators, *, n_boot=2000, random_state=None, metrics=None,
                    chunk_size=None, ci_method=DEFAULT_CI_METHOD, n_jobs=None, groups=None,
                    time=None, scheme="multinomial") -> list:
    """Bootstrap several models on the same resampled rows: one count matrix for all.

    Parameters
    ----------
    evaluators : sequence of evaluators over the same ``n`` rows, in the same order (same
        ``y`` and ``sample_weight``), e.g. one per row of a table of models.
    n_boot, random_state, metrics, chunk_size, ci_method, n_jobs, groups, time, scheme
        As in :func:`paired_bootstrap`.

    Returns
    -------
    list of BootstrapResult
        One per evaluator, in order. Replicate ``b`` of every result comes from the same
        resampled rows, so ``results[i].replicates[m] - results[j].replicates[m]`` are the
        paired differences of models ``i`` and ``j`` (with two evaluators, exactly those of
        :func:`paired_bootstrap` with the same ``random_state``), and so does each
        jackknife block: ``PairedBootstrapResult(results[i], results[j])`` holds the paired
        differences with their intervals.
    """
    evaluators = list(evaluators)
    if not evaluators:
        msg = "evaluators is empty; pass at least one evaluator."
        raise ValueError(msg)
    for i, ev in enumerate(evaluators):
        _check_evaluator(ev, f"evaluators[{i}]")
    metrics = _check_metrics(metrics)
    for ev in evaluators[1:]:
        _check_pair(ev, evaluators[0])
    resampler = _scheme(evaluators[0], n_boot, random_state, chunk_size, ci_method, n_jobs,
                        groups, time, scheme)
    return results(evaluators, resampler, metrics)
