"""Command line: ``chimeraboost report FILE`` and ``chimeraboost table FILE`` score files of
predictions made by any system; ``chimeraboost demo`` scores models on data that ships with
scikit-learn and prints what chimeraboost says about them.

Which command answers which question:

- Is the system that wrote this column of predictions any good, and better than the
  incumbent's column? ``report FILE --target COL --score COL [--baseline-score COL]``.
- How do several systems (models, rules) compare on the same rows? ``table FILE --target COL
  --score COL --score COL ...``.
- On the way to production: do two models agree on live rows (``shadow FILE``), how long must
  the online test run (``plan``), and what does it say (``readout FILE``)? Built in
  ``chimeraboost.cli._promotion``.

The numbers come from ``chimeraboost.cli._commands`` (the library's report and holdout table on the
file's columns); this module parses arguments, prints, and turns bad input into one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import warnings

from .._shared.api import public
from .._shared.ci_methods import CI_METHODS, DEFAULT_CI_METHOD
from . import _flags
from ._promotion import RUN as PROMOTION_COMMANDS
from ._promotion import add_commands


@public(legacy=("out", "n_boot"))
def demo(*, out=sys.stdout, n_boot: int = 2000) -> None:
    """Data that ships with scikit-learn: ChimeraBoost on the breast-cancer data judged against
    the base rate it could have known (y_train) with bootstrap intervals; then, on the
    handwritten digits (is the digit even?), where its trees take part, against a logistic
    regression as the incumbent (paired comparison); then cross-validated with chimeraboost's
    scoring strings; then a regressor on the diabetes data; then the ladder of simple models,
    the boosted model and a 0/1 business rule in one holdout table."""
    from sklearn.datasets import load_breast_cancer, load_diabetes, load_digits
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.model_selection import cross_validate, train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from .. import ChimeraBoostClassifier, ChimeraBoostRegressor, baselines, compare, report
    from .._shared.format import Col, table

    def show(text):
        print(text, file=out)
        print(file=out)

    data = load_breast_cancer()
    X, y = data.data, data.target
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.4, stratify=y, random_state=0
    )
    model = ChimeraBoostClassifier(random_state=0).fit(X_train, y_train)

    show("1. Is ChimeraBoost any good on held-out breast_cancer rows, against the training prior?")
    show(model.report(X_test, y_test, baseline=y_train, ci=0.95, n_boot=n_boot, random_state=0))

    # On breast_cancer the held-out rows gave the trees no weight (model.rung_ == "linear"):
    # the model is a logistic regression there, and a comparison with one would show nothing.
    digits = load_digits()
    Xd, yd = digits.data, (digits.target % 2 == 0).astype(int)
    Xd_train, Xd_test, yd_train, yd_test = train_test_split(
        Xd, yd, test_size=0.4, stratify=yd, random_state=0)
    boosted = ChimeraBoostClassifier(random_state=0).fit(Xd_train, yd_train)
    logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    logreg.fit(Xd_train, yd_train)
    show(f"2. Champion / challenger. On breast_cancer ChimeraBoost is its linear rung "
         f"(rung_ = {model.rung_!r}),\n   the same model as a logistic regression. On the "
         f"handwritten digits (is the digit even?)\n   its trees take part "
         f"(rung_ = {boosted.rung_!r}): ChimeraBoost against a logistic regression, same rows")
    show(report(boosted, Xd_test, yd_test, baseline=logreg, n_boot=n_boot, random_state=0))

    show("3. Cross-validation with chimeraboost's scoring strings (5 folds)")
    scoring = ["brier_skill", "neg_calibration_mcb", "roc_auc"]
    cv = cross_validate(model, X, y, scoring=scoring)
    folds = len(cv["test_roc_auc"])
    rows = [[name, cv[f"test_{name}"].mean(), cv[f"test_{name}"].std(ddof=1),
             *cv[f"test_{name}"]] for name in scoring]
    show("\n".join(table(
        [Col("scoring", None), Col("mean", signed=True), Col("sd"),
         *(Col(f"fold {i + 1}", 3, signed=True) for i in range(folds))], rows)))

    Xr, yr = load_diabetes(return_X_y=True)
    Xr_train, Xr_test, yr_train, yr_test = train_test_split(Xr, yr, test_size=0.4, random_state=0)
    regressor = ChimeraBoostRegressor(random_state=0).fit(Xr_train, yr_train)
    ridge = Ridge().fit(Xr_train, yr_train)
    show("4. A regressor on the diabetes data, against a ridge regression as the incumbent")
    show(report(regressor, Xr_test, yr_test, baseline=ridge, n_boot=n_boot, random_state=0))

    show("5. Better than what? The ladder, ChimeraBoost and the rule in production\n"
         "   (worst concave points < 0.14 -> benign), same held-out breast_cancer rows")
    names = list(data.feature_names)
    models = baselines.ladder(X_train, y_train, random_state=0, feature_names=names)
    rule = (X_test[:, names.index("worst concave points")] < 0.14).astype(int)
    table_ = compare.holdout_table({"rule in production": rule, **models,
                                    f"ChimeraBoost ({model.rung_} rung)": model}, X_test,
                                   y_test, split="40%",
                                   n_boot=n_boot, random_state=0)
    show(table_)
    show(table_.summary())


# --------------------------------------------------------------------------- the parser

_REPORT_HELP = """\
Score a column of predictions made by any system (in any language) against the
file's target, and print chimeraboost's report: the four-number line (loss, base
rate, reference, skill), calibration, ranking and threshold metrics, with
bootstrap intervals.

How the columns are read:
  target  --regression, or numbers with more than two distinct values: a
          regression (the score column holds the predictions). Otherwise the
          target must hold two classes; the second of the sorted labels is the
          positive class (--classes NEG POS names them).
  score   only 0 and 1: a 0/1 rule (1 flags the positive class; no log loss,
          Brier or calibration, shown as n/a). All values in [0, 1]: the
          probability of the positive class. Anything else: scores that rank
          the rows (higher means positive); they make no decision, so accuracy
          and F1 are n/a.

Slices: --by COL (repeat it to cross columns) adds the report per slice: each
slice's rows, base rate, loss, skill against its own base rate with its
interval, and whether it differs from the rest of the rows (adjusted for the
number of slices, Holm). A numeric column is cut into --bins quantile ranges;
empty cells are a slice of their own.

Files: .csv (header row; cells separated by ',', ';', tab or '|', read off
the header, or --delimiter), .tsv, .csv.gz; decimal commas with --decimal ','.
.parquet needs pyarrow (pip install "chimeraboost[parquet]").

Large files: a file over 256 MB on disk (or any file with --stream) is read
500,000 rows at a time (--chunk-rows N), so memory does not grow with the file.
A streamed report has no bootstrap intervals, paired intervals, DeLong test or
recall@k (they need every row in memory: --in-memory), its ROC AUC, PR AUC and
MCB/DSC come from a fine score grid, and its score column must hold
probabilities or 0/1 flags."""

_REPORT_EPILOG = """\
Example:
  chimeraboost report holdout.csv --target churned --score p_model
  chimeraboost report holdout.csv --target churned --score p_model \\
      --baseline-score p_incumbent --k 100 --json
  chimeraboost report holdout.csv --target churned --score p_model \\
      --baseline-score p_incumbent --cost-fp 1 --cost-fn 5
  chimeraboost report holdout.csv --target churned --score p_model --by region

Exit status: 0 on success, 2 on a bad file, a missing column, a non-numeric
score or a target that is not two classes (one line on stderr)."""

_TABLE_HELP = """\
The holdout table of several systems' predictions on the same rows: one row per
--score column (probabilities, scores or 0/1 flags, read as by `report`), each
metric with its bootstrap interval, and every row's paired difference against
the first (or --baseline) on the primary metric."""

_TABLE_EPILOG = """\
Example:
  chimeraboost table holdout.csv --target churned \\
      --score rule_flag --score p_logreg --score p_model --primary recall@100
  chimeraboost table holdout.csv --target churned --score p_logreg \\
      --score p_model --split 2024-Q4 --markdown

Primary metrics: brier_skill (the default when every column is a probability),
roc_auc (the default otherwise), log_loss, pr_auc, accuracy, ..., recall@N,
precision@N or precision@5% (the top N rows, the top 5% of rows), and decisions
at a threshold: net_benefit@0.2 (treat the rows whose probability is >= 0.2),
sensitivity@0.2, ppv@0.2, ..., expected_cost (with --cost-fp and --cost-fn).

Exit status: 0 on success, 2 on a bad file, a missing column, a non-numeric
score or a target that is not two classes (one line on stderr)."""


def _level(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a level such as 0.95, got {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"the level must be in (0, 1), e.g. 0.95; got {text}")
    return value


def _k(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of rows such as 100, got {text!r}") \
            from None
    if not (value > 0 and math.isfinite(value)) or (1 < value != int(value)):
        raise argparse.ArgumentTypeError(
            f"expected a whole number of rows >= 1 (the top N) or a fraction in (0, 1) (the "
            f"top share of the rows), got {text}")
    return int(value) if value == int(value) and value >= 1 else value


def _rows(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of rows such as 100000, got "
                                         f"{text!r}") from None
    from ._commands import (  # noqa: PLC0415 - the package loads only when a command runs
        MAX_CHUNK_ROWS,
    )

    if not 1 <= value <= MAX_CHUNK_ROWS:
        raise argparse.ArgumentTypeError(f"expected from 1 to {MAX_CHUNK_ROWS:,} rows "
                                         f"(2**31 - 1), got {value}")
    return value


def _costs(p, threshold: bool) -> None:
    """--threshold, --cost-fp, --cost-fn: a decision at a threshold."""
    if threshold:
        p.add_argument("--threshold", type=_flags.threshold, metavar="T",
                       help="add the decision 'treat when the probability is >= T': net "
                            "benefit against treat-all, treat-none and the baseline column, "
                            "with paired intervals")
        fp_help = ("cost of treating a negative row (with --cost-fn: expected cost, and "
                   "without --threshold the Bayes threshold C_fp / (C_fp + C_fn))")
    else:
        fp_help = ("cost of treating a negative row (with --cost-fn and --primary "
                   "expected_cost: the expected cost at the Bayes threshold C_fp / (C_fp + "
                   "C_fn))")
    p.add_argument("--cost-fp", type=_flags.cost, metavar="C", help=fp_help)
    p.add_argument("--cost-fn", type=_flags.cost, metavar="C",
                   help="cost of leaving a positive row")


def _cost_arg(args):
    """The costs dict of --cost-fp / --cost-fn, or None; one without the other is refused."""
    fp, fn = args.cost_fp, args.cost_fn
    if fp is None and fn is None:
        return None
    if fp is None or fn is None:
        msg = f"--{'cost-fp' if fp is None else 'cost-fn'} is missing; give both costs."
        raise ValueError(msg)
    for flag, value in (("--cost-fp", fp), ("--cost-fn", fn)):
        if not (value >= 0 and value < float("inf")):
            msg = f"{flag} must be a finite number >= 0 (a cost), got {value:g}."
            raise ValueError(msg)
    return {"fp": fp, "fn": fn}


def _common(p, n_boot_help):
    p.add_argument("file", metavar="FILE", help="CSV, TSV, .csv.gz or Parquet file, one row per scored row")
    p.add_argument("--target", required=True, metavar="COL", help="column of true outcomes")
    p.add_argument("--weight", metavar="COL", help="column of row weights")
    p.add_argument("--classes", nargs=2, metavar=("NEG", "POS"),
                   help="the two labels of the target, the positive one second")
    p.add_argument("--pos-label", metavar="LABEL",
                   help="the target's positive class, whose probability the score columns "
                        "hold (default: the second of the sorted labels)")
    p.add_argument("--regression", action="store_true",
                   help="read a numeric target as a quantity, even with two values")
    p.add_argument("--n-boot", type=_flags.n_boot, default=2000, metavar="N", help=n_boot_help)
    p.add_argument("--ci-method", choices=CI_METHODS, default=DEFAULT_CI_METHOD,
                   metavar="METHOD",
                   help=f"how intervals are read off the resamples: {', '.join(CI_METHODS)} "
                        f"(default {DEFAULT_CI_METHOD}, the one that keeps its level on small "
                        "samples)")
    p.add_argument("--groups", metavar="COL",
                   help="column of the unit each row belongs to (a customer with several "
                        "rows): every interval resamples whole groups")
    p.add_argument("--time", metavar="COL",
                   help="column of each row's date (or any sortable value): intervals "
                        "resample blocks of time, and the header gives the date range")
    p.add_argument("--seed", type=_flags.seed, default=0,
                   help="seed of the resampling (default 0)")
    p.add_argument("--n-jobs", type=_flags.n_jobs, default=None, metavar="N",
                   help="threads for the bootstrap (-1: every CPU; default 1); the numbers "
                        "are the same whatever N")
    p.add_argument("--delimiter", metavar="CHAR",
                   help="the character between a CSV's cells (default: read off the header "
                        "row: ',', ';', tab or '|')")
    p.add_argument("--decimal", choices=(".", ","), default=".",
                   help="the decimal mark of the numbers: ',' reads 0,8 as 0.8 (default '.')")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress line on the terminal during long work")


def _parser():
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="chimeraboost", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Is the model any good, compared with what? Score files of predictions\n"
                    "made by any system, or run the demo.",
        epilog="Example:\n  chimeraboost report holdout.csv --target churned --score p_model\n"
               "  chimeraboost table holdout.csv --target churned --score rule --score p_model\n"
               "  chimeraboost shadow live.csv --champion p_old --challenger p_new --threshold 0.3\n"
               "  chimeraboost plan --metric conversion --kind proportion --champion 0.10 "
               "--challenger 0.12 --out plan.json\n"
               "  chimeraboost readout test.csv --plan plan.json --arm arm --look day\n"
               "  chimeraboost demo\n\n"
               "`chimeraboost COMMAND --help` describes each command.")
    parser.add_argument("--version", action="version", version=f"chimeraboost {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    raw = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser("report", help="the report of one column of predictions in a file",
                       description=_REPORT_HELP, epilog=_REPORT_EPILOG, formatter_class=raw)
    _common(p, "bootstrap resamples (default 2000)")
    p.add_argument("--score", required=True, metavar="COL",
                   help="column of probabilities, scores, 0/1 flags or predictions")
    p.add_argument("--baseline-score", metavar="COL",
                   help="the incumbent's column: paired comparison on the same rows")
    p.add_argument("--ci", type=_level, default=0.95, metavar="LEVEL",
                   help="level of the bootstrap intervals (default 0.95)")
    p.add_argument("--no-ci", action="store_true",
                   help="no resampling: no intervals, and with --baseline-score the point "
                        "differences only (--threshold and --costs still resample their "
                        "decision section)")
    p.add_argument("--k", type=_k, metavar="N",
                   help="also recall@k and precision@k of the top N rows (or a fraction)")
    _costs(p, threshold=True)
    p.add_argument("--json", action="store_true",
                   help="print every number as JSON (NaN as null) instead of text")
    p.add_argument("--by", action="append", metavar="COL",
                   help="also the report per slice of this column (repeat to cross columns): "
                        "each slice against its own base rate and against the rest")
    p.add_argument("--bins", type=_flags.bins, default=5, metavar="N",
                   help="quantile ranges of a numeric --by column (default 5)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--stream", action="store_true",
                     help="read the file in chunks whatever its size (no intervals)")
    how.add_argument("--in-memory", action="store_true",
                     help="read every row at once whatever the file's size")
    p.add_argument("--chunk-rows", type=_rows, metavar="N",
                   help="rows per chunk when streaming (default 500,000, at most "
                        "2**31 - 1); implies --stream")

    p = sub.add_parser("table", help="the holdout table of several columns of predictions",
                       description=_TABLE_HELP, epilog=_TABLE_EPILOG, formatter_class=raw)
    _common(p, "bootstrap resamples shared by every row (default 2000, at least 200)")
    p.add_argument("--score", required=True, action="append", metavar="COL",
                   help="a column of predictions; repeat for each system, simplest first")
    p.add_argument("--baseline", metavar="COL",
                   help="the row every other is compared with (default: the first --score)")
    p.add_argument("--primary", metavar="METRIC",
                   help="metric of the paired comparison, e.g. brier_skill, roc_auc, recall@400")
    p.add_argument("--split", metavar="TEXT", help="what the rows are, e.g. 2024-Q4")
    _costs(p, threshold=False)
    p.add_argument("--ci", type=_level, default=0.95, metavar="LEVEL",
                   help="level of every interval (default 0.95)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--markdown", action="store_true", help="print a markdown table")
    out.add_argument("--json", action="store_true",
                     help="print every number as JSON (NaN as null)")

    add_commands(sub)

    sub.add_parser("demo", help="score models on data that ships with scikit-learn",
                   description=demo.__doc__.split("\n\n")[0].replace("    ", ""),
                   formatter_class=raw,
                   epilog="Example:\n  chimeraboost demo")
    return parser


# --------------------------------------------------------------------------- the commands


def _run_report(args, out):
    from ._commands import (CHUNK_ROWS, file_report, point_vs_lines, report_with, streams,
                            to_json)

    if args.chunk_rows is not None and args.in_memory:
        msg = "--chunk-rows reads the file in chunks; it cannot go with --in-memory."
        raise ValueError(msg)
    if streams(args.file, stream=args.stream or args.chunk_rows is not None,
               in_memory=args.in_memory):
        for flag, given in (("--by", args.by), ("--groups", args.groups),
                            ("--time", args.time)):
            if given:
                msg = (f"{flag} resamples every row at once; a streamed report cannot give "
                       "it. Add --in-memory (or drop --stream).")
                raise ValueError(msg)
        _run_streamed(args, out, args.chunk_rows or CHUNK_ROWS)
        return
    rep, kinds = file_report(
        args.file, target=args.target, score=args.score, baseline_score=args.baseline_score,
        classes=args.classes, weight=args.weight, ci=None if args.no_ci else args.ci,
        n_boot=args.n_boot, k=args.k, regression=args.regression, random_state=args.seed,
        verbose=not args.quiet, delimiter=_tab(args.delimiter), decimal=args.decimal,
        threshold=args.threshold, costs=_cost_arg(args), by=args.by, bins=args.bins,
        n_jobs=args.n_jobs, ci_method=args.ci_method, groups=args.groups, time=args.time,
        pos_label=args.pos_label)
    if args.json:
        print(json.dumps(to_json(rep, kinds, args.file), indent=2, allow_nan=False), file=out)
        return
    from .._shared.format import wrap

    read = ", ".join(f"{col} as {kind}" for col, kind in kinds.items())
    print("\n".join(wrap(f"{args.file}: {read}")), file=out)
    _print_positive(rep.get("classes") if rep.task != "regression" else None, out)
    print(file=out)
    extra = []
    if rep.vs_baseline is None and rep.baseline_report is not None:
        extra = point_vs_lines(rep, rep.baseline_report, "no intervals: --no-ci resamples nothing")
    print(report_with(rep, extra), file=out)


def _run_streamed(args, out, chunk_rows):
    from ._commands import stream_report, streamed_json, streamed_lines
    from .._shared.progress import working

    if args.k is not None:
        msg = ("--k (recall@k) ranks every row at once; a streamed report cannot give it. "
               "Drop --k, or add --in-memory.")
        raise ValueError(msg)
    if args.threshold is not None or _cost_arg(args) is not None:
        msg = ("--threshold / --cost-fp / --cost-fn give a decision with bootstrap intervals, "
               "which needs every row in memory; add --in-memory.")
        raise ValueError(msg)
    with working(f"chimeraboost: streaming {args.file}", verbose=not args.quiet):
        got = stream_report(args.file, target=args.target, score=args.score,
                            baseline_score=args.baseline_score, classes=args.classes,
                            weight=args.weight, regression=args.regression,
                            chunk_rows=chunk_rows, delimiter=_tab(args.delimiter),
                            decimal=args.decimal, pos_label=args.pos_label)
    if args.json:
        print(json.dumps(streamed_json(got, args.file), indent=2, allow_nan=False), file=out)
        return
    print("\n".join(streamed_lines(got, args.file)), file=out)


def _run_table(args, out):
    from ._commands import file_table, plain

    t = file_table(args.file, target=args.target, scores=args.score, baseline=args.baseline,
                   primary=args.primary, split=args.split, weight=args.weight,
                   classes=args.classes, regression=args.regression, ci=args.ci,
                   n_boot=args.n_boot, random_state=args.seed, verbose=not args.quiet,
                   delimiter=_tab(args.delimiter), decimal=args.decimal, costs=_cost_arg(args),
                   n_jobs=args.n_jobs, ci_method=args.ci_method, groups=args.groups,
                   time=args.time, pos_label=args.pos_label)
    if args.json:
        got = t.to_dict()
        if t.target_classes is not None:
            got["positive_class"] = t.target_classes[1]
        print(json.dumps(plain(got), indent=2, allow_nan=False), file=out)
    elif args.markdown:
        print(t.to_markdown(), file=out)
    else:
        _print_positive(t.target_classes, out)
        print(t, file=out)
        print(file=out)
        print(t.summary(), file=out)


def _print_positive(classes, out):
    from ._commands import positive_line

    line = positive_line(classes)
    if line:
        print(line, file=out)


def _tab(text):
    """``--delimiter '\\t'`` (the two characters a shell passes) is a tab."""
    return "\t" if text in ("\\t", "tab", "TAB") else text


def _one_line(exc) -> str:
    text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    text = " ".join(str(text).split())
    return text or type(exc).__name__


def main(argv=None) -> int:
    """``chimeraboost COMMAND ...``; returns the exit status (2: bad input, one line on
    stderr)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    # One thread: on a machine whose cores are busy, OpenMP threads that wait for each
    # other spin, and a 3 s demo once took minutes; one thread costs little here.
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.showwarning = _show_warning
        if args.command == "demo":
            demo()
            return 0
        run = {"report": _run_report, "table": _run_table, **PROMOTION_COMMANDS}[args.command]
        try:
            run(args, sys.stdout)
            sys.stdout.flush()
        except BrokenPipeError:
            # The reader left (`| head`): nothing more to say, and nowhere to say it.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 1
        except (ValueError, TypeError, OSError, KeyError, ImportError) as exc:
            # The library names its Python arguments; the user typed flags.
            text = _flags.in_flags(_one_line(exc), args.command)
            print(f"chimeraboost: error: {text}", file=sys.stderr)
            return 2
    return 0


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A library warning as one line naming its kind, not as a source location."""
    print(f"chimeraboost: {category.__name__}: {_one_line(message)}",
          file=sys.stderr if file is None else file)

