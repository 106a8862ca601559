"""Cheap start (issue 35, point 9): ``import pokerdyn``, ``pokerdyn --help`` and listing the
catalogue load neither numba nor scipy.optimize nor the game definitions; ``--version``;
short reprs of games (point 10).  Module sets are checked in a fresh interpreter (no clock)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import pokerdyn
from pokerdyn.cli import COMMANDS, build_parser, main

GAME_DEFINITIONS = ("pokerdyn.games.catalog.kuhn", "pokerdyn.games.catalog.river",
                    "pokerdyn.games.holdem", "pokerdyn.games.preflop",
                    "pokerdyn.games.tournament")
HEAVY = ("numba", "scipy.optimize", *GAME_DEFINITIONS)


def _modules_after(code: str, tmp_path) -> set[str]:
    """The modules loaded by ``code`` in a fresh interpreter (its last line of stdout)."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-P", "-c", script], cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def _loaded(modules: set[str], names) -> list[str]:
    return [n for n in names if n in modules or any(m.startswith(n + ".") for m in modules)]


def test_import_pokerdyn_loads_no_numba_scipy_or_game_definition(tmp_path):
    mods = _modules_after("import pokerdyn", tmp_path)
    assert _loaded(mods, (*HEAVY, "sympy", "scipy", "pokerdyn.games")) == []


def test_import_pokerdyn_games_loads_no_game_definition(tmp_path):
    mods = _modules_after("import pokerdyn.games\nfrom pokerdyn.games import GameError",
                          tmp_path)
    assert _loaded(mods, (*HEAVY, "sympy")) == []


def test_help_loads_no_numba_and_no_command_module(tmp_path):
    code = ("from pokerdyn.cli import main\ntry:\n    main(['--help'])\n"
            "except SystemExit as e:\n    assert e.code == 0")
    mods = _modules_after(code, tmp_path)
    assert _loaded(mods, (*HEAVY, "sympy", "pokerdyn.commands.games")) == []


def test_a_command_imports_only_its_own_module(tmp_path):
    code = ("from pokerdyn.cli import main\ntry:\n    main(['icm', '--help'])\n"
            "except SystemExit as e:\n    assert e.code == 0")
    mods = _modules_after(code, tmp_path)
    cmds = {m for m in mods if m.startswith("pokerdyn.commands.") and m.count(".") >= 2}
    assert "pokerdyn.commands.tournament.icm" in cmds
    assert not cmds & {"pokerdyn.commands.games", "pokerdyn.commands.numeric.solve",
                       "pokerdyn.commands.exact.equilibria", "pokerdyn.commands.reproduce"}


def test_listing_the_catalogue_builds_nothing(tmp_path):
    code = "from pokerdyn.cli import main\nassert main(['games', '--json']) == 0"
    mods = _modules_after(code, tmp_path)
    assert _loaded(mods, (*HEAVY, "sympy")) == []


def test_exact_equilibria_at_a_pot_load_no_numba_scipy_optimize_or_sympy_units(tmp_path):
    """`pokerdyn equilibria kuhn3-third --pot 9` (issue 35: imports were 3 s of its 3.9 s):
    its case walk propagates in plain Python, its one implicit-equality check is exact, and
    its one sp.solve does not simplify (sympy's simplify loads sympy.physics.units)."""
    code = ("from pokerdyn.cli import main\n"
            "assert main(['equilibria', 'kuhn3-third', '--pot', '9']) == 0")
    mods = _modules_after(code, tmp_path)
    assert _loaded(mods, ("numba", "scipy.optimize", "sympy.physics")) == []


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"pokerdyn {pokerdyn.__version__}\n" == "pokerdyn 0.1.0\n"


def test_help_lists_every_command_with_its_help_line(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out
    assert "list the games and their parameters" in out


def test_a_command_help_has_its_options(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["games", "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and "--json" in out and "--max-memory" in out


def test_lazy_parser_lists_every_command_and_fills_only_those_asked():
    sub = next(a for a in build_parser(["games"])._actions if a.dest == "command")
    assert list(sub.choices) == list(COMMANDS)
    assert "--json" in sub.choices["games"]._option_string_actions
    assert "--pot" not in sub.choices["solve"]._option_string_actions
    full = next(a for a in build_parser()._actions if a.dest == "command")
    assert "--pot" in full.choices["solve"]._option_string_actions


def test_an_unknown_command_is_one_line(capsys):
    assert _exit(["nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'nosuch'" in err


def _exit(argv):
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


@pytest.mark.parametrize("spec", ["kuhn3", "mercer-smh", "river(street=half)"])
def test_game_and_compiled_game_reprs_are_short(spec):
    from pokerdyn.games import compile_game, get_game

    g = get_game(spec)
    text = repr(g)
    assert len(text) < 2000 and text.startswith(f"Game({g.name!r}, players={g.n_players}, "
                                                f"nodes={g.n_nodes:,}, ")
    assert f"infosets={g.n_infosets:,}" in text and g.description[:40] in text
    values = {"P": 9} if "P" in g.param_names else {}
    c = compile_game(g, values)
    text = repr(c)
    assert len(text) < 2000 and text.startswith(f"CompiledGame({g.name!r}, values={{")
    assert f"nodes={c.n_nodes:,}" in text and f"infosets={c.n_infosets:,}" in text


def test_kuhn3_repr_names_its_parameters_and_count():
    from pokerdyn.games import get_game

    text = repr(get_game("kuhn3"))
    assert "game_parameters=(P)" in text and "... 48 in all)" in text
    assert "nodes=601" in text and "players=3" in text
