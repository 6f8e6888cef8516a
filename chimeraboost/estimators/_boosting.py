"""Private machinery behind the ChimeraBoost estimators.

Questions answered here, one helper each:

- Which engine settings does ``quality=q`` mean?  -> ``QUALITY_PRESETS``, ``engine_params``
- How does a table with string / categorical columns reach the engine?  -> ``ColumnEncoder``
- Which rows does a booster learn from, which ones judge it?  -> ``holdout_split``
- Which single temperature makes held-out probabilities honest, and when can the held-out
  rows not tell?  -> ``fit_temperature``, ``all_correct``
- How do raw scores become probabilities?  -> ``scores_to_proba``

The estimators (``_regressor``, ``_classifier``, ``_quantile``, on ``_base``) only orchestrate
these pieces; nothing here knows about scikit-learn's estimator API beyond ``check_array``.
"""

from __future__ import annotations

import numbers
from collections import Counter

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import expit, log_expit, logsumexp, softmax
from sklearn.model_selection import train_test_split
from sklearn.utils import check_array

from .._shared.validation import categorical_columns

# Speed/accuracy presets. Lower learning rates need more iterations and more patience before
# early stopping gives up; quality 3 is tuned to cost about what HistGradientBoosting's
# defaults cost (measured in benchmarks/run_benchmarks.py). max_features (the share of
# features each split may choose from) decorrelates successive trees; 0.5 lowered held-out
# log loss on digits by 9% and (with REGRESSION_REL_TOL) RMSE on 4 of 6 regression tables.
QUALITY_PRESETS = {
    1: dict(learning_rate=0.2, max_iter=100, max_leaf_nodes=15, min_samples_leaf=20,
            l2_regularization=0.0, n_iter_no_change=10, max_features=1.0),
    2: dict(learning_rate=0.15, max_iter=200, max_leaf_nodes=31, min_samples_leaf=20,
            l2_regularization=0.5, n_iter_no_change=15, max_features=1.0),
    3: dict(learning_rate=0.1, max_iter=300, max_leaf_nodes=31, min_samples_leaf=20,
            l2_regularization=1.0, n_iter_no_change=20, max_features=0.5),
    4: dict(learning_rate=0.05, max_iter=1000, max_leaf_nodes=31, min_samples_leaf=20,
            l2_regularization=1.0, n_iter_no_change=30, max_features=0.5),
    5: dict(learning_rate=0.025, max_iter=3000, max_leaf_nodes=63, min_samples_leaf=10,
            l2_regularization=1.0, n_iter_no_change=50, max_features=0.5),
}
ENGINE_PARAM_NAMES = tuple(QUALITY_PRESETS[3])

# A classifier's early stopping asks the held-out log loss to improve, over
# ``n_iter_no_change`` iterations, by at least this share of the no-skill log loss (the
# entropy of the class prior). scikit-learn's absolute default (1e-7) never fires on a
# separable split, whose held-out log loss creeps towards 0 for ever. For regressors 1e-3 of
# the variance of y stopped too early on tables with R^2 near 1 (RMSE worse than
# HistGradientBoosting on 4 of 6 tables of benchmarks/run_benchmarks.py).
EARLY_STOPPING_REL_TOL = 1e-3
# The squared-error regressor asks for 2e-5 of the variance of y, a thousand times less than a
# tolerance that stopped too early where R^2 is near 1; it saves the last iterations on large
# tables whose held-out error keeps improving by crumbs.
REGRESSION_REL_TOL = 2e-5
# A split holds out at least this many rows (a validation loss on fewer is noise), and only
# when twice as many are left to learn from; below that, no early stopping, no temperature.
MIN_VALIDATION_ROWS = 20
# HistGradientBoosting accepts category codes 0 .. max_bins - 1 (255 by default); rarer
# categories share the missing-value bin rather than failing the fit.
MAX_CATEGORIES = 254
# The temperature is searched on log T in this range: T from 1 to 50. A temperature only
# softens. Sharpening (T < 1) can be identified only from the held-out rows the booster gets
# wrong, which are few exactly when sharpening is tempting, and a wrong sharpening costs
# without bound in log loss (T -> 0 turns every probability into 0 or 1), a wrong softening
# only boundedly. Measured in benchmarks/bench_calibration.py (--strategies, map_both_ways):
# allowing T < 1 never lowered a table's mean held-out log loss and raised it on several.
LOG_T_BOUNDS = (0.0, np.log(50.0))
# Prior sd of log T: T = 1 is believed unless the held-out rows say otherwise; one sd is a
# factor of 1.65 (exp(0.5)).
LOG_T_PRIOR_SD = 0.5
# A held-out choice that departs from the default (the temperature from 1, the trees' weight
# in the blend from 0) is kept only when the held-out log likelihood ratio of the choice
# against the default, 2 * (loss at the default - loss at the choice) summed over the rows, is
# at least the 95% quantile of chi-squared with one degree of freedom: a likelihood-ratio test
# at 5%. On the benchmark panel the fitted temperature made the test log loss worse on 7 of 16
# tables and better on 2 (it is chosen on 20-1,500 held-out rows, for the first fit, and then
# applied to the refit on every row); with the test it departs from 1 on one
# (docs/estimators.md).
CHI2_1_95 = 3.841458820694124
# Scores are clipped to within this many nats of the winning class: no probability is
# exactly 0 or 1 (exp(-30) = 9e-14).
MAX_LOGIT = 30.0


def check_quality(quality) -> int:
    if isinstance(quality, (bool, np.bool_)) or not isinstance(quality, numbers.Integral):
        msg = f"quality must be an integer in 1..5, got {quality!r}."
        raise TypeError(msg)
    if quality not in QUALITY_PRESETS:
        msg = f"quality must be in 1..5 (1 fastest, 5 most accurate), got {quality}."
        raise ValueError(msg)
    return int(quality)


def engine_params(estimator) -> dict:
    """The preset for ``estimator.quality``, overridden by every explicit (non-None) value."""
    params = dict(QUALITY_PRESETS[check_quality(estimator.quality)])
    for name in ENGINE_PARAM_NAMES:
        value = getattr(estimator, name)
        if value is not None:
            params[name] = value
    _check_engine_params(params)
    return params


def _check_engine_params(params: dict) -> None:
    """Every preset parameter, checked whether it came from the preset or from the user."""
    checks = {
        "learning_rate": (numbers.Real, lambda v: v > 0, "> 0"),
        "max_iter": (numbers.Integral, lambda v: v >= 1, ">= 1"),
        "max_leaf_nodes": (numbers.Integral, lambda v: v >= 2, ">= 2"),
        "min_samples_leaf": (numbers.Integral, lambda v: v >= 1, ">= 1"),
        "l2_regularization": (numbers.Real, lambda v: v >= 0, ">= 0"),
        "n_iter_no_change": (numbers.Integral, lambda v: v >= 1, ">= 1"),
        "max_features": (numbers.Real, lambda v: 0 < v <= 1, "in (0, 1]"),
    }
    for name, (kind, ok, expected) in checks.items():
        value = params[name]
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, kind):
            msg = f"{name} must be a {kind.__name__} {expected} (or None), got {value!r}."
            raise TypeError(msg)
        if not ok(value):
            msg = f"{name} must be {expected}, got {value!r}."
            raise ValueError(msg)


def _is_dataframe(X) -> bool:
    return hasattr(X, "iloc") and hasattr(X, "dtypes") and hasattr(X, "columns")


def _is_missing(value) -> bool:
    return value is None or (isinstance(value, float) and value != value) or (
        type(value).__name__ in ("NAType", "NaTType")
    )


class ColumnEncoder:
    """Turns ``X`` into the float matrix the engine wants; categorical columns become codes.

    Categorical columns are those named or indexed in ``cat_features`` plus, for a pandas
    DataFrame, every column of category, object or string dtype. Codes are assigned by
    frequency in the training data (most frequent first); unseen and overflow categories
    become NaN, which the engine sends to its missing-value branch.
    """

    def fit(self, X, cat_features):
        self.is_frame_ = _is_dataframe(X)
        X = X if self.is_frame_ else check_array(X, dtype=None, ensure_all_finite=False)
        # One definition of "categorical" (dtype, or named in cat_features), shared with the
        # ladder of baselines.
        self.mask_ = categorical_columns(X, cat_features)
        self.mappings_ = {j: _fit_mapping(_column(X, j)) for j in np.flatnonzero(self.mask_)}
        return self

    def transform(self, X) -> np.ndarray:
        if not _is_dataframe(X):
            X = check_array(X, dtype=None, ensure_all_finite=False)
            if X.dtype.kind in "biuf":  # numeric: nothing to encode, no column to name
                return check_array(X, dtype=np.float64, ensure_all_finite="allow-nan")
        elif not self.mask_.any():
            return check_array(X, dtype=np.float64, ensure_all_finite="allow-nan")
        if X.shape[0] == 0:
            msg = "X is empty; at least one row is needed."
            raise ValueError(msg)
        out = np.empty((X.shape[0], X.shape[1]), dtype=np.float64)
        for j in range(X.shape[1]):
            col = _column(X, j)
            out[:, j] = _encode(col, self.mappings_[j]) if self.mask_[j] else _as_float(col, j)
        return out


def _column(X, j: int) -> np.ndarray:
    if _is_dataframe(X):
        return X.iloc[:, j].to_numpy(dtype=object)
    return X[:, j]


def _fit_mapping(values: np.ndarray) -> dict:
    counts = Counter(v for v in values.tolist() if not _is_missing(v))
    ranked = sorted(counts, key=lambda v: (-counts[v], str(v)))
    return {value: float(code) for code, value in enumerate(ranked[:MAX_CATEGORIES])}


def _encode(values: np.ndarray, mapping: dict) -> np.ndarray:
    try:
        return np.fromiter((mapping.get(v, np.nan) for v in values.tolist()),
                           dtype=np.float64, count=values.shape[0])
    except TypeError as exc:
        msg = f"A categorical column holds unhashable values: {exc}."
        raise TypeError(msg) from exc


def _as_float(values: np.ndarray, j: int) -> np.ndarray:
    try:
        col = np.array([np.nan if _is_missing(v) else v for v in values.tolist()],
                       dtype=np.float64) if values.dtype == object else values.astype(np.float64)
    except (TypeError, ValueError) as exc:
        msg = (f"Column {j} of X is not numeric ({exc}); if it is categorical, say so with "
               f"cat_features=[{j}] (or pass a DataFrame with a category / string column).")
        raise type(exc)(msg) from exc  # TypeError for objects, ValueError for text
    if np.isinf(col).any():
        msg = f"Column {j} of X contains infinity; missing values must be NaN."
        raise ValueError(msg)
    return col


def no_skill_log_loss(target: np.ndarray, weight) -> float:
    """Log loss of the constant forecast: the entropy of the (weighted) class prior of the
    integer codes ``target``."""
    prior = np.bincount(target, weights=weight) / (target.size if weight is None
                                                     else np.sum(weight))
    prior = prior[prior > 0]
    return float(-np.sum(prior * np.log(prior)))


# --------------------------------------------------------------------------------------------
# Held-out split


def holdout_split(n: int, fraction: float, seed: int, y_codes=None, fresh=None):
    """Indices (train, validation): ``fraction`` of the rows held out, at least
    ``MIN_VALIDATION_ROWS``, and none when fewer than twice that many would be left to learn
    from (below 60 rows).

    With ``y_codes`` the split is stratified, classes with a single row stay in training,
    and every class keeps at least one training row. With ``fresh`` (a boolean mask of the
    rows no earlier ensemble member held out) the validation rows are drawn from the fresh
    rows while enough are left, so that the members' held-out sets do not overlap and more
    rows are scored out of bag.
    """
    idx = np.arange(n)
    # A smaller share would leave too few rows to judge anything: small tables (60 to 133
    # rows at the default 15%) hold out 20 rows rather than none.
    n_val = max(int(round(fraction * n)), MIN_VALIDATION_ROWS)
    if n - n_val < 2 * MIN_VALIDATION_ROWS:
        return idx, idx[:0]
    eligible = np.ones(n, dtype=bool)
    if y_codes is not None:
        eligible = np.bincount(y_codes)[y_codes] >= 2
    if fresh is not None and np.count_nonzero(fresh & eligible) >= n_val:
        eligible = eligible & fresh
    pool = idx[eligible]
    try:
        _, val = train_test_split(pool, test_size=n_val, random_state=seed,
                                  stratify=None if y_codes is None else y_codes[pool])
    except ValueError:  # too few rows per class for a stratified split of this size
        _, val = train_test_split(pool, test_size=n_val, random_state=seed)
    val = np.sort(val)
    train = np.setdiff1d(idx, val)
    if y_codes is not None:
        missing = np.setdiff1d(np.unique(y_codes), y_codes[train])
        if missing.size:
            back = np.array([val[y_codes[val] == c][0] for c in missing])
            train, val = np.union1d(train, back), np.setdiff1d(val, back)
    return train, val


# --------------------------------------------------------------------------------------------
# Scores and temperature


def clip_scores(z: np.ndarray) -> np.ndarray:
    """Scores no further than ``MAX_LOGIT`` from the winning class (or from 0 for log-odds).

    A booster's raw score can reach hundreds on separable rows, which rounds a probability to
    exactly 0 or 1: one such row wrong in new data costs an infinite log loss. Within 30 nats
    no probability is exactly 0 or 1; the smallest is about ``exp(-30) = 9e-14``.
    """
    if z.ndim == 1:
        return np.clip(z, -MAX_LOGIT, MAX_LOGIT)
    return np.maximum(z, z.max(axis=1, keepdims=True) - MAX_LOGIT)


def scores_to_proba(raw: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Binary raw log-odds ``(n,)`` or multiclass logits ``(n, K)`` -> ``(n, K)`` probabilities,
    after dividing by ``temperature`` and clipping (:func:`clip_scores`)."""
    z = clip_scores(raw / temperature)
    if z.ndim == 1:
        p = expit(z)
        return np.column_stack([expit(-z), p])
    return softmax(z, axis=1)


def log_loss_at(raw: np.ndarray, y_codes: np.ndarray, weight, temperature: float) -> float:
    """Weighted mean log loss of ``scores_to_proba(raw, temperature)``, computed stably."""
    return float(np.average(_nll(raw, y_codes, temperature), weights=weight))


def _nll(raw, y_codes, temperature) -> np.ndarray:
    z = clip_scores(raw / temperature)
    if z.ndim == 1:
        # log p(y) = log sigmoid(z) for y=1 and log sigmoid(-z) for y=0.
        return -log_expit(np.where(y_codes == 1, z, -z))
    return logsumexp(z, axis=1) - z[np.arange(z.shape[0]), y_codes]


def all_correct(raw: np.ndarray, y_codes: np.ndarray) -> bool:
    """True when every row's own class has the strictly highest score (log-odds: right sign).

    Then each row's log loss falls as ``T`` falls, so held-out log loss has no minimum above
    ``T = 0``: the rows cannot identify a temperature.
    """
    if raw.ndim == 1:
        return bool(np.all(np.where(y_codes == 1, raw, -raw) > 0))
    own = raw[np.arange(raw.shape[0]), y_codes]
    others = raw.copy()
    others[np.arange(raw.shape[0]), y_codes] = -np.inf
    return bool(np.all(own > others.max(axis=1)))


TEMPERATURE_FITTED = "fitted"
TEMPERATURE_SEPARABLE = "refused: every held-out row is classified correctly"
TEMPERATURE_NO_ROWS = "refused: no held-out rows"
TEMPERATURE_OFF = "off"
TEMPERATURE_NOT_SIGNIFICANT = ("refused: the held-out rows do not show that it lowers the log "
                               "loss (likelihood-ratio test at 5%)")


def likelihood_ratio(raw_default, raw_choice, y_codes, weight, temperature=1.0) -> float:
    """``2 * sum(nll(default) - nll(choice))`` on held-out rows (weights of mean one): the
    log likelihood-ratio statistic of a held-out choice against the default, compared with
    ``CHI2_1_95``."""
    w = np.ones(y_codes.shape[0]) if weight is None else weight / np.mean(weight)
    return 2.0 * float(w @ (_nll(raw_default, y_codes, 1.0)
                            - _nll(raw_choice, y_codes, temperature)))


def fit_temperature(raw: np.ndarray, y_codes: np.ndarray, weight=None) -> tuple[float, str]:
    """The temperature ``T`` for ``softmax(raw / T)`` and how it was decided.

    Temperature scaling (Guo et al. 2017) rescales all scores by one number, so it cannot
    change the ranking of rows or the predicted class, only how confident the forecasts are.
    ``T`` maximises the held-out log likelihood plus a normal prior on ``log T`` (mean 0, sd
    ``LOG_T_PRIOR_SD``), over ``1 <= T <= 50``: a maximum a posteriori estimate, which the
    prior keeps near 1 when the held-out rows say little and which the data dominate as
    held-out rows accumulate. ``T`` never sharpens (see ``LOG_T_BOUNDS``). When every held-out
    row is classified correctly (:func:`all_correct`) the likelihood alone would drive ``T`` to
    0 and every probability to 0 or 1; the temperature is then refused: ``T = 1``. It is
    refused too when the held-out rows do not show that it helps: when the likelihood-ratio
    statistic of ``T`` against 1 (:func:`likelihood_ratio`) is below ``CHI2_1_95``.
    """
    if all_correct(raw, y_codes):
        return 1.0, TEMPERATURE_SEPARABLE
    w = np.ones(raw.shape[0]) if weight is None else weight / np.mean(weight)
    penalty = 0.5 / LOG_T_PRIOR_SD**2

    def objective(log_t):
        return float(w @ _nll(raw, y_codes, np.exp(log_t))) + penalty * log_t**2

    result = minimize_scalar(objective, bounds=LOG_T_BOUNDS, method="bounded",
                             options={"xatol": 1e-6})
    t = float(np.exp(result.x))
    if likelihood_ratio(raw, raw, y_codes, weight, t) < CHI2_1_95:
        return 1.0, TEMPERATURE_NOT_SIGNIFICANT
    return t, TEMPERATURE_FITTED
