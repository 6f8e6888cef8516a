"""The one table of facts about every number chimeraboost reports.

For each key of a report dict: whether greater is better (a score) or lower (a loss),
whether it describes the rows rather than the model (a base rate, the loss of the no-skill
forecast: such a number gets no paired difference and no decision), the label a table
prints and what a classifier's output must offer for it (:data:`NEEDS_PROBA`: the numbers
that need probabilities). And the default headline number per kind of prediction
(:data:`HEADLINE`). ``report``, ``compare``, ``slices``, ``scorers``, the command line and
the formatter import it; none keeps its own list.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Fact", "FACTS", "ABOUT_THE_ROWS", "AT_THRESHOLD", "AT_K", "HEADLINE", "NEEDS_PROBA",
           "MetricName", "parse_metric", "at_threshold", "is_loss", "fact", "needs"]


class Fact(NamedTuple):
    greater_is_better: bool | None  # None: neither (a count, a label)
    about_the_rows: bool
    label: str
    # What a classifier's output must offer for the number to exist: "probabilities" (a
    # proper score, calibration), "decision" (a class per row: accuracy, F1), "ranking" (an
    # order of the rows: AUCs, recall@k) or "threshold" (a probability, or a 0/1 rule, to
    # act on at a threshold: net benefit, expected cost). None: any output (and every
    # regression key).
    # chimeraboost._shared.predictions says which kind of output offers what.
    needs: str | None = None


def _loss(label, needs=None):
    return Fact(False, False, label, needs)


def _score(label, needs=None):
    return Fact(True, False, label, needs)


def _rows(label, needs=None):
    return Fact(None, True, label, needs)


FACTS: dict[str, Fact] = {
    # classification
    "log_loss": _loss("log loss", "probabilities"),
    # A reference loss (and UNC) is shown only beside the probability score it is the
    # reference of: without probabilities it is NaN with them (metrics.ranking_report).
    "log_loss_ref": _rows("log loss of the no-skill forecast", "probabilities"),
    "log_loss_skill": _score("log-loss skill", "probabilities"),
    "brier": _loss("Brier (sum)", "probabilities"),
    "brier_ref": _rows("Brier of the no-skill forecast", "probabilities"),
    "brier_skill": _score("Brier skill", "probabilities"),
    "calibration_mcb": _loss("miscalibration (MCB)", "probabilities"),
    # The calibration test (metrics.calibration_test): the population MCB's estimate is a
    # loss like MCB; the noise floor and the p-value describe the test, not a model to rank.
    "calibration_excess": _loss("population MCB (excess)", "probabilities"),
    "calibration_noise_floor": _rows("MCB noise floor"),
    "calibration_pvalue": _rows("calibration test p-value"),
    # Cox's logistic recalibration and its score test (the same test's result): they say how
    # the forecast is miscalibrated (slope below 1: over-confident), not which model is better.
    "recalibration_intercept": _rows("recalibration intercept"),
    "recalibration_slope": _rows("recalibration slope"),
    "recalibration_pvalue": _rows("recalibration test p-value"),
    "discrimination_dsc": _score("discrimination (DSC)", "probabilities"),
    "uncertainty_unc": _rows("uncertainty (UNC)", "probabilities"),
    "roc_auc": _score("ROC AUC", "ranking"),
    "pr_auc": _score("PR AUC", "ranking"),
    "pr_auc_lift": _rows("PR AUC / base rate"),
    "accuracy": _score("accuracy", "decision"),
    "balanced_accuracy": _score("balanced accuracy", "decision"),
    "f1_macro": _score("F1 macro", "decision"),
    "recall_at_k": _score("recall@k", "ranking"),
    "precision_at_k": _score("precision@k", "ranking"),
    "base_rate": _rows("base rate"),
    "positives": _rows("positives"),
    "reference_prior": _rows("reference prior"),
    # regression
    "mse": _loss("MSE"),
    "rmse": _loss("RMSE"),
    "mae": _loss("MAE"),
    # r2 is sklearn's r2_score: 1 - MSE / the MSE of the scored rows' own mean. The skill
    # against the reference mean (the baseline's, when one is given) is mse_skill; the two
    # are equal without a baseline.
    "r2": _score("r2"),
    "mse_skill": _score("MSE skill"),
    "mae_skill": _score("MAE skill"),
    "mean_y": _rows("mean of y"),
    "baseline_mean": _rows("reference mean"),
    "baseline_median": _rows("reference median"),
    "mse_ref": _rows("MSE of the constant mean"),
    "rmse_ref": _rows("RMSE of the constant mean"),
    "mae_ref": _rows("MAE of the constant median"),
    # quantile forecasts
    "crps": _loss("mean pinball (CRPS / 2)"),
    "crps_ref": _rows("mean pinball of the constant quantiles"),
    "crps_skill": _score("CRPS skill"),
    "crossing_rate": _loss("crossing rate"),
    "mae_median": _loss("MAE of the median"),
    "pinball": _loss("pinball loss"),
    # decisions at a threshold (chimeraboost.decisions): "net_benefit@0.2" is the fact of
    # "net_benefit" at threshold 0.2, see fact()
    "net_benefit": _score("net benefit", "threshold"),
    "net_benefit_all": _rows("net benefit of treating all"),
    "standardized_net_benefit": _score("standardized net benefit", "threshold"),
    "sensitivity": _score("sensitivity", "threshold"),
    "specificity": _score("specificity", "threshold"),
    "ppv": _score("PPV", "threshold"),
    "npv": _score("NPV", "threshold"),
    "flagged": Fact(None, False, "flagged share", "threshold"),
    "expected_cost": _loss("expected cost", "threshold"),
    "expected_cost_all": _rows("expected cost of treating all"),
    "expected_cost_none": _rows("expected cost of treating none"),
    # bookkeeping
    "n": _rows("rows"),
    "classes": _rows("classes"),
    "reference": _rows("reference"),
    "quantiles": _rows("quantile levels"),
    "reference_quantiles": _rows("reference quantiles"),
    "baseline": _rows("reference"),
    "intervals": _rows("central intervals"),
}

ABOUT_THE_ROWS = frozenset(k for k, f in FACTS.items() if f.about_the_rows)

# The numbers that exist only with probabilities: NaN for a 0/1 rule or for scores.
NEEDS_PROBA = frozenset(k for k, f in FACTS.items() if f.needs == "probabilities")

# The headline number -- the one a comparison decides on and a table leads with when the
# caller names none -- by the kind of prediction (the report's task; "scores" is an array
# that only ranks).
# - Probabilities: the Brier skill, a proper score against the no-skill forecast.
# - Ranking-only scores: ROC AUC, the one number a score without a threshold gives.
# - A 0/1 rule: balanced accuracy, the mean of the per-class recalls. Plain accuracy moves
#   with the base rate (a rule that flags no one scores 1 - prevalence, and a slice or a
#   period with fewer positives makes any rule look better); balanced accuracy is 1/2 for
#   every rule that ignores the rows, whatever the base rate. For a binary 0/1 rule it is
#   also its ROC AUC ((TPR + TNR) / 2, ties counted half), so a rule and a ranking model
#   stand on one scale.
# - A regression: r2 (sklearn's r2_score: the MSE skill against the scored rows' mean).
# - Quantiles: the CRPS skill against the constant quantiles.
HEADLINE = {
    "classification": "brier_skill",
    "ranking": "roc_auc",
    "scores": "roc_auc",
    "rule": "balanced_accuracy",
    "regression": "r2",
    "quantile": "crps_skill",
}

# Numbers of a decision at a threshold, keyed "name@t" (t a float in (0, 1)).
AT_THRESHOLD = frozenset({"net_benefit", "net_benefit_all", "standardized_net_benefit",
                          "sensitivity", "specificity", "ppv", "npv", "flagged"})


# Numbers of the top of a ranking, keyed "recall@400" (the top 400 rows) or "precision@5%"
# (the top 5% of the rows): the name before "@" -> the report key.
AT_K = {"recall": "recall_at_k", "precision": "precision_at_k"}


class MetricName(NamedTuple):
    """A metric name as :func:`parse_metric` reads it.

    ``name`` is the report key (``"net_benefit"``, ``"recall_at_k"``, ``"brier_skill"``);
    ``at`` the value after ``@`` (a threshold in (0, 1), a number of rows, or a fraction of
    the rows for ``"precision@5%"``), None without one; ``key`` the one spelling every table
    and evaluator uses (``"net_benefit@0.2"`` for ``"net_benefit@.20"``); ``text`` what was
    given."""

    name: str
    at: float | int | None
    key: str
    text: str


def _forms(valid) -> str:
    """How to write a number at a threshold or of the top rows, for a message."""
    at_t = sorted(AT_THRESHOLD - ABOUT_THE_ROWS) if valid is None else sorted(
        n for n in AT_THRESHOLD if f"{n}@" in valid)
    at_k = [] if valid is None else [w for w in AT_K if f"{w}@" in valid]
    forms = []
    if at_t:
        forms.append(f"name@threshold with the threshold in (0, 1) for {at_t} (e.g. "
                     f"'{at_t[0]}@0.2')")
    if at_k:
        forms.append(f"{'/'.join(at_k)}@N or @P% for the top N rows or P% of the rows (e.g. "
                     f"'{at_k[0]}@400', '{at_k[0]}@5%')")
    return " or ".join(forms)


def parse_metric(text, *, arg="metric", valid=None, hint="", why="") -> MetricName:
    """Read a metric name, with its value after ``@`` when it has one: the one parser of
    ``"net_benefit@0.2"``, ``"sensitivity@.3"``, ``"ppv@3e-1"``, ``"recall@400"`` and
    ``"precision@5%"`` for every function that takes a metric name.

    Parameters
    ----------
    text : str
        The name as given.
    arg : str
        The argument it came in, for the messages (``"primary"``, ``"metrics"``).
    valid : collection of str, default=None
        The names the caller accepts: plain keys, and ``"net_benefit@"`` / ``"recall@"``
        for the forms with a value. None: any name; the value is still checked.
    hint : str
        What else the caller takes, ending the message that refuses a name.
    why : str
        Why the caller takes only ``valid`` (``" (...)"``), inserted in that message.

    Returns
    -------
    MetricName

    Raises
    ------
    TypeError
        ``text`` is not a string.
    ValueError
        A name the caller does not take (the message lists those it does, and the
        ``name@threshold`` form where it is taken), or a value after ``@`` that is not a
        number in the name's range.
    """
    if not isinstance(text, str):
        msg = f"{arg} must be a metric name (str), got {type(text).__name__} {text!r}."
        raise TypeError(msg)
    given = text.strip()
    name, at, value = (part.strip() for part in given.partition("@"))
    if at and name in AT_THRESHOLD:
        parsed = MetricName(name, _threshold(value, given, arg), "", text)
        parsed = parsed._replace(key=f"{name}@{parsed.at!r}")
    elif at and name in AT_K:
        parsed = MetricName(AT_K[name], _cutoff(value, given, arg), AT_K[name], text)
    elif at:
        msg = (f"{arg}={text!r}: {name!r} takes no value after '@'; write "
               f"{_forms(valid) or 'the name alone'}.")
        raise ValueError(msg)
    else:
        parsed = MetricName(given, None, given, text)
    wanted = f"{name}@" if at else given
    if valid is not None and wanted not in valid:
        plain = [v for v in valid if not v.endswith("@")]
        ways = [f"one of {plain}" if plain else "", _forms(valid), hint]
        msg = (f"{arg}={text!r} is not among the metrics taken here{why}; use "
               f"{' or '.join(w for w in ways if w)}.")
        raise ValueError(msg)
    return parsed


def _threshold(value, given, arg) -> float:
    try:
        t = float(value)
    except ValueError:
        t = None
    if t is None or not 0 < t < 1:
        msg = (f"{arg}={given!r}: the threshold after '@' must be a number strictly inside "
               f"(0, 1), got {value!r}; e.g. '{given.partition('@')[0].strip()}@0.2'.")
        raise ValueError(msg)
    return t


def _cutoff(value, given, arg):
    """``"400"`` -> 400 rows; ``"5%"`` -> 0.05 of the rows."""
    what = given.partition("@")[0].strip()
    pct = value.endswith("%")
    try:
        v = float(value[:-1] if pct else value)
    except ValueError:
        v = float("nan")
    if pct and not 0 < v < 100:
        msg = (f"{arg}={given!r}: a percentage of the rows must be in (0, 100), got "
               f"{value!r}; e.g. '{what}@5%'.")
        raise ValueError(msg)
    if pct:
        return v / 100
    if not (v >= 1 and v == int(v)):
        msg = (f"{arg}={given!r}: a number of rows must be a whole number >= 1, got "
               f"{value!r}; e.g. '{what}@400' (or '{what}@5%' for a share of the rows).")
        raise ValueError(msg)
    return int(v)


def at_threshold(key: str):
    """``("net_benefit", 0.2)`` for ``"net_benefit@0.2"``; None for any other key (and for a
    value outside (0, 1): :func:`parse_metric` says why)."""
    try:
        parsed = parse_metric(key) if isinstance(key, str) else None
    except ValueError:
        return None
    if parsed is None or parsed.name not in AT_THRESHOLD or parsed.at is None:
        return None
    return parsed.name, parsed.at


def fact(key: str) -> Fact:
    """The facts of ``key``; a clear error for a name no report produces. A number at a
    threshold (``"net_benefit@0.2"``) has the facts of its name, labelled with the threshold."""
    parsed = at_threshold(key)
    if parsed is not None:
        f = FACTS[parsed[0]]
        return f._replace(label=f"{f.label} at {parsed[1]:g}")
    try:
        return FACTS[key]
    except KeyError:
        msg = f"{key!r} is not a metric chimeraboost reports; known: {sorted(FACTS)}."
        raise ValueError(msg) from None


def needs(key: str) -> str | None:
    """What a classifier's output must offer for ``key`` (``"net_benefit@0.2"`` too):
    ``"probabilities"``, ``"decision"``, ``"ranking"``, ``"threshold"`` or None (anything)."""
    parsed = at_threshold(key)
    name = parsed[0] if parsed is not None else key
    return FACTS[name].needs if name in FACTS else None


def is_loss(key: str) -> bool:
    """True when lower is better for ``key``."""
    return fact(key).greater_is_better is False
