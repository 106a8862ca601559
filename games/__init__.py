"""pokerdyn core: extensive-form games as immutable data, compiled to flat arrays."""
from pokerdyn.games.compiled import CompiledGame, check_values, compile_game
from pokerdyn.games.catalog.registry import GAMES, get_game
from pokerdyn.games.strategy import (check_strategy, param_symbols, params_from_strategy, strategy_from_params,
                       strategy_to_dict, symbolic_strategy, uniform_strategy)
from pokerdyn.games.tree import (CHANCE, DECISION, TERMINAL, Game, GameBuilder, GameError, Infoset,
                   NamedParameter, ParameterDomain, infoset_label)

__all__ = [
    "CHANCE", "DECISION", "TERMINAL", "CompiledGame", "GAMES", "Game", "GameBuilder", "GameError",
    "Infoset", "NamedParameter", "ParameterDomain", "check_strategy", "check_values",
    "compile_game", "get_game", "infoset_label", "param_symbols", "params_from_strategy",
    "strategy_from_params", "strategy_to_dict", "symbolic_strategy", "uniform_strategy",
]
