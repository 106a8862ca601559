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
# `pokerdyn games SPEC` builds a builder game's public form to give its sizes up to this many
# histories (seconds); above, it gives the estimate (solve --engine public builds it)
PUBLIC_LISTED = 5_000_000


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
    public: tuple[dict[str, Any] | None, ...] = ()
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        """The games' names (canonical specs), in order."""
        return tuple(c["game"] for c in self.cards)

    def to_dict(self) -> Any:
        """``pokerdyn games --json``: the card of the one game asked, else a list of cards;
        a builder game asked by name also has ``public``, its public tree's sizes
        (``public_nodes``, ``rows``, ``infosets``, ``infoset_actions``, ``joint_deals``,
        ``bytes``; only ``histories`` and ``build_bytes_estimate`` when it is not built)."""
        out = [dict(c) for c in self.cards]
        for c, pub in zip(out, self.public):
            if pub is not None:
                c["public"] = pub
        return out[0] if self.single else out

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
            pub = next((p for c, p in zip(self.cards, self.public) if c is r), None)
            if pub is not None:
                lines.append(f"{'':<18}{_public_text(pub)}")
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


def _public_text(pub: dict[str, Any]) -> str:
    from pokerdyn.games.size import format_bytes

    if "public_nodes" not in pub:
        return (f"public tree (--engine public): not built here; about "
                f"{format_bytes(pub['build_bytes_estimate'])} to build")
    return (f"public tree (--engine public): {pub['public_nodes']:,} public nodes, "
            f"{pub['infosets']:,} information sets, {pub['infoset_actions']:,} information-set "
            f"actions, {format_bytes(pub['bytes'])}")


def public_sizes(spec: Any) -> dict[str, Any] | None:
    """The public tree's sizes of a builder game (None for other games): built when it
    stands for at most :data:`PUBLIC_LISTED` histories, else its build estimate."""
    from pokerdyn.api.numeric import PUBLIC_BUILDERS, _base

    if _base(spec) not in PUBLIC_BUILDERS:
        return None
    from pokerdyn.games.public.holdem import public_game, public_size_estimate

    n, need = public_size_estimate(spec)
    out: dict[str, Any] = {"histories": n, "build_bytes_estimate": need}
    if n <= PUBLIC_LISTED:
        out.update(public_game(spec).size())
    return out


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
    rows, public = [], []
    with limits, stages("build"):
        for spec in asked:
            g = game(spec)
            rows.append(describe(g, spec if isinstance(spec, str) else g.name))
            public.append(public_sizes(spec))
    return Catalog(tuple(rows), single=single, public=tuple(public), timings=stages.seconds)
