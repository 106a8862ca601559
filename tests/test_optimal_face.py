"""The optimal face (solvers.sequence.face) on 2-player Kuhn poker, whose equilibria are
Kuhn's one-parameter family: player 1 bets J with alpha in [0, 1/3], calls with Q after
check-bet with alpha + 1/3 and bets K with 3 alpha; player 2's strategy is unique (bluff J
1/3, call Q 1/3)."""
import pytest

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.catalog.registry import get_game
from pokerdyn.solvers.sequence.face import optimal_face_range


@pytest.fixture(scope="module")
def cg():
    return compile_game(get_game("kuhn"))


def _range(cg, label, action):
    I = cg.infoset_labels.index(label)
    a = cg.game.infosets[I].actions.index(action)
    r = optimal_face_range(cg, I, a, value=-1 / 18)
    return r.low, r.high


@pytest.mark.parametrize("label,action,low,high", [
    ("P1:J|", "b", 0.0, 1 / 3),
    ("P1:Q|kb", "c", 1 / 3, 2 / 3),
    ("P1:K|", "b", 0.0, 1.0),
    ("P1:Q|", "b", 0.0, 0.0),
    ("P2:J|k", "b", 1 / 3, 1 / 3),
    ("P2:Q|b", "c", 1 / 3, 1 / 3),
])
def test_kuhn_family_ranges(cg, label, action, low, high):
    got = _range(cg, label, action)
    assert got == pytest.approx((low, high), abs=1e-7)


def test_unreached_parent_is_unconstrained(cg):
    # P1 never reaches K|kb with a check of K... it can (K checks with 1 - 3 alpha), but it
    # always calls there: the range is a point
    assert _range(cg, "P1:K|kb", "c") == pytest.approx((1.0, 1.0), abs=1e-7)


def test_bad_indices(cg):
    with pytest.raises(GameError, match="infoset 99 is outside"):
        optimal_face_range(cg, 99, 0)
    with pytest.raises(GameError, match="action 5 is outside"):
        optimal_face_range(cg, 0, 5)


def test_many_cells_at_once_equal_one_at_a_time(cg):
    """optimal_face_ranges skips an LP where a point of the face already shows 0 or 1; the
    ranges are those of one LP pair per cell, for every action of every set."""
    from pokerdyn.solvers.sequence.face import optimal_face_ranges

    cells = [(I, a) for I in range(cg.n_infosets) for a in range(int(cg.n_actions[I]))]
    many = optimal_face_ranges(cg, cells, value=-1 / 18)
    one = [optimal_face_range(cg, I, a, value=-1 / 18) for I, a in cells]
    assert [(r.infoset, r.action) for r in many] == cells
    for m, o in zip(many, one):
        assert (m.low, m.high) == pytest.approx((o.low, o.high), abs=1e-7)
    # each action's range and its complement's add up: [l, h] for b, [1 - h, 1 - l] for k
    for I in range(cg.n_infosets):
        b, k = many[2 * I], many[2 * I + 1]
        assert (b.low, b.high) == pytest.approx((1 - k.high, 1 - k.low), abs=1e-7)


def test_warm_started_ranges_on_the_river_game():
    """The face LPs of one player are re-solved from the previous basis
    (:class:`solvers.sequence.face._FaceLP`): every cell of the river game at once agrees
    with each cell solved in a model of its own, and with the ranges scipy's linprog gave
    from scratch before the change (action 0 is check or fold: P2 checks C behind with
    [1/3, 1], folds C to a bet with [0, 1/6] and checks D behind with [1/2, 7/8]; P1 checks
    D with exactly 3/4)."""
    from pokerdyn.solvers.sequence.face import optimal_face_ranges

    rg = compile_game(get_game("river"))
    cells = [(I, a) for I in range(rg.n_infosets) for a in range(int(rg.n_actions[I]))]
    many = optimal_face_ranges(rg, cells)
    one = [optimal_face_range(rg, I, a) for I, a in cells]
    for m, o in zip(many, one):
        assert (m.low, m.high) == pytest.approx((o.low, o.high), abs=1e-7)
    got = {(rg.infoset_labels[r.infoset], r.action): (r.low, r.high) for r in many}
    assert got["P2:C|k", 0] == pytest.approx((1 / 3, 1.0), abs=1e-7)
    assert got["P2:C|b", 0] == pytest.approx((0.0, 1 / 6), abs=1e-7)
    assert got["P2:D|k", 0] == pytest.approx((0.5, 7 / 8), abs=1e-7)
    assert got["P1:D|", 0] == pytest.approx((0.75, 0.75), abs=1e-7)
