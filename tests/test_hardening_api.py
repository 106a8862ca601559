"""Issue 33 (hardening), the Python API: every public function that takes a behaviour profile
checks it once, at its entry, with games.strategy.check_strategy (shape exactly
(n_infosets, max_actions), finite, >= 0, 0 at illegal actions, rows summing to 1), and
raises GameError naming the argument, the bad shape, entry or information set and what is
allowed; the numba kernels never read outside their arrays (a run with NUMBA_BOUNDSCHECK=1
gives the same values); other arrays users pass (player index, ODE state, exact profiles,
resume state) are checked the same way.

Before the fix a (2, 2) profile of Kuhn poker gave expected payoffs read out of bounds
(-3.09e223 or nan) and an all-zero profile a NashConv of 0 or -0.75."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pokerdyn.solvers.evaluation as ev
import pokerdyn.solvers.iterative as it
from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.strategy import check_strategy, uniform_strategy
from pokerdyn.solvers import _kernels as K

FUZZ = settings(max_examples=200, deadline=None, derandomize=True)

_CG: dict = {}


def cg_of(name: str):
    if name not in _CG:
        _CG[name] = compile_game(make_game(name))
    return _CG[name]


def random_profile(cg, rng: np.random.Generator) -> np.ndarray:
    """A valid profile with random rows (some actions at probability 0)."""
    w = rng.random(cg.legal.shape) * cg.legal
    w[rng.random(w.shape) < 0.2] = 0.0
    w[np.arange(cg.n_infosets), rng.integers(0, cg.n_actions)] += 0.1
    return w / w.sum(axis=1, keepdims=True)


def kernel_values(cg, s) -> tuple:
    """The unchecked kernels (the values before the fix, on valid input)."""
    a = (cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob)
    u = K.expected_payoffs(*a, cg.terminal_index, cg.payoffs, s)
    r = K.regrets(*a, cg.terminal_index, cg.payoffs, cg.legal, s)
    return u, r


# the public entries that take a profile, each called on ``sigma``
ENTRIES = {
    "nash_conv": lambda cg, s: ev.nash_conv(cg, s),
    "expected_payoffs": lambda cg, s: ev.expected_payoffs(cg, s),
    "regrets": lambda cg, s: ev.regrets(cg, s),
    "max_regret": lambda cg, s: ev.max_regret(cg, s),
    "best_response": lambda cg, s: ev.best_response(cg, s, 1),
    "cfr(sigma0)": lambda cg, s: __import__("pokerdyn.solvers", fromlist=["cfr"]).cfr(cg, iterations=2, sigma0=s),
}


def refused(fn, cg, sigma, *needles: str) -> str:
    with pytest.raises(GameError) as exc:
        fn(cg, sigma)
    msg = str(exc.value)
    assert "\n" not in msg
    assert any(n in msg for n in needles), msg
    assert any(w in msg for w in ("allowed", "must", "needs")), msg
    return msg


# ---------------------------------------------------------------------------- defect 1
def test_the_reported_cases_are_refused():
    """The issue's two cases: a (2, 2) profile of Kuhn (read out of bounds) and an all-zero
    profile (NashConv -0.75)."""
    cg = cg_of("kuhn")
    msg = refused(ENTRIES["nash_conv"], cg, np.full((2, 2), 0.5), "shape (2, 2)")
    assert "(12, 2)" in msg and "sigma" in msg
    refused(ENTRIES["expected_payoffs"], cg, np.full((2, 2), 0.5), "shape (2, 2)")
    msg = refused(ENTRIES["nash_conv"], cg, np.zeros((12, 2)), "sums to 0.0")
    assert "'P1:J|'" in msg  # the first information set, by label


def test_kuhn_values_unchanged():
    """Kuhn's uniform profile: NashConv 11/12 (OpenSpiel's published value); payoffs
    +-1/8; check=False gives the same numbers."""
    cg = cg_of("kuhn")
    s = uniform_strategy(cg)
    assert ev.nash_conv(cg, s) == pytest.approx(11 / 12, abs=1e-14)
    assert ev.expected_payoffs(cg, s) == pytest.approx([0.125, -0.125], abs=1e-14)
    assert ev.nash_conv(cg, s, check=False) == ev.nash_conv(cg, s)


def test_wrong_shape_is_refused_before_the_kernel_runs(monkeypatch):
    """Structural: with check=False too, a wrong shape never reaches a kernel."""
    def boom(*a):
        raise AssertionError("kernel called")
    for name in ("expected_payoffs", "regrets", "best_response"):
        monkeypatch.setattr(K, name, boom)
    cg = cg_of("leduc")
    for bad in (np.zeros((288, 2)), np.zeros((3, 288)), np.zeros(288 * 3), [[0.5]]):
        for fn in (ev.expected_payoffs, ev.regrets, ev.nash_conv):
            with pytest.raises(GameError, match="shape"):
                fn(cg, bad, check=False)
        with pytest.raises(GameError, match="shape"):
            ev.best_response(cg, bad, 0, check=False)


def test_check_runs_once_at_the_entry_not_in_the_loop(monkeypatch):
    """run_iterative checks sigma0 once in full; the NashConv checkpoints of its loop only
    guard the shape (O(1))."""
    calls = {True: 0, False: 0}

    def counting(cg, sigma, what="strategy", atol=1e-9, full=True):
        calls[full] += 1
        return check_strategy(cg, sigma, what, atol, full)
    monkeypatch.setattr(ev, "check_strategy", counting)
    monkeypatch.setattr(it, "check_strategy", counting)
    from pokerdyn.solvers import cfr

    cg = cg_of("kuhn")
    res = cfr(cg, iterations=300, sigma0=uniform_strategy(cg))
    assert calls[True] == 1
    assert calls[False] == res.history.shape[0] + 1 > 10   # checkpoints and the final payoffs


@pytest.mark.parametrize("player", [2, -1, 0.5, "1", None, 3])
def test_best_response_player_out_of_range(player):
    cg = cg_of("kuhn")
    with pytest.raises(GameError, match=r"player=.* is outside the allowed range \[0, 1\]"):
        ev.best_response(cg, uniform_strategy(cg), player)


def test_best_response_accepts_numpy_players():
    cg = cg_of("kuhn3")
    s = uniform_strategy(cg)
    assert ev.best_response(cg, s, np.int64(2)).value == ev.best_response(cg, s, 2).value


# ---------------------------------------------------------------------------- defect 3
GAMES = ("kuhn", "leduc", "kuhn3")


@FUZZ
@given(name=st.sampled_from(GAMES), entry=st.sampled_from(sorted(ENTRIES)),
       rows=st.integers(0, 300), cols=st.integers(0, 5), extra=st.sampled_from([0, 1, 2]))
def test_fuzz_wrong_shapes(name, entry, rows, cols, extra):
    cg = cg_of(name)
    shape = (rows, cols) if extra == 0 else (rows,) if extra == 1 else (rows, cols, 2)
    if shape == cg.legal.shape:
        shape = (rows + 1, cols)
    msg = refused(ENTRIES[entry], cg, np.full(shape, 0.5), f"shape {shape}")
    assert str(cg.legal.shape) in msg


def _cell(cg, data, legal=True):
    cells = np.argwhere(cg.legal if legal else ~cg.legal)
    I, a = cells[data.draw(st.integers(0, len(cells) - 1))]
    return int(I), int(a)


@FUZZ
@given(name=st.sampled_from(GAMES), entry=st.sampled_from(sorted(ENTRIES)),
       value=st.sampled_from([np.nan, np.inf, -np.inf]), seed=st.integers(0, 2**32 - 1),
       data=st.data())
def test_fuzz_non_finite(name, entry, value, seed, data):
    cg = cg_of(name)
    s = random_profile(cg, np.random.default_rng(seed))
    I, a = _cell(cg, data)
    s[I, a] = value
    msg = refused(ENTRIES[entry], cg, s, "is not a number")
    assert f"sigma[{I}, {a}]" in msg or f"sigma0[{I}, {a}]" in msg
    assert repr(cg.game.infosets[I].label) in msg


@FUZZ
@given(name=st.sampled_from(GAMES), entry=st.sampled_from(sorted(ENTRIES)),
       neg=st.floats(1e-8, 1e3), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_fuzz_negative(name, entry, neg, seed, data):
    """A negative entry, its row still summing to 1."""
    cg = cg_of(name)
    s = random_profile(cg, np.random.default_rng(seed))
    I, a = _cell(cg, data)
    s[I, a] = -neg
    b = (a + 1) % int(cg.n_actions[I])
    s[I, b] = 0.0
    s[I, b] = 1.0 - s[I].sum()
    msg = refused(ENTRIES[entry], cg, s, "is negative")
    assert f"[{I}, {a}]" in msg and "[0, 1]" in msg


@FUZZ
@given(name=st.sampled_from(GAMES), entry=st.sampled_from(sorted(ENTRIES)),
       factor=st.one_of(st.floats(0.0, 1 - 1e-5), st.floats(1 + 1e-5, 50.0)),
       seed=st.integers(0, 2**32 - 1), data=st.data())
def test_fuzz_rows_not_summing_to_one(name, entry, factor, seed, data):
    """A row scaled by ``factor`` (0: all zero) is named by its label and its sum."""
    cg = cg_of(name)
    s = random_profile(cg, np.random.default_rng(seed))
    I, _ = _cell(cg, data)
    s[I] *= factor
    msg = refused(ENTRIES[entry], cg, s, "sums to")
    assert f"{cg.game.infosets[I].label!r} sums to {float(s[I].sum())!r}" in msg
    assert "must sum to 1" in msg


@FUZZ
@given(entry=st.sampled_from(sorted(ENTRIES)), p=st.floats(1e-8, 1.0),
       seed=st.integers(0, 2**32 - 1), data=st.data())
def test_fuzz_probability_on_illegal_actions(entry, p, seed, data):
    """Leduc's two-action sets have a padding column that must stay 0 (the row is
    renormalised, so only the illegal entry is wrong)."""
    cg = cg_of("leduc")
    s = random_profile(cg, np.random.default_rng(seed))
    I, a = _cell(cg, data, legal=False)
    s[I] *= 1 - p
    s[I, a] = p
    msg = refused(ENTRIES[entry], cg, s, "illegal action")
    assert f"[{I}, {a}]" in msg and repr(cg.game.infosets[I].label) in msg


@FUZZ
@given(name=st.sampled_from(GAMES + ("river",)), seed=st.integers(0, 2**32 - 1))
def test_fuzz_valid_profiles_give_the_kernel_values(name, seed):
    """Valid random profiles (rows normalised in floating point) pass, and every public
    function returns exactly what the unchecked kernels return."""
    cg = cg_of(name)
    s = random_profile(cg, np.random.default_rng(seed))
    u, r = kernel_values(cg, s)
    assert np.array_equal(ev.expected_payoffs(cg, s), u)
    assert np.array_equal(ev.regrets(cg, s), r)
    assert ev.nash_conv(cg, s) == float(r.sum()) and ev.max_regret(cg, s) == float(r.max())
    for p in range(cg.n_players):
        br = ev.best_response(cg, s, p)
        assert br.value - u[p] == pytest.approx(r[p], abs=1e-12)   # BR value >= current
        assert br.value >= u[p] - 1e-12


def test_tolerance_and_lists():
    """Rounding at 1e-12 passes, 1e-6 does not; nested lists and exact Fractions work."""
    cg = cg_of("kuhn")
    s = uniform_strategy(cg)
    s[0] = [0.5 + 1e-12, 0.5]
    ev.nash_conv(cg, s)
    s[0] = [0.5 + 1e-6, 0.5]
    with pytest.raises(GameError, match=r"sums to 1\.000001"):
        ev.nash_conv(cg, s)
    half = uniform_strategy(cg).tolist()
    assert ev.nash_conv(cg, half) == pytest.approx(11 / 12)
    exact = np.full((12, 2), Fraction(1, 2), dtype=object)
    assert ev.nash_conv(cg, exact) == pytest.approx(11 / 12)
    with pytest.raises(GameError, match="not an array of numbers"):
        ev.nash_conv(cg, [["a", "b"]] * 12)


# ---------------------------------------------------------------------------- other entries
def test_paper_fp_resume_is_checked():
    from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play

    cg = cg_of("kuhn")
    with pytest.raises(GameError, match="resume sigma shape"):
        paper_fictitious_play(cg, resume=(3, np.zeros((2, 2))))
    with pytest.raises(GameError, match="resume t=-1 is outside"):
        paper_fictitious_play(cg, resume=(-1, uniform_strategy(cg)))
    with pytest.raises(GameError, match="resume must be a pair"):
        paper_fictitious_play(cg, resume=uniform_strategy(cg))
    r = paper_fictitious_play(cg, epsilon=0.3, max_iterations=50,
                              resume=(0, uniform_strategy(cg)))
    assert r.nash_conv == pytest.approx(ev.nash_conv(cg, r.strategy))


@pytest.mark.parametrize("iterations", [0, 2.5, float("nan"), "10"])
def test_iterations_must_be_a_positive_integer(iterations):
    from pokerdyn.solvers import cfr

    with pytest.raises(GameError, match="iterations=.* is outside the allowed range"):
        cfr(cg_of("kuhn"), iterations=iterations)


def test_transplant_and_realization_plan_check_their_profiles():
    from pokerdyn.solvers.methods.collusion import transplant
    from pokerdyn.solvers.sequence.form import sequence_form

    cg = cg_of("kuhn")
    s = uniform_strategy(cg)
    with pytest.raises(GameError, match="src_sigma shape"):
        transplant(cg, s, cg, s[:3], 0)
    with pytest.raises(GameError, match="player=5"):
        transplant(cg, s, cg, s, 5)
    assert np.array_equal(transplant(cg, s, cg, s, 0), s)
    sf = sequence_form(cg)
    with pytest.raises(GameError, match="player=-1"):
        sf.realization_plan(cg, s, -1)
    with pytest.raises(GameError, match="sums to"):
        sf.realization_plan(cg, 2 * s, 0)
    assert sf.realization_plan(cg, s, 0)[0] == 1.0


def test_exact_values_checks_the_exact_profile():
    from pokerdyn.solvers.exact_profile import exact_values

    game = get_game("kuhn")
    half = (Fraction(1, 2), Fraction(1, 2))
    sig = {s.label: half for s in game.infosets}
    values, _ = exact_values(game, sig)
    assert values == [Fraction(1, 8), Fraction(-1, 8)]
    first = game.infosets[0].label
    cases = [
        ({**sig, "nope": half}, "'nope', not one of game 'kuhn'"),
        ({k: v for k, v in sig.items() if k != first}, f"needs the information set {first!r}"),
        ({**sig, first: (Fraction(1),)}, "has 1 probabilities; it must have 2"),
        ({**sig, first: (Fraction(3, 2), Fraction(-1, 2))}, "outside the allowed range"),
        ({**sig, first: (Fraction(1, 2), Fraction(1, 3))}, "sums to 5/6, not 1"),
        ({**sig, first: (float("nan"), 0.5)}, "must be a sequence of rational numbers"),
        (list(sig.values()), "must be a dict"),
    ]
    for bad, needle in cases:
        with pytest.raises(GameError) as exc:
            exact_values(game, bad)
        assert needle in str(exc.value)
    with pytest.raises(GameError, match="needs 30 rows"):
        exact_values(game, sig, payoffs=[[0, 0]] * 3)


def test_ode_model_state_and_simulate_init_shapes():
    from pokerdyn.dynamics import ode_model, simulate_ode, simulate_batch

    model = ode_model(get_game("skp"), {"P": 9})
    y = np.full(model.n, 0.5)
    assert model.f(0, y).shape == (model.n,)
    assert model.f(0, np.tile(y[:, None], (1, 4))).shape == (model.n, 4)
    for fn in (lambda z: model.f(0, z), lambda z: model.jac(0, z), model.payoff,
               model.payoff_gradient):
        for bad in (y[:-1], np.append(y, 0.5), np.zeros((model.n, 2, 2)), "abc"):
            with pytest.raises(GameError, match=rf"state y .*needs .*{model.n}"):
                fn(bad)
    with pytest.raises(GameError, match=rf"simulate needs shape \({model.n},\)"):
        simulate_ode(model, np.tile(y, (2, 1)), 1.0)
    with pytest.raises(GameError, match=r"initial state needs 3 values"):
        simulate_ode(model, y[:-1], 1.0)
    with pytest.raises(GameError, match="simulate_batch needs shape"):
        simulate_batch(model, np.full((2, 2, model.n), 0.5), 1.0)


def test_learning_model_state_shapes():
    from pokerdyn.dynamics.learning.model import learning_model

    cg = cg_of("kuhn")
    m = learning_model(cg, rule="replicator")
    y = m.uniform()
    assert np.array_equal(m.profile(y), uniform_strategy(cg))
    assert m.payoff(y) == pytest.approx([0.125, -0.125])
    with pytest.raises(GameError, match="state y has shape"):
        m.payoff(y[:-1])
    with pytest.raises(GameError, match="state y has shape"):
        m.profile(np.append(y, 0.5))
    with pytest.raises(GameError, match="sigma shape"):
        m.state(np.zeros((2, 2)))


def test_compile_game_refuses_unknown_parameters():
    with pytest.raises(GameError, match=r"has no parameter 'Q' \(parameters: P\)"):
        compile_game(get_game("skp"), {"P": 9, "Q": 1})


# ---------------------------------------------------------------------------- defect 2
BOUNDS_SCRIPT = r"""
import json, sys
import numpy as np
from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.strategy import uniform_strategy
from pokerdyn.solvers import _kernels as K
from pokerdyn.solvers.evaluation import best_response, expected_payoffs, nash_conv
from pokerdyn.solvers.learning.cfr_plus import cfr
from pokerdyn.solvers.learning.fictitious_play import fictitious_play

def values(cg, s):
    a = (cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob)
    brs = [best_response(cg, s, p) for p in range(cg.n_players)]
    return {"nash_conv": nash_conv(cg, s), "payoffs": expected_payoffs(cg, s).tolist(),
            "br": [b.value for b in brs], "br_actions": [b.actions.tolist() for b in brs],
            "reach": K.reach_probs(*a, s, np.int64(-1)).tolist(),
            "cfr": cfr(cg, iterations=6).strategy.tolist(),
            "fp": fictitious_play(cg, iterations=6).strategy.tolist()}

out = {}
for name in sys.argv[1:]:
    cg = compile_game(make_game(name))
    s = uniform_strategy(cg)
    s[::3] = cg.legal[::3] * np.where(np.arange(cg.max_actions) == 0, 0.75, 0.25)
    s[::3] /= s[::3].sum(axis=1, keepdims=True)
    out[name] = values(cg, s)
# bounds checking is on: a kernel given a short profile raises instead of reading past it
cg = compile_game(make_game("kuhn"))
try:
    K.expected_payoffs(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
                       cg.terminal_index, cg.payoffs, np.full((2, 2), 0.5))
    out["oob"] = "not caught"
except IndexError:
    out["oob"] = "IndexError"
print(json.dumps(out))
"""


def test_kernels_stay_inside_their_arrays_with_numba_boundscheck(tmp_path):
    """NashConv, best responses, expected payoffs, reach probabilities and a few CFR+ and
    fictitious-play iterations on Kuhn, Leduc, the river game and 3-player Kuhn, compiled
    afresh with NUMBA_BOUNDSCHECK=1 in a subprocess: no index error, and the same values
    as the cached kernels here (the subprocess's own out-of-bounds call shows the checks
    are on)."""
    names = ["kuhn", "leduc", "river", "kuhn3"]
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "nb")}
    proc = subprocess.run([sys.executable, "-c", BOUNDS_SCRIPT, *names], cwd=tmp_path,
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout)
    assert got.pop("oob") == "IndexError"
    ns: dict = {}
    exec(BOUNDS_SCRIPT.split("out = {}")[0], ns)   # the same values() in this process
    for name in names:
        cg = cg_of(name)
        s = uniform_strategy(cg)
        s[::3] = cg.legal[::3] * np.where(np.arange(cg.max_actions) == 0, 0.75, 0.25)
        s[::3] /= s[::3].sum(axis=1, keepdims=True)
        want = json.loads(json.dumps(ns["values"](cg, s)))
        assert got[name] == want, name
