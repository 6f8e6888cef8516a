"""The numbers of every slice, one resample of the rows for all of them, and the verdicts.

Questions this module answers:

- *What are a slice's numbers?* -> :func:`points`: the evaluator of
  :mod:`chimeraboost.metrics` on the slice's rows (so every number is exactly
  ``chimeraboost.metrics``' on them); :func:`vs_all_points`: its skills against the
  reference of all rows, from the slice's sums.
- *And those of the rest of the data?* -> :func:`sum_points` (``_numbers`` on the sums of all
  rows minus the slice's): log loss, Brier, accuracy and r2 are sums over rows, so the rest
  costs no pass over its rows (ROC-AUC and MCB are not, and are not compared with the rest).
- *How sure is each?* -> :func:`bootstrap`: one resample for all slices, its counts from the
  caller's :class:`~chimeraboost.resampling.Resampler` (single rows, whole groups or blocks
  of time), each slice's evaluator on its part of the counts; the rows are put in slice
  order once (:class:`Layout`), so a slice's part is a contiguous block. Groups may cross
  slices (a customer with rows in several): whole groups of *all* rows are drawn and each
  slice takes its rows' share, so a slice and its rest move together as they do in the
  data. MCB is not resampled: :func:`calibration_tests` runs the calibration
  test of :mod:`chimeraboost.metrics` on each slice's rows instead.
- *Which slices differ from the rest, or from the baseline?* -> :func:`tests`: a two-sided
  test per slice, adjusted over the tested slices (Holm or Benjamini-Hochberg from
  :mod:`chimeraboost.compare`).
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import metrics
from ..resampling import ADJUSTMENTS, difference_tests
from .._shared.facts import HEADLINE
from .._shared.weights import fraction
from .._shared import slice_tests as _slice_tests
from .._shared.scores import proper_scores, ratio_skill
from .._shared.slice_tests import tested_difference
from .._shared.validation import DegenerateMetricWarning, warn_degenerate

# The numbers compared with the rest of the data: sums over rows, so the rest's come from
# the sums of all rows minus the slice's.
DIFF_KEYS = {"classification": ("brier_skill", "log_loss_skill", "accuracy",
                                  "balanced_accuracy"),
             "ranking": ("balanced_accuracy", "accuracy"),
             "rule": ("balanced_accuracy", "accuracy"), "regression": ("r2",)}
# The headline of each kind of prediction (the one table of metric facts); a ranking's ROC
# AUC is no sum over rows, so a ranking model's slices are compared on its labels, as a
# rule's are.
DEFAULT_METRIC = {task: HEADLINE[task] if HEADLINE[task] in keys else HEADLINE["rule"]
                  for task, keys in DIFF_KEYS.items()}
# Skills against the reference of all rows (keys of the slices' own skills + "_vs_all").
VS_ALL = {"classification": ("log_loss_skill", "brier_skill"), "regression": ("r2",)}
ADJUST = ADJUSTMENTS

# The verdict's words, shared with chimeraboost.dask.
WORSE, BETTER, SAME = _slice_tests.WORSE, _slice_tests.BETTER, _slice_tests.SAME


# --------------------------------------------------------------------------- sums and numbers


class Layout:
    """The rows in slice order: a partition's slices are contiguous blocks ``takes[s]`` of
    ``order``; overlapping masks keep the rows' order and index them."""

    def __init__(self, slicing, n: int):
        if slicing.codes is not None:
            self.order = np.concatenate(slicing.members)
            stops = np.cumsum([m.size for m in slicing.members])
            self.takes = [slice(int(b - m.size), int(b)) for m, b in zip(slicing.members, stops)]
        else:
            self.order = np.arange(n)
            self.takes = list(slicing.members)
        self.partition = slicing.codes is not None
        self.rows = [self.order[t] for t in self.takes]
        self.labels = list(slicing.labels)
        self.n = n
        self._matrices = {}

    def matrix(self, output):
        """(keys, (n, m) matrix) of the output's per-row numbers, rows in slice order (made
        once per output: it is a pass over every row)."""
        if id(output) not in self._matrices:
            keys = list(output.rows)
            V = np.empty((self.n, len(keys)))
            for j, key in enumerate(keys):
                np.take(output.rows[key], self.order, out=V[:, j])
            self._matrices[id(output)] = (output, keys, V)
        return self._matrices[id(output)][1:]


def _sums(counts, V, take, keys) -> dict:
    """Key -> (B,) sums of the per-row numbers over the rows ``take``, for each count vector."""
    block = counts[:, take] @ V[take]
    return {key: block[:, j] for j, key in enumerate(keys)}


def _minus(a: dict, b: dict) -> dict:
    return {key: a[key] - b[key] for key in a}


def _numbers(S: dict, task: str, K: int, prior=None, centre=None) -> dict:
    """Key -> (B,) additive numbers of rows known by their sums ``S``: against their own
    class prior / mean, or with ``prior`` / ``centre`` against that reference (then only
    the skills, under their own keys)."""
    ws = S["weight"]
    with np.errstate(invalid="ignore", divide="ignore"):
        if task == "regression":
            mse = S["sq"] / ws
            if centre is not None:  # y is centred on the mean of all rows: shift to ``centre``
                ref = (S["yc2"] - 2 * centre * S["yc"]) / ws + centre * centre
                return {"r2": ratio_skill(mse, ref, np.zeros(ws.shape, bool))}
            mean = S["yc"] / ws
            ref = S["yc2"] / ws - mean * mean
            flat = ref <= 1e-13 * (S["yc2"] / ws)  # a constant y, to rounding
            return {"mse": mse, "r2": ratio_skill(mse, ref, flat)}
        cw = np.column_stack([S[f"class_{k}"] for k in range(K)])
        r = fraction(cw, ws[:, None])
        single = np.sum(r > 0, axis=1) < 2
        out = {}
        if "log_loss" in S:
            out.update(proper_scores(S["log_loss"], S["brier"], ws, r, single, prior))
        if prior is not None:
            return {key: out[key] for key in ("log_loss_skill", "brier_skill")}
        if "correct" in S:
            out["accuracy"] = fraction(S["correct"], ws)
            # The mean of the recalls of the classes present, as metrics computes it.
            recall = fraction(np.column_stack([S[f"hit_{k}"] for k in range(K)]), cw)
            defined = ~np.isnan(recall)
            out["balanced_accuracy"] = np.where(
                defined.any(axis=1), np.where(defined, recall, 0.0).sum(axis=1)
                / np.maximum(defined.sum(axis=1), 1), np.nan)
        out["base_rate"] = r[:, 1] if K == 2 else r
        return out


def _scalars(out: dict) -> dict:
    return {key: np.asarray(v, dtype=np.float64) for key, v in out.items() if np.ndim(v) == 1}


# --------------------------------------------------------------------------- point numbers


def _quietly(compute, label, caught: dict):
    """``compute()``, its warnings kept, by message, with the slices they came from, to be
    said once for all slices (:func:`_say`)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", DegenerateMetricWarning)
        out = compute()
    for w in seen:
        if issubclass(w.category, DegenerateMetricWarning):
            caught.setdefault(str(w.message), []).append(label)
        else:  # pragma: no cover - anything else is not ours to hide
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return out


def _say(caught: dict) -> None:
    for message, labels in caught.items():
        shown = ", ".join(repr(label) for label in labels[:6])
        more = f" and {len(labels) - 6} more" if len(labels) > 6 else ""
        warn_degenerate(f"Slice{'s' if len(labels) > 1 else ''} {shown}{more}: {message}")


def points(model, layout, labels) -> tuple[list, list]:
    """Per slice: (the evaluator on its rows or None, its numbers as a dict)."""
    evaluators, values, caught = [], [], {}
    for rows, label in zip(layout.rows, labels):
        if rows.size == 0:
            evaluators.append(None)
            values.append({})
            caught.setdefault("no rows: every number is NaN.", []).append(label)
            continue
        if not np.any(model.rows["weight"][rows] > 0):
            # Weighted numbers of rows that all weigh 0 do not exist; the other slices do.
            evaluators.append(None)
            values.append({})
            caught.setdefault("every row weighs 0 (sample_weight): every number is NaN.",
                              []).append(label)
            continue
        ev = model.evaluator(rows)
        evaluators.append(ev)
        values.append({key: (float(v[0]) if np.ndim(v) == 1 else np.asarray(v[0]))
                       for key, v in _quietly(ev.evaluate, label, caught).items()})
    _say(caught)
    return evaluators, values


# --------------------------------------------------------------------------- the bootstrap


def _chunks(layout, scheme):
    """The scheme's resampling counts in chunks, columns in slice order (the scheme's units
    carried into that order, so whole groups still travel together), as int64 (the
    evaluators' integer kernels) and float64 (the sums)."""
    ordered = scheme.subset(layout.order) if layout.partition else scheme
    for counts in ordered.counts(layout.n):
        yield counts.astype(np.int64), counts


def _block_sums(counts, V, layout, keys) -> tuple[list, dict]:
    """Per slice and for all rows: key -> (B,) sums of the per-row numbers, for each count
    vector. A partition's slices are contiguous blocks (views, one product each) whose sums
    add up to all rows'."""
    per_slice = [counts[:, t] @ V[t] for t in layout.takes]
    total = np.sum(per_slice, axis=0) if layout.partition else counts @ V
    return ([{key: block[:, j] for j, key in enumerate(keys)} for block in per_slice],
            {key: total[:, j] for j, key in enumerate(keys)})


class _Pending:
    """A slice's share of the counts, kept until it is worth an evaluation: a small slice
    would otherwise cost one call of its evaluator per chunk of replicates."""

    def __init__(self, evaluator, metrics=None):
        self.evaluator, self.blocks, self.size, self.done = evaluator, [], 0, []
        self.metrics = metrics

    def add(self, block, last: bool) -> None:
        if self.evaluator is None:
            return
        self.blocks.append(block)
        self.size += block.size
        if last or self.size >= _SLICE_BLOCK:
            counts = np.concatenate(self.blocks) if len(self.blocks) > 1 else self.blocks[0]
            more = {} if self.metrics is None else {"metrics": self.metrics}
            self.done.append(_scalars(self.evaluator.evaluate(counts, warn=False, **more)))
            self.blocks, self.size = [], 0


# Elements of the counts a slice's evaluator takes at once (1 MB of int64; 50 slices hold
# at most 50 MB), unless the chunk of replicates is larger: an evaluation costs about a
# millisecond of Python whatever its size, and with 50 slices of 2,000 rows and 2,000
# resamples 256 KB blocks made 5,800 of them (benchmarks/bench_surfaces.py).
_SLICE_BLOCK = 1 << 17
# Elements of one chunk of the resamples' counts: fewer chunks than the report's (whose
# evaluators gather each chunk whole, and like it in cache), as each chunk costs a product
# and a block per slice. Never changes a number (tests/test_chunking.py).
_CHUNK_ELEMENTS = 1_000_000


def chunk_size(n: int) -> int:
    """Resamples per chunk of counts on ``n`` rows."""
    return max(1, _CHUNK_ELEMENTS // max(n, 1))


# The CORP decomposition refits an isotonic regression per resample: per slice that costs a
# call per resample, more than every other number together on slices of a few thousand rows.
# Its resampled interval is also not what the report shows for MCB (the in-sample MCB is
# biased upward, and its percentile interval can exclude it): a slice's MCB is shown with the
# calibration test instead, where chimeraboost.metrics has one.
_CORP = ("calibration_mcb", "discrimination_dsc", "uncertainty_unc")


def bootstrap(model, base, layout, evaluators, values, refs, scheme) -> dict:
    """Replicates of every slice's numbers (but the CORP terms, :data:`_CORP`), of the
    rest's and the baseline's, from one resample of all rows by ``scheme`` (a
    :class:`~chimeraboost.resampling.Resampler`): ``{"slice": [...], "rest": [...],
    "vs_all": [...], "base": [...], "all": {...}}``, lists with one dict per slice of key ->
    (n_boot,) arrays. ``values``: each slice's point numbers (their keys are resampled)."""
    n_boot = scheme.n_boot
    task, K = model.task, len(model.classes) if model.classes is not None else 0
    keys, V = layout.matrix(model)
    base_keys, Vb = layout.matrix(base) if base is not None else (None, None)
    pending = []
    for ev, point in zip(evaluators, values):
        want = None
        if ev is not None and task != "regression":
            want = [k for k, v in point.items() if np.ndim(v) == 0 and k not in _CORP
                    and not k.endswith("_vs_all")]
        pending.append(_Pending(ev, want))
    sums, base_sums, totals = [], [], []
    done = 0
    for counts_i, counts in _chunks(layout, scheme):
        done += counts.shape[0]
        own, total = _block_sums(counts, V, layout, keys)
        sums.append(own)
        totals.append(total)
        if base is not None:
            base_sums.append(_block_sums(counts, Vb, layout, base_keys)[0])
        for p, take in zip(pending, layout.takes):
            p.add(counts_i[:, take], last=done == n_boot)
    total = {key: np.concatenate([t[key] for t in totals]) for key in keys}
    out = {"slice": [_join(p.done) for p in pending], "rest": [], "vs_all": [], "base": [],
           "all": _numbers(total, task, K)}
    for s in range(len(layout.takes)):
        own = {key: np.concatenate([c[s][key] for c in sums]) for key in keys}
        out["rest"].append(_both(_minus(total, own), task, K, refs))
        out["vs_all"].append(_vs_all(own, task, K, refs))
        if base is not None:
            out["base"].append(_both({key: np.concatenate([c[s][key] for c in base_sums])
                                      for key in base_keys}, base.task, K, refs))
    return out


def _vs_all(sums: dict, task: str, K: int, refs: dict) -> dict:
    """The skills of rows known by their sums against the reference of all rows
    (``*_vs_all``); none without a reference (a model without probabilities)."""
    if not refs or (task != "regression" and "log_loss" not in sums):
        return {}
    out = _numbers(sums, task, K, prior=refs.get("prior"), centre=refs.get("centre"))
    return {f"{key}_vs_all": v for key, v in out.items()}


def _both(sums: dict, task: str, K: int, refs: dict) -> dict:
    """Against their own reference and against the reference of all rows."""
    return {**_numbers(sums, task, K), **_vs_all(sums, task, K, refs)}


def _join(chunks: list) -> dict:
    if not chunks or not chunks[0]:
        return {}
    return {key: np.concatenate([c[key] for c in chunks]) for key in chunks[0]
            if np.ndim(chunks[0][key]) == 1}


def vs_all_points(model, layout, refs) -> list:
    """Per slice, then for all rows: the skills against the reference of all rows
    (``*_vs_all``)."""
    keys, V = layout.matrix(model)
    K = len(model.classes) if model.classes is not None else 0
    ones = np.ones((1, layout.n))
    return [{key: float(v[0]) for key, v in
             _vs_all(_sums(ones, V, t, keys), model.task, K, refs).items()}
            for t in [*layout.takes, slice(None)]]


def sum_points(output, layout, refs) -> tuple[list, list]:
    """Per slice and for the rest of each: the additive numbers from the sums (point),
    against their own reference and against the reference of all rows."""
    keys, V = layout.matrix(output)
    K = len(output.classes) if output.classes is not None else 0
    ones = np.ones((1, layout.n))
    sums = [_sums(ones, V, t, keys) for t in layout.takes]
    total = _sums(ones, V, slice(None), keys)

    def point(S):
        return {k: float(v[0]) for k, v in _scalars(_both(S, output.task, K, refs)).items()}

    return [point(S) for S in sums], [point(_minus(total, S)) for S in sums]


# --------------------------------------------------------------------------- tests


def tested_differences(metric, diff, values, rest_points, reps, units) -> np.ndarray:
    """The slice-minus-rest differences the test compares with 0: for a skill against each
    part's own class prior (``brier_skill``, ``log_loss_skill``) each part's skill with the
    bias of its plug-in reference taken out (:func:`chimeraboost._shared.scores.debiased_skill`:
    a slice of a dozen customers otherwise reads low, and its test calls it worse too often);
    any other metric as printed (:func:`chimeraboost._shared.slice_tests.tested_difference`).
    ``reps`` are the bootstrap's, ``units`` the test's."""
    return np.array([tested_difference(metric, d, (values[s], own), (rest_points[s], rest),
                                       units[s])
                     for s, (d, own, rest) in enumerate(zip(diff, reps["slice"],
                                                            reps["rest"]))],
                    dtype=np.float64).reshape(np.shape(diff))


def tests(diff, reps, eligible, adjust: str, alpha: float, units):
    """``(difference, se, p, adjusted p, rejected)`` per slice:
    :func:`chimeraboost.resampling.difference_tests` with ``units`` the fewer of the slice's
    and its rest's resampled units -- rows, groups or time blocks -- or the slice's against a
    baseline; for a binary classification no more than the rows of the rarer class.

    With whole groups resampled, the standard error comes from the slice's groups, so they,
    not its rows, count; a skill's information is in the rarer class, so a slice of 34 rows
    with 10 positives counts 10 (benchmarks/bench_slices_null.py)."""
    return tuple(difference_tests(diff, reps, units, eligible=eligible, adjust=adjust,
                                  alpha=alpha))


# --------------------------------------------------------------------------- calibration


def calibration_tests(model, layout, level, draws, rng,
                      units=None) -> tuple[dict, np.ndarray | None]:
    """Per slice with two classes, where the model gives probabilities: the calibration test
    of :func:`chimeraboost.metrics.calibration_test` on the slice's rows -- the noise floor of
    its MCB, the estimate of the population MCB (``calibration_excess``) and the p-value --
    and the (S, 2) interval of the population MCB; ``({}, None)`` without probabilities.
    Each test draws ``draws`` outcomes from ``rng``. ``units``: the resampling units of all
    rows (:class:`chimeraboost._shared.units.Units`); with groups or time, each test gets the
    codes of its slice's rows, so that its null keeps their dependence (a slice within one
    group or one time point has no test)."""
    if getattr(model, "proba", None) is None:
        return {}, None
    S = len(layout.rows)
    out = {key: np.full(S, np.nan) for key in _TEST_KEYS}
    interval = np.full((S, 2), np.nan)
    w, caught = model.sample_weight, {}
    dependent = units is not None and not units.independent_rows
    for s, rows in enumerate(layout.rows):
        codes = model.codes[rows]
        if rows.size == 0 or np.unique(codes).size < 2 or (
                w is not None and not np.any(w[rows] > 0)):
            continue  # no rows, a single class or no weight: said once for its skills
        extra = {}
        if dependent:
            own = units.codes[rows]
            if np.unique(own).size < 2:
                what = "group" if units.kind == "groups" else "time point"
                caught.setdefault(f"its rows are in one {what}: no calibration test.",
                                  []).append(layout.labels[s])
                continue
            extra = {"groups" if units.kind == "groups" else "time": own}
        res = _quietly(lambda: metrics.calibration_test(
            model.classes[codes], model.proba[rows], model.classes,
            sample_weight=None if w is None else w[rows], n_boot=draws, random_state=rng,
            **extra), layout.labels[s], caught)
        for key, v in zip(_TEST_KEYS, (res.noise_floor, res.excess, res.pvalue)):
            out[key][s] = v
        interval[s] = res.confidence_interval(level=level)
    _say(caught)
    return out, interval


_TEST_KEYS = ("calibration_noise_floor", "calibration_excess", "calibration_pvalue")
