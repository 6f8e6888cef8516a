"""Which units does a resample draw: single rows, whole groups, or blocks of time-ordered rows?

Every interval, band, p-value and verdict of chimeraboost resamples *units*. Which units is the
one question this module answers, for every layer (the metrics' calibration test and
reliability band as well as :mod:`chimeraboost.resampling`):

- Rows independent (the default): a unit is a row; a replicate draws ``n`` rows with
  replacement (Efron's bootstrap).
- ``groups=`` (the array a user passes to scikit-learn's ``GroupKFold``: a customer, a patient,
  an account): a unit is a group; a replicate draws ``G`` groups with replacement and every row
  of a drawn group comes along (the pairs-cluster bootstrap; Cameron, Gelbach & Miller 2008).
- ``time=`` (dates or any sortable values): a unit is a time point (the rows sharing a value
  travel together); a replicate is a stationary bootstrap of the time points [PR94]_, blocks of
  a random length with mean :attr:`Units.block_length`, chosen from the data by Politis & White
  [PW04]_ with the correction of Patton, Politis & White [PPW09]_, so that serial dependence
  within a block is kept.
- Both: whole groups are resampled (each group's rows keep their time order and serial
  dependence inside the group); ``time=`` then only dates the rows. Dependence *across*
  groups at the same time (a shock common to every customer in one month) is not kept.

How a replicate weighs the units is a second choice, ``scheme=``: ``n_units`` units drawn with
replacement (the default), or an independent Poisson(1) count per row or group from a
counter-based generator (:mod:`chimeraboost._shared.poisson`), which blocks of rows on several
machines can compute apart; time blocks are drawn with replacement only.

:func:`check_units` reads ``groups=`` / ``time=`` (arrays, or column names of ``X``) and
refuses what cannot be resampled; :class:`Units` knows how to draw a replicate's row counts,
how to put units into the jackknife's leave-out blocks, and how many units there are (what
an interval's degrees of freedom count). How many replicates are enough is one rule too,
:func:`check_n_boot`, for every interval, band, p-value and verdict of every layer.

References
----------
.. [PR94] Politis, D. N. and Romano, J. P. (1994). The stationary bootstrap. *Journal of the
   American Statistical Association* 89(428), 1303-1313. doi:10.1080/01621459.1994.10476870
.. [PW04] Politis, D. N. and White, H. (2004). Automatic block-length selection for the
   dependent bootstrap. *Econometric Reviews* 23(1), 53-70. doi:10.1081/ETC-120028836
.. [PPW09] Patton, A., Politis, D. N. and White, H. (2009). Correction to "Automatic
   block-length selection for the dependent bootstrap". *Econometric Reviews* 28(4), 372-375.
   doi:10.1080/07474930802459016
.. [CGM08] Cameron, A. C., Gelbach, J. B. and Miller, D. L. (2008). Bootstrap-based
   improvements for inference with clustered errors. *Review of Economics and Statistics*
   90(3), 414-427. doi:10.1162/rest.90.3.414
"""

from __future__ import annotations

import numpy as np

from ..exceptions import FewResamplesWarning
from ..exceptions import warn as _warn
from .array_checks import _is_missing_value, _to_numpy, check_aligned, plain
from .param_checks import check_positive_int
from .poisson import check_scheme, group_keys, mixed_keys, poisson_counts, replicate_seeds

__all__ = ["JACKKNIFE_BLOCKS", "MIN_RESAMPLES_DECISION", "MIN_RESAMPLES_INTERVAL", "Units",
           "block_length", "check_n_boot", "check_units", "group_codes", "resampled",
           "row_units", "time_span", "when"]

# Leave-a-block-out estimates of the jackknife (one per block; a block per unit below this
# many units). Each costs what a bootstrap replicate costs: 100 blocks add 5% to 2,000
# replicates.
JACKKNIFE_BLOCKS = 100


# The one rule on how few resamples are allowed, for every interval, band, p-value and
# verdict of the library. Below MIN_RESAMPLES_DECISION they are refused: the 2.5% and 97.5%
# percentiles of 199 replicates are the 5th and 195th order statistics; with fewer, an
# interval's ends rest on a handful of draws and a decision on it is a coin toss. Efron &
# Tibshirani (1993), section 19.3, recommend B >= 1000 for percentile intervals, hence the
# warning below MIN_RESAMPLES_INTERVAL.
MIN_RESAMPLES_DECISION = 200
MIN_RESAMPLES_INTERVAL = 1000


def check_n_boot(n_boot, *, optional: bool = False) -> int:
    """Validate ``n_boot``, the one rule for every function that resamples: fewer than
    :data:`MIN_RESAMPLES_DECISION` (200) are refused, fewer than
    :data:`MIN_RESAMPLES_INTERVAL` (1000) give a :class:`FewResamplesWarning`; ``0`` means
    "no resampling" where it is optional (``optional=True``: a curve without its band).

    Examples
    --------
    >>> check_n_boot(2000)
    2000
    >>> check_n_boot(0, optional=True)
    0
    """
    if optional and isinstance(n_boot, (int, np.integer)) and not isinstance(n_boot, bool) \
            and n_boot == 0:
        return 0
    n_boot = check_positive_int(n_boot, "n_boot")
    if n_boot < MIN_RESAMPLES_DECISION:
        none = " (or n_boot=0 for none)" if optional else ""
        msg = (f"n_boot={n_boot} is too few resamples for an interval, a band, a p-value or a "
               f"verdict; at least {MIN_RESAMPLES_DECISION} are needed{none} (default 2000).")
        raise ValueError(msg)
    if n_boot < MIN_RESAMPLES_INTERVAL:
        _warn(f"n_boot={n_boot}: a percentile interval from fewer than "
              f"{MIN_RESAMPLES_INTERVAL} resamples is unstable in its ends; use "
              f"n_boot >= {MIN_RESAMPLES_INTERVAL} (default 2000).", FewResamplesWarning)
    return n_boot


class Units:
    """The resampled units of ``n`` rows.

    Attributes
    ----------
    kind : {"rows", "groups", "time"}
    n : int
        Rows.
    codes : ndarray of shape (n,), intp, or None
        The unit of each row (None for rows: every row its own unit). Time units are numbered
        in time order.
    n_units : int
        Units (rows, groups or distinct time points).
    block_length : float or None
        Time only: the stationary bootstrap's mean block length, in time points.
    time_range : tuple or None
        The first and last time value (for the report's header), when ``time=`` was given.
    scheme : {"multinomial", "poisson"}
        How a replicate weighs the units: ``n_units`` units drawn with replacement, or an
        independent Poisson(1) count per unit (:mod:`chimeraboost._shared.poisson`).
    keys : ndarray of shape (n,), uint64, or None
        Poisson only: each row's unit key -- its position (rows; None: 0 to n - 1) or its
        group's hash -- which, with the replicate's seed, is all its count depends on.
    """

    def __init__(self, kind, n, codes=None, n_units=None, block_length=None, time_range=None,
                 scheme="multinomial", keys=None):
        self.kind, self.n, self.codes = kind, int(n), codes
        self.n_units = int(n if n_units is None else n_units)
        self.block_length, self.time_range = block_length, time_range
        self.scheme, self.keys = scheme, keys
        self._mixed = None

    def __repr__(self) -> str:
        extra = "" if self.block_length is None else f", block_length={self.block_length:.1f}"
        extra += "" if self.scheme == "multinomial" else ", scheme='poisson'"
        return f"Units({self.kind!r}, n={self.n}, n_units={self.n_units}{extra})"

    def row_keys(self) -> np.ndarray:
        """Poisson: each row's unit key (positions for rows)."""
        return np.arange(self.n, dtype=np.uint64) if self.keys is None else self.keys

    @property
    def independent_rows(self) -> bool:
        return self.kind == "rows"

    # ----------------------------------------------------------------- replicates

    def draw(self, rng: np.random.Generator, b: int) -> list:
        """What each of ``b`` replicates draws: an array of unit indices per replicate.

        One call of the generator per replicate (two for time blocks), so that replicate
        ``i`` consumes the same random numbers whatever the chunk size or thread count. The
        Poisson scheme draws each replicate's seed only: its counts are a function of the
        seed and the units' keys.
        """
        if self.scheme == "poisson":
            return list(replicate_seeds(rng, b))
        if self.kind == "time":
            return [_stationary_draw(rng, self.n_units, self.block_length) for _ in range(b)]
        return [rng.integers(0, self.n_units, self.n_units) for _ in range(b)]

    def count(self, draws: list, out: np.ndarray) -> np.ndarray:
        """Fill row ``i`` of ``out`` (b, n) with how often each *row* is drawn in
        ``draws[i]`` (a row comes along with its unit)."""
        if self.scheme == "poisson":
            if self._mixed is None:  # hashed once, shared by every chunk
                self._mixed = mixed_keys(self.row_keys())
            return poisson_counts(np.array(draws, dtype=np.uint64), self._mixed, out)
        one = 1 if out.dtype.kind in "iu" else 1.0  # a Python scalar: numpy's fast path
        for row, units in zip(out, draws):
            if self.codes is None:
                row.fill(0)
                np.add.at(row, units, one)
            else:
                row[:] = np.bincount(units, minlength=self.n_units)[self.codes]
        return out

    def fill(self, rng: np.random.Generator, out: np.ndarray) -> np.ndarray:
        """Fill each row of ``out`` (b, n) with a replicate's row counts."""
        return self.count(self.draw(rng, out.shape[0]), out)

    # ----------------------------------------------------------------- the jackknife

    def positive(self, sample_weight=None) -> np.ndarray:
        """Boolean (n_units,): units holding a row of positive weight."""
        if sample_weight is None:
            return np.ones(self.n_units, dtype=bool)
        w = np.asarray(sample_weight, dtype=np.float64) > 0
        if self.codes is None:
            return w
        return np.bincount(self.codes, weights=w, minlength=self.n_units) > 0

    def n_positive(self, sample_weight=None) -> int:
        """Units holding a row of positive weight: what an interval's degrees of freedom
        count (rows, groups, or time points over the block length)."""
        units = int(self.positive(sample_weight).sum())
        if self.kind == "time":
            return max(1, int(units // max(self.block_length, 1.0)))
        return units

    def jackknife_blocks(self, rng, n_blocks=None, sample_weight=None) -> np.ndarray:
        """The leave-out block of each row (-1 for rows of zero weight, in no block).

        Rows and groups: units put into at most ``n_blocks`` (:data:`JACKKNIFE_BLOCKS`)
        blocks in a random order, so that units sorted by time, score or outcome spread over
        the blocks as a random sample would; a group is never split. Time: contiguous runs
        of time points, each at least a block length long (the blocked jackknife, Künsch
        1989), so that a left-out block takes its serial dependence with it.
        """
        size = JACKKNIFE_BLOCKS if n_blocks is None else check_positive_int(n_blocks,
                                                                            "n_blocks")
        keep = self.positive(sample_weight)
        units = np.flatnonzero(keep)
        if self.kind == "time":
            size = max(1, min(size, int(units.size // max(self.block_length, 1.0))))
            unit_block = np.full(self.n_units, -1)
            unit_block[units] = (np.arange(units.size) * size) // max(units.size, 1)
        else:
            size = max(1, min(size, units.size))
            unit_block = np.full(self.n_units, -1)
            unit_block[rng.permutation(units)] = np.arange(units.size) % size
        block = unit_block if self.codes is None else unit_block[self.codes]
        if sample_weight is not None:
            block = np.where(np.asarray(sample_weight, dtype=np.float64) > 0, block, -1)
        return block


def when(value) -> str:
    """A time value as headers show it: dates without a midnight time."""
    if isinstance(value, np.datetime64):
        text = np.datetime_as_string(value, unit="s")
    else:
        text = str(value.item() if hasattr(value, "item") else value)
    for midnight in ("T00:00:00.000000000", "T00:00:00", " 00:00:00"):
        if text.endswith(midnight):
            return text[: -len(midnight)]
    return text


def time_span(units) -> str | None:
    """``"time 2024-04-01..2024-06-30"`` when ``time=`` dated the rows, else None: what every
    header of a time-ordered holdout says."""
    if units is None or units.time_range is None:
        return None
    first, last = (when(t) for t in units.time_range)
    return f"time {first}..{last}"


def resampled(units) -> str:
    """What a replicate draws, in words: ``"rows"``, ``"whole groups (298 groups)"``,
    ``"blocks of time (90 time points, blocks of 6.2 on average)"``."""
    if units is None or units.kind == "rows":
        return "rows"
    if units.kind == "groups":
        return f"whole groups ({units.n_units:,} groups)"
    return (f"blocks of time ({units.n_units:,} time points, blocks of "
            f"{units.block_length:.1f} on average)")


def _stationary_draw(rng: np.random.Generator, t: int, mean_length: float) -> np.ndarray:
    """The time points of one stationary-bootstrap replicate [PR94]_: blocks start at a
    uniform point, continue circularly, and end with probability ``1 / mean_length`` after
    each point."""
    new = rng.random(t) < 1.0 / mean_length
    start = rng.integers(0, t, t)
    new[0] = True
    at = np.maximum.accumulate(np.where(new, np.arange(t), 0))
    return (start[at] + np.arange(t) - at) % t


def row_units(n: int, scheme: str = "multinomial") -> Units:
    """Independent rows: every row its own unit."""
    return Units("rows", n, scheme=check_scheme(scheme))


# --------------------------------------------------------------------------- block length


def _flat_top(x: np.ndarray) -> np.ndarray:
    """Politis & Romano's trapezoidal flat-top lag window."""
    x = np.abs(x)
    return np.where(x <= 0.5, 1.0, np.where(x <= 1.0, 2.0 * (1.0 - x), 0.0))


def block_length(series) -> float:
    """The stationary bootstrap's mean block length for a series, by Politis & White [PW04]_
    with the correction of Patton, Politis & White [PPW09]_.

    ``b = (2 G^2 / D)^(1/3) n^(1/3)`` with ``G = sum_k w(k/M) |k| R(k)`` and
    ``D = 2 g(0)^2``, ``g(0) = sum_k w(k/M) R(k)``, ``R`` the autocovariances, ``w`` the
    flat-top window and ``M = 2 m`` for ``m`` the first lag after which ``K_n =
    max(5, sqrt(log10 n))`` autocorrelations in a row are below ``2 sqrt(log10(n) / n)``.
    Kept within ``[1, min(3 sqrt(n), n / 3)]``.

    Examples
    --------
    White noise needs no blocks:

    >>> round(block_length(np.random.default_rng(0).standard_normal(2000)), 1)
    1.0
    """
    x = np.asarray(series, dtype=np.float64)
    n = x.size
    if n < 8:
        return 1.0
    x = x - x.mean()
    var = float(x @ x) / n
    if var <= 0:
        return 1.0
    cap = min(3.0 * np.sqrt(n), n / 3.0)
    max_lag = int(min(np.ceil(np.sqrt(n)) + max(5, np.sqrt(np.log10(n))), n - 1))
    spectrum = np.fft.rfft(x, 2 * n)
    acov = np.fft.irfft(spectrum * np.conj(spectrum))[: max_lag + 1] / n
    rho = acov / var
    k_n = max(5, int(np.sqrt(np.log10(n))))
    bound = 2.0 * np.sqrt(np.log10(n) / n)
    small = np.abs(rho[1:]) < bound
    m = max_lag
    for lag in range(0, max_lag - k_n + 1):
        if small[lag: lag + k_n].all():
            m = lag
            break
    big_m = min(2 * max(m, 1), max_lag)
    lags = np.arange(-big_m, big_m + 1)
    w = _flat_top(lags / big_m)
    r = acov[np.abs(lags)]
    g = float(np.sum(w * np.abs(lags) * r))
    d = 2.0 * float(np.sum(w * r)) ** 2
    if d <= 0 or g == 0:
        return 1.0
    b = (2.0 * g * g / d) ** (1.0 / 3.0) * n ** (1.0 / 3.0)
    return float(np.clip(b, 1.0, cap))


# --------------------------------------------------------------------------- reading inputs


def _column(values, X, name: str):
    """``values`` itself, or the column of ``X`` it names."""
    if isinstance(values, str):
        columns = getattr(X, "columns", None)
        if X is None or columns is None:
            msg = (f"{name}={values!r} names a column, but X has no named columns; pass the "
                   f"{name} values as an array of one value per row.")
            raise ValueError(msg)
        if values not in list(columns):
            msg = (f"{name}={values!r} is not a column of X (columns: "
                   f"{[str(c) for c in list(columns)][:10]}); pass a column name or an array.")
            raise ValueError(msg)
        return X[values]
    return values


def _values(values, n: int, name: str) -> np.ndarray:
    arr = _to_numpy(values, name)
    if arr.ndim != 1:
        msg = f"{name} must be one value per row (1-D), got an array of shape {arr.shape}."
        raise ValueError(msg)
    if arr.shape[0] != n:
        msg = f"{name} has {arr.shape[0]} values but there are {n} rows; pass one per row."
        raise ValueError(msg)
    if arr.dtype.kind == "O":
        missing = np.array([_is_missing_value(v) for v in arr], dtype=bool)
    elif arr.dtype.kind == "f":
        missing = np.isnan(arr)
    elif arr.dtype.kind == "M":
        missing = np.isnat(arr)
    else:
        missing = np.zeros(n, dtype=bool)
    if missing.any():
        msg = (f"{name} has {int(missing.sum())} missing value(s) (NaN, None or NaT) among "
               f"{n} rows; every row needs a {name[:-1] if name.endswith('s') else name} "
               "value -- drop those rows or fill them.")
        raise ValueError(msg)
    return arr


def _codes(arr: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(distinct sorted values, code of each row)."""
    try:
        uniq, codes = np.unique(arr, return_inverse=True)
    except TypeError as exc:
        msg = (f"{name} holds values that cannot be compared with each other (mixed types, "
               f"e.g. {arr[:3].tolist()}); pass one type.")
        raise TypeError(msg) from exc
    return uniq, codes.reshape(-1).astype(np.intp)


def group_codes(values, n: int, name: str = "groups") -> tuple[np.ndarray, np.ndarray]:
    """``(distinct groups, code of each row)`` of ``n`` rows' groups, checked as ``groups=``
    is everywhere (one value per row, none missing, comparable values, at least two groups),
    the messages naming the argument ``name``."""
    uniq, codes = _codes(_values(values, n, name), name)
    if uniq.size < 2:
        msg = (f"{name} holds one group ({plain(uniq[0])!r}) for all {n} rows: no interval can "
               "be made from one group (its spread between groups is unknown); pass the "
               f"customer / patient / account of each row, or leave {name}=None if the "
               "rows are independent.")
        raise ValueError(msg)
    return uniq, codes


def check_units(n: int, *, groups=None, time=None, X=None, series=None,
                index_of=None, scheme="multinomial") -> Units:
    """The resampled units of ``n`` rows, from ``groups=`` and ``time=`` (arrays, or column
    names of ``X``).

    Parameters
    ----------
    n : int
    groups, time : array-like of shape (n,), str or None
        One value per row, or the name of a column of ``X``.
    X : DataFrame, default=None
        Where column names are looked up.
    series : array-like of shape (n,) or (n, k), default=None
        Time: the per-row numbers whose serial dependence sets the block length (the rows'
        losses and outcomes), averaged over the rows of each time point; with several
        columns, the longest block length of any column. None: blocks of one time point.
    index_of : pandas object, default=None
        The data whose index a pandas ``groups`` / ``time`` must match.
    scheme : {"multinomial", "poisson"}, default="multinomial"
        How a replicate weighs the units (:mod:`chimeraboost._shared.poisson`); the Poisson
        scheme resamples rows or groups, not blocks of time.

    Returns
    -------
    Units
    """
    scheme = check_scheme(scheme)
    if groups is None and time is None:
        return row_units(n, scheme)
    checked = {}
    for name, values in (("groups", groups), ("time", time)):
        if values is None:
            continue
        values = _column(values, X, name)
        if index_of is not None:
            check_aligned(**{name: values, "X": index_of})
        checked[name] = _values(values, n, name)
    time_range = None
    if "time" in checked:
        t = checked["time"]
        uniq_t, codes_t = _codes(t, "time")
        time_range = (uniq_t[0], uniq_t[-1])
    if "groups" in checked:
        uniq, codes = group_codes(checked["groups"], n)
        keys = group_keys(uniq)[codes] if scheme == "poisson" else None
        return Units("groups", n, codes, uniq.size, time_range=time_range, scheme=scheme,
                     keys=keys)
    if scheme == "poisson":
        msg = ("scheme='poisson' weighs rows or groups independently, which would break the "
               "blocks of time= apart; pass groups= (whole groups get one count each) or "
               "scheme='multinomial' for blocks of time.")
        raise ValueError(msg)
    if uniq_t.size < 2:
        msg = (f"time holds one value ({plain(uniq_t[0])!r}) for all {n} rows: no block of time "
               "can be resampled; pass the date of each row.")
        raise ValueError(msg)
    length = 1.0
    if series is not None:
        s = np.asarray(series, dtype=np.float64).reshape(n, -1)
        rows = np.bincount(codes_t, minlength=uniq_t.size)
        # Several series (the losses, the outcome): the blocks must keep the longest serial
        # dependence of any, since a metric's influence can follow either.
        length = max(block_length(np.bincount(codes_t, weights=col, minlength=uniq_t.size) /
                                  rows) for col in s.T)
    return Units("time", n, codes_t, uniq_t.size, block_length=length, time_range=time_range)
