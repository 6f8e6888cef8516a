"""Which Poisson bootstrap weight does a row get, wherever it is computed?

The Poisson bootstrap gives every unit (a row, or a group of rows) an independent
Poisson(1) count per replicate instead of drawing ``n`` units with replacement [HM12]_. Its
counts need no knowledge of the other units, so blocks of rows on different machines can
weigh their rows without talking to each other, and their accumulators merge into the
replicates of all the rows. For that the count must depend on the replicate and on the unit
only -- not on which block holds the unit, nor on the order blocks are processed in. This
module answers, for every layer (the engine of :mod:`chimeraboost.resampling`, the
accumulators of :mod:`chimeraboost.metrics`, :mod:`chimeraboost.dask`):

- Which seed does replicate ``b`` use? :func:`replicate_seeds` (64 bits per replicate, drawn
  from the scheme's generator, one replicate after another).
- Which key names a unit? :func:`row_keys` (its position among all rows) and
  :func:`group_keys` (a stable hash of the group's value, the same in every process).
- How often is a unit drawn in a replicate? :func:`poisson_counts`.

The generator is counter-based: the count of unit ``i`` in replicate ``b`` is a pure function
of ``(seed_b, key_i)``, ``z = mix(mix(key_i + g) ^ seed_b)`` with ``mix`` the finaliser of
SplitMix64 (Steele, Lea & Flood 2014; ``g`` its increment, the golden ratio in 64 bits),
whose 64 bits ``z / 2**64`` are read as a uniform number and turned into a Poisson(1) count by
its inverse distribution function (the count is how many of the thresholds
``floor(2**64 P(X <= k))`` are at most ``z``). numpy's own counter-based generator,
``Philox``, would give the same independence but draws one stream per key, a Python loop per
row; the hash is a dozen vectorised integer operations per count.

References
----------
.. [HM12] Hanley, J. A. and MacGibbon, B. (2006). Creating non-parametric bootstrap samples
   using Poisson frequencies. *Computer Methods and Programs in Biomedicine* 83(1), 57-62.
   doi:10.1016/j.cmpb.2006.04.006
.. [SLF14] Steele, G. L., Lea, D. and Flood, C. H. (2014). Fast splittable pseudorandom
   number generators. *OOPSLA 2014*, 453-472. doi:10.1145/2660193.2660195
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

__all__ = ["POISSON_SCHEMES", "check_scheme", "group_keys", "poisson_counts",
           "replicate_seeds", "row_keys"]

# The bootstrap's weights: n units drawn with replacement (Efron's bootstrap, the default),
# or an independent Poisson(1) count per unit (mergeable across blocks).
POISSON_SCHEMES = ("multinomial", "poisson")

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _thresholds() -> np.ndarray:
    """``floor(2**64 P(X <= k))`` for X ~ Poisson(1), k = 0, 1, ... while below 2**64."""
    out, cdf, k = [], 0.0, 0
    while True:
        cdf += math.exp(-1.0) / math.factorial(k)
        t = int(cdf * 2.0 ** 64)
        if t >= 2 ** 64 - 2 ** 12:  # the rest of the tail is below the uniform's resolution
            break
        out.append(t)
        k += 1
    return np.array(out, dtype=np.uint64)


_THRESHOLDS = _thresholds()
# The first few thresholds are compared one by one (they settle 98% of the counts); the
# rare larger counts are looked up.
_FIRST = 4


def check_scheme(scheme, name: str = "scheme") -> str:
    """``"multinomial"`` or ``"poisson"``, else a ValueError naming the choices."""
    if not isinstance(scheme, str) or scheme not in POISSON_SCHEMES:
        msg = (f"{name}={scheme!r} is not a bootstrap scheme; pass 'multinomial' (draw n "
               "rows or groups with replacement, the default) or 'poisson' (an independent "
               "Poisson(1) count per row or group, what blocks on several machines can "
               "compute apart).")
        raise ValueError(msg)
    return scheme


def replicate_seeds(rng: np.random.Generator, b: int) -> np.ndarray:
    """The 64-bit seeds of the next ``b`` replicates (one draw per replicate, so that
    replicate ``i`` gets the same seed whatever the chunk size)."""
    return np.array([rng.integers(0, 2 ** 64, dtype=np.uint64) for _ in range(b)],
                    dtype=np.uint64)


def _mix(z: np.ndarray, tmp: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser, in place on uint64 ``z`` (``tmp`` a buffer of its shape)."""
    np.right_shift(z, np.uint64(30), out=tmp)
    z ^= tmp
    z *= _M1
    np.right_shift(z, np.uint64(27), out=tmp)
    z ^= tmp
    z *= _M2
    np.right_shift(z, np.uint64(31), out=tmp)
    z ^= tmp
    return z


def row_keys(first: int, n: int) -> np.ndarray:
    """The keys of ``n`` rows whose first sits at position ``first`` among all rows."""
    return np.arange(first, first + n, dtype=np.uint64)


def _value_key(value) -> int:
    """A value's 64-bit key, the same in every process: integers (and integral floats)
    their value, other values a BLAKE2b hash of their text."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value) % 2 ** 64
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return int(value) % 2 ** 64
    if isinstance(value, np.datetime64):
        return int(value.astype("datetime64[ns]").astype(np.int64)) % 2 ** 64
    text = value if isinstance(value, bytes) else str(value).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def group_keys(values) -> np.ndarray:
    """The key of each row's group: equal values get equal keys in every block and process
    (Python's own ``hash`` of a string changes between processes, so it is not used).

    Raises
    ------
    ValueError
        A missing group (NaN, None, NaT): every row needs one.
    """
    arr = np.asarray(values)
    if arr.dtype.kind in "iub":
        return arr.astype(np.int64).view(np.uint64)
    if arr.dtype.kind in "fMm" and np.any(np.isnan(arr) if arr.dtype.kind == "f"
                                          else np.isnat(arr)):
        _missing(arr.shape[0])
    if arr.dtype.kind == "O":
        # Python objects (mixed types, None): one key per distinct value, found by a dict.
        seen = {}
        out = np.empty(arr.shape[0], dtype=np.uint64)
        for i, v in enumerate(arr.tolist()):
            key = seen.get(v)
            if key is None:
                if v is None or v != v:  # None, NaN, NaT
                    _missing(arr.shape[0])
                key = seen[v] = _value_key(v)
            out[i] = key
        return out
    uniq, inverse = np.unique(arr, return_inverse=True)
    keys = np.array([_value_key(v) for v in uniq], dtype=np.uint64)
    return keys[inverse.reshape(-1)]


def _missing(n: int):
    msg = (f"groups has missing values (NaN, None or NaT) among {n} rows; every row needs a "
           "group -- drop those rows or fill them.")
    raise ValueError(msg)


def mixed_keys(keys: np.ndarray) -> np.ndarray:
    """``mix(key + g)`` of every key: computed once per block, shared by its replicates."""
    z = np.asarray(keys, dtype=np.uint64) + _GOLDEN
    return _mix(z, np.empty_like(z))


# Units hashed at a time: the buffers of one piece stay in the processor's cache, so the
# dozen passes over it cost what one pass over memory would (measured: 2.5x faster than
# whole rows of 10^6 units).
_PIECE = 1 << 15


def poisson_counts(seeds: np.ndarray, mixed: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Fill ``out`` (b, n) with the Poisson(1) count of each unit (``mixed``: its
    :func:`mixed_keys`, one per row) in each replicate (``seeds``, b of them)."""
    n = mixed.shape[0]
    z, tmp = np.empty(min(n, _PIECE), dtype=np.uint64), np.empty(min(n, _PIECE), np.uint64)
    count, hit = np.empty(z.shape[0], dtype=np.uint8), np.empty(z.shape[0], dtype=bool)
    first, tail = _THRESHOLDS[:_FIRST], _THRESHOLDS[_FIRST:]
    for row, seed in zip(out, np.asarray(seeds, dtype=np.uint64)):
        for a in range(0, n, _PIECE):
            m = min(n, a + _PIECE) - a
            zz, c, h = z[:m], count[:m], hit[:m]
            np.bitwise_xor(mixed[a:a + m], seed, out=zz)
            _mix(zz, tmp[:m])
            np.greater_equal(zz, first[0], out=c.view(bool))
            for t in first[1:]:
                np.greater_equal(zz, t, out=h)
                c += h.view(np.uint8)
            big = np.flatnonzero(h)  # past the last threshold compared: look it up
            if big.size:
                c[big] += np.searchsorted(tail, zz[big], side="right").astype(np.uint8)
            row[a:a + m] = c
    return out
