"""Collusion payoffs the hold'em paper's way (issue 34, Table 7): every game of the dealer
rotation solved by the paper's fictitious play (Mercer, hold'em paper sec. 2.2, Algorithm 1;
its Java ``Strategies.nes``) stopped at its epsilon, on 3P-SMH (the paper's small 3-player
game; 43,271 nodes) so that the test stays fast."""
import functools
import json

import numpy as np
import pytest

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.cli import main
from pokerdyn.solvers.methods.collusion import (ROTATION, Solved, check_epsilon, collusion_payoffs,
                               iterative_solver, transplant)
from pokerdyn.solvers.evaluation import expected_payoffs, regrets
from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play
from hostile import run_bad

SPEC = "mercer-smh(players=3)"
EPS = 0.02


@functools.lru_cache(maxsize=None)  # each game built once (games are immutable)
def make(collusion, colluders):
    return make_game(SPEC) if collusion is None else \
        make_game(SPEC, collusion=collusion, colluders=tuple(colluders))


@pytest.fixture(scope="module")
def strong():
    return collusion_payoffs(make, "strong", iterative_solver("paper-fp", epsilon=EPS))


@pytest.fixture(scope="module")
def direct():
    """Each game of the rotation solved by paper_fictitious_play itself, checking the
    regret before every update (the Java's rule, check_every=1), and the three cases
    evaluated by hand: the collusion games' payoffs for public, C's strategy moved across
    for private and suspicious (matched by information-set label)."""
    g0 = compile_game(make(None, None))
    r0 = paper_fictitious_play(g0, EPS, max_iterations=10_000, check_every=1)
    out = {"none": r0, "rows": []}
    for seats in ROTATION:
        pair = tuple(sorted((seats["A"], seats["B"])))
        gc = compile_game(make("strong", pair))
        rc = paper_fictitious_play(gc, EPS, max_iterations=10_000, check_every=1)
        c = seats["C"] - 1
        role = [seats[r] - 1 for r in ("C", "A", "B")]
        out["rows"].append({
            "pair": pair, "run": rc,
            "public": expected_payoffs(gc, rc.strategy)[role],
            "private": expected_payoffs(gc, transplant(gc, rc.strategy, g0, r0.strategy,
                                                       c))[role],
            "suspicious": expected_payoffs(g0, transplant(g0, r0.strategy, gc, rc.strategy,
                                                          c))[role]})
    return out


def test_paper_fp_payoffs_equal_the_paper_fp_profiles_evaluated_directly(strong, direct):
    for case in ("public", "private", "suspicious"):
        expect = np.mean([row[case] for row in direct["rows"]], axis=0)
        np.testing.assert_allclose(getattr(strong, case), expect, rtol=0, atol=1e-12)
    # every solve stopped where the Java stops (regret checked before each update)
    runs = {"none": direct["none"]} | {f"{r['pair'][0]},{r['pair'][1]}": r["run"]
                                       for r in direct["rows"]}
    assert set(strong.nash_conv) == set(runs) == {"none", "1,2", "1,3", "2,3"}
    for key, run in runs.items():
        assert strong.iterations[key] == run.iterations
        assert strong.nash_conv[key] == pytest.approx(run.nash_conv, abs=1e-12)
        assert run.max_regret < EPS and strong.converged[key] is True


def test_paper_fp_payoffs_are_zero_sum_and_shared_by_the_colluders(strong):
    # the games are zero-sum (every pot is split among the players), and strong collusion
    # shares the colluders' winnings (Mercer sec. 5: win sharing plus shared hole cards)
    for case in ("public", "private", "suspicious"):
        assert getattr(strong, case).sum() == pytest.approx(0, abs=1e-12)
        for r in strong.arrangements:
            assert getattr(r, case).sum() == pytest.approx(0, abs=1e-12)
    for r in strong.arrangements:
        assert r.public[1] == pytest.approx(r.public[2], abs=1e-12)
        assert r.private[1] == pytest.approx(r.private[2], abs=1e-12)
    # the colluders gain at C's expense (sec. 5: C "loses a substantial share of an ante")
    assert strong.public[0] < -0.05 and strong.private[0] < -0.05


def test_nash_conv_of_every_solve_is_its_regret_sum_and_bounded_by_epsilon(strong):
    # NashConv = sum of the three regrets, so <= 3 x the largest; the paper's FP stops once
    # the largest regret of the profile before the last update is below epsilon, so that
    # profile's NashConv is below 3 x epsilon (the returned one is one averaging step on)
    for key in strong.nash_conv:
        nc, mr = strong.nash_conv[key], strong.max_regret[key]
        assert mr <= nc <= 3 * mr + 1e-12
    g0 = compile_game(make(None, None))
    t = strong.iterations["none"]
    before = paper_fictitious_play(g0, EPS, max_iterations=t - 1, check_every=1).strategy
    assert regrets(g0, before).max() < EPS and regrets(g0, before).sum() < 3 * EPS
    after = paper_fictitious_play(g0, EPS, check_every=1)
    assert after.iterations == t
    assert strong.nash_conv["none"] == pytest.approx(regrets(g0, after.strategy).sum(),
                                                     abs=1e-12)


def test_a_larger_epsilon_stops_earlier():
    loose = iterative_solver("paper-fp", epsilon=0.2)(compile_game(make(None, None)))
    tight = iterative_solver("paper-fp", epsilon=EPS)(compile_game(make(None, None)))
    assert isinstance(loose, Solved) and loose.iterations < tight.iterations
    assert loose.converged and tight.converged


@pytest.mark.parametrize("eps, fragment", [
    (0, "epsilon=0 is outside the allowed range (0, inf)"),
    (-0.1, "epsilon=-0.1 is outside"), (float("nan"), "epsilon=nan is outside"),
    (float("inf"), "epsilon=inf is outside"), ("x", "epsilon='x' is outside"),
    (True, "epsilon=True is outside")])
def test_bad_epsilon_is_one_line(eps, fragment):
    with pytest.raises(GameError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        iterative_solver("paper-fp", epsilon=eps)


def test_epsilon_is_below_the_payoff_range():
    # 3P-SMH (ante 1, one bet of 4): a player wins at most 10 (the two others' 5 each) and
    # loses at most 5, so no regret reaches 15; an epsilon of 15 stops at the uniform start
    g = make(None, None)
    assert check_epsilon(14.9, g) == 14.9
    with pytest.raises(GameError, match=r"epsilon=15 is outside the allowed range \(0, 15\)"):
        check_epsilon(15, g)
    with pytest.raises(GameError, match="allowed with method 'paper-fp' only"):
        iterative_solver("cfr+", epsilon=0.1)


def _cli_json(capsys, *argv):
    assert main(["collusion", SPEC, "--kind", "weak", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_paper_fp_has_the_keys_of_cfr_plus(capsys):
    fp = _cli_json(capsys, "--method", "paper-fp", "--epsilon", str(EPS))
    cfr = _cli_json(capsys, "--method", "cfr+", "--tol", "0.05")
    assert fp.keys() == cfr.keys()
    assert fp["hands"][0].keys() == cfr["hands"][0].keys()
    assert fp["method"] == "paper-fp" and fp["epsilon"] == EPS and fp["tol"] is None
    assert cfr["epsilon"] is None and cfr["tol"] == 0.05
    assert set(fp["nash_conv"]) == set(fp["iterations"]) == set(cfr["nash_conv"])
    assert fp["converged"] is True and cfr["converged"] is True
    # the same numbers as the library
    res = collusion_payoffs(make, "weak", iterative_solver("paper-fp", epsilon=EPS))
    for case in ("public", "private", "suspicious"):
        assert fp[case] == getattr(res, case).tolist()
    assert fp["nash_conv"] == res.nash_conv and fp["iterations"] == res.iterations


@pytest.mark.parametrize("extra, names", [
    (["--method", "paper-fp", "--epsilon", "0"], ("epsilon=0",)),
    (["--method", "paper-fp", "--epsilon", "nan"], ("epsilon=nan",)),
    (["--method", "paper-fp", "--epsilon", "-1"], ("epsilon=-1",)),
    (["--method", "paper-fp", "--epsilon", "abc"], ("epsilon='abc'",)),
    (["--method", "paper-fp", "--epsilon", "15"], ("epsilon=15",)),
    (["--method", "paper-fp", "--tol", "0.1"], ("--tol=0.1",)),
    (["--method", "cfr+", "--epsilon", "0.1"], ("--epsilon=0.1",)),
])
def test_cli_bad_epsilon_is_refused(tmp_path, extra, names):
    run_bad(["collusion", SPEC, "--kind", "strong", *extra], names, tmp_path)


# --- the Table 7 figure's cached, resumable solves (figures/mercer/table7.py) -------------

def test_chunked_and_resumed_paper_fp_is_one_run(tmp_path, monkeypatch):
    """A long solve is run in chunks, each end checkpointed; an interrupted run resumes from
    its checkpoint.  Both give the bits of one uninterrupted run (3P-SMH, epsilon 0.02)."""
    from pokerdyn.figures.mercer import table7
    cg = compile_game(make(None, None))
    one = paper_fictitious_play(cg, EPS, max_iterations=table7.MAX_ITERATIONS, check_every=25)
    monkeypatch.setattr(table7, "CHUNK", 30)           # rounded to the check window, 25
    s, meta = table7._resumable_fp(cg, EPS, tmp_path, "g")
    assert np.array_equal(s, one.strategy) and meta["iterations"] == one.iterations
    assert meta["stop_regret"] == one.max_regret < EPS
    # resume from a checkpoint written mid-run (as an interrupted run leaves it)
    t = 51                                             # a chunk's end: 2 x 25 + 1
    mid = paper_fictitious_play(cg, EPS, max_iterations=t, check_every=25)
    np.savez(tmp_path / "h.partial.npz", t=t, sigma=mid.strategy)
    s2, meta2 = table7._resumable_fp(cg, EPS, tmp_path, "h")
    assert np.array_equal(s2, one.strategy) and meta2["iterations"] == one.iterations


def test_cached_solver_reuses_its_profile_and_reports_its_run(tmp_path):
    from pokerdyn.figures.mercer import table7
    g = make(None, None)
    solve = table7.fp_solver(EPS, tmp_path, {g.name: "smh3"})
    first = solve(compile_game(g))
    cached = tmp_path / "mercer_cache" / "smh3.npy"
    assert cached.exists() and (tmp_path / "mercer_cache" / "smh3.meta.json").exists()
    np.save(cached, np.load(cached))                   # still read back, not recomputed
    again = solve(compile_game(g))
    direct = iterative_solver("paper-fp", epsilon=EPS)(compile_game(g))
    for r in (first, again):
        assert np.array_equal(r.strategy, direct.strategy)
        assert r.iterations == direct.iterations and r.converged
        assert r.nash_conv == pytest.approx(direct.nash_conv, abs=1e-12)


def test_table7_shows_every_kind_three_ways(tmp_path):
    """The committed results render: CFR+ and the paper's FP per kind and case, with the
    NashConv of every solve; the numbers are those of the committed JSON files."""
    from pokerdyn.figures.mercer import table7
    from pokerdyn.figures.mercer.render import DATA
    res = table7.main(tmp_path)
    text = res.files[0].read_text()
    for kind in table7.KINDS:
        for eps in table7.EPSILONS:
            p = DATA / table7.result_name(kind, eps)
            if not p.exists():
                assert f"| {kind} | paper's FP, epsilon {eps:g} | n/a |" in text
                continue
            rec = json.loads(p.read_text())
            assert rec["method"] == "paper-fp" and rec["epsilon"] == eps
            c, a, b = rec["public"]
            assert res.numbers[f"{kind} public (C, A, B) FP {eps:g}"] == \
                f"({c:+.4f}, {a:+.4f}, {b:+.4f})"
            assert f"{rec['nash_conv']['1,2']:.4f}" in text
    assert "CFR+ (NashConv <= 0.002)" in text and "What the three ways" in text
