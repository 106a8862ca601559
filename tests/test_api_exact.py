"""The exact wing's front door (issue 35): ``pd.payoffs``, ``pd.equilibria``,
``pd.crosscheck``, ``pd.continuation`` and ``pd.export`` give what the commands print
(``--json`` == ``to_dict()``, text == ``to_text()``); the algorithm is chosen in one place
and recorded with its reason; every family carries its payoffs in its free parameters and
its strategy by information set; the text is written as mathematics; ``--plot`` draws the
families; one reader of exact pots and pot ranges."""
from __future__ import annotations

import json

import pytest
import sympy as sp

import pokerdyn as pd
from pokerdyn.cli import main
from pokerdyn.games import GameError, get_game


def _json(capsys, argv):
    rc = main([*argv, "--json"])
    out = capsys.readouterr().out
    return rc, json.loads(out)


def _same(d: dict) -> dict:
    return json.loads(json.dumps(d))


# -- --json == to_dict(), text == to_text() ----------------------------------------------------

@pytest.mark.parametrize("pot", [None, "9", "(5+sqrt(73))/2"])
def test_payoffs_json_and_text_are_the_api_result(capsys, pot):
    argv = ["payoffs", "skp"] + ([f"--pot={pot}"] if pot else [])
    rc, data = _json(capsys, argv)
    res = pd.payoffs("skp", pot=pot)
    assert rc == 0 and data == _same(res.to_dict())
    assert main(argv) == 0
    assert capsys.readouterr().out == res.to_text() + "\n"


@pytest.fixture(scope="module")
def skp_axis():
    return pd.equilibria("skp")


def test_equilibria_skp_json_is_the_api_result(capsys, skp_axis):
    rc, data = _json(capsys, ["equilibria", "skp"])
    assert rc == 0 and data == _same(skp_axis.to_dict())
    assert data["method"] == "casesearch" and "case search" in data["method_reason"]
    # the keys of before are kept
    assert {"p_interval", "strategy", "free", "constraints", "payoffs", "intervals"} <= \
        set(data["families"][0])


def test_equilibria_kuhn3_third_at_9_json_and_text(capsys):
    res = pd.equilibria("kuhn3-third", pot=9)
    rc, data = _json(capsys, ["equilibria", "kuhn3-third", "--pot", "9"])
    assert rc == 0 and data == _same(res.to_dict())
    assert main(["equilibria", "kuhn3-third", "--pot", "9"]) == 0
    assert capsys.readouterr().out == res.to_text() + "\n"
    # Billingham sec. 3 at P = 9: b_Q free in [0, 2/9] with b_J = 2/9 - b_Q, or c_Q free
    (a, b) = res.families
    assert a["strategy_by_infoset"]["P3:Q|"] == {"k": "1 - b_Q", "b": "b_Q"}
    assert a["strategy_by_infoset"]["P3:J|"] == {"k": "(9*b_Q + 7)/9", "b": "-(9*b_Q - 2)/9"}
    assert "b_Q free in [0, 2/9]" in res.to_text() and "c_Q free in [0, 2/13]" in res.to_text()


def test_method_is_chosen_once_and_recorded(skp_axis):
    from pokerdyn.solvers.symbolic.entry import choose_method

    assert skp_axis.method == "casesearch" and skp_axis.method_reason
    c = choose_method(get_game("kuhn3"), pot="3")
    assert c.method == "supports" and "48 named parameters" in c.reason
    c = choose_method(get_game("kuhn3-full-simplified"))
    assert c.method == "axis"
    assert choose_method(get_game("skp"), method="supports").method == "supports"
    with pytest.raises(GameError, match="method='lcp' is not one of auto, casesearch"):
        choose_method(get_game("skp"), method="lcp")
    with pytest.raises(GameError, match="--pots is for games past the case search"):
        pd.equilibria("skp", pot=(2, 10))


def test_crosscheck_json_is_the_api_result(capsys):
    argv = ["crosscheck", "skp", "--pots", "9", "--starts", "2", "--iterations", "2000"]
    rc, data = _json(capsys, argv)
    res = pd.crosscheck("skp", pots="9", starts=2, iterations=2000)
    assert rc == 0 and res.failures == 0 and data == _same(res.to_dict())
    assert main(argv) == 0
    assert capsys.readouterr().out == res.to_text() + "\n"
    assert list(res.to_frame()["pot"]) == [9.0, 9.0]


def test_continuation_json_is_the_api_result(capsys):
    rc, data = _json(capsys, ["continuation", "skp", "--pots", "6:8", "--no-progress"])
    res = pd.continuation("skp", (6, 8))
    want = _same(res.to_dict())
    assert rc == 0 and data.pop("seconds") >= 0 and want.pop("seconds") >= 0
    assert data == want and data["pots"] == [6.0, 8.0]


def test_export_writes_what_the_api_returns(tmp_path, capsys):
    path = tmp_path / "skp.efg"
    assert main(["export", "skp", "--pot", "9", str(path)]) == 0
    res = pd.export("skp", pot=9)
    assert path.read_text() == res.content
    assert capsys.readouterr().out.strip() == f"wrote {path} (skp, {res.size})"
    assert res.to_dict()["characters"] == len(res.content)
    with pytest.raises(GameError, match="has a symbolic pot P"):
        pd.export("skp")


# -- every family: payoffs in its free parameters, strategy by information set -------------

def test_support_families_carry_payoffs_in_their_free_parameters(monkeypatch):
    """kuhn3 at P = 3 (the support method; the recorded families of ``pokerdyn equilibria
    kuhn3 --pot 3 --json``, figures/frontier/data): each family's ``payoffs`` in its free
    parameters, evaluated exactly at its certified witness, is ``payoffs_at_witness``."""
    from pokerdyn.figures.frontier.kuhn3_family import recorded
    from pokerdyn.solvers.symbolic import entry
    from pokerdyn.solvers.symbolic.learned import equilibrium_set as es

    game = get_game("kuhn3")
    fams = recorded()
    certified = tuple(es.CertifiedFamily(f, tuple(pts), tuple(sp.Rational(x) for x in
                                                               rec["payoffs_at_witness"]))
                      for rec in fams for f, pts in [es.family_from_record(rec)])
    fake = es.EquilibriumSet("kuhn3", sp.Integer(3), {}, (), certified, (), ((0.0, 0),))
    monkeypatch.setattr(es, "equilibrium_set", lambda *a, **k: fake)
    eq = entry.solve_equilibria(game, "3")
    assert eq.method == "supports" and eq.record["method"] == "supports"
    assert "method_reason" in eq.record
    local = {p.name: sp.Symbol(p.name, real=True) for p in game.named}
    for rec in eq.record["families"]:
        point = {local[k]: sp.Rational(v) for k, v in rec["certified_points"][0].items()}
        at = [sp.sympify(e, locals=local).xreplace(point) for e in rec["payoffs"]]
        assert at == [sp.Rational(x) for x in rec["payoffs_at_witness"]]
        assert {s.name for e in rec["payoffs"] for s in sp.sympify(e, locals=local)
                .free_symbols} <= set(rec["free"])
        assert set(rec["strategy_by_infoset"]) == {p.infoset for p in game.named}
    assert len({tuple(r["payoffs"]) for r in eq.record["families"]}) >= 2  # not constants


def test_strategy_by_infoset_of_a_free_family(skp_axis):
    """SKP at P = 5: b_J free in [0, 1/3] (Billingham sec. 3)."""
    (fam,) = [f for f in skp_axis.families if f["p_interval"] == "5"]
    assert fam["strategy_by_infoset"]["P3:J|"] == {"k": "1 - b_J", "b": "b_J"}


# -- text as mathematics -----------------------------------------------------------------------

def test_text_is_mathematics(skp_axis):
    text = skp_axis.to_text()
    for want in ("0 < P < 5:", "P = 5:", "5 < P < (5 + sqrt(73))/2:",
                 "P >= (5 + sqrt(73))/2:", "b_J free in [0, 1/3]"):
        assert want in text
    assert "Interval" not in text and "b_J = b_J" not in text
    # the JSON keeps sympy's strings
    assert skp_axis.to_dict()["families"][0]["p_interval"] == "Interval.open(0, 5)"


def test_set_text_forms():
    from pokerdyn.api.exact_text import set_text

    r = (5 + sp.sqrt(73)) / 2
    assert set_text(sp.Interval.Lopen(2, 5)) == "2 < P <= 5"
    assert set_text(sp.Interval(r, sp.oo)) == "P >= (5 + sqrt(73))/2"
    assert set_text(sp.Interval.open(0, 5) | sp.Interval(6, 7)) == "0 < P < 5 or 6 <= P <= 7"
    assert set_text("Interval.open(0, 5)") == "0 < P < 5" and set_text("9/2") == "P = 9/2"


def test_a_game_without_a_pot_has_no_p_in_its_text(capsys):
    """kuhn (two players, no pot): the family of Kuhn's equilibria, c1_Q free in [1/3, 2/3]
    (value -1/18), and no ``P in Reals`` header."""
    assert main(["equilibria", "kuhn"]) == 0
    out = capsys.readouterr().out
    assert "P" not in out.replace("payoffs", "")
    assert "c1_Q free in [1/3, 2/3]" in out and "E1 = -1/18" in out


# -- --plot ------------------------------------------------------------------------------------

def test_plot_writes_the_picture(tmp_path, capsys, skp_axis):
    path = tmp_path / "skp.png"
    assert main(["equilibria", "skp", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["skp.png"]  # no temporary left
    import matplotlib.pyplot as plt
    ax = skp_axis.plot()
    assert ax.get_xlabel() == "pot P" and len(ax.lines) > 0
    plt.close(ax.figure)


def test_a_bad_plot_file_is_refused_before_any_work(capsys, monkeypatch, tmp_path):
    import pokerdyn.solvers.symbolic.entry as entry

    monkeypatch.setattr(entry, "solve_equilibria", lambda *a, **k: pytest.fail("ran"))
    assert main(["equilibria", "skp", "--plot", str(tmp_path / "f.txt")]) == 2
    assert "unknown image format" in capsys.readouterr().err


# -- one reader of exact pots and pot ranges --------------------------------------------------

def test_dominance_reads_pots_as_the_commands_do():
    """Issue 35 point 5: ``iterated_dominance(game, pot="(5+sqrt(73))/2")`` said "not a
    number" while ``solutions_at`` took it."""
    from pokerdyn.solvers.symbolic.model.dominance import iterated_dominance

    r = iterated_dominance(get_game("skp"), pot="(5+sqrt(73))/2")
    assert r.free == ("b_J", "c_K", "d_Q")
    assert iterated_dominance(get_game("skp"), pot="2.5").free == \
        iterated_dominance(get_game("skp"), pot=sp.Rational(5, 2)).free


def test_pot_range_reader():
    from pokerdyn.solvers.symbolic.model.pot_values import pot_range

    assert pot_range("2:10") == (2, 10)
    assert pot_range("2.5:oo", unbounded=True) == (sp.Rational(5, 2), sp.oo)
    assert pot_range("3:3", closed=True, rational=True) == (3, 3)
    with pytest.raises(GameError, match="empty or reversed"):
        pot_range("5:2")
    with pytest.raises(GameError, match="is not a range A:B"):
        pot_range("5")
    with pytest.raises(GameError, match="give rational pots"):
        pot_range("2:sqrt(5)", closed=True, rational=True)


def test_one_float_to_rational_rule():
    from pokerdyn.games.exact_values import exact_number, rational_of_float
    from pokerdyn.solvers.symbolic.model.pot_values import exact_pot

    for x, want in ((0.1, sp.Rational(1, 10)), (2.5, sp.Rational(5, 2)),
                    (3 / 95, sp.Rational(3, 95)), (1 / 3, sp.Rational(1, 3))):
        assert rational_of_float(x) == exact_number(x) == exact_pot(x) == want
