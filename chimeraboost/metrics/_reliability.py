"""The CORP reliability curve of one class, and its consistency band.

Which question does this answer? *Where* are the probabilities off, not only by how much:
the isotonic (PAV) recalibration of the forecasts, the same one that defines
:func:`metrics.calibration_mcb`, drawn against the forecasts. Exposed as
:func:`chimeraboost.metrics.reliability_curve`; :mod:`chimeraboost.plotting` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._shared.api import public
from . import _kernels, _wild
from .._shared.units import check_n_boot, check_units
from .._shared.validation import (
    check_aligned,
    check_classes,
    check_level,
    check_proba,
    check_random_state_int,
    check_same_length,
    check_sample_weight,
    encode_labels,
)

# Rows x resamples drawn at once for the band: bounds the memory at a few tens of MB.
_CHUNK_CELLS = 1 << 22


@dataclass(frozen=True)
class ReliabilityCurve:
    """The isotonic recalibration of the forecasts of one class, point by point.

    Attributes
    ----------
    label : object
        The class whose event ``y == label`` is forecast.
    forecast : ndarray of shape (G,)
        Distinct forecasts, ascending (forecasts within 1e-15 pooled, as in scikit-learn's
        ``IsotonicRegression``; the first of each pool stands for it).
    recalibrated : ndarray of shape (G,)
        The weighted isotonic regression of the event on the forecast, at each forecast:
        the observed event rate the forecast actually stands for.
    weight : ndarray of shape (G,)
        Total sample weight of the rows at each forecast.
    band_low, band_high : ndarray of shape (G,) or None
        Consistency band at level :attr:`level`: where the recalibrated curve of a
        *calibrated* forecast would fall (None when ``n_boot=0``).
    level : float
    n_boot : int
    band : {"simultaneous", "pointwise"} or None
        Which band: the whole curve inside with probability ``level``, or each point.
    """

    label: object
    forecast: np.ndarray
    recalibrated: np.ndarray
    weight: np.ndarray
    band_low: np.ndarray | None = None
    band_high: np.ndarray | None = None
    level: float = 0.9
    n_boot: int = 0
    band: str | None = None


def _pools(x: np.ndarray, w: np.ndarray):
    """Pool index of each row, the pools' forecasts and weights (zero-weight pools dropped)."""
    values, inverse = np.unique(x, return_inverse=True)
    gid = _kernels.isotonic_groups(values)
    first = np.flatnonzero(np.r_[True, np.diff(gid) > 0])
    row_pool = gid[inverse]
    tot = np.bincount(row_pool, weights=w, minlength=first.size)
    keep = tot > 0
    # renumber so that dropped (zero-weight) pools vanish from every array
    new_id = np.cumsum(keep) - 1
    return np.where(keep[row_pool], new_id[row_pool], -1), values[first][keep], tot[keep]


def _recalibrate(events: np.ndarray, tot: np.ndarray) -> np.ndarray:
    """(B, G) event weights per pool -> (B, G) recalibrated forecasts: the isotonic fit that
    defines MCB (one kernel for both)."""
    return _kernels.isotonic_recalibration(events, np.broadcast_to(tot, events.shape),
                                           fitted=True)["fitted"]


class _Steps:
    """The recalibrated curves of ``B`` draws, each kept as its steps.

    An isotonic fit is a step function of the forecast: over ``G`` distinct forecasts it
    takes far fewer values (a few hundred at 10^6 rows with all forecasts distinct), so a
    curve is held as the positions where its value changes and the values there, and the
    band reads the draws back a block of forecasts at a time. Memory is the steps and one
    block, never the ``(B, G)`` table of the curves (``G`` grows with the rows); the values
    read back are the curves' own, so every number is the one of the full table.
    """

    def __init__(self, g: int):
        self.g, self.n_draws = g, 0
        self._pos, self._val = [], []

    def add(self, curves: np.ndarray) -> None:
        """Append ``(b, G)`` curves."""
        change = np.ones(curves.shape, dtype=bool)
        change[:, 1:] = curves[:, 1:] != curves[:, :-1]
        flat = np.flatnonzero(change)  # row-major: draw by draw, each from its first forecast
        self._pos.append(flat + self.n_draws * self.g)
        self._val.append(curves.ravel()[flat])
        self.n_draws += curves.shape[0]

    def finish(self) -> _Steps:
        self.pos, self.val = np.concatenate(self._pos), np.concatenate(self._val)
        self.col = self.pos % self.g
        del self._pos, self._val
        return self

    def rows(self, draws: np.ndarray, lo: int, hi: int) -> np.ndarray:
        """``(len(draws), hi - lo)``: the curves of ``draws`` at forecasts ``lo`` to
        ``hi - 1``. Each curve's value at ``lo`` is that of its last step at or before
        ``lo``; across the block it moves to the next value at each later step, so the step
        index is a running count of the steps met (one cumulative sum, no search per
        forecast)."""
        first = np.searchsorted(self.pos, draws * self.g + lo, side="right")
        last = np.searchsorted(self.pos, draws * self.g + hi, side="left")
        met = np.zeros((draws.shape[0], hi - lo), dtype=np.int64)
        k = last - first
        if k.sum():
            which = np.repeat(np.arange(draws.shape[0]), k)
            steps = np.arange(k.sum()) - np.repeat(np.cumsum(k) - k, k) + first[which]
            met[which, self.col[steps] - lo] = 1
        np.cumsum(met, axis=1, out=met)
        met += (first - 1)[:, None]
        return self.val[met]

    def blocks(self, n_draws: int):
        """``(lo, hi)`` blocks of forecasts, ``n_draws`` curves of a block about
        ``_CHUNK_CELLS`` values."""
        width = max(1, _CHUNK_CELLS // max(1, n_draws))
        for lo in range(0, self.g, width):
            yield lo, min(self.g, lo + width)


def _null_curves(x, w, row_pool, tot, n_boot, rng) -> _Steps:
    """Recalibrated curves of ``n_boot`` outcome draws under calibration, o* ~ Bernoulli(x),
    at the pools' forecasts (Dimitriadis, Gneiting & Jordan 2021; Broecker & Smith 2007)."""
    rows = row_pool >= 0
    x, w, pool = x[rows], w[rows], row_pool[rows]
    g = tot.shape[0]
    steps = _Steps(g)
    chunk = max(1, _CHUNK_CELLS // max(1, x.shape[0]))
    for start in range(0, n_boot, chunk):
        b = min(chunk, n_boot - start)
        draws = rng.random((b, x.shape[0])) < x
        # events per pool for each resample: one bincount over (resample, pool) pairs
        keys = (np.arange(b)[:, None] * g + pool[None, :]).ravel()
        events = np.bincount(keys, weights=(draws * w).ravel(), minlength=b * g).reshape(b, g)
        steps.add(_recalibrate(events, tot))
    return steps.finish()


def _wild_curves(x, w, event, row_pool, tot, units, n_boot, rng) -> _Steps:
    """Recalibrated curves of ``n_boot`` wild draws under calibration, ``y* = x + v_u (o -
    x)`` with one sign per group or time block (:mod:`._wild`, the null of the calibration
    test with ``groups=`` / ``time=``), at the pools' forecasts."""
    rows = row_pool >= 0
    unit, resid = units.codes[rows], (event - x)[rows]
    wild = _wild.WildEvents(row_pool[rows], tot.shape[0], units, unit, w[rows],
                            _wild.time_block(units, unit, resid[:, None], w[rows]))
    steps = _Steps(tot.shape[0])
    for events in wild.chunks(x[rows], resid, n_boot, int(rng.integers(2**63 - 1))):
        steps.add(_recalibrate(events, tot))
    return steps.finish()


def _pointwise(steps: _Steps, level):
    alpha = (1.0 - level) / 2.0
    draws = np.arange(steps.n_draws)
    low, high = np.empty(steps.g), np.empty(steps.g)
    for lo, hi in steps.blocks(draws.shape[0]):
        low[lo:hi], high[lo:hi] = np.quantile(steps.rows(draws, lo, hi),
                                              [alpha, 1.0 - alpha], axis=0)
    return low, high


def _simultaneous(steps: _Steps, level):
    """Directional quantile envelope (Myllymaki, Mrkvicka, Grabarnik, Seijo & Hahn 2017,
    "qdir"): around the draws' pointwise mean, each side scaled by the pointwise distance to
    the 2.5% (97.5%) quantile; a curve is as extreme as its largest scaled excursion, and the
    band is the mean plus or minus the ``level`` quantile of that excursion on each side's
    scale -- so the *whole* curve of a calibrated forecast stays inside with probability
    ``level``. The scales follow the curve's own spread, which is tight where many rows
    share a forecast and wide at the sparse ends.

    The centre and scales come from every other draw and the excursions' quantile from the
    rest: a draw measured against a centre and scales it helped to set looks less extreme
    than a new curve does, which made the band too narrow (0.84 instead of 0.90 of whole
    calibrated curves inside, on 500 rows). Each block of forecasts is read once: its centre
    and scales, then the held draws' largest excursion so far."""
    fit, held = np.arange(0, steps.n_draws, 2), np.arange(1, steps.n_draws, 2)
    center, up, down = np.empty(steps.g), np.empty(steps.g), np.empty(steps.g)
    excursion = np.full(held.shape[0], -np.inf)
    for lo, hi in steps.blocks(steps.n_draws):
        curves = steps.rows(fit, lo, hi)
        c = center[lo:hi] = curves.mean(axis=0)
        q_lo, q_hi = np.quantile(curves, [0.025, 0.975], axis=0)
        # A side that never moves (every draw at the centre) gets a vanishing scale: any
        # excursion there makes a curve extreme.
        u = up[lo:hi] = np.maximum(q_hi - c, 1e-12)
        d = down[lo:hi] = np.maximum(c - q_lo, 1e-12)
        curves = steps.rows(held, lo, hi)
        excursion = np.maximum(excursion, np.maximum((curves - c) / u, (c - curves) / d)
                               .max(axis=1))
    u = np.quantile(excursion, level, method="higher")
    return np.clip(center - u * down, 0.0, 1.0), np.clip(center + u * up, 0.0, 1.0)



@public(legacy=("sample_weight",))
def reliability_curve(y, proba, classes, *, sample_weight=None, pos_label=None, n_boot=0,
                      level=0.9, band="simultaneous", random_state=None, groups=None,
                      time=None) -> ReliabilityCurve:
    """The CORP reliability curve of one class: forecasts against their isotonic recalibration.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels, each one of ``classes``.
    proba : array-like of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes``.
    classes : array-like of shape (K,)
    sample_weight : array-like of shape (n,), default=None
    pos_label : label, default=None
        The class whose forecasts are recalibrated (one-vs-rest). None: ``classes[1]`` for a
        binary problem; required with more than two classes.
    n_boot : int, default=0
        Resamples for the consistency band; 0 for none, else at least 200 (fewer than 1000
        warn: :func:`chimeraboost.resampling.check_n_boot`, the one rule).
    level : float in (0, 1), default=0.9
        Level of the consistency band.
    band : {"simultaneous", "pointwise"}, default="simultaneous"
        ``"simultaneous"``: the *whole* recalibrated curve of a calibrated forecast stays
        inside the band with probability ``level`` (a global envelope of the draws), so
        a curve that leaves it anywhere is evidence of miscalibration. ``"pointwise"``: at
        each forecast separately the curve falls inside with probability ``level``; the whole
        curve of a calibrated forecast leaves such a band somewhere most of the time.
    random_state : None, int or numpy Generator
    groups : array-like of shape (n,), default=None
        The customer, patient or account of each row, when its rows are not independent
        (the array passed to scikit-learn's ``GroupKFold``): the band then keeps the
        correlation of a group's outcomes (Notes).
    time : array-like of shape (n,), default=None
        Dates (or any sortable values) of time-ordered rows whose outcomes are serially
        dependent: the band then keeps that dependence (Notes). With ``groups`` too, the
        groups are the units.

    Returns
    -------
    ReliabilityCurve

    Notes
    -----
    The recalibration is the weighted pool-adjacent-violators fit that
    :func:`metrics.calibration_decomposition` uses, so ``MCB = mean w (p - o)^2 - mean w
    (r - o)^2`` computed from this curve equals that class's ``mcb``. The consistency band
    resamples outcomes ``o* ~ Bernoulli(p)`` (the forecasts taken as calibrated) and
    recalibrates each resample. The pointwise band takes quantiles at each forecast
    (Dimitriadis, Gneiting & Jordan 2021, "Stable reliability diagrams for probabilistic
    classifiers", PNAS 118(8), doi:10.1073/pnas.2016191118; Broecker & Smith 2007, Weather and
    Forecasting 22(3), doi:10.1175/WAF993.1). The simultaneous band is the directional
    quantile envelope of the resampled curves: around their pointwise mean, each side scaled
    by the distance to the pointwise 2.5% (97.5%) quantile, wide enough that the ``level``
    share of whole curves stays inside (Myllymaki, Mrkvicka, Grabarnik, Seijo & Hahn 2017,
    "Global envelope tests for spatial processes", JRSS B 79(2), 381-404,
    doi:10.1111/rssb.12172). Its coverage of whole calibrated curves is measured in
    ``benchmarks/coverage.py``.

    With ``groups=`` or ``time=``, outcomes drawn independently row by row would make the
    band too narrow (a group's rows share their surprises). The draws are then the wild
    cluster bootstrap of the forecasts' residuals, ``y* = p + v_g (o - p)`` with one
    Rademacher sign ``v_g`` per group (Cameron, Gelbach & Miller 2008,
    doi:10.1162/rest.90.3.414) -- calibrated in expectation, and each group's residuals
    keep their correlation -- or per block of consecutive time points (the dependent wild
    bootstrap, Shao 2010, doi:10.1198/jasa.2009.tm08744): the null of
    :func:`calibration_test` with the same arguments.

    Memory grows with the rows, not with rows times ``n_boot``: each draw's recalibrated
    curve is a step function, kept as its steps, and the band is read a block of forecasts
    at a time (``benchmarks/bench_surfaces.py`` measures it at 10^5 to 10^7 rows).

    Examples
    --------
    The forecasts 0.2, 0.4, 0.6, 0.9 rank the outcomes 0, 0, 1, 1 perfectly, so the
    recalibrated forecasts are the outcomes themselves:

    >>> c = reliability_curve([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1])
    >>> c.recalibrated.tolist()
    [0.0, 0.0, 1.0, 1.0]
    """
    check_aligned(y=y, proba=proba, sample_weight=sample_weight, groups=groups, time=time)
    classes = check_classes(classes)
    codes = encode_labels(y, classes, "y")
    proba = check_proba(proba, classes, "proba")
    check_same_length(y=codes, proba=proba)
    n_boot = check_n_boot(n_boot, optional=True)
    units = check_units(codes.shape[0], groups=groups, time=time)
    w = check_sample_weight(sample_weight, codes.shape[0])
    w = np.ones(codes.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    if pos_label is None:
        if classes.shape[0] != 2:
            msg = (f"pos_label is needed with {classes.shape[0]} classes: name the class whose "
                   "one-vs-rest reliability curve to draw (one of classes).")
            raise ValueError(msg)
        k = 1
    else:
        k = int(encode_labels([pos_label], classes, "pos_label")[0])
    x = proba[:, k]
    event = (codes == k).astype(np.float64)
    row_pool, forecast, tot = _pools(x, w)
    rows = row_pool >= 0
    events = np.bincount(row_pool[rows], weights=(w * event)[rows], minlength=tot.shape[0])
    low = high = None
    if band not in ("simultaneous", "pointwise"):
        msg = f'band must be "simultaneous" or "pointwise", got {band!r}.'
        raise ValueError(msg)
    if n_boot:
        level = check_level(level, "level", "0.9 for a 90% band")
        rng = check_random_state_int(random_state)
        if units.independent_rows:
            curves = _null_curves(x, w, row_pool, tot, n_boot, rng)
        else:
            curves = _wild_curves(x, w, event, row_pool, tot, units, n_boot, rng)
        low, high = (_simultaneous if band == "simultaneous" else _pointwise)(curves, level)
    return ReliabilityCurve(classes[k], forecast, _recalibrate(events[None], tot)[0], tot, low, high,
                            float(level), int(n_boot), band if n_boot else None)
