"""Is the model getting worse, or did the base rate move? Skill over time.

A raw loss drifts with the base rate; the skill ``1 - loss / reference`` does not. A log loss
that "improved" from 0.31 at a 12% base rate to 0.26 at 9% is a skill that *fell*, from
``1 - 0.31 / 0.367 = 0.155`` to ``1 - 0.26 / 0.3025 = 0.14``: the rows got easier, the model did
not keep up. Questions worth asking, and where the answer is:

- Did the model get worse, period by period, against knowing only that period's base rate?
  :func:`skill_over_time` with ``reference_from="period"``: per period the rows, the base rate, log
  loss and Brier with their references and skills, and the miscalibration (MCB); for a
  regressor RMSE and MAE with their skills (``mse_skill``, which is r2 here, and ``mae_skill``).
- Did it beat what a deployed model could have known? ``reference_from="rolling"``: each period is
  judged against the (weighted) class prior -- or the mean and median -- of the ``window``
  periods before it, not against its own base rate, which nobody knew in advance.
- Is a period's change more than noise? ``ci=0.95``: a bootstrap interval of each period's
  skill, rows resampled within the period (``groups=``: whole groups, a customer with several
  rows in a period).
- Is the challenger better *lately*, not only on random cross-validation?
  ``skill_over_time(y, proba, time, baseline=<the incumbent's predictions>)``: per period both
  models' headline number and the paired difference with its interval (both scored on the same
  resampled rows), and :meth:`SkillOverTime.verdict` (a :class:`LatestWindowVerdict`): does
  the challenger win in the latest window, and in how many of the last ``last``, by the rule of
  :func:`chimeraboost.compare.compare_holdout`.
- What does it look like? :meth:`SkillOverTime.plot`: the loss against its reference, the skill
  with its interval and the base rate (the mean of ``y``, for a regressor), one panel each on
  one time axis, drawn by :func:`chimeraboost.plotting.skill_over_time_plot`.

How it is computed: one evaluator from :mod:`chimeraboost.metrics` holds all rows, and each
period is one weight vector (the rows' sample weights inside the period, zero outside); the
``(P, n)`` matrix of them goes through the evaluator's ``evaluate`` at once, so every number is
exactly the one :func:`chimeraboost.metrics.classification_report` (or ``regression_report``)
gives on that period's rows. Periods are calendar bins of pandas (``freq`` is a pandas offset
alias: ``"MS"`` month start, ``"W"`` weeks, ``"D"`` days, ``"QS"`` quarters); pandas is an
optional dependency (``pip install "chimeraboost[pandas]"``).

Where each piece lives (private modules; import from here): ``_inputs`` checks what was passed
and bins the rows into calendar periods; ``_per_period`` computes each period's numbers and
holds :func:`skill_over_time`; ``_paired`` compares the model with the incumbent per period
and holds the :class:`LatestWindowVerdict`; ``_result`` is the :class:`SkillOverTime` it returns (table,
HTML, ``to_frame``); :mod:`chimeraboost.plotting` draws it.
"""

from __future__ import annotations

from ._paired import LatestWindowVerdict
from ._per_period import skill_over_time
from ._result import SkillOverTime

__all__ = ["LatestWindowVerdict", "SkillOverTime", "skill_over_time"]
