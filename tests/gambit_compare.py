"""Compare a game read by pokerdyn's .efg/.nfg readers with pygambit's reading of the same
text: players, information sets per player, the information-set partition, terminals in
preorder with their exact chance reach and exact (accumulated) payoffs.  Shared by
tests/test_gambit_grammar.py and the survey script /work/notes/read_all_efg.py."""
from __future__ import annotations

import io
import re
from fractions import Fraction

import numpy as np

from pokerdyn.games.tree import CHANCE, DECISION, Game


def _frac(x) -> Fraction:
    """A pygambit number (Rational, Decimal, int) or a sympy Rational, exactly."""
    return Fraction(str(x))


_NODE_LABEL = re.compile(r'^(\s*[cpt]\s+)"(?:[^"\\]|\\.)*"', re.M)
_SET_LABEL = re.compile(r'^(\s*(?:p\s+""\s+\d+|c\s+"")\s+\d+\s+)"(?:[^"\\]|\\.)*"', re.M)
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def gambit_read(text: str, how: str = "efg"):
    """pygambit's game of ``text``.  pygambit 16.7 refuses repeated node labels, two sets
    of a player with one label and labels with a trailing or double space (older files of
    Gambit's own repository have them; the format identifies sets by number, and later
    Gambit versions read them): such a file is read again with node and information-set
    labels blanked and spaces in labels collapsed, which changes no payoff, move or set."""
    import pygambit as gbt

    read = gbt.read_efg if how == "efg" else gbt.read_nfg
    try:
        return read(io.StringIO(text))
    except ValueError as exc:
        if "label" not in str(exc).lower():
            raise
    text = _SET_LABEL.sub(r'\1""', _NODE_LABEL.sub(r'\1""', text))
    return read(io.StringIO(_QUOTED.sub(lambda m: '"' + " ".join(m.group(1).split()) + '"',
                                        text)))


def gambit_summary(text: str) -> dict:
    """pygambit's view of a .efg text: ``players``, ``infosets`` (count per player),
    ``terminals`` (tuple of (chance reach, payoffs) in preorder, payoffs summed over the
    outcomes on the path as Gambit defines them), ``partition`` (per decision node in
    preorder, (player, infoset number))."""
    g = gambit_read(text)
    players = list(g.players)
    terms, part = [], []
    stack = [(g.root, Fraction(1), (Fraction(0),) * len(players))]
    while stack:
        node, reach, acc = stack.pop()
        try:  # pygambit 16.7 wraps a missing outcome, which raises KeyError when read
            acc = tuple(a + _frac(node.outcome[p]) for a, p in zip(acc, players))
        except KeyError:
            pass
        if node.is_terminal:
            terms.append((reach, acc))
            continue
        inf = node.infoset
        if not inf.is_chance:
            part.append((players.index(inf.player) + 1, inf.number))
        kids = list(node.children)
        probs = [_frac(a.prob) if inf.is_chance else Fraction(1) for a in inf.actions]
        for child, pr in reversed(list(zip(kids, probs))):
            stack.append((child, reach * pr, acc))
    return {"players": len(players), "infosets": [len(p.infosets) for p in players],
            "terminals": terms, "partition": part}


def our_summary(game: Game) -> dict:
    """The same summary of a pokerdyn :class:`Game` (nodes are stored in file preorder)."""
    kind, parent = np.asarray(game.kind), np.asarray(game.parent)
    reach = [Fraction(1)] * game.n_nodes
    for i in range(1, game.n_nodes):
        pr = _frac(game.edge_prob[i]) if kind[parent[i]] == CHANCE else Fraction(1)
        reach[i] = reach[parent[i]] * pr
    counts = [0] * game.n_players
    for I in game.infosets:
        counts[I.player] += 1
    terms = [(reach[int(node)], tuple(_frac(u) for u in game.payoffs[t]))
             for t, node in enumerate(game.terminal_node)]
    part = [(int(game.player[i]) + 1, int(game.infoset[i])) for i in range(game.n_nodes)
            if kind[i] == DECISION]
    return {"players": game.n_players, "infosets": counts, "terminals": terms,
            "partition": part}


def same_partition(a: list, b: list) -> bool:
    """Whether two per-node lists of information-set keys induce the same partition (a
    bijection between the keys that maps one list onto the other)."""
    if len(a) != len(b):
        return False
    fwd, back = {}, {}
    for x, y in zip(a, b):
        if fwd.setdefault(x, y) != y or back.setdefault(y, x) != x:
            return False
    return True


def disagreements(ours: dict, theirs: dict) -> list[str]:
    """What differs between two summaries (empty: the same game)."""
    out = []
    for key in ("players", "infosets"):
        if ours[key] != theirs[key]:
            out.append(f"{key}: {ours[key]} vs {theirs[key]}")
    if len(ours["terminals"]) != len(theirs["terminals"]):
        out.append(f"terminals: {len(ours['terminals'])} vs {len(theirs['terminals'])}")
    else:
        bad = [i for i, (x, y) in enumerate(zip(ours["terminals"], theirs["terminals"]))
               if x != y]
        if bad:
            out.append(f"{len(bad)} terminals differ, first #{bad[0]}: "
                       f"{ours['terminals'][bad[0]]} vs {theirs['terminals'][bad[0]]}")
    if not same_partition(ours["partition"], theirs["partition"]):
        out.append("information-set partitions differ")
    return out


def nfg_disagreements(ours, text: str) -> list[str]:
    """What differs between a :class:`games.io.nfg.NfgGame` and pygambit's reading of the
    same .nfg text: players, strategy counts, the exact payoff of every profile."""
    g = gambit_read(text, "nfg")
    players = list(g.players)
    strategies = [list(p.strategies) for p in players]
    shape = tuple(len(s) for s in strategies)
    if len(players) != len(ours.players) or shape != ours.payoffs.shape[:-1]:
        return [f"shape: {ours.payoffs.shape[:-1]} vs {shape}"]
    bad = []
    for prof in np.ndindex(*shape):
        outcome = g[tuple(s[i] for s, i in zip(strategies, prof))]
        theirs = tuple(Fraction(0) if outcome is None else _frac(outcome[p])  # outcome 0
                       for p in players)
        if tuple(_frac(u) for u in ours.payoffs[prof]) != theirs:
            bad.append(prof)
    return [f"{len(bad)} profiles differ, first {bad[0]}"] if bad else []
