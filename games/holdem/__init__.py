"""Hold'em-style games from rules: a deck, rounds (deals and betting) and a showdown
evaluator, built straight into flat arrays (see :mod:`games.holdem.build`)."""
from games.holdem.betting import Round
from games.holdem.build import COLLUSION, build_game
from games.holdem.cards import Deck
from games.holdem.exact import exact_game
from games.holdem.evaluators import (Evaluator, HoldemEvaluator, LeducEvaluator, MercerEvaluator,
                                     pot_shares)
from games.holdem.standard import leduc, mercer_mmh, mercer_smh

__all__ = ["COLLUSION", "Deck", "Evaluator", "HoldemEvaluator", "LeducEvaluator",
           "MercerEvaluator", "Round", "build_game", "exact_game", "leduc", "mercer_mmh", "mercer_smh",
           "pot_shares"]
