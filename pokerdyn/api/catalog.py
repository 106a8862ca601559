"""The catalogue through the front door: ``pd.catalog()`` lists the registered games (what
``pokerdyn games`` prints) and ``pd.catalog("river(street=half)")`` describes one variant.

The whole catalogue comes from the recorded cards (:mod:`pokerdyn.games.catalog.cards`):
nothing is built, so listing it takes well under a second; a named game is built."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from pokerdyn.api.result import Result, Stages

if TYPE_CHECKING:
    from pokerdyn.games.tree import Game

SPEC_NOTE = ("A game is a spec: name or name(key=value,...), e.g. 'river(street=half,"
             "max_bets=2)'; 'openspiel:leduc_poker(players=3)' imports an OpenSpiel game.")
MANY_PARAMETERS = 8  # the text lists at most this many parameter names in full


@dataclass(frozen=True, repr=False)
class Catalog(Result):
    """Cards of games (``pokerdyn games``): one dict per game with ``game`` (its canonical
    spec), ``players``, ``nodes``, ``infosets``, ``options`` (option -> default in spec
    syntax), ``game_parameters``, ``parameters`` (named strategy parameters) and
    ``description``.  ``single``: one game was asked, so ``to_dict()`` is its card alone;
    ``listing``: the whole catalogue (the text ends with how to write a spec)."""

    cards: tuple[dict[str, Any], ...]
    single: bool = False
    listing: bool = False
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        """The games' names (canonical specs), in order."""
        return tuple(c["game"] for c in self.cards)

    def to_dict(self) -> Any:
        """``pokerdyn games --json``: the card of the one game asked, else a list of cards."""
        return dict(self.cards[0]) if self.single else [dict(c) for c in self.cards]

    def to_text(self) -> str:
        lines = []
        for r in self.cards:
            params = " ".join(r["parameters"]) if len(r["parameters"]) <= MANY_PARAMETERS else \
                f"{len(r['parameters'])} parameters ({' '.join(r['parameters'][:4])} ...)"
            gp = f" [{', '.join(r['game_parameters'])}]" if r["game_parameters"] else ""
            head = r["game"] if len(r["game"]) < 18 else f"{r['game']}\n{'':<18}"
            lines.append(f"{head:<18}{r['players']}P {r['nodes']:>6} nodes{gp}  {params}")
            lines.append(f"{'':<18}{r['description']}")
            if r["options"]:
                opts = ", ".join(k if v is None else f"{k}={v}" for k, v in r["options"].items())
                lines.append(f"{'':<18}options (defaults): {opts}")
        if self.listing:
            lines += ["", SPEC_NOTE]
        return "\n".join(lines)

    def to_frame(self):
        """One row per game, the cards' keys as columns (``game`` first)."""
        import pandas as pd

        from pokerdyn.games.catalog.cards import CARD_KEYS

        return pd.DataFrame([dict(c) for c in self.cards], columns=list(CARD_KEYS))

    def _summary(self) -> dict[str, Any]:
        return {"games": list(self.names), "single": self.single, "listing": self.listing}


def catalog(games: "str | Game | Sequence[str | Game] | None" = None, *,
            max_memory: str | int | None = None, force: bool = False) -> Catalog:
    """The registered games, or a description of the games named.

    Parameters
    ----------
    games : str, Game, sequence of them, or None
        None: the whole catalogue, from the recorded cards (nothing is built).  A spec
        (``"river(street=half)"``, ``"openspiel:leduc_poker"``, a ``.efg`` path) or a Game:
        that game described (built).  A sequence: each of them.
    max_memory : str or int, optional
        The memory a named game's build may take (bytes or ``"4G"``; default: what is
        available), as ``--max-memory``.
    force : bool
        Build a named game even when its estimate exceeds ``max_memory`` (``--force``).

    Returns
    -------
    Catalog
        ``cards`` (one dict per game); ``to_dict()`` is ``pokerdyn games --json``,
        ``to_text()`` its text, ``to_frame()`` one row per game.

    Raises
    ------
    GameError
        An unknown game or option, a bad value, a game too large to build.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> cat = pd.catalog()
    >>> cat.names[:4]
    ('kuhn', 'kuhn3', 'kuhn3-full-simplified', 'kuhn3-third')
    >>> [(c["game"], c["nodes"]) for c in cat.cards if c["game"] in ("skp", "selby")]
    [('skp', 90), ('selby', 656904)]
    >>> pd.catalog("river(street=half)").to_dict()["options"]["street"]
    'full'
    """
    stages = Stages()
    if games is None:
        from pokerdyn.games.catalog.cards import cards

        with stages("catalogue"):
            rows = cards()
        return Catalog(tuple(rows), listing=True, timings=stages.seconds)
    from pokerdyn.api.inputs import build_limits, game
    from pokerdyn.games.catalog.cards import describe

    single = isinstance(games, str) or not isinstance(games, (list, tuple))
    asked = [games] if single else list(games)
    single = single or len(asked) == 1
    limits = build_limits(max_memory, force)
    rows = []
    with limits, stages("build"):
        for spec in asked:
            g = game(spec)
            rows.append(describe(g, spec if isinstance(spec, str) else g.name))
    return Catalog(tuple(rows), single=single, timings=stages.seconds)
