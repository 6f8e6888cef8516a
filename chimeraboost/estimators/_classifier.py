"""*Are its probabilities honest?* ``ChimeraBoostClassifier``, temperature-scaled.

The classifier boosts, then fits one temperature on the held-out rows (Guo et al. 2017) and
applies it in every probability it returns; this module also checks class labels for what
numpy would otherwise turn into a traceback (missing labels, strings mixed with numbers).

References
----------
Guo, C., Pleiss, G., Sun, Y. & Weinberger, K. Q. (2017). On Calibration of Modern Neural
Networks. ICML. https://arxiv.org/abs/1706.04599
Kull, M., Perello-Nieto, M., Kangsepp, M., Silva Filho, T., Song, H. & Flach, P. (2019). Beyond
temperature scaling: Obtaining well-calibrated multiclass probabilities with Dirichlet
calibration. NeurIPS. https://arxiv.org/abs/1910.12656
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.utils.multiclass import check_classification_targets

from . import _boosting as B
from . import _linear as L
from ._base import _COMMON_ATTRS_DOC, _COMMON_PARAMS_DOC, _ChimeraBoostBase, _staged_mean
from .._report import ReportMixin


class ChimeraBoostClassifier(ReportMixin, ClassifierMixin, _ChimeraBoostBase):
    __doc__ = f"""Gradient-boosted classifier whose probabilities are temperature-scaled.

    Beside the trees, each member fits the scaled logistic regression of
    :func:`chimeraboost.baselines.linear_model` (the ladder's linear rung) on the same rows;
    the held-out rows choose the trees' weight ``w`` in the blend of log-odds
    ``s = (1 - w) * linear + w * trees`` (maximum a posteriori under a normal prior on ``w``
    centred on 0 with sd 0.25: the trees must earn their weight), and the linear model is
    refitted on every row. Then ``s`` is divided by one temperature ``T`` (Guo et al. 2017);
    ``predict_proba`` returns ``softmax(s / T)``. One number cannot change which class wins
    or how rows rank, so accuracy and AUC are untouched; only the confidence moves.

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
      ``T = 1``, and ``temperature_status_`` says so. Likewise without held-out rows, and when
      the held-out rows do not show that ``T`` helps: twice the held-out log likelihood it
      gains over ``T = 1`` below 3.84 (a likelihood-ratio test at 5%).
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
    linear_blend : bool, default=True
        Blend the trees with the linear rung (a scaled logistic regression whose ``C`` is
        chosen by cross-validation, 1 unless clearly worse) by the weight the held-out rows
        choose; a weight the rows cannot tell from 0 (likelihood-ratio test at 5%) is 0.
        ``False``: the trees alone (``tree_weight_ = 1``).
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
    tree_weight_ : float in [0, 1]
        The trees' weight in the blend; 1.0 when the trees stand alone (no held-out rows,
        ``linear_blend=False``, or the held-out rows chose them alone).
    linear_ : Pipeline or None
        The linear rung refitted on every training row, None when ``tree_weight_ == 1``.
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
                 max_features=None, early_stopping=True, refit=True, validation_fraction=0.15,
                 n_ensembles=1, linear_blend=True, temperature_scaling=True, n_threads=None,
                 random_state=None):
        self.quality = quality
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.n_iter_no_change = n_iter_no_change
        self.max_features = max_features
        self.early_stopping = early_stopping
        self.refit = refit
        self.validation_fraction = validation_fraction
        self.n_ensembles = n_ensembles
        self.n_threads = n_threads
        self.linear_blend = linear_blend
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
        for name in ("temperature_scaling", "linear_blend"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                msg = f"{name} must be True or False, got {getattr(self, name)!r}."
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
        Xf = self._encode_high_cardinality(
            Xf, codes, rows, "binary" if self.classes_.shape[0] == 2 else "multiclass")

        def make_engines(seed, early):
            kwargs = self._engine_kwargs(params, seed, early)
            return [HistGradientBoostingClassifier(loss="log_loss", **kwargs)]

        members, held_out = self._fit_members(
            Xf, codes, w, rows, make_engines, stratify=True,
            linear="classification" if self.linear_blend else None)
        self.estimators_ = [m[0] for m in members]
        self.n_iter_ = self.n_iter_[:, 0]
        self.params_ = params
        self._fit_blend_and_temperature(Xf, codes, w, rows, held_out)
        del self._member_linears
        self._refit_members(members, Xf, codes, w, rows)
        self.estimators_ = [m[0] for m in members]
        return self

    def _fit_blend_and_temperature(self, Xf, codes, w, rows, held_out) -> None:
        """The trees' weight against the linear rung, then the temperature of the blend, both
        on the out-of-bag scores of the held-out rows."""
        self.linear_, self.tree_weight_ = None, 1.0
        if not self.validation_mask_.any():
            status = B.TEMPERATURE_OFF if not self.temperature_scaling else B.TEMPERATURE_NO_ROWS
            self.temperature_, self.temperature_status_ = 1.0, status
            return
        keep = self.validation_mask_
        y_val, w_val = codes[keep], None if w is None else w[keep]

        def trees(m, val):
            with self._threads():
                return self.estimators_[m].decision_function(Xf[val])

        z = self._out_of_bag(trees, held_out, Xf.shape[0])
        if self.linear_blend:
            z_lin = self._out_of_bag(
                lambda m, val: L.linear_scores(self._member_linears[m], Xf[val]),
                held_out, Xf.shape[0])
            self.tree_weight_ = L.fit_tree_weight(z_lin, z, y_val, w_val)
            z = L.blend_scores(z_lin, z, self.tree_weight_)
            if self.tree_weight_ < 1:  # refit on every row, now that the weight is chosen
                # with the members' median choice of C (the first member's, for one)
                cs = sorted(m[-1].C for m in self._member_linears if m is not None)
                self.linear_ = L.fit_linear(Xf, codes, w, rows, self._engine_mask,
                                            "classification", cs[(len(cs) - 1) // 2])
        if not self.temperature_scaling:
            self.temperature_, self.temperature_status_ = 1.0, B.TEMPERATURE_OFF
            return
        self.temperature_, self.temperature_status_ = B.fit_temperature(z, y_val, w_val)

    def _raw_scores(self, Xf, trees=None) -> np.ndarray:
        """The blend ``(1 - tree_weight_) * linear + tree_weight_ * trees`` before the
        temperature; ``trees`` (the members' mean score) is computed unless given."""
        if trees is None:
            with self._threads():
                trees = np.mean([e.decision_function(Xf) for e in self.estimators_], axis=0)
        if self.linear_ is None:
            return trees
        return L.blend_scores(L.linear_scores(self.linear_, Xf), trees, self.tree_weight_)

    def decision_function(self, X):
        """Temperature-scaled scores: log-odds (n,) for two classes, logits (n, K) else.

        ``decision_function(X) * temperature_`` gives the unscaled blend of the linear rung
        and the trees.
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
        for trees in staged:
            yield B.scores_to_proba(self._raw_scores(Xf, trees), self.temperature_)

    def predict(self, X):
        """The most probable class label for each row."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


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
