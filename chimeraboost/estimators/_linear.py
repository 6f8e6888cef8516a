"""The linear rung inside the ChimeraBoost estimators, and how much of it to keep.

Questions answered here, one helper each:

- Which linear model does a booster blend with?  -> ``fit_linear``: the scaled logistic
  (classifier) or ridge (regressor) regression of the encoded table, numeric columns imputed
  and standardised, categorical codes one-hot encoded -- the ``"linear"`` rung of
  :func:`chimeraboost.baselines.ladder`, fitted on the rows the booster learns from.
- How regularised is the classifier's logistic regression?  -> ``choose_c``: ``C`` by
  cross-validated log loss (on at most ``CV_MAX_ROWS`` rows, ``_cv_rows``), ``C = 1`` (the
  ladder's) unless another is clearly better.
- What are its scores?  -> ``linear_scores``: log-odds / logits, or predictions.
- How much weight do the trees get against the linear model?  -> ``fit_tree_weight`` (log
  loss of the blended log-odds, classifier; ``blend_scores`` blends) and
  ``fit_tree_weight_squared`` (squared error, regressor), both decided on held-out rows only;
  the classifier's weight must pass a likelihood-ratio test against the linear model alone.

Why a linear rung at all: on tables whose log-odds are nearly linear in the columns (credit
default against balance, churn against tenure and contract), a booster approximates a
straight line by steps and loses to a plain logistic regression; on small tables it has too
few rows to find the line at all. The held-out rows say how much of each to keep, so that on
tables where trees add nothing the model is the linear one, and where they do, the trees
dominate. Stacking two models' scores with weights chosen on held-out data is Wolpert's
(1992) stacked generalisation, restricted here to one convex weight (Breiman 1996a showed
that non-negative stacking weights are the ones that generalise).

References
----------
Wolpert, D. H. (1992). Stacked generalization. Neural Networks 5(2), 241-259.
https://doi.org/10.1016/S0893-6080(05)80023-1
Breiman, L. (1996a). Stacked regressions. Machine Learning 24, 49-64.
https://doi.org/10.1007/BF00117832
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.linalg import LinAlgWarning
from scipy.optimize import minimize_scalar
from sklearn.compose import ColumnTransformer
from sklearn.exceptions import ConvergenceWarning
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from . import _boosting as B


def _linear_pipeline(mask: np.ndarray, task: str, c: float = 1.0) -> Pipeline:
    """Standardised numeric columns (median-imputed) and one-hot categorical codes (a missing
    category gets a level of its own; an unseen one none) into ``LogisticRegression(C=c)`` or
    ``Ridge(alpha=1)``: the ladder's linear rung (``C = 1``), or, for the classifier, the
    same with the regularisation chosen by :func:`choose_c`.

    No indicator of missingness: on the panel's biopsy table (16 rows missing one column,
    nearly all benign) it raised the linear model's test log loss from 0.080 to 0.119.
    """
    num, cat = np.flatnonzero(~mask), np.flatnonzero(mask)
    parts = []
    if num.size:
        parts.append(("numeric", make_pipeline(
            SimpleImputer(strategy="median", keep_empty_features=True),
            StandardScaler()), num))
    if cat.size:
        parts.append(("categorical", make_pipeline(
            SimpleImputer(strategy="constant", fill_value=-1.0, keep_empty_features=True),
            OneHotEncoder(handle_unknown="ignore")), cat))
    head = (LogisticRegression(C=c, max_iter=1000) if task == "classification"
            else Ridge(alpha=1.0))
    return Pipeline([("encode", ColumnTransformer(parts)), ("model", head)])


# The classifier's inverse regularisation C is chosen among these by CV_FOLDS-fold
# cross-validated log loss on the rows the model learns from; C = 1 (the ladder's rung) stays
# unless another value is better by more than CV_SE standard errors of the paired per-row
# difference. On the panel (docs/estimators.md) C = 1 shrinks the near-separable tables' log-odds
# far too much: the test log loss of crabs fell from 0.240 to 0.019, of iris from 0.127 to
# 0.032, of penguins from 0.040 to 0.035; without the standard-error rule C moved on tables
# where C = 1 was as good, and lost there (biopsy, attrition).
C_GRID = (0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
CV_FOLDS = 5
CV_SE = 2.0
# Above this many rows C is chosen on a stratified subsample of this many, with the penalty
# per row kept (C times the rows' total weight over the subsample's): the near-separable
# tables where C matters are small, and on large tables every C near 1 regularises little.
# The cross-validation was 35-45% of the classifier's fit time on the panel's larger tables
# (docs/benchmarks.md, "Fit time").
CV_MAX_ROWS = 2000
# The cross-validation's fits use Newton's method (scikit-learn's "newton-cholesky": a few
# iterations of a Hessian of side the number of coefficients) when there are at most
# NEWTON_MAX_COEFS coefficients, and lbfgs (hundreds of cheap iterations) above: on the panel
# Newton took a third of lbfgs's time on the binary tables and five times it on digits (64
# columns x 10 classes).
NEWTON_MAX_COEFS = 200


def choose_c(Xf, codes, weight, rows, mask) -> float:
    """The logistic regression's ``C``: ``C_GRID``'s value of least ``CV_FOLDS``-fold
    (stratified) log loss on ``rows`` (at most ``CV_MAX_ROWS`` of them, see
    :func:`_cv_rows`), if better than ``C = 1`` by more than ``CV_SE`` standard errors;
    else 1. A class with fewer rows than folds lowers the number of folds; below two,
    ``C = 1``. The encoding is fitted once on all of ``rows`` (its medians, means and scales
    move little between folds).

    The grid is walked from ``C = 1`` towards the side whose neighbour has less loss, for as
    long as the loss falls (the cross-validated log loss of a ridge-penalised logistic
    regression is, in practice, unimodal in ``log C``); each fold's fit starts from its fit
    at the neighbouring ``C``. On a unimodal curve this picks the full grid's minimum with
    3-5 of its 8 values.
    """
    t = codes[rows]
    counts = np.bincount(t)
    k = int(min(CV_FOLDS, counts[counts > 0].min()))
    if k < 2 or np.count_nonzero(counts) < counts.size:
        return 1.0
    wt_all = np.ones(rows.size) if weight is None else weight[rows]
    sub = _cv_rows(t, k)
    Z = _linear_pipeline(mask, "classification")[0].fit(Xf[rows]).transform(Xf[rows[sub]])
    t, wt = t[sub], wt_all[sub]
    scale = float(wt_all.sum() / wt.sum())
    folds = list(StratifiedKFold(k, shuffle=True, random_state=0).split(Z, t))
    n_coefs = Z.shape[1] * (1 if counts.size == 2 else counts.size)
    solver = "newton-cholesky" if n_coefs <= NEWTON_MAX_COEFS else "lbfgs"
    loss, starts = {}, [{} for _ in folds]

    def evaluate(i, near):
        loss[i] = _fold_losses(Z, t, wt, folds, C_GRID[i] * scale, solver, starts, i, near)
        return float(loss[i].sum())

    one = C_GRID.index(1.0)
    evaluate(one, None)
    side = [i for i in (one - 1, one + 1) if 0 <= i < len(C_GRID)]
    best = min(side, key=lambda i: evaluate(i, one))
    if loss[best].sum() >= loss[one].sum():
        return 1.0
    step = best - one
    while 0 <= best + step < len(C_GRID) and evaluate(best + step, best) < loss[best].sum():
        best += step
    gain = loss[one] - loss[best]
    if gain.mean() <= CV_SE * gain.std(ddof=1) / np.sqrt(gain.size):
        return 1.0
    return float(C_GRID[best])


def _fold_losses(Z, t, wt, folds, c, solver, starts, key, near) -> np.ndarray:
    """Each row's weighted log loss under the logistic regression of inverse penalty ``c``
    fitted on the other folds. ``starts[f]`` keeps fold ``f``'s fits by grid position: the
    fit is stored under ``key`` and starts from the one under ``near`` (warm start)."""
    row_loss = np.zeros(t.size)
    for f, (train, val) in enumerate(folds):
        model = LogisticRegression(C=c, solver=solver, max_iter=1000, warm_start=True)
        if near in starts[f]:
            model.coef_, model.intercept_ = (a.copy() for a in starts[f][near])
        with warnings.catch_warnings():
            # Newton's method on a nearly singular Hessian (a separable fold) falls back to
            # lbfgs with a warning; the fold's fit is still what is scored.
            warnings.simplefilter("ignore", ConvergenceWarning)
            warnings.simplefilter("ignore", LinAlgWarning)
            model.fit(Z[train], t[train], sample_weight=wt[train])
        starts[f][key] = (model.coef_, model.intercept_)
        row_loss[val] = wt[val] * B._nll(model.decision_function(Z[val]), t[val], 1.0)
    return row_loss


def _cv_rows(t, k) -> np.ndarray:
    """Positions of the rows ``choose_c`` cross-validates: all of them up to ``CV_MAX_ROWS``,
    else a subsample of that size, each class in proportion but keeping at least ``k`` rows
    (the folds need one per class). Seeded, so that a fit is reproducible."""
    if t.size <= CV_MAX_ROWS:
        return np.arange(t.size)
    rng = np.random.default_rng(0)
    share = CV_MAX_ROWS / t.size
    keep = []
    for cls in np.unique(t):
        at = np.flatnonzero(t == cls)
        keep.append(rng.choice(at, max(k, int(round(share * at.size))), replace=False))
    return np.sort(np.concatenate(keep))


def fit_linear(Xf, target, weight, rows, mask, task, c=1.0) -> Pipeline:
    """The linear rung fitted on ``Xf[rows]`` (encoded table) against ``target[rows]``;
    ``c`` is the classifier's ``C`` (``"cv"``: chosen by :func:`choose_c` on ``rows``)."""
    if c == "cv":
        c = choose_c(Xf, target, weight, rows, mask)
    model = _linear_pipeline(mask, task, c)
    kwargs = {} if weight is None else {"model__sample_weight": weight[rows]}
    with warnings.catch_warnings():
        # A nearly separable table makes lbfgs stop at max_iter with a warning; the model it
        # stops at is still the one whose weight the held-out rows judge.
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(Xf[rows], target[rows], **kwargs)
    return model


def linear_scores(model, Xf) -> np.ndarray:
    """Log-odds ``(n,)`` / logits ``(n, K)`` of a classifier, predictions of a regressor."""
    if hasattr(model, "decision_function") and hasattr(model[-1], "classes_"):
        return model.decision_function(Xf)
    return model.predict(Xf)


# Prior sd of the trees' weight, centred on 0 (the linear model alone): the trees must earn
# their weight on held-out rows. Like the temperature's prior it adds a fixed amount of
# evidence (8 w^2 nats, as much as a few held-out rows' log loss), so it decides only where
# the held-out rows cannot: a small or separable split, on which both models classify nearly
# every row correctly and the more confident one would otherwise win. Measured on the panel
# (docs/estimators.md): sd 0.25 against 0.35 and 0.5 cost 2% of the mean log-loss ratio to
# CatBoost and brought the largest excess over the linear model from 17% down to 9%.
TREE_WEIGHT_PRIOR_SD = 0.25


def fit_tree_weight(z_linear, z_trees, y_codes, weight) -> float:
    """The weight ``w`` in [0, 1] of the trees' log-odds in ``(1 - w) z_linear + w z_trees``:
    the maximum a posteriori value, held-out log likelihood times a normal prior on ``w``
    centred on 0 with sd ``TREE_WEIGHT_PRIOR_SD``.

    A convex weight keeps the scale of the scores (no sharpening through the back door: the
    temperature is fitted afterwards) and is bounded even when the held-out rows are
    separable, where a free scale would run off to infinity. A weight whose
    likelihood-ratio statistic against ``w = 0`` is below ``CHI2_1_95`` (the trees do not
    significantly improve the held-out log loss) becomes 0.
    """
    w = np.ones(z_linear.shape[0]) if weight is None else weight / np.mean(weight)
    penalty = 0.5 / TREE_WEIGHT_PRIOR_SD**2

    def objective(v):
        z = blend_scores(z_linear, z_trees, v)
        return float(w @ B._nll(z, y_codes, 1.0)) + penalty * v**2

    result = minimize_scalar(objective, bounds=(0.0, 1.0), method="bounded",
                             options={"xatol": 1e-4})
    # The bounded search never evaluates the ends; a weight of exactly 0 or 1 (one model
    # alone) is often the answer, so the ends are compared too.
    candidates = [(objective(0.0), 0.0), (objective(1.0), 1.0),
                  (float(result.fun), float(result.x))]
    best = min(candidates)[1]
    # The trees must show that they help: a weight the held-out rows cannot tell from 0 at 5%
    # (likelihood-ratio test, B.CHI2_1_95) is 0, the linear model alone.
    if best > 0 and B.likelihood_ratio(z_linear, blend_scores(z_linear, z_trees, best),
                                       y_codes, weight) < B.CHI2_1_95:
        return 0.0
    return best


def blend_scores(z_linear, z_trees, w):
    """Scores of the blend with trees' weight ``w``: ``(1 - w) z_linear + w z_trees``, on the
    log-odds / logit scale (a product of the two models' probabilities, renormalised).

    Mixing the probabilities instead, ``(1 - w) p_linear + w p_trees``, bounds what a wrong
    model costs, but it dilutes a good model with a poor one: on the panel it raised the mean
    log-loss ratio to CatBoost from 1.031 to 1.046 (5 members each), most on ``digits``,
    where the linear model is far behind the trees.
    """
    return (1 - w) * z_linear + w * z_trees


def fit_tree_weight_squared(linear, trees, y, weight) -> float:
    """The weight ``w`` in [0, 1] of the trees in ``(1 - w) linear + w trees`` that minimises
    the weighted squared error on held-out rows: the least-squares slope of ``y - linear`` on
    ``trees - linear``, clipped to [0, 1] (closed form)."""
    d = trees - linear
    wt = np.ones_like(y) if weight is None else weight
    denom = float(np.sum(wt * d * d))
    if denom <= 0:
        return 1.0
    return float(np.clip(np.sum(wt * d * (y - linear)) / denom, 0.0, 1.0))
