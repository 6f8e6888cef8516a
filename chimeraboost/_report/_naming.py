"""What is each model called in a report, so that a reader can tell two apart?

- A model's own name, ``Pipeline(StandardScaler, LogisticRegression)``? :func:`_name`
  (:func:`chimeraboost._shared.estimator_outputs.estimator_name`).
- Two models of the same class? :func:`distinct_names` adds the parameters in which they
  differ, or their roles.
- The names a :func:`~chimeraboost.report` call prints, given ones checked? :func:`_names`.
"""

from __future__ import annotations

from .._shared.estimator_outputs import estimator_name as _name
from .._shared.validation import check_optional_name

__all__ = ["distinct_names"]


def distinct_names(first, second, roles=("model", "baseline")) -> tuple[str, str]:
    """Names that tell two estimators apart in a header.

    Their class names (:func:`_name`) when those differ; otherwise the same names followed by
    the parameters in which the two differ (``Pipeline(StandardScaler, LogisticRegression)
    [C=0.01]``), and when the parameters do not tell them apart either, by their ``roles``
    (``... (champion)``).
    """
    a, b = _name(first), _name(second)
    if a != b:
        return a, b
    shown = _differing_params(first, second)
    if shown is not None and shown[0] != shown[1]:
        return f"{a} [{shown[0]}]", f"{b} [{shown[1]}]"
    return f"{a} ({roles[0]})", f"{b} ({roles[1]})"


def _differing_params(first, second, limit: int = 2):
    try:
        pa, pb = first.get_params(deep=True), second.get_params(deep=True)
    except (AttributeError, TypeError):  # duck-typed models without get_params
        return None

    def nested(value):  # an estimator or a list of steps: its own parameters are listed too
        items = value if isinstance(value, (list, tuple)) else [value]
        return any(hasattr(v, "get_params") or (isinstance(v, tuple) and nested(list(v)))
                   for v in items)

    def short(value):
        text = repr(value)
        return text if len(text) <= 24 else text[:21] + "..."

    keys = [k for k in pa if k in pb and not nested(pa[k]) and not nested(pb[k])
            and short(pa[k]) != short(pb[k])]
    if not keys:
        return None
    tails = [k.rsplit("__", 1)[-1] for k in keys]
    labels = [t if tails.count(t) == 1 else k for k, t in zip(keys, tails)]
    more = ", ..." if len(keys) > limit else ""
    return tuple(", ".join(f"{lab}={short(p[k])}" for lab, k in zip(labels[:limit], keys))
                 + more for p in (pa, pb))


def _names(estimator, baseline, name, baseline_name) -> tuple[str, str | None]:
    """The model's and the baseline's names in the report: given ones as given, defaults
    made distinct by :func:`distinct_names`."""
    check_optional_name(name, "name")
    check_optional_name(baseline_name, "baseline_name")
    if baseline is None and baseline_name is not None:
        msg = (f"baseline_name={baseline_name!r} names the baseline, but baseline is None; "
               "pass baseline= (targets or a fitted estimator) too.")
        raise ValueError(msg)
    base_est = baseline if hasattr(baseline, "predict") else None
    if base_est is None:
        return (_name(estimator) if name is None else name), baseline_name
    default_model, default_base = distinct_names(estimator, base_est)
    model_name = default_model if name is None else name
    base_name = default_base if baseline_name is None else baseline_name
    if model_name == base_name:
        msg = (f"name and baseline_name both read {model_name!r}; give the model and the "
               "baseline different names so the comparison can tell them apart.")
        raise ValueError(msg)
    return model_name, base_name
