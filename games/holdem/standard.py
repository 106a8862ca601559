"""Standard builder games: Mercer's Simple and Multiround Hold'em (PokerGames.java of the
paper's code) and Leduc poker (OpenSpiel's ``leduc_poker`` rules)."""
from __future__ import annotations

import inspect
from fractions import Fraction

from pokerdyn.games.collusion import check_seats
from pokerdyn.games.errors import GameError
from pokerdyn.games.holdem.betting import Round
from pokerdyn.games.holdem.build import build_game, estimate_size
from pokerdyn.games.size import GameSize
from pokerdyn.games.holdem.cards import RANK_NAMES, Deck
from pokerdyn.games.holdem.evaluators import LeducEvaluator, MercerEvaluator
from pokerdyn.games.tree import Game

MERCER_DECK = Deck(ranks=5, copies=4)          # ranks 2..6, four copies each


def _players(players, allowed) -> int:
    if players not in allowed:
        raise GameError(f"players={players!r} is outside the allowed values "
                        f"{{{', '.join(map(str, allowed))}}}")
    return int(players)


def _colluders(colluders, n: int):
    """1-based seats -> 0-based (games.collusion.check_seats: one validator, one message)."""
    if colluders is None:
        return None
    seats = (colluders,) if isinstance(colluders, int) else tuple(colluders)
    return tuple(s - 1 for s in check_seats(seats, n))


def _bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise GameError(f"{name}={value!r} is not a boolean (true or false)")
    return value


def _int(name: str, value, low: int, high: int | None = None) -> int:
    """An integer option in ``[low, high]`` (GameError naming the value and the range)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    rng = f"[{low}, {'inf)' if high is None else f'{high}]'}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError(f"{name}={value!r} is not an integer; allowed: integers in {rng}")
    if value < low or (high is not None and value > high):
        raise GameError(f"{name}={value} is outside {rng}")
    return value


def _amount(name: str, value, positive: bool) -> Fraction:
    """A chip amount: > 0 (``positive``) or >= 0, exact (decimals as written)."""
    if isinstance(value, bool):
        value = str(value)
    try:
        x = Fraction(str(value)) if not isinstance(value, Fraction) else value
    except (TypeError, ValueError, ZeroDivisionError):
        raise GameError(f"{name}={value!r} is not a number") from None
    if x < 0 or (positive and x == 0):
        raise GameError(f"{name}={value} is outside {'(0' if positive else '[0'}, inf)")
    return x


def _text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else str(x)


# Options of the Mercer games and their defaults (the paper's PokerGames.java: a 20-card deck
# of ranks 2..6 with 4 copies each, ante 1, bet 4; SMH one orbit, MMH two per round).
MAX_RANKS = len(RANK_NAMES)


def _mercer(kind: str, players, bet, check, collusion, colluders, ranks, copies, max_bets,
            ante, collapse=True) -> Game:
    args, kw = _mercer_setup(kind, players, bet, check, collusion, colluders, ranks, copies,
                             max_bets, ante, collapse)
    return build_game(*args, **kw)


def _mercer_setup(kind: str, players, bet, check, collusion, colluders, ranks, copies,
                  max_bets, ante, collapse=True, public: bool = False) -> tuple[tuple, dict]:
    """The checked options as build_game's arguments (shared with the size estimate).
    ``public``: for the public-tree form (games.public), which builds MMH with 4 and 5
    players; the history tree stops at 3 (hundreds of millions of histories)."""
    if kind == "mmh" and not public and players in (4, 5, "4", "5"):
        raise GameError(f"players={players} is outside the allowed values {{2, 3}} of "
                        "mercer-mmh's history tree (hundreds of millions of histories); its "
                        "public tree takes 4 and 5 players: pokerdyn solve "
                        f"'mercer-mmh(players={players})' --engine public")
    n = _players(players, (2, 3, 4, 5) if kind == "smh" or public else (2, 3))
    collapse = _bool("collapse", collapse)
    check = _bool("check", check)
    ranks = _int("ranks", ranks, 1, MAX_RANKS)
    copies = _int("copies", copies, 1)
    max_bets = _int("max_bets", max_bets, 1)
    bet = _amount("bet", bet, positive=True)
    ante = _amount("ante", ante, positive=False)
    need = 2 * n + 2
    if need > ranks * copies:
        raise GameError(f"players={n} with ranks={ranks}, copies={copies}: the deal needs "
                        f"{need} cards, the deck has {ranks * copies}")
    if collusion == "none":
        collusion = None
    deck = Deck(ranks=ranks, copies=copies)
    if kind == "smh":
        rounds = (Round(ante=ante, hole_cards=2, bets=(bet,), check=check, max_bets=max_bets),
                  Round(shared_cards=2, bets=()))
    else:
        rounds = (Round(ante=ante, hole_cards=2, bets=(bet,), check=check, max_bets=max_bets),
                  Round(shared_cards=2, bets=(bet,), check=check, max_bets=max_bets))
    default_bets = 1 if kind == "smh" else 2
    opts = [f"players={n}"] + ([f"bet={_text(bet)}"] if bet != 4 else []) + \
        (["check=true"] if check else []) + ([f"collusion={collusion}"] if collusion else []) + \
        ([f"max_bets={max_bets}"] if max_bets != default_bets else []) + \
        ([] if collapse or kind == "mmh" else ["collapse=false"])
    top = deck.rank_name(ranks - 1)
    desc = (f"{n}-player {'Simple' if kind == 'smh' else 'Multiround'} Mercer Hold'em "
            f"({', '.join(opts)}): {ranks * copies} cards (ranks 2-{top}, {copies} each), "
            f"ante {_text(ante)}, bet {_text(bet)}")
    return (deck, rounds, MercerEvaluator(), n), dict(
        name=f"mercer-{kind}", collusion=collusion, colluders=_colluders(colluders, n),
        description=desc, collapse=None if collapse else False)


def mercer_smh(players: int = 2, bet=4, check: bool = False, collusion: str | None = None,
               colluders=None, ranks: int = 5, copies: int = 4, max_bets: int = 1,
               ante=1, collapse: bool = True) -> Game:
    """Simple Mercer Hold'em: ante ``ante``, two hole cards, ``max_bets`` orbits of betting
    (bet ``bet``, or fold), two shared cards, showdown with Mercer's 4-card ranking; the
    deck has ``ranks`` ranks (2, 3, ...) of ``copies`` cards each.  ``collapse`` (default)
    replaces the board's chance nodes by their exact expected showdown payoffs (no decision
    follows the board; :mod:`games.holdem.collapse`); False keeps one node per board."""
    return _mercer("smh", players, bet, check, collusion, colluders, ranks, copies, max_bets,
                   ante, collapse)


def mercer_mmh(players: int = 2, bet=4, check: bool = False, collusion: str | None = None,
               colluders=None, ranks: int = 5, copies: int = 4, max_bets: int = 2,
               ante=1) -> Game:
    """Multiround Mercer Hold'em: as SMH with ``max_bets`` (default two) orbits of betting
    before and after the two shared cards."""
    return _mercer("mmh", players, bet, check, collusion, colluders, ranks, copies, max_bets,
                   ante)


def leduc(players: int = 2, merge: bool = True, ranks: int | None = None,
          suits: int = 2) -> Game:
    """Leduc poker as OpenSpiel's ``leduc_poker``: ``ranks`` (default ``players + 1``, as
    OpenSpiel) ranks x ``suits`` suits, ante 1, one private card each, limit betting (raise 2
    then 4, at most 2 raises per round), one public card.  ``merge=False`` deals distinct
    cards, one chance node per player, so that histories and information sets match
    OpenSpiel's one to one."""
    args, kw = _leduc_setup(players, merge, ranks, suits)
    return build_game(*args, **kw)


def _leduc_setup(players, merge, ranks, suits) -> tuple[tuple, dict]:
    n = _players(players, tuple(range(2, 11)))
    merge = _bool("merge", merge)
    ranks = n + 1 if ranks is None else _int("ranks", ranks, 1, MAX_RANKS)
    suits = _int("suits", suits, 1, 4)
    if n + 1 > ranks * suits:
        raise GameError(f"players={n} with ranks={ranks}, suits={suits}: the deal needs "
                        f"{n + 1} cards, the deck has {ranks * suits}")
    # J Q K (A with 4 ranks); more ranks: the top ranks of a standard deck
    names = "JQKA"[:ranks] if ranks <= 4 else RANK_NAMES[13 - ranks:]
    deck = Deck(ranks=ranks, suits=suits, rank_names=names)
    rounds = (Round(ante=1, hole_cards=1, bets=(2,), max_bets=2, style="limit"),
              Round(shared_cards=1, bets=(4,), max_bets=2, style="limit"))
    deck_text = "" if (ranks, suits) == (n + 1, 2) else f", {ranks} ranks x {suits} suits"
    return (deck, rounds, LeducEvaluator(), n), dict(
        name="leduc", merge=merge, description=f"{n}-player Leduc poker (OpenSpiel "
                                               f"rules{deck_text}"
                                               f"{'' if merge else ', distinct cards'})")


def _sizer(factory, setup):
    """``size(limit=None, **options)``: the :class:`~games.holdem.build.GameSize` of
    ``factory(**options)`` from the same checked options, without building it."""
    sig = inspect.signature(factory)

    def size(limit: int | None = None, **options) -> GameSize:
        try:
            bound = sig.bind(**options)
        except TypeError as exc:
            raise GameError(f"{factory.__name__}: {exc}") from None
        bound.apply_defaults()
        args, kw = setup(**bound.arguments)
        deck, rounds, evaluator, n = args
        return estimate_size(deck, rounds, n, collapse=kw.get("collapse"),
                             evaluator=evaluator, merge=kw.get("merge", True), limit=limit)

    size.__name__ = f"{factory.__name__}_size"
    size.__doc__ = (f"Nodes, terminals and bytes of ``{factory.__name__}(**options)`` "
                    "without building it (games.holdem.build.estimate_size).")
    return size


mercer_smh_size = _sizer(mercer_smh, lambda **o: _mercer_setup("smh", **o))
mercer_mmh_size = _sizer(mercer_mmh, lambda **o: _mercer_setup("mmh", **o))
leduc_size = _sizer(leduc, _leduc_setup)


__all__ = ["MERCER_DECK", "leduc", "leduc_size", "mercer_mmh", "mercer_mmh_size", "mercer_smh",
           "mercer_smh_size"]
