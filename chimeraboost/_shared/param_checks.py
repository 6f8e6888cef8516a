"""Is this setting a valid number of its kind?

The scalar parameters of every public function -- counts, fractions, levels, margins, seeds,
cutoffs -- and the p-values and baseline names they come with, each checked in one place so
that the same mistake gets the same message everywhere. Re-exported by
:mod:`chimeraboost._shared.validation`, the one place the other modules import checks from:

- A count: :func:`check_positive_int`. A seed: :func:`check_random_state_int`. A number of
  threads: :func:`check_n_jobs`.
- A fraction in (0, 1) (confidence or significance level, threshold): :func:`check_level`.
- A finite real, > 0 or >= 0 (a rope, a margin, an averaged row count): :func:`check_real`.
- A cutoff in rows or as a fraction of rows: :func:`check_k`.
- A vector of p-values: :func:`check_pvalues`. The baseline among named models:
  :func:`check_baseline_name`. A name given or left None: :func:`check_optional_name`; the
  keys of a dict of named models: :func:`check_key_names`.
"""

from __future__ import annotations

import numbers
import os

import numpy as np

from .array_checks import check_numeric_1d

__all__ = [
    "check_baseline_name",
    "check_key_names",
    "check_optional_name",
    "check_k",
    "check_n_jobs",
    "check_positive_int",
    "check_random_state_int",
    "check_level",
    "check_real",
    "check_pvalues",
]


def check_baseline_name(baseline, models):
    """The name of the baseline among ``models`` (a mapping of names): the first when
    ``baseline`` is None, else ``baseline`` itself if it is one of them."""
    if baseline is None:
        return next(iter(models))
    if baseline not in models:
        msg = f"baseline_name={baseline!r} is not one of the models: {list(models)}."
        raise ValueError(msg)
    return baseline


def check_optional_name(value, arg: str) -> None:
    """A name a caller may give (``name=``, ``champion_name=``): None, or a string that is
    not blank."""
    if value is not None and not (isinstance(value, str) and value.strip()):
        got = repr(value) if isinstance(value, str) else f"{type(value).__name__} {value}"
        msg = f"{arg} must be a non-empty string or None, got {got}."
        raise TypeError(msg)


def check_key_names(named, arg: str, what: str) -> None:
    """The keys of a dict of named models (``models``, ``scores``) are names of ``what``
    (``"the rows"``, ``"the models"``): strings that are not blank."""
    for name in named:
        if not (isinstance(name, str) and name.strip()):
            msg = f"{arg}' keys name {what} and must be non-empty strings, got {name!r}."
            raise TypeError(msg)


def check_k(k, n, name: str = "k") -> float:
    """A cutoff: an integer number of rows 1..n, or a fraction in (0, 1) of the rows, which
    must come to at least one row. ``n=None`` checks the type and range only (a scorer's
    ``k`` before it meets a fold)."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Real):
        msg = f"{name} must be an int (rows) or a float in (0, 1) (fraction of rows), got {k!r}."
        raise TypeError(msg)
    if isinstance(k, numbers.Integral):
        if k < 1 or (n is not None and k > n):
            where = "below 1" if n is None else f"outside 1..{n} (the number of rows scored)"
            msg = f"{name}={k} rows is {where}."
            raise ValueError(msg)
        return float(k)
    if not 0 < k < 1:
        msg = f"{name}={k!r}: a float k is a fraction of rows and must be in (0, 1)."
        raise ValueError(msg)
    if n is None:
        return float(k)
    if k * n < 1:
        msg = (f"{name}={k!r} of {n} rows is {k * n:.3g} rows, less than one: the number would "
               "rest on no row. Pass a larger fraction or an int number of rows.")
        raise ValueError(msg)
    return float(k) * n


def check_positive_int(value, name: str, minimum: int = 1) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        msg = f"{name} must be an integer >= {minimum}, got {value!r}."
        raise TypeError(msg)
    if value < minimum:
        msg = f"{name} must be >= {minimum}, got {value}."
        raise ValueError(msg)
    return int(value)


def _cpu_count() -> int:
    """CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def check_n_jobs(n_jobs, name: str = "n_jobs") -> int:
    """Number of threads, read as scikit-learn and joblib read ``n_jobs``: None is 1, a
    positive int that many, -1 every CPU, -2 all but one (``cpus + 1 + n_jobs``, at least
    1). 0, floats and bools are refused."""
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, numbers.Integral):
        msg = (f"{name} must be None, a positive int (threads) or a negative int (-1: every "
               f"CPU, -2: all but one), got {n_jobs!r}.")
        raise TypeError(msg)
    if n_jobs == 0:
        msg = (f"{name}=0 asks for no thread at all; pass None or 1 for one thread, a "
               "positive int for that many, or -1 for every CPU.")
        raise ValueError(msg)
    n_jobs = int(n_jobs)
    return n_jobs if n_jobs > 0 else max(_cpu_count() + 1 + n_jobs, 1)


def check_random_state_int(random_state):
    """None, an int or a numpy Generator/RandomState -> numpy Generator."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool) \
            and random_state < 0:
        msg = f"random_state must be a non-negative int (a seed), got {random_state}."
        raise ValueError(msg)
    if random_state is None or (isinstance(random_state, numbers.Integral) and not isinstance(
            random_state, bool)) or isinstance(random_state, np.random.Generator):
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    msg = f"random_state must be None, an int or a numpy Generator, got {random_state!r}."
    raise TypeError(msg)


# --- intervals (used by resampling and report) ------------------------------------------------


def check_level(level, name: str = "ci", example: str = "0.95 for a 95% interval") -> float:
    """A fraction strictly inside (0, 1): a confidence level, a significance level, a
    decision threshold. ``example`` shows the expected form in the error message."""
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, numbers.Real):
        msg = f"{name} must be a float in (0, 1), e.g. {example}; got {level!r}."
        raise TypeError(msg)
    if not 0 < level < 1:
        msg = f"{name}={level!r} is outside (0, 1); pass a fraction, e.g. {example}."
        raise ValueError(msg)
    return float(level)


def check_real(value, name: str, *, strictly_positive: bool) -> float:
    """A finite real number, > 0 (a row count, possibly averaged over folds) or >= 0 (a
    region of practical equivalence, a margin)."""
    bound = "> 0" if strictly_positive else ">= 0"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        msg = f"{name} must be a number {bound}, got {value!r}."
        raise TypeError(msg)
    if not (np.isfinite(value) and (value > 0 if strictly_positive else value >= 0)):
        msg = f"{name} must be a finite number {bound}, got {value!r}."
        raise ValueError(msg)
    return float(value)


def check_pvalues(pvalues, name: str = "pvalues") -> np.ndarray:
    """A non-empty 1-D float64 vector of p-values, each in [0, 1]."""
    arr = check_numeric_1d(pvalues, name)
    bad = (arr < 0) | (arr > 1)
    if np.any(bad):
        msg = f"{name} must lie in [0, 1]; got {arr[bad][:5].tolist()}."
        raise ValueError(msg)
    return arr
