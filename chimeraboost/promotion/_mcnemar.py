"""Once labels arrive on shadow rows: who is right where the two models' decisions differ?

Questions this module answers:

- *Which rows are labelled, and what are their 0/1 outcomes?* -> :func:`labels` (None or
  NaN where a label has not arrived yet).
- *Is one model right more often than the other where they disagree?* ->
  :func:`disagreement`: with independent rows, McNemar's exact test [M47]_ (a two-sided
  binomial test of the discordant rows against one half). With rows in clusters (many
  requests per user, ``groups=``; or runs of time points, ``time=``), the clustered McNemar
  test (:func:`clustered_mcnemar`).

The clustered test. Let ``d_k`` be, in cluster ``k``, the labelled rows where only the
challenger is right minus those where only the champion is right (``c_k - b_k``). McNemar's
statistic is ``(c - b)^2 / (c + b)``; the clustered one replaces the variance ``c + b`` of
``c - b`` under the null, which assumes independent rows, by the between-cluster one,
``sum_k d_k^2``::

    X^2 = (sum_k d_k)^2 / sum_k d_k^2,   p = P(chi2_1 > X^2).

It is the statistic of Durkalski, Palesch, Lipsitz & Rust [D03]_ with every row counting
once (theirs weighs cluster ``k`` by ``1 / n_k``, its pairs; with equal cluster sizes the
two are one statistic), and the variance is Obuchowski's [O98]_ ratio-estimator variance of
the difference of the two correlated proportions taken under the null (the mean of ``d_k``
set to 0, as McNemar's variance is). Rows counting once keeps the test about the rows the
report counts. With every cluster of one row, ``d_k`` is 0 or +-1 and ``X^2`` is McNemar's
asymptotic statistic without continuity correction; the exact test then differs from it
only as the binomial does from its normal approximation.

References
----------
.. [M47] McNemar, Q. (1947). Note on the sampling error of the difference between correlated
   proportions or percentages. *Psychometrika* 12(2), 153-157. doi:10.1007/BF02295996
.. [O98] Obuchowski, N. A. (1998). On the comparison of correlated proportions for
   clustered data. *Statistics in Medicine* 17(13), 1495-1507.
   doi:10.1002/(SICI)1097-0258(19980715)17:13<1495::AID-SIM863>3.0.CO;2-I
.. [D03] Durkalski, V. L., Palesch, Y. Y., Lipsitz, S. R. and Rust, P. F. (2003). Analysis
   of clustered matched-pair data. *Statistics in Medicine* 22(15), 2417-2428.
   doi:10.1002/sim.1438
"""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest, chi2

from .. import resampling
from .._shared.array_checks import as_1d
from .._shared.format import count

__all__ = ["clustered_mcnemar", "disagreement", "labels"]


def labels(y, n):
    """0/1 codes and the mask of labelled rows (missing: None or NaN)."""
    arr = as_1d(y, "y")
    if arr.dtype.kind == "f":
        known = ~np.isnan(arr)
    else:
        known = np.array([v is not None and not (isinstance(v, float) and np.isnan(v))
                          for v in arr.tolist()])
    values = np.unique(arr[known])
    if values.size > 2 or values.size == 0:
        msg = (f"y must hold two classes (the labels that have arrived), got {values.size} "
               f"distinct value(s): {values[:5].tolist()}.")
        raise ValueError(msg)
    codes = np.zeros(n, dtype=bool)
    positive = values[-1] if values.size == 2 or values[0] in (1, True) else None
    if positive is not None:
        codes[known] = arr[known] == positive
    return codes, known


def clustered_mcnemar(champion_right, challenger_right, clusters) -> tuple[float, float]:
    """``(X^2, p)`` of the clustered McNemar test (see the module's docstring).

    ``champion_right``, ``challenger_right``: bool arrays over the rows (True where only
    that model is right); ``clusters``: each row's cluster code (0 to K - 1).

    Examples
    --------
    Clusters of one row give McNemar's asymptotic test, ``(c - b)^2 / (c + b)``:

    >>> b, c = np.r_[np.ones(10), np.zeros(20)], np.r_[np.zeros(10), np.ones(20)]
    >>> stat, p = clustered_mcnemar(b.astype(bool), c.astype(bool), np.arange(30))
    >>> float(stat), round(float(p), 4)
    (3.3333333333333335, 0.0679)
    """
    k = int(clusters.max()) + 1 if clusters.size else 0
    d = (np.bincount(clusters, weights=challenger_right, minlength=k)
         - np.bincount(clusters, weights=champion_right, minlength=k))
    total, square = float(d.sum()), float(d @ d)
    if total == 0.0 or square == 0.0:
        return 0.0, 1.0
    stat = total * total / square
    return stat, float(chi2.sf(stat, 1))


def _verdict(m, p, alpha, champ, chall) -> str:
    if m == 0:
        return "no labelled row where they disagree"
    if p > alpha:
        return "no detectable difference"
    who = "challenger" if chall > champ else "champion"
    return f"the {who} is right more often where they disagree"


def disagreement(y, d0, d1, alpha, notes, clusters=None, unit="groups") -> dict:
    """Who is right where the decisions ``d0`` (champion) and ``d1`` (challenger) differ,
    on the labelled rows: McNemar's exact test, or with ``clusters`` (each row's cluster
    code: its group, or its run of time points) the clustered test."""
    codes, known = labels(y, d0.size)
    if not known.all():
        notes.append(f"labels for {count(known.sum())} of {count(known.size)} rows; the "
                     "disagreement is read on those")
    differ = known & (d0 != d1)
    champ_rows, chall_rows = differ & (d0 == codes), differ & (d1 == codes)
    champ, chall = int(champ_rows.sum()), int(chall_rows.sum())
    m = champ + chall
    out = {"labelled_rows": int(known.sum()), "rows": m, "champion_right": champ,
           "challenger_right": chall}
    if clusters is None:
        p = float(binomtest(champ, m, 0.5).pvalue) if m else 1.0
        out.update(test="exact McNemar", clusters=None)
    else:
        _, p = clustered_mcnemar(champ_rows[differ], chall_rows[differ], clusters[differ])
        held = int(np.unique(clusters[differ]).size)
        out.update(test="clustered McNemar", clusters=held)
        if 0 < held < resampling.MIN_GROUPS:
            notes.append(f"the labelled rows where the decisions differ lie in {held} "
                         f"{unit}: the clustered McNemar test's chi-square reference is "
                         f"rough with fewer than {resampling.MIN_GROUPS}")
    out.update(pvalue=p, verdict=_verdict(m, p, alpha, champ, chall))
    return out
