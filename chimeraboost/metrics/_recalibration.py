"""Is the forecast over- or under-confident? Cox's logistic recalibration and its score test.

:func:`~chimeraboost.metrics.calibration_test` pairs its omnibus test (the CORP MCB, which
sees any departure from calibration) with a test aimed at the commonest one: forecasts too
extreme or too timid, or shifted up or down. Cox (1958) regresses the outcome on the logit of
the forecast, ``P(Y = 1 | p) = expit(a + b logit p)``: a calibrated forecast has ``a = 0`` and
``b = 1``; ``b < 1`` is over-confidence (the forecasts should be pulled toward the middle),
``b > 1`` under-confidence, ``a`` a shift of the log-odds.

- The fitted intercept and slope? :func:`recalibration_fit` (weighted maximum likelihood).
- Are they ``0`` and ``1``? :func:`recalibration_score_test`: Rao's score test of
  ``a = 0, b = 1``. Under the hypothesis the model needs no fit -- its probabilities are the
  forecasts -- so the test looks only at the score ``U = sum_i w_i (y_i - p_i) (1, logit p_i)``
  and its variance, ``T = U' V^+ U``.

  - Independent rows: ``V`` is the Fisher information ``sum_i w_i p_i (1 - p_i) x_i x_i'``
    and ``T`` is referred to chi-squared on ``rank V`` (2) degrees of freedom: the score test
    of a binomial GLM with offset ``logit p`` (Rao 1948; Cox 1958). An integer weight counts
    as that many copies of the row.
  - Rows that share their surprises (``groups=``: a customer's rows; ``time=``: neighbouring
    time points): ``V`` adds to the rows' own variance (the Fisher information above, known
    under the hypothesis) the covariance the rows of a unit share, estimated by the
    cross-products of different rows' scores, ``C = sum_u U_u U_u' - sum_i w_i s_i s_i'``
    with ``U_u`` the unit's score (Liang & Zeger 1986); with ``time=`` the units are time
    points and ``sum_u U_u U_u'`` becomes the Bartlett-weighted ``sum_{s, t} (1 - |s - t| /
    L)+ U_s U_t'`` (Newey & West 1987), ``L`` the block length of the dependent wild
    bootstrap (``_wild.time_block``). Negative eigenvalues of ``C`` are set to 0 (the
    estimate can be indefinite; so set, the test is conservative where rows are negatively
    correlated). ``T / df`` is referred to ``F(df, G - 1)``, ``G`` the units with
    a row (time: time points over ``L``), the small-sample reference of cluster-robust tests
    (Cameron & Miller 2015). The rows' own part is not estimated from the residuals, as the
    cluster-robust "sandwich" ``sum_u U_u U_u'`` would: a customer whose forecasts are near 0
    or 1 carries most of the slope's score and, in most samples, no surprise, so the sandwich
    (and the wild score bootstrap of Kline & Santos 2012, whose draws have that variance)
    understates it, and over-rejects with few or unequal groups (measured in
    ``benchmarks/coverage_calibration_groups.py``). Groups of size one share nothing: the
    test is then the row-wise one, up to the reference.

- Several classes? One intercept and slope per class, one-vs-rest on the class's own logit
  (as the MCB test does); the joint test stacks the classes' scores (the score of the
  multinomial model ``q_k ∝ p_k exp(a_k + c_k logit p_k)`` at ``a = c = 0``), whose
  variance has rank ``2K - 1`` (the intercepts' scores sum to zero). Binary problems test the
  positive class's two numbers (the other class mirrors them).

Forecasts of exactly 0 or 1 are clipped to ``[e, 1 - e]``, ``e = 1 / (2 (n + 1))``, before
their logit is taken (half a row's worth of probability): a forecast of 0 for an event then
counts as a large, finite surprise.

References
----------
Cameron, A. C. and Miller, D. L. (2015). A practitioner's guide to cluster-robust
inference. *Journal of Human Resources* 50(2), 317-372. doi:10.3368/jhr.50.2.317

Cox, D. R. (1958). Two further applications of a model for binary regression. *Biometrika*
45(3/4), 562-565. doi:10.2307/2333203

Kline, P. and Santos, A. (2012). A score based approach to wild bootstrap inference.
*Journal of Econometric Methods* 1(1), 23-41. doi:10.1515/2156-6674.1006

Liang, K.-Y. and Zeger, S. L. (1986). Longitudinal data analysis using generalized linear
models. *Biometrika* 73(1), 13-22. doi:10.1093/biomet/73.1.13

Newey, W. K. and West, K. D. (1987). A simple, positive semi-definite, heteroskedasticity and
autocorrelation consistent covariance matrix. *Econometrica* 55(3), 703-708.
doi:10.2307/1913610

Rao, C. R. (1948). Large sample tests of statistical hypotheses concerning several parameters
with applications to problems of estimation. *Mathematical Proceedings of the Cambridge
Philosophical Society* 44(1), 50-57. doi:10.1017/S0305004100023987
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit
from scipy.stats import chi2
from scipy.stats import f as f_dist

from . import _wild

# Forecasts are clipped at least this far from 0 and 1 before taking logits.
_LOGIT_CLIP = 1e-12
# Eigenvalues of V below this share of the largest count as zero (the multiclass intercepts'
# exact dependence, or forecasts that take a single value).
_RANK_TOL = 1e-10


def clipped_logit(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(p, logit p)`` with ``p`` clipped to ``[e, 1 - e]``, ``e = max(1e-12, 0.5 / (n + 1))``
    (half a row's worth of probability: the empirical-logit correction of Haldane and
    Anscombe): a forecast of exactly 0 or 1 -- common from tree ensembles -- would otherwise
    sit at a logit of +-28 and dominate every other row."""
    eps = max(_LOGIT_CLIP, 0.5 / (x.shape[0] + 1.0))
    xc = np.clip(x, eps, 1.0 - eps)
    return xc, np.log(xc) - np.log1p(-xc)


def recalibration_fit(x: np.ndarray, event: np.ndarray, w: np.ndarray):
    """``(a, b, z)``: the logistic recalibration ``expit(a + b z)``, ``z = logit x`` (clipped,
    :func:`clipped_logit`), fitted by weighted maximum likelihood (Newton's method with a
    vanishing ridge toward ``a = 0, b = 1`` so that separated data give a finite, steep curve
    instead of diverging)."""
    z = clipped_logit(x)[1]
    design = np.c_[np.ones_like(z), z]
    w = w / w.sum()
    ridge = 1e-6
    coef = np.array([0.0, 1.0])
    for _ in range(100):
        mu = expit(design @ coef)
        grad = design.T @ (w * (event - mu)) - ridge * (coef - [0.0, 1.0])
        hess = (design * (w * mu * (1.0 - mu))[:, None]).T @ design + ridge * np.eye(2)
        step = np.linalg.solve(hess, grad)
        coef = coef + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return coef[0], coef[1], z


def _row_scores(codes, proba, classes_used):
    """Per row and class: the clipped forecast ``p``, its logit ``z`` and the residual
    ``r = 1{y = k} - p``; each (n, K')."""
    pz = [clipped_logit(proba[:, j]) for j in classes_used]
    p = np.column_stack([a for a, _ in pz])
    z = np.column_stack([b for _, b in pz])
    r = (codes[:, None] == np.asarray(classes_used)[None, :]) - p
    return p, z, r


def _fisher(p, z, w, binary) -> np.ndarray:
    """The Fisher information of the stacked scores ``(r_k, r_k z_k)_k`` under calibration,
    (2K', 2K'): ``Cov(r_k, r_l) = p_k (1{k = l} - p_l)`` per row, summed with weights."""
    a = np.stack([np.ones_like(z), z], axis=2)  # (n, K', 2)
    if binary:
        return np.einsum("i,ir,is->rs", w * p[:, 0] * (1.0 - p[:, 0]), a[:, 0], a[:, 0])
    k = p.shape[1]
    diag = np.einsum("i,ik,ikr,iks->krs", w, p, a, a)
    pa = (p[:, :, None] * a).reshape(p.shape[0], 2 * k)
    v = -(pa * w[:, None]).T @ pa
    for j in range(k):
        v[2 * j:2 * j + 2, 2 * j:2 * j + 2] += diag[j]
    return v


def _pinv(v: np.ndarray) -> tuple[np.ndarray, int]:
    """Moore-Penrose inverse of a symmetric positive semi-definite ``v`` and its rank."""
    vals, vecs = np.linalg.eigh(v)
    top = vals.max() if vals.size else 0.0
    keep = vals > _RANK_TOL * top if top > 0 else np.zeros_like(vals, dtype=bool)
    inv = (vecs[:, keep] / vals[keep]) @ vecs[:, keep].T
    return inv, int(keep.sum())


def _psd_part(v: np.ndarray) -> np.ndarray:
    """``v`` with its negative eigenvalues set to 0."""
    vals, vecs = np.linalg.eigh((v + v.T) / 2.0)
    return (vecs * np.maximum(vals, 0.0)) @ vecs.T


def _bartlett(scores: np.ndarray, block: int) -> np.ndarray:
    """``sum_{s, t} (1 - |s - t| / L)+ U_s U_t'`` of unit scores (G, d) in unit order."""
    v = scores.T @ scores
    for lag in range(1, block):
        c = scores[lag:].T @ scores[:-lag]
        v += (1.0 - lag / block) * (c + c.T)
    return v


def _shared_surprises(scores, r, w, units, unit) -> tuple[np.ndarray, int]:
    """``(C, G)``: the covariance the units add to the rows' own, ``C = sum_u U_u U_u' -
    sum_i w_i s_i s_i'`` (Bartlett-weighted across time points), its negative eigenvalues
    set to 0; and the number of units it is estimated from (time: time points over the
    block length)."""
    per_unit = np.column_stack([np.bincount(unit, weights=c, minlength=units.n_units)
                                for c in scores.T])
    own = (scores / np.sqrt(w)[:, None]).T @ (scores / np.sqrt(w)[:, None])  # sum w s s'
    if units.kind == "time":
        block = _wild.time_block(units, unit, r, w)
        c = _bartlett(per_unit, block) - own
        n_units = max(1, np.unique(unit).size // block)
    else:
        c = per_unit.T @ per_unit - own
        n_units = np.unique(unit).size
    return _psd_part(c), n_units


def recalibration_score_test(codes, proba, w, classes_used, units=None, unit=None) -> dict:
    """The score test of ``a = 0, b = 1`` (module docstring).

    Parameters
    ----------
    codes : ndarray of shape (n,), int
        Class index of each row (rows of positive weight only).
    proba : ndarray of shape (n, K)
    w : ndarray of shape (n,)
        Positive sample weights (an integer weight: that many copies of the row).
    classes_used : list of int
        The classes tested: ``[1]`` for a binary problem, all otherwise.
    units : Units or None
        None (or rows): independent rows; else the groups or time points whose rows share
        their surprises.
    unit : ndarray of shape (n,), int, or None
        The unit of each row.

    Returns
    -------
    dict
        ``statistic``, ``df``, ``pvalue`` (all classes jointly) and ``statistic_per_class``,
        ``pvalue_per_class`` (each class's two numbers alone), per entry of
        ``classes_used``.
    """
    binary = len(classes_used) == 1
    p, z, r = _row_scores(codes, proba, classes_used)
    scores = np.stack([r, r * z], axis=2).reshape(r.shape[0], -1) * w[:, None]  # (n, 2K')
    u = scores.sum(axis=0)
    v = _fisher(p, z, w, binary)
    n_units = None
    if units is not None and not units.independent_rows:
        shared, n_units = _shared_surprises(scores, r, w, units, unit)
        v = v + shared
    blocks = [slice(None)] + [slice(2 * j, 2 * j + 2) for j in range(len(classes_used))]
    out = []
    for s in blocks:
        inv, df = _pinv(v[s, s])
        t = float(u[s] @ inv @ u[s])
        if df == 0:
            out.append((np.nan, 0, np.nan))
        elif n_units is None:
            out.append((t, df, float(chi2.sf(t, df))))
        else:  # the units' share of V is estimated from n_units units
            out.append((t, df, float(f_dist.sf(t / df, df, max(1, n_units - 1)))))
    return {"statistic": out[0][0], "df": out[0][1], "pvalue": out[0][2],
            "statistic_per_class": np.array([o[0] for o in out[1:]]),
            "pvalue_per_class": np.array([o[2] for o in out[1:]])}


def recalibration_fields(fits, codes, proba, w, classes_used, units, unit) -> dict:
    """The ``recalibration_*`` attributes of a calibration test's result, from the fits
    ``(a, b, z)`` of each class in ``classes_used`` (None for a class that never or always
    occurs) and the score test."""
    binary = len(classes_used) == 1
    coef = np.array([(np.nan, np.nan) if f is None else f[:2] for f in fits])
    test = recalibration_score_test(codes, proba, w, classes_used, units, unit)
    if binary:  # classes[0] mirrors classes[1]: opposite intercept, the same slope
        a, b = coef[0]
        intercepts, slopes = np.array([-a, a]), np.array([b, b])
        pvals = np.repeat(test["pvalue_per_class"], 2)
    else:
        intercepts, slopes, pvals = coef[:, 0], coef[:, 1], test["pvalue_per_class"]
    return {
        "recalibration_intercept": float(intercepts[-1] if binary else intercepts.mean()),
        "recalibration_slope": float(slopes[-1] if binary else slopes.mean()),
        "recalibration_statistic": test["statistic"], "recalibration_df": test["df"],
        "recalibration_pvalue": test["pvalue"],
        "recalibration_intercept_per_class": intercepts,
        "recalibration_slope_per_class": slopes, "recalibration_pvalue_per_class": pvals,
    }
