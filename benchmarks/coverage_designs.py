"""The data designs of ``coverage.py``: how rows are drawn, and the population values.

Every design draws features ``x1, x2 ~ N(0, 1)`` (independent), an outcome from a known model,
and the forecasts of two fixed models: ``A`` (the true probabilities, or the regression's true
mean) and ``B`` (a model that sees ``x1`` only). Which one is which matters only for the
paired differences ``A - B``.

Population values -- the numbers an interval is meant to cover -- are computed by numerical
integration: a uniform grid of 701 x 701 points over ``[-7.5, 7.5]^2``, turned by half a
radian (so that no two points share a score, and no row of points sits on the weighted
design's edge), carries the density of the features (times the design's row weight; the
Gaussian mass outside is below 1e-12), and every grid point is one row per class with weight
``density x P(y = k | x)``. The metrics of :mod:`chimeraboost.metrics` on these weighted rows
are then the metrics of the population (the midpoint rule; a grid of 401 x 401 points gives
the same numbers to 2e-5). ``python benchmarks/coverage.py --check-truth`` compares them with
the metrics of 4,000,000 drawn rows: they agree to 0.001 or better, about that sample's own
error.
Regression designs have closed forms.

Designs (``DESIGNS``):

- ``logistic``: ``P(y = 1) = expit(a + x1 + x2)``; B forecasts ``expit(b + x1)``.
- ``probit``: ``P(y = 1) = Phi(a + 0.6 (x1 + x2))``; B forecasts ``Phi(b + 0.6 x1)``.
- ``weighted``: the logistic design with row weights ``1 + 2 [x2 > 0.5]`` (a third of the
  rows weigh 3; Kish's efficiency 0.76); every number is weighted, the population included.
  Its base rate is the share of rows that are events (10 of 200 at .05), as in the other
  designs; the weighted base rate is higher (.071 at .05, .58 at .5), since heavy rows are
  more often events.
- ``multiclass``: three classes, softmax of ``(0, c1 + x1 + x2, c2 - x1 + x2)``; B sees
  ``x1`` only. Its "base rate" is the prior of the rarest class (1/3 in the column of .5).
- ``regression``: ``y = 1 + 2 x1 + e`` with ``e`` standard normal, Student-t(5), or
  Student-t(3) (whose squares have no variance: no interval of the RMSE can be trusted, and
  none is claimed); A predicts ``1 + 2 x1``, B ``1 + 1.5 x1``. Skewed errors, the same
  way: centred lognormal ``exp(s Z) - exp(s^2 / 2)`` with ``s`` = 0.5, 1 and 1.5, and a
  centred chi-square with one degree of freedom ``chi2_1 - 1``.

The intercepts ``a``, ``b``, ``c1``, ``c2`` are solved so that the population base rate (the
share of rows that are events), and B's mean forecast, equal the column's base rate.
"""

from __future__ import annotations

from math import gamma, pi, sqrt

import numpy as np
from scipy.optimize import brentq, fsolve
from scipy.special import expit, softmax
from scipy.stats import norm

from chimeraboost import metrics

CLASS_KEYS = ("brier_skill", "log_loss_skill", "roc_auc", "pr_auc")
REGRESSION_KEYS = ("rmse", "r2", "mae")
_GRID = np.linspace(-7.5, 7.5, 701)
# The grid is turned by this angle (radians): no two points then share a score or sit on the
# weighted design's edge x2 = 0.5, so that the midpoint rule is not biased by ties (which the
# PR-AUC takes as one step) or by a boundary through a row of points.
_ANGLE = 0.5


def _grid():
    g1, g2 = np.meshgrid(_GRID, _GRID, indexing="ij")
    c, s = np.cos(_ANGLE), np.sin(_ANGLE)
    x1, x2 = c * g1 - s * g2, s * g1 + c * g2
    dens = norm.pdf(x1) * norm.pdf(x2)
    return x1.ravel(), x2.ravel(), dens.ravel() / dens.sum()


class Binary:
    """A binary design: ``P(y = 1 | x) = link(a + slope (x1 + x2))``, B = ``link(b + slope
    x1)``, optional row weights ``weight(x1, x2)``."""

    kind = "binary"

    def __init__(self, name, link, slope, weight=None):
        self.name, self.link, self.slope, self.weight = name, link, slope, weight
        self._cache = {}

    def _w(self, x1, x2):
        return np.ones_like(x1) if self.weight is None else self.weight(x1, x2)

    def _coef(self, rate):
        # The share of rows that are events, and B's mean forecast, equal ``rate``.
        if rate not in self._cache:
            x1, x2, w = _grid()
            a = brentq(lambda a: w @ self.link(a + self.slope * (x1 + x2)) - rate, -30, 30)
            b = brentq(lambda b: w @ self.link(b + self.slope * x1) - rate, -30, 30)
            self._cache[rate] = (a, b)
        return self._cache[rate]

    def forecasts(self, x1, x2, rate):
        a, b = self._coef(rate)
        return self.link(a + self.slope * (x1 + x2)), self.link(b + self.slope * x1)

    def draw(self, rng, n, rate):
        x1, x2 = rng.normal(size=n), rng.normal(size=n)
        p, q = self.forecasts(x1, x2, rate)
        y = (rng.random(n) < p).astype(np.int64)
        weight = None if self.weight is None else self.weight(x1, x2)
        return y, [np.column_stack([1 - p, p]), np.column_stack([1 - q, q])], weight

    def truth(self, rate) -> list[dict]:
        """Population metrics of A and B, on the weighted grid."""
        x1, x2, dens = _grid()
        p, q = self.forecasts(x1, x2, rate)
        w = dens * self._w(x1, x2)
        y = np.r_[np.zeros(x1.size, np.int64), np.ones(x1.size, np.int64)]
        weight = np.r_[w * (1 - p), w * p]
        out = []
        for f in (p, q):
            f2 = np.r_[f, f]
            rep = metrics.classification_report(y, np.column_stack([1 - f2, f2]), [0, 1],
                                                sample_weight=weight)
            out.append({k: float(rep[k]) for k in CLASS_KEYS})
        return out


class Multiclass:
    """Three classes: softmax of ``(0, c1 + x1 + x2, c2 - x1 + x2)``; B drops ``x2``."""

    kind = "multiclass"
    name = "multiclass"

    def __init__(self):
        self._cache = {}

    @staticmethod
    def _priors(rate):
        return np.array([1 / 3, 1 / 3, 1 / 3]) if rate >= 1 / 3 else np.array(
            [0.6, 0.4 - rate, rate])

    def _logits(self, x1, x2, c, with_x2=True):
        z2 = x2 if with_x2 else 0.0 * x2
        return np.column_stack([0 * x1, c[0] + x1 + z2, c[1] - x1 + z2])

    def _coef(self, rate):
        if rate not in self._cache:
            x1, x2, dens = _grid()
            target = self._priors(rate)

            def solve(with_x2):
                def gap(c):
                    return (dens @ softmax(self._logits(x1, x2, c, with_x2), axis=1))[1:] - \
                        target[1:]
                return fsolve(gap, np.zeros(2), xtol=1e-12)

            self._cache[rate] = (solve(True), solve(False))
        return self._cache[rate]

    def forecasts(self, x1, x2, rate):
        ca, cb = self._coef(rate)
        return (softmax(self._logits(x1, x2, ca), axis=1),
                softmax(self._logits(x1, x2, cb, with_x2=False), axis=1))

    def draw(self, rng, n, rate):
        x1, x2 = rng.normal(size=n), rng.normal(size=n)
        p, q = self.forecasts(x1, x2, rate)
        u = rng.random(n)[:, None]
        y = np.minimum((u > np.cumsum(p, axis=1)).sum(axis=1), 2).astype(np.int64)
        return y, [p, q], None

    def truth(self, rate) -> list[dict]:
        x1, x2, dens = _grid()
        p, q = self.forecasts(x1, x2, rate)
        y = np.repeat(np.arange(3), x1.size)
        weight = (dens[:, None] * p).T.ravel()
        out = []
        for f in (p, q):
            rep = metrics.classification_report(y, np.tile(f, (3, 1)), [0, 1, 2],
                                                sample_weight=weight)
            out.append({k: float(rep[k]) for k in CLASS_KEYS})
        return out


class Regression:
    """``y = 1 + 2 x1 + e``; A predicts the true mean, B ``1 + 1.5 x1``."""

    kind = "regression"

    def __init__(self, name, df=None):
        self.name, self.df = name, df

    def errors(self, rng, n):
        return rng.normal(size=n) if self.df is None else rng.standard_t(self.df, size=n)

    def draw(self, rng, n, rate=None):
        x1 = rng.normal(size=n)
        e = self.errors(rng, n)
        return 1 + 2 * x1 + e, [1 + 2 * x1, 1 + 1.5 * x1], None

    def variance(self) -> float:
        nu = self.df
        return 1.0 if nu is None else nu / (nu - 2)

    def maes(self) -> tuple[float, float]:
        """E|e| and E|0.5 x1 + e|."""
        nu = self.df
        if nu is None:
            return sqrt(2 / pi), sqrt(2 / pi) * sqrt(0.25 + 1.0)
        # E|T| = 2 sqrt(nu) Gamma((nu+1)/2) / (sqrt(pi) (nu-1) Gamma(nu/2)).
        return (2 * sqrt(nu) * gamma((nu + 1) / 2) / (sqrt(pi) * (nu - 1) * gamma(nu / 2)),
                _mae_shifted_t(0.5, nu))

    def truth(self, rate=None) -> list[dict]:
        """Closed forms: with ``v = Var(e)`` and the error ``c x1 + e`` of a prediction
        off by slope ``c``, rmse = sqrt(c^2 + v), r2 = 1 - (c^2 + v) / (4 + v); mae = E|e|
        for A, and for B ``E|0.5 x1 + e|`` by quadrature over ``x1``."""
        v = self.variance()
        out = []
        for c, mae in zip((0.0, 0.5), self.maes()):
            mse = c * c + v
            out.append({"rmse": sqrt(mse), "r2": 1 - mse / (4 + v), "mae": mae})
        return out


class SkewedRegression(Regression):
    """The regression design with centred skewed errors: lognormal ``exp(s Z) - exp(s^2 /
    2)``, or ``chi2_1 - 1`` (``s`` None)."""

    def __init__(self, name, s=None):
        super().__init__(name)
        self.s = s

    def errors(self, rng, n):
        if self.s is None:
            return rng.chisquare(1, size=n) - 1.0
        return np.exp(self.s * rng.normal(size=n)) - np.exp(self.s**2 / 2)

    def variance(self) -> float:
        if self.s is None:
            return 2.0
        return (np.exp(self.s**2) - 1) * np.exp(self.s**2)

    def _error_grid(self):
        """(values, probabilities) of e on a fine grid of the normal quantile scale."""
        z = norm.ppf((np.arange(200_000) + 0.5) / 200_000)
        e = z * z - 1.0 if self.s is None else np.exp(self.s * z) - np.exp(self.s**2 / 2)
        return e, np.full(z.size, 1.0 / z.size)

    def maes(self) -> tuple[float, float]:
        """E|e| and E|0.5 x1 + e|, by quadrature (x1 on a grid, e at 200,000 equally likely
        quantiles)."""
        e, pe = self._error_grid()
        x = np.linspace(-8, 8, 401)
        wx = norm.pdf(x)
        wx /= wx.sum()
        inner = np.array([pe @ np.abs(0.5 * xi + e) for xi in x])
        return float(pe @ np.abs(e)), float(wx @ inner)


def _mae_shifted_t(c, nu) -> float:
    """E|c x + T| for x ~ N(0, 1) and T ~ t(nu), by quadrature on a fine grid."""
    from scipy.stats import t as student_t

    x = np.linspace(-8, 8, 401)
    t = np.linspace(-200, 200, 80_001)
    ft = student_t.pdf(t, nu)
    ft /= ft.sum()
    wx = norm.pdf(x)
    wx /= wx.sum()
    # E|s + T| for each shift s = c x, with the tails beyond +-200 negligible for nu = 5.
    inner = np.array([ft @ np.abs(s + t) for s in c * x])
    return float(wx @ inner)


DESIGNS = {
    "logistic": Binary("logistic", expit, 1.0),
    "probit": Binary("probit", norm.cdf, 0.6),
    "weighted": Binary("weighted", expit, 1.0, weight=lambda x1, x2: 1.0 + 2.0 * (x2 > 0.5)),
    "multiclass": Multiclass(),
    "regression normal": Regression("regression normal"),
    "regression t(5)": Regression("regression t(5)", df=5),
    "regression t(3)": Regression("regression t(3)", df=3),
    "regression lognormal(0.5)": SkewedRegression("regression lognormal(0.5)", s=0.5),
    "regression lognormal(1)": SkewedRegression("regression lognormal(1)", s=1.0),
    "regression lognormal(1.5)": SkewedRegression("regression lognormal(1.5)", s=1.5),
    "regression chi-square(1)": SkewedRegression("regression chi-square(1)"),
}
