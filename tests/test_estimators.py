"""Estimators of Billingham Appendix D: symbolic unbiasedness against the observation model
(Table 2), the discrepancy in (46), and simulated mean / L^(-1/2) scaling (Figs. 16-17)."""
import numpy as np
import pytest
import sympy as sp

from pokerdyn.dynamics.play.estimators import (bias, corrected, is_binomial, likelihood_table,
                                 ratio_estimators, ratio_weights, RatioEstimator)
from pokerdyn.dynamics.play.observation import observation_model
from pokerdyn.dynamics.play.repeated import estimator_study
from pokerdyn.games import GameError, get_game, param_symbols

G = get_game("skp")
S = param_symbols(G)
b, c, d = S["b_J"], S["c_K"], S["d_Q"]


def _by_name(kind):
    return {e.name: e for e in ratio_estimators(G, kind)}


def test_printed_44_45_47_unbiased_as_ratio_of_expectations():
    """Billingham (44) (with its 5/6), (45) and (47) (with its 3/2): E[num]/E[den] is the
    target frequency identically in b_J, c_K, d_Q."""
    est = _by_name("paper")
    for name in ("b_J@P1", "b_J@P2", "d_Q@P3", "c_K@P3"):
        assert bias(est[name], G) == 0, name


def test_printed_46_is_biased():
    """Billingham (46) as printed: E[num]/E[den] = 4c(1+b)/(4+2b+bc), not c (discrepancy
    recorded in dynamics.play.estimators).  The minimal fix derived from Table 2 gives the
    class {(B4,D7),(B4,D8)} (Player 2 holds A, Player 1 folded) weight 2 instead of 1."""
    e46 = _by_name("paper")["c_K@P2"]
    assert sp.simplify(bias(e46, G) - (4 * c * (1 + b) / (4 + 2 * b + b * c) - c)) == 0
    fixed = corrected(e46, G)
    assert bias(fixed, G) == 0
    w = {cell: v for cell, v in fixed.den}
    assert w[("bfc", "KAJ")] == 2 and w[("bfc", "QAJ")] == 2  # N47, N48 (paper: 1)
    assert w[("bff", "QJA")] == 2 and w[("bcf", "KQA")] == 1  # N22 and N33 unchanged


def test_default_estimators_unbiased_for_every_L():
    """Binomial structure (numerator = a * subset of equally weighted denominator cells)
    plus ratio-unbiasedness => unbiased for every window length; the printed (44), (45),
    (47) lack the structure (5/6, mixed 2 and 1, 3/2 weights)."""
    for e in ratio_estimators(G, "unbiased"):
        assert bias(e, G) == 0 and is_binomial(e), e.name
    paper = _by_name("paper")
    for name in ("b_J@P1", "d_Q@P3", "c_K@P3"):
        assert not is_binomial(paper[name])


def test_estimator_weights_must_be_observable():
    """Player 2 cannot tell (B4, D7) from (B4, D8): weighting only one of them is refused."""
    bad = RatioEstimator("bad", 1, "c_K", ((("bcc", "KAJ"), sp.Integer(1)),),
                         ((("bfc", "KAJ"), sp.Integer(1)),))
    with pytest.raises(GameError, match="cannot tell"):
        ratio_weights(bad, G)


def test_ml_likelihood_factor():
    """Player 3 holding A sees bfc with Q shown in D1 and D3: probability (d + (1-c)d)/24
    (Table 2), i.e. coefficients d/12 - cd/24 over the monomials of (c_K, d_Q)."""
    tab = likelihood_table(G, 2, {"P": 9.0})
    om = observation_model(G)
    t = om.outcome("JQA", "bfc").terminal
    row = tab.coef[om.class_of[2, t]]
    names = [G.named[i].name for i in tab.params]
    assert names == ["c_K", "d_Q"]
    np.testing.assert_allclose(row, [0, 0, 1 / 12, -1 / 24])


@pytest.mark.parametrize("kind,rounds", [("unbiased", 2_000_000), ("ml", 300_000)])
def test_estimators_unbiased_in_simulation(kind, rounds):
    """Frequencies fixed at S3, P = 9, L = 96 (Billingham App. D): every estimate's mean is
    within 3 standard errors of the truth; standard errors from 50 batch means (successive
    estimates share L - 1 hands)."""
    s = estimator_study(pot=9.0, at="S3", L=(96,), rounds=rounds, discard=rounds // 20,
                        seed=1, estimator=kind)
    z = (s.mean[0] - np.asarray(s.truth)) / s.stderr[0]
    assert np.all(np.abs(z) < 3), dict(zip(s.names, z))


def test_printed_46_bias_visible_in_simulation():
    s = estimator_study(pot=9.0, at="S3", L=(96,), rounds=1_000_000, discard=50_000, seed=2,
                        estimator="paper")
    j = s.names.index("c_K@P2")
    # 4c(1+b)/(4+2b+bc) at S3 = 0.1982..., far outside the sampling error
    assert abs(s.mean[0, j] - s.truth[j]) > 10 * s.stderr[0, j]


def test_std_scales_as_inverse_sqrt_L():
    """Billingham Fig. 17: std ~ L^(-1/2); fitted log-log slope over L = 24..384."""
    s = estimator_study(pot=9.0, at="S3", L=(24, 48, 96, 192, 384), rounds=1_000_000,
                        discard=50_000, seed=3)
    for j, name in enumerate(s.names):
        slope = np.polyfit(np.log(s.L), np.log(s.std[:, j]), 1)[0]
        assert abs(slope + 0.5) < 0.1, (name, slope)


def test_corrected_keeps_printed_44_45_47_and_fixes_only_46():
    """``estimator="corrected"``: Billingham (44), (45), (47) exactly as printed; (46) with
    the printed numerator and the unbiased denominator (weight 2 on N47 + N48)."""
    paper, fixed = _by_name("paper"), _by_name("corrected")
    assert set(fixed) == set(paper)
    for name in ("b_J@P1", "b_J@P2", "d_Q@P3", "c_K@P3"):
        assert fixed[name] == paper[name], name
    e46, f46 = paper["c_K@P2"], fixed["c_K@P2"]
    assert f46.num == e46.num and bias(f46, G) == 0
    changed = {cell for (cell, w), (_, v) in zip(f46.den, e46.den) if w != v}
    assert changed == {("bfc", "KAJ"), ("bfc", "QAJ")}  # N47, N48 in the paper's indices


def test_corrected_46_mean_is_true_c_for_large_L_and_paper_is_not():
    """Frequencies fixed at S3, P = 9 (Billingham App. D), L = 1536: the corrected (46)
    estimate of c_K = 2/11 is within 3 batch-means standard errors of the truth (its
    finite-L bias, O(1/L), is about 4e-3 at L = 96 and below the sampling error here),
    while the printed (46) sits at its biased limit 4c(1+b)/(4+2b+bc) = 0.1982 (S3)."""
    kw = dict(pot=9.0, at="S3", L=(1536,), rounds=3_000_000, discard=100_000, seed=6)
    fixed = estimator_study(estimator="corrected", **kw)
    paper = estimator_study(estimator="paper", **kw)
    j = fixed.names.index("c_K@P2")
    assert fixed.truth[j] == pytest.approx(2 / 11)
    assert abs(fixed.mean[0, j] - fixed.truth[j]) < 3 * fixed.stderr[0, j]
    s3 = {b: sp.Rational(2, 9), c: sp.Rational(2, 11)}
    limit = float((4 * c * (1 + b) / (4 + 2 * b + b * c)).subs(s3))
    assert abs(paper.mean[0, j] - limit) < 3 * paper.stderr[0, j]
    assert paper.mean[0, j] - fixed.mean[0, j] > 10 * fixed.stderr[0, j]
