"""Gradient-boosted estimators that are good by default.

Questions this module answers:

- *I want a strong tabular model without tuning* -> ``ChimeraBoostRegressor`` /
  ``ChimeraBoostClassifier`` with the default ``quality=3``.
- *Is it ever worse than a plain linear model?* -> both carry the ladder's linear rung and
  blend it with the trees by a weight the held-out rows choose (``tree_weight_``).
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
stopping, the linear blend and calibration, a refit on every row, bagging, categorical and
target encoding and temperature scaling -- no tree code.

Where each piece lives (private modules; import from here):

- ``_base``: the fitting loop the three share (checks, encoding, held-out split, bagging), the
  sample-weight rescaling, the ``n_threads`` limit and the parameters common to all three.
- ``_regressor``: ``ChimeraBoostRegressor`` and its losses.
- ``_classifier``: ``ChimeraBoostClassifier``, its temperature and its label checks.
- ``_quantile``: ``ChimeraBoostQuantileRegressor``.
- ``_boosting``: presets, column encoding, the split, the temperature fit (no estimator API).
- ``_linear``: the linear rung and the held-out choice of the trees' weight.
- ``_target_encoding``: cross-fitted target encoding of high-cardinality categoricals.

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

from ._base import WEIGHT_SCALE_RANGE
from ._classifier import ChimeraBoostClassifier
from ._quantile import ChimeraBoostQuantileRegressor
from ._regressor import REGRESSION_LOSSES, ChimeraBoostRegressor

# Private, re-exported because a test reads it from here (the engine-fitting step it spies on
# lives in _base, where _ChimeraBoostBase._fit_members looks it up).
from ._base import _fit_engine

__all__ = ["ChimeraBoostRegressor", "ChimeraBoostClassifier", "ChimeraBoostQuantileRegressor"]
