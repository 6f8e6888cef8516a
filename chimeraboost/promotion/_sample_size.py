"""How many rows per arm does a randomised (unpaired) test need?

Questions this module answers, each for a difference challenger minus champion tested against
``null`` (0: any difference; a margin ``m``: better by more than ``m``; ``-m``: no worse than
``m``, non-inferiority):

- *Two proportions?* -> :func:`sample_size_proportions`: with ``null = 0`` the variance is the
  pooled one under the null and the unpooled one under the alternative, as R's
  ``power.prop.test`` and statsmodels' ``samplesize_proportions_2indep_onetail`` (3825.15 per
  group at 0.03 against 0.02, power 0.8); with a margin the unpooled variance on both sides,
  Chow et al.'s closed form [CSWL17]_ (section 4.2).
- *Two means of a per-row number (a loss, a cost, revenue)?* -> :func:`sample_size_means`:
  the z test (as statsmodels' ``zt_ind_solve_power``) or Student's t (as
  ``tt_ind_solve_power``), each arm with its own standard deviation; with a margin
  [CSWL17]_ (section 3.2).
- *Two ROC-AUCs?* -> :func:`sample_size_auc`: the normal test of the difference of two
  independent AUCs, each with Hanley & McNeil's variance [HM82]_ (or, from labelled offline
  rows, DeLong's: ``chimeraboost.promotion.ab_metric``).

``ratio`` is the champion's rows over the challenger's; every function returns the
challenger's rows (a float: round up).

References
----------
.. [CSWL17] Chow, S.-C., Shao, J., Wang, H. and Lokhnygina, Y. (2017). *Sample Size
   Calculations in Clinical Research*, 3rd ed. Chapman & Hall/CRC.
   doi:10.1201/9781315183084
.. [HM82] Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area under a
   receiver operating characteristic (ROC) curve. *Radiology* 143(1), 29-36.
   doi:10.1148/radiology.143.1.7063747
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq
from scipy.special import ndtr, ndtri
from scipy.stats import nct
from scipy.stats import t as student_t

from .._shared.param_checks import check_level, check_real
from ._metrics import unit_variance

__all__ = ["sample_size_auc", "sample_size_means", "sample_size_proportions"]

ALTERNATIVES = ("two-sided", "one-sided")


def _common(alpha, power, ratio, alternative) -> tuple[float, float, float, float]:
    alpha = check_level(alpha, "alpha", example="0.05")
    power = check_level(power, "power", example="0.8")
    ratio = check_real(ratio, "ratio", strictly_positive=True)
    if alternative not in ALTERNATIVES:
        msg = f"alternative must be one of {list(ALTERNATIVES)}, got {alternative!r}."
        raise ValueError(msg)
    tail = alpha / 2 if alternative == "two-sided" else alpha
    return float(ndtri(1 - tail)), float(ndtri(power)), ratio, tail


def _effect(difference, null, what) -> float:
    gap = float(difference) - float(null)
    if not np.isfinite(gap) or gap == 0:
        msg = (f"the expected difference ({difference!r}) equals null ({null!r}): no number "
               f"of rows can tell them apart; plan on the {what} the offline evidence expects.")
        raise ValueError(msg)
    return gap


def _z_rows(gap, unit, z_alpha, z_power, power, two_sided) -> float:
    """Rows for a normal test whose variance is ``unit / n``; with two sides the power counts
    the far tail too, as statsmodels' ``NormalIndPower``."""
    n = ((z_alpha + z_power) / gap) ** 2 * unit
    if not two_sided:
        return float(n)

    def short(rows):
        d = abs(gap) / np.sqrt(unit / rows)
        return ndtr(d - z_alpha) + ndtr(-d - z_alpha) - power

    return float(brentq(short, n * 0.5, n * 1.01 + 1e-9, xtol=1e-12, rtol=1e-15))


def sample_size_proportions(p_champion, p_challenger, *, alpha=0.05, power=0.8, ratio=1.0,
                            null=0.0, alternative="two-sided") -> float:
    """Rows of the challenger's arm to tell two proportions apart.

    Parameters
    ----------
    p_champion, p_challenger : float in (0, 1)
        The proportion expected in each arm.
    alpha : float in (0, 1), default=0.05
    power : float in (0, 1), default=0.8
    ratio : float > 0, default=1.0
        The champion's rows over the challenger's.
    null : float, default=0.0
        The difference ``p_challenger - p_champion`` under the null hypothesis.
    alternative : {"two-sided", "one-sided"}, default="two-sided"
        One-sided: in the direction of the expected difference.

    Returns
    -------
    float
        ``((z_a sd_null + z_b sd_alt) / (d - null))^2`` with ``sd^2 = p1 (1 - p1) + p0 (1 -
        p0) / ratio``; under ``null = 0`` ``sd_null`` takes both arms at the pooled ``(p1 +
        ratio p0) / (1 + ratio)``.

    Examples
    --------
    R's ``power.prop.test(p1 = .03, p2 = .02, power = .8)``: 3825 per group.

    >>> round(sample_size_proportions(0.02, 0.03), 2)
    3825.15
    """
    z_a, z_b, ratio, _ = _common(alpha, power, ratio, alternative)
    p0, p1 = (check_level(p, name, example="0.03") for p, name in
              ((p_champion, "p_champion"), (p_challenger, "p_challenger")))
    gap = _effect(p1 - p0, null, "difference")
    sd_alt = np.sqrt(p1 * (1 - p1) + p0 * (1 - p0) / ratio)
    sd_null = sd_alt
    if float(null) == 0.0:
        pooled = (p1 + ratio * p0) / (1 + ratio)
        sd_null = np.sqrt(pooled * (1 - pooled) * (1 + 1 / ratio))
    return float(((z_a * sd_null + z_b * sd_alt) / gap) ** 2)


def sample_size_means(difference, sd, *, sd_challenger=None, alpha=0.05, power=0.8, ratio=1.0,
                      null=0.0, test="z", alternative="two-sided") -> float:
    """Rows of the challenger's arm to tell two means apart.

    Parameters
    ----------
    difference : float
        The expected difference of the means, challenger minus champion.
    sd : float > 0
        The per-row standard deviation in the champion's arm (and the challenger's, unless
        ``sd_challenger`` is given).
    sd_challenger : float > 0, default=None
    alpha, power, ratio, null, alternative
        As in :func:`sample_size_proportions`.
    test : {"z", "t"}, default="z"
        The normal test, or Student's t on ``n1 + n0 - 2`` degrees of freedom with the
        noncentrality ``(d - null) / sqrt(sd1^2 / n1 + sd0^2 / n0)`` (equal standard
        deviations: statsmodels' ``tt_ind_solve_power``).

    Returns
    -------
    float

    Examples
    --------
    A difference of a fifth of a standard deviation, 80% power: 393 rows per arm with z.

    >>> round(sample_size_means(0.2, 1.0), 1)
    392.4
    """
    z_a, z_b, ratio, tail = _common(alpha, power, ratio, alternative)
    sd0 = check_real(sd, "sd", strictly_positive=True)
    sd1 = sd0 if sd_challenger is None else check_real(sd_challenger, "sd_challenger",
                                                       strictly_positive=True)
    gap = _effect(difference, null, "difference")
    unit = sd1**2 + sd0**2 / ratio
    power = float(ndtr(z_b))
    n = _z_rows(gap, unit, z_a, z_b, power, alternative == "two-sided")
    if test == "z":
        return n
    if test != "t":
        msg = f"test must be 'z' or 't', got {test!r}."
        raise ValueError(msg)

    def short(rows):
        df = rows * (1 + ratio) - 2
        crit = student_t.isf(tail, df)
        nc = abs(gap) / np.sqrt(unit / rows)
        got = nct.sf(crit, df, nc)
        if alternative == "two-sided":
            got += nct.cdf(-crit, df, nc)
        return got - power

    low = max(n * 0.9, 2.0 / (1 + ratio) + 1e-6)
    high = n * 1.2 + 10
    return float(brentq(short, low, high, xtol=1e-12, rtol=1e-15))


def sample_size_auc(auc_champion, auc_challenger, *, prevalence, alpha=0.05, power=0.8,
                    ratio=1.0, null=0.0, alternative="two-sided") -> float:
    """Rows of the challenger's arm to tell two ROC-AUCs apart, each on its own arm's rows.

    Parameters
    ----------
    auc_champion, auc_challenger : float in (0, 1)
    prevalence : float in (0, 1)
        The share of positive rows in each arm.
    alpha, power, ratio, null, alternative
        As in :func:`sample_size_proportions`.

    Returns
    -------
    float
        The normal test with each AUC's variance ``c / n``, ``c = (Q2 - A^2) / prevalence +
        (Q1 - A^2) / (1 - prevalence)``, ``Q1 = A / (2 - A)``, ``Q2 = 2 A^2 / (1 + A)``
        (Hanley & McNeil's variance [HM82]_ for many rows).

    Examples
    --------
    >>> round(sample_size_auc(0.75, 0.80, prevalence=0.2))
    2630
    """
    z_a, z_b, ratio, _ = _common(alpha, power, ratio, alternative)
    prevalence = check_level(prevalence, "prevalence", example="0.2")
    a0, a1 = (check_level(a, name, example="0.75") for a, name in
              ((auc_champion, "auc_champion"), (auc_challenger, "auc_challenger")))
    gap = _effect(a1 - a0, null, "difference")
    c0 = unit_variance("roc_auc", a0, prevalence)[1]
    c1 = unit_variance("roc_auc", a1, prevalence)[1]
    return _z_rows(gap, c1 + c0 / ratio, z_a, z_b, float(ndtr(z_b)),
                   alternative == "two-sided")
