"""Numeric options of the dynamics and QRE commands (issue 33, area C1): `ode`, `lyapunov`,
`simulate`, `estimators`, `qre`, `qre-fit`.

Regression tests, one per defect: a value that passes the option's range check but would
blow up the work (a window of 10^9 hands, a rate of 1e300, an end time of 1e300, a pot of
1e-9 under the paper's normalisation, a precision of 1e300) is refused up front with one
line naming it and what is allowed, exit 2, and nothing written; "up front" is shown
structurally (the integrator, kernel or branch walk is replaced by one that fails the test).
Then hypothesis fuzzes every numeric option of these commands with hostile values (NaN,
infinities, 1e309, 5000-digit integers, huge and negative numbers, 0, words, and the huge
in-range values that only a memory or work budget refuses): 200 cases per kind of value
(positive number, probability, integer, list), through ``tests.hostile.run_bad``.
"""
from __future__ import annotations

import contextlib
import functools
import io
import json
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerdyn import dynamics
import pokerdyn.cli as cli
from pokerdyn.games import GameError, get_game
from hostile import allowed_text, float_or_none, in_band, in_list, outside, run_bad

GIB = 2**30


@pytest.fixture(autouse=True)
def fast_setup(monkeypatch):
    """The parser and the ODE models built once (each fuzz case then runs in milliseconds;
    the checks under test come after both)."""
    monkeypatch.setattr(cli, "build_parser", functools.lru_cache(None)(cli.build_parser))
    build = dynamics.ode_model

    @functools.lru_cache(None)
    def cached(name, values, k, normalisation, fixed):
        return build(get_game(name), dict(values), k=k, normalisation=normalisation,
                     fixed=fixed)

    def ode_model(game, values=None, k=1, normalisation="paper", fixed=None, **kw):
        if kw:
            return build(game, values, k=k, normalisation=normalisation, fixed=fixed, **kw)
        kk = tuple(k) if isinstance(k, (list, tuple)) else k
        return cached(game.name, tuple(sorted((values or {}).items())), kk, normalisation,
                      fixed)
    monkeypatch.setattr(dynamics, "ode_model", ode_model)


def _fail(*_a, **_k):
    raise AssertionError("the run started: it should have been refused up front")


# --- regression tests, one per defect ------------------------------------------------------


def test_simulate_huge_window_refused_at_once(tmp_path, monkeypatch):
    """Defect 1: `simulate skp --L 1000000000` tried to allocate 7.45 GiB.  A window is at
    most MAX_L = 10^8 hands, refused at parse time; within it the estimate (ring buffer and
    reciprocal table of the window) is checked against the available memory (here 1 GiB)
    before anything is allocated: the kernel is never called."""
    import pokerdyn.dynamics.play._play_kernel as kernel
    from pokerdyn.dynamics.play.repeated import MAX_L
    from pokerdyn.games import size

    assert MAX_L == 10**8
    monkeypatch.setattr(kernel, "play", _fail)
    for argv in (["simulate", "skp", "--L=1000000000"],
                 ["estimators", "skp", "--L=6,1000000000", "--discard=0"]):
        run_bad(argv, ("L=1000000000",), tmp_path)
    monkeypatch.setattr(size, "available_memory", lambda: 1 * GIB)
    run_bad(["simulate", "skp", "--L=100000000", "--rounds=1e10"], ("L=100000000",),
            tmp_path)
    run_bad(["estimators", "skp", "--L=6,100000000", "--rounds=1e10", "--discard=0"],
            ("L=100000000",), tmp_path)
    # --max-memory replaces the available memory as the limit
    monkeypatch.setattr(size, "available_memory", lambda: 1000 * GIB)
    run_bad(["simulate", "skp", "--L=100000000", "--rounds=1e9", "--max-memory=500M"],
            ("--max-memory",), tmp_path)


def test_memory_estimate_counts_the_window_up_to_the_run_length():
    """A window longer than the run never drops a hand, so it runs as one of the run's
    length: the default 10^7 rounds with L = 10^8 need a few hundred MiB, and give exactly
    the result of L = rounds."""
    from pokerdyn.dynamics.play.repeated import memory_estimate, simulate

    assert memory_estimate(L=10**8, rounds=10**7) < 400 * 2**20
    assert memory_estimate(L=10**8, rounds=10**10) > 1.5 * GIB
    # ring buffer: the power of two above L, int64; reciprocal table: L x weight 1
    assert memory_estimate(L=10**8, rounds=10**10, n_points=1) >= 8 * (2**27 + 10**8)
    a = simulate(L=10**8, rounds=5000, seed=3, n_points=10)
    b = simulate(L=5000, rounds=5000, seed=3, n_points=10)
    assert a.final == b.final and np.array_equal(a.frequencies, b.frequencies)
    assert a.options["L"] == [10**8] * 3


def test_ode_rate_ceiling(tmp_path):
    """Defect 2: `ode skp --pot 9 --k 1e300` overflowed in the integrator.  k is capped at
    K_MAX = 1e6, on the command line and in the Python API."""
    from pokerdyn.dynamics.budget import K_MAX

    for argv in (["ode", "skp", "--pot=9", "--k=1e300"],
                 ["ode", "skp", "--pot=9", "--k=1,1,1e7"],
                 ["lyapunov", "skp", "--pot=9", "--k=1e300"],
                 ["simulate", "skp", "--rounds=10", "--k=1e300"]):
        run_bad(argv, ("k=",), tmp_path)
    skp = get_game("skp")
    with pytest.raises(GameError, match=r"rates must be > 0 and <= 1e\+06"):
        dynamics.ode_model(skp, {"P": 9}, k=1e300)
    from pokerdyn.dynamics.play.repeated import simulate
    with pytest.raises(GameError, match=r"k=10000000.0 is outside the allowed range "
                                        r"\[0, 1e\+06\]"):
        simulate(k=K_MAX * 10, rounds=10)


@pytest.mark.parametrize("argv", [
    ["ode", "skp", "--pot=9", "--t-end=1e300"],
    ["ode", "skp", "--pot=1e-9", "--t-end=10"],  # paper normalisation: rates ~ 24/P
    ["ode", "skp", "--pot=9", "--k=1e5", "--t-end=100"],
    ["ode", "skp", "--pot=9", "--k=1e6", "--analyze", "--plot=p.png"],  # the portrait's runs
])
def test_ode_run_beyond_the_step_budget_refused_up_front(argv, tmp_path, monkeypatch):
    """Defect 3: `--t-end 1e300` ran with no end and `--pot 1e-9` for minutes.  The work's
    lower bound (t-end x the fastest rate of the model, the largest |eigenvalue| of its
    Jacobian) is checked against the budget before solve_ivp is called."""
    import pokerdyn.dynamics.ode.solve as solve
    from pokerdyn.dynamics.ode import equilibria

    monkeypatch.setattr(solve, "solve_ivp", _fail)
    # the package's name first: it is looked up lazily in the module patched next
    monkeypatch.setattr(dynamics, "find_equilibria", _fail)
    monkeypatch.setattr(equilibria, "find_equilibria", _fail, raising=False)
    run_bad(argv, ("t-end",), tmp_path)


def test_ode_step_budget_stops_a_run_that_spends_it():
    """The integration counts its right-hand-side evaluations and stops with one line
    when the budget (``max_nfev``) is spent; within it the run is unchanged."""
    from pokerdyn.dynamics import simulate_ode

    model = dynamics.ode_model(get_game("skp"), {"P": 9})
    full = simulate_ode(model, [0.5] * 3, 50.0)
    assert full.meta["nfev"] < 2000
    with pytest.raises(GameError, match=r"stopped at t = .* of t_end = 50: it used the "
                                        r"allowed 100 right-hand-side evaluations"):
        simulate_ode(model, [0.5] * 3, 50.0, max_nfev=100)
    again = simulate_ode(model, [0.5] * 3, 50.0, max_nfev=full.meta["nfev"])
    assert np.array_equal(again.states, full.states)
    with pytest.raises(GameError, match="t_end=1e"):
        simulate_ode(model, [0.5] * 3, 1e300)


def test_lyapunov_budget(tmp_path, monkeypatch):
    """The Lyapunov runs: `--t-end 1e7` (allowed by the range check) took 9 minutes and
    then failed; it is refused before the kernel runs.  A tiny `--tau` no longer sizes an
    array by t-end / tau (at most one record per step), and the kernel stops with one line
    when its step budget is spent."""
    import pokerdyn.dynamics.chaos.lyapunov as ly
    from pokerdyn.dynamics.chaos.lyapunov import run_chaos

    model = dynamics.ode_model(get_game("skp"), {"P": 9}, fixed="dominance")
    with monkeypatch.context() as m:
        m.setattr(ly, "integrate_kernel", _fail)
        run_bad(["lyapunov", "skp", "--pot=9", "--t-end=1e7"], ("t-end",), tmp_path)
        run_bad(["lyapunov", "skp", "--pot=9", "--starts=1000"], ("t-end",), tmp_path)
        with pytest.raises(GameError, match="needs at least"):
            run_chaos(model, [0.3] * 3, 1e7)
        with pytest.raises(GameError, match="of memory"):  # 10^7 samples per unit time
            run_chaos(model, [0.3] * 3, 100.0, dt_out=1e-9)
    # within the up-front bound (4 x 20 x 0.5 = 40 <= 50 steps), beyond the real need (~76)
    with pytest.raises(GameError, match=r"stopped at t = .* of t_end = 20: it used the "
                                        r"allowed 50 integration steps"):
        run_chaos(model, [0.3] * 3, 20.0, tau=1e-300, max_steps=50)
    r = run_chaos(model, [0.3] * 3, 20.0, tau=1e-300, max_steps=1000)
    assert r.lyap_times.size == r.meta["steps"]  # one renormalisation per step


def test_qre_precision_ceiling(tmp_path, monkeypatch):
    """Defect 4: `qre --lambda 1e300` passed the check and failed after 45 s (the branch's
    step budget).  Precisions are capped at LAMBDA_MAX = 1e7, before the walk starts."""
    import pokerdyn.solvers.qre.branch as branch
    from pokerdyn.solvers.qre import check_lambda
    from pokerdyn.solvers.qre.core import LAMBDA_MAX

    assert check_lambda(LAMBDA_MAX) == 1e7
    with pytest.raises(GameError, match=r"allowed range \(0, 1e\+07\]"):
        check_lambda(LAMBDA_MAX * (1 + 1e-15))
    with pytest.raises(GameError, match="lambda is a number beyond the float range"):
        check_lambda(10**5000)  # (whose repr alone raises ValueError)
    monkeypatch.setattr(branch, "trace_branch", _fail)
    run_bad(["qre", "kuhn", "--lambda=1e300"], ("lambda=1e300",), tmp_path)
    run_bad(["qre", "kuhn", "--lambda=1,10,100000000"], ("lambda=100000000",), tmp_path)
    run_bad(["qre", "kuhn", "--max-lambda=1e300"], ("max-lambda=1e300",), tmp_path)
    run_bad(["qre", "skp", "--pots=1:1e300"], ("1e300",), tmp_path)


def test_qre_branch_api_refuses_an_unreachable_end():
    from pokerdyn.games import compile_game
    from pokerdyn.solvers.qre import trace_branch

    with pytest.raises(GameError, match="max_lambda=1e"):
        trace_branch(compile_game(get_game("kuhn")), max_lambda=1e300)


@pytest.mark.parametrize("plot, counts", [("f.png", "/dev/null/x.json"),
                                          ("/dev/null/f.png", "x.json"),
                                          ("f.xyz", "x.json")])
def test_simulate_checks_every_output_path_before_any_work(plot, counts, tmp_path,
                                                           monkeypatch):
    """Defect 5: `--plot f.png --counts-out /missing/x.json` wrote f.png, then failed.
    Both paths are checked before the game is even loaded."""
    import pokerdyn.api.dynamics as api

    monkeypatch.setattr(api, "_play_setup", _fail)
    run_bad(["simulate", "skp", "--rounds=100", f"--plot={plot}", f"--counts-out={counts}"],
            (plot, counts), tmp_path)


def test_simulate_writes_its_outputs_atomically(tmp_path, monkeypatch):
    """The counts file goes through games.io.files.write_atomically (temporary, then
    rename; the plot already did) and both outputs are complete at the end."""
    import pokerdyn.games.io.files as files

    written = []
    real = files.write_atomically

    def recording(path, write, **kw):
        written.append(str(path))
        return real(path, write, **kw)

    # every module that imported the name (earlier tests in this process may have imported
    # the plotting modules, which then hold the real function, before this patch)
    for mod in list(sys.modules.values()):
        if getattr(mod, "write_atomically", None) is real:
            monkeypatch.setattr(mod, "write_atomically", recording)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tmp_path), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        assert cli.main(["simulate", "skp", "--rounds=2000", "--plot=p.png",
                         "--counts-out=sub/c.json"]) == 0, err.getvalue()
    assert sorted(written) == ["p.png", "sub/c.json"]
    counts = json.loads((tmp_path / "sub" / "c.json").read_text())
    assert sum(sum(v.values()) if isinstance(v, dict) else sum(v) for v in counts.values()) > 0
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["c.json", "p.png", "sub"]


# --- hypothesis: hostile values per kind ----------------------------------------------------


POS = dict(low=0.0, low_open=True)
PROB = dict(low=0.0, high=1.0)
OPEN_PROB = dict(low=0.0, high=1.0, low_open=True, high_open=True)
ODE = ["ode", "skp", "--pot=9"]
LYA = ["lyapunov", "skp", "--pot=9", "--starts=1"]
SIM = ["simulate", "skp"]
EST = ["estimators", "skp", "--at=0.3,0.6,0.2"]  # (S3 by default: exact, slow to resolve)
# runs a hostile value would make enormous, held back by a small memory limit instead
BIG_RUN = ["--rounds=1e12", "--max-memory=64M"]

# kind -> [(argv with {} for the value, values, names of which the message holds one)]
KINDS: dict[str, list] = {
    "positive number": [
        # t-end: the work's lower bound 2 * t-end * 0.5 (skp's fastest rate) <= 10^6
        (ODE + ["--t-end={}"], st.one_of(outside(**POS), in_band(2e6, 1e300)), "t-end"),
        (LYA + ["--t-end={}"], st.one_of(outside(**POS, high=1e7), in_band(3e6, 1e7)),
         "t-end"),
        (LYA + ["--t-end=100", "--tau={}"], outside(**POS, high=100.0), "tau"),
        (LYA + ["--t-end=100", "--t-skip={}"], outside(0.0, 100.0, high_open=True), "t-skip"),
        (LYA + ["--t-end=100", "--section=c_K={}"], outside(**OPEN_PROB), "c_K"),
        (["qre", "kuhn", "--lambda={}"], outside(**POS, high=1e7), "lambda"),
        (["qre", "kuhn", "--max-lambda={}"], outside(**POS, high=1e7), "max-lambda"),
        (["qre", "kuhn", "--tol={}"], outside(**POS), "tol"),
        (["qre", "skp", "--pots={}:3"], outside(0.0, 1e100), "pot range"),
        (["qre", "skp", "--pots=1:{}"], outside(**POS, high=1e100), "pot range"),
    ],
    "probability": [
        (["qre-fit", "kuhn", "--counts=c.json", "--level={}"], outside(**OPEN_PROB), "level"),
        (ODE + ["--init=0.5,0.5,{}"], outside(**PROB), "init"),
        (LYA + ["--init=0.5,{},0.5"], outside(**OPEN_PROB), "init"),
        (SIM + ["--rounds=100", "--init={},0.5,0.5"], outside(**PROB), "initial frequency"),
        (["estimators", "skp", "--rounds=100", "--discard=10", "--at=0.5,0.5,{}"],
         outside(**PROB), "at"),
    ],
    "integer": [
        # memory: a window or sample count of this size over 10^12 rounds needs > 64 MiB
        (SIM + BIG_RUN + ["--L={}"],
         st.one_of(outside(1, 10**8, integer=True), in_band(2 * 10**7, 10**8, True)), "L"),
        (SIM + ["--L=100000000", "--max-memory=64M", "--rounds={}"],
         st.one_of(outside(1, 10**13, integer=True), in_band(10**7, 10**13, True)), "rounds"),
        (SIM + BIG_RUN + ["--points={}"],
         st.one_of(outside(2, 10**7, integer=True), in_band(2 * 10**5, 10**7, True)),
         "points"),
        (SIM + ["--rounds=100", "--seed={}"], outside(0, 2**32 - 1, integer=True), "seed"),
        (SIM + ["--rounds=100", "--deals={}"], outside(12, 12, integer=True).filter(
            lambda t: float_or_none(t) != 24), "deals"),
        (EST + ["--L=100000000", "--discard=0", "--max-memory=64M", "--rounds={}"],
         st.one_of(outside(1, 10**13, integer=True), in_band(10**7, 10**13, True)), "rounds"),
        (EST + ["--rounds=100", "--discard={}"], outside(0, 99, integer=True), "discard"),
        # starts x t-end: 4 steps per unit of t-end x rate 0.499 x 5000 x starts <= 5 x 10^6
        # (starts <= 501 pass)
        (["lyapunov", "skp", "--pot=9", "--starts={}"],
         st.one_of(outside(1, 1000, integer=True), in_band(600, 1000, True)), "starts"),
        (LYA + ["--cfr-starts={}"], outside(0, 1000, integer=True), "cfr-starts"),
        (["qre", "skp", "--pots=1:2", "--grid={}"], outside(2, 10000, integer=True), "grid"),
    ],
    "list": [
        # in range, one rate for all: the work (t-end 100 x rate ~ k / 2) over the budget
        (ODE + ["--t-end=100", "--k={}"],
         st.one_of(in_list(outside(**POS, high=1e6), "1"),
                   st.sampled_from(["1e5", "2e4", "1e6", "5e5,5e5,5e5"])), "k"),
        (LYA + ["--t-end=100", "--k={}"],
         st.one_of(in_list(outside(**POS, high=1e6), "1"),
                   st.sampled_from(["1e5", "1e6", "2e5,2e5,2e5"])), "k"),
        (SIM + ["--rounds=100", "--k={}"], in_list(outside(0.0, 1e6), "0.1"), "k"),
        (SIM + BIG_RUN + ["--L={}"],
         in_list(st.one_of(outside(1, 10**8, integer=True),
                           in_band(2 * 10**7, 10**8, True)), "6"), "L"),
        (EST + BIG_RUN + ["--discard=0", "--L={}"],
         in_list(st.one_of(outside(1, 10**8, integer=True),
                           in_band(2 * 10**7, 10**8, True)), "6"), "L"),
        (["qre", "kuhn", "--lambda={}"], in_list(outside(**POS, high=1e7), "1"), "lambda"),
    ],
}

FUZZ = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture,
                                       HealthCheck.filter_too_much])


@pytest.mark.parametrize("kind", list(KINDS))
@FUZZ
@given(data=st.data())
def test_hostile_values_one_line_exit_2(kind, data, tmp_path):
    """200 hostile cases per kind over every numeric option of these commands: one stderr
    line naming the value or the option and what is allowed, exit 2, nothing written."""
    cases = KINDS[kind]
    i = data.draw(st.integers(0, len(cases) - 1), label="case")
    argv, values, option = cases[i]
    value = data.draw(values, label=f"{option} value")
    args = [a.replace("{}", value) for a in argv]
    shown = value.strip()[:20]
    run_bad(args, (shown, option), tmp_path)


def test_parse_level_strategies_are_not_vacuous():
    """The guard the strategies filter on mirrors parse_float: it accepts in-range numbers
    and refuses what the commands refuse."""
    assert allowed_text("0.5", **PROB, high_open=False, low_open=False, integer=False)
    assert allowed_text("1e7", 0.0, 1e7, True, False, False)
    assert not allowed_text("1e7", 0.0, 1e7, True, True, False)
    for text in ("nan", "inf", "1e309", "9" * 5000, "", "0x10", "-0.5", "1.5"):
        assert not allowed_text(text, **PROB, low_open=False, high_open=False, integer=False)
    assert not allowed_text("2.5", 1, 10, False, False, True)
