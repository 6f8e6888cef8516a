"""Gradient-boosted estimators that are good by default.

Questions this module answers:

- *I want a strong tabular model without tuning* -> ``ChimeraBoostRegressor`` /
  ``ChimeraBoostClassifier`` with the default ``quality=3``.
- *Are its probabilities honest?* -> ``ChimeraBoostClassifier`` fits one temperature on
  held-out rows (Guo et al. 2017) and applies it in ``predict_proba``; ``temperature_`` says how
  overconfident (``> 1``) the raw booster was, ``temperature_status_`` whether the held-out rows
  could tell at all.
- *Can I keep it off the busy cores?* -> ``n_threads``.
- *I need a predictive interval, not a point* -> ``ChimeraBoostQuantileRegressor``, whose
  quantiles never cross.
- *How much accuracy for how much time?* -> ``quality=1..5``; ``n_ensembles`` averages
  several boosters trained on different subsamples.

The tree engine is scikit-learn's ``HistGradientBoostingRegressor/Classifier`` (Ke et al. 2017's
histogram algorithm); this module adds presets, an internal held-out split used for early
stopping and calibration, bagging, categorical encoding and temperature scaling -- no tree code.

References
----------
Guo, C., Pleiss, G., Sun, Y. & Weinberger, K. Q. (2017). On Calibration of Modern Neural
Networks. ICML. https://arxiv.org/abs/1706.04599
Kull, M., Perello-Nieto, M., Kangsepp, M., Silva Filho, T., Song, H. & Flach, P. (2019). Beyond
temperature scaling: Obtaining well-calibrated multiclass probabilities with Dirichlet
calibration. NeurIPS. https://arxiv.org/abs/1910.12656
Ke, G. et al. (2017). LightGBM: A Highly Efficient Gradient Boosting Decision Tree. NeurIPS.
Chernozhukov, V., Fernandez-Val, I. & Galichon, A. (2010). Quantile and probability curves
without crossing. Econometrica 78(3), 1093-1125. https://doi.org/10.3982/ECTA7880
Breiman, L. (1996). Bagging predictors. Machine Learning 24, 123-140.
"""

from __future__ import annotations

import contextlib
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from sklearn.utils import check_array, check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    check_consistent_length,
    check_is_fitted,
    column_or_1d,
    validate_data,
)
from threadpoolctl import ThreadpoolController

from . import _boosting as B
from ..metrics import regression_report
from ..quantile_metrics import crps_skill
from .._shared.quantile_checks import check_quantile_levels
from .._shared.validation import (
    check_aligned,
    check_level,
    check_positive_int,
    check_sample_weight,
)
from .._report import ReportMixin

__all__ = ["ChimeraBoostRegressor", "ChimeraBoostClassifier", "ChimeraBoostQuantileRegressor"]

# Our loss names (CatBoost-style, as in the issue) -> HistGradientBoosting's.
REGRESSION_LOSSES = {
    "RMSE": "squared_error",
    "MAE": "absolute_error",
    "Quantile": "quantile",
    "Poisson": "poisson",
    "Gamma": "gamma",
}

_COMMON_PARAMS_DOC = """
    quality : int in 1..5, default=3
        Speed/accuracy trade-off. Sets the engine's learning rate, maximum iterations, leaf
        sizes, L2 penalty and early-stopping patience (see ``docs/estimators.md``); 1 is
        fastest, 5 most accurate. Any of the explicit parameters below overrides its preset.
    learning_rate, max_iter, max_leaf_nodes, min_samples_leaf, l2_regularization, \
n_iter_no_change, max_features : default=None
        Engine parameters of ``HistGradientBoosting*``; ``None`` takes the ``quality`` preset.
        ``max_features`` is the share of features each split chooses from (1.0: all).
    early_stopping : bool, default=True
        Hold out ``validation_fraction`` of the rows and stop boosting when their loss has not
        improved for ``n_iter_no_change`` iterations. Skipped (and, for the classifier, no
        temperature fitted) when the held-out part or the rest would have fewer than 20
        rows. The classifier asks for an improvement of at least 0.1% of the no-skill log
        loss (the entropy of the class prior) over those iterations, so that boosting also
        stops on a separable split, whose held-out log loss otherwise creeps towards 0 for
        ever; the squared-error regressor asks for 0.002% of the variance of ``y``, the other
        losses for the engine's absolute 1e-7. The value used is ``params_["tol"]``.
    validation_fraction : float in (0, 1), default=0.15
        Share of rows held out. For the classifier the split is stratified by class, and
        every class keeps at least one training row.
    n_ensembles : int >= 1, default=1
        Number of boosters, each with its own seed and held-out split (so each learns from a
        different subsample), averaged at prediction time (Breiman 1996).
    n_threads : int >= 1 or None, default=None
        OpenMP threads the engine may use in ``fit`` and in every prediction method (set with
        threadpoolctl for the duration of the call). ``None`` leaves the engine's default:
        all cores, or ``OMP_NUM_THREADS``. On a busy or shared machine, or inside a parallel
        loop (``n_jobs`` of a search), use 1: idle OpenMP threads spin while waiting for a
        core, and a fit that takes seconds on one thread can take minutes on all of them.
        Results do not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the held-out splits and the engines; an int makes fits reproducible.
"""

_COMMON_ATTRS_DOC = """
    estimators_ : list
        The fitted engines, one per ensemble member.
    n_iter_ : ndarray of shape (n_ensembles,)
        Boosting iterations each member kept (after early stopping).
    params_ : dict
        Engine parameters actually used (preset merged with explicit values).
    validation_mask_ : ndarray of bool, shape (n_samples,)
        Rows of the training data held out from at least one member.
    categorical_features_ : ndarray of bool, shape (n_features,)
        Columns treated as categorical.
    n_features_in_ : int
    feature_names_in_ : ndarray of str, only when ``X`` had string column names.
"""


class _ChimeraBoostBase(BaseEstimator):
    """Fitting loop shared by the three estimators: checks, encoding, split, bagging."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    # -- validation ---------------------------------------------------------------------------
    def _check_params(self) -> dict:
        params = B.engine_params(self)
        check_positive_int(self.n_ensembles, "n_ensembles")
        if not isinstance(self.early_stopping, (bool, np.bool_)):
            msg = f"early_stopping must be True or False, got {self.early_stopping!r}."
            raise TypeError(msg)
        check_level(self.validation_fraction, "validation_fraction", example="0.15")
        if self.n_threads is not None:
            check_positive_int(self.n_threads, "n_threads")
        return params

    def _threads(self):
        """Context limiting the engine's OpenMP threads to ``n_threads`` (None: no limit)."""
        return _limit_threads(self.n_threads)

    def _prepare_fit(self, X, y, sample_weight, cat_features):
        if y is None:
            msg = (f"{type(self).__name__} requires y to be passed, but the target y is None.")
            raise ValueError(msg)
        # sklearn pairs rows by position; two pandas inputs whose indexes disagree would be
        # paired wrongly, silently.
        check_aligned(X=X, y=y, sample_weight=sample_weight)
        X = _as_2d(X)
        validate_data(self, X, skip_check_array=True, reset=True)
        self._encoder = B.ColumnEncoder().fit(X, cat_features)
        Xf = self._encoder.transform(X)
        y = column_or_1d(check_array(y, ensure_2d=False, dtype=None, input_name="y"),
                         warn=True)
        check_consistent_length(Xf, y)
        w = _weights_of_order_one(check_sample_weight(sample_weight, Xf.shape[0]))
        self.categorical_features_ = self._encoder.mask_.copy()
        # Rows of weight zero are dropped before the split, so that weight 0 == row absent.
        rows = np.arange(Xf.shape[0]) if w is None else np.flatnonzero(w > 0)
        return Xf, y, w, rows

    def _transform(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = _as_2d(X)
        validate_data(self, X, skip_check_array=True, reset=False)
        return self._encoder.transform(X)

    # -- fitting ------------------------------------------------------------------------------
    def _engine_kwargs(self, params: dict, seed: int, early: bool) -> dict:
        kwargs = dict(params)
        kwargs.update(
            early_stopping=early, scoring="loss", random_state=seed,
            categorical_features=self.categorical_features_ if self.categorical_features_.any()
            else None,
        )
        return kwargs

    def _fit_members(self, Xf, target, w, rows, make_engines, stratify):
        """Fit ``n_ensembles`` members; ``make_engines(seed, early)`` returns a list of engines.

        Returns the members (one list of engines each) and each member's held-out rows.
        """
        seeds = check_random_state(self.random_state).randint(0, 2**31 - 1, self.n_ensembles)
        members, held_out = [], []
        for seed in seeds:
            if self.early_stopping:
                train, val = B.holdout_split(rows.size, self.validation_fraction, seed,
                                             target[rows] if stratify else None)
                train, val = rows[train], rows[val]
            else:
                train, val = rows, rows[:0]
            engines = make_engines(seed, val.size > 0)
            with self._threads():
                for engine in engines:
                    _fit_engine(engine, Xf, target, w, train, val)
            members.append(engines)
            held_out.append(val)
        mask = np.zeros(Xf.shape[0], dtype=bool)
        for val in held_out:
            mask[val] = True
        self.validation_mask_ = mask
        self.n_iter_ = np.array([[e.n_iter_ for e in m] for m in members])
        return members, held_out


# The engine's split thresholds are absolute (a leaf needs a hessian sum of 1e-3; the L2
# penalty is added to hessian sums), so weights far from 1 in scale change the model: weights
# normalised to sum to 1 over a million rows, or all 1e-8, once gave a constant model. Weights
# whose largest value lies outside this range are divided by their mean; ordinary weights are
# used as given (and keep scikit-learn's meaning of a weight as a count of repeated rows).
WEIGHT_SCALE_RANGE = (1e-2, 1e8)


def _weights_of_order_one(w):
    if w is None:
        return None
    top = float(np.max(w))
    if WEIGHT_SCALE_RANGE[0] <= top <= WEIGHT_SCALE_RANGE[1]:
        return w
    return w / np.mean(w[w > 0])


def _fit_engine(engine, Xf, target, w, train, val) -> None:
    kwargs = {}
    if val.size:
        kwargs = dict(X_val=Xf[val], y_val=target[val],
                      sample_weight_val=None if w is None else w[val])
    engine.fit(Xf[train], target[train], sample_weight=None if w is None else w[train],
               **kwargs)


class ChimeraBoostRegressor(ReportMixin, RegressorMixin, _ChimeraBoostBase):
    __doc__ = f"""Gradient-boosted regressor with presets, early stopping and bagging.

    Parameters
    ----------
    loss : {{"RMSE", "MAE", "Quantile", "Poisson", "Gamma"}}, default="RMSE"
        Training loss: squared error, absolute error, pinball loss at level ``alpha``,
        Poisson deviance (counts, ``y >= 0``) or Gamma deviance (``y > 0``). Early stopping
        monitors the same loss.
    alpha : float in (0, 1), default=0.5
        Quantile level, used only with ``loss="Quantile"``.
    {_COMMON_PARAMS_DOC}
    Attributes
    ----------
    {_COMMON_ATTRS_DOC}
    See Also
    --------
    ChimeraBoostQuantileRegressor : several quantiles at once, never crossing.

    Examples
    --------
    >>> from sklearn.datasets import make_regression
    >>> from chimeraboost.estimators import ChimeraBoostRegressor
    >>> X, y = make_regression(n_samples=300, n_features=5, noise=1.0, random_state=0)
    >>> model = ChimeraBoostRegressor(quality=1, random_state=0).fit(X, y)
    >>> model.predict(X[:2]).shape
    (2,)
    """

    def __init__(self, loss="RMSE", *, alpha=0.5, quality=3, learning_rate=None,
                 max_iter=None, max_leaf_nodes=None, min_samples_leaf=None,
                 l2_regularization=None, n_iter_no_change=None, max_features=None,
                 early_stopping=True,
                 validation_fraction=0.15, n_ensembles=1, n_threads=None, random_state=None):
        self.loss = loss
        self.alpha = alpha
        self.quality = quality
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.n_iter_no_change = n_iter_no_change
        self.max_features = max_features
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_ensembles = n_ensembles
        self.n_threads = n_threads
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None, cat_features=None):
        """Fit the boosters.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Missing values (NaN) are allowed; the engine learns where to send them.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative; rows of weight 0 are dropped before anything else. Weights whose
            largest value is below 1e-2 or above 1e8 are divided by their mean, because the
            engine's split thresholds are absolute: weights that sum to 1 over many rows
            would otherwise leave nothing to split on.
        cat_features : list of int or str, or bool mask, default=None
            Categorical columns by index or name, in addition to the category / object /
            string columns of a DataFrame, which are detected.

        Returns
        -------
        self
        """
        params = self._check_params()
        if self.loss not in REGRESSION_LOSSES:
            msg = f"loss must be one of {sorted(REGRESSION_LOSSES)}, got {self.loss!r}."
            raise ValueError(msg)
        engine_loss = REGRESSION_LOSSES[self.loss]
        if engine_loss == "quantile":
            params["quantile"] = check_level(self.alpha, "alpha", example="0.5 for the median")
        Xf, y, w, rows = self._prepare_fit(X, y, sample_weight, cat_features)
        y = _check_target(y)
        if engine_loss == "squared_error" and rows.size > 1:
            params["tol"] = B.REGRESSION_REL_TOL * float(
                np.cov(y[rows], aweights=None if w is None else w[rows], bias=True))

        def make_engines(seed, early):
            kwargs = self._engine_kwargs(params, seed, early)
            return [HistGradientBoostingRegressor(loss=engine_loss, **kwargs)]

        members, _ = self._fit_members(Xf, y, w, rows, make_engines, stratify=False)
        self.estimators_ = [m[0] for m in members]
        self.n_iter_ = self.n_iter_[:, 0]
        self.params_ = params
        return self

    def predict(self, X):
        """Mean prediction of the ensemble members, shape (n_samples,)."""
        Xf = self._transform(X)
        with self._threads():
            return np.mean([e.predict(Xf) for e in self.estimators_], axis=0)

    def staged_predict(self, X):
        """Predictions after each boosting iteration; the last one equals ``predict(X)``.

        A member that stopped earlier than another contributes its final prediction.
        """
        Xf = self._transform(X)
        yield from _staged_mean([e.staged_predict(Xf) for e in self.estimators_],
                                self._threads)

    def score(self, X, y, sample_weight=None):
        """r2 of ``predict(X)`` by chimeraboost's rule (:func:`chimeraboost.metrics.regression_report`).

        Equal to ``sklearn.metrics.r2_score`` except on a constant ``y``, where r2 against
        the constant forecast is undefined: NaN with a ``DegenerateMetricWarning``, not the
        1.0 or 0.0 scikit-learn returns -- so a search or a comparison never takes a fold that
        measures nothing for a perfect or a useless one.
        """
        return regression_report(y, self.predict(X), sample_weight)["r2"]


class ChimeraBoostClassifier(ReportMixin, ClassifierMixin, _ChimeraBoostBase):
    __doc__ = f"""Gradient-boosted classifier whose probabilities are temperature-scaled.

    After boosting, the raw scores ``s`` (log-odds for two classes, logits for more) are
    divided by one temperature ``T`` (Guo et al. 2017); ``predict_proba`` returns
    ``softmax(s / T)``. One number cannot change which class wins or how rows rank, so
    accuracy and AUC are untouched; only the confidence moves.

    The temperature rule:

    - ``T`` is fitted on the held-out rows only (the early-stopping split; with
      ``n_ensembles > 1``, each row's average score over the members that did not train on
      it), as the maximum a posteriori value under a normal prior on ``log T`` with mean 0 and
      sd 0.5: held-out log likelihood decides when there are many held-out rows, the prior
      keeps ``T`` near 1 when there are few.
    - ``T >= 1``: the temperature only softens an overconfident booster, never sharpens.
      Evidence for sharpening comes only from the few held-out rows the booster gets wrong,
      and a wrong sharpening is unboundedly costly in log loss.
    - When every held-out row is classified correctly (a separable split), held-out log loss
      keeps falling as ``T`` falls, so the rows cannot identify a temperature: it is refused,
      ``T = 1``, and ``temperature_status_`` says so. Likewise without held-out rows.
    - Scores are kept within 30 nats of the winning class, so no probability is exactly 0 or
      1 (the smallest is about ``1e-13``).

    Why this and not more: fitting ``T`` on cross-fitted (out-of-fold) scores would cost
    several extra fits, while the prior and the refusal cost nothing; one scale and one bias
    per class (vector scaling, the simplest case of Kull et al. 2019's Dirichlet calibration)
    was compared on held-out log loss of multiclass tables and won on as many as it lost, and
    a per-class bias can change the predicted class.

    Parameters
    ----------
    {_COMMON_PARAMS_DOC}
    temperature_scaling : bool, default=True
        Fit the temperature; ``False`` keeps ``temperature_ = 1``.

    Attributes
    ----------
    classes_ : ndarray
        The labels as given (strings stay strings), sorted.
    temperature_ : float
        Fitted temperature, ``>= 1``; 1.0 without scaling or when it was refused.
    temperature_status_ : str
        How ``temperature_`` was decided: ``"fitted"``, ``"off"``
        (``temperature_scaling=False``) or ``"refused: ..."`` with the reason.
    {_COMMON_ATTRS_DOC}
    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from chimeraboost.estimators import ChimeraBoostClassifier
    >>> X, y = make_classification(n_samples=300, random_state=0)
    >>> model = ChimeraBoostClassifier(quality=1, random_state=0).fit(X, y)
    >>> model.predict_proba(X[:2]).shape
    (2, 2)
    """

    def __init__(self, quality=3, *, learning_rate=None, max_iter=None, max_leaf_nodes=None,
                 min_samples_leaf=None, l2_regularization=None, n_iter_no_change=None,
                 max_features=None, early_stopping=True, validation_fraction=0.15, n_ensembles=1,
                 temperature_scaling=True, n_threads=None, random_state=None):
        self.quality = quality
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.n_iter_no_change = n_iter_no_change
        self.max_features = max_features
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_ensembles = n_ensembles
        self.n_threads = n_threads
        self.temperature_scaling = temperature_scaling
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None, cat_features=None):
        """Fit the boosters, then the temperature on the held-out rows.

        Parameters are as in :meth:`ChimeraBoostRegressor.fit`; ``y`` holds class labels
        (numbers or strings).

        Returns
        -------
        self
        """
        params = self._check_params()
        if not isinstance(self.temperature_scaling, (bool, np.bool_)):
            msg = f"temperature_scaling must be True or False, got {self.temperature_scaling!r}."
            raise TypeError(msg)
        Xf, y, w, rows = self._prepare_fit(X, _check_class_labels(y), sample_weight,
                                           cat_features)
        check_classification_targets(y)
        self.classes_, codes_kept = np.unique(y[rows], return_inverse=True)
        if self.classes_.shape[0] < 2:
            msg = (f"y contains only one class, {self.classes_.tolist()}, among rows of "
                   "positive weight; a classifier needs at least two classes.")
            raise ValueError(msg)
        codes = np.full(y.shape[0], -1, dtype=np.intp)
        codes[rows] = codes_kept
        params["tol"] = B.EARLY_STOPPING_REL_TOL * B.no_skill_log_loss(
            codes_kept, None if w is None else w[rows])

        def make_engines(seed, early):
            kwargs = self._engine_kwargs(params, seed, early)
            return [HistGradientBoostingClassifier(loss="log_loss", **kwargs)]

        members, held_out = self._fit_members(Xf, codes, w, rows, make_engines, stratify=True)
        self.estimators_ = [m[0] for m in members]
        self.n_iter_ = self.n_iter_[:, 0]
        self.params_ = params
        self.temperature_, self.temperature_status_ = self._fit_temperature(
            Xf, codes, w, held_out)
        return self

    def _fit_temperature(self, Xf, codes, w, held_out) -> tuple[float, str]:
        if not self.temperature_scaling:
            return 1.0, B.TEMPERATURE_OFF
        if not self.validation_mask_.any():
            return 1.0, B.TEMPERATURE_NO_ROWS
        raw_sum, count = None, np.zeros(Xf.shape[0])
        for engine, val in zip(self.estimators_, held_out):
            with self._threads():
                raw = engine.decision_function(Xf[val])
            raw_sum = np.zeros((Xf.shape[0],) + raw.shape[1:]) if raw_sum is None else raw_sum
            raw_sum[val] += raw
            count[val] += 1
        m = self.validation_mask_
        oob = raw_sum[m] / (count[m] if raw_sum.ndim == 1 else count[m][:, None])
        return B.fit_temperature(oob, codes[m], None if w is None else w[m])

    def _raw_scores(self, Xf) -> np.ndarray:
        with self._threads():
            return np.mean([e.decision_function(Xf) for e in self.estimators_], axis=0)

    def decision_function(self, X):
        """Temperature-scaled raw scores: log-odds (n,) for two classes, logits (n, K) else.

        ``decision_function(X) * temperature_`` gives the unscaled booster scores.
        """
        return B.clip_scores(self._raw_scores(self._transform(X)) / self.temperature_)

    def predict_proba(self, X):
        """Class probabilities ``softmax(raw / temperature_)``, shape (n_samples, n_classes)."""
        return B.scores_to_proba(self._raw_scores(self._transform(X)), self.temperature_)

    def staged_predict_proba(self, X):
        """Temperature-scaled probabilities after each iteration; the last equals
        ``predict_proba(X)``. The temperature is the one fitted for the final model."""
        Xf = self._transform(X)
        staged = _staged_mean([e.staged_decision_function(Xf) for e in self.estimators_],
                              self._threads)
        for raw in staged:
            yield B.scores_to_proba(raw, self.temperature_)

    def predict(self, X):
        """The most probable class label for each row."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class ChimeraBoostQuantileRegressor(ReportMixin, RegressorMixin, _ChimeraBoostBase):
    __doc__ = f"""Several conditional quantiles at once, which never cross.

    One booster with the pinball loss is fitted per level in ``quantiles`` (all members of
    an ensemble share one held-out split per seed). ``predict`` sorts each row of the
    (n, K) grid: monotone rearrangement, which never increases the pinball loss of any level
    (Chernozhukov, Fernandez-Val & Galichon 2010).

    Parameters
    ----------
    quantiles : sequence of float in (0, 1), default=(0.1, 0.5, 0.9)
        Quantile levels, strictly increasing.
    {_COMMON_PARAMS_DOC}
    Attributes
    ----------
    quantiles_ : ndarray of shape (K,)
    estimators_ : list of lists
        ``estimators_[m][k]`` is member ``m``'s engine for level ``quantiles_[k]``.
    n_iter_ : ndarray of shape (n_ensembles, K)
    """

    def __init__(self, quantiles=(0.1, 0.5, 0.9), *, quality=3, learning_rate=None,
                 max_iter=None, max_leaf_nodes=None, min_samples_leaf=None,
                 l2_regularization=None, n_iter_no_change=None, max_features=None,
                 early_stopping=True,
                 validation_fraction=0.15, n_ensembles=1, n_threads=None, random_state=None):
        self.quantiles = quantiles
        self.quality = quality
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.n_iter_no_change = n_iter_no_change
        self.max_features = max_features
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_ensembles = n_ensembles
        self.n_threads = n_threads
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None, cat_features=None):
        """Fit one booster per quantile level (and per ensemble member).

        Parameters are as in :meth:`ChimeraBoostRegressor.fit`.

        Returns
        -------
        self
        """
        params = self._check_params()
        levels = check_quantile_levels(self.quantiles, "quantiles")
        Xf, y, w, rows = self._prepare_fit(X, y, sample_weight, cat_features)
        y = _check_target(y)

        def make_engines(seed, early):
            kwargs = self._engine_kwargs(params, seed, early)
            return [HistGradientBoostingRegressor(loss="quantile", quantile=q, **kwargs)
                    for q in levels]

        self.estimators_, _ = self._fit_members(Xf, y, w, rows, make_engines, stratify=False)
        self.quantiles_ = levels
        self.params_ = params
        return self

    def predict(self, X):
        """Quantile grid of shape (n_samples, K), each row sorted (no crossing)."""
        Xf = self._transform(X)
        with self._threads():
            grid = np.mean([[e.predict(Xf) for e in member] for member in self.estimators_],
                           axis=0).T
        return np.sort(grid, axis=1)

    def score(self, X, y, sample_weight=None):
        """CRPS skill of the quantile grid against the constant empirical quantiles of ``y``
        (:func:`chimeraboost.quantile_metrics.crps_skill`; 1 is perfect, 0 no better than
        the constant forecast). With one level it equals ``d2_pinball_score``."""
        return crps_skill(y, self.predict(X), self.quantiles_, sample_weight=sample_weight)


def _staged_mean(generators, threads):
    """Average of the members' staged outputs, each member repeating its last once done.

    ``threads()`` is entered around each step only, so the caller's own code between steps
    runs without the estimator's thread limit.
    """
    last = [None] * len(generators)
    while True:
        progressed = False
        for i, gen in enumerate(generators):
            with threads():
                value = next(gen, None)
            if value is not None:
                last[i], progressed = value, True
        if not progressed:
            return
        yield np.mean(last, axis=0)


_THREADPOOL_CONTROLLER = None


def _limit_threads(n_threads):
    """``threadpoolctl`` limit on OpenMP threads; a no-op context for ``None``.

    One controller is kept for the process: building one inspects every loaded library
    (milliseconds), which would otherwise be paid by every ``predict``.
    """
    global _THREADPOOL_CONTROLLER
    if n_threads is None:
        return contextlib.nullcontext()
    if _THREADPOOL_CONTROLLER is None:
        _THREADPOOL_CONTROLLER = ThreadpoolController()
    return _THREADPOOL_CONTROLLER.limit(limits=int(n_threads), user_api="openmp")


def _as_2d(X):
    """DataFrames pass through (their dtypes matter); anything else becomes a 2-D array."""
    if B._is_dataframe(X):
        return X
    return check_array(X, dtype=None, ensure_all_finite=False)


def _check_class_labels(y):
    """Class labels checked for what numpy would otherwise turn into a traceback.

    A missing label (None, NaN, ``pd.NA`` in a pandas boolean / string / category column)
    has no class to learn, and labels mixing strings and numbers cannot be sorted into
    ``classes_``. Numeric numpy labels pass through untouched (NaN is reported later).
    """
    dtype = getattr(y, "dtype", None)
    if y is None or (isinstance(dtype, np.dtype) and dtype.kind in "biuf"):
        return y
    try:
        values = np.asarray(y.to_numpy(dtype=object) if B._is_dataframe(y) or hasattr(y, "iloc")
                            else y, dtype=object)
    except (TypeError, ValueError):
        return y  # not a sequence of labels; check_array names the problem
    if values.ndim != 1:
        return y
    items = values.tolist()
    missing = [i for i, v in enumerate(items) if B._is_missing(v)]
    if missing:
        msg = (f"y has {len(missing)} missing label(s) (None, NaN or pd.NA; the first in row "
               f"{missing[0]}); every training row needs a class. Drop those rows, or give "
               "them a label of their own.")
        raise ValueError(msg)
    kinds = {_label_kind(v) for v in items}
    if len(kinds) > 1:
        msg = (f"y mixes label types ({' and '.join(sorted(kinds))}), which cannot be sorted "
               "into classes_; make the labels all strings (y.astype(str)) or all numbers.")
        raise TypeError(msg)
    return y  # unchanged: scikit-learn's own checks handle every valid container


def _label_kind(value) -> str:
    if isinstance(value, (str, bytes, np.str_)):
        return "strings"
    if isinstance(value, (numbers.Number, np.bool_)):
        return "numbers"
    return type(value).__name__


def _check_target(y) -> np.ndarray:
    try:
        y = y.astype(np.float64)
    except (TypeError, ValueError) as exc:
        msg = f"y must be numeric for a regressor, got dtype {y.dtype}."
        raise ValueError(msg) from exc
    if not np.all(np.isfinite(y)):
        msg = "y contains NaN or infinity; a regression target must be finite."
        raise ValueError(msg)
    return y
