"""The numbers of shadow traffic as functions of row weights, so that one bootstrap serves all.

Questions this module answers (each function takes a ``(B, n)`` matrix of row weights and
returns one value per row of it; weight one on every row gives the plain number):

- *How often do the two models' decisions differ, and do they agree beyond chance?* ->
  :func:`decision_numbers`: flips in each direction, Cohen's kappa [C60]_, each model's
  predicted positive rate.
- *Do they rank the rows alike?* -> :func:`spearman` (Pearson's correlation of the midranks
  of :class:`Midranks`, ties averaged, as ``scipy.stats.spearmanr``) and :func:`top_k_jaccard` (the overlap of the
  two top-K sets).
- *Have a model's scores moved since offline?* -> :func:`psi` (the population stability
  index on the offline scores' deciles [Y18]_) and :class:`KS` (the two-sample
  Kolmogorov-Smirnov statistic, as ``scipy.stats.ks_2samp``), the offline scores held fixed.

A replicate's weights count how often each row was drawn, so every function computes what it
would on the resampled rows written out (``np.repeat``), without writing them out.

References
----------
.. [C60] Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
   Psychological Measurement* 20(1), 37-46. doi:10.1177/001316446002000104
.. [Y18] Yurdakul, B. (2018). *Statistical properties of population stability index*. PhD
   thesis, Western Michigan University (the PSI and its bins).
"""

from __future__ import annotations

import numpy as np


def decision_numbers(W: np.ndarray, d0: np.ndarray, d1: np.ndarray) -> dict:
    """Flip rates, kappa and positive rates of two 0/1 decision vectors under weights ``W``."""
    tot = W.sum(1)
    up = W @ (~d0 & d1) / tot
    down = W @ (d0 & ~d1) / tot
    p0, p1 = W @ d0 / tot, W @ d1 / tot
    agree = 1.0 - up - down
    chance = p0 * p1 + (1 - p0) * (1 - p1)
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = np.where(chance < 1.0, (agree - chance) / (1.0 - chance), np.nan)
    return {"flip_up": up, "flip_down": down, "flip_rate": up + down, "kappa": kappa,
            "positive_rate_champion": p0, "positive_rate_challenger": p1}


class Midranks:
    """Each row's midrank among the weighted rows (ties, and copies of a row, averaged)."""

    def __init__(self, s: np.ndarray):
        self.order = np.argsort(s, kind="stable")
        sorted_s = s[self.order]
        new = np.r_[True, sorted_s[1:] != sorted_s[:-1]]
        self.starts = np.flatnonzero(new)
        group_sorted = np.cumsum(new) - 1
        self.group = np.empty(s.size, dtype=np.int64)
        self.group[self.order] = group_sorted

    def __call__(self, W: np.ndarray) -> np.ndarray:
        g = np.add.reduceat(W[:, self.order], self.starts, axis=1)
        mid = np.cumsum(g, axis=1) - g + (g + 1.0) / 2.0
        return mid[:, self.group]


def spearman(W: np.ndarray, r0: Midranks, r1: Midranks) -> np.ndarray:
    """Weighted Pearson correlation of the two scores' midranks."""
    tot = W.sum(1, keepdims=True)
    a, b = r0(W), r1(W)
    a = a - (W * a).sum(1, keepdims=True) / tot
    b = b - (W * b).sum(1, keepdims=True) / tot
    with np.errstate(invalid="ignore", divide="ignore"):
        return (W * a * b).sum(1) / np.sqrt((W * a * a).sum(1) * (W * b * b).sum(1))


def _top(W: np.ndarray, order: np.ndarray, k: float) -> np.ndarray:
    """How much of each row is in the top ``k``: rows taken in ``order`` until ``k`` are in,
    the row at the edge in part."""
    Wo = W[:, order]
    before = np.cumsum(Wo, axis=1) - Wo
    taken = np.clip(k - before, 0.0, Wo)
    out = np.empty_like(taken)
    out[:, order] = taken
    return out


def top_k_jaccard(W, order0, order1, k) -> np.ndarray:
    """``|A & B| / |A | B|`` of the two top-``k`` sets (``order*``: rows, highest first)."""
    a, b = _top(W, order0, k), _top(W, order1, k)
    inter = np.minimum(a, b).sum(1)
    return inter / (2.0 * k - inter)


def decile_edges(reference: np.ndarray) -> np.ndarray:
    """The inner edges of the reference scores' deciles (repeated edges merged)."""
    return np.unique(np.quantile(reference, np.arange(1, 10) / 10))


def psi(W: np.ndarray, bins: np.ndarray, expected: np.ndarray, eps: float) -> np.ndarray:
    """``sum (a - e) ln(a / e)`` over the bins, shares below ``eps`` raised to ``eps``.

    ``bins`` is each live row's bin, ``expected`` the reference's share in each bin."""
    onehot = np.zeros((bins.size, expected.size))
    onehot[np.arange(bins.size), bins] = 1.0
    a = np.maximum(W @ onehot / W.sum(1, keepdims=True), eps)
    e = np.maximum(expected, eps)
    return ((a - e) * np.log(a / e)).sum(1)


class KS:
    """The two-sample KS statistic of weighted live scores against fixed reference scores."""

    def __init__(self, live: np.ndarray, reference: np.ndarray):
        self.order = np.argsort(live, kind="stable")
        self.sorted = live[self.order]
        grid = np.unique(np.concatenate([live, reference]))
        # Where the live ECDF is read at each grid point (index of the last live value <= it).
        self.at = np.searchsorted(self.sorted, grid, side="right") - 1
        ref = np.sort(reference)
        self.ref_cdf = np.searchsorted(ref, grid, side="right") / ref.size

    def __call__(self, W: np.ndarray) -> np.ndarray:
        cum = np.cumsum(W[:, self.order], axis=1) / W.sum(1, keepdims=True)
        cum = np.concatenate([np.zeros((W.shape[0], 1)), cum], axis=1)
        live_cdf = cum[:, self.at + 1]
        return np.abs(live_cdf - self.ref_cdf[None, :]).max(1)
