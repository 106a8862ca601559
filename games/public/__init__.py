"""Public-tree form of games (issue 37): one node per public state, range vectors over each
player's private states (:mod:`games.public.form`), compiled from the hold'em builder's
parameters without the history tree (:mod:`games.public.holdem`) or derived from any compiled
game whose histories factor into public state x private states (:mod:`games.public.derive`)."""
from pokerdyn.games.public.form import PublicGame, from_history, to_history

__all__ = ["PublicGame", "from_history", "public_from_builder", "public_from_compiled",
           "public_game", "to_history"]


def __getattr__(name):
    if name in ("public_from_builder", "public_game"):
        from pokerdyn.games.public import holdem
        return getattr(holdem, name)
    if name == "public_from_compiled":
        from pokerdyn.games.public.derive import public_from_compiled
        return public_from_compiled
    raise AttributeError(f"module 'pokerdyn.games.public' has no attribute {name!r}")
