"""Compare a game read by pokerdyn's .efg/.nfg readers with pygambit's reading of the same
text (issue 34): players, information sets per player, every node in preorder (kind, acting
player, children, chance probabilities, action counts), the information-set partition and
the terminals with their exact chance reach and exact payoffs (Gambit's outcomes summed
along the path, as Gambit defines them).

One summary per side (:func:`gambit_summary`, :func:`our_summary`) and two comparisons of
them: :func:`disagreements` lists every difference (tests/test_gambit_grammar.py), and
:func:`match_trees` stops at the first with its node and both values and returns the
bijection between the information sets (benchmarks/conformance_gambit.py and
tests/test_conformance_gambit.py).  pygambit is optional (the test extra); it is imported
only when a Gambit game is read.
"""
from __future__ import annotations

import io
import re
from fractions import Fraction
from typing import Any

import numpy as np

from pokerdyn.games.tree import CHANCE, DECISION, Game


class Differs(Exception):
    """A disagreement with pygambit (the message has both values)."""


def frac(x: Any) -> Fraction:
    """An exact rational of a sympy Rational, a Fraction, an int, a pygambit number
    (Rational, Decimal) or a decimal string."""
    if isinstance(x, Fraction):
        return Fraction(x)
    p, q = getattr(x, "p", None), getattr(x, "q", None)
    if p is not None and q is not None:
        return Fraction(int(p), int(q))
    return Fraction(str(x))


_NODE_LABEL = re.compile(r'^(\s*[cpt]\s+)"(?:[^"\\]|\\.)*"', re.M)
_SET_LABEL = re.compile(r'^(\s*(?:p\s+""\s+\d+|c\s+"")\s+\d+\s+)"(?:[^"\\]|\\.)*"', re.M)
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def gambit_read(text: str, how: str = "efg"):
    """pygambit's game of ``text`` (``how``: ``"efg"`` or ``"nfg"``).  pygambit 16.7 refuses
    repeated node labels, two sets of a player with one label and labels with a trailing or
    double space (older files of Gambit's own repository have them; the format identifies
    sets by number, and later Gambit versions read them): such a file is read again with
    node and information-set labels blanked and spaces in labels collapsed, which changes
    no payoff, move or set."""
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


# ----------------------------------------------------------------------------- summaries
#
# A summary is a dict:
#   players     number of players
#   infosets    information sets per player
#   terminals   per terminal in preorder: (exact chance reach, exact payoffs)
#   partition   per decision node in preorder: (player + 1, its set's key)
#   nodes       per node in preorder: (kind, player or -1, children, detail) with kind "t",
#               "c" or "d"; detail: the chance probabilities (exact) or the action count
#   ids         per node in preorder: our node index (Gambit's side: the preorder position)
#   sets        per decision node in preorder: our set index, or pygambit's Infoset
# Children are visited in action order on both sides.


def gambit_summary(text_or_game: Any) -> dict:
    """pygambit's view of a .efg text (or of a pygambit game already read)."""
    g = gambit_read(text_or_game) if isinstance(text_or_game, str) else text_or_game
    players = list(g.players)
    terms, part, nodes, sets = [], [], [], []
    stack = [(g.root, Fraction(1), (Fraction(0),) * len(players))]
    while stack:
        node, reach, acc = stack.pop()
        try:  # pygambit 16.7 wraps a missing outcome, which raises KeyError when read
            acc = tuple(a + frac(node.outcome[p]) for a, p in zip(acc, players))
        except KeyError:
            pass
        if node.is_terminal:
            terms.append((reach, acc))
            nodes.append(("t", -1, 0, None))
            continue
        inf = node.infoset
        kids = list(node.children)
        if inf.is_chance:
            probs = tuple(frac(a.prob) for a in inf.actions)
            nodes.append(("c", -1, len(kids), probs))
        else:
            probs = (Fraction(1),) * len(kids)
            player = players.index(inf.player)
            part.append((player + 1, inf.number))
            sets.append(inf)
            nodes.append(("d", player, len(kids), len(inf.actions)))
        for child, pr in reversed(list(zip(kids, probs))):
            stack.append((child, reach * pr, acc))
    return {"players": len(players), "infosets": [len(p.infosets) for p in players],
            "terminals": terms, "partition": part, "nodes": nodes,
            "ids": list(range(len(nodes))), "sets": sets}


def our_summary(game: Game) -> dict:
    """The same summary of a pokerdyn :class:`Game`."""
    kind, parent, edge = (np.asarray(a) for a in (game.kind, game.parent, game.edge))
    kids: dict[int, list[int]] = {}
    for node in np.lexsort((edge, parent)):
        if parent[node] >= 0:
            kids.setdefault(int(parent[node]), []).append(int(node))
    term = {int(n): t for t, n in enumerate(np.asarray(game.terminal_node))}
    counts = [0] * game.n_players
    for I in game.infosets:
        counts[I.player] += 1
    terms, part, nodes, ids, sets = [], [], [], [], []
    stack = [(0, Fraction(1))]
    while stack:
        node, reach = stack.pop()
        ids.append(node)
        mine = kids.get(node, [])
        if node in term:
            terms.append((reach, tuple(frac(u) for u in game.payoffs[term[node]])))
            nodes.append(("t", -1, 0, None))
            continue
        if kind[node] == CHANCE:
            probs = tuple(frac(game.edge_prob[c]) for c in mine)
            nodes.append(("c", -1, len(mine), probs))
        else:
            probs = (Fraction(1),) * len(mine)
            I = int(game.infoset[node])
            player = int(game.infosets[I].player)
            part.append((player + 1, I))
            sets.append(I)
            nodes.append(("d" if kind[node] == DECISION else "?", player, len(mine),
                          len(game.infosets[I].actions)))
        for c, pr in reversed(list(zip(mine, probs))):
            stack.append((c, reach * pr))
    return {"players": game.n_players, "infosets": counts, "terminals": terms,
            "partition": part, "nodes": nodes, "ids": ids, "sets": sets}


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


def tuple_text(v) -> str:
    """``(a, b, c)`` of exact numbers, as the messages print them."""
    return "(" + ", ".join(str(x) for x in v) + ")"


def match_trees(game: Game, g: Any) -> dict:
    """Compare our game with pygambit's game ``g`` node by node in preorder (children in
    action order), exactly; :class:`Differs` at the first disagreement, naming our node.
    Returns ``{our information-set index: pygambit Infoset}``, a bijection that holds at
    every node (two of our sets that Gambit merges, or the converse, differ)."""
    players = list(g.players)
    if game.n_players != len(players):
        raise Differs(f"{game.n_players} players, Gambit {len(players)}")
    ours, theirs = our_summary(game), gambit_summary(g)
    gkey = {inf: (p, j) for p, pl in enumerate(players) for j, inf in enumerate(pl.infosets)}
    to_gambit: dict[int, Any] = {}
    to_ours: dict[tuple, int] = {}
    t = d = 0
    for k, (mine, their) in enumerate(zip(ours["nodes"], theirs["nodes"])):
        here = f"node {ours['ids'][k]}"
        if their[0] == "t":
            if mine[0] != "t":
                raise Differs(f"{here}: ours not terminal, Gambit's terminal")
            (_, pay), (_, acc) = ours["terminals"][t], theirs["terminals"][t]
            if pay != acc:
                raise Differs(f"{here}: payoffs {tuple_text(pay)}, Gambit {tuple_text(acc)}")
            t += 1
            continue
        if mine[2] != their[2]:
            raise Differs(f"{here}: {mine[2]} children, Gambit {their[2]}")
        if their[0] == "c":
            if mine[0] != "c":
                raise Differs(f"{here}: ours not a chance node")
            for p, q in zip(mine[3], their[3]):
                if p != q:
                    raise Differs(f"{here}: chance probability {p}, Gambit {q}")
            continue
        if mine[0] != "d":
            raise Differs(f"{here}: ours not a decision node")
        I, ginf = ours["sets"][d], theirs["sets"][d]
        key = gkey[ginf]
        d += 1
        if mine[1] != key[0]:
            raise Differs(f"{here}: player {mine[1] + 1}, Gambit {key[0] + 1}")
        if to_gambit.setdefault(I, ginf) is not ginf and gkey[to_gambit[I]] != key:
            raise Differs(f"{here}: our set {game.infosets[I].label!r} is Gambit's sets "
                          f"{gkey[to_gambit[I]][1] + 1} and {key[1] + 1} of player "
                          f"{key[0] + 1}")
        if to_ours.setdefault(key, I) != I:
            raise Differs(f"{here}: Gambit's set {key[1] + 1} of player {key[0] + 1} is "
                          f"our sets {game.infosets[to_ours[key]].label!r} and "
                          f"{game.infosets[I].label!r}")
        if mine[3] != their[3]:
            raise Differs(f"{here}: {mine[3]} actions, Gambit {their[3]}")
    n_gambit = sum(len(p.infosets) for p in players)
    if len(to_gambit) != game.n_infosets or len(to_ours) != n_gambit:
        raise Differs(f"{game.n_infosets} sets reached, Gambit {n_gambit}")
    return to_gambit


def nfg_disagreements(ours: Any, text_or_game: Any) -> list[str]:
    """What differs between a :class:`games.io.nfg.NfgGame` and pygambit's reading of the
    same .nfg text (or game): players, strategy counts, the exact payoff of every profile
    (the first profile that differs, with both payoffs)."""
    g = gambit_read(text_or_game, "nfg") if isinstance(text_or_game, str) else text_or_game
    players = list(g.players)
    strategies = [list(p.strategies) for p in players]
    shape = tuple(len(s) for s in strategies)
    if len(players) != len(ours.players):
        return [f"{len(ours.players)} players, Gambit {len(players)}"]
    if shape != ours.payoffs.shape[:-1]:
        return [f"strategies {list(ours.payoffs.shape[:-1])}, Gambit {list(shape)}"]
    bad = []
    for prof in np.ndindex(*shape):
        outcome = g[tuple(s[i] for s, i in zip(strategies, prof))]
        theirs = tuple(Fraction(0) if outcome is None else frac(outcome[p])  # outcome 0
                       for p in players)
        mine = tuple(frac(u) for u in ours.payoffs[prof])
        if mine != theirs:
            bad.append((prof, mine, theirs))
    if not bad:
        return []
    prof, mine, theirs = bad[0]
    return [f"{len(bad)} profiles differ, first {prof}: payoffs {tuple_text(mine)}, Gambit "
            f"{tuple_text(theirs)}"]


__all__ = ["Differs", "disagreements", "frac", "gambit_read", "gambit_summary", "tuple_text",
           "match_trees", "nfg_disagreements", "our_summary", "same_partition"]
