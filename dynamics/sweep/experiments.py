"""Experiments a parameter sweep can run: name -> (accepted arguments, function).

An experiment is a function ``run(cell, seed) -> dict`` of one grid cell (a dict holding a
value for every accepted argument) and a :class:`numpy.random.SeedSequence`; it returns
scalar results (numbers or strings) that become the columns of one row of the sweep table.
It must take all of its randomness from ``seed`` so that a cell replays bit for bit on any
worker.  Each argument has a default and a converter that checks one value and returns it
in a canonical JSON form (``9`` and ``9.0`` are the same pot), so that bad input is reported
before anything runs.  Adding an experiment is one entry in :data:`EXPERIMENTS`.
"""
from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

from pokerdyn.games import GameError
from pokerdyn.games.errors import shown

Converter = Callable[[Any, str], Any]


@dataclass(frozen=True)
class Param:
    """One accepted argument: its default (``None``: "not given", the function's own
    default) and a converter ``convert(value, name) -> canonical value``."""

    default: Any
    convert: Converter
    help: str = ""


@dataclass(frozen=True)
class Experiment:
    """A named experiment: accepted arguments and ``run(cell, seed) -> dict`` of scalars."""

    name: str
    params: Mapping[str, Param]
    run: Callable[[dict, np.random.SeedSequence], dict]
    doc: str = ""
    # check(cell, given) before anything runs: ``cell`` holds the values of ``check_keys``
    # (each combination of the grid once), ``given`` the arguments the file sets
    check: Callable[[dict, frozenset], None] | None = None
    check_keys: tuple[str, ...] = ()
    # estimated core-seconds of one cell from the values of ``cost_keys`` (the sweep's
    # size guard, dynamics.sweep.spec.check_size); None: CELL_OVERHEAD_S only
    cost: Callable[[dict], float] | None = None
    cost_keys: tuple[str, ...] = ()


# Rough costs for the size guard (one core of a 2020s laptop): each cell also writes one
# Parquet file from the main process; the kernels' measured rates.
CELL_OVERHEAD_S = 0.005
SIMULATE_ROUND_S = 1e-7     # repeated play of skp: about 1e7 rounds/s
FP_NODE_ITERATION_S = 2e-7  # fictitious play: per game-tree node and iteration
TOY_DRAW_S = 1e-8
TABLE_ROUND_S = 5e-7        # agent-based table (dynamics.play.table): about 2e6 rounds/s


# --- converters -------------------------------------------------------------------------

def short(x: Any, width: int = 60) -> str:
    """``x`` for a one-line message (games.errors.shown): numbers as written, a huge integer
    by its size, anything else by its repr, cut to about ``width`` characters."""
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return shown(x if isinstance(x, int) else str(x), width)
    return shown(repr(x), width)


def _allowed(conv: Converter, text: str) -> Converter:
    """Attach what ``conv`` accepts (``conv.allowed``), for the sweep file's type errors."""
    conv.allowed = text  # type: ignore[attr-defined]
    return conv


def allowed_values(conv: Converter) -> str:
    """What a converter accepts, in words (``conv.allowed``: text, or a function of none
    for lists known only once a module is imported)."""
    text = getattr(conv, "allowed", "a number, a string or a list of them")
    return text() if callable(text) else text


def number(low: float = -math.inf, high: float = math.inf, low_open: bool = False,
           integer: bool = False) -> Converter:
    """A finite float (or int) in ``[low, high]`` (``(low, high]`` if ``low_open``)."""
    rng = f"{'(' if low_open else '['}{low:g}, {high:g}]"
    kind = f"{'integers' if integer else 'numbers'} in {rng}"

    def convert(x: Any, name: str) -> float | int:
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise GameError(f"{name}={short(x)} is not a number; allowed: {kind}")
        try:
            v = float(x)
        except OverflowError:  # an integer beyond the floats
            raise GameError(f"{name}={short(x)} is outside the allowed range {rng}") from None
        if integer and math.isfinite(v) and not v.is_integer():
            raise GameError(f"{name}={short(x)} is not an integer; allowed: {kind}")
        ok = (v > low if low_open else v >= low) and v <= high
        if not (math.isfinite(v) and ok):
            raise GameError(f"{name}={short(x)} is outside the allowed range {rng}")
        return int(v) if integer else v
    return _allowed(convert, kind)


def choice(*allowed: Any) -> Converter:
    """One of the ``allowed`` values."""
    names = ", ".join(map(str, allowed))

    def convert(x: Any, name: str) -> Any:
        if isinstance(x, bool) or not isinstance(x, (str, int, float)) or x not in allowed:
            raise GameError(f"{name}={short(x)} is not one of: {names}")
        return x
    return _allowed(convert, f"one of: {names}")


def per_player(conv: Converter, n: int = 3, scalar_ok: bool = True) -> Converter:
    """A scalar (same for every player, if ``scalar_ok``) or a list of ``n`` values."""
    def convert(x: Any, name: str) -> Any:
        if isinstance(x, (list, tuple)):
            if len(x) != n:
                raise GameError(f"{name}={short(list(x))} must have {n} entries (one per "
                                f"player)")
            return [conv(v, f"{name}[{i}]") for i, v in enumerate(x)]
        if not scalar_ok:
            raise GameError(f"{name}={short(x)} must be a list of {n} numbers")
        return conv(x, name)
    one = allowed_values(conv)
    return _allowed(convert, f"{one} or a list of {n} of them (one per player)" if scalar_ok
                    else f"a list of {n} {one} (one per player)")


def estimator_name(x: Any, name: str) -> str:
    """One of :data:`dynamics.play.estimators.ESTIMATORS` (unbiased, paper, corrected, ml)."""
    from pokerdyn.dynamics.play.estimators import ESTIMATORS
    return choice(*ESTIMATORS)(x, name)


def _estimators() -> str:
    from pokerdyn.dynamics.play.estimators import ESTIMATORS
    return f"one of: {', '.join(ESTIMATORS)}"


def _games() -> str:
    from pokerdyn.games import GAMES
    return f"one of: {', '.join(GAMES)}, or a spec name(key=value,...)"


def game_name(x: Any, name: str) -> str:
    """A registered game, or a spec of one (``river(street=half)``; games.catalog.spec)."""
    from pokerdyn.games import GAMES
    from pokerdyn.games.catalog.registry import make_game
    if isinstance(x, str) and "(" in x and x.split("(")[0].strip() in GAMES:
        try:
            make_game(x)  # checks the options
        except GameError as exc:
            raise GameError(f"{name}: {exc}") from None
        return x
    return choice(*GAMES)(x, name)


_allowed(estimator_name, _estimators)
_allowed(game_name, _games)


# --- experiments -------------------------------------------------------------------------

def _toy(cell: dict, seed: np.random.SeedSequence) -> dict:
    """A few normal draws: a fast, exactly reproducible experiment for tests."""
    x = np.random.default_rng(seed).normal(cell["mu"], cell["sigma"], size=cell["n"])
    return {"mean": float(x.mean()), "first": float(x[0]), "last": float(x[-1])}


def random_profile(cg, rng: np.random.Generator) -> np.ndarray:
    """A behaviour profile uniform on each information set's simplex (Dirichlet(1))."""
    sigma = np.zeros(cg.legal.shape)
    for I, n in enumerate(cg.n_actions):
        sigma[I, :n] = rng.dirichlet(np.ones(int(n)))
    return sigma


def _fp(cell: dict, seed: np.random.SeedSequence) -> dict:
    """Fictitious play from a random start drawn from ``seed``."""
    from pokerdyn.games import compile_game, get_game
    from pokerdyn.games.strategy import params_from_strategy
    from pokerdyn.solvers import fictitious_play

    game = get_game(cell["game"])
    cg = compile_game(game, {} if cell["pot"] is None else {"P": cell["pot"]})
    sigma0 = random_profile(cg, np.random.default_rng(seed))
    res = fictitious_play(cg, iterations=cell["iterations"], schedule=cell["schedule"],
                          averaging=cell["averaging"], sigma0=sigma0)
    out: dict[str, Any] = {"iterations_run": res.iterations, "nash_conv": res.nash_conv}
    out.update({f"payoff_{p + 1}": float(v) for p, v in enumerate(res.expected_payoffs)})
    out.update({f"init_{k}": v for k, v in params_from_strategy(cg, sigma0).items()})
    out.update({f"final_{k}": v for k, v in params_from_strategy(cg, res.strategy).items()})
    return out


def _pot_values(game, cell: dict, given: frozenset) -> dict:
    """The game's parameter values for ``cell["pot"]`` (GameError naming ``pot``, not the
    game's ``P``, when the game has no pot or the pot is outside its range)."""
    from pokerdyn.games import check_values

    pot = cell["pot"]
    if "P" not in game.param_names:
        if "pot" in given and pot is not None:
            raise GameError(f"pot={short(pot)} is set, but game {cell['game']!r} has no pot "
                            f"parameter P; allowed: leave pot out for this game")
        return {}
    if pot is None:
        if game.defaults.get("P") is None:
            raise GameError(f"game {cell['game']!r} needs a pot: set pot in [fixed] or "
                            f"[grid]; allowed: a number > 0 in the game's range of P")
        return {}
    try:
        check_values(game, {"P": pot})
    except GameError as exc:
        raise GameError(f"pot={short(pot)} for game {cell['game']!r}: {exc}") from None
    return {"P": pot}


def _fp_check(cell: dict, given: frozenset = frozenset()) -> None:
    from pokerdyn.games import get_game
    _pot_values(get_game(cell["game"]), cell, given)


def _fp_cost(cell: dict) -> float:
    from pokerdyn.games import get_game
    return cell["iterations"] * get_game(cell["game"]).n_nodes * FP_NODE_ITERATION_S


def _simulate_check(cell: dict, given: frozenset = frozenset()) -> None:
    """The pot and the deal count, which depend on the game: checked before the store is
    created (the kernel would reject them only when the cell runs)."""
    from pokerdyn.dynamics.play.tables import deal_counts
    from pokerdyn.games import get_game

    game = get_game(cell["game"])
    if "P" not in game.param_names:  # the repeated-play model is Billingham's (pot P)
        raise GameError(f"game={cell['game']!r} has no pot parameter P; allowed for experiment "
                        f"'simulate': games with a pot (e.g. skp, kuhn3-third)")
    _pot_values(game, cell, given | {"pot"})
    allowed = deal_counts(game)
    if cell["deals"] not in allowed:
        how = "" if "deals" in given else " (the default, skp's; set deals in [fixed])"
        raise GameError(f"deals={cell['deals']}{how} is not allowed for game "
                        f"{cell['game']!r}; allowed: {' or '.join(map(str, allowed))}")


def flatten_result(obj: Any, max_len: int = 8) -> dict[str, Any]:
    """Scalar columns of a result dataclass: scalars as they are, dicts as ``name_key``,
    short numeric sequences as ``name_1 ... name_n``; long series are left out."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if isinstance(v, (bool, int, float, str, np.number)):
            out[f.name] = v.item() if isinstance(v, np.number) else v
        elif isinstance(v, Mapping):
            out.update({f"{f.name}_{k}": float(x) for k, x in v.items()
                        if isinstance(x, (int, float, np.number))})
        elif isinstance(v, (list, tuple, np.ndarray)) and np.ndim(v) == 1 and len(v) <= max_len:
            arr = np.asarray(v)
            if arr.dtype.kind in "iuf":
                out.update({f"{f.name}_{i + 1}": x.item() for i, x in enumerate(arr)})
    return out


def _simulate(cell: dict, seed: np.random.SeedSequence) -> dict:
    """One repeated-play run (dynamics.play.repeated.simulate), imported on first use."""
    from pokerdyn.dynamics.play.repeated import simulate

    kw = {k: (tuple(v) if isinstance(v, list) else v) for k, v in cell.items()}
    # fields that echo an argument (rounds, pot ...) are already columns of the row
    return {k: v for k, v in flatten_result(simulate(seed=seed, **kw)).items() if k not in cell}


def scalar_or_list(conv: Converter, what: str = "one per agent") -> Converter:
    """A scalar (the same for every agent) or a list of them (``what``); the list's length
    depends on the game and is checked by the experiment's ``check``."""
    def convert(x: Any, name: str) -> Any:
        if isinstance(x, (list, tuple)):
            if not x:
                raise GameError(f"{name}=[] is empty; allowed: {allowed_values(conv)} or a "
                                f"list of them ({what})")
            return [conv(v, f"{name}[{i}]") for i, v in enumerate(x)]
        return conv(x, name)
    return _allowed(convert, f"{allowed_values(conv)} or a list of them ({what})")


def number_list(conv: Converter, what: str, empty_ok: bool = False) -> Converter:
    """A list of values (``what``; its length is checked by the experiment's ``check``)."""
    def convert(x: Any, name: str) -> Any:
        if not isinstance(x, (list, tuple)) or (not x and not empty_ok):
            raise GameError(f"{name}={short(x)} is not a list; allowed: a list of "
                            f"{allowed_values(conv)} ({what})")
        return [conv(v, f"{name}[{i}]") for i, v in enumerate(x)]
    return _allowed(convert, f"a list of {allowed_values(conv)} ({what})")


# --- the agent-based table (dynamics.play.table) -------------------------------------------

TABLE_RULES = ("gradient", "fictitious", "fixed")
ALLIANCE_TABLES = ("none", "neutral", "allied")


def _as_list(value: Any, n: int) -> list:
    return list(value) if isinstance(value, list) else [value] * n


def _table_check(cell: dict, given: frozenset = frozenset()) -> None:
    """What depends on the game: the pot, the deal count, one entry per agent in players,
    k and L, one initial frequency per named parameter, the pooled agents, and the
    alliance tables' game and pot (Billingham sec. 2.1: kuhn3-third at P = 5 or 9)."""
    from pokerdyn.dynamics.play.tables import deal_counts
    from pokerdyn.games import get_game

    game = get_game(cell["game"])
    n = game.n_players
    _pot_values(game, cell, given | {"pot"})
    if cell["deals"] is not None and cell["deals"] not in deal_counts(game):
        raise GameError(f"deals={cell['deals']} is not allowed for game {cell['game']!r}; "
                        f"allowed: {' or '.join(map(str, deal_counts(game)))}")
    for key in ("players", "k", "L"):
        if isinstance(cell[key], list) and len(cell[key]) != n:
            raise GameError(f"{key}={short(cell[key])} has {len(cell[key])} entries; allowed: "
                            f"one value or {n} (one per agent of {cell['game']!r})")
    m = len(game.named)
    if cell["init"] is not None and len(cell["init"]) != m:
        raise GameError(f"init={short(cell['init'])} has {len(cell['init'])} entries; "
                        f"allowed: {m} frequencies in [0, 1] "
                        f"({', '.join(p.name for p in game.named)})")
    for p in game.named:
        I = game.infosets[game.infoset_index(p.infoset)]
        if len(I.actions) != 2:
            raise GameError(f"game={cell['game']!r}: parameter {p.name} is at a set of "
                            f"{len(I.actions)} actions; allowed for experiment 'table': "
                            "games whose named parameters are two-action choices")
    pool = cell["pool"] or []
    if len(set(pool)) != len(pool) or any(a >= n for a in pool):
        raise GameError(f"pool={short(pool)}; allowed: distinct agent indices in "
                        f"[0, {n - 1}]")
    if cell["alliance"] != "none":
        if cell["game"] != "kuhn3-third" or cell["pot"] not in (5, 9):
            raise GameError(f"alliance={cell['alliance']!r} seats Billingham's sec. 2.1 "
                            f"players of kuhn3-third at pot 5 or 9; allowed with "
                            f"game={cell['game']!r}, pot={short(cell['pot'])}: alliance = "
                            "'none'")
        if "players" in given or "init" in given:
            raise GameError(f"alliance={cell['alliance']!r} seats its own fixed players; "
                            "allowed: leave players and init out (or alliance = 'none')")


def _table_players(cell: dict, game) -> tuple[list, list[tuple[int, ...]]]:
    """The agents of a table cell and the alliances whose pooled payoff is reported."""
    from pokerdyn.dynamics.play.agents import FictitiousLearner, FixedPlayer, GradientLearner
    from pokerdyn.dynamics.play.experiments import alliance_players

    n = game.n_players
    pool = [tuple(cell["pool"])] if cell["pool"] else []
    if cell["alliance"] != "none":
        neutral, allied = alliance_players(int(cell["pot"]))
        return (allied if cell["alliance"] == "allied" else neutral), pool or [(0, 1)]
    kinds = {"gradient": GradientLearner, "fictitious": FictitiousLearner,
             "fixed": FixedPlayer}
    init = {} if cell["init"] is None else \
        dict(zip((p.name for p in game.named), cell["init"]))
    players = [kinds[r](name=f"agent{i}", k=k, L=L, init=init, estimator=cell["estimator"])
               for i, (r, k, L) in enumerate(zip(_as_list(cell["players"], n),
                                                  _as_list(cell["k"], n),
                                                  _as_list(cell["L"], n)))]
    return players, pool


def _table(cell: dict, seed: np.random.SeedSequence) -> dict:
    """One agent-based table (dynamics.play.table.play_table): per agent its mean
    ex-showdown payoff per round, batch-means standard error and net chips; the pooled
    payoff of the alliance; each adaptive agent's final frequencies per seat; for the
    alliance tables also each agent's exact expected payoff (the reference)."""
    from pokerdyn.dynamics.play.agents import RULES
    from pokerdyn.dynamics.play.table import play_table
    from pokerdyn.dynamics.play.tables import deal_counts
    from pokerdyn.games import get_game

    game = get_game(cell["game"])
    players, pool = _table_players(cell, game)
    deals = max(deal_counts(game)) if cell["deals"] is None else cell["deals"]
    res = play_table(cell["game"], players, pot=cell["pot"], rounds=cell["rounds"],
                     seating=cell["seating"], seed=seed, deals=deals,
                     n_points=cell["n_points"], alliances=pool)
    se = res.stderr()
    out: dict[str, Any] = {"seconds": res.seconds}
    for a in range(len(players)):
        out[f"mean_payoff_{a + 1}"] = res.mean_payoffs[a]
        out[f"stderr_{a + 1}"] = float(se[a])
        out[f"stack_{a + 1}"] = res.stacks[a]
    for al, v in zip(res.alliances, res.pooled):
        out["pooled"], out["pooled_stderr"] = v, res.stderr(al)
    if cell["alliance"] != "none":
        exact = _exact_alliance_payoffs(cell["alliance"], int(cell["pot"]), cell["seating"])
        out.update({f"exact_payoff_{a + 1}": v for a, v in enumerate(exact)})
    for r, (a, slot) in enumerate(res.rows):
        if players[a].rule == RULES["fixed"] or not isinstance(slot, int):
            continue
        for j, name in enumerate(res.names):
            v = res.frequencies[-1, r, j]
            if not np.isnan(v):
                out[f"final_{a + 1}_seat{slot + 1}_{name}"] = float(v)
    return out


@functools.lru_cache(maxsize=16)
def _exact_alliance_payoffs(alliance: str, pot: int, seating: str) -> tuple[float, ...]:
    """The exact expected payoffs of Billingham's alliance tables (cached per process:
    the symbolic payoffs of kuhn3-third are most of a short cell's time)."""
    from pokerdyn.dynamics.play.experiments import alliance_players, exact_table_payoffs

    neutral, allied = alliance_players(pot)
    players = allied if alliance == "allied" else neutral
    return tuple(float(v) for v in exact_table_payoffs("kuhn3-third", players, pot, seating))


_prob = number(0.0, 1.0)

EXPERIMENTS: dict[str, Experiment] = {
    "toy": Experiment("toy", {
        "mu": Param(0.0, number()),
        "sigma": Param(1.0, number(0.0, low_open=True)),
        "n": Param(3, number(1, 10_000, integer=True)),
    }, _toy, "normal draws (for tests)",
        cost=lambda c: c["n"] * TOY_DRAW_S, cost_keys=("n",)),
    "fp": Experiment("fp", {
        "game": Param("skp", game_name),
        "pot": Param(None, number(0.0, low_open=True), "pot P (games without P: leave out)"),
        "iterations": Param(1000, number(1, 10**9, integer=True)),
        "schedule": Param("simultaneous", choice("simultaneous", "alternating")),
        "averaging": Param("reach", choice("reach", "infoset")),
    }, _fp, "fictitious play from a random start", _fp_check, ("game", "pot"),
        _fp_cost, ("game", "iterations")),
    "simulate": Experiment("simulate", {
        "game": Param("skp", game_name),
        "pot": Param(9.0, number(0.0, low_open=True)),
        "k": Param(0.001, per_player(number(0.0))),
        "L": Param(6, per_player(number(1, 10**9, integer=True))),
        "rounds": Param(10_000_000, number(1, 10**13, integer=True)),
        "init": Param(None, per_player(_prob, scalar_ok=False), "(b_J, c_K, d_Q)"),
        # the allowed counts depend on the game (skp: 12 or 24): _simulate_check
        "deals": Param(12, number(1, 10**6, integer=True)),
        "n_points": Param(1000, number(2, 10**7, integer=True)),
        "estimator": Param("unbiased", estimator_name,
                           "unbiased, paper, corrected or ml (Billingham App. D)"),
    }, _simulate, "repeated play of estimator-based adaptive players (Billingham sec. 4.2)",
        _simulate_check, ("game", "pot", "deals"),
        lambda c: c["rounds"] * SIMULATE_ROUND_S, ("rounds",)),
    "table": Experiment("table", {
        "game": Param("skp", game_name),
        "pot": Param(9.0, number(0.0, low_open=True)),
        "players": Param("gradient", scalar_or_list(choice(*TABLE_RULES)),
                         "the rule of every agent, or one per agent"),
        "k": Param(0.001, scalar_or_list(number(0.0, 1e6))),
        "L": Param(6, scalar_or_list(number(1, 10**8, integer=True))),
        "init": Param(None, number_list(_prob, "one per named parameter, in the game's "
                                        "order"), "initial frequencies (default 0.5 each)"),
        "estimator": Param("unbiased", estimator_name),
        "seating": Param("fixed", choice("fixed", "cyclic", "random"),
                         "fixed, cyclic (the button moves) or random seats every hand"),
        "alliance": Param("none", choice(*ALLIANCE_TABLES),
                          "Billingham sec. 2.1 tables of kuhn3-third at pot 5 or 9"),
        "pool": Param(None, number_list(number(0, 63, integer=True), "agent indices",
                                        empty_ok=True),
                      "agents whose pooled payoff is reported (alliances: 0 and 1)"),
        "rounds": Param(100_000, number(1, 10**13, integer=True)),
        "deals": Param(None, number(1, 10**6, integer=True), "default: all deals"),
        "n_points": Param(100, number(2, 10**6, integer=True)),
    }, _table, "agent-based play at one table, with seating and alliances "
                "(dynamics.play.table)",
        _table_check, ("game", "pot", "deals", "players", "k", "L", "init", "pool",
                       "alliance"),
        lambda c: c["rounds"] * TABLE_ROUND_S, ("rounds",)),
}


def get_experiment(name: Any) -> Experiment:
    exp = EXPERIMENTS.get(name) if isinstance(name, str) else None
    if exp is None:
        raise GameError(f"unknown experiment {short(name)}; available: "
                        f"{', '.join(EXPERIMENTS)}")
    return exp


def run_cell(name: str, cell: dict, seed: np.random.SeedSequence) -> dict:
    """Run experiment ``name`` on one cell (what a worker process executes)."""
    return get_experiment(name).run(dict(cell), seed)
