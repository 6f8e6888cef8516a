"""The report per slice of rows held in dask collections: :func:`slice_report`.

Private to :mod:`chimeraboost.dask` (import it from there). Questions this module answers:

- Which slices are there, and what is each called? ``_slices``: one pass over ``by``
  (its distinct values, labelled as :func:`chimeraboost.slices.slice_report` labels them).
- What are each slice's numbers, with intervals, and which slices differ from the rest of
  the rows? :func:`slice_report`: the accumulators of :mod:`chimeraboost.dask._keyed`, one
  pair per slice, then the numbers of each slice, of all rows, the skills against the
  prior of all rows and the test against the rest (:mod:`chimeraboost.dask._rest`), in a
  :class:`chimeraboost.slices.SliceReport`.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np

from .. import metrics as _metrics
from .. import slices as _slices
from .._shared.api import public
from .._shared.validation import (
    DegenerateMetricWarning,
    as_1d,
    encode_labels,
    label_columns,
    plain,
    read_classes,
)
from ._blocks import _in_memory, _is_dask, _is_dask_frame, check_interval_params
from ._keyed import (
    LIGHT_BINS,
    against_prior,
    check_footprint,
    distinct_values,
    intervals_of,
    key_numbers,
    keyed_accumulate,
    merged,
    missing_mask,
    say,
)
from ._rest import ADJUST, ALPHA, METRIC, MIN_EVENTS, MIN_ROWS, against_rest

__all__ = ["slice_report"]

MISSING = "missing"


class _SliceKeyer:
    """Each row's slice: its value's position among the slices (missing values last)."""

    def __init__(self, values, missing: bool):
        self.index = {plain(v): i for i, v in enumerate(values.tolist())}
        self.missing = len(self.index) if missing else -1

    def __call__(self, block) -> np.ndarray:
        block = np.asarray(block)
        out = np.full(block.shape[0], -1, dtype=np.intp)
        absent = missing_mask(block)
        out[absent] = self.missing
        present = np.flatnonzero(~absent)
        try:
            found, inverse = np.unique(block[present], return_inverse=True)
            codes = np.array([self.index[plain(v)] for v in found.tolist()], dtype=np.intp)
            out[present] = codes[inverse.reshape(-1)]
        except TypeError:  # mixed types
            out[present] = [self.index[plain(v)] for v in block[present].tolist()]
        return out


def _texts(values, numeric: bool) -> list:
    """The slices' labels without the column name: numbers with as many digits as tell them
    apart, other values as Python shows them."""
    if numeric:
        for digits in range(4, 18):
            texts = [str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else
                     f"{v:.{digits}g}" for v in values.tolist()]
            if len(set(texts)) == len(texts):
                break
    else:
        texts = [str(plain(v)) for v in values.tolist()]
    seen = {}
    for t in texts:
        seen[t] = seen.get(t, 0) + 1
    return [repr(plain(v)) if seen[t] > 1 or t in (MISSING, "all rows") else t
            for v, t in zip(values.tolist(), texts)]


def _labels(values, missing: bool, name) -> list:
    texts = _texts(values, values.dtype.kind in "iuf")
    if missing:
        texts.append(MISSING)
    if name is None:
        return texts
    return [f"{name} missing" if t == MISSING else f"{name} = {t}" for t in texts]


def _column(by, X):
    """The dask column of the slices and its name (None for bare labels)."""
    if isinstance(by, Mapping):
        msg = ("by is a dict of masks (slices that may overlap); on dask each row belongs to "
               "one slice: pass one label per row (a dask Series or array), or a column "
               "name of X.")
        raise ValueError(msg)
    if isinstance(by, (str, int, np.integer)) and not isinstance(by, bool):
        if X is None or not _is_dask_frame(X):
            msg = (f"by={plain(by)!r} names a column, but X is not a dask DataFrame to take "
                   "it from; pass X (a dask DataFrame holding the column) or the labels "
                   "themselves.")
            raise ValueError(msg)
        if by not in X.columns:
            msg = f"by={plain(by)!r} is not a column of X; its columns are {list(X.columns)}."
            raise ValueError(msg)
        return X[by], str(by)
    if isinstance(by, (list, tuple)) and by and all(isinstance(b, str) for b in by):
        msg = ("by is a list of column names; on dask one column is sliced on: cross them "
               "first (e.g. X[a].astype(str) + ' & ' + X[b].astype(str)), or pass one name.")
        raise ValueError(msg)
    if _is_dask_frame(by) and by.ndim == 2:
        msg = ("by is a dask DataFrame; pass one column (a dask Series) of labels, or a "
               "column name of X.")
        raise ValueError(msg)
    name = getattr(by, "name", None) if _is_dask_frame(by) else None
    if not _is_dask(by):
        import dask.array as da

        by = da.from_array(as_1d(by, "by"), chunks=-1)
    return by, (None if name is None or name == "" else str(name))


def _classes_of(y, proba, classes, caller: str = "slice_report"):
    """``classes``, or the sorted labels of ``y`` read in one pass (as the in-memory report
    reads them: numeric 0/1 labels with 1-D probabilities are ``[0, 1]``)."""
    if classes is not None:
        return read_classes(None, None, classes)[1]
    values, missing = distinct_values(y, "y")
    if missing:
        msg = "y has missing values (NaN, None or NA); every row needs a label."
        raise ValueError(msg)
    two_d = len(getattr(proba, "shape", ())) == 2 and (
        proba.shape[1] if not _is_dask_frame(proba) else len(proba.columns)) > 1
    task, found = read_classes(values, np.empty((0, 2) if two_d else 0), None)
    if task != "classification":
        msg = ("y holds numbers other than 0 and 1 with one column of predictions: a "
               f"regression, which chimeraboost.dask.{caller} does not take (it scores "
               "probabilities); pass classes= if y holds class labels.")
        raise ValueError(msg)
    return found


@public()
def slice_report(y, proba_or_pred, by, *, X=None, classes=None, sample_weight=None, ci=0.95,
                 n_boot=1000, random_state=None, reference=None, name=None,
                 reference_name="reference", groups=None, ci_method="percentile"):
    """:func:`chimeraboost.slices.slice_report` of rows held in dask collections: each
    slice's numbers against its own base rate, with Poisson bootstrap intervals, and each
    slice against the rest of the rows, with a verdict that allows for the number of
    slices.

    Parameters
    ----------
    y : dask array or dask Series of shape (n,), or array-like
        True labels (strings allowed).
    proba_or_pred : dask array or dask DataFrame of shape (n, K), or (n,) for binary
        Predicted probabilities, columns in the order of ``classes`` (a DataFrame's
        matched by label); a 1-D input is the probability of ``classes[1]``.
    by : dask Series or array of shape (n,), array-like, or a column name of ``X``
        One slice label per row (strings, numbers, booleans; missing values make a slice of
        their own, ``missing``). Every distinct value is a slice: unlike in memory, a
        numeric column is not cut into ``bins`` quantile ranges here -- its exact quantiles
        need its values sorted across the cluster, a pass of their own -- so cut it
        yourself (e.g. ``X[c].map_partitions(pandas.cut, edges)`` with edges of your
        choice, or quantiles from ``X[c].quantile(...)``, which dask approximates).
    X : dask DataFrame, default=None
        Where a column name ``by`` is looked up.
    classes : array-like of shape (K,), default=None
        The class labels (e.g. the model's ``classes_``). None: read off ``y`` in one pass.
    sample_weight : dask array or dask Series of shape (n,), or array-like, default=None
    ci : float or None, default=0.95
        The level of the intervals; None: none (no replicates are kept).
    n_boot : int, default=1000
        Poisson bootstrap replicates. Each costs a slice about 0.45 KB with two classes
        (1.3 KB with three; see Notes) on every worker holding its rows.
    random_state : None or int, default=None
        Seeds the replicates: the same int gives the same intervals on any cluster.
    reference : array-like of targets, default=None
        Where the prior of ``*_vs_all`` comes from: None for all rows scored, ``y_train``
        for the prior the model could have known (a dask collection is computed first).
    name : str, default=None
        The model's name in the header.
    reference_name : str, default="reference"
        How ``reference`` is named in the header.
    groups : dask array or dask Series of shape (n,), or array-like, default=None
        With ``ci``: each row's group; a group's rows share one Poisson count per replicate
        wherever they sit (whole groups are resampled, across slices too), and the tests'
        degrees of freedom count distinct groups (see Notes).
    ci_method : {"percentile"}, default="percentile"
        Only the percentile interval (as in the in-memory report's slices).

    Returns
    -------
    SliceReport
        When any input is a dask collection, the in-memory result but for what needs the
        rows: ``labels``, ``n``, ``values`` (every key of ``classification_report`` per
        slice, from the accumulator: ``roc_auc``, ``pr_auc`` and the CORP terms on its score
        grid, the rest exact; ``log_loss_skill_vs_all``, ``brier_skill_vs_all``),
        ``intervals`` (percentile intervals of every sum over rows and of the ``*_vs_all``
        skills), ``overall`` (all rows, with intervals), and the comparison of each slice
        with the rest of the rows on ``brier_skill``: ``rest``, ``difference`` (slice minus
        rest), ``diff_interval`` (percentile), ``se``, ``pvalue``, ``pvalue_adjusted`` (Holm)
        and ``verdict`` ("worse than the rest", "better than the rest", "no detectable
        difference", "not tested: <why>"), as in memory (see Notes). It lacks ROC-AUC and
        MCB intervals and the calibration test per slice, and
        :meth:`SliceReport.rows_of` (row positions are not kept). Input that is not a dask
        collection gets the in-memory :func:`chimeraboost.slices.slice_report`, all of it.

    Raises
    ------
    ValueError
        What the in-memory report refuses (labels not in ``classes``, rows not summing to
        1, negative weights, ...; an error in one block names it), a ``by`` of overlapping
        masks or several columns, a single slice, and more slices than fit the memory limit
        (see Notes), naming it.

    Notes
    -----
    Each slice keeps two accumulators (:class:`chimeraboost.metrics.ClassificationAccumulator`):
    one for the point numbers, with the default score grid -- about 100 KB per class column,
    whatever ``n_boot`` -- and with ``ci`` one whose replicates keep every sum over rows and a
    coarse 16-bin score grid: per replicate ``8 (K^2 + K + 2 + 49 C)`` bytes (``C`` class
    columns: 1 for binary, else ``K``), 456 bytes with two classes. Their sums over rows
    equal those of an accumulator with the full grid fed the slice's rows, with each row
    weighed by the Poisson count keyed by its position among all rows (or its group). All
    slices' accumulators together must fit 256 MB (a merge holds three such sets, so that a
    worker stays under 1 GB): a ValueError says how many slices fit otherwise -- about 2,700
    without intervals, 480 at ``n_boot=1000`` with two classes.

    The slices are read in a first pass over ``by`` alone (its distinct values), so that
    their number is checked before the pass over all inputs.

    Each slice is compared with the rest of the rows as
    :func:`chimeraboost.slices.slice_report` compares it at its defaults (``metric=
    "brier_skill"``, ``min_rows=30``, ``min_events=10``, ``adjust="holm"``,
    ``alpha=0.05``), without a second pass: accumulators are sums, so the rest's sums are
    all rows' minus the slice's (:meth:`chimeraboost.metrics.ClassificationAccumulator.sums`),
    for the rows' own weights and for every replicate, and the difference slice minus rest
    is taken in each. :func:`chimeraboost.resampling.difference_tests` tests it against its
    replicates' standard deviation times ``sqrt(u / (u - 1))``, with Student's t on
    ``u - 1`` degrees of freedom, ``u`` the fewer of the slice's and the rest's rows (with
    ``groups=``, distinct groups; for two classes no more than the rows of the rarer
    class), then adjusts over the tested slices (Holm). A
    slice (or its rest) with fewer than 30 rows, or fewer than 10 rows of a class, is shown
    but not tested, and its verdict says why; a zero difference whose every replicate is
    rounding noise has p = 1. With ``groups=``, each block also finds its slices' distinct
    groups (``np.unique`` of their keys) and the merges unite them: 8 bytes per distinct
    (slice, group) pair in each merge and on the client -- a group with rows in two slices
    counts twice -- whatever the number of rows.

    Examples
    --------
    Two regions; the model forecasts 0.8 or 0.2 in the north and 0.5 -- no better than the
    base rate -- in the south:

    >>> import dask.array as da
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> region = np.repeat(["north", "south"], 200)
    >>> y = rng.integers(0, 2, 400)
    >>> p = np.where(y == 1, 0.8, 0.2)
    >>> p[region == "south"] = 0.5
    >>> r = slice_report(da.from_array(y, chunks=150), da.from_array(p, chunks=150),
    ...                  da.from_array(region, chunks=150), random_state=0)
    >>> r.labels, r.values["brier_skill"].round(3).tolist()
    (['north', 'south'], [0.838, -0.01])
    >>> r.verdict
    ['better than the rest', 'worse than the rest']
    """
    inputs = {"y": y, "proba": proba_or_pred, "sample_weight": sample_weight,
              "groups": groups}
    dask_by = _is_dask(by) or (isinstance(by, (str, int)) and _is_dask_frame(X))
    if not dask_by and not any(_is_dask(x) for x in inputs.values()):
        return _slices.slice_report(y, proba_or_pred, by, X=X, classes=classes,
                                    sample_weight=sample_weight, ci=ci, n_boot=n_boot,
                                    random_state=random_state, reference=reference,
                                    name=name, reference_name=reference_name, groups=groups,
                                    ci_method=ci_method)
    level = check_interval_params(ci, n_boot, ci_method, groups)
    column, by_name = _column(by, X)
    classes = _classes_of(y, proba_or_pred, classes)
    values, missing = distinct_values(column, "by")
    labels = _labels(values, missing, by_name)
    if len(labels) < 2:
        msg = (f"by puts every row in one slice ({labels[0] if labels else 'none'!r}); slicing "
               "needs at least two slices.")
        raise ValueError(msg)
    check_footprint(len(labels), len(classes), 0 if level is None else n_boot,
                    f"by ({by_name or 'the labels'})", "slices",
                    "pass fewer slices (a coarser by=), fewer replicates (n_boot=), or "
                    "ci=None.")
    if _is_dask_frame(proba_or_pred):
        order = label_columns(proba_or_pred, classes, "proba_or_pred")
        if order is not None:
            inputs["proba"] = proba_or_pred[[proba_or_pred.columns[i] for i in order]]
    templates = _templates(classes, level, n_boot, random_state)
    pairs = keyed_accumulate(templates, {**inputs, "by": column},
                             _SliceKeyer(values, missing), len(classes), "by",
                             proba_name="proba_or_pred", distinct_groups=groups is not None)
    return _result(pairs, labels, classes, level, by_name, name, reference,
                   reference_name, "rows" if groups is None else "groups")


def _templates(classes, level, n_boot, random_state):
    point = _metrics.ClassificationAccumulator(classes)
    if level is None:
        return point, None
    return point, _metrics.ClassificationAccumulator(classes, bins=LIGHT_BINS, n_boot=n_boot,
                                                     random_state=random_state)


def _prior(classes, reference, everything):
    """The prior of ``*_vs_all`` (all rows', or ``reference``'s) and how it is named."""
    if reference is None:
        with warnings.catch_warnings():
            # Degenerate input is said once per slice, by the slices' own reports.
            warnings.simplefilter("ignore", DegenerateMetricWarning)
            prior = np.asarray(everything[0].report()["reference_prior"], dtype=float)
        src = "all rows"
    else:
        codes = encode_labels(_in_memory(reference, "reference"), classes, "reference")
        prior = np.bincount(codes, minlength=len(classes)) / codes.shape[0]
        src = None
    return prior, src


def _vs_all(values: dict, reps: dict | None, prior) -> tuple:
    """The slice's skills against the prior of all rows, and their replicates."""
    point, rows = against_prior(prior, values, reps)
    keys = ("log_loss_skill", "brier_skill")
    return ({f"{k}_vs_all": point[k] for k in keys},
            None if rows is None else {f"{k}_vs_all": rows[k] for k in keys})


def _numbers(pair, level, units, caught, label, prior):
    values, intervals, reps = key_numbers(pair, level, units, caught, label)
    if not values:
        return {}, {}
    extra, extra_reps = _vs_all(values, reps, prior)
    values.update(extra)
    if extra_reps is not None:
        intervals.update(intervals_of(values, extra_reps, list(extra_reps), pair[1].n_boot,
                                      pair[0].n, level, units))
    keep = {k: v for k, v in values.items()
            if k == "base_rate" or (np.ndim(v) == 0 and not isinstance(v, str))}
    return keep, intervals


def _result(pairs: dict, labels, classes, level, by_name, name, reference, reference_name,
            units):
    everything = merged(pairs.values())
    prior, src = _prior(classes, reference, everything)
    shown = f"{prior[1]:.3f}" if len(classes) == 2 else ", ".join(
        f"{c} {q:.3f}" for c, q in zip(classes.tolist(), prior))
    reference_text = f"the class prior of {src or reference_name} ({shown})"
    caught = {}
    values, ci, n = [], [], []
    for s, label in enumerate(labels):
        pair = pairs.get(s)
        if pair is None:  # a value of by whose rows were all filtered away
            caught.setdefault("no rows: every number is NaN.", []).append(label)
            values.append({})
            ci.append({})
            n.append(0)
            continue
        v, c = _numbers(pair, level, units, caught, label, prior)
        values.append(v)
        ci.append(c)
        n.append(pair[0].n)
    say(caught, "Slice")
    overall_v, overall_ci = _numbers(everything, level, units, {}, "all rows", prior)
    overall_v["n"] = everything[0].n
    keys = sorted({k for c in ci for k in c})
    nan2 = (np.nan, np.nan)
    intervals = {k: np.array([c.get(k, nan2) for c in ci], dtype=float).reshape(-1, 2)
                 for k in keys}
    tests = against_rest([pairs.get(s) for s in range(len(labels))], everything, level,
                         units == "groups")
    return _DaskSliceReport.build(
        labels=labels, n=n, by=by_name or "labels", classes=classes, level=level,
        n_boot=0 if level is None else everything[1].n_boot, name=name,
        reference_text=reference_text, values=values, intervals=intervals,
        overall={"values": overall_v, "intervals": overall_ci}, units=units, tests=tests)


class _Members:
    """A slice's rows as SliceReport counts them: their number only (positions are not
    kept on dask)."""

    def __init__(self, size: int):
        self.size = int(size)


class _DaskSliceReport(_slices.SliceReport):
    """A :class:`chimeraboost.slices.SliceReport` of per-slice numbers only."""

    @classmethod
    def build(cls, *, labels, n, by, classes, level, n_boot, name, reference_text, values,
              intervals, overall, units, tests):
        from types import SimpleNamespace

        slicing = SimpleNamespace(labels=labels, by=by, notes=[],
                                  members=[_Members(m) for m in n])
        out = cls(slicing=slicing, task="classification", classes=classes, metric=METRIC,
                  level=level, n_boot=n_boot, adjust=ADJUST, alpha=ALPHA,
                  name=name or "model", baseline_name="baseline",
                  reference_text=reference_text, min_rows=MIN_ROWS, min_events=MIN_EVENTS,
                  values=values, intervals=intervals, overall=overall, **tests,
                  vs_baseline=None)
        out.resampled = ("all rows, Poisson counts" if units == "rows"
                         else "whole groups, Poisson counts")
        return out

    def rows_of(self, label):
        """Not available: on dask the rows' positions are not kept."""
        msg = ("rows_of(): a slice_report computed on dask keeps no row positions; select "
               f"the rows yourself (e.g. X[X[by] == value]) for slice {label!r}.")
        raise ValueError(msg)
