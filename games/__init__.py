"""pokerdyn core: extensive-form games as immutable data, compiled to flat arrays.

The names below are imported on first use (PEP 562): ``import pokerdyn.games`` loads no game
definition, no sympy and no numba; ``from pokerdyn.games import GameError`` loads only
:mod:`pokerdyn.games.errors`, and the registry (:data:`GAMES`) imports a game's module only
when that game is built."""
from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    **dict.fromkeys(["CompiledGame", "check_values", "compile_game"], "pokerdyn.games.compiled"),
    **dict.fromkeys(["GAMES", "get_game"], "pokerdyn.games.catalog.registry"),
    **dict.fromkeys(["check_strategy", "param_symbols", "params_from_strategy",
                     "strategy_from_params", "strategy_to_dict", "symbolic_strategy",
                     "uniform_strategy"], "pokerdyn.games.strategy"),
    **dict.fromkeys(["CHANCE", "DECISION", "TERMINAL", "Game", "GameBuilder", "Infoset",
                     "NamedParameter", "ParameterDomain", "infoset_label"],
                    "pokerdyn.games.tree"),
    "GameError": "pokerdyn.games.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pokerdyn.games' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
