"""Behaviour supports that can carry an equilibrium, for any number of actions per
information set: the search of Gambit's ``enumpoly`` (McKelvey and McLennan, "Computation of
equilibria in finite games", Handbook of Computational Economics I, 1996, sec. 6; Gambit's
``enumpoly`` enumerates "possibly Nash" supports the same way) on counterfactual values.

Every action of player ``p`` at information set ``I`` has the counterfactual value
``v(I, a)``: ``dE_p/dq(I, a)`` divided by ``p``'s own probability of reaching ``I``, where
``q(I, a)`` is the action's probability taken as an independent variable.  By perfect recall
``v(I, a)`` is a polynomial in the probabilities of the *other* information sets, of degree
at most one in each set's block (one action per set on a path).  The enumeration's
equilibrium condition is that of :mod:`solvers.symbolic.casesearch.case_enumeration` for many actions: at
every information set the actions played with positive probability (its support) have equal
and maximal counterfactual value.  For two actions this is that engine's case (a)/(b)/(c);
the conditions are necessary and sufficient up to realization equivalence (every Nash
equilibrium has an equivalent profile that also plays well where its own earlier choices do
not lead).

The search (:func:`support_leaves`) walks the information sets depth first, giving each a
nonempty support.  The gain ``D(I, a, c) = v(I, a) - v(I, c)`` is multilinear in the blocks,
so its range over a product of simplices is that over the pure profiles (vertices): ``D`` is
tabulated once on the vertices of its own information sets (exact integers), and an action
``a`` whose ``D(I, a, c)`` is negative at every vertex left open is strictly dominated there
and cannot be in a support.  Such actions are removed at the root (iterated elimination of
conditionally dominated actions) and, after each assignment, from the information sets still
open; a branch dies when an assigned support holds a dominated action.  The number of supports
left after the root elimination is checked first: a game with more than ``MAX_SUPPORTS`` is
refused with that number, not started.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import lcm, prod
from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.rings import PolyElement, PolyRing

from pokerdyn.games import Game, GameError
from pokerdyn.games.exact_values import exact_number
from pokerdyn.games.tree import CHANCE, DECISION

MAX_SUPPORTS = 10**6  # supports left after the root elimination (a product over the sets)
MAX_TABLE = 2**20  # vertices of one tabulated gain; a larger gain is not used for pruning


def many_actions(game: Game) -> bool:
    """Whether some information set of ``game`` has more than two actions (the two-action
    case analysis of :mod:`solvers.symbolic.casesearch.case_enumeration` does not apply)."""
    return any(len(I.actions) > 2 for I in game.infosets)


@dataclass(frozen=True)
class ActionValues:
    """The counterfactual value of every action, as polynomials over QQ in the action
    probabilities ``q`` (``ring.gens``; ``gen[I][a]`` is the index of ``q(I, a)``, -1 at an
    information set of one action, whose probability is 1)."""

    ring: PolyRing
    gen: tuple[tuple[int, ...], ...]
    values: tuple[tuple[PolyElement, ...], ...]


def _rational(x: Any, values: Mapping[str, Any], game: Game) -> Any:
    """A chance probability or payoff as an element of QQ, game parameters substituted."""
    if isinstance(x, (float, np.floating, int, np.integer)):
        v = exact_number(x)
    else:
        e = sp.sympify(x)
        if e.free_symbols:
            sub = {s: sp.sympify(values[s.name]) for s in e.free_symbols if s.name in values}
            e = sp.sympify(e.xreplace(sub))
        if e.free_symbols:
            names = ", ".join(sorted(s.name for s in e.free_symbols))
            raise GameError(f"game {game.name!r}: the enumeration over behaviour supports "
                            f"needs numeric values of {names} (give --pot)")
        if e.is_Float:
            e = exact_number(float(e))
        if not e.is_Rational:
            raise GameError(f"game {game.name!r}: the enumeration over behaviour supports "
                            f"needs rational payoffs and probabilities, not {e}")
        v = e
    return QQ(int(v.p), int(v.q))


def action_values(game: Game, values: Mapping[str, Any] | None = None) -> ActionValues:
    """Counterfactual values ``v(I, a)`` of every action of ``game`` (game parameters set
    exactly from ``values``; every one must be given)."""
    from pokerdyn.solvers.symbolic.model.payoffs import MAX_SYMBOLIC_NODES

    if game.n_nodes > MAX_SYMBOLIC_NODES:
        raise GameError(f"game {game.name!r} is too large to enumerate exactly: "
                        f"{game.n_nodes:,} nodes, more than the {MAX_SYMBOLIC_NODES:,} of "
                        "symbolic payoffs; use pokerdyn solve")
    values = dict(values or {})
    names, gen = [], []
    for i, I in enumerate(game.infosets):
        row = []
        for a in range(len(I.actions)):
            if len(I.actions) > 1:
                row.append(len(names))
                names.append(f"q{i}_{a}")
            else:
                row.append(-1)
        gen.append(tuple(row))
    R = PolyRing(names or ["q_"], QQ)
    kind, parent, edge, infoset = game.kind, game.parent, game.edge, game.infoset
    reach = [R.one] * game.n_nodes
    for n in range(1, game.n_nodes):
        p = int(parent[n])
        if kind[p] == CHANCE:
            w = R(_rational(game.edge_prob[n], values, game))
        else:
            g = gen[int(infoset[p])][int(edge[n])]
            w = R.gens[g] if g >= 0 else R.one
        reach[n] = reach[p] * w
    pays = [[R(_rational(x, values, game)) for x in u] for u in game.payoffs]
    E = [R.add(*[reach[int(t)] * u[pl] for t, u in zip(game.terminal_node, pays)])
         for pl in range(game.n_players)]
    first = {}
    for n in range(game.n_nodes):
        if kind[n] == DECISION:
            first.setdefault(int(infoset[n]), n)
    out = []
    for i, I in enumerate(game.infosets):
        own = R.one  # the owner's own reach: a monomial (perfect recall: the same at every node)
        n = first[i]
        while parent[n] >= 0:
            p = int(parent[n])
            if kind[p] == DECISION and int(game.player[p]) == I.player:
                g = gen[int(infoset[p])][int(edge[n])]
                if g >= 0:
                    own *= R.gens[g]
            n = p
        row = []
        for a in range(len(I.actions)):
            g = gen[i][a]
            d = E[I.player].diff(R.gens[g]) if g >= 0 else R.zero
            row.append(d.exquo(own) if d else d)
        out.append(tuple(row))
    return ActionValues(R, tuple(gen), tuple(out))


@dataclass
class _Gain:
    """``D(I, a, c)`` tabulated on the vertices of its information sets ``deps`` (None: too
    many vertices to tabulate)."""

    deps: tuple[int, ...]
    table: np.ndarray | None


def _tabulate(d: PolyElement, gen: Sequence[Sequence[int]], owner: dict[int, tuple[int, int]]
              ) -> _Gain:
    """The gain ``d`` at every vertex of the product of its information sets' simplices,
    scaled to exact integers (only signs are read)."""
    terms = list(d.terms())
    deps = sorted({owner[k][0] for m, _ in terms for k, e in enumerate(m) if e})
    shape = tuple(len(gen[j]) for j in deps)
    if prod(shape) > MAX_TABLE:
        return _Gain(tuple(deps), None)
    scale = lcm(*(int(c.denominator) for _, c in terms)) if terms else 1
    ints = [int(c * scale) for _, c in terms]
    big = max((abs(c) for c in ints), default=0) * max(len(ints), 1) >= 2**62
    table = np.zeros(shape, dtype=object if big else np.int64)
    pos = {j: k for k, j in enumerate(deps)}
    for (m, _), c in zip(terms, ints):
        idx: list[Any] = [slice(None)] * len(deps)
        for k, e in enumerate(m):
            if e:
                if e > 1:  # pragma: no cover - perfect recall keeps the blocks multilinear
                    raise AssertionError("counterfactual value of degree > 1 in an action")
                j, a = owner[k]
                idx[pos[j]] = a
        table[tuple(idx)] += c
    return _Gain(tuple(deps), table)


class _Walk:
    """The depth-first search over supports with conditional-dominance propagation."""

    def __init__(self, game: Game, av: ActionValues):
        self.k = [len(I.actions) for I in game.infosets]
        owner = {g: (i, a) for i, row in enumerate(av.gen) for a, g in enumerate(row) if g >= 0}
        self.gains: dict[tuple[int, int, int], _Gain] = {}
        self.watch: list[set[int]] = [set() for _ in self.k]  # set -> sets whose gains read it
        for i, row in enumerate(av.values):
            for a, c in itertools.permutations(range(len(row)), 2):
                gain = _tabulate(row[a] - row[c], av.gen, owner)
                self.gains[i, a, c] = gain
                for j in gain.deps:
                    self.watch[j].add(i)
        self.reads = [tuple(sorted({j for (i2, _, _), g in self.gains.items() if i2 == i
                                    for j in g.deps})) for i in range(len(self.k))]
        self.memo: dict = {}
        self.leaves: list[tuple[tuple[int, ...], ...]] = []
        self.nodes = 0

    def possible(self, i: int, a: int, dom: Sequence[tuple[int, ...]]) -> bool:
        """Whether action ``a`` at set ``i`` can be a best reply somewhere on ``dom``."""
        key = (i, a, tuple(dom[j] for j in self.reads[i]))
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = self._possible(i, a, dom)
        return hit

    def _possible(self, i: int, a: int, dom: Sequence[tuple[int, ...]]) -> bool:
        for c in range(self.k[i]):
            if c == a:
                continue
            g = self.gains[i, a, c]
            if g.table is None:
                continue
            sub = g.table[np.ix_(*[dom[j] for j in g.deps])] if g.deps else g.table
            if sub.max() < 0:
                return False
        return True

    def propagate(self, dom: list[tuple[int, ...]], fixed: Sequence[bool],
                  changed: set[int]) -> bool:
        """Remove conditionally dominated actions from the open sets until nothing changes;
        False when an assigned support holds one (or an open set loses every action)."""
        todo = set().union(*(self.watch[j] for j in changed)) | changed
        while todo:
            i = todo.pop()
            keep = tuple(a for a in dom[i] if self.possible(i, a, dom))
            if keep == dom[i]:
                continue
            if fixed[i] or not keep:
                return False
            dom[i] = keep
            todo |= self.watch[i]
        return True

    def run(self, dom: list[tuple[int, ...]]) -> None:
        order = [i for i in range(len(self.k)) if self.k[i] > 1]
        fixed = [self.k[i] <= 1 for i in range(len(self.k))]
        self._rec(order, 0, dom, fixed)

    def _rec(self, order: list[int], depth: int, dom: list[tuple[int, ...]],
             fixed: list[bool]) -> None:
        self.nodes += 1
        if depth == len(order):
            self.leaves.append(tuple(dom))
            return
        i = order[depth]
        acts = dom[i]
        for r in range(1, len(acts) + 1):
            for sup in itertools.combinations(acts, r):
                nd = list(dom)
                nd[i] = sup
                nf = list(fixed)
                nf[i] = True
                if self.propagate(nd, nf, {i}):
                    self._rec(order, depth + 1, nd, nf)


def support_count(dom: Sequence[Sequence[int]]) -> int:
    """Supports of a domain: the product over its sets of ``2^k - 1``."""
    return prod(2 ** len(d) - 1 for d in dom)


def _count_text(dom: Sequence[Sequence[int]]) -> str:
    powers: dict[int, int] = {}
    for d in dom:
        if len(d) > 1:
            powers[2 ** len(d) - 1] = powers.get(2 ** len(d) - 1, 0) + 1
    parts = " * ".join(f"{b}^{e}" if e > 1 else str(b) for b, e in sorted(powers.items()))
    return f"{parts} = {float(support_count(dom)):.3g}" if parts else "1"


@dataclass(frozen=True)
class Supports:
    """The result of :func:`support_leaves`: the supports to solve (per information set the
    indices of its support's actions), the actions left per set after the root elimination,
    and the count of supports those allow."""

    leaves: tuple[tuple[tuple[int, ...], ...], ...]
    domain: tuple[tuple[int, ...], ...]
    count: int


def support_leaves(game: Game, av: ActionValues) -> Supports:
    """Every behaviour support that survives conditional dominance (see the module
    docstring); GameError when more than ``MAX_SUPPORTS`` supports remain after the root
    elimination."""
    w = _Walk(game, av)
    dom = [tuple(range(k)) for k in w.k]
    w.propagate(dom, [False] * len(dom), set(range(len(dom))))
    count = support_count(dom)
    if count > MAX_SUPPORTS:
        raise GameError(f"game {game.name!r} is too large to enumerate exactly: "
                        f"{_count_text(dom)} behaviour supports left after removing dominated "
                        f"actions; at most {MAX_SUPPORTS:,} are allowed in the enumeration "
                        "over behaviour supports")
    w.run(dom)
    return Supports(tuple(w.leaves), tuple(dom), count)
