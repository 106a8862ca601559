"""Standard builder games: Mercer's Simple and Multiround Hold'em (PokerGames.java of the
paper's code) and Leduc poker (OpenSpiel's ``leduc_poker`` rules)."""
from __future__ import annotations

from fractions import Fraction

from games.errors import GameError
from games.holdem.betting import Round
from games.holdem.build import build_game
from games.holdem.cards import RANK_NAMES, Deck
from games.holdem.evaluators import LeducEvaluator, MercerEvaluator
from games.tree import Game

MERCER_DECK = Deck(ranks=5, copies=4)          # ranks 2..6, four copies each


def _players(players, allowed) -> int:
    if isinstance(players, str) and players.isdigit():
        players = int(players)
    if players not in allowed:
        raise GameError(f"players={players!r} is outside {{{', '.join(map(str, allowed))}}}")
    return int(players)


def _colluders(colluders, n: int):
    """1-based seats -> 0-based (GameError naming the seat and the range)."""
    if colluders is None:
        return None
    if isinstance(colluders, str):   # "2,3" from a spec string
        colluders = tuple(int(x) if x.strip().isdigit() else x.strip()
                          for x in colluders.strip("()").split(",") if x.strip())
    seats = (colluders,) if isinstance(colluders, int) else tuple(colluders)
    for s in seats:
        if not isinstance(s, int) or not 1 <= s <= n:
            raise GameError(f"colluder seat {s!r} is outside [1, {n}]")
    return tuple(s - 1 for s in seats)


def _mercer(kind: str, players, bet, check, collusion, colluders) -> Game:
    n = _players(players, (2, 3, 4) if kind == "smh" else (2, 3))
    if isinstance(check, str):
        check = {"true": True, "false": False}.get(check.lower(), check)
    if not isinstance(check, bool):
        raise GameError(f"check={check!r} is not a boolean")
    if collusion == "none":
        collusion = None
    if isinstance(bet, str):
        try:
            bet = Fraction(bet)
        except ValueError:
            raise GameError(f"bet={bet!r} is not a number") from None
    if kind == "smh":
        rounds = (Round(ante=1, hole_cards=2, bets=(bet,), check=check, max_bets=1),
                  Round(shared_cards=2, bets=()))
    else:
        rounds = (Round(ante=1, hole_cards=2, bets=(bet,), check=check, max_bets=2),
                  Round(shared_cards=2, bets=(bet,), check=check, max_bets=2))
    name = f"mercer-{kind}"
    opts = [f"players={n}"] + ([f"bet={bet}"] if bet != 4 else []) + \
        (["check=true"] if check else []) + ([f"collusion={collusion}"] if collusion else [])
    desc = (f"{n}-player {'Simple' if kind == 'smh' else 'Multiround'} Mercer Hold'em "
            f"({', '.join(opts)}): 20 cards (ranks 2-6, 4 each), ante 1, bet {bet}")
    return build_game(MERCER_DECK, rounds, MercerEvaluator(), n, name=name,
                      collusion=collusion, colluders=_colluders(colluders, n), description=desc)


def mercer_smh(players: int = 2, bet=4, check: bool = False, collusion: str | None = None,
               colluders=None) -> Game:
    """Simple Mercer Hold'em: ante 1, two hole cards, one orbit of betting (bet ``bet``, or
    fold), two shared cards, showdown with Mercer's 4-card ranking."""
    return _mercer("smh", players, bet, check, collusion, colluders)


def mercer_mmh(players: int = 2, bet=4, check: bool = False, collusion: str | None = None,
               colluders=None) -> Game:
    """Multiround Mercer Hold'em: as SMH with two orbits of betting before and after the two
    shared cards."""
    return _mercer("mmh", players, bet, check, collusion, colluders)


def leduc(players: int = 2, merge: bool = True) -> Game:
    """Leduc poker as OpenSpiel's ``leduc_poker``: ``players + 1`` ranks x 2 suits, ante 1,
    one private card each, limit betting (raise 2 then 4, at most 2 raises per round), one
    public card.  ``merge=False`` deals distinct cards, one chance node per player, so that
    histories and information sets match OpenSpiel's one to one."""
    n = _players(players, tuple(range(2, 11)))
    if isinstance(merge, str):
        merge = {"true": True, "false": False}.get(merge.lower(), merge)
    if not isinstance(merge, bool):
        raise GameError(f"merge={merge!r} is not a boolean")
    # J Q K (A with 3 players); more players: the top ranks of a standard deck
    names = "JQKA"[:n + 1] if n <= 3 else RANK_NAMES[13 - (n + 1):]
    deck = Deck(ranks=n + 1, suits=2, rank_names=names)
    rounds = (Round(ante=1, hole_cards=1, bets=(2,), max_bets=2, style="limit"),
              Round(shared_cards=1, bets=(4,), max_bets=2, style="limit"))
    return build_game(deck, rounds, LeducEvaluator(), n, name="leduc", merge=merge,
                      description=f"{n}-player Leduc poker (OpenSpiel rules"
                                  f"{'' if merge else ', distinct cards'})")


__all__ = ["MERCER_DECK", "leduc", "mercer_mmh", "mercer_smh"]
