"""Where does every resampled number get its replicates, and how is its interval read?

One object, :class:`Resampler`, carries the resampling scheme through the library: how many
replicates (``n_boot``), the random generator (``random_state``), the interval method
(``ci_method``), the workers (``n_jobs``) and what a replicate draws -- single rows, whole groups
(``groups=``) or blocks of time-ordered rows (``time=``; see
:mod:`chimeraboost._shared.units`), drawn with replacement or, with ``scheme="poisson"``,
weighed by independent Poisson(1) counts. Every interval, band, p-value and verdict of chimeraboost
that comes from resampling rows takes its ``(B, n)`` count chunks and its jackknife blocks from
one, and reads its interval through :func:`~chimeraboost.resampling.bootstrap_interval` by its
``ci_method``. Users pass the plain parameters; a function that makes several resampled numbers
(the report: the paired bootstrap, the calibration tests, the decision section) builds one
Resampler and hands it down, so that a new scheme is added once.

Questions, and which method answers each:

- The count chunks of ``B`` replicates? :meth:`Resampler.counts` (on the calling thread) and
  :meth:`Resampler.evaluate` (chunks handed to a function, on ``n_jobs`` workers).
- The jackknife behind BCa and the expanded intervals? :meth:`Resampler.jackknife_blocks`,
  :meth:`Resampler.evaluate_blocks` (on ``n_jobs`` workers) and :meth:`Resampler.n_units`
  (what the degrees of freedom count: rows, groups, blocks).
- An interval from replicates? :meth:`Resampler.interval` (and :meth:`Resampler.band` for a
  pointwise band over a curve's grid).
- Does a paired difference of a decision rest on too few units to be read off the
  replicates? :meth:`Resampler.discordance` (the rule of ``_discordant``).
- How much does the dependence cost? :func:`design_effect`: the variance of a statistic when
  whole units are left out over its variance when single rows are.
"""

from __future__ import annotations

import numpy as np

from .._shared.poisson import check_scheme
from .._shared.units import Units, check_units, row_units
from .._shared.validation import check_level, check_n_jobs, check_random_state_int
from ._chunks import evaluate_blocks, evaluate_chunks
from ._discordant import discordance, discordant_units, unit_index
from ._draws import _chunk_size, check_n_boot
from ._intervals import (
    DEFAULT_CI_METHOD,
    ConfidenceInterval,
    _block_weights,
    bootstrap_interval,
    check_ci_method,
    jackknife_blocks,
)

__all__ = ["Resampler", "design_effect", "jackknife_variance"]


class Resampler:
    """One resampling scheme: what a replicate draws, how many, and how intervals are read.

    Parameters
    ----------
    n_boot : int, default=2000
        Replicates; see :func:`~chimeraboost.resampling.check_n_boot` for the one rule on how
        few are allowed (``optional=True``: 0 means no resampling).
    random_state : None, int or numpy Generator
        One generator for everything drawn through this scheme, in order.
    ci_method : str, default="expanded_bca"
        How intervals are read (:data:`~chimeraboost.resampling.CI_METHODS`).
    n_jobs : int, default=None
        Workers evaluating the chunks (scikit-learn's reading of -1, -2, ...): forked
        processes on Linux while the caller runs one thread, threads otherwise.
    units : Units, default=None
        What a replicate draws (:func:`chimeraboost._shared.units.check_units`); None:
        single rows.
    chunk_size : int, default=None
        Replicates per chunk; bounds memory, never changes a number.
    optional : bool, default=False
        Whether ``n_boot=0`` (no resampling) is allowed.
    scheme : {"multinomial", "poisson"}, default="multinomial"
        How a replicate weighs the units when ``units`` is None (else the units' own):
        ``n`` rows drawn with replacement (Efron's bootstrap), or an independent Poisson(1)
        count per row from a counter-based generator keyed by the replicate's seed and the
        row's position (:mod:`chimeraboost._shared.poisson`), so that blocks of rows
        weighed apart -- on several machines, in :mod:`chimeraboost.dask` -- get the counts
        one process would give them.
    """

    def __init__(self, n_boot=2000, *, random_state=None, ci_method=DEFAULT_CI_METHOD,
                 n_jobs=None, units=None, chunk_size=None, optional=False,
                 scheme="multinomial"):
        self.n_boot = check_n_boot(n_boot, optional=optional)
        self.rng = check_random_state_int(random_state)
        self.ci_method = check_ci_method(ci_method)
        self.n_jobs = check_n_jobs(n_jobs)
        self.units = units
        self.scheme = check_scheme(scheme) if units is None else units.scheme
        self.chunk_size = chunk_size

    @classmethod
    def from_params(cls, n, *, n_boot=2000, random_state=None, ci_method=DEFAULT_CI_METHOD,
                    n_jobs=None, groups=None, time=None, X=None, series=None,
                    chunk_size=None, optional=False, index_of=None,
                    scheme="multinomial") -> Resampler:
        """A scheme from the plain parameters users pass (``groups`` / ``time`` arrays or
        column names of ``X``), for ``n`` rows."""
        units = check_units(n, groups=groups, time=time, X=X, series=series,
                            index_of=index_of, scheme=scheme)
        return cls(n_boot, random_state=random_state, ci_method=ci_method, n_jobs=n_jobs,
                   units=units, chunk_size=chunk_size, optional=optional)

    @classmethod
    def for_evaluator(cls, evaluator, **params) -> Resampler:
        """A scheme for the rows of ``evaluator`` (from :mod:`chimeraboost.metrics`): as
        :meth:`from_params`, with the time blocks' length chosen from the evaluator's
        per-row losses."""
        series = None
        if params.get("time") is not None and params.get("groups") is None:
            from ._bootstrap import row_series  # the evaluators' losses live with them

            series = row_series(evaluator)
        index_of = params.pop("X", None)
        return cls.from_params(evaluator.n, series=series, X=index_of,
                               index_of=index_of if hasattr(index_of, "index") else None,
                               **params)

    def bootstrap(self, evaluators, metrics=None) -> list:
        """Every evaluator's metrics on the same replicates and jackknife blocks: a list of
        :class:`~chimeraboost.resampling.BootstrapResult`, as
        :func:`~chimeraboost.resampling.joint_bootstrap` gives."""
        from ._bootstrap import results  # the evaluator side of the engine

        return results(list(evaluators), self, metrics)

    def __repr__(self) -> str:
        units = "rows" if self.units is None else repr(self.units)
        scheme = "" if self.scheme == "multinomial" else f", scheme={self.scheme!r}"
        return (f"Resampler(n_boot={self.n_boot}, ci_method={self.ci_method!r}, "
                f"n_jobs={self.n_jobs}, units={units}{scheme})")

    # ----------------------------------------------------------------- what is drawn

    def units_of(self, n: int) -> Units:
        """The units of ``n`` rows: the scheme's own, or single rows."""
        if self.units is None:
            return row_units(n, self.scheme)
        if self.units.n != n:
            msg = (f"The resampling units were given for {self.units.n} rows but {n} rows are "
                   "resampled; pass groups= / time= with one value per row.")
            raise ValueError(msg)
        return self.units

    def subset(self, rows) -> Resampler:
        """The same scheme on a subset of rows (``rows``: indices or a mask), sharing this
        scheme's generator."""
        out = object.__new__(Resampler)
        out.__dict__.update(self.__dict__)
        if self.units is not None and not self.units.independent_rows:
            codes = self.units.codes[rows]
            uniq, new = np.unique(codes, return_inverse=True)
            block = None if self.units.block_length is None else self.units.block_length
            keys = None if self.units.keys is None else self.units.keys[rows]
            out.units = Units(self.units.kind, codes.shape[0], new.reshape(-1).astype(np.intp),
                              uniq.size, block_length=block, time_range=self.units.time_range,
                              scheme=self.units.scheme, keys=keys)
        elif self.scheme == "poisson":
            # A row keeps its key (its position in the whole), so that its counts are those
            # it has in the whole.
            rows = np.asarray(rows)
            at = np.flatnonzero(rows) if rows.dtype == bool else rows
            keys = at.astype(np.uint64) if self.units is None else self.units.row_keys()[at]
            out.units = Units("rows", keys.shape[0], scheme="poisson", keys=keys)
        else:
            out.units = None
        return out

    def as_params(self) -> dict:
        """This scheme as the plain parameters a public function takes (``n_boot``,
        ``random_state`` -- a seed drawn from this scheme's generator --, ``ci_method``,
        ``groups`` / ``time`` as unit codes): how one surface hands its scheme to another
        (the report to its decision section and its slices) as one value."""
        return {"n_boot": self.n_boot, "random_state": int(self.rng.integers(0, 2**63 - 1)),
                "ci_method": self.ci_method, **self.unit_params()}

    def unit_params(self) -> dict:
        """This scheme's resampling units as the keyword a public function takes:
        ``{"groups": codes}``, ``{"time": codes}``, or ``{}`` for single rows. Unlike
        :meth:`as_params` it draws nothing from the generator."""
        if self.units is None or self.units.kind not in ("groups", "time"):
            return {}
        return {self.units.kind: self.units.codes}

    @property
    def kind(self) -> str:
        return "rows" if self.units is None else self.units.kind

    def counts(self, n: int, *, dtype=np.float64):
        """The ``(b, n)`` count matrices of the replicates, chunk by chunk, on the calling
        thread (a fresh array per chunk)."""
        units = self.units_of(n)
        size = _chunk_size(n, self.n_boot, self.chunk_size)
        for start in range(0, self.n_boot, size):
            yield units.fill(self.rng, np.empty((min(size, self.n_boot - start), n),
                                                dtype=dtype))

    def evaluate(self, evaluate, n: int) -> list:
        """``[evaluate(counts, work) for each chunk]`` in chunk order, on ``n_jobs``
        workers (:func:`~chimeraboost.resampling._chunks.evaluate_chunks`): the same
        numbers whatever ``n_jobs``."""
        size = _chunk_size(n, self.n_boot, self.chunk_size)
        return evaluate_chunks(evaluate, self.units_of(n), self.n_boot, rng=self.rng,
                               size=size, n_jobs=self.n_jobs)

    # ----------------------------------------------------------------- the jackknife

    def jackknife_blocks(self, n: int, sample_weight=None, *, rows: bool = False):
        """The leave-out block of each row (-1: in none): groups or time blocks are never
        split; ``rows=True`` gives the row jackknife whatever the scheme (for the design
        effect)."""
        units = self.units_of(n)
        if rows or units.independent_rows:
            return jackknife_blocks(n, sample_weight=sample_weight, random_state=self.rng)
        return units.jackknife_blocks(self.rng, sample_weight=sample_weight)

    def jackknife_chunks(self, block: np.ndarray):
        """The leave-a-block-out weight matrices ``(chunk, n)`` of ``block``, in chunks."""
        n_blocks = int(block.max()) + 1
        size = _chunk_size(block.shape[0], n_blocks, self.chunk_size)
        for start in range(0, n_blocks, size):
            yield _block_weights(block, start, min(n_blocks, start + size))

    def evaluate_blocks(self, evaluate, block: np.ndarray) -> list:
        """``[evaluate(weights, work) for each chunk of blocks]`` in block order, the
        chunks of :meth:`jackknife_chunks`, on ``n_jobs`` workers
        (:func:`~chimeraboost.resampling._chunks.evaluate_blocks`): the same numbers
        whatever ``n_jobs``."""
        n_blocks = int(block.max()) + 1
        size = _chunk_size(block.shape[0], n_blocks, self.chunk_size)
        return evaluate_blocks(evaluate, block, size, n_jobs=self.n_jobs)

    def n_units(self, n: int, sample_weight=None) -> int:
        """What an interval's degrees of freedom count: rows of positive weight, groups, or
        time points over the block length."""
        return self.units_of(n).n_positive(sample_weight)

    # ----------------------------------------------------------------- intervals

    def interval(self, replicates, estimate, level=0.95, *, jackknife=None, n_units=None,
                 events=None, method=None, discordant=None) -> ConfidenceInterval:
        """The interval of one number by this scheme's ``ci_method`` (``"percentile"`` when
        no jackknife is given); ``discordant``: for a paired difference of a decision, the
        units the two models decide differently on (:meth:`discordant_units`)."""
        method = self.ci_method if method is None else check_ci_method(method, name="method")
        if jackknife is None:
            method = "percentile"
        return bootstrap_interval(replicates, estimate, level=level, method=method,
                                  jackknife=jackknife, n_rows=n_units, events=events,
                                  discordant=discordant)

    def discordance(self, a, b, level=0.95):
        """How many of this scheme's units two models decide differently on, for a paired
        difference of a number of a decision (``a``, ``b``: each model's
        ``Terms`` of :mod:`chimeraboost._shared.results`), and the bound its interval is
        widened to when they are fewer than
        :data:`~chimeraboost.resampling.MIN_DISCORDANT`; None when they are enough or the
        two models are one. The rule of :mod:`chimeraboost.resampling._discordant`, which
        :class:`~chimeraboost.resampling.PairedBootstrapResult` applies too."""
        unit = {"groups": "groups", "time": "time blocks"}.get(self.kind, "rows")
        index = None if self.units is None else unit_index(self.units)
        return discordance(a, b, index, level, unit)

    def discordant_units(self, a, b) -> int | None:
        """How many of this scheme's units two models decide differently on (``a``, ``b``:
        each model's ``Terms``), whatever their number; None when the two models are one.
        What :meth:`interval` and :meth:`band` read a paired difference of a decision with
        (``discordant=``)."""
        index = None if self.units is None else unit_index(self.units)
        return discordant_units(a, b, index)

    def band(self, replicates, estimate, level=0.95, *, jackknife=None, n_units=None,
             events=None, discordant=None) -> tuple[np.ndarray, np.ndarray]:
        """A pointwise band over a grid: the interval of each column of ``replicates``
        ``(B, m)`` around ``estimate`` ``(m,)`` (with ``jackknife`` ``(G, m)`` when given),
        by this scheme's ``ci_method``; ``discordant``: one count (or None) per column, as in
        :meth:`interval`. Columns whose estimate is undefined get NaN."""
        level = check_level(level, "level")
        reps = np.asarray(replicates, dtype=np.float64)
        est = np.asarray(estimate, dtype=np.float64)
        lo, hi = np.full(est.shape, np.nan), np.full(est.shape, np.nan)
        for j in range(est.shape[0]):
            jack = None if jackknife is None else jackknife[:, j]
            lo[j], hi[j] = self.interval(reps[:, j], est[j], level, jackknife=jack,
                                         n_units=n_units, events=events,
                                         discordant=None if discordant is None
                                         else discordant[j])
        return lo, hi


def jackknife_variance(jackknife) -> float:
    """The delete-a-block jackknife's variance of a statistic, ``(g - 1) / g * sum (t_j -
    mean t)^2`` over its ``g`` defined leave-out estimates (Efron & Tibshirani 1993,
    eq. 11.5; blocks as in Künsch 1989)."""
    v = np.asarray(jackknife, dtype=np.float64)
    v = v[np.isfinite(v)]
    if v.size < 2:
        return np.nan
    return float((v.size - 1) / v.size * np.sum((v - v.mean()) ** 2))


def design_effect(unit_jackknife, row_jackknife) -> float:
    """The variance of a statistic under the dependent scheme over its variance if the rows
    were independent (Kish's design effect), both from the jackknife: whole units left out
    against single rows left out. ``n / deff`` is the effective number of rows."""
    dep, ind = jackknife_variance(unit_jackknife), jackknife_variance(row_jackknife)
    if not (np.isfinite(dep) and np.isfinite(ind)) or ind <= 0:
        return np.nan
    return dep / ind
