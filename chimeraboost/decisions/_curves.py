"""Over a range of thresholds: is acting on each model better than acting on everyone, on no
one, or on the baseline model -- and how sure is that at every threshold?

- The decision curve of one or several models, with bootstrap bands and paired bands
  against a named baseline? :func:`decision_curve` (a :class:`DecisionCurve`, drawn by
  :func:`chimeraboost.plotting.decision_curve`).
- A bootstrap band around the ROC or precision-recall curve? :func:`curve_band` (a
  :class:`CurveBand`, drawn by ``roc_curve(..., band=True)`` and ``pr_curve(..., band=True)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .. import resampling
from .._shared.api import public
from .._shared.discordance import Discordance
from .._shared.format import fmt
from .._shared.thresholds import PERCENTILES, thresholds_between
from .._shared.ties import same_outputs
from .._shared.weights import replicate_weights
from .._shared.validation import check_key_names, check_level, import_pandas, warn_degenerate
from ._checks import check_names, check_probability, check_target, check_thresholds, key
from ._scheme import curve_replicates, discordant, discordant_units, events
from ._scheme import scheme as decision_scheme
from ._sweep import DecisionEvaluator, Sweep

__all__ = ["CurveBand", "DecisionCurve", "curve_band", "decision_curve"]

TREAT_ALL = "treat all"


def _scores(scores) -> dict:
    """One score, or a dict name -> score, as a dict of arrays."""
    if isinstance(scores, Mapping):
        if not scores:
            msg = "proba is an empty dict; pass {model name: probabilities}."
            raise ValueError(msg)
        check_key_names(scores, "proba", "the models")
        return dict(scores)
    return {"model": scores}


def default_thresholds(scores, n: int = 99) -> np.ndarray:
    """``n`` thresholds evenly spaced between the 1st and 99th percentiles of all scores,
    kept inside [0.01, 0.99]; 0.01 to 0.99 when the scores do not spread (0/1 rules)."""
    pooled = np.concatenate([np.ravel(s) for s in scores])
    lo, hi = np.quantile(pooled, PERCENTILES)
    return thresholds_between(lo, hi, n)


class DecisionCurve:
    """Net benefit against the threshold probability for every model, treat-all and
    treat-none, with bootstrap bands.

    Attributes
    ----------
    thresholds : ndarray of shape (K,)
    net_benefit : dict
        Model name -> (K,) net benefit; ``"treat all"`` -> (K,) that of treating every row.
    low, high : dict
        The same keys -> (K,) ends of the pointwise band (None without resamples): at each
        threshold, that threshold's interval by :attr:`ci_method`.
    baseline : str or None
        The model (or ``"treat all"``) the others are compared with.
    difference, diff_low, diff_high : dict
        Model name -> (K,) paired difference ``model - baseline`` and its band (empty
        without a baseline).
    prevalence : float
    level : float
    n_boot : int
    ci_method : str
        How each point of a band was read off the resamples.
    units : {"rows", "groups", "time"}
        What a resample drew.
    """

    def __init__(self, **values):
        self.__dict__.update(values)

    @property
    def treat_none(self) -> np.ndarray:
        """Net benefit of treating no row: 0 at every threshold."""
        return np.zeros_like(self.thresholds)

    def to_frame(self):
        """Long format, one row per (model, threshold): ``model``, ``threshold``,
        ``net_benefit``, ``low``, ``high``, and ``difference``, ``diff_low``, ``diff_high``
        against the baseline. Needs pandas."""
        pd = import_pandas("DecisionCurve.to_frame")
        frames = []
        nan = np.full(self.thresholds.shape[0], np.nan)
        for name, nb in {**self.net_benefit, "treat none": self.treat_none}.items():
            frames.append(pd.DataFrame({
                "model": name, "threshold": self.thresholds, "net_benefit": nb,
                "low": (self.low or {}).get(name, nan), "high": (self.high or {}).get(name, nan),
                "difference": self.difference.get(name, nan),
                "diff_low": self.diff_low.get(name, nan),
                "diff_high": self.diff_high.get(name, nan)}))
        return pd.concat(frames, ignore_index=True)

    def __repr__(self) -> str:
        t = self.thresholds
        models = [m for m in self.net_benefit if m != TREAT_ALL]
        return (f"DecisionCurve(models={models}, thresholds={t.shape[0]} in [{t[0]:g}, "
                f"{t[-1]:g}], prevalence={fmt(self.prevalence, 3)}, baseline={self.baseline!r},"
                f" n_boot={self.n_boot})")


@public(legacy=("thresholds",), renamed={"scores": "proba", "baseline": "baseline_name"})
def decision_curve(y, proba, *, thresholds=None, baseline_name=None, pos_label=None,
                   sample_weight=None, n_boot=2000, level=0.95, random_state=None,
                   ci_method=resampling.DEFAULT_CI_METHOD, groups=None, time=None):
    """The decision curve of one or several models, with bootstrap bands.

    Parameters
    ----------
    y : array-like of shape (n,)
    proba : array-like of shape (n,), or dict name -> such an array
        Probabilities of the positive class (or 0/1 rules), one per model, on the same rows.
        No model may be called ``"treat all"`` or ``"treat none"`` (the built-in curves).
    thresholds : array-like of float in (0, 1), default=None
        Threshold probabilities. None: 99 evenly spaced between the 1st and 99th percentiles
        of the scores.
    baseline_name : str, default=None
        The model the others are judged against: a model name (a key of ``proba``), or
        ``"treat all"``: every model's net benefit minus the baseline's, on the same
        resampled rows, with its pointwise band. None: no differences. The incumbent's
        probabilities go in ``proba`` with the rest (``{"new": p, "incumbent": q}``).
    pos_label : label, default=None
    sample_weight : array-like of shape (n,), default=None
    n_boot : int, default=2000
        Resamples of the rows, shared by every model and threshold; 0: no bands (else at
        least 200, see :func:`~chimeraboost.resampling.check_n_boot`).
    level : float in (0, 1), default=0.95
    random_state : None, int or numpy Generator
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        How each point of a band is read off the resamples.
    groups, time : array-like of shape (n,), default=None
        Resample whole groups, or blocks of time-ordered rows, as in :func:`decision_report`.

    Returns
    -------
    DecisionCurve

    Notes
    -----
    The bands are pointwise: at each threshold, the interval of that threshold's net
    benefit (or paired difference) by ``ci_method``, with the jackknife of the same
    resampling scheme (:meth:`chimeraboost.resampling.Resampler.band`); ``"percentile"``
    gives the percentiles of the resampled curves. A pointwise band covers each threshold's
    value at ``level``, not the whole curve at once. Every model is evaluated by a
    :class:`DecisionEvaluator` that sorts its rows into the bins between the thresholds once;
    a resample costs one gather and one sum per class, and all models are resampled on the
    same counts, so the differences are paired. Vickers & Elkin (2006),
    doi:10.1177/0272989X06295361.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=300); y = rng.uniform(size=300) < p
    >>> dc = decision_curve(y, {"model": p}, thresholds=[0.2, 0.5], n_boot=1000,
    ...                     baseline_name="treat all", random_state=0)
    >>> bool(np.all(dc.diff_low["model"] > 0))
    True
    """
    models = _scores(proba)
    if baseline_name is not None and not isinstance(baseline_name, str):
        msg = (f"baseline_name names the model the others are judged against (a key of proba, "
               f"or 'treat all'), got a {type(baseline_name).__name__}; put the incumbent's "
               "probabilities in proba with the others ({'new': p, 'incumbent': q}) and pass "
               "baseline_name='incumbent'.")
        raise TypeError(msg)
    baseline = baseline_name
    check_names([("a key of proba", name) for name in models])
    level = check_level(level, "level")
    checked = {}
    for name, s in models.items():
        arg = f"proba[{name!r}]"
        event, arr, w = check_target(y, s, sample_weight, pos_label, arg)
        checked[name] = check_probability(arr, arg)
    t = default_thresholds(list(checked.values())) if thresholds is None else \
        check_thresholds(thresholds)
    if baseline is not None and baseline != TREAT_ALL and baseline not in checked:
        msg = (f"baseline_name={baseline!r} is not one of the models {list(checked)} nor "
               "'treat all'.")
        raise ValueError(msg)
    for name in checked:
        if baseline in checked and same_outputs(checked[name], checked[baseline]):
            # The one tie rule: outputs equal to rounding differ by exactly 0.
            checked[name] = checked[baseline]
    scheme = decision_scheme(y, event, n_boot=n_boot, random_state=random_state,
                             ci_method=ci_method, groups=groups, time=time, optional=True)
    names = {"net_benefit", "net_benefit_all"}
    evs = {name: DecisionEvaluator(event, s, t, sample_weight=w, names=names)
           for name, s in checked.items()}
    points = {name: ev.evaluate(None, warn=False) for name, ev in evs.items()}

    def curve(out, name):
        return np.array([out[key(name, v)][0] for v in t])

    nb = {name: curve(p, "net_benefit") for name, p in points.items()}
    nb[TREAT_ALL] = curve(points[next(iter(points))], "net_benefit_all")
    low = high = None
    diff = {} if baseline is None else {name: nb[name] - nb[baseline] for name in evs
                                        if name != baseline}
    d_lo, d_hi = {}, {}
    if scheme.n_boot:
        low, high, d_lo, d_hi = _bands(scheme, evs, t, nb, diff, baseline, level)
    return DecisionCurve(thresholds=t, net_benefit=nb, low=low, high=high, baseline=baseline,
                         difference=diff, diff_low=d_lo, diff_high=d_hi,
                         prevalence=float(points[next(iter(points))]["base_rate"][0]),
                         level=level, n_boot=scheme.n_boot, ci_method=scheme.ci_method,
                         units=scheme.kind)


def _bands(scheme, evs, t, nb, diff, baseline, level):
    """Pointwise bands of every curve and of every paired difference, by the scheme."""
    boots = dict(zip(evs, scheme.bootstrap(list(evs.values()))))
    first = next(iter(boots.values()))

    def stack(boot, name):
        keys = [key(name, v) for v in t]
        return (np.column_stack([boot.replicates[k] for k in keys]),
                np.column_stack([boot.jackknife[k] for k in keys]))

    reps = {name: stack(b, "net_benefit") for name, b in boots.items()}
    reps[TREAT_ALL] = stack(first, "net_benefit_all")
    low, high, d_lo, d_hi = {}, {}, {}, {}

    def band(estimate, r, j, discordant=None):
        return scheme.band(r, estimate, level, jackknife=j, n_units=first.n_rows,
                           events=first.events, discordant=discordant)

    for name, (r, j) in reps.items():
        low[name], high[name] = band(nb[name], r, j)
    for name in diff:
        (ra, ja), (rb, jb) = reps[name], reps[baseline]
        versus = evs.get(baseline, baseline == TREAT_ALL)
        units = [discordant_units(scheme, evs[name], versus, key("net_benefit", v)) for v in t]
        d_lo[name], d_hi[name] = band(diff[name], ra - rb, ja - jb, units)
        _widen(scheme, evs, name, baseline, t, level, d_lo[name], d_hi[name])
    return low, high, d_lo, d_hi


def _widen(scheme, evs, name, baseline, t, level, low, high) -> None:
    """Widen, in place, the paired band at the thresholds where fewer than
    ``MIN_DISCORDANT`` units decide differently
    (:meth:`~chimeraboost.resampling.Resampler.discordance`), with one warning naming them."""
    versus = evs.get(baseline, baseline == TREAT_ALL)
    few = []
    for j, v in enumerate(t):
        found = discordant(scheme, evs[name], versus, key("net_benefit", v), level)
        if found is not None:
            low[j], high[j] = found.widen(low[j], high[j])
            few.append((v, found))
    if few:
        reason = Discordance.curve_reason(few, len(t), f"{name} and {baseline}")
        resampling.warn_narrow({f"net benefit of {name} minus {baseline}": reason}, level)


class CurveBand(NamedTuple):
    """A ROC or precision-recall curve on a grid, with a pointwise bootstrap band.

    Attributes
    ----------
    x : ndarray of shape (m,)
        False positive rate (ROC) or recall (PR).
    y : ndarray of shape (m,)
        The highest true positive rate of the ROC polyline at that false positive rate, or
        precision at the highest cutoff that reaches that recall (PR), on the rows as given.
    low, high : ndarray of shape (m,)
        Pointwise percentile band over the resamples.
    level : float
    """

    x: np.ndarray
    y: np.ndarray
    low: np.ndarray
    high: np.ndarray
    level: float


def _curve_on_grid(tp, fp, pos, neg, grid, kind):
    """(B, m) ROC (TPR at each FPR, the highest on a vertical step) or PR (precision at the
    highest cutoff that reaches each recall) of the treated weights at every cutoff."""
    b = tp.shape[0]
    out = np.full((b, grid.shape[0]), np.nan)
    for i in range(b):
        if pos[i] <= 0 or (kind == "roc" and neg[i] <= 0):
            continue
        # Cutoffs from the highest down: rates grow along them; a leading (0, 0) point.
        tpr = np.r_[0.0, tp[i, ::-1] / pos[i]]
        if kind == "roc":
            fpr = np.r_[0.0, fp[i, ::-1] / neg[i]]
            # The polyline through every cutoff's point. FPR repeats along a vertical step;
            # np.interp then reads, between two FPRs, the segment from the top of one step to
            # the foot of the next, and at a repeated FPR the top: the highest TPR there.
            out[i] = np.interp(grid, fpr, tpr)
        else:
            flagged = np.r_[0.0, (tp[i, ::-1] + fp[i, ::-1])]
            with np.errstate(invalid="ignore", divide="ignore"):
                precision = np.where(flagged > 0, tpr * pos[i] / np.where(flagged > 0, flagged,
                                                                         1.0), 1.0)
            j = np.minimum(np.searchsorted(tpr, grid, side="left"), tpr.shape[0] - 1)
            out[i] = precision[j]
    return out


def curve_band(y, score, *, curve="roc", grid=None, pos_label=None, sample_weight=None,
               n_boot=1000, level=0.95, random_state=None,
               ci_method=resampling.DEFAULT_CI_METHOD, groups=None, time=None) -> CurveBand:
    """A ROC or precision-recall curve with a pointwise bootstrap band.

    Parameters
    ----------
    y : array-like of shape (n,)
    score : array-like of shape (n,)
        Any score that ranks the positives first.
    curve : {"roc", "pr"}, default="roc"
    grid : array-like of float in [0, 1], default=None
        False positive rates (ROC) or recalls (PR) at which the band is read; None: 101
        points from 0 to 1.
    pos_label : label, default=None
    sample_weight : array-like of shape (n,), default=None
    n_boot : int, default=1000
        Resamples; 0: no band (else at least 200, see
        :func:`~chimeraboost.resampling.check_n_boot`; below 1000 a
        ``FewResamplesWarning`` says the band's ends are unstable).
    level : float in (0, 1), default=0.95
    random_state : None, int or numpy Generator
    ci_method : {"expanded_bca", "bca", "expanded_percentile", "percentile"}
        How each point of the band is read off the resamples.
    groups, time : array-like of shape (n,), default=None
        Resample whole groups, or blocks of time-ordered rows, as in
        :func:`decision_report`.

    Returns
    -------
    CurveBand

    Notes
    -----
    The band is pointwise: at each grid point, that point's interval by ``ci_method``, with
    the jackknife of the same resampling scheme
    (:meth:`chimeraboost.resampling.Resampler.band`); ``"percentile"`` gives the
    percentiles of the resampled curves. It covers each point at ``level``, not the whole
    curve at once. The ROC band is vertical averaging (Fawcett 2006, An introduction to ROC
    analysis, Pattern Recognition Letters 27(8), 861-874, doi:10.1016/j.patrec.2005.10.010):
    at each false positive rate, the resamples' true positive rates, the curve interpolated
    linearly between cutoffs (ties counted as in the trapezoidal AUC). The PR band reads
    precision as a step at each recall, never interpolated linearly (Davis & Goadrich 2006,
    doi:10.1145/1143844.1143874). All resamples share one sort of the scores.

    Examples
    --------
    >>> b = curve_band([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], grid=[0.0, 0.5, 1.0], n_boot=0)
    >>> b.y.tolist()
    [0.5, 1.0, 1.0]
    """
    if curve not in ("roc", "pr"):
        msg = f"curve must be 'roc' or 'pr', got {curve!r}."
        raise ValueError(msg)
    event, s, w = check_target(y, score, sample_weight, pos_label)
    level = check_level(level, "level")
    g = np.linspace(0.0, 1.0, 101) if grid is None else np.asarray(grid, dtype=np.float64)
    if g.ndim != 1 or np.any((g < 0) | (g > 1)) or np.any(np.isnan(g)):
        msg = "grid must be a 1-D array of rates in [0, 1]."
        raise ValueError(msg)
    scheme = decision_scheme(y, event, n_boot=n_boot, random_state=random_state,
                             ci_method=ci_method, groups=groups, time=time, optional=True)
    sweep = Sweep(s, event, np.unique(s))
    n = s.shape[0]

    def on_grid(counts):
        return _curve_on_grid(*sweep.treated(replicate_weights(w, counts, n, integer=True)), g,
                              curve)

    point = on_grid(None)[0]
    if not event.any() or (curve == "roc" and event.all()):
        warn_degenerate(f"y holds one class only: the {curve.upper()} curve is undefined (NaN).")
    low = high = np.full(g.shape[0], np.nan)
    if scheme.n_boot:
        reps, jack = curve_replicates(scheme, n, on_grid, w)
        units = scheme.n_units(n, w)
        low, high = scheme.band(reps, point, level, jackknife=jack, n_units=units,
                                events=events(event, w, None if scheme.kind == "rows"
                                              else units))
    return CurveBand(g, point, low, high, level)
