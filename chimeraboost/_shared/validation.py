"""The one place where inputs are checked and error messages are written.

Every public function of chimeraboost calls these helpers first, so a bad input is reported
with the name of the argument, what was wrong and what was expected -- never as a numpy
traceback from deep inside a kernel. Messages are built in a variable, then raised. The
checks of quantile forecasts, built on these, are in :mod:`chimeraboost._shared.quantile_checks`.

Accepted containers: lists, numpy arrays, pandas / polars Series and DataFrames (anything
``numpy.asarray`` understands). Labels may be strings.

The checks live in one module per question and are re-exported here, so that every other
module imports them from this one place:

- arrays, rows and labels (conversion, shapes, finiteness, alignment, weights, class labels,
  categorical columns): :mod:`chimeraboost._shared.array_checks`;
- probabilities and the positive class: :mod:`chimeraboost._shared.proba_checks`;
- scalar parameters (counts, levels, reals, seeds, cutoffs, p-values, a baseline's name):
  :mod:`chimeraboost._shared.param_checks`;
- estimators (family, fitted, final step, quantile levels, features):
  :mod:`chimeraboost._shared.estimator_checks`.

Defined here: :func:`warn_degenerate` and :func:`import_pandas`.
"""

from __future__ import annotations

# Re-exported: one place to import checks from (private names too: other modules use them).
from .array_checks import (  # noqa: F401
    _is_missing_value,
    as_dates,
    _is_sparse,
    _to_numpy,
    as_1d,
    categorical_columns,
    check_1d_shape,
    check_aligned,
    check_classes,
    check_no_missing,
    check_numeric_1d,
    check_rows,
    check_same_length,
    check_sample_weight,
    encode_labels,
    finite_float,
    plain,
    pow2_below,
    read_classes,
    shown_shape,
    table_column_names,
    to_numpy,
    unit_scale,
)
from .estimator_checks import (  # noqa: F401 - re-exported: one place to import checks from
    check_features,
    check_fitted,
    estimator_family,
    final_estimator,
    quantile_levels,
)
from .param_checks import (  # noqa: F401
    check_baseline_name,
    check_key_names,
    check_optional_name,
    check_k,
    check_level,
    check_n_jobs,
    check_positive_int,
    check_pvalues,
    check_random_state_int,
    check_real,
)
from .proba_checks import (  # noqa: F401
    PROBA_RANGE_TOL,
    PROBA_SUM_TOL,
    binary_target,
    check_proba,
    check_proba_shape,
    label_columns,
    require_proba,
)
from ..exceptions import DegenerateMetricWarning
from ..exceptions import warn as _warn

__all__ = [
    "plain",
    "table_column_names",
    "to_numpy",
    "as_1d",
    "finite_float",
    "check_numeric_1d",
    "check_sample_weight",
    "check_same_length",
    "check_classes",
    "encode_labels",
    "check_proba",
    "check_no_missing",
    "label_columns",
    "check_aligned",
    "unit_scale",
    "pow2_below",
    "binary_target",
    "check_rows",
    "estimator_family",
    "check_fitted",
    "check_features",
    "final_estimator",
    "quantile_levels",
    "check_k",
    "require_proba",
    "check_baseline_name",
    "check_random_state_int",
    "check_positive_int",
    "warn_degenerate",
    "DegenerateMetricWarning",
    "check_level",
    "check_n_jobs",
    "check_real",
    "import_pandas",
    "check_pvalues",
    "categorical_columns",
    "read_classes",
]


def warn_degenerate(message: str) -> None:
    """Warn that a number is NaN because the input is degenerate, not wrong; the warning
    names the user's line (the first frame outside chimeraboost)."""
    _warn(message, DegenerateMetricWarning)


def import_pandas(feature: str):
    """pandas, an optional dependency, imported when a feature needs it."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        msg = f"{feature} needs pandas, an optional dependency: pip install 'chimeraboost[pandas]'."
        raise ImportError(msg) from exc
    return pd
