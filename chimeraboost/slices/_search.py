"""Where is the model weak, without knowing where to look? :func:`find_weak_slices`.

Questions this module answers:

- *Which slices are candidates?* -> ``_Column`` / ``_candidates``: every level of a
  categorical column (missing values included), every quantile range of a numeric column and
  every one-sided cut at its inner edges (``age < 45``, ``age >= 45``), and with
  ``max_depth=2`` every conjunction of two conditions on different columns; on the columns
  of ``columns`` (all of ``X`` by default) but those of ``exclude`` (``_search_columns``).
- *How weak is each, on the search half?* -> ``_statistic``: the slice's ``metric`` minus the
  rest's, and the standard error of that difference (the delta method on sums over rows:
  every candidate's sums come from one pass per pair of columns over their cells).
  Candidates are ranked by how much worse they are *at least* -- the difference plus two
  standard errors -- so that a tiny, noisy slice does not beat a large, truly weak one.
- *How weak is it really?* -> the numbers of the slices found are computed on the other half
  of the rows, which the search never saw (:func:`slice_report`'s engine): the selection
  cannot flatter them, and their tests are adjusted for the number of slices reported.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import resampling
from ..resampling import DEFAULT_CI_METHOD
from .._shared.units import resampled
from .._shared.estimator_outputs import predict_outputs
from .._shared.validation import (
    as_1d,
    check_level,
    check_positive_int,
    check_random_state_int,
    check_rows,
    check_sample_weight,
)
from . import _compute
from ._groups import Slicing, column, column_names, levels, piece
from ._inputs import Output
from ._slice_report import _assemble, _check_adjust, _check_halves, _check_metric, _eligible, _reference
from ._result import SliceReport

__all__ = ["find_weak_slices"]

# Conditions proposed per categorical column: its most frequent levels (a column of ids would
# otherwise propose one slice per id, each too small to say anything).
MAX_LEVELS = 50
# A proposal that shares this share of its rows (or of the other's, the smaller of the two)
# with a proposal ranked above it is the same finding, and is dropped.
SAME_FINDING = 0.8
# Candidates are ranked by how much worse than the rest they are at least: the difference
# plus this many standard errors (one-sided 97.7%). Ranking by the difference alone puts the
# noisiest tiny slices first; ranking by z = difference / se puts the most precisely
# measured ones first, however slight their weakness.
MARGIN = 2.0


class _Column:
    """One column's cells (levels, or quantile ranges and missing) and the conditions on it,
    each a set of cells: ``ind`` (conditions, cells) 0/1."""

    def __init__(self, col, name: str, bins):
        self.name = name
        self.codes, texts, edges = levels(col, name, bins)
        L = len(texts)
        labels, sets = [], []
        order = np.argsort(-np.bincount(self.codes, minlength=L), kind="stable")
        for j in sorted(order[:MAX_LEVELS].tolist()):
            labels.append(piece(name, texts[j]))
            sets.append([j])
        if edges is not None:
            # One-sided cuts at the inner edges; the outermost equal a single range.
            ranges = len(edges) - 1
            for i in range(2, ranges):
                labels.append(f"{name} < {edges[i]}")
                sets.append(list(range(i)))
            for i in range(1, ranges - 1):
                labels.append(f"{name} >= {edges[i]}")
                sets.append(list(range(i, ranges)))
        self.labels = labels
        self.ind = np.zeros((len(sets), L))
        for c, cells in enumerate(sets):
            self.ind[c, cells] = 1.0
        self.n_cells = L


# --------------------------------------------------------------------------- the statistic


def _features(model: Output, metric: str):
    """(names, (n, f) matrix) of the per-row numbers whose sums give ``metric`` and the
    variance of its estimate (delta method)."""
    w = model.rows["weight"]
    f = {"w": w, "w2": w * w, "one": np.ones_like(w)}
    if metric == "r2":
        u = model.per_row["yc"]
        scale = float(np.sqrt(np.average(u * u, weights=w))) or 1.0
        u = u / scale
        loss = model.per_row["sq"] / (scale * scale)
        for name, v in (("u", u), ("u2", u * u), ("l", loss)):
            f[f"w{name}"] = w * v
        for name, v in (("u", u), ("u2", u * u), ("u3", u ** 3), ("u4", u ** 4), ("l", loss),
                        ("l2", loss * loss), ("ul", u * loss), ("u2l", u * u * loss)):
            f[f"w2{name}"] = w * w * v
    else:
        K = len(model.classes)
        per_row = model.per_row[_LOSS_ROW[metric.removesuffix("_vs_all")]]
        f["wl"] = w * per_row
        f["w2l"] = w * w * per_row
        f["w2l2"] = w * w * per_row * per_row
        for k in range(K):  # per class: rows, weight, and the squared weights' sums
            o = model.codes == k
            f[f"rows_{k}"] = o.astype(np.float64)
            f[f"w_{k}"] = w * o
            f[f"w2_{k}"] = w * w * o
            f[f"w2l_{k}"] = w * w * per_row * o
    names = list(f)
    return names, np.column_stack([f[k] for k in names])


_LOSS_ROW = {"brier_skill": "brier", "log_loss_skill": "log_loss", "accuracy": "correct"}


def _statistic(S: dict, metric: str, K: int, prior=None):
    """(value, variance) of ``metric`` for rows known by their sums ``S`` (arrays); a
    ``*_vs_all`` skill is against the fixed ``prior`` (classification) or the mean of all
    rows (regression, on which y is centred)."""
    W = S["w"]
    with np.errstate(invalid="ignore", divide="ignore"):
        L = S.get("wl", np.zeros_like(W)) / W
        if metric == "accuracy":
            var = ((1 - 2 * L) * S["w2l"] + L * L * S["w2"]) / (W * W)
            return L, var
        if metric.startswith("r2"):
            return _r2_statistic(S, W, fixed=metric.endswith("_vs_all"))
        r = np.stack([S[f"w_{k}"] for k in range(K)], axis=-1) / W[..., None]
        R, a = _constant_forecast(metric, r, prior)
        # The skill 1 - L / R(r): its influence on a row of class k with loss l is
        # (h_k - l) / R, h_k = L + (L / R)(a_k - sum_j r_j a_j), a = dR/dr.
        c = np.sum(r * a, axis=-1)
        h = L[..., None] + (L / R)[..., None] * (a - c[..., None])
        q0 = np.stack([S[f"w2_{k}"] for k in range(K)], axis=-1)
        q1 = np.stack([S[f"w2l_{k}"] for k in range(K)], axis=-1)
        total = np.sum(h * h * q0 - 2 * h * q1, axis=-1) + S["w2l2"]
        var = total / (R * R * W * W)
        single = (np.sum(r > 0, axis=-1) < 2) & (prior is None or not metric.endswith("_vs_all"))
        value = np.where(single | (R <= 0), np.nan, 1.0 - L / R)
        return value, var


def _constant_forecast(metric: str, r, prior):
    """(reference loss R, its gradient dR/dr) of the constant forecast: the rows' own class
    shares ``r``, or for a ``*_vs_all`` skill the fixed ``prior``."""
    if metric.endswith("_vs_all"):
        q = np.broadcast_to(prior, r.shape)
        if metric.startswith("brier"):
            return 1.0 - 2.0 * np.sum(r * q, axis=-1) + np.sum(q * q, axis=-1), -2.0 * q
        logq = np.log(np.where(q > 0, q, 1.0))
        return -np.sum(r * logq, axis=-1), -logq
    logr = np.log(np.where(r > 0, r, 1.0))
    if metric.startswith("brier"):
        return 1.0 - np.sum(r * r, axis=-1), -2.0 * r
    return -np.sum(r * logr, axis=-1), -logr


def _r2_statistic(S, W, fixed: bool):
    """r2 = 1 - L / R with R the variance of y about its own mean, or (``fixed``) about the
    mean of all rows, at 0 on the centred scale."""
    L, m = S["wl"] / W, (0.0 if fixed else S["wu"] / W)
    R = S["wu2"] / W - m * m
    g = L / R
    alpha, beta, gamma = L + g * (m * m - R), -2 * m * g, g
    total = (alpha * alpha * S["w2"] + beta * beta * S["w2u2"] + gamma * gamma * S["w2u4"]
             + S["w2l2"] + 2 * alpha * beta * S["w2u"] + 2 * alpha * gamma * S["w2u2"]
             - 2 * alpha * S["w2l"] + 2 * beta * gamma * S["w2u3"] - 2 * beta * S["w2ul"]
             - 2 * gamma * S["w2u2l"])
    value = np.where(R > 1e-12, 1.0 - L / R, np.nan)
    return value, total / (R * R * W * W)


# --------------------------------------------------------------------------- the candidates


def _candidates(cols, F, names, max_depth):
    """(labels, members (column, condition) pairs, (C, f) sums) of every candidate."""
    labels, parts, sums = [], [], []
    for a in cols:
        sums.append(a.ind @ _cell_sums(a.codes, F, a.n_cells))
        labels += a.labels
        parts += [((a, i),) for i in range(len(a.labels))]
    if max_depth >= 2:
        for ia, a in enumerate(cols):
            for b in cols[ia + 1:]:
                sums.append(_pair_sums(a, b, F).reshape(-1, F.shape[1]))
                for i, la in enumerate(a.labels):
                    for j, lb in enumerate(b.labels):
                        labels.append(f"{la} & {lb}")
                        parts.append(((a, i), (b, j)))
    S = np.concatenate(sums, axis=0)
    return labels, parts, {k: S[:, j] for j, k in enumerate(names)}


def _cell_sums(codes, F, cells: int) -> np.ndarray:
    """(cells, f) sums of the columns of ``F`` over the rows of each cell."""
    return np.stack([np.bincount(codes, weights=F[:, j], minlength=cells)
                     for j in range(F.shape[1])], axis=1)


def _pair_sums(a: _Column, b: _Column, F) -> np.ndarray:
    """(conditions of a, conditions of b, f) sums of ``F`` over the rows meeting both.

    Two routes to the same sums: through the table of crossed cells when it is smaller than
    the rows (a few quantile ranges or levels each), else straight from the rows (columns
    kept whole with ``bins=None``: a thousand distinct values cross into a million cells,
    almost all empty). Either way the contraction runs as matrix products; a single
    three-operand ``einsum`` over the crossed cells costs conditions^2 x cells^2 x f
    multiplications."""
    f = F.shape[1]
    if a.n_cells * b.n_cells <= F.shape[0]:
        T = _cell_sums(a.codes * b.n_cells + b.codes, F, a.n_cells * b.n_cells)
        # (ca, Lb * f) = ind_a @ (La, Lb * f); then over b's cells for each of b's conditions.
        first = (a.ind @ T.reshape(a.n_cells, -1)).reshape(len(a.labels), b.n_cells, f)
        return np.einsum("cjf,dj->cdf", first, b.ind, optimize=True)
    out = np.zeros((len(a.labels), len(b.labels), f))
    for start in range(0, F.shape[0], _ROWS_PER_CHUNK):  # bounded memory on many rows
        rows = slice(start, start + _ROWS_PER_CHUNK)
        A = a.ind[:, a.codes[rows]]  # (conditions of a, rows): the row meets the condition
        B = b.ind[:, b.codes[rows]]
        for j in range(f):
            out[:, :, j] += A @ (F[rows, j, None] * B.T)
    return out


_ROWS_PER_CHUNK = 20_000


def _mask(part, rows) -> np.ndarray:
    keep = np.ones(rows.size, dtype=bool)
    for col, i in part:
        keep &= col.ind[i, col.codes[rows]] > 0
    return keep


def _ranked(model, rows, cols, metric, max_depth, min_rows, min_events):
    """Candidates found on ``rows`` (the search half) that may be tested and are worse than
    the rest by at least :data:`MARGIN` standard errors, the largest bound on their weakness
    first: (labels, parts, what the search said of each and how many it weighed)."""
    names, F = _features(model, metric)
    F = F[rows]
    for col in cols:
        col.codes_all, col.codes = col.codes, col.codes[rows]
    try:
        labels, parts, S = _candidates(cols, F, names, max_depth)
    finally:
        for col in cols:
            col.codes = col.codes_all
    total = {k: v.sum(axis=0) for k, v in zip(names, F.T)}
    rest = {k: total[k] - S[k] for k in names}
    K = len(model.classes) if model.classes is not None else 0
    prior = None
    if K and metric.endswith("_vs_all"):
        prior = np.array([total[f"w_{k}"] for k in range(K)]) / total["w"]
    value, var = _statistic(S, metric, K, prior)
    rest_value, rest_var = _statistic(rest, metric, K, prior)
    se = np.sqrt(var + rest_var)
    bound = value - rest_value + MARGIN * se
    ok = np.isfinite(bound) & (S["one"] >= min_rows) & (rest["one"] >= min_rows) & (bound < 0)
    if K:
        for part in (S, rest):
            counts = np.sort(np.stack([part[f"rows_{k}"] for k in range(K)], axis=1), axis=1)
            ok &= counts[:, -2] >= min_events if K > 2 else counts[:, 0] >= min_events
    idx = np.flatnonzero(ok)
    idx = idx[np.argsort(bound[idx], kind="stable")]
    found = {"bound": bound[idx], "value": value[idx], "rest": rest_value[idx], "se": se[idx],
             "candidates": len(labels)}
    return [labels[i] for i in idx], [parts[i] for i in idx], found


def _distinct(parts, rows, top: int) -> list:
    """Indices of the first ``top`` proposals that are not the same finding as an earlier
    one (:data:`SAME_FINDING`); a conjunction one of whose conditions is itself a weak slice
    is proposed as that simpler slice (the weakest such), which holds it."""
    position = {part: i for i, part in enumerate(parts)}
    kept, masks = [], []
    for i, part in enumerate(parts):
        simpler = [position[(p,)] for p in part if len(part) > 1 and (p,) in position]
        if simpler:
            i = min(simpler)
            part = parts[i]
        if i in kept:
            continue
        m = _mask(part, rows)
        if all(np.sum(m & k) / max(min(np.sum(m), np.sum(k)), 1) < SAME_FINDING
               for k in masks):
            kept.append(i)
            masks.append(m)
            if len(kept) == top:
                break
    return kept


def _split(model, n, fraction, rng, units=None):
    """(search rows, report rows): a random split, by class for a classification; with
    groups (or time points), whole units go to one half (units in a random order, the search
    half filled to ``fraction`` of the rows), so that no unit is in both."""
    if units is not None and not units.independent_rows:
        order = rng.permutation(units.n_units)
        sizes = np.bincount(units.codes, minlength=units.n_units)[order]
        cut = int(np.searchsorted(np.cumsum(sizes), fraction * n))
        cut = min(max(cut, 1), units.n_units - 1)
        searched = np.zeros(units.n_units, bool)
        searched[order[:cut]] = True
        inside = searched[units.codes]
        return np.flatnonzero(inside), np.flatnonzero(~inside)
    groups = [np.arange(n)] if model.task == "regression" else \
        [np.flatnonzero(model.codes == k) for k in range(len(model.classes))]
    search, report = [], []
    for rows in groups:
        rows = rng.permutation(rows)
        cut = int(round(fraction * rows.size))
        search.append(rows[:cut])
        report.append(rows[cut:])
    return np.sort(np.concatenate(search)), np.sort(np.concatenate(report))


def find_weak_slices(estimator, X, y, *, max_depth=2, min_rows=30, min_events=10,
                     metric=None, bins=5, columns=None, exclude=None, top=10,
                     search_fraction=0.5,
                     sample_weight=None, adjust="holm", alpha=0.05, ci=0.95, n_boot=2000,
                     random_state=None, calibration=True, groups=None, time=None,
                     ci_method=DEFAULT_CI_METHOD) -> SliceReport:
    """The slices where the model is weakest, found on one half of the rows and judged on the
    other.

    Parameters
    ----------
    estimator : fitted classifier (``predict_proba``, ``decision_function`` or ``predict``)
        or regressor.
    X : DataFrame (pandas, polars), mapping of columns or 2-D array
        The rows, as the estimator expects them; the conditions are on its columns.
    y : array-like of shape (n,)
    max_depth : {1, 2}, default=2
        Conditions per slice: one, or conjunctions of two on different columns.
    min_rows, min_events : int, default=30 and 10
        A candidate needs this many rows (and rows of each class, binary; of two classes,
        multiclass) in the search half and outside it; in the report half, slices below
        them are shown but not tested.
    metric : str, default=None
        What "weak" means: ``"brier_skill"`` (the default with probabilities),
        ``"log_loss_skill"``, ``"accuracy"`` (the default without) or ``"r2"``.
    bins : int, default=5
        Quantile ranges per numeric column (the one-sided cuts are at their inner edges).
    columns : list of column names (or indices), default=None
        The columns to search; None: all of ``X``.
    exclude : column name (or index), or a list of them, default=None
        Columns kept out of the search (of ``columns``, or of all of ``X``): typically the
        model's own features. A range of a feature the model rests on has little spread of
        forecasts, so its skill against its own base rate is low for any model, the true
        probabilities included; such a range is ranked first for that reason alone and can
        hide a segment where the model is wrong. See Notes.
    top : int, default=10
        How many distinct slices to report (fewer if fewer are weaker than the rest on the
        search half).
    search_fraction : float in (0, 1), default=0.5
        The share of the rows the search sees (drawn at random, by class for a classifier).
    sample_weight, adjust, alpha, ci, n_boot, random_state, calibration, ci_method
        As in :func:`slice_report`; ``random_state`` also draws the split.
    groups, time : array-like of shape (n,) or column name of X, default=None
        The resampling units, as in :func:`slice_report`. With ``groups``, the search and
        the held-out halves split by group (no group has rows in both, so the held-out
        verdicts do not reuse what the search saw of a group), and the held-out intervals
        and tests resample whole groups. With ``time`` alone, the halves split by time
        point and blocks of time are resampled.

    Returns
    -------
    SliceReport
        The slices found, weakest first (none, and a note saying so, when no candidate is
        weaker than the rest on the search half: an empty result, not an error), with their numbers on the report half; ``search``
        holds what the search half said of each (``rows``; ``value`` and ``rest``, the
        slice's ``metric`` and the rest's; ``se`` of their difference; ``bound``, the
        difference plus two ``se``), how many candidates it weighed (``candidates``) and
        the rows searched and held out (``rows_searched``, ``rows_held``; the held-out
        positions are ``held_out``).

    Notes
    -----
    Every candidate is scored on the search half by ``m_s - m_r + 2 se``: the slice's
    ``metric`` minus the rest's, plus two standard errors of that difference -- how much
    worse than the rest it is at least (one-sided 97.7%). The standard error is the delta
    method's for a skill ``1 - L / R(r)`` (or r2, or the accuracy) from sums over the rows of
    the slice and of the rest, so a candidate costs no pass over its rows. Ranking by the
    difference alone would put the noisiest tiny slices first; ranking by ``difference /
    se`` the most precisely measured ones, however slight their weakness. Candidates whose
    bound is below zero are ranked, lowest first; one that shares 80% of its rows (or of the
    other's, the smaller) with a candidate ranked above it is the same finding and is
    dropped. The ``top`` slices left are then reported
    on the other rows: their intervals, differences to the rest and verdicts come from rows
    the search did not see, so the selection does not bias them, and the tests are adjusted
    over the slices reported. This is the sample-splitting form of selective inference: it
    costs half the rows, but needs no model of how the search selects.

    Why ``exclude`` and not a statistic that no feature dominates: the skill against a
    slice's own base rate is what "weak" means here (what the held-out half then tests), and
    a range of the model's own score is weak in that sense -- little is left to discriminate
    there. Whether that is worth reporting depends on the question, which only the user
    knows: a search for segments the model gets wrong leaves the model's features out, a
    search for where the model is of little use keeps them in.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> rng = np.random.default_rng(0)
    >>> X = np.column_stack([rng.normal(size=4000), rng.integers(0, 5, 4000)])
    >>> logit = 2 * X[:, 0] * (X[:, 1] != 3)  # no signal where the second column is 3
    >>> y = (rng.random(4000) < 1 / (1 + np.exp(-logit))).astype(int)
    >>> model = LogisticRegression().fit(X, y)
    >>> found = find_weak_slices(model, X, y, n_boot=1000, random_state=0)
    >>> found.labels[0], found.verdict[0]
    ('column 1 = 3', 'worse than the rest')
    """
    max_depth = check_positive_int(max_depth, "max_depth")
    if max_depth > 2:
        msg = f"max_depth must be 1 or 2 (conditions per slice), got {max_depth}."
        raise ValueError(msg)
    top = check_positive_int(top, "top")
    search_fraction = check_level(search_fraction, "search_fraction", example="0.5")
    min_rows = check_positive_int(min_rows, "min_rows")
    min_events = check_positive_int(min_events, "min_events")
    adjust = _check_adjust(adjust)
    level, alpha = check_level(ci, "ci"), check_level(alpha, "alpha", example="0.05")
    n_boot = resampling.check_n_boot(n_boot)
    n = check_rows(X, y, sample_weight)
    w = check_sample_weight(sample_weight, n)
    scored = predict_outputs(estimator, X, y)
    if scored.output is None:
        msg = (f"find_weak_slices needs a classifier or a regressor; {scored.name} predicts "
               "quantiles.")
        raise ValueError(msg)
    model = Output(scored.task, y, scored.output["pred"], scored.classes, w,
                   scored.output.get("y_pred"))
    metric = _check_metric(metric, model.task, getattr(model, "proba", None) is not None)
    cols = _search_columns(X, columns, bins, exclude)
    rng = check_random_state_int(random_state)
    whole = resampling.Resampler.for_evaluator(
        model.whole, n_boot=n_boot, random_state=rng, ci_method=ci_method, groups=groups,
        time=time, X=X)
    search, held = _split(model, n, search_fraction, rng, whole.units)
    _check_halves(model, search, held, min_rows, min_events)
    scheme = whole.subset(held)
    labels, parts, found = _ranked(model, search, cols, metric, max_depth, min_rows,
                                   min_events)
    keep = _distinct(parts, search, top)
    found = {key: (v[keep] if key != "candidates" else v) for key, v in found.items()}
    return _report(model, scored, y, w, held, search, [labels[i] for i in keep],
                   [parts[i] for i in keep], found,
                   metric, level, scheme, adjust, alpha, min_rows, min_events,
                   calibration)


def _search_columns(X, columns, bins, exclude=None) -> list:
    names = column_names(X)
    p = X.shape[1] if hasattr(X, "shape") and len(X.shape) == 2 else len(names or [])
    keys = (names if names is not None else list(range(p))) if columns is None else \
        list(columns)
    left_out = _excluded(exclude, names, p)
    cols = []
    for key in keys:
        if _position(key, names, p) in left_out:
            continue
        name = str(key) if names is not None else f"column {key}"
        col = _Column(column(X, key, p), name, bins)
        if col.n_cells > 1:
            cols.append(col)
    if not cols:
        msg = "X has no column with more than one value to slice on."
        if left_out:
            msg = (f"X has no column with more than one value to slice on once exclude= "
                   f"leaves out {len(left_out)} column(s): search at least one column.")
        raise ValueError(msg)
    return cols


def _position(key, names, p):
    """A column's name, or its index in 0..p-1 (negative indices counted from the end)."""
    if names is not None or not isinstance(key, numbers.Integral):
        return key
    return int(key) % p if -p <= key < p else key


def _excluded(exclude, names, p) -> set:
    """The columns ``exclude`` keeps out of the search, each checked to be one of X's."""
    if exclude is None:
        return set()
    keys = [exclude] if isinstance(exclude, (str, numbers.Integral)) else list(exclude)
    out = set()
    for key in keys:
        known = key in names if names is not None else (
            isinstance(key, numbers.Integral) and not isinstance(key, bool) and -p <= key < p)
        if not known:
            where = f"X's columns are {names[:20]}" if names is not None else \
                f"X has no column names: pass indices in 0..{p - 1}"
            msg = f"exclude names column {key!r}, which is not in X; {where}."
            raise ValueError(msg)
        out.add(_position(key, names, p))
    return out


def _report(model, scored, y, w, held, search, labels, parts, found, metric, level, scheme,
            adjust, alpha, min_rows, min_events, calibration) -> SliceReport:
    """The slices found, judged on the held-out rows with :func:`slice_report`'s engine."""
    y_held = as_1d(y, "y")[held]
    pred = scored.output["pred"]
    pred = (pred[held] if np.ndim(pred) else pred)
    y_pred = scored.output.get("y_pred")
    held_model = Output(model.task, y_held, pred, model.classes,
                        None if w is None else w[held],
                        None if y_pred is None else np.asarray(y_pred)[held])
    members = [np.flatnonzero(_mask(part, held)) for part in parts]
    slicing = Slicing(labels, members, None, [], "weak slices")
    layout = _compute.Layout(slicing, held.size)
    refs, reference_text = _reference(held_model, None, None)
    evaluators, values = _compute.points(held_model, layout, labels)
    data = _assemble(held_model, None, layout, evaluators, values, refs, metric, level,
                     scheme, adjust, alpha,
                     *_eligible(held_model, layout, min_rows, min_events),
                     calibration=calibration)
    out = SliceReport(slicing=slicing, task=model.task, classes=model.classes, metric=metric,
                      level=level, n_boot=scheme.n_boot, adjust=adjust, alpha=alpha,
                      name=scored.name, baseline_name="baseline",
                      reference_text=reference_text, min_rows=min_rows,
                      min_events=min_events, **data)
    out.resampled = "all rows" if scheme.kind == "rows" else resampled(scheme.units)
    out.search = {"rows": np.array([_mask(p, search).sum() for p in parts]),
                  "rows_searched": search.size, "rows_held": held.size, **found}
    out.held_out = held
    if not labels:
        # An empty result, not an error: a loop over models or data sets reads "none found"
        # off it (len(result.labels) == 0) instead of catching an exception.
        out.notes.append(
            "No candidate slice is weaker than the rest on the search half (with "
            f"min_rows={min_rows}, min_events={min_events}): nothing to report.")
    return out
