"""The command line's words for bad input: a flag's value refused as it is read, and a
library message told in flags.

- Is this value of a flag usable? The ``type=`` readers here (:func:`level`, :func:`threshold`,
  :func:`n_jobs`, :func:`n_boot`, :func:`bins`, :func:`seed`, :func:`cost`, :func:`share`,
  :func:`looks`) refuse it while the arguments are parsed, naming the flag and what it takes.
- A message from the library names a Python argument (``n_jobs=0``, ``threshold= and
  costs=``): :func:`in_flags` says it with the command's flags (``--n-jobs 0``,
  ``--threshold and --cost-fp/--cost-fn``), through one table per command
  (:data:`FLAGS`), so that every message the CLI prints speaks the CLI's language.

Pure Python: the parser reads flags before the library (numpy, scikit-learn) is imported.
"""

from __future__ import annotations

import argparse
import math
import re

__all__ = ["FLAGS", "in_flags", "level", "threshold", "n_jobs", "n_boot", "bins", "seed", "cost",
           "share", "looks"]


def _number(text, kind, example):
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"expected {what} such as {example}, got {text!r}") \
            from None


def level(text) -> float:
    """The level of an interval, strictly inside (0, 1)."""
    value = _number(text, float, "0.95")
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"the level must be in (0, 1), e.g. 0.95; got {text}")
    return value


def threshold(text) -> float:
    """A threshold probability, strictly inside (0, 1)."""
    value = _number(text, float, "0.2")
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(
            f"the threshold is a probability strictly inside (0, 1), e.g. 0.2 (treat the rows "
            f"whose probability is >= 0.2); got {text}")
    return value


def n_jobs(text) -> int:
    """Workers: 1, N > 1, or a negative number counted back from every CPU (-1: all)."""
    value = _number(text, int, "4")
    if value == 0:
        raise argparse.ArgumentTypeError(
            "0 workers cannot run; give 1 (the default), a number of workers, or -1 for "
            "every CPU")
    return value


def n_boot(text) -> int:
    """Bootstrap resamples, at least 1."""
    value = _number(text, int, "2000")
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"the number of bootstrap resamples must be >= 1 (1000 or more for stable "
            f"interval ends; default 2000), got {value}")
    return value


def bins(text) -> int:
    """Quantile ranges of a numeric column, at least 2."""
    value = _number(text, int, "5")
    if value < 2:
        raise argparse.ArgumentTypeError(
            f"a numeric column is cut into at least 2 ranges (default 5), got {value}")
    return value


def seed(text) -> int:
    """A seed: a whole number >= 0."""
    value = _number(text, int, "0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number >= 0, got {value}")
    return value


def cost(text) -> float:
    """A cost per row: a finite number >= 0."""
    value = _number(text, float, "1")
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"a cost per row is a finite number >= 0, got {text}")
    return value


def share(text) -> float:
    """A share or a probability strictly inside (0, 1) (--alpha, --power, --challenger-share)."""
    value = _number(text, float, "0.05")
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"expected a number strictly inside (0, 1), got {text}")
    return value


def looks(text) -> int:
    """Planned looks at an online test, at least 1."""
    value = _number(text, int, "1")
    if value < 1:
        raise argparse.ArgumentTypeError(f"an online test has at least 1 look, got {value}")
    return value


# The library's argument names, as each command's flags. A name missing from a command's
# table keeps its Python spelling (it then names no flag of that command).
_COMMON = {"n_jobs": "--n-jobs", "n_boot": "--n-boot", "random_state": "--seed",
           "ci_method": "--ci-method", "level": "--ci", "ci": "--ci",
           "sample_weight": "--weight", "groups": "--groups", "time": "--time",
           "classes": "--classes", "pos_label": "--classes"}
FLAGS = {
    "report": {**_COMMON, "threshold": "--threshold", "costs": "--cost-fp/--cost-fn",
               "cost_fp": "--cost-fp", "cost_fn": "--cost-fn", "k": "--k", "by": "--by",
               "bins": "--bins", "baseline": "--baseline-score",
               "baseline_name": "--baseline-score", "estimator": "--score"},
    "table": {**_COMMON, "primary": "--primary", "metrics": "--primary",
              "costs": "--cost-fp/--cost-fn", "baseline_name": "--baseline",
              "split": "--split", "models": "--score"},
    "shadow": {**_COMMON, "threshold": "--threshold", "k": "--k", "by": "--by",
               "adjust": "--adjust", "y": "--label", "reference_y": "--reference-target",
               "reference_champion": "--reference", "reference_challenger": "--reference",
               "champion": "--champion", "challenger": "--challenger"},
    "plan": {"alpha": "--alpha", "power": "--power", "challenger_share": "--challenger-share",
             "rows_per_day": "--rows-per-day", "looks": "--looks", "margin": "--margin",
             "prevalence": "--prevalence", "greater_is_better": "--higher-is-better",
             "design_effect": "--design-effect"},
    "readout": {"primary": "--primary", "groups_champion": "--groups",
                "groups_challenger": "--groups"},
}

# What the library calls the things a command reads from columns.
_PHRASES = {"report": {"the estimator ": "the --score column ",
                       "the baseline ": "the --baseline-score column ",
                       "by puts every row": "--by puts every row",
                       "by column ": "--by column "}}


def in_flags(message: str, command: str) -> str:
    """``message`` with each Python argument of ``command``'s table said as its flag:
    ``name=value`` -> ``flag value``, ``name=`` -> ``flag``, and a bare ``name`` with an
    underscore (``n_boot must be >= 1``) -> ``flag``. Words that are also plain English
    (``time``, ``by``, ``k``) change only in the ``name=`` form."""
    table = FLAGS.get(command)
    if not table:
        return message
    names = "|".join(sorted(map(re.escape, table), key=len, reverse=True))

    def with_value(m):
        flag, rest = table[m.group(1)], m.group(2)
        return f"{flag} {rest}" if rest else flag

    out = re.sub(rf"(?<![\w.\-'\"\[])({names})=([^\s),.;:]?)", with_value, message)
    for python, cli in _PHRASES.get(command, {}).items():
        out = out.replace(python, cli)
    # A message that opens with the argument's name ("costs: every decision costs the
    # same", "time must hold dates").
    out = re.sub(rf"^({names})(?=[:\s])", lambda m: table[m.group(1)], out)
    bare = "|".join(re.escape(n) for n in table if "_" in n)
    if bare:
        out = re.sub(rf"(?<![\w.\-'\"\[])({bare})\b(?![=(])", lambda m: table[m.group(1)], out)
    # "pass None" is the library's way of leaving an argument out: leave the flag out.
    named = re.search(r"--[a-z][\w-]*", out)
    if named:
        out = re.sub(r"\bpass None\b", f"leave {named.group(0)} out", out)
    return out
