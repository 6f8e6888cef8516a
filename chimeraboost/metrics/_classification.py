"""The classification evaluator: validated labels and scores, sorted once, any weights.

Re-exported by :mod:`chimeraboost.metrics` (``classification_evaluator``,
``ClassificationEvaluator``), whose public functions are built on it; this module exists to
keep ``metrics`` short, as ``_regression`` does for regression. Every classification number --
log loss and Brier with their references and skills, the CORP decomposition, ROC and PR AUC,
top-k, threshold metrics -- is defined here once, for a ``(B, n)`` matrix of weights, so the
point estimate (``B = 1``) and every bootstrap replicate share one definition.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping

import numpy as np

from .._shared.api import public
from . import _curves
from ._formulas import _mean_defined, confusion_numbers, warn_cases
from . import _kernels
from ._kernels import replicate_weights as _weights
# The per-row losses and the proper scores from sums are shared with the layers that sum
# rows their own way (the slices): one definition.
from .._shared.scores import proper_scores, row_brier, row_log_loss, row_pred, true_class_proba
from .._shared.validation import (
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
)

__all__ = ["ClassificationEvaluator", "classification_evaluator", "as_prior", "prior_of"]


def as_prior(prior, name: str = "prior") -> np.ndarray:
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
        # Per-row losses and predicted classes are computed on first use (_loss_rows,
        # pred): a scorer of the Brier skill needs neither the log loss nor a sort.
        self._proba, self._pred, self._loss_cache = proba, pred, {}
        if proba is not None:
            score = proba[:, 1] if binary else proba
        # One sort per score column, shared by ROC-AUC, PR-AUC, recall@k and isotonic fits.
        # Binary problems need the positive class only (class 0 is its mirror image).
        self._score = score
        self._ranks_cache = None
        self._auc_only = None
        self._curves_cache = self._sq_cache = self._row_matrix = None

    @property
    def pred(self):
        """Predicted class codes of the rows (from ``proba`` where given), or None."""
        if self._pred is None and self.has_proba:
            self._pred = row_pred(self._proba)
        return self._pred

    def _loss_rows(self, which) -> list:
        """Per-row losses named in ``which`` (``"log_loss"``, ``"brier"``), computed on
        first use and kept; the two share one gather of the true class's probability."""
        missing = [key for key in which if key not in self._loss_cache]
        if missing:
            p_true = true_class_proba(self._proba, self.codes)
            if "brier" in missing:  # first: the log loss is computed in p_true's memory
                self._loss_cache["brier"] = row_brier(self._proba, p_true)
            if "log_loss" in missing:
                self._loss_cache["log_loss"] = row_log_loss(p_true)
        return [self._loss_cache[key] for key in which]

    @property
    def _curves(self):
        # Per score column (one for binary problems, one per class otherwise): every ranking
        # and calibration number of that column's event from one sort and two cumulative sums
        # per weight vector (_curves.BinaryCurves). None without scores.
        if self._curves_cache is None and self._score is not None:
            if self._score.ndim == 1:
                self._curves_cache = [
                    _curves.BinaryCurves(self._score, self.codes == 1, self.pred)]
            else:
                self._curves_cache = [_curves.BinaryCurves(s, self.codes == j)
                                      for j, s in enumerate(self._score.T)]
        return self._curves_cache

    @property
    def _ranks(self):
        # The sort is the expensive part; built on first use, so that log loss, Brier and
        # their skills alone (the scorers' numbers) never pay for it.
        if self._ranks_cache is None:
            ranks = []
            score = self._score
            if score is not None:
                columns = [(1, score)] if score.ndim == 1 else list(enumerate(score.T))
                for j, s in columns:
                    event = (self.codes == j).astype(np.float64)
                    sq = (s - event) ** 2 if self.has_proba else None
                    ranks.append((event, _kernels.GroupSums(s), sq))
            # Assigned once complete: a bootstrap's worker threads read the cache (every
            # lazily built attribute here is built whole, then assigned).
            self._ranks_cache = ranks
        return self._ranks_cache

    @public(legacy=("warn", "metrics"))
    def evaluate(self, counts=None, *, warn: bool = True, metrics=None, work=None) -> dict:
        """Every number for each weight vector: dict of (B,) arrays ((B, K) for priors).

        ``counts`` (B, n) multiplies the sample weights (bootstrap resampling counts);
        ``None`` evaluates the data as given (B = 1). ``metrics`` (key names, default all)
        computes only the groups of numbers those keys belong to; the dict then holds at
        least those keys plus ``base_rate`` and ``positives``. ``metrics=["roc_auc"]`` on a
        binary problem takes a lean path (:class:`_curves.BinaryRocAuc`), same number.
        ``work`` (a :class:`_kernels.Workspace`) keeps the row-length buffers from one call
        to the next; the bootstrap passes one per run, shared by the evaluators it runs.
        """
        W = _weights(self.sample_weight, counts, self.n, integer=True, work=work)
        want = _EVALUATOR_KEYS if metrics is None else self._check_keys(metrics)
        if want <= {"roc_auc", "base_rate", "positives"} and self._score is not None and (
            self._score.ndim == 1
        ):
            return self._roc_auc_only(W, work)
        K = self.n_classes
        sums, curves = [], None
        if want & (_CORP_KEYS | _RANKING_KEYS) and self._curves is not None:
            corp = bool(want & _CORP_KEYS) and self.has_proba
            # Rows as given, without sample weights: every weight is 1 (the curves' lean path).
            unit = counts is None and self.sample_weight is None
            curves = [c(None if unit else W, corp=corp, work=work) for c in self._curves]
        # Integer counts served the sorted kernels; sums of per-row losses need floats.
        W = _kernels.as_float(W, work)
        if want & (_CORP_KEYS | _RANKING_KEYS) and curves is None:
            # Per class: weight of events and of all rows in each group of tied scores.
            sums = [(rank.sums(W * event), rank.sums(W)) for event, rank, _ in self._ranks]
        rows = self._row_sums(W, want, curves)
        ws = rows["class"].sum(axis=1) if curves is not None else W.sum(axis=1)
        empty = ~(ws > 0)
        # A replicate that drew only rows of zero weight has no numbers: its 0 / 0 are NaN
        # (silently), and so is everything else below, a reference loss of 0 included, so
        # that it is left out of the percentiles like a one-class replicate.
        some_empty = bool(empty.any())
        quiet = np.errstate(invalid="ignore", divide="ignore")
        with quiet if some_empty else contextlib.nullcontext():
            out, r, single = self._numbers(W, ws, rows, sums, curves, want, K)
        if some_empty:
            for key, v in out.items():
                if v.shape[:1] == empty.shape and v.dtype.kind == "f":
                    out[key] = np.where(empty.reshape((-1,) + (1,) * (v.ndim - 1)), np.nan, v)
        if warn:
            self._warn(want, r[0], single[0], out)
        return out

    def _numbers(self, W, ws, rows, sums, curves, want, K):
        """``(numbers, class shares r, single-class flags)`` of :meth:`evaluate`."""
        r = _kernels.fraction(rows["class"], ws[:, None])
        single = np.sum(r > 0, axis=1) < 2
        out = {"base_rate": r[:, 1] if K == 2 else r,
               "positives": r[:, -1] * ws * self._weight_scale}
        if want & _PROPER_KEYS:
            out.update(self._proper_scores(W, ws, r, single, sums, curves, rows, want))
        if want & _RANKING_KEYS:
            out.update(self._ranking(W, r, sums, curves))
        if want & _THRESHOLD_KEYS:
            out.update(self._thresholds(W, ws, curves))
        return out, r, single

    def _warn(self, want, r, single, out) -> None:
        """One warning per degenerate case of the first weight vector (:func:`warn_cases`)."""
        warn_cases(self.classes, self.base_prior, self._score is not None, want, r, single, out)

    @staticmethod
    def _check_keys(metrics) -> set:
        want = {metrics} if isinstance(metrics, str) else set(metrics)
        unknown = sorted(want - _EVALUATOR_KEYS)
        if unknown:
            msg = f"metrics contains unknown names {unknown}; known: {sorted(_EVALUATOR_KEYS)}."
            raise ValueError(msg)
        return want

    def _roc_auc_only(self, W, work=None) -> dict:
        """Binary ROC-AUC alone: the lean kernel, same number (the bootstrap's hot path)."""
        if self._auc_only is None:
            self._auc_only = _curves.BinaryRocAuc(self._score, self.codes == 1)
        res = self._auc_only(W, work)
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = res["pos"] / (res["pos"] + res["neg"])
        return {"base_rate": rate, "positives": res["pos"] * self._weight_scale,
                "roc_auc": res["roc_auc"]}

    def _row_sums(self, W, want, curves=None) -> dict:
        """Weighted sums of per-row quantities, for each weight vector: ``class`` (B, K) class
        weights (read off the sorted kernels' cumulative sums when ``curves`` are given), and
        with probabilities the sums of the per-row losses that ``want`` needs: ``log_loss``,
        ``brier`` and (for the CORP terms) ``sq`` (B, score columns). One matrix-vector
        product each (faster than one product with a stacked matrix when B is small)."""
        K, many = self.n_classes, W.shape[0] > 1
        out = {}
        if self.has_proba:
            which = [key for key in ("log_loss", "brier") if want & _LOSS_KEYS[key]]
            out = {key: W @ col for key, col in zip(which, self._loss_rows(which))}
            if want & _CORP_KEYS:
                out["sq"] = np.stack([W @ col for col in self._ranks_sq(many)], axis=1)
        if curves is not None:
            out["class"] = (np.stack([curves[0]["neg"], curves[0]["pos"]], axis=1) if K == 2
                            else np.stack([c["pos"] for c in curves], axis=1))
        elif not many or self.n * K > _ROW_MATRIX_MAX:
            out["class"] = _kernels.dense_group_sums(self.codes, K, W)
        else:
            if self._row_matrix is None:
                # Class indicators, kept for the bootstrap's many weight vectors.
                self._row_matrix = [(self.codes == j).astype(np.float64) for j in range(K)]
            out["class"] = np.stack([W @ col for col in self._row_matrix], axis=1)
        return out

    def _proper_scores(self, W, ws, r, single, sums, curves, rows, want) -> dict:
        """Log loss, Brier (references, skills) and the CORP terms: the groups ``want``
        names, and only those (a scorer's one number costs one group)."""
        groups = [key for key in ("log_loss", "brier") if want & _LOSS_KEYS[key]]
        if not self.has_proba:
            # Without probabilities there is no loss to compute: NaN, as in the full report.
            keys = [k for g in groups for k in sorted(_LOSS_KEYS[g])]
            keys += sorted(_CORP_KEYS) if want & _CORP_KEYS else []
            return dict.fromkeys(keys, np.full(W.shape[0], np.nan))
        out = proper_scores(rows.get("log_loss"), rows.get("brier"), ws, r, single,
                            self.base_prior)
        if not want & _CORP_KEYS:
            return out
        if curves is not None:
            parts = [_kernels.corp_terms(rows["sq"][:, j], c["sq_iso"], c["pos"],
                                         c["pos"] + c["neg"]) for j, c in enumerate(curves)]
            if len(parts) == 1:  # binary: the positive class's terms are the averages
                corp = {key: v[:, None] for key, v in parts[0].items()}
            else:
                corp = {key: np.stack([p[key] for p in parts], axis=1) for key in parts[0]}
        else:
            corp = self.decomposition(W, sums=sums)
        out["calibration_mcb"] = corp["mcb"].mean(axis=1)
        out["discrimination_dsc"] = corp["dsc"].mean(axis=1)
        out["uncertainty_unc"] = corp["unc"].mean(axis=1)
        return out

    @public(legacy=("sums",))
    def decomposition(self, W, *, sums=None) -> dict:
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
            cm = np.empty((B, 2, 2))
            cm[:, 0, 0], cm[:, 0, 1] = curves["neg"] - fp1, fp1
            cm[:, 1, 0], cm[:, 1, 1] = curves["pos"] - tp1, tp1
        else:
            cm = _kernels.dense_group_sums(self.codes * K + self.pred, K * K, W).reshape(B, K, K)
        return confusion_numbers(cm, ws)


# Above this many elements (rows x classes) the class indicators are not kept for the
# bootstrap (memory); the class weights are then summed through a one-hot matrix per call.
_ROW_MATRIX_MAX = 20_000_000

# Which keys each group of ClassificationEvaluator numbers produces (for evaluate(metrics=)).
_PROPER_KEYS = frozenset({
    "log_loss", "log_loss_ref", "log_loss_skill", "brier", "brier_ref", "brier_skill",
    "calibration_mcb", "discrimination_dsc", "uncertainty_unc",
})
_CORP_KEYS = frozenset({"calibration_mcb", "discrimination_dsc", "uncertainty_unc"})
# The numbers each per-row loss serves: a loss's sum is computed when one of them is asked for.
_LOSS_KEYS = {"log_loss": frozenset({"log_loss", "log_loss_ref", "log_loss_skill"}),
              "brier": frozenset({"brier", "brier_ref", "brier_skill"})}
_RANKING_KEYS = frozenset({"roc_auc", "pr_auc", "pr_auc_lift", "recall_at_k", "precision_at_k"})
_THRESHOLD_KEYS = frozenset({"accuracy", "balanced_accuracy", "f1_macro"})
_EVALUATOR_KEYS = _PROPER_KEYS | _RANKING_KEYS | _THRESHOLD_KEYS | {"base_rate", "positives"}


def prior_of(codes, n_classes, weight=None) -> np.ndarray:
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
        probs = as_prior(list(baseline.values()), "baseline probabilities")
        if probs.shape[0] != labels.shape[0] or set(labels.tolist()) != set(classes.tolist()):
            msg = (f"baseline gives probabilities for {labels.tolist()} but the classes are "
                   f"{classes.tolist()}; name every class exactly once.")
            raise ValueError(msg)
        prior = np.empty(classes.shape[0])
        prior[encode_labels(labels, classes, "baseline labels")] = probs
        return prior
    return prior_of(encode_labels(baseline, classes, "baseline"), classes.shape[0])


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
