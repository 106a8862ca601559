"""The explicit registry of games: name -> factory.  Adding a game is one line here.

Games are named by spec strings (games.catalog.spec, OpenSpiel's convention):
``river(street=half,max_bets=2)``; ``openspiel:leduc_poker(players=3)`` imports an OpenSpiel
game.  A built game's ``name`` is its canonical spec, options equal to the factory's defaults
left out, so that output and exports name the exact variant.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
from collections import OrderedDict
from collections.abc import MutableMapping
from fractions import Fraction
from functools import lru_cache
from numbers import Real
from typing import TYPE_CHECKING, Any, Callable, Iterator

from pokerdyn.games.catalog.spec import OPENSPIEL_PREFIX, format_spec, format_value, parse_spec, shorten
from pokerdyn.games.errors import GameError
from pokerdyn.games.size import check_size, current_limits

if TYPE_CHECKING:
    from pokerdyn.games.tree import Game


class LazyRegistry(MutableMapping):
    """A name -> callable registry whose shipped entries are ``"module:attribute"`` strings,
    imported when the entry is first read (``GAMES["selby"]``): naming, listing and testing
    membership import nothing, so ``import pokerdyn.games`` loads no game definition
    (issue 35).  Entries can be set and deleted like a dict's (tests register stand-ins)."""

    def __init__(self, refs: dict[str, str]) -> None:
        self._data: dict[str, Any] = dict(refs)
        self._shipped: dict[str, str] = dict(refs)
        self._loaded: dict[str, Callable] = {}

    def __getitem__(self, name: str) -> Callable:
        value = self._data[name]
        if isinstance(value, str):
            module, _, attr = value.partition(":")
            value = self._loaded[name] = getattr(importlib.import_module(module), attr)
            self._data[name] = value
        return value

    def __setitem__(self, name: str, value: Callable) -> None:
        self._data[name] = value

    def __delitem__(self, name: str) -> None:
        del self._data[name]

    def __contains__(self, name: object) -> bool:  # without importing the entry
        return name in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(self._data)})"

    def shipped(self, name: str) -> bool:
        """Whether ``name`` holds the entry pokerdyn ships (not one set since)."""
        value = self._data.get(name)
        return name in self._shipped and (value == self._shipped[name]
                                          or value is self._loaded.get(name))


_KUHN = "pokerdyn.games.catalog.kuhn"
_HOLDEM = "pokerdyn.games.holdem.standard"
GAMES: LazyRegistry = LazyRegistry({
    "kuhn": f"{_KUHN}:kuhn",
    "kuhn3": f"{_KUHN}:kuhn3",
    "kuhn3-full-simplified": f"{_KUHN}:kuhn3_full_simplified",
    "kuhn3-third": f"{_KUHN}:kuhn3_third",
    "kuhn3-third-full": f"{_KUHN}:kuhn3_third_full",
    "skp": f"{_KUHN}:skp",
    "river": "pokerdyn.games.catalog.river:river",
    "mercer-smh": f"{_HOLDEM}:mercer_smh",
    "mercer-mmh": f"{_HOLDEM}:mercer_mmh",
    "leduc": f"{_HOLDEM}:leduc",
    "selby": "pokerdyn.games.preflop.selby:selby_game",
    "blind-vs-blind": "pokerdyn.games.tournament.endgame:blind_vs_blind_game",
})

# Games whose factory takes keyword options (name -> allowed option names); see make_game.
GAME_OPTIONS: dict[str, tuple[str, ...]] = {
    "kuhn3": ("cards",),
    "river": ("dist1", "dist2", "street", "max_bets", "bet_size"),
    "mercer-smh": ("players", "bet", "check", "collusion", "colluders", "ranks", "copies",
                   "max_bets", "ante", "collapse"),
    "mercer-mmh": ("players", "bet", "check", "collusion", "colluders", "ranks", "copies",
                   "max_bets", "ante"),
    "leduc": ("players", "merge", "ranks", "suits"),
    "selby": ("raises", "sb"),
    "blind-vs-blind": ("stacks", "blinds", "ante", "button", "payouts", "buckets"),
}


# Option checks made before the factory runs, where a factory's own parsing would speak
# first (int("half"), a float where a list is iterated, an int too large for C) or where a
# value has no upper bound but a size (max_bets of 10**11 recurses 10**11 deep).  The
# factories check the rest (ranges, values that depend on other options) with their own
# messages.
@dataclasses.dataclass(frozen=True)
class Rule:
    """``kind``: "int" (an integer, or an integral number, in ``[low, high]``), "number" (a
    finite number at most ``high``; ``to_float``: Fractions become floats, for factories
    that format the value), "seats" (a seat or a list of seats: integers), "numbers" (a
    number or a list of numbers), "word" (one of ``choices``, or None).  ``allowed``: the
    allowed range as the messages write it."""

    kind: str
    high: float = math.inf
    allowed: str = ""
    to_float: bool = False
    low: float = -math.inf
    choices: tuple = ()
    counts: tuple = ()
    cap: str = ""          # the range named when ``high`` is passed (default ``allowed``)


MAX_AMOUNT = 10**6        # chips (bets, antes)
_MERCER = {"bet": Rule("number", MAX_AMOUNT, f"(0, {MAX_AMOUNT}]"),
           "ante": Rule("number", MAX_AMOUNT, f"[0, {MAX_AMOUNT}]"),
           "colluders": Rule("seats"),
           "copies": Rule("int", 10**6, "[1, inf)", cap="[1, 1000000]"),
           "collusion": Rule("word", choices=("none", "weak", "pot", "strong")),
           "max_bets": Rule("int", 64, "[1, 64]")}
OPTION_RULES: dict[str, dict[str, Rule]] = {
    "kuhn3": {"cards": Rule("int", 13, "[3, 13] (a deck of 3..13 cards)", low=3)},
    "river": {"max_bets": Rule("int", 100, "[1, 100]"),
              "bet_size": Rule("number", MAX_AMOUNT, f"(0, {MAX_AMOUNT}]")},
    "mercer-smh": _MERCER,
    "mercer-mmh": _MERCER,
    "selby": {"sb": Rule("number", 1, "(0, 1]", to_float=True)},
    "blind-vs-blind": {"stacks": Rule("numbers", 10**9, "(0, 1000000000]", counts=(3, 6)),
                       "blinds": Rule("numbers", MAX_AMOUNT, f"[0, {MAX_AMOUNT}]", low=0),
                       "ante": Rule("numbers", MAX_AMOUNT, f"[0, {MAX_AMOUNT}]", low=0),
        "payouts": Rule("numbers", choices=("icm", "chips")),
        "button": Rule("int", 100, "[0, seats - 1]", low=0)},
}


def _shown(value: Any) -> str:
    try:
        text = repr(value) if isinstance(value, str) else format_value(value)
    except (GameError, TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else shorten(text, 40)


def _is_number(v: Any) -> bool:
    return isinstance(v, Real) and not isinstance(v, bool) and math.isfinite(float(v))


def check_option(game: str, key: str, value: Any) -> Any:
    """The value of option ``key`` of ``game`` checked against OPTION_RULES (integral
    numbers of an "int" option become ints); GameError naming the option, the value and
    what is allowed otherwise."""
    rule = OPTION_RULES.get(game, {}).get(key)
    if rule is None or value is None:
        return value
    head = f"{key}={_shown(value)}"
    if rule.kind == "int":
        if _is_number(value) and float(value).is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise GameError(f"{head} is not an integer; allowed: integers in {rule.allowed}")
    elif rule.kind == "number":
        if not _is_number(value):
            raise GameError(f"{head} is not a number; allowed: numbers in {rule.allowed}")
        if rule.to_float and isinstance(value, Fraction):
            value = float(value)
    elif rule.kind == "seats":
        seats = (value,) if isinstance(value, int) and not isinstance(value, bool) else value
        if not isinstance(seats, (tuple, list)) or not seats or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in seats):
            raise GameError(f"{head} is not a list of seats (1-based integers); allowed: a "
                            "seat or a list of seats, e.g. colluders=[1,2]")
    elif rule.kind == "word":
        if value not in rule.choices:
            raise GameError(f"{head} is not one of {', '.join(rule.choices)}")
    elif rule.kind == "numbers":
        if isinstance(value, str) and rule.choices:
            return value  # the factory names the allowed words
        items = (value,) if _is_number(value) else value
        if not isinstance(items, (tuple, list)) or not items or \
                not all(_is_number(x) for x in items):
            words = f" or {', '.join(rule.choices)}" if rule.choices else ""
            raise GameError(f"{head} is not a list of numbers; allowed: finite numbers, e.g. "
                            f"{key}=[10,6,4]{words}")
        if rule.counts and not rule.counts[0] <= len(items) <= rule.counts[1]:
            raise GameError(f"{len(items)} seats: a blind-versus-blind endgame needs "
                            f"{rule.counts[0]} to {rule.counts[1]} seats; allowed: "
                            f"{key} of {rule.counts[0]} to {rule.counts[1]} numbers")
        small = [x for x in items if x < rule.low]
        if small:  # the factory would say so only after its hand model is built
            raise GameError(f"{key}={_shown(small[0])} is outside the allowed range "
                            f"[{rule.low:g}, inf)")
        big = [x for x in items if x > rule.high]
        if big:
            raise GameError(f"{head} holds {_shown(big[0])}, outside the allowed range "
                            f"{rule.allowed}")
        return value
    if rule.kind in ("int", "number") and (value > rule.high or value < rule.low):
        raise GameError(f"{head} is outside the allowed range {rule.cap or rule.allowed}")
    return value


# Size estimates of the games that can outgrow memory (the resource guard, games.size):
# name -> size(limit, **options) -> GameSize, from the same checked options as the factory.
SIZES: LazyRegistry = LazyRegistry({
    "mercer-smh": f"{_HOLDEM}:mercer_smh_size",
    "mercer-mmh": f"{_HOLDEM}:mercer_mmh_size",
    "leduc": f"{_HOLDEM}:leduc_size",
})


def get_game(name: str, max_memory: str | int | None = None, force: bool | None = None) -> Game:
    """The game named by the spec ``name`` (a registered name, ``name(key=value,...)`` or
    ``openspiel:<OpenSpiel game string>``); built once per canonical spec and cached
    (games of more than CACHE_NODES nodes are rebuilt instead, see make_game).
    ``max_memory``, ``force``: the resource guard, as in :func:`make_game`."""
    return make_game(name, max_memory=max_memory, force=force)


def make_game(name: str, *, max_memory: str | int | None = None, force: bool | None = None,
              **options: Any) -> Game:
    """The game of the spec ``name`` built with its options and the keyword ``options``
    (see GAME_OPTIONS); an option given both ways must agree.  Option values must be
    hashable (tuples for lists); games are cached per canonical spec.

    Before a game is built its size is estimated (:data:`SIZES`, OpenSpiel games by
    :func:`games.io.openspiel.estimate_openspiel`) and checked against ``max_memory``
    (bytes or ``"4G"``; default: the limit of :func:`games.size.resource_limits`, else the
    available memory); ``force=True`` builds anyway (:func:`games.size.check_size`).

    Raises GameError for an unknown game or option (listing the allowed ones), a bad option
    value (OPTION_RULES, then the factory) and a game too large for the memory limit.
    """
    base, spec_opts = parse_spec(name)
    if base.startswith(OPENSPIEL_PREFIX):
        if options:
            raise GameError(f"{shorten(name)} is an OpenSpiel game: give its options inside "
                            "OpenSpiel's game string, not as keywords")
        text = base[len(OPENSPIEL_PREFIX):]
        if text not in _OPENSPIEL_LOADED:
            _guard_openspiel(text, max_memory, force)
        game = _openspiel(text)
        _OPENSPIEL_LOADED.add(text)
        return game
    for k, v in options.items():
        if k in spec_opts and spec_opts[k] != v:
            raise GameError(f"option {k} given twice for game {base!r}, with different values: "
                            f"{format_spec('x', {k: spec_opts[k]})[2:-1]} in the spec, "
                            f"{format_spec('x', {k: v})[2:-1]} as a flag or keyword")
    opts = {**spec_opts, **options}
    if base not in GAMES:
        raise GameError(f"unknown game {shorten(base)}; available: {', '.join(GAMES)} (or "
                        f"{OPENSPIEL_PREFIX}<OpenSpiel game string>)")
    allowed = GAME_OPTIONS.get(base, ())
    for k in opts:
        if k not in allowed:
            raise GameError(f"game {base!r} has no option {shorten(k, 40)} (options: "
                            f"{', '.join(allowed) or 'none'}); no other option is allowed")
    opts = {k: check_option(base, k, v) for k, v in opts.items()}
    defaults = option_defaults(base)
    kept = {k: v for k, v in opts.items() if not _same(v, defaults.get(k, _MISSING))}
    return _make_game(base, tuple(sorted(kept.items())), max_memory, force)


_MISSING = object()


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same kind (``True`` is not the default ``1``)."""
    if b is _MISSING or isinstance(a, bool) != isinstance(b, bool):
        return False
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def option_defaults(name: str) -> dict[str, Any]:
    """The default value of each option of the registered game ``name`` (read from its
    factory's signature; options without a default are left out)."""
    try:
        sig = inspect.signature(GAMES[name])
    except (TypeError, ValueError):
        return {}
    return {k: p.default for k, p in sig.parameters.items()
            if k in GAME_OPTIONS.get(name, ()) and p.default is not inspect.Parameter.empty}


# Built games are kept (most recent 256) unless larger than CACHE_NODES nodes: a game of
# 10^8 nodes holds about 4 GB, and a caller solving several in turn (the collusion command:
# one game per seating) must be able to let each go.
CACHE_NODES = 5_000_000
_BUILT: OrderedDict[tuple[str, tuple], Game] = OrderedDict()


def _make_game(name: str, options: tuple, max_memory=None, force=None) -> Game:
    key = (name, options)
    if key in _BUILT:
        _BUILT.move_to_end(key)
        return _BUILT[key]
    if name in SIZES:
        check_size(shorten(format_spec(name, dict(options))),
                   lambda limit: SIZES[name](limit, **dict(options)), max_memory, force)
    game = _build(name, options)
    if game.n_nodes <= CACHE_NODES:
        _BUILT[key] = game
        if len(_BUILT) > 256:
            _BUILT.popitem(last=False)
    return game


def _build(name: str, options: tuple) -> Game:
    opts = dict(options)
    spec = format_spec(name, opts)
    try:
        game = GAMES[name](**opts)
    except GameError:
        raise
    except (TypeError, ValueError, ArithmeticError) as exc:  # a value of the wrong kind
        raise GameError(f"{shorten(spec)}: an option value is not allowed "
                        f"({' '.join(str(exc).split())[:200]})") from None
    return game if game.name == spec else dataclasses.replace(game, name=spec)


_OPENSPIEL_LOADED: set[str] = set()


def _guard_openspiel(text: str, max_memory, force) -> None:
    """The resource guard for an OpenSpiel import: Knuth's estimate of the histories
    (games.io.openspiel.estimate_openspiel, a fraction of a second), before the walk."""
    import importlib

    loader = importlib.import_module("pokerdyn.games.io.openspiel")

    estimate_openspiel = getattr(loader, "estimate_openspiel", None)
    if estimate_openspiel is None:  # a stand-in loader (tests) has no estimate
        return
    MAX_NODES = loader.MAX_NODES
    spec = shorten(OPENSPIEL_PREFIX + text)
    est = check_size(spec, lambda limit: estimate_openspiel(text), max_memory, force)
    forced = current_limits().force if force is None else force
    if est is not None and est.nodes > 2 * MAX_NODES and not forced:
        raise GameError(f"game {spec} has about {est.nodes:,} histories (estimate), more than "
                        f"the allowed {MAX_NODES:,} of the OpenSpiel importer (max_nodes of "
                        "pokerdyn.games.io.openspiel.load_openspiel; --force tries anyway)")


@lru_cache(maxsize=8)
def _openspiel(text: str) -> Game:
    # the one place that imports the OpenSpiel loader (pyspiel itself is an optional extra,
    # imported inside; its absence is a GameError naming the extra)
    from pokerdyn.games.io.openspiel import openspiel_game

    return openspiel_game(OPENSPIEL_PREFIX + text)
