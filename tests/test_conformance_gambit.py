"""Conformance with Gambit (issue 34): the catalog games that pygambit ships in its wheel
(``pygambit/catalog_data``: textbook and journal games nobody here wrote; read from the
installed wheel, no file copied), each read by our reader and by pygambit and solved by both.

The checks are benchmarks/conformance_gambit.py's ``check_game`` / ``check_nfg`` (the same
code makes the table of Gambit's whole repository collection in the README), one test per
file and check:

- read: every file is read, or refused in one line for imperfect recall where pygambit
  agrees that the game has imperfect recall;
- structure: players, the information-set partition (a bijection with Gambit's sets at
  every node), chance probabilities and the terminal payoffs (Gambit's outcomes summed along
  the path) equal exactly; .nfg files: every payoff of every profile;
- uniform: the max regret of the uniform profile equals pygambit's ``max_regret`` (1e-9);
- lp / lcp (two players): our equilibrium payoffs equal, as rationals, those of pygambit's
  ``lp_solve`` / ``lcp_solve(rational=True)``; the LP refuses general-sum games naming the
  LCP;
- eq-check: each profile we find (LP, LCP, a point of each enumerated family) has
  pygambit's own ``max_regret() == 0`` (loaded as rationals);
- enumeration: every extreme equilibrium of pygambit's ``enummixed_solve(rational=True)``
  lies exactly in one of our enumerated families, and every equilibrium of its
  ``enumpoly_solve`` within 1e-6 of one.
"""
from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path

import pytest

gbt = pytest.importorskip("pygambit")

CATALOG = Path(gbt.__file__).parent / "catalog_data"
FILES = sorted(str(p.relative_to(CATALOG)) for p in CATALOG.rglob("*")
               if p.suffix in (".efg", ".nfg")) if CATALOG.is_dir() else []
EFG = [f for f in FILES if f.endswith(".efg")]

_path = Path(__file__).resolve().parents[1] / "benchmarks" / "conformance_gambit.py"
_spec = importlib.util.spec_from_file_location("conformance_gambit", _path)
conf = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = conf   # its dataclasses look their module up
_spec.loader.exec_module(conf)
from pokerdyn.games.io.gambit_compare import Differs, gambit_read, match_trees  # noqa: E402

# pygambit's enumpoly_solve on these does not finish within minutes (fig5_9) or takes half a
# minute (fig6_2), seen in the benchmark's run of Gambit's repository, which holds the same
# files under catalog/: the enumeration is compared with enummixed there (and with enumpoly
# in the benchmark's table).
ENUMPOLY_SLOW = {"books/shohamleytonbrown2008/fig5_9.efg",
                 "books/shohamleytonbrown2008/fig6_2.efg"}


@functools.lru_cache(maxsize=None)
def cells(rel: str) -> dict[str, str]:
    """Every check's cell for one catalog file (computed once per file)."""
    path = CATALOG / rel
    text = path.read_text(encoding="utf-8")
    if rel.endswith(".nfg"):
        return dict(conf.check_nfg(text, path.stem))
    return dict(conf.check_game(text, path.stem, path=str(path),
                                enumpoly=rel not in ENUMPOLY_SLOW))


def outcome(rel: str, check: str) -> str:
    return conf.category(cells(rel).get(check, ""))


def test_catalog_is_the_wheels():
    """The wheel's catalog (pygambit 16.7: 38 games, 34 .efg) is what is parametrized,
    including the textbook games the old reader refused (issue 34)."""
    assert len(FILES) >= 32
    for rel in ("books/myerson1991/fig4_2.efg", "journals/ijgt/selten1975/fig1.efg",
                "journals/other/shapley1974/fig2.nfg"):
        assert rel in FILES


@pytest.mark.parametrize("rel", FILES, ids=FILES)
def test_read(rel):
    """Read, or refused in one line for imperfect recall where Gambit agrees."""
    c = cells(rel)
    if conf.category(c["read"]) == "refused":
        g = gambit_read((CATALOG / rel).read_text(encoding="utf-8"))
        assert "imperfect recall" in c["read"] and not g.is_perfect_recall, c["read"]
        return
    assert c["read"] == "read", c["read"]
    assert c["structure"].startswith("agree"), c["structure"]


@pytest.mark.parametrize("rel", EFG, ids=EFG)
def test_uniform_profile_regret(rel):
    if outcome(rel, "read") != "read":  # nothing to solve: the refusal is the answer
        assert "imperfect recall" in cells(rel)["read"], cells(rel)["read"]
        return
    assert outcome(rel, "uniform") == "agree", cells(rel)["uniform"]


@pytest.mark.parametrize("rel", EFG, ids=EFG)
@pytest.mark.parametrize("check", ["lp", "lcp"])
def test_lp_lcp_payoffs_exact(rel, check):
    if outcome(rel, "read") != "read":  # nothing to solve: the refusal is the answer
        assert "imperfect recall" in cells(rel)["read"], cells(rel)["read"]
        return
    assert outcome(rel, check) in ("agree", "n/a"), cells(rel)[check]


@pytest.mark.parametrize("rel", EFG, ids=EFG)
def test_equilibria_pass_gambits_check(rel):
    if outcome(rel, "read") != "read":  # nothing to solve: the refusal is the answer
        assert "imperfect recall" in cells(rel)["read"], cells(rel)["read"]
        return
    assert outcome(rel, "eq-check") in ("ok", "n/a"), cells(rel)["eq-check"]


@pytest.mark.parametrize("rel", EFG, ids=EFG)
def test_enumeration_finds_gambits_equilibria(rel):
    if outcome(rel, "read") != "read":  # nothing to solve: the refusal is the answer
        assert "imperfect recall" in cells(rel)["read"], cells(rel)["read"]
        return
    c = cells(rel)
    assert outcome(rel, "enum") == "ok", c["enum"]
    assert outcome(rel, "enummixed") in ("agree", "n/a"), c["enummixed"]
    if rel not in ENUMPOLY_SLOW:
        assert outcome(rel, "enumpoly") in ("agree", "n/a"), c["enumpoly"]


# The harness itself must be able to fail: it sees a changed payoff, two sets merged, and
# an equilibrium of the agent form that is no Nash equilibrium.
MYERSON = "books/myerson1991/fig4_2.efg"


def _myerson():
    from pokerdyn.games.io.efg import game_from_efg
    text = (CATALOG / MYERSON).read_text(encoding="utf-8")
    return text, game_from_efg(text, "fig4_2")


def test_harness_sees_a_changed_payoff():
    text, game = _myerson()
    g = gambit_read(text.replace('t "" 4 "" { 4, 1 }', 't "" 4 "" { 4, 2 }'))
    with pytest.raises(Differs, match=r"payoffs \(4, 1\), Gambit \(4, 2\)"):
        match_trees(game, g)


def test_harness_sees_two_sets_merged():
    """Player 1's second set split in two on our side (still perfect recall: both nodes
    follow A1), one set in Gambit's: the partition differs."""
    text, _ = _myerson()
    from pokerdyn.games.io.efg import game_from_efg
    lines = text.splitlines()
    k = [i for i, s in enumerate(lines) if s.startswith('p "" 1 2 ')][1]
    lines[k] = lines[k].replace('p "" 1 2 ', 'p "" 1 3 ')
    split = game_from_efg("\n".join(lines) + "\n", "split")
    with pytest.raises(Differs, match="Gambit's set 2 of player 1 is our sets"):
        match_trees(split, gambit_read(text))


def test_agent_equilibrium_is_not_nash():
    """Myerson (1991), Figure 4.2 (the file's own comment): B1, Z1, W2 is an equilibrium of
    the agent form but not of the game (player 1 gains by switching to A1, Y1 together);
    pygambit's check as the harness applies it refuses it, and passes our LCP profile."""
    from fractions import Fraction as F
    text, game = _myerson()
    g = gambit_read(text)
    infomap = match_trees(game, g)
    rows = {"A1": [F(0), F(1)], "Y1": [F(0), F(1)], "W2": [F(1), F(0)]}
    sigma = [rows[I.actions[0]] for I in game.infosets]
    assert conf.gambit_check(g, infomap, sigma, exact=True) == "pygambit max_regret 1"
    assert cells(MYERSON)["eq-check"] == "ok (lcp)"
