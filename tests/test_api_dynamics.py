"""The dynamics' front door (issue 35): ``pd.ode``, ``pd.lyapunov``, ``pd.simulate``,
``pd.estimators`` and ``pd.sweep`` return what the commands print (``--json`` is
``to_dict()``), ``pokerdyn ode --plot F --phase X,Y[,Z]`` draws a phase portrait with the
cycle found (bad names: one line, exit 2, nothing written), the agent-based table
experiment can be swept and resumed, the ODE and learning models share one protocol, and
every result's repr is short."""
from __future__ import annotations

import contextlib
import inspect
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd_
import pytest

import pokerdyn as pd
from pokerdyn.cli import main
from pokerdyn.games import GameError

from hostile import run_bad

PNG = b"\x89PNG\r\n\x1a\n"
# wall-clock measurements: the only keys that differ between two runs of the same seed
TIMING_KEYS = ("seconds", "rounds_per_second")


def cli_json(argv: list[str]) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return json.loads(out.getvalue())


def same_json(cli: dict, api: dict, drop: tuple[str, ...] = ()) -> None:
    """The two as JSON text (NaN, which JSON allows as pokerdyn writes it, compares equal
    as text), without the wall-clock keys ``drop``."""
    cli = {k: v for k, v in cli.items() if k not in drop}
    api = json.loads(json.dumps({k: v for k, v in api.items() if k not in drop}))
    assert json.dumps(cli, sort_keys=True) == json.dumps(api, sort_keys=True)


# --- --json == to_dict() -----------------------------------------------------------------
def test_ode_json_is_to_dict():
    argv = ["ode", "skp", "--pot", "9", "--t-end", "20", "--k", "1,2,1", "--init",
            "0.3,0.6,0.5", "--json"]
    res = pd.ode("skp", pot=9, t_end=20, k=[1, 2, 1], init=[0.3, 0.6, 0.5])
    same_json(cli_json(argv), res.to_dict())
    # rates per player: Player 2 owns d_Q (skp: P1 c_K, P2 d_Q, P3 b_J)
    assert res.to_dict()["model"] == "skp: P = 9, k_b_J = 1, k_c_K = 1, k_d_Q = 2"
    # the state moves on the face-invariant cube and the payoffs stay zero-sum
    assert all(0 < v < 1 for v in res.final.values())
    assert sum(res.payoff_integrals) == pytest.approx(0.0, abs=1e-9)
    assert res.to_text().splitlines()[0] == res.model


def test_ode_analysis_json_is_to_dict():
    res = pd.ode("skp", pot=9, analyze=True)
    same_json(cli_json(["ode", "skp", "--pot", "9", "--analyze", "--json"]), res.to_dict())
    assert res.mode == "analysis" and res.equilibria
    # every equilibrium is a rest point of the field (Billingham (21)-(23))
    model = res.ode_model
    for e in res.equilibria:
        assert np.allclose(model.f(0.0, e.x), 0.0, atol=1e-9)


def test_lyapunov_json_is_to_dict():
    argv = ["lyapunov", "skp", "--pot", "9", "--starts", "2", "--seed", "3", "--t-end", "60",
            "--json"]
    res = pd.lyapunov("skp", pot=9, starts=2, seed=3, t_end=60)
    same_json(cli_json(argv), res.to_dict())
    assert len(res.runs) == 2 and res.to_frame().shape[0] == 2
    # the summary is of the runs' exponents
    ex = [r["lyapunov"] for r in res.runs]
    assert res.lyapunov["mean"] == pytest.approx(np.mean(ex))


def test_simulate_json_is_to_dict_and_replays():
    argv = ["simulate", "skp", "--rounds", "20000", "--seed", "5", "--points", "20",
            "--k", "0.01", "--json"]
    res = pd.simulate("skp", rounds=20000, seed=5, points=20, k=0.01)
    same_json(cli_json(argv), res.to_dict(), drop=TIMING_KEYS)
    again = pd.simulate("skp", rounds=20000, seed=5, points=20, k=0.01)
    same_json(res.to_dict(), again.to_dict(), drop=TIMING_KEYS)
    frame = res.to_frame()
    assert list(frame.columns) == ["round", "b_J", "c_K", "d_Q", "E1", "E2", "E3"]
    assert len(frame) == 20 and frame["round"].iloc[-1] == 20000
    # ex-showdown payoffs of a zero-sum game sum to zero
    assert sum(res.mean_payoffs) == pytest.approx(0.0, abs=1e-12)


def test_estimators_json_is_to_dict():
    argv = ["estimators", "skp", "--L", "6,24", "--rounds", "30000", "--discard", "1000",
            "--seed", "2", "--json"]
    res = pd.estimators("skp", L=[6, 24], rounds=30000, discard=1000, seed=2)
    same_json(cli_json(argv), res.to_dict(), drop=TIMING_KEYS)
    frame = res.to_frame()
    assert len(frame) == 2 * len(res.names)
    # S3 (Billingham (14)) at P = 9: b_J = 2/9, c_K = 2/11, d_Q = 4/15
    assert res.at == pytest.approx({"b_J": 2 / 9, "c_K": 2 / 11, "d_Q": 4 / 15})


def test_sweep_json_is_to_dict(tmp_path):
    spec = tmp_path / "toy.toml"
    spec.write_text('[sweep]\nexperiment = "toy"\nbase_seed = 7\n[grid]\nmu = [0, 1, 2]\n')
    cli = cli_json(["sweep", str(spec), "--out", str(tmp_path / "a"), "--workers", "1",
                    "--json"])
    res = pd.sweep(spec, out=tmp_path / "b", workers=1)
    same_json({**cli, "output": None}, {**res.to_dict(), "output": None}, drop=TIMING_KEYS)
    assert (res.cells, res.computed, res.skipped) == (3, 3, 0)
    # the same cells, the same numbers (seeds come from the file, not the run)
    a = pd.sweep(spec, out=tmp_path / "a", workers=1)
    assert (a.skipped, a.computed) == (3, 0)
    cols = ["mu", "mean", "first", "last"]
    pd_.testing.assert_frame_equal(a.to_frame()[cols].sort_values("mu").reset_index(drop=True),
                                   res.to_frame()[cols].sort_values("mu").reset_index(drop=True))


# --- the phase portrait ---------------------------------------------------------------------
@pytest.mark.parametrize("phase", ["b_J,d_Q", "b_J,c_K,d_Q"])
def test_ode_phase_portrait_is_written(tmp_path, phase):
    out = tmp_path / "f.png"
    data = cli_json(["ode", "skp", "--pot", "9", "--plot", str(out), "--phase", phase,
                     "--json"])
    assert out.read_bytes()[:8] == PNG
    assert data["phase"] == phase.split(",") and data["plot"] == str(out)
    c = data["cycle"]
    # skp at P = 9 from the centre: the orbit turns with a period of about 33 (returns to
    # the section b_J = its mean, found from the run's end)
    assert c["section"][0] == "b_J" and 30 < c["period"] < 36
    assert c["start"] > 100 and len(c["returns"]) == 3


def test_ode_phase_result_draws_from_dense_output():
    res = pd.ode("skp", pot=9, phase="b_J,d_Q")
    ax = res.plot()
    run = ax.get_lines()[0]
    # the picture's run has the dense solution's samples, many more than the integrator's
    # steps (about 70 to t = 100)
    assert len(run.get_xdata()) == 20_001
    assert len(res.trajectory.meta["sol"].ts) < 200
    # the run's path ends at the trajectory's final state
    assert run.get_xdata()[-1] == pytest.approx(res.final["b_J"], abs=1e-9)
    assert run.get_ydata()[-1] == pytest.approx(res.final["d_Q"], abs=1e-9)


@pytest.mark.parametrize("phase, name", [("b_J,x_Q", "x_Q"), ("b_J", "b_J"),
                                         ("b_J,b_J", "b_J"), ("b_J,c_K,d_Q,b_J", "b_J")])
def test_bad_phase_is_one_line_before_any_work(tmp_path, phase, name):
    run_bad(["ode", "skp", "--pot", "9", "--plot", "f.png", "--phase", phase],
            (name,), tmp_path)


def test_phase_fixed_by_dominance_is_named(tmp_path):
    # kuhn3-third at P = 2: iterated dominance fixes every parameter but o_K
    with pytest.raises(GameError, match=r"^phase='o_K,b_J': 'b_J' is held fixed "
                                        r"\(reduce=dominance\); allowed: o_K$"):
        pd.ode("kuhn3-third", pot=2, reduce="dominance", phase="o_K,b_J")


def test_bad_plot_path_refused_before_the_model(tmp_path, monkeypatch):
    import pokerdyn.dynamics as dyn

    monkeypatch.setattr(dyn, "ode_model", lambda *a, **k: pytest.fail("the model was built"))
    run_bad(["ode", "skp", "--pot", "9", "--plot", "f.xyz", "--phase", "b_J,d_Q"],
            ("f.xyz",), tmp_path)


# --- the agent-based table sweep ----------------------------------------------------------
TABLE = """
[sweep]
experiment = "table"
base_seed = 11
[fixed]
rounds = 3000
n_points = 5
[grid]
seating = ["fixed", "cyclic"]
players = ["gradient", ["fixed", "gradient", "fictitious"]]
"""

ALLIANCE = """
[sweep]
experiment = "table"
[fixed]
game = "kuhn3-third"
pot = 5
rounds = 3000
seating = "cyclic"
[grid]
alliance = ["neutral", "allied"]
"""


def _results(path) -> pd_.DataFrame:
    from pokerdyn.dynamics.sweep.store import TIMING_COLUMNS, load_results

    df = load_results(path)
    df = df.drop(columns=[c for c in TIMING_COLUMNS if c in df.columns])
    return df.sort_values("cell_index").reset_index(drop=True)


def test_table_sweep_runs_and_resumes(tmp_path, monkeypatch):
    spec = tmp_path / "table.toml"
    spec.write_text(TABLE)
    full = pd.sweep(spec, out=tmp_path / "full", workers=1)
    assert (full.cells, full.computed) == (4, 4)
    ref = _results(tmp_path / "full")
    # every agent's ex-showdown payoff is reported; skp is zero-sum per hand
    pay = ref[[f"mean_payoff_{a}" for a in (1, 2, 3)]].sum(axis=1)
    assert np.allclose(pay, 0.0, atol=1e-12)
    assert ref["players"].nunique() == 2 and set(ref["seating"]) == {"fixed", "cyclic"}
    # cyclic seating: every learner has frequencies in each seat
    cyc = ref[(ref.seating == "cyclic") & (ref.players == '"gradient"')].iloc[0]
    assert {f"final_1_seat{s}_{n}" for s, n in ((1, "c_K"), (2, "d_Q"), (3, "b_J"))} \
        <= {c for c in ref.columns if pd_.notna(cyc[c])}

    # interrupted after two cells: the finished ones are kept, the rest resumed
    import pokerdyn.dynamics.sweep.runner as runner

    real, calls = runner.run_timed, []

    def interrupted(*a):
        calls.append(a)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a)

    monkeypatch.setattr(runner, "run_timed", interrupted)
    with pytest.raises(KeyboardInterrupt):
        pd.sweep(spec, out=tmp_path / "part", workers=1)
    monkeypatch.setattr(runner, "run_timed", real)
    assert len(list((tmp_path / "part").glob("cell-*.parquet"))) == 2
    resumed = pd.sweep(spec, out=tmp_path / "part", workers=1)
    assert (resumed.skipped, resumed.computed) == (2, 2)
    pd_.testing.assert_frame_equal(_results(tmp_path / "part"), ref)

    # a deleted cell file is computed again, to the same numbers
    victim = sorted((tmp_path / "part").glob("cell-*.parquet"))[1]
    victim.unlink()
    again = pd.sweep(spec, out=tmp_path / "part", workers=1)
    assert (again.skipped, again.computed) == (3, 1)
    pd_.testing.assert_frame_equal(_results(tmp_path / "part"), ref)


def test_table_sweep_of_the_alliance_tables(tmp_path):
    spec = tmp_path / "alliance.toml"
    spec.write_text(ALLIANCE)
    pd.sweep(spec, out=tmp_path / "a", workers=1)
    df = _results(tmp_path / "a").set_index("alliance")
    # Billingham sec. 2.1 at P = 5, seats rotating: the neutral table pays nobody; the
    # alliance moves 1/720 per hand to each ally from the outsider (exact_table_payoffs)
    assert df.loc["neutral", ["exact_payoff_1", "exact_payoff_2", "exact_payoff_3"]].tolist() \
        == pytest.approx([0.0, 0.0, 0.0], abs=1e-15)
    assert df.loc["allied", ["exact_payoff_1", "exact_payoff_2", "exact_payoff_3"]].tolist() \
        == pytest.approx([1 / 720, 1 / 720, -1 / 360])
    # the pooled payoff of agents 0 and 1 is the sum of theirs
    for row in df.itertuples():
        assert row.pooled == pytest.approx(row.mean_payoff_1 + row.mean_payoff_2)


@pytest.mark.parametrize("text, names", [
    ('[fixed]\nplayers = ["gradient", "fixed"]\n', ("players",)),
    ('[fixed]\nplayers = "tit-for-tat"\n', ("tit-for-tat",)),
    ('[fixed]\nalliance = "allied"\n', ("alliance",)),
    ('[fixed]\ninit = [0.5, 0.5]\n', ("init",)),
    ('[fixed]\npool = [0, 3]\n', ("pool",)),
    ('[fixed]\ndeals = 13\n', ("deals",)),
    ('[fixed]\nseating = "round"\n', ("round",)),
])
def test_table_sweep_bad_input_is_one_line(tmp_path, text, names):
    spec = tmp_path / "bad.toml"
    spec.write_text('[sweep]\nexperiment = "table"\n' + text)
    run_bad(["sweep", str(spec), "--workers", "1"], names, tmp_path)
    assert not (tmp_path / "bad.parquet").exists()


# --- one protocol of the ODE and learning models ---------------------------------------
def test_ode_and_learning_models_satisfy_one_protocol():
    from pokerdyn.dynamics import ode_model
    from pokerdyn.dynamics.learning import learning_model
    from pokerdyn.dynamics.model_protocol import (PROTOCOL_ATTRIBUTES, PROTOCOL_METHODS,
                                                  DynamicsModel, FieldMethods)
    from pokerdyn.games import compile_game, get_game

    ode = ode_model(get_game("skp"), {"P": 9})
    learn = learning_model(compile_game(get_game("kuhn")), "logit", lam=2.0)
    for model in (ode, learn):
        assert isinstance(model, DynamicsModel) and isinstance(model, FieldMethods)
        for name in PROTOCOL_METHODS:  # the same parameters as the protocol's
            want = list(inspect.signature(getattr(DynamicsModel, name)).parameters)[1:]
            assert list(inspect.signature(getattr(model, name)).parameters) == want, name
        for name in PROTOCOL_ATTRIBUTES:
            getattr(model, name)
        y = np.full(model.n, 0.5)
        assert model.f(0.0, y).shape == (model.n,)
        assert model.jac(0.0, y).shape == (model.n, model.n)
        assert model.payoff(y).shape == (model.n_players,)
        assert model.payoff_gradient(y).shape == (model.n_players, model.n)
        # the batch form agrees with the single states
        Y = np.column_stack([y, np.full(model.n, 0.25)])
        assert np.allclose(model.f(0.0, Y)[:, 0], model.f(0.0, y))
        # one shared shape check, one message
        with pytest.raises(GameError, match=rf"the model needs shape \({model.n},\)"):
            model.f(0.0, np.zeros(model.n + 1))
    # the payoff gradient is the derivative of the payoff (central differences)
    for model in (ode, learn):
        y, h = np.full(model.n, 0.4), 1e-6
        num = np.column_stack([(model.payoff(y + h * e) - model.payoff(y - h * e)) / (2 * h)
                               for e in np.eye(model.n)])
        assert np.allclose(model.payoff_gradient(y), num, atol=1e-6)
    # the one integrator runs both
    from pokerdyn.dynamics.ode.solve import simulate

    for model, y0 in ((ode, np.full(3, 0.5)), (learn, learn.uniform())):
        tr = simulate(model, y0, 1.0)
        assert tr.states.shape[1] == model.n


# --- short reprs --------------------------------------------------------------------------
def test_reprs_are_short():
    from pokerdyn.dynamics import find_cycle, ode_model, simulate_ode
    from pokerdyn.dynamics.learning import learning_model
    from pokerdyn.dynamics.play.agents import GradientLearner
    from pokerdyn.dynamics.play.repeated import simulate
    from pokerdyn.dynamics.play.table import play_table
    from pokerdyn.games import compile_game, get_game

    model = ode_model(get_game("kuhn3-third"), {"P": 9})
    tr = simulate_ode(model, np.full(model.n, 0.5), 100.0, t_eval=np.linspace(0, 100, 2001))
    skp = ode_model(get_game("skp"), {"P": 9})
    objects = [
        model, tr, learning_model(compile_game(get_game("kuhn3")), "logit", lam=1.0),
        find_cycle(skp, [0.3, 0.3, 0.3], ("b_J", 0.25), floquet=False),
        simulate(rounds=10_000, n_points=1000),
        play_table("skp", [GradientLearner(name=f"a{i}") for i in range(3)], rounds=2000,
                   n_points=1000, seating="random"),
        pd.ode("skp", pot=9, t_end=10), pd.simulate("skp", rounds=5000),
    ]
    for obj in objects:
        text = repr(obj)
        assert len(text) < 2000, (type(obj).__name__, len(text))
        assert text.startswith(type(obj).__name__ + "(")
    assert "2,001 samples, t in [0, 100]" in repr(tr)
    frame = tr.to_frame()
    assert list(frame.columns[:2]) == ["t", model.names[0]] and len(frame) == 2001
    assert pd.ode("skp", pot=9, t_end=10)._repr_html_().startswith("<")
