"""What the three ChimeraBoost estimators share: one fitting loop and the engine's threads.

Questions this module answers:

- *How does every estimator fit?* -> ``_ChimeraBoostBase``: parameter checks, categorical
  encoding (``_encode_high_cardinality`` for columns of many levels), the held-out split per
  ensemble member with its linear rung (``_fit_members``), the out-of-bag scores that choose
  the linear weight and the temperature (``_out_of_bag``), the refit on every row
  (``_refit_members``), and bagging; each estimator only says which engines a member holds
  (``make_engines``) and what its target is.
- *Which parameters do they all take?* -> ``_COMMON_PARAMS_DOC`` / ``_COMMON_ATTRS_DOC``,
  pasted into each estimator's docstring so that the three never disagree.
- *Why are some sample weights rescaled?* -> ``WEIGHT_SCALE_RANGE``, ``_weights_of_order_one``.
- *How is ``n_threads`` enforced?* -> ``_limit_threads``, entered around every engine call.
- *How do several members' staged outputs average?* -> ``_staged_mean``.
- *Is the input usable?* -> ``_as_2d`` (tables keep their dtypes) and ``_check_target`` (a
  regression target is numeric and finite), for the regressors.
"""

from __future__ import annotations

import contextlib

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_array, check_random_state
from sklearn.utils.validation import (
    check_consistent_length,
    check_is_fitted,
    column_or_1d,
    validate_data,
)
from threadpoolctl import ThreadpoolController

from . import _boosting as B
from . import _linear as L
from . import _target_encoding as TE
from .._shared.validation import (
    check_aligned,
    check_level,
    check_positive_int,
    check_sample_weight,
)

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
    refit : bool, default=True
        After early stopping (and, for the classifier, the linear weight and the
        temperature, which the held-out rows decide), fit each member's trees again on every
        row, with the iterations up to the best held-out loss: the held-out rows then also
        teach the final model. ``n_iter_`` counts the refitted iterations. About doubles the
        cost of the trees. The regressor keeps the early-stopped fits too
        (``first_estimators_``) and predicts with the mean of both.
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
    target_encoded_features_ : ndarray of bool, shape (n_features,)
        Categorical columns with more than 10 levels in the training rows, which the engine
        sees as their cross-fitted target means (scikit-learn's ``TargetEncoder``) instead of
        as categories; the linear rung sees the same encoding.
    rung_ : {"trees", "blend", "linear"}
        Which rung of the ladder the fitted model is: the trees alone (``tree_weight_ == 1``;
        always for the quantile regressor), a blend of the trees with the linear rung, or
        the linear rung alone (the held-out rows gave the trees no weight: the model is then
        a regularised linear model, and a report says so in its header).
    n_features_in_ : int
    feature_names_in_ : ndarray of str, only when ``X`` had string column names.
"""


class _ChimeraBoostBase(BaseEstimator):
    """Fitting loop shared by the three estimators: checks, encoding, split, bagging."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    @property
    def rung_(self) -> str:
        # Read off tree_weight_ (absent before fit, so rung_ is too), never stored twice.
        weight = getattr(self, "tree_weight_", None)
        if weight is None:
            check_is_fitted(self, "estimators_")
            return "trees"  # the quantile regressor: no linear rung
        return "trees" if weight >= 1.0 else "linear" if weight <= 0.0 else "blend"

    # -- validation ---------------------------------------------------------------------------
    def _check_params(self) -> dict:
        params = B.engine_params(self)
        check_positive_int(self.n_ensembles, "n_ensembles")
        for name in ("early_stopping", "refit"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                msg = f"{name} must be True or False, got {getattr(self, name)!r}."
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
        if w is not None and rows.size and np.ptp(w[rows]) == 0:
            # Equal weights say nothing but their scale: the unweighted fit, exactly. (The
            # engine's bins move with weights one rounding error away from 1.)
            w = None
        return Xf, y, w, rows

    def _encode_high_cardinality(self, Xf, y, rows, target_type) -> np.ndarray:
        """``Xf`` with its high-cardinality categorical columns target-encoded (cross-fitted
        on ``rows``); sets the engine's categorical mask, ``self._engine_mask``."""
        self._high_cardinality = TE.HighCardinalityEncoder()
        seed = check_random_state(self.random_state).randint(0, 2**31 - 1)
        Xf, self._engine_mask = self._high_cardinality.fit_transform(
            Xf, self.categorical_features_, y, rows, target_type, seed)
        self.target_encoded_features_ = np.zeros(self.categorical_features_.shape[0], dtype=bool)
        self.target_encoded_features_[self._high_cardinality.columns_] = True
        return Xf

    def _transform(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = _as_2d(X)
        validate_data(self, X, skip_check_array=True, reset=False)
        return self._high_cardinality.transform(self._encoder.transform(X))

    # -- fitting ------------------------------------------------------------------------------
    def _engine_kwargs(self, params: dict, seed: int, early: bool) -> dict:
        kwargs = dict(params)
        kwargs.update(
            early_stopping=early, scoring="loss", random_state=seed,
            categorical_features=self._engine_mask if self._engine_mask.any() else None,
        )
        return kwargs

    def _fit_members(self, Xf, target, w, rows, make_engines, stratify, linear=None):
        """Fit ``n_ensembles`` members; ``make_engines(seed, early)`` returns a list of engines.

        ``linear``: None, or the task (``"classification"`` / ``"regression"``): each member
        with held-out rows also fits the linear rung on its training rows
        (``self._member_linears``, None where there was none), for the held-out choice of the
        trees' weight.

        Returns the members (one list of engines each) and each member's held-out rows.
        """
        seeds = check_random_state(self.random_state).randint(0, 2**31 - 1, self.n_ensembles)
        members, held_out, self._member_linears = [], [], []
        fresh = np.ones(rows.size, dtype=bool)
        for seed in seeds:
            if self.early_stopping:
                train, val = B.holdout_split(rows.size, self.validation_fraction, seed,
                                             target[rows] if stratify else None, fresh)
                fresh[val] = False
                train, val = rows[train], rows[val]
            else:
                train, val = rows, rows[:0]
            lin = None
            if linear is not None and val.size:
                lin = L.fit_linear(Xf, target, w, train, self._engine_mask, linear,
                                   "cv" if linear == "classification" else 1.0)
            engines = make_engines(seed, val.size > 0)
            with self._threads():
                for engine in engines:
                    _fit_engine(engine, Xf, target, w, train, val)
            members.append(engines)
            held_out.append(val)
            self._member_linears.append(lin)
        mask = np.zeros(Xf.shape[0], dtype=bool)
        for val in held_out:
            mask[val] = True
        self.validation_mask_ = mask
        self.n_iter_ = np.array([[e.n_iter_ for e in m] for m in members])
        return members, held_out

    def _refit_members(self, members, Xf, target, w, rows) -> None:
        """Each engine that held rows out, fitted again on every row with the iterations up to
        its best held-out loss (``refit=True``); the held-out scores that chose the linear
        weight and the temperature are those of the first fits. ``n_iter_`` becomes the
        refitted engines'."""
        if not (self.refit and self.validation_mask_.any()):
            return
        with self._threads():
            for engines in members:
                for k, engine in enumerate(engines):
                    again = clone(engine).set_params(max_iter=_refit_iterations(engine),
                                                     early_stopping=False)
                    _fit_engine(again, Xf, target, w, rows, rows[:0])
                    engines[k] = again
        self.n_iter_ = np.array([[e.n_iter_ for e in m] for m in members]).reshape(
            self.n_iter_.shape)

    def _out_of_bag(self, score, held_out, n):
        """Each held-out row's mean of ``score(m, rows)`` over the members ``m`` that held it
        out, on the rows of ``validation_mask_`` (out-of-bag, as in Breiman 1996)."""
        total, count = None, np.zeros(n)
        for m, val in enumerate(held_out):
            if not val.size:
                continue
            s = score(m, val)
            total = np.zeros((n,) + s.shape[1:]) if total is None else total
            total[val] += s
            count[val] += 1
        keep = self.validation_mask_
        return total[keep] / (count[keep] if total.ndim == 1 else count[keep][:, None])


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


def _refit_iterations(engine) -> int:
    """Iterations for the refit on every row: those up to the best held-out loss. The engine
    keeps the ``n_iter_no_change`` iterations after it that made it stop; refitting without
    them gave the same RMSE on the panel's regression tables at 18% less fit time (mean
    log-loss ratio to CatBoost 0.985 against 0.976 on the classification tables, one split).
    ``validation_score_[0]`` scores the model before the first tree."""
    scores = getattr(engine, "validation_score_", ())
    if not len(scores):
        return max(int(engine.n_iter_), 1)
    return max(int(np.argmax(scores)), 1)


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
