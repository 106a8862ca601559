"""``games.openspiel``: any OpenSpiel game in the core (the name issue 12 gives it).

The importer lives with the other file formats in :mod:`games.io.openspiel`; this module is
its public face: ``load_openspiel("leduc_poker(players=3)")`` returns a
:class:`~games.tree.Game`, ``openspiel_game("openspiel:kuhn_poker")`` the same cached per
process (what the spec prefix ``openspiel:`` calls)."""
from pokerdyn.games.io.openspiel import (MAX_NODES, PREFIX, cache_dir, cache_path, estimate_openspiel,
                                load_openspiel, openspiel_game, openspiel_policy)

__all__ = ["MAX_NODES", "PREFIX", "cache_dir", "cache_path", "estimate_openspiel",
           "load_openspiel", "openspiel_game", "openspiel_policy"]
