"""Any sequential OpenSpiel game as a pokerdyn :class:`~games.tree.Game`.

:func:`load_openspiel` walks the full tree of an OpenSpiel game (``pyspiel``, optional
dependency: ``pip install 'pokerdyn[openspiel]'``) once, depth first, and hands flat arrays to
:func:`games.arrays.game_from_arrays`: chance probabilities from ``chance_outcomes()``,
information sets from ``information_state_string`` (one per (player, string)), actions in
OpenSpiel's legal-action order named by ``action_to_string`` and terminal payoffs from
``returns()``.  The arrays are cached on disk (``$POKERDYN_CACHE`` or ``~/.cache/pokerdyn``,
keyed by the game string and the pyspiel version), so a second load skips the traversal.

Spec strings ``openspiel:<game string>`` name these games on the command line
(:func:`openspiel_game`).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import zipfile
from array import array
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from games.arrays import game_from_arrays
from games.io.files import write_atomically
from games.size import GameSize
from games.tree import (CHANCE, DECISION, TERMINAL, Game, GameError, Infoset, check_n_edges,
                        check_n_players)

PREFIX = "openspiel:"
MAX_NODES = 20_000_000
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
        return spec
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
        return pyspiel.load_game(text)
    except Exception as exc:  # pyspiel.SpielError, or a parse error of the string
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GameError(f"OpenSpiel cannot load game {text!r}: {first}") from None


def _check_supported(game) -> None:
    pyspiel = _pyspiel()
    gt = game.get_type()
    name = str(game)
    if gt.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise GameError(f"OpenSpiel game {name!r} has {gt.dynamics.name.lower()} moves; only "
                        "sequential games (one player or chance acts at a time) can be loaded")
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


def _traverse(game, max_nodes: int, progress: bool) -> dict:
    """Depth-first walk (parents before children) into flat arrays and information sets."""
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
    stack = [(game.new_initial_state(), -1, 0, 1.0)]
    pop, push = stack.pop, stack.append
    n = 0
    while stack:
        s, par, e, pr = pop()
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
                push((s.child(legal[k]), n, k, 1.0))
        elif cp == _TERMINAL_ID:
            kind.append(TERMINAL)
            player.append(-1)
            infoset.append(-1)
            pay.extend(s.returns())
        elif cp == _CHANCE_ID:
            kind.append(CHANCE)
            player.append(-1)
            infoset.append(-1)
            outs = s.chance_outcomes()
            _check_edges(game, len(outs))
            for k in range(len(outs) - 1, -1, -1):
                a, p = outs[k]
                push((s.child(a), n, k, p))
        else:
            raise GameError(f"OpenSpiel game {game} has a node with player id {cp} "
                            "(simultaneous or mean-field); only sequential games can be loaded")
        n += 1
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
        OpenSpiel's game string (``"kuhn_poker"``, ``"leduc_poker(players=3)"``; a leading
        ``"openspiel:"`` is dropped) or a loaded pyspiel game.
    progress : bool
        Show a tqdm bar while walking the tree.
    cache : bool
        Read and write the on-disk cache (:func:`cache_path`).
    max_nodes : int
        Size limit: GameError once the tree has more histories than this.

    Returns
    -------
    Game
        Named by the game string, one node per OpenSpiel history (parents before
        children), information sets labelled ``P<player>:<information_state_string>``.

    Raises
    ------
    GameError
        pyspiel missing, unknown game string, simultaneous-move or sampled-chance game, an
        information set with different legal actions at two nodes, or too many histories.
    """
    game = _load_pyspiel_game(spec)
    _check_supported(game)
    name = str(game)
    path = cache_path(name) if cache else None
    data = _load(path) if path is not None and path.exists() else None
    if data is None:
        data = _traverse(game, int(max_nodes), progress)
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


@lru_cache(maxsize=16)
def openspiel_game(spec: str) -> Game:
    """The game of a spec string ``openspiel:<OpenSpiel game string>`` (the prefix is
    optional), loaded once per process (games are immutable) and cached on disk."""
    return load_openspiel(spec)


__all__ = ["MAX_NODES", "PREFIX", "cache_dir", "cache_path", "estimate_openspiel", "load_openspiel",
           "openspiel_game"]
