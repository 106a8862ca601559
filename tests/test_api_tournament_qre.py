"""The front door of tournaments and quantal response (issue 35): ``pd.icm``, ``pd.pushfold``,
``pd.pushfold_chart``, ``pd.qre``, ``pd.qre_fit``.  Each command's ``--json`` is the API
result's ``to_dict()`` (the wall-clock ``seconds`` aside), its text output ``to_text()``;
QRE strategies come by parameter name too (``limit.by_parameter``); every result times its
stages; ``cfr+`` and its jam/fold alias ``cfr`` give the same equilibrium.

The push/fold cases run on the stand-in hand model of tests/test_cli_tournament.py (exact
card-removal pair probabilities, a made-up equity matrix) so that they are quick."""
from __future__ import annotations

import json

import pytest

import pokerdyn as pd
from test_cli_tournament import cli, fake_model  # the in-process CLI runner; the stand-in hand model
import pokerdyn.games.tournament.hands as hands


@pytest.fixture
def stand_in(monkeypatch):
    model = fake_model()
    monkeypatch.setattr(hands, "preflop_model", lambda: model)




def cli_json(*argv) -> dict:
    code, out, err = cli(*argv, "--json")
    assert code == 0, err
    return json.loads(out)


def as_json(result) -> dict:
    return json.loads(json.dumps(result.to_dict()))


def same_but_seconds(a: dict, b: dict) -> None:
    """Equal dicts, key order included, but for the wall-clock ``seconds``."""
    assert list(a) == list(b)
    assert {k: v for k, v in a.items() if k != "seconds"} == \
        {k: v for k, v in b.items() if k != "seconds"}


def text_without_times(text: str) -> str:
    import re
    text = re.sub(r"\d+\.\d+ s\b", "X s", text)
    return re.sub(r"seconds: \d+\.\d+", "seconds: X", text)


# -- icm ----------------------------------------------------------------------------------------
def test_icm_json_and_text_are_the_api_result():
    argv = ("icm", "--stacks", "50,30,20", "--payouts", "0.5,0.3,0.2")
    r = pd.icm([50, 30, 20], [0.5, 0.3, 0.2])
    assert cli_json(*argv) == as_json(r) == as_json(pd.icm("50,30,20", "0.5,0.3,0.2"))
    assert cli(*argv)[1] == r.to_text() + "\n"
    # tests/test_icm.py: 43/112 for the first player (survey's worked example)
    assert r.equity[0] == pytest.approx(43 / 112, abs=1e-15)
    frame = r.to_frame()
    assert list(frame.columns) == ["stack", "chip_share", "equity"]
    assert frame["equity"].tolist() == r.equity and list(frame.index) == [1, 2, 3]
    assert list(r.timings) == ["icm"]


def test_icm_bad_input_is_the_cli_line():
    code, _, err = cli("icm", "--stacks", "50,0,20", "--payouts", "0.5,0.3")
    assert code == 2
    with pytest.raises(pd.GameError) as exc:
        pd.icm([50, 0, 20], [0.5, 0.3])
    assert err.strip() == f"pokerdyn: error: {exc.value}"


# -- pushfold -----------------------------------------------------------------------------------
def test_pushfold_heads_up_json_and_text(stand_in):
    d = cli_json("pushfold", "--stacks", "10,10")
    r = pd.pushfold([10, 10])
    same_but_seconds(d, as_json(r))
    assert d["method"] == "lp" and d["nash_conv"] < 1e-9
    code, out, _ = cli("pushfold", "--stacks", "10,10")
    assert text_without_times(out) == text_without_times(r.to_text() + "\n")
    assert list(r.timings) == ["build", "solve"]
    frame = r.to_frame()
    assert frame.shape == (169, 2) and frame.loc["AA", "SB push []"] == 1.0
    assert list(frame.columns) == ["SB push []", "BB call [p]"]


def test_pushfold_icm_fp_json(stand_in):
    argv = ["--stacks", "6,6", "--method", "fp", "--iterations", "50", "--payouts", "0.65,0.35"]
    same_but_seconds(cli_json("pushfold", *argv),
                     as_json(pd.pushfold("6,6", method="fp", iterations=50,
                                         payouts=[0.65, 0.35])))


def test_pushfold_sampled_three_seats_json(stand_in):
    argv = ["--stacks", "5,5,5", "--samples", "200", "--iterations", "20", "--boards", "2",
            "--seed", "3"]
    d = cli_json("pushfold", *argv)
    r = pd.pushfold([5, 5, 5], samples=200, iterations=20, boards=2, seed=3)
    same_but_seconds(d, as_json(r))
    assert d["model"] == "sampled" and d["seed"] == 3 and list(r.timings) == ["build", "solve"]


def test_pushfold_hand_with_three_seats_shows_one_cell(stand_in):
    """--hand with 3+ seats was an ImportError (grid_cell moved to games.preflop.classes)."""
    d = cli_json("pushfold", "--stacks", "5,5,5", "--samples", "200", "--iterations", "20",
                 "--boards", "2", "--hand", "AA")
    for grid in d["ranges"].values():
        assert sum(x is not None for row in grid for x in row) <= 1
        assert all(x is None for i, row in enumerate(grid) for j, x in enumerate(row)
                   if (i, j) != (0, 0))


@pytest.mark.parametrize("seats", ["10,10", "5,5,5"])
def test_cfr_is_the_jamfold_alias_of_cfr_plus(stand_in, seats):
    """``cfr`` stays CFR+ under pushfold (solvers.tournament.METHOD_ALIASES); ``cfr+`` is the
    registry's name for it: the same equilibrium, the JSON's ``method`` as given."""
    extra = ["--samples", "200", "--boards", "2"] if seats.count(",") > 1 else []
    a = cli_json("pushfold", "--stacks", seats, "--method", "cfr", "--iterations", "30", *extra)
    b = cli_json("pushfold", "--stacks", seats, "--method", "cfr+", "--iterations", "30",
                 *extra)
    assert a["method"] == "cfr" and b["method"] == "cfr+"
    assert a["ranges"] == b["ranges"] and a["nash_conv"] == b["nash_conv"]
    from pokerdyn.solvers.methods import METHODS
    from pokerdyn.solvers.tournament import METHOD_ALIASES, registry_name
    assert registry_name("cfr") == "cfr+" in METHODS and METHOD_ALIASES == {"cfr": "cfr+"}


def test_pushfold_chart_json_and_text(stand_in):
    argv = ["--chart", "--max-stack", "4", "--step", "1"]
    d = cli_json("pushfold", *argv)
    r = pd.pushfold_chart(max_stack=4, step=1)
    same_but_seconds(d, as_json(r))
    assert d["stacks"] == [2.0, 3.0, 4.0]
    code, out, _ = cli("pushfold", *argv)
    assert text_without_times(out) == text_without_times(r.to_text() + "\n")
    frame = r.to_frame()
    assert frame.shape[0] == 169 and frame.loc["AA", "push_up_to"] == 4.0
    assert list(r.timings) == ["chart", "tables"]


def test_pushfold_bad_input_is_the_cli_line(stand_in):
    for argv, call in [(["--stacks", "5,5,5", "--method", "lp"],
                        lambda: pd.pushfold([5, 5, 5], method="lp")),
                       (["--stacks", "10,10", "--hand", "AXs"],
                        lambda: pd.pushfold("10,10", hand="AXs")),
                       (["--chart", "--max-stack", "0.5"],
                        lambda: pd.pushfold_chart(max_stack=0.5))]:
        code, _, err = cli("pushfold", *argv)
        with pytest.raises(pd.GameError) as exc:
            call()
        assert code == 2 and err.strip() == f"pokerdyn: error: {exc.value}"


def test_pushfold_plots_return_their_axes(stand_in):
    from matplotlib.figure import Figure
    r = pd.pushfold([8, 8])
    ax = Figure().subplots()
    assert r.plot(ax) is ax and r.plot(ax, key="BB call [p]") is ax
    c = pd.pushfold_chart(max_stack=3, step=1)
    ax = Figure().subplots()
    assert c.plot(ax, which="call") is ax
    assert len(repr(r)) < 2000 and len(repr(c)) < 2000


# -- qre ----------------------------------------------------------------------------------------
QRE_STAGES = ["compile", "branch", "limit", "identification", "certification"]


@pytest.fixture(scope="module")
def skp9():
    return pd.qre("skp", pot=9)


def test_qre_skp_json_is_the_api_result_with_the_limit_by_parameter(skp9):
    d = cli_json("qre", "skp", "--pot", "9")
    same_but_seconds(d, as_json(skp9))
    lim = d["limit"]
    # the limit by parameter name outside ``family`` (issue 35's acceptance), beside the
    # strategy by information-set label and action (kept)
    assert set(lim["by_parameter"]) == {"b_J", "c_K", "d_Q"}
    assert lim["by_parameter"]["b_J"] == pytest.approx(2 / 9, abs=1e-9)
    assert lim["by_parameter"]["c_K"] == pytest.approx(2 / 5, abs=1e-9)
    assert lim["strategy"]["P3:J|"]["b"] == lim["by_parameter"]["b_J"]
    assert lim["family"]["point"] == {"b_J": "2/9", "c_K": "2/5", "d_Q": "0"}
    assert lim["family"]["exact_nash_conv"] == "0" and lim["certified"] is True
    for point in d["branch"]:
        assert set(point["by_parameter"]) == {"b_J", "c_K", "d_Q"}
        assert point["by_parameter"]["b_J"] == point["strategy"]["P3:J|"]["b"]


def test_qre_timings_name_the_stages(skp9):
    assert list(skp9.timings) == QRE_STAGES
    assert all(t >= 0 for t in skp9.timings.values())
    assert "timings" not in skp9.to_dict()
    assert sum(skp9.timings[k] for k in QRE_STAGES[1:]) <= skp9.seconds


def test_qre_kuhn_json_text_and_frame():
    d = cli_json("qre", "kuhn")
    r = pd.qre("kuhn")
    same_but_seconds(d, as_json(r))
    code, out, _ = cli("qre", "kuhn")
    assert text_without_times(out) == text_without_times(r.to_text() + "\n")
    assert list(r.timings) == QRE_STAGES
    # kuhn's limit is in the one-parameter family of Kuhn (1950): b1_K = 3 c1_Q - 1
    by = r.limit["by_parameter"]
    assert by["b1_K"] == pytest.approx(3 * by["c1_Q"] - 1, abs=1e-7)
    frame = r.to_frame()
    assert len(frame) == len(r.branch) and {"lambda", "nash_conv", "b1_K"} <= set(frame)


def test_qre_profiles_and_stability_json():
    same_but_seconds(cli_json("qre", "kuhn", "--lambda", "1,10"),
                     as_json(pd.qre("kuhn", lambdas=[1, 10])))
    d = cli_json("qre", "skp", "--pot", "9", "--stability")
    r = pd.qre("skp", pot=9, stability=True)
    same_but_seconds(d, as_json(r))
    assert list(r.timings) == QRE_STAGES + ["stability"]


def test_qre_bad_input_is_the_cli_line():
    for argv, call in [(["kuhn", "--lambda", "0"], lambda: pd.qre("kuhn", lambdas=[0])),
                       (["kuhn", "--pot", "3"], lambda: pd.qre("kuhn", pot=3)),
                       (["skp", "--pots", "6:2"], lambda: pd.qre("skp", pots=(6, 2)))]:
        code, _, err = cli("qre", *argv)
        with pytest.raises(pd.GameError) as exc:
            call()
        assert code == 2 and err.strip() == f"pokerdyn: error: {exc.value}"


def test_qre_plot_returns_its_axes(skp9):
    from matplotlib.figure import Figure
    ax = Figure().subplots()
    assert skp9.plot(ax) is ax and len(ax.lines) == 3
    assert len(repr(skp9)) < 2000


# -- qre-fit ------------------------------------------------------------------------------------
COUNTS = {"P1:K|": {"k": 30, "b": 10}, "P2:J|b": {"f": 35, "c": 5}}


def test_qre_fit_json_and_text(tmp_path):
    path = tmp_path / "counts.json"
    path.write_text(json.dumps(COUNTS))
    d = cli_json("qre-fit", "kuhn", "--counts", str(path))
    r = pd.qre_fit("kuhn", COUNTS)
    same_but_seconds(d, as_json(r))
    same_but_seconds(d, as_json(pd.qre_fit("kuhn", str(path))))
    assert d["observations"] == 80 == r.observations
    lo, hi = r.interval
    assert lo < r.lam < hi
    code, out, _ = cli("qre-fit", "kuhn", "--counts", str(path))
    assert out == r.to_text() + "\n"
    assert list(r.timings) == ["compile", "fit"]
    frame = r.to_frame()
    assert frame["log_likelihood"].max() <= r.log_likelihood + 1e-9   # the maximum
