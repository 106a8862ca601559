"""A plain-Python reference: recursive expected values, best responses, NashConv and
fictitious play over a compiled game, written the straightforward way (lists, recursion,
dicts), as the baseline of benchmarks/bench_fp.py and an independent cross-check of the numba
kernels (tests/test_reference_crosscheck.py).  Deliberately a second implementation of the
same rules (two implementations that must agree, OpenSpiel's practice); no solver uses it.

Fictitious play follows the same rules as solvers.learning.fictitious_play with
``schedule="simultaneous", averaging="reach"``: every player best-responds to the current
average, then mixes in with weight ``alpha = 1/(t+1)`` reach-weighted per information set.
"""
from __future__ import annotations

from collections import defaultdict

from pokerdyn.games.tree import CHANCE, DECISION


class Reference:
    """A compiled game held as Python lists; strategies are lists of lists."""

    def __init__(self, cg):
        self.kind = cg.kind.tolist()
        self.player = cg.player.tolist()
        self.infoset = cg.infoset.tolist()
        self.edge = cg.edge.tolist()
        self.prob = cg.chance_prob.tolist()
        self.n_players = cg.n_players
        self.n_actions = cg.n_actions.tolist()
        self.infoset_player = cg.infoset_player.tolist()
        self.payoff = {}
        for n, t in enumerate(cg.terminal_index.tolist()):
            if t >= 0:
                self.payoff[n] = cg.payoffs[t].tolist()
        self.children = [[] for _ in self.kind]
        for n, p in enumerate(cg.parent.tolist()):
            if p >= 0:
                self.children[p].append(n)
        for ch in self.children:
            ch.sort(key=lambda c: self.edge[c])

    def uniform(self):
        return [[1.0 / k] * k for k in self.n_actions]

    def values(self, sigma, node=0):
        """Expected payoff vector of the subtree of ``node``."""
        if node in self.payoff:
            return self.payoff[node]
        out = [0.0] * self.n_players
        for c in self.children[node]:
            w = self.prob[c] if self.kind[node] == CHANCE else \
                sigma[self.infoset[node]][self.edge[c]]
            if w:
                v = self.values(sigma, c)
                for q in range(self.n_players):
                    out[q] += w * v[q]
        return out

    def best_response(self, sigma, who):
        """(value, {infoset: action}) of a pure best response of ``who``."""
        nodes = defaultdict(list)

        def collect(node, r):
            if self.kind[node] == DECISION and self.player[node] == who:
                nodes[self.infoset[node]].append((node, r))
            for c in self.children[node]:
                if self.kind[node] == CHANCE:
                    w = self.prob[c]
                elif self.player[node] == who:
                    w = 1.0
                else:
                    w = sigma[self.infoset[node]][self.edge[c]]
                collect(c, r * w)

        collect(0, 1.0)
        choice, memo = {}, {}

        def value(node):
            if node in memo:
                return memo[node]
            if node in self.payoff:
                v = self.payoff[node][who]
            elif self.kind[node] == DECISION and self.player[node] == who:
                v = value(self.children[node][action(self.infoset[node])])
            else:
                v = 0.0
                for c in self.children[node]:
                    w = self.prob[c] if self.kind[node] == CHANCE else \
                        sigma[self.infoset[node]][self.edge[c]]
                    v += w * value(c)
            memo[node] = v
            return v

        def action(I):
            if I not in choice:
                best, bv = 0, None
                for a in range(self.n_actions[I]):
                    q = sum(r * value(self.children[h][a]) for h, r in nodes[I])
                    if bv is None or q > bv + 1e-14 * (1.0 + abs(bv)):
                        best, bv = a, q
                choice[I] = best
            return choice[I]

        v = value(0)
        for I in nodes:
            action(I)
        return v, choice

    def nash_conv(self, sigma):
        ev = self.values(sigma)
        return sum(self.best_response(sigma, p)[0] - ev[p] for p in range(self.n_players))

    def own_reach(self, sigma, who):
        """Own reach probability of each of ``who``'s information sets."""
        out = {}

        def walk(node, r):
            if self.kind[node] == DECISION and self.player[node] == who:
                out.setdefault(self.infoset[node], r)
            for c in self.children[node]:
                w = sigma[self.infoset[node]][self.edge[c]] \
                    if self.kind[node] == DECISION and self.player[node] == who else 1.0
                if r * w > 0 or self.kind[node] != DECISION:
                    walk(c, r * w)

        walk(0, 1.0)
        return out

    def fictitious_play(self, iterations, sigma=None):
        """Simultaneous FP with reach-weighted averaging; returns the average profile."""
        sigma = [row[:] for row in (sigma or self.uniform())]
        for t in range(1, iterations + 1):
            alpha = 1.0 / (t + 1.0)
            brs = [self.best_response(sigma, p)[1] for p in range(self.n_players)]
            for p, br in enumerate(brs):
                pure = [row[:] for row in sigma]
                for I, a in br.items():
                    pure[I] = [1.0 if b == a else 0.0 for b in range(self.n_actions[I])]
                xs, xb = self.own_reach(sigma, p), self.own_reach(pure, p)
                for I, a in br.items():
                    den = (1 - alpha) * xs.get(I, 0.0) + alpha * xb.get(I, 0.0)
                    if den <= 0:
                        continue
                    w = alpha * xb.get(I, 0.0) / den
                    sigma[I] = [s + w * ((1.0 if b == a else 0.0) - s)
                                for b, s in enumerate(sigma[I])]
        return sigma
