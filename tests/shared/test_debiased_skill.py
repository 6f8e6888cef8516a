"""chimeraboost._shared.scores.debiased_skill: the skill the slices' test compares, against a
reference whose plug-in bias is taken out, checked against the closed forms of that bias."""

import numpy as np
import pytest

from chimeraboost._shared.scores import debiased_skill, ref_brier, ref_log_loss


def _bootstrap_shares(n, r, K, B, seed=0):
    """(B, K) class shares of B multinomial resamples of n independent rows with shares r."""
    counts = np.random.default_rng(seed).multinomial(n, r, size=B)
    return counts / n


@pytest.mark.parametrize("n, r", [(20, [0.7, 0.3]), (60, [0.5, 0.3, 0.2])])
def test_the_brier_reference_is_ferro_and_frickers_for_independent_rows(n, r):
    # E[1 - sum r_k^2] over n rows is (1 - 1/n) times the population's, so the unbiased
    # reference of n independent rows is the plug-in one times n / (n - 1) (Ferro & Fricker
    # 2012); the bootstrap's bias over n resampled rows, scaled by n / (n - 1), gives it.
    r = np.asarray(r)
    ref = float(ref_brier(r, r))
    shares = _bootstrap_shares(n, r, r.size, 400_000)
    loss = 0.8 * ref
    got = debiased_skill(loss, ref, ref_brier(shares, shares), n)
    want = 1 - loss / (ref * n / (n - 1))
    assert got == pytest.approx(want, abs=2e-4)
    assert got > 1 - loss / ref  # the plug-in skill reads low


def test_the_log_loss_reference_is_miller_madows_for_independent_rows():
    # The entropy of n rows' shares is biased by about -(K - 1) / (2 n) (Miller 1955).
    n, r = 200, np.array([0.6, 0.3, 0.1])
    ref = float(ref_log_loss(r, r))
    shares = _bootstrap_shares(n, r, r.size, 400_000, seed=1)
    loss = 0.7 * ref
    got = debiased_skill(loss, ref, ref_log_loss(shares, shares), n)
    implied = loss / (1 - got) - ref  # the bias taken out
    assert implied == pytest.approx((r.size - 1) / (2 * (n - 1)), rel=0.1)


def test_without_replicates_or_with_one_unit_the_reference_is_kept():
    assert debiased_skill(0.1, 0.2, np.array([]), 30) == pytest.approx(0.5)
    assert debiased_skill(0.1, 0.2, np.array([0.1, 0.15]), 1) == pytest.approx(0.5)
    # replicates that drew none of the part's rows (no reference) are left out
    assert debiased_skill(0.1, 0.2, np.array([np.nan, 0.19, 0.19]), 2) == \
        pytest.approx(1 - 0.1 / 0.22)
