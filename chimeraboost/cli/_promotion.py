"""The production path on the command line: ``chimeraboost shadow FILE``, ``chimeraboost plan``
and ``chimeraboost readout FILE``.

Which command answers which question:

- Do the champion and the challenger agree on live rows, and have their scores moved since
  offline? ``shadow FILE --champion COL --challenger COL [--threshold T] [--by COL] ...``
  (:func:`chimeraboost.promotion.shadow_report`).
- How many rows and days does the online test need? ``plan --metric NAME --kind KIND
  --champion X --challenger Y [FILE] ... --out plan.json``
  (:func:`chimeraboost.promotion.plan_ab_test`): the pre-registration, saved as JSON.
- What does the test say? ``readout FILE --plan plan.json --arm COL [--look COL]``
  (:func:`chimeraboost.promotion.read_ab_test`).

This module adds the three subcommands to the parser (:func:`add_commands`) and runs them
(:data:`RUN`); ``_main`` prints errors and sets the exit status.
"""

from __future__ import annotations

import argparse
import json

from .._shared.ci_methods import CI_METHODS, DEFAULT_CI_METHOD
from . import _flags

_RAW = argparse.RawDescriptionHelpFormatter

_SHADOW_HELP = """\
Shadow traffic: the champion's and the challenger's scores on the same live
rows, before labels arrive. Prints the decision flip rate in each direction at
--threshold, Cohen's kappa, the top-k overlap, Spearman's rank correlation,
each model's predicted positive rate and mean score (against the offline base
rate with --reference), and each model's score shift from its offline scores
(PSI on the offline deciles, KS) -- every number with a paired bootstrap
interval. --by COL: the flip rate per slice against the rest, adjusted for the
number of slices. --label COL: who is right where the decisions differ, on the
rows whose label has arrived (empty cells: not yet), exact McNemar test.
--groups COL (the user behind each request): whole users are resampled, and
McNemar's test is the clustered one; --time COL: blocks of time."""

_SHADOW_EPILOG = """\
Example:
  chimeraboost shadow live.csv --champion p_old --challenger p_new --threshold 0.3
  chimeraboost shadow live.csv --champion p_old --challenger p_new --threshold 0.3 \\
      --k 500 --by region --reference holdout.csv --reference-target churned"""

_PLAN_HELP = """\
Plan the online test: rows per arm and days for a randomised split, from the
offline evidence. The primary metric (--metric, --kind) is one of:
  proportion  --champion and --challenger are the expected rates (0.10 0.12)
  mean        columns of FILE: each model's per-row value offline (a cost,
              revenue); say --higher-is-better or --lower-is-better
  brier, log_loss, roc_auc
              columns of FILE: each model's probabilities (scores) on
              labelled offline rows, with --target COL; a roc_auc may also
              be two AUCs with --prevalence
--margin: the improvement the challenger must beat (the ROPE; default 0).
--guardrail NAME KIND CHAMPION CHALLENGER MARGIN: a metric that must not get
worse by more than MARGIN (> 0). --looks K: K equally spaced looks with
Lan-DeMets O'Brien-Fleming-type bounds. --design-effect D: users randomised,
each with several rows: the rows times D = 1 + (m - 1) ICC. --out plan.json
saves the plan."""

_PLAN_EPILOG = """\
Example:
  chimeraboost plan --metric conversion --kind proportion --champion 0.10 \\
      --challenger 0.12 --rows-per-day 2000 --looks 10 --out plan.json
  chimeraboost plan holdout.csv --metric brier --kind brier --target churned \\
      --champion p_old --challenger p_new --margin 0.002 --out plan.json"""

_READOUT_HELP = """\
Read the online test out against its plan: one row per user, --arm COL saying
which model served it. Each of the plan's metrics is read from the column of
its name (--column NAME=COL to map it); a brier, log_loss or roc_auc metric
from --target COL and --score COL. --look COL (a day, a date) makes each
distinct value a look at every row up to it: the bounds of the looks taken are
recomputed, so looking every day keeps the error at the plan's alpha. Ends in
promote, keep the champion, or keep testing (with the rows still needed).
--groups COL (the user of each row, when a user brings several): each arm's
standard error is the cluster-robust one."""

_READOUT_EPILOG = """\
Example:
  chimeraboost readout test.csv --plan plan.json --arm arm --look day
  chimeraboost readout test.csv --plan plan.json --arm variant \\
      --champion-label A --challenger-label B --column conversion=converted"""


def add_commands(sub) -> None:
    """The ``shadow``, ``plan`` and ``readout`` subcommands."""
    p = sub.add_parser("shadow", help="agreement and drift of two models on live rows",
                       description=_SHADOW_HELP, epilog=_SHADOW_EPILOG, formatter_class=_RAW)
    p.add_argument("file", metavar="FILE", help="CSV, TSV or Parquet file of live rows")
    p.add_argument("--champion", required=True, metavar="COL", help="the champion's scores")
    p.add_argument("--challenger", required=True, metavar="COL",
                   help="the challenger's scores")
    p.add_argument("--threshold", type=float, metavar="T",
                   help="treat a row when its score is >= T (flip rates, kappa, McNemar)")
    p.add_argument("--k", type=float, metavar="N", help="top-k overlap: N rows or a fraction")
    p.add_argument("--by", metavar="COL", help="flip rate per slice of this column")
    p.add_argument("--label", metavar="COL", help="labels as they arrive (empty: not yet)")
    p.add_argument("--reference", metavar="FILE",
                   help="the offline holdout, with the same score columns: PSI and KS")
    p.add_argument("--reference-target", metavar="COL",
                   help="the holdout's outcomes: the base rate each mean score is set against")
    p.add_argument("--adjust", choices=("holm", "bh"), default="holm",
                   help="adjustment over the slices (default holm)")
    p.add_argument("--groups", metavar="COL",
                   help="the user (unit) of each row: whole users are resampled")
    p.add_argument("--time", metavar="COL",
                   help="each row's time: blocks of time are resampled")
    _resampling(p)
    p.add_argument("--json", action="store_true", help="print every number as JSON")

    p = sub.add_parser("plan", help="rows and days of an online test: the pre-registration",
                       description=_PLAN_HELP, epilog=_PLAN_EPILOG, formatter_class=_RAW)
    p.add_argument("file", nargs="?", metavar="FILE", help="labelled offline rows (optional)")
    p.add_argument("--metric", required=True, metavar="NAME", help="the primary metric's name")
    p.add_argument("--kind", required=True, metavar="KIND",
                   choices=("proportion", "mean", "brier", "log_loss", "roc_auc"))
    p.add_argument("--champion", required=True, metavar="X", help="a rate, or a column")
    p.add_argument("--challenger", required=True, metavar="Y", help="a rate, or a column")
    p.add_argument("--target", metavar="COL", help="outcomes of FILE (brier, log_loss, roc_auc)")
    p.add_argument("--prevalence", type=float, help="share of positives (roc_auc from AUCs)")
    p.add_argument("--margin", type=float, default=0.0,
                   help="the improvement the challenger must beat (default 0)")
    better = p.add_mutually_exclusive_group()
    better.add_argument("--higher-is-better", action="store_true", help="for a mean")
    better.add_argument("--lower-is-better", action="store_true", help="for a mean")
    p.add_argument("--guardrail", nargs=5, action="append", default=[],
                   metavar=("NAME", "KIND", "CHAMPION", "CHALLENGER", "MARGIN"),
                   help="a metric that must not get worse by more than MARGIN (> 0); a mean "
                        "guardrail is lower-is-better with kind mean-, higher with mean+")
    p.add_argument("--alpha", type=_flags.share, default=0.05,
                   help="two-sided error (default 0.05)")
    p.add_argument("--power", type=_flags.share, default=0.8, help="power (default 0.8)")
    p.add_argument("--challenger-share", type=_flags.share, default=0.5, metavar="SHARE",
                   help="the challenger's share of traffic (default 0.5)")
    p.add_argument("--rows-per-day", type=float, metavar="N", help="rows entering the test a day")
    p.add_argument("--looks", type=_flags.looks, default=1, help="planned looks (default 1)")
    p.add_argument("--design-effect", type=float, default=1.0, metavar="D",
                   help="rows times D for users with several rows (default 1)")
    p.add_argument("--out", metavar="FILE", help="save the plan as JSON")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    _dialect(p)

    p = sub.add_parser("readout", help="read an online test out against its plan",
                       description=_READOUT_HELP, epilog=_READOUT_EPILOG, formatter_class=_RAW)
    p.add_argument("file", metavar="FILE", help="one row per user of the test")
    p.add_argument("--plan", required=True, metavar="FILE", help="the plan's JSON (plan --out)")
    p.add_argument("--arm", required=True, metavar="COL", help="which model served the row")
    p.add_argument("--champion-label", default="champion", metavar="TEXT",
                   help="the --arm value of the champion's rows (default champion)")
    p.add_argument("--challenger-label", default="challenger", metavar="TEXT",
                   help="the --arm value of the challenger's rows (default challenger)")
    p.add_argument("--look", metavar="COL", help="the look (day) each row arrived in")
    p.add_argument("--column", action="append", default=[], metavar="NAME=COL",
                   help="read the plan's metric NAME from column COL")
    p.add_argument("--target", metavar="COL", help="outcomes, for brier, log_loss, roc_auc")
    p.add_argument("--score", metavar="COL", help="the serving model's score, for the same")
    p.add_argument("--primary", metavar="NAME", help="refuse unless the plan's primary is NAME")
    p.add_argument("--groups", metavar="COL",
                   help="the randomised user of each row: cluster-robust standard errors")
    p.add_argument("--json", action="store_true", help="print the readout as JSON")
    _dialect(p)


def _dialect(p):
    p.add_argument("--delimiter", metavar="CHAR", help="the character between a CSV's cells")
    p.add_argument("--decimal", choices=(".", ","), default=".", help="the decimal mark")


def _resampling(p):
    p.add_argument("--ci", type=_flags.level, default=0.95, metavar="LEVEL",
                   help="level of the intervals (default 0.95)")
    p.add_argument("--n-boot", type=_flags.n_boot, default=2000, metavar="N",
                   help="bootstrap resamples (default 2000)")
    p.add_argument("--ci-method", choices=CI_METHODS, default=DEFAULT_CI_METHOD,
                   metavar="METHOD", help=f"one of {', '.join(CI_METHODS)}")
    p.add_argument("--seed", type=_flags.seed, default=0,
                   help="seed of the resampling (default 0)")
    _dialect(p)


def _read(args, path, names):
    from ._files import read_columns

    names = list(dict.fromkeys(n for n in names if n is not None))
    return read_columns(path, names, delimiter=args.delimiter, decimal=args.decimal)


def _optional_labels(cells, column, path):
    """Labels with empty cells (not yet arrived) as NaN; numbers when they are numbers."""
    import numpy as np

    from ._files import labels

    missing = [c is None or (isinstance(c, str) and c.strip().lower() in ("", "na", "nan"))
               for c in cells]
    known = [c for c, m in zip(cells, missing) if not m]
    values = labels(known, column, path) if known else np.array([])
    out = np.full(len(cells), np.nan, dtype=object if values.dtype.kind in "OU" else float)
    out[~np.array(missing, dtype=bool)] = values
    return out


def run_shadow(args, out):
    import numpy as np

    from ..promotion import shadow_report
    from ._files import labels, numbers

    cols = _read(args, args.file, [args.champion, args.challenger, args.by, args.label,
                                   args.groups, args.time])
    kw = {}
    if args.by:
        kw["by"] = np.array([str(c) for c in cols[args.by]])
    if args.groups:
        kw["groups"] = np.array([str(c) for c in cols[args.groups]])
    if args.time:
        kw["time"] = labels(cols[args.time], args.time, args.file)
    if args.label:
        kw["y"] = _optional_labels(cols[args.label], args.label, args.file)
    if args.reference:
        ref = _read(args, args.reference, [args.champion, args.challenger, args.reference_target])
        kw["reference_champion"] = numbers(ref[args.champion], args.champion, args.reference)
        kw["reference_challenger"] = numbers(ref[args.challenger], args.challenger,
                                             args.reference)
        if args.reference_target:
            kw["reference_y"] = labels(ref[args.reference_target], args.reference_target,
                                       args.reference)
    k = None if args.k is None else (int(args.k) if args.k >= 1 else args.k)
    r = shadow_report(numbers(cols[args.champion], args.champion, args.file),
                      numbers(cols[args.challenger], args.challenger, args.file),
                      threshold=args.threshold, k=k, level=args.ci, n_boot=args.n_boot,
                      random_state=args.seed, ci_method=args.ci_method, adjust=args.adjust,
                      **kw)
    _print(r, args.json, out)


def _metric(args, name, kind, champion, challenger, margin, better=None):
    from ..promotion import ab_metric
    from ._files import labels, numbers

    if kind in ("mean+", "mean-"):
        kind, better = "mean", kind == "mean+"
    if kind == "proportion" or (kind == "roc_auc" and args.file is None):
        return ab_metric(name, kind, _number(champion, "--champion"),
                         _number(challenger, "--challenger"), margin=margin,
                         prevalence=args.prevalence)
    if args.file is None:
        msg = f"a {kind} metric is planned from offline rows: give FILE and its columns."
        raise ValueError(msg)
    if kind != "mean" and not args.target:
        msg = f"a {kind} metric needs --target COL (the offline rows' outcomes)."
        raise ValueError(msg)
    cols = _read(args, args.file, [champion, challenger, args.target if kind != "mean" else None])
    y = None if kind == "mean" else labels(cols[args.target], args.target, args.file)
    return ab_metric(name, kind, numbers(cols[champion], champion, args.file),
                     numbers(cols[challenger], challenger, args.file), y=y, margin=margin,
                     greater_is_better=better)


def _number(text, flag):
    try:
        return float(text)
    except ValueError:
        msg = f"{flag} must be a number for a proportion (an expected rate), got {text!r}."
        raise ValueError(msg) from None


def run_plan(args, out):
    from ..promotion import plan_ab_test

    better = True if args.higher_is_better else False if args.lower_is_better else None
    primary = _metric(args, args.metric, args.kind, args.champion, args.challenger,
                      args.margin, better)
    guards = [_metric(args, name, kind, c0, c1, _number(m, "--guardrail MARGIN"))
              for name, kind, c0, c1, m in args.guardrail]
    plan = plan_ab_test(primary, guardrails=guards, alpha=args.alpha, power=args.power,
                        challenger_share=args.challenger_share,
                        rows_per_day=args.rows_per_day, looks=args.looks,
                        design_effect=args.design_effect)
    if args.out:
        plan.save(args.out)
    _print(plan, args.json, out)
    if args.out and not args.json:
        print(f"saved to {args.out}", file=out)


def _columns(args, plan) -> dict:
    mapping = {m: m for m in plan.metrics}
    for item in args.column:
        name, sep, col = item.partition("=")
        if not sep or name not in mapping:
            msg = (f"--column takes NAME=COL with NAME one of the plan's metrics "
                   f"{sorted(mapping)}, got {item!r}.")
            raise ValueError(msg)
        mapping[name] = col
    return mapping


def run_readout(args, out):
    import numpy as np

    from ..promotion import ABTestPlan, read_ab_test
    from ._files import labels, numbers

    plan = ABTestPlan.load(args.plan)
    mapping = _columns(args, plan)
    scored = [m for m in plan.metrics.values() if m.kind in ("brier", "log_loss", "roc_auc")]
    if scored and not (args.target and args.score):
        msg = (f"the plan's metric {scored[0].name!r} is a {scored[0].kind}: give --target COL "
               "and --score COL.")
        raise ValueError(msg)
    names = [args.arm, args.look, args.groups, *(mapping[m.name] for m in plan.metrics.values()
                                                 if m not in scored)]
    cols = _read(args, args.file, names + ([args.target, args.score] if scored else []))
    arm = np.array([str(c).strip() for c in cols[args.arm]])
    arms = {}
    for label, key in ((args.champion_label, "champion"), (args.challenger_label, "challenger")):
        rows = arm == label
        if not rows.any():
            msg = (f"{args.file}: no row of column {args.arm!r} is {label!r} (the "
                   f"{key}'s rows); it holds {sorted(set(arm.tolist()))[:5]}. Pass "
                   f"--{key}-label.")
            raise ValueError(msg)
        data = {}
        for m in plan.metrics.values():
            if m in scored:
                y = labels(cols[args.target], args.target, args.file)[rows]
                data[m.name] = (y, numbers(cols[args.score], args.score, args.file)[rows])
            else:
                col = mapping[m.name]
                data[m.name] = numbers(cols[col], col, args.file)[rows]
        look = None
        if args.look:
            look = labels(cols[args.look], args.look, args.file)[rows]
        groups = None
        if args.groups:
            groups = np.array([str(c) for c in cols[args.groups]])[rows]
        arms[key] = (data, look, groups)
    r = read_ab_test(plan, arms["champion"][0], arms["challenger"][0],
                     look_champion=arms["champion"][1], look_challenger=arms["challenger"][1],
                     primary=args.primary, groups_champion=arms["champion"][2],
                     groups_challenger=arms["challenger"][2])
    _print(r, args.json, out)


def _print(result, as_json, out):
    from .._shared.format import json_ready

    if as_json:
        print(json.dumps(json_ready(result.to_dict()), indent=2, allow_nan=False), file=out)
    else:
        print(result, file=out)




RUN = {"shadow": run_shadow, "plan": run_plan, "readout": run_readout}
