"""Any sequential OpenSpiel game as a pokerdyn :class:`~games.tree.Game`.

:func:`load_openspiel` walks the full tree of an OpenSpiel game (``pyspiel``, optional
dependency: ``pip install 'pokerdyn[openspiel]'``) once, depth first, and hands flat arrays to
:func:`games.arrays.game_from_arrays`: chance probabilities from ``chance_outcomes()``,
information sets from ``information_state_string`` (one per (player, string)), actions in
OpenSpiel's legal-action order named by ``action_to_string`` and terminal payoffs from
``returns()``.

Simultaneous-move games (``matrix_rps``, ``goofspiel(num_cards=3)``) are loaded through
OpenSpiel's own ``turn_based_simultaneous_game`` wrapper (``pyspiel.convert_to_turn_based``):
the players of a simultaneous node move one after another, each without seeing the moves
made before it in that node, which is the same game in extensive form.  The wrapper can also
be named explicitly: ``turn_based_simultaneous_game(game=goofspiel(num_cards=3))``.

Games with intermediate rewards (``GameType.RewardModel.REWARDS``, e.g. ``cliff_walking``):
a terminal's payoff is what OpenSpiel's ``returns()`` reports there, which by OpenSpiel's
contract (``State::Returns`` in ``spiel.h``: the total reward over the episode) is the sum
of the ``rewards()`` along the path; the walk adds them up and refuses a game where the two
differ, so the payoffs are the rewards summed to the terminal.

The arrays are cached on disk (``$POKERDYN_CACHE`` or ``~/.cache/pokerdyn``, keyed by the
game string and the pyspiel version), so a second load skips the traversal.

Spec strings ``openspiel:<game string>`` name these games on the command line
(:func:`openspiel_game`).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import zipfile
from array import array
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.arrays import game_from_arrays
from pokerdyn.games.io.files import write_atomically
from pokerdyn.games.size import GameSize
from pokerdyn.games.tree import (CHANCE, DECISION, TERMINAL, Game, GameError, Infoset, check_n_edges,
                        check_n_players)

PREFIX = "openspiel:"
MAX_NODES = 20_000_000
ESTIMATE_AFTER = 100_000  # histories walked before a far-too-big game is estimated
"""Default size limit (histories, i.e. tree nodes) of :func:`load_openspiel`."""
_FORMAT = 1  # bump when the cached arrays change meaning

# OpenSpiel's kTerminalPlayerId / kChancePlayerId (open_spiel/spiel_utils.h)
_TERMINAL_ID, _CHANCE_ID = -4, -1


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise GameError("OpenSpiel games need pyspiel; install the 'openspiel' extra: "
                        "pip install 'pokerdyn[openspiel]'") from None
    return pyspiel


def _load_pyspiel_game(spec: Any):
    """The pyspiel game of a game string (GameError naming it if OpenSpiel rejects it)."""
    pyspiel = _pyspiel()
    if not isinstance(spec, str):
        return _turn_based(spec)
    text = spec.strip()
    if text.startswith(PREFIX):
        text = text[len(PREFIX):]
    short = text.split("(", 1)[0].strip()
    known = pyspiel.registered_names()
    if short not in known:  # checked here: pyspiel would also print all names to stderr
        some = ", ".join(n for n in ("kuhn_poker", "leduc_poker", "liars_dice", "tiny_bridge_2p")
                         if n in known)
        raise GameError(f"unknown OpenSpiel game {short!r} in {text!r}; pyspiel knows "
                        f"{len(known)} games (e.g. {some}; pyspiel.registered_names())")
    try:
        with _quiet_stderr():
            game = pyspiel.load_game(text)
        return _turn_based(game)
    except GameError:
        raise
    except Exception as exc:  # pyspiel.SpielError, or a parse error of the string
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GameError(f"OpenSpiel cannot load game {text!r}: {first}; allowed parameters of "
                        f"{short} (OpenSpiel's defaults): {_parameters(pyspiel, short)}") from None


def _parameters(pyspiel, short: str) -> str:
    """``name=default, ...`` of an OpenSpiel game's parameters ("none" if it takes none)."""
    for gt in pyspiel.registered_games():
        if gt.short_name == short:
            items = [f"{k}={str(v)[:24]}" for k, v in sorted(gt.parameter_specification.items())]
            return ", ".join(items) or "none"
    return "unknown"


@contextmanager
def _quiet_stderr():
    """File descriptor 2 muted: pyspiel's C++ error handler prints "OpenSpiel exception: ..."
    to it before raising, a second line beside the one-line GameError made of the same text."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _turn_based(game):
    """A simultaneous-move game through OpenSpiel's ``turn_based_simultaneous_game`` wrapper
    (the same extensive-form game: each mover of a simultaneous node sees none of the moves
    made before it in that node); any other game as it is."""
    pyspiel = _pyspiel()
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SIMULTANEOUS:
        return game
    if not game.get_type().provides_information_state_string:
        # checked here: the wrapper's information states are those of the game it wraps
        raise GameError(f"OpenSpiel game {str(game)!r} (simultaneous moves) provides no "
                        "information_state_string, so its information sets are unknown")
    return pyspiel.convert_to_turn_based(game)


def _check_supported(game) -> None:
    pyspiel = _pyspiel()
    gt = game.get_type()
    name = str(game)
    if gt.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:  # mean-field games
        raise GameError(f"OpenSpiel game {name!r} has {gt.dynamics.name.lower()} dynamics; "
                        "only sequential and simultaneous-move games can be loaded")
    if gt.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise GameError(f"OpenSpiel game {name!r} has sampled chance (no explicit chance "
                        "outcomes); only deterministic or explicit-stochastic games can be loaded")
    if not gt.provides_information_state_string:
        raise GameError(f"OpenSpiel game {name!r} provides no information_state_string")
    try:  # players are int8 (games.tree.MAX_PLAYERS): refused before any traversal
        check_n_players(game.num_players())
    except GameError as exc:
        raise GameError(f"OpenSpiel game {name!r}: {exc}") from None


def _check_edges(game, n: int) -> None:
    """At most games.tree.MAX_ACTIONS actions or chance outcomes at a node (int16 edges)."""
    check_n_edges(n, f"a node of OpenSpiel game {str(game)!r}")


def _has_rewards(game) -> bool:
    """Whether OpenSpiel declares intermediate rewards for the game (RewardModel.REWARDS)."""
    return getattr(game.get_type(), "reward_model", None) == \
        _pyspiel().GameType.RewardModel.REWARDS


def _traverse(game, max_nodes: int, progress: bool, rewards: bool = False) -> dict:
    """Depth-first walk (parents before children) into flat arrays and information sets.

    With ``rewards`` the ``rewards()`` of every history are summed along its path and each
    terminal's sum is checked against its ``returns()`` (the payoff kept)."""
    n_players = game.num_players()
    kind, parent, edge = array("b"), array("i"), array("h")
    player, infoset, prob, pay = array("b"), array("i"), array("d"), array("d")
    index: list[dict[str, int]] = [{} for _ in range(n_players)]
    legal_of: list[list[int]] = []      # OpenSpiel action ids of each information set
    labels: list[str] = []
    owners: list[int] = []
    actions: list[list[str]] = []
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(desc=f"importing {game}", unit=" histories", unit_scale=True)
    root = game.new_initial_state()
    stack = [(root, -1, 0, 1.0, tuple(root.rewards()) if rewards else None)]
    pop, push = stack.pop, stack.append
    n = 0
    while stack:
        s, par, e, pr, acc = pop()
        parent.append(par)
        edge.append(e)
        prob.append(pr)
        cp = s.current_player()
        if cp >= 0:
            key = s.information_state_string(cp)
            legal = s.legal_actions()
            I = index[cp].get(key)
            if I is None:
                _check_edges(game, len(legal))
                I = index[cp][key] = len(labels)
                labels.append(f"P{cp + 1}:{key}")
                owners.append(cp)
                legal_of.append(legal)
                actions.append([s.action_to_string(cp, a) for a in legal])
            elif legal_of[I] != legal:
                raise GameError(f"information set {labels[I]!r} of OpenSpiel game {game} has "
                                f"legal actions {legal_of[I]} and {legal} at different nodes")
            kind.append(DECISION)
            player.append(cp)
            infoset.append(I)
            for k in range(len(legal) - 1, -1, -1):
                push(_with_rewards(s.child(legal[k]), n, k, 1.0, acc))
        elif cp == _TERMINAL_ID:
            kind.append(TERMINAL)
            player.append(-1)
            infoset.append(-1)
            ret = s.returns()
            if acc is not None:
                _check_returns(game, s, acc, ret)
            pay.extend(ret)
        elif cp == _CHANCE_ID:
            kind.append(CHANCE)
            player.append(-1)
            infoset.append(-1)
            outs = s.chance_outcomes()
            _check_edges(game, len(outs))
            for k in range(len(outs) - 1, -1, -1):
                a, p = outs[k]
                push(_with_rewards(s.child(a), n, k, p, acc))
        else:
            raise GameError(f"OpenSpiel game {game} has a node with player id {cp} "
                            "(simultaneous or mean-field); only sequential games can be loaded")
        n += 1
        if n == ESTIMATE_AFTER and max_nodes > ESTIMATE_AFTER:
            _refuse_far_too_big(game, max_nodes)
        if n > max_nodes:
            raise GameError(f"OpenSpiel game {game} has more than {max_nodes:,} histories "
                            f"(the limit max_nodes); pass a larger max_nodes to load it")
        if bar is not None and not n & 0x3FFF:
            bar.update(0x4000)
    if bar is not None:
        bar.update(n - bar.n)
        bar.close()
    arrays = {k: np.frombuffer(v, dtype=v.typecode).copy() for k, v in
              (("kind", kind), ("parent", parent), ("edge", edge), ("player", player),
               ("infoset", infoset), ("chance_prob", prob))}
    arrays["payoffs"] = np.frombuffer(pay, dtype=np.float64).reshape(-1, n_players).copy()
    meta = {"name": str(game), "n_players": n_players, "labels": labels, "owners": owners,
            "actions": actions}
    return {"arrays": arrays, "meta": meta}


def _with_rewards(child, par: int, e: int, p: float, acc):
    """A stack entry; ``acc`` (rewards summed from the root) gains the child's rewards()."""
    if acc is not None:
        acc = tuple(a + r for a, r in zip(acc, child.rewards()))
    return child, par, e, p, acc


def _check_returns(game, s, acc, ret) -> None:
    """returns() at a terminal must be the rewards summed along its path (OpenSpiel's
    contract); a game breaking it has no single payoff to import."""
    for a, r in zip(acc, ret):
        if abs(a - r) > 1e-9 * max(1.0, abs(a), abs(r)):
            raise GameError(f"OpenSpiel game {game}: the rewards along history "
                            f"{str(s.history())[:80]} sum to {list(acc)} but returns() there "
                            f"is {list(ret)}; payoffs "
                            "accumulated along the path must equal the terminal returns")


def cache_dir() -> Path:
    """Folder of the cached imports: ``$POKERDYN_CACHE/openspiel`` or
    ``~/.cache/pokerdyn/openspiel``."""
    root = os.environ.get("POKERDYN_CACHE") or Path.home() / ".cache" / "pokerdyn"
    return Path(root) / "openspiel"


def cache_path(game_string: str) -> Path:
    """Cache file of a game string (keyed by it, the pyspiel version and the format)."""
    version = getattr(_pyspiel(), "__version__", "unknown")
    digest = hashlib.sha256(f"{game_string}|{version}|{_FORMAT}".encode()).hexdigest()[:16]
    stem = re.sub(r"[^A-Za-z0-9_.=-]+", "_", game_string)[:60]
    return cache_dir() / f"{stem}-{digest}.npz"


def _save(path: Path, data: dict) -> None:
    meta = np.frombuffer(json.dumps(data["meta"]).encode(), dtype=np.uint8)
    write_atomically(path, lambda tmp: np.savez(tmp, meta=meta, **data["arrays"]))


def _load(path: Path) -> dict | None:
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(z["meta"].tobytes().decode())
            arrays = {k: z[k] for k in z.files if k != "meta"}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None  # missing, truncated or unreadable: import again
    return {"arrays": arrays, "meta": meta}


def load_openspiel(spec: Any, progress: bool = False, cache: bool = True,
                   max_nodes: int = MAX_NODES) -> Game:
    """Import an OpenSpiel game as a pokerdyn :class:`~games.tree.Game`.

    Parameters
    ----------
    spec : str or pyspiel.Game
        OpenSpiel's game string (``"kuhn_poker"``, ``"leduc_poker(players=3)"``,
        ``"goofspiel(num_cards=3)"``; a leading ``"openspiel:"`` is dropped) or a loaded
        pyspiel game.
    progress : bool
        Show a tqdm bar while walking the tree.
    cache : bool
        Read and write the on-disk cache (:func:`cache_path`).
    max_nodes : int
        Size limit: GameError once the tree has more histories than this.

    Returns
    -------
    Game
        Named by the game string (of the turn-based wrapper for a simultaneous-move game,
        ``openspiel:turn_based_simultaneous_game(game=matrix_rps())``), one node per
        OpenSpiel history (parents before children), information sets labelled
        ``P<player>:<information_state_string>``.

    Raises
    ------
    GameError
        pyspiel missing, unknown game string, mean-field or sampled-chance game, a game
        without information_state_string, an information set with different legal actions
        at two nodes, rewards that do not sum to the terminal returns(), or too many
        histories.  Simultaneous-move games are not refused: they are imported through
        ``turn_based_simultaneous_game`` (see the module docstring).
    """
    game = _load_pyspiel_game(spec)
    _check_supported(game)
    name = str(game)
    path = cache_path(name) if cache else None
    data = _load(path) if path is not None and path.exists() else None
    if data is None:
        data = _traverse(game, int(max_nodes), progress, _has_rewards(game))
        if path is not None:
            try:
                _save(path, data)
            except OSError:
                pass  # a read-only cache folder only costs the next import its speed
    meta, arr = data["meta"], data["arrays"]
    infosets = [Infoset(lab, int(p), tuple(acts))
                for lab, p, acts in zip(meta["labels"], meta["owners"], meta["actions"])]
    return game_from_arrays(
        PREFIX + name, int(meta["n_players"]), arr["kind"], arr["parent"], arr["edge"],
        arr["player"], arr["infoset"], infosets, arr["chance_prob"], arr["payoffs"],
        description=f"OpenSpiel game {name} (imported from pyspiel)")


def _refuse_far_too_big(game, max_nodes: int) -> None:
    """GameError when the seeded estimate (:func:`estimate_openspiel`, about a second) is
    over ten times ``max_nodes``: the walk asks after ESTIMATE_AFTER histories, instead of
    walking ``max_nodes`` (minutes) before its own limit stops it; the factor leaves the
    estimator's spread to the walk, which stays the exact test."""
    est = estimate_openspiel(game)
    if est.nodes > 10 * max_nodes:
        raise GameError(f"OpenSpiel game {game} has more than {max_nodes:,} histories "
                        f"(about {est.nodes:.3g}, estimated; the limit max_nodes); pass a "
                        "larger max_nodes to load it")


def estimate_openspiel(spec: Any, probes: int = 500, seed: int = 0,
                       budget_s: float = 1.0) -> GameSize:
    """Histories and terminals of an OpenSpiel game without walking its tree: Knuth's
    estimator (D. E. Knuth, "Estimating the efficiency of backtrack programs", Math. Comp.
    29 (1975)): along a random path from the root, the products of the branching factors
    sum to an unbiased estimate of the number of nodes.  Averaged over ``probes`` paths
    (fewer when ``budget_s`` seconds run out, at least 8), seeded, so the estimate is
    reproducible; within ~15% of the true count on Leduc and tic-tac-toe."""
    import random
    import time

    game = _load_pyspiel_game(spec)
    _check_supported(game)
    rng = random.Random(seed)
    nodes = terms = 0.0
    k, t0 = 0, time.perf_counter()
    while k < probes and (k < 8 or time.perf_counter() - t0 < budget_s):
        s, width, n = game.new_initial_state(), 1.0, 1.0
        while not s.is_terminal():
            outs = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() \
                else s.legal_actions()
            if not outs:
                break
            width *= len(outs)
            n += width
            s.apply_action(outs[rng.randrange(len(outs))])
        nodes, terms, k = nodes + n, terms + width, k + 1
    return GameSize(int(min(nodes / k, 2.0**62)), int(min(terms / k, 2.0**62)),
                    game.num_players())


def openspiel_policy(game: Game, sigma: NDArray[np.float64]):
    """OpenSpiel's ``TabularPolicy`` of a pokerdyn profile of an imported game, for OpenSpiel's
    own evaluations (``pyspiel.nash_conv``, ``exploitability.nash_conv``).

    Parameters
    ----------
    game : Game
        A game of :func:`load_openspiel` (its name gives the pyspiel game, its information
        set labels ``P<player>:<information_state_string>`` the policy's rows).
    sigma : ndarray, shape (n_infosets, n_actions)
        Behaviour profile in ``game.infosets`` order (as of ``compile_game(game)``); column k
        is the k-th legal action of the information set, in OpenSpiel's (ascending) order.

    Returns
    -------
    open_spiel.python.policy.TabularPolicy
    """
    if not game.name.startswith(PREFIX):
        raise GameError(f"game {game.name!r} was not imported from OpenSpiel (its name does "
                        f"not start with {PREFIX!r}); only load_openspiel games have OpenSpiel "
                        "policies")
    pgame = _load_pyspiel_game(game.name)
    from open_spiel.python.policy import TabularPolicy

    sigma = np.asarray(sigma, dtype=np.float64)
    if sigma.shape[0] != len(game.infosets):
        raise GameError(f"profile has {sigma.shape[0]} rows; allowed: one per information set "
                        f"of {game.name} ({len(game.infosets)})")
    pol = TabularPolicy(pgame)
    for I, info in enumerate(game.infosets):
        row = pol.state_lookup[info.label.split(":", 1)[1]]
        legal = np.flatnonzero(pol.legal_actions_mask[row])
        pol.action_probability_array[row] = 0.0
        pol.action_probability_array[row, legal] = sigma[I, :legal.size]
    return pol


@lru_cache(maxsize=16)
def openspiel_game(spec: str) -> Game:
    """The game of a spec string ``openspiel:<OpenSpiel game string>`` (the prefix is
    optional), loaded once per process (games are immutable) and cached on disk."""
    return load_openspiel(spec)


__all__ = ["MAX_NODES", "PREFIX", "cache_dir", "cache_path", "estimate_openspiel", "load_openspiel",
           "openspiel_game", "openspiel_policy"]
