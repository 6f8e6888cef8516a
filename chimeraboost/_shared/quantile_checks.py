"""Checks of quantile forecasts: the levels, and a prediction matrix with one column per level.

Used by :mod:`chimeraboost.quantile_metrics` and the quantile regressor; the row checks they
build on are in :mod:`chimeraboost._shared.validation`. Every failure is a ``ValueError`` or
``TypeError`` naming the argument.
"""

from __future__ import annotations

import numbers

import numpy as np

from .validation import _to_numpy, check_numeric_1d, finite_float

__all__ = ["check_quantile_levels", "check_quantile_pred"]


def check_quantile_levels(quantiles, name: str = "quantiles") -> np.ndarray:
    """Quantile levels: a scalar or 1-D float64 array, strictly increasing, inside (0, 1).

    The open interval is deliberate: the 0- and 1-quantiles of a continuous target are
    -inf / +inf, and their pinball loss is zero for any forecast, so they carry no skill.
    """
    if isinstance(quantiles, np.ndarray) and quantiles.ndim == 0:
        quantiles = quantiles.reshape(1)
    elif isinstance(quantiles, numbers.Real) and not isinstance(quantiles, (bool, np.bool_)):
        quantiles = [quantiles]
    levels = check_numeric_1d(quantiles, name)
    bad = (levels <= 0) | (levels >= 1)
    if np.any(bad):
        msg = (
            f"{name} must lie strictly inside (0, 1); got {levels[bad].tolist()}. "
            "Pass levels as fractions (0.9), not percentages (90)."
        )
        raise ValueError(msg)
    steps = np.diff(levels)
    if np.any(steps <= 0):
        i = int(np.argmax(steps <= 0))
        msg = (
            f"{name} must be strictly increasing; got {name}[{i}]={levels[i]:g} followed by "
            f"{name}[{i + 1}]={levels[i + 1]:g}."
        )
        raise ValueError(msg)
    return levels


def _level_columns(pred, levels, name: str):
    """A quantile DataFrame whose column labels are the levels (0.1, 0.5, 0.9 -- numbers in
    (0, 1)) is matched to ``levels`` by label; other column labels keep their order."""
    columns = getattr(pred, "columns", None)
    if columns is None:
        return None
    cols = list(columns)
    try:
        values = np.array([float(c) for c in cols])
    except (TypeError, ValueError):
        return None  # names such as "lower", "median": read in order
    if not np.all((values > 0) & (values < 1)):
        return None  # 0..K-1 default labels and the like
    order = [int(np.argmin(np.abs(values - tau))) for tau in levels]
    if len(cols) != len(levels) or not np.allclose(values[order], levels, atol=1e-9) or \
            len(set(order)) != len(order):
        msg = (f"{name} is a DataFrame whose columns {cols} look like quantile levels but are "
               f"not the levels {np.asarray(levels).tolist()}; name the columns after the "
               f"levels, or pass {name}.to_numpy() with one column per level in order.")
        raise ValueError(msg)
    return order


def check_quantile_pred(pred, n_levels: int | None, name: str = "pred",
                        levels=None) -> np.ndarray:
    """An (n, K) float64 matrix of quantile predictions, one column per level, all finite.

    A 1-D ``pred`` is accepted only for a single level (K = 1) and becomes one column.
    ``n_levels=None`` accepts any number of columns (a 1-D ``pred`` is then one column). With
    ``levels``, a DataFrame whose columns are labelled by level is matched to them by label.
    """
    arr = _to_numpy(pred, name)
    if levels is not None and arr.ndim == 2:
        order = _level_columns(pred, levels, name)
        if order is not None:
            arr = arr[:, order]
    if arr.ndim == 1:
        if n_levels not in (None, 1):
            msg = (
                f"{name} is 1-dimensional but {n_levels} quantile levels were given; pass an "
                f"(n, {n_levels}) matrix with one column per level."
            )
            raise ValueError(msg)
        arr = arr[:, None]
    if arr.ndim != 2:
        msg = f"{name} must be an (n, K) matrix of quantile predictions, got shape {arr.shape}."
        raise ValueError(msg)
    if arr.shape[0] == 0:
        msg = f"{name} is empty; at least one row is needed."
        raise ValueError(msg)
    if n_levels is not None and arr.shape[1] != n_levels:
        msg = (
            f"{name} has {arr.shape[1]} columns but {n_levels} quantile levels were given; "
            "expected one column per level, in the order of the levels."
        )
        raise ValueError(msg)
    return finite_float(arr, name)
