"""Collusion: win sharing for any game (games.collusion), the public / private / suspicious
payoffs with a rotating dealer (solvers.methods.collusion; Mercer, hold'em paper sec. 5) and the
``collusion`` command, on 3-player Kuhn poker."""
import dataclasses
import json
import itertools

import numpy as np
import pytest
import sympy as sp

from pokerdyn.games import GAMES, GameError, compile_game
from pokerdyn.games.arrays import game_from_arrays, game_to_arrays
from pokerdyn.games.catalog.kuhn import kuhn, kuhn3
from pokerdyn.games.catalog.registry import GAME_OPTIONS
from pokerdyn.games.collusion import share_winnings
from pokerdyn.games.tree import Infoset
from pokerdyn.cli import main
from pokerdyn.solvers.methods.collusion import ROTATION, collusion_payoffs, iterative_solver
from pokerdyn.solvers.evaluation import expected_payoffs

K3 = kuhn3()
SOLVE = iterative_solver("cfr+", tol=1e-3, iterations=20_000)


def make_weak(collusion, colluders):
    return K3 if collusion is None else share_winnings(K3, colluders)


@pytest.mark.parametrize("seats", list(itertools.combinations((1, 2, 3), 2)))
def test_share_winnings_is_exact_zero_sum_and_keeps_the_tree(seats):
    g = share_winnings(K3, seats)
    i, j = seats[0] - 1, seats[1] - 1
    other = ({0, 1, 2} - {i, j}).pop()
    for row, old in zip(g.payoffs, K3.payoffs):
        assert sp.simplify(sum(row)) == 0  # zero-sum, exactly
        assert row[i] == row[j] == sp.Rational(1, 2) * (old[i] + old[j])
        assert row[other] == old[other]
    assert g.infosets == K3.infosets and np.array_equal(g.parent, K3.parent)
    # a float-array game gives the same numbers
    fg = share_winnings(game_from_arrays(**game_to_arrays(K3)), seats)
    assert isinstance(fg.payoffs, np.ndarray)
    assert np.allclose(fg.payoffs, compile_game(g).payoffs, atol=1e-15)


@pytest.mark.parametrize("seats, fragment", [
    ((1, 1), "distinct seats"), ((0, 2), "colluder seat 0 is outside"),
    ((1, 2, 3), "must be 2 to 2 distinct seats"), ((2, 4), "colluder seat 4 is outside"),
    (("a", 2), "is not a list of seats"),
])
def test_share_winnings_bad_seats(seats, fragment):
    with pytest.raises(GameError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        share_winnings(K3, seats)


@pytest.fixture(scope="module")
def weak():
    return collusion_payoffs(make_weak, "weak", SOLVE)


def test_public_payoffs_equal_an_independent_computation(weak):
    # independent: solve each seating's win-sharing game, read the payoffs by role, average
    expect = []
    for seats in ROTATION:
        pair = tuple(sorted((seats["A"], seats["B"])))
        cg = compile_game(share_winnings(K3, pair))
        u = expected_payoffs(cg, SOLVE(cg)[0])
        expect.append([u[seats["C"] - 1], u[seats["A"] - 1], u[seats["B"] - 1]])
    assert np.array_equal(weak.public, np.mean(expect, axis=0))
    assert [r.colluders for r in weak.arrangements] == [(1, 2), (1, 3), (2, 3)]
    assert set(weak.nash_conv) == {"none", "1,2", "1,3", "2,3"}
    assert max(weak.nash_conv.values()) <= 1e-3


def test_weak_collusion_shares_and_stays_zero_sum(weak):
    for case in (weak.public, weak.private, weak.suspicious):
        assert case.sum() == pytest.approx(0, abs=1e-12)
    # win sharing: A's and B's payoffs are equal wherever the collusion game is evaluated
    assert weak.public[1] == pytest.approx(weak.public[2], abs=1e-12)
    assert weak.private[1] == pytest.approx(weak.private[2], abs=1e-12)


def test_c_does_no_better_with_the_wrong_strategy(weak):
    eps = max(weak.nash_conv.values())
    # public: C best-responds (within NashConv) to the colluders; private: she does not
    for r in weak.arrangements:
        assert r.public[0] >= r.private[0] - r.nash_conv
    # suspicious: without collusion C's own equilibrium strategy is (within NashConv) best
    g0 = compile_game(K3)
    s0 = SOLVE(g0)[0]
    u0 = expected_payoffs(g0, s0)
    c_no_collusion = np.mean([u0[s["C"] - 1] for s in ROTATION])
    assert weak.suspicious[0] <= c_no_collusion + eps


def test_identical_games_give_the_rotation_average():
    # with no collusion at all every case is the no-collusion equilibrium, and with the
    # dealer rotating each player sits once in every seat: each gets a third of a zero sum
    res = collusion_payoffs(lambda c, s: K3, "weak", SOLVE)
    assert np.array_equal(res.public, res.suspicious)
    assert np.array_equal(res.public, res.private)
    assert np.allclose(res.public, 0, atol=1e-12)


def test_information_sets_of_c_must_match():
    def relabel(c, s):
        if c is None:
            return K3
        infosets = tuple(Infoset(I.label + "'", I.player, I.actions) for I in K3.infosets)
        return dataclasses.replace(K3, infosets=infosets)
    with pytest.raises(GameError, match="information sets differ"):
        collusion_payoffs(relabel, "weak", SOLVE)


def test_two_players_is_an_error():
    with pytest.raises(GameError, match="needs a 3-player game; 'kuhn' has 2 players"):
        collusion_payoffs(lambda c, s: kuhn(), "weak", SOLVE)


@pytest.fixture
def registered(monkeypatch):
    def kuhn3_collusion(collusion="none", colluders=(2, 3)):
        if collusion not in ("none", "weak"):
            raise GameError(f"collusion={collusion!r} is not one of none, weak")
        return K3 if collusion == "none" else share_winnings(K3, colluders)

    def kuhn_collusion(collusion="none", colluders=(1, 2)):
        return kuhn()
    monkeypatch.setitem(GAMES, "kuhn3-test", kuhn3_collusion)
    monkeypatch.setitem(GAME_OPTIONS, "kuhn3-test", ("collusion", "colluders"))
    monkeypatch.setitem(GAMES, "kuhn-test", kuhn_collusion)
    monkeypatch.setitem(GAME_OPTIONS, "kuhn-test", ("collusion", "colluders"))


def test_cli_collusion_json(registered, capsys):
    rc = main(["collusion", "kuhn3-test", "--kind", "weak", "--tol", "1e-3",
               "--iterations", "20000", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["game"] == "kuhn3-test"
    res = collusion_payoffs(lambda c, s: GAMES["kuhn3-test"](c or "none", s or (2, 3)),
                            "weak", SOLVE)
    for case in ("public", "private", "suspicious"):
        assert d[case] == res.__dict__[case].tolist() and len(d[case]) == 3
    assert d["converged"] is True and d["seats"][1] == {"A": 3, "B": 1, "C": 2}


def test_cli_collusion_text(registered, capsys):
    assert main(["collusion", "kuhn3-test", "--kind", "weak", "--tol", "1e-2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["C", "(victim)", "A", "B"]
    assert [line.split()[0] for line in out[2:5]] == ["public", "private", "suspicious"]


@pytest.mark.parametrize("argv, fragment", [
    (["kuhn3", "--kind", "weak"], "game 'kuhn3' has no collusion and colluders options; "
                                  "games with them: mercer-smh, mercer-mmh, kuhn3-test"),
    (["kuhn-test", "--kind", "weak"], "needs a 3-player game; 'kuhn-test' has 2 players"),
    (["kuhn3-test(collusion=weak)", "--kind", "weak"], "leave collusion and colluders out"),
    (["kuhn3-test", "--kind", "strong"], "collusion='strong' is not one of none, weak"),
    (["kuhn3-test", "--kind", "sneaky"], "invalid choice: 'sneaky'"),
    (["nope", "--kind", "weak"], "unknown game 'nope'"),
    (["kuhn3-test", "--kind", "weak", "--tol", "0"], "tol=0 is outside the allowed range"),
])
def test_cli_collusion_bad_input(registered, capsys, argv, fragment):
    with pytest.raises(SystemExit) if "sneaky" in argv else _no_raise():
        rc = main(["collusion", *argv])
        assert rc == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


class _no_raise:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False



def test_pot_sharing_seats_two_and_three_nearly_always_fold_in_3p_smh():
    """Mercer, hold'em paper sec. 5: under the pot-sharing constraint, "when players in the
    second and third position collude, they have no hands worth playing and always choose
    to fold" (3P-SMH).  Derived here (CFR+, NashConv <= 1e-4): player 1 always bets and
    both colluders fold every holding but the top pairs 55 and 66, which call (about 6% of
    deals); both lose money."""
    from pokerdyn.games.catalog.registry import make_game
    from pokerdyn.solvers import cfr
    from pokerdyn.solvers._kernels import reach_probs
    cg = compile_game(make_game("mercer-smh(players=3,collusion=pot)"))
    res = cfr(cg, tol=1e-4, iterations=2_000)
    assert res.converged
    s = res.strategy
    reach = reach_probs(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob, s,
                        -1)
    fold = np.array([I.actions.index("f") for I in cg.game.infosets])
    for seat in (1, 2):
        nodes = np.flatnonzero((cg.kind == 2) & (cg.player == seat))
        sets = cg.infoset[nodes]
        assert reach[nodes].sum() == pytest.approx(1.0, abs=1e-3)   # facing player 1's bet
        play = (reach[nodes] * (1.0 - s[sets, fold[sets]])).sum()
        assert 0.05 < play < 0.07
        mass = np.bincount(sets, weights=reach[nodes], minlength=cg.n_infosets)
        playing = {cg.game.infosets[k].label.split("|")[0] for k in np.unique(sets)
                   if mass[k] > 1e-4 and 1.0 - s[k, fold[k]] > 1e-3}
        assert playing == {f"P{seat + 1}:55", f"P{seat + 1}:66"}
        assert res.expected_payoffs[seat] < -0.6
