"""Tables for the repeated-play kernel, derived from the game tree and its symbolic payoffs.

* :func:`payoff_gradients`: the right-hand side of Billingham (27)-(29).  For the parameter
  x owned by player p it is ``dE_p/dx`` (from :func:`solvers.symbolic.model.payoffs`) divided by its
  range over the vertices of the opponents' strategy cube, i.e. scaled so that the gradient
  spans exactly 1 as the opponents move.  For SKP the ranges are P, P + 1 and P + 1, which
  gives (28), (29) and (27) exactly (test ``test_gradients_are_billingham_27_29``).
* :func:`checkdown_payoffs`: what each deal pays when everybody checks to showdown, the
  reference of the *ex-showdown* payoff.  Taken from a check-down terminal of the same deal,
  or, where the rules force a bet (SKP: Player 3 bets A), from a check-down terminal of a deal
  with the same winning seat; winners follow from the card order revealed at the tree's
  showdowns.
* :func:`simulated_deals`: all deals, or (Billingham sec. 4.2) only those that are not
  certain to be checked down (SKP: the 12 deals where Player 3 holds A or J).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Mapping

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games import DECISION, TERMINAL, CompiledGame, Game, GameError, param_symbols
from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs

from pokerdyn.dynamics.play.observation import observation_model

CHECK = "k"


def payoff_gradients(game: Game, values: Mapping[str, object]) -> dict[str, sp.Expr]:
    """Normalised ``dE_p/dx`` for every named parameter x (owner p), exact, in the other
    named parameters (game parameters such as P substituted from ``values``)."""
    exact = {k: sp.nsimplify(v, rational=True) for k, v in values.items()}
    E = symbolic_payoffs(game, exact)
    syms = param_symbols(game)
    out = {}
    for name, x in syms.items():
        p = game.owner(name)
        g = sp.expand(sp.diff(E[p], x))
        if g.has(x):
            raise GameError(f"dE{p + 1}/d{name} depends on {name}: payoff not multilinear")
        others = [s for n, s in syms.items() if n != name]
        corners = [g.subs(dict(zip(others, v))) for v in product((0, 1), repeat=len(others))]
        span = sp.Max(*corners) - sp.Min(*corners)
        out[name] = sp.expand(g / span) if span != 0 else g
    return out


def gradient_table(game: Game, values: Mapping[str, object]) -> NDArray[np.float64]:
    """Monomial coefficients ``G[j, mask]`` of the normalised gradients (parameter order of
    ``game.named``; bit i of ``mask`` = named parameter i)."""
    syms = list(param_symbols(game).values())
    grads = payoff_gradients(game, values)
    G = np.zeros((len(syms), 2 ** len(syms)))
    for j, p in enumerate(game.named):
        poly = sp.Poly(grads[p.name], *syms)
        for mono, cf in poly.terms():
            G[j, sum(1 << i for i, e in enumerate(mono) if e)] += float(cf)
    return G


@dataclass(frozen=True, eq=False)
class GradientTerms:
    """The normalised gradients as sparse monomials, the form both play kernels evaluate.

    Parameter j's gradient is ``sum_q coef[q] * prod_c x[vars[q, c]]`` over the terms
    ``q in start[j]:start[j + 1]``; ``vars`` is padded with ``m`` (= the number of named
    parameters), which the kernels read as the constant 1.
    """

    start: NDArray[np.int64]  # (m + 1,)
    coef: NDArray[np.float64]  # (n_terms,)
    vars: NDArray[np.int64]  # (n_terms, max degree)

    def multilinear(self, n_vars: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """The same gradients in fixed shape for a kernel: ``vars (m, n_vars)``, the
        variables each gradient reads (padded with m), and ``coef (m, 2^n_vars)``, the
        coefficient of the product of the subset ``mask`` of them (bit i: ``vars[j, i]``;
        e.g. ``c0 + c1 u + c2 w + c3 u w`` for two).  GameError if a gradient reads more
        than ``n_vars`` parameters."""
        m = len(self.start) - 1
        out_vars = np.full((m, n_vars), m, dtype=np.int64)
        coef = np.zeros((m, 2 ** n_vars))
        for j in range(m):
            rows = self.vars[self.start[j]:self.start[j + 1]]
            used = sorted({int(v) for v in rows.ravel() if v < m})
            if len(used) > n_vars:
                raise GameError(f"the gradient of parameter {j} reads {len(used)} parameters; "
                                f"the repeated-play kernel supports at most {n_vars}")
            out_vars[j, :len(used)] = used
            for q, row in enumerate(rows, start=int(self.start[j])):
                coef[j, sum(1 << used.index(int(v)) for v in row if v < m)] += self.coef[q]
        return out_vars, coef


def gradient_terms(game: Game, values: Mapping[str, object]) -> GradientTerms:
    """The non-zero monomials of :func:`gradient_table` as :class:`GradientTerms` (cached
    per game and parameter values: the symbolic derivation dominates a short run)."""
    return _gradient_terms(game, tuple(sorted(values.items())))


@lru_cache(maxsize=64)
def _gradient_terms(game: Game, values: tuple) -> GradientTerms:
    G = gradient_table(game, dict(values))
    m = G.shape[0]
    start, coefs, terms = [0], [], []
    for j in range(m):
        for mask in np.nonzero(G[j])[0]:
            coefs.append(G[j, mask])
            terms.append([i for i in range(m) if (mask >> i) & 1])
        start.append(len(coefs))
    width = max([1, *map(len, terms)])
    vars_ = np.full((len(terms), width), m, dtype=np.int64)
    for q, v in enumerate(terms):
        vars_[q, :len(v)] = v
    out = (np.asarray(start, dtype=np.int64), np.asarray(coefs, dtype=np.float64), vars_)
    for a in out:
        a.setflags(write=False)  # shared by the cache
    return GradientTerms(*out)


def _is_checkdown(game: Game, node: int) -> bool:
    return all(a == CHECK for a in game.history(node)[1:])


def checkdown_payoffs(cg: CompiledGame) -> NDArray[np.float64]:
    """(n_deals, n_players): each deal's payoff had everybody checked to showdown."""
    game = cg.game
    model = observation_model(game)
    n = game.n_players
    beats: set[tuple[str, str]] = set()
    by_seat: dict[int, NDArray[np.float64]] = {}
    direct: dict[int, NDArray[np.float64]] = {}
    for o in model.outcomes:
        pay = cg.payoffs[o.terminal]
        active = [q for q in range(n) if not o.folded[q]]
        if len(active) < 2:
            continue
        w = max(active, key=lambda q: pay[q])
        beats.update((o.deal[w], o.deal[q]) for q in active if q != w)
        if _is_checkdown(game, int(game.terminal_node[o.terminal])):
            by_seat.setdefault(w, pay)
            direct[o.deal_index] = pay
    cards = {c for o in model.outcomes for c in o.deal}
    for mid in cards:  # transitive closure of the card order
        beats |= {(a, c) for (a, b) in beats if b == mid for (b2, c) in beats if b2 == mid}
    out = np.empty((len(model.deal_labels), n))
    for d, deal in enumerate(model.deal_labels):
        if d in direct:
            out[d] = direct[d]
            continue
        win = [p for p in range(n) if all((deal[p], deal[q]) in beats for q in range(n) if q != p)]
        if len(win) != 1 or win[0] not in by_seat:
            raise GameError(f"game {game.name!r}: cannot derive the check-down payoff of deal "
                            f"{deal!r} from the tree")
        out[d] = by_seat[win[0]]
    return out


def _informative_deals(game: Game) -> tuple[int, list[int]]:
    """The number of deals and the indices of those not certain to be checked down."""
    model = observation_model(game)
    nd = len(model.deal_labels)
    terms: dict[int, list[int]] = {}
    for o in model.outcomes:
        terms.setdefault(o.deal_index, []).append(int(game.terminal_node[o.terminal]))
    return nd, [d for d in range(nd)
                if not (len(terms[d]) == 1 and _is_checkdown(game, terms[d][0]))]


def deal_counts(game: Game) -> tuple[int, ...]:
    """The allowed values of ``deals``: the informative deals only (Billingham sec. 4.2:
    12 of skp's 24), when some deal is always checked down, then all deals."""
    nd, informative = _informative_deals(game)
    return (len(informative), nd) if len(informative) < nd else (nd,)


def simulated_deals(game: Game, deals: int) -> NDArray[np.int64]:
    """Indices of the deals to draw: all, or those not certain to be checked down."""
    nd, informative = _informative_deals(game)
    if deals == nd:
        return np.arange(nd, dtype=np.int64)
    if deals == len(informative) and len(informative) < nd:
        return np.asarray(informative, dtype=np.int64)
    raise GameError(f"deals={deals} is not allowed for game {game.name!r}; allowed: {nd} (all)"
                    f" or {len(informative)} (without the deals that are always checked down)")


@dataclass(frozen=True, eq=False)
class TreeTables:
    """Per-deal lookup tables for the kernel: each simulated deal d has ``slots`` random
    (two-action) information sets that can be reached in it; one action is drawn for each
    slot (a pure strategy restricted to the deal) and ``table[d, code]`` is the terminal
    reached, ``code`` having bit s set when slot s takes action 1."""

    slot_par: NDArray[np.int64]  # (n_deals_sim, slots): named parameter of each slot (m: none)
    table: NDArray[np.int64]  # (n_deals_sim, 2 ** slots) terminal index
    pact: NDArray[np.int64]  # action index whose probability each named parameter gives
    exshow: NDArray[np.float64]  # (n_terminals, n_players) ex-showdown payoff
    payoffs: NDArray[np.float64]  # (n_terminals, n_players) net chips


@lru_cache(maxsize=64)
def _tree_tables(game: Game, pot_key: tuple, deals: int, n_slots: int | None) -> TreeTables:
    from pokerdyn.games import compile_game

    cg = compile_game(game, dict(pot_key))
    par_of = {}
    for j, p in enumerate(game.named):
        I = game.infoset_index(p.infoset)
        if len(game.infosets[I].actions) != 2:
            raise GameError(f"parameter {p.name}: repeated play supports two-action "
                            f"information sets only")
        par_of[I] = j
    pact = np.asarray([game.infosets[game.infoset_index(p.infoset)].actions.index(p.action)
                       for p in game.named], dtype=np.int64)
    chosen = simulated_deals(game, deals)
    roots = game.children(0)[chosen]
    slots = []
    for r in roots:  # random information sets below each deal, in tree order
        stack, seen = [int(r)], []
        while stack:
            node = stack.pop()
            if game.kind[node] == DECISION:
                I = int(game.infoset[node])
                if I in par_of and I not in seen:
                    seen.append(I)
                stack.extend(int(c) for c in reversed(game.children(node)))
        slots.append(seen)
    need = max(1, max(len(s) for s in slots))
    if n_slots is None:  # as many slots as the game needs (agent-based kernel)
        n_slots = need
    if need > n_slots:
        raise GameError(f"game {game.name!r}: a deal reaches {max(len(s) for s in slots)} "
                        f"random information sets; the repeated-play kernel draws at most "
                        f"{n_slots} actions per hand")
    m = len(game.named)
    slot_par = np.full((len(roots), n_slots), m, dtype=np.int64)
    table = np.empty((len(roots), 2 ** n_slots), dtype=np.int64)
    for d, (r, seen) in enumerate(zip(roots, slots)):
        slot_par[d, :len(seen)] = [par_of[I] for I in seen]
        for code in range(2 ** n_slots):
            node = int(r)
            while game.kind[node] != TERMINAL:
                I = int(game.infoset[node])
                a = (code >> seen.index(I)) & 1 if I in seen else 0
                node = int(game.children(node)[a])
            table[d, code] = int(cg.terminal_index[node])
    model = observation_model(game)
    check = checkdown_payoffs(cg)
    exshow = np.array([cg.payoffs[o.terminal] - check[o.deal_index] for o in model.outcomes])
    return TreeTables(slot_par, table, pact, exshow, np.asarray(cg.payoffs))


def tree_tables(game: Game, values: Mapping[str, float], deals: int,
                n_slots: int | None = None) -> TreeTables:
    """Cached :class:`TreeTables` of ``game`` at parameter ``values``; ``n_slots`` fixes the
    table width (a kernel with a fixed slot count), ``None`` sizes it to the game."""
    return _tree_tables(game, tuple(sorted(values.items())), int(deals), n_slots)


__all__ = ["CHECK", "GradientTerms", "TreeTables", "checkdown_payoffs", "deal_counts",
           "gradient_table", "gradient_terms", "payoff_gradients", "simulated_deals",
           "tree_tables"]
