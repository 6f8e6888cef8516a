"""Is the model any good, compared with what? The numbers, on arrays.

Pure functions: arrays in, floats and dicts out; no estimator is ever seen here. Every proper
score comes with the base rate of the rows it was computed on, the loss of the no-skill
forecast that base rate implies, and the skill ``1 - loss / reference``.

Questions worth asking, and which function answers each:

- How good are the probabilities, against knowing only the base rate?
  :func:`classification_report` (log loss and Brier with their references and skills),
  :func:`log_loss_skill`, :func:`brier_skill`.
- What does the no-skill forecast score at this base rate? :func:`reference_log_loss`,
  :func:`reference_brier` (closed forms), :func:`class_prior`.
- Are the probabilities calibrated, and how much do they discriminate?
  :func:`calibration_mcb`, :func:`calibration_decomposition` (CORP: MCB, DSC, UNC).
- Where are they off? :func:`reliability_curve` (the isotonic recalibration behind MCB, with
  a consistency band; :mod:`chimeraboost.plotting` draws it).
- Does the model put positives first? ``roc_auc`` and ``pr_auc`` in the reports,
  :func:`ranking_report` for models that give scores but no probabilities.
- If I can act on k cases, how many positives do I catch? :func:`recall_at_k`,
  :func:`precision_at_k` (ties at the cutoff shared fractionally).
- How far off are the numbers of a regressor, against predicting the mean?
  :func:`regression_report` (``r2`` and ``mae_skill``).
- What do I print? :func:`format_report`.

Every number is computed by an *evaluator* (:func:`classification_evaluator`,
:func:`regression_evaluator`) that sorts the scores once and then evaluates any number of
weight vectors; the bootstrap in ``resampling`` reuses exactly these definitions.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from . import _kernels
from ._format import format_report
from ._kernels import replicate_weights as _weights
from ._regression import RegressionEvaluator, regression_evaluator, regression_report
from ._reliability import ReliabilityCurve, reliability_curve
from ._validation import (
    binary_target,
    check_aligned,
    check_classes,
    check_k,
    check_numeric_1d,
    check_proba,
    check_same_length,
    check_sample_weight,
    encode_labels,
    finite_float,
    label_columns,
    unit_scale,
    warn_degenerate,
)

__all__ = [
    "class_prior",
    "reference_log_loss",
    "reference_brier",
    "log_loss",
    "brier_score",
    "log_loss_skill",
    "brier_skill",
    "calibration_mcb",
    "calibration_decomposition",
    "reliability_curve",
    "ReliabilityCurve",
    "recall_at_k",
    "precision_at_k",
    "classification_report",
    "ranking_report",
    "regression_report",
    "classification_evaluator",
    "regression_evaluator",
    "ClassificationEvaluator",
    "RegressionEvaluator",
    "format_report",
]

_EPS = np.finfo(np.float64).eps


# --------------------------------------------------------------------------- references


def _as_prior(prior, name: str = "prior") -> np.ndarray:
    try:
        p = np.atleast_1d(np.asarray(prior, dtype=np.float64))
    except (TypeError, ValueError):
        msg = (f"{name} must be a probability or a vector of class probabilities, got "
               f"{prior!r}.")
        raise TypeError(msg) from None
    if p.ndim != 1 or p.shape[0] == 0:
        msg = f"{name} must be a probability or a vector of class probabilities, got {prior!r}."
        raise ValueError(msg)
    if p.shape[0] == 1:
        p = np.array([1.0 - p[0], p[0]])
    if np.any(~np.isfinite(p)) or np.any(p < 0) or np.any(p > 1) or abs(p.sum() - 1) > 1e-6:
        msg = f"{name} must hold probabilities in [0, 1] summing to 1, got {prior!r}."
        raise ValueError(msg)
    return p


def reference_log_loss(prior, outcome_prior=None) -> float:
    """Log loss of the constant forecast ``prior``.

    Parameters
    ----------
    prior : float or array of shape (K,)
        The no-skill forecast: a positive-class rate (binary) or a class-probability vector.
    outcome_prior : float or array of shape (K,), default=None
        How often each class occurs in the rows scored. ``None`` means the same as ``prior``
        (the forecast is the rows' own base rate), which gives the entropy.

    Returns
    -------
    float
        The mean log loss (natural log) the constant forecast would get on rows with these
        class frequencies; ``inf`` if a class that occurs is forecast with probability 0.

    Notes
    -----
    ``-sum_k r_k log q_k`` with ``q`` the forecast and ``r`` the outcome frequencies; for
    ``q = r`` this is the entropy ``-sum_k q_k log q_k``: 0.367 at a 12% base rate. A class
    that never occurs (``r_k = 0``) adds nothing; a class that occurs but is forecast with
    probability ``q_k = 0`` makes the reference infinite (``inf``), and every skill against
    it undefined -- it is not clipped to a large finite number that would make any model
    look perfect.

    Examples
    --------
    At a 12% base rate the entropy is ``-(0.12 ln 0.12 + 0.88 ln 0.88) = 0.2544 + 0.1125``:

    >>> round(reference_log_loss(0.12), 3)
    0.367

    A coin-flip forecast costs ``ln 2 = 0.6931`` on every row, whatever the rows hold:

    >>> round(reference_log_loss(0.5, outcome_prior=0.12), 4)
    0.6931
    """
    q, r = _prior_pair(prior, outcome_prior)
    return float(_ref_log_loss(r[None], q)[0])


def reference_brier(prior, outcome_prior=None) -> float:
    """Brier score (sum over classes) of the constant forecast ``prior``.

    Parameters
    ----------
    prior : float or array of shape (K,)
        The no-skill forecast: a positive-class rate (binary) or a class-probability vector.
    outcome_prior : float or array of shape (K,), default=None
        How often each class occurs in the rows scored. ``None`` means the same as ``prior``
        (the forecast is the rows' own base rate).

    Returns
    -------
    float
        The mean K-sum Brier score the constant forecast would get on rows with these class
        frequencies, in [0, 2].

    Notes
    -----
    ``sum_k (q_k^2) - 2 r.q + 1`` with forecast ``q`` and outcome frequencies ``r``; for
    ``q = r`` this is ``1 - sum_k q_k^2``, i.e. ``2 q (1 - q)`` for a binary base rate ``q``
    (twice scikit-learn's single-column ``brier_score_loss`` of the constant forecast).

    Examples
    --------
    At a 12% base rate, ``2 x 0.12 x 0.88 = 0.2112``:

    >>> round(reference_brier(0.12), 4)
    0.2112

    A 50/50 forecast scores ``0.5^2 + 0.5^2 = 0.5`` on every row, whatever the rows hold:

    >>> round(reference_brier([0.5, 0.5], outcome_prior=[0.88, 0.12]), 4)
    0.5
    """
    q, r = _prior_pair(prior, outcome_prior)
    return float(_ref_brier(r[None], q)[0])


def _prior_pair(prior, outcome_prior):
    q = _as_prior(prior)
    r = q if outcome_prior is None else _as_prior(outcome_prior, "outcome_prior")
    if r.shape != q.shape:
        msg = (f"prior has {q.shape[0]} classes but outcome_prior has {r.shape[0]}; both "
               "must list the same classes in the same order.")
        raise ValueError(msg)
    return q, r


def _ref_log_loss(r: np.ndarray, q: np.ndarray) -> np.ndarray:
    """(B, K) outcome frequencies, (K,) or (B, K) forecast -> (B,) log loss; ``inf`` where a
    class that occurs is forecast with probability 0 (0 log 0 counts as 0)."""
    q = np.broadcast_to(q, r.shape)
    with np.errstate(divide="ignore"):
        terms = np.where(r > 0, -r * np.log(np.where(r > 0, q, 1.0)), 0.0)
    return np.sum(terms, axis=-1)


def _ref_brier(r: np.ndarray, q: np.ndarray) -> np.ndarray:
    return 1.0 - 2.0 * np.sum(r * q, axis=-1) + np.sum(q * q, axis=-1)


def _skill(loss: np.ndarray, ref: np.ndarray, undefined: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        skill = 1.0 - loss / ref
    return np.where(undefined | (ref <= 0), np.nan, skill)


# --------------------------------------------------------------------------- evaluators


class ClassificationEvaluator:
    """Validated classification data, sorted once; ``evaluate`` scores any weight vectors.

    Built by :func:`classification_evaluator`. Numbers that the model cannot give (log loss
    of a model without probabilities) are NaN.
    """

    def __init__(self, codes, classes, sample_weight, proba, score, pred, base_prior, k):
        self.codes, self.classes = codes, classes
        self.n, self.n_classes = codes.shape[0], classes.shape[0]
        # Weights are kept on a unit scale (exactly: a power of two), so that sums and
        # products of them neither underflow nor overflow; positives are scaled back.
        self.sample_weight, self._weight_scale = unit_scale(sample_weight)
        self.base_prior, self.k = base_prior, k
        self.has_proba = proba is not None
        binary = self.n_classes == 2
        if proba is not None:
            # In place, with one row-length temporary: at 10^7 rows every copy is 80 MB.
            p_true = np.take_along_axis(proba, codes[:, None], axis=1)[:, 0]
            # sum_k p_k^2 - 2 p_true + 1, column by column (einsum over a short inner axis is
            # slower).
            brier, tmp = np.square(proba[:, 0]), np.empty_like(p_true)
            for j in range(1, self.n_classes):
                brier += np.square(proba[:, j], out=tmp)
            brier -= np.multiply(p_true, 2.0, out=tmp)
            brier += 1.0
            del tmp
            self._brier_row = brier
            np.clip(p_true, _EPS, 1 - _EPS, out=p_true)
            self._log_loss_row = np.negative(np.log(p_true, out=p_true), out=p_true)
            score = proba[:, 1] if binary else proba
            # The predicted class is the first of the largest probabilities, as np.argmax.
            pred = (proba[:, 1] > proba[:, 0]).astype(np.int8) if binary else np.argmax(proba, 1)
        self.pred = pred
        # One sort per score column, shared by ROC-AUC, PR-AUC, recall@k and isotonic fits.
        # Binary problems need the positive class only (class 0 is its mirror image).
        self._score = score
        self._ranks_cache = None
        self._auc_only = None
        self._curves_cache = self._sq_cache = self._row_matrix = None

    @property
    def _curves(self):
        # Per score column (one for binary problems, one per class otherwise): every ranking
        # and calibration number of that column's event from one sort and two cumulative sums
        # per weight vector (_kernels.BinaryCurves). None without scores.
        if self._curves_cache is None and self._score is not None:
            if self._score.ndim == 1:
                self._curves_cache = [
                    _kernels.BinaryCurves(self._score, self.codes == 1, self.pred)]
            else:
                self._curves_cache = [_kernels.BinaryCurves(s, self.codes == j)
                                      for j, s in enumerate(self._score.T)]
        return self._curves_cache

    @property
    def _ranks(self):
        # The sort is the expensive part; built on first use, so that log loss, Brier and
        # their skills alone (the scorers' numbers) never pay for it.
        if self._ranks_cache is None:
            self._ranks_cache = []
            score = self._score
            if score is not None:
                columns = [(1, score)] if score.ndim == 1 else list(enumerate(score.T))
                for j, s in columns:
                    event = (self.codes == j).astype(np.float64)
                    sq = (s - event) ** 2 if self.has_proba else None
                    self._ranks_cache.append((event, _kernels.GroupSums(s), sq))
        return self._ranks_cache

    def evaluate(self, counts=None, warn: bool = True, metrics=None) -> dict:
        """Every number for each weight vector: dict of (B,) arrays ((B, K) for priors).

        ``counts`` (B, n) multiplies the sample weights (bootstrap resampling counts);
        ``None`` evaluates the data as given (B = 1). ``metrics`` (key names, default all)
        computes only the groups of numbers those keys belong to; the dict then holds at
        least those keys plus ``base_rate`` and ``positives``. ``metrics=["roc_auc"]`` on a
        binary problem takes a lean path (:class:`_kernels.BinaryRocAuc`), same number.
        """
        W = _weights(self.sample_weight, counts, self.n)
        want = _EVALUATOR_KEYS if metrics is None else self._check_keys(metrics)
        if want <= {"roc_auc", "base_rate", "positives"} and self._score is not None and (
            self._score.ndim == 1
        ):
            return self._roc_auc_only(W)
        ws = W.sum(axis=1)
        K = self.n_classes
        rows = self._row_sums(W)
        r = _kernels.fraction(rows["class"], ws[:, None])
        single = np.sum(r > 0, axis=1) < 2
        out = {"base_rate": r[:, 1] if K == 2 else r,
               "positives": r[:, -1] * ws * self._weight_scale}
        sums, curves = [], None
        if want & (_CORP_KEYS | _RANKING_KEYS) and self._curves is not None:
            corp = bool(want & _CORP_KEYS) and self.has_proba
            curves = [c(W, corp=corp) for c in self._curves]
        elif want & (_CORP_KEYS | _RANKING_KEYS):
            # Per class: weight of events and of all rows in each group of tied scores.
            sums = [(rank.sums(W * event), rank.sums(W)) for event, rank, _ in self._ranks]
        if want & _CORP_KEYS:
            out.update(self._proper_scores(W, ws, r, single, sums, curves, rows))
        elif want & _PROPER_KEYS:
            # Without probabilities there is no loss to compute: NaN, as in the full report.
            out.update(self._losses(W, ws, r, single, rows) if self.has_proba else
                       dict.fromkeys(_PROPER_KEYS - _CORP_KEYS, np.full(W.shape[0], np.nan)))
        if want & _RANKING_KEYS:
            out.update(self._ranking(W, r, sums, curves))
        if want & _THRESHOLD_KEYS:
            out.update(self._thresholds(W, ws, curves))
        if warn:
            self._warn(want, r[0], single[0], out)
        return out

    def _warn(self, want, r, single, out) -> None:
        """One warning per degenerate case of the first weight vector, saying what is NaN."""
        undefined = ["ROC-AUC"] if want & {"roc_auc"} and self._score is not None else []
        if self.base_prior is None:
            undefined += [k for k in ("log_loss_skill", "brier_skill") if k in want]
        if single and undefined:
            label = _plain(self.classes[int(np.argmax(r))])
            why = "" if self.base_prior is not None else (
                " (skills are measured against y's own base rate, which is then certain)")
            warn_degenerate(f"y holds a single class ({label!r}): {', '.join(undefined)} "
                            f"{'is' if len(undefined) == 1 else 'are'} undefined{why}: NaN.")
        if self.base_prior is not None:
            perfect = [k for k in ("log_loss", "brier")
                       if f"{k}_skill" in want and out.get(f"{k}_ref", [1.0])[0] <= 0]
            if perfect:
                warn_degenerate(
                    f"The reference prior forecasts every row of y perfectly (its {perfect[0]} "
                    f"is 0): {', '.join(k + '_skill' for k in perfect)} undefined (NaN).")
        absent = [_plain(c) for c, rk in zip(self.classes, r) if rk <= 0]
        if self.n_classes > 2 and absent and not single and want & {"roc_auc", "pr_auc"} \
                and self._score is not None:
            warn_degenerate(f"y holds no rows of class(es) {absent}: the macro one-vs-rest "
                            "ROC-AUC and PR-AUC over all classes are undefined (NaN).")
        ref = out.get("log_loss_ref")
        if ref is not None and np.isinf(ref[0]) and "log_loss_skill" in want:
            zero = [_plain(c) for c, q, rk in zip(self.classes, self.base_prior, r)
                    if q == 0 and rk > 0]
            warn_degenerate(
                f"The reference prior gives class(es) {zero} probability 0, but y holds them: "
                "the no-skill forecast's log loss is infinite, so log_loss_skill is undefined "
                "(NaN). Use a baseline in which every class occurs, or the Brier skill."
            )

    @staticmethod
    def _check_keys(metrics) -> set:
        want = {metrics} if isinstance(metrics, str) else set(metrics)
        unknown = sorted(want - _EVALUATOR_KEYS)
        if unknown:
            msg = f"metrics contains unknown names {unknown}; known: {sorted(_EVALUATOR_KEYS)}."
            raise ValueError(msg)
        return want

    def _roc_auc_only(self, W) -> dict:
        """Binary ROC-AUC alone: the lean kernel, same number (the bootstrap's hot path)."""
        if self._auc_only is None:
            self._auc_only = _kernels.BinaryRocAuc(self._score, self.codes == 1)
        res = self._auc_only(W)
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = res["pos"] / (res["pos"] + res["neg"])
        return {"base_rate": rate, "positives": res["pos"], "roc_auc": res["roc_auc"]}

    def _row_sums(self, W) -> dict:
        """Weighted sums of per-row quantities, for each weight vector: ``class`` (B, K) class
        weights, and with probabilities ``log_loss``, ``brier`` and (binary) ``sq``, the sums
        of the per-row losses. One matrix-vector product each (faster than one product with
        a stacked matrix when B is small)."""
        K = self.n_classes
        cols = [self._log_loss_row, self._brier_row] if self.has_proba else []
        out = {key: W @ col for key, col in zip(("log_loss", "brier"), cols)}
        if self._curves is not None and self.has_proba:
            out["sq"] = np.stack([W @ col for col in self._ranks_sq(W.shape[0] > 1)], axis=1)
        if W.shape[0] == 1 or self.n * K > _ROW_MATRIX_MAX:
            out["class"] = _kernels.dense_group_sums(self.codes, K, W)
            return out
        if self._row_matrix is None:
            # Class indicators, kept for the bootstrap's many weight vectors.
            self._row_matrix = [(self.codes == j).astype(np.float64) for j in range(K)]
        out["class"] = np.stack([W @ col for col in self._row_matrix], axis=1)
        return out

    def _proper_scores(self, W, ws, r, single, sums, curves=None, rows=None) -> dict:
        nan = np.full(W.shape[0], np.nan)
        keys = ("log_loss", "log_loss_ref", "log_loss_skill", "brier", "brier_ref",
                "brier_skill", "calibration_mcb", "discrimination_dsc", "uncertainty_unc")
        if not self.has_proba:
            return dict.fromkeys(keys, nan)
        out = self._losses(W, ws, r, single, rows)
        if curves is not None:
            sq_err = rows["sq"] if rows is not None else self._row_sums(W)["sq"]
            parts = [_kernels.corp_terms(sq_err[:, j], c["sq_iso"], c["pos"], c["pos"] + c["neg"])
                     for j, c in enumerate(curves)]
            corp = {key: np.stack([p[key] for p in parts], axis=1) for key in parts[0]}
        else:
            corp = self.decomposition(W, sums)
        out["calibration_mcb"] = corp["mcb"].mean(axis=1)
        out["discrimination_dsc"] = corp["dsc"].mean(axis=1)
        out["uncertainty_unc"] = corp["unc"].mean(axis=1)
        return out

    def _losses(self, W, ws, r, single, rows=None) -> dict:
        """Log loss and Brier with their references and skills: no sort needed."""
        q = r if self.base_prior is None else self.base_prior
        undefined = single if self.base_prior is None else np.zeros_like(single)
        rows = self._row_sums(W) if rows is None else rows
        out = {"log_loss": rows["log_loss"] / ws, "log_loss_ref": _ref_log_loss(r, q)}
        out["brier"] = rows["brier"] / ws
        out["brier_ref"] = _ref_brier(r, q)
        out["log_loss_skill"] = _skill(out["log_loss"], out["log_loss_ref"],
                                       undefined | np.isinf(out["log_loss_ref"]))
        out["brier_skill"] = _skill(out["brier"], out["brier_ref"], undefined)
        return out

    def decomposition(self, W, sums=None) -> dict:
        """Per-class CORP decomposition: dict of (B, K') arrays, K' = 1 for binary.

        For binary problems class 0's decomposition equals class 1's (``1 - p`` against
        ``1 - o`` is the mirror image), so only the positive class is computed.
        """
        if sums is None:
            sums = [(rank.sums(W * event), rank.sums(W)) for event, rank, _ in self._ranks]
        parts = {"score": [], "mcb": [], "dsc": [], "unc": []}
        for (_, rank, sq), (events, tot) in zip(self._ranks, sums):
            res = _kernels.corp_decomposition(rank.values, events, tot, W @ sq)
            for key in parts:
                parts[key].append(res[key])
        return {key: np.stack(v, axis=1) for key, v in parts.items()}

    def _ranks_sq(self, keep: bool = True) -> list:
        """Per score column: squared error ``(p_k - o_k)^2`` of the class's forecast, per row
        (kept for the bootstrap's many weight vectors when ``keep``)."""
        if self._sq_cache is not None:
            return self._sq_cache
        columns = [self._score] if self._score.ndim == 1 else list(self._score.T)
        first = 1 if self._score.ndim == 1 else 0
        sq = []
        for j, col in enumerate(columns):
            d = np.subtract(col, self.codes == j + first)
            sq.append(np.square(d, out=d))  # in place: one row-length array per column
        if keep:
            self._sq_cache = sq
        return sq

    def _ranking(self, W, r, sums, curves=None) -> dict:
        B = W.shape[0]
        if self._score is None:
            nan = np.full(B, np.nan)
            return {"roc_auc": nan, "pr_auc": nan, "pr_auc_lift": nan}
        if curves is not None:
            stats = curves
            if self.k is not None:
                sums = [(rank.sums(W * event), rank.sums(W)) for event, rank, _ in self._ranks]
        else:
            stats = [_kernels.binary_rank_stats(pos, tot) for pos, tot in sums]
        out = {
            "roc_auc": _mean_defined([s["roc_auc"] for s in stats]),
            "pr_auc": _mean_defined([s["pr_auc"] for s in stats]),
        }
        if self.n_classes > 2:
            # A class without rows has no one-vs-rest curve: the macro average over the
            # classes is undefined (scikit-learn's roc_auc_score(labels=...) says NaN too),
            # not the average over the classes that happen to be present.
            absent = np.any(r <= 0, axis=1)
            out["roc_auc"] = np.where(absent, np.nan, out["roc_auc"])
            out["pr_auc"] = np.where(absent, np.nan, out["pr_auc"])
        if self.n_classes == 2:
            with np.errstate(invalid="ignore", divide="ignore"):
                out["pr_auc_lift"] = out["pr_auc"] / r[:, 1]
            if self.k is not None:
                pos, tot = sums[0]
                out.update(_kernels.top_k_stats(pos, tot, self._ranks[0][1].counts, self.k))
        return out

    def _thresholds(self, W, ws, curves=None) -> dict:
        B, K = W.shape[0], self.n_classes
        if self.pred is None:
            nan = np.full(B, np.nan)
            return {"accuracy": nan, "balanced_accuracy": nan, "f1_macro": nan}
        curves = curves[0] if curves is not None else None
        if curves is not None and "tp_cut" in curves:
            # The flagged rows are the highest-scored: the confusion matrix is read off the
            # cumulative sums at the cut.
            tp1, fp1 = curves["tp_cut"], curves["fp_cut"]
            cm = np.stack([np.stack([curves["neg"] - fp1, fp1], axis=1),
                           np.stack([curves["pos"] - tp1, tp1], axis=1)], axis=1)
        else:
            cm = _kernels.dense_group_sums(self.codes * K + self.pred, K * K, W).reshape(B, K, K)
        tp = np.diagonal(cm, axis1=1, axis2=2)
        actual, predicted = cm.sum(axis=2), cm.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            recall = np.where(actual > 0, _kernels.fraction(tp, actual), np.nan)
            # F1 = 2TP / (2TP + FP + FN); labels absent from y and from the predictions
            # are left out of the macro average, as in sklearn's f1_score.
            f1 = np.where(
                actual + predicted > 0, _kernels.fraction(2 * tp, actual + predicted), np.nan
            )
        return {
            "accuracy": _kernels.fraction(tp.sum(axis=1), ws),
            "balanced_accuracy": _mean_defined(list(recall.T)),
            "f1_macro": _mean_defined(list(f1.T)),
        }


# Above this many elements (rows x classes) the class indicators are not kept for the
# bootstrap (memory); the class weights are then summed through a one-hot matrix per call.
_ROW_MATRIX_MAX = 20_000_000

# Which keys each group of ClassificationEvaluator numbers produces (for evaluate(metrics=)).
_PROPER_KEYS = frozenset({
    "log_loss", "log_loss_ref", "log_loss_skill", "brier", "brier_ref", "brier_skill",
    "calibration_mcb", "discrimination_dsc", "uncertainty_unc",
})
_CORP_KEYS = frozenset({"calibration_mcb", "discrimination_dsc", "uncertainty_unc"})
_RANKING_KEYS = frozenset({"roc_auc", "pr_auc", "pr_auc_lift", "recall_at_k", "precision_at_k"})
_THRESHOLD_KEYS = frozenset({"accuracy", "balanced_accuracy", "f1_macro"})
_EVALUATOR_KEYS = _PROPER_KEYS | _RANKING_KEYS | _THRESHOLD_KEYS | {"base_rate", "positives"}


def _mean_defined(columns) -> np.ndarray:
    """Row-wise mean over the defined (non-NaN) entries; NaN where none is defined."""
    a = np.stack(columns, axis=1)
    ok = ~np.isnan(a)
    cnt = ok.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(cnt > 0, np.where(ok, a, 0.0).sum(axis=1) / cnt, np.nan)


def _plain(value):
    """A label as Python shows it: 1, 'a' -- never np.int64(1)."""
    return value.item() if isinstance(value, np.generic) else value


def _prior_of(codes, n_classes, weight=None) -> np.ndarray:
    counts = np.bincount(codes, weights=weight, minlength=n_classes)
    return counts / counts.sum()


def classification_evaluator(
    y, classes, *, proba=None, score=None, y_pred=None, sample_weight=None, baseline=None,
    k=None,
) -> ClassificationEvaluator:
    """Validate once, sort once; return an evaluator whose ``evaluate(counts)`` gives numbers.

    The evaluator is what every report and the bootstrap use: ``evaluate(counts)`` scores
    any number of weight vectors (bootstrap resampling counts) with one definition and one
    sort of the scores.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels, each one of ``classes``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    proba : array-like of shape (n, K), or (n,) for binary, default=None
        Predicted probabilities, columns in the order of ``classes``.
    score : array-like of shape (n,) or (n, K), default=None
        A decision function, used where ``proba`` is not given: 1-D for binary (higher
        means ``classes[1]``), (n, K) otherwise.
    y_pred : array-like of shape (n,), default=None
        Hard labels, for accuracy and F1 when there are no probabilities.
    sample_weight : array-like of shape (n,), default=None
    baseline : None, array-like of targets, or mapping, default=None
        The no-skill forecast: ``None`` for the class prior of ``y`` itself, targets (e.g.
        ``y_train``) for their class prior, or ``{label: probability}`` naming every class.
    k : int or float, default=None
        Binary only: also compute recall and precision at ``k`` (rows, or a fraction).

    Returns
    -------
    ClassificationEvaluator
        ``evaluate(counts=None, warn=True, metrics=None)`` returns a dict of arrays with one
        entry per weight vector, under the keys of :func:`classification_report`.

    Examples
    --------
    Two weight vectors at once: the data as given, and a resample that drew the first and
    the last row twice each. The K-sum Brier of the rows is ``2 x (0.04, 0.16, 0.16,
    0.01)``; the first mean is 0.185, the second ``(2 x 0.08 + 2 x 0.02) / 4 = 0.05``.

    >>> ev = classification_evaluator([0, 0, 1, 1], [0, 1], proba=[0.2, 0.4, 0.6, 0.9])
    >>> out = ev.evaluate(counts=[[1, 1, 1, 1], [2, 0, 0, 2]])
    >>> out["brier"].round(4).tolist()
    [0.185, 0.05]
    """
    check_aligned(y=y, proba=proba, score=score, y_pred=y_pred, sample_weight=sample_weight)
    classes = check_classes(classes)
    K = classes.shape[0]
    codes = encode_labels(y, classes, "y")
    n = codes.shape[0]
    if proba is not None:
        proba = check_proba(proba, classes, "proba")
        check_same_length(y=codes, proba=proba)
    if score is not None:
        score = _check_score(score, classes, codes)
    pred = None
    if y_pred is not None:
        pred = encode_labels(y_pred, classes, "y_pred")
        check_same_length(y=codes, y_pred=pred)
    w = check_sample_weight(sample_weight, n)
    base_prior = None if baseline is None else _baseline_prior(baseline, classes)
    k_rows = None
    if k is not None:
        if K != 2:
            msg = f"k (recall@k) needs a binary problem; there are {K} classes."
            raise ValueError(msg)
        k_rows = check_k(k, n)
    return ClassificationEvaluator(codes, classes, w, proba, score, pred, base_prior, k_rows)


def _baseline_prior(baseline, classes) -> np.ndarray:
    """The no-skill forecast in the order of ``classes``: from targets (their class
    frequencies) or from a mapping ``{label: probability}`` naming every class."""
    if isinstance(baseline, Mapping):
        labels = check_classes(list(baseline.keys()), "baseline labels")
        probs = _as_prior(list(baseline.values()), "baseline probabilities")
        if probs.shape[0] != labels.shape[0] or set(labels.tolist()) != set(classes.tolist()):
            msg = (f"baseline gives probabilities for {labels.tolist()} but the classes are "
                   f"{classes.tolist()}; name every class exactly once.")
            raise ValueError(msg)
        prior = np.empty(classes.shape[0])
        prior[encode_labels(labels, classes, "baseline labels")] = probs
        return prior
    return _prior_of(encode_labels(baseline, classes, "baseline"), classes.shape[0])


def _check_score(score, classes, codes):
    n_classes = classes.shape[0]
    order = label_columns(score, classes, "score")
    arr = np.asarray(score.to_numpy() if hasattr(score, "to_numpy") else score)
    if order is not None:
        arr = arr[:, order]
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim == 1:
        if n_classes != 2:
            msg = f"score is 1-D but there are {n_classes} classes; pass an (n, {n_classes}) array."
            raise ValueError(msg)
        arr = check_numeric_1d(arr, "score")
    else:
        if arr.ndim != 2 or arr.shape[1] != n_classes:
            msg = f"score must be 1-D (binary) or (n, {n_classes}); got shape {arr.shape}."
            raise ValueError(msg)
        arr = finite_float(arr, "score")
    check_same_length(y=codes, score=arr)
    return arr


def _point(ev_out: dict) -> dict:
    """B = 1 evaluation -> plain floats (priors as arrays)."""
    return {
        key: (float(v[0]) if v.ndim == 1 else v[0].copy()) for key, v in ev_out.items()
    }


def classification_report(y, proba, classes, sample_weight=None, baseline=None, k=None) -> dict:
    """Every classification number of a probabilistic model, with its reference.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed), each one of ``classes``.
    proba : array-like of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes``; a 1-D array is the
        probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None
    baseline : array-like of targets, default=None
        Where the no-skill forecast's class prior comes from. ``None``: the scored ``y``
        itself (weighted); the skills then equal ``sklearn.metrics.d2_log_loss_score`` and
        ``d2_brier_score``. ``y_train``: the prior the model could have known.
    k : int or float, default=None
        Binary only: also report ``recall_at_k`` and ``precision_at_k``.

    Returns
    -------
    dict
        ``n``, ``classes``, ``base_rate`` (binary: the rate of ``classes[1]``; multiclass:
        the prior vector), ``positives`` (weight of ``classes[1]`` / the last class),
        ``reference_prior``, ``log_loss``, ``log_loss_ref``, ``log_loss_skill``, ``brier``
        (sum over classes), ``brier_ref``, ``brier_skill``, ``calibration_mcb``,
        ``discrimination_dsc``, ``uncertainty_unc`` (class averages; for each class
        ``brier_k = MCB_k - DSC_k + UNC_k``), ``accuracy``, ``balanced_accuracy``,
        ``f1_macro``, ``roc_auc``, ``pr_auc`` (binary: average precision; multiclass: macro
        one-vs-rest), and for binary ``pr_auc_lift`` (``pr_auc / base_rate``).

    Examples
    --------
    Squared errors of the positive column are .04, .16, .16, .01: the K-sum Brier is
    2 x 0.0925 = 0.185, the reference at a 50% base rate is 0.5, the skill 1 - 0.37 = 0.63.

    >>> r = classification_report([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1])
    >>> round(r["brier"], 4), round(r["brier_skill"], 4), r["roc_auc"]
    (0.185, 0.63, 1.0)
    """
    _require_proba(proba)
    ev = classification_evaluator(
        y, classes, proba=proba, sample_weight=sample_weight, baseline=baseline, k=k
    )
    return _finish_classification(ev)


def ranking_report(y, score, classes, sample_weight=None, y_pred=None, k=None) -> dict:
    """The numbers of a model that ranks but gives no probabilities.

    Log loss, Brier and calibration are NaN: without probabilities there is nothing to judge
    them on. Ranking (``roc_auc``, ``pr_auc``, recall at ``k``) needs ``score``; accuracy
    and F1 need ``y_pred``.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels, each one of ``classes``.
    score : array-like of shape (n,) or (n, K), or None
        A decision function: 1-D for binary (higher means ``classes[1]``), (n, K)
        otherwise.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None
    y_pred : array-like of shape (n,), default=None
        Hard labels, for ``accuracy``, ``balanced_accuracy`` and ``f1_macro``.
    k : int or float, default=None
        Binary only: also report ``recall_at_k`` and ``precision_at_k``.

    Returns
    -------
    dict
        The keys of :func:`classification_report`, with NaN for the numbers that need
        probabilities.

    Examples
    --------
    Of the four (positive, negative) pairs, the positive scores higher in three: 0.2 beats
    -1.0 but not 0.5, 2.0 beats both; ROC AUC is 3 / 4.

    >>> r = ranking_report([0, 0, 1, 1], [-1.0, 0.5, 0.2, 2.0], classes=[0, 1])
    >>> r["roc_auc"], bool(np.isnan(r["brier"]))
    (0.75, True)
    """
    if score is None and y_pred is None:
        msg = "ranking_report needs score or y_pred."
        raise ValueError(msg)
    ev = classification_evaluator(
        y, classes, score=score, y_pred=y_pred, sample_weight=sample_weight, k=k
    )
    return _finish_classification(ev)


def _finish_classification(ev: ClassificationEvaluator) -> dict:
    out = {"n": ev.n, "classes": ev.classes}
    out.update(_point(ev.evaluate()))
    out["reference_prior"] = (
        ev.base_prior if ev.base_prior is not None else np.atleast_1d(out["base_rate"])
    )
    if ev.n_classes == 2 and out["reference_prior"].shape[0] == 1:
        rate = out["reference_prior"][0]
        out["reference_prior"] = np.array([1 - rate, rate])
    out["reference"] = "prior of y" if ev.base_prior is None else "prior of baseline"
    return out


# --------------------------------------------------------------------------- single numbers


def class_prior(y, classes, sample_weight=None) -> np.ndarray:
    """Weighted frequency of each of ``classes`` in ``y``: the no-skill forecast.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, each one of ``classes``.
    classes : array-like of shape (K,)
        The class labels; the result follows their order.
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    ndarray of shape (K,)
        The share of (weighted) rows in each class; sums to 1.

    Examples
    --------
    Three "no" and one "yes"; with weights 1, 3, 1, 1 each class carries a weight of 3:

    >>> class_prior(["no", "yes", "no", "no"], classes=["no", "yes"])
    array([0.75, 0.25])
    >>> class_prior(["no", "yes", "no", "no"], classes=["no", "yes"], sample_weight=[1, 3, 1, 1])
    array([0.5, 0.5])
    """
    check_aligned(y=y, sample_weight=sample_weight)
    classes = check_classes(classes)
    codes = encode_labels(y, classes, "y")
    w = check_sample_weight(sample_weight, codes.shape[0])
    return _prior_of(codes, classes.shape[0], unit_scale(w)[0])


def _require_proba(proba) -> None:
    if proba is None:
        msg = ("proba is None; pass predicted probabilities (predict_proba output). For a "
               "model that only ranks, use ranking_report with its decision_function.")
        raise TypeError(msg)


def _one(y, proba, classes, sample_weight, baseline, key) -> float:
    _require_proba(proba)
    ev = classification_evaluator(
        y, classes, proba=proba, sample_weight=sample_weight, baseline=baseline
    )
    return float(ev.evaluate(metrics=[key])[key][0])


def log_loss(y, proba, classes, sample_weight=None) -> float:
    """Mean negative log-likelihood (natural log); equals ``sklearn.metrics.log_loss``.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed), each one of ``classes``.
    proba : array-like of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes``; a 1-D array is the
        probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    float
        ``-mean(log p_y)``, the probability given to the class that occurred, weighted;
        probabilities are clipped to ``[eps, 1 - eps]`` as in scikit-learn.

    Examples
    --------
    The probabilities given to what happened are 0.8, 0.6, 0.6 and 0.9:
    ``(0.2231 + 0.5108 + 0.5108 + 0.1054) / 4 = 0.3375``.

    >>> round(log_loss([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1]), 4)
    0.3375
    """
    return _one(y, proba, classes, sample_weight, None, "log_loss")


def brier_score(y, proba, classes, sample_weight=None) -> float:
    """Mean over rows of ``sum_k (p_k - 1[y = k])^2`` (binary: twice sklearn's Brier).

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed), each one of ``classes``.
    proba : array-like of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes``; a 1-D array is the
        probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    float
        The weighted mean K-sum Brier score, in [0, 2]; 0 is perfect.

    Examples
    --------
    Squared errors of the positive column are 0.04, 0.16, 0.16, 0.01 (mean 0.0925, which
    is scikit-learn's ``brier_score_loss``); the negative column's are the same, so the
    K-sum is ``2 x 0.0925``:

    >>> round(brier_score([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1]), 4)
    0.185
    """
    return _one(y, proba, classes, sample_weight, None, "brier")


def log_loss_skill(y, proba, classes, sample_weight=None, baseline=None) -> float:
    """``1 - log_loss / reference_log_loss``: 0 = no better than the prior, 1 = perfect.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed), each one of ``classes``.
    proba : array-like of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes``; a 1-D array is the
        probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None
    baseline : None, array-like of targets, or mapping, default=None
        The no-skill forecast. ``None``: the class prior of the scored ``y`` itself
        (weighted), the conservative reading. Targets (e.g. ``y_train``): their class prior,
        what a forecaster who knew only the training data would say. ``{label:
        probability}``: a fixed prior naming every class (e.g. a published base rate).

    Returns
    -------
    float
        The log-loss skill; negative when the model is worse than the no-skill forecast,
        NaN (with a ``DegenerateMetricWarning``) when the reference loss is zero or
        infinite. With ``baseline=None`` it equals ``sklearn.metrics.d2_log_loss_score``.

    Examples
    --------
    The log loss is 0.3375 (see :func:`log_loss`); at a 50% base rate the reference is
    ``ln 2 = 0.6931``, so the skill is ``1 - 0.3375 / 0.6931 = 0.513``:

    >>> round(log_loss_skill([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1]), 3)
    0.513
    """
    return _one(y, proba, classes, sample_weight, baseline, "log_loss_skill")


def brier_skill(y, proba, classes, sample_weight=None, baseline=None) -> float:
    """``1 - brier / reference_brier`` (the Brier skill score); equals ``d2_brier_score``.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed), each one of ``classes``.
    proba : array-like of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes``; a 1-D array is the
        probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None
    baseline : None, array-like of targets, or mapping, default=None
        The no-skill forecast. ``None``: the class prior of the scored ``y`` itself
        (weighted), the conservative reading. Targets (e.g. ``y_train``): their class prior,
        what a forecaster who knew only the training data would say. ``{label:
        probability}``: a fixed prior naming every class (e.g. a published base rate).

    Returns
    -------
    float
        The Brier skill; negative when the model is worse than the no-skill forecast, NaN
        (with a ``DegenerateMetricWarning``) when the reference loss is zero. With
        ``baseline=None`` it equals ``sklearn.metrics.d2_brier_score``.

    Examples
    --------
    The Brier score is 0.185 (see :func:`brier_score`); the rows' own 50% prior scores
    ``2 x 0.5 x 0.5 = 0.5``, so the skill is ``1 - 0.185 / 0.5 = 0.63``:

    >>> y, p = [0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9]
    >>> round(brier_skill(y, p, classes=[0, 1]), 4)
    0.63

    Against a training prior of 25% positives, whose Brier score on these rows is
    ``0.75^2 + 0.25^2 - 2 (0.5 x 0.75 + 0.5 x 0.25) + 1 = 0.625``, the skill is
    ``1 - 0.185 / 0.625 = 0.704``:

    >>> round(brier_skill(y, p, classes=[0, 1], baseline=[0, 0, 0, 1]), 4)
    0.704
    """
    return _one(y, proba, classes, sample_weight, baseline, "brier_skill")


def calibration_decomposition(y, proba, classes, sample_weight=None) -> dict:
    """CORP decomposition of the Brier score, per class and averaged over classes.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed), each one of ``classes``.
    proba : array-like of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes``; a 1-D array is the
        probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    dict
        ``mcb``, ``dsc``, ``unc``, ``score`` (floats: class averages, ``score = MCB - DSC +
        UNC`` is the mean per-class Brier term, i.e. ``brier / K``) and ``per_class``: a dict
        of the same four as arrays of shape (K,), in the order of ``classes``.

    Notes
    -----
    Dimitriadis, Gneiting & Jordan (2021), PNAS 118(8), doi:10.1073/pnas.2016191118. For
    each class, the forecast ``p_k`` of the event ``y = k`` is recalibrated by weighted
    isotonic regression (pool-adjacent-violators; forecasts within 1e-15 pooled as in
    scikit-learn's ``IsotonicRegression``). ``MCB = S(p) - S(recalibrated)``, ``DSC =
    S(event rate) - S(recalibrated)``, ``UNC = S(event rate)`` with ``S`` the mean squared
    error. MCB >= 0 with equality for an isotonically calibrated forecast.

    Examples
    --------
    The forecasts 0.2, 0.4, 0.6, 0.9 of the event ``y = 1`` already rank the outcomes
    0, 0, 1, 1 perfectly, so their isotonic recalibration is the outcomes themselves (score
    0). MCB is the forecasts' own mean squared error ``(0.04 + 0.16 + 0.16 + 0.01) / 4 =
    0.0925``; UNC is that of the 50% event rate, 0.25; DSC ``= 0.25 - 0 = 0.25``. The class
    ``y = 0`` is the mirror image, so the averages are the same, and ``0.0925 - 0.25 + 0.25``
    is ``brier / K = 0.185 / 2``.

    >>> d = calibration_decomposition([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1])
    >>> [round(d[key], 4) for key in ("mcb", "dsc", "unc", "score")]
    [0.0925, 0.25, 0.25, 0.0925]
    """
    _require_proba(proba)
    ev = classification_evaluator(y, classes, proba=proba, sample_weight=sample_weight)
    per = {key: v[0] for key, v in ev.decomposition(_weights(ev.sample_weight, None, ev.n)).items()}
    if ev.n_classes == 2:
        per = {key: np.repeat(v, 2) for key, v in per.items()}
    out = {key: float(v.mean()) for key, v in per.items()}
    out["per_class"] = per
    return out


def calibration_mcb(y, proba, classes, sample_weight=None) -> float:
    """Miscalibration (CORP MCB) averaged over classes; 0 = calibrated.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels (strings allowed), each one of ``classes``.
    proba : array-like of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes``; a 1-D array is the
        probability of ``classes[1]``.
    classes : array-like of shape (K,)
        The class labels, e.g. the fitted model's ``classes_``.
    sample_weight : array-like of shape (n,), default=None

    Returns
    -------
    float
        The Brier score the forecasts would save by isotonic recalibration, averaged over
        classes; >= 0. See :func:`calibration_decomposition` for the definition.

    Examples
    --------
    A forecast of 0.5 on every row of a 50% base rate is calibrated (its recalibration is
    itself) although it has no skill; the example of :func:`calibration_decomposition`
    has MCB 0.0925:

    >>> round(calibration_mcb([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5], classes=[0, 1]), 4)
    0.0
    >>> round(calibration_mcb([0, 0, 1, 1], [0.2, 0.4, 0.6, 0.9], classes=[0, 1]), 4)
    0.0925
    """
    return calibration_decomposition(y, proba, classes, sample_weight)["mcb"]


def _top_k(y, score, k, sample_weight, pos_label, key) -> float:
    check_aligned(y=y, score=score, sample_weight=sample_weight)
    target = binary_target(y, pos_label).astype(np.float64)
    s = check_numeric_1d(score, "score")
    n = check_same_length(y=target, score=s)
    w = unit_scale(check_sample_weight(sample_weight, n))[0]
    k_rows = check_k(k, n)
    W = _weights(w, None, n)
    rank = _kernels.GroupSums(s)
    stats = _kernels.top_k_stats(rank.sums(W * target), rank.sums(W), rank.counts, k_rows)
    if np.isnan(stats[key][0]):
        shown = "" if pos_label is None else f" (pos_label={_plain(pos_label)!r})"
        warn_degenerate(f"y has no positives{shown}: recall@k is undefined (NaN).")
    return float(stats[key][0])


def recall_at_k(y, score, k, sample_weight=None, pos_label=None) -> float:
    """Share of the positives (weighted) found among the ``k`` highest-scored rows.

    Ties at the cutoff are shared fractionally (the expected value under random
    tie-breaking), so a 0/1 rule flagging 500 rows gets recall@400 = 0.8 x recall@500.
    Works on any score.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels: bool, 0/1 or -1/1 (positive: True / 1), or any labels with
        ``pos_label``.
    score : array-like of shape (n,)
        Any score that ranks the rows, higher first (a probability, a decision function).
    k : int or float
        A number of rows, or a float in (0, 1) for that fraction of the rows.
    sample_weight : array-like of shape (n,), default=None
    pos_label : label, default=None
        The label of the positive class; needed when ``y`` holds other labels (strings
        such as "no"/"yes").

    Returns
    -------
    float
        Positive weight among the top ``k`` rows over all positive weight; NaN (with a
        ``DegenerateMetricWarning``) when ``y`` has no positives.

    Examples
    --------
    The top row (0.9) is a positive; the second place is shared by the two rows tied at
    0.5, one positive and one not, so it holds half a positive in expectation: ``1.5`` of
    the 2 positives, recall 0.75. ``k=0.5`` is half of the 4 rows, the same cutoff.

    >>> y, score = [1, 1, 0, 0], [0.9, 0.5, 0.5, 0.1]
    >>> recall_at_k(y, score, k=2), recall_at_k(y, score, k=0.5)
    (0.75, 0.75)
    >>> recall_at_k(["yes", "yes", "no", "no"], score, k=1, pos_label="yes")
    0.5
    """
    return _top_k(y, score, k, sample_weight, pos_label, "recall_at_k")


def precision_at_k(y, score, k, sample_weight=None, pos_label=None) -> float:
    """Share of positives (weighted) among the ``k`` highest-scored rows.

    Ties at the cutoff as in :func:`recall_at_k`; with weights, the expected positive
    weight over the expected weight in the top ``k``.

    Parameters
    ----------
    y : array-like of shape (n,)
        True labels: bool, 0/1 or -1/1 (positive: True / 1), or any labels with
        ``pos_label``.
    score : array-like of shape (n,)
        Any score that ranks the rows, higher first (a probability, a decision function).
    k : int or float
        A number of rows, or a float in (0, 1) for that fraction of the rows.
    sample_weight : array-like of shape (n,), default=None
    pos_label : label, default=None
        The label of the positive class; needed when ``y`` holds other labels (strings
        such as "no"/"yes").

    Returns
    -------
    float
        Positive weight among the top ``k`` rows over all weight there, in [0, 1].

    Examples
    --------
    As in :func:`recall_at_k`, the top 2 rows hold 1.5 positives in expectation:
    ``1.5 / 2 = 0.75``. The top 3 hold all 2 positives: ``2 / 3``.

    >>> y, score = [1, 1, 0, 0], [0.9, 0.5, 0.5, 0.1]
    >>> precision_at_k(y, score, k=2), round(precision_at_k(y, score, k=3), 4)
    (0.75, 0.6667)
    """
    return _top_k(y, score, k, sample_weight, pos_label, "precision_at_k")

