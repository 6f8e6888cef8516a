"""Which model to choose, once every model is scored on the same folds: the decision rules.

The rules behind :func:`chimeraboost.compare.compare_cv` and
:func:`chimeraboost.compare.compare_cv_results` (``rule=``), the guardrails that can stop a
promotion, and :func:`one_se_refit` for scikit-learn's searches. Questions worth asking, and
which rule answers each (``J`` folds, models ordered simplest first):

- Should any challenger replace the incumbent? ``"champion_challenger"`` (the default): a
  challenger replaces the champion only when the Bayesian correlated t-test puts more than
  ``threshold`` on "better by more than the rope" *and* the Holm-adjusted corrected t-test is
  significant [BCDZ17]_ [NB03]_; otherwise the champion stays.
- Which model scored best, noise aside? ``"best_mean"``: the highest mean score over the folds.
  No test: use it when any difference would be acted on.
- Which is the simplest model not credibly worse than the best? ``"simplest_within_noise"``:
  the first model, simplest first, *within noise* of the best-mean model ``b``: the Bayesian
  correlated t-test of ``score(b) - score(m)`` puts at most ``threshold`` on "``b`` better by
  more than the rope" -- the evidence that would make ``b`` replace ``m`` is not there.
- The textbook one-standard-error rule? ``"one_se"``: the simplest model whose mean is at
  least ``mean(b) - sd(b) / sqrt(J)`` (sd with ddof 1 over the folds), as in Hastie, Tibshirani
  & Friedman, sec. 7.10 [HTF09]_. It ignores that folds overlap, so it is more eager than
  ``"simplest_within_noise"`` to call a model "as good".
- Must a replacement not make another number worse? ``guardrails``: extra scorings with their
  own ropes, computed on the same folds; a model is *blocked* when the Bayesian correlated
  t-test of its guardrail difference to the champion puts more than ``1 - threshold`` on
  "worse by more than the guardrail's rope" (a non-inferiority check: it must be at least
  ``threshold`` probable that the guardrail does not degrade beyond its rope). Blocked models
  are never chosen; the champion never is.
- In a ``GridSearchCV``: :func:`one_se_refit` (the one-standard-error rule as ``refit=``).

References
----------
.. [NB03] Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. *Machine
   Learning* 52(3), 239-281. doi:10.1023/A:1024068626366
.. [BCDZ17] Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a change: a
   tutorial for comparing multiple classifiers through Bayesian analysis. *Journal of Machine
   Learning Research* 18(77), 1-36.
.. [HTF09] Hastie, T., Tibshirani, R. and Friedman, J. (2009). *The Elements of Statistical
   Learning*, 2nd ed., sec. 7.10 (cross-validation, the one-standard-error rule). Springer.
   doi:10.1007/978-0-387-84858-7
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass

import numpy as np

from ..._shared.format import EMPTY, Col, fmt, fmt_p, table
from ..._shared.rules import EQUIVALENT, KEEP, REPLACE  # noqa: F401 - re-exported
from ._paired_tests import BayesianTTestResult, fold_moments, posterior_from_moments
from ..._shared.validation import check_real

__all__ = ["RULES", "GuardrailResult", "OneSERefit", "one_se_refit", "natural_sign",
           "check_rule", "complexity_order", "check_guardrails", "guardrail_tests",
           "block_promotions", "choose", "scores_from_cv_results", "guardrail_lines"]

# The three decisions a comparison ends in (re-exported by chimeraboost.compare).

RULES = ("champion_challenger", "best_mean", "simplest_within_noise", "one_se")


def check_rule(rule) -> str:
    if not isinstance(rule, str) or rule not in RULES:
        msg = f"rule must be one of {RULES}, got {rule!r}."
        raise ValueError(msg)
    return rule


def natural_sign(scoring: str) -> tuple[str, float]:
    """``(name, sign)`` to show a score as humans read it: scikit-learn negates losses
    (``neg_log_loss``); printed, a loss keeps its natural sign (``log_loss 0.32``)."""
    if isinstance(scoring, str) and scoring.startswith("neg_"):
        return scoring[4:], -1.0
    return scoring, 1.0


def complexity_order(names, complexity) -> list[str]:
    """Model names, simplest first: as listed (``complexity=None``), or sorted by
    ``complexity`` -- a dict ``{name: number}`` (lower is simpler) or a list of every name,
    simplest first."""
    names = list(names)
    if complexity is None:
        return names
    if isinstance(complexity, dict):
        missing = [n for n in names if n not in complexity]
        extra = [n for n in complexity if n not in names]
        if missing or extra:
            msg = (f"complexity must rank every model and only them: missing {missing}, unknown "
                   f"{extra}.")
            raise ValueError(msg)
        for n, v in complexity.items():
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real) or math.isnan(v):
                msg = f"complexity[{n!r}] must be a number (lower is simpler), got {v!r}."
                raise TypeError(msg)
        return sorted(names, key=lambda n: complexity[n])  # stable: ties keep the listed order
    if isinstance(complexity, (list, tuple)):
        if sorted(map(str, complexity)) != sorted(names):
            msg = (f"complexity must list every model exactly once, simplest first; got "
                   f"{list(complexity)} for models {names}.")
            raise ValueError(msg)
        return [str(n) for n in complexity]
    msg = (f"complexity must be None, a dict {{name: number}} or a list of model names, got "
           f"{type(complexity).__name__}.")
    raise TypeError(msg)


def check_guardrails(guardrails, primary) -> dict[str, float]:
    """``{scoring name: rope}``, each name a scoring string other than the primary one."""
    if guardrails is None:
        return {}
    if not isinstance(guardrails, dict):
        msg = (f"guardrails must be a dict {{scoring name: rope}}, e.g. "
               f"{{'neg_calibration_mcb': 0.005}}, got {type(guardrails).__name__}.")
        raise TypeError(msg)
    out = {}
    for name, rope in guardrails.items():
        if not isinstance(name, str):
            msg = f"guardrails keys must be scoring names (strings), got {name!r}."
            raise TypeError(msg)
        if primary is not None and name.removeprefix("test_") == primary.removeprefix("test_"):
            msg = f"guardrails repeats the primary scoring {name!r}; a guardrail is another score."
            raise ValueError(msg)
        out[name] = check_real(rope, f"guardrails[{name!r}]", strictly_positive=False)
    return out


@dataclass(frozen=True)
class GuardrailResult:
    """One guardrail of one model against the champion.

    ``difference`` is model minus champion in the scorer's sign (positive favours the model);
    ``bayes`` the Bayesian correlated t-test with the guardrail's ``rope``; ``p_degrades`` =
    ``bayes.p_left``, the posterior probability that the guardrail is worse by more than the
    rope; ``blocks`` is ``p_degrades > 1 - threshold``.
    """

    scoring: str
    rope: float
    difference: float
    bayes: BayesianTTestResult
    blocks: bool

    @property
    def p_degrades(self) -> float:
        return self.bayes.p_left


def guardrail_tests(guard_scores, champion, n_train, n_test, ropes, threshold) -> dict:
    """``{model: {guardrail: GuardrailResult}}`` for every model but the champion."""
    out = {}
    for g, by_model in guard_scores.items():
        for name, s in by_model.items():
            if name == champion:
                continue
            J, mean, var, corr = fold_moments(s - by_model[champion], n_train, n_test)
            bayes = posterior_from_moments(J, mean, var, corr, ropes[g])
            out.setdefault(name, {})[g] = GuardrailResult(g, ropes[g], mean, bayes,
                                                          bayes.p_left > 1 - threshold)
    return out


def _blocked_by(guards: dict, name: str) -> list[GuardrailResult]:
    return [r for r in guards.get(name, {}).values() if r.blocks]


def _guard_text(r: GuardrailResult) -> str:
    shown, _ = natural_sign(r.scoring)
    return (f"{shown} worse by more than its rope {r.rope:g} with probability "
            f"{fmt_p(r.p_degrades)}")


def guardrail_lines(guard_scores: dict, guards: dict, threshold: float) -> list[str]:
    """The guardrail table of a printed comparison (means with their natural sign)."""
    if not guard_scores:
        return []
    rows = []
    for g, by_model in guard_scores.items():
        shown, sign = natural_sign(g)
        for name, s in by_model.items():
            r = guards.get(name, {}).get(g)
            tail = ([EMPTY] * 3 + ["champion"] if r is None else
                    [r.difference, r.rope, fmt_p(r.p_degrades), "blocks" if r.blocks else "ok"])
            rows.append([name, shown, sign * float(np.mean(s)), *tail])
    return ["", "guardrails on the same folds (difference = model - champion, positive favours "
            "the model):", *table(
                [Col("model", None), Col("guardrail", None), Col("mean"),
                 Col("difference", signed=True), Col("rope", 4), Col("P(worse)"),
                 Col("verdict", None)], rows, indent=0),
            "P(worse): posterior probability that the guardrail is worse than the champion's by "
            f"more than its rope; blocks when above {1 - threshold:g}."]


def block_promotions(challengers: dict, guards: dict, replace: str, keep: str) -> dict:
    """Challengers whose decision was ``replace`` but whose guardrail degrades: ``keep``."""
    out = {}
    for name, c in challengers.items():
        blocked = _blocked_by(guards, name)
        if c.decision == replace and blocked:
            c = dataclasses.replace(c, decision=keep, reason="guardrail: " + "; ".join(
                _guard_text(r) for r in blocked))
        out[name] = c
    return out


def first_best(names, value) -> str:
    """The first of ``names`` whose ``value`` is the largest, counting values within rounding
    of the largest (relative 1e-12) as equal: two challengers that are the same model fitted
    alike differ in their last bits only, and which of them the bits favour depends on the
    machine's floating-point library. The order given decides instead, on every machine.

    >>> first_best(["a", "b"], {"a": 0.9163, "b": 0.9163 + 2e-16}.get)
    'a'
    """
    values = {n: value(n) for n in names}
    finite = [v for v in values.values() if np.isfinite(v)]
    if not finite:
        return names[0]
    top = max(finite)
    return next(n for n in names if values[n] >= top - 1e-12 * max(1.0, abs(top)))


def choose(rule, scores, champion, challengers, guards, order, *, scoring, rope, alpha,
           threshold, n_train, n_test, replace) -> tuple[str, str]:
    """``(chosen model, one-sentence reason)`` by ``rule`` (see the module docstring)."""
    shown, sign = natural_sign(scoring)
    means = {n: float(np.mean(s)) for n, s in scores.items()}
    blocked = {n: _blocked_by(guards, n) for n in scores}
    note = ""
    if any(blocked.values()):
        note = " (blocked by a guardrail: " + "; ".join(
            f"{n}, {_guard_text(b[0])}" for n, b in blocked.items() if b) + ")"
    if rule == "champion_challenger":
        promoted = [n for n, c in challengers.items() if c.decision == replace]
        if not promoted:
            return champion, (f"no challenger beats the champion {champion} by more than the "
                              f"rope {rope:g} with P(chall) > {threshold:g} and p_holm < "
                              f"{alpha:g}{note}.")
        best = first_best(promoted, lambda n: challengers[n].difference)
        c = challengers[best]
        several = (f", the largest difference of the {len(promoted)} that replace it"
                   if len(promoted) > 1 else "")
        return best, (f"{best} beats the champion {champion} by {fmt(c.difference, signed=True)}"
                      f" {scoring} (P(chall) {fmt_p(c.p_challenger_better)}, p_holm "
                      f"{fmt_p(c.pvalue_holm)}){several}{note}.")
    eligible = [n for n in order if not blocked[n]]
    best = first_best(eligible, lambda n: means[n])  # the first (simplest) of tied maxima
    best_text = f"{best} ({shown} {fmt(sign * means[best])})"
    if rule == "best_mean":
        return best, (f"{best} has the best mean {shown}, {fmt(sign * means[best])} over "
                      f"{len(scores[best])} folds; best_mean ignores the noise{note}.")
    if rule == "one_se":
        J = len(scores[best])
        se = float(np.std(scores[best], ddof=1)) / math.sqrt(J)
        chosen = next(n for n in eligible if means[n] >= means[best] - se)
        if chosen == best:
            return best, (f"{best} has the best mean {shown}, {fmt(sign * means[best])}, and no "
                          f"simpler model is within one standard error ({fmt(se)} = sd / "
                          f"sqrt({J})) of it{note}.")
        return chosen, (f"{chosen} is the simplest model whose mean {shown} "
                        f"{fmt(sign * means[chosen])} is within one standard error "
                        f"({fmt(se)} = sd / sqrt({J})) of the best, {best_text}{note}.")
    # simplest_within_noise
    for n in eligible:
        if n == best:
            return best, (f"{best} has the best mean {shown}, and every simpler model is worse "
                          f"by more than the rope {rope:g} with probability above "
                          f"{threshold:g}{note}.")
        J, mean, var, corr = fold_moments(scores[best] - scores[n], n_train, n_test)
        p_better = posterior_from_moments(J, mean, var, corr, rope).p_right
        if p_better <= threshold:
            return n, (f"{n} is the simplest model within noise of the best, {best_text}: "
                       f"P({best} better by more than {rope:g}) = {fmt_p(p_better)} <= "
                       f"{threshold:g} (Bayesian correlated t-test){note}.")
    raise AssertionError("unreachable: the best model is eligible")  # pragma: no cover


# --------------------------------------------------------------------------- cross_validate results


def _test_key(result: dict, scoring, name: str, primary: bool = True) -> str:
    keys = sorted(k for k in result if k.startswith("test_"))
    if scoring is None:
        if "test_score" in result:
            return "test_score"
        if len(keys) == 1:
            return keys[0]
        msg = (f"results[{name!r}] holds several scores {keys}; pass scoring= to say which one "
               "decides.")
        raise ValueError(msg)
    key = scoring if scoring.startswith("test_") else f"test_{scoring}"
    if key not in result:
        if primary and "test_score" in result and len(keys) == 1:
            return "test_score"  # a single-metric cross_validate names its score test_score
        msg = f"results[{name!r}] has no {key!r}; its scores are {keys}."
        raise ValueError(msg)
    return key


def _fold_scores(result: dict, key: str, name, n_folds: int) -> np.ndarray:
    """One number per fold, as many as the folds of the indices."""
    try:
        s = np.asarray(result[key], dtype=np.float64)
    except (TypeError, ValueError):
        msg = f"results[{name!r}][{key!r}] must hold one number per fold, got {result[key]!r}."
        raise TypeError(msg) from None
    if s.shape != (n_folds,):
        msg = (f"results[{name!r}][{key!r}] has shape {s.shape} but the indices describe "
               f"{n_folds} folds; expected one score per fold.")
        raise ValueError(msg)
    return s


def scores_from_cv_results(results, scoring, guardrails) -> tuple:
    """``(scores, guard_scores, n_train, n_test, scoring)`` from ``cross_validate(...,
    return_indices=True)`` outputs ``{name: result}`` whose folds are identical; ``n_train``
    and ``n_test`` are the per-fold sizes read from the indices; ``scoring`` names the score
    read (``"score"`` for ``test_score``)."""
    if not isinstance(results, dict):
        msg = ("results must be a dict {name: cross_validate(..., return_indices=True) output}, "
               f"got {type(results).__name__}.")
        raise TypeError(msg)
    if len(results) < 2:
        msg = f"results must hold at least 2 models (a champion and a challenger), got {len(results)}."
        raise ValueError(msg)
    if scoring is not None and not isinstance(scoring, str):
        msg = f"scoring must be a scoring name (a string) or None, got {type(scoring).__name__}."
        raise TypeError(msg)
    names = [str(n) for n in results]
    if len(set(names)) != len(names):
        msg = (f"results' names must be distinct as strings, got {list(results)}; they name the "
               "models in the comparison.")
        raise ValueError(msg)
    folds = {}
    for name, res in results.items():
        if not isinstance(res, dict) or "indices" not in res:
            msg = (f"results[{name!r}] has no 'indices': call cross_validate(..., "
                   "return_indices=True) so that the folds can be checked and sized.")
            raise ValueError(msg)
        idx = res["indices"]
        if not (isinstance(idx, dict) and "train" in idx and "test" in idx
                and len(idx["train"]) == len(idx["test"])):
            msg = (f"results[{name!r}]['indices'] must be cross_validate's dict {{'train': [...], "
                   "'test': [...]} with one entry per fold (return_indices=True).")
            raise ValueError(msg)
        folds[name] = (idx["train"], idx["test"])
    (first, (train0, test0)), *others = folds.items()
    for name, (train, test) in others:
        if len(test) != len(test0):
            msg = (f"results[{name!r}] has {len(test)} folds but results[{first!r}] has "
                   f"{len(test0)}: a paired comparison needs the same folds for every model.")
            raise ValueError(msg)
        for j in range(len(test0)):
            for part, a, b in (("test", test0[j], test[j]), ("training", train0[j], train[j])):
                if not np.array_equal(np.sort(np.asarray(a)), np.sort(np.asarray(b))):
                    msg = (f"fold {j} differs: results[{name!r}] and results[{first!r}] have "
                           f"different {part} rows. Pass the same cv splits (e.g. a "
                           "splitter with a fixed random_state) to every cross_validate call.")
                    raise ValueError(msg)
    n_train = np.array([len(t) for t in train0], dtype=np.float64)
    n_test = np.array([len(t) for t in test0], dtype=np.float64)
    keys = {str(n): _test_key(r, scoring, n) for n, r in results.items()}
    scores = {str(n): _fold_scores(r, keys[str(n)], n, len(test0))
              for n, r in results.items()}
    guard_scores = {g: {str(n): _fold_scores(r, _test_key(r, g, n, primary=False), n, len(test0))
                        for n, r in results.items()} for g in guardrails}
    shown = scoring if scoring is not None else next(iter(keys.values()))[len("test_"):]
    return scores, guard_scores, n_train, n_test, shown


# --------------------------------------------------------------------------- one_se_refit


class OneSERefit:
    """The callable :func:`one_se_refit` returns; ``GridSearchCV`` calls it with
    ``cv_results_`` and refits the candidate at the index it returns."""

    def __init__(self, scoring, simplest):
        self.scoring, self.simplest = scoring, simplest

    def __repr__(self) -> str:
        return f"one_se_refit({self.scoring!r}, simplest={self.simplest!r})"

    def _key(self, params: dict):
        if callable(self.simplest):
            return self.simplest(params)
        param, direction = self.simplest
        if param not in params:
            msg = (f"one_se_refit: simplest names parameter {param!r}, which a candidate does "
                   f"not set (its parameters: {sorted(params)}).")
            raise ValueError(msg)
        value = params[param]
        return value if direction == "lower" else -value

    def split_scores(self, cv_results) -> np.ndarray:
        """Per-candidate, per-split scores (n_candidates, n_splits) of ``scoring``."""
        if not isinstance(cv_results, dict) or "params" not in cv_results:
            msg = ("one_se_refit: expected a search's cv_results_ (a dict with 'params' and "
                   f"'split<i>_test_<scoring>' columns), got {type(cv_results).__name__}"
                   + (" without 'params'." if isinstance(cv_results, dict) else "."))
            raise TypeError(msg)
        suffix = f"_test_{self.scoring}"
        cols = sorted((k for k in cv_results if k.startswith("split") and k.endswith(suffix)
                       and k[5:-len(suffix)].isdigit()), key=lambda k: int(k[5:-len(suffix)]))
        if not cols and f"mean_test_{self.scoring}" not in cv_results:
            cols = sorted((k for k in cv_results if k.startswith("split")
                           and k.endswith("_test_score") and k[5:-11].isdigit()),
                          key=lambda k: int(k[5:-11]))
        if not cols:
            names = sorted(k[10:] for k in cv_results if k.startswith("mean_test_"))
            msg = (f"one_se_refit: cv_results_ has no scores for scoring {self.scoring!r}; "
                   f"its scorers are {names}.")
            raise ValueError(msg)
        return np.column_stack([np.asarray(cv_results[c], dtype=np.float64) for c in cols])

    def __call__(self, cv_results) -> int:
        s = self.split_scores(cv_results)
        if s.shape[1] < 2:
            msg = (f"one_se_refit: cv_results_ has {s.shape[1]} split; the standard error of "
                   "the one-standard-error rule needs at least 2 (cv >= 2).")
            raise ValueError(msg)
        # A candidate with an undefined (NaN) or infinite split score has no mean to compare.
        means = np.where(np.isfinite(s).all(axis=1), s.mean(axis=1, where=np.isfinite(s)),
                         np.nan)
        if not np.isfinite(means).any():
            msg = f"one_se_refit: no candidate has a defined mean {self.scoring!r}."
            raise ValueError(msg)
        best = int(np.nanargmax(means))
        se = float(np.std(s[best], ddof=1)) / math.sqrt(s.shape[1])
        within = np.flatnonzero(means >= means[best] - se)  # NaN compares False
        params = cv_results["params"]
        # Simplest first; among equally simple candidates the higher mean, then the first.
        try:
            return int(min(within, key=lambda i: (self._key(params[i]), -means[i], i)))
        except TypeError:
            values = [params[i].get(self.simplest[0]) if not callable(self.simplest) else
                      params[i] for i in within]
            msg = (f"one_se_refit: the candidates {values} cannot be ordered from simplest to "
                   "most complex (e.g. max_depth=None next to numbers); pass simplest=<key "
                   "function>, e.g. lambda p: p['max_depth'] or 1000.")
            raise TypeError(msg) from None


def one_se_refit(scoring, *, simplest) -> OneSERefit:
    """A ``refit=`` callable for ``GridSearchCV`` / ``RandomizedSearchCV``: the one-standard-
    error rule.

    Parameters
    ----------
    scoring : str
        The scorer the rule reads: the key of a multi-metric search's ``scoring`` dict, or the
        scoring of a single-metric search (its ``mean_test_score`` is used).
    simplest : (str, {"lower", "higher"}) or callable
        Which candidate is simplest: a parameter name as in ``cv_results_["params"]`` (e.g.
        ``"logisticregression__C"``) and the direction in which it gets simpler (``("C",
        "lower")``: a smaller C regularises more; ``("max_depth", "lower")``), or a key
        function ``params -> sortable`` (lower is simpler).

    Returns
    -------
    OneSERefit
        Called with ``cv_results_``, returns the index of the chosen candidate.

    Notes
    -----
    With ``J`` splits, ``m_i`` the mean score of candidate ``i`` and ``b`` the best (highest
    ``m``), the standard error is ``se = sd_b / sqrt(J)`` with ``sd_b`` the sample standard
    deviation (ddof 1) of ``b``'s split scores, recomputed from the ``split*_test_*`` columns
    (scikit-learn's ``std_test_score`` uses ddof 0). The rule picks the simplest candidate with
    ``m_i >= m_b - se`` [HTF09]_; among equally simple candidates the higher mean. Scores are
    greater-is-better, as for every scikit-learn scorer (``neg_*`` for losses). The folds
    overlap, so ``se`` understates the uncertainty; the rule is a convention, not a test.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> search = GridSearchCV(
    ...     make_pipeline(StandardScaler(), LogisticRegression()),
    ...     {"logisticregression__C": [0.01, 0.1, 0.3, 1.0]}, scoring="neg_log_loss", cv=5,
    ...     refit=one_se_refit("neg_log_loss", simplest=("logisticregression__C", "lower")))
    >>> search.fit(X, y).best_params_
    {'logisticregression__C': 0.3}
    """
    if not isinstance(scoring, str):
        msg = f"scoring must be the name of a scorer of the search (a string), got {scoring!r}."
        raise TypeError(msg)
    if not callable(simplest):
        ok = (isinstance(simplest, (tuple, list)) and len(simplest) == 2
              and isinstance(simplest[0], str) and simplest[1] in ("lower", "higher"))
        if not ok:
            msg = ("simplest must be (parameter name, 'lower' or 'higher') -- the direction in "
                   "which the parameter makes a simpler model, e.g. ('max_depth', 'lower') -- "
                   f"or a key function of the parameters; got {simplest!r}.")
            raise TypeError(msg)
        simplest = tuple(simplest)
    return OneSERefit(scoring, simplest)
