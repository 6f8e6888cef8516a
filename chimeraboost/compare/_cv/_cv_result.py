"""What :func:`compare_cv` returns: one challenger's tests and decision, and the whole comparison.

:class:`ChallengerResult` holds one challenger against the champion (difference, interval,
corrected t-test, Holm-adjusted p-value, Bayesian correlated t-test, decision);
:class:`ComparisonResult` holds every model's per-fold scores with the rule's choice and shows
them as text, HTML (Jupyter), a dict or a pandas DataFrame. Both are built by
:mod:`chimeraboost.compare._cv._compare_cv` and re-exported by :mod:`chimeraboost.compare`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np

from ..._shared.api import public
from . import _rules
from ._paired_tests import BayesianTTestResult, CorrectedTTestResult
from ..._shared.format import EMPTY, WIDTH, Col, fitted_table, fmt_p, percent
from ..._shared.html import html_block, html_paragraphs, html_table
from ..._shared.validation import import_pandas
from ...resampling import ConfidenceInterval

__all__ = ["ChallengerResult", "ComparisonResult"]


@dataclass(frozen=True)
class ChallengerResult:
    """One challenger against the champion in :func:`compare_cv` (differences are
    challenger minus champion; positive favours the challenger)."""

    name: str
    difference: float
    ci: ConfidenceInterval
    ttest: CorrectedTTestResult
    pvalue: float
    pvalue_holm: float
    bayes: BayesianTTestResult
    decision: str
    reason: str

    @property
    def p_champion_better(self) -> float:
        return self.bayes.p_left

    @property
    def p_equivalent(self) -> float:
        return self.bayes.p_rope

    @property
    def p_challenger_better(self) -> float:
        return self.bayes.p_right


class ComparisonResult:
    """The outcome of :func:`compare_cv`.

    Attributes
    ----------
    scores : dict
        Model name -> per-fold scores, shape (n_folds,), on the shared folds.
    champion : str
    challengers : dict
        Challenger name -> :class:`ChallengerResult`.
    decisions : dict
        Challenger name -> "replace champion", "keep champion" or "practically equivalent".
    scoring, cv : str
    n_folds : int
    n_train, n_test : float
        Mean rows per training and per test fold.
    rope, alpha, threshold : float
    rule, chosen, reason : str
        The decision rule, the model it picks and one sentence naming the evidence.
    guard_scores : dict
        Guardrail scoring -> {model: per-fold scores} (the scorer's sign: greater is better).
    guardrails : dict
        Model -> {guardrail scoring: ``GuardrailResult``} against the champion (``difference``,
        ``rope``, ``p_degrades``, ``blocks``).
    """

    def __init__(self, scores, champion, challengers, *, scoring, cv, n_train, n_test, rope,
                 alpha, threshold, rule="champion_challenger", chosen=None, reason=None,
                 guard_scores=None, guardrails=None):
        self.scores, self.champion, self.challengers = scores, champion, challengers
        self.scoring, self.cv, self.n_train, self.n_test = scoring, cv, n_train, n_test
        self.rope, self.alpha, self.threshold = rope, alpha, threshold
        self.rule, self.chosen, self.reason = rule, chosen, reason
        self.guard_scores, self.guardrails = guard_scores or {}, guardrails or {}
        self.n_folds = len(next(iter(scores.values())))

    @property
    def decisions(self) -> dict:
        return {name: c.decision for name, c in self.challengers.items()}

    def mean(self, name) -> float:
        """Mean score over the folds as humans read it: a loss scored as ``neg_*`` with its
        natural sign (``log_loss`` 0.32, where ``scores`` hold -0.32)."""
        return _rules.natural_sign(self.scoring)[1] * float(np.mean(self.scores[name]))

    def sd(self, name) -> float:
        return float(np.std(self.scores[name], ddof=1))

    def _head(self) -> list:
        shown, sign = _rules.natural_sign(self.scoring)
        label = self.scoring if sign > 0 else f"{shown} (a loss, lower is better)"
        return [
            f"{label} on the same {self.n_folds} folds for every model ({self.cv}; "
            f"~{self.n_train:.0f} training / ~{self.n_test:.0f} test rows per fold)",
            f"champion: {self.champion} · difference = challenger - champion (positive favours "
            f"the challenger) · rope ±{self.rope:g}",
        ]

    def _cells(self):
        """Columns and rows of the table, shared by the text and the HTML."""
        level = percent(1 - self.alpha)
        rows = []
        for name in self.scores:
            c = self.challengers.get(name)
            if c is None:  # the champion: no difference to itself
                rows.append([name, self.mean(name), self.sd(name), *[EMPTY] * 8, "champion"])
                continue
            # Probabilities as p-values are shown: scientific below 1e-4.
            rows.append([name, self.mean(name), self.sd(name), c.difference, c.ci.low,
                         c.ci.high, *map(fmt_p, (c.pvalue, c.pvalue_holm, c.p_champion_better,
                                                 c.p_equivalent, c.p_challenger_better)),
                         f"{c.decision} ({c.reason})"])
        columns = [Col("model", None), Col("mean"), Col("sd"), Col("difference", signed=True),
                   Col(level + " low", signed=True), Col("high", signed=True), Col("p"),
                   Col("p_holm"), Col("P(champ)"), Col("P(rope)"), Col("P(chall)"),
                   Col("decision", None)]
        return columns, rows

    def _foot(self) -> list:
        level = percent(1 - self.alpha)
        lines = [
            f"low/high: {level} interval of the mean difference; p: corrected resampled t-test "
            "(Nadeau & Bengio 2003); p_holm: Holm-adjusted over the challengers;",
            "P(...): Bayesian correlated t-test (Benavoli et al. 2017) -- champion better by more "
            "than the rope, within the rope, challenger better by more than the rope.",
            f"Rule: replace if P(chall) > {self.threshold:g} and p_holm < {self.alpha:g}; "
            f"practically equivalent if P(rope) > {self.threshold:g}; otherwise keep.",
        ]
        lines += _rules.guardrail_lines(self.guard_scores, self.guardrails, self.threshold)
        if self.chosen is not None:
            lines += ["", f"chosen ({self.rule}): {self.chosen} -- {self.reason}"]
        return lines

    @public(legacy=("width",))
    def to_text(self, *, width=WIDTH) -> str:
        """The comparison as text that fits ``width`` characters (120 by default): the
        decision of each model goes below the table when the line would be wider, then
        columns are left out from the right, and the text says so. ``width=None``: every
        column in the table."""
        lines, below, left = fitted_table(*self._cells(), width)
        out = [*self._head(), "", *lines]
        if below:
            out += ["", *below]
        if left:
            out.append(f"Left out to fit {width} characters: {', '.join(left)} "
                       "(to_text(width=None) shows every column).")
        return "\n".join([*out, "", *self._foot()])

    def __str__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        """Jupyter: the setting as a heading, the table with numbers right-aligned (each
        difference with its interval below it), the rule and the choice below it."""
        head = self._head()
        columns, rows = self._cells()
        # The difference with its interval below it, under one title: the table then fits a
        # notebook's width.
        columns = [*columns[:4], *columns[6:]]
        rows = [[*r[:3], r[3] if r[3] == EMPTY else tuple(r[3:6]), *r[6:]] for r in rows]
        return html_block(f"<h4>{html.escape(head[0])}</h4>", html_paragraphs(head[1:]),
                          html_table(columns, rows, stacked=True),
                          html_paragraphs([self._foot()[0].replace("low/high:", "[low, high]:"),
                                           *self._foot()[1:]]))

    def __repr__(self) -> str:
        return (f"<ComparisonResult {self.scoring}, {self.n_folds} folds, champion "
                f"{self.champion!r}: {self.decisions}>")

    def to_dict(self) -> dict:
        """Plain Python values: settings, per-model scores, per-challenger tests."""
        return {
            "scoring": self.scoring, "cv": self.cv, "champion": self.champion,
            "n_folds": self.n_folds, "n_train": self.n_train, "n_test": self.n_test,
            "rope": self.rope, "alpha": self.alpha, "threshold": self.threshold,
            "rule": self.rule, "chosen": self.chosen, "reason": self.reason,
            "models": {n: {"mean": self.mean(n), "sd": self.sd(n), "scores": s.tolist()}
                       for n, s in self.scores.items()},
            "challengers": {n: _row(c) for n, c in self.challengers.items()},
        }

    def to_frame(self):
        """One row per model: ``mean``, ``sd``, then (challengers) ``difference``, ``low``,
        ``high``, ``pvalue``, ``pvalue_holm``, ``p_champion_better``, ``p_equivalent``,
        ``p_challenger_better``, ``decision``, ``reason``. Needs pandas."""
        pd = import_pandas("ComparisonResult.to_frame")
        rows = {}
        for name in self.scores:
            row = {"mean": self.mean(name), "sd": self.sd(name)}
            c = self.challengers.get(name)
            row.update(_row(c) if c else {"decision": "champion"})
            rows[name] = row
        columns = ["mean", "sd", *_ROW_COLUMNS]
        return pd.DataFrame.from_dict(rows, orient="index", columns=columns)


_ROW_COLUMNS = ("difference", "low", "high", "pvalue", "pvalue_holm", "p_champion_better",
                "p_equivalent", "p_challenger_better", "decision", "reason")


def _row(c: ChallengerResult) -> dict:
    values = (c.difference, *c.ci, c.pvalue, c.pvalue_holm, c.p_champion_better,
              c.p_equivalent, c.p_challenger_better, c.decision, c.reason)
    return {key: (float(v) if isinstance(v, (float, np.floating)) else v)
            for key, v in zip(_ROW_COLUMNS, values)}
