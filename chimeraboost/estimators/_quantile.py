"""*I need a predictive interval, not a point*: ``ChimeraBoostQuantileRegressor``.

One pinball-loss booster per quantile level, the grid sorted row by row at prediction time so
that the quantiles never cross (Chernozhukov, Fernandez-Val & Galichon 2010).

References
----------
Chernozhukov, V., Fernandez-Val, I. & Galichon, A. (2010). Quantile and probability curves
without crossing. Econometrica 78(3), 1093-1125. https://doi.org/10.3982/ECTA7880
"""

from __future__ import annotations

import numpy as np
from sklearn.base import RegressorMixin
from sklearn.ensemble import HistGradientBoostingRegressor

from ._base import _COMMON_PARAMS_DOC, _ChimeraBoostBase, _check_target
from .._report import ReportMixin
from ..quantile_metrics import crps_skill
from .._shared.quantile_checks import check_quantile_levels


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
                 early_stopping=True, refit=True, validation_fraction=0.15, n_ensembles=1,
                 n_threads=None, random_state=None):
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
        self.refit = refit
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
        Xf = self._encode_high_cardinality(Xf, y, rows, "continuous")

        def make_engines(seed, early):
            kwargs = self._engine_kwargs(params, seed, early)
            return [HistGradientBoostingRegressor(loss="quantile", quantile=q, **kwargs)
                    for q in levels]

        self.estimators_, _ = self._fit_members(Xf, y, w, rows, make_engines, stratify=False)
        del self._member_linears
        self._refit_members(self.estimators_, Xf, y, w, rows)
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
