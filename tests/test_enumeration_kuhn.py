"""Two-player Kuhn poker: the enumeration gives the known equilibrium family (Kuhn 1950):
player 1 bets J with alpha in [0, 1/3], bets K with 3 alpha, calls with Q at alpha + 1/3;
player 2's strategy is unique (bluff J 1/3, call Q 1/3); player 1's value is -1/18 on the
whole family."""
import sympy as sp

from pokerdyn.games import get_game
from pokerdyn.games.compiled import compile_game
from pokerdyn.games.strategy import strategy_from_params
from pokerdyn.solvers.evaluation import nash_conv
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

GAME = get_game("kuhn")


def _solutions():
    (pc,) = equilibrium_pieces(GAME)
    return pc.solutions


def test_value_minus_one_eighteenth_on_every_family():
    sols = _solutions()
    assert sols
    for s in sols:
        assert sp.simplify(s.payoffs[0] + sp.Rational(1, 18)) == 0
        assert sp.simplify(s.payoffs[1] - sp.Rational(1, 18)) == 0


def test_family_is_kuhns_alpha_family():
    """The reduced set is Kuhn's one family, alpha = b1_J over the closed [0, 1/3]."""
    (s,) = _solutions()
    d = s.as_dict()
    assert sp.simplify(d["b1_K"] - 3 * d["b1_J"]) == 0
    assert sp.simplify(d["c1_Q"] - d["b1_J"] - sp.Rational(1, 3)) == 0
    assert d["b2_J"] == sp.Rational(1, 3) and d["c2_Q"] == sp.Rational(1, 3)
    ((x, lo, hi, lo_open, hi_open),) = s.intervals
    alphas = {d["b1_J"].subs(sp.Symbol(x, real=True), v) for v in (lo, hi)}
    assert alphas == {0, sp.Rational(1, 3)} and not lo_open and not hi_open


def test_samples_have_zero_nash_conv():
    cg = compile_game(GAME)
    for s in _solutions():
        sig = strategy_from_params(cg, {k: float(v) for k, v in s.sample().items()})
        assert nash_conv(cg, sig) < 1e-12
