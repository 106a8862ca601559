"""Hold'em-style games from rules: a deck, rounds (deals and betting) and a showdown
evaluator, built straight into flat arrays (see :mod:`games.holdem.build`)."""
from pokerdyn.games.holdem.betting import Round
from pokerdyn.games.holdem.build import COLLUSION, build_game
from pokerdyn.games.holdem.cards import Deck
from pokerdyn.games.holdem.exact import exact_game
from pokerdyn.games.holdem.evaluators import (Evaluator, HoldemEvaluator, LeducEvaluator, MercerEvaluator,
                                     pot_shares)
from pokerdyn.games.holdem.standard import leduc, mercer_mmh, mercer_smh

__all__ = ["COLLUSION", "Deck", "Evaluator", "HoldemEvaluator", "LeducEvaluator",
           "MercerEvaluator", "Round", "build_game", "exact_game", "leduc", "mercer_mmh", "mercer_smh",
           "pot_shares"]
